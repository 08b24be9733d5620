//! Name normalization against the real sources: the rulebook sentences that the table
//! tests in `src/names/tests.rs` cite still exist, and every card name of the TCGdex and
//! pokemontcg datasets gets a key, keeps its key through `canonical`, and basic Energy in
//! every language lands on its type's key. Skipped (with a note) when ../shared is missing.

#![allow(
    clippy::unwrap_used,
    clippy::print_stderr,
    reason = "test helpers stop the test on unreadable data; common prints its skip note"
)]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use deckbox::names::{canonical, lookup_key};
use regex::Regex;

/// The table tests, read as text to find their citations.
const TABLE_TESTS: &str = include_str!("../../src/names/tests.rs");

/// Whitespace collapsed, so quotes match across the rulebooks' line wraps.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn cited_rulebook_passages_exist() {
    let Some(dir) = common::rulebooks("cited_rulebook_passages_exist") else {
        return;
    };
    let cite =
        Regex::new(r#"\(\s*"(rulebook-[a-z-]+\.txt)",\s*"((?:[^"\\]|\\.)*)",?\s*\)"#).unwrap();
    let mut books: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = 0;
    for caps in cite.captures_iter(TABLE_TESTS) {
        let (file, quote) = (&caps[1], &caps[2]);
        let book = books.entry(file.to_owned()).or_insert_with(|| {
            let text =
                std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            squash(&text)
        });
        assert!(
            book.contains(&squash(quote)),
            "{file} no longer says: {quote}"
        );
        checked += 1;
    }
    assert!(
        checked >= 30,
        "only {checked} citations found: did the format change?"
    );
}

/// One TCGdex card: its names by language and its energy type.
struct TcgdexCard {
    path: String,
    names: Vec<(String, String)>,
    energy_type: Option<String>,
}

/// Every card file under `data/`, except the TCG Pocket game.
fn tcgdex_cards(data: &Path) -> Vec<TcgdexCard> {
    let mut cards = Vec::new();
    let mut stack = vec![data.join("tcgdex-repo/data")];
    while let Some(dir) = stack.pop() {
        for item in std::fs::read_dir(&dir).unwrap() {
            let path = item.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("Pokémon TCG Pocket") {
                    stack.push(path);
                }
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // Series and set files have names too, but no category.
            if !text.contains("category:") {
                continue;
            }
            let Some(names) = name_block(&text) else {
                continue;
            };
            cards.push(TcgdexCard {
                path: path.display().to_string(),
                names,
                energy_type: field(&text, "energyType:").map(str::to_owned),
            });
        }
    }
    cards
}

/// The `name: { en: "...", fr: "..." }` block, one `lang: "value"` per line. String
/// search rather than regexes: this runs over 21,000 files in debug builds.
fn name_block(text: &str) -> Option<Vec<(String, String)>> {
    let start = text.find("name: {")? + "name: {".len();
    let block = text.get(start..)?.split('}').next()?;
    let names = block
        .lines()
        .filter_map(|line| {
            let (lang, value) = line.split_once(':')?;
            let value = unquote(value.trim().trim_end_matches(','))?;
            Some((lang.trim().to_owned(), value))
        })
        .collect();
    Some(names)
}

/// The quoted value after `key` (`energyType: "Normal"` gives `Normal`).
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let rest = text.get(text.find(key)? + key.len()..)?.trim_start();
    let rest = rest.strip_prefix('"')?;
    rest.get(..rest.find('"')?)
}

/// A TypeScript string literal, either quote style, with `\"` and `\'` unescaped.
fn unquote(literal: &str) -> Option<String> {
    let inner = literal
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .or_else(|| {
            literal
                .strip_prefix('\'')
                .and_then(|l| l.strip_suffix('\''))
        })?;
    Some(inner.replace("\\\"", "\"").replace("\\'", "'"))
}

const BASIC_TYPES: [&str; 9] = [
    "Grass",
    "Fire",
    "Water",
    "Lightning",
    "Psychic",
    "Fighting",
    "Darkness",
    "Metal",
    "Fairy",
];

