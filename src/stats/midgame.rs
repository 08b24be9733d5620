//! Mid-game odds (`deckbox odds`): some cards are known (the hand, the discard pile, the
//! cards in play, the prizes taken), the others are not; `prizes` of the unknown cards lie
//! face down as prizes and the next `draws` cards come from the rest of the deck. A
//! hand-reset Supporter shuffles known cards back first: they join the deck, never the
//! prizes, which were set aside before.
//!
//! Every value is exact, a ratio of counts of equally likely deals: the prizes are any
//! `prizes` of the unknown cards, and the draws any `draws` of the deck that is left (the
//! unknown cards not prized, and the cards shuffled back). A question about the draws is a
//! function of how many cards of each *atom* (cards the question cannot tell apart) land in
//! them; a dynamic programme over the atoms counts the deals, as [`super::exact`] does for
//! the opening hand. No mulligan rule applies: the game is under way. [`odds`] reads the
//! known cards of a deck and gives every figure as a [`MidGameReport`].

use std::collections::HashMap;

use serde::Serialize;

use super::exact::{MAX_STATES, MAX_STEPS, Packed, Ratio, Residuals, StatsError, binomial};
use super::query::ResolvedQuery;

mod report;

pub use report::{MidGameRequest, odds};

/// Cards of the deck as the game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Per kind: copies not seen (in the deck or face down among the prizes).
    pub unknown: Vec<u32>,
    /// Per kind: known copies shuffled back into the deck before the draws.
    pub back: Vec<u32>,
    /// Face-down prize cards, all among the unknown ones.
    pub prizes: u32,
    /// Cards drawn next.
    pub draws: u32,
}

/// Why mid-game odds could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MidGameError {
    #[error("{prizes} face-down prizes, but only {unknown} cards are not known")]
    TooManyPrizes { prizes: u32, unknown: u32 },
    #[error("{draws} draws, but the deck holds {deck} cards")]
    TooManyDraws { draws: u32, deck: u32 },
    #[error("a turn ('by T{turn}') means nothing here: every term counts the next draws")]
    Turn { turn: u32 },
    #[error("{0}")]
    Stats(#[from] StatsError),
}

/// The exact figures of one card kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindFigures {
    /// P(at least one copy among the next draws).
    pub draw_at_least_one: Ratio,
    /// P(every unknown copy is a face-down prize); 0 when none is unknown.
    pub prized_all: Ratio,
    /// E\[copies among the face-down prizes\].
    pub prized_expected: Ratio,
}

/// Everything `deckbox odds` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MidGameReport {
    /// Cards in the deck list.
    pub cards: u32,
    /// Cards known (`--seen`).
    pub known: u32,
    /// Cards not known: the deck and the face-down prizes.
    pub unknown: u32,
    /// Face-down prize cards.
    pub prizes: u32,
    /// Known cards shuffled back into the deck.
    pub shuffled_back: u32,
    /// Cards in the deck the draws come from.
    pub deck: u32,
    pub draws: u32,
    /// The cards known (`--seen`), in deck order: what the figures assume.
    pub seen: Vec<MidGameSeen>,
    /// Every card with a copy unknown or shuffled back, in deck order.
    pub per_card: Vec<MidGameCard>,
    pub queries: Vec<MidGameQuery>,
}

/// Copies of one card known (`--seen`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MidGameSeen {
    /// The name in the list's language.
    pub name: String,
    pub copies: u32,
}

/// One card's mid-game figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MidGameCard {
    /// The name in the list's language.
    pub name: String,
    /// Copies not known.
    pub unknown: u32,
    pub shuffled_back: u32,
    pub draw_at_least_one: f64,
    /// The exact value of `draw_at_least_one`, `num/den`.
    pub draw_at_least_one_fraction: String,
    /// P(every unknown copy is a face-down prize); 0 when none is unknown.
    pub prized_all: f64,
    pub prized_expected: f64,
}

/// One `--want` over the next draws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MidGameQuery {
    pub query: String,
    pub probability: f64,
    /// The exact value, `num/den`.
    pub fraction: String,
}

/// An atom: cards a question cannot tell apart, `unknown` of them possibly prized, `back`
/// of them shuffled back; `mask` says which terms count them.
#[derive(Debug, Clone, Copy)]
struct Atom {
    unknown: u32,
    back: u32,
    mask: u32,
}

impl Table {
    /// Unknown cards (the deck and the face-down prizes).
    pub fn unknown_cards(&self) -> u32 {
        self.unknown.iter().fold(0u32, |a, c| a.saturating_add(*c))
    }

    /// Cards shuffled back.
    pub fn back_cards(&self) -> u32 {
        self.back.iter().fold(0u32, |a, c| a.saturating_add(*c))
    }

