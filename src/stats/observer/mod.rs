//! Estimates of `--want` queries from simulated setups, to set beside their exact values.
//!
//! A [`QueryObserver`] watches the engine's setups ([`crate::engine::SetupView`]: the kept
//! hand, the prizes, the turn draws) and counts how often each query holds in the hand, in
//! the prizes and in the cards seen by each own turn. It estimates kept-hand values only
//! (the engine deals kept hands); it computes nothing exact and renders nothing.
//! [`SetupObserver`] pairs it with the engine's [`CountObserver`], and [`estimates`] sets
//! every simulated frequency beside the exact value of a [`Report`].

mod general;
mod small;

use crate::engine::{CountObserver, Observer, SetupView};

use general::Program;
use small::Small;

use super::query::{Cmp, ResolvedQuery};
use super::{Estimate, EstimateKey, Estimates, Measure, Report};
use crate::formats::{Going, Setup};

/// How often an event held over a number of setups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Frequency {
    pub hits: u64,
    pub setups: u64,
}

impl Frequency {
    pub fn estimate(self) -> f64 {
        if self.setups == 0 {
            return 0.0;
        }
        self.hits as f64 / self.setups as f64
    }

    /// The binomial standard error √(p(1−p)/n) of [`Frequency::estimate`].
    pub fn standard_error(self) -> f64 {
        if self.setups == 0 {
            return 0.0;
        }
        let p = self.estimate();
        (p * (1.0 - p) / self.setups as f64).sqrt()
    }
}

/// Counts for one query, windows as in [`super::QueryOdds`] (kept-hand family); for a
/// query with turns (one event), only `event`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryCounts {
    pub hand: u64,
    pub prizes: u64,
    /// Setups where the query held over the cards seen by own turn t, t = 1..=turns.
    pub by_turn: Vec<u64>,
    /// Setups where a query with turns held; `None` for a query without.
    pub event: Option<u64>,
}

/// Estimates of one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryEstimates {
    pub hand: Frequency,
    pub prizes: Frequency,
    pub by_turn: Vec<Frequency>,
    /// A query with turns: how often the event held.
    pub event: Option<Frequency>,
}

/// An engine observer that evaluates resolved queries on every setup.
///
/// Its work grows with the queries, not with the deck. Each term owns a 16-bit lane of a
/// 64-bit word, four terms a word; a lane holds the number of cards of its term's kinds
/// among the cards looked at. A card adds its kind's word of lane increments (zero for a
/// kind no term names), so counting has no branch, and all the terms of a word are
/// range-tested at once (SWAR: a lane's top bit survives exactly when
/// `low <= count <= high`). A word is run through the whole setup at once: the hand, the
/// hand with each turn draw, the prizes. A window holds at most
/// [`crate::engine::MAX_CARDS`] cards, so a count never reaches a lane's top bit. With no
/// query, [`super::simulate::simulate_report`] does not run this observer at all.
///
/// In a deck of at most 64 kinds every query takes the fast path (`small::Small`): a query
/// of at most four terms shares a word with other small queries' and its expression,
/// whatever joins the terms, is a 16-entry truth table over the word's four flags; a query
/// of five to eight terms has two words and a 256-entry table. In a deck of more kinds,
/// queries take the general path (`general::Program`): each lane gives the set of windows
/// where its term holds, and the expression, compiled once into a flat program, combines
/// those sets bitwise (`&` is and, `|` or, `!` the complement). A query with turns reads
/// each term at its own window and counts one event.
#[derive(Debug, Clone)]
pub struct QueryObserver {
    /// Turn draws seen by own turn t (index t − 1).
    draws: Vec<usize>,
    /// Windows of a setup: the hand with 0, 1, ... of the turn draws, then the prizes.
    windows: usize,
    setups: u64,
    /// The queries of a deck of at most 64 kinds (every query the language accepts).
    small: Small,
    /// The queries of a deck of more kinds, compiled.
    general: Program,
    /// Per query given to [`QueryObserver::new`]: `Ok(i)` the i-th small query, `Err(i)`
    /// the i-th general one.
    order: Vec<Result<usize, usize>>,
}

