//! Loads the real TCGdex and pokemon-tcg-data checkouts from ../shared/data through the
//! cache, and checks facts about real cards, the cache, and the agreement of both sources.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use deckbox::cards::storage::checkout_cache::{self, CacheUse, IndexOptions};
use deckbox::cards::{CardDb, Category, EnergyKind, Printing, Stage, TrainerKind};
use deckbox::names::lang::Language;

struct Shared {
    tcgdex: CardDb,
    pokemontcg: CardDb,
    _cache: tempfile::TempDir,
}

/// Both databases, opened once for every test (a cold open parses ~21k files).
fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<Shared>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            let data = common::shared_data("cards_shared")?;
            let cache = tempfile::tempdir().unwrap();
            let options = options(cache.path());
            Some(Shared {
                tcgdex: checkout_cache::open(&data.join("tcgdex-repo"), &options).unwrap(),
                pokemontcg: checkout_cache::open(&data.join("pokemontcg"), &options).unwrap(),
                _cache: cache,
            })
        })
        .as_ref()
}

fn options(cache: &Path) -> IndexOptions {
    IndexOptions {
        cache_dir: Some(cache.to_path_buf()),
        rebuild: false,
    }
}

/// The one printing at `code number`, failing with what was found instead.
fn one<'a>(db: &'a CardDb, code: &str, number: &str) -> &'a Printing {
    let ids = db.by_set_number(code, number);
    assert!(!ids.is_empty(), "{code} {number} not found");
    db.get(ids[0]).unwrap()
}

#[test]
fn counts() {
    let Some(shared) = shared() else { return };
    assert_eq!(shared.tcgdex.len(), 21_159);
    assert_eq!(shared.pokemontcg.len(), 20_078);
    assert!(
        shared.tcgdex.iter().all(|(_, p)| p.series != "tcgp"),
        "TCG Pocket must be skipped"
    );
}

#[test]
fn dreepy_names_per_language() {
    let Some(shared) = shared() else { return };
    let dreepy = one(&shared.tcgdex, "TWM", "128");
    let names: Vec<(Language, &str)> = dreepy.names.iter().collect();
    assert_eq!(
        names,
        [
            (Language::En, "Dreepy"),
            (Language::Fr, "Fantyrm"),
            (Language::Es, "Dreepy"),
            (Language::Pt, "Dreepy"),
            (Language::De, "Grolldra"),
            (Language::It, "Dreepy"),
        ]
    );
    assert_eq!(dreepy.stage, Some(Stage::Basic));
    assert_eq!(dreepy.types, ["Dragon"]);
    assert_eq!(dreepy.regulation_mark, Some('H'));
    assert_eq!(dreepy.series, "sv");
    assert_eq!(dreepy.release_date, "2024-05-24");
    assert!(dreepy.effect.is_some());
    let ptcg = one(&shared.pokemontcg, "TWM", "128");
    assert_eq!(ptcg.names.primary(), "Dreepy");
}

#[test]
fn trainers_and_flags() {
    let Some(shared) = shared() else { return };
    for db in [&shared.tcgdex, &shared.pokemontcg] {
        let ultra_ball = one(db, "SVI", "196");
        assert_eq!(ultra_ball.names.primary(), "Ultra Ball");
        assert_eq!(ultra_ball.category, Category::Trainer);
        assert_eq!(ultra_ball.trainer, Some(TrainerKind::Item));
        assert!(one(db, "ASR", "46").radiant, "Radiant Greninja");
        assert!(one(db, "PR-SW", "SWSH230").radiant, "Radiant Eevee");
        assert!(one(db, "TEF", "157").ace_spec, "Prime Catcher");
        // TCGdex does not mark BW-era ACE SPECs: the curated pool does.
        assert!(one(db, "BCR", "137").ace_spec, "Computer Search");
        assert!(one(db, "PLS", "128").ace_spec, "Dowsing Machine");
        let lusamine = one(db, "LOT", "182");
        assert!(lusamine.prism_star, "{lusamine:?}");
        let mudkip = one(db, "TRR", "107");
        assert!(mudkip.pokemon_star, "{mudkip:?}");
        assert!(!one(db, "TWM", "128").pokemon_star);
    }
}

