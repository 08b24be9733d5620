//! Loads a checkout of pokemon-tcg-data (`sets/en.json`, `cards/en/<setId>.json`) into
//! [`Printing`]s: English names only.
//!
//! A third-party format: unknown fields are ignored, and a card whose supertype is unknown
//! is skipped. Card files are read in parallel, one per set. This module maps the dataset's
//! vocabulary onto ours and must not decide anything about rules or deck lists.

use std::path::{Path, PathBuf};

use crate::util::parallel::prelude::*;
use serde::Deserialize;

use super::budget::Budget;
use super::from_tcgdex::Skipped;
use super::{CardDbError, SetInfo, from_tcgdex};
use crate::cards::model::details::{Ability, Attack, Details, Texts, TypeModifier, clean_text};
use crate::cards::model::{
    Category, EnergyKind, Names, Printing, Stage, Tag, Tags, TrainerKind, number_key, set_key,
};
use crate::names::lang::Language;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSet {
    id: String,
    #[serde(default)]
    series: String,
    #[serde(default)]
    ptcgo_code: Option<String>,
    #[serde(default)]
    release_date: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawCard {
    name: String,
    supertype: String,
    #[serde(default)]
    subtypes: Option<Vec<String>>,
    number: String,
    #[serde(default)]
    types: Option<Vec<String>>,
    #[serde(default)]
    evolves_from: Option<String>,
    #[serde(default)]
    regulation_mark: Option<String>,
    #[serde(default)]
    rules: Option<Vec<String>>,
    #[serde(default)]
    abilities: Option<Vec<RawText>>,
    #[serde(default)]
    attacks: Option<Vec<RawText>>,
    #[serde(default)]
    hp: Option<String>,
    #[serde(default)]
    weaknesses: Option<Vec<RawModifier>>,
    #[serde(default)]
    resistances: Option<Vec<RawModifier>>,
    #[serde(default)]
    converted_retreat_cost: Option<u32>,
    #[serde(default)]
    artist: Option<String>,
    #[serde(default)]
    rarity: Option<String>,
}

/// An ability (`type`: `Ability`, `Poké-Power`, ...) or an attack (`cost`, `damage`).
#[derive(Debug, Deserialize)]
struct RawText {
    #[serde(default)]
    name: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    cost: Option<Vec<String>>,
    #[serde(default)]
    damage: Option<String>,
}

/// What [`load_detailed`] read: the printings, each one's details (same order), and the
/// card files that could not be read.
pub type LoadedSets = (Vec<Printing>, Vec<Details>, Vec<Skipped>);

#[derive(Debug, Deserialize)]
struct RawModifier {
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    value: String,
}

/// Loads every English card of the checkout at `root`. A set without a `ptcgoCode` gets
/// its id upper-cased as its code (`MCD19`, `POP1`): no deck list writes those sets
/// otherwise, and the id keeps them apart.
pub fn load(root: &Path) -> Result<Vec<Printing>, CardDbError> {
    load_detailed(root).map(|(printings, _, _)| printings)
}

/// Like [`load`], also returning each printing's [`Details`] (English) and the card files
/// that could not be read or are missing
/// (a set of `sets/en.json` without its `cards/en/<id>.json`): their sets have no cards, the
/// rest of the checkout is loaded.
///
/// A set id names a file, so only a plain id is followed ([`plain_id`]), to a file that
/// really lies in `cards/en` (a link out of it is refused too); an id listed twice is loaded
/// once. The whole load is bounded by a `Budget` (`budget.rs`).
pub fn load_detailed(root: &Path) -> Result<LoadedSets, CardDbError> {
    let budget = Budget::new(root);
    let sets_path = root.join("sets").join("en.json");
    let raw_sets: Vec<RawSet> = read_json(&sets_path, &budget)?;
    let cards_dir = root.join("cards").join("en");
    let inside = cards_dir.canonicalize().map_err(|source| CardDbError::Io {
        path: cards_dir.clone(),
        source,
    })?;
    let mut damaged = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut jobs = Vec::new();
    for raw in &raw_sets {
        match set_file(&cards_dir, &inside, &raw.id) {
            Ok(path) if seen.insert(path.canonicalize().unwrap_or_else(|_| path.clone())) => {
                jobs.push((raw, path));
            }
            Ok(path) => damaged.push(Skipped {
                reason: format!(
                    "set `{}` is listed more than once in sets/en.json: its cards are loaded once",
                    raw.id
                ),
                path,
            }),
            Err(skipped) => damaged.push(skipped),
        }
    }
    let per_set: Vec<Result<Vec<(Printing, Details)>, Skipped>> = jobs
        .par_iter()
        .map(|(raw, path)| {
            let cards: Vec<RawCard> = read_json(path, &budget).map_err(|error| Skipped {
                reason: match &error {
                    CardDbError::Io { source, .. }
                        if source.kind() == std::io::ErrorKind::NotFound =>
                    {
                        format!(
                            "set `{}` has no card file: its cards are not loaded",
                            raw.id
                        )
                    }
                    CardDbError::Io { source, .. } => source.to_string(),
                    CardDbError::Invalid { message, .. } => message.clone(),
                    other => other.to_string(),
                },
                path: path.clone(),
            })?;
            let printings = detailed_printings(raw, &cards);
            let parts = printings
                .iter()
                .all(|(_, details)| budget.keep_parts(details));
            Ok(if parts && budget.keep(printings.len()) {
                printings
            } else {
                Vec::new()
            })
        })
        .collect();
    budget.finish()?;
    let (mut all, mut details) = (Vec::new(), Vec::new());
    for set in per_set {
        match set {
            Ok(printings) => {
                for (printing, detail) in printings {
                    all.push(printing);
                    details.push(detail);
                }
            }
            Err(skipped) => damaged.push(skipped),
        }
    }
    Ok((all, details, damaged))
}

/// Whether a set id may name a file: 1 to 64 ASCII letters, digits, `.`, `-` and `_`, not
/// starting with `.` (so neither `..`, a hidden file, an absolute path nor a folder). The
/// ids of pokemon-tcg-data are such (`sv3pt5`, `swsh12pt5gg`, `mcd19`).
pub fn plain_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-' | b'_'))
}

