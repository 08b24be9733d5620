//! The deck builder's model (`deckbox build`), as model / message / update / view: the
//! state, changed only by [`Builder::update`] with a [`Message`] (a key, a search's
//! answer, an edit, a save done), which returns the [`Effect`]s its caller performs (run a
//! search, write the list, quit). The fields are private; a view reads them through the
//! accessors and changes nothing. Nothing here knows a terminal, a thread or a clock: the
//! binary (`src/cli/builder/`) maps the terminal's keys and mouse to messages, runs
//! searches on a thread of its own, writes the file and draws; a browser can drive the same
//! model.
//!
//! Everything computed is a library call the other commands make: `search::search` (and
//! `cards::identification::lookup`, as `deckbox card` reads `Dreepy TWM 128`) for the results,
//! `edit::in_place` for each change (as `deckbox add`/`remove`), `check::check` for the
//! verdict, `stats::Report` and `stats::exact::kind_odds` for the odds (as `deckbox stats`),
//! `formats::legality::judge` for each result's legality and `collection::need` for what a
//! collection still lacks (as `deckbox need`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cards::identification::lookup;
use crate::cards::{CardDb, Category, Printing, PrintingId};
use crate::check::rules::Rule;
use crate::check::{CheckedDeck, DeckCard};
use crate::collection::{Collection, need};
use crate::deck::{DeckInput, Span};
use crate::edit::in_place::{self, Spec};
use crate::formats::legality::{self, Verdict};
use crate::formats::{Format, Going};
use crate::names::lang::Language;
use crate::search::{self, Sort};
use crate::stats::kinds::DeckKind;
use crate::stats::{DeckShape, RequestError, StatsDeck, exact};

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

/// A key as the builder reads it, whoever sends it (a terminal, a browser): the keys of
/// `deckbox build --help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character typed without Ctrl.
    Char(char),
    /// A character typed with Ctrl (`Ctrl-S` is `Ctrl('s')`).
    Ctrl(char),
    Enter,
    Tab,
    BackTab,
    Up,
    Down,
    PageUp,
    PageDown,
    Backspace,
    Esc,
    /// A key with no meaning in the builder (it still clears the status line).
    Other,
}

/// What happened: the input [`Builder::update`] reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A key, read as the panel with the focus reads it ([`Key`]): mapped to one of the
    /// messages below, as `deckbox build --help` describes the keys.
    Key(Key),
    /// Text pasted (one message, however long): typed into the search box, which takes the
    /// focus; line breaks and tabs become spaces, and the box stops at [`MAX_QUERY`] bytes.
    Paste(String),
    /// The input is quiet: the moment to search the query in the box
    /// ([`Effect::Search`]) when it changed and no search runs.
    Idle,
    /// A search's answer ([`SearchRequest::run`]): shown when it answers the query still in
    /// the box.
    Answer(Answer),
    /// A character typed at the end of the search box (up to [`MAX_QUERY`] bytes).
    Type(char),
    /// The search box's last character erased.
    Erase,
    /// The search box emptied.
    ClearQuery,
    /// The focus to a panel; to the results, with the results of the query in the box.
    Focus(Focus),
    /// The focus from the results to the deck, or back.
    SwitchPanel,
    /// The highlight of the focused list (the results unless the deck has the focus) moved
    /// by some rows, within the list.
    Move(isize),
    /// The highlight of `list` moved without the focus (the mouse wheel).
    Scroll { list: Focus, by: isize },
    /// A line of `list` chosen (a click): the focus goes there, and to line `row` when the
    /// list has it.
    Select { list: Focus, row: Option<usize> },
    /// One copy of what is highlighted added: the deck line, or the printing in the
    /// results.
    Add,
    /// One copy of what is highlighted removed.
    Remove,
    /// The highlighted deck line in the next printing of its card that the format allows.
    CyclePrinting,
    /// The last change taken back.
    Undo,
    /// The help shown.
    Help,
    /// The help or the question to quit closed.
    CloseOverlay,
    /// The list saved: an [`Effect::Save`].
    Save,
    /// What the [`Effect::Save`] did: the text written, or why nothing was (one line).
    Saved(Result<String, String>),
    /// The [`Effect::Save`] wrote the list to a file that had been deleted on disk since the
    /// builder read it (the text written): saved, and the player told.
    SavedAgain(String),
    /// Quit: at once with nothing unsaved or when the question to quit is shown; otherwise
    /// the question.
    Quit,
}

