//! Saving under attack (issue 49 items 4 and 7): `deckbox build`'s save killed with
//! SIGKILL at many points leaves the old list or the new one, byte for byte, and what it
//! leaves behind is never read as a deck; a folder deckbox may not write in refuses a save
//! and an output file with a clear message, exit 2 and the old file intact, even for root.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::terminal::{builder_on, signal};
use super::{common, run};
use crate::build_tmux::tmux_available;

/// A deck of 8 MB, under the deck bounds (2,000 comment lines of 4 KB, then the Dragapult
/// list), written as `fmt` writes it: writing and flushing it takes long enough (about
/// 20 ms here) for a kill to land in the middle.
fn big_deck() -> Vec<u8> {
    let mut deck = String::new();
    for line in 0..2_000 {
        deck.push_str(&format!("# note {line:04} {}\n", "x".repeat(3_985)));
    }
    deck.push('\n');
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dragapult.txt");
    deck.push_str(&std::fs::read_to_string(example).unwrap());
    deck.into_bytes()
}

/// The temporary files of a write in `dir` (`.deckbox-*.tmp`).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    (std::fs::read_dir(dir).unwrap().flatten())
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with(".deckbox-") && name.ends_with(".tmp")
        })
        .collect()
}

/// Where a kill lands after Ctrl-S: stopped (SIGSTOP) as soon as the temporary file
/// appears, then killed; or killed (SIGKILL) that many milliseconds after it appears.
#[derive(Debug, Clone, Copy)]
enum Kill {
    Frozen,
    After(u64),
}

/// Opens the builder on `dir/deck.txt`, adds a card, saves, and kills it as `kill` says;
/// whether the temporary file was seen before the kill (else the save was over first).
fn save_and_kill(dir: &Path, kill: Kill) -> bool {
    let deck = dir.join("deck.txt");
    let (session, pid) = builder_on(dir, "deck.txt", "deck.txt · 60 cards");
    session.keys(&["Tab", "Tab", "+"]);
    session.wait_for(&["deck.txt · 61 cards"]);
    let before = std::fs::metadata(&deck).unwrap().modified().unwrap();
    // What earlier kills left.
    let left = temporaries(dir);
    session.keys(&["C-s"]);
    let started = Instant::now();
    let seen = loop {
        if temporaries(dir).len() > left.len() {
            break true;
        }
        // Replaced before a temporary file was seen: the kill comes after the save.
        if std::fs::metadata(&deck).unwrap().modified().unwrap() != before {
            break false;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no save began:\n{}",
            session.screen(false)
        );
    };
    match kill {
        Kill::Frozen => {
            signal(pid, "STOP");
            signal(pid, "KILL");
        }
        Kill::After(ms) => {
            std::thread::sleep(Duration::from_millis(ms));
            signal(pid, "KILL");
        }
    }
    session.wait_for(&["BUILD-EXIT=137"]);
    seen
}

/// kill -9 during a save, at points spread over the write: the file holds the old list or
/// the new one, byte for byte, and each checks; a kill that lands mid-save leaves a
/// temporary file `.deckbox-*.tmp`, which no walk reads as a deck (hidden, and no list's
/// extension) and the next write in the folder removes once it is ten minutes old
/// (docs/security.md).
#[cfg(target_os = "linux")]
#[test]
fn a_save_killed_at_any_point_leaves_the_old_list_or_the_new_one() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deck = d.join("deck.txt");
    let old = big_deck();
    std::fs::write(&deck, &old).unwrap();
    // The new list, from a save that is not interrupted.
    let (session, _) = builder_on(d, "deck.txt", "deck.txt · 60 cards");
    session.keys(&["Tab", "Tab", "+"]);
    session.wait_for(&["deck.txt · 61 cards"]);
    session.keys(&["C-s"]);
    session.wait_for(&["saved deck.txt"]);
    session.text("q");
    session.wait_for(&["BUILD-EXIT=0"]);
    drop(session);
    let new = std::fs::read(&deck).unwrap();
    assert_ne!(new, old);
    for (version, code) in [(&old, 0), (&new, 1)] {
        std::fs::write(&deck, version).unwrap();
        let out = run(d, &["check", "deck.txt", "--output", "short"], b"");
        assert_eq!(out.code, code, "{}", out.stderr);
    }
    let mut mid_save = 0;
    for kill in [
        Kill::Frozen,
        Kill::After(0),
        Kill::After(2),
        Kill::After(5),
        Kill::After(10),
        Kill::After(20),
        Kill::After(40),
    ] {
        std::fs::write(&deck, &old).unwrap();
        let left_before = temporaries(d).len();
        let seen = save_and_kill(d, kill);
        let now = std::fs::read(&deck).unwrap();
        assert!(
            now == old || now == new,
            "{kill:?}: a file of {} bytes, neither list",
            now.len()
        );
        let left = temporaries(d).len() - left_before;
        if seen && now == old && left == 1 {
            mid_save += 1;
        }
        eprintln!(
            "{kill:?}: {} list, {left} temporary file left",
            if now == old { "old" } else { "new" }
        );
    }
    // At least the frozen kill landed between the temporary file and the rename.
    assert!(mid_save >= 1, "no kill landed mid-save");
    // What the kills left is no deck to a walk of the folder.
    let out = run(d, &["check", ".", "--output", "short"], b"");
    assert!(!out.stdout.contains(".deckbox-"), "{}", out.stdout);
    assert!(!out.stderr.contains(".deckbox-"), "{}", out.stderr);
    // Ten minutes old, the next write in the folder removes them.
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3_600);
    for temporary in temporaries(d) {
        (std::fs::File::options().write(true).open(&temporary))
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    let out = run(d, &["add", "deck.txt", "Dreepy TWM 128"], b"");
    assert_ne!(out.code, 2, "{}", out.stderr);
    assert_eq!(temporaries(d), Vec::<PathBuf>::new());
}

