//! What to tell the writer of a line deckbox could not read: which shape of line it
//! expected, and the closest one the line could be rewritten to.
//!
//! This module only writes messages; it must not decide what a line is (that is
//! [`super::classify`]).

use super::card::is_code;
use super::lines::{is_blank, last_tokens};

/// The shape every message names.
pub(crate) const EXAMPLE: &str = "expected a card line such as `4 Iono PAL 185`";

/// Lines longer than this are cut in messages, so a message never repeats a huge line.
const MAX_QUOTE: usize = 40;

/// The message for a line that is neither a card, a header, a footer, a comment nor a
/// banner, read after the first card or header: the expected shape, then the closest one.
pub(crate) fn help(line: &str) -> String {
    let quoted = quote(line);
    if let Some(label) = header_like(line) {
        return format!(
            "`{}` is not a header deckbox knows; sections are Pokémon, Trainer and Energy, \
             as in `Trainer (34)` (or `Dresseur`, `Entrenador`, `Treinador`, `Allenatore`), \
             and their parts Supporters, Items, Tools, Stadiums, Special Energy and Basic \
             Energy; write one of them, or keep the line as a comment: `// {quoted}`",
            quote(label)
        );
    }
    if let Some((count, name)) = glued_count(line) {
        return format!(
            "{EXAMPLE}; a blank must follow the count: `{count} {}`",
            quote(name)
        );
    }
    if let Some((digit, rest)) = count_word(line) {
        return format!(
            "{EXAMPLE}; write the count in digits: `{digit} {}`",
            quote(rest)
        );
    }
    if let Some((name, count)) = count_at_end(line) {
        return format!(
            "{EXAMPLE}; read `{quoted}` as `{}` copies of `{}`? write the count first: \
             `{count} {}`, or after an `x`: `{} x{count}`",
            count,
            quote(name),
            quote(name),
            quote(name)
        );
    }
    format!(
        "{EXAMPLE}; this line has no count: write how many copies first (`1 {quoted}`), or \
         keep it as a comment: `// {quoted}`"
    )
}

/// The line cut to [`MAX_QUOTE`] characters, with `…` when cut.
fn quote(s: &str) -> String {
    match s.char_indices().nth(MAX_QUOTE) {
        Some((at, _)) => format!("{}…", s.get(..at).unwrap_or_default()),
        None => s.to_owned(),
    }
}

/// The label of a line written like a section header (`Ace Specs (1)`, `Techs: 3`) but
/// whose label is not one deckbox knows.
fn header_like(line: &str) -> Option<&str> {
    let s = line.trim_matches(['*', '_', '#']).trim_matches(is_blank);
    let s = s.trim_end_matches(|c: char| c.is_ascii_digit() || is_blank(c));
    let label = s
        .strip_suffix(':')
        .or_else(|| s.strip_suffix(['-', '–', '—']))
        .or_else(|| {
            let inner = s.strip_suffix(')')?;
            let open = inner.rfind('(')?;
            let digits = inner.get(open + 1..)?.trim_matches(is_blank);
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| inner.get(..open))
                .flatten()
        })?
        .trim_matches(is_blank);
    let words = label.split(is_blank).filter(|w| !w.is_empty()).count();
    (words > 0 && words <= 3).then_some(label)
}

/// Lines longer than this (in characters) are never a title or a note.
pub(crate) const MAX_FREE_TEXT: usize = 150;

/// Whether an unread line before the first card and header may be a title or a note: short
/// text without control characters or replacement characters (binary noise read as text
/// stays a `parse-error`), and no count glued to a name (`4Iono`).
pub(crate) fn free_text(line: &str) -> bool {
    line.chars().count() <= MAX_FREE_TEXT
        && !line
            .chars()
            .any(|c| (c.is_control() && c != '\t') || c == '\u{FFFD}')
        && glued_count(line).is_none()
}

