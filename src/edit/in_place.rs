//! Editing a deck list in place: adding and removing cards the way the list's author would.
//!
//! [`add`] and [`remove`] take a checked deck (its text, lines and identified printings) and
//! one card [`Spec`], and return the new text. In a text list, everything not touched by
//! the edit stays byte-for-byte (a JSON list is written again, see below): comments, blank
//! lines, line endings (CRLF, LF or CR), a BOM, trailing comments on the lines that
//! change. New lines copy the list's own style (count form, separators, indentation) and
//! are written in the list's language; header counts and the `Total Cards` footer follow
//! the change. This module must not read or write files, nor render anything: the CLI does
//! that (and writes with [`crate::util::atomic`]).
//!
//! Decisions a caller must know:
//! - A JSON list is not spliced: its cards are changed and the list is written again whole,
//!   exactly as `fmt --write` writes it (the `json` module), keeping what deckbox does not
//!   read. What `fmt --write` refuses to rewrite is refused ([`EditError::JsonRefused`]).
//! - A spec is one deck-list line, count optional: `2 Iono PAL 185`, `Iono`, `Iono PAL 185`.
//! - Add: a line already holding the same printing (spec with set code and number) or the
//!   same card (spec without) gets its count raised; otherwise a line is added at the end
//!   of the card's section, creating the section header when the list has headers but not
//!   that one.
//! - Remove: without a count every copy goes; with one, copies are taken from the last
//!   matching line upwards, and a line that reaches 0 is deleted. Removing more copies than
//!   the deck holds is an error. A spec with set code and number removes that printing only;
//!   a name removes the card in every printing and language.
//! - A header count keeps its meaning: a header that counted cards counts cards after the
//!   edit, one that counted lines (Pokémon TCG Live) counts lines. A count that was already
//!   wrong moves by the same amount, so the checker still shows it.

use std::ops::Range;

use crate::cards::identification::resolve::{self, Resolution};
use crate::cards::{CardDb, Printing, PrintingId};
use crate::check::{CheckedDeck, DeckCard};
use crate::deck::{self, Layout, MAX_COUNT, Section, Span};
use crate::names;
use crate::names::lang::Language;

mod json;

/// One card as the user typed it on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The spec as typed, for messages.
    pub text: String,
    /// `None` when no count was written (`Iono`).
    pub count: Option<u32>,
    pub name: String,
    pub set: Option<String>,
    pub number: Option<String>,
}

impl Spec {
    /// Whether the spec names one printing (set code and number).
    pub fn has_printing(&self) -> bool {
        self.set.is_some() && self.number.is_some()
    }
}

/// Why an edit could not be made. Nothing is changed when one happens.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("`{spec}` is not a card: write `[count] name [set number]`, such as `2 Iono PAL 185`")]
    BadSpec { spec: String },
    #[error("unknown card '{name}'{}", did_you_mean(suggestions))]
    UnknownCard {
        name: String,
        suggestions: Vec<String>,
    },
    #[error(
        "{printing} is {actual}, not '{name}'; write `{actual} {printing}` or fix the set code and number"
    )]
    Mismatch {
        name: String,
        printing: String,
        actual: String,
    },
    #[error("the deck holds no {what}")]
    NotInDeck { what: String },
    #[error("cannot remove {wanted} {what}: the deck holds {held}")]
    TooMany {
        what: String,
        wanted: u32,
        held: u64,
    },
    #[error("{what} would reach {count} copies on one line; at most {MAX_COUNT} can be written")]
    TooLarge { what: String, count: u64 },
    /// A JSON list that `fmt --write` would not rewrite: the reason, as `fmt` gives it.
    #[error("{reason}")]
    JsonRefused { reason: String },
}

fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        many => format!(
            "; did you mean {}?",
            many.iter()
                .map(|name| format!("'{name}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The result of an edit: the new text and one line per change, for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    pub text: String,
    pub changes: Vec<String>,
}

/// Reads a spec with the deck parser: a one-line list, its count optional.
pub fn parse_spec(spec: &str) -> Result<Spec, EditError> {
    let bad = || EditError::BadSpec {
        spec: spec.to_string(),
    };
    let trimmed = spec.trim();
    if trimmed.is_empty() || trimmed.contains(['\n', '\r']) {
        return Err(bad());
    }
    let list = deck::parse(trimmed);
    // A line that leaves its count out (`Iono [PAL 185]`) reads as one copy, with an
    // empty count span: a spec without a count.
    let has_count = list.cards.iter().any(|card| card.count_span.length > 0)
        || list
            .issues
            .iter()
            .any(|issue| issue.kind == deck::ParseIssueKind::BadCount);
    // Without a count (`Iono`), the spec is read as one copy and the count stays unset.
    let (count, list) = if has_count {
        (list.cards.first().map(|line| line.count), list)
    } else {
        (None, deck::parse(&format!("1 {trimmed}")))
    };
    let line = match (list.cards.as_slice(), list.issues.is_empty()) {
        ([line], true) => line.clone(),
        _ => return Err(bad()),
    };
    Ok(Spec {
        text: trimmed.to_string(),
        count,
        name: line.name,
        set: line.set,
        number: line.number,
    })
}

/// What a spec identifies: a printing (when the database knows the card) and the card's
/// identity key (see [`DeckCard::key`]).
struct Target<'a> {
    id: Option<PrintingId>,
    printing: Option<&'a Printing>,
    key: String,
}

fn identify<'a>(deck: &CheckedDeck, db: &'a CardDb, spec: &Spec) -> Result<Target<'a>, EditError> {
    let resolution = resolve::resolve(
        db,
        &spec.name,
        spec.set.as_deref(),
        spec.number.as_deref(),
        deck.language,
    );
    match resolution {
        Resolution::Found { id, .. } => {
            let printing = db.get(id);
            let key = printing.map_or_else(
                || names::lookup_key(&spec.name),
                |p| p.rules_key().to_string(),
            );
            Ok(Target {
                id: Some(id),
                printing,
                key,
            })
        }
        Resolution::Mismatch { printing, .. } => Err(EditError::Mismatch {
            name: spec.name.clone(),
            printing: format!(
                "{} {}",
                spec.set.as_deref().unwrap_or(""),
                spec.number.as_deref().unwrap_or("")
            ),
            actual: db
                .get(printing)
                .map(|p| names::canonical(p.names.primary()))
                .unwrap_or_default(),
        }),
        Resolution::Unknown => Err(EditError::UnknownCard {
            name: spec.name.clone(),
            suggestions: resolve::suggestions(db, &spec.name),
        }),
    }
}

/// Whether a deck line holds what the spec names: the same printing when the spec gives a
/// set code and number (and the line does too), else the same card.
fn holds(db: &CardDb, card: &DeckCard, target: &Target, spec: &Spec) -> bool {
    if spec.has_printing() {
        let written = card.line.set.is_some() && card.line.number.is_some();
        return written && target.id.is_some() && card.printing == target.id;
    }
    card.key(db) == target.key
}

/// Adds the spec's cards to the deck (1 when the spec has no count).
pub fn add(deck: &CheckedDeck, db: &CardDb, spec: &Spec) -> Result<Edited, EditError> {
    let target = identify(deck, db, spec)?;
    let count = spec.count.unwrap_or(1);
    let existing = deck
        .cards
        .iter()
        .position(|card| holds(db, card, &target, spec));
    let mut plan = Plan::default();
    match existing.and_then(|index| Some((index, deck.cards.get(index)?))) {
        Some((index, card)) => {
            let total = u64::from(card.line.count) + u64::from(count);
            let new = u32::try_from(total)
                .ok()
                .filter(|&n| n <= MAX_COUNT)
                .ok_or_else(|| EditError::TooLarge {
                    what: spec.name.clone(),
                    count: total,
                })?;
            plan.counts.push((index, new));
        }
        None if json::is_json(deck) => {
            plan.new_card = Some(json::new_card(deck, &target, spec, count));
        }
        None => plan.insert = Some(new_line(deck, &target, spec, count)),
    }
    plan.apply(deck, db)
}

