//! One player's setup, dealt as fast as possible: a partial Fisher–Yates shuffle over a
//! permutation kept between setups, so only the positions the setup looks at are drawn.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::{EngineDeck, EngineError, Setup};

/// The engine's generator: xoshiro256++, fast and with a 2^256 period.
pub type EngineRng = Xoshiro256PlusPlus;

/// The generator of chunk `chunk` of a simulation seeded with `seed`. Half of the state comes
/// from `seed` and half from `chunk`, each through SplitMix64 (whose first outputs are
/// bijections of its seed), so distinct `(seed, chunk)` pairs start distinct streams and a
/// chunk deals the same setups whichever thread runs it.
pub fn chunk_rng(seed: u64, chunk: u64) -> EngineRng {
    let mut from_seed = rand_xoshiro::SplitMix64::seed_from_u64(seed);
    let mut from_chunk = rand_xoshiro::SplitMix64::seed_from_u64(chunk);
    let words = [
        from_seed.next_u64(),
        from_seed.next_u64(),
        from_chunk.next_u64(),
        from_chunk.next_u64(),
    ];
    let mut bytes = [0u8; 32];
    for (out, word) in bytes.chunks_exact_mut(8).zip(words) {
        out.copy_from_slice(&word.to_le_bytes());
    }
    EngineRng::from_seed(bytes)
}

/// Largest product of bounds one random word serves. Rejection happens with probability
/// below `product / 2^64`, so this cap keeps retries under 1 in 64 while a 60-card deck's
/// hand (7 bounds) and its prizes and 4 draws (10 bounds) still take one word each.
const MAX_PRODUCT: u64 = 1 << 58;
/// Most positions one random word serves (`shuffle_batch` has a body for each length).
const MAX_BATCH: usize = 16;

/// Consecutive Fisher–Yates positions `start..end` served by one random word: the bounds
/// `len - i` multiply to `product`, and `threshold` = 2^64 mod `product` (precomputed, so
/// dealing never divides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Batch {
    start: usize,
    end: usize,
    product: u64,
    threshold: u64,
}

/// Splits positions `from..to` of a `len`-card deck into batches.
fn batches(len: usize, from: usize, to: usize) -> Vec<Batch> {
    let mut out: Vec<Batch> = Vec::new();
    for i in from..to.min(len) {
        let bound = (len - i) as u64;
        let grown = out.last().and_then(|batch| {
            let product = batch.product.checked_mul(bound)?;
            (product <= MAX_PRODUCT && batch.end - batch.start < MAX_BATCH).then_some(product)
        });
        match (grown, out.last_mut()) {
            (Some(product), Some(batch)) => {
                batch.end = i + 1;
                batch.product = product;
            }
            _ => out.push(Batch {
                start: i,
                end: i + 1,
                product: bound,
                threshold: 0,
            }),
        }
    }
    for batch in &mut out {
        batch.threshold = batch.product.wrapping_neg() % batch.product;
    }
    out
}

/// Runs the Fisher–Yates steps of one batch from a single random word: batched ranged
/// random integers (Brackett-Rozinsky and Lemire, 2024). Multiplying the word by each bound
/// in turn yields the mixed-radix digits of `word * product / 2^64`, and the final low word is
/// `word * product mod 2^64`, so rejecting words whose low word is below the threshold makes
/// every tuple of positions exactly equally likely, as in Lemire's single-bound method.
/// Restarting these steps on whatever permutation `cards` holds still gives a uniform prefix,
/// so the permutation is never reset between setups or mulligans.
#[inline(always)]
fn shuffle_batch(cards: &mut Slots, len: usize, batch: &Batch, rng: &mut EngineRng) -> u64 {
    let mut word = rng.next_u64();
    while word.wrapping_mul(batch.product) < batch.threshold {
        word = rng.next_u64();
    }
    // One fully unrolled body per batch length: with the step count a constant, the loop
    // counter, its compare and the index arithmetic of the `i` side disappear (a step falls
    // from 15 instructions to 7). The lengths follow the plan, so the jump is predicted.
    let (start, bound) = (batch.start, (len - batch.start) as u64);
    match batch.end - batch.start {
        1 => steps::<1>(cards, start, bound, word),
        2 => steps::<2>(cards, start, bound, word),
        3 => steps::<3>(cards, start, bound, word),
        4 => steps::<4>(cards, start, bound, word),
        5 => steps::<5>(cards, start, bound, word),
        6 => steps::<6>(cards, start, bound, word),
        7 => steps::<7>(cards, start, bound, word),
        8 => steps::<8>(cards, start, bound, word),
        9 => steps::<9>(cards, start, bound, word),
        10 => steps::<10>(cards, start, bound, word),
        11 => steps::<11>(cards, start, bound, word),
        12 => steps::<12>(cards, start, bound, word),
        13 => steps::<13>(cards, start, bound, word),
        14 => steps::<14>(cards, start, bound, word),
        15 => steps::<15>(cards, start, bound, word),
        16 => steps::<16>(cards, start, bound, word),
        // `batches` makes no empty batch and none longer than MAX_BATCH.
        _ => 0,
    }
}

