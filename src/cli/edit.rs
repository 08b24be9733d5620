//! `deckbox add`, `deckbox remove` and `deckbox diff`: the command-line side of
//! [`deckbox::edit::in_place`] and [`deckbox::edit::diff`].
//!
//! Add and remove apply every spec in order to the file's text, all or nothing
//! ([`deckbox::edit::file::edit_file`]): when one spec fails (unknown card, too many
//! copies) nothing is written and the exit code is 2. The new text is written atomically,
//! re-checked, and the verdict printed (exit 0 valid, 1 the deck now breaks a rule). Diff is informational: it exits 0 whenever both lists
//! were read. This module never prints: it returns an [`Outcome`].

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{Outcome, SettingsArgs, unwritten};
use deckbox::deck::DeckInput;
use deckbox::edit::file::{self, EditDone, EditFailed, EditFn, Failed};
use deckbox::edit::in_place::{self, EditError};
use deckbox::error::{Error, Exit};
use deckbox::render;
use deckbox::settings::Settings;
use deckbox::util::atomic::Options;

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// The deck list to edit, in place.
    pub file: PathBuf,
    /// Cards to add, each one deck-list line: `2 Iono PAL 185`, `Iono` (one copy).
    #[arg(required = true, value_name = "CARD")]
    pub specs: Vec<String>,
    /// Print the new list instead of writing it (the verdict goes to standard error).
    #[arg(long)]
    pub dry_run: bool,
    /// Rewrite the file even when it is read-only, has several names (hard links), or its
    /// owner or extended attributes cannot be kept.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, clap::Args)]
pub struct RemoveArgs {
    /// The deck list to edit, in place.
    pub file: PathBuf,
    /// Cards to remove: `Iono` (every copy, any printing or language), `2 Iono` (two
    /// copies), `Iono PAL 185` (that printing only).
    #[arg(required = true, value_name = "CARD")]
    pub specs: Vec<String>,
    /// Print the new list instead of writing it (the verdict goes to standard error).
    #[arg(long)]
    pub dry_run: bool,
    /// Rewrite the file even when it is read-only, has several names (hard links), or its
    /// owner or extended attributes cannot be kept.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// Exit code, as `diff` has it: 0 when nothing changed (same cards, same printings), 1 when
/// something did, 2 when one cannot be read.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit code, as diff(1): 0 when nothing changed (same cards, same printings), 1 when something did, 2 when one cannot be read."
)]
pub struct DiffArgs {
    /// The old list; `-` reads standard input.
    pub old: PathBuf,
    /// The new list; `-` reads standard input.
    pub new: PathBuf,
    #[command(flatten)]
    pub output: super::output::OutputArgs<DiffOutput>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// How `deckbox diff` shows the changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum DiffOutput {
    /// `+2 Iono`, `-1 Nest Ball`, `~ Ultra Ball: 4 → 3`, grouped by section (also named
    /// `human`).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON object: `old`, `new` and `changes` (see the README).
    Json,
}

pub(crate) fn run_add(args: &AddArgs) -> Result<Outcome, Error> {
    run_edit(
        &args.file,
        &args.specs,
        edit_mode(args.dry_run, args.force),
        &args.settings,
        in_place::add,
    )
}

pub(crate) fn run_remove(args: &RemoveArgs) -> Result<Outcome, Error> {
    run_edit(
        &args.file,
        &args.specs,
        edit_mode(args.dry_run, args.force),
        &args.settings,
        in_place::remove,
    )
}

/// Print the edited list (`--dry-run`), or write it with these options.
fn edit_mode(dry_run: bool, force: bool) -> Option<Options> {
    (!dry_run).then_some(Options { force })
}

fn run_edit(
    file: &Path,
    specs: &[String],
    write: Option<Options>,
    settings: &SettingsArgs,
    apply: EditFn,
) -> Result<Outcome, Error> {
    let settings = Settings::resolve_for(&settings.flags(), file)?;
    let format_of = |input: &DeckInput| settings.format_for_deck(input);
    let edited = file::edit_file(file, specs, write, &settings.db, format_of, apply);
    Ok(shown(file, edited, &settings).noted(&settings.notes))
}

/// What `add` or `remove` says: the changes and the verdict (on standard error for a dry
/// run, whose standard output is the new list), or why the file was not changed.
fn shown(file: &Path, edited: Result<EditDone, EditFailed<Error>>, settings: &Settings) -> Outcome {
    let done = match edited {
        Ok(done) => done,
        Err(EditFailed::Failed(Failed::Unwritten(error))) => {
            return Outcome::failure(unwritten(file, &error));
        }
        Err(EditFailed::Failed(Failed::Error(error))) => return Outcome::error(&error),
        Err(EditFailed::Edit(error)) => {
            let help = help_for(&error, settings);
            let file = deckbox::util::escape::path_line(file);
            let error = deckbox::util::escape::visible(&error.to_string()).into_owned();
            return Outcome::failure(format!("error: {error}\n{help}{file} was not changed\n"));
        }
    };
    let deck = &done.deck;
    let verdict = format!("{}{}\n", render::short(deck), render::summary(deck));
    let code = Exit::findings_if(!deck.valid());
    // Each change quotes the line as written in the file or on the command line.
    let changes: String = (done.changes.iter())
        .map(|change| format!("{}\n", deckbox::util::escape::visible_line(change)))
        .collect();
    match done.written {
        false => Outcome {
            stdout: done.text,
            stderr: format!("{changes}{verdict}"),
            code,
        },
        true => Outcome {
            stdout: format!("{changes}{verdict}"),
            stderr: String::new(),
            code,
        },
    }
}

/// A hint for an unknown card: which cards the embedded index covers.
fn help_for(error: &EditError, settings: &Settings) -> String {
    match (
        error,
        deckbox::cards::storage::embedded::coverage_hint(&settings.db),
    ) {
        (EditError::UnknownCard { .. }, Some(hint)) => format!("help: {hint}\n"),
        _ => String::new(),
    }
}

pub(crate) fn run_diff(args: &DiffArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let settings = Settings::resolve(&args.settings.flags())?;
    let mut stdin_used = false;
    let mut decks = Vec::new();
    for file in [&args.old, &args.new] {
        let (_, _, deck) = super::read_and_check(file, &settings, stdin, &mut stdin_used)?;
        decks.push(deck);
    }
    let [old, new] = decks.as_slice() else {
        return Err(Error::Usage {
            message: "two deck lists are needed".to_string(),
        });
    };
    let diff = deckbox::edit::diff::diff(old, new, &settings.db);
    Ok(Outcome {
        stdout: match args.output.format() {
            DiffOutput::Text => {
                deckbox::util::escape::visible(&deckbox::edit::diff::text(&diff)).into_owned()
            }
            DiffOutput::Json => deckbox::edit::diff::json(&diff),
        },
        stderr: String::new(),
        code: Exit::findings_if(!diff.changes.is_empty()),
    }
    .noted(&settings.notes))
}
