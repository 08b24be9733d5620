#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Lists as players paste them (issue 27): copied from a deck site with a title line on top,
//! posted in a forum with Markdown headers and bullets, pasted from a spreadsheet with tabs
//! and a header row, in the six languages deckbox reads. Each is the real list of
//! `examples/dragapult.txt` (or `examples/gardevoir-fr.txt`) written in one of those shapes,
//! with the names `deckbox convert --lang` gives; each must be read in full (60 cards, the
//! same printings as the example, no finding, exit 0), keep its title, and reach `fmt`'s
//! fixed point in one pass.

use crate::common;
use crate::oracles::{self, cards_by_printing, embedded_db};

use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::formats::Format;

fn checked(name: &str, text: &str) -> CheckedDeck {
    let format = Format::load("standard").unwrap();
    check::check(
        &DeckInput::from_bytes(name, text.as_bytes()),
        embedded_db(),
        &format,
    )
}

/// The line and rule of each finding whose rule `keep` keeps, in order.
fn rule_lines(deck: &CheckedDeck, keep: impl Fn(&str) -> bool) -> Vec<(Option<usize>, &str)> {
    (deck.diagnostics.iter())
        .filter(|d| keep(d.rule.id()))
        .map(|d| (d.line, d.rule.id()))
        .collect()
}

fn example(file: &str) -> String {
    std::fs::read_to_string(common::repo().join("examples").join(file)).unwrap()
}

/// `text` reads as the example list `reference`, card for card, with no finding at all;
/// `fmt` keeps the title and its output is canonical (one pass reaches the fixed point).
fn assert_reads_as(name: &str, text: &str, reference: &str, title: Option<&str>) {
    let deck = checked(name, text);
    assert_eq!(deck.list.issues, Vec::new(), "{name}: lines not read");
    let findings: Vec<String> = deck.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(findings, Vec::<String>::new(), "{name}: findings");
    assert!(deck.valid(), "{name}");
    assert_eq!(deck.card_count(), 60, "{name}");
    let expected = checked("reference.txt", &example(reference));
    assert_eq!(
        cards_by_printing(&deck, embedded_db()),
        cards_by_printing(&expected, embedded_db()),
        "{name}: not the same cards as examples/{reference}"
    );
    assert_eq!(
        deck.list.title.as_ref().map(|t| t.text.as_str()),
        title,
        "{name}"
    );
    let input = DeckInput::from_bytes(name, text.as_bytes());
    let formatted = oracles::fmt_properties(name, &input, embedded_db(), oracles::formats())
        .unwrap_or_else(|why| panic!("{name}: fmt refused: {why}"));
    let again = checked(name, &formatted);
    assert_eq!(
        again.list.title.as_ref().map(|t| t.text.as_str()),
        title,
        "{name}: fmt lost the title\n{formatted}"
    );
}

/// PokémonCard.io and deck-site copies: a title line, `Pokemon (19)` headers, `3x Name (SET NUM)`.
#[test]
fn deck_site_copy_with_a_title_line() {
    let text = SITE_EN;
    assert_reads_as(
        "site.txt",
        text,
        "dragapult.txt",
        Some("Dragapult ex - 1st place Regional Stuttgart"),
    );
}

const SITE_EN: &str = r#"Dragapult ex - 1st place Regional Stuttgart

Pokemon (19)
4x Dreepy (TWM 128)
4x Drakloak (TWM 129)
3x Dragapult ex (TWM 130)
2x Duskull (PRE 35)
1x Dusclops (PRE 36)
1x Dusknoir (PRE 37)
1x Budew (PRE 4)
1x Lillie's Clefairy ex (JTG 56)
1x Fezandipiti ex (SFA 38)
1x Meowth ex (POR 62)

Trainers (34)
4x Lillie's Determination (MEG 119)
2x Boss's Orders (MEG 114)
2x Crispin (SCR 133)
1x Dawn (PFL 87)
1x Hilda (WHT 84)
4x Buddy-Buddy Poffin (TEF 144)
4x Ultra Ball (MEG 131)
4x Poké Pad (POR 81)
3x Rare Candy (MEG 125)
2x Night Stretcher (SFA 61)
1x Switch (MEG 130)
1x Energy Switch (MEG 115)
1x Pokégear 3.0 (BLK 84)
1x Tool Scrapper (WHT 85)
1x Prime Catcher (TEF 157)
2x Jamming Tower (TWM 153)

Energy (7)
4x Psychic Energy (MEE 5)
3x Fire Energy (MEE 2)

"#;

