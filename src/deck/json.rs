//! Reading JSON deck lists: deckbox's own `convert --to json` output, Limitless-style
//! objects of sections and plain arrays of card objects, into the [`DeckList`] the text
//! reader builds.
//!
//! A text is JSON when its first non-blank character (after a BOM) is `{` or `[`: no text
//! layout starts so. Like the text reader this never fails: JSON that does not parse is one
//! `Unreadable` issue at the line and column serde_json stopped at, and a card object that
//! cannot be read is an issue while the rest is still read. Spans are byte offsets into the
//! text as written: a card's `span` is its whole object (several lines when the JSON is
//! pretty-printed), `name_span` the inside of its name string, `count_span` its count
//! value; its `line` is the line its object starts on. This module must not know cards nor
//! judge the deck, and must not trust counts it does not add up itself.
//!
//! Shapes read (keys match ignoring case):
//! - deckbox's own: `{"language": "en", "comments": ["// note"], "sections": [{"section":
//!   "pokemon", "count": 19, "cards": [...]}], "total": 60}`. Section `count` and `total`
//!   are not read (as header counts, they are never trusted).
//! - Limitless: `{"pokemon": [...], "trainer": [...], "energy": [...]}` (also `pokémon`,
//!   `trainers`, `energies`), directly or wrapped once in `{"decklist": {...}}` or
//!   `{"deck": {...}}` (`decklist` first).
//! - A plain array of card objects, under no section.
//! - A card: `count` (or `qty`, `quantity`, `amount`), a whole number from 1 to
//!   [`MAX_COUNT`](super::MAX_COUNT); `name`, a non-empty string on one line; optional `set`
//!   (or `code`, `setCode`, `set_code`), a string without blanks; optional `number`, such a
//!   string or a whole number; optional `ph`, a boolean. Other keys (`english`, `id`) are
//!   ignored; `null` and `""` mean absent.
//! - Other keys are ignored, except an array of objects under a key that is not a section:
//!   it may hold cards, so it is an issue rather than cards dropped in silence.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::card::Count;
use super::classify::{Class, classify};
use super::lines::{is_blank, line_breaks};
use super::reader::check_count;
use super::{CardLine, DeckList, Layout, ParseIssue, ParseIssueKind, Section, Span};
use crate::names::lang::Language;

const EXAMPLE: &str =
    r#"expected a card such as `{"count": 4, "name": "Iono", "set": "PAL", "number": "185"}`"#;

/// Whether `text` is read as JSON: its first non-blank character is `{` or `[`.
pub(crate) fn is_json(text: &str) -> bool {
    matches!(
        text.trim_start_matches(is_blank).chars().next(),
        Some('{' | '[')
    )
}

/// Reads a JSON deck list; see the module documentation.
pub(crate) fn parse(text: &str) -> DeckList {
    let mut reader = JsonReader::new(text);
    let start = text.len() - text.trim_start_matches(is_blank).len();
    let body = text
        .get(start..)
        .unwrap_or_default()
        .trim_end_matches(is_blank);
    match serde_json::from_str::<&RawValue>(body) {
        Ok(root) => reader.root(root),
        Err(error) => reader.syntax(start, body, &error),
    }
    reader.deck.layout = Layout::Json;
    reader.deck
}

/// An object's members in written order, repeated keys kept (a map would drop cards).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    out.push(entry);
                }
                Ok(Members(out))
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}

/// What a key of a deck object means.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Section(Section),
    Sections,
    Language,
    Comments,
    Other,
}

impl Key {
    fn of(key: &str) -> Key {
        if let Some(section) = section_named(key) {
            return Key::Section(section);
        }
        match key.trim().to_lowercase().as_str() {
            "sections" => Key::Sections,
            "language" => Key::Language,
            "comments" => Key::Comments,
            _ => Key::Other,
        }
    }
}

/// The section a key or a `section` value names.
fn section_named(name: &str) -> Option<Section> {
    match name.trim().to_lowercase().as_str() {
        "pokemon" | "pokémon" => Some(Section::Pokemon),
        "trainer" | "trainers" => Some(Section::Trainer),
        "energy" | "energies" => Some(Section::Energy),
        _ => None,
    }
}

/// What kind of JSON value a raw value is, from its first byte.
fn first(raw: &RawValue) -> u8 {
    raw.get().bytes().next().unwrap_or_default()
}