/// Removes the spec's cards: every copy without a count, else that many.
pub fn remove(deck: &CheckedDeck, db: &CardDb, spec: &Spec) -> Result<Edited, EditError> {
    let target = match identify(deck, db, spec) {
        Ok(target) => target,
        // A card the database does not know can still be removed by its written name.
        Err(EditError::UnknownCard { .. }) if unresolved_in_deck(deck, spec) => Target {
            id: None,
            printing: None,
            key: names::lookup_key(&spec.name),
        },
        Err(error) => return Err(error),
    };
    let what = match (&spec.set, &spec.number) {
        (Some(set), Some(number)) => format!("{} {set} {number}", spec.name),
        _ => spec.name.clone(),
    };
    let matching: Vec<usize> = (0..deck.cards.len())
        .filter(|&i| {
            deck.cards
                .get(i)
                .is_some_and(|card| holds(db, card, &target, spec))
        })
        .collect();
    if matching.is_empty() {
        return Err(EditError::NotInDeck { what });
    }
    let mut plan = Plan::default();
    let Some(mut left) = spec.count else {
        plan.counts = matching.iter().map(|&i| (i, 0)).collect();
        return plan.apply(deck, db);
    };
    let held: u64 = matching
        .iter()
        .filter_map(|&i| deck.cards.get(i))
        .map(|card| u64::from(card.line.count))
        .sum();
    if u64::from(left) > held {
        return Err(EditError::TooMany {
            what,
            wanted: left,
            held,
        });
    }
    for &index in matching.iter().rev() {
        let Some(card) = deck.cards.get(index) else {
            continue;
        };
        if left == 0 {
            break;
        }
        let taken = left.min(card.line.count);
        left -= taken;
        plan.counts.push((index, card.line.count - taken));
    }
    plan.apply(deck, db)
}

/// The deck's card line `index` moved to another printing of its card, where it stands:
/// the line is written again in the list's style with the same count and `spec`'s set code
/// and number, its comment kept (as `// comment`), every other byte as it was. A JSON list
/// is written again whole, as [`remove`] then [`add`] would.
pub fn reprint(
    deck: &CheckedDeck,
    db: &CardDb,
    index: usize,
    spec: &Spec,
) -> Result<Edited, EditError> {
    let card = deck.cards.get(index).ok_or_else(|| EditError::NotInDeck {
        what: spec.name.clone(),
    })?;
    let target = identify(deck, db, spec)?;
    if json::is_json(deck) {
        let mut plan = Plan {
            counts: vec![(index, 0)],
            ..Plan::default()
        };
        plan.new_card = Some(json::new_card(deck, &target, spec, card.line.count));
        return plan.apply(deck, db);
    }
    let section = target.printing.map(|p| p.category.section());
    let mut line = line_text(deck, &target, spec, card.line.count, section);
    if let Some(comment) = &card.line.comment {
        line.push_str(" // ");
        line.push_str(comment);
    }
    let source = deck.source.as_str();
    let (before, after) = (
        source.get(..card.line.span.offset).unwrap_or(""),
        source.get(card.line.span.end()..).unwrap_or(""),
    );
    let old = source.get(span_range(card.line.span)).unwrap_or("");
    Ok(Edited {
        changes: vec![format!("{old} -> {line}")],
        text: format!("{before}{line}{after}"),
    })
}

fn unresolved_in_deck(deck: &CheckedDeck, spec: &Spec) -> bool {
    let key = names::lookup_key(&spec.name);
    deck.cards
        .iter()
        .any(|card| card.printing.is_none() && names::lookup_key(&card.line.name) == key)
}

/// A new line to insert: where, what, and which existing header's section it joins.
#[derive(Debug)]
struct Insert {
    at: usize,
    text: String,
    /// The existing header whose section gains the line; `None` when the line goes under a
    /// header created with it, or the list has no headers.
    header: Option<usize>,
    cards: u32,
    description: String,
}

/// The changes of one edit, planned on the old text and applied at once.
#[derive(Debug, Default)]
struct Plan {
    /// Card index (into `deck.cards`) and its new count; 0 deletes the line.
    counts: Vec<(usize, u32)>,
    insert: Option<Insert>,
    /// A JSON list's new card (a text list gets an [`Insert`] instead).
    new_card: Option<DeckCard>,
}

