//! The event table: one row per deck, for an organizer checking every list of a tournament
//! (`deckbox check DIR --output csv | markdown | html`).
//!
//! A row says whose deck it is (a `# player: NAME` comment line, else the file name), its
//! title (the free-text or comment line a list may open with, `Charizard ex - 1st place
//! Regional`), the format and date it was judged at, its card count, its verdict with the number of errors
//! and warnings and the first error, and its main attackers: the Pokémon with a Rule Box it
//! plays most, a hint of the archetype. [`EventRow::of`] builds a row from a checked deck;
//! the renderers write a row at a time, so a report streams like the others. Rows come in
//! the order the files were walked: by path.

use crate::cards::{CardDb, Category};
use crate::check::CheckedDeck;
use crate::check::diagnostic::{Diagnostic, Severity};

use super::stats_html::escape;

/// Most attackers a row names.
const ATTACKERS: usize = 2;

/// One deck of the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub file: String,
    pub player: String,
    /// The list's title line ([`crate::deck::Title`]), empty when it has none.
    pub title: String,
    pub format: String,
    pub as_of: String,
    pub cards: u64,
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    /// `line N: rule: message` of the first error.
    pub first_error: Option<String>,
    /// Every finding, `line N: severity rule: message`, in the deck's order: the page shows
    /// them under the first error.
    pub findings: Vec<String>,
    /// The Pokémon with a Rule Box the deck plays most (by copies, then name).
    pub attackers: Vec<String>,
    /// Cards the deck still lacks from a collection (`check --have`); `None` without one,
    /// and then the table has no `missing` column.
    pub missing: Option<u64>,
}

impl EventRow {
    pub fn of(deck: &CheckedDeck, db: &CardDb) -> EventRow {
        let at = |diagnostic: &Diagnostic| {
            diagnostic
                .line
                .map(|line| format!("line {line}: "))
                .unwrap_or_default()
        };
        let first_error = deck
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.severity == Severity::Error)
            .map(|diagnostic| {
                let message = plain(&diagnostic.message);
                format!("{}{}: {message}", at(diagnostic), diagnostic.rule.id())
            });
        let findings = deck
            .diagnostics
            .iter()
            .map(|diagnostic| {
                format!(
                    "{}{} {}: {}",
                    at(diagnostic),
                    diagnostic.severity.as_str(),
                    diagnostic.rule.id(),
                    plain(&diagnostic.message)
                )
            })
            .collect();
        EventRow {
            file: deck.path.clone(),
            player: player(deck),
            title: title(deck),
            format: deck.format.clone(),
            as_of: deck.as_of.to_string(),
            cards: deck.card_count(),
            valid: deck.valid(),
            errors: deck.count(Severity::Error),
            warnings: deck.count(Severity::Warning),
            first_error,
            findings,
            attackers: attackers(deck, db),
            missing: None,
        }
    }

    fn verdict(&self) -> &'static str {
        if self.valid { "valid" } else { "invalid" }
    }

    /// The row's cells, in [`HEADERS`] order, then [`MISSING`] when the row has it.
    fn cells(&self) -> Vec<String> {
        let mut cells = vec![
            self.file.clone(),
            self.player.clone(),
            self.title.clone(),
            self.format.clone(),
            self.as_of.clone(),
            self.cards.to_string(),
            self.verdict().to_string(),
            self.errors.to_string(),
            self.warnings.to_string(),
            self.first_error.clone().unwrap_or_default(),
            self.attackers.join(" / "),
        ];
        cells.extend(self.missing.map(|missing| missing.to_string()));
        cells
    }
}

/// The column `check --have` adds: cards each deck still lacks from the collection.
pub const MISSING: &str = "missing";

/// The column names, with [`MISSING`] when `missing`.
fn headers(missing: bool) -> Vec<&'static str> {
    let mut headers = HEADERS.to_vec();
    if missing {
        headers.push(MISSING);
    }
    headers
}

/// The column names.
pub const HEADERS: [&str; 11] = [
    "file",
    "player",
    "title",
    "format",
    "date",
    "cards",
    "verdict",
    "errors",
    "warnings",
    "first error",
    "main attackers",
];

