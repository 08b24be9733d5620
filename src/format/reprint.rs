//! The reprint rule's comparison (Play! Pokémon Tournament Rules 5.4.1.3): is an older
//! printing functionally identical to a newer one?
//!
//! [`text_key`] reduces a printing's rules text to what plays: cosmetic differences between
//! printings of the same card (typography, case, the card calling itself by name) are
//! normalized away, anything else is kept, so a false "identical" stays rare. This module
//! only compares two printings; which printings are legal is [`super::legality`]'s job.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::cards::{Category, EnergyKind, Printing, TrainerKind};
use crate::names;

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

/// The functionally relevant text of a printing: its rules text folded (`fold`), the card's own
/// name replaced by "this pokemon", symbols and known rewordings unified, then cut into
/// sentences (at line breaks and periods, so `hand.\nSearch` and `hand. Search` agree,
/// as does a period left off at the end) joined by `. `.
pub fn text_key(printing: &Printing) -> String {
    let own_name = fold(&printing.rules_name());
    // A period inside parentheses, `(... Pokémon.)`, would leave a sentence `)`.
    let text = printing.rules_text.replace(".)", ")");
    let mut text = fold(&text.replace('\n', " \u{1} "));
    for (from, to) in SYMBOLS.iter().chain(TEMPLATES) {
        text = text.replace(from, to);
    }
    // Only a Pokémon calls itself by name; a Trainer named `Switch` says "switch".
    if printing.category == Category::Pokemon && !own_name.is_empty() {
        text = replace_word(&text, &own_name, SELF);
    }
    let sentences: Vec<&str> = text
        .split(['.', '\u{1}'])
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
        .collect();
    sentences.join(". ")
}

/// Whether `a` and `b` are the same card for the reprint rule: same name, same kind of
/// card, same stage and evolution, and the same [`text_key`]. A printing without rules text
/// (an embedded pool card, a source gap) is never identical to anything, except that two
/// basic Energy of the same name are.
pub fn functionally_identical(a: &Printing, b: &Printing) -> bool {
    if a.rules_key() != b.rules_key() || a.category != b.category {
        return false;
    }
    let basic_energy = |p: &Printing| p.energy == Some(EnergyKind::Basic);
    if basic_energy(a) && basic_energy(b) {
        return true;
    }
    if a.rules_text.trim().is_empty() || b.rules_text.trim().is_empty() {
        return false;
    }
    same_kind(a, b) && text_key(a) == text_key(b)
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

/// Compatibility-normalized, accents and case removed, typography unified, whitespace
/// collapsed. Accents go because sources spell `Pokémon`, `Pokemon` and `Poké-Power`
/// either way; NFKD also unifies full-width `＋` and `×` with their ASCII forms' meaning.
fn fold(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Names, Stage};
    use crate::lang::Language;

    fn card(name: &str, category: Category, text: &str) -> Printing {
        let mut names = Names::default();
        names.set(Language::En, name);
        Printing {
            set_code: "SVI".into(),
            set_id: "sv01".into(),
            number: "1".into(),
            release_date: String::new(),
            series: "sv".into(),
            names,
            category,
            stage: (category == Category::Pokemon).then_some(Stage::Basic),
            evolves_from: None,
            types: Vec::new(),
            trainer: (category == Category::Trainer).then_some(TrainerKind::Item),
            energy: (category == Category::Energy).then_some(EnergyKind::Special),
            ace_spec: false,
            radiant: false,
            prism_star: false,
            pokemon_star: false,
            regulation_mark: None,
            rules_text: text.into(),
            names_memo: Default::default(),
        }
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
        for (name, category, a, b, expected) in CASES {
            let (a, b) = (card(name, *category, a), card(name, *category, b));
            assert_eq!(
                functionally_identical(&a, &b),
                *expected,
                "{name}: {:?} vs {:?}",
                text_key(&a),
                text_key(&b)
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

    #[test]
    fn keys() {
        let p = card(
            "Pikachu",
            P,
            "[L] Nap: Heal 10 from Pikachu.\nHP 60 · weakness Fighting ×2",
        );
        assert_eq!(
            text_key(&p),
            "[l] nap: heal 10 from this pokemon. hp 60 · weakness fighting x2"
        );
        assert_eq!(
            replace_word("pikachu's pikachus pikachu", "pikachu", "X"),
            "X's pikachus X"
        );
    }
}
