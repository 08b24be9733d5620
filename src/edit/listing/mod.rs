//! A deck list as a canonical model ([`Listing`]) and its rendering in every layout and
//! language: what `deckbox fmt` and `deckbox convert` print.
//!
//! [`build`] turns a [`CheckedDeck`] into a [`Listing`]: sections Pokémon, Trainer, Energy
//! in that order, identical lines merged, a stable order inside each section (see the
//! `order` module), the list's own language kept. [`convert`] does the same with every
//! name taken from the card database in another language. [`render`] prints a listing as
//! a Pokémon TCG Live export, a legacy PTCGO list, a Limitless list or JSON. [`format`](fn@format) is
//! what `deckbox fmt` needs for one file ([`crate::util::atomic`] writes it).
//!
//! This module must never lose a card: a deck with unreadable lines is refused
//! ([`Refusal`]) rather than formatted without them. It never prints and never judges a
//! deck (that is [`crate::check`]). Decisions a caller must know:
//! - Lines merge when their written name (trimmed, exact) is the same and their set code
//!   and number are the same once normalized ([`crate::cards::split_subset`]); the merged
//!   line keeps the shortest of the written spellings, and `PH` when any line had it.
//!   Different printings of one card stay separate lines.
//! - A known card goes to the section of its printing's category; an unknown card stays in
//!   the section it was written under. An unknown card under no header is refused
//!   ([`Refusal`]) unless no card has a section (then the list stays headerless): filing it
//!   under some section would misfile it silently.
//! - Header counts count cards. Header words are the ones the parser reads, in the list's
//!   language ([`CheckedDeck::headers_language`]): the headers' language (when they fit
//!   several, the one of those most names are written in), else the language of the
//!   names, else English. Formatting its own output picks the same words again.
//! - Whole-line comments (`// ...`, `# ...`) are kept, in written order, at the top; a
//!   comment at the end of a card line (`4 Iono # tech`) is dropped. Free text before the
//!   first card and header (a title such as `Charizard ex - 1st place Regional`) is kept as
//!   a `//` comment, which reads back as the same title. A spreadsheet's header row
//!   (`Qty<TAB>Name<TAB>Set<TAB>No.`) is dropped with the tabs. A JSON list's
//!   `comments` are kept the same way.
//! - `fmt` prints the Pokémon TCG Live layout, except for a JSON list, which stays JSON in
//!   its own layout (the `keep_json` module): deckbox's own layout is written anew (and
//!   refused when it holds keys that layout has no place for), another tool's object or
//!   array keeps every key and value deckbox does not read, in order, and a text list held
//!   in a JSON string is formatted inside its string.
//! - A merged count above [`MAX_COUNT`] is printed on several lines, so the output always
//!   reads back.

mod keep_json;
mod order;
mod ptcgl;
mod render;
mod translate;

use std::collections::HashMap;

use serde::Serialize;

use crate::cards::identification::resolve;
use crate::cards::{CardDb, Category, Printing, PrintingId, number_key, set_key, split_subset};
use crate::check::{self, CheckedDeck};
use crate::deck::DeckInput;
use crate::deck::{CardLine, JsonLayout, MAX_COUNT, Section, Span};
use crate::formats::Format;
use crate::names::lang::Language;

pub use crate::deck::Layout;
pub use ptcgl::{ImportDoubts, for_ptcg_live};
pub use render::render;
pub(crate) use render::section_label;
pub use translate::{Untranslated, basic_energy_name};

/// A deck list in canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The language of headers and footer.
    pub language: Language,
    /// Whole-line comments of the input, trimmed, in written order.
    pub comments: Vec<String>,
    /// Non-empty groups, Pokémon, Trainer, Energy in that order. A group without a section
    /// exists only when no section has a card (unknown cards written without headers).
    pub groups: Vec<Group>,
}

/// The lines of one section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    pub section: Option<Section>,
    pub lines: Vec<ListLine>,
}

