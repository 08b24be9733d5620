//! Editing a JSON list: its card objects cannot take spliced text lines, so the edit is made
//! on the deck's cards (counts changed, cards dropped, a card added) and the list is written
//! again whole by [`listing::write`], the function `fmt --write` writes through. An edited
//! JSON list is therefore exactly what `fmt --write` would write for the edited deck: in its
//! own layout, every key and value deckbox does not read kept, its cards in canonical order.
//! What `fmt --write` refuses to rewrite (a line it cannot read, keys deckbox's own layout
//! has no place for, merged card objects that disagree) is refused with its reason.

use super::{EditError, Edited, Plan, Target, new_name};
use crate::cards::CardDb;
use crate::check::{CheckedDeck, DeckCard};
use crate::deck::{CardLine, Layout, Span};
use crate::edit::listing;

/// Whether the deck is a JSON list (its lines are not card lines).
pub(super) fn is_json(deck: &CheckedDeck) -> bool {
    deck.list.layout == Some(Layout::Json) || deck.list.json.is_some()
}

/// The card an `add` appends to a JSON list: the card's name in the list's language, the
/// spec's set code and number. It has no object in the file (an empty span), so it is
/// written with the fields deckbox writes.
pub(super) fn new_card(
    deck: &CheckedDeck,
    target: &Target,
    spec: &super::Spec,
    count: u32,
) -> DeckCard {
    let (set, number) = match (&spec.set, &spec.number) {
        (Some(set), Some(number)) => (Some(set.clone()), Some(number.clone())),
        _ => (None, None),
    };
    DeckCard {
        line: CardLine {
            line: 0,
            count,
            name: new_name(deck, target, spec),
            set,
            number,
            ph: false,
            section: target.printing.map(|p| p.category.section()),
            span: Span::new(0, 0),
            count_span: Span::new(0, 0),
            name_span: Span::new(0, 0),
            comment: None,
        },
        printing: target.id,
        language: None,
    }
}

/// The plan applied to the deck's cards, and the list written again as `fmt` writes it.
pub(super) fn apply(plan: Plan, deck: &CheckedDeck, db: &CardDb) -> Result<Edited, EditError> {
    let mut edited = deck.clone();
    let mut changes = Vec::new();
    for &(index, count) in &plan.counts {
        let Some(card) = edited.cards.get_mut(index) else {
            continue;
        };
        let line = card.line.line;
        let name = &card.line.name;
        changes.push(match count {
            0 => format!("line {line} removed: {} {name}", card.line.count),
            _ => format!("line {line}: {} → {count} {name}", card.line.count),
        });
        card.line.count = count;
    }
    edited.cards.retain(|card| card.line.count > 0);
    if let Some(card) = plan.new_card {
        let mut added = format!("new card: {} {}", card.line.count, card.line.name);
        if let (Some(set), Some(number)) = (&card.line.set, &card.line.number) {
            added.push_str(&format!(" {set} {number}"));
        }
        changes.push(added);
        edited.cards.push(card);
    }
    let text = listing::build(&edited, db)
        .and_then(|listing| listing::write(&edited, &listing))
        .map_err(|refusal| EditError::JsonRefused {
            reason: refusal.to_string().replacen(
                "not formatted",
                "not edited (a JSON list is written again whole, as `deckbox fmt --write` writes it)",
                1,
            ),
        })?;
    Ok(Edited { text, changes })
}
