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
//! - a name whose words lie inside a longer name found in the note is that name's part
//!   (`Base Set 2` holds `Base Set`): the longer name stands; a name several sets share
//!   names each of them;
//! - a note that names two different sets (`Base Set or Jungle`, `Obsidian Flames, Paldea
//!   Evolved`) names none: which one the line means is not said; a one-word name counts
//!   here wherever it stands (`Jungle` in `Base Set or Jungle`);
//! - a note that negates, with a word of `NEGATIONS` outside the set names it holds (`not
//!   the Base Set one`, `nicht aus 151`, `pas celle de Flammes Obsidiennes`, `no la de
//!   Llamas Obsidianas`, `non quella di Ossidiana Infuocata`, `não a de Obsidiana em
//!   Chamas`, `nem a de Obsidiana em Chamas`, `né quella di Ossidiana Infuocata`), names
//!   none: it may say which set the card is not from. The rule errs toward reading no set,
//!   where the line keeps the reading its name gives (Portuguese `no`, "in the", and
//!   Italian `ne`, "of it", are read as negations too);
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

/// Words that negate, folded as [`key`] folds them, in the six languages: en `not`, `no`,
/// `nor`, `neither`, `never`, `except`, `without`, `instead`, `isn't`, `aren't`, `don't`,
/// `doesn't`, `wasn't` (folded without the apostrophe); de `nicht`, `kein`, `keine`,
/// `keinen`, `keiner`, `weder`, `ohne`, `statt`, `anstatt`; fr `ne`, `pas`, `non`, `sans`,
/// `ni`, `jamais`; es `no`, `sin`, `ni`, `nunca`; it `non`, `né` (folded `ne`), `senza`,
/// `mai`; pt `não`, `nem`, `sem`, `nunca`. A word inside a set name the note holds is that
/// name's (Italian `Senza Paura`, Undaunted).
const NEGATIONS: [&str; 35] = [
    "not", "no", "nor", "neither", "never", "except", "without", "instead", "isnt", "arent",
    "dont", "doesnt", "wasnt", "nicht", "kein", "keine", "keinen", "keiner", "weder", "ohne",
    "statt", "anstatt", "ne", "pas", "non", "sans", "ni", "jamais", "sin", "nunca", "senza", "mai",
    "nao", "nem", "sem",
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
    // Where each name stands in the note, as a range of its words.
    let spans = |name: &[String]| -> Vec<(usize, usize)> {
        match name {
            [one] => match words.as_slice() {
                [only] if only == one => vec![(0, 1)],
                [.., from, last] if last == one && FROM_WORDS.contains(from) => {
                    vec![(words.len() - 1, words.len())]
                }
                _ => Vec::new(),
            },
            _ => (0..words.len().saturating_sub(name.len() - 1))
                .filter(|&at| {
                    (words[at..at + name.len()].iter())
                        .zip(name)
                        .all(|(a, b)| a == b)
                })
                .map(|at| (at, at + name.len()))
                .collect(),
        }
    };
    let found: Vec<((usize, usize), &Vec<&'static str>)> = (by_words().iter())
        .flat_map(|(name, ids)| spans(name).into_iter().map(move |span| (span, ids)))
        .collect();
    // A name inside a longer one found is its part (`Base Set` in `Base Set 2`).
    let inside = |(start, end): (usize, usize)| {
        (found.iter()).any(|&((s, e), _)| s <= start && end <= e && e - s > end - start)
    };
    let standing: Vec<&((usize, usize), &Vec<&'static str>)> =
        found.iter().filter(|(span, _)| !inside(*span)).collect();
    let mut names: Vec<&Vec<&'static str>> = standing.iter().map(|(_, ids)| *ids).collect();
    names.sort();
    names.dedup();
    let outside = |at: usize| !standing.iter().any(|((s, e), _)| *s <= at && at < *e);
    let negated =
        (words.iter().enumerate()).any(|(at, word)| NEGATIONS.contains(word) && outside(at));
    // A one-word name anywhere else in the note (`Base Set or Jungle`) names another set
    // the line may mean.
    let other = |ids: &Vec<&'static str>| {
        (by_words().iter()).any(|(name, other)| match name.as_slice() {
            [one] => {
                other != ids && (words.iter().enumerate()).any(|(at, w)| w == one && outside(at))
            }
            _ => false,
        })
    };
    match names.as_slice() {
        [ids] if !negated && !other(ids) => ids.to_vec(),
        _ => Vec::new(),
    }
}

/// The sets of 1999–2000 a Wizards-era report names before or after a card, as a player
/// told them apart (`3 Fossil Magmar`, `3 Magmar Fossil`, `Base Squirtle`): Base Set,
/// Jungle, Fossil and Team Rocket.
const WIZARDS_FIRST_SETS: [&str; 4] = ["base1", "base2", "base3", "base5"];

/// A card name that begins or ends with the name of one of the first Wizards sets (by
/// [`key`], in any language of the table, or its short name `Base`, `Rocket`), longest name
/// first: the rest of the name, and the set's id (`Fossil Magmar`: `Magmar`, `base3`).
/// `None` when no such name stands there, or nothing else does.
pub fn wizards_set_around(name: &str) -> Option<(&str, &'static str)> {
    let name = name.trim();
    // Where each word of the name starts and ends.
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (at, c) in name
        .char_indices()
        .chain(std::iter::once((name.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                words.push((from, at));
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    let mut names: Vec<(&Vec<String>, &'static str)> = (by_words().iter())
        .flat_map(|(words, ids)| ids.iter().map(move |id| (words, *id)))
        .filter(|(_, id)| WIZARDS_FIRST_SETS.contains(id))
        .collect();
    names.sort_by_key(|(words, _)| std::cmp::Reverse(words.len()));
    names.into_iter().find_map(|(set, id)| {
        let n = set.len();
        if n >= words.len() {
            return None;
        }
        let said = |from: usize, to: usize| key(&name[from..to]) == set.join(" ");
        if said(words[0].0, words[n - 1].1) {
            return Some((name[words[n].0..].trim(), id));
        }
        let first = words[words.len() - n].0;
        said(first, name.len()).then(|| (name[..first].trim(), id))
    })
}

/// Whether a note is nothing but a set's name (`(Fossil)`, `151`): a line read with that
/// set's code says all the note did.
pub fn is_only_a_set_name(note: &str) -> bool {
    let note = key(note);
    !note.is_empty() && by_words().iter().any(|(name, _)| name.join(" ") == note)
}

#[cfg(test)]
mod tests {
    use super::{MAX_NOTE_WORDS, is_only_a_set_name, key, named_in, wizards_set_around};

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

    /// A note that negates, or names two sets, names none (issue 42: `1 Charizard (not the
    /// Base Set one)` was read as Base Set's); the same set named twice, or a name inside a
    /// longer one, still names it.
    #[test]
    fn a_note_that_negates_or_names_two_sets_names_none() {
        for note in [
            "(not the Base Set one)",
            "not from Jungle",
            "isn't the Obsidian Flames one",
            "nicht aus 151",
            "(kein Pokémon GO)",
            "pas celle de Flammes Obsidiennes",
            "sans Flammes Obsidiennes",
            "no la de Llamas Obsidianas",
            "non quella di Ossidiana Infuocata",
            "não a de Obsidiana em Chamas",
            "sem Obsidiana em Chamas",
            // Each language's word for "nor", and the others once more, alone.
            "nem a de Obsidiana em Chamas",
            "né quella di Ossidiana Infuocata",
            "senza Ossidiana Infuocata",
            "ni la de Llamas Obsidianas",
            "sin Llamas Obsidianas",
            "ni celle de Flammes Obsidiennes",
            "celle qui ne vient de Flammes Obsidiennes",
            "weder die aus Obsidian Flammen",
            "ohne Obsidian Flammen",
            "nor from Jungle",
            "neither from Jungle",
            "Base Set or Jungle",
            "aus 151 statt Obsidian Flames",
            "Obsidian Flames, Paldea Evolved",
        ] {
            assert_eq!(named_in(note), Vec::<&str>::new(), "{note}");
        }
        for (note, ids) in [
            ("the Base Set 2 holo, Base Set 2", "base4"),
            ("Obsidian Flames (Flammes Obsidiennes)", "sv03"),
            // A negation word inside the name it names is the name's (Undaunted).
            ("quella di Senza Paura", "hgss3"),
        ] {
            assert_eq!(named_in(note).join(","), ids, "{note}");
        }
    }

    /// The first Wizards sets named before or after a card, as 1999–2000 reports write
    /// them (pojo.com's: `3 Fossil Magmar`, `3 Magmar Fossil`; `Base Squirtle`).
    #[test]
    fn a_wizards_set_before_or_after_a_card() {
        for (name, read) in [
            ("Fossil Magmar", Some(("Magmar", "base3"))),
            ("Magmar Fossil", Some(("Magmar", "base3"))),
            ("Base Squirtle", Some(("Squirtle", "base1"))),
            ("Base Set Charizard", Some(("Charizard", "base1"))),
            ("Team Rocket Dark Raichu", Some(("Dark Raichu", "base5"))),
            ("Rocket Dark Raichu", Some(("Dark Raichu", "base5"))),
            ("Jungle Scyther", Some(("Scyther", "base2"))),
            ("Dschungel Sichlor", Some(("Sichlor", "base2"))),
            ("Fossile Magmar", Some(("Magmar", "base3"))),
            // Not a set beside a card: the name alone, or a word that only begins one.
            ("Fossil", None),
            ("Rocket's Scyther", None),
            ("Basement Squirtle", None),
            ("Obsidian Flames Charizard", None),
        ] {
            assert_eq!(wizards_set_around(name), read, "{name}");
        }
    }

    #[test]
    fn a_note_of_a_set_name_alone_is_said_by_its_code() {
        assert!(is_only_a_set_name("(Fossil)"));
        assert!(is_only_a_set_name("151"));
        assert!(!is_only_a_set_name("(das andere aus 151)"));
        assert!(!is_only_a_set_name(""));
    }
}
