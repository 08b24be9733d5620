//! One deck file changed as a transaction: what `fmt --write`, `add` and `remove` (and
//! `build`'s save) do to a file, and when they refuse.
//!
//! The file is locked before it is read (another deckbox changing it waits, then works on
//! the result), the new text is computed from the text read, and it is written through
//! [`crate::util::atomic`] only when it differs, with the original compared first so a file
//! changed meanwhile is never overwritten. The write happens here rather than in the binary
//! because it is one step of the transaction: taking the lock, reading under it and writing
//! under it cannot be split between two callers without a caller able to get the order
//! wrong. Nothing is printed: each function returns what happened, and the caller says it.
//!
//! The rewrite policy, which every caller shares:
//! - Only UTF-8 files are rewritten: a file read as Windows-1252 or UTF-16 (or UTF-8 with
//!   damaged bytes) would be written back re-encoded, changing bytes nobody asked to change
//!   (`Poké` in a file with one stray byte would become `PokÃ©` for good).
//! - A list with lines deckbox cannot read is never rewritten: the lines would be lost
//!   ([`crate::edit::listing::Refusal`]).
//! - A canonical file is never touched by `fmt --write`.
//! - `add` and `remove` apply every spec in order, each to the text the previous one left;
//!   the first failure stops everything and nothing is written.
//!
//! The settings (the format a deck is judged in, which may be the one the deck declares) are
//! not this wing's: the caller passes a function from the deck read to its format, and its
//! error type, into which [`FileError`] and [`ReadError`] convert.

use std::borrow::Cow;
use std::path::Path;

use crate::cards::CardDb;
use crate::check::{self, CheckedDeck};
use crate::deck::DeckInput;
use crate::deck::input::{ReadError, read_deck};
use crate::edit::in_place::{self, EditError, Edited, Spec};
use crate::edit::listing::{self, Formatted};
use crate::formats::Format;
use crate::util::atomic::{Lock, Options, WriteError};
use crate::util::escape::path_line;

/// Why a file is not read, formatted or rewritten; `crate::error::Error` has a variant for
/// each, which says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// `add` or `remove` on a path that is no regular file.
    NotEditable { name: String, kind: &'static str },
    /// A file that would be written back in another encoding than it was read in.
    NotUtf8 {
        name: String,
        encoding: &'static str,
        remedy: String,
    },
    /// A list that formatting or conversion would damage (lines it cannot file).
    Refused { name: String, reason: String },
    /// Arguments that cannot be honoured (standard input cannot be rewritten).
    Misuse(&'static str),
}

/// A transaction that did not complete; the file is as it was.
#[derive(Debug)]
pub enum Failed<E> {
    /// The lock could not be taken, or the write was refused or failed.
    Unwritten(WriteError),
    /// The file could not be read, judged or rewritten.
    Error(E),
}

/// What `fmt` does with a file.
#[derive(Debug, Clone, Copy)]
pub enum FmtMode {
    /// The canonical list, to print.
    Print,
    /// Whether the file is canonical (its canonical text when it is not, for a diff).
    Check,
    /// Rewritten in place, with these options, when it is not canonical.
    Write(Options),
}

/// What `fmt` did with a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fmt {
    /// The file and its canonical text (`Print` always; `Check` when it is not canonical).
    Formatted(Formatted),
    /// Already canonical (`Check`, `Write`): nothing to say, nothing written.
    Canonical,
    /// Rewritten (`Write`).
    Written,
}

/// The misuses of `fmt` arguments cannot express: several files to print, standard input
/// to rewrite.
pub fn fmt_misuse(mode: FmtMode, files: &[&Path]) -> Option<FileError> {
    match mode {
        FmtMode::Print if files.len() > 1 => Some(FileError::Misuse(
            "`deckbox fmt` prints one file; use `--check` or `--write` for several",
        )),
        FmtMode::Write(_) if files.iter().any(|file| file.as_os_str() == "-") => Some(
            FileError::Misuse("`--write` cannot rewrite standard input (`-`)"),
        ),
        _ => None,
    }
}