#[test]
fn special_stages() {
    let Some(shared) = shared() else { return };
    for db in [&shared.tcgdex, &shared.pokemontcg] {
        assert_eq!(one(db, "PR-SW", "SWSH139").stage, Some(Stage::VUnion));
        assert_eq!(one(db, "DEX", "53").stage, Some(Stage::Restored));
        let uxie = one(db, "LA", "146");
        assert_eq!(
            (uxie.names.primary(), uxie.stage),
            ("Uxie LV.X", Some(Stage::LevelUp))
        );
        assert_eq!(one(db, "UF", "?").names.primary(), "Unown");
        let water = one(db, "XY", "134");
        assert_eq!(water.energy, Some(EnergyKind::Basic), "{water:?}");
        assert_eq!(one(db, "XY", "131").energy, Some(EnergyKind::Special));
    }
}

#[test]
fn codes_as_written_in_lists() {
    let Some(shared) = shared() else { return };
    let db = &shared.tcgdex;
    assert_eq!(one(db, "PR-SV", "001").names.primary(), "Sprigatito");
    assert_eq!(one(db, "SVP", "1").names.primary(), "Sprigatito");
    let colress = one(db, "CRZ-GG", "59");
    assert_eq!(colress.names.primary(), "Colress's Experiment");
    assert_eq!(
        one(db, "CRZ", "GG59").names.primary(),
        "Colress's Experiment"
    );
    assert_eq!(one(db, "BRS", "TG05").names.primary(), "Zekrom");
    assert_eq!(
        one(&shared.pokemontcg, "PR-SV", "1").names.primary(),
        "Sprigatito"
    );
}

