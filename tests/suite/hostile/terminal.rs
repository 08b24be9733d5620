//! The terminal builder under attack (issue 52 items 4 and 6, issue 49 item 4): a paste is
//! text for the search box, never keystrokes; a signal that ends deckbox, a suspend
//! (SIGTSTP or Ctrl-Z) and a resume leave the terminal as it was (no alternate screen, no
//! mouse reporting), and a resume draws the builder again; a storm of resizes down to 1×1,
//! a file changed, deleted or linked on disk never cost the player's or another program's
//! change. Driven in tmux as
//! `build_tmux.rs` does; skipped with a note where tmux is missing.

use crate::build_tmux::{Session, tmux_available};

use std::path::Path;
use std::time::{Duration, Instant};

/// Starts `deckbox build new.txt` in `dir`, writing its process id to `build.pid` first
/// (`exec` keeps it), and waits for its screen; the session and the id.
fn builder(dir: &Path) -> (Session, u32) {
    builder_on(dir, "new.txt", "new.txt · 0 cards")
}

/// Starts `deckbox build FILE` in `dir` at 80×24, its process id written to `build.pid`
/// first (`exec` keeps it); waits for `shown`. The session and the id.
pub(super) fn builder_on(dir: &Path, file: &str, shown: &str) -> (Session, u32) {
    let binary = env!("CARGO_BIN_EXE_deckbox");
    let session = Session::start(
        dir,
        80,
        24,
        &format!("sh -c 'echo $$ > build.pid; exec \"$0\" build {file}' '{binary}'"),
    );
    session.wait_for(&[shown]);
    let pid = std::fs::read_to_string(dir.join("build.pid")).unwrap();
    (session, pid.trim().parse().unwrap())
}

