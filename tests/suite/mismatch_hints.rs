#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Issue 50, "hints that point away": a line whose set code and number name another card
//! (`card-mismatch`) or no printing (`unknown-printing`) gets a help that points to what
//! the player most likely meant: the printing of the name with the number typed (the code
//! was mistyped), else the one in the set typed with the nearest number; `TWN` is TWM.

use crate::common;

use common::{run_deckbox, stdout_of};

/// `check --output json` of `deck`, each finding's rule and help.
fn helps(deck: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    let args = [
        "check",
        "--format",
        "unlimited",
        "deck.txt",
        "--output",
        "json",
    ];
    let (_, run) = run_deckbox(dir.path(), &args, b"");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    json["decks"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| {
            ["card-mismatch", "unknown-printing"].contains(&finding["rule"].as_str().unwrap())
        })
        .map(|finding| {
            (
                finding["rule"].as_str().unwrap().to_string(),
                finding["help"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_mismatch_points_to_the_printing_with_the_number_typed_or_in_the_set_typed() {
    // The number is right, the code wrong: Ultra Ball is SVI 196 (PAF 196 is Pidgey).
    let found = helps("4 Ultra Ball PAF 196\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "card-mismatch");
    assert!(
        found[0].1.ends_with("such as Ultra Ball SVI 196"),
        "{found:?}"
    );
    // The set is right, the number one off: Drakloak is TWM 129 (TWM 128 is Dreepy), not
    // the newest Drakloak of another set.
    let found = helps("4 Drakloak TWM 128\n");
    assert!(
        found[0].1.ends_with("such as Drakloak TWM 129"),
        "{found:?}"
    );
}

/// A code one letter off (`TWN`) names no set: the line is read as the printing of the name
/// with the number typed, TWM 128, and `unknown-printing` says so (the code named nothing;
/// since branch `truth7` the reading is that printing, not the newest Dreepy with a guess).
#[test]
fn a_set_code_one_letter_off_suggests_the_code_that_prints_the_card() {
    let found = helps("4 Dreepy TWN 128\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "unknown-printing");
    assert!(
        found[0].1.starts_with("deckbox assumed Dreepy (TWM 128)"),
        "{found:?}"
    );
    // A number that names nothing in the right set gets no guess at another number.
    let found = helps("4 Iono PAL 999\n");
    assert!(
        found[0].1.starts_with("deckbox assumed Iono (PAL 185)"),
        "{found:?}"
    );
}
