//! `deckbox cards update`, the library's part: install a card index built from a TCGdex
//! cards-database archive (`.tar.gz`, one top folder with `data/` inside, as GitHub serves a
//! branch), say which index is installed, and go back to the embedded one.
//!
//! It works on a file already on disk: downloading is the binary's job, so the library
//! keeps its promise of reading nothing it was not handed. Installing
//! 1. hashes the archive (SHA-256), refusing one larger than [`MAX_ARCHIVE_BYTES`] or that
//!    does not match a pinned hash;
//! 2. extracts its `data/` folder into a fresh folder beside the installed index, refusing
//!    the whole archive when it is truncated or corrupt (the gzip trailer's CRC is checked),
//!    when it unpacks to more than [`MAX_UNPACKED_BYTES`] or holds more than
//!    [`MAX_ENTRIES`] entries, one file over [`MAX_ENTRY_BYTES`], or an entry that would
//!    land outside the folder (an absolute path, `..`) or is a link or a device;
//! 3. builds the index with the embedded index's generator
//!    ([`super::committed_index::generate_with`]: the same loader, repairs, curated flags and
//!    order; the rules-text fingerprints TCGdex lacks come from the embedded index);
//! 4. refuses an index that would be worse than the one in use (fewer printings, or a
//!    printing of it that no longer resolves) unless forced;
//! 5. writes the new index to a temporary file in the same folder and renames it over the
//!    installed one, so a reader sees the old index or the new one, never half of one.
//!
//! A failure at any step, a `kill -9` included, leaves the installed index as it was: the
//! only change ever made to it is the final rename. One update runs at a time (an advisory
//! lock on `update.lock`, released by the system when the process dies). This module never
//! prints; progress goes to a [`Progress`] the caller gives.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{checkout_cache, committed_index, embedded};
use crate::cards::database::CardDb;
use crate::cards::model::{Printing, Source};

/// Largest archive accepted (downloaded or given as a file): TCGdex's cards-database
/// archive of its main branch is about 20 MB compressed (2026-11).
pub const MAX_ARCHIVE_BYTES: u64 = 512 << 20;

/// Most bytes the archive may unpack to, every entry counted (the repository holds more
/// than `data/`): about 110 MB today. A small archive that inflates without end (a gzip
/// bomb) is refused here.
pub const MAX_UNPACKED_BYTES: u64 = 2 << 30;

/// Most entries (files and folders) the archive may hold: about 25,000 today (23,881 files
/// under `data/`). Each file under `data/` is written to disk, so this bounds the files an
/// archive can make deckbox create (a flood of empty files costs about 1 ms each on a busy
/// 2-core machine).
pub const MAX_ENTRIES: u64 = 100_000;

/// Largest single file extracted: a card record is a few kilobytes.
pub const MAX_ENTRY_BYTES: u64 = 8 << 20;

/// Longest path of an entry, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;

/// Largest installed index read back: a full index is about 12 MB.
pub const MAX_INSTALLED_BYTES: u64 = 512 << 20;

/// The variable that lowers [`MAX_ARCHIVE_BYTES`] (in bytes), for tests and for users who
/// want a tighter bound; it can never raise it.
pub const MAX_ARCHIVE_VAR: &str = "DECKBOX_UPDATE_MAX_BYTES";

/// The installed index, inside the data folder.
const INSTALLED: &str = "index.dbx";
/// Held (advisory lock) while an update runs.
const LOCK: &str = "update.lock";
/// Prefix of the folders and files an update works in (removed when it ends; left behind
/// only by a killed process, and removed by a later update after a day).
const WORK_PREFIX: &str = ".update-";

const MAGIC: &[u8; 8] = b"DBXUPDAT";
/// Magic, layout version, card-cache version, meta length, total length, CRC-32 of the rest.
const HEADER_LEN: usize = 8 + 4 + 4 + 4 + 8 + 4;
const LAYOUT_VERSION: u32 = 1;