/// The `N` Fisher–Yates steps of a batch starting at position `start`, whose first bound is
/// `bound` (= deck length - `start`), digits drawn from `word`. Returns the kinds drawn as a
/// bit set (bit `kind & 63`): one instruction a card, so a hand needs no second pass to test
/// for a Basic Pokémon (the compiler drops it where unused).
#[inline(always)]
fn steps<const N: usize>(cards: &mut Slots, start: usize, bound: u64, mut word: u64) -> u64 {
    // A fixed-size window from `start` (masking cannot change `start` < `len` ≤ SLOTS), in
    // which position `k` of the batch is a constant offset and `j` below a masked one: the
    // compiler sees every index is in bounds, so the hot loop has no bounds checks.
    let window = cards
        .get_mut(start & (SLOTS - 1)..)
        .and_then(|rest| rest.first_chunk_mut::<WINDOW>());
    let Some(window) = window else {
        return 0;
    };
    let mut kinds = 0;
    for k in 0..N {
        let wide = u128::from(word) * u128::from(bound - k as u64);
        word = wide as u64;
        // The digit is below `len - start - k` ≤ SLOTS, so masking changes nothing.
        let j = k + ((wide >> 64) as usize & (SLOTS - 1));
        let (kept, drawn) = (window[k], window[j]);
        window[j] = kept;
        window[k] = drawn;
        kinds |= 1 << (drawn & 63);
    }
    kinds
}

/// Room for the largest deck: a power of two, so masked indices are always in bounds.
const SLOTS: usize = 1024;
const _: () = assert!(super::MAX_CARDS as usize <= SLOTS && SLOTS.is_power_of_two());

/// The slots a batch may touch, from its first position on.
const WINDOW: usize = SLOTS + MAX_BATCH;

/// The permutation buffer: the first `len` slots hold the deck; the rest are never dealt,
/// they only let a batch's window (see [`steps`]) have a fixed size.
type Slots = [u16; SLOTS + WINDOW];

/// One player's setup: kinds of the cards in each zone. The zones are disjoint positions of
/// one shuffled deck: hand, then prizes, then the cards drawn at the start of turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupView<'a> {
    /// Hands shuffled back before this one was kept.
    pub mulligans: u32,
    /// The kept hand (holds at least one Basic Pokémon).
    pub hand: &'a [u16],
    pub prizes: &'a [u16],
    /// The next cards of the deck, in draw order: what the player draws at the start of each
    /// own turn (the first player who skips the turn-1 draw sees one fewer by a given turn).
    pub draws: &'a [u16],
}

/// A permutation buffer holding `cards` first.
fn slots(cards: &[u16]) -> Box<Slots> {
    let mut slots = Box::new([0; SLOTS + WINDOW]);
    for (slot, card) in slots.iter_mut().zip(cards) {
        *slot = *card;
    }
    slots
}

/// Whether a hand holds a Basic Pokémon (`basic` is indexed by kind).
#[inline(always)]
fn has_basic(basic: &[bool], hand: &[u16]) -> bool {
    // A fold, not `any`: where the first Basic sits is random, and a branch per card would
    // be mispredicted.
    hand.iter().fold(false, |found, &kind| {
        found | basic.get(usize::from(kind)).copied().unwrap_or(false)
    })
}

/// Per kind, a bit set for a Basic Pokémon; `None` past 64 kinds.
fn basic_mask(basic: &[bool]) -> Option<u64> {
    (basic.len() <= 64).then(|| {
        (0..)
            .zip(basic)
            .fold(0, |mask, (bit, &basic)| mask | u64::from(basic) << bit)
    })
}

/// Deals one player's setups from a deck, reusing one permutation buffer.
#[derive(Debug, Clone)]
pub struct Dealer<'d> {
    basic: &'d [bool],
    basic_mask: Option<u64>,
    /// The deck in kind order, to restart from.
    sorted: &'d [u16],
    cards: Box<Slots>,
    len: usize,
    hand: usize,
    prizes: usize,
    draws: usize,
    /// Batches of the hand positions, then of the prize and draw positions.
    hand_batches: Vec<Batch>,
    rest_batches: Vec<Batch>,
}

