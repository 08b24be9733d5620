//! Checking one deck: read the list, identify every card, apply the format's rules.
//!
//! [`check`] is the whole pipeline for one deck and returns a [`CheckedDeck`]: the cards as
//! identified and every finding, sorted. It reports everything in one pass: a bad line is
//! recorded and skipped, never fatal. It reads nothing from disk and prints nothing.

pub mod diagnostic;
pub mod everywhere;
mod identify;
pub mod rule;
pub mod rules;
mod set_codes;

pub(crate) use identify::in_language;

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
    read_and_identify(input, db, format, Construction::Findings)
}

/// Reads a deck and identifies every card exactly as [`check`] does (an ambiguous name is
/// read as the card that breaks the fewest construction rules), for what only needs the
/// cards (`fmt`, `convert`): the line findings and `ambiguous-card` are kept, the
/// construction rules' own findings are not, and those rules only run when a name is
/// ambiguous.
pub fn identify(input: &DeckInput, db: &CardDb, format: &Format) -> CheckedDeck {
    read_and_identify(input, db, format, Construction::Choices)
}

/// Reads a list that is no deck (a collection of owned cards) and identifies every line
/// as [`check`] does, with the line findings (`parse-error`, `unknown-card`,
/// `card-mismatch`, ...) but without the construction rules: an ambiguous name is read as
/// its first candidate (the newest).
pub fn identify_only(input: &DeckInput, db: &CardDb, format: &Format) -> CheckedDeck {
    read_and_identify(input, db, format, Construction::Off)
}

/// What the construction rules do while a deck is identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Construction {
    /// They choose between the readings of an ambiguous name, and their findings are kept.
    Findings,
    /// They only choose between the readings of an ambiguous name.
    Choices,
    /// They do not run (a collection, where limits and deck size mean nothing).
    Off,
}

fn read_and_identify(
    input: &DeckInput,
    db: &CardDb,
    format: &Format,
    construction: Construction,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What `fmt` reads a deck with: the cards exactly as `check` reads them, an ambiguous
    /// name included (in Unlimited, `Master Ball` beside another ACE SPEC is the ordinary
    /// Item of Power Keepers, since the ACE SPEC of Temporal Forces would break
    /// `ace-spec-limit`), without the construction rules' own findings.
    #[test]
    fn identify_reads_the_cards_as_check_does_without_the_construction_findings() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let unlimited = Format::load("unlimited").unwrap();
        let rules = |deck: &CheckedDeck| -> Vec<&'static str> {
            deck.diagnostics.iter().map(|d| d.rule.id()).collect()
        };
        for text in [
            "1 Master Ball\n1 Prime Catcher TEF 157\n",
            "Trainer: 2\n1 Prime Catcher TEF 157\n1 Master Ball\n",
            "4 Dreepy TWM 128\n",
        ] {
            let input = DeckInput::from_bytes("deck.txt", text.as_bytes());
            let checked = check(&input, &db, &unlimited);
            let identified = identify(&input, &db, &unlimited);
            let read = |deck: &CheckedDeck| -> Vec<(String, Option<PrintingId>)> {
                let cards = deck.cards.iter();
                cards.map(|c| (c.line.name.clone(), c.printing)).collect()
            };
            assert_eq!(read(&identified), read(&checked), "{text}");
            assert!(rules(&checked).contains(&"deck-size"), "{text}");
            assert!(!rules(&identified).contains(&"deck-size"), "{text}");
            let ambiguous = text.contains("Master Ball");
            for deck in [&checked, &identified] {
                assert_eq!(rules(deck).contains(&"ambiguous-card"), ambiguous, "{text}");
            }
            if ambiguous {
                let ball = identified
                    .cards
                    .iter()
                    .find(|c| c.line.name == "Master Ball");
                let printing = ball.and_then(|c| db.get(c.printing?)).unwrap();
                assert_eq!(
                    (printing.set_code.as_str(), printing.number.as_str()),
                    ("PK", "78")
                );
            }
        }
    }

    /// A name read word by word or misspelt next to its card's id is that card with a note
    /// after it as without one (the `fmt` fuzz target found `Énergie Turbo Double BRS
    /// 151__x`, whose note `fmt` writes as a comment, judged two ways).
    #[test]
    fn a_note_after_the_id_does_not_change_how_the_name_is_read() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let unlimited = Format::load("unlimited").unwrap();
        for (line, card) in [
            ("Énergie Turbo Double BRS 151", "Double Turbo Energy"),
            ("Cytnhia's Feelings LA 131", "Cynthia's Feelings"),
        ] {
            for note in ["", " // x", "__x", " x", " (from the league)"] {
                let text = format!("1 {line}{note}\n");
                let input = DeckInput::from_bytes("deck.txt", text.as_bytes());
                let checked = check(&input, &db, &unlimited);
                let rules: Vec<&str> = checked.diagnostics.iter().map(|d| d.rule.id()).collect();
                assert!(!rules.contains(&"card-mismatch"), "{text}: {rules:?}");
                let printing = checked.cards.first().and_then(|c| db.get(c.printing?));
                assert_eq!(printing.map(|p| p.names.primary()), Some(card), "{text}");
            }
        }
    }
}
