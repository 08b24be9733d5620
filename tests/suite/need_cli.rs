#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `deckbox need` end to end with the embedded card index, on collections kept the way
//! players keep them (tests/fixtures/need/): a binder list typed by hand, the same binder
//! in French, and the same binder as TCGplayer and Dragon Shield (web and app) export it,
//! with their condition, language and price columns. Every file of one binder must give
//! the same answer. No dataset needed.

use crate::common;

use common::{run_deckbox, stdout_of};

const FIXTURES: &str = "tests/fixtures/need";

/// The same binder, written as every app writes it (tests/fixtures/need/SOURCES.md).
const BINDERS: [&str; 11] = [
    "binder.txt",
    "binder-fr.txt",
    "tcgplayer.csv",
    "tcgplayer-web.csv",
    "dragonshield-web.csv",
    "dragonshield-app.csv",
    "collectr.csv",
    "tcgcollector.csv",
    "deckbox-org.csv",
    "pkmngg.txt",
    "deckbox.csv",
];

/// Runs `deckbox need` from the fixtures' folder.
fn need(args: &[&str]) -> (i32, String) {
    let dir = common::repo().join(FIXTURES);
    let mut all = vec!["need", "--format", "standard"];
    all.extend_from_slice(args);
    run_deckbox(&dir, &all, b"")
}

/// What the binder lacks for deck.txt by the reprint rule: the Dragapult line it has too
/// few of, and the Dusknoir it has none of. Its SVI Ultra Ball, Rare Candy and Switch, PAL
/// Boss's Orders and SVE Energy count for the MEG/MEE printings the deck names.
const MISSING: &str = "2 Drakloak TWM 129\n2 Dragapult ex TWM 130\n1 Dusknoir PRE 37\n";

/// With `--exact-printing`, the older printings count for nothing.
const MISSING_EXACT: &str = "\
2 Drakloak TWM 129
2 Dragapult ex TWM 130
1 Dusknoir PRE 37
4 Ultra Ball MEG 131
3 Rare Candy MEG 125
2 Boss's Orders MEG 114
1 Switch MEG 130
4 Psychic Energy MEE 5
3 Fire Energy MEE 2
";

#[test]
fn every_form_of_one_binder_gives_the_same_need() {
    for binder in BINDERS {
        let (code, run) = need(&["deck.txt", "--have", binder, "--output", "list"]);
        assert_eq!(code, 1, "{binder}: something is missing\n{run}");
        assert_eq!(stdout_of(&run), MISSING, "{binder}\n{run}");
        assert!(run.ends_with("--- stderr\n"), "{binder}: no finding\n{run}");
        let (code, run) = need(&[
            "deck.txt",
            "--have",
            binder,
            "--exact-printing",
            "--output",
            "list",
        ]);
        assert_eq!(code, 1, "{binder}\n{run}");
        assert_eq!(stdout_of(&run), MISSING_EXACT, "{binder} exact\n{run}");
    }
}

/// Cardmarket's stock export has no collector number: a row whose name fits several
/// printings of its expansion counts by the reprint rule, with a warning, and never for
/// `--exact-printing` (which printing it is cannot be known).
#[test]
fn a_cardmarket_stock_export_counts_by_name_and_expansion_and_says_so() {
    let (code, run) = need(&["deck.txt", "--have", "cardmarket.csv", "--output", "list"]);
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), MISSING, "{run}");
    assert!(
        run.contains("cardmarket.csv:4:1: warning unknown-printing: 2 printings fit 'Dragapult ex' (set 'TWM / Twilight Masquerade', no number)"),
        "{run}"
    );
    let (code, run) = need(&[
        "deck.txt",
        "--have",
        "cardmarket.csv",
        "--exact-printing",
        "--output",
        "list",
    ]);
    assert_eq!(code, 1, "{run}");
    let exact = MISSING_EXACT.replace("2 Dragapult ex TWM 130", "3 Dragapult ex TWM 130");
    assert_eq!(stdout_of(&run), exact, "{run}");
}

#[test]
fn an_owned_svi_ultra_ball_counts_for_meg_131_by_the_reprint_rule_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(dir.path().join("have.txt"), "4 Ultra Ball SVI 196\n").unwrap();
    let args = [
        "need", "--format", "standard", "deck.txt", "--have", "have.txt",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 0, "{run}");
    assert!(
        run.contains("0  Ultra Ball MEG 131") && run.contains("4 Ultra Ball SVI 196 (have.txt:1)"),
        "{run}"
    );
    let mut exact = args.to_vec();
    exact.extend(["--exact-printing", "--output", "json"]);
    let (code, run) = run_deckbox(dir.path(), &exact, b"");
    assert_eq!(code, 1, "{run}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert_eq!(json["buildable"], false);
    assert_eq!(
        json["missing"],
        serde_json::json!([{"name": "Ultra Ball", "count": 4, "set": "MEG", "number": "131"}])
    );
}

