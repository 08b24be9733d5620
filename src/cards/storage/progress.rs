//! How far long card work has come, for a progress bar: an install (`deckbox cards
//! update`) and an index built from a checkout `--cards` names when no current cache holds
//! it (a few seconds, once). The library never draws anything; the binary implements
//! [`Progress`] (`util::progress`) with a bar on a terminal.

use std::sync::OnceLock;

use crate::util::progress::{Progress, Unit};

/// Who is told when an index is built from a checkout; nobody until the binary says.
static INDEX_BUILDS: OnceLock<&'static dyn Progress> = OnceLock::new();

/// Tells `progress` from now on when an index is built from a checkout (no current cache):
/// one step, "building the card index", then `finish`. The first call wins.
pub fn watch_index_builds(progress: &'static dyn Progress) {
    let _ = INDEX_BUILDS.set(progress);
}

/// An index build under way: the watcher's step while it lives, `finish` when dropped (built
/// or failed).
pub(crate) struct IndexBuild;

impl IndexBuild {
    pub(crate) fn start() -> IndexBuild {
        if let Some(progress) = INDEX_BUILDS.get() {
            progress.step(
                "building the card index (once; later runs read its cache)",
                None,
                Unit::Bytes,
            );
        }
        IndexBuild
    }
}

impl Drop for IndexBuild {
    fn drop(&mut self) {
        if let Some(progress) = INDEX_BUILDS.get() {
            progress.finish();
        }
    }
}
