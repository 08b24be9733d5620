//! Formats as data: each format is a TOML file under `formats/`, the rules only read it.
//!
//! A [`Format`] says how a deck is built (size, copy limit, tag limits). Files are strict:
//! an unknown key or a wrong type is an error pointing at the offending text. The formats
//! shipped with deckbox are compiled in; `--format path.toml` reads an organizer's own.
//! [`Format::load`] reads a file (with what it `extends`) into a strict schema and compiles
//! it once into a [`Format`], whose card lists are normalized into lookup keys then.
//! This module does not check decks (see [`crate::check`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub mod history;
pub mod legality;
pub mod reprint;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use history::{LegalRule, Season, TournamentLegal};

use crate::util::invalid_file::{FileError, InvalidFile};

/// `(id, file name, text)` of a format file under `formats/`, compiled in.
macro_rules! builtin {
    ($id:literal) => {
        (
            $id,
            concat!("formats/", $id, ".toml"),
            include_str!(concat!("../../formats/", $id, ".toml")),
        )
    };
}

/// Formats compiled into the binary, in the order `deckbox formats` lists them.
const BUILTIN: &[(&str, &str, &str)] = &[
    builtin!("standard"),
    builtin!("expanded"),
    builtin!("unlimited"),
    builtin!("glc"),
    builtin!("gameboy"),
    builtin!("play-pokemon"),
    builtin!("expanded-pool"),
];

/// A format at one date: what decks must look like to be played in it, which cards it
/// allows, and how a game is set up, with the card lists of its file normalized once
/// ([`Format::load`]). [`Format::at`] gives the same format at another date.
#[derive(Debug, Clone, PartialEq)]
pub struct Format {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The format this one starts from: a built-in id or a path relative to this file.
    pub extends: Option<String>,
    /// A base other formats extend, not a format of its own: `deckbox formats` and
    /// `--format all` leave it out.
    pub base: bool,
    /// The date the file judges at when no other date is given (a format frozen at one
    /// date); built-in formats have none and judge at today's date.
    pub as_of: Option<Date>,
    /// The date this format judges at.
    pub date: Date,
    /// The season, for a format file that names one without `[[seasons]]` (`2026-27`).
    pub season: Option<String>,
    /// Every season of a rotating format, in order; empty for a format whose pool does not
    /// rotate.
    pub seasons: Vec<Season>,
    /// The index in `seasons` of the season in effect at `date`.
    pub season_index: Option<usize>,
    /// When each set became tournament legal.
    pub tournament_legal: TournamentLegal,
    /// Where the rules of the file come from.
    pub sources: Vec<String>,
    pub construction: Construction,
    pub pool: Pool,
    /// Bans in effect at `date`. A child format's bans add to its parent's.
    pub bans: Vec<Ban>,
    /// Every ban the file lists, in effect at `date` or not.
    pub all_bans: Vec<Ban>,
    pub setup: Setup,
    /// Card texts the format plays differently from the print (shown by `formats show`).
    /// A child format's errata add to its parent's.
    pub errata: Vec<Erratum>,
    /// The lists above as lookup keys.
    keys: legality::Keys,
    /// The file's table (its parents merged in), to judge at another date.
    history: Arc<History>,
    /// Verdicts already given, by database and printing: a repository check judges the same
    /// printings deck after deck. A format is never changed once compiled (a format at
    /// another date is another value, with its own memo).
    judged: crate::util::memo::Memo<(u64, crate::cards::PrintingId), legality::Judged>,
}

/// What [`Format::at`] compiles a format from.
#[derive(Debug, PartialEq)]
struct History {
    path: PathBuf,
    table: toml::Table,
    /// The table read as a file, by season index (`None`: the file without a season laid
    /// over it): [`Format::at`] for another day of a season reads the table once.
    files: crate::util::memo::Memo<Option<usize>, Option<Arc<FormatFile>>>,
}

impl History {
    fn new(path: PathBuf, table: toml::Table) -> History {
        History {
            path,
            table,
            files: Default::default(),
        }
    }

