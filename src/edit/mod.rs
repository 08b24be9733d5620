//! Writing deck lists: the canonical form and other layouts or languages ([`listing`]: `fmt`,
//! `convert`), edits in place ([`in_place`]: `add`, `remove`) and what changed between two lists
//! ([`diff`]). Each takes checked decks and returns text or values: writing files is the
//! caller's job, through [`crate::util::atomic`].

pub mod diff;
pub mod in_place;
pub mod listing;