/// A forum post: a free-text title, Markdown headers (`## Pokémon (19)`, `**Trainer (34)**`,
/// `### Energy - 7`), bullets of three kinds and notes at the end of lines.
#[test]
fn forum_post_with_markdown_headers_bullets_and_notes() {
    assert_reads_as(
        "forum.txt",
        r#"my list for sunday:

## Pokémon (19)
- 4 Dreepy TWM 128
* 4 Drakloak TWM 129
• 3 Dragapult ex TWM 130
- 2 Duskull PRE 35
* 1 Dusclops PRE 36 // tech
• 1 Dusknoir PRE 37
- 1 Budew PRE 4 // tech
* 1 Lillie's Clefairy ex JTG 56
• 1 Fezandipiti ex SFA 38 // tech
- 1 Meowth ex POR 62

**Trainer (34)**
- 4 Lillie's Determination MEG 119
* 2 Boss's Orders MEG 114
• 2 Crispin SCR 133
- 1 Dawn PFL 87
* 1 Hilda WHT 84 // tech
• 4 Buddy-Buddy Poffin TEF 144
- 4 Ultra Ball MEG 131
* 4 Poké Pad POR 81
• 3 Rare Candy MEG 125
- 2 Night Stretcher SFA 61
* 1 Switch MEG 130 // tech
• 1 Energy Switch MEG 115
- 1 Pokégear 3.0 BLK 84 // tech
* 1 Tool Scrapper WHT 85
• 1 Prime Catcher TEF 157 // tech
- 2 Jamming Tower TWM 153

### Energy - 7
- 4 Psychic Energy MEE 5
* 3 Fire Energy MEE 2

"#,
        "dragapult.txt",
        Some("my list for sunday:"),
    );
}

/// A spreadsheet pasted with tabs, its header row naming the columns name first.
#[test]
fn spreadsheet_rows_with_a_header_row_in_another_order() {
    assert_reads_as(
        "sheet.txt",
        "Name\tQty\tSet\tNo.
Dreepy\t4\tTWM\t128
Drakloak\t4\tTWM\t129
Dragapult ex\t3\tTWM\t130
Duskull\t2\tPRE\t35
Dusclops\t1\tPRE\t36
Dusknoir\t1\tPRE\t37
Budew\t1\tPRE\t4
Lillie's Clefairy ex\t1\tJTG\t56
Fezandipiti ex\t1\tSFA\t38
Meowth ex\t1\tPOR\t62
Lillie's Determination\t4\tMEG\t119
Boss's Orders\t2\tMEG\t114
Crispin\t2\tSCR\t133
Dawn\t1\tPFL\t87
Hilda\t1\tWHT\t84
Buddy-Buddy Poffin\t4\tTEF\t144
Ultra Ball\t4\tMEG\t131
Poké Pad\t4\tPOR\t81
Rare Candy\t3\tMEG\t125
Night Stretcher\t2\tSFA\t61
Switch\t1\tMEG\t130
Energy Switch\t1\tMEG\t115
Pokégear 3.0\t1\tBLK\t84
Tool Scrapper\t1\tWHT\t85
Prime Catcher\t1\tTEF\t157
Jamming Tower\t2\tTWM\t153
Psychic Energy\t4\tMEE\t5
Fire Energy\t3\tMEE\t2
",
        "dragapult.txt",
        None,
    );
}

/// French: `Dresseurs (32)`, the count after the name (`Tarsal MEG 58 x4`).
#[test]
fn french_list_with_counts_after_the_names() {
    assert_reads_as(
        "fr.txt",
        r#"Gardevoir ex - ma liste pour dimanche

Pokémon (16)
Tarsal MEG 58 x4
Kirlia MEG 59 x4
Méga-Gardevoir-ex MEG 60 x3
Rozbouton PRE 4 x1
Mélofée-ex de Lilie JTG 56 x1
Favianos-ex SFA 38 x1
Miaouss-ex POR 62 x1
Flotte-Mèche TEF 78 x1

Dresseurs (32)
Détermination de Lilie MEG 119 x4
Ordres du Boss MEG 114 x2
Aurore PFL 87 x2
Ludvina WHT 84 x1
Poffin Copain-Copain TEF 144 x4
Hyper Ball MEG 131 x4
Super Bonbon MEG 125 x3
Poké Registre POR 81 x3
Civière Nocturne SFA 61 x2
Échange MEG 130 x1
Échange d'Énergie MEG 115 x1
Pokématos 3.0 BLK 84 x1
Arrache-Outil WHT 85 x1
Boîte à Secrets TWM 163 x1
Cage de Combat PFL 85 x2

Énergies (12)
Énergie Psy MEE 5 x12

"#,
        "gardevoir-fr.txt",
        Some("Gardevoir ex - ma liste pour dimanche"),
    );
}

