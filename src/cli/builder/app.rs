//! The builder's state: plain data changed by key events, drawn by `ui.rs`. Nothing here
//! touches a terminal or a file (saving is `mod.rs`'s), so a test drives it key by key.
//!
//! Everything computed is a library call the other commands make: `search::search` (and
//! `cards::lookup`, as `deckbox card` reads `Dreepy TWM 128`) for the results,
//! `edit::in_place` for each change (as `deckbox add`/`remove`), `check::check` for the
//! verdict, `stats::Report` and `stats::exact::kind_odds` for the odds (as `deckbox stats`),
//! `formats::legality::judge` for each result's legality and `collection::need` for what a
//! collection still lacks (as `deckbox need`).

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use deckbox::cards::{CardDb, Category, Printing, PrintingId, lookup};
use deckbox::check::CheckedDeck;
use deckbox::collection::{Collection, need};
use deckbox::deck::DeckInput;
use deckbox::edit::in_place::{self, Spec};
use deckbox::formats::legality::{self, Verdict};
use deckbox::formats::{Format, Going};
use deckbox::names::lang::Language;
use deckbox::search::{self, Sort};
use deckbox::stats::kinds::{DeckKind, check_size, deck_kinds};
use deckbox::stats::{DeckShape, Report, ReportInput, exact};

/// Changes `u` can take back; older ones are forgotten (each is a copy of the list's text).
pub const MAX_UNDO: usize = 1_000;

/// Most printings a search shows: a query as wide as `kind:pokemon` matches about 15,000,
/// and a list is read from the top.
pub const MAX_RESULTS: usize = 2_000;

/// Longest search query kept: far longer than any query a person types.
pub const MAX_QUERY: usize = 500;

/// The turn whose odds the verdict shows beside the opening hand.
pub const ODDS_TURN: u32 = 2;

/// Which panel keys go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Search,
    Results,
    Deck,
}

/// A window over the panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    /// `q` with unsaved changes: `y` quits, `n` stays.
    ConfirmQuit,
}

/// P(in the opening hand) and P(seen by turn [`ODDS_TURN`]) of one card, or why not.
pub type CardOdds = Result<(f64, f64), String>;

/// What the terminal loop must do after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    None,
    Save,
    Quit,
}

/// The deck's verdict: what `check` found and the odds `stats` gives.
#[derive(Debug, Clone, Default)]
pub struct Odds {
    /// The deck's kinds as `stats` merges them, or why there are none (an unknown line).
    pub kinds: Vec<DeckKind>,
    pub shape: DeckShape,
    /// P(mulligan), or why it cannot be computed (no Basic, too few cards).
    pub mulligan: Option<Result<f64, String>>,
}

/// One line of the deck panel: a card line of the list, under its category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckRow {
    /// `None`: a line deckbox could not identify.
    pub category: Option<Category>,
    /// Index in [`CheckedDeck::cards`].
    pub card: usize,
}

/// The builder.
pub struct App {
    /// Shared with the thread that runs searches (`mod.rs`).
    pub db: std::sync::Arc<CardDb>,
    pub format: Format,
    /// The file edited, as shown.
    pub name: String,
    pub path: PathBuf,
    /// The list's text now, and when it was opened or last saved.
    pub text: String,
    pub saved: String,
    /// Whether the file existed when the list was read or saved.
    pub exists: bool,
    pub undo: Vec<String>,
    pub deck: CheckedDeck,
    pub rows: Vec<DeckRow>,
    pub odds: Odds,
    pub query: String,
    /// The query changed since the results were computed.
    pub query_dirty: bool,
    pub results: Vec<PrintingId>,
    /// How many printings matched before [`MAX_RESULTS`] cut the list.
    pub matched: usize,
    pub search_error: Option<String>,
    pub result_at: usize,
    pub deck_at: usize,
    /// The first line each list showed when last drawn: `ui.rs` keeps the highlight in
    /// view with as little scrolling as it can, and a click means the line drawn under it.
    pub results_top: std::cell::Cell<usize>,
    pub deck_top: std::cell::Cell<usize>,
    pub focus: Focus,
    pub overlay: Option<Overlay>,
    /// A one-line message for the status line (saved, an edit refused).
    pub message: Option<String>,
    /// The collection of `--have`, and what the deck still lacks from it.
    pub have: Option<Collection>,
    pub lacking: Option<need::Need>,
    pub language: Language,
}