/// A replacement of a byte range of the old text.
type Splice = (Range<usize>, String);

impl Plan {
    /// The edited list: a text list spliced, a JSON list written again.
    fn apply(self, deck: &CheckedDeck, db: &CardDb) -> Result<Edited, EditError> {
        if json::is_json(deck) {
            json::apply(self, deck, db)
        } else {
            Ok(self.splice_text(deck))
        }
    }

    fn splice_text(self, deck: &CheckedDeck) -> Edited {
        let text = deck.source.as_str();
        let mut splices: Vec<Splice> = Vec::new();
        let mut changes = Vec::new();
        for &(index, count) in &self.counts {
            let Some(card) = deck.cards.get(index) else {
                continue;
            };
            let line = card.line.line;
            let written = text.get(span_range(card.line.span)).unwrap_or_default();
            // A card in a cell of a table row (`1 Mew CEL<TAB>2 Temple of Sinnoh`) shares
            // its line: only its cell is emptied, the others stay.
            let shared = (deck.cards.iter())
                .any(|other| other.line.line == line && other.line.span != card.line.span);
            if count == 0 && shared {
                splices.push((span_range(card.line.span), String::new()));
                changes.push(format!("line {line}: removed {written}"));
            } else if count == 0 {
                splices.push((line_range(text, card.line.span), String::new()));
                changes.push(format!("line {line} removed: {written}"));
            } else if card.line.count_span.length == 0 {
                // A line written without its count (`Iono [PAL 185]`): the count goes first.
                let at = card.line.count_span.offset;
                splices.push((at..at, format!("{count} ")));
                changes.push(format!(
                    "line {line}: {} → {count} {}",
                    card.line.count, card.line.name
                ));
            } else if let Some(splice) = replace_number(text, card.line.count_span, count) {
                splices.push(splice);
                changes.push(format!(
                    "line {line}: {} → {count} {}",
                    card.line.count, card.line.name
                ));
            }
        }
        splices.extend(self.header_splices(deck));
        splices.extend(self.footer_splice(deck));
        if let Some(insert) = self.insert {
            changes.push(insert.description);
            splices.push((insert.at..insert.at, insert.text));
        }
        Edited {
            text: splice(text, splices),
            changes,
        }
    }

    /// Card and line deltas of each header's section (by header index), in one pass.
    fn section_deltas(&self, deck: &CheckedDeck) -> Vec<(i64, i64)> {
        let mut deltas = vec![(0i64, 0i64); deck.list.headers.len()];
        let parents = deck.list.header_parents();
        for &(index, count) in &self.counts {
            let Some(card) = deck.cards.get(index) else {
                continue;
            };
            for h in headers_over(&parents, header_of(deck, card.line.line)) {
                if let Some(delta) = deltas.get_mut(h) {
                    delta.0 += i64::from(count) - i64::from(card.line.count);
                    delta.1 -= i64::from(count == 0);
                }
            }
        }
        if let Some(insert) = &self.insert {
            for h in headers_over(&parents, insert.header) {
                if let Some(delta) = deltas.get_mut(h) {
                    delta.0 += i64::from(insert.cards);
                    delta.1 += 1;
                }
            }
        }
        deltas
    }

    fn header_splices(&self, deck: &CheckedDeck) -> Vec<Splice> {
        let measures = section_measures(deck);
        let deltas = self.section_deltas(deck);
        let mut out = Vec::new();
        for ((header, &(cards, lines)), &(delta_cards, delta_lines)) in
            deck.list.headers.iter().zip(&measures).zip(&deltas)
        {
            let Some(written) = header.count else {
                continue;
            };
            let delta = match meaning(written, cards, lines, deck.list.layout) {
                Meaning::Cards => delta_cards,
                Meaning::Lines => delta_lines,
            };
            if delta != 0 {
                let new = shifted(written, delta);
                out.extend(replace_number(&deck.source, header.span, new));
            }
        }
        out
    }

