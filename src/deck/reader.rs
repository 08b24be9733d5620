//! Building a [`DeckList`] from classified lines: tracking the current section, turning
//! ranges into spans of the whole text, recording issues and the layout clues.
//!
//! This module must not decide what a line is (that is [`super::classify`]) and must not
//! judge the deck as a whole (header counts, deck size): that is the checker's job.

use super::card::{Count, Parts, Range};
use super::classify::{Class, classify};
use super::header::{Form, Hint, Marker, Role, deck_language, fitting_languages};
use super::lines::{Line, last_tokens, trim, unclosed_brackets};
use super::shapes::{self, EXAMPLE};
use super::spreadsheet::{self, Columns};
use super::{
    CardLine, DeckList, Footer, Header, Layout, MAX_COUNT, Note, ParseIssue, ParseIssueKind,
    Section, Span, Title,
};

/// The message for a line whose count is written in full-width digits (`４ Iono`, as a
/// Japanese input method types them): which digits to write instead.
fn full_width_count(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    let digits: String = trimmed
        .chars()
        .take_while(|c| ('\u{FF10}'..='\u{FF19}').contains(c))
        .collect();
    if digits.is_empty() {
        return None;
    }
    let ascii: String = digits
        .chars()
        .filter_map(|c| char::from_u32(u32::from(c) - 0xFF10 + u32::from('0')))
        .collect();
    Some(format!(
        "the count '{digits}' is written in full-width digits; write it as '{ascii}'"
    ))
}

/// A comment's text without its `//` or `#` marker and surrounding blanks.
fn comment_text(line: &str) -> &str {
    let text = line
        .strip_prefix("//")
        .unwrap_or_else(|| line.trim_start_matches('#'));
    trim(text).1
}

/// The text of a card line's trailing ` // ...` or ` # ...` comment (`tech` for `1 Ultra
/// Ball MEG 131 // tech`); `None` when it has none or it is empty.
fn trailing_comment(line: &str) -> Option<String> {
    let comment = comment_text(line.get(super::card::comment_start(line)..)?);
    (!comment.is_empty()).then(|| comment.to_owned())
}

/// A line's comment with the note written after its count before it (`Leafeon x2 (Leaf
/// Guard One) // tech`: `(Leaf Guard One); tech`), as a note after the card is kept.
fn with_note(note: Option<String>, comment: Option<String>) -> Option<String> {
    match (note, comment) {
        (Some(note), Some(comment)) => Some(format!("{note}; {comment}")),
        (note, comment) => note.or(comment),
    }
}

/// Reads lines one by one; [`Reader::finish`] resolves what needs the whole deck.
pub(crate) struct Reader {
    /// Whether a non-blank line was read: only the first one can be the title.
    started: bool,
    /// Whether no card, header or footer was read yet: free text here is a note.
    preamble: bool,
    /// The columns a spreadsheet's header row named, for the rows after it.
    columns: Option<Columns>,
    deck: DeckList,
    section: Option<Section>,
    /// Language hints of `deck.headers`, in order, then the footer's.
    header_hints: Vec<Hint>,
    footer_hint: Option<Hint>,
    ptcgo: bool,
    colon_headers: bool,
    coded_cards: bool,
    /// Whether a row of section headers (`Pokémon – 18 Trainers – 31 Energy – 11`) said the
    /// list is printed as a table, until the next header of its own.
    table: bool,
    /// The number of the last card line if it leaves a bracket open (its note wrapped onto
    /// the next line, see [`closes_a_wrapped_note`]).
    open_note: Option<usize>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            started: false,
            preamble: true,
            columns: None,
            deck: DeckList::default(),
            section: None,
            header_hints: Vec::new(),
            footer_hint: None,
            ptcgo: false,
            colon_headers: false,
            coded_cards: false,
            table: false,
            open_note: None,
        }
    }
}

