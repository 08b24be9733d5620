//! Writes to user files that never lose a deck and never change what the user did not ask
//! to change.
//!
//! - **Atomic.** The new contents go to a temporary file in the same directory, are flushed
//!   to disk, and only then replace the original by a rename (atomic on one file system). A
//!   failure at any step leaves the original untouched and removes the temporary file. A
//!   temporary file a killed process left behind (`.deckbox-*.tmp`, older than ten minutes)
//!   is removed by the next write in its folder.
//! - **Where the link points.** A symbolic link is followed: the file it names is replaced
//!   and the link stays a link.
//! - **The file's own attributes.** The permissions, the owner and group, and the extended
//!   attributes (ACLs included) of the original are given to the new file. When one cannot
//!   be kept (another user's file, an attribute the system refuses), nothing is written
//!   unless the caller forces it.
//! - **Refusals.** A read-only file (no write permission bit) and a file with several names
//!   (hard links: a rename would give only this name the new list) are not rewritten unless
//!   forced.
//! - **One writer at a time.** [`Lock::acquire`] takes an advisory lock on the file before it
//!   is read, so two deckbox processes editing one deck take turns instead of one losing the
//!   other's edit; and [`Lock::replace`] compares the file with what was read just before the
//!   rename, so an edit another program made meanwhile is never overwritten.
//!
//! This module only writes what it is given; it never decides what a file should contain.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a file was not written. Every variant means the original is untouched.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("it is {0}, not a file")]
    NotAFile(&'static str),
    #[error("it is read-only")]
    ReadOnly,
    #[error(
        "it has {0} names (hard links); a rewrite would give this name the new list and leave the others with the old one"
    )]
    HardLinks(u64),
    #[error("it belongs to user {uid} and group {gid}, which cannot be kept ({error})")]
    Owner {
        uid: u32,
        gid: u32,
        error: io::Error,
    },
    #[error("its extended attribute {name} cannot be kept ({error})")]
    Attribute { name: String, error: io::Error },
    #[error("it changed since deckbox read it (another program wrote to it)")]
    Changed,
    #[error("another program has held a lock on it for {} seconds", LOCK_WAIT.as_secs())]
    Locked,
    #[error("it already exists")]
    Exists,
    #[error(
        "it is a symbolic link to {0}, which does not exist; deckbox writes through no such link"
    )]
    DanglingLink(String),
    #[error("its folder {0} does not exist")]
    NoFolder(String),
    /// The folder refuses a new file (no write permission, an immutable folder, a
    /// read-only file system): the new contents are written beside the file, so nothing
    /// can be.
    #[error("its folder {folder} is not writable ({reason})")]
    FolderNotWritable { folder: String, reason: io::Error },
}

impl WriteError {
    /// Whether `--force` would write anyway: the refusals that protect an attribute of the
    /// file rather than its contents.
    pub fn forceable(&self) -> bool {
        matches!(
            self,
            WriteError::ReadOnly
                | WriteError::Exists
                | WriteError::HardLinks(_)
                | WriteError::Owner { .. }
                | WriteError::Attribute { .. }
        )
    }
}

/// What a write may override.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Rewrite read-only and hard-linked files, and files whose owner or extended
    /// attributes cannot be kept.
    pub force: bool,
}

/// Longest wait for another process's lock on a file.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// An advisory lock on the file a path names (through links), held from before the file is
/// read until it is replaced. Dropping it releases the lock.
#[derive(Debug)]
pub struct Lock {
    /// The file written: `path` with symbolic links resolved.
    target: PathBuf,
    /// The locked file, `None` when the path names no file yet.
    file: Option<File>,
}

