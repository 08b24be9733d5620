#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The reprint rule end to end with the embedded card index: older printings of Standard
//! cards, written the way a player types them, pass `deckbox check --format standard`
//! when they play the same as a legal printing, and are rejected, naming the printing
//! compared and what differed, when their effect changed. No dataset needed.

use crate::common;

use common::run_deckbox;

/// Runs `deckbox check --format standard` on `deck`; the exit code and the rendered run.
fn check(deck: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    run_deckbox(
        dir.path(),
        &["check", "--format", "standard", "deck.txt"],
        b"",
    )
}

/// Each line an older printing (no regulation mark, or G) of a card with an H/I/J
/// printing, worded or reminded differently: legal by the reprint rule.
const OLDER_PRINTINGS: &str = "\
Pokémon: 4
4 Dreepy TWM 128

Trainer: 40
2 Ultra Ball SUM 135
2 Ultra Ball PLF 122
4 Rare Candy SUM 129
4 Switch BS 95
4 Judge UL 78
4 Crushing Hammer EPO 92
4 Pokémon Center Lady FLF 93
4 Energy Switch SUM 117
4 Poké Ball RS 86
4 Repel SUM 130
2 Energy Retrieval SUM 116
2 Energy Retrieval PRC 126

Energy: 16
16 Psychic Energy SVE 5
";

#[test]
fn older_printings_that_play_the_same_are_legal_in_standard() {
    let (code, out) = check(OLDER_PRINTINGS);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("not-legal"), "{out}");
}

#[test]
fn a_changed_effect_stays_illegal_and_says_what_was_compared() {
    // Base Set Potion removes up to 2 damage counters; Potion POR 83 heals 30 damage.
    let deck = OLDER_PRINTINGS.replace("4 Repel SUM 130", "3 Repel SUM 130\n1 Potion BS 94");
    let (code, out) = check(&deck);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.matches("Potion (BS 94) is not legal in Standard")
            .count(),
        1,
        "{out}"
    );
    assert_eq!(out.matches("is not legal in Standard").count(), 1, "{out}");
    let help =
        "compared with Potion POR 83 (legal) by the reprint rule: same name, different effect";
    assert!(
        out.replace('\n', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(help),
        "{out}"
    );
}

/// A 2026 Standard list as a player types it, with Trainers from rotated sets: Switch SLG 67
/// (no rules text in TCGdex; the card index takes its fingerprint from pokemon-tcg-data),
/// Ultra Ball SVI 196 and Rare Candy SVI 191 (regulation mark G).
const REPRINTS_2026: &str = "\
Pokémon: 11
4 Dreepy TWM 128
4 Drakloak TWM 129
3 Dragapult ex TWM 130

Trainer: 12
4 Switch SLG 67
4 Ultra Ball SVI 196
4 Rare Candy SVI 191

Energy: 37
20 Psychic Energy SVE 5
17 Fire Energy SVE 2
";

/// Runs `deckbox check --format standard --as-of 2026-06-01` on `deck` with more arguments.
fn check_2026(deck: &str, more: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    let mut args = vec!["check", "--format", "standard", "--as-of", "2026-06-01"];
    args.extend_from_slice(more);
    args.push("deck.txt");
    run_deckbox(dir.path(), &args, b"")
}

/// The findings of one deck in `check --output json`.
fn findings(out: &str) -> Vec<serde_json::Value> {
    let report: serde_json::Value = serde_json::from_str(common::stdout_of(out)).unwrap();
    let deck = match &report {
        serde_json::Value::Array(decks) => decks[0].clone(),
        other => other
            .get("decks")
            .map_or(other.clone(), |decks| decks[0].clone()),
    };
    deck["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn a_list_legal_by_the_reprint_rule_says_so() {
    let (code, out) = check_2026(REPRINTS_2026, &["--output", "json"]);
    assert_eq!(code, 0, "{out}");
    let findings = findings(&out);
    let notes: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| f["rule"] == "legal-as-reprint")
        .collect();
    assert_eq!(notes.len(), 3, "{findings:#?}");
    assert!(notes.iter().all(|f| f["severity"] == "info"), "{notes:#?}");
    assert!(
        findings.iter().all(|f| f["severity"] == "info"),
        "{findings:#?}"
    );
    let switch = notes
        .iter()
        .find(|f| f["line"] == 7)
        .expect("a note on the Switch line");
    assert_eq!(
        switch["message"],
        "Switch (SLG 67) is legal in Standard as a reprint of PFL 123"
    );
    let ultra_ball = notes.iter().find(|f| f["line"] == 8).unwrap();
    assert_eq!(
        ultra_ball["message"],
        "Ultra Ball (SVI 196) is legal in Standard as a reprint of ASC 213"
    );
    // The human report says it too, and the deck is valid.
    let (code, human) = check_2026(REPRINTS_2026, &[]);
    assert_eq!(code, 0, "{human}");
    assert!(human.contains("as a reprint of PFL 123"), "{human}");
    assert!(human.contains("valid"), "{human}");
}

/// Switch TK4G 28 (HeartGold & SoulSilver Trainer Kit) has no rules text in TCGdex, and
/// pokemon-tcg-data has no such set: deckbox cannot compare it with Switch PFL 123. It
/// says so as a warning (exit 0, as the README's exit codes say for warnings) naming the
/// printing without text and what to write instead, never as a `not-legal` error.
#[test]
fn a_printing_without_text_anywhere_is_undecided_not_rejected() {
    let deck = REPRINTS_2026.replace("4 Switch SLG 67", "4 Switch TK4G 28");
    let (code, out) = check_2026(&deck, &["--output", "json"]);
    assert_eq!(code, 0, "{out}");
    let findings = findings(&out);
    assert!(
        findings.iter().all(|f| f["rule"] != "not-legal"),
        "{findings:#?}"
    );
    let undecided: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| f["rule"] == "reprint-undecided")
        .collect();
    assert_eq!(undecided.len(), 1, "{findings:#?}");
    let finding = undecided[0];
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["line"], 7);
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains("Switch (TK4G 28)")
            && message.contains("no rules text for TK4G 28")
            && message.contains("cannot decide"),
        "{message}"
    );
    let help = finding["help"].as_str().unwrap();
    assert!(help.contains("Switch PFL 123"), "{help}");
    let (code, human) = check_2026(&deck, &[]);
    assert_eq!(code, 0, "{human}");
    assert!(human.contains("valid with 1 warning"), "{human}");
}
