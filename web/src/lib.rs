//! deckbox in a browser: the library's `check`, `stats`, `search` and `card`, JSON in and
//! JSON out, each giving the document the CLI's `--output json` prints for the same list and
//! options; and the deck builder's model ([`DeckBuilder`]) to add and remove cards and change
//! printings. Every answer comes from the library (`session`, `render`, `stats`, `search`,
//! `builder`): this crate only reads the options and calls. docs/web.md describes the page.
//!
//! The card database is opened once and kept (a page makes many calls). The date is always
//! given by the caller (a browser has no clock the library reads without jiff's `js`
//! feature, which this crate turns on for the browser anyway).

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use deckbox::builder::{Builder, Focus, Message};
use deckbox::cards::storage::embedded;
use deckbox::error::Error;
use deckbox::formats::{Format, Going};
use deckbox::names::lang::Language;
use deckbox::search::Sort;
use deckbox::settings::{Flags, Settings};
use deckbox::stats::{StatsDeck, StatsRequest};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// The options of `check` and `stats`: the flags of the CLI that a page offers.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeckOptions {
    /// `--format`: a built-in id, or `all` (check only); the default format without one.
    pub format: Option<String>,
    /// `--as-of` (`YYYY-MM-DD`).
    pub date: Option<String>,
    /// stats `--going` (`first` or `second`).
    pub going: Option<String>,
    /// stats `--turns`.
    pub turns: Option<u32>,
    /// stats `--want`.
    pub want: Vec<String>,
    /// stats `--count-as`.
    #[serde(rename = "countAs")]
    pub count_as: Vec<String>,
    /// stats `--exactly`.
    pub exactly: bool,
}

/// The options of `search` and `card`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LookupOptions {
    /// `--lang` (en, fr, es, pt, de, it).
    pub lang: Option<String>,
    /// search `--unique printings`.
    pub printings: bool,
    /// search `--sort` (name, released, hp, set).
    pub sort: Option<String>,
    /// card `--as-of` (`YYYY-MM-DD`).
    pub date: Option<String>,
}

/// The largest `--turns` the CLI takes.
const MAX_TURNS: u32 = deckbox::engine::MAX_TURNS;

thread_local! {
    /// The settings of the last call, with the card database opened once.
    static SETTINGS: RefCell<Option<Settings>> = const { RefCell::new(None) };
    /// The card texts (`cards/details.bin`), once [`add_texts`] was given them: this crate
    /// builds the library without its `card-texts` feature, so that the page's first load
    /// does not carry them (docs/performance.md).
    static TEXTS: std::cell::Cell<Option<&'static [u8]>> = const { std::cell::Cell::new(None) };
}

/// Gives the library the card texts (the bytes of `cards/details.bin`, which `cargo xtask
/// web` writes beside the `.wasm`): `search` and `card` need them. Given again, they are
/// kept as they were.
pub fn add_texts(bytes: Vec<u8>) -> Result<(), String> {
    if TEXTS.get().is_some() {
        return Ok(());
    }
    // Kept for the page's life: every database opened from now on reads them.
    let texts: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    SETTINGS.with(|cell| {
        // The library refuses texts that are not its index's.
        match cell.borrow_mut().as_mut() {
            Some(settings) => embedded::add_texts(&mut settings.db, texts),
            None => embedded::add_texts(&mut embedded::open().map_err(message)?, texts),
        }
        .map_err(message)?;
        TEXTS.set(Some(texts));
        Ok(())
    })
}

/// Whether [`add_texts`] was given the card texts (always, when the library embeds them).
pub fn has_texts() -> bool {
    cfg!(feature = "card-texts") || TEXTS.get().is_some()
}

/// The error of a call that needs the card texts before [`add_texts`] gave them.
fn needs_texts() -> Result<(), String> {
    if has_texts() {
        return Ok(());
    }
    Err("the card texts are not loaded yet (loadTexts)".into())
}

