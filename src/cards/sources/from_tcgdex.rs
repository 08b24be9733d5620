//! Loads a checkout of the TCGdex cards-database (`data/<Serie>.ts`, `data/<Serie>/<Set>.ts`,
//! `data/<Serie>/<Set>/<localId>.ts`) into [`Printing`]s.
//!
//! Each record is a TypeScript module read by [`literal`]; the `set`/`serie` fields are
//! imports of the parent file, so the set and series of a card come from where its file
//! sits. TCG Pocket (`data/Pokémon TCG Pocket`, serie id `tcgp`) is another game and is
//! skipped. Card files are read and mapped in parallel. This module maps the dataset's
//! vocabulary onto ours and must not decide anything about rules or deck lists; facts the
//! dataset lacks (BW-era ACE SPECs) are added later by [`crate::cards::storage::checkout_cache`].

pub mod details;
pub mod literal;
pub mod repair;

use std::path::{Path, PathBuf};

use crate::util::parallel::prelude::*;

use self::literal::Value;
use super::budget::Budget;
use super::{CardDbError, SetInfo};
use crate::cards::model::details::{Details, clean_text};
use crate::cards::model::{
    Category, EnergyKind, Names, Printing, Stage, Tag, Tags, TrainerKind, number_key, set_key,
};
use crate::names::lang::{Language, Region};

/// Sets whose code in deck lists differs from what TCGdex gives (or TCGdex gives none),
/// keyed by TCGdex set id: the code deck lists print, and TCGdex's own
/// (`abbreviations.official`) where it gives one. Deck lists follow the codes of the online
/// games (PTCGO/Live), which pokemon-tcg-data records as `ptcgoCode`; TCGdex's differs for
/// these, and sites that take their codes from TCGdex write those ([`tcgdex_code_alias`]).
const CODE_OVERRIDES: &[(&str, &str, Option<&str>)] = &[
    ("base5", "TR", Some("RO")),  // Team Rocket
    ("ex7", "TRR", Some("TR")),   // Team Rocket Returns: TCGdex `TR`, Team Rocket's code
    ("hgss3", "UD", Some("UND")), // Undaunted
    ("hgss4", "TM", Some("TRI")), // Triumphant
    ("col1", "CL", Some("COL")),  // Call of Legends
    ("bw2", "EPO", Some("EP")),   // Emerging Powers
    ("swshp", "SWSHP", None),     // SWSH promos (`PR-SW` in lists): no code in TCGdex
    ("sma", "HIF", None),         // Hidden Fates Shiny Vault: numbers carry `SV`
    ("svp", "SVP", None),         // SV promos (`PR-SV` in lists)
    ("exu", "UF", None),          // the Unown A-Z, !, ? of Unseen Forces: a set of their own here
];

/// The code deck lists print for a set TCGdex writes `code` for, where the two differ
/// (`EP`: `EPO`, Emerging Powers; `TR`: `TRR`, Team Rocket Returns), case ignored.
pub fn tcgdex_code_alias(code: &str) -> Option<&'static str> {
    let code = code.trim();
    CODE_OVERRIDES
        .iter()
        .find(|(_, _, tcgdex)| tcgdex.is_some_and(|tcgdex| tcgdex.eq_ignore_ascii_case(code)))
        .map(|&(_, printed, _)| printed)
}

/// The TCGdex serie id of Pokémon TCG Pocket, a different game.
const POCKET_SERIE_ID: &str = "tcgp";
const POCKET_DIR: &str = "Pokémon TCG Pocket";

/// A printing with what it says beyond the rules' facts.
type Detailed = (Printing, Details);

/// A record the loader could not turn into a printing, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: String,
}

/// Everything [`load_detailed`] read.
#[derive(Debug, Default)]
pub struct Loaded {
    pub printings: Vec<Printing>,
    /// What each printing says beyond the rules' facts: `details[i]` is `printings[i]`'s.
    pub details: Vec<Details>,
    pub skipped: Vec<Skipped>,
    /// Files that could not be read or parsed, and set or series folders without their
    /// record: the rest of the checkout is loaded, these are reported (a user's clone may be
    /// damaged; one bad file must not make 23,881 cards unusable).
    pub damaged: Vec<Skipped>,
    /// What each of [`repair`]'s rules changed.
    pub repairs: Vec<repair::Repaired>,
}

