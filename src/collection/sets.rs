//! Every way a collection app names a set, read as deckbox's sets (TCGdex set ids).
//!
//! A set cell may hold:
//! - a printed code (`TWM`, `SIT`), as deck lists write it;
//! - TCGplayer's code (`SV1`, `SV07`, `SWSH08`, `SM01`, `SWSH12: TG`, `CRZ:GG`): the
//!   series letters and set number of a TCGdex id, zeros and punctuation aside;
//! - a set's name in any of the six languages (`Obsidian Flames`, `Flammes Obsidiennes`,
//!   `151`), from `cards/set-names.tsv` (generated from TCGdex with the card index), as
//!   [`crate::names::sets`] reads it;
//! - a TCGplayer group name (`SV06: Twilight Masquerade`, `SM - Team Up`): its code prefix
//!   or the name after it;
//! - a name in `set-aliases.tsv`, curated with sources, for the groups whose names are
//!   TCGplayer's own (`SVE: Scarlet & Violet Energies`, `Prize Pack Series Cards`).
//!
//! A cell none of these read is [`SetReading::Unknown`]: the row is then read by name and
//! number alone, and says so.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::cards::CardDb;
use crate::names::sets;

/// TCGplayer's own group names, curated.
const SET_ALIASES: &str = include_str!("set-aliases.tsv");

/// What a set cell names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetReading {
    /// These sets (TCGdex ids); the row's number narrows.
    Ids(Vec<String>),
    /// A group of reprints from many sets (`Prize Pack Series Cards`): any set.
    Any,
    /// Nothing deckbox knows.
    Unknown,
}

/// A code as compared: lower case, letters and digits only, leading zeros of a number
/// dropped (`SWSH08` → `swsh8`, `SWSH12: TG` → `swsh12tg`, `SV1` → `sv1`).
fn code_key(code: &str) -> String {
    let mut out = String::new();
    let mut previous_digit = false;
    let chars: Vec<char> = code
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    for (at, c) in chars.iter().enumerate() {
        let next_digit = chars.get(at + 1).is_some_and(char::is_ascii_digit);
        if *c == '0' && !previous_digit && next_digit {
            continue;
        }
        previous_digit = c.is_ascii_digit();
        out.push(*c);
    }
    out
}

/// The tables, built once: set names and aliases by [`sets::key`].
fn names() -> &'static HashMap<String, Vec<String>> {
    static NAMES: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        let aliases = (SET_ALIASES.lines())
            .filter_map(|line| line.split_once('\t'))
            .map(|(name, id)| (id, name));
        for (id, name) in sets::rows().chain(aliases) {
            if name.starts_with('#') {
                continue;
            }
            let ids = map.entry(sets::key(name)).or_default();
            if !ids.iter().any(|have| have == id) {
                ids.push(id.to_string());
            }
        }
        map
    })
}

/// Every set a database knows, (id, printed code): built once per collection file.
pub struct Known(Vec<(String, String)>);

impl Known {
    pub fn of(db: &CardDb) -> Known {
        let columns = db.columns();
        let pool = columns.names();
        let mut seen = std::collections::HashSet::new();
        let mut sets: Vec<(String, String)> = Vec::new();
        for edition in columns.editions().iter() {
            let id = pool.get(edition.set_id);
            if seen.insert(id) {
                sets.push((id.to_string(), pool.get(edition.set_code).to_string()));
            }
        }
        Known(sets)
    }
}

/// The sets a cell names, in `db`.
pub fn read(db: &CardDb, cell: &str) -> SetReading {
    read_known(&Known::of(db), cell)
}