#[test]
fn recent_cards_resolve_to_themselves() {
    let Some(shared) = shared() else { return };
    let db = &shared.tcgdex;
    let mut bad = Vec::new();
    for (id, printing) in db.iter() {
        if !matches!(printing.regulation_mark, Some('H' | 'I' | 'J')) {
            continue;
        }
        let found = db.by_set_number(&printing.set_code, &printing.number);
        if printing.set_code.is_empty() || !found.contains(&id) {
            bad.push(format!(
                "{} {:?}",
                printing.set_id,
                printing.printing_label()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} cards do not resolve: {:?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

/// Both sources on the sets they share: same set code + number should carry the same
/// English name. Names differ in small ways (apostrophes, `(Giovanni)`-style additions),
/// so the comparison folds those. Measured: 0.33% disagree (60 "A" alternate prints and
/// Aquapolis variants TCGdex lacks, 5 spellings); up to 0.5% is tolerated.
#[test]
fn sources_agree() {
    let Some(shared) = shared() else { return };
    let key = |p: &Printing| (p.set_code.clone(), p.number.clone());
    let mut tcgdex: HashMap<(String, String), Vec<&Printing>> = HashMap::new();
    for (_, printing) in shared.tcgdex.iter() {
        tcgdex.entry(key(printing)).or_default().push(printing);
    }
    let shared_codes: std::collections::HashSet<&str> = shared
        .tcgdex
        .iter()
        .map(|(_, p)| p.set_code.as_str())
        .collect();
    let (mut compared, mut missing, mut differ) = (0, Vec::new(), Vec::new());
    for (_, printing) in shared.pokemontcg.iter() {
        // Celebrations' Classic Collection: TCGdex numbers it CC1-CC25, pokemon-tcg-data
        // by the original cards' numbers (`4`, `15_A`), which collide with CEL 1-25.
        if !shared_codes.contains(printing.set_code.as_str()) || printing.set_id == "cel25c" {
            continue;
        }
        compared += 1;
        let name = fold(printing.names.primary());
        match tcgdex.get(&key(printing)) {
            None => missing.push(printing.printing_label()),
            Some(found) if !found.iter().any(|p| fold(p.names.primary()) == name) => {
                differ.push(format!(
                    "{} {:?} vs {:?}",
                    printing.printing_label(),
                    printing.names.primary(),
                    found[0].names.primary()
                ))
            }
            Some(_) => {}
        }
    }
    let rate = (missing.len() + differ.len()) as f64 / compared as f64;
    eprintln!(
        "sources_agree: {compared} compared, {} missing in TCGdex, {} with another name ({:.2}%)",
        missing.len(),
        differ.len(),
        rate * 100.0
    );
    assert!(
        rate < 0.005,
        "{:.2}% disagree; missing: {:?}; differ: {:?}",
        rate * 100.0,
        &missing[..missing.len().min(40)],
        &differ[..differ.len().min(120)]
    );
}

/// What is left of a name once spelling noise is gone: `(...)` additions, spaces and
/// punctuation, case, accents on `é`, and the ways of writing a Pokémon Star.
fn fold(name: &str) -> String {
    let name = name.split(" (").next().unwrap_or(name);
    let name = name.strip_prefix("Basic ").unwrap_or(name);
    name.replace(['★', '☆'], "star")
        .replace('é', "e")
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '♂' | '♀' | 'δ' | '◇'))
        .collect()
}

#[test]
fn second_open_reads_the_cache() {
    let Some(data) = common::shared_data("second_open_reads_the_cache") else {
        return;
    };
    let cache = tempfile::tempdir().unwrap();
    let path = data.join("pokemontcg");
    let started = Instant::now();
    let (_, first) = checkout_cache::open_with_status(&path, &options(cache.path())).unwrap();
    let cold = started.elapsed();
    let started = Instant::now();
    let (db, second) = checkout_cache::open_with_status(&path, &options(cache.path())).unwrap();
    let warm = started.elapsed();
    assert_eq!((first, second), (CacheUse::Built, CacheUse::Hit));
    assert_eq!(db.len(), 20_078);
    let canonical = std::fs::canonicalize(&path).unwrap();
    assert!(
        checkout_cache::cache_path(&canonical, &options(cache.path()))
            .unwrap()
            .is_file()
    );
    eprintln!("pokemontcg: cold {cold:?}, warm {warm:?}");
    let rebuilt = IndexOptions {
        rebuild: true,
        ..options(cache.path())
    };
    assert_eq!(
        checkout_cache::open_with_status(&path, &rebuilt).unwrap().1,
        CacheUse::Built
    );
}

/// A small TCGdex tree made from real files: adding a card, or a corrupt cache, rebuilds.
#[test]
fn changes_to_a_small_tree_rebuild_the_cache() {
    let Some(data) = common::shared_data("changes_to_a_small_tree") else {
        return;
    };
    let source = data.join("tcgdex-repo/data");
    let tree = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let copy = |rel: &str| {
        let to = tree.path().join("data").join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(source.join(rel), &to).unwrap();
    };
    copy("Scarlet & Violet.ts");
    copy("Scarlet & Violet/Twilight Masquerade.ts");
    copy("Scarlet & Violet/Twilight Masquerade/128.ts");
    let open = || checkout_cache::open_with_status(tree.path(), &options(cache.path())).unwrap();
    let (db, status) = open();
    assert_eq!((db.len(), status), (1, CacheUse::Built));
    assert_eq!(open().1, CacheUse::Hit);

    copy("Scarlet & Violet/Twilight Masquerade/129.ts");
    let (db, status) = open();
    assert_eq!((db.len(), status), (2, CacheUse::Built));

    let set_dir = tree
        .path()
        .join("data/Scarlet & Violet/Twilight Masquerade");
    std::fs::rename(set_dir.join("129.ts"), set_dir.join("130.ts")).unwrap();
    let (db, status) = open();
    assert_eq!(status, CacheUse::Built);
    assert_eq!(db.by_set_number("TWM", "130").len(), 1);

    let canonical = std::fs::canonicalize(tree.path()).unwrap();
    let file: PathBuf = checkout_cache::cache_path(&canonical, &options(cache.path())).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let (db, status) = open();
    assert_eq!((db.len(), status), (2, CacheUse::Built));
}

#[test]
fn unwritable_cache_is_not_an_error() {
    let Some(data) = common::shared_data("unwritable_cache") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let (db, status) = checkout_cache::open_with_status(
        &data.join("pokemontcg"),
        &options(&blocker.join("cache")),
    )
    .unwrap();
    assert_eq!((db.len(), status), (20_078, CacheUse::Uncached));
}
