//! Checking one deck: read the list, identify every card, apply the format's rules.
//!
//! [`check`] is the whole pipeline for one deck and returns a [`CheckedDeck`]: the cards as
//! identified and every finding, sorted. It reports everything in one pass: a bad line is
//! recorded and skipped, never fatal. It reads nothing from disk and prints nothing.

pub mod diagnostic;
mod identify;
pub mod rule;
pub mod rules;

use serde::Serialize;

use crate::cards::{CardDb, PrintingId};
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::check::rules::lines;
use crate::deck::source::SourceText;
use crate::deck::{self, CardLine, DeckInput, DeckList};
use crate::formats::Format;
use crate::names::lang::Language;

/// A card line and the printing it was identified as.
#[derive(Debug, Clone, Serialize)]
pub struct DeckCard {
    pub line: CardLine,
    #[serde(skip)]
    pub printing: Option<PrintingId>,
    /// The language whose name matched.
    pub language: Option<Language>,
}

impl DeckCard {
    /// The card's identity, the same for every printing and language of one card: the
    /// lookup key of the identified printing's rules name, else of the name as written.
    /// The construction rules, `diff` and `add`/`remove` count and match cards by it.
    pub fn key(&self, db: &CardDb) -> String {
        match self.printing.and_then(|id| db.get(id)) {
            Some(printing) => printing.rules_key().to_string(),
            None => crate::names::lookup_key(&self.line.name),
        }
    }
}

/// The result of checking one deck.
#[derive(Debug, Clone)]
pub struct CheckedDeck {
    pub path: String,
    /// The file name's bytes when it is not UTF-8 ([`DeckInput::path_bytes`]).
    pub path_bytes: Option<Vec<u8>>,
    pub source: String,
    pub format: String,
    /// The date the deck was judged at.
    pub as_of: jiff::civil::Date,
    /// The language most card names are written in (ties: the headers' language).
    pub language: Option<Language>,
    /// The language to write the list's headers and footer in: the one they decide, else
    /// the one of the languages they fit that most names are written in, else
    /// [`language`](Self::language). `fmt`, `convert` and `add` keep it.
    pub headers_language: Option<Language>,
    pub list: DeckList,
    pub cards: Vec<DeckCard>,
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedDeck {
    /// True exactly when no finding is an error.
    pub fn valid(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.severity == Severity::Error)
    }

    /// Cards in the deck, as written (every line counts, identified or not).
    pub fn card_count(&self) -> u64 {
        self.cards
            .iter()
            .map(|card| u64::from(card.line.count))
            .sum()
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == severity)
            .count()
    }
}

/// Checks one deck against a format with a card database.
pub fn check(input: &DeckInput, db: &CardDb, format: &Format) -> CheckedDeck {
    read_and_identify(input, db, format, true)
}

/// Reads a list that is no deck (a collection of owned cards) and identifies every line
/// exactly as [`check`] does, with the line findings (`parse-error`, `unknown-card`,
/// `card-mismatch`, ...) but without the construction rules.
pub fn identify_only(input: &DeckInput, db: &CardDb, format: &Format) -> CheckedDeck {
    read_and_identify(input, db, format, false)
}

fn read_and_identify(
    input: &DeckInput,
    db: &CardDb,
    format: &Format,
    construction: bool,
) -> CheckedDeck {
    let text = SourceText::new(&input.text);
    // `read_deck` has read a JSON list already.
    let list = match &input.json {
        Some(list) => list.clone(),
        None => deck::parse(text.text()),
    };
    let (language, headers_language) = identify::deck_languages(db, &list);
    let mut diagnostics = match input.encoding_fallback {
        Some(deck::LOSSY_UTF8) => lines::damaged_lines(&text),
        Some(encoding) => vec![lines::not_utf8(encoding)],
        None => Vec::new(),
    };
    diagnostics.extend(lines::parse_errors(&text, &list));
    let (cards, findings) =
        identify::identify_deck(&text, &list, db, format, language, construction);
    diagnostics.extend(findings);
    sort_findings(&mut diagnostics);
    CheckedDeck {
        path: input.path.clone(),
        path_bytes: input.path_bytes.clone(),
        source: input.text.clone(),
        format: format.id.clone(),
        as_of: format.date,
        language,
        headers_language,
        list,
        cards,
        diagnostics,
    }
}

/// Findings in the order of the text; deck-wide findings first, then by rule.
fn sort_findings(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        let offset = |d: &Diagnostic| d.span.map(|span| span.offset);
        (offset(a), a.rule, &a.message).cmp(&(offset(b), b.rule, &b.message))
    });
}
