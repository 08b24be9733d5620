//! What the whole-process benches share: how many runs, which binary, one timed run, the
//! mean. Included by each bench with `mod support;` (a folder with `mod.rs`, so cargo does
//! not take it for a bench of its own).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// `DECKBOX_BENCH_RUNS`, else `default`.
pub fn runs(default: usize) -> usize {
    std::env::var("DECKBOX_BENCH_RUNS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// `DECKBOX_BENCH_BINARY`, else the binary cargo built for the bench profile.
pub fn binary() -> PathBuf {
    std::env::var_os("DECKBOX_BENCH_BINARY").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_deckbox")),
        PathBuf::from,
    )
}

/// Wall time of `command` run once, output discarded, in milliseconds; `None` when it
/// fails.
pub fn time_ms(command: &mut Command) -> Option<f64> {
    let started = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status
        .success()
        .then(|| started.elapsed().as_secs_f64() * 1000.0)
}

pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}
