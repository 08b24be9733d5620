//! `fmt` on a JSON list in its own layout, keeping what deckbox does not read.
//!
//! - deckbox's own layout holding keys its JSON output does not write is refused: the
//!   layout has no place for them.
//! - An object of section keys (Limitless-style, as written or under `decklist`/`deck`)
//!   or an array of card objects: everything outside that object or array is kept byte for
//!   byte. The object is written again with its members in their order, one per line:
//!   every member that is not a section as written, each section key with the canonical
//!   cards of its section (a section the list gains is added after the last one). Each card
//!   object keeps its keys in their order: the count, name, set code, number and `ph` take
//!   the canonical values (a value already canonical stays as written, escapes included),
//!   every other key (`id`, `english`) stays as written, and a field the canonical line
//!   gains (a set code and number filled in) is added at the end. Two objects merged into
//!   one line must agree on their other keys, else the list is refused.
//! - A text list held in a JSON string: the string is replaced by the canonical text list,
//!   JSON-escaped; the rest of the file is kept byte for byte.
//!
//! Writing its own output again changes nothing, since every value it writes is read back
//! as canonical and then kept as written.

use std::collections::BTreeSet;

use serde_json::value::RawValue;

use super::{Layout, ListLine, Listing, Refusal, render};
use crate::deck::{CardField, JsonLayout, Section, Span, json_members, section_named};

/// The file `text` with its JSON list rewritten from `listing` in `layout`.
pub(super) fn rewrite(
    text: &str,
    layout: &JsonLayout,
    listing: &Listing,
) -> Result<String, Refusal> {
    let (at, written) = match layout {
        JsonLayout::Own { foreign } => {
            return Err(Refusal::because(format!(
                "the list is in deckbox's JSON layout, which has no place for {}; rewriting it would drop {}, so it is left as it is",
                quoted(foreign),
                if foreign.len() == 1 { "it" } else { "them" }
            )));
        }
        JsonLayout::Text { at } => {
            let list = serde_json::Value::String(render(listing, Layout::Ptcgl)).to_string();
            (*at, list)
        }
        JsonLayout::Keyed { at } => (*at, Writer::new(text, *at).object(listing)?),
        JsonLayout::Array { at } => {
            let writer = Writer::new(text, *at);
            let lines: Vec<&ListLine> = listing.groups.iter().flat_map(|g| &g.lines).collect();
            let indent = writer.indent.clone();
            (*at, writer.cards(&lines, &indent)?)
        }
    };
    let before = text.get(..at.offset).unwrap_or_default();
    let after = text.get(at.end()..).unwrap_or_default();
    Ok(format!("{before}{written}{after}"))
}

