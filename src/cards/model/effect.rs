//! The effect fingerprint: what the reprint rule compares, without keeping the text.
//!
//! Two printings are the same card for the reprint rule (Play! Pokémon Tournament Rules
//! 5.4.1.3) when, among other facts, their rules text says the same thing. [`text_key`]
//! reduces a rules text to what plays: cosmetic differences between printings of the same
//! card (typography, case, the card calling itself by name, reworded templates) are
//! normalized away, anything else is kept, so a false "identical" stays rare. The card
//! index keeps only [`fingerprint`] of that key (the text itself is never stored), and
//! every loader computes it the same way through [`super::Printing::set_rules_text`].
//! This module must not decide legality: [`crate::formats`] compares fingerprints.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::Category;

/// What stands for the card's own name in a [`text_key`]: older cards name themselves
/// where newer ones say "this Pokémon".
const SELF: &str = "this pokemon";

/// Wordings the cards changed without changing what the card does, folded to the newer
/// one. Applied after [`fold`], in order, to every printing's text. Each was found by
/// comparing the printings of one name across eras in TCGdex and pokemon-tcg-data
/// (`tests/suite/reprint_shared.rs` holds the pairs): `then, shuffle your deck` replaced
/// `shuffle your deck afterward` in Sun & Moon, `their` replaced `his or her`, Mega
/// Evolution rewrote gusting as `switch in ... to the active spot`, Scarlet & Violet wrote
/// Energy `from` a Pokémon where older cards wrote `attached to`. A comma before `and` is
/// dropped first, so later entries are written without it.
const TEMPLATES: &[(&str, &str)] = &[
    (", and ", " and "),
    ("his or her", "their"),
    ("him or her", "them"),
    ("he or she has", "they have"),
    ("he or she", "they"),
    ("shuffle your deck afterward", "then, shuffle your deck"),
    ("back into your deck", "into your deck"),
    // Before Diamond & Pearl a Pokémon was `a Basic Pokémon or Evolution card`.
    (
        "search your deck for a basic pokemon or evolution card",
        "search your deck for a pokemon",
    ),
    ("show it to your opponent", "reveal it"),
    // Escape Rope BUS 114 and BST 125.
    ("that player doesn't switch", "they don't switch"),
    ("show them to your opponent", "reveal them"),
    (
        "switch 1 of your opponent's benched pokemon with their active pokemon",
        "switch in 1 of your opponent's benched pokemon to the active spot",
    ),
    // Switch: Base Set's `your own`, Black & White's word order, and the EX era's
    // `1 of your Active Pokémon` (written for double battles; the game has one Active).
    (
        "switch 1 of your own benched pokemon with your active pokemon",
        "switch your active pokemon with 1 of your benched pokemon",
    ),
    (
        "switch 1 of your benched pokemon with your active pokemon",
        "switch your active pokemon with 1 of your benched pokemon",
    ),
    (
        "switch 1 of your active pokemon with 1 of your benched pokemon",
        "switch your active pokemon with 1 of your benched pokemon",
    ),
    // Repel SUM 130 and MEG 126.
    (
        "your opponent switches their active pokemon with 1 of their benched pokemon",
        "switch out your opponent's active pokemon to the bench. (your opponent chooses the new active pokemon)",
    ),
    // Crushing Hammer, Enhanced Hammer, Energy Switch.
    (
        "discard an energy attached to 1 of your opponent's pokemon",
        "discard an energy from 1 of your opponent's pokemon",
    ),
    (
        "discard a special energy attached to 1 of your opponent's pokemon",
        "discard a special energy from 1 of your opponent's pokemon",
    ),
    (
        "move a basic energy card attached to 1 of your pokemon to another of your pokemon",
        "move a basic energy from 1 of your pokemon to another of your pokemon",
    ),
    // Tool Scrapper DRX 116; Counter Gain LOT 170; Scoop Up Cyclone PLB 95.
    (
        "pokemon tool cards attached to pokemon in play",
        "pokemon tools attached to pokemon",
    ),
    (
        "the attacks of the pokemon this card is attached to",
        "attacks used by the pokemon this card is attached to",
    ),
    (
        "all cards attached to it into your hand",
        "all attached cards into your hand",
    ),
    // Lucky Helmet AOR 77 and TWM 158.
    (
        "whenever the pokemon this card is attached to is your active pokemon and is damaged by an opponent's attack (even if that pokemon is knocked out)",
        "if the pokemon this card is attached to is in the active spot and is damaged by an attack from your opponent's pokemon (even if this pokemon is knocked out)",
    ),
    // Pokémon Center Lady FLF 93 and SSH 176.
    (
        "heal 60 damage and remove all special conditions from 1 of your pokemon",
        "heal 60 damage from 1 of your pokemon and it recovers from all special conditions",
    ),
    // Scramble Switch PLS 129 and SSP 186.
    (
        "then, you may move as many energy attached to the old active pokemon to the new active pokemon as you like",
        "if you do, you may move any amount of energy from the pokemon you moved to your bench to the new active pokemon",
    ),
    // Special Energy: Scarlet & Violet says the card provides Energy while attached.
    (
        "as long as this card is attached to a pokemon, it provides",
        "this card provides",
    ),
    (
        "if the pokemon this card is attached to is a basic pokemon",
        "if this card is attached to a basic pokemon",
    ),
    // Rare Candy: Black & White's `(This counts as evolving that Pokémon.)` and Sun &
    // Moon's `to evolve it` both skip the Stage 1, as Sword & Shield spells out.
    (
        "put that card on the basic pokemon. (this counts as evolving that pokemon)",
        "put that card onto the basic pokemon to evolve it, skipping the stage 1.",
    ),
    (
        "put that card onto the basic pokemon to evolve it.",
        "put that card onto the basic pokemon to evolve it, skipping the stage 1.",
    ),
];