impl App {
    /// A builder on `text` (the file's, or empty for a new file), judged in `format`.
    pub fn new(db: CardDb, format: Format, path: PathBuf, text: String, exists: bool) -> App {
        let name = deckbox::util::escape::path_line(&path);
        let deck = check(&db, &format, &name, &text);
        let db = std::sync::Arc::new(db);
        let mut app = App {
            db,
            format,
            name,
            path,
            saved: text.clone(),
            text,
            exists,
            undo: Vec::new(),
            deck,
            rows: Vec::new(),
            odds: Odds::default(),
            query: String::new(),
            query_dirty: false,
            results: Vec::new(),
            matched: 0,
            search_error: None,
            result_at: 0,
            deck_at: 0,
            results_top: std::cell::Cell::new(0),
            deck_top: std::cell::Cell::new(0),
            focus: Focus::Search,
            overlay: None,
            message: None,
            have: None,
            lacking: None,
            language: Language::En,
        };
        app.language = app.deck.language.unwrap_or(Language::En);
        app.rejudge();
        app
    }

    /// Adds a collection (`--have`): results show what is owned, the verdict what is
    /// missing.
    pub fn with_collection(mut self, collection: Collection) -> App {
        self.have = Some(collection);
        self.rejudge();
        self
    }

    pub fn dirty(&self) -> bool {
        self.text != self.saved
    }

    /// After a save: the file holds `text`.
    pub fn saved_as(&mut self, text: String) {
        if text != self.text {
            self.text = text.clone();
            self.rejudge();
        }
        self.saved = text;
        self.exists = true;
    }

    /// Checks the list again, and recomputes its rows, odds and needs.
    fn rejudge(&mut self) {
        self.deck = check(&self.db, &self.format, &self.name, &self.text);
        self.rows = rows(&self.deck, &self.db);
        self.deck_at = self.deck_at.min(self.rows.len().saturating_sub(1));
        self.odds = odds(&self.deck, &self.db, &self.format);
        self.lacking = self
            .have
            .as_ref()
            .map(|have| need::need(&[(&self.deck, &self.format)], have, &self.db, false, None));
    }

    /// Runs the search when the query changed, here and now (the terminal runs it on
    /// another thread: [`answer`], then [`App::take_answer`]).
    pub fn refresh_search(&mut self) {
        if self.query_dirty {
            let answer = answer(&self.db, &self.query, self.language);
            self.take_answer(answer);
        }
    }

    /// Shows a search's answer when it answers the query now in the box; an answer to a
    /// query typed over since is dropped.
    pub fn take_answer(&mut self, answer: Answer) {
        if answer.query != self.query {
            return;
        }
        self.query_dirty = false;
        self.result_at = 0;
        self.results = answer.results;
        self.matched = answer.matched;
        self.search_error = answer.error;
    }

    /// Handles one key; what the terminal must do next.
    pub fn key(&mut self, key: KeyEvent) -> Action {
        if key.kind == KeyEventKind::Release {
            return Action::None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match (self.overlay, key.code) {
            (_, KeyCode::Char('s')) if ctrl => return Action::Save,
            (Some(Overlay::ConfirmQuit), KeyCode::Char('y' | 'Y')) => return Action::Quit,
            (Some(Overlay::ConfirmQuit), KeyCode::Char('c')) if ctrl => return Action::Quit,
            (Some(_), _) => {
                self.overlay = None;
                return Action::None;
            }
            (None, KeyCode::Char('c')) if ctrl => return self.quit(),
            _ => {}
        }
        self.message = None;
        match self.focus {
            Focus::Search => self.search_key(key),
            Focus::Results | Focus::Deck => self.list_key(key),
        }
    }

    fn quit(&mut self) -> Action {
        if self.dirty() {
            self.overlay = Some(Overlay::ConfirmQuit);
            Action::None
        } else {
            Action::Quit
        }
    }

    fn search_key(&mut self, key: KeyEvent) -> Action {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            // Ctrl-U clears the line, as in a shell.
            KeyCode::Char('u') if ctrl => {
                self.query_dirty |= !self.query.is_empty();
                self.query.clear();
            }
            KeyCode::Char(c)
                if !key.modifiers.contains(KeyModifiers::CONTROL)
                    && self.query.len() < MAX_QUERY =>
            {
                self.query.push(c);
                self.query_dirty = true;
            }
            KeyCode::Backspace => {
                self.query_dirty |= self.query.pop().is_some();
            }
            KeyCode::Enter | KeyCode::Down | KeyCode::Tab | KeyCode::Esc => {
                // Keys typed ahead (`Enter` then `+`) act on the results of the query.
                self.refresh_search();
                self.focus = Focus::Results;
            }
            _ => {}
        }
        Action::None
    }

