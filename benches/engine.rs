//! Times the setup engine: single-player setups per second through the built-in
//! `CountObserver` for a typical deck (60 cards, 10 Basic Pokémon, 15 kinds, 4 turns), on one
//! thread and on all cores, plus the dealer alone. Run with `cargo bench --bench engine`;
//! prints its results and asserts nothing. `DECKBOX_BENCH_SETUPS` sets the setups per run, and
//! `DECKBOX_BENCH_ONLY=count1` runs only the one-thread `CountObserver` case once, so a
//! profiler (callgrind) counts the instructions of that case alone.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench fails loudly")]

use std::time::Instant;

use deckbox::engine::{
    CountObserver, Dealer, EngineDeck, Kind, Observer, SetupView, chunk_rng, simulate,
};
use deckbox::formats::Setup;

const RUNS: usize = 3;
const TURNS: u32 = 4;

/// Counts setups only, to time the dealer without the counting.
struct Nothing(u64);

impl Observer for Nothing {
    fn observe(&mut self, view: &SetupView) {
        self.0 += u64::from(view.hand[0]);
    }
    fn merge(&mut self, other: Nothing) {
        self.0 += other.0;
    }
}

fn typical_deck() -> EngineDeck {
    let basics = [4, 3, 2, 1].map(|copies| Kind {
        copies,
        basic: true,
    });
    let others = [4, 4, 4, 3, 3, 2, 2, 2, 1, 1, 24].map(|copies| Kind {
        copies,
        basic: false,
    });
    let kinds: Vec<Kind> = basics.into_iter().chain(others).collect();
    EngineDeck::new(&kinds).unwrap()
}

fn main() {
    // DECKBOX_BENCH_SETUPS lowers the count for profiling under valgrind.
    let setups = std::env::var("DECKBOX_BENCH_SETUPS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(20_000_000u64);
    let deck = typical_deck();
    let rules = Setup::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if std::env::var("DECKBOX_BENCH_ONLY").is_ok_and(|only| only == "count1") {
        let counts = simulate(&deck, &rules, TURNS, setups, 7, 1, || {
            CountObserver::new(&deck, &rules, TURNS)
        })
        .unwrap();
        println!("CountObserver, 1 thread, once: {} setups", counts.setups());
        return;
    }
    println!("engine bench: {setups} setups per run, best of {RUNS}, {cores} cores");
    for threads in [1, cores] {
        let rate = best_rate(setups, || {
            let counts = simulate(&deck, &rules, TURNS, setups, 7, threads, || {
                CountObserver::new(&deck, &rules, TURNS)
            })
            .unwrap();
            assert_eq!(counts.setups(), setups);
        });
        println!("CountObserver, {threads} thread(s): {rate}");
    }
    let rate = best_rate(setups, || {
        let seen = simulate(&deck, &rules, TURNS, setups, 7, 1, || Nothing(0)).unwrap();
        std::hint::black_box(seen.0);
    });
    println!("simulate, no counting, 1 thread: {rate}");
    let rate = best_rate(setups, || {
        let mut dealer = Dealer::new(&deck, &rules, TURNS).unwrap();
        let mut rng = chunk_rng(7, 0);
        let mut sum = 0u64;
        for _ in 0..setups {
            sum += u64::from(dealer.deal(&mut rng).mulligans);
        }
        std::hint::black_box(sum);
    });
    println!("Dealer::deal loop, 1 thread: {rate}");
}

/// The best of [`RUNS`] runs of `setups` setups: setups per wall-clock second, and per
/// second of CPU time of the whole process (what a busy, shared machine cannot inflate).
fn best_rate(setups: u64, mut run: impl FnMut()) -> Rate {
    let mut best = Rate {
        wall: 0.0,
        cpu: 0.0,
    };
    for _ in 0..RUNS {
        let (started, cpu_started) = (Instant::now(), cpu_seconds());
        run();
        let wall = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu_started;
        best.wall = best.wall.max(setups as f64 / wall);
        best.cpu = best.cpu.max(setups as f64 / cpu.max(0.01));
    }
    best
}

struct Rate {
    wall: f64,
    cpu: f64,
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{:6.2} M setups/s wall clock, {:6.2} M per CPU-second",
            self.wall / 1e6,
            self.cpu / 1e6
        )
    }
}

/// User + system CPU time of this process so far, from /proc/self/stat (0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}
