//! Writing deck lists: the canonical form and other layouts or languages ([`listing`]: `fmt`,
//! `convert`), edits in place ([`in_place`]: `add`, `remove`) and what changed between two lists
//! ([`diff`]). Each takes checked decks and returns text or values; [`mod@file`] is the one
//! place a deck file is changed: the rewrite policy and the transaction (lock, read,
//! compute, write through [`crate::util::atomic`]) that `fmt --write`, `add` and `remove`
//! share.

pub mod diff;
pub mod file;
pub mod in_place;
pub mod listing;