    /// The table as a file, with season `season` laid over it; read once per season.
    fn file(&self, season: Option<usize>) -> Result<FormatFile, FormatError> {
        let read = || match season {
            Some(index) => deserialize(&self.path, season_table(&self.table, index)),
            None => deserialize(&self.path, self.table.clone()),
        };
        let memo = self
            .files
            .get_or(&season, |&key| key, || read().ok().map(Arc::new));
        match memo {
            Some(file) => Ok(FormatFile::clone(&file)),
            None => read(),
        }
    }
}

/// A format file as written (the fields of [`Format`] but its keys): every field has a
/// default (Unlimited's), so a file only says what differs. Read strictly, then compiled.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatFile {
    id: String,
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    extends: Option<String>,
    #[serde(default)]
    base: bool,
    #[serde(default)]
    as_of: Option<Date>,
    #[serde(default)]
    season: Option<String>,
    #[serde(default)]
    seasons: Vec<Season>,
    #[serde(default)]
    tournament_legal: Vec<LegalRule>,
    #[serde(default)]
    tournament_legal_dates: BTreeMap<String, Date>,
    #[serde(default)]
    sources: Vec<String>,
    #[serde(default)]
    construction: Construction,
    #[serde(default)]
    pool: Pool,
    #[serde(default)]
    bans: Vec<Ban>,
    #[serde(default)]
    setup: Setup,
    #[serde(default)]
    errata: Vec<Erratum>,
}

/// Deck-construction limits. Each rule of [`crate::check`] reads one of these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Construction {
    /// Exact number of cards (`deck-size`).
    pub deck_size: u32,
    /// Copies allowed per name, basic Energy excepted (`copy-limit`).
    pub copy_limit: u32,
    /// Honour the printed "you may have as many of this card in your deck as you like".
    pub printed_copy_overrides: bool,
    /// Printings exempt from the copy limit because the card says so (`"AR AR1"`: set code
    /// and number), for databases whose card text lacks that sentence.
    pub copy_limit_exempt: Vec<String>,
    /// ACE SPEC cards allowed in total (`ace-spec-limit`). This and the three limits below
    /// are `None` when the format's rules do not have them (the Game Boy format's rules name
    /// no such card): then the format neither states nor checks them.
    pub ace_spec_limit: Option<u32>,
    /// Copies allowed per Prism Star name (`prism-star-limit`).
    pub prism_star_copies: Option<u32>,
    /// Radiant Pokémon allowed in total (`radiant-limit`).
    pub radiant_limit: Option<u32>,
    /// Pokémon Star cards allowed in total (`gold-star-limit`).
    pub pokemon_star_limit: Option<u32>,
    /// Basic Pokémon required (`no-basic-pokemon`).
    pub min_basic_pokemon: u32,
    /// All Pokémon must share a type (`single-type`).
    pub single_type: bool,
    /// Whether Rule Box cards are allowed (`rule-box`).
    pub rule_box_allowed: bool,
    /// Cards a deck may hold only one of (`exclusive-cards`), each group with its source.
    pub exclusive: Vec<Exclusive>,
}

impl Default for Construction {
    fn default() -> Construction {
        Construction {
            deck_size: 60,
            copy_limit: 4,
            printed_copy_overrides: true,
            copy_limit_exempt: Vec::new(),
            ace_spec_limit: None,
            prism_star_copies: None,
            radiant_limit: None,
            pokemon_star_limit: None,
            min_basic_pokemon: 1,
            single_type: false,
            rule_box_allowed: true,
            exclusive: Vec::new(),
        }
    }
}

/// Cards the rules tie together: a deck may hold copies of one of `names`, never of two
/// (`Professor Juniper` and `Professor Sycamore`). Only where an official source says so,
/// cited in `source`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exclusive {
    /// English card names, as the rules name the cards.
    pub names: Vec<String>,
    /// Who says so, with the date.
    pub source: String,
    /// The day the rule took effect; before it the cards are not tied.
    #[serde(default)]
    pub from: Option<Date>,
}

