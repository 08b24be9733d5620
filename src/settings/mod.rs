//! What a run is configured to do: the flags a user gave ([`Flags`]) layered over the
//! environment, `deckbox.toml` and the defaults, resolved to [`Settings`] (the format loaded,
//! the card database opened); which format each file is checked against ([`FormatPlan`]);
//! the config file itself ([`config`]) and which files of a repository are deck lists
//! ([`walk`]). It knows no command-line parser: the CLI hands it plain [`Flags`]. It never
//! prints: warnings come back as text for the caller to show.

pub mod config;
pub mod report;
pub mod walk;

use std::collections::HashMap;
use std::path::PathBuf;

use jiff::civil::Date;

use crate::cards::storage::{checkout_cache, embedded, update};
use crate::cards::{CardDb, CardDbError};
use crate::deck::DeckInput;
use crate::deck::declared::{Declared, declared};
use crate::error::Error;
use crate::formats::Format;
use crate::names::lang::Language;
use crate::util::escape::visible_line;
use config::{Config, Layers, Origin, Resolved};
use walk::{DeckFile, Selection};

/// The settings a user gave as flags, before layering; unset fields fall back to the
/// environment, then the config file, then the defaults.
#[derive(Debug, Default, Clone)]
pub struct Flags {
    /// Format id or format file path (`--format`).
    pub format: Option<String>,
    /// A card database checkout (`--cards`).
    pub cards: Option<PathBuf>,
    /// Rebuild the cached index of `cards` even if the source looks unchanged.
    pub rebuild_index: bool,
    /// This config file instead of the nearest deckbox.toml (`--config`).
    pub config: Option<PathBuf>,
    /// Ignore any deckbox.toml (`--no-config`).
    pub no_config: bool,
    /// The date decks are judged at (`--as-of`).
    pub as_of: Option<Date>,
    /// Each deck is judged in every listed format at its own date (`check --format all`,
    /// [`is_every_format`]), never in the run's one format (`format`, else the environment's,
    /// the config file's or the default), which is then loaded at today's date.
    pub every_format: bool,
}

/// The `--format` of `check` that judges each deck in every listed format
/// ([`Flags::every_format`]).
pub const EVERY_FORMAT: &str = "all";

/// Whether `format` (a `--format` value) judges each deck in every listed format at the
/// deck's date (`all`, any case) rather than in one format.
pub fn is_every_format(format: Option<&str>) -> bool {
    format.is_some_and(|format| format.eq_ignore_ascii_case(EVERY_FORMAT))
}

impl Flags {
    /// These flags judging in every listed format ([`Flags::every_format`], no one format
    /// named) when `format` is [`EVERY_FORMAT`], else unchanged: what a face that takes
    /// `--format all` (`check`, MCP `check_deck`, the web page) resolves.
    pub fn every_format_if_all(self, format: Option<&str>) -> Flags {
        match is_every_format(format) {
            true => Flags {
                format: None,
                every_format: true,
                ..self
            },
            false => self,
        }
    }
}

/// The layers of `flags` and the run's format, loaded at the date judged. With `--format
/// all` ([`Flags::every_format`]) no deck is judged in the run's one format: it is loaded at
/// today's date, so a date before its first season (`--as-of 2006-07-01`, before Standard)
/// is no error; each listed format says for itself whether it existed then.
fn layers_and_format(flags: &Flags) -> Result<(Option<Config>, Resolved, Format), Error> {
    let (config, resolved) = resolve_layers(flags)?;
    let date = match flags.every_format {
        true => None,
        false => resolved.as_of.value,
    };
    let format = Format::load_at(&resolved.format.value, date)
        .map_err(|error| set_by("format", &resolved.format.origin, error.into()))?;
    Ok((config, resolved, format))
}

