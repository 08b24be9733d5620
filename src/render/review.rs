//! `deckbox review` and `deckbox log`: what a change of revisions did to a repository's deck
//! lists, as text, Markdown (a job summary, a pull-request comment) and JSON. This module
//! lays the report out; what it says (which files are decks, their verdicts, odds and
//! rotation) is `session::review`'s to work out, which it hands over as plain data
//! ([`Review`], [`Log`]).
//!
//! Everything that comes from the repository (file names, card names, commit subjects,
//! findings quoting a line) is escaped: on one line for text ([`visible_line`]), as literal
//! inline Markdown for Markdown ([`markdown`]), JSON-escaped in JSON.
//!
//! The JSON documents are a contract; keys are only ever added. `review`: `{"base", "head",
//! "decks": [{"status", "old_path", "new_path", "before", "after", "changes",
//! "new_findings", "fixed_findings", "mulligan", "no_odds", "odds", "rotation"}],
//! "failures"}` (`no_odds`: why each side has no odds, or `null`);
//! `log`: `{"path", "commits": [{"commit", "date", "subject", "path", "status", "summary",
//! "changes", "verdict"}], "failures"}`. A verdict is `{"format", "date", "valid", "cards",
//! "errors", "warnings"}` or `null` (no list on that side), `changes` as `deckbox diff
//! --output json` gives them.

use std::fmt::Write;

use serde::Serialize;

use crate::check::diagnostic::Severity;
use crate::edit::diff::{self, Change};
use crate::render::percent::{Small, percent};
use crate::util::escape::{markdown, visible_line};

/// What happened to a deck file between the two revisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Changed,
    Renamed,
    Removed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Changed => "changed",
            Status::Renamed => "renamed",
            Status::Removed => "removed",
        }
    }
}

/// A deck's verdict on one side: the format and date it was judged in, and its findings
/// counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub format: String,
    pub date: String,
    pub valid: bool,
    pub cards: u64,
    pub errors: usize,
    pub warnings: usize,
}

/// One finding, as a review compares them (rule and message, not where).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
}

/// The opening odds of a card whose count changed, before and after (`None`: no copy, or
/// the deck has no odds on that side).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardOdds {
    pub name: String,
    pub copies: [u64; 2],
    pub opening_hand: [Option<f64>; 2],
}

/// The cards of the new list that leave its format at the next rotation deckbox knows of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rotation {
    pub season: String,
    pub from: String,
    pub cards: Vec<String>,
}

/// One deck file added, changed, renamed or removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckReview {
    pub status: Status,
    pub old_path: Option<String>,
    pub new_path: Option<String>,
    pub before: Option<Verdict>,
    pub after: Option<Verdict>,
    /// Card changes as `deckbox diff` finds them.
    pub changes: Vec<Change>,
    /// Findings of the new list the old one did not have, and those it no longer has.
    pub new_findings: Vec<Finding>,
    pub fixed_findings: Vec<Finding>,
    /// P(mulligan) before and after (`None`: no list, or no odds for it).
    pub mulligan: [Option<f64>; 2],
    /// Why a side has no odds (`line 12 is not read`), before and after; `None` for a side
    /// with odds or with no list.
    pub no_odds: [Option<String>; 2],
    pub odds: Vec<CardOdds>,
    pub rotation: Option<Rotation>,
}

impl DeckReview {
    /// The path the deck is known by: the new one, else the old one.
    pub fn path(&self) -> &str {
        (self.new_path.as_deref())
            .or(self.old_path.as_deref())
            .unwrap_or_default()
    }

    /// `a.txt`, or `old.txt → new.txt` for a rename.
    fn title(&self) -> String {
        match (&self.old_path, &self.new_path) {
            (Some(old), Some(new)) if old != new => format!("{old} → {new}"),
            _ => self.path().to_string(),
        }
    }
}

/// Every deck list changed between two revisions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Review {
    pub base: String,
    pub head: String,
    pub decks: Vec<DeckReview>,
    /// Why some file could not be reviewed.
    pub failures: Vec<String>,
}

/// One commit of a list's history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    pub commit: String,
    pub date: String,
    pub subject: String,
    /// The list's path at that commit.
    pub path: String,
    pub status: Status,
    /// The change in one line ([`summary`]).
    pub summary: String,
    pub changes: Vec<Change>,
    /// The verdict at that commit; `None` when the commit removed the list.
    pub verdict: Option<Verdict>,
}