/// One line of the canonical list: one card in one printing, merged from every input line
/// that wrote it. Before merging (`build` reads each card line of the deck into one), it is
/// one input line, named, numbered and filed as the canonical list writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListLine {
    pub count: u32,
    pub name: String,
    pub set: Option<String>,
    pub number: Option<String>,
    pub ph: bool,
    /// The section of the printing (known cards) or written under (unknown cards).
    #[serde(skip)]
    pub section: Option<Section>,
    /// The printing the card was identified as; `None` for an unknown card.
    #[serde(skip)]
    pub printing: Option<PrintingId>,
    /// The card's English name from the database, when known.
    pub english: Option<String>,
    /// The input line numbers merged into this line, in order.
    pub source_lines: Vec<usize>,
    /// The spans of the input lines (a JSON list's card objects) merged into this line.
    #[serde(skip)]
    pub source_spans: Vec<Span>,
    /// The comment written after the card (merged lines' joined with `; `).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

impl Listing {
    /// Cards in the list.
    pub fn total(&self) -> u64 {
        self.groups.iter().map(Group::total).sum()
    }
}

impl Group {
    pub fn total(&self) -> u64 {
        self.lines.iter().map(|line| u64::from(line.count)).sum()
    }
}

/// Why a deck was not formatted: lines the parser could not read, which formatting would
/// silently drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// `(line number, what is wrong)`, in order.
    pub lines: Vec<(usize, String)>,
    /// Why, when it is not lines that would be dropped (a JSON list's keys).
    pub why: Option<String>,
    /// Whether it was a conversion that was refused (not a formatting).
    pub converting: bool,
}

impl Refusal {
    /// A refusal for a reason other than unreadable lines.
    pub(crate) fn because(why: String) -> Refusal {
        Refusal {
            lines: Vec::new(),
            why: Some(why),
            converting: false,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let done = if self.converting {
            "not converted"
        } else {
            "not formatted"
        };
        if let Some(why) = &self.why {
            return write!(f, "{done}: {why}");
        }
        let numbers: Vec<String> = self.lines.iter().map(|(n, _)| n.to_string()).collect();
        write!(
            f,
            "{done}: formatting would drop or misfile line{} {}",
            if numbers.len() == 1 { "" } else { "s" },
            numbers.join(", "),
        )?;
        for (line, message) in &self.lines {
            write!(f, "\n  line {line}: {message}")?;
        }
        Ok(())
    }
}

/// The canonical listing of a checked deck, names as written.
pub fn build(deck: &CheckedDeck, db: &CardDb) -> Result<Listing, Refusal> {
    refuse_unreadable(deck)?;
    refuse_unfiled(deck, db)?;
    let language = deck.headers_language.unwrap_or(Language::En);
    Ok(assemble(deck, db, entries(deck, db), language))
}

/// The canonical listing with every name in `language` from the database, and the lines
/// whose card has no name in it (kept as written).
pub fn convert(
    deck: &CheckedDeck,
    db: &CardDb,
    language: Language,
) -> Result<(Listing, Vec<Untranslated>), Refusal> {
    refuse_unreadable(deck)?;
    refuse_unfiled(deck, db)?;
    let mut entries = entries(deck, db);
    let untranslated = translate::names(&mut entries, db, language);
    Ok((assemble(deck, db, entries, language), untranslated))
}

/// A deck converted for `deckbox convert`: the text in the layout asked for, the lines whose
/// name has no translation, and what PTCG Live may not import (its layout only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The list in its layout: LF line endings, no BOM.
    pub text: String,
    /// Lines kept as written because their card has no name in the language asked for.
    pub untranslated: Vec<Untranslated>,
    /// What PTCG Live may not import, when the layout is its own.
    pub doubts: Option<ImportDoubts>,
}

/// What `deckbox convert` writes for `deck` in `layout`, names as written or, with
/// `language`, taken from the database in that language; a deck formatting would damage
/// is refused as [`format()`] refuses it, saying "not converted".
pub fn export(
    deck: &CheckedDeck,
    db: &CardDb,
    language: Option<Language>,
    layout: Layout,
) -> Result<Exported, Refusal> {
    let converted = match language {
        Some(language) => convert(deck, db, language),
        None => build(deck, db).map(|listing| (listing, Vec::new())),
    };
    let (mut listing, untranslated) = converted.map_err(|refusal| Refusal {
        converting: true,
        ..refusal
    })?;
    let doubts = (layout == Layout::Ptcgl).then(|| for_ptcg_live(&mut listing, db));
    Ok(Exported {
        text: render(&listing, layout),
        untranslated,
        doubts,
    })
}

fn refuse_unreadable(deck: &CheckedDeck) -> Result<(), Refusal> {
    if deck.list.issues.is_empty() {
        return Ok(());
    }
    Err(Refusal {
        lines: deck
            .list
            .issues
            .iter()
            .map(|issue| (issue.line, issue.message.clone()))
            .collect(),
        why: None,
        converting: false,
    })
}

