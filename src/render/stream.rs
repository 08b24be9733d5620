//! One report for many decks, written deck by deck: what `deckbox check` prints for a whole
//! repository without keeping every checked deck (memory stays flat in the number of files).
//!
//! [`Piece::render`] turns one checked deck into its part of the report; it needs only that
//! deck and its position, so callers render in parallel and drop the deck at once.
//! [`ReportWriter`] writes the pieces in order between the report's opening and closing,
//! keeping only counts and, for SARIF, each file's URI. The JSON and SARIF documents are
//! pretty-printed exactly as `serde_json` prints the whole document.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::{Value, json};

use super::event::{self, EventRow};
use super::{HumanOptions, OutputFormat, human, json_deck, sarif, short, totals};
use crate::cards::CardDb;
use crate::check::CheckedDeck;

/// What a report looks like.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub output: OutputFormat,
    pub human: HumanOptions,
}

/// One deck's part of a report, rendered.
#[derive(Debug)]
pub struct Piece {
    text: String,
    valid: bool,
    /// The file's URI, for SARIF's artifact list.
    uri: Option<String>,
}

impl Piece {
    /// Renders `deck`, the `index`-th deck of the report (counting decks only, not the
    /// files that could not be read).
    pub fn render(deck: &CheckedDeck, index: usize, style: Style, db: &CardDb) -> Piece {
        Piece::render_with(deck, index, style, db, None)
    }

    /// Whether a piece of a report in `output` depends on its deck's index (SARIF's
    /// artifact index): other pieces can be rendered before the decks before them are
    /// counted.
    pub fn numbered(output: OutputFormat) -> bool {
        output == OutputFormat::Sarif
    }

    /// [`Piece::render`], with the cards the deck still lacks from a collection
    /// (`check --have`): a column of the event table, a line of the short output.
    pub fn render_with(
        deck: &CheckedDeck,
        index: usize,
        style: Style,
        db: &CardDb,
        missing: Option<u64>,
    ) -> Piece {
        let row = || EventRow {
            missing,
            ..EventRow::of(deck, db)
        };
        let text = match style.output {
            OutputFormat::Human => human(deck, style.human),
            OutputFormat::Short => {
                short(deck) + &missing.map(|n| short_missing(deck, n)).unwrap_or_default()
            }
            OutputFormat::Json => element(&json_deck(deck, db), JSON_DECK_DEPTH),
            OutputFormat::Sarif => return Piece::sarif(deck, index),
            OutputFormat::Csv => event::csv_row(&row()),
            OutputFormat::Markdown => event::markdown_row(&row()),
            OutputFormat::Html => event::html_row(&row()),
        };
        Piece {
            text,
            valid: deck.valid(),
            uri: None,
        }
    }

    /// [`Piece::render`] for SARIF: the deck's results, and its URI for the artifact list.
    pub fn sarif(deck: &CheckedDeck, index: usize) -> Piece {
        let results: Vec<String> = sarif::results(deck, index)
            .iter()
            .map(|result| element(result, SARIF_RESULT_DEPTH))
            .collect();
        let separator = format!(",\n{}", "  ".repeat(SARIF_RESULT_DEPTH));
        Piece {
            text: results.join(&separator),
            valid: deck.valid(),
            uri: Some(sarif::deck_uri(deck)),
        }
    }
}

/// The short output's line for `check --have`: `deck.txt: 7 cards missing from the
/// collection`.
fn short_missing(deck: &CheckedDeck, missing: u64) -> String {
    let s = if missing == 1 { "" } else { "s" };
    format!(
        "{}: {missing} card{s} missing from the collection\n",
        crate::util::escape::visible_line(&deck.path)
    )
}

/// The title of the event table's HTML page.
const EVENT_TITLE: &str = "Deck lists checked by deckbox";

/// Depth of a deck object in the JSON report (`{ "decks": [ here ] }`).
const JSON_DECK_DEPTH: usize = 2;
/// Depth of a result in the SARIF log (`{ "runs": [ { "results": [ here ] } ] }`).
const SARIF_RESULT_DEPTH: usize = 4;

/// Writes a report's pieces in order; [`ReportWriter::finish`] closes it.
pub struct ReportWriter<'w> {
    out: &'w mut dyn Write,
    style: Style,
    decks: usize,
    valid: usize,
    /// Whether a SARIF result was written (a comma goes before the next).
    results: bool,
    uris: Vec<String>,
}

impl<'w> ReportWriter<'w> {
    /// Writes the report's opening.
    pub fn begin(out: &'w mut dyn Write, style: Style) -> io::Result<ReportWriter<'w>> {
        ReportWriter::begin_with(out, style, false)
    }

    /// [`ReportWriter::begin`], an event table with the `missing` column when `missing`
    /// (`check --have`).
    pub fn begin_with(
        out: &'w mut dyn Write,
        style: Style,
        missing: bool,
    ) -> io::Result<ReportWriter<'w>> {
        match style.output {
            OutputFormat::Json => out.write_all(b"{\n  \"version\": 1,\n  \"decks\": [")?,
            OutputFormat::Sarif => {
                let head = format!(
                    "{{\n  \"$schema\": {},\n  \"version\": {},\n  \"runs\": [\n    {{\n      \"tool\": {{\n        \"driver\": {}\n      }},\n      \"columnKind\": \"utf16CodeUnits\",\n      \"results\": [",
                    json!(sarif::SCHEMA),
                    json!(sarif::VERSION),
                    indent(&pretty(&sarif::driver()), 4),
                );
                out.write_all(head.as_bytes())?;
            }
            OutputFormat::Csv => out.write_all(event::csv_header(missing).as_bytes())?,
            OutputFormat::Markdown => out.write_all(event::markdown_header(missing).as_bytes())?,
            OutputFormat::Html => {
                out.write_all(event::html_head(EVENT_TITLE, missing).as_bytes())?
            }
            OutputFormat::Human | OutputFormat::Short => {}
        }
        Ok(ReportWriter {
            out,
            style,
            decks: 0,
            valid: 0,
            results: false,
            uris: Vec::new(),
        })
    }