/// Costs a Trainer states as a condition since Sword & Shield (`You can use this card
/// only if you discard 2 other cards from your hand.`), written as an action with a
/// reminder in Black & White (`Discard 2 cards from your hand. (If you can't discard 2
/// cards, you can't play this card.)`) and as an action with `If you do,` in Sun & Moon:
/// a Trainer cannot be played without paying its cost in every era (Ultra Ball). Folded
/// only at the start of a sentence of a Trainer's text.
const TRAINER_COSTS: &[(&str, &str)] = &[
    (
        "discard 2 cards from your hand. (if you can't discard 2 cards, you can't play this card) ",
        "you can use this card only if you discard 2 other cards from your hand. ",
    ),
    (
        "discard 2 cards from your hand. if you do, ",
        "you can use this card only if you discard 2 other cards from your hand. ",
    ),
    (
        "discard a card from your hand. (if you can't discard a card, you can't play this card) ",
        "you can use this card only if you discard another card from your hand. ",
    ),
    (
        "discard a card from your hand. if you do, ",
        "you can use this card only if you discard another card from your hand. ",
    ),
];

/// Recovery Trainers that take back a fixed number of cards until Sun & Moon and "up to"
/// that number since Sword & Shield (Energy Retrieval: `Put 2 basic Energy cards` became
/// `Put up to 2`; Energy Recycler and Sacred Ash: `Shuffle 5` became `Shuffle up to 5`).
/// The cards are reprints under the new template (Play! Pokémon treats the older
/// printings as the same card; issue 13 names Energy Retrieval among the older printings
/// wrongly rejected). Folded only at the start of a sentence of a Trainer's text, and only
/// for these recoveries: an attack's `put 2 damage counters` is untouched.
const TRAINER_RECOVERIES: &[(&str, &str)] = &[
    (
        "put 2 basic energy cards from your discard pile into your hand",
        "put up to 2 basic energy cards from your discard pile into your hand",
    ),
    (
        "shuffle 5 basic energy cards from your discard pile into your deck",
        "shuffle up to 5 basic energy cards from your discard pile into your deck",
    ),
    (
        "shuffle 5 pokemon from your discard pile into your deck",
        "shuffle up to 5 pokemon from your discard pile into your deck",
    ),
    // Pal Pad FLF 92 and UPR 132; SSH 172 and SVI 182 say "up to".
    (
        "shuffle 2 supporter cards from your discard pile into your deck",
        "shuffle up to 2 supporter cards from your discard pile into your deck",
    ),
];

