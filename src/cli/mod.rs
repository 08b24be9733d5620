//! The command line: what the user typed ([`Args`]) and what it resolves to ([`Settings`]).
//!
//! [`run`] does one command and returns what to print and the exit code; `main.rs` only
//! parses arguments, writes the [`Outcome`] and exits. Exit codes are a contract: 0 every
//! deck valid, 1 a deck breaks a rule, 2 deckbox could not do its job.

use std::io::Read;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::cards::{CardDb, CardDbError, embedded, index};
use crate::check::DeckInput;
use crate::formats::Format;
use crate::names::lang::Language;
use crate::settings::config::{Config, Layers, Resolved};

mod card;
mod check;
mod config;
mod edit;
mod fmt;
mod info;
mod stats;

pub use check::{CheckArgs, ColorChoice};
pub use info::FormatsAction;
pub use stats::{
    DEFAULT_SEED, DeckSourceArgs, MAX_SAMPLES, MAX_SETUPS, SampleArgs, StatsArgs, StatsOutput,
};

/// Largest deck file deckbox reads (a 60-card list is about 2 KB).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Most lines a deck list may have (a 60-card list has at most about 70). Counted the way
/// the parser cuts lines (`\n`, `\r\n` or a lone `\r`), before anything is parsed.
pub const MAX_LINES: usize = 200_000;

/// Longest line a deck list may have, in bytes (a card line is under 100). A longer line
/// is not a deck list, and every message quoting it would repeat it.
pub const MAX_LINE_BYTES: usize = 4096;

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
    /// Deal sample setups of a deck (against itself), as a player would see them.
    Sample(SampleArgs),
    /// Every printing of a card, by name in any language or by set code and number, and
    /// where it is legal.
    Card(card::CardArgs),
    /// Explain a rule: what it checks, why, an example and the fix.
    Explain {
        /// A rule id such as `copy-limit`; without one, list every rule.
        rule: Option<String>,
    },
    /// Print deck lists in the canonical layout; `--check` for CI, `--write` to rewrite.
    Fmt(fmt::FmtArgs),
    /// Convert a deck list to another layout or language.
    Convert(fmt::ConvertArgs),
    /// Add cards to a deck list in place, then re-check it.
    Add(edit::AddArgs),
    /// Remove cards from a deck list in place, then re-check it.
    Remove(edit::RemoveArgs),
    /// What changed between two deck lists, card by card.
    Diff(edit::DiffArgs),
    /// Print the resolved settings and where each came from.
    Config(config::ConfigArgs),
    /// Print a shell completion script.
    Completions(info::CompletionsArgs),
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
    #[arg(long, short)]
    pub format: Option<String>,
    #[command(flatten)]
    pub source: SourceArgs,
}

/// Where the card database and the config file come from: what every command that opens
/// cards takes, `deckbox card` included.
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
    /// The outcome with `notes` (the card database's warnings) first on standard error.
    pub(crate) fn noted(mut self, notes: &str) -> Outcome {
        self.stderr.insert_str(0, notes);
        self
    }

    pub(crate) fn failure(message: String) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: message,
            code: 2,
        }
    }
}

/// The message for a file deckbox did not write: the reason, how to write it anyway when
/// `--force` would, and that the file is as it was.
pub(crate) fn unwritten(file: &std::path::Path, error: &crate::util::atomic::WriteError) -> String {
    let name = crate::render::visible_line(&file.display().to_string()).into_owned();
    let help = if error.forceable() {
        "help: `--force` writes it anyway\n"
    } else {
        ""
    };
    format!("error: cannot write {name}: {error}\n{help}{name} was not changed\n")
}

/// Settings resolved from [`SettingsArgs`]: the format loaded and the card database opened.
pub struct Settings {
    pub format: Format,
    pub db: CardDb,
    /// The language lists written by deckbox default to (`language` in deckbox.toml);
    /// `None` keeps each list's own language.
    pub language: Option<Language>,
    /// The config file in effect, for per-path formats and the walk's globs.
    pub config: Option<Config>,
    /// What each setting resolved to and where it came from.
    pub resolved: Resolved,
    /// Warnings from opening the card database (a damaged cache rebuilt, files of the
    /// checkout that could not be read), for standard error.
    pub notes: String,
}

