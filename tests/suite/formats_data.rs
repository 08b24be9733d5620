//! The data in `formats/` against the card data in ../shared/data: every built-in format
//! loads, every banned, included or excluded printing exists under the name the file gives,
//! the Game Boy pool holds only cards of 2000 or earlier, and the GLC and Expanded ban lists
//! hold what their sources say.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use deckbox::cards::storage::checkout_cache;
use deckbox::cards::{CardDb, Printing};
use deckbox::formats::Format;
use deckbox::names;

fn tcgdex() -> Option<&'static CardDb> {
    static DB: OnceLock<Option<CardDb>> = OnceLock::new();
    DB.get_or_init(|| {
        let data = common::shared_data("formats data")?;
        let options = checkout_cache::IndexOptions {
            cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deckbox-cache")),
            rebuild: false,
        };
        Some(checkout_cache::open(&data.join("tcgdex-repo"), &options).unwrap())
    })
    .as_ref()
}

/// The date these tests judge at, as `.cargo/config.toml` pins it for the binary.
fn pinned() -> jiff::civil::Date {
    jiff::civil::date(2026, 11, 25)
}

fn builtin() -> Vec<Format> {
    Format::builtin_ids()
        .map(|id| {
            Format::load_at(id, Some(pinned())).unwrap_or_else(|error| panic!("{id}: {error}"))
        })
        .collect()
}

fn load(id: &str) -> Format {
    Format::load_at(id, Some(pinned())).unwrap()
}

/// The printings filed under `set` + `number`.
fn printings<'a>(db: &'a CardDb, set: &str, number: &str) -> Vec<&'a Printing> {
    db.by_set_number(set, number)
        .iter()
        .map(|&id| db.get(id).unwrap())
        .collect()
}

/// `"SET NUMBER"` as format files write an include/exclude entry.
fn split_entry(entry: &str) -> (&str, &str) {
    let mut parts = entry.split_whitespace();
    let (Some(set), Some(number), None) = (parts.next(), parts.next(), parts.next()) else {
        panic!("`{entry}` is not `SET NUMBER`");
    };
    (set, number)
}

fn same_name(printing: &Printing, name: &str) -> bool {
    names::lookup_key(printing.names.primary()) == names::lookup_key(name)
}

#[test]
fn every_builtin_format_loads_with_its_own_id() {
    for format in builtin() {
        assert!(!format.name.is_empty(), "{}", format.id);
        // Built-in formats judge at the date asked, else today: none is frozen at a date.
        assert!(format.as_of.is_none(), "{}: as_of", format.id);
        assert!(!format.sources.is_empty(), "{}: no sources", format.id);
        for pair in format.seasons.windows(2) {
            assert!(
                pair[0].from < pair[1].from,
                "{}: {}",
                format.id,
                pair[1].name
            );
        }
        for season in &format.seasons {
            assert!(!season.source.is_empty(), "{}: {}", format.id, season.name);
        }
    }
    let ids: Vec<String> = builtin().into_iter().map(|f| f.id).collect();
    let expected: Vec<String> = Format::builtin_ids().map(String::from).collect();
    assert_eq!(ids, expected);
}

#[test]
fn ban_entries_are_well_formed_and_sorted() {
    for format in builtin() {
        let mut previous = String::new();
        let mut previous_date = jiff::civil::Date::MIN;
        for ban in &format.all_bans {
            if let Some(until) = ban.until {
                assert!(
                    ban.date < until,
                    "{}: {} lifted before it began",
                    format.id,
                    ban.name
                );
            }
            assert!(
                !ban.source.is_empty(),
                "{}: {} has no source",
                format.id,
                ban.name
            );
            assert_eq!(
                ban.set.is_some(),
                ban.number.is_some(),
                "{}: {}",
                format.id,
                ban.name
            );
            // A format without history lists its bans by name; one with seasons by date.
            let key = ban.name.to_lowercase();
            if format.seasons.is_empty() {
                assert!(previous <= key, "{}: {} out of order", format.id, ban.name);
            } else {
                assert!(
                    previous_date <= ban.date,
                    "{}: {} out of order",
                    format.id,
                    ban.name
                );
            }
            previous = key;
            previous_date = ban.date;
        }
    }
}