/// What the caller of [`Builder::update`] must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Run a search (on a thread of its own if it can) and send its answer back as a
    /// [`Message::Answer`].
    Search(SearchRequest),
    /// Write the list as `deckbox fmt --write` writes it, atomically, and send what happened
    /// back as a [`Message::Saved`].
    Save(SaveRequest),
    /// The builder is done.
    Quit,
}

/// A search to run: the query in the box when it was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    pub query: String,
    /// The deck's language: names are shown and ranked in it.
    pub language: Language,
    /// Counts the searches asked: its answer carries it back.
    pub generation: u64,
}

/// A save to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveRequest {
    pub path: PathBuf,
    /// The file as shown (its escaped path).
    pub name: String,
    /// The list's text now, to be written as `fmt --write` writes it.
    pub text: String,
    /// What the file held when it was read or last saved, so a change made meanwhile by
    /// someone else is not overwritten; `None` for a new file, created.
    pub previous: Option<String>,
}

/// The builder's state.
pub struct Builder {
    /// Shared with whatever runs searches (a thread of the binary's).
    db: Arc<CardDb>,
    format: Format,
    /// The file edited, as shown.
    name: String,
    path: PathBuf,
    /// The list's text now, and when it was opened or last saved.
    text: String,
    saved: String,
    /// Whether the file existed when the list was read or saved.
    exists: bool,
    undo: Vec<String>,
    deck: CheckedDeck,
    rows: Vec<DeckRow>,
    odds: Odds,
    query: String,
    /// The query changed since the results were computed.
    query_dirty: bool,
    /// The searches asked for so far, and the one running ([`Effect::Search`]).
    generation: u64,
    searching: Option<u64>,
    results: Vec<PrintingId>,
    /// How many printings matched before [`MAX_RESULTS`] cut the list.
    matched: usize,
    search_error: Option<String>,
    result_at: usize,
    deck_at: usize,
    focus: Focus,
    overlay: Option<Overlay>,
    /// A one-line message for the status line (saved, an edit refused).
    message: Option<String>,
    /// The collection of `--have`, and what the deck still lacks from it.
    have: Option<Collection>,
    lacking: Option<need::Need>,
    language: Language,
}

impl Builder {
    /// A builder on `text` (the file's, or empty for a new file), judged in `format`.
    pub fn new(db: CardDb, format: Format, path: PathBuf, text: String, exists: bool) -> Builder {
        let name = crate::util::escape::path_line(&path);
        let deck = check(&db, &format, &name, &text);
        let db = Arc::new(db);
        let mut builder = Builder {
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
            generation: 0,
            searching: None,
            results: Vec::new(),
            matched: 0,
            search_error: None,
            result_at: 0,
            deck_at: 0,
            focus: Focus::Search,
            overlay: None,
            message: None,
            have: None,
            lacking: None,
            language: Language::En,
        };
        builder.language = builder.deck.language.unwrap_or(Language::En);
        builder.rejudge();
        builder
    }

    /// Adds a collection (`--have`): results show what is owned, the verdict what is
    /// missing.
    pub fn with_collection(mut self, collection: Collection) -> Builder {
        self.have = Some(collection);
        self.rejudge();
        self
    }

