//! Finding a card from what a player types: a name in any language (`Iono`, `Fantyrm`), a
//! set code and number (`TWM 128`, `PR-SV 12`, `CRZ GG59`) or a database id (`sv06-128`).
//!
//! A query answers with *cards*: every printing that shares one rules name (see
//! [`Printing::rules_key`]), oldest first. A name several different cards carry (in one
//! language or another) answers with each of them. This module only finds printings: it
//! knows nothing of formats or of how the answer is shown.

use std::collections::BTreeMap;

use super::resolve;
use crate::cards::database::CardDb;
use crate::cards::model::{Printing, PrintingId, number_key};
use crate::names::lang::Language;

/// How a query named its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    /// A set code and collector number as deck lists print them (`TWM 128`).
    SetNumber,
    /// A card name, in one of the six languages.
    Name,
    /// A card database id: set id and number (`sv06-128`).
    SetId,
}

impl MatchedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedBy::SetNumber => "set-number",
            MatchedBy::Name => "name",
            MatchedBy::SetId => "id",
        }
    }
}

/// Every printing of one card: the printings whose rules name is the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// The rules name ([`Printing::rules_name`]), as the newest printing gives it.
    pub name: String,
    /// Its lookup key ([`Printing::rules_key`]).
    pub key: String,
    /// Every printing of the card, by release date (then database order).
    pub printings: Vec<PrintingId>,
    /// The printings the query named itself: the one with that set code and number, or
    /// those that carry the name.
    pub matched: Vec<PrintingId>,
    /// For a name query, the languages in which the name is this card's.
    pub languages: Vec<Language>,
}

/// What a query found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Found {
        by: MatchedBy,
        cards: Vec<Card>,
    },
    /// No card: the names nearest to the query, best first (empty when none is near).
    Unknown {
        suggestions: Vec<String>,
    },
}

/// Longest query searched for suggestions, in bytes: card names are under 60.
const MAX_SUGGESTED_QUERY: usize = 200;

/// Finds the cards `query` names: a set code and number first (`TWM 128`), then a name in
/// any language, then a database id (`sv06-128`).
pub fn lookup(db: &CardDb, query: &str) -> Lookup {
    let query = query.trim();
    let attempts = [
        (MatchedBy::SetNumber, by_set_number(db, query)),
        (MatchedBy::Name, by_name(db, query)),
        (MatchedBy::SetNumber, by_name_set_number(db, query)),
        (MatchedBy::SetId, by_set_id(db, query)),
    ];
    for (by, cards) in attempts {
        if !cards.is_empty() {
            return Lookup::Found { by, cards };
        }
    }
    let suggestions = if query.is_empty() || query.len() > MAX_SUGGESTED_QUERY {
        Vec::new()
    } else {
        resolve::suggestions(db, query)
    };
    Lookup::Unknown { suggestions }
}

/// `CODE NUMBER`, as a deck list writes a printing; `PR-SV 12` and `CRZ GG59` included.
fn by_set_number(db: &CardDb, query: &str) -> Vec<Card> {
    let mut words = query.split_whitespace();
    let (Some(code), Some(number), None) = (words.next(), words.next(), words.next()) else {
        return Vec::new();
    };
    if !number.contains(|c: char| c.is_ascii_digit()) {
        return Vec::new();
    }
    let ids = db.by_set_number(code, number).to_vec();
    cards_of(db, ids.into_iter().map(|id| (id, None)))
}

/// `NAME CODE NUMBER`, a deck line without its count (`Dreepy TWM 128`): the printing, when
/// the name is one of its names in some language.
fn by_name_set_number(db: &CardDb, query: &str) -> Vec<Card> {
    let words: Vec<&str> = query.split_whitespace().collect();
    let [name @ .., code, number] = words.as_slice() else {
        return Vec::new();
    };
    if name.is_empty() || !number.contains(|c: char| c.is_ascii_digit()) {
        return Vec::new();
    }
    let key = crate::names::lookup_key(&name.join(" "));
    let ids = db
        .by_set_number(code, number)
        .iter()
        .copied()
        .filter(|&id| {
            db.get(id).is_some_and(|printing| {
                let names = printing.names.iter();
                names
                    .map(|(_, n)| n)
                    .any(|n| crate::names::lookup_key(n) == key)
            })
        });
    cards_of(db, ids.map(|id| (id, None)))
}

/// A name in any language: each card that carries it, as its own [`Card`].
fn by_name(db: &CardDb, query: &str) -> Vec<Card> {
    if query.is_empty() {
        return Vec::new();
    }
    let hits = db
        .name_matches(query)
        .map(|hit| (hit.id, Some(hit.language)));
    cards_of(db, hits)
}

/// `set_id-number`, the TCGdex id of a printing (`sv06-128`, `swsh12.5-GG59`).
fn by_set_id(db: &CardDb, query: &str) -> Vec<Card> {
    let Some((set_id, number)) = query.rsplit_once('-') else {
        return Vec::new();
    };
    if query.contains(char::is_whitespace)
        || set_id.is_empty()
        || !number.contains(|c: char| c.is_ascii_digit())
    {
        return Vec::new();
    }
    let number = number_key(number);
    // No index by set id: one pass, only for a query nothing else matched.
    let ids = db
        .iter()
        .filter(|(_, p)| p.set_id.eq_ignore_ascii_case(set_id) && p.number == number)
        .map(|(id, _)| (id, None));
    let ids: Vec<_> = ids.collect();
    cards_of(db, ids.into_iter())
}

