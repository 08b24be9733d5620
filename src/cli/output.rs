//! The one output convention of every command that prints a report or a list:
//! `--output-format FMT` (also `--output FMT`) says how, `-o`/`--output-file FILE` where.
//! [`emit`] is the one place a report reaches standard output or its file, and
//! [`write_new`] the one place a command's file is written: atomically, as a new file
//! unless `--force` (an existing file is refused, exit 2, and left as it was).
//!
//! Until this convention, `-o` was the output format of `check`, `stats`, `odds`, `card`,
//! `search` and `need`. A format name given to `-o` there (`check -o json`) is still read as
//! the format, with a warning, so scripts keep working for a release; `-o ./json` names a
//! file called `json`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{Outcome, unwritten};
use deckbox::error::{Error, Exit};
use deckbox::util::atomic::{self, Options, WriteError};

/// Where a report goes: standard output, or a new file.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct FileArgs {
    /// Write to FILE instead of standard output: atomically, and never over an existing
    /// file without `--force` (exit 2, the file as it was). The exit code is the report's.
    #[arg(short = 'o', long = "output-file", value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// With `-o`: replace a file that exists, even when it is read-only, has several names
    /// (hard links), or its owner or extended attributes cannot be kept.
    #[arg(long, requires = "output_file")]
    pub force: bool,
}

impl FileArgs {
    /// Where the report goes, as the user wrote it.
    fn target(&self) -> Target<'_> {
        Target {
            file: self.output_file.as_deref(),
            force: self.force,
            warning: String::new(),
        }
    }

    /// [`emit`] to this target.
    pub(crate) fn emit(
        &self,
        out: &mut dyn Write,
        report: impl FnOnce(&mut dyn Write) -> Result<Outcome, Error>,
    ) -> Result<Outcome, Error> {
        emit(self.target(), out, report)
    }
}

/// How a report is printed (`--output-format`, one of the command's own formats) and where
/// ([`FileArgs`]).
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs<F>
where
    F: ValueEnum + Default + Clone + Send + Sync + 'static,
{
    /// How to print. Default: `text` (the format for a person, also named `human`).
    #[arg(
        long = "output-format",
        visible_alias = "output",
        value_name = "FMT",
        value_enum
    )]
    pub output_format: Option<F>,
    #[command(flatten)]
    pub file: FileArgs,
}

/// Every output format name some command has: a bare one given to `-o` is a format meant
/// the old way, not a file.
const FORMAT_NAMES: [&str; 12] = [
    "text",
    "human",
    "short",
    "json",
    "sarif",
    "csv",
    "markdown",
    "html",
    "table",
    "list",
    "tcgplayer",
    "cardmarket",
];

impl<F> OutputArgs<F>
where
    F: ValueEnum + Default + Clone + Send + Sync + 'static,
{
    /// The format asked for: `--output-format`, else a format name given to `-o` the old
    /// way, else the one the extension of `-o FILE` names (`report.html`), else the
    /// command's default.
    pub(crate) fn format(&self) -> F {
        self.output_format
            .clone()
            .or_else(|| {
                self.old_style()
                    .or_else(|| self.extension_format())
                    .and_then(|name| F::from_str(name, true).ok())
            })
            .unwrap_or_default()
    }

    /// The output format the extension of `-o FILE` names, when `--output-format` is not
    /// given: `.html`/`.htm`, `.json`, `.sarif`, `.csv`, `.md`/`.markdown`, `.txt`.
    fn extension_format(&self) -> Option<&'static str> {
        if self.output_format.is_some() {
            return None;
        }
        let extension = self.file.output_file.as_deref()?.extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(ext, _)| ext.eq_ignore_ascii_case(extension))
            .map(|(_, format)| *format)
    }

    /// `-o NAME` where NAME is a format name and no `--output-format` is given: the old
    /// meaning of `-o`.
    fn old_style(&self) -> Option<&str> {
        if self.output_format.is_some() {
            return None;
        }
        let name = self.file.output_file.as_deref()?.to_str()?;
        FORMAT_NAMES
            .iter()
            .any(|known| known.eq_ignore_ascii_case(name))
            .then_some(name)
    }

    /// [`emit`] to where the report goes; `-o` given a format name the old way prints to
    /// standard output with a warning (see [`OutputArgs::target`]).
    pub(crate) fn emit(
        &self,
        out: &mut dyn Write,
        report: impl FnOnce(&mut dyn Write) -> Result<Outcome, Error>,
    ) -> Result<Outcome, Error> {
        match self.target() {
            Ok(target) => emit(target, out, report),
            Err(failed) => Ok(failed),
        }
    }

    /// Where the report goes; `-o` given a format name the old way writes to standard
    /// output, with a warning (an error when the name is no format of this command).
    fn target(&self) -> Result<Target<'_>, Outcome> {
        let Some(name) = self.old_style() else {
            return self.extension_checked().map(|()| self.file.target());
        };
        if F::from_str(name, true).is_err() {
            return Err(Outcome::failure(format!(
                "error: `-o {name}` names an output file, and `{name}` is no output format of this command\nhelp: `--output-format` chooses the format; write `-o ./{name}` for a file named {name}\n"
            )));
        }
        Ok(Target {
            file: None,
            force: self.file.force,
            warning: format!(
                "warning: `-o {name}` is read as `--output-format {name}`; `-o` names the output file now, and this reading goes in a later release\nhelp: write `--output-format {name}` (or `-o ./{name}` for a file named {name})\n"
            ),
        })
    }
}

