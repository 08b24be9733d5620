//! The card database: what a printing is, where printings come from, how a database is
//! indexed, stored and searched. This wing must not know about deck lists or rules: it
//! answers questions about cards.
//!
//! Its sub-wings, in order: each uses only the sub-wings before it
//! (`tests/suite/architecture.rs` checks it), and names a sibling by its full path
//! (`crate::cards::model::Printing`), not by the re-exports below.
//!
//! 1. [`model`]: what a card is. [`Printing`], its [`Names`], kinds, stages and [`Tags`];
//!    set codes and numbers normalized ([`set_key`], [`number_key`], [`split_subset`]);
//!    [`Details`](model::details::Details), what a printing says beyond the rules; the
//!    [`effect`](model::effect) fingerprint the reprint rule compares.
//! 2. [`database`]: [`CardDb`], printings and their indexes (by set code + number, by name
//!    key in every language), whether built in memory or read back from bytes; the byte
//!    layout of the details and the search [`columns`](database::columns).
//! 3. [`identification`]: finding cards in a database: the card a deck-list line means
//!    ([`resolve`](identification::resolve)) and what a player's query names
//!    ([`lookup`](identification::lookup)).
//! 4. [`sources`]: loading a TCGdex or pokemon-tcg-data checkout into printings, within one
//!    [`budget`](sources::budget), and the hand-checked flags every source gets
//!    ([`curated`](sources::curated)); [`CardDbError`].
//! 5. [`storage`]: databases as files: the committed index (`cards/index.tsv`,
//!    `cards/index.bin`) and its generator, that index embedded in the binary, the on-disk
//!    cache of a `--cards` checkout, the index `deckbox cards update` installs.
//!
//! The rest of the crate uses the items re-exported here (`crate::cards::CardDb`,
//! `crate::cards::Printing`) and the sub-wings' modules by their paths
//! (`crate::cards::identification::resolve`, `crate::cards::storage::embedded`).

pub mod model;

pub mod database;

pub mod identification;

pub mod sources;

pub mod storage;

pub use database::{CardDb, FOLDED_END, FoldedBlock, NameMatch, TextParts, TextRef};
pub(crate) use model::split_number;
pub use model::{
    Category, DbSlot, EnergyKind, Names, Printing, PrintingId, PrintingView, Source, Stage, Tag,
    Tags, TrainerKind, number_key, set_key, split_subset,
};
pub use sources::CardDbError;
