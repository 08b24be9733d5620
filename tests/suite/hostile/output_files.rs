//! `-o FILE` on every command that has it (issue 49 item 7): an existing file, a link to
//! another file, a link to nothing, a folder, a device (`/dev/full`), a missing folder and a
//! file system that runs out of room. Each is refused with exit 2 and a message naming the
//! file (nothing made, nothing changed, no temporary file left), or written atomically.

#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::{Run, common, copy_example, run};

/// Every command with `-o`, as run in a folder holding `deck.txt` (the Dragapult example).
const COMMANDS: [&[&str]; 7] = [
    &["check", "deck.txt"],
    &["stats", "deck.txt"],
    &["odds", "deck.txt", "--seen", "1 Dreepy", "--draws", "1"],
    &["need", "deck.txt", "--have", "deck.txt"],
    &["search", "Dreepy"],
    &["card", "TWM 128"],
    &["config"],
];

fn with_output(dir: &Path, command: &[&str], file: &str, force: bool) -> Run {
    let mut args = command.to_vec();
    args.extend(["-o", file]);
    if force {
        args.push("--force");
    }
    run(dir, &args, b"")
}

/// Exit 2, one message naming `file` with `reason`, and the file said unchanged.
fn refused(out: &Run, file: &str, reason: &str, command: &[&str]) {
    assert_eq!(out.code, 2, "{command:?} -o {file}: {}", out.stderr);
    assert_eq!(
        out.one_error(),
        format!("error: cannot write {file}: {reason}"),
        "{command:?}"
    );
    assert!(
        out.stderr.contains(&format!("{file} was not changed")),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

/// No temporary file of a write is left in `dir`.
fn no_temporaries(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(
            !name.to_string_lossy().starts_with(".deckbox-"),
            "{name:?} left behind"
        );
    }
}

#[cfg(unix)]
#[test]
fn every_command_refuses_what_it_should_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    std::fs::write(d.join("existing.txt"), "mine\n").unwrap();
    std::fs::write(d.join("target.txt"), "the link's\n").unwrap();
    std::os::unix::fs::symlink("target.txt", d.join("link.txt")).unwrap();
    std::os::unix::fs::symlink("nowhere.txt", d.join("dangling.txt")).unwrap();
    std::fs::create_dir(d.join("folder")).unwrap();
    for command in COMMANDS {
        let out = with_output(d, command, "existing.txt", false);
        refused(&out, "existing.txt", "it already exists", command);
        assert!(out.stderr.contains("help: `--force` writes it anyway"));
        // A link to another file exists too: not written through without `--force`.
        let out = with_output(d, command, "link.txt", false);
        refused(&out, "link.txt", "it already exists", command);
        // A link to nothing: writing would create a file no one named, even forced.
        for force in [false, true] {
            let out = with_output(d, command, "dangling.txt", force);
            refused(
                &out,
                "dangling.txt",
                "it is a symbolic link to nowhere.txt, which does not exist; deckbox writes through no such link",
                command,
            );
        }
        assert!(!d.join("nowhere.txt").exists());
        for force in [false, true] {
            let out = with_output(d, command, "folder", force);
            refused(&out, "folder", "it is a directory, not a file", command);
            let out = with_output(d, command, "missing/report.txt", force);
            refused(
                &out,
                "missing/report.txt",
                "its folder missing does not exist",
                command,
            );
            if Path::new("/dev/full").exists() {
                let out = with_output(d, command, "/dev/full", force);
                refused(&out, "/dev/full", "it is a device, not a file", command);
            }
        }
        assert!(!d.join("missing").exists());
        assert_eq!(std::fs::read(d.join("existing.txt")).unwrap(), b"mine\n");
        assert_eq!(
            std::fs::read(d.join("target.txt")).unwrap(),
            b"the link's\n"
        );
        assert!(
            std::fs::read_dir(d.join("folder"))
                .unwrap()
                .next()
                .is_none()
        );
        no_temporaries(d);
        // A new file is written, and is what the command prints.
        let out = with_output(d, command, "new.txt", false);
        assert_ne!(out.code, 2, "{command:?}: {}", out.stderr);
        let printed = run(d, command, b"");
        assert_eq!(
            std::fs::read_to_string(d.join("new.txt")).unwrap(),
            printed.stdout,
            "{command:?}"
        );
        std::fs::remove_file(d.join("new.txt")).unwrap();
    }
}

/// `--force` replaces an existing file by a rename (a new inode: a reader of the old one
/// never sees half a report), and replaces the file a link names, the link staying a link
/// (as docs/security.md says).
#[cfg(unix)]
#[test]
fn force_replaces_atomically_and_keeps_a_link_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    std::fs::write(d.join("existing.txt"), "mine\n").unwrap();
    let before = std::fs::metadata(d.join("existing.txt")).unwrap().ino();
    let out = with_output(d, &["check", "deck.txt"], "existing.txt", true);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let after = std::fs::metadata(d.join("existing.txt")).unwrap().ino();
    assert_ne!(before, after);
    assert!(
        std::fs::read_to_string(d.join("existing.txt"))
            .unwrap()
            .contains("deck.txt: valid")
    );
    std::fs::write(d.join("target.txt"), "the link's\n").unwrap();
    std::os::unix::fs::symlink("target.txt", d.join("link.txt")).unwrap();
    let out = with_output(d, &["check", "deck.txt"], "link.txt", true);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        std::fs::symlink_metadata(d.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(d.join("target.txt"))
            .unwrap()
            .contains("deck.txt: valid")
    );
    no_temporaries(d);
}

/// A file system that runs out of room while the report is written (here a file size
/// limit, `ulimit -f`, with the signal it sends ignored: the write fails with "File too
/// large", as a full disk fails with "No space left on device"): exit 2 with the reason,
/// no file, no temporary file, an existing file untouched.
#[cfg(unix)]
#[test]
fn a_write_that_runs_out_of_room_leaves_nothing() {
    if !common::tool("sh", "/dev/null", "a_write_that_runs_out_of_room") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    std::fs::write(d.join("existing.txt"), "mine\n").unwrap();
    for (file, force) in [("report.txt", ""), ("existing.txt", " --force")] {
        // 512 bytes at most a file; the statistics report has several KB.
        let (code, stderr) = super::card_folders::deckbox_in_sh(
            d,
            "trap '' XFSZ; ulimit -f 1;",
            &format!("stats deck.txt -o {file}{force}"),
        );
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("error: cannot write {file}: File too large")),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("{file} was not changed")),
            "{stderr}"
        );
        no_temporaries(d);
    }
    assert!(!d.join("report.txt").exists());
    assert_eq!(std::fs::read(d.join("existing.txt")).unwrap(), b"mine\n");
}