/// Refuses a deck with a card that is neither known nor written under a header while other
/// cards have sections: nothing says which section it belongs in, and filing it under the
/// last one would make `Raging Bolt exx` an Energy card.
fn refuse_unfiled(deck: &CheckedDeck, db: &CardDb) -> Result<(), Refusal> {
    let unfiled = |card: &&crate::check::DeckCard| {
        card.line.section.is_none() && card.printing.and_then(|id| db.get(id)).is_none()
    };
    if deck.cards.iter().all(|card| unfiled(&card)) {
        return Ok(());
    }
    let lines: Vec<(usize, String)> = deck
        .cards
        .iter()
        .filter(unfiled)
        .map(|card| {
            (
                card.line.line,
                format!(
                    "'{}' is no card deckbox knows and is under no header, so its section is unknown; correct the name or write it under a `Pokémon:`, `Trainer:` or `Energy:` header",
                    card.line.name
                ),
            )
        })
        .collect();
    if lines.is_empty() {
        Ok(())
    } else {
        Err(Refusal {
            lines,
            why: None,
            converting: false,
        })
    }
}

impl ListLine {
    /// What makes two lines the same line: the name as written, the normalized printing.
    fn key(&self) -> (&str, Option<String>, Option<String>) {
        let (set, number) = match (&self.set, &self.number) {
            (Some(set), Some(number)) => {
                let (set, number) = split_subset(set, number);
                (Some(set), Some(number))
            }
            (set, number) => (
                set.as_deref().map(set_key),
                number.as_deref().map(number_key),
            ),
        };
        (self.name.as_str(), set, number)
    }
}

/// The deck's card lines, each in the section of its printing when known, not merged yet
/// (and without their English names, which [`assemble`] adds).
fn entries(deck: &CheckedDeck, db: &CardDb) -> Vec<ListLine> {
    deck.cards
        .iter()
        .map(|card| {
            let category = card.printing.and_then(|id| db.get(id)).map(|p| p.category);
            let section = category.map(Category::section).or(card.line.section);
            let printing = card.printing.and_then(|id| db.get(id));
            let (name, set, number) = written_printing(&card.line, printing, db);
            ListLine {
                count: card.line.count,
                name,
                set,
                number,
                ph: card.line.ph,
                section,
                printing: card.printing,
                english: None,
                source_lines: vec![card.line.line],
                source_spans: vec![card.line.span],
                comment: card.line.comment.clone(),
            }
        })
        .collect()
}

/// The name, set code and number as the line writes them, except spellings that deck
/// builders cannot read back: a database id (`sv3pt5-151`), a number without its set code
/// (`Lugia V  138`, `SWSH161`, `PAL185`), a set code read as the name's last word
/// (`Moo-Moo Milk EX 155`, Expedition's code is `EX`) and a type letter in place of a number
/// (`SVE R`). Those become the printed code and number of the printing the line was
/// identified as (`MEW 151`, `SIT 138`).
fn written_printing(
    line: &CardLine,
    printing: Option<&Printing>,
    db: &CardDb,
) -> (String, Option<String>, Option<String>) {
    let written = (line.name.clone(), line.set.clone(), line.number.clone());
    let Some(printing) = printing.filter(|p| !p.set_code.is_empty()) else {
        return written;
    };
    let printed = |name: &str| {
        (
            name.to_string(),
            Some(printing.set_code.clone()),
            Some(printing.number.clone()),
        )
    };
    // The printing the number names, not one assumed by name (`Iono PAL999`).
    let numbered = |number: &str| printing.has_written_number(number);
    match (line.set.as_deref(), line.number.as_deref()) {
        // An id names the printing only when it is the printing's set (`sv0-182` names no
        // set: Pal Pad was assumed by its name, and the line must still say so).
        (Some(set), Some(number))
            if (crate::deck::looks_like_set_id(set)
                && numbered(number)
                && db.set_code_of_id(set) == Some(printing.set_code.as_str()))
                || (resolve::is_placeholder(set, number)
                    && !resolve::is_energy_pseudo_code(set)) =>
        {
            printed(&line.name)
        }
        // A printed code typed in lower case (`drakloak twm 129`) is written in capitals:
        // the dash form of a database id (`twm-129`) would say something else.
        (Some(set), Some(number))
            if set.bytes().any(|b| b.is_ascii_lowercase())
                && db.set_code_of_id(set).is_none()
                && !db.by_set_number(set, number).is_empty() =>
        {
            if set_key(set) == printing.set_code && numbered(number) {
                printed(&line.name)
            } else {
                let set = Some(set.to_ascii_uppercase());
                (line.name.clone(), set, line.number.clone())
            }
        }
        (None, Some(number)) if numbered(number) => match line.name.trim().rsplit_once(' ') {
            Some((rest, code)) if set_key(code) == printing.set_code => printed(rest),
            _ => printed(&line.name),
        },
        // The number ends the card's name (`PokéDex HANDY909`): it is no number.
        (None, Some(number)) if names_card(&format!("{} {number}", line.name), printing) => {
            (format!("{} {number}", line.name), None, None)
        }
        _ => written,
    }
}