    /// Handles one message; what the caller must do next, in order.
    pub fn update(&mut self, message: Message) -> Vec<Effect> {
        match message {
            Message::Key(key) => return self.key(key),
            Message::Idle => return self.idle(),
            Message::Answer(answer) => self.take_answer(answer),
            Message::Save => return vec![Effect::Save(self.save_request())],
            Message::Saved(Ok(text)) => {
                self.message = Some(format!("saved {}", self.name));
                self.saved_as(text);
            }
            Message::Saved(Err(why)) => self.message = Some(why),
            Message::SavedAgain(text) => {
                self.message = Some(format!(
                    "saved {} again: it had been deleted since deckbox read it",
                    self.name
                ));
                self.saved_as(text);
            }
            Message::Quit => return self.quit(),
            Message::CloseOverlay => self.overlay = None,
            // The wheel leaves the status line as it is.
            Message::Scroll { list, by } => {
                if list != Focus::Deck {
                    self.refresh_search();
                }
                self.move_in(list, by);
            }
            other => {
                self.message = None;
                self.act(other);
            }
        }
        Vec::new()
    }

    /// The messages a person sends (they clear the status line first).
    fn act(&mut self, message: Message) {
        match message {
            Message::Type(c) => {
                if self.query.len() + c.len_utf8() <= MAX_QUERY {
                    self.query.push(c);
                    self.query_dirty = true;
                }
            }
            Message::Erase => self.query_dirty |= self.query.pop().is_some(),
            Message::ClearQuery => {
                self.query_dirty |= !self.query.is_empty();
                self.query.clear();
            }
            Message::Paste(text) => {
                // One message however long the paste: its line breaks and tabs are spaces
                // (never an Enter), other controls are dropped, and it stops at the box's
                // bound.
                self.focus = Focus::Search;
                let typed = text.chars().filter_map(|c| match c {
                    '\n' | '\r' | '\t' => Some(' '),
                    c if c.is_control() => None,
                    c => Some(c),
                });
                for c in typed {
                    if self.query.len() + c.len_utf8() > MAX_QUERY {
                        self.message = Some(format!(
                            "the search box holds {MAX_QUERY} bytes: the paste was cut there"
                        ));
                        break;
                    }
                    self.act(Message::Type(c));
                }
            }
            Message::Focus(focus) => {
                // Keys typed ahead (`Enter` then `+`) act on the results of the query.
                if focus == Focus::Results {
                    self.refresh_search();
                }
                self.focus = focus;
            }
            Message::SwitchPanel => {
                self.focus = match self.focus {
                    Focus::Deck => Focus::Results,
                    _ => Focus::Deck,
                };
                if self.focus == Focus::Results {
                    self.refresh_search();
                }
            }
            Message::Move(by) => {
                if self.focus != Focus::Deck {
                    self.refresh_search();
                }
                self.move_in(self.focus, by);
            }
            Message::Select { list, row } => self.select(list, row),
            Message::Add => {
                if let Some(spec) = self.one_copy() {
                    self.edit(|deck, db| in_place::add(deck, db, &spec));
                }
            }
            Message::Remove => {
                if let Some(spec) = self.one_copy() {
                    self.edit(|deck, db| in_place::remove(deck, db, &spec));
                }
            }
            Message::CyclePrinting if self.focus == Focus::Deck => self.cycle_printing(),
            Message::CyclePrinting => {
                self.message =
                    Some("p changes the printing of a deck line: Tab to the deck, then p".into());
            }
            Message::Undo => self.undo(),
            Message::Help => self.overlay = Some(Overlay::Help),
            Message::Key(_)
            | Message::Idle
            | Message::Answer(_)
            | Message::Scroll { .. }
            | Message::CloseOverlay
            | Message::Save
            | Message::Saved(_)
            | Message::SavedAgain(_)
            | Message::Quit => {}
        }
    }

