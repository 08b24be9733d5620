//! Checking one deck: read the list, identify every card, apply the format's rules.
//!
//! [`check`] is the whole pipeline for one deck and returns a [`CheckedDeck`]: the cards as
//! identified and every finding, sorted. It reports everything in one pass: a bad line is
//! recorded and skipped, never fatal. It reads nothing from disk and prints nothing.

pub mod diagnostic;
pub mod rules;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::cards::resolve::{self, Resolution};
use crate::cards::{CardDb, Printing, PrintingId};
use crate::check::diagnostic::{Diagnostic, Rule, Severity};
use crate::deck::source::SourceText;
use crate::deck::{self, CardLine, DeckInput, DeckList, Layout, ParseIssueKind, Span};
use crate::formats::Format;
use crate::formats::legality::{self, Verdict};
use crate::names;
use crate::names::lang::Language;

/// A card line and the printing it was identified as.
#[derive(Debug, Clone, Serialize)]
pub struct DeckCard {
    pub line: CardLine,
    #[serde(skip)]
    pub printing: Option<PrintingId>,
    /// The language whose name matched.
    pub language: Option<Language>,
}

/// The result of checking one deck.
#[derive(Debug, Clone)]
pub struct CheckedDeck {
    pub path: String,
    pub source: String,
    pub format: String,
    /// The language most card names are written in (ties: the headers' language).
    pub language: Option<Language>,
    /// The language to write the list's headers and footer in: the one they decide, else
    /// the one of the languages they fit that most names are written in, else
    /// [`language`](Self::language). `fmt`, `convert` and `add` keep it.
    pub headers_language: Option<Language>,
    pub list: DeckList,
    pub cards: Vec<DeckCard>,
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckedDeck {
    /// True exactly when no finding is an error.
    pub fn valid(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.severity == Severity::Error)
    }

    /// Cards in the deck, as written (every line counts, identified or not).
    pub fn card_count(&self) -> u64 {
        self.cards
            .iter()
            .map(|card| u64::from(card.line.count))
            .sum()
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == severity)
            .count()
    }
}

/// Checks one deck against a format with a card database.
pub fn check(input: &DeckInput, db: &CardDb, format: &Format) -> CheckedDeck {
    let text = SourceText::new(&input.text);
    let list = deck::parse(text.text());
    let (language, headers_language) = deck_languages(db, &list);
    let mut diagnostics = Vec::new();
    match input.encoding_fallback {
        Some(deck::LOSSY_UTF8) => diagnostics.extend(damaged_lines(&text)),
        Some(encoding) => diagnostics.push(
            Diagnostic::new(
                Rule::Encoding,
                format!("the file is not UTF-8; it was read as {encoding}"),
            )
            .with_help("save the file as UTF-8"),
        ),
        None => {}
    }
    diagnostics.extend(parse_errors(&text, &list));
    let allowed = |printing: &Printing| {
        matches!(
            legality::judge(format, db, printing),
            Verdict::Legal | Verdict::LegalAsReprint(_)
        )
    };
    let mut context = Identify {
        db,
        text: &text,
        language,
        allowed: &allowed,
        suggestions_left: MAX_SUGGESTED,
        diagnostics,
        choices: Vec::new(),
    };
    let mut cards: Vec<DeckCard> = list
        .cards
        .iter()
        .enumerate()
        .map(|(index, line)| identify(&mut context, index, line))
        .collect();
    let mut diagnostics = context.diagnostics;
    let mut construction = rules::construction(&text, &list, &cards, db, format);
    for (n, choice) in context.choices.iter().enumerate() {
        let outcome = if n < MAX_CHOICES {
            choose(
                &text,
                &list,
                &mut cards,
                &mut construction,
                db,
                format,
                choice,
            )
        } else {
            Outcome {
                chosen: choice.candidates.first().copied().unwrap_or_default(),
                changes: Vec::new(),
            }
        };
        diagnostics.push(ambiguous(db, &text, choice, &outcome));
    }
    diagnostics.extend(construction);
    sort_findings(&mut diagnostics);
    CheckedDeck {
        path: input.path.clone(),
        source: input.text.clone(),
        format: format.id.clone(),
        language,
        headers_language,
        list,
        cards,
        diagnostics,
    }
}

