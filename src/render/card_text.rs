//! What each printing of a card says, for `deckbox card`: HP, weakness, resistance,
//! retreat, abilities, attacks, the rules text of a Trainer or Energy, illustrator and
//! rarity, in one language (falling back to English).
//!
//! [`details_entry`] picks the language once; the text rendering shows each distinct text
//! once, under the printings that share it (reprints do). Nothing here prints.

use std::fmt::Write;

use serde::Serialize;

use crate::cards::model::details::{Details, Texts, TypeModifier};
use crate::cards::sources::from_tcgdex::energy_symbol;
use crate::names::lang::Language;

/// A printing's text in one language. Keys are only ever added (see the README).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DetailsEntry {
    pub hp: Option<u16>,
    /// The number of Energy symbols in the retreat cost; `null` for a Trainer or Energy.
    pub retreat: Option<u8>,
    pub weaknesses: Vec<ModifierEntry>,
    pub resistances: Vec<ModifierEntry>,
    pub abilities: Vec<AbilityEntry>,
    pub attacks: Vec<AttackEntry>,
    /// The rules text of a Trainer or Energy (or the rule lines a Pokémon prints), one
    /// paragraph per line; empty when there is none.
    pub text: String,
    pub illustrator: Option<String>,
    pub rarity: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModifierEntry {
    #[serde(rename = "type")]
    pub energy_type: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AbilityEntry {
    /// `Ability`, `Poké-Power`, `Poké-Body`, ... as printed in English.
    pub kind: String,
    pub name: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttackEntry {
    pub name: String,
    /// Energy types, one per symbol.
    pub cost: Vec<String>,
    /// As printed: `30`, `120+`, `50×`; empty when none is printed.
    pub damage: String,
    pub text: String,
}

/// `details` with every text in `lang`, else English, else any language the source has.
pub fn details_entry(details: &Details, lang: Language) -> DetailsEntry {
    let text = |texts: &Texts| texts.preferred(lang).unwrap_or("").to_string();
    let modifiers = |list: &[TypeModifier]| {
        list.iter()
            .map(|m| ModifierEntry {
                energy_type: m.energy_type.clone(),
                value: m.value.clone(),
            })
            .collect()
    };
    DetailsEntry {
        hp: details.hp,
        retreat: details.retreat,
        weaknesses: modifiers(&details.weaknesses),
        resistances: modifiers(&details.resistances),
        abilities: (details.abilities.iter())
            .map(|ability| AbilityEntry {
                kind: ability.kind.clone(),
                name: text(&ability.name),
                text: text(&ability.text),
            })
            .collect(),
        attacks: (details.attacks.iter())
            .map(|attack| AttackEntry {
                name: text(&attack.name),
                cost: attack.cost.clone(),
                damage: attack.damage.clone(),
                text: text(&attack.text),
            })
            .collect(),
        text: text(&details.effect),
        illustrator: details.illustrator.clone(),
        rarity: details.rarity.clone(),
    }
}

/// Each distinct text of the card's printings, under the printings that print it, then
/// who illustrated each printing and its rarity. `printings`: each printing's label and its
/// details, where it has them.
pub(super) fn text(out: &mut String, printings: &[(&str, &DetailsEntry)]) {
    let mut groups: Vec<(Vec<&str>, DetailsEntry)> = Vec::new();
    for &(label, details) in printings {
        let shared = DetailsEntry {
            illustrator: None,
            rarity: None,
            ..details.clone()
        };
        if shared == DetailsEntry::default() {
            continue;
        }
        match groups.iter_mut().find(|(_, text)| *text == shared) {
            Some((labels, _)) => labels.push(label),
            None => groups.push((vec![label], shared)),
        }
    }
    for (labels, details) in &groups {
        out.push('\n');
        let labels: Vec<String> = labels.iter().map(|label| glued(label)).collect();
        wrap(out, "Text of ", 8, &labels.join(", "));
        group_text(out, details);
    }
    for (label, values) in [
        (
            "Illustrators",
            by_value(printings, |d| d.illustrator.as_deref()),
        ),
        ("Rarities", by_value(printings, |d| d.rarity.as_deref())),
    ] {
        if !values.is_empty() {
            let _ = writeln!(out, "\n{label}");
            for (value, labels) in values {
                let labels: Vec<String> = labels.iter().map(|label| glued(label)).collect();
                wrap(
                    out,
                    &format!("  {}: ", visible(value)),
                    4,
                    &labels.join(", "),
                );
            }
        }
    }
}

/// The distinct values of one fact, each with the printings that have it, in the order
/// they first appear.
fn by_value<'p>(
    printings: &[(&'p str, &'p DetailsEntry)],
    fact: impl Fn(&'p DetailsEntry) -> Option<&'p str>,
) -> Vec<(&'p str, Vec<&'p str>)> {
    let mut values: Vec<(&str, Vec<&str>)> = Vec::new();
    for &(label, details) in printings {
        let Some(value) = fact(details) else {
            continue;
        };
        match values.iter_mut().find(|(known, _)| *known == value) {
            Some((_, labels)) => labels.push(label),
            None => values.push((value, vec![label])),
        }
    }
    values
}

fn group_text(out: &mut String, details: &DetailsEntry) {
    let stats = stats_line(details);
    if !stats.is_empty() {
        wrap(out, "  ", 4, &stats);
    }
    for ability in &details.abilities {
        let kind = visible(&ability.kind);
        match ability.name.as_str() {
            "" => wrap(out, "  ", 4, &format!("{kind}:")),
            name => wrap(out, "  ", 4, &format!("{kind}: {}", visible(name))),
        }
        paragraphs(out, &ability.text);
    }
    for attack in &details.attacks {
        let cost: String = attack.cost.iter().map(|kind| energy_symbol(kind)).collect();
        let mut line = format!("[{}] {}", visible(&cost), visible(&attack.name));
        if !attack.damage.is_empty() {
            let _ = write!(line, "  {}", visible(&attack.damage));
        }
        wrap(out, "  ", 4, &line);
        paragraphs(out, &attack.text);
    }
    for paragraph in details.text.lines().filter(|line| !line.trim().is_empty()) {
        wrap(out, "  ", 2, &visible(paragraph));
    }
}

/// A text indented under its ability or attack, a paragraph per line.
fn paragraphs(out: &mut String, text: &str) {
    for paragraph in text.lines().filter(|line| !line.trim().is_empty()) {
        wrap(out, "      ", 6, &visible(paragraph));
    }
}

/// `HP 70 · weakness Grass ×2 · resistance Fighting -30 · retreat 1`; empty for a card
/// that prints none of these.
fn stats_line(details: &DetailsEntry) -> String {
    let mut parts = Vec::new();
    if let Some(hp) = details.hp {
        parts.push(format!("HP{}{hp}", GLUE));
    }
    for (label, list) in [
        ("weakness", &details.weaknesses),
        ("resistance", &details.resistances),
    ] {
        for modifier in list {
            let words = [label, &modifier.energy_type, &modifier.value];
            let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
            parts.push(glued(&words.join(" ")));
        }
    }
    if let Some(retreat) = details.retreat {
        parts.push(format!("retreat{}{retreat}", GLUE));
    }
    parts.join(" · ")
}

pub(super) use crate::util::escape::visible_line as visible;

/// Width the text rendering fits in.
pub(super) const WIDTH: usize = 80;

/// Joins the words of a printing label (`TWM 128`) or a name so that [`wrap`] never breaks
/// it. The unit separator cannot come from card data: [`visible`] escapes control
/// characters.
pub(super) const GLUE: char = '\u{1F}';

pub(super) fn glued(label: &str) -> String {
    visible(label).replace(' ', &GLUE.to_string())
}

/// Writes `text` after `prefix`, wrapped at [`WIDTH`] on spaces (not on [`GLUE`], written
/// as a space), continuation lines indented by `indent` columns. A word longer than a line
/// is left whole.
pub(super) fn wrap(out: &mut String, prefix: &str, indent: usize, text: &str) {
    let mut line = prefix.to_string();
    let mut used = prefix.chars().count();
    let mut empty = true;
    for word in text.split(' ') {
        let length = word.chars().count();
        if !empty && used + 1 + length > WIDTH {
            let _ = writeln!(out, "{}", line.trim_end());
            line = " ".repeat(indent);
            used = indent;
            empty = true;
        }
        if !empty {
            line.push(' ');
            used += 1;
        }
        line.extend(word.chars().map(|c| if c == GLUE { ' ' } else { c }));
        used += length;
        empty = false;
    }
    let _ = writeln!(out, "{}", line.trim_end());
}
