//! One sweep over the draws for every window that is the hand plus the first cards drawn:
//! the hand, the cards seen by each turn asked, all read from the same pass.
//!
//! The deck is dealt in batches: the hand, then the draws between one turn asked and the
//! next. Between batches a partial deal is a small fixed-size value: per *group* (the cards
//! that count towards the same terms), how many have been drawn, capped at the largest
//! threshold of its terms, and the *residual* question ([`Residuals`]): what is left of the
//! boolean expression once the terms already decided are replaced by their truth. A term is
//! decided once its count reaches its cap (counts only grow) or its window closes; a group
//! none of whose terms is still open and undecided is merged into the rest of the deck, its
//! count forgotten. Below its cap a group's count is exact, which is all the next batch
//! needs: it draws from each live group's remaining copies and from the rest.
//!
//! States are indexed densely: the counts in mixed radix (one digit per group), one array per
//! residual question and hand (holds a Basic or not), so one pass gives both families. A
//! batch is a small dynamic programme over the live groups with one more digit, the cards
//! placed so far. The counts are the same products of binomials as [`super::joint`]'s (ways
//! to choose each batch's cards), so every ratio is exactly the same.

use std::collections::HashMap;

use super::{Ratio, Space, StatsError, Window, add, mul};

/// Most terms the sweep takes (a residual question is a truth table of 2^8 bits).
pub const SWEEP_TERMS: usize = 8;

/// Entries (states, and a batch's work) the sweep may hold at once: 16 bytes each, so about
/// 32 MB. Past it the caller falls back to [`Space::probability_of`], which has its own
/// bounds.
pub const SWEEP_MAX_ENTRIES: usize = 2_000_000;

/// Transitions one sweep may take: each is a multiply-add of 128-bit counts (a few
/// nanoseconds), so this is well under a second.
pub const SWEEP_MAX_STEPS: u64 = 100_000_000;

/// A question over terms that each count some groups in the hand plus the first cards drawn.
pub struct Sweep<'a> {
    /// Per atom of the space: bit j set when the atom counts towards term j.
    pub masks: &'a [u32],
    /// Per term: counts at or above this compare like this value.
    pub caps: &'a [u32],
    /// Per term: the draws (after the hand) at which its window closes; `None`: it never
    /// closes, each read looks at the cards seen so far.
    pub closes: &'a [Option<u32>],
    /// Whether term j holds for a (capped) count.
    pub holds: &'a dyn Fn(usize, u32) -> bool,
    /// Whether the question holds, given bit j set exactly when term j holds.
    pub truth: &'a dyn Fn(u32) -> bool,
    /// The draws after which to read the answer, ascending.
    pub reads: &'a [u32],
}

/// The answer at one read: kept hand, then single shuffle.
pub type Read = (Ratio, Ratio);

/// A truth table over at most [`SWEEP_TERMS`] bits.
type Table = [u64; 4];

/// The residual questions met so far, interned: what the expression still asks once some
/// terms are decided. Term j is *relevant* to a residual when flipping it can change it.
pub(crate) struct Residuals {
    tables: Vec<Table>,
    index: HashMap<Table, u32>,
    relevant: Vec<u32>,
    /// Per residual, per term and value: the residual once the term is decided.
    moves: Vec<Vec<u32>>,
    terms: usize,
}

const UNKNOWN: u32 = u32::MAX;

fn bit(table: &Table, x: usize) -> bool {
    table.get(x >> 6).is_some_and(|w| w >> (x & 63) & 1 == 1)
}

impl Residuals {
    /// The residuals of `truth` over `terms` terms; the first (id 0) is `truth` itself.
    pub(crate) fn new(terms: usize, truth: &dyn Fn(u32) -> bool) -> Option<Residuals> {
        if terms > SWEEP_TERMS {
            return None;
        }
        let mut table = [0u64; 4];
        for x in 0..1usize << terms {
            if truth(x as u32)
                && let Some(word) = table.get_mut(x >> 6)
            {
                *word |= 1 << (x & 63);
            }
        }
        let mut residuals = Residuals {
            tables: Vec::new(),
            index: HashMap::new(),
            relevant: Vec::new(),
            moves: Vec::new(),
            terms,
        };
        residuals.intern(table);
        Some(residuals)
    }