/// Settings resolved from [`Flags`]: the format loaded and the card database opened.
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
    pub fn resolve(flags: &Flags) -> Result<Settings, Error> {
        let (config, resolved, format) = layers_and_format(flags)?;
        let (db, mut notes) = open_cards(resolved.cards.value.as_deref(), flags.rebuild_index)
            .map_err(|error| set_by("cards", &resolved.cards.origin, error.into()))?;
        notes.push_str(&card_data_note(config.as_ref(), &db));
        Ok(Settings {
            format,
            db,
            language: resolved.language.value,
            config,
            resolved,
            notes,
        })
    }

    /// The same settings re-layered for `flags`, the format reloaded, the card database kept
    /// open: a caller that serves many requests (the web page) opens the cards once. `flags`
    /// must name no card source (`--cards`): it is not reopened.
    pub fn reconfigure(&mut self, flags: &Flags) -> Result<(), Error> {
        let (config, resolved, format) = layers_and_format(flags)?;
        self.format = format;
        self.language = resolved.language.value;
        self.config = config;
        self.resolved = resolved;
        Ok(())
    }

    /// [`Settings::resolve`] for a command on one deck file: a `[[overrides]]` entry of the
    /// config file that matches `file` picks its format, as `deckbox check` does (unless
    /// `--format` or `DECKBOX_FORMAT` chose one).
    pub fn resolve_for(flags: &Flags, file: &std::path::Path) -> Result<Settings, Error> {
        let mut settings = Settings::resolve(flags)?;
        if let std::borrow::Cow::Owned(format) = settings.format_for_file(file)? {
            settings.format = format;
        }
        Ok(settings)
    }

    /// The format of the file at `file` before it declares its own: the run's, or the one
    /// a `[[overrides]]` entry of the config file gives it ([`Settings::resolve_for`]).
    pub fn format_for_file(
        &self,
        file: &std::path::Path,
    ) -> Result<std::borrow::Cow<'_, Format>, Error> {
        if file.as_os_str() != "-" {
            let chosen = self.override_for(&walk::absolute(file));
            if chosen != Chosen::default() {
                return Ok(std::borrow::Cow::Owned(self.load_chosen(&chosen)?));
            }
        }
        Ok(std::borrow::Cow::Borrowed(&self.format))
    }

    /// The format and date config `[[overrides]]` entries give the file at `absolute`.
    /// Overrides apply only to a setting that came from the config file or the default:
    /// `--format`, `--as-of` and their variables win for every file.
    pub(crate) fn override_for(&self, absolute: &std::path::Path) -> Chosen {
        let overridable = |origin: &Origin| {
            matches!(
                origin,
                config::Origin::Default | config::Origin::File { .. }
            )
        };
        let Some(config) = self.config.as_ref() else {
            return Chosen::default();
        };
        Chosen {
            format: overridable(&self.resolved.format.origin)
                .then(|| config.format_for(absolute))
                .flatten()
                .map(|setting| setting.value.clone()),
            as_of: overridable(&self.resolved.as_of.origin)
                .then(|| config.as_of_for(absolute))
                .flatten()
                .map(|setting| setting.value),
        }
    }

    /// The format `chosen` names (else the run's) at its date (else the run's); an error
    /// says which line of the config file chose it.
    pub(crate) fn load_chosen(&self, chosen: &Chosen) -> Result<Format, Error> {
        let date = chosen.as_of.or(self.resolved.as_of.value);
        let loaded = match &chosen.format {
            Some(name) => Format::load_at(name, date),
            None => match date {
                Some(date) => self.format.at(date),
                None => Ok(self.format.clone()),
            },
        };
        loaded.map_err(|error| {
            let origin = self.config.as_ref().and_then(|config| {
                let entry = config.overrides.iter().find(|entry| {
                    (chosen.format.is_some()
                        && entry.format.as_ref().map(|f| &f.value) == chosen.format.as_ref())
                        || (chosen.format.is_none()
                            && entry.as_of.as_ref().map(|d| d.value) == chosen.as_of)
                })?;
                let line = entry
                    .format
                    .as_ref()
                    .map(|f| f.line)
                    .or(entry.as_of.as_ref().map(|d| d.line))?;
                Some(config::Origin::File {
                    path: config.path.clone(),
                    line,
                })
            });
            match origin {
                Some(origin) => set_by("format", &origin, error.into()),
                None => error.into(),
            }
        })
    }

    /// The format `deck` is judged in: the run's, or the one the deck declares
    /// ([`Settings::declared_format`]).
    pub fn format_for_deck(&self, deck: &DeckInput) -> Result<std::borrow::Cow<'_, Format>, Error> {
        Ok(match self.declared_format(&self.format, deck)? {
            Some(format) => std::borrow::Cow::Owned(format),
            None => std::borrow::Cow::Borrowed(&self.format),
        })
    }

    /// What `deck` declares (`# deckbox: format=..., as-of=...`) for the settings no flag
    /// or variable gave: a flag and its variable win over the deck, the deck over the config
    /// file. A declaration that cannot be read is an error whatever wins.
    fn declaration(&self, deck: &DeckInput) -> Result<Option<Declared>, Error> {
        let found = declared(&deck.text).map_err(|source| Error::Declared {
            path: deck.path.clone(),
            source,
        })?;
        let free = |origin: &Origin| !matches!(origin, Origin::Flag { .. } | Origin::Env { .. });
        Ok(found.map(|declared| Declared {
            format: declared
                .format
                .filter(|_| free(&self.resolved.format.origin)),
            as_of: declared.as_of.filter(|_| free(&self.resolved.as_of.origin)),
            line: declared.line,
        }))
    }

    /// The date `deck` is judged at: `--as-of` or `DECKBOX_AS_OF`, else the deck's own
    /// `as-of`, else deckbox.toml's, else today.
    pub fn deck_date(&self, deck: &DeckInput) -> Result<Date, Error> {
        let declared = self.declaration(deck)?.and_then(|declared| declared.as_of);
        Ok(declared
            .or(self.resolved.as_of.value)
            .unwrap_or_else(crate::util::date::today))
    }

    /// The format `deck` is judged in: `base` (the run's, or its file's override), unless
    /// the deck declares its own format or date for a setting no flag or variable gave.
    /// `None`: `base` as it is.
    pub fn declared_format(
        &self,
        base: &Format,
        deck: &DeckInput,
    ) -> Result<Option<Format>, Error> {
        let Some(Declared {
            format,
            as_of,
            line,
        }) = self.declaration(deck)?
        else {
            return Ok(None);
        };
        let declared_error = |source| Error::Declared {
            path: deck.path.clone(),
            source,
        };
        let fail = |message: String| {
            declared_error(crate::deck::declared::DeclaredError { line, message })
        };
        let dated = match (format, as_of) {
            (None, None) => return Ok(None),
            (Some(id), date) => {
                // A deck file names built-in formats only: it must not make deckbox read
                // another file.
                if !Format::builtin_ids().any(|known| known.eq_ignore_ascii_case(&id)) {
                    let known: Vec<&str> = Format::listed_ids().collect();
                    return Err(fail(format!(
                        "unknown format `{id}` (known: {})",
                        known.join(", ")
                    )));
                }
                Format::load_at(&id, date.or(Some(base.date)))
            }
            (None, Some(date)) => base.at(date),
        };
        dated
            .map(Some)
            .map_err(|error| fail(visible_line(&error.to_string()).into_owned()))
    }

    /// Loads a format (id or file) and opens the card database (`--cards`, else embedded),
    /// with no config file and no environment.
    pub fn open(
        format: &str,
        cards: Option<&std::path::Path>,
        rebuild: bool,
    ) -> Result<Settings, Error> {
        let resolved = config::resolve(&Layers {
            format_flag: Some(format),
            cards_flag: cards,
            ..Layers::default()
        });
        let format = Format::load(format)?;
        let (db, notes) = open_cards(cards, rebuild)?;
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

/// `error`, for a setting that came from `origin`: when that is a config file line or an
/// environment variable, the error says so (so a repository's config file is never a
/// mystery); from a flag or the default, it is `error` as it is.
fn set_by(setting: &'static str, origin: &Origin, error: Error) -> Error {
    match origin {
        Origin::File { .. } | Origin::Env { .. } => Error::SetBy {
            setting,
            origin: origin_text(origin)
                .trim_start_matches('(')
                .trim_end_matches(')')
                .to_string(),
            error: Box::new(error),
        },
        _ => error,
    }
}

/// The card database `flags` name (flag, environment, deckbox.toml, else the embedded or
/// updated index) and its notes for standard error, without loading a format: for commands
/// that read no deck (`card`, `search`).
pub fn open_source(flags: &Flags) -> Result<(CardDb, String), Error> {
    let (config, resolved) = resolve_layers(flags)?;
    let (db, mut notes) = open_cards(resolved.cards.value.as_deref(), flags.rebuild_index)?;
    notes.push_str(&card_data_note(config.as_ref(), &db));
    Ok((db, notes))
}

/// Finds and reads the config file, then layers flags, environment, file and defaults.
/// Opens nothing else: `deckbox config` shows this without loading a card database.
pub fn resolve_layers(flags: &Flags) -> Result<(Option<Config>, Resolved), Error> {
    let config = find_config(flags)?;
    let format_env = non_empty_env("DECKBOX_FORMAT")?;
    // A path: any bytes the system allows.
    let cards_env = std::env::var_os("DECKBOX_CARDS")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from);
    if let Some(value) = non_empty_env(crate::util::date::TODAY_VAR)?
        && crate::util::date::parse(&value).is_none()
    {
        return Err(Error::EnvNotDate {
            name: crate::util::date::TODAY_VAR,
            value: visible_line(&value).into_owned(),
        });
    }
    let as_of_env = match non_empty_env("DECKBOX_AS_OF")? {
        Some(value) => Some(
            crate::util::date::parse(&value).ok_or_else(|| Error::EnvNotDate {
                name: "DECKBOX_AS_OF",
                value: visible_line(&value).into_owned(),
            })?,
        ),
        None => None,
    };
    let resolved = config::resolve(&Layers {
        format_flag: flags.format.as_deref(),
        cards_flag: flags.cards.as_deref(),
        format_env: format_env.as_deref(),
        cards_env: cards_env.as_deref(),
        as_of_flag: flags.as_of,
        as_of_env,
        file: config.as_ref(),
    });
    Ok((config, resolved))
}