#[test]
fn any_basic_energy_of_the_type_counts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "8 Psychic Energy MEE 5\n").unwrap();
    std::fs::write(
        dir.path().join("have.txt"),
        "5 Psychic Energy SVE 5\n3 Psychic Energy EVO 95\n",
    )
    .unwrap();
    let (code, run) = run_deckbox(
        dir.path(),
        &["need", "deck.txt", "--have", "have.txt", "--output", "list"],
        b"",
    );
    assert_eq!((code, stdout_of(&run)), (0, ""), "{run}");
}

#[test]
fn several_decks_need_the_sum() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "3 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "2 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(dir.path().join("have.txt"), "4 Ultra Ball SVI 196\n").unwrap();
    let (code, run) = run_deckbox(
        dir.path(),
        &[
            "need", "a.txt", "b.txt", "--have", "have.txt", "--output", "json",
        ],
        b"",
    );
    assert_eq!(code, 1, "{run}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert_eq!(json["missing_count"], 1);
    assert_eq!(json["missing"][0]["count"], 1);
    let per_deck: Vec<u64> = json["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|deck| deck["missing"].as_u64().unwrap())
        .collect();
    assert_eq!(per_deck.iter().sum::<u64>(), 1, "{run}");
}

#[test]
fn unknown_collection_lines_are_reported_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(
        dir.path().join("have.txt"),
        "2 Ultra Ball SVI 196\n2 Ultra Bal\nUltra Ball box: ask Sam\n",
    )
    .unwrap();
    let (code, run) = run_deckbox(
        dir.path(),
        &["need", "deck.txt", "--have", "have.txt", "--output", "list"],
        b"",
    );
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), "2 Ultra Ball MEG 131\n", "{run}");
    assert!(
        run.contains("have.txt:2:"),
        "the typo is reported at its line\n{run}"
    );
    assert!(
        run.contains("have.txt:3:"),
        "the note is reported at its line\n{run}"
    );
}

#[test]
fn a_csv_row_not_read_is_reported_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(
        dir.path().join("export.csv"),
        "Folder Name,Quantity,Trade Quantity,Card Name,Set Code,Set Name,Card Number,Condition,Printing,Language,Price Bought,Date Bought,LOW,MID,MARKET\n\
         Binder,4,0,Ultra Ball,SVI,Scarlet & Violet,196,NearMint,Normal,English,0.20,2023-04-02,0.10,0.20,0.20\n\
         Binder,1,0,Ultra Bawl,SVI,Scarlet & Violet,999,NearMint,Normal,English,0.20,2023-04-02,0.10,0.20,0.20\n",
    )
    .unwrap();
    let (code, run) = run_deckbox(
        dir.path(),
        &["need", "deck.txt", "--have", "export.csv"],
        b"",
    );
    assert_eq!(code, 0, "{run}");
    assert!(run.contains("export.csv:3:"), "{run}");
}

#[test]
fn a_csv_of_no_known_app_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    std::fs::write(dir.path().join("mine.csv"), "Card,How many\nUltra Ball,4\n").unwrap();
    let (code, run) = run_deckbox(dir.path(), &["need", "deck.txt", "--have", "mine.csv"], b"");
    assert_eq!(code, 2, "{run}");
    assert!(
        run.contains("header (Card, How many) has no quantity"),
        "{run}"
    );
    assert!(
        run.contains("Quantity: quantity / qty / count") && run.contains("simple name / card name"),
        "{run}"
    );
}

#[test]
fn buy_lists_for_tcgplayer_and_cardmarket() {
    let (code, run) = need(&["deck.txt", "--have", "binder.txt", "--output", "tcgplayer"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout_of(&run),
        "2 Drakloak [TWM] 129\n2 Dragapult ex [TWM] 130\n1 Dusknoir [PRE] 37\n"
    );
    let (_, run) = need(&["deck.txt", "--have", "binder.txt", "--output", "cardmarket"]);
    assert_eq!(stdout_of(&run), "2 Drakloak\n2 Dragapult ex\n1 Dusknoir\n");
}

#[test]
fn prices_cost_the_cheapest_printing_that_counts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deck.txt"),
        "4 Ultra Ball MEG 131\n2 Dreepy TWM 128\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("have.txt"), "1 Ultra Ball SVI 196\n").unwrap();
    std::fs::write(
        dir.path().join("prices.csv"),
        "name,set,number,price,currency\n\
         Ultra Ball,MEG,131,0.25,EUR\n\
         Ultra Ball,SVI,196,0.10,EUR\n\
         Ultra Ball,ASC,264,14.00,EUR\n",
    )
    .unwrap();
    let args = [
        "need",
        "deck.txt",
        "--have",
        "have.txt",
        "--prices",
        "prices.csv",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 1, "{run}");
    assert!(
        run.contains("cost of what is missing: 0.30 EUR (2 cards have no price)"),
        "3 Ultra Ball at the SVI price; Dreepy unpriced\n{run}"
    );
    let mut exact = args.to_vec();
    exact.extend(["--exact-printing", "--output", "json"]);
    let (_, run) = run_deckbox(dir.path(), &exact, b"");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert_eq!(
        json["cost"],
        serde_json::json!({"currency": "EUR", "amount": "1.00", "unpriced": 2})
    );
}