impl<F> OutputArgs<F>
where
    F: ValueEnum + Default + Clone + Send + Sync + 'static,
{
    /// Refuses `-o FILE` whose extension names an output format this command does not have
    /// (`stats -o odds.csv`), when `--output-format` is not given: the file would otherwise
    /// hold another format under a misleading name.
    fn extension_checked(&self) -> Result<(), Outcome> {
        let Some(format) = self.extension_format() else {
            return Ok(());
        };
        if format == "text" || F::from_str(format, true).is_ok() {
            return Ok(());
        }
        let file = self
            .file
            .output_file
            .as_deref()
            .map(|path| path.display().to_string())
            .unwrap_or_default();
        let known: Vec<String> = F::value_variants()
            .iter()
            .filter_map(|variant| Some(variant.to_possible_value()?.get_name().to_string()))
            .collect();
        Err(Outcome::failure(format!(
            "error: `-o {file}` names a {format} file, and {format} is no output format of this command (it has {})\nhelp: `--output-format` chooses the format; give the file the extension of the format you want\n",
            known.join(", ")
        )))
    }
}

/// File extensions of `-o FILE` that choose an output format when `--output-format` is not
/// given, and the format each chooses.
const EXTENSIONS: [(&str, &str); 8] = [
    ("html", "html"),
    ("htm", "html"),
    ("json", "json"),
    ("sarif", "sarif"),
    ("csv", "csv"),
    ("md", "markdown"),
    ("markdown", "markdown"),
    ("txt", "text"),
];

/// Where a report goes: standard output (`file` is `None`) or a file, and a warning about
/// how the user said so.
#[derive(Debug)]
struct Target<'a> {
    file: Option<&'a Path>,
    force: bool,
    warning: String,
}

/// A writer that counts what went through and keeps its first error (a command streaming
/// its report ignores write errors; the file must not be kept then).
struct Counted<W> {
    inner: W,
    written: usize,
    error: Option<std::io::Error>,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.inner.write(bytes) {
            Ok(count) => {
                self.written += count;
                Ok(count)
            }
            Err(error) => {
                let kind = error.kind();
                self.error.get_or_insert(error);
                Err(kind.into())
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|error| {
            if self.error.is_none() {
                self.error = Some(std::io::Error::new(error.kind(), error.to_string()));
            }
        })
    }
}

