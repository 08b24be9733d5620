//! The terminal builder without a terminal: keys and the mouse become the model's messages,
//! the screen is drawn on a test backend and compared whole, and a save is what `fmt`
//! writes. The model's own logic is tested with messages in `src/builder/tests.rs`.

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use super::ui::Scroll;
use deckbox::builder::{Builder, Effect, Focus, Key, Message, Overlay};
use deckbox::cards::storage::embedded;
use deckbox::deck::DeckInput;
use deckbox::formats::Format;

/// Standard on the day the suite's outputs are fixed at (`DECKBOX_TODAY` of the CLI tests).
fn standard() -> Format {
    let date = deckbox::util::date::parse("2026-11-25").unwrap();
    Format::load_at("standard", Some(date)).unwrap()
}

/// The builder and the scroll of its screen, as the terminal loop keeps them.
struct App {
    model: Builder,
    scroll: Scroll,
}

impl std::ops::Deref for App {
    type Target = Builder;
    fn deref(&self) -> &Builder {
        &self.model
    }
}

fn app_on(path: PathBuf, text: &str, exists: bool) -> App {
    let model = Builder::new(
        embedded::open().unwrap(),
        standard(),
        path,
        text.into(),
        exists,
    );
    App {
        model,
        scroll: Scroll::default(),
    }
}

/// A key pressed in the terminal, as the loop sends it to the model.
fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    let message = super::key_message(KeyEvent::new(code, KeyModifiers::NONE)).unwrap();
    app.model.update(message)
}

/// Runs the search the model asks for, as the loop does when the typing pauses.
fn refresh(app: &mut App) {
    for effect in app.model.update(Message::Idle) {
        if let Effect::Search(request) = effect {
            let answer = request.run(app.db());
            app.model.update(Message::Answer(answer));
        }
    }
}

/// Ctrl-S, and the save it asks for performed as the loop performs it.
fn save(app: &mut App) {
    let message = super::key_message(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    for effect in app.model.update(message.unwrap()) {
        if let Effect::Save(request) = effect {
            let saved = super::write(&app.model, &request);
            app.model.update(Message::Saved(saved));
        }
    }
}

/// Types `text` in the search box and runs the search, as the terminal loop does when the
/// typing pauses; then goes to the results.
fn search(app: &mut App, text: &str) {
    press(app, KeyCode::Char('/'));
    while !app.query().is_empty() {
        press(app, KeyCode::Backspace);
    }
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    refresh(app);
    press(app, KeyCode::Enter);
}

fn times(app: &mut App, code: KeyCode, n: usize) {
    for _ in 0..n {
        press(app, code);
    }
}

/// The screen as text, one line a row (colours left out).
fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| super::ui::draw(frame, &app.model, &app.scroll))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let row: String = (0..width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// 4 Dreepy and 56 basic Psychic Energy, typed key by key from an empty file.
fn legal_deck(app: &mut App) {
    search(app, "Dreepy TWM 128");
    assert_eq!(app.focus(), Focus::Results);
    times(app, KeyCode::Char('+'), 4);
    search(app, "Basic Psychic Energy SVE 5");
    times(app, KeyCode::Enter, 56);
}

/// Issue 50: the verdict counts the findings it cannot show.
#[test]
fn the_verdict_counts_the_findings_it_hides() {
    // Twenty-two unknown cards: more findings than the 80×24 verdict holds.
    let text: String = (0..22).map(|i| format!("1 Zorbulax{i}\n")).collect();
    let app = app_on(PathBuf::from("deck.txt"), &text, true);
    assert!(app.deck().diagnostics.len() > 20);
    let shown = screen(&app, 80, 24);
    let counted = shown
        .lines()
        .find(|line| line.contains("more findings (`deckbox check` lists every one)"))
        .unwrap_or_else(|| panic!("{shown}"));
    let hidden: usize = counted
        .split("… and ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let listed = shown
        .lines()
        .filter_map(|line| line.strip_prefix('│'))
        .filter(|line| {
            ["error ", "warning ", "info "]
                .iter()
                .any(|w| line.starts_with(w))
        })
        .count();
    assert!(listed > 0, "{shown}");
    assert_eq!(listed + hidden, app.deck().diagnostics.len(), "{shown}");
}

#[test]
fn screens_at_80x24_and_120x40() {
    let mut app = app_on(PathBuf::from("new.txt"), "", false);
    insta::assert_snapshot!("empty_80x24", screen(&app, 80, 24));
    legal_deck(&mut app);
    search(&mut app, "Dreepy");
    insta::assert_snapshot!("legal_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("legal_120x40", screen(&app, 120, 40));
    press(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!("help_80x24", screen(&app, 80, 24));
    press(&mut app, KeyCode::Esc);
    insta::assert_snapshot!("small", screen(&app, 60, 20));
}

#[test]
fn a_save_is_what_fmt_writes_and_nothing_is_written_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.txt");
    let mut app = app_on(path.clone(), "", false);
    legal_deck(&mut app);
    assert!(!path.exists(), "nothing is written before Ctrl-S");
    save(&mut app);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(!app.dirty(), "{:?}", app.message());
    let input = DeckInput::from_bytes("new.txt", saved.as_bytes());
    let db = embedded::open().unwrap();
    let formatted = deckbox::edit::listing::format(&input, &db, &standard()).unwrap();
    assert!(formatted.is_canonical(), "{saved}");
    insta::assert_snapshot!("saved_new_file", saved);
    // A second save after another change replaces the file.
    search(&mut app, "Dreepy TWM 128");
    press(&mut app, KeyCode::Char('-'));
    save(&mut app);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("Pokémon: 3")
    );
}

#[test]
fn an_existing_list_keeps_its_language() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.txt");
    let text = "Pokémon : 4\n4 Fantyrm TWM 128\n\nÉnergie : 56\n56 Énergie Psychic de base SVE 5\n";
    std::fs::write(&path, text).unwrap();
    let mut app = app_on(path.clone(), text, true);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('-'));
    save(&mut app);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("3 Fantyrm TWM 128"), "{saved}");
}

