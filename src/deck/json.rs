//! Reading JSON deck lists: deckbox's own `convert --to json` output, Limitless-style
//! objects of sections, plain arrays of card objects, and event records that hold a text
//! list in a string, into the [`DeckList`] the text reader builds.
//!
//! A text is JSON when its first non-blank character (after a BOM) is `{` or `[` (a file
//! named `*.json` is JSON whatever it starts with: see [`super::input`]). JSON is read
//! strictly ([`read`]), but for one habit of JavaScript and JSON5 that loses nothing: a
//! comma after the last element of an array or object (`{..., "number": "120" },` then
//! `]`, as lists kept in JavaScript source are written) is read as if it were not there.
//! Otherwise a text that is not valid JSON, repeats a key in an object, or holds
//! a value of the wrong type where a deck list has its sections and cards is
//! [`NotADeck`], with the line and column of the first problem, and is never judged nor
//! rewritten. Inside a deck that is read, a card whose values are of the right type but
//! make no card (a count of 0, a name of blanks) is an issue, as a text line is, and the
//! rest is still read. [`parse`] never fails: a `NotADeck` becomes its one issue.
//!
//! Spans are byte offsets into the text as written: a card's `span` is its whole object
//! (several lines when the JSON is pretty-printed), `name_span` the inside of its name
//! string, `count_span` its count value; its `line` is the line its object starts on. A
//! list held in a string is read by the text reader from the string's value, and every
//! span is mapped back onto the escapes as written (`\n`, `\u00e9`, `\"`). This module
//! must not know cards nor judge the deck, and must not trust counts it does not add up.
//!
//! What counts as a deck list deckbox can read (keys match ignoring case):
//! - deckbox's own: `{"language": "en", "comments": ["// note"], "sections": [{"section":
//!   "pokemon", "count": 19, "cards": [...]}], "total": 60}`. Section `count` and `total`
//!   are not read (as header counts, they are never trusted).
//! - Limitless: an object with at least one of `pokemon`, `trainer`, `energy` (also
//!   `pokémon`, `trainers`, `energies`), each an array of card objects.
//! - An object with none of those keys that holds one under `decklist` or `deck`
//!   (`decklist` first): an object as above, an array of cards, or a string holding a text
//!   list; a string under `list` too.
//! - A non-empty array of card objects, under no section.
//! - A card: `count` (or `qty`, `quantity`, `amount`), a number; `name`, a string;
//!   optional `set` (or `code`, `setCode`, `set_code`), a string; optional `number`, a
//!   string or a number; optional `ph`, a boolean. `null` means absent for the optional
//!   ones. Two keys for one of these (`count` and `qty`) make the object no card. A count
//!   that is not a whole number from 1 to [`MAX_COUNT`](super::MAX_COUNT), a name empty or
//!   on several lines, a code with blanks are issues. Other keys (`english`, `id`) are
//!   kept by `fmt` and otherwise ignored.
//! - Other keys of a deck object are kept by `fmt` and otherwise ignored, except an array
//!   of objects under a key that is not a section: it may hold cards, so it is an issue
//!   rather than cards dropped in silence.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::card::Count;
use super::classify::{Class, classify};
use super::lines::{is_blank, line_breaks, lines};
use super::reader::check_count;
use super::{CardLine, DeckList, JsonLayout, Layout, ParseIssue, ParseIssueKind, Section, Span};
use crate::names::lang::Language;

const EXAMPLE: &str =
    r#"a card is an object such as `{"count": 4, "name": "Iono", "set": "PAL", "number": "185"}`"#;

/// Keys of deckbox's own layout that are neither sections nor read: `total`, a section's
/// `count`, a card's `english`. Anything else in that layout is a key `fmt` would drop.
const OWN_UNREAD: [&str; 2] = ["total", "english"];

/// Why a JSON text is not a deck list deckbox can read: its first problem, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotADeck {
    /// 1-based line, cut as the text reader cuts lines.
    pub line: usize,
    /// 1-based column, in characters (a BOM takes none).
    pub column: usize,
    pub span: Span,
    /// What is wrong and what was expected.
    pub why: String,
}

/// A field of a card object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardField {
    Count,
    Name,
    Set,
    Number,
    Ph,
}

impl CardField {
    /// The field a key of a card object names, ignoring case.
    pub fn of(key: &str) -> Option<CardField> {
        match key.trim().to_lowercase().as_str() {
            "count" | "qty" | "quantity" | "amount" => Some(CardField::Count),
            "name" => Some(CardField::Name),
            "set" | "code" | "setcode" | "set_code" => Some(CardField::Set),
            "number" => Some(CardField::Number),
            "ph" => Some(CardField::Ph),
            _ => None,
        }
    }

    fn word(self) -> &'static str {
        match self {
            CardField::Count => "count",
            CardField::Name => "name",
            CardField::Set => "set code",
            CardField::Number => "number",
            CardField::Ph => "`ph`",
        }
    }
}

/// Whether `text` is read as JSON: its first non-blank character is `{` or `[`.
pub(crate) fn is_json(text: &str) -> bool {
    matches!(
        text.trim_start_matches(is_blank).chars().next(),
        Some('{' | '[')
    )
}

