//! `deckbox sheet`: a deck registration sheet, the deck read and checked as `check` does at
//! the event date, laid out as PDF. Writing the file is the caller's.

use std::io::Read;
use std::path::Path;

use super::read_and_check;
use crate::check::CheckedDeck;
use crate::error::Error;
use crate::render::sheet::pdf::{Paper, pdf};
use crate::render::sheet::{Entrant, Sheet, SheetError};
use crate::settings::Settings;

/// A sheet made for a deck.
pub struct SheetMade {
    /// The deck as checked.
    pub deck: CheckedDeck,
    pub sheet: Sheet,
    /// The PDF; `None` for a deck that breaks a rule unless forced.
    pub pdf: Option<Vec<u8>>,
}

/// The sheet of the deck in `file` (`-` is standard input) for `entrant`, on `paper`: its
/// PDF only when the deck is valid or `force`.
pub fn sheet(
    settings: &Settings,
    file: &Path,
    mut entrant: Entrant,
    paper: Paper,
    force: bool,
    stdin: &mut dyn Read,
) -> Result<SheetMade, Error> {
    let (_, format, deck) = read_and_check(file, settings, stdin, &mut false)?;
    if entrant.name.is_none() {
        entrant.name = crate::render::event::written_player(&deck);
    }
    let sheet = match Sheet::of(&deck, &settings.db, &format, entrant) {
        Ok(sheet) => sheet,
        Err(SheetError::Unreadable(refusal)) => {
            return Err(Error::Refused {
                name: crate::util::escape::path_line(file),
                reason: refusal.to_string().replacen(
                    "not formatted: formatting",
                    "no sheet: the sheet",
                    1,
                ),
            });
        }
        Err(error @ SheetError::BornAfterEvent { .. }) => {
            return Err(Error::Usage {
                message: error.to_string(),
            });
        }
    };
    let pdf = if sheet.verdict.valid || force {
        Some(pdf(&sheet, paper).map_err(|error| Error::Usage {
            message: error.to_string(),
        })?)
    } else {
        None
    };
    Ok(SheetMade { deck, sheet, pdf })
}
