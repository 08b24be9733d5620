#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The set tables `need --have` reads collection exports with (src/collection/sets.rs):
//! every set deckbox knows is found by its printed code, its TCGdex id written the way
//! TCGplayer writes codes (`SWSH08`), and its name in each of its languages; every curated
//! alias names a set deckbox knows; and cards/set-names.tsv is what TCGdex's set files say.

use std::collections::BTreeSet;

use deckbox::collection::sets::{self, SetReading};

use crate::common;

const SET_NAMES: &str = "cards/set-names.tsv";
const SET_ALIASES: &str = "src/collection/set-aliases.tsv";

fn ids(reading: SetReading) -> Vec<String> {
    match reading {
        SetReading::Ids(ids) => ids,
        SetReading::Any => vec!["*".to_string()],
        SetReading::Unknown => Vec::new(),
    }
}

/// Every set of the embedded index: (TCGdex id, printed code).
fn known_sets(db: &deckbox::cards::CardDb) -> BTreeSet<(String, String)> {
    let columns = db.columns();
    let pool = columns.names();
    columns
        .editions()
        .iter()
        .map(|edition| {
            (
                pool.get(edition.set_id).to_string(),
                pool.get(edition.set_code).to_string(),
            )
        })
        .collect()
}

#[test]
fn every_set_deckbox_knows_is_read_by_code_by_tcgplayer_code_and_by_name() {
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let names = std::fs::read_to_string(common::repo().join(SET_NAMES)).unwrap();
    let mut checked = 0;
    let all = known_sets(&db);
    for (id, code) in all.clone() {
        if !code.is_empty() {
            assert!(
                ids(sets::read(&db, &code)).contains(&id),
                "{id}: code {code}"
            );
        }
        // TCGplayer's style: upper case (`SWSH8`, `SV06`), unless that is another set's
        // printed code (Generations' `G1` is Gym Heroes' code): a printed code wins.
        let upper = id.to_uppercase();
        if !all
            .iter()
            .any(|(other, code)| code == &upper && other != &id)
        {
            assert!(ids(sets::read(&db, &upper)).contains(&id), "{id}: {upper}");
        }
        for line in names.lines().filter(|line| !line.starts_with('#')) {
            let mut cells = line.split('\t');
            let (Some(set), Some(language), Some(name)) =
                (cells.next(), cells.next(), cells.next())
            else {
                panic!("{SET_NAMES}: malformed line {line}");
            };
            if set == id {
                let read = ids(sets::read(&db, name));
                assert!(
                    read.contains(&id),
                    "{id}: {language} name '{name}' read as {read:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 900, "{checked} set names checked");
    let aliases = std::fs::read_to_string(common::repo().join(SET_ALIASES)).unwrap();
    let known: BTreeSet<String> = known_sets(&db).into_iter().map(|(id, _)| id).collect();
    for line in aliases.lines().filter(|line| !line.starts_with('#')) {
        let (name, id) = line.split_once('\t').unwrap();
        assert!(
            id == "*" || known.contains(id),
            "{SET_ALIASES}: {name} names unknown set {id}"
        );
        let expected = if id == "*" { "*" } else { id };
        assert!(
            ids(sets::read(&db, name)).iter().any(|got| got == expected),
            "{name}"
        );
    }
}

/// set-names.tsv from TCGdex's set files: `id` and the six languages' `name`, Pokémon TCG
/// Pocket left out. `DECKBOX_WRITE_SET_NAMES=1` rewrites the file.
#[test]
fn set_names_are_tcgdexs() {
    let Some(data) = common::shared_data("set_names_are_tcgdexs") else {
        return;
    };
    let root = data.join("tcgdex-repo/data");
    let mut rows = BTreeSet::new();
    for serie in std::fs::read_dir(&root).unwrap() {
        let serie = serie.unwrap().path();
        if !serie.is_dir() || serie.ends_with("Pokémon TCG Pocket") {
            continue;
        }
        for set in std::fs::read_dir(&serie).unwrap() {
            let set = set.unwrap().path();
            if set.extension().is_none_or(|ext| ext != "ts") {
                continue;
            }
            let text = std::fs::read_to_string(&set).unwrap();
            let Some(id) = text
                .split("\n\tid: \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
            else {
                continue;
            };
            let Some(block) = text
                .split("\n\tname: {")
                .nth(1)
                .and_then(|rest| rest.split("\n\t}").next())
            else {
                continue;
            };
            for line in block.lines() {
                let Some((language, name)) = line.trim().split_once(": \"") else {
                    continue;
                };
                if ["en", "fr", "es", "pt", "de", "it"].contains(&language) {
                    let name = name.split('"').next().unwrap_or("");
                    rows.insert(format!("{id}\t{language}\t{name}"));
                }
            }
        }
    }
    let path = common::repo().join(SET_NAMES);
    let now = std::fs::read_to_string(&path).unwrap();
    let header: String = now
        .lines()
        .take_while(|line| line.starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect();
    let generated = header + &rows.into_iter().map(|row| row + "\n").collect::<String>();
    if std::env::var("DECKBOX_WRITE_SET_NAMES").as_deref() == Ok("1") {
        std::fs::write(&path, &generated).unwrap();
    }
    assert!(
        now == generated,
        "{SET_NAMES} differs from TCGdex's set files: DECKBOX_WRITE_SET_NAMES=1 rewrites it"
    );
}
