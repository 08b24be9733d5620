//! The one output convention (issue 32): `-o`/`--output-file FILE` on every command that
//! prints a report or a list writes exactly what standard output would show, with the same
//! exit code; it never replaces a file without `--force` (exit 2, the file as it was);
//! `--output-format` and its old name `--output` choose the format, and the format for a
//! person is `text` or `human` alike. `-o json`, the old way of asking for JSON, still works
//! for a release, with a warning.
#![allow(clippy::unwrap_used, reason = "tests")]

use std::path::Path;

use crate::common::{run_deckbox, stdout_of, workspace};

/// The example files every case may read.
const FILES: [&str; 4] = [
    "examples/dragapult.txt",
    "examples/broken.txt",
    "examples/ptcg-live.txt",
    "examples/collection/binder.txt",
];

/// Every command that writes a report or a list (but `sheet`, whose file is a PDF), as a
/// user types it, and the exit code it gives.
const COMMANDS: [(&[&str], i32); 11] = [
    (&["check", "--no-config", "broken.txt"], 1),
    (&["check", "--no-config", "dragapult.txt"], 0),
    (&["stats", "--no-config", "dragapult.txt"], 0),
    (
        &[
            "odds",
            "--no-config",
            "dragapult.txt",
            "--seen",
            "Dreepy, 2 Rare Candy",
            "--draws",
            "2",
        ],
        0,
    ),
    (
        &["sample", "--no-config", "dragapult.txt", "--seed", "7"],
        0,
    ),
    (&["card", "--no-config", "Iono"], 0),
    (&["search", "--no-config", "Dreepy"], 0),
    (&["search", "--no-config", "name:Nobody-Is-Called-This"], 1),
    (
        &[
            "convert",
            "--no-config",
            "dragapult.txt",
            "--to",
            "limitless",
        ],
        0,
    ),
    (
        &[
            "need",
            "--no-config",
            "dragapult.txt",
            "--have",
            "binder.txt",
        ],
        1,
    ),
    (
        &["diff", "--no-config", "dragapult.txt", "ptcg-live.txt"],
        1,
    ),
];

fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    run_deckbox(dir, args, b"")
}

fn with(args: &[&str], more: &[&'static str]) -> Vec<String> {
    args.iter().chain(more).map(|arg| arg.to_string()).collect()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn dash_o_writes_what_standard_output_shows_with_the_same_exit_code() {
    for (args, expected) in COMMANDS {
        let dir = workspace(&FILES);
        let (code, printed) = run(dir.path(), args);
        assert_eq!(code, expected, "{args:?}\n{printed}");
        let report = stdout_of(&printed).to_string();
        let to_file = with(args, &["-o", "report.out"]);
        let (code, shown) = run(dir.path(), &strs(&to_file));
        assert_eq!(code, expected, "{to_file:?}\n{shown}");
        assert_eq!(stdout_of(&shown), "", "{to_file:?}");
        let written = std::fs::read_to_string(dir.path().join("report.out")).unwrap();
        assert_eq!(written, report, "{to_file:?}");
        // The long name does the same.
        let long = with(args, &["--output-file", "long.out"]);
        let (code, _) = run(dir.path(), &strs(&long));
        assert_eq!(code, expected, "{long:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("long.out")).unwrap(),
            report
        );
    }
}

#[test]
fn dash_o_never_replaces_a_file_without_force() {
    for (args, expected) in COMMANDS {
        let dir = workspace(&FILES);
        let kept = dir.path().join("notes.txt");
        std::fs::write(&kept, "my notes, typed by hand\n").unwrap();
        let refused = with(args, &["-o", "notes.txt"]);
        let (code, shown) = run(dir.path(), &strs(&refused));
        assert_eq!(code, 2, "{refused:?}\n{shown}");
        assert!(
            shown.contains("error: cannot write notes.txt: it already exists")
                && shown.contains("help: `--force` writes it anyway")
                && shown.contains("notes.txt was not changed"),
            "{refused:?}\n{shown}"
        );
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            "my notes, typed by hand\n"
        );
        let forced = with(args, &["-o", "notes.txt", "--force"]);
        let (code, shown) = run(dir.path(), &strs(&forced));
        assert_eq!(code, expected, "{forced:?}\n{shown}");
        let (_, printed) = run(dir.path(), args);
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            stdout_of(&printed),
            "{forced:?}"
        );
    }
}