/// Which printings the format allows. A printing is in the pool when it passes every
/// criterion given (an absent criterion passes everything), or is listed in `include`;
/// `exclude` wins over both.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Pool {
    /// Regulation marks allowed (`["H", "I", "J"]`).
    pub regulation_marks: Option<Vec<String>>,
    /// Series ids allowed (`bw`, `xy`, `sm`, `swsh`, `sv`, `me`).
    pub series: Option<Vec<String>>,
    /// Set codes allowed, as deck lists print them (`BS`, `JU`).
    pub sets: Option<Vec<String>>,
    /// First and last release dates allowed (`YYYY-MM-DD`, inclusive).
    pub released_from: Option<Date>,
    pub released_until: Option<Date>,
    /// Printings allowed whatever the criteria say (`"PR 2"`: set code and number).
    pub include: Vec<String>,
    /// Printings never allowed (`"SET NUMBER"`).
    pub exclude: Vec<String>,
    /// Basic Energy is legal whatever its printing.
    pub basic_energy_always: bool,
    /// An older printing is legal when a legal printing has the same name and functionally
    /// identical text (Play! Pokémon Tournament Rules 5.4.1.3).
    pub reprint_rule: bool,
    /// Why the pool is what it is.
    pub note: String,
    /// Criteria inherited from the format this one extends (or from the file, in a season)
    /// that no longer apply.
    pub unset: Vec<Criterion>,
}

/// A pool criterion, as `unset` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Criterion {
    RegulationMarks,
    Series,
    Sets,
    ReleasedFrom,
    ReleasedUntil,
}

/// A banned card: one printing (`set` + `number`), or every printing of a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ban {
    /// The card's English name.
    pub name: String,
    /// Set code and number of the banned printing; without them every printing is banned.
    #[serde(default)]
    pub set: Option<String>,
    #[serde(default)]
    pub number: Option<String>,
    /// Who banned it (an announcement, a rules document).
    pub source: String,
    /// When the ban took effect (`YYYY-MM-DD`).
    pub date: Date,
    /// When it was lifted, if it was (the first day the card was legal again).
    #[serde(default)]
    pub until: Option<Date>,
    #[serde(default)]
    pub note: Option<String>,
}

impl Ban {
    /// Whether the ban is in effect on `date`.
    pub fn in_effect(&self, date: Date) -> bool {
        self.date <= date && self.until.is_none_or(|until| date < until)
    }
}

/// A count that must be at least 1, refused at its key otherwise.
fn at_least_one<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(deserializer)?;
    if value == 0 {
        return Err(serde::de::Error::custom("must be at least 1"));
    }
    Ok(value)
}

/// How a game is set up and its first turn: the one description of the setup rules, read
/// from the format file and used as is by the game-setup engine ([`crate::engine`]) and the
/// exact odds ([`crate::stats`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Setup {
    /// Cards in the opening hand: at least 1 (a hand of 0 could never hold a Basic Pokémon).
    #[serde(deserialize_with = "at_least_one")]
    pub hand_size: u32,
    pub prizes: u32,
    /// Prize cards in Sudden Death; `None` when the format's rules have no Sudden Death
    /// (the Game Boy format's do not).
    pub sudden_death_prizes: Option<u32>,
    /// The opponent may draw a card for each extra mulligan.
    pub mulligan_extra_draw: bool,
    /// Mulligans both players took cancel out before counting extra draws.
    pub mutual_mulligans_cancel: bool,
    /// The player who goes first draws a card on their first turn.
    pub first_player_draws: bool,
    /// The player who goes first may attack on their first turn.
    pub first_turn_attack: bool,
    /// The player who goes first may play a Supporter on their first turn; `None` when the
    /// format's rules say nothing of Supporters (the Game Boy format's have none). With
    /// `supporter_rules`, the rule in force at the date judged sets it when the format is
    /// loaded.
    pub first_turn_supporter: Option<bool>,
    /// The first-turn Supporter rule of each era's rulebook, by the day it took effect
    /// (`[[setup.supporter_rules]]`): the rulebooks differ, so a list is judged by the one
    /// of its date. Before the first entry the format states no Supporter rule.
    pub supporter_rules: Vec<SupporterRule>,
    /// The rulebook of the Supporter rule in force at the date judged (from
    /// `supporter_rules`, set when the format is loaded).
    #[serde(skip_deserializing)]
    pub supporter_rulebook: Option<String>,
    /// Where these rules come from.
    pub source: String,
    /// What earlier rulebooks said differently, with the rulebook (`formats show` states it
    /// beside the rules in force; statistics use the rules in force).
    pub earlier: String,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            hand_size: 7,
            prizes: 6,
            sudden_death_prizes: None,
            mulligan_extra_draw: true,
            mutual_mulligans_cancel: true,
            first_player_draws: true,
            first_turn_attack: false,
            first_turn_supporter: None,
            supporter_rules: Vec::new(),
            supporter_rulebook: None,
            source: String::new(),
            earlier: String::new(),
        }
    }
}

