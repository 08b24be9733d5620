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
