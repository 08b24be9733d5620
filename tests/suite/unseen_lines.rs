#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Lines of real lists deckbox had never seen (issue 42, item 3; `tests/corpus/`), each
//! class written as the list, site or app that wrote it: the printing each names is read,
//! with no `card-mismatch` or `unknown-card`, and `fmt` of `fmt` is `fmt`.

use crate::oracles::{self, embedded_db};

use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::formats::Format;
use deckbox::names::lang::Language;

/// The findings that say a line was not read as a card.
const MISSED: [&str; 3] = ["unknown-card", "card-mismatch", "parse-error"];

fn checked(text: &str, format: &str, date: &str) -> CheckedDeck {
    checked_file("list.txt", text, format, date)
}

/// [`checked`] of `text` as the file `name` (`record.json` is read as a JSON record).
fn checked_file(name: &str, text: &str, format: &str, date: &str) -> CheckedDeck {
    let format = Format::load_at(format, Some(date.parse().unwrap())).unwrap();
    check::check(
        &DeckInput::from_bytes(name, text.as_bytes()),
        embedded_db(),
        &format,
    )
}

/// Each line's card as `rules name, set code, number`, after asserting no line was missed.
fn read(text: &str, format: &str, date: &str) -> (CheckedDeck, Vec<String>) {
    let deck = checked(text, format, date);
    let missed: Vec<String> = (deck.diagnostics.iter())
        .filter(|d| MISSED.contains(&d.rule.id()))
        .map(|d| format!("{:?}: {}: {}", d.line, d.rule.id(), d.message))
        .collect();
    assert_eq!(missed, Vec::<String>::new(), "{text}");
    let cards = (deck.cards.iter())
        .map(|card| {
            let p = embedded_db()
                .get(card.printing.expect("identified"))
                .unwrap();
            format!("{}, {} {}", p.rules_name(), p.set_code, p.number)
        })
        .collect();
    (deck, cards)
}

fn rules(deck: &CheckedDeck) -> Vec<&'static str> {
    deck.diagnostics.iter().map(|d| d.rule.id()).collect()
}

/// ptcg-sim's sample lists write a Pokémon ★ without its star, next to the pokemontcg.io id
/// of the star card (`Rayquaza  ex8-107`, the Gold Star Rayquaza of EX Deoxys): the id names
/// the card, the name agrees but for the symbol a keyboard lacks. A name the id does not
/// name stays a `card-mismatch`.
#[test]
fn a_star_card_written_without_its_star_next_to_its_id() {
    let text = "1 Rayquaza  ex8-107\n1 Umbreon pop5-17\n1 Mew ex15-101\n1 Latias ex8-105\n";
    let (_, cards) = read(text, "unlimited", "2007-08-01");
    assert_eq!(
        cards,
        [
            "Rayquaza ★, DX 107",
            "Umbreon ★, P5 17",
            "Mew ★, DF 101",
            "Latias ★, DX 105",
        ]
    );
    let deck = checked("1 Latios ex8-107\n", "unlimited", "2007-08-01");
    assert!(
        rules(&deck).contains(&"card-mismatch"),
        "{:?}",
        rules(&deck)
    );
}

/// A nickname of the curated table next to the id of the card it names (`Pokegear hgss1-96`
/// for Pokégear 3.0, as ptcg-sim's 2010–11 list writes it) is that card, said so in a note;
/// next to another card's id it stays a `card-mismatch`.
#[test]
fn a_nickname_or_a_typed_symbol_next_to_a_valid_id() {
    let text = "2 Pokegear hgss1-96\n";
    let (deck, cards) = read(text, "unlimited", "2011-08-12");
    assert_eq!(cards, ["Pokégear 3.0, HS 96"]);
    assert!(rules(&deck).contains(&"read-as"), "{:?}", rules(&deck));
    let deck = checked("2 Pokegear hgss1-95\n", "unlimited", "2011-08-12");
    assert!(
        rules(&deck).contains(&"card-mismatch"),
        "{:?}",
        rules(&deck)
    );
}

/// ptcg-story's event records (2024 NAIC) write basic Energy by type, with the set
/// `Energy`: `{"name":"Psychic","set":"Energy","number":5}` is Psychic Energy.
#[test]
fn basic_energy_by_type_with_the_set_energy_in_a_json_record() {
    let text = r#"{"pokemon":[{"count":4,"name":"Ralts","set":"ASR","number":60}],"trainer":[],"energy":[{"count":7,"name":"Psychic","set":"Energy","number":5},{"count":2,"name":"Darkness","set":"Energy","number":7}]}"#;
    let (deck, cards) = read(text, "standard", "2024-06-07");
    let names: Vec<&str> = cards.iter().map(|c| c.split(',').next().unwrap()).collect();
    assert_eq!(names, ["Ralts", "Psychic Energy", "Darkness Energy"]);
    assert!(rules(&deck).contains(&"read-as"), "{:?}", rules(&deck));
}

/// A set code with no number (`4 Iono PAL`, `2 Rare Candy SVI`) is that set's printing of
/// the name; a code glued to its number (`Iono PAL185`) is that printing.
#[test]
fn a_set_code_with_no_number_or_glued_to_its_number() {
    let text = "4 Iono PAL\n2 Rare Candy SVI\n1 Boss's Orders PAL172\n";
    let (_, cards) = read(text, "standard", "2024-06-07");
    assert_eq!(
        cards[1..],
        ["Rare Candy, SVI 191", "Boss's Orders, PAL 172"]
    );
    assert!(cards[0].starts_with("Iono, PAL "), "{}", cards[0]);
}

/// `3 Ninetales EX  57` in a 2002 list (ptcg-sim's e-Card Typhlosion) is Expedition's
/// Ninetales (code `EX`), not the Ninetales-EX of 2016 that no number 57 names: read so,
/// `fmt` writes it with its code, and `fmt` of `fmt` is `fmt`.
#[test]
fn a_set_code_that_reads_as_part_of_the_name() {
    let text = "3 Ninetales EX  57\n4 Vulpix EX 136\n";
    let (deck, cards) = read(text, "unlimited", "2003-06-01");
    assert_eq!(cards, ["Ninetales, EX 57", "Vulpix, EX 136"]);
    assert!(!rules(&deck).contains(&"unknown-printing"));
    let input = DeckInput::from_bytes("list.txt", text.as_bytes());
    let formatted =
        oracles::fmt_properties("list.txt", &input, embedded_db(), oracles::formats()).unwrap();
    assert!(formatted.contains("3 Ninetales EX 57\n"), "{formatted}");
}

/// The help of each `unknown-card` finding, in line order.
fn helps(deck: &CheckedDeck) -> Vec<String> {
    (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "unknown-card")
        .map(|d| d.help.clone().unwrap_or_default())
        .collect()
}

/// Issue 50: TCGdex's Latin-American Spanish names (`es-mx`), which the card index holds
/// beside the Spanish ones, are read by `check` as `search` reads them:
/// `Determinación de Lillie MEG 119` is MEG 119 with no finding, the card `search` finds
/// for the name. A code and number of another card keep their mismatch.
#[test]
fn latin_american_spanish_names_are_read_as_search_reads_them() {
    let text = "Pokémon: 4\n4 Dragapult ex TWM 130\nEntrenador: 4\n\
                4 Determinación de Lillie MEG 119\n";
    let (deck, cards) = read(text, "standard", "2026-06-01");
    assert_eq!(cards[1], "Lillie's Determination, MEG 119");
    let lines: Vec<_> = (deck.diagnostics.iter())
        .filter(|d| d.line == Some(4))
        .map(|d| d.rule.id())
        .collect();
    assert_eq!(lines, Vec::<&str>::new());
    let db = embedded_db();
    let found = deckbox::search::search(db, "Determinación de Lillie").unwrap();
    let searched: std::collections::BTreeSet<&str> = (found.iter())
        .map(|&id| db.get(id).unwrap().rules_key())
        .collect();
    let read = db.get(deck.cards[1].printing.unwrap()).unwrap().rules_key();
    assert_eq!(searched.into_iter().collect::<Vec<_>>(), [read]);
    let deck = checked(
        "4 Determinación de Lillie MEG 118\n",
        "standard",
        "2026-06-01",
    );
    assert!(
        rules(&deck).contains(&"card-mismatch"),
        "{:?}",
        rules(&deck)
    );
}

/// Issue 50: suggestions for a misspelled name come in the list's language: a Spanish
/// list's `Caramela Rar` is offered the Spanish `Caramelo Raro`, never the Italian
/// `Caramella Rara`; a German list's `Sonderbonbonnn` the German `Sonderbonbon`. (Two slips
/// each: one slip from one card's name, `Caramela Raro`, is read as the card with a
/// `read-as` warning, `a_misspelt_name_with_no_id_is_its_one_near_card`.)
#[test]
fn suggestions_come_in_the_lists_language() {
    let spanish = "4 Dragapult ex TWM 130\n4 e-Nigma PAL 185\n4 Órdenes de Jefes PAL 172\n\
                   4 Caramela Rar\n";
    let deck = checked(spanish, "standard", "2024-06-01");
    let help = helps(&deck);
    assert_eq!(help.len(), 1, "{help:?}");
    assert!(help[0].contains("'Caramelo Raro' (Rare Candy)"), "{help:?}");
    assert!(!help[0].contains("Caramella"), "{help:?}");
    let german = "4 Katapuldra-ex TWM 130\n4 Enigmara PAL 185\n4 Befehl vom Boss PAL 172\n\
                  4 Sonderbonbonnn\n";
    let deck = checked(german, "standard", "2024-06-01");
    assert_eq!(helps(&deck), ["did you mean 'Sonderbonbon' (Rare Candy)?"]);
}

