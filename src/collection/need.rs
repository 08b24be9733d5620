//! What decks still need from a collection.
//!
//! An owned printing counts for a deck line when it is the printing the line names, or
//! (unless `exact`) when the deck's format allows it at the deck's date and it is the same
//! card for the reprint rule: the same name and functionally identical text, as
//! [`crate::formats::reprint::functionally_identical`] and
//! [`crate::formats::legality::judge`] decide for `check` (every basic Energy of a type is
//! one card there). There is no second implementation of the rule here.
//!
//! Several decks are built at once: what they need is summed, and one owned copy serves
//! one line of one deck. Copies are handed out greedily: the lines with the fewest owned
//! printings that count go first, and each takes its own printing first, then the
//! printings fewest other lines could use.
//!
//! A line whose printing the deck's format does not allow at the deck's date (`not-legal`
//! or `banned` in `check`) is no card to get: it is [`Unplayable`], kept out of what is
//! missing, with the legal printing of the name `check` compared it with, if any.

use super::Collection;
use super::prices::Prices;
use crate::cards::{CardDb, PrintingId};
use crate::check::CheckedDeck;
use crate::formats::Format;
use crate::formats::legality::{self, Verdict};
use crate::formats::reprint;

/// Whether an owned printing counts for a line naming `wanted`, in `format`.
pub fn counts(
    format: &Format,
    db: &CardDb,
    owned: PrintingId,
    wanted: PrintingId,
    exact: bool,
) -> bool {
    if owned == wanted {
        return true;
    }
    if exact {
        return false;
    }
    let (Some(owned), Some(wanted)) = (db.get(owned), db.get(wanted)) else {
        return false;
    };
    reprint::functionally_identical(owned, wanted) && legality::judge(format, db, owned).allows()
}

/// Owned copies counted for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// Index in [`Collection::owned`].
    pub owned: usize,
    pub count: u64,
}

/// One line of one deck: how many it asks for, what was counted, what is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineNeed {
    /// Index in the decks `need` was given.
    pub deck: usize,
    /// Index in that deck's cards.
    pub card: usize,
    pub wanted: u64,
    pub counted: Vec<Counted>,
    pub missing: u64,
    /// The cheapest price row that counts for the line, when prices were given.
    pub price: Option<super::prices::Price>,
    /// Why the format does not allow the line's printing: not to be bought.
    pub unplayable: Option<Unplayable>,
}

/// A deck line whose printing the deck's format does not allow at the deck's date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplayable {
    /// `not legal in Standard on 2026-11-25: its regulation mark G is not one of H, I, J`,
    /// or `banned in Expanded since 2020-01-10 (SOURCE)`.
    pub reason: String,
    /// A legal printing of the same name (the one `check` compared it with), if any.
    pub legal: Option<PrintingId>,
    /// What the reprint rule found different from [`legal`](Self::legal): empty when it is
    /// the same card (a format without the reprint rule allows only that printing).
    pub differences: Vec<&'static str>,
}

/// Why `format` does not allow `printing`, or `None` when it does (or cannot decide).
pub fn unplayable(format: &Format, db: &CardDb, printing: PrintingId) -> Option<Unplayable> {
    let printing = db.get(printing)?;
    let at = format!("in {} on {}", format.name, format.date);
    match legality::judge(format, db, printing) {
        Verdict::Banned(ban) => Some(Unplayable {
            reason: format!("banned {at} (since {}, {})", ban.date, ban.source),
            legal: None,
            differences: Vec::new(),
        }),
        Verdict::NotLegal {
            reason,
            alternative,
            differences,
        } => Some(Unplayable {
            reason: format!("not legal {at}: {reason}"),
            legal: alternative,
            differences: differences.iter().map(|d| d.describe()).collect(),
        }),
        Verdict::Legal | Verdict::LegalAsReprint(_) | Verdict::Undecided { .. } => None,
    }
}

