#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! CLI tests of `deckbox fmt` and `deckbox convert`: run the real binary in a temporary
//! directory (embedded card index) and snapshot exit code, stdout and stderr.

use crate::common;

use std::path::Path;

use common::workspace;

/// Runs `deckbox` in `dir` with `args`, feeding `stdin`, and renders what it did.
fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    common::run_deckbox(dir, args, stdin)
}

const LIVE: &str = "tests/fixtures/layouts/tcg_live_en.txt";
/// A list as a player typed it: right cards, not in the canonical order (examples/ are
/// canonical).
const DRAGAPULT: &str = "tests/fixtures/fmt/unsorted/dragapult.txt";

#[test]
fn fmt_prints_the_canonical_list() {
    let dir = workspace(&[LIVE]);
    let (code, out) = run_in(dir.path(), &["fmt", "tcg_live_en.txt"], b"");
    assert_eq!(code, 0);
    insta::assert_snapshot!("fmt_print", out);
}

#[test]
fn fmt_reads_standard_input() {
    let dir = workspace(&[]);
    let (code, out) = run_in(
        dir.path(),
        &["fmt", "-"],
        b"// my list\n1 Budew PRE 4\n4 Dreepy TWM 128\n2 Iono\n2 Dreepy TWM 128\n3 Drakloak TWM 129\n",
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("fmt_stdin", out);
}

#[test]
fn fmt_check_prints_a_diff_and_exits_1() {
    let dir = workspace(&[DRAGAPULT, LIVE]);
    let canonical = run_in(dir.path(), &["fmt", "dragapult.txt"], b"").1;
    let canonical = canonical
        .split_once("--- stdout\n")
        .unwrap()
        .1
        .split_once("--- stderr\n")
        .unwrap()
        .0;
    std::fs::write(dir.path().join("canonical.txt"), canonical).unwrap();
    let (code, out) = run_in(
        dir.path(),
        &["fmt", "--check", "canonical.txt", "dragapult.txt"],
        b"",
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!("fmt_check_diff", out);
    let (code, out) = run_in(dir.path(), &["fmt", "--check", "canonical.txt"], b"");
    assert_eq!(
        (code, out.as_str()),
        (0, "exit: 0\n--- stdout\n--- stderr\n")
    );
}

#[test]
fn fmt_write_rewrites_only_what_is_not_canonical() {
    let dir = workspace(&[DRAGAPULT, "tests/fixtures/layouts/paren_bom_crlf.txt"]);
    run_in(dir.path(), &["fmt", "--write", "dragapult.txt"], b"");
    let canonical = dir.path().join("dragapult.txt");
    let before = std::fs::metadata(&canonical).unwrap().modified().unwrap();
    let formatted = std::fs::read_to_string(&canonical).unwrap();
    let (code, out) = run_in(
        dir.path(),
        &["fmt", "--write", "dragapult.txt", "paren_bom_crlf.txt"],
        b"",
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("fmt_write", out);
    assert_eq!(std::fs::read_to_string(&canonical).unwrap(), formatted);
    assert_eq!(
        std::fs::metadata(&canonical).unwrap().modified().unwrap(),
        before,
        "a canonical file is not touched"
    );
    let rewritten = std::fs::read_to_string(dir.path().join("paren_bom_crlf.txt")).unwrap();
    assert!(rewritten.starts_with('\u{FEFF}'), "the BOM is kept");
    assert!(rewritten.contains("Total Cards: 29\r\n"), "CRLF is kept");
    insta::assert_snapshot!("fmt_write_result", rewritten.replace('\r', "␍"));
    let (code, _) = run_in(
        dir.path(),
        &["fmt", "--check", "dragapult.txt", "paren_bom_crlf.txt"],
        b"",
    );
    assert_eq!(code, 0, "what --write wrote is canonical");
}

#[test]
fn fmt_refuses_unreadable_lines_and_missing_files_but_does_the_rest() {
    let dir = workspace(&["tests/fixtures/decks/parse-error.txt", LIVE]);
    let before = std::fs::read(dir.path().join("parse-error.txt")).unwrap();
    let (code, out) = run_in(
        dir.path(),
        &[
            "fmt",
            "--write",
            "parse-error.txt",
            "missing.txt",
            "tcg_live_en.txt",
        ],
        b"",
    );
    assert_eq!(code, 2);
    insta::assert_snapshot!("fmt_refused", out);
    assert_eq!(
        std::fs::read(dir.path().join("parse-error.txt")).unwrap(),
        before
    );
    let (code, _) = run_in(dir.path(), &["fmt", "--check", "tcg_live_en.txt"], b"");
    assert_eq!(code, 0, "the readable file was still formatted");
}

#[test]
fn fmt_argument_misuse_exits_2() {
    let dir = workspace(&[DRAGAPULT, LIVE]);
    let (code, out) = run_in(
        dir.path(),
        &["fmt", "dragapult.txt", "tcg_live_en.txt"],
        b"",
    );
    assert_eq!(code, 2);
    assert!(out.contains("prints one file"), "{out}");
    let (code, out) = run_in(dir.path(), &["fmt", "--write", "-"], b"4 Iono\n");
    assert_eq!(code, 2);
    assert!(out.contains("cannot rewrite standard input"), "{out}");
}

#[test]
fn convert_to_each_layout() {
    let dir = workspace(&[DRAGAPULT]);
    for layout in ["ptcgo", "limitless", "json"] {
        let (code, out) = run_in(
            dir.path(),
            &["convert", "dragapult.txt", "--to", layout],
            b"",
        );
        assert_eq!(code, 0, "{out}");
        insta::assert_snapshot!(format!("convert_{layout}"), out);
    }
}

/// `convert --to ptcgl` writes what PTCG Live's own exports hold
/// (docs/research/issue-18.md): a Limitless list's `SVP 27` as `PR-SV 27`, `CRZ GG25` as
/// `CRZ-GG 25`, basic Energy as `Basic {P} Energy SVE 13` and, with no code, PTCG Live's
/// `Energy 2`; a Pokémon typed without a code is kept as written and reported. The result
/// is the same deck: `deckbox diff` finds no change.
#[test]
fn convert_to_ptcg_live_writes_its_codes() {
    let dir = workspace(&[]);
    let limitless = "Pokémon: 7\n1 Pikachu SVP 27\n2 Bibarel CRZ GG25\n4 Electabuzz\n\nTrainer: 8\n4 Iono PAL 185\n4 Boss's Orders PAL 172\n\nEnergy: 16\n12 Psychic Energy SVE 13\n4 Fire Energy\n";
    std::fs::write(dir.path().join("limitless.txt"), limitless).unwrap();
    let (code, out) = run_in(
        dir.path(),
        &[
            "convert",
            "limitless.txt",
            "--to",
            "ptcgl",
            "--format",
            "unlimited",
            "-o",
            "live.txt",
        ],
        b"",
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("live.txt")).unwrap(),
        "Pokémon: 7\n4 Electabuzz\n2 Bibarel CRZ-GG 25\n1 Pikachu PR-SV 27\n\nTrainer: 8\n4 Boss's Orders PAL 172\n4 Iono PAL 185\n\nEnergy: 16\n12 Basic {P} Energy SVE 13\n4 Basic {R} Energy Energy 2\n\nTotal Cards: 31\n"
    );
    assert!(
        out.contains("warning: PTCG Live imports a Pokémon by its set code and number, which this line has no: Electabuzz"),
        "{out}"
    );
    let (code, out) = run_in(
        dir.path(),
        &["diff", "limitless.txt", "live.txt", "--format", "unlimited"],
        b"",
    );
    assert_eq!(code, 0, "the conversion changed the deck: {out}");
}

#[test]
fn convert_to_french() {
    let dir = workspace(&[DRAGAPULT]);
    let (code, out) = run_in(
        dir.path(),
        &["convert", "dragapult.txt", "--lang", "fr"],
        b"",
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("convert_fr", out);
}

#[test]
fn convert_says_which_names_have_no_translation() {
    // Celebrations' Classic Collection and the 2020 "on the Ball" promos were never
    // printed in German: TCGdex has no German name for them.
    let dir = workspace(&["tests/fixtures/fmt/celebrations-ptcgo.txt"]);
    let (code, out) = run_in(
        dir.path(),
        &[
            "convert",
            "celebrations-ptcgo.txt",
            "--lang",
            "de",
            "--to",
            "limitless",
            "-o",
            "out.txt",
        ],
        b"",
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("convert_untranslated", out);
    let written = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(
        written.starts_with("Pokémon: 10\r\n"),
        "CRLF kept: {written}"
    );
}

#[test]
fn convert_bad_arguments_exit_2() {
    let dir = workspace(&[DRAGAPULT]);
    let (code, out) = run_in(
        dir.path(),
        &["convert", "dragapult.txt", "--to", "xml"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
    let (code, out) = run_in(
        dir.path(),
        &["convert", "dragapult.txt", "--lang", "jp"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
}

#[test]
fn fmt_a_messy_list() {
    let dir = workspace(&["tests/fixtures/fmt/messy.txt"]);
    let (code, out) = run_in(dir.path(), &["fmt", "messy.txt"], b"");
    assert_eq!(code, 0);
    insta::assert_snapshot!("fmt_messy", out);
}

/// A card deckbox does not know, written under no header, is never filed under some section
/// silently: `fmt` and `convert` refuse the list and name the line (issue: a plain list put
/// an unknown card under `Energy:`). Under a header, it stays where it was written.
#[test]
fn an_unknown_card_under_no_header_is_refused() {
    let dir = workspace(&[]);
    let plain = "4 Raging Bolt exx\n4 Iono PAL 185\n48 Fire Energy\n";
    for args in [
        &["fmt", "-"][..],
        &["convert", "-", "--to", "limitless"][..],
    ] {
        let (code, out) = run_in(dir.path(), args, plain.as_bytes());
        assert_eq!(code, 2, "{out}");
        assert!(
            out.contains("line 1: 'Raging Bolt exx' is no card deckbox knows"),
            "{out}"
        );
    }
    let filed = "Pokémon: 4\n4 Raging Bolt exx\n\nTrainer: 4\n4 Iono PAL 185\n";
    let (code, out) = run_in(dir.path(), &["fmt", "-"], filed.as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Pokémon: 4\n4 Raging Bolt exx\n"), "{out}");
}

#[test]
fn a_json_list_is_formatted_as_json_and_converts_to_text() {
    let dir = workspace(&["tests/fixtures/layouts/limitless_dragapult.json"]);
    let file = "limitless_dragapult.json";
    let (code, out) = run_in(dir.path(), &["convert", file, "--to", "limitless"], b"");
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("convert_limitless_json", out);
    // A Limitless list stays Limitless (issue 26): its sections stay keys of the object.
    let (code, out) = run_in(dir.path(), &["fmt", "--write", file], b"");
    assert_eq!(code, 0, "{out}");
    let written = std::fs::read_to_string(dir.path().join(file)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert!(json.get("sections").is_none(), "{written}");
    let total: u64 = ["pokemon", "trainer", "energy"]
        .iter()
        .flat_map(|section| json[section].as_array().unwrap())
        .map(|card| card["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 60, "{written}");
    let (code, out) = run_in(dir.path(), &["fmt", "--check", file], b"");
    assert_eq!(
        (code, out.as_str()),
        (0, "exit: 0\n--- stdout\n--- stderr\n")
    );
    let (_, again) = run_in(dir.path(), &["convert", file, "--to", "limitless"], b"");
    let (_, first) = run_in(
        &common::repo().join("tests/fixtures/layouts"),
        &["convert", file, "--to", "limitless"],
        b"",
    );
    assert_eq!(again, first);
}

/// `Master Ball` names two cards, the EX-era Item and the ACE SPEC; a name in another
/// language is read as the English one is (issue 27, item 3: the same deck gets the same
/// verdict in every language), so a Portuguese `Bola Mestra` is read, in Unlimited, as the
/// card `2 Master Ball` is (the Item: two ACE SPECs break a rule), and the converted line
/// keeps that card by its code, since its name alone would name the other too.
#[test]
fn convert_codes_a_name_that_also_names_a_different_card() {
    let dir = workspace(&[]);
    let convert = |list: &[u8]| {
        run_in(
            dir.path(),
            &["convert", "--lang", "en", "--format", "unlimited", "-"],
            list,
        )
    };
    let (code, out) = convert(b"2 Bola Mestra\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 Master Ball PK 78\n"), "{out}");
    assert_eq!(convert(b"2 Master Ball\n"), (code, out));
}

/// `fmt --check DIR` walks the folder as `check` does (deck files only, sorted by path,
/// hidden and ignored files skipped), prints a diff for each list that is not canonical in
/// that order, and exits 1; `fmt --write DIR` then rewrites those, after which `--check`
/// passes.
#[test]
fn fmt_check_and_write_walk_directories() {
    let dir = workspace(&[DRAGAPULT, LIVE]);
    let root = dir.path();
    let canonical = common::stdout_of(&run_in(root, &["fmt", "dragapult.txt"], b"").1).to_string();
    for folder in ["decks/a", "decks/b", "decks/.hidden", "decks/ignored"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    std::fs::write(root.join("decks/a/canonical.txt"), &canonical).unwrap();
    std::fs::copy(root.join("tcg_live_en.txt"), root.join("decks/b/live.txt")).unwrap();
    std::fs::copy(
        root.join("dragapult.txt"),
        root.join("decks/a/z-messy.deck"),
    )
    .unwrap();
    std::fs::write(root.join("decks/a/notes.md"), "not a deck\n").unwrap();
    std::fs::copy(root.join("dragapult.txt"), root.join("decks/.hidden/x.txt")).unwrap();
    std::fs::copy(root.join("dragapult.txt"), root.join("decks/ignored/x.txt")).unwrap();
    std::fs::write(root.join("decks/.gitignore"), "ignored/\n").unwrap();
    let (code, out) = run_in(root, &["fmt", "--check", "decks"], b"");
    assert_eq!(code, 1, "{out}");
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("--- a/")).collect();
    assert_eq!(
        headers,
        ["--- a/decks/a/z-messy.deck", "--- a/decks/b/live.txt"],
        "{out}"
    );
    let (code, out) = run_in(root, &["fmt", "--write", "decks"], b"");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("formatted decks/a/z-messy.deck\nformatted decks/b/live.txt\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("decks/a/z-messy.deck")).unwrap(),
        canonical
    );
    assert_eq!(
        std::fs::read_to_string(root.join("decks/ignored/x.txt")).unwrap(),
        std::fs::read_to_string(root.join("dragapult.txt")).unwrap(),
        "an ignored file is never rewritten"
    );
    let (code, out) = run_in(root, &["fmt", "--check", "decks"], b"");
    assert_eq!(code, 0, "{out}");
}

/// `fmt DIR` without `--check` or `--write` prints one file: a folder is an error that says
/// what to use.
#[test]
fn fmt_prints_one_file_not_a_folder() {
    let dir = workspace(&[DRAGAPULT]);
    std::fs::create_dir_all(dir.path().join("decks")).unwrap();
    let (code, out) = run_in(dir.path(), &["fmt", "decks"], b"");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("directory"), "{out}");
}

/// The lists a new user copies first are already canonical: `fmt --check examples/` passes,
/// so `deckbox fmt --write` on a copied example changes nothing (issue 32).
#[test]
fn the_examples_are_canonical() {
    let examples = common::repo().join("examples");
    let mut lists: Vec<String> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    lists.sort();
    assert_eq!(
        lists,
        [
            "broken.txt",
            "dragapult.txt",
            "gardevoir-fr.txt",
            "ptcg-live.txt"
        ]
    );
    let mut args = vec!["fmt", "--check"];
    args.extend(lists.iter().map(String::as_str));
    let (code, out) = run_in(&examples, &args, b"");
    assert_eq!(
        (code, out.as_str()),
        (0, "exit: 0\n--- stdout\n--- stderr\n")
    );
}

/// `fmt` never drops a note: a note in brackets after a count written after the name
/// (`Leafeon x2 (Leaf Guard One)`, PokéGym's report of the 2008 Orlando Battle Roads, line 2)
/// is kept as the card's comment, as `3 ER(Always good)` keeps its note; a set code in
/// brackets (`Treecko x3 (GE)`) stays the code, and a comment after the note is kept too.
#[test]
fn fmt_keeps_a_note_after_a_count_written_after_the_name() {
    let dir = workspace(&[]);
    let (code, out) = run_in(
        dir.path(),
        &["fmt", "-"],
        "Leafeon x2 (Leaf Guard One)\nTreecko x3 (GE)\nUmbreon x1 (for Darkness) // tech\n"
            .as_bytes(),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 Leafeon // (Leaf Guard One)\n"), "{out}");
    assert!(out.contains("3 Treecko GE\n"), "{out}");
    assert!(out.contains("1 Umbreon // (for Darkness); tech\n"), "{out}");
    assert!(!out.contains("GE)"), "{out}");
}