/// Hand-written lists in the other languages, as players write them (names as each
/// language prints them, a code and number or none): every line read, in the list's
/// language.
#[test]
fn hand_written_lists_in_every_language_are_read() {
    for (language, text) in [
        (
            "fr",
            "4 Lanssorien-ex TWM 130\n4 Mashynn PAL 185\n4 Super Bonbon\n4 Ordres du Boss\n",
        ),
        (
            "it",
            "4 Dragapult-ex TWM 130\n4 Kissara PAL 185\n4 Caramella Rara\n4 Ordini del Capo\n",
        ),
        (
            "pt",
            "4 Dragapult ex TWM 130\n4 Kissera PAL 185\n4 Doce Raro\n4 Ordem da Chefia\n",
        ),
        (
            "es",
            "4 Dragapult ex TWM 130\n4 e-Nigma PAL 185\n4 Caramelo Raro\n4 Órdenes de Jefes\n",
        ),
        (
            "de",
            "4 Katapuldra-ex TWM 130\n4 Enigmara\n4 Sonderbonbon\n4 Befehl vom Boss\n",
        ),
    ] {
        let (deck, cards) = read(text, "standard", "2024-06-01");
        let names: Vec<&str> = cards.iter().map(|c| c.split(',').next().unwrap()).collect();
        assert_eq!(
            names,
            ["Dragapult ex", "Iono", "Rare Candy", "Boss's Orders"],
            "{language}"
        );
        let languages: Vec<_> = (deck.cards.iter())
            .map(|c| c.language.map(|l| l.code()))
            .collect();
        assert!(
            languages[1..].iter().all(|l| *l == Some(language)),
            "{language}: {languages:?}"
        );
    }
}

/// Nidoran♀ and Nidoran♂ as players write them (`names::tests::nidoran_with_its_sex_in_letters`
/// cites the rulebook and the cards): `Nidoran F` next to its id (ptcg-sim's 2007–09
/// Abomasnow Ampharos list, line 7), and with no code `Nidoran F`, `Nidoran (F)`,
/// `Nidoran♀`, `Nidoran ♀`; the sex is part of the name, so these five copies are five of
/// one name (`copy-limit`), and the male's four are four of another. A German list writes
/// TCGdex's German names, `Nidoran M` and `Nidoran W` (`Sonderbonbon` tells its language):
/// read in German.
#[test]
fn nidoran_written_every_way_players_write_it() {
    let (_, cards) = read("2 Nidoran F pl2-71\n", "unlimited", "2009-06-01");
    assert_eq!(cards, ["Nidoran♀, RR 71"]);
    let text = "1 Nidoran F\n1 Nidoran (F)\n1 Nidoran♀\n1 Nidoran ♀\n1 Nidoran female\n\
                1 Nidoran M\n1 Nidoran (M)\n1 Nidoran♂\n1 Nidoran Male\n";
    let (deck, cards) = read(text, "unlimited", "2009-06-01");
    let names: Vec<&str> = cards.iter().map(|c| c.split(',').next().unwrap()).collect();
    assert_eq!(
        names,
        [["Nidoran♀"; 5].as_slice(), &["Nidoran♂"; 4]].concat()
    );
    let over: Vec<&str> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "copy-limit")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(over[0].contains("Nidoran♀"), "{over:?}");
    let text = "2 Nidoran M\n2 Nidoran W\n2 Nidorino\n4 Sonderbonbon\n";
    let (deck, cards) = read(text, "unlimited", "2009-06-01");
    let names: Vec<&str> = cards.iter().map(|c| c.split(',').next().unwrap()).collect();
    assert_eq!(names, ["Nidoran♂", "Nidoran♀", "Nidorino", "Rare Candy"]);
    let languages: Vec<_> = (deck.cards.iter())
        .map(|c| c.language.map(|l| l.code()))
        .collect();
    assert_eq!(languages[..2], [Some("de"), Some("de")]);
}

/// Issue 50: a list from Mexico, names as TCGdex's Latin-American Spanish (`es-mx`) prints
/// them, with no set code: each name checked in `../shared/data/tcgdex-repo` (es-mx
/// `Determinación de Lillie`, MEG 119, where Spain's is `Determinación de Lylia`;
/// `Ultrabola`, MEG 131, Spain `Ultra Ball`; `Pokochos Amigochos`, MEG 167, Spain
/// `Pokochos Gemelos`; `Árbitro`, POR 76, Spain `Juez`; `Capturador de Pokémon`, POR 82,
/// Spain `Capturapokémon`; `Globo con Helio`, MEG 166, Spain `Globo Helio`;
/// `Quitaherramientas`, WHT 85, Spain `Reciclaherramientas`; `Cambio de Energía`, MEG 115,
/// Spain `Interruptor de Energía`; `Clefairy ex de Lillie`, JTG 56; `Dawn`, PFL 87, Spain
/// `Maya`; and as in Spain `Caramelo Raro`, MEG 125, `Órdenes de Jefes`, MEG 114, `Camilla
/// Nocturna`, MEG 173, `Pokétableta`, POR 81, `Liza`, WHT 84, `Búsqueda de Energía`, POR 72). `check` reads every line, in Spanish, as
/// the card `search` finds for the name.
#[test]
fn a_latin_american_list_with_no_codes_is_read_as_search_reads_it() {
    let text = "Pokémon: 12\n4 Dreepy\n4 Drakloak\n3 Dragapult ex\n1 Clefairy ex de Lillie\n\n\
                Entrenador: 38\n4 Determinación de Lillie\n4 Ultrabola\n4 Pokochos Amigochos\n\
                4 Caramelo Raro\n3 Dawn\n2 Árbitro\n2 Capturador de Pokémon\n2 Globo con Helio\n\
                1 Quitaherramientas\n1 Cambio de Energía\n2 Órdenes de Jefes\n2 Camilla Nocturna\n\
                4 Pokétableta\n2 Liza\n1 Búsqueda de Energía\n\n\
                Energía: 10\n6 Energía Psíquica\n4 Energía Fuego\n";
    let (deck, cards) = read(text, "standard", "2026-06-01");
    let names: Vec<&str> = cards.iter().map(|c| c.split(',').next().unwrap()).collect();
    let expected = [
        "Dreepy",
        "Drakloak",
        "Dragapult ex",
        "Lillie's Clefairy ex",
        "Lillie's Determination",
        "Ultra Ball",
        "Buddy-Buddy Poffin",
        "Rare Candy",
        "Dawn",
        "Judge",
        "Pokémon Catcher",
        "Air Balloon",
        "Tool Scrapper",
        "Energy Switch",
        "Boss's Orders",
        "Night Stretcher",
        "Poké Pad",
        "Hilda",
        "Energy Search",
        "Psychic Energy",
        "Fire Energy",
    ];
    assert_eq!(names, expected);
    let languages: Vec<_> = (deck.cards.iter())
        .map(|c| c.language.map(|l| l.code()))
        .collect();
    assert!(
        languages[3..].iter().all(|l| *l == Some("es")),
        "{languages:?}"
    );
    assert_eq!(deck.card_count(), 60);
    let db = embedded_db();
    // Basic Energy by type (`Energía Psíquica`) is read by its own rule, not by name.
    for card in &deck.cards[..expected.len() - 2] {
        let read = db.get(card.printing.unwrap()).unwrap().rules_key();
        let found = deckbox::search::search(db, &card.line.name).unwrap();
        let searched: std::collections::BTreeSet<&str> = (found.iter())
            .map(|&id| db.get(id).unwrap().rules_key())
            .collect();
        assert!(searched.contains(read), "{}: {searched:?}", card.line.name);
    }
    // A name only Latin America prints is read by `check` in one step, no code needed; a
    // misspelt one is never silently read: one slip from the card's names, it is read with
    // a `read-as` warning (`a_misspelt_name_is_read_only_when_one_card_is_a_slip_away`).
    let deck = checked("4 Determinacion de Lilie\n", "standard", "2026-06-01");
    let said: Vec<_> = (deck.diagnostics.iter())
        .filter(|d| ["unknown-card", "read-as"].contains(&d.rule.id()))
        .map(|d| (d.rule.id(), d.severity))
        .collect();
    assert_eq!(
        said,
        [("read-as", deckbox::check::diagnostic::Severity::Warning)]
    );
}

/// A name misspelt next to its card's id (`2 Cytnhia's Feelings dp6-131`, ptcg-sim's 2007–09
/// Abomasnow Ampharos list, line 17; `1 Azelv Lv.X dp6-140`, its AMU list, line 9) is the
/// id's card, said so in a `read-as` note. A name as far from the id's card as another
/// card's (`Fighting Energy dp1-126`, a Lightning Energy: ptcg-sim's Machamp list, line 25)
/// stays a `card-mismatch`, and so does a basic Energy of another type.
#[test]
fn a_name_misspelt_next_to_its_id() {
    let text = "2 Cytnhia's Feelings dp6-131\n1 Azelv Lv.X dp6-140\n";
    let (deck, cards) = read(text, "unlimited", "2009-06-01");
    assert_eq!(cards, ["Cynthia's Feelings, LA 131", "Azelf, LA 140"]);
    assert_eq!(
        rules(&deck).iter().filter(|r| **r == "read-as").count(),
        2,
        "{:?}",
        rules(&deck)
    );
    for line in ["1 Fighting Energy dp1-126\n", "1 Water Energy dp1-126\n"] {
        let deck = checked(line, "unlimited", "2009-06-01");
        assert!(
            rules(&deck).contains(&"card-mismatch"),
            "{line}: {:?}",
            rules(&deck)
        );
    }
}

