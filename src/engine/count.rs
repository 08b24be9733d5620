//! The built-in observer: per-kind counts behind the single-card estimates (opening hand,
//! prized, all copies prized, seen by turn) and the mulligan distribution.
//!
//! Per setup it only touches the kinds that appear in the dealt positions: for each it
//! records the first position where the player sees it (0 = hand, i = i-th turn draw) and
//! counts "at least c copies prized" for c up to the copies prized. "Seen by turn t" is the
//! cumulative sum of the first-seen histogram, computed when asked. The histograms are
//! position-major (one row of kinds per position or copy count), so the common case of at
//! most 64 kinds indexes fixed rows with no bounds check: 64 cells a row for the prizes, and
//! for first seen 64 plus a spare cell per position, which takes a card whose kind was seen
//! before in the setup (so no two cards of a setup update the same cell).

use super::{EngineDeck, Going, Observer, Setup, SetupView};

/// Per-kind scratch for the setup being observed. Both words carry the setup's stamp in
/// their high bits, so a word left by an earlier setup is smaller than any word of this one:
/// taking a maximum both resets a stale cell and updates a current one, with no branch.
#[derive(Debug, Clone, Copy, Default)]
struct Scratch {
    /// `stamp << 16 | (0xFFFF - first seen position)`: the maximum keeps the earliest.
    seen: u64,
    /// `stamp << 16 | copies prized`.
    prized: u64,
}

const LOW: u64 = 0xFFFF;

/// Row width on the small path (at most 64 kinds): one cell per kind bit.
const SMALL: usize = 64;
/// Row width of the first-seen histogram on the small path: a cell per kind bit, then a
/// spare cell per position, which takes the card of a kind seen earlier in the setup (see
/// [`CountObserver::observe_masks`]).
const SMALL_SEEN: usize = 2 * SMALL;
/// Rows of the prize table on the small path: with at most 255 prizes, every "at least c"
/// row fits, so a masked index needs no bounds check (the rows never touched cost no memory
/// traffic).
const SMALL_PRIZE_ROWS: usize = 256;
/// Cells of the prize table on the small path.
const SMALL_PRIZED: usize = SMALL * SMALL_PRIZE_ROWS;

/// Counts over simulated setups. Build one per thread with [`CountObserver::new`].
#[derive(Debug, Clone)]
pub struct CountObserver {
    rules: Setup,
    turns: usize,
    /// At most 64 kinds (and 255 prizes): the bitmask path applies.
    small: bool,
    copies: Vec<u32>,
    setups: u64,
    /// Setups by number of mulligans.
    mulligans: Vec<u64>,
    /// Cells per row of the histograms: [`SMALL`] on the small path, else the kinds.
    width: usize,
    /// Cells per row of `first_seen`: [`SMALL_SEEN`] on the small path, else the kinds.
    seen_width: usize,
    /// `turns + 2` rows of `seen_width` cells: row `p`, cell `kind` = setups where `kind` was first
    /// seen in hand (`p` = 0) or on draw `p`; the last row takes what no accessor reads (only
    /// prized, on the general path).
    first_seen: Vec<u64>,
    /// Rows of `width` cells: row `c`, cell `kind` = setups with at least `c` copies of
    /// `kind` prized (row 0 unused). `prizes + 1` rows, [`SMALL_PRIZE_ROWS`] on the small path.
    prized: Vec<u64>,
    scratch: Vec<Scratch>,
    /// Kinds touched by this setup: the first `touched_len` entries (one slot per position).
    touched: Vec<u16>,
    touched_len: usize,
    stamp: u32,
}

impl CountObserver {
    /// An empty observer for setups of `deck` with `turns` turn draws.
    pub fn new(deck: &EngineDeck, rules: &Setup, turns: u32) -> CountObserver {
        let small = deck.kinds() <= SMALL && rules.prizes < SMALL_PRIZE_ROWS as u32;
        CountObserver::with_path(deck, rules, turns, small)
    }

    /// An empty observer on the small path (which needs at most 64 kinds and 255 prizes) or
    /// on the general one.
    fn with_path(deck: &EngineDeck, rules: &Setup, turns: u32, small: bool) -> Self {
        let kinds = deck.kinds();
        let turns = turns as usize;
        let width = if small { SMALL } else { kinds };
        let seen_width = if small { SMALL_SEEN } else { kinds };
        let prize_rows = if small {
            SMALL_PRIZE_ROWS
        } else {
            rules.prizes as usize + 1
        };
        CountObserver {
            rules: rules.clone(),
            turns,
            small,
            copies: (0..kinds).map(|kind| deck.copies(kind as u16)).collect(),
            setups: 0,
            mulligans: Vec::new(),
            width,
            seen_width,
            first_seen: vec![0; seen_width * (turns + 2)],
            prized: vec![0; width * prize_rows],
            scratch: vec![Scratch::default(); kinds],
            touched: Vec::new(),
            touched_len: 0,
            stamp: 0,
        }
    }

