//! Joint questions (`A>=1 & (B|C<=2 | !D>=1)`, `Rare Candy>=1 by T2`) by dynamic programming
//! over atoms instead of listing every composition.
//!
//! A question is a boolean function of *terms*; term j counts the cards of some atoms in
//! its own window (the hand, the prizes, or the cards seen by a turn). The windows are
//! unions of *segments* of one shuffled deck: the hand, the prizes, and the draws between
//! one turn and the next asked about. The answer only depends, per partial deal, on how many
//! cards each segment holds so far, how many of the hand's are not Basic (the kept hand
//! holds a Basic), and the running count of each open term, capped where its comparison
//! stops caring. After its last atom a term is settled to one bit and its count forgotten,
//! so states merge. A question whose terms all look at one window is one segment, weighed
//! as [`Space::weight`] weighs a window. Two bounds hold whatever the question: at most
//! [`MAX_STEPS`] transitions (time) and [`MAX_STATES`] states at once (memory); past either,
//! the value is refused, never computed slowly.

use std::collections::HashMap;

use super::{
    Family, MAX_STATES, MAX_STEPS, Ratio, Space, StatsError, Visit, Window, add, binomial, mul,
};

/// Most terms one event may have (a bit each in a state).
pub const MAX_TERMS: usize = 16;

/// A boolean question over terms, each counting atoms in its window.
pub struct Event<'a> {
    /// Per atom: bit j set when the atom counts towards term j.
    pub masks: &'a [u32],
    /// Per term: counts at or above this compare like this value.
    pub caps: &'a [u32],
    /// Per term: the cards it counts.
    pub windows: &'a [Window],
    /// Whether term j holds for a (capped) count.
    pub holds: &'a dyn Fn(usize, u32) -> bool,
    /// Whether the event holds, given bit j set exactly when term j holds.
    pub truth: &'a dyn Fn(u32) -> bool,
}

/// How the deck is cut for one event.
struct Cut {
    /// Cards in each segment; segment 0 is the hand, or the one window every term looks at.
    sizes: Vec<u32>,
    /// Per term: bit s set when the term counts segment s.
    segments: Vec<u32>,
    /// The one window every term looks at, weighed as [`Space::weight`] does.
    single: Option<Window>,
}

/// `[placed per segment.., non-Basic cards in segment 0, bits of settled terms, count of
/// each open term..]` → ways to pick those cards.
type States = HashMap<Vec<u32>, u128>;

impl Space {
    /// P(the event holds), exactly.
    pub fn probability_of(&self, family: Family, event: &Event<'_>) -> Result<Ratio, StatsError> {
        let terms = event.caps.len();
        if terms > MAX_TERMS || event.windows.len() != terms {
            return Err(StatsError::TooManyTerms { max: MAX_TERMS });
        }
        let cut = self.cut(event.windows)?;
        let segments = cut.sizes.len();
        let last = last_atoms(event.masks, terms);
        let mut budget = MAX_STEPS;
        let start = vec![0; segments + 2 + terms];
        let mut states = States::from([(start, 1)]);
        states = settle(states, event, &last, None, segments)?;
        for (i, atom) in self.atoms.iter().enumerate() {
            let mask = event.masks.get(i).copied().unwrap_or(0);
            let mut next = States::new();
            for (state, ways) in &states {
                let mut split = vec![0u32; segments];
                let mut visit = |split: &[u32], mult: u128| -> Result<(), StatsError> {
                    budget = budget
                        .checked_sub(1)
                        .ok_or(StatsError::TooComplex { steps: MAX_STEPS })?;
                    let mut key = state.clone();
                    place(&mut key, split, !atom.basic, mask, event.caps, &cut);
                    let slot = next.entry(key).or_insert(0);
                    *slot = add(*slot, mul(*ways, mult)?)?;
                    if next.len() > MAX_STATES {
                        return Err(StatsError::TooManyStates { max: MAX_STATES });
                    }
                    Ok(())
                };
                splits(&cut.sizes, state, atom.copies, 0, 1, &mut split, &mut visit)?;
            }
            states = settle(next, event, &last, Some(i), segments)?;
        }
        let mut sum: u128 = 0;
        for (state, ways) in states {
            let full = state
                .iter()
                .zip(&cut.sizes)
                .all(|(placed, size)| placed == size);
            let (Some(&non_basic), Some(&bits)) = (state.get(segments), state.get(segments + 1))
            else {
                continue;
            };
            if !full || !(event.truth)(bits) {
                continue;
            }
            let weight = match cut.single {
                Some(window) => self.weight(window, family, non_basic, ways)?,
                None => match family {
                    Family::SingleShuffle => ways,
                    Family::Kept if non_basic < self.hand_size => ways,
                    Family::Kept => 0,
                },
            };
            sum = add(sum, weight)?;
        }
        let total = match cut.single {
            Some(window) => self.total(window, family)?,
            None => self.cut_total(&cut.sizes, family)?,
        };
        Ratio::new(sum, total).ok_or(StatsError::TooLarge)
    }