/// Why an update, a status or a reset did not happen. Each leaves the installed index as
/// it was.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error("cannot {action} {path}: {}", io_reason(action, path, source))]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("the archive is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("the archive's SHA-256 is {actual}, not the pinned {expected}")]
    Checksum { expected: String, actual: String },
    #[error("the archive is truncated or corrupt: {0}")]
    Corrupt(String),
    #[error("the archive holds an entry deckbox refuses: {0}")]
    Refused(String),
    #[error("the archive holds no TCGdex card data (expected one top folder with data/ inside)")]
    NoData,
    #[error("the card data in the archive cannot be used: {0}")]
    Cards(#[from] crate::cards::sources::CardDbError),
    #[error("{0}")]
    Worse(String),
    #[error("another `deckbox cards update` is running (it holds {0})")]
    Busy(PathBuf),
    #[error("no data folder: set DECKBOX_DATA_DIR")]
    NoDataDir,
    #[error("the installed card index {0} is damaged or from another deckbox version")]
    Damaged(PathBuf),
    /// A file of the archive that this machine could not write while unpacking it (a full
    /// disk), named by its path in the archive, and the data folder it was unpacked in.
    #[error(
        "cannot unpack {entry} from the archive into {}: {source}",
        crate::util::escape::path_line(dir)
    )]
    Unpack {
        entry: String,
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Why `source` happened at `path`, said plainly where the system's words mislead: a
/// folder on the way that is a file (the card folder of the data folder replaced by a file)
/// is "Not a directory" when read through and "File exists" when created; a full disk is
/// said as the system says it.
fn io_reason(action: &str, path: &Path, source: &io::Error) -> String {
    // A link in a loop or to nothing is "File exists" when created.
    let link =
        action == "create" && std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_symlink());
    if let (true, Err(followed)) = (link, std::fs::metadata(path)) {
        return format!("it is a symbolic link that cannot be followed ({followed})");
    }
    let on_the_way = match source.kind() {
        io::ErrorKind::NotADirectory => path.parent(),
        io::ErrorKind::AlreadyExists if action == "create" => Some(path),
        _ => None,
    };
    let file = on_the_way.and_then(|from| {
        from.ancestors()
            .find_map(|at| std::fs::metadata(at).ok().map(|meta| (at, meta)))
            .filter(|(_, meta)| !meta.is_dir())
    });
    match file {
        Some((at, _)) => format!(
            "{} is a file, not a folder (move it away)",
            crate::util::escape::path_line(at)
        ),
        None => source.to_string(),
    }
}

impl UpdateError {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> UpdateError {
        let path = path.to_path_buf();
        move |source| UpdateError::Io {
            action,
            path,
            source,
        }
    }

    /// The error with every path inside the folder `work` (where the archive was unpacked,
    /// a name the user never saw) said as the path in the archive; `dir` is the data folder
    /// `work` was made in.
    fn in_archive(self, work: &Path, dir: &Path) -> UpdateError {
        use crate::cards::sources::CardDbError;
        let inside = |path: &Path| {
            path.strip_prefix(work).ok().map(|entry| {
                (entry.components())
                    .map(|part| part.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/")
            })
        };
        match self {
            UpdateError::Io {
                action,
                path,
                source,
            } => match inside(&path) {
                Some(entry) => UpdateError::Unpack {
                    entry,
                    dir: dir.to_path_buf(),
                    source,
                },
                None => UpdateError::Io {
                    action,
                    path,
                    source,
                },
            },
            UpdateError::Cards(error) => UpdateError::Cards(match error {
                CardDbError::Io { path, source } => CardDbError::Io {
                    path: inside(&path).map_or(path, PathBuf::from),
                    source,
                },
                CardDbError::Invalid { path, message } => CardDbError::Invalid {
                    path: inside(&path).map_or(path, PathBuf::from),
                    message,
                },
                CardDbError::TooLarge { path, message } => CardDbError::TooLarge {
                    path: inside(&path).map_or(path, PathBuf::from),
                    message,
                },
                CardDbError::UnknownLayout { path } => CardDbError::UnknownLayout {
                    path: inside(&path).map_or(path, PathBuf::from),
                },
            }),
            other => other,
        }
    }
}

/// What an installed index was built from, kept with it and shown by `deckbox cards status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Installed {
    /// The URL or file the archive came from.
    pub from: String,
    /// When it was installed (RFC 3339, UTC).
    pub installed: String,
    /// The archive's SHA-256, in lower-case hex.
    pub sha256: String,
    /// How many printings the index holds.
    pub printings: usize,
    /// The newest set: its TCGdex id, code, English name and release date.
    pub newest_set: NewestSet,
}