/// Spanish: `## Entrenadores`, `**Energía - 7**`, bullets and printings in brackets.
#[test]
fn spanish_forum_post_with_printings_in_brackets() {
    assert_reads_as(
        "es.txt",
        r#"Dragapult ex – Top 8 Regional Liverpool

## Pokémon (19)
- 4 Dreepy [TWM 128]
- 4 Drakloak [TWM 129]
- 3 Dragapult ex [TWM 130]
- 2 Duskull [PRE 35]
- 1 Dusclops [PRE 36]
- 1 Dusknoir [PRE 37]
- 1 Budew [PRE 4]
- 1 Clefairy ex de Lylia [JTG 56]
- 1 Fezandipiti ex [SFA 38]
- 1 Meowth ex [POR 62]

## Entrenadores
- 4 Determinación de Lylia [MEG 119]
- 2 Denis [SCR 133]
- 2 Órdenes de Jefes [MEG 114]
- 1 Liza [WHT 84]
- 1 Maya [PFL 87]
- 4 Pokétableta [POR 81]
- 4 Pokochos Gemelos [TEF 144]
- 4 Ultra Ball [MEG 131]
- 3 Caramelo Raro [MEG 125]
- 2 Camilla Nocturna [SFA 61]
- 1 Cambio [MEG 130]
- 1 Capturador Supremo [TEF 157]
- 1 Interruptor de Energía [MEG 115]
- 1 Pokégear 3.0 [BLK 84]
- 1 Reciclaherramientas [WHT 85]
- 2 Torre de Interferencia [TWM 153]

**Energía - 7**
- 4 Energía Psíquica [MEE 5]
- 3 Energía Fuego [MEE 2]

"#,
        "dragapult.txt",
        Some("Dragapult ex – Top 8 Regional Liverpool"),
    );
}

/// Portuguese: a spreadsheet whose header row is in Portuguese.
#[test]
fn portuguese_spreadsheet_with_a_localized_header_row() {
    assert_reads_as(
        "pt.txt",
        "Quantidade\tNome\tColeção\tNúmero
4\tDreepy\tTWM\t128
4\tDrakloak\tTWM\t129
3\tDragapult ex\tTWM\t130
2\tDuskull\tPRE\t35
1\tDusclops\tPRE\t36
1\tDusknoir\tPRE\t37
1\tBudew\tPRE\t4
1\tClefairy ex da Lílian\tJTG\t56
1\tFezandipiti ex\tSFA\t38
1\tMeowth ex\tPOR\t62
4\tDeterminação da Lílian\tMEG\t119
2\tOrdem da Chefia\tMEG\t114
2\tPlínio\tSCR\t133
1\tDawn\tPFL\t87
1\tHilda\tWHT\t84
4\tPoffin de Colega\tTEF\t144
4\tPoké Tablet\tPOR\t81
4\tUltra Bola\tMEG\t131
3\tDoce Raro\tMEG\t125
2\tMaca Noturna\tSFA\t61
1\tPegador Superior\tTEF\t157
1\tPokégear 3.0\tBLK\t84
1\tSubstituição\tMEG\t130
1\tSubstituição de Energia\tMEG\t115
1\tSucateador de Ferramentas\tWHT\t85
2\tTorre de Interferência\tTWM\t153
4\tEnergia Psíquica\tMEE\t5
3\tEnergia de Fogo\tMEE\t2
",
        "dragapult.txt",
        None,
    );
}

/// German: `Trainer - 34` headers, the code and number before the name.
#[test]
fn german_list_with_the_printing_first() {
    assert_reads_as(
        "de.txt",
        r#"Katapuldra-ex (Liga-Pokal, 2. Platz)

Pokémon - 19
4 TWM 128 Grolldra
4 TWM 129 Phandra
3 TWM 130 Katapuldra-ex
2 PRE 35 Zwirrlicht
1 PRE 36 Zwirrklop
1 PRE 37 Zwirrfinst
1 SFA 38 Beatori-ex
1 PRE 4 Knospi
1 JTG 56 Lillys Piepi-ex
1 POR 62 Mauzi-ex

Trainer - 34
4 MEG 119 Lillys Entschlossenheit
2 MEG 114 Befehl vom Boss
2 SCR 133 Matt
1 WHT 84 Lotta
1 PFL 87 Lucia
4 TEF 144 Dicke-Freunde-Knursp
4 MEG 131 Hyperball
4 POR 81 Poképad
3 MEG 125 Sonderbonbon
2 SFA 61 Nachttrage
1 WHT 85 Ausrüstungsentsorger
1 MEG 115 Energie-Umschalter
1 TEF 157 Erstklassiger Fänger
1 BLK 84 Pokécom 3.0
1 MEG 130 Tausch
2 TWM 153 Störturm

Energie - 7
4 MEE 5 Psycho-Energie
3 MEE 2 Feuer-Energie

"#,
        "dragapult.txt",
        Some("Katapuldra-ex (Liga-Pokal, 2. Platz)"),
    );
}

