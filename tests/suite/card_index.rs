//! The embedded card index (`cards/index.tsv`, `cards/index.bin`): generated, never edited.
//!
//! The binary form is rebuilt from the committed text and compared byte for byte (no
//! dataset needed); the text is regenerated from `../shared/data/tcgdex-repo` and compared
//! byte for byte, so neither can drift from the generator or be edited by hand. Then the
//! repairs of TCGdex's defects (docs/card-index.md) are checked on the cards the issue
//! named, through the embedded index alone.

#![allow(
    clippy::unwrap_used,
    reason = "tests: a missing committed file must fail the test"
)]

use crate::common;

use deckbox::cards::{Category, Printing, Stage, Tag, TrainerKind, embedded, index_file};
use deckbox::names::lang::Language;

fn committed(file: &str) -> Vec<u8> {
    std::fs::read(common::repo().join("cards").join(file)).unwrap()
}

const HOW_TO_REGENERATE: &str = "regenerate with `cargo xtask cards` (or `cargo xtask cards --from-tsv` after a change to name normalization) and commit both files";

#[test]
fn the_binary_index_is_built_from_the_text_index() {
    let tsv = String::from_utf8(committed("index.tsv")).unwrap();
    let rebuilt = index_file::bin_from_tsv(&tsv).unwrap();
    assert!(
        rebuilt == committed("index.bin"),
        "cards/index.bin is not what cards/index.tsv builds: {HOW_TO_REGENERATE}"
    );
}

#[test]
fn the_text_index_is_generated_from_tcgdex() {
    let Some(data) = common::shared_data("the_text_index_is_generated_from_tcgdex") else {
        return;
    };
    // The generator takes the fingerprints of rules text TCGdex lacks from pokemon-tcg-data.
    let pokemontcg = data.join("pokemontcg");
    if !pokemontcg.join("sets").is_dir() {
        assert!(
            std::env::var("DECKBOX_REQUIRE_SHARED").as_deref() != Ok("1"),
            "../shared/data/pokemontcg is missing and DECKBOX_REQUIRE_SHARED=1"
        );
        common::skipped(
            "the_text_index_is_generated_from_tcgdex skipped: no ../shared/data/pokemontcg",
        );
        return;
    }
    let generated = index_file::generate(&data.join("tcgdex-repo"), Some(&pokemontcg)).unwrap();
    let tsv = String::from_utf8(committed("index.tsv")).unwrap();
    if generated.tsv != tsv {
        let differing = generated
            .tsv
            .lines()
            .zip(tsv.lines())
            .enumerate()
            .find(|(_, (new, old))| new != old)
            .map(|(line, (new, old))| {
                format!("line {}:\n  generated {new}\n  committed {old}", line + 1)
            })
            .unwrap_or_else(|| "the files differ in length".to_string());
        panic!(
            "cards/index.tsv differs from the generator's output ({differing}): {HOW_TO_REGENERATE}"
        );
    }
    assert!(
        generated.bin == committed("index.bin"),
        "{HOW_TO_REGENERATE}"
    );
    // Every international card but TCG Pocket: 206 sets, 21,159 cards in the checkout.
    assert_eq!(generated.printings, 21_159);
    assert!(generated.skipped.is_empty(), "{:?}", generated.skipped);
}

fn printing(code: &str, number: &str) -> Printing {
    let db = embedded::open().unwrap();
    let ids = db.by_set_number(code, number);
    assert_eq!(ids.len(), 1, "{code} {number}: {ids:?}");
    db.get(ids[0]).unwrap().clone()
}

/// The stage-less Pokémon the issue named, and evolving GX and ex cards: derived, not assumed.
#[test]
fn stages_missing_in_tcgdex_are_derived() {
    let cases = [
        ("NXD", "54", "Mewtwo-EX", Stage::Basic),
        ("UNM", "47", "Keldeo GX", Stage::Basic),
        ("BUS", "152", "Tapu Fini GX", Stage::Basic),
        ("BWP", "BW47", "Rayquaza-EX", Stage::Basic),
        // No `evolveFrom` in TCGdex: the species' other printings say Stage 2.
        ("SMP", "SM189", "Blastoise GX", Stage::Stage2),
        // Evolves from Charmeleon, a Stage 1.
        ("BUS", "20", "Charizard GX", Stage::Stage2),
        // TCGdex says Basic; it evolves from Flaaffy.
        ("DR", "89", "Ampharos ex", Stage::Stage2),
    ];
    for (code, number, name, stage) in cases {
        let p = printing(code, number);
        assert_eq!(p.names.get(Language::En), Some(name), "{code} {number}");
        assert_eq!(p.stage, Some(stage), "{code} {number} {name}");
    }
    let db = embedded::open().unwrap();
    let stageless: Vec<String> = db
        .iter()
        .filter(|(_, p)| p.category == Category::Pokemon && p.stage.is_none())
        .map(|(_, p)| p.printing_label())
        .collect();
    assert!(
        stageless.is_empty(),
        "Pokémon without a stage: {stageless:?}"
    );
}

