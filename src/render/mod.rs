//! Renderers: the same findings as human diagnostics, short lines, JSON or SARIF; and every
//! other page deckbox shows (statistics, cards, formats, rule docs in [`explain`], sample
//! deals in [`sample`]; a repository's deck changes in [`review`]).
//!
//! Every renderer takes checked decks and returns a `String` (the registration sheet
//! ([`sheet`]) returns a PDF's bytes); none prints. Machine output
//! (short, JSON, SARIF) has no banners and no colour. The JSON layout is a contract (see the
//! README): keys are only ever added.

pub mod card;
pub mod card_text;
pub mod caret;
pub mod config;
pub mod event;
pub mod everywhere;
pub mod explain;
pub mod formats;
pub mod need;
pub mod percent;
pub mod review;
pub mod rules_reference;
pub mod sample;
pub mod sarif;
pub mod search;
pub mod sheet;
pub mod stats_html;
pub mod stats_text;
pub mod stream;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};
use serde::Serialize;

use crate::cards::CardDb;
use crate::check::CheckedDeck;
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::util::escape::{hidden, visible, visible_line};

/// How findings are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// Diagnostics pointing at the line as written, with help (also named `text`).
    #[default]
    #[cfg_attr(feature = "cli", value(alias = "text"))]
    Human,
    /// One line per finding: `file:line:col: rule: message`.
    Short,
    /// One JSON document for all decks.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// One row per deck (player, verdict, first error, main attackers), for an event.
    Csv,
    /// The event table as a GitHub table.
    Markdown,
    /// The event table as a self-contained, sortable HTML page.
    Html,
}

/// Options of the human renderer.
#[derive(Debug, Clone, Copy)]
pub struct HumanOptions {
    pub color: bool,
    pub width: usize,
}

impl Default for HumanOptions {
    fn default() -> HumanOptions {
        HumanOptions {
            color: false,
            width: 100,
        }
    }
}

/// How many findings of one deck the human renderer draws; the rest are counted. A person
/// reads the first screens; `--output short` lists everything.
pub const MAX_HUMAN_FINDINGS: usize = 100;

/// Human rendering of one deck: its title (when the list has one), its findings with their
/// source lines, then a summary line.
pub fn human(deck: &CheckedDeck, options: HumanOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let mut out = String::new();
    if let Some(title) = &deck.list.title {
        out.push_str(&format!(
            "{}: {}\n\n",
            visible_line(&deck.path),
            visible_line(&title.text)
        ));
    }
    let path = visible_line(&deck.path).into_owned();
    let source = visible_source(&deck.source);
    for diagnostic in deck.diagnostics.iter().take(MAX_HUMAN_FINDINGS) {
        let report = miette::Report::new(to_miette(diagnostic))
            .with_source_code(NamedSource::new(path.clone(), source.clone()).with_language("text"));
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out.push_str(&short_line(deck, diagnostic));
        }
        out.push('\n');
    }
    if let Some(hidden) = deck.diagnostics.len().checked_sub(MAX_HUMAN_FINDINGS)
        && hidden > 0
    {
        out.push_str(&format!(
            "... and {hidden} more findings; `--output short` lists every one\n\n"
        ));
    }
    out.push_str(&summary(deck));
    out.push('\n');
    out
}

/// `deck.txt: valid, 60 cards (unlimited)` or `deck.txt: 2 errors, 1 warning, ...`.
pub fn summary(deck: &CheckedDeck) -> String {
    let errors = deck.count(Severity::Error);
    let warnings = deck.count(Severity::Warning);
    let verdict = match (errors, warnings) {
        (0, 0) => "valid".to_string(),
        (0, w) => format!("valid with {w} warning{}", if w == 1 { "" } else { "s" }),
        (e, 0) => format!("invalid, {e} error{}", if e == 1 { "" } else { "s" }),
        (e, w) => format!(
            "invalid, {e} error{}, {w} warning{}",
            if e == 1 { "" } else { "s" },
            if w == 1 { "" } else { "s" }
        ),
    };
    format!(
        "{}: {verdict} ({} cards, format {} as of {})",
        visible_line(&deck.path),
        deck.card_count(),
        visible_line(&deck.format),
        deck.as_of
    )
}

/// `checked 3 decks: 2 valid, 1 invalid`, for runs over several decks.
pub fn totals(decks: usize, valid: usize) -> String {
    format!(
        "checked {decks} decks: {valid} valid, {} invalid\n",
        decks - valid.min(decks)
    )
}