/// `fmt` on one file: taking the lock first when it is to be rewritten, reading it (unless
/// `ready`, standard input already read), judging it in `format_of` its deck, then printing,
/// checking or rewriting it as `mode` says.
pub fn fmt_file<'f, E: From<FileError> + From<ReadError>>(
    file: &Path,
    ready: Option<Result<DeckInput, E>>,
    db: &CardDb,
    format_of: impl FnOnce(&DeckInput) -> Result<Cow<'f, Format>, E>,
    mode: FmtMode,
) -> Result<Fmt, Failed<E>> {
    let lock = match mode {
        FmtMode::Write(_) => Some(Lock::acquire(file).map_err(Failed::Unwritten)?),
        FmtMode::Print | FmtMode::Check => None,
    };
    let input = match ready {
        Some(ready) => ready.map_err(Failed::Error)?,
        None => read_deck(file, &mut std::io::empty(), &mut true)
            .map_err(|error| Failed::Error(E::from(error)))?,
    };
    if let FmtMode::Write(_) = mode {
        refuse_foreign_encoding(file, &input).map_err(|error| Failed::Error(E::from(error)))?;
    }
    let format = format_of(&input).map_err(Failed::Error)?;
    let formatted = match mode {
        // A canonical file is found without rendering its canonical text whole.
        FmtMode::Check => listing::format_unless_canonical(&input, db, &format),
        FmtMode::Print | FmtMode::Write(_) => listing::format(&input, db, &format).map(Some),
    }
    .map_err(|refusal| Failed::Error(E::from(refused(file, &refusal))))?;
    let Some(formatted) = formatted else {
        return Ok(Fmt::Canonical);
    };
    match (mode, lock) {
        (FmtMode::Write(_), _) if formatted.is_canonical() => Ok(Fmt::Canonical),
        (FmtMode::Write(options), Some(lock)) => {
            let original = formatted.original.as_bytes();
            lock.replace(Some(original), formatted.formatted.as_bytes(), options)
                .map_err(Failed::Unwritten)?;
            Ok(Fmt::Written)
        }
        (FmtMode::Check, _) if formatted.is_canonical() => Ok(Fmt::Canonical),
        _ => Ok(Fmt::Formatted(formatted)),
    }
}

/// Why `fmt` did not format `file`.
fn refused(file: &Path, refusal: &listing::Refusal) -> FileError {
    FileError::Refused {
        name: path_line(file),
        reason: refusal.to_string(),
    }
}

/// What `fmt --write` writes for `input` read from `file`, judged in `format` (the deck's
/// own), or why it refuses: `deckbox build` opens and saves through this.
pub fn for_writing(
    file: &Path,
    input: &DeckInput,
    db: &CardDb,
    format: &Format,
) -> Result<Formatted, FileError> {
    refuse_foreign_encoding(file, input)?;
    listing::format(input, db, format).map_err(|refusal| refused(file, &refusal))
}

/// A file read in another encoding than UTF-8 is not rewritten (see the module docs);
/// printing and `--check` still work on it.
fn refuse_foreign_encoding(file: &Path, input: &DeckInput) -> Result<(), FileError> {
    match input.encoding_fallback {
        Some(encoding) => Err(FileError::NotUtf8 {
            name: path_line(file),
            encoding,
            remedy: format!(
                "not rewritten: save it as UTF-8 first, or print the canonical list with `deckbox fmt {}`",
                path_line(file)
            ),
        }),
        None => Ok(()),
    }
}

/// `add` or `remove`: one spec applied to a checked deck.
pub type EditFn = fn(&CheckedDeck, &CardDb, &Spec) -> Result<Edited, EditError>;

/// Why an edit of a file did not happen; the file is as it was.
#[derive(Debug)]
pub enum EditFailed<E> {
    /// As for `fmt`: not locked, not read, not judged, not written.
    Failed(Failed<E>),
    /// A spec that could not be applied (unknown card, too many copies).
    Edit(EditError),
}

impl<E> From<Failed<E>> for EditFailed<E> {
    fn from(failed: Failed<E>) -> EditFailed<E> {
        EditFailed::Failed(failed)
    }
}