#[test]
fn nothing_missing_exits_0() {
    let (code, run) = need(&["deck.txt", "--have", "deck.txt", "--exact-printing"]);
    assert_eq!(code, 0, "{run}");
    assert!(run.contains("0 cards missing in all"), "{run}");
}

#[test]
fn check_have_adds_what_each_deck_lacks_to_the_event_table_and_short_output() {
    let dir = common::repo().join(FIXTURES);
    let args = [
        "check",
        "--format",
        "standard",
        "deck.txt",
        "--have",
        "binder.txt",
        "--output",
    ];
    let with = |output: &str| {
        let mut all = args.to_vec();
        all.push(output);
        run_deckbox(&dir, &all, b"")
    };
    let (_, run) = with("short");
    assert!(
        stdout_of(&run).ends_with("deck.txt: 5 cards missing from the collection\n"),
        "{run}"
    );
    let (_, run) = with("csv");
    let table = stdout_of(&run);
    let mut lines = table.lines();
    assert!(
        lines.next().unwrap().ends_with(",main attackers,missing"),
        "{run}"
    );
    assert!(lines.next().unwrap().ends_with(",5"), "{run}");
    let (_, run) = with("markdown");
    assert!(stdout_of(&run).contains("| missing |"), "{run}");
    // Without --have the table keeps its ten columns.
    let (_, run) = run_deckbox(
        &dir,
        &args[..4]
            .iter()
            .copied()
            .chain(["--output", "csv"])
            .collect::<Vec<_>>(),
        b"",
    );
    assert!(
        stdout_of(&run)
            .lines()
            .next()
            .unwrap()
            .ends_with(",main attackers"),
        "{run}"
    );
}

#[test]
fn a_collection_past_its_bounds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    let lines = deckbox::collection::MAX_COLLECTION_LINES + 1;
    std::fs::write(
        dir.path().join("huge.txt"),
        "1 Ultra Ball SVI 196\n".repeat(lines),
    )
    .unwrap();
    let (code, run) = run_deckbox(dir.path(), &["need", "deck.txt", "--have", "huge.txt"], b"");
    assert_eq!(code, 2, "{run}");
    assert!(
        run.contains("a collection file may have at most 50000"),
        "{run}"
    );
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    let (code, run) = run_deckbox(dir.path(), &["need", "deck.txt", "--have", "folder"], b"");
    assert_eq!(code, 2, "{run}");
}

#[test]
fn a_collection_at_its_bound_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Ultra Ball MEG 131\n").unwrap();
    let lines = deckbox::collection::MAX_COLLECTION_LINES - 1;
    std::fs::write(
        dir.path().join("big.txt"),
        "1 Ultra Ball SVI 196\n".repeat(lines),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, run) = run_deckbox(
        dir.path(),
        &["need", "deck.txt", "--have", "big.txt", "--output", "list"],
        b"",
    );
    assert_eq!((code, stdout_of(&run)), (0, ""), "{run}");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// Runs `need` in a fresh folder holding `deck.txt` and `have.csv`.
fn need_with(deck: &str, have: &str, extra: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    std::fs::write(dir.path().join("have.csv"), have).unwrap();
    let mut args = vec![
        "need", "--format", "standard", "deck.txt", "--have", "have.csv", "--output", "list",
    ];
    args.extend_from_slice(extra);
    run_deckbox(dir.path(), &args, b"")
}

const TCGPLAYER_HEADER: &str = "Quantity,Name,Simple Name,Set,Card Number,Set Code,Printing,Condition,Language,Rarity,Product ID,SKU\n";

/// Issue 43: TCGplayer's `SWSH08` is Fusion Strike; its Dreepy 128 is not Twilight
/// Masquerade's (another text), whatever the name and number share.
#[test]
fn a_fusion_strike_dreepy_does_not_count_as_twilight_masquerades() {
    let have = format!(
        "{TCGPLAYER_HEADER}4,Dreepy - 128/264,Dreepy,SWSH08: Fusion Strike,128/264,SWSH08,Normal,Near Mint,English,Common,1,1\n"
    );
    let (code, run) = need_with("4 Dreepy TWM 128\n", &have, &[]);
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), "4 Dreepy TWM 128\n", "{run}");
    assert!(
        run.ends_with("--- stderr\n"),
        "read as FST 128, no finding\n{run}"
    );
    // The same row in Twilight Masquerade's group, with TCGplayer's code `SV06`, counts.
    let have = format!(
        "{TCGPLAYER_HEADER}4,Dreepy - 128/167,Dreepy,SV06: Twilight Masquerade,128/167,SV06,Normal,Near Mint,English,Common,1,1\n"
    );
    let (code, run) = need_with("4 Dreepy TWM 128\n", &have, &["--exact-printing"]);
    assert_eq!(code, 0, "{run}");
}

