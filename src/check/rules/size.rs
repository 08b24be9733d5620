//! How big the deck is and whether it can start a game: `deck-size`, `no-basic-pokemon`.

use super::{Check, Deck, Rule, RuleDef, plural};
use crate::check::diagnostic::{Diagnostic, Severity};

pub(super) const DECK_SIZE: RuleDef = RuleDef {
    id: "deck-size",
    severity: Severity::Error,
    summary: "The deck does not have the number of cards the format requires (60).",
    why: "Rulebook (Sun & Moon, \"Deck Building\"): \"your deck must be exactly 60 cards; it can't be any more or less, even 59 or 61 cards!\"",
    example: "A list whose lines add up to 61 cards.",
    fix: "Add or remove cards until the deck has exactly the required number.",
    check: Check::Deck(deck_size),
};

pub(super) const NO_BASIC_POKEMON: RuleDef = RuleDef {
    id: "no-basic-pokemon",
    severity: Severity::Error,
    summary: "The deck has no Basic Pokémon.",
    why: "Rulebook (Sun & Moon, \"Deck Building\"): \"Finally, your deck must have at least one Basic Pokémon in it.\" Restored Pokémon and V-UNION pieces are not Basic Pokémon, and Fossil Item cards are not Pokémon while in the deck.",
    example: "A deck of only Trainer and Energy cards.",
    fix: "Add at least one Basic Pokémon; most decks play 8 to 15 so the opening hand rarely needs a mulligan.",
    check: Check::Deck(no_basic_pokemon),
};

fn deck_size(deck: &Deck) -> Vec<Diagnostic> {
    let Deck {
        text,
        list,
        cards,
        format,
        ..
    } = deck;
    let total: u64 = cards.iter().map(|card| u64::from(card.line.count)).sum();
    let wanted = u64::from(format.construction.deck_size);
    if total == wanted {
        return Vec::new();
    }
    let help = if total > wanted {
        format!("remove {}", plural(total - wanted, "card", "cards"))
    } else {
        format!("add {}", plural(wanted - total, "card", "cards"))
    };
    let diagnostic = Diagnostic::new(
        Rule::DeckSize,
        format!(
            "the deck has {}, but a deck must have exactly {wanted}",
            plural(total, "card", "cards")
        ),
    )
    .with_help(help);
    vec![match &list.footer {
        Some(footer) => diagnostic.at(text, footer.span, format!("the list adds up to {total}")),
        None => diagnostic,
    }]
}

fn no_basic_pokemon(deck: &Deck) -> Vec<Diagnostic> {
    let wanted = u64::from(deck.format.construction.min_basic_pokemon);
    let basics: u64 = deck
        .identified
        .iter()
        .filter(|(_, printing)| printing.is_basic_pokemon())
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    // An unidentified line may be a Basic Pokémon: the count cannot be judged, and the
    // line's own `unknown-card` error already says what to fix.
    let unidentified = deck.cards.iter().any(|card| card.printing.is_none());
    if basics >= wanted || unidentified {
        return Vec::new();
    }
    let help = "add at least one Basic Pokémon (Restored Pokémon, V-UNION pieces and Fossil Items do not count)";
    vec![
        Diagnostic::new(
            Rule::NoBasicPokemon,
            format!(
                "the deck has {}, but needs at least {wanted}",
                plural(basics, "Basic Pokémon", "Basic Pokémon")
            ),
        )
        .with_help(help),
    ]
}