    /// A key: Ctrl-S saves and Ctrl-C quits anywhere; a window closes on any key (`y`
    /// answers the question to quit); otherwise the status line is cleared and the search
    /// box takes every character, while in the lists (which first show the results of the
    /// query in the box) letters are commands.
    fn key(&mut self, key: Key) -> Vec<Effect> {
        match (self.overlay, key) {
            (_, Key::Ctrl('s')) => return self.update(Message::Save),
            (Some(Overlay::ConfirmQuit), Key::Char('y' | 'Y') | Key::Ctrl('c')) => {
                return self.update(Message::Quit);
            }
            (Some(_), _) => return self.update(Message::CloseOverlay),
            (None, Key::Ctrl('c')) => return self.update(Message::Quit),
            _ => {}
        }
        self.message = None;
        let message = match self.focus {
            Focus::Search => match key {
                // Ctrl-U clears the line, as in a shell.
                Key::Ctrl('u') => Message::ClearQuery,
                Key::Char(c) => Message::Type(c),
                Key::Backspace => Message::Erase,
                Key::Enter | Key::Down | Key::Tab | Key::Esc => Message::Focus(Focus::Results),
                _ => return Vec::new(),
            },
            Focus::Results | Focus::Deck => {
                self.refresh_search();
                // A letter is the same command with Ctrl or without.
                let letter = match key {
                    Key::Char(c) | Key::Ctrl(c) => Some(c),
                    _ => None,
                };
                match (key, letter) {
                    (_, Some('/')) => Message::Focus(Focus::Search),
                    (_, Some('q')) => Message::Quit,
                    (_, Some('?')) => Message::Help,
                    (_, Some('u')) => Message::Undo,
                    (Key::Tab | Key::BackTab, _) => Message::SwitchPanel,
                    (Key::Up, _) | (_, Some('k')) => Message::Move(-1),
                    (Key::Down, _) | (_, Some('j')) => Message::Move(1),
                    (Key::PageUp, _) => Message::Move(-10),
                    (Key::PageDown, _) => Message::Move(10),
                    (Key::Enter, _) | (_, Some('+' | '=')) => Message::Add,
                    (_, Some('-')) => Message::Remove,
                    (_, Some('p')) => Message::CyclePrinting,
                    _ => return Vec::new(),
                }
            }
        };
        self.update(message)
    }

    /// Asks for the search of the query in the box, when it changed and none runs.
    fn idle(&mut self) -> Vec<Effect> {
        if !self.query_dirty || self.searching.is_some() {
            return Vec::new();
        }
        self.generation += 1;
        self.searching = Some(self.generation);
        vec![Effect::Search(self.search_request())]
    }

    fn search_request(&self) -> SearchRequest {
        SearchRequest {
            query: self.query.clone(),
            language: self.language,
            generation: self.generation,
        }
    }

    fn save_request(&self) -> SaveRequest {
        SaveRequest {
            path: self.path.clone(),
            name: self.name.clone(),
            text: self.text.clone(),
            previous: self.exists.then(|| self.saved.clone()),
        }
    }

    fn quit(&mut self) -> Vec<Effect> {
        if self.overlay == Some(Overlay::ConfirmQuit) || !self.dirty() {
            vec![Effect::Quit]
        } else {
            self.overlay = Some(Overlay::ConfirmQuit);
            Vec::new()
        }
    }

    /// A click on a line of `list` (or below its last one).
    fn select(&mut self, list: Focus, row: Option<usize>) {
        match list {
            Focus::Search => self.focus = Focus::Search,
            Focus::Results => {
                // The results of the query in the box, as a key in the results would see
                // them.
                self.refresh_search();
                self.focus = Focus::Results;
                if let Some(row) = row.filter(|&row| row < self.results.len()) {
                    self.result_at = row;
                }
            }
            Focus::Deck => {
                self.focus = Focus::Deck;
                if let Some(row) = row.filter(|&row| row < self.rows.len()) {
                    self.deck_at = row;
                }
            }
        }
    }

    /// Whether the list differs from the file.
    pub fn dirty(&self) -> bool {
        self.text != self.saved
    }

    /// After a save: the file holds `text`.
    fn saved_as(&mut self, text: String) {
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
        self.odds = stats_of(&self.deck, &self.db, &self.format);
        self.lacking = self
            .have
            .as_ref()
            .map(|have| need::need(&[(&self.deck, &self.format)], have, &self.db, false, None));
    }