    fn list_key(&mut self, key: KeyEvent) -> Action {
        self.refresh_search();
        match key.code {
            KeyCode::Char('/') => self.focus = Focus::Search,
            KeyCode::Char('q') => return self.quit(),
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Tab | KeyCode::BackTab => {
                self.focus = match self.focus {
                    Focus::Deck => Focus::Results,
                    _ => Focus::Deck,
                }
            }
            KeyCode::Up | KeyCode::Char('k') => self.step(-1),
            KeyCode::Down | KeyCode::Char('j') => self.step(1),
            KeyCode::PageUp => self.step(-10),
            KeyCode::PageDown => self.step(10),
            KeyCode::Char('+' | '=') | KeyCode::Enter => self.plus(),
            KeyCode::Char('-') => self.minus(),
            KeyCode::Char('p') if self.focus == Focus::Deck => self.cycle_printing(),
            KeyCode::Char('p') => {
                self.message =
                    Some("p changes the printing of a deck line: Tab to the deck, then p".into());
            }
            _ => {}
        }
        Action::None
    }

    fn step(&mut self, by: isize) {
        self.move_in(self.focus, by);
    }

    /// Moves the highlight of the deck (`Focus::Deck`) or of the results (any other) by
    /// `by` rows, within the list.
    pub fn move_in(&mut self, list: Focus, by: isize) {
        let (at, len) = match list {
            Focus::Deck => (&mut self.deck_at, self.rows.len()),
            _ => (&mut self.result_at, self.results.len()),
        };
        let last = len.saturating_sub(1);
        *at = at.saturating_add_signed(by).min(last);
    }

    /// The printing highlighted in the focused list (the results unless the deck is).
    pub fn highlighted(&self) -> Option<PrintingId> {
        match self.focus {
            Focus::Deck => self
                .rows
                .get(self.deck_at)
                .and_then(|row| self.deck.cards.get(row.card))
                .and_then(|card| card.printing),
            _ => self.results.get(self.result_at).copied(),
        }
    }

    /// The deck line highlighted in the deck panel.
    fn deck_line(&self) -> Option<&deckbox::check::DeckCard> {
        let row = self.rows.get(self.deck_at)?;
        self.deck.cards.get(row.card)
    }

    /// One copy of what is highlighted: the deck line, or the printing in the results.
    fn one_copy(&self) -> Option<Spec> {
        match self.focus {
            Focus::Deck => self.deck_line().map(|card| line_spec(card, 1)),
            _ => (self.highlighted()).and_then(|id| printing_spec(&self.db, id, 1)),
        }
    }

    fn plus(&mut self) {
        if let Some(spec) = self.one_copy() {
            self.edit(|deck, db| in_place::add(deck, db, &spec));
        }
    }

    fn minus(&mut self) {
        if let Some(spec) = self.one_copy() {
            self.edit(|deck, db| in_place::remove(deck, db, &spec));
        }
    }

    /// `p`: the highlighted deck line in the next printing of its card that the format
    /// allows (the line's copies move to it), where the line stands, so fixing a list top to
    /// bottom goes on at the next line.
    fn cycle_printing(&mut self) {
        let Some(row) = self.rows.get(self.deck_at) else {
            return;
        };
        let index = row.card;
        let Some(card) = self.deck.cards.get(index) else {
            return;
        };
        let (count, current) = (card.line.count, card.printing);
        let Some(next) = current.and_then(|id| next_legal(&self.db, &self.format, id)) else {
            self.message = Some("no other printing of this card is legal here".into());
            return;
        };
        let Some(to) = printing_spec(&self.db, next, count) else {
            return;
        };
        self.edit(|deck, db| in_place::reprint(deck, db, index, &to));
        if let Some(at) = self
            .rows
            .iter()
            .position(|row| self.deck.cards.get(row.card).and_then(|c| c.printing) == Some(next))
        {
            self.deck_at = at;
        }
    }

    /// Applies an edit of the list's text, keeping the old text for `u`.
    fn edit(
        &mut self,
        change: impl FnOnce(&CheckedDeck, &CardDb) -> Result<in_place::Edited, in_place::EditError>,
    ) {
        match change(&self.deck, &self.db) {
            Ok(edited) => {
                let old = std::mem::replace(&mut self.text, edited.text);
                if self.undo.len() >= MAX_UNDO {
                    self.undo.remove(0);
                }
                self.undo.push(old);
                self.message = edited.changes.first().cloned();
                self.rejudge();
            }
            Err(error) => self.message = Some(error.to_string()),
        }
    }