/// A series' letters glued to a number are its first set when no printing of the name
/// carries the number as written (issue 42, item 3): `Patrat BW77` in a Black & White list
/// is Black & White 77, read by its printing (no `unknown-printing`); `Reshiram BW4`, a
/// promo's own number, stays the promo.
#[test]
fn a_series_glued_to_a_number_is_its_first_set() {
    let (deck, cards) = read("1 Patrat BW77\n1 Reshiram BW4\n", "unlimited", "2011-08-12");
    assert_eq!(cards, ["Patrat, BLW 77", "Reshiram, BWP BW4"]);
    assert!(
        !rules(&deck).contains(&"unknown-printing"),
        "{:?}",
        rules(&deck)
    );
}

/// Forum and fan-site lists of 2000–2016 (`tests/corpus/lists/{sixprizes,pokebeach,
/// heytrainer,pojo}`) write basic Energy by the type's symbol letter (`10 L`, `4 R`) or by
/// the Wizards-era type name (`7 Electric Energy`), and a few cards by the nicknames of
/// `src/names/nicknames.tsv` (`4 Oak`, `3 ER`, `4 PokeTurn`, `3 Call`, `2 Prism`,
/// `4 Double Colourless`): each is read as the card, with a `read-as` note for shorthand.
#[test]
fn energy_letters_and_forum_nicknames() {
    let text = "10 L\n4 R\n4 Double Colourless\n2 Prism\n";
    let (deck, cards) = read(text, "standard", "2012-04-06");
    assert_eq!(
        cards[..2],
        ["Lightning Energy, BLW 108", "Fire Energy, BLW 106"],
        "{cards:?}"
    );
    assert!(
        cards[2].starts_with("Double Colorless Energy,"),
        "{cards:?}"
    );
    assert!(cards[3].starts_with("Prism Energy,"), "{cards:?}");
    assert_eq!(
        rules(&deck).iter().filter(|r| **r == "read-as").count(),
        4,
        "{:?}",
        rules(&deck)
    );
    let text = "4 Oak\n3 ER\n7 Electric Energy\n";
    let (_, cards) = read(text, "unlimited", "2000-07-31");
    assert!(cards[0].starts_with("Professor Oak,"), "{cards:?}");
    assert!(cards[1].starts_with("Energy Removal,"), "{cards:?}");
    assert!(cards[2].starts_with("Lightning Energy,"), "{cards:?}");
    let text = "4 PokeTurn\n3 Call\n1 Toxicroak G Promo\n";
    let (_, cards) = read(text, "standard", "2011-01-10");
    assert!(
        cards[0].starts_with("Team Galactic's Invention G-105 Poké Turn,"),
        "{cards:?}"
    );
    assert!(cards[1].starts_with("Call Energy,"), "{cards:?}");
    assert!(cards[2].starts_with("Toxicroak G,"), "{cards:?}");
    // thetopcut.net's 2012 lists tell basic Energy from special with `(Basic)`.
    let text = "7 Darkness (Basic)\n3 Metal (Basic)\n4 Rainbow\n";
    let (_, cards) = read(text, "standard", "2012-08-31");
    assert!(cards[0].starts_with("Darkness Energy,"), "{cards:?}");
    assert!(cards[1].starts_with("Metal Energy,"), "{cards:?}");
    assert!(cards[2].starts_with("Rainbow Energy,"), "{cards:?}");
    // `N` is a card's whole name: a letter is a type only when no card has it.
    let (_, cards) = read("4 N\n", "standard", "2012-04-06");
    assert!(cards[0].starts_with("N,"), "{cards:?}");
}

/// Posts head the Trainer section `TSS 27` (Trainers, Supporters, Stadiums), write a card's
/// number after `#` and a note in parentheses, glued or not (`2 Tynamo #39 (Free Retreat)`,
/// `4 Electabuzz(Tons of people at my league play Raindance)`), and two printings' codes
/// with a slash (`2 Smeargle UD/CL`).
#[test]
fn forum_headers_numbers_notes_and_two_codes() {
    let text = "Pokémon 3\n2 Tynamo #39 (Free Retreat)\n1 Tynamo #38 (40hp)\nTSS 2\n2 N\nEnergy 2\n2 Smeargle UD/CL\n";
    let (deck, cards) = read(text, "standard", "2012-08-31");
    assert!(
        cards.iter().take(2).all(|c| c.starts_with("Tynamo,")),
        "{cards:?}"
    );
    assert!(cards[2].starts_with("N,"), "{cards:?}");
    assert!(cards[3].starts_with("Smeargle,"), "{cards:?}");
    assert!(
        !rules(&deck).contains(&"header-count"),
        "{:?}",
        rules(&deck)
    );
    let text = "4 Electabuzz(Tons of people at my league play Raindance)\n3 Scyther(Always good)\n";
    let (_, cards) = read(text, "unlimited", "2000-07-31");
    assert!(cards[0].starts_with("Electabuzz,"), "{cards:?}");
    assert!(cards[1].starts_with("Scyther,"), "{cards:?}");
}

/// thetopcut.net's 2012 Dutch Nationals Darkrai list tells its 4 special Darkness Energy
/// from its 7 basic ones with `(Special)` (`4 Darkness (Special)`, below `7 Darkness
/// (Basic)`): the special Energy is the card named Darkness Energy whose text says
/// "Darkness Energy provides Darkness Energy. (Doesn't count as a basic Energy card.)"
/// (Undaunted 79), so the line is that card, never the basic one; Metal likewise. A type
/// with no special Energy of its name (`Fire (Special)`) stays unknown.
#[test]
fn special_energy_told_by_special() {
    let text = "7 Darkness (Basic)\n4 Darkness (Special)\n3 Metal (Special)\n";
    let (deck, cards) = read(text, "standard", "2012-08-31");
    assert!(cards[1].starts_with("Darkness Energy,"), "{cards:?}");
    assert!(cards[2].starts_with("Metal Energy,"), "{cards:?}");
    let basic = |at: usize| {
        embedded_db()
            .get(deck.cards[at].printing.unwrap())
            .unwrap()
            .is_basic_energy()
    };
    assert!(basic(0), "{cards:?}");
    assert!(!basic(1) && !basic(2), "{cards:?}");
    assert!(rules(&deck).contains(&"read-as"), "{:?}", rules(&deck));
    let deck = checked("4 Fire (Special)\n", "standard", "2012-08-31");
    assert!(rules(&deck).contains(&"unknown-card"), "{:?}", rules(&deck));
}

/// Wizards-era posts name a Black Star promo by a word before the name: `MP` for the Movie
/// Promo (`3 MP Mewtwo(Takes out 'Chan,Ditto, 'Kazam, and almost everything else.)`,
/// pojo.com's July 2000 league deck) or `Promo`; the note after it is kept as its comment.
/// A name that is a card's whole name is never cut (`Mr. Mime` keeps its first word).
#[test]
fn promo_word_before_the_name() {
    let text = "3 MP Mewtwo(Takes out 'Chan,Ditto, 'Kazam, and almost everything else.)\n1 Promo Mewtwo\n2 Mr. Mime\n";
    let (_, cards) = read(text, "unlimited", "2000-07-31");
    assert!(cards[0].starts_with("Mewtwo,"), "{cards:?}");
    assert!(cards[1].starts_with("Mewtwo,"), "{cards:?}");
    assert!(cards[2].starts_with("Mr. Mime,"), "{cards:?}");
    let deck = checked("3 MP\n", "unlimited", "2000-07-31");
    assert!(rules(&deck).contains(&"unknown-card"), "{:?}", rules(&deck));
}

/// A promo word names a Black Star promo of the name, legal at the list's date, not the
/// newest printing: HeyTrainer's list for the 2011-01-10 College Station City Championship
/// writes `1 Toxicroak G Promo` (line 25): the promo DP41 (Fighting), not Platinum's PL 40
/// (Psychic); pojo.com's Super Trainer Showdown lists of 2000-07-22 write `2 Promo Mewtwo`,
/// `1 Promo Eevee` and `4x Mewtwo (Promo 3 and 14)` (Wizards promos 3 and 14, one card: the
/// number chooses 3), a 2001 list `2 Igglybuff (lv. 5 promo)`: the Level 5 Wizards promo PR
/// 36 (pokemon-tcg-data `basep.json`: level 5; Neo Discovery's N2 40 is level 6). In French
/// (`Coatox G Promo`, `Promo Évoli`, `Toudoudou (promo)`) the promo is found by its card's
/// English name where it has no French one; `Iono Promo` in 2024 is SVP 124. A name with
/// no Black Star promo keeps its reading.
#[test]
fn a_promo_word_chooses_the_promo() {
    let (_, cards) = read("1 Toxicroak G Promo\n", "standard", "2011-01-10");
    assert_eq!(cards, ["Toxicroak G, PR-DPP DP41"]);
    let text =
        "2 Promo Mewtwo\n1 Promo Eevee\n4x Mewtwo (Promo 3 and 14)\n2 Igglybuff (lv. 5 promo)\n";
    let (_, cards) = read(text, "unlimited", "2001-06-23");
    assert!(cards[0].starts_with("Mewtwo, PR "), "{cards:?}");
    assert_eq!(
        cards[1..],
        ["Eevee, PR 11", "Mewtwo, PR 3", "Igglybuff, PR 36"],
        "{cards:?}"
    );
    let text = "1 Coatox G Promo\n1 Promo Évoli\n1 Toudoudou (promo)\n";
    let (deck, cards) = read(text, "unlimited", "2011-01-10");
    assert_eq!(
        cards,
        [
            "Toxicroak G, PR-DPP DP41",
            "Eevee, PR 11",
            "Igglybuff, PR 36"
        ],
        "{cards:?}"
    );
    assert!(
        (deck.cards.iter()).all(|card| card.language == Some(Language::Fr)),
        "{:?}",
        deck.cards
    );
    let (_, cards) = read("4 Iono Promo\n4 Iono\n", "standard", "2024-06-01");
    assert_eq!(cards[0], "Iono, SVP 124", "{cards:?}");
    assert_ne!(cards[1], "Iono, SVP 124", "{cards:?}");
    // Rare Candy has no Black Star promo (POP Series 5's and 8's are no Black Star set).
    let (_, cards) = read(
        "4 Rare Candy Promo\n4 Rare Candy\n",
        "standard",
        "2024-06-01",
    );
    assert_eq!(cards[0], cards[1], "{cards:?}");
}