/// Whether `name` is one of the printing's names, in any language.
fn names_card(name: &str, printing: &Printing) -> bool {
    let key = crate::names::lookup_key(name);
    printing
        .names
        .iter()
        .any(|(_, own)| crate::names::lookup_key(own) == key)
}

/// Merges identical lines, keeping the first one's place (which orders unknown cards).
fn merge(entries: Vec<ListLine>) -> Vec<ListLine> {
    // Lines merge only when their names are written alike: most lists have no such pair.
    let mut names: Vec<&str> = entries.iter().map(|entry| entry.name.as_str()).collect();
    // By length first: most pairs differ there, and equal names are still side by side.
    names.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    if names.windows(2).all(|pair| pair.first() != pair.last()) {
        return entries;
    }
    // Where each entry goes: the place of the first entry with its key.
    let places: Vec<usize> = {
        let mut first: HashMap<_, usize> = HashMap::with_capacity(entries.len());
        (entries.iter())
            .map(|entry| {
                let next = first.len();
                *first.entry(entry.key()).or_insert(next)
            })
            .collect()
    };
    let mut merged: Vec<ListLine> = Vec::with_capacity(entries.len());
    for (entry, place) in entries.into_iter().zip(places) {
        let Some(kept) = merged.get_mut(place) else {
            merged.push(entry);
            continue;
        };
        kept.count = kept.count.saturating_add(entry.count);
        kept.ph |= entry.ph;
        kept.section = kept.section.or(entry.section);
        kept.printing = kept.printing.or(entry.printing);
        // The shortest spelling (then the smallest), so the result does not depend on the
        // input order: `MEE 5` rather than `MEE 005`.
        if spelling(&entry) < spelling(kept) {
            kept.set.clone_from(&entry.set);
            kept.number.clone_from(&entry.number);
        }
        kept.source_lines.extend(entry.source_lines);
        kept.source_spans.extend(entry.source_spans);
        kept.comment = match (kept.comment.take(), entry.comment) {
            (Some(kept), Some(more)) if kept != more => Some(format!("{kept}; {more}")),
            (kept, more) => kept.or(more),
        };
    }
    merged
}

/// How a line's set code and number are written, shortest first.
fn spelling(entry: &ListLine) -> (usize, &Option<String>, &Option<String>) {
    let len = |part: &Option<String>| part.as_deref().map_or(0, str::len);
    (
        len(&entry.set) + len(&entry.number),
        &entry.set,
        &entry.number,
    )
}

/// Merges, sorts and groups entries into a listing.
fn assemble(
    deck: &CheckedDeck,
    db: &CardDb,
    entries: Vec<ListLine>,
    language: Language,
) -> Listing {
    let merged = merge(entries);
    let mut groups: Vec<Group> = Vec::new();
    let mut loose: Vec<ListLine> = Vec::new();
    let mut by_section: [Vec<ListLine>; 3] = Default::default();
    for entry in merged {
        match entry.section {
            Some(section) => {
                if let Some(bucket) = by_section.get_mut(section_index(section)) {
                    bucket.push(entry);
                }
            }
            None => loose.push(entry),
        }
    }
    for (section, entries) in SECTIONS.into_iter().zip(by_section) {
        if entries.is_empty() {
            continue;
        }
        let sorted = order::sort(section, entries, db);
        groups.push(group(Some(section), sorted, db));
    }
    if !loose.is_empty() {
        loose.sort_by_key(|entry| entry.source_lines.first().copied());
        let lines: Vec<ListLine> = loose.into_iter().map(|e| with_english(e, db)).collect();
        match groups.last_mut() {
            Some(last) => last.lines.extend(lines),
            None => groups.push(Group {
                section: None,
                lines,
            }),
        }
    }
    Listing {
        language,
        comments: comments(deck),
        groups,
    }
}

