#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
//! One deck, one verdict, whatever language its names are written in (issue 27, item 3):
//! each case writes the same cards in English and in the other languages players write
//! them, and checks that `deckbox check --output json` finds the same rules broken, and
//! says what the English list is read as. The embedded card index is enough: no dataset.

use crate::common;
use crate::printed_names::findings;

/// The exit code, the sorted rule ids found, and the names the cards were read as, for
/// `list` checked in `format`.
fn verdict(list: &str, format: &str) -> (i32, Vec<String>, Vec<String>) {
    let dir = common::workspace(&[]);
    std::fs::write(dir.path().join("deck.txt"), list).unwrap();
    let args = ["check", "deck.txt", "--format", format, "--output", "json"];
    let (code, rendered) = common::run_deckbox(dir.path(), &args, b"");
    let json: serde_json::Value = serde_json::from_str(common::stdout_of(&rendered))
        .unwrap_or_else(|error| panic!("{error}: {rendered}"));
    let deck = &json["decks"][0];
    let mut rules: Vec<String> = deck["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .filter(|rule| rule != "deck-size")
        .collect();
    rules.sort();
    let names = deck["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| card["name"].as_str().unwrap_or("?").to_string())
        .collect();
    (code, rules, names)
}

/// Each list gets the verdict and card names of the first (the English one).
fn same_verdicts(lists: &[&str], format: &str) {
    let english = verdict(lists[0], format);
    for list in &lists[1..] {
        assert_eq!(verdict(list, format), english, "{list} vs {}", lists[0]);
    }
}

/// Gym Heroes has English names only in the data; Spanish, Italian and Portuguese lists
/// write the owner as the English cards do (`Onix de Brock`), French and German translate
/// him (`Onix de Pierre`, `Rockos Onix`, as TCGdex's Brock's Grit EVO 74 does).
#[test]
fn owners_in_every_language_are_the_english_owner() {
    same_verdicts(
        &[
            "4 Brock's Onix G1 69\n4 Lt. Surge's Electabuzz G1 27\n4 Misty's Psyduck G1 54\n",
            "4 Onix de Brock G1 69\n4 Electabuzz del Teniente Surge G1 27\n4 Psyduck de Misty G1 54\n",
            "4 Onix de Pierre G1 69\n4 Élektek de Major Bob G1 27\n4 Psykokwak d'Ondine G1 54\n",
            "4 Rockos Onix G1 69\n4 Major Bobs Elektek G1 27\n4 Mistys Enton G1 54\n",
            "4 Onix von Rocko G1 69\n4 Elektek von Major Bob G1 27\n4 Enton von Misty G1 54\n",
            "4 Onix di Brock G1 69\n4 Electabuzz di Lt. Surge G1 27\n4 Psyduck di Misty G1 54\n",
        ],
        "unlimited",
    );
    let (_, rules, names) = verdict("4 Onix de Pierre G1 69\n", "unlimited");
    assert!(!rules.contains(&"card-mismatch".to_string()), "{rules:?}");
    assert_eq!(names, ["Brock's Onix"]);
}

/// The owner is part of the name: five Brock's Onix written in two languages break the copy
/// limit, and Brock's Onix is not Onix.
#[test]
fn a_translated_owner_counts_with_the_english_one() {
    let out = findings("3 Onix de Pierre G1 69\n2 Brock's Onix G1 21\n");
    assert!(
        out.contains("copy-limit: 5 cards named 'Brock's Onix' on 2 lines"),
        "{out}"
    );
    let out = findings("4 Onix de Pierre G1 69\n4 Onix BS 56\n");
    assert!(!out.contains("copy-limit"), "{out}");
    // Without a code, too; and Sabrina (Morgane) and Blaine (Pyro) with them.
    let out = findings("3 Onix de Pierre\n2 Rockos Onix\n4 Abra de Morgane\n4 Pyros Glumanda\n");
    assert!(out.contains("5 cards named 'Brock's Onix'"), "{out}");
    assert!(!out.contains("unknown-card"), "{out}");
    // An owner the card does not have is still unknown.
    let out = findings("4 Onix de Morgane\n");
    assert!(out.contains("unknown-card"), "{out}");
}

/// The French McDonald's collection of 2019 has French names only in TCGdex: its
/// `Fantominus` is Gastly, counted with Fossil's Gastly, with no `ambiguous-card` warning.
#[test]
fn a_printing_named_in_french_only_joins_its_card() {
    let out = findings("4 Fantominus FO 33\n1 Fantominus\n");
    assert!(
        out.contains("copy-limit: 5 cards named 'Gastly' on 2 lines"),
        "{out}"
    );
    assert!(!out.contains("ambiguous-card"), "{out}");
    same_verdicts(
        &[
            "4 Gastly FO 33\n1 Gastly\n",
            "4 Fantominus FO 33\n1 Fantominus\n",
        ],
        "unlimited",
    );
}

/// `Búsqueda por Computadora` without a code is read as `Computer Search` is: in Unlimited,
/// four copies are Base Set's ordinary Trainer, not four ACE SPECs.
#[test]
fn a_localized_name_alone_is_read_as_the_english_one() {
    same_verdicts(
        &["4 Computer Search\n", "4 Búsqueda por Computadora\n"],
        "unlimited",
    );
    let (_, rules, names) = verdict("4 Búsqueda por Computadora\n", "unlimited");
    assert!(!rules.contains(&"ace-spec-limit".to_string()), "{rules:?}");
    assert_eq!(names, ["Computer Search"]);
}

/// Platinum's Team Galactic's Inventions by the words players write (`Energy Gain`, `Poke
/// Turn`, `SP Radar`), with the TCGdex id form `pl1-116` or the set code.
#[test]
fn team_galactic_inventions_as_players_write_them() {
    same_verdicts(
        &[
            "4 Team Galactic's Invention G-101 Energy Gain PL 116\n4 Team Galactic's Invention G-105 Poké Turn PL 118\n4 Team Galactic's Invention G-109 SP Radar RR 96\n4 Team Galactic's Invention G-103 Power Spray PL 117\n",
            "4 Energy Gain pl1-116\n4 Poke Turn PL 118\n4 SP Radar RR 96\n4 Power Spray PL 117\n",
            "4 Energy Gain PL 116\n4 Poké Turn\n4 SP Radar\n4 Power Spray\n",
            "4 Gain d'Énergie PL 116\n4 Poké-Tour PL 118\n4 Radar SP RR 96\n4 Spray Puissant PL 117\n",
        ],
        "unlimited",
    );
    let out = findings("3 Energy Gain PL 116\n2 Team Galactic's Invention G-101 Energy Gain\n");
    assert!(
        out.contains("copy-limit: 5 cards named 'Team Galactic's Invention G-101 Energy Gain'"),
        "{out}"
    );
}

/// Mysterious Treasures' Unown I and Unown E have the letter in French too (TCGdex writes
/// `Zarbi`): the French list counts them as the English one does (see printed_names.rs).
#[test]
fn french_unown_of_mysterious_treasures_keep_their_letter() {
    same_verdicts(
        &[
            "3 Unown I MT 37\n2 Unown I\n4 Unown E MT 65\n",
            "3 Zarbi I MT 37\n2 Zarbi I\n4 Zarbi E MT 65\n",
        ],
        "unlimited",
    );
    let out = findings("3 Zarbi I MT 37\n2 Unown I\n");
    assert!(out.contains("copy-limit: 5 cards named 'Unown I'"), "{out}");
}
