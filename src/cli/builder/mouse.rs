//! The mouse in the builder, as messages to the model: a click on a result or a deck line
//! focuses that panel and highlights the line, a click in the search box focuses it, and
//! the wheel moves the highlight of the list under the pointer (the list scrolls with it).
//! Where things are is what `ui.rs` drew last ([`ui::areas`], [`ui::Scroll`],
//! [`ui::deck_items`]), so a click lands on the line shown under it. Nothing here touches a
//! terminal: a test sends made-up events.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::ui::{self, DeckItem, Scroll};
use deckbox::builder::{Builder, Focus, Message, Overlay};

/// Rows the wheel moves the highlight by, a notch at a time.
const WHEEL_ROWS: isize = 1;

/// What one mouse event on a screen of `screen` (the terminal's size), drawn as `scroll`
/// says, means to the builder.
pub(crate) fn mouse(
    app: &Builder,
    scroll: &Scroll,
    event: MouseEvent,
    screen: Rect,
) -> Option<Message> {
    let at = Position::new(event.column, event.row);
    let areas = ui::areas(screen)?;
    match (app.overlay(), event.kind) {
        // The help closes on a click, as on any key; the question to quit waits for `y`/`n`.
        (Some(Overlay::Help), MouseEventKind::Down(_)) => Some(Message::CloseOverlay),
        (Some(_), _) => None,
        (None, MouseEventKind::Down(MouseButton::Left)) => click(app, scroll, &areas, at),
        (None, MouseEventKind::ScrollDown) => wheel(&areas, at, WHEEL_ROWS),
        (None, MouseEventKind::ScrollUp) => wheel(&areas, at, -WHEEL_ROWS),
        (None, _) => None,
    }
}

fn click(app: &Builder, scroll: &Scroll, areas: &ui::Areas, at: Position) -> Option<Message> {
    if areas.search.contains(at) {
        Some(Message::Focus(Focus::Search))
    } else if areas.results.contains(at) {
        let row = item_under(areas.results, at, scroll.results_top.get());
        Some(Message::Select {
            list: Focus::Results,
            row,
        })
    } else if areas.deck.contains(at) {
        Some(Message::Select {
            list: Focus::Deck,
            row: deck_row_under(app, scroll, areas.deck, at),
        })
    } else {
        None
    }
}

fn wheel(areas: &ui::Areas, at: Position, by: isize) -> Option<Message> {
    let list = if areas.results.contains(at) {
        Focus::Results
    } else if areas.deck.contains(at) {
        Focus::Deck
    } else {
        return None;
    };
    Some(Message::Scroll { list, by })
}

/// The list item drawn at `at` in a list panel that showed item `top` first.
fn item_under(panel: Rect, at: Position, top: usize) -> Option<usize> {
    let rows = ui::list_rows(panel);
    rows.contains(at)
        .then(|| top + usize::from(at.y.saturating_sub(rows.y)))
}

/// The deck row drawn at `at`; `None` on a heading or below the last line.
fn deck_row_under(app: &Builder, scroll: &Scroll, panel: Rect, at: Position) -> Option<usize> {
    let items = ui::deck_items(app);
    match items.get(item_under(panel, at, scroll.deck_top.get())?)? {
        DeckItem::Row(row) => Some(*row),
        DeckItem::Heading(_) => None,
    }
}