/// One era's first-turn Supporter rule, as its rulebook states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupporterRule {
    /// The first day the rule applied.
    pub from: Date,
    /// Whether the player who goes first may play a Supporter on their first turn.
    pub allowed: bool,
    /// The rulebook and its passage.
    pub rulebook: String,
}

impl Setup {
    /// The setup at `date`: the first-turn Supporter rule of the rulebook in force then,
    /// when the format gives the rules by era; none before the first era.
    fn at(mut self, date: Date) -> Setup {
        if self.supporter_rules.is_empty() {
            return self;
        }
        let rule = self
            .supporter_rules
            .iter()
            .filter(|rule| rule.from <= date)
            .max_by_key(|rule| rule.from);
        self.first_turn_supporter = rule.map(|rule| rule.allowed);
        self.supporter_rulebook = rule.map(|rule| rule.rulebook.clone());
        self
    }

    /// Cards a player has drawn from the deck by the start of their own turn `turn`
    /// (1-based, after that turn's draw), besides the hand: the player going second draws
    /// every turn; the one going first skips turn 1's draw when the format says so.
    pub fn draws_by_turn(&self, turn: u32, going: Going) -> u32 {
        match going {
            Going::First if !self.first_player_draws => turn.saturating_sub(1),
            _ => turn,
        }
    }
}

/// Whether a player goes first or second: which player's turns the engine deals and the
/// curves count (`--going`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Going {
    #[default]
    First,
    Second,
}

/// A card the format plays with other text than printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Erratum {
    pub card: String,
    pub text: String,
}

/// A format file that could not be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum FormatError {
    #[error("unknown format '{name}'")]
    #[diagnostic(
        code(format),
        help(
            "known formats: {known}; or give the path of a format file (`--format my-format.toml`)"
        )
    )]
    Unknown { name: String, known: String },
    /// A format file that cannot be read or does not fit the schema.
    #[error(transparent)]
    #[diagnostic(transparent)]
    File(#[from] FileError),
    #[error("format '{id}' did not exist on {date}: its first season, {first}, began {from}")]
    #[diagnostic(
        code(format),
        help("judge the deck at {from} or later (`--as-of`), or in a format of its time")
    )]
    BeforeFirstSeason {
        id: String,
        date: Date,
        first: String,
        from: Date,
    },
}

/// Largest format file read: the shipped ones are under 14 KB; a bound keeps a format path
/// that is a link to `/dev/zero` from being read without end.
pub const MAX_FORMAT_BYTES: u64 = 1 << 20;

/// Most TOML values (keys, tables, array elements: [`crate::util::toml_shape`]) a format
/// and every file it `extends` may hold together, counted before each is parsed: the parser
/// keeps a few hundred bytes per value and the table is copied while it is checked, so this
/// bounds what loading a chain can cost. Standard with what it extends holds under 500.
pub const MAX_FORMAT_VALUES: usize = 20_000;