    fn undo(&mut self) {
        match self.undo.pop() {
            Some(text) => {
                self.text = text;
                self.message = Some("undone".into());
                self.rejudge();
            }
            None => self.message = Some("nothing to undo".into()),
        }
    }

    /// P(in the opening hand) and P(seen by turn [`ODDS_TURN`]) of the highlighted card's
    /// copies in the deck (kept hands, going first, as `deckbox stats` prints them).
    pub fn highlighted_odds(&self) -> Option<(String, CardOdds)> {
        let printing = self.db.get(self.highlighted()?)?;
        let name = printing.rules_name();
        let basic = printing.is_basic_pokemon();
        let Some(index) =
            (self.odds.kinds.iter()).position(|kind| kind.name == name && kind.basic == basic)
        else {
            return Some((name, Err("not in the deck".into())));
        };
        let odds = exact::kind_odds(
            &self.odds.shape,
            index,
            &self.format.setup,
            ODDS_TURN,
            Going::First,
        )
        .map_err(|error| error.to_string())
        .map(|odds| {
            let by_turn = odds.by_turn.last().map_or(0.0, |r| r.to_f64());
            (odds.opening_hand.to_f64(), by_turn)
        });
        Some((name, odds))
    }

    /// What the format says of a printing, in one word.
    pub fn legality(&self, printing: &Printing) -> &'static str {
        match legality::judge(&self.format, &self.db, printing) {
            Verdict::Legal => "legal",
            Verdict::LegalAsReprint(_) => "legal",
            Verdict::Undecided { .. } => "?",
            Verdict::Banned(_) => "ban",
            Verdict::NotLegal { .. } => "no",
        }
    }

    /// Owned copies that count for `id` in the deck's format (`--have`; the reprint rule as
    /// `deckbox need` applies it).
    pub fn owned(&self, id: PrintingId) -> Option<u64> {
        let have = self.have.as_ref()?;
        let printing = self.db.get(id)?;
        let entries = have.by_key(&self.db).get(printing.rules_key());
        Some(
            entries
                .into_iter()
                .flatten()
                .filter_map(|&at| have.owned.get(at))
                .filter(|owned| need::counts(&self.format, &self.db, owned.printing, id, false))
                .map(|owned| owned.count)
                .sum(),
        )
    }

    /// Copies of deck card `card` the collection lacks (`--have`).
    pub fn lacking_of(&self, card: usize) -> Option<u64> {
        let lacking = self.lacking.as_ref()?;
        Some(
            (lacking.lines.iter())
                .filter(|line| line.card == card)
                .map(|line| line.missing)
                .sum(),
        )
    }
}

/// What a search found, on whichever thread ran it.
pub struct Answer {
    /// The query answered.
    pub query: String,
    pub results: Vec<PrintingId>,
    /// Printings matched before [`MAX_RESULTS`] cut the list.
    pub matched: usize,
    pub error: Option<String>,
}

/// Searches with the search language first, then, when it finds nothing or cannot read the
/// query, with the lookups of `deckbox card` (`Dreepy TWM 128`); newest printings first.
pub fn answer(db: &CardDb, query: &str, language: Language) -> Answer {
    let mut answer = Answer {
        query: query.to_string(),
        results: Vec::new(),
        matched: 0,
        error: None,
    };
    let query = query.trim();
    if query.is_empty() {
        return answer;
    }
    let ids = match search::search(db, query) {
        Ok(ids) if !ids.is_empty() => ids,
        other => {
            let looked_up = looked_up(db, query);
            if looked_up.is_empty()
                && let Err(error) = other
            {
                answer.error = Some(error.message);
            }
            looked_up
        }
    };
    answer.matched = ids.len();
    // Ranked as `deckbox search` ranks them: by name, the names that begin with what was
    // typed first (`switch` gives Switch before Energy Switch); the printings of one name
    // newest first, so those today's formats allow come first.
    let mut grouped = search::group(db, &ids, language, true, Sort::Released);
    grouped.sort_by_cached_key(|found| deckbox::names::fold(&found.name));
    search::rank_by_language(db, query, language, &mut grouped);
    answer.results = (grouped.into_iter())
        .flat_map(|found| found.printings)
        .take(MAX_RESULTS)
        .collect();
    answer
}

