//! The fast path of [`super::QueryObserver`]: queries of at most eight terms (every query
//! the language accepts), whatever joins them (`&`, `|`, `!`, parentheses, turns), each
//! answered by a truth table.
//!
//! A query of at most four terms fits in one word of four 16-bit lanes, so its terms are
//! range-tested together (SWAR, as [`super::Test`] does) and the four flags of a window
//! gather into a 4-bit number. The query's expression, evaluated once for each of the 16
//! values that number can take, is a truth table: whether the query holds in a window is
//! one look-up, whatever the expression. Queries share a word while
//! their terms fit, so a setup's cards are walked once per four terms. A query with turns
//! reads each term's flag at its own window and looks the gathered flags up once: one
//! event.
//!
//! A query of five to eight terms ([`Wide`]) has two words of its own, walked together:
//! the two words' flags gather into an 8-bit number, and its truth table has 256 entries.
//! Words holding several queries without turns look their flags up once per window in a
//! table of the queries' answers, one 16-bit lane per query ([`Word::spread`]).

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
    /// When the word holds several queries, none with turns, and a setup has at most 16
    /// windows: entry v has bit 16q set when query q holds where the word's flags are v,
    /// so one look-up per window answers every query, and a setup's window sets build up
    /// in the lanes of one number.
    spread: Option<Box<[u64; 16]>>,
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

/// Calls `at(window, a, b)` with the lanes of two words tested in each window of a setup,
/// as [`Counter::walk`] does for one: both words counted in one pass over the cards.
#[inline(always)]
fn walk_both(
    [a, b]: &[Counter; 2],
    hand: &[u16],
    draws: &[u16],
    prizes: &[u16],
    mut at: impl FnMut(u32, u64, u64),
) {
    let (of_a, of_b) = (&*a.increments, &*b.increments);
    let tops_a = |lanes: u64| lanes & a.ceiling.wrapping_sub(lanes);
    let tops_b = |lanes: u64| lanes & b.ceiling.wrapping_sub(lanes);
    let mut lanes_a = sum::<7>(of_a, hand, a.bias);
    let mut lanes_b = sum::<7>(of_b, hand, b.bias);
    at(0, tops_a(lanes_a), tops_b(lanes_b));
    let mut window = 0;
    for &kind in draws {
        lanes_a += lanes_of(of_a, kind);
        lanes_b += lanes_of(of_b, kind);
        window += 1;
        at(window, tops_a(lanes_a), tops_b(lanes_b));
    }
    let prized_a = tops_a(sum::<6>(of_a, prizes, a.bias));
    at(window + 1, prized_a, tops_b(sum::<6>(of_b, prizes, b.bias)));
}

/// The eight flags of two words' lanes, the first word's as bits 0 to 3: an index of a
/// 256-entry truth table.
#[inline(always)]
fn gather_both(a: u64, b: u64) -> usize {
    gather(a) | gather(b) << LANES_PER_WORD
}

/// Most windows of a setup for a [`Batch`]: a window's answers are a byte of one word.
const BATCH_WINDOWS: usize = 8;
/// Most queries of a [`Batch`]: one bit of a window's byte each.
const BATCH_QUERIES: usize = 8;

/// Transposes the 8×8 bit matrix whose row j is byte j of `rows`: bit q of byte j becomes
/// bit j of byte q.
#[inline(always)]
fn transpose(rows: u64) -> u64 {
    let swap = |x: u64, mask: u64, shift: u32| {
        let t = (x ^ x >> shift) & mask;
        x ^ t ^ t << shift
    };
    let x = swap(rows, 0x00AA_00AA_00AA_00AA, 7);
    let x = swap(x, 0x0000_CCCC_0000_CCCC, 14);
    swap(x, 0x0000_0000_F0F0_F0F0, 28)
}

/// Two words of queries without turns (at most [`BATCH_QUERIES`]), in setups of at most
/// [`BATCH_WINDOWS`] windows: both words are counted in one pass over the cards, each
/// window's answers of every query are one look-up (a byte, bit q for query q), the bytes
/// of a setup gather in one word, and one transposition turns them into each query's
/// window set, a byte that indexes its histogram directly.
#[derive(Debug, Clone)]
struct Batch {
    counters: [Counter; 2],
    /// Entry v: bit q set when query q holds where the words' flags are v
    /// ([`gather_both`]).
    answers: Box<[u8; 256]>,
    /// Per query (unused ones count the empty set): the setups per window set, window w
    /// as bit `windows - 1 - w` (as [`Small::hits`] turns back).
    hits: Box<[[u64; 256]; BATCH_QUERIES]>,
}