/// Deepest nesting of arrays and tables in a format file (its schema needs 3).
pub const MAX_FORMAT_DEPTH: usize = 8;

/// How deep `extends` may chain (a cycle stops here too).
const MAX_EXTENDS: usize = 8;

impl Format {
    /// Ids of the formats compiled into deckbox.
    pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(id, _, _)| *id)
    }

    /// `(id, file name, text)` of each format file compiled into deckbox.
    pub fn builtin_files() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
        BUILTIN.iter().copied()
    }

    /// Ids of the formats `deckbox formats` lists and `--format all` judges in: the
    /// built-in ones that are not bases of others.
    pub fn listed_ids() -> impl Iterator<Item = &'static str> {
        static BASES: OnceLock<Vec<bool>> = OnceLock::new();
        let bases =
            BASES.get_or_init(|| BUILTIN.iter().map(|(_, _, text)| is_base(text)).collect());
        BUILTIN
            .iter()
            .zip(bases)
            .filter(|(_, base)| !**base)
            .map(|((id, _, _), _)| *id)
    }

    /// A built-in format by id, or a format file when `name` is a path (ends in `.toml` or
    /// names an existing file), with everything it `extends` applied, at the date the
    /// file gives (`as_of`), else today.
    pub fn load(name: &str) -> Result<Format, FormatError> {
        Format::load_at(name, None)
    }

    /// [`Format::load`] at `date` (when given, it wins over the file's `as_of`).
    pub fn load_at(name: &str, date: Option<Date>) -> Result<Format, FormatError> {
        // A built-in file is read (its `extends` merged, each file checked) once per process:
        // the editor, the web page and the MCP server load formats on every request.
        static LOADED: [OnceLock<Arc<History>>; BUILTIN.len()] =
            [const { OnceLock::new() }; BUILTIN.len()];
        let builtin = BUILTIN
            .iter()
            .position(|(id, _, _)| id.eq_ignore_ascii_case(name));
        if let Some(history) = builtin.and_then(|index| LOADED.get(index)?.get()) {
            return Format::dated(Arc::clone(history), date);
        }
        let (path, table) = load_table(name, None, &mut Vec::new(), &mut 0)?;
        let history = Arc::new(History::new(path, table));
        if let Some(slot) = builtin.and_then(|index| LOADED.get(index)) {
            slot.get_or_init(|| Arc::clone(&history));
        }
        Format::dated(history, date)
    }

    /// The same format at `date`: its season, bans and tournament-legal sets then.
    pub fn at(&self, date: Date) -> Result<Format, FormatError> {
        if date == self.date {
            return Ok(self.clone());
        }
        Format::dated(Arc::clone(&self.history), Some(date))
    }

    /// Parses one format file's text strictly, without applying `extends`; `path` is only
    /// used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<Format, FormatError> {
        FormatFile::parse(path, text)?;
        let table: toml::Table =
            toml::from_str(text).map_err(|error| invalid(path, text, &error))?;
        let history = History::new(path.to_path_buf(), table);
        Format::dated(Arc::new(history), None)
    }

    /// The format `history` describes at `date` (else its `as_of`, else today): the season
    /// then laid over the file, the card lists normalized.
    fn dated(history: Arc<History>, date: Option<Date>) -> Result<Format, FormatError> {
        let file = history.file(None)?;
        let date = date.or(file.as_of).unwrap_or_else(crate::util::date::today);
        let season_index = history::season_at(&file.seasons, date).map_err(|first| {
            FormatError::BeforeFirstSeason {
                id: file.id.clone(),
                date,
                first: first.name.clone(),
                from: first.from,
            }
        })?;
        let file = match season_index {
            Some(index) => history.file(Some(index))?,
            None => file,
        };
        Ok(Format::compile(file, date, history))
    }

    /// The format a file describes at `date`, its card lists normalized.
    fn compile(file: FormatFile, date: Date, history: Arc<History>) -> Format {
        let bans: Vec<Ban> = file
            .bans
            .iter()
            .filter(|ban| ban.in_effect(date))
            .cloned()
            .collect();
        let keys = legality::Keys::new(&file.construction, &file.pool, &bans, date);
        let mut seasons = file.seasons;
        seasons.sort_by_key(|season| season.from);
        let season_index = history::season_at(&seasons, date).ok().flatten();
        Format {
            id: file.id,
            name: file.name,
            description: file.description,
            extends: file.extends,
            base: file.base,
            as_of: file.as_of,
            date,
            season: file.season,
            seasons,
            season_index,
            tournament_legal: TournamentLegal::new(
                file.tournament_legal,
                &file.tournament_legal_dates,
            ),
            sources: file.sources,
            construction: file.construction,
            pool: file.pool,
            bans,
            all_bans: file.bans,
            setup: file.setup.at(date),
            errata: file.errata,
            keys,
            history,
            judged: Default::default(),
        }
    }

    /// The season in effect at [`Format::date`], for a rotating format.
    pub fn season_in_effect(&self) -> Option<&Season> {
        self.season_index.and_then(|index| self.seasons.get(index))
    }

    /// The first season after the one in effect (an announced rotation), if the file has
    /// one.
    pub fn next_season(&self) -> Option<&Season> {
        self.seasons.iter().find(|season| season.from > self.date)
    }

    /// The groups of `construction.exclusive`, each with its names' lookup keys.
    pub fn exclusive(&self) -> impl Iterator<Item = (&Exclusive, &[String])> {
        let keys = self.keys.exclusive.iter().map(Vec::as_slice);
        self.construction
            .exclusive
            .iter()
            .zip(keys)
            .filter(|(group, _)| group.from.is_none_or(|from| from <= self.date))
    }

    /// `construction.copy_limit_exempt`, normalized (`None` for an entry that names no
    /// printing).
    pub(crate) fn copy_limit_exempt(&self) -> &[Option<legality::PrintingKey>] {
        &self.keys.copy_limit_exempt
    }
}

