#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Format CLI tests: real tournament-style decks under `tests/fixtures/formats/` checked
//! against each built-in format (and a user format file) with a TCGdex checkout, snapshotting
//! exit code, stdout and stderr. The verdicts are also asserted by rule id, so accepting a
//! snapshot cannot silently accept a wrong verdict.

use crate::common;

use common::repo;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One cache for every test of this file, so the TCGdex index is built once.
fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("formats-cli-cache")
}

/// The TCGdex checkout, or `None` (the test is skipped) when the shared data is missing.
fn cards(test: &str) -> Option<PathBuf> {
    let cards = common::shared_data(test)?.join("tcgdex-repo");
    warm(&cards);
    Some(cards)
}

/// Builds the cached index once before the tests that use it run in parallel.
fn warm(cards: &Path) {
    static WARM: OnceLock<()> = OnceLock::new();
    WARM.get_or_init(|| {
        let dir = workspace(&["standard-valid.txt"]);
        let cards = cards.to_str().unwrap();
        let (code, out) = run_in(
            dir.path(),
            &["check", "standard-valid.txt", "--cards", cards],
        );
        assert!(code == 0 || code == 1, "{out}");
    });
}

/// Runs `deckbox` in `dir`; returns the exit code and the rendered run (temp paths redacted).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env("COLUMNS", "100")
        .env("DECKBOX_CACHE_DIR", cache_dir())
        .output()
        .unwrap();
    let code = output.status.code().unwrap_or(-1);
    let rendered = format!(
        "exit: {code}\n--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (code, redact(dir, &rendered))
}

fn redact(dir: &Path, text: &str) -> String {
    let mut text = text.to_string();
    if let Ok(real) = dir.canonicalize() {
        text = text.replace(&real.display().to_string(), "[DIR]");
    }
    text.replace(&dir.display().to_string(), "[DIR]")
        .replace(&repo().display().to_string(), "[REPO]")
}

