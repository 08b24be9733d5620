//! `deckbox search`'s answer: a table of cards (or of printings), one JSON document, or deck
//! list lines (`1 Dreepy TWM 128`); and a query's mistake with a caret under it.

use serde::Serialize;

use super::card::{PrintingEntry, label, printing_entry};
use crate::cards::CardDb;
use crate::names::lang::Language;
use crate::search::{Found, SearchError, shown_name};

/// Printings listed on one card's line before `+N more`.
const SHOWN_PRINTINGS: usize = 6;

/// The table: each card (or printing) on one line, its name then its printings, and a
/// closing count.
pub fn text(db: &CardDb, found: &[Found], each_printing: bool) -> String {
    let width = found
        .iter()
        .map(|card| card.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    let mut out = String::new();
    for card in found {
        let labels: Vec<String> = card
            .printings
            .iter()
            .filter_map(|&id| db.get(id))
            .map(|p| {
                if each_printing {
                    format!("{:<12} {}", label(p), p.release_date)
                } else {
                    label(p)
                }
            })
            .collect();
        let mut shown = labels
            .iter()
            .take(SHOWN_PRINTINGS)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if labels.len() > SHOWN_PRINTINGS {
            shown.push_str(&format!(" +{} more", labels.len() - SHOWN_PRINTINGS));
        }
        let name = crate::util::escape::visible(&card.name);
        out.push_str(&format!("{name:<width$}  {shown}\n"));
    }
    let printings: usize = found.iter().map(|card| card.printings.len()).sum();
    let count = if each_printing {
        plural(printings, "printing")
    } else {
        format!(
            "{} ({})",
            plural(found.len(), "card"),
            plural(printings, "printing")
        )
    };
    out.push_str(&format!("{count}\n"));
    out
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

#[derive(Serialize)]
struct Report<'a> {
    query: &'a str,
    cards: Vec<CardEntry>,
}

#[derive(Serialize)]
struct CardEntry {
    name: String,
    printings: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    /// The printing's name in the chosen language, else in English.
    name: String,
    #[serde(flatten)]
    printing: PrintingEntry,
}

/// One JSON document: the query and each card with its printings (docs/user-guide.md).
pub fn json(db: &CardDb, query: &str, found: &[Found], lang: Language) -> String {
    let cards = found
        .iter()
        .map(|card| CardEntry {
            name: card.name.clone(),
            printings: card
                .printings
                .iter()
                .filter_map(|&id| {
                    let printing = db.get(id)?;
                    Some(Entry {
                        name: shown_name(db, id, lang),
                        printing: printing_entry(printing, true),
                    })
                })
                .collect(),
        })
        .collect();
    let report = Report { query, cards };
    let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
    out.push('\n');
    out
}

/// Deck list lines, one a card (its newest printing found) or one a printing:
/// `1 Dreepy TWM 128`. With `released_by` (the date of the query's `legal:F@DATE`), a card's
/// line names its newest printing released by then: a list of that day could not name a
/// printing released later (nor is one legal then, `crate::formats::Format::in_time`).
pub fn list(
    db: &CardDb,
    found: &[Found],
    lang: Language,
    released_by: Option<jiff::civil::Date>,
) -> String {
    let by = released_by.map(|date| date.to_string());
    let in_time = |p: &crate::cards::Printing| {
        by.as_deref()
            .is_none_or(|by| !p.release_date.is_empty() && p.release_date.as_str() <= by)
    };
    let mut out = String::new();
    for card in found {
        let Some(&id) = card.printings.last() else {
            continue;
        };
        let ids: Vec<_> = if card.printings.len() == 1 {
            vec![id]
        } else {
            // The newest printing with a printed set code, as a deck list writes one.
            let newest = |keep: &dyn Fn(&crate::cards::Printing) -> bool| {
                (card.printings.iter().rev()).find(|&&id| {
                    db.get(id)
                        .is_some_and(|p| !p.set_code.is_empty() && keep(p))
                })
            };
            let coded = newest(&in_time).or_else(|| newest(&|_| true));
            vec![*coded.unwrap_or(&id)]
        };
        for id in ids {
            let Some(printing) = db.get(id) else { continue };
            let name = crate::util::escape::visible(&shown_name(db, id, lang)).into_owned();
            out.push_str(&format!("1 {name} {}\n", label(printing)));
        }
    }
    out
}

/// A query's mistake: the message, the query, a caret under each wrong character, and the
/// nearest key or value ([`super::caret::draw`]).
pub fn error(query: &str, error: &SearchError) -> String {
    super::caret::draw(
        &error.message,
        query,
        error.span.offset,
        error.span.end(),
        error.help.as_deref(),
    )
}