/// Words that name one promo series keep that series' promos, at any date: `MP` and `Movie`
/// are Wizards' Black Star promos (`4 Movie Mewtwo`, pojo.com's 2000 Tulsa report; `3 MP
/// Mewtwo`, its July 2000 league deck): Wizards promo 3 judged today as in 2000, where
/// `Promo Mewtwo` judged today is the newest Mewtwo promo (SVP 52). A series word before
/// `Promo` names that series' (`SWSH Promo`, `Nintendo Promo`: the first word of each
/// series' set name, `cards/set-names.tsv`), and a series with no promo of the name leaves
/// the line's reading as it was.
#[test]
fn promo_words_name_their_series_at_any_date() {
    let text = "4 Movie Mewtwo\n3 MP Mewtwo\n2 Promo Mewtwo\n";
    let (_, today) = read(text, "unlimited", "2026-11-25");
    assert_eq!(
        today,
        ["Mewtwo, PR 3", "Mewtwo, PR 3", "Mewtwo, SVP 52"],
        "{today:?}"
    );
    let (_, then) = read(text, "unlimited", "2000-03-11");
    assert_eq!(then[..2], ["Mewtwo, PR 3", "Mewtwo, PR 3"], "{then:?}");
    assert!(then[2].starts_with("Mewtwo, PR "), "{then:?}");
    let text = "1 Jirachi Nintendo Promo\n2 Zacian V SWSH Promo\n2 SWSH Promo Zacian V\n1 Mew (Nintendo promo)\n";
    let (deck, cards) = read(text, "unlimited", "2026-11-25");
    assert_eq!(
        cards,
        [
            "Jirachi, PR-NP 21",
            "Zacian V, SWSHP SWSH18",
            "Zacian V, SWSHP SWSH18",
            "Mew, PR-NP 40"
        ],
        "{cards:?}"
    );
    assert!(
        !rules(&deck).contains(&"unknown-printing"),
        "{:?}",
        rules(&deck)
    );
    // No Sword & Shield promo is a Mewtwo: the line keeps the reading of its name alone.
    let (_, cards) = read("1 Mewtwo SWSH Promo\n1 Mewtwo\n", "unlimited", "2026-11-25");
    assert_eq!(cards[0], cards[1], "{cards:?}");
}

/// A note naming an attack or an ability of one of the cards of a name chooses that card
/// (`names::notes` gives the rule for the words): pokemoncardjp.com.au's report of the
/// 2019-04 Chiba Champions League writes `1 Marshadow (Reset Hole)` (line 9), Unbroken
/// Bonds' Marshadow (UNB 81, ability Resetting Hole), not Shining Legends' (Let Loose), the
/// Marshadow of the list's date. The list is from a Japanese event three days before
/// Unbroken Bonds' English release (2019-05-03): the card the note names is read, and
/// judged at the date (`not-legal`); a month later it is legal. The note may be in the
/// list's language (`Trou de Réinit`, as TCGdex's French name of the ability begins), and
/// a note that names no move of one card (`my tech`) leaves the reading by date.
#[test]
fn a_note_naming_an_attack_or_ability_chooses_the_card() {
    let deck = checked("1 Marshadow (Reset Hole)\n", "standard", "2019-04-30");
    let printing = embedded_db().get(deck.cards[0].printing.unwrap()).unwrap();
    assert_eq!(
        (printing.set_code.as_str(), printing.number.as_str()),
        ("UNB", "81")
    );
    assert!(rules(&deck).contains(&"not-legal"), "{:?}", rules(&deck));
    let text = "1 Marshadow (Reset Hole)\n1 Marshadow (Trou de Réinit)\n1 Marshadow (let loose)\n";
    let (deck, cards) = read(text, "standard", "2019-06-01");
    assert_eq!(
        cards,
        [
            "Marshadow, UNB 81",
            "Marshadow, UNB 81",
            "Marshadow, SLG 45"
        ],
        "{cards:?}"
    );
    assert!(!rules(&deck).contains(&"not-legal"), "{:?}", rules(&deck));
    assert!(
        !rules(&deck).contains(&"ambiguous-card"),
        "{:?}",
        rules(&deck)
    );
    // A deck compares its first 50 such notes (`MAX_NOTES_COMPARED`, docs/security.md):
    // a hostile file of noted lines reads no more texts than that.
    let text = "1 Marshadow (Reset Hole)\n".repeat(52);
    let deck = checked(&text, "standard", "2019-04-30");
    let unb = (deck.cards.iter())
        .filter(|card| {
            let printing = embedded_db().get(card.printing.unwrap()).unwrap();
            printing.set_code == "UNB"
        })
        .count();
    assert_eq!(unb, 50);
    let (_, cards) = read(
        "1 Marshadow (my tech)\n1 Marshadow\n",
        "standard",
        "2019-04-30",
    );
    assert_eq!(cards[0], cards[1], "{cards:?}");
}

/// Pojo's Killer Deck Reports of 1999–2001 name Wizards-era cards by the shorthand of the
/// day, each now in `src/names/nicknames.tsv` with the report that uses it: `4 SER`,
/// `3 CPU Search`, `3 Fossil` (Mysterious Fossil), and `3 ER` with a note after it, as the
/// same reports write notes (`3 Scyther(Always good)`); a 2000 Super Trainer Showdown
/// report writes `4 Rocket Sneak Attack`. Each nickname is read with a `read-as` note. `3
/// MP Mewtwo(Takes out …)` and `4 Movie Mewtwo` are read as a promo word before the name
/// (`promo_word_before_the_name`), which names the card as printed and needs none: the
/// Movie Promo, Black Star promo 3 (Energy Absorption), not Base Set's Mewtwo (Barrier),
/// which the nickname read before (truth7's audit, docs/corpus.md).
#[test]
fn killer_deck_report_shorthand() {
    let (_, cards) = read("4 Rocket Sneak Attack\n", "unlimited", "2000-09-30");
    assert!(cards[0].starts_with("Rocket's Sneak Attack,"), "{cards:?}");
    let text = "4 SER\n3 CPU Search\n3 Fossil\n3 ER(Always good)\n4 Movie Mewtwo\n3 MP Mewtwo(Takes out 'Chan,Ditto, 'Kazam, and almost everything else.)\n";
    let (deck, cards) = read(text, "unlimited", "2000-07-31");
    assert!(cards[0].starts_with("Super Energy Removal,"), "{cards:?}");
    assert!(cards[1].starts_with("Computer Search,"), "{cards:?}");
    assert!(cards[2].starts_with("Mysterious Fossil,"), "{cards:?}");
    assert!(cards[3].starts_with("Energy Removal,"), "{cards:?}");
    assert_eq!(cards[4..], ["Mewtwo, PR 3", "Mewtwo, PR 3"]);
    assert_eq!(
        rules(&deck).iter().filter(|r| **r == "read-as").count(),
        4,
        "{:?}",
        rules(&deck)
    );
}

/// Killer Deck Reports of 2000 head a section with its count first (`20 Pokemon:`,
/// `x15 Pokemon`, `x27 Trainers`): a header, never 20 cards named `Pokemon:`; and a card
/// line with the count after an `x` (`x4 Hitmonchan`) stays a card line.
#[test]
fn count_first_section_headers() {
    let text = "20 Pokemon:\n4x Gastly (Fossil)\nx15 Pokemon\nx4 Hitmonchan\nx27 Trainers\nx4 Pluspower\n18 Energy\n4 Energy Removal\n";
    let (_, cards) = read(text, "unlimited", "2000-07-22");
    assert_eq!(cards.len(), 4, "{cards:?}");
    assert!(cards[0].starts_with("Gastly,"), "{cards:?}");
    assert!(cards[1].starts_with("Hitmonchan,"), "{cards:?}");
    assert!(cards[2].starts_with("PlusPower,"), "{cards:?}");
    assert!(cards[3].starts_with("Energy Removal,"), "{cards:?}");
}

