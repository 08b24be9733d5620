//! The threads a run over many files works on: every use of rayon's pools is here. Without
//! the `parallel` feature (a browser build), [`Pool`] runs the work in order on the caller's
//! thread, with the same results.

use crate::error::Error;

/// The workers of `--threads N`, or rayon's global pool (one thread per core).
#[cfg(feature = "parallel")]
#[derive(Default)]
pub struct Pool(Option<rayon::ThreadPool>);

/// One thread, the caller's: a build without the `parallel` feature.
#[cfg(not(feature = "parallel"))]
#[derive(Default)]
pub struct Pool(());

#[cfg(not(feature = "parallel"))]
impl Pool {
    /// The caller's thread, whatever `threads` asks.
    pub fn new(_threads: usize) -> Result<Pool, Error> {
        Ok(Pool(()))
    }

    /// How many threads work on it: one.
    pub fn threads(&self) -> usize {
        1
    }

    /// `work` on every item in order.
    pub fn map<I: Send, T: Send>(
        &self,
        items: Vec<I>,
        work: impl Fn(I) -> T + Sync + Send,
    ) -> Vec<T> {
        items.into_iter().map(work).collect()
    }
}

#[cfg(feature = "parallel")]
impl Pool {
    /// A pool of `threads` workers; 0 leaves the work to rayon's global pool (one thread per
    /// core).
    pub fn new(threads: usize) -> Result<Pool, Error> {
        if threads == 0 {
            return Ok(Pool(None));
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        // A process limit can refuse threads: an error, not a panic.
        pool.map(|pool| Pool(Some(pool)))
            .map_err(|error| Error::Usage {
                message: format!(
                    "cannot start {threads} threads: {error}; ask for fewer with `--threads N`"
                ),
            })
    }

    /// How many threads work on it.
    pub fn threads(&self) -> usize {
        self.0.as_ref().map_or_else(
            rayon::current_num_threads,
            rayon::ThreadPool::current_num_threads,
        )
    }

    /// `work` on every item on the pool's threads, the results in the items' order.
    pub fn map<I: Send, T: Send>(
        &self,
        items: Vec<I>,
        work: impl Fn(I) -> T + Sync + Send,
    ) -> Vec<T> {
        use rayon::prelude::*;
        let run = || items.into_par_iter().map(&work).collect();
        match &self.0 {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }
}