impl FormatFile {
    fn parse(path: &Path, text: &str) -> Result<FormatFile, FormatError> {
        toml::from_str(text).map_err(|error| invalid(path, text, &error))
    }
}

/// A merged table read as a format file (each file was checked strictly on its own before).
fn deserialize(path: &Path, table: toml::Table) -> Result<FormatFile, FormatError> {
    FormatFile::deserialize(toml::Value::Table(table)).map_err(|error| {
        FormatError::from(FileError::from(InvalidFile::from_toml(
            "format", path, "", &error,
        )))
    })
}

/// `table` with its season `index` laid over it: the season's `pool`, `construction` and
/// `setup` tables merged key by key.
fn season_table(table: &toml::Table, index: usize) -> toml::Table {
    let mut dated = table.clone();
    let season = match table.get("seasons") {
        Some(toml::Value::Array(seasons)) => seasons.get(index).and_then(toml::Value::as_table),
        _ => None,
    };
    if let Some(season) = season {
        let overlay: toml::Table = season
            .iter()
            .filter(|(key, _)| matches!(key.as_str(), "pool" | "construction" | "setup"))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        merge(&mut dated, overlay);
    }
    dated
}

/// Whether a built-in file declares itself a base (`base = true`), read from its TOML.
fn is_base(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|table| table.get("base").and_then(toml::Value::as_bool))
        .unwrap_or(false)
}

fn invalid(path: &Path, text: &str, error: &toml::de::Error) -> FormatError {
    FormatError::from(FileError::from(InvalidFile::from_toml(
        "format", path, text, error,
    )))
}

/// An error at the `extends` key of a format file.
fn invalid_extends(
    path: PathBuf,
    text: String,
    message: String,
    help: Option<&str>,
) -> FormatError {
    let span = extends_key(&text).map(|at| at..at + "extends".len());
    FormatError::from(FileError::from(InvalidFile::new(
        "format",
        &path,
        &text,
        message.clone(),
        span,
        message,
        help.map(str::to_owned),
    )))
}

