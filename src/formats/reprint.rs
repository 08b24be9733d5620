//! The reprint rule's comparison (Play! Pokémon Tournament Rules 5.4.1.3): is an older
//! printing functionally identical to a newer one?
//!
//! The rules text is compared through its effect fingerprint ([`crate::cards::model::effect`]):
//! cosmetic differences between printings of the same card are normalized away before the
//! fingerprint is taken, anything else is kept, so a false "identical" stays rare. This
//! module only compares two printings; which printings are legal is [`super::legality`]'s
//! job.

use crate::cards::Printing;
use crate::cards::model::twin::is_basic_energy;
pub use crate::cards::model::twin::{Difference, Fingerprint};

/// Whether `a` and `b` are the same card for the reprint rule: same name, same kind of
/// card, same stage and evolution, and the same effect fingerprint
/// ([`crate::cards::model::effect`]). A printing without rules text (a source gap) is never
/// identical to anything, except that two basic Energy of the same name are.
/// [`differences`] says which of these facts differ.
pub fn functionally_identical(a: &Printing, b: &Printing) -> bool {
    if a.rules_key() != b.rules_key() || a.category != b.category {
        return false;
    }
    if is_basic_energy(a) && is_basic_energy(b) {
        return true;
    }
    match (a.effect, b.effect) {
        (Some(a_effect), Some(b_effect)) => {
            a_effect == b_effect && Fingerprint::of(a).same_kind(&Fingerprint::of(b))
        }
        _ => false,
    }
}

/// Whether the reprint rule cannot decide between `a` and `b` for want of data: every
/// fact but the text agrees, and one of them (or both) has no rules text in the card data
/// (Switch SLG 67 before its fingerprint was repaired). Such a pair is not
/// [`functionally_identical`], and no other fact says it differs.
pub fn undecided(a: &Printing, b: &Printing) -> bool {
    differences(a, b) == [Difference::MissingText]
}

