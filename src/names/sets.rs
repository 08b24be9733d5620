//! Set names in the six languages, as TCGdex sets' ids: the table `cards/set-names.tsv`
//! (generated from TCGdex with the card index), read once, and the set a deck line's note
//! names (`2 x Glurak ex (das andere aus 151)`: Scarlet & Violet—151).
//!
//! Names compare by [`key`]: lower case, accents and punctuation aside, `&`, `and`, `y` and
//! `et` dropped (`Scarlet & Violet` is `Scarlet and Violet`, `Écarlate et Violet`). This
//! module knows names only: which sets print a card is the card database's to say
//! (`check::identify` reads the note's set only when it prints the line's card).
//!
//! When a note names a set ([`named_in`]), a rule chosen against false readings, since set
//! names are also words and numbers (`151`, `Jungle`, `Fossil`, `Evolutions`, `Base`):
//! - a name of several words (`Obsidian Flames`, `Flammes Obsidiennes`, `Pokémon GO`) is
//!   named when its words stand together, whole, anywhere in the note (`from Obsidian
//!   Flames`, `la de Flammes Obsidiennes`);
//! - a name of one word is named only when it is the whole note (`(151)`, `(Fossil)`), or
//!   its last word with a word for "from" just before it in one of the six languages (`aus
//!   151`, `das andere aus 151`, `from Jungle`, `de Evoluciones`): `(2 of 151 cards)`,
//!   `(151 cards)`, `(Jungle Totem)` and `(better than Base)` name no set;
//! - of several names in a note, the one of most words stands (`Base Set 2` over `Base
//!   Set`); a name several sets share names each of them;
//! - a note of more than [`MAX_NOTE_WORDS`] words is prose, and names no set.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Set names per language, generated from TCGdex: `set_id<TAB>language<TAB>name`.
const SET_NAMES: &str = include_str!("../../cards/set-names.tsv");

/// The names Wizards-era reports give the first sets that TCGdex's names lack, with the
/// set's id: `(Base)` for Base Set, `(Rocket)` for Team Rocket (pojo.com's 2000-07-22
/// Vancouver report: `1x Professor Oak (Base)`).
const WIZARDS_SHORT_NAMES: [(&str, &str); 2] = [("base1", "Base"), ("base5", "Rocket")];

/// The most words a note may have to name a set: notes that name one are a few words
/// (`das andere aus 151`); a longer note is prose, and each word costs a pass over the names.
pub const MAX_NOTE_WORDS: usize = 24;

/// Words for "from" before a one-word set name, folded, in the six languages: en `from`,
/// de `aus`/`von`/`vom`, fr `de`/`du`/`des`/`d`, es `de`/`del`, it `da`/`di`/`dal`/`dalla`/
/// `del`/`della`, pt `de`/`do`/`da`/`dos`.
const FROM_WORDS: [&str; 16] = [
    "from", "aus", "von", "vom", "de", "du", "des", "d", "del", "da", "di", "dal", "dalla",
    "della", "do", "dos",
];

/// A set name as compared: lower case, accents and punctuation aside, `&` and `and` one
/// (`y`, `et` too), words joined by one space.
pub fn key(name: &str) -> String {
    let folded = super::fold(&name.replace('&', " and "));
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && *word != "and" && *word != "y" && *word != "et")
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every `(set id, name)` of the table, in every language, then the Wizards-era short
/// names.
pub fn rows() -> impl Iterator<Item = (&'static str, &'static str)> {
    let table = SET_NAMES.lines().filter_map(|line| {
        let mut cells = line.split('\t');
        let id = cells.next()?;
        let _language = cells.next()?;
        let name = cells.next()?;
        (!id.starts_with('#')).then_some((id, name))
    });
    table.chain(WIZARDS_SHORT_NAMES)
}

