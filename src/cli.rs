//! The command line: what the user typed ([`Args`]) and what it resolves to ([`Settings`]).
//!
//! [`run`] does one command and returns what to print and the exit code; `main.rs` only
//! parses arguments, writes the [`Outcome`] and exits. Exit codes are a contract: 0 every
//! deck valid, 1 a deck breaks a rule, 2 deckbox could not do its job.

use std::io::Read;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::cards::{CardDb, CardDbError, Source, embedded, index};
use crate::check::{self, CheckedDeck, DeckInput};
use crate::diagnostic::Rule;
use crate::format::Format;
use crate::report::{self, HumanOptions, OutputFormat};

/// Largest deck file deckbox reads (a 60-card list is about 2 KB).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

#[derive(Debug, Parser)]
#[command(
    name = "deckbox",
    version,
    about = "Check, analyse and edit Pokémon TCG deck lists"
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check deck lists against the construction rules of a format.
    Check(CheckArgs),
    /// List the formats, or show one: what it allows, its ban list and setup rules.
    Formats {
        #[command(subcommand)]
        action: Option<FormatsAction>,
    },
    /// Explain a rule: what it checks, why, an example and the fix.
    Explain {
        /// A rule id such as `copy-limit`; without one, list every rule.
        rule: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum FormatsAction {
    /// Show one format: a built-in id or the path of a format file.
    Show { format: String },
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Deck list files; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Format id (`unlimited`) or the path of a format file.
    #[arg(long, short, default_value = "unlimited")]
    pub format: String,
    /// A card database: a TCGdex or pokemon-tcg-data checkout. Default: the embedded pool.
    #[arg(long, env = "DECKBOX_CARDS")]
    pub cards: Option<PathBuf>,
    /// Rebuild the cached index of `--cards` even if the source looks unchanged.
    #[arg(long)]
    pub rebuild_index: bool,
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

/// What the caller knows about the terminal, for `--color auto`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    pub width: Option<usize>,
}

/// What a command produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

impl Outcome {
    fn failure(message: String) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: message,
            code: 2,
        }
    }
}

/// Settings resolved from [`CheckArgs`]: the format loaded and the card database opened.
pub struct Settings {
    pub format: Format,
    pub db: CardDb,
}

impl Settings {
    pub fn resolve(args: &CheckArgs) -> Result<Settings, String> {
        let format = Format::load(&args.format).map_err(render_error)?;
        let db = open_cards(args.cards.as_deref(), args.rebuild_index)
            .map_err(|error| format!("error: {error}\n"))?;
        Ok(Settings { format, db })
    }
}

/// Opens `--cards DIR`, or the embedded pool without one.
pub fn open_cards(path: Option<&std::path::Path>, rebuild: bool) -> Result<CardDb, CardDbError> {
    match path {
        Some(path) => index::open(
            path,
            &index::IndexOptions {
                cache_dir: None,
                rebuild,
            },
        ),
        None => Ok(CardDb::new(Source::Embedded, embedded::load()?)),
    }
}

fn render_error(error: impl miette::Diagnostic + Send + Sync + 'static) -> String {
    let mut out = String::new();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    let report = miette::Report::new(error);
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!("error: {report}\n");
    }
    out
}

/// Runs one command. `stdin` is read only for the file `-`.
pub fn run(args: &Args, stdin: &mut dyn Read, terminal: Terminal) -> Outcome {
    match &args.command {
        Command::Check(check_args) => run_check(check_args, stdin, terminal),
        Command::Explain { rule } => explain(rule.as_deref()),
        Command::Formats { action } => formats(action.as_ref()),
    }
}

fn run_check(args: &CheckArgs, stdin: &mut dyn Read, terminal: Terminal) -> Outcome {
    let settings = match Settings::resolve(args) {
        Ok(settings) => settings,
        Err(message) => return Outcome::failure(message),
    };
    let mut outcome = Outcome::default();
    let mut decks: Vec<CheckedDeck> = Vec::new();
    let mut stdin_used = false;
    for file in &args.files {
        match read_deck(file, stdin, &mut stdin_used) {
            Ok(input) => decks.push(check::check(&input, &settings.db, &settings.format)),
            Err(message) => {
                outcome.stderr.push_str(&format!("error: {message}\n"));
                outcome.code = 2;
            }
        }
    }
    let human = HumanOptions {
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stdout_is_tty,
        },
        width: terminal.width.unwrap_or(100),
    };
    outcome.stdout = match args.output {
        OutputFormat::Human => {
            let mut text: Vec<String> = decks
                .iter()
                .map(|deck| report::human(deck, human))
                .collect();
            if decks.len() > 1 {
                text.push(report::totals(&decks));
            }
            text.join("\n")
        }
        OutputFormat::Short => decks.iter().map(report::short).collect(),
        OutputFormat::Json => report::json(&decks, &settings.db),
    };
    if outcome.code == 0 && decks.iter().any(|deck| !deck.valid()) {
        outcome.code = 1;
    }
    outcome
}

/// Reads one deck file (or standard input for `-`), bounded in size.
fn read_deck(
    file: &std::path::Path,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Result<DeckInput, String> {
    let mut bytes = Vec::new();
    if file.as_os_str() == "-" {
        if std::mem::replace(stdin_used, true) {
            return Err("standard input (`-`) can only be read once".to_string());
        }
        stdin
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| format!("cannot read standard input: {error}"))?;
    } else {
        let handle = std::fs::File::open(file)
            .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
        handle
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{} is larger than {} MiB; deck lists are a few kilobytes",
            file.display(),
            MAX_FILE_BYTES / 1024 / 1024
        ));
    }
    Ok(DeckInput::from_bytes(file.display().to_string(), &bytes))
}

fn explain(rule: Option<&str>) -> Outcome {
    let Some(id) = rule else {
        let mut stdout = String::new();
        for rule in Rule::ALL {
            let doc = rule.doc();
            stdout.push_str(&format!(
                "{:<18} {:<8} {}\n",
                doc.id,
                rule.severity().as_str(),
                doc.summary
            ));
        }
        return Outcome {
            stdout,
            ..Outcome::default()
        };
    };
    let Some(rule) = Rule::from_id(id) else {
        let known: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
        return Outcome::failure(format!(
            "error: unknown rule '{id}'\nknown rules: {}\n",
            known.join(", ")
        ));
    };
    let doc = rule.doc();
    let stdout = format!(
        "{id} ({severity})\n\n{summary}\n\nWhy\n  {why}\n\nExample\n{example}\nFix\n  {fix}\n",
        id = doc.id,
        severity = rule.severity().as_str(),
        summary = doc.summary,
        why = doc.why,
        example = indent(doc.example),
        fix = doc.fix,
    );
    Outcome {
        stdout,
        ..Outcome::default()
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}

fn formats(action: Option<&FormatsAction>) -> Outcome {
    let shown = match action {
        None => Format::builtin_ids()
            .map(Format::load)
            .collect::<Result<Vec<_>, _>>()
            .map(|all| report::formats::list(&all)),
        Some(FormatsAction::Show { format }) => {
            Format::load(format).map(|format| report::formats::show(&format))
        }
    };
    match shown {
        Ok(stdout) => Outcome {
            stdout,
            ..Outcome::default()
        },
        Err(error) => Outcome::failure(render_error(error)),
    }
}
