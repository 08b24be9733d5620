#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The crate as `cargo package` makes it (what `cargo install deckbox` would build): the
//! `include` list of `Cargo.toml` holds every file the build embeds and every licence, leaves
//! the tests, benches, fixtures and docs out, and the `.crate` stays within crates.io's
//! 10 MB; the metadata crates.io shows is complete.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::repo;

/// crates.io refuses a `.crate` larger than this (its default upload limit).
const CRATES_IO_LIMIT: u64 = 10_000_000;
/// Bytes kept free under [`CRATES_IO_LIMIT`] for the card index to grow (about 1,000 printings).
const ROOM_FOR_GROWTH: u64 = 365_000;

fn manifest() -> toml::Table {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    text.parse().unwrap()
}

fn package() -> toml::Table {
    manifest()["package"].as_table().unwrap().clone()
}

fn strings(value: &toml::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item.as_str().unwrap().to_string())
        .collect()
}

/// Every file under `dir` (relative to the repository, with `/`), skipping build output.
fn files_under(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let relative = path.strip_prefix(repo()).unwrap();
        if relative.starts_with("target") || relative.starts_with(".git") {
            continue;
        }
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The repository's files the `include` list picks (read as cargo reads it: `/` anchors a
/// pattern at the root, `*` stays within a folder). Cargo adds Cargo.toml and Cargo.lock.
fn included() -> BTreeSet<String> {
    let mut builder = globset::GlobSetBuilder::new();
    for pattern in strings(&package()["include"]) {
        let anchored = pattern
            .strip_prefix('/')
            .expect("include patterns are anchored");
        let glob = globset::GlobBuilder::new(anchored)
            .literal_separator(true)
            .build()
            .unwrap();
        builder.add(glob);
    }
    let set = builder.build().unwrap();
    let mut all = Vec::new();
    files_under(&repo(), &mut all);
    all.into_iter().filter(|file| set.is_match(file)).collect()
}

/// The files the build reads through `include_bytes!`/`include_str!`, relative to the
/// repository. A path built with `concat!("dir/", $id, ".ext")` stands for every `.ext` file
/// of `dir`.
fn embedded() -> BTreeSet<String> {
    let mut sources = Vec::new();
    files_under(&repo().join("src"), &mut sources);
    let mut found = BTreeSet::new();
    for source in sources.iter().filter(|file| file.ends_with(".rs")) {
        let text = std::fs::read_to_string(repo().join(source)).unwrap();
        let folder = repo().join(source).parent().unwrap().to_path_buf();
        for (at, _) in text
            .match_indices("include_bytes!(")
            .chain(text.match_indices("include_str!("))
        {
            let call = &text[at..];
            let call = &call[..call.find(')').unwrap()];
            let literals: Vec<&str> = call.split('"').skip(1).step_by(2).collect();
            assert!(!literals.is_empty(), "{source}: {call}");
            if call.contains("concat!(") {
                let (dir, ext) = (literals[0], literals[literals.len() - 1]);
                let dir = normalize(&folder.join(dir));
                let mut all = Vec::new();
                files_under(&repo().join(&dir), &mut all);
                let matching: Vec<String> = all.into_iter().filter(|f| f.ends_with(ext)).collect();
                assert!(!matching.is_empty(), "{source}: {call}");
                found.extend(matching);
            } else {
                found.insert(normalize(&folder.join(literals[0])));
            }
        }
    }
    found
}

/// `path` (absolute, with `..` parts) relative to the repository.
fn normalize(path: &Path) -> String {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            other => parts.push(other.as_os_str()),
        }
    }
    let full: PathBuf = parts.iter().collect();
    full.strip_prefix(repo())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn the_package_holds_what_the_build_embeds_and_every_licence() {
    let included = included();
    let embedded = embedded();
    assert!(
        embedded.contains("cards/index.bin") && embedded.contains("formats/standard.toml"),
        "the scan finds the embedded files: {embedded:?}"
    );
    let missing: Vec<&String> = embedded.difference(&included).collect();
    assert!(missing.is_empty(), "embedded but not packaged: {missing:?}");
    for needed in [
        "LICENSE",
        "cards/LICENSE-TCGdex",
        "assets/fonts/LICENSE-DejaVu.txt",
        "README.md",
        "CHANGELOG.md",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(included.contains(needed), "{needed} is not packaged");
    }
    let unneeded: Vec<&String> = included
        .iter()
        .filter(|file| {
            [
                "tests/",
                "benches/",
                "examples/",
                "docs/",
                "fuzz/",
                "xtask/",
            ]
            .iter()
            .any(|folder| file.starts_with(folder))
                || file.as_str() == "cards/index.tsv"
        })
        .collect();
    assert!(unneeded.is_empty(), "packaged but not needed: {unneeded:?}");
}

