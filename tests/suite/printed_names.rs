#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
//! Names as the cards print them, where a rule turns on what the name is. Each case cites
//! its source, and the test checks that the source still says so (the rulebook in
//! `../shared/rulebooks`, the card's own text in the TCGdex records of `../shared/data`).
//!
//! Unown. The rulebook counts copies by name ("you can only have 4 cards with the same
//! name"), and the name is what the card prints and calls itself: Neo and Diamond & Pearl
//! Unown print their letter in the name and say it in their text (`Unown [I]`, `Unown Q`),
//! while the 28 Unown of EX Unseen Forces print `Unown` and call themselves "Unown" ("search
//! your deck for another Unown and switch it with Unown"), as do the HeartGold & SoulSilver,
//! Ancient Origins and Lost Thunder Unown. No published ruling says otherwise (searched for
//! this issue; the Pokégym compendium's ruling 1798 writes the DP ones with their letter).
//! So `Unown Q` (MD 49, Neo Destiny's `Unown [Q]`) is one name, and every Unseen Forces
//! Unown shares the name `Unown`, whatever its letter, with the later `Unown`.

use crate::common;

/// `path` (under `tcgdex-repo/data`) says `quote`, whitespace aside.
fn card_says(data: &std::path::Path, path: &str, quote: &str) {
    let text = std::fs::read_to_string(data.join("tcgdex-repo/data").join(path)).unwrap();
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squash(&text).contains(&squash(quote)),
        "{path} no longer says: {quote}"
    );
}

#[test]
fn the_sources_still_say_so() {
    let Some(data) = common::shared_data("the_sources_still_say_so") else {
        return;
    };
    let rulebook =
        std::fs::read_to_string(data.join("../rulebooks/rulebook-en-sun-moon.txt")).unwrap();
    assert!(rulebook.contains("you can only have 4 cards with the same name in your deck"));
    let uf = "EX/Unseen Forces Unown Collection/Q.ts";
    card_says(&data, uf, r#"en: "Unown","#);
    card_says(
        &data,
        uf,
        "search your deck for another Unown and switch it with Unown",
    );
    let md = "Diamond & Pearl/Majestic Dawn/49.ts";
    card_says(&data, md, r#"en: "Unown Q","#);
    card_says(&data, md, "if Unown Q is on your Bench");
    card_says(&data, "Neo/Neo Discovery/68.ts", r#"en: "Unown [I]","#);
}

/// The short findings of `list` checked in Unlimited (every printing is legal there), deck
/// size aside.
pub(crate) fn findings(list: &str) -> String {
    let dir = common::workspace(&[]);
    std::fs::write(dir.path().join("unown.txt"), list).unwrap();
    let args = [
        "check",
        "unown.txt",
        "--format",
        "unlimited",
        "--output",
        "short",
    ];
    let (_, rendered) = common::run_deckbox(dir.path(), &args, b"");
    common::stdout_of(&rendered)
        .lines()
        .filter(|line| !line.contains(" deck-size: "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_letter_counts_where_the_card_prints_it_in_its_name() {
    // Neo Destiny's `Unown [Q]` and Majestic Dawn's `Unown Q` are one name.
    let out = findings("2 Unown [Q] N4 59\n3 Unown Q MD 49\n");
    assert!(
        out.contains("copy-limit: 5 cards named 'Unown Q' on 2 lines"),
        "{out}"
    );
    // French players write Zarbi: the same card, the same count.
    let out = findings("2 Zarbi Q N4 59\n3 Unown Q MD 49\n");
    assert!(out.contains("copy-limit: 5 cards named 'Unown Q'"), "{out}");
}

#[test]
fn unseen_forces_unown_are_all_named_unown() {
    // Four letters of Unseen Forces and the Ancient Origins Unown: five cards named Unown.
    let out = findings("1 Unown UF A\n1 Unown UF B\n1 Unown UF C\n1 Unown UF !\n1 Unown AOR 30\n");
    assert!(
        out.contains("copy-limit: 5 cards named 'Unown' on 5 lines"),
        "{out}"
    );
    // Majestic Dawn's Unown Q is another name than Unseen Forces' Q: both may be played.
    let out = findings("4 Unown Q MD 49\n1 Unown UF Q\n");
    assert!(!out.contains("copy-limit"), "{out}");
}

/// A printing named by its code in a language the data gives it no name in, with a name its
/// card has in other printings (issue 27 item 3): Aquapolis's Gengar has no French name in
/// TCGdex, other Gengar printings are `Ectoplasma`; Base Set's Computer Search has no Spanish
/// name, later printings are `Búsqueda por Computadora`. The code says which printing, the
/// name agrees on the card: no `card-mismatch`, and Base Set's Computer Search is no ACE SPEC.
#[test]
fn a_name_of_the_card_in_another_language_fits_any_printing_of_it() {
    let out = findings("4 Ectoplasma AR 16\n4 Búsqueda por Computadora BS 71\n4 Pikachu BS 58\n");
    assert_eq!(out, "", "{out}");
    // A name of another card is still a mismatch.
    let out = findings("4 Ectoplasma BS 71\n");
    assert!(
        out.contains("card-mismatch: BS 71 is Computer Search, not 'Ectoplasma'"),
        "{out}"
    );
}