/// The set released last in an index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewestSet {
    pub id: String,
    pub code: String,
    pub name: String,
    pub released: String,
}

/// Bounds of one install (see the constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub archive_bytes: u64,
    pub unpacked_bytes: u64,
    pub entries: u64,
    pub entry_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            archive_bytes: MAX_ARCHIVE_BYTES,
            unpacked_bytes: MAX_UNPACKED_BYTES,
            entries: MAX_ENTRIES,
            entry_bytes: MAX_ENTRY_BYTES,
        }
    }
}

impl Limits {
    /// The default bounds, the archive's lowered by [`MAX_ARCHIVE_VAR`] when it is set to a
    /// number below [`MAX_ARCHIVE_BYTES`].
    pub fn from_env() -> Limits {
        let lowered = std::env::var(MAX_ARCHIVE_VAR)
            .ok()
            .and_then(|value| value.trim().parse::<u64>().ok())
            .map_or(MAX_ARCHIVE_BYTES, |value| value.min(MAX_ARCHIVE_BYTES));
        Limits {
            archive_bytes: lowered,
            ..Limits::default()
        }
    }
}

/// What an install may do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Where the archive came from (a URL or a path), recorded with the index.
    pub from: String,
    /// The archive's SHA-256 must be this.
    pub sha256: Option<[u8; 32]>,
    /// Install an index even when it is worse than the one in use.
    pub force: bool,
    pub limits: Limits,
}

use crate::util::progress::{Progress, Unit};

