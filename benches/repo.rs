//! Times `deckbox check DIR` over a generated repository of 10,000 deck lists: its pieces
//! one by one through the library (walk, read + check in parallel, check on one thread,
//! rendering), and the binary itself (settings, walk, parallel check, render: the command
//! line lives in the binary, not the library). Decks are real 60-card lists built from the embedded card index and, when
//! ../shared/data/tcgdex-repo exists, from the TCGdex index (opened once first, so the
//! timed runs find the cache warm, as the issue asks). One deck in 50 has a misspelt card,
//! which costs a suggestion search. The binary's `fmt --check .` is timed the same way, and
//! both commands' peak memory (GNU time's maximum resident set size) is measured over the
//! whole repository and over a tenth of it: it should not grow with the number of files.
//! Run with `cargo bench --bench repo`; prints its results (best of 3, decks per second;
//! `DECKBOX_BENCH_DECKS=500` for a quick look, `DECKBOX_BENCH_CARDS=embedded` to skip the
//! TCGdex part, `DECKBOX_BENCH_DIR=DIR` to keep the decks in DIR) and asserts nothing.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use deckbox::cards::{CardDb, Category, Printing};
use deckbox::check;
use deckbox::deck::DeckInput;
use deckbox::render;
use deckbox::settings::Settings;
use deckbox::settings::walk::{self, Selection};
use rayon::prelude::*;

