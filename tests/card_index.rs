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

mod common;

use deckbox::cards::{Category, Printing, Stage, Tag, TrainerKind, embedded, index_file};
use deckbox::lang::Language;

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
    let generated = index_file::generate(&data.join("tcgdex-repo")).unwrap();
    let tsv = String::from_utf8(committed("index.tsv")).unwrap();
    if generated.tsv != tsv {
        let differing = generated
            .tsv
            .lines()
            .zip(tsv.lines())
            .enumerate()
            .find(|(_, (new, old))| new != old)
            .map(|(line, (new, old))| format!("line {}:\n  generated {new}\n  committed {old}", line + 1))
            .unwrap_or_else(|| "the files differ in length".to_string());
        panic!("cards/index.tsv differs from the generator's output ({differing}): {HOW_TO_REGENERATE}");
    }
    assert!(generated.bin == committed("index.bin"), "{HOW_TO_REGENERATE}");
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
    assert!(stageless.is_empty(), "Pokémon without a stage: {stageless:?}");
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
    assert_eq!(boss.names.get(Language::En), Some("Boss's Orders (Giovanni)"));
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
        assert_eq!(found, tags, "{code} {number} {:?}", p.names.get(Language::En));
    }
    // Lower-case and "None" marks are read as the letter and as no mark.
    assert_eq!(printing("TWM", "128").regulation_mark, Some('H'));
    assert_eq!(printing("BS", "4").regulation_mark, None);
}