/// The folder updated card data lives in: `$DECKBOX_DATA_DIR`, else the user's data folder
/// (`~/.local/share/deckbox/cards` on Linux).
pub fn data_dir() -> Result<PathBuf, UpdateError> {
    std::env::var_os("DECKBOX_DATA_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|dir| dir.join("deckbox")))
        .map(|dir| dir.join("cards"))
        .ok_or(UpdateError::NoDataDir)
}

/// The installed index's file in `dir`.
pub fn installed_path(dir: &Path) -> PathBuf {
    dir.join(INSTALLED)
}

/// A hex SHA-256 as 32 bytes; `None` when it is not 64 hex digits.
pub fn parse_sha256(hex: &str) -> Option<[u8; 32]> {
    let hex = hex.trim();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Holds the update lock of `dir` while alive.
pub struct UpdateLock(#[allow(dead_code, reason = "held for its lock")] File);

/// Takes the update lock of `dir` (creating `dir`), or says another update holds it.
pub fn lock(dir: &Path) -> Result<UpdateLock, UpdateError> {
    std::fs::create_dir_all(dir).map_err(UpdateError::io("create", dir))?;
    let path = dir.join(LOCK);
    // Opening creates the file: through a link, that would be a file no one named.
    if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_symlink()) {
        return Err(UpdateError::Io {
            action: "open",
            path,
            source: io::Error::other(
                "it is a symbolic link, and deckbox creates its lock through no link",
            ),
        });
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(UpdateError::io("open", &path))?;
    match file.try_lock() {
        Ok(()) | Err(std::fs::TryLockError::Error(_)) => Ok(UpdateLock(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(UpdateError::Busy(path)),
    }
}

/// A temporary file in `dir` for the caller to download into; removed when dropped.
pub fn download_file(dir: &Path) -> Result<tempfile::NamedTempFile, UpdateError> {
    std::fs::create_dir_all(dir).map_err(UpdateError::io("create", dir))?;
    tempfile::Builder::new()
        .prefix(WORK_PREFIX)
        .suffix(".tar.gz")
        .tempfile_in(dir)
        .map_err(UpdateError::io("create a file in", dir))
}

/// Installs the index built from the archive `archive` into `dir` (see the module docs).
/// The caller holds [`lock`].
pub fn install(
    dir: &Path,
    archive: &Path,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Installed, UpdateError> {
    remove_stale_work(dir);
    let sha256 = hash(archive, options.limits.archive_bytes, progress)?;
    if let Some(expected) = options.sha256
        && expected != sha256
    {
        return Err(UpdateError::Checksum {
            expected: to_hex(&expected),
            actual: to_hex(&sha256),
        });
    }
    let work = tempfile::Builder::new()
        .prefix(WORK_PREFIX)
        .tempdir_in(dir)
        .map_err(UpdateError::io("create a folder in", dir))?;
    let in_archive = |error: UpdateError| error.in_archive(work.path(), dir);
    let root = extract(archive, work.path(), &options.limits, progress).map_err(in_archive)?;
    progress.step("building the card index", None, Unit::Bytes);
    let embedded = embedded::open()?;
    let repairs: Vec<Printing> = embedded.iter().map(|(_, p)| p.clone()).collect();
    let generated = committed_index::generate_with(&root, Some(&repairs))
        .map_err(|error| in_archive(error.into()))?;
    let target = installed_path(dir);
    let new = committed_index::db_from_bin(&generated.bin, Source::Updated(target.clone()))
        .ok_or_else(|| UpdateError::Corrupt("the index built from it does not read back".into()))?;
    // Kept for the rest of the process (one update per run): the texts stay encoded, as
    // the embedded index's are, and are written into the installed file as they are.
    let details: &'static [u8] = Box::leak(generated.details.into_boxed_slice());
    let new = new.with_encoded_details(details);
    if new.all_details().len() != new.len() {
        return Err(UpdateError::Corrupt(
            "the card texts built from it do not read back".into(),
        ));
    }
    let current = match open_installed(dir) {
        Ok(Some(db)) => db,
        _ => embedded,
    };
    if !options.force {
        compare(&current, &new)?;
    }
    let newest = newest_set(&new, &root).ok_or(UpdateError::NoData)?;
    let installed = Installed {
        from: options.from.clone(),
        installed: jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .map_or_else(
                |_| jiff::Timestamp::now().to_string(),
                |now| now.to_string(),
            ),
        sha256: to_hex(&sha256),
        printings: new.len(),
        newest_set: newest,
    };
    let bytes = encode(&installed, &new).ok_or_else(|| {
        UpdateError::Corrupt("the index built from it does not fit the file layout".into())
    })?;
    write_over(dir, &target, &bytes)?;
    progress.finish();
    Ok(installed)
}

/// The SHA-256 of the file at `archive`, refusing one over `limit` bytes.
fn hash(archive: &Path, limit: u64, progress: &dyn Progress) -> Result<[u8; 32], UpdateError> {
    let (file, meta) = crate::util::bounded::open(archive).map_err(|source| {
        if source.kind() == std::io::ErrorKind::InvalidInput {
            UpdateError::Refused(format!("{}: {source}", archive.display()))
        } else {
            UpdateError::io("open", archive)(source)
        }
    })?;
    if meta.len() > limit {
        return Err(UpdateError::TooLarge { limit });
    }
    progress.step("checking the archive", Some(meta.len()), Unit::Bytes);
    let mut hasher = Sha256::new();
    let mut reader = file.take(limit + 1);
    let mut buffer = vec![0u8; 64 << 10];
    let mut done = 0u64;
    loop {
        let n = reader
            .read(&mut buffer)
            .map_err(UpdateError::io("read", archive))?;
        if n == 0 {
            break;
        }
        done += n as u64;
        if done > limit {
            return Err(UpdateError::TooLarge { limit });
        }
        hasher.update(&buffer[..n]);
        progress.advance(done);
    }
    Ok(hasher.finalize().into())
}

/// A reader that fails once more than `limit` bytes came through it, and reports the
/// bytes read from the file beneath to the progress.
struct Counted<'p, R> {
    inner: R,
    read: u64,
    limit: u64,
    what: &'static str,
    progress: Option<&'p dyn Progress>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.limit {
            return Err(io::Error::other(format!(
                "it {} more than {} bytes",
                self.what, self.limit
            )));
        }
        if let Some(progress) = self.progress {
            progress.advance(self.read);
        }
        Ok(n)
    }
}

/// Extracts the `data/` folder of the archive's one top folder into `work`, returning the
/// top folder (a TCGdex checkout). Every entry is checked, extracted or not.
fn extract(
    archive: &Path,
    work: &Path,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<PathBuf, UpdateError> {
    let (file, meta) =
        crate::util::bounded::open(archive).map_err(UpdateError::io("open", archive))?;
    let size = Some(meta.len());
    progress.step("unpacking the archive", size, Unit::Bytes);
    let compressed = Counted {
        inner: file,
        read: 0,
        limit: limits.archive_bytes,
        what: "holds",
        progress: Some(progress),
    };
    let unpacked = Counted {
        inner: flate2::read::GzDecoder::new(io::BufReader::new(compressed)),
        read: 0,
        limit: limits.unpacked_bytes,
        what: "unpacks to",
        progress: None,
    };
    let mut tar = tar::Archive::new(unpacked);
    let corrupt = |error: io::Error| UpdateError::Corrupt(error.to_string());
    let mut top: Option<String> = None;
    let mut entries = 0u64;
    for entry in tar.entries().map_err(corrupt)? {
        let mut entry = entry.map_err(corrupt)?;
        entries += 1;
        if entries > limits.entries {
            return Err(UpdateError::Refused(format!(
                "more than {} entries",
                limits.entries
            )));
        }
        let kind = entry.header().entry_type();
        if kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        let raw = entry.path_bytes().into_owned();
        let parts = safe_parts(&raw)?;
        if !(kind.is_file() || kind.is_dir()) {
            return Err(UpdateError::Refused(format!(
                "{} is a {}, not a file or a folder",
                String::from_utf8_lossy(&raw),
                kind_name(kind)
            )));
        }
        let Some(first) = parts.first() else {
            continue;
        };
        match &top {
            None => top = Some(first.clone()),
            Some(top) if top != first => {
                return Err(UpdateError::Refused(format!(
                    "{} is outside the archive's one top folder {top}",
                    String::from_utf8_lossy(&raw)
                )));
            }
            Some(_) => {}
        }
        if kind.is_file() && parts.get(1).is_some_and(|part| part == "data") {
            write_entry(&mut entry, work, &parts, limits)?;
        }
    }
    // The entries end at the end-of-archive blocks; the gzip trailer (its CRC and length)
    // is only checked when the stream is read to its end.
    let mut rest = tar.into_inner();
    io::copy(&mut rest, &mut io::sink()).map_err(corrupt)?;
    let root = work.join(top.ok_or(UpdateError::NoData)?);
    if checkout_cache::detect(&root).ok() != Some(checkout_cache::Layout::Tcgdex) {
        return Err(UpdateError::NoData);
    }
    Ok(root)
}

fn kind_name(kind: tar::EntryType) -> &'static str {
    if kind.is_symlink() {
        "symbolic link"
    } else if kind.is_hard_link() {
        "hard link"
    } else if kind.is_character_special() || kind.is_block_special() {
        "device"
    } else if kind.is_fifo() {
        "named pipe"
    } else {
        "special entry"
    }
}

/// The parts of an entry's path, refused when it is absolute, climbs out (`..`), is not
/// UTF-8 or is too long. `.` parts are dropped.
fn safe_parts(raw: &[u8]) -> Result<Vec<String>, UpdateError> {
    let shown = || String::from_utf8_lossy(raw).into_owned();
    if raw.len() > MAX_PATH_BYTES {
        return Err(UpdateError::Refused(format!(
            "a path longer than {MAX_PATH_BYTES} bytes"
        )));
    }
    let text = std::str::from_utf8(raw)
        .map_err(|_| UpdateError::Refused(format!("{} is not UTF-8", shown())))?;
    if text.contains('\\') || text.contains('\0') {
        return Err(UpdateError::Refused(format!(
            "{} is not a plain path",
            shown()
        )));
    }
    let mut parts = Vec::new();
    for component in Path::new(text).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(UpdateError::Refused(format!(
                    "{} climbs out of its folder (`..`)",
                    shown()
                )));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(UpdateError::Refused(format!("{} is absolute", shown())));
            }
        }
    }
    Ok(parts)
}

