//! The fast path of [`super::QueryObserver`]: queries of at most four terms, whatever joins
//! them (`&`, `|`, `!`, parentheses, turns), each answered by a truth table.
//!
//! A query of at most four terms fits in one word of four 16-bit lanes, so its terms are
//! range-tested together (SWAR, as [`super::Test`] does) and the four flags of a window
//! gather into a 4-bit number. The query's expression, evaluated once for each of the 16
//! values that number can take, is a truth table: whether the query holds in a window is
//! one look-up, whatever the expression. Queries share a word while
//! their terms fit, so a setup's cards are walked once per four terms. A query with turns
//! reads each term's flag at its own window and looks the gathered flags up once: one
//! event.

use super::{LANE_BITS, LANES_PER_WORD, TOPS, Test, add_lane, count_windows};
use crate::engine::SetupView;
use crate::formats::{Going, Setup};
use crate::stats::query::ResolvedQuery;

/// Multiplying the lanes' flags (bits 15, 31, 47 and 63) by this moves lane i's flag to
/// bit 60 + i, and no two partial products share a bit below 64: nothing carries.
const GATHER: u64 = 1 | 1 << 15 | 1 << 30 | 1 << 45;
/// Windows of a setup, at most (as in [`super::QueryObserver`]).
const SLOTS: usize = 32;
/// The most kinds a deck may have for this path: a kind's increments are then found by
/// masking its index into a fixed table, with no bounds check per card.
pub(super) const SMALL_KINDS: usize = 64;

/// The four flags of a word's lanes (the top bits of `tops`; its other bits do not count),
/// as bits 0 to 3: an index of a truth table.
#[inline(always)]
fn gather(tops: u64) -> usize {
    ((tops & TOPS).wrapping_mul(GATHER) >> 60) as usize
}

/// What a word counts with: its lanes' increments and its test in biased form.
#[derive(Debug, Clone)]
struct Counter {
    /// The word's [`Test::biased`] form.
    bias: u64,
    ceiling: u64,
    /// Per kind of the deck: the kind's lane increments.
    increments: Box<[u64; SMALL_KINDS]>,
}

/// One word: up to four terms, of one or more queries.
#[derive(Debug, Clone)]
struct Word {
    test: Test,
    /// Lanes taken.
    lanes: usize,
    counter: Counter,
    /// The queries whose terms it holds.
    queries: Vec<Table>,
}

/// A card's lane increments: its kind masked into the table (a deck on this path has at
/// most [`SMALL_KINDS`] kinds), so no bounds check.
#[inline(always)]
fn lanes_of(increments: &[u64; SMALL_KINDS], kind: u16) -> u64 {
    increments[usize::from(kind) % SMALL_KINDS]
}

/// The lanes of `cards` added to `start`: unrolled for the rulebook's `N` cards (a hand of
/// 7, 6 prizes), out of line for any other number, so the usual case computes no trip count.
#[inline(always)]
fn sum<const N: usize>(increments: &[u64; SMALL_KINDS], cards: &[u16], start: u64) -> u64 {
    match <&[u16; N]>::try_from(cards) {
        Ok(cards) => cards
            .iter()
            .fold(start, |lanes, &kind| lanes + lanes_of(increments, kind)),
        Err(_) => sum_any(increments, cards, start),
    }
}

#[cold]
#[inline(never)]
fn sum_any(increments: &[u64; SMALL_KINDS], cards: &[u16], start: u64) -> u64 {
    cards
        .iter()
        .fold(start, |lanes, &kind| lanes + lanes_of(increments, kind))
}

impl Counter {
    /// Calls `at(window, tops)` with the word's lanes tested in each window of a setup: the
    /// hand (window 0), the hand with each of the `draws` (windows 1 up), then the prizes.
    /// A lane's top bit in `tops` is set when its count lies in its range; the other bits
    /// are not cleared ([`gather`] ignores them).
    ///
    /// The lanes count from the test's bias (see [`Test::biased`]), so a window's test costs
    /// a subtraction and an and.
    #[inline(always)]
    fn walk(&self, hand: &[u16], draws: &[u16], prizes: &[u16], mut at: impl FnMut(u32, u64)) {
        let (bias, ceiling, increments) = (self.bias, self.ceiling, &*self.increments);
        let tops = |lanes: u64| lanes & ceiling.wrapping_sub(lanes);
        let mut lanes = sum::<7>(increments, hand, bias);
        at(0, tops(lanes));
        let mut window = 0;
        for &kind in draws {
            lanes += lanes_of(increments, kind);
            window += 1;
            at(window, tops(lanes));
        }
        at(window + 1, tops(sum::<6>(increments, prizes, bias)));
    }