#[test]
fn banned_printings_exist_under_the_banned_name() {
    let Some(db) = tcgdex() else { return };
    for format in builtin() {
        for ban in &format.bans {
            let (Some(set), Some(number)) = (&ban.set, &ban.number) else {
                continue;
            };
            let found = printings(db, set, number);
            assert!(
                !found.is_empty(),
                "{}: {} {set} {number} not found",
                format.id,
                ban.name
            );
            for printing in found {
                assert!(
                    same_name(printing, &ban.name),
                    "{}: {set} {number} is {}, not {}",
                    format.id,
                    printing.names.primary(),
                    ban.name
                );
            }
        }
    }
}

#[test]
fn name_wide_bans_name_known_cards() {
    let Some(db) = tcgdex() else { return };
    for format in builtin() {
        for ban in format.bans.iter().filter(|ban| ban.set.is_none()) {
            let known = db
                .by_name(&ban.name)
                .iter()
                .any(|hit| same_name(db.get(hit.id).unwrap(), &ban.name));
            assert!(known, "{}: no card is named {}", format.id, ban.name);
        }
    }
}

#[test]
fn included_and_excluded_printings_exist() {
    let Some(db) = tcgdex() else { return };
    for format in builtin() {
        let seasons = format
            .seasons
            .iter()
            .filter_map(|season| season.pool.as_ref());
        for pool in std::iter::once(&format.pool).chain(seasons) {
            for entry in pool.include.iter().chain(&pool.exclude) {
                let (set, number) = split_entry(entry);
                // A range (`BW1..BW32`): both ends are printings.
                for number in number.split("..") {
                    assert!(
                        !printings(db, set, number).is_empty(),
                        "{}: `{entry}` names no printing",
                        format.id
                    );
                }
            }
        }
    }
}

#[test]
fn errata_name_printings_that_exist() {
    let Some(db) = tcgdex() else { return };
    for format in builtin() {
        for erratum in &format.errata {
            // `Name (SET NUM, SET NUM)`: every printing named must carry the name.
            let (name, list) = erratum.card.split_once(" (").unwrap();
            for entry in list.trim_end_matches(')').split(", ") {
                let (set, number) = split_entry(entry);
                let found = printings(db, set, number);
                assert!(
                    !found.is_empty(),
                    "{}: erratum `{}`",
                    format.id,
                    erratum.card
                );
                assert!(found.iter().all(|p| same_name(p, name)), "{}", erratum.card);
            }
        }
    }
}

#[test]
fn gameboy_pool_is_the_games_sets_and_promos_of_2000_or_earlier() {
    let Some(db) = tcgdex() else { return };
    let format = load("gameboy");
    let sets = format.pool.sets.clone().unwrap();
    let mut per_set: BTreeSet<&str> = BTreeSet::new();
    let mut admitted = 0;
    for (_, printing) in db.iter() {
        let in_sets = sets.contains(&printing.set_code);
        if in_sets {
            per_set.insert(&printing.set_code);
            // Every card of the four sets is in the pool.
            assert_eq!(
                format.admits(printing),
                Ok(()),
                "{}",
                printing.printing_label()
            );
        }
        if format.admits(printing).is_ok() {
            admitted += 1;
            assert!(
                !printing.release_date.is_empty() && printing.release_date.as_str() <= "2000-12-31",
                "{} released {}",
                printing.printing_label(),
                printing.release_date
            );
        }
    }
    let expected: BTreeSet<&str> = sets.iter().map(String::as_str).collect();
    assert_eq!(
        per_set, expected,
        "a set code of the pool matches no printing"
    );
    let in_sets = db
        .iter()
        .filter(|(_, p)| expected.contains(p.set_code.as_str()))
        .count();
    assert_eq!(admitted, in_sets + format.pool.include.len());
    // Reprint sets the games never had stay out.
    for (set, number) in [("B2", "1"), ("LC", "1")] {
        for printing in printings(db, set, number) {
            assert!(format.admits(printing).is_err(), "{set} {number}");
        }
    }
}

