#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Lines as players and sites write them (issue 42, item 3): one fixture per class under
//! `tests/fixtures/players/`, named `<format>__<what>.txt`, its first line the date it is
//! judged at (`# deckbox: as-of=...`, the list's own era). Each is read in full (no
//! `unknown-card`, `card-mismatch`, `unknown-printing` or `ambiguous-card`), each named line
//! is the printing the player meant, and `fmt` writes what was read.

use crate::common;
use crate::oracles::{self, embedded_db};

use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::formats::Format;

/// What a misread line is reported as.
const MISREAD: [&str; 5] = [
    "unknown-card",
    "card-mismatch",
    "unknown-printing",
    "ambiguous-card",
    "parse-error",
];

fn fixture(file: &str) -> (String, Format) {
    let path = common::repo().join("tests/fixtures/players").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let (format, _) = file.split_once("__").expect("format__name.txt");
    let date = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# deckbox: as-of="))
        .expect("first line: # deckbox: as-of=YYYY-MM-DD");
    let format = Format::load_at(format, Some(date.trim().parse().unwrap())).unwrap();
    (text, format)
}

fn checked(file: &str) -> CheckedDeck {
    let (text, format) = fixture(file);
    check::check(
        &DeckInput::from_bytes(file, text.as_bytes()),
        embedded_db(),
        &format,
    )
}

/// Every line of `file` read, and nothing a misreading would report.
fn read_in_full(file: &str) -> CheckedDeck {
    let deck = checked(file);
    assert_eq!(deck.list.issues, Vec::new(), "{file}: lines not read");
    let misread: Vec<String> = (deck.diagnostics.iter())
        .filter(|d| MISREAD.contains(&d.rule.id()))
        .map(|d| format!("{:?}: {}: {}", d.line, d.rule.id(), d.message))
        .collect();
    assert_eq!(misread, Vec::<String>::new(), "{file}: misread lines");
    deck
}

/// The set code and number of the printing read on each line whose written name is `name`.
fn printings_of(deck: &CheckedDeck, name: &str) -> Vec<String> {
    (deck.cards.iter())
        .filter(|c| c.line.name == name)
        .map(|c| {
            let p = embedded_db().get(c.printing.expect("identified")).unwrap();
            format!("{} {} {}", p.rules_name(), p.set_code, p.number)
        })
        .collect()
}

/// `fmt` of the fixture: reaches its fixed point in one pass and keeps cards and verdict.
fn formatted(file: &str) -> String {
    let (text, format) = fixture(file);
    let input = DeckInput::from_bytes(file, text.as_bytes());
    oracles::fmt_properties(file, &input, embedded_db(), &[format])
        .unwrap_or_else(|why| panic!("{file}: fmt refused: {why}"))
}

/// PTCGO's export writes Prism Star `♢` (U+2662, in the block of Unicode's dingbats that
/// chat emoji come from): the emoji blanking of forum posts blanked it, and `Tapu Koko ♢
/// TEU 51` became `card-mismatch` (TEU 51 is Tapu Koko ◇, not 'Tapu Koko'). `◊`, `★`, `δ`
/// are read the same way.
#[test]
fn prism_star_and_the_other_name_symbols_are_not_emoji() {
    let file = "standard__ptcgo-prism-star-2020.txt";
    let deck = read_in_full(file);
    assert!(deck.valid(), "{:?}", deck.diagnostics);
    assert_eq!(printings_of(&deck, "Tapu Koko ♢"), ["Tapu Koko ◇ TEU 51"]);
    assert_eq!(printings_of(&deck, "Cyrus ♢"), ["Cyrus ◇ UPR 120"]);
    let out = formatted(file);
    // fmt keeps the player's spelling of the symbol: it names the same card.
    assert!(out.contains("1 Tapu Koko ♢ TEU 51\n"), "{out}");
    for (line, name) in [
        ("1 Tapu Koko ◊ TEU 51\n", "Tapu Koko ◇"),
        ("1 Rayquaza ★ DRX 128\n", "Rayquaza ★"),
        ("1 Latios δ DS 9\n", "Latios"),
    ] {
        let input = DeckInput::from_bytes("one.txt", line.as_bytes());
        let deck = check::check(&input, embedded_db(), &Format::load("unlimited").unwrap());
        let p = embedded_db().get(deck.cards[0].printing.unwrap()).unwrap();
        assert_eq!(p.rules_name(), name, "{line}");
    }
}