/// Loads every card of the checkout at `root` (the folder holding `data/`), with the
/// dataset's known defects repaired ([`repair`]).
pub fn load(root: &Path) -> Result<Vec<Printing>, CardDbError> {
    load_detailed(root).map(|loaded| loaded.printings)
}

/// Like [`load`], also returning the records that were skipped.
/// The whole load is bounded by a `Budget` (`budget.rs`): a checkout holding more card files than
/// [`super::budget::MAX_DATASET_PRINTINGS`], more bytes than
/// [`super::budget::MAX_DATASET_BYTES`] or more attacks and abilities than
/// [`super::budget::MAX_DATASET_PARTS`] is an error.
pub fn load_detailed(root: &Path) -> Result<Loaded, CardDbError> {
    let data = root.join("data");
    let budget = Budget::new(root);
    let mut loaded = Loaded::default();
    let mut sets = Vec::new();
    orphan_folders(&data, "series", &mut loaded.damaged);
    for serie_file in ts_files(&data)? {
        collect_serie(&serie_file, &mut sets, &mut loaded, &budget)?;
    }
    let mut jobs = Vec::new();
    for (index, (_, dir)) in sets.iter().enumerate() {
        // A set without cards has no folder.
        if dir.is_dir() {
            match not_a_link(dir).and_then(|()| ts_files(dir)) {
                Ok(files) => jobs.extend(files.into_iter().map(|path| (index, path))),
                Err(error) => loaded.damaged.push(damaged(dir, &error)),
            }
        }
    }
    // One printing per card file: too many files is refused before any is read.
    if !budget.keep(jobs.len()) {
        return Err(budget
            .finish()
            .err()
            .unwrap_or_else(|| CardDbError::TooLarge {
                path: root.to_path_buf(),
                message: "too many card files".into(),
            }));
    }
    let results: Vec<Result<Result<Detailed, Skipped>, CardDbError>> = jobs
        .par_iter()
        .map(|(index, path)| {
            let info = sets.get(*index).map(|(info, _)| info);
            read_card(path, info, &budget)
        })
        .collect();
    budget.finish()?;
    for (result, (_, path)) in results.into_iter().zip(&jobs) {
        match result {
            Ok(Ok((printing, details))) => {
                loaded.printings.push(printing);
                loaded.details.push(details);
            }
            Ok(Err(skipped)) => loaded.skipped.push(skipped),
            Err(error) => loaded.damaged.push(damaged(path, &error)),
        }
    }
    loaded.repairs = repair::repair(&mut loaded.printings);
    loaded.repairs.push(repair::Repaired {
        rule: "weakness-missing",
        printings: repair::weakness_missing(&mut loaded.printings, &mut loaded.details),
    });
    Ok(loaded)
}

/// The `.ts` files directly inside `dir`, sorted so the output order is stable.
fn ts_files(dir: &Path) -> Result<Vec<PathBuf>, CardDbError> {
    let io = |source| CardDbError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        // Whatever its kind: one that is not a regular file (a named pipe, a folder) is
        // refused by the bounded reader, and so reported, not silently passed over.
        if path.extension().is_some_and(|ext| ext == "ts") {
            files.push(path);
        }
    }
    files.sort_by_cached_key(|path| sort_key(path));
    Ok(files)
}

/// Orders `2.ts` before `10.ts` and `TG05.ts` after `99.ts`.
fn sort_key(path: &Path) -> (String, u64, String) {
    crate::cards::model::number_order(path.file_stem().and_then(|s| s.to_str()).unwrap_or(""))
}

