//! The reprint rule's comparison (Play! Pokémon Tournament Rules 5.4.1.3): is an older
//! printing functionally identical to a newer one?
//!
//! The rules text is compared through its effect fingerprint ([`crate::cards::effect`]):
//! cosmetic differences between printings of the same card are normalized away before the
//! fingerprint is taken, anything else is kept, so a false "identical" stays rare. This
//! module only compares two printings; which printings are legal is [`super::legality`]'s
//! job.

use crate::cards::effect::fold;
use crate::cards::{Category, EnergyKind, Printing, TrainerKind};
use crate::names;

/// Whether `a` and `b` are the same card for the reprint rule: same name, same kind of
/// card, same stage and evolution, and the same effect fingerprint
/// ([`crate::cards::effect`]). A printing without rules text (a source gap) is never
/// identical to anything, except that two basic Energy of the same name are.
pub fn functionally_identical(a: &Printing, b: &Printing) -> bool {
    if a.rules_key() != b.rules_key() || a.category != b.category {
        return false;
    }
    let basic_energy = |p: &Printing| p.energy == Some(EnergyKind::Basic);
    if basic_energy(a) && basic_energy(b) {
        return true;
    }
    match (a.effect, b.effect) {
        (Some(a_effect), Some(b_effect)) => a_effect == b_effect && same_kind(a, b),
        _ => false,
    }
}

/// The printed facts besides text: stage, evolution, types, Trainer and Energy kind.
fn same_kind(a: &Printing, b: &Printing) -> bool {
    let evolves_from = |p: &Printing| p.evolves_from.as_deref().map(names::lookup_key);
    let types = |p: &Printing| {
        let mut types: Vec<String> = p.types.iter().map(|t| fold(t)).collect();
        types.sort();
        types
    };
    // Trainers from before Black & White have no subtype; the rules play them as Items.
    let trainer = |p: &Printing| match (p.category, p.trainer) {
        (Category::Trainer, None) => Some(TrainerKind::Item),
        (_, kind) => kind,
    };
    a.stage == b.stage
        && trainer(a) == trainer(b)
        && a.energy == b.energy
        && a.ace_spec == b.ace_spec
        && (a.category != Category::Pokemon
            || (evolves_from(a) == evolves_from(b) && types(a) == types(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::effect::text_key;
    use crate::cards::{Names, Stage};
    use crate::lang::Language;

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
        }
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
    fn empty_text_only_matches_for_basic_energy() {
        let mut basic = card("Fire Energy", Category::Energy, "");
        basic.energy = Some(EnergyKind::Basic);
        assert!(functionally_identical(&basic, &basic.clone()));
        let special = card("Mystery Energy", Category::Energy, "");
        assert!(!functionally_identical(&special, &special.clone()));
    }
}
