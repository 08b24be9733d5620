//! Character-level clean-up shared by every name function: Unicode variants that mean the
//! same printed character ([`clean`]) and the lossy folding used for keys ([`fold_into`]).
//!
//! This module knows nothing about card names: no words, no suffixes, only characters.

use std::borrow::Cow;

use unicode_normalization::char::{decompose_canonical, is_combining_mark};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// One printed character written several ways: NFC, one apostrophe, one hyphen, no
/// zero-width characters, single spaces, trimmed. Lossless for what a reader sees.
pub(super) fn clean(s: &str) -> Cow<'_, str> {
    match is_clean_ascii(s) {
        true => Cow::Borrowed(s),
        false => Cow::Owned(clean_chars(s)),
    }
}

/// [`clean`], character by character.
fn clean_chars(s: &str) -> String {
    // NFC first, so a character whose canonical form is one of the variants below (Greek
    // varia U+1FEF is a backtick) is mapped like it; and again at the end, because
    // dropping a zero-width character can bring a letter and its accent together.
    let s = nfc(s);
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for ch in s.chars() {
        let ch = match ch {
            // Zero-width space, joiners, word joiner and BOM: invisible, so never meant.
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => continue,
            // Curly quotes, modifier letter apostrophe, backtick, acute accent and prime
            // all stand for the apostrophe of "Boss's Orders" in real deck lists.
            '\u{2019}' | '\u{2018}' | '\u{02BC}' | '`' | '\u{00B4}' | '\u{2032}' => '\'',
            // Hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus sign.
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            c if c.is_whitespace() => {
                pending_space = !out.is_empty();
                continue;
            }
            c => c,
        };
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.push(ch);
    }
    // Decomposed accents (e + U+0301) must compare equal to precomposed ones.
    if is_nfc_quick(out.chars()) == IsNormalized::Yes {
        out
    } else {
        out.nfc().collect()
    }
}

/// Whether [`clean`] leaves `s` as it is: printable ASCII other than the backtick, words
/// one space apart, no space at either end (most names as written, every name as printed
/// in English).
fn is_clean_ascii(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.first() != Some(&b' ')
        && bytes.last() != Some(&b' ')
        && bytes
            .iter()
            .all(|&b| (b.is_ascii_graphic() && b != b'`') || b == b' ')
        && !bytes.windows(2).any(|pair| pair == b"  ")
}

/// `s` in NFC; the quick check keeps the common already-NFC case allocation-free.
fn nfc(s: &str) -> Cow<'_, str> {
    if is_nfc_quick(s.chars()) == IsNormalized::Yes {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.nfc().collect())
    }
}

/// Appends the folded form of `s` to `out`: lower case, accents removed, `'` `.` and
/// quotes dropped or spaced, `-` `_` `,` `:` `;` `/` and brackets turned into spaces,
/// runs of spaces collapsed. Other symbols (`&`, `♀`, `◇`, `★`, `δ`, `!`, `?`) are kept
/// because they tell cards apart (`Nidoran♀`, `Unown [!]` and `Unown [?]`).
pub(super) fn fold_into(out: &mut String, s: &str) {
    for ch in s.chars() {
        if ch.is_ascii() {
            push_folded(out, ch.to_ascii_lowercase());
        } else {
            decompose_canonical(ch, |part| {
                if !is_combining_mark(part) {
                    for lower in part.to_lowercase() {
                        push_folded(out, lower);
                    }
                }
            });
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
}

/// Pushes one already lower-cased, accent-free character, applying the punctuation rules.
fn push_folded(out: &mut String, ch: char) {
    match ch {
        // Dropped: "Boss's" = "Bosss", "Hôtel « Au paradis »" = "Hôtel Au paradis".
        '\'' | '"' | '«' | '»' | '¡' | '¿' => {}
        // Word separators: "Mr.Mime" = "Mr. Mime" = "Mr Mime", "Porygon-Z" = "Porygon Z".
        '.' | '-' | '_' | ',' | ':' | ';' | '/' | '(' | ')' | '[' | ']' | '{' | '}' => {
            push_space(out)
        }
        c if c.is_whitespace() => push_space(out),
        'ß' => out.push_str("ss"),
        'æ' => out.push_str("ae"),
        'œ' => out.push_str("oe"),
        'ø' => out.push('o'),
        c => out.push(c),
    }
}

fn push_space(out: &mut String) {
    if !out.is_empty() && !out.ends_with(' ') {
        out.push(' ');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ASCII shortcut of `clean` gives what the character walk gives, on every name the
    /// embedded index prints and on hand-typed spellings around the shortcut's edges.
    #[test]
    fn the_ascii_shortcut_cleans_as_the_character_walk() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let printed = db
            .iter()
            .flat_map(|(_, p)| p.names.iter().map(|(_, n)| n.to_string()));
        let typed = [
            "Boss's Orders",
            "Boss`s Orders",
            "Boss’s Orders",
            " Iono",
            "Iono ",
            "Rare  Candy",
            "Rare\tCandy",
            "Mr. Mime",
            "Porygon-Z",
            "",
            " ",
            "Pokégear 3.0",
            "N",
        ];
        let mut shortcut = 0;
        for name in printed.chain(typed.iter().map(|s| s.to_string())) {
            if is_clean_ascii(&name) {
                shortcut += 1;
            }
            assert_eq!(clean(&name), clean_chars(&name), "{name:?}");
        }
        assert!(shortcut > 10_000, "{shortcut} names took the shortcut");
    }
}
