//! What a printing says beyond what the construction rules need: HP, weakness, resistance,
//! retreat cost, attacks, abilities, the rules text of Trainers and Energy, illustrator and
//! rarity, with every text in each language the source gives it.
//!
//! `check` never reads these facts: they are what `search` filters on and what `card`
//! shows, kept apart from [`super::Printing`] so that opening the database for a check does
//! not pay for them. This module must not know about deck lists or rules.

use serde::{Deserialize, Serialize};

use crate::names::lang::Language;

/// One text in each language the source gives it (index: [`Language::index`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts(pub [Option<String>; 6]);

impl Texts {
    pub fn get(&self, lang: Language) -> Option<&str> {
        self.0[lang.index()].as_deref()
    }

    /// The text in `lang`, else in English, else the first language that has it.
    pub fn preferred(&self, lang: Language) -> Option<&str> {
        self.get(lang)
            .or_else(|| self.get(Language::En))
            .or_else(|| self.iter().next().map(|(_, text)| text))
    }

    /// Every `(language, text)` present.
    pub fn iter(&self) -> impl Iterator<Item = (Language, &str)> {
        Language::ALL
            .into_iter()
            .filter_map(|lang| self.get(lang).map(|text| (lang, text)))
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

/// A weakness or resistance: the Energy type (in English, as [`super::Printing::types`])
/// and the modifier as printed (`×2`, `+20`, `-30`), empty when the card prints none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeModifier {
    pub energy_type: String,
    pub value: String,
}

/// An attack: its name, its cost (Energy types in English, one entry per symbol,
/// `Colorless` included; empty for a free attack), its damage as printed (`30`, `120+`,
/// `50×`, empty when it prints none) and its text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub name: Texts,
    pub cost: Vec<String>,
    pub damage: String,
    pub text: Texts,
}

impl Attack {
    /// The printed damage's number (`120+` → 120, `50×` → 50), when it prints one.
    pub fn base_damage(&self) -> Option<u32> {
        let digits: String = self
            .damage
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    }
}

/// An ability and the older powers that play its part: its kind as printed in English
/// (`Ability`, `Poké-Power`, `Poké-Body`, `Pokémon Power`, `Ancient Trait`, `VSTAR Power`),
/// its name and its text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    pub kind: String,
    pub name: Texts,
    pub text: Texts,
}

/// The facts of one printing that only search and display need. Every field is empty when
/// the source does not give it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    pub hp: Option<u16>,
    /// The number of Energy symbols in the retreat cost.
    pub retreat: Option<u8>,
    pub weaknesses: Vec<TypeModifier>,
    pub resistances: Vec<TypeModifier>,
    pub abilities: Vec<Ability>,
    pub attacks: Vec<Attack>,
    /// The rules text of a Trainer or special Energy, and the rule lines a Pokémon prints
    /// (Rule Box, LV.X, BREAK), one paragraph per line.
    pub effect: Texts,
    pub illustrator: Option<String>,
    /// The rarity in English, as the source names it (`Common`, `Double rare`, `ACE SPEC Rare`).
    pub rarity: Option<String>,
}

/// A text as a source gives it, ready to keep: trimmed, line breaks as `\n`, and no other
/// control character (a card database from elsewhere, `--cards`, must not put escape
/// sequences into what `card` prints).
pub fn clean_text(raw: &str) -> String {
    let raw = raw.trim();
    if !raw.contains(char::is_control) {
        return raw.to_string();
    }
    raw.replace("\r\n", "\n")
        .chars()
        .filter(|&c| c == '\n' || !c.is_control())
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_keeps_line_breaks_only() {
        assert_eq!(clean_text("  Draw 3 cards. "), "Draw 3 cards.");
        assert_eq!(clean_text("a\r\nb\u{1b}[31m\t"), "a\nb[31m");
    }

    #[test]
    fn base_damage_reads_the_printed_number() {
        let attack = |damage: &str| Attack {
            damage: damage.into(),
            ..Attack::default()
        };
        assert_eq!(attack("120+").base_damage(), Some(120));
        assert_eq!(attack("50×").base_damage(), Some(50));
        assert_eq!(attack("30").base_damage(), Some(30));
        assert_eq!(attack("").base_damage(), None);
    }

    #[test]
    fn preferred_falls_back_to_english_then_any() {
        let mut texts = Texts::default();
        texts.0[Language::De.index()] = Some("Biss".into());
        assert_eq!(texts.preferred(Language::Fr), Some("Biss"));
        texts.0[Language::En.index()] = Some("Bite".into());
        assert_eq!(texts.preferred(Language::Fr), Some("Bite"));
        assert_eq!(texts.preferred(Language::De), Some("Biss"));
    }
}
