//! The order of lines inside one section: deterministic, and independent of the order the
//! lines were written in.
//!
//! - Pokémon: by evolution family. A family is every line whose evolution chain (followed
//!   through `Printing::evolves_from`, in English, first among the deck's cards, then in
//!   the database) ends at the same Basic. Families come by total copies, most first, then
//!   by name; inside a family, the Basic first, then what evolves from it, stage by stage.
//! - Trainers: Supporter, Item, Tool, Stadium, then the others (Technical Machines, cards
//!   without a kind).
//! - Energy: special Energy, then basic Energy.
//!
//! Inside those groups, cards come by total copies (all printings of the card), most first,
//! then by name (folded: case and accents do not matter); the printings of one card stay
//! together, by count, then set code and number. Unknown cards come last, in written order.
//! This module only orders: it must not merge, drop or rename lines.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use crate::cards::{CardDb, Category, EnergyKind, Printing, TrainerKind};
use crate::deck::Section;
use crate::names;
use crate::names::lang::Language;

use super::ListLine;

/// How far an evolution chain is followed (Basic → Stage 1 → Stage 2 → VMAX is 3 steps).
const MAX_CHAIN: usize = 6;

/// Sorted entries of one section: known cards in canonical order, then unknown ones in
/// written order.
pub(super) fn sort(section: Section, entries: Vec<ListLine>, db: &CardDb) -> Vec<ListLine> {
    let (known, mut unknown): (Vec<ListLine>, Vec<ListLine>) = entries
        .into_iter()
        .partition(|entry| entry.printing.and_then(|id| db.get(id)).is_some());
    unknown.sort_by_key(|entry| entry.source_lines.first().copied());
    let cards: Vec<Card> = known
        .into_iter()
        .filter_map(|entry| Card::new(entry, db))
        .collect();
    let order = order(section, &cards, db);
    let mut cards: Vec<Option<Card>> = cards.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|index| Some(cards.get_mut(index)?.take()?.entry))
        .chain(unknown)
        .collect()
}

/// A known entry with what ordering needs about it.
struct Card<'a> {
    entry: ListLine,
    printing: &'a Printing,
    /// The card's identity across languages and printings: its English rules name, folded.
    card: &'a str,
    /// The written name, folded, for alphabetical order.
    name: String,
}

impl<'a> Card<'a> {
    fn new(entry: ListLine, db: &'a CardDb) -> Option<Card<'a>> {
        let printing = db.get(entry.printing?)?;
        Some(Card {
            card: printing.rules_key(),
            name: names::fold(&entry.name),
            entry,
            printing,
        })
    }
}

/// The full sort key of a line, borrowed from the line and its card; the tail (name, set,
/// number) makes it a total order.
type Key<'k> = (
    Group,
    u8,
    Reverse<u64>,
    &'k str,
    Reverse<u32>,
    &'k str,
    &'k str,
    Option<&'k str>,
    Option<&'k str>,
);

/// The family part of a key: a Pokémon family's place among the deck's families, and the
/// card's depth in it; the same for every card of the other sections.
type Group = (usize, usize);

/// The positions of `cards` in canonical order (a stable sort of their keys).
fn order(section: Section, cards: &[Card], db: &CardDb) -> Vec<usize> {
    let totals = card_totals(cards);
    let families = match section {
        Section::Pokemon => families(cards, db),
        _ => BTreeMap::new(),
    };
    let mut keyed: Vec<(Key, usize)> = cards
        .iter()
        .enumerate()
        .map(|(index, card)| {
            let (total, first_name) = totals.get(card.card).copied().unwrap_or((0, ""));
            let group = families.get(card.card).copied().unwrap_or_default();
            let key = (
                group,
                rank(section, card.printing),
                Reverse(total),
                first_name,
                Reverse(card.entry.count),
                card.name.as_str(),
                card.entry.name.as_str(),
                card.entry.set.as_deref(),
                card.entry.number.as_deref(),
            );
            (key, index)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, index)| index).collect()
}

/// Per card: total copies over its lines, and the first of its folded names.
fn card_totals<'k>(cards: &'k [Card]) -> BTreeMap<&'k str, (u64, &'k str)> {
    let mut totals: BTreeMap<&str, (u64, &str)> = BTreeMap::new();
    for card in cards {
        let slot = totals.entry(card.card).or_insert((0, card.name.as_str()));
        slot.0 += u64::from(card.entry.count);
        if card.name.as_str() < slot.1 {
            slot.1 = card.name.as_str();
        }
    }
    totals
}

/// The rank of a card's kind inside its section.
fn rank(section: Section, printing: &Printing) -> u8 {
    match section {
        Section::Pokemon => 0,
        Section::Trainer => match printing.trainer {
            Some(TrainerKind::Supporter) => 0,
            Some(TrainerKind::Item) => 1,
            Some(TrainerKind::Tool) => 2,
            Some(TrainerKind::Stadium) => 3,
            _ => 4,
        },
        Section::Energy => match (printing.category, printing.energy) {
            (Category::Energy, Some(EnergyKind::Basic)) => 1,
            _ => 0,
        },
    }
}

