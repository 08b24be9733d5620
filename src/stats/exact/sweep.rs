//! One sweep over the draws for every window that is the hand plus the first cards drawn:
//! the hand, the cards seen by each turn asked, all read from the same pass; and the prize
//! window, dealt the same way as one batch.
//!
//! The deck is dealt in batches: the hand (or the prizes), then the draws between one turn
//! asked and the next. Between batches a partial deal is a small fixed-size value: per
//! *group* (the cards that count towards the same terms), how many have been drawn, capped
//! at the largest threshold of its terms, and the *residual* question ([`Residuals`]): what
//! is left of the boolean expression once the terms already decided are replaced by their
//! truth. A term is decided once its count reaches its cap (counts only grow) or its window
//! closes; a group none of whose terms is still open and undecided is merged into the rest
//! of the deck, its count forgotten. Below its cap a group's count is exact, which is all the
//! next batch needs: it draws from each live group's remaining copies and from the rest.
//!
//! A state is packed in one integer (a few bits per live group, the first batch's Basic
//! flag or non-Basic count, the cards placed in the batch) and only the states a deal can
//! reach are held, in one map per residual question: the capped product space is never
//! walked. A batch is a small dynamic programme over the live groups, one source of cards
//! after another. The counts are products of binomials (ways to choose each batch's cards),
//! so every ratio is exact and equal to what the dynamic programme over atoms it replaced
//! gave (kept as the oracle of the tests).

use std::collections::HashMap;
use std::rc::Rc;

use super::{Packed, Ratio, Space, StatsError, Window, add, mul};

/// Most terms the sweep takes (a residual question is a truth table of 2^8 bits).
pub const SWEEP_TERMS: usize = 8;

/// Partial deals (states between batches and a batch's work) the sweep may hold at once:
/// each costs about 40 bytes in its map (a 128-bit key and count, and the table's slack),
/// so this is about 40 MB, 80 MB while a map grows. Past it the question is refused.
pub const SWEEP_MAX_ENTRIES: usize = 1_000_000;

/// Transitions one sweep may take: each is a multiply-add of 128-bit counts into a map
/// (about 30 ns in a release build), so this is about a second of one core.
pub const SWEEP_MAX_STEPS: u64 = 40_000_000;

/// Partial deals a question may need between two batches, by `capped_vectors`' count made
/// before any work: past it the question is refused at once. A deal of the work maps costs
/// about 40 bytes and a batch holds a few times the states between batches, so a question
/// within it stays under 50 MB of memory in all (measured in docs/performance.md).
pub const SWEEP_MAX_STATES: u64 = 60_000;

/// Transitions a question may need by the same count, made before any work (the
/// transitions of each batch, at most the states times the sources of cards times the
/// cards it deals), with no draws: past it, plus [`SWEEP_WORK_PER_DRAW`] for each card drawn
/// after the hand, the question is refused at once. A plain `stats` costs more with each
/// turn it reads too, so this keeps a question within 10 times a plain `stats` over the
/// same turns (measured in docs/performance.md).
pub const SWEEP_MAX_WORK: u64 = 1_000_000;

/// Transitions allowed for each card drawn after the hand, on top of [`SWEEP_MAX_WORK`].
pub const SWEEP_WORK_PER_DRAW: u64 = 200_000;

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

/// What the first batch deals, and what its flag field keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum First {
    /// The hand; the flag is 1 when it holds a Basic.
    Hand,
    /// The prizes, nothing drawn after; the flag is how many of them are not Basic (the
    /// kept hand is then any hand of the other cards that holds a Basic).
    Prizes,
}

/// Bits of a packed state: the live groups' counts, then the flag, then the cards placed
/// in the batch under way.
const DIGIT_BITS: u32 = 96;
const FLAG_SHIFT: u32 = 96;
const PLACED_SHIFT: u32 = 112;
const FIELD_BITS: u32 = 16;

/// Past this many ordered deals the counts are divided by their common divisor.
const REDUCE_ABOVE: u128 = 1 << 64;

fn field(key: u128, shift: u32, width: u32) -> u32 {
    ((key >> shift) & ((1u128 << width) - 1)) as u32
}

fn with_field(key: u128, shift: u32, width: u32, value: u32) -> u128 {
    let mask = ((1u128 << width) - 1) << shift;
    (key & !mask) | (u128::from(value) << shift & mask)
}

