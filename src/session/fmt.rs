//! What `deckbox fmt` does with files: one file formatted in the format its settings and its
//! own declaration give ([`fmt_one`]), and `--check`/`--write` over files and folders,
//! walked as `check` walks them, a chunk of files at a time ([`fmt_files`]).

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::chunks::{Streamed, in_chunks, plan_formats};
use crate::deck::DeckInput;
use crate::edit::file::{self, Failed, Fmt, FmtMode};
use crate::error::Error;
use crate::formats::Format;
use crate::settings::Settings;

/// What became of one file: what `fmt` did, or why it could not.
pub type FmtResult = Result<Fmt, Failed<Error>>;

/// Formats the file at `path` ([`file::fmt_file`]) in `planned` (the format the settings
/// give it) unless the list declares its own. `ready` is the file already read (standard
/// input); any other file is read here, under the lock `--write` takes.
pub fn fmt_one(
    path: &Path,
    ready: Option<Result<DeckInput, Error>>,
    settings: &Settings,
    planned: &Format,
    mode: FmtMode,
) -> FmtResult {
    let format_of = |input: &DeckInput| {
        Ok(match settings.declared_format(planned, input)? {
            Some(format) => Cow::Owned(format),
            None => Cow::Borrowed(planned),
        })
    };
    file::fmt_file(path, ready, &settings.db, format_of, mode)
}

/// A canonical list as text for a terminal or a client: no BOM, `\n` line endings.
pub fn printable(text: &str) -> String {
    text.trim_start_matches('\u{FEFF}').replace("\r\n", "\n")
}

/// `fmt --check` or `--write` over `operands` (files and folders, walked as `check` walks
/// them), a chunk of files at a time in parallel: each file's result is handed to `done` in
/// file order as its chunk is done, so memory stays flat in the number of files. `done`'s
/// first error (a closed output) stops the run and is returned beside what was walked. An
/// error is returned only before any file is formatted.
pub fn fmt_files(
    settings: &Settings,
    operands: &[PathBuf],
    mode: FmtMode,
    stdin: &mut dyn Read,
    mut done: impl FnMut(&Path, FmtResult) -> std::io::Result<()>,
) -> Result<(Streamed, std::io::Result<()>), Error> {
    let selection = settings.selection()?;
    let formats = plan_formats(settings, operands, &selection)?;
    let work = |file: &crate::settings::walk::DeckFile, ready| {
        let result = match formats.format(file) {
            Ok(planned) => fmt_one(&file.path, ready, settings, &planned, mode),
            Err(error) => Err(Failed::Error(error)),
        };
        (file.path.clone(), result)
    };
    let report = |results: Vec<(PathBuf, FmtResult)>| {
        for (path, result) in results {
            done(&path, result)?;
        }
        Ok(())
    };
    Ok(in_chunks(operands, &selection, stdin, None, work, report))
}