    /// Runs the search when the query changed, here and now (a caller that can runs it
    /// aside: [`Message::Idle`]).
    fn refresh_search(&mut self) {
        if self.query_dirty {
            let answer = self.search_request().run(&self.db);
            self.take_answer(answer);
        }
    }

    /// Shows a search's answer when it answers the query now in the box; an answer to a
    /// query typed over since is dropped.
    fn take_answer(&mut self, answer: Answer) {
        if self.searching == Some(answer.generation) {
            self.searching = None;
        }
        if answer.query != self.query {
            return;
        }
        self.query_dirty = false;
        self.result_at = 0;
        self.results = answer.results;
        self.matched = answer.matched;
        self.search_error = answer.error;
    }

    /// Moves the highlight of the deck (`Focus::Deck`) or of the results (any other) by
    /// `by` rows, within the list.
    fn move_in(&mut self, list: Focus, by: isize) {
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
            Focus::Deck => self.deck_line().and_then(|card| card.printing),
            _ => self.results.get(self.result_at).copied(),
        }
    }

    /// The deck line highlighted in the deck panel.
    fn deck_line(&self) -> Option<&DeckCard> {
        let row = self.rows.get(self.deck_at)?;
        self.deck.cards.get(row.card)
    }

    /// One copy of what is highlighted: the deck line, or the printing in the results (of
    /// the query in the box).
    fn one_copy(&mut self) -> Option<Spec> {
        match self.focus {
            Focus::Deck => self.deck_line().map(|card| line_spec(card, 1)),
            _ => {
                self.refresh_search();
                (self.highlighted()).and_then(|id| printing_spec(&self.db, id, 1))
            }
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
                self.true_counts();
            }
            Err(error) => self.message = Some(error.to_string()),
        }
    }

    /// After a change, writes the count each `header-count` finding expects into its
    /// header or footer, as saving (`fmt --write`) will: an edit moves a count the list got
    /// wrong by as much as the cards (so `deckbox add` still shows it), and in the builder
    /// its warning would stay, stale, until the save. Part of the change `u` takes back.
    fn true_counts(&mut self) {
        let mut fixes: Vec<(Span, u64)> = (self.deck.diagnostics.iter())
            .filter(|d| d.rule == Rule::HeaderCount)
            .filter_map(|d| {
                let expected = d.label.as_deref()?.strip_prefix("expected ")?;
                Some((d.span?, expected.parse().ok()?))
            })
            .collect();
        if fixes.is_empty() {
            return;
        }
        // From the end, so the spans before each one stay where they are.
        fixes.sort_by_key(|(span, _)| std::cmp::Reverse(span.offset));
        let mut text = self.text.clone();
        for (span, count) in fixes {
            if let Some(digits) = last_number(&text, span) {
                text.replace_range(digits, &count.to_string());
            }
        }
        if text != self.text {
            self.text = text;
            self.rejudge();
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

    /// The card database, shared with whatever runs a search aside.
    pub fn db(&self) -> &Arc<CardDb> {
        &self.db
    }

    /// The format the deck is judged in.
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// The file edited, as shown (its escaped path).
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The list's text now.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The list checked, as `deckbox check` checks it.
    pub fn deck(&self) -> &CheckedDeck {
        &self.deck
    }

    /// The deck panel's lines: Pokémon, Trainer, Energy, then lines not identified, each in
    /// list order.
    pub fn rows(&self) -> &[DeckRow] {
        &self.rows
    }

    pub fn odds(&self) -> &Odds {
        &self.odds
    }

    /// The search box's text.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Whether a search asked for ([`Effect::Search`]) has not answered yet.
    pub fn searching(&self) -> bool {
        self.searching.is_some()
    }

    /// The printings the last search shown found, at most [`MAX_RESULTS`].
    pub fn results(&self) -> &[PrintingId] {
        &self.results
    }

    /// How many printings matched before [`MAX_RESULTS`] cut the list.
    pub fn matched(&self) -> usize {
        self.matched
    }

    /// Why the search box's query could not be read, when nothing else answered it.
    pub fn search_error(&self) -> Option<&str> {
        self.search_error.as_deref()
    }

    /// The highlighted result.
    pub fn result_at(&self) -> usize {
        self.result_at
    }

    /// The highlighted deck row (an index into [`Builder::rows`]).
    pub fn deck_at(&self) -> usize {
        self.deck_at
    }

    pub fn focus(&self) -> Focus {
        self.focus
    }

    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay
    }

    /// The status line's message (saved, an edit made or refused).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// What the deck still lacks from the collection (`--have`).
    pub fn lacking(&self) -> Option<&need::Need> {
        self.lacking.as_ref()
    }

    /// The deck's language: names are shown in it.
    pub fn language(&self) -> Language {
        self.language
    }
}