/// A file edited by `add` or `remove`.
#[derive(Debug)]
pub struct EditDone {
    /// The new text (written to the file unless it was a dry run).
    pub text: String,
    /// Each change, quoting the line as written in the file or the spec.
    pub changes: Vec<String>,
    /// The new text checked.
    pub deck: CheckedDeck,
    /// Whether the file was rewritten (`write` was given).
    pub written: bool,
}

/// `add` or `remove` on a file: locked (when `write`) before it is read, every spec applied
/// in order by `apply`, the result checked in `format_of` the deck, and written atomically
/// with `write`'s options; without `write` (a dry run) nothing is locked or written.
pub fn edit_file<'f, E: From<FileError> + From<ReadError>>(
    file: &Path,
    specs: &[String],
    write: Option<Options>,
    db: &CardDb,
    format_of: impl FnOnce(&DeckInput) -> Result<Cow<'f, Format>, E>,
    apply: EditFn,
) -> Result<EditDone, EditFailed<E>> {
    if file.as_os_str() == "-" {
        return Err(Failed::Error(E::from(FileError::Misuse(
            "add and remove edit a file in place; standard input (`-`) cannot be edited",
        )))
        .into());
    }
    // Locked before it is read, so that another deckbox editing the same deck waits for
    // this edit and then applies its own to the result.
    let lock = match write {
        Some(_) => Some(Lock::acquire(file).map_err(Failed::Unwritten)?),
        None => None,
    };
    let input = read_editable(file).map_err(Failed::Error)?;
    let format = format_of(&input).map_err(Failed::Error)?;
    let (text, changes) = apply_all(&input, specs, db, &format, apply).map_err(EditFailed::Edit)?;
    let deck = check_text(&input, &text, db, &format);
    let written = match (lock, write) {
        (Some(lock), Some(options)) => {
            lock.replace(Some(input.text.as_bytes()), text.as_bytes(), options)
                .map_err(Failed::Unwritten)?;
            true
        }
        _ => false,
    };
    Ok(EditDone {
        text,
        changes,
        deck,
        written,
    })
}

/// Applies every spec in order, each to the text the previous one left; the first failure
/// stops everything.
fn apply_all(
    input: &DeckInput,
    specs: &[String],
    db: &CardDb,
    format: &Format,
    apply: EditFn,
) -> Result<(String, Vec<String>), EditError> {
    let mut text = input.text.clone();
    let mut changes = Vec::new();
    for spec in specs {
        let deck = check_text(input, &text, db, format);
        let edited = apply(&deck, db, &in_place::parse_spec(spec)?)?;
        text = edited.text;
        changes.extend(edited.changes);
    }
    Ok((text, changes))
}

/// `text` checked as the deck `input` would be.
fn check_text(input: &DeckInput, text: &str, db: &CardDb, format: &Format) -> CheckedDeck {
    let input = DeckInput {
        path: input.path.clone(),
        text: text.to_string(),
        encoding_fallback: None,
        path_bytes: input.path_bytes.clone(),
        json: None,
    };
    check::check(&input, db, format)
}