/// A command that fails before any report (an unreadable deck) makes no file.
#[test]
fn a_failed_command_leaves_no_file() {
    let dir = workspace(&FILES);
    let (code, shown) = run(
        dir.path(),
        &["stats", "--no-config", "missing.txt", "-o", "out.txt"],
    );
    assert_eq!(code, 2, "{shown}");
    assert!(!dir.path().join("out.txt").exists(), "{shown}");
}

/// Each command's formats, by `--output-format` and `--output`, and its format for a person
/// by `text` and `human`.
#[test]
fn output_format_output_text_and_human_all_work() {
    let dir = workspace(&FILES);
    let cases: [(&[&str], &str); 9] = [
        (&["check", "--no-config", "broken.txt"], "json"),
        (&["stats", "--no-config", "dragapult.txt"], "json"),
        (
            &["odds", "--no-config", "dragapult.txt", "--draws", "2"],
            "json",
        ),
        (&["card", "--no-config", "Iono"], "json"),
        (&["search", "--no-config", "Dreepy"], "list"),
        (
            &[
                "need",
                "--no-config",
                "dragapult.txt",
                "--have",
                "binder.txt",
            ],
            "list",
        ),
        (
            &["diff", "--no-config", "dragapult.txt", "ptcg-live.txt"],
            "json",
        ),
        (&["config", "--no-config"], "json"),
        (&["convert", "--no-config", "dragapult.txt"], "json"),
    ];
    for (args, other) in cases {
        let (_, default) = run(dir.path(), args);
        let mut seen = Vec::new();
        for (option, value) in [
            ("--output-format", other),
            ("--output", other),
            ("--output-format", "text"),
            ("--output-format", "human"),
            ("--output", "human"),
        ] {
            // `convert --to` is its format option; it has no format for a person.
            if args[0] == "convert" && (value != other || option == "--output") {
                continue;
            }
            let mut full: Vec<&str> = args.to_vec();
            full.extend([option, value]);
            let (code, shown) = run(dir.path(), &full);
            assert_ne!(code, 2, "{full:?}\n{shown}");
            seen.push((value, shown));
        }
        let same = |a: usize, b: usize| assert_eq!(seen[a].1, seen[b].1, "{args:?}");
        if args[0] == "convert" {
            assert!(seen[0].1.contains("\"cards\""), "{}", seen[0].1);
            continue;
        }
        same(0, 1);
        same(2, 3);
        same(3, 4);
        assert_eq!(seen[2].1, default, "{args:?}: text is not the default");
        assert_ne!(seen[0].1, default, "{args:?}: {other} changed nothing");
    }
}

