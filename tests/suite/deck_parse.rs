//! The deck-list parser over a fixture corpus (one snapshot per layout and language), a
//! table of tricky lines, span checks on multi-byte text, and bounds on hostile input.

use std::path::PathBuf;

use deckbox::deck::{self, DeckList, Layout, ParseIssueKind, Section, Span};
use deckbox::names::lang::Language;
use serde::Serialize;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/layouts")
}

/// What a fixture snapshot shows: the decoding fallback, then the list as parsed.
#[derive(Serialize)]
struct Parsed {
    fallback: Option<&'static str>,
    deck: DeckList,
}

fn slice(text: &str, span: Span) -> &str {
    text.get(span.offset..span.end())
        .unwrap_or("<span out of bounds>")
}

/// Checks what every parse must satisfy, whatever the input: spans are in bounds, on
/// character boundaries, trimmed, single-line, and a card's name is its `name_span`.
fn check_spans(text: &str, deck: &DeckList) {
    let spans = deck
        .cards
        .iter()
        .flat_map(|c| [c.span, c.count_span, c.name_span]);
    let spans = spans
        .chain(deck.headers.iter().map(|h| h.span))
        .chain(deck.footer.iter().map(|f| f.span))
        .chain(deck.issues.iter().map(|i| i.span));
    for span in spans {
        let s = text.get(span.offset..span.end());
        let s = s.unwrap_or_else(|| panic!("span {span:?} is not a slice of the text"));
        assert!(
            !s.contains(['\n', '\r']),
            "span {span:?} crosses a line: {s:?}"
        );
        assert_eq!(s.trim(), s, "span {span:?} is not trimmed");
    }
    for card in &deck.cards {
        assert_eq!(slice(text, card.name_span), card.name);
        let line = slice(text, card.span);
        assert!(line.contains(&card.name));
        if deck.layout == Some(Layout::Json) {
            // A JSON card's span is its object; the count is a value inside it.
            assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
            assert!(line.contains(slice(text, card.count_span)));
        } else {
            // The count comes first, or after the name (`Dreepy x4`), or in its own cell
            // of a spreadsheet row; empty when the line leaves it out (`Iono [PAL 185]`).
            assert!(
                card.span.offset <= card.count_span.offset
                    && card.count_span.end() <= card.span.end()
            );
        }
        for part in card.set.iter().chain(&card.number) {
            assert!(line.contains(part.as_str()));
        }
    }
}

fn parse_fixture(file: &str) -> Parsed {
    let bytes = std::fs::read(fixture_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let decoded = deck::decode(&bytes);
    let deck = deck::parse(&decoded.text);
    check_spans(&decoded.text, &deck);
    Parsed {
        fallback: decoded.fallback,
        deck,
    }
}

macro_rules! fixtures {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                insta::assert_yaml_snapshot!(parse_fixture($file));
            }
        )*

        const FIXTURES: &[&str] = &[$($file),*];
    };
}

fixtures! {
    tcg_live_en => "tcg_live_en.txt",
    ptcgo_legacy => "ptcgo_legacy.txt",
    limitless_en => "limitless_en.txt",
    plain_headerless => "plain_headerless.txt",
    paren_bom_crlf => "paren_bom_crlf.txt",
    live_fr => "live_fr.txt",
    live_es => "live_es.txt",
    live_pt => "live_pt.txt",
    live_de => "live_de.txt",
    live_it => "live_it.txt",
    windows_1252_de => "windows_1252_de.txt",
    utf16le_bom => "utf16le_bom.txt",
    messy_issues => "messy_issues.txt",
    limitless_dragapult => "limitless_dragapult.json",
}

#[test]
fn every_fixture_has_a_snapshot_test() {
    let mut files: Vec<String> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<&str> = FIXTURES.to_vec();
    listed.sort();
    assert_eq!(files, listed, "add new fixtures to the `fixtures!` list");
}

