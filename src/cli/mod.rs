//! The command line of the `deckbox` binary (no part of the library): what the user typed
//! ([`Args`]), turned into the library's plain [`Flags`], and one short `run` per command
//! that calls the library and picks a renderer.
//!
//! [`run`] does one command and returns what to print and the exit code; `main.rs` only
//! parses arguments, writes the [`Outcome`] and exits with its [`Exit`] code (the contract:
//! 0 every deck valid, 1 a deck breaks a rule, 2 deckbox could not do its job). Errors are
//! the library's one [`Error`] type, rendered here once ([`render`]).

use std::io::Read;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use deckbox::error::{Error, Exit};
use deckbox::settings::Flags;
use deckbox::util::progress::Progress;

pub(crate) mod bar;
#[cfg(feature = "tui")]
mod builder;
mod card;
mod cards;
mod check;
mod config;
mod edit;
mod fmt;
mod info;
#[cfg(feature = "lsp")]
pub(crate) mod lsp;
#[cfg(feature = "mcp")]
mod mcp;
mod need;
mod odds;
mod output;
pub(crate) mod parse;
mod review;
mod search;
#[cfg(feature = "pdf")]
mod sheet;
mod stats;

use check::CheckArgs;
use info::FormatsAction;
use stats::{SampleArgs, StatsArgs};

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
    /// Opening-hand statistics: mulligans, each card in hand, prized, seen by turn; `--want`
    /// combinations; `--simulate` to check them against the engine.
    Stats(StatsArgs),
    /// Mid-game odds from the cards you know: each card in the next draws and among the
    /// prizes, and `--want` combinations, exactly.
    Odds(odds::OddsArgs),
    /// Deal sample setups of a deck (against itself), as a player would see them.
    Sample(SampleArgs),
    /// What is still missing to build decks from the cards you own (`--have`): by the
    /// reprint rule, or `--exact-printing`; as a table, JSON or a buy list.
    Need(need::NeedArgs),
    /// Every printing of a card, by name in any language or by set code and number, and
    /// where it is legal.
    Card(card::CardArgs),
    /// Build a deck in the terminal: search cards, add and remove them, and watch the
    /// verdict of `check` and the opening odds change; Ctrl-S saves as `fmt` writes.
    #[cfg(feature = "tui")]
    Build(builder::BuildArgs),
    /// The card index in use: `update` brings newer sets from TCGdex (the only command that
    /// uses the network), `status` says which index is in use, `reset` goes back to the
    /// embedded one.
    Cards {
        #[command(subcommand)]
        action: cards::CardsAction,
    },
    /// Find cards: a query over every printing (names in any language, type, stage, HP,
    /// attacks, rules text, legality in a format at a date...).
    Search(search::SearchArgs),
    /// Explain a rule: what it checks, why, an example and the fix.
    Explain {
        /// A rule id such as `copy-limit`; without one, list every rule.
        rule: Option<String>,
    },
    /// Print deck lists in the canonical layout; `--check` for CI, `--write` to rewrite.
    Fmt(fmt::FmtArgs),
    /// Convert a deck list to another layout or language.
    Convert(fmt::ConvertArgs),
    /// Print a deck registration sheet (PDF) for a tournament, laid out like the official
    /// Play! Pokémon form.
    #[cfg(feature = "pdf")]
    Sheet(sheet::SheetArgs),
    /// Add cards to a deck list in place, then re-check it.
    Add(edit::AddArgs),
    /// Remove cards from a deck list in place, then re-check it.
    Remove(edit::RemoveArgs),
    /// What changed between two deck lists, card by card.
    Diff(edit::DiffArgs),
    /// The deck lists a git change touches: cards in and out, verdict before and after,
    /// opening odds, rotation (for a pull request: `review origin/main HEAD`).
    Review(review::ReviewArgs),
    /// The history of one deck list across git commits, with the verdict at each.
    Log(review::LogArgs),
    /// Print the resolved settings and where each came from.
    Config(config::ConfigArgs),
    /// Print a shell completion script.
    Completions(info::CompletionsArgs),
    /// Serve the Model Context Protocol on standard input and output, for assistants: the
    /// tools check, search, card, odds, need, convert, fmt, explain and formats, read-only.
    #[cfg(feature = "mcp")]
    Mcp(mcp::McpArgs),
    /// The language server for editors (Language Server Protocol over standard input and
    /// output): findings as you type, quick fixes, formatting, hover and completion.
    #[cfg(feature = "lsp")]
    Lsp(lsp::LspArgs),
    /// Print the man page (roff) of deckbox or of one of its commands.
    Man {
        /// A command such as `check`; without one, the page of deckbox itself.
        command: Option<String>,
    },
}

