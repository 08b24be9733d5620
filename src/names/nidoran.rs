//! The sex of a Nidoran written in letters: `Nidoran F`, `Nidoran (M)`, `Nidoran Female`,
//! and TCGdex's German `Nidoran W` / `Nidoran m` (weiblich, männlich), for the `♀` and `♂`
//! that a keyboard lacks. The symbol is part of the name ("Symbols at the end of a
//! Pokémon's name are part of a Pokémon's name", rulebook-en-sun-moon.txt): the letter
//! must become that symbol, never be dropped, so `Nidoran F` is `Nidoran♀` and never
//! `Nidoran♂`.

/// The written sexes, lower case: English letters and words, German `w`.
const FEMALE: [&str; 3] = ["f", "female", "w"];
const MALE: [&str; 2] = ["m", "male"];

/// `name` (cleaned) with a trailing sex after the word `Nidoran` written as its symbol
/// (`Team Rocket's Nidoran F` → `Team Rocket's Nidoran♀`); `None` for every other name.
pub(super) fn in_letters(name: &str) -> Option<String> {
    let (species, sex) = name.trim_end().rsplit_once([' ', '-'])?;
    let species = species.trim_end();
    let start = species.len().checked_sub("nidoran".len())?;
    let (before, word) = (species.get(..start)?, species.get(start..)?);
    let whole_word = before.is_empty() || before.ends_with(' ');
    if !whole_word || !word.eq_ignore_ascii_case("nidoran") {
        return None;
    }
    let sex = sex
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(sex);
    let sex = sex.to_ascii_lowercase();
    let symbol = if FEMALE.contains(&sex.as_str()) {
        '♀'
    } else if MALE.contains(&sex.as_str()) {
        '♂'
    } else {
        return None;
    };
    Some(format!("{species}{symbol}"))
}
