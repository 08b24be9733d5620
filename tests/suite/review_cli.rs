//! `deckbox review` and `deckbox log` on a git repository made here, commit by commit: lists
//! added, changed (a count and a printing), one judged before a rotation, one broken, one
//! renamed, one removed, with files that are no deck lists beside them. Each output format is
//! snapshotted; the commits have fixed authors and dates, so their hashes are the same on
//! every machine.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::Path;

use crate::common;

/// Runs git in `dir` as a fixed author at a fixed date, with no user or system config.
pub(crate) fn git(dir: &Path, args: &[&str], day: u32) {
    let date = format!("2026-11-{day:02}T12:00:00+00:00");
    let status = common::git_command(dir)
        .args(args)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn example(name: &str) -> String {
    std::fs::read_to_string(common::repo().join("examples").join(name)).unwrap()
}

/// A Gardevoir list judged on 2026-03-01, before the 2026 rotation (marks H, I, J): its G
/// cards leave then. Level Ball (mark E) is not legal already.
const BEFORE_ROTATION: &str = "# deckbox: format=standard, as-of=2026-03-01
Pokémon: 12
4 Ralts SVI 84
4 Kirlia SVI 85
2 Gardevoir ex SVI 86
2 Klefki SVI 96
Trainer: 36
4 Iono PAL 185
4 Arven SVI 166
4 Nest Ball SVI 181
4 Ultra Ball SVI 196
4 Rare Candy SVI 191
4 Level Ball BST 129
4 Buddy-Buddy Poffin TEF 144
4 Earthen Vessel PAR 163
4 Super Rod PAL 188
Energy: 12
12 Psychic Energy SVE 5
";

/// The repository: six commits, then a work tree with one more change.
fn repository() -> Option<tempfile::TempDir> {
    if !common::tool("git", "--version", "review_cli") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"], 1);
    let dragapult = example("dragapult.txt");
    write(root, "decks/dragapult.txt", &dragapult);
    write(root, "decks/live.txt", &example("ptcg-live.txt"));
    write(root, "README.md", "# decks\n");
    write(root, ".github/notes.txt", "not a deck\n");
    git(root, &["add", "."], 1);
    git(root, &["commit", "-q", "-m", "add two decks"], 1);

    // A count change and a printing change.
    let tuned = dragapult
        .replace("4 Ultra Ball MEG 131", "3 Ultra Ball MEG 131")
        .replace("2 Night Stretcher SFA 61", "3 Night Stretcher SFA 61")
        .replace("1 Switch MEG 130", "1 Switch SVI 194");
    write(root, "decks/dragapult.txt", &tuned);
    write(root, "README.md", "# decks\n\nTuned.\n");
    git(
        root,
        &[
            "commit",
            "-q",
            "-a",
            "-m",
            "dragapult: Night Stretcher for an Ultra Ball",
        ],
        2,
    );

    write(root, "decks/gardevoir.txt", BEFORE_ROTATION);
    git(root, &["add", "."], 3);
    git(
        root,
        &["commit", "-q", "-m", "gardevoir before the rotation"],
        3,
    );

    let broken = tuned.replace("4 Dreepy TWM 128", "5 Dreepy TWM 128");
    write(root, "decks/dragapult.txt", &broken);
    git(
        root,
        &["commit", "-q", "-a", "-m", "dragapult: a fifth <Dreepy> *"],
        4,
    );

    git(root, &["mv", "decks/live.txt", "decks/ptcg-live.txt"], 5);
    git(root, &["commit", "-q", "-m", "rename the live list"], 5);

    git(root, &["rm", "-q", "decks/gardevoir.txt"], 6);
    git(root, &["commit", "-q", "-m", "drop gardevoir"], 6);

    // The work tree: the broken list fixed, a new list not yet added.
    write(root, "decks/dragapult.txt", &tuned);
    write(root, "decks/new.txt", &dragapult);
    Some(dir)
}

fn run(dir: &Path, args: &[&str]) -> String {
    common::run_deckbox(dir, args, b"").1
}

#[test]
fn review_from_the_first_commit_in_every_output() {
    let Some(dir) = repository() else { return };
    let first = "HEAD~5";
    insta::assert_snapshot!("review_text", run(dir.path(), &["review", first, "HEAD"]));
    insta::assert_snapshot!(
        "review_markdown",
        run(
            dir.path(),
            &["review", first, "HEAD", "--output", "markdown"]
        )
    );
    insta::assert_snapshot!(
        "review_json",
        run(dir.path(), &["review", first, "HEAD", "--output", "json"])
    );
}

#[test]
fn review_of_the_work_tree_and_of_a_rotation() {
    let Some(dir) = repository() else { return };
    // The work tree fixes the broken list and adds one: exit 0.
    insta::assert_snapshot!("review_work_tree", run(dir.path(), &["review", "HEAD"]));
    // The commit that added the list judged before the rotation: the cards that leave.
    insta::assert_snapshot!(
        "review_rotation",
        run(dir.path(), &["review", "HEAD~4", "HEAD~3"])
    );
    // From a subfolder, the same repository.
    let (code, _) = common::run_deckbox(&dir.path().join("decks"), &["review", "HEAD"], b"");
    assert_eq!(code, 0);
}

/// A list whose new side has a line deckbox cannot read has no odds after the change: every
/// output says why (the line), instead of a bare `– → –`.
#[test]
fn odds_not_computed_say_why_in_every_output() {
    if !common::tool("git", "--version", "review_cli") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"], 1);
    let dragapult = example("dragapult.txt");
    write(root, "decks/dragapult.txt", &dragapult);
    git(root, &["add", "."], 1);
    git(root, &["commit", "-q", "-m", "add dragapult"], 1);
    // One line loses its count (not read), one names a card no database knows.
    let broken = (dragapult.replace("2 Night Stretcher SFA 61", "Night Stretcher, two"))
        .replace("4 Ultra Ball MEG 131", "3 Ultra Ball MEG 131\n1 Ultra Bal");
    let line = |start: &str| 1 + broken.lines().position(|l| l.starts_with(start)).unwrap();
    let (not_read, unknown) = (line("Night Stretcher"), line("1 Ultra Bal"));
    write(root, "decks/dragapult.txt", &broken);
    let lines = format!("line {not_read} is not read; line {unknown} is not identified");
    let why = format!("not computed after: {lines}");
    let text = run(root, &["review", "HEAD"]);
    assert!(text.contains(&format!("  odds: {why}\n")), "{text}");
    assert!(text.contains("P(mulligan): 25.9% → –"), "{text}");
    let markdown = run(root, &["review", "HEAD", "--output", "markdown"]);
    assert!(markdown.contains(&format!("- odds: {why}\n")), "{markdown}");
    let json = run(root, &["review", "HEAD", "--output", "json"]);
    let report: serde_json::Value = serde_json::from_str(common::stdout_of(&json)).unwrap();
    assert_eq!(
        report["decks"][0]["no_odds"],
        serde_json::json!([null, lines]),
        "{json}"
    );
}

#[test]
fn log_follows_a_list_across_a_rename_in_every_output() {
    let Some(dir) = repository() else { return };
    let deck = "decks/ptcg-live.txt";
    insta::assert_snapshot!("log_text", run(dir.path(), &["log", deck]));
    insta::assert_snapshot!(
        "log_markdown",
        run(
            dir.path(),
            &["log", "decks/dragapult.txt", "--output", "markdown"]
        )
    );
    insta::assert_snapshot!(
        "log_json",
        run(
            dir.path(),
            &["log", "decks/dragapult.txt", "--output", "json"]
        )
    );
}

#[test]
fn what_is_no_revision_or_no_repository_exits_2() {
    let Some(dir) = repository() else { return };
    insta::assert_snapshot!(run(dir.path(), &["review", "no-such-branch"]), @r"
    exit: 2
    --- stdout
    --- stderr
    error: git: `no-such-branch` names no commit
    ");
    insta::assert_snapshot!(run(dir.path(), &["review", "--", "--output=x"]), @r"
    exit: 2
    --- stdout
    --- stderr
    error: git: `--output=x` is not a revision
    ");
    let outside = tempfile::tempdir().unwrap();
    let (code, _) = common::run_deckbox(outside.path(), &["review", "HEAD"], b"");
    assert_eq!(code, 2);
}

/// `deckbox log` judges each commit at the date it was committed (git's committer date,
/// not the author's: a rebased commit entered the history later), unless a date is set: by
/// `--as-of`, by deckbox.toml's `as_of`, or by the list's own `# deckbox: as-of=` line.
#[test]
fn log_judges_each_commit_at_its_committer_date_unless_a_date_is_set() {
    let Some(dir) = repository() else { return };
    let root = dir.path();
    // Authored on 2026-10-01, committed on 2026-11-07 (as a rebase leaves it).
    let status = common::git_command(root)
        .args(["commit", "-q", "-a", "-m", "dragapult: fixed"])
        .env("GIT_AUTHOR_DATE", "2026-10-01T12:00:00+00:00")
        .env("GIT_COMMITTER_DATE", "2026-11-07T12:00:00+00:00")
        .status()
        .unwrap();
    assert!(status.success());
    let log = |args: &[&str]| -> Vec<(String, String)> {
        let rendered = run(root, args);
        let json: serde_json::Value =
            serde_json::from_str(common::stdout_of(&rendered)).expect(&rendered);
        (json["commits"].as_array().unwrap().iter())
            .map(|commit| {
                let judged = commit["verdict"]["date"].as_str().unwrap_or("-");
                (
                    commit["date"].as_str().unwrap().to_string(),
                    judged.to_string(),
                )
            })
            .collect()
    };
    let dated = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        (pairs.iter())
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let dragapult = ["log", "decks/dragapult.txt", "--output", "json"];
    assert_eq!(
        log(&dragapult),
        dated(&[
            ("2026-10-01", "2026-11-07"),
            ("2026-11-04", "2026-11-04"),
            ("2026-11-02", "2026-11-02"),
            ("2026-11-01", "2026-11-01"),
        ])
    );
    // `--as-of` sets the date of every commit.
    let at = [&dragapult[..], &["--as-of", "2026-11-20"]].concat();
    assert!(log(&at).iter().all(|(_, judged)| judged == "2026-11-20"));
    // So does deckbox.toml's `as_of`.
    std::fs::write(root.join("deckbox.toml"), "as_of = \"2026-11-21\"\n").unwrap();
    assert!(
        log(&dragapult)
            .iter()
            .all(|(_, judged)| judged == "2026-11-21")
    );
    std::fs::remove_file(root.join("deckbox.toml")).unwrap();
    // The list's own line wins over the commit's date; its removal has no verdict.
    let gardevoir = ["log", "decks/gardevoir.txt", "--output", "json"];
    assert_eq!(
        log(&gardevoir),
        dated(&[("2026-11-06", "-"), ("2026-11-03", "2026-03-01")])
    );
}