/// The card file of set `id`: `cards/en/<id>.json`, when `id` is plain and the file (links
/// followed) lies in `inside`, the canonical `cards/en`. A missing file is returned as is:
/// reading it says so.
fn set_file(cards_dir: &Path, inside: &Path, id: &str) -> Result<PathBuf, Skipped> {
    let shown = crate::util::escape::visible_line(id).into_owned();
    if !plain_id(id) {
        return Err(Skipped {
            path: cards_dir.to_path_buf(),
            reason: format!(
                "set id `{shown}` is not a plain id (letters, digits, `.`, `-`, `_`): its \
                 cards are not loaded"
            ),
        });
    }
    let path = cards_dir.join(format!("{id}.json"));
    match path.canonicalize() {
        Ok(real) if !real.starts_with(inside) => Err(Skipped {
            reason: format!(
                "the card file of set `{shown}` leads outside the checkout (a link): its \
                 cards are not loaded"
            ),
            path,
        }),
        _ => Ok(path),
    }
}

/// The printings of one set from the JSON of its entry in `sets/en.json` (one object) and
/// of its card file (an array), as [`load`] reads them; the error is serde's message. For
/// fuzzing and tests: [`load`] is the way to read a checkout.
pub fn printings_from_json(set: &[u8], cards: &[u8]) -> Result<Vec<Printing>, String> {
    let raw: RawSet = serde_json::from_slice(set).map_err(|err| err.to_string())?;
    let cards: Vec<RawCard> = serde_json::from_slice(cards).map_err(|err| err.to_string())?;
    let printings = detailed_printings(&raw, &cards);
    Ok(printings
        .into_iter()
        .map(|(printing, _)| printing)
        .collect())
}

fn detailed_printings(raw: &RawSet, cards: &[RawCard]) -> Vec<(Printing, Details)> {
    let info = set_info(raw);
    cards
        .iter()
        .filter_map(|card| Some((printing(card, &info)?, details(card))))
        .collect()
}

/// Largest pokemon-tcg-data file read: the largest is `cards/en/swshp.json`, 454 KB
/// (@04cd5d9); a set of 1,000 cards would stay far below.
pub const MAX_JSON_BYTES: u64 = 4 << 20;

/// Most JSON objects and array elements one pokemon-tcg-data file may hold (each `{` and
/// `,` outside strings, counted before it is parsed): `swshp.json` has 12,173. Parsed, an
/// element costs up to about 120 bytes, so this bounds what one file costs (12 MB).
pub const MAX_JSON_VALUES: usize = 100_000;

fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    budget: &Budget,
) -> Result<T, CardDbError> {
    let io = |source| CardDbError::Io {
        path: PathBuf::from(path),
        source,
    };
    let bytes = budget.read(path, MAX_JSON_BYTES).map_err(io)?;
    if crate::util::bounded::json_values(&bytes) > MAX_JSON_VALUES {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it holds more than {MAX_JSON_VALUES} JSON objects and array elements"),
        )));
    }
    serde_json::from_slice(&bytes).map_err(|err| CardDbError::Invalid {
        path: PathBuf::from(path),
        message: err.to_string(),
    })
}

fn set_info(raw: &RawSet) -> SetInfo {
    let code = raw
        .ptcgo_code
        .as_deref()
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .unwrap_or(&raw.id);
    SetInfo {
        set_id: raw.id.clone(),
        set_code: set_key(code),
        release_date: raw.release_date.replace('/', "-"),
        series: series_id(&raw.series).to_string(),
    }
}

