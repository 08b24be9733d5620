//! `deckbox search`: every printing a query describes ([`query`] reads it, [`filter`] holds
//! the keys and tests it), grouped by card and sorted ([`group`]).
//!
//! This wing reads the card database, the names' folding and the formats' own legality; it
//! prints nothing and knows no output: `render::search` shows the answer.

pub mod filter;
pub mod query;

use crate::cards::{CardDb, PrintingId};
use crate::names::lang::Language;

pub use query::{SearchError, parse};

/// Every printing `query` describes, in database order.
pub fn search(db: &CardDb, query: &str) -> Result<Vec<PrintingId>, SearchError> {
    let expr = query::parse(query)?;
    let state = filter::State::new(db);
    let compiled = filter::compile(db, &expr, &state)?;
    let mask = compiled.matching(&state, &vec![true; db.len()]);
    Ok(mask
        .iter()
        .enumerate()
        .filter(|(_, hit)| **hit)
        .filter_map(|(index, _)| PrintingId::try_from(index).ok())
        .collect())
}

/// How the answer is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// By the name shown, A to Z.
    #[default]
    Name,
    /// Newest first (a card by its newest printing found).
    Released,
    /// Highest HP first; cards without HP last.
    Hp,
    /// By set (oldest set first), then collector number.
    Set,
}

/// One card of the answer: the printings found that share a rules name, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The name shown: in the chosen language when the card has one, else its English name.
    pub name: String,
    pub printings: Vec<PrintingId>,
}

/// Groups `ids` by card (rules name), or one group per printing when `each_printing`, and
/// sorts the groups by `sort`; names are shown in `lang`.
pub fn group(
    db: &CardDb,
    ids: &[PrintingId],
    lang: Language,
    each_printing: bool,
    sort: Sort,
) -> Vec<Found> {
    let mut groups: Vec<(String, Vec<PrintingId>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for &id in ids {
        let Some(printing) = db.get(id) else { continue };
        let key = if each_printing {
            id.to_string()
        } else {
            printing.rules_key().to_string()
        };
        let at = *index.entry(key).or_insert_with(|| {
            groups.push((String::new(), Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(id);
    }
    let mut found: Vec<Found> = groups
        .into_iter()
        .map(|(_, mut printings)| {
            printings.sort_by_cached_key(|&id| (released(db, id), id));
            Found {
                name: shown_name(db, *printings.last().unwrap_or(&0), lang),
                printings,
            }
        })
        .collect();
    let folded = |f: &Found| crate::names::fold(&f.name);
    let newest = |f: &Found| {
        f.printings
            .last()
            .map(|&id| released(db, id))
            .unwrap_or_default()
    };
    let hp = |f: &Found| {
        f.printings
            .iter()
            .filter_map(|&id| db.details(id).and_then(|d| d.hp))
            .max()
    };
    let set_place = |f: &Found| {
        f.printings.first().and_then(|&id| db.get(id)).map(|p| {
            let (prefix, digits, suffix) = crate::cards::split_number(&p.number);
            let digits: u32 = digits.parse().unwrap_or(u32::MAX);
            let number = (prefix.to_string(), digits, suffix.to_string());
            (p.release_date.clone(), p.set_id.clone(), number)
        })
    };
    match sort {
        Sort::Name => found.sort_by_cached_key(|f| (folded(f), f.printings.clone())),
        Sort::Released => found.sort_by_cached_key(|f| (std::cmp::Reverse(newest(f)), folded(f))),
        Sort::Hp => found.sort_by_cached_key(|f| (std::cmp::Reverse(hp(f)), folded(f))),
        Sort::Set => found.sort_by_cached_key(|f| (set_place(f), folded(f))),
    }
    found
}

fn released(db: &CardDb, id: PrintingId) -> String {
    db.get(id)
        .map(|p| p.release_date.clone())
        .unwrap_or_default()
}

/// The printing's name in `lang`, else its English (or first) name.
pub fn shown_name(db: &CardDb, id: PrintingId, lang: Language) -> String {
    db.get(id)
        .map(|p| p.names.get(lang).unwrap_or(p.names.primary()).to_string())
        .unwrap_or_default()
}
