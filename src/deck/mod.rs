//! Reading deck lists as people paste them, keeping the byte span of everything written.
//!
//! [`parse`] accepts the Pokémon TCG Live export, the legacy PTCGO layout, Limitless text
//! and plain `4 Name` / `4x Name` lists, with localized headers in six languages. It never
//! fails: a line it cannot read becomes a [`ParseIssue`] and the rest is still read. It
//! does not know cards: set codes and names are kept as written, for [`crate::cards`].

use serde::Serialize;

use crate::lang::Language;

/// A byte range into the text exactly as the user wrote it (after decoding to UTF-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub offset: usize,
    pub length: usize,
}

impl Span {
    pub fn new(offset: usize, length: usize) -> Span {
        Span { offset, length }
    }

    pub fn end(self) -> usize {
        self.offset + self.length
    }
}

/// The section a line was listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    Pokemon,
    Trainer,
    Energy,
}

/// One card line: `4 Dreepy TWM 128`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardLine {
    /// 1-based line number.
    pub line: usize,
    pub count: u32,
    /// The name as written, trimmed (curly quotes, accents and case untouched).
    pub name: String,
    /// The set code as written (`PR-SV`, `CRZ-GG`, `SVE`), if any.
    pub set: Option<String>,
    /// The collector number as written (`059`, `TG05`), if any.
    pub number: Option<String>,
    /// Whether the line ends in `PH` (a Pokémon TCG Live "placeholder" printing marker).
    pub ph: bool,
    pub section: Option<Section>,
    /// The whole line without its line ending and surrounding blanks.
    pub span: Span,
    /// The count as written (`4`, `4x`, `* 4`).
    pub count_span: Span,
    pub name_span: Span,
}

/// A section header (`Pokémon: 12`, `##Trainer Cards - 30`, `Dresseur (30)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Header {
    pub line: usize,
    pub section: Section,
    /// The number written in the header, if any. Never trusted: see `header-count`.
    pub count: Option<u64>,
    pub language: Option<Language>,
    pub span: Span,
}

/// The `Total Cards: 60` footer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Footer {
    pub line: usize,
    pub count: Option<u64>,
    pub language: Option<Language>,
    pub span: Span,
}

/// What kind of problem a line had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParseIssueKind {
    /// A line that is neither a card, a header, a footer, a comment nor a banner.
    Unreadable,
    /// A count of zero, or one too large to be a card count.
    BadCount,
}

/// A line [`parse`] could not read; the rest of the deck is still read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParseIssue {
    pub line: usize,
    pub kind: ParseIssueKind,
    pub message: String,
    pub span: Span,
}

/// A deck list as read, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeckList {
    pub cards: Vec<CardLine>,
    pub headers: Vec<Header>,
    pub footer: Option<Footer>,
    pub issues: Vec<ParseIssue>,
}

/// Reads a deck list (stub, replaced by the parser work).
pub fn parse(_text: &str) -> DeckList {
    DeckList::default()
}
