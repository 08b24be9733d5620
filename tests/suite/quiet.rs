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

/// The first run on a `--cards` checkout builds its index, a few seconds: on a terminal it
/// says so with a spinner instead of staying silent (issue 32), the next run reads the cache
/// and draws nothing, and without a terminal nothing is drawn either. The terminal is the
/// pseudo-terminal `script` (util-linux) gives the command.
#[test]
fn building_a_cards_index_shows_progress_on_a_terminal_only() {
    const SPINNER: &str = "building the card index";
    let Some(data) = crate::common::shared_data("quiet building_a_cards_index") else {
        return;
    };
    if !crate::common::tool("script", "--version", "building_a_cards_index (util-linux)") {
        return;
    }
    let cards = data.join("tcgdex-repo");
    let deck = repo().join("examples/dragapult.txt");
    let args = [
        "check".to_string(),
        "--cards".to_string(),
        cards.display().to_string(),
        deck.display().to_string(),
        "--output".to_string(),
        "short".to_string(),
    ];
    // Without a terminal, on an empty cache: built in silence.
    let plain_cache = tempfile::tempdir().unwrap();
    let plain = deckbox_command()
        .args(&args)
        .env("DECKBOX_CACHE_DIR", plain_cache.path())
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&plain.stderr), "");
    // On a terminal: the spinner the first time, nothing once the cache holds the index.
    let cache = tempfile::tempdir().unwrap();
    let line = std::iter::once(env!("CARGO_BIN_EXE_deckbox").to_string())
        .chain(args.iter().cloned())
        .map(|word| format!("'{word}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let on_terminal = || {
        let out = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .env("DECKBOX_CACHE_DIR", cache.path())
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, first) = on_terminal();
    assert_eq!(code, Some(0), "{first}");
    assert!(first.contains(SPINNER), "{first}");
    let (code, second) = on_terminal();
    assert_eq!(code, Some(0), "{second}");
    assert!(!second.contains(SPINNER), "{second}");
}
