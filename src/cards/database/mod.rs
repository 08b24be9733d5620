//! The card database: a [`CardDb`] holds printings and two indexes, by set code + number
//! and by name key (see [`crate::names`]) in every language, in one representation whether
//! built in memory or read back from bytes (`card_db.rs`). Its parts: the sorted key
//! tables (`key_table.rs`), the printings' cells, allocated a chunk at a time when first
//! read (`cells.rs`), the byte layout of the printings' details
//! (`details_encoding.rs`), the search columns ([`columns`]) and the sketches of known
//! names that the suggestion search cuts with first (`name_sketch.rs`). This sub-wing uses
//! only `cards::model`; it must not read or write files (that is [`crate::cards::storage`])
//! nor know about deck lists.

pub(crate) mod card_db;
mod cells;
pub mod columns;
pub(crate) mod details_encoding;
mod key_table;
pub(crate) mod name_sketch;
pub mod words;

pub use card_db::{CardDb, NameMatch, TextRef};
pub use details_encoding::{FOLDED_END, FoldedBlock, TextParts, compact as compact_details};