/// `parse-error`: one finding per line (or JSON value) the reader could not read.
/// Most damaged lines of a UTF-8 file named one by one; the rest are counted in the last.
const MAX_DAMAGED_LINES: usize = 20;

/// One `encoding` warning for each line of a UTF-8 file that holds bytes that are not UTF-8
/// (decoded as U+FFFD): the rest of the file was read as written.
fn damaged_lines(text: &SourceText) -> Vec<Diagnostic> {
    let mut damaged = text
        .text()
        .match_indices('\u{FFFD}')
        .map(|(offset, _)| (text.line(offset), offset))
        .collect::<Vec<_>>();
    damaged.dedup_by_key(|(line, _)| *line);
    let total = damaged.len();
    damaged
        .into_iter()
        .take(MAX_DAMAGED_LINES)
        .enumerate()
        .map(|(index, (_, offset))| {
            let more = match total - MAX_DAMAGED_LINES.min(total) {
                extra if extra > 0 && index + 1 == MAX_DAMAGED_LINES => {
                    format!(" ({extra} more lines like it are not shown)")
                }
                _ => String::new(),
            };
            Diagnostic::new(
                Rule::Encoding,
                format!("this line holds bytes that are not UTF-8, shown as �; the rest of the file is UTF-8{more}"),
            )
            .with_help("retype the damaged characters and save the file as UTF-8")
            .at(text, Span::new(offset, '\u{FFFD}'.len_utf8()), "not UTF-8")
        })
        .collect()
}

fn parse_errors(text: &SourceText, list: &DeckList) -> Vec<Diagnostic> {
    let json = list.layout == Layout::Json;
    let help = if json {
        r#"write each card as `{"count": 4, "name": "Iono", "set": "PAL", "number": "185"}` in a `pokemon`, `trainer` or `energy` array"#
    } else {
        "write card lines as `<count> <name> [<set code> <number>]`, e.g. `4 Iono PAL 185`; start a comment with `#`"
    };
    list.issues
        .iter()
        .map(|issue| {
            let label = match issue.kind {
                ParseIssueKind::BadCount => "this count",
                ParseIssueKind::Unreadable if json => "here",
                ParseIssueKind::Unreadable => "this line",
            };
            Diagnostic::new(Rule::ParseError, issue.message.clone())
                .with_help(help)
                .at(text, issue.span, label)
        })
        .collect()
}

/// How many unknown cards per deck get suggestions. Each search scans every known name, so
/// a hostile file of 100,000 unknown lines must not search 100,000 times.
const MAX_SUGGESTED: usize = 50;

/// What identifying the lines of one deck shares.
struct Identify<'a> {
    db: &'a CardDb,
    text: &'a SourceText<'a>,
    language: Option<Language>,
    /// Whether the format allows a printing: a name alone is read as an allowed printing.
    allowed: &'a dyn Fn(&Printing) -> bool,
    suggestions_left: usize,
    diagnostics: Vec<Diagnostic>,
    /// Lines whose name names functionally different cards, for [`choose`].
    choices: Vec<Choice>,
}

/// A line whose name alone names functionally different cards the format allows: which
/// card it is read as is decided once the whole deck is known ([`choose`]).
struct Choice {
    /// Indices in the deck's cards of the lines that write this name (and code) the same
    /// way: they are read as one card.
    indices: Vec<usize>,
    line: CardLine,
    /// The printing picked first (the newest), then one of each other card.
    candidates: Vec<PrintingId>,
}

/// How many ambiguous lines get their reading chosen by trying the others: each try runs
/// the construction rules again, and a hostile deck may have thousands of such lines.
const MAX_CHOICES: usize = 16;