    /// Counts one setup for a word's `queries` when they are not one query without turns:
    /// out of line, so that case's loop stays small.
    #[inline(never)]
    fn count(&self, queries: &mut [Table], view: &SetupView, draws: &[u16], histogram: bool) {
        // One query with turns: each lane's top bit kept at the window it is read at.
        if let [
            Table {
                truth,
                reads: Some(reads),
                hits,
            },
        ] = queries
        {
            let mut set = 0;
            self.walk(view.hand, draws, view.prizes, |window, tops| {
                set |= tops & reads[window as usize % SLOTS];
            });
            if let Some(hit) = hits.first_mut() {
                *hit += u64::from(truth[gather(set)]);
            }
            return;
        }
        // Per window, the word's tested lanes.
        let mut tested = [0u64; SLOTS];
        self.walk(view.hand, draws, view.prizes, |window, tops| {
            tested[window as usize % SLOTS] = tops;
        });
        let windows = tested.get(..draws.len() + 2).unwrap_or(&[]);
        for query in queries {
            let look = |tops: u64| u64::from(query.truth[gather(tops)]);
            match &query.reads {
                Some(reads) => {
                    let set = (windows.iter().zip(&**reads)).fold(0, |set, (t, r)| set | t & r);
                    if let Some(hit) = query.hits.first_mut() {
                        *hit += look(set);
                    }
                }
                None => {
                    let all = (windows.iter()).fold(0, |all, &tops| 2 * all + look(tops));
                    count_windows(&mut query.hits, all, histogram);
                }
            }
        }
    }
}

/// A query of at most four terms.
#[derive(Debug, Clone)]
struct Table {
    /// Entry v: 1 when the query holds where its word's flags are v, else 0.
    truth: [u8; 16],
    /// A query with turns: per window, the top bits of the lanes read there (a term read
    /// at a window the setups do not deal never holds). `None` without turns.
    reads: Option<Box<[u64; SLOTS]>>,
    /// One counter for an event, else one per window set or per window, windows in
    /// reverse order (see [`Small::hits`]).
    hits: Vec<u64>,
}

/// The queries of at most four terms of an observer.
#[derive(Debug, Clone, Default)]
pub(super) struct Small {
    words: Vec<Word>,
    /// Per query given to [`Small::new`]: its word and its place among the word's queries.
    places: Vec<(usize, usize)>,
    /// Windows of a setup.
    windows: usize,
}

impl Small {
    /// Whether `query` takes this path in a deck of `kinds` kinds.
    pub(super) fn fits(query: &ResolvedQuery, kinds: usize) -> bool {
        query.terms.len() <= LANES_PER_WORD && kinds <= SMALL_KINDS
    }

    /// Compiles `queries` (each of which [`Small::fits`]) for setups of `windows` windows.
    pub(super) fn new(
        queries: &[&ResolvedQuery],
        rules: &Setup,
        going: Going,
        windows: usize,
    ) -> Small {
        let mut small = Small {
            windows,
            ..Small::default()
        };
        let seen = windows.saturating_sub(2);
        for query in queries {
            let terms = query.terms.len().min(LANES_PER_WORD);
            let full = (small.words.last()).is_none_or(|w| w.lanes + terms > LANES_PER_WORD);
            if full {
                small.words.push(Word {
                    test: Test::default(),
                    lanes: 0,
                    counter: Counter {
                        bias: 0,
                        ceiling: 0,
                        increments: Box::new([0; SMALL_KINDS]),
                    },
                    queries: Vec::new(),
                });
            }
            let at = small.words.len().saturating_sub(1);
            let Some(word) = small.words.last_mut() else {
                continue;
            };
            let first = word.lanes;
            let mut reads = Box::new([0u64; SLOTS]);
            for (term, lane) in query.terms.iter().zip(first..LANES_PER_WORD) {
                word.test.set(lane, term.cmp, term.count);
                add_lane(&mut *word.counter.increments, &term.kinds, lane);
                let window = term.turn.map_or(0, |turn| rules.draws_by_turn(turn, going));
                if let Some(read) = reads
                    .get_mut(window as usize)
                    .filter(|_| window as usize <= seen)
                {
                    *read |= 1 << (lane * LANE_BITS + LANE_BITS - 1);
                }
            }
            word.lanes += terms;
            let mut truth = [0; 16];
            for (flags, entry) in (0u32..).zip(&mut truth) {
                *entry = u8::from(query.truth(flags >> first));
            }
            small.places.push((at, word.queries.len()));
            word.queries.push(Table {
                truth,
                reads: query.has_turns().then_some(reads),
                hits: Vec::new(),
            });
        }
        for word in &mut small.words {
            (word.counter.bias, word.counter.ceiling) = word.test.biased();
        }
        small
    }