fn to_miette(diagnostic: &Diagnostic) -> MietteDiagnostic {
    let severity = match diagnostic.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    };
    let mut labels = Vec::new();
    if let Some(span) = diagnostic.span {
        labels.push(LabeledSpan::new_primary_with_span(
            diagnostic
                .label
                .as_deref()
                .map(|label| visible(label).into_owned()),
            (span.offset, span.length),
        ));
    }
    for related in &diagnostic.related {
        labels.push(LabeledSpan::new_with_span(
            Some(visible(&related.message).into_owned()),
            (related.span.offset, related.span.length),
        ));
    }
    let mut out = MietteDiagnostic::new(visible(&diagnostic.message))
        .with_code(diagnostic.rule.id())
        .with_severity(severity)
        .with_labels(labels);
    if let Some(help) = &diagnostic.help {
        out = out.with_help(visible(help));
    }
    out
}

/// Short rendering: one line per finding, no colour.
pub fn short(deck: &CheckedDeck) -> String {
    deck.diagnostics
        .iter()
        .map(|diagnostic| short_line(deck, diagnostic) + "\n")
        .collect()
}

fn short_line(deck: &CheckedDeck, diagnostic: &Diagnostic) -> String {
    format!(
        "{}:{}:{}: {} {}: {}",
        visible_line(&deck.path),
        diagnostic.line.unwrap_or(1),
        diagnostic.column.unwrap_or(1),
        diagnostic.severity.as_str(),
        diagnostic.rule.id(),
        visible(&diagnostic.message)
    )
}

/// The deck's text as the human renderer quotes it: each `hidden` character replaced by
/// one of the same length in bytes (`?` for one byte, `??` for two, U+FFFD for three), so
/// the findings' byte spans still point at the same text. A BOM at the very start is kept:
/// the parser skips it and a terminal shows nothing for it.
fn visible_source(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    for (offset, c) in source.char_indices() {
        if !hidden(c) || (offset == 0 && c == '\u{FEFF}') {
            out.push(c);
            continue;
        }
        match c.len_utf8() {
            1 => out.push('?'),
            2 => out.push_str("??"),
            3 => out.push('\u{FFFD}'),
            _ => out.push_str("????"),
        }
    }
    out
}

#[derive(Serialize)]
struct JsonDeck<'a> {
    /// The file's name; one that is not UTF-8 with U+FFFD for each byte that is not, and
    /// every byte in `path_bytes`.
    path: std::borrow::Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    /// The list's title (its first line, when free text or a comment), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    format: &'a str,
    /// The date the deck was judged at (`YYYY-MM-DD`).
    as_of: String,
    language: Option<&'static str>,
    valid: bool,
    card_count: u64,
    errors: usize,
    warnings: usize,
    cards: Vec<JsonCard<'a>>,
    diagnostics: &'a [Diagnostic],
}

#[derive(Serialize)]
struct JsonCard<'a> {
    /// English name when known.
    name: Option<String>,
    written: &'a str,
    count: u32,
    set: Option<String>,
    number: Option<String>,
    category: Option<&'static str>,
    line: usize,
    /// The language whose name matched.
    language: Option<&'static str>,
}

/// JSON rendering of all decks in one document (pretty-printed, newline-terminated).
pub fn json(decks: &[CheckedDeck], db: &CardDb) -> String {
    let style = stream::Style {
        output: OutputFormat::Json,
        human: HumanOptions::default(),
    };
    stream::to_string(decks, &[], style, |deck, index| {
        stream::Piece::render(deck, index, style, db)
    })
}

/// Pretty JSON and a final newline: what every `--output json` of a statistics command
/// prints (the report, a comparison, a variation, the mid-game odds).
pub fn json_document(value: &impl serde::Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value).map(|json| json + "\n")
}

fn json_deck<'a>(deck: &'a CheckedDeck, db: &CardDb) -> JsonDeck<'a> {
    let cards = deck
        .cards
        .iter()
        .map(|card| {
            let printing = card.printing.and_then(|id| db.get(id));
            JsonCard {
                name: printing.map(|p| crate::names::canonical(p.names.primary())),
                written: &card.line.name,
                count: card.line.count,
                set: printing
                    .filter(|p| !p.set_code.is_empty())
                    .map(|p| p.set_code.clone())
                    .or_else(|| card.line.set.clone()),
                number: printing
                    .filter(|p| !p.set_code.is_empty())
                    .map(|p| p.number.clone())
                    .or_else(|| card.line.number.clone()),
                category: printing.map(|p| p.category.as_str()),
                line: card.line.line,
                language: card.language.map(|language| language.code()),
            }
        })
        .collect();
    JsonDeck {
        path: match &deck.path_bytes {
            Some(bytes) => String::from_utf8_lossy(bytes),
            None => std::borrow::Cow::Borrowed(&deck.path),
        },
        path_bytes: deck.path_bytes.as_deref(),
        title: deck.list.title.as_ref().map(|title| title.text.as_str()),
        format: &deck.format,
        as_of: deck.as_of.to_string(),
        language: deck.language.map(|language| language.code()),
        valid: deck.valid(),
        card_count: deck.card_count(),
        errors: deck.count(Severity::Error),
        warnings: deck.count(Severity::Warning),
        cards,
        diagnostics: &deck.diagnostics,
    }
}