/// Reads one `data/<Serie>.ts` and the set files of its folder. A record that cannot be
/// read is `damaged` (with its cards), and so is a set folder without its record.
fn collect_serie(
    serie_file: &Path,
    sets: &mut Vec<(SetInfo, PathBuf)>,
    loaded: &mut Loaded,
    budget: &Budget,
) -> Result<(), CardDbError> {
    let dir = serie_file.with_extension("");
    if dir.file_name().is_some_and(|name| name == POCKET_DIR) {
        return Ok(());
    }
    let serie = match read_record(serie_file, budget) {
        Ok(serie) => serie,
        Err(error) => {
            loaded.damaged.push(damaged(serie_file, &error));
            return Ok(());
        }
    };
    let series = string_field(&serie, "id");
    if series == POCKET_SERIE_ID || !dir.is_dir() {
        return Ok(());
    }
    if let Err(error) = not_a_link(&dir) {
        loaded.damaged.push(damaged(&dir, &error));
        return Ok(());
    }
    orphan_folders(&dir, "set", &mut loaded.damaged);
    let set_files = match ts_files(&dir) {
        Ok(files) => files,
        Err(error) => {
            loaded.damaged.push(damaged(&dir, &error));
            return Ok(());
        }
    };
    for set_file in set_files {
        let set = match read_record(&set_file, budget) {
            Ok(set) => set,
            Err(error) => {
                loaded.damaged.push(damaged(&set_file, &error));
                continue;
            }
        };
        let set_id = string_field(&set, "id");
        if set_id.is_empty() {
            loaded.skipped.push(Skipped {
                path: set_file,
                reason: "set without an `id`: its cards are skipped".into(),
            });
            continue;
        }
        sets.push((set_info(&set, set_id, &series), set_file.with_extension("")));
    }
    Ok(())
}

/// A file or folder that could not be read, with the error (which names the path) and what
/// it costs: a record's cards are not loaded.
fn damaged(path: &Path, error: &CardDbError) -> Skipped {
    let reason = match error {
        CardDbError::Io { source, .. } => source.to_string(),
        CardDbError::Invalid { message, .. } => message.clone(),
        other => other.to_string(),
    };
    Skipped {
        path: path.to_path_buf(),
        reason,
    }
}

/// Folders of `dir` without the record of the same name (`Base/` without `Base.ts`): their
/// cards cannot be placed in a set, so they are `damaged`, not silently lost. `what` names
/// the record (`set`, `series`).
fn orphan_folders(dir: &Path, what: &str, damaged: &mut Vec<Skipped>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut orphans: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let Some(name) = path.file_name() else {
                return false;
            };
            let mut record = name.to_os_string();
            record.push(".ts");
            path.is_dir()
                && !dir.join(record).is_file()
                && name != POCKET_DIR
                && !name.to_string_lossy().starts_with('.')
        })
        .collect();
    orphans.sort();
    damaged.extend(orphans.into_iter().map(|path| Skipped {
        reason: format!(
            "a {what} folder without its {what} file ({}.ts): its cards are not loaded",
            path.file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default()
        ),
        path,
    }));
}

fn set_info(set: &Value, set_id: String, series: &str) -> SetInfo {
    SetInfo {
        set_code: set_code(&set_id, set),
        release_date: string_field(set, "releaseDate"),
        series: series.to_string(),
        set_id,
    }
}

/// One card from the text of its set's record and of its own record, as [`load`] maps them
/// (`local_id` is the card file's name; the series id is `series`). The error is the syntax
/// error or why the card was skipped. For fuzzing and tests: [`load`] reads a checkout.
pub fn card_from_text(
    set: &str,
    card: &str,
    local_id: &str,
    series: &str,
) -> Result<Printing, String> {
    let set = literal::parse_module(set).map_err(|err| err.to_string())?;
    let set_id = string_field(&set, "id");
    if set_id.is_empty() {
        return Err("set without an `id`".into());
    }
    let card = literal::parse_module(card).map_err(|err| err.to_string())?;
    card_printing(&card, &set_info(&set, set_id, series), local_id)
}

