//! The general path of [`super::QueryObserver`]: queries in a deck of more kinds than the
//! truth tables take, compiled once into a flat program over bit sets, so that a setup costs
//! no allocation and no walk of the expression tree.
//!
//! Every term of every general query owns a 16-bit lane, four to a 64-bit word, as the
//! conjunctive path's clauses do: a card adds its kind's word of lane increments, and each
//! window range-tests the four lanes of a word at once. The lanes' flags for window w are
//! moved to bits w, 16 + w, 32 + w and 48 + w of an accumulator (a second one takes windows
//! 16 to 31), so after the setup each lane of the accumulators is the set of windows where
//! its term held. The program then combines those sets with and, or and complement, one
//! instruction per node of the expression, into one register per query: the set of windows
//! where the query held, or, for a query with turns (each term read at its own window),
//! bit 0 for the event.

use super::{LANE_BITS, LANES_PER_WORD, Test, add_lane, count_windows, each_window};
use crate::engine::SetupView;
use crate::formats::{Going, Setup};
use crate::stats::query::{Expr, ResolvedQuery};

/// Bit 0 of every lane.
const LOWS: u64 = 0x0001_0001_0001_0001;
/// Windows per accumulator: a lane's 16 bits.
const HALF: usize = LANE_BITS;

/// One instruction: registers are numbered in the order the expression's nodes are met.
#[derive(Debug, Clone, Copy)]
enum Op {
    /// `r[dst] = (the set of term) >> shift & every`.
    Load {
        dst: usize,
        term: usize,
        shift: u32,
        every: u64,
    },
    /// `r[dst] = value`.
    Set { dst: usize, value: u64 },
    /// `r[dst] &= r[src]`.
    And { dst: usize, src: usize },
    /// `r[dst] |= r[src]`.
    Or { dst: usize, src: usize },
    /// `r[dst] = !r[src] & every`.
    Not { dst: usize, src: usize, every: u64 },
}

/// A compiled query: where its answer lands and what it counts.
#[derive(Debug, Clone)]
struct Compiled {
    register: usize,
    /// A query with turns: one counter, the setups where the event held.
    event: bool,
    /// Without turns: one counter per window set or per window (as the conjunctive path).
    hits: Vec<u64>,
}

/// The general queries of an observer, compiled.
#[derive(Debug, Clone, Default)]
pub(super) struct Program {
    /// One word of four lanes per four terms, all queries' terms in order.
    tests: Vec<Test>,
    /// Per word, per kind of the deck: the kind's lane increments.
    increments: Vec<u64>,
    kinds: usize,
    /// Per term: the windows where it held in the setup being observed.
    sets: Vec<u64>,
    code: Vec<Op>,
    registers: Vec<u64>,
    queries: Vec<Compiled>,
}

impl Program {
    /// Compiles `queries` for a deck of `kinds` kinds and setups of `windows` windows.
    pub(super) fn new(
        queries: &[&ResolvedQuery],
        kinds: usize,
        rules: &Setup,
        going: Going,
        windows: usize,
    ) -> Program {
        let mut program = Program {
            kinds,
            ..Program::default()
        };
        let all_windows = if windows >= 64 {
            u64::MAX
        } else {
            (1 << windows) - 1
        };
        for query in queries {
            let first = program.sets.len();
            for term in &query.terms {
                program.add_term(term.cmp, term.count, &term.kinds);
            }
            // With turns, term j is read at the bit of its own window.
            let event = query.has_turns();
            // A window the setups do not deal (a turn past the last) never holds.
            let seen = windows.saturating_sub(2);
            let shifts: Vec<Option<u32>> = query
                .terms
                .iter()
                .map(|term| match (event, term.turn) {
                    (true, Some(turn)) => Some(rules.draws_by_turn(turn, going))
                        .filter(|&window| window as usize <= seen),
                    _ => Some(0),
                })
                .collect();
            let every = if event { 1 } else { all_windows };
            let span = Span {
                first,
                shifts: &shifts,
                every,
            };
            let register = program.compile(&query.expr, &span);
            program.queries.push(Compiled {
                register,
                event,
                hits: Vec::new(),
            });
        }
        program
    }

