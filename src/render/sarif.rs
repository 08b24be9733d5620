//! SARIF 2.1.0 rendering of checked decks, for code-scanning tools (GitHub, GitLab, IDEs).
//!
//! One run whose driver lists every [`Rule`] with its documentation; one result per finding,
//! located by line and column in the file as written. Columns count UTF-16 code units, the
//! SARIF default (`columnKind` is stated anyway), so an accented name is underlined right in
//! a viewer that follows the spec. Files that could not be read become tool execution
//! notifications. Like every renderer it only builds a string: no banner, no I/O.

use serde_json::{Value, json};

use crate::check::CheckedDeck;
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::check::rules::Rule;
use crate::deck::Span;

/// The SARIF version written, and the schema that describes it.
pub const VERSION: &str = "2.1.0";
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The results of one deck, the `artifact`-th file of the log.
pub(super) fn results(deck: &CheckedDeck, artifact: usize) -> Vec<Value> {
    deck.diagnostics
        .iter()
        .map(|diagnostic| result(deck, artifact, diagnostic))
        .collect()
}

/// The run's one invocation: whether every file was checked, and why not.
pub(super) fn invocations(failures: &[String]) -> Value {
    let notifications: Vec<Value> = failures
        .iter()
        .map(|message| json!({ "level": "error", "message": { "text": message } }))
        .collect();
    json!([{
        "executionSuccessful": failures.is_empty(),
        "toolExecutionNotifications": notifications,
    }])
}

pub(super) fn driver() -> Value {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            let doc = rule.def();
            json!({
                "id": doc.id,
                "shortDescription": { "text": doc.summary },
                "fullDescription": { "text": doc.why },
                "help": { "text": doc.fix },
                "defaultConfiguration": { "level": level(rule.severity()) },
            })
        })
        .collect();
    let mut driver = json!({
        "name": env!("CARGO_PKG_NAME"),
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    // `informationUri` must be a URI: written only once Cargo.toml names the repository.
    let home = env!("CARGO_PKG_REPOSITORY");
    if !home.is_empty()
        && let Some(object) = driver.as_object_mut()
    {
        object.insert("informationUri".to_string(), json!(home));
    }
    driver
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn result(deck: &CheckedDeck, artifact: usize, diagnostic: &Diagnostic) -> Value {
    let rule_index = Rule::ALL
        .iter()
        .position(|rule| *rule == diagnostic.rule)
        .unwrap_or(0);
    let mut physical = json!({ "artifactLocation": { "uri": deck_uri(deck), "index": artifact } });
    if let (Some(span), Some(object)) = (diagnostic.span, physical.as_object_mut()) {
        object.insert("region".to_string(), region(&deck.source, span));
    }
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message = format!("{message}. Help: {help}");
    }
    let related: Vec<Value> = diagnostic
        .related
        .iter()
        .enumerate()
        .map(|(id, label)| {
            json!({
                "id": id,
                "physicalLocation": {
                    "artifactLocation": { "uri": deck_uri(deck), "index": artifact },
                    "region": region(&deck.source, label.span),
                },
                "message": { "text": label.message },
            })
        })
        .collect();
    json!({
        "ruleId": diagnostic.rule.id(),
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": { "text": message },
        "locations": [{ "physicalLocation": physical }],
        "relatedLocations": related,
    })
}

/// Lines are 1-based; columns are 1-based UTF-16 code units, the end column just past the
/// span. A BOM at the start of the text takes no column.
fn region(source: &str, span: Span) -> Value {
    let start = span.offset.min(source.len());
    let end = span.offset.saturating_add(span.length).min(source.len());
    let (start_line, start_column) = position(source, start);
    let (end_line, end_column) = position(source, end.max(start));
    json!({
        "startLine": start_line,
        "startColumn": start_column,
        "endLine": end_line,
        "endColumn": end_column,
    })
}

/// Line and UTF-16 column of a byte offset. Counting lines scans the text before the
/// offset: a deck file is at most a few megabytes and SARIF output is not the fast path.
fn position(source: &str, offset: usize) -> (usize, usize) {
    let before = source.get(..offset).unwrap_or(source);
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line = before.matches('\n').count() + 1;
    let column = before
        .get(line_start..)
        .unwrap_or("")
        .chars()
        .filter(|&c| c != '\u{feff}')
        .map(char::len_utf16)
        .sum::<usize>()
        + 1;
    (line, column)
}

/// The URI of `deck`'s file ([`uri`]), from the name's own bytes when it is not UTF-8 (a
/// byte `0xFF` is `%FF`): a URI keeps every byte of a name.
pub fn deck_uri(deck: &CheckedDeck) -> String {
    match &deck.path_bytes {
        Some(bytes) => uri(bytes),
        None => uri(&deck.path),
    }
}

/// A relative path as a URI reference with forward slashes (`decks/a.txt`); an absolute
/// one as a `file://` URI. Bytes outside the URI grammar are percent-encoded.
pub fn uri(path: impl AsRef<[u8]>) -> String {
    let slashed: Vec<u8> = path
        .as_ref()
        .iter()
        .map(|&byte| if byte == b'\\' { b'/' } else { byte })
        .collect();
    let mut relative = slashed.as_slice();
    while let Some(rest) = relative.strip_prefix(b"./") {
        relative = rest;
    }
    let encoded = encode(relative);
    if relative.starts_with(b"/") {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

fn encode(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    for &byte in path {
        let plain = byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte);
        if plain {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_utf16_code_units() {
        let text = "\u{feff}Pokémon: 1\r\n4 Évoli 𝔸 SVI 1\n";
        let at = text.find("SVI").unwrap();
        let region = region(text, Span::new(at, 3));
        // "4 Évoli 𝔸 " is 10 characters, 11 UTF-16 units (𝔸 is a surrogate pair).
        assert_eq!(region["startLine"], 2);
        assert_eq!(region["startColumn"], 12);
        assert_eq!(region["endColumn"], 15);
        assert_eq!(position(text, 0), (1, 1));
        assert_eq!(position(text, 3), (1, 1));
    }

    #[test]
    fn uris_are_relative_with_forward_slashes() {
        assert_eq!(uri("./decks/a b.txt"), "decks/a%20b.txt");
        assert_eq!(uri("decks\\é.txt"), "decks/%C3%A9.txt");
        assert_eq!(uri("/tmp/x.txt"), "file:///tmp/x.txt");
        assert_eq!(uri(b"./d/\xFFa.txt"), "d/%FFa.txt");
    }
}
