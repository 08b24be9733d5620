//! Findings: one rule id per failure class, one serializable message type for every output.
//!
//! A [`Diagnostic`] is what every renderer in [`crate::render`] shows: human, short and
//! JSON are views of the same values. This module holds no rule logic and no rule
//! documentation: both are in [`crate::check::rules`]; it describes findings.

use serde::Serialize;

use crate::check::rule::Rule;
use crate::deck::Span;
use crate::deck::source::SourceText;

/// How bad a finding is. Errors make a deck invalid; warnings do not; an info finding is a
/// remark about a card that is right (a printing legal as a reprint of another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A secondary place a finding points at (the other lines of an over-limit card).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    pub line: usize,
    pub span: Span,
    pub message: String,
}

/// One finding about one deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub rule: Rule,
    pub severity: Severity,
    /// One line, no trailing period.
    pub message: String,
    /// What to change.
    pub help: Option<String>,
    /// 1-based line and column of the primary span; `None` for deck-wide findings.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub span: Option<Span>,
    /// What to write under the primary span.
    pub label: Option<String>,
    /// Other lines involved.
    pub related: Vec<Label>,
    /// English names of the cards involved.
    pub cards: Vec<String>,
}

impl Diagnostic {
    /// A finding with the rule's own severity and no location yet.
    pub fn new(rule: Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule,
            severity: rule.severity(),
            message: message.into(),
            help: None,
            line: None,
            column: None,
            span: None,
            label: None,
            related: Vec::new(),
            cards: Vec::new(),
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Points the finding at `span` of `source`, computing line and column.
    pub fn at(mut self, source: &SourceText, span: Span, label: impl Into<String>) -> Diagnostic {
        let (line, column) = source.line_column(span.offset);
        self.line = Some(line);
        self.column = Some(column);
        self.span = Some(span);
        self.label = Some(label.into());
        self
    }

    pub fn with_related(mut self, related: Vec<Label>) -> Diagnostic {
        self.related = related;
        self
    }

    pub fn with_cards(mut self, cards: Vec<String>) -> Diagnostic {
        self.cards = cards;
        self
    }
}