/// The player a deck names in a comment line (`# player: Ash Ketchum`, `// Player: ...`),
/// else the file's name without its extension.
pub fn player(deck: &CheckedDeck) -> String {
    written_player(deck).unwrap_or_else(|| {
        let path = std::path::Path::new(&deck.path);
        path.file_stem().map_or_else(
            || deck.path.clone(),
            |stem| stem.to_string_lossy().into_owned(),
        )
    })
}

/// The word for "player" before the name, in every language deckbox reads.
const PLAYER_WORDS: [&str; 6] = [
    "player",
    "joueur",
    "jugador",
    "jogador",
    "spieler",
    "giocatore",
];

/// The player a deck names in a comment line (`# player: Ash Ketchum`, `// Player: ...`,
/// `// Joueur : Pierre`, in any language deckbox reads).
pub fn written_player(deck: &CheckedDeck) -> Option<String> {
    let comments = deck
        .source
        .lines()
        .map(str::trim)
        .filter_map(|line| {
            line.strip_prefix('#')
                .or_else(|| line.strip_prefix("//"))
                .map(str::trim)
        })
        .chain(deck.list.comments.iter().map(|line| {
            line.trim()
                .trim_start_matches('#')
                .trim_start_matches("//")
                .trim()
        }));
    comments.filter_map(player_comment).next()
}

/// The player a comment names (`player: Ash Ketchum`, `Joueur : Pierre`), if it is one.
fn player_comment(comment: &str) -> Option<String> {
    let (key, value) = comment.split_once(':')?;
    let key = key.trim();
    let value = value.trim();
    (PLAYER_WORDS
        .iter()
        .any(|word| key.eq_ignore_ascii_case(word))
        && !value.is_empty())
    .then(|| value.to_string())
}

/// The list's title line, unless it is the player's comment (the player column has it).
fn title(deck: &CheckedDeck) -> String {
    match &deck.list.title {
        Some(title) if player_comment(&title.text).is_none() => title.text.clone(),
        _ => String::new(),
    }
}

/// The deck's Pokémon with a Rule Box, most copies first (then by name), at most
/// [`ATTACKERS`]; every printing of a name counted together.
fn attackers(deck: &CheckedDeck, db: &CardDb) -> Vec<String> {
    let mut copies: Vec<(String, u64)> = Vec::new();
    for card in &deck.cards {
        let Some(printing) = card.printing.and_then(|id| db.get(id)) else {
            continue;
        };
        if printing.category != Category::Pokemon || !printing.has_rule_box() {
            continue;
        }
        let name = crate::names::canonical(printing.names.primary());
        match copies.iter_mut().find(|(known, _)| *known == name) {
            Some((_, count)) => *count += u64::from(card.line.count),
            None => copies.push((name, u64::from(card.line.count))),
        }
    }
    copies.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    copies
        .into_iter()
        .take(ATTACKERS)
        .map(|(name, _)| name)
        .collect()
}

