//! Times the simulator `deckbox stats --simulate` runs, side by side with a minimal engine.
//!
//! The simulator is timed through [`simulate_report`], the function the CLI calls, so what is
//! measured is what a user runs: the engine's per-card counts, plus the `--want` queries when
//! there are any. Its baseline is a minimal simulator written here (a 60-card deck of 3 kinds,
//! a partial Fisher–Yates shuffle with xoshiro256++, a 7-card hand redrawn until it holds a
//! Basic Pokémon, 6 prizes, one card tallied in the hand): the least work an opening-hand
//! simulator can do. Runs alternate between the cases, so a machine whose speed drifts slows
//! them alike, and each case reports its best run and its ratio to the baseline.
//!
//! `cargo bench --bench engine` prints the table and asserts nothing. `DECKBOX_BENCH_SETUPS`
//! sets the setups per run (default 20,000,000), `DECKBOX_BENCH_RUNS` the runs per case
//! (default 5). `DECKBOX_BENCH_ONLY=<case>` runs one case once on one thread, so a profiler
//! counts that case's instructions alone (`valgrind --tool=callgrind`); the cases are
//! `minimal`, `cli`, `cli-want1`, `cli-want3`, `cli-group` (`Dreepy|Duskull>=1`), `cli-general`
//! (the same question as `Dreepy>=1 | Duskull>=1`), `cli-event` (`Dreepy>=1 by T2 & Rare
//! Candy>=1 by T3`, one event), `cli-general3`, `cli-want8` (one query of 8 terms, [`WANT8`]),
//! `cli-turns8` (one query of 8 terms with `by T` turns, [`TURNS8`]: one event),
//! `cli-general8` (8 one-term queries, [`GENERAL8`]), `cli-3kinds`, and two parts of `cli`:
//! `dealing` (the engine's setups, nothing counted) and `counting` (the per-card counter
//! alone).

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench fails loudly")]

use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use deckbox::engine::{CountObserver, EngineDeck, Observer, SetupView, simulate};
use deckbox::formats::{Going, Setup};
use deckbox::stats::kinds::DeckKind;
use deckbox::stats::simulate::{SimulationPlan, engine_deck, simulate_report};
use deckbox::stats::{DeckShape, Report, ReportInput, ResolvedQuery, query};
use deckbox::util::progress::Quiet;

const TURNS: u32 = 4;

/// A case of the bench: runs its setups on the given number of threads and returns a number
/// that depends on every setup.
type Run<'a> = Box<dyn Fn(usize) -> u64 + 'a>;
const SEED: u64 = 7;
/// One query of 8 terms, `&` and `|` mixed (issue 51 item 4).
const WANT8: &str = "(Dreepy>=1 | Duskull>=1) & (Rare Candy>=1 | Arven>=1) & \
    !(Switch>=2) & (Ultra Ball>=1 | Nest Ball>=1 | Psychic Energy>=3)";
/// [`WANT8`] with turns: one event.
const TURNS8: &str = "(Dreepy>=1 by T2 | Duskull>=1) & (Rare Candy>=1 by T3 | Arven>=1) & \
    !(Switch>=2) & (Ultra Ball>=1 by T1 | Nest Ball>=1 | Psychic Energy>=3 by T4)";
/// Eight queries of one term each.
const GENERAL8: [&str; 8] = [
    "Dreepy>=1",
    "Duskull>=1",
    "Rare Candy>=1",
    "Arven>=1",
    "Switch>=2",
    "Ultra Ball>=1",
    "Nest Ball>=1",
    "Psychic Energy>=3",
];