    /// Setups observed.
    pub fn setups(&self) -> u64 {
        self.setups
    }

    /// Setups by number of mulligans taken: `[0]` kept the first hand.
    pub fn mulligan_distribution(&self) -> &[u64] {
        &self.mulligans
    }

    /// Setups whose kept hand held at least one card of `kind`.
    pub fn opening_hand(&self, kind: u16) -> u64 {
        self.first_seen_row(kind).next().unwrap_or(0)
    }

    /// Setups where the player had seen `kind` (hand or turn draws) by the start of their own
    /// turn `turn` (1-based, after that turn's draw); `None` past the simulated turns.
    pub fn seen_by_turn(&self, kind: u16, turn: u32, going: Going) -> Option<u64> {
        if turn == 0 || turn as usize > self.turns {
            return None;
        }
        let draws = self.rules.draws_by_turn(turn, going) as usize;
        Some(self.first_seen_row(kind).take(draws + 1).sum())
    }

    /// Setups by number of copies of `kind` prized: `[c]` = setups with exactly `c`.
    pub fn prized_distribution(&self, kind: u16) -> Vec<u64> {
        let at_least = self.prized_row(kind);
        let mut out: Vec<u64> = at_least
            .iter()
            .zip(at_least.iter().skip(1).chain([&0]))
            .map(|(c, more)| c.saturating_sub(*more))
            .collect();
        if let Some(none) = out.first_mut() {
            *none = self.setups - at_least.get(1).copied().unwrap_or(0);
        }
        out
    }

    /// Setups with at least one copy of `kind` prized.
    pub fn prized_at_least_one(&self, kind: u16) -> u64 {
        self.prized_row(kind).get(1).copied().unwrap_or(0)
    }

    /// Setups with every copy of `kind` prized (0 when it has no copy or more than the prizes).
    pub fn prized_all(&self, kind: u16) -> u64 {
        let copies = self.copies.get(usize::from(kind)).copied().unwrap_or(0);
        if copies == 0 {
            return 0;
        }
        self.prized_row(kind)
            .get(copies as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Copies of `kind` prized over all setups (for E[#prized]): the sum over c of the setups
    /// with at least c prized.
    pub fn prized_total(&self, kind: u16) -> u64 {
        self.prized_row(kind).iter().skip(1).sum()
    }

    /// The first-seen histogram of `kind`, by position (empty for an unknown kind).
    fn first_seen_row(&self, kind: u16) -> impl Iterator<Item = u64> + '_ {
        self.column(&self.first_seen, self.seen_width, kind, self.turns + 2)
    }

    /// "At least c copies prized" of `kind`, for c from 0 to the prizes (empty for an
    /// unknown kind).
    fn prized_row(&self, kind: u16) -> Vec<u64> {
        let rows = self.rules.prizes as usize + 1;
        self.column(&self.prized, self.width, kind, rows).collect()
    }

    /// Cell `kind` of the first `rows` rows of a histogram whose rows are `width` wide.
    fn column<'a>(
        &self,
        table: &'a [u64],
        width: usize,
        kind: u16,
        rows: usize,
    ) -> impl Iterator<Item = u64> + 'a {
        let kind = usize::from(kind);
        let rows = if kind < self.copies.len() { rows } else { 0 };
        table
            .iter()
            .skip(kind)
            .step_by(width.max(1))
            .take(rows)
            .copied()
    }

    #[inline]
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 setups a stale stamp could match again: clear them all once.
            self.scratch.fill(Scratch::default());
            self.stamp = 1;
        }
    }

    #[inline]
    fn count_mulligans(&mut self, mulligans: u32) {
        let index = mulligans as usize;
        if index >= self.mulligans.len() {
            self.mulligans.resize(index + 1, 0);
        }
        if let Some(cell) = self.mulligans.get_mut(index) {
            *cell += 1;
        }
    }

    /// Moves this setup's scratch into the histograms.
    #[inline(always)]
    fn flush(&mut self) {
        let width = self.width;
        let touched = self.touched.get(..self.touched_len).unwrap_or(&[]);
        for &kind in touched {
            let kind = usize::from(kind);
            let Some(cell) = self.scratch.get(kind) else {
                continue;
            };
            let first_seen = (LOW - (cell.seen & LOW)) as usize;
            bump(&mut self.first_seen, first_seen * self.seen_width + kind);
            for copies in 1..=(cell.prized & LOW) as usize {
                bump(&mut self.prized, copies * width + kind);
            }
        }
        self.touched_len = 0;
    }
}

