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