/// With `--have`, the results show the copies owned and the deck the copies lacking (the
/// model's side: `src/builder/tests.rs`).
#[test]
fn with_a_collection_the_screen_shows_what_is_owned_and_lacking() {
    let db = embedded::open().unwrap();
    let binder = "4 Dreepy TWM 128\n10 Basic Psychic Energy SVE 5\n";
    let file =
        deckbox::collection::parse("binder.txt", binder.as_bytes(), &db, &standard()).unwrap();
    let mut have = deckbox::collection::Collection::default();
    have.push(file);
    let mut app = app_on(PathBuf::from("new.txt"), "", false);
    app.model = app.model.with_collection(have);
    legal_deck(&mut app);
    search(&mut app, "Dreepy TWM 128");
    insta::assert_snapshot!("have_80x24", screen(&app, 80, 24));
}

/// `open` as `deckbox build FILE --format F --as-of 2026-11-25` runs it.
fn open_file(path: &std::path::Path, format: &str) -> Result<App, deckbox::error::Error> {
    let args = super::BuildArgs {
        file: path.to_path_buf(),
        have: Vec::new(),
        settings: crate::cli::SettingsArgs {
            format: Some(format.into()),
            as_of: deckbox::util::date::parse("2026-11-25"),
            ..Default::default()
        },
    };
    super::open(&args).map(|(model, _)| App {
        model,
        scroll: Scroll::default(),
    })
}

/// The saved file as `check` and `fmt --check` see it: its verdict, and whether it is
/// canonical.
fn check_saved(path: &std::path::Path, format: &str) -> (deckbox::check::CheckedDeck, bool) {
    let db = embedded::open().unwrap();
    let format = Format::load(format).unwrap();
    let input = deckbox::deck::input::read_deck(path, &mut std::io::empty(), &mut false).unwrap();
    let deck = deckbox::check::check(&input, &db, &format);
    let formatted = deckbox::edit::listing::format(&input, &db, &format).unwrap();
    (deck, formatted.is_canonical())
}

/// A list exported by `deckbox convert --to json` opens, takes a change in the deck panel
/// and a card from the results, and is saved as JSON exactly as `fmt --write` writes it.
#[test]
fn an_exported_json_list_is_built_and_saved_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dragapult.json");
    let db = embedded::open().unwrap();
    let unlimited = Format::load("unlimited").unwrap();
    let example = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/dragapult.txt"
    ))
    .unwrap();
    let deck = deckbox::check::check(
        &DeckInput::from_bytes("dragapult.txt", &example),
        &db,
        &unlimited,
    );
    let listing = deckbox::edit::listing::build(&deck, &db).unwrap();
    let exported = deckbox::edit::listing::render(&listing, deckbox::edit::listing::Layout::Json);
    std::fs::write(&path, &exported).unwrap();
    let mut app = open_file(&path, "unlimited").unwrap();
    assert_eq!(app.deck().card_count(), 60);
    // One Dreepy out (the deck's first line), one Munkidori in.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('-'));
    search(&mut app, "Munkidori TWM 95");
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.deck().card_count(), 60, "{}", app.text());
    assert!(app.deck().valid(), "{:?}", app.deck().diagnostics);
    save(&mut app);
    assert!(!app.dirty(), "{:?}", app.message());
    let saved = std::fs::read_to_string(&path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(value["total"], 60, "{saved}");
    assert!(saved.contains("\"name\": \"Munkidori\""), "{saved}");
    let (deck, canonical) = check_saved(&path, "unlimited");
    assert!(deck.valid(), "{:?}", deck.diagnostics);
    assert_eq!(deck.card_count(), 60);
    assert!(canonical, "{saved}");
}