/// Where the count of each group lives in the states of one residual question: a few bits
/// per group a relevant term counts; the other groups are merged.
#[derive(Debug, Clone, Default)]
struct Layout {
    /// Per group: its bit offset and width, `None` when merged.
    digits: Vec<Option<(u32, u32)>>,
    /// Per term: the merged groups' sentinels it counts, and the digits of its live groups.
    terms: Vec<(u32, Vec<(u32, u32)>)>,
}

/// Where a batch's cards come from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A fixed number of copies (the first batch: nothing is drawn yet), counted in `group`.
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

/// The states between batches, per residual question.
type Store = Vec<Option<Packed>>;

struct Run<'a, 'q> {
    sweep: &'a Sweep<'q>,
    first: First,
    /// Per term: the count from which it can no longer change (at most its cap).
    decided: Vec<u32>,
    groups: Vec<Group>,
    /// Per term: the groups it counts.
    term_groups: Vec<Vec<usize>>,
    layouts: Vec<Option<Rc<Layout>>>,
    residuals: Residuals,
    binomials: Binomials,
    budget: u64,
    /// States held in the stores.
    stored: usize,
    /// Ways to deal the draws so far: Π C(cards left, batch) over the batches.
    dealt: u128,
}

impl Space {
    /// Reads the question after each of `sweep.reads` draws, both families, in one pass.
    pub fn sweep(&self, sweep: &Sweep<'_>) -> Result<Vec<Read>, StatsError> {
        for draws in sweep.closes.iter().flatten().chain(sweep.reads) {
            self.window_size(Window::Seen { draws: *draws })?;
        }
        let mut ends: Vec<u32> = sweep.reads.to_vec();
        ends.extend(sweep.closes.iter().flatten());
        ends.sort_unstable();
        ends.dedup();
        let widest = ends.windows(2).map(|w| w[1] - w[0]);
        let first = ends.first().copied().unwrap_or(0);
        let k_max = widest.fold(first.max(self.hand_size), u32::max);
        let mut run = Run::new(self, sweep, First::Hand, k_max)?;
        run.within_bounds(self.hand_size, &ends)?;
        let mut store = run.first(self)?;
        let mut reads = Vec::new();
        let mut done = 0u32;
        for &end in &ends {
            if end > done {
                store = run.draw(self, store, done, end)?;
                done = end;
            }
            if sweep.reads.contains(&end) {
                reads.push(run.read(self, &store)?);
            }
        }
        Ok(reads)
    }

    /// The question with every term counting the prizes (`closes` and `reads` are not
    /// read): both families, one batch.
    pub fn sweep_prizes(&self, sweep: &Sweep<'_>) -> Result<Read, StatsError> {
        let closes = vec![Some(0); sweep.caps.len()];
        let prizes = Sweep {
            closes: &closes,
            reads: &[0],
            ..*sweep
        };
        let k_max = self.prizes.max(self.hand_size);
        let mut run = Run::new(self, &prizes, First::Prizes, k_max)?;
        run.within_bounds(self.prizes, &[])?;
        let store = run.first(self)?;
        run.read(self, &store)
    }
}

