//! A listing rewritten the way Pokémon TCG Live writes its exports, for `deckbox convert
//! --to ptcgl`: text a player pastes into PTCG Live's import.
//!
//! What PTCG Live writes, from real exports (docs/research/issue-18.md, §1a and §1b):
//! - basic Energy as `Basic {P} Energy SVE 5` (`{G}{R}{W}{L}{P}{F}{D}{M}`, `{Y}` for Fairy);
//! - promos under hyphenated codes: `PR-SV 27`, `PR-SW`, `PR-SM` (and, by the converters'
//!   tables, `PR-XY`, `PR-BLW`), where the cards and Limitless print `SVP 27`;
//! - gallery sub-sets as `CRZ-GG 25`, `LOR-TG 24`, `CEL-CC 5`, where the card prints
//!   `GG25`: the number is always plain digits;
//! - a set code and number on every line.
//!
//! So a line deckbox identified by its code and number gets them in those forms; a basic
//! Energy written without them gets PTCG Live's `Energy 5` (which names no printing); any
//! other line written without them keeps its name alone, since pinning one printing would
//! change the deck (a hand-typed `4 Electabuzz` is legal in the Game Boy format only as a
//! Base Set one), and a Pokémon among them is reported; PTCG Live's own `SVALT` / `SWSHALT` / `SMALT` codes and `PH` stay as written. Header numbers stay card
//! counts: PTCG Live writes line counts, but both circulate and importers ignore them.
//! Names are not translated here (`--lang` does that); basic Energy is renamed only in an
//! English list, the one language PTCG Live's exports use for card names.

use crate::cards::identification::resolve::{is_placeholder, is_ptcgl_alt_code};
use crate::cards::{CardDb, Category, Printing, split_number};
use crate::names::lang::Language;
use crate::names::plain_spelling;

use super::Listing;

/// Sub-set number prefixes PTCG Live writes as part of the set code (`CRZ-GG 25`).
const SUBSET_PREFIXES: [&str; 3] = ["GG", "TG", "CC"];

/// What PTCG Live may not import, for a warning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportDoubts {
    /// Names that are not the card's English name, or of no card deckbox knows.
    pub not_english: Vec<String>,
    /// Pokémon written without a set code and number, which PTCG Live imports by them.
    pub uncoded_pokemon: Vec<String>,
}

/// Rewrites `listing` in place (see the module documentation); returns what PTCG Live may
/// not import, in list order.
pub fn for_ptcg_live(listing: &mut Listing, db: &CardDb) -> ImportDoubts {
    let english = listing.language == Language::En;
    let mut doubts = ImportDoubts::default();
    for line in listing.groups.iter_mut().flat_map(|group| &mut group.lines) {
        let Some(printing) = line.printing.and_then(|id| db.get(id)) else {
            doubts.not_english.push(line.name.clone());
            continue;
        };
        let uncoded = match (&line.set, &line.number) {
            (Some(set), Some(number)) => is_placeholder(set, number),
            _ => true,
        };
        let alt = line.set.as_deref().is_some_and(is_ptcgl_alt_code);
        if !alt && !printing.set_code.is_empty() && named(line, db) {
            let (set, number) = code(printing);
            line.set = Some(set);
            line.number = Some(number);
        }
        if printing.is_basic_energy()
            && english
            && let Some(letter) = energy_letter(&printing.rules_name())
        {
            line.name = format!("Basic {{{letter}}} Energy");
            // PTCG Live's own code for a basic Energy of no particular printing, read back
            // as the name alone.
            if let (true, Some(number)) = (uncoded, energy_number(letter)) {
                line.set = Some("Energy".to_string());
                line.number = Some(number.to_string());
            }
            continue;
        }
        if uncoded && printing.category == Category::Pokemon {
            doubts.uncoded_pokemon.push(line.name.clone());
        }
        let english_name = printing.names.get(Language::En);
        if english_name.is_none_or(|name| plain_spelling(name) != plain_spelling(&line.name)) {
            doubts.not_english.push(line.name.clone());
        }
    }
    doubts
}

/// The number PTCG Live gives a basic Energy of a type under its `Energy` and `SVE` codes
/// (G 1, R 2, W 3, L 4, P 5, F 6, D 7, M 8; measured over real exports,
/// docs/research/issue-18.md §1a); none for Fairy.
fn energy_number(letter: char) -> Option<u8> {
    "GRWLPFDM"
        .find(letter)
        .and_then(|index| u8::try_from(index + 1).ok())
}

/// Whether the line's set code and number name its printing (rather than a card the
/// line's name was matched away from).
fn named(line: &super::ListLine, db: &CardDb) -> bool {
    match (&line.set, &line.number, line.printing) {
        (Some(set), Some(number), Some(id)) => db.by_set_number(set, number).contains(&id),
        _ => false,
    }
}

/// A printing's set code and number as PTCG Live writes them.
pub fn code(printing: &Printing) -> (String, String) {
    let set = match printing.set_code.as_str() {
        "SVP" => "PR-SV",
        "SWSHP" => "PR-SW",
        "SMP" => "PR-SM",
        "XYP" => "PR-XY",
        "BWP" => "PR-BLW",
        other => other,
    };
    let (prefix, digits, suffix) = split_number(&printing.number);
    if SUBSET_PREFIXES.contains(&prefix) && suffix.is_empty() && !digits.is_empty() {
        let digits = digits.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        return (format!("{set}-{prefix}"), digits.to_string());
    }
    (set.to_string(), printing.number.clone())
}

/// The type letter PTCG Live puts in braces for a basic Energy's English name.
fn energy_letter(english: &str) -> Option<char> {
    let types = [
        ("Grass", 'G'),
        ("Fire", 'R'),
        ("Water", 'W'),
        ("Lightning", 'L'),
        ("Psychic", 'P'),
        ("Fighting", 'F'),
        ("Darkness", 'D'),
        ("Metal", 'M'),
        ("Fairy", 'Y'),
    ];
    types
        .iter()
        .find(|(word, _)| english.split_whitespace().any(|w| w == *word))
        .map(|(_, letter)| *letter)
}

#[cfg(test)]
mod tests {
    use super::{code, energy_letter};
    use crate::cards::{Category, Printing};

    #[test]
    fn codes_are_written_as_ptcg_live_writes_them() {
        let cases = [
            ("SVP", "27", "PR-SV", "27"),
            ("SWSHP", "SWSH250", "PR-SW", "SWSH250"),
            ("CRZ", "GG25", "CRZ-GG", "25"),
            ("LOR", "TG05", "LOR-TG", "5"),
            ("TWM", "128", "TWM", "128"),
            ("SHF", "SV9", "SHF", "SV9"),
        ];
        for (set, number, want_set, want_number) in cases {
            let printing = Printing::new(set, number, Category::Pokemon);
            assert_eq!(
                code(&printing),
                (want_set.to_string(), want_number.to_string()),
                "{set} {number}"
            );
        }
        assert_eq!(energy_letter("Psychic Energy"), Some('P'));
        assert_eq!(energy_letter("Basic Fire Energy"), Some('R'));
        assert_eq!(energy_letter("Double Turbo Energy"), None);
        assert_eq!(super::energy_number('G'), Some(1));
        assert_eq!(super::energy_number('M'), Some(8));
        assert_eq!(super::energy_number('Y'), None);
    }
}
