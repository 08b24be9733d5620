//! `deckbox add`, `deckbox remove` and `deckbox diff`: the command-line side of
//! [`deckbox::edit::in_place`] and [`deckbox::edit::diff`].
//!
//! Add and remove apply every spec in order to the file's text, all or nothing: when one
//! spec fails (unknown card, too many copies) nothing is written and the exit code is 2.
//! The new text is written atomically, re-checked, and the verdict printed (exit 0 valid,
//! 1 the deck now breaks a rule). Diff is informational: it exits 0 whenever both lists
//! were read. This module never prints: it returns an [`Outcome`].

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{Outcome, SettingsArgs, unwritten};
use deckbox::cards::CardDb;
use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::deck::input::read_deck;
use deckbox::edit::in_place::{self, EditError, Edited, Spec};
use deckbox::error::{Error, Exit};
use deckbox::formats::Format;
use deckbox::render;
use deckbox::settings::Settings;
use deckbox::util::atomic::{Lock, Options};

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

pub(crate) fn run_add(args: &AddArgs) -> Outcome {
    run_edit(
        &args.file,
        &args.specs,
        edit_mode(args.dry_run, args.force),
        &args.settings,
        in_place::add,
    )
}

pub(crate) fn run_remove(args: &RemoveArgs) -> Outcome {
    run_edit(
        &args.file,
        &args.specs,
        edit_mode(args.dry_run, args.force),
        &args.settings,
        in_place::remove,
    )
}

type EditFn = fn(&CheckedDeck, &CardDb, &Spec) -> Result<Edited, EditError>;

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
) -> Outcome {
    let settings = match Settings::resolve_for(&settings.flags(), file) {
        Ok(settings) => settings,
        Err(error) => return Outcome::error(&error),
    };
    edit_file(file, specs, write, &settings, apply).noted(&settings.notes)
}

fn edit_file(
    file: &Path,
    specs: &[String],
    write: Option<Options>,
    settings: &Settings,
    apply: EditFn,
) -> Outcome {
    if file.as_os_str() == "-" {
        return Outcome::error(&Error::Usage {
            message: "add and remove edit a file in place; standard input (`-`) cannot be edited"
                .to_string(),
        });
    }
    // Locked before it is read, so that another deckbox editing the same deck waits for
    // this edit and then applies its own to the result.
    let lock = match write.map(|_| Lock::acquire(file)).transpose() {
        Ok(lock) => lock,
        Err(error) => return Outcome::failure(unwritten(file, &error)),
    };
    let input = match read_editable(file) {
        Ok(input) => input,
        Err(error) => return Outcome::error(&error),
    };
    let format = match settings.format_for_deck(&input) {
        Ok(format) => format,
        Err(error) => return Outcome::error(&error),
    };
    let (text, changes) = match apply_all(&input, specs, settings, &format, apply) {
        Ok(edited) => edited,
        Err(error) => {
            let help = help_for(&error, settings);
            let file = deckbox::util::escape::path_line(file);
            let error = deckbox::util::escape::visible(&error.to_string()).into_owned();
            return Outcome::failure(format!("error: {error}\n{help}{file} was not changed\n"));
        }
    };
    let deck = check_text(&input, &text, settings, &format);
    let verdict = format!("{}{}\n", render::short(&deck), render::summary(&deck));
    let code = Exit::findings_if(!deck.valid());
    // Each change quotes the line as written in the file or on the command line.
    let changes: String = changes
        .iter()
        .map(|change| format!("{}\n", deckbox::util::escape::visible_line(change)))
        .collect();
    let (Some(lock), Some(options)) = (lock, write) else {
        return Outcome {
            stdout: text,
            stderr: format!("{changes}{verdict}"),
            code,
        };
    };
    if let Err(error) = lock.replace(Some(input.text.as_bytes()), text.as_bytes(), options) {
        return Outcome::failure(unwritten(file, &error));
    }
    Outcome {
        stdout: format!("{changes}{verdict}"),
        stderr: String::new(),
        code,
    }
}

/// Applies every spec in order, each to the text the previous one left; the first failure
/// stops everything.
fn apply_all(
    input: &DeckInput,
    specs: &[String],
    settings: &Settings,
    format: &Format,
    apply: EditFn,
) -> Result<(String, Vec<String>), EditError> {
    let mut text = input.text.clone();
    let mut changes = Vec::new();
    for spec in specs {
        let deck = check_text(input, &text, settings, format);
        let edited = apply(&deck, &settings.db, &in_place::parse_spec(spec)?)?;
        text = edited.text;
        changes.extend(edited.changes);
    }
    Ok((text, changes))
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

fn check_text(input: &DeckInput, text: &str, settings: &Settings, format: &Format) -> CheckedDeck {
    let input = DeckInput {
        path: input.path.clone(),
        text: text.to_string(),
        encoding_fallback: None,
        path_bytes: input.path_bytes.clone(),
        json: None,
    };
    check::check(&input, &settings.db, format)
}

/// Reads a file to edit. Only UTF-8 files are edited: writing back another encoding would
/// change bytes the edit did not touch.
fn read_editable(file: &Path) -> Result<DeckInput, Error> {
    // read_deck would suggest `-` for a pipe, which add and remove refuse.
    if let Ok(metadata) = std::fs::metadata(file)
        && !metadata.is_file()
    {
        return Err(Error::NotEditable {
            name: deckbox::util::escape::path_line(file),
            kind: deckbox::util::bounded::kind(&metadata.file_type()),
        });
    }
    let input = read_deck(file, &mut std::io::empty(), &mut false).map_err(Error::from)?;
    match input.encoding_fallback {
        None => Ok(input),
        Some(encoding) => Err(Error::NotUtf8 {
            name: deckbox::util::escape::path_line(file),
            encoding,
            remedy: "save it as UTF-8 before editing it".to_string(),
        }),
    }
}

pub(crate) fn run_diff(args: &DiffArgs, stdin: &mut dyn Read) -> Outcome {
    let settings = match Settings::resolve(&args.settings.flags()) {
        Ok(settings) => settings,
        Err(error) => return Outcome::error(&error),
    };
    let mut stdin_used = false;
    let mut decks = Vec::new();
    for file in [&args.old, &args.new] {
        match super::read_and_check(file, &settings, stdin, &mut stdin_used) {
            Ok((_, _, deck)) => decks.push(deck),
            Err(error) => return Outcome::error(&error),
        }
    }
    let [old, new] = decks.as_slice() else {
        return Outcome::error(&Error::Usage {
            message: "two deck lists are needed".to_string(),
        });
    };
    let diff = deckbox::edit::diff::diff(old, new, &settings.db);
    Outcome {
        stdout: match args.output.format() {
            DiffOutput::Text => {
                deckbox::util::escape::visible(&deckbox::edit::diff::text(&diff)).into_owned()
            }
            DiffOutput::Json => deckbox::edit::diff::json(&diff),
        },
        stderr: String::new(),
        code: Exit::findings_if(!diff.changes.is_empty()),
    }
    .noted(&settings.notes)
}
