//! `deckbox need`'s outputs: a table for a terminal, JSON, deck-list lines, and the buy
//! lists TCGplayer's mass entry and Cardmarket's wants list import.
//!
//! The buy lists' syntax, as far as sources show it (docs/collections.md):
//! - TCGplayer mass entry reads one card a line, `COUNT NAME` (its partners' links send
//!   `||1 Dark Magician||`); TCGplayer's app writes a list as `1 Abandoned Sarcophagus [C20]`,
//!   the set code in brackets after the name, and Pokémon exporters add the collector
//!   number after it: `4 Dreepy [TWM] 128`.
//! - Cardmarket's wants list "add deck list" reads `COUNT NAME` a line; the printing is
//!   chosen on the site.

use serde::Serialize;

use crate::cards::{CardDb, Printing};
use crate::check::CheckedDeck;
use crate::collection::Collection;
use crate::collection::need::{LineNeed, Need};
use crate::names::lang::Language;
use crate::util::escape::visible;

/// The printing a deck line asks for, when identified.
fn asked<'a>(decks: &[&'a CheckedDeck], db: &'a CardDb, line: &LineNeed) -> Option<&'a Printing> {
    let card = decks.get(line.deck)?.cards.get(line.card)?;
    db.get(card.printing?)
}

/// A printing as a list writes it: `Ultra Ball MEG 131` (its English name).
fn written(printing: &Printing) -> String {
    let name = printing
        .names
        .get(Language::En)
        .unwrap_or(printing.names.primary());
    format!("{name} {} {}", printing.set_code, printing.number)
}

/// The line as the deck wrote it, for a card not identified.
fn as_written(decks: &[&CheckedDeck], line: &LineNeed) -> String {
    decks
        .get(line.deck)
        .and_then(|deck| deck.cards.get(line.card))
        .map(|card| visible(&card.line.name).into_owned())
        .unwrap_or_default()
}

/// Hundredths as `12.50`.
fn money(cents: u128) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The table: per deck, each line with its missing count, the card, and the owned copies
/// counted for it (`file:line`); then the totals (and the cost, with prices).
pub fn table(need: &Need, decks: &[&CheckedDeck], collection: &Collection, db: &CardDb) -> String {
    let mut out = String::new();
    for (index, deck) in decks.iter().enumerate() {
        out.push_str(&format!("{}\n", visible(&deck.path)));
        out.push_str("  missing  card                               counted from the collection\n");
        for line in need.lines.iter().filter(|line| line.deck == index) {
            let card = match asked(decks, db, line) {
                Some(printing) => written(printing),
                None => format!("{} (not identified)", as_written(decks, line)),
            };
            let counted: Vec<String> = line
                .counted
                .iter()
                .filter_map(|counted| {
                    let owned = collection.owned.get(counted.owned)?;
                    let file = collection.files.get(owned.file)?;
                    let printing = db.get(owned.printing)?;
                    Some(format!(
                        "{} {} ({}:{})",
                        counted.count,
                        written(printing),
                        visible(&file.checked.path),
                        owned.line
                    ))
                })
                .collect();
            let counted = if counted.is_empty() {
                "-".to_string()
            } else {
                counted.join(", ")
            };
            out.push_str(&format!("  {:>7}  {card:<33}  {counted}\n", line.missing));
        }
        let wanted: u64 = need
            .lines
            .iter()
            .filter(|line| line.deck == index)
            .map(|line| line.wanted)
            .sum();
        out.push_str(&format!(
            "  {} of {wanted} cards missing\n\n",
            need.missing_of(index)
        ));
    }
    let rule = if need.exact {
        "only the same printing counted (--exact-printing)"
    } else {
        "any printing the deck's format allows with the same name and text counted"
    };
    out.push_str(&format!(
        "{} cards missing in all; {rule}\n",
        need.missing()
    ));
    if let Some(currency) = &need.currency {
        let (cents, unpriced) = need.cost();
        out.push_str(&format!(
            "cost of what is missing: {} {currency}",
            money(cents)
        ));
        if unpriced > 0 {
            out.push_str(&format!(" ({unpriced} cards have no price)"));
        }
        out.push('\n');
    }
    out
}

/// Missing cards merged by the printing asked for, in the order first met: (printing or
/// the name as written, count).
fn merged<'a>(
    need: &Need,
    decks: &[&'a CheckedDeck],
    db: &'a CardDb,
) -> Vec<(Option<&'a Printing>, String, u64)> {
    let mut out: Vec<(Option<&Printing>, String, u64)> = Vec::new();
    for line in need.lines.iter().filter(|line| line.missing > 0) {
        let printing = asked(decks, db, line);
        let key = match printing {
            Some(printing) => written(printing),
            None => as_written(decks, line),
        };
        match out.iter_mut().find(|(_, k, _)| *k == key) {
            Some(entry) => entry.2 += line.missing,
            None => out.push((printing, key, line.missing)),
        }
    }
    out
}

/// Deck-list lines of what is missing: `2 Dreepy TWM 128`.
pub fn list(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    merged(need, decks, db)
        .into_iter()
        .map(|(_, card, count)| format!("{count} {card}\n"))
        .collect()
}

/// TCGplayer mass entry: `2 Dreepy [TWM] 128`.
pub fn tcgplayer(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    merged(need, decks, db)
        .into_iter()
        .map(|(printing, card, count)| match printing {
            Some(p) => format!(
                "{count} {} [{}] {}\n",
                p.names.get(Language::En).unwrap_or(p.names.primary()),
                p.set_code,
                p.number
            ),
            None => format!("{count} {card}\n"),
        })
        .collect()
}