/// A count glued to the name (`4Iono`, `4xIono`): the digits and the name. Ordinals are
/// not counts: titles start with them, in every language read (`1st place`, `2nd`, `3rd`,
/// `4th`; `1er`, `1re`, `2e`, `3ème` in French; `1º`, `2ª`, `1o` in Spanish, Portuguese and
/// Italian).
pub(crate) fn glued_count(line: &str) -> Option<(&str, &str)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let (count, rest) = line.split_at(digits);
    let ordinal = ORDINAL_SUFFIXES.iter().any(|suffix| {
        rest.get(..suffix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(suffix))
            && !rest
                .get(suffix.len()..)
                .unwrap_or_default()
                .starts_with(char::is_alphanumeric)
    });
    let rest = rest.strip_prefix(['x', 'X', '×']).unwrap_or(rest);
    (digits > 0 && rest.starts_with(char::is_alphabetic) && !ordinal).then_some((count, rest))
}

/// What follows the digits of an ordinal, each followed by no letter or digit: `2e place`
/// is a title, `2Eevee` a count glued to a name.
const ORDINAL_SUFFIXES: &[&str] = &[
    "st", "nd", "rd", "th", "er", "re", "e", "ère", "ème", "eme", "nde", "º", "ª", "o", "a",
];

/// Counts written as words, in the six languages, and their digits.
const COUNT_WORDS: &[(&str, &[&str])] = &[
    (
        "1",
        &[
            "one", "un", "une", "uno", "una", "um", "uma", "ein", "eine", "eins",
        ],
    ),
    ("2", &["two", "deux", "dos", "dois", "duas", "zwei", "due"]),
    ("3", &["three", "trois", "tres", "três", "drei", "tre"]),
    (
        "4",
        &["four", "quatre", "cuatro", "quatro", "vier", "quattro"],
    ),
];

/// A count written as a word (`one Hilda WHT 84`): its digits and the rest of the line.
fn count_word(line: &str) -> Option<(&'static str, &str)> {
    let (word, rest) = line.split_once(is_blank)?;
    let word = word.to_lowercase();
    let rest = rest.trim_start_matches(is_blank);
    COUNT_WORDS
        .iter()
        .find(|(_, words)| words.contains(&word.as_str()))
        .map(|&(digit, _)| (digit, rest))
        .filter(|_| !rest.is_empty())
}

/// A line that ends in a plain number after a name (`Iono 4`, `Iono PAL 185 4`): the name
/// part and the number, which may be the count written last.
fn count_at_end(line: &str) -> Option<(&str, &str)> {
    let toks = last_tokens(line, 2);
    let &(start, end) = toks.first()?;
    toks.get(1)?;
    let number = line.get(start..end)?;
    let plain = (1..=2).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit());
    let before = toks.get(1).and_then(|&(a, b)| line.get(a..b))?;
    let name = line.get(..start)?.trim_end_matches(is_blank);
    (plain && !is_code(before)).then_some((name, number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_shapes() {
        insta::assert_snapshot!(help("Ace Specs (1)"), @"`Ace Specs` is not a header deckbox knows; sections are Pokémon, Trainer and Energy, as in `Trainer (34)` (or `Dresseur`, `Entrenador`, `Treinador`, `Allenatore`), and their parts Supporters, Items, Tools, Stadiums, Special Energy and Basic Energy; write one of them, or keep the line as a comment: `// Ace Specs (1)`");
        insta::assert_snapshot!(help("Iono PAL 185 4"), @"expected a card line such as `4 Iono PAL 185`; read `Iono PAL 185 4` as `4` copies of `Iono PAL 185`? write the count first: `4 Iono PAL 185`, or after an `x`: `Iono PAL 185 x4`");
        insta::assert_snapshot!(help("4Iono"), @"expected a card line such as `4 Iono PAL 185`; a blank must follow the count: `4 Iono`");
        assert!(glued_count("1st place Regional").is_none());
        assert!(glued_count("2024 Regional").is_none());
        insta::assert_snapshot!(help("one Hilda WHT 84"), @"expected a card line such as `4 Iono PAL 185`; write the count in digits: `1 Hilda WHT 84`");
        insta::assert_snapshot!(help("Iono"), @"expected a card line such as `4 Iono PAL 185`; this line has no count: write how many copies first (`1 Iono`), or keep it as a comment: `// Iono`");
    }
}