impl Observer for CountObserver {
    #[inline(always)]
    fn observe(&mut self, view: &SetupView) {
        if self.small {
            self.observe_masks(view);
        } else {
            self.observe_general(view);
        }
        self.count_mulligans(view.mulligans);
        self.setups += 1;
    }

    fn merge(&mut self, other: CountObserver) {
        self.setups += other.setups;
        if other.mulligans.len() > self.mulligans.len() {
            self.mulligans.resize(other.mulligans.len(), 0);
        }
        add_into(&mut self.mulligans, &other.mulligans);
        add_into(&mut self.first_seen, &other.first_seen);
        add_into(&mut self.prized, &other.prized);
    }
}

impl CountObserver {
    /// The general path: per-kind scratch cells, any number of kinds.
    #[inline(always)]
    fn observe_general(&mut self, view: &SetupView) {
        let positions = view.hand.len() + view.prizes.len() + view.draws.len();
        if self.touched.len() < positions {
            self.touched.resize(positions, 0);
        }
        self.next_stamp();
        let never = (self.turns + 1) as u16;
        // Locals, so the compiler keeps them in registers across the loops.
        let mut marks = Marks {
            base: u64::from(self.stamp) << 16,
            scratch: &mut self.scratch,
            touched: &mut self.touched,
            len: 0,
        };
        for &kind in view.hand {
            marks.touch(kind, 0, 0);
        }
        for (&kind, position) in view.draws.iter().take(self.turns).zip(1u16..) {
            marks.touch(kind, position, 0);
        }
        for &kind in view.prizes {
            marks.touch(kind, never, 1);
        }
        self.touched_len = marks.len;
        self.flush();
    }

    /// The fast path for up to 64 kinds: one bit per kind, fixed 64-cell rows and
    /// fixed-length loops over the dealt cards only, so nothing depends on how many kinds a
    /// setup holds and nothing is bounds-checked per card. A card adds 1 to the cell of its
    /// kind in its position's row when its kind was not seen before (else 0); a prized card
    /// bumps "at least c prized" for its c-th copy.
    #[inline(always)]
    fn observe_masks(&mut self, view: &SetupView) {
        let mut seen = 0u64;
        let mut position = 0;
        // A card of a kind already seen in this setup counts in a spare cell of its own
        // position, not in its kind's cell: then no two cards of a setup update one cell,
        // and no update waits for the one before it to be stored.
        let mut mark = |row: &mut [u64; SMALL_SEEN], kind: u16| {
            let kind = usize::from(kind) & (SMALL - 1);
            let bit = 1u64 << kind;
            let cell = if seen & bit == 0 {
                kind
            } else {
                SMALL + (position & (SMALL - 1))
            };
            row[cell] += 1;
            seen |= bit;
            position += 1;
        };
        if let Some((hand, rows)) = self.first_seen.split_first_chunk_mut::<SMALL_SEEN>() {
            each::<7>(view.hand, |kind| mark(hand, kind));
            // Zipped slices: one counter for both (`turns + 1` rows follow the hand's).
            let draws = view.draws.get(..self.turns).unwrap_or(view.draws);
            let (rows, _) = rows.as_chunks_mut::<SMALL_SEEN>();
            for (&kind, row) in draws.iter().zip(rows) {
                mark(row, kind);
            }
        }
        let Some(prized) = self.prized.first_chunk_mut::<SMALL_PRIZED>() else {
            return;
        };
        let mut bump = |row: usize, kind: u16| {
            let kind = usize::from(kind) & (SMALL - 1);
            prized[(row * SMALL + kind) & (SMALL_PRIZED - 1)] += 1;
        };
        // The rulebook's 6 prizes: a card's row is 1 + the earlier prizes of its kind, found
        // by comparing registers (no per-kind scratch to clear and update).
        if let Ok(cards) = <&[u16; 6]>::try_from(view.prizes) {
            for (i, &kind) in cards.iter().enumerate() {
                let earlier = cards[..i].iter().filter(|&&other| other == kind).count();
                bump(1 + earlier, kind);
            }
            return;
        }
        // Per kind, the copies prized so far: its next copy counts in row copies + 1.
        let mut copies = [0u8; SMALL];
        for &kind in view.prizes {
            let slot = usize::from(kind) & (SMALL - 1);
            // At most 255 prizes on this path: the row stays below SMALL_PRIZE_ROWS.
            bump(usize::from(copies[slot]) + 1, kind);
            copies[slot] = copies[slot].wrapping_add(1);
        }
    }
}

