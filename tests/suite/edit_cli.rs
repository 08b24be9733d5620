//! `deckbox add`, `deckbox remove` and `deckbox diff` run as the real binary on copies of
//! the fixtures in tests/fixtures/edit: exit code, output and what became of the file (as a
//! unified diff of the file before and after), snapshotted.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use deckbox::check;
use deckbox::deck::DeckInput;
use deckbox::formats::Format;
use deckbox::settings::open_cards;

const FIXTURES: &str = "tests/fixtures/edit";

/// Runs deckbox in `dir` with `args` (and `stdin`), and renders exit code and output.
fn deckbox(dir: &Path, args: &[&str], stdin: &str) -> String {
    let mut child = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Copies `fixture` into a temporary directory, runs `deckbox <command> <fixture> <args>`
/// there, and renders the outcome and the change to the file.
fn edit(command: &str, fixture: &str, args: &[&str]) -> String {
    let dir = common::workspace(&[&format!("{FIXTURES}/{fixture}")]);
    let before = std::fs::read_to_string(dir.path().join(fixture)).unwrap();
    let mut all = vec![command, fixture];
    all.extend_from_slice(args);
    let outcome = deckbox(dir.path(), &all, "");
    let after = std::fs::read_to_string(dir.path().join(fixture)).unwrap();
    format!("{outcome}--- file\n{}", file_diff(&before, &after))
}

fn file_diff(before: &str, after: &str) -> String {
    if before == after {
        return "unchanged\n".to_string();
    }
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(1)
        .to_string()
}

#[test]
fn add_bumps_the_line_holding_the_card() {
    insta::assert_snapshot!(edit("add", "dragapult.txt", &["2 Ultra Ball"]));
}

#[test]
fn add_a_new_line_at_the_end_of_its_section() {
    insta::assert_snapshot!(edit(
        "add",
        "dragapult.txt",
        &["1 Mimikyu PFL 42", "Switch MEG 130", "2 Fire Energy SVE 2"]
    ));
}

#[test]
fn add_creates_a_missing_section() {
    insta::assert_snapshot!(edit("add", "no-energy.txt", &["4 Psychic Energy MEE 5"]));
}

#[test]
fn add_to_a_french_list_writes_french_names() {
    insta::assert_snapshot!(edit(
        "add",
        "gardevoir-fr.txt",
        &["2 Dreepy TWM 128", "Fire Energy", "Boss's Orders"]
    ));
}

#[test]
fn add_to_a_ptcgo_list_keeps_its_layout() {
    insta::assert_snapshot!(edit(
        "add",
        "ptcgo.txt",
        &["2 Ultra Ball MEG 131", "1 Dragapult ex TWM 130"]
    ));
}

#[test]
fn add_keeps_crlf_and_the_bom() {
    let dir = common::workspace(&[&format!("{FIXTURES}/crlf-bom.txt")]);
    let outcome = deckbox(
        dir.path(),
        &["add", "crlf-bom.txt", "1 Mega Gardevoir ex MEG 60"],
        "",
    );
    let after = std::fs::read(dir.path().join("crlf-bom.txt")).unwrap();
    assert!(after.starts_with(b"\xEF\xBB\xBF"), "{outcome}");
    let text = String::from_utf8(after).unwrap();
    assert_eq!(text.matches('\n').count(), text.matches("\r\n").count());
    insta::assert_snapshot!(format!("{outcome}--- file\n{}", text.replace('\r', "␍")));
}

#[test]
fn add_an_unknown_card_suggests_names_and_writes_nothing() {
    insta::assert_snapshot!(edit("add", "dragapult.txt", &["2 Ultra Bal"]));
}

#[test]
fn add_dry_run_prints_the_new_list() {
    insta::assert_snapshot!(edit(
        "add",
        "no-energy.txt",
        &["--dry-run", "1 Dragapult ex"]
    ));
}

#[test]
fn remove_every_copy() {
    insta::assert_snapshot!(edit("remove", "dragapult.txt", &["Psychic Energy"]));
}

#[test]
fn remove_a_count_across_two_lines() {
    // `Ultra Ball` and `Hyper Ball` (its French name) are one card: 3 copies come off the
    // last line (2, deleted) then the first (2 → 1); the headers count lines.
    let dir = common::workspace(&[&format!("{FIXTURES}/crlf-bom.txt")]);
    let outcome = deckbox(dir.path(), &["remove", "crlf-bom.txt", "3 Ultra Ball"], "");
    let text = std::fs::read_to_string(dir.path().join("crlf-bom.txt")).unwrap();
    insta::assert_snapshot!(format!("{outcome}--- file\n{}", text.replace('\r', "␍")));
}

#[test]
fn remove_a_card_of_a_table_row_keeps_the_others_on_its_row() {
    // A list printed as a table (tabs between cells): `2 Temple of Sinnoh` shares its row
    // with `1 Mew CEL`; removing it empties its cell only, and lowering `Ultra Ball` edits
    // its own cell's count.
    let dir = common::workspace(&[&format!("{FIXTURES}/table.txt")]);
    let path = dir.path().join("table.txt");
    let before = std::fs::read_to_string(&path).unwrap();
    let removed = deckbox(dir.path(), &["remove", "table.txt", "Temple of Sinnoh"], "");
    let lowered = deckbox(dir.path(), &["remove", "table.txt", "1 Ultra Ball"], "");
    let after = std::fs::read_to_string(&path).unwrap();
    insta::assert_snapshot!(format!(
        "{removed}{lowered}--- file\n{}",
        file_diff(&before, &after).replace('\t', "⇥")
    ));
}

#[test]
fn remove_one_printing_only() {
    // The spec's printing is SVE 5: the line in French goes, the MEE 5 line stays.
    insta::assert_snapshot!(edit(
        "remove",
        "two-printings.txt",
        &["Psychic Energy SVE 5"]
    ));
}

#[test]
fn remove_too_many_is_an_error_and_the_file_is_unchanged() {
    insta::assert_snapshot!(edit(
        "remove",
        "dragapult.txt",
        &["1 Switch", "5 Ultra Ball"]
    ));
}

#[test]
fn the_verdict_follows_the_edit() {
    let dir = common::workspace(&[&format!("{FIXTURES}/gardevoir-en.txt")]);
    let removed = deckbox(
        dir.path(),
        &["remove", "gardevoir-en.txt", "Flutter Mane"],
        "",
    );
    let added = deckbox(
        dir.path(),
        &["add", "gardevoir-en.txt", "Mimikyu PFL 42"],
        "",
    );
    insta::assert_snapshot!(format!("{removed}\n{added}"));
}

#[test]
fn diff_text() {
    let dir = common::workspace(&[
        &format!("{FIXTURES}/dragapult.txt"),
        &format!("{FIXTURES}/gardevoir-en.txt"),
    ]);
    insta::assert_snapshot!(deckbox(
        dir.path(),
        &["diff", "dragapult.txt", "gardevoir-en.txt"],
        ""
    ));
}

#[test]
fn diff_json_and_a_printing_only_change() {
    let dir = common::workspace(&[
        &format!("{FIXTURES}/printings-old.txt"),
        &format!("{FIXTURES}/printings-new.txt"),
    ]);
    let text = deckbox(
        dir.path(),
        &["diff", "printings-old.txt", "printings-new.txt"],
        "",
    );
    let json = deckbox(
        dir.path(),
        &["diff", "printings-old.txt", "-", "--output", "json"],
        &std::fs::read_to_string(dir.path().join("printings-new.txt")).unwrap(),
    );
    insta::assert_snapshot!(format!("{text}\n{json}"));
}

#[test]
fn diff_of_the_same_deck_in_two_languages_is_empty() {
    let dir = common::workspace(&[
        &format!("{FIXTURES}/gardevoir-fr.txt"),
        &format!("{FIXTURES}/gardevoir-en.txt"),
    ]);
    insta::assert_snapshot!(deckbox(
        dir.path(),
        &["diff", "gardevoir-fr.txt", "gardevoir-en.txt"],
        ""
    ), @r"
    exit: 0
    --- stdout
    no changes
    60 → 60 cards
    --- stderr
    ");
}

#[test]
fn diff_of_an_unreadable_file_exits_2() {
    let dir = common::workspace(&[&format!("{FIXTURES}/dragapult.txt")]);
    insta::assert_snapshot!(deckbox(
        dir.path(),
        &["diff", "dragapult.txt", "missing.txt"],
        ""
    ), @r"
    exit: 2
    --- stdout
    --- stderr
    error: cannot read missing.txt: No such file or directory (os error 2)
    ");
}

/// A write that fails half-way (disk full, killed) leaves the original list intact.
#[test]
fn an_interrupted_write_keeps_the_original() {
    let dir = common::workspace(&[&format!("{FIXTURES}/dragapult.txt")]);
    let path = dir.path().join("dragapult.txt");
    let before = std::fs::read(&path).unwrap();
    let (db, _) = open_cards(None, false).unwrap();
    let format = Format::load("unlimited").unwrap();
    let input = DeckInput::from_bytes("dragapult.txt", &before);
    let deck = check::check(&input, &db, &format);
    let spec = deckbox::edit::in_place::parse_spec("2 Ultra Ball").unwrap();
    let edited = deckbox::edit::in_place::add(&deck, &db, &spec).unwrap();
    assert_ne!(edited.text.as_bytes(), before.as_slice());
    let lock = deckbox::util::atomic::Lock::acquire(&path).unwrap();
    let result = lock.replace_with(Some(&before), Default::default(), |file| {
        let half = edited.text.len() / 2;
        file.write_all(&edited.text.as_bytes()[..half])?;
        Err(std::io::Error::other("simulated failure"))
    });
    assert!(result.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Real names in another language need the full TCGdex database.
#[test]
fn edit_a_french_list_with_tcgdex() {
    let Some(data) = common::shared_data("edit with tcgdex") else {
        return;
    };
    let cards = data.join("tcgdex-repo");
    let cards = cards.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.txt");
    let list = "Pokémon : 4\n4 Fantyrm TWM 128\n\nDresseur : 3\n3 Mashynn PAL 185\n\nTotal de cartes : 7\n";
    std::fs::write(&path, list).unwrap();
    let added = deckbox(
        dir.path(),
        &[
            "add",
            "deck.txt",
            "1 Iono PAL 185",
            "2 Nest Ball SVI 181",
            "--cards",
            cards,
        ],
        "",
    );
    let after_add = std::fs::read_to_string(&path).unwrap();
    let removed = deckbox(
        dir.path(),
        &["remove", "deck.txt", "Iono", "--cards", cards],
        "",
    );
    let after_remove = std::fs::read_to_string(&path).unwrap();
    insta::assert_snapshot!(format!(
        "{added}--- file\n{after_add}\n{removed}--- file\n{after_remove}"
    ));
}

/// Odd files and specs: every case either edits sensibly or exits 2 without writing.
#[test]
fn edge_cases() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[u8], &[&str])] = &[
        ("empty.txt", b"", &["add", "empty.txt", "2 Switch MEG 130"]),
        (
            "no-eol.txt",
            b"4 Ralts MEG 58\n2 Switch MEG 130",
            &["remove", "no-eol.txt", "Switch"],
        ),
        (
            "only.txt",
            b"\xEF\xBB\xBF2 Switch MEG 130\n",
            &["remove", "only.txt", "Switch"],
        ),
        (
            "x.txt",
            b"  x4 Ralts MEG 58\n",
            &["add", "x.txt", "2 Kirlia"],
        ),
        (
            "mismatch.txt",
            b"4 Ralts MEG 58\n",
            &["add", "mismatch.txt", "Switch MEG 131"],
        ),
        (
            "absent.txt",
            b"4 Ralts MEG 58\n",
            &["remove", "absent.txt", "Switch"],
        ),
        (
            "cp1252.txt",
            b"4 Pok\xe9 Pad POR 81\n",
            &["add", "cp1252.txt", "Switch"],
        ),
        (
            "spec.txt",
            b"4 Ralts MEG 58\n",
            &["add", "spec.txt", "0 Ralts"],
        ),
        (
            "big.txt",
            b"9999 Ralts MEG 58\n",
            &["add", "big.txt", "9999 Ralts"],
        ),
        (
            "unknown.txt",
            b"3 Mystery Card\n",
            &["remove", "unknown.txt", "1 mystery card"],
        ),
        ("stdin.txt", b"", &["add", "-", "Switch"]),
    ];
    let mut out = String::new();
    for (name, bytes, args) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let outcome = deckbox(dir.path(), args, "");
        let after = std::fs::read(&path).unwrap();
        let file = if after == *bytes {
            "unchanged".to_string()
        } else {
            format!("{:?}", String::from_utf8_lossy(&after))
        };
        out.push_str(&format!(
            "## {}\n{outcome}--- file\n{file}\n\n",
            args.join(" ")
        ));
    }
    insta::assert_snapshot!(out);
}

/// A list compared with itself has no changes, whatever its layout, language or errors.
#[test]
fn every_fixture_diffs_empty_against_itself() {
    let (db, _) = open_cards(None, false).unwrap();
    let format = Format::load("unlimited").unwrap();
    let mut checked = 0;
    for folder in ["decks", "layouts", "edit", "stats", "formats"] {
        for entry in std::fs::read_dir(common::repo().join("tests/fixtures").join(folder)).unwrap()
        {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|ext| ext != "txt") {
                continue;
            }
            let input =
                DeckInput::from_bytes(path.display().to_string(), &std::fs::read(&path).unwrap());
            let deck = check::check(&input, &db, &format);
            let diff = deckbox::edit::diff::diff(&deck, &deck, &db);
            assert!(
                diff.changes.is_empty(),
                "{}: {:?}",
                path.display(),
                diff.changes
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} fixtures found");
}

/// Runs deckbox in `dir` and returns its exit code and standard output.
fn exit_and_stdout(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    (output.status.code().unwrap(), stdout)
}

/// A JSON list exported by `deckbox convert --to json` takes `add` and `remove` and stays
/// JSON, written as `fmt --write` writes it: `fmt --check` accepts it and `check` reads it.
#[test]
fn add_and_remove_edit_an_exported_json_list() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let (code, json) = exit_and_stdout(dir.path(), &["convert", "dragapult.txt", "--to", "json"]);
    assert_eq!(code, 0);
    let file = dir.path().join("deck.json");
    std::fs::write(&file, &json).unwrap();
    let out = deckbox(dir.path(), &["add", "deck.json", "1 Munkidori TWM 95"], "");
    assert!(out.contains("new card: 1 Munkidori TWM 95"), "{out}");
    let out = deckbox(dir.path(), &["remove", "deck.json", "1 Dreepy TWM 128"], "");
    assert!(out.contains("4 → 3 Dreepy"), "{out}");
    let edited = std::fs::read_to_string(&file).unwrap();
    let value: serde_json::Value = serde_json::from_str(&edited).unwrap();
    assert_eq!(value["total"], 60, "{edited}");
    assert!(edited.contains("\"name\": \"Munkidori\""), "{edited}");
    let (code, diff) = exit_and_stdout(dir.path(), &["fmt", "--check", "deck.json"]);
    assert_eq!((code, diff.as_str()), (0, ""));
    let (_, summary) = exit_and_stdout(dir.path(), &["check", "deck.json"]);
    assert!(summary.contains("(60 cards"), "{summary}");
    // Removing the new card again gives back the exported list exactly.
    deckbox(dir.path(), &["remove", "deck.json", "Munkidori"], "");
    deckbox(dir.path(), &["add", "deck.json", "1 Dreepy TWM 128"], "");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), json);
}