impl Reader {
    pub(crate) fn read(&mut self, line: Line<'_>) {
        if self.columns.is_none()
            && let Some((table, cells)) = table_cells(line, self.table)
        {
            return self.table_row(table, &cells);
        }
        let row = self.columns.as_ref().and_then(|columns| {
            let (count, parts) = spreadsheet::row(line.text, Some(columns))?;
            Some(Class::Card {
                count,
                parts: Some((0, parts)),
            })
        });
        let class = row.unwrap_or_else(|| classify(line.text));
        let open_note = self.open_note.take();
        let first = !self.started && class != Class::Blank;
        self.started |= first;
        match class {
            Class::Blank => {}
            Class::Comment => {
                if first {
                    self.title(line, comment_text(line.text));
                }
            }
            // Only the PTCGO banner tells the layout; `-----` separators are everywhere.
            Class::Banner => self.ptcgo |= line.text.starts_with("***"),
            Class::ColumnNames(columns) => self.columns = Some(columns),
            Class::Marker(marker) => {
                self.preamble = false;
                self.marker(line, marker);
            }
            Class::Card { count, parts } => {
                self.preamble = false;
                self.card(line, &count, parts);
            }
            Class::Unreadable => match full_width_count(line.text) {
                Some(message) => self.issue(line, ParseIssueKind::Unreadable, &message, None),
                // The end of the last card line's note, wrapped onto this one by a post
                // (`4 – Igglybuff HL (Search for a basic + a basic energy card. How can
                // you go` then `wrong?)`): not a card, the end of the card line's comment
                // (`fmt` writes it there).
                None if open_note == line.number.checked_sub(1)
                    && closes_a_wrapped_note(line.text) =>
                {
                    if let Some(card) = self.deck.cards.last_mut() {
                        let end = line.text.trim_matches(super::lines::is_blank);
                        card.comment = Some(match card.comment.take() {
                            Some(comment) => format!("{comment} {end}"),
                            None => end.to_string(),
                        });
                    }
                }
                None if self.preamble && shapes::free_text(line.text) => {
                    if first {
                        self.title(line, line.text);
                    }
                    self.deck.notes.push(Note {
                        line: line.number,
                        span: Span::new(line.offset, line.text.len()),
                    });
                }
                None => {
                    let message = shapes::help(line.text);
                    self.issue(line, ParseIssueKind::Unreadable, &message, None);
                }
            },
        }
    }