    /// Gives each query its counters: one for an event, else `stride`.
    pub(super) fn make_counters(&mut self, stride: usize) {
        for query in &mut self.queries {
            query.hits = vec![0; if query.event { 1 } else { stride }];
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    /// The counters of query `index` and whether it counts an event.
    pub(super) fn hits(&self, index: usize) -> Option<(Vec<u64>, bool)> {
        let query = self.queries.get(index)?;
        Some((query.hits.clone(), query.event))
    }

    /// Gives the next term a lane (a new word every four terms).
    fn add_term(&mut self, cmp: crate::stats::query::Cmp, count: u32, kinds: &[usize]) {
        let term = self.sets.len();
        self.sets.push(0);
        let lane = term % LANES_PER_WORD;
        if lane == 0 {
            self.tests.push(Test::default());
            self.increments
                .resize(self.increments.len() + self.kinds, 0);
        }
        if let Some(test) = self.tests.last_mut() {
            test.set(lane, cmp, count);
        }
        let word = self.increments.len().saturating_sub(self.kinds);
        add_lane(
            self.increments.get_mut(word..).unwrap_or(&mut []),
            kinds,
            lane,
        );
    }

    /// Appends the code of `expr` and returns the register that holds its value.
    fn compile(&mut self, expr: &Expr, span: &Span) -> usize {
        let dst = self.registers.len();
        self.registers.push(0);
        let every = span.every;
        match expr {
            Expr::Term(j) => self.code.push(match span.shifts.get(*j) {
                Some(&Some(shift)) => Op::Load {
                    dst,
                    term: span.first + j,
                    shift,
                    every,
                },
                // A term the query does not have, or read at a window not dealt, never
                // holds.
                _ => Op::Set { dst, value: 0 },
            }),
            Expr::Not(inner) => {
                let src = self.compile(inner, span);
                self.code.push(Op::Not { dst, src, every });
            }
            Expr::All(all) => {
                self.code.push(Op::Set { dst, value: every });
                for inner in all {
                    let src = self.compile(inner, span);
                    self.code.push(Op::And { dst, src });
                }
            }
            Expr::Any(any) => {
                self.code.push(Op::Set { dst, value: 0 });
                for inner in any {
                    let src = self.compile(inner, span);
                    self.code.push(Op::Or { dst, src });
                }
            }
        }
        dst
    }

    /// Counts one setup: `seen` turn draws looked at, windows counted as
    /// [`super::QueryObserver`] counts them.
    #[inline]
    pub(super) fn observe(&mut self, view: &SetupView, seen: usize, histogram: bool) {
        let kinds = self.kinds;
        for (word, test) in self.tests.iter().enumerate() {
            let increments = self.increments.get(word * kinds..).unwrap_or(&[]);
            let [low, high] = lane_windows(test, increments, seen, view);
            let sets = self
                .sets
                .get_mut(word * LANES_PER_WORD..)
                .unwrap_or(&mut []);
            for (lane, set) in sets.iter_mut().take(LANES_PER_WORD).enumerate() {
                let shift = lane * LANE_BITS;
                *set = (low >> shift & 0xFFFF) | (high >> shift & 0xFFFF) << HALF;
            }
        }
        let registers = &mut self.registers;
        let read = |registers: &[u64], index: usize| registers.get(index).copied().unwrap_or(0);
        for op in &self.code {
            let (dst, value) = match *op {
                Op::Load {
                    dst,
                    term,
                    shift,
                    every,
                } => (dst, read(&self.sets, term) >> shift & every),
                Op::Set { dst, value } => (dst, value),
                Op::And { dst, src } => (dst, read(registers, dst) & read(registers, src)),
                Op::Or { dst, src } => (dst, read(registers, dst) | read(registers, src)),
                Op::Not { dst, src, every } => (dst, !read(registers, src) & every),
            };
            if let Some(register) = registers.get_mut(dst) {
                *register = value;
            }
        }
        for query in &mut self.queries {
            let all = read(registers, query.register);
            if query.event {
                if let Some(hit) = query.hits.first_mut() {
                    *hit += all & 1;
                }
            } else {
                count_windows(&mut query.hits, all, histogram);
            }
        }
    }

    /// Adds the setups another program (of the same queries) counted.
    pub(super) fn merge(&mut self, other: Program) {
        for (mine, theirs) in self.queries.iter_mut().zip(other.queries) {
            for (mine, theirs) in mine.hits.iter_mut().zip(theirs.hits) {
                *mine += theirs;
            }
        }
    }
}

/// What compiling one query's expression needs to know.
struct Span<'a> {
    /// The program's index of the query's first term.
    first: usize,
    /// Per term of the query: the window bit it is read at (0 without turns), `None` for a
    /// window the setups do not deal.
    shifts: &'a [Option<u32>],
    /// The set of all windows (1 for an event).
    every: u64,
}

/// Per lane of `test`, the windows of a setup where the lane's range holds: lane i's set
/// of windows 0..16 is bits 16i..16i + 16 of the first word, of windows 16..32 those of
/// the second.
#[inline(always)]
fn lane_windows(test: &Test, increments: &[u64], seen: usize, view: &SetupView) -> [u64; 2] {
    let mut found = [0u64; 2];
    each_window(increments, seen, view, |bit, lanes| {
        let flags = test.tops(lanes) >> (LANE_BITS - 1) & LOWS;
        if let Some(half) = found.get_mut(bit / HALF) {
            *half |= flags << (bit % HALF);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::super::small::{SMALL_KINDS, Small};
    use super::super::tests::{lettered, lettered_deck};
    use super::super::{QueryCounts, QueryObserver};
    use super::*;
    use crate::engine::{Dealer, Observer, chunk_rng};

    /// The windows of a setup where every lane of `test` holds (bit k: the hand with the
    /// first k turn draws, k up to `seen`; bit `seen + 1`: the prizes).
    fn windows(test: &Test, increments: &[u64], seen: usize, view: &SetupView) -> u64 {
        let mut held = 0;
        each_window(increments, seen, view, |bit, lanes| {
            held |= u64::from(test.tops(lanes) == test.used) << bit;
        });
        held
    }

    /// The general path before it was compiled, kept as the oracle of [`Program`]: one
    /// single-lane word per term, the expression walked on each setup.
    struct Oracle {
        tests: Vec<Test>,
        increments: Vec<u64>,
        expr: Expr,
        event: Option<Vec<u32>>,
        hits: Vec<u64>,
    }

    impl Oracle {
        fn new(query: &ResolvedQuery, kinds: usize, rules: &Setup, going: Going) -> Oracle {
            let mut tests = Vec::new();
            let mut increments = vec![0u64; query.terms.len() * kinds];
            for (index, term) in query.terms.iter().enumerate() {
                let mut test = Test::default();
                test.set(0, term.cmp, term.count);
                tests.push(test);
                for &kind in &term.kinds {
                    if let Some(add) = increments.get_mut(index * kinds + kind) {
                        *add += 1;
                    }
                }
            }
            let event = query.has_turns().then(|| {
                let turn = |t: Option<u32>| t.map_or(0, |turn| rules.draws_by_turn(turn, going));
                query.terms.iter().map(|term| turn(term.turn)).collect()
            });
            Oracle {
                tests,
                increments,
                expr: query.expr.clone(),
                event,
                hits: Vec::new(),
            }
        }

        fn observe(&mut self, view: &SetupView, kinds: usize, seen: usize, every: u64) {
            let sets: Vec<u64> = (self.tests.iter().enumerate())
                .map(|(index, test)| {
                    let increments = self.increments.get(index * kinds..).unwrap_or(&[]);
                    windows(test, increments, seen, view)
                })
                .collect();
            let term = |j: usize| sets.get(j).copied().unwrap_or(0);
            if let Some(bits) = &self.event {
                let held = self.expr.eval(&|j| {
                    let bit = bits.get(j).copied().unwrap_or(0) & 63;
                    term(j) >> bit & 1 == 1
                });
                self.hits[0] += u64::from(held);
                return;
            }
            let all = self.expr.eval_bits(&term, every);
            for (window, hit) in self.hits.iter_mut().enumerate() {
                *hit += (all >> window) & 1;
            }
        }
    }

    /// Many queries of the language, built from a handful of terms and every way of joining
    /// them (`|`, `&`, `!`, parentheses, turns), as a user would type them.
    fn queries() -> Vec<String> {
        let terms = [
            "A>=1", "B>=2", "C=1", "D<1", "E>0", "F<=40", "A|C>=2", "B<3", "F>=44", "E=0",
        ];
        let turns = ["", " by T1", " by T2", " by T4", " by T3"];
        let mut out = Vec::new();
        for i in 0..terms.len() {
            let (a, b, c) = (terms[i], terms[(i + 3) % 10], terms[(i + 7) % 10]);
            let (t, u) = (turns[i % 5], turns[(i + 2) % 5]);
            out.extend([
                format!("{a} | {b}"),
                format!("!{a}"),
                format!("!({a} & {b}) | {c}"),
                format!("({a} | {b}) & !{c}"),
                format!("{a} | {b} & {c} | !{a}"),
                format!("{a}{t} & {b}{u}"),
                format!("{a}{t} | !{c}{u} & {b}"),
                format!("!({a}{u} | {b}{t}) | {c} by T2"),
                format!("{a} | {b} | {c} | {a} | {b} | {c} | {a} | {b}"),
                format!("!!{a} & ({b} | ({c} & !{a}))"),
                format!("{a} & {b} & {c} & {a} & {b}"),
                format!("!({a} & {b} & {c} & {a}) | {b} & !{c}"),
                format!("{a}{t} & ({b} | !{c}{u}) & {a} by T3 | !({b}{t} & {c})"),
            ]);
        }
        out
    }

    /// The truth tables (16 entries for at most four terms, 256 for five to eight) and the
    /// compiled program (every query, in an observer told of more kinds than the tables
    /// take) count exactly what the old general path counted, setup by setup of one seeded
    /// deal, for 130 queries run together (words shared between queries), for few and many
    /// windows, going first and second: the fast paths change no fixed-seed estimate.
    #[test]
    fn both_paths_count_what_the_old_general_path_counted() {
        let (kinds, _) = lettered_deck();
        let resolved = lettered(&queries());
        let long = (resolved.iter())
            .filter(|q| q.terms.len() > super::LANES_PER_WORD)
            .count();
        assert!(resolved.len() >= 130 && long >= 30, "{long}");
        assert!(resolved.iter().all(|q| Small::fits(q, kinds.len())));
        assert!(!resolved.iter().any(|q| Small::fits(q, SMALL_KINDS + 1)));
        let (varied, batches) = count_as_the_oracle(&queries());
        // Most queries held in some setups and not in others: the test compares counts
        // that could differ.
        assert!(varied.iter().all(|&varied| varied > 60), "{varied:?}");
        // Going first, 4 turns (5 windows), words of queries without turns are batched.
        assert!(batches[0] > 0 && batches[2] == 0, "{batches:?}");
    }

    /// Sixteen one-term queries (as `--want` given once per card): eight without turns
    /// (two words, one batch), four with turns (a word of its own), four without (a word
    /// left alone), counted as the old general path counted them.
    #[test]
    fn one_term_queries_batched_count_what_the_old_general_path_counted() {
        let texts = [
            "A>=1",
            "B>=2",
            "C=1",
            "D<1",
            "E>0",
            "F<=40",
            "A|C>=2",
            "B<3",
            "A>=1 by T2",
            "F>=44",
            "C=1 by T3",
            "E=0 by T1",
            "A>=2",
            "C>=1",
            "B=1",
            "D>=1",
        ]
        .map(String::from);
        let (varied, batches) = count_as_the_oracle(&texts);
        assert!(varied.iter().all(|&varied| varied >= 12), "{varied:?}");
        assert_eq!(batches, [1, 1, 0]);
    }

    /// Runs the queries `texts` of the lettered deck through the fast paths and through the
    /// compiled program, setup by setup of one seeded deal, for few and many windows, going
    /// first and second, and compares both with the old evaluation ([`Oracle`]). Returns,
    /// per setting, how many queries held in some setups and not in others, and how many
    /// batches the fast path made.
    fn count_as_the_oracle(texts: &[String]) -> ([usize; 3], [usize; 3]) {
        let (kinds, deck) = lettered_deck();
        let resolved = lettered(texts);
        let (mut all_varied, mut batches) = ([0; 3], [0; 3]);
        for (setting, (turns, going, first_player_draws)) in [
            (4, Going::First, false),
            (4, Going::Second, true),
            (20, Going::Second, false),
        ]
        .into_iter()
        .enumerate()
        {
            let rules = Setup {
                first_player_draws,
                ..Setup::default()
            };
            let mut observers = [kinds.len(), SMALL_KINDS + 1]
                .map(|kinds| QueryObserver::new(&resolved, kinds, &rules, turns, going));
            batches[setting] = observers[0].small.batches();
            let windows = observers[0].windows;
            let every = (1u64 << windows) - 1;
            let mut oracles: Vec<Oracle> = resolved
                .iter()
                .map(|query| Oracle::new(query, kinds.len(), &rules, going))
                .collect();
            for oracle in &mut oracles {
                oracle.hits = vec![0; if oracle.event.is_some() { 1 } else { windows }];
            }
            let mut dealer = Dealer::new(&deck, &rules, turns).unwrap();
            let mut rng = chunk_rng(33, u64::from(turns));
            for _ in 0..5_000 {
                let view = dealer.deal(&mut rng);
                for observer in &mut observers {
                    observer.observe(&view);
                }
                for oracle in &mut oracles {
                    oracle.observe(&view, kinds.len(), windows - 2, every);
                }
            }
            let draws = &observers[0].draws;
            let [fast, compiled] = [&observers[0], &observers[1]].map(QueryObserver::counts);
            assert_eq!(fast.len(), compiled.len());
            let mut varied = 0;
            let pairs = fast.iter().zip(&compiled);
            for ((text, (found, other)), oracle) in texts.iter().zip(pairs).zip(&oracles) {
                let expected = match found.event {
                    Some(_) => QueryCounts {
                        event: Some(oracle.hits[0]),
                        ..QueryCounts::default()
                    },
                    None => QueryCounts {
                        hand: oracle.hits[0],
                        prizes: oracle.hits[windows - 1],
                        by_turn: draws.iter().map(|&seen| oracle.hits[seen]).collect(),
                        event: None,
                    },
                };
                assert_eq!(found, &expected, "{text}, {turns} turns, {going:?}");
                assert_eq!(
                    other, &expected,
                    "{text}, compiled, {turns} turns, {going:?}"
                );
                let hand = found.event.unwrap_or(found.hand);
                varied += usize::from(hand > 0 && hand < 5_000);
            }
            all_varied[setting] = varied;
        }
        (all_varied, batches)
    }
}
