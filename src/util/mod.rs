//! Plumbing every wing may use, and that knows nothing of decks or cards: atomic writes to
//! user files ([`atomic`]), the one bounded reader for files deckbox did not write
//! ([`bounded`]), calendar days ([`date`]), escaping text for a terminal ([`escape`]), the error type of strictly
//! read TOML files ([`invalid_file`]), a bounded memo shared by threads ([`memo`]), a
//! cheap count of a TOML text's values before it is parsed ([`toml_shape`]), rayon or its
//! sequential stand-in ([`parallel`]) and how far long work has come ([`progress`]).

pub mod atomic;
pub mod bounded;
pub mod date;
pub mod escape;
pub mod invalid_file;
pub mod memo;
pub mod parallel;
pub mod progress;
pub mod toml_shape;