/// Copies an entry to its file: what the archive could not give is a corrupt archive, what
/// the disk could not take (a full disk) is said as a write error naming the file.
fn copy_entry(
    entry: &mut impl Read,
    out: &mut std::fs::File,
    path: &Path,
) -> Result<u64, UpdateError> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut copied = 0u64;
    loop {
        let read = match entry.read(&mut buffer) {
            Ok(0) => return Ok(copied),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(UpdateError::Corrupt(error.to_string())),
        };
        out.write_all(buffer.get(..read).unwrap_or_default())
            .map_err(UpdateError::io("write", path))?;
        copied += read as u64;
    }
}

/// Writes one file entry under `work`, at most `limits.entry_bytes` of it.
fn write_entry(
    entry: &mut impl Read,
    work: &Path,
    parts: &[String],
    limits: &Limits,
) -> Result<(), UpdateError> {
    let path = parts
        .iter()
        .fold(work.to_path_buf(), |path, p| path.join(p));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(UpdateError::io("create", parent))?;
    }
    // `create_new`: two entries of one name are refused rather than one overwriting the
    // other (and nothing that exists is ever followed).
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|error| match error.kind() {
            io::ErrorKind::AlreadyExists => {
                UpdateError::Refused(format!("{}: {error}", parts.join("/")))
            }
            // A full disk, a folder deckbox may not write in: this machine, not the archive.
            _ => UpdateError::Io {
                action: "create",
                path: path.clone(),
                source: error,
            },
        })?;
    let copied = copy_entry(&mut entry.take(limits.entry_bytes + 1), &mut out, &path)?;
    if copied > limits.entry_bytes {
        return Err(UpdateError::Refused(format!(
            "{} is larger than {} bytes",
            parts.join("/"),
            limits.entry_bytes
        )));
    }
    Ok(())
}