/// How many ways `cards` cards can leave the groups in a state: each group `(live,
/// reached)` holds a count up to `live`, or has reached its cap `reached` (when that
/// leaves a state: `None` when reaching it settles the question), and the counts (a cap
/// reached counting its cards) sum to at most `cards`. Saturates.
fn capped_vectors(groups: &[(u32, Option<u32>)], cards: u32) -> u64 {
    let width = cards as usize + 1;
    let mut ways = vec![0u64; width];
    if let Some(first) = ways.first_mut() {
        *first = 1;
    }
    for &(live, reached) in groups {
        let mut next = vec![0u64; width];
        for (sum, &count) in ways.iter().enumerate() {
            if count == 0 {
                continue;
            }
            for add in (0..=live).chain(reached) {
                if let Some(slot) = next.get_mut(sum + add as usize) {
                    *slot = slot.saturating_add(count);
                }
            }
        }
        ways = next;
    }
    ways.iter().fold(0u64, |total, &w| total.saturating_add(w))
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
    fn new(
        space: &Space,
        sweep: &'a Sweep<'q>,
        first: First,
        k_max: u32,
    ) -> Result<Self, StatsError> {
        let terms = sweep.caps.len();
        if sweep.closes.len() != terms {
            return Err(StatsError::TooManyTerms { max: SWEEP_TERMS });
        }
        let residuals = Residuals::new(terms, sweep.truth)
            .ok_or(StatsError::TooManyTerms { max: SWEEP_TERMS })?;
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
        let term_groups = (0..terms)
            .map(|j| {
                let counts = |g: &usize| groups.get(*g).is_some_and(|gr| gr.mask >> j & 1 == 1);
                (0..groups.len()).filter(counts).collect()
            })
            .collect();
        Ok(Run {
            sweep,
            first,
            decided,
            groups,
            term_groups,
            layouts: Vec::new(),
            residuals,
            binomials: Binomials::new(space.cards, k_max),
            budget: SWEEP_MAX_STEPS,
            stored: 0,
            dealt: 1,
        })
    }

    /// Refuses, before any work, a question whose partial deals would pass
    /// [`SWEEP_MAX_STATES`] or whose transitions would pass [`SWEEP_MAX_WORK`] (and
    /// [`SWEEP_WORK_PER_DRAW`] for each draw), so nothing
    /// is computed for seconds and then refused ([`SWEEP_MAX_ENTRIES`] and
    /// [`SWEEP_MAX_STEPS`], kept while it runs, stay as a second guard). After a batch every live group's count is below its cap (a count that
    /// reaches it decides its terms), so the states after `first` cards plus `ends[i]`
    /// draws are at most the count vectors of [`capped_vectors`] over that many cards,
    /// twice (the first batch's flag); each state of a batch tries every count of every
    /// live group and of the rest of the deck.
    fn within_bounds(&mut self, first: u32, ends: &[u32]) -> Result<(), StatsError> {
        let mut limits: Vec<(u32, Option<u32>)> = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            // A group whose terms, once decided at its cap, settle the whole question (a
            // term of an `|` that holds) leaves no state behind: it is only ever below it.
            let mut settled = 0;
            for j in (0..self.decided.len()).filter(|j| group.mask >> j & 1 == 1) {
                let at = self.decided.get(j).copied().unwrap_or(0);
                settled = self.residuals.decide(settled, j, (self.sweep.holds)(j, at));
            }
            let live = group.sentinel.saturating_sub(1).min(group.copies);
            let reached = (group.sentinel <= group.copies).then_some(group.sentinel);
            limits.push((
                live,
                reached.filter(|_| self.residuals.relevant(settled) != 0),
            ));
        }
        let sources = self.groups.len() as u64 + 1;
        let mut steps = 0u64;
        let mut before = None;
        for &end in std::iter::once(&0).chain(ends) {
            let batch = match before {
                None => first,
                Some(before) if end > before => end - before,
                Some(_) => continue,
            };
            let states = capped_vectors(&limits, first.saturating_add(end)).saturating_mul(2);
            if states > SWEEP_MAX_STATES {
                return Err(StatsError::TooManyStates {
                    max: SWEEP_MAX_STATES as usize,
                });
            }
            let work = states
                .saturating_mul(sources)
                .saturating_mul(u64::from(batch));
            steps = steps.saturating_add(work);
            before = Some(end);
        }
        let draws = u64::from(ends.iter().copied().max().unwrap_or(0));
        let allowed = SWEEP_MAX_WORK.saturating_add(SWEEP_WORK_PER_DRAW.saturating_mul(draws));
        if steps > allowed {
            return Err(StatsError::TooComplex { steps: allowed });
        }
        Ok(())
    }

    /// The layout of residual `id`'s states.
    fn layout(&mut self, id: u32) -> Result<Rc<Layout>, StatsError> {
        if let Some(Some(layout)) = self.layouts.get(id as usize) {
            return Ok(Rc::clone(layout));
        }
        let relevant = self.residuals.relevant(id);
        let mut shift = 0u32;
        let mut digits = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            if group.mask & relevant == 0 {
                digits.push(None);
                continue;
            }
            let width = u32::BITS - group.sentinel.leading_zeros();
            digits.push(Some((shift, width)));
            shift += width;
            if shift > DIGIT_BITS {
                return Err(StatsError::TooManyStates {
                    max: SWEEP_MAX_ENTRIES,
                });
            }
        }
        let terms = self
            .term_groups
            .iter()
            .map(|groups| {
                let merged = groups
                    .iter()
                    .filter(|&&g| digits.get(g).is_some_and(Option::is_none));
                let sentinel = |g: &usize| self.groups.get(*g).map_or(0, |gr| gr.sentinel);
                let constant = merged.map(sentinel).fold(0u32, u32::saturating_add);
                let live = groups
                    .iter()
                    .filter_map(|&g| digits.get(g).copied().flatten());
                (constant, live.collect())
            })
            .collect();
        let layout = Rc::new(Layout { digits, terms });
        if self.layouts.len() <= id as usize {
            self.layouts.resize(id as usize + 1, None);
        }
        if let Some(slot) = self.layouts.get_mut(id as usize) {
            *slot = Some(Rc::clone(&layout));
        }
        Ok(layout)
    }

    /// Group `g`'s count in the state `key`; its sentinel when merged.
    fn digit(&self, layout: &Layout, key: u128, g: usize) -> u32 {
        match layout.digits.get(g).copied().flatten() {
            Some((shift, width)) => field(key, shift, width),
            None => self.groups.get(g).map_or(0, |gr| gr.sentinel),
        }
    }

    /// Term counts (capped at their thresholds) of the state `key`, for the terms `which`.
    fn counts(&self, layout: &Layout, key: u128, which: u32) -> [u32; SWEEP_TERMS] {
        let mut counts = [0u32; SWEEP_TERMS];
        let terms = counts.iter_mut().zip(&layout.terms).zip(&self.decided);
        for (j, ((count, (constant, live)), decided)) in terms.enumerate() {
            if which >> j & 1 == 0 {
                continue;
            }
            let digits = live.iter().map(|&(shift, width)| field(key, shift, width));
            *count = digits.fold(*constant, u32::saturating_add).min(*decided);
        }
        counts
    }

    fn check_entries(&self, held: usize) -> Result<(), StatsError> {
        match self.stored.checked_add(held) {
            Some(n) if n <= SWEEP_MAX_ENTRIES => Ok(()),
            _ => Err(StatsError::TooManyStates {
                max: SWEEP_MAX_ENTRIES,
            }),
        }
    }

    /// The first batch (the hand or the prizes): every atom's copies, fresh.
    fn first(&mut self, space: &Space) -> Result<Store, StatsError> {
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
                    .filter(|&g| layout.digits.get(g).copied().flatten().is_some()),
                basic: atom.basic,
            })
            .collect();
        let n = match self.first {
            First::Hand => space.hand_size,
            First::Prizes => space.prizes,
        };
        let work = Packed::from_iter([(0u128, 1u128)]);
        let work = self.batch(work, &layout, n, 0, &sources)?;
        let mut store = Store::new();
        self.settle(&work, &layout, 0, 0, &mut store)?;
        Ok(store)
    }

    /// The draws after `from` up to `to`, from every state of `store`.
    fn draw(
        &mut self,
        space: &Space,
        store: Store,
        from: u32,
        to: u32,
    ) -> Result<Store, StatsError> {
        let n = to - from;
        let left = space.cards - space.hand_size - from;
        self.dealt = mul(self.dealt, self.binomials.get(left, n)?)?;
        let mut next = Store::new();
        for (id, states) in store.into_iter().enumerate() {
            let Some(states) = states else { continue };
            let layout = self.layout(id as u32)?;
            let mut sources = vec![Source::Rest];
            sources.extend(
                (0..self.groups.len())
                    .filter(|&g| layout.digits.get(g).copied().flatten().is_some())
                    .map(Source::Group),
            );
            self.stored = self.stored.saturating_sub(states.len());
            let work = self.batch(states, &layout, n, left, &sources)?;
            self.settle(&work, &layout, id as u32, to, &mut next)?;
        }
        if self.dealt > REDUCE_ABOVE {
            self.reduce(&mut next);
        }
        Ok(next)
    }

    /// Divides every count and the deals by their common divisor. The ordered batches
    /// count each set of cards seen once per way to split it into the batches (a factor
    /// that grows with every turn: 29 draws of one card from 53 overflow 128 bits), and
    /// every state's count shares that factor when no window closes in between; the
    /// ratios stay the same.
    fn reduce(&mut self, store: &mut Store) {
        let mut g = self.dealt;
        for ways in store.iter().flatten().flat_map(|states| states.values()) {
            g = super::gcd(g, *ways);
            if g == 1 {
                return;
            }
        }
        for ways in store
            .iter_mut()
            .flatten()
            .flat_map(|states| states.values_mut())
        {
            *ways /= g;
        }
        self.dealt /= g;
    }

    /// Places `n` cards from `sources` in turn; the last source takes what is left. A
    /// batch of one card goes straight to each source's state; a larger one is a dynamic
    /// programme over the sources, one map per source.
    fn batch(
        &mut self,
        mut work: Packed,
        layout: &Layout,
        n: u32,
        left: u32,
        sources: &[Source],
    ) -> Result<Packed, StatsError> {
        if n == 1 {
            let mut next = Packed::with_capacity_and_hasher(work.len() * 2, Default::default());
            for (&key, &ways) in &work {
                self.check_entries(work.len() + next.len())?;
                let rest = self.rest(layout, key, left);
                for source in sources {
                    self.place(&mut next, layout, key, ways, *source, rest, 1, 1)?;
                }
            }
            return Ok(next);
        }
        let last = sources.len().saturating_sub(1);
        for (s, source) in sources.iter().enumerate() {
            let mut next = Packed::with_capacity_and_hasher(work.len(), Default::default());
            for (&key, &ways) in &work {
                self.check_entries(work.len() + next.len())?;
                let room = n - field(key, PLACED_SHIFT, FIELD_BITS);
                let low = if s == last { room } else { 0 };
                let rest = match source {
                    Source::Rest => self.rest(layout, key, left),
                    _ => 0,
                };
                self.place(&mut next, layout, key, ways, *source, rest, low, room)?;
            }
            work = next;
        }
        Ok(work)
    }

    /// Adds to `next` the states of `key` with `low..=high` cards from `source` (`rest`:
    /// the cards of the rest of the deck, when it is the source).
    #[allow(
        clippy::too_many_arguments,
        reason = "one transition's inputs, called in the innermost loop"
    )]
    fn place(
        &mut self,
        next: &mut Packed,
        layout: &Layout,
        key: u128,
        ways: u128,
        source: Source,
        rest: u32,
        low: u32,
        high: u32,
    ) -> Result<(), StatsError> {
        let placed = field(key, PLACED_SHIFT, FIELD_BITS);
        let flag = field(key, FLAG_SHIFT, FIELD_BITS);
        let (copies, group, basic) = match source {
            Source::Fixed {
                copies,
                group,
                basic,
            } => (copies, group, basic),
            Source::Group(g) => {
                let copies = self.groups.get(g).map_or(0, |gr| gr.copies);
                let drawn = self.digit(layout, key, g);
                (copies.saturating_sub(drawn), Some(g), false)
            }
            Source::Rest => (rest, None, false),
        };
        let moved = group.and_then(|g| {
            let (shift, width) = layout.digits.get(g).copied().flatten()?;
            let sentinel = self.groups.get(g)?.sentinel;
            Some((shift, width, sentinel, field(key, shift, width)))
        });
        for c in low..=copies.min(high) {
            self.budget = self.budget.checked_sub(1).ok_or(StatsError::TooComplex {
                steps: SWEEP_MAX_STEPS,
            })?;
            let mut to = with_field(key, PLACED_SHIFT, FIELD_BITS, placed + c);
            if let Some((shift, width, sentinel, before)) = moved {
                to = with_field(to, shift, width, (before + c).min(sentinel));
            }
            let flag = match self.first {
                First::Hand => flag | u32::from(basic && c > 0),
                First::Prizes if basic => flag,
                First::Prizes => flag + c,
            };
            to = with_field(to, FLAG_SHIFT, FIELD_BITS, flag);
            let w = mul(ways, self.binomials.get(copies, c)?)?;
            let slot = next.entry(to).or_insert(0);
            *slot = add(*slot, w)?;
        }
        Ok(())
    }

    /// Cards of the deck (of `left`) that no live group of the state `key` holds.
    fn rest(&self, layout: &Layout, key: u128, left: u32) -> u32 {
        let held = (0..self.groups.len())
            .filter(|&g| layout.digits.get(g).copied().flatten().is_some())
            .map(|g| {
                let copies = self.groups.get(g).map_or(0, |gr| gr.copies);
                copies.saturating_sub(self.digit(layout, key, g))
            })
            .fold(0u32, u32::saturating_add);
        left.saturating_sub(held)
    }

    /// Decides the terms that reached their threshold or whose window closes at `end`,
    /// merges the groups nothing counts any more, and adds each full batch's state to
    /// `store`.
    fn settle(
        &mut self,
        work: &Packed,
        layout: &Layout,
        id: u32,
        end: u32,
        store: &mut Store,
    ) -> Result<(), StatsError> {
        let closing = (0..self.sweep.closes.len())
            .filter(|&j| self.sweep.closes.get(j) == Some(&Some(end)))
            .fold(0u32, |m, j| m | 1 << j);
        let relevant = self.residuals.relevant(id);
        for (&key, &ways) in work {
            let counts = self.counts(layout, key, relevant);
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
            let to = if next == id {
                // Nothing decided: the same layout, every live count below its cap.
                with_field(key, PLACED_SHIFT, FIELD_BITS, 0)
            } else {
                let target = self.layout(next)?;
                let flag = field(key, FLAG_SHIFT, FIELD_BITS);
                let mut to = with_field(0, FLAG_SHIFT, FIELD_BITS, flag);
                for (g, digit) in target.digits.iter().enumerate() {
                    if let Some((shift, width)) = digit {
                        to = with_field(to, *shift, *width, self.digit(layout, key, g));
                    }
                }
                to
            };
            let slot = next as usize;
            if store.len() <= slot {
                store.resize(slot + 1, None);
            }
            let Some(states) = store.get_mut(slot) else {
                continue;
            };
            let states = states.get_or_insert_with(Packed::default);
            let before = states.len();
            let w = states.entry(to).or_insert(0);
            *w = add(*w, ways)?;
            if states.len() > before {
                self.stored += 1;
                self.check_entries(0)?;
            }
        }
        Ok(())
    }

    /// The answer after the cards dealt so far: both families.
    fn read(&mut self, space: &Space, store: &Store) -> Result<Read, StatsError> {
        let (mut kept, mut single) = (0u128, 0u128);
        for (id, states) in store.iter().enumerate() {
            let Some(states) = states else { continue };
            let layout = self.layout(id as u32)?;
            let relevant = self.residuals.relevant(id as u32);
            for (&key, &ways) in states {
                let counts = self.counts(&layout, key, relevant);
                let bits = (0..SWEEP_TERMS)
                    .filter(|&j| relevant >> j & 1 == 1)
                    .filter(|&j| (self.sweep.holds)(j, counts.get(j).copied().unwrap_or(0)))
                    .fold(0u32, |m, j| m | 1 << j);
                if !self.residuals.holds(id as u32, bits) {
                    continue;
                }
                single = add(single, ways)?;
                let flag = field(key, FLAG_SHIFT, FIELD_BITS);
                kept = add(kept, self.kept_ways(space, flag, ways)?)?;
            }
        }
        let (kept_total, single_total) = self.totals(space)?;
        let ratio = |sum, total| Ratio::new(sum, total).ok_or(StatsError::TooLarge);
        Ok((ratio(kept, kept_total)?, ratio(single, single_total)?))
    }

    /// The deals of `ways` that keep their hand: those whose hand holds a Basic; after the
    /// prizes, `ways` times the hands of the other cards that hold one.
    fn kept_ways(&self, space: &Space, flag: u32, ways: u128) -> Result<u128, StatsError> {
        match self.first {
            First::Hand => Ok(if flag == 1 { ways } else { 0 }),
            First::Prizes => {
                let h = space.hand_size;
                let rest = self.binomials.get(space.cards - space.prizes, h)?;
                let bad = self
                    .binomials
                    .get(space.non_basic.saturating_sub(flag), h)?;
                mul(ways, rest - bad)
            }
        }
    }

    /// Equally likely deals: kept hand, one shuffle.
    fn totals(&self, space: &Space) -> Result<(u128, u128), StatsError> {
        let kept = space.kept_hands()?;
        match self.first {
            First::Hand => {
                let hands = self.binomials.get(space.cards, space.hand_size)?;
                Ok((mul(kept, self.dealt)?, mul(hands, self.dealt)?))
            }
            First::Prizes => {
                let prizes = self
                    .binomials
                    .get(space.cards - space.hand_size, space.prizes)?;
                let all = self.binomials.get(space.cards, space.prizes)?;
                Ok((mul(kept, prizes)?, all))
            }
        }
    }
}
