//! The mouse in the builder: a click on a result or a deck line focuses that panel and
//! highlights the line, a click in the search box focuses it, and the wheel moves the
//! highlight of the list under the pointer (the list scrolls with it). Where things are is
//! what `ui.rs` drew last ([`ui::areas`], [`App::results_top`], [`ui::deck_items`]), so a
//! click lands on the line shown under it. Like `app.rs`, nothing here touches a terminal: a test
//! sends made-up events.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::app::{App, Focus, Overlay};
use super::ui::{self, DeckItem};

/// Rows the wheel moves the highlight by, a notch at a time.
const WHEEL_ROWS: isize = 1;

/// Handles one mouse event on a screen of `screen` (the terminal's size).
pub(crate) fn mouse(app: &mut App, event: MouseEvent, screen: Rect) {
    let at = Position::new(event.column, event.row);
    let Some(areas) = ui::areas(screen) else {
        return;
    };
    match (app.overlay, event.kind) {
        // The help closes on a click, as on any key; the question to quit waits for `y`/`n`.
        (Some(Overlay::Help), MouseEventKind::Down(_)) => app.overlay = None,
        (Some(_), _) => {}
        (None, MouseEventKind::Down(MouseButton::Left)) => click(app, &areas, at),
        (None, MouseEventKind::ScrollDown) => wheel(app, &areas, at, WHEEL_ROWS),
        (None, MouseEventKind::ScrollUp) => wheel(app, &areas, at, -WHEEL_ROWS),
        (None, _) => {}
    }
}

fn click(app: &mut App, areas: &ui::Areas, at: Position) {
    if areas.search.contains(at) {
        app.message = None;
        app.focus = Focus::Search;
    } else if areas.results.contains(at) {
        app.message = None;
        // The results of the query in the box, as a key in the results would see them.
        app.refresh_search();
        app.focus = Focus::Results;
        if let Some(index) = result_under(app, areas.results, at) {
            app.result_at = index;
        }
    } else if areas.deck.contains(at) {
        app.message = None;
        app.focus = Focus::Deck;
        if let Some(row) = deck_row_under(app, areas.deck, at) {
            app.deck_at = row;
        }
    }
}

fn wheel(app: &mut App, areas: &ui::Areas, at: Position, by: isize) {
    if areas.results.contains(at) {
        app.refresh_search();
        app.move_in(Focus::Results, by);
    } else if areas.deck.contains(at) {
        app.move_in(Focus::Deck, by);
    }
}

/// The list item drawn at `at` in a list panel that showed item `top` first.
fn item_under(panel: Rect, at: Position, top: usize) -> Option<usize> {
    let rows = ui::list_rows(panel);
    rows.contains(at)
        .then(|| top + usize::from(at.y.saturating_sub(rows.y)))
}

/// The result drawn at `at`, if any.
fn result_under(app: &App, panel: Rect, at: Position) -> Option<usize> {
    item_under(panel, at, app.results_top.get()).filter(|&index| index < app.results.len())
}

/// The deck row drawn at `at`; `None` on a heading or below the last line.
fn deck_row_under(app: &App, panel: Rect, at: Position) -> Option<usize> {
    let items = ui::deck_items(app);
    match items.get(item_under(panel, at, app.deck_top.get())?)? {
        DeckItem::Row(row) => Some(*row),
        DeckItem::Heading(_) => None,
    }
}