/// Reminder lines: sentences (as [`text_key`] cuts them) that restate a rule of the game
/// the card's kind already carries (how many Items, Supporters, Stadiums and Tools a
/// player may play, the deck limits of ACE SPEC, Radiant, Prism Star and Pokémon Star
/// cards), worded differently in each era and printed by some sources and not others
/// (pokemon-tcg-data keeps them, TCGdex mostly does not). Each entry is a run of
/// sentences dropped only when it appears whole: the HeartGold & SoulSilver Supporter
/// reminder ends in `when your turn ends, discard this card`, which alone could be an
/// effect. The kind and flags these reminders restate are compared by the reprint rule
/// itself ([`crate::formats::reprint`]).
const REMINDERS: &[&[&str]] = &[
    &["you may play as many item cards as you like during your turn (before your attack)"],
    &["you may play any number of item cards during your turn"],
    &["you may play only 1 supporter card during your turn (before your attack)"],
    &["you may play only 1 supporter card during your turn"],
    &[
        "you can play only one supporter card each turn",
        "when you play this card, put it next to your active pokemon",
        "when your turn ends, discard this card",
    ],
    &["this card stays in play when you play it"],
    &["discard this card if another stadium card comes into play"],
    &["if another card with the same name is in play, you can't play this card"],
    &["this stadium stays in play when you play it"],
    &["discard it if another stadium comes into play"],
    &["if a stadium with the same name is in play, you can't play this card"],
    &["you may play only 1 stadium card during your turn"],
    &["put it next to the active spot and discard it if another stadium comes into play"],
    &["put it into the active spot and discard it if another stadium comes into play"],
    &["a stadium with the same name can't be played"],
    &[
        "attach a pokemon tool to 1 of your pokemon that doesn't already have a pokemon tool attached to it",
    ],
    &[
        "attach a pokemon tool to 1 of your pokemon that doesn't already have a pokemon tool attached",
    ],
    &["you may attach any number of pokemon tools to your pokemon during your turn"],
    &["you may attach only 1 pokemon tool to each pokemon and it stays attached"],
    &["you can't have more than 1 ace spec card in your deck"],
    &["ace spec: you can't have more than 1 ace spec card in your deck"],
    &["radiant pokemon rule: you can't have more than 1 radiant pokemon in your deck"],
    &["you can't have more than 1 pokemon star in your deck"],
    &[
        "◇ (prism star) rule: you can't have more than 1 ◇ card with the same name in your deck",
        "if a ◇ card would go to the discard pile, put it in the lost zone instead",
    ],
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
/// known rewordings unified (`TEMPLATES`, and `TRAINER_COSTS` and `TRAINER_RECOVERIES` for
/// a Trainer), then cut
/// into sentences (at line breaks and periods, so `hand.\nSearch` and `hand. Search`
/// agree, as does a period left off at the end), reminder lines (`REMINDERS`) and rule-box
/// Prize sentences (`is_prize_rule`) left out, joined by `. `.
pub fn text_key(rules_name: &str, category: Category, text: &str) -> String {
    let own_name = fold(rules_name);
    // A period inside parentheses, `(... Pokémon.)`, would leave a sentence `)`.
    let text = text.replace(".)", ")");
    let mut text = fold(&text.replace('\n', " \u{1} "));
    for (from, to) in SYMBOLS.iter().chain(TEMPLATES) {
        text = text.replace(from, to);
    }
    if category == Category::Trainer {
        for (from, to) in TRAINER_COSTS.iter().chain(TRAINER_RECOVERIES) {
            text = replace_at_sentence_start(&text, from, to);
        }
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
    without_reminders(&sentences)
        .into_iter()
        .filter(|sentence| !is_prize_rule(sentence))
        .collect::<Vec<_>>()
        .join(". ")
}

/// `sentences` without the runs [`REMINDERS`] lists.
fn without_reminders<'a>(sentences: &[&'a str]) -> Vec<&'a str> {
    let mut kept = Vec::with_capacity(sentences.len());
    let mut rest = sentences;
    while let Some((first, tail)) = rest.split_first() {
        let run = REMINDERS.iter().find(|run| {
            rest.len() >= run.len() && rest.iter().zip(run.iter()).all(|(a, b)| a == b)
        });
        match run {
            Some(run) => rest = rest.get(run.len()..).unwrap_or_default(),
            None => {
                kept.push(*first);
                rest = tail;
            }
        }
    }
    kept
}

