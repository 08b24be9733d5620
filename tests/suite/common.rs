//! Helpers shared by the integration tests.
#![allow(clippy::print_stderr, reason = "a skipped test says so on stderr")]
#![allow(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A temporary directory holding copies of `files` (paths relative to the repository), for
/// running the binary where reports name files by their short names.
pub fn workspace(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in files {
        let from = repo().join(file);
        let name = from.file_name().unwrap();
        std::fs::copy(&from, dir.path().join(name)).unwrap();
    }
    dir
}

/// How many times this run of the suite went without something it needed.
static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// The one policy for a test that needs what a machine may lack (`../shared/data`, or an
/// external tool: Chromium, poppler, tmux, pre-commit, git, a shell): `found` is whether it
/// is there. When it is not, the test fails if `DECKBOX_NO_SKIP=1` (`.ci/run` sets it, after
/// installing every tool), and otherwise says so and returns `false` so the test (or its
/// part) is skipped. The note goes straight to the process's stderr, past the test harness's
/// capture, with the count of skips so far, so a run that skipped anything shows it.
pub fn needs(found: bool, test: &str, what: &str) -> bool {
    if found {
        return true;
    }
    assert!(
        std::env::var("DECKBOX_NO_SKIP").as_deref() != Ok("1"),
        "{test}: {what} is missing, and DECKBOX_NO_SKIP=1 turns every skip into a failure"
    );
    let count = SKIPPED.fetch_add(1, Ordering::SeqCst) + 1;
    let _ = writeln!(
        std::io::stderr(),
        "note: skipped ({count} so far): {test}: {what} is missing (DECKBOX_NO_SKIP=1 makes it fail)"
    );
    false
}

/// `../shared/data` beside the repository, when present; under the policy of [`needs`].
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    needs(dir.join("SOURCES.md").is_file(), test, "../shared/data").then_some(dir)
}

/// Whether `program` runs (`program arg` succeeds); under the policy of [`needs`].
pub fn tool(program: &str, arg: &str, test: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|out| out.status.success());
    needs(found, test, program)
}

/// `../shared/rulebooks` beside the repository, under the same policy as [`shared_data`].
pub fn rulebooks(test: &str) -> Option<PathBuf> {
    shared_data(test).map(|data| data.join("../rulebooks"))
}

/// The date the tests take for today (`DECKBOX_TODAY`), so that outputs naming the date
/// and the season in effect do not change from day to day.
pub const TODAY: &str = "2026-11-25";

/// The `deckbox` binary, told that today is [`TODAY`]. A test about the clock removes the
/// variable.
pub fn deckbox_command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_deckbox"));
    command
        .env("DECKBOX_TODAY", TODAY)
        .env_remove("DECKBOX_AS_OF")
        // Never the index a `deckbox cards update` of the user installed: a folder that
        // holds none (a test of updates gives its own).
        .env(
            "DECKBOX_DATA_DIR",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-card-update"),
        );
    command
}

/// Runs the `deckbox` binary in `dir` with `args`, feeding `stdin`, and renders what it did
/// for a snapshot: exit code, stdout, stderr. The environment cannot leak in: no card
/// database or format from the caller's variables, a fixed width, a cache inside `dir`.
pub fn run_deckbox(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("COLUMNS", "100")
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The binary may exit before reading its input (argument errors): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let output = child.wait_with_output().unwrap();
    let code = output.status.code().unwrap_or(-1);
    let rendered = format!(
        "exit: {code}\n--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (code, rendered)
}

/// The stdout part of what [`run_deckbox`] rendered (between its two markers).
pub fn stdout_of(rendered: &str) -> &str {
    let stdout = rendered
        .split_once("--- stdout\n")
        .map_or("", |(_, rest)| rest);
    stdout
        .split_once("--- stderr")
        .map_or(stdout, |(out, _)| out)
}

/// The TCGdex checkout of `../shared/data` as a card database (its index cached in the
/// build tree), under the same policy as [`shared_data`].
pub fn tcgdex(test: &str) -> Option<deckbox::cards::CardDb> {
    shared_data(test).map(|data| {
        let options = deckbox::cards::storage::checkout_cache::IndexOptions {
            cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deckbox-cache")),
            rebuild: false,
        };
        deckbox::cards::storage::checkout_cache::open(&data.join("tcgdex-repo"), &options).unwrap()
    })
}

/// `git` in `dir` as the repositories the tests make need it: a fixed author (`t <t@t>`),
/// no signing, `main` as a new repository's branch, and none of the user's or the system's
/// configuration.
pub fn git_command(dir: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new("git");
    command
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    command
}