/// Bits per lane; the top bit of each lane is the test's flag.
const LANE_BITS: usize = 16;
const LANES_PER_WORD: usize = 64 / LANE_BITS;
/// The largest value a lane's test compares with.
const LANE_MAX: u64 = (1 << (LANE_BITS - 1)) - 1;
/// The top bit of every lane.
const TOPS: u64 = 0x8000_8000_8000_8000;
const _: () = assert!(crate::engine::MAX_CARDS <= LANE_MAX);
/// Windows are bits of a `u64`: the hand with each number of turn draws, and the prizes (the
/// general path keeps them in two 16-bit halves of a lane, so at most 32).
const _: () = assert!(crate::engine::MAX_TURNS as usize + 2 <= 32);
/// Most windows whose every combination gets a counter (a histogram of 2^10 entries).
const HISTOGRAM_WINDOWS: usize = 10;

/// Range tests on the lanes of one word: lane i holds when its count lies in
/// `low_i..=high_i`.
#[derive(Debug, Clone, Default)]
struct Test {
    /// Each lane's `low`.
    low: u64,
    /// Each lane's `high`, with the lane's top bit set.
    high: u64,
    /// The top bits of the lanes in use.
    used: u64,
}

impl Test {
    /// Adds the clause `cmp count` as lane `lane`.
    fn set(&mut self, lane: usize, cmp: Cmp, count: u32) {
        let count = u64::from(count).min(LANE_MAX);
        let (low, high) = match cmp {
            Cmp::Ge => (count, LANE_MAX),
            Cmp::Gt => (count + 1, LANE_MAX),
            Cmp::Le => (0, count),
            // `< 0`: a range no count lies in.
            Cmp::Lt => count.checked_sub(1).map_or((1, 0), |high| (0, high)),
            Cmp::Eq => (count, count),
        };
        let (low, high) = (low.min(LANE_MAX), high.min(LANE_MAX));
        let shift = lane * LANE_BITS;
        self.low |= low << shift;
        self.high |= high << shift;
        self.used |= 1 << (shift + LANE_BITS - 1);
    }

    /// The test as a bias and a ceiling, for lanes that count from the bias instead of 0:
    /// with `lanes` so counted, `lanes & ceiling.wrapping_sub(lanes)` has a lane's top bit
    /// set exactly when its count lies in `low..=high` (lanes not in use hold too).
    ///
    /// The bias is `TOPS - low`: a lane holding `count` then reads `0x8000 - low + count`,
    /// at most `0xFFFF` (nothing carries to the next lane), its top bit set exactly when
    /// `count >= low`. The ceiling is `(high | TOPS) + bias`, so `ceiling - lanes` is the
    /// number `(high | TOPS) - count` that [`Test::tops`] computes, each lane at least 1: a
    /// top bit set exactly when `count <= high`. Only the ceiling's own sum may wrap, and
    /// the difference is exact modulo 2^64.
    fn biased(&self) -> (u64, u64) {
        let bias = TOPS - self.low;
        (bias, (self.high | TOPS).wrapping_add(bias))
    }

    /// The top bits of the lanes in use that hold. `(lane | top) - low` keeps the top bit
    /// when `lane >= low`, and `(high | top) - lane` when `lane <= high`; no lane borrows
    /// from the next, because lanes and bounds stay below the top bit.
    #[inline(always)]
    fn tops(&self, lanes: u64) -> u64 {
        let at_least = (lanes | TOPS).wrapping_sub(self.low);
        let at_most = (self.high | TOPS).wrapping_sub(lanes);
        at_least & at_most & self.used
    }
}

impl QueryObserver {
    /// `kinds` is the number of card kinds of the deck the engine deals.
    pub fn new(
        queries: &[ResolvedQuery],
        kinds: usize,
        rules: &Setup,
        turns: u32,
        going: Going,
    ) -> QueryObserver {
        let mut small = Vec::new();
        let mut general = Vec::new();
        let order = queries
            .iter()
            .map(|query| {
                if Small::fits(query, kinds) {
                    small.push(query);
                    Ok(small.len() - 1)
                } else {
                    general.push(query);
                    Err(general.len() - 1)
                }
            })
            .collect();
        let draws: Vec<usize> = (1..=turns.min(crate::engine::MAX_TURNS))
            .map(|t| rules.draws_by_turn(t, going) as usize)
            .collect();
        let windows = draws.last().copied().unwrap_or(0) + 2;
        let mut observer = QueryObserver {
            draws,
            windows,
            setups: 0,
            small: Small::new(&small, rules, going, windows),
            general: Program::new(&general, kinds, rules, going, windows),
            order,
        };
        let stride = observer.stride();
        observer.small.make_counters(stride);
        observer.general.make_counters(stride);
        observer
    }