    fn intern(&mut self, table: Table) -> u32 {
        if let Some(&id) = self.index.get(&table) {
            return id;
        }
        let id = self.tables.len() as u32;
        let size = 1usize << self.terms;
        let relevant = (0..self.terms)
            .filter(|j| (0..size).any(|x| bit(&table, x) != bit(&table, x ^ 1 << j)))
            .fold(0u32, |m, j| m | 1 << j);
        self.tables.push(table);
        self.index.insert(table, id);
        self.relevant.push(relevant);
        self.moves.push(vec![UNKNOWN; 2 * self.terms]);
        id
    }

    /// The terms that can still change residual `id`.
    pub(crate) fn relevant(&self, id: u32) -> u32 {
        self.relevant.get(id as usize).copied().unwrap_or(0)
    }

    /// Whether residual `id` holds when the relevant terms are `bits`.
    pub(crate) fn holds(&self, id: u32, bits: u32) -> bool {
        self.tables
            .get(id as usize)
            .is_some_and(|t| bit(t, (bits & self.relevant(id)) as usize))
    }

    /// Whether residual `id` can never hold.
    pub(crate) fn is_false(&self, id: u32) -> bool {
        self.relevant(id) == 0 && !self.holds(id, 0)
    }

    /// Residual `id` once term `j` is decided to `value`.
    pub(crate) fn decide(&mut self, id: u32, j: usize, value: bool) -> u32 {
        let slot = 2 * j + usize::from(value);
        let known = self
            .moves
            .get(id as usize)
            .and_then(|m| m.get(slot))
            .copied();
        if let Some(next) = known.filter(|&n| n != UNKNOWN) {
            return next;
        }
        let Some(table) = self.tables.get(id as usize).copied() else {
            return id;
        };
        let mut next_table = [0u64; 4];
        for x in 0..1usize << self.terms {
            let set = if value { x | 1 << j } else { x & !(1 << j) };
            if bit(&table, set)
                && let Some(word) = next_table.get_mut(x >> 6)
            {
                *word |= 1 << (x & 63);
            }
        }
        let next = self.intern(next_table);
        if let Some(s) = self
            .moves
            .get_mut(id as usize)
            .and_then(|m| m.get_mut(slot))
        {
            *s = next;
        }
        next
    }
}

/// C(n, k) for n up to a bound and every k, by Pascal's rule; `None` where it overflows.
struct Binomials {
    width: usize,
    rows: Vec<Option<u128>>,
}

impl Binomials {
    fn new(n_max: u32, k_max: u32) -> Binomials {
        let width = k_max as usize + 1;
        let mut rows: Vec<Option<u128>> = Vec::with_capacity((n_max as usize + 1) * width);
        let mut above: Vec<Option<u128>> = vec![Some(0); width];
        for n in 0..=n_max as usize {
            let mut row: Vec<Option<u128>> = vec![Some(0); width];
            for (k, slot) in row.iter_mut().enumerate() {
                *slot = match k {
                    0 => Some(1),
                    _ if k > n => Some(0),
                    _ => {
                        let left: Option<u128> = above.get(k - 1).copied().flatten();
                        let right: Option<u128> = above.get(k).copied().flatten();
                        left.zip(right).and_then(|(a, b)| a.checked_add(b))
                    }
                };
            }
            rows.extend_from_slice(&row);
            above = row;
        }
        Binomials { width, rows }
    }

    fn get(&self, n: u32, k: u32) -> Result<u128, StatsError> {
        if k > n {
            return Ok(0);
        }
        if k as usize >= self.width {
            return super::binomial(n, k);
        }
        let at = n as usize * self.width + k as usize;
        self.rows
            .get(at)
            .copied()
            .flatten()
            .ok_or(StatsError::TooLarge)
    }
}

/// Cards that count towards the same terms.
#[derive(Debug, Clone, Copy)]
struct Group {
    mask: u32,
    copies: u32,
    /// The count that stands for "merged into the rest": min(largest threshold, copies + 1).
    sentinel: u32,
}

