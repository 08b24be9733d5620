//! Running the game-setup engine for `deckbox stats --simulate`: the deck's kinds become an
//! engine deck ([`engine_deck`]), a seeded plan runs on threads with the observers that
//! estimate what [`super::Report`] computed exactly ([`simulate_report`]), and a watcher
//! reports progress. It never prints: progress goes to a [`Progress`] the caller supplies.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::kinds::DeckKind;
use super::observer::{QueryObserver, SetupObserver, estimates};
use super::{Going, Report, ResolvedQuery, Simulation};
use crate::engine::{self, EngineDeck, EngineError};
use crate::formats::Setup;
use crate::util::progress::{Progress, Unit};

/// What a simulation runs: how many setups, on how many threads, from which seed, and the
/// turns and side the report counts.
#[derive(Debug, Clone, Copy)]
pub struct SimulationPlan {
    pub setups: u64,
    pub seed: u64,
    /// 0: one per core.
    pub threads: usize,
    pub turns: u32,
    pub going: Going,
}

/// The deck's kinds as the engine deals them.
pub fn engine_deck(kinds: &[DeckKind]) -> Result<EngineDeck, EngineError> {
    let kinds: Vec<engine::Kind> = kinds
        .iter()
        .map(|kind| engine::Kind {
            copies: kind.copies,
            basic: kind.basic,
        })
        .collect();
    EngineDeck::new(&kinds)
}

/// Runs the simulation (with a progress watcher when it should take over a second) and
/// returns its estimates of the report's exact values.
pub fn simulate_report(
    kinds: &[DeckKind],
    setup: &Setup,
    report: &Report,
    queries: &[ResolvedQuery],
    plan: SimulationPlan,
    progress: &dyn Progress,
) -> Result<Simulation, EngineError> {
    let engine = engine_deck(kinds)?;
    let SimulationPlan {
        setups,
        seed,
        turns,
        going,
        ..
    } = plan;
    let threads = match plan.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let done = AtomicU64::new(0);
    let engine_plan = engine::Plan {
        turns,
        setups,
        seed,
        threads,
        progress: Some(&done),
    };
    // About 20 million setups per second per thread: only a run longer than a second
    // gets a progress bar.
    let watch = setups as f64 / (20e6 * threads as f64) > 1.0;
    let counts = || engine::CountObserver::new(&engine, setup, turns);
    // Without queries the engine runs the per-card counter alone: no query work per setup.
    let estimates = if queries.is_empty() {
        let seen = watched(watch, setups, &done, progress, || {
            engine::run(&engine, setup, &engine_plan, counts)
        })?;
        estimates(report, &seen, None)
    } else {
        let make = || SetupObserver {
            counts: counts(),
            queries: QueryObserver::new(queries, engine.kinds(), setup, turns, going),
        };
        let seen = watched(watch, setups, &done, progress, || {
            engine::run(&engine, setup, &engine_plan, make)
        })?;
        estimates(report, &seen.counts, Some(&seen.queries))
    };
    Ok(Simulation {
        setups,
        seed,
        threads: u32::try_from(threads).unwrap_or(u32::MAX),
        estimates,
    })
}

/// Runs `work`, with a thread that reports `done` to `progress` every 100 ms when `watch`.
fn watched<T>(
    watch: bool,
    total: u64,
    done: &AtomicU64,
    progress: &dyn Progress,
    work: impl FnOnce() -> T,
) -> T {
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = watch.then(|| {
            progress.step("simulating", Some(total), Unit::Items("setups"));
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    progress.advance(done.load(Ordering::Relaxed));
                    // Woken early when the work is done, so the caller never waits for it.
                    std::thread::park_timeout(std::time::Duration::from_millis(100));
                }
                progress.finish();
            })
        });
        let result = work();
        finished.store(true, Ordering::Relaxed);
        if let Some(watcher) = watcher {
            watcher.thread().unpark();
        }
        result
    })
}