impl Batch {
    /// Counts one setup (`draws`: the turn draws looked at).
    #[inline(always)]
    fn observe(&mut self, view: &SetupView, draws: &[u16]) {
        let Batch {
            counters,
            answers,
            hits,
        } = self;
        let mut rows = 0u64;
        walk_both(counters, view.hand, draws, view.prizes, |_, a, b| {
            rows = rows << BATCH_QUERIES | u64::from(answers[gather_both(a, b)]);
        });
        let sets = transpose(rows);
        for (q, hits) in (0..).zip(hits.iter_mut()) {
            hits[usize::from((sets >> (8 * q)) as u8)] += 1;
        }
    }
}

/// A query of five to eight terms: terms 0 to 3 in the first word's lanes, the others in
/// the second's.
#[derive(Debug, Clone)]
struct Wide {
    counters: [Counter; 2],
    /// Entry v: 1 when the query holds where the words' flags are v ([`gather_both`]).
    truth: Box<[u8; 256]>,
    /// A query with turns: per window, each word's top bits of the lanes read there.
    reads: Option<Box<[[u64; 2]; SLOTS]>>,
    /// As [`Table::hits`].
    hits: Vec<u64>,
}

impl Wide {
    fn new(query: &ResolvedQuery, rules: &Setup, going: Going, seen: usize) -> Wide {
        let mut tests = [Test::default(), Test::default()];
        let mut increments = [Box::new([0; SMALL_KINDS]), Box::new([0; SMALL_KINDS])];
        let mut reads = Box::new([[0u64; 2]; SLOTS]);
        for (index, term) in query.terms.iter().enumerate().take(2 * LANES_PER_WORD) {
            let (word, lane) = (index / LANES_PER_WORD, index % LANES_PER_WORD);
            if let (Some(test), Some(increments)) = (tests.get_mut(word), increments.get_mut(word))
            {
                test.set(lane, term.cmp, term.count);
                add_lane(&mut **increments, &term.kinds, lane);
            }
            if let Some(read) = read_window(term, rules, going, seen)
                .and_then(|window| reads.get_mut(window))
                .and_then(|read| read.get_mut(word))
            {
                *read |= 1 << (lane * LANE_BITS + LANE_BITS - 1);
            }
        }
        let [first, second] = tests;
        let [one, two] = increments;
        let mut truth = Box::new([0; 256]);
        for (flags, entry) in (0u32..).zip(truth.iter_mut()) {
            *entry = u8::from(query.truth(flags));
        }
        Wide {
            counters: [first.counter(one), second.counter(two)],
            truth,
            reads: query.has_turns().then_some(reads),
            hits: Vec::new(),
        }
    }

    /// Counts one setup (`draws`: the turn draws looked at).
    #[inline(always)]
    fn observe(&mut self, view: &SetupView, draws: &[u16], histogram: bool) {
        let Wide {
            counters,
            truth,
            reads,
            hits,
        } = self;
        match reads {
            None => {
                let mut all = 0;
                walk_both(counters, view.hand, draws, view.prizes, |_, a, b| {
                    all = 2 * all + u64::from(truth[gather_both(a, b)]);
                });
                count_windows(hits, all, histogram);
            }
            Some(reads) => {
                let (mut set_a, mut set_b) = (0, 0);
                walk_both(counters, view.hand, draws, view.prizes, |window, a, b| {
                    let [read_a, read_b] = reads[window as usize % SLOTS];
                    set_a |= a & read_a;
                    set_b |= b & read_b;
                });
                if let Some(hit) = hits.first_mut() {
                    *hit += u64::from(truth[gather_both(set_a, set_b)]);
                }
            }
        }
    }
}