/// Refuses `new` when it is worse than `current`: fewer printings, or a printing of
/// `current` it cannot find by set code and number.
fn compare(current: &CardDb, new: &CardDb) -> Result<(), UpdateError> {
    if new.len() < current.len() {
        return Err(UpdateError::Worse(format!(
            "the archive's card data has {} printings, fewer than the {} of the index in use",
            new.len(),
            current.len()
        )));
    }
    // By set code and number as lists write them; a printing of a set without a code
    // (some promos and collections) by its set id and number.
    let ids: std::collections::HashSet<(&str, &str)> = new
        .iter()
        .map(|(_, p)| (p.set_id.as_str(), p.number.as_str()))
        .collect();
    let lost: Vec<String> = current
        .iter()
        .filter(|(_, p)| {
            let by_code =
                !p.set_code.is_empty() && !new.by_set_number(&p.set_code, &p.number).is_empty();
            !by_code && !ids.contains(&(p.set_id.as_str(), p.number.as_str()))
        })
        .map(|(_, p)| {
            let set = if p.set_code.is_empty() {
                &p.set_id
            } else {
                &p.set_code
            };
            format!("{set} {}", p.number)
        })
        .collect();
    if let Some(first) = lost.first() {
        return Err(UpdateError::Worse(format!(
            "{} printings of the index in use would no longer resolve (first: {first})",
            lost.len()
        )));
    }
    Ok(())
}

/// The set released last in `db` (its printings are sorted by release date), with its
/// English name read from its set file under `root`.
fn newest_set(db: &CardDb, root: &Path) -> Option<NewestSet> {
    let last = db.get(u32::try_from(db.len().checked_sub(1)?).ok()?)?;
    Some(NewestSet {
        name: set_name(root, &last.set_id).unwrap_or_default(),
        id: last.set_id.clone(),
        code: last.set_code.clone(),
        released: last.release_date.clone(),
    })
}

/// Largest set file read for its name.
const MAX_SET_FILE_BYTES: u64 = 1 << 20;

