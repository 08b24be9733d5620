//! The deck registration sheet a player hands in at a Play! Pokémon event
//! (`deckbox sheet`): [`Sheet::of`] gathers what the form shows from a checked deck, and
//! [`pdf`] draws it as a print-ready PDF laid out like the official form.
//!
//! What the sheet shows, and why:
//! - The player's name, Player ID and date of birth, each left blank (a line to write on)
//!   when not given; the age division, computed from the birth year and the event's season
//!   ([`division`]) unless given.
//! - The format (Standard and Expanded as checkboxes, as on the official form; any other
//!   format by name) and the event date, which is the date the deck is judged at.
//! - Every card, grouped Pokémon / Trainer / Energy, with quantity, English name (the
//!   language judges read), set code, collector number and regulation mark, and totals. A
//!   list written in another language keeps its own name beside the English one.
//! - Set code and number are the printing the line named by them (`PR-SV 27` prints as
//!   `SVP 27`, the paper code). A line that names its card by name alone (no set, or one
//!   of PTCG Live's `SVALT` codes) leaves them blank: any printing is not the player's
//!   printing. [`Sheet::missing_printing`] lists the Pokémon among them, which the form
//!   requires.
//! - A printing outside the format that is legal as a reprint keeps its own code, number
//!   and mark, with a remark naming the legal printing it reprints (`reprint of MEG 130`),
//!   so no rotated mark stands on the sheet unexplained.
//! - The deck's verdict: valid, or a warning with the first errors. `deckbox sheet`
//!   refuses an invalid deck unless `--force`.

pub mod division;
#[cfg(feature = "pdf")]
pub mod pdf;

use jiff::civil::Date;
use serde::Serialize;

use crate::cards::identification::resolve::{self, Resolution};
use crate::cards::{CardDb, Printing, split_subset};
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::deck::Section;
use crate::edit::listing::{self, ListLine, Refusal};
use crate::formats::Format;
use crate::formats::legality::{self, Verdict as Legality};
use crate::names::lang::Language;
use crate::names::plain_spelling;

pub use division::Division;

/// Most errors the sheet quotes; the count says how many there are.
pub const QUOTED_ERRORS: usize = 4;

/// Who hands the sheet in. Every field may be left blank, to be written by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entrant {
    pub name: Option<String>,
    pub player_id: Option<String>,
    pub birth_date: Option<Date>,
    /// The division to tick; computed from the birth date when `None`.
    pub division: Option<Division>,
}

/// Everything the form shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sheet {
    pub player: Option<String>,
    pub player_id: Option<String>,
    pub birth_date: Option<Date>,
    /// The division ticked, if known.
    pub division: Option<Division>,
    /// Whether the division was given rather than computed.
    pub division_given: bool,
    /// The season the event belongs to ([`division::season_of`] of the event date).
    pub season: i16,
    /// The format's id and name.
    pub format_id: String,
    pub format: String,
    pub event_date: Date,
    pub sections: Vec<SheetSection>,
    pub total: u64,
    pub verdict: Verdict,
    /// The language of the list's own names, when they are not English.
    pub own_language: Option<Language>,
    /// The deck file, as named.
    pub source: String,
}

/// One section of cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetSection {
    pub section: Section,
    pub rows: Vec<Row>,
    pub total: u64,
}

/// One card line of the form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub count: u32,
    /// The English name, or the written name of a card deckbox does not know.
    pub name: String,
    /// The list's own name, when it is written in another language.
    pub own_name: Option<String>,
    pub set: Option<String>,
    pub number: Option<String>,
    pub regulation_mark: Option<char>,
    /// Why a printing outside the format is on the sheet: `reprint of MEG 130` (legal as a
    /// reprint, [`crate::formats::legality::Verdict::LegalAsReprint`]), or `reprint of MEG
    /// 130? (text not in the card data)` when deckbox could not compare the text.
    pub remark: Option<String>,
    /// The input lines this row merges.
    pub lines: Vec<usize>,
}

/// What deckbox found in the deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    /// `line N: message` of the first [`QUOTED_ERRORS`] errors.
    pub quoted: Vec<String>,
}

/// Why no sheet was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// Lines that could not be read would be missing from the sheet.
    #[error("{0}")]
    Unreadable(Refusal),
    #[error("the date of birth {birth} is after the event date {event}")]
    BornAfterEvent { birth: Date, event: Date },
}