/// A hand-written JSON list keeps what deckbox does not read (the event's keys, a card's
/// `id`), gains a section for a card of a new kind (after the last one, as `fmt` adds it),
/// and passes `fmt --check`.
#[test]
fn add_and_remove_keep_what_a_hand_written_json_list_carries() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"{
  "player": "Ash",
  "event": "League Cup",
  "decklist": {
    "pokemon": [
      {"id": "sv6-128", "count": 4, "name": "Dreepy", "set": "TWM", "number": "128"},
      {"count": 2, "name": "Drakloak", "set": "TWM", "number": "129"}
    ],
    "energy": [
      {"count": 10, "name": "Basic Psychic Energy", "set": "SVE", "number": "5"}
    ]
  }
}
"#;
    let file = dir.path().join("cup.json");
    std::fs::write(&file, text).unwrap();
    let out = deckbox(
        dir.path(),
        &["add", "cup.json", "2 Iono PAL 185", "1 Dreepy TWM 128"],
        "",
    );
    assert!(out.starts_with("exit: 1\n"), "{out}");
    let out = deckbox(dir.path(), &["remove", "cup.json", "Drakloak"], "");
    assert!(out.contains("removed: 2 Drakloak"), "{out}");
    let edited = std::fs::read_to_string(&file).unwrap();
    insta::assert_snapshot!(edited, @r#"
    {
      "player": "Ash",
      "event": "League Cup",
      "decklist": {
        "pokemon": [
          {"id": "sv6-128", "count": 5, "name": "Dreepy", "set": "TWM", "number": "128"}
        ],
        "energy": [
          {"count": 10, "name": "Basic Psychic Energy", "set": "SVE", "number": "5"}
        ],
        "trainer": [
          {"count": 2, "name": "Iono", "set": "PAL", "number": "185"}
        ]
      }
    }
    "#);
    let (code, _) = exit_and_stdout(dir.path(), &["fmt", "--check", "cup.json"]);
    assert_eq!(code, 0);
}

