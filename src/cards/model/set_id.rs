//! Set ids as databases write them, for deck lines that name a card by its database id
//! (`4 Ultra Ball sv1-196`, `1 Pikachu swshp-SWSH020`), as simulators and API users do.
//!
//! The card index keeps TCGdex's set ids (`sv03.5`, `swsh4.5`); pokemontcg.io writes the
//! same sets its own way (`sv3pt5`, `swsh45`). [`tcgdex_id`] turns a pokemontcg.io id into
//! TCGdex's: a few naming rules (`pt5` is `.5`, Scarlet & Violet and Mega Evolution numbers
//! have two digits) and the sets whose ids follow no rule. The crosswalk in
//! `../shared/data/derived/set-codes.json` checks every set (tests/suite/identify_shared.rs).

use std::borrow::Cow;

/// A Black Star Promo set: TCGdex gives each series' promos an id ending in `p` (`svp`,
/// `swshp`, `basep`, `np`); the trainer kits (`tk-xy-p`) are not promos.
pub fn is_promo_set(set_id: &str) -> bool {
    set_id.ends_with('p') && !set_id.contains('-') && !set_id.contains('.')
}

/// pokemontcg.io ids that no naming rule turns into TCGdex's.
const IRREGULAR: &[(&str, &str)] = &[
    ("base6", "lc"),
    ("bp", "bog"),
    ("hsp", "hgssp"),
    ("tk1a", "tk-ex-latia"),
    ("tk1b", "tk-ex-latio"),
    ("tk2a", "tk-ex-p"),
    ("tk2b", "tk-ex-m"),
    ("cel25c", "cel25cc"),
    ("pgo", "swsh10.5"),
    ("fut20", "fut2020"),
    ("zsv10pt5", "sv10.5b"),
    ("rsv10pt5", "sv10.5w"),
    ("sm35", "sm3.5"),
    ("sm75", "sm7.5"),
    ("swsh35", "swsh3.5"),
    ("swsh45", "swsh4.5"),
    ("swsh45sv", "swsh4.5sv"),
    ("mcd11", "2011bw"),
    ("mcd12", "2012bw"),
    ("mcd14", "2014xy"),
    ("mcd15", "2015xy"),
    ("mcd16", "2016xy"),
    ("mcd17", "2017sm"),
    ("mcd18", "2018sm"),
    ("mcd19", "2019sm"),
    ("mcd21", "2021swsh"),
    ("mcd22", "2022swsh"),
];

/// The TCGdex set id for a pokemontcg.io set id (`sv3pt5` → `sv03.5`); an id that is
/// already TCGdex's comes back unchanged.
pub fn tcgdex_id(id: &str) -> Cow<'_, str> {
    if let Some((_, tcgdex)) = IRREGULAR.iter().find(|(written, _)| *written == id) {
        return Cow::Borrowed(tcgdex);
    }
    let dotted = id.replace("pt", ".");
    // `sv3` → `sv03`, `me2.5` → `me02.5`: one digit after the series letters gets a zero.
    for series in ["sv", "me"] {
        if let Some(rest) = dotted.strip_prefix(series) {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 1 {
                return Cow::Owned(format!("{series}0{rest}"));
            }
        }
    }
    if dotted == id {
        Cow::Borrowed(id)
    } else {
        Cow::Owned(dotted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pokemontcg_ids_become_tcgdex_ids() {
        for (written, expected) in [
            ("sv1", "sv01"),
            ("sv3pt5", "sv03.5"),
            ("sv10", "sv10"),
            ("me2pt5", "me02.5"),
            ("swsh12pt5gg", "swsh12.5gg"),
            ("swsh45", "swsh4.5"),
            ("base6", "lc"),
            ("xy1", "xy1"),
            ("swshp", "swshp"),
            ("sv03.5", "sv03.5"),
        ] {
            assert_eq!(tcgdex_id(written), expected, "{written}");
        }
    }

    #[test]
    fn ids_are_lower_case_codes_are_not() {
        for id in [
            "xy1",
            "sv3pt5",
            "swshp",
            "sv03.5",
            "base1",
            "2013bw",
            "2019sm-fr",
        ] {
            assert!(crate::deck::looks_like_set_id(id), "{id}");
        }
        for code in [
            "SVI",
            "PR-SV",
            "Xy1",
            "",
            "tk-ex-latia",
            "2013",
            "2019-fr",
            "201bw",
        ] {
            assert!(!crate::deck::looks_like_set_id(code), "{code}");
        }
    }
}
