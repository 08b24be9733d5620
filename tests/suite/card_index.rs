//! The embedded card index (`cards/index.tsv`, `cards/index.bin`, `cards/details.bin`,
//! `cards/columns.bin`):
//! generated, never edited.
//!
//! The binary form is rebuilt from the committed text and compared byte for byte (no
//! dataset needed); the text is regenerated from `../shared/data/tcgdex-repo` and compared
//! byte for byte, so neither can drift from the generator or be edited by hand; so are the
//! card texts (`details.bin`), which an independent scan of the TCGdex files then checks
//! (`details_oracle`). Then the
//! repairs of TCGdex's defects (docs/card-index.md) are checked on the cards the issue
//! named, through the embedded index alone.

#![allow(
    clippy::unwrap_used,
    reason = "tests: a missing committed file must fail the test"
)]

use crate::common;

use deckbox::cards::storage::{committed_index, embedded};
use deckbox::cards::{Category, Printing, Stage, Tag, TrainerKind};
use deckbox::names::lang::Language;

fn committed(file: &str) -> Vec<u8> {
    std::fs::read(common::repo().join("cards").join(file)).unwrap()
}

const HOW_TO_REGENERATE: &str = "regenerate with `cargo xtask cards` (or `cargo xtask cards --from-tsv` after a change to name normalization) and commit the files";

#[test]
fn the_binary_index_is_built_from_the_text_index() {
    let tsv = String::from_utf8(committed("index.tsv")).unwrap();
    let rebuilt = committed_index::bin_from_tsv(&tsv).unwrap();
    assert!(
        rebuilt == committed("index.bin"),
        "cards/index.bin is not what cards/index.tsv builds: {HOW_TO_REGENERATE}"
    );
}

/// `cards/columns.bin` (what `search` tests of each printing) is what the printings and
/// details of the embedded index give, row for row: no dataset needed.
#[test]
fn the_search_columns_describe_the_embedded_index() {
    let db = embedded::open().unwrap();
    let read =
        deckbox::cards::database::columns::Columns::decode(&committed("columns.bin"), db.len());
    assert!(
        read.as_ref() == Some(&db.build_columns()),
        "cards/columns.bin does not describe the index: regenerate with `cargo xtask cards` and commit the files"
    );
}

/// `cards/words.bin` (the word index of the card texts) is what the committed
/// `cards/details.bin` gives: no dataset needed.
#[test]
fn the_word_index_is_built_from_the_card_texts() {
    let words = deckbox::cards::database::words::encode(&committed("details.bin"));
    assert!(
        words.as_deref() == Some(&committed("words.bin")[..]),
        "cards/words.bin differs from what cards/details.bin gives: {HOW_TO_REGENERATE}"
    );
}

/// What `cargo xtask cards --from-tsv` writes for the search columns, built from the
/// committed text index and card texts alone, is the committed `cards/columns.bin`: after a
/// change to name normalization it rebuilds them without the dataset.
#[test]
fn the_search_columns_are_rebuilt_from_the_text_index() {
    let tsv = String::from_utf8(committed("index.tsv")).unwrap();
    let columns = committed_index::columns_from_tsv(&tsv, &committed("details.bin")).unwrap();
    assert!(
        columns == committed("columns.bin"),
        "cards/columns.bin differs from what the text index gives: {HOW_TO_REGENERATE}"
    );
    // Card texts of another index are refused, never paired with the wrong printings.
    let fewer: String = tsv
        .lines()
        .take(100)
        .map(|line| format!("{line}\n"))
        .collect();
    let error = committed_index::columns_from_tsv(&fewer, &committed("details.bin")).unwrap_err();
    assert!(
        error.to_string().contains("records for the 98 printings"),
        "{error}"
    );
}