/// The English name of the set `id`, from `data/<Serie>/<Set>.ts`.
fn set_name(root: &Path, id: &str) -> Option<String> {
    use crate::cards::sources::from_tcgdex::literal::{Value, parse_module};
    let series = std::fs::read_dir(root.join("data")).ok()?;
    for serie in series.flatten().filter(|e| e.path().is_dir()) {
        for set in std::fs::read_dir(serie.path()).ok()?.flatten() {
            let path = set.path();
            if path.extension().is_none_or(|ext| ext != "ts") {
                continue;
            }
            let Ok(text) = crate::util::bounded::read_to_string(&path, MAX_SET_FILE_BYTES) else {
                continue;
            };
            let Ok(value) = parse_module(&text) else {
                continue;
            };
            if value.get("id").and_then(Value::as_str) == Some(id) {
                let name = value.get("name")?;
                let english = name.get("en").or(Some(name))?;
                return english.as_str().map(str::to_string);
            }
        }
    }
    None
}

/// The installed file: header, the record as JSON, then the database as the `--cards`
/// cache lays it out ([`CardDb::encode`]).
fn encode(installed: &Installed, db: &CardDb) -> Option<Vec<u8>> {
    let meta = serde_json::to_vec(installed).ok()?;
    let mut body = meta.clone();
    db.encode(&mut body, true)?;
    let mut bytes = Vec::with_capacity(HEADER_LEN + body.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&LAYOUT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&checkout_cache::FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&u32::try_from(meta.len()).ok()?.to_le_bytes());
    bytes.extend_from_slice(&((HEADER_LEN + body.len()) as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    bytes.extend_from_slice(&body);
    Some(bytes)
}

/// The record and where the database starts, when `bytes` is a whole installed file of
/// this deckbox's layout.
fn decode_header(bytes: &[u8]) -> Option<(Installed, usize)> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..8)? != MAGIC
        || word(8)? != LAYOUT_VERSION
        || word(12)? != checkout_cache::FORMAT_VERSION
    {
        return None;
    }
    let meta_len = word(16)? as usize;
    let total = u64::from_le_bytes(bytes.get(20..28)?.try_into().ok()?);
    let crc = word(28)?;
    let body = bytes.get(HEADER_LEN..)?;
    if total != bytes.len() as u64 || crc32fast::hash(body) != crc {
        return None;
    }
    let installed = serde_json::from_slice(body.get(..meta_len)?).ok()?;
    Some((installed, HEADER_LEN + meta_len))
}

/// What is installed in `dir`: `None` when nothing is (the embedded index is in use).
pub fn status(dir: &Path) -> Result<Option<Installed>, UpdateError> {
    Ok(read_installed(dir)?.map(|(installed, _, _)| installed))
}

/// The installed index of `dir`, `None` when there is none.
pub fn open_installed(dir: &Path) -> Result<Option<CardDb>, UpdateError> {
    let Some((_, bytes, start)) = read_installed(dir)? else {
        return Ok(None);
    };
    let path = installed_path(dir);
    CardDb::decode(Source::Updated(path.clone()), bytes, start)
        .map(Some)
        .ok_or(UpdateError::Damaged(path))
}

type Read3 = (Installed, Vec<u8>, usize);

fn read_installed(dir: &Path) -> Result<Option<Read3>, UpdateError> {
    let path = installed_path(dir);
    let bytes = match crate::util::bounded::read(&path, MAX_INSTALLED_BYTES) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(UpdateError::Io {
                action: "read",
                path,
                source,
            });
        }
    };
    let (installed, start) = decode_header(&bytes).ok_or(UpdateError::Damaged(path))?;
    Ok(Some((installed, bytes, start)))
}

/// Removes the installed index of `dir`: the embedded one is used again. Whether there was
/// one.
pub fn reset(dir: &Path) -> Result<bool, UpdateError> {
    let path = installed_path(dir);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(UpdateError::Io {
            action: "remove",
            path,
            source,
        }),
    }
}

