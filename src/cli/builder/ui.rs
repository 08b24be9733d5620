//! Drawing the builder: the search box on top, the results (with the highlighted card's
//! text) on the left, the deck on the right, the verdict below, and the help line at the
//! bottom. It reads the [`Builder`] and changes nothing, so a test draws it on a test backend.
//! Every text from the card data or the list goes through `util::escape::visible`: no
//! escape sequence reaches the terminal.

use std::cell::Cell;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, Paragraph, Wrap};

use deckbox::builder::{Builder, Focus, ODDS_TURN, Overlay};
use deckbox::cards::{Category, Printing};
use deckbox::check::diagnostic::Severity;
use deckbox::render::card_text::details_entry;
use deckbox::util::escape::visible;

/// The smallest terminal the builder draws in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// The help line, always shown; the short one on a narrow terminal.
const HELP_LINE: &str = " / search  ↑↓ j k move  + add  - remove  Tab results/deck  p printing  u undo  ^S save  ? help  q quit";
const SHORT_HELP_LINE: &str =
    " /search ↑↓move +add -remove Tab deck p printing u undo ^S save ?help q quit";

/// The `?` window.
const HELP: &[(&str, &str)] = &[
    (
        "/",
        "search: the search language, or a card (`Dreepy TWM 128`)",
    ),
    ("Enter", "in the search box: go to the results"),
    ("↑ ↓  j k", "move in the results or the deck"),
    ("+  Enter", "add one copy (in the deck: of the line)"),
    ("-", "remove one copy"),
    ("Tab", "switch between results and deck"),
    (
        "p",
        "in the deck: the line's next printing legal in the format",
    ),
    ("u", "undo the last change"),
    (
        "Ctrl-S",
        "save the list, as `deckbox fmt --write` writes it",
    ),
    ("q", "quit (asks when there are unsaved changes)"),
    ("click", "go to a result, a deck line or the search box"),
    ("wheel", "move in the list under the pointer"),
    ("?", "this help; any key or click closes it"),
];

/// The first line each list showed when last drawn: the view keeps the highlight in view
/// with as little scrolling as it can, and a click means the line drawn under it. The
/// terminal's own state, beside the model.
#[derive(Debug, Default)]
pub struct Scroll {
    pub results_top: Cell<usize>,
    pub deck_top: Cell<usize>,
}

/// Where each part of the screen goes: what is drawn there, and what a click there means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub search: Rect,
    pub results: Rect,
    /// The highlighted card's text, under the results.
    pub text: Rect,
    pub deck: Rect,
    pub verdict: Rect,
    pub status: Rect,
    pub help: Rect,
}

/// The parts of a screen of `area`; `None` when it is smaller than
/// [`MIN_WIDTH`]×[`MIN_HEIGHT`].
pub fn areas(area: Rect) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let verdict_height = (area.height / 4).clamp(6, 12);
    let [search, middle, verdict, status, help] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(8),
        Constraint::Length(verdict_height),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, deck] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(middle);
    // A short screen gives the results the larger share: they are what a player scans.
    let results_share = if middle.height < 20 { 62 } else { 55 };
    let [results, text] = Layout::vertical([
        Constraint::Percentage(results_share),
        Constraint::Percentage(100 - results_share),
    ])
    .areas(left);
    Some(Areas {
        search,
        results,
        text,
        deck,
        verdict,
        status,
        help,
    })
}

/// The rows of a bordered list panel: inside its border.
pub fn list_rows(panel: Rect) -> Rect {
    panel.inner(ratatui::layout::Margin::new(1, 1))
}

/// The first item shown of a list of one-line items in `rows` rows that showed `top`
/// first, and whose item `selected` must be in view: it scrolls only as far as the
/// highlight needs.
pub fn first_shown(top: usize, selected: usize, rows: usize) -> usize {
    top.clamp(selected.saturating_sub(rows.max(1) - 1), selected)
}

/// One line of the deck panel: a category's heading, or a deck row (an index into
/// [`Builder::rows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeckItem {
    Heading(Option<Category>),
    Row(usize),
}