/// Largest TCGdex record file read: the largest of the 23,881 is 5.4 KB (@d9083b7). The
/// record parser keeps a node of a few dozen bytes per value, so a record of 64 KiB costs
/// a few MB at most.
pub const MAX_RECORD_BYTES: u64 = 64 << 10;

/// Reads and parses one record, counted in `budget`; a syntax error names the file and
/// line.
/// `Ok` unless `path` is a symbolic link. Inside `data/`, a link could make the checkout read
/// any file on the disk (`001.ts -> /home/me/notes.ts`): a card dataset is read only inside
/// itself, so a link is a damaged record (a Git checkout of TCGdex holds none).
fn not_a_link(path: &Path) -> Result<(), CardDbError> {
    let io = |source| CardDbError::Io {
        path: path.to_path_buf(),
        source,
    };
    if std::fs::symlink_metadata(path).map_err(io)?.is_symlink() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is a symbolic link; a card dataset is read only inside itself",
        )));
    }
    Ok(())
}

fn read_record(path: &Path, budget: &Budget) -> Result<Value, CardDbError> {
    let io = |source| CardDbError::Io {
        path: path.to_path_buf(),
        source,
    };
    not_a_link(path)?;
    let bytes = budget.read(path, MAX_RECORD_BYTES).map_err(io)?;
    let text = String::from_utf8(bytes)
        .map_err(|error| io(std::io::Error::new(std::io::ErrorKind::InvalidData, error)))?;
    literal::parse_module(&text).map_err(|err| CardDbError::Invalid {
        path: path.to_path_buf(),
        message: err.to_string(),
    })
}

fn read_card(
    path: &Path,
    set: Option<&SetInfo>,
    budget: &Budget,
) -> Result<Result<Detailed, Skipped>, CardDbError> {
    let value = read_record(path, budget)?;
    let local_id = percent_decode(path.file_stem().and_then(|s| s.to_str()).unwrap_or(""));
    let mapped = match set {
        Some(set) => card_printing(&value, set, &local_id)
            .map(|printing| (printing, details::card_details(&value))),
        None => Err("no set".to_string()),
    };
    // Past the bound the budget is spent and the load ends in its error.
    if let Ok((_, details)) = &mapped
        && !budget.keep_parts(details)
    {
        return Ok(Err(Skipped {
            path: path.to_path_buf(),
            reason: "not kept: the card dataset is larger than deckbox loads".into(),
        }));
    }
    Ok(mapped.map_err(|reason| Skipped {
        path: path.to_path_buf(),
        reason,
    }))
}

/// File names escape what a file system may refuse: the Unown `?` is `%3F.ts`.
fn percent_decode(stem: &str) -> String {
    let mut out = Vec::with_capacity(stem.len());
    let mut bytes = stem.bytes();
    while let Some(byte) = bytes.next() {
        if byte == b'%' {
            let hex: Vec<u8> = bytes.clone().take(2).collect();
            let decoded = std::str::from_utf8(&hex)
                .ok()
                .filter(|hex| hex.len() == 2)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok());
            if let Some(decoded) = decoded {
                out.push(decoded);
                bytes.nth(1);
                continue;
            }
        }
        out.push(byte);
    }
    String::from_utf8(out).unwrap_or_else(|_| stem.to_string())
}