/// The window where `term` is read: 0 without a turn, `None` for a window the setups do
/// not deal (past `seen` turn draws), which never holds.
fn read_window(
    term: &crate::stats::query::ResolvedTerm,
    rules: &Setup,
    going: Going,
    seen: usize,
) -> Option<usize> {
    let window = term.turn.map_or(0, |turn| rules.draws_by_turn(turn, going)) as usize;
    (window <= seen).then_some(window)
}

impl Test {
    /// The counter of a word tested with this test, its lanes counted with `increments`.
    fn counter(&self, increments: Box<[u64; SMALL_KINDS]>) -> Counter {
        let (bias, ceiling) = self.biased();
        Counter {
            bias,
            ceiling,
            increments,
        }
    }
}

/// Where a query given to [`Small::new`] is counted.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Its word and its place among the word's queries.
    Word(usize, usize),
    /// Its [`Wide`].
    Wide(usize),
    /// Its [`Batch`] and its bit there.
    Batch(usize, usize),
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
    /// The queries of five to eight terms.
    wides: Vec<Wide>,
    /// Words taken in pairs, in setups of at most [`BATCH_WINDOWS`] windows.
    batches: Vec<Batch>,
    /// Per query given to [`Small::new`]: where it is counted.
    places: Vec<Place>,
    /// Windows of a setup.
    windows: usize,
}

