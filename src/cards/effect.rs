//! The effect fingerprint: what the reprint rule compares, without keeping the text.
//!
//! Two printings are the same card for the reprint rule (Play! Pokémon Tournament Rules
//! 5.4.1.3) when, among other facts, their rules text says the same thing. [`text_key`]
//! reduces a rules text to what plays: cosmetic differences between printings of the same
//! card (typography, case, the card calling itself by name, reworded templates) are
//! normalized away, anything else is kept, so a false "identical" stays rare. The card
//! index keeps only [`fingerprint`] of that key (the text itself is never stored), and
//! every loader computes it the same way through [`super::Printing::set_rules_text`].
//! This module must not decide legality: [`crate::format`] compares fingerprints.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::Category;

/// What stands for the card's own name in a [`text_key`]: older cards name themselves
/// where newer ones say "this Pokémon".
const SELF: &str = "this pokemon";

/// Wordings the cards changed without changing what the card does (`then, shuffle your
/// deck` replaced `shuffle your deck afterward` in Sun & Moon; Mega Evolution rewrote
/// gusting as `switch in ... to the active spot`), folded to the newer one. Applied after
/// [`fold`], in order.
const TEMPLATES: &[(&str, &str)] = &[
    ("shuffle your deck afterward", "then, shuffle your deck"),
    ("show it to your opponent", "reveal it"),
    ("show them to your opponent", "reveal them"),
    (
        "switch 1 of your opponent's benched pokemon with their active pokemon",
        "switch in 1 of your opponent's benched pokemon to the active spot",
    ),
];

/// Energy symbols some texts spell `{C}` and others `Colorless`.
const SYMBOLS: &[(&str, &str)] = &[
    ("{g}", "grass"),
    ("{r}", "fire"),
    ("{w}", "water"),
    ("{l}", "lightning"),
    ("{p}", "psychic"),
    ("{f}", "fighting"),
    ("{d}", "darkness"),
    ("{m}", "metal"),
    ("{y}", "fairy"),
    ("{n}", "dragon"),
    ("{c}", "colorless"),
];

/// The functionally relevant text of a printing: its rules `text` folded (`fold`), the
/// card's own name (`rules_name`, for a Pokémon) replaced by "this pokemon", symbols and
/// known rewordings unified, then cut into sentences (at line breaks and periods, so
/// `hand.\nSearch` and `hand. Search` agree, as does a period left off at the end) joined
/// by `. `.
pub fn text_key(rules_name: &str, category: Category, text: &str) -> String {
    let own_name = fold(rules_name);
    // A period inside parentheses, `(... Pokémon.)`, would leave a sentence `)`.
    let text = text.replace(".)", ")");
    let mut text = fold(&text.replace('\n', " \u{1} "));
    for (from, to) in SYMBOLS.iter().chain(TEMPLATES) {
        text = text.replace(from, to);
    }
    // Only a Pokémon calls itself by name; a Trainer named `Switch` says "switch".
    if category == Category::Pokemon && !own_name.is_empty() {
        text = replace_word(&text, &own_name, SELF);
    }
    let sentences: Vec<&str> = text
        .split(['.', '\u{1}'])
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
        .collect();
    sentences.join(". ")
}

/// Compatibility-normalized, accents and case removed, typography unified, whitespace
/// collapsed. Accents go because sources spell `Pokémon`, `Pokemon` and `Poké-Power`
/// either way; NFKD also unifies full-width `＋` and `×` with their ASCII forms' meaning.
pub(crate) fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfkd().filter(|c| !is_combining_mark(*c)) {
        let c = match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' | '`' | '\u{00B4}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => '"',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{00D7}' => 'x',
            c => c,
        };
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// `text` with every whole-word occurrence of `word` replaced by `with`.
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let is_word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let (before, after) = rest.split_at(at);
        let tail = after.get(word.len()..).unwrap_or("");
        out.push_str(before);
        let bounded = !is_word(out.chars().next_back()) && !is_word(tail.chars().next());
        out.push_str(if bounded { with } else { word });
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// A stable 64-bit fingerprint of a [`text_key`] (FNV-1a: the same on every platform and
/// Rust version, which the committed card index needs; `DefaultHasher` promises neither).
pub fn fingerprint(key: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    key.bytes().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

/// Whether a rules text prints "you may have as many of this card in your deck as you
/// like" (Arceus, some Trainers): such a card is exempt from the copy limit.
pub fn allows_any_number(text: &str) -> bool {
    // An ASCII case-insensitive search: lowercasing the whole text for every card was a
    // tenth of a repository check when this ran per deck.
    const TEXT: &[u8] = b"as many of this card in your deck as you like";
    text.as_bytes()
        .windows(TEXT.len())
        .any(|window| window.eq_ignore_ascii_case(TEXT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(
            text_key(
                "Pikachu",
                Category::Pokemon,
                "[L] Nap: Heal 10 from Pikachu.\nHP 60 · weakness Fighting ×2"
            ),
            "[l] nap: heal 10 from this pokemon. hp 60 · weakness fighting x2"
        );
        assert_eq!(
            replace_word("pikachu's pikachus pikachu", "pikachu", "X"),
            "X's pikachus X"
        );
    }

    #[test]
    fn fingerprints_are_fnv1a() {
        // Published FNV-1a 64 test vectors: the committed index depends on these values.
        assert_eq!(fingerprint(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fingerprint("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fingerprint("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn any_number() {
        assert!(allows_any_number(
            "You may have as many of this card in your deck as you like."
        ));
        assert!(!allows_any_number("Search your deck for a card."));
    }
}