/// The text of a built-in format or a format file (relative to `base`, the folder of the
/// file that extends it).
fn source(name: &str, base: Option<&Path>) -> Result<(PathBuf, String), FormatError> {
    // Built-in ids are matched without case: `deckbox formats` prints `Standard`.
    if let Some((_, file, text)) = BUILTIN
        .iter()
        .find(|(id, _, _)| id.eq_ignore_ascii_case(name))
    {
        return Ok((PathBuf::from(file), (*text).to_string()));
    }
    let path = match base {
        Some(base) if Path::new(name).is_relative() => base.join(name),
        _ => PathBuf::from(name),
    };
    if name.ends_with(".toml") || path.is_file() {
        let text = crate::util::bounded::read_to_string(&path, MAX_FORMAT_BYTES)
            .map_err(|source| FormatError::File(FileError::io("format", &path, source)))?;
        return Ok((path, text));
    }
    Err(FormatError::Unknown {
        name: name.to_string(),
        known: Format::listed_ids().collect::<Vec<_>>().join(", "),
    })
}

/// Reads a format file as a TOML table with its parents merged in, checking each file
/// against the schema on the way so errors point into the file that has them. `chain`
/// holds the files already on the way down, to name a cycle; `values` the TOML values they
/// hold ([`MAX_FORMAT_VALUES`] bounds the sum, counted before each file is parsed).
fn load_table(
    name: &str,
    base: Option<&Path>,
    chain: &mut Vec<PathBuf>,
    values: &mut usize,
) -> Result<(PathBuf, toml::Table), FormatError> {
    let (path, text) = source(name, base)?;
    crate::util::toml_shape::check_within(&text, values, MAX_FORMAT_VALUES, MAX_FORMAT_DEPTH)
        .map_err(|reason| FormatError::File(FileError::io("format", &path, reason)))?;
    let mut table: toml::Table =
        toml::from_str(&text).map_err(|error| invalid(&path, &text, &error))?;
    // Checked against the schema from the table; only a file that fails is read again from
    // its text, for an error that points at the offending line.
    let own = match FormatFile::deserialize(toml::Value::Table(table.clone())) {
        Ok(own) => own,
        Err(_) => FormatFile::parse(&path, &text)?,
    };
    let Some(parent) = own.extends else {
        return Ok((path, table));
    };
    let identity = path.canonicalize().unwrap_or_else(|_| path.clone());
    let cycle = chain.contains(&identity);
    chain.push(identity);
    if cycle || chain.len() > MAX_EXTENDS {
        let names: Vec<String> = chain.iter().map(|p| p.display().to_string()).collect();
        let message = if cycle {
            format!("`extends` forms a cycle: {}", names.join(" → "))
        } else {
            format!("`extends` chains more than {MAX_EXTENDS} formats")
        };
        return Err(invalid_extends(path, text, message, None));
    }
    let folder = path.parent().map(Path::to_path_buf);
    if let Some(message) = escapes(&parent, folder.as_deref(), chain) {
        let help = "extend a built-in format, or a format file in the same folder as the one \
                    given (or below it)";
        return Err(invalid_extends(path, text, message, Some(help)));
    }
    let (_, mut merged) = match load_table(&parent, folder.as_deref(), chain, values) {
        Ok(loaded) => loaded,
        // Name the file that holds the `extends`, not only the one it names.
        Err(FormatError::File(FileError::Io {
            path: missing,
            reason: source,
            ..
        })) => {
            let message = format!(
                "`extends` names {}, which cannot be read: {source}",
                missing.display()
            );
            return Err(invalid_extends(path, text, message, None));
        }
        Err(FormatError::Unknown { name, known }) => {
            let message = format!("`extends` names unknown format '{name}' (known: {known})");
            return Err(invalid_extends(path, text, message, None));
        }
        Err(other) => return Err(other),
    };
    merge(&mut merged, std::mem::take(&mut table));
    Ok((path, merged))
}

