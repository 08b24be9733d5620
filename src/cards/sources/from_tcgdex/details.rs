//! What a TCGdex card record says beyond the rules' facts ([`Details`]): HP, weakness,
//! resistance, retreat, abilities, attacks, the Trainer and Energy text, illustrator and
//! rarity, every text in each of deckbox's six languages the record gives.
//!
//! Flavour text (`description`) is left out: no search or display asks for it. This
//! module maps the dataset's vocabulary onto [`Details`] and must not decide anything
//! about rules or deck lists.

use super::literal::Value;
use super::scalar;
use crate::cards::model::details::{Ability, Attack, Details, Texts, TypeModifier, clean_text};
use crate::names::lang::Language;

/// The details of one card record.
pub fn card_details(card: &Value) -> Details {
    let is_pokemon = matches!(
        card.get("category").and_then(Value::as_str),
        Some("Pokemon" | "Pokémon")
    );
    let mut abilities: Vec<Ability> = list(card, "abilities").iter().map(ability).collect();
    // A few Diamond & Pearl Pokémon hold an item with its own name and text.
    if let Some(item) = card.get("item") {
        abilities.push(Ability {
            kind: "Item".into(),
            name: texts(item.get("name")),
            text: texts(item.get("effect")),
        });
    }
    Details {
        // 45 Trainer and Energy records carry `hp: 0`; no card prints an HP of 0.
        hp: card
            .get("hp")
            .and_then(number)
            .and_then(|hp| u16::try_from(hp).ok())
            .filter(|&hp| hp > 0),
        // Like pokemon-tcg-data, TCGdex leaves a free retreat out (Jungle's Butterfree).
        retreat: is_pokemon.then(|| {
            card.get("retreat")
                .and_then(number)
                .and_then(|n| u8::try_from(n).ok())
                .unwrap_or(0)
        }),
        weaknesses: modifiers(card, "weaknesses"),
        resistances: modifiers(card, "resistances"),
        abilities,
        attacks: list(card, "attacks").iter().map(attack).collect(),
        effect: texts(card.get("effect")),
        illustrator: plain(card.get("illustrator")),
        rarity: plain(card.get("rarity")).filter(|rarity| rarity != "None"),
    }
}

/// A `{ en: ..., fr: ... }` field in deckbox's six languages; a regional variant
/// (`es-mx`, `pt-br`) only fills a gap. Empty texts are absent.
pub fn texts(field: Option<&Value>) -> Texts {
    let mut texts = Texts::default();
    let Some(field) = field else {
        return texts;
    };
    for exact in [true, false] {
        for (code, value) in field.fields() {
            let (Some(lang), Some(text)) = (Language::from_code(code), value.as_str()) else {
                continue;
            };
            let text = clean_text(text);
            let is_exact = code.eq_ignore_ascii_case(lang.code());
            let slot = &mut texts.0[lang.index()];
            if is_exact == exact && !text.is_empty() && slot.is_none() {
                *slot = Some(text);
            }
        }
    }
    texts
}

fn list<'v>(card: &'v Value, key: &str) -> &'v [Value] {
    card.get(key).map(Value::as_array).unwrap_or(&[])
}

/// A whole number, written as a number or a string (`70`, `"70"`).
fn number(value: &Value) -> Option<u64> {
    let text = scalar(value);
    text.parse::<u64>().ok()
}

fn plain(value: Option<&Value>) -> Option<String> {
    let text = clean_text(value?.as_str()?);
    (!text.is_empty()).then_some(text)
}

fn modifiers(card: &Value, key: &str) -> Vec<TypeModifier> {
    list(card, key)
        .iter()
        .map(|item| TypeModifier {
            energy_type: plain(item.get("type")).unwrap_or_default(),
            value: item
                .get("value")
                .map(|value| clean_text(&scalar(value)))
                .unwrap_or_default(),
        })
        .collect()
}

fn ability(item: &Value) -> Ability {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
    Ability {
        kind: ability_kind(kind),
        name: texts(item.get("name")),
        text: texts(item.get("effect")),
    }
}

/// TCGdex writes the older powers without accents or in capitals (`Poke-POWER`,
/// `Pokemon Power`); the cards print `Poké-Power`, `Pokémon Power`.
fn ability_kind(raw: &str) -> String {
    let key: String = raw
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match key.as_str() {
        "pokepower" => "Poké-Power".into(),
        "pokebody" => "Poké-Body".into(),
        "pokemonpower" => "Pokémon Power".into(),
        "ability" => "Ability".into(),
        "ancienttrait" => "Ancient Trait".into(),
        _ => clean_text(raw),
    }
}

