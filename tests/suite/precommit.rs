#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The pre-commit hooks in `.pre-commit-hooks.yaml`, run as pre-commit runs them: in a
//! scratch git repository of decks, each hook's `entry` gets the staged files its `files`
//! pattern matches. pre-commit itself would build deckbox from this repository with cargo
//! (network access); here the entry's `deckbox` is the binary under test.

use crate::common;

use common::repo;
use std::path::Path;
use std::process::Command;

/// One hook of `.pre-commit-hooks.yaml`: the keys this test relies on.
#[derive(Debug, Default)]
struct Hook {
    id: String,
    entry: String,
    language: String,
    files: String,
}

/// Reads the hooks file: a YAML list of flat `key: value` maps, which is all it holds (a
/// line of any other shape fails the test, so the file cannot drift out of what this reads).
fn hooks() -> Vec<Hook> {
    let text = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    let mut hooks: Vec<Hook> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (item, field) = match line.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, line.strip_prefix("  ").expect(line)),
        };
        if item {
            hooks.push(Hook::default());
        }
        let (key, value) = field.split_once(": ").expect(line);
        let hook = hooks.last_mut().expect("a key before the first hook");
        let value = value.trim().to_string();
        match key {
            "id" => hook.id = value,
            "entry" => hook.entry = value,
            "language" => hook.language = value,
            "files" => hook.files = value,
            "name" | "description" => {}
            other => panic!("unexpected key {other} in .pre-commit-hooks.yaml"),
        }
    }
    hooks
}

/// `git args` in `dir`, with `dir` as the home and a fixed identity: nothing of the
/// caller's git configuration leaks in.
fn git_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("git");
    command
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env("GIT_AUTHOR_NAME", "deckbox test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "deckbox test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid");
    command
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = git_command(dir, args).output().unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `hook` on the repository's staged files, as pre-commit does; `None` when no staged
/// file matches (pre-commit then skips the hook).
fn run_hook(dir: &Path, hook: &Hook) -> Option<(i32, String)> {
    let pattern = regex::Regex::new(&hook.files).unwrap();
    let staged = git(dir, &["diff", "--cached", "--name-only"]);
    let files: Vec<&str> = staged.lines().filter(|f| pattern.is_match(f)).collect();
    if files.is_empty() {
        return None;
    }
    let mut words = hook.entry.split_whitespace();
    assert_eq!(words.next(), Some("deckbox"), "{hook:?}");
    let output = crate::common::deckbox_command()
        .args(words)
        .args(&files)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Some((output.status.code().unwrap_or(-1), text))
}

fn deckbox(dir: &Path, args: &[&str]) -> String {
    let output = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn hooks_file_declares_check_and_fmt() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["deckbox-check", "deckbox-fmt"]);
    for hook in &hooks {
        assert_eq!(
            hook.language, "rust",
            "pre-commit builds deckbox with cargo"
        );
        let pattern = regex::Regex::new(&hook.files).unwrap();
        assert!(pattern.is_match("decks/dragapult.txt"));
        assert!(!pattern.is_match("README.md"));
    }
}

/// A deck repository with a deckbox.toml: the check hook fails on a broken deck and passes
/// once it is fixed; the fmt hook fails on a non-canonical list (printing the diff) and passes
/// after `deckbox fmt --write`.
#[test]
fn hooks_run_in_a_scratch_repository() {
    if !crate::common::tool("git", "--version", "hooks_run_in_a_scratch_repository") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("deckbox.toml"), "format = \"standard\"\n").unwrap();
    std::fs::create_dir(root.join("decks")).unwrap();
    let examples = repo().join("examples");
    let canonical = deckbox(&examples, &["fmt", "dragapult.txt"]);
    let dragapult = reorder(&canonical);
    assert_ne!(
        canonical, dragapult,
        "the list is not canonical, so fmt has work"
    );
    std::fs::write(root.join("decks/canonical.txt"), &canonical).unwrap();
    std::fs::write(root.join("README.md"), "# decks\n").unwrap();
    git(root, &["add", "."]);
    let hooks = hooks();
    let (check, fmt) = (&hooks[0], &hooks[1]);
    assert_eq!(run_hook(root, check).unwrap().0, 0);
    assert_eq!(run_hook(root, fmt).unwrap().0, 0);

    // A broken deck is staged: the check hook names it and fails.
    let broken = std::fs::read_to_string(examples.join("broken.txt")).unwrap();
    std::fs::write(root.join("decks/broken.txt"), broken).unwrap();
    git(root, &["add", "decks/broken.txt"]);
    let (code, out) = run_hook(root, check).unwrap();
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("decks/broken.txt:2:1: error copy-limit"),
        "{out}"
    );
    assert!(!out.contains("canonical.txt:"), "{out}");
    git(root, &["rm", "-q", "--cached", "decks/broken.txt"]);
    std::fs::remove_file(root.join("decks/broken.txt")).unwrap();

    // A valid but non-canonical deck: check passes, fmt fails with a diff, then is fixed.
    std::fs::write(root.join("decks/messy.txt"), &dragapult).unwrap();
    git(root, &["add", "decks/messy.txt"]);
    assert_eq!(run_hook(root, check).unwrap().0, 0);
    let (code, out) = run_hook(root, fmt).unwrap();
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("+++ b/decks/messy.txt"), "{out}");
    deckbox(root, &["fmt", "--write", "decks/messy.txt"]);
    git(root, &["add", "decks/messy.txt"]);
    assert_eq!(run_hook(root, fmt).unwrap().0, 0);
    let fixed = std::fs::read_to_string(root.join("decks/messy.txt")).unwrap();
    assert_eq!(fixed, canonical);

    // Nothing matching staged: pre-commit skips the hooks.
    git(root, &["commit", "-q", "-m", "decks", "--no-verify"]);
    std::fs::write(root.join("README.md"), "# decks, updated\n").unwrap();
    git(root, &["add", "README.md"]);
    assert!(run_hook(root, check).is_none());
}

