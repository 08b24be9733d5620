//! `deckbox fmt` and `deckbox convert`: deck lists in canonical form, another layout or
//! another language. The work is the library's ([`deckbox::edit::file`] for one file,
//! [`deckbox::edit::listing::export`] for `convert`); this module parses arguments, says
//! what happened and decides the exit code, and never prints itself.
//!
//! Exit codes:
//! - `fmt FILE`: 0 printed; 2 unreadable file or lines (see below).
//! - `fmt --check FILES|DIRS`: 0 every file canonical; 1 some file is not (a unified diff
//!   of each on stdout); 2 some file could not be read or formatted. Directories are walked
//!   as `check` walks them, and files are formatted in parallel.
//! - `fmt --write FILES|DIRS`: 0 (changed files named on stderr); 2 as above. Canonical
//!   files are never touched.
//! - `convert`: 0 when the list was converted, even when some names have no translation
//!   (a warning on stderr lists them) or the deck breaks a rule (convert is not check);
//!   2 when it could not be read or converted.
//!
//! A file with lines the parser cannot read is never formatted nor converted: the lines
//! would be lost. It is reported with its line numbers and counts as "could not do its
//! job" (exit 2).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::output::{ptcg_live_warning, untranslated_warning};
use super::{NOTHING_FOUND, Outcome, SettingsArgs, unwritten, walk_messages};
use deckbox::deck::input::read_deck;
use deckbox::edit::file::{self, Failed, Fmt, FmtMode};
use deckbox::edit::listing::{self, Formatted, Layout, TextStyle};
use deckbox::error::{Error, Exit};
use deckbox::names::lang::Language;
use deckbox::session::fmt::{self, printable};
use deckbox::settings::Settings;
use deckbox::util::atomic::Options;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Deck list files; `-` reads standard input (not with `--write`). With `--check` or
    /// `--write`, also directories, walked as `deckbox check` walks them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print a diff and exit 1 when a file is not canonical; change nothing.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
    /// Rewrite files that are not canonical, in place, atomically.
    #[arg(long)]
    pub write: bool,
    /// With `--write`: rewrite a file even when it is read-only, has several names (hard
    /// links), or its owner or extended attributes cannot be kept.
    #[arg(long, requires = "write")]
    pub force: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, clap::Args)]