/// Issue 43: TCGplayer files Scarlet & Violet's basic Energy under `SV01` as `Basic Psychic
/// Energy 005`. No SVI printing has that number: the row is read by name and number, every
/// printing that fits is one card (a basic Psychic Energy), so it counts by the reprint
/// rule, with a warning, and never for `--exact-printing`.
#[test]
fn tcgplayers_basic_energy_under_sv1_counts_only_by_the_reprint_rule_and_says_so() {
    let have = format!(
        "{TCGPLAYER_HEADER}4,Basic Psychic Energy,Basic Psychic Energy,SV01: Scarlet & Violet Base Set,005,SV1,Normal,Near Mint,English,Common,1,1\n"
    );
    let (code, run) = need_with("4 Psychic Energy SVE 5\n", &have, &[]);
    assert_eq!(code, 0, "{run}");
    assert!(
        run.contains("have.csv:2:1: warning unknown-printing: no 'Basic Psychic Energy' numbered 005 in set 'SV1 / SV01: Scarlet & Violet Base Set'"),
        "{run}"
    );
    let (code, run) = need_with("4 Psychic Energy SVE 5\n", &have, &["--exact-printing"]);
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), "4 Psychic Energy SVE 5\n", "{run}");
}

/// Issue 43 and issue 52 item 7: rows reported as errors count for nothing (a quantity
/// that is no whole number, Arabic-Indic digits, a number no printing of the name has in
/// its set, a card deckbox does not know); each is reported at its line.
#[test]
fn rows_reported_as_errors_are_not_counted() {
    let have = format!(
        "{TCGPLAYER_HEADER}\
         4.5,Dreepy,Dreepy,SV06: Twilight Masquerade,128/167,TWM,Normal,Near Mint,English,Common,1,1\n\
         \u{664},Dreepy,Dreepy,SV06: Twilight Masquerade,128/167,TWM,Normal,Near Mint,English,Common,1,1\n\
         4,Dreepy,Dreepy,SV06: Twilight Masquerade,129/167,TWM,Normal,Near Mint,English,Common,1,1\n\
         4,Dreepyy,Dreepyy,SV06: Twilight Masquerade,128/167,TWM,Normal,Near Mint,English,Common,1,1\n"
    );
    let (code, run) = need_with("4 Dreepy TWM 128\n", &have, &[]);
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), "4 Dreepy TWM 128\n", "{run}");
    for expected in [
        "have.csv:2:1: error parse-error: the quantity '4.5' is no whole number",
        "have.csv:3:1: error parse-error: the quantity",
        "have.csv:4:1: error unknown-printing: no 'Dreepy' is numbered 129/167 in set 'TWM / SV06: Twilight Masquerade'",
        "have.csv:5:",
    ] {
        assert!(run.contains(expected), "{expected}\n{run}");
    }
    // A list line whose set and number name another card is an error, and not counted.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Dreepy TWM 128\n").unwrap();
    std::fs::write(dir.path().join("have.txt"), "4 Dreepy TWM 130\n").unwrap();
    let args = [
        "need", "--format", "standard", "deck.txt", "--have", "have.txt", "--output", "list",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 1, "{run}");
    assert_eq!(stdout_of(&run), "4 Dreepy TWM 128\n", "{run}");
    assert!(run.contains("have.txt:1:1: error card-mismatch"), "{run}");
}

