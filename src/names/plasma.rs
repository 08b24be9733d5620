//! "For Pokémon, Team Plasma is not part of the Pokémon's name" (rulebook-en-sun-moon.txt,
//! Appendix N), but it is part of the names of the Team Plasma Trainer cards.
//!
//! Both datasets already name the Pokémon without it (`Liepard`, `Moltres-EX`) and keep it
//! on the Trainers (`Team Plasma Ball`, fr `Badge de la Team Plasma`, es `Poké Ball del
//! Equipo Plasma`). So [`strip`] removes the tag from what a person writes unless the rest
//! is one of those Trainer words: the Team Plasma card pool is closed (Black & White era),
//! so the list is complete, and without it `Poké Ball del Equipo Plasma` would become
//! `Poké Ball`. This module must not decide anything else about a name.

use super::text::fold_into;

/// How to treat the Team Plasma tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plasma {
    /// Strip it unless the rest is a Team Plasma Trainer or Energy word (any category).
    UnlessTrainer,
    /// Strip it: the caller knows the card is a Pokémon.
    Always,
}

/// The tag written before the name: en/de/fr/it `Team Plasma Ball`, de `Team-Plasma-Ball`.
const PREFIXES: [&str; 2] = ["team plasma ", "team-plasma-"];

/// The tag written after the name: fr, fr (older), es, pt, it, de, it `Medaglia Team Plasma`.
const SUFFIXES: [&str; 8] = [
    " de la team plasma",
    " de l'équipe plasma",
    " de l'equipe plasma",
    " del equipo plasma",
    " da equipe plasma",
    " del team plasma",
    " von team plasma",
    " team plasma",
];

/// Folded rests that make a Trainer or Energy card, from the TCGdex names of Team Plasma
/// Ball, Team Plasma Badge and Team Plasma Grunt in six languages (plus `Energy`).
const TRAINER_RESTS: [&str; 17] = [
    "ball",
    "badge",
    "grunt",
    "energy",
    "energie",
    "energia",
    "rupel",
    "orden",
    "sbire",
    "medalla",
    "poke ball",
    "recluta",
    "medaglia",
    "seguace",
    "bola",
    "grunhido",
    "insignia",
];

/// `name` without its Team Plasma tag, as `mode` says.
pub(super) fn strip(name: &str, mode: Plasma) -> String {
    let Some(rest) = untagged(name) else {
        return name.to_owned();
    };
    if mode == Plasma::UnlessTrainer {
        let mut folded = String::with_capacity(rest.len());
        fold_into(&mut folded, rest);
        if TRAINER_RESTS.contains(&folded.as_str()) {
            return name.to_owned();
        }
    }
    rest.to_owned()
}

/// The name without the tag, when it has one and something is left.
fn untagged(name: &str) -> Option<&str> {
    for prefix in PREFIXES {
        if let Some(head) = name.get(..prefix.len())
            && head.eq_ignore_ascii_case(prefix)
        {
            return name.get(prefix.len()..).filter(|r| !r.is_empty());
        }
    }
    // Only worth lower-casing names that mention Plasma at all.
    if !name.contains("lasma") && !name.contains("LASMA") {
        return None;
    }
    let lower = name.to_lowercase();
    let suffix = SUFFIXES.iter().find(|s| lower.ends_with(*s))?;
    let keep = name.chars().count().checked_sub(suffix.chars().count())?;
    let end = name.char_indices().nth(keep).map(|(i, _)| i)?;
    name.get(..end).filter(|r| !r.is_empty())
}
