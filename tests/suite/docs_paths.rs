//! ARCHITECTURE.md and CONTRIBUTING.md stay true to the tree: every file or folder they name
//! (in backticks or as a link) exists. A path is found from the repository's root, from
//! `src/`, or, written relative to its wing as the wing table does (`exact/sweep.rs` in the
//! row of `stats/`), as the end of a path in the repository.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::path::{Path, PathBuf};

use crate::common::repo;

/// The pages whose paths are checked.
const PAGES: [&str; 2] = ["ARCHITECTURE.md", "CONTRIBUTING.md"];

/// Names in the pages that are not paths of this repository: a user's configuration file,
/// the snapshots' extension, and what a build or a run writes.
const NOT_PATHS: [&str; 3] = ["deckbox.toml", ".snap", "target/"];

/// What a path in prose ends with when it names a file.
const EXTENSIONS: [&str; 13] = [
    ".rs", ".md", ".toml", ".tsv", ".bin", ".txt", ".snap", ".json", ".yml", ".yaml", ".sh",
    ".ttf", ".csv",
];

/// The paths a page names: spans in backticks and link targets that look like a path (a
/// `/`, or a file extension), without placeholders (`<id>`), Rust paths or URLs.
fn named_paths(page: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find('`') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('`') else { break };
        spans.push(&after[..end]);
        rest = &after[end + 1..];
    }
    let mut rest = page;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        spans.push(&after[..end]);
        rest = &after[end + 1..];
    }
    let mut paths: Vec<String> = spans
        .into_iter()
        .map(|span| span.split('#').next().unwrap_or(""))
        .filter(|span| {
            !span.is_empty()
                && span
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./*-".contains(c))
                && !span.starts_with("target/")
                && !NOT_PATHS.contains(span)
                && (span.contains('/') || EXTENSIONS.iter().any(|ext| span.ends_with(ext)))
        })
        .map(str::to_string)
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            out.push(path.clone());
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Whether `named` exists: from the root, from `src/`, or as the end of some path. A glob
/// (`formats/*.toml`) exists when its folder holds a file with its ending.
fn exists(named: &str, root: &Path, everything: &[PathBuf]) -> bool {
    if let Some((folder, ending)) = named.split_once('*') {
        return [root.join(folder), root.join("src").join(folder)]
            .iter()
            .filter_map(|dir| std::fs::read_dir(dir).ok())
            .flatten()
            .any(|entry| {
                entry
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(ending)
            });
    }
    let trimmed = named.trim_end_matches('/');
    if root.join(trimmed).exists() || root.join("src").join(trimmed).exists() {
        return true;
    }
    let ending: PathBuf = trimmed.split('/').collect();
    everything.iter().any(|path| path.ends_with(&ending))
}

#[test]
fn every_path_the_contributor_pages_name_exists() {
    let root = repo();
    let mut everything = Vec::new();
    files_under(&root, &mut everything);
    let mut missing = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        for named in named_paths(&text) {
            if !exists(&named, &root, &everything) {
                missing.push(format!("{page}: `{named}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths named in the contributor pages that are not in the tree:\n{}",
        missing.join("\n")
    );
}

/// The check sees a path that is gone, in backticks and as a link, and takes a wing-relative
/// path or a glob that exists for one.
#[test]
fn a_path_that_is_gone_is_seen() {
    let root = repo();
    let mut everything = Vec::new();
    files_under(&root, &mut everything);
    let page = "See `src/cli/gone.rs`, [the guide](docs/gone.md), `exact/sweep.rs`, \
                `formats/*.toml`, `src/cards/`, `Cargo.toml` and `crate::cards::CardDb`.";
    let named = named_paths(page);
    assert_eq!(
        named,
        [
            "Cargo.toml",
            "docs/gone.md",
            "exact/sweep.rs",
            "formats/*.toml",
            "src/cards/",
            "src/cli/gone.rs"
        ]
    );
    let gone: Vec<&String> = named
        .iter()
        .filter(|path| !exists(path, &root, &everything))
        .collect();
    assert_eq!(gone, ["docs/gone.md", "src/cli/gone.rs"]);
}