/// pokemon-tcg-data names series in words; we keep TCGdex's ids so both sources agree.
fn series_id(name: &str) -> &str {
    const IDS: &[(&str, &str)] = &[
        ("Base", "base"),
        ("Gym", "gym"),
        ("Neo", "neo"),
        ("E-Card", "ecard"),
        ("EX", "ex"),
        ("POP", "pop"),
        ("NP", "pop"),
        ("Diamond & Pearl", "dp"),
        ("Platinum", "pl"),
        ("HeartGold & SoulSilver", "hgss"),
        ("Black & White", "bw"),
        ("XY", "xy"),
        ("Sun & Moon", "sm"),
        ("Sword & Shield", "swsh"),
        ("Scarlet & Violet", "sv"),
        ("Mega Evolution", "me"),
        ("Other", "misc"),
    ];
    IDS.iter()
        .find(|(words, _)| *words == name)
        .map_or("", |(_, id)| id)
}

/// Maps one card; `None` when its supertype is unknown.
fn printing(card: &RawCard, set: &SetInfo) -> Option<Printing> {
    let category = match card.supertype.as_str() {
        "Pokémon" | "Pokemon" => Category::Pokemon,
        "Trainer" => Category::Trainer,
        "Energy" => Category::Energy,
        _ => return None,
    };
    let subtypes = card.subtypes.as_deref().unwrap_or(&[]);
    let has = |name: &str| subtypes.iter().any(|s| s == name);
    let mut names = Names::default();
    names.set(Language::En, card.name.trim());
    let stage = (category == Category::Pokemon)
        .then(|| stage(subtypes))
        .flatten();
    let mut tags = Tags::default();
    if category == Category::Pokemon {
        tags = Tags::of_pokemon(&card.name, stage);
        let subtype_tags = [
            ("TAG TEAM", Tag::TagTeam),
            ("LEGEND", Tag::Legend),
            ("Prime", Tag::Prime),
        ];
        for (subtype, tag) in subtype_tags {
            if has(subtype) {
                tags.insert(tag);
            }
        }
    }
    let mut printing = Printing {
        set_code: set.set_code.clone(),
        set_id: set.set_id.clone(),
        number: number_key(&card.number),
        release_date: set.release_date.clone(),
        series: set.series.clone(),
        names,
        category,
        stage,
        evolves_from: card.evolves_from.clone(),
        types: card.types.clone().unwrap_or_default(),
        trainer: (category == Category::Trainer)
            .then(|| trainer(subtypes))
            .flatten(),
        energy: (category == Category::Energy).then(|| {
            if has("Basic") {
                EnergyKind::Basic
            } else {
                EnergyKind::Special
            }
        }),
        ace_spec: has("ACE SPEC"),
        radiant: has("Radiant"),
        prism_star: has("Prism Star") || super::from_tcgdex::is_prism_star(&card.name),
        pokemon_star: category == Category::Pokemon
            && (has("Star") || super::from_tcgdex::is_pokemon_star(&card.name)),
        regulation_mark: card.regulation_mark.as_deref().and_then(|mark| {
            let mut chars = mark.trim().chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
                _ => None,
            }
        }),
        tags,
        effect: None,
        any_number: false,
        slot: crate::cards::model::DbSlot::default(),
    };
    printing.set_rules_text(&rules_text(card));
    Some(printing)
}

/// The stage among the subtypes. The special stages win over `Basic`/`Stage 1`/`Stage 2`,
/// and `MEGA` is a stage only for XY-era Mega Evolutions (2025 Mega Pokémon ex also carry
/// `Basic`, `Stage 1` or `Stage 2`).
/// The stage pokemon-tcg-data's `subtypes` describe, in deckbox's terms (the first of the
/// special stages found, then Stage 2, Stage 1, Basic).
pub fn stage(subtypes: &[String]) -> Option<Stage> {
    const SPECIAL: &[(&str, Stage)] = &[
        ("V-UNION", Stage::VUnion),
        ("VMAX", Stage::Vmax),
        ("VSTAR", Stage::Vstar),
        ("BREAK", Stage::Break),
        ("Level-Up", Stage::LevelUp),
        ("LEVEL-UP", Stage::LevelUp),
        ("Restored", Stage::Restored),
        ("Baby", Stage::Baby),
        ("Stage 2", Stage::Stage2),
        ("Stage 1", Stage::Stage1),
        ("Basic", Stage::Basic),
        ("MEGA", Stage::Mega),
    ];
    SPECIAL
        .iter()
        .find(|(name, _)| subtypes.iter().any(|s| s == name))
        .map(|(_, stage)| *stage)
}

