//! `deckbox check`: find the deck files (walking directories), check each against its
//! format in parallel, report in the chosen output. Output order is deterministic: operands
//! in the order given, each directory's files sorted by path. It never decides exit codes
//! beyond 0/1/2 and never prints.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use rayon::prelude::*;

use super::{
    NOTHING_FOUND, Outcome, SettingsArgs, Terminal, in_chunks, on_pool, parse_threads, read_file,
    thread_pool, walk_messages, walk_operands,
};
use deckbox::check::rules::Rule;
use deckbox::check::{self, CheckedDeck};
use deckbox::collection::need;
use deckbox::deck::DeckInput;
use deckbox::deck::input::read_deck;
use deckbox::error::{Error, Exit};
use deckbox::render::stream::{Piece, ReportWriter, Style};
use deckbox::render::{self, HumanOptions, OutputFormat};
use deckbox::settings::walk::DeckFile;
use deckbox::settings::{FormatPlan, Settings};

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
    /// Checking threads, at most 256; 0 means one per core.
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
) -> Outcome {
    if args
        .settings
        .format
        .as_deref()
        .is_some_and(|format| format.eq_ignore_ascii_case("all"))
    {
        return everywhere(args, stdin);
    }
    let settings = match Settings::resolve(&args.settings.flags()) {
        Ok(settings) => settings,
        Err(error) => return Outcome::error(&error),
    };
    let mut walked = match walk_operands(&settings, &args.files) {
        Ok(walked) => walked,
        Err(error) => return Outcome::error(&error),
    };
    let nothing_found = walked.files.is_empty() && walked.errors.is_empty();
    let formats = match FormatPlan::new(&walked.files, &settings) {
        Ok(formats) => formats,
        Err(error) => return Outcome::error(&error),
    };
    let style = Style {
        output: args.output.format(),
        human: HumanOptions {
            color: match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => terminal.stdout_is_tty,
            },
            width: terminal.width.unwrap_or(100),
        },
    };
    let collection = if args.have.is_empty() {
        None
    } else {
        let paths: Vec<&std::path::Path> = args.have.iter().map(PathBuf::as_path).collect();
        match deckbox::collection::read(&paths, &settings.db, &settings.format) {
            Ok(collection) => Some(collection),
            Err(error) => return Outcome::error(&error.into()),
        }
    };
    let pool = match thread_pool(args.threads) {
        Ok(pool) => pool,
        Err(error) => return Outcome::error(&error),
    };
    let mut failures: Vec<String> = std::mem::take(&mut walked.errors);
    let mut tally = Tally::default();
    let run = Run {
        files: &walked.files,
        settings: &settings,
        formats: &formats,
        style,
        collection: collection.as_ref(),
        pool: pool.as_ref(),
    };
    let written = run.check_all(stdin, out, &mut failures, &mut tally);
    let mut outcome = Outcome {
        stdout: String::new(),
        stderr: walked
            .warnings
            .iter()
            .map(|message| format!("warning: {message}\n"))
            .chain(failures.iter().map(|message| format!("error: {message}\n")))
            .chain(
                collection
                    .iter()
                    .flat_map(|collection| &collection.files)
                    .map(|file| render::short(&file.checked)),
            )
            .collect(),
        code: Exit::Clean,
    };
    // A write error stops the run (`deckbox check . | head`: the reader has seen enough).
    // What it means for the exit code is the writer's owner's call: the binary keeps the
    // error and makes a full disk exit 2, a closed pipe quiet.
    let _ = written;
    if args.output.format() == OutputFormat::Csv {
        outcome.stderr.push_str(&format!("{}\n", tally.summary));
    }
    if tally.unknown
        && let Some(hint) = deckbox::cards::embedded::coverage_hint(&settings.db)
    {
        outcome.stderr.push_str(&format!("note: {hint}\n"));
    }
    if nothing_found {
        outcome.stderr += NOTHING_FOUND;
    }
    outcome.code = if failures.is_empty() {
        Exit::findings_if(tally.invalid)
    } else {
        Exit::Failed
    };
    outcome.noted(&settings.notes)
}

/// What the exit code and the closing notes need to know of the decks checked.
#[derive(Debug, Default)]
struct Tally {
    /// Some deck breaks a rule.
    invalid: bool,
    /// Some deck names a card the index does not know.
    unknown: bool,
    /// The event table's closing line (for CSV, shown on standard error).
    summary: String,
}

/// One `check` run over the walked files.
struct Run<'a> {
    files: &'a [DeckFile],
    settings: &'a Settings,
    formats: &'a FormatPlan<'a>,
    style: Style,
    /// `--have`: the collection each deck's missing cards are counted from.
    collection: Option<&'a deckbox::collection::Collection>,
    /// `--threads N`: the pool to check on (`None`: rayon's global pool).
    pool: Option<&'a rayon::ThreadPool>,
}