/// The list checked, as `deckbox check` would.
fn check(db: &CardDb, format: &Format, name: &str, text: &str) -> CheckedDeck {
    let input = DeckInput::from_bytes(name, text.as_bytes());
    deckbox::check::check(&input, db, format)
}

/// The deck's lines grouped Pokémon, Trainer, Energy, then lines not identified, each in
/// list order.
fn rows(deck: &CheckedDeck, db: &CardDb) -> Vec<DeckRow> {
    let mut rows: Vec<DeckRow> = (deck.cards.iter().enumerate())
        .map(|(card, line)| DeckRow {
            category: line.printing.and_then(|id| db.get(id)).map(|p| p.category),
            card,
        })
        .collect();
    let order = |row: &DeckRow| match row.category {
        Some(Category::Pokemon) => 0,
        Some(Category::Trainer) => 1,
        Some(Category::Energy) => 2,
        None => 3,
    };
    rows.sort_by_key(|row| (order(row), row.card));
    rows
}

/// The deck's kinds and P(mulligan), as `deckbox stats` computes them.
fn odds(deck: &CheckedDeck, db: &CardDb, format: &Format) -> Odds {
    if check_size(deck).is_err() {
        return Odds::default();
    }
    let Ok(kinds) = deck_kinds(deck, db) else {
        return Odds {
            mulligan: Some(Err("a line is not identified".into())),
            ..Odds::default()
        };
    };
    let shape = DeckShape::new(kinds.iter().map(|k| (k.copies, k.basic)));
    let input = ReportInput {
        shape: &shape,
        names: &[],
        setup: &format.setup,
        turns: ODDS_TURN,
        going: Going::First,
        queries: &[],
    };
    let mulligan = Report::build(input)
        .map(|report| report.mulligan.probability)
        .map_err(|error| error.to_string());
    Odds {
        kinds,
        shape,
        mulligan: Some(mulligan),
    }
}

/// The printings `deckbox card QUERY` would name: those the query matched.
fn looked_up(db: &CardDb, query: &str) -> Vec<PrintingId> {
    match lookup::lookup(db, query) {
        lookup::Lookup::Found { cards, .. } => {
            cards.into_iter().flat_map(|card| card.matched).collect()
        }
        lookup::Lookup::Unknown { .. } => Vec::new(),
    }
}

/// One copy (or `count`) of a printing, as `deckbox add` reads `1 Dreepy TWM 128`.
fn printing_spec(db: &CardDb, id: PrintingId, count: u32) -> Option<Spec> {
    let printing = db.get(id)?;
    let name = printing.names.primary().to_string();
    let coded = !printing.set_code.is_empty();
    Some(Spec {
        text: format!("{count} {name}"),
        count: Some(count),
        name,
        set: coded.then(|| printing.set_code.clone()),
        number: coded.then(|| printing.number.clone()),
    })
}

/// `count` copies of a deck line, as written (its set and number when it has them).
fn line_spec(card: &deckbox::check::DeckCard, count: u32) -> Spec {
    let line = &card.line;
    let (set, number) = match (&line.set, &line.number) {
        (Some(set), Some(number)) => (Some(set.clone()), Some(number.clone())),
        _ => (None, None),
    };
    Spec {
        text: format!("{count} {}", line.name),
        count: Some(count),
        name: line.name.clone(),
        set,
        number,
    }
}

/// The next printing of `id`'s card (oldest first, wrapping) that `format` allows and that
/// has a set code a list can write.
fn next_legal(db: &CardDb, format: &Format, id: PrintingId) -> Option<PrintingId> {
    let printing = db.get(id)?;
    let card = match lookup::lookup(db, printing.names.primary()) {
        lookup::Lookup::Found { cards, .. } => cards
            .into_iter()
            .find(|card| card.printings.contains(&id))?,
        lookup::Lookup::Unknown { .. } => return None,
    };
    let allowed = |other: &PrintingId| {
        db.get(*other).is_some_and(|p| {
            !p.set_code.is_empty()
                && matches!(
                    legality::judge(format, db, p),
                    Verdict::Legal | Verdict::LegalAsReprint(_)
                )
        })
    };
    let at = card.printings.iter().position(|&p| p == id)?;
    let after = card.printings.iter().skip(at + 1);
    let before = card.printings.iter().take(at);
    after.chain(before).copied().find(allowed)
}
