//! The built-in observer: per-kind counts behind the single-card estimates (opening hand,
//! prized, all copies prized, seen by turn) and the mulligan distribution.
//!
//! Per setup it only touches the kinds that appear in the dealt positions: for each it
//! records the first position where the player sees it (0 = hand, i = i-th turn draw) and
//! counts "at least c copies prized" for c up to the copies prized. "Seen by turn t" is the
//! cumulative sum of the first-seen histogram, computed when asked.

use super::{EngineDeck, Going, Observer, SetupRules, SetupView};

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

/// Counts over simulated setups. Build one per thread with [`CountObserver::new`].
#[derive(Debug, Clone)]
pub struct CountObserver {
    rules: SetupRules,
    turns: usize,
    /// At most 64 kinds (and 255 prizes): the bitmask path applies.
    small: bool,
    copies: Vec<u32>,
    setups: u64,
    /// Setups by number of mulligans.
    mulligans: Vec<u64>,
    /// Per kind, `turns + 2` cells: first seen in hand (0), on draw i (i); the last cell
    /// takes what no accessor reads (seen again, or only prized).
    first_seen: Vec<u64>,
    /// Per kind, `prizes + 1` cells: `[c]` = setups with at least `c` copies prized (cell 0
    /// unused).
    prized: Vec<u64>,
    scratch: Vec<Scratch>,
    /// Kinds touched by this setup: the first `touched_len` entries (one slot per position).
    touched: Vec<u16>,
    touched_len: usize,
    stamp: u32,
}

impl CountObserver {
    /// An empty observer for setups of `deck` with `turns` turn draws.
    pub fn new(deck: &EngineDeck, rules: &SetupRules, turns: u32) -> CountObserver {
        let kinds = deck.kinds();
        let turns = turns as usize;
        CountObserver {
            rules: *rules,
            turns,
            small: kinds <= 64 && rules.prizes <= 255,
            copies: (0..kinds).map(|kind| deck.copies(kind as u16)).collect(),
            setups: 0,
            mulligans: Vec::new(),
            first_seen: vec![0; kinds * (turns + 2)],
            prized: vec![0; kinds * (rules.prizes as usize + 1)],
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

    /// Mulligans taken over all setups (for E[mulligans]).
    pub fn mulligans_total(&self) -> u64 {
        (0u64..).zip(&self.mulligans).map(|(m, n)| m * n).sum()
    }

    /// Setups whose kept hand held at least one card of `kind`.
    pub fn opening_hand(&self, kind: u16) -> u64 {
        self.first_seen_row(kind).first().copied().unwrap_or(0)
    }

    /// Setups where the player had seen `kind` (hand or turn draws) by the start of their own
    /// turn `turn` (1-based, after that turn's draw); `None` past the simulated turns.
    pub fn seen_by_turn(&self, kind: u16, turn: u32, going: Going) -> Option<u64> {
        if turn == 0 || turn as usize > self.turns {
            return None;
        }
        let draws = self.rules.draws_by_turn(turn, going) as usize;
        Some(self.first_seen_row(kind).iter().take(draws + 1).sum())
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

    fn first_seen_row(&self, kind: u16) -> &[u64] {
        let stride = self.turns + 2;
        let start = usize::from(kind) * stride;
        self.first_seen.get(start..start + stride).unwrap_or(&[])
    }

    fn prized_row(&self, kind: u16) -> &[u64] {
        let stride = self.rules.prizes as usize + 1;
        let start = usize::from(kind) * stride;
        self.prized.get(start..start + stride).unwrap_or(&[])
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
        let seen_stride = self.turns + 2;
        let prized_stride = self.rules.prizes as usize + 1;
        let touched = self.touched.get(..self.touched_len).unwrap_or(&[]);
        for &kind in touched {
            let kind = usize::from(kind);
            let Some(cell) = self.scratch.get(kind) else {
                continue;
            };
            let first_seen = (LOW - (cell.seen & LOW)) as usize;
            let seen = kind * seen_stride + first_seen;
            if let Some(count) = self.first_seen.get_mut(seen) {
                *count += 1;
            }
            let row = kind * prized_stride;
            for copies in 1..=(cell.prized & LOW) as usize {
                bump(&mut self.prized, row + copies);
            }
        }
        self.touched_len = 0;
    }
}

impl Observer for CountObserver {
    #[inline]
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

    /// The fast path for up to 64 kinds: one bit per kind, and fixed-length loops over the
    /// dealt cards only, so nothing depends on how many kinds a setup holds. A card bumps the
    /// cell of its position when its kind was not seen before (else the unused last cell); a
    /// prized card bumps "at least c prized" for its c-th copy.
    #[inline(always)]
    fn observe_masks(&mut self, view: &SetupView) {
        let bit = |kind: u16| 1u64 << (kind & 63);
        let seen_stride = self.turns + 2;
        let trash = self.turns + 1;
        let mut seen = 0u64;
        let mut mark = |kind: u16, position: usize| {
            let new = bit(kind) & !seen != 0;
            seen |= bit(kind);
            let cell = if new { position } else { trash };
            bump(&mut self.first_seen, usize::from(kind) * seen_stride + cell);
        };
        for &kind in view.hand {
            mark(kind, 0);
        }
        for (&kind, position) in view.draws.iter().take(self.turns).zip(1usize..) {
            mark(kind, position);
        }
        let prized_stride = self.rules.prizes as usize + 1;
        let mut copies = [0u8; 64];
        for &kind in view.prizes {
            let slot = &mut copies[usize::from(kind & 63)];
            *slot += 1;
            bump(
                &mut self.prized,
                usize::from(kind) * prized_stride + usize::from(*slot),
            );
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