/// Per Pokémon card: its family's place (families by copies, most first, then by the name
/// of their shallowest, alphabetically first card) and its depth in the family. A pure
/// function of the cards: nothing here depends on the order lines were written in, so
/// formatting a formatted list finds the same families.
fn families<'k>(cards: &'k [Card], db: &CardDb) -> BTreeMap<&'k str, Group> {
    let in_deck = evolutions_in_deck(cards, db);
    let chains: BTreeMap<&str, (String, usize)> = in_deck
        .iter()
        .map(|(&card, from)| {
            let mut chain = ancestry(from.clone(), &in_deck, db);
            let depth = chain.len();
            let root = chain.pop().unwrap_or_else(|| card.to_string());
            (card, (root, depth))
        })
        .collect();
    // Per family: copies, and the name of its shallowest, alphabetically first card.
    let mut family: BTreeMap<&str, (u64, (usize, &str))> = BTreeMap::new();
    for card in cards {
        let Some((root, depth)) = chains.get(card.card) else {
            continue;
        };
        let slot = family
            .entry(root.as_str())
            .or_insert((0, (*depth, card.name.as_str())));
        slot.0 += u64::from(card.entry.count);
        slot.1 = slot.1.min((*depth, card.name.as_str()));
    }
    // The root key breaks a tie between two families whose first names fold alike.
    let mut places: Vec<(Reverse<u64>, &str, &str)> = (family.iter())
        .map(|(&root, &(copies, (_, name)))| (Reverse(copies), name, root))
        .collect();
    places.sort_unstable();
    let place: BTreeMap<&str, usize> = (places.iter().enumerate())
        .map(|(place, &(_, _, root))| (root, place))
        .collect();
    chains
        .iter()
        .map(|(&card, (root, depth))| {
            let family = place.get(root.as_str()).copied().unwrap_or_default();
            (card, (family, *depth))
        })
        .collect()
}

/// What each Pokémon card of the deck evolves from, as the card key of that Pokémon. When
/// printings of one card disagree (one says nothing, or names it in another language),
/// a printing that names it wins, then the lowest printing id: never the order of lines.
fn evolutions_in_deck<'k>(cards: &'k [Card], db: &CardDb) -> BTreeMap<&'k str, Option<String>> {
    let mut sorted: Vec<&Card> = cards.iter().collect();
    sorted.sort_by_key(|card| (card.printing.evolves_from.is_none(), card.entry.printing));
    let mut names: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for card in sorted {
        names
            .entry(card.card)
            .or_insert(card.printing.evolves_from.as_deref());
    }
    names
        .iter()
        .map(|(&card, from)| (card, from.map(|name| evolution_key(name, &names, db))))
        .collect()
}

/// The card key of the Pokémon a printing says it evolves from: the deck's own card when
/// the name keys alike, else the card the database knows by that name in any language
/// (`Fantominus` is Gastly), else the name's own key.
fn evolution_key<V>(name: &str, in_deck: &BTreeMap<&str, V>, db: &CardDb) -> String {
    // The database's copy of the key spares normalizing the name again, deck after deck.
    let key = db
        .known_key(name)
        .map_or_else(|| names::lookup_key(name), str::to_string);
    if in_deck.contains_key(key.as_str()) {
        return key;
    }
    pokemon_named(name, db).map_or(key, |printing| printing.rules_key().to_string())
}

/// The card keys a Pokémon evolves from, nearest first, starting at `from`.
fn ancestry(
    from: Option<String>,
    in_deck: &BTreeMap<&str, Option<String>>,
    db: &CardDb,
) -> Vec<String> {
    let mut chain: Vec<String> = Vec::new();
    let mut next = from;
    while let Some(key) = next.take() {
        if chain.contains(&key) || chain.len() >= MAX_CHAIN {
            break;
        }
        next = match in_deck.get(key.as_str()) {
            Some(from) => from.clone(),
            None => pokemon_named(&key, db)
                .and_then(|printing| printing.evolves_from.as_deref())
                .map(|name| evolution_key(name, in_deck, db)),
        };
        chain.push(key);
    }
    chain
}

/// The Pokémon printing the database knows by `name`: an English one first, then the
/// lowest printing id.
fn pokemon_named<'a>(name: &str, db: &'a CardDb) -> Option<&'a Printing> {
    db.name_matches(name)
        .filter_map(|hit| Some((hit.language != Language::En, hit.id, db.get(hit.id)?)))
        .filter(|(_, _, printing)| printing.category == Category::Pokemon)
        .min_by_key(|(other, id, _)| (*other, *id))
        .map(|(_, _, printing)| printing)
}