impl Sheet {
    /// The sheet of a checked deck. The event date is the date the deck was judged at.
    pub fn of(
        deck: &CheckedDeck,
        db: &CardDb,
        format: &Format,
        entrant: Entrant,
    ) -> Result<Sheet, SheetError> {
        let event_date = deck.as_of;
        if let Some(birth) = entrant.birth_date
            && birth > event_date
        {
            return Err(SheetError::BornAfterEvent {
                birth,
                event: event_date,
            });
        }
        let listing = listing::build(deck, db).map_err(SheetError::Unreadable)?;
        let own_language = deck.language.filter(|language| *language != Language::En);
        let sections: Vec<SheetSection> = listing
            .groups
            .iter()
            .map(|group| SheetSection {
                // A group without a section exists only when no card is known and none is
                // under a header; such a deck has no sheet worth printing, but its lines
                // are kept under Pokémon rather than dropped.
                section: group.section.unwrap_or(Section::Pokemon),
                rows: group
                    .lines
                    .iter()
                    .map(|line| row(line, db, format, own_language))
                    .collect(),
                total: group.total(),
            })
            .collect();
        let season = division::season_of(event_date);
        let computed = entrant
            .birth_date
            .map(|birth| Division::of(birth.year(), season));
        let errors: Vec<String> = deck
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
            .map(|diagnostic| match diagnostic.line {
                Some(line) => format!("line {line}: {}", diagnostic.message),
                None => diagnostic.message.clone(),
            })
            .collect();
        Ok(Sheet {
            player: entrant.name,
            player_id: entrant.player_id,
            birth_date: entrant.birth_date,
            division: entrant.division.or(computed),
            division_given: entrant.division.is_some(),
            season,
            format_id: format.id.clone(),
            format: format.name.clone(),
            event_date,
            total: listing.total(),
            sections,
            verdict: Verdict {
                valid: deck.valid(),
                errors: errors.len(),
                warnings: deck.count(Severity::Warning),
                quoted: errors.into_iter().take(QUOTED_ERRORS).collect(),
            },
            own_language,
            source: deck.path.clone(),
        })
    }

    /// The rows with a [`Row::remark`].
    pub fn remarked(&self) -> impl Iterator<Item = &Row> {
        self.sections
            .iter()
            .flat_map(|section| &section.rows)
            .filter(|row| row.remark.is_some())
    }

    /// The Pokémon rows without a set code and number, which the form requires.
    pub fn missing_printing(&self) -> Vec<&Row> {
        self.sections
            .iter()
            .filter(|section| section.section == Section::Pokemon)
            .flat_map(|section| &section.rows)
            .filter(|row| row.set.is_none() || row.number.is_none())
            .collect()
    }
}

/// `Pokémon`, `Trainer`, `Energy`.
pub fn section_word(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "Pokémon",
        Section::Trainer => "Trainer",
        Section::Energy => "Energy",
    }
}

/// `MM/DD/YYYY`, as the official form asks for the date of birth.
pub fn us_date(date: Date) -> String {
    format!("{:02}/{:02}/{:04}", date.month(), date.day(), date.year())
}

fn row(line: &ListLine, db: &CardDb, format: &Format, own_language: Option<Language>) -> Row {
    let printing = line.printing.and_then(|id| db.get(id));
    let named_by_printing = match (&line.set, &line.number) {
        (Some(set), Some(number))
            if !resolve::is_placeholder(set, number) && !resolve::is_ptcgl_alt_code(set) =>
        {
            match resolve::resolve(db, &line.name, Some(set), Some(number), None) {
                Resolution::Found {
                    by_printing: true,
                    id,
                    ..
                } => Some(id) == line.printing,
                _ => false,
            }
        }
        _ => false,
    };
    let (set, number) = match (&line.set, &line.number) {
        (Some(set), Some(number)) if named_by_printing => {
            let (written_set, written_number) = split_subset(set, number);
            let set = printing
                .map(|printing| printing.set_code.clone())
                .filter(|code| !code.is_empty())
                .unwrap_or(written_set);
            (Some(set), Some(written_number))
        }
        // An unknown card keeps what was written: the judge sees what the player meant.
        (Some(set), Some(number)) if printing.is_none() => {
            (Some(set.clone()), Some(number.clone()))
        }
        _ => (None, None),
    };
    let name = line.english.clone().unwrap_or_else(|| line.name.clone());
    let own_name = own_language
        .filter(|_| plain_spelling(&line.name) != plain_spelling(&name))
        .map(|_| line.name.clone());
    let named = printing.filter(|_| named_by_printing);
    Row {
        count: line.count,
        name,
        own_name,
        set,
        number,
        // The mark of the printing named; a card named by name alone has no one printing.
        regulation_mark: named.and_then(|printing| printing.regulation_mark),
        remark: named.and_then(|printing| remark(db, format, printing)),
        lines: line.source_lines.clone(),
    }
}

/// The remark of a printing legal only by the reprint rule (or that may be, had the card
/// data its text).
fn remark(db: &CardDb, format: &Format, printing: &Printing) -> Option<String> {
    match legality::judge(format, db, printing) {
        Legality::LegalAsReprint(id) => {
            Some(format!("reprint of {}", db.get(id)?.printing_label()))
        }
        Legality::Undecided { legal, .. } => Some(format!(
            "reprint of {}? (text not in the card data)",
            db.get(legal)?.printing_label()
        )),
        _ => None,
    }
}
