//! Curated card facts: the hand-checked files under `cards/*.toml` that repair what the
//! datasets leave out.
//!
//! TCGdex does not mark the Black & White-era ACE SPECs at all and misses a Radiant rarity;
//! pokemon-tcg-data lacks recent sets. These files list every ACE SPEC, Radiant, Prism Star
//! and Pokémon Star printing with its facts, each checked by hand against both datasets.
//! The card-index generator and every `--cards` load apply their flags by set code and
//! number ([`crate::cards::storage::checkout_cache::apply_curated`]). [`load`] parses the
//! files (strict schema, unknown keys are errors) and converts each entry into a
//! [`Printing`]. This module must not read the disk, know about deck lists or decide rules:
//! the facts are in the TOML files and nowhere else.

use std::ops::Range;
use std::path::PathBuf;

use serde::Deserialize;

use super::CardDbError;
use crate::cards::model::{
    Category, EnergyKind, Names, Printing, Stage, Tags, TrainerKind, number_key, set_key,
};
use crate::deck::source::SourceText;
use crate::names::lang::Language;

/// Every pool file, by the path it is reported under and its text.
const FILES: &[(&str, &str)] = &[
    (
        "cards/ace-spec.toml",
        include_str!("../../../cards/ace-spec.toml"),
    ),
    (
        "cards/radiant.toml",
        include_str!("../../../cards/radiant.toml"),
    ),
    (
        "cards/prism-star.toml",
        include_str!("../../../cards/prism-star.toml"),
    ),
    (
        "cards/pokemon-star.toml",
        include_str!("../../../cards/pokemon-star.toml"),
    ),
];

/// One pool file: a list of `[[card]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolFile {
    #[serde(default)]
    card: Vec<toml::Spanned<Entry>>,
}

/// One `[[card]]` table: one printing, as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    set: String,
    number: String,
    set_id: Option<String>,
    #[serde(default)]
    released: String,
    #[serde(default)]
    series: String,
    category: Category,
    stage: Option<Stage>,
    #[serde(default)]
    types: Vec<String>,
    evolves_from: Option<String>,
    trainer: Option<TrainerKind>,
    energy: Option<EnergyKind>,
    #[serde(default)]
    ace_spec: bool,
    #[serde(default)]
    radiant: bool,
    #[serde(default)]
    prism_star: bool,
    #[serde(default)]
    pokemon_star: bool,
    regulation_mark: Option<String>,
    names: NameTable,
}

/// `names = { en = "...", fr = "..." }`: the languages deckbox knows, no others.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NameTable {
    en: Option<String>,
    fr: Option<String>,
    es: Option<String>,
    pt: Option<String>,
    de: Option<String>,
    it: Option<String>,
}

/// Parses every pool file into printings, in file order.
///
/// Errors name the file and, when known, the line and column of the offending table.
pub fn load() -> Result<Vec<Printing>, CardDbError> {
    let mut printings = Vec::with_capacity(256);
    for &(path, text) in FILES {
        load_file(path, text, &mut printings)?;
    }
    Ok(printings)
}

fn load_file(path: &str, text: &str, out: &mut Vec<Printing>) -> Result<(), CardDbError> {
    let file: PoolFile = toml::from_str(text).map_err(|err| {
        let message = err.message().trim_end().to_string();
        invalid(path, text, err.span(), message)
    })?;
    for spanned in file.card {
        let span = spanned.span();
        let entry = spanned.into_inner();
        let printing =
            convert(entry).map_err(|message| invalid(path, text, Some(span), message))?;
        out.push(printing);
    }
    Ok(())
}