impl Settings {
    /// Reads the config file (unless `--no-config`), layers flags > environment > file >
    /// defaults, loads the format and opens the card database.
    pub fn resolve(args: &SettingsArgs) -> Result<Settings, String> {
        let (config, resolved) = resolve_layers(args)?;
        let format = Format::load(&resolved.format.value)
            .map_err(|error| render_error(error) + &set_by("format", &resolved.format.origin))?;
        let (db, notes) = open_cards(resolved.cards.value.as_deref(), args.source.rebuild_index)
            .map_err(|error| {
                format!(
                    "error: {error}\n{}",
                    set_by("cards", &resolved.cards.origin)
                )
            })?;
        Ok(Settings {
            format,
            db,
            language: resolved.language.value,
            config,
            resolved,
            notes,
        })
    }

    /// [`Settings::resolve`] for a command on one deck file: a `[[overrides]]` entry of the
    /// config file that matches `file` picks its format, as `deckbox check` does (unless
    /// `--format` or `DECKBOX_FORMAT` chose one).
    pub fn resolve_for(args: &SettingsArgs, file: &std::path::Path) -> Result<Settings, String> {
        let mut settings = Settings::resolve(args)?;
        let chosen = (file.as_os_str() != "-")
            .then(|| settings.override_for(&crate::settings::walk::absolute(file)))
            .flatten()
            .map(|format| format.value.clone());
        if let Some(format) = chosen {
            settings.format = settings.load_override(&format)?;
        }
        Ok(settings)
    }

    /// The format a config `[[overrides]]` entry gives the file at `absolute`. Overrides
    /// apply only when the format itself came from the config file or the default:
    /// `--format` and `DECKBOX_FORMAT` win for every file.
    pub(crate) fn override_for(
        &self,
        absolute: &std::path::Path,
    ) -> Option<&crate::settings::config::Setting<String>> {
        let overridable = matches!(
            self.resolved.format.origin,
            crate::settings::config::Origin::Default | crate::settings::config::Origin::File { .. }
        );
        let config = self.config.as_ref().filter(|_| overridable)?;
        config.format_for(absolute)
    }

    /// Loads the format an override names; an error says which line of the config file
    /// named it.
    pub(crate) fn load_override(&self, name: &str) -> Result<Format, String> {
        Format::load(name).map_err(|error| {
            let origin = self.config.as_ref().and_then(|config| {
                let line = config
                    .overrides
                    .iter()
                    .find(|entry| entry.format.value == name)?
                    .format
                    .line;
                Some(crate::settings::config::Origin::File {
                    path: config.path.clone(),
                    line,
                })
            });
            render_error(error)
                + &origin.map_or_else(String::new, |origin| set_by("format", &origin))
        })
    }

    /// Loads a format (id or file) and opens the card database (`--cards`, else embedded),
    /// with no config file and no environment.
    pub fn open(
        format: &str,
        cards: Option<&std::path::Path>,
        rebuild: bool,
    ) -> Result<Settings, String> {
        let resolved = crate::settings::config::resolve(&Layers {
            format_flag: Some(format),
            cards_flag: cards,
            ..Layers::default()
        });
        let format = Format::load(format).map_err(render_error)?;
        let (db, notes) =
            open_cards(cards, rebuild).map_err(|error| format!("error: {error}\n"))?;
        Ok(Settings {
            format,
            db,
            language: None,
            config: None,
            resolved,
            notes,
        })
    }
}

/// Where a setting that failed came from, when not from a flag or the default: `note:
/// cards = is set at deckbox.toml:3`, so a repository's config file is never a mystery.
fn set_by(setting: &str, origin: &crate::settings::config::Origin) -> String {
    match origin {
        crate::settings::config::Origin::File { .. }
        | crate::settings::config::Origin::Env { .. } => format!(
            "note: `{setting}` is set by {}\n",
            config::origin(origin)
                .trim_start_matches('(')
                .trim_end_matches(')')
        ),
        _ => String::new(),
    }
}

/// Finds and reads the config file, then layers flags, environment, file and defaults.
/// Opens nothing else: `deckbox config` shows this without loading a card database.
pub fn resolve_layers(args: &SettingsArgs) -> Result<(Option<Config>, Resolved), String> {
    let config = find_config(args)?;
    let format_env = non_empty_env("DECKBOX_FORMAT")?;
    // A path: any bytes the system allows.
    let cards_env = std::env::var_os("DECKBOX_CARDS")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from);
    let resolved = crate::settings::config::resolve(&Layers {
        format_flag: args.format.as_deref(),
        cards_flag: args.source.cards.as_deref(),
        format_env: format_env.as_deref(),
        cards_env: cards_env.as_deref(),
        file: config.as_ref(),
    });
    Ok((config, resolved))
}

