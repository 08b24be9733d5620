//! Owner names as a translated list writes them: `Onix de Brock` (Spanish), `Onix de
//! Pierre` (French), `Rockos Onix` or `Onix von Rocko` (German), `Onix di Brock`
//! (Italian) are all `Brock's Onix`. The owner is part of the name ("An owner or form name
//! in a Pokémon's name is part of the Pokémon's name", rulebook-en-sun-moon.txt), and the
//! Gym Heroes and Gym Challenge cards (and others of their age) have no name in these
//! languages in the data, so the owner's translation comes from here.
//!
//! [`split`] only recognises the shape and the owner; turning the Pokémon's localized name
//! into its English one needs the card database, which is [`crate::cards`]'s job.

use super::text::{clean, fold_into};

/// Each owner's English name (as English names print it before `'s`) and its spellings in
/// the other languages. Every translation is the one TCGdex gives a card of that owner in
/// that language (cards/index.tsv, columns `fr` … `it`): Brock's Grit EVO 74 (fr `Pierre`,
/// de `Rocko`), Misty's Determination EVO 80 (fr `Ondine`), Lt. Surge's Strategy UNB 178
/// (fr/de `Major Bob`, es `Teniente Surge`, pt `Ten. Surge`), Erika's Hospitality TEU 140
/// (pt `Érica`), Koga's Trap UNB 177, Sabrina's Suggestion TEU 154 (fr `Morgane`), Blaine's
/// Last Stand DRM 58 (fr `Auguste`, de `Pyro`), Giovanni's Exile UNB 174, Rocket's Raikou ex
/// DX 108 (fr `Raikou ex de Rocket`, de `Rockets Raikou-ex`), Team Rocket's Wobbuffet SVP 203
/// (pt `Equipe Rocket`), Team Aqua's Great Ball DCR 27 (pt `Equipe Aqua`), Team Magma's
/// Great Ball DCR 31, Ash's Pikachu SMP SM108 (fr `Sacha`), Lance's Charizard V CEL 5 (fr
/// `Peter`, de `Siegfried`). A language whose name is the English one needs no entry.
/// Longer spellings first where one ends another (`Team Rocket` before `Rocket`).
const OWNERS: &[(&str, &[&str])] = &[
    (
        "Team Rocket",
        &["Team Rocket", "Equipe Rocket", "Équipe Rocket"],
    ),
    ("Team Aqua", &["Team Aqua", "Equipe Aqua", "Équipe Aqua"]),
    (
        "Team Magma",
        &["Team Magma", "Equipe Magma", "Équipe Magma"],
    ),
    ("Rocket", &["Rocket"]),
    ("Brock", &["Brock", "Pierre", "Rocko"]),
    ("Misty", &["Misty", "Ondine"]),
    (
        "Lt. Surge",
        &["Lt. Surge", "Major Bob", "Teniente Surge", "Ten. Surge"],
    ),
    ("Erika", &["Erika", "Érica"]),
    ("Koga", &["Koga"]),
    ("Sabrina", &["Sabrina", "Morgane"]),
    ("Blaine", &["Blaine", "Auguste", "Pyro"]),
    ("Giovanni", &["Giovanni"]),
    ("Ash", &["Ash", "Sacha"]),
    ("Lance", &["Lance", "Peter", "Siegfried"]),
];

/// The words that put the owner after the Pokémon, folded as [`fold_into`] folds them
/// (apostrophes dropped): fr `de`, `d'`, `de la`, `des`; es/it `del`; es `de`; pt `da`,
/// `do`; it `di`, `dell'`; de `von`, `vom`.
const AFTER: &[&str] = &[
    "de la ", "del ", "dell", "des ", "de ", "d", "da ", "do ", "di ", "von ", "vom ",
];

/// The longest name, in bytes, read for an owner form: the longest real one is under 40
/// (`Electabuzz del Teniente Surge`), and each blank of a name costs a pass over it, so a
/// hostile 4,096-byte line must not be scanned 2,000 times.
const MAX_OWNER_FORM: usize = 120;