/// `--config FILE`, else the nearest deckbox.toml from the current directory up, unless
/// `--no-config`.
fn find_config(flags: &Flags) -> Result<Option<Config>, Error> {
    if flags.no_config {
        return Ok(None);
    }
    let path = match &flags.config {
        Some(path) => Some(path.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|cwd| config::discover(&cwd)),
    };
    path.map(|path| config::load(&path).map_err(Error::from))
        .transpose()
}

/// An environment variable, an empty value counting as unset; one that is not UTF-8 is an
/// error rather than silently unset (a format id is text).
fn non_empty_env(name: &'static str) -> Result<Option<String>, Error> {
    match std::env::var(name) {
        Ok(value) => Ok(Some(value).filter(|value| !value.is_empty())),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => Err(Error::EnvNotUtf8 {
            name,
            value: value.to_string_lossy().escape_debug().to_string(),
        }),
    }
}

/// Opens `--cards DIR`, or without one the index `deckbox cards update` installed, else the
/// embedded one.
pub fn open_cards(
    path: Option<&std::path::Path>,
    rebuild: bool,
) -> Result<(CardDb, String), CardDbError> {
    let Some(path) = path else {
        return open_default();
    };
    let options = checkout_cache::IndexOptions {
        cache_dir: None,
        rebuild,
    };
    let opened = checkout_cache::open_detailed(path, &options)?;
    let notes = card_notes(&opened);
    Ok((opened.db, notes))
}