    /// How many decks were written.
    pub fn decks(&self) -> usize {
        self.decks
    }

    /// Writes the next deck's piece.
    pub fn push(&mut self, piece: Piece) -> io::Result<()> {
        match self.style.output {
            OutputFormat::Human if self.decks > 0 => write!(self.out, "\n{}", piece.text)?,
            OutputFormat::Human
            | OutputFormat::Short
            | OutputFormat::Csv
            | OutputFormat::Markdown
            | OutputFormat::Html => self.out.write_all(piece.text.as_bytes())?,
            OutputFormat::Json => {
                let comma = if self.decks > 0 { "," } else { "" };
                write!(
                    self.out,
                    "{comma}\n{}{}",
                    "  ".repeat(JSON_DECK_DEPTH),
                    piece.text
                )?;
            }
            OutputFormat::Sarif => {
                if !piece.text.is_empty() {
                    let comma = if self.results { "," } else { "" };
                    let lead = "  ".repeat(SARIF_RESULT_DEPTH);
                    write!(self.out, "{comma}\n{lead}{}", piece.text)?;
                    self.results = true;
                }
                self.uris.extend(piece.uri);
            }
        }
        self.decks += 1;
        self.valid += usize::from(piece.valid);
        Ok(())
    }

    /// The closing line of an event table: decks, valid, invalid, `failures` (files that
    /// could not be read) and `skipped` files. A CSV table has no room for it: its caller
    /// shows it elsewhere.
    pub fn summary(&self, failures: usize, skipped: usize) -> String {
        event::summary(self.decks, self.valid, failures, skipped)
    }

    /// Closes the report: the totals line of a human report of several decks (with the
    /// number of `failures`, files that could not be read), the end of a JSON document,
    /// SARIF's artifacts and invocation, or an event table's summary (with the number of
    /// files the walk `skipped`, [`crate::settings::walk::Walked::skipped_count`]).
    pub fn finish(self, failures: &[String], skipped: usize) -> io::Result<()> {
        let summary = self.summary(failures.len(), skipped);
        match self.style.output {
            OutputFormat::Csv => {}
            OutputFormat::Markdown => write!(self.out, "\n{summary}\n")?,
            OutputFormat::Html => self.out.write_all(event::html_tail(&summary).as_bytes())?,
            OutputFormat::Human => {
                if self.decks > 1 || (self.decks > 0 && !failures.is_empty()) {
                    let mut line = totals(self.decks, self.valid);
                    if !failures.is_empty() {
                        let n = failures.len();
                        let s = if n == 1 { "" } else { "s" };
                        line = format!("{}; {n} file{s} could not be read\n", line.trim_end());
                    }
                    write!(self.out, "\n{line}")?;
                }
            }
            OutputFormat::Short => {}
            OutputFormat::Json => {
                let close = if self.decks > 0 { "\n  ]" } else { "]" };
                write!(self.out, "{close}\n}}\n")?;
            }
            OutputFormat::Sarif => {
                let close = if self.results { "\n      ]" } else { "]" };
                let artifacts: Vec<Value> = self
                    .uris
                    .iter()
                    .map(|uri| json!({ "location": { "uri": uri } }))
                    .collect();
                let invocations = sarif::invocations(failures);
                write!(
                    self.out,
                    "{close},\n      \"artifacts\": {},\n      \"invocations\": {}\n    }}\n  ]\n}}\n",
                    indent(&pretty(&artifacts), 3),
                    indent(&pretty(&invocations), 3),
                )?;
            }
        }
        self.out.flush()
    }
}

/// `value` pretty-printed as an element at `depth` of a document: its lines after the first
/// indented by two spaces per level (the first line's indent is the caller's).
fn element(value: &impl Serialize, depth: usize) -> String {
    indent(&pretty(value), depth)
}

fn pretty(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Indents every line but the first by `depth` levels of two spaces. JSON strings hold no
/// raw line breaks, so every line break is the printer's.
fn indent(text: &str, depth: usize) -> String {
    text.replace('\n', &format!("\n{}", "  ".repeat(depth)))
}

/// One SARIF log for all decks; `failures` are messages about files deckbox could not check.
/// (`deckbox check` writes the same log deck by deck, through [`ReportWriter`].)
pub fn sarif(decks: &[CheckedDeck], failures: &[String]) -> String {
    let style = Style {
        output: OutputFormat::Sarif,
        human: HumanOptions::default(),
    };
    to_string(decks, failures, style, Piece::sarif)
}

/// A whole report in one string, each deck rendered by `render` (given the deck and its
/// index): what the renderers of a deck slice return.
pub fn to_string(
    decks: &[CheckedDeck],
    failures: &[String],
    style: Style,
    render: impl Fn(&CheckedDeck, usize) -> Piece,
) -> String {
    let mut out = Vec::new();
    let written = ReportWriter::begin(&mut out, style).and_then(|mut writer| {
        for (index, deck) in decks.iter().enumerate() {
            writer.push(render(deck, index))?;
        }
        writer.finish(failures, 0)
    });
    // Writing to a vector cannot fail.
    debug_assert!(written.is_ok());
    String::from_utf8(out).unwrap_or_default()
}