/// The history of one list, newest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Log {
    pub path: String,
    pub commits: Vec<LogEntry>,
    pub failures: Vec<String>,
}

/// Most card changes a one-line summary names before `and N more`.
const SUMMARY_CHANGES: usize = 4;

/// The change in one line: `added (60 cards)`, `removed`, `+2 Iono, ~ Ultra Ball: 4 → 3`,
/// `no card changed`.
pub fn summary(status: Status, changes: &[Change], cards: Option<u64>) -> String {
    match status {
        Status::Added => return format!("added ({} cards)", cards.unwrap_or(0)),
        Status::Removed => return "removed".to_string(),
        Status::Changed | Status::Renamed => {}
    }
    let mut parts: Vec<String> = (changes.iter().take(SUMMARY_CHANGES))
        .map(diff::line)
        .collect();
    if changes.len() > SUMMARY_CHANGES {
        parts.push(format!("and {} more", changes.len() - SUMMARY_CHANGES));
    }
    let line = parts.join(", ");
    match (status, line.is_empty()) {
        (Status::Renamed, true) => "renamed".to_string(),
        (Status::Renamed, false) => format!("renamed; {line}"),
        (_, true) => "no card changed".to_string(),
        _ => line,
    }
}

/// `valid (60 cards)`, `invalid: 2 errors (61 cards)`, `none`.
fn verdict_words(verdict: Option<&Verdict>) -> String {
    let Some(verdict) = verdict else {
        return "none".to_string();
    };
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let mut words = if verdict.valid { "valid" } else { "invalid" }.to_string();
    if verdict.errors > 0 {
        let _ = write!(words, ", {} error{}", verdict.errors, s(verdict.errors));
    }
    if verdict.warnings > 0 {
        let _ = write!(
            words,
            ", {} warning{}",
            verdict.warnings,
            s(verdict.warnings)
        );
    }
    let _ = write!(words, " ({} cards)", verdict.cards);
    words
}

/// `standard as of 2026-11-25`, from the newest side.
fn judged(deck: &DeckReview) -> String {
    (deck.after.as_ref())
        .or(deck.before.as_ref())
        .map(|v| format!("{} as of {}", v.format, v.date))
        .unwrap_or_default()
}

fn odds_value(p: Option<f64>) -> String {
    p.map_or_else(|| "–".to_string(), |p| percent(p, 1, Small::Below))
}

/// `12.3% → 10.1%`.
fn before_after(pair: [Option<f64>; 2]) -> String {
    format!("{} → {}", odds_value(pair[0]), odds_value(pair[1]))
}

fn finding_line(finding: &Finding) -> String {
    format!(
        "{} {}: {}",
        finding.severity.as_str(),
        finding.rule,
        finding.message
    )
}