/// Reads a JSON deck list strictly; see the module documentation.
pub fn read(text: &str) -> Result<DeckList, NotADeck> {
    let text = &*without_trailing_commas(text);
    let mut reader = JsonReader::new(text);
    let start = text.len() - text.trim_start_matches(is_blank).len();
    let body = text
        .get(start..)
        .unwrap_or_default()
        .trim_end_matches(is_blank);
    if let Err(error) = serde_json::from_str::<Strict>(body) {
        return Err(reader.syntax(start, body, &error));
    }
    match serde_json::from_str::<&RawValue>(body) {
        Ok(root) => reader.root(root),
        Err(error) => return Err(reader.syntax(start, body, &error)),
    }
    if let Some(fatal) = reader.fatal.take() {
        return Err(fatal);
    }
    if !matches!(reader.deck.json, Some(JsonLayout::Text { .. })) {
        reader.deck.layout = Some(Layout::Json);
    }
    Ok(reader.deck)
}

/// `text` with every comma that ends an array or an object (after a value, with only blanks
/// between it and the `]` or `}`, outside strings) made a space: the same length, so every
/// offset into it is one into `text`. `[,]` and `[1,,]` keep theirs, and are refused. One
/// pass; borrowed when there is none.
fn without_trailing_commas(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut trailing = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    // The last byte outside strings that is not a blank (a string counts as its quote).
    let mut previous = b' ';
    for (at, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b',' if !matches!(previous, b',' | b'[' | b'{' | b':') => {
                let next = bytes.iter().skip(at + 1).find(|b| !b.is_ascii_whitespace());
                if matches!(next, Some(b']' | b'}')) {
                    trailing.push(at);
                }
            }
            _ => {}
        }
        if !byte.is_ascii_whitespace() {
            previous = byte;
        }
    }
    if trailing.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut owned = bytes.to_vec();
    for at in trailing {
        owned[at] = b' ';
    }
    // Only ASCII commas were replaced by ASCII spaces: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(owned).unwrap_or_else(|_| text.to_owned()))
}

/// Reads a JSON deck list; a text [`read`] refuses is one `Unreadable` issue.
pub(crate) fn parse(text: &str) -> DeckList {
    read(text).unwrap_or_else(|refused| DeckList {
        issues: vec![ParseIssue {
            line: refused.line,
            kind: ParseIssueKind::Unreadable,
            message: format!("not a deck list deckbox can read: {}", refused.why),
            span: refused.span,
        }],
        layout: Some(Layout::Json),
        ..DeckList::default()
    })
}

/// The start of serde_json's message for a key repeated in an object.
const REPEATED: &str = "repeated key ";

/// Any JSON value, read to find a key written twice in one object (serde_json keeps the
/// last one, which would drop a card or a value without a word). serde_json bounds the
/// nesting depth, so this cannot exhaust the stack.
struct Strict;

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Strict, E> {
        Ok(Strict)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(de::Error::custom(format!("{REPEATED}`{}`", shorten(&key))));
            }
            map.next_value::<Strict>()?;
            seen.insert(key);
        }
        Ok(Strict)
    }
}

/// An object's members in written order (the strict pass made the keys distinct).
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