/// `db` (the embedded index) with the card texts, when they were given.
fn with_texts(db: &mut deckbox::cards::database::CardDb) -> Result<(), String> {
    match TEXTS.get() {
        Some(texts) => embedded::add_texts(db, texts).map_err(message),
        None => Ok(()),
    }
}

/// Runs `job` with settings for `flags` (as the CLI's `--no-config --format F --as-of D`),
/// opening the card database on the first call only.
fn with_settings<T>(
    flags: &Flags,
    job: impl FnOnce(&Settings) -> Result<T, String>,
) -> Result<T, String> {
    SETTINGS.with(|cell| {
        let mut slot = cell.borrow_mut();
        match slot.as_mut() {
            Some(settings) => settings.reconfigure(flags).map_err(message)?,
            None => {
                let mut settings = Settings::resolve(flags).map_err(message)?;
                with_texts(&mut settings.db)?;
                *slot = Some(settings);
            }
        }
        match slot.as_ref() {
            Some(settings) => job(settings),
            None => Err("the settings could not be kept".into()),
        }
    })
}

fn message(error: impl std::fmt::Display) -> String {
    error.to_string()
}

fn options<T: for<'de> Deserialize<'de> + Default>(json: &str) -> Result<T, String> {
    if json.trim().is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(json).map_err(|error| format!("the options cannot be read: {error}"))
}

fn date(text: Option<&str>) -> Result<Option<jiff::civil::Date>, String> {
    text.map(|text| {
        deckbox::util::date::parse(text)
            .ok_or_else(|| format!("`{text}` is not a date (YYYY-MM-DD)"))
    })
    .transpose()
}

fn language(code: Option<&str>) -> Result<Option<Language>, String> {
    code.map(|code| Language::from_code(code).ok_or_else(|| format!("unknown language `{code}`")))
        .transpose()
}

fn flags(options: &DeckOptions) -> Result<Flags, String> {
    Ok(Flags {
        format: options.format.clone(),
        as_of: date(options.date.as_deref())?,
        no_config: true,
        ..Flags::default()
    })
}

/// The standard input the library reads a pasted list from, as `deckbox check -` does.
const STDIN: &str = "-";

/// `deckbox check - --output json` (`--format all`: its JSON array) for `text`.
pub fn check_json(text: &str, options_json: &str) -> Result<String, String> {
    let options: DeckOptions = options(options_json)?;
    let flags = flags(&options)?.every_format_if_all(options.format.as_deref());
    with_settings(&flags, |settings| {
        let mut stdin = text.as_bytes();
        if flags.every_format {
            let operands = [PathBuf::from(STDIN)];
            let judged = deckbox::session::check::everywhere(settings, &operands, &mut stdin)
                .map_err(message)?;
            if let Some(error) = judged.errors.first() {
                return Err(error.clone());
            }
            return Ok(deckbox::render::everywhere::json(&judged.decks));
        }
        let (_, _, deck) =
            deckbox::session::read_and_check(Path::new(STDIN), settings, &mut stdin, &mut false)
                .map_err(message)?;
        Ok(deckbox::render::json(&[deck], &settings.db))
    })
}

/// `deckbox stats - --output json` (exact odds; no `--simulate`) for `text`.
pub fn stats_json(text: &str, options_json: &str) -> Result<String, String> {
    stats_report(text, options_json, |report| {
        deckbox::render::json_document(report).map_err(message)
    })
}

/// The charts of `deckbox stats - -o report.html` (the mulligans and the cards seen by own
/// turn, as HTML sections with SVG) for `text`.
pub fn stats_charts(text: &str, options_json: &str) -> Result<String, String> {
    stats_report(text, options_json, |report| {
        Ok(deckbox::render::stats_html::charts(report))
    })
}

