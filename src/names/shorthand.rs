//! Shorthand players write for a card: a basic Energy by its type alone (`11x Dark`,
//! `9 Darkness`, `8 Eau`) and a curated table of nicknames (`nicknames.tsv`, each with a
//! public list or glossary that uses it). Only for a line that names no card otherwise:
//! `check::identify` tries it last, and says "read as …" in a note.

use super::energy;
use super::text::fold_into;

/// The table: shorthand, TAB, English card name, TAB, source.
const NICKNAMES: &str = include_str!("nicknames.tsv");

/// The English name of the card `written` is shorthand for, if any: a basic Energy type
/// word alone (in the six languages, and `Dark`), or followed by `(Basic)` as posts tell
/// it from the special Energy of the same type (`7 Darkness (Basic)`), else an entry of
/// the nickname table.
pub fn shorthand(written: &str) -> Option<&'static str> {
    let mut key = String::new();
    fold_into(&mut key, written.trim());
    if key.is_empty() {
        return None;
    }
    energy::type_alone(&key)
        .or_else(|| key.strip_suffix(" basic").and_then(energy::type_alone))
        .or_else(|| {
            NICKNAMES
                .lines()
                .filter(|line| !line.starts_with('#'))
                .find_map(|line| {
                    let mut fields = line.split('\t');
                    let (nickname, name) = (fields.next()?, fields.next()?);
                    let mut folded = String::new();
                    fold_into(&mut folded, nickname);
                    (folded == key).then_some(name)
                })
        })
}

/// The English name of the basic Energy whose type `written` names as a whole word of at
/// least three letters (`dark`, `Fire`, `Darkness`, `eau`): what event records write in
/// place of a basic Energy's number (ptcg-story's `"set": "SSH", "number": "dark"`). Not
/// the one-letter symbols, which [`shorthand`] also reads.
pub fn energy_type_word(written: &str) -> Option<&'static str> {
    let mut key = String::new();
    fold_into(&mut key, written.trim());
    if key.chars().count() < 3 {
        return None;
    }
    energy::type_alone(&key)
}

/// The English name of the special Energy `written` names by its type and `(Special)`, as
/// posts tell it from the basic Energy of the same type (`4 Darkness (Special)` beside `7
/// Darkness (Basic)`, thetopcut.net's 2012 Dutch Nationals list). Only Darkness and Metal
/// have a special Energy named after the type alone: "Darkness Energy provides Darkness
/// Energy. (Doesn't count as a basic Energy card.)" (Undaunted 79; Metal Energy of the same
/// set likewise). The caller reads the line as a printing of that name that is not basic.
/// `Special` may come first, the type by its letter (`4 Special M` beside `2 Metal`, in the
/// 2011 Arizona State Championship list of <https://sixprizes.com/2011/03/23/california-invades-arizona-top/>).
pub fn special_energy(written: &str) -> Option<&'static str> {
    let mut key = String::new();
    fold_into(&mut key, written.trim());
    let name = (key.strip_suffix(" special"))
        .or_else(|| key.strip_prefix("special "))
        .and_then(energy::type_alone)?;
    ["Darkness Energy", "Metal Energy"]
        .into_iter()
        .find(|special| *special == name)
}
