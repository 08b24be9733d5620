//! A checked deck as statistics see it: card kinds, one per English rules name, printings
//! and languages merged ([`deck_kinds`]). It identifies nothing itself (that is
//! [`crate::check`]) and computes no odds.

use std::collections::{HashMap, HashSet};

use crate::cards::{CardDb, Category, EnergyKind, Printing, TrainerKind};
use crate::check::CheckedDeck;
use crate::names::lang::Language;
use crate::util::escape::visible_line;

use super::exact::StatsError;

/// Most cards a deck may have for `stats`, `sample` and `odds`: what the game-setup engine
/// deals ([`crate::engine::MAX_CARDS`]). A real deck has 60 cards (40 in some formats); past
/// a few hundred, exact odds overflow 128 bits anyway, and a hostile list of 200,000 lines
/// would cost every report's work for nothing. Refused before any odds are computed.
pub const MAX_DECK_CARDS: u64 = crate::engine::MAX_CARDS;

/// Refuses a deck with more than [`MAX_DECK_CARDS`] cards (every line counted, identified
/// or not), before any statistics are computed.
pub fn check_size(deck: &CheckedDeck) -> Result<(), StatsError> {
    let cards = deck
        .list
        .cards
        .iter()
        .fold(0u64, |sum, line| sum.saturating_add(u64::from(line.count)));
    if cards > MAX_DECK_CARDS {
        return Err(StatsError::DeckTooLarge {
            cards,
            max: MAX_DECK_CARDS,
        });
    }
    Ok(())
}

/// One card kind of a deck: every line with the same English rules name.
#[derive(Debug, Clone)]
pub struct DeckKind {
    /// The English rules name (the report's `name`).
    pub name: String,
    /// The name in the list's language (the report's `local_name` when it differs).
    pub local: String,
    /// The names as the deck's lines wrote them, first line first.
    pub written: Vec<String>,
    /// Copies of the kind, every line together.
    pub copies: u32,
    /// A Basic Pokémon (some printing of it is).
    pub basic: bool,
    /// What the card is, for queries naming a class of cards (`Basic Pokémon>=2`).
    pub class: Class,
}

/// What kind of card a kind is: its category and, for a Trainer or an Energy, its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Class {
    pub category: Option<Category>,
    pub trainer: Option<TrainerKind>,
    pub energy: Option<EnergyKind>,
}

impl Class {
    pub fn of(printing: &Printing) -> Class {
        Class {
            category: Some(printing.category),
            trainer: printing.trainer,
            energy: printing.energy,
        }
    }
}

/// The classes of cards a query or `--count-as` may name instead of a card, in English:
/// `Pokémon`, `Basic Pokémon`, `Trainer`, `Item`, `Supporter`, `Stadium`, `Pokémon Tool`,
/// `Energy`, `Basic Energy`, `Special Energy`.
pub const CLASSES: [&str; 10] = [
    "Pokémon",
    "Basic Pokémon",
    "Trainer",
    "Item",
    "Supporter",
    "Stadium",
    "Pokémon Tool",
    "Energy",
    "Basic Energy",
    "Special Energy",
];

impl DeckKind {
    /// Whether the kind is of the class `written` names (see [`CLASSES`]; case, accents and
    /// a plural `s` aside); `None` when `written` names no class.
    pub fn in_class(&self, written: &str) -> Option<bool> {
        let key = crate::names::lookup_key(written);
        // No class ends in `s`: a final one is a plural (`Supporters`, `Pokémons`).
        let key = key.strip_suffix('s').unwrap_or(&key);
        let class = self.class;
        let trainer = |kind| class.trainer == Some(kind);
        Some(match key {
            "pokemon" => class.category == Some(Category::Pokemon),
            "basic pokemon" => self.basic,
            "trainer" => class.category == Some(Category::Trainer),
            "item" => trainer(TrainerKind::Item),
            "supporter" => trainer(TrainerKind::Supporter),
            "stadium" => trainer(TrainerKind::Stadium),
            "pokemon tool" | "tool" => trainer(TrainerKind::Tool),
            "energy" => class.category == Some(Category::Energy),
            "basic energy" => class.energy == Some(EnergyKind::Basic),
            "special energy" => class.energy == Some(EnergyKind::Special),
            _ => return None,
        })
    }
}

/// Lines an [`Unidentified`] error names: a file of 100,000 garbage lines must not print
/// megabytes (`deckbox check` lists them all).
const MAX_LISTED: usize = 20;

/// A deck whose lines could not all be identified, for statistics that need every card.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error(
    "{path} has lines deckbox could not identify; statistics need every card:\n{}",
    lines.join("\n")
)]
#[diagnostic(help("`deckbox check {path}` explains each line"))]
pub struct Unidentified {
    pub path: String,
    pub lines: Vec<String>,
}