/// Cardmarket's wants list import: `2 Dreepy`, merged by name.
pub fn cardmarket(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    let mut out: Vec<(String, u64)> = Vec::new();
    for (printing, card, count) in merged(need, decks, db) {
        let name = match printing {
            Some(p) => p
                .names
                .get(Language::En)
                .unwrap_or(p.names.primary())
                .to_string(),
            None => card,
        };
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 += count,
            None => out.push((name, count)),
        }
    }
    out.into_iter()
        .map(|(name, count)| format!("{count} {name}\n"))
        .collect()
}

#[derive(Serialize)]
struct JsonNeed<'a> {
    buildable: bool,
    missing_count: u64,
    exact_printing: bool,
    missing: Vec<JsonMissing>,
    decks: Vec<JsonDeck<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<JsonCost<'a>>,
    collection: JsonCollection,
}

#[derive(Serialize)]
struct JsonMissing {
    /// English name (the name as written when the card is not identified).
    name: String,
    count: u64,
    set: Option<String>,
    number: Option<String>,
}

#[derive(Serialize)]
struct JsonDeck<'a> {
    path: &'a str,
    format: &'a str,
    as_of: String,
    cards: u64,
    missing: u64,
}

#[derive(Serialize)]
struct JsonCost<'a> {
    currency: &'a str,
    /// The total as a decimal string (`12.50`), exact.
    amount: String,
    unpriced: u64,
}

#[derive(Serialize)]
struct JsonCollection {
    files: usize,
    cards: u64,
    /// Lines of the collection that could not be read or identified (on standard error).
    errors: usize,
    /// How each row (CSV) or card line (list) of each file was read.
    rows: Vec<JsonRow>,
}

#[derive(Serialize)]
struct JsonRow {
    file: String,
    #[serde(flatten)]
    row: crate::collection::rows::RowReading,
}

/// One JSON document: `buildable`, `missing` (each with `name`, `count` and the printing
/// asked for), per deck counts, the cost with prices.
pub fn json(
    need: &Need,
    decks: &[&CheckedDeck],
    collection: &Collection,
    db: &CardDb,
) -> Result<String, serde_json::Error> {
    let missing = merged(need, decks, db)
        .into_iter()
        .map(|(printing, card, count)| match printing {
            Some(p) => JsonMissing {
                name: p
                    .names
                    .get(Language::En)
                    .unwrap_or(p.names.primary())
                    .to_string(),
                count,
                set: Some(p.set_code.clone()),
                number: Some(p.number.clone()),
            },
            None => JsonMissing {
                name: card,
                count,
                set: None,
                number: None,
            },
        })
        .collect();
    let deck_rows = decks
        .iter()
        .enumerate()
        .map(|(index, deck)| JsonDeck {
            path: &deck.path,
            format: &deck.format,
            as_of: deck.as_of.to_string(),
            cards: deck.card_count(),
            missing: need.missing_of(index),
        })
        .collect();
    let cost = need.currency.as_deref().map(|currency| {
        let (cents, unpriced) = need.cost();
        JsonCost {
            currency,
            amount: money(cents),
            unpriced,
        }
    });
    let document = JsonNeed {
        buildable: need.buildable(),
        missing_count: need.missing(),
        exact_printing: need.exact,
        missing,
        decks: deck_rows,
        cost,
        collection: JsonCollection {
            files: collection.files.len(),
            cards: collection.card_count(),
            errors: collection.errors(),
            rows: collection
                .files
                .iter()
                .flat_map(|file| {
                    file.readings(db).into_iter().map(|row| JsonRow {
                        file: visible(&file.checked.path).into_owned(),
                        row,
                    })
                })
                .collect(),
        },
    };
    serde_json::to_string_pretty(&document).map(|text| text + "\n")
}

/// `need DIR --have`: each deck on its own (legal or not, buildable or how many cards it
/// lacks, their cost with prices), then the owned cards several decks would each use.
pub fn readiness(
    ready: &[crate::collection::need::Readiness],
    shared: &[crate::collection::need::Shared],
    decks: &[&CheckedDeck],
    collection: &Collection,
    db: &CardDb,
) -> String {
    let mut out = String::from("deck\tverdict\tcollection\tcost\n");
    for deck in ready {
        let path = decks
            .get(deck.deck)
            .map(|checked| visible(&checked.path).into_owned())
            .unwrap_or_default();
        let verdict = if deck.legal { "legal" } else { "illegal" };
        let missing = deck.need.missing();
        let buildable = if missing == 0 {
            "buildable".to_string()
        } else {
            format!("missing {missing}")
        };
        let cost = match (&deck.need.currency, missing) {
            (Some(currency), 1..) => {
                let (cents, unpriced) = deck.need.cost();
                let unpriced = if unpriced > 0 {
                    format!(" ({unpriced} unpriced)")
                } else {
                    String::new()
                };
                format!("{} {currency}{unpriced}", money(cents))
            }
            _ => "-".to_string(),
        };
        out.push_str(&format!("{path}\t{verdict}\t{buildable}\t{cost}\n"));
    }
    if !shared.is_empty() {
        out.push_str("\nowned cards several decks would each use:\n");
    }
    for entry in shared {
        let Some(owned) = collection.owned.get(entry.owned) else {
            continue;
        };
        let (Some(file), Some(printing)) =
            (collection.files.get(owned.file), db.get(owned.printing))
        else {
            continue;
        };
        let users: Vec<String> = entry
            .decks
            .iter()
            .filter_map(|(deck, count)| {
                let path = visible(&decks.get(*deck)?.path).into_owned();
                Some(format!("{path} ({count})"))
            })
            .collect();
        out.push_str(&format!(
            "  {} {} ({}:{}): {}\n",
            owned.count,
            written(printing),
            visible(&file.checked.path),
            owned.line,
            users.join(", ")
        ));
    }
    out
}
