//! What an editor face (the language server `deckbox lsp`, and any other face that shows
//! one buffer as it is typed) asks of one deck list: its findings with their byte spans and
//! the link to each rule's page ([`analyse`], [`Buffer::findings`]), the edits of a finding's
//! fix ([`Buffer::fixes`]), the canonical text `deckbox fmt` prints ([`Buffer::formatted`]),
//! hover text for a card line ([`Buffer::hover`]), card names and set codes to complete
//! ([`Buffer::complete`]), the outline ([`Buffer::symbols`]) and a one-line summary
//! ([`Buffer::summary`]). Positions are byte offsets into the buffer's text; [`Lines`]
//! converts them to and from the (line, UTF-16 unit) positions editors speak.
//!
//! Everything here calls the library's own jobs: `check` for findings, `edit::listing` for
//! `fmt`, `session::card` for a card's page, `search` for completion, `stats` for the odds.

use std::path::Path;

use crate::cards::CardDb;
use crate::cards::identification::resolve;
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::check::rule::Rule;
use crate::deck::input::from_text;
use crate::deck::{DeckInput, Section, Span};
use crate::error::Error;
use crate::formats::{Format, Going};
use crate::names::lang::Language;
use crate::render::percent::{Small, percent};
use crate::search::{self, Sort};
use crate::settings::Settings;
use crate::stats::deck::{StatsDeck, StatsRequest};
use crate::util::progress::Quiet;

/// Most completion candidates offered for one prefix.
pub const MAX_COMPLETIONS: usize = 50;

/// One buffer read and checked as `deckbox check` would check the file at its path: the
/// format its settings, its `[[overrides]]` entry and its own `# deckbox:` line give.
pub struct Buffer {
    pub input: DeckInput,
    pub format: Format,
    pub deck: CheckedDeck,
}

/// Reads `text` (the buffer of the file at `path`) within `check`'s bounds, as the text
/// the editor holds, never decoded again ([`from_text`]), and checks it.
pub fn analyse(settings: &Settings, path: &Path, text: &str) -> Result<Buffer, Error> {
    let mut input = from_text(Path::new("-"), text)?;
    input.path = crate::util::escape::path(path);
    let planned = settings.format_for_file(path)?;
    let format = match settings.declared_format(&planned, &input)? {
        Some(format) => format,
        None => planned.into_owned(),
    };
    let deck = crate::check::check(&input, &settings.db, &format);
    Ok(Buffer {
        input,
        format,
        deck,
    })
}

/// Whether the file at `path` is a deck list `deckbox check DIR` would check: one its
/// settings' `[files]` select (else the default patterns), matched from the config file's
/// folder or the file's own. An editor face answers only for these, so a README opened as a
/// deck list stays quiet. A buffer that is no file (`-`) is one; so is every file should
/// the globs not compile (reading the config file already refused bad ones).
pub fn is_checked_file(settings: &Settings, path: &Path) -> bool {
    let Some(folder) = path.parent().filter(|_| path != Path::new("-")) else {
        return true;
    };
    settings
        .selection()
        .map_or(true, |selection| selection.selects(path, folder))
}

/// Whether the buffer of `path` holding `text` is a JSON deck list an editor face should
/// answer for although `check DIR` would not pick it ([`is_checked_file`]: JSON is not among
/// the default patterns): a `*.json` file, or a buffer the editor calls JSON (`json`), that
/// reads as a deck list within `check`'s bounds, and that no exclude glob of its settings
/// leaves out. As a file named to `check` would be, it is checked; a JSON file that is no
/// deck list (`package.json`) is left alone, as a README is.
pub fn is_json_deck(settings: &Settings, path: &Path, json: bool, text: &str) -> bool {
    let named_json = (path.extension()).is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
    if !(named_json || json) {
        return false;
    }
    let excluded = path.parent().is_some_and(|folder| {
        (settings.selection()).is_ok_and(|selection| selection.excludes(path, folder))
    });
    // Read as a `*.json` file is: strictly, a deck list or nothing.
    !excluded && from_text(Path::new("buffer.json"), text).is_ok_and(|input| input.json.is_some())
}

/// One finding placed in the buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    pub message: String,
    /// Where it is: its span, or the first line for a finding about the whole deck.
    pub span: Span,
    /// The rule's page (`docs/rules.md#<id>` in the repository).
    pub doc: String,
    /// The other lines involved (the other lines of a copy-limit), with what each says.
    pub related: Vec<(Span, String)>,
}

/// A change to the buffer: `span` replaced by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// A fix a finding offers: its title and its edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
}