/// Merges the deck's lines into kinds by English rules name, in order of first appearance.
/// Statistics over a card that was not identified would be wrong, so any such line (or an
/// unreadable one) is an error naming them.
///
/// A kind is Basic Pokémon exactly when `check`'s `no-basic-pokemon` rule counts its cards
/// ([`Printing::is_basic_pokemon`]). Cards that share a rules name but not that (`Mewtwo` and
/// `Mewtwo LV.X`, both named Mewtwo) are two kinds: the LV.X one goes by its printed name, so
/// that no Pokémon LV.X, Restored Pokémon, V-UNION piece or BREAK is dealt as a Basic.
pub fn deck_kinds(deck: &CheckedDeck, db: &CardDb) -> Result<Vec<DeckKind>, Unidentified> {
    let mut kinds: Vec<DeckKind> = Vec::new();
    // Per kind: its rules key, and the English printed name of its first printing.
    let mut keys: Vec<(String, String)> = Vec::new();
    // (Key, Basic) → index in `kinds`, and the spellings each kind has: a deck of many lines
    // finds its kind and spelling in constant time, not by a scan of the kinds before it.
    let mut index: HashMap<(String, bool), usize> = HashMap::new();
    let mut spellings: HashSet<(usize, String)> = HashSet::new();
    let mut unknown: Vec<String> = deck
        .list
        .issues
        .iter()
        .map(|issue| format!("  {}: {}", visible_line(&deck.path), issue.message))
        .collect();
    for card in &deck.cards {
        let Some(printing) = card.printing.and_then(|id| db.get(id)) else {
            let line = &card.line;
            unknown.push(format!(
                "  line {}: {}",
                line.line,
                visible_line(&line.name)
            ));
            continue;
        };
        let written = card.line.name.clone();
        let basic = printing.is_basic_pokemon();
        // One kind per card as the construction rules count it (`DeckCard::key`): spellings
        // of one name in the data are one card.
        let key = card.key(db);
        match index
            .get(&(key.clone(), basic))
            .and_then(|&at| Some(at).zip(kinds.get_mut(at)))
        {
            Some((at, kind)) => {
                kind.copies = kind.copies.saturating_add(card.line.count);
                if spellings.insert((at, written.clone())) {
                    kind.written.push(written);
                }
            }
            None => {
                let name = printing.rules_name();
                index.insert((key.clone(), basic), kinds.len());
                spellings.insert((kinds.len(), written.clone()));
                kinds.push(DeckKind {
                    local: local_name(deck, printing, &card.line.name, &name),
                    name,
                    written: vec![written],
                    copies: card.line.count,
                    basic,
                    class: Class::of(printing),
                });
                // As printed: `canonical` would take the `LV.X` off.
                let printed = printing.names.primary().trim().to_string();
                keys.push((key, printed));
            }
        }
    }
    if unknown.len() > MAX_LISTED {
        let more = unknown.len() - MAX_LISTED;
        unknown.truncate(MAX_LISTED);
        unknown.push(format!("  … and {more} more"));
    }
    if !unknown.is_empty() {
        return Err(Unidentified {
            // One line each, whatever the file name holds: the error is many lines.
            path: visible_line(&deck.path).into_owned(),
            lines: unknown,
        });
    }
    name_apart(&mut kinds, &keys);
    Ok(kinds)
}

/// The name of a kind in the list's language. A basic Energy's rules name is English in
/// every language: it is shown as written.
fn local_name(deck: &CheckedDeck, printing: &Printing, written: &str, name: &str) -> String {
    match deck
        .language
        .and_then(|language| printing.names.get(language))
    {
        _ if printing.is_basic_energy() && deck.language != Some(Language::En) => {
            written.to_string()
        }
        Some(local) => crate::names::canonical(local),
        None => name.to_string(),
    }
}

/// Where a rules name has a Basic kind and a kind that is not (`Mewtwo`, `Mewtwo LV.X`), the
/// one that is not goes by its printed English name, so each name in a report or a query
/// means one kind.
fn name_apart(kinds: &mut [DeckKind], keys: &[(String, String)]) {
    let basic_keys: HashSet<&str> = kinds
        .iter()
        .zip(keys)
        .filter(|(kind, _)| kind.basic)
        .map(|(_, (key, _))| key.as_str())
        .collect();
    for (kind, (key, printed)) in kinds.iter_mut().zip(keys) {
        if kind.basic || !basic_keys.contains(&key.as_str()) || *printed == kind.name {
            continue;
        }
        if crate::names::lookup_key(&kind.local) == crate::names::lookup_key(&kind.name) {
            kind.local = printed.clone();
        }
        kind.name = printed.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::{Class, DeckKind};
    use crate::cards::{Category, EnergyKind, TrainerKind};

    fn kind(basic: bool, class: Class) -> DeckKind {
        DeckKind {
            name: String::new(),
            local: String::new(),
            written: Vec::new(),
            copies: 1,
            basic,
            class,
        }
    }

    #[test]
    fn classes_are_matched_without_case_accents_or_plural() {
        let dreepy = kind(
            true,
            Class {
                category: Some(Category::Pokemon),
                ..Class::default()
            },
        );
        let iono = kind(
            false,
            Class {
                category: Some(Category::Trainer),
                trainer: Some(TrainerKind::Supporter),
                energy: None,
            },
        );
        let psychic = kind(
            false,
            Class {
                category: Some(Category::Energy),
                trainer: None,
                energy: Some(EnergyKind::Basic),
            },
        );
        assert_eq!(dreepy.in_class("Basic Pokémon"), Some(true));
        assert_eq!(dreepy.in_class("basic pokemon"), Some(true));
        assert_eq!(dreepy.in_class("Pokémon"), Some(true));
        assert_eq!(dreepy.in_class("Trainers"), Some(false));
        assert_eq!(iono.in_class("Supporters"), Some(true));
        assert_eq!(iono.in_class("Item"), Some(false));
        assert_eq!(psychic.in_class("Basic Energy"), Some(true));
        assert_eq!(psychic.in_class("Special Energy"), Some(false));
        assert_eq!(psychic.in_class("Iono"), None);
        assert_eq!(dreepy.in_class("Pokémons"), Some(true));
        assert_eq!(iono.in_class("Pokémon Tools"), Some(false));
    }
}
