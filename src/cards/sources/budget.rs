//! What loading one card dataset (a `--cards` checkout) may cost in all: the bytes of every
//! file read and the printings kept. Each file already has its own bound (the loaders'
//! `MAX_*_BYTES`); these bound the sum, so a checkout of a million generated files, or a set
//! list naming one large file many times, is refused instead of filling memory. The
//! loaders share one `Budget` across their threads; once it is spent, every further read
//! is refused at once and `Budget::finish` turns the load into an error.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::CardDbError;

/// Most bytes one dataset's files may hold together: a TCGdex checkout's 21,385 records
/// are 41 MB (@d9083b7), pokemon-tcg-data's files 26 MB.
pub const MAX_DATASET_BYTES: u64 = 256 << 20;

/// Most printings one dataset may give: TCGdex has about 21,000 (TCG Pocket left out),
/// pokemon-tcg-data about 19,000.
pub const MAX_DATASET_PRINTINGS: usize = 200_000;

/// Most attacks, abilities, weaknesses and resistances one dataset may give, in all:
/// TCGdex's 23,881 records give about 30,500 attacks and 4,400 abilities (@d9083b7). Each is
/// a few hundred bytes built, with its texts: within the per-record bound a record can hold
/// 1,200 attacks, and a 13 MB archive of such records cost 4 GB before this bound.
pub const MAX_DATASET_PARTS: usize = 400_000;

/// The bytes, printings and parts one load has spent so far.
#[derive(Debug)]
pub(crate) struct Budget {
    root: PathBuf,
    bytes: AtomicU64,
    printings: AtomicUsize,
    parts: AtomicUsize,
    spent: AtomicBool,
}

impl Budget {
    pub(crate) fn new(root: &Path) -> Budget {
        Budget {
            root: root.to_path_buf(),
            bytes: AtomicU64::new(0),
            printings: AtomicUsize::new(0),
            parts: AtomicUsize::new(0),
            spent: AtomicBool::new(false),
        }
    }

    /// Reads `path` through the bounded reader (at most `limit` bytes) and counts its bytes;
    /// refused without reading once the budget is spent.
    pub(crate) fn read(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        if self.spent.load(Ordering::Relaxed) {
            return Err(std::io::Error::other(
                "not read: the card dataset is larger than deckbox loads",
            ));
        }
        let bytes = crate::util::bounded::read(path, limit)?;
        let len = bytes.len() as u64;
        if self.bytes.fetch_add(len, Ordering::Relaxed) + len > MAX_DATASET_BYTES {
            self.spent.store(true, Ordering::Relaxed);
        }
        Ok(bytes)
    }

    /// Counts `count` more printings kept; `false` (and the budget spent) past the bound.
    pub(crate) fn keep(&self, count: usize) -> bool {
        let fits =
            self.printings.fetch_add(count, Ordering::Relaxed) + count <= MAX_DATASET_PRINTINGS;
        if !fits {
            self.spent.store(true, Ordering::Relaxed);
        }
        fits
    }

    /// Counts one printing's attacks, abilities, weaknesses and resistances; `false` (and the
    /// budget spent, so no further file is read) past [`MAX_DATASET_PARTS`].
    pub(crate) fn keep_parts(&self, details: &crate::cards::model::details::Details) -> bool {
        let count = details.attacks.len()
            + details.abilities.len()
            + details.weaknesses.len()
            + details.resistances.len();
        let fits = self.parts.fetch_add(count, Ordering::Relaxed) + count <= MAX_DATASET_PARTS;
        if !fits {
            self.spent.store(true, Ordering::Relaxed);
        }
        fits
    }

    /// `Ok` while within every bound, else the error saying which was passed.
    pub(crate) fn finish(&self) -> Result<(), CardDbError> {
        if !self.spent.load(Ordering::Relaxed) {
            return Ok(());
        }
        let message = if self.printings.load(Ordering::Relaxed) > MAX_DATASET_PRINTINGS {
            format!(
                "the card dataset gives more than {MAX_DATASET_PRINTINGS} printings; \
                 deckbox loads no more (a full TCGdex checkout gives about 21,000)"
            )
        } else if self.parts.load(Ordering::Relaxed) > MAX_DATASET_PARTS {
            format!(
                "the card dataset gives more than {MAX_DATASET_PARTS} attacks, abilities, \
                 weaknesses and resistances; deckbox loads no more (a full TCGdex checkout \
                 gives about 40,000)"
            )
        } else {
            format!(
                "the card dataset's files hold more than {} MiB; deckbox reads no more \
                 (a full TCGdex checkout holds 41 MB)",
                MAX_DATASET_BYTES >> 20
            )
        };
        Err(CardDbError::TooLarge {
            path: self.root.clone(),
            message,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printings_past_the_bound_spend_the_budget() {
        let budget = Budget::new(Path::new("/cards"));
        assert!(budget.keep(MAX_DATASET_PRINTINGS));
        assert!(budget.finish().is_ok());
        assert!(!budget.keep(1));
        let error = budget.finish().unwrap_err().to_string();
        assert!(error.contains("more than 200000 printings"), "{error}");
        assert!(error.starts_with("/cards"), "{error}");
    }

    #[test]
    fn parts_past_the_bound_spend_the_budget() {
        let budget = Budget::new(Path::new("/cards"));
        let mut details = crate::cards::model::details::Details {
            attacks: vec![Default::default(); MAX_DATASET_PARTS],
            ..Default::default()
        };
        assert!(budget.keep_parts(&details));
        assert!(budget.finish().is_ok());
        details.attacks.truncate(1);
        assert!(!budget.keep_parts(&details));
        let error = budget.finish().unwrap_err().to_string();
        assert!(
            error.contains("more than 400000 attacks, abilities"),
            "{error}"
        );
        assert!(
            budget.read(Path::new("/dev/null"), 1).is_err(),
            "no more reads"
        );
    }
}