/// The deck panel's lines, in order: each category's heading above its rows.
pub fn deck_items(app: &Builder) -> Vec<DeckItem> {
    let mut items = Vec::with_capacity(app.rows().len() + 4);
    let mut current: Option<Option<Category>> = None;
    for (at, row) in app.rows().iter().enumerate() {
        if current != Some(row.category) {
            current = Some(row.category);
            items.push(DeckItem::Heading(row.category));
        }
        items.push(DeckItem::Row(at));
    }
    items
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &Builder, scroll: &Scroll) {
    let area = frame.area();
    let Some(parts) = areas(area) else {
        let text = format!(
            "The terminal is {}×{}; deckbox build needs {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    draw_search(frame, app, parts.search);
    draw_results(frame, app, scroll, parts.results);
    draw_card_text(frame, app, parts.text);
    draw_deck(frame, app, scroll, parts.deck);
    draw_verdict(frame, app, parts.verdict);
    let message = app.message().unwrap_or("");
    frame.render_widget(
        Paragraph::new(format!(" {}", visible(message))).style(Style::new().fg(Color::Yellow)),
        parts.status,
    );
    let help_line = if HELP_LINE.chars().count() <= usize::from(area.width) {
        HELP_LINE
    } else {
        SHORT_HELP_LINE
    };
    frame.render_widget(
        Paragraph::new(help_line).style(Style::new().add_modifier(Modifier::REVERSED)),
        parts.help,
    );
    match app.overlay() {
        Some(Overlay::Help) => draw_help(frame, area),
        Some(Overlay::ConfirmQuit) => draw_confirm(frame, area),
        None => {}
    }
}

fn panel(title: String, focused: bool) -> Block<'static> {
    let block = Block::bordered().title(title);
    if focused {
        block.border_style(Style::new().fg(Color::Cyan))
    } else {
        block
    }
}

fn draw_search(frame: &mut Frame, app: &Builder, area: Rect) {
    let focused = app.focus() == Focus::Search;
    let mut spans = vec![Span::raw(visible(app.query()).into_owned())];
    if focused {
        spans.push(Span::styled(
            "_",
            Style::new().add_modifier(Modifier::SLOW_BLINK),
        ));
    }
    if let Some(error) = app.search_error() {
        spans.push(Span::styled(
            format!("   {}", visible(error)),
            Style::new().fg(Color::Red),
        ));
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans)).block(panel(" Search ".into(), focused)),
        area,
    );
}

fn draw_results(frame: &mut Frame, app: &Builder, scroll: &Scroll, area: Rect) {
    let title = match (app.results().len(), app.matched()) {
        (0, _) => " Results ".to_string(),
        (shown, matched) if shown < matched => format!(" Results ({shown} of {matched}) "),
        (shown, _) => format!(" Results ({shown}) "),
    };
    // Only the rows in view are judged: a wide query matches thousands of printings.
    let rows = usize::from(list_rows(area).height);
    let first = first_shown(scroll.results_top.get(), app.result_at(), rows);
    scroll.results_top.set(first);
    let width = usize::from(area.width.saturating_sub(3));
    let items: Vec<ListItem> = (app.results().iter().skip(first).take(rows))
        .filter_map(|&id| Some((id, app.db().get(id)?)))
        .map(|(id, printing)| ListItem::new(result_line(app, id, printing, width)))
        .collect();
    let mut state = ListState::default()
        .with_selected((!app.results().is_empty()).then_some(app.result_at() - first));
    let list = List::new(items)
        .block(panel(title, app.focus() == Focus::Results))
        .highlight_style(selected(app.focus() == Focus::Results))
        .highlight_symbol(">");
    frame.render_stateful_widget(list, area, &mut state);
}

fn selected(focused: bool) -> Style {
    if focused {
        Style::new().add_modifier(Modifier::REVERSED)
    } else {
        Style::new().add_modifier(Modifier::BOLD)
    }
}

/// Columns a result's name gets before the kind and HP columns are left out.
const NAME_ROOM: usize = 20;

/// `Dreepy         TWM 128   Basic   70 H legal`, and ` own 2` with `--have`.
fn result_line(app: &Builder, id: u32, printing: &Printing, width: usize) -> Line<'static> {
    let name = deckbox::search::shown_name(app.db(), id, app.language());
    let code = if printing.set_code.is_empty() {
        format!("{}-{}", printing.set_id, printing.number)
    } else {
        format!("{} {}", printing.set_code, printing.number)
    };
    let hp = (app.db().details(id).and_then(|d| d.hp)).map_or(String::new(), |hp| hp.to_string());
    let mark = printing.regulation_mark.map_or(' ', |m| m);
    let legal = app.legality(printing);
    let owned = app.owned(id).map_or(String::new(), |n| format!(" own {n}"));
    let full = format!(" {code:<8} {:<9} {hp:>3} {mark} ", kind(printing));
    let used = full.chars().count() + 5 + owned.chars().count();
    // On a narrow panel the kind and HP give way to the name (the card's text below shows
    // them): a name needs about 20 columns.
    let (middle, room) = if width.saturating_sub(used) >= NAME_ROOM {
        (full, width.saturating_sub(used))
    } else {
        let short = format!(" {code:<8} {mark} ");
        let used = short.chars().count() + 5 + owned.chars().count();
        (short, width.saturating_sub(used).max(8))
    };
    let name: String = visible(&name).chars().take(room).collect();
    let legal_style = match legal {
        "legal" => Style::new().fg(Color::Green),
        "?" => Style::new().fg(Color::Yellow),
        _ => Style::new().fg(Color::Red),
    };
    Line::from(vec![
        Span::raw(format!("{name:<room$}{middle}")),
        Span::styled(format!("{legal:<5}"), legal_style),
        Span::raw(owned),
    ])
}

