//! deckbox: check, analyse and edit Pokémon TCG deck lists.
//!
//! The module tree is the pipeline: [`deck`] reads a list and keeps every byte span,
//! [`names`] turns a printed name into a lookup key, [`cards`] loads and resolves the card
//! database, [`format`](mod@format) holds the format files and the construction rules, [`check`] runs
//! them over a deck, [`report`] renders findings. The library never prints and never exits:
//! it returns values and findings, and `main.rs` decides what to show.

pub mod atomic;
pub mod bounded;
pub mod cards;
pub mod check;
pub mod cli;
pub mod config;
pub mod deck;
pub mod diagnostic;
pub mod diff;
pub mod edit;
pub mod engine;
pub mod format;
pub mod invalid_file;
pub mod lang;
pub mod listing;
pub mod memo;
pub mod names;
pub mod report;
pub mod stats;
pub mod walk;
