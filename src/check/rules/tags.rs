//! Limits on the cards of one tag in the whole deck: `ace-spec-limit`, `radiant-limit`,
//! `gold-star-limit` (Pokémon Star ☆).

use super::{Check, Deck, Group, Rule, RuleDef, by_name, plural};
use crate::cards::Printing;
use crate::check::DeckCard;
use crate::check::diagnostic::{Diagnostic, Label, Severity};
use crate::formats::Format;

pub(super) const ACE_SPEC_LIMIT: RuleDef = RuleDef {
    id: "ace-spec-limit",
    severity: Severity::Error,
    summary: "More than one ACE SPEC card in the deck.",
    why: "Rulebook (Sun & Moon, \"Appendix O: ACE SPEC Trainer Cards\"): \"ACE SPEC Trainer cards are so powerful that you can only have one in your deck. And that's not one of each: that's only one ACE SPEC card total in your deck.\"",
    example: "1 Prime Catcher TEF 157\n1 Master Ball TEF 153\n",
    fix: "Keep one ACE SPEC card and remove the others.",
    check: Check::Deck(|deck| total_limit(deck, &ACE_SPEC)),
};

pub(super) const RADIANT_LIMIT: RuleDef = RuleDef {
    id: "radiant-limit",
    severity: Severity::Error,
    summary: "More than one Radiant Pokémon in the deck.",
    why: "Rulebook (Scarlet & Violet, fr, \"Annexe 6 : Les Pokémon Radieux\"): \"vous ne pouvez avoir qu'un Pokémon Radieux dans votre deck\" (you can have only one Radiant Pokémon in your deck). It counts all Radiant Pokémon together; ordinary Pokémon of the same species do not count (4 Greninja and 1 Radiant Greninja is fine).",
    example: "1 Radiant Greninja ASR 46\n1 Radiant Charizard PGO 11\n",
    fix: "Keep one Radiant Pokémon and remove the others.",
    check: Check::Deck(|deck| total_limit(deck, &RADIANT)),
};

pub(super) const GOLD_STAR_LIMIT: RuleDef = RuleDef {
    id: "gold-star-limit",
    severity: Severity::Error,
    summary: "More than one Pokémon Star (☆) card in the deck.",
    why: "Pokémon Star cards carry the rule \"You can't have more than 1 Pokémon Star in your deck.\"",
    example: "1 Rayquaza ☆ DX 107\n1 Gyarados ☆ δ HP 102\n",
    fix: "Keep one Pokémon Star card and remove the others.",
    check: Check::Deck(|deck| total_limit(deck, &POKEMON_STAR)),
};

/// A limit on the total number of cards carrying one tag.
struct TagLimit {
    rule: Rule,
    what: &'static str,
    whats: &'static str,
    has: fn(&Printing) -> bool,
    /// `None`: the format's rules do not have this limit, and it is not checked.
    limit: fn(&Format) -> Option<u32>,
}

const ACE_SPEC: TagLimit = TagLimit {
    rule: Rule::AceSpecLimit,
    what: "ACE SPEC card",
    whats: "ACE SPEC cards",
    has: |printing| printing.ace_spec,
    limit: |format| format.construction.ace_spec_limit,
};

const RADIANT: TagLimit = TagLimit {
    rule: Rule::RadiantLimit,
    what: "Radiant Pokémon",
    whats: "Radiant Pokémon",
    has: |printing| printing.radiant,
    limit: |format| format.construction.radiant_limit,
};

const POKEMON_STAR: TagLimit = TagLimit {
    rule: Rule::GoldStarLimit,
    what: "Pokémon Star card",
    whats: "Pokémon Star cards",
    has: |printing| printing.pokemon_star,
    limit: |format| format.construction.pokemon_star_limit,
};

/// One finding when the deck holds more cards of `tag` than the format allows.
fn total_limit(deck: &Deck, tag: &TagLimit) -> Vec<Diagnostic> {
    tag_finding(deck, tag).into_iter().collect()
}

fn tag_finding(deck: &Deck, tag: &TagLimit) -> Option<Diagnostic> {
    let (text, cards, format) = (deck.text, &deck.identified, deck.format);
    let limit = u64::from((tag.limit)(format)?);
    let tagged: Vec<(&DeckCard, &Printing)> = cards
        .iter()
        .filter(|(_, printing)| (tag.has)(printing))
        .copied()
        .collect();
    let total: u64 = tagged
        .iter()
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    if total <= limit {
        return None;
    }
    let groups = by_name(tagged.iter().copied());
    let names: Vec<String> = groups.iter().map(|group| group.display.clone()).collect();
    let all = Group {
        display: String::new(),
        count: total,
        lines: tagged.iter().map(|(card, _)| *card).collect(),
    };
    let span = all.first_span()?;
    let related = all
        .lines
        .iter()
        .skip(1)
        .map(|card| Label {
            line: card.line.line,
            span: card.line.span,
            message: format!("another {}", tag.what),
        })
        .collect();
    Some(
        Diagnostic::new(
            tag.rule,
            if limit == 0 {
                format!(
                    "{} in the deck ({}), but the format allows none",
                    plural(total, tag.what, tag.whats),
                    names.join(", ")
                )
            } else {
                format!(
                    "{} in the deck ({}), but only {limit} is allowed in total",
                    plural(total, tag.what, tag.whats),
                    names.join(", ")
                )
            },
        )
        .with_help(if limit == 0 {
            format!("remove {}", names.join(", "))
        } else {
            format!(
                "keep {} and remove the rest: {}",
                plural(limit, tag.what, tag.whats),
                names.join(", ")
            )
        })
        .at(text, span, tag.what)
        .with_related(related)
        .with_cards(names),
    )
}