fn main() {
    let setups = env_number("DECKBOX_BENCH_SETUPS").unwrap_or(20_000_000);
    let runs = env_number("DECKBOX_BENCH_RUNS").unwrap_or(5).max(1) as usize;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let typical = Case::typical();
    let small = Case::minimal_deck();
    let cases: Vec<(&str, Run)> = vec![
        ("minimal", Box::new(|_| minimal(setups, SEED))),
        ("cli", Box::new(|threads| typical.run(&[], setups, threads))),
        (
            "cli-want1",
            Box::new(|threads| typical.run(&["Rare Candy>=1 & Dreepy>=1"], setups, threads)),
        ),
        (
            "cli-want3",
            Box::new(|threads| {
                let wants = [
                    "Rare Candy>=1 & Dreepy>=1",
                    "Ultra Ball|Nest Ball>=1",
                    "Dreepy>=2 & Arven>=1 & Psychic Energy>=1",
                ];
                typical.run(&wants, setups, threads)
            }),
        ),
        (
            "cli-group",
            Box::new(|threads| typical.run(&["Dreepy|Duskull>=1"], setups, threads)),
        ),
        (
            "cli-general",
            Box::new(|threads| typical.run(&["Dreepy>=1 | Duskull>=1"], setups, threads)),
        ),
        (
            "cli-event",
            Box::new(|threads| {
                typical.run(&["Dreepy>=1 by T2 & Rare Candy>=1 by T3"], setups, threads)
            }),
        ),
        (
            "cli-general3",
            Box::new(|threads| {
                let wants = [
                    "Dreepy>=1 | Duskull>=1",
                    "!(Rare Candy>=1) | Dreepy>=2",
                    "Dreepy>=1 by T2 & Rare Candy>=1 by T3",
                ];
                typical.run(&wants, setups, threads)
            }),
        ),
        (
            "cli-want8",
            Box::new(|threads| typical.run(&[WANT8], setups, threads)),
        ),
        (
            "cli-turns8",
            Box::new(|threads| typical.run(&[TURNS8], setups, threads)),
        ),
        (
            "cli-general8",
            Box::new(|threads| typical.run(&GENERAL8, setups, threads)),
        ),
        (
            "cli-3kinds",
            Box::new(|threads| small.run(&[], setups, threads)),
        ),
        (
            "dealing",
            Box::new(|threads| typical.deal_only(setups, threads)),
        ),
        (
            "counting",
            Box::new(|threads| typical.count_only(setups, threads)),
        ),
    ];
    if let Ok(only) = std::env::var("DECKBOX_BENCH_ONLY") {
        let (name, run) = cases.iter().find(|(name, _)| *name == only).unwrap();
        let checksum = run(1);
        println!("{name}, 1 thread, once: {setups} setups (checksum {checksum})");
        return;
    }
    println!(
        "engine bench: {setups} setups per run, best of {runs} alternating runs, {cores} cores"
    );
    let mut plan: Vec<(String, usize, usize)> = Vec::new();
    for (index, (name, _)) in cases.iter().enumerate() {
        plan.push((format!("{name}, 1 thread"), index, 1));
    }
    for (index, (name, _)) in cases.iter().enumerate().skip(1) {
        if cores > 1 && matches!(*name, "cli" | "cli-want1" | "cli-general") {
            plan.push((format!("{name}, {cores} threads"), index, cores));
        }
    }
    let mut best = vec![Rate::default(); plan.len()];
    for _ in 0..runs {
        for ((_, case, threads), best) in plan.iter().zip(&mut best) {
            let (started, cpu_started) = (Instant::now(), cpu_seconds());
            std::hint::black_box(cases[*case].1(*threads));
            let wall = started.elapsed().as_secs_f64();
            let cpu = cpu_seconds() - cpu_started;
            best.wall = best.wall.max(setups as f64 / wall);
            best.cpu = best.cpu.max(setups as f64 / cpu.max(0.01));
        }
    }
    let baseline = best[0].wall;
    println!("| case | M setups/s (wall) | M setups per CPU-second | × minimal (wall) |");
    println!("| --- | --- | --- | --- |");
    for ((name, _, _), rate) in plan.iter().zip(&best) {
        println!(
            "| {name} | {:.2} | {:.2} | {:.2} |",
            rate.wall / 1e6,
            rate.cpu / 1e6,
            rate.wall / baseline
        );
    }
    let one_thread = |case: &str| {
        let at = plan
            .iter()
            .position(|(name, _, _)| *name == format!("{case}, 1 thread"));
        at.map_or(0.0, |at| best[at].wall)
    };
    for (general, plain) in [
        ("cli-general", "cli-group"),
        ("cli-general", "cli"),
        ("cli-event", "cli"),
        ("cli-want1", "cli"),
        ("cli-want8", "cli"),
        ("cli-turns8", "cli"),
        ("cli-general8", "cli"),
        ("cli", "minimal"),
        ("cli-3kinds", "minimal"),
    ] {
        let ratio = one_thread(general) / one_thread(plain);
        println!("{general} / {plain}, 1 thread: {ratio:.2}×");
    }
    for ((name, case, threads), rate) in plan.iter().zip(&best) {
        let one = plan.iter().position(|(_, c, t)| c == case && *t == 1);
        if let (true, Some(one)) = (*threads > 1, one) {
            println!(
                "{name}: {:.2}× one thread (wall)",
                rate.wall / best[one].wall
            );
        }
    }
}

