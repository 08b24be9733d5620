//! What a list says of itself: `header-count`.

use super::{Check, Deck, Rule, RuleDef, plural};
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::deck::Section;

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
    for (index, header) in list.headers.iter().enumerate() {
        let Some(written) = header.count else {
            continue;
        };
        let next = list
            .headers
            .get(index + 1)
            .map_or(usize::MAX, |next| next.span.offset);
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
                    "the {} header says {written}, but its section has {} on {}",
                    section_name(header.section),
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

fn section_name(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "Pokémon",
        Section::Trainer => "Trainer",
        Section::Energy => "Energy",
    }
}