/// What every deck command needs: the format and the card database, and which config file
/// gives their defaults. Flags win over the environment, which wins over the config file.
#[derive(Debug, Default, clap::Args)]
pub struct SettingsArgs {
    /// Format id (`standard`, `unlimited`, ...) or the path of a format file. Default:
    /// `$DECKBOX_FORMAT`, else `format` in deckbox.toml, else `standard` (today's Play!
    /// Pokémon Standard). Ids are matched without case.
    #[arg(long, short, value_parser = FormatValue, hide_possible_values = true)]
    pub format: Option<String>,
    /// Judge at this date (YYYY-MM-DD): the format's season, bans and tournament-legal sets
    /// then. Default: `$DECKBOX_AS_OF`, else a deck's own `# deckbox: as-of=...` line,
    /// else `as_of` in deckbox.toml, else today.
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub as_of: Option<jiff::civil::Date>,
    #[command(flatten)]
    pub source: SourceArgs,
}

/// What every single-deck command starts from ([`deckbox::session::read_and_check`]).
pub(crate) use deckbox::session::read_and_check;

/// The deck of `stats`, `odds` and `sample`: its settings, and the deck read and checked.
/// [`deckbox::stats::StatsDeck::from_checked`] makes it ready for statistics.
pub(crate) fn read_for_stats(
    file: &std::path::Path,
    settings: &SettingsArgs,
    stdin: &mut dyn Read,
) -> Result<(deckbox::settings::Settings, deckbox::check::CheckedDeck), Error> {
    let settings = deckbox::settings::Settings::resolve_for(&settings.flags(), file)?;
    let (_, _, deck) = read_and_check(file, &settings, stdin, &mut false)?;
    Ok((settings, deck))
}

/// What `stats`, `odds` and `sample` write to standard error: the card database's notes,
/// and one line when the deck breaks construction rules.
pub(crate) fn stats_note(
    settings: &deckbox::settings::Settings,
    checked: &deckbox::check::CheckedDeck,
    deck: &deckbox::stats::StatsDeck<'_>,
) -> String {
    let broken = deckbox::render::stats_text::broken_note(deck.broken(), &checked.path);
    format!("{}{broken}", settings.notes)
}

/// `--format`'s value: any text (a built-in id, `all` where a command takes it, or the path
/// of a format file), read as it is. The built-in ids are its possible values, so a shell's
/// completion offers them after `--format` instead of file names.
#[derive(Debug, Clone, Copy)]
struct FormatValue;

impl clap::builder::TypedValueParser for FormatValue {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            deckbox::formats::Format::listed_ids().map(clap::builder::PossibleValue::new),
        ))
    }
}

/// `--as-of`'s value.
/// `--language`'s value: a language deckbox reads (`en`, `fr`, `es`, `pt`, `de`, `it`).
pub(crate) fn parse_language(code: &str) -> Result<deckbox::names::lang::Language, Error> {
    deckbox::names::lang::Language::from_code(code).ok_or_else(|| Error::Usage {
        message: format!("unknown language '{code}'; expected en, fr, es, pt, de or it"),
    })
}

pub(crate) fn parse_date(text: &str) -> Result<jiff::civil::Date, String> {
    deckbox::util::date::parse(text).ok_or_else(|| format!("`{text}` is not a date (YYYY-MM-DD)"))
}

/// Where the card database and the config file come from: what every command that opens
/// cards takes, `deckbox card` included.
impl SettingsArgs {
    /// The flags as the library's settings take them.
    pub fn flags(&self) -> Flags {
        Flags {
            format: self.format.clone(),
            as_of: self.as_of,
            ..self.source.flags()
        }
    }
}

#[derive(Debug, Default, Clone, clap::Args)]
pub struct SourceArgs {
    /// A card database: a TCGdex or pokemon-tcg-data checkout. Default: `$DECKBOX_CARDS`,
    /// else `cards` in deckbox.toml, else the embedded card index.
    #[arg(long)]
    pub cards: Option<PathBuf>,
    /// Rebuild the cached index of `--cards` even if the source looks unchanged.
    #[arg(long)]
    pub rebuild_index: bool,
    /// Read this config file instead of the nearest deckbox.toml from the current directory up.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore any deckbox.toml.
    #[arg(long)]
    pub no_config: bool,
}

impl SourceArgs {
    /// The flags as the library's settings take them (no format).
    pub fn flags(&self) -> Flags {
        Flags {
            format: None,
            cards: self.cards.clone(),
            rebuild_index: self.rebuild_index,
            config: self.config.clone(),
            no_config: self.no_config,
            as_of: None,
            every_format: false,
        }
    }
}

/// What the caller knows about the terminal, for `--color auto`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    pub width: Option<usize>,
}