fn attack(item: &Value) -> Attack {
    Attack {
        name: texts(item.get("name")),
        cost: list(item, "cost")
            .iter()
            .filter_map(Value::as_str)
            .map(clean_text)
            // `Free` is TCGdex's word for an attack that costs nothing.
            .filter(|kind| !kind.is_empty() && kind != "Free")
            .collect(),
        damage: item
            .get("damage")
            .map(|damage| clean_text(&scalar(damage)))
            .unwrap_or_default(),
        text: texts(item.get("effect")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::literal::parse_module;
    use super::*;

    fn details(text: &str) -> Details {
        card_details(&parse_module(text).unwrap())
    }

    /// Shaped like `Scarlet & Violet/Twilight Masquerade/128.ts`.
    #[test]
    fn a_current_pokemon() {
        let dreepy = details(
            r#"import { Card } from "../../../interfaces"
import Set from "../Twilight Masquerade"

const card: Card = {
	dexId: [885],
	set: Set,
	name: { en: "Dreepy", fr: "Fantyrm", de: "Grolldra" },
	rarity: "Common",
	category: "Pokemon",
	hp: 70,
	types: ["Dragon"],
	stage: "Basic",
	attacks: [{
		cost: ["Psychic"],
		name: { en: "Petty Grudge", fr: "Rancune Mesquine", de: "Mini-Groll" },
		damage: 10
	}, {
		cost: ["Fire", "Psychic"],
		name: { en: "Bite", fr: "Morsure" },
		damage: 40
	}],
	retreat: 1,
	regulationMark: "H",
	description: { en: "It has a habit of biting at Clauncher." },
	variants: [{ type: "normal" }],
	illustrator: "Scav",
}

export default card
"#,
        );
        assert_eq!(dreepy.hp, Some(70));
        assert_eq!(dreepy.retreat, Some(1));
        assert_eq!(dreepy.illustrator.as_deref(), Some("Scav"));
        assert_eq!(dreepy.rarity.as_deref(), Some("Common"));
        let [grudge, bite] = dreepy.attacks.as_slice() else {
            panic!("two attacks: {:?}", dreepy.attacks)
        };
        assert_eq!(grudge.name.get(Language::Fr), Some("Rancune Mesquine"));
        assert_eq!(grudge.cost, ["Psychic"]);
        assert_eq!(grudge.damage, "10");
        assert_eq!(bite.cost, ["Fire", "Psychic"]);
        assert_eq!(bite.base_damage(), Some(40));
        assert_eq!(bite.name.get(Language::De), None);
        assert!(dreepy.effect.is_empty() && dreepy.abilities.is_empty());
    }

    /// Shaped like the Diamond & Pearl era records: Poké-Powers and Poké-Bodies, string
    /// damage, weakness and resistance values, a held item, single quotes.
    #[test]
    fn an_older_pokemon_with_powers() {
        let card = details(
            r#"const card: Card = {
	name: { en: "Gardevoir", fr: "Gardevoir" },
	illustrator: "Kagemaru Himeno",
	rarity: "Rare",
	category: "Pokemon",
	hp: 110,
	types: ["Psychic"],
	stage: "Stage2",
	abilities: [{
		type: "Poke-POWER",
		name: { en: "Telepass", fr: 'Télépasse' },
		effect: { en: "Once during your turn, you may search your opponent's discard pile." }
	}, { type: "Poke-BODY", name: { en: "Psychic Guard" }, effect: { en: "Prevent all effects." } }],
	item: { name: { fr: "Pierre Lune" }, effect: { fr: "Il peut évoluer." } },
	attacks: [{
		cost: ["Psychic", "Colorless"],
		name: { en: "Psychic Lock" },
		effect: { en: "Flip 2 coins. This attack does 10 damage times the number of heads." },
		damage: "50×",
	}, { cost: ["Free"], name: { en: "Call" } }],
	weaknesses: [{ type: "Psychic", value: "+30" }],
	resistances: [{ type: "Fighting", value: "-20" }],
	retreat: 2,
}"#,
        );
        let kinds: Vec<&str> = card.abilities.iter().map(|a| a.kind.as_str()).collect();
        assert_eq!(kinds, ["Poké-Power", "Poké-Body", "Item"]);
        assert_eq!(card.abilities[0].name.get(Language::Fr), Some("Télépasse"));
        assert_eq!(
            card.abilities[2].text.preferred(Language::En),
            Some("Il peut évoluer.")
        );
        assert_eq!(card.attacks[0].damage, "50×");
        assert_eq!(card.attacks[0].base_damage(), Some(50));
        assert!(card.attacks[1].cost.is_empty() && card.attacks[1].damage.is_empty());
        let modifier = |t: &str, v: &str| TypeModifier {
            energy_type: t.into(),
            value: v.into(),
        };
        assert_eq!(card.weaknesses, [modifier("Psychic", "+30")]);
        assert_eq!(card.resistances, [modifier("Fighting", "-20")]);
        assert_eq!(card.retreat, Some(2));
    }

    #[test]
    fn a_trainer_and_an_energy() {
        let trainer = details(
            r#"const card: Card = {
	name: { en: "Boss's Orders", fr: "Ordres du Boss" },
	illustrator: "Hitoshi Ariga",
	rarity: "Uncommon",
	category: "Trainer",
	hp: 0,
	effect: {
		en: "Switch in 1 of your opponent's Benched Pokémon to the Active Spot.\u0007",
		"es-mx": "Cambia 1 Pokémon.",
		fr: "Échangez l'un des Pokémon de Banc de votre adversaire."
	},
	trainerType: "Supporter",
}"#,
        );
        assert_eq!(trainer.hp, None);
        assert_eq!(trainer.retreat, None);
        assert_eq!(
            trainer.effect.get(Language::En),
            Some("Switch in 1 of your opponent's Benched Pokémon to the Active Spot.")
        );
        assert_eq!(trainer.effect.get(Language::Es), Some("Cambia 1 Pokémon."));
        assert!(
            trainer
                .effect
                .get(Language::Fr)
                .is_some_and(|t| t.starts_with("Échangez"))
        );
        let energy = details(
            r#"const c = { name: { en: "Water Energy" }, category: "Energy", rarity: "None" }"#,
        );
        assert_eq!(energy, Details::default());
        let free =
            details(r#"const c = { name: { en: "Butterfree" }, category: "Pokemon", hp: "70" }"#);
        assert_eq!((free.hp, free.retreat), (Some(70), Some(0)));
    }
}