/// Writes `bytes` to a temporary file in `dir`, flushes it to disk, and renames it to
/// `target`.
fn write_over(dir: &Path, target: &Path, bytes: &[u8]) -> Result<(), UpdateError> {
    let mut temp = tempfile::Builder::new()
        .prefix(WORK_PREFIX)
        .tempfile_in(dir)
        .map_err(UpdateError::io("create a file in", dir))?;
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .map_err(UpdateError::io("write", temp.path()))?;
    temp.persist(target).map_err(|error| UpdateError::Io {
        action: "replace",
        path: target.to_path_buf(),
        source: error.error,
    })?;
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Removes what killed updates left in `dir` more than a day ago (a running update's work
/// is younger, and the lock keeps a second one out anyway).
fn remove_stale_work(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let day_ago = SystemTime::now()
        .checked_sub(std::time::Duration::from_secs(24 * 3600))
        .unwrap_or(UNIX_EPOCH);
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(WORK_PREFIX)
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|modified| modified < day_ago);
        if stale {
            let path = entry.path();
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_escape_are_refused() {
        assert!(safe_parts(b"/etc/passwd").is_err());
        assert!(safe_parts(b"top/../../x").is_err());
        assert!(safe_parts(b"top/data/../../../x").is_err());
        assert!(safe_parts(&[b'a'; MAX_PATH_BYTES + 1]).is_err());
        assert!(safe_parts(b"top\\..\\x").is_err());
        assert_eq!(
            safe_parts(b"./top/data/Base.ts").unwrap(),
            ["top", "data", "Base.ts"]
        );
    }

    #[test]
    fn hashes_are_64_hex_digits() {
        let hex = "ab".repeat(32);
        assert_eq!(parse_sha256(&hex), Some([0xab; 32]));
        assert_eq!(to_hex(&[0xab; 32]), hex);
        assert!(parse_sha256("abc").is_none());
        assert!(parse_sha256(&"zz".repeat(32)).is_none());
    }

    fn db(printings: &[(&str, &str, &str)]) -> CardDb {
        let printings = printings
            .iter()
            .map(|(id, code, number)| {
                let mut p = Printing::new(code, number, crate::cards::model::Category::Trainer);
                p.set_id = (*id).into();
                p
            })
            .collect();
        CardDb::new(Source::Embedded, printings)
    }

    #[test]
    fn worse_data_is_refused() {
        let current = db(&[("sv06", "TWM", "128"), ("mep", "", "7")]);
        let same = db(&[
            ("sv06", "TWM", "128"),
            ("mep", "", "7"),
            ("me99", "TSG", "1"),
        ]);
        assert!(compare(&current, &same).is_ok());
        let fewer = db(&[("sv06", "TWM", "128")]);
        let error = compare(&current, &fewer).unwrap_err().to_string();
        assert!(error.contains("1 printings, fewer than the 2"), "{error}");
        let moved = db(&[("sv06", "TWM", "128"), ("mep", "", "8")]);
        let error = compare(&current, &moved).unwrap_err().to_string();
        assert!(error.contains("(first: mep 7)"), "{error}");
    }

    #[test]
    fn damaged_installed_files_are_refused() {
        let db = CardDb::new(
            Source::Embedded,
            vec![Printing::new(
                "TWM",
                "128",
                crate::cards::model::Category::Pokemon,
            )],
        );
        let installed = Installed {
            from: "test".into(),
            installed: "2026-11-26T00:00:00Z".into(),
            sha256: "00".repeat(32),
            printings: 1,
            newest_set: NewestSet {
                id: "sv06".into(),
                code: "TWM".into(),
                name: "Twilight Masquerade".into(),
                released: "2024-05-24".into(),
            },
        };
        let bytes = encode(&installed, &db).unwrap();
        let (back, start) = decode_header(&bytes).unwrap();
        assert_eq!(back, installed);
        assert!(CardDb::decode(Source::Embedded, bytes.clone(), start).is_some());
        for at in (0..bytes.len()).step_by(13) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x04;
            assert!(decode_header(&damaged).is_none(), "byte {at}");
        }
        assert!(decode_header(&bytes[..bytes.len() - 1]).is_none());
    }
}