/// How the states of one residual question are indexed: a mixed-radix digit per group a
/// relevant term counts; the other groups are merged. Within a batch a digit goes up to the
/// sentinel (radix sentinel + 1); between batches it is below it (radix sentinel), since a
/// group whose count reaches its sentinel has every term decided.
#[derive(Debug, Clone, Default)]
struct Layout {
    /// Per group: its stride within a batch, `None` when merged.
    strides: Vec<Option<usize>>,
    size: usize,
    /// Per group: its stride between batches.
    kept: Vec<Option<usize>>,
    stored: usize,
}

/// Where a batch's cards come from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A fixed number of copies (the hand: nothing is drawn yet), counted in `group`.
    Fixed {
        copies: u32,
        group: Option<usize>,
        basic: bool,
    },
    /// The copies of a live group not drawn yet.
    Group(usize),
    /// The rest of the deck: every card no live group holds.
    Rest,
}

/// The states between batches: per residual, `2 * size` ways (hand without, with a Basic).
type Store = Vec<Option<Vec<u128>>>;

struct Run<'a, 'q> {
    sweep: &'a Sweep<'q>,
    /// Per term: the count from which it can no longer change (at most its cap).
    decided: Vec<u32>,
    groups: Vec<Group>,
    layouts: Vec<Option<Layout>>,
    residuals: Residuals,
    binomials: Binomials,
    budget: u64,
    entries: usize,
    /// Ways to deal the draws so far: Π C(cards left, batch) over the batches.
    dealt: u128,
}

impl Space {
    /// Reads the question after each of `sweep.reads` draws, both families, in one pass.
    pub fn sweep(&self, sweep: &Sweep<'_>) -> Result<Vec<Read>, StatsError> {
        let terms = sweep.caps.len();
        if sweep.closes.len() != terms {
            return Err(StatsError::TooManyTerms { max: SWEEP_TERMS });
        }
        for draws in sweep.closes.iter().flatten().chain(sweep.reads) {
            self.window_size(Window::Seen { draws: *draws })?;
        }
        let mut ends: Vec<u32> = sweep.reads.to_vec();
        ends.extend(sweep.closes.iter().flatten());
        ends.sort_unstable();
        ends.dedup();
        let residuals = Residuals::new(terms, sweep.truth).ok_or(StatsError::TooManyStates)?;
        let widest = ends.windows(2).map(|w| w[1] - w[0]);
        let first = ends.first().copied().unwrap_or(0);
        let k_max = widest.fold(first.max(self.hand_size), u32::max);
        let mut run = Run::new(self, sweep, residuals, k_max);
        let mut store = run.hand(self)?;
        let mut reads = Vec::new();
        let mut done = 0u32;
        for &end in &ends {
            if end > done {
                store = run.draw(self, &store, done, end)?;
                done = end;
            }
            if sweep.reads.contains(&end) {
                reads.push(run.read(self, &store)?);
            }
        }
        Ok(reads)
    }
}

/// The smallest count from which term j's truth no longer changes, up to `cap`.
fn decided_at(holds: &dyn Fn(usize, u32) -> bool, j: usize, cap: u32) -> u32 {
    let last = holds(j, cap);
    let mut at = cap;
    while at > 0 && holds(j, at - 1) == last {
        at -= 1;
    }
    at
}

impl<'a, 'q> Run<'a, 'q> {
    fn new(space: &Space, sweep: &'a Sweep<'q>, residuals: Residuals, k_max: u32) -> Self {
        let decided: Vec<u32> = sweep
            .caps
            .iter()
            .enumerate()
            .map(|(j, cap)| decided_at(sweep.holds, j, *cap))
            .collect();
        let mut groups: Vec<Group> = Vec::new();
        for (atom, mask) in space.atoms.iter().zip(sweep.masks) {
            if *mask == 0 {
                continue;
            }
            match groups.iter_mut().find(|g| g.mask == *mask) {
                Some(group) => group.copies = group.copies.saturating_add(atom.copies),
                None => groups.push(Group {
                    mask: *mask,
                    copies: atom.copies,
                    sentinel: 0,
                }),
            }
        }
        for group in &mut groups {
            let threshold = (0..decided.len())
                .filter(|j| group.mask >> j & 1 == 1)
                .filter_map(|j| decided.get(j).copied())
                .max()
                .unwrap_or(0);
            group.sentinel = threshold.min(group.copies.saturating_add(1));
        }
        Run {
            sweep,
            decided,
            groups,
            layouts: Vec::new(),
            residuals,
            binomials: Binomials::new(space.cards, k_max),
            budget: SWEEP_MAX_STEPS,
            entries: 0,
            dealt: 1,
        }
    }