    fn footer_splice(&self, deck: &CheckedDeck) -> Option<Splice> {
        let footer = deck.list.footer.as_ref()?;
        let written = footer.count?;
        let mut delta: i64 = self
            .counts
            .iter()
            .filter_map(|&(index, count)| {
                let card = deck.cards.get(index)?;
                Some(i64::from(count) - i64::from(card.line.count))
            })
            .sum();
        delta += self.insert.as_ref().map_or(0, |i| i64::from(i.cards));
        (delta != 0).then(|| replace_number(&deck.source, footer.span, shifted(written, delta)))?
    }
}

fn shifted(written: u64, delta: i64) -> u64 {
    written.saturating_add_signed(delta)
}

/// What a header's number counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Meaning {
    Cards,
    Lines,
}

/// The meaning of a header that says `written` over a section of `cards` on `lines`: what
/// it matches, else what the layout uses (Pokémon TCG Live counts lines).
fn meaning(written: u64, cards: u64, lines: u64, layout: Option<Layout>) -> Meaning {
    match (written == cards, written == lines) {
        (true, false) => Meaning::Cards,
        (false, true) => Meaning::Lines,
        _ if layout == Some(Layout::Ptcgl) => Meaning::Lines,
        _ => Meaning::Cards,
    }
}

/// The index of the header a line is listed under (the last header above it). Headers
/// are in line order, so this is a binary search.
fn header_of(deck: &CheckedDeck, line: usize) -> Option<usize> {
    let above = deck
        .list
        .headers
        .partition_point(|header| header.line < line);
    above.checked_sub(1)
}

/// The headers whose numbers count a line listed under header `header`: that header, and
/// the section header above it when it heads a part (`Supporters (12)` in `Trainer (34)`).
fn headers_over(parents: &[Option<usize>], header: Option<usize>) -> impl Iterator<Item = usize> {
    let parent = header.and_then(|h| parents.get(h).copied().flatten());
    header.into_iter().chain(parent)
}

/// Cards and lines listed under each header, in one pass.
fn section_measures(deck: &CheckedDeck) -> Vec<(u64, u64)> {
    let mut measures = vec![(0u64, 0u64); deck.list.headers.len()];
    let parents = deck.list.header_parents();
    for card in &deck.cards {
        for h in headers_over(&parents, header_of(deck, card.line.line)) {
            if let Some(measure) = measures.get_mut(h) {
                measure.0 += u64::from(card.line.count);
                measure.1 += 1;
            }
        }
    }
    measures
}