const SECTIONS: [Section; 3] = [Section::Pokemon, Section::Trainer, Section::Energy];

fn section_index(section: Section) -> usize {
    match section {
        Section::Pokemon => 0,
        Section::Trainer => 1,
        Section::Energy => 2,
    }
}

fn group(section: Option<Section>, entries: Vec<ListLine>, db: &CardDb) -> Group {
    Group {
        section,
        lines: entries.into_iter().map(|e| with_english(e, db)).collect(),
    }
}

/// The line with its card's English name from the database, when known.
fn with_english(line: ListLine, db: &CardDb) -> ListLine {
    let english = line
        .printing
        .and_then(|id| db.get(id))
        .and_then(|p| p.names.get(Language::En))
        .map(str::to_owned);
    ListLine { english, ..line }
}

/// Whole-line comments: lines that are not cards, headers, footer or issues and start with
/// `//` or `#`, and free text before the first card and header (a title) made a `//`
/// comment; then a JSON list's `comments` (no line of JSON starts with `//` or `#`).
fn comments(deck: &CheckedDeck) -> Vec<String> {
    let list = &deck.list;
    // What each line (numbered from 1) is, as the parser found it.
    let text: std::borrow::Cow<str> = match deck.source.contains('\r') {
        true => deck.source.replace("\r\n", "\n").replace('\r', "\n").into(),
        false => deck.source.as_str().into(),
    };
    let mut kinds = vec![Line::Other; text.split('\n').count() + 1];
    let structural = (list.cards.iter().map(|card| card.line))
        .chain(list.headers.iter().map(|header| header.line))
        .chain(list.footer.iter().map(|footer| footer.line))
        .chain(list.issues.iter().map(|issue| issue.line));
    let notes = list.notes.iter().map(|note| note.line);
    for (line, kind) in (notes.map(|line| (line, Line::Note)))
        .chain(structural.map(|line| (line, Line::Structural)))
    {
        if let Some(slot) = kinds.get_mut(line) {
            *slot = kind;
        }
    }
    let kind = |index: usize| kinds.get(index + 1).copied().unwrap_or(Line::Other);
    text.split('\n')
        .enumerate()
        .filter(|(index, _)| kind(*index) != Line::Structural)
        .filter_map(|(index, line)| {
            let line = line.trim_matches(is_blank);
            if kind(index) == Line::Note {
                Some(format!("// {line}"))
            } else {
                (line.starts_with("//") || line.starts_with('#')).then(|| line.to_owned())
            }
        })
        .chain(list.comments.iter().cloned())
        .collect()
}

/// What a line of a list is, for [`comments`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// A card, a header, the footer or an issue: never a comment.
    Structural,
    /// Free text before the first card: a comment once `//` is put before it.
    Note,
    /// Anything else: a comment when it starts with `//` or `#`.
    Other,
}

/// Blanks as the parser counts them: white space, a BOM, a zero-width space.
fn is_blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{200B}')
}

/// The line ending and BOM of a file, kept when it is rewritten.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextStyle {
    pub crlf: bool,
    pub bom: bool,
}

impl TextStyle {
    /// CRLF when the text has any `\r\n`; a BOM when it starts with one.
    pub fn of(text: &str) -> TextStyle {
        TextStyle {
            crlf: text.contains("\r\n"),
            bom: text.starts_with('\u{FEFF}'),
        }
    }

    /// `text` (LF line endings, no BOM) in this style.
    pub fn apply(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + text.len() / 20 + 3);
        if self.bom {
            out.push('\u{FEFF}');
        }
        if self.crlf {
            out.push_str(&text.replace('\n', "\r\n"));
        } else {
            out.push_str(text);
        }
        out
    }
}

/// One deck file formatted: its text as read and in canonical form (same line endings and
/// BOM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    pub original: String,
    pub formatted: String,
}

impl Formatted {
    /// Whether the file is already canonical (then it must not be rewritten).
    pub fn is_canonical(&self) -> bool {
        self.original == self.formatted
    }
}