/// `2x Name from SET n/total` and `Name (nickname) from SET n/total`, the shape named in
/// issue 42: the word `from` was read as part of the name (`card-mismatch`: SLG 53/73 is
/// Zoroark GX, not 'Zoroark-GX from').
#[test]
fn name_from_set_and_number() {
    let file = "expanded__from-set-number.txt";
    let deck = read_in_full(file);
    assert_eq!(printings_of(&deck, "Zoroark-GX"), ["Zoroark GX SLG 53"]);
    assert_eq!(
        printings_of(&deck, "Ultra Ball (Ultra)"),
        ["Ultra Ball SLG 68"]
    );
    assert_eq!(deck.card_count(), 22);
    let out = formatted(file);
    assert!(out.contains("\n4 Zoroark-GX SLG 53/73\n"), "{out}");
    assert!(!out.contains(" from SLG"), "{out}");
}

/// Basic Energy by its type alone and `Double Colorless` without "Energy", as a published
/// Regionals list writes them (the fixture's source: cutortap.com): read as the cards, each
/// with a `read-as` note, and `fmt` writes the cards' names. `N` stays the card N.
#[test]
fn energy_by_type_alone_and_shorthand() {
    let file = "standard__energy-by-type-2016.txt";
    let deck = checked(file);
    assert_eq!(deck.list.issues, Vec::new());
    // `Name SET` with no number (`Yveltal BKT`, lines 5 to 8) is read too since issue 42's
    // `deck::name_then_code`: no line is misread.
    let misread: Vec<Option<usize>> = (deck.diagnostics.iter())
        .filter(|d| MISREAD.contains(&d.rule.id()))
        .map(|d| d.line)
        .collect();
    assert_eq!(misread, Vec::<Option<usize>>::new());
    assert_eq!(deck.card_count(), 60);
    assert_eq!(printings_of(&deck, "N").len(), 1);
    let notes: Vec<&str> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "read-as")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "'Darkness' read as Darkness Energy",
            "'Double Colorless' read as Double Colorless Energy",
        ]
    );
    assert!(
        deck.diagnostics.iter().all(|d| d.rule.id() != "read-as"
            || d.severity == deckbox::check::diagnostic::Severity::Info)
    );
    let out = formatted(file);
    assert!(out.contains("\n9 Darkness Energy"), "{out}");
    assert!(out.contains("\n4 Double Colorless Energy"), "{out}");
    // The type words as lists in other languages write them, `Dark`, and DCE
    // (http://www.onehitko.com/pokemon-tcg-dictionary/): one line each, read alone.
    for (line, name) in [
        ("11x Dark\n", "Darkness Energy"),
        ("8 Water\n", "Water Energy"),
        ("4 Psychic\n", "Psychic Energy"),
        ("8 Eau\n", "Water Energy"),
        ("8 Agua\n", "Water Energy"),
        ("8 Wasser\n", "Water Energy"),
        ("8 Acqua\n", "Water Energy"),
        ("8 Fogo\n", "Fire Energy"),
        ("4 DCE\n", "Double Colorless Energy"),
    ] {
        let input = DeckInput::from_bytes("one.txt", line.as_bytes());
        let deck = check::check(&input, embedded_db(), &Format::load("unlimited").unwrap());
        let p = embedded_db()
            .get(deck.cards[0].printing.expect(line))
            .unwrap();
        assert_eq!(p.rules_name(), name, "{line}");
        assert!(
            deck.diagnostics.iter().any(|d| d.rule.id() == "read-as"),
            "{line}: {:?}",
            deck.diagnostics
        );
    }
    // A real card is never read as shorthand.
    let input = DeckInput::from_bytes("one.txt", b"4 N\n");
    let deck = check::check(&input, embedded_db(), &Format::load("unlimited").unwrap());
    assert!(deck.diagnostics.iter().all(|d| d.rule.id() != "read-as"));
}