/// A hand-written JSON array of cards keeps the keys deckbox does not read (`id`) through
/// the builder and its save.
#[test]
fn a_hand_written_json_list_keeps_what_it_carries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.json");
    let text = "[\n  {\"id\": \"sv6-128\", \"count\": 3, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"},\n  {\"count\": 56, \"name\": \"Basic Psychic Energy\", \"set\": \"SVE\", \"number\": \"5\", \"note\": \"any art\"}\n]\n";
    std::fs::write(&path, text).unwrap();
    let mut app = open_file(&path, "standard").unwrap();
    assert_eq!(app.deck().card_count(), 59);
    search(&mut app, "Dreepy TWM 128");
    press(&mut app, KeyCode::Char('+'));
    save(&mut app);
    let saved = std::fs::read_to_string(&path).unwrap();
    insta::assert_snapshot!(saved, @r#"
    [
      {"id": "sv6-128", "count": 4, "name": "Dreepy", "set": "TWM", "number": "128"},
      {"count": 56, "name": "Basic Psychic Energy", "set": "SVE", "number": "5", "note": "any art"}
    ]
    "#);
    let (deck, canonical) = check_saved(&path, "standard");
    assert!(deck.valid(), "{:?}", deck.diagnostics);
    assert!(canonical);
}

/// A JSON list `fmt --write` would not rewrite is not opened, with `fmt`'s message.
#[test]
fn a_json_list_fmt_would_not_rewrite_is_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("own.json");
    let text = "{\"language\": \"en\", \"player\": \"Ash\", \"sections\": [{\"section\": \"pokemon\", \"cards\": [{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}]}]}\n";
    std::fs::write(&path, text).unwrap();
    let Err(error) = open_file(&path, "standard") else {
        panic!("opened a list fmt --write refuses");
    };
    let message = crate::cli::render(&error);
    assert!(message.contains("not formatted"), "{message}");
    assert!(message.contains("no place for `player`"), "{message}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

/// The 80×24 screen a mouse event is sent on.
const SCREEN: Rect = Rect::new(0, 0, 80, 24);

/// Sends a mouse event on the screen as last drawn (the terminal loop draws before it
/// reads an event).
fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
    screen(app, SCREEN.width, SCREEN.height);
    let event = MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    if let Some(message) = super::mouse::mouse(&app.model, &app.scroll, event, SCREEN) {
        app.model.update(message);
    }
}

fn click(app: &mut App, column: u16, row: u16) {
    mouse(app, MouseEventKind::Down(MouseButton::Left), column, row);
}

/// The row of the screen where `>` marks the highlighted line of a list panel.
fn marked_row(app: &App, panel: Rect) -> Option<u16> {
    let rows = super::ui::list_rows(panel);
    let screen = screen(app, SCREEN.width, SCREEN.height);
    let lines: Vec<&str> = screen.lines().collect();
    (rows.y..rows.bottom()).find(|&y| {
        lines
            .get(usize::from(y))
            .and_then(|line| line.chars().nth(usize::from(rows.x)))
            == Some('>')
    })
}

/// A click focuses the panel under it and highlights the line drawn there, also once the
/// list has scrolled; the wheel moves the highlight of the list under the pointer.
#[test]
fn the_mouse_clicks_lines_and_the_wheel_moves_in_the_list_under_it() {
    let mut app = app_on(PathBuf::from("new.txt"), "", false);
    legal_deck(&mut app);
    search(&mut app, "Pikachu");
    assert!(app.results().len() > 12, "{}", app.results().len());
    let areas = super::ui::areas(SCREEN).unwrap();
    let results = super::ui::list_rows(areas.results);
    let deck = super::ui::list_rows(areas.deck);

    // The search box, then the third result.
    click(&mut app, areas.search.x + 3, areas.search.y + 1);
    assert_eq!(app.focus(), Focus::Search);
    click(&mut app, results.x + 5, results.y + 2);
    assert_eq!((app.focus(), app.result_at()), (Focus::Results, 2));
    assert_eq!(marked_row(&app, areas.results), Some(results.y + 2));

    // The wheel over the deck moves the deck's highlight and leaves the focus.
    mouse(&mut app, MouseEventKind::ScrollDown, deck.x + 2, deck.y + 1);
    assert_eq!((app.focus(), app.deck_at()), (Focus::Results, 1));
    // Down the results until they scroll, then a click on the top row shown.
    for _ in 0..10 {
        mouse(
            &mut app,
            MouseEventKind::ScrollDown,
            results.x + 1,
            results.y,
        );
    }
    assert_eq!(app.result_at(), 12);
    mouse(&mut app, MouseEventKind::ScrollUp, results.x + 1, results.y);
    assert_eq!(app.result_at(), 11);
    // The list scrolled to show the 13th result at the bottom, and scrolls no further
    // up than the highlight needs.
    let first = 13 - usize::from(results.height);
    assert_eq!(app.scroll.results_top.get(), first);
    assert_eq!(marked_row(&app, areas.results), Some(results.bottom() - 2));
    click(&mut app, results.x + 1, results.y);
    assert_eq!(app.result_at(), first);
    assert_eq!(marked_row(&app, areas.results), Some(results.y));

    // The deck: Pokémon heading, Dreepy, Energy heading, the Energy. A heading focuses the
    // deck and moves nothing; a line is highlighted, and `-` takes a copy of it.
    click(&mut app, deck.x + 3, deck.y);
    assert_eq!((app.focus(), app.deck_at()), (Focus::Deck, 1));
    click(&mut app, deck.x + 3, deck.y + 1);
    assert_eq!(app.deck_at(), 0);
    assert_eq!(marked_row(&app, areas.deck), Some(deck.y + 1));
    click(&mut app, deck.x + 3, deck.y + 3);
    assert_eq!(app.deck_at(), 1);
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(app.deck().card_count(), 59);
    // Below the last line, and outside every list: the focus moves, nothing else.
    click(&mut app, deck.x + 3, deck.bottom() - 1);
    assert_eq!(app.deck_at(), 1);
    click(&mut app, areas.verdict.x + 3, areas.verdict.y + 1);
    assert_eq!(app.focus(), Focus::Deck);

    // The help closes on a click; the question to quit does not.
    press(&mut app, KeyCode::Char('?'));
    click(&mut app, 40, 12);
    assert_eq!(app.overlay(), None);
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.overlay(), Some(Overlay::ConfirmQuit));
    click(&mut app, results.x + 1, results.y);
    assert_eq!(app.overlay(), Some(Overlay::ConfirmQuit));
    assert_eq!(app.focus(), Focus::Deck);
}