/// The type of a basic Energy card from its English TCGdex name. TCGdex marks some special
/// Energy "Normal" too (`Reversal Energy`, `Growing Grass Energy`), hence the names.
fn basic_type(english: &str) -> Option<&'static str> {
    let rest = english.strip_prefix("Basic ").unwrap_or(english);
    let ty = rest.strip_suffix(" Energy")?;
    BASIC_TYPES.iter().copied().find(|t| *t == ty)
}

/// The TCGdex cards, read once per test binary (two tests need them).
fn tcgdex(data: &Path) -> &'static [TcgdexCard] {
    static CARDS: OnceLock<Vec<TcgdexCard>> = OnceLock::new();
    CARDS.get_or_init(|| tcgdex_cards(data))
}

#[test]
fn every_tcgdex_name_has_a_stable_key_and_basic_energy_merges() {
    let Some(data) = common::shared_data("every_tcgdex_name_has_a_stable_key") else {
        return;
    };
    let cards = tcgdex(&data);
    assert!(
        cards.len() > 20_000,
        "only {} TCGdex cards read",
        cards.len()
    );
    // Names repeat across sets and languages: check each distinct one once.
    let mut seen = BTreeSet::new();
    let mut energies = 0;
    for card in cards {
        for (_, name) in &card.names {
            if seen.insert(name.as_str()) {
                check_name(name, &card.path);
            }
        }
        let english = card.names.iter().find(|(l, _)| l == "en").map(|(_, n)| n);
        let ty = english.and_then(|n| basic_type(n));
        let (Some("Normal"), Some(ty)) = (card.energy_type.as_deref(), ty) else {
            continue;
        };
        let expected = format!("{} energy", ty.to_lowercase());
        for (lang, name) in &card.names {
            assert_eq!(
                lookup_key(name),
                expected,
                "{lang} {name:?} in {}",
                card.path
            );
        }
        energies += 1;
    }
    assert!(energies > 250, "only {energies} basic Energy cards checked");
}

/// The properties every name must have: a non-empty key and an idempotent canonical form.
/// (`lookup_key(canonical(x)) == lookup_key(x)` follows: the key is computed from
/// `canonical`; the table tests check it directly.)
fn check_name(name: &str, source: &str) {
    assert!(
        !lookup_key(name).is_empty(),
        "empty key for {name:?} in {source}"
    );
    let once = canonical(name);
    assert_eq!(
        canonical(&once),
        once,
        "canonical not idempotent on {name:?} in {source}"
    );
}

/// The fields of a pokemontcg card this test reads.
#[derive(serde::Deserialize)]
struct PokemontcgCard {
    name: String,
    #[serde(default)]
    subtypes: Vec<String>,
}

#[test]
fn pokemontcg_names_agree_with_tcgdex_on_symbols() {
    let Some(data) = common::shared_data("pokemontcg_names_agree_with_tcgdex") else {
        return;
    };
    let mut stars = BTreeSet::new();
    let mut prisms = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let dir = data.join("pokemontcg/cards/en");
    for item in std::fs::read_dir(&dir).unwrap() {
        let path = item.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let cards: Vec<PokemontcgCard> = serde_json::from_str(&text).unwrap();
        for card in cards {
            let name = card.name.as_str();
            if seen.insert(card.name.clone()) {
                check_name(name, &path.display().to_string());
            }
            let has = |s: &str| card.subtypes.iter().any(|t| t == s);
            if has("Star") {
                stars.insert(lookup_key(name));
            }
            if has("Prism Star") {
                prisms.insert(lookup_key(name));
            }
        }
    }
    assert!(stars.iter().all(|k| k.ends_with(" ★")), "{stars:?}");
    assert!(prisms.iter().all(|k| k.ends_with(" ◇")), "{prisms:?}");
    // Every Star and Prism Star card of pokemontcg has its key among TCGdex's English names.
    let english: BTreeSet<&str> = tcgdex(&data)
        .iter()
        .flat_map(|c| {
            c.names
                .iter()
                .filter(|(l, _)| l == "en")
                .map(|(_, n)| n.as_str())
        })
        .collect();
    let tcgdex: BTreeSet<String> = english.into_iter().map(lookup_key).collect();
    let missing: Vec<_> = stars
        .union(&prisms)
        .filter(|k| !tcgdex.contains(*k))
        .collect();
    assert!(
        missing.is_empty(),
        "pokemontcg symbol names unknown to TCGdex: {missing:?}"
    );
}
