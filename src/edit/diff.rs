//! What changed between two deck lists, card by card, as text or JSON.
//!
//! Cards are keyed by identity, not by how they are written: the English rules name of the
//! printing a line resolved to ([`DeckCard::key`]), so the same card in another printing or
//! language is the same card; a line the database does not know is keyed by its written
//! name. A change of printings alone (same card, same count) is reported apart. This module
//! must not read files nor decide exit codes: it compares two checked decks.
//!
//! The JSON document is a contract; keys are only ever added:
//! `{"old": {"path", "cards"}, "new": {"path", "cards"}, "changes": [{"name", "section",
//! "old", "new", "delta", "printings_old", "printings_new"}]}`, where `section` is
//! `pokemon`, `trainer`, `energy` or `null` (unknown card outside any section), and each
//! printings list holds `{"printing": "PAL 185" | null, "count": 3}` sorted by printing
//! (`null`: lines written without a set code and number).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use serde::Serialize;

use crate::cards::{CardDb, split_subset};
use crate::check::{CheckedDeck, DeckCard};
use crate::deck::Section;
use crate::names;

/// One side of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Side {
    pub path: String,
    pub cards: u64,
}

/// Copies of a card in one printing (`None`: written without set code and number).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrintingCount {
    pub printing: Option<String>,
    pub count: u64,
}

/// One card whose count or printings changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The card's rules name (English when known), else its written name.
    pub name: String,
    pub section: Option<Section>,
    pub old: u64,
    pub new: u64,
    pub delta: i64,
    pub printings_old: Vec<PrintingCount>,
    pub printings_new: Vec<PrintingCount>,
}

/// Every change between two decks, in the order the cards first appear (old, then new).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeckDiff {
    pub old: Side,
    pub new: Side,
    pub changes: Vec<Change>,
}

/// Per card: name, section, and the copies by printing on each side.
#[derive(Default)]
struct Entry {
    name: String,
    section: Option<Section>,
    sides: [BTreeMap<Option<String>, u64>; 2],
}

/// Compares two checked decks identified against the same database.
pub fn diff(old: &CheckedDeck, new: &CheckedDeck, db: &CardDb) -> DeckDiff {
    let mut entries: Vec<Entry> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (side, deck) in [old, new].into_iter().enumerate() {
        for card in &deck.cards {
            let key = card.key(db);
            let at = *index.entry(key).or_insert_with(|| {
                entries.push(entry_for(db, card));
                entries.len() - 1
            });
            if let Some(entry) = entries.get_mut(at)
                && let Some(copies) = entry.sides.get_mut(side)
            {
                *copies.entry(printing_of(db, card)).or_default() += u64::from(card.line.count);
            }
        }
    }
    DeckDiff {
        old: side(old),
        new: side(new),
        changes: entries.into_iter().filter_map(change).collect(),
    }
}

fn side(deck: &CheckedDeck) -> Side {
    Side {
        path: deck.path.clone(),
        cards: deck.card_count(),
    }
}

fn entry_for(db: &CardDb, card: &DeckCard) -> Entry {
    let printing = card.printing.and_then(|id| db.get(id));
    Entry {
        name: printing.map_or_else(|| names::canonical(&card.line.name), |p| p.rules_name()),
        section: printing.map(|p| p.category.section()).or(card.line.section),
        sides: Default::default(),
    }
}

/// The printing a line names, normalized (`PR-SV 014` is `SVP 14`); `None` when the line
/// gives no set code and number, or a placeholder that names no printing (PTCG Live's
/// `Basic {R} Energy Energy 2`, an old export's `SWSHEnergy 3`).
fn printing_of(db: &CardDb, card: &DeckCard) -> Option<String> {
    let (set, number) = (card.line.set.as_deref()?, card.line.number.as_deref()?);
    if crate::cards::identification::resolve::is_placeholder(set, number) {
        return None;
    }
    match card.printing.and_then(|id| db.get(id)) {
        Some(printing) if !printing.set_code.is_empty() => Some(printing.printing_label()),
        _ => {
            let (set, number) = split_subset(set, number);
            Some(format!("{set} {number}"))
        }
    }
}

fn change(entry: Entry) -> Option<Change> {
    let [old, new] = entry.sides;
    let total = |copies: &BTreeMap<Option<String>, u64>| copies.values().sum::<u64>();
    let (old_count, new_count) = (total(&old), total(&new));
    if old == new {
        return None;
    }
    let list = |copies: BTreeMap<Option<String>, u64>| {
        copies
            .into_iter()
            .map(|(printing, count)| PrintingCount { printing, count })
            .collect()
    };
    Some(Change {
        name: entry.name,
        section: entry.section,
        old: old_count,
        new: new_count,
        delta: i64::try_from(new_count).unwrap_or(i64::MAX)
            - i64::try_from(old_count).unwrap_or(i64::MAX),
        printings_old: list(old),
        printings_new: list(new),
    })
}

/// The sections changes are grouped by, with their titles, in order.
pub const SECTIONS: [(Option<Section>, &str); 4] = [
    (Some(Section::Pokemon), "Pokémon"),
    (Some(Section::Trainer), "Trainer"),
    (Some(Section::Energy), "Energy"),
    (None, "Other"),
];

/// Text rendering: changes grouped by section (`+2 Iono`, `-1 Nest Ball`,
/// `~ Ultra Ball: 4 → 3`, `= Iono: PAL 185 → PAL 254 (printing)`), then the totals.
pub fn text(diff: &DeckDiff) -> String {
    let mut out = String::new();
    for (section, title) in SECTIONS {
        let mut changes = diff
            .changes
            .iter()
            .filter(|c| c.section == section)
            .peekable();
        if changes.peek().is_none() {
            continue;
        }
        let _ = writeln!(out, "{title}");
        for change in changes {
            let _ = writeln!(out, "  {}", line(change));
        }
    }
    if diff.changes.is_empty() {
        out.push_str("no changes\n");
    }
    let _ = writeln!(out, "{} → {} cards", diff.old.cards, diff.new.cards);
    out
}

/// One change on one line: `+2 Iono`, `-1 Nest Ball`, `~ Ultra Ball: 4 → 3`,
/// `= Iono: PAL 185 → PAL 254 (printing)`.
pub fn line(change: &Change) -> String {
    match (change.old, change.new) {
        (0, new) => format!("+{new} {}", change.name),
        (old, 0) => format!("-{old} {}", change.name),
        (old, new) if old != new => format!("~ {}: {old} → {new}", change.name),
        _ => format!(
            "= {}: {} → {} (printing)",
            change.name,
            printings(&change.printings_old),
            printings(&change.printings_new)
        ),
    }
}

/// `PAL 185` when every copy is one printing, else `3 PAL 185, 1 PAL 254`.
fn printings(list: &[PrintingCount]) -> String {
    let label = |p: &PrintingCount| {
        p.printing
            .clone()
            .unwrap_or_else(|| "no set code".to_string())
    };
    match list {
        [one] => label(one),
        many => many
            .iter()
            .map(|p| format!("{} {}", p.count, label(p)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// JSON rendering (pretty-printed, newline-terminated); see the module docs for the keys.
pub fn json(diff: &DeckDiff) -> String {
    let mut out = serde_json::to_string_pretty(diff).unwrap_or_default();
    out.push('\n');
    out
}