struct JsonReader<'t> {
    text: &'t str,
    /// Where each line starts, cut as the text reader cuts lines.
    line_starts: Vec<usize>,
    deck: DeckList,
}

impl<'t> JsonReader<'t> {
    fn new(text: &'t str) -> JsonReader<'t> {
        let line_starts = std::iter::once(0)
            .chain(line_breaks(text).map(|(_, next)| next))
            .collect();
        JsonReader {
            text,
            line_starts,
            deck: DeckList::default(),
        }
    }

    /// The span of `part`, a slice of the text (every raw value borrows from it).
    fn span(&self, part: &str) -> Span {
        let offset = (part.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        if offset.saturating_add(part.len()) > self.text.len() {
            return Span::new(0, 0);
        }
        Span::new(offset, part.len())
    }

    /// The 1-based line of a byte offset.
    fn line(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start <= offset)
            .max(1)
    }

    fn issue(&mut self, span: Span, kind: ParseIssueKind, message: impl Into<String>) {
        self.deck.issues.push(ParseIssue {
            line: self.line(span.offset),
            kind,
            message: message.into(),
            span,
        });
    }

    fn unreadable(&mut self, raw: &RawValue, message: impl Into<String>) {
        let span = self.span(raw.get());
        self.issue(span, ParseIssueKind::Unreadable, message);
    }

    /// The members of an object, or `None` (with an issue) when they cannot be read.
    fn members<'a>(&mut self, raw: &'a RawValue) -> Option<Vec<(String, &'a RawValue)>> {
        match serde_json::from_str::<Members<'a>>(raw.get()) {
            Ok(Members(members)) => Some(members),
            Err(error) => {
                self.unreadable(raw, format!("an object that cannot be read: {error}"));
                None
            }
        }
    }

    /// The elements of an array, or `None` (with an issue) when it is not one.
    fn elements<'a>(&mut self, raw: &'a RawValue, what: &str) -> Option<Vec<&'a RawValue>> {
        if first(raw) != b'[' {
            self.unreadable(raw, format!("{what} must be an array"));
            return None;
        }
        match serde_json::from_str::<Vec<&'a RawValue>>(raw.get()) {
            Ok(elements) => Some(elements),
            Err(error) => {
                self.unreadable(raw, format!("an array that cannot be read: {error}"));
                None
            }
        }
    }

    fn root(&mut self, raw: &RawValue) {
        match first(raw) {
            b'[' => self.cards(raw, None),
            _ => self.object(raw, true),
        }
    }

    /// A deck object: sections and metadata, or (at the top only) a wrapper around one.
    fn object(&mut self, raw: &RawValue, top: bool) {
        let Some(members) = self.members(raw) else {
            return;
        };
        let holds_deck = members
            .iter()
            .any(|(key, _)| matches!(Key::of(key), Key::Section(_) | Key::Sections));
        if top && !holds_deck {
            let wrapped = ["decklist", "deck"].into_iter().find_map(|wrapper| {
                members
                    .iter()
                    .find(|(key, value)| {
                        key.trim().eq_ignore_ascii_case(wrapper)
                            && matches!(first(value), b'{' | b'[')
                    })
                    .map(|(_, value)| *value)
            });
            if let Some(inner) = wrapped {
                return match first(inner) {
                    b'[' => self.cards(inner, None),
                    _ => self.object(inner, false),
                };
            }
        }
        for (key, value) in members {
            self.member(&key, value);
        }
    }

    fn member(&mut self, key: &str, value: &RawValue) {
        match Key::of(key) {
            Key::Section(section) => self.cards(value, Some(section)),
            Key::Sections => self.sections(value),
            Key::Language => self.language(value),
            Key::Comments => self.comments(value),
            Key::Other if self.holds_objects(value) => self.unreadable(
                value,
                format!(
                    "cards under `{}`, which is not a section; list them under `pokemon`, `trainer` or `energy`",
                    shorten(key)
                ),
            ),
            Key::Other => {}
        }
    }

    fn holds_objects(&self, value: &RawValue) -> bool {
        first(value) == b'['
            && serde_json::from_str::<Vec<&RawValue>>(value.get())
                .is_ok_and(|elements| elements.iter().any(|e| first(e) == b'{'))
    }

    /// deckbox's `sections`: `[{"section": "pokemon", "cards": [...]}]`.
    fn sections(&mut self, raw: &RawValue) {
        let Some(elements) = self.elements(raw, "`sections`") else {
            return;
        };
        for element in elements {
            if first(element) != b'{' {
                self.unreadable(
                    element,
                    r#"expected a section such as `{"section": "pokemon", "cards": [...]}`"#,
                );
                continue;
            }
            let Some(members) = self.members(element) else {
                continue;
            };
            let field = |name: &str| {
                members
                    .iter()
                    .find(|(key, _)| key.trim().eq_ignore_ascii_case(name))
                    .map(|(_, value)| *value)
            };
            let section = field("section").and_then(|value| self.section_value(value));
            match field("cards") {
                Some(cards) => self.cards(cards, section),
                None => self.unreadable(element, "a section without `cards`"),
            }
        }
    }

    /// A `section` value: `"pokemon"`, `"trainer"`, `"energy"` or `null`.
    fn section_value(&mut self, raw: &RawValue) -> Option<Section> {
        let named = serde_json::from_str::<Option<String>>(raw.get());
        match named {
            Ok(None) => None,
            Ok(Some(name)) if section_named(&name).is_some() => section_named(&name),
            _ => {
                self.unreadable(
                    raw,
                    "a section must be \"pokemon\", \"trainer\", \"energy\" or null",
                );
                None
            }
        }
    }

    fn language(&mut self, raw: &RawValue) {
        match serde_json::from_str::<Option<String>>(raw.get()) {
            Ok(None) => {}
            Ok(Some(code)) if Language::from_code(code.trim()).is_some() => {
                let language = Language::from_code(code.trim());
                self.deck.language = language;
                self.deck.header_languages = language.into_iter().collect();
            }
            _ => self.unreadable(
                raw,
                "`language` must be one of \"en\", \"fr\", \"es\", \"pt\", \"de\", \"it\"",
            ),
        }
    }

    /// `comments`: strings, kept as whole-line comments. A line a text list would not read
    /// as a comment gets `// ` before it, so the list converts to text and back.
    fn comments(&mut self, raw: &RawValue) {
        let Some(elements) = self.elements(raw, "`comments`") else {
            return;
        };
        for element in elements {
            let Ok(comment) = serde_json::from_str::<String>(element.get()) else {
                self.unreadable(element, "a comment must be a string");
                continue;
            };
            for line in comment.split(['\r', '\n']) {
                let line = line.trim_matches(is_blank);
                if line.is_empty() {
                    continue;
                }
                let kept = if classify(line) == Class::Comment {
                    line.to_owned()
                } else {
                    format!("// {line}")
                };
                self.deck.comments.push(kept);
            }
        }
    }

    /// An array of card objects, all in `section`.
    fn cards(&mut self, raw: &RawValue, section: Option<Section>) {
        let what = match section {
            Some(Section::Pokemon) => "`pokemon`",
            Some(Section::Trainer) => "`trainer`",
            Some(Section::Energy) => "`energy`",
            None => "a list of cards",
        };
        let Some(elements) = self.elements(raw, what) else {
            return;
        };
        for element in elements {
            if first(element) == b'{' {
                self.card(element, section);
            } else {
                self.unreadable(element, EXAMPLE);
            }
        }
    }

    /// One card object; every problem of it is an issue, and then it adds no card.
    fn card(&mut self, raw: &RawValue, section: Option<Section>) {
        let Some(members) = self.members(raw) else {
            return;
        };
        let field = |names: &[&str]| {
            members
                .iter()
                .find(|(key, _)| {
                    names
                        .iter()
                        .any(|name| key.trim().eq_ignore_ascii_case(name))
                })
                .map(|(_, value)| *value)
        };
        let before = self.deck.issues.len();
        let count = self.count(raw, field(&["count", "qty", "quantity", "amount"]));
        let name = self.name(raw, field(&["name"]));
        let set = self.code(field(&["set", "code", "setcode", "set_code"]), "set code");
        let number = self.code(field(&["number"]), "number");
        let ph = self.ph(field(&["ph"]));
        let (Some((count, count_span)), Some((name, name_span))) = (count, name) else {
            return;
        };
        if self.deck.issues.len() > before {
            return;
        }
        let span = self.span(raw.get());
        self.deck.cards.push(CardLine {
            line: self.line(span.offset),
            count,
            name,
            set,
            number,
            ph,
            section,
            span,
            count_span,
            name_span,
        });
    }

    /// The count and its span; an issue when it is missing or not 1 to `MAX_COUNT`.
    fn count(&mut self, card: &RawValue, value: Option<&RawValue>) -> Option<(u32, Span)> {
        let Some(value) = value else {
            self.unreadable(card, r#"a card without a count; write `"count": 4`"#);
            return None;
        };
        let written = value.get();
        let span = self.span(written);
        let (negative, digits) = match written.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, written),
        };
        if !digits.starts_with(|c: char| c.is_ascii_digit()) {
            let message = r#"the count must be a number, such as `"count": 4`"#;
            self.issue(span, ParseIssueKind::Unreadable, message);
            return None;
        }
        if !negative && !digits.bytes().all(|b| b.is_ascii_digit()) {
            let message = format!("count {} is not a whole number", shorten(written));
            self.issue(span, ParseIssueKind::BadCount, message);
            return None;
        }
        let count = Count {
            span: (0, written.len()),
            digits,
            negative,
            rest: None,
        };
        match check_count(&count) {
            Ok(value) => Some((value, span)),
            Err(message) => {
                self.issue(span, ParseIssueKind::BadCount, message);
                None
            }
        }
    }

    /// The name, trimmed, and the span of the inside of its string.
    fn name(&mut self, card: &RawValue, value: Option<&RawValue>) -> Option<(String, Span)> {
        let Some(value) = value else {
            self.unreadable(card, r#"a card without a name; write `"name": "Iono"`"#);
            return None;
        };
        let name = serde_json::from_str::<String>(value.get())
            .ok()
            .filter(|name| !name.contains(['\r', '\n']))
            .map(|name| name.trim_matches(is_blank).to_owned())
            .filter(|name| !name.is_empty());
        let Some(name) = name else {
            self.unreadable(value, "a card name must be a non-empty string on one line");
            return None;
        };
        let span = self.span(value.get());
        Some((
            name,
            Span::new(span.offset + 1, span.length.saturating_sub(2)),
        ))
    }

    /// A set code or number: a string without blanks, a whole number (numbers only), or
    /// absent (`null`, `""`, no key).
    fn code(&mut self, value: Option<&RawValue>, what: &str) -> Option<String> {
        let value = value?;
        let written = value.get();
        if what == "number" && written.bytes().all(|b| b.is_ascii_digit()) {
            return Some(written.to_owned());
        }
        match serde_json::from_str::<Option<String>>(written) {
            Ok(None) => None,
            Ok(Some(code)) if !code.contains(is_blank) && !code.contains(['\r', '\n']) => {
                (!code.is_empty()).then_some(code)
            }
            _ => {
                let message = if what == "number" {
                    "a collector number must be a string without blanks, or a whole number"
                } else {
                    "a set code must be a string without blanks"
                };
                self.unreadable(value, message);
                None
            }
        }
    }

    fn ph(&mut self, value: Option<&RawValue>) -> bool {
        let Some(value) = value else {
            return false;
        };
        match serde_json::from_str::<Option<bool>>(value.get()) {
            Ok(ph) => ph.unwrap_or(false),
            Err(_) => {
                self.unreadable(value, "`ph` must be true or false");
                false
            }
        }
    }

    /// JSON that does not parse: one issue where serde_json stopped.
    fn syntax(&mut self, start: usize, body: &str, error: &serde_json::Error) {
        let offset = start + body_offset(body, error.line(), error.column());
        let length = self
            .text
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .filter(|c| !matches!(c, '\r' | '\n') && !is_blank(*c))
            .map_or(0, char::len_utf8);
        let line = self.line(offset);
        let column = self
            .line_starts
            .get(line - 1)
            .and_then(|&from| self.text.get(from..offset))
            .map_or(0, |before| {
                before.chars().filter(|&c| c != '\u{FEFF}').count()
            })
            + 1;
        let full = error.to_string();
        let what = full
            .rfind(" at line ")
            .map_or(full.as_str(), |at| full.get(..at).unwrap_or_default());
        let message = format!(
            "not valid JSON: {what} at line {line} column {column} (a list starting with `{{` or `[` is read as JSON)"
        );
        self.issue(
            Span::new(offset, length),
            ParseIssueKind::Unreadable,
            message,
        );
    }
}

