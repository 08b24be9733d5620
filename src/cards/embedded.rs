//! The card index compiled into the binary: every card of the TCGdex database's
//! international prints, from `cards/index.bin` (see [`super::index_file`]).
//!
//! It is deckbox's default card source: no clone, no network, no setup. `--cards` replaces
//! it with a user's own checkout (a fresher TCGdex clone, or pokemon-tcg-data). Opening it
//! copies the tables out of the embedded bytes; printings are decoded when a lookup asks
//! for them. This module must not read the disk or know about deck lists.

use super::{CardDb, CardDbError, Source, index_file};

/// The generated binary index (`cargo xtask cards` writes it; never edited by hand).
static INDEX: &[u8] = include_bytes!("../../cards/index.bin");

/// Opens the embedded index.
pub fn open() -> Result<CardDb, CardDbError> {
    index_file::db_from_bin(INDEX, Source::Embedded).ok_or_else(|| CardDbError::Invalid {
        path: "cards/index.bin".into(),
        message: "the embedded card index is damaged or from another version: regenerate it with `cargo xtask cards`".into(),
    })
}