/// `need --output json` lists how each row of each collection file was read.
#[test]
fn the_json_lists_each_rows_reading() {
    let (code, run) = need(&[
        "deck.txt",
        "--have",
        "tcgplayer-web.csv",
        "--output",
        "json",
    ]);
    assert_eq!(code, 1, "{run}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    let rows = json["collection"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 16, "{run}");
    let first = &rows[0];
    assert_eq!(first["file"], "tcgplayer-web.csv");
    assert_eq!(first["line"], 2);
    assert_eq!(first["set"], "SV06 / SV06: Twilight Masquerade");
    assert_eq!(first["reading"], "printing");
    assert_eq!(first["printing"], "TWM 128");
    let fusion = &rows[15];
    assert_eq!(fusion["set"], "SWSH08 / SWSH08: Fusion Strike", "{run}");
    assert_eq!(fusion["printing"], "FST 128", "{run}");
}

/// Issue 43, "What is needed" 3: every way an app names a set, and printed numbers with
/// totals, narrow each row to the printing it names (checked by hand with `deckbox card`:
/// FLI 71 is Zygarde, PRE 71 Dreepy, BRS TG5 Zekrom, SIT TG5 Gardevoir, SCR 128
/// Terapagos ex, SUM 9 Rowlet, OBF 125 Charizard ex, SVI 196 Ultra Ball; deckbox writes
/// `TG05` as `TG5`); a number the set does not have is
/// an error, never another printing.
#[test]
fn set_codes_group_names_and_printed_totals_read_the_printing_they_name() {
    let rows = [
        ("Zygarde", "Forbidden Light", "071/131", "", Some("FLI 71")),
        (
            "Dreepy",
            "SV: Prismatic Evolutions",
            "071/131",
            "PRE",
            Some("PRE 71"),
        ),
        (
            "Zekrom",
            "SWSH09: Brilliant Stars Trainer Gallery",
            "TG05/TG30",
            "SWSH09: TG",
            Some("BRS TG5"),
        ),
        (
            "Gardevoir",
            "SWSH12: Silver Tempest Trainer Gallery",
            "TG05/TG30",
            "SWSH12: TG",
            Some("SIT TG5"),
        ),
        (
            "Terapagos ex",
            "SV07: Stellar Crown",
            "128/142",
            "SV07",
            Some("SCR 128"),
        ),
        ("Rowlet", "SM Base Set", "9/149", "SM01", Some("SUM 9")),
        (
            "Charizard ex",
            "Obsidian Flames",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        (
            "Charizard ex",
            "Flammes Obsidiennes",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        (
            "Charizard ex",
            "Obsidian Flammen",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        (
            "Charizard ex",
            "Llamas Obsidianas",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        (
            "Charizard ex",
            "Ossidiana Infuocata",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        (
            "Charizard ex",
            "Obsidiana em Chamas",
            "125/197",
            "",
            Some("OBF 125"),
        ),
        // A group of reprints from many sets: the number alone narrows it.
        (
            "Ultra Ball",
            "Prize Pack Series Cards",
            "196/198",
            "",
            Some("SVI 196"),
        ),
        // Numbers the named set does not give that card: errors, not counted.
        (
            "Zekrom",
            "SWSH09: Brilliant Stars Trainer Gallery",
            "TG06/TG30",
            "SWSH09: TG",
            None,
        ),
        (
            "Gardevoir",
            "SWSH12: Silver Tempest Trainer Gallery",
            "TG04/TG30",
            "SWSH12: TG",
            None,
        ),
        ("Charizard ex", "Flammes Obsidiennes", "124/197", "", None),
    ];
    let mut have = TCGPLAYER_HEADER.to_string();
    for (name, set, number, code, _) in rows {
        have.push_str(&format!(
            "1,{name},{name},{set},{number},{code},Normal,Near Mint,English,Rare,1,1\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Dreepy TWM 128\n").unwrap();
    std::fs::write(dir.path().join("have.csv"), &have).unwrap();
    let args = ["need", "deck.txt", "--have", "have.csv", "--output", "json"];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 1, "{run}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    let read = json["collection"]["rows"].as_array().unwrap();
    assert_eq!(read.len(), rows.len(), "{run}");
    for (row, (name, set, number, _, printing)) in read.iter().zip(rows) {
        let what = format!("{name} {set} {number}\n{run}");
        match printing {
            Some(printing) => {
                assert_eq!(row["reading"], "printing", "{what}");
                assert_eq!(row["printing"], printing, "{what}");
            }
            None => {
                assert_eq!(row["reading"], "error", "{what}");
                assert!(row["printing"].is_null(), "{what}");
                let line = row["line"].as_u64().unwrap();
                let at = format!(
                    "have.csv:{line}:1: error unknown-printing: no '{name}' is numbered {number}"
                );
                assert!(run.contains(&at), "{at}\n{run}");
            }
        }
    }
}

/// A folder `decks` of two decks (the fixtures' deck and a small one) and `binder.txt`.
fn two_decks_and_a_binder() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let decks = dir.path().join("decks");
    std::fs::create_dir(&decks).unwrap();
    let fixtures = common::repo().join(FIXTURES);
    std::fs::copy(fixtures.join("deck.txt"), decks.join("dragapult.txt")).unwrap();
    std::fs::write(
        decks.join("small.txt"),
        "4 Ultra Ball SVI 196\n4 Dreepy TWM 128\n",
    )
    .unwrap();
    std::fs::copy(fixtures.join("binder.txt"), dir.path().join("binder.txt")).unwrap();
    (dir, decks)
}

/// Issue 43 step 5: `need DIR --have` says, per deck on its own, legal or not, buildable
/// or how many cards it lacks (and their cost with prices), then the owned cards two decks
/// would each use; exit 1 when a deck lacks something.
#[test]
fn a_folders_readiness_per_deck_and_the_cards_decks_share() {
    let (dir, decks) = two_decks_and_a_binder();
    let args = [
        "need",
        "--format",
        "standard",
        "decks",
        "--have",
        "binder.txt",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 1, "{run}");
    assert_eq!(
        stdout_of(&run),
        "deck\tverdict\tcollection\tcost\n\
         decks/dragapult.txt\tillegal\tmissing 5\t-\n\
         decks/small.txt\tillegal\tbuildable\t-\n\
         \n\
         owned cards several decks would each use:\n  \
         4 Dreepy TWM 128 (binder.txt:3): decks/dragapult.txt (4), decks/small.txt (4)\n  \
         4 Ultra Ball SVI 196 (binder.txt:9): decks/dragapult.txt (4), decks/small.txt (4)\n",
        "{run}"
    );
    // Only the small deck, which the binder builds: exit 0, nothing shared.
    std::fs::remove_file(decks.join("dragapult.txt")).unwrap();
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 0, "{run}");
    assert_eq!(
        stdout_of(&run),
        "deck\tverdict\tcollection\tcost\ndecks/small.txt\tillegal\tbuildable\t-\n"
    );
}

/// Issue 50: `need` says first whether the deck itself is legal (its verdict and errors, as
/// `check` gives them), and a rotated card is nothing to buy: Iono PAL 185 (regulation mark
/// G, out of Standard since 2026-04-10) and Potion BS 94 (no legal printing has its text)
/// stay out of what is missing, the buy lists and JSON's `missing`, and the table says why
/// and what the legal printing of the name would do.
#[test]
fn need_says_the_decks_verdict_first_and_buys_no_rotated_card() {
    let dir = tempfile::tempdir().unwrap();
    let deck = "4 Dreepy TWM 128\n4 Drakloak TWM 129\n4 Iono PAL 185\n1 Potion BS 94\n";
    std::fs::write(dir.path().join("rot.txt"), deck).unwrap();
    std::fs::write(
        dir.path().join("have.txt"),
        "4 Dreepy TWM 128\n2 Iono PAL 185\n",
    )
    .unwrap();
    let run = |output: &str| {
        let args = [
            "need", "--format", "standard", "rot.txt", "--have", "have.txt", "--output", output,
        ];
        run_deckbox(dir.path(), &args, b"")
    };
    let (code, table) = run("table");
    assert_eq!(code, 1, "{table}");
    let table = stdout_of(&table);
    let expected = "\
rot.txt: invalid, 3 errors (13 cards, format standard as of 2026-11-25)
  rot.txt:1:1: error deck-size: the deck has 13 cards, but a deck must have exactly 60
  rot.txt:3:1: error not-legal: Iono (PAL 185) is not legal in Standard: its regulation mark G is not one of H, I, J
  rot.txt:4:1: error not-legal: Potion (BS 94) is not legal in Standard: it has no regulation mark (the format allows H, I, J)
  missing  card                               counted from the collection
        0  Dreepy TWM 128                     4 Dreepy TWM 128 (have.txt:1)
        4  Drakloak TWM 129                   -
        -  Iono PAL 185                       not legal in Standard on 2026-11-25: its regulation mark G is not one of H, I, J; no printing of it is legal there; owned: 2 Iono PAL 185 (have.txt:2)
        -  Potion BS 94                       not legal in Standard on 2026-11-25: it has no regulation mark (the format allows H, I, J); Potion POR 83 is legal but another card by the reprint rule (different effect text)
  4 of 13 cards missing, 5 not legal (not counted as missing)

4 cards missing in all; any printing the deck's format allows with the same name and text counted
5 cards are not legal in their deck's format at its date: replace them; they are in no list of what to get
";
    assert_eq!(table, expected);
    for output in ["list", "tcgplayer", "cardmarket"] {
        let (code, run) = run(output);
        assert_eq!(code, 1, "{run}");
        let lines = stdout_of(&run);
        assert!(lines.contains("4 Drakloak"), "{output}: {run}");
        assert!(
            !lines.contains("Iono") && !lines.contains("Potion"),
            "{output} lists a card not legal: {run}"
        );
    }
    let (_, run) = run("json");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert_eq!(json["buildable"], false);
    assert_eq!(json["missing_count"], 4);
    assert_eq!(json["missing"].as_array().unwrap().len(), 1, "{run}");
    assert_eq!(json["decks"][0]["valid"], false);
    assert_eq!(json["decks"][0]["errors"], 3);
    assert_eq!(json["decks"][0]["not_legal"], 5);
    assert_eq!(json["not_legal"][0]["name"], "Iono");
    assert_eq!(json["not_legal"][0]["legal"], serde_json::Value::Null);
    assert_eq!(
        json["not_legal"][1]["legal"],
        serde_json::json!({"name": "Potion", "set": "POR", "number": "83", "same_card": false, "differences": ["different effect text"]})
    );
}

/// Issue 43 step 5 beyond the table: `need DIR --have --output json` carries what the
/// table says of each deck on its own (`each_deck`) and the owned cards decks share
/// (`shared`), beside the folder's decks summed.
#[test]
fn a_folders_readiness_is_in_the_json_too() {
    let (dir, _) = two_decks_and_a_binder();
    let args = [
        "need",
        "--format",
        "standard",
        "decks",
        "--have",
        "binder.txt",
        "--output",
        "json",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 1, "{run}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert_eq!(
        json["each_deck"],
        serde_json::json!([
            {"path": "decks/dragapult.txt", "legal": false, "buildable": false, "missing": 5, "not_legal": 0},
            {"path": "decks/small.txt", "legal": false, "buildable": true, "missing": 0, "not_legal": 0},
        ])
    );
    assert_eq!(json["shared"].as_array().unwrap().len(), 2, "{run}");
    assert_eq!(
        json["shared"][0],
        serde_json::json!({"name": "Dreepy", "set": "TWM", "number": "128", "file": "binder.txt", "line": 3, "owned": 4,
            "decks": [{"path": "decks/dragapult.txt", "count": 4}, {"path": "decks/small.txt", "count": 4}]})
    );
    // The decks summed stay as they were: one binder for both decks at once.
    assert_eq!(json["decks"].as_array().unwrap().len(), 2);
    // A single deck has neither key.
    let (_, run) = need(&["deck.txt", "--have", "binder.txt", "--output", "json"]);
    let json: serde_json::Value = serde_json::from_str(stdout_of(&run)).unwrap();
    assert!(json.get("each_deck").is_none() && json.get("shared").is_none());
}

/// Issue 43 step 5 in CSV and Markdown: `need DIR --have --output csv|markdown` carry what
/// the table and the JSON say of each deck on its own and of the owned cards decks share.
/// The collection file's name starts with `=`: a spreadsheet would run the `file` cell as a
/// formula, so it gets a `'` in front, as in every CSV deckbox writes.
#[test]
fn a_folders_readiness_in_csv_and_markdown() {
    let (dir, _) = two_decks_and_a_binder();
    std::fs::rename(
        dir.path().join("binder.txt"),
        dir.path().join("=binder.txt"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("prices.csv"),
        "name,set,number,price,currency\nDrakloak,TWM,129,0.20,USD\nDusknoir,PRE,37,1.50,USD\n",
    )
    .unwrap();
    let run = |output: &str| {
        let args = [
            "need",
            "--format",
            "standard",
            "decks",
            "--have",
            "=binder.txt",
            "--prices",
            "prices.csv",
            "--output",
            output,
        ];
        run_deckbox(dir.path(), &args, b"")
    };
    let (code, csv) = run("csv");
    assert_eq!(code, 1, "{csv}");
    let csv = stdout_of(&csv).to_string();
    insta::assert_snapshot!("need_folder_csv", csv);
    assert!(csv.contains(",'=binder.txt,"), "{csv}");
    // RFC 4180 records, as every CSV deckbox writes (the snapshot shows no line ends).
    assert_eq!(csv.matches("\r\n").count(), csv.lines().count(), "{csv:?}");
    let (code, markdown) = run("markdown");
    assert_eq!(code, 1, "{markdown}");
    insta::assert_snapshot!("need_folder_markdown", stdout_of(&markdown));
    // The same decks, costs and shared cards as the table's.
    let (_, table) = run("table");
    let table = stdout_of(&table);
    assert!(
        table.contains("decks/dragapult.txt\tillegal\tmissing 5\t1.90 USD (2 unpriced)"),
        "{table}"
    );
    // Deck files, not a folder: nothing to say deck by deck; exit 2, saying why.
    let args = [
        "need",
        "decks/small.txt",
        "--have",
        "=binder.txt",
        "--output",
        "csv",
    ];
    let (code, run) = run_deckbox(dir.path(), &args, b"");
    assert_eq!(code, 2, "{run}");
    assert!(run.contains("give a folder"), "{run}");
}

/// A real Collectr export (tests/fixtures/need/real/collectr.csv, its source in SOURCES.md
/// there), checked by hand row by row: every row is the printing its set name and number
/// say. Collectr names Base Set's printings `Base Set (Unlimited)` and `Base Set (1st
/// Edition & Shadowless)` (set-aliases.tsv); before they were known, 11 rows were errors
/// (Alakazam 1 fits BS, B2, LC and EX) and two were counted as another set's printing
/// (Chansey 3 as B2 3, Metapod 54 as LC 54). `Nidoran M`, `Pokedex` and `Pokemon Breeder`
/// are Nidoran ♂, Pokédex and Pokémon Breeder.
#[test]
fn real_exports_collectr_reads_every_row_as_its_printing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("old.txt"),
        "4 Abra BS 43\n1 Alakazam BS 1\n1 Chansey BS 3\n1 Metapod BS 54\n4 Switch BS 95\n\
         4 Pokédex BS 87\n1 Nidoran ♂ BS 55\n1 Pokémon Breeder BS 76\n1 Growlithe BS 28\n\
         20 Psychic Energy BS 101\n4 Fire Energy B2 126\n",
    )
    .unwrap();
    let export = common::repo().join(FIXTURES).join("real/collectr.csv");
    let export = export.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["need", "--format", "unlimited", "old.txt", "--have", export];
        args.extend_from_slice(extra);
        run_deckbox(dir.path(), &args, b"")
    };
    for exact in [&[][..], &["--exact-printing"][..]] {
        let (code, out) = run(&[exact, &["--output", "list"]].concat());
        assert_eq!(code, 1, "{out}");
        // Only the two Pokédex the binder lacks; no finding about any row.
        assert_eq!(stdout_of(&out), "2 Pokédex BS 87\n", "{exact:?}\n{out}");
        assert!(out.ends_with("--- stderr\n"), "{out}");
    }
    let (_, out) = run(&["--output", "json"]);
    let json: serde_json::Value = serde_json::from_str(stdout_of(&out)).unwrap();
    let rows = json["collection"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 63, "{out}");
    for row in rows {
        let set = row["set"].as_str().unwrap();
        let code = if set == "Base Set 2" { "B2" } else { "BS" };
        let printing = format!("{code} {}", row["number"].as_str().unwrap());
        assert_eq!(row["reading"], "printing", "{row}");
        assert_eq!(row["printing"], printing.as_str(), "{row}");
    }
}

/// Rows of a second Collectr export (tests/fixtures/need/real/collectr-pokedumpster.csv: the
/// slice of a real export that PokeDumpster's importer tests keep), checked by hand against
/// the card index: Budew `221/217` of `Ascended Heroes` is ASC 221 (its illustration rare),
/// `Umbreon ex - 176` with the number `SVP 176` is SVP 176, and Meloetta `026` of
/// `Mega Evolution Promos`, Collectr's name for the Mega Evolution promos, is MEP 26. The
/// Lorcana row and the two sealed products (no card number) are no Pokémon card: each is
/// reported at its line and nothing is counted for it.
#[test]
fn real_exports_collectr_second_export_reads_promos_and_new_sets() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deck.txt"),
        "1 Budew ASC 221\n2 Umbreon ex SVP 176\n1 Meloetta MEP 26\n",
    )
    .unwrap();
    let export = common::repo()
        .join(FIXTURES)
        .join("real/collectr-pokedumpster.csv");
    let export = export.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "need",
            "--format",
            "unlimited",
            "deck.txt",
            "--have",
            export,
        ];
        args.extend_from_slice(extra);
        run_deckbox(dir.path(), &args, b"")
    };
    for exact in [&[][..], &["--exact-printing"][..]] {
        let (code, out) = run(&[exact, &["--output", "list"]].concat());
        // Nothing is missing (exit 0); the rows that are no card are reported all the same.
        assert_eq!(code, 0, "{out}");
        assert_eq!(stdout_of(&out), "", "{exact:?}\n{out}");
        for line in [2, 6, 7] {
            assert!(
                out.contains(&format!(
                    "{export}:{line}:3: error unknown-card: unknown card '"
                )),
                "{line}\n{out}"
            );
        }
        // The promo set's name is one deckbox knows: no warning about line 5.
        assert!(!out.contains(&format!("{export}:5:")), "{out}");
    }
    let (_, out) = run(&["--output", "json"]);
    let json: serde_json::Value = serde_json::from_str(stdout_of(&out)).unwrap();
    let printings: Vec<(u64, &str)> = json["collection"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["reading"] == "printing")
        .map(|row| {
            (
                row["line"].as_u64().unwrap(),
                row["printing"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        printings,
        [(3, "ASC 221"), (4, "SVP 176"), (5, "MEP 26")],
        "{out}"
    );
}

/// Real exports of TCGplayer (app and web), Dragon Shield and Deckbox.org
/// (tests/fixtures/need/real/SOURCES.md): of Magic cards, the only ones public, so every
/// row is reported at its own line as a card deckbox does not know and nothing is counted;
/// the layouts themselves (quoted names with commas, the `"sep=,"` line, 15 to 24 columns)
/// are read, not refused.
#[test]
fn real_exports_of_other_games_are_read_row_by_row() {
    let exports = [
        ("real/tcgplayer-app.csv", 2..=4),
        ("real/tcgplayer-web.csv", 2..=9),
        ("real/dragonshield.csv", 3..=10),
        ("real/dragonshield-utf16.csv", 3..=32),
        ("real/deckbox-org.csv", 2..=9),
    ];
    for (export, rows) in exports {
        let (code, out) = need(&["deck.txt", "--have", export, "--output", "list"]);
        assert_eq!(code, 1, "{export}\n{out}");
        let deck_lines: u64 =
            std::fs::read_to_string(common::repo().join(FIXTURES).join("deck.txt"))
                .unwrap()
                .lines()
                .map(|line| line.split(' ').next().unwrap().parse::<u64>().unwrap())
                .sum();
        let missing: u64 = stdout_of(&out)
            .lines()
            .map(|line| line.split(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(missing, deck_lines, "{export}: nothing counted\n{out}");
        for line in rows {
            assert!(
                out.contains(&format!(
                    "{export}:{line}:3: error unknown-card: unknown card '"
                )),
                "{export}:{line}\n{out}"
            );
        }
    }
}

/// A real Dragon Shield export as the card manager wrote it in 2022
/// (tests/fixtures/need/real/dragonshield-utf16.csv): UTF-16LE with no byte-order mark,
/// CRLF, and the older price columns `AVG,LOW,TREND`. It is decoded, said so once, and read
/// row by row.
#[test]
fn real_exports_dragonshield_utf16_is_decoded_and_said() {
    let export = "real/dragonshield-utf16.csv";
    let (code, out) = need(&["deck.txt", "--have", export, "--output", "list"]);
    assert_eq!(code, 1, "{out}");
    let warning =
        format!("{export}:1:1: warning encoding: the file is not UTF-8; it was read as UTF-16LE");
    assert_eq!(out.matches(&warning).count(), 1, "{out}");
    assert!(
        out.contains(&format!(
            "{export}:3:3: error unknown-card: unknown card 'Abzan Falconer'"
        )),
        "{out}"
    );
}
