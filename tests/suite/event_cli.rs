#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The event table (`deckbox check DIR --output csv | markdown | html`) over a folder of lists
//! as players hand them in: a PTCG Live export with a `# player:` line, a hand-edited list
//! with a `// Player:` line and one copy too many, a French PTCG Live export with no player
//! line, and a Limitless JSON deck named on the command line.

use crate::common;

use std::path::Path;

const EVENT: &str = "tests/fixtures/event";

fn event_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = common::repo().join(EVENT);
    std::fs::create_dir_all(dir.path().join("lists")).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("lists").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    dir
}

fn run(dir: &Path, output: &str) -> (i32, String) {
    common::run_deckbox(
        dir,
        &["check", "lists", "lists/gary.json", "--output", output],
        b"",
    )
}

/// One CSV record per deck in path order (the JSON deck, named after the folder, last), the
/// player from the comment line or the file name, verdict, counts, the first error with its
/// line, the main attackers; the summary on standard error; exit 1 for the invalid decks.
#[test]
fn csv_has_one_row_per_deck() {
    let dir = event_folder();
    let (code, out) = run(dir.path(), "csv");
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("event_csv", out);
    let stdout = common::stdout_of(&out);
    let rows: Vec<&str> = stdout.split("\r\n").filter(|row| !row.is_empty()).collect();
    assert_eq!(rows.len(), 5, "{stdout}");
    assert!(rows[1].starts_with("lists/ash-ketchum.txt,Ash Ketchum,,standard,2026-11-25,60,valid,0,0,,Dragapult ex / Fezandipiti ex"), "{stdout}");
    // The title line, quoted as CSV quotes a field with a comma and quotes.
    assert!(
        rows[2].starts_with(
            "lists/brock.txt,brock,\"<b>Dragapult</b> & \"\"Brock's\"\" list, 1st place\","
        ),
        "{stdout}"
    );
    assert!(
        rows[3].contains(",Misty,") && rows[3].contains("line 3: copy-limit"),
        "{stdout}"
    );
    assert!(rows[4].starts_with("lists/gary.json,gary,"), "{stdout}");
    assert!(out.contains("4 decks: 1 valid, 3 invalid"), "{out}");
}

#[test]
fn markdown_is_a_table_with_a_summary() {
    let dir = event_folder();
    let (code, out) = run(dir.path(), "markdown");
    assert_eq!(code, 1, "{out}");
    let stdout = common::stdout_of(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "| file | player | title | format | date | cards | verdict | errors | warnings | first error | main attackers |"
    );
    let brock = lines
        .iter()
        .find(|l| l.starts_with("| lists/brock.txt"))
        .unwrap();
    // The title, its markup escaped as in every other cell.
    assert!(
        brock.starts_with(
            "| lists/brock.txt | brock | \\<b>Dragapult\\</b> \\& \"Brock's\" list, 1st place | standard |"
        ),
        "{brock}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("| lists/")).count(),
        4,
        "{stdout}"
    );
    assert_eq!(
        lines.last(),
        Some(&"4 decks: 1 valid, 3 invalid"),
        "{stdout}"
    );
}

/// A file that cannot be read is counted in the summary and named on standard error; the
/// page is still complete.
#[test]
fn html_page_is_complete_and_counts_unreadable_files() {
    let dir = event_folder();
    std::fs::write(dir.path().join("lists/bad.txt"), [0xFF, 0xFE, 0x00]).unwrap();
    let (code, out) = common::run_deckbox(
        dir.path(),
        &["check", "lists", "missing.txt", "--output", "html"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
    let page = common::stdout_of(&out);
    assert!(
        page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"),
        "{page}"
    );
    assert!(
        page.contains("file could not be read") || page.contains("files could not be read"),
        "{page}"
    );
    assert!(page.contains("<td>Ash Ketchum</td>"), "{page}");
    // Brock's title line is a cell, escaped like every other.
    assert!(
        page.contains(
            "<td>&lt;b&gt;Dragapult&lt;/b&gt; &amp; &quot;Brock&#39;s&quot; list, 1st place</td>"
        ),
        "{page}"
    );
}

/// Issue 50: an event folder with lists saved as `.md` and `.json` gave "10 decks" for 12
/// lists without a word, and the page showed only each deck's first error, with the
/// backticks of the terminal's messages in the CSV and HTML cells. The walk now names the
/// files it skipped whose names may hold a list (not README.md, not a file named on the
/// command line) with how to have them checked, the summary counts them, the page lists every
/// finding of a deck under its first error, and no backtick reaches a cell.
#[test]
fn skipped_lists_are_named_and_every_finding_is_on_the_page() {
    let dir = event_folder();
    let lists = dir.path().join("lists");
    let misty = std::fs::read_to_string(lists.join("misty.txt")).unwrap();
    std::fs::write(lists.join("top8-dawn.md"), &misty).unwrap();
    std::fs::write(lists.join("README.md"), "# Our event\n").unwrap();
    std::fs::write(lists.join("deckbox.toml.bak"), "x").unwrap();
    let (code, out) = common::run_deckbox(
        dir.path(),
        &["check", "lists", "lists/gary.json", "--output", "html"],
        b"",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "note: skipped 1 file whose names are not those of deck lists: lists/top8-dawn.md"
        ),
        "{out}"
    );
    assert!(
        !out.contains("README.md") && !out.contains("gary.json,"),
        "{out}"
    );
    assert!(
        out.contains("name a file on the command line to check it anyway"),
        "{out}"
    );
    let page = common::stdout_of(&out);
    assert!(
        page.contains("1 file skipped, not named as deck lists"),
        "{page}"
    );
    assert!(page.contains("<details><summary>every finding ("), "{page}");
    let (_, csv) = common::run_deckbox(dir.path(), &["check", "lists", "--output", "csv"], b"");
    for (page, name) in [(page, "html"), (common::stdout_of(&csv), "csv")] {
        let cells = page.split("<script>").next().unwrap_or(page);
        assert!(!cells.contains('`'), "{name}: {cells}");
    }
    // Named on the command line, the Markdown list is checked.
    let (_, named) = common::run_deckbox(
        dir.path(),
        &["check", "lists/top8-dawn.md", "--output", "short"],
        b"",
    );
    assert!(!named.contains("skipped"), "{named}");
}
