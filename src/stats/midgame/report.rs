//! The mid-game report of a deck (`deckbox odds`): the known cards read from card lists
//! (`2 Dreepy, 1 Ultra Ball, Iono`), the [`Table`] they leave, and every figure of it. A list
//! item is `N Name`, `Nx Name` or `Name` (one copy), names in any language the card data
//! knows; a mistake is drawn under the item.

use super::{MidGameCard, MidGameError, MidGameQuery, MidGameReport, MidGameSeen, Table};
use crate::formats::Setup;
use crate::stats::deck::{RequestError, StatsDeck};
use crate::stats::query::QueryError;

/// Most copies one item of a card list may count.
const MAX_ITEM_COPIES: u32 = 60_000;

/// What `deckbox odds` asks of a deck.
#[derive(Debug, Clone, Copy)]
pub struct MidGameRequest<'a> {
    /// The known cards: hand, discard pile, in play, prizes taken.
    pub seen: &'a str,
    /// Known cards shuffled back before the draws: a card list, or a number K for the
    /// first K cards of `seen`.
    pub shuffle_back: Option<&'a str>,
    /// Face-down prize cards among the unknown ones.
    pub prizes: u32,
    /// Cards drawn next.
    pub draws: u32,
    /// `--want` expressions over the next draws, as written.
    pub want: &'a [String],
    /// `--count-as` rules, as written.
    pub count_as: &'a [String],
}

impl<'a> MidGameRequest<'a> {
    /// The request of `deckbox odds` as its faces receive it (the command line's flags, the
    /// MCP tool `midgame_odds`'s arguments): `prizes` when given, else the prize count of
    /// the deck's format (`setup`).
    pub fn new(
        setup: &Setup,
        seen: &'a str,
        shuffle_back: Option<&'a str>,
        prizes: Option<u32>,
        draws: u32,
        want: &'a [String],
        count_as: &'a [String],
    ) -> MidGameRequest<'a> {
        MidGameRequest {
            seen,
            shuffle_back,
            prizes: prizes.unwrap_or(setup.prizes),
            draws,
            want,
            count_as,
        }
    }
}

/// Every mid-game figure of `deck` as `request` leaves the game.
pub fn odds(
    deck: &StatsDeck<'_>,
    request: &MidGameRequest<'_>,
) -> Result<MidGameReport, RequestError> {
    let seen = card_counts(request.seen, deck)?;
    let back = match request.shuffle_back {
        Some(list) => match list.trim().parse::<u32>() {
            Ok(cards) => first_cards(request.seen, cards, deck)?,
            Err(_) => card_counts(list, deck)?,
        },
        None => vec![0; deck.kinds().len()],
    };
    let table = table(deck, &seen, back, request)?;
    let mut per_card = Vec::new();
    for (index, kind) in deck.kinds().iter().enumerate() {
        let (left, returned) = (table.unknown[index], table.back[index]);
        if left == 0 && returned == 0 {
            continue;
        }
        let figures = table.kind(index).map_err(midgame_error)?;
        per_card.push(MidGameCard {
            name: kind.local.clone(),
            unknown: left,
            shuffled_back: returned,
            draw_at_least_one: figures.draw_at_least_one.to_f64(),
            draw_at_least_one_fraction: figures.draw_at_least_one.to_string(),
            prized_all: figures.prized_all.to_f64(),
            prized_expected: figures.prized_expected.to_f64(),
        });
    }
    let mut queries = Vec::new();
    for (text, query) in &deck.wanted(request.want, request.count_as)? {
        let probability = table.query(query).map_err(|error| match error {
            MidGameError::Turn { .. } => {
                let at = text.to_ascii_lowercase().find(" by ").unwrap_or(0);
                let error = QueryError::new(error.to_string(), at + 1, 2);
                RequestError::Query {
                    text: text.clone(),
                    error,
                }
            }
            other => midgame_error(other),
        })?;
        queries.push(MidGameQuery {
            query: text.clone(),
            probability: probability.to_f64(),
            fraction: probability.to_string(),
        });
    }
    let seen_cards = deck
        .kinds()
        .iter()
        .zip(&seen)
        .filter(|(_, copies)| **copies > 0)
        .map(|(kind, copies)| MidGameSeen {
            name: kind.local.clone(),
            copies: *copies,
        })
        .collect();
    Ok(MidGameReport {
        cards: deck.kinds().iter().map(|kind| kind.copies).sum(),
        known: seen.iter().sum(),
        unknown: table.unknown_cards(),
        prizes: table.prizes,
        shuffled_back: table.back_cards(),
        deck: table.deck_cards(),
        draws: table.draws,
        seen: seen_cards,
        per_card,
        queries,
    })
}