/// A completion candidate: what is shown, what is inserted, and a detail line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub label: String,
    pub insert: String,
    pub detail: String,
}

/// An entry of the outline: a section header or a card line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub section: Option<Section>,
    /// Whether it is a header (else a card line).
    pub header: bool,
    pub span: Span,
}

/// The page of a rule.
pub fn rule_doc(rule: Rule) -> String {
    format!(
        "{}/blob/main/docs/rules.md#{}",
        env!("CARGO_PKG_REPOSITORY"),
        rule.id()
    )
}

impl Buffer {
    /// Every finding, in `check`'s order.
    pub fn findings(&self) -> Vec<Finding> {
        let text = &self.input.text;
        let first_line = Span::new(0, text.find(['\n', '\r']).unwrap_or(text.len()));
        self.deck
            .diagnostics
            .iter()
            .map(|diagnostic| {
                let mut message = diagnostic.message.clone();
                if let Some(help) = &diagnostic.help {
                    message.push_str("\nhelp: ");
                    message.push_str(help);
                }
                Finding {
                    rule: diagnostic.rule,
                    severity: diagnostic.severity,
                    message,
                    span: diagnostic.span.unwrap_or(first_line),
                    doc: rule_doc(diagnostic.rule),
                    related: diagnostic
                        .related
                        .iter()
                        .map(|label| (label.span, label.message.clone()))
                        .collect(),
                }
            })
            .collect()
    }

    /// The card line whose span holds `offset`.
    fn card_at(&self, offset: usize) -> Option<&crate::check::DeckCard> {
        self.deck
            .cards
            .iter()
            .find(|card| card.line.span.offset <= offset && offset <= card.line.span.end())
    }

    /// The fixes of `finding`: a suggested name for an unknown card, a legal printing for
    /// one the format does not allow, the copies brought to the limit (over several lines,
    /// the last ones lowered first), a header's or the footer's number rewritten to the
    /// cards it counts.
    pub fn fixes(&self, db: &CardDb, finding: &Finding) -> Vec<Fix> {
        match finding.rule {
            Rule::HeaderCount => return self.header_fix(finding).into_iter().collect(),
            Rule::CopyLimit => return self.copies_fix(finding).into_iter().collect(),
            Rule::WrongSection => return self.section_fix(db, finding).into_iter().collect(),
            _ => {}
        }
        let Some(card) = self.card_at(finding.span.offset) else {
            return Vec::new();
        };
        let line = &card.line;
        match finding.rule {
            Rule::UnknownCard => {
                let language = card.language.or(self.deck.language);
                let suggested =
                    crate::check::in_language(db, resolve::suggestions(db, &line.name), language);
                suggested
                    .into_iter()
                    .map(|(name, _)| Fix {
                        title: format!("Replace with '{name}'"),
                        edits: vec![Edit {
                            span: line.name_span,
                            text: name,
                        }],
                    })
                    .collect()
            }
            Rule::NotLegal | Rule::LegalAsReprint | Rule::ReprintUndecided => {
                let language = card.language.unwrap_or(Language::En);
                let written = crate::names::lookup_key(&line.name);
                let Some(candidate) = self
                    .complete_name(db, &line.name, language, None)
                    .into_iter()
                    .find(|candidate| crate::names::lookup_key(&candidate.label) == written)
                else {
                    return Vec::new();
                };
                let start = line.name_span.offset;
                vec![Fix {
                    title: format!("Play {}", candidate.insert),
                    edits: vec![Edit {
                        span: Span::new(start, line.span.end() - start),
                        text: candidate.insert,
                    }],
                }]
            }
            _ => Vec::new(),
        }
    }

