//! `deckbox build` driven for real: the binary runs in a detached tmux session (a real
//! terminal of a fixed size), keys are sent as a person types them, and the screen is read
//! with `tmux capture-pane`. The state and the drawing are tested without a terminal in
//! `src/builder/tests.rs` and `src/cli/builder/tests.rs`; this proves the wiring: raw mode,
//! keys, redraws, saving, quitting. Skips with a note when tmux is missing, unless `DECKBOX_NO_SKIP=1` (as
//! `.ci/run` sets after installing it). Also: what `build` refuses without a terminal.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;

/// Longest wait for the screen to show what a step expects: the debug binary on a busy
/// machine takes about a second to open the card index.
const PATIENCE: Duration = Duration::from_secs(60);

pub(crate) fn tmux_available() -> bool {
    common::tool("tmux", "-V", "build_tmux")
}

/// A tmux server of its own (`-L`), so the test touches no session of the user's.
pub(crate) struct Session {
    socket: String,
}

impl Session {
    pub(crate) fn start(dir: &Path, width: u16, height: u16, command: &str) -> Session {
        // Tests run in parallel: each session has a server of its own.
        static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("deckbox-test-{}-{n}", std::process::id());
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", &width.to_string(), "-y", &height.to_string()])
            .args(["-c", dir.to_str().unwrap()])
            .args(["-e", &format!("DECKBOX_TODAY={}", common::TODAY)])
            .args([
                "-e",
                &format!("DECKBOX_CACHE_DIR={}", dir.join(".cache").display()),
            ])
            .args(["-e", "TERM=xterm-256color"])
            // The shell stays after the builder quits, so its exit code can be read. A
            // builder killed with SIGKILL leaves the terminal raw (a line feed does not
            // return the carriage): the mark goes on a line of its own from column 0, or it
            // could wrap at the screen's edge and never be seen whole.
            .arg(format!(
                "{command}; code=$?; stty sane 2>/dev/null; printf '\\r\\nBUILD-EXIT=%s\\r\\n' $code; sleep 600"
            ))
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        Session { socket }
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-t", "0"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Types `text` literally (no key names).
    pub(crate) fn text(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-t", "0", "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub(crate) fn screen(&self, colours: bool) -> String {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.socket, "capture-pane", "-p", "-t", "0"]);
        if colours {
            command.arg("-e");
        }
        String::from_utf8_lossy(&command.output().unwrap().stdout).into_owned()
    }