/// Reads a file to edit. Only UTF-8 files are edited: writing back another encoding would
/// change bytes the edit did not touch.
fn read_editable<E: From<FileError> + From<ReadError>>(file: &Path) -> Result<DeckInput, E> {
    // read_deck would suggest `-` for a pipe, which add and remove refuse.
    if let Ok(metadata) = std::fs::metadata(file)
        && !metadata.is_file()
    {
        return Err(E::from(FileError::NotEditable {
            name: path_line(file),
            kind: crate::util::bounded::kind(&metadata.file_type()),
        }));
    }
    let input = read_deck(file, &mut std::io::empty(), &mut false)?;
    match input.encoding_fallback {
        None => Ok(input),
        Some(encoding) => Err(E::from(FileError::NotUtf8 {
            name: path_line(file),
            encoding,
            remedy: "save it as UTF-8 before editing it".to_string(),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::storage::embedded;

    #[derive(Debug)]
    enum TestError {
        File(FileError),
        Read,
    }

    impl From<FileError> for TestError {
        fn from(error: FileError) -> TestError {
            TestError::File(error)
        }
    }

    impl From<ReadError> for TestError {
        fn from(_: ReadError) -> TestError {
            TestError::Read
        }
    }

    /// A fresh file holding `bytes`, in a folder of its own.
    fn deck_file(test: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("deckbox-edit-file-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("deck.txt");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn unlimited() -> Format {
        Format::load("unlimited").unwrap()
    }

    #[test]
    fn an_edit_that_fails_at_its_second_spec_writes_nothing() {
        let (db, format) = (embedded::open().unwrap(), unlimited());
        let text = "Trainer: 4\n4 Iono PAL 185\n\nTotal Cards: 4\n";
        let path = deck_file("all-or-nothing", text.as_bytes());
        let specs = ["2 Iono".to_string(), "1 No Such Card Anywhere".to_string()];
        let format_of = |_: &DeckInput| Ok::<_, TestError>(Cow::Borrowed(&format));
        let options = Some(Options::default());
        let edited = edit_file(&path, &specs, options, &db, format_of, in_place::add);
        assert!(matches!(edited, Err(EditFailed::Edit(_))), "{edited:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // The first spec alone is written, and checked.
        let edited = edit_file(&path, &specs[..1], options, &db, format_of, in_place::add);
        let done = edited.unwrap();
        assert!(done.written);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), done.text);
        assert!(done.text.contains("6 Iono PAL 185"), "{}", done.text);
        assert_eq!(done.deck.card_count(), 6);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_dry_run_neither_locks_nor_writes() {
        let (db, format) = (embedded::open().unwrap(), unlimited());
        let text = "4 Iono PAL 185\n";
        let path = deck_file("dry-run", text.as_bytes());
        let format_of = |_: &DeckInput| Ok::<_, TestError>(Cow::Borrowed(&format));
        let specs = ["Iono".to_string()];
        let done = edit_file(&path, &specs, None, &db, format_of, in_place::remove).unwrap();
        assert!(!done.written);
        assert_eq!(done.deck.card_count(), 0);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn fmt_write_refuses_a_file_read_in_another_encoding_and_leaves_canonical_files_alone() {
        let (db, format) = (embedded::open().unwrap(), unlimited());
        let format_of = |_: &DeckInput| Ok::<_, TestError>(Cow::Borrowed(&format));
        let write = FmtMode::Write(Options::default());
        // `Pokémon` in Windows-1252.
        let bytes = b"Pok\xe9mon: 1\n1 Dreepy TWM 128\n";
        let path = deck_file("not-utf8", bytes);
        let done = fmt_file(&path, None, &db, format_of, write);
        assert!(
            matches!(
                done,
                Err(Failed::Error(TestError::File(FileError::NotUtf8 { .. })))
            ),
            "{done:?}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        // Printing it still works.
        let printed = fmt_file(&path, None, &db, format_of, FmtMode::Print).unwrap();
        assert!(matches!(printed, Fmt::Formatted(_)), "{printed:?}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
        // A file written canonical once is canonical: written, then left alone.
        let path = deck_file("canonical", b"1 Dreepy TWM 128\n");
        let first = fmt_file(&path, None, &db, format_of, write).unwrap();
        assert_eq!(first, Fmt::Written);
        let again = fmt_file(&path, None, &db, format_of, write).unwrap();
        assert_eq!(again, Fmt::Canonical);
        let checked = fmt_file(&path, None, &db, format_of, FmtMode::Check).unwrap();
        assert_eq!(checked, Fmt::Canonical);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn fmt_prints_one_file_and_rewrites_no_standard_input() {
        let (one, two, stdin) = (Path::new("a.txt"), Path::new("b.txt"), Path::new("-"));
        let write = FmtMode::Write(Options::default());
        assert!(fmt_misuse(FmtMode::Print, &[one, two]).is_some());
        assert!(fmt_misuse(FmtMode::Print, &[stdin]).is_none());
        assert!(fmt_misuse(FmtMode::Check, &[one, two, stdin]).is_none());
        assert!(fmt_misuse(write, &[one, stdin]).is_some());
        assert!(fmt_misuse(write, &[one, two]).is_none());
    }
}