/// The members of a JSON object in written order, each with its key as written; `None`
/// when `raw` is not an object. For `fmt`, which rewrites an object keeping its members.
pub fn members(raw: &RawValue) -> Option<Vec<(String, &RawValue)>> {
    serde_json::from_str::<Members<'_>>(raw.get())
        .ok()
        .map(|Members(members)| members)
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
pub fn section_named(name: &str) -> Option<Section> {
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

/// The kind of a raw value, for messages: "a string", "an object".
fn kind(raw: &RawValue) -> &'static str {
    match first(raw) {
        b'{' => "an object",
        b'[' => "an array",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

/// Where a deck list may sit in an object that holds no section: under `decklist`, `deck`
/// or `list`, in that order of preference.
const WRAPPERS: [&str; 3] = ["decklist", "deck", "list"];

struct JsonReader<'t> {
    text: &'t str,
    /// Where each line starts, cut as the text reader cuts lines.
    line_starts: Vec<usize>,
    deck: DeckList,
    /// The first problem that makes the text no deck list.
    fatal: Option<NotADeck>,
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
            fatal: None,
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

    /// The 1-based column (in characters, a BOM taking none) of a byte offset.
    fn column(&self, offset: usize) -> usize {
        self.line_starts
            .get(self.line(offset) - 1)
            .and_then(|&from| self.text.get(from..offset))
            .map_or(0, |before| {
                before.chars().filter(|&c| c != '\u{FEFF}').count()
            })
            + 1
    }

    fn refusal(&self, span: Span, why: String) -> NotADeck {
        NotADeck {
            line: self.line(span.offset),
            column: self.column(span.offset),
            span,
            why,
        }
    }

    /// Records the first problem that makes the text no deck list.
    fn fail(&mut self, raw: &RawValue, why: impl Into<String>) {
        if self.fatal.is_none() {
            let span = self.span(raw.get());
            self.fatal = Some(self.refusal(span, why.into()));
        }
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

    /// The members of an object (the caller checked it is one).
    fn members<'a>(&mut self, raw: &'a RawValue) -> Option<Vec<(String, &'a RawValue)>> {
        let read = members(raw);
        if read.is_none() {
            self.fail(raw, "an object that cannot be read");
        }
        read
    }

    /// The elements of an array, or `None` (the text refused) when `raw` is not one.
    fn elements<'a>(&mut self, raw: &'a RawValue, what: &str) -> Option<Vec<&'a RawValue>> {
        if first(raw) != b'[' {
            self.fail(raw, format!("{what} must be an array, not {}", kind(raw)));
            return None;
        }
        let read = serde_json::from_str::<Vec<&'a RawValue>>(raw.get()).ok();
        if read.is_none() {
            self.fail(raw, "an array that cannot be read");
        }
        read
    }

    /// Notes a key of deckbox's own layout that its JSON output does not write.
    fn foreign(&mut self, key: &str) {
        if let Some(JsonLayout::Own { foreign }) = &mut self.deck.json
            && !OWN_UNREAD
                .iter()
                .any(|own| key.trim().eq_ignore_ascii_case(own))
            && foreign.len() < 5
        {
            foreign.push(shorten(key));
        }
    }

    fn root(&mut self, raw: &'t RawValue) {
        match first(raw) {
            b'[' => self.array(raw),
            b'{' => self.object(raw, None),
            _ => self.fail(
                raw,
                format!(
                    "{}, where a deck list is an object of sections or an array of card objects",
                    kind(raw)
                ),
            ),
        }
    }

    /// An array of card objects holding the whole deck.
    fn array(&mut self, raw: &'t RawValue) {
        if serde_json::from_str::<Vec<&RawValue>>(raw.get()).is_ok_and(|all| all.is_empty()) {
            return self.fail(
                raw,
                "an empty array: a deck list is an object of sections or an array of card objects",
            );
        }
        self.deck.json = Some(JsonLayout::Array {
            at: self.span(raw.get()),
        });
        self.cards(raw, None);
    }

    /// A deck object: sections and metadata, or (at the top only, `wrapper` is `None`) an
    /// object holding one under a wrapper key.
    fn object(&mut self, raw: &'t RawValue, wrapper: Option<&str>) {
        let Some(members) = self.members(raw) else {
            return;
        };
        let own = members.iter().any(|(key, _)| Key::of(key) == Key::Sections);
        // An event record sums its deck up beside it (`"energies": ["Metal"]` next to a
        // `decklist` object): at the top, a section key holding no card object is no section
        // when a wrapper key holds the list.
        let summary = |value: &RawValue| {
            wrapper.is_none()
                && !self.holds_objects(value)
                && !matches!(value.get().trim(), "[]" | "null")
                && members.iter().any(|(key, inner)| {
                    WRAPPERS.iter().any(|w| key.trim().eq_ignore_ascii_case(w))
                        && matches!(first(inner), b'{' | b'[' | b'"')
                })
        };
        let holds_deck = own
            || members
                .iter()
                .any(|(key, value)| matches!(Key::of(key), Key::Section(_)) && !summary(value));
        if !holds_deck {
            return match wrapper {
                None => self.wrapped(raw, &members),
                Some(key) => self.fail(
                    raw,
                    format!(
                        "`{}` holds an object with no `pokemon`, `trainer`, `energy` or `sections` key",
                        shorten(key)
                    ),
                ),
            };
        }
        self.deck.json = Some(if own {
            JsonLayout::Own {
                foreign: wrapper.map(shorten).into_iter().collect(),
            }
        } else {
            JsonLayout::Keyed {
                at: self.span(raw.get()),
            }
        });
        for (key, value) in members {
            self.member(&key, value);
            if self.fatal.is_some() {
                return;
            }
        }
    }

    /// An object with no section: the deck list under a wrapper key, or no deck list.
    fn wrapped(&mut self, raw: &'t RawValue, members: &[(String, &'t RawValue)]) {
        let found = WRAPPERS.into_iter().find_map(|wrapper| {
            members
                .iter()
                .find(|(key, value)| {
                    key.trim().eq_ignore_ascii_case(wrapper)
                        && (matches!(first(value), b'{' | b'[' | b'"'))
                })
                .map(|(key, value)| (key.as_str(), *value))
        });
        match found {
            Some((key, inner)) => match first(inner) {
                b'[' => {
                    self.deck.json = Some(JsonLayout::Array {
                        at: self.span(inner.get()),
                    });
                    self.cards(inner, None);
                }
                b'"' => self.text(inner),
                _ => self.object(inner, Some(key)),
            },
            None => self.fail(
                raw,
                "an object with no `pokemon`, `trainer`, `energy` or `sections` key, and no deck list under `decklist`, `deck` or `list`",
            ),
        }
    }

    fn member(&mut self, key: &str, value: &'t RawValue) {
        match Key::of(key) {
            Key::Section(section) => self.cards(value, Some(section)),
            Key::Sections => self.sections(value),
            Key::Language => self.language(value),
            Key::Comments => self.comments(value),
            Key::Other => {
                self.foreign(key);
                if self.holds_objects(value) {
                    self.unreadable(
                        value,
                        format!(
                            "cards under `{}`, which is not a section; list them under `pokemon`, `trainer` or `energy`",
                            shorten(key)
                        ),
                    );
                }
            }
        }
    }

    fn holds_objects(&self, value: &RawValue) -> bool {
        first(value) == b'['
            && serde_json::from_str::<Vec<&RawValue>>(value.get())
                .is_ok_and(|elements| elements.iter().any(|e| first(e) == b'{'))
    }

    /// deckbox's `sections`: `[{"section": "pokemon", "cards": [...]}]`.
    fn sections(&mut self, raw: &'t RawValue) {
        let Some(elements) = self.elements(raw, "`sections`") else {
            return;
        };
        for element in elements {
            if first(element) != b'{' {
                return self.fail(
                    element,
                    format!(
                        r#"`sections` holds {}, where a section is an object such as `{{"section": "pokemon", "cards": [...]}}`"#,
                        kind(element)
                    ),
                );
            }
            let Some(members) = self.members(element) else {
                return;
            };
            let mut section = None;
            let mut cards = None;
            for (key, value) in &members {
                match key.trim().to_lowercase().as_str() {
                    "section" => section = self.section_value(value),
                    "cards" => cards = Some(*value),
                    "count" => {}
                    _ => self.foreign(key),
                }
            }
            match cards {
                Some(cards) => self.cards(cards, section),
                None => return self.fail(element, "a section without `cards`"),
            }
            if self.fatal.is_some() {
                return;
            }
        }
    }

    /// A `section` value: `"pokemon"`, `"trainer"`, `"energy"` or `null`.
    fn section_value(&mut self, raw: &RawValue) -> Option<Section> {
        match serde_json::from_str::<Option<String>>(raw.get()) {
            Ok(None) => None,
            Ok(Some(name)) => {
                let section = section_named(&name);
                if section.is_none() {
                    self.unreadable(
                        raw,
                        "a section must be \"pokemon\", \"trainer\", \"energy\" or null",
                    );
                }
                section
            }
            Err(_) => {
                self.fail(
                    raw,
                    format!(
                        "a section must be \"pokemon\", \"trainer\", \"energy\" or null, not {}",
                        kind(raw)
                    ),
                );
                None
            }
        }
    }

    fn language(&mut self, raw: &RawValue) {
        let known = "\"en\", \"fr\", \"es\", \"pt\", \"de\", \"it\"";
        match serde_json::from_str::<Option<String>>(raw.get()) {
            Ok(None) => {}
            Ok(Some(code)) => match Language::from_code(code.trim()) {
                Some(language) => {
                    self.deck.language = Some(language);
                    self.deck.header_languages = vec![language];
                }
                None => self.unreadable(raw, format!("`language` must be one of {known}")),
            },
            Err(_) => self.fail(
                raw,
                format!("`language` must be one of {known}, not {}", kind(raw)),
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
                return self.fail(
                    element,
                    format!("a comment must be a string, not {}", kind(element)),
                );
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
            if first(element) != b'{' {
                return self.fail(
                    element,
                    format!("{what} holds {}, where {EXAMPLE}", kind(element)),
                );
            }
            self.card(element, section);
            if self.fatal.is_some() {
                return;
            }
        }
    }

    /// A card object's fields by meaning; two keys for one field make it no card.
    fn fields<'a>(
        &mut self,
        members: &[(String, &'a RawValue)],
    ) -> Option<[Option<&'a RawValue>; 5]> {
        let mut fields: [Option<(&str, &'a RawValue)>; 5] = [None; 5];
        for (key, value) in members {
            let Some(field) = CardField::of(key) else {
                if !key.trim().eq_ignore_ascii_case("english") {
                    self.foreign(key);
                }
                continue;
            };
            let slot = fields.get_mut(field as usize)?;
            if let Some((other, _)) = slot {
                let why = format!(
                    "two keys for a card's {}: `{}` and `{}`",
                    field.word(),
                    shorten(other),
                    shorten(key)
                );
                self.fail(value, why);
                return None;
            }
            *slot = Some((key.as_str(), *value));
        }
        Some(fields.map(|field| field.map(|(_, value)| value)))
    }

    /// One card object; a problem of its values is an issue, and then it adds no card.
    fn card(&mut self, raw: &RawValue, section: Option<Section>) {
        let Some(members) = self.members(raw) else {
            return;
        };
        let Some([count, name, set, number, ph]) = self.fields(&members) else {
            return;
        };
        let before = self.deck.issues.len();
        let count = self.count(raw, count);
        let name = self.name(raw, name);
        let set = self.code(set, CardField::Set);
        let number = self.code(number, CardField::Number);
        let ph = self.ph(ph);
        let (Some((count, count_span)), Some((name, name_span))) = (count, name) else {
            return;
        };
        if self.deck.issues.len() > before || self.fatal.is_some() {
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
            comment: None,
        });
    }

    /// The count and its span: an issue when it is not 1 to `MAX_COUNT`, and no card list
    /// when it is missing or not a number.
    fn count(&mut self, card: &RawValue, value: Option<&RawValue>) -> Option<(u32, Span)> {
        let Some(value) = value else {
            self.fail(card, r#"a card object without a count; write `"count": 4`"#);
            return None;
        };
        let written = value.get();
        let span = self.span(written);
        let (negative, digits) = match written.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, written),
        };
        if !digits.starts_with(|c: char| c.is_ascii_digit()) {
            let why = format!(
                r#"a card's count must be a number, such as `"count": 4`, not {}"#,
                kind(value)
            );
            self.fail(value, why);
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
            self.fail(
                card,
                r#"a card object without a name; write `"name": "Iono"`"#,
            );
            return None;
        };
        let Ok(name) = serde_json::from_str::<String>(value.get()) else {
            let why = format!("a card's name must be a string, not {}", kind(value));
            self.fail(value, why);
            return None;
        };
        let name = name.trim_matches(is_blank);
        if name.is_empty() || name.contains(['\r', '\n']) {
            self.unreadable(value, "a card name must be a non-empty string on one line");
            return None;
        }
        let span = self.span(value.get());
        Some((
            name.to_owned(),
            Span::new(span.offset + 1, span.length.saturating_sub(2)),
        ))
    }

    /// A set code or number: a string without blanks, a whole number (numbers only), or
    /// absent (`null`, `""`, no key). Another type makes the text no deck list.
    fn code(&mut self, value: Option<&RawValue>, field: CardField) -> Option<String> {
        let value = value?;
        let written = value.get();
        let number = field == CardField::Number;
        let message = if number {
            "a collector number must be a string without blanks, or a whole number"
        } else {
            "a set code must be a string without blanks"
        };
        match first(value) {
            b'n' => None,
            b'"' => {
                let code = serde_json::from_str::<String>(written).unwrap_or_default();
                if code.contains(is_blank) || code.contains(['\r', '\n']) {
                    self.unreadable(value, message);
                    return None;
                }
                (!code.is_empty()).then_some(code)
            }
            b'0'..=b'9' | b'-' if number => {
                if written.bytes().all(|b| b.is_ascii_digit()) {
                    return Some(written.to_owned());
                }
                self.unreadable(value, message);
                None
            }
            _ => {
                self.fail(value, format!("{message}, not {}", kind(value)));
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
                self.fail(
                    value,
                    format!("`ph` must be true or false, not {}", kind(value)),
                );
                false
            }
        }
    }

    /// A text list held in a JSON string: read by the text reader, every span mapped back
    /// onto the string as written.
    fn text(&mut self, raw: &RawValue) {
        let at = self.span(raw.get());
        let Some((inner, map)) = unescape(raw.get()) else {
            return self.fail(raw, "a string that cannot be read");
        };
        let mut deck = super::parse_text(&inner);
        let comments = text_comments(&inner, &deck);
        let place = |span: Span| {
            let start = at.offset + map.get(span.offset).copied().unwrap_or_default();
            let end = at.offset + map.get(span.end()).copied().unwrap_or_default();
            Span::new(start, end.saturating_sub(start))
        };
        for card in &mut deck.cards {
            card.span = place(card.span);
            card.count_span = place(card.count_span);
            card.name_span = place(card.name_span);
            card.line = self.line(card.span.offset);
        }
        for header in &mut deck.headers {
            header.span = place(header.span);
            header.line = self.line(header.span.offset);
        }
        if let Some(footer) = &mut deck.footer {
            footer.span = place(footer.span);
            footer.line = self.line(footer.span.offset);
        }
        for issue in &mut deck.issues {
            issue.span = place(issue.span);
            issue.line = self.line(issue.span.offset);
        }
        deck.comments = comments;
        deck.json = Some(JsonLayout::Text { at });
        self.deck = deck;
    }

    /// JSON that does not parse, or repeats a key: where serde_json stopped.
    fn syntax(&self, start: usize, body: &str, error: &serde_json::Error) -> NotADeck {
        let offset = start + body_offset(body, error.line(), error.column());
        let full = error.to_string();
        let what = full
            .rfind(" at line ")
            .map_or(full.as_str(), |at| full.get(..at).unwrap_or_default());
        if let Some(key) = what.strip_prefix(REPEATED) {
            let span = key_before(self.text, offset);
            return self.refusal(
                span,
                format!("the key {key} is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither"),
            );
        }
        let length = self
            .text
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .filter(|c| !matches!(c, '\r' | '\n') && !is_blank(*c))
            .map_or(0, char::len_utf8);
        self.refusal(
            Span::new(offset, length),
            format!("not valid JSON: {what} (a list starting with `{{` or `[` is read as JSON)"),
        )
    }
}

/// Whole-line comments of a text list (lines starting with `//` or `#` that are not cards,
/// headers, a footer or issues), in order: `fmt` keeps them as it keeps a text file's.
fn text_comments(text: &str, deck: &DeckList) -> Vec<String> {
    let structural: HashSet<usize> = deck
        .cards
        .iter()
        .map(|card| card.line)
        .chain(deck.headers.iter().map(|header| header.line))
        .chain(deck.footer.iter().map(|footer| footer.line))
        .chain(deck.issues.iter().map(|issue| issue.line))
        .collect();
    lines(text)
        .filter(|line| !structural.contains(&line.number))
        .map(|line| line.text.trim_matches(is_blank))
        .filter(|line| line.starts_with("//") || line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The value of a JSON string token (quotes included), and for each byte of the value, and
/// one past its end, the offset in the token of what it was written as. `None` when the
/// token is no valid string (the strict pass refuses those first).
fn unescape(token: &str) -> Option<(String, Vec<usize>)> {
    let inner = token.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut map = Vec::with_capacity(inner.len() + 1);
    let mut chars = inner.char_indices();
    while let Some((at, c)) = chars.next() {
        let decoded = if c == '\\' {
            match chars.next()?.1 {
                '"' => '"',
                '\\' => '\\',
                '/' => '/',
                'b' => '\u{8}',
                'f' => '\u{C}',
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'u' => unicode_escape(&mut chars)?,
                _ => return None,
            }
        } else {
            c
        };
        let before = out.len();
        out.push(decoded);
        map.extend(std::iter::repeat_n(at + 1, out.len() - before));
    }
    map.push(token.len() - 1);
    Some((out, map))
}

/// The character of a `\uXXXX` escape (its `\u` read), a surrogate pair included.
fn unicode_escape(chars: &mut std::str::CharIndices<'_>) -> Option<char> {
    let hex = |chars: &mut std::str::CharIndices<'_>| -> Option<u32> {
        (0..4).try_fold(0, |value, _| {
            Some(value * 16 + chars.next()?.1.to_digit(16)?)
        })
    };
    let high = hex(chars)?;
    if !(0xD800..0xDC00).contains(&high) {
        return char::from_u32(high);
    }
    if chars.next()?.1 != '\\' || chars.next()?.1 != 'u' {
        return None;
    }
    let low = hex(chars)?;
    if !(0xDC00..0xE000).contains(&low) {
        return None;
    }
    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

/// The span of the key string that ends just before `offset` (where serde_json stops after
/// reading a key), quotes included.
fn key_before(text: &str, offset: usize) -> Span {
    let bytes = text.as_bytes();
    let Some(end) = (0..=offset.min(bytes.len().saturating_sub(1)))
        .rev()
        .find(|&at| bytes.get(at) == Some(&b'"'))
    else {
        return Span::new(offset.min(text.len()), 0);
    };
    let start = (0..end)
        .rev()
        .find(|&at| bytes.get(at) == Some(&b'"') && !escaped(bytes, at))
        .unwrap_or(end);
    Span::new(start, end + 1 - start)
}

/// Whether the byte at `at` follows an odd number of backslashes.
fn escaped(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(..at)
        .unwrap_or_default()
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count()
        % 2
        == 1
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
    crate::util::escape::excerpt(text, 40)
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
        assert_eq!(parse(text).layout, Some(Layout::Json));
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
    fn bad_values_are_issues_and_the_rest_is_read() {
        let text = r#"{"pokemon": [
            {"count": 0, "name": "A"},
            {"count": -2, "name": "B"},
            {"count": 99999999999999999999999, "name": "C"},
            {"count": 1.5, "name": "D"},
            {"count": 1, "name": "  "},
            {"count": 1, "name": "Two\nlines"},
            {"count": 1, "name": "G", "set": "P A L", "number": -3},
            {"count": 1, "name": "Kept", "id": "x"}
        ], "sideboard": [{"count": 1, "name": "H"}], "language": "ja",
        "sections-like": {"section": 4}}"#;
        insta::assert_snapshot!(render(text), @r#"
        9: 1 "Kept" None None Some(Pokemon) | {"count": 1, "name": "Kept", "id": "x"} | Kept
        issue 2: BadCount "a count of 0 adds no card; remove the line or write how many copies" at "0"
        issue 3: BadCount "count -2 is negative; write how many copies, such as `2 Iono`" at "-2"
        issue 4: BadCount "count 999999999999… is too large to be a number of copies (at most 10000)" at "99999999999999999999999"
        issue 5: BadCount "count 1.5 is not a whole number" at "1.5"
        issue 6: Unreadable "a card name must be a non-empty string on one line" at "\"  \""
        issue 7: Unreadable "a card name must be a non-empty string on one line" at "\"Two\\nlines\""
        issue 8: Unreadable "a set code must be a string without blanks" at "\"P A L\""
        issue 8: Unreadable "a collector number must be a string without blanks, or a whole number" at "-3"
        issue 10: Unreadable "cards under `sideboard`, which is not a section; list them under `pokemon`, `trainer` or `energy`" at "[{\"count\": 1, \"name\": \"H\"}]"
        issue 10: Unreadable "`language` must be one of \"en\", \"fr\", \"es\", \"pt\", \"de\", \"it\"" at "\"ja\""
        "#);
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        // serde_json bounds the depth it descends to; the reader descends only into the
        // shapes it knows, so depth costs nothing.
        let open = "[".repeat(100_000);
        assert!(refused(&open).contains("not valid JSON"));
        let closed = format!("{open}1{}", "]".repeat(100_000));
        assert!(
            refused(&closed).contains("recursion limit exceeded"),
            "{}",
            refused(&closed)
        );
        let nested = format!(
            "{{\"pokemon\": [{{\"count\": {}1{}}}]}}",
            "[".repeat(100),
            "]".repeat(100)
        );
        assert!(refused(&nested).contains("a card's count must be a number"));
    }

    /// `line:column why | the text refused`, for a text [`read`] refuses.
    fn refused(text: &str) -> String {
        let refused = read(text).expect_err("refused");
        format!(
            "{}:{} {} | {}",
            refused.line,
            refused.column,
            refused.why,
            slice(text, refused.span)
        )
    }

    #[test]
    fn malformed_json_is_refused_where_it_stops() {
        insta::assert_snapshot!(refused("{\n  \"pokemon\": [\n    {\"count\": 4,,}\n  ]\n}"), @"3:17 not valid JSON: key must be a string (a list starting with `{` or `[` is read as JSON) | ,");
        insta::assert_snapshot!(refused("[{\"count\": 4, \"name\": \"Iono\"}"), @"1:29 not valid JSON: EOF while parsing a list (a list starting with `{` or `[` is read as JSON) | }");
        insta::assert_snapshot!(refused("{\"name\": \"Pokégear\" x}"), @"1:21 not valid JSON: expected `,` or `}` (a list starting with `{` or `[` is read as JSON) | x");
        // `parse` turns the refusal into one issue, so a caller that never gated still
        // sees why.
        let deck = parse("[1, 2]");
        assert_eq!(deck.issues.len(), 1, "{:?}", deck.issues);
        assert!(deck.cards.is_empty());
        assert!(
            deck.issues[0]
                .message
                .starts_with("not a deck list deckbox can read: a list of cards holds a number")
        );
    }

    #[test]
    fn a_key_written_twice_is_refused_at_the_second() {
        // In a card, at the top, in the event record deckbox otherwise does not read, and
        // a key whose escapes spell the same name (`\u006e` is `n`).
        let card = "{\"pokemon\": [\n  {\"count\": 4, \"name\": \"Dreepy\", \"count\": 3}\n]}";
        insta::assert_snapshot!(refused(card), @"2:34 the key `count` is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither | \"count\"");
        let top = "{\"pokemon\": [], \"trainer\": [],\r\n \"pokemon\": []}";
        insta::assert_snapshot!(refused(top), @"2:2 the key `pokemon` is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither | \"pokemon\"");
        let event = "{\"event\": {\"date\": 1, \"date\": 2}, \"pokemon\": []}";
        insta::assert_snapshot!(refused(event), @"1:23 the key `date` is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither | \"date\"");
        let escaped = "{\"energy\": [{\"count\": 1, \"name\": \"Jet\", \"\\u006eame\": \"Jet\"}]}";
        insta::assert_snapshot!(refused(escaped), @r#"1:41 the key `name` is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither | "\u006eame""#);
        // Two spellings of one field are no card either.
        insta::assert_snapshot!(refused("[{\"count\": 1, \"Qty\": 2, \"name\": \"Iono\"}]"), @"1:22 two keys for a card's count: `count` and `Qty` | 2");
    }

    #[test]
    fn wrong_types_are_refused_where_they_are() {
        let mut wrong = Vec::new();
        for (text, expected) in [
            (
                "{\"pokemon\": [{\"count\": \"four\", \"name\": \"Dreepy\"}]}",
                "1:24 a card's count must be a number, such as `\"count\": 4`, not a string | \"four\"",
            ),
            (
                "{\"pokemon\": [{\"count\": 4, \"name\": 4}]}",
                "1:35 a card's name must be a string, not a number | 4",
            ),
            (
                "{\"pokemon\": {}}",
                "1:13 `pokemon` must be an array, not an object | {}",
            ),
            (
                "{\"trainer\": [\"Iono\"]}",
                "1:14 `trainer` holds a string, where a card is an object such as `{\"count\": 4, \"name\": \"Iono\", \"set\": \"PAL\", \"number\": \"185\"}` | \"Iono\"",
            ),
            (
                "{\"pokemon\": [{\"count\": 4}]}",
                "1:14 a card object without a name; write `\"name\": \"Iono\"` | {\"count\": 4}",
            ),
            (
                "{\"pokemon\": [{\"count\": 4, \"name\": \"A\", \"set\": [\"x\"]}]}",
                "1:47 a set code must be a string without blanks, not an array | [\"x\"]",
            ),
            (
                "{\"pokemon\": [{\"count\": 4, \"name\": \"A\", \"ph\": \"yes\"}]}",
                "1:46 `ph` must be true or false, not a string | \"yes\"",
            ),
            (
                "{\"sections\": [{\"section\": 3, \"cards\": []}]}",
                "1:27 a section must be \"pokemon\", \"trainer\", \"energy\" or null, not a number | 3",
            ),
            (
                "{\"sections\": [{\"section\": \"pokemon\"}]}",
                "1:15 a section without `cards` | {\"section\": \"pokemon\"}",
            ),
            (
                "{\"language\": 7, \"pokemon\": []}",
                "1:14 `language` must be one of \"en\", \"fr\", \"es\", \"pt\", \"de\", \"it\", not a number | 7",
            ),
            (
                "{\"comments\": [1], \"pokemon\": []}",
                "1:15 a comment must be a string, not a number | 1",
            ),
        ] {
            if refused(text) != expected {
                wrong.push(format!("{text}\n  {}", refused(text)));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn what_is_no_deck_list() {
        for (text, expected) in [
            ("{\"cards\": \"Dreepy\"}", "1:1 an object with no"),
            ("[1,2,3]", "1:2 a list of cards holds a number"),
            ("{}", "1:1 an object with no"),
            ("[]", "1:1 an empty array"),
            ("\"text\"", "1:1 a string, where a deck list is"),
            (
                "{\"pokemon\": \"x\"}",
                "1:13 `pokemon` must be an array, not a string",
            ),
            (
                "{\"deck\": {\"id\": 3}}",
                "1:10 `deck` holds an object with no",
            ),
            ("{\"decklist\": 4}", "1:1 an object with no"),
        ] {
            let got = refused(text);
            assert!(got.starts_with(expected), "{text}: {got}");
        }
        // What is one: a section key, even empty; a wrapper; a string under `list`.
        for text in [
            "{\"pokemon\": []}",
            "{\"id\": 1, \"deck\": {\"energy\": []}}",
            "{\"deck\": []}",
            "{\"list\": \"\"}",
            "{\"sections\": []}",
        ] {
            assert!(read(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn a_text_list_in_a_string_maps_every_span_onto_the_escapes() {
        let text = "{\"player\": \"Ash\",\n \"decklist\": \"Pok\\u00e9mon: 4\\r\\n4 Dreepy TWM 128\\n\\n// \\\"tech\\\"\\nTrainer: 2\\n2 Pok\\u00E9gear 3.0 SVI 186\\n2 Boss\\u2019s Orders PAL 172\"}";
        let deck = read(text).unwrap();
        assert_eq!(
            deck.json,
            Some(JsonLayout::Text {
                at: Span::new(31, text.len() - 32)
            })
        );
        assert_eq!(deck.comments, ["// \"tech\""]);
        insta::assert_snapshot!(render(text), @r#"
        2: 4 "Dreepy" Some("TWM") Some("128") Some(Pokemon) | 4 Dreepy TWM 128 | Dreepy
        2: 2 "Pokégear 3.0" Some("SVI") Some("186") Some(Trainer) | 2 Pok\u00E9gear 3.0 SVI 186 | Pok\u00E9gear 3.0
        2: 2 "Boss’s Orders" Some("PAL") Some("172") Some(Trainer) | 2 Boss\u2019s Orders PAL 172 | Boss\u2019s Orders
        "#);
        let headers: Vec<&str> = deck.headers.iter().map(|h| slice(text, h.span)).collect();
        assert_eq!(headers, ["Pok\\u00e9mon: 4", "Trainer: 2"]);
        // A line the text reader cannot read is an issue on its characters as written.
        let bad = "{\"list\": \"4 Dreepy\\n\\t\\u00e9\\u00e9 ??\\n\"}";
        let deck = read(bad).unwrap();
        let issues: Vec<&str> = deck.issues.iter().map(|i| slice(bad, i.span)).collect();
        assert_eq!(issues, ["\\u00e9\\u00e9 ??"]);
    }

    /// A list kept in JavaScript source, as ptcg-story's 2008 World Championships records
    /// are written (`tests/corpus/lists/ptcg-story/2008-worlds-juniors-01.json`): a comma
    /// after the last card of a section and after the last section. Spans stay on the text
    /// as written; a comma in a string is the string's.
    #[test]
    fn a_comma_after_the_last_element_is_read_as_absent() {
        let text = "{\n  \"pokemon\": [\n    { \"count\": 4, \"name\": \"Scizor\", \"set\": \"MD\", \"number\": \"29\" },\n  ], \"energy\": [\n    { \"count\": 1, \"name\": \"Metal Energy, ]\", \"number\": 120, },\n  ],\n}\n";
        insta::assert_snapshot!(render(text), @r#"
        3: 4 "Scizor" Some("MD") Some("29") Some(Pokemon) | { "count": 4, "name": "Scizor", "set": "MD", "number": "29" } | Scizor
        5: 1 "Metal Energy, ]" None Some("120") Some(Energy) | { "count": 1, "name": "Metal Energy, ]", "number": 120, } | Metal Energy, ]
        "#);
        assert_eq!(without_trailing_commas("[1,2]"), "[1,2]");
        assert_eq!(without_trailing_commas("[,]"), "[,]");
        assert_eq!(without_trailing_commas("[1,,]"), "[1,,]");
        assert_eq!(without_trailing_commas("[1,2 ,\r\n]"), "[1,2  \r\n]");
        assert_eq!(without_trailing_commas(r#"["a\",]", ]"#), r#"["a\",]"  ]"#);
    }

    #[test]
    fn unescape_maps_each_byte_to_what_was_written() {
        let (value, map) = unescape(r#""a\u00e9\n\"\ud83d\ude00z""#).unwrap();
        assert_eq!(value, "aé\n\"😀z");
        // a, é (2 bytes), \n, ", 😀 (4 bytes), z, then the closing quote.
        assert_eq!(map, [1, 2, 2, 8, 10, 12, 12, 12, 12, 24, 25]);
        assert_eq!(unescape(r#""\ud800""#), None);
        assert_eq!(unescape(r#""\q""#), None);
    }
}