/// Italian: a title written as a comment (what `fmt` writes), `x4 Name - SET NUM`.
#[test]
fn italian_list_with_a_dash_before_the_printing() {
    assert_reads_as(
        "it.txt",
        r#"// Dragapult-ex, la mia lista

Pokémon: 19
x4 Dreepy - TWM 128
x4 Drakloak - TWM 129
x3 Dragapult-ex - TWM 130
x2 Duskull - PRE 35
x1 Dusclops - PRE 36
x1 Dusknoir - PRE 37
x1 Budew - PRE 4
x1 Clefairy-ex di Lylia - JTG 56
x1 Fezandipiti-ex - SFA 38
x1 Meowth-ex - POR 62

Allenatori: 34
x4 Determinazione di Lylia - MEG 119
x2 Ordini del Capo - MEG 114
x2 Piros - SCR 133
x1 Anita - WHT 84
x1 Lucinda - PFL 87
x4 Poffin del Cuore - TEF 144
x4 Poké Pad - POR 81
x4 Ultra Ball - MEG 131
x3 Caramella rara - MEG 125
x2 Barella Notturna - SFA 61
x1 Acchiappa-Pokémon Eccellente - TEF 157
x1 Pokégear 3.0 - BLK 84
x1 Scambio - MEG 130
x1 Scambio di Energia - MEG 115
x1 Scartaoggetti - WHT 85
x2 Torre di Interferenza - TWM 153

Energia: 7
x4 Energia Psico - MEE 5
x3 Energia Fuoco - MEE 2

"#,
        "dragapult.txt",
        Some("Dragapult-ex, la mia lista"),
    );
}