    /// A row of a deck printed as a table (see [`table_cells`]): its section headers say
    /// which column is which kind of card, but a table's columns do not line up with its
    /// cells (a section may span two), so the cards read from such rows are under no
    /// section, and the headers' counts are not checked. Each card cell is read as its own
    /// line.
    fn table_row(&mut self, table: Table, cells: &[Line<'_>]) {
        self.started = true;
        self.preamble = false;
        match table {
            Table::Headers => {
                self.section = None;
                self.table = true;
            }
            Table::Cards => {
                let section = self.section.take();
                for &cell in cells {
                    self.read(cell);
                }
                self.section = section;
            }
        }
    }

    fn title(&mut self, line: Line<'_>, text: &str) {
        if text.is_empty() {
            return;
        }
        self.deck.title = Some(Title {
            line: line.number,
            text: text.to_owned(),
            span: Span::new(line.offset, line.text.len()),
        });
    }

    fn marker(&mut self, line: Line<'_>, marker: Marker) {
        self.table = false;
        self.ptcgo |= marker.form == Form::Dash;
        let span = Span::new(line.offset, line.text.len());
        match marker.role {
            Role::Section(section) | Role::Sub(section) => {
                self.colon_headers |= marker.form == Form::Colon;
                self.section = Some(section);
                self.header_hints.push(marker.hint);
                self.deck.headers.push(Header {
                    line: line.number,
                    section,
                    sub: matches!(marker.role, Role::Sub(_)),
                    count: marker.count,
                    language: None,
                    span,
                });
            }
            Role::Footer if self.deck.footer.is_some() => {
                let message = "a second deck total; only the first one is used";
                self.issue(line, ParseIssueKind::Unreadable, message, None);
            }
            Role::Footer => {
                self.footer_hint = Some(marker.hint);
                self.deck.footer = Some(Footer {
                    line: line.number,
                    count: marker.count,
                    language: None,
                    span,
                });
            }
        }
    }

    fn card(&mut self, line: Line<'_>, count: &Count<'_>, parts: Option<(usize, Parts)>) {
        self.ptcgo |= line.text.starts_with('*');
        let value = match check_count(count) {
            Ok(value) => value,
            Err(message) => {
                return self.issue(line, ParseIssueKind::BadCount, &message, Some(count.span));
            }
        };
        let Some((at, parts)) = parts else {
            let message = format!("a count with no card name after it; {EXAMPLE}");
            return self.issue(line, ParseIssueKind::Unreadable, &message, None);
        };
        if let Some((message, second)) = second_count(line.text, count, at) {
            return self.issue(line, ParseIssueKind::BadCount, &message, Some(second));
        }
        let text = |r: Range| {
            line.text
                .get(at + r.0..at + r.1)
                .unwrap_or_default()
                .to_owned()
        };
        self.coded_cards |= parts.set.is_some();
        self.open_note = (!unclosed_brackets(line.text).0.is_empty()).then_some(line.number);
        let name = parts.name;
        let set = parts.set.map(text);
        self.deck.cards.push(CardLine {
            line: line.number,
            count: value,
            name: text(name),
            set,
            number: parts.number.map(text),
            ph: parts.ph,
            section: self.section,
            span: Span::new(line.offset, line.text.len()),
            count_span: span_of(line, count.span),
            name_span: span_of(line, (at + name.0, at + name.1)),
            // From where the name starts, as the card was read: in `4 ////Poké Pad`, the
            // `//` after the count is no comment, the name's first characters.
            comment: with_note(
                parts.note.map(text),
                trailing_comment(line.text.get(at..).unwrap_or_default()),
            ),
        });
    }

    /// Records an issue on `range` of the line, or on the whole line.
    fn issue(&mut self, line: Line<'_>, kind: ParseIssueKind, message: &str, range: Option<Range>) {
        let span = range.map_or(Span::new(line.offset, line.text.len()), |r| {
            span_of(line, r)
        });
        self.deck.issues.push(ParseIssue {
            line: line.number,
            kind,
            message: message.to_owned(),
            span,
        });
    }

    pub(crate) fn finish(mut self) -> DeckList {
        let hints: Vec<Hint> = self
            .header_hints
            .iter()
            .copied()
            .chain(self.footer_hint)
            .collect();
        let language = deck_language(&hints);
        self.deck.header_languages = match language {
            Some(language) => vec![language],
            None => fitting_languages(&hints),
        };
        for (header, hint) in self.deck.headers.iter_mut().zip(&self.header_hints) {
            header.language = hint.resolve(language);
        }
        if let (Some(footer), Some(hint)) = (self.deck.footer.as_mut(), self.footer_hint) {
            footer.language = hint.resolve(language);
        }
        self.deck.language = language;
        self.deck.layout = if self.ptcgo {
            Some(Layout::Ptcgo)
        } else if self.deck.footer.is_some() {
            Some(Layout::Ptcgl)
        } else if self.colon_headers && self.coded_cards {
            Some(Layout::Limitless)
        } else {
            None
        };
        self.deck
    }
}

/// Whether a line that is no card ends a note a card line above left open: it closes a
/// bracket it did not open, opens none it leaves open, and holds no digit (no count nor
/// number of a card of its own).
fn closes_a_wrapped_note(text: &str) -> bool {
    let (open, unmatched) = unclosed_brackets(text);
    unmatched > 0 && open.is_empty() && !text.chars().any(|c| c.is_ascii_digit())
}

fn span_of(line: Line<'_>, (start, end): Range) -> Span {
    Span::new(line.offset + start, end.saturating_sub(start))
}

/// The count's value, or the message of a `BadCount` issue.
pub(crate) fn check_count(count: &Count<'_>) -> Result<u32, String> {
    let shown = shorten(count.digits);
    if count.negative {
        return Err(format!(
            "count -{shown} is negative; write how many copies, such as `2 Iono`"
        ));
    }
    match count.digits.parse::<u32>() {
        Ok(0) => Err("a count of 0 adds no card; remove the line or write how many copies".into()),
        Ok(n) if n <= MAX_COUNT => Ok(n),
        _ => Err(format!(
            "count {shown} is too large to be a number of copies (at most {MAX_COUNT})"
        )),
    }
}

/// A count written last on a line that starts with one (`4 Gimmighoul 088/182 - X2`,
/// `4 Dreepy TWM 128 x2`): which of the two the player meant is not for deckbox to guess,
/// so the line is a `BadCount` issue on the second, with its message. Only for a count
/// before the name (`at`, where the name starts, after it); a spreadsheet row's count
/// sits in a column of its own.
fn second_count(text: &str, count: &Count<'_>, at: usize) -> Option<(String, Range)> {
    if at < count.span.1 {
        return None;
    }
    let (second, _) = super::card::split_trailing_count(text.get(at..)?)?;
    let span = (at + second.span.0, at + second.span.1);
    let first = count.digits;
    let last = text.get(span.0..span.1)?;
    let message = format!(
        "two counts, `{first}` before the name and `{last}` after it; write how many copies \
         once, before the name"
    );
    Some((message, span))
}

/// What a row of a deck printed as a table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    /// A section header in each cell (`Pokémon – 18<TAB>Trainers – 31<TAB>Energy – 11`).
    Headers,
    /// A card line in each cell (`3 Ralts ASR<TAB>3 Professor's Research<TAB>11 Psychic`).
    Cards,
}

