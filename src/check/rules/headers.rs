//! What a list says of itself: `header-count`, `wrong-section`.

use super::{Check, Deck, Rule, RuleDef, plural};
use crate::check::DeckCard;
use crate::check::diagnostic::{Diagnostic, Label, Severity};
use crate::deck::Section;
use crate::deck::source::SourceText;

pub(super) const HEADER_COUNT: RuleDef = RuleDef {
    id: "header-count",
    severity: Severity::Warning,
    summary: "A section header or the footer gives a count that matches neither the cards nor the lines under it.",
    why: "Pokémon TCG Live headers count lines, other tools count cards; a number that matches neither suggests the list was edited by hand and a line was lost or added.",
    example: "Pokémon: 14\n4 Dreepy TWM 128\n",
    fix: "Update the number, or let `deckbox fmt` rewrite the headers.",
    check: Check::Deck(header_counts),
};

pub(super) const WRONG_SECTION: RuleDef = RuleDef {
    id: "wrong-section",
    severity: Severity::Warning,
    summary: "Cards listed under the header of another kind of card: a Trainer under the Pokémon header.",
    why: "A header says what kind of card follows it. Cards of another kind under it usually mean their own header line was lost, and the headers' counts and the sections a reader or another tool sees no longer match the deck.",
    example: "Pokémon: 5\n4 Dreepy TWM 128\n1 Iono PAL 185\n",
    fix: "Add the missing header above them (`Trainer: 1`), or let `deckbox fmt` put each card under its own header.",
    check: Check::Deck(wrong_sections),
};

/// `wrong-section`: one finding per run of consecutive identified lines whose kind is not
/// the section they are listed under; its span is the run's first line, its related labels
/// the others.
fn wrong_sections(deck: &Deck) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut run: Vec<&DeckCard> = Vec::new();
    let mut run_kind: Option<(Section, Section)> = None;
    let mut flush = |run: &mut Vec<&DeckCard>, kind: Option<(Section, Section)>| {
        if let (Some((under, is)), Some(first)) = (kind, run.first()) {
            out.push(wrong_section(deck, run, under, is, first));
        }
        run.clear();
    };
    for &(card, printing) in &deck.identified {
        let kind = card
            .line
            .section
            .map(|under| (under, printing.category.section()))
            .filter(|(under, is)| under != is)
            .filter(|&(under, _)| !(under == Section::Pokemon && played_as_basic(deck, card)));
        if kind != run_kind || kind.is_none() {
            flush(&mut run, run_kind);
        }
        run_kind = kind;
        if kind.is_some() {
            run.push(card);
        }
    }
    flush(&mut run, run_kind);
    out
}

/// A Trainer played as a Basic Pokémon (Mysterious Fossil, Clefairy Doll, Unidentified
/// Fossil, the Antique Fossils): a list may put it under the Pokémon header. Rulebook
/// (rulebook-en-sun-moon.txt, Glossary): "FOSSIL TRAINER CARDS: A special kind of Trainer
/// card that acts like a Basic Pokémon when put into play"; Appendix D: "Unidentified
/// Fossil ... can be played as a Basic Pokémon". Told by the card's English text, which
/// says so ("Play Mysterious Fossil as if it were a Basic Pokémon").
fn played_as_basic(deck: &Deck, card: &DeckCard) -> bool {
    let Some(details) = card.printing.and_then(|id| deck.db.details(id)) else {
        return false;
    };
    details
        .effect
        .get(crate::names::lang::Language::En)
        .is_some_and(|text| text.contains("as if it were a") && text.contains("Basic"))
}