/// Groups printings the query named by rules name, and completes each group with every
/// printing of that name.
fn cards_of(db: &CardDb, hits: impl Iterator<Item = (PrintingId, Option<Language>)>) -> Vec<Card> {
    let mut groups: BTreeMap<String, (Vec<PrintingId>, Vec<Language>)> = BTreeMap::new();
    for (id, language) in hits {
        let Some(printing) = db.get(id) else {
            continue;
        };
        let (matched, languages) = groups.entry(printing.rules_key().to_string()).or_default();
        if !matched.contains(&id) {
            matched.push(id);
        }
        if let Some(language) = language
            && !languages.contains(&language)
        {
            languages.push(language);
        }
    }
    let mut cards: Vec<Card> = groups
        .into_iter()
        .filter_map(|(key, (matched, mut languages))| {
            let printings = every_printing(db, &key, &matched);
            let newest = db.get(*printings.last()?)?;
            languages.sort();
            Some(Card {
                name: newest.rules_name(),
                key,
                matched: sorted(db, matched),
                printings,
                languages,
            })
        })
        .collect();
    // A card the query names in English (its rules name) comes first: `Ultra Ball` is Ultra
    // Ball before Beast Ball, whose French name it is.
    let english = |card: &Card| !card.languages.contains(&Language::En);
    cards.sort_by(|a, b| (english(a), &a.name, &a.key).cmp(&(english(b), &b.name, &b.key)));
    cards
}

/// Every printing whose rules key is `key`, by release date. `known` holds some of them:
/// their English (or first) name finds the rest, as every printing is indexed under the
/// name its rules name comes from.
fn every_printing(db: &CardDb, key: &str, known: &[PrintingId]) -> Vec<PrintingId> {
    let mut ids: Vec<PrintingId> = known.to_vec();
    let mut names: Vec<&str> = Vec::new();
    for printing in known.iter().filter_map(|&id| db.get(id)) {
        let name = printing.names.primary();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    for name in names {
        for hit in db.name_matches(name) {
            let same = db.get(hit.id).is_some_and(|p| p.rules_key() == key);
            if same && !ids.contains(&hit.id) {
                ids.push(hit.id);
            }
        }
    }
    sorted(db, ids)
}

/// `ids` by release date, then database order, each once.
fn sorted(db: &CardDb, mut ids: Vec<PrintingId>) -> Vec<PrintingId> {
    let released = |id: PrintingId| db.get(id).map(|p: &Printing| p.release_date.clone());
    ids.sort_by_cached_key(|&id| (released(id), id));
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::database::card_db::tests::printing;
    use crate::cards::model::Source;

    fn db() -> CardDb {
        use Language::*;
        let mut old = printing("RCL", "89", &[(En, "Dreepy"), (Fr, "Fantyrm")]);
        old.release_date = "2020-05-01".into();
        CardDb::new(
            Source::Embedded,
            vec![
                printing("TWM", "128", &[(En, "Dreepy"), (Fr, "Fantyrm")]),
                printing("TWM", "129", &[(En, "Drakloak"), (De, "Phandra")]),
                old,
                // Named in English only: found through the English name all the same.
                printing("SVP", "14", &[(En, "Dreepy")]),
                printing("XYZ", "1", &[(En, "Shared"), (Fr, "Commun")]),
                printing("XYZ", "2", &[(En, "Other"), (Fr, "Commun")]),
            ],
        )
    }

    fn found(lookup: Lookup) -> (MatchedBy, Vec<Card>) {
        match lookup {
            Lookup::Found { by, cards } => (by, cards),
            Lookup::Unknown { suggestions } => panic!("not found; suggestions {suggestions:?}"),
        }
    }

    #[test]
    fn a_french_name_finds_every_printing() {
        let (by, cards) = found(lookup(&db(), " fantyrm "));
        assert_eq!(by, MatchedBy::Name);
        assert_eq!(cards.len(), 1);
        assert_eq!(cards[0].name, "Dreepy");
        // RCL (2020) first; TWM and SVP share a date and keep database order.
        assert_eq!(cards[0].printings, [2, 0, 3]);
        assert_eq!(cards[0].matched, [2, 0]);
        assert_eq!(cards[0].languages, [Language::Fr]);
    }

    #[test]
    fn set_number_and_id() {
        let (by, cards) = found(lookup(&db(), "twm 0128"));
        assert_eq!(by, MatchedBy::SetNumber);
        assert_eq!(cards[0].printings, [2, 0, 3]);
        assert_eq!(cards[0].matched, [0]);
        let (by, cards) = found(lookup(&db(), "PR-SV 14"));
        assert_eq!(by, MatchedBy::SetNumber);
        assert_eq!(cards[0].matched, [3]);
        let (by, cards) = found(lookup(&db(), "twm-129"));
        assert_eq!(by, MatchedBy::SetId);
        assert_eq!(cards[0].name, "Drakloak");
    }

    #[test]
    fn a_shared_name_gives_each_card() {
        let (_, cards) = found(lookup(&db(), "Commun"));
        let names: Vec<&str> = cards.iter().map(|card| card.name.as_str()).collect();
        assert_eq!(names, ["Other", "Shared"]);
    }

    #[test]
    fn unknown_names_get_suggestions() {
        let Lookup::Unknown { suggestions } = lookup(&db(), "Dreepyy") else {
            panic!("found");
        };
        assert_eq!(suggestions, ["Dreepy"]);
        assert_eq!(
            lookup(&db(), "TWM 999"),
            Lookup::Unknown {
                suggestions: Vec::new()
            }
        );
        assert!(matches!(lookup(&db(), "   "), Lookup::Unknown { .. }));
    }
}