/// Waits until `pid`'s state (`/proc/PID/stat`) is `state` (`T` stopped, `S` or `R`
/// running).
fn wait_state(pid: u32, states: &[char]) {
    let start = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next());
        if state.is_some_and(|state| states.contains(&state)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{pid} is {state:?}, not {states:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until the pane's modes are `modes` (`mouse_any_flag mouse_sgr_flag alternate_on`).
fn wait_modes(session: &Session, modes: &str) {
    let start = Instant::now();
    while session.modes() != modes {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "modes {}, not {modes}",
            session.modes()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(super) fn signal(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

/// Pastes `text` as a terminal does once the builder asked for bracketed paste (tmux's
/// `paste-buffer -p`).
fn paste(session: &Session, dir: &Path, text: &str) {
    let file = dir.join("paste.txt");
    std::fs::write(&file, text).unwrap();
    session.tmux(&["load-buffer", "-b", "hostile", file.to_str().unwrap()]);
    session.tmux(&["paste-buffer", "-p", "-d", "-b", "hostile", "-t", "0"]);
}

/// With the results focused, a paste of line breaks, `+`, Ctrl-C and `y` adds no card and
/// does not quit: it is typed into the search box, line breaks as spaces. 100 KB pasted
/// stop at the box's bound, with a message.
#[test]
fn a_paste_is_text_for_the_search_box() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (session, _) = builder(dir.path());
    assert_eq!(session.modes(), "1 1 1");
    session.text("Dreepy TWM 128");
    session.wait_for(&["Results (1)", "HP 70"]);
    session.keys(&["Enter"]);
    paste(&session, dir.path(), "\n+\n+\n\u{3}y\n");
    session.wait_for(&["Dreepy TWM 128 + + y"]);
    // Nothing was added: Ctrl-C quits at once, with nothing to save.
    session.keys(&["C-c"]);
    session.wait_for(&["BUILD-EXIT=0"]);
    assert!(!dir.path().join("new.txt").exists());

    let (session, _) = builder(dir.path());
    paste(&session, dir.path(), &"x".repeat(100_000));
    let screen = session.wait_for(&["the paste was cut"]);
    assert!(screen.contains("xxxxxxxxxx"), "{screen}");
    session.keys(&["C-c"]);
    session.wait_for(&["BUILD-EXIT=0"]);
    assert_eq!(session.modes(), "0 0 0");
}

/// SIGTERM and SIGHUP end the builder with the signal's own status, the terminal restored.
#[cfg(target_os = "linux")]
#[test]
fn an_ending_signal_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    for (name, status) in [("TERM", 143), ("HUP", 129)] {
        let dir = tempfile::tempdir().unwrap();
        let (session, pid) = builder(dir.path());
        assert_eq!(session.modes(), "1 1 1");
        signal(pid, name);
        session.wait_for(&[&format!("BUILD-EXIT={status}")]);
        assert_eq!(session.modes(), "0 0 0", "after SIGTERM");
    }
}

/// SIGTSTP from outside and Ctrl-Z stop the builder with the terminal restored; SIGCONT
/// sets the modes again and draws the builder whole, with its state.
#[cfg(target_os = "linux")]
#[test]
fn a_suspend_restores_the_terminal_and_a_resume_draws_again() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (session, pid) = builder(dir.path());
    session.text("Dreepy TWM 128");
    session.wait_for(&["Results (1)"]);
    for stop in [Some("TSTP"), None] {
        match stop {
            Some(name) => signal(pid, name),
            None => session.keys(&["C-z"]),
        }
        wait_state(pid, &['T']);
        wait_modes(&session, "0 0 0");
        let shown = session.screen(false);
        assert!(!shown.contains("Results (1)"), "{stop:?}: {shown}");
        signal(pid, "CONT");
        wait_state(pid, &['S', 'R']);
        wait_modes(&session, "1 1 1");
        session.wait_for(&["new.txt · 0 cards", "Results (1)", "Dreepy TWM 128"]);
    }
    // Still working after both: a key adds a card, Ctrl-C asks and quits.
    session.keys(&["Enter", "+"]);
    session.wait_for(&["new.txt · 1 card "]);
    session.keys(&["C-c"]);
    session.wait_for(&["Quit anyway? (y/n)"]);
    session.text("y");
    session.wait_for(&["BUILD-EXIT=0"]);
    assert_eq!(session.modes(), "0 0 0");
}

/// Opens `deckbox build FILE` in `dir` at 90×26 and waits for `shown`.
fn open(dir: &Path, file: &str, shown: &str) -> Session {
    let binary = env!("CARGO_BIN_EXE_deckbox");
    let session = Session::start(dir, 90, 26, &format!("'{binary}' build {file}"));
    session.wait_for(&[shown]);
    session
}

/// `examples/dragapult.txt` (60 cards) written as `name` in `dir`.
fn sixty(dir: &Path, name: &str) {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dragapult.txt");
    std::fs::copy(example, dir.join(name)).unwrap();
}

/// A storm of resizes, down to 1×1 while running, then a usable size again: the builder
/// says what size it needs while too small, draws itself whole once it fits, and still
/// works (issue 49 item 4).
#[test]
fn a_resize_storm_down_to_one_cell_leaves_the_builder_working() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (session, _) = builder(dir.path());
    // A fixed walk through sizes from 1 to 120 columns and 1 to 45 rows.
    let mut size: u32 = 7;
    for _ in 0..150 {
        size = size.wrapping_mul(1_103_515_245).wrapping_add(12_345) % 5_400;
        let (width, height) = (1 + size % 120, 1 + size / 120);
        session.tmux(&["resize-window", "-t", "0", "-x", &width.to_string()]);
        session.tmux(&["resize-window", "-t", "0", "-y", &height.to_string()]);
    }
    session.tmux(&["resize-window", "-t", "0", "-x", "1", "-y", "1"]);
    std::thread::sleep(Duration::from_millis(300));
    session.tmux(&["resize-window", "-t", "0", "-x", "20", "-y", "5"]);
    session.wait_for(&["needs 80×24"]);
    session.tmux(&["resize-window", "-t", "0", "-x", "80", "-y", "24"]);
    session.wait_for(&["new.txt · 0 cards", "Search", "Verdict"]);
    session.text("Dreepy TWM 128");
    session.wait_for(&["Results (1)", "HP 70"]);
    session.keys(&["Enter", "+"]);
    session.wait_for(&["new.txt · 1 card "]);
    session.keys(&["C-s"]);
    session.wait_for(&["saved new.txt"]);
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
    assert_eq!(session.modes(), "0 0 0");
    let saved = std::fs::read_to_string(dir.path().join("new.txt")).unwrap();
    assert!(saved.contains("1 Dreepy TWM 128"), "{saved}");
}

/// The file changed on disk while open: Ctrl-S refuses and says so, and the other
/// program's change stays; the file deleted on disk: Ctrl-S writes it again and says so
/// (issue 49 item 4: "say so; never overwrite the other change silently").
#[test]
fn a_file_changed_or_deleted_on_disk_is_never_overwritten_silently() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    sixty(dir.path(), "deck.txt");
    let file = dir.path().join("deck.txt");
    let session = open(dir.path(), "deck.txt", "deck.txt · 60 cards");
    session.keys(&["Tab", "Tab", "+"]);
    session.wait_for(&["deck.txt · 61 cards"]);
    let mut theirs = std::fs::read_to_string(&file).unwrap();
    theirs.push_str("# a line another program wrote\n");
    std::fs::write(&file, &theirs).unwrap();
    session.keys(&["C-s"]);
    session.wait_for(&["it changed since deckbox read it"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);

    std::fs::remove_file(&file).unwrap();
    session.keys(&["C-s"]);
    session.wait_for(&["saved deck.txt again: it had been deleted"]);
    let (code, out) = crate::common::run_deckbox(dir.path(), &["check", "deck.txt"], b"");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("61"), "the 61-card list was saved: {out}");
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
}

/// A deck file that is a symbolic link: saving replaces the file it points to, atomically,
/// and the link stays a link (what `fmt --write` does).
#[cfg(unix)]
#[test]
fn saving_through_a_symbolic_link_keeps_the_link() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    sixty(dir.path(), "real.txt");
    std::os::unix::fs::symlink("real.txt", dir.path().join("deck.txt")).unwrap();
    let session = open(dir.path(), "deck.txt", "deck.txt · 60 cards");
    session.keys(&["Tab", "Tab", "+"]);
    session.wait_for(&["deck.txt · 61 cards"]);
    session.keys(&["C-s"]);
    session.wait_for(&["saved deck.txt"]);
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
    let link = std::fs::symlink_metadata(dir.path().join("deck.txt")).unwrap();
    assert!(link.file_type().is_symlink());
    let saved = std::fs::read_to_string(dir.path().join("real.txt")).unwrap();
    assert!(saved.contains("5 Dreepy TWM 128"), "{saved}");
}