/// The card index used without `--cards`: the one `deckbox cards update` installed, else the
/// embedded one. An installed index that cannot be read (damaged, or written by another
/// deckbox version) is passed over with a warning that says how to fix it.
fn open_default() -> Result<(CardDb, String), CardDbError> {
    let Ok(dir) = update::data_dir() else {
        return Ok((embedded::open()?, String::new()));
    };
    match update::open_installed(&dir) {
        Ok(Some(db)) => Ok((db, String::new())),
        Ok(None) => Ok((embedded::open()?, String::new())),
        Err(error) => Ok((
            embedded::open()?,
            format!(
                "warning: {}; using the embedded card index (run `deckbox cards update` again, or `deckbox cards reset`)\n",
                visible_line(&error.to_string())
            ),
        )),
    }
}

/// A warning, with the fix, when the card data in use is not what deckbox.toml's
/// `card_data` says the repository expects; empty otherwise (or without the setting).
pub fn card_data_note(config: Option<&Config>, db: &CardDb) -> String {
    let Some((config, expected)) = config.and_then(|c| Some((c, c.card_data.as_ref()?))) else {
        return String::new();
    };
    let source = db.source();
    let problem = match &expected.value {
        config::CardData::Embedded => match source {
            crate::cards::Source::Embedded => return String::new(),
            crate::cards::Source::Updated(_) => {
                "the card index `deckbox cards update` installed is in use; run `deckbox cards reset` to use the embedded one".to_string()
            }
            _ => "a `--cards` checkout is in use; drop `--cards` (and DECKBOX_CARDS)".to_string(),
        },
        config::CardData::NewestSet(set) => {
            let knows = db.iter().any(|(_, p)| {
                p.set_code.eq_ignore_ascii_case(set) || p.set_id.eq_ignore_ascii_case(set)
            });
            if knows {
                return String::new();
            }
            format!(
                "the card data in use does not know the set `{}`; run `deckbox cards update` (or use `--cards DIR` with a TCGdex checkout that has it)",
                visible_line(set)
            )
        }
    };
    let wanted = match &expected.value {
        config::CardData::Embedded => "the embedded card index".to_string(),
        config::CardData::NewestSet(set) => format!("card data up to set `{}`", visible_line(set)),
    };
    format!(
        "warning: {} (line {}) expects {wanted}: {problem}\n",
        crate::util::escape::path_line(&config.path),
        expected.line
    )
}

