//! Many setups over threads. The work is cut into fixed chunks, each with its own generator
//! from `(seed, chunk index)`; thread `w` of `T` runs chunks `w, w + T, ...` in order and the
//! observers are merged in thread order, so the result depends on the seed and the thread
//! count only (and, for counts, on the seed only), never on scheduling.

use std::sync::atomic::{AtomicU64, Ordering};

use super::deal::{Dealer, chunk_rng};
use super::{EngineDeck, EngineError, Setup, SetupView};

/// Setups per chunk: small enough for an even split and a lively progress counter, large
/// enough that seeding a generator and touching the counter cost nothing.
pub const CHUNK_SETUPS: u64 = 1 << 16;

/// Collects what it wants from each setup. Generic, so the hot loop calls it directly.
pub trait Observer: Send {
    fn observe(&mut self, view: &SetupView);
    /// Adds the setups another observer saw (from another thread).
    fn merge(&mut self, other: Self);
}

/// What to simulate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plan<'a> {
    /// Turn draws dealt after the prizes.
    pub turns: u32,
    pub setups: u64,
    pub seed: u64,
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
    /// Completed setups, raised after each chunk, for a caller's progress bar.
    pub progress: Option<&'a AtomicU64>,
}

/// Runs `setups` single-player setups with `turns` turn draws into observers made by `make`.
pub fn simulate<O, F>(
    deck: &EngineDeck,
    rules: &Setup,
    turns: u32,
    setups: u64,
    seed: u64,
    threads: usize,
    make: F,
) -> Result<O, EngineError>
where
    O: Observer,
    F: Fn() -> O + Sync,
{
    let plan = Plan {
        turns,
        setups,
        seed,
        threads,
        progress: None,
    };
    run(deck, rules, &plan, make)
}

/// Runs a [`Plan`] (the general form of [`simulate`], with progress reporting).
pub fn run<O, F>(deck: &EngineDeck, rules: &Setup, plan: &Plan, make: F) -> Result<O, EngineError>
where
    O: Observer,
    F: Fn() -> O + Sync,
{
    // Fail before spawning anything; workers then cannot fail.
    Dealer::new(deck, rules, plan.turns)?;
    let chunks = plan.setups.div_ceil(CHUNK_SETUPS);
    let threads = resolve_threads(plan.threads).min(chunks.max(1) as usize);
    let worker = |index: usize| -> Result<O, EngineError> {
        let mut observer = make();
        let mut dealer = Dealer::new(deck, rules, plan.turns)?;
        let mut chunk = index as u64;
        while chunk < chunks {
            run_chunk(&mut dealer, &mut observer, plan, chunk);
            chunk += threads as u64;
        }
        Ok(observer)
    };
    if threads <= 1 {
        return worker(0);
    }
    let results: Vec<Result<O, EngineError>> = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        let mut failed = None;
        for index in 0..threads {
            // A process limit can refuse a thread: an error, not a panic.
            match std::thread::Builder::new().spawn_scoped(scope, move || worker(index)) {
                Ok(handle) => handles.push(handle),
                Err(error) => {
                    failed = Some(EngineError::Threads {
                        threads,
                        reason: error.to_string(),
                    });
                    break;
                }
            }
        }
        let joined = handles.into_iter().map(|handle| {
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        let mut results: Vec<Result<O, EngineError>> = joined.collect();
        results.extend(failed.map(Err));
        results
    });
    let mut merged: Option<O> = None;
    for result in results {
        let observer = result?;
        match merged.as_mut() {
            Some(total) => total.merge(observer),
            None => merged = Some(observer),
        }
    }
    merged.map_or_else(|| worker(0), Ok)
}

fn run_chunk<O: Observer>(dealer: &mut Dealer, observer: &mut O, plan: &Plan, chunk: u64) {
    let start = chunk * CHUNK_SETUPS;
    let count = CHUNK_SETUPS.min(plan.setups - start);
    let mut rng = chunk_rng(plan.seed, chunk);
    dealer.reset();
    for _ in 0..count {
        observer.observe(&dealer.deal(&mut rng));
    }
    if let Some(progress) = plan.progress {
        progress.fetch_add(count, Ordering::Relaxed);
    }
}

fn resolve_threads(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    std::thread::available_parallelism().map_or(1, |cores| cores.get())
}