/// What `fmt --write` refuses to rewrite, `add` and `remove` refuse too, with its reason,
/// and the file stays as it was.
#[test]
fn add_and_remove_refuse_a_json_list_fmt_would_not_rewrite() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let (_, json) = exit_and_stdout(dir.path(), &["convert", "dragapult.txt", "--to", "json"]);
    // deckbox's own layout has no place for `player`.
    let json = json.replacen("\"comments\"", "\"player\": \"Ash\",\n  \"comments\"", 1);
    std::fs::write(dir.path().join("deck.json"), &json).unwrap();
    let fmt = deckbox(dir.path(), &["fmt", "--write", "deck.json"], "");
    assert!(fmt.contains("no place for `player`"), "{fmt}");
    for command in ["add", "remove"] {
        let out = deckbox(dir.path(), &[command, "deck.json", "1 Dreepy TWM 128"], "");
        assert!(out.starts_with("exit: 2\n"), "{out}");
        assert!(out.contains("not edited"), "{out}");
        assert!(out.contains("no place for `player`"), "{out}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("deck.json")).unwrap(),
            json
        );
    }
}

/// A section `add` creates is headed with the words `fmt` and `convert` write (issue 15: the
/// tables disagreed, `add` wrote `Entrenador` and `Allenatore`, `convert` `Entrenadores` and
/// `Allenatori`).
#[test]
fn add_and_convert_write_the_same_header_words() {
    let dir = tempfile::tempdir().unwrap();
    for (language, list, header) in [
        (
            "es",
            "Pokémon: 1\n1 Dreepy TWM 128\n\nEnergía: 1\n1 Energía Psíquica básica SVE 5\n\nTotal de cartas: 2\n",
            "Entrenadores: 1",
        ),
        (
            "it",
            "Pokémon: 1\n1 Dreepy TWM 128\n\nEnergia: 1\n1 Energia Psichica di base SVE 5\n\nCarte totali: 2\n",
            "Allenatori: 1",
        ),
    ] {
        std::fs::write(dir.path().join("deck.txt"), list).unwrap();
        let added = deckbox(dir.path(), &["add", "deck.txt", "1 Arven SVI 166"], "");
        let text = std::fs::read_to_string(dir.path().join("deck.txt")).unwrap();
        assert!(text.contains(header), "{language}: {added}\n{text}");
        let converted = deckbox(dir.path(), &["convert", "deck.txt", "--lang", language], "");
        assert!(converted.contains(header), "{language}: {converted}");
    }
}

/// `remove` keeps the numbers of a list cut into parts right: the part's header
/// (`Supporters (4)`) and its section's (`Trainer (8)`) both count the removed copies.
#[test]
fn remove_updates_a_part_header_and_its_section_header() {
    let dir = tempfile::tempdir().unwrap();
    let list = "Pokémon: 4\n4 Dreepy TWM 128\nTrainer (8)\nSupporters (4)\n4 Iono PAL 185\nItems (4)\n4 Ultra Ball MEG 131\n";
    std::fs::write(dir.path().join("parts.txt"), list).unwrap();
    let out = deckbox(dir.path(), &["remove", "parts.txt", "2 Iono"], "");
    assert!(out.starts_with("exit: 1"), "{out}");
    let after = std::fs::read_to_string(dir.path().join("parts.txt")).unwrap();
    assert_eq!(
        after,
        "Pokémon: 4\n4 Dreepy TWM 128\nTrainer (6)\nSupporters (2)\n2 Iono PAL 185\nItems (4)\n4 Ultra Ball MEG 131\n"
    );
    assert!(!out.contains("header-count"), "{out}");
}
