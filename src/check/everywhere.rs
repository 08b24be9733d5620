//! `deckbox check --format all`: one deck judged in every shipped format at one date, the
//! model `render::everywhere` draws as a table (human) or one line (short) and the JSON
//! document serializes.

use jiff::civil::Date;
use serde::Serialize;

use crate::cards::CardDb;
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::deck::DeckInput;
use crate::formats::Format;

/// One deck in every format.
#[derive(Debug, Serialize)]
pub struct Everywhere {
    pub path: String,
    /// The date the deck was judged at (`YYYY-MM-DD`).
    pub as_of: String,
    pub formats: Vec<Verdict>,
}

/// The deck in one format.
#[derive(Debug, Serialize)]
pub struct Verdict {
    pub format: String,
    pub name: String,
    /// `false` as well when the format did not exist at the date.
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    /// The rules the deck breaks, each with how many findings, in the order found.
    pub broken: Vec<Broken>,
    /// Why the format could not judge the deck at the date (it did not exist yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent: Option<String>,
}

/// One rule a deck breaks in a format, and how many findings say so.
#[derive(Debug, Serialize)]
pub struct Broken {
    pub rule: String,
    pub count: usize,
}

impl Verdict {
    /// The verdict of a checked deck.
    pub fn of(deck: &CheckedDeck, name: &str) -> Verdict {
        let mut broken: Vec<Broken> = Vec::new();
        for diagnostic in &deck.diagnostics {
            if diagnostic.severity != Severity::Error {
                continue;
            }
            let rule = diagnostic.rule.id();
            match broken.iter_mut().find(|known| known.rule == rule) {
                Some(known) => known.count += 1,
                None => broken.push(Broken {
                    rule: rule.to_string(),
                    count: 1,
                }),
            }
        }
        Verdict {
            format: deck.format.clone(),
            name: name.to_string(),
            valid: deck.valid(),
            errors: deck.count(Severity::Error),
            warnings: deck.count(Severity::Warning),
            broken,
            absent: None,
        }
    }
}

impl Everywhere {
    /// The ids of the formats the deck is legal in.
    pub fn legal_in(&self) -> Vec<&str> {
        self.formats
            .iter()
            .filter(|verdict| verdict.valid)
            .map(|verdict| verdict.format.as_str())
            .collect()
    }
}

/// `input` judged in each of `formats` (each loaded at `date`, or why it could not be).
pub fn judge(
    input: &DeckInput,
    date: Date,
    formats: &[(&str, Result<Format, String>)],
    db: &CardDb,
) -> Everywhere {
    let verdicts = formats
        .iter()
        .map(|(id, format)| match format {
            Ok(format) => {
                let deck = crate::check::check(input, db, format);
                Verdict::of(&deck, &format.name)
            }
            Err(why) => Verdict {
                format: (*id).to_string(),
                name: (*id).to_string(),
                valid: false,
                errors: 0,
                warnings: 0,
                broken: Vec::new(),
                absent: Some(why.clone()),
            },
        })
        .collect();
    Everywhere {
        path: input.path.clone(),
        as_of: date.to_string(),
        formats: verdicts,
    }
}
