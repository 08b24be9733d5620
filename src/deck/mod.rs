//! Reading deck lists as people paste them, keeping the byte span of everything written.
//!
//! [`parse`] accepts the Pokémon TCG Live export, the legacy PTCGO layout, Limitless text
//! and plain `4 Name` / `4x Name` lists, with localized headers in six languages. It never
//! fails: a line it cannot read becomes a [`ParseIssue`] and the rest is still read. It
//! does not know cards: set codes and names are kept as written, for [`crate::cards`].
//! [`decode()`] turns file bytes into the text [`parse`] reads. JSON deck lists (deckbox's
//! own `convert --to json` output, Limitless-style objects, a text list in a JSON string)
//! are read by the `json` module into the same [`DeckList`], spans pointing into the JSON
//! text; [`read_json`] reads one strictly, refusing what is no deck list ([`NotADeck`]).
//!
//! Each line is classified (blank, comment, banner, header, footer, card, unreadable) by
//! `classify`; card lines are then split by `card`. Decisions a caller must know:
//! - Comments: a line starting with `//`, or with `#` when what follows is not a header or
//!   footer (`##Pokémon - 22` and `## Trainers (30)` are headers); on a card line, a
//!   trailing ` # ...` or ` // ...` after a blank. Banners (`****** ... ******`, `-----`)
//!   are skipped.
//! - Counts: `4`, `4x`, `4 x`, `x4`, `4×`, after an optional `*`/`-`/`•` bullet. A count
//!   of 0, above [`MAX_COUNT`], negative or overflowing is a `BadCount` issue and the line
//!   adds no card.
//! - Set code and number: see the `card` module; a number without a code is kept only
//!   where it cannot be part of the name.
//! - Pasted shapes (`card`, `spreadsheet`): a printing in brackets (`3x Charmander (PAF 7)`),
//!   after a dash (`Switch - MEG 130`) or first (`TWM 128 Dreepy`); a count after the name
//!   (`Dreepy x4`); no count at all only when the printing is set apart in one of those
//!   ways (one copy, empty count span); spreadsheet rows with tabs, and under a header row
//!   naming the columns (any order, six languages) also `;` or `,` rows.
//! - Title and notes: free text (no card, header, footer or comment) before the first card
//!   and header is a [`Note`], never an issue; the first line of the list, free text or a
//!   comment, is its [`Title`]. After the first card or header, free text is an
//!   `Unreadable` issue whose message names the closest shape (`shapes`).
//! - Header and footer counts are recorded as written and never trusted.
//! - The parser is linear in the input size: every line is scanned a bounded number of
//!   times and nothing backtracks.

mod card;
mod classify;
pub mod declared;
mod decode;
mod header;
pub mod input;
mod json;
mod lines;
mod reader;
mod shapes;
pub mod source;
mod spreadsheet;

use serde::Serialize;

use crate::names::lang::Language;

pub use card::{
    PromoNamed, looks_like_set_id, lower_case_code, lower_case_ex, name_then_code, note_then_code,
    post_shorthand, promo_named, whole_name, without_note, without_promo_word,
};
pub(crate) use card::{joins_as_database_id, reads_as_multiplier};
pub use decode::{Decoded, LOSSY_UTF8, decode};
pub use input::DeckInput;
pub use json::{CardField, NotADeck, members as json_members, read as read_json, section_named};
pub(crate) use lines::line_breaks;
use reader::Reader;

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
    /// The collector number as written (`059`, `TG05`), if any. It can come without a
    /// `set` when the line left the code out (`Basic {W} Energy  3`, `Lugia V 138`).
    pub number: Option<String>,
    /// Whether the line ends in `PH` (a Pokémon TCG Live "placeholder" printing marker).
    pub ph: bool,
    pub section: Option<Section>,
    /// The whole line without its line ending and surrounding blanks.
    pub span: Span,
    /// The count as written (`4`, `4x`, `* 4`).
    pub count_span: Span,
    pub name_span: Span,
    /// The comment after the card (`1 Ultra Ball MEG 131 // tech`: `tech`), without its
    /// marker; `fmt` writes it back on the card's line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A section header (`Pokémon: 12`, `##Trainer Cards - 30`, `Dresseur (30)`), or the
