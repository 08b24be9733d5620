//! The application layer: each job a command does, as one library call a face (the
//! terminal today; an editor, a browser, an assistant) makes with plain arguments and the
//! [`Settings`] it resolved, getting back values (or, for a walk over many files, results
//! handed to a callback as they are made) that it renders. It knows no command-line parser
//! and never prints.
//!
//! - [`chunks`]: the chunked parallel walk of a command over many files, on a [`Pool`].
//! - [`check`]: `check` over many files, and `--format all`.
//! - [`fmt`]: `fmt` on one file, and `fmt --check`/`--write` over many.
//! - [`need`], [`card`], [`sheet`], [`index`]: what `need`, `card`, `sheet` and
//!   `cards status`/`cards reset` do.
//! - [`review`]: `review` and `log`, a git repository's deck lists across revisions, read
//!   through [`git`].
//! - [`assist`]: lists as text or paths inside a client's roots, pages, and the pages of
//!   `explain` and `formats`, for a face that is not a terminal.
//! - [`editor`]: one buffer as an editor shows it (findings, fixes, hover, completion).

pub mod assist;
pub mod card;
pub mod check;
pub mod chunks;
pub mod editor;
pub mod fmt;
pub mod git;
pub mod index;
pub mod need;
mod pool;
pub mod review;
#[cfg(feature = "pdf")]
pub mod sheet;

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use crate::check::CheckedDeck;
use crate::deck::DeckInput;
use crate::deck::input::read_deck;
use crate::error::Error;
use crate::formats::Format;
use crate::settings::Settings;
pub use pool::Pool;

/// A deck as read, the format it was checked in (borrowed from the settings when it is
/// theirs), and the checked deck.
pub type Checked<'s> = (DeckInput, Cow<'s, Format>, CheckedDeck);

/// A deck read (`-` is standard input, once: `stdin_used`) and checked in the format it
/// declares or the settings give: what every single-deck command starts from.
pub fn read_and_check<'s>(
    file: &Path,
    settings: &'s Settings,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Result<Checked<'s>, Error> {
    let input = read_deck(file, stdin, stdin_used).map_err(Error::from)?;
    let format = settings.format_for_deck(&input)?;
    let deck = crate::check::check(&input, &settings.db, &format);
    Ok((input, format, deck))
}
