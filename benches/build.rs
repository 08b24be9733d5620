//! How long `deckbox build` takes to answer one key on a 60-card deck: the key's change to
//! the state (an edit re-checks the list and recomputes P(mulligan); a move recomputes the
//! highlighted card's exact odds) and the whole screen drawn (on ratatui's test backend at
//! 120×40, so no terminal's own speed is counted). A search runs on a thread of its own in
//! the builder, so a typed letter redraws at once; the search's own time (until its results
//! are shown) is printed on its own line.
//! The budget is 16 ms a key (one frame at 60 Hz). Prints the median, the 99th percentile
//! and the maximum per kind of key; asserts nothing.
//!
//! `cargo bench --bench build`; `DECKBOX_BENCH_RUNS` sets the repetitions (default 200).
//! The builder's model is the library's (`deckbox::builder`); its drawing lives in the
//! binary (`src/cli/builder/ui.rs`), which the bench compiles.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench fails loudly")]

#[allow(
    dead_code,
    reason = "this bench times keys in-process: it takes only the run count"
)]
mod support;

#[allow(dead_code, reason = "the bench draws the whole screen only")]
#[path = "../src/cli/builder/ui.rs"]
mod ui;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use deckbox::builder::{Builder, Effect, Key, Message};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    let runs = support::runs(200);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("examples/dragapult.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let date = deckbox::util::date::parse("2026-11-25");
    let format = deckbox::formats::Format::load_at("standard", date).unwrap();
    // The same deck exported as JSON (`deckbox convert --to json`): an edit writes the list
    // again as `fmt --write` does.
    let json = {
        let input = deckbox::deck::DeckInput::from_bytes("dragapult.txt", text.as_bytes());
        let deck = deckbox::check::check(&input, &db, &format);
        let listing = deckbox::edit::listing::build(&deck, &db).unwrap();
        deckbox::edit::listing::render(&listing, deckbox::edit::listing::Layout::Json)
    };
    let mut json_app = Builder::new(
        deckbox::cards::storage::embedded::open().unwrap(),
        format.clone(),
        path.with_extension("json"),
        json,
        true,
    );
    let mut app = Builder::new(db, format, path, text, true);
    assert_eq!(
        app.deck().card_count(),
        60,
        "the bench needs a 60-card deck"
    );
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let scroll = ui::Scroll::default();
    let mut key = |app: &mut Builder, key: Key| {
        let start = Instant::now();
        app.update(Message::Key(key));
        terminal
            .draw(|frame| ui::draw(frame, app, &scroll))
            .unwrap();
        start.elapsed()
    };
    // Fill the results once, then time keys in the deck and in the results.
    for c in "Dreepy".chars() {
        key(&mut app, Key::Char(c));
    }
    key(&mut app, Key::Enter);
    let mut times: Vec<(&str, Vec<Duration>)> = vec![
        ("deck: + (edit, check, odds)", Vec::new()),
        ("deck: - (edit, check, odds)", Vec::new()),
        ("deck: j (move, card odds)", Vec::new()),
        ("results: j (move)", Vec::new()),
        ("search: type a letter", Vec::new()),
        ("search itself (own thread)", Vec::new()),
        ("JSON list, deck: + (written again)", Vec::new()),
        ("JSON list, deck: -", Vec::new()),
    ];
    key(&mut json_app, Key::Enter);
    key(&mut json_app, Key::Tab);
    for run in 0..runs {
        key(&mut app, Key::Tab);
        times[0].1.push(key(&mut app, Key::Char('+')));
        times[1].1.push(key(&mut app, Key::Char('-')));
        times[2].1.push(key(
            &mut app,
            if run % 20 < 10 {
                Key::Char('j')
            } else {
                Key::Char('k')
            },
        ));
        key(&mut app, Key::Tab);
        times[3].1.push(key(&mut app, Key::Char('j')));
        key(&mut app, Key::Char('/'));
        let letter = if run % 2 == 0 {
            Key::Char('x')
        } else {
            Key::Backspace
        };
        times[4].1.push(key(&mut app, letter));
        let start = Instant::now();
        for effect in app.update(Message::Idle) {
            if let Effect::Search(request) = effect {
                let answer = request.run(app.db());
                app.update(Message::Answer(answer));
            }
        }
        times[5].1.push(start.elapsed());
        key(&mut app, Key::Enter);
        times[6].1.push(key(&mut json_app, Key::Char('+')));
        times[7].1.push(key(&mut json_app, Key::Char('-')));
    }
    println!("build bench: examples/dragapult.txt (60 cards), 120×40 test backend, {runs} runs");
    for (what, mut durations) in times {
        durations.sort();
        let at = |q: f64| durations[((durations.len() - 1) as f64 * q) as usize];
        println!(
            "{what:<36} median {:>6.2} ms  p99 {:>6.2} ms  max {:>6.2} ms",
            ms(at(0.5)),
            ms(at(0.99)),
            ms(at(1.0))
        );
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