#[test]
fn flags_tcgdex_lacks_come_from_the_curated_files() {
    // Black & White ACE SPECs carry no marking in TCGdex.
    let search = printing("BCR", "137");
    assert_eq!(search.names.get(Language::En), Some("Computer Search"));
    assert!(search.ace_spec);
    // Base Set Computer Search is an ordinary Trainer.
    assert!(!printing("BS", "71").ace_spec);
    // Radiant Eevee SWSH230 lacks the Radiant rarity.
    let eevee = printing("SWSHP", "SWSH230");
    assert!(eevee.radiant && eevee.has_rule_box());
}

#[test]
fn names_lose_the_words_that_are_not_the_card_name() {
    let compressor = printing("PHF", "92");
    assert_eq!(
        compressor.names.get(Language::En),
        Some("Battle Compressor")
    );
    assert_eq!(compressor.trainer, Some(TrainerKind::Item));
    // The pictured person stays in the printed name; the rules name sets it aside.
    let boss = printing("RCL", "154");
    assert_eq!(
        boss.names.get(Language::En),
        Some("Boss's Orders (Giovanni)")
    );
    assert_eq!(boss.rules_name(), "Boss's Orders");
    // TCGdex's French name of Carnivine G is plain Carnivine's: dropped.
    let carnivine = printing("PR-DPP", "DP42");
    assert_eq!(carnivine.names.get(Language::Fr), None);
    assert_eq!(carnivine.names.get(Language::De), Some("Venuflibis G"));
}

#[test]
fn rule_tags_and_marks() {
    let cases: [(&str, &str, &[Tag]); 9] = [
        ("TWM", "130", &[Tag::LowerEx]),
        ("NXD", "54", &[Tag::UpperEx]),
        ("UNM", "1", &[Tag::Gx, Tag::TagTeam]),
        ("BRS", "123", &[Tag::Vstar]),
        ("SWSHP", "SWSH162", &[Tag::VUnion]),
        ("ROS", "76", &[Tag::UpperEx, Tag::Mega]),
        ("HS", "106", &[Tag::Prime]),
        ("HS", "111", &[Tag::Legend]),
        ("PBL", "120", &[Tag::LowerEx, Tag::Mega]),
    ];
    for (code, number, tags) in cases {
        let p = printing(code, number);
        let found: Vec<Tag> = p.tags.iter().collect();
        assert_eq!(
            found,
            tags,
            "{code} {number} {:?}",
            p.names.get(Language::En)
        );
    }
    // Lower-case and "None" marks are read as the letter and as no mark.
    assert_eq!(printing("TWM", "128").regulation_mark, Some('H'));
    assert_eq!(printing("BS", "4").regulation_mark, None);
}