impl Lock {
    /// Locks the file `path` names, waiting up to ten seconds for another deckbox (or any
    /// program using `flock`) to finish with it. A path that names no file yet is not locked.
    /// A file system without locks is written without one (the comparison in
    /// [`Lock::replace`] still guards it).
    pub fn acquire(path: &Path) -> Result<Lock, WriteError> {
        let target = resolve(path)?;
        let started = Instant::now();
        loop {
            // Looked at before opening: opening a named pipe would block.
            match std::fs::metadata(&target) {
                Ok(metadata) if !metadata.is_file() => {
                    return Err(WriteError::NotAFile(crate::util::bounded::kind(
                        &metadata.file_type(),
                    )));
                }
                Ok(_) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    return Ok(Lock { target, file: None });
                }
                Err(error) => return Err(error.into()),
            }
            let file = File::open(&target)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    if started.elapsed() > LOCK_WAIT {
                        return Err(WriteError::Locked);
                    }
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                // No locks on this file system: go on without one.
                Err(std::fs::TryLockError::Error(_)) => {}
            }
            // The holder before us may have replaced the file: the lock must be on the file
            // the path names now.
            if same_file(&file, &target) {
                return Ok(Lock {
                    target,
                    file: Some(file),
                });
            }
            if started.elapsed() > LOCK_WAIT {
                return Err(WriteError::Locked);
            }
        }
    }

    /// Replaces the locked file with `contents`. `expected` is what was read from it (to
    /// refuse when another program changed it since), or `None` to replace whatever is there
    /// (an output file).
    pub fn replace(
        &self,
        expected: Option<&[u8]>,
        contents: &[u8],
        options: Options,
    ) -> Result<(), WriteError> {
        self.replace_with(expected, options, |file| file.write_all(contents))
    }

    /// [`Lock::replace`] with the bytes written by `fill`. When `fill` fails (or anything
    /// after it does), the original is left as it was: tests use this to inject a failure in
    /// the middle of a write.
    pub fn replace_with(
        &self,
        expected: Option<&[u8]>,
        options: Options,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        self.put(expected, options, fill, Put::Replace)
    }

    /// The write itself: [`Lock::replace_with`], or a new file that never replaces one.
    fn put(
        &self,
        expected: Option<&[u8]>,
        options: Options,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
        put: Put,
    ) -> Result<(), WriteError> {
        let original = match &self.file {
            Some(file) => Some(file.metadata()?),
            None => None,
        };
        if let (Some(expected), Some(file)) = (expected, &self.file)
            && !holds(file, expected)?
        {
            return Err(WriteError::Changed);
        }
        if let (Some(metadata), false) = (&original, options.force) {
            refuse_protected(metadata)?;
        }
        let dir = match self.target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        remove_stale_temporaries(dir);
        let mut builder = tempfile::Builder::new();
        builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
        // A new file gets the permissions any program's new file gets (`umask` applies);
        // tempfile's own default, 0600, is for secrets.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        if !dir.is_dir() {
            return Err(WriteError::NoFolder(crate::util::escape::path_line(dir)));
        }
        // The error without the temporary file's name, which the user never gave.
        let mut temp = builder
            .tempfile_in(dir)
            .map_err(|error| match error.kind() {
                kind @ (io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem) => {
                    WriteError::FolderNotWritable {
                        folder: crate::util::escape::path_line(dir),
                        reason: kind.into(),
                    }
                }
                kind => io::Error::from(kind).into(),
            })?;
        fill(temp.as_file_mut())?;
        temp.as_file_mut().flush()?;
        if let Some(metadata) = &original {
            keep_attributes(&self.target, metadata, temp.as_file(), options)?;
        }
        temp.as_file().sync_all()?;
        // On error the temporary file is deleted when the returned value drops.
        match put {
            Put::Replace => temp.persist(&self.target).map_err(|error| error.error)?,
            // Linked in place, which fails rather than replace a file that appeared since
            // the lock was taken.
            Put::New => match temp.persist_noclobber(&self.target) {
                Ok(file) => file,
                Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(WriteError::Exists);
                }
                Err(error) => return Err(error.error.into()),
            },
        };
        sync_dir(dir);
        Ok(())
    }
}