/// A temporary directory holding copies of the named files of `tests/fixtures/formats/`.
fn workspace(files: &[&str]) -> tempfile::TempDir {
    let paths: Vec<String> = files
        .iter()
        .map(|file| format!("tests/fixtures/formats/{file}"))
        .collect();
    common::workspace(&paths.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The rule ids of the error findings of a deck, sorted, from `--output json`.
fn error_rules(dir: &Path, deck: &str, format: &str, cards: &Path) -> Vec<String> {
    let cards = cards.to_str().unwrap();
    let args = [
        "check", deck, "--format", format, "--cards", cards, "--output", "json",
    ];
    let (_, out) = run_in(dir, &args);
    let json = out
        .split_once("--- stdout\n")
        .and_then(|(_, rest)| rest.split_once("--- stderr\n"))
        .map(|(stdout, _)| stdout)
        .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|error| panic!("{error}: {out}"));
    let mut rules: Vec<String> = json["decks"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect();
    rules.sort();
    rules
}

/// `(deck, format, exit code, sorted error rule ids)`: what each fixture must produce.
const VERDICTS: &[(&str, &str, i32, &[&str])] = &[
    ("standard-valid.txt", "standard", 0, &[]),
    ("standard-rotated.txt", "standard", 1, &["not-legal"]),
    ("standard-reprint.txt", "standard", 0, &[]),
    ("expanded-valid.txt", "expanded", 0, &[]),
    ("expanded-banned.txt", "expanded", 1, &["banned"]),
    ("glc-valid.txt", "glc", 0, &[]),
    ("glc-two-copies.txt", "glc", 1, &["copy-limit"]),
    ("glc-two-types.txt", "glc", 1, &["single-type"]),
    ("glc-rule-box.txt", "glc", 1, &["rule-box"]),
    ("gameboy-valid.txt", "gameboy", 0, &[]),
    ("gameboy-neo.txt", "gameboy", 1, &["not-legal"]),
    ("league-40-valid.txt", "league-40.toml", 0, &[]),
    // A 60-card Standard deck in the 40-card league: the size, and every name over 2 copies
    // (Dreepy, Drakloak, Dragapult ex, Lillie's Determination, Buddy-Buddy Poffin,
    // Ultra Ball, Poké Pad, Rare Candy).
    (
        "standard-valid.txt",
        "league-40.toml",
        1,
        &[
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "copy-limit",
            "deck-size",
        ],
    ),
    // Standard decks are Expanded decks; a GLC deck is an Expanded deck.
    ("standard-valid.txt", "expanded", 0, &[]),
    ("glc-valid.txt", "expanded", 0, &[]),
];

#[test]
fn every_fixture_deck_with_its_format() {
    let Some(cards) = cards("formats_cli every_fixture_deck_with_its_format") else {
        return;
    };
    let cards_arg = cards.to_str().unwrap();
    let mut failures = Vec::new();
    for (deck, format, want_code, want_rules) in VERDICTS {
        let dir = workspace(&[deck, "league-40.toml"]);
        let args = [
            "check", deck, "--format", format, "--cards", cards_arg, "--output", "short",
        ];
        let (code, out) = run_in(dir.path(), &args);
        let rules = error_rules(dir.path(), deck, format, &cards);
        if code != *want_code || rules != *want_rules {
            failures.push(format!(
                "{deck} with {format}: want exit {want_code} {want_rules:?}, got exit {code} {rules:?}\n{out}"
            ));
        }
        let name = format!(
            "deck-{}-{}",
            deck.trim_end_matches(".txt"),
            format.trim_end_matches(".toml")
        );
        insta::assert_snapshot!(name, out);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rotated_card_in_human_output() {
    let Some(cards) = cards("formats_cli rotated_card_in_human_output") else {
        return;
    };
    let dir = workspace(&["standard-rotated.txt"]);
    let args = [
        "check",
        "standard-rotated.txt",
        "--format",
        "standard",
        "--cards",
        cards.to_str().unwrap(),
    ];
    let (code, out) = run_in(dir.path(), &args);
    insta::assert_snapshot!("human-standard-rotated", out);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Iono"), "{out}");
}

#[test]
fn broken_format_files_exit_two_with_the_offending_text() {
    let dir = workspace(&[
        "standard-valid.txt",
        "broken-format.toml",
        "broken-format-type.toml",
        "cycle-a.toml",
        "cycle-b.toml",
    ]);
    // (format file, text that must be in stderr: where, and what is underlined)
    let cases: &[(&str, &[&str])] = &[
        (
            "broken-format.toml",
            &[
                "broken-format.toml:7:1",
                "deck_sise = 40",
                "unknown field `deck_sise`",
            ],
        ),
        (
            "broken-format-type.toml",
            &[
                "broken-format-type.toml:7:14",
                "copy_limit = \"four\"",
                "\"four\"",
            ],
        ),
        (
            "cycle-a.toml",
            &["cycle-a.toml:4:1", "extends = \"cycle-b.toml\"", "cycle"],
        ),
    ];
    for (file, wanted) in cases {
        let args = ["check", "standard-valid.txt", "--format", file];
        let (code, out) = run_in(dir.path(), &args);
        assert_eq!(code, 2, "{file}: {out}");
        for text in *wanted {
            assert!(out.contains(text), "{file}: no {text:?} in\n{out}");
        }
        let (show_code, show) = run_in(dir.path(), &["formats", "show", file]);
        assert_eq!(show_code, 2, "{file}: {show}");
        insta::assert_snapshot!(format!("exit2-{}", file.trim_end_matches(".toml")), out);
    }
}

#[test]
fn formats_list_and_show() {
    let dir = workspace(&["league-40.toml"]);
    let (code, list) = run_in(dir.path(), &["formats"]);
    assert_eq!(code, 0, "{list}");
    insta::assert_snapshot!("formats-list", list);
    for id in deckbox::formats::Format::listed_ids() {
        assert!(list.contains(id), "{id} missing from\n{list}");
        let (code, out) = run_in(dir.path(), &["formats", "show", id]);
        assert_eq!(code, 0, "{out}");
        insta::assert_snapshot!(format!("formats-show-{id}"), out);
    }
    let (code, out) = run_in(dir.path(), &["formats", "show", "league-40.toml"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("40"), "{out}");
    insta::assert_snapshot!("formats-show-league-40", out);
}

/// Each format's page states the first-turn Supporter rule as the rulebook of the date
/// judged does: the Scarlet & Violet rulebook forbids it ("La personne qui commence la partie
/// ne peut pas jouer de carte Supporter pendant son premier tour"), in force since Sword &
/// Shield (2020-02-07); the Sun & Moon rulebook did not (its turn: "Play Trainer cards (as
/// many as you want, but only one Supporter card and one Stadium card per turn)"); before
/// Sun & Moon no rulebook of the time is quoted, so none is stated. The Game Boy format's
/// rules name no Supporter at all (J.1: "Desde tu primer turno, puedes jugar tantas cartas de
/// entrenador como quieras").
#[test]
fn formats_show_states_the_first_turn_supporter_rule_of_each_rulebook() {
    let dir = tempfile::tempdir().unwrap();
    let first_turn = |out: &str| {
        out.lines()
            .find(|l| l.contains("first player, turn 1"))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    for id in ["standard", "expanded", "unlimited", "glc"] {
        let (code, out) = run_in(dir.path(), &["formats", "show", id]);
        assert_eq!(code, 0, "{out}");
        assert!(
            first_turn(&out).ends_with("may not play a Supporter"),
            "{id}: {out}"
        );
        let rule = out.lines().find(|l| l.contains("Supporter rule")).unwrap();
        assert!(rule.contains("Scarlet & Violet rulebook"), "{id}: {rule}");
        assert!(
            out.contains("from 2017-02-03, the first player may play one; from 2020-02-07, the first player may not play one"),
            "{id}: {out}"
        );
        // GLC began on 2021-07-14 (formats/glc.toml): at the older dates below it did not
        // exist, and `formats show` says so.
        if id == "glc" {
            let (code, out) = run_in(
                dir.path(),
                &["formats", "show", id, "--as-of", "2019-06-01"],
            );
            assert_eq!(code, 2, "{out}");
            assert!(out.contains("did not exist"), "{out}");
            continue;
        }
        // Judged in the Sun & Moon era, the Sun & Moon rulebook's rule.
        let (code, out) = run_in(
            dir.path(),
            &["formats", "show", id, "--as-of", "2019-06-01"],
        );
        assert_eq!(code, 0, "{id}: {out}");
        assert!(
            first_turn(&out).ends_with("may play a Supporter"),
            "{id}: {out}"
        );
        let rule = out.lines().find(|l| l.contains("Supporter rule")).unwrap();
        assert!(
            rule.contains("Sun & Moon rulebook") && rule.contains("only one Supporter card"),
            "{id}: {rule}"
        );
        // Before Sun & Moon: no rulebook of the time, no rule stated.
        let (code, out) = run_in(
            dir.path(),
            &["formats", "show", id, "--as-of", "2016-06-01"],
        );
        assert_eq!(code, 0, "{id}: {out}");
        assert!(!first_turn(&out).contains("Supporter"), "{id}: {out}");
        assert!(
            out.contains("none stated: 2016-06-01 is older"),
            "{id}: {out}"
        );
    }
    let (code, out) = run_in(dir.path(), &["formats", "show", "gameboy"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("Supporter"), "{out}");
    assert!(out.contains("may attack"), "{out}");
}

/// The Game Boy format claims no rule its rulebook lacks. The rulebook
/// (`../shared/rulebooks/gameboy-format-basic-rules-es.txt`) ends a game only by "F.1
/// Consiguiendo todas sus cartas de Premio", "F.2 Dejando Fuera de Combate a todos los
/// Pokémon en juego de su rival" or "F.3 Su rival no tiene ninguna carta en su baraja al
/// comenzar su turno": no Sudden Death. It names no ACE SPEC, Prism Star, Radiant or Pokémon
/// Star card and no limit on them, and "J.1 Desde tu primer turno, puedes jugar tantas
/// cartas de entrenador como quieras": no Supporter rule; nor does it exempt a card that
/// says a deck may hold any number of it. So its page states none of these,
/// and `check` applies none of their limits.
#[test]
fn the_game_boy_format_claims_no_rule_its_rulebook_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = run_in(dir.path(), &["formats", "show", "gameboy"]);
    assert_eq!(code, 0, "{out}");
    for claim in [
        "Sudden Death",
        "ACE SPEC",
        "Prism Star",
        "Radiant",
        "Pokémon Star",
        "Supporter",
        "as many as you like",
    ] {
        assert!(
            !out.contains(claim),
            "the Game Boy page claims {claim}:\n{out}"
        );
    }
    assert!(
        out.lines()
            .any(|l| l.contains("prize cards") && l.trim_end().ends_with('6')),
        "{out}"
    );
    let format = deckbox::formats::Format::load("gameboy").unwrap();
    let c = &format.construction;
    assert_eq!(
        (
            c.ace_spec_limit,
            c.prism_star_copies,
            c.radiant_limit,
            c.pokemon_star_limit
        ),
        (None, None, None, None)
    );
    assert_eq!(format.setup.sudden_death_prizes, None);
    // The official formats still state and apply them.
    let (_, out) = run_in(dir.path(), &["formats", "show", "standard"]);
    assert!(
        out.contains("ACE SPEC") && out.contains("in Sudden Death"),
        "{out}"
    );
}

#[test]
fn explain_the_format_rules() {
    let dir = tempfile::tempdir().unwrap();
    for rule in ["not-legal", "banned", "single-type", "rule-box"] {
        let (code, out) = run_in(dir.path(), &["explain", rule]);
        assert_eq!(code, 0, "{out}");
        insta::assert_snapshot!(format!("explain-{rule}"), out);
    }
}

/// A format file may only extend built-in formats and files in the folder of the format
/// given (or below it): otherwise a format file in a repository could make a CI run read
/// any file and print parts of it in the error.
#[test]
fn extends_cannot_leave_the_folder_of_the_format_given() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join("formats/parts")).unwrap();
    std::fs::write(dir.path().join("secret.toml"), "token = SECRET-TOKEN-42\n").unwrap();
    let deck =
        std::fs::read(common::repo().join("tests/fixtures/formats/standard-valid.txt")).unwrap();
    std::fs::write(repo.join("deck.txt"), deck).unwrap();
    let with = |extends: &str| format!("id = \"x\"\nname = \"X\"\nextends = \"{extends}\"\n");
    let secret = dir.path().join("secret.toml");
    let cases = [
        ("up.toml", with("../../secret.toml"), "leaves the folder"),
        (
            "absolute.toml",
            with(&secret.display().to_string()),
            "absolute path",
        ),
    ];
    for (file, text, wanted) in cases {
        std::fs::write(repo.join("formats").join(file), text).unwrap();
        let format = format!("formats/{file}");
        let (code, out) = run_in(&repo, &["check", "deck.txt", "--format", &format]);
        assert_eq!(code, 2, "{file}: {out}");
        assert!(out.contains(wanted), "{file}: {out}");
        assert!(!out.contains("SECRET-TOKEN"), "{file} leaked: {out}");
    }
    // Down and back up inside the folder of the format given is fine.
    std::fs::write(
        repo.join("formats/top.toml"),
        with("parts/middle.toml").replace("\"x\"", "\"top\""),
    )
    .unwrap();
    std::fs::write(
        repo.join("formats/parts/middle.toml"),
        with("../base.toml").replace("\"x\"", "\"middle\""),
    )
    .unwrap();
    std::fs::write(
        repo.join("formats/base.toml"),
        "id = \"base\"\nname = \"Base\"\nextends = \"standard\"\n",
    )
    .unwrap();
    let (code, out) = run_in(
        &repo,
        &["check", "deck.txt", "--format", "formats/top.toml"],
    );
    assert_eq!(code, 0, "{out}");
}