/// An event record (the shape of the Limitless-style records in
/// github.com/AlexWilsonNC/ptcg-story, tournaments/regional-spe/2024/pitt-parse.js: `name`,
/// `placing`, `record`, `decklist`) with summaries beside the list, as issue 42 reports
/// them: `"energies": ["Psychic"]`, `"archetype"`, `"player"`. `energies` is a section key
/// of the Limitless layout, but an array of words is a summary, not a section: the list is
/// the one under `decklist`.
#[test]
fn event_record_summaries_are_not_sections() {
    let file = "standard__event-record-summaries.json";
    let text =
        std::fs::read_to_string(common::repo().join("tests/fixtures/players").join(file)).unwrap();
    let input = DeckInput::from_bytes(file, text.as_bytes());
    let format = Format::load_at("standard", Some("2024-05-01".parse().unwrap())).unwrap();
    let deck = check::check(&input, embedded_db(), &format);
    assert_eq!(deck.list.issues, Vec::new());
    assert_eq!(deck.card_count(), 12);
    assert!(deck.cards.iter().all(|c| c.printing.is_some()));
    assert_eq!(printings_of(&deck, "Comfey"), ["Comfey LOR 79"]);
    // A section key holding cards is still a section beside a `decklist`, and a summary
    // with no list anywhere is still no deck.
    let both =
        r#"{"energy": [{"count": 4, "name": "Psychic Energy"}], "decklist": {"pokemon": []}}"#;
    let deck = check::check(
        &DeckInput::from_bytes("b.json", both.as_bytes()),
        embedded_db(),
        &format,
    );
    assert_eq!(deck.card_count(), 4);
    let alone = r#"{"energies": ["Psychic"], "archetype": "Lost Box"}"#;
    let deck = check::check(
        &DeckInput::from_bytes("a.json", alone.as_bytes()),
        embedded_db(),
        &format,
    );
    assert_ne!(deck.list.issues, Vec::new());
}

/// `LV.X` written names the LEVEL-UP card, not written the Pokémon it levels up: the
/// rules name drops the level, so both were `ambiguous-card` (issue 42: `Uxie LV.X` is not
/// a Basic Uxie). The lines of the Azelf/Mesprit/Uxie list at
/// https://retro-library.com/2009-decks/ write it `Lv. X`.
#[test]
fn lv_x_written_or_not_chooses_the_printing() {
    let list = "1 Uxie Lv. X\n3 Uxie\n1 Mesprit Lv. X\n2 Mesprit\n1 Azelf Lv. X\n2 Azelf\n1 Palkia Lv. X\n1 Palkia\n1 Uxie LV.X LA 146\n1 Uxie LA 43\n";
    let input = DeckInput::from_bytes("amu.txt", list.as_bytes());
    let format = Format::load_at("unlimited", Some("2009-06-01".parse().unwrap())).unwrap();
    let deck = check::check(&input, embedded_db(), &format);
    assert_eq!(deck.list.issues, Vec::new());
    for card in &deck.cards {
        let p = embedded_db()
            .get(card.printing.expect("identified"))
            .unwrap();
        let level_up = p.stage == Some(deckbox::cards::Stage::LevelUp);
        assert_eq!(
            level_up,
            card.line.name.contains('X'),
            "{}: {} {} {}",
            card.line.name,
            p.rules_name(),
            p.set_code,
            p.number
        );
    }
    let mixed: Vec<&str> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "ambiguous-card" && d.message.contains("LEVEL-UP"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(mixed, Vec::<&str>::new());
}