/// Wizards-era reports write a card as they say it: a note after an ellipsis in brackets
/// (`2 Magby... [useful in a pinch]`), a shorthand spelled out in parentheses (`3
/// NGR(Nightly Garbage Run)`), the plural (`3 Pluspowers`, `2 Scoop Ups`), the level after
/// the name (`2 Mewtwo L60... [absorb = speed-kazam]`, as Wizards cards print `LV. 60`),
/// and `Prof. Oak` (nicknames.tsv). Each reads the card the words name; a name no card has
/// in any of these shapes stays unknown.
#[test]
fn wizards_era_post_shapes() {
    let text = "2 Magby... [useful in a pinch]\n3 NGR(Nightly Garbage Run)\n3 Pluspowers\n2 Scoop Ups\n2 Mewtwo L60... [absorb = speed-kazam]\n4 Sabrina's Abra L18... [what a gr8 poke!]\n3 Prof. Oak\n";
    let (_, cards) = read(text, "unlimited", "2001-06-23");
    let names = card_names(&cards);
    assert_eq!(
        names,
        [
            "Magby",
            "Nightly Garbage Run",
            "PlusPower",
            "Scoop Up",
            "Mewtwo",
            "Sabrina's Abra",
            "Professor Oak"
        ]
    );
    let deck = checked("3 Blastoises L99\n", "unlimited", "2001-06-23");
    assert!(rules(&deck).contains(&"unknown-card"), "{:?}", rules(&deck));
}

/// A type word with a note read without it must not turn thetopcut.net's `4 Darkness
/// (Special)` (the special Darkness Energy) into the basic one: the note "Special" keeps
/// the nickname reading off, and the line is the special card (`special_energy_told_by_special`).
#[test]
fn a_special_energy_note_is_never_read_as_basic() {
    let deck = checked("4 Darkness (Special)\n", "standard", "2012-08-31");
    assert!(
        !rules(&deck).contains(&"unknown-card"),
        "{:?}",
        rules(&deck)
    );
    let printing = deck.cards[0].printing.unwrap();
    assert!(!embedded_db().get(printing).unwrap().is_basic_energy());
}

/// Super Trainer Showdown reports of 2000 name a Wizards set before or after the card (`3
/// Fossil Magmar`, `3 Magmar Fossil`) and put the word `Promo` first (`2 Promo Mewtwo`);
/// the shorthand `Comp. Search`, `Itemfinder`, `FH Energy` and `Challenge` (for
/// `Challenge!`) is in nicknames.tsv with the report that uses it.
#[test]
fn sts_report_set_words_and_promo_first() {
    let text = "3 Fossil Magmar\n3 Magmar Fossil\n2 Promo Mewtwo\n3 Comp. Search\n2 Itemfinder\n2 FH Energy\n2 Challenge\n";
    let (_, cards) = read(text, "unlimited", "2000-09-23");
    let names = card_names(&cards);
    assert_eq!(
        names,
        [
            "Magmar",
            "Magmar",
            "Mewtwo",
            "Computer Search",
            "Item Finder",
            "Full Heal Energy",
            "Challenge!"
        ]
    );
    // The set named is the printing read: Fossil's Magmar (FO 39), not Neo Genesis's.
    assert!(cards[0].starts_with("Magmar, FO 39"), "{cards:?}");
    assert!(cards[1].starts_with("Magmar, FO 39"), "{cards:?}");
}

/// Issue 42 names set-name prefixes (`Base Squirtle`): the Wizards sets players told apart by
/// name, before or after the card, as `Squirtle BS` would be read (`Base Set Squirtle`,
/// `Jungle Scyther`, `Team Rocket Dark Raichu`).
#[test]
fn wizards_set_names_choose_the_printing() {
    let text =
        "2 Base Squirtle\n2 Base Set Squirtle\n4 Jungle Scyther\n1 Team Rocket Dark Raichu\n";
    let (_, cards) = read(text, "unlimited", "2000-09-23");
    for (card, printing) in cards.iter().zip([
        "Squirtle, BS 63",
        "Squirtle, BS 63",
        "Scyther, JU 10",
        "Dark Raichu, TR 83",
    ]) {
        assert!(card.starts_with(printing), "{cards:?}");
    }
}

/// The card names of `read`'s cards (each `Name, SET n`).
fn card_names(cards: &[String]) -> Vec<&str> {
    cards
        .iter()
        .map(|c| c.split(',').next().unwrap_or_default())
        .collect()
}

/// TCGdex's own set codes (`EP` for Emerging Powers, `TRI` for Triumphant: column
/// `tcgdexOfficialAbbr` of ../shared/data/derived/set-codes.json) and the short codes of 2012
/// posts (`BW`) name the printing, as the PTCGO codes deckbox indexes by do. `TR`, which
/// TCGdex gives Team Rocket Returns and PTCGO Team Rocket, is the set that prints the card at
/// that number, deckbox's own (Team Rocket) when both do, so that `fmt`'s lines read back as
/// themselves. `4 Cilan EP 86` stays Cilan by its name (Emerging Powers' 86 is Rufflet;
/// Cilan is Next Destinies 86).
#[test]
fn tcgdex_and_post_set_codes() {
    let text = "4 Cheren EP 91\n1 Seeker TRI 88\n1 Zekrom BW 114\n2 Patrat BW 77\n";
    let (_, cards) = read(text, "standard", "2012-04-01");
    assert_eq!(
        cards,
        [
            "Cheren, EPO 91",
            "Seeker, TM 88",
            "Zekrom, BLW 114",
            "Patrat, BLW 77"
        ]
    );
    let text = "1 Rocket's Admin. TR 86\n1 Dark Raichu TR 83\n1 Dratini TR 53\n";
    let (_, cards) = read(text, "unlimited", "2005-06-01");
    assert_eq!(
        cards,
        [
            "Rocket's Admin., TRR 86",
            "Dark Raichu, TR 83",
            "Dratini, TR 53"
        ]
    );
    let (deck, cards) = read("4 Cilan EP 86\n", "standard", "2012-04-01");
    assert_eq!(cards, ["Cilan, NXD 86"]);
    assert!(rules(&deck).contains(&"unknown-printing"), "{deck:?}");
}

/// Dead Draw Gaming's list for the 2016 Madison Regional Championship
/// (`deaddrawgaming/2016-madison-regionals-turbo-dark.txt`): `2x Name from SET n/total`, a
/// nickname in brackets before `from`, and `Juniper` and `Trainer Mail`, the nicknames
/// N-era lists write (curated in `src/names/nicknames.tsv` with this list as the source).
#[test]
fn dead_draw_gaming_from_lines_and_nicknames() {
    let text = "2x Darkrai EX from DEX 63/108\n1x Yveltal (baby) from XY 78/146\n4x Juniper\n4x Trainer Mail\n";
    let (deck, cards) = read(text, "expanded", "2016-08-31");
    let names = card_names(&cards);
    assert_eq!(
        names,
        [
            "Darkrai EX",
            "Yveltal",
            "Professor Juniper",
            "Trainers' Mail"
        ]
    );
    assert!(cards[0].ends_with("DEX 63"), "{cards:?}");
    assert!(cards[1].ends_with("XY 78"), "{cards:?}");
    assert_eq!(rules(&deck).iter().filter(|r| **r == "read-as").count(), 2);
}

/// PokéGym's 2008 Orlando Battle Roads report (`pokegym/2008-05-24-orlando-battle-roads-leafeon.txt`)
/// writes the count after the name, then a set code or a note in brackets (`Treecko x3
/// (GE)`, `Leafeon x2 (Leaf Guard One)`), and the level after a Pokémon (`Leafeon Lv. X
/// x2`): the code names the printing, the note is left out. SixPrizes' 2011 Arizona State
/// Championship list writes a special Energy with `Special` first (`4 Special M`, the
/// Metal Energy that is not basic) and `2 Warp` (Warp Energy), and `LV.X` after the name.
#[test]
fn pokegym_counts_after_names_and_sixprizes_energy() {
    let text = "    Treecko x3 (GE)\n    Leafeon x2 (Leaf Guard One)\n    Leafeon Lv. X x2\n    Scramble x2\n";
    let (deck, cards) = read(text, "unlimited", "2008-05-24");
    let counts: Vec<u32> = deck.cards.iter().map(|c| c.line.count).collect();
    assert_eq!(counts, [3, 2, 2, 2]);
    assert_eq!(
        card_names(&cards),
        ["Treecko", "Leafeon", "Leafeon", "Scramble Energy"]
    );
    assert!(cards[0].ends_with("GE 90"), "{cards:?}");
    assert!(cards[2].ends_with("MD 99"), "{cards:?}");
    let text = "4 Special M\n2 Warp\n2 Dialga G LV.X\n1 Uxie LV.X\n2 Uxie\n";
    let (deck, cards) = read(text, "standard", "2011-03-23");
    // Dialga G LV.X is Platinum 122, Uxie LV.X Legends Awakened 146, the Uxie LA 43.
    assert_eq!(
        cards,
        [
            "Metal Energy, CL 87",
            "Warp Energy, SF 95",
            "Dialga G, PL 122",
            "Uxie, LA 146",
            "Uxie, LA 43"
        ]
    );
    let special = (deck.cards[0].printing)
        .and_then(|id| embedded_db().get(id))
        .is_some_and(|p| !p.is_basic_energy());
    assert!(special, "{cards:?}");
}

/// A Trainer played as a Basic Pokémon, listed under the Pokémon header, is not in the wrong
/// section: rulebook-en-sun-moon.txt, Glossary, "FOSSIL TRAINER CARDS: A special kind of
/// Trainer card that acts like a Basic Pokémon when put into play", and Appendix D,
/// "Unidentified Fossil ... can be played as a Basic Pokémon". Another Trainer there is.
#[test]
fn fossil_trainers_listed_under_pokemon() {
    let text = "Pokemon: 8\n4 Aerodactyl\n3 Mysterious Fossil\n1 Clefairy Doll\n";
    let deck = checked(text, "unlimited", "2000-06-01");
    assert!(!rules(&deck).contains(&"wrong-section"), "{deck:?}");
    let deck = checked(
        "Pokémon: 3\n2 Unidentified Fossil UPR 134\n1 Aerodactyl TEU 106\n",
        "standard",
        "2019-06-01",
    );
    assert!(!rules(&deck).contains(&"wrong-section"), "{deck:?}");
    let deck = checked(
        "Pokemon: 5\n4 Aerodactyl\n1 Computer Search\n",
        "unlimited",
        "2000-06-01",
    );
    assert!(rules(&deck).contains(&"wrong-section"), "{deck:?}");
}

