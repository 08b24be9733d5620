//! The reprint rule's comparison against the real databases: known reprints are identical,
//! same-name cards with other text are not, and a statistic over H/I/J vs older printings.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(
    clippy::print_stderr,
    reason = "the statistic is reported for the reader"
)]

mod common;

use std::collections::HashMap;
use std::path::Path;

use deckbox::cards::index::{IndexOptions, open};
use deckbox::cards::{CardDb, Category, Printing};
use deckbox::format::reprint::functionally_identical;
use deckbox::names::lookup_key;

const SOURCES: [&str; 2] = ["tcgdex-repo", "pokemontcg"];

fn db(test: &str, which: &str) -> Option<CardDb> {
    let data = common::shared_data(test)?;
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reprint-cache");
    let options = IndexOptions {
        cache_dir: Some(cache),
        rebuild: false,
    };
    Some(open(&data.join(which), &options).unwrap())
}

/// The printing `code number`, or `None` when the database lacks it (pokemon-tcg-data
/// stops at January 2026).
fn find(db: &CardDb, code: &str, number: &str) -> Option<Printing> {
    let id = *db.by_set_number(code, number).first()?;
    db.get(id).cloned()
}

fn is_hij(printing: &Printing) -> bool {
    matches!(printing.regulation_mark, Some('H' | 'I' | 'J'))
}

/// `(older, newer, why)` for each pair found in `db`; panics when TCGdex lacks one.
fn pairs(db: &CardDb, which: &str, list: &[(&str, &str, &str)]) -> Vec<(Printing, Printing)> {
    let mut found = Vec::new();
    for (old, new, _) in list {
        let split = |s: &str| {
            s.split_once(' ')
                .map(|(c, n)| (c.to_string(), n.to_string()))
        };
        let ((oc, on), (nc, nn)) = (split(old).unwrap(), split(new).unwrap());
        match (find(db, &oc, &on), find(db, &nc, &nn)) {
            (Some(o), Some(n)) => {
                assert_eq!(o.rules_name(), n.rules_name(), "{which}: {old} / {new}");
                assert!(is_hij(&n), "{which}: {new} should be H/I/J");
                assert!(!is_hij(&o), "{which}: {old} should be older");
                found.push((o, n));
            }
            _ => assert_ne!(which, "tcgdex-repo", "TCGdex lacks {old} or {new}"),
        }
    }
    found
}

/// Reprints the rule makes legal: same text, or a rewording that plays the same.
const IDENTICAL: &[(&str, &str, &str)] = &[
    ("SVI 196", "MEG 131", "Ultra Ball: same text"),
    ("SVI 191", "MEG 125", "Rare Candy: same text"),
    ("PAF 91", "MEG 131", "Ultra Ball: one paragraph or two"),
    (
        "BRS 132",
        "MEG 114",
        "Boss's Orders: 'switch ... with their Active' became 'switch in ... to the Active Spot'",
    ),
    (
        "SVP 101",
        "SVP 225",
        "Pikachu: same attacks, HP, weakness, retreat",
    ),
];

/// Same name, other card. The third field says what differs.
const DIFFERENT: &[(&str, &str, &str)] = &[
    (
        "SUM 116",
        "CRI 108",
        "Energy Retrieval: 'put 2' vs 'put up to 2' Basic Energy",
    ),
    (
        "FLI 143",
        "POR 108",
        "Energy Recycler: '5' vs 'up to 5' Basic Energy",
    ),
    (
        "MD 80",
        "SSP 175",
        "Dusk Ball: the rest go back on top vs are shuffled in; 'choose 1' vs 'you may'",
    ),
    (
        "BS 81",
        "CRI 108",
        "Energy Retrieval: trade a card from your hand vs no cost",
    ),
    (
        "MEW 63",
        "MEG 54",
        "Abra: Psyshot 20 vs Teleportation Attack 10",
    ),
    (
        "TEU 12",
        "MEP 38",
        "Charmander: same Ember, HP 70 vs 80, retreat 1 vs 2",
    ),
];

#[test]
fn known_reprints_are_identical() {
    for which in SOURCES {
        let Some(db) = db("known_reprints_are_identical", which) else {
            return;
        };
        let found = pairs(&db, which, IDENTICAL);
        assert!(
            found.len() >= 3,
            "{which}: only {} pairs found",
            found.len()
        );
        for (old, new) in found {
            assert!(
                functionally_identical(&old, &new),
                "{which}: {} {} vs {} {}: effects {:?} and {:?}",
                old.set_code,
                old.number,
                new.set_code,
                new.number,
                old.effect,
                new.effect
            );
        }
    }
}

#[test]
fn same_name_other_text_is_not_identical() {
    for which in SOURCES {
        let Some(db) = db("same_name_other_text_is_not_identical", which) else {
            return;
        };
        for (old, new) in pairs(&db, which, DIFFERENT) {
            assert!(
                !functionally_identical(&old, &new),
                "{which}: {} {} vs {} {}: effect {:?}",
                old.set_code,
                old.number,
                new.set_code,
                new.number,
                old.effect
            );
        }
    }
}

/// Every older printing against every H/I/J printing of the same name: how many pairs are
/// identical. Reported for the reader; asserted only to be sane.
#[test]
fn statistic_over_same_name_pairs() {
    for which in SOURCES {
        let Some(db) = db("statistic_over_same_name_pairs", which) else {
            return;
        };
        let mut by_name: HashMap<String, (Vec<Printing>, Vec<Printing>)> = HashMap::new();
        for (_, printing) in db.iter() {
            let entry = by_name
                .entry(lookup_key(&printing.rules_name()))
                .or_default();
            if is_hij(printing) {
                entry.1.push(printing.clone());
            } else {
                entry.0.push(printing.clone());
            }
        }
        let mut counts = HashMap::<(Category, bool), usize>::new();
        for (older, newer) in by_name.values() {
            for (old, new) in older.iter().flat_map(|o| newer.iter().map(move |n| (o, n))) {
                *counts
                    .entry((old.category, functionally_identical(old, new)))
                    .or_default() += 1;
            }
        }
        for category in [Category::Pokemon, Category::Trainer, Category::Energy] {
            let same = counts.get(&(category, true)).copied().unwrap_or(0);
            let other = counts.get(&(category, false)).copied().unwrap_or(0);
            eprintln!(
                "{which} {}: {same} identical, {other} not",
                category.as_str()
            );
        }
        let trainers_same = counts.get(&(Category::Trainer, true)).copied();
        assert!(trainers_same.unwrap_or(0) > 10, "{which}: {counts:?}");
    }
}