/// `--config FILE`, else the nearest deckbox.toml from the current directory up, unless
/// `--no-config`.
fn find_config(args: &SettingsArgs) -> Result<Option<Config>, String> {
    if args.source.no_config {
        return Ok(None);
    }
    let path = match &args.source.config {
        Some(path) => Some(path.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|cwd| crate::settings::config::discover(&cwd)),
    };
    path.map(|path| crate::settings::config::load(&path).map_err(render_error))
        .transpose()
}

/// An environment variable, an empty value counting as unset; one that is not UTF-8 is an
/// error rather than silently unset (a format id is text).
fn non_empty_env(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name) {
        Ok(value) => Ok(Some(value).filter(|value| !value.is_empty())),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => Err(format!(
            "error: {name} is not valid UTF-8 ({}); unset it or give a format id or path\n",
            value.to_string_lossy().escape_debug()
        )),
    }
}

/// Opens `--cards DIR`, or the embedded card index without one.
pub fn open_cards(
    path: Option<&std::path::Path>,
    rebuild: bool,
) -> Result<(CardDb, String), CardDbError> {
    let Some(path) = path else {
        return Ok((embedded::open()?, String::new()));
    };
    let options = index::IndexOptions {
        cache_dir: None,
        rebuild,
    };
    let opened = index::open_detailed(path, &options)?;
    let notes = card_notes(&opened);
    Ok((opened.db, notes))
}

/// Most unreadable card-data files named one by one; the rest are counted.
const MAX_UNREADABLE_SHOWN: usize = 20;

/// The warnings of opening a checkout: a damaged cache rebuilt, files left out.
fn card_notes(opened: &index::Opened) -> String {
    let mut notes = String::new();
    let shown = |path: &std::path::Path| {
        crate::render::visible_line(&path.display().to_string()).into_owned()
    };
    if let Some(cache) = &opened.damaged_cache {
        let rebuilt = if opened.cache == index::CacheUse::Built {
            "rebuilt it"
        } else {
            "loaded the card data without it"
        };
        notes.push_str(&format!(
            "warning: the card-index cache {} was damaged; {rebuilt}\n",
            shown(cache)
        ));
    }
    let unreadable = &opened.unreadable;
    if !unreadable.is_empty() {
        let n = unreadable.len();
        let (files, their) = if n == 1 {
            ("file", "its")
        } else {
            ("files", "their")
        };
        notes.push_str(&format!(
            "warning: {n} {files} of the card data could not be read; {their} cards are left out (no cache is written until that is fixed):\n"
        ));
        for skipped in unreadable.iter().take(MAX_UNREADABLE_SHOWN) {
            notes.push_str(&format!(
                "  {}: {}\n",
                shown(&skipped.path),
                crate::render::visible_line(&skipped.reason)
            ));
        }
        if n > MAX_UNREADABLE_SHOWN {
            notes.push_str(&format!("  … and {} more\n", n - MAX_UNREADABLE_SHOWN));
        }
    }
    notes
}

pub(crate) fn render_error(error: impl miette::Diagnostic + Send + Sync + 'static) -> String {
    let mut out = String::new();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    let report = miette::Report::new(error);
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!("error: {report}\n");
    }
    // A parse error quotes the offending line of a config or format file, which a cloned
    // repository controls: no escape sequence reaches the terminal.
    crate::render::visible(&out).into_owned()
}

/// Runs one command. `stdin` is read only for the file `-`.
pub fn run(args: &Args, stdin: &mut dyn Read, terminal: Terminal) -> Outcome {
    let mut streamed = Vec::new();
    let mut outcome = run_with_progress(args, stdin, terminal, &Silent, &mut streamed);
    if !streamed.is_empty() {
        outcome.stdout = String::from_utf8_lossy(&streamed).into_owned() + &outcome.stdout;
    }
    outcome
}