/// A deck and its exact report, ready to simulate as `deckbox stats --simulate` does.
struct Case {
    kinds: Vec<DeckKind>,
    setup: Setup,
    shape: DeckShape,
    report: Report,
}

impl Case {
    /// A typical 60-card deck: 15 kinds, 10 Basic Pokémon.
    fn typical() -> Case {
        let kinds = [
            ("Dreepy", 4, true),
            ("Duskull", 3, true),
            ("Budew", 2, true),
            ("Fezandipiti ex", 1, true),
            ("Drakloak", 4, false),
            ("Dragapult ex", 4, false),
            ("Arven", 4, false),
            ("Rare Candy", 3, false),
            ("Ultra Ball", 3, false),
            ("Nest Ball", 2, false),
            ("Boss's Orders", 2, false),
            ("Switch", 2, false),
            ("Night Stretcher", 1, false),
            ("Counter Catcher", 1, false),
            ("Psychic Energy", 24, false),
        ];
        Case::new(&kinds)
    }

    /// The minimal engine's deck: 4 targets, 9 Basic Pokémon, 47 others.
    fn minimal_deck() -> Case {
        Case::new(&[
            ("Target", 4, false),
            ("Basic", 9, true),
            ("Other", 47, false),
        ])
    }

    fn new(kinds: &[(&str, u32, bool)]) -> Case {
        let kinds: Vec<DeckKind> = kinds
            .iter()
            .map(|&(name, copies, basic)| DeckKind {
                name: name.to_string(),
                local: name.to_string(),
                written: vec![name.to_string()],
                copies,
                basic,
                class: Default::default(),
            })
            .collect();
        let setup = Setup::default();
        let shape = DeckShape::new(kinds.iter().map(|k| (k.copies, k.basic)));
        let report = Case::report(&kinds, &shape, &setup, &[]);
        Case {
            kinds,
            setup,
            shape,
            report,
        }
    }

    fn report(
        kinds: &[DeckKind],
        shape: &DeckShape,
        setup: &Setup,
        queries: &[(String, ResolvedQuery)],
    ) -> Report {
        let names: Vec<String> = kinds.iter().map(|k| k.name.clone()).collect();
        let input = ReportInput {
            shape,
            names: &names,
            setup,
            turns: TURNS,
            going: Going::First,
            queries,
        };
        Report::build(input).unwrap()
    }