/// The repro of issue 27: every line read; lines without a count but with their printing
/// set apart are one copy.
#[test]
fn mixed_shapes_in_one_list() {
    let text = "Charizard ex - 1st place Regional\n\nPokemon (16)\n3x Charmander (PAF 7)\n\
                Dreepy x4\nIono [PAL 185]\nSwitch - MEG 130\nTWM 128 Dreepy\n";
    let deck = checked("mixed.txt", text);
    assert_eq!(deck.list.issues, Vec::new());
    let read: Vec<String> = deck
        .list
        .cards
        .iter()
        .map(|c| {
            let printing = [c.set.as_deref(), c.number.as_deref()];
            format!(
                "{} {} {}",
                c.count,
                c.name,
                printing.map(|p| p.unwrap_or("-")).join(" ")
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            "3 Charmander PAF 7",
            "4 Dreepy - -",
            "1 Iono PAL 185",
            "1 Switch MEG 130",
            "1 Dreepy TWM 128"
        ]
    );
    assert_eq!(deck.card_count(), 10);
}

/// Free text is a title or a note only before the first card and header: after them it is
/// a `parse-error` naming the closest shape, and a misspelled card is still a card.
#[test]
fn free_text_after_the_first_card_and_misspelled_cards_are_still_findings() {
    let text = "my list\nPokémon: 4\n4 Dreepyy\nDreepy 1\nAce Specs (1)\n";
    let deck = checked("typos.txt", text);
    assert_eq!(
        rule_lines(&deck, |rule| rule != "deck-size"),
        [
            (Some(3), "unknown-card"),
            (Some(4), "parse-error"),
            (Some(5), "parse-error")
        ],
        "{:#?}",
        deck.diagnostics
    );
    let messages: Vec<&str> = deck
        .list
        .issues
        .iter()
        .map(|i| i.message.as_str())
        .collect();
    assert!(
        messages[0].contains("write the count first: `1 Dreepy`"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("`Ace Specs` is not a header"),
        "{}",
        messages[1]
    );
    assert_eq!(deck.list.title.unwrap().text, "my list");
}

/// The title is the first line of a human report and a field of the JSON report.
#[test]
fn reports_show_the_title() {
    let dir = common::workspace(&[]);
    std::fs::write(dir.path().join("site.txt"), SITE_EN).unwrap();
    let (code, out) = common::run_deckbox(dir.path(), &["check", "site.txt"], b"");
    assert_eq!(code, 0, "{out}");
    assert!(
        common::stdout_of(&out)
            .starts_with("site.txt: Dragapult ex - 1st place Regional Stuttgart\n"),
        "{out}"
    );
    let (code, out) =
        common::run_deckbox(dir.path(), &["check", "site.txt", "--output", "json"], b"");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(r#""title": "Dragapult ex - 1st place Regional Stuttgart""#),
        "{out}"
    );
}

/// Semicolon rows are read under a header row that uses them (a comma or a semicolon may be
/// part of a line otherwise); `add` writes the count into a line that left it out, and
/// raises the one written after the name.
#[test]
fn semicolon_rows_and_edits_of_lines_without_a_leading_count() {
    let deck = checked(
        "sheet.csv.txt",
        "Nombre;Nom;Extension;Numéro\n4;Tarsal;MEG;58\n3;Kirlia;MEG;59\n",
    );
    assert_eq!(deck.list.issues, Vec::new());
    let read: Vec<(u32, &str, Option<&str>)> = deck
        .list
        .cards
        .iter()
        .map(|c| (c.count, c.name.as_str(), c.number.as_deref()))
        .collect();
    assert_eq!(read, [(4, "Tarsal", Some("58")), (3, "Kirlia", Some("59"))]);

    let dir = common::workspace(&[]);
    let path = dir.path().join("list.txt");
    std::fs::write(&path, "Pokemon (2)\nIono [PAL 185]\nDreepy x1\n").unwrap();
    for card in ["Iono PAL 185", "Dreepy"] {
        let (code, out) = common::run_deckbox(
            dir.path(),
            &["add", "list.txt", card, "--format", "unlimited"],
            b"",
        );
        assert_eq!(code, 1, "{out}");
    }
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "Pokemon (4)\n2 Iono [PAL 185]\nDreepy x2\n"
    );
}

/// A deck site's export with the Trainer section cut into parts (`Supporters (10)`,
/// `Items (22)`, `Stadiums (2)`) and the Energy written as `Basic Energy - 7`: every part's
/// header is a header, and its number counts its own lines; `Trainer (34)` counts all three.
#[test]
fn sub_section_headers_are_headers_and_count_their_own_lines() {
    let text = SITE_EN
        .replace("Trainers (34)\n", "Trainer (34)\nSupporters (10)\n")
        .replace("4x Buddy-Buddy", "Items (22)\n4x Buddy-Buddy")
        .replace("2x Jamming", "Stadiums (2)\n2x Jamming")
        .replace("Energy (7)\n", "Basic Energy - 7\n");
    let text = text.as_str();
    assert_reads_as(
        "parts.txt",
        text,
        "dragapult.txt",
        Some("Dragapult ex - 1st place Regional Stuttgart"),
    );
    let deck = checked("parts.txt", text);
    let parts: Vec<(usize, bool, Option<u64>)> = deck
        .list
        .headers
        .iter()
        .map(|h| (h.line, h.sub, h.count))
        .collect();
    assert_eq!(
        parts,
        [
            (3, false, Some(19)),
            (15, false, Some(34)),
            (16, true, Some(10)),
            (22, true, Some(22)),
            (33, true, Some(2)),
            (36, true, Some(7)),
        ]
    );
}

/// The same parts in French, Spanish, German, Italian and Portuguese: each is a header.
#[test]
fn sub_section_headers_in_six_languages() {
    let lists = [
        (
            "Dresseur (32)",
            "Supporters (9)",
            "Objets (21)",
            "Stades (2)",
            "Énergies de base : 12",
        ),
        (
            "Entrenador (32)",
            "Partidarios (9)",
            "Objetos (21)",
            "Estadios (2)",
            "Energías básicas: 12",
        ),
        (
            "Trainer (32)",
            "Unterstützer (9)",
            "Items (21)",
            "Stadien (2)",
            "Basis-Energie - 12",
        ),
        (
            "Allenatore (32)",
            "Aiuti (9)",
            "Strumenti (21)",
            "Stadi (2)",
            "Energia base: 12",
        ),
        (
            "Treinador (32)",
            "Apoiadores (9)",
            "Itens (21)",
            "Estádios (2)",
            "Energias básicas: 12",
        ),
    ];
    let reference = example("gardevoir-fr.txt");
    let trainers: Vec<&str> = reference
        .lines()
        .skip_while(|l| !l.starts_with("Dresseur"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    let pokemon: Vec<&str> = reference
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    for (trainer, supporters, items, stadiums, energy) in lists {
        let text = format!(
            "Pokémon (16)\n{}\n\n{trainer}\n{supporters}\n{}\n{items}\n{}\n{stadiums}\n{}\n\n{energy}\n12 Énergie Psy MEE 5\n",
            pokemon.join("\n"),
            trainers[..4].join("\n"),
            trainers[4..14].join("\n"),
            trainers[14..].join("\n"),
        );
        let deck = checked("parts.txt", &text);
        assert_eq!(deck.list.issues, Vec::new(), "{trainer}:\n{text}");
        assert_eq!(deck.card_count(), 60, "{trainer}");
        let subs = deck.list.headers.iter().filter(|h| h.sub).count();
        assert_eq!(subs, 4, "{trainer}: {:#?}", deck.list.headers);
        let counts: Vec<&str> = deck
            .diagnostics
            .iter()
            .filter(|d| d.rule.id() == "header-count")
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(counts, Vec::<&str>::new(), "{trainer}");
    }
}

/// Header-count scoping: a part's number is checked against its own lines only, and the
/// section's number against all its parts; a wrong part is flagged on its own line.
#[test]
fn a_wrong_part_count_is_flagged_on_the_part_and_the_section_count_spans_its_parts() {
    let text = "Pokémon: 4\n4 Dreepy TWM 128\nTrainer (8)\nSupporters (3)\n4 Iono PAL 185\nItems (4)\n4 Ultra Ball MEG 131\n";
    let deck = checked("scoped.txt", text);
    assert_eq!(deck.list.issues, Vec::new());
    let counts: Vec<(Option<usize>, &str)> = deck
        .diagnostics
        .iter()
        .filter(|d| d.rule.id() == "header-count")
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        counts,
        [(
            Some(4),
            "the header 'Supporters (3)' says 3, but the part it heads has 4 cards on 1 line"
        )]
    );
}

/// Typed by hand on a phone, all in lower case, codes too (`4 dreepy twm 128`), one number
/// set off by two blanks, one code glued to its number, two in parentheses, a number with
/// the set's total as the card prints it (`119/132`), one with a `#` (`#84`): every line
/// reads as the printing its code and number name, as `examples/dragapult.txt` does.
#[test]
fn hand_typed_in_lower_case_with_the_set_codes() {
    let text = "pokemon: 19\n4 dreepy twm 128\n4 drakloak twm129\n3 dragapult ex twm  130\n\
        2 duskull pre 35\n1 dusclops pre 36\n1 dusknoir pre 37\n1 budew (pre) 4\n\
        1 fezandipiti ex sfa 38\n1 lillie's clefairy ex jtg 56\n1 meowth ex por 62\n\n\
        trainer: 34\n4 lillie's determination meg 119/132\n2 boss's orders meg 114\n\
        2 crispin (scr 133)\n1 dawn pfl 87\n1 hilda wht #84\n4 buddy-buddy poffin tef 144\n\
        4 poké pad por 81\n4 ultra ball meg 131\n3 rare candy meg 125\n\
        2 night stretcher sfa 61\n1 energy switch meg 115\n1 pokégear 3.0 blk 84\n\
        1 prime catcher tef 157\n1 switch meg 130\n1 tool scrapper wht 85\n\
        2 jamming tower twm 153\n\nenergy: 7\n4 psychic energy mee 5\n3 fire energy mee 2\n";
    assert_reads_as("typed.txt", text, "dragapult.txt", None);
}

/// The lower-case reading is a second one, read as the same line in capitals would be: a
/// code and number that name another card say so (`card-mismatch`), a code no set has
/// leaves the card found by its name (`unknown-printing`), and a name no card has stays
/// `unknown-card`, whole. `fmt` writes the codes in capitals.
#[test]
fn a_lower_case_code_is_read_as_the_same_line_in_capitals() {
    let text = "Pokémon: 4\n1 drakloak twm 129\n1 drakloak twm 130\n1 drakloak zzq 129\n\
        1 blorp zzq 12\n";
    let deck = checked("lower.txt", text);
    assert_eq!(
        rule_lines(&deck, |rule| rule.starts_with("unknown")
            || rule == "card-mismatch"),
        [
            (Some(3), "card-mismatch"),
            (Some(4), "unknown-printing"),
            (Some(5), "unknown-card")
        ],
        "{:#?}",
        deck.diagnostics
    );
    let unknown = (deck.diagnostics.iter()).find(|d| d.rule.id() == "unknown-card");
    assert_eq!(
        unknown.map(|d| d.message.as_str()),
        Some("unknown card 'blorp zzq 12'")
    );
    let lines: Vec<(Option<&str>, Option<&str>)> = (deck.cards.iter())
        .map(|card| (card.line.set.as_deref(), card.line.number.as_deref()))
        .collect();
    assert_eq!(lines[0], (Some("twm"), Some("129")));
    assert_eq!(
        lines[3],
        (None, None),
        "an unknown card: the line as written"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lower.txt"), text).unwrap();
    let (code, shown) = common::run_deckbox(dir.path(), &["fmt", "lower.txt", "--no-config"], b"");
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("1 drakloak TWM 129\n"), "{shown}");
    assert!(shown.contains("1 drakloak TWM 130\n"), "{shown}");
}

/// Names typed in capitals, as players with caps lock on write them (found in lists pasted
/// in Spanish, Italian, French, German and English): a name whose last two words look like
/// a set code and a number spelled in letters (`4 AVENTURA DE ECO`, `ORDINI DEL CAPO`,
/// `ENERGY SEARCH PRO`) is read whole, and a Pokémon ex in capitals (`FEZANDIPITI EX`,
/// `MAUZI-EX`) is the Pokémon ex when no Pokémon-EX has that name. A number in words that
/// is one stays one (`Unown UF A`), and a real Pokémon-EX keeps its name (`Mewtwo EX`).
#[test]
fn names_typed_in_capitals_are_read_whole() {
    let text = "Pokémon: 6\n1 FEZANDIPITI EX\n1 MAUZI-EX\n1 DRAGAPULT EX\n1 LILLIE'S CLEFAIRY EX\n\
        1 Unown UF A\n1 MEWTWO EX NXD 54\n\nTrainer: 9\n4 AVENTURA DE ECO\n2 ORDINI DEL CAPO\n\
        2 ORDRES DU BOSS\n1 ENERGY SEARCH PRO\n1 TEAM ROCKET'S GREAT BALL\n1 BEFEHL VOM BOSS\n";
    let deck = checked("caps.txt", text);
    assert_eq!(
        rule_lines(&deck, |rule| rule.starts_with("unknown")
            || rule == "card-mismatch"),
        [],
        "{:#?}",
        deck.diagnostics
    );
    let db = embedded_db();
    let names: Vec<String> = (deck.cards.iter())
        .map(|card| {
            let printing = card.printing.and_then(|id| db.get(id));
            printing.map_or("?".to_string(), |p| p.rules_name().to_string())
        })
        .collect();
    assert_eq!(
        names,
        [
            "Fezandipiti ex",
            "Meowth ex",
            "Dragapult ex",
            "Lillie's Clefairy ex",
            "Unown",
            "Mewtwo EX",
            "Ethan's Adventure",
            "Boss's Orders",
            "Boss's Orders",
            "Energy Search Pro",
            "Team Rocket's Great Ball",
            "Boss's Orders",
        ]
    );
    // A line of four words whose reading with a code names a card keeps that reading.
    let unown = &deck.cards[4].line;
    assert_eq!(
        (unown.set.as_deref(), unown.number.as_deref()),
        (Some("UF"), Some("A"))
    );
}

/// Titles that start with an ordinal as each language writes it (`2e place`, `1er`,
/// `3ème`, `1º lugar`, `2ª colocação`, `1o posto`) are titles, not counts glued to a name:
/// the list below reads as the example it copies, and `fmt` keeps the title.
#[test]
fn titles_with_ordinals_in_every_language() {
    for title in [
        "2e place Régional de Lille – Marie Dupont",
        "1er Régional de Lyon",
        "3ème place, Coupe de Bretagne",
        "1º lugar Regional Curitiba",
        "2ª colocação – Liga Pokémon São Paulo",
        "1º puesto Regional Madrid",
        "1o posto Regionale di Bologna",
    ] {
        let text = format!("{title}\n\n{}", example("gardevoir-fr.txt"));
        assert_reads_as("titled.txt", &text, "gardevoir-fr.txt", Some(title));
    }
    // A count glued to a name that starts like an ordinal suffix is still a glued count.
    let deck = checked("glued.txt", "Pokémon: 8\n4Eevee\n4Arven\n");
    assert_eq!(deck.list.issues.len(), 2, "{:#?}", deck.list.issues);
}

/// A list pasted in a Discord code block, a sentence before it: the fences frame the list
/// as a banner would (the closing one was a `parse-error`).
#[test]
fn a_list_in_a_code_block() {
    let text = format!(
        "Here's my list for Sunday:\n```\n{}```\n",
        example("dragapult.txt")
    );
    assert_reads_as(
        "discord.txt",
        &text,
        "dragapult.txt",
        Some("Here's my list for Sunday:"),
    );
    let text = format!("```text\n{}\n```", example("dragapult.txt"));
    assert_reads_as("discord.txt", &text, "dragapult.txt", None);
}

/// An export in the PTCGO layout from a client in French, Spanish, Portuguese, Italian or
/// German: the card-type headers in that language (`##Cartes Dresseur - 32`) are headers,
/// so the Trainers are filed as Trainers (they were comments, and the Trainers counted under
/// Pokémon).
#[test]
fn ptcgo_exports_with_localized_headers() {
    let cards = |section: &str| -> String {
        let list = example("gardevoir-fr.txt");
        let start = list.find(section).unwrap();
        let body = &list[start..];
        let body = &body[body.find('\n').unwrap() + 1..];
        let end = body.find("\n\n").unwrap_or(body.len());
        body[..end]
            .lines()
            .map(|line| format!("* {line}\n"))
            .collect()
    };
    let (pokemon, trainers, energy) = (cards("Pokémon :"), cards("Dresseur :"), cards("Énergie :"));
    for (p, t, e) in [
        ("Pokémon", "Cartes Dresseur", "Cartes Énergie"),
        (
            "Cartas de Pokémon",
            "Cartas de Entrenador",
            "Cartas de Energía",
        ),
        (
            "Cartas de Pokémon",
            "Cartas de Treinador",
            "Cartas de Energia",
        ),
        ("Carte Pokémon", "Carte Allenatore", "Carte Energia"),
        ("Pokémon-Karten", "Trainerkarten", "Energiekarten"),
    ] {
        let text = format!(
            "****** Pokémon Trading Card Game Deck List ******\n\n##{p} - 16\n\n{pokemon}\n\
             ##{t} - 32\n\n{trainers}\n##{e} - 12\n\n{energy}\nTotal Cards - 60\n\n\
             ****** Deck List Generated by the Pokémon TCG Online www.pokemon.com/TCGO ******\n"
        );
        assert_reads_as("ptcgo.txt", &text, "gardevoir-fr.txt", None);
        let deck = checked("ptcgo.txt", &text);
        let sections: Vec<_> = deck.list.headers.iter().map(|h| h.section).collect();
        assert_eq!(sections.len(), 3, "{t}: {sections:?}");
    }
}

/// A Discord post: a title in bold with an emoji, headers dressed in emoji and bold
/// (`🧰 **Trainers (34)**`, `Energy ⚡ (7)`), counts and names in bold. Every card line was
/// misread (`**2x Boss's Orders**` counted once, `- **4 Drakloak** TWM 129` unreadable) and
/// every header a `parse-error`; the markup is now read as blanks, and the title keeps it.
#[test]
fn a_discord_post_in_bold_with_emoji() {
    let text = "**Dragapult for Sunday** 🔥\n\n🐉 **Pokémon (19)**\n- **4x Dreepy** (TWM 128)\n\
        - **4 Drakloak** TWM 129\n- 3 **Dragapult ex** TWM 130\n- 2 Duskull PRE 35\n\
        - 1 Dusclops PRE 36\n- 1 Dusknoir PRE 37\n**1 Budew PRE 4**\n\
        * 1 __Fezandipiti ex__ SFA 38\n- 1 Lillie's Clefairy ex JTG 56\n- 1 Meowth ex POR 62\n\n\
        🧰 **Trainers (34)**\n- 4 Lillie's Determination MEG 119\n\
        * **2x Boss's Orders** (MEG 114)\n- 2 Crispin SCR 133\n- 1 Dawn PFL 87\n\
        - 1 Hilda WHT 84\n- 4 Buddy-Buddy Poffin TEF 144\n- 4 Poké Pad POR 81\n\
        - 4 Ultra Ball MEG 131\n- 3 Rare Candy MEG 125\n- 2 Night Stretcher SFA 61\n\
        - 1 Energy Switch MEG 115\n- 1 Pokégear 3.0 BLK 84\n- 1 Prime Catcher TEF 157\n\
        - 1 Switch MEG 130\n- 1 Tool Scrapper WHT 85\n- 2 Jamming Tower TWM 153\n\n\
        Energy ⚡️ (7)\n- **4 Psychic Energy** MEE 5\n- 3 Fire Energy MEE 2\n";
    assert_reads_as(
        "discord.txt",
        text,
        "dragapult.txt",
        Some("**Dragapult for Sunday** 🔥"),
    );
    // Card names keep their symbols: `★` is not an emoji.
    let deck = checked("star.txt", "Pokémon: 1\n1 Rayquaza ★ DRX 128\n");
    assert_eq!(deck.cards[0].line.name, "Rayquaza ★");
}

/// `fmt` keeps a player's notes after their cards (`// tech`, `# MVP`) on the card's line,
/// in `//` form, the notes of merged lines joined: `fmt --write` dropped them before.
/// Formatting the result again changes nothing.
#[test]
fn fmt_keeps_the_notes_after_cards() {
    let text = "Trainer: 8\n1 Ultra Ball MEG 131 // tech\n2 Iono PAL 185 # MVP\n\
        3 Ultra Ball MEG 131 // count these\n2 Switch MEG 130\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), text).unwrap();
    let (code, shown) = common::run_deckbox(dir.path(), &["fmt", "notes.txt", "--no-config"], b"");
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("\n2 Iono PAL 185 // MVP\n"), "{shown}");
    assert!(
        shown.contains("\n4 Ultra Ball MEG 131 // tech; count these\n"),
        "{shown}"
    );
    assert!(shown.contains("\n2 Switch MEG 130\n"), "{shown}");
    let args = ["fmt", "--write", "notes.txt", "--no-config"];
    let (code, shown) = common::run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 0, "{shown}");
    let written = std::fs::read_to_string(dir.path().join("notes.txt")).unwrap();
    assert!(written.contains("// tech; count these"), "{written}");
    let args = ["fmt", "--check", "notes.txt", "--no-config"];
    let (code, shown) = common::run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 0, "a second pass changes nothing: {shown}");
}