/// Why `extends = "<parent>"` may not be followed, if it may not: a file it names must lie
/// in the folder of the first file of the chain (the one given on the command line or in
/// deckbox.toml) or below it, so a format file cannot make deckbox read, and print parts
/// of, a file elsewhere (`extends = "/home/me/.ssh/id_rsa"`).
fn escapes(parent: &str, folder: Option<&Path>, chain: &[PathBuf]) -> Option<String> {
    if BUILTIN
        .iter()
        .any(|(id, _, _)| id.eq_ignore_ascii_case(parent))
    {
        return None;
    }
    if Path::new(parent).is_absolute() {
        return Some(format!("`extends` names an absolute path: {parent}"));
    }
    let root = chain.first()?.parent()?;
    let target = folder?.join(parent).canonicalize().ok()?;
    (!target.starts_with(root)).then(|| {
        format!(
            "`extends` leaves the folder of {}: {parent}",
            chain
                .first()
                .map_or(String::new(), |p| p.display().to_string())
        )
    })
}

/// Byte offset of the `extends` key: the start of a line `extends = ...`, so that the word
/// in a comment above it is not the one underlined.
fn extends_key(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let key = line.trim_start();
        if let Some(rest) = key.strip_prefix("extends")
            && rest.trim_start().starts_with('=')
        {
            return Some(at + line.len() - key.len());
        }
        at += line.len();
    }
    None
}

/// Lays `child` over `base`: tables merge key by key, `bans`, `errata` and `seasons` add up
/// (a child's season on a parent's day replaces it), any other
/// value of the child replaces the parent's, and a table's `unset` removes the keys it
/// names from the parent's table.
fn merge(base: &mut toml::Table, mut child: toml::Table) {
    if let Some(toml::Value::Array(unset)) = child.remove("unset") {
        for key in unset.iter().filter_map(toml::Value::as_str) {
            base.remove(key);
        }
    }
    for (key, value) in child {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(mine)), toml::Value::Table(theirs)) => merge(mine, theirs),
            (Some(toml::Value::Array(mine)), toml::Value::Array(theirs))
                if key == "bans" || key == "errata" || key == "seasons" =>
            {
                mine.extend(theirs);
            }
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_formats_load() {
        for id in Format::builtin_ids() {
            let format = Format::load(id).unwrap();
            assert_eq!(format.id, id);
        }
    }

    #[test]
    fn unknown_keys_are_errors_with_a_span() {
        let text = "id = \"x\"\nname = \"X\"\ncolour = \"red\"\n[construction]\n";
        let error = Format::parse(Path::new("x.toml"), text).unwrap_err();
        let FormatError::File(FileError::Invalid(invalid)) = error else {
            panic!("expected an invalid-file error");
        };
        let InvalidFile { message, span, .. } = *invalid;
        assert!(message.contains("colour"), "{message}");
        let span = span.unwrap();
        assert_eq!(&text[span.offset()..span.offset() + span.len()], "colour");
    }

    #[test]
    fn extends_key_skips_comments() {
        let text = "# extends b\nid = \"a\"\n  extends = \"b.toml\"\n";
        let at = extends_key(text).unwrap();
        assert_eq!(&text[at..at + 7], "extends");
        assert_eq!(at, text.find("  extends").unwrap() + 2);
        assert_eq!(extends_key("id = \"a\"\n"), None);
    }

    /// `deckbox formats` prints `Standard`; a player types what they read.
    #[test]
    fn built_in_ids_are_matched_without_case() {
        for (typed, id) in [
            ("Standard", "standard"),
            ("EXPANDED", "expanded"),
            ("GLC", "glc"),
        ] {
            assert_eq!(Format::load(typed).unwrap().id, id, "{typed}");
        }
    }

    #[test]
    fn unknown_format_names_the_known_ones() {
        let error = Format::load("modern").unwrap_err();
        assert!(error.to_string().contains("modern"));
        assert!(matches!(error, FormatError::Unknown { known, .. } if known.contains("unlimited")));
    }
}