/// Formats one deck the way `deckbox fmt` prints it: in the Pokémon TCG Live layout, or,
/// when the deck is JSON, as JSON in its own layout (a `.json` file must stay JSON, and
/// keep what deckbox does not read, when rewritten).
pub fn format(input: &DeckInput, db: &CardDb, format: &Format) -> Result<Formatted, Refusal> {
    let deck = check::identify(input, db, format);
    let listing = build(&deck, db)?;
    canonical(input, &deck, &listing)
}

/// [`format()`] for `fmt --check`: `None` when the file is already canonical, found without
/// keeping the canonical text (it is compared with the file as it is written, up to the
/// first difference); else the file formatted, for its diff.
pub fn format_unless_canonical(
    input: &DeckInput,
    db: &CardDb,
    format: &Format,
) -> Result<Option<Formatted>, Refusal> {
    let deck = check::identify(input, db, format);
    let listing = build(&deck, db)?;
    let same = match layout(&deck) {
        Ok(layout) => {
            let style = TextStyle::of(&input.text);
            render::renders_as(&listing, layout, style, &input.text)
        }
        Err(layout) => keep_json::rewrite(&input.text, layout, &listing)? == input.text,
    };
    match same {
        true => Ok(None),
        false => canonical(input, &deck, &listing).map(Some),
    }
}

/// The layout `fmt` writes a deck in: the Pokémon TCG Live layout, or JSON for a JSON deck
/// (`Err`: JSON in its own layout, rewritten keeping what deckbox does not read).
fn layout(deck: &CheckedDeck) -> Result<Layout, &JsonLayout> {
    match &deck.list.json {
        None if deck.list.layout == Some(Layout::Json) => Ok(Layout::Json),
        None => Ok(Layout::Ptcgl),
        Some(JsonLayout::Own { foreign }) if foreign.is_empty() => Ok(Layout::Json),
        Some(layout) => Err(layout),
    }
}

/// The file and its canonical text.
fn canonical(
    input: &DeckInput,
    deck: &CheckedDeck,
    listing: &Listing,
) -> Result<Formatted, Refusal> {
    Ok(Formatted {
        original: input.text.clone(),
        formatted: write(deck, listing)?,
    })
}

/// The text `fmt` writes for `listing`, a listing of `deck` (as read, or with its cards
/// edited): the Pokémon TCG Live layout in the deck's line endings and BOM, or, for a JSON
/// list, JSON in its own layout keeping what deckbox does not read. `fmt --write` and the
/// edits of a JSON list (`add`, `remove`, `build`) write through this one function.
pub fn write(deck: &CheckedDeck, listing: &Listing) -> Result<String, Refusal> {
    match layout(deck) {
        Ok(layout) => Ok(TextStyle::of(&deck.source).apply(&render(listing, layout))),
        Err(layout) => keep_json::rewrite(&deck.source, layout, listing),
    }
}

