//! `deckbox check`: find the deck files (walking directories), check each against its
//! format in parallel, report in the chosen output. Output order is deterministic: operands
//! in the order given, each directory's files sorted by path. It never decides exit codes
//! beyond 0/1/2 and never prints.

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

use clap::ValueEnum;
use rayon::prelude::*;

use super::{Outcome, Settings, SettingsArgs, Terminal, read_deck, render_error};
use crate::check::{self, CheckedDeck, DeckInput};
use crate::format::Format;
use crate::report::{self, HumanOptions, OutputFormat};
use crate::walk::{self, DeckFile, Selection};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Deck list files or directories; `-` reads standard input. Directories are walked,
    /// honouring `.gitignore` and skipping hidden files; a walk picks `*.txt`, `*.deck`,
    /// `*.ptcgl` and `*.ptcgo` unless deckbox.toml's `[files]` says otherwise.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[arg(long, short, value_enum, default_value_t = OutputFormat::Human)]
    pub output: OutputFormat,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

pub(crate) fn run(args: &CheckArgs, stdin: &mut dyn Read, terminal: Terminal) -> Outcome {
    let settings = match Settings::resolve(&args.settings) {
        Ok(settings) => settings,
        Err(message) => return Outcome::failure(message),
    };
    let selection = match selection(&settings) {
        Ok(selection) => selection,
        Err(message) => return Outcome::failure(message),
    };
    let walked = walk::deck_files(&args.files, &selection);
    let nothing_found = walked.files.is_empty() && walked.errors.is_empty();
    let formats = match FormatPlan::new(&walked.files, &settings) {
        Ok(formats) => formats,
        Err(message) => return Outcome::failure(message),
    };
    let mut failures: Vec<String> = walked.errors;
    let (decks, unreadable) = check_files(&walked.files, stdin, &settings, &formats);
    failures.extend(unreadable);
    let human = HumanOptions {
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stdout_is_tty,
        },
        width: terminal.width.unwrap_or(100),
    };
    let mut outcome = Outcome {
        stdout: render(&decks, &failures, args.output, human, &settings),
        stderr: failures
            .iter()
            .map(|message| format!("error: {message}\n"))
            .collect(),
        code: 0,
    };
    let unknown = decks
        .iter()
        .flat_map(|deck| &deck.diagnostics)
        .any(|diagnostic| diagnostic.rule == crate::diagnostic::Rule::UnknownCard);
    if unknown && let Some(hint) = crate::cards::embedded::coverage_hint(&settings.db) {
        outcome.stderr.push_str(&format!("note: {hint}\n"));
    }
    if nothing_found {
        // Checking nothing is not a failure (an empty folder), but CI should see it.
        outcome.stderr = "warning: no deck lists found; a walk picks the files deckbox.toml's [files] include, by default *.txt, *.deck, *.ptcgl, *.ptcgo\n".to_string();
    }
    outcome.code = if !failures.is_empty() {
        2
    } else if decks.iter().any(|deck| !deck.valid()) {
        1
    } else {
        0
    };
    outcome
}

/// The walk's file selection: the config file's `[files]`, else the defaults.
fn selection(settings: &Settings) -> Result<Selection, String> {
    match &settings.config {
        Some(config) => config.selection().map_err(|error| {
            format!(
                "error: invalid glob in {}: {error}\n",
                config.path.display()
            )
        }),
        None => Ok(Selection::defaults()),
    }
}

/// Which format each file is checked against. `[[overrides]]` of the config file apply only
/// when the format itself came from that file or the default: `--format` and
/// `DECKBOX_FORMAT` win for every file.
pub(crate) struct FormatPlan<'a> {
    main: &'a Format,
    extra: Vec<Format>,
    /// Per file: `None` for `main`, else an index into `extra`.
    choice: Vec<Option<usize>>,
}

impl<'a> FormatPlan<'a> {
    fn new(files: &[DeckFile], settings: &'a Settings) -> Result<FormatPlan<'a>, String> {
        let mut plan = FormatPlan {
            main: &settings.format,
            extra: Vec::new(),
            choice: vec![None; files.len()],
        };
        let mut loaded: HashMap<&str, usize> = HashMap::new();
        for (file, choice) in files.iter().zip(plan.choice.iter_mut()) {
            let Some(name) = settings.override_for(&file.absolute) else {
                continue;
            };
            let index = match loaded.get(name) {
                Some(&index) => index,
                None => {
                    let format = Format::load(name).map_err(render_error)?;
                    plan.extra.push(format);
                    let index = plan.extra.len() - 1;
                    loaded.insert(name, index);
                    index
                }
            };
            *choice = Some(index);
        }
        Ok(plan)
    }

    fn format(&self, file: usize) -> &Format {
        self.choice
            .get(file)
            .copied()
            .flatten()
            .and_then(|index| self.extra.get(index))
            .unwrap_or(self.main)
    }
}

/// Reads and checks every file, in parallel, keeping the files' order. Standard input is
/// read first, on this thread. Returns the checked decks and one message per unreadable file.
fn check_files(
    files: &[DeckFile],
    stdin: &mut dyn Read,
    settings: &Settings,
    formats: &FormatPlan,
) -> (Vec<CheckedDeck>, Vec<String>) {
    let mut stdin_used = false;
    let from_stdin: Vec<Option<Result<DeckInput, String>>> = files
        .iter()
        .map(|file| {
            (file.path.as_os_str() == "-").then(|| read_deck(&file.path, stdin, &mut stdin_used))
        })
        .collect();
    let results: Vec<Result<CheckedDeck, String>> = from_stdin
        .into_par_iter()
        .enumerate()
        .map(|(index, ready)| {
            let input = match ready {
                Some(input) => input,
                None => read_file(files.get(index)),
            }?;
            Ok(check::check(&input, &settings.db, formats.format(index)))
        })
        .collect();
    let mut decks = Vec::with_capacity(results.len());
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(deck) => decks.push(deck),
            Err(message) => failures.push(message),
        }
    }
    (decks, failures)
}

fn read_file(file: Option<&DeckFile>) -> Result<DeckInput, String> {
    let file = file.ok_or_else(|| "internal error: file list out of step".to_string())?;
    // Standard input was read before; a file here never touches it.
    read_deck(&file.path, &mut std::io::empty(), &mut true)
}

fn render(
    decks: &[CheckedDeck],
    failures: &[String],
    output: OutputFormat,
    human: HumanOptions,
    settings: &Settings,
) -> String {
    match output {
        OutputFormat::Human => {
            let mut text: Vec<String> = decks
                .par_iter()
                .map(|deck| report::human(deck, human))
                .collect();
            if decks.len() > 1 || (!decks.is_empty() && !failures.is_empty()) {
                let mut totals = report::totals(decks);
                if !failures.is_empty() {
                    let n = failures.len();
                    let s = if n == 1 { "" } else { "s" };
                    totals = format!("{}; {n} file{s} could not be read\n", totals.trim_end());
                }
                text.push(totals);
            }
            text.join("\n")
        }
        OutputFormat::Short => decks.par_iter().map(report::short).collect(),
        OutputFormat::Json => report::json(decks, &settings.db),
        OutputFormat::Sarif => report::sarif::sarif(decks, failures),
    }
}
