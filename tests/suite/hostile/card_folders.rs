//! The folders card data lives in, broken from outside (issue 52 item 8): a data folder
//! whose `cards` folder is a file, a cache folder that is a file, and a disk that runs out
//! of room while an update extracts its archive. Each is said as what it is (never "damaged"
//! or "a corrupt archive"), an update exits 2 and changes nothing, and a check goes on with
//! the embedded index.

use std::path::Path;
use std::process::Command;

use super::{common, copy_example, run, tcgdex_checkout};

/// A `.tar.gz` with one top folder holding `data/` and one file of `size` bytes in it.
fn archive(size: usize) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    let mut header = tar::Header::new_gnu();
    header.set_size(size as u64);
    header.set_mode(0o644);
    header.set_cksum();
    builder
        .append_data(&mut header, "top/data/big.ts", vec![b'a'; size].as_slice())
        .unwrap();
    builder.into_inner().unwrap().finish().unwrap()
}

/// `deckbox args` in `dir`, with `dir/data` as the data folder, run by `sh` after
/// `prelude` (a limit to set, a signal to ignore): its exit code and standard error.
pub(super) fn deckbox_in_sh(dir: &Path, prelude: &str, args: &str) -> (Option<i32>, String) {
    let script = format!("{prelude} exec \"$0\" {args}");
    let output = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_deckbox")])
        .env("DECKBOX_TODAY", common::TODAY)
        .env("DECKBOX_DATA_DIR", dir.join("data"))
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code(), stderr)
}

#[test]
fn a_card_folder_that_is_a_file_is_said_so() {
    if !common::tool("sh", "/dev/null", "a_card_folder_that_is_a_file") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("data")).unwrap();
    std::fs::write(d.join("data/cards"), "not a folder\n").unwrap();
    std::fs::write(d.join("cards.tar.gz"), archive(10)).unwrap();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    let folder = d.join("data/cards").display().to_string();
    let (code, stderr) = deckbox_in_sh(d, "", "cards update --from cards.tar.gz");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: cannot create {folder}: {folder} is a file, not a folder (move it away)"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("damaged"), "{stderr}");
    let (code, stderr) = deckbox_in_sh(d, "", "check deck.txt");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{folder} is a file, not a folder (move it away); using the embedded card index"
        )),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(d.join("data/cards")).unwrap(),
        b"not a folder\n"
    );
}

/// A `--cards` checkout's cache folder that is a file: no "damaged cache", the checkout is
/// read without one.
#[test]
fn a_cache_folder_that_is_a_file_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tcgdex_checkout(&d.join("tcgdex"));
    std::fs::write(d.join(".cache"), "not a folder\n").unwrap();
    std::fs::write(d.join("deck.txt"), "4 Iono ONE 1\n").unwrap();
    let out = run(
        d,
        &[
            "check",
            "deck.txt",
            "--cards",
            "tcgdex",
            "--format",
            "unlimited",
        ],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let cache = d.join(".cache").display().to_string();
    assert!(
        out.stderr.contains(&format!(
            "warning: the card-index cache folder {cache} is a file, not a folder; loaded the card data without a cache"
        )),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("damaged"), "{}", out.stderr);
}

