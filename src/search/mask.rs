//! [`Mask`]: which printings of a database a part of a query keeps, one bit a printing. A
//! search over the embedded index's 21,159 printings holds a few masks at once: as bits each
//! is 2.6 KB, where a `bool` a printing was 21 KB, five fresh pages of memory to write,
//! which was most of what a narrow search wrote beyond the process's start
//! (docs/performance.md, "Fresh pages of every start").

use crate::util::parallel::prelude::*;

/// One bit a printing, by index: a set bit is a printing kept. Bits past [`Mask::len`] are
/// never set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    words: Vec<u64>,
    len: usize,
}

/// Printings a word of a mask holds.
const BITS: usize = 64;

/// Words of a mask a thread takes at least (of printings: 256, as the tests of a key that
/// decode printings were split before).
const MIN_WORDS: usize = 4;

impl Mask {
    /// No printing of `len`.
    pub fn none(len: usize) -> Mask {
        Mask {
            words: vec![0; len.div_ceil(BITS)],
            len,
        }
    }

    /// Every printing of `len`.
    pub fn all(len: usize) -> Mask {
        let mut mask = Mask {
            words: vec![u64::MAX; len.div_ceil(BITS)],
            len,
        };
        if let (Some(last), rest @ 1..) = (mask.words.last_mut(), len % BITS) {
            *last = (1 << rest) - 1;
        }
        mask
    }

    /// How many printings it is about (kept or not).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it is about no printing at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether printing `index` is kept (never one past [`Mask::len`]).
    pub fn get(&self, index: usize) -> bool {
        self.words
            .get(index / BITS)
            .is_some_and(|word| word >> (index % BITS) & 1 == 1)
    }

    /// Keeps printing `index` (nothing past [`Mask::len`]).
    pub fn set(&mut self, index: usize) {
        if index < self.len
            && let Some(word) = self.words.get_mut(index / BITS)
        {
            *word |= 1 << (index % BITS);
        }
    }

    /// Keeps the printings of `range` (none past [`Mask::len`]).
    pub fn set_range(&mut self, range: std::ops::Range<usize>) {
        for index in range.start..range.end.min(self.len) {
            self.set(index);
        }
    }

    /// The printings kept, in order.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(at, &word)| {
            let mut left = word;
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    let bit = left.trailing_zeros() as usize;
                    left &= left - 1;
                    at * BITS + bit
                })
            })
        })
    }

    /// Keeps only what `other` keeps too.
    pub fn and(&mut self, other: &Mask) {
        self.each_word(other, |mine, theirs| mine & theirs);
    }

    /// Also keeps what `other` keeps.
    pub fn or(&mut self, other: &Mask) {
        self.each_word(other, |mine, theirs| mine | theirs);
    }

    /// Drops what `other` keeps.
    pub fn and_not(&mut self, other: &Mask) {
        self.each_word(other, |mine, theirs| mine & !theirs);
    }

    fn each_word(&mut self, other: &Mask, op: impl Fn(u64, u64) -> u64) {
        for (at, word) in self.words.iter_mut().enumerate() {
            *word = op(*word, other.words.get(at).copied().unwrap_or(0));
        }
    }

    /// The printings kept here that pass `test`, testing each on this thread.
    pub fn filter(&self, test: impl Fn(usize) -> bool) -> Mask {
        let words = (self.words.iter().enumerate())
            .map(|(at, &word)| word_filter(at, word, &test))
            .collect();
        Mask {
            words,
            len: self.len,
        }
    }

    /// [`Mask::filter`] on every processor (the same mask).
    pub fn par_filter(&self, test: impl Fn(usize) -> bool + Sync + Send) -> Mask {
        let words = (self.words.par_iter().enumerate())
            .with_min_len(MIN_WORDS)
            .map(|(at, &word)| word_filter(at, word, &test))
            .collect();
        Mask {
            words,
            len: self.len,
        }
    }

    /// A `bool` a printing, as the format's judgement takes them.
    pub fn to_bools(&self) -> Vec<bool> {
        (0..self.len).map(|index| self.get(index)).collect()
    }

    /// The mask of a `bool` a printing.
    pub fn from_bools(bools: &[bool]) -> Mask {
        let mut mask = Mask::none(bools.len());
        for (index, _) in bools.iter().enumerate().filter(|(_, kept)| **kept) {
            mask.set(index);
        }
        mask
    }
}

/// The bits of `word` (word `at` of a mask) whose printing passes `test`.
fn word_filter(at: usize, word: u64, test: impl Fn(usize) -> bool) -> u64 {
    let mut kept = 0;
    let mut left = word;
    while left != 0 {
        let bit = left.trailing_zeros();
        left &= left - 1;
        if test(at * BITS + bit as usize) {
            kept |= 1 << bit;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each operation gives what the same one over a `bool` a printing gives, at lengths
    /// around a word's end.
    #[test]
    fn bits_are_bools() {
        for len in [0, 1, 63, 64, 65, 130, 21_159] {
            let every: Vec<bool> = (0..len).map(|i| i % 3 == 0 || i % 7 == 1).collect();
            let other: Vec<bool> = (0..len).map(|i| i % 2 == 0).collect();
            let (mask, theirs) = (Mask::from_bools(&every), Mask::from_bools(&other));
            assert_eq!(mask.to_bools(), every);
            assert_eq!(mask.len(), len);
            assert_eq!(Mask::all(len).to_bools(), vec![true; len]);
            assert_eq!(Mask::none(len).to_bools(), vec![false; len]);
            let ones: Vec<usize> = (0..len).filter(|&i| every[i]).collect();
            assert_eq!(mask.ones().collect::<Vec<_>>(), ones);
            let zip = |op: fn(bool, bool) -> bool| -> Vec<bool> {
                every.iter().zip(&other).map(|(a, b)| op(*a, *b)).collect()
            };
            let mut and = mask.clone();
            and.and(&theirs);
            assert_eq!(and.to_bools(), zip(|a, b| a && b));
            let mut or = mask.clone();
            or.or(&theirs);
            assert_eq!(or.to_bools(), zip(|a, b| a || b));
            let mut not = mask.clone();
            not.and_not(&theirs);
            assert_eq!(not.to_bools(), zip(|a, b| a && !b));
            let test = |i: usize| i % 5 != 2;
            let filtered: Vec<bool> = (0..len).map(|i| every[i] && test(i)).collect();
            assert_eq!(mask.filter(test).to_bools(), filtered);
            assert_eq!(mask.par_filter(test).to_bools(), filtered);
            let mut set = Mask::none(len);
            set.set(len);
            set.set(len + 64);
            assert_eq!(set, Mask::none(len));
            assert!(!mask.get(len));
        }
    }
}