/// Most unreadable card-data files named one by one; the rest are counted.
const MAX_UNREADABLE_SHOWN: usize = 20;

/// The warnings of opening a checkout: a damaged cache rebuilt, files left out.
fn card_notes(opened: &checkout_cache::Opened) -> String {
    let mut notes = String::new();
    let shown = crate::util::escape::path_line;
    if let Some(cache) = &opened.damaged_cache {
        let rebuilt = if opened.cache == checkout_cache::CacheUse::Built {
            "rebuilt it"
        } else {
            "loaded the card data without it"
        };
        notes.push_str(&format!(
            "warning: the card-index cache {} was damaged; {rebuilt}\n",
            shown(cache)
        ));
    }
    if let Some(folder) = &opened.cache_not_a_folder {
        notes.push_str(&format!(
            "warning: the card-index cache folder {} is a file, not a folder; loaded the card data without a cache (move the file away to keep one)\n",
            shown(folder)
        ));
    }
    if let Some((folder, reason)) = &opened.cache_unusable {
        notes.push_str(&format!(
            "warning: the card-index cache folder {} cannot be used ({}); loaded the card data without a cache\n",
            shown(folder),
            visible_line(reason)
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
                visible_line(&skipped.reason)
            ));
        }
        if n > MAX_UNREADABLE_SHOWN {
            notes.push_str(&format!("  … and {} more\n", n - MAX_UNREADABLE_SHOWN));
        }
    }
    notes
}

impl Settings {
    /// The walk's file selection: the config file's `[files]`, else the defaults.
    pub fn selection(&self) -> Result<Selection, Error> {
        match &self.config {
            Some(config) => config.selection().map_err(|error| Error::Glob {
                path: config.path.clone(),
                reason: error,
            }),
            None => Ok(Selection::defaults()),
        }
    }
}

/// What `[[overrides]]` give one file: a format, a date, both or neither.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Chosen {
    format: Option<String>,
    as_of: Option<Date>,
}

impl Chosen {
    /// Whether an entry gives the file a date (`as_of`).
    pub(crate) fn dated(&self) -> bool {
        self.as_of.is_some()
    }
}

