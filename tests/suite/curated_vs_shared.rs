//! The curated flag files (`cards/*.toml`) against the reference datasets in ../shared/data.
//!
//! Every embedded printing is looked up in TCGdex (by the set id it records, the set code
//! checked against the set file) and in pokemon-tcg-data (by `ptcgoCode` + number) and
//! every fact it states is compared. Then completeness: every card either dataset marks
//! ACE SPEC, Radiant, Prism Star or Pokémon Star must be in the pool with that flag. The
//! datasets are read here with serde_json and a small reader for TCGdex's TypeScript
//! records, independently of the crate's own loaders, so a loader bug cannot hide a pool
//! bug. The example decks are checked against the embedded index without any dataset.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: unreadable reference data must stop the test, not be skipped"
)]

use crate::common;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use deckbox::cards::sources::curated;
use deckbox::cards::storage::embedded;
use deckbox::cards::{
    Category, EnergyKind, Printing, Stage, TrainerKind, number_key, set_key, split_subset,
};
use deckbox::names::lang::Language;

/// Printings whose number differs between the pool (TCGdex numbering) and
/// pokemon-tcg-data: (pool set code, pool number) → pokemon-tcg-data card id.
const POKEMONTCG_ALIASES: &[(&str, &str, &str)] = &[
    // Celebrations Classic Collection: TCGdex numbers it CC015, pokemon-tcg-data keeps
    // the original number 17 (id cel25c-17_A).
    ("CEL", "CC15", "cel25c-17_A"),
];

/// The curated printings (`cards/*.toml`).
fn pool() -> Vec<Printing> {
    curated::load().unwrap()
}

/// Every printing of the embedded card index.
fn index() -> Vec<Printing> {
    let db = embedded::open().unwrap();
    db.iter().map(|(_, p)| p.clone()).collect()
}