/// What the reprint rule compares between `a` and `b`, fact by fact: every fact that
/// differs, in the order [`Difference`] lists them; empty exactly when
/// [`functionally_identical`] holds. For explaining a verdict, so it may allocate.
pub fn differences(a: &Printing, b: &Printing) -> Vec<Difference> {
    Fingerprint::of(a).differences(&Fingerprint::of(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::model::effect::text_key;
    use crate::cards::{Category, EnergyKind, Names, Stage, TrainerKind};
    use crate::names::lang::Language;

    fn card(name: &str, category: Category, text: &str) -> Printing {
        let mut names = Names::default();
        names.set(Language::En, name);
        let mut printing = Printing::new("SVI", "1", category);
        printing.names = names;
        printing.series = "sv".into();
        printing.stage = (category == Category::Pokemon).then_some(Stage::Basic);
        printing.trainer = (category == Category::Trainer).then_some(TrainerKind::Item);
        printing.energy = (category == Category::Energy).then_some(EnergyKind::Special);
        printing.set_rules_text(text);
        printing
    }

    const T: Category = Category::Trainer;
    const P: Category = Category::Pokemon;

    /// `(name, category, text a, text b, identical)`, one case per line.
    const CASES: &[(&str, Category, &str, &str, bool)] = &[
        (
            "Ultra Ball",
            T,
            "Discard 2 cards.\n\nSearch your deck.",
            "Discard 2 cards. Search your deck.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "Search your deck",
            "search  your\tdeck.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "Your opponent’s Pokémon",
            "Your opponent's Pokemon",
            true,
        ),
        ("Ultra Ball", T, "a \u{2013} b", "a - b", true),
        ("Ultra Ball", T, "Pok\u{65}\u{301}mon", "Pokémon", true),
        (
            "Ultra Ball",
            T,
            "Shuffle your deck afterward.",
            "Then, shuffle your deck.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "It costs {C}{C} less.",
            "It costs ColorlessColorless less.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "(Don't apply Weakness.)",
            "(Don't apply Weakness)",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "Put 2 Energy into your hand.",
            "Put up to 2 Energy into your hand.",
            false,
        ),
        (
            "Switch",
            T,
            "Switch your Active Pokémon.",
            "Switch your Active Pokémon.",
            true,
        ),
        (
            "Pikachu",
            P,
            "[L] Gnaw 20\nHP 60 · retreat 1",
            "[L] Gnaw 20\nHP 70 · retreat 1",
            false,
        ),
        ("Pikachu", P, "[L] Gnaw 20", "[LC] Gnaw 20", false),
        ("Pikachu", P, "[L] Gnaw 20", "[L] Gnaw 30", false),
        ("Pikachu", P, "[L] Bite 20+: x", "[L] Bite 20×: x", false),
        (
            "Pikachu",
            P,
            "[L] Nap: Heal 10 damage from Pikachu.",
            "[L] Nap: Heal 10 damage from this Pokémon.",
            true,
        ),
        ("Pikachu", P, "[L] Gnaw 10×", "[L] Gnaw 10x", true),
        (
            "Pikachu",
            P,
            "weakness Fighting ×2",
            "weakness Fighting x2",
            true,
        ),
        ("Pikachu", P, "[L] Gnaw 20", "", false),
        // Reminder lines of the Trainer's kind, worded by era, are not the effect.
        (
            "Ultra Ball",
            T,
            "Search your deck.\nYou may play as many Item cards as you like during your turn (before your attack).",
            "Search your deck.\nYou may play any number of Item cards during your turn.",
            true,
        ),
        (
            "Judge",
            T,
            "You can play only one Supporter card each turn. When you play this card, put it next to your Active Pokémon. When your turn ends, discard this card. Each player shuffles his or her hand into his or her deck.",
            "Each player shuffles their hand into their deck.",
            true,
        ),
        // ... but one sentence of a reminder alone may be an effect.
        (
            "Ultra Ball",
            T,
            "Draw a card. When your turn ends, discard this card.",
            "Draw a card.",
            false,
        ),
        // A cost as an action with `If you do,` or a reminder, or as a condition.
        (
            "Ultra Ball",
            T,
            "Discard 2 cards from your hand. If you do, search your deck.",
            "You can use this card only if you discard 2 other cards from your hand.\n\nSearch your deck.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "Discard 2 cards from your hand. (If you can't discard 2 cards, you can't play this card.) Search your deck.",
            "You can use this card only if you discard 2 other cards from your hand. Search your deck.",
            true,
        ),
        (
            "Ultra Ball",
            T,
            "You may discard 2 cards from your hand. If you do, search your deck.",
            "You can use this card only if you discard 2 other cards from your hand. Search your deck.",
            false,
        ),
        (
            "Switch",
            T,
            "Switch 1 of your own Benched Pokémon with your Active Pokémon.",
            "Switch your Active Pokémon with 1 of your Benched Pokémon.",
            true,
        ),
        (
            "Potion",
            T,
            "Remove up to 2 damage counters from 1 of your Pokémon.",
            "Heal 30 damage from 1 of your Pokémon.",
            false,
        ),
        (
            "Rare Candy",
            T,
            "If you have a Stage 2 card, put that card on the Basic Pokémon. (This counts as evolving that Pokémon.)",
            "If you have a Stage 2 card, put that card onto the Basic Pokémon to evolve it, skipping the Stage 1.",
            true,
        ),
        // A rule box's Prize count follows from the mechanic, compared as a tag.
        (
            "Pikachu ex",
            P,
            "[L] Gnaw 20\nPokémon ex rule: When your Pokémon ex is Knocked Out, your opponent takes 2 Prize cards.",
            "[L] Gnaw 20",
            true,
        ),
    ];

    #[test]
    fn table() {
        for (name, category, a_text, b_text, expected) in CASES {
            let (a, b) = (card(name, *category, a_text), card(name, *category, b_text));
            assert_eq!(
                functionally_identical(&a, &b),
                *expected,
                "{name}: {:?} vs {:?}",
                text_key(name, *category, a_text),
                text_key(name, *category, b_text)
            );
            assert_eq!(differences(&a, &b).is_empty(), *expected, "{name}");
        }
    }

    #[test]
    fn differences_name_the_facts() {
        let potion = card("Potion", T, "Heal 30 damage from 1 of your Pokémon.");
        let old = card(
            "Potion",
            T,
            "Remove up to 2 damage counters from 1 of your Pokémon.",
        );
        assert_eq!(differences(&old, &potion), vec![Difference::Effect]);
        assert_eq!(
            differences(&card("Potion", T, ""), &potion),
            vec![Difference::MissingText]
        );
        let mut tool = potion.clone();
        tool.trainer = Some(TrainerKind::Tool);
        tool.ace_spec = true;
        assert_eq!(
            differences(&old, &tool),
            vec![
                Difference::TrainerKind,
                Difference::Rarity,
                Difference::Effect
            ]
        );
        let pikachu = card("Pikachu", P, "[L] Gnaw 20");
        let mut evolved = pikachu.clone();
        evolved.stage = Some(Stage::Stage1);
        evolved.evolves_from = Some("Pichu".into());
        assert_eq!(
            differences(&pikachu, &evolved),
            vec![Difference::Stage, Difference::EvolvesFrom]
        );
        assert_eq!(
            differences(&potion, &card("Pikachu", P, "x")),
            vec![Difference::Name, Difference::Category]
        );
        assert_eq!(Difference::Effect.describe(), "different effect text");
    }

    #[test]
    fn name_category_and_kind_matter() {
        let a = card("Switch", T, "Switch.");
        assert!(!functionally_identical(
            &a,
            &card("Switch Cart", T, "Switch.")
        ));
        assert!(!functionally_identical(
            &a,
            &card("Switch", Category::Energy, "Switch.")
        ));
        let mut stadium = a.clone();
        stadium.trainer = Some(TrainerKind::Stadium);
        assert!(!functionally_identical(&a, &stadium));
        let mut old = a.clone();
        old.trainer = None;
        assert!(
            functionally_identical(&a, &old),
            "a pre-BW Trainer is an Item"
        );
        let pikachu = card("Pikachu", P, "[L] Gnaw 20");
        let mut raichu_line = pikachu.clone();
        raichu_line.stage = Some(Stage::Stage1);
        assert!(!functionally_identical(&pikachu, &raichu_line));
        let mut typed = pikachu.clone();
        typed.types = vec!["Fire".into()];
        assert!(!functionally_identical(&pikachu, &typed));
    }

    #[test]
    fn missing_text_alone_is_undecided() {
        let switch = card("Switch", T, "Switch your Active Pokémon.");
        let blank = card("Switch", T, "");
        assert!(undecided(&blank, &switch) && undecided(&switch, &blank));
        assert!(!undecided(&switch, &switch.clone()));
        let mut stadium = blank.clone();
        stadium.trainer = Some(TrainerKind::Stadium);
        assert!(
            !undecided(&stadium, &switch),
            "another kind of card differs"
        );
        assert!(!undecided(&card("Potion", T, ""), &switch));
    }

    #[test]
    fn empty_text_only_matches_for_basic_energy() {
        let mut basic = card("Fire Energy", Category::Energy, "");
        basic.energy = Some(EnergyKind::Basic);
        assert!(functionally_identical(&basic, &basic.clone()));
        let special = card("Mystery Energy", Category::Energy, "");
        assert!(!functionally_identical(&special, &special.clone()));
    }
}
