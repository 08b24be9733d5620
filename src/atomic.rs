//! Writes to user files that never lose a deck: the new contents go to a temporary file in
//! the same directory, are flushed to disk, take the original's permissions, and only then
//! replace the original by a rename (atomic on the same file system). A failure at any step
//! leaves the original untouched and removes the temporary file. A temporary file a killed
//! process left behind (`.deckbox-*.tmp`, older than ten minutes) is removed by the next
//! write in its folder.
//!
//! This module only writes what it is given; it never decides what a file should contain.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Replaces `path` with `contents`, atomically.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_with(path, |file| file.write_all(contents))
}

/// Replaces `path` with what `fill` writes into the temporary file. When `fill` fails (or
/// anything after it does), the original is left as it was: tests use this to inject a
/// failure in the middle of a write.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let original = std::fs::metadata(path).ok();
    remove_stale_temporaries(dir);
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)?;
    fill(temp.as_file_mut())?;
    temp.as_file_mut().flush()?;
    if let Some(metadata) = &original {
        temp.as_file().set_permissions(metadata.permissions())?;
    }
    temp.as_file().sync_all()?;
    // On error the temporary file is deleted when the returned value drops.
    temp.persist(path).map_err(|error| error.error)?;
    sync_dir(dir);
    Ok(())
}

const TEMP_PREFIX: &str = ".deckbox-";
const TEMP_SUFFIX: &str = ".tmp";

/// Age after which a temporary file of ours is a leftover: a write takes milliseconds, so
/// one this old was left by a process killed mid-write (`kill -9`, a power cut).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

/// Most directory entries looked at for leftovers per write: a huge folder costs no more.
const MAX_SCANNED: usize = 10_000;

/// Removes our own leftover temporary files (`.deckbox-*.tmp`, regular files older than
/// [`STALE_AFTER`]) from `dir`. Best effort: a file that cannot be removed stays.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.take(MAX_SCANNED).flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let stale = entry.metadata().ok().is_some_and(|meta| {
            meta.is_file()
                && meta
                    .modified()
                    .ok()
                    .and_then(|modified| now.duration_since(modified).ok())
                    .is_some_and(|age| age > STALE_AFTER)
        });
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Flushes the directory entry of the rename. Best effort: some systems cannot open a
/// directory for syncing, and the file's own data is already on disk.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_contents_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        write(&path, b"3 Pikachu\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "3 Pikachu\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn stale_temporaries_of_ours_are_removed_fresh_ones_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let stale = dir.path().join(".deckbox-abc123.tmp");
        let fresh = dir.path().join(".deckbox-def456.tmp");
        let other = dir.path().join(".other-abc.tmp");
        for file in [&stale, &fresh, &other] {
            std::fs::write(file, "half a deck").unwrap();
        }
        for file in [&stale, &other] {
            File::options()
                .write(true)
                .open(file)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        write(&path, b"3 Pikachu\n").unwrap();
        assert!(!stale.exists());
        assert!(fresh.exists() && other.exists());
    }

    #[test]
    fn a_failure_mid_write_keeps_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        let result = write_with(&path, |file| {
            file.write_all(b"half a dec")?;
            Err(io::Error::other("disk full"))
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "4 Pikachu\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "the temporary file is removed");
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_preserved() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, b"3 Pikachu\n").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_new_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        write(&path, b"1 Pikachu\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "1 Pikachu\n");
    }
}
