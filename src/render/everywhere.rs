//! `deckbox check --format all`: one deck judged in every shipped format at one date, as a
//! table (human), one line (short) or a JSON document.

use serde::Serialize;

use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::util::escape::visible_line;

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

/// `deck.txt, as of 2026-11-25` and one row per format.
pub fn human(deck: &Everywhere) -> String {
    let mut out = format!("{}, as of {}\n", visible_line(&deck.path), deck.as_of);
    let width = deck
        .formats
        .iter()
        .map(|v| v.format.len())
        .max()
        .unwrap_or(0);
    for verdict in &deck.formats {
        let said = if let Some(absent) = &verdict.absent {
            visible_line(absent).into_owned()
        } else if verdict.valid {
            "legal".to_string()
        } else {
            let broken: Vec<String> = verdict
                .broken
                .iter()
                .map(|broken| match broken.count {
                    1 => broken.rule.clone(),
                    n => format!("{} ×{n}", broken.rule),
                })
                .collect();
            format!("invalid ({})", broken.join(", "))
        };
        out.push_str(&format!("  {:<width$}  {said}\n", verdict.format));
    }
    out.push_str(&format!("{}\n", short(deck)));
    out
}

/// `deck.txt: legal in expanded, unlimited (as of 2026-11-25)`.
pub fn short(deck: &Everywhere) -> String {
    let legal = deck.legal_in();
    let said = if legal.is_empty() {
        "legal in no format".to_string()
    } else {
        format!("legal in {}", legal.join(", "))
    };
    format!(
        "{}: {said} (as of {})",
        visible_line(&deck.path),
        deck.as_of
    )
}