    /// A copy-limit's lines (its own and its related ones) brought to the limit in one fix:
    /// the last lines lowered first, a line lowered to none removed with its line break.
    fn copies_fix(&self, finding: &Finding) -> Option<Fix> {
        let text = &self.input.text;
        let limit = u64::from(self.format.construction.copy_limit);
        let spans =
            std::iter::once(finding.span).chain(finding.related.iter().map(|(span, _)| *span));
        let mut lines: Vec<&crate::deck::CardLine> = spans
            .filter_map(|span| self.card_at(span.offset))
            .map(|card| &card.line)
            .collect();
        lines.sort_by_key(|line| line.span.offset);
        lines.dedup_by_key(|line| line.span.offset);
        let total: u64 = lines.iter().map(|line| u64::from(line.count)).sum();
        let mut excess = total.checked_sub(limit).filter(|&excess| excess > 0)?;
        let mut edits = Vec::new();
        for line in lines.iter().rev() {
            let count = u64::from(line.count);
            let cut = excess.min(count);
            excess -= cut;
            if cut == count {
                let start = text[..line.span.offset].rfind('\n').map_or(0, |at| at + 1);
                let rest = &text[line.span.end()..];
                let ending = rest.find('\n').map_or(rest.len(), |at| at + 1);
                let end = line.span.end() + ending;
                edits.push(Edit {
                    span: Span::new(start, end - start),
                    text: String::new(),
                });
            } else if cut > 0 {
                edits.push(Edit {
                    span: number_span(text, line.count_span, count)?,
                    text: (count - cut).to_string(),
                });
            }
            if excess == 0 {
                break;
            }
        }
        edits.reverse();
        Some(Fix {
            title: format!("Keep {limit} copies"),
            edits,
        })
    }

    /// A `wrong-section`'s missing header, inserted above the run's first line with the
    /// run's count.
    fn section_fix(&self, db: &CardDb, finding: &Finding) -> Option<Fix> {
        let first = self.card_at(finding.span.offset)?;
        let section = db.get(first.printing?)?.category.section();
        let run: Vec<&crate::check::DeckCard> = std::iter::once(first)
            .chain((finding.related.iter()).filter_map(|(span, _)| self.card_at(span.offset)))
            .collect();
        let cards = run.iter().map(|card| card.line.count).sum();
        let lines = u32::try_from(run.len()).ok()?;
        let (at, header) = crate::edit::in_place::header_above(
            &self.deck,
            section,
            first.line.span.offset,
            cards,
            lines,
        );
        Some(Fix {
            title: format!("Add the header '{}'", header.trim_end()),
            edits: vec![Edit {
                span: Span::new(at, 0),
                text: header,
            }],
        })
    }

    /// A `header-count`'s header (or footer) with its number rewritten to the cards it
    /// counts, as the finding's help says.
    fn header_fix(&self, finding: &Finding) -> Option<Fix> {
        let list = &self.deck.list;
        let cards_in = |from: usize, to: usize| -> u64 {
            (list.cards.iter())
                .filter(|card| card.span.offset > from && card.span.offset < to)
                .map(|card| u64::from(card.count))
                .sum()
        };
        let footer = list
            .footer
            .as_ref()
            .filter(|footer| footer.span == finding.span);
        let (span, written, cards) = match footer {
            Some(footer) => (footer.span, footer.count?, cards_in(0, usize::MAX)),
            None => {
                let ends = list.header_ends();
                let (header, &next) = (list.headers.iter().zip(&ends))
                    .find(|(header, _)| header.span == finding.span)?;
                (
                    header.span,
                    header.count?,
                    cards_in(header.span.offset, next),
                )
            }
        };
        Some(Fix {
            title: format!("Write {cards}"),
            edits: vec![Edit {
                span: number_span(&self.input.text, span, written)?,
                text: cards.to_string(),
            }],
        })
    }

    /// The whole buffer as `deckbox fmt` prints it, or why it refuses.
    pub fn formatted(&self, db: &CardDb) -> Result<String, String> {
        crate::edit::listing::format(&self.input, db, &self.format)
            .map(|formatted| formatted.formatted)
            .map_err(|refusal| refusal.to_string())
    }

    /// Hover text for the card line at `offset` (Markdown): the card's page as `deckbox
    /// card` shows it (text, printings, legality at the deck's date) and its opening-hand
    /// odds in this deck.
    pub fn hover(&self, db: &CardDb, offset: usize) -> Option<(Span, String)> {
        let card = self.card_at(after_bom(&self.input.text, offset))?;
        let line = &card.line;
        let query = match (&line.set, &line.number) {
            (Some(set), Some(number)) => format!("{set} {number}"),
            _ => line.name.clone(),
        };
        let language = card.language.unwrap_or(Language::En);
        let page = super::card::card(db, &query, Some(self.deck.as_of), language).ok()?;
        let mut text = String::new();
        if let Some(odds) = self.odds(db, card) {
            text.push_str(&odds);
            text.push_str("\n\n");
        }
        text.push_str("```text\n");
        text.push_str(&crate::render::card::text(&page.report));
        text.push_str("```\n");
        Some((line.span, text))
    }