fn assert_none(test: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{test}: {} problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

// --- A small reader for TCGdex's TypeScript object literals ---------------------------

/// A value of a TCGdex record: just enough of JavaScript's literal syntax.
#[derive(Debug, Clone)]
enum Value {
    Str(String),
    /// Numbers, `true`, `false`, and identifiers such as the imported `Set`: never
    /// needed, so only skipped.
    Word,
    Arr(Vec<Value>),
    Obj(Vec<(String, Value)>),
}

impl Value {
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    fn str_at(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::str)
    }

    fn strings(&self) -> Vec<String> {
        match self {
            Value::Arr(items) => items
                .iter()
                .filter_map(|v| v.str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip_blank(&mut self) {
        loop {
            while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
                self.at += 1;
            }
            let rest = &self.text[self.at..];
            if rest.starts_with(b"//") {
                while self.at < self.text.len() && self.text[self.at] != b'\n' {
                    self.at += 1;
                }
            } else if rest.starts_with(b"/*") {
                let end = rest
                    .windows(2)
                    .position(|w| w == b"*/")
                    .unwrap_or(rest.len());
                self.at += end + 2;
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> u8 {
        self.skip_blank();
        self.text.get(self.at).copied().unwrap_or(0)
    }

    fn value(&mut self) -> Value {
        match self.peek() {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' | b'\'' | b'`' => Value::Str(self.string()),
            _ => {
                self.word();
                Value::Word
            }
        }
    }

    fn object(&mut self) -> Value {
        self.at += 1;
        let mut fields = Vec::new();
        while !matches!(self.peek(), b'}' | 0) {
            let key = match self.peek() {
                b'"' | b'\'' => self.string(),
                _ => self.word(),
            };
            let value = if self.peek() == b':' {
                self.at += 1;
                self.value()
            } else {
                Value::Word
            };
            fields.push((key, value));
            if self.peek() == b',' {
                self.at += 1;
            }
        }
        self.at += 1;
        Value::Obj(fields)
    }

    fn array(&mut self) -> Value {
        self.at += 1;
        let mut items = Vec::new();
        while !matches!(self.peek(), b']' | 0) {
            items.push(self.value());
            if self.peek() == b',' {
                self.at += 1;
            }
        }
        self.at += 1;
        Value::Arr(items)
    }

    fn string(&mut self) -> String {
        let quote = self.text[self.at];
        self.at += 1;
        let mut bytes = Vec::new();
        while self.at < self.text.len() && self.text[self.at] != quote {
            if self.text[self.at] == b'\\' && self.at + 1 < self.text.len() {
                self.at += 1;
                bytes.push(match self.text[self.at] {
                    b'n' => b'\n',
                    b't' => b'\t',
                    other => other,
                });
            } else {
                bytes.push(self.text[self.at]);
            }
            self.at += 1;
        }
        self.at += 1;
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self.at < self.text.len() && !b",:}] \t\r\n".contains(&self.text[self.at]) {
            self.at += 1;
        }
        if self.at == start {
            self.at += 1; // an unexpected byte: step over it rather than loop
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }
}

/// The object literal a TCGdex `.ts` file exports (`const card: Card = { ... }`).
fn read_record(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap();
    let start = text.find("const ").unwrap_or(0);
    let eq = text[start..].find('=').map_or(0, |i| start + i + 1);
    Reader {
        text: text.as_bytes(),
        at: eq,
    }
    .value()
}

// --- TCGdex ----------------------------------------------------------------------------

struct TcgdexSet {
    dir: PathBuf,
    record: Value,
}

/// Every TCGdex set (TCG Pocket excluded: another game), by set id.
fn tcgdex_sets(root: &Path) -> HashMap<String, TcgdexSet> {
    let mut sets = HashMap::new();
    for serie in fs::read_dir(root.join("data")).unwrap() {
        let serie = serie.unwrap().path();
        if !serie.is_dir() || serie.to_string_lossy().contains("Pocket") {
            continue;
        }
        for entry in fs::read_dir(&serie).unwrap() {
            let file = entry.unwrap().path();
            if file.extension().is_none_or(|e| e != "ts") {
                continue;
            }
            let dir = file.with_extension("");
            let record = read_record(&file);
            if let (true, Some(id)) = (dir.is_dir(), record.str_at("id")) {
                sets.insert(id.to_string(), TcgdexSet { dir, record });
            }
        }
    }
    sets
}

/// The card files of a set, by normalized number.
fn tcgdex_cards(set: &TcgdexSet) -> HashMap<String, PathBuf> {
    fs::read_dir(&set.dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let stem = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "ts").then(|| (number_key(&stem), path))
        })
        .collect()
}

fn tcgdex_stage(stage: &str) -> Option<Stage> {
    Some(match stage {
        "Basic" => Stage::Basic,
        "Baby" => Stage::Baby,
        "Stage1" => Stage::Stage1,
        "Stage2" => Stage::Stage2,
        "RESTORED" => Stage::Restored,
        "V-UNION" => Stage::VUnion,
        "LEVEL-UP" => Stage::LevelUp,
        "BREAK" => Stage::Break,
        "VMAX" => Stage::Vmax,
        "VSTAR" => Stage::Vstar,
        "MEGA" => Stage::Mega,
        _ => return None,
    })
}

fn tcgdex_trainer(kind: &str) -> Option<TrainerKind> {
    Some(match kind {
        "Item" => TrainerKind::Item,
        "Supporter" => TrainerKind::Supporter,
        "Stadium" => TrainerKind::Stadium,
        "Tool" => TrainerKind::Tool,
        "Technical Machine" => TrainerKind::TechnicalMachine,
        "Rocket's Secret Machine" => TrainerKind::RocketsSecretMachine,
        _ => return None,
    })
}

/// Whether the set file knows `code` as the printed code of `printing`'s set.
fn tcgdex_code_matches(set: &Value, printing: &Printing, pokemontcg_codes: &[String]) -> bool {
    let official = set.get("abbreviations").and_then(|a| a.str_at("official"));
    let candidates = official
        .into_iter()
        .chain(set.str_at("tcgOnline"))
        .map(|code| split_subset(code, &printing.number).0)
        .chain(pokemontcg_codes.iter().cloned());
    candidates.into_iter().any(|code| code == printing.set_code)
}

/// Every difference between an embedded printing and its TCGdex record.
fn compare_tcgdex(p: &Printing, card: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut differ = |what: &str, pool: String, tcgdex: String| {
        if pool != tcgdex {
            diffs.push(format!("{what}: pool {pool:?}, TCGdex {tcgdex:?}"));
        }
    };
    let names = card.get("name");
    for lang in Language::ALL {
        let theirs = names
            .and_then(|n| n.str_at(lang.code()))
            .map(str::to_string);
        differ(
            &format!("name.{lang}"),
            format!("{:?}", p.names.get(lang)),
            format!("{:?}", theirs.as_deref()),
        );
    }
    differ(
        "category",
        p.category.as_str().to_string(),
        card.str_at("category").unwrap_or("").to_lowercase(),
    );
    let stage = card.str_at("stage").and_then(tcgdex_stage);
    differ("stage", format!("{:?}", p.stage), format!("{stage:?}"));
    let evolves = card.get("evolveFrom").and_then(|e| e.str_at("en"));
    differ(
        "evolves_from",
        format!("{:?}", p.evolves_from.as_deref()),
        format!("{evolves:?}"),
    );
    let trainer = card.str_at("trainerType").and_then(tcgdex_trainer);
    differ(
        "trainer",
        format!("{:?}", p.trainer),
        format!("{trainer:?}"),
    );
    let energy = card.str_at("energyType").map(|e| match e {
        "Normal" => EnergyKind::Basic,
        _ => EnergyKind::Special,
    });
    differ("energy", format!("{:?}", p.energy), format!("{energy:?}"));
    compare_tcgdex_rest(p, card, &mut differ);
    diffs
}

fn compare_tcgdex_rest(p: &Printing, card: &Value, differ: &mut impl FnMut(&str, String, String)) {
    // TCGdex gives basic Energy no `types`; the pool records the Energy's type.
    if p.category == Category::Pokemon {
        let types = card.get("types").map(Value::strings).unwrap_or_default();
        differ("types", format!("{:?}", p.types), format!("{types:?}"));
    }
    let mark = card
        .str_at("regulationMark")
        .filter(|m| *m != "None")
        .map(|m| m.to_uppercase());
    differ(
        "regulation_mark",
        format!("{:?}", p.regulation_mark.map(String::from)),
        format!("{mark:?}"),
    );
    let rarity = card.str_at("rarity").unwrap_or("");
    if rarity == "ACE SPEC Rare" {
        differ("ace_spec", p.ace_spec.to_string(), "true".to_string());
    }
    if rarity == "Radiant Rare" {
        differ("radiant", p.radiant.to_string(), "true".to_string());
    }
}

struct Pokemontcg {
    /// Cards by (set code, number key), with their set id.
    by_printing: HashMap<(String, String), serde_json::Value>,
    by_id: HashMap<String, serde_json::Value>,
    /// Printed code(s) by pokemon-tcg-data set id.
    codes: HashMap<String, Vec<String>>,
}

/// pokemon-tcg-data's cards, keyed by printed set code (`ptcgoCode`, or the derived
/// crosswalk's code for the few sets without one) and number.
fn pokemontcg(data: &Path) -> &'static Pokemontcg {
    // Three tests need it; reading 20k cards of JSON once is enough.
    static CACHE: OnceLock<Pokemontcg> = OnceLock::new();
    CACHE.get_or_init(|| read_pokemontcg(data))
}

fn read_pokemontcg(data: &Path) -> Pokemontcg {
    let root = data.join("pokemontcg");
    let sets: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join("sets/en.json")).unwrap()).unwrap();
    let crosswalk: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(data.join("derived/set-codes.json")).unwrap())
            .unwrap();
    let mut codes: HashMap<String, Vec<String>> = HashMap::new();
    let pairs = sets
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (&s["id"], &s["ptcgoCode"]));
    let derived = crosswalk["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (&s["pokemontcgId"], &s["code"]));
    for (id, code) in pairs.chain(derived) {
        if let (Some(id), Some(code)) = (id.as_str(), code.as_str()) {
            let entry = codes.entry(id.to_string()).or_default();
            if !entry.contains(&set_key(code)) {
                entry.push(set_key(code));
            }
        }
    }
    let mut by_printing = HashMap::new();
    let mut by_id = HashMap::new();
    for file in fs::read_dir(root.join("cards/en")).unwrap() {
        let path = file.unwrap().path();
        let set_id = path.file_stem().unwrap().to_string_lossy().into_owned();
        let cards: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        for card in cards.as_array().unwrap() {
            let number = number_key(card["number"].as_str().unwrap_or(""));
            for code in codes.get(&set_id).into_iter().flatten() {
                by_printing.insert((code.clone(), number.clone()), card.clone());
            }
            by_id.insert(card["id"].as_str().unwrap_or("").to_string(), card.clone());
        }
    }
    Pokemontcg {
        by_printing,
        by_id,
        codes,
    }
}

