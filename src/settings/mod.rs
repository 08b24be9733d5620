//! What a run is configured to do: `deckbox.toml` and its layering under flags and the
//! environment ([`config`]), and which files of a repository are deck lists ([`walk`]).

pub mod config;
pub mod walk;