/// [`read`] with the database's sets listed once.
pub fn read_known(known: &Known, cell: &str) -> SetReading {
    let cell = cell.trim();
    if cell.is_empty() {
        return SetReading::Unknown;
    }
    let sets = &known.0;
    let by_code = |code: &str| -> Vec<String> {
        let upper = code.trim().to_uppercase();
        let key = code_key(code);
        let mut ids: Vec<String> = sets
            .iter()
            .filter(|(_, have)| !have.is_empty() && have.to_uppercase() == upper)
            .map(|(id, _)| id.clone())
            .collect();
        if ids.is_empty() && !key.is_empty() {
            ids = sets
                .iter()
                .filter(|(id, _)| code_key(id) == key)
                .map(|(id, _)| id.clone())
                .collect();
        }
        if ids.is_empty() {
            // `CRZ:GG`, `HIF:SV`: a printed code and a subset mark; the number tells the subset.
            if let Some((code, mark)) = code.split_once(':')
                && matches!(
                    mark.trim().to_ascii_uppercase().as_str(),
                    "TG" | "GG" | "SV"
                )
            {
                let upper = code.trim().to_uppercase();
                ids = sets
                    .iter()
                    .filter(|(_, have)| !have.is_empty() && have.to_uppercase() == upper)
                    .map(|(id, _)| id.clone())
                    .collect();
            }
        }
        ids
    };
    let by_name = |name: &str| -> Option<SetReading> {
        let ids = names().get(&sets::key(name))?;
        if ids.iter().any(|id| id == "*") {
            return Some(SetReading::Any);
        }
        let known: Vec<String> = ids
            .iter()
            .filter(|id| sets.iter().any(|(have, _)| have == *id))
            .cloned()
            .collect();
        (!known.is_empty()).then_some(SetReading::Ids(known))
    };
    if let Some(reading) = by_name(cell) {
        return reading;
    }
    let ids = by_code(cell);
    if !ids.is_empty() {
        return SetReading::Ids(ids);
    }
    // A group name: `SV06: Twilight Masquerade`, `SWSH12: Silver Tempest Trainer Gallery`,
    // `SM - Team Up`, `XY - Evolutions`, `SV: Scarlet & Violet 151`.
    let split = cell
        .split_once(": ")
        .or_else(|| cell.split_once(" - "))
        .or_else(|| cell.split_once(':'));
    if let Some((prefix, rest)) = split {
        if let Some(reading) = by_name(rest) {
            return reading;
        }
        let ids = by_code(prefix);
        if !ids.is_empty() && prefix.bytes().any(|b| b.is_ascii_digit()) {
            return SetReading::Ids(ids);
        }
    }
    SetReading::Unknown
}

#[cfg(test)]
mod tests {
    use super::{SetReading, code_key, read};

    #[test]
    fn codes_and_names_compare_without_zeros_case_or_punctuation() {
        assert_eq!(code_key("SWSH08"), "swsh8");
        assert_eq!(code_key("SWSH12: TG"), "swsh12tg");
        assert_eq!(code_key("SV07"), "sv7");
        assert_eq!(code_key("sv07"), "sv7");
        assert_eq!(code_key("SV10"), "sv10");
        assert_eq!(code_key("SM01"), "sm1");
    }

    #[test]
    fn every_way_an_app_names_a_set() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let ids = |cell: &str| match read(&db, cell) {
            SetReading::Ids(ids) => ids.join(","),
            SetReading::Any => "*".to_string(),
            SetReading::Unknown => "?".to_string(),
        };
        for (cell, expected) in [
            ("TWM", "sv06"),
            ("SV1", "sv01"),
            ("SV07", "sv07"),
            ("SWSH08", "swsh8"),
            ("SM01", "sm1"),
            ("SWSH12: TG", "swsh12tg"),
            ("SV01: Scarlet & Violet Base Set", "sv01"),
            ("SV06: Twilight Masquerade", "sv06"),
            ("SWSH08: Fusion Strike", "swsh8"),
            ("SWSH12: Silver Tempest Trainer Gallery", "swsh12tg"),
            ("SV: Scarlet & Violet 151", "sv03.5"),
            ("151", "sv03.5"),
            ("Obsidian Flames", "sv03"),
            ("Flammes Obsidiennes", "sv03"),
            ("Obsidian Flammen", "sv03"),
            ("Llamas Obsidianas", "sv03"),
            ("SM - Team Up", "sm9"),
            ("SVE: Scarlet & Violet Energies", "sve"),
            ("Scarlet & Violet Promo", "svp"),
            ("Mega Evolution Promos", "mep"),
            ("Prize Pack Series Cards", "*"),
            ("Nowhere Land", "?"),
        ] {
            assert_eq!(ids(cell), expected, "{cell}");
        }
    }
}