impl<'d> Dealer<'d> {
    /// A dealer for setups with `draws` turn draws after the prizes.
    pub fn new(deck: &'d EngineDeck, rules: &Setup, draws: u32) -> Result<Self, EngineError> {
        deck.check_setup(rules, draws)?;
        let len = deck.len();
        let hand = rules.hand_size as usize;
        let prizes = rules.prizes as usize;
        let draws = draws as usize;
        Ok(Dealer {
            basic: deck.basic_table(),
            basic_mask: basic_mask(deck.basic_table()),
            sorted: deck.cards(),
            cards: slots(deck.cards()),
            len,
            hand,
            prizes,
            draws,
            hand_batches: batches(len, 0, hand),
            rest_batches: batches(len, hand, hand + prizes + draws),
        })
    }

    /// Puts the deck back in kind order, so what follows depends on the generator only (a
    /// simulation chunk then deals the same setups on whichever thread runs it).
    pub fn reset(&mut self) {
        for (slot, card) in self.cards.iter_mut().zip(self.sorted) {
            *slot = *card;
        }
    }

    /// Deals one setup: hands until one holds a Basic Pokémon, then prizes and draws.
    #[inline(always)]
    pub fn deal(&mut self, rng: &mut EngineRng) -> SetupView<'_> {
        let mulligans = self.draw_kept_hand(rng);
        for batch in &self.rest_batches {
            shuffle_batch(&mut self.cards, self.len, batch, rng);
        }
        self.view(mulligans)
    }

    /// Draws hands into the first positions until one holds a Basic Pokémon; returns the
    /// number of mulligans. Terminates with probability 1: [`Dealer::new`] checked the deck
    /// has a Basic Pokémon and the hand at least one card.
    #[inline(always)]
    fn draw_kept_hand(&mut self, rng: &mut EngineRng) -> u32 {
        let Some(basic) = self.basic_mask else {
            return self.draw_kept_hand_any_kinds(rng);
        };
        let mut mulligans = 0;
        while self.draw_hand_kinds(rng) & basic == 0 {
            mulligans += 1;
        }
        mulligans
    }

    /// [`Dealer::draw_kept_hand`] for decks of more than 64 kinds: rare, so kept out of line
    /// (the hot loop inlines one copy of the dealing code, not two).
    #[inline(never)]
    fn draw_kept_hand_any_kinds(&mut self, rng: &mut EngineRng) -> u32 {
        let basic = self.basic;
        let mut mulligans = 0;
        while !has_basic(basic, self.draw_hand(rng)) {
            mulligans += 1;
        }
        mulligans
    }

    /// Draws one hand into the first positions and returns it (it may need a mulligan).
    #[inline(always)]
    pub(crate) fn draw_hand(&mut self, rng: &mut EngineRng) -> &[u16] {
        for batch in &self.hand_batches {
            shuffle_batch(&mut self.cards, self.len, batch, rng);
        }
        self.cards.get(..self.hand).unwrap_or(&[])
    }

    /// Draws one hand into the first positions; returns its kinds as a bit set (bit
    /// `kind & 63`).
    #[inline(always)]
    fn draw_hand_kinds(&mut self, rng: &mut EngineRng) -> u64 {
        let mut kinds = 0;
        for batch in &self.hand_batches {
            kinds |= shuffle_batch(&mut self.cards, self.len, batch, rng);
        }
        kinds
    }

    /// Draws positions `from..to` (clamped to the deck) after a kept hand: for the
    /// two-player setup, whose extra draws vary.
    pub(crate) fn draw_range(&mut self, from: usize, to: usize, rng: &mut EngineRng) -> &[u16] {
        let to = to.min(self.len);
        for batch in batches(self.len, from, to) {
            shuffle_batch(&mut self.cards, self.len, &batch, rng);
        }
        self.cards.get(from..to).unwrap_or(&[])
    }

    #[inline(always)]
    fn view(&self, mulligans: u32) -> SetupView<'_> {
        let (hand, rest) = self.cards.split_at_checked(self.hand).unwrap_or_default();
        let (prizes, rest) = rest.split_at_checked(self.prizes).unwrap_or_default();
        let draws = rest.get(..self.draws).unwrap_or(&[]);
        SetupView {
            mulligans,
            hand,
            prizes,
            draws,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_the_positions_and_respect_the_cap() {
        let plan = batches(60, 7, 17);
        assert_eq!(plan.len(), 1, "{plan:?}");
        assert_eq!((plan[0].start, plan[0].end), (7, 17));
        let plan = batches(1000, 0, 40);
        assert_eq!(plan.first().map(|b| b.start), Some(0));
        assert_eq!(plan.last().map(|b| b.end), Some(40));
        for pair in plan.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        for batch in &plan {
            let product: u128 = (batch.start..batch.end)
                .map(|i| (1000 - i) as u128)
                .product();
            assert_eq!(product, u128::from(batch.product));
            assert!(batch.product <= MAX_PRODUCT);
            assert_eq!(batch.threshold, ((1u128 << 64) % product) as u64);
        }
        assert!(batches(5, 3, 10).iter().all(|b| b.end <= 5));
    }

    /// Every ordered pair of the first two positions of a 5-card deck is equally likely
    /// (chi-square with 19 degrees of freedom, far below its 0.1% critical value 43.8).
    #[test]
    fn batched_shuffle_is_uniform() {
        let mut cards = slots(&[0, 1, 2, 3, 4]);
        let plan = batches(5, 0, 2);
        let mut rng = chunk_rng(1, 2);
        let mut counts = [[0u32; 5]; 5];
        let runs = 200_000;
        for _ in 0..runs {
            for batch in &plan {
                shuffle_batch(&mut cards, 5, batch, &mut rng);
            }
            counts[usize::from(cards[0])][usize::from(cards[1])] += 1;
        }
        let expected = f64::from(runs) / 20.0;
        let mut chi2 = 0.0;
        for (a, row) in counts.iter().enumerate() {
            for (b, &n) in row.iter().enumerate() {
                if a == b {
                    assert_eq!(n, 0);
                } else {
                    chi2 += (f64::from(n) - expected).powi(2) / expected;
                }
            }
        }
        assert!(chi2 < 43.8, "chi-square {chi2}");
    }

    /// Every unrolled batch length swaps exactly as the plain Fisher–Yates loop would with
    /// the same random word, near the end of the largest deck too.
    #[test]
    fn unrolled_steps_match_the_plain_loop() {
        let len = SLOTS - 3;
        let deck: Vec<u16> = (0..len as u16).collect();
        let mut rng = chunk_rng(3, 4);
        for n in 1..=MAX_BATCH {
            for start in [0, 7, len - n] {
                let mut replay = rng.clone();
                let word = rng.next_u64();
                let mut expected = slots(&deck);
                let mut digits = word;
                for i in start..start + n {
                    let wide = u128::from(digits) * (len - i) as u128;
                    digits = wide as u64;
                    expected.swap(i, i + (wide >> 64) as usize);
                }
                let batch = Batch {
                    start,
                    end: start + n,
                    product: 1,
                    threshold: 0,
                };
                let mut cards = slots(&deck);
                let kinds = shuffle_batch(&mut cards, len, &batch, &mut replay);
                assert_eq!(cards[..], expected[..], "{n} steps from {start}");
                let drawn = expected[start..start + n]
                    .iter()
                    .fold(0u64, |kinds, &k| kinds | 1 << (k & 63));
                assert_eq!(kinds, drawn);
            }
        }
    }

    /// Decks of at most 64 kinds test hands with a bit set; the table path (kept for bigger
    /// decks) must deal exactly the same setups.
    #[test]
    fn both_mulligan_paths_deal_the_same_setups() {
        let kinds = [(1, true), (3, false), (2, true), (50, false), (4, false)];
        let kinds: Vec<_> = kinds
            .iter()
            .map(|&(copies, basic)| super::super::Kind { copies, basic })
            .collect();
        let deck = EngineDeck::new(&kinds).unwrap();
        let rules = Setup {
            hand_size: 7,
            prizes: 6,
            mulligan_extra_draw: true,
            mutual_mulligans_cancel: true,
            first_player_draws: false,
            ..Setup::default()
        };
        let mut masked = Dealer::new(&deck, &rules, 4).unwrap();
        let mut table = masked.clone();
        table.basic_mask = None;
        let (mut a, mut b) = (chunk_rng(9, 0), chunk_rng(9, 0));
        let mut mulligans = 0;
        for _ in 0..2_000 {
            let (x, y) = (masked.deal(&mut a), table.deal(&mut b));
            assert_eq!(x, y);
            mulligans += x.mulligans;
        }
        assert!(mulligans > 1_000, "a 3-Basic deck mulligans often");
    }

    #[test]
    fn chunk_streams_differ() {
        let first = |seed, chunk| chunk_rng(seed, chunk).next_u64();
        assert_ne!(first(1, 0), first(1, 1));
        assert_ne!(first(1, 0), first(2, 0));
        assert_eq!(first(1, 0), first(1, 0));
    }
}