/// `-o json` as written before `-o` named the file: still the format, with a warning saying
/// how to write it now; a format name this command does not have is an error, not a file.
#[test]
fn dash_o_given_a_format_name_the_old_way() {
    let dir = workspace(&FILES);
    let (code, old) = run(
        dir.path(),
        &["check", "--no-config", "broken.txt", "-o", "json"],
    );
    let (_, new) = run(
        dir.path(),
        &[
            "check",
            "--no-config",
            "broken.txt",
            "--output-format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{old}");
    assert_eq!(stdout_of(&old), stdout_of(&new));
    assert!(
        old.contains("warning: `-o json` is read as `--output-format json`")
            && old.contains(
                "help: write `--output-format json` (or `-o ./json` for a file named json)"
            ),
        "{old}"
    );
    assert!(!dir.path().join("json").exists());
    let (code, shown) = run(
        dir.path(),
        &["stats", "--no-config", "dragapult.txt", "-o", "short"],
    );
    assert_eq!(code, 2, "{shown}");
    assert!(
        shown.contains("`short` is no output format of this command"),
        "{shown}"
    );
    assert!(!dir.path().join("short").exists());
    // `./json` is a file.
    let (code, _) = run(
        dir.path(),
        &["check", "--no-config", "broken.txt", "-o", "./json"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("json")).unwrap(),
        stdout_of(&run(dir.path(), &["check", "--no-config", "broken.txt"]).1)
    );
}

/// Issue 50: `deckbox stats deck.txt -o stats.html` wrote the text report into the `.html`
/// file, exit 0, no warning. Without `--output-format` the extension chooses the format; an
/// extension naming a format the command lacks is refused and no file is written; an
/// explicit `--output-format` wins over the extension.
#[test]
fn dash_o_picks_the_format_from_the_extension() {
    let dir = workspace(&FILES);
    for (args, extension, format, code) in [
        (
            &["stats", "--no-config", "dragapult.txt"][..],
            "html",
            "html",
            0,
        ),
        (&["check", "--no-config", "broken.txt"], "json", "json", 1),
        (&["check", "--no-config", "broken.txt"], "sarif", "sarif", 1),
        (&["check", "--no-config", "broken.txt"], "CSV", "csv", 1),
        (&["check", "--no-config", "broken.txt"], "md", "markdown", 1),
        (&["check", "--no-config", "broken.txt"], "txt", "text", 1),
    ] {
        let file = format!("report-{format}.{extension}");
        let (got, shown) = run(
            dir.path(),
            &strs(
                &with(args, &["-o"])
                    .into_iter()
                    .chain([file.clone()])
                    .collect::<Vec<_>>(),
            ),
        );
        assert_eq!(got, code, "{file}: {shown}");
        let explicit = with(args, &["--output-format"])
            .into_iter()
            .chain([format.to_string()])
            .collect::<Vec<_>>();
        let expected = stdout_of(&run(dir.path(), &strs(&explicit)).1).to_string();
        let written = std::fs::read_to_string(dir.path().join(&file)).unwrap();
        assert_eq!(written, expected, "{file}");
    }
    let html = std::fs::read_to_string(dir.path().join("report-html.html")).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"),
        "{}",
        &html[..80]
    );
    // A format the command does not have: refused, nothing written.
    let (code, shown) = run(
        dir.path(),
        &["stats", "--no-config", "dragapult.txt", "-o", "odds.csv"],
    );
    assert_eq!(code, 2, "{shown}");
    assert!(
        shown.contains(
            "`-o odds.csv` names a csv file, and csv is no output format of this command"
        ),
        "{shown}"
    );
    assert!(!dir.path().join("odds.csv").exists());
    // `--output-format` wins over the extension.
    let (code, _) = run(
        dir.path(),
        &[
            "check",
            "--no-config",
            "broken.txt",
            "--output-format",
            "short",
            "-o",
            "short.json",
        ],
    );
    assert_eq!(code, 1);
    let short = std::fs::read_to_string(dir.path().join("short.json")).unwrap();
    assert!(short.starts_with("broken.txt:"), "{short}");
}

/// `sheet` and `convert` named their file `--output` before: it still does there.
#[test]
fn sheet_and_convert_keep_output_as_the_file() {
    let dir = workspace(&FILES);
    let (code, shown) = run(
        dir.path(),
        &["sheet", "--no-config", "ptcg-live.txt", "--output", "a.pdf"],
    );
    assert_eq!(code, 0, "{shown}");
    let first = std::fs::read(dir.path().join("a.pdf")).unwrap();
    assert!(first.starts_with(b"%PDF-"));
    // A second sheet is refused without --force, the first kept.
    let (code, shown) = run(
        dir.path(),
        &["sheet", "--no-config", "ptcg-live.txt", "-o", "a.pdf"],
    );
    assert_eq!(code, 2, "{shown}");
    assert!(shown.contains("it already exists"), "{shown}");
    assert_eq!(std::fs::read(dir.path().join("a.pdf")).unwrap(), first);
    let (code, shown) = run(
        dir.path(),
        &[
            "sheet",
            "--no-config",
            "ptcg-live.txt",
            "-o",
            "a.pdf",
            "--force",
        ],
    );
    assert_eq!(code, 0, "{shown}");
    let (code, shown) = run(
        dir.path(),
        &[
            "convert",
            "--no-config",
            "dragapult.txt",
            "--output",
            "c.txt",
        ],
    );
    assert_eq!(code, 0, "{shown}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("c.txt")).unwrap(),
        stdout_of(&run(dir.path(), &["convert", "--no-config", "dragapult.txt"]).1)
    );
}