fn wrong_section(
    deck: &Deck,
    run: &[&DeckCard],
    under: Section,
    is: Section,
    first: &DeckCard,
) -> Diagnostic {
    let cards: u64 = run.iter().map(|card| u64::from(card.line.count)).sum();
    let message = match run {
        [one] => format!(
            "'{}' is {}, listed under the {} header",
            one.line.name,
            a_card(is),
            section_name(under)
        ),
        _ => format!(
            "{} {} on {} are listed under the {} header",
            plural(cards, "card", "cards"),
            kind_words(is),
            plural(run.len() as u64, "line", "lines"),
            section_name(under)
        ),
    };
    let related = (run.iter().skip(1))
        .map(|card| Label {
            line: card.line.line,
            span: card.line.span,
            message: format!("{} too", a_card(is)),
        })
        .collect();
    Diagnostic::new(Rule::WrongSection, message)
        .with_help(format!(
            "add {} {} header above line {}, or run `deckbox fmt` to put each card under its own header",
            if is == Section::Energy { "an" } else { "a" },
            section_name(is),
            first.line.line
        ))
        .at(
            deck.text,
            first.line.span,
            a_card(is),
        )
        .with_related(related)
}

/// `a Pokémon card`, `a Trainer card`, `an Energy card`.
fn a_card(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "a Pokémon card",
        Section::Trainer => "a Trainer card",
        Section::Energy => "an Energy card",
    }
}

/// `of Pokémon`, `of Trainers`, `of Energy`: the kind of a run of cards.
fn kind_words(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "of Pokémon",
        Section::Trainer => "of Trainers",
        Section::Energy => "of Energy",
    }
}

/// `header-count`: a header's number must count the cards or the lines of its section; the
/// footer's must count the cards of the deck (unless `deck-size` already points there).
fn header_counts(deck: &Deck) -> Vec<Diagnostic> {
    let (text, list, format) = (deck.text, deck.list, deck.format);
    let mut out = Vec::new();
    // A part's header (`Supporters (12)`) counts its own lines, a section's header
    // (`Trainer (34)`) its parts' lines too.
    let ends = list.header_ends();
    for (header, &next) in list.headers.iter().zip(&ends) {
        let Some(written) = header.count else {
            continue;
        };
        // Card lines are in text order: the section is one slice, found by bisection, so
        // a list of many headers stays linear. Offsets, not line numbers: a list held in a
        // JSON string has all its lines on one line of the file.
        let start = list
            .cards
            .partition_point(|card| card.span.offset <= header.span.offset);
        let end = list.cards.partition_point(|card| card.span.offset < next);
        let lines = list.cards.get(start..end.max(start)).unwrap_or(&[]);
        let cards: u64 = lines.iter().map(|card| u64::from(card.count)).sum();
        if written == cards || written == lines.len() as u64 {
            continue;
        }
        out.push(
            Diagnostic::new(
                Rule::HeaderCount,
                format!(
                    "{} says {written}, but {} has {} on {}",
                    header_name(text, header),
                    if header.sub {
                        "the part it heads"
                    } else {
                        "its section"
                    },
                    plural(cards, "card", "cards"),
                    plural(lines.len() as u64, "line", "lines")
                ),
            )
            .with_help(format!("write {cards} (or run `deckbox fmt`)"))
            .at(text, header.span, format!("expected {cards}")),
        );
    }
    if let Some(footer) = &list.footer
        && let Some(written) = footer.count
    {
        let cards: u64 = list.cards.iter().map(|card| u64::from(card.count)).sum();
        if written != cards && cards == u64::from(format.construction.deck_size) {
            out.push(
                Diagnostic::new(
                    Rule::HeaderCount,
                    format!(
                        "the footer says {written} cards, but the list has {}",
                        plural(cards, "card", "cards")
                    ),
                )
                .with_help(format!("write {cards}, or find the line that was lost"))
                .at(text, footer.span, format!("expected {cards}")),
            );
        }
    }
    out
}

/// `the Trainer header`, or for a part's header its own words (`the header 'Supporters
/// (12)'`), shortened.
fn header_name(text: &SourceText<'_>, header: &crate::deck::Header) -> String {
    if !header.sub {
        return format!("the {} header", section_name(header.section));
    }
    let written = text
        .text()
        .get(header.span.offset..header.span.end())
        .unwrap_or_default();
    let shown: String = written.chars().take(40).collect();
    format!("the header '{}'", shown.trim())
}

fn section_name(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "Pokémon",
        Section::Trainer => "Trainer",
        Section::Energy => "Energy",
    }
}