fn string_field(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The English text of a `{ en: ..., fr: ... }` field.
fn english<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value
        .get(key)?
        .get("en")?
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The set code deck lists print: the override table, else `abbreviations.official`
/// without a subset suffix (`BRS:TG` is `BRS`: the numbers already carry `TG`), else
/// `tcgOnline`; normalized by [`set_key`]. Empty when none is known.
pub(crate) fn set_code(set_id: &str, set: &Value) -> String {
    if let Some((_, code, _)) = CODE_OVERRIDES.iter().find(|(id, _, _)| *id == set_id) {
        return set_key(code);
    }
    let official = set
        .get("abbreviations")
        .and_then(|a| a.get("official"))
        .and_then(Value::as_str)
        .map(|code| code.split(':').next().unwrap_or(code));
    let online = set.get("tcgOnline").and_then(Value::as_str);
    official
        .or(online)
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .map(set_key)
        .unwrap_or_default()
}

/// Maps one card record. `Err` is the reason the record is skipped.
fn card_printing(card: &Value, set: &SetInfo, local_id: &str) -> Result<Printing, String> {
    let category = match card.get("category").and_then(Value::as_str) {
        Some("Pokemon" | "Pokémon") => Category::Pokemon,
        Some("Trainer") => Category::Trainer,
        Some("Energy") => Category::Energy,
        Some(other) => return Err(format!("unknown category `{other}`")),
        None => return Err("no category".into()),
    };
    let stage = match category {
        Category::Pokemon => card.get("stage").and_then(Value::as_str).and_then(stage),
        _ => None,
    };
    let mut names = names(card);
    if names.iter().next().is_none() {
        return Err("no name in any language".into());
    }
    if local_id.is_empty() {
        return Err("no local id".into());
    }
    let mut english_name = names.get(Language::En).unwrap_or("").to_string();
    // TCGdex names a Pokémon LV.X after the Pokémon alone (`Uxie`); the card, deck lists
    // and pokemon-tcg-data say `Uxie LV.X`, a name of its own.
    if stage == Some(Stage::LevelUp) && !english_name.is_empty() && !english_name.contains("LV.X") {
        english_name.push_str(" LV.X");
        names.set(Language::En, english_name.clone());
    }
    let rarity = card.get("rarity").and_then(Value::as_str).unwrap_or("");
    let rules_text = rules_text(card);
    let is_pokemon = category == Category::Pokemon;
    let mut tags = Tags::default();
    if is_pokemon {
        tags = Tags::of_pokemon(&english_name, stage);
        let suffix = card.get("suffix").and_then(Value::as_str).unwrap_or("");
        if suffix.eq_ignore_ascii_case("prime") || rarity.eq_ignore_ascii_case("rare prime") {
            tags.insert(Tag::Prime);
        }
        if rarity == "LEGEND" {
            tags.insert(Tag::Legend);
        }
    }
    let mut printing = Printing {
        set_code: set.set_code.clone(),
        set_id: set.set_id.clone(),
        number: number_key(local_id),
        release_date: set.release_date.clone(),
        series: set.series.clone(),
        category,
        stage,
        evolves_from: english(card, "evolveFrom").map(str::to_string),
        types: card
            .get("types")
            .map(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        trainer: (category == Category::Trainer)
            .then(|| {
                card.get("trainerType")
                    .and_then(Value::as_str)
                    .and_then(trainer_kind)
            })
            .flatten(),
        energy: (category == Category::Energy)
            .then(|| energy_kind(card, &english_name, &rules_text)),
        ace_spec: rarity == "ACE SPEC Rare",
        radiant: rarity == "Radiant Rare" || english_name.starts_with("Radiant "),
        prism_star: is_prism_star(&english_name),
        pokemon_star: is_pokemon && is_pokemon_star(&english_name),
        regulation_mark: card
            .get("regulationMark")
            .and_then(Value::as_str)
            .and_then(regulation_mark),
        tags,
        effect: None,
        any_number: false,
        slot: crate::cards::model::DbSlot::default(),
        names,
    };
    printing.set_rules_text(&rules_text);
    Ok(printing)
}

/// Names in our six languages; a regional variant (`es-mx`) fills a gap, and where it
/// names the card otherwise than its language (`Determinación de Lillie`, Spanish
/// `Determinación de Lylia`) is kept as the regional name, which players there write.
fn names(card: &Value) -> Names {
    let mut names = Names::default();
    let field = card.get("name");
    for (lang, name) in details::texts(field).iter() {
        names.set(lang, name);
    }
    for (code, value) in field.map(Value::fields).unwrap_or(&[]) {
        if let (Some(region), Some(name)) = (Region::from_code(code), value.as_str()) {
            names.set_regional(region, clean_text(name));
        }
    }
    names
}

/// TCGdex stage values (`Stage1`, `RESTORED`, `V-UNION`, `LEVEL-UP`, `MEGA`, ...),
/// compared without case, spaces or dashes.
fn stage(raw: &str) -> Option<Stage> {
    let key: String = raw
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    Some(match key.as_str() {
        "BASIC" => Stage::Basic,
        "BABY" => Stage::Baby,
        "STAGE1" => Stage::Stage1,
        "STAGE2" => Stage::Stage2,
        "RESTORED" => Stage::Restored,
        "VUNION" => Stage::VUnion,
        "LEVELUP" | "LVX" => Stage::LevelUp,
        "BREAK" => Stage::Break,
        "VMAX" => Stage::Vmax,
        "VSTAR" => Stage::Vstar,
        "MEGA" => Stage::Mega,
        _ => return None,
    })
}

fn trainer_kind(raw: &str) -> Option<TrainerKind> {
    let key = raw.trim().replace('’', "'").to_ascii_lowercase();
    Some(match key.as_str() {
        "item" => TrainerKind::Item,
        "supporter" => TrainerKind::Supporter,
        "stadium" => TrainerKind::Stadium,
        "tool" | "pokémon tool" | "pokemon tool" => TrainerKind::Tool,
        "technical machine" => TrainerKind::TechnicalMachine,
        "rocket's secret machine" => TrainerKind::RocketsSecretMachine,
        _ => return None,
    })
}

/// `energyType` when given; about 35 older cards lack it, and then a card named after a
/// type with no rules text is Basic (Aquapolis' Darkness Energy has text: Special).
fn energy_kind(card: &Value, english_name: &str, rules_text: &str) -> EnergyKind {
    match card.get("energyType").and_then(Value::as_str) {
        Some("Normal" | "Basic") => EnergyKind::Basic,
        Some(_) => EnergyKind::Special,
        None => {
            let type_name = english_name
                .trim_start_matches("Basic ")
                .trim_end_matches(" Energy");
            let is_type = matches!(
                type_name,
                "Grass"
                    | "Fire"
                    | "Water"
                    | "Lightning"
                    | "Psychic"
                    | "Fighting"
                    | "Darkness"
                    | "Metal"
                    | "Fairy"
            );
            if is_type && rules_text.is_empty() {
                EnergyKind::Basic
            } else {
                EnergyKind::Special
            }
        }
    }
}

/// `"H"`, `"j"` → `H`, `J`; `"None"` and anything longer than one letter → none.
fn regulation_mark(raw: &str) -> Option<char> {
    let mut chars = raw.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
        _ => None,
    }
}

/// Prism Star cards are named `Xerneas ◇` (some sources spell out `Prism Star`).
pub(crate) fn is_prism_star(name: &str) -> bool {
    name.contains('◇') || name.contains("Prism Star")
}

/// Pokémon Star cards are named `Mudkip ☆`, `Espeon ★` or `Groudon Star`: a star or the
/// word `Star` after the Pokémon's name (only asked for Pokémon: `Shining Star` is not one).
pub(crate) fn is_pokemon_star(name: &str) -> bool {
    name.split_whitespace()
        .skip(1)
        .any(|word| matches!(word, "☆" | "★" | "Star"))
}

/// English effect, abilities, attacks and (for Pokémon) the printed stats, one per line:
/// `[Ability] name: effect`, `[CC] name 30+: effect` (the attack's cost as
/// [`energy_symbol`]s, then its damage), then `HP 60 · weakness Fire ×2 · retreat 2`. The
/// reprint rule compares these lines, so both loaders write them alike ([`attack_line`],
/// [`stats_line`]).
fn rules_text(card: &Value) -> String {
    let mut lines = Vec::new();
    if let Some(effect) = english(card, "effect") {
        lines.push(effect.to_string());
    }
    for item in card.get("abilities").map(Value::as_array).unwrap_or(&[]) {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let text = name_effect(english(item, "name"), english(item, "effect"));
        lines.push(format!("[{}] {text}", kind.trim()));
    }
    for item in card.get("attacks").map(Value::as_array).unwrap_or(&[]) {
        let cost: Vec<&str> = item
            .get("cost")
            .map(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let damage = item.get("damage").map(scalar).unwrap_or_default();
        let name = english(item, "name").unwrap_or("");
        lines.push(attack_line(&cost, name, &damage, english(item, "effect")));
    }
    // 45 Trainer and Energy cards (33 and 12, most of them HeartGold & SoulSilver's) carry
    // `hp: 0`: no card prints an HP of 0, and a stats line would set them apart from
    // their reprints.
    if card.get("hp").is_some_and(|hp| scalar(hp) != "0") {
        lines.push(stats(card));
    }
    lines.retain(|line| !line.is_empty());
    lines.join("\n")
}

/// HP, weakness, resistance and retreat of a TCGdex Pokémon record.
fn stats(card: &Value) -> String {
    let modifiers = |key: &str| -> Vec<(String, String)> {
        card.get(key)
            .map(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .map(|item| {
                let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
                let value = item.get("value").map(scalar).unwrap_or_default();
                (kind.to_string(), value)
            })
            .collect()
    };
    let hp = card.get("hp").map(scalar).unwrap_or_default();
    // Like pokemon-tcg-data, TCGdex leaves a free retreat out (Jungle's Butterfree).
    let retreat = card.get("retreat").map_or_else(|| "0".to_string(), scalar);
    stats_line(
        &hp,
        &modifiers("weaknesses"),
        &modifiers("resistances"),
        Some(&retreat),
    )
}

/// A number or string value as text (`40`, `"30+"`).
fn scalar(value: &Value) -> String {
    match value {
        Value::Number(n) => format!("{n}"),
        Value::Str(s) => s.trim().to_string(),
        _ => String::new(),
    }
}

fn name_effect(name: Option<&str>, effect: Option<&str>) -> String {
    match (name, effect) {
        (Some(name), Some(effect)) => format!("{name}: {effect}"),
        (Some(text), None) | (None, Some(text)) => text.to_string(),
        (None, None) => String::new(),
    }
}

/// The one-letter symbol of an Energy type in an attack cost (`Fire` → `R`, as the card
/// game writes it); `Free` costs nothing; an unknown word is kept in braces.
pub fn energy_symbol(kind: &str) -> String {
    let symbol = match kind.trim() {
        "Grass" => "G",
        "Fire" => "R",
        "Water" => "W",
        "Lightning" => "L",
        "Psychic" => "P",
        "Fighting" => "F",
        "Darkness" => "D",
        "Metal" => "M",
        "Fairy" => "Y",
        "Dragon" => "N",
        "Colorless" => "C",
        "Free" | "" => "",
        other => return format!("{{{other}}}"),
    };
    symbol.to_string()
}

/// One attack as a rules-text line: `[CC] Bite 40: effect` (no damage, no effect: left out).
pub(crate) fn attack_line(cost: &[&str], name: &str, damage: &str, effect: Option<&str>) -> String {
    let cost: String = cost.iter().map(|kind| energy_symbol(kind)).collect();
    let mut line = format!("[{cost}] {}", name.trim());
    let damage = damage.trim();
    if !damage.is_empty() && damage != "0" {
        line.push(' ');
        line.push_str(damage);
    }
    if let Some(effect) = effect.map(str::trim).filter(|e| !e.is_empty()) {
        line.push_str(": ");
        line.push_str(effect);
    }
    line
}

/// A Pokémon's printed numbers as one line: `HP 60 · weakness Fire ×2 · resistance Water -30
/// · retreat 2`. Modifiers are `(type, value)`; a part the source does not give is left out.
pub(crate) fn stats_line(
    hp: &str,
    weaknesses: &[(String, String)],
    resistances: &[(String, String)],
    retreat: Option<&str>,
) -> String {
    let mut parts = vec![format!("HP {}", hp.trim())];
    for (label, modifiers) in [("weakness", weaknesses), ("resistance", resistances)] {
        for (kind, value) in modifiers {
            parts.push(format!("{label} {} {}", kind.trim(), value.trim()));
        }
    }
    if let Some(retreat) = retreat {
        parts.push(format!("retreat {}", retreat.trim()));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::literal::parse_module;
    use super::*;

    fn info() -> SetInfo {
        SetInfo {
            set_id: "sv06".into(),
            set_code: "TWM".into(),
            release_date: "2024-05-24".into(),
            series: "sv".into(),
        }
    }

    #[test]
    fn maps_a_pokemon() {
        let card = parse_module(
            r#"const card: Card = { set: Set, name: { en: "Radiant Eevee", fr: "Évoli Radieux", "es-mx": "Eevee R", pt: "Eevee Radiante" },
            category: "Pokemon", stage: "Basic", types: ["Colorless"], regulationMark: "f",
            abilities: [{ type: "Ability", name: { en: "Shine" }, effect: { en: "Do it." } }],
            attacks: [{ name: { en: "Tackle" }, damage: 10 }] }"#,
        )
        .unwrap();
        let printing = card_printing(&card, &info(), "007").unwrap();
        assert_eq!(printing.number, "7");
        assert_eq!(printing.names.get(Language::Fr), Some("Évoli Radieux"));
        assert_eq!(printing.names.get(Language::Es), Some("Eevee R"));
        assert_eq!(printing.stage, Some(Stage::Basic));
        assert_eq!(printing.regulation_mark, Some('F'));
        assert!(printing.radiant);
        let text = "[Ability] Shine: Do it.\n[] Tackle 10";
        let key = crate::cards::model::effect::text_key("Radiant Eevee", Category::Pokemon, text);
        assert_eq!(
            printing.effect,
            Some(crate::cards::model::effect::fingerprint(&key))
        );
        assert_eq!(rules_text(&card), text);
    }

    #[test]
    fn maps_trainers_and_energy() {
        let card = parse_module(
            r#"const c = { name: { en: "Prime Catcher" }, category: "Trainer", trainerType: "Item", rarity: "ACE SPEC Rare", regulationMark: "None", effect: { en: "Switch." } }"#,
        )
        .unwrap();
        let printing = card_printing(&card, &info(), "157").unwrap();
        assert_eq!(printing.trainer, Some(TrainerKind::Item));
        assert!(printing.ace_spec);
        assert_eq!(printing.regulation_mark, None);
        let energy =
            parse_module(r#"const c = { name: { en: "Water Energy" }, category: "Energy" }"#)
                .unwrap();
        assert_eq!(
            card_printing(&energy, &info(), "1").unwrap().energy,
            Some(EnergyKind::Basic)
        );
        let bad = parse_module(r#"const c = { name: { en: "X" }, category: "Thing" }"#).unwrap();
        assert!(card_printing(&bad, &info(), "1").is_err());
    }

    #[test]
    fn set_codes() {
        let set = |text: &str| parse_module(text).unwrap();
        assert_eq!(
            set_code(
                "swsh9tg",
                &set(r#"const s = { abbreviations: { official: "BRS:TG" } }"#)
            ),
            "BRS"
        );
        assert_eq!(
            set_code("dpp", &set(r#"const s = { tcgOnline: "PR-DPP" }"#)),
            "PR-DPP"
        );
        assert_eq!(set_code("swshp", &set("const s = {}")), "SWSHP");
        assert_eq!(set_code("wp", &set("const s = {}")), "");
    }

    #[test]
    fn percent_escapes_in_file_names() {
        assert_eq!(percent_decode("%3F"), "?");
        assert_eq!(percent_decode("A"), "A");
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%zz1"), "%zz1");
    }

    #[test]
    fn star_names() {
        assert!(is_pokemon_star("Mudkip ☆"));
        assert!(is_pokemon_star("Charizard ☆ δ"));
        assert!(is_pokemon_star("Groudon Star"));
        assert!(!is_pokemon_star("Staryu"));
        assert!(is_prism_star("Lusamine ◇"));
        assert!(!is_prism_star("Lusamine"));
    }
}