/// A [`CardDbError::Invalid`] for `path`, located at the start of `span` when there is one.
fn invalid(path: &str, text: &str, span: Option<Range<usize>>, message: String) -> CardDbError {
    let message = match span {
        Some(span) => {
            let (line, column) = SourceText::new(text).line_column(span.start);
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    };
    CardDbError::Invalid {
        path: PathBuf::from(path),
        message,
    }
}

/// Checks that an entry's facts fit its category and builds the [`Printing`].
fn convert(entry: Entry) -> Result<Printing, String> {
    let label = format!("{} {}", entry.set, entry.number);
    check_shape(&entry).map_err(|problem| format!("{label}: {problem}"))?;
    let regulation_mark = match entry.regulation_mark.as_deref() {
        None => None,
        Some(mark) => Some(regulation_mark(mark).map_err(|problem| format!("{label}: {problem}"))?),
    };
    let set_code = set_key(&entry.set);
    Ok(Printing {
        set_id: entry.set_id.unwrap_or_else(|| set_code.clone()),
        set_code,
        number: number_key(&entry.number),
        release_date: entry.released,
        series: entry.series,
        names: names(entry.names),
        category: entry.category,
        stage: entry.stage,
        evolves_from: entry.evolves_from,
        types: entry.types,
        trainer: entry.trainer,
        energy: entry.energy,
        ace_spec: entry.ace_spec,
        radiant: entry.radiant,
        prism_star: entry.prism_star,
        pokemon_star: entry.pokemon_star,
        regulation_mark,
        tags: Tags::default(),
        effect: None,
        any_number: false,
        slot: crate::cards::model::DbSlot::default(),
    })
}

/// The fields a category requires or forbids: a Pokémon has a stage and no trainer or
/// energy kind, a Trainer has a trainer kind, an Energy has an energy kind.
fn check_shape(entry: &Entry) -> Result<(), String> {
    if entry.set.trim().is_empty() || entry.number.trim().is_empty() {
        return Err("`set` and `number` must not be empty".to_string());
    }
    let (pokemon, trainer, energy) = (
        entry.category == Category::Pokemon,
        entry.category == Category::Trainer,
        entry.category == Category::Energy,
    );
    let fields = [
        ("stage", entry.stage.is_some(), pokemon),
        ("trainer", entry.trainer.is_some(), trainer),
        ("energy", entry.energy.is_some(), energy),
    ];
    for (field, present, expected) in fields {
        if present != expected {
            let verb = if expected { "needs" } else { "must not have" };
            return Err(format!(
                "a {} card {verb} `{field}`",
                entry.category.as_str()
            ));
        }
    }
    if entry.evolves_from.is_some() && !pokemon {
        return Err("only a Pokémon may have `evolves_from`".to_string());
    }
    if names_empty(&entry.names) {
        return Err("`names` needs at least one language".to_string());
    }
    Ok(())
}

fn names_empty(table: &NameTable) -> bool {
    [
        &table.en, &table.fr, &table.es, &table.pt, &table.de, &table.it,
    ]
    .iter()
    .all(|name| name.as_deref().is_none_or(|name| name.trim().is_empty()))
}

/// A regulation mark is one upper-case letter (`"H"`).
fn regulation_mark(mark: &str) -> Result<char, String> {
    let mut chars = mark.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) if letter.is_ascii_uppercase() => Ok(letter),
        _ => Err(format!(
            "regulation_mark {mark:?} is not a single upper-case letter"
        )),
    }
}

