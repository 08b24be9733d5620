//! How many copies of one card a deck may hold: `copy-limit`, `prism-star-limit`,
//! `exclusive-cards`.

use super::{Check, Deck, Rule, RuleDef, by_name, by_written_name, plural};
use crate::check::diagnostic::{Diagnostic, Label, Severity};
use crate::formats::legality;

pub(super) const COPY_LIMIT: RuleDef = RuleDef {
    id: "copy-limit",
    severity: Severity::Error,
    summary: "More copies of cards with the same name than the format allows (4), basic Energy excepted.",
    why: "Rulebook (Sun & Moon, \"What does and doesn't count for a Pokémon's name?\"): \"When you are building a deck, you can have only 4 copies of a card with the same name in it, except for basic Energy cards.\" Different printings and languages of one name count together; levels, δ and the pictured person are not part of the name. An Unown's letter is part of its name where the card prints it there (Neo and Diamond & Pearl: `Unown Q`), not on the Unseen Forces Unown, which print and call themselves `Unown`.",
    example: "3 Iono PAL 185\n2 Iono PAF 80\n",
    fix: "Remove copies until no name appears more than 4 times.",
    check: Check::Deck(copy_limit),
};

pub(super) const PRISM_STAR_LIMIT: RuleDef = RuleDef {
    id: "prism-star-limit",
    severity: Severity::Error,
    summary: "More than one copy of a Prism Star (◇) card with the same name.",
    why: "Rulebook (Sun & Moon, \"Appendix C: Prism Star Cards\"): \"you can only have one copy of a Prism Star card in your deck. Unlike ACE SPEC cards, you can include Prism Star cards with different names in your deck\".",
    example: "2 Giratina ◇ UPR 58\n",
    fix: "Keep one copy of each Prism Star card.",
    check: Check::Deck(prism_star_limit),
};

pub(super) const EXCLUSIVE_CARDS: RuleDef = RuleDef {
    id: "exclusive-cards",
    severity: Severity::Error,
    summary: "The deck holds cards of two names that the format's rules tie together: a deck may hold only one of them.",
    why: "Some cards are tied by tournament rules rather than by the rulebook. When Professor Sycamore reprinted Professor Juniper's effect with the XY era (announced on the Japanese Pokémon TCG site, reported by Bulbanews on 2013-09-27), a deck became allowed either card, never both, still up to 4 copies of the one it plays. Each format file lists its groups with their source.",
    example: "2 Professor Juniper DEX 98\n2 Professor Sycamore XY 122\n",
    fix: "Keep one of the names and replace the other (up to 4 copies of the one you keep).",
    check: Check::Deck(exclusive),
};

/// `copy-limit`. Unidentified lines count too, grouped by the name as written (five
/// copies of an unknown name are five copies of one name, whatever the card is).
fn copy_limit(deck: &Deck) -> Vec<Diagnostic> {
    let (text, cards, all, format) = (deck.text, &deck.identified, deck.cards, deck.format);
    let limit = u64::from(format.construction.copy_limit);
    let overrides = format.construction.printed_copy_overrides;
    let exempt = format.copy_limit_exempt();
    let counted = cards
        .iter()
        .filter(|(_, printing)| {
            !printing.is_basic_energy()
                && (!overrides || !printing.any_number)
                && !legality::any_names(exempt, printing)
        })
        .copied();
    let mut groups = by_name(counted);
    groups.extend(by_written_name(
        all.iter().filter(|card| card.printing.is_none()),
    ));
    groups
        .into_iter()
        .filter(|group| group.count > limit)
        .filter_map(|group| {
            let span = group.first_span()?;
            let excess = group.count - limit;
            let lines = if group.lines.len() > 1 {
                format!(" on {} lines", group.lines.len())
            } else {
                String::new()
            };
            Some(
                Diagnostic::new(
                    Rule::CopyLimit,
                    format!(
                        "{} named '{}'{lines}, but at most {} with the same name {} allowed",
                        plural(group.count, "card", "cards"),
                        group.display,
                        plural(limit, "card", "cards"),
                        if limit == 1 { "is" } else { "are" }
                    ),
                )
                .with_help(format!(
                    "remove {} of '{}'",
                    plural(excess, "copy", "copies"),
                    group.display
                ))
                .at(
                    text,
                    span,
                    format!(
                        "{} here",
                        group.lines.first().map_or(0, |card| card.line.count)
                    ),
                )
                .with_related(group.related())
                .with_cards(vec![group.display]),
            )
        })
        .collect()
}

fn prism_star_limit(deck: &Deck) -> Vec<Diagnostic> {
    let (text, cards, format) = (deck.text, &deck.identified, deck.format);
    // A format whose rules have no Prism Star limit does not check one.
    let Some(limit) = format.construction.prism_star_copies.map(u64::from) else {
        return Vec::new();
    };
    let prism = cards
        .iter()
        .filter(|(_, printing)| printing.prism_star)
        .copied();
    by_name(prism)
        .into_iter()
        .filter(|group| group.count > limit)
        .filter_map(|group| {
            let span = group.first_span()?;
            Some(
                Diagnostic::new(
                    Rule::PrismStarLimit,
                    format!(
                        "{} of the Prism Star card '{}', but only {} of each Prism Star card is allowed",
                        plural(group.count, "copy", "copies"),
                        group.display,
                        plural(limit, "copy", "copies"),
                    ),
                )
                .with_help(format!(
                    "keep {} of '{}'",
                    plural(limit, "copy", "copies"),
                    group.display
                ))
                .at(text, span, "Prism Star card")
                .with_related(group.related())
                .with_cards(vec![group.display]),
            )
        })
        .collect()
}

/// `exclusive-cards`: one finding per group of the format's `exclusive` whose cards of two
/// or more names are in the deck, pointing at the first line of each name after the first.
fn exclusive(deck: &Deck) -> Vec<Diagnostic> {
    let (text, cards, format) = (deck.text, &deck.identified, deck.format);
    let mut out = Vec::new();
    for (group, keys) in format.exclusive() {
        let tied = cards
            .iter()
            .filter(|(_, printing)| keys.iter().any(|key| key == printing.rules_key()))
            .copied();
        let present = by_name(tied);
        let [kept, rest @ ..] = present.as_slice() else {
            continue;
        };
        let Some(second) = rest.first() else {
            continue;
        };
        let Some(span) = second.first_span() else {
            continue;
        };
        let counted: Vec<String> = present
            .iter()
            .map(|group| format!("{} × {}", group.count, group.display))
            .collect();
        let related = present
            .iter()
            .flat_map(|group| &group.lines)
            .filter(|card| card.line.span != span)
            .map(|card| Label {
                line: card.line.line,
                span: card.line.span,
                message: "tied to it".to_string(),
            })
            .collect();
        out.push(
            Diagnostic::new(
                Rule::ExclusiveCards,
                format!(
                    "the deck holds {}, but a deck may hold only one of {} ({})",
                    counted.join(" and "),
                    group.names.join(" or "),
                    group.source
                ),
            )
            .with_help(format!(
                "keep {} or {}, not both; up to {} copies of the one you keep",
                kept.display, second.display, format.construction.copy_limit
            ))
            .at(
                text,
                span,
                format!("{} is tied to {}", second.display, kept.display),
            )
            .with_related(related)
            .with_cards(present.iter().map(|group| group.display.clone()).collect()),
        );
    }
    out
}