/// Most threads `--threads` accepts: far more than any machine's cores, and a bound on what a
/// typo (`--threads 100000`) can ask of the system.
const MAX_THREADS: usize = 256;

/// Reads `--threads`: a whole number from 0 (one per core) to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<usize, Error> {
    match text.parse::<usize>() {
        Ok(threads) if threads <= MAX_THREADS => Ok(threads),
        _ => Err(Error::Usage {
            message: format!("expected a whole number from 0 to {MAX_THREADS}"),
        }),
    }
}

/// A walk's warnings, then the files it could not reach, as standard error shows them.
fn walk_messages(walked: &deckbox::settings::walk::Walked) -> String {
    let warnings = walked.warnings.iter().map(|m| format!("warning: {m}\n"));
    let errors = walked.errors.iter().map(|m| format!("error: {m}\n"));
    let mut messages: String = warnings.chain(errors).collect();
    messages.push_str(&skipped_note(walked));
    messages
}

/// The note naming the walked files that were skipped although their name says they may
/// hold a list (`lists/top8.md`): which, and how to have them checked.
fn skipped_note(walked: &deckbox::settings::walk::Walked) -> String {
    let count = walked.skipped_count;
    if count == 0 {
        return String::new();
    }
    let named: Vec<String> = walked
        .skipped
        .iter()
        .map(|path| deckbox::util::escape::visible(&path.display().to_string()).into_owned())
        .collect();
    let more = count - named.len();
    let rest = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let files = if count == 1 { "file" } else { "files" };
    format!(
        "note: skipped {count} {files} whose names are not those of deck lists: {}{rest}\nhelp: a folder is walked for the names `include` under `[files]` in deckbox.toml selects (by default {}); name a file on the command line to check it anyway\n",
        named.join(", "),
        deckbox::settings::walk::DEFAULT_INCLUDE.join(", "),
    )
}

/// What standard error says when a walk found no deck file and no error: checking nothing is
/// not a failure (an empty folder), but CI should see it.
const NOTHING_FOUND: &str = "warning: no deck lists found; a walk picks the files deckbox.toml's [files] include, by default *.txt, *.deck, *.ptcgl, *.ptcgo\n";

/// What a command produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: Exit,
}

impl Outcome {
    /// The outcome with `notes` (the card database's warnings) first on standard error.
    pub(crate) fn noted(mut self, notes: &str) -> Outcome {
        self.stderr.insert_str(0, notes);
        self
    }

    /// A run that failed with `message`, already rendered (see [`render`]).
    pub(crate) fn failure(message: String) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: message,
            code: Exit::Failed,
        }
    }

    /// A run that failed with `error`.
    pub(crate) fn error(error: &Error) -> Outcome {
        Outcome::failure(render(error))
    }
}

/// An error as standard error shows it, the one place errors are rendered. A mistake in a
/// one-line input (a search query, a `--want` expression, a card list) is drawn with carets
/// under it by [`deckbox::render::caret::draw`]; a file error (format or config file,
/// engine) is drawn by miette, pointing into the file; any other is one `error:` line (with
/// `help:` when it has one). A setting that failed is followed by where it was set; notes that came
/// before the error (the card database's) go first. Either way every invisible or control
/// character is written as `\u{...}`.
pub(crate) fn render(error: &Error) -> String {
    match error {
        Error::SetBy {
            setting,
            origin,
            error,
        } => format!("{}note: `{setting}` is set by {}\n", render(error), origin),
        Error::Noted { notes, error } => format!("{notes}{}", render(error)),
        Error::Update(error) => cards::failed(error),
        Error::Search { query, error } => deckbox::render::search::error(query, error),
        Error::Query {
            query: input,
            message,
            span,
        }
        | Error::CardList {
            list: input,
            message,
            span,
        } => deckbox::render::caret::draw(
            message,
            input,
            span.offset(),
            span.offset() + span.len(),
            None,
        ),
        Error::File(_) | Error::Format(_) | Error::Engine(_) => {
            let mut out = String::new();
            let handler = miette::GraphicalReportHandler::new_themed(
                miette::GraphicalTheme::unicode_nocolor(),
            );
            if handler.render_report(&mut out, error).is_err() {
                out = format!("error: {error}\n");
            }
            // A format or config file's line comes from a cloned repository.
            deckbox::util::escape::visible(&out).into_owned()
        }
        _ => {
            let help = miette::Diagnostic::help(error)
                .map(|help| format!("help: {help}\n"))
                .unwrap_or_default();
            // A message may quote a deck's line, a card name or a file name.
            deckbox::util::escape::visible(&format!("error: {error}\n{help}")).into_owned()
        }
    }
}

