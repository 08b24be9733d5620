//! Times whole `deckbox` processes on one deck, as a player or a pre-commit hook runs them:
//! `deckbox --version` (the floor: starting a process), `check` of one deck on the embedded
//! card index, the exact `stats` report (text and JSON), searches over every printing (text
//! searches in English and French, by attack and Ability name, and combined with other keys)
//! and one card's page (`card Dreepy TWM 128`). Each command runs 3 times to
//! warm the file cache, then `DECKBOX_BENCH_RUNS` times (default 30), the commands taking
//! turns so a machine whose speed drifts slows them alike. Prints mean ± standard deviation,
//! the minimum, and each command's mean above `--version`'s; asserts nothing.
//!
//! `cargo bench --bench startup` times the binary cargo built for the bench profile;
//! `DECKBOX_BENCH_BINARY=target/release/deckbox` times another build (the shipped, stripped
//! one).

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::{mean, time_ms};

fn main() {
    let runs = support::runs(30);
    let binary = support::binary();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let deck = root.join("examples/dragapult.txt");
    let deck = deck.to_string_lossy();
    let mut commands: Vec<(String, Vec<&str>)> = vec![
        ("deckbox --version".into(), vec!["--version"]),
        (
            "deckbox check examples/dragapult.txt".into(),
            vec!["check", &deck],
        ),
        (
            "deckbox stats examples/dragapult.txt".into(),
            vec!["stats", &deck],
        ),
        (
            "deckbox stats examples/dragapult.txt --output-format json".into(),
            vec!["stats", &deck, "--output-format", "json"],
        ),
    ];
    // Searches over every printing (issue 28: each at most 50 ms) and one card's page.
    let searches = [
        "Dreepy",
        "set:TWM",
        "type:psychic stage:basic hp>=120",
        "hp>=120",
        // Without `kind:supporter`: no Supporter is both rare and 5ban Graphics' before
        // 2020, and a search that finds nothing exits 1, which stopped the bench.
        "rarity:rare artist:\"5ban graphics\" year<2020",
        "legal:standard",
        "legal:expanded@2015-06-01",
        "banned:expanded",
        "text:\"discard your hand\"",
        "text:\"défaussez votre main\"",
        "attack:\"Phantom Dive\"",
        "ability:\"Recon Directive\"",
        "kind:supporter legal:standard -text:coin",
    ];
    commands.extend(searches.iter().map(|&query| {
        // The command as a shell would take it: a query with blanks or quotes in quotes.
        let quoted = match query.contains([' ', '"']) {
            true => format!("'{query}'"),
            false => query.to_string(),
        };
        let args = vec!["search", "--no-config", query];
        (format!("deckbox search {quoted}"), args)
    }));
    commands.push((
        "deckbox card Dreepy TWM 128".into(),
        vec!["card", "--no-config", "Dreepy", "TWM", "128"],
    ));
    println!(
        "startup bench: {}, {runs} runs each after 3 warm-ups, commands taking turns",
        binary.display()
    );
    let run = |args: &[&str]| -> Option<f64> {
        time_ms(
            Command::new(&binary)
                .args(args)
                .current_dir(&root)
                .env_remove("DECKBOX_AS_OF"),
        )
    };
    for _ in 0..3 {
        for (_, args) in &commands {
            run(args);
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); commands.len()];
    for _ in 0..runs {
        for ((name, args), times) in commands.iter().zip(&mut times) {
            match run(args) {
                Some(ms) => times.push(ms),
                None => {
                    println!("{name} failed");
                    return;
                }
            }
        }
    }
    let floor = mean(&times[0]);
    println!("| command | mean ± sd | min | mean above --version |");
    println!("| --- | --- | --- | --- |");
    for ((name, _), times) in commands.iter().zip(&times) {
        let minimum = times.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "| `{name}` | {:.2} ms ± {:.2} | {minimum:.2} ms | {:+.2} ms |",
            mean(times),
            deviation(times),
            mean(times) - floor
        );
    }
}

fn deviation(values: &[f64]) -> f64 {
    let m = mean(values);
    let n = values.len().saturating_sub(1).max(1) as f64;
    (values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n).sqrt()
}