/// The disk runs out of room while the archive is extracted (a file size limit, `ulimit
/// -f`, its signal ignored: the write fails as it fails on a full disk): the file that could
/// not be written is named with the system's reason, not called a corrupt archive, and no
/// index is installed.
#[test]
fn a_full_disk_during_extraction_is_no_corrupt_archive() {
    if !common::tool("sh", "/dev/null", "a_full_disk_during_extraction") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("cards.tar.gz"), archive(64 * 1024)).unwrap();
    let (code, stderr) = deckbox_in_sh(
        d,
        "trap '' XFSZ; ulimit -f 8;",
        "cards update --from cards.tar.gz",
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains("corrupt"), "{stderr}");
    // The file is named by its path in the archive, and the folder by the data folder the
    // user knows, not by the work folder inside it (`cards/.update-XXXX`).
    let cards = d.join("data/cards").display().to_string();
    assert!(
        stderr.contains(&format!(
            "error: cannot unpack top/data/big.ts from the archive into {cards}: File too large"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains(".update-"), "{stderr}");
    assert!(
        stderr.contains("the card index in use was not changed"),
        "{stderr}"
    );
    assert!(!d.join("data/cards/index.dbx").exists());
}

/// A folder deckbox may not write in, for this process: immutable (`chattr +i`) when it
/// runs as root, whom the kernel does not hold to mode bits; else mode 0555. `None` where
/// neither can be set (root on a file system without the attribute).
#[cfg(target_os = "linux")]
fn unwritable(folder: &Path) -> Option<super::saving::ReadOnly> {
    use super::saving::{ReadOnly, root};
    match root() {
        true => ReadOnly::immutable(folder),
        false => Some(ReadOnly::permissions(folder)),
    }
}

/// The `--cards` cache folder (`DECKBOX_CACHE_DIR`) as a link, a loop or a folder that
/// takes no file, and a link in it: a link to a folder is followed (a cache on another
/// disk); a link at the cache file's name is replaced, never written through; a loop or a
/// folder that refuses writes is said with the system's reason, not called damage, and
/// the checkout is read without a cache (issue 49 item 6).
#[cfg(target_os = "linux")]
#[test]
fn a_cache_folder_that_is_a_link_a_loop_or_read_only_is_used_safely() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tcgdex_checkout(&d.join("tcgdex"));
    std::fs::write(d.join("deck.txt"), "4 Iono ONE 1\n").unwrap();
    let check = [
        "check",
        "deck.txt",
        "--cards",
        "tcgdex",
        "--format",
        "unlimited",
    ];
    let cache = d.join(".cache");
    // A link to another folder: the cache is written there, and read there next time.
    std::fs::create_dir(d.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("elsewhere", &cache).unwrap();
    for _ in 0..2 {
        let out = run(d, &check, b"");
        assert_eq!((out.code, out.stderr.as_str()), (1, ""));
    }
    let files: Vec<_> = (std::fs::read_dir(d.join("elsewhere")).unwrap().flatten())
        .map(|entry| entry.path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(std::fs::symlink_metadata(&cache).unwrap().is_symlink());
    // A link at the cache file's name, to a file of the user's: replaced, not written
    // through.
    std::fs::write(d.join("victim.txt"), "precious\n").unwrap();
    std::fs::remove_file(&files[0]).unwrap();
    std::os::unix::fs::symlink(d.join("victim.txt"), &files[0]).unwrap();
    let out = run(d, &check, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(std::fs::read(d.join("victim.txt")).unwrap(), b"precious\n");
    assert!(std::fs::symlink_metadata(&files[0]).unwrap().is_file());
    // A loop: said as one, no cache, the check goes on.
    std::fs::remove_file(&cache).unwrap();
    std::os::unix::fs::symlink(".cache", &cache).unwrap();
    let out = run(d, &check, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "warning: the card-index cache folder {} cannot be used (Too many levels of symbolic links (os error 40)); loaded the card data without a cache\n",
            cache.display()
        )
    );
    // A folder that takes no new file.
    std::fs::remove_file(&cache).unwrap();
    std::fs::create_dir(&cache).unwrap();
    if let Some(_read_only) = unwritable(&cache) {
        let out = run(d, &check, b"");
        assert_eq!(out.code, 1, "{}", out.stderr);
        let said = format!(
            "warning: the card-index cache folder {} cannot be used (",
            cache.display()
        );
        assert!(out.stderr.starts_with(&said), "{}", out.stderr);
        assert!(
            out.stderr
                .ends_with("); loaded the card data without a cache\n"),
            "{}",
            out.stderr
        );
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    }
}

/// `cards update`'s folder (`DATA/cards`) as a link in a loop, with its lock file a link to
/// nothing, or refusing new files: exit 2 naming the folder or file and why, nothing
/// created through a link; a check goes on with the embedded index (issue 49 item 6).
#[cfg(target_os = "linux")]
#[test]
fn a_card_update_folder_that_is_a_link_or_read_only_is_refused() {
    if !common::tool("sh", "/dev/null", "a_card_update_folder_that_is_a_link") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("cards.tar.gz"), archive(10)).unwrap();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    std::fs::create_dir(d.join("data")).unwrap();
    let cards = d.join("data/cards");
    let update = "cards update --from cards.tar.gz";
    std::os::unix::fs::symlink("cards", &cards).unwrap();
    let (code, stderr) = deckbox_in_sh(d, "", update);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: cannot create {}: it is a symbolic link that cannot be followed (Too many levels of symbolic links (os error 40))\nthe card index in use was not changed\n",
            cards.display()
        )
    );
    let (code, stderr) = deckbox_in_sh(d, "", "check deck.txt");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("using the embedded card index"), "{stderr}");
    std::fs::remove_file(&cards).unwrap();
    std::fs::create_dir(&cards).unwrap();
    let lock = cards.join("update.lock");
    std::os::unix::fs::symlink(d.join("made-through-a-link"), &lock).unwrap();
    let (code, stderr) = deckbox_in_sh(d, "", update);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: cannot open {}: it is a symbolic link, and deckbox creates its lock through no link\n",
            lock.display()
        )),
        "{stderr}"
    );
    assert!(!d.join("made-through-a-link").exists());
    std::fs::remove_file(&lock).unwrap();
    if let Some(_read_only) = unwritable(&cards) {
        let (code, stderr) = deckbox_in_sh(d, "", update);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: cannot open {}: ", lock.display())),
            "{stderr}"
        );
        assert!(
            stderr.contains("the card index in use was not changed"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_dir(&cards).unwrap().count(), 0);
    }
}