    /// Cards in the deck the draws come from.
    pub fn deck_cards(&self) -> u32 {
        (self.unknown_cards() - self.prizes.min(self.unknown_cards()))
            .saturating_add(self.back_cards())
    }

    /// Checks that the prizes and the draws fit.
    pub fn check(&self) -> Result<(), MidGameError> {
        let unknown = self.unknown_cards();
        if self.prizes > unknown {
            return Err(MidGameError::TooManyPrizes {
                prizes: self.prizes,
                unknown,
            });
        }
        let deck = self.deck_cards();
        if self.draws > deck {
            return Err(MidGameError::TooManyDraws {
                draws: self.draws,
                deck,
            });
        }
        Ok(())
    }

    /// Every figure of kind `index`.
    pub fn kind(&self, index: usize) -> Result<KindFigures, MidGameError> {
        self.check()?;
        let unknown = self.unknown.get(index).copied().unwrap_or(0);
        let back = self.back.get(index).copied().unwrap_or(0);
        let atoms = [
            Atom {
                unknown,
                back,
                mask: 1,
            },
            Atom {
                unknown: self.unknown_cards() - unknown,
                back: self.back_cards() - back,
                mask: 0,
            },
        ];
        let none = self.probability(&atoms, &[1], &|_, count| count == 0, &|bits| bits & 1 == 1)?;
        let total_unknown = self.unknown_cards();
        let prized_all = if unknown == 0 {
            Ratio::new(0, 1)
        } else {
            // All `unknown` copies among the prizes: C(U − r, P − r) / C(U, P).
            let ways = match self.prizes.checked_sub(unknown) {
                Some(rest) => binomial(total_unknown - unknown, rest)?,
                None => 0,
            };
            Ratio::new(ways, binomial(total_unknown, self.prizes)?)
        };
        let expected = Ratio::new(
            u128::from(unknown) * u128::from(self.prizes),
            u128::from(total_unknown.max(1)),
        );
        let one = |r: Option<Ratio>| r.ok_or(MidGameError::Stats(StatsError::TooLarge));
        let none = one(Some(none))?;
        Ok(KindFigures {
            draw_at_least_one: one(Ratio::new(none.denom() - none.numer(), none.denom()))?,
            prized_all: one(prized_all)?,
            prized_expected: one(expected)?,
        })
    }

    /// P(the query holds for the next draws). A term with a turn is an error.
    pub fn query(&self, query: &ResolvedQuery) -> Result<Ratio, MidGameError> {
        self.check()?;
        if let Some(turn) = query.last_turn() {
            return Err(MidGameError::Turn { turn });
        }
        let masks = query.kind_masks(self.unknown.len())?;
        let mut groups: HashMap<u32, (u32, u32)> = HashMap::new();
        for (kind, mask) in masks.iter().enumerate() {
            let group = groups.entry(*mask).or_insert((0, 0));
            group.0 += self.unknown.get(kind).copied().unwrap_or(0);
            group.1 += self.back.get(kind).copied().unwrap_or(0);
        }
        let mut atoms: Vec<Atom> = groups
            .into_iter()
            .map(|(mask, (unknown, back))| Atom {
                unknown,
                back,
                mask,
            })
            .collect();
        atoms.sort_by_key(|atom| atom.mask);
        let holds = |j: usize, have: u32| query.term_holds(j, have);
        let truth = |bits: u32| query.truth(bits);
        Ok(self.probability(&atoms, &query.caps(), &holds, &truth)?)
    }