/// A rule box's Prize sentence: `pokemon ex rule: when your pokemon ex is knocked out,
/// your opponent takes 2 prize cards` (and the EX, GX, V, VMAX, VSTAR, TAG TEAM, V-UNION,
/// LEGEND and older `pokemon-ex` wordings). pokemon-tcg-data prints rule boxes and TCGdex
/// does not; what a rule box says follows from the card's mechanic, its name's `ex`,
/// `GX`, `V`..., which the reprint rule compares as tags instead. Only this exact shape is
/// left out: an ability that changes how many Prize cards are taken is kept.
fn is_prize_rule(sentence: &str) -> bool {
    let clause = sentence
        .split_once(" rule: ")
        .map_or(sentence, |(_, clause)| clause);
    let Some(rest) = clause.strip_prefix("when ") else {
        return false;
    };
    let Some((subject, taken)) = rest.split_once(" knocked out, your opponent takes ") else {
        return false;
    };
    let count = taken
        .strip_suffix(" prize cards")
        .or_else(|| taken.strip_suffix(" prize card"));
    (subject.ends_with(" is") || subject.ends_with(" has been"))
        && count.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `text` with `from` replaced by `to` where it starts a sentence: at the start, or after
/// `. ` or a line break (`\u{1} `).
fn replace_at_sentence_start(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let starts = out.is_empty() || out.ends_with(". ") || out.ends_with("\u{1} ");
        out.push_str(if starts { to } else { from });
        rest = after.get(from.len()..).unwrap_or("");
    }
    out.push_str(rest);
    out
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
    fn reminders_and_rule_boxes_are_left_out() {
        let key = |text: &str| text_key("Nest Ball", Category::Trainer, text);
        assert_eq!(
            key(
                "Search your deck.\nYou may play only 1 Supporter card during your turn (before your attack)."
            ),
            "search your deck"
        );
        assert_eq!(
            key(
                "This card stays in play when you play it. Discard this card if another Stadium card comes into play. Heal 10."
            ),
            "heal 10"
        );
        // A run is dropped only whole.
        assert_eq!(
            key("Heal 10. When your turn ends, discard this card."),
            "heal 10. when your turn ends, discard this card"
        );
        for rule in [
            "pokemon ex rule: when your pokemon ex is knocked out, your opponent takes 2 prize cards",
            "when pokemon-ex has been knocked out, your opponent takes 2 prize cards",
            "vmax rule: when your pokemon vmax is knocked out, your opponent takes 3 prize cards",
            "when this pokemon has been knocked out, your opponent takes 2 prize cards",
        ] {
            assert!(is_prize_rule(rule), "{rule}");
        }
        for effect in [
            "if this pokemon is knocked out, your opponent takes 1 fewer prize card",
            "when your pokemon ex is knocked out, your opponent takes 2 more prize cards",
            "when this pokemon is knocked out, your opponent takes 1 prize card. draw 2",
        ] {
            assert!(!is_prize_rule(effect), "{effect}");
        }
    }

    #[test]
    fn trainer_costs_fold_only_at_a_sentence_start() {
        let to = "you can use this card only if you discard 2 other cards from your hand. ";
        let from = "discard 2 cards from your hand. if you do, ";
        assert_eq!(
            replace_at_sentence_start(&format!("{from}x"), from, to),
            format!("{to}x")
        );
        assert_eq!(
            replace_at_sentence_start(&format!("a. {from}x"), from, to),
            format!("a. {to}x")
        );
        assert_eq!(
            replace_at_sentence_start(&format!("you may {from}x"), from, to),
            format!("you may {from}x")
        );
        // Only a Trainer's cost: an attack discarding 2 cards keeps its words.
        assert_ne!(
            text_key(
                "Pikachu",
                Category::Pokemon,
                "Discard 2 cards from your hand. If you do, draw."
            ),
            text_key(
                "Pikachu",
                Category::Trainer,
                "Discard 2 cards from your hand. If you do, draw."
            ),
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