/// The exact odds of `text` with the options, handed to `render`.
fn stats_report(
    text: &str,
    options_json: &str,
    render: impl FnOnce(&deckbox::stats::Report) -> Result<String, String>,
) -> Result<String, String> {
    let options: DeckOptions = options(options_json)?;
    let going = match options.going.as_deref() {
        None | Some("first") => Going::First,
        Some("second") => Going::Second,
        Some(other) => return Err(format!("going `{other}`: first or second")),
    };
    let turns = options.turns.unwrap_or(4);
    if !(1..=MAX_TURNS).contains(&turns) {
        return Err(format!("turns: 1 to {MAX_TURNS}"));
    }
    with_settings(&flags(&options)?, |settings| {
        let mut stdin = text.as_bytes();
        let (_, _, checked) =
            deckbox::session::read_and_check(Path::new(STDIN), settings, &mut stdin, &mut false)
                .map_err(message)?;
        let deck = StatsDeck::from_checked(&checked, &settings.db).map_err(message)?;
        let request = StatsRequest {
            setup: &settings.format.setup,
            turns,
            going,
            want: &options.want,
            count_as: &options.count_as,
            exactly: options.exactly,
            simulate: None,
        };
        let report = deck
            .report(&request, &deckbox::util::progress::Quiet)
            .map_err(message)?;
        render(&report)
    })
}

/// `deckbox search QUERY --output json`.
pub fn search_json(query: &str, options_json: &str) -> Result<String, String> {
    needs_texts()?;
    let options: LookupOptions = options(options_json)?;
    let lang = language(options.lang.as_deref())?.unwrap_or(Language::En);
    let sort = match options.sort.as_deref() {
        None | Some("name") => Sort::Name,
        Some("released") => Sort::Released,
        Some("hp") => Sort::Hp,
        Some("set") => Sort::Set,
        Some(other) => return Err(format!("sort `{other}`: name, released, hp or set")),
    };
    let flags = Flags {
        no_config: true,
        ..Flags::default()
    };
    with_settings(&flags, |settings| {
        let db = &settings.db;
        let answer =
            deckbox::search::answer(db, query, lang, options.printings, sort).map_err(|error| {
                message(Error::Search {
                    query: query.to_string(),
                    error,
                })
            })?;
        Ok(deckbox::render::search::json(
            db,
            query,
            &answer.found,
            lang,
        ))
    })
}

/// `deckbox card QUERY --output json`; an unknown card is an error saying the nearest names.
pub fn card_json(query: &str, options_json: &str) -> Result<String, String> {
    needs_texts()?;
    let options: LookupOptions = options(options_json)?;
    let lang = language(options.lang.as_deref())?.unwrap_or(Language::En);
    let as_of = date(options.date.as_deref())?;
    let flags = Flags {
        no_config: true,
        ..Flags::default()
    };
    with_settings(&flags, |settings| {
        let page =
            deckbox::session::card::card(&settings.db, query, as_of, lang).map_err(message)?;
        if page.report.cards.is_empty() {
            return Err(deckbox::render::card::unknown(
                &page.report,
                page.coverage.as_deref(),
            ));
        }
        Ok(deckbox::render::card::json(&page.report))
    })
}

/// `deckbox convert - --to ptcgl` for `text`: the list as PTCG Live imports it.
pub fn ptcgl_text(text: &str, options_json: &str) -> Result<String, String> {
    let options: DeckOptions = options(options_json)?;
    with_settings(&flags(&options)?, |settings| {
        let mut stdin = text.as_bytes();
        let (_, _, deck) =
            deckbox::session::read_and_check(Path::new(STDIN), settings, &mut stdin, &mut false)
                .map_err(message)?;
        deckbox::edit::listing::export(&deck, &settings.db, None, deckbox::deck::Layout::Ptcgl)
            .map(|exported| exported.text)
            .map_err(message)
    })
}

/// The ids `--format` takes in a page's chooser (`deckbox formats`), as a JSON array.
pub fn formats_json() -> String {
    serde_json::to_string(&Format::listed_ids().collect::<Vec<_>>()).unwrap_or_default()
}

fn js(result: Result<String, String>) -> Result<String, JsError> {
    result.map_err(|error| JsError::new(&error))
}

