//! Card names as the rulebooks define them, turned into keys for lookup and comparison.
//!
//! [`canonical`] reduces a printed name to what counts as the card's name ("What does and
//! doesn't count for a Pokémon's name?", rulebook-en-sun-moon.txt): no level, no δ, no Team
//! Plasma on a Pokémon, no pictured person; owners, forms, suffixes and end symbols kept,
//! each in one spelling. [`lookup_key`] then folds case, accents and punctuation for lookup
//! while keeping the distinctions the rules make (`ex` is not `EX`). [`fold`] is the plain
//! folding, for fuzzy suggestions. Every function works on any of the six languages at
//! once (no language argument) and never fails. This module must not know about card
//! databases or deck lists: it only maps strings to strings.
//!
//! Normalize once, compare many times: every rule compares keys, never raw text.
//!
//! Decisions a caller must know:
//! - Basic Energy: every spelling of a type in every language (`Basic {R} Energy`,
//!   `Énergie Feu de base`, `Feuerenergie`) has the canonical form `Fire Energy`, in
//!   English, so one key covers all six languages.
//! - Team Plasma: [`canonical`] drops the tag unless what remains is one of the Team Plasma
//!   Trainer cards (`Team Plasma Ball`, `Badge`, `Grunt` and their translations), a
//!   closed list; so it needs no category, and both datasets (which already name the
//!   Pokémon `Liepard`) and written names (`Team Plasma Liepard`) agree.
//!   [`canonical_pokemon`] drops it unconditionally, for callers that know the card is a
//!   Pokémon.
//! - `EX` is upper case in keys (`mewtwo EX`), everything else lower case: a written
//!   `MEWTWO EX` is the Pokémon-EX, `Mewtwo Ex` the Pokémon ex.
//! - Platinum's Team Galactic's Inventions written by their last words (`Energy Gain`,
//!   `Poke Turn`, `SP Radar`, in English, French or German) have the whole English name
//!   (`Team Galactic's Invention G-101 Energy Gain`), which the card's text calls itself.
//! - Owners in other languages (`Onix de Pierre`, `Rockos Onix`) are not rewritten here:
//!   [`owner::split`] recognises the form, and the card database, which knows the
//!   Pokémon's English name, reads it as `Brock's Onix`.
//! - Apostrophes are dropped in keys: `Boss's Orders` = `Boss’s Orders` = `Bosss Orders`,
//!   but `Boss Orders` is another key (left to suggestions).

mod energy;
mod galactic;
pub mod lang;
mod nidoran;
pub mod notes;
pub mod owner;
mod plasma;
pub mod sets;
mod shorthand;
mod suffix;
mod tail;
mod text;

pub use shorthand::energy_type_word;
pub use shorthand::shorthand;
pub use shorthand::special_energy;

#[cfg(test)]
mod tests;

use plasma::Plasma;

/// The rules name of a printed card name, in display form (`Gengar LV.X` → `Gengar`,
/// `M Venusaur-EX` → `Mega Venusaur EX`, `Giratina {*}` → `Giratina ◇`). Idempotent.
pub fn canonical(printed: &str) -> String {
    canonical_with(printed, Plasma::UnlessTrainer)
}

/// [`canonical`] for a card known to be a Pokémon: `Team Plasma` is never part of it.
pub fn canonical_pokemon(printed: &str) -> String {
    canonical_with(printed, Plasma::Always)
}

/// A name as a reader compares two spellings: case, apostrophes (`’`), hyphens and spacing
/// aside. Unlike [`lookup_key`] it keeps words and languages apart (`Énergie Psy` is not
/// `Psychic Energy`): it tells whether a list writes a card's name as the card database
/// does, for showing or warning about the written one.
pub fn plain_spelling(name: &str) -> String {
    name.replace('-', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['’', '‘'], "'")
        .to_lowercase()
}

/// The key under which a name is looked up: [`canonical`], then folded (case, accents,
/// `.` `-` `'`), except that a word `EX` stays upper case so `Mewtwo EX` ≠ `Mewtwo ex`.
/// Never empty for a name with a visible character.
pub fn lookup_key(name: &str) -> String {
    let canon = canonical(without_category_label(name));
    let mut key = String::with_capacity(canon.len() + 2);
    for word in canon.split(' ') {
        if !key.is_empty() && !key.ends_with(' ') {
            key.push(' ');
        }
        if word == "EX" {
            key.push_str("EX");
        } else {
            text::fold_into(&mut key, word);
        }
    }
    let kept = key.trim_end().len();
    key.truncate(kept);
    if key.is_empty() {
        // Only punctuation ("'", "-"): keep something so the name can still be found.
        // From the canonical form, like every key: `(*` and `(` are one name.
        return canon.to_lowercase();
    }
    key
}

/// Labels some event records put after a card's name, set off by ` - `, saying what kind of
/// card it is (`Double Turbo Energy - Special`, `Prime Catcher - ACESPEC`, in
/// AlexWilsonNC/ptcg-story's records of 2023–24 events; both at once, `Legacy Energy -
/// Special - ACESPEC`, in pokedata's record of the 2024 World Championships): no card's
/// name ends in one.
const CATEGORY_LABELS: [&str; 3] = ["special", "acespec", "ace spec"];

/// `name` without its trailing [`CATEGORY_LABELS`] labels, however many.
fn without_category_label(name: &str) -> &str {
    let mut card = name;
    while let Some((rest, label)) = card.trim_end().rsplit_once(" - ") {
        let known = CATEGORY_LABELS
            .iter()
            .any(|known| label.trim().eq_ignore_ascii_case(known));
        if rest.trim().is_empty() || !known {
            break;
        }
        card = rest;
    }
    card
}