impl Pokemontcg {
    fn find(&self, p: &Printing) -> Option<&serde_json::Value> {
        let alias = POKEMONTCG_ALIASES
            .iter()
            .find(|(code, number, _)| *code == p.set_code && *number == p.number);
        match alias {
            Some((_, _, id)) => self.by_id.get(*id),
            None => self
                .by_printing
                .get(&(p.set_code.clone(), p.number.clone())),
        }
    }

    /// The pool key of a pokemon-tcg-data card: its set's printed code and its number.
    fn key_of(&self, card: &serde_json::Value) -> Vec<(String, String)> {
        let id = card["id"].as_str().unwrap_or("");
        if let Some((code, number, _)) = POKEMONTCG_ALIASES.iter().find(|a| a.2 == id) {
            return vec![(code.to_string(), number.to_string())];
        }
        let set_id = id.rsplit_once('-').map_or("", |(set, _)| set);
        let number = number_key(card["number"].as_str().unwrap_or(""));
        self.codes
            .get(set_id)
            .into_iter()
            .flatten()
            .map(|code| (code.clone(), number.clone()))
            .collect()
    }
}

fn subtypes(card: &serde_json::Value) -> Vec<&str> {
    card["subtypes"]
        .as_array()
        .map(|s| s.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default()
}

/// The stage pokemon-tcg-data's subtypes describe, in the pool's terms.
fn pokemontcg_stage(subtypes: &[&str]) -> Option<Stage> {
    let table = [
        ("VMAX", Stage::Vmax),
        ("VSTAR", Stage::Vstar),
        ("BREAK", Stage::Break),
        ("Level-Up", Stage::LevelUp),
        ("V-UNION", Stage::VUnion),
        ("Restored", Stage::Restored),
        ("Baby", Stage::Baby),
        ("Stage 2", Stage::Stage2),
        ("Stage 1", Stage::Stage1),
        ("Basic", Stage::Basic),
        ("MEGA", Stage::Mega),
    ];
    table
        .into_iter()
        .find(|(s, _)| subtypes.contains(s))
        .map(|(_, stage)| stage)
}

/// pokemon-tcg-data spells some names differently: "Basic Grass Energy", "★" for every
/// Pokémon Star. Both sides are brought to one spelling before comparing.
fn comparable_name(name: &str) -> String {
    let name = name.strip_prefix("Basic ").unwrap_or(name);
    name.replace('☆', "★").replace(" Star", " ★")
}

fn compare_pokemontcg(p: &Printing, card: &serde_json::Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut differ = |what: &str, pool: String, theirs: String| {
        if pool != theirs {
            diffs.push(format!(
                "{what}: pool {pool:?}, pokemon-tcg-data {theirs:?}"
            ));
        }
    };
    let subs = subtypes(card);
    let en = p.names.get(Language::En).unwrap_or("");
    let their_name = card["name"].as_str().unwrap_or("");
    differ("name", comparable_name(en), comparable_name(their_name));
    let category = match card["supertype"].as_str() {
        Some("Pokémon") => "pokemon",
        Some("Trainer") => "trainer",
        _ => "energy",
    };
    differ(
        "category",
        p.category.as_str().to_string(),
        category.to_string(),
    );
    if p.category == Category::Pokemon {
        differ(
            "stage",
            format!("{:?}", p.stage),
            format!("{:?}", pokemontcg_stage(&subs)),
        );
        let types: Vec<&str> = card["types"]
            .as_array()
            .map(|t| t.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        differ("types", format!("{:?}", p.types), format!("{types:?}"));
        let evolves = card["evolvesFrom"].as_str();
        differ(
            "evolves_from",
            format!("{:?}", p.evolves_from.as_deref()),
            format!("{evolves:?}"),
        );
    }
    compare_pokemontcg_flags(p, card, &subs, &mut differ);
    diffs
}

fn compare_pokemontcg_flags(
    p: &Printing,
    card: &serde_json::Value,
    subs: &[&str],
    differ: &mut impl FnMut(&str, String, String),
) {
    let trainer = [
        ("Item", TrainerKind::Item),
        ("Supporter", TrainerKind::Supporter),
        ("Stadium", TrainerKind::Stadium),
        ("Pokémon Tool", TrainerKind::Tool),
        ("Technical Machine", TrainerKind::TechnicalMachine),
        ("Rocket's Secret Machine", TrainerKind::RocketsSecretMachine),
    ]
    .into_iter()
    .find(|(s, _)| subs.contains(s))
    .map(|(_, kind)| kind);
    if p.category == Category::Trainer {
        differ(
            "trainer",
            format!("{:?}", p.trainer),
            format!("{trainer:?}"),
        );
    }
    if p.category == Category::Energy {
        let energy = if subs.contains(&"Basic") {
            EnergyKind::Basic
        } else {
            EnergyKind::Special
        };
        differ(
            "energy",
            format!("{:?}", p.energy),
            format!("{:?}", Some(energy)),
        );
    }
    let mark = card["regulationMark"].as_str().map(str::to_string);
    differ(
        "regulation_mark",
        format!("{:?}", p.regulation_mark.map(String::from)),
        format!("{mark:?}"),
    );
    let flags = [
        ("ace_spec", p.ace_spec, "ACE SPEC"),
        ("radiant", p.radiant, "Radiant"),
        ("prism_star", p.prism_star, "Prism Star"),
        ("pokemon_star", p.pokemon_star, "Star"),
    ];
    for (flag, ours, subtype) in flags {
        differ(flag, ours.to_string(), subs.contains(&subtype).to_string());
    }
}

#[test]
fn curated_facts_match_tcgdex() {
    let Some(data) = common::shared_data("curated_facts_match_tcgdex") else {
        return;
    };
    let sets = tcgdex_sets(&data.join("tcgdex-repo"));
    let ptcg = pokemontcg(&data);
    let mut problems = Vec::new();
    let mut cards_by_set: HashMap<String, HashMap<String, PathBuf>> = HashMap::new();
    for p in pool() {
        let label = p.printing_label();
        let Some(set) = sets.get(&p.set_id) else {
            problems.push(format!("{label}: no TCGdex set with id {:?}", p.set_id));
            continue;
        };
        let ptcg_codes: Vec<String> = ptcg
            .find(&p)
            .map(|c| ptcg.key_of(c))
            .unwrap_or_default()
            .into_iter()
            .map(|(code, _)| code)
            .collect();
        if !tcgdex_code_matches(&set.record, &p, &ptcg_codes) {
            problems.push(format!(
                "{label}: set {} is printed under another code",
                p.set_id
            ));
        }
        if let Some(released) = set.record.str_at("releaseDate")
            && released != p.release_date
        {
            problems.push(format!(
                "{label}: released {:?}, TCGdex {released:?}",
                p.release_date
            ));
        }
        let cards = cards_by_set
            .entry(p.set_id.clone())
            .or_insert_with(|| tcgdex_cards(set));
        let Some(file) = cards.get(&p.number) else {
            problems.push(format!(
                "{label}: no card {} in TCGdex set {}",
                p.number, p.set_id
            ));
            continue;
        };
        let card = read_record(file);
        problems.extend(
            compare_tcgdex(&p, &card)
                .into_iter()
                .map(|d| format!("{label}: {d}")),
        );
    }
    assert_none("embedded vs TCGdex", &problems);
}

#[test]
fn curated_facts_match_pokemontcg() {
    let Some(data) = common::shared_data("curated_facts_match_pokemontcg") else {
        return;
    };
    let ptcg = pokemontcg(&data);
    let known_sets: HashSet<&String> = ptcg.codes.values().flatten().collect();
    let mut problems = Vec::new();
    let mut compared = 0;
    for p in pool() {
        let label = p.printing_label();
        match ptcg.find(&p) {
            Some(card) => {
                compared += 1;
                let diffs = compare_pokemontcg(&p, card);
                problems.extend(diffs.into_iter().map(|d| format!("{label}: {d}")));
            }
            // A set pokemon-tcg-data has must have the card; newer sets are TCGdex-only.
            None if known_sets.contains(&p.set_code) => {
                problems.push(format!("{label}: missing from pokemon-tcg-data's set"));
            }
            None => {}
        }
    }
    assert!(
        compared > 100,
        "only {compared} printings found in pokemon-tcg-data"
    );
    assert_none("embedded vs pokemon-tcg-data", &problems);
}

#[test]
fn every_special_printing_is_in_the_pool() {
    let Some(data) = common::shared_data("every_special_printing_is_in_the_pool") else {
        return;
    };
    let pool = pool();
    let by_key: HashMap<(String, String), &Printing> = pool
        .iter()
        .map(|p| ((p.set_code.clone(), p.number.clone()), p))
        .collect();
    let mut problems = missing_from_pokemontcg(&data, &by_key);
    let by_set_id: HashMap<(String, String), &Printing> = pool
        .iter()
        .map(|p| ((p.set_id.clone(), p.number.clone()), p))
        .collect();
    problems.extend(missing_from_tcgdex(&data.join("tcgdex-repo"), &by_set_id));
    assert_none("special printings missing from the pool", &problems);
}

/// pokemon-tcg-data subtypes that the pool must hold every printing of, and the flag.
type Flag = fn(&Printing) -> bool;
const SPECIAL_SUBTYPES: &[(&str, Flag)] = &[
    ("ACE SPEC", |p| p.ace_spec),
    ("Radiant", |p| p.radiant),
    ("Prism Star", |p| p.prism_star),
    ("Star", |p| p.pokemon_star),
];

fn missing_from_pokemontcg(
    data: &Path,
    by_key: &HashMap<(String, String), &Printing>,
) -> Vec<String> {
    let ptcg = pokemontcg(data);
    let mut problems = Vec::new();
    let mut ids: Vec<&String> = ptcg.by_id.keys().collect();
    ids.sort();
    for id in ids {
        let card = &ptcg.by_id[id];
        let subs = subtypes(card);
        for &(subtype, flag) in SPECIAL_SUBTYPES {
            if !subs.contains(&subtype) {
                continue;
            }
            let keys = ptcg.key_of(card);
            let found = keys.iter().filter_map(|k| by_key.get(k)).find(|p| flag(p));
            if found.is_none() {
                let name = card["name"].as_str().unwrap_or("");
                problems.push(format!(
                    "pokemon-tcg-data {id} {name} ({subtype}) as {keys:?}"
                ));
            }
        }
    }
    problems
}

fn missing_from_tcgdex(
    root: &Path,
    by_set_id: &HashMap<(String, String), &Printing>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let sets = tcgdex_sets(root);
    let mut ids: Vec<&String> = sets.keys().collect();
    ids.sort();
    for id in ids {
        for (number, file) in tcgdex_cards(&sets[id]) {
            // Only read the records that can matter: a cheap text test first.
            let text = fs::read_to_string(&file).unwrap();
            let special = ["ACE SPEC Rare", "Radiant Rare", "◇", "☆", "★"];
            if !special.iter().any(|s| text.contains(s)) {
                continue;
            }
            let card = read_record(&file);
            let rarity = card.str_at("rarity").unwrap_or("");
            let en = card.get("name").and_then(|n| n.str_at("en")).unwrap_or("");
            let pooled = by_set_id.get(&(id.clone(), number.clone()));
            let checks = [
                (
                    rarity == "ACE SPEC Rare",
                    pooled.is_some_and(|p| p.ace_spec),
                    "ACE SPEC",
                ),
                (
                    rarity == "Radiant Rare",
                    pooled.is_some_and(|p| p.radiant),
                    "Radiant",
                ),
                (
                    en.ends_with('◇'),
                    pooled.is_some_and(|p| p.prism_star),
                    "Prism Star",
                ),
                (
                    en.contains('☆') || en.contains('★'),
                    pooled.is_some_and(|p| p.pokemon_star),
                    "Pokémon Star",
                ),
            ];
            for (marked, flagged, what) in checks {
                if marked && !flagged {
                    problems.push(format!("TCGdex {id} {number} {en} ({what})"));
                }
            }
        }
    }
    problems
}

// --- Example decks (no dataset needed) -----------------------------------------------

/// `(count, name, set, number)` of each card line of a PTCGL export; lines without a set
/// code and number (the misspelled card of broken.txt) come back with empty set/number.
fn deck_lines(text: &str) -> Vec<(u32, String, String, String)> {
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let Some(count) = words.first().and_then(|w| w.parse::<u32>().ok()) else {
            continue;
        };
        words.remove(0);
        let n = words.len();
        let has_printing = n >= 3
            && words[n - 2]
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            && words[n - 1].chars().any(|c| c.is_ascii_digit());
        if has_printing {
            let name = words[..n - 2].join(" ");
            lines.push((
                count,
                name,
                words[n - 2].to_string(),
                words[n - 1].to_string(),
            ));
        } else {
            lines.push((count, words.join(" "), String::new(), String::new()));
        }
    }
    lines
}

#[test]
fn example_decks_are_in_the_index() {
    let pool = index();
    let decks = [
        ("examples/dragapult.txt", Language::En, 60, 0),
        ("examples/gardevoir-fr.txt", Language::Fr, 60, 0),
        ("examples/broken.txt", Language::En, 61, 1),
    ];
    let mut problems = Vec::new();
    for (path, lang, total, unknown) in decks {
        let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
        let lines = deck_lines(&text);
        let sum: u32 = lines.iter().map(|l| l.0).sum();
        if sum != total {
            problems.push(format!("{path}: {sum} cards, expected {total}"));
        }
        let mut misses = 0;
        for (_, name, set, number) in &lines {
            let (code, number) = split_subset(set, number);
            let found = pool
                .iter()
                .find(|p| p.set_code == code && p.number == number);
            match found {
                Some(p) if p.names.get(lang) == Some(name.as_str()) => {
                    if !p.is_basic_energy() && !matches!(p.regulation_mark, Some('H' | 'I' | 'J')) {
                        problems.push(format!("{path}: {name} {code} {number} is not H/I/J"));
                    }
                }
                Some(p) => problems.push(format!(
                    "{path}: {name} is {:?} in the pool",
                    p.names.get(lang)
                )),
                None => misses += 1,
            }
        }
        if misses != unknown {
            problems.push(format!(
                "{path}: {misses} card(s) not in the pool, expected {unknown}"
            ));
        }
    }
    assert_none("example decks", &problems);
}

#[test]
fn valid_examples_keep_the_construction_rules() {
    let pool = index();
    for path in ["examples/dragapult.txt", "examples/gardevoir-fr.txt"] {
        let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
        let mut copies: HashMap<String, u32> = HashMap::new();
        let (mut ace_specs, mut basics) = (0, 0);
        for (count, _, set, number) in deck_lines(&text) {
            let (code, number) = split_subset(&set, &number);
            let p = pool
                .iter()
                .find(|p| p.set_code == code && p.number == number)
                .unwrap();
            if !p.is_basic_energy() {
                *copies.entry(p.names.primary().to_string()).or_default() += count;
            }
            ace_specs += if p.ace_spec { count } else { 0 };
            basics += if p.is_basic_pokemon() { count } else { 0 };
        }
        let over: Vec<_> = copies.iter().filter(|(_, n)| **n > 4).collect();
        assert!(over.is_empty(), "{path}: more than 4 copies: {over:?}");
        assert_eq!(ace_specs, 1, "{path}: ACE SPEC count");
        assert!(basics > 0, "{path}: no Basic Pokémon");
    }
}
