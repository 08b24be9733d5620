//! How long `deckbox lsp` takes to have a 60-card list's diagnostics after an edit: the
//! buffer read within `check`'s bounds and checked in its settings' format
//! (`session::editor::analyse`), its findings placed (`Buffer::findings`) and their spans
//! converted to the protocol's UTF-16 positions (`Lines`), which is all the server does
//! between the last `didChange` of a burst and `publishDiagnostics`. Each run edits one line
//! (a count changes, so the list differs from the last run's). The goal is 30 ms (issue 45).
//! Prints the median, the 99th percentile and the maximum; asserts nothing.
//!
//! `cargo bench --bench lsp`; `DECKBOX_BENCH_RUNS` sets the repetitions (default 200).

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench fails loudly")]

#[allow(
    dead_code,
    reason = "this bench times edits in-process: it takes only the run count"
)]
mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use deckbox::session::editor::{self, Lines};
use deckbox::settings::{Flags, Settings};

fn main() {
    let runs = support::runs(200);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("examples/dragapult.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let flags = Flags {
        no_config: true,
        as_of: deckbox::util::date::parse("2026-11-25"),
        ..Flags::default()
    };
    let settings = Settings::resolve(&flags).unwrap();
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut findings = 0;
    for run in 0..runs + 5 {
        // An edit: the first card line's count goes 1, 2, 3, 4, 1, ...
        let count = run % 4 + 1;
        let edited = text.replacen("4 Dreepy", &format!("{count} Dreepy"), 1);
        let start = Instant::now();
        let buffer = editor::analyse(&settings, &path, &edited).unwrap();
        let lines = Lines::new(&buffer.input.text);
        let placed: Vec<_> = buffer
            .findings()
            .into_iter()
            .map(|finding| {
                (
                    lines.position(finding.span.offset),
                    lines.position(finding.span.end()),
                )
            })
            .collect();
        let took = start.elapsed();
        findings += placed.len();
        // The first runs warm the caches.
        if run >= 5 {
            times.push(took);
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "lsp bench: diagnostics of examples/dragapult.txt (60 cards) after an edit, {runs} runs ({findings} findings placed)"
    );
    println!(
        "median {:.2} ms, p99 {:.2} ms, max {:.2} ms (goal: 30 ms)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
