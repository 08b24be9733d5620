//! `deckbox check`: the arguments, one call to [`deckbox::session::check`] (which finds the
//! deck files, checks each against its format in parallel and writes the report in the
//! chosen output, operands in the order given, each directory's files sorted by path), and
//! what standard error says and the exit code. It never prints.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::ValueEnum;

use super::{NOTHING_FOUND, Outcome, SettingsArgs, Terminal, parse_threads, walk_messages};
use deckbox::error::{Error, Exit};
use deckbox::render::stream::Style;
use deckbox::render::{self, HumanOptions, OutputFormat};
use deckbox::session::check::{CheckRequest, check_files};
use deckbox::settings::Settings;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Deck list files or directories; `-` reads standard input. Directories are walked,
    /// honouring `.gitignore` and skipping hidden files; a walk picks `*.txt`, `*.deck`,
    /// `*.ptcgl` and `*.ptcgo` unless deckbox.toml's `[files]` says otherwise.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub output: super::output::OutputArgs<OutputFormat>,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// A collection file (repeatable; see `deckbox need`): the event table (csv, markdown,
    /// html) gets a `missing` column and the short output a line per deck, with how many
    /// cards each deck still lacks from it (each deck on its own, by the reprint rule).
    #[arg(long, value_name = "COLLECTION")]
    pub have: Vec<PathBuf>,
    /// Checking threads, at most 256; 0 means one per core. With 1, the walk, the checks and
    /// the report take turns on one thread.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

pub(crate) fn run(
    args: &CheckArgs,
    stdin: &mut dyn Read,
    terminal: Terminal,
    out: &mut dyn Write,
) -> Result<Outcome, Error> {
    if deckbox::settings::is_every_format(args.settings.format.as_deref()) {
        return everywhere(args, stdin);
    }
    let settings = Settings::resolve(&args.settings.flags())?;
    let request = CheckRequest {
        operands: &args.files,
        style: Style {
            output: args.output.format(),
            human: HumanOptions {
                color: match args.color {
                    ColorChoice::Always => true,
                    ColorChoice::Never => false,
                    ColorChoice::Auto => terminal.stdout_is_tty,
                },
                width: terminal.width.unwrap_or(100),
            },
        },
        have: &args.have,
        threads: args.threads,
    };
    let report = check_files(&settings, &request, stdin, out)?;
    let mut outcome = Outcome {
        stdout: String::new(),
        stderr: (report.walked.warnings.iter())
            .map(|message| format!("warning: {message}\n"))
            .chain((report.failures.iter()).map(|message| format!("error: {message}\n")))
            .chain(std::iter::once(super::skipped_note(&report.walked)))
            .chain(
                (report.collection.iter())
                    .flat_map(|collection| &collection.files)
                    .map(|file| render::short(&file.checked)),
            )
            .collect(),
        code: Exit::Clean,
    };
    if args.output.format() == OutputFormat::Csv {
        outcome.stderr.push_str(&format!("{}\n", report.summary));
    }
    if let Some(hint) = &report.coverage {
        outcome.stderr.push_str(&format!("note: {hint}\n"));
    }
    if report.nothing_found {
        outcome.stderr.insert_str(0, NOTHING_FOUND);
    }
    outcome.code = if report.failures.is_empty() {
        Exit::findings_if(report.invalid)
    } else {
        Exit::Failed
    };
    Ok(outcome.noted(&settings.notes))
}

/// `--format all`: each deck judged in every listed format at its date. Exit 0 when every
/// deck is legal in at least one format, 1 when one is legal in none, 2 when a file could
/// not be read.
fn everywhere(args: &CheckArgs, stdin: &mut dyn Read) -> Result<Outcome, Error> {
    let flags = (args.settings.flags()).every_format_if_all(args.settings.format.as_deref());
    let settings = Settings::resolve(&flags)?;
    let all = deckbox::session::check::everywhere(&settings, &args.files, stdin)?;
    let mut outcome = Outcome {
        stderr: walk_messages(&all.walked),
        ..Outcome::default()
    };
    for error in &all.errors {
        outcome.stderr.push_str(&format!("error: {error}\n"));
    }
    outcome.stdout = match args.output.format() {
        OutputFormat::Json | OutputFormat::Sarif => render::everywhere::json(&all.decks),
        OutputFormat::Short => (all.decks.iter())
            .map(|deck| render::everywhere::short(deck) + "\n")
            .collect(),
        OutputFormat::Human | OutputFormat::Csv | OutputFormat::Markdown | OutputFormat::Html => {
            (all.decks.iter())
                .map(render::everywhere::human)
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    match args.output.format() {
        OutputFormat::Sarif => outcome
            .stderr
            .push_str("note: --format all writes JSON; SARIF reports one format\n"),
        OutputFormat::Csv | OutputFormat::Markdown | OutputFormat::Html => outcome.stderr.push_str(
            "note: --format all writes its own table; an event table judges one format\n",
        ),
        _ => {}
    }
    outcome.code = if all.failed() {
        Exit::Failed
    } else {
        Exit::findings_if(all.nowhere())
    };
    Ok(outcome.noted(&settings.notes))
}