/// The byte offset in `body` of serde_json's 1-based line (cut at `\n`) and column (in
/// bytes), on a character boundary and within `body`.
fn body_offset(body: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        body.match_indices('\n')
            .nth(line - 2)
            .map_or(body.len(), |(at, _)| at + 1)
    };
    let mut offset = (line_start + column.saturating_sub(1)).min(body.len());
    while !body.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The start of a long key or value, so a message never repeats megabytes of input.
fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(text: &str, span: Span) -> &str {
        &text[span.offset..span.end()]
    }

    /// Cards as `line: count name set number [section] | span`, then issues.
    fn render(text: &str) -> String {
        let deck = parse(text);
        let mut out = Vec::new();
        for card in &deck.cards {
            assert_eq!(slice(text, card.count_span), card.count.to_string());
            out.push(format!(
                "{}: {} {:?} {:?} {:?} {:?} | {} | {}",
                card.line,
                card.count,
                card.name,
                card.set,
                card.number,
                card.section,
                slice(text, card.span),
                slice(text, card.name_span),
            ));
        }
        for issue in &deck.issues {
            out.push(format!(
                "issue {}: {:?} {:?} at {:?}",
                issue.line,
                issue.kind,
                issue.message,
                slice(text, issue.span)
            ));
        }
        out.join("\n")
    }

    #[test]
    fn only_text_starting_with_a_brace_or_bracket_is_json() {
        assert!(is_json("{}"));
        assert!(is_json("\u{FEFF}\r\n  [ ]"));
        assert!(!is_json("4 Iono PAL 185"));
        assert!(!is_json("Pokémon: 4 {"));
        assert!(!is_json(""));
    }

    #[test]
    fn limitless_offsets_lines_and_sections() {
        let text = "\u{FEFF}{\r\n \"pokemon\": [{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}],\r\n \"Trainer\": [{\"count\":2,\"name\":\"Pok\\u00e9gear 3.0\",\"set\":\"SVI\",\"number\":186}]\r\n}";
        insta::assert_snapshot!(render(text), @r#"
        2: 4 "Dreepy" Some("TWM") Some("128") Some(Pokemon) | {"count": 4, "name": "Dreepy", "set": "TWM", "number": "128"} | Dreepy
        3: 2 "Pokégear 3.0" Some("SVI") Some("186") Some(Trainer) | {"count":2,"name":"Pok\u00e9gear 3.0","set":"SVI","number":186} | Pok\u00e9gear 3.0
        "#);
        assert_eq!(parse(text).layout, Layout::Json);
    }

    #[test]
    fn deckbox_sections_wrappers_arrays_and_aliases() {
        let own = r#"{"language": "fr", "comments": ["// note", "two\nlines"], "sections": [
            {"section": "energy", "count": 3, "cards": [{"count": 3, "name": "Énergie Feu de base", "set": "SVE", "number": "2", "ph": true, "english": "Basic Fire Energy"}]}
        ], "total": 3}"#;
        let deck = parse(own);
        assert_eq!(deck.language, Some(Language::Fr));
        assert_eq!(deck.comments, ["// note", "// two", "// lines"]);
        insta::assert_snapshot!(render(own), @r#"2: 3 "Énergie Feu de base" Some("SVE") Some("2") Some(Energy) | {"count": 3, "name": "Énergie Feu de base", "set": "SVE", "number": "2", "ph": true, "english": "Basic Fire Energy"} | Énergie Feu de base"#);
        assert!(deck.cards.iter().all(|card| card.ph));
        let wrapped = r#"{"deck": {"id": "x", "icons": ["a"]}, "decklist": {"energy": [{"qty": 1, "name": "Jet Energy", "setCode": "PAL", "number": null}]}}"#;
        insta::assert_snapshot!(render(wrapped), @r#"1: 1 "Jet Energy" Some("PAL") None Some(Energy) | {"qty": 1, "name": "Jet Energy", "setCode": "PAL", "number": null} | Jet Energy"#);
        let array = r#"[{"amount": 2, "name": "Iono"}]"#;
        insta::assert_snapshot!(render(array), @r#"1: 2 "Iono" None None None | {"amount": 2, "name": "Iono"} | Iono"#);
    }

    #[test]
    fn malformed_json_is_one_issue_where_it_stops() {
        insta::assert_snapshot!(render("{\n  \"pokemon\": [\n    {\"count\": 4,}\n  ]\n}"), @r#"issue 3: Unreadable "not valid JSON: key must be a string at line 3 column 17 (a list starting with `{` or `[` is read as JSON)" at "}""#);
        insta::assert_snapshot!(render("[{\"count\": 4, \"name\": \"Iono\"}"), @r#"issue 1: Unreadable "not valid JSON: EOF while parsing a list at line 1 column 29 (a list starting with `{` or `[` is read as JSON)" at "}""#);
        insta::assert_snapshot!(render("{\"name\": \"Pokégear\" x}"), @r#"issue 1: Unreadable "not valid JSON: expected `,` or `}` at line 1 column 21 (a list starting with `{` or `[` is read as JSON)" at "x""#);
    }

    #[test]
    fn bad_cards_are_issues_and_the_rest_is_read() {
        let text = r#"{"pokemon": [
            {"count": 0, "name": "A"},
            {"count": -2, "name": "B"},
            {"count": 99999999999999999999999, "name": "C"},
            {"count": 1.5, "name": "D"},
            {"count": "4", "name": "E"},
            {"count": 1, "name": 7},
            {"count": 1, "name": "  "},
            {"name": "F"},
            {"count": 1, "name": "G", "set": ["x"], "ph": "yes"},
            "Iono",
            {"count": 1, "name": "Kept"}
        ], "trainer": {"count": 1}, "sideboard": [{"count": 1, "name": "H"}], "language": "ja"}"#;
        insta::assert_snapshot!(render(text), @r#"
        12: 1 "Kept" None None Some(Pokemon) | {"count": 1, "name": "Kept"} | Kept
        issue 2: BadCount "a count of 0 adds no card; remove the line or write how many copies" at "0"
        issue 3: BadCount "count -2 is negative; write how many copies, such as `2 Iono`" at "-2"
        issue 4: BadCount "count 999999999999… is too large to be a number of copies (at most 10000)" at "99999999999999999999999"
        issue 5: BadCount "count 1.5 is not a whole number" at "1.5"
        issue 6: Unreadable "the count must be a number, such as `\"count\": 4`" at "\"4\""
        issue 7: Unreadable "a card name must be a non-empty string on one line" at "7"
        issue 8: Unreadable "a card name must be a non-empty string on one line" at "\"  \""
        issue 9: Unreadable "a card without a count; write `\"count\": 4`" at "{\"name\": \"F\"}"
        issue 10: Unreadable "a set code must be a string without blanks" at "[\"x\"]"
        issue 10: Unreadable "`ph` must be true or false" at "\"yes\""
        issue 11: Unreadable "expected a card such as `{\"count\": 4, \"name\": \"Iono\", \"set\": \"PAL\", \"number\": \"185\"}`" at "\"Iono\""
        issue 13: Unreadable "`trainer` must be an array" at "{\"count\": 1}"
        issue 13: Unreadable "cards under `sideboard`, which is not a section; list them under `pokemon`, `trainer` or `energy`" at "[{\"count\": 1, \"name\": \"H\"}]"
        issue 13: Unreadable "`language` must be one of \"en\", \"fr\", \"es\", \"pt\", \"de\", \"it\"" at "\"ja\""
        "#);
    }

    #[test]
    fn deep_nesting_is_an_issue_not_a_crash() {
        // serde_json skips nested values without recursing; the reader descends only
        // into the shapes it knows, so depth costs nothing.
        let open = "[".repeat(100_000);
        let deck = parse(&open);
        assert_eq!(deck.issues.len(), 1, "{:?}", deck.issues);
        assert!(deck.issues[0].message.starts_with("not valid JSON: EOF"));
        let closed = format!("{open}1{}", "]".repeat(100_000));
        let deck = parse(&closed);
        assert_eq!(deck.issues.len(), 1, "{:?}", deck.issues);
        assert!(deck.issues[0].message.starts_with("expected a card"));
        let nested = format!(
            "{{\"pokemon\": [{{\"count\": {}1{}}}]}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        let deck = parse(&nested);
        assert_eq!(deck.issues.len(), 2, "count and name: {:?}", deck.issues);
    }
}