/// A Portuguese PTCG Live export of October 2026 (`tests/corpus/lists/ptcgl-swapper/`) names
/// cards of 30th Celebration, whose PTCG Live code starts with digits (`1 Unown 30C 72`,
/// `3 Mew ex 30C 66`; the set's code and date, 2026-09-16, as pokemontcg.io lists them in
/// that repository's `src/config/setsSnapshot.ts`). `30C` is a set code, never the end of
/// the name: the line names Unown, and a set the index does not hold yet says so
/// (`unknown-printing`) instead of `unknown card 'Unown 30C 72'`.
#[test]
fn a_set_code_that_starts_with_digits() {
    let text = "1 Unown 30C 72\n3 Mew ex 30C 66\n";
    let (deck, cards) = read(text, "standard", "2026-10-08");
    assert_eq!(card_names(&cards), ["Unown", "Mew ex"]);
    let printings = (rules(&deck).into_iter())
        .filter(|rule| *rule == "unknown-printing")
        .count();
    assert_eq!(printings, 2, "{:?}", rules(&deck));
    // The finding says the set is none of the index's, which set the index ends with, and
    // how to get newer sets; the same whatever the list's language (the Portuguese list's
    // `3 Ultra Ball 30C 128`, `tests/corpus/lists/ptcg-overlay/team-rocket-pt.txt` 23, and
    // a Portuguese name, `Bola de Ninho`, Nest Ball).
    for text in [
        "1 Unown 30C 72\n",
        "3 Ultra Ball 30C 128\n",
        "2 Bola de Ninho 30C 99\n",
    ] {
        let deck = checked(text, "standard", "2026-10-08");
        let finding = (deck.diagnostics.iter())
            .find(|d| d.rule.id() == "unknown-printing")
            .unwrap();
        assert!(
            finding
                .message
                .starts_with("no set in the card index has the code 30C; "),
            "{}",
            finding.message
        );
        let help = finding.help.as_deref().unwrap_or_default();
        assert!(
            help.contains("the card index ends with ")
                && help.contains("if 30C is a set released since, run `deckbox cards update`"),
            "{help}"
        );
    }
    // A code one letter off a known one is a typo, and keeps its guess.
    let deck = checked("4 Ultra Ball SVJ 196\n", "standard", "2026-10-08");
    let finding = (deck.diagnostics.iter())
        .find(|d| d.rule.id() == "unknown-printing")
        .unwrap();
    assert!(
        !finding.message.contains("card index"),
        "{}",
        finding.message
    );
}

/// pojo.com's report of the 2000-07-22 Vancouver Super Trainer Showdown
/// (`tests/corpus/lists/pojo/2000-07-22-vancouver-psychic-tornado.txt`, lines 3 and 13)
/// names a Wizards set in parentheses after the card: `4x Gastly (Fossil)` is Fossil's
/// Gastly (FO 33, a different card from Base Set's and Base Set 2's Gastly, whose attacks
/// differ), `1x Professor Oak (Base)` is Base Set's. The names drop a parenthesis as a
/// pictured person's, so the set was lost and the newest Gastly read. Other words in
/// parentheses stay what they were (`(baby)`, a note). A set's name alone in the note says
/// no more than its code: `fmt` writes the code and no comment.
#[test]
fn wizards_set_in_parentheses_after_the_card() {
    let text =
        "4x Gastly (Fossil)\n1x Professor Oak (Base)\n2x Dark Raichu (Rocket)\n1x Yveltal (baby)\n";
    let (deck, cards) = read(text, "unlimited", "2000-07-31");
    assert_eq!(
        cards[..3],
        [
            "Gastly, FO 33",
            "Professor Oak, BS 88",
            "Dark Raichu, TR 83"
        ]
    );
    assert_eq!(deck.cards[3].line.name, "Yveltal (baby)");
    assert_eq!(deck.cards[0].line.comment, None);
    // Shorthand is read by its name, then the note's set (line 17 of the report, `1x CPU
    // Search (Base)`: Base Set's Computer Search, not the ACE SPEC).
    let (_, cards) = read(
        "1x CPU Search (Base)\n3 Grass (Base)\n",
        "unlimited",
        "2000-07-31",
    );
    assert_eq!(cards, ["Computer Search, BS 71", "Grass Energy, BS 99"]);
}

/// A set named in a line's note, in the list's language (issue 42, `set-name-in-note`):
/// `2 x Glurak ex (das andere aus 151)` (PokéPhil's list of 2024-03-05,
/// `tests/corpus/lists/codes4tcg/pokephil-2024-03-05-syi8u7bih5m.txt`, line 4: "the other
/// one, from 151") is the Charizard ex of 151 (MEW 6), not Paldean Fates' (PAF 54), the
/// newest, which the name alone reads; and so in the six languages, in brackets or after
/// a dash. The note stays the line's comment. A note that names no set by the rule of
/// `names::sets` (`(2 of 151 cards)`), or a set with no printing of the card (151 prints
/// no Iono), leaves the line read by its name.
#[test]
fn a_set_named_in_a_note_is_the_lines_set() {
    let text = "2 x Glurak ex (das andere aus 151)\n\
                1 Charizard ex (the one from Obsidian Flames)\n\
                1 Dracaufeu-ex (celui de Flammes Obsidiennes)\n\
                1 Charizard ex (la de Llamas Obsidianas)\n\
                1 Charizard-ex (quello di Ossidiana Infuocata)\n\
                1 Charizard ex - o de Obsidiana em Chamas\n\
                1 Glurak-ex (aus 151)\n\
                1 Charizard ex (151)\n";
    let (deck, cards) = read(text, "standard", "2024-03-05");
    assert_eq!(
        cards,
        [
            "Charizard ex, MEW 6",
            "Charizard ex, OBF 125",
            "Charizard ex, OBF 125",
            "Charizard ex, OBF 125",
            "Charizard ex, OBF 125",
            "Charizard ex, OBF 125",
            "Charizard ex, MEW 6",
            "Charizard ex, MEW 6",
        ]
    );
    assert_eq!(
        deck.cards[0].line.comment.as_deref(),
        Some("(das andere aus 151)")
    );
    assert!(
        !rules(&deck).contains(&"unknown-printing"),
        "{:?}",
        rules(&deck)
    );
    let (_, cards) = read(
        "2 Charizard ex (2 of 151 cards)\n2 Charizard ex (151 cards)\n4 Iono (from 151)\n",
        "standard",
        "2024-03-05",
    );
    assert_eq!(
        cards,
        [
            "Charizard ex, PAF 54",
            "Charizard ex, PAF 54",
            "Iono, PAF 80"
        ]
    );
}

/// A name misspelt with no id, as real event lists print it (issue 42, item 3), is the one
/// card whose name it spells but for one slip (a letter added, dropped or changed, or two
/// neighbours swapped), said so in a `read-as` warning: `1x Lysander` (Dead Draw Gaming,
/// 2016 Madison Regional, line 19), `2 Proffessor Juniper` and `4 Proffessor Oak’s New
/// Theory` (PokéBeach, 2011 Canberra City Championship, lines 13 and 14), `2 Random
/// Reciever` (thetopcut, 2012 Dutch Nationals, line 14), `3 Hitmochan` (Pojo, 2000 Super
/// Trainer Showdown, line 1), `2 Impostor Oak's Revenge` (Pojo, 2000 West Dundee, line 16).
/// Each list was legal at its event and is judged so.
#[test]
fn a_misspelt_name_with_no_id_is_its_one_near_card() {
    use deckbox::check::diagnostic::Severity;
    let text = "1x Lysander\n2 Proffessor Juniper\n4 Proffessor Oak’s New Theory\n\
                2 Random Reciever\n3 Hitmochan\n2 Impostor Oak's Revenge\n";
    let (deck, cards) = read(text, "unlimited", "2016-08-31");
    assert_eq!(
        card_names(&cards),
        [
            "Lysandre",
            "Professor Juniper",
            "Professor Oak's New Theory",
            "Random Receiver",
            "Hitmonchan",
            "Imposter Oak's Revenge",
        ]
    );
    let notes: Vec<(Severity, &str)> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "read-as")
        .map(|d| (d.severity, d.message.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            (Severity::Warning, "read 'Lysander' as 'Lysandre'"),
            (
                Severity::Warning,
                "read 'Proffessor Juniper' as 'Professor Juniper'"
            ),
            (
                Severity::Warning,
                "read 'Proffessor Oak’s New Theory' as 'Professor Oak's New Theory'"
            ),
            (
                Severity::Warning,
                "read 'Random Reciever' as 'Random Receiver'"
            ),
            (Severity::Warning, "read 'Hitmochan' as 'Hitmonchan'"),
            (
                Severity::Warning,
                "read 'Impostor Oak's Revenge' as 'Imposter Oak's Revenge'"
            ),
        ]
    );
    for (path, format, date) in [
        (
            "deaddrawgaming/2016-madison-regionals-turbo-dark.txt",
            "expanded",
            "2016-08-31",
        ),
        (
            "thetopcut/2012-dutch-nationals-darkrai.txt",
            "standard",
            "2012-08-31",
        ),
        (
            "pojo/2000-07-22-wcsts-wigglytuff-haymaker.txt",
            "unlimited",
            "2000-07-22",
        ),
    ] {
        let file = crate::common::repo().join("tests/corpus/lists").join(path);
        let text = std::fs::read_to_string(file).unwrap();
        let deck = checked(&text, format, date);
        let errors: Vec<&str> = (deck.diagnostics.iter())
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        assert!(deck.valid(), "{path}: {errors:?}");
        assert!(deck.count(Severity::Warning) > 0, "{path}");
    }
}