#[test]
fn gameboy_setup_follows_its_rules() {
    let setup = load("gameboy").setup;
    assert!(!setup.mulligan_extra_draw, "rule 0.4");
    assert!(setup.first_player_draws, "rule A.2");
    assert!(setup.first_turn_attack, "rule C");
    // Its rules (J.1) let every Trainer be played from the first turn and name no Supporter.
    assert_eq!(setup.first_turn_supporter, None);
    assert_eq!(setup.prizes, 6, "rule 0.7");
}

#[test]
fn glc_bans_what_its_updates_ban() {
    let format = load("glc");
    let has = |name: &str, set: Option<&str>, number: Option<&str>| {
        format.bans.iter().any(|ban| {
            names::lookup_key(&ban.name) == names::lookup_key(name)
                && ban.set.as_deref() == set
                && ban.number.as_deref() == number
        })
    };
    let printings = [
        ("Oranguru", "UPR", "114"),
        ("Lysandre's Trump Card", "PHF", "99"),
        ("Lysandre's Trump Card", "PHF", "118"),
        ("Marshadow", "SLG", "45"),
        ("Marshadow", "SMP", "SM85"),
        ("Duskull", "CEC", "83"),
        // Amazing Raikou: the card's name is Raikou.
        ("Raikou", "VIV", "50"),
    ];
    for (name, set, number) in printings {
        assert!(has(name, Some(set), Some(number)), "{name} {set} {number}");
    }
    for name in [
        "Double Colorless Energy",
        "Twin Energy",
        "Forest of Giant Plants",
    ] {
        assert!(has(name, None, None), "{name} (every printing)");
    }
    assert_eq!(
        format.bans.len(),
        printings.len() + 3,
        "GLC has its own list only"
    );
    let construction = &format.construction;
    assert_eq!(construction.copy_limit, 1);
    assert_eq!(construction.ace_spec_limit, Some(0));
    assert!(construction.single_type && !construction.rule_box_allowed);
}

#[test]
fn glc_pool_is_the_expanded_pool() {
    let glc = load("glc");
    assert_eq!(glc.extends.as_deref(), Some("expanded-pool"));
    assert_eq!(glc.pool, load("expanded").pool);
    // GLC counts Professor's Research with Juniper and Sycamore, Boss's Orders with
    // Lysandre (its FAQ), instead of the Play! Pokémon pair.
    let groups: Vec<Vec<String>> = glc
        .construction
        .exclusive
        .iter()
        .map(|group| group.names.clone())
        .collect();
    assert_eq!(
        groups,
        [
            vec![
                "Professor Juniper".to_string(),
                "Professor Sycamore".to_string(),
                "Professor's Research".to_string()
            ],
            vec!["Lysandre".to_string(), "Boss's Orders".to_string()],
        ]
    );
}