fn names(table: NameTable) -> Names {
    let mut names = Names::default();
    let pairs = [
        (Language::En, table.en),
        (Language::Fr, table.fr),
        (Language::Es, table.es),
        (Language::Pt, table.pt),
        (Language::De, table.de),
        (Language::It, table.it),
    ];
    for (lang, name) in pairs {
        if let Some(name) = name {
            names.set(lang, name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn pool() -> Vec<Printing> {
        load().unwrap()
    }

    #[test]
    fn loads_every_file() {
        let mut counts = Vec::new();
        for &(path, text) in FILES {
            let mut out = Vec::new();
            load_file(path, text, &mut out).unwrap();
            assert!(!out.is_empty(), "{path} holds no card");
            counts.push((path, out.len()));
        }
        let total: usize = counts.iter().map(|(_, n)| n).sum();
        assert_eq!(pool().len(), total);
    }

    #[test]
    fn no_printing_twice() {
        let mut seen = HashSet::new();
        let dupes: Vec<String> = pool()
            .iter()
            .filter(|p| !seen.insert((p.set_code.clone(), p.number.clone())))
            .map(Printing::printing_label)
            .collect();
        assert!(dupes.is_empty(), "listed twice: {dupes:?}");
    }

    #[test]
    fn flags_fit_the_cards() {
        for p in pool() {
            let label = p.printing_label();
            let en = p.names.get(Language::En).unwrap_or("");
            assert!(!en.is_empty(), "{label} has no English name");
            let flags = [p.ace_spec, p.radiant, p.prism_star, p.pokemon_star];
            assert!(flags.iter().filter(|&&f| f).count() <= 1, "{label}");
            if p.ace_spec {
                assert_ne!(p.category, Category::Pokemon, "{label}");
            }
            if p.radiant {
                assert!(
                    en.starts_with("Radiant ") && p.is_basic_pokemon(),
                    "{label}"
                );
            }
            if p.prism_star {
                assert!(en.ends_with(" ◇"), "{label}");
            }
            if p.pokemon_star {
                let star = en.contains('☆') || en.contains('★') || en.contains(" Star");
                assert!(star && p.is_basic_pokemon(), "{label}");
            }
            if en.ends_with(" ◇") {
                assert!(p.prism_star, "{label} looks like a Prism Star");
            }
        }
    }

    #[test]
    fn pokemon_facts_are_complete() {
        for p in pool().iter().filter(|p| p.category == Category::Pokemon) {
            let label = p.printing_label();
            assert!(!p.types.is_empty(), "{label} has no type");
            let evolves = matches!(p.stage, Some(Stage::Stage1 | Stage::Stage2));
            assert_eq!(evolves, p.evolves_from.is_some(), "{label}");
        }
    }

    #[test]
    fn entries_are_sorted_by_release_then_number() {
        for &(path, text) in FILES {
            let mut out = Vec::new();
            load_file(path, text, &mut out).unwrap();
            let keys: Vec<(String, String, u32)> = out
                .iter()
                .map(|p| {
                    let digits: String = p.number.chars().filter(char::is_ascii_digit).collect();
                    (
                        p.release_date.clone(),
                        p.set_code.clone(),
                        digits.parse().unwrap_or(0),
                    )
                })
                .collect();
            for pair in keys.windows(2) {
                assert!(
                    pair[0] <= pair[1],
                    "{path}: {:?} before {:?}",
                    pair[0],
                    pair[1]
                );
            }
        }
    }

    #[test]
    fn strict_schema_errors_name_file_and_line() {
        let text = "[[card]]\nset = \"TEF\"\nnumber = \"1\"\ncategory = \"trainer\"\ntrainer = \"item\"\ncolour = \"red\"\nnames = { en = \"X\" }\n";
        let err = load_file("cards/test.toml", text, &mut Vec::new()).unwrap_err();
        let shown = err.to_string();
        assert!(shown.starts_with("cards/test.toml: line "), "{shown}");
        assert!(shown.contains("colour"), "{shown}");
    }

    #[test]
    fn shape_errors_name_the_card() {
        let text = "[[card]]\nset = \"TEF\"\nnumber = \"1\"\ncategory = \"trainer\"\nnames = { en = \"X\" }\n";
        let err = load_file("cards/test.toml", text, &mut Vec::new()).unwrap_err();
        let shown = err.to_string();
        assert!(
            shown.contains("line 1") && shown.contains("TEF 1"),
            "{shown}"
        );
        assert!(shown.contains("needs `trainer`"), "{shown}");
    }

    #[test]
    fn unknown_language_is_rejected() {
        let text = "[[card]]\nset = \"TEF\"\nnumber = \"1\"\ncategory = \"trainer\"\ntrainer = \"item\"\nnames = { en = \"X\", ja = \"Y\" }\n";
        assert!(load_file("cards/test.toml", text, &mut Vec::new()).is_err());
    }
}