/// The text of a deck file's bytes, decoded as `deckbox check` decodes a file (UTF-8;
/// UTF-16 by its byte order mark or its zero bytes; else Windows-1252), without a leading
/// byte order mark: what the page shows of a dropped file. A browser's own `file.text()`
/// reads every file as UTF-8, turning a UTF-16 or Windows-1252 list into replacement
/// characters.
pub fn decoded_text(bytes: &[u8]) -> String {
    let text = deckbox::deck::decode(bytes).text;
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// [`decoded_text`]: the text of a dropped file's bytes.
#[wasm_bindgen(js_name = decodeList)]
pub fn decode_list(bytes: &[u8]) -> String {
    decoded_text(bytes)
}

/// `deckbox check - --output json`: the options are JSON (`{"format": "standard", "date":
/// "2026-11-28"}`).
#[wasm_bindgen]
pub fn check(text: &str, options: &str) -> Result<String, JsError> {
    js(check_json(text, options))
}

/// `deckbox stats - --output json`: options `format`, `date`, `going`, `turns`, `want`,
/// `countAs`, `exactly`.
#[wasm_bindgen]
pub fn stats(text: &str, options: &str) -> Result<String, JsError> {
    js(stats_json(text, options))
}

/// The charts of `deckbox stats - -o report.html` as HTML (SVG inside): the same options
/// as `stats`.
#[wasm_bindgen(js_name = statsCharts)]
pub fn stats_charts_html(text: &str, options: &str) -> Result<String, JsError> {
    js(stats_charts(text, options))
}

/// `deckbox search QUERY --output json`: options `lang`, `printings`, `sort`.
#[wasm_bindgen]
pub fn search(query: &str, options: &str) -> Result<String, JsError> {
    js(search_json(query, options))
}

/// `deckbox card QUERY --output json`: options `lang`, `date`.
#[wasm_bindgen]
pub fn card(query: &str, options: &str) -> Result<String, JsError> {
    js(card_json(query, options))
}

/// The list as PTCG Live's import reads it (`deckbox convert --to ptcgl`).
#[wasm_bindgen]
pub fn ptcgl(text: &str, options: &str) -> Result<String, JsError> {
    js(ptcgl_text(text, options))
}

/// `deckbox explain RULE`: what the rule checks, why, an example and the fix.
pub fn explain_text(rule: &str) -> Result<String, String> {
    deckbox::check::rules::Rule::from_id(rule)
        .map(deckbox::render::explain::rule_page)
        .ok_or_else(|| format!("no rule `{rule}`"))
}

/// `deckbox explain RULE`.
#[wasm_bindgen]
pub fn explain(rule: &str) -> Result<String, JsError> {
    js(explain_text(rule))
}

/// Gives the library the card texts (`cards/details.bin`'s bytes), which `search` and
/// `card` need; the page fetches them once, when a search first needs them.
#[wasm_bindgen(js_name = loadTexts)]
pub fn load_texts(bytes: Vec<u8>) -> Result<(), JsError> {
    add_texts(bytes).map_err(|error| JsError::new(&error))
}

/// Whether the card texts are loaded (`loadTexts`).
#[wasm_bindgen(js_name = hasTexts)]
pub fn texts_loaded() -> bool {
    has_texts()
}

/// The format ids a page offers, as a JSON array.
#[wasm_bindgen]
pub fn formats() -> String {
    formats_json()
}

/// The deck builder's model (`deckbox build`'s, without a terminal): a list edited by
/// adding a search result, removing a line or changing its printing.
#[wasm_bindgen]
pub struct DeckBuilder {
    builder: Builder,
}

#[wasm_bindgen]
impl DeckBuilder {
    /// A builder on `text`, judged in the options' format at their date.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, options: &str) -> Result<DeckBuilder, JsError> {
        js_builder(text, options)
    }

    /// Searches as the builder's search box does; the results as JSON
    /// (`[{"name", "set", "number"}]`), newest printings first. Refused before `loadTexts`:
    /// a search for a text would find nothing.
    pub fn search(&mut self, query: &str) -> Result<String, JsError> {
        needs_texts().map_err(|error| JsError::new(&error))?;
        self.builder.update(Message::ClearQuery);
        self.builder.update(Message::Paste(query.to_string()));
        self.builder.update(Message::Focus(Focus::Results));
        let db = self.builder.db();
        let results: Vec<serde_json::Value> = (self.builder.results().iter())
            .filter_map(|&id| db.get(id))
            .map(|printing| {
                serde_json::json!({
                    "name": printing.names.primary(),
                    "set": printing.set_code,
                    "number": printing.number,
                })
            })
            .collect();
        Ok(serde_json::to_string(&results).unwrap_or_default())
    }

    /// One copy of the `row`-th search result added.
    pub fn add(&mut self, row: usize) {
        self.on(Focus::Results, row, Message::Add);
    }

    /// One copy of the `row`-th deck line (the builder's rows) removed.
    pub fn remove(&mut self, row: usize) {
        self.on(Focus::Deck, row, Message::Remove);
    }

    /// The `row`-th deck line in the next printing the format allows.
    #[wasm_bindgen(js_name = cyclePrinting)]
    pub fn cycle_printing(&mut self, row: usize) {
        self.on(Focus::Deck, row, Message::CyclePrinting);
    }

    /// The last change taken back.
    pub fn undo(&mut self) {
        self.builder.update(Message::Undo);
    }

    /// The list's text now.
    pub fn text(&self) -> String {
        self.builder.text().to_string()
    }

    /// The deck lines as the builder lists them: `[{"count", "name", "set", "number"}]`.
    pub fn rows(&self) -> String {
        let deck = self.builder.deck();
        let rows: Vec<serde_json::Value> = (self.builder.rows().iter())
            .filter_map(|row| deck.cards.get(row.card))
            .map(|card| {
                serde_json::json!({
                    "count": card.line.count,
                    "name": card.line.name,
                    "set": card.line.set,
                    "number": card.line.number,
                })
            })
            .collect();
        serde_json::to_string(&rows).unwrap_or_default()
    }

    /// The builder's one-line message (an edit refused), or an empty string.
    pub fn message(&self) -> String {
        self.builder.message().unwrap_or_default().to_string()
    }
}