/// The `deckbox.toml` shown in docs/pre-commit.md is accepted as written.
#[test]
fn documented_config_is_valid() {
    let doc = std::fs::read_to_string(repo().join("docs/pre-commit.md")).unwrap();
    let toml = doc
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block in docs/pre-commit.md");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deckbox.toml"), toml).unwrap();
    let output = crate::common::deckbox_command()
        .arg("config")
        .current_dir(dir.path())
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("standard"), "{stdout}");
    assert!(stdout.contains("decks/expanded/**"), "{stdout}");
}

/// A `[[overrides]]` entry of deckbox.toml picks the format of one-file commands as it does
/// for `check`: the verdict after `remove` and the format `stats` reads; `--format` still wins.
#[test]
fn per_path_overrides_reach_single_file_commands() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let config = "[[overrides]]\npaths = [\"glc/**\"]\nformat = \"glc\"\n";
    std::fs::write(root.join("deckbox.toml"), config).unwrap();
    std::fs::create_dir(root.join("glc")).unwrap();
    std::fs::copy(
        repo().join("examples/dragapult.txt"),
        root.join("glc/deck.txt"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let output = crate::common::deckbox_command()
            .args(args)
            .current_dir(root)
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.code().unwrap_or(-1), text)
    };
    let (code, out) = run(&["remove", "glc/deck.txt", "1 Dawn", "--dry-run"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("format glc"), "{out}");
    let (code, out) = run(&[
        "remove",
        "glc/deck.txt",
        "1 Dawn",
        "--dry-run",
        "-f",
        "unlimited",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("format unlimited"), "{out}");
    let (code, out) = run(&["stats", "glc/deck.txt", "--output", "json"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("note: the deck breaks"),
        "judged under GLC: {out}"
    );
}

/// docs/pre-commit.md's remote setup, run by pre-commit itself: its `.pre-commit-config.yaml`
/// (with `repo:` pointed at a clone of this repository tagged with the documented `rev:`)
/// and its `deckbox.toml` in a scratch deck repository, `pre-commit install`, then real
/// `git commit`s: a valid Standard deck is committed with no card setup (the embedded index
/// knows every card), a broken one is refused with the findings. pre-commit runs
/// `cargo install --bins --root ENV --path .` in its checkout of the hook repository at
/// `rev:`; a `cargo` first on the test's PATH answers that one call by copying the binary
/// under test into `ENV/bin` (after checking it runs in a deckbox checkout) and hands every
/// other call to the real cargo, so the suite does not build deckbox a third time (it took
/// 946 s of a loaded CI run); that the crate installs from a checkout is `cargo install`'s
/// job, which `tests/suite/package.rs` covers. It needs `pre-commit` on the PATH: skipped
/// with a note without it, failed without it when `DECKBOX_NO_SKIP=1` (CI installs
/// it). The clone is of the committed HEAD.
#[cfg(unix)]
#[test]
fn the_documented_setup_commits_good_decks_and_refuses_broken_ones() {
    if !pre_commit_available() {
        return;
    }
    let block = |lang: &str| -> String {
        doc_blocks(lang)
            .into_iter()
            .find(|block| lang != "yaml" || block.contains("rev: "))
            .expect(lang)
    };
    let scratch = tempfile::tempdir().unwrap();
    // This repository, as pre-commit would fetch it: a git clone with the documented tag.
    let clone = scratch.path().join("deckbox");
    let source = repo();
    git(
        scratch.path(),
        &[
            "clone",
            "-q",
            source.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let config_yaml = block("yaml");
    let rev = config_yaml
        .lines()
        .find_map(|line| line.trim().strip_prefix("rev: "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("a rev: line")
        .to_string();
    // A commit of this history is in the clone already; a tag is made as the repository
    // would have published it.
    let is_commit = rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit());
    if is_commit {
        git(&clone, &["cat-file", "-e", &format!("{rev}^{{commit}}")]);
    } else {
        git(&clone, &["tag", &rev]);
    }
    let config_yaml: String = config_yaml
        .lines()
        .map(|line| match line.trim().strip_prefix("- repo: ") {
            Some(_) => format!("  - repo: {}\n", clone.display()),
            None => format!("{line}\n"),
        })
        .collect();
    assert!(config_yaml.contains(&clone.display().to_string()));

    let decks = scratch.path().join("decks-repo");
    std::fs::create_dir_all(decks.join("decks")).unwrap();
    git(&decks, &["init", "-q", "-b", "main"]);
    std::fs::write(decks.join(".pre-commit-config.yaml"), config_yaml).unwrap();
    std::fs::write(decks.join("deckbox.toml"), block("toml")).unwrap();
    let path = cargo_that_installs_the_binary_under_test(scratch.path());
    let pre_commit = |args: &[&str]| {
        Command::new("pre-commit")
            .args(args)
            .current_dir(&decks)
            .env("PRE_COMMIT_HOME", scratch.path().join("pre-commit-home"))
            .env("HOME", &decks)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("PATH", &path)
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap()
    };
    let installed = pre_commit(&["install"]);
    assert!(installed.status.success(), "{installed:?}");
    let commit = |message: &str| {
        let output = git_command(&decks, &["commit", "-q", "-m", message])
            .env("PRE_COMMIT_HOME", scratch.path().join("pre-commit-home"))
            .env("PATH", &path)
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    };

    // A valid Standard deck in the canonical layout: both hooks pass, the commit lands.
    let examples = source.join("examples");
    let canonical = deckbox(&examples, &["fmt", "dragapult.txt"]);
    std::fs::write(decks.join("decks/dragapult.txt"), canonical).unwrap();
    git(&decks, &["add", "."]);
    let (ok, out) = commit("a good deck");
    assert!(ok, "the good deck was refused:\n{out}");
    assert!(
        out.contains("deckbox check") && out.contains("Passed"),
        "{out}"
    );

    // The broken example: refused, with its findings.
    let broken = std::fs::read_to_string(examples.join("broken.txt")).unwrap();
    std::fs::write(decks.join("decks/lost-box.txt"), broken).unwrap();
    git(&decks, &["add", "decks/lost-box.txt"]);
    let (ok, out) = commit("a broken deck");
    assert!(!ok, "the broken deck was committed:\n{out}");
    assert!(
        out.contains("decks/lost-box.txt:2:1: error copy-limit: 5 cards named 'Dreepy'"),
        "{out}"
    );
    let log = git(&decks, &["log", "--oneline"]);
    assert_eq!(log.lines().count(), 1, "{log}");
    // pre-commit asked for the install, in its checkout of this repository.
    let asked = std::fs::read_to_string(scratch.path().join("cargo-install.log")).unwrap();
    assert!(asked.contains("install --bins --root"), "{asked}");
}

/// A folder holding a `cargo` that answers `cargo install ... --root DIR` in a deckbox
/// checkout by copying the binary under test to `DIR/bin/deckbox` (and notes the call in
/// `scratch/cargo-install.log`); any other call runs the real cargo. Returns the `PATH` with
/// that folder first.
#[cfg(unix)]
fn cargo_that_installs_the_binary_under_test(scratch: &Path) -> std::ffi::OsString {
    use std::os::unix::fs::PermissionsExt;
    let bin = scratch.join("shim-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let script = format!(
        r#"#!/bin/sh
if [ "$1" = install ]; then
  echo "$*" >> '{log}'
  grep -q '^name = "deckbox"' Cargo.toml || {{ echo "not a deckbox checkout: $PWD" >&2; exit 101; }}
  root=; prev=
  for arg in "$@"; do [ "$prev" = --root ] && root=$arg; prev=$arg; done
  [ -n "$root" ] || {{ echo "no --root" >&2; exit 101; }}
  mkdir -p "$root/bin" && cp '{binary}' "$root/bin/deckbox"
  exit $?
fi
exec '{real}' "$@"
"#,
        log = scratch.join("cargo-install.log").display(),
        binary = env!("CARGO_BIN_EXE_deckbox"),
    );
    let shim = bin.join("cargo");
    std::fs::write(&shim, script).unwrap();
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = std::ffi::OsString::from(&bin);
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(":");
        path.push(rest);
    }
    path
}

/// pre-commit is on the `PATH`; without it a test says so and returns, or fails when
/// `DECKBOX_REQUIRE_PRECOMMIT=1` (CI installs it).
fn pre_commit_available() -> bool {
    crate::common::tool("pre-commit", "--version", "the documented pre-commit setup")
}

/// The ```` ```lang ```` blocks of docs/pre-commit.md, in order, as written.
fn doc_blocks(lang: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(repo().join("docs/pre-commit.md")).unwrap();
    let fence = format!("```{lang}\n");
    doc.split(&fence)
        .skip(1)
        .map(|rest| rest.split("```").next().expect("closing fence").to_string())
        .collect()
}

/// docs/pre-commit.md's first setup, with the deckbox a user installed: its
/// `.pre-commit-config.yaml` and `deckbox.toml` exactly as written, in a scratch deck
/// repository, the deckbox under test on the `PATH` and nothing else (no network, no
/// build), then real `git commit`s through the installed hook: a broken deck is refused with
/// its findings and committed once fixed; a valid list out of the canonical layout is
/// refused with the diff and committed after `deckbox fmt --write`.
#[test]
fn the_documented_local_setup_works_as_written() {
    if !pre_commit_available() {
        return;
    }
    let config_yaml = doc_blocks("yaml").into_iter().next().unwrap();
    assert!(
        config_yaml.contains("repo: local"),
        "the page leads with the local setup"
    );
    // The local hooks run what .pre-commit-hooks.yaml declares for the remote setup.
    for hook in hooks() {
        assert!(
            config_yaml.contains(&format!("id: {}", hook.id)),
            "{}",
            hook.id
        );
        assert!(
            config_yaml.contains(&format!("entry: {}", hook.entry)),
            "{}",
            hook.entry
        );
    }
    let scratch = tempfile::tempdir().unwrap();
    let bin = scratch.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_deckbox"),
        bin.join(format!("deckbox{}", std::env::consts::EXE_SUFFIX)),
    )
    .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let decks = scratch.path().join("decks-repo");
    std::fs::create_dir_all(decks.join("decks")).unwrap();
    git(&decks, &["init", "-q", "-b", "main"]);
    std::fs::write(decks.join(".pre-commit-config.yaml"), &config_yaml).unwrap();
    std::fs::write(decks.join("deckbox.toml"), &doc_blocks("toml")[0]).unwrap();
    let home = scratch.path().join("pre-commit-home");
    let with_env = |command: &mut Command| {
        command
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", &home)
            .env("DECKBOX_TODAY", crate::common::TODAY)
            .env("DECKBOX_CACHE_DIR", scratch.path().join("cache"))
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .env_remove("DECKBOX_AS_OF");
    };
    let mut install = Command::new("pre-commit");
    install
        .arg("install")
        .current_dir(&decks)
        .env("HOME", &decks);
    with_env(&mut install);
    let installed = install.output().unwrap();
    assert!(installed.status.success(), "{installed:?}");
    let commit = |message: &str| {
        let mut command = git_command(&decks, &["commit", "-q", "-m", message]);
        with_env(&mut command);
        let output = command.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    };
    let examples = repo().join("examples");
    let canonical = deckbox(&examples, &["fmt", "dragapult.txt"]);

    // The broken example is refused, with its findings.
    let broken = std::fs::read_to_string(examples.join("broken.txt")).unwrap();
    std::fs::write(decks.join("decks/lost-box.txt"), &broken).unwrap();
    std::fs::write(decks.join("README.md"), "# decks\n").unwrap();
    git(&decks, &["add", "."]);
    let (ok, out) = commit("a broken deck");
    assert!(!ok, "the broken deck was committed:\n{out}");
    assert!(
        out.contains("deckbox check") && out.contains("Failed"),
        "{out}"
    );
    assert!(
        out.contains("decks/lost-box.txt:2:1: error copy-limit: 5 cards named 'Dreepy'"),
        "{out}"
    );

    // Fixed (the valid list, canonical): both hooks pass and the commit lands.
    std::fs::write(decks.join("decks/lost-box.txt"), &canonical).unwrap();
    git(&decks, &["add", "."]);
    let (ok, out) = commit("the deck, fixed");
    assert!(ok, "the fixed deck was refused:\n{out}");
    assert!(
        out.contains("deckbox check") && out.contains("Passed"),
        "{out}"
    );

    // A valid list out of the canonical layout: fmt refuses it with the diff, then
    // `deckbox fmt --write` fixes it.
    let messy = reorder(&canonical);
    assert_ne!(messy, canonical);
    std::fs::write(decks.join("decks/messy.txt"), &messy).unwrap();
    git(&decks, &["add", "decks/messy.txt"]);
    let (ok, out) = commit("a messy list");
    assert!(!ok, "the messy list was committed:\n{out}");
    assert!(
        out.contains("deckbox fmt") && out.contains("+++ b/decks/messy.txt"),
        "{out}"
    );
    deckbox(&decks, &["fmt", "--write", "decks/messy.txt"]);
    git(&decks, &["add", "decks/messy.txt"]);
    let (ok, out) = commit("the list, formatted");
    assert!(ok, "the formatted list was refused:\n{out}");
    let log = git(&decks, &["log", "--oneline"]);
    assert_eq!(log.lines().count(), 2, "{log}");
}

/// docs/pre-commit.md's `language: python` setup, run by pre-commit itself: its
/// `.pre-commit-config.yaml` as written but for the pinned `deckbox==VERSION` (not on PyPI
/// yet), which becomes the path of the wheel built here; pre-commit makes its
/// virtual environment and pip-installs the wheel with no index (`PIP_NO_INDEX`; its
/// placeholder package builds with the environment's own setuptools), then the hooks refuse a
/// broken deck with its findings and let a good one through.
#[cfg(unix)]
#[test]
fn the_documented_wheel_setup_installs_and_runs_the_hooks() {
    if !pre_commit_available()
        || !crate::common::tool("maturin", "--version", "the documented wheel setup")
    {
        return;
    }
    let config_yaml = doc_blocks("yaml")
        .into_iter()
        .find(|block| block.contains("language: python"))
        .expect("a language: python block");
    let pin = format!("deckbox=={}", env!("CARGO_PKG_VERSION"));
    assert!(
        config_yaml.contains(&format!("[\"{pin}\"]")),
        "{config_yaml}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let wheel = crate::wheel::built_wheel();
    let config_yaml = config_yaml.replace(&pin, wheel.to_str().unwrap());
    let decks = scratch.path().join("decks-repo");
    std::fs::create_dir_all(decks.join("decks")).unwrap();
    git(&decks, &["init", "-q", "-b", "main"]);
    std::fs::write(decks.join(".pre-commit-config.yaml"), &config_yaml).unwrap();
    let examples = repo().join("examples");
    let broken = std::fs::read_to_string(examples.join("broken.txt")).unwrap();
    std::fs::write(decks.join("decks/lost-box.txt"), &broken).unwrap();
    git(&decks, &["add", "."]);
    let run = || {
        let output = Command::new("pre-commit")
            .args(["run", "--all-files"])
            .current_dir(&decks)
            .env("PRE_COMMIT_HOME", scratch.path().join("pre-commit-home"))
            .env("HOME", &decks)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("PIP_NO_INDEX", "1")
            .env("PIP_NO_BUILD_ISOLATION", "0")
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .env("VIRTUALENV_NO_PERIODIC_UPDATE", "1")
            .env("DECKBOX_TODAY", crate::common::TODAY)
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .env_remove("DECKBOX_AS_OF")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    };
    let (ok, out) = run();
    assert!(!ok, "the broken deck passed:\n{out}");
    assert!(
        out.contains("decks/lost-box.txt:2:1: error copy-limit: 5 cards named 'Dreepy'"),
        "{out}"
    );
    let canonical = deckbox(&examples, &["fmt", "dragapult.txt"]);
    std::fs::write(decks.join("decks/lost-box.txt"), &canonical).unwrap();
    git(&decks, &["add", "."]);
    let (ok, out) = run();
    assert!(ok, "the good deck was refused:\n{out}");
    assert!(
        out.contains("deckbox check") && out.contains("Passed"),
        "{out}"
    );
}

/// A valid list as a player might type it: the canonical list with the card lines of each
/// section in reverse order.
fn reorder(canonical: &str) -> String {
    let mut out = String::new();
    for section in canonical.split("\n\n") {
        let mut lines: Vec<&str> = section.lines().collect();
        if lines.len() > 2 {
            lines[1..].reverse();
        }
        out.push_str(&lines.join("\n"));
        out.push_str("\n\n");
    }
    format!("{}\n", out.trim_end())
}