/// Which format each file is checked against. `[[overrides]]` of the config file apply only
/// when the format itself came from that file or the default: `--format` and
/// `DECKBOX_FORMAT` win for every file.
///
/// It keeps one format per distinct choice the overrides made, never one entry per file: a
/// walk of many files can stream through it ([`FormatPlan::prepare`] each file first, so a
/// format that cannot be loaded is an error before anything is checked).
pub struct FormatPlan<'a> {
    settings: &'a Settings,
    /// The formats the overrides chose, loaded.
    loaded: HashMap<Chosen, Format>,
}

impl<'a> FormatPlan<'a> {
    /// A plan over `files`, every format they need loaded.
    pub fn new(files: &[DeckFile], settings: &'a Settings) -> Result<FormatPlan<'a>, Error> {
        let mut plan = FormatPlan::empty(settings);
        for file in files {
            plan.prepare(file)?;
        }
        Ok(plan)
    }

    /// A plan with nothing loaded yet: [`FormatPlan::prepare`] each file.
    pub fn empty(settings: &'a Settings) -> FormatPlan<'a> {
        FormatPlan {
            settings,
            loaded: HashMap::new(),
        }
    }

    /// Whether some file may be given another format than the run's: the config file has
    /// `[[overrides]]` (without them, [`FormatPlan::prepare`] has nothing to do).
    pub fn may_override(&self) -> bool {
        self.settings
            .config
            .as_ref()
            .is_some_and(|config| !config.overrides.is_empty())
    }

    /// Loads the format the overrides give `file`, unless loaded already.
    pub fn prepare(&mut self, file: &DeckFile) -> Result<(), Error> {
        let chosen = self.settings.override_for(&file.absolute);
        if chosen != Chosen::default() && !self.loaded.contains_key(&chosen) {
            let format = self.settings.load_chosen(&chosen)?;
            self.loaded.insert(chosen, format);
        }
        Ok(())
    }

    /// The format `file` is checked against. A choice not prepared (the file appeared after
    /// the plan was made) is loaded now.
    pub fn format(&self, file: &DeckFile) -> Result<std::borrow::Cow<'_, Format>, Error> {
        let chosen = self.settings.override_for(&file.absolute);
        if chosen == Chosen::default() {
            return Ok(std::borrow::Cow::Borrowed(&self.settings.format));
        }
        match self.loaded.get(&chosen) {
            Some(format) => Ok(std::borrow::Cow::Borrowed(format)),
            None => self
                .settings
                .load_chosen(&chosen)
                .map(std::borrow::Cow::Owned),
        }
    }
}

/// A setting's origin as `deckbox config` shows it: `(default)`, `(--format)`,
/// `(DECKBOX_FORMAT)`, `(deckbox.toml:3)`.
pub fn origin_text(origin: &Origin) -> String {
    match origin {
        Origin::Default => "(default)".to_string(),
        Origin::Flag { flag } => format!("({flag})"),
        Origin::Env { var } => format!("({var})"),
        Origin::File { path, line } => format!("({}:{line})", shown(path)),
    }
}

/// A path as the user would type it from here: relative under the current directory, on
/// one line and escaped for a terminal ([`crate::util::escape::path_line`]).
pub fn shown(path: &std::path::Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    match path.strip_prefix(&cwd) {
        Ok(relative) if !relative.as_os_str().is_empty() => {
            crate::util::escape::path_line(relative)
        }
        _ => crate::util::escape::path_line(path),
    }
}

/// Every format `deckbox formats` lists, at `date`; a format that did not exist then is
/// `Err` with why.
pub fn listed_formats_at(date: Date) -> Vec<(&'static str, Result<Format, String>)> {
    Format::listed_ids()
        .map(|id| {
            let format = Format::load_at(id, Some(date)).map_err(|error| match error {
                crate::formats::FormatError::BeforeFirstSeason { first, from, .. } => {
                    format!("did not exist yet (its first season, {first}, began {from})")
                }
                other => other.to_string(),
            });
            (id, format)
        })
        .collect()
}