/// Whether this process runs as root, for whom the kernel ignores permission bits.
#[cfg(target_os = "linux")]
pub(super) fn root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0)
}

/// A folder deckbox may not write in, made so one way, and undone when dropped (so the
/// temporary folder can be removed).
#[cfg(target_os = "linux")]
pub(super) struct ReadOnly {
    folder: PathBuf,
    /// What runs deckbox there: as root, `setpriv` to user nobody for a folder without
    /// write permission, nothing for an immutable one.
    prefix: Vec<&'static str>,
}

#[cfg(target_os = "linux")]
impl ReadOnly {
    /// No write permission (mode 0555); root runs deckbox as nobody, whom the kernel holds
    /// to the bits.
    pub(super) fn permissions(folder: &Path) -> ReadOnly {
        use std::os::unix::fs::PermissionsExt;
        let parent = folder.parent().unwrap();
        // Nobody must reach the folder and read its files.
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o555)).unwrap();
        let prefix = match root() {
            true => vec![
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ],
            false => Vec::new(),
        };
        ReadOnly {
            folder: folder.to_path_buf(),
            prefix,
        }
    }

    /// Immutable (`chattr +i`): refused to root too. `None` where chattr cannot set it (not
    /// root, a file system without the attribute).
    pub(super) fn immutable(folder: &Path) -> Option<ReadOnly> {
        let set = std::process::Command::new("chattr")
            .arg("+i")
            .arg(folder)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        set.then(|| ReadOnly {
            folder: folder.to_path_buf(),
            prefix: Vec::new(),
        })
    }

    /// `deckbox args` in the folder, as [`run`] runs it; exit code, stdout, stderr.
    fn deckbox(&self, args: &[&str]) -> (i32, String, String) {
        let binary = env!("CARGO_BIN_EXE_deckbox");
        let base = common::deckbox_command();
        let mut command = match self.prefix.split_first() {
            Some((program, rest)) => {
                let mut command = std::process::Command::new(program);
                command.args(rest).arg(binary);
                command
            }
            None => std::process::Command::new(binary),
        };
        for (key, value) in base.get_envs() {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        let output = command
            .args(args)
            .current_dir(&self.folder)
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let code = output.status.code().unwrap_or(-1);
        (code, text(&output.stdout), text(&output.stderr))
    }
}

#[cfg(target_os = "linux")]
impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.folder)
            .stderr(std::process::Stdio::null())
            .status();
        let _ = std::fs::set_permissions(&self.folder, std::fs::Permissions::from_mode(0o755));
    }
}

/// A folder deckbox may not write in (no write permission, with root running deckbox as
/// nobody; immutable, as root itself): `-o FILE` (new, and an existing file with
/// `--force`), `add` and the builder's Ctrl-S are refused with the folder named, exit 2 (the
/// builder says so and keeps the list), every file as it was, no temporary file
/// (issue 49 items 4 and 7).
#[cfg(target_os = "linux")]
#[test]
fn a_folder_deckbox_may_not_write_in_refuses_with_the_folder_named() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ro");
    std::fs::create_dir(&folder).unwrap();
    super::copy_example("dragapult.txt", &folder.join("deck.txt"));
    std::fs::write(folder.join("existing.txt"), "mine\n").unwrap();
    let deck = std::fs::read(folder.join("deck.txt")).unwrap();
    let mut ways = vec![("no write permission", ReadOnly::permissions(&folder))];
    if root() {
        // Root ignores the mode bits: an immutable folder refuses root too.
        ways.push(("immutable", ReadOnly::immutable(&folder).unwrap()));
    }
    for (way, read_only) in &ways {
        let refused = |args: &[&str], file: &str| {
            let (code, stdout, stderr) = read_only.deckbox(args);
            assert_eq!(code, 2, "{way}: {args:?}: {stderr}");
            assert_eq!(
                stderr,
                format!(
                    "error: cannot write {file}: its folder . is not writable (permission denied)\n{file} was not changed\n"
                ),
                "{way}: {args:?}"
            );
            assert!(stdout.is_empty(), "{way}: {stdout}");
        };
        refused(&["check", "deck.txt", "-o", "report.txt"], "report.txt");
        refused(
            &["stats", "deck.txt", "-o", "existing.txt", "--force"],
            "existing.txt",
        );
        refused(&["add", "deck.txt", "Dreepy TWM 128"], "deck.txt");
        if tmux_available() {
            let binary = env!("CARGO_BIN_EXE_deckbox");
            let data = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-card-update");
            let session = crate::build_tmux::Session::start(
                &folder,
                80,
                24,
                &format!(
                    "env DECKBOX_DATA_DIR={data} {} '{binary}' build deck.txt",
                    read_only.prefix.join(" ")
                ),
            );
            session.wait_for(&["deck.txt · 60 cards"]);
            session.keys(&["Tab", "Tab", "+"]);
            session.wait_for(&["deck.txt · 61 cards"]);
            session.keys(&["C-s"]);
            session.wait_for(&["cannot write deck.txt: its folder . is not writable"]);
            session.text("q");
            session.wait_for(&["Quit anyway? (y/n)"]);
            session.text("y");
            session.wait_for(&["BUILD-EXIT=0"]);
        }
        assert_eq!(std::fs::read(folder.join("deck.txt")).unwrap(), deck);
        assert_eq!(
            std::fs::read(folder.join("existing.txt")).unwrap(),
            b"mine\n"
        );
        assert!(!folder.join("report.txt").exists());
        assert_eq!(temporaries(&folder), Vec::<PathBuf>::new());
    }
}
