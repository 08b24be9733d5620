#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `deckbox card`: the real binary on the embedded card index, queries typed the way
//! players type them. Snapshots of exit code, stdout and stderr; JSON also parsed.

use crate::common;

use common::{run_deckbox, stdout_of};

/// Runs `deckbox card ARGS...` with no config file, in an empty directory.
fn card(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["card", "--no-config"];
    all.extend_from_slice(args);
    run_deckbox(dir.path(), &all, b"")
}

fn json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let mut all = args.to_vec();
    all.extend(["--output", "json"]);
    let (code, out) = card(&all);
    let value = serde_json::from_str(stdout_of(&out)).unwrap();
    (code, value, out)
}

#[test]
fn an_english_name() {
    let (code, out) = card(&["Iono"]);
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("english_name", out);
}

#[test]
fn an_english_name_typed_without_accent_or_capitals() {
    let (code, out) = card(&["pokemon", "catcher"]);
    assert_eq!(code, 0, "{out}");
    // The newest printing is legal; older ones with the same text by the reprint rule.
    assert!(out.contains("standard   legal: POR 82\n"), "{out}");
    insta::assert_snapshot!("english_name_folded", out);
}

#[test]
fn a_french_name() {
    let (code, out) = card(&["Fantyrm"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("exit: 0\n--- stdout\nDreepy ("), "{out}");
    insta::assert_snapshot!("french_name", out);
}

#[test]
fn a_set_code_and_number() {
    let (code, out) = card(&["TWM", "128"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("→ TWM 128"), "{out}");
    insta::assert_snapshot!("set_code_and_number", out);
    // One argument or two, a promo alias, the database id: the same card.
    let (_, quoted) = card(&["TWM 128"]);
    assert_eq!(quoted, out);
    let (_, id) = card(&["sv06-128"]);
    assert_eq!(id, out);
    let (code, promo) = card(&["PR-SV 12"]);
    assert_eq!(code, 0, "{promo}");
    assert!(promo.contains("→ SVP 12"), "{promo}");
}

#[test]
fn an_ace_spec() {
    let (code, out) = card(&["Prime Catcher"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("TEF 157   sv05    2024-03-22  H     ACE SPEC"),
        "{out}"
    );
    assert!(out.contains("standard   legal\n"), "{out}");
    // In the GLC pool, but GLC decks may hold no ACE SPEC card.
    assert!(
        out.contains("but its decks may not hold ACE SPEC cards"),
        "{out}"
    );
    insta::assert_snapshot!("ace_spec", out);
}

#[test]
fn banned_in_expanded() {
    let (code, out) = card(&["Lysandre's Trump Card"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("expanded   banned: since 2015-06-15"), "{out}");
    insta::assert_snapshot!("banned_in_expanded", out);
}

#[test]
fn a_black_and_white_card_is_not_in_standard() {
    let (code, out) = card(&["N"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("standard   not legal: it has no regulation mark"),
        "{out}"
    );
    insta::assert_snapshot!("bw_card_not_in_standard", out);
}

#[test]
fn a_name_several_cards_share() {
    // French `Rappel` is Revive in some sets and Scoop Up in others.
    let (code, out) = card(&["Rappel"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("'Rappel' names 2 cards."), "{out}");
    assert!(out.contains("\nRevive (Trainer: Item)\n"), "{out}");
    assert!(out.contains("\nScoop Up (Trainer)\n"), "{out}");
}

#[test]
fn an_unknown_name_gets_suggestions_and_exits_2() {
    let (code, out) = card(&["Boss Order"]);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("unknown_name", out);
    let (code, out) = card(&["TWM", "999"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("error: unknown card 'TWM 999'"), "{out}");
}

#[test]
fn unknown_in_json_lists_the_suggestions() {
    let (code, value, out) = json(&["Boss Order"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(value["matched_by"], serde_json::Value::Null);
    assert_eq!(value["cards"].as_array().unwrap().len(), 0);
    assert_eq!(value["suggestions"][0], "Boss's Orders");
}

#[test]
fn json_output() {
    let (code, value, out) = json(&["TWM", "128"]);
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("json", out);
    assert_eq!(value["version"], 1);
    assert_eq!(value["query"], "TWM 128");
    assert_eq!(value["matched_by"], "set-number");
    let cards = value["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 1);
    let dreepy = &cards[0];
    assert_eq!(dreepy["name"], "Dreepy");
    assert_eq!(dreepy["category"], "pokemon");
    assert_eq!(dreepy["stage"], "basic");
    let printings = dreepy["printings"].as_array().unwrap();
    let released: Vec<&str> = printings
        .iter()
        .map(|p| p["released"].as_str().unwrap())
        .collect();
    assert!(released.is_sorted(), "{released:?}");
    let twm: Vec<&serde_json::Value> = printings.iter().filter(|p| p["matched"] == true).collect();
    assert_eq!(twm.len(), 1);
    assert_eq!(twm[0]["set"], "TWM");
    assert_eq!(twm[0]["number"], "128");
    assert_eq!(twm[0]["set_id"], "sv06");
    assert_eq!(twm[0]["regulation_mark"], "H");
    assert_eq!(twm[0]["names"]["fr"], "Fantyrm");
    assert_eq!(twm[0]["names"]["de"], "Grolldra");
    let formats = dreepy["formats"].as_array().unwrap();
    let ids: Vec<&str> = formats.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["standard", "expanded", "unlimited", "glc", "gameboy"]);
    let standard = &formats[0];
    assert_eq!(standard["legal"], true);
    let verdicts = standard["printings"].as_array().unwrap();
    assert_eq!(verdicts.len(), printings.len());
    let of = |set: &str, number: &str| {
        verdicts
            .iter()
            .find(|v| v["set"] == set && v["number"] == number)
            .unwrap()
    };
    assert_eq!(of("TWM", "128")["verdict"], "legal");
    let old = of("RCL", "89");
    assert_eq!(old["verdict"], "not-legal");
    assert_eq!(old["reason"], "its regulation mark D is not one of H, I, J");
    assert_eq!(formats[4]["legal"], false);
}

#[test]
fn json_names_the_ban() {
    let (code, value, out) = json(&["Ghetsis"]);
    assert_eq!(code, 0, "{out}");
    let expanded = &value["cards"][0]["formats"][1];
    assert_eq!(expanded["id"], "expanded");
    assert_eq!(expanded["legal"], false);
    let verdict = &expanded["printings"][0];
    assert_eq!(verdict["verdict"], "banned");
    assert_eq!(verdict["ban"]["date"], "2018-08-17");
    assert!(
        verdict["ban"]["source"]
            .as_str()
            .unwrap()
            .contains("Celestial Storm"),
        "{verdict}"
    );
}

#[test]
fn text_fits_80_columns() {
    for query in [
        "Iono",
        "Boss's Orders",
        "Exeggutor",
        "Archeops",
        "Pokémon Catcher",
        "Rappel",
    ] {
        let (code, out) = card(&[query]);
        assert_eq!(code, 0, "{out}");
        for line in stdout_of(&out).lines() {
            assert!(line.chars().count() <= 80, "{query}: {line}");
        }
    }
}

#[test]
fn control_characters_in_the_query_are_escaped() {
    let (code, out) = card(&["Iono\u{1b}[2J"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("unknown card 'Iono\\u{1B}[2J'"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
}

#[test]
fn cards_flag_is_honoured() {
    let (code, out) = card(&["Iono", "--cards", "no-such-checkout"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no-such-checkout"), "{out}");
}

/// A name that is one card's English name and another's French name lists the English one
/// first: `Ultra Ball` is Ultra Ball, then Beast Ball (French `Ultra Ball`).
#[test]
fn the_card_named_in_english_comes_first() {
    let (code, value, out) = json(&["Ultra", "Ball"]);
    assert_eq!(code, 0, "{out}");
    let names: Vec<&str> = value["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| card["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ultra Ball", "Beast Ball"], "{out}");
}

/// Each printing's text: HP, attacks with cost and damage, illustrator, rarity.
#[test]
fn the_text_of_each_printing() {
    let (code, out) = card(&["Dreepy", "TWM", "128"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("→ TWM 128"), "{out}");
    let text = "Text of TWM 128, PRE 71, ASC 158, ASC 247\n  HP 70 · retreat 1\n  [P] Petty Grudge  10\n  [RP] Bite  40\n";
    assert!(out.contains(text), "{out}");
    assert!(out.contains("  Scav: TWM 128"), "{out}");
    assert!(out.contains("  Common: "), "{out}");
    // A Supporter's rules text, wrapped at 80 columns.
    let (code, out) = card(&["Iono"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Each player shuffles their hand and puts it on the bottom of their deck"),
        "{out}"
    );
}

/// `--lang fr`: attack names in French; English where the database has no French.
#[test]
fn the_text_in_french() {
    let (code, out) = card(&["Fantyrm", "--lang", "fr"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("  [P] Rancune Mesquine  10\n  [RP] Morsure  40\n"),
        "{out}"
    );
    let (code, value, out) = json(&["Fantyrm", "--lang", "fr"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(value["language"], "fr");
    let printings = value["cards"][0]["printings"].as_array().unwrap();
    let twm = printings.iter().find(|p| p["set"] == "TWM").unwrap();
    assert_eq!(twm["details"]["hp"], 70);
    assert_eq!(twm["details"]["attacks"][1]["name"], "Morsure");
    assert_eq!(
        twm["details"]["attacks"][1]["cost"],
        serde_json::json!(["Fire", "Psychic"])
    );
    assert_eq!(twm["details"]["attacks"][1]["damage"], "40");
    assert_eq!(twm["details"]["illustrator"], "Scav");
    let (code, out) = card(&["Fantyrm", "--lang", "xx"]);
    assert_eq!(code, 2, "{out}");
}

/// A Poké-Power of the Diamond & Pearl era and a Trainer's text in JSON.
#[test]
fn older_powers_and_trainer_text_in_json() {
    let (code, value, out) = json(&["Professor's Research"]);
    assert_eq!(code, 0, "{out}");
    let printing = &value["cards"][0]["printings"][0];
    assert!(
        printing["details"]["text"]
            .as_str()
            .unwrap()
            .contains("draw 7 cards"),
        "{out}"
    );
    assert!(printing["details"]["hp"].is_null());
    let (code, out) = card(&["SW", "7"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Poké-Power: "), "{out}");
}