    /// The pane's terminal modes: mouse reporting, SGR mouse, the alternate screen (`1 1 1`
    /// while the builder runs, `0 0 0` once it has restored the terminal).
    pub(crate) fn modes(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "display-message", "-p", "-t", "0"])
            .arg("#{mouse_any_flag} #{mouse_sgr_flag} #{alternate_on}")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// Waits until the screen holds every one of `wanted`; the screen.
    pub(crate) fn wait_for(&self, wanted: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen(false);
            if wanted.iter().all(|w| screen.contains(w)) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {wanted:?}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `tmux ARGS` on this session's server; its standard output.
    pub(crate) fn tmux(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "tmux {args:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// Builds a legal 60-card deck from an empty file with the keys of the issue, saves it, quits,
/// and checks the file with `check` and `fmt --check`; returns the last screen seen with its
/// colours.
fn build_a_deck(width: u16, height: u16) -> Option<String> {
    if !tmux_available() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_deckbox");
    let session = Session::start(
        dir.path(),
        width,
        height,
        &format!("'{binary}' build new.txt"),
    );
    session.wait_for(&["Search", "new.txt · 0 cards", "deck-size"]);
    // The search box has the focus on start; `/` is typed only to move back to it.
    session.text("Dreepy TWM 128");
    session.wait_for(&["Results (1)", "HP 70"]);
    session.keys(&["Enter"]);
    session.text("++++");
    session.wait_for(&["new.txt · 4 cards", "4 Dreepy TWM 128"]);
    session.text("/");
    session.keys(&["C-u"]);
    for _ in 0.."Dreepy TWM 128".len() {
        session.keys(&["BSpace"]);
    }
    session.text("Basic Psychic Energy SVE 5");
    session.wait_for(&["Results (1)", "Psychic Energy"]);
    session.keys(&["Enter"]);
    session.text(&"+".repeat(56));
    let valid = session.wait_for(&[
        "new.txt · 60 cards",
        "60 cards · valid",
        "P(mulligan) 60.1%",
    ]);
    assert!(!valid.contains("deck-size"), "{valid}");
    let shown = session.screen(true);
    assert!(
        !dir.path().join("new.txt").exists(),
        "written before Ctrl-S"
    );
    session.keys(&["C-s"]);
    session.wait_for(&["saved new.txt"]);
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
    for args in [&["check", "new.txt"][..], &["fmt", "--check", "new.txt"]] {
        let (code, output) = common::run_deckbox(dir.path(), args, b"");
        assert_eq!(code, 0, "{args:?}:\n{output}");
    }
    Some(shown)
}

#[test]
fn a_legal_deck_is_built_saved_and_checked_at_80x24() {
    build_a_deck(80, 24);
}

#[test]
fn a_legal_deck_is_built_saved_and_checked_at_120x40() {
    if let Some(screen) = build_a_deck(120, 40) {
        // The README's screenshot is this screen; keep its text beside the image.
        let target = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("build-120x40.ans");
        std::fs::write(target, screen).unwrap();
    }
}

/// A mouse event as an xterm sends it once the mouse is captured (SGR): `button` at the
/// 0-based `column` and `row`, pressed (`M`) or released (`m`).
fn sgr_mouse(button: u8, column: u16, row: u16, pressed: bool) -> String {
    let end = if pressed { 'M' } else { 'm' };
    format!("\x1b[<{button};{};{}{end}", column + 1, row + 1)
}

/// A JSON list exported by `convert --to json` is opened at 80×24, a deck line is clicked
/// and loses a copy, the wheel moves down the deck, a card is added from the search, and
/// the save is JSON that `check` and `fmt --check` accept.
#[test]
fn a_json_list_is_built_with_the_mouse_and_saved_as_json() {
    if !tmux_available() {
        return;
    }
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let (code, json) = common::run_deckbox(
        dir.path(),
        &["convert", "dragapult.txt", "--to", "json"],
        b"",
    );
    assert_eq!(code, 0, "{json}");
    std::fs::write(dir.path().join("deck.json"), common::stdout_of(&json)).unwrap();
    let binary = env!("CARGO_BIN_EXE_deckbox");
    let session = Session::start(
        dir.path(),
        80,
        24,
        &format!("'{binary}' build deck.json --format unlimited"),
    );
    let opened = session.wait_for(&["deck.json · 60 cards", "60 cards · valid"]);
    assert_eq!(session.modes(), "1 1 1", "the mouse is captured");
    // Where the screen shows Drakloak's line in the deck panel.
    let (row, column) = opened
        .lines()
        .enumerate()
        .find_map(|(y, line)| {
            let at = line.find("4 Drakloak TWM 129")?;
            Some((y, line.get(..at)?.chars().count()))
        })
        .unwrap();
    let (column, row) = (u16::try_from(column).unwrap(), u16::try_from(row).unwrap());
    session.text(&sgr_mouse(0, column, row, true));
    session.text(&sgr_mouse(0, column, row, false));
    session.text("-");
    session.wait_for(&["deck.json · 59 cards", "3 Drakloak TWM 129"]);
    // Three notches of the wheel over the deck: from Drakloak down to Dusclops.
    for _ in 0..3 {
        session.text(&sgr_mouse(65, column, row + 3, true));
    }
    session.wait_for(&["Dusclops: opening hand"]);
    session.text("/");
    session.text("Munkidori TWM 95");
    session.wait_for(&["Results (1)"]);
    session.keys(&["Enter", "+"]);
    session.wait_for(&["deck.json · 60 cards", "60 cards · valid"]);
    session.keys(&["C-s"]);
    session.wait_for(&["saved deck.json"]);
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
    assert_eq!(session.modes(), "0 0 0", "the terminal is restored");
    let saved = std::fs::read_to_string(dir.path().join("deck.json")).unwrap();
    assert!(saved.starts_with("{\n  \"language\": \"en\""), "{saved}");
    assert!(saved.contains("\"name\": \"Munkidori\""), "{saved}");
    for args in [
        &["check", "deck.json", "--format", "unlimited"][..],
        &["fmt", "--check", "deck.json"],
    ] {
        let (code, output) = common::run_deckbox(dir.path(), args, b"");
        assert_eq!(code, 0, "{args:?}:\n{output}");
    }
}

#[test]
fn quitting_with_unsaved_changes_asks_and_writes_nothing() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_deckbox");
    let session = Session::start(dir.path(), 80, 24, &format!("'{binary}' build new.txt"));
    session.wait_for(&["new.txt · 0 cards"]);
    session.text("Dreepy TWM 128");
    session.wait_for(&["Results (1)"]);
    session.keys(&["Enter", "+"]);
    session.wait_for(&["new.txt · 1 card "]);
    session.text("q");
    session.wait_for(&["Quit anyway? (y/n)"]);
    session.text("n");
    session.text("?");
    session.wait_for(&["Keys", "undo the last change"]);
    // Any key closes the help (not Escape here: a terminal sends Escape then Ctrl-C as one
    // Alt-Ctrl-C).
    session.text("x");
    session.keys(&["C-c"]);
    session.wait_for(&["Quit anyway? (y/n)"]);
    session.text("y");
    session.wait_for(&["new.txt: changes not saved", "BUILD-EXIT=0"]);
    assert_eq!(session.modes(), "0 0 0", "Ctrl-C restores the terminal");
    assert!(!dir.path().join("new.txt").exists());
}

#[test]
fn without_a_terminal_or_with_what_fmt_refuses_it_says_so_and_exits_2() {
    let dir = common::workspace(&[]);
    let (code, output) = common::run_deckbox(dir.path(), &["build", "new.txt"], b"");
    assert_eq!(code, 2, "{output}");
    assert!(output.contains("standard output is not one"), "{output}");
    // A line `fmt --write` would drop: refused with `fmt --write`'s own message.
    std::fs::write(
        dir.path().join("bad.txt"),
        "4 Dreepy TWM 128\nDragapult by Ash\n",
    )
    .unwrap();
    let (code, built) = common::run_deckbox(dir.path(), &["build", "bad.txt"], b"");
    let (fmt_code, formatted) =
        common::run_deckbox(dir.path(), &["fmt", "--write", "bad.txt"], b"");
    assert_eq!((code, fmt_code), (2, 2), "{built}\n{formatted}");
    assert_eq!(built, formatted);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.txt")).unwrap(),
        "4 Dreepy TWM 128\nDragapult by Ash\n"
    );
    // A JSON list whose `player` deckbox's own layout has no place for: the same.
    let own = "{\"language\": \"en\", \"player\": \"Ash\", \"sections\": [{\"section\": \"pokemon\", \"cards\": [{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}]}]}\n";
    std::fs::write(dir.path().join("own.json"), own).unwrap();
    let (code, built) = common::run_deckbox(dir.path(), &["build", "own.json"], b"");
    let (fmt_code, formatted) =
        common::run_deckbox(dir.path(), &["fmt", "--write", "own.json"], b"");
    assert_eq!((code, fmt_code), (2, 2), "{built}\n{formatted}");
    assert_eq!(built, formatted);
    assert!(built.contains("no place for `player`"), "{built}");
}
