//! What each tool of `deckbox mcp` takes (its JSON schema and descriptions come from these
//! structs) and does: the library call its command makes, rendered as the command renders
//! `--output json` (or its text, for commands without JSON). Each returns the answer and the
//! notes the command writes on standard error ([`Answer`]), or the error the command would
//! give; [`super`] turns them into tool results.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;

use deckbox::edit::file::{Failed, Fmt, FmtMode};
use deckbox::edit::listing::Layout;
use deckbox::error::Error;
use deckbox::formats::{Format, Going};
use deckbox::names::lang::Language;
use deckbox::render::OutputFormat;
use deckbox::session::assist::{self, ListSource, Roots};
use deckbox::settings::{Flags, Settings};
use deckbox::stats::StatsDeck;

/// Most `want` and `count_as` expressions one call takes.
pub const MAX_QUERIES: usize = 32;

/// A deck list: its text, or the path of its file (inside the client's roots).
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct DeckArg {
    /// The deck list as text, in any layout deckbox reads (PTCG Live export, PTCGO,
    /// Limitless, `4 Name SET NUM` lines, JSON). Give this or `deck_path`.
    pub deck: Option<String>,
    /// The path of a deck list file, inside the client's roots (or the server's working
    /// folder). Give this or `deck`.
    pub deck_path: Option<String>,
}

