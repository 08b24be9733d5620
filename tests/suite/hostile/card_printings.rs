//! One name with thousands of printings (issue 52 item 2): `deckbox card` judged each
//! printing against every other on every boundary day, so 2,000 printings took 16 s. The
//! legality periods and the reprint rule's search now cost a bounded amount per printing
//! (see docs/performance.md); no assertion here is timed: the case asserts the whole
//! answer on a dataset where every printing takes part in the reprint rule's search.

use std::path::Path;

use super::run;

/// Sets in the dataset, and printings of the one name in each.
const SETS: usize = 40;
const PER_SET: usize = 50;

/// A TCGdex checkout of `SETS` sets a week apart, each holding `PER_SET` printings of
/// `Hostile Pikachu`. Odd numbers carry regulation mark H (in Standard on the tests'
/// date), even ones G (rotated): a G printing is legal there only as a reprint. Every
/// tenth printing (a G one) attacks for 30 instead of 20: no H printing shares its text.
fn many_printings(root: &Path) {
    let serie = root.join("data/SV");
    std::fs::create_dir_all(&serie).unwrap();
    std::fs::write(
        root.join("data/SV.ts"),
        "import { Serie } from '../interfaces'\nconst serie: Serie = { id: \"sv\", name: { en: \"Scarlet & Violet\" } }\nexport default serie\n",
    )
    .unwrap();
    let first = jiff::civil::date(2023, 1, 6);
    for set in 0..SETS {
        let name = format!("Set {set:02}");
        let released = first
            .checked_add(jiff::Span::new().weeks(i64::try_from(set).unwrap()))
            .unwrap();
        std::fs::write(
            serie.join(format!("{name}.ts")),
            format!(
                "import {{ Set }} from '../../interfaces'\nimport serie from '../SV'\nconst set: Set = {{ id: \"hx{set:02}\", name: {{ en: \"{name}\" }}, serie: serie,\n\treleaseDate: \"{released}\", abbreviations: {{ official: \"HX{set:02}\" }} }}\nexport default set\n"
            ),
        )
        .unwrap();
        let folder = serie.join(&name);
        std::fs::create_dir_all(&folder).unwrap();
        for number in 1..=PER_SET {
            let mark = if number % 2 == 0 { "G" } else { "H" };
            let damage = if number % 10 == 0 { 30 } else { 20 };
            let card = format!(
                "import {{ Card }} from \"../../../interfaces\"\nimport Set from \"../{name}\"\nconst card: Card = {{ set: Set, name: {{ en: \"Hostile Pikachu\" }}, category: \"Pokemon\", hp: 60, types: [\"Lightning\"], stage: \"Basic\",\n\tattacks: [{{ name: {{ en: \"Gnaw\" }}, cost: [\"Lightning\"], damage: {damage} }}], retreat: 1, regulationMark: \"{mark}\" }}\nexport default card\n"
            );
            std::fs::write(folder.join(format!("{number:03}.ts")), card).unwrap();
        }
    }
}

#[test]
fn a_name_with_two_thousand_printings_is_judged_whole() {
    let dir = tempfile::tempdir().unwrap();
    many_printings(&dir.path().join("cards"));
    let out = run(
        dir.path(),
        &[
            "card",
            "Hostile Pikachu",
            "--cards",
            "cards",
            "--output",
            "json",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let card = &report["cards"][0];
    let printings = card["printings"].as_array().unwrap();
    assert_eq!(printings.len(), SETS * PER_SET);
    let standard = (card["formats"].as_array().unwrap().iter())
        .find(|format| format["id"] == "standard")
        .unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for verdict in standard["printings"].as_array().unwrap() {
        let number: usize = verdict["number"].as_str().unwrap().parse().unwrap();
        let kind = verdict["verdict"].as_str().unwrap();
        *counts.entry(kind).or_insert(0) += 1;
        match (number % 2, number % 10) {
            (1, _) => assert_eq!(kind, "legal", "{verdict}"),
            (_, 0) => {
                assert_eq!(kind, "not-legal", "{verdict}");
                assert_eq!(verdict["differences"][0], "different effect text");
            }
            _ => {
                assert_eq!(kind, "legal-as-reprint", "{verdict}");
                // The newest legal printing of the same text: the last set's.
                assert_eq!(verdict["reprint_of"]["set"], format!("HX{:02}", SETS - 1));
            }
        }
    }
    assert_eq!(counts["legal"], SETS * PER_SET / 2, "{counts:?}");
    // Standard's history: G was in the pool in earlier seasons, so every printing has
    // been legal at some time.
    let history = (card["history"].as_array().unwrap().iter())
        .find(|entry| entry["format"] == "standard")
        .unwrap();
    let legal: usize = (history["printings"].as_array().unwrap().iter())
        .map(|entry| entry["printings"].as_array().unwrap().len())
        .sum();
    assert_eq!(legal, SETS * PER_SET);
}
