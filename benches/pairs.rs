//! The ratios issue 33 sets for whole commands, each measured against its baseline in the
//! same run, the two taking turns (A B, then B A, …) so a machine whose speed drifts slows
//! both alike:
//!
//! - `check DIR --threads 2` against `--threads 1` (goal: 1.8× faster, a ratio ≤ 0.556);
//! - `fmt --check DIR` against `check DIR` (goal: ≥ 0.8× its speed, a ratio ≤ 1.25);
//! - `stats --simulate 20000000 --threads 2` against `--threads 1` (goal as for `check`).
//!
//! DIR is a generated repository of formatted lists: the examples `dragapult.txt`,
//! `gardevoir-fr.txt` and `ptcg-live.txt` in turn, as `deckbox fmt` writes them, each under a
//! `// list N` comment, 1,000 to a folder. Prints, per pair, the median wall time of each
//! side, the median and the range of the rounds' ratios, and the ratio of the CPU times
//! (GNU time); asserts nothing.
//!
//! `cargo bench --bench pairs`; `DECKBOX_BENCH_DECKS` (default 50,000) lists,
//! `DECKBOX_BENCH_RUNS` (default 9) rounds, `DECKBOX_BENCH_BINARY` another build.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

#[allow(
    dead_code,
    reason = "this bench times pairs with GNU time: it takes the run count and the binary"
)]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The examples the repository's lists are copies of, in turn.
const EXAMPLES: [&str; 3] = ["dragapult.txt", "gardevoir-fr.txt", "ptcg-live.txt"];

/// Lists per folder of the generated repository.
const PER_FOLDER: usize = 1_000;

/// One pair: what it measures, its goal (the largest ratio A/B that meets it), A and B.
struct Pair {
    what: &'static str,
    goal: f64,
    a: Vec<String>,
    b: Vec<String>,
}

/// One timed run: wall seconds, CPU seconds (user + system, when GNU time is there).
struct Timed {
    wall: f64,
    cpu: Option<f64>,
}