/// What a set of decks needs from a collection, line by line in deck order.
#[derive(Debug, Clone, Default)]
pub struct Need {
    pub lines: Vec<LineNeed>,
    /// Only the same printing counted (`--exact-printing`).
    pub exact: bool,
    /// The price list's currency, when one was given.
    pub currency: Option<String>,
}

impl Need {
    /// The lines to get cards for: every line the format allows.
    pub fn playable(&self) -> impl Iterator<Item = &LineNeed> {
        self.lines.iter().filter(|line| line.unplayable.is_none())
    }

    /// Cards missing over every deck (lines the format does not allow aside).
    pub fn missing(&self) -> u64 {
        self.playable().map(|line| line.missing).sum()
    }

    /// Cards missing from one deck (lines the format does not allow aside).
    pub fn missing_of(&self, deck: usize) -> u64 {
        self.playable()
            .filter(|line| line.deck == deck)
            .map(|line| line.missing)
            .sum()
    }

    /// Cards of the decks' lines that their format does not allow at their date.
    pub fn not_legal(&self) -> u64 {
        self.lines
            .iter()
            .filter(|line| line.unplayable.is_some())
            .map(|line| line.wanted)
            .sum()
    }

    /// Cards of one deck's lines that its format does not allow at its date.
    pub fn not_legal_of(&self, deck: usize) -> u64 {
        self.lines
            .iter()
            .filter(|line| line.deck == deck && line.unplayable.is_some())
            .map(|line| line.wanted)
            .sum()
    }

    /// True when nothing is missing and every line is a card the format allows.
    pub fn buildable(&self) -> bool {
        self.missing() == 0 && self.not_legal() == 0
    }

    /// What the missing cards cost (hundredths of [`currency`](Self::currency)), and how
    /// many missing cards have no price that counts.
    pub fn cost(&self) -> (u128, u64) {
        let mut cents = 0u128;
        let mut unpriced = 0u64;
        for line in self.playable().filter(|line| line.missing > 0) {
            match &line.price {
                Some(price) => {
                    // Prices are at most `MAX_PRICE_CENTS` and lines at most `MAX_COUNT`
                    // copies, so a sum of u128 products cannot overflow.
                    cents = cents.saturating_add(
                        u128::from(price.cents).saturating_mul(u128::from(line.missing)),
                    );
                }
                None => unpriced += line.missing,
            }
        }
        (cents, unpriced)
    }
}

/// A deck to build and the format it is judged in.
pub type DeckIn<'a> = (&'a CheckedDeck, &'a Format);

/// What `decks` still need from `collection`; see the module's comment.
pub fn need(
    decks: &[DeckIn],
    collection: &Collection,
    db: &CardDb,
    exact: bool,
    prices: Option<&Prices>,
) -> Need {
    let by_key = collection.by_key(db);
    let mut lines = Vec::new();
    let mut eligible: Vec<Vec<usize>> = Vec::new();
    for (deck_index, (deck, format)) in decks.iter().enumerate() {
        for (card_index, card) in deck.cards.iter().enumerate() {
            let found = match card.printing {
                Some(wanted) => by_key
                    .get(&card.key(db))
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|&at| {
                        collection.owned.get(at).is_some_and(|owned| {
                            (owned.known || !exact)
                                && counts(format, db, owned.printing, wanted, exact)
                        })
                    })
                    .collect(),
                None => Vec::new(),
            };
            eligible.push(found);
            let wanted = u64::from(card.line.count);
            let price = match (card.printing, prices) {
                (Some(wanted), Some(prices)) => cheapest(prices, format, db, wanted, exact),
                _ => None,
            };
            lines.push(LineNeed {
                deck: deck_index,
                card: card_index,
                wanted,
                counted: Vec::new(),
                missing: wanted,
                price,
                unplayable: card
                    .printing
                    .and_then(|wanted| unplayable(format, db, wanted)),
            });
        }
    }
    hand_out(&mut lines, &eligible, collection, decks);
    Need {
        lines,
        exact,
        currency: prices.map(|prices| prices.currency.clone()),
    }
}

