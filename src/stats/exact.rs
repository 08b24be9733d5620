//! Exact opening-hand odds in integer arithmetic: every probability is a ratio of two
//! `u128` counts of equally likely deals, reduced and turned into `f64` only at the end.
//!
//! The deck is split into *atoms* (groups of cards a question cannot tell apart, each
//! Basic or not) and a question is a function of how many cards of each atom land in a
//! window: the hand, the prizes, or the cards seen by a turn. Two families of answers, never
//! mixed: [`Family::Kept`] conditions on the kept hand holding a Basic Pokémon (what a
//! player holds after mulligans), [`Family::SingleShuffle`] is the plain hypergeometric of
//! one shuffle (what web calculators print). Counts that would overflow `u128` and
//! enumerations past a fixed budget are errors, never wrong numbers or panics. This module
//! knows nothing of card names, the query syntax or output.

#[cfg(test)]
pub(crate) mod joint;
mod sweep;

pub(crate) use sweep::Residuals;
pub use sweep::{
    Read, SWEEP_MAX_ENTRIES, SWEEP_MAX_STATES, SWEEP_MAX_STEPS, SWEEP_MAX_WORK,
    SWEEP_WORK_PER_DRAW, Sweep,
};

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::formats::{Going, Setup};

/// One card kind of a deck: all printings of one name, merged by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindShape {
    pub copies: u32,
    pub basic: bool,
}

/// What exact statistics need to know of a deck: its kinds, in the caller's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckShape {
    pub kinds: Vec<KindShape>,
}

impl DeckShape {
    pub fn new(kinds: impl IntoIterator<Item = (u32, bool)>) -> DeckShape {
        let kinds = kinds
            .into_iter()
            .map(|(copies, basic)| KindShape { copies, basic })
            .collect();
        DeckShape { kinds }
    }

    /// Cards in the deck (saturating: a hostile count cannot wrap).
    pub fn cards(&self) -> u32 {
        self.kinds
            .iter()
            .fold(0u32, |a, k| a.saturating_add(k.copies))
    }

    /// Basic Pokémon in the deck.
    pub fn basics(&self) -> u32 {
        let basic = self.kinds.iter().filter(|k| k.basic);
        basic.fold(0u32, |a, k| a.saturating_add(k.copies))
    }
}

/// Which cards a question looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// The opening hand.
    Hand,
    /// The prize cards.
    Prizes,
    /// The hand plus the next `draws` cards drawn.
    Seen { draws: u32 },
}

/// The two families of answers (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Kept,
    SingleShuffle,
}

/// Why exact odds could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatsError {
    #[error("the deck has no Basic Pokémon, so every hand is a mulligan")]
    NoBasic,
    #[error("the deck has {cards} cards; this needs {needed}")]
    TooFewCards { cards: u32, needed: u64 },
    #[error("the deck is too large for exact statistics (a count overflows 128 bits)")]
    TooLarge,
    #[error(
        "the question has too many combinations to compute exactly (more than {steps} steps); ask about fewer distinct turns or fewer terms"
    )]
    TooComplex { steps: u64 },
    #[error(
        "the question has too many combinations to compute exactly (more than {max} partial deals at once); ask about fewer distinct turns or fewer terms"
    )]
    TooManyStates { max: usize },
    #[error("the question has more terms than exact odds take ({max})")]
    TooManyTerms { max: usize },
    #[error("card kind {index} is not in the deck")]
    UnknownKind { index: usize },
    #[error(
        "the deck has {cards} cards, too large: statistics, samples and odds take at most {max}"
    )]
    DeckTooLarge { cards: u64, max: u64 },
}

/// An exact probability or expectation: `num / den`, reduced, `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    num: u128,
    den: u128,
}

impl Ratio {
    /// `None` when `den` is zero.
    pub fn new(num: u128, den: u128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        Some(Ratio {
            num: num / g,
            den: den / g,
        })
    }

    pub fn numer(self) -> u128 {
        self.num
    }

    pub fn denom(self) -> u128 {
        self.den
    }