/// `Basic`, `Stage 1`, `Supporter`, `Energy`: what kind of card a printing is.
fn kind(printing: &Printing) -> String {
    match printing.category {
        Category::Pokemon => printing.stage.map_or("Pokémon", |s| s.as_str()).to_string(),
        Category::Trainer => printing
            .trainer
            .map_or("Trainer", |t| t.label())
            .to_string(),
        Category::Energy => match printing.energy {
            Some(deckbox::cards::EnergyKind::Special) => "Special".into(),
            _ => "Energy".into(),
        },
    }
    .replace("Pokémon Tool", "Tool")
}

fn draw_card_text(frame: &mut Frame, app: &Builder, area: Rect) {
    let id = app.highlighted();
    let printing = id.and_then(|id| app.db().get(id));
    let title = match printing {
        Some(p) => format!(" {} ", visible(p.names.primary())),
        None => " Card ".into(),
    };
    let mut lines: Vec<Line> = Vec::new();
    if let Some(details) = id.and_then(|id| app.db().details(id)) {
        let entry = details_entry(details, app.language());
        if let Some(hp) = entry.hp {
            let types = printing.map(|p| p.types.join("/")).unwrap_or_default();
            lines.push(Line::from(format!("HP {hp} {types}")));
        }
        for ability in &entry.abilities {
            lines.push(Line::styled(
                format!("{}: {}", ability.kind, visible(&ability.name)),
                Style::new().add_modifier(Modifier::BOLD),
            ));
            lines.push(Line::from(visible(&ability.text).into_owned()));
        }
        for attack in &entry.attacks {
            let cost: String = (attack.cost.iter())
                .map(|t| deckbox::cards::sources::from_tcgdex::energy_symbol(t))
                .collect();
            lines.push(Line::styled(
                format!("[{cost}] {} {}", visible(&attack.name), attack.damage),
                Style::new().add_modifier(Modifier::BOLD),
            ));
            if !attack.text.is_empty() {
                lines.push(Line::from(visible(&attack.text).into_owned()));
            }
        }
        for paragraph in entry.text.lines() {
            lines.push(Line::from(visible(paragraph).into_owned()));
        }
    } else if printing.is_some() {
        lines.push(Line::from("(no text in the card database)"));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel(title, false)),
        area,
    );
}

fn draw_deck(frame: &mut Frame, app: &Builder, scroll: &Scroll, area: Rect) {
    let title = format!(" {} · {} ", app.name(), cards(app.deck().card_count()));
    let focused = app.focus() == Focus::Deck;
    let mut items: Vec<ListItem> = Vec::new();
    let mut selected_item = None;
    for item in deck_items(app) {
        let at = match item {
            DeckItem::Heading(category) => {
                items.push(heading(app, category));
                continue;
            }
            DeckItem::Row(at) => at,
        };
        let shown = app.rows().get(at);
        let Some((row, card)) = shown.and_then(|row| Some((row, app.deck().cards.get(row.card)?)))
        else {
            // Never: each row is a card of the deck. An empty line keeps the items where
            // `deck_items` (and so a click) says they are.
            items.push(ListItem::new(""));
            continue;
        };
        let line = &card.line;
        let code = match (&line.set, &line.number) {
            (Some(set), Some(number)) => format!(" {set} {number}"),
            (None, Some(number)) => format!(" {number}"),
            _ => String::new(),
        };
        let lacking = match app.lacking_of(row.card) {
            Some(0) => "  ✓".to_string(),
            Some(n) => format!("  -{n}"),
            None => String::new(),
        };
        if at == app.deck_at() {
            selected_item = Some(items.len());
        }
        items.push(ListItem::new(format!(
            "{:>2} {}{}{lacking}",
            line.count,
            visible(&line.name),
            visible(&code)
        )));
    }
    let rows = usize::from(list_rows(area).height);
    let first = first_shown(scroll.deck_top.get(), selected_item.unwrap_or(0), rows);
    scroll.deck_top.set(first);
    let mut state = ListState::default()
        .with_selected(selected_item)
        .with_offset(first);
    let list = List::new(items)
        .block(panel(title, focused))
        .highlight_style(selected(focused))
        .highlight_symbol(">");
    frame.render_stateful_widget(list, area, &mut state);
}