/// What [`choose`] decided for one line.
struct Outcome {
    chosen: PrintingId,
    /// The other readings that give the deck a different verdict, with the rules each
    /// would break that the chosen one does not.
    changes: Vec<(PrintingId, Vec<&'static str>)>,
}

/// Reads an ambiguous line as the card that breaks the fewest construction rules (the
/// newest on a tie), updating `cards` and `construction`, and says which other readings
/// would change the verdict. `4 Computer Search` in Unlimited is the Base Set Trainer when
/// the deck already holds an ACE SPEC, and the BCR ACE SPEC otherwise.
fn choose(
    text: &SourceText,
    list: &DeckList,
    cards: &mut [DeckCard],
    construction: &mut Vec<Diagnostic>,
    db: &CardDb,
    format: &Format,
    choice: &Choice,
) -> Outcome {
    let errors = |diagnostics: &[Diagnostic]| -> BTreeSet<&'static str> {
        diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.rule.id())
            .collect()
    };
    let first = choice.candidates.first().copied().unwrap_or_default();
    let mut outcome = Outcome {
        chosen: first,
        changes: Vec::new(),
    };
    let mut tried: Vec<(PrintingId, Vec<Diagnostic>)> = Vec::new();
    for &candidate in &choice.candidates {
        for &index in &choice.indices {
            if let Some(card) = cards.get_mut(index) {
                card.printing = Some(candidate);
            }
        }
        let found = if candidate == first {
            construction.clone()
        } else {
            rules::construction(text, list, cards, db, format)
        };
        tried.push((candidate, found));
    }
    let count = |diagnostics: &[Diagnostic]| errors(diagnostics).len();
    let best = tried
        .iter()
        .enumerate()
        .min_by_key(|(at, (_, found))| (count(found), *at))
        .map_or(0, |(at, _)| at);
    if let Some((chosen, found)) = tried.get(best) {
        outcome.chosen = *chosen;
        let kept = errors(found);
        for (other, theirs) in &tried {
            if other == chosen {
                continue;
            }
            let theirs = errors(theirs);
            if theirs != kept {
                let added = theirs.difference(&kept).copied().collect();
                outcome.changes.push((*other, added));
            }
        }
        *construction = found.clone();
    }
    for &index in &choice.indices {
        if let Some(card) = cards.get_mut(index) {
            card.printing = Some(outcome.chosen);
        }
    }
    outcome
}

/// Identifies one line, recording `unknown-card`, `card-mismatch` and `ambiguous-card`.
fn identify(context: &mut Identify, index: usize, line: &CardLine) -> DeckCard {
    let Identify {
        db, text, language, ..
    } = *context;

    let resolution = resolve::resolve_among(
        db,
        &line.name,
        line.set.as_deref(),
        line.number.as_deref(),
        language,
        context.allowed,
    );
    let (printing, matched) = match resolution {
        Resolution::Found {
            id,
            language,
            others,
            by_printing,
        } => {
            if !others.is_empty() {
                let candidates: Vec<PrintingId> = std::iter::once(id).chain(others).collect();
                let same = |choice: &&mut Choice| {
                    choice.candidates == candidates
                        && choice.line.name.trim() == line.name.trim()
                        && choice.line.set == line.set
                        && choice.line.number == line.number
                };
                match context.choices.iter_mut().find(same) {
                    Some(choice) => choice.indices.push(index),
                    None => context.choices.push(Choice {
                        indices: vec![index],
                        line: line.clone(),
                        candidates,
                    }),
                }
            }
            if let (false, Some(number)) = (by_printing, line.number.as_deref())
                && !line
                    .set
                    .as_deref()
                    .is_some_and(|set| resolve::is_placeholder(set, number))
                && !db.get(id).is_some_and(Printing::is_basic_energy)
            {
                let written = match line.set.as_deref() {
                    Some(set) => format!("{set} {number}"),
                    None => number.to_string(),
                };
                context
                    .diagnostics
                    .push(unknown_printing(db, text, line, id, &written));
            }
            (Some(id), language)
        }
        Resolution::Mismatch { printing, by_name } => {
            context
                .diagnostics
                .push(mismatch(db, text, line, printing, by_name));
            (by_name.or(Some(printing)), None)
        }
        Resolution::Unknown => {
            let suggestions = if context.suggestions_left > 0 {
                context.suggestions_left -= 1;
                in_language(db, resolve::suggestions(db, &line.name), language)
            } else {
                Vec::new()
            };
            context.diagnostics.push(unknown(text, line, &suggestions));
            (None, None)
        }
    };
    DeckCard {
        line: line.clone(),
        printing,
        language: matched,
    }
}