/// Replaces `path` with `contents`, atomically, whatever it holds now (see the module docs
/// for what is kept and refused).
pub fn write(path: &Path, contents: &[u8], options: Options) -> Result<(), WriteError> {
    Lock::acquire(path)?.replace(None, contents, options)
}

/// How [`Lock::put`] puts the new file in place.
#[derive(Clone, Copy)]
enum Put {
    Replace,
    New,
}

/// Writes `contents` to `path` as a new file, atomically: an existing file (one that
/// appears meanwhile included) is [`WriteError::Exists`] and stays as it was. With
/// `options.force`, [`write()`] replaces it instead. An output file named after an existing
/// one by mistake (`convert deck.txt -o deck.txt`) loses nothing.
pub fn create(path: &Path, contents: &[u8], options: Options) -> Result<(), WriteError> {
    create_with(path, options, |file| file.write_all(contents))
}

/// [`create()`] with the bytes written by `fill`, which runs only once the path is known
/// to be free (or `options.force` is given): a long report streams into the new file, and
/// no work is done for a file that would be refused. When `fill` fails, nothing is written.
pub fn create_with(
    path: &Path,
    options: Options,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), WriteError> {
    let lock = Lock::acquire(path)?;
    if options.force {
        return lock.replace_with(None, options, fill);
    }
    if lock.file.is_some() {
        return Err(WriteError::Exists);
    }
    lock.put(None, options, fill, Put::New)
}

/// The file `path` names: symbolic links resolved, so the link stays a link. A path that is
/// not a link (or names nothing yet) is itself.
fn resolve(path: &Path) -> Result<PathBuf, WriteError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|error| match error.kind() {
                // A link to nothing: creating its target would write where no file was
                // named.
                io::ErrorKind::NotFound => {
                    let to = std::fs::read_link(path).unwrap_or_default();
                    WriteError::DanglingLink(crate::util::escape::path_line(&to))
                }
                _ => error.into(),
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// Whether the open `file` is the one `path` names now.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, _path: &Path) -> bool {
    true
}

/// Whether `file` holds exactly `expected` (read from its start, no more than one byte past
/// `expected`'s length).
fn holds(file: &File, expected: &[u8]) -> io::Result<bool> {
    let mut now = Vec::with_capacity(expected.len());
    let mut reader = file;
    std::io::Seek::seek(&mut reader, io::SeekFrom::Start(0))?;
    reader
        .take(expected.len() as u64 + 1)
        .read_to_end(&mut now)?;
    Ok(now == expected)
}

/// The refusals `--force` lifts: read-only files and files with several names.
fn refuse_protected(metadata: &std::fs::Metadata) -> Result<(), WriteError> {
    if metadata.permissions().readonly() {
        return Err(WriteError::ReadOnly);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(WriteError::HardLinks(metadata.nlink()));
        }
    }
    Ok(())
}

/// Gives the new file the original's permissions, owner, group and extended attributes.
/// What cannot be kept is an error unless forced; the permissions always can.
fn keep_attributes(
    target: &Path,
    metadata: &std::fs::Metadata,
    temp: &File,
    options: Options,
) -> Result<(), WriteError> {
    temp.set_permissions(metadata.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let made = temp.metadata()?;
        if (made.uid(), made.gid()) != (metadata.uid(), metadata.gid()) {
            let owned = std::os::unix::fs::fchown(temp, Some(metadata.uid()), Some(metadata.gid()));
            match owned {
                Ok(()) => temp.set_permissions(metadata.permissions())?,
                Err(error) if !options.force => {
                    return Err(WriteError::Owner {
                        uid: metadata.uid(),
                        gid: metadata.gid(),
                        error,
                    });
                }
                Err(_) => {}
            }
        }
        keep_extended_attributes(target, temp, options)?;
    }
    #[cfg(not(unix))]
    let _ = (target, options);
    Ok(())
}