/// A finding's message for a table cell: the backticks that mark code in the terminal and
/// in Markdown (`` `--format` ``) become plain quotes, since a CSV cell or a page would show
/// them as they are.
fn plain(message: &str) -> String {
    message.replace('`', "'")
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A field a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a `'` in front, and
/// invisible characters are written as `\u{...}` ([`crate::util::escape::visible`]).
pub(crate) fn csv_field(text: &str) -> String {
    let text = crate::util::escape::visible(text);
    let text = match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.into_owned(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// The CSV header line.
pub fn csv_header(missing: bool) -> String {
    let cells: Vec<String> = headers(missing).iter().map(|h| csv_field(h)).collect();
    format!("{}\r\n", cells.join(","))
}

/// One CSV record (CRLF-terminated, as RFC 4180 writes them).
pub fn csv_row(row: &EventRow) -> String {
    let cells: Vec<String> = row.cells().iter().map(|cell| csv_field(cell)).collect();
    format!("{}\r\n", cells.join(","))
}

/// A Markdown table cell: on one line, nothing in it read as markup
/// ([`crate::util::escape::markdown`]).
fn markdown_cell(text: &str) -> String {
    crate::util::escape::markdown(text)
}

/// The Markdown table's header and separator lines.
pub fn markdown_header(missing: bool) -> String {
    let headers = headers(missing);
    let separator: Vec<&str> = headers.iter().map(|_| "---").collect();
    format!(
        "| {} |\n| {} |\n",
        headers.join(" | "),
        separator.join(" | ")
    )
}

pub fn markdown_row(row: &EventRow) -> String {
    let cells: Vec<String> = row.cells().iter().map(|cell| markdown_cell(cell)).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// The closing line of every table: decks, valid and invalid, files not read, and files the
/// walk skipped although their names say they may hold a list.
pub fn summary(decks: usize, valid: usize, failures: usize, skipped: usize) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let mut line = format!(
        "{decks} deck{}: {valid} valid, {} invalid",
        s(decks),
        decks - valid.min(decks)
    );
    if failures > 0 {
        line.push_str(&format!(
            "; {failures} file{} could not be read",
            s(failures)
        ));
    }
    if skipped > 0 {
        line.push_str(&format!(
            "; {skipped} file{} skipped, not named as deck lists",
            s(skipped)
        ));
    }
    line
}

/// Numeric columns sort as numbers in the page.
const NUMERIC: [bool; 11] = [
    false, false, false, false, false, true, false, true, true, false, false,
];

/// The columns of the page, in the page's order: the file first (kept in view while the
/// table scrolls sideways), then the verdict a reader came for, then the others as in
/// [`HEADERS`], [`MISSING`] last.
const PAGE_ORDER: [usize; 12] = [0, 6, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11];

/// Indexes of the date, the verdict and the first error columns in [`HEADERS`].
const DATE: usize = 4;
const VERDICT: usize = 6;
const FIRST_ERROR: usize = 9;

/// `items` (one per column, in [`HEADERS`] order) in the page's order, each with its column
/// index in [`HEADERS`].
fn in_page_order<T>(items: Vec<T>) -> Vec<(usize, T)> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    PAGE_ORDER
        .iter()
        .filter_map(|&index| Some((index, slots.get_mut(index)?.take()?)))
        .collect()
}

/// Whether column `index` of [`HEADERS`] (or [`MISSING`]) holds numbers.
fn numeric(index: usize) -> bool {
    NUMERIC.get(index).copied().unwrap_or(true)
}

/// The HTML page up to the table's body.
pub fn html_head(title: &str, missing: bool) -> String {
    let headers: String = in_page_order(headers(missing))
        .into_iter()
        .enumerate()
        .map(|(position, (index, name))| {
            let kind = if numeric(index) { "num" } else { "text" };
            format!(
                "<th data-col=\"{position}\" data-kind=\"{kind}\" tabindex=\"0\" aria-sort=\"none\">{}</th>",
                escape(name)
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n<p class=\"hint\">Click a column to sort; click again to reverse. Invalid decks are marked.</p>\n<div class=\"scroll\">\n<table id=\"event\">\n<thead><tr>{headers}</tr></thead>\n<tbody>\n",
        title = escape(title)
    )
}

pub fn html_row(row: &EventRow) -> String {
    let class = if row.valid { "valid" } else { "invalid" };
    let cells: String = in_page_order(row.cells())
        .into_iter()
        .map(|(index, cell)| {
            let class = match index {
                VERDICT => " class=\"verdict\"",
                DATE => " class=\"date\"",
                _ if numeric(index) => " class=\"num\"",
                _ => "",
            };
            let shown = match index {
                FIRST_ERROR => findings_html(&cell, &row.findings),
                _ => escape(&cell),
            };
            format!("<td{class}>{shown}</td>")
        })
        .collect();
    format!("<tr class=\"{class}\">{cells}</tr>\n")
}

/// The first error's cell of the page: the first error, and when the deck has other
/// findings a disclosure that lists every one (`every finding (5)`).
fn findings_html(first_error: &str, findings: &[String]) -> String {
    let shown = escape(first_error);
    // Nothing more to show: no finding, or only the first error itself.
    if findings.len() <= usize::from(!first_error.is_empty()) {
        return shown;
    }
    let items: String = findings
        .iter()
        .map(|finding| format!("<li>{}</li>", escape(finding)))
        .collect();
    format!(
        "{shown}<details><summary>every finding ({})</summary><ul>{items}</ul></details>",
        findings.len()
    )
}

/// The rest of the page: the summary line and the sorting script.
pub fn html_tail(summary: &str) -> String {
    format!(
        "</tbody>\n</table>\n</div>\n<p id=\"summary\">{}</p>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(summary)
    )
}

/// The page's style. On a narrow screen (a phone) the page never scrolls sideways: the
/// table scrolls in its own box, the file column stays in view (sticky) and wraps, and the
/// verdict comes right after it.
const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5rem;color:#1d1d1f}\
h1{font-size:1.4rem;margin:0 0 .3rem;overflow-wrap:anywhere}.hint{color:#555;margin:0 0 1rem;font-size:.9rem}\
.scroll{overflow-x:auto;max-width:100%}\
table{border-collapse:separate;border-spacing:0;font-size:.9rem;width:100%}\
th,td{border:1px solid #ccc;border-width:0 1px 1px 0;padding:.3rem .5rem;text-align:left;vertical-align:top;background:#fff}\
tr>:first-child{border-left-width:1px;position:sticky;left:0;z-index:1;min-width:9em;max-width:40vw;overflow-wrap:anywhere}\
thead th{border-top-width:1px}\
th{background:#f0f0f3;cursor:pointer;user-select:none;white-space:nowrap}\
th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}\
td.num{text-align:right;font-variant-numeric:tabular-nums}td.verdict,td.date{white-space:nowrap}td.verdict{font-weight:600}\
tr.invalid td{background:#fdecea}tr.invalid td.verdict{color:#b00020}tr.valid td.verdict{color:#1b6e20}\
details{margin-top:.25rem}summary{cursor:pointer;color:#333}details ul{margin:.25rem 0 0;padding-left:1.2rem}\
#summary{font-weight:600}@media (max-width:600px){body{margin:.75rem}}";

/// Sorts the table by a column on click (or Enter), numbers as numbers; `#sort=COLUMN` or
/// `#sort=-COLUMN` in the address sorts on load (a column by its name, as in the header).
const SCRIPT: &str = r#"(function(){
var table=document.getElementById('event');var body=table.tBodies[0];
var heads=Array.prototype.slice.call(table.tHead.rows[0].cells);
function sortBy(col,desc){var numeric=heads[col].getAttribute('data-kind')==='num';
var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(a,b){var x=a.cells[col].textContent,y=b.cells[col].textContent;
var c=numeric?(parseFloat(x)||0)-(parseFloat(y)||0):x.localeCompare(y);
if(c===0){c=a.cells[0].textContent.localeCompare(b.cells[0].textContent);}return desc?-c:c;});
rows.forEach(function(r){body.appendChild(r);});
heads.forEach(function(h,i){h.setAttribute('aria-sort',i===col?(desc?'descending':'ascending'):'none');});}
heads.forEach(function(h,i){function go(){sortBy(i,h.getAttribute('aria-sort')==='ascending');}
h.addEventListener('click',go);h.addEventListener('keydown',function(e){if(e.key==='Enter'){go();}});});
var m=/sort=(-?)([^&]+)/.exec(decodeURIComponent(location.hash));
if(m){heads.forEach(function(h,i){if(h.textContent===m[2]){sortBy(i,m[1]==='-');}});}
})();"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("-1"), "'-1");
    }

    #[test]
    fn markdown_cells_escape_pipes() {
        assert_eq!(markdown_cell("a|b\nc"), "a\\|b c");
    }

    #[test]
    fn summary_counts() {
        assert_eq!(summary(1, 1, 0, 0), "1 deck: 1 valid, 0 invalid");
        assert_eq!(
            summary(3, 1, 2, 0),
            "3 decks: 1 valid, 2 invalid; 2 files could not be read"
        );
        assert_eq!(
            summary(10, 10, 0, 2),
            "10 decks: 10 valid, 0 invalid; 2 files skipped, not named as deck lists"
        );
    }
}