impl DeckBuilder {
    fn on(&mut self, list: Focus, row: usize, message: Message) {
        self.builder.update(Message::Select {
            list,
            row: Some(row),
        });
        self.builder.update(message);
    }
}

/// A builder for `text`: its own card database (the builder shares it with its searches).
pub fn builder(text: &str, options_json: &str) -> Result<DeckBuilder, String> {
    let options: DeckOptions = options(options_json)?;
    let flags = flags(&options)?;
    let format = with_settings(&flags, |settings| Ok(settings.format.clone()))?;
    let mut db = embedded::open().map_err(message)?;
    with_texts(&mut db)?;
    let builder = Builder::new(
        db,
        format,
        PathBuf::from("deck.txt"),
        text.to_string(),
        false,
    );
    Ok(DeckBuilder { builder })
}

fn js_builder(text: &str, options: &str) -> Result<DeckBuilder, JsError> {
    builder(text, options).map_err(|error| JsError::new(&error))
}

#[cfg(test)]
mod tests {
    use super::decoded_text;

    /// A dropped file reads as `deckbox check` reads it, whatever its encoding.
    #[test]
    fn a_dropped_file_is_decoded_as_check_decodes_it() {
        let list = "Pokémon: 1\n4 Évoli SVI 173\n";
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(list.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let latin: Vec<u8> = list.chars().map(|c| c as u8).collect();
        let bom = [&b"\xef\xbb\xbf"[..], list.as_bytes()].concat();
        for bytes in [list.as_bytes(), &utf16, &latin, &bom] {
            assert_eq!(decoded_text(bytes), list, "{bytes:?}");
        }
    }
}