/// Notes players write after a card in forum posts, other than `//` and `#` comments:
/// `(thanks to Marie)` after the printing, `<-- MVP`, `← so good`, `- tech`. The card is
/// read without the note (the whole line was an `unknown-card`), and `fmt` keeps the note
/// as the card's comment.
#[test]
fn notes_after_a_card_in_a_forum_post() {
    let noted = example("dragapult.txt")
        .replace(
            "4 Buddy-Buddy Poffin TEF 144",
            "4 Buddy-Buddy Poffin TEF 144 (thanks to Marie)",
        )
        .replace("1 Prime Catcher TEF 157", "1 Prime Catcher TEF 157 <-- MVP")
        .replace("2 Crispin SCR 133", "2 Crispin SCR 133 ← so good")
        .replace("1 Dawn PFL 87", "1 Dawn PFL 87 - tech")
        .replace(
            "1 Hilda WHT 84",
            "1 Hilda WHT 84 (tech, cut for a 2nd Boss?)",
        );
    assert_eq!(noted.matches("MVP").count(), 1, "the example changed");
    assert_reads_as("forum.txt", &noted, "dragapult.txt", None);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("forum.txt"), &noted).unwrap();
    let (code, shown) = common::run_deckbox(dir.path(), &["fmt", "forum.txt", "--no-config"], b"");
    assert_eq!(code, 0, "{shown}");
    for kept in [
        "4 Buddy-Buddy Poffin TEF 144 // (thanks to Marie)\n",
        "1 Prime Catcher TEF 157 // <-- MVP\n",
        "2 Crispin SCR 133 // ← so good\n",
        "1 Dawn PFL 87 // - tech\n",
    ] {
        assert!(shown.contains(kept), "{kept:?} in\n{shown}");
    }
    // A name with no printing, then a note, reads too.
    let deck = checked(
        "notes.txt",
        "Trainer: 3\n1 Ultra Ball (tech)\n2 Iono <-- MVP\n",
    );
    assert_eq!(
        rule_lines(&deck, |rule| rule.starts_with("unknown")),
        [],
        "{:#?}",
        deck.diagnostics
    );
}
