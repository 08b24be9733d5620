//! Data parallelism behind the `parallel` feature: with it, [`prelude`] is rayon's; without
//! it (a build for the browser, say), the same calls (`par_iter`, `into_par_iter`,
//! `with_min_len`) are plain iterators on the calling thread. Rayon's `collect` keeps the
//! order of the input, so both give the same results.

#[cfg(feature = "parallel")]
pub use rayon::prelude;

/// The sequential stand-ins for the rayon calls the library makes.
#[cfg(not(feature = "parallel"))]
pub mod prelude {
    /// `par_iter()` on a slice (or a `Vec`, through deref): its plain iterator.
    pub trait IntoParallelRefIterator<'data> {
        type Iter: Iterator;
        fn par_iter(&'data self) -> Self::Iter;
    }

    impl<'data, T: 'data> IntoParallelRefIterator<'data> for [T] {
        type Iter = std::slice::Iter<'data, T>;
        fn par_iter(&'data self) -> Self::Iter {
            self.iter()
        }
    }

    /// `into_par_iter()` on anything iterable: its plain iterator.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<I: IntoIterator> IntoParallelIterator for I {}

    /// `with_min_len(n)`, rayon's hint for splitting work: nothing to split on one thread.
    pub trait IndexedParallelIterator: Iterator + Sized {
        fn with_min_len(self, _min: usize) -> Self {
            self
        }
    }

    impl<I: Iterator> IndexedParallelIterator for I {}
}

#[cfg(test)]
mod tests {
    use super::prelude::*;

    #[test]
    fn results_come_in_input_order() {
        let numbers: Vec<u32> = (0..1000).collect();
        let doubled: Vec<u32> = numbers
            .par_iter()
            .enumerate()
            .with_min_len(16)
            .map(|(index, n)| n * 2 + u32::try_from(index).unwrap_or(0))
            .collect();
        assert_eq!(doubled, (0..1000).map(|n| n * 3).collect::<Vec<u32>>());
        let owned: Vec<u32> = numbers.into_par_iter().map(|n| n + 1).collect();
        assert_eq!(owned, (1..1001).collect::<Vec<u32>>());
    }
}
