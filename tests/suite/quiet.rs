#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
//! Quiet when all is well: a clean run says nothing on standard error, and the note about
//! the embedded card index's coverage comes only when a card was not found, once a run
//! however many decks name unknown cards.

use crate::common::{deckbox_command, repo};

const NOTE: &str = "note: the embedded card index holds every card released up to";

/// `deckbox check` on copies of `examples` (under new names) with `args`: exit code and
/// standard error.
fn check(examples: &[(&str, &str)], args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in examples {
        std::fs::copy(repo().join("examples").join(from), dir.path().join(to)).unwrap();
    }
    let output = deckbox_command()
        .arg("check")
        .args(args)
        .arg(".")
        .current_dir(dir.path())
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_clean_run_prints_nothing_on_stderr_in_any_output() {
    let valid = [
        ("dragapult.txt", "dragapult.txt"),
        ("gardevoir-fr.txt", "gardevoir-fr.txt"),
        ("ptcg-live.txt", "ptcg-live.txt"),
    ];
    for output in ["human", "short", "json", "sarif"] {
        let (code, stderr) = check(&valid, &["--output", output]);
        assert_eq!(code, 0, "{output}: {stderr}");
        assert_eq!(stderr, "", "{output}");
    }
}

#[test]
fn the_card_index_note_comes_once_when_a_card_is_unknown() {
    let broken = [
        ("broken.txt", "a.txt"),
        ("broken.txt", "b.txt"),
        ("dragapult.txt", "c.txt"),
    ];
    for output in ["short", "sarif"] {
        let (code, stderr) = check(&broken, &["--output", output]);
        assert_eq!(code, 1, "{output}: {stderr}");
        assert_eq!(stderr.matches(NOTE).count(), 1, "{output}: {stderr}");
    }
    // A deck that breaks a rule but names only known cards: no note.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo().join("examples/dragapult.txt")).unwrap();
    std::fs::write(
        dir.path().join("five.txt"),
        text.replacen("4 Dreepy", "5 Dreepy", 1),
    )
    .unwrap();
    let output = deckbox_command()
        .args(["check", "five.txt", "--output", "short"])
        .current_dir(dir.path())
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}
