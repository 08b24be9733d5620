//! Rules of Gym Leader Challenge style formats, each switched on by the format file:
//! `single-type`, `rule-box`.

use std::collections::BTreeMap;

use super::{Check, Deck, Rule, RuleDef};
use crate::cards::Printing;
use crate::check::DeckCard;
use crate::check::diagnostic::{Diagnostic, Label, Severity};

pub(super) const SINGLE_TYPE: RuleDef = RuleDef {
    id: "single-type",
    severity: Severity::Error,
    summary: "The deck's Pokémon do not all share one type.",
    why: "Gym Leader Challenge decks are built like a Gym Leader's team: every Pokémon card must share one type. A dual-type Pokémon fits when one of its types matches. Each card counts by its own type, so an evolution line that changes type (Eevee, Colorless, into Flareon, Fire) cannot be played whole.",
    example: "4 Dreepy TWM 128      (Dragon)\n4 Ralts MEG 58        (Psychic)\n",
    fix: "Keep the Pokémon of one type and replace the others.",
    check: Check::Deck(single_type),
};

pub(super) const RULE_BOX: RuleDef = RuleDef {
    id: "rule-box",
    severity: Severity::Error,
    summary: "A Rule Box card in a format that does not allow them.",
    why: "Rule Box cards carry a box of extra rules (French Scarlet & Violet rulebook, Annexe 6: \"Un Pokémon Radieux est un Pokémon avec un encadré Règle\"): Pokémon ex, EX, GX, TAG TEAM, V, VMAX, VSTAR, V-UNION, BREAK, Mega, LEGEND, Radiant Pokémon and Prism Star cards. Gym Leader Challenge bans them all.",
    example: "1 Dragapult ex TWM 130\n",
    fix: "Replace the card with one without a Rule Box.",
    check: Check::Deck(rule_box),
};

/// `rule-box`: one finding per line holding a Rule Box card.
fn rule_box(deck: &Deck) -> Vec<Diagnostic> {
    if deck.format.construction.rule_box_allowed {
        return Vec::new();
    }
    let (text, cards) = (deck.text, &deck.identified);
    cards
        .iter()
        .filter(|(_, printing)| printing.has_rule_box())
        .map(|(card, printing)| {
            let name = printing.rules_name();
            Diagnostic::new(
                Rule::RuleBox,
                format!("{name} has a Rule Box, and the format allows no Rule Box cards"),
            )
            .with_help(format!("replace '{name}' with a card without a Rule Box"))
            .at(text, card.line.span, "Rule Box card")
            .with_cards(vec![name])
        })
        .collect()
}

/// `single-type`: every Pokémon must share one type. Names the type most Pokémon have and
/// points at the lines that lack it.
fn single_type(deck: &Deck) -> Vec<Diagnostic> {
    if !deck.format.construction.single_type {
        return Vec::new();
    }
    single_type_finding(deck).into_iter().collect()
}

fn single_type_finding(deck: &Deck) -> Option<Diagnostic> {
    let (text, cards) = (deck.text, &deck.identified);
    let pokemon: Vec<&(&DeckCard, &Printing)> = cards
        .iter()
        .filter(|(_, printing)| {
            printing.category == crate::cards::Category::Pokemon && !printing.types.is_empty()
        })
        .collect();
    let mut tally: BTreeMap<&str, u64> = BTreeMap::new();
    for (card, printing) in &pokemon {
        for kind in &printing.types {
            *tally.entry(kind.as_str()).or_insert(0) += u64::from(card.line.count);
        }
    }
    let total: u64 = pokemon
        .iter()
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    let (best, count) = tally
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(kind, count)| (*kind, *count))?;
    if count == total {
        return None;
    }
    let off: Vec<&&(&DeckCard, &Printing)> = pokemon
        .iter()
        .filter(|(_, printing)| !printing.types.iter().any(|kind| kind == best))
        .collect();
    let (first, _) = **off.first()?;
    let described: Vec<String> = off
        .iter()
        .map(|(_, printing)| format!("{} ({})", printing.rules_name(), printing.types.join("/")))
        .collect();
    let related = off
        .iter()
        .skip(1)
        .map(|(card, printing)| Label {
            line: card.line.line,
            span: card.line.span,
            message: printing.types.join("/"),
        })
        .collect();
    Some(
        Diagnostic::new(
            Rule::SingleType,
            format!(
                "the Pokémon share no type: {count} of {total} are {best}, but not {}",
                described.join(", ")
            ),
        )
        .with_help(format!("replace the Pokémon that are not {best}"))
        .at(text, first.line.span, format!("not {best}"))
        .with_related(related)
        .with_cards(
            off.iter()
                .map(|(_, printing)| printing.rules_name())
                .collect(),
        ),
    )
}