/// Hands owned copies to lines; see the module's comment.
fn hand_out(
    lines: &mut [LineNeed],
    eligible: &[Vec<usize>],
    collection: &Collection,
    decks: &[DeckIn],
) {
    let mut left: Vec<u64> = collection.owned.iter().map(|owned| owned.count).collect();
    let mut demand = vec![0usize; left.len()];
    for at in eligible.iter().flatten() {
        if let Some(slot) = demand.get_mut(*at) {
            *slot += 1;
        }
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&index| (eligible.get(index).map_or(0, Vec::len), index));
    for index in order {
        let Some(line) = lines.get_mut(index) else {
            continue;
        };
        let wanted = decks
            .get(line.deck)
            .and_then(|(deck, _)| deck.cards.get(line.card))
            .and_then(|card| card.printing);
        let mut candidates = eligible.get(index).cloned().unwrap_or_default();
        candidates.sort_by_key(|&at| {
            let same = collection.owned.get(at).map(|owned| owned.printing) == wanted;
            (!same, demand.get(at).copied().unwrap_or(0), at)
        });
        for at in candidates {
            if line.missing == 0 {
                break;
            }
            let Some(available) = left.get_mut(at) else {
                continue;
            };
            let take = (*available).min(line.missing);
            if take > 0 {
                *available -= take;
                line.missing -= take;
                line.counted.push(Counted {
                    owned: at,
                    count: take,
                });
            }
        }
    }
}

/// The cheapest price row whose printing counts for a line naming `wanted`.
fn cheapest(
    prices: &Prices,
    format: &Format,
    db: &CardDb,
    wanted: PrintingId,
    exact: bool,
) -> Option<super::prices::Price> {
    prices
        .rows
        .iter()
        .filter(|row| counts(format, db, row.printing, wanted, exact))
        .min_by_key(|row| (row.cents, row.line))
        .cloned()
}

/// One deck of a folder on its own against the whole collection (`need DIR --have`).
#[derive(Debug, Clone)]
pub struct Readiness {
    /// Index in the decks given.
    pub deck: usize,
    /// No finding of `check` is an error.
    pub legal: bool,
    /// What this deck alone needs (its lines' `deck` is 0).
    pub need: Need,
}

/// An owned entry that the needs of several decks, each on its own, count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    /// Index in [`Collection::owned`].
    pub owned: usize,
    /// Each deck (index) that counts it, and how many copies.
    pub decks: Vec<(usize, u64)>,
}

/// Each deck's readiness on its own, and the owned entries two or more of them count: the
/// cards that cannot serve all those decks at once when their copies fall short.
pub fn readiness(
    decks: &[DeckIn],
    collection: &Collection,
    db: &CardDb,
    exact: bool,
    prices: Option<&Prices>,
) -> (Vec<Readiness>, Vec<Shared>) {
    let mut ready = Vec::new();
    let mut by_owned: std::collections::BTreeMap<usize, Vec<(usize, u64)>> =
        std::collections::BTreeMap::new();
    for (index, deck) in decks.iter().enumerate() {
        let alone = need(std::slice::from_ref(deck), collection, db, exact, prices);
        for line in &alone.lines {
            for counted in &line.counted {
                let users = by_owned.entry(counted.owned).or_default();
                match users.iter_mut().find(|(user, _)| *user == index) {
                    Some((_, count)) => *count += counted.count,
                    None => users.push((index, counted.count)),
                }
            }
        }
        ready.push(Readiness {
            deck: index,
            legal: deck.0.valid(),
            need: alone,
        });
    }
    let shared = by_owned
        .into_iter()
        .filter(|(_, users)| users.len() > 1)
        .map(|(owned, decks)| Shared { owned, decks })
        .collect();
    (ready, shared)
}
