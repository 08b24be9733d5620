//! Joint questions (`A>=1 & B|C<=2`) by dynamic programming over atoms instead of listing
//! every composition: the answer only depends, per partial deal, on how many cards were
//! placed, how many of them are not Basic, and the running count of each open clause
//! (capped where the comparison stops caring). A clause is checked and forgotten after its
//! last atom, so disjoint clauses keep the state small. A budget bounds hostile input.

use std::collections::HashMap;

use super::{Family, Ratio, Space, StatsError, Window, add, binomial, mul};

/// State transitions one evaluation may make.
const DP_BUDGET: u64 = 50_000_000;

/// A conjunction of clauses over a [`Space`]'s atoms.
pub struct Clauses<'a> {
    /// Per atom: bit j set when the atom counts towards clause j.
    pub masks: &'a [u32],
    /// Per clause: counts at or above this compare like this value.
    pub caps: &'a [u32],
    /// Whether clause j holds for a (capped) count.
    pub holds: &'a dyn Fn(usize, u32) -> bool,
}

/// `[placed, non_basic, count of clause 0, ..]` → ways to pick those cards.
type States = HashMap<Vec<u32>, u128>;

impl Space {
    /// P(every clause holds for the cards in the window), exactly.
    pub fn probability_of(
        &self,
        window: Window,
        family: Family,
        clauses: &Clauses<'_>,
    ) -> Result<Ratio, StatsError> {
        let m = self.window_size(window)?;
        let total = self.total(window, family)?;
        let last = last_atoms(clauses);
        let mut budget = DP_BUDGET;
        let mut states = States::from([(vec![0; 2 + clauses.caps.len()], 1)]);
        states = close(states, clauses, &last, None)?;
        for (i, atom) in self.atoms.iter().enumerate() {
            let mask = clauses.masks.get(i).copied().unwrap_or(0);
            let mut next = States::new();
            for (state, ways) in &states {
                let placed = state.first().copied().unwrap_or(0);
                for c in 0..=atom.copies.min(m - placed) {
                    budget = budget.checked_sub(1).ok_or(StatsError::TooComplex)?;
                    let mut key = state.clone();
                    place(&mut key, c, !atom.basic, mask, clauses.caps);
                    let w = mul(*ways, binomial(atom.copies, c)?)?;
                    let slot = next.entry(key).or_insert(0);
                    *slot = add(*slot, w)?;
                }
            }
            states = close(next, clauses, &last, Some(i))?;
        }
        let mut sum: u128 = 0;
        for (state, ways) in states {
            if let [placed, non_basic, ..] = state[..]
                && placed == m
            {
                sum = add(sum, self.weight(window, family, non_basic, ways)?)?;
            }
        }
        Ratio::new(sum, total).ok_or(StatsError::TooLarge)
    }
}

/// Adds `c` cards of one atom to a state.
fn place(key: &mut [u32], c: u32, non_basic: bool, mask: u32, caps: &[u32]) {
    if let [placed, nb, counts @ ..] = key {
        *placed += c;
        if non_basic {
            *nb += c;
        }
        for (j, (count, cap)) in counts.iter_mut().zip(caps).enumerate() {
            if mask >> j & 1 == 1 {
                *count = count.saturating_add(c).min(*cap);
            }
        }
    }
}

/// Per clause, the last atom that counts towards it (`None`: no atom does).
fn last_atoms(clauses: &Clauses<'_>) -> Vec<Option<usize>> {
    (0..clauses.caps.len())
        .map(|j| clauses.masks.iter().rposition(|m| m >> j & 1 == 1))
        .collect()
}

/// Checks the clauses whose last atom was `done` (before any atom: those with none), drops
/// the states that fail and forgets their counts, merging states that now agree.
fn close(
    states: States,
    clauses: &Clauses<'_>,
    last: &[Option<usize>],
    done: Option<usize>,
) -> Result<States, StatsError> {
    let closing: Vec<usize> = (0..last.len())
        .filter(|&j| last.get(j) == Some(&done))
        .collect();
    if closing.is_empty() {
        return Ok(states);
    }
    let mut out = States::new();
    'states: for (mut state, ways) in states {
        for &j in &closing {
            let Some(count) = state.get_mut(2 + j) else {
                continue;
            };
            if !(clauses.holds)(j, *count) {
                continue 'states;
            }
            *count = 0;
        }
        let slot = out.entry(state).or_insert(0);
        *slot = add(*slot, ways)?;
    }
    Ok(out)
}
