//! A checked deck as statistics see it: card kinds, one per English rules name, printings
//! and languages merged ([`deck_kinds`]). It identifies nothing itself (that is
//! [`crate::check`]) and computes no odds.

use crate::cards::CardDb;
use crate::check::CheckedDeck;
use crate::names::lang::Language;

/// One card kind of a deck: every line with the same English rules name.
#[derive(Debug, Clone)]
pub struct DeckKind {
    /// The English rules name (the report's `name`).
    pub name: String,
    /// The name in the list's language (the report's `local_name` when it differs).
    pub local: String,
    /// The names as the deck's lines wrote them, first line first.
    pub written: Vec<String>,
    /// Copies of the kind, every line together.
    pub copies: u32,
    /// A Basic Pokémon (some printing of it is).
    pub basic: bool,
}

/// A deck whose lines could not all be identified, for statistics that need every card.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error(
    "{path} has lines deckbox could not identify; statistics need every card:\n{}",
    lines.join("\n")
)]
#[diagnostic(help("`deckbox check {path}` explains each line"))]
pub struct Unidentified {
    pub path: String,
    pub lines: Vec<String>,
}

/// Merges the deck's lines into kinds by English rules name, in order of first appearance.
/// Statistics over a card that was not identified would be wrong, so any such line (or an
/// unreadable one) is an error naming them.
pub fn deck_kinds(deck: &CheckedDeck, db: &CardDb) -> Result<Vec<DeckKind>, Unidentified> {
    let mut kinds: Vec<DeckKind> = Vec::new();
    let mut unknown: Vec<String> = deck
        .list
        .issues
        .iter()
        .map(|issue| format!("  {}: {}", deck.path, issue.message))
        .collect();
    for card in &deck.cards {
        let Some(printing) = card.printing.and_then(|id| db.get(id)) else {
            let line = &card.line;
            unknown.push(format!("  line {}: {}", line.line, line.name));
            continue;
        };
        let name = printing.rules_name();
        // A basic Energy's rules name is English in every language: show it as written.
        let local = match deck
            .language
            .and_then(|language| printing.names.get(language))
        {
            _ if printing.is_basic_energy() && deck.language != Some(Language::En) => {
                card.line.name.clone()
            }
            Some(local) => crate::names::canonical(local),
            None => name.clone(),
        };
        let written = card.line.name.clone();
        // One kind per card as the construction rules count it (`DeckCard::key`): spellings
        // of one name in the data are one card.
        let key = card.key(db);
        match kinds
            .iter_mut()
            .find(|kind| crate::names::lookup_key(&kind.name) == key)
        {
            Some(kind) => {
                kind.copies = kind.copies.saturating_add(card.line.count);
                kind.basic |= printing.is_basic_pokemon();
                if !kind.written.contains(&written) {
                    kind.written.push(written);
                }
            }
            None => kinds.push(DeckKind {
                name,
                local,
                written: vec![written],
                copies: card.line.count,
                basic: printing.is_basic_pokemon(),
            }),
        }
    }
    if !unknown.is_empty() {
        return Err(Unidentified {
            path: deck.path.clone(),
            lines: unknown,
        });
    }
    Ok(kinds)
}