    /// P(truth(bits)), bit j set when term j holds for the cards its atoms put among the
    /// draws: Σ over the deals of the prizes and the draws, atom by atom. A term is decided
    /// after its last atom (or as soon as its count reaches its cap) and its count forgotten:
    /// the state keeps only the residual question ([`Residuals`]), so at most the terms
    /// whose atoms are under way keep a count.
    fn probability(
        &self,
        atoms: &[Atom],
        caps: &[u32],
        holds: &dyn Fn(usize, u32) -> bool,
        truth: &dyn Fn(u32) -> bool,
    ) -> Result<Ratio, StatsError> {
        let (prizes, draws) = (self.prizes, self.draws);
        let terms = caps.len();
        let mut residuals = Residuals::new(terms, truth).ok_or(StatsError::TooManyTerms {
            max: MAX_PACKED_TERMS,
        })?;
        let last: Vec<Option<usize>> = (0..terms)
            .map(|j| atoms.iter().rposition(|a| a.mask >> j & 1 == 1))
            .collect();
        let mut budget = MAX_STEPS;
        let mut states = Packed::default();
        let start = decide(&mut residuals, State::default(), caps, holds, &|j| {
            last.get(j) == Some(&None)
        });
        states.insert(start.pack(), 1);
        for (i, atom) in atoms.iter().enumerate() {
            let mut next = Packed::default();
            for (key, ways) in &states {
                let state = State::unpack(*key);
                let counted = atom.mask & residuals.relevant(state.residual);
                for in_prizes in 0..=atom.unknown.min(prizes - state.placed) {
                    let prize_ways = binomial(atom.unknown, in_prizes)?;
                    let in_deck = atom.unknown - in_prizes + atom.back;
                    for in_draws in 0..=in_deck.min(draws - state.drawn) {
                        budget = budget
                            .checked_sub(1)
                            .ok_or(StatsError::TooComplex { steps: MAX_STEPS })?;
                        let w = prize_ways
                            .checked_mul(binomial(in_deck, in_draws)?)
                            .and_then(|w| w.checked_mul(*ways))
                            .ok_or(StatsError::TooLarge)?;
                        let mut to = state;
                        to.placed += in_prizes;
                        to.drawn += in_draws;
                        for (j, cap) in caps.iter().enumerate() {
                            if counted >> j & 1 == 1
                                && let Some(count) = to.counts.get_mut(j)
                            {
                                *count = count.saturating_add(in_draws).min(*cap);
                            }
                        }
                        let to = decide(&mut residuals, to, caps, holds, &|j| {
                            last.get(j) == Some(&Some(i))
                        });
                        if residuals.is_false(to.residual) {
                            continue;
                        }
                        let slot = next.entry(to.pack()).or_insert(0);
                        *slot = slot.checked_add(w).ok_or(StatsError::TooLarge)?;
                        if next.len() > MAX_STATES {
                            return Err(StatsError::TooManyStates { max: MAX_STATES });
                        }
                    }
                }
            }
            states = next;
        }
        let mut sum: u128 = 0;
        for (key, ways) in states {
            let state = State::unpack(key);
            if state.placed == prizes && state.drawn == draws && residuals.holds(state.residual, 0)
            {
                sum = sum.checked_add(ways).ok_or(StatsError::TooLarge)?;
            }
        }
        let total = binomial(self.unknown_cards(), prizes)?
            .checked_mul(binomial(self.deck_cards(), draws)?)
            .ok_or(StatsError::TooLarge)?;
        Ratio::new(sum, total).ok_or(StatsError::TooLarge)
    }
}

/// Terms a packed state has room for (ten bits of count each).
const MAX_PACKED_TERMS: usize = 8;

/// A partial deal: prizes and draws placed, the residual question, the count (capped) of
/// each term still open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct State {
    residual: u32,
    placed: u32,
    drawn: u32,
    counts: [u32; MAX_PACKED_TERMS],
}

impl State {
    /// 16 bits each for the residual, prizes and draws (at most 60,000 by the CLI), 10 for
    /// each count (caps are at most 1,000).
    fn pack(&self) -> u128 {
        let head = u128::from(self.residual) << 112
            | u128::from(self.placed) << 96
            | u128::from(self.drawn) << 80;
        let counts = self.counts.iter().enumerate();
        counts.fold(head, |key, (j, c)| key | u128::from(*c & 0x3ff) << (10 * j))
    }

    fn unpack(key: u128) -> State {
        let field = |shift: u32, bits: u32| ((key >> shift) & ((1 << bits) - 1)) as u32;
        let mut counts = [0u32; MAX_PACKED_TERMS];
        for (j, c) in counts.iter_mut().enumerate() {
            *c = field(10 * j as u32, 10);
        }
        State {
            residual: field(112, 16),
            placed: field(96, 16),
            drawn: field(80, 16),
            counts,
        }
    }
}

/// Decides every still relevant term that `done(j)` says is complete, or whose count
/// reached its cap, and forgets the counts of the terms no longer relevant.
fn decide(
    residuals: &mut Residuals,
    mut state: State,
    caps: &[u32],
    holds: &dyn Fn(usize, u32) -> bool,
    done: &dyn Fn(usize) -> bool,
) -> State {
    for (j, cap) in caps.iter().enumerate() {
        let count = state.counts.get(j).copied().unwrap_or(0);
        if residuals.relevant(state.residual) >> j & 1 == 1 && (done(j) || count >= *cap) {
            state.residual = residuals.decide(state.residual, j, holds(j, count));
        }
    }
    let relevant = residuals.relevant(state.residual);
    for (j, count) in state.counts.iter_mut().enumerate() {
        if relevant >> j & 1 == 0 {
            *count = 0;
        }
    }
    state
}