    /// "In the opening hand: 37.70% (4 copies)" for `card`, when the deck's statistics can
    /// be computed.
    fn odds(&self, db: &CardDb, card: &crate::check::DeckCard) -> Option<String> {
        let stats = StatsDeck::from_checked(&self.deck, db).ok()?;
        let request = StatsRequest::new(&self.format.setup, 1, Going::First);
        let report = stats.report(&request, &Quiet).ok()?;
        let key = card.key(db);
        let found = report
            .cards
            .iter()
            .find(|stats| crate::names::lookup_key(&stats.name) == key)?;
        Some(format!(
            "**{}**: {} copies in the deck; in the opening hand {}, prized at least one {}; P(mulligan) {}",
            found.local_name.as_deref().unwrap_or(&found.name),
            found.copies,
            percent(found.opening_hand, 2, Small::Below),
            percent(found.prized_at_least_one, 2, Small::Below),
            percent(report.mulligan.probability, 2, Small::Below),
        ))
    }

    /// Completion at `offset` of the line around it: a card name (names in any language
    /// whose words start with the words typed, in `search`'s ranking, each inserted with
    /// the set code and number of its newest printing legal in the deck's format), or, after
    /// a known name and a space, its legal printings' set codes. Returns the span the
    /// candidates replace.
    pub fn complete(&self, db: &CardDb, offset: usize) -> (Span, Vec<Candidate>) {
        let text = &self.input.text;
        let offset = after_bom(text, offset.min(text.len()));
        let start = after_bom(text, text[..offset].rfind('\n').map_or(0, |at| at + 1));
        let typed = &text[start..offset];
        // After the count: `4 Drag`, `4x Drag`.
        let count_end = typed
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_digit() || c == 'x' || c == '*' || c == ' '))
            .map_or(typed.len(), |(at, _)| at);
        let written = &typed[count_end..];
        let span = Span::new(start + count_end, written.len());
        if written.trim().is_empty() {
            return (span, Vec::new());
        }
        let language = self.deck.language.unwrap_or(Language::En);
        // A known name followed by a space: its set codes.
        if written.ends_with(' ') {
            let name = written.trim_end();
            if db.known_key(name).is_some() {
                let candidates = self.complete_name(db, name, language, Some(name));
                return (Span::new(offset, 0), candidates);
            }
        }
        (span, self.complete_name(db, written, language, None))
    }

    /// Cards whose name's words start with those of `written`, legal in the deck's format
    /// at its date; with `codes_of`, that card's legal printings as `SET NUMBER`.
    fn complete_name(
        &self,
        db: &CardDb,
        written: &str,
        language: Language,
        codes_of: Option<&str>,
    ) -> Vec<Candidate> {
        let words: Vec<String> = written
            .split_whitespace()
            // Unquoted: a word of the name starts with it.
            .map(|word| word.replace(['"', '\\', '(', ')', ':'], ""))
            .filter(|word| !word.is_empty() && !word.starts_with('-'))
            .map(|word| format!("name:{word}"))
            .collect();
        if words.is_empty() {
            return Vec::new();
        }
        let mut query = words.join(" ");
        if Format::builtin_ids().any(|id| id == self.format.id) {
            query.push_str(&format!(" legal:{}@{}", self.format.id, self.format.date));
        }
        let Ok(answer) = search::answer(db, &query, language, false, Sort::Name) else {
            return Vec::new();
        };
        let folded = crate::names::lookup_key(codes_of.unwrap_or_default());
        let typed = crate::names::fold(written.trim());
        let mut candidates = Vec::new();
        for found in answer.found {
            let newest_first = found.printings.iter().rev();
            let printings: Vec<_> = newest_first.filter_map(|&id| db.get(id)).collect();
            match codes_of {
                Some(_) => {
                    let named = |printing: &&crate::cards::Printing| {
                        printing
                            .names
                            .iter()
                            .any(|(_, name)| crate::names::lookup_key(name) == folded)
                    };
                    if !printings.first().is_some_and(named) {
                        continue;
                    }
                    for printing in printings {
                        let code = format!("{} {}", printing.set_code, printing.number);
                        candidates.push(Candidate {
                            label: code.clone(),
                            insert: code,
                            detail: found.name.clone(),
                        });
                    }
                }
                None => {
                    let Some(newest) = printings.first() else {
                        continue;
                    };
                    // The name in the language typed: the list's, else the first whose
                    // name starts with what was typed.
                    let name = std::iter::once(language)
                        .chain(Language::ALL)
                        .filter_map(|lang| newest.names.get(lang))
                        .find(|name| crate::names::fold(name).starts_with(&typed))
                        .unwrap_or(&found.name);
                    candidates.push(Candidate {
                        label: name.to_string(),
                        insert: format!("{name} {} {}", newest.set_code, newest.number),
                        detail: format!(
                            "{} {} ({} printings legal)",
                            newest.set_code,
                            newest.number,
                            printings.len()
                        ),
                    });
                }
            }
            if candidates.len() >= MAX_COMPLETIONS {
                candidates.truncate(MAX_COMPLETIONS);
                break;
            }
        }
        candidates
    }

    /// The outline: each section header, and each card line.
    pub fn symbols(&self) -> Vec<Symbol> {
        let text = &self.input.text;
        let mut symbols: Vec<Symbol> = self
            .deck
            .list
            .headers
            .iter()
            .map(|header| Symbol {
                name: text
                    .get(header.span.offset..header.span.end())
                    .unwrap_or_default()
                    .to_string(),
                section: Some(header.section),
                header: true,
                span: header.span,
            })
            .collect();
        symbols.extend(self.deck.cards.iter().map(|card| Symbol {
            name: format!("{} {}", card.line.count, card.line.name),
            section: card.line.section,
            header: false,
            span: card.line.span,
        }));
        symbols.sort_by_key(|symbol| symbol.span.offset);
        symbols
    }

    /// One line for the top of the list: the cards, the verdict, P(mulligan).
    pub fn summary(&self, db: &CardDb) -> String {
        let errors = self.deck.count(Severity::Error);
        let warnings = self.deck.count(Severity::Warning);
        let verdict = match (errors, warnings) {
            (0, 0) => format!("valid in {}", self.format.name),
            (0, w) => format!("valid in {} ({w} warnings)", self.format.name),
            (e, _) => format!("{e} errors in {}", self.format.name),
        };
        let mulligan = StatsDeck::from_checked(&self.deck, db)
            .ok()
            .and_then(|stats| stats.mulligan(&self.format.setup).ok())
            .map(|m| format!(", P(mulligan) {}", percent(m.probability, 2, Small::Below)))
            .unwrap_or_default();
        format!("{} cards, {verdict}{mulligan}", self.deck.card_count())
    }
}