/// header of a part of a section (`Supporters (12)`, `Basic Energy - 8`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Header {
    pub line: usize,
    pub section: Section,
    /// Whether it heads a part of its section (`Supporters (12)` under `Trainer (34)`):
    /// its number counts the lines up to the next header of any kind, a section header's
    /// counts up to the next section header ([`DeckList::header_ends`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sub: bool,
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
    /// One sentence saying what is wrong and what was expected.
    pub message: String,
    /// The count for a `BadCount`, the whole line otherwise.
    pub span: Span,
}

/// A deck-list layout: the exports deckbox reads and writes, one vocabulary with one id each
/// ([`Layout::name`], what `convert --to` takes). A list read has the layout it looks like
/// ([`DeckList::layout`], a guess from its headers, footer and banners), which tells the
/// checker how to read header counts: Pokémon TCG Live counts *lines* in `Pokémon: 12`,
/// PTCGO and Limitless count *cards*. A list written is written in one of them
/// (`crate::edit::listing::render`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Pokémon TCG Live export: `Pokémon: 12` headers and a `Total Cards: 60` footer (or a
    /// localized one). What `deckbox fmt` writes.
    Ptcgl,
    /// Legacy Pokémon TCG Online: asterisk banners, `##Pokémon - 22` headers,
    /// `* 4 Name SET 12` lines, a `Total Cards - 60` footer.
    Ptcgo,
    /// Limitless: `Pokémon: 18` headers with cards carrying set codes, and no footer.
    Limitless,
    /// JSON: deckbox's own `convert --to json` output, a Limitless-style object of
    /// sections, or an array of card objects (see the `json` module).
    Json,
}

impl Layout {
    pub const ALL: [Layout; 4] = [
        Layout::Ptcgl,
        Layout::Ptcgo,
        Layout::Limitless,
        Layout::Json,
    ];

    /// Its id: `ptcgl`, `ptcgo`, `limitless`, `json`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Ptcgl => "ptcgl",
            Layout::Ptcgo => "ptcgo",
            Layout::Limitless => "limitless",
            Layout::Json => "json",
        }
    }

    /// Parses a layout id ([`Layout::name`]), ignoring case.
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL
            .into_iter()
            .find(|layout| layout.name().eq_ignore_ascii_case(name))
    }
}

/// [`DeckList::layout`] by its id ([`Layout::name`]), `null` for a list with no layout of
/// its own: what the parser's debug dumps show.
fn serialize_read_layout<S: serde::Serializer>(
    layout: &Option<Layout>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match layout {
        Some(layout) => serializer.serialize_str(layout.name()),
        None => serializer.serialize_none(),
    }
}

/// Where a JSON deck list keeps its cards, so `fmt` can rewrite it in its own layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonLayout {
    /// deckbox's own layout (`sections`); `foreign` names keys (the first few) its JSON
    /// output does not write, or the key it is wrapped under.
    Own { foreign: Vec<String> },
    /// An object of section keys (Limitless-style), at `at` in the text.
    Keyed { at: Span },
    /// An array of card objects, at `at`.
    Array { at: Span },
    /// A text list in a JSON string, at `at` (the string, quotes included).
    Text { at: Span },
}

/// The title of a list: its first line, when that is free text (`Charizard ex - 1st place
/// Regional`, `my list for sunday:`) or a whole-line comment (`// Charizard ex ...`, what
/// `fmt` writes for it), before any card, header or footer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Title {
    pub line: usize,
    /// The title without a comment marker and surrounding blanks.
    pub text: String,
    /// The whole line as written.
    pub span: Span,
}

/// A free-text line before the first card and the first header (a title, a player's
/// name, a date): not a card and not an issue. `fmt` keeps it as a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Note {
    pub line: usize,
    pub span: Span,
}

