//! `deckbox config`'s report: each setting a deck command would use here, its value and
//! where it came from. This module lays the report out; what the rows say (each value
//! and its origin) is `settings`' to work out, which it hands over as plain data.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::util::escape::visible_line;

/// One setting: its key, its value and where it came from (`(deckbox.toml:3)`, `(default)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub key: &'static str,
    pub value: String,
    pub origin: String,
}

/// `key = value   (origin)`, one setting a line, keys and origins aligned. Values come
/// from deckbox.toml, the environment and flags: each is shown on one line, with invisible
/// and control characters escaped.
pub fn text(rows: &[Row]) -> String {
    let rows: Vec<(&str, String, String)> = rows
        .iter()
        .map(|row| {
            let value = visible_line(&row.value).into_owned();
            (row.key, value, visible_line(&row.origin).into_owned())
        })
        .collect();
    let width = rows
        .iter()
        .map(|(_, value, _)| value.chars().count())
        .max()
        .unwrap_or(0);
    let key_width = rows.iter().map(|(key, _, _)| key.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(key, value, from)| {
            let pad = width - value.chars().count();
            format!("{key:<key_width$} = {value}{}   {from}\n", " ".repeat(pad))
        })
        .collect()
}

/// The JSON report; `R` is the resolved settings (each value with its origin), written
/// at the top level.
#[derive(Debug, Serialize)]
pub struct Json<'a, R: Serialize> {
    pub version: u32,
    pub config: Option<&'a Path>,
    #[serde(flatten)]
    pub resolved: &'a R,
    /// The index `deckbox cards update` installed, used when `cards` is null.
    pub updated_index: Option<PathBuf>,
    /// `card_data` in deckbox.toml: `"embedded"`, `{"newest_set": CODE}`, or null.
    pub card_data: Option<JsonCardData<'a>>,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub overrides: Vec<JsonOverride<'a>>,
}

/// `card_data` as deckbox.toml gives it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JsonCardData<'a> {
    Embedded,
    NewestSet(&'a str),
}

/// One `[[overrides]]` entry.
#[derive(Debug, Serialize)]
pub struct JsonOverride<'a> {
    pub paths: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    pub line: usize,
}

/// The report as one pretty-printed JSON document.
pub fn json<R: Serialize>(report: &Json<R>) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_default();
    out.push('\n');
    out
}
