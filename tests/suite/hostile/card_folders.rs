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