/// What a search found, wherever it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The query answered.
    pub query: String,
    /// The [`SearchRequest::generation`] answered.
    pub generation: u64,
    pub results: Vec<PrintingId>,
    /// Printings matched before [`MAX_RESULTS`] cut the list.
    pub matched: usize,
    pub error: Option<String>,
}

impl SearchRequest {
    /// Searches with the search language first, then, when it finds nothing or cannot read
    /// the query, with the lookups of `deckbox card` (`Dreepy TWM 128`); newest printings
    /// first.
    pub fn run(&self, db: &CardDb) -> Answer {
        let language = self.language;
        let mut answer = Answer {
            query: self.query.clone(),
            generation: self.generation,
            results: Vec::new(),
            matched: 0,
            error: None,
        };
        let query = self.query.trim();
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
        grouped.sort_by_cached_key(|found| crate::names::fold(&found.name));
        search::rank_by_language(db, query, language, &mut grouped);
        answer.results = (grouped.into_iter())
            .flat_map(|found| found.printings)
            .take(MAX_RESULTS)
            .collect();
        answer
    }
}

/// The byte range of the last number written in `span` of `text` (a header's count:
/// `Pokémon: 12`, `Trainer (34)`, `Total Cards: 60`).
fn last_number(text: &str, span: Span) -> Option<std::ops::Range<usize>> {
    let written = text.get(span.offset..span.end())?;
    let end = written.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = (written.get(..end)?)
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .len();
    Some(span.offset + start..span.offset + end)
}

/// The list checked, as `deckbox check` would.
fn check(db: &CardDb, format: &Format, name: &str, text: &str) -> CheckedDeck {
    let input = DeckInput::from_bytes(name, text.as_bytes());
    crate::check::check(&input, db, format)
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

/// The deck's kinds and P(mulligan), as `deckbox stats` computes them: the one place the
/// builder makes the deck ready for statistics.
fn stats_of(deck: &CheckedDeck, db: &CardDb, format: &Format) -> Odds {
    let stats = match StatsDeck::from_checked(deck, db) {
        Ok(stats) => stats,
        Err(RequestError::Unidentified(_)) => {
            return Odds {
                mulligan: Some(Err("a line is not identified".into())),
                ..Odds::default()
            };
        }
        // Too many cards for statistics: no odds shown.
        Err(_) => return Odds::default(),
    };
    let mulligan = stats
        .mulligan(&format.setup)
        .map(|mulligan| mulligan.probability)
        .map_err(|error| error.to_string());
    Odds {
        shape: stats.shape(),
        kinds: stats.into_kinds(),
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
fn line_spec(card: &DeckCard, count: u32) -> Spec {
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
        db.get(*other)
            .is_some_and(|p| !p.set_code.is_empty() && legality::judge(format, db, p).allows())
    };
    let at = card.printings.iter().position(|&p| p == id)?;
    let after = card.printings.iter().skip(at + 1);
    let before = card.printings.iter().take(at);
    after.chain(before).copied().find(allowed)
}

#[cfg(test)]
mod tests;