/// Applies non-overlapping splices to `text`.
fn splice(text: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|(range, _)| (range.start, range.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for (range, replacement) in splices {
        if range.start < at {
            continue;
        }
        out.push_str(text.get(at..range.start).unwrap_or_default());
        out.push_str(&replacement);
        at = range.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

fn span_range(span: Span) -> Range<usize> {
    span.offset..span.end()
}

/// Replaces the last run of digits inside `span` by `value`: the count of `* 4`, `4x`,
/// `Pokémon: 12`, `Trainers (30)`, `Total Cards - 60`.
fn replace_number(text: &str, span: Span, value: impl std::fmt::Display) -> Option<Splice> {
    let part = text.get(span_range(span))?;
    let end = part.rfind(|c: char| c.is_ascii_digit())? + 1;
    let head = part.get(..end)?;
    let start = head
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    Some((span.offset + start..span.offset + end, value.to_string()))
}

/// Where the line holding `offset` starts (after a BOM on the first line).
fn line_start(text: &str, offset: usize) -> usize {
    let before = text.get(..offset).unwrap_or_default();
    match before.rfind(['\n', '\r']) {
        Some(at) => at + 1,
        None if text.starts_with('\u{FEFF}') => '\u{FEFF}'.len_utf8(),
        None => 0,
    }
}

/// The bytes to delete to remove the line of `span`: the whole line and its ending; for a
/// last line without an ending, the ending before it instead.
fn line_range(text: &str, span: Span) -> Range<usize> {
    let start = line_start(text, span.offset);
    let after = text.get(span.end()..).unwrap_or_default();
    match after.find(['\n', '\r']) {
        Some(at) => {
            let ending = if after.get(at..).is_some_and(|s| s.starts_with("\r\n")) {
                2
            } else {
                1
            };
            start..span.end() + at + ending
        }
        None => {
            let before = text.get(..start).unwrap_or_default();
            let ending = if before.ends_with("\r\n") {
                2
            } else {
                usize::from(before.ends_with(['\n', '\r']))
            };
            start - ending..text.len()
        }
    }
}

/// The list's line ending: the first one it uses, `\n` when it has none.
fn line_ending(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(at) if text.get(at..).is_some_and(|s| s.starts_with("\r\n")) => "\r\n",
        Some(at) if text.get(at..).is_some_and(|s| s.starts_with('\r')) => "\r",
        _ => "\n",
    }
}

fn section_rank(section: Section) -> u8 {
    match section {
        Section::Pokemon => 0,
        Section::Trainer => 1,
        Section::Energy => 2,
    }
}

/// The deck's language for what is written into it: its cards' language, else its
/// headers', else English.
fn deck_language(deck: &CheckedDeck) -> Language {
    deck.language.or(deck.list.language).unwrap_or(Language::En)
}

/// Plans a new line for `count` copies of the target.
fn new_line(deck: &CheckedDeck, target: &Target, spec: &Spec, count: u32) -> Insert {
    let section = target.printing.map(|p| p.category.section());
    let text = line_text(deck, target, spec, count, section);
    let description = format!("new line: {text}");
    let header = section.and_then(|s| deck.list.headers.iter().position(|h| h.section == s));
    let (at, text) = match (header, section) {
        (Some(h), _) => {
            let anchor = deck
                .cards
                .iter()
                .rfind(|card| header_of(deck, card.line.line) == Some(h))
                .map(|card| card.line.span)
                .or_else(|| deck.list.headers.get(h).map(|header| header.span))
                .unwrap_or(Span::new(0, 0));
            after_line(deck, anchor, section, &text)
        }
        (None, Some(section)) if !deck.list.headers.is_empty() => {
            new_section(deck, section, &text, count)
        }
        _ => match deck.cards.last() {
            Some(card) => after_line(deck, card.line.span, section, &text),
            None => at_the_end(&deck.source, &text),
        },
    };
    Insert {
        at,
        text,
        header,
        cards: count,
        description,
    }
}

/// Inserts `line` after the line of `anchor`, indented like the section's lines.
fn after_line(
    deck: &CheckedDeck,
    anchor: Span,
    section: Option<Section>,
    line: &str,
) -> (usize, String) {
    let eol = line_ending(&deck.source);
    let indent = indent_of(deck, section);
    (anchor.end(), format!("{eol}{indent}{line}"))
}

/// Appends `line` to a list without card lines, ending it with a line ending.
fn at_the_end(source: &str, line: &str) -> (usize, String) {
    let eol = line_ending(source);
    let block = if source.is_empty() || source.ends_with(['\n', '\r']) {
        format!("{line}{eol}")
    } else {
        format!("{eol}{line}{eol}")
    };
    (source.len(), block)
}

/// The card line that shows the list's style: the last line of the section, else the last
/// card line of the deck.
fn template(deck: &CheckedDeck, section: Option<Section>) -> Option<&DeckCard> {
    deck.cards
        .iter()
        .rfind(|card| section.is_some() && card.line.section == section)
        .or_else(|| deck.cards.last())
}

/// The blanks before the template line's text.
fn indent_of(deck: &CheckedDeck, section: Option<Section>) -> &str {
    let Some(card) = template(deck, section) else {
        return "";
    };
    let offset = card.line.span.offset;
    deck.source
        .get(line_start(&deck.source, offset)..offset)
        .unwrap_or_default()
}

/// The new line's text in the list's style: count form and separators of the template,
/// the card's name in the list's language, the spec's set code and number.
fn line_text(
    deck: &CheckedDeck,
    target: &Target,
    spec: &Spec,
    count: u32,
    section: Option<Section>,
) -> String {
    let source = deck.source.as_str();
    let (count_text, gap) = match template(deck, section) {
        Some(card) => {
            let count_text = replace_number(source, card.line.count_span, count)
                .map(|(range, digits)| {
                    let written = source.get(span_range(card.line.count_span)).unwrap_or("");
                    let local = range.start - card.line.count_span.offset
                        ..range.end - card.line.count_span.offset;
                    splice(written, vec![(local, digits)])
                })
                .unwrap_or_else(|| count.to_string());
            let gap = source
                .get(card.line.count_span.end()..card.line.name_span.offset)
                .filter(|gap| !gap.is_empty())
                .unwrap_or(" ");
            (count_text, gap)
        }
        None => (count.to_string(), " "),
    };
    let name = new_name(deck, target, spec);
    let mut text = format!("{count_text}{gap}{name}");
    if let (Some(set), Some(number)) = (&spec.set, &spec.number) {
        text.push_str(&format!("{gap}{set}{gap}{number}"));
    }
    text
}

/// The name a new line writes: the card's name in the list's language (else English, else
/// its first name), or the spec's name for a card without a printing.
fn new_name(deck: &CheckedDeck, target: &Target, spec: &Spec) -> String {
    let language = deck_language(deck);
    target
        .printing
        .map(|p| {
            p.names
                .get(language)
                .or_else(|| p.names.get(Language::En))
                .unwrap_or_else(|| p.names.primary())
        })
        .unwrap_or(spec.name.as_str())
        .to_string()
}

/// Where a new section goes and its text (header and the one line): before the next
/// section's header, else after the last card line (or header) of the deck.
fn new_section(deck: &CheckedDeck, section: Section, line: &str, count: u32) -> (usize, String) {
    let source = deck.source.as_str();
    let eol = line_ending(source);
    let header = header_text(deck, section, count, 1);
    let indent = indent_of(deck, Some(section));
    // PTCGO exports leave a blank line under each header; the new one does the same.
    let header = match deck.list.headers.first() {
        Some(first) if blank_line_after(source, first.span) => format!("{header}{eol}"),
        _ => header,
    };
    let next = deck
        .list
        .headers
        .iter()
        .find(|h| section_rank(h.section) > section_rank(section));
    if let Some(next) = next {
        let at = line_start(source, next.span.offset);
        return (at, format!("{header}{eol}{indent}{line}{eol}{eol}"));
    }
    let anchor = deck
        .cards
        .last()
        .map(|card| card.line.span)
        .into_iter()
        .chain(deck.list.headers.last().map(|h| h.span))
        .max_by_key(|span| span.offset)
        .unwrap_or(Span::new(0, 0));
    (
        anchor.end(),
        format!("{eol}{eol}{header}{eol}{indent}{line}"),
    )
}

/// Whether the line after the one ending at `span` is blank.
fn blank_line_after(source: &str, span: Span) -> bool {
    let rest = source.get(span.end()..).unwrap_or_default();
    let Some(rest) = ["\r\n", "\n", "\r"]
        .iter()
        .find_map(|eol| rest.strip_prefix(eol))
    else {
        return false;
    };
    let next = rest.split(['\n', '\r']).next().unwrap_or_default();
    next.len() < rest.len() && next.trim().is_empty()
}

/// The header that a run of `cards` cards on `lines` lines of `section`, listed under
/// another kind's header, lacks (the `wrong-section` finding's fix), and where it goes: the
/// start of the line at `offset`. Shaped and worded like the list's own headers.
pub fn header_above(
    deck: &CheckedDeck,
    section: Section,
    offset: usize,
    cards: u32,
    lines: u32,
) -> (usize, String) {
    let source = deck.source.as_str();
    let header = header_text(deck, section, cards, lines);
    (
        line_start(source, offset),
        format!("{header}{}", line_ending(source)),
    )
}

/// A header for `section` shaped like the list's first header: its decoration (`##`,
/// `**`), separator (`: `, ` : `, ` - `, ` (…)`) and whether it has a number, which counts
/// `cards` or `lines` as the list's headers do.
fn header_text(deck: &CheckedDeck, section: Section, cards: u32, lines: u32) -> String {
    let language = deck.headers_language.unwrap_or(Language::En);
    let Some(first) = deck.list.headers.first() else {
        return format!(
            "{}: {cards}",
            crate::edit::listing::section_label(section, language, false)
        );
    };
    let written = deck.source.get(span_range(first.span)).unwrap_or_default();
    let (prefix, old_label, suffix) = split_header(written);
    let ptcgo =
        old_label.to_lowercase().ends_with("cards") || deck.list.layout == Some(Layout::Ptcgo);
    let number = if headers_count_lines(deck) {
        lines
    } else {
        cards
    };
    let suffix = match replace_number(suffix, Span::new(0, suffix.len()), number) {
        Some(number) => splice(suffix, vec![number]),
        None => suffix.to_string(),
    };
    format!(
        "{prefix}{}{suffix}",
        crate::edit::listing::section_label(section, language, ptcgo)
    )
}

/// Splits a header line into its decoration, its label and what follows: `##`, `Pokémon`,
/// ` - 17`; ``, `Trainers`, ` (30)`; `**`, `Pokémon`, ` (12)**`.
fn split_header(written: &str) -> (&str, &str, &str) {
    let body =
        written.trim_start_matches(|c: char| matches!(c, '#' | '*' | '_') || c.is_whitespace());
    let prefix = written
        .get(..written.len() - body.len())
        .unwrap_or_default();
    let label = body.trim_end_matches(|c: char| {
        c.is_ascii_digit()
            || c.is_whitespace()
            || matches!(c, '*' | '_' | '(' | ')' | ':' | '-' | '–' | '—')
    });
    let suffix = body.get(label.len()..).unwrap_or_default();
    (prefix, label, suffix)
}

/// Whether the list's first numbered header counts lines rather than cards.
fn headers_count_lines(deck: &CheckedDeck) -> bool {
    let measures = section_measures(deck);
    deck.list
        .headers
        .iter()
        .zip(&measures)
        .find_map(|(header, &(cards, lines))| {
            let written = header.count?;
            Some(meaning(written, cards, lines, deck.list.layout))
        })
        == Some(Meaning::Lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let spec = parse_spec("2 Iono PAL 185").unwrap();
        assert_eq!(spec.count, Some(2));
        assert_eq!(spec.name, "Iono");
        assert_eq!(spec.set.as_deref(), Some("PAL"));
        assert_eq!(spec.number.as_deref(), Some("185"));
        let spec = parse_spec("Iono PAL 185").unwrap();
        assert_eq!((spec.count, spec.name.as_str()), (None, "Iono"));
        assert!(spec.has_printing());
        let spec = parse_spec("  Iono ").unwrap();
        assert_eq!(
            (spec.count, spec.name.as_str(), spec.set),
            (None, "Iono", None)
        );
        assert_eq!(parse_spec("4x Ultra Ball").unwrap().count, Some(4));
        assert!(parse_spec("").is_err());
        assert!(parse_spec("2 Iono\n3 Arven").is_err());
        assert!(parse_spec("0 Iono").is_err());
        assert!(parse_spec("-2 Iono").is_err());
        assert!(parse_spec("Pokémon: 12").is_ok(),);
    }

    #[test]
    fn numbers_are_replaced_inside_spans() {
        let text = "##Pokémon - 17\n* 4 Lugia";
        let (range, value) = replace_number(text, Span::new(0, 15), 18).unwrap();
        assert_eq!(
            splice(text, vec![(range, value)]),
            "##Pokémon - 18\n* 4 Lugia"
        );
        assert_eq!(replace_number("Pokémon", Span::new(0, 8), 1), None);
    }

    #[test]
    fn headers_split_around_their_label() {
        assert_eq!(split_header("##Pokémon - 17"), ("##", "Pokémon", " - 17"));
        assert_eq!(split_header("Trainers (30)"), ("", "Trainers", " (30)"));
        assert_eq!(split_header("**Énergie :**"), ("**", "Énergie", " :**"));
        assert_eq!(split_header("Pokémon"), ("", "Pokémon", ""));
    }

    #[test]
    fn line_ranges_take_the_line_ending() {
        let text = "\u{FEFF}4 A\r\n2 B\r\n1 C";
        let bom = '\u{FEFF}'.len_utf8();
        assert_eq!(line_range(text, Span::new(bom, 3)), bom..bom + 5);
        assert_eq!(
            line_range(text, Span::new(bom + 10, 3)),
            bom + 8..text.len()
        );
        assert_eq!(line_ending(text), "\r\n");
        assert_eq!(line_ending("4 A"), "\n");
    }
}