/// The suggestions that are card names in the list's own language, when there are any: an
/// English list misspelling `Super Rod` is offered `Super Rod`, not the Portuguese
/// `Super Recolhida` as well.
fn in_language(db: &CardDb, suggestions: Vec<String>, language: Option<Language>) -> Vec<String> {
    let Some(language) = language else {
        return suggestions;
    };
    let own: Vec<String> = suggestions
        .iter()
        .filter(|name| resolve::name_languages(db, name).contains(&language))
        .cloned()
        .collect();
    if own.is_empty() { suggestions } else { own }
}

fn describe(printing: &Printing) -> String {
    let mut kind = match (printing.category, printing.trainer, printing.stage) {
        (crate::cards::Category::Trainer, Some(kind), _) => format!("{kind:?}"),
        (crate::cards::Category::Pokemon, _, Some(stage)) => format!("{} Pokémon", stage.as_str()),
        (crate::cards::Category::Trainer, None, _) => "Trainer".to_string(),
        (crate::cards::Category::Energy, _, _) => "Energy".to_string(),
        (crate::cards::Category::Pokemon, _, None) => "Pokémon".to_string(),
    };
    if printing.ace_spec {
        kind = format!("ACE SPEC {kind}");
    }
    format!(
        "{} ({}, {kind})",
        printing.names.primary(),
        printing.printing_label()
    )
}

/// `unknown-printing`: the line's set code and number name no printing, so the card was
/// identified by its name as `assumed`.
fn unknown_printing(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    assumed: PrintingId,
    written: &str,
) -> Diagnostic {
    let assumed = db.get(assumed);
    let label = assumed.map(Printing::printing_label).unwrap_or_default();
    let name = assumed.map(Printing::rules_name).unwrap_or_default();
    Diagnostic::new(
        Rule::UnknownPrinting,
        format!("no '{}' is printed as {written}; it was identified by its name", line.name),
    )
    .with_help(format!(
        "deckbox assumed {name} ({label}); write the set code and number of the printing you play, or leave both out"
    ))
    .at(text, line.span, format!("no printing {written}"))
    .with_cards(assumed.map(Printing::rules_name).into_iter().collect())
}

/// `ambiguous-card`: the line's name alone names functionally different cards. Says which
/// one deckbox read it as and, when another reading would change the verdict, how.
fn ambiguous(db: &CardDb, text: &SourceText, choice: &Choice, outcome: &Outcome) -> Diagnostic {
    let others = choice.candidates.iter().filter(|&&id| id != outcome.chosen);
    let candidates: Vec<String> = std::iter::once(&outcome.chosen)
        .chain(others)
        .filter_map(|&id| db.get(id))
        .map(describe)
        .collect();
    let chosen = db.get(outcome.chosen);
    let picked = chosen.map(describe).unwrap_or_default();
    let mut message = format!(
        "'{}' names functionally different cards: {}",
        choice.line.name,
        candidates.join(", ")
    );
    let mut help = format!("deckbox read it as {picked}");
    if !outcome.changes.is_empty() {
        message.push_str("; which one changes the verdict");
        for (other, rules) in &outcome.changes {
            let other = db.get(*other).map(describe).unwrap_or_default();
            if rules.is_empty() {
                help.push_str(&format!("; as {other} the deck breaks other rules"));
            } else {
                help.push_str(&format!(
                    "; as {other} the deck would break {}",
                    rules.join(", ")
                ));
            }
        }
    }
    help.push_str("; add the set code and number of the printing you play");
    Diagnostic::new(Rule::AmbiguousCard, message)
        .with_help(help)
        .at(text, choice.line.name_span, "which printing?")
        .with_cards(chosen.map(Printing::rules_name).into_iter().collect())
}