// `--output FILE` was the file before `-o`/`--output-file` named it in every command.
#[command(mut_arg("output_file", |arg| arg.alias("output")))]
pub struct ConvertArgs {
    /// A deck list file; `-` reads standard input.
    pub file: PathBuf,
    /// Output layout: ptcgl (Pokémon TCG Live), ptcgo (legacy PTCGO), limitless, json.
    #[arg(long, visible_alias = "output-format", default_value = "ptcgl", value_parser = parse_layout)]
    pub to: Layout,
    /// Take every card name from the card database in this language (en, fr, es, pt, de,
    /// it). Without it, names stay as written.
    #[arg(long, value_parser = super::parse_language)]
    pub lang: Option<Language>,
    #[command(flatten)]
    pub output: super::output::FileArgs,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

fn parse_layout(name: &str) -> Result<Layout, Error> {
    Layout::from_name(name).ok_or_else(|| Error::Usage {
        message: format!("unknown layout '{name}'; expected ptcgl, ptcgo, limitless or json"),
    })
}

pub(crate) fn run_fmt(
    args: &FmtArgs,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<Outcome, Error> {
    let options = Options { force: args.force };
    let mode = match (args.check, args.write) {
        (true, _) => FmtMode::Check,
        (_, true) => FmtMode::Write(options),
        _ => FmtMode::Print,
    };
    let files: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    if let Some(misuse) = file::fmt_misuse(mode, &files) {
        return Err(misuse.into());
    }
    match mode {
        FmtMode::Print => print_one(args, stdin),
        FmtMode::Check | FmtMode::Write(_) => many(args, mode, stdin, out),
    }
}

/// `fmt FILE`: the canonical list on standard output.
fn print_one(args: &FmtArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let Some(file) = args.files.first() else {
        return Ok(Outcome::default());
    };
    let settings = Settings::resolve_for(&args.settings.flags(), file)?;
    let ready = read_deck(file, stdin, &mut false).map_err(Error::from);
    let result = fmt::fmt_one(
        file,
        Some(ready),
        &settings,
        &settings.format,
        FmtMode::Print,
    );
    Ok(said(file, result, FmtMode::Print).noted(&settings.notes))
}

/// `fmt --check` and `fmt --write` over files and directories ([`fmt::fmt_files`]);
/// `--check`'s diffs are written to `out` in file order as each chunk is done.
fn many(
    args: &FmtArgs,
    mode: FmtMode,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<Outcome, Error> {
    let settings = Settings::resolve(&args.settings.flags())?;
    let mut outcome = Outcome::default();
    let done = |path: &Path, result| {
        let one = said(path, result, mode);
        outcome.stderr.push_str(&one.stderr);
        outcome.code = outcome.code.max(one.code);
        out.write_all(one.stdout.as_bytes())
    };
    // A write error stops the run; the binary decides what it means for the exit code, as
    // for `check`.
    let (streamed, _) = fmt::fmt_files(&settings, &args.files, mode, stdin, done)?;
    // The walk's messages come first, as when the walk was done before the files.
    let walked = &streamed.walked;
    let mut before = walk_messages(walked);
    if streamed.files == 0 && walked.errors.is_empty() {
        before.insert_str(0, NOTHING_FOUND);
    }
    if !walked.errors.is_empty() {
        outcome.code = outcome.code.max(Exit::Failed);
    }
    outcome.stderr.insert_str(0, &before);
    Ok(outcome.noted(&settings.notes))
}

/// What `fmt` says of one file ([`fmt::fmt_one`]'s result).
fn said(path: &Path, result: fmt::FmtResult, mode: FmtMode) -> Outcome {
    let mut outcome = Outcome::default();
    match result {
        Ok(Fmt::Canonical) => {}
        Ok(Fmt::Written) => outcome.stderr.push_str(&format!(
            "formatted {}\n",
            deckbox::util::escape::path_line(path)
        )),
        Ok(Fmt::Formatted(formatted)) => one_file(&mut outcome, path, &formatted, mode),
        Err(Failed::Unwritten(error)) => {
            outcome.stderr.push_str(&unwritten(path, &error));
            outcome.code = Exit::Failed;
        }
        Err(Failed::Error(error)) => {
            outcome.stderr.push_str(&super::render(&error));
            outcome.code = Exit::Failed;
        }
    }
    outcome
}

fn one_file(outcome: &mut Outcome, file: &Path, formatted: &Formatted, mode: FmtMode) {
    match mode {
        FmtMode::Print => outcome.stdout.push_str(&printable(&formatted.formatted)),
        FmtMode::Check if !formatted.is_canonical() => {
            outcome.stdout.push_str(&diff(file, formatted));
            outcome.code = outcome.code.max(Exit::Findings);
        }
        FmtMode::Check | FmtMode::Write(_) => {}
    }
}

/// A unified diff of a file and its canonical form, `--- a/path` / `+++ b/path`: a report
/// for a terminal or a CI log, so the path and the lines are shown as
/// [`deckbox::util::escape::visible`] shows text (the file itself is not what is printed).
fn diff(file: &Path, formatted: &Formatted) -> String {
    let path = deckbox::util::escape::path_line(file);
    let (old, new) = (
        printable(&formatted.original),
        printable(&formatted.formatted),
    );
    let mut out = similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    if old.replace("\r\n", "\n") == new && formatted.original != formatted.formatted {
        // Only line endings or the BOM differ, which a line diff does not show.
        out = format!("--- a/{path}\n+++ b/{path}\n(line endings or BOM differ)\n");
    }
    deckbox::util::escape::visible(&out).into_owned()
}

pub(crate) fn run_convert(args: &ConvertArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let settings = Settings::resolve_for(&args.settings.flags(), &args.file)?;
    let (input, _, deck) = super::read_and_check(&args.file, &settings, stdin, &mut false)?;
    let exported = listing::export(&deck, &settings.db, args.lang, args.to).map_err(|refusal| {
        Error::Refused {
            name: deckbox::util::escape::path_line(&args.file),
            reason: refusal.to_string(),
        }
    })?;
    let mut stderr = untranslated_warning(&exported.untranslated, args.lang);
    if let Some(doubts) = &exported.doubts {
        stderr.push_str(&ptcg_live_warning(doubts, args.lang.is_some()));
    }
    let text = exported.text;
    // A list written to a file keeps the line endings of the list read.
    let stdout = match &args.output.output_file {
        None => text,
        Some(_) => TextStyle {
            crlf: input.text.contains("\r\n"),
            bom: false,
        }
        .apply(&text),
    };
    Ok(Outcome {
        stdout,
        stderr,
        code: Exit::Clean,
    }
    .noted(&settings.notes))
}