/// [`run`], reporting a long simulation's progress to `progress` (the binary draws a bar).
/// A report that grows with the number of files (`check`'s) is written to `stdout` as it is
/// made, so memory stays flat; everything else is in the returned [`Outcome`], whose
/// `stdout` goes after what was written.
pub fn run_with_progress(
    args: &Args,
    stdin: &mut dyn Read,
    terminal: Terminal,
    progress: &dyn Progress,
    stdout: &mut dyn std::io::Write,
) -> Outcome {
    match &args.command {
        Command::Check(check_args) => check::run(check_args, stdin, terminal, stdout),
        Command::Stats(stats_args) => stats::run_stats(stats_args, stdin, progress),
        Command::Sample(sample_args) => stats::run_sample(sample_args, stdin),
        Command::Card(card_args) => card::run(card_args),
        Command::Explain { rule } => info::explain(rule.as_deref()),
        Command::Formats { action } => info::formats(action.as_ref()),
        Command::Fmt(fmt_args) => fmt::run_fmt(fmt_args, stdin, terminal),
        Command::Convert(convert_args) => fmt::run_convert(convert_args, stdin),
        Command::Add(add_args) => edit::run_add(add_args),
        Command::Remove(remove_args) => edit::run_remove(remove_args),
        Command::Diff(diff_args) => edit::run_diff(diff_args, stdin),
        Command::Config(config_args) => config::run(config_args),
        Command::Completions(completions_args) => info::completions(completions_args),
        Command::Man { command } => info::man(command.as_deref()),
    }
}

/// Reads one deck file (or standard input for `-`), bounded in size ([`MAX_FILE_BYTES`])
/// and in lines ([`MAX_LINES`]). Every command that reads deck lists reads them here.
pub(crate) fn read_deck(
    file: &std::path::Path,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Result<DeckInput, String> {
    let mut bytes = Vec::new();
    let is_stdin = file.as_os_str() == "-";
    let name = if is_stdin {
        "standard input".to_string()
    } else {
        crate::render::visible(&file.display().to_string()).into_owned()
    };
    if is_stdin {
        if std::mem::replace(stdin_used, true) {
            return Err("standard input (`-`) can only be read once".to_string());
        }
        stdin
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| format!("cannot read standard input: {error}"))?;
    } else {
        // A named pipe would block forever without a writer, a terminal until typed at:
        // only regular files are opened (symbolic links followed).
        let metadata =
            std::fs::metadata(file).map_err(|error| format!("cannot read {name}: {error}"))?;
        if !metadata.is_file() {
            return Err(format!(
                "cannot read {name}: it is {}, not a file; give a deck list's content on standard input with `-`",
                crate::util::bounded::kind(&metadata.file_type())
            ));
        }
        let handle =
            std::fs::File::open(file).map_err(|error| format!("cannot read {name}: {error}"))?;
        handle
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| format!("cannot read {name}: {error}"))?;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{name} is larger than {} MiB; deck lists are a few kilobytes",
            MAX_FILE_BYTES / 1024 / 1024
        ));
    }
    let input = DeckInput::from_bytes(file.display().to_string(), &bytes);
    let shape = measure(&input.text);
    if shape.lines > MAX_LINES {
        return Err(format!(
            "{name}: {} lines; a deck list may have at most {MAX_LINES} lines",
            shape.lines
        ));
    }
    if let Some((line, bytes)) = shape.first_long_line {
        return Err(format!(
            "{name}:{line}: a line of {bytes} bytes; a deck list's lines may have at most {MAX_LINE_BYTES} bytes"
        ));
    }
    Ok(input)
}

/// The lines of a text, as [`measure`] counts them.
struct Shape {
    lines: usize,
    /// The first line longer than [`MAX_LINE_BYTES`]: its number and length in bytes.
    first_long_line: Option<(usize, usize)>,
}

/// Counts the lines the parser will see in `text` (line endings are `\n`, `\r\n` and a
/// lone `\r`; text after the last ending is one more line) and finds the first line over
/// [`MAX_LINE_BYTES`]. One pass over the bytes, nothing allocated.
fn measure(text: &str) -> Shape {
    let mut lines = 0;
    let mut first_long_line = None;
    let mut start = 0;
    let mut line = |length: usize, lines: &mut usize| {
        *lines += 1;
        if length > MAX_LINE_BYTES && first_long_line.is_none() {
            first_long_line = Some((*lines, length));
        }
    };
    for (end, next) in crate::deck::line_breaks(text) {
        line(end - start, &mut lines);
        start = next;
    }
    // Text after the last line ending is one more line.
    if start < text.len() {
        line(text.len() - start, &mut lines);
    }
    Shape {
        lines,
        first_long_line,
    }
}

/// Receives a long simulation's progress. The library never prints: the binary implements
/// this with a progress bar on a terminal.
pub trait Progress: Sync {
    /// A simulation of `total` setups starts.
    fn start(&self, _total: u64) {}
    /// `done` setups are finished.
    fn advance(&self, _done: u64) {}
    fn finish(&self) {}
}

/// Progress that goes nowhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}