/// Lower case, accents removed, punctuation simplified (`Mr. Mime` → `mr mime`,
/// `Boss’s Orders` → `bosss orders`), whitespace collapsed. For fuzzy suggestions; it keeps
/// levels, δ and suffixes, and does not tell `ex` from `EX`.
pub fn fold(s: &str) -> String {
    let cleaned = text::clean(s);
    let mut out = String::with_capacity(cleaned.len());
    text::fold_into(&mut out, &cleaned);
    out
}

/// Whether a name is a basic Energy's name in some language and spelling (`Fire Energy`,
/// `Basic {R} Energy`, `Feuerenergie`); special Energy (`Reversal Energy`,
/// `Growing Grass Energy`) is not.
pub fn is_basic_energy_name(name: &str) -> bool {
    let cleaned = text::clean(name);
    let (base, symbol) = tail::split_tail(&cleaned);
    symbol.is_none() && energy::basic_energy(&base).is_some()
}

/// A basic Energy's name written with one slip in one word (`energia noturno`): the name
/// with that word spelt right (`energia noturna`), the other words as written. `None` for
/// a name that is a basic Energy's as written, or is none a slip away, or is several
/// types' (see `energy::basic_energy_slip`).
pub fn basic_energy_slip(name: &str) -> Option<String> {
    let cleaned = text::clean(name);
    let (base, symbol) = tail::split_tail(&cleaned);
    symbol
        .is_none()
        .then(|| energy::basic_energy_slip(&base))
        .flatten()
}

/// Whether a written name is a basic Energy that says it is basic (`Basic {D} Energy`,
/// `Basic Darkness Energy`, `Énergie Obscurité de base`): it names the basic card, never an
/// older special Energy that shares the plain name (`Darkness Energy`).
pub fn says_basic_energy(written: &str) -> bool {
    let cleaned = text::clean(written);
    let (base, symbol) = tail::split_tail(&cleaned);
    symbol.is_none() && energy::says_basic_energy(&base)
}

/// Whether a written name says the level `X` of a Pokémon LV.X (`Uxie LV.X`): the level is
/// no part of the rules name, but it says which card the line means.
pub fn says_level_x(written: &str) -> bool {
    tail::says_level_x(&text::clean(written))
}

/// Whether `c` is a symbol that card names carry (`◇` and its spellings `♢` `◊` `⬦`, `★`,
/// `☆`, `δ`, `♀`, `♂`): a reader must never take it for decoration such as an emoji.
pub fn is_name_symbol(c: char) -> bool {
    tail::is_symbol_char(c)
}

fn canonical_with(printed: &str, plasma: Plasma) -> String {
    let mut cleaned = text::clean(printed);
    if let Some(sexed) = nidoran::in_letters(&cleaned) {
        // `Nidoran (F)`: before the tail, which would drop `(F)` as a pictured person.
        cleaned = sexed.into();
    }
    if let Some(full) = galactic::full_name(&cleaned) {
        // `Energy Gain`, `Poke Turn`: the Invention's whole name (see galactic.rs).
        return full.to_owned();
    }
    let (base, symbol) = tail::split_tail(&cleaned);
    if let Some(full) = galactic::full_name(&base) {
        // Under a tail the cleaned name hid (`ENERGY GAIN*`, TCGdex's marker): the same
        // whole name, so that the canonical name is its own canonical name.
        return with_symbol(full.to_owned(), symbol);
    }
    if base.is_empty() {
        // Nothing but a tail ("◇", "(Giovanni)"): nothing to reduce.
        return cleaned.into_owned();
    }
    if symbol.is_none() {
        if let Some(energy) = energy::basic_energy(&base) {
            return energy.to_owned();
        }
        if let Some(energy) = energy::multi_type(&base) {
            return energy;
        }
        if let Some(spelled) = energy::spelled_symbols(&base) {
            // `Telepathic {P} Energy`: the same name with the type in words. Terminates:
            // the spelled name has no symbol left.
            return canonical_with(&spelled, plasma);
        }
    }
    let base = suffix::normalize(&base);
    // A symbol the suffix hid (`Rocky {F}-ex Energy` → `Rocky {F} ex Energy`): spelled
    // now, so the canonical name is its own canonical name.
    if symbol.is_none()
        && let Some(spelled) = energy::spelled_symbols(&base)
    {
        return canonical_with(&spelled, plasma);
    }
    let unplasma = plasma::strip(&base, plasma);
    if unplasma.len() < base.len() {
        // The tag may have hidden a tail ("Liepard δ del Equipo Plasma"): start over on
        // the shorter name, which keeps canonical idempotent. Terminates: it shrinks.
        return canonical_with(&with_symbol(unplasma, symbol), plasma);
    }
    // "Nidoran ♂" (TCGdex) is printed "Nidoran♂" (pokemontcg); "Nidoran m δ" (TCGdex's
    // German) had its sex in letters under the tail.
    let sexed = nidoran::in_letters(&unplasma).unwrap_or(unplasma);
    with_symbol(sexed.replace(" ♂", "♂").replace(" ♀", "♀"), symbol)
}

fn with_symbol(mut name: String, symbol: Option<tail::EndSymbol>) -> String {
    if let Some(symbol) = symbol {
        name.push(' ');
        name.push_str(symbol.as_str());
    }
    name
}
