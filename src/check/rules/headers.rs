//! What a list says of itself: `header-count`.

use super::{Check, Deck, Rule, RuleDef, plural};
use crate::check::diagnostic::{Diagnostic, Severity};
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