/// The plain lines of one deck's review, each with its kind, for text and Markdown.
enum Line {
    /// A heading of the card changes (`Pokémon`).
    Section(&'static str),
    /// One card change, one finding, one figure.
    Item(String),
    /// A labelled line (`verdict: ...`).
    Field(&'static str, String),
}

fn deck_lines(deck: &DeckReview) -> Vec<Line> {
    let mut lines = vec![Line::Field(
        "verdict",
        format!(
            "{} → {} ({})",
            verdict_words(deck.before.as_ref()),
            verdict_words(deck.after.as_ref()),
            judged(deck)
        ),
    )];
    for (section, title) in diff::SECTIONS {
        let mut changes = (deck.changes.iter())
            .filter(|c| c.section == section)
            .peekable();
        if changes.peek().is_some() {
            lines.push(Line::Section(title));
            lines.extend(changes.map(|change| Line::Item(diff::line(change))));
        }
    }
    if deck.changes.is_empty() && deck.before.is_some() && deck.after.is_some() {
        lines.push(Line::Field("cards", "no card changed".to_string()));
    }
    for (label, findings) in [
        ("new finding", &deck.new_findings),
        ("fixed finding", &deck.fixed_findings),
    ] {
        lines.extend(findings.iter().map(|f| Line::Field(label, finding_line(f))));
    }
    for (side, why) in ["before", "after"].iter().zip(&deck.no_odds) {
        if let Some(why) = why {
            lines.push(Line::Field("odds", format!("not computed {side}: {why}")));
        }
    }
    if deck.mulligan.iter().any(Option::is_some) {
        lines.push(Line::Field("P(mulligan)", before_after(deck.mulligan)));
    }
    for card in &deck.odds {
        let odds = before_after(card.opening_hand);
        lines.push(Line::Field(
            "opening hand",
            format!(
                "{} ({} → {}): {odds}",
                card.name, card.copies[0], card.copies[1]
            ),
        ));
    }
    if let Some(rotation) = &deck.rotation {
        let leaving = match rotation.cards.as_slice() {
            [] => "no card leaves".to_string(),
            cards => format!("{} leave: {}", cards.len(), cards.join(", ")),
        };
        lines.push(Line::Field(
            "next rotation",
            format!("{} from {}: {leaving}", rotation.season, rotation.from),
        ));
    }
    lines
}

fn heading_counts(review: &Review) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let invalid = (review.decks.iter())
        .filter(|d| d.after.as_ref().is_some_and(|v| !v.valid))
        .count();
    format!(
        "{} deck list{} changed, {invalid} invalid after",
        review.decks.len(),
        s(review.decks.len())
    )
}

/// The review for a terminal.
pub fn text(review: &Review) -> String {
    let mut out = format!(
        "review {} → {}: {}\n",
        visible_line(&review.base),
        visible_line(&review.head),
        heading_counts(review)
    );
    for deck in &review.decks {
        let _ = writeln!(
            out,
            "\n{} ({})",
            visible_line(&deck.title()),
            deck.status.as_str()
        );
        for line in deck_lines(deck) {
            let _ = match line {
                Line::Section(title) => writeln!(out, "  {title}"),
                Line::Item(item) => writeln!(out, "    {}", visible_line(&item)),
                Line::Field(label, value) => writeln!(out, "  {label}: {}", visible_line(&value)),
            };
        }
    }
    for failure in &review.failures {
        let _ = writeln!(out, "\nerror: {}", visible_line(failure));
    }
    out
}

/// The review as GitHub-flavoured Markdown, for a job summary or a pull-request comment.
pub fn markdown_report(review: &Review) -> String {
    let mut out = format!(
        "## deckbox review: {} → {}\n\n{}\n",
        markdown(&review.base),
        markdown(&review.head),
        heading_counts(review)
    );
    for deck in &review.decks {
        let _ = writeln!(
            out,
            "\n### {} ({})\n",
            markdown(&deck.title()),
            deck.status.as_str()
        );
        for line in deck_lines(deck) {
            let _ = match line {
                Line::Section(title) => writeln!(out, "- **{title}**"),
                Line::Item(item) => writeln!(out, "  - {}", markdown(&item)),
                Line::Field(label, value) => writeln!(out, "- {label}: {}", markdown(&value)),
            };
        }
    }
    for failure in &review.failures {
        let _ = writeln!(out, "\n> error: {}", markdown(failure));
    }
    out
}

/// Any value as pretty JSON, newline-terminated.
pub fn json<T: Serialize>(value: &T) -> String {
    let mut out = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push('\n');
    out
}

fn log_verdict(entry: &LogEntry) -> String {
    match &entry.verdict {
        Some(v) => format!("{} ({} as of {})", verdict_words(Some(v)), v.format, v.date),
        None => "none".to_string(),
    }
}

/// A list's history for a terminal: one block a commit.
pub fn log_text(log: &Log) -> String {
    let mut out = String::new();
    for entry in &log.commits {
        let _ = writeln!(
            out,
            "{} {} {}\n  {}: {}\n  {}",
            entry.commit.get(..10).unwrap_or(&entry.commit),
            entry.date,
            visible_line(&entry.subject),
            visible_line(&entry.path),
            visible_line(&entry.summary),
            log_verdict(entry),
        );
    }
    for failure in &log.failures {
        let _ = writeln!(out, "error: {}", visible_line(failure));
    }
    out
}

/// A list's history as a Markdown table.
pub fn log_markdown(log: &Log) -> String {
    let mut out = format!(
        "## deckbox log: {}\n\n| commit | date | subject | change | verdict |\n| --- | --- | --- | --- | --- |\n",
        markdown(&log.path)
    );
    for entry in &log.commits {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            entry.commit.get(..10).unwrap_or(&entry.commit),
            entry.date,
            markdown(&entry.subject),
            markdown(&entry.summary),
            markdown(&log_verdict(entry)),
        );
    }
    for failure in &log.failures {
        let _ = writeln!(out, "\n> error: {}", markdown(failure));
    }
    out
}