    fn tables(&mut self) -> impl Iterator<Item = &mut Table> {
        self.words.iter_mut().flat_map(|word| &mut word.queries)
    }

    /// Gives each query its counters: one for an event, else `stride`.
    pub(super) fn make_counters(&mut self, stride: usize) {
        for query in self.tables() {
            query.hits = vec![0; if query.reads.is_some() { 1 } else { stride }];
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The counters of query `index`, windows in their order (as the general path keeps
    /// them), and whether it counts an event.
    ///
    /// A setup's windows are counted in reverse: the set of windows where a query held is
    /// built hand first by doubling and adding, so window w is bit `windows - 1 - w`.
    /// Turned back here, once.
    pub(super) fn hits(&self, index: usize, histogram: bool) -> Option<(Vec<u64>, bool)> {
        let &(word, at) = self.places.get(index)?;
        let query = self.words.get(word)?.queries.get(at)?;
        let event = query.reads.is_some();
        let mut hits = query.hits.clone();
        if event {
            return Some((hits, true));
        }
        if histogram {
            // Window sets have `windows` bits (at least 2): reversing a set's bits turns it
            // back.
            let unused = 64 - self.windows.clamp(1, 64) as u32;
            for (set, &count) in (0u64..).zip(&query.hits) {
                let turned = (set.reverse_bits() >> unused) as usize;
                if let Some(hit) = hits.get_mut(turned) {
                    *hit = count;
                }
            }
        } else {
            hits.reverse();
        }
        Some((hits, false))
    }

    /// Counts one setup: `seen` turn draws looked at, windows counted as
    /// [`super::QueryObserver`] counts them.
    #[inline(always)]
    pub(super) fn observe(&mut self, view: &SetupView, seen: usize, histogram: bool) {
        let draws = view.draws.get(..seen).unwrap_or(view.draws);
        for Word {
            counter, queries, ..
        } in &mut self.words
        {
            // One query without turns (the usual case): its windows are gathered as the word
            // is counted.
            if let [query @ Table { reads: None, .. }] = queries.as_mut_slice() {
                let (truth, mut all) = (&query.truth, 0);
                counter.walk(view.hand, draws, view.prizes, |_, tops| {
                    all = 2 * all + u64::from(truth[gather(tops)]);
                });
                count_windows(&mut query.hits, all, histogram);
                continue;
            }
            counter.count(queries, view, draws, histogram);
        }
    }

    /// Adds the setups another path (of the same queries) counted.
    pub(super) fn merge(&mut self, mut other: Small) {
        for (mine, theirs) in self.tables().zip(other.tables()) {
            for (mine, theirs) in mine.hits.iter_mut().zip(&theirs.hits) {
                *mine += theirs;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of lane flags gathers to the number whose bit i is lane i's flag,
    /// whatever the bits below the flags hold.
    #[test]
    fn gather_reads_the_four_flags_as_bits() {
        for flags in 0..16u64 {
            let tops = (0..4)
                .filter(|lane| flags >> lane & 1 == 1)
                .fold(0, |tops, lane| tops | 1 << (16 * lane + 15));
            assert_eq!(gather(tops) as u64, flags);
            assert_eq!(gather(tops | 0x7FFF_7FFF_7FFF_7FFF) as u64, flags);
        }
    }
}
