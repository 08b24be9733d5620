//! Keeps the README and docs/ true: every ```console block is run and its output compared,
//! every ```toml block loads, the quick start commands work, and CI runs the README's test
//! command.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// The README and every page under docs/, one after the other.
fn documentation() -> String {
    let mut pages: Vec<_> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    let mut text = readme();
    for page in pages {
        text.push_str(&std::fs::read_to_string(page).unwrap());
    }
    text
}

/// `(command line, expected output)` of every console block.
fn console_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```console\n") {
        let body = &rest[start + "```console\n".len()..];
        let end = body.find("\n```").unwrap();
        let block = &body[..end + 1];
        let (command, output) = block.split_once('\n').unwrap();
        let command = command.strip_prefix("$ ").unwrap().to_string();
        blocks.push((command, output.to_string()));
        rest = &body[end..];
    }
    blocks
}

fn deckbox(args: &[&str]) -> (i32, String) {
    let output = crate::common::deckbox_command()
        .args(args)
        .current_dir(repo())
        .env_remove("DECKBOX_CARDS")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// Runs a documented command line exactly as a reader would paste it: through `sh -c`, with
/// the `deckbox` under test first on `PATH`. Quoting, `&`, `>` and `|` mean to the test what
/// they mean to the reader's shell (an unquoted `--want A>=1&B>=1` sends the output to a file
/// named `=1` and backgrounds the command, so its documented output is not what it prints).
fn shell(command: &str, dir: &std::path::Path) -> (i32, String) {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_deckbox"));
    let bin_dir = binary.parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("DECKBOX_TODAY", crate::common::TODAY)
        .env_remove("DECKBOX_AS_OF")
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn console_examples_print_what_the_readme_shows() {
    let blocks = console_blocks(&documentation());
    assert!(blocks.len() >= 2, "no console blocks found");
    // A copy of the examples, so that a command the shell reads as a redirection writes
    // nowhere in the checkout.
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("examples"), &dir.path().join("examples"));
    // Blocks of other tools (docs/fuzzing.md's `fuzz/run.sh`) are not deckbox's to run.
    for (command, expected) in blocks.iter().filter(|(c, _)| c.starts_with("deckbox ")) {
        let (_, stdout) = shell(command, dir.path());
        assert_eq!(
            &stdout, expected,
            "documented output of `{command}`, run by sh, is stale"
        );
    }
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The runner is a shell: quotes keep `&` and `>` in an argument, and without them the
/// shell cuts the line, so the output differs from the documented one.
#[test]
fn documented_commands_are_read_by_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let (code, quoted) = shell(
        "deckbox explain 'copy-limit' && echo ok>done.txt",
        dir.path(),
    );
    assert_eq!(code, 0);
    assert!(quoted.contains("copy-limit"), "{quoted}");
    assert!(dir.path().join("done.txt").exists());
    let (_, unquoted) = shell("echo Tarsal>=1&Kirlia>=1", dir.path());
    assert_eq!(unquoted, "", "the shell redirected and backgrounded it");
}

#[test]
fn quick_start_commands_work() {
    let text = readme();
    assert!(text.contains("cargo run --release -- check examples/dragapult.txt"));
    assert!(text.contains("cargo test --release"));
    let (code, stdout) = deckbox(&["check", "examples/dragapult.txt"]);
    assert_eq!(code, 0, "{stdout}");
    let shown = "`examples/dragapult.txt: valid (60 cards, format standard as of 2026-11-25)`";
    assert!(text.contains(shown));
    assert_eq!(format!("`{}`", stdout.trim_end()), shown);
}

#[test]
fn ci_runs_the_readme_test_command() {
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    assert!(ci.contains("cargo test --release"));
    assert!(ci.contains("DECKBOX_NO_SKIP=1"));
    assert!(ci.contains("cargo fmt --all -- --check"));
    assert!(ci.contains("cargo clippy --all-targets -- -D warnings"));
}

/// The README's ```toml blocks: format files (they `extend` a format) load as formats, and
/// deckbox.toml examples (they have `[files]` or `[[overrides]]`) parse as configuration.
fn toml_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```toml\n") {
        let body = &rest[start + "```toml\n".len()..];
        let end = body.find("```").unwrap();
        blocks.push(body[..end].to_string());
        rest = &body[end..];
    }
    blocks
}

#[test]
fn format_file_examples_load() {
    let blocks = toml_blocks(&documentation());
    let formats: Vec<&String> = blocks.iter().filter(|b| b.contains("extends")).collect();
    assert_eq!(formats.len(), 1);
    for body in formats {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("example.toml");
        std::fs::write(&path, body).unwrap();
        let format = deckbox::formats::Format::load(path.to_str().unwrap()).unwrap();
        let standard = deckbox::formats::Format::load("standard").unwrap();
        assert_eq!(
            format.pool, standard.pool,
            "extends keeps the parent's pool"
        );
        assert_eq!(format.construction.deck_size, 40);
    }
}

#[test]
fn config_examples_parse() {
    let blocks = toml_blocks(&documentation());
    let configs: Vec<&String> = blocks
        .iter()
        .filter(|b| b.contains("[files]") || b.contains("[[overrides]]"))
        .collect();
    let formats = blocks.iter().filter(|b| b.contains("extends")).count();
    // The user guide's, docs/pre-commit.md's and docs/formats.md's deckbox.toml.
    assert_eq!(configs.len(), 3);
    assert_eq!(
        blocks.len(),
        configs.len() + formats,
        "every toml block is a format or a config"
    );
    for body in configs {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deckbox.toml");
        let config = deckbox::settings::config::parse(&path, body).unwrap();
        assert_eq!(config.format.map(|f| f.value).as_deref(), Some("standard"));
        assert!(!config.overrides.is_empty());
        // An override gives a format, a date or both.
        for entry in &config.overrides {
            assert!(entry.format.is_some() || entry.as_of.is_some());
        }
    }
}

/// docs/rules.md is written from the rule registry (`cargo xtask rules`): the committed page
/// must be what the registry says today.
#[test]
fn the_rules_reference_is_current() {
    let committed = std::fs::read_to_string(repo().join("docs/rules.md")).unwrap_or_default();
    assert!(
        committed == deckbox::render::rules_reference::markdown(),
        "docs/rules.md is out of date: run `cargo xtask rules`"
    );
}