/// The reading is for one card a slip away, never a guess between several, a short name, or
/// a name read another way; and it is made in every language deckbox reads.
#[test]
fn a_misspelt_name_is_read_only_when_one_card_is_a_slip_away() {
    // `Latits ex`: a slip from Latias ex and from Latios ex, two cards. `Boss's Order`: a
    // letter dropped at the end, as names of two cards differ (Boss's Orders), is no slip.
    // `Iona`: four letters (Iono a slip away), too short to guess.
    // `Raltz`: five letters, Ralts a slip away.
    for line in ["4 Latits ex\n", "4 Boss's Order\n", "4 Iona\n", "4 Raltz\n"] {
        let deck = checked(line, "standard", "2026-06-01");
        assert_eq!(
            rules(&deck)
                .iter()
                .filter(|r| ["unknown-card", "read-as"].contains(r))
                .collect::<Vec<_>>(),
            [&"unknown-card"],
            "{line}"
        );
    }
    // A name written right, or a nickname, is no slip (`Juniper`, `DCE`: read as before).
    let deck = checked("4 Juniper\n4 DCE\n", "unlimited", "2016-06-01");
    let notes: Vec<&str> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "read-as")
        .map(|d| d.message.as_str())
        .collect();
    assert!(notes.iter().all(|n| !n.starts_with("read '")), "{notes:?}");
    // French, German, Italian, Spanish as Latin America prints it (`Determinacion de
    // Lilie`: a slip from its French name and from its Latin American one, one card).
    let text = "4 Odres du Boss\n2 Befehl von Boss\n2 Ordini dle Capo\n4 Sonderbonbom\n\
                4 Determinacion de Lilie\n";
    let (deck, cards) = read(text, "standard", "2026-06-01");
    assert_eq!(
        card_names(&cards),
        [
            "Boss's Orders",
            "Boss's Orders",
            "Boss's Orders",
            "Rare Candy",
            "Lillie's Determination"
        ]
    );
    let notes: Vec<&str> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "read-as")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        notes[0],
        "read 'Odres du Boss' as 'Ordres du Boss' (Boss's Orders)"
    );
    assert_eq!(notes.len(), 5, "{notes:?}");
}

/// A list typed by hand in Portuguese (tests/corpus, `ptcgl-test-decks/
/// unconventional-formatting-pt.txt`): the count after the name, set apart by a dash, glued
/// to it or with its `x` apart (`Bola de Ninho - X4`, `balão de ar -x3`, `Genesect Ex
/// 067/086  -  X 2`), and a printed number with the set's total and no code (`gimmighoul
/// 088/182`), which the name and the number choose. A dash that ends a name with no count
/// after it is still the name's, and `Leafeon Lv. X 2` is no count written last.
#[test]
fn portuguese_counts_after_a_dash_and_numbers_with_their_total() {
    let text = "gimmighoul 088/182 - X2\nfezandipiti ex 038/064 x1\n\
                Genesect Ex 067/086  -  X 2\nBola de Ninho - X4\nbalão de ar -x3\n\
                energia metal - x3\n";
    let (deck, cards) = read(text, "standard", "2025-08-01");
    let counts: Vec<u32> = deck.cards.iter().map(|c| c.line.count).collect();
    assert_eq!(counts, [2, 1, 2, 4, 3, 3]);
    assert_eq!(
        cards[..3],
        [
            "Gimmighoul, PAR 88",
            "Fezandipiti ex, SFA 38",
            "Genesect ex, BLK 67"
        ]
    );
    assert_eq!(
        card_names(&cards[3..]),
        ["Nest Ball", "Air Balloon", "Metal Energy"]
    );
    let deck = checked("Pokémon: 1\nLeafeon Lv. X 2\n", "unlimited", "2008-05-24");
    assert!(deck.cards.is_empty(), "{deck:?}");
}

/// A note that negates, or that names two sets, names none (issue 42: `1 Charizard (not
/// the Base Set one)` was read as Base Set's, since a set name anywhere in a note counted):
/// the line keeps the reading its name gives, in the six languages; the same note without
/// the negation still names its set (`names::sets` gives the rule).
#[test]
fn a_note_that_negates_or_names_two_sets_names_none() {
    let text = "1 Charizard ex (not the Obsidian Flames one)\n\
                1 Glurak-ex (nicht das aus 151)\n\
                1 Dracaufeu-ex (pas celui de Flammes Obsidiennes)\n\
                1 Charizard ex (no la de Llamas Obsidianas)\n\
                1 Charizard-ex (non quello di Ossidiana Infuocata)\n\
                1 Charizard ex - não o de Obsidiana em Chamas\n\
                1 Charizard ex (151 or Obsidian Flames)\n";
    let (_, cards) = read(text, "standard", "2024-03-05");
    assert_eq!(cards, ["Charizard ex, PAF 54"; 7]);
    let text = "1 Charizard (not the Base Set one)\n1 Charizard (the Base Set one)\n";
    let (_, cards) = read(text, "unlimited", "2000-09-23");
    assert_eq!(cards, ["Charizard, B2 4", "Charizard, BS 4"]);
}

/// A set code no printing of the name has, beside the number its printing carries: the
/// printing numbered so (released by the date judged) is read, not the newest printing of
/// the name. Corpus lines: `Pidgeot FL 10` (ptcg-story's 2006 US Nationals records, whose
/// `FL` is FireRed & LeafGreen: RG 10, not Holon Phantoms' Pidgeot 14; now read as the
/// site's code for the set, `check::set_codes`, with no finding), `Ultra Ball FAC
/// 113` (a 2017 PTCGO export, linnykos: Fates Collide, FCO 113, not SUM 135), `Arven SV1
/// 166` (Liga Pokémon's code in ptcg-tts-importer's sample: SVI 166, not OBF 186),
/// `Toxicroak G PR-DP DP41` (ptcg-story's 2010 records: the DP promo, not PL 40) and
/// `Arceus V PR SWSH204` (the official deck list's promo code, ptcg-story's 2023 NAIC
/// records: the promo itself, not BRS 122). A number with its series' letters names the
/// printing whole; plain digits keep `unknown-printing`, which says the code named none.
#[test]
fn a_code_no_printing_has_keeps_the_number_written() {
    let (deck, cards) = read(
        "2 Pidgeot FL 10\n2 Squirtle FL 83\n",
        "unlimited",
        "2006-07-01",
    );
    assert_eq!(cards, ["Pidgeot, RG 10", "Squirtle, RG 83"]);
    let unknown = (rules(&deck).into_iter()).filter(|rule| *rule == "unknown-printing");
    assert_eq!(unknown.count(), 0);
    // Two printings of Switch carry 102 (FireRed & LeafGreen's and Delta Species'): `FL`
    // names the first.
    let (_, cards) = read("1 Switch FL 102\n", "unlimited", "2006-07-01");
    assert_eq!(cards, ["Switch, RG 102"]);
    let (_, cards) = read(
        "3 Ultra Ball FAC 113\n3 N FAC 105\n2 Hyperball FAC 113\n",
        "expanded",
        "2017-08-30",
    );
    assert_eq!(
        cards,
        ["Ultra Ball, FCO 113", "N, FCO 105", "Ultra Ball, FCO 113"]
    );
    let (_, cards) = read(
        "4 Arven SV1 166\n4 Damián SV1 166\n",
        "standard",
        "2024-02-08",
    );
    assert_eq!(cards, ["Arven, SVI 166", "Arven, SVI 166"]);
    let (deck, cards) = read("1 Toxicroak G PR-DP DP41\n", "unlimited", "2010-06-25");
    assert_eq!(cards, ["Toxicroak G, PR-DPP DP41"]);
    assert!(!rules(&deck).contains(&"unknown-printing"));
    let (deck, cards) = read("2 Arceus V PR SWSH204\n", "standard", "2023-06-30");
    assert_eq!(cards, ["Arceus V, SWSHP SWSH204"]);
    assert!(!rules(&deck).contains(&"unknown-printing"));
}

/// PTCG Live's own codes (`SVALT`, `SWSHALT`, `SMALT`) number promo variants in the client,
/// not printed cards, and no public source maps them (Limitless's decklist docs, as quoted
/// in docs/research/issue-18.md). The line is read by its name; for a Pokémon, whose name
/// may name cards with other attacks, an info-level `unknown-printing` says so. A Trainer
/// or basic Energy, which its name decides, gets none.
#[test]
fn a_ptcg_live_alt_number_is_said_for_a_pokemon() {
    use deckbox::check::diagnostic::Severity;
    let text = "1 Team Rocket's Mimikyu SVALT 180\n2 Iono SVALT 75\n1 Basic {R} Energy SVALT 132\n";
    let (deck, cards) = read(text, "standard", "2025-11-14");
    assert!(cards[0].starts_with("Team Rocket's Mimikyu, "), "{cards:?}");
    let said: Vec<(Option<usize>, Severity)> = (deck.diagnostics.iter())
        .filter(|d| d.rule.id() == "unknown-printing")
        .map(|d| (d.line, d.severity))
        .collect();
    assert_eq!(said, [(Some(1), Severity::Info)]);
}