/// The English owner and the Pokémon's name as written, when `written` has a translated
/// owner form: `X de Y`, `X d'Y`, `X del Y`, `X da Y`, `X do Y`, `X di Y`, `X von Y` (owner
/// after), or `Ys X`, `Y's X` (owner before, German and English). `None` otherwise.
pub fn split(written: &str) -> Option<(&'static str, String)> {
    if written.len() > MAX_OWNER_FORM {
        return None;
    }
    let cleaned = clean(written);
    after_form(&cleaned).or_else(|| before_form(&cleaned))
}

fn folded(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    fold_into(&mut out, s);
    out
}

/// The English owner whose spelling `tail` is, folded.
fn owner_of(tail: &str) -> Option<&'static str> {
    OWNERS
        .iter()
        .find(|(_, spellings)| spellings.iter().any(|s| folded(s) == tail))
        .map(|(english, _)| *english)
}

/// `X <word> Y`: the owner after the Pokémon. Tried at every blank, so the shortest owner
/// that is a known one wins (`Raikou ex de Rocket`).
fn after_form(cleaned: &str) -> Option<(&'static str, String)> {
    for (at, _) in cleaned.match_indices(' ') {
        let (species, rest) = cleaned.split_at(at);
        let rest = folded(rest);
        for word in AFTER {
            if let Some(owner) = rest.strip_prefix(word).and_then(owner_of)
                && !species.trim().is_empty()
            {
                return Some((owner, species.trim().to_string()));
            }
        }
    }
    None
}

/// `Ys X` or `Y's X`: the owner before the Pokémon, with a possessive `s`.
fn before_form(cleaned: &str) -> Option<(&'static str, String)> {
    for (at, _) in cleaned.match_indices(' ') {
        let (owner, species) = cleaned.split_at(at);
        let owner = folded(owner);
        let Some(bare) = owner.strip_suffix('s') else {
            continue;
        };
        if let Some(english) = owner_of(bare.trim_end())
            && !species.trim().is_empty()
        {
            return Some((english, species.trim().to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn owner_forms_in_every_language() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("Onix de Brock", Some(("Brock", "Onix"))),
            ("Onix de Pierre", Some(("Brock", "Onix"))),
            ("Rockos Onix", Some(("Brock", "Onix"))),
            ("Onix von Rocko", Some(("Brock", "Onix"))),
            ("Onix di Brock", Some(("Brock", "Onix"))),
            ("Onix do Brock", Some(("Brock", "Onix"))),
            ("Psykokwak d'Ondine", Some(("Misty", "Psykokwak"))),
            ("Psykokwak d’Ondine", Some(("Misty", "Psykokwak"))),
            ("Mistys Enton", Some(("Misty", "Enton"))),
            ("Elektek de Major Bob", Some(("Lt. Surge", "Elektek"))),
            (
                "Electabuzz del Teniente Surge",
                Some(("Lt. Surge", "Electabuzz")),
            ),
            ("Major Bobs Elektek", Some(("Lt. Surge", "Elektek"))),
            ("Tangela da Érica", Some(("Erika", "Tangela"))),
            ("Abra de Morgane", Some(("Sabrina", "Abra"))),
            ("Pyros Glumanda", Some(("Blaine", "Glumanda"))),
            ("Raikou ex de Rocket", Some(("Rocket", "Raikou ex"))),
            ("Rockets Raikou-ex", Some(("Rocket", "Raikou-ex"))),
            (
                "Miaouss de la Team Rocket",
                Some(("Team Rocket", "Miaouss")),
            ),
            ("Meowth del Team Rocket", Some(("Team Rocket", "Meowth"))),
            ("Team Rockets Mauzi", Some(("Team Rocket", "Mauzi"))),
            ("Brock's Onix", Some(("Brock", "Onix"))),
            // No owner: a plain name, an unknown owner, a form that is no owner.
            ("Onix", None),
            ("Onix de Bob", None),
            ("Pierre", None),
            ("de Brock", None),
            ("Búsqueda por Computadora", None),
        ];
        for (written, want) in cases {
            let got = split(written);
            let got = got.as_ref().map(|(o, s)| (*o, s.as_str()));
            assert_eq!(got, *want, "{written}");
        }
        // Past the bound, no owner form is looked for.
        let long = format!("{}Onix de Pierre", "x ".repeat(60));
        assert_eq!(split(&long), None);
    }
}