    pub fn setups(&self) -> u64 {
        self.setups
    }

    fn histogram(&self) -> bool {
        self.windows <= HISTOGRAM_WINDOWS
    }

    fn stride(&self) -> usize {
        if self.histogram() {
            1 << self.windows
        } else {
            self.windows
        }
    }

    /// Raw counts, one per query in the order given to [`QueryObserver::new`].
    pub fn counts(&self) -> Vec<QueryCounts> {
        let of = |hits: &[u64]| {
            // Setups where the query held in window `window`.
            let held = |window: usize| -> u64 {
                if self.histogram() {
                    let sets = (0u64..).zip(hits);
                    sets.filter(|(set, _)| set >> window & 1 == 1)
                        .map(|(_, n)| n)
                        .sum()
                } else {
                    hits.get(window).copied().unwrap_or(0)
                }
            };
            QueryCounts {
                hand: held(0),
                prizes: held(self.windows - 1),
                by_turn: self.draws.iter().map(|&seen| held(seen)).collect(),
                event: None,
            }
        };
        self.order
            .iter()
            .map(|slot| {
                let hits = match slot {
                    Ok(index) => self.small.hits(*index, self.histogram()),
                    Err(index) => self.general.hits(*index),
                };
                match hits {
                    Some((hits, true)) => QueryCounts {
                        event: Some(hits.first().copied().unwrap_or(0)),
                        ..QueryCounts::default()
                    },
                    Some((hits, false)) => of(&hits),
                    None => QueryCounts::default(),
                }
            })
            .collect()
    }

    /// Frequencies with their standard errors, one per query.
    pub fn estimates(&self) -> Vec<QueryEstimates> {
        let of = |hits| Frequency {
            hits,
            setups: self.setups,
        };
        let one = |c: QueryCounts| QueryEstimates {
            hand: of(c.hand),
            prizes: of(c.prizes),
            by_turn: c.by_turn.iter().map(|&h| of(h)).collect(),
            event: c.event.map(of),
        };
        self.counts().into_iter().map(one).collect()
    }
}

/// Gives the kinds `kinds` one card each in lane `lane` of a word's `increments` (indexed
/// by kind). A kind outside the deck is never dealt: it adds nothing.
fn add_lane(increments: &mut [u64], kinds: &[usize], lane: usize) {
    for &kind in kinds {
        if let Some(add) = increments.get_mut(kind) {
            *add += 1 << (lane * LANE_BITS);
        }
    }
}

/// Calls `at(bit, lanes)` for each window of a setup, lanes counted with `increments`
/// (indexed by kind): bit k for the hand with the first k turn draws (k up to `seen`), then
/// bit `seen + 1` for the prizes.
#[inline(always)]
fn each_window(increments: &[u64], seen: usize, view: &SetupView, mut at: impl FnMut(usize, u64)) {
    let add =
        |lanes: u64, kind: &u16| lanes + increments.get(usize::from(*kind)).copied().unwrap_or(0);
    let mut lanes = view.hand.iter().fold(0, add);
    at(0, lanes);
    for (bit, kind) in (1..).zip(view.draws.iter().take(seen)) {
        lanes = add(lanes, kind);
        at(bit, lanes);
    }
    at(seen + 1, view.prizes.iter().fold(0, add));
}

/// Counts a setup whose query held in the windows `all`: in the histogram of window sets,
/// or window by window.
#[inline(always)]
fn count_windows(hits: &mut [u64], all: u64, histogram: bool) {
    if histogram {
        let set = all as usize & hits.len().wrapping_sub(1);
        if let Some(hit) = hits.get_mut(set) {
            *hit += 1;
        }
    } else {
        for (window, hit) in hits.iter_mut().enumerate() {
            *hit += (all >> window) & 1;
        }
    }
}

impl Observer for QueryObserver {
    #[inline]
    fn observe(&mut self, view: &SetupView) {
        self.setups += 1;
        let (seen, histogram) = (self.windows - 2, self.histogram());
        if !self.small.is_empty() {
            self.small.observe(view, seen, histogram);
        }
        if !self.general.is_empty() {
            self.general.observe(view, seen, histogram);
        }
    }