/// The table the known cards leave: no more known than the deck has, no more shuffled
/// back than known, prizes and draws that fit.
fn table(
    deck: &StatsDeck<'_>,
    seen: &[u32],
    back: Vec<u32>,
    request: &MidGameRequest<'_>,
) -> Result<Table, RequestError> {
    let mut unknown = Vec::with_capacity(deck.kinds().len());
    for (index, kind) in deck.kinds().iter().enumerate() {
        let known = seen.get(index).copied().unwrap_or(0);
        let returned = back.get(index).copied().unwrap_or(0);
        if known > kind.copies {
            return Err(RequestError::Usage(format!(
                "--seen has {known} {}, but the deck has {}",
                kind.local, kind.copies
            )));
        }
        if returned > known {
            return Err(RequestError::Usage(format!(
                "--shuffle-back returns {returned} {}, but --seen knows {known}",
                kind.local
            )));
        }
        unknown.push(kind.copies - known);
    }
    let table = Table {
        unknown,
        back,
        prizes: request.prizes,
        draws: request.draws,
    };
    table
        .check()
        .map_err(|error| RequestError::Usage(error.to_string()))?;
    Ok(table)
}

fn midgame_error(error: MidGameError) -> RequestError {
    match error {
        MidGameError::Stats(reason) => RequestError::Stats(reason),
        other => RequestError::Usage(other.to_string()),
    }
}

/// Copies per kind of a card list (`2 Dreepy, 1 Ultra Ball, Iono`); an unknown name or a bad
/// count is drawn under the item.
fn card_counts(list: &str, deck: &StatsDeck<'_>) -> Result<Vec<u32>, RequestError> {
    let mut counts = vec![0u32; deck.kinds().len()];
    for (kind, count) in card_items(list, deck)? {
        if let Some(slot) = counts.get_mut(kind) {
            *slot = slot.saturating_add(count);
        }
    }
    Ok(counts)
}

/// The first `cards` cards of a card list, as copies per kind (`--shuffle-back 7`: the
/// first seven cards of `--seen`, the hand when it is listed first).
fn first_cards(list: &str, cards: u32, deck: &StatsDeck<'_>) -> Result<Vec<u32>, RequestError> {
    let mut counts = vec![0u32; deck.kinds().len()];
    let mut left = cards;
    for (kind, count) in card_items(list, deck)? {
        let taken = count.min(left);
        if let Some(slot) = counts.get_mut(kind) {
            *slot = slot.saturating_add(taken);
        }
        left -= taken;
    }
    if left > 0 {
        return Err(RequestError::Usage(format!(
            "--shuffle-back {cards}: --seen lists only {} cards",
            cards - left
        )));
    }
    Ok(counts)
}

/// The items of a card list in order: `(kind, copies)`.
fn card_items(list: &str, deck: &StatsDeck<'_>) -> Result<Vec<(usize, u32)>, RequestError> {
    let mut items = Vec::new();
    let mut offset = 0;
    for item in list.split(',') {
        let start = offset + (item.len() - item.trim_start().len());
        offset += item.len() + 1;
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let digits = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (count, name) = if digits == 0 {
            (1, item)
        } else {
            let count = item
                .get(..digits)
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|count| *count <= MAX_ITEM_COPIES);
            let Some(count) = count else {
                let error = QueryError::new("a count of at most 60000 copies", start, digits);
                return Err(RequestError::card_list(list, error));
            };
            let rest = item.get(digits..).unwrap_or("");
            let rest = rest
                .strip_prefix(['x', 'X', '×'])
                .filter(|r| r.starts_with(' '))
                .unwrap_or(rest);
            (count, rest.trim())
        };
        let name_at = start + item.find(name).unwrap_or(0);
        let Some(kind) = deck.kind_of(name) else {
            let error = QueryError::new(deck.not_in_deck(name), name_at, name.len().max(1));
            return Err(RequestError::card_list(list, error));
        };
        items.push((kind, count));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--prizes` when given (0 included), else the format's prize count.
    #[test]
    fn prizes_default_to_the_formats() {
        let setup = Setup {
            prizes: 4,
            ..Setup::default()
        };
        let want = ["Dreepy>=1".to_string()];
        let request = MidGameRequest::new(&setup, "Iono", Some("1"), None, 2, &want, &[]);
        assert_eq!(request.prizes, 4);
        assert_eq!(
            (request.seen, request.shuffle_back, request.draws),
            ("Iono", Some("1"), 2)
        );
        assert_eq!((request.want, request.count_as), (&want[..], &[][..]));
        let request = MidGameRequest::new(&setup, "", None, Some(0), 2, &[], &[]);
        assert_eq!(request.prizes, 0);
    }
}
