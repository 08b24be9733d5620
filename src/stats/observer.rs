//! Estimates of `--want` queries from simulated setups, to set beside their exact values.
//!
//! A [`QueryObserver`] watches the engine's setups ([`crate::engine::SetupView`]: the kept
//! hand, the prizes, the turn draws) and counts how often each query holds in the hand, in
//! the prizes and in the cards seen by each own turn. It estimates kept-hand values only
//! (the engine deals kept hands); it computes nothing exact and renders nothing.
//! [`SetupObserver`] pairs it with the engine's [`CountObserver`], and [`estimates`] sets
//! every simulated frequency beside the exact value of a [`Report`].

use crate::engine::{CountObserver, Observer, SetupView};

use super::query::ResolvedQuery;
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

/// Counts for one query, windows as in [`super::QueryOdds`] (kept-hand family).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryCounts {
    pub hand: u64,
    pub prizes: u64,
    /// Setups where the query held over the cards seen by own turn t, t = 1..=turns.
    pub by_turn: Vec<u64>,
}

/// Estimates of one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryEstimates {
    pub hand: Frequency,
    pub prizes: Frequency,
    pub by_turn: Vec<Frequency>,
}

/// An engine observer that evaluates resolved queries on every setup.
#[derive(Debug, Clone)]
pub struct QueryObserver {
    queries: Vec<ResolvedQuery>,
    /// Turn draws seen by own turn t (index t − 1).
    draws: Vec<u32>,
    /// Per-kind counts of the cards being looked at; all zero between windows.
    counts: Vec<u32>,
    setups: u64,
    found: Vec<QueryCounts>,
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
        let draws = (1..=turns).map(|t| rules.draws_by_turn(t, going)).collect();
        let empty = QueryCounts {
            by_turn: vec![0; turns as usize],
            ..QueryCounts::default()
        };
        QueryObserver {
            queries: queries.to_vec(),
            draws,
            counts: vec![0; kinds],
            setups: 0,
            found: vec![empty; queries.len()],
        }
    }

    pub fn setups(&self) -> u64 {
        self.setups
    }

    /// Raw counts, one per query in the order given to [`QueryObserver::new`].
    pub fn counts(&self) -> &[QueryCounts] {
        &self.found
    }

    /// Frequencies with their standard errors, one per query.
    pub fn estimates(&self) -> Vec<QueryEstimates> {
        let of = |hits| Frequency {
            hits,
            setups: self.setups,
        };
        let one = |c: &QueryCounts| QueryEstimates {
            hand: of(c.hand),
            prizes: of(c.prizes),
            by_turn: c.by_turn.iter().map(|&h| of(h)).collect(),
        };
        self.found.iter().map(one).collect()
    }

    fn add(&mut self, cards: &[u16], up: bool) {
        for &kind in cards {
            if let Some(c) = self.counts.get_mut(usize::from(kind)) {
                *c = if up {
                    c.saturating_add(1)
                } else {
                    c.saturating_sub(1)
                };
            }
        }
    }

    /// Adds one to the counter `pick` chooses for each query that holds now.
    fn tally(&mut self, pick: impl Fn(&mut QueryCounts) -> Option<&mut u64>) {
        let counts = &self.counts;
        let count_of = |k: usize| counts.get(k).copied().unwrap_or(0);
        for (query, found) in self.queries.iter().zip(&mut self.found) {
            if query.holds(count_of)
                && let Some(slot) = pick(found)
            {
                *slot += 1;
            }
        }
    }
}

impl Observer for QueryObserver {
    fn observe(&mut self, view: &SetupView) {
        self.setups += 1;
        self.add(view.hand, true);
        self.tally(|f| Some(&mut f.hand));
        // Seen by turn t grows from the hand: add each turn's new draws, then check.
        let mut seen = 0usize;
        for t in 0..self.draws.len() {
            let want = self.draws.get(t).map_or(0, |&d| d as usize);
            let new = view
                .draws
                .get(seen..want.min(view.draws.len()))
                .unwrap_or(&[]);
            self.add(new, true);
            seen += new.len();
            self.tally(|f| f.by_turn.get_mut(t));
        }
        let drawn = view.draws.get(..seen).unwrap_or(&[]);
        self.add(drawn, false);
        self.add(view.hand, false);
        self.add(view.prizes, true);
        self.tally(|f| Some(&mut f.prizes));
        self.add(view.prizes, false);
    }

    fn merge(&mut self, other: Self) {
        self.setups += other.setups;
        for (mine, theirs) in self.found.iter_mut().zip(other.found) {
            mine.hand += theirs.hand;
            mine.prizes += theirs.prizes;
            for (a, b) in mine.by_turn.iter_mut().zip(theirs.by_turn) {
                *a += b;
            }
        }
    }
}

/// The engine's per-card counts and the query counts, in one pass.
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
pub fn estimates(report: &Report, seen: &SetupObserver) -> Estimates {
    let counts = &seen.counts;
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
    let found = seen.queries.estimates();
    for (query, found) in report.queries.iter().zip(found) {
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
    use crate::engine::{EngineDeck, Kind, simulate};
    use crate::stats::exact::DeckShape;
    use crate::stats::query;

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
        let queries = [resolve("A>=1 & B>=1"), resolve("B|A>=2")];
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