/// Most extended attributes copied; a file with more is refused (unless forced, when the
/// rest are dropped).
#[cfg(unix)]
const MAX_ATTRIBUTES: usize = 1_000;

/// Copies the extended attributes of `target` to `temp`, skipping those the new file already
/// has with the same value (a security label the system gives every new file).
#[cfg(unix)]
fn keep_extended_attributes(
    target: &Path,
    temp: &File,
    options: Options,
) -> Result<(), WriteError> {
    use xattr::FileExt;
    let names = match xattr::list(target) {
        Ok(names) => names,
        // No extended attributes on this file system: nothing to keep.
        Err(error) if error.kind() == io::ErrorKind::Unsupported => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    for (index, name) in names.enumerate() {
        let shown = name.to_string_lossy().into_owned();
        let kept = if index >= MAX_ATTRIBUTES {
            Err(io::Error::other("too many extended attributes"))
        } else {
            xattr::get(target, &name).and_then(|value| match value {
                Some(value) if temp.get_xattr(&name)?.as_ref() != Some(&value) => {
                    temp.set_xattr(&name, &value)
                }
                _ => Ok(()),
            })
        };
        match kept {
            Ok(()) => {}
            Err(_) if options.force => {}
            Err(error) => {
                return Err(WriteError::Attribute {
                    name: crate::util::escape::visible_line(&shown).into_owned(),
                    error,
                });
            }
        }
    }
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
        write(&path, b"3 Pikachu\n", Options::default()).unwrap();
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
        write(&path, b"3 Pikachu\n", Options::default()).unwrap();
        assert!(!stale.exists());
        assert!(fresh.exists() && other.exists());
    }

    #[test]
    fn a_failure_mid_write_keeps_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        let lock = Lock::acquire(&path).unwrap();
        let result = lock.replace_with(None, Options::default(), |file| {
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
        write(&path, b"3 Pikachu\n", Options::default()).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn an_edit_made_since_the_read_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Pikachu\n").unwrap();
        let lock = Lock::acquire(&path).unwrap();
        // Another program (an editor, not using locks) saves the file in place.
        std::fs::write(&path, "4 Raichu\n").unwrap();
        let result = lock.replace(Some(b"4 Pikachu\n"), b"3 Pikachu\n", Options::default());
        assert!(matches!(result, Err(WriteError::Changed)), "{result:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "4 Raichu\n");
        // What was read is what is there: written.
        lock.replace(Some(b"4 Raichu\n"), b"3 Raichu\n", Options::default())
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "3 Raichu\n");
    }

    #[test]
    fn a_second_lock_waits_for_the_first_and_follows_the_replaced_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "1\n").unwrap();
        let first = Lock::acquire(&path).unwrap();
        let waiter = {
            let path = path.clone();
            std::thread::spawn(move || {
                let second = Lock::acquire(&path).unwrap();
                let read = std::fs::read(&path).unwrap();
                let mut next = read.clone();
                next.extend_from_slice(b"2\n");
                second
                    .replace(Some(&read), &next, Options::default())
                    .unwrap();
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        first
            .replace(Some(b"1\n"), b"1\nfirst\n", Options::default())
            .unwrap();
        drop(first);
        waiter.join().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "1\nfirst\n2\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        write(&path, b"1 Pikachu\n", Options::default()).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o044,
            0,
            "readable by others as umask allows: {mode:o}"
        );
    }

    #[test]
    fn create_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        create(&path, b"first", Options::default()).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let refused = create(&path, b"second", Options::default()).unwrap_err();
        assert!(matches!(refused, WriteError::Exists), "{refused}");
        assert!(refused.forceable());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        create(&path, b"third", Options { force: true }).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
    }

    #[test]
    fn a_new_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        write(&path, b"1 Pikachu\n", Options::default()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "1 Pikachu\n");
    }
}
