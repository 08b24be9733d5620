//! Whether a deck line's note spells a name printed on a card: an attack's or an ability's,
//! in any of the six languages (`1 Marshadow (Reset Hole)`: Unbroken Bonds' Marshadow,
//! whose ability is Resetting Hole). Players tell apart two cards of one name by a move
//! they have, often shortened or misspelt, so the rule is loose on letters and strict on
//! words:
//! - the note's words are folded as names are ([`super::fold`]), and its counts left out
//!   (`x2`, `2x`, `4`); what remains is compared with the name's words, in order, one for
//!   one: the note must have as many words as the name;
//! - a note's word matches the name's word when it begins it with at least
//!   [`MIN_PREFIX_LETTERS`] letters (`reset` for `Resetting`), or when the two are one slip
//!   apart (a letter added, dropped or changed, or two neighbours swapped), both of at
//!   least [`MIN_SLIP_LETTERS`] letters (`Schlucklch` for `Schluckloch`);
//! - a note with no word left (`(4)`) spells nothing.
//!
//! Which card that chooses is the card database's to say (`check::identify`).

/// The fewest letters a note's word may have to count as the start of a longer word.
pub const MIN_PREFIX_LETTERS: usize = 3;

/// The fewest letters both words must have for one slip between them to be a slip.
pub const MIN_SLIP_LETTERS: usize = 5;

/// The most words a note may have to spell a name: moves have few words.
pub const MAX_NOTE_WORDS: usize = 6;

/// The words of a note that may spell a name: folded, counts left out. Empty when the note
/// has more than [`MAX_NOTE_WORDS`] words.
pub fn note_words(note: &str) -> Vec<String> {
    let folded = super::fold(note);
    let words: Vec<String> = (folded.split(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty() && !is_count(word))
        .map(str::to_string)
        .collect();
    if words.len() > MAX_NOTE_WORDS {
        return Vec::new();
    }
    words
}

/// `4`, `x2`, `2x`: a count, not a word.
fn is_count(word: &str) -> bool {
    let digits = word
        .strip_prefix('x')
        .or_else(|| word.strip_suffix('x'))
        .unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether the note words `note` (from [`note_words`]) spell `name`, a name printed on a
/// card (see the module's rule).
pub fn spells(note: &[String], name: &str) -> bool {
    let folded = super::fold(name);
    let words: Vec<&str> = (folded.split(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
        .collect();
    !note.is_empty()
        && note.len() == words.len()
        && (note.iter().zip(&words)).all(|(written, printed)| word_matches(written, printed))
}

/// One word of a note against one word of a name.
fn word_matches(written: &str, printed: &str) -> bool {
    let letters = |word: &str| word.chars().count();
    if written == printed {
        return true;
    }
    if letters(written) >= MIN_PREFIX_LETTERS && printed.starts_with(written) {
        return true;
    }
    letters(written) >= MIN_SLIP_LETTERS
        && letters(printed) >= MIN_SLIP_LETTERS
        && strsim::osa_distance(written, printed) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelt(note: &str, name: &str) -> bool {
        spells(&note_words(note), name)
    }

    /// Notes as players write them, in the six languages, against the move they name as
    /// TCGdex prints it in that language: shortened (`Reset Hole`, pokemoncardjp.com.au's
    /// 2019 Chiba report), misspelt, with a count beside them (PokéGym's 2008 `Leafeon x2
    /// (Leaf Guard One)` writes its count outside the note).
    #[test]
    fn a_note_spells_a_move_word_for_word() {
        for (note, name) in [
            ("Reset Hole", "Resetting Hole"),
            ("Energy Press", "Energy Press"),
            ("energy pres", "Energy Press"),
            ("Fright Night", "Fright Night"),
            ("x2 Frigth Night", "Fright Night"),
            // The same ability in French, Spanish, Italian, German and Portuguese, as
            // `deckbox card Marshadow UNB 81 --lang LANG` prints it.
            ("Trou de Réinit", "Trou de Réinitialisation"),
            ("agujero reinicio", "Agujero Reinicio"),
            ("Vuoto Azzer", "Vuoto Azzerante"),
            ("Schlucklch", "Schluckloch"),
            ("Buraco de Recomposicao", "Buraco de Recomposição"),
        ] {
            assert!(spelt(note, name), "{note} / {name}");
        }
        for (note, name) in [
            // A word too short to start one, a word more or fewer, another word.
            ("Re Hole", "Resetting Hole"),
            ("Leaf Guard One", "Leaf Guard"),
            ("Hole", "Resetting Hole"),
            ("baby", "Fright Night"),
            ("CFF", "Collect"),
            ("4", "Collect"),
            ("Resetting Hole please", "Resetting Hole"),
            ("Trou Réinit", "Trou de Réinitialisation"),
            // One slip in a short word is another word.
            ("Bite", "Kite"),
        ] {
            assert!(!spelt(note, name), "{note} / {name}");
        }
        assert!(note_words("a b c d e f g").is_empty());
    }
}