/// `` `a`, `b` `` from keys.
fn quoted(keys: &[String]) -> String {
    keys.iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A string as a JSON string literal.
fn literal(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

struct Writer<'t> {
    text: &'t str,
    at: Span,
    /// The file's line ending.
    newline: &'static str,
    /// The blanks before the line the rewritten value starts on.
    indent: String,
}

impl<'t> Writer<'t> {
    fn new(text: &'t str, at: Span) -> Writer<'t> {
        let before = text.get(..at.offset).unwrap_or_default();
        let line_start = before.rfind(['\n', '\r']).map_or(0, |end| end + 1);
        let indent = before
            .get(line_start..)
            .unwrap_or_default()
            .chars()
            .take_while(|c| matches!(c, ' ' | '\t'))
            .collect();
        Writer {
            text,
            at,
            newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
            indent,
        }
    }

    /// The members of the object at `span` (a slice of the text known to be one).
    fn members(&self, span: Span) -> Option<Vec<(String, &'t RawValue)>> {
        let raw = serde_json::from_str::<&RawValue>(self.text.get(span.offset..span.end())?);
        json_members(raw.ok()?)
    }

    /// The deck object: its members in order, sections holding the canonical cards.
    fn object(&self, listing: &Listing) -> Result<String, Refusal> {
        let Some(members) = self.members(self.at) else {
            return Err(Refusal::because(
                "the JSON list changed while it was read".into(),
            ));
        };
        let inner = format!("{}  ", self.indent);
        let lines_of = |section: Section| -> Vec<&ListLine> {
            listing
                .groups
                .iter()
                .filter(|group| group.section.unwrap_or(Section::Pokemon) == section)
                .flat_map(|group| &group.lines)
                .collect()
        };
        let mut written: Vec<String> = Vec::new();
        let mut filled: BTreeSet<u8> = BTreeSet::new();
        let mut last_section = 0;
        for (key, value) in &members {
            let value = match section_named(key) {
                Some(section) if filled.insert(section as u8) => {
                    self.cards(&lines_of(section), &inner)?
                }
                Some(_) => "[]".to_owned(),
                None => value.get().to_owned(),
            };
            if section_named(key).is_some() {
                last_section = written.len() + 1;
            }
            written.push(format!("{inner}{}: {value}", literal(key)));
        }
        let mut gained = Vec::new();
        for (section, key) in [
            (Section::Pokemon, "pokemon"),
            (Section::Trainer, "trainer"),
            (Section::Energy, "energy"),
        ] {
            let lines = lines_of(section);
            if !filled.contains(&(section as u8)) && !lines.is_empty() {
                gained.push(format!("{inner}\"{key}\": {}", self.cards(&lines, &inner)?));
            }
        }
        written.splice(last_section..last_section, gained);
        let newline = self.newline;
        Ok(format!(
            "{{{newline}{}{newline}{}}}",
            written.join(&format!(",{newline}")),
            self.indent
        ))
    }

    /// An array of card objects, one a line, closing at `indent`.
    fn cards(&self, lines: &[&ListLine], indent: &str) -> Result<String, Refusal> {
        if lines.is_empty() {
            return Ok("[]".to_owned());
        }
        let newline = self.newline;
        let cards = lines
            .iter()
            .map(|line| Ok(format!("{indent}  {}", self.card(line)?)))
            .collect::<Result<Vec<String>, Refusal>>()?;
        Ok(format!(
            "[{newline}{}{newline}{indent}]",
            cards.join(&format!(",{newline}"))
        ))
    }

    /// One card object: the first merged object's keys in order, canonical values.
    fn card(&self, line: &ListLine) -> Result<String, Refusal> {
        let sources: Vec<Vec<(String, &RawValue)>> = line
            .source_spans
            .iter()
            .filter_map(|&span| self.members(span))
            .collect();
        let first = sources.first().cloned().unwrap_or_default();
        for other in sources.iter().skip(1) {
            let lost: Vec<String> = other
                .iter()
                .filter(|(key, value)| {
                    CardField::of(key).is_none()
                        && !first
                            .iter()
                            .any(|(kept, raw)| kept == key && raw.get() == value.get())
                })
                .map(|(key, _)| key.clone())
                .collect();
            if !lost.is_empty() {
                let mut numbers: Vec<usize> = line.source_lines.clone();
                numbers.dedup();
                let numbers: Vec<String> = numbers.iter().map(usize::to_string).collect();
                return Err(Refusal::because(format!(
                    "{} card objects of '{}' (line {}) are one line of the list, and merging them would drop {} that they do not share",
                    line.source_spans.len(),
                    crate::util::escape::visible(&line.name),
                    numbers.join(", "),
                    quoted(&lost)
                )));
            }
        }
        let mut seen = BTreeSet::new();
        let mut parts: Vec<String> = first
            .iter()
            .map(|(key, raw)| {
                let value = match CardField::of(key) {
                    Some(field) => {
                        seen.insert(field as u8);
                        field_value(field, line, Some(raw))
                    }
                    None => raw.get().to_owned(),
                };
                format!("{}: {value}", literal(key))
            })
            .collect();
        for (field, key) in [
            (CardField::Count, "count"),
            (CardField::Name, "name"),
            (CardField::Set, "set"),
            (CardField::Number, "number"),
            (CardField::Ph, "ph"),
        ] {
            let absent = match field {
                CardField::Set => line.set.is_none(),
                CardField::Number => line.number.is_none(),
                CardField::Ph => !line.ph,
                CardField::Count | CardField::Name => false,
            };
            if !seen.contains(&(field as u8)) && !absent {
                parts.push(format!("\"{key}\": {}", field_value(field, line, None)));
            }
        }
        Ok(format!("{{{}}}", parts.join(", ")))
    }
}

/// The canonical value of a card field; `raw`, the value as written, when it already is.
fn field_value(field: CardField, line: &ListLine, raw: Option<&RawValue>) -> String {
    let kept = |wanted: Option<&str>| -> String {
        let written = raw.map(RawValue::get);
        let same = match (written, wanted) {
            (Some(written), Some(wanted)) => {
                written == wanted
                    || serde_json::from_str::<String>(written).is_ok_and(|read| read == wanted)
            }
            (Some(written), None) => written == "null" || written == "\"\"",
            (None, _) => false,
        };
        match (same, written, wanted) {
            (true, Some(written), _) => written.to_owned(),
            (_, _, Some(wanted)) => literal(wanted),
            (_, _, None) => "null".to_owned(),
        }
    };
    match field {
        CardField::Count => line.count.to_string(),
        CardField::Name => kept(Some(&line.name)),
        CardField::Set => kept(line.set.as_deref()),
        CardField::Number => kept(line.number.as_deref()),
        CardField::Ph => match raw {
            Some(raw)
                if serde_json::from_str::<Option<bool>>(raw.get()).ok() == Some(Some(line.ph)) =>
            {
                raw.get().to_owned()
            }
            Some(raw) if !line.ph && raw.get() == "null" => raw.get().to_owned(),
            _ => line.ph.to_string(),
        },
    }
}