/// The scratch of one setup being filled in.
struct Marks<'a> {
    base: u64,
    scratch: &'a mut [Scratch],
    touched: &'a mut [u16],
    len: usize,
}

impl Marks<'_> {
    /// Records that `kind` sits at a position of this setup: seen at `seen` (0 = hand, i =
    /// i-th draw, `turns + 1` = not seen) and `prized` (0 or 1) copies prized. Branch-free,
    /// because whether a kind already appeared in this setup is a coin flip the processor
    /// would mispredict: the first touch appends to `touched` by arithmetic, not by an `if`.
    #[inline(always)]
    fn touch(&mut self, kind: u16, seen: u16, prized: u64) {
        let Some(cell) = self.scratch.get_mut(usize::from(kind)) else {
            return;
        };
        let fresh = cell.seen < self.base;
        cell.seen = cell.seen.max(self.base | (LOW - u64::from(seen)));
        cell.prized = cell.prized.max(self.base) + prized;
        if let Some(slot) = self.touched.get_mut(self.len) {
            *slot = kind;
        }
        self.len += usize::from(fresh);
    }
}

/// Calls `visit` on each card, through a fully unrolled loop when there are `N` of them (the
/// rulebook's hand of 7 and 6 prizes), which drops the loop's counter and compare.
#[inline(always)]
fn each<const N: usize>(cards: &[u16], mut visit: impl FnMut(u16)) {
    match <&[u16; N]>::try_from(cards) {
        Ok(cards) => cards.iter().for_each(|&kind| visit(kind)),
        Err(_) => cards.iter().for_each(|&kind| visit(kind)),
    }
}

#[inline(always)]
fn bump(counts: &mut [u64], index: usize) {
    if let Some(count) = counts.get_mut(index) {
        *count += 1;
    }
}

fn add_into(total: &mut [u64], part: &[u64]) {
    for (total, part) in total.iter_mut().zip(part) {
        *total += part;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Dealer, Kind, chunk_rng};
    use super::*;

    /// Everything a caller can read, for every kind.
    fn summary(counts: &CountObserver, kinds: u16, turns: u32) -> Vec<Vec<u64>> {
        let mut out = vec![
            counts.mulligan_distribution().to_vec(),
            vec![counts.setups()],
        ];
        for kind in 0..kinds + 1 {
            let mut row = vec![
                counts.opening_hand(kind),
                counts.prized_at_least_one(kind),
                counts.prized_all(kind),
                counts.prized_total(kind),
            ];
            row.extend(counts.prized_distribution(kind));
            for turn in 0..turns + 2 {
                for going in [Going::First, Going::Second] {
                    row.extend(counts.seen_by_turn(kind, turn, going));
                }
            }
            out.push(row);
        }
        out
    }

    /// The small path (bit sets, fixed rows, unrolled for 7 cards and 6 prizes) and the
    /// general path count the same setups the same, for the rulebook's sizes and others.
    #[test]
    fn both_paths_count_the_same() {
        let kinds = [
            (4, true),
            (1, true),
            (3, false),
            (2, false),
            (1, false),
            (29, false),
        ];
        let kinds: Vec<_> = kinds
            .iter()
            .map(|&(copies, basic)| Kind { copies, basic })
            .collect();
        let deck = EngineDeck::new(&kinds).unwrap();
        for (hand_size, prizes, turns) in [(7, 6, 4), (5, 3, 2), (8, 0, 0), (1, 9, 6), (7, 6, 9)] {
            let rules = Setup {
                hand_size,
                prizes,
                mulligan_extra_draw: true,
                mutual_mulligans_cancel: true,
                first_player_draws: false,
                ..Setup::default()
            };
            let mut dealer = Dealer::new(&deck, &rules, turns).unwrap();
            let mut small = CountObserver::with_path(&deck, &rules, turns, true);
            let mut general = CountObserver::with_path(&deck, &rules, turns, false);
            let mut rng = chunk_rng(5, u64::from(hand_size));
            for _ in 0..3_000 {
                let view = dealer.deal(&mut rng);
                small.observe(&view);
                general.observe(&view);
            }
            let kinds = kinds.len() as u16;
            assert_eq!(
                summary(&small, kinds, turns),
                summary(&general, kinds, turns),
                "hand {hand_size}, {prizes} prizes, {turns} turns"
            );
            assert!(small.prized_total(0) > 0 || prizes == 0);
        }
    }
}