#[test]
fn layouts_and_languages() {
    let cases = [
        ("tcg_live_en.txt", Some(Layout::Ptcgl), Some(Language::En)),
        ("ptcgo_legacy.txt", Some(Layout::Ptcgo), Some(Language::En)),
        (
            "limitless_en.txt",
            Some(Layout::Limitless),
            Some(Language::En),
        ),
        ("plain_headerless.txt", None, Some(Language::En)),
        ("paren_bom_crlf.txt", None, Some(Language::En)),
        ("live_fr.txt", Some(Layout::Ptcgl), Some(Language::Fr)),
        ("live_es.txt", Some(Layout::Ptcgl), Some(Language::Es)),
        ("live_pt.txt", Some(Layout::Ptcgl), Some(Language::Pt)),
        ("live_de.txt", Some(Layout::Ptcgl), Some(Language::De)),
        ("live_it.txt", Some(Layout::Ptcgl), Some(Language::It)),
        (
            "windows_1252_de.txt",
            Some(Layout::Ptcgl),
            Some(Language::De),
        ),
        ("utf16le_bom.txt", Some(Layout::Ptcgl), Some(Language::En)),
        ("limitless_dragapult.json", Some(Layout::Json), None),
    ];
    for (file, layout, language) in cases {
        let parsed = parse_fixture(file);
        assert_eq!(parsed.deck.layout, layout, "{file}");
        assert_eq!(parsed.deck.language, language, "{file}");
        assert!(
            parsed.deck.issues.is_empty(),
            "{file}: {:?}",
            parsed.deck.issues
        );
    }
}

/// One line parsed alone, rendered as `count | name | set | number | PH`, or what else it is.
fn render_line(line: &str) -> String {
    let deck = deck::parse(line);
    if let [card] = deck.cards.as_slice() {
        let set = card.set.as_deref().unwrap_or("-");
        let number = card.number.as_deref().unwrap_or("-");
        let ph = if card.ph { " | PH" } else { "" };
        return format!("{} | {} | {set} | {number}{ph}", card.count, card.name);
    }
    if let [issue] = deck.issues.as_slice() {
        return format!("{:?}", issue.kind);
    }
    if let [header] = deck.headers.as_slice() {
        return format!("header {:?} {:?}", header.section, header.count);
    }
    if let Some(footer) = deck.footer {
        return format!("footer {:?}", footer.count);
    }
    "skipped".to_owned()
}