/// The format and date to judge in.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JudgeArg {
    /// A built-in format id: standard (default), expanded, unlimited, glc, gameboy, ...
    /// (`list_formats` lists them). A deck's own `# deckbox: format=...` line wins.
    pub format: Option<String>,
    /// Judge at this date (YYYY-MM-DD): that day's season, bans and legal sets. Default:
    /// the deck's own `as-of`, else today.
    pub as_of: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CheckDeck {
    #[serde(flatten)]
    pub deck: DeckArg,
    /// A built-in format id: standard (default), expanded, unlimited, glc, gameboy, ...
    /// (`list_formats` lists them); a deck's own `# deckbox: format=...` line wins. Or `all`:
    /// the deck judged in every listed format at its date, with the formats it is legal in
    /// and the first error in each other (`deckbox check --format all --output json`).
    pub format: Option<String>,
    /// Judge at this date (YYYY-MM-DD): that day's season, bans and legal sets. Default:
    /// the deck's own `as-of`, else today.
    pub as_of: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchCards {
    /// A query in deckbox's search language: words must all hold; keys `name:` `set:`
    /// `kind:` `stage:` `type:` `hp>=120` `text:"discard your hand"` `is:ace-spec`
    /// `legal:standard@2026-11-25` `evolves:` `into:` ...; `or`, `-`/`not`, parentheses.
    pub query: String,
    /// Names in this language: en (default), fr, es, pt, de, it.
    pub lang: Option<String>,
    /// name (default), released (newest first), hp (highest first) or set.
    pub sort: Option<String>,
    /// `cards` (default: one entry a card) or `printings` (one a printing).
    pub unique: Option<String>,
    /// Cards a page holds, 1 to 100 (default 20).
    pub limit: Option<usize>,
    /// The `next_cursor` a previous page gave, for the page after it.
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CardLookup {
    /// A card name in English, French, Spanish, Portuguese, German or Italian, a set code
    /// and number as lists print them (`TWM 128`), or a TCGdex id (`sv06-128`).
    pub query: String,
    /// Legality at this date (YYYY-MM-DD) instead of today.
    pub as_of: Option<String>,
    /// Card text in this language: en (default), fr, es, pt, de, it.
    pub lang: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OpeningOdds {
    #[serde(flatten)]
    pub deck: DeckArg,
    #[serde(flatten)]
    pub judge: JudgeArg,
    /// `first` (default) or `second`: whose turns the curves count.
    pub going: Option<String>,
    /// Own turns to count draws for, 1 to 30 (default 4).
    pub turns: Option<u32>,
    /// Combinations to compute (at most 32): `Dreepy>=1 & Rare Candy>=1 by T2`; terms
    /// `Name>=k`, `<=`, `==`, names joined by `|`, `&`, `|`, `!`, parentheses, `by T2`.
    #[serde(default)]
    pub want: Vec<String>,
    /// Searches counted as their target in `want` (at most 32): `Nest Ball=Basic Pokémon`.
    #[serde(default)]
    pub count_as: Vec<String>,
    /// Also every card's exact distribution (P of exactly k copies).
    #[serde(default)]
    pub exactly: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct MidgameOdds {
    #[serde(flatten)]
    pub deck: DeckArg,
    #[serde(flatten)]
    pub judge: JudgeArg,
    /// The known cards: hand, discard pile, in play, prizes taken (`2 Dreepy, 1 Ultra
    /// Ball, Iono`).
    #[serde(default)]
    pub seen: String,
    /// Cards drawn next, 0 to 60000.
    pub draws: u32,
    /// Face-down prizes among the unknown cards (default: the format's prize count).
    pub prizes: Option<u32>,
    /// Known cards shuffled back before the draws (`Iono`): cards of `seen`, or a number K
    /// for the first K cards of `seen`.
    pub shuffle_back: Option<String>,
    /// Combinations over the next draws (at most 32), as in `opening_odds`, without turns.
    #[serde(default)]
    pub want: Vec<String>,
    /// Searches counted as their target (at most 32), as in `opening_odds`.
    #[serde(default)]
    pub count_as: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct MissingCards {
    #[serde(flatten)]
    pub deck: DeckArg,
    #[serde(flatten)]
    pub judge: JudgeArg,
    /// The cards owned, as text: a list in any layout, or a CSV export (TCGplayer, Dragon
    /// Shield). Give this, `collection_path`, or both.
    pub collection: Option<String>,
    /// The path of a collection file, inside the client's roots.
    pub collection_path: Option<String>,
    /// Count only the same printing, not any the reprint rule allows.
    #[serde(default)]
    pub exact_printing: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ConvertList {
    #[serde(flatten)]
    pub deck: DeckArg,
    #[serde(flatten)]
    pub judge: JudgeArg,
    /// ptcgl (Pokémon TCG Live, default), ptcgo, limitless or json.
    pub to: Option<String>,
    /// Every name from the card database in this language (en, fr, es, pt, de, it);
    /// without it names stay as written.
    pub lang: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FormatList {
    #[serde(flatten)]
    pub deck: DeckArg,
    #[serde(flatten)]
    pub judge: JudgeArg,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExplainRule {
    /// A rule id as findings name it (`copy-limit`, `ace-spec-limit`); without one, every
    /// rule with its summary.
    pub rule: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListFormats {
    /// A built-in format id to show in full (its pool, bans, setup); without one, the list.
    pub format: Option<String>,
    /// With `format`: the format as it was on this date (YYYY-MM-DD).
    pub as_of: Option<String>,
}

/// Where paths may be read from, asked of the client only when a path is given.
pub trait RootsSource {
    fn roots(&mut self) -> Result<Roots, Failure>;
}

impl RootsSource for Roots {
    fn roots(&mut self) -> Result<Roots, Failure> {
        Ok(self.clone())
    }
}

/// What a tool answers: what its command prints on standard output, and the notes it
/// writes on standard error when it succeeds (lines it could not carry over, the
/// collection's findings, a deck that breaks a rule under `opening_odds`), as the command
/// writes them; empty when it writes none.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub notes: String,
}

impl Answer {
    fn new(text: String, notes: impl Into<String>) -> Answer {
        Answer {
            text,
            notes: notes.into(),
        }
    }
}

/// Why a tool could not answer, as the command line says it on standard error.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure(pub String);

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure(super::super::render(&error))
    }
}

impl From<deckbox::stats::RequestError> for Failure {
    fn from(error: deckbox::stats::RequestError) -> Failure {
        Error::from(error).into()
    }
}

fn usage(message: impl Into<String>) -> Failure {
    Error::Usage {
        message: message.into(),
    }
    .into()
}

/// A list given one way or the other, a path confined to the roots.
fn source(
    text: Option<&str>,
    path: Option<&str>,
    what: &str,
    roots: &mut dyn RootsSource,
) -> Result<ListSource, Failure> {
    match (text, path) {
        (Some(text), None) => Ok(ListSource::Text(text.to_string())),
        (None, Some(path)) => Ok(ListSource::Path(roots.roots()?.confine(Path::new(path))?)),
        _ => Err(usage(format!(
            "give one of `{what}` (the text) and `{what}_path`"
        ))),
    }
}

fn deck_source(deck: &DeckArg, roots: &mut dyn RootsSource) -> Result<ListSource, Failure> {
    source(
        deck.deck.as_deref(),
        deck.deck_path.as_deref(),
        "deck",
        roots,
    )
}

fn date(text: Option<&str>) -> Result<Option<jiff::civil::Date>, Failure> {
    text.map(|text| super::super::parse_date(text).map_err(usage))
        .transpose()
}

fn language(code: Option<&str>) -> Result<Option<Language>, Failure> {
    Ok(code.map(super::super::parse_language).transpose()?)
}

/// A built-in format id only: a format file's path would read a file out of the roots.
fn builtin_format(name: &str) -> Result<String, Failure> {
    match Format::builtin_ids().find(|id| id.eq_ignore_ascii_case(name)) {
        Some(id) => Ok(id.to_string()),
        None => Err(usage(format!(
            "unknown format '{name}'; expected one of {}",
            Format::builtin_ids().collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// The settings flags of a judged command, as `--format` and `--as-of` give them.
fn settings_args(judge: &JudgeArg) -> Result<super::super::SettingsArgs, Failure> {
    Ok(super::super::SettingsArgs {
        format: judge.format.as_deref().map(builtin_format).transpose()?,
        as_of: date(judge.as_of.as_deref())?,
        source: super::super::SourceArgs::default(),
    })
}

fn bounded_queries(want: &[String], count_as: &[String]) -> Result<(), Failure> {
    if want.len() > MAX_QUERIES || count_as.len() > MAX_QUERIES {
        return Err(usage(format!(
            "at most {MAX_QUERIES} `want` and {MAX_QUERIES} `count_as` expressions"
        )));
    }
    Ok(())
}

/// `deckbox check FILE --output json`, or `--format all --output json`; the notes are the
/// card database's and the coverage hint `check` writes.
pub fn check_deck(args: &CheckDeck, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let every = deckbox::settings::is_every_format(args.format.as_deref());
    let flags = super::super::SettingsArgs {
        format: match every {
            true => None,
            false => args.format.as_deref().map(builtin_format).transpose()?,
        },
        as_of: date(args.as_of.as_deref())?,
        source: super::super::SourceArgs::default(),
    }
    .flags()
    .every_format_if_all(args.format.as_deref());
    let settings = Settings::resolve(&flags)?;
    let operands = [operand];
    if every {
        let everywhere =
            deckbox::session::check::everywhere(&settings, &operands, &mut Cursor::new(text))?;
        if !everywhere.errors.is_empty() {
            return Err(usage(everywhere.errors.join("\n")));
        }
        let json = deckbox::render::everywhere::json(&everywhere.decks);
        return Ok(Answer::new(json, settings.notes.as_str()));
    }
    let request = deckbox::session::check::CheckRequest {
        operands: &operands,
        style: deckbox::render::stream::Style {
            output: OutputFormat::Json,
            human: deckbox::render::HumanOptions::default(),
        },
        have: &[],
        threads: 1,
    };
    let mut out = Vec::new();
    let report = deckbox::session::check::check_files(
        &settings,
        &request,
        &mut Cursor::new(text),
        &mut out,
    )?;
    if !report.failures.is_empty() {
        return Err(usage(report.failures.join("\n")));
    }
    let mut notes = settings.notes.clone();
    if let Some(hint) = &report.coverage {
        notes.push_str(&format!("note: {hint}\n"));
    }
    let printed = String::from_utf8(out).map_err(|error| usage(error.to_string()))?;
    Ok(Answer::new(printed, notes))
}

/// `deckbox search QUERY --output json`, a page of it; and the next page's cursor.
pub fn search_cards(args: &SearchCards) -> Result<(Answer, Option<String>), Failure> {
    use deckbox::search::Sort;
    let (db, notes) = deckbox::settings::open_source(&Flags::default())?;
    let lang = language(args.lang.as_deref())?.unwrap_or(Language::En);
    let sort = match args.sort.as_deref().unwrap_or("name") {
        "name" => Sort::Name,
        "released" => Sort::Released,
        "hp" => Sort::Hp,
        "set" => Sort::Set,
        other => {
            return Err(usage(format!(
                "unknown sort '{other}'; expected name, released, hp or set"
            )));
        }
    };
    let each_printing = match args.unique.as_deref().unwrap_or("cards") {
        "cards" => false,
        "printings" => true,
        other => {
            return Err(usage(format!(
                "unknown unique '{other}'; expected cards or printings"
            )));
        }
    };
    let query = &args.query;
    let answer =
        deckbox::search::answer(&db, query, lang, each_printing, sort).map_err(|error| {
            Error::Search {
                query: query.clone(),
                error,
            }
            .noted(&notes)
        })?;
    let (found, next) = assist::page(&answer.found, args.cursor.as_deref(), args.limit)?;
    let page = deckbox::render::search::json(&db, query, found, lang);
    Ok((Answer::new(page, notes), next))
}

/// `deckbox card QUERY --output json`.
pub fn card(args: &CardLookup) -> Result<Answer, Failure> {
    let (db, notes) = deckbox::settings::open_source(&Flags::default())?;
    let language = language(args.lang.as_deref())?.unwrap_or(Language::En);
    let as_of = date(args.as_of.as_deref())?;
    let page = deckbox::session::card::card(&db, &args.query, as_of, language)?;
    if page.report.cards.is_empty() {
        let said = deckbox::render::card::unknown(&page.report, page.coverage.as_deref());
        return Err(Failure(said));
    }
    Ok(Answer::new(
        deckbox::render::card::json(&page.report),
        notes,
    ))
}

/// `deckbox stats FILE --output json` with `--want`, `--count-as`, `--exactly`.
pub fn opening_odds(args: &OpeningOdds, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    bounded_queries(&args.want, &args.count_as)?;
    let going = match args.going.as_deref().unwrap_or("first") {
        "first" => Going::First,
        "second" => Going::Second,
        other => {
            return Err(usage(format!(
                "unknown going '{other}'; expected first or second"
            )));
        }
    };
    let turns = args.turns.unwrap_or(4);
    if turns == 0 || turns > deckbox::engine::MAX_TURNS {
        let max = deckbox::engine::MAX_TURNS;
        return Err(usage(format!("turns must be from 1 to {max}, not {turns}")));
    }
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let settings_args = settings_args(&args.judge)?;
    let (settings, checked) =
        super::super::read_for_stats(&operand, &settings_args, &mut Cursor::new(text))?;
    let deck = StatsDeck::from_checked(&checked, &settings.db)?;
    let request = deckbox::stats::StatsRequest {
        setup: &settings.format.setup,
        turns,
        going,
        want: &args.want,
        count_as: &args.count_as,
        exactly: args.exactly,
        simulate: None,
    };
    let report = deck.report(&request, &deckbox::util::progress::Quiet)?;
    let notes = super::super::stats_note(&settings, &checked, &deck);
    Ok(Answer::new(super::super::output::json(&report)?, notes))
}

/// `deckbox odds FILE --output json`.
pub fn midgame_odds(args: &MidgameOdds, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    use deckbox::stats::midgame::{self, MidGameRequest};
    bounded_queries(&args.want, &args.count_as)?;
    const MAX_DRAWS: u32 = 60_000;
    if args.draws > MAX_DRAWS || args.prizes.is_some_and(|prizes| prizes > MAX_DRAWS) {
        return Err(usage(format!(
            "draws and prizes must be at most {MAX_DRAWS}"
        )));
    }
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let settings_args = settings_args(&args.judge)?;
    let (settings, checked) =
        super::super::read_for_stats(&operand, &settings_args, &mut Cursor::new(text))?;
    let deck = StatsDeck::from_checked(&checked, &settings.db)?;
    let request = MidGameRequest::new(
        &settings.format.setup,
        &args.seen,
        args.shuffle_back.as_deref(),
        args.prizes,
        args.draws,
        &args.want,
        &args.count_as,
    );
    let odds = super::super::output::json(&midgame::odds(&deck, &request)?)?;
    Ok(Answer::new(
        odds,
        super::super::stats_note(&settings, &checked, &deck),
    ))
}

/// `deckbox need FILE --have COLLECTION --output json`.
pub fn missing_cards(args: &MissingCards, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    use deckbox::session::need::{Answer as Needed, NeedRequest};
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let have: Vec<PathBuf> = match args.collection_path.as_deref() {
        Some(path) => vec![roots.roots()?.confine(Path::new(path))?],
        None => Vec::new(),
    };
    if have.is_empty() && args.collection.is_none() {
        return Err(usage("give `collection` or `collection_path`"));
    }
    let settings = Settings::resolve(&settings_args(&args.judge)?.flags())?;
    let decks = [operand];
    let request = NeedRequest {
        decks: &decks,
        have: &have,
        have_text: args.collection.as_deref(),
        exact: args.exact_printing,
        prices: None,
        each_deck: false,
    };
    let needed = deckbox::session::need::need(&settings, &request, &mut Cursor::new(text))?;
    let checked = needed.checked();
    match &needed.answer {
        Needed::Together(result) => {
            let each = (needed.each_deck.as_ref())
                .map(|(ready, shared)| (ready.as_slice(), shared.as_slice()));
            let json = deckbox::render::need::json(
                result,
                &checked,
                &needed.collection,
                &settings.db,
                each,
            );
            let json = json.map_err(|reason| Error::Json { reason })?;
            // The collection's findings, one short line each, as `need` writes them.
            let findings: String = (needed.collection.files.iter())
                .map(|file| deckbox::render::short(&file.checked))
                .collect();
            Ok(Answer::new(json, format!("{}{findings}", settings.notes)))
        }
        Needed::EachDeck(..) => Err(usage("a deck file, not a folder")),
    }
}

/// `deckbox convert FILE --to LAYOUT [--lang L]`, with its warnings as notes.
pub fn convert_list(args: &ConvertList, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    let to = args.to.as_deref().unwrap_or("ptcgl");
    let layout = Layout::from_name(to).ok_or_else(|| {
        usage(format!(
            "unknown layout '{to}'; expected ptcgl, ptcgo, limitless or json"
        ))
    })?;
    let lang = language(args.lang.as_deref())?;
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let settings = Settings::resolve_for(&settings_args(&args.judge)?.flags(), &operand)?;
    let (_, _, deck) =
        deckbox::session::read_and_check(&operand, &settings, &mut Cursor::new(text), &mut false)?;
    let exported =
        deckbox::edit::listing::export(&deck, &settings.db, lang, layout).map_err(|refusal| {
            Error::Refused {
                name: deckbox::util::escape::path_line(&operand),
                reason: refusal.to_string(),
            }
        })?;
    let mut notes = settings.notes.clone();
    notes.push_str(&super::super::output::untranslated_warning(
        &exported.untranslated,
        lang,
    ));
    if let Some(doubts) = &exported.doubts {
        notes.push_str(&super::super::output::ptcg_live_warning(
            doubts,
            lang.is_some(),
        ));
    }
    Ok(Answer::new(exported.text, notes))
}

/// `deckbox fmt FILE`.
pub fn format_list(args: &FormatList, roots: &mut dyn RootsSource) -> Result<Answer, Failure> {
    let (operand, text) = deck_source(&args.deck, roots)?.operand();
    let settings = Settings::resolve_for(&settings_args(&args.judge)?.flags(), &operand)?;
    let ready = deckbox::deck::input::read_deck(&operand, &mut Cursor::new(text), &mut false)
        .map_err(Error::from);
    let result = deckbox::session::fmt::fmt_one(
        &operand,
        Some(ready),
        &settings,
        &settings.format,
        FmtMode::Print,
    );
    match result {
        Ok(Fmt::Formatted(formatted)) => Ok(Answer::new(
            deckbox::session::fmt::printable(&formatted.formatted),
            settings.notes.as_str(),
        )),
        Ok(Fmt::Canonical | Fmt::Written) => {
            Ok(Answer::new(String::new(), settings.notes.as_str()))
        }
        Err(Failed::Error(error)) => Err(error.into()),
        Err(Failed::Unwritten(error)) => Err(usage(error.to_string())),
    }
}

/// `deckbox explain [RULE]`.
pub fn explain_rule(args: &ExplainRule) -> Result<Answer, Failure> {
    Ok(Answer::new(assist::explain(args.rule.as_deref())?, ""))
}

/// `deckbox formats` or `deckbox formats show FORMAT [--as-of DATE]`.
pub fn list_formats(args: &ListFormats) -> Result<Answer, Failure> {
    let format = args.format.as_deref().map(builtin_format).transpose()?;
    let as_of = date(args.as_of.as_deref())?;
    let page = assist::formats(format.as_deref().map(|format| (format, as_of)))?;
    Ok(Answer::new(page, ""))
}