impl Run<'_> {
    /// Reads, checks and reports every file in order, a chunk of files at a time in parallel,
    /// writing each deck's part of the report to `out` as soon as its chunk is done: memory
    /// stays flat in the number of files. Standard input is read first, on this thread.
    /// Files that cannot be read add their message to `failures`.
    fn check_all(
        &self,
        stdin: &mut dyn Read,
        out: &mut dyn Write,
        failures: &mut Vec<String>,
        tally: &mut Tally,
    ) -> std::io::Result<()> {
        let mut writer = ReportWriter::begin_with(out, self.style, self.collection.is_some())?;
        let check = |index: usize, ready: Option<Result<DeckInput, Error>>| {
            let input = ready.unwrap_or_else(|| read_file(self.files.get(index)))?;
            let planned = self.formats.format(index);
            let declared = self.settings.declared_format(planned, &input)?;
            let format = declared.as_ref().unwrap_or(planned);
            let deck = check::check(&input, &self.settings.db, format);
            let missing = self.collection.map(|collection| {
                let decks = [(&deck, format)];
                need::need(&decks, collection, &self.settings.db, false, None).missing()
            });
            Ok::<_, Error>((deck, missing))
        };
        let report = |checked: Vec<Result<(CheckedDeck, Option<u64>), Error>>| {
            let mut decks = Vec::with_capacity(checked.len());
            for result in checked {
                match result {
                    Ok(deck) => decks.push(deck),
                    Err(error) => failures.push(error.to_string()),
                }
            }
            let first = writer.decks();
            let render = || {
                decks
                    .par_iter()
                    .enumerate()
                    .map(|(offset, (deck, missing))| {
                        let unknown = deck
                            .diagnostics
                            .iter()
                            .any(|diagnostic| diagnostic.rule == Rule::UnknownCard);
                        let piece = Piece::render_with(
                            deck,
                            first + offset,
                            self.style,
                            &self.settings.db,
                            *missing,
                        );
                        (piece, deck.valid(), unknown)
                    })
            };
            let pieces: Vec<(Piece, bool, bool)> = on_pool(self.pool, || render().collect());
            drop(decks);
            for (piece, valid, unknown) in pieces {
                tally.invalid |= !valid;
                tally.unknown |= unknown;
                writer.push(piece)?;
            }
            Ok(())
        };
        in_chunks(self.files, stdin, self.pool, check, report)?;
        tally.summary = writer.summary(failures.len());
        writer.finish(failures)
    }
}

/// `--format all`: each deck judged in every listed format at its date. Exit 0 when every
/// deck is legal in at least one format, 1 when one is legal in none, 2 when a file could
/// not be read.
fn everywhere(args: &CheckArgs, stdin: &mut dyn Read) -> Outcome {
    let flags = deckbox::settings::Flags {
        format: None,
        ..args.settings.flags()
    };
    let settings = match Settings::resolve(&flags) {
        Ok(settings) => settings,
        Err(error) => return Outcome::error(&error),
    };
    let walked = match walk_operands(&settings, &args.files) {
        Ok(walked) => walked,
        Err(error) => return Outcome::error(&error),
    };
    let mut outcome = Outcome {
        stderr: walk_messages(&walked),
        ..Outcome::default()
    };
    let mut failed = !walked.errors.is_empty();
    let mut nowhere = false;
    let mut formats_by_date = std::collections::HashMap::new();
    let mut reports = Vec::new();
    let mut stdin_used = false;
    for file in &walked.files {
        let judged = read_deck(&file.path, stdin, &mut stdin_used)
            .map_err(Error::from)
            .and_then(|input| {
                let date = settings.deck_date(&input)?;
                let formats = formats_by_date
                    .entry(date)
                    .or_insert_with(|| deckbox::settings::listed_formats_at(date));
                Ok(judge_everywhere(&input, date, formats, &settings))
            });
        match judged {
            Ok(report) => {
                nowhere |= report.legal_in().is_empty();
                reports.push(report);
            }
            Err(error) => {
                failed = true;
                outcome.stderr.push_str(&format!("error: {error}\n"));
            }
        }
    }
    outcome.stdout = match args.output.format() {
        OutputFormat::Json | OutputFormat::Sarif => {
            let mut text = serde_json::to_string_pretty(&reports).unwrap_or_default();
            text.push('\n');
            text
        }
        OutputFormat::Short => reports
            .iter()
            .map(|report| render::everywhere::short(report) + "\n")
            .collect(),
        OutputFormat::Human | OutputFormat::Csv | OutputFormat::Markdown | OutputFormat::Html => {
            reports
                .iter()
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
    outcome.code = if failed {
        Exit::Failed
    } else {
        Exit::findings_if(nowhere)
    };
    outcome.noted(&settings.notes)
}

fn judge_everywhere(
    input: &DeckInput,
    date: jiff::civil::Date,
    formats: &[(&str, Result<deckbox::formats::Format, String>)],
    settings: &Settings,
) -> render::everywhere::Everywhere {
    let verdicts = formats
        .iter()
        .map(|(id, format)| match format {
            Ok(format) => {
                let deck = check::check(input, &settings.db, format);
                render::everywhere::Verdict::of(&deck, &format.name)
            }
            Err(why) => render::everywhere::Verdict {
                format: (*id).to_string(),
                name: (*id).to_string(),
                valid: false,
                errors: 0,
                warnings: 0,
                broken: Vec::new(),
                absent: Some(why.clone()),
            },
        })
        .collect();
    render::everywhere::Everywhere {
        path: input.path.clone(),
        as_of: date.to_string(),
        formats: verdicts,
    }
}