#[test]
fn tricky_lines() {
    #[rustfmt::skip]
    let table = [
        ("4 Iono PAL 185",                                  "4 | Iono | PAL | 185"),
        ("4 Ultra Ball SVI 196 PH",                         "4 | Ultra Ball | SVI | 196 | PH"),
        ("1 Pikachu ex SSP 238",                            "1 | Pikachu ex | SSP | 238"),
        ("1 Porygon2 PAR 141",                              "1 | Porygon2 | PAR | 141"),
        ("1 Porygon-Z PAR 142",                             "1 | Porygon-Z | PAR | 142"),
        ("1 Type: Null UNB 183",                            "1 | Type: Null | UNB | 183"),
        ("1 Mr. Mime PRE 31",                               "1 | Mr. Mime | PRE | 31"),
        ("1 Farfetch'd MEW 83",                             "1 | Farfetch'd | MEW | 83"),
        ("1 Nidoran♀ MEW 29",                               "1 | Nidoran♀ | MEW | 29"),
        ("1 Unown [A]",                                     "1 | Unown [A] | - | -"),
        ("4 Professor's Research (Professor Oak) CEL 23",   "4 | Professor's Research (Professor Oak) | CEL | 23"),
        ("2 Boss's Orders (Giovanni)",                      "2 | Boss's Orders (Giovanni) | - | -"),
        ("1 Team Rocket's Mewtwo ex DRI 81",                "1 | Team Rocket's Mewtwo ex | DRI | 81"),
        ("2 Mega Lucario ex",                               "2 | Mega Lucario ex | - | -"),
        ("3 Giratina VSTAR",                                "3 | Giratina VSTAR | - | -"),
        ("3 Giratina VSTAR LOR 131",                        "3 | Giratina VSTAR | LOR | 131"),
        ("4 Lugia V",                                       "4 | Lugia V | - | -"),
        ("4 Lugia V 138",                                   "4 | Lugia V | - | 138"),
        ("1 Arceus V-UNION",                                "1 | Arceus V-UNION | - | -"),
        ("1 Mewtwo & Mew GX",                               "1 | Mewtwo & Mew GX | - | -"),
        ("1 Mewtwo & Mew GX 71",                            "1 | Mewtwo & Mew GX | - | 71"),
        ("1 Mewtwo & Mew GX UNM 71",                        "1 | Mewtwo & Mew GX | UNM | 71"),
        ("1 Mew PR-SV 42",                                  "1 | Mew | PR-SV | 42"),
        ("1 Mewtwo V-UNION PR-SW SWSH160",                  "1 | Mewtwo V-UNION | PR-SW | SWSH160"),
        ("1 Yveltal CRZ GG59",                              "1 | Yveltal | CRZ | GG59"),
        ("1 Yveltal CRZ-GG 59",                             "1 | Yveltal | CRZ-GG | 59"),
        ("1 Kyogre BRS TG05",                               "1 | Kyogre | BRS | TG05"),
        ("1 Xerneas PR-XY XY150a",                          "1 | Xerneas | PR-XY | XY150a"),
        ("1 Iono PAL 185/193",                              "1 | Iono | PAL | 185/193"),
        ("2 Fighting Energy SVE 22",                        "2 | Fighting Energy | SVE | 22"),
        ("2 Basic {R} Energy SVE 2",                        "2 | Basic {R} Energy | SVE | 2"),
        ("2 Psychic Energy Energy 5",                       "2 | Psychic Energy | Energy | 5"),
        ("2 Fire Energy SWSHEnergy 2",                      "2 | Fire Energy | SWSHEnergy | 2"),
        ("2 Fire Energy 2",                                 "2 | Fire Energy | - | 2"),
        ("2 Fire Energy 2 PH",                              "2 | Fire Energy 2 PH | - | -"),
        ("2 Énergie Feu de base Energy 2",                  "2 | Énergie Feu de base | Energy | 2"),
        ("2 Feuerenergie Energy 2",                         "2 | Feuerenergie | Energy | 2"),
        ("2 Basic {W} Energy  3",                           "2 | Basic {W} Energy | - | 3"),
        ("4 Iono 185",                                      "4 | Iono 185 | - | -"),
        ("4 Ultra Ball sv1-196",                            "4 | Ultra Ball | sv1 | 196"),
        ("1 Blaine's Quiz #1 G1 97",                        "1 | Blaine's Quiz #1 | G1 | 97"),
        ("1 Blaine's Quiz #2",                              "1 | Blaine's Quiz #2 | - | -"),
        ("1 Unown UF !",                                    "1 | Unown | UF | !"),
        ("1 Unown UF R",                                    "1 | Unown | UF | R"),
        ("4 Ultra Ball (SVI) 196",                          "4 | Ultra Ball | SVI | 196"),
        ("1 Alph Lithograph UL TWO",                        "1 | Alph Lithograph | UL | TWO"),
        ("1 Ho-Oh LEGEND HS 111",                           "1 | Ho-Oh LEGEND | HS | 111"),
        ("1 Ho-Oh LEGEND",                                  "1 | Ho-Oh LEGEND | - | -"),
        ("4 Iono # tech",                                   "4 | Iono | - | -"),
        ("1 Mew ex sv3pt5-151",                             "1 | Mew ex | sv3pt5 | 151"),
        ("1 Pikachu swshp-SWSH020",                         "1 | Pikachu | swshp | SWSH020"),
        ("2 Switch base1-95",                               "2 | Switch | base1 | 95"),
        ("1 Porygon-Z",                                     "1 | Porygon-Z | - | -"),
        ("6 Fire Energy SVE R",                             "6 | Fire Energy | SVE | R"),
        ("6 Basic {R} Energy SVE R",                        "6 | Basic {R} Energy | SVE | R"),
        ("1 Team Aqua's Hideout R",                         "1 | Team Aqua's Hideout R | - | -"),
        ("1 Mewtwo V-UNION SWSH161",                        "1 | Mewtwo V-UNION | - | SWSH161"),
        ("1 Iono PAL185",                                   "1 | Iono | - | PAL185"),
        ("1 Giratina VSTAR GG69",                           "1 | Giratina VSTAR | - | GG69"),
        ("1 Mewtwo GX",                                     "1 | Mewtwo GX | - | -"),
        ("1 Blend Energy WLFM DRX 118",                     "1 | Blend Energy WLFM | DRX | 118"),
        ("4 Iono  185",                                     "4 | Iono | - | 185"),
        ("4 Iono PAL",                                      "4 | Iono PAL | - | -"),
        ("4 PAL 185",                                       "4 | PAL 185 | - | -"),
        ("4 Iono PH",                                       "4 | Iono PH | - | -"),
        ("4x Iono",                                         "4 | Iono | - | -"),
        ("4 x Iono",                                        "4 | Iono | - | -"),
        ("4X Iono",                                         "4 | Iono | - | -"),
        ("x4 Iono",                                         "4 | Iono | - | -"),
        ("4 Xerneas",                                       "4 | Xerneas | - | -"),
        ("* 4 Iono PAL 185",                                "4 | Iono | PAL | 185"),
        ("- 4 Iono",                                        "4 | Iono | - | -"),
        ("04 Iono",                                         "4 | Iono | - | -"),
        ("4\tIono\tPAL\t185",                               "4 | Iono | PAL | 185"),
        ("4\u{A0}Iono\u{A0}PAL\u{A0}185",                   "4 | Iono | PAL | 185"),
        ("4 Iono PAL 185 # from the league box",            "4 | Iono | PAL | 185"),
        ("4 Iono // maybe 3",                               "4 | Iono | - | -"),
        ("4 Iono#1",                                        "4 | Iono#1 | - | -"),
        ("0 Iono",                                          "BadCount"),
        ("-2 Iono",                                         "BadCount"),
        ("10001 Iono",                                      "BadCount"),
        ("10000 Iono",                                      "10000 | Iono | - | -"),
        ("4294967296 Iono",                                 "BadCount"),
        ("4",                                               "Unreadable"),
        ("4Iono",                                           "Unreadable"),
        ("Iono x4",                                         "4 | Iono | - | -"),
        ("Iono PAL 185 ×4",                                 "4 | Iono | PAL | 185"),
        ("3x Charmander (PAF 7)",                           "3 | Charmander | PAF | 7"),
        ("Iono [PAL 185]",                                  "1 | Iono | PAL | 185"),
        ("2 Switch - MEG 130",                              "2 | Switch | MEG | 130"),
        ("TWM 128 Dreepy",                                  "1 | Dreepy | TWM | 128"),
        ("4 TWM 128 Dreepy",                                "4 | Dreepy | TWM | 128"),
        ("- 4 Dreepy TWM 128",                              "4 | Dreepy | TWM | 128"),
        ("• Iono x2 // tech",                               "2 | Iono | - | -"),
        ("Dreepy\t4\tTWM\t128",                            "4 | Dreepy | TWM | 128"),
        ("4 Boss's Orders (Giovanni)",                      "4 | Boss's Orders (Giovanni) | - | -"),
        ("Iono PAL 185",                                    "skipped"),
        ("Top 8 NAIC 2024",                                 "skipped"),
        ("Trainers - 34",                                   "header Trainer Some(34)"),
        ("**Energía - 8**",                                 "header Energy Some(8)"),
        ("## Entrenadores",                                 "header Trainer None"),
        ("Pokémon: 12",                                     "header Pokemon Some(12)"),
        ("##Trainer Cards - 30",                            "header Trainer Some(30)"),
        ("Energies",                                        "header Energy None"),
        ("Total Cards - 60",                                "footer Some(60)"),
        ("# Trainer",                                       "header Trainer None"),
        ("# 2nd place",                                     "skipped"),
        ("******",                                          "skipped"),
    ];
    let mut failures = Vec::new();
    for (line, expected) in table {
        let got = render_line(line);
        if got != expected {
            failures.push(format!(
                "{line:?}\n   expected {expected}\n   got      {got}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn spans_in_multibyte_text() {
    let text = "\u{FEFF}Pokémon : 1\r\n4 Pokéball SVI 185\r\n\u{A0}2 Boss’s Orders PAL 172 PH\r\n  3x Énergie Psy de base\r\nTotal de cartes : 9";
    let deck = deck::parse(text);
    assert!(deck.issues.is_empty(), "{:?}", deck.issues);
    check_spans(text, &deck);
    assert_eq!(slice(text, deck.headers[0].span), "Pokémon : 1");
    let cards: Vec<(&str, &str, &str)> = deck
        .cards
        .iter()
        .map(|c| {
            (
                slice(text, c.span),
                slice(text, c.count_span),
                slice(text, c.name_span),
            )
        })
        .collect();
    assert_eq!(
        cards,
        [
            ("4 Pokéball SVI 185", "4", "Pokéball"),
            ("2 Boss’s Orders PAL 172 PH", "2", "Boss’s Orders"),
            ("3x Énergie Psy de base", "3x", "Énergie Psy de base"),
        ]
    );
    assert_eq!(
        deck.cards.iter().map(|c| c.line).collect::<Vec<_>>(),
        [2, 3, 4]
    );
    assert_eq!(deck.cards[2].section, Some(Section::Pokemon));
    assert_eq!(
        slice(text, deck.footer.unwrap().span),
        "Total de cartes : 9"
    );
    assert_eq!(deck.language, Some(Language::Fr));
}

/// Each parse issue as (line, the text it points at, message).
fn issues_at<'a>(text: &'a str, deck: &'a DeckList) -> Vec<(usize, &'a str, &'a str)> {
    (deck.issues.iter())
        .map(|i| (i.line, slice(text, i.span), i.message.as_str()))
        .collect()
}

#[test]
fn bad_counts_point_at_the_count() {
    let text = "Pokémon: 2\n0 Dreepy TWM 128\n* -2 Drakloak TWM 129\n99999999999999999999999999 Dusknoir\n4 Dragapult ex TWM 130";
    let deck = deck::parse(text);
    let issues = issues_at(text, &deck);
    insta::assert_debug_snapshot!(issues, @r#"
    [
        (
            2,
            "0",
            "a count of 0 adds no card; remove the line or write how many copies",
        ),
        (
            3,
            "* -2",
            "count -2 is negative; write how many copies, such as `2 Iono`",
        ),
        (
            4,
            "99999999999999999999999999",
            "count 999999999999… is too large to be a number of copies (at most 10000)",
        ),
    ]
    "#);
    assert!(
        deck.issues
            .iter()
            .all(|i| i.kind == ParseIssueKind::BadCount)
    );
    assert_eq!(deck.cards.len(), 1, "bad lines add no card");
}

/// A count before the name and another written last, as a hand-typed list that was edited
/// twice writes it: neither is taken, the line is a bad count on the second one (a
/// regression of stop 51 read `4 Gimmighoul 088/182 - X2` as 4 and dropped `X2`). A count
/// written last alone is still read.
#[test]
fn two_counts_on_one_line_are_a_bad_count() {
    let text = "4 Gimmighoul 088/182 - X2\n4 Dreepy TWM 128 x2\n* 3 Bola de Ninho - X4\n\
                2x Iono x2 (tech)\nGimmighoul 088/182 - X2\n4 Leafeon Lv. X 2\n\
                3 Drakloak TWM 129 # x2 when teching";
    let deck = deck::parse(text);
    let issues = issues_at(text, &deck);
    insta::assert_debug_snapshot!(issues, @r#"
    [
        (
            1,
            "X2",
            "two counts, `4` before the name and `X2` after it; write how many copies once, before the name",
        ),
        (
            2,
            "x2",
            "two counts, `4` before the name and `x2` after it; write how many copies once, before the name",
        ),
        (
            3,
            "X4",
            "two counts, `3` before the name and `X4` after it; write how many copies once, before the name",
        ),
        (
            4,
            "x2",
            "two counts, `2` before the name and `x2` after it; write how many copies once, before the name",
        ),
    ]
    "#);
    assert!(
        deck.issues
            .iter()
            .all(|i| i.kind == ParseIssueKind::BadCount)
    );
    let cards: Vec<(usize, u32, &str)> = deck
        .cards
        .iter()
        .map(|c| (c.line, c.count, c.name.as_str()))
        .collect();
    assert_eq!(
        cards,
        [
            (5, 2, "Gimmighoul"),
            (6, 4, "Leafeon Lv. X 2"),
            (7, 3, "Drakloak")
        ]
    );
}

/// A deck printed as a table, as a blog prints a list in three columns (Pokémon, Trainers,
/// Energy) and a browser copies it: cells separated by tabs, several cards on one row, an
/// empty cell where a column ended. Each card is read at its own cell; a row of section
/// headers leaves the cards under no section. Spreadsheet rows (a count alone in its cell)
/// and a row whose second cell is no card stay one card.
#[test]
fn a_table_row_holds_one_card_per_cell() {
    let text = "Pokémon – 18\tTrainers – 31\tEnergy – 11\n\
                3 Ralts ASR\t3 Professor’s Research\t4 Battle VIP Pass\t11 Psychic\n\
                1 Mew CEL\t\t2 Temple of Sinnoh\n\
                1 Radiant Greninja\n\
                Pokémon: 1\n\
                4\tDreepy\tTWM\t128\n\
                4 Drakloak TWM 129\tmy favourite\n\
                2x Boss’s Orders PAL 172\t4 Dresseurs";
    let deck = deck::parse(text);
    let cards: Vec<String> = deck
        .cards
        .iter()
        .map(|c| {
            let at = slice(text, c.name_span);
            let section = c.section.map_or("-".into(), |s| format!("{s:?}"));
            let (name, at) = (c.name.replace('\t', "⇥"), at.replace('\t', "⇥"));
            format!("{} {} {name} [{at}] {section}", c.line, c.count)
        })
        .collect();
    insta::assert_snapshot!(cards.join("\n"), @r"
    2 3 Ralts ASR [Ralts ASR] -
    2 3 Professor’s Research [Professor’s Research] -
    2 4 Battle VIP Pass [Battle VIP Pass] -
    2 11 Psychic [Psychic] -
    3 1 Mew CEL [Mew CEL] -
    3 2 Temple of Sinnoh [Temple of Sinnoh] -
    4 1 Radiant Greninja [Radiant Greninja] -
    6 4 Dreepy [Dreepy] Pokemon
    7 4 Drakloak TWM 129⇥my favourite [Drakloak TWM 129⇥my favourite] Pokemon
    8 2 Boss’s Orders PAL 172⇥4 Dresseurs [Boss’s Orders PAL 172⇥4 Dresseurs] Pokemon
    ");
    assert!(deck.issues.is_empty(), "{:?}", deck.issues);
}

/// The same table as a page's stored text flattens it, cells joined by a blank
/// (cutortap.com, 2023: tests/corpus/lists/cutortap): under a row of several section
/// headers, a row splits at each count of one or two digits followed by a capitalized word.
/// A collector number before a count stays the card's (`PR-SV 4 1 Sky Seal Stone`); a
/// header of its own ends the table; outside a table nothing is split.
#[test]
fn a_flattened_table_row_splits_at_its_counts() {
    let text = "2 Gardevoir ex 1 Miriam\n\
                Pokémon (18) Trainer (31) Energy (11)\n\
                1 Ralts SIT 1 Boss’s Orders 4 Level Ball\n\
                1 Mimikyu ex PR-SV 4 1 Sky Seal Stone\n\
                1 Radiant Greninja\n\
                Trainer: 2\n\
                2 Gardevoir ex 1 Miriam";
    let deck = deck::parse(text);
    let cards: Vec<String> = deck
        .cards
        .iter()
        .map(|c| format!("{} {} {}", c.line, c.count, slice(text, c.span)))
        .collect();
    insta::assert_snapshot!(cards.join("\n"), @r"
    1 2 2 Gardevoir ex 1 Miriam
    3 1 1 Ralts SIT
    3 1 1 Boss’s Orders
    3 4 4 Level Ball
    4 1 1 Mimikyu ex PR-SV 4
    4 1 1 Sky Seal Stone
    5 1 1 Radiant Greninja
    7 2 2 Gardevoir ex 1 Miriam
    ");
    assert!(deck.issues.is_empty(), "{:?}", deck.issues);
}

#[test]
fn same_card_on_several_lines_stays_several_lines() {
    let deck = deck::parse("2 Iono PAL 185\n2 Iono PAL 185\n1 Iono PAL 269");
    assert_eq!(deck.cards.len(), 3);
    assert_eq!(deck.cards.iter().map(|c| c.count).sum::<u32>(), 5);
}

#[test]
fn header_counts_are_kept_as_written() {
    let deck =
        deck::parse("Pokémon: 99\n4 Dreepy TWM 128\nTrainer (0)\nEnergy: 18446744073709551616");
    let counts: Vec<Option<u64>> = deck.headers.iter().map(|h| h.count).collect();
    assert_eq!(counts, [Some(99), Some(0), None]);
}

#[test]
fn large_inputs_stay_linear() {
    let line = "4 Professor's Research (Professor Oak) CEL 23 PH\n";
    let text = line.repeat(100_000);
    let start = std::time::Instant::now();
    let deck = deck::parse(&text);
    assert_eq!(deck.cards.len(), 100_000);
    let long_name = format!("4 {} SVI 1\n", "Iono ".repeat(400_000));
    let long_word = format!("4 {}\n{}", "a".repeat(2_000_000), "9".repeat(2_000_000));
    let blanks = format!("4 x{}y", " ".repeat(2_000_000));
    for text in [long_name, long_word, blanks] {
        let deck = deck::parse(&text);
        check_spans(&text, &deck);
    }
    // Generous: debug builds on a shared two-core machine; quadratic work would take minutes.
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

/// A small deterministic generator, so the "never panics" test needs no extra crate.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn random_input_never_panics_and_keeps_spans_valid() {
    const PIECES: &[&str] = &[
        "4",
        "0",
        "-",
        "x",
        "×",
        "*",
        "#",
        "//",
        " ",
        "  ",
        "\t",
        "\u{A0}",
        "\u{FEFF}",
        "\n",
        "\r\n",
        "\r",
        ":",
        "(",
        ")",
        "12",
        "Iono",
        "PAL",
        "185",
        "PH",
        "Énergie",
        "Pokémon",
        "Trainer",
        "Total Cards",
        "SVI",
        "TG05",
        "Energy",
        "’",
        "e\u{301}",
        "99999999999",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..3_000 {
        let len = xorshift(&mut state) % 24;
        let text: String = (0..len)
            .map(|_| PIECES[(xorshift(&mut state) % PIECES.len() as u64) as usize])
            .collect();
        check_spans(&text, &deck::parse(&text));
        let bytes: Vec<u8> = (0..len).map(|_| xorshift(&mut state) as u8).collect();
        let decoded = deck::decode(&bytes);
        check_spans(&decoded.text, &deck::parse(&decoded.text));
    }
}

/// What every JSON parse must satisfy: spans in bounds and on character boundaries, a
/// card's count and name inside its object, counts in range.
fn check_json_spans(text: &str, deck: &DeckList) {
    let inside =
        |outer: Span, inner: Span| outer.offset <= inner.offset && inner.end() <= outer.end();
    let spans = deck
        .cards
        .iter()
        .flat_map(|c| [c.span, c.count_span, c.name_span])
        .chain(deck.issues.iter().map(|i| i.span));
    for span in spans {
        assert!(
            text.get(span.offset..span.end()).is_some(),
            "span {span:?} is not a slice of {text:?}"
        );
    }
    for card in &deck.cards {
        assert!(inside(card.span, card.count_span) && inside(card.span, card.name_span));
        assert!((1..=deck::MAX_COUNT).contains(&card.count));
        assert_eq!(slice(text, card.count_span), card.count.to_string());
    }
    assert_eq!(deck.layout, Some(Layout::Json));
}

#[test]
fn random_json_never_panics_and_keeps_spans_valid() {
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        " ",
        "\n",
        "\r\n",
        "\"count\"",
        "\"qty\"",
        "\"name\"",
        "\"set\"",
        "\"number\"",
        "\"ph\"",
        "\"pokemon\"",
        "\"Trainer\"",
        "\"sections\"",
        "\"section\"",
        "\"cards\"",
        "\"decklist\"",
        "\"comments\"",
        "\"language\"",
        "4",
        "0",
        "-1",
        "1.5",
        "1e3",
        "99999999999999999999",
        "true",
        "null",
        "\"Iono\"",
        "\"Pok\\u00e9gear\"",
        "\"Énergie\"",
        "\"\\ud800\"",
        "\"PAL\"",
        "\"185\"",
        "\"fr\"",
        "\"\"",
        "\u{FEFF}",
        "\u{A0}",
        "\"a\\nb\"",
    ];
    let mut state = 0x2545_F491_4F6C_DD1D;
    for _ in 0..5_000 {
        let len = xorshift(&mut state) % 40;
        let body: String = (0..len)
            .map(|_| PIECES[(xorshift(&mut state) % PIECES.len() as u64) as usize])
            .collect();
        let text = format!("{{\"pokemon\": [{{\"count\": 4, \"name\": {body}");
        check_json_spans(&text, &deck::parse(&text));
        let text = format!("[{body}]");
        check_json_spans(&text, &deck::parse(&text));
    }
}

/// A count typed in full-width digits (`４ Iono`, as Japanese input methods type them) is
/// refused with a message that says so, not the generic one.
#[test]
fn full_width_counts_are_named() {
    let deck = deck::parse("４ Iono PAL 185\n");
    let [issue] = deck.issues.as_slice() else {
        panic!("{:?}", deck.issues);
    };
    assert!(
        issue.message.contains("full-width digits"),
        "{}",
        issue.message
    );
    assert!(issue.message.contains("'4'"), "{}", issue.message);
}