/// The table by name: each name's words ([`key`]) and the ids of the sets it names.
fn by_words() -> &'static [(Vec<String>, Vec<&'static str>)] {
    static TABLE: OnceLock<Vec<(Vec<String>, Vec<&'static str>)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map: HashMap<String, Vec<&'static str>> = HashMap::new();
        for (id, name) in rows() {
            let ids = map.entry(key(name)).or_default();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let mut table: Vec<(Vec<String>, Vec<&'static str>)> = (map.into_iter())
            .filter(|(words, _)| !words.is_empty())
            .map(|(words, ids)| (words.split(' ').map(str::to_string).collect(), ids))
            .collect();
        table.sort();
        table
    })
}

/// The sets (TCGdex ids) a line's note names, by the rule of the module docs: empty when
/// it names none.
pub fn named_in(note: &str) -> Vec<&'static str> {
    let note = key(note);
    let words: Vec<&str> = note.split(' ').filter(|word| !word.is_empty()).collect();
    if words.is_empty() || words.len() > MAX_NOTE_WORDS {
        return Vec::new();
    }
    let named = |name: &[String]| -> bool {
        match name {
            [one] => match words.as_slice() {
                [only] => only == one,
                [.., from, last] => last == one && FROM_WORDS.contains(from),
                [] => false,
            },
            _ => (words.windows(name.len())).any(|run| run.iter().zip(name).all(|(a, b)| a == b)),
        }
    };
    let mut best: Vec<&'static str> = Vec::new();
    let mut most = 0;
    for (name, ids) in by_words() {
        if name.len() < most || !named(name) {
            continue;
        }
        if name.len() > most {
            best.clear();
            most = name.len();
        }
        for id in ids {
            if !best.contains(id) {
                best.push(id);
            }
        }
    }
    best
}

/// Whether a note is nothing but a set's name (`(Fossil)`, `151`): a line read with that
/// set's code says all the note did.
pub fn is_only_a_set_name(note: &str) -> bool {
    let note = key(note);
    !note.is_empty() && by_words().iter().any(|(name, _)| name.join(" ") == note)
}

#[cfg(test)]
mod tests {
    use super::{MAX_NOTE_WORDS, is_only_a_set_name, key, named_in};

    #[test]
    fn names_compare_without_case_accents_or_and() {
        assert_eq!(key("Scarlet & Violet"), key("Scarlet and Violet"));
        assert_eq!(key("Écarlate et Violet"), "ecarlate violet");
        assert_eq!(key("(das andere aus 151)"), "das andere aus 151");
    }

    /// Notes as players write them, in the six languages, and notes that only look so.
    #[test]
    fn a_note_names_a_set_by_whole_words() {
        for (note, ids) in [
            // tests/corpus/lists/codes4tcg/pokephil-2024-03-05-syi8u7bih5m.txt
            ("(das andere aus 151)", "sv03.5"),
            ("aus 151", "sv03.5"),
            ("(151)", "sv03.5"),
            ("from Obsidian Flames", "sv03"),
            ("the one from Obsidian Flames!", "sv03"),
            ("de Flammes Obsidiennes", "sv03"),
            ("la versión de Llamas Obsidianas", "sv03"),
            ("quella di Ossidiana Infuocata", "sv03"),
            ("de Obsidiana em Chamas", "sv03"),
            ("aus Pokémon GO", "swsh10.5"),
            ("(Fossil)", "base3"),
            ("(Base)", "base1"),
            ("(Base Set)", "base1"),
            ("Base Set 2", "base4"),
            ("from Jungle", "base2"),
            ("de Evoluciones", "xy12"),
            // Not a set: a number or a common word among others.
            ("(2 of 151 cards)", ""),
            ("(151 cards)", ""),
            ("(Jungle Totem)", ""),
            ("better than Base", ""),
            ("Evolutions are fun", ""),
            ("tech", ""),
            ("", ""),
        ] {
            assert_eq!(named_in(note).join(","), ids, "{note}");
        }
        let prose = format!("{} aus 151", "word ".repeat(MAX_NOTE_WORDS));
        assert!(named_in(&prose).is_empty());
    }

    #[test]
    fn a_note_of_a_set_name_alone_is_said_by_its_code() {
        assert!(is_only_a_set_name("(Fossil)"));
        assert!(is_only_a_set_name("151"));
        assert!(!is_only_a_set_name("(das andere aus 151)"));
        assert!(!is_only_a_set_name(""));
    }
}