    /// The segments of the windows: one when every term looks at the same window; else the
    /// hand, the prizes if asked about, and the draws between the turns asked about.
    fn cut(&self, windows: &[Window]) -> Result<Cut, StatsError> {
        for window in windows {
            self.window_size(*window)?;
        }
        let first = windows.first().copied().unwrap_or(Window::Hand);
        if windows.iter().all(|window| *window == first) {
            return Ok(Cut {
                sizes: vec![self.window_size(first)?],
                segments: vec![1; windows.len()],
                single: Some(first),
            });
        }
        let mut sizes = vec![self.hand_size];
        let prizes = windows.contains(&Window::Prizes).then(|| {
            sizes.push(self.prizes);
            sizes.len() - 1
        });
        let mut cuts: Vec<u32> = windows
            .iter()
            .filter_map(|window| match window {
                Window::Seen { draws } if *draws > 0 => Some(*draws),
                _ => None,
            })
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let first_draw = sizes.len();
        let mut previous = 0;
        for cut in &cuts {
            sizes.push(cut - previous);
            previous = *cut;
        }
        let segments = windows
            .iter()
            .map(|window| match window {
                Window::Hand => 1,
                Window::Prizes => prizes.map_or(0, |s| 1 << s),
                Window::Seen { draws } => {
                    let through = cuts.iter().filter(|cut| *cut <= draws).count();
                    (0..through).fold(1, |bits, k| bits | 1 << (first_draw + k))
                }
            })
            .collect();
        Ok(Cut {
            sizes,
            segments,
            single: None,
        })
    }

    /// Equally likely deals of a cut deck: every way to fill the segments in order (the
    /// hand one with a Basic, for kept hands).
    fn cut_total(&self, sizes: &[u32], family: Family) -> Result<u128, StatsError> {
        let (first, mut left) = match family {
            Family::Kept => (self.kept_hands()?, self.cards - self.hand_size),
            Family::SingleShuffle => (1, self.cards),
        };
        let rest = match family {
            Family::Kept => sizes.get(1..).unwrap_or(&[]),
            Family::SingleShuffle => sizes,
        };
        let mut total = first;
        for size in rest {
            total = mul(total, binomial(left, *size)?)?;
            left = left.saturating_sub(*size);
        }
        Ok(total)
    }
}

/// Calls `visit` with every way to put some of an atom's `copies` into the segments (none
/// past a segment's room), with the ways to pick them: Π C(copies left, cₛ).
fn splits(
    sizes: &[u32],
    state: &[u32],
    copies: u32,
    segment: usize,
    mult: u128,
    split: &mut [u32],
    visit: &mut Visit<'_>,
) -> Result<(), StatsError> {
    let Some(size) = sizes.get(segment).copied() else {
        return visit(split, mult);
    };
    let room = size.saturating_sub(state.get(segment).copied().unwrap_or(0));
    for c in 0..=copies.min(room) {
        if let Some(slot) = split.get_mut(segment) {
            *slot = c;
        }
        let mult = mul(mult, binomial(copies, c)?)?;
        splits(sizes, state, copies - c, segment + 1, mult, split, visit)?;
    }
    if let Some(slot) = split.get_mut(segment) {
        *slot = 0;
    }
    Ok(())
}

/// Adds one atom's split to a state.
fn place(key: &mut [u32], split: &[u32], non_basic: bool, mask: u32, caps: &[u32], cut: &Cut) {
    let segments = split.len();
    for (placed, c) in key.iter_mut().zip(split) {
        *placed += c;
    }
    if non_basic && let (Some(nb), Some(c)) = (key.get_mut(segments), split.first()) {
        *nb += c;
    }
    let counts = key.get_mut(segments + 2..).unwrap_or(&mut []);
    for (j, (count, cap)) in counts.iter_mut().zip(caps).enumerate() {
        if mask >> j & 1 == 0 {
            continue;
        }
        let seen_segments = cut.segments.get(j).copied().unwrap_or(0);
        let added: u32 = split
            .iter()
            .enumerate()
            .filter(|(s, _)| seen_segments >> s & 1 == 1)
            .map(|(_, c)| *c)
            .sum();
        *count = count.saturating_add(added).min(*cap);
    }
}

/// Per term, the last atom that counts towards it (`None`: no atom does).
fn last_atoms(masks: &[u32], terms: usize) -> Vec<Option<usize>> {
    (0..terms)
        .map(|j| masks.iter().rposition(|m| m >> j & 1 == 1))
        .collect()
}

/// Settles the terms whose last atom was `done` (before any atom: those with none) into
/// their bits and forgets their counts, merging states that now agree.
fn settle(
    states: States,
    event: &Event<'_>,
    last: &[Option<usize>],
    done: Option<usize>,
    segments: usize,
) -> Result<States, StatsError> {
    let settling: Vec<usize> = (0..last.len())
        .filter(|&j| last.get(j) == Some(&done))
        .collect();
    if settling.is_empty() {
        return Ok(states);
    }
    let mut out = States::new();
    for (mut state, ways) in states {
        let mut bits = state.get(segments + 1).copied().unwrap_or(0);
        for &j in &settling {
            let Some(count) = state.get_mut(segments + 2 + j) else {
                continue;
            };
            if (event.holds)(j, *count) {
                bits |= 1 << j;
            }
            *count = 0;
        }
        if let Some(slot) = state.get_mut(segments + 1) {
            *slot = bits;
        }
        let slot = out.entry(state).or_insert(0);
        *slot = add(*slot, ways)?;
    }
    Ok(out)
}