/// Decks generated; `DECKBOX_BENCH_DECKS` sets another number for a quick look.
fn decks_wanted() -> usize {
    std::env::var("DECKBOX_BENCH_DECKS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(10_000)
}
const RUNS: usize = 3;

fn main() {
    println!("rayon threads: {}", rayon::current_num_threads());
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/tcgdex-repo");
    bench("embedded index", None);
    let embedded_only = std::env::var("DECKBOX_BENCH_CARDS").is_ok_and(|v| v == "embedded");
    if embedded_only {
        println!("tcgdex part skipped: DECKBOX_BENCH_CARDS=embedded");
    } else if data.is_dir() {
        bench("tcgdex (warm index)", Some(&data));
    } else {
        println!("tcgdex part skipped: {} is missing", data.display());
    }
}

fn bench(label: &str, cards: Option<&Path>) {
    println!("== {label}");
    let started = Instant::now();
    let settings = match Settings::open("unlimited", cards, false) {
        Ok(settings) => settings,
        Err(message) => {
            println!("cannot open the cards: {message}");
            return;
        }
    };
    println!(
        "open (first, may build the cache): {:.2?}",
        started.elapsed()
    );
    let Ok(dir) = tempfile::tempdir() else {
        println!("no temp dir");
        return;
    };
    // DECKBOX_BENCH_DIR keeps the generated repository there, to profile the binary on it.
    let root =
        std::env::var_os("DECKBOX_BENCH_DIR").map_or(dir.path().to_path_buf(), PathBuf::from);
    if let Err(error) = generate(&settings.db, &root) {
        println!("cannot write decks: {error}");
        return;
    }
    let mut args = vec!["deckbox", "check", ".", "--output", "short", "--no-config"];
    let cards_arg = cards.map(|path| path.display().to_string());
    if let Some(path) = &cards_arg {
        args.extend(["--cards", path.as_str()]);
    }
    pieces(&root, &settings);
    binary(&root, &args);
}

fn pieces(root: &Path, settings: &Settings) {
    let operands = [root.to_path_buf()];
    let selection = Selection::defaults();
    let mut files = Vec::new();
    let walk_time = best(|| files = walk::deck_files(&operands, &selection).files);
    report_rate("walk", walk_time, 0);
    let inputs: Vec<DeckInput> = files
        .iter()
        .filter_map(|file| {
            let bytes = std::fs::read(&file.path).ok()?;
            Some(DeckInput::from_bytes(
                file.path.display().to_string(),
                &bytes,
            ))
        })
        .collect();
    let read_time = best(|| {
        let _: Vec<usize> = files
            .par_iter()
            .filter_map(|file| std::fs::read(&file.path).ok().map(|bytes| bytes.len()))
            .collect();
    });
    report_rate("read files (parallel)", read_time, 0);
    let mut decks = Vec::new();
    let parallel = best(|| {
        decks = inputs
            .par_iter()
            .map(|input| check::check(input, &settings.db, &settings.format))
            .collect();
    });
    report_rate("check (parallel, already read)", parallel, 0);
    let single = best(|| {
        for input in &inputs {
            std::hint::black_box(check::check(input, &settings.db, &settings.format));
        }
    });
    report_rate("check (one thread)", single, 0);
    let findings: usize = decks.iter().map(|deck| deck.diagnostics.len()).sum();
    let invalid = decks.iter().filter(|deck| !deck.valid()).count();
    println!(
        "  {findings} findings, {invalid} invalid decks of {}",
        decks.len()
    );
    let mut rules: std::collections::BTreeMap<&str, usize> = Default::default();
    for diagnostic in decks.iter().flat_map(|deck| &deck.diagnostics) {
        *rules.entry(diagnostic.rule.id()).or_default() += 1;
    }
    println!("  findings by rule: {rules:?}");
    if let Some(first) = decks.iter().find(|deck| !deck.diagnostics.is_empty()) {
        for line in render::short(first).lines().take(4) {
            println!("  e.g. {line}");
        }
    }
    // What the suggestion search for unknown names costs: the same decks without those.
    let known: Vec<&DeckInput> = inputs
        .iter()
        .zip(&decks)
        .filter(|(_, deck)| {
            deck.diagnostics
                .iter()
                .all(|d| d.rule.id() != "unknown-card")
        })
        .map(|(input, _)| input)
        .collect();
    let known_time = best(|| {
        for input in &known {
            std::hint::black_box(check::check(input, &settings.db, &settings.format));
        }
    });
    let per_deck = known_time.as_secs_f64() / known.len().max(1) as f64;
    println!(
        "  check (one thread) of the {} decks without an unknown card: {known_time:.2?}, {:.0} decks/s",
        known.len(),
        1.0 / per_deck.max(1e-12)
    );
    let short = best(|| {
        let _: String = decks.par_iter().map(render::short).collect();
    });
    report_rate("render short (parallel)", short, 0);
    let human = best(|| {
        let _: Vec<String> = decks
            .par_iter()
            .map(|deck| render::human(deck, render::HumanOptions::default()))
            .collect();
    });
    report_rate("render human (parallel)", human, 0);
}

/// The binary, when cargo built it for this bench: `check` with `args`, then `fmt --check`
/// over the same folder; then the peak memory of each over the whole repository and over
/// its first tenth (folders `00` to `09`).
fn binary(root: &Path, args: &[&str]) {
    let exe = env!("CARGO_BIN_EXE_deckbox");
    let run = |args: &[&str]| {
        let output = std::process::Command::new(exe)
            .args(args)
            .current_dir(root)
            .output();
        output.ok().and_then(|out| out.status.code()).unwrap_or(-1)
    };
    let mut code = 0;
    let time = best(|| code = run(args.get(1..).unwrap_or_default()));
    report_rate(
        "binary: deckbox check . --output short (exit {code})",
        time,
        code,
    );
    // `--no-config` and `--cards DIR`, as given to `check`.
    let cards: Vec<&str> = args
        .iter()
        .skip_while(|arg| **arg != "--no-config")
        .copied()
        .collect();
    let mut fmt_args = vec!["fmt", "--check", "."];
    fmt_args.extend(&cards);
    let time = best(|| code = run(&fmt_args));
    report_rate("binary: deckbox fmt --check . (exit {code})", time, code);
    let tenth: Vec<String> = (0..10).map(|i| format!("{i:02}")).collect();
    for (what, command) in [
        ("check", args.get(1..).unwrap_or_default()),
        ("fmt --check", &fmt_args[..]),
    ] {
        let whole = peak_rss(exe, root, command);
        let mut part: Vec<&str> = command.iter().copied().filter(|a| *a != ".").collect();
        part.extend(tenth.iter().map(String::as_str));
        let part = peak_rss(exe, root, &part);
        match (whole, part) {
            (Some(whole), Some(part)) => println!(
                "  peak RSS of {what}: {:.1} MB for every deck, {:.1} MB for a tenth of them",
                whole as f64 / 1024.0,
                part as f64 / 1024.0
            ),
            _ => println!("  peak RSS of {what}: not measured (no /usr/bin/time)"),
        }
    }
}

/// The peak resident set size in KiB of `exe args` run in `dir`, from GNU time.
fn peak_rss(exe: &str, dir: &Path, args: &[&str]) -> Option<u64> {
    let output = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M", exe])
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr.lines().last()?.trim().parse().ok()
}

fn best(mut run: impl FnMut()) -> Duration {
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn report_rate(what: &str, time: Duration, code: i32) {
    let what = what.replace("{code}", &code.to_string());
    let rate = decks_wanted() as f64 / time.as_secs_f64().max(1e-9);
    println!("  {what:<48} best of {RUNS}: {time:>10.2?}  {rate:>10.0} decks/s");
}

/// A small deterministic generator (xorshift), so every run writes the same decks.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Printings a generated deck may use, one per name: Basic Pokémon without a Rule Box,
/// Trainers that are not ACE SPEC, and basic Energy.
struct Pool<'a> {
    pokemon: Vec<&'a Printing>,
    trainers: Vec<&'a Printing>,
    energy: Vec<&'a Printing>,
}

fn pool(db: &CardDb) -> Pool<'_> {
    let mut pool = Pool {
        pokemon: Vec::new(),
        trainers: Vec::new(),
        energy: Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    for (_, printing) in db.iter() {
        if printing.set_code.is_empty() || !seen.insert(printing.names.primary().to_string()) {
            continue;
        }
        // Tagged cards have limits of their own (one Radiant, one Pokémon Star, ...).
        let tagged =
            printing.ace_spec || printing.radiant || printing.prism_star || printing.pokemon_star;
        if tagged {
            continue;
        }
        if printing.is_basic_pokemon() && !printing.has_rule_box() {
            pool.pokemon.push(printing);
        } else if printing.category == Category::Trainer {
            pool.trainers.push(printing);
        } else if printing.is_basic_energy() {
            pool.energy.push(printing);
        }
    }
    pool
}

fn generate(db: &CardDb, dir: &Path) -> std::io::Result<()> {
    let pool = pool(db);
    println!(
        "pool: {} Basic Pokémon, {} Trainers, {} basic Energy names",
        pool.pokemon.len(),
        pool.trainers.len(),
        pool.energy.len()
    );
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..decks_wanted() {
        let folder = dir.join(format!("{:02}", i % 100));
        std::fs::create_dir_all(&folder)?;
        std::fs::write(
            folder.join(format!("deck-{i:05}.txt")),
            deck(&pool, &mut rng, i),
        )?;
    }
    Ok(())
}

/// A Pokémon TCG Live list: 4 × 4 Pokémon, 7 × 4 Trainers, 16 basic Energy.
fn deck(pool: &Pool, rng: &mut Rng, i: usize) -> String {
    let line = |count: u32, printing: &Printing| {
        format!(
            "{count} {} {} {}\n",
            printing.names.primary(),
            printing.set_code,
            printing.number
        )
    };
    let mut pick = |from: &[&Printing], n: usize| -> Vec<String> {
        let mut chosen: Vec<usize> = Vec::new();
        for _ in 0..n * 4 {
            let at = rng.below(from.len());
            if !chosen.contains(&at) && chosen.len() < n {
                chosen.push(at);
            }
        }
        chosen
            .iter()
            .filter_map(|&at| from.get(at))
            .map(|printing| line(4, printing))
            .collect()
    };
    let pokemon = pick(&pool.pokemon, 4);
    let trainers = pick(&pool.trainers, 7);
    // One deck in 50 trades an Energy for a misspelt card, still 60 cards.
    let typo = i % 50 == 7;
    let energy_count = if typo { 15 } else { 16 };
    let energy = pool
        .energy
        .first()
        .map(|p| line(energy_count, p))
        .unwrap_or_default();
    let mut text = format!("Pokémon: {}\n{}", pokemon.len(), pokemon.concat());
    let trainer_lines = trainers.len() + usize::from(typo);
    text += &format!("\nTrainer: {trainer_lines}\n{}", trainers.concat());
    if typo {
        text += "1 Profesor's Reserch\n";
    }
    text += &format!("\nEnergy: 1\n{energy}\nTotal Cards: 60\n");
    text
}