/// A new file named `*.json` is built and saved as JSON, which every command reads back (a
/// text list in a `.json` file would be no deck list deckbox can read).
#[test]
fn a_new_json_file_is_saved_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.json");
    let mut app = open_file(&path, "standard").unwrap();
    assert!(!app.dirty(), "nothing to save before a change");
    legal_deck(&mut app);
    save(&mut app);
    let saved = std::fs::read_to_string(&path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(value["total"], 60, "{saved}");
    let (deck, canonical) = check_saved(&path, "standard");
    assert!(deck.valid(), "{:?}", deck.diagnostics);
    assert!(canonical, "{saved}");
}

/// The terminal's keys as the model's: a character with Ctrl is `Ctrl`, a key released is
/// nothing, and a key the builder has no use for is `Other` (it still clears the status
/// line).
#[test]
fn terminal_keys_become_the_models_keys() {
    let key = |code, modifiers| super::key_message(KeyEvent::new(code, modifiers));
    assert_eq!(
        key(KeyCode::Char('s'), KeyModifiers::CONTROL),
        Some(Message::Key(Key::Ctrl('s')))
    );
    assert_eq!(
        key(KeyCode::Char('Q'), KeyModifiers::SHIFT),
        Some(Message::Key(Key::Char('Q')))
    );
    assert_eq!(
        key(KeyCode::BackTab, KeyModifiers::SHIFT),
        Some(Message::Key(Key::BackTab))
    );
    assert_eq!(
        key(KeyCode::F(5), KeyModifiers::NONE),
        Some(Message::Key(Key::Other))
    );
    let mut released = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
    released.kind = ratatui::crossterm::event::KeyEventKind::Release;
    assert_eq!(super::key_message(released), None);
}