impl Small {
    /// Whether `query` takes this path in a deck of `kinds` kinds.
    pub(super) fn fits(query: &ResolvedQuery, kinds: usize) -> bool {
        query.terms.len() <= 2 * LANES_PER_WORD && kinds <= SMALL_KINDS
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
            if query.terms.len() > LANES_PER_WORD {
                small.places.push(Place::Wide(small.wides.len()));
                small.wides.push(Wide::new(query, rules, going, seen));
                continue;
            }
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
                    spread: None,
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
                let window = read_window(term, rules, going, seen);
                if let Some(read) = window.and_then(|window| reads.get_mut(window)) {
                    *read |= 1 << (lane * LANE_BITS + LANE_BITS - 1);
                }
            }
            word.lanes += terms;
            let mut truth = [0; 16];
            for (flags, entry) in (0u32..).zip(&mut truth) {
                *entry = u8::from(query.truth(flags >> first));
            }
            small.places.push(Place::Word(at, word.queries.len()));
            word.queries.push(Table {
                truth,
                reads: query.has_turns().then_some(reads),
                hits: Vec::new(),
            });
        }
        for word in &mut small.words {
            (word.counter.bias, word.counter.ceiling) = word.test.biased();
            let plain = word.queries.iter().all(|query| query.reads.is_none());
            if plain && word.queries.len() > 1 && windows <= LANE_BITS {
                let mut spread = Box::new([0u64; 16]);
                for (v, entry) in spread.iter_mut().enumerate() {
                    for (q, query) in word.queries.iter().enumerate() {
                        *entry |= u64::from(query.truth[v]) << (q * LANE_BITS);
                    }
                }
                word.spread = Some(spread);
            }
        }
        if windows <= BATCH_WINDOWS {
            small.batch();
        }
        small
    }

    /// Takes consecutive words whose queries have no turns, two at a time, into
    /// [`Batch`]es while their queries fit one.
    fn batch(&mut self) {
        let plain = |word: &Word| word.queries.iter().all(|query| query.reads.is_none());
        // Per word: `Ok(i)` the i-th word kept, `Err((b, q))` batch b from its query q.
        let mut moved = Vec::new();
        let mut words = std::mem::take(&mut self.words).into_iter().peekable();
        while let Some(word) = words.next() {
            let fits = |next: &Word| word.queries.len() + next.queries.len() <= BATCH_QUERIES;
            let next = plain(&word)
                .then(|| words.next_if(|next| plain(next) && fits(next)))
                .flatten();
            let Some(next) = next else {
                moved.push(Ok(self.words.len()));
                self.words.push(word);
                continue;
            };
            let at = self.batches.len();
            moved.extend([Err((at, 0)), Err((at, word.queries.len()))]);
            let mut answers = Box::new([0; 256]);
            for (v, entry) in answers.iter_mut().enumerate() {
                let sides = [(&word, v % 16), (&next, v / 16)];
                let truths = (sides.iter())
                    .flat_map(|(word, v)| word.queries.iter().map(move |query| query.truth[*v]));
                for (q, truth) in truths.enumerate() {
                    *entry |= truth << q;
                }
            }
            self.batches.push(Batch {
                counters: [word.counter, next.counter],
                answers,
                hits: Box::new([[0; 256]; BATCH_QUERIES]),
            });
        }
        for place in &mut self.places {
            if let Place::Word(word, at) = *place {
                match moved.get(word) {
                    Some(Ok(kept)) => *place = Place::Word(*kept, at),
                    Some(Err((batch, first))) => *place = Place::Batch(*batch, first + at),
                    None => {}
                }
            }
        }
    }

    /// Every query's counters, and whether it counts an event.
    fn counters(&mut self) -> impl Iterator<Item = (&mut Vec<u64>, bool)> {
        let tables = (self.words.iter_mut().flat_map(|word| &mut word.queries))
            .map(|query| (&mut query.hits, query.reads.is_some()));
        let wides = (self.wides.iter_mut()).map(|wide| (&mut wide.hits, wide.reads.is_some()));
        tables.chain(wides)
    }

    /// Gives each query its counters: one for an event, else `stride`.
    pub(super) fn make_counters(&mut self, stride: usize) {
        for (hits, event) in self.counters() {
            *hits = vec![0; if event { 1 } else { stride }];
        }
    }

    /// How many batches the queries make.
    #[cfg(test)]
    pub(super) fn batches(&self) -> usize {
        self.batches.len()
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
        let (found, event): (&[u64], bool) = match *self.places.get(index)? {
            Place::Word(word, at) => {
                let query = self.words.get(word)?.queries.get(at)?;
                (&query.hits, query.reads.is_some())
            }
            Place::Wide(at) => {
                let wide = self.wides.get(at)?;
                (&wide.hits, wide.reads.is_some())
            }
            Place::Batch(batch, at) => {
                let hits = self.batches.get(batch)?.hits.get(at)?;
                (hits.get(..1 << self.windows)?, false)
            }
        };
        let mut hits = found.to_vec();
        if event {
            return Some((hits, true));
        }
        if histogram {
            // Window sets have `windows` bits (at least 2): reversing a set's bits turns it
            // back.
            let unused = 64 - self.windows.clamp(1, 64) as u32;
            for (set, &count) in (0u64..).zip(found) {
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
            counter,
            queries,
            spread,
            ..
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
            // Several queries without turns: one look-up per window answers them all.
            if let Some(spread) = spread {
                let mut all = 0;
                counter.walk(view.hand, draws, view.prizes, |_, tops| {
                    all = 2 * all + spread[gather(tops)];
                });
                for (q, query) in queries.iter_mut().enumerate() {
                    let set = all >> (q * LANE_BITS) & 0xFFFF;
                    count_windows(&mut query.hits, set, histogram);
                }
                continue;
            }
            counter.count(queries, view, draws, histogram);
        }
        for wide in &mut self.wides {
            wide.observe(view, draws, histogram);
        }
        for batch in &mut self.batches {
            batch.observe(view, draws);
        }
    }

    /// Adds the setups another path (of the same queries) counted.
    pub(super) fn merge(&mut self, mut other: Small) {
        for ((mine, _), (theirs, _)) in self.counters().zip(other.counters()) {
            for (mine, theirs) in mine.iter_mut().zip(theirs.iter()) {
                *mine += theirs;
            }
        }
        for (mine, theirs) in self.batches.iter_mut().zip(&other.batches) {
            let theirs = theirs.hits.iter().flatten();
            for (mine, theirs) in mine.hits.iter_mut().flatten().zip(theirs) {
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

    /// Bit q of byte j moves to bit j of byte q, for every bit alone and for mixed words.
    #[test]
    fn transpose_swaps_bytes_and_bits() {
        let naive = |rows: u64| {
            let mut out = 0;
            for j in 0..8 {
                for q in 0..8 {
                    out |= (rows >> (8 * j + q) & 1) << (8 * q + j);
                }
            }
            out
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let singles = (0..64).map(|bit| 1u64 << bit);
        let mixed = (0..1000).map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            x
        });
        for rows in singles.chain(mixed).chain([0, u64::MAX]) {
            assert_eq!(transpose(rows), naive(rows), "{rows:#x}");
        }
        assert_eq!(transpose(0x02), 0x0100);
    }
}