/// A deck list as read, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeckList {
    /// Every card line, in order; the same card on two lines stays two entries.
    pub cards: Vec<CardLine>,
    pub headers: Vec<Header>,
    /// The first deck-total line (`Total Cards: 60`); a second one is an issue.
    pub footer: Option<Footer>,
    pub issues: Vec<ParseIssue>,
    /// The export the list looks like; `None` when nothing tells (`4 Iono`, `4x Iono`,
    /// `Trainers (30)` lists, or nothing at all).
    #[serde(serialize_with = "serialize_read_layout")]
    pub layout: Option<Layout>,
    /// The language the headers and footer agree on (`Dresseur` → French, `Trainer` alone
    /// → English, `Trainer` with `Energie` → German); `None` when they say nothing, as in
    /// a list without headers or with only `Pokémon`.
    pub language: Option<Language>,
    /// Every language the headers and footer fit, in [`Language::ALL`] order: the one of
    /// [`language`](Self::language) when they decide it, several when they do not
    /// (`Pokémon` with `Total de cartas` fits Spanish and Portuguese), none when they say
    /// nothing or disagree.
    #[serde(skip)]
    pub header_languages: Vec<Language>,
    /// The list's title (see [`Title`]), if its first line is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Title>,
    /// Free-text lines before the first card and header, in order (see [`Note`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// Whole-line comments a JSON list carries in its `comments` array, each a `//` or `#`
    /// line. Empty for text lists, whose comments are lines of the text itself.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// How a JSON list is laid out; `None` for a text list.
    #[serde(skip)]
    pub json: Option<JsonLayout>,
}

impl DeckList {
    /// Where the number of each header stops counting, as a byte offset (`usize::MAX`: the
    /// end of the list). A part's header (`Supporters (12)`) counts up to the next header
    /// of any kind; a section's header (`Trainer (34)`) counts its parts too, up to the
    /// next header that is not a part of its section.
    pub fn header_ends(&self) -> Vec<usize> {
        let mut ends = vec![usize::MAX; self.headers.len()];
        for (index, header) in self.headers.iter().enumerate() {
            let next = self
                .headers
                .iter()
                .skip(index + 1)
                .find(|next| header.sub || !next.sub || next.section != header.section);
            if let (Some(next), Some(end)) = (next, ends.get_mut(index)) {
                *end = next.span.offset;
            }
        }
        ends
    }

    /// For each header, the section header whose count includes its lines too (a part's
    /// section), if any.
    pub fn header_parents(&self) -> Vec<Option<usize>> {
        let ends = self.header_ends();
        let mut parent = None;
        let mut out = Vec::with_capacity(self.headers.len());
        for (index, header) in self.headers.iter().enumerate() {
            if !header.sub {
                parent = Some(index);
                out.push(None);
                continue;
            }
            out.push(parent.filter(|&p| ends.get(p).is_some_and(|&end| end > header.span.offset)));
        }
        out
    }
}

/// Card counts above this are [`ParseIssueKind::BadCount`]: no format allows them, and a
/// bigger number is more likely a collector number or a year in the wrong place.
pub const MAX_COUNT: u32 = 10_000;

/// Reads a deck list. Never fails and never panics: lines it cannot read become
/// [`ParseIssue`]s. A BOM at the start is skipped; spans are byte offsets into `text`.
/// A text whose first non-blank character is `{` or `[` is read as JSON
/// (layout [`Layout::Json`]).
pub fn parse(text: &str) -> DeckList {
    if json::is_json(text) {
        return json::parse(text);
    }
    parse_text(text)
}

/// Reads a text list (never JSON).
fn parse_text(text: &str) -> DeckList {
    let mut reader = Reader::default();
    for line in lines::lines(text) {
        // A line dressed in chat markup (`* **2x Boss's Orders** (MEG 114)`, `🧰 **Trainers
        // (30)**`) is read without it when that makes it a card or a header; anything else
        // (a title with emoji) is read as written.
        let plain = lines::blank_markup(line.text);
        let plain = plain.as_deref().map(lines::trim).and_then(|(lead, text)| {
            matches!(
                classify::classify(text),
                classify::Class::Card { .. } | classify::Class::Marker(_)
            )
            .then_some(lines::Line {
                offset: line.offset + lead,
                text,
                ..line
            })
        });
        reader.read(plain.unwrap_or(line));
    }
    reader.finish()
}
