//! Times opening the real card databases in ../shared/data: the first build into an empty
//! cache folder, warm opens that read the cache, and a warm open followed by checking
//! examples/dragapult.txt (what `deckbox check --cards` does). Also times the pieces of a
//! warm open (fingerprint, curated-flags hash, reading the cache file) and what statting
//! every file would cost. Run with `cargo bench --bench index`; prints its results and
//! asserts nothing.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use deckbox::cards::sources::{curated, from_tcgdex};
use deckbox::cards::storage::checkout_cache::{self, CacheUse, IndexOptions, Layout};
use deckbox::cards::storage::embedded;
use deckbox::check;
use deckbox::deck::DeckInput;
use deckbox::formats::Format;

const WARM_RUNS: u32 = 20;

fn main() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = manifest.join("../shared/data");
    if !data.join("SOURCES.md").is_file() {
        println!("index bench skipped: ../shared/data is missing");
        return;
    }
    let Ok(cache) = tempfile::tempdir() else {
        println!("index bench skipped: no temp dir");
        return;
    };
    let deck = std::fs::read(manifest.join("examples/dragapult.txt")).unwrap_or_default();
    let deck = DeckInput::from_bytes("examples/dragapult.txt", &deck);
    for (name, path, layout) in [
        ("tcgdex", data.join("tcgdex-repo"), Layout::Tcgdex),
        ("pokemontcg", data.join("pokemontcg"), Layout::PokemonTcg),
    ] {
        bench_source(name, &path, layout, cache.path(), &deck);
    }
    let curated = median(WARM_RUNS, || curated::load().ok().map(|pool| pool.len()));
    println!("curated flags parse (for the curated-flags hash) {curated:.2?}");
    let embedded = median(WARM_RUNS, || embedded::open().ok().map(|db| db.len()));
    println!("embedded card index open {embedded:.2?}");
    stat_everything(&data.join("tcgdex-repo"));
    if let Ok(loaded) = from_tcgdex::load_detailed(&data.join("tcgdex-repo")) {
        println!(
            "tcgdex: {} printings, {} records skipped",
            loaded.printings.len(),
            loaded.skipped.len()
        );
        for skipped in loaded.skipped.iter().take(10) {
            println!("  skipped {}: {}", skipped.path.display(), skipped.reason);
        }
    }
}

fn bench_source(name: &str, path: &Path, layout: Layout, cache: &Path, deck: &DeckInput) {
    let options = IndexOptions {
        cache_dir: Some(cache.join(name)),
        rebuild: false,
    };
    let started = Instant::now();
    let (db, status) = match checkout_cache::open_with_status(path, &options) {
        Ok(opened) => opened,
        Err(err) => {
            println!("{name}: could not open {}: {err}", path.display());
            return;
        }
    };
    let cold = started.elapsed();
    println!(
        "{name}: first build {cold:.2?} ({} printings, {status:?})",
        db.len()
    );
    let warm = median(WARM_RUNS, || {
        let (_, status) = checkout_cache::open_with_status(path, &options).ok()?;
        (status == CacheUse::Hit).then_some(())
    });
    println!("{name}: warm open median of {WARM_RUNS}: {warm:.2?}");
    let Ok(format) = Format::load("unlimited") else {
        println!("{name}: no unlimited format");
        return;
    };
    let checked = median(WARM_RUNS, || {
        let (db, status) = checkout_cache::open_with_status(path, &options).ok()?;
        let checked = check::check(deck, &db, &format);
        (status == CacheUse::Hit).then_some(checked)
    });
    println!("{name}: warm open + check dragapult.txt median: {checked:.2?}");
    pieces(name, path, layout, &options);
}

/// The parts of a warm open that do not depend on the cache's contents.
fn pieces(name: &str, path: &Path, layout: Layout, options: &IndexOptions) {
    let Ok(root) = std::fs::canonicalize(path) else {
        return;
    };
    let fingerprint = median(WARM_RUNS, || {
        Some(checkout_cache::fingerprint(&root, layout))
    });
    println!("{name}:   fingerprint {fingerprint:.2?}");
    let Some(file) = checkout_cache::cache_path(&root, options) else {
        return;
    };
    let size = std::fs::metadata(&file).map_or(0, |m| m.len());
    let read = median(WARM_RUNS, || {
        std::fs::read(&file).ok().map(|bytes| bytes.len())
    });
    println!(
        "{name}:   read the cache file {read:.2?} ({:.1} MiB)",
        size as f64 / 1048576.0
    );
}

fn median<T>(runs: u32, mut f: impl FnMut() -> Option<T>) -> Duration {
    let mut times = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        if f().is_none() {
            return Duration::MAX;
        }
        times.push(started.elapsed());
    }
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// What a fingerprint of every file's mtime and size would cost.
fn stat_everything(root: &Path) {
    fn walk(dir: &Path, count: &mut usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if let Ok(meta) = std::fs::metadata(&path) {
                *count += 1;
                if meta.is_dir() {
                    walk(&path, count);
                }
            }
        }
    }
    let mut count = 0;
    let time = median(5, || {
        count = 0;
        walk(root, &mut count);
        Some(())
    });
    println!("tcgdex: statting all {count} entries takes {time:.2?}");
}
