//! deckbox: check, analyse and edit Pokémon TCG deck lists.
//!
//! The folders are the pipeline, in order; each wing uses only those above it (no cycle,
//! nothing runs back up; ARCHITECTURE.md draws it):
//!
//! - [`util`]: plumbing that knows nothing of decks: atomic writes, the bounded reader,
//!   escaping text for a terminal.
//! - [`names`]: languages, and card names as the rulebooks define them (pure text).
//! - [`deck`]: read a deck list safely (bounded file reading, decode, lines, headers, card
//!   lines), keeping every byte span.
//! - [`cards`]: the card database (embedded index, TCGdex, pokemon-tcg-data) and identifying
//!   a written card in it.
//! - [`formats`]: format files as data: construction settings, legality, the reprint rule,
//!   setup.
//! - [`search`]: every printing a query describes (`deckbox search`): the query language,
//!   its keys and their tests.
//! - [`check`]: one deck against a format: identify every line, run the rule registry,
//!   findings.
//! - [`collection`]: the cards a player owns (lists and collection apps' CSV exports,
//!   each line identified as `check` identifies a deck's), and what decks still need.
//! - [`edit`]: canonical lists, conversion, edits in place, diffs.
//! - [`engine`]: the game-setup engine (shuffle, hand, mulligans, prizes, draws).
//! - [`stats`]: opening-hand odds, exact and simulated through the engine.
//! - [`render`]: every output: human, short, JSON, SARIF, stats text/Markdown/HTML, the event
//!   table, the registration sheet (PDF), card and format pages, `explain`, the rules
//!   reference.
//! - [`error`]: why deckbox could not do its job ([`error::Error`], gathering the wings' own
//!   errors) and the exit codes that are its contract ([`error::Exit`]).
//! - [`settings`]: `deckbox.toml`, its layering under flags and the environment (the format
//!   loaded, the card database opened), and which files of a repository are deck lists.
//! - [`session`]: the application layer: each job a command does as one call (the chunked
//!   parallel walk, `check` over many files and `--format all`, `need`, `card`, `sheet`,
//!   the card index's status), for the binary and any other face to render.
//! - [`builder`]: the deck builder of `deckbox build` as a model driven by messages (keys,
//!   a search's answer, a save done) that returns effects (search, write, quit); no terminal
//!   type, so a browser can drive it too.
//!
//! The library never prints and never exits: it returns values and findings, and the binary
//! (`src/main.rs` and its `src/cli/`: clap arguments and one short function per command)
//! decides what to show and the exit code.
//!
//! The command line lives in the binary, not here, as in typos: the library then has no
//! clap type in its API and cannot lean on the CLI, so everything a command does must be a
//! library function a test, a bench or the fuzzer can call. This library's API serves the
//! `deckbox` binary and is not stable: items may change in any release.

pub mod util;

pub mod names;

pub mod deck;

pub mod cards;

pub mod formats;

pub mod search;

pub mod check;

pub mod collection;

pub mod edit;

pub mod engine;

pub mod stats;

pub mod render;

pub mod error;

pub mod settings;

pub mod session;

pub mod builder;