/// `Pokémon: 12`: a category's heading in the deck panel, with its cards.
fn heading(app: &Builder, category: Option<Category>) -> ListItem<'static> {
    let count: u64 = (app.rows().iter())
        .filter(|r| r.category == category)
        .filter_map(|r| app.deck().cards.get(r.card))
        .map(|card| u64::from(card.line.count))
        .sum();
    let heading = match category {
        Some(Category::Pokemon) => "Pokémon",
        Some(Category::Trainer) => "Trainer",
        Some(Category::Energy) => "Energy",
        None => "Not identified",
    };
    ListItem::new(Line::styled(
        format!("{heading}: {count}"),
        Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
    ))
}

/// `1 card`, `60 cards`.
fn cards(count: u64) -> String {
    if count == 1 {
        "1 card".into()
    } else {
        format!("{count} cards")
    }
}

fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn draw_verdict(frame: &mut Frame, app: &Builder, area: Rect) {
    let deck = app.deck();
    let valid = deck.valid();
    let (word, style) = if valid {
        ("valid", Style::new().fg(Color::Green))
    } else {
        ("not valid", Style::new().fg(Color::Red))
    };
    let mulligan = match &app.odds().mulligan {
        Some(Ok(p)) => format!("P(mulligan) {}", percent(*p)),
        Some(Err(why)) => format!("P(mulligan) — ({why})"),
        None => "P(mulligan) —".into(),
    };
    let mut head = vec![
        Span::styled(
            format!("{} · {word}", cards(deck.card_count())),
            style.add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(
            " in {} at {} · {mulligan}",
            visible(&deck.format),
            deck.as_of
        )),
    ];
    if let Some(lacking) = app.lacking() {
        head.push(Span::raw(format!(" · {} not owned", lacking.missing())));
    }
    let mut lines = vec![Line::from(head)];
    let mulligan_known = matches!(app.odds().mulligan, Some(Ok(_)));
    if let Some((name, odds)) = app.highlighted_odds().filter(|_| mulligan_known) {
        let odds = match odds {
            Ok((hand, by_turn)) => format!(
                "opening hand {} · by turn {} {}",
                percent(hand),
                ODDS_TURN,
                percent(by_turn)
            ),
            Err(why) => why,
        };
        lines.push(Line::from(format!("{}: {odds}", visible(&name))));
    }
    // The findings that fit (each wraps to the panel's width); the last row says how many
    // more there are when some do not.
    let width = usize::from(area.width.saturating_sub(2)).max(1);
    let rows_of = |line: &Line| wrapped_rows(&line.to_string(), width);
    let mut free = usize::from(area.height.saturating_sub(2))
        .saturating_sub(lines.iter().map(rows_of).sum::<usize>());
    let findings = &deck.diagnostics;
    for (shown, finding) in findings.iter().enumerate() {
        let line = finding_line(finding);
        let rows = rows_of(&line);
        let left = findings.len() - shown;
        // Keep a row for the count unless this is the last finding and it fits.
        if rows > free || (left > 1 && rows + 1 > free) {
            lines.push(Line::styled(
                format!(
                    "… and {left} more finding{} (`deckbox check` lists every one)",
                    if left == 1 { "" } else { "s" }
                ),
                Style::new().add_modifier(Modifier::ITALIC),
            ));
            break;
        }
        free -= rows;
        lines.push(line);
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel(" Verdict ".into(), false)),
        area,
    );
}

/// The rows `text` takes when wrapped at word boundaries to `width` columns (a word wider
/// than the row is cut), as the verdict panel wraps it.
fn wrapped_rows(text: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        let len = Span::raw(word).width();
        let needed = if used == 0 { len } else { used + 1 + len };
        if needed <= width {
            used = needed;
        } else if len <= width {
            rows += 1;
            used = len;
        } else {
            rows += usize::from(used > 0) + (len - 1) / width;
            used = (len - 1) % width + 1;
        }
    }
    rows
}

/// One finding of the verdict panel: severity and rule in color, then line and message.
fn finding_line(finding: &deckbox::check::diagnostic::Diagnostic) -> Line<'static> {
    let color = match finding.severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Info => Color::Blue,
    };
    let at = finding
        .line
        .map_or(String::new(), |line| format!("line {line}: "));
    Line::from(vec![
        Span::styled(
            format!("{} {}", finding.severity.as_str(), finding.rule.id()),
            Style::new().fg(color),
        ),
        Span::raw(format!(": {at}{}", visible(&finding.message))),
    ])
}

/// A window of `width`×`height` in the middle of `area`.
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let lines: Vec<Line> = HELP
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{key:<10}"),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    let window = centered(area, 78, HELP.len() as u16 + 2);
    frame.render_widget(Clear, window);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" Keys ")),
        window,
    );
}

fn draw_confirm(frame: &mut Frame, area: Rect) {
    let window = centered(area, 44, 3);
    frame.render_widget(Clear, window);
    frame.render_widget(
        Paragraph::new("Unsaved changes. Quit anyway? (y/n)")
            .block(Block::bordered().title(" Quit ")),
        window,
    );
}