    /// Simulates `setups` setups with the `--want` queries `wants`, as the CLI does; returns
    /// a number that depends on every setup, for `black_box`.
    fn run(&self, wants: &[&str], setups: u64, threads: usize) -> u64 {
        let queries: Vec<(String, ResolvedQuery)> = wants
            .iter()
            .map(|text| {
                let parsed = query::parse(text).unwrap();
                let resolved = parsed
                    .resolve(|name| {
                        self.kinds
                            .iter()
                            .position(|k| k.name == name.text)
                            .ok_or(())
                    })
                    .unwrap();
                (text.to_string(), resolved)
            })
            .collect();
        let report = if queries.is_empty() {
            self.report.clone()
        } else {
            Case::report(&self.kinds, &self.shape, &self.setup, &queries)
        };
        let resolved: Vec<ResolvedQuery> = queries.into_iter().map(|(_, q)| q).collect();
        let plan = SimulationPlan {
            setups,
            seed: SEED,
            threads,
            turns: TURNS,
            going: Going::First,
        };
        let simulation =
            simulate_report(&self.kinds, &self.setup, &report, &resolved, plan, &Quiet).unwrap();
        simulation
            .estimates
            .values()
            .map(|e| e.estimate.to_bits())
            .fold(0, u64::wrapping_add)
    }
}

/// Sums one card of each kept hand: an observer that costs next to nothing, to time the
/// dealing alone.
struct Nothing(u64);

impl Observer for Nothing {
    fn observe(&mut self, view: &SetupView) {
        self.0 += u64::from(view.hand.first().copied().unwrap_or(0));
    }
    fn merge(&mut self, other: Nothing) {
        self.0 += other.0;
    }
}

impl Case {
    fn engine_deck(&self) -> EngineDeck {
        engine_deck(&self.kinds).unwrap()
    }

    /// The engine's setups with no counting: what dealing costs.
    fn deal_only(&self, setups: u64, threads: usize) -> u64 {
        let deck = self.engine_deck();
        let seen = simulate(&deck, &self.setup, TURNS, setups, SEED, threads, || {
            Nothing(0)
        });
        seen.unwrap().0
    }

    /// The engine's setups into the per-card counter alone, outside `simulate_report`.
    fn count_only(&self, setups: u64, threads: usize) -> u64 {
        let deck = self.engine_deck();
        let make = || CountObserver::new(&deck, &self.setup, TURNS);
        let counts = simulate(&deck, &self.setup, TURNS, setups, SEED, threads, make).unwrap();
        counts.opening_hand(0)
    }
}

/// The minimal engine: a 60-card deck of 3 kinds (4 targets, 9 Basic Pokémon, 47 others),
/// a partial Fisher–Yates shuffle with xoshiro256++ and Lemire's bounded integers, a 7-card
/// hand redrawn until it holds a Basic Pokémon, 6 prizes, and the setups whose hand holds a
/// target counted. Returns that count.
fn minimal(setups: u64, seed: u64) -> u64 {
    const TARGET: u8 = 0;
    const BASIC: u8 = 1;
    let mut deck = [2u8; 60];
    deck[..4].fill(TARGET);
    deck[4..13].fill(BASIC);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut hits = 0;
    for _ in 0..setups {
        loop {
            for i in 0..7 {
                let j = i + below(&mut rng, (60 - i) as u64) as usize;
                deck.swap(i, j);
            }
            if deck[..7].contains(&BASIC) {
                break;
            }
        }
        for i in 7..13 {
            let j = i + below(&mut rng, (60 - i) as u64) as usize;
            deck.swap(i, j);
        }
        hits += u64::from(deck[..7].contains(&TARGET));
    }
    hits
}

/// A uniform integer below `bound` (Lemire's nearly divisionless method).
#[inline(always)]
fn below(rng: &mut Xoshiro256PlusPlus, bound: u64) -> u64 {
    let mut wide = u128::from(rng.next_u64()) * u128::from(bound);
    if (wide as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (wide as u64) < threshold {
            wide = u128::from(rng.next_u64()) * u128::from(bound);
        }
    }
    (wide >> 64) as u64
}

#[derive(Debug, Clone, Copy, Default)]
struct Rate {
    wall: f64,
    cpu: f64,
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
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
