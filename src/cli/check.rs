//! `deckbox check`: find the deck files (walking directories), check each against its
//! format in parallel, report in the chosen output. Output order is deterministic: operands
//! in the order given, each directory's files sorted by path. It never decides exit codes
//! beyond 0/1/2 and never prints.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::ValueEnum;

use super::{
    NOTHING_FOUND, Outcome, SettingsArgs, Streamed, Terminal, in_chunks, parse_threads,
    plan_formats, read_file, thread_pool, walk_messages, walk_operands,
};
use deckbox::check::rules::Rule;
use deckbox::check::{self, CheckedDeck};
use deckbox::collection::need;
use deckbox::deck::DeckInput;
use deckbox::deck::input::read_deck;
use deckbox::error::{Error, Exit};
use deckbox::render::stream::{Piece, ReportWriter, Style};
use deckbox::render::{self, HumanOptions, OutputFormat};
use deckbox::settings::walk::{DeckFile, Selection};
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
    let selection = match settings.selection() {
        Ok(selection) => selection,
        Err(error) => return Outcome::error(&error),
    };
    let formats = match plan_formats(&settings, &args.files, &selection) {
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
    let mut tally = Tally::default();
    let run = Run {
        operands: &args.files,
        selection: &selection,
        settings: &settings,
        formats: &formats,
        style,
        collection: collection.as_ref(),
        pool: pool.as_ref(),
    };
    let (walked, failures) = run.check_all(stdin, out, &mut tally);
    let mut outcome = Outcome {
        stdout: String::new(),
        stderr: walked
            .walked
            .warnings
            .iter()
            .map(|message| format!("warning: {message}\n"))
            .chain(failures.iter().map(|message| format!("error: {message}\n")))
            .chain(std::iter::once(super::skipped_note(&walked.walked)))
            .chain(
                collection
                    .iter()
                    .flat_map(|collection| &collection.files)
                    .map(|file| render::short(&file.checked)),
            )
            .collect(),
        code: Exit::Clean,
    };
    if args.output.format() == OutputFormat::Csv {
        outcome.stderr.push_str(&format!("{}\n", tally.summary));
    }
    if tally.unknown
        && let Some(hint) = deckbox::cards::storage::embedded::coverage_hint(&settings.db)
    {
        outcome.stderr.push_str(&format!("note: {hint}\n"));
    }
    if tally.nothing_found {
        outcome.stderr.insert_str(0, NOTHING_FOUND);
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
    /// The walk found no file and no error.
    nothing_found: bool,
}

/// One `check` run over the files its operands name.
struct Run<'a> {
    operands: &'a [PathBuf],
    selection: &'a Selection,
    settings: &'a Settings,
    formats: &'a FormatPlan<'a>,
    style: Style,
    /// `--have`: the collection each deck's missing cards are counted from.
    collection: Option<&'a deckbox::collection::Collection>,
    /// `--threads N`: the pool to check on (`None`: rayon's global pool).
    pool: Option<&'a rayon::ThreadPool>,
}

/// One file, checked by a worker thread.
enum Done {
    /// Its part of the report, rendered where it was checked (the deck is dropped there).
    Piece {
        piece: Piece,
        valid: bool,
        unknown: bool,
    },
    /// The deck, for a report whose pieces number the decks (SARIF): rendered in order, once
    /// the decks before it are counted (a file that cannot be read takes no number).
    Deck(Box<(CheckedDeck, Option<u64>)>),
    /// Why it could not be checked.
    Failed(String),
}

impl Run<'_> {
    /// Walks, reads, checks and reports every file in order, a chunk of files at a time in
    /// parallel, writing each deck's part of the report to `out` as soon as its chunk is
    /// done: memory stays flat in the number of files. Returns what the walk found and the
    /// messages of what could not be checked (the walk's errors first, then the files', in
    /// order). A write error stops the run (`deckbox check . | head`: the reader has seen
    /// enough); what it means for the exit code is the writer's owner's call: the binary
    /// keeps the error and makes a full disk exit 2, a closed pipe quiet.
    fn check_all(
        &self,
        stdin: &mut dyn Read,
        out: &mut dyn Write,
        tally: &mut Tally,
    ) -> (Streamed, Vec<String>) {
        let mut failures = Vec::new();
        let Ok(mut writer) = ReportWriter::begin_with(out, self.style, self.collection.is_some())
        else {
            return (
                Streamed {
                    walked: Default::default(),
                    files: 0,
                },
                failures,
            );
        };
        let numbered = Piece::numbered(self.style.output);
        let work = |file: &DeckFile, ready: Option<Result<DeckInput, Error>>| {
            let (deck, missing) = match self.check(file, ready) {
                Ok(checked) => checked,
                Err(error) => return Done::Failed(error.to_string()),
            };
            if numbered {
                return Done::Deck(Box::new((deck, missing)));
            }
            let unknown = (deck.diagnostics.iter()).any(|found| found.rule == Rule::UnknownCard);
            let piece = self.piece(&deck, 0, missing);
            Done::Piece {
                piece,
                valid: deck.valid(),
                unknown,
            }
        };
        let report = |chunk: Vec<Done>| {
            for done in chunk {
                let (piece, valid, unknown) = match done {
                    Done::Piece {
                        piece,
                        valid,
                        unknown,
                    } => (piece, valid, unknown),
                    Done::Deck(checked) => {
                        let (deck, missing) = *checked;
                        let unknown =
                            (deck.diagnostics.iter()).any(|found| found.rule == Rule::UnknownCard);
                        let piece = self.piece(&deck, writer.decks(), missing);
                        (piece, deck.valid(), unknown)
                    }
                    Done::Failed(message) => {
                        failures.push(message);
                        continue;
                    }
                };
                tally.invalid |= !valid;
                tally.unknown |= unknown;
                writer.push(piece)?;
            }
            Ok(())
        };
        let (walked, written) = in_chunks(
            self.operands,
            self.selection,
            stdin,
            self.pool,
            work,
            report,
        );
        let mut failures: Vec<String> = (walked.walked.errors.iter().cloned())
            .chain(failures)
            .collect();
        tally.nothing_found = walked.files == 0 && walked.walked.errors.is_empty();
        if written.is_ok() {
            tally.summary = writer.summary(failures.len(), walked.walked.skipped_count);
            let _ = writer.finish(&failures, walked.walked.skipped_count);
        }
        failures.shrink_to_fit();
        (walked, failures)
    }

    /// Reads and checks one file against its format, with its missing cards for `--have`.
    fn check(
        &self,
        file: &DeckFile,
        ready: Option<Result<DeckInput, Error>>,
    ) -> Result<(CheckedDeck, Option<u64>), Error> {
        let input = ready.unwrap_or_else(|| read_file(file))?;
        let planned = self.formats.format(file)?;
        let declared = self.settings.declared_format(&planned, &input)?;
        let format = declared.as_ref().unwrap_or(&planned);
        let deck = check::check(&input, &self.settings.db, format);
        let missing = self.collection.map(|collection| {
            let decks = [(&deck, format)];
            need::need(&decks, collection, &self.settings.db, false, None).missing()
        });
        Ok((deck, missing))
    }

    /// One deck's part of the report, the `index`-th deck.
    fn piece(&self, deck: &CheckedDeck, index: usize, missing: Option<u64>) -> Piece {
        Piece::render_with(deck, index, self.style, &self.settings.db, missing)
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