/// The byte order mark a buffer may start with: not part of its first line's words.
const BOM: char = '\u{feff}';

/// `offset`, or past the byte order mark when it falls on or in it: what is typed or
/// pointed at on the first line starts after it.
pub fn after_bom(text: &str, offset: usize) -> usize {
    if text.starts_with(BOM) {
        offset.max(BOM.len_utf8())
    } else {
        offset
    }
}

/// The last run of digits in `span` of `text` that reads `value` (the number of a count or
/// a header).
fn number_span(text: &str, span: Span, value: u64) -> Option<Span> {
    let written = text.get(span.offset..span.end())?;
    let mut found = None;
    let mut digits = None;
    for (at, c) in written
        .char_indices()
        .chain(std::iter::once((written.len(), ' ')))
    {
        match (c.is_ascii_digit(), digits) {
            (true, None) => digits = Some(at),
            (false, Some(start)) => {
                if written[start..at].parse::<u64>() == Ok(value) {
                    found = Some(Span::new(span.offset + start, at - start));
                }
                digits = None;
            }
            _ => {}
        }
    }
    found
}

/// Line starts of a text, to convert byte offsets to (line, UTF-16 unit) positions and
/// back, as the Language Server Protocol counts them.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
        Lines { text, starts }
    }

    /// The 0-based line and UTF-16 column of byte `offset` (clamped to the text).
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let column: usize = self
            .text
            .get(start..offset)
            .unwrap_or_default()
            .chars()
            .map(char::len_utf16)
            .sum();
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }

    /// The byte offset of a 0-based line and UTF-16 column (clamped to the line).
    pub fn offset(&self, line: u32, column: u32) -> usize {
        let Some(&start) = self.starts.get(line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let mut units = 0;
        for (at, c) in self.text[start..end].char_indices() {
            if units >= column as usize {
                return start + at;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let lines = Lines::new("4 Pokémon\n1 😀 x\n");
        assert_eq!(lines.position(0), (0, 0));
        // `é` is two bytes and one unit.
        assert_eq!(lines.position("4 Pokémon".len()), (0, 9));
        // `😀` is four bytes and two units.
        let after = "4 Pokémon\n1 😀".len();
        assert_eq!(lines.position(after), (1, 4));
        assert_eq!(lines.offset(1, 4), after);
        assert_eq!(lines.offset(0, 100), "4 Pokémon".len());
        assert_eq!(lines.offset(9, 0), "4 Pokémon\n1 😀 x\n".len());
    }
}