/// Runs `report`, which writes its report to the writer it is given (a long report streams)
/// and returns the rest in its outcome's `stdout`. Without a file, the writer is `out` and
/// the outcome (or error, after the target's warning) is returned as it is. With one, both
/// parts go to the file, written as [`write_new`] writes; the file is refused before the work
/// starts when it exists, and not made when the command failed without a report. The exit
/// code is the report's, or 2 when the file could not be written.
fn emit(
    target: Target<'_>,
    out: &mut dyn Write,
    report: impl FnOnce(&mut dyn Write) -> Result<Outcome, Error>,
) -> Result<Outcome, Error> {
    let Some(path) = target.file else {
        return match report(out) {
            Ok(outcome) => Ok(outcome.noted(&target.warning)),
            Err(error) => Err(error.noted(&target.warning)),
        };
    };
    let mut done: Option<Result<Outcome, Error>> = None;
    let mut skipped = false;
    let written = create(path, target.force, |file| {
        let mut writer = Counted {
            inner: std::io::BufWriter::new(file),
            written: 0,
            error: None,
        };
        let mut result = report(&mut writer);
        if let Ok(outcome) = &mut result {
            let _ = writer.write_all(outcome.stdout.as_bytes());
            outcome.stdout.clear();
        }
        let _ = writer.flush();
        let failed = result
            .as_ref()
            .map_or(true, |outcome| outcome.code == Exit::Failed);
        let nothing = failed && writer.written == 0;
        done = Some(result);
        match writer.error {
            Some(error) => Err(error),
            None if nothing => {
                skipped = true;
                Err(std::io::Error::other("no report"))
            }
            None => Ok(()),
        }
    });
    match (written, done) {
        (Ok(()), Some(result)) => result,
        // The command failed before any report: no file, its own message.
        (Err(_), Some(result)) if skipped => result,
        (Err(error), Some(Ok(mut outcome))) => {
            outcome.stderr.push_str(&unwritten(path, &error));
            outcome.code = Exit::Failed;
            Ok(outcome)
        }
        // The command failed after part of its report: its error (the file was not made).
        (Err(_), Some(Err(error))) => Err(error),
        (Ok(()), None) => Ok(Outcome::default()),
        (Err(error), None) => Ok(Outcome::failure(unwritten(path, &error))),
    }
}

/// Writes `bytes` to the target's file (`sheet`'s PDF), as [`emit`] writes a report; the
/// error is the message for standard error.
#[cfg_attr(not(feature = "pdf"), allow(dead_code))]
pub(crate) fn write_new(path: &Path, force: bool, bytes: &[u8]) -> Result<(), String> {
    create(path, force, |file| file.write_all(bytes)).map_err(|error| unwritten(path, &error))
}

/// A new file at `path` filled by `fill`, atomically; an existing one replaced only when
/// `force`.
fn create(
    path: &Path,
    force: bool,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    atomic::create_with(path, Options { force }, fill)
}

/// Pretty JSON and a final newline, as every `--output json` of a statistics command prints.
pub(crate) fn json(value: &impl serde::Serialize) -> Result<String, deckbox::error::Error> {
    deckbox::render::json_document(value).map_err(|reason| deckbox::error::Error::Json { reason })
}

/// The warning for names that have no translation, one line each.
/// What PTCG Live may not import: names not in English (when no `--lang` was asked for)
/// and Pokémon without a set code and number.
pub(crate) fn ptcg_live_warning(
    doubts: &deckbox::edit::listing::ImportDoubts,
    asked_language: bool,
) -> String {
    let mut out = String::new();
    if !doubts.not_english.is_empty() && !asked_language {
        out.push_str(&format!(
            "warning: PTCG Live imports English card names it knows, which {} not: {}\nhelp: `--lang en` writes every card's English name\n",
            if doubts.not_english.len() == 1 { "this is" } else { "these are" },
            some_names(&doubts.not_english),
        ));
    }
    if !doubts.uncoded_pokemon.is_empty() {
        out.push_str(&format!(
            "warning: PTCG Live imports a Pokémon by its set code and number, which {} no: {}\nhelp: `deckbox card NAME` lists a card's printings\n",
            if doubts.uncoded_pokemon.len() == 1 { "this line has" } else { "these lines have" },
            some_names(&doubts.uncoded_pokemon),
        ));
    }
    out
}

/// At most five names, then how many more.
fn some_names(names: &[String]) -> String {
    let shown = names.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    match names.len().saturating_sub(5) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

pub(crate) fn untranslated_warning(
    lines: &[deckbox::edit::listing::Untranslated],
    language: Option<deckbox::names::lang::Language>,
) -> String {
    let (Some(language), false) = (language, lines.is_empty()) else {
        return String::new();
    };
    let mut out = format!(
        "warning: {} kept {} written name (no name, or no name of its own, in '{language}' in the card database):\n",
        if lines.len() == 1 {
            "1 line".to_owned()
        } else {
            format!("{} lines", lines.len())
        },
        if lines.len() == 1 { "its" } else { "their" },
    );
    for line in lines {
        let why = match (line.known, line.ambiguous) {
            (false, _) => " (unknown card)".to_owned(),
            (true, true) => format!(" (its name in '{language}' also names another card)"),
            (true, false) => String::new(),
        };
        out.push_str(&format!("  line {}: {}{why}\n", line.line, line.name));
    }
    out
}