    /// The nearest-ish `f64`: two roundings and one division, relative error below 4e-16.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// The exact value as reports print it: `num/den`, reduced (`1/1`, never `1`).
impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// C(n, k) exactly, or `TooLarge`. Each step is the exact binomial C(n-k+i, i).
pub fn binomial(n: u32, k: u32) -> Result<u128, StatsError> {
    if k > n {
        return Ok(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 1..=u128::from(k) {
        let factor = u128::from(n - k) + i;
        r = r.checked_mul(factor).ok_or(StatsError::TooLarge)? / i;
    }
    Ok(r)
}

fn mul(a: u128, b: u128) -> Result<u128, StatsError> {
    a.checked_mul(b).ok_or(StatsError::TooLarge)
}

fn add(a: u128, b: u128) -> Result<u128, StatsError> {
    a.checked_add(b).ok_or(StatsError::TooLarge)
}

/// Partial deals by packed state, hashed by a multiply of the key's two halves (the keys
/// are plain integers: no allocation and no byte-wise hashing per transition).
pub(crate) type Packed = HashMap<u128, u128, BuildHasherDefault<KeyHasher>>;

#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn write_u128(&mut self, n: u128) {
        let mixed = (n as u64) ^ ((n >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (self.0 ^ mixed)
            .wrapping_mul(0x517c_c1b7_2722_0a95)
            .rotate_left(26);
    }
}

/// Cards a question cannot tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Atom {
    pub copies: u32,
    pub basic: bool,
}

/// Steps one exact value may take: leaves and inner steps of an enumeration, transitions of
/// a dynamic programme (here and in [`super::midgame`]). A transition of the programmes costs
/// about 0.5 µs in a release build (it copies and hashes its state), so this is about 2 s of
/// one core at worst; an event asks for two values (kept hand, one shuffle). Measured in
/// docs/performance.md, "Bounds on exact odds".
pub const MAX_STEPS: u64 = 4_000_000;

/// Partial deals a dynamic programme may hold at once (the states of one step). Each costs
/// about 200 bytes with its key and its table slot, and two steps are alive at a time, so
/// this bounds the programme's memory near 200 MB.
pub const MAX_STATES: usize = 500_000;

/// Leaves (and inner steps) one enumeration may visit: an enumeration step costs a few
/// nanoseconds, so this is under a second at worst.
const ENUMERATION_BUDGET: u64 = 50_000_000;

/// A deck split into atoms, with the rules that say how big each window is.
#[derive(Debug, Clone)]
pub struct Space {
    atoms: Vec<Atom>,
    cards: u32,
    non_basic: u32,
    hand_size: u32,
    prizes: u32,
}

impl Space {
    /// Checks what every window needs: a Basic, and room for the hand and the prizes.
    pub fn new(atoms: Vec<Atom>, rules: &Setup) -> Result<Space, StatsError> {
        let total = atoms.iter().map(|a| u64::from(a.copies)).sum::<u64>();
        let basics = atoms
            .iter()
            .filter(|a| a.basic)
            .map(|a| u64::from(a.copies));
        let basics = basics.sum::<u64>();
        let cards = u32::try_from(total).map_err(|_| StatsError::TooLarge)?;
        let needed = u64::from(rules.hand_size) + u64::from(rules.prizes);
        if total < needed {
            return Err(StatsError::TooFewCards { cards, needed });
        }
        if basics == 0 {
            return Err(StatsError::NoBasic);
        }
        let non_basic = cards - basics as u32;
        Ok(Space {
            atoms,
            cards,
            non_basic,
            hand_size: rules.hand_size,
            prizes: rules.prizes,
        })
    }

    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// Probability that a hand has no Basic Pokémon: C(N−n, H) / C(N, H).
    pub fn mulligan(&self) -> Result<Ratio, StatsError> {
        let all = binomial(self.cards, self.hand_size)?;
        let bad = binomial(self.non_basic, self.hand_size)?;
        Ratio::new(bad, all).ok_or(StatsError::TooLarge)
    }

    /// E\[mulligans\] = q / (1 − q) = C(N−n, H) / (C(N, H) − C(N−n, H)).
    pub fn expected_mulligans(&self) -> Result<Ratio, StatsError> {
        let all = binomial(self.cards, self.hand_size)?;
        let bad = binomial(self.non_basic, self.hand_size)?;
        Ratio::new(bad, all - bad).ok_or(StatsError::NoBasic)
    }

    /// Cards in the window; the seen window may not reach into the prizes.
    fn window_size(&self, window: Window) -> Result<u32, StatsError> {
        let (h, p) = (self.hand_size, self.prizes);
        match window {
            Window::Hand => Ok(h),
            Window::Prizes => Ok(p),
            Window::Seen { draws } => {
                let needed = u64::from(h) + u64::from(p) + u64::from(draws);
                if needed > u64::from(self.cards) {
                    return Err(StatsError::TooFewCards {
                        cards: self.cards,
                        needed,
                    });
                }
                Ok(h + draws)
            }
        }
    }

    /// Kept hands: C(N, H) − C(N−n, H).
    fn kept_hands(&self) -> Result<u128, StatsError> {
        let h = self.hand_size;
        Ok(binomial(self.cards, h)? - binomial(self.non_basic, h)?)
    }

    /// The number of equally likely outcomes the weights of [`Space::weight`] add up to.
    fn total(&self, window: Window, family: Family) -> Result<u128, StatsError> {
        let (n, h) = (self.cards, self.hand_size);
        let m = self.window_size(window)?;
        match (family, window) {
            (Family::SingleShuffle, _) => binomial(n, m),
            (Family::Kept, Window::Hand) => self.kept_hands(),
            (Family::Kept, Window::Prizes) => mul(self.kept_hands()?, binomial(n - h, m)?),
            (Family::Kept, Window::Seen { draws }) => {
                mul(self.kept_hands()?, binomial(n - h, draws)?)
            }
        }
    }

    /// How many outcomes put a given set of window cards, `non_basic` of them not Basic,
    /// in the window: `mult` ways to pick those cards times the ways to complete the deal.
    /// Kept seen: the hand is any H of the m seen cards that holds a Basic. Kept prizes: the
    /// hand is any H of the N−P other cards that holds a Basic.
    fn weight(
        &self,
        window: Window,
        family: Family,
        non_basic: u32,
        mult: u128,
    ) -> Result<u128, StatsError> {
        let h = self.hand_size;
        match (family, window) {
            (Family::SingleShuffle, _) => Ok(mult),
            (Family::Kept, Window::Hand) => Ok(if non_basic < h { mult } else { 0 }),
            (Family::Kept, Window::Seen { draws }) => {
                let hands = binomial(h + draws, h)? - binomial(non_basic, h)?;
                mul(mult, hands)
            }
            (Family::Kept, Window::Prizes) => {
                let rest = self.cards - self.prizes;
                let hands = binomial(rest, h)? - binomial(self.non_basic - non_basic, h)?;
                mul(mult, hands)
            }
        }
    }

    fn non_basic_in(&self, comp: &[u32]) -> u32 {
        let atoms = self.atoms.iter().zip(comp);
        atoms.filter(|(a, _)| !a.basic).map(|(_, c)| *c).sum()
    }

    /// Σ value(comp) · P(comp in the window), exactly. `value` returns 0 or 1 for a
    /// probability, a count for an expectation.
    pub fn expect(
        &self,
        window: Window,
        family: Family,
        mut value: impl FnMut(&[u32]) -> u128,
    ) -> Result<Ratio, StatsError> {
        let m = self.window_size(window)?;
        let total = self.total(window, family)?;
        let mut sum: u128 = 0;
        self.compositions(m, &mut |comp, mult| {
            let v = value(comp);
            if v != 0 {
                let weight = self.weight(window, family, self.non_basic_in(comp), mult)?;
                sum = add(sum, mul(v, weight)?)?;
            }
            Ok(())
        })?;
        Ratio::new(sum, total).ok_or(StatsError::TooLarge)
    }

    /// Probability that `event` holds for the window's composition.
    pub fn probability(
        &self,
        window: Window,
        family: Family,
        mut event: impl FnMut(&[u32]) -> bool,
    ) -> Result<Ratio, StatsError> {
        self.expect(window, family, |comp| u128::from(event(comp)))
    }

    /// Calls `f` once per way to split `m` cards over the atoms, with Π C(Kᵢ, cᵢ).
    fn compositions(&self, m: u32, f: &mut Visit<'_>) -> Result<(), StatsError> {
        // room[i]: cards in atoms i.. (prunes splits that cannot be completed).
        let mut room = vec![0u32; self.atoms.len() + 1];
        for i in (0..self.atoms.len()).rev() {
            let copies = self.atoms.get(i).map_or(0, |a| a.copies);
            let next = room.get(i + 1).copied().unwrap_or(0);
            if let Some(r) = room.get_mut(i) {
                *r = next.saturating_add(copies);
            }
        }
        let mut walk = Walk {
            atoms: &self.atoms,
            room: &room,
            comp: vec![0; self.atoms.len()],
            budget: ENUMERATION_BUDGET,
            f,
        };
        walk.step(0, m, 1)
    }
}

/// Called with one composition and the ways to pick it.
type Visit<'a> = dyn FnMut(&[u32], u128) -> Result<(), StatsError> + 'a;

/// The state of one enumeration of compositions.
struct Walk<'a, 'f> {
    atoms: &'a [Atom],
    room: &'a [u32],
    comp: Vec<u32>,
    budget: u64,
    f: &'f mut Visit<'a>,
}

impl Walk<'_, '_> {
    fn step(&mut self, i: usize, left: u32, mult: u128) -> Result<(), StatsError> {
        self.budget = self.budget.checked_sub(1).ok_or(StatsError::TooComplex {
            steps: ENUMERATION_BUDGET,
        })?;
        if self.room.get(i).copied().unwrap_or(0) < left {
            return Ok(());
        }
        let Some(atom) = self.atoms.get(i).copied() else {
            return (self.f)(&self.comp, mult);
        };
        for c in 0..=atom.copies.min(left) {
            let mult = mul(mult, binomial(atom.copies, c)?)?;
            if let Some(slot) = self.comp.get_mut(i) {
                *slot = c;
            }
            self.step(i + 1, left - c, mult)?;
        }
        if let Some(slot) = self.comp.get_mut(i) {
            *slot = 0;
        }
        Ok(())
    }
}

/// Exact odds of one card kind, all kept-hand unless named single shuffle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindOdds {
    pub opening_hand: Ratio,
    pub opening_hand_single_shuffle: Ratio,
    pub prized_at_least_one: Ratio,
    pub prized_at_least_one_single_shuffle: Ratio,
    pub prized_all: Ratio,
    pub prized_all_single_shuffle: Ratio,
    pub prized_expected: Ratio,
    pub prized_expected_single_shuffle: Ratio,
    /// P(at least one seen by own turn t), t = 1..=turns.
    pub by_turn: Vec<Ratio>,
    pub by_turn_single_shuffle: Vec<Ratio>,
}

/// The deck seen by a question about kind `index`: that kind, the other Basics, the rest.
pub fn kind_space(shape: &DeckShape, index: usize, rules: &Setup) -> Result<Space, StatsError> {
    let kind = shape
        .kinds
        .get(index)
        .ok_or(StatsError::UnknownKind { index })?;
    let (cards, basics) = (shape.cards(), shape.basics());
    let own_basic = if kind.basic { kind.copies } else { 0 };
    let own_other = kind.copies.saturating_sub(own_basic);
    let atoms = vec![
        Atom {
            copies: kind.copies,
            basic: kind.basic,
        },
        Atom {
            copies: basics.saturating_sub(own_basic),
            basic: true,
        },
        Atom {
            copies: cards.saturating_sub(basics).saturating_sub(own_other),
            basic: false,
        },
    ];
    Space::new(atoms, rules)
}

/// Every per-kind figure of the report, exactly.
pub fn kind_odds(
    shape: &DeckShape,
    index: usize,
    rules: &Setup,
    turns: u32,
    going: Going,
) -> Result<KindOdds, StatsError> {
    let space = kind_space(shape, index, rules)?;
    let copies = space.atoms().first().map_or(0, |a| a.copies);
    let own = |comp: &[u32]| comp.first().copied().unwrap_or(0);
    let any = |comp: &[u32]| own(comp) >= 1;
    let all = |comp: &[u32]| copies > 0 && own(comp) == copies;
    let count = |comp: &[u32]| u128::from(own(comp));
    use Family::{Kept, SingleShuffle as One};
    let curve = |family| -> Result<Vec<Ratio>, StatsError> {
        (1..=turns)
            .map(|t| {
                let draws = rules.draws_by_turn(t, going);
                space.probability(Window::Seen { draws }, family, any)
            })
            .collect()
    };
    Ok(KindOdds {
        opening_hand: space.probability(Window::Hand, Kept, any)?,
        opening_hand_single_shuffle: space.probability(Window::Hand, One, any)?,
        prized_at_least_one: space.probability(Window::Prizes, Kept, any)?,
        prized_at_least_one_single_shuffle: space.probability(Window::Prizes, One, any)?,
        prized_all: space.probability(Window::Prizes, Kept, all)?,
        prized_all_single_shuffle: space.probability(Window::Prizes, One, all)?,
        prized_expected: space.expect(Window::Prizes, Kept, count)?,
        prized_expected_single_shuffle: space.expect(Window::Prizes, One, count)?,
        by_turn: curve(Kept)?,
        by_turn_single_shuffle: curve(One)?,
    })
}

/// P(exactly j copies of kind `index` in the window), j = 0..=copies.
pub fn count_distribution(
    shape: &DeckShape,
    index: usize,
    rules: &Setup,
    window: Window,
    family: Family,
) -> Result<Vec<Ratio>, StatsError> {
    let space = kind_space(shape, index, rules)?;
    let copies = space.atoms().first().map_or(0, |a| a.copies);
    (0..=copies)
        .map(|j| space.probability(window, family, |c| c.first() == Some(&j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Setup {
        Setup::default()
    }

    #[test]
    fn binomials_are_exact_and_overflow_is_an_error() {
        assert_eq!(binomial(60, 7).unwrap(), 386_206_920);
        assert_eq!(binomial(60, 30).unwrap(), 118_264_581_564_861_424);
        assert_eq!(binomial(5, 6).unwrap(), 0);
        assert_eq!(binomial(1000, 500), Err(StatsError::TooLarge));
    }

    #[test]
    fn mulligan_at_ten_basics_is_the_published_rational() {
        let shape = DeckShape::new([(10, true), (50, false)]);
        let space = kind_space(&shape, 0, &rules()).unwrap();
        let q = space.mulligan().unwrap();
        assert_eq!((q.numer(), q.denom()), (75_670, 292_581));
    }

    #[test]
    fn no_basic_and_too_few_cards_are_errors() {
        let shape = DeckShape::new([(60, false)]);
        assert_eq!(
            kind_space(&shape, 0, &rules()).err(),
            Some(StatsError::NoBasic)
        );
        let shape = DeckShape::new([(10, true)]);
        let err = kind_space(&shape, 0, &rules()).err();
        assert_eq!(
            err,
            Some(StatsError::TooFewCards {
                cards: 10,
                needed: 13
            })
        );
        let err = kind_space(&shape, 3, &rules()).err();
        assert_eq!(err, Some(StatsError::UnknownKind { index: 3 }));
    }

    #[test]
    fn seen_window_may_not_reach_the_prizes() {
        let shape = DeckShape::new([(10, true), (50, false)]);
        let odds = kind_odds(&shape, 0, &rules(), 48, Going::Second);
        assert!(matches!(odds, Err(StatsError::TooFewCards { .. })));
        assert!(kind_odds(&shape, 0, &rules(), 47, Going::Second).is_ok());
    }

    #[test]
    fn first_player_skipping_the_draw_shifts_the_curve() {
        let mut r = rules();
        assert_eq!(r.draws_by_turn(1, Going::First), 1);
        r.first_player_draws = false;
        assert_eq!(r.draws_by_turn(1, Going::First), 0);
        assert_eq!(r.draws_by_turn(1, Going::Second), 1);
    }
}