#[test]
fn the_text_index_is_generated_from_tcgdex() {
    let Some(data) = common::shared_data("the_text_index_is_generated_from_tcgdex") else {
        return;
    };
    // The generator takes the fingerprints of rules text TCGdex lacks from pokemon-tcg-data.
    let pokemontcg = data.join("pokemontcg");
    if !common::needs(
        pokemontcg.join("sets").is_dir(),
        "the_text_index_is_generated_from_tcgdex",
        "../shared/data/pokemontcg",
    ) {
        return;
    }
    let generated =
        committed_index::generate(&data.join("tcgdex-repo"), Some(&pokemontcg)).unwrap();
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
    assert!(
        generated.details == committed("details.bin"),
        "cards/details.bin differs from the generator's output: {HOW_TO_REGENERATE}"
    );
    assert!(
        generated.columns == committed("columns.bin"),
        "cards/columns.bin differs from the generator's output: {HOW_TO_REGENERATE}"
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

/// The Neo-era Baby Pokémon, which TCGdex files as Basic, are Baby (pokemon-tcg-data's
/// subtype), and a player searching `stage:baby` finds them; they still count as Basic
/// Pokémon for every rule (`stage:basic`, the deck's Basic Pokémon).
#[test]
fn neo_babies_are_baby_pokemon() {
    for (code, number, name) in [
        ("N1", "12", "Pichu"),
        ("N1", "20", "Cleffa"),
        ("N2", "66", "Tyrogue"),
        ("N3", "54", "Smoochum"),
        ("PR", "35", "Pichu"),
        ("CEL", "CC9", "Cleffa"),
    ] {
        let p = printing(code, number);
        assert_eq!(p.names.get(Language::En), Some(name), "{code} {number}");
        assert_eq!(p.stage, Some(Stage::Baby), "{code} {number} {name}");
        assert!(p.is_basic_pokemon(), "{code} {number}");
    }
    // EX Sandstorm's Pichu is a Basic Pokémon, as both sources say.
    assert_eq!(printing("SS", "20").stage, Some(Stage::Basic));
    let dir = tempfile::tempdir().unwrap();
    let search = |query: &str| {
        let args = ["search", query, "--unique", "printings", "--output", "list"];
        common::stdout_of(&common::run_deckbox(dir.path(), &args, b"").1).to_string()
    };
    let babies = search("stage:baby");
    for line in [
        "1 Pichu N1 12",
        "1 Igglybuff N2 40",
        "1 Magby N1 23",
        "1 Pichu EX 22",
    ] {
        assert!(babies.lines().any(|l| l == line), "{line} in {babies}");
    }
    assert!(search("stage:basic name:pichu").contains("1 Pichu N1 12"));
    // Played alone, a Neo Genesis Baby is the deck's Basic Pokémon.
    let (_, out) = common::run_deckbox(
        dir.path(),
        &["check", "-", "--format", "unlimited", "--output", "short"],
        b"4 Pichu N1 12\n",
    );
    assert!(!out.contains("no-basic-pokemon"), "{out}");
}

/// Lillie's Clefairy ex SVP 195 has no Weakness in TCGdex; the index gives it the Metal ×2
/// of its reprints, so the reprint rule finds them the same card.
#[test]
fn a_promo_missing_its_weakness_is_the_same_card_as_its_reprints() {
    let promo = printing("SVP", "195");
    for (code, number) in [("JTG", "56"), ("ASC", "76")] {
        let reprint = printing(code, number);
        assert!(
            deckbox::formats::reprint::functionally_identical(&promo, &reprint),
            "SVP 195 and {code} {number}"
        );
    }
    let db = embedded::open().unwrap();
    let id = db.by_set_number("SVP", "195")[0];
    let weaknesses = &db.details(id).unwrap().weaknesses;
    assert_eq!(weaknesses.len(), 1);
    assert_eq!(weaknesses[0].energy_type, "Metal");
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
fn explained(field: &str, ours: &Printing) -> Option<&'static str> {
    let en = ours.names.get(Language::En).unwrap_or("");
    match field {
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
    let theirs = deckbox::cards::sources::from_pokemontcg::load(&data.join("pokemontcg")).unwrap();
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
            match explained(field, our) {
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

/// The card texts against an independent, simple scan of the TCGdex files: a line
/// `hp: N,` in a card file, an attack whose English name is `Phantom Dive`, an
/// illustrator. The scan knows nothing of deckbox's reader; both must agree printing for
/// printing.
mod details_oracle {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// Every international card file (not TCG Pocket): `(set folder, local id, text)`.
    fn card_files(data: &Path) -> Vec<(String, String, String)> {
        let mut files = Vec::new();
        for serie in std::fs::read_dir(data).unwrap().flatten() {
            let serie = serie.path();
            if !serie.is_dir() || serie.ends_with("Pokémon TCG Pocket") {
                continue;
            }
            for set in std::fs::read_dir(&serie).unwrap().flatten() {
                let set = set.path();
                if !set.is_dir() {
                    continue;
                }
                for card in std::fs::read_dir(&set).unwrap().flatten() {
                    let path = card.path();
                    let text = std::fs::read_to_string(&path).unwrap();
                    let set_name = set.to_string_lossy().into_owned();
                    let id = path.file_stem().unwrap().to_string_lossy().into_owned();
                    files.push((set_name, id, text));
                }
            }
        }
        files
    }

    /// The value of the top-level `hp:` line (one tab of indent), when it has one.
    fn hp(text: &str) -> Option<u32> {
        text.lines()
            .find_map(|line| {
                (line
                    .strip_prefix('\t')
                    .or_else(|| line.strip_prefix("    ")))
                .and_then(|line| line.strip_prefix("hp: "))
            })
            .and_then(|rest| {
                rest.trim_end_matches(',')
                    .trim()
                    .trim_matches('"')
                    .parse()
                    .ok()
            })
    }

    /// How many attacks of the file are named `name` in English: an `en:` line holding
    /// it right after an attack's `name: {`.
    fn attacks_named(text: &str, name: &str) -> usize {
        let lines: Vec<&str> = text.lines().collect();
        let Some(start) = lines
            .iter()
            .position(|l| l.trim_start().starts_with("attacks:"))
        else {
            return 0;
        };
        lines[start..]
            .windows(2)
            .filter(|pair| {
                pair[0].trim() == "name: {"
                    && pair[1].trim().trim_end_matches(',') == format!("en: \"{name}\"")
            })
            .count()
    }

    /// `(set id, printing label)` of every printing of the index passing `keep`.
    fn index_labels(
        keep: impl Fn(&deckbox::cards::model::details::Details) -> bool,
    ) -> BTreeSet<String> {
        let db = embedded::open().unwrap();
        (0..db.len() as u32)
            .filter(|&id| db.details(id).is_some_and(&keep))
            .map(|id| {
                let p = db.get(id).unwrap();
                format!("{} {}", p.set_id, p.number)
            })
            .collect()
    }

    /// The same labels from the scan: the set's id is read from its set file.
    fn scan_labels(data: &Path, keep: impl Fn(&str) -> bool) -> BTreeSet<String> {
        let mut labels = BTreeSet::new();
        let mut set_ids = std::collections::HashMap::new();
        for (set, id, text) in card_files(data) {
            if !keep(&text) {
                continue;
            }
            let set_id = set_ids
                .entry(set.clone())
                .or_insert_with(|| set_id(Path::new(&format!("{set}.ts"))));
            labels.insert(format!("{set_id} {}", deckbox::cards::number_key(&id)));
        }
        labels
    }

    /// The `id:` of a set file.
    fn set_id(file: &Path) -> String {
        let text = std::fs::read_to_string(file).unwrap();
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("id:"))
            .unwrap();
        line.split(['"', '\'']).nth(1).unwrap().to_string()
    }

    #[test]
    fn hp_of_300_or_more() {
        let Some(data) = common::shared_data("details_oracle::hp_of_300_or_more") else {
            return;
        };
        let data = data.join("tcgdex-repo/data");
        let scanned = scan_labels(&data, |text| hp(text).is_some_and(|hp| hp >= 300));
        let indexed = index_labels(|d| d.hp.is_some_and(|hp| hp >= 300));
        assert!(scanned.len() > 100, "{} printings", scanned.len());
        assert_eq!(indexed, scanned);
    }

    #[test]
    fn attacks_named_phantom_dive() {
        let Some(data) = common::shared_data("details_oracle::attacks_named_phantom_dive") else {
            return;
        };
        let data = data.join("tcgdex-repo/data");
        let scanned = scan_labels(&data, |text| attacks_named(text, "Phantom Dive") > 0);
        let indexed = index_labels(|d| {
            d.attacks
                .iter()
                .any(|a| a.name.get(Language::En) == Some("Phantom Dive"))
        });
        // Dragapult ex (TWM 130, its full arts and reprints), Dragapult VMAX, ...
        assert!(scanned.len() >= 5, "{scanned:?}");
        assert_eq!(indexed, scanned);
    }

    #[test]
    fn illustrators() {
        let Some(data) = common::shared_data("details_oracle::illustrators") else {
            return;
        };
        let data = data.join("tcgdex-repo/data");
        let of = |text: &str| {
            text.lines()
                // One tab of indent, or four spaces in a few files.
                .find_map(|line| {
                    (line
                        .strip_prefix('\t')
                        .or_else(|| line.strip_prefix("    ")))
                    .and_then(|line| line.strip_prefix("illustrator: "))
                })
                .map(|rest| {
                    rest.trim_end_matches(',')
                        .trim_matches(['"', '\''])
                        .to_string()
                })
        };
        let scanned = scan_labels(&data, |text| of(text).as_deref() == Some("Mitsuhiro Arita"));
        let indexed = index_labels(|d| d.illustrator.as_deref() == Some("Mitsuhiro Arita"));
        assert!(scanned.len() > 300, "{} printings", scanned.len());
        assert_eq!(indexed, scanned);
    }
}