#[test]
fn expanded_bans_exactly_the_listed_printings() {
    let expected: BTreeSet<(String, String, String)> = [
        ("Archeops", "NVI", "67"),
        ("Archeops", "DEX", "110"),
        ("Chip-Chip Ice Axe", "UNB", "165"),
        ("Delinquent", "BKP", "98"),
        ("Flabébé", "FLI", "83"),
        ("Forest of Giant Plants", "AOR", "74"),
        ("Ghetsis", "PLF", "101"),
        ("Ghetsis", "PLF", "115"),
        ("Hex Maniac", "AOR", "75"),
        ("Island Challenge Amulet", "CEC", "194"),
        ("Jessie & James", "HIF", "58"),
        ("Jessie & James", "HIF", "68"),
        ("Lt. Surge's Strategy", "UNB", "178"),
        ("Lysandre's Trump Card", "PHF", "99"),
        ("Lysandre's Trump Card", "PHF", "118"),
        ("Maxie's Hidden Ball Trick", "PRC", "133"),
        ("Maxie's Hidden Ball Trick", "PRC", "158"),
        ("Sableye", "DEX", "62"),
        ("Duskull", "CEC", "83"),
        ("Flapple", "RCL", "22"),
        ("Medicham V", "EVS", "83"),
        ("Medicham V", "EVS", "185"),
        ("Medicham V", "EVS", "186"),
        ("Marshadow", "SLG", "45"),
        ("Marshadow", "SMP", "SM85"),
        ("Milotic", "FLF", "23"),
        ("Mismagius", "UNB", "78"),
        ("Oranguru", "UPR", "114"),
        ("Puzzle of Time", "BKP", "109"),
        ("Red Card", "GEN", "71"),
        ("Reset Stamp", "UNM", "206"),
        ("Reset Stamp", "UNM", "253"),
        ("Scoop Up Net", "RCL", "165"),
        ("Scoop Up Net", "RCL", "207"),
        ("Shaymin-EX", "ROS", "77"),
        ("Shaymin-EX", "ROS", "106"),
        ("Unown", "LOT", "90"),
        ("Unown", "LOT", "91"),
    ]
    .into_iter()
    .map(|(name, set, number)| (name.to_string(), set.to_string(), number.to_string()))
    .collect();
    let format = load("expanded");
    let actual: BTreeSet<(String, String, String)> = format
        .bans
        .iter()
        .map(|ban| {
            let set = ban.set.clone().expect("Expanded bans name printings");
            (ban.name.clone(), set, ban.number.clone().unwrap())
        })
        .collect();
    assert_eq!(actual, expected);
    assert_eq!(format.bans.len(), expected.len(), "no duplicate entries");
}

#[test]
fn official_formats_play_the_current_first_turn_rules() {
    for id in ["standard", "expanded", "unlimited", "glc"] {
        let setup = load(id).setup;
        assert!(setup.first_player_draws, "{id}");
        assert!(
            !setup.first_turn_attack && setup.first_turn_supporter == Some(false),
            "{id}"
        );
        assert!(
            setup.mulligan_extra_draw && setup.mutual_mulligans_cancel,
            "{id}"
        );
        assert_eq!(
            (setup.prizes, setup.sudden_death_prizes),
            (6, Some(1)),
            "{id}"
        );
        assert!(!setup.source.is_empty(), "{id}");
    }
    let standard = load("standard");
    let season = standard.season_in_effect().unwrap();
    assert!(season.name.starts_with("2026–27"), "{}", season.name);
    assert_eq!(season.from, jiff::civil::date(2026, 4, 10));
    // "No cards are currently banned in the Standard format" (pokemon.com, 2026-07).
    assert!(standard.bans.is_empty(), "{:?}", standard.bans);
}

#[test]
fn expanded_pool_edges() {
    let Some(db) = tcgdex() else { return };
    let expanded = load("expanded");
    let admitted = |set: &str, number: &str| {
        let found = printings(db, set, number);
        assert!(!found.is_empty(), "{set} {number}");
        found.iter().all(|p| expanded.admits(p).is_ok())
    };
    // In: the first BW set and promo, a McDonald's Collection, Classic Collection reprints of
    // BW-onward cards, Mega Evolution.
    for (set, number) in [
        ("BLW", "1"),
        ("BWP", "BW01"),
        ("MCD11", "1"),
        ("CEL", "CC20"),
    ] {
        assert!(
            admitted(set, number),
            "{set} {number} should be in the pool"
        );
    }
    assert!(admitted("MEG", "1"));
    // Out: older series (legal only as reprints), Classic Collection reprints of older cards,
    // not-for-tournament promos.
    for (set, number) in [
        ("HS", "1"),
        ("CEL", "CC2"),
        ("SWSHP", "SWSH135"),
        ("EVO", "112"),
    ] {
        assert!(
            !admitted(set, number),
            "{set} {number} should be out of the pool"
        );
    }
}