/// The cells of a row of a deck printed as a table, one card (or one section's header) per
/// cell, as a blog's table or a sheet laid out in columns pastes: at least two cells holding
/// text, and each of those a card line that starts with its count and names a card after
/// it, or each a section's header. Cells are separated by tabs (a browser's copy; empty
/// cells, where a column ended, are skipped), or by nothing but a blank where a page's text
/// flattened the table ([`flattened`]). Any other row is left to the line reader, where tabs
/// are blanks and a spreadsheet row (`4<TAB>Dreepy<TAB>TWM<TAB>128`: a count alone in its
/// cell) is read as one card.
fn table_cells(line: Line<'_>, in_table: bool) -> Option<(Table, Vec<Line<'_>>)> {
    let ranges = if line.text.contains('\t') {
        let mut ranges = Vec::new();
        let mut start = 0;
        for cell in line.text.split('\t') {
            ranges.push((start, start + cell.len()));
            start += cell.len() + 1;
        }
        ranges
    } else {
        if in_table && let Some(found) = cells_of(line, &flattened(line.text, Table::Cards)) {
            return Some(found);
        }
        // A row of headers starts with a section's name, a card line with its count: the
        // card lines of a list that is no table cost one look at their first character.
        if !line.text.starts_with(char::is_alphabetic) {
            return None;
        }
        flattened(line.text, Table::Headers)
    };
    cells_of(line, &ranges)
}

/// The cells of a table row whose cells a page's text joined with a blank: `Pokémon – 18
/// Trainers – 31 Energy – 11` (a cell starts after a word ending in a digit or a bracket),
/// and under such a row `3 Ralts ASR 3 Professor’s Research 4 Battle VIP Pass 11 Psychic`
/// (a cell starts at a count of one or two digits followed by a capitalized word: no card's
/// name holds one, while `Mimikyu ex PR-SV 4 1 Sky Seal Stone` keeps its number 4).
fn flattened(text: &str, table: Table) -> Vec<Range> {
    let mut words = last_tokens(text, text.len());
    words.reverse();
    let word = |i: usize| words.get(i).and_then(|&(a, b)| text.get(a..b));
    let starts = (1..words.len()).filter(|&i| match table {
        Table::Headers => {
            word(i - 1).is_some_and(|w| w.ends_with(|c: char| c.is_ascii_digit() || c == ')'))
        }
        Table::Cards => {
            let count = word(i).is_some_and(|w| {
                (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit())
            });
            count && word(i + 1).is_some_and(|w| w.starts_with(char::is_uppercase))
        }
    });
    let mut ranges = Vec::new();
    let mut from = 0;
    for i in starts {
        let Some(&(at, _)) = words.get(i) else {
            continue;
        };
        ranges.push((from, at));
        from = at;
    }
    ranges.push((from, text.len()));
    ranges
}

/// The cells at `ranges` of `line` when at least two hold text and all of those are card
/// lines with a leading count, or all section headers.
fn cells_of<'a>(line: Line<'a>, ranges: &[Range]) -> Option<(Table, Vec<Line<'a>>)> {
    let cells: Vec<Line<'a>> = (ranges.iter())
        .filter_map(|&(start, end)| {
            let (lead, text) = trim(line.text.get(start..end)?);
            (!text.is_empty()).then_some(Line {
                offset: line.offset + start + lead,
                text,
                ..line
            })
        })
        .collect();
    if cells.len() < 2 {
        return None;
    }
    let class = |cell: &Line<'_>| match classify(cell.text) {
        Class::Card {
            count,
            parts: Some(_),
        } if count.span.0 == 0 && count.rest.is_some_and(|at| at >= count.span.1) => {
            Some(Table::Cards)
        }
        Class::Marker(Marker {
            role: Role::Section(_) | Role::Sub(_),
            ..
        }) => Some(Table::Headers),
        _ => None,
    };
    let table = class(cells.first()?)?;
    cells
        .iter()
        .all(|cell| class(cell) == Some(table))
        .then_some((table, cells))
}

/// The first digits of a huge number, so a message never repeats megabytes of input.
fn shorten(digits: &str) -> String {
    crate::util::escape::excerpt(digits, 12)
}