/// The message for a file deckbox did not write: the reason, how to write it anyway when
/// `--force` would, and that the file is as it was.
pub(crate) fn unwritten(
    file: &std::path::Path,
    error: &deckbox::util::atomic::WriteError,
) -> String {
    let name = deckbox::util::escape::path_line(file);
    let help = if error.forceable() {
        "help: `--force` writes it anyway\n"
    } else {
        ""
    };
    format!("error: cannot write {name}: {error}\n{help}{name} was not changed\n")
}

/// Runs one command (`stdin` is read only for the file `-`), reporting a long simulation's
/// progress to `progress` (the binary draws a bar).
/// A report that grows with the number of files (`check`'s, `fmt --check`'s diffs) is
/// written to `stdout` as it is made, so memory stays flat; everything else is in the returned [`Outcome`], whose
/// `stdout` goes after what was written.
pub fn run(
    args: &Args,
    stdin: &mut dyn Read,
    terminal: Terminal,
    progress: &dyn Progress,
    stdout: &mut dyn std::io::Write,
) -> Outcome {
    cards::watch_index_builds();
    // The one place an error becomes its message and exit code.
    let mut outcome = run_command(args, stdin, terminal, progress, stdout)
        .unwrap_or_else(|error| Outcome::error(&error));
    // Standard error is always read by a person: whatever a message quotes (a deck's line,
    // a card name, a path), no escape sequence or bidirectional control reaches the
    // terminal. Each message escapes its parts already; this keeps a new one honest.
    if let std::borrow::Cow::Owned(shown) = deckbox::util::escape::visible(&outcome.stderr) {
        outcome.stderr = shown;
    }
    outcome
}

/// `deckbox lsp`, which `main` runs with standard input and output unlocked: the server
/// reads and writes them on threads of its own.
#[cfg(feature = "lsp")]
pub fn run_lsp(args: &lsp::LspArgs) -> Outcome {
    lsp::run(args).unwrap_or_else(|error| Outcome::error(&error))
}

fn run_command(
    args: &Args,
    stdin: &mut dyn Read,
    terminal: Terminal,
    progress: &dyn Progress,
    stdout: &mut dyn std::io::Write,
) -> Result<Outcome, Error> {
    // A command that prints a report hands it to `emit`, which writes it to standard output
    // or to the `-o` file.
    match &args.command {
        Command::Check(a) => {
            // A file is not a terminal: no colour unless `--color always`, the default width.
            let terminal = if a.output.file.output_file.is_some() {
                Terminal::default()
            } else {
                terminal
            };
            a.output
                .emit(stdout, |out| check::run(a, stdin, terminal, out))
        }
        Command::Stats(a) => a
            .output
            .emit(stdout, |_| stats::run_stats(a, stdin, progress)),
        Command::Odds(a) => a.output.emit(stdout, |_| odds::run(a, stdin)),
        Command::Card(a) => a.output.emit(stdout, |_| card::run(a)),
        Command::Need(a) => a.output.emit(stdout, |_| need::run(a, stdin)),
        Command::Search(a) => a.output.emit(stdout, |out| search::run(a, out)),
        Command::Sample(a) => a.output.emit(stdout, |_| stats::run_sample(a, stdin)),
        Command::Convert(a) => a.output.emit(stdout, |_| fmt::run_convert(a, stdin)),
        #[cfg(feature = "tui")]
        Command::Build(build_args) => builder::run(build_args),
        Command::Cards { action } => cards::run(action),
        Command::Explain { rule } => info::explain(rule.as_deref()),
        Command::Formats { action } => info::formats(action.as_ref()),
        Command::Fmt(fmt_args) => fmt::run_fmt(fmt_args, stdin, stdout),
        #[cfg(feature = "pdf")]
        Command::Sheet(sheet_args) => sheet::run(sheet_args, stdin),
        Command::Add(add_args) => edit::run_add(add_args),
        Command::Remove(remove_args) => edit::run_remove(remove_args),
        Command::Diff(a) => a.output.emit(stdout, |_| edit::run_diff(a, stdin)),
        Command::Review(a) => a.output.emit(stdout, |_| review::run_review(a)),
        Command::Log(a) => a.output.emit(stdout, |_| review::run_log(a)),
        Command::Config(a) => a.output.emit(stdout, |_| config::run(a)),
        Command::Completions(completions_args) => info::completions(completions_args),
        Command::Man { command } => info::man(command.as_deref()),
        #[cfg(feature = "mcp")]
        Command::Mcp(mcp_args) => mcp::run(mcp_args),
        // `main` serves it with standard input and output unlocked (`run_lsp`).
        #[cfg(feature = "lsp")]
        Command::Lsp(_) => Ok(Outcome::failure(
            "error: deckbox lsp speaks on standard input and output, which this caller holds\n"
                .to_string(),
        )),
    }
}