/// A post's `#` before the number after a name (PokéBeach's report of the 2011 Canberra
/// City Championship, `tests/corpus/lists/pokebeach/2011-12-canberra-cities-lanturn.txt`,
/// lines 5 and 6: `2 Tynamo #39 (Free Retreat)`, `1 Tynamo #38 (40hp)`) names the printing
/// by its number: Noble Victories' two Tynamo, not the newest Tynamo (Dark Explorers' 44,
/// read for both before).
#[test]
fn a_number_after_a_hash_names_the_printing() {
    let text = "2 Tynamo #39 (Free Retreat)\n1 Tynamo #38 (40hp)\n";
    let (deck, cards) = read(text, "standard", "2012-08-31");
    assert_eq!(cards, ["Tynamo, NVI 39", "Tynamo, NVI 38"]);
    assert_eq!(
        deck.cards[0].line.comment.as_deref(),
        Some("(Free Retreat)")
    );
}

/// EX-era reports of 2004–2006 (`tests/corpus/lists/pojo/2004-*`, `pojo/2006-05-18-mewtric.txt`,
/// `pokegym/2004-florida-states-blaziken-ninetales.txt`) put a dash set apart by blanks
/// between count and name (`9 – Psychic`), head a section with a blank before the colon
/// (`Trainers (19) :`) or cut the Pokémon into stages (`Stage 1 Pokémon:`), and write cards
/// by the nicknames of the day, each in `src/names/nicknames.tsv` with the report that uses
/// it: `POR`, `HPS`, `Prof. Elm's Training Method`, `Multi`, `Boost`, `Magma`, `ATM Rock`,
/// and Team Magma's cards as `TM` (`TM Groudon`, `TM Ball`). Each is read as the card, a
/// nickname with a `read-as` note.
#[test]
fn ex_era_dashes_stage_headers_and_nicknames() {
    let text = "Pokemon – 2\n1 – Wynaut\n1 – Wobbuffet\nTrainers (3) :\n1 – ATM Rock\n1x POR\n1x HPS\nEnergy – 17\n9 – Psychic\n4 – Boost\n4x Multi\n";
    let (deck, cards) = read(text, "unlimited", "2004-08-20");
    let names = card_names(&cards);
    assert_eq!(
        names,
        [
            "Wynaut",
            "Wobbuffet",
            "Ancient Technical Machine [Rock]",
            "Professor Oak's Research",
            "High Pressure System",
            "Psychic Energy",
            "Boost Energy",
            "Multi Energy",
        ],
        "{cards:?}"
    );
    assert!(
        !rules(&deck).contains(&"header-count"),
        "{:?}",
        rules(&deck)
    );
    let text = "Basic Pokémon:\n4 TM Groudon\n\nStage 1 Pokémon:\n3 TM Claydol (Psychic)\n\n2 TM Ball\n4 TM Conspirator\n2 TM Schemer\n3x Prof. Elm's Training Method\n4 Magma\n";
    let (deck, cards) = read(text, "unlimited", "2004-10-09");
    assert_eq!(
        card_names(&cards),
        [
            "Team Magma's Groudon",
            "Team Magma's Claydol",
            "Team Magma Ball",
            "Team Magma Conspirator",
            "Team Magma Schemer",
            "Professor Elm's Training Method",
            "Magma Energy",
        ],
        "{cards:?}"
    );
    assert!(!rules(&deck).contains(&"parse-error"), "{:?}", rules(&deck));
}

/// pojo.com's Last Chance Grinder list of the 2004 World Championships
/// (`tests/corpus/lists/pojo/2004-08-20-worlds-grinder-wigglytuff.txt`, lines 2–3): a note
/// after a card and its set code with no number, wrapped by the post onto the next line.
/// The card is Hidden Legends' Igglybuff; the line that closes the note is the card line's
/// comment, not a card with no count. A line that closes no bracket, or holds a digit, or
/// does not follow the open note, is still an issue.
#[test]
fn a_note_wrapped_onto_the_next_line_is_the_card_line_s() {
    let text = "Pokemon – 8\n4 – Igglybuff HL (Search for a basic + a basic energy card. How can you go\nwrong?)\n4 – Jigglypuff HL\n";
    let (deck, cards) = read(text, "unlimited", "2004-08-20");
    assert_eq!(cards.len(), 2, "{cards:?}");
    assert_eq!(cards[0], "Igglybuff, HL 37");
    assert!(!rules(&deck).contains(&"parse-error"), "{:?}", rules(&deck));
    let input = DeckInput::from_bytes("list.txt", text.as_bytes());
    let formatted =
        oracles::fmt_properties("list.txt", &input, embedded_db(), oracles::formats()).unwrap();
    assert!(
        formatted.contains(
            "4 Igglybuff HL // (Search for a basic + a basic energy card. How can you go; wrong?)\n"
        ),
        "{formatted}"
    );
    for text in [
        "Pokemon – 8\n4 – Igglybuff HL (Search for a basic\nwrong\n4 – Jigglypuff HL\n",
        "Pokemon – 8\n4 – Igglybuff HL (Search for a basic\n2 wrong?)\n4 – Jigglypuff HL\n",
        "Pokemon – 8\n4 – Igglybuff HL (Search for a basic\n\nwrong?)\n4 – Jigglypuff HL\n",
        "Pokemon – 8\n4 – Igglybuff HL (Search for a basic)\nwrong?)\n4 – Jigglypuff HL\n",
    ] {
        let deck = checked(text, "unlimited", "2004-08-20");
        let rules = rules(&deck);
        assert!(
            rules.contains(&"parse-error") || rules.contains(&"unknown-card"),
            "{text}: {rules:?}"
        );
    }
}

/// pokegym.net's list of the 2004 Florida State Championship
/// (`tests/corpus/lists/pokegym/2004-florida-states-blaziken-ninetales.txt`, line 5) writes
/// `1x Blaziken EX`: in 2004 that is Team Magma vs Team Aqua's Blaziken ex, as no
/// Pokémon-EX existed before 2012 (Next Destinies). The same line in a list of 2014 is the
/// Blaziken-EX of then, and a name whose `EX` card existed keeps it.
#[test]
fn ex_in_capitals_is_the_pokemon_ex_of_the_date() {
    let (_, cards) = read("1x Blaziken EX\n1 Mewtwo EX\n", "unlimited", "2004-08-22");
    assert_eq!(cards, ["Blaziken ex, MA 89", "Mewtwo ex, RS 101"]);
    let (_, cards) = read("1x Blaziken EX\n1 Mewtwo EX\n", "unlimited", "2014-06-01");
    assert_eq!(cards, ["Blaziken EX, XYP XY54", "Mewtwo EX, LTR 54"]);
}

/// PTCG Online's exports number a Trainer Kit's cards under a code of the kit's own, `TK-`
/// and its Pokémon (`* 10 Psychic Energy TK-AlolanRaichu 20`, `* 2 Purugly TK-PikachuLibre
/// 19`: `tests/corpus/lists/pokemongoback/deck1-trainer-kit.txt` and `deck2-trainer-kit.txt`):
/// the code ends the card's name, which names the card.
#[test]
fn a_ptcgo_trainer_kit_code_ends_the_name() {
    let text = "##Pokémon - 2\n\n* 2 Purugly TK-PikachuLibre 19\n\n##Energy - 20\n\n* 10 Psychic Energy TK-AlolanRaichu 20\n* 10 Fighting Energy TK-Lycanroc 5\n";
    let (_, cards) = read(text, "expanded", "2018-06-11");
    assert_eq!(
        card_names(&cards),
        ["Purugly", "Psychic Energy", "Fighting Energy"],
        "{cards:?}"
    );
}

/// ptcg-story's record of the 2020 Oceania International Championships writes basic
/// Darkness Energy as players shorten it, `Dark Energy`
/// (`tests/corpus/lists/ptcg-story/2020-ocic-masters-03.json`, line 141, 9 copies): a name
/// no card has. In a text list it is read as Darkness Energy, a basic Energy, so any count
/// of it is legal.
///
/// The record itself writes it with a set and a type word for its number (`"set": "SSH",
/// "number": "dark"`, as it writes `"fire"`, `"metal"` … for every basic Energy): the word
/// names no printing, so the line is read by its name, and the nickname applies.
#[test]
fn dark_energy_is_darkness_energy() {
    let (deck, cards) = read("9 Dark Energy\n", "standard", "2020-02-21");
    assert_eq!(card_names(&cards), ["Darkness Energy"]);
    assert!(!rules(&deck).contains(&"copy-limit"), "{:?}", rules(&deck));
    let record = r#"{"energy": [
        {"count": 9, "name": "Dark Energy", "number": "dark", "set": "SSH"},
        {"count": 4, "name": "Metal Energy", "number": "metal", "set": "SSH"}
    ]}"#;
    let deck = checked_file("record.json", record, "standard", "2020-02-21");
    let said = rules(&deck);
    assert!(
        !said
            .iter()
            .any(|rule| MISSED.contains(rule) || *rule == "copy-limit"),
        "{said:?}"
    );
    let names: Vec<String> = (deck.cards.iter())
        .map(|card| {
            let printing = embedded_db()
                .get(card.printing.expect("identified"))
                .unwrap();
            assert!(printing.is_basic_energy(), "{}", printing.rules_name());
            printing.rules_name().to_string()
        })
        .collect();
    assert_eq!(names, ["Darkness Energy", "Metal Energy"]);
}