fn trainer(subtypes: &[String]) -> Option<TrainerKind> {
    subtypes.iter().find_map(|s| match s.as_str() {
        "Item" => Some(TrainerKind::Item),
        "Supporter" => Some(TrainerKind::Supporter),
        "Stadium" => Some(TrainerKind::Stadium),
        "Pokémon Tool" | "Pokémon Tool F" => Some(TrainerKind::Tool),
        "Technical Machine" => Some(TrainerKind::TechnicalMachine),
        "Rocket's Secret Machine" => Some(TrainerKind::RocketsSecretMachine),
        _ => None,
    })
}

/// Rules (Trainer and Energy text, rule boxes), abilities, attacks and (for Pokémon) the
/// printed stats, one per line, written as [`super::from_tcgdex`] writes them:
/// `[Ability] name: effect`, `[CC] name 30+: effect`, `HP 60 · weakness Fire ×2 · retreat 2`.
fn rules_text(card: &RawCard) -> String {
    let mut lines: Vec<String> = card.rules.clone().unwrap_or_default();
    for ability in card.abilities.iter().flatten() {
        let kind = ability.kind.as_deref().unwrap_or("").trim();
        let text = ability.text.as_deref().map(str::trim).unwrap_or("");
        lines.push(match (ability.name.trim(), text) {
            (name, "") => format!("[{kind}] {name}"),
            ("", text) => format!("[{kind}] {text}"),
            (name, text) => format!("[{kind}] {name}: {text}"),
        });
    }
    for attack in card.attacks.iter().flatten() {
        let cost: Vec<&str> = attack.cost.iter().flatten().map(String::as_str).collect();
        let damage = attack.damage.as_deref().unwrap_or("");
        let line = from_tcgdex::attack_line(&cost, &attack.name, damage, attack.text.as_deref());
        lines.push(line);
    }
    if let Some(hp) = &card.hp {
        lines.push(stats(card, hp));
    }
    lines.retain(|line| !line.trim().is_empty());
    lines.join("\n")
}

/// What a card says beyond the rules' facts, in English (the only language of
/// pokemon-tcg-data). `rules` holds a Trainer's or Energy's text and a Pokémon's rule box.
fn details(card: &RawCard) -> Details {
    let english = |text: &str| {
        let mut texts = Texts::default();
        let text = clean_text(text);
        if !text.is_empty() {
            texts.0[Language::En.index()] = Some(text);
        }
        texts
    };
    let modifiers = |list: &Option<Vec<RawModifier>>| -> Vec<TypeModifier> {
        list.iter()
            .flatten()
            .map(|m| TypeModifier {
                energy_type: clean_text(&m.kind),
                value: clean_text(&m.value),
            })
            .collect()
    };
    let optional = |text: &Option<String>| {
        let text = clean_text(text.as_deref().unwrap_or(""));
        (!text.is_empty()).then_some(text)
    };
    let is_pokemon = matches!(card.supertype.as_str(), "Pokémon" | "Pokemon");
    Details {
        hp: card.hp.as_deref().and_then(|hp| hp.trim().parse().ok()),
        // Left out when it is zero.
        retreat: is_pokemon.then(|| {
            let cost = card.converted_retreat_cost.unwrap_or(0);
            u8::try_from(cost).unwrap_or(u8::MAX)
        }),
        weaknesses: modifiers(&card.weaknesses),
        resistances: modifiers(&card.resistances),
        abilities: (card.abilities.iter().flatten())
            .map(|ability| Ability {
                kind: clean_text(ability.kind.as_deref().unwrap_or("")),
                name: english(&ability.name),
                text: english(ability.text.as_deref().unwrap_or("")),
            })
            .collect(),
        attacks: (card.attacks.iter().flatten())
            .map(|attack| Attack {
                name: english(&attack.name),
                cost: (attack.cost.iter().flatten())
                    .map(|kind| clean_text(kind))
                    .filter(|kind| !kind.is_empty() && kind != "Free")
                    .collect(),
                damage: clean_text(attack.damage.as_deref().unwrap_or("")),
                text: english(attack.text.as_deref().unwrap_or("")),
            })
            .collect(),
        effect: english(&card.rules.as_deref().unwrap_or(&[]).join("\n")),
        illustrator: optional(&card.artist),
        rarity: optional(&card.rarity),
    }
}

/// pokemon-tcg-data leaves `retreatCost` out when it is zero.
fn stats(card: &RawCard, hp: &str) -> String {
    let modifiers = |list: &Option<Vec<RawModifier>>| -> Vec<(String, String)> {
        list.iter()
            .flatten()
            .map(|m| (m.kind.clone(), m.value.clone()))
            .collect()
    };
    let retreat = card.converted_retreat_cost.unwrap_or(0).to_string();
    from_tcgdex::stats_line(
        hp,
        &modifiers(&card.weaknesses),
        &modifiers(&card.resistances),
        Some(&retreat),
    )
}
