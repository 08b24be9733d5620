//! Platinum's Team Galactic's Inventions as players write them. The cards' name is the
//! whole line, `Team Galactic's Invention G-101 Energy Gain`: their own text says so
//! ("Attach Team Galactic's Invention G-101 Energy Gain to 1 of your Pokémon SP",
//! Platinum 116 in the TCGdex data). Lists write the last words (`Energy Gain`, `Poke
//! Turn`, `SP Radar`), with or without the `G-1xx` number, in English, French and German.
//! The family is closed (five Trainers of Platinum and Rising Rivals), so a table covers it.

use super::text::fold_into;

/// Each Invention's English name, its number, and the last words of its name in English,
/// French and German as TCGdex gives them (Platinum 116-118, Rising Rivals 95-96), folded.
/// Technical Machine G's French and German last words (`Machine Technique`, `Technische
/// Maschine`) name other Technical Machines too, so only the English one is read alone.
const INVENTIONS: [(&str, &str, &[&str]); 5] = [
    (
        "Team Galactic's Invention G-101 Energy Gain",
        "101",
        &["energy gain", "gain denergie", "energiegewinn"],
    ),
    (
        "Team Galactic's Invention G-103 Power Spray",
        "103",
        &["power spray", "spray puissant", "kraftspray"],
    ),
    (
        "Team Galactic's Invention G-105 Poké Turn",
        "105",
        &["poke turn", "poke tour", "poke dreher"],
    ),
    (
        "Team Galactic's Invention G-107 Technical Machine G",
        "107",
        &["technical machine g"],
    ),
    (
        "Team Galactic's Invention G-109 SP Radar",
        "109",
        &["sp radar", "radar sp"],
    ),
];

/// Words of the family's label in English, French and German, folded (`Team Galactic's
/// Invention`, `Invention … de Team Galaxie`, `Team Galaktiks Erfindung`): set aside.
const LABEL: [&str; 7] = [
    "team",
    "galactics",
    "galactic",
    "invention",
    "galaxie",
    "galaktiks",
    "erfindung",
];

/// The English name of the Invention `cleaned` writes, if it writes one: its last words
/// in English, French or German, with or without the label and the `G-1xx` number (which
/// must then be the card's).
pub(super) fn full_name(cleaned: &str) -> Option<&'static str> {
    let mut folded = String::with_capacity(cleaned.len());
    fold_into(&mut folded, cleaned);
    let words: Vec<&str> = folded.split(' ').collect();
    let mut number = None;
    let mut rest: Vec<&str> = Vec::with_capacity(words.len());
    let mut at = 0;
    while let Some(&word) = words.get(at) {
        let next = words.get(at + 1).copied();
        if word == "g" && next.is_some_and(|n| n.len() == 3 && n.starts_with('1')) {
            number = next;
            at += 2;
            continue;
        }
        let label = LABEL.contains(&word) || (word == "de" && next == Some("team"));
        if !label {
            rest.push(word);
        }
        at += 1;
    }
    let rest = rest.join(" ");
    INVENTIONS
        .iter()
        .find(|(_, code, shorts)| {
            number.is_none_or(|n| n == *code) && shorts.iter().any(|short| *short == rest)
        })
        .map(|(english, _, _)| *english)
}

#[cfg(test)]
mod tests {
    use super::full_name;

    /// What players write, cleaned as [`crate::names::canonical`] cleans it first.
    #[test]
    fn inventions_as_players_write_them() {
        let gain = Some("Team Galactic's Invention G-101 Energy Gain");
        let turn = Some("Team Galactic's Invention G-105 Poké Turn");
        let cases: &[(&str, Option<&str>)] = &[
            ("Energy Gain", gain),
            ("G-101 Energy Gain", gain),
            ("Team Galactic's Invention G-101 Energy Gain", gain),
            ("Team Galactic’s Invention Energy Gain", gain),
            ("Gain d'Énergie Invention G-101 de Team Galaxie", gain),
            ("Team Galaktiks Erfindung G-101 Energiegewinn", gain),
            ("Poke Turn", turn),
            ("Poké Turn", turn),
            ("Poké-Tour", turn),
            ("SP Radar", Some("Team Galactic's Invention G-109 SP Radar")),
            (
                "Power Spray",
                Some("Team Galactic's Invention G-103 Power Spray"),
            ),
            (
                "Technical Machine G",
                Some("Team Galactic's Invention G-107 Technical Machine G"),
            ),
            // Another number is another card; other Technical Machines stay themselves.
            ("G-103 Energy Gain", None),
            ("Machine Technique", None),
            ("Technical Machine TS-1", None),
            ("Energy Search", None),
            ("Galactic HQ", None),
        ];
        for (written, want) in cases {
            let cleaned = super::super::text::clean(written);
            assert_eq!(full_name(&cleaned), *want, "{written}");
        }
    }

    /// TCGdex's `*` after an untranslated name, and capitals, reach the same whole name, and
    /// that name is its own canonical name (found by `props::normalizers_are_projections`:
    /// the `*` once hid the Invention, and only a second pass recased it).
    #[test]
    fn a_marked_invention_is_canonical_in_one_pass() {
        use crate::names::canonical;
        let gain = "Team Galactic's Invention G-101 Energy Gain";
        for written in [
            "TEAM GALACTIC'S INVENTION G-101 ENERGY GAIN*",
            "Energy Gain*",
            "energy gain",
            gain,
        ] {
            assert_eq!(canonical(written), gain, "{written}");
        }
        assert_eq!(
            canonical(&canonical("ENERGY GAIN*")),
            canonical("ENERGY GAIN*")
        );
    }
}