fn mismatch(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    printing: PrintingId,
    by_name: Option<PrintingId>,
) -> Diagnostic {
    let code = format!(
        "{} {}",
        line.set.as_deref().unwrap_or(""),
        line.number.as_deref().unwrap_or("")
    );
    let actual = db
        .get(printing)
        .map(|p| names::canonical(p.names.primary()));
    let actual = actual.unwrap_or_default();
    let help = match by_name.and_then(|id| db.get(id)) {
        Some(named) if !named.set_code.is_empty() => format!(
            "write `{actual} {code}`, or keep the name and use the set code and number of a printing of it, such as {} {}",
            names::canonical(named.names.primary()),
            named.printing_label()
        ),
        _ => format!("write `{actual} {code}`, or fix the set code and number"),
    };
    Diagnostic::new(
        Rule::CardMismatch,
        format!("{code} is {actual}, not '{}'", line.name),
    )
    .with_help(help)
    .at(text, line.span, format!("{code} is {actual}"))
    .with_cards(vec![actual])
}

fn unknown(text: &SourceText, line: &CardLine, suggestions: &[String]) -> Diagnostic {
    let help = match suggestions {
        // What the card index covers is said once per run, by the caller
        // (`cards::embedded::coverage_hint`), not under every unknown line.
        [] => "check the spelling".to_string(),
        [one] => format!("did you mean '{one}'?"),
        many => format!(
            "did you mean {}?",
            many.iter()
                .map(|name| format!("'{name}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(Rule::UnknownCard, format!("unknown card '{}'", line.name))
        .with_help(help)
        .at(text, line.name_span, "no card has this name")
}

/// The deck's languages: (the one most distinct card names are written in, ties broken
/// by the headers and then by [`Language::ALL`] order; the language to write its headers
/// in). Distinct names, so merging identical lines (as `fmt` does) changes neither.
fn deck_languages(db: &CardDb, list: &DeckList) -> (Option<Language>, Option<Language>) {
    let mut votes = [0usize; 6];
    let mut seen = BTreeSet::new();
    for line in &list.cards {
        if !seen.insert(line.name.as_str()) {
            continue;
        }
        for language in resolve::name_languages(db, &line.name) {
            votes[language.index()] += 1;
        }
    }
    let fits = &list.header_languages;
    let most = |among: &mut dyn Iterator<Item = Language>| {
        // `max_by_key` keeps the last of equals: scan in reverse for the first.
        among
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .max_by_key(|language| votes[language.index()])
    };
    let names = if votes.iter().all(|&v| v == 0) {
        list.language
            .or_else(|| fits.first().copied())
            .or_else(|| (!list.headers.is_empty()).then_some(Language::En))
    } else {
        let preferred = fits.iter().copied();
        let rest = Language::ALL.into_iter().filter(|l| !fits.contains(l));
        most(&mut preferred.chain(rest))
    };
    let headers = list
        .language
        .or_else(|| most(&mut fits.iter().copied()))
        .or(names);
    (names, headers)
}

/// Findings in the order of the text; deck-wide findings first, then by rule.
fn sort_findings(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        let offset = |d: &Diagnostic| d.span.map(|span| span.offset);
        (offset(a), a.rule, &a.message).cmp(&(offset(b), b.rule, &b.message))
    });
}