    fn merge(&mut self, other: Self) {
        self.setups += other.setups;
        self.small.merge(other.small);
        self.general.merge(other.general);
    }
}

/// The engine's per-card counts and the query counts, in one pass (used when there are
/// queries; without, the engine runs the [`CountObserver`] alone).
#[derive(Debug, Clone)]
pub struct SetupObserver {
    pub counts: CountObserver,
    pub queries: QueryObserver,
}

impl Observer for SetupObserver {
    #[inline]
    fn observe(&mut self, view: &SetupView) {
        self.counts.observe(view);
        self.queries.observe(view);
    }

    fn merge(&mut self, other: Self) {
        self.counts.merge(other.counts);
        self.queries.merge(other.queries);
    }
}

/// A frequency's estimate beside an exact value.
fn frequency(hits: u64, setups: u64, exact: f64) -> Estimate {
    let f = Frequency { hits, setups };
    Estimate {
        estimate: f.estimate(),
        standard_error: f.standard_error(),
        exact,
    }
}

/// The mean of a count from its histogram (`histogram[k]` = setups with count k), with the
/// standard error of that mean.
fn mean(histogram: &[u64], exact: f64) -> Estimate {
    let (mut sum, mut squares) = (0, 0);
    for (k, &count) in (0u64..).zip(histogram) {
        sum += k * count;
        squares += k * k * count;
    }
    moments(histogram.iter().sum(), sum, squares, exact)
}

/// The mean of a count over `n` setups from its sum and sum of squares, with the standard
/// error of that mean.
fn moments(n: u64, sum: u64, squares: u64, exact: f64) -> Estimate {
    if n == 0 {
        return Estimate {
            estimate: 0.0,
            standard_error: 0.0,
            exact,
        };
    }
    let (n, sum, squares) = (n as f64, sum as f64, squares as f64);
    let mean = sum / n;
    let variance = (squares / n - mean * mean).max(0.0);
    Estimate {
        estimate: mean,
        standard_error: (variance / n).sqrt(),
        exact,
    }
}