/// Why the embedded index and pokemon-tcg-data may disagree on a fact, by (field, printing
/// or a rule over the pair). Every other difference fails the test.
fn explained(field: &str, ours: &Printing, theirs: &Printing) -> Option<&'static str> {
    let en = ours.names.get(Language::En).unwrap_or("");
    match field {
        // pokemon-tcg-data calls Neo's Baby Pokémon `Baby`; TCGdex `Basic`. Both are Basic
        // Pokémon for every rule.
        "stage" if ours.stage == Some(Stage::Basic) && theirs.stage == Some(Stage::Baby) => {
            Some("Baby Pokémon: Basic in TCGdex")
        }
        // LEGEND halves: TCGdex says Basic, pokemon-tcg-data gives no stage; the LEGEND tag
        // keeps them out of the Basic Pokémon.
        "stage" if ours.tags.contains(Tag::Legend) => Some("LEGEND halves"),
        // Clefable ex (FireRed & LeafGreen 106) evolves from Clefairy, a Basic card in that
        // set: Stage 1 as every other Clefable. pokemon-tcg-data says Stage 2.
        "stage" if ours.set_id == "ex6" && ours.number == "106" => Some("pokemon-tcg-data error"),
        // TCGdex gives these a stage of their own that pokemon-tcg-data does not use.
        "stage" if ours.set_id == "swshp" && ours.number == "SWSH135" => {
            Some("Zacian SWSH135: TCGdex BREAK, pokemon-tcg-data LV.X")
        }
        // The McDonald's 2021/2022 sets and a few reprints carry no mark in TCGdex; none
        // is legal in Standard either way.
        "regulation_mark" if ours.regulation_mark.is_none() => {
            Some("mark missing in TCGdex (not a Standard-legal card)")
        }
        // Basic Energy: pokemon-tcg-data marks the SV-era basic Energy printings; a basic
        // Energy is legal in every format whatever its mark.
        "regulation_mark" if ours.is_basic_energy() => Some("basic Energy"),
        // Pikachu with Grey Felt Hat (SVP 85): TCGdex H, pokemon-tcg-data G. Not played.
        "regulation_mark" if ours.set_id == "svp" && ours.number == "85" => {
            Some("unverified; the card is a collectible")
        }
        // Sordward & Shielbert BST 135: TCGdex E (the set's mark), pokemon-tcg-data D.
        "regulation_mark" if ours.set_id == "swsh5" && ours.number == "135" => {
            Some("TCGdex agrees with the set's mark")
        }
        // pokemon-tcg-data lists Escavalier (Black Bolt 60) as a Trainer with an H mark;
        // the card is a Stage 1 Pokémon of an I set.
        _ if ours.set_id == "sv10.5b" && ours.number == "60" => Some("pokemon-tcg-data error"),
        _ if en.starts_with("Unown") => Some("Unown forms"),
        _ => None,
    }
}

/// Wherever both datasets know a card (same set, same number), the embedded index agrees with
/// pokemon-tcg-data on category, stage, ACE SPEC, Radiant, Prism Star, Pokémon Star and
/// regulation mark, or the difference is one [`explained`] lists.
#[test]
fn the_index_agrees_with_pokemontcg() {
    let Some(data) = common::shared_data("the_index_agrees_with_pokemontcg") else {
        return;
    };
    let crosswalk: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("derived/set-codes.json")).unwrap(),
    )
    .unwrap();
    let tcgdex_of: std::collections::HashMap<String, String> = crosswalk["sets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|set| {
            Some((
                set["pokemontcgId"].as_str()?.to_string(),
                set["tcgdexId"].as_str()?.to_string(),
            ))
        })
        .collect();
    let theirs = deckbox::cards::from_pokemontcg::load(&data.join("pokemontcg")).unwrap();
    let db = embedded::open().unwrap();
    let ours: std::collections::HashMap<(String, String), Printing> = db
        .iter()
        .map(|(_, p)| ((p.set_id.clone(), p.number.clone()), p.clone()))
        .collect();
    let (mut compared, mut unexplained) = (0, Vec::new());
    let mut reasons: std::collections::BTreeMap<&str, usize> = Default::default();
    for their in &theirs {
        let Some(set) = tcgdex_of.get(&their.set_id) else {
            continue;
        };
        let Some(our) = ours.get(&(set.clone(), their.number.clone())) else {
            continue;
        };
        compared += 1;
        let facts = [
            (
                "category",
                format!("{:?}", our.category),
                format!("{:?}", their.category),
            ),
            (
                "stage",
                format!("{:?}", our.stage),
                format!("{:?}", their.stage),
            ),
            (
                "ace_spec",
                our.ace_spec.to_string(),
                their.ace_spec.to_string(),
            ),
            (
                "radiant",
                our.radiant.to_string(),
                their.radiant.to_string(),
            ),
            (
                "prism_star",
                our.prism_star.to_string(),
                their.prism_star.to_string(),
            ),
            (
                "pokemon_star",
                our.pokemon_star.to_string(),
                their.pokemon_star.to_string(),
            ),
            (
                "regulation_mark",
                format!("{:?}", our.regulation_mark),
                format!("{:?}", their.regulation_mark),
            ),
        ];
        for (field, a, b) in facts {
            if a == b {
                continue;
            }
            match explained(field, our, their) {
                Some(reason) => *reasons.entry(reason).or_default() += 1,
                None => unexplained.push(format!(
                    "{} ({} {}): {field}: index {a}, pokemon-tcg-data {b}",
                    our.printing_label(),
                    our.set_id,
                    our.names.primary()
                )),
            }
        }
    }
    assert!(compared > 19_000, "only {compared} printings compared");
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences (explained: {reasons:?}):\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
