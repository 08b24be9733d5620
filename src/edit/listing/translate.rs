//! Card names in another language, from the card database.
//!
//! A known card takes its printing's name in the target language (`Printing::names`);
//! basic Energy takes a fixed name per type and language (the names of the SVE printings,
//! which the name normalizer reads as basic Energy in every language), so `Basic {R}
//! Energy` becomes `Énergie Feu` whichever database is open. A card with no name in the
//! target language, and an unknown card, keep the name as written and are reported. A
//! line without set code and number whose translated name would also name another card
//! gets its printing's set code and number, so it still reads back as the same card.
//! Set codes and numbers written are never changed. This module must not order or merge lines.

use serde::Serialize;

use crate::cards::identification::resolve::Profile;
use crate::cards::{CardDb, Printing};
use crate::names;
use crate::names::lang::Language;

use super::ListLine;

/// A line whose card has no name in the target language: it keeps the written name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Untranslated {
    /// The input line number.
    pub line: usize,
    pub name: String,
    /// Whether the card is known at all (an unknown card cannot be translated).
    pub known: bool,
    /// The card's name in the target language also names another card, and neither the
    /// line nor the card has a set code and number to tell them apart.
    pub ambiguous: bool,
}

/// Renames entries into `language`; returns the lines that kept their written name.
pub(super) fn names(
    entries: &mut [ListLine],
    db: &CardDb,
    language: Language,
) -> Vec<Untranslated> {
    let mut kept = Vec::new();
    for entry in entries.iter_mut() {
        let printing = entry.printing.and_then(|id| db.get(id));
        let translated = printing.and_then(|printing| {
            if printing.is_basic_energy() {
                basic_energy_name(&printing.rules_name(), language)
                    .map(str::to_owned)
                    .or_else(|| printing.names.get(language).map(str::to_owned))
            } else {
                printing.names.get(language).map(str::to_owned)
            }
        });
        // A name that also names another card (translated, or kept when the card has no
        // name in `language`) gets the printing's set code and number, so the line still
        // reads back as the same card.
        let uncoded = entry.set.is_none() || entry.number.is_none();
        let shown = translated.as_deref().unwrap_or(&entry.name);
        let ambiguous = printing.is_some_and(|printing| {
            uncoded && !printing.is_basic_energy() && names_another_card(db, shown, printing)
        });
        let code = printing
            .filter(|printing| ambiguous && !printing.set_code.is_empty())
            .map(|printing| (printing.set_code.clone(), printing.number.clone()));
        let coded = code.is_some();
        if let Some((set, number)) = code {
            entry.set = Some(set);
            entry.number = Some(number);
        }
        match translated {
            Some(name) if !ambiguous || coded => entry.name = name,
            _ => kept.push(Untranslated {
                line: entry.source_lines.first().copied().unwrap_or(0),
                name: entry.name.clone(),
                known: printing.is_some(),
                ambiguous: ambiguous && !coded,
            }),
        }
    }
    kept
}

/// Whether `name` also identifies a card other than `printing`: another name (the card
/// database gives two cards the same French name, say) or a functionally different card of
/// the same name (`Bola Mestra` is only the ACE SPEC Master Ball, while the English `Master
/// Ball` also names the EX-era Item). Read back without a set code, it could be the other one.
fn names_another_card(db: &CardDb, name: &str, printing: &Printing) -> bool {
    let profile = Profile::of(printing);
    db.name_matches(name)
        .filter_map(|hit| db.get(hit.id))
        .any(|other| Profile::of(other) != profile)
}

/// The basic Energy names, per type: en, fr, es, pt, de, it (as printed on SVE cards;
/// Fairy as printed on its last basic printing, XY era).
const BASIC_ENERGY: [[&str; 6]; 9] = [
    [
        "Grass Energy",
        "Énergie Plante",
        "Energía Planta",
        "Energia de Grama",
        "Pflanze-Energie",
        "Energia Erba",
    ],
    [
        "Fire Energy",
        "Énergie Feu",
        "Energía Fuego",
        "Energia de Fogo",
        "Feuer-Energie",
        "Energia Fuoco",
    ],
    [
        "Water Energy",
        "Énergie Eau",
        "Energía Agua",
        "Energia de Água",
        "Wasser-Energie",
        "Energia Acqua",
    ],
    [
        "Lightning Energy",
        "Énergie Electrik",
        "Energía Rayo",
        "Energia de Raios",
        "Elektro-Energie",
        "Energia Lampo",
    ],
    [
        "Psychic Energy",
        "Énergie Psy",
        "Energía Psíquica",
        "Energia Psíquica",
        "Psycho-Energie",
        "Energia Psico",
    ],
    [
        "Fighting Energy",
        "Énergie Combat",
        "Energía Lucha",
        "Energia de Luta",
        "Kampf-Energie",
        "Energia Lotta",
    ],
    [
        "Darkness Energy",
        "Énergie Obscurité",
        "Energía Oscura",
        "Energia de Escuridão",
        "Finsternis-Energie",
        "Energia Oscurità",
    ],
    [
        "Metal Energy",
        "Énergie Métal",
        "Energía Metálica",
        "Energia de Metal",
        "Metall-Energie",
        "Energia Metallo",
    ],
    [
        "Fairy Energy",
        "Énergie Fée",
        "Energía Hada",
        "Energia de Fada",
        "Feen-Energie",
        "Energia Folletto",
    ],
];

/// The name of a basic Energy in `language`, from its name in any language (`Basic {R}
/// Energy`, `Feuerenergie`); `None` when `name` is not a basic Energy.
pub fn basic_energy_name(name: &str, language: Language) -> Option<&'static str> {
    let canonical = names::canonical(name);
    BASIC_ENERGY
        .iter()
        .find(|row| row.first() == Some(&canonical.as_str()))
        .and_then(|row| row.get(language.index()))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_basic_energy_name_reads_back_as_its_type() {
        for row in BASIC_ENERGY {
            for (language, name) in Language::ALL.into_iter().zip(row) {
                assert_eq!(names::canonical(name), row[0], "{language}: {name}");
                assert_eq!(basic_energy_name(name, language), Some(name));
            }
        }
    }

    #[test]
    fn other_names_are_not_basic_energy() {
        assert_eq!(basic_energy_name("Double Turbo Energy", Language::Fr), None);
        assert_eq!(
            basic_energy_name("Basic {R} Energy", Language::De),
            Some("Feuer-Energie")
        );
    }
}
