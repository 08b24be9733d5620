#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Replays what the fuzzers found through the same oracles the fuzz targets run
//! (tests/oracles): every file under `fuzz/regressions/<target>/` is an input that once
//! crashed or broke a promise, kept so it never does again. The fixtures go through every
//! oracle too, so a change that breaks one is caught here before a fuzzing run.

use crate::common;
use crate::oracles;

use std::path::{Path, PathBuf};

type Oracle = fn(&[u8]);

/// Each fuzz target's name and oracle (fuzz/fuzz_targets/<name>.rs calls the same one).
const TARGETS: &[(&str, Oracle)] = &[
    ("check", oracles::check_any),
    ("names", oracles::names_any),
    ("from_tcgdex", oracles::tcgdex_any),
    ("from_pokemontcg", oracles::pokemontcg_any),
    ("format", oracles::format_any),
    ("fmt", oracles::fmt_any),
    ("json", oracles::json_any),
    ("query", oracles::query_any),
    ("search", oracles::search_any),
    ("editor", oracles::editor_any),
    ("git", oracles::git_any),
    ("assist", oracles::assist_any),
    ("mcp", oracles::mcp_any),
];

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_target_has_its_fuzz_target_and_regression_folders_are_targets() {
    let root = common::repo().join("fuzz");
    for (name, _) in TARGETS {
        let target = root.join("fuzz_targets").join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&target).unwrap();
        assert!(text.contains("mod oracles"), "{}", target.display());
    }
    // Folders under fuzz/regressions are named after targets (a typo would skip them).
    let Ok(entries) = std::fs::read_dir(root.join("regressions")) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !path.is_dir() || TARGETS.iter().any(|(target, _)| *target == name),
            "fuzz/regressions/{name} is no target"
        );
    }
}

#[test]
fn inputs_the_fuzzers_found_stay_fixed() {
    let root = common::repo().join("fuzz").join("regressions");
    let mut replayed = 0;
    for (name, oracle) in TARGETS {
        for file in files(&root.join(name)) {
            let bytes = std::fs::read(&file).unwrap();
            let result = std::panic::catch_unwind(|| oracle(&bytes));
            assert!(result.is_ok(), "{name}: {} fails again", file.display());
            replayed += 1;
        }
    }
    println!("{replayed} fuzz regressions replayed");
}

#[test]
fn every_fixture_passes_every_oracle() {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [
        "tests/fixtures/layouts",
        "tests/fixtures/decks",
        "tests/fixtures/formats",
        "tests/fixtures/stats",
        "tests/fixtures/fmt",
        "examples",
        "formats",
    ] {
        files.extend(self::files(&common::repo().join(dir)));
    }
    assert!(files.len() > 40);
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        for (name, oracle) in TARGETS {
            let result = std::panic::catch_unwind(|| oracle(&bytes));
            assert!(result.is_ok(), "{name} on {}", file.display());
        }
    }
}