/// What gzip makes of the packaged files, a close estimate of the `.crate`'s size (a tar
/// adds 512 bytes a file), stays under crates.io's limit with room for the card index to grow:
/// the four card files gzip to about 350 bytes a printing (21,159 printings: `details.bin`
/// 3.85 MB, `words.bin` 1.88 MB, `index.bin` 1.25 MB, `columns.bin` 0.46 MB), so
/// [`ROOM_FOR_GROWTH`] keeps about 1,000 printings, a year of sets, free. When it fails, the
/// word index (`cards/words.bin`, derived from `details.bin`) is the file to build at compile
/// time instead of shipping it.
#[test]
fn the_package_stays_within_the_crates_io_limit() {
    let mut total = 0u64;
    let mut files = included();
    files.insert("Cargo.lock".to_string());
    files.insert("Cargo.toml".to_string());
    for file in &files {
        let bytes = std::fs::read(repo().join(file)).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &bytes).unwrap();
        total += gz.finish().unwrap().len() as u64 + 512;
    }
    assert!(
        total + ROOM_FOR_GROWTH < CRATES_IO_LIMIT,
        "the packaged files gzip to {total} bytes: less than {ROOM_FOR_GROWTH} under crates.io's {CRATES_IO_LIMIT}"
    );
}

/// `cargo package --list` (offline, no build) agrees with what the include list picks: the
/// patterns mean to cargo what the two tests above read.
#[test]
fn cargo_lists_the_same_files() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args(["package", "--list", "--offline", "--allow-dirty"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let listed: BTreeSet<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|line| {
            !matches!(
                *line,
                "Cargo.toml" | "Cargo.toml.orig" | "Cargo.lock" | ".cargo_vcs_info.json"
            )
        })
        .map(str::to_string)
        .collect();
    assert_eq!(listed, included());
}

/// The metadata crates.io shows and `cargo publish` asks for.
#[test]
fn the_manifest_has_complete_metadata() {
    let package = package();
    let text = |key: &str| {
        package[key]
            .as_str()
            .unwrap_or_else(|| panic!("{key}"))
            .to_string()
    };
    assert!(text("description").len() > 20);
    assert_eq!(text("license"), "MIT");
    assert!(text("repository").starts_with("https://"));
    assert!(repo().join(text("readme")).is_file());
    assert!(text("rust-version").starts_with("1."));
    let keywords = strings(&package["keywords"]);
    assert!((1..=5).contains(&keywords.len()), "{keywords:?}");
    for keyword in &keywords {
        let shape = keyword.len() <= 20
            && keyword.starts_with(|c: char| c.is_ascii_alphabetic())
            && keyword
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        assert!(shape, "crates.io refuses the keyword {keyword:?}");
    }
    // Slugs from crates.io's category list (crates.io/category_slugs).
    let known = [
        "command-line-utilities",
        "games",
        "game-development",
        "parser-implementations",
    ];
    let categories = strings(&package["categories"]);
    assert!((1..=5).contains(&categories.len()), "{categories:?}");
    for category in &categories {
        assert!(
            known.contains(&category.as_str()),
            "unknown category {category}"
        );
    }
    // The repository the docs name is the one the manifest names.
    let pre_commit = std::fs::read_to_string(repo().join("docs/pre-commit.md")).unwrap();
    assert!(
        pre_commit.contains(&text("repository")),
        "docs/pre-commit.md"
    );
}

/// Every feature is on by default, so `cargo install`, `cargo build` and the README's
/// commands make the whole `deckbox`; the binary needs the command line.
#[test]
fn every_feature_is_on_by_default() {
    let manifest = manifest();
    let features = manifest["features"].as_table().unwrap();
    let default: BTreeSet<String> = strings(&features["default"]).into_iter().collect();
    let all: BTreeSet<String> = features
        .keys()
        .filter(|name| *name != "default")
        .cloned()
        .collect();
    assert_eq!(default, all);
    let bins = manifest["bin"].as_array().unwrap();
    assert!(
        bins.iter()
            .any(|bin| bin["name"].as_str() == Some("deckbox")
                && strings(&bin["required-features"]) == ["cli"]),
        "{bins:?}"
    );
}

/// `cargo build` and `cargo test` share one compiled deckbox only when the dev-dependencies
/// turn on no feature of a crate the build uses that the build itself lacks: otherwise that
/// crate, every crate above it and deckbox are compiled twice (CONTRIBUTING.md measures the
/// edit loop). `cargo tree` resolves features without the dev-dependencies and with them.
#[test]
fn dev_dependencies_change_no_shared_crate() {
    let features = |edges: &str| -> BTreeSet<String> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = std::process::Command::new(cargo)
            .args(["tree", "--offline", "--locked", "--package", "deckbox"])
            .args([
                "--prefix",
                "none",
                "--format",
                "{p} [{f}]",
                "--edges",
                edges,
            ])
            .current_dir(repo())
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| line.trim_end_matches(" (*)").to_string())
            .collect()
    };
    let build = features("normal,build");
    let test = features("normal,build,dev");
    let split: Vec<&String> = build.difference(&test).collect();
    assert!(
        split.is_empty(),
        "the dev-dependencies turn on more features of {split:?}: name those crates with \
         the features `cargo tree -e normal,build,dev` lists in Cargo.toml's [dependencies]"
    );
}