fn main() {
    let binary = support::binary();
    let runs = support::runs(9);
    let decks = std::env::var("DECKBOX_BENCH_DECKS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(50_000);
    let Ok(dir) = tempfile::tempdir() else {
        println!("no temp dir");
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if let Err(error) = generate(&binary, &root, dir.path(), decks) {
        println!("cannot write the lists: {error}");
        return;
    }
    println!(
        "{decks} formatted lists, {runs} rounds per pair, binary {}",
        binary.display()
    );
    let repo = dir.path().display().to_string();
    let deck = root.join("examples/dragapult.txt").display().to_string();
    let words = |text: &str| -> Vec<String> {
        text.split(' ')
            .map(|word| match word {
                "DIR" => repo.clone(),
                "DECK" => deck.clone(),
                other => other.to_string(),
            })
            .collect()
    };
    let simulate = "stats DECK --no-config --simulate 20000000 --threads";
    let pairs = [
        Pair {
            what: "check DIR, 2 threads against 1",
            goal: 1.0 / 1.8,
            a: words("check --no-config --threads 2 DIR"),
            b: words("check --no-config --threads 1 DIR"),
        },
        Pair {
            what: "fmt --check DIR against check DIR",
            goal: 1.0 / 0.8,
            a: words("fmt --check --no-config DIR"),
            b: words("check --no-config DIR"),
        },
        Pair {
            what: "stats --simulate, 2 threads against 1",
            goal: 1.0 / 1.8,
            a: words(&format!("{simulate} 2")),
            b: words(&format!("{simulate} 1")),
        },
    ];
    for pair in &pairs {
        measure(&binary, pair, runs);
    }
}

/// Writes `decks` lists into `dir`: the examples as `deckbox fmt` writes them, in turn.
fn generate(binary: &Path, root: &Path, dir: &Path, decks: usize) -> std::io::Result<()> {
    let mut formatted = Vec::new();
    for example in EXAMPLES {
        let output = Command::new(binary)
            .args(["fmt", "--no-config"])
            .arg(root.join("examples").join(example))
            .stderr(Stdio::null())
            .output()?;
        if !output.status.success() {
            return Err(std::io::Error::other(format!(
                "deckbox fmt {example} failed"
            )));
        }
        formatted.push((
            example,
            String::from_utf8_lossy(&output.stdout).into_owned(),
        ));
    }
    for i in 0..decks {
        let folder = dir.join(format!("f{:03}", i / PER_FOLDER));
        if i % PER_FOLDER == 0 {
            std::fs::create_dir_all(&folder)?;
        }
        if let Some((example, text)) = formatted.get(i % formatted.len()) {
            let list = format!("// list {i}, from {example}\n\n{text}");
            std::fs::write(folder.join(format!("deck{i:05}.txt")), list)?;
        }
    }
    Ok(())
}

/// Runs A and B `runs` times each, taking turns after one run of each to warm the caches,
/// and prints what they took.
fn measure(binary: &Path, pair: &Pair, runs: usize) {
    println!("== {}", pair.what);
    let (Some(_), Some(_)) = (run(binary, &pair.a), run(binary, &pair.b)) else {
        println!("  a command failed: {:?} / {:?}", pair.a, pair.b);
        return;
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..runs {
        let order = if round % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for first in order {
            let (args, times) = if first {
                (&pair.a, &mut a)
            } else {
                (&pair.b, &mut b)
            };
            match run(binary, args) {
                Some(timed) => times.push(timed),
                None => {
                    println!("  a run failed: {args:?}");
                    return;
                }
            }
        }
    }
    let walls = |times: &[Timed]| times.iter().map(|t| t.wall).collect::<Vec<_>>();
    let ratios: Vec<f64> = a.iter().zip(&b).map(|(a, b)| a.wall / b.wall).collect();
    let cpu: Vec<f64> = (a.iter().zip(&b))
        .filter_map(|(a, b)| Some(a.cpu? / b.cpu?))
        .collect();
    let ratio = median(&ratios);
    println!("  A: {}", pair.a.join(" "));
    println!("  B: {}", pair.b.join(" "));
    println!(
        "  wall A {:.3} s, B {:.3} s (medians of {runs})",
        median(&walls(&a)),
        median(&walls(&b))
    );
    println!(
        "  A/B wall {ratio:.4} (rounds {:.4}–{:.4}), CPU {}; goal ≤ {:.4}: {}",
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
        if cpu.is_empty() {
            "not measured (no /usr/bin/time)".to_string()
        } else {
            format!("{:.4}", median(&cpu))
        },
        pair.goal,
        if ratio <= pair.goal { "met" } else { "not met" }
    );
}

/// One run of `binary args`, output thrown away; `None` when it could not do its job. The
/// CPU time comes from GNU time when it is installed.
fn run(binary: &Path, args: &[String]) -> Option<Timed> {
    let gnu_time = Path::new("/usr/bin/time");
    let timed = gnu_time.exists();
    let mut command = if timed {
        let mut command = Command::new(gnu_time);
        command.args(["-f", "%U %S"]).arg(binary);
        command
    } else {
        Command::new(binary)
    };
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let output = command.output().ok()?;
    let wall = started.elapsed().as_secs_f64();
    // 1 is a deck that breaks a rule (a rotation can make an example illegal): the command
    // did its work all the same.
    if !matches!(output.status.code(), Some(0 | 1)) {
        return None;
    }
    // GNU time's line is the last of standard error.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let cpu = timed
        .then(|| stderr.lines().last())
        .flatten()
        .and_then(|line| {
            let mut parts = line.split(' ').map(str::parse::<f64>);
            Some(parts.next()?.ok()? + parts.next()?.ok()?)
        });
    Some(Timed { wall, cpu })
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let middle = |at: usize| sorted.get(at).copied().unwrap_or(f64::NAN);
    if n % 2 == 1 {
        middle(n / 2)
    } else {
        (middle((n / 2).wrapping_sub(1)) + middle(n / 2)) / 2.0
    }
}