    /// The layout of residual `id`'s states.
    fn layout(&mut self, id: u32) -> Result<Layout, StatsError> {
        if let Some(Some(layout)) = self.layouts.get(id as usize) {
            return Ok(layout.clone());
        }
        let relevant = self.residuals.relevant(id);
        let (mut size, mut stored) = (1usize, 1usize);
        let mut strides = Vec::with_capacity(self.groups.len());
        let mut kept = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            if group.mask & relevant == 0 {
                strides.push(None);
                kept.push(None);
                continue;
            }
            strides.push(Some(size));
            kept.push(Some(stored));
            let radix = group.sentinel as usize;
            size = size
                .checked_mul(radix + 1)
                .filter(|s| *s <= SWEEP_MAX_ENTRIES)
                .ok_or(StatsError::TooManyStates)?;
            stored = stored.saturating_mul(radix.max(1));
        }
        let layout = Layout {
            strides,
            size,
            kept,
            stored,
        };
        if self.layouts.len() <= id as usize {
            self.layouts.resize(id as usize + 1, None);
        }
        if let Some(slot) = self.layouts.get_mut(id as usize) {
            *slot = Some(layout.clone());
        }
        Ok(layout)
    }

    /// Group `g`'s count in the batch state at `index`; its sentinel when merged.
    fn digit(&self, layout: &Layout, index: usize, g: usize) -> u32 {
        let Some(group) = self.groups.get(g) else {
            return 0;
        };
        match layout.strides.get(g).copied().flatten() {
            Some(stride) => ((index / stride) % (group.sentinel as usize + 1)) as u32,
            None => group.sentinel,
        }
    }

    /// The batch index of the state stored at `index`.
    fn unstore(&self, layout: &Layout, index: usize) -> usize {
        let mut out = 0;
        for (g, group) in self.groups.iter().enumerate() {
            let kept = layout.kept.get(g).copied().flatten();
            let stride = layout.strides.get(g).copied().flatten();
            if let (Some(kept), Some(stride)) = (kept, stride) {
                out += (index / kept) % (group.sentinel as usize).max(1) * stride;
            }
        }
        out
    }

    /// Term counts (capped at their thresholds) of the batch state at `index`, for `which`.
    fn counts(&self, layout: &Layout, index: usize, which: u32) -> [u32; SWEEP_TERMS] {
        let mut counts = [0u32; SWEEP_TERMS];
        for (j, count) in counts.iter_mut().enumerate() {
            if which >> j & 1 == 0 {
                continue;
            }
            let sum = (0..self.groups.len())
                .filter(|&g| self.groups.get(g).is_some_and(|gr| gr.mask >> j & 1 == 1))
                .fold(0u32, |s, g| s.saturating_add(self.digit(layout, index, g)));
            *count = sum.min(self.decided.get(j).copied().unwrap_or(0));
        }
        counts
    }

    fn allocate(&mut self, entries: usize) -> Result<Vec<u128>, StatsError> {
        self.entries = self
            .entries
            .checked_add(entries)
            .filter(|e| *e <= SWEEP_MAX_ENTRIES)
            .ok_or(StatsError::TooManyStates)?;
        Ok(vec![0; entries])
    }

    fn release(&mut self, entries: usize) {
        self.entries = self.entries.saturating_sub(entries);
    }

    /// The hand: every atom's copies, fresh, with whether a Basic landed.
    fn hand(&mut self, space: &Space) -> Result<Store, StatsError> {
        let layout = self.layout(0)?;
        let sources: Vec<Source> = space
            .atoms
            .iter()
            .zip(self.sweep.masks)
            .map(|(atom, mask)| Source::Fixed {
                copies: atom.copies,
                group: self
                    .groups
                    .iter()
                    .position(|g| g.mask == *mask)
                    .filter(|&g| layout.strides.get(g).copied().flatten().is_some()),
                basic: atom.basic,
            })
            .collect();
        let n = space.hand_size;
        let mut work = self.allocate(2 * layout.size * (n as usize + 1))?;
        if let Some(slot) = work.first_mut() {
            *slot = 1;
        }
        let work = self.batch(work, &layout, n, 0, &sources)?;
        let mut store = Store::new();
        self.settle(&work, &layout, n, 0, 0, &mut store)?;
        self.release(work.len());
        Ok(store)
    }

    /// The draws after `from` up to `to`, from every state of `store`.
    fn draw(
        &mut self,
        space: &Space,
        store: &Store,
        from: u32,
        to: u32,
    ) -> Result<Store, StatsError> {
        let n = to - from;
        let left = space.cards - space.hand_size - from;
        self.dealt = mul(self.dealt, self.binomials.get(left, n)?)?;
        let mut next = Store::new();
        for (id, states) in store.iter().enumerate() {
            let Some(states) = states else { continue };
            let layout = self.layout(id as u32)?;
            let mut sources = vec![Source::Rest];
            sources.extend(
                (0..self.groups.len())
                    .filter(|&g| layout.strides.get(g).copied().flatten().is_some())
                    .map(Source::Group),
            );
            let width = n as usize + 1;
            let mut work = self.allocate(2 * layout.size * width)?;
            for (at, ways) in states.iter().enumerate() {
                if *ways == 0 {
                    continue;
                }
                let (flag, index) = (at / layout.stored, at % layout.stored);
                let index = flag * layout.size + self.unstore(&layout, index);
                if let Some(slot) = work.get_mut(index * width) {
                    *slot = *ways;
                }
            }
            let work = self.batch(work, &layout, n, left, &sources)?;
            self.settle(&work, &layout, n, id as u32, to, &mut next)?;
            self.release(work.len());
        }
        for states in store.iter().flatten() {
            self.release(states.len());
        }
        Ok(next)
    }

    /// Places `n` cards from `sources` in turn: `work[(flag·size + index)·(n+1) + placed]`.
    fn batch(
        &mut self,
        mut work: Vec<u128>,
        layout: &Layout,
        n: u32,
        left: u32,
        sources: &[Source],
    ) -> Result<Vec<u128>, StatsError> {
        let width = n as usize + 1;
        let size = layout.size;
        let mut next = self.allocate(work.len())?;
        for source in sources {
            next.iter_mut().for_each(|w| *w = 0);
            for (at, &ways) in work.iter().enumerate() {
                if ways == 0 {
                    continue;
                }
                let (state, placed) = (at / width, (at % width) as u32);
                let (flag, index) = (state / size, state % size);
                let (copies, group, basic) = match *source {
                    Source::Fixed {
                        copies,
                        group,
                        basic,
                    } => (copies, group, basic),
                    Source::Group(g) => {
                        let copies = self.groups.get(g).map_or(0, |gr| gr.copies);
                        let drawn = self.digit(layout, index, g);
                        (copies.saturating_sub(drawn), Some(g), false)
                    }
                    Source::Rest => (self.rest(layout, index, left), None, false),
                };
                let moved = group.and_then(|g| {
                    let stride = layout.strides.get(g).copied().flatten()?;
                    let sentinel = self.groups.get(g)?.sentinel;
                    Some((stride, sentinel, self.digit(layout, index, g)))
                });
                for c in 0..=copies.min(n - placed) {
                    self.budget = self.budget.checked_sub(1).ok_or(StatsError::TooComplex {
                        steps: SWEEP_MAX_STEPS,
                    })?;
                    let to_index = match moved {
                        Some((stride, sentinel, before)) => {
                            let after = (before + c).min(sentinel);
                            index + (after - before) as usize * stride
                        }
                        None => index,
                    };
                    let to_flag = flag | usize::from(basic && c > 0);
                    let to = (to_flag * size + to_index) * width + (placed + c) as usize;
                    let w = mul(ways, self.binomials.get(copies, c)?)?;
                    if let Some(slot) = next.get_mut(to) {
                        *slot = add(*slot, w)?;
                    }
                }
            }
            std::mem::swap(&mut work, &mut next);
        }
        self.release(next.len());
        Ok(work)
    }

    /// Cards of the deck (of `left`) that no live group of the state at `index` holds.
    fn rest(&self, layout: &Layout, index: usize, left: u32) -> u32 {
        let held = (0..self.groups.len())
            .filter(|&g| layout.strides.get(g).copied().flatten().is_some())
            .map(|g| {
                let copies = self.groups.get(g).map_or(0, |gr| gr.copies);
                copies.saturating_sub(self.digit(layout, index, g))
            })
            .fold(0u32, u32::saturating_add);
        left.saturating_sub(held)
    }

    /// Decides the terms that reached their threshold or whose window closes at `end`,
    /// merges the groups nothing counts any more, and adds each full batch's state to
    /// `store`.
    fn settle(
        &mut self,
        work: &[u128],
        layout: &Layout,
        n: u32,
        id: u32,
        end: u32,
        store: &mut Store,
    ) -> Result<(), StatsError> {
        let width = n as usize + 1;
        let closing = (0..self.sweep.closes.len())
            .filter(|&j| self.sweep.closes.get(j) == Some(&Some(end)))
            .fold(0u32, |m, j| m | 1 << j);
        let relevant = self.residuals.relevant(id);
        for state in 0..2 * layout.size {
            let ways = work.get(state * width + n as usize).copied().unwrap_or(0);
            if ways == 0 {
                continue;
            }
            let (flag, index) = (state / layout.size, state % layout.size);
            let counts = self.counts(layout, index, relevant);
            let mut next = id;
            for (j, &count) in counts.iter().enumerate() {
                let decided = self.decided.get(j).copied().unwrap_or(0);
                if relevant >> j & 1 == 1 && (count >= decided || closing >> j & 1 == 1) {
                    next = self.residuals.decide(next, j, (self.sweep.holds)(j, count));
                }
            }
            if self.residuals.is_false(next) {
                continue;
            }
            let target = self.layout(next)?;
            let mut to = 0usize;
            for (g, stride) in target.kept.iter().enumerate() {
                if let Some(stride) = stride {
                    to += self.digit(layout, index, g) as usize * stride;
                }
            }
            let slot = next as usize;
            if store.len() <= slot {
                store.resize(slot + 1, None);
            }
            if store.get(slot).is_some_and(Option::is_none) {
                let states = self.allocate(2 * target.stored)?;
                if let Some(s) = store.get_mut(slot) {
                    *s = Some(states);
                }
            }
            let states = store.get_mut(slot).and_then(Option::as_mut);
            if let Some(w) = states.and_then(|s| s.get_mut(flag * target.stored + to)) {
                *w = add(*w, ways)?;
            }
        }
        Ok(())
    }

    /// The answer after the draws dealt so far: both families.
    fn read(&mut self, space: &Space, store: &Store) -> Result<Read, StatsError> {
        let (mut kept, mut single) = (0u128, 0u128);
        for (id, states) in store.iter().enumerate() {
            let Some(states) = states else { continue };
            let layout = self.layout(id as u32)?;
            let relevant = self.residuals.relevant(id as u32);
            for (state, &ways) in states.iter().enumerate() {
                if ways == 0 {
                    continue;
                }
                let (flag, index) = (state / layout.stored, state % layout.stored);
                let counts = self.counts(&layout, self.unstore(&layout, index), relevant);
                let bits = (0..SWEEP_TERMS)
                    .filter(|&j| relevant >> j & 1 == 1)
                    .filter(|&j| (self.sweep.holds)(j, counts.get(j).copied().unwrap_or(0)))
                    .fold(0u32, |m, j| m | 1 << j);
                if self.residuals.holds(id as u32, bits) {
                    single = add(single, ways)?;
                    if flag == 1 {
                        kept = add(kept, ways)?;
                    }
                }
            }
        }
        let kept_total = mul(space.kept_hands()?, self.dealt)?;
        let hands = self.binomials.get(space.cards, space.hand_size)?;
        let single_total = mul(hands, self.dealt)?;
        let ratio = |sum, total| Ratio::new(sum, total).ok_or(StatsError::TooLarge);
        Ok((ratio(kept, kept_total)?, ratio(single, single_total)?))
    }
}
