//! `deckbox cards status` and `deckbox cards reset`: which card index is in use, and going
//! back to the embedded one. (`cards update` downloads in the binary, then installs through
//! [`crate::cards::storage::update::install`].)

use std::path::Path;

use crate::cards::storage::update::{self, Installed, UpdateError};

/// Which card index is in use.
#[derive(Debug)]
pub enum IndexStatus {
    /// The one `deckbox cards update` installed.
    Updated(Installed),
    /// The one built into deckbox.
    Embedded {
        /// The newest printing's set code and release date, when the index has one.
        newest: Option<(String, String)>,
        printings: usize,
        /// Why an updated index that is installed cannot be used.
        unusable: Option<String>,
    },
}

/// Which card index is in use, with the updated one installed in `dir`.
pub fn status(dir: &Path) -> Result<IndexStatus, UpdateError> {
    let unusable = match update::status(dir) {
        Ok(Some(installed)) => return Ok(IndexStatus::Updated(installed)),
        Ok(None) => None,
        Err(error) => Some(error.to_string()),
    };
    let db = crate::cards::storage::embedded::open()?;
    let newest = db
        .len()
        .checked_sub(1)
        .and_then(|last| db.get(u32::try_from(last).ok()?))
        .map(|p| (p.set_code.clone(), p.release_date.clone()));
    Ok(IndexStatus::Embedded {
        newest,
        printings: db.len(),
        unusable,
    })
}

/// Removes the updated card index installed in `dir` (under its lock): whether there was
/// one.
pub fn reset(dir: &Path) -> Result<bool, UpdateError> {
    let _lock = update::lock(dir)?;
    update::reset(dir)
}