/// Every simulated estimate of `report`, by measure and card or query. `report.cards` must
/// be in the engine's kind order and `report.queries` in the order given to the
/// [`QueryObserver`].
pub fn estimates(
    report: &Report,
    counts: &CountObserver,
    queries: Option<&QueryObserver>,
) -> Estimates {
    let setups = counts.setups();
    let going = report.setup.going;
    let mut out = Estimates::new();
    let mulligans = counts.mulligan_distribution();
    let kept_first = mulligans.first().copied().unwrap_or(0);
    let q = report.mulligan.probability;
    let mulligan = frequency(setups - kept_first, setups, q);
    out.insert(EstimateKey::deck(Measure::Mulligan), mulligan);
    let expected = mean(mulligans, report.mulligan.expected_mulligans);
    out.insert(EstimateKey::deck(Measure::ExpectedMulligans), expected);
    for (kind, card) in (0u16..).zip(&report.cards) {
        let mut put =
            |measure, estimate| out.insert(EstimateKey::of(measure, &card.name), estimate);
        let hits = counts.opening_hand(kind);
        put(
            Measure::OpeningHand,
            frequency(hits, setups, card.opening_hand),
        );
        let hits = counts.prized_at_least_one(kind);
        let exact = card.prized_at_least_one;
        put(Measure::PrizedAtLeastOne, frequency(hits, setups, exact));
        let hits = counts.prized_all(kind);
        put(Measure::PrizedAll, frequency(hits, setups, card.prized_all));
        let histogram = counts.prized_distribution(kind);
        put(
            Measure::PrizedExpected,
            mean(&histogram, card.prized_expected),
        );
        for (turn, exact) in (1u32..).zip(&card.by_turn) {
            let hits = counts.seen_by_turn(kind, turn, going).unwrap_or(0);
            put(Measure::ByTurn(turn), frequency(hits, setups, *exact));
        }
    }
    let found = queries.map(QueryObserver::estimates).unwrap_or_default();
    let (mut plain, mut events) = (report.queries.iter(), report.events.iter());
    for found in found {
        if let Some(f) = found.event {
            if let Some(event) = events.next() {
                let key = EstimateKey::of(Measure::Event, &event.query);
                out.insert(key, frequency(f.hits, f.setups, event.probability));
            }
            continue;
        }
        let Some(query) = plain.next() else {
            continue;
        };
        let mut put = |measure, f: Frequency, exact| {
            let key = EstimateKey::of(measure, &query.query);
            out.insert(key, frequency(f.hits, f.setups, exact))
        };
        put(Measure::QueryOpeningHand, found.hand, query.opening_hand);
        put(Measure::QueryPrizes, found.prizes, query.prizes);
        for ((turn, f), exact) in (1u32..).zip(found.by_turn).zip(&query.by_turn) {
            put(Measure::QueryByTurn(turn), f, *exact);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Dealer, EngineDeck, Kind, chunk_rng, simulate};
    use crate::stats::exact::{DeckShape, Window};
    use crate::stats::query;

    /// The deck the tests deal: kinds A to F (A and C Basic Pokémon), 60 cards.
    pub(super) fn lettered_deck() -> (Vec<Kind>, EngineDeck) {
        let kinds = [(4, true), (3, false), (2, true), (1, false), (2, false)];
        let kinds: Vec<Kind> = (kinds.iter().chain(&[(48, false)]))
            .map(|&(copies, basic)| Kind { copies, basic })
            .collect();
        let deck = EngineDeck::new(&kinds).unwrap();
        (kinds, deck)
    }

    /// Queries whose names are the letters of [`lettered_deck`]'s kinds.
    pub(super) fn lettered<T: AsRef<str>>(texts: &[T]) -> Vec<ResolvedQuery> {
        let resolve = |text: &T| {
            let text = text.as_ref();
            let parsed = query::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let index =
                |name: &query::NameRef| Ok::<_, ()>(usize::from(name.text.as_bytes()[0] - b'A'));
            parsed.resolve(index).unwrap()
        };
        texts.iter().map(resolve).collect()
    }

    /// The observer counts exactly what evaluating each query on each dealt setup counts,
    /// card by card: for few windows (histogram) and many (a counter per window), going
    /// first without a turn-1 draw and going second, and for queries of every comparison,
    /// `|` groups, more than four clauses (two words), a clause no count passes and a
    /// kind outside the deck.
    #[test]
    fn counts_match_a_direct_evaluation_of_every_setup() {
        let (kinds, deck) = lettered_deck();
        counts_match_a_direct_evaluation(&kinds, &deck);
    }

    /// The same in a deck of more kinds than the truth tables take (70: the lettered deck's
    /// first five and 65 single cards), where every query takes the compiled program.
    #[test]
    fn a_deck_of_more_than_64_kinds_counts_the_same_way() {
        let (mut kinds, _) = lettered_deck();
        kinds.truncate(5);
        kinds.extend((0..65).map(|_| Kind {
            copies: 1,
            basic: false,
        }));
        assert!(kinds.len() > small::SMALL_KINDS);
        let deck = EngineDeck::new(&kinds).unwrap();
        counts_match_a_direct_evaluation(&kinds, &deck);
    }

    fn counts_match_a_direct_evaluation(kinds: &[Kind], deck: &EngineDeck) {
        let texts = [
            "A>=1 & B>=1",
            "B|A>=2",
            "C=1",
            "D<1 & E>0",
            "A<=1 & B<2 & C>=1 & D<=0 & E>=0 & F>=3",
            "A<0",
            "A>=1 | !B>=1",
            "!(C=1 & D<1) | E>0 & F>=40",
            "A>=1 & B>=1 by T2",
            "(C>=1 by T1 | D>=1) & !E>=2 by T3",
        ];
        let mut queries = lettered(&texts);
        // A kind the deck does not have counts 0.
        queries[2].terms[0].kinds.push(kinds.len() + 3);
        for (turns, going, first_player_draws) in [
            (3, Going::First, false),
            (4, Going::Second, false),
            (12, Going::First, true),
        ] {
            let rules = Setup {
                first_player_draws,
                ..Setup::default()
            };
            let mut observer = QueryObserver::new(&queries, kinds.len(), &rules, turns, going);
            let stride = 2 + turns as usize;
            let mut expected = vec![vec![0u64; stride]; queries.len()];
            let mut dealer = Dealer::new(deck, &rules, turns).unwrap();
            let mut rng = chunk_rng(11, u64::from(turns));
            for _ in 0..20_000 {
                let view = dealer.deal(&mut rng);
                observer.observe(&view);
                let count = |cards: &[u16]| {
                    let mut counts = vec![0u32; kinds.len()];
                    for &kind in cards {
                        counts[usize::from(kind)] += 1;
                    }
                    counts
                };
                let by = |cards: &[u16], query: &ResolvedQuery| {
                    let counts = count(cards);
                    u64::from(query.holds(|k| counts.get(k).copied().unwrap_or(0)))
                };
                for (query, expected) in queries.iter().zip(&mut expected) {
                    if query.has_turns() {
                        let windows = query.windows(&rules, going);
                        let held = query.holds_with(|j, term| {
                            let cards = match windows[j] {
                                Window::Seen { draws } => {
                                    [view.hand, &view.draws[..draws as usize]].concat()
                                }
                                _ => view.hand.to_vec(),
                            };
                            let counts = count(&cards);
                            term.kinds
                                .iter()
                                .map(|&k| counts.get(k).copied().unwrap_or(0))
                                .sum()
                        });
                        expected[0] += u64::from(held);
                        continue;
                    }
                    expected[0] += by(view.hand, query);
                    expected[1] += by(view.prizes, query);
                    for turn in 1..=turns {
                        let seen = rules.draws_by_turn(turn, going) as usize;
                        let cards = [view.hand, &view.draws[..seen]].concat();
                        expected[1 + turn as usize] += by(&cards, query);
                    }
                }
            }
            let found: Vec<Vec<u64>> = observer
                .counts()
                .into_iter()
                .zip(&expected)
                .map(|(c, expected)| match c.event {
                    Some(event) => [vec![event], vec![0; expected.len() - 1]].concat(),
                    None => [vec![c.hand, c.prizes], c.by_turn].concat(),
                })
                .collect();
            assert_eq!(found, expected, "{turns} turns, going {going:?}");
            assert!(expected[0][0] > 0 && expected[5] == vec![0; stride]);
            // Every general query held in some setup and failed in another.
            for expected in &expected[6..] {
                assert!(expected[0] > 0 && expected[0] < 20_000, "{expected:?}");
            }
        }
    }

    /// Simulated kept-hand frequencies agree with the exact values within 5 standard errors
    /// (seeded, so the test is deterministic), for a joint query and an `|` group.
    #[test]
    fn simulated_queries_agree_with_exact_kept_hand_values() {
        let shape = DeckShape::new([(4, true), (3, false), (6, true), (47, false)]);
        let resolve = |text: &str| {
            let parsed = query::parse(text).unwrap();
            parsed
                .resolve(|n| Ok::<_, ()>(usize::from(n.text != "A")))
                .unwrap()
        };
        let queries = [
            resolve("A>=1 & B>=1"),
            resolve("B|A>=2"),
            resolve("A>=2 | !B>=1"),
            resolve("A>=1 & B>=1 by T2"),
        ];
        let kinds: Vec<Kind> = shape
            .kinds
            .iter()
            .map(|k| Kind {
                copies: k.copies,
                basic: k.basic,
            })
            .collect();
        let deck = EngineDeck::new(&kinds).unwrap();
        let setup = Setup {
            first_player_draws: false,
            ..Setup::default()
        };
        let (turns, going) = (3, Going::First);
        let make = || QueryObserver::new(&queries, kinds.len(), &setup, turns, going);
        let observer = simulate(&deck, &setup, turns, 300_000, 7, 2, make).unwrap();
        assert_eq!(observer.setups(), 300_000);
        for (query, found) in queries.iter().zip(observer.estimates()) {
            if let Some(found) = found.event {
                let exact = query.event(&shape, &setup, going).unwrap().kept;
                let gap = (found.estimate() - exact.to_f64()).abs();
                assert!(gap < 5.0 * found.standard_error(), "{found:?} vs {exact:?}");
                continue;
            }
            let exact = query.odds(&shape, &setup, turns, going).unwrap();
            let mut pairs = vec![(found.hand, exact.hand), (found.prizes, exact.prizes)];
            pairs.extend(found.by_turn.iter().copied().zip(exact.by_turn.clone()));
            for (estimate, exact) in pairs {
                let gap = (estimate.estimate() - exact.to_f64()).abs();
                let limit = 5.0 * estimate.standard_error();
                assert!(gap < limit, "{estimate:?} vs {}", exact.to_f64());
            }
        }
    }
}
