//! Exact odds of long questions against the plain command on the same deck, whole
//! processes as a player runs them (issue 33 item 1): `stats` with an event of eight terms
//! over eight distinct turns against a plain `stats`, `stats --turns 30` with an eight-term
//! query against a plain `stats --turns 30`, and `odds --draws 40` with eight terms of `>=2`
//! against a plain `odds --draws 40`; and the costliest questions found within the bounds
//! of issue 51 item 2 against a plain `stats` over the same turns. Each pair runs
//! `DECKBOX_BENCH_RUNS` times (default 10) after a warm-up, the two commands taking turns;
//! prints the mean time of each, the ratio of the means, and the peak RSS of one run of
//! each (GNU time, when /usr/bin/time exists).
//! Asserts nothing: the figures go to docs/performance.md.
//!
//! `cargo bench --bench exact` times the binary cargo built for the bench profile;
//! `DECKBOX_BENCH_BINARY=target/release/deckbox` times another build.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::{mean, time_ms};

const EVENT: &str = "Dreepy>=1 by T1 & Drakloak>=1 by T2 & Rare Candy>=1 by T3 \
    & Dragapult ex>=1 by T4 & Ultra Ball>=2 by T5 & Buddy-Buddy Poffin>=1 by T6 \
    & Psychic Energy>=2 by T7 & Boss's Orders>=1 by T8";

const EIGHT: &str = "Dreepy>=2 & Drakloak>=2 & Rare Candy>=2 & Dragapult ex>=2 & Ultra Ball>=2 \
    & Buddy-Buddy Poffin>=2 & Psychic Energy>=2 & Poké Pad>=2";

/// The costliest questions found within the bounds of issue 51 item 2 (docs/statistics.md,
/// "Bounds"): `==` terms, which no count decides early, over 6 turns; a term of `>=3` among
/// seven of `>=2` over 30 turns; eight `>=3` joined by `|` over 30 turns.
const EQUAL: &str = "Dreepy==3 & Drakloak==3 & Rare Candy==3 & Dragapult ex==2 & Ultra Ball==3 \
    & Buddy-Buddy Poffin==2 & Psychic Energy==3 & Poké Pad==2";

const ONE_THREE: &str = "Dreepy>=3 & Drakloak>=2 & Rare Candy>=2 & Dragapult ex>=2 \
    & Ultra Ball>=2 & Buddy-Buddy Poffin>=2 & Psychic Energy>=2 & Poké Pad>=2";

const ANY_THREE: &str = "Dreepy>=3 | Drakloak>=3 | Rare Candy>=3 | Dragapult ex>=3 \
    | Ultra Ball>=3 | Buddy-Buddy Poffin>=3 | Psychic Energy>=3 | Poké Pad>=3";

fn main() {
    let runs = support::runs(10);
    let binary = support::binary();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let deck = root.join("examples/dragapult.txt");
    let deck = deck.to_string_lossy().into_owned();
    let d = deck.as_str();
    let pairs: [(&str, Vec<&str>, Vec<&str>); 6] = [
        (
            "stats --want: 8 terms over 8 distinct turns",
            vec!["stats", d],
            vec!["stats", d, "--want", EVENT],
        ),
        (
            "stats --turns 30 --want: 8 terms",
            vec!["stats", d, "--turns", "30"],
            vec!["stats", d, "--turns", "30", "--want", EIGHT],
        ),
        (
            "odds --draws 40 --want: 8 terms of >=2",
            vec!["odds", d, "--draws", "40"],
            vec!["odds", d, "--draws", "40", "--want", EIGHT],
        ),
        (
            "stats --turns 6 --want: 8 terms of ==",
            vec!["stats", d, "--turns", "6"],
            vec!["stats", d, "--turns", "6", "--want", EQUAL],
        ),
        (
            "stats --turns 30 --want: 7 terms of >=2, 1 of >=3",
            vec!["stats", d, "--turns", "30"],
            vec!["stats", d, "--turns", "30", "--want", ONE_THREE],
        ),
        (
            "stats --turns 30 --want: 8 terms of >=3 joined by |",
            vec!["stats", d, "--turns", "30"],
            vec!["stats", d, "--turns", "30", "--want", ANY_THREE],
        ),
    ];
    println!(
        "exact bench: {}, {runs} runs each after a warm-up, the two commands taking turns",
        binary.display()
    );
    println!("| question | plain | with the query | ratio | peak RSS plain / query |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, plain, query) in &pairs {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for round in 0..=runs {
            let (Some(x), Some(y)) = (time(&binary, &root, plain), time(&binary, &root, query))
            else {
                println!("| {name} | failed | | | |");
                return;
            };
            if round > 0 {
                a.push(x);
                b.push(y);
            }
        }
        let (ma, mb) = (mean(&a), mean(&b));
        let peak = |args: &[&str]| peak_mb(&binary, &root, args).unwrap_or(f64::NAN);
        println!(
            "| {name} | {ma:.2} ms | {mb:.2} ms | {:.2}× | {:.1} / {:.1} MB |",
            mb / ma,
            peak(plain),
            peak(query)
        );
    }
}

/// Wall time of one run in milliseconds; `None` when it fails.
fn time(binary: &Path, root: &Path, args: &[&str]) -> Option<f64> {
    time_ms(
        Command::new(binary)
            .args(args)
            .arg("--no-config")
            .current_dir(root),
    )
}

/// Peak resident memory of one run in MB, from GNU time.
fn peak_mb(binary: &Path, root: &Path, args: &[&str]) -> Option<f64> {
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(binary)
        .args(args)
        .arg("--no-config")
        .current_dir(root)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kib: f64 = stderr.lines().last()?.trim().parse().ok()?;
    Some(kib / 1024.0)
}