/// Largest count printed on one line; see the module docs.
pub(crate) const LINE_COUNT_LIMIT: u32 = MAX_COUNT;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::storage::embedded;

    fn fmt(text: &str) -> String {
        let db = embedded::open().unwrap();
        let format = Format::load("unlimited").unwrap();
        let input = DeckInput::from_bytes("x", text.as_bytes());
        format_deck(&input, &db, &format)
    }

    fn format_deck(input: &DeckInput, db: &CardDb, deck_format: &Format) -> String {
        format(input, db, deck_format).unwrap().formatted
    }

    #[test]
    fn counts_above_the_parser_limit_are_split_and_stay_split() {
        let once = fmt("10000 Mystery Card\n10000 Mystery Card\n5 Mystery Card\n");
        insta::assert_snapshot!(once, @r"
        10000 Mystery Card
        10000 Mystery Card
        5 Mystery Card

        Total Cards: 20005
        ");
        assert_eq!(fmt(&once), once);
    }

    #[test]
    fn comments_move_to_the_top_a_card_keeps_its_own_and_a_number_without_code_gets_its_code() {
        let once = fmt("4 Iono  185 // tech\n// note\n# another\n");
        insta::assert_snapshot!(once, @r"
        // note
        # another

        Trainer: 4
        4 Iono PAL 185 // tech

        Total Cards: 4
        ");
        assert_eq!(fmt(&once), once);
    }

    #[test]
    fn export_says_not_converted_and_doubts_only_for_ptcg_live() {
        let db = embedded::open().unwrap();
        let format = Format::load("unlimited").unwrap();
        let checked = |text: &str| {
            check::identify(&DeckInput::from_bytes("x", text.as_bytes()), &db, &format)
        };
        let broken = checked("Pokémon: 1\n1 Dreepy TWM 128\nthis is no card line at all\n");
        let refusal = export(&broken, &db, None, Layout::Ptcgl).unwrap_err();
        assert!(
            refusal.to_string().starts_with("not converted: "),
            "{refusal}"
        );
        let formatted = build(&broken, &db).unwrap_err();
        assert!(
            formatted.to_string().starts_with("not formatted: "),
            "{formatted}"
        );
        let deck = checked("1 Dreepy\n");
        let live = export(&deck, &db, None, Layout::Ptcgl).unwrap();
        let doubts = live.doubts.unwrap();
        assert_eq!(doubts.uncoded_pokemon.len(), 1, "{doubts:?}");
        for layout in [Layout::Ptcgo, Layout::Limitless, Layout::Json] {
            let other = export(&deck, &db, None, layout).unwrap();
            assert_eq!(other.doubts, None, "{layout:?}");
            assert_eq!(other.text, render(&build(&deck, &db).unwrap(), layout));
        }
    }

    #[test]
    fn text_style_round_trips() {
        let style = TextStyle::of("\u{FEFF}a\r\nb\r\n");
        assert_eq!(
            style,
            TextStyle {
                crlf: true,
                bom: true
            }
        );
        assert_eq!(style.apply("a\nb\n"), "\u{FEFF}a\r\nb\r\n");
        assert_eq!(TextStyle::default().apply("a\n"), "a\n");
    }
}

#[cfg(test)]
mod compare_tests {
    use super::*;
    use crate::cards::storage::embedded;

    /// `fmt --check`'s comparer (the canonical text compared as it is written, never kept)
    /// says "canonical" exactly when the rendered text equals the file, byte for byte: for
    /// the examples once formatted, in every layout, with LF and CRLF, with and without a
    /// BOM, and for the same texts changed by one byte, a line ending, a BOM or a final
    /// newline.
    #[test]
    fn the_comparer_agrees_with_rendering_whole() {
        let db = embedded::open().unwrap();
        let unlimited = Format::load("unlimited").unwrap();
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut compared = 0;
        for name in [
            "dragapult.txt",
            "gardevoir-fr.txt",
            "ptcg-live.txt",
            "broken.txt",
        ] {
            let text = std::fs::read_to_string(examples.join(name)).unwrap();
            let input = DeckInput::from_bytes(name, text.as_bytes());
            let deck = check::identify(&input, &db, &unlimited);
            let Ok(listing) = build(&deck, &db) else {
                continue;
            };
            for layout in Layout::ALL {
                let rendered = render(&listing, layout);
                for (crlf, bom) in [(false, false), (true, false), (false, true), (true, true)] {
                    let style = TextStyle { crlf, bom };
                    let canonical = style.apply(&rendered);
                    let mut variants = vec![
                        canonical.clone(),
                        canonical.trim_end().to_owned(),
                        format!("{canonical}\n"),
                        canonical.replacen('\n', "\r\n", 1),
                        canonical.replace("\r\n", "\n"),
                        canonical.trim_start_matches('\u{FEFF}').to_owned(),
                        format!("\u{FEFF}{canonical}"),
                        canonical.replacen('4', "3", 1),
                        String::new(),
                    ];
                    let middle = canonical.len() / 2;
                    if canonical.is_char_boundary(middle) {
                        variants.push(canonical[..middle].to_owned());
                    }
                    for variant in variants {
                        let expected = variant == canonical;
                        let found = render::renders_as(&listing, layout, style, &variant);
                        assert_eq!(
                            found, expected,
                            "{name}, {layout:?}, {style:?}: {variant:?}"
                        );
                        compared += 1;
                    }
                }
            }
            // And through `format_unless_canonical`: a formatted file is canonical.
            let once = format(&input, &db, &unlimited).unwrap();
            let again = DeckInput::from_bytes(name, once.formatted.as_bytes());
            let unless = format_unless_canonical(&again, &db, &unlimited).unwrap();
            assert_eq!(unless, None, "{name}");
            let found = format_unless_canonical(&input, &db, &unlimited).unwrap();
            assert_eq!(found.is_none(), once.is_canonical(), "{name}");
        }
        assert!(compared > 300, "{compared}");
    }
}
