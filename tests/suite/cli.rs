#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! CLI tests: run the real binary in a temporary directory and snapshot exit code, stdout
//! and stderr. One snapshot per fixture deck under `tests/fixtures/decks/`.

use crate::common;

use common::{repo, stdout_of, workspace};
use std::path::Path;
use std::process::Command;

/// Runs `deckbox` in `dir` with `args`, feeding `stdin`, and renders what it did.
fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    common::run_deckbox(dir, args, stdin)
}

#[test]
fn every_fixture_deck() {
    let fixtures = repo().join("tests/fixtures/decks");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "fixtures missing: {names:?}");
    for name in names {
        let dir = workspace(&[&format!("tests/fixtures/decks/{name}")]);
        // The fixtures exercise each construction rule, with cards of every era: judged in
        // Unlimited, where only the rule under test can fail.
        let (_, out) = run_in(dir.path(), &["check", &name, "--format", "unlimited"], b"");
        let stem = name.trim_end_matches(".txt");
        insta::assert_snapshot!(format!("deck-{stem}"), out);
    }
}

#[test]
fn examples_in_every_output() {
    let dir = workspace(&[
        "examples/dragapult.txt",
        "examples/broken.txt",
        "examples/gardevoir-fr.txt",
    ]);
    for output in ["human", "short", "json"] {
        let (code, out) = run_in(
            dir.path(),
            &[
                "check",
                "dragapult.txt",
                "broken.txt",
                "gardevoir-fr.txt",
                "--output",
                output,
            ],
            b"",
        );
        assert_eq!(code, 1, "{out}");
        insta::assert_snapshot!(format!("examples-{output}"), out);
    }
}

#[test]
fn valid_deck_exits_zero() {
    let dir = workspace(&["examples/dragapult.txt"]);
    let (code, out) = run_in(dir.path(), &["check", "dragapult.txt"], b"");
    assert_eq!(code, 0, "{out}");
}

#[test]
fn json_valid_is_exactly_no_errors() {
    let dir = workspace(&["examples/broken.txt", "examples/dragapult.txt"]);
    let output = crate::common::deckbox_command()
        .args(["check", "broken.txt", "dragapult.txt", "--output", "json"])
        .current_dir(dir.path())
        .env_remove("DECKBOX_CARDS")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["version"], 1);
    for deck in json["decks"].as_array().unwrap() {
        let errors = deck["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .count();
        assert_eq!(deck["valid"].as_bool().unwrap(), errors == 0);
        for key in ["path", "format", "language", "card_count", "cards"] {
            assert!(deck.get(key).is_some(), "missing {key}");
        }
        for diagnostic in deck["diagnostics"].as_array().unwrap() {
            for key in [
                "rule", "severity", "message", "help", "line", "column", "span", "cards",
            ] {
                assert!(diagnostic.get(key).is_some(), "missing {key}");
            }
        }
    }
}

#[test]
fn standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let deck = std::fs::read(repo().join("examples/broken.txt")).unwrap();
    let (code, out) = run_in(dir.path(), &["check", "-", "--output", "short"], &deck);
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);
}

#[test]
fn unreadable_file_among_readable_ones() {
    let dir = workspace(&["examples/dragapult.txt"]);
    let (code, out) = run_in(
        dir.path(),
        &["check", "missing.txt", "dragapult.txt", "--output", "short"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!(out.replace("(os error 2)", "(os error)"));
}

#[test]
fn bad_arguments_and_bad_data_exit_two() {
    let dir = workspace(&["examples/dragapult.txt"]);
    std::fs::write(
        dir.path().join("mine.toml"),
        "id = \"mine\"\nname = \"Mine\"\ncolour = \"red\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("not-cards")).unwrap();
    let cases: &[(&str, &[&str])] = &[
        (
            "unknown-format",
            &["check", "--format", "modern", "dragapult.txt"],
        ),
        (
            "format-file-unknown-key",
            &["check", "--format", "mine.toml", "dragapult.txt"],
        ),
        (
            "cards-not-a-database",
            &["check", "--cards", "not-cards", "dragapult.txt"],
        ),
        (
            "unknown-output",
            &["check", "--output", "xml", "dragapult.txt"],
        ),
        ("no-files", &["check"]),
        ("explain-unknown", &["explain", "no-such-rule"]),
    ];
    for (name, args) in cases {
        let (code, out) = run_in(dir.path(), args, b"");
        assert_eq!(code, 2, "{name}: {out}");
        let real = dir.path().canonicalize().unwrap();
        let out = out
            .replace(&real.display().to_string(), "[DIR]")
            .replace(&dir.path().display().to_string(), "[DIR]");
        insta::assert_snapshot!(format!("exit2-{name}"), out);
    }
}

#[test]
fn explain_every_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (code, list) = run_in(dir.path(), &["explain"], b"");
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain-list", list);
    for rule in deckbox::check::rules::Rule::ALL {
        let (code, out) = run_in(dir.path(), &["explain", rule.id()], b"");
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("Why") && out.contains("Fix"), "{out}");
    }
    let (_, copy_limit) = run_in(dir.path(), &["explain", "copy-limit"], b"");
    insta::assert_snapshot!("explain-copy-limit", copy_limit);
    // Issue 50: an id typed as read once (`copylimit`, `Copy_Limit`) is the rule; a typo
    // gets "did you mean".
    for loose in ["copylimit", "Copy_Limit", "COPY LIMIT"] {
        let (code, out) = run_in(dir.path(), &["explain", loose], b"");
        assert_eq!((code, out.as_str()), (0, copy_limit.as_str()), "{loose}");
    }
    let (code, out) = run_in(dir.path(), &["explain", "copy-limt"], b"");
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("unknown rule 'copy-limt'; did you mean 'copy-limit'?"),
        "{out}"
    );
}

#[test]
fn hostile_sizes_finish_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // Unknown cards up to the line bound: every line is reported, suggestions and rendering
    // stay bounded.
    let max = deckbox::deck::input::MAX_LINES;
    let many: String = (0..max)
        .map(|i| format!("{} Zorbulax{i}\n", i % 4 + 1))
        .collect();
    std::fs::write(dir.path().join("many.txt"), many).unwrap();
    let (code, out) = run_in(dir.path(), &["check", "many.txt"], b"");
    assert_eq!(code, 1);
    assert!(
        out.contains("more findings; `--output short` lists every one"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
    let (code, out) = run_in(dir.path(), &["check", "many.txt", "--output", "short"], b"");
    assert_eq!(code, 1);
    assert!(
        out.lines()
            .filter(|line| line.contains("unknown-card"))
            .count()
            == max
    );
    // 1,600 sections of 5 lines, each header counted against its own section (this was
    // quadratic: 20,000 sections took 14 s in release; linear now).
    let sections: String = (0..1_600)
        .map(|i| format!("Pokémon: {}\n", if i == 7 { 4 } else { 5 }))
        .flat_map(|header| {
            std::iter::once(header).chain((1..=5).map(|n| format!("1 Pikachu SVI {n}\n")))
        })
        .collect();
    std::fs::write(dir.path().join("sections.txt"), sections).unwrap();
    let (code, out) = run_in(
        dir.path(),
        &["check", "sections.txt", "--output", "short"],
        b"",
    );
    assert_eq!(code, 1);
    let counts: Vec<&str> = out.lines().filter(|l| l.contains("header-count")).collect();
    assert_eq!(counts.len(), 1, "only the header that says 4: {counts:?}");
    assert!(counts[0].starts_with("sections.txt:43:"), "{counts:?}");
    // One 5 MB line (refused: lines are at most 4096 bytes, so no message repeats 5 MB),
    // and a file over the size limit.
    std::fs::write(
        dir.path().join("long.txt"),
        "4 ".to_string() + &"a".repeat(5 << 20),
    )
    .unwrap();
    let (code, out) = run_in(dir.path(), &["check", "long.txt", "--output", "short"], b"");
    assert_eq!(code, 2);
    assert!(out.contains("long.txt:1: a line of 5242882 bytes"), "{out}");
    assert!(out.len() < 1024);
    std::fs::write(dir.path().join("huge.txt"), "x".repeat(9 << 20)).unwrap();
    let (code, out) = run_in(dir.path(), &["check", "huge.txt"], b"");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("larger than 8 MiB"), "{out}");
}

#[test]
fn with_a_tcgdex_checkout() {
    let Some(data) = common::shared_data("cli with_a_tcgdex_checkout") else {
        return;
    };
    let cards = data.join("tcgdex-repo");
    let fixtures = repo().join("tests/fixtures/with-database");
    for name in [
        "restored-v-union.txt",
        "set-codes.txt",
        "arceus-any-number.txt",
    ] {
        let dir = workspace(&[&format!("tests/fixtures/with-database/{name}")]);
        assert!(fixtures.join(name).is_file());
        let (_, out) = run_in(
            dir.path(),
            &[
                "check",
                name,
                "--cards",
                cards.to_str().unwrap(),
                "--format",
                "unlimited",
            ],
            b"",
        );
        insta::assert_snapshot!(format!("tcgdex-{}", name.trim_end_matches(".txt")), out);
    }
}

/// Completion scripts come from the command-line definition: every command is offered, and
/// the bash script is valid bash (`bash -n`); other shells are checked when installed.
#[test]
fn completions_for_every_shell() {
    let dir = workspace(&[]);
    let commands = [
        "check", "stats", "sample", "fmt", "convert", "diff", "config",
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = crate::common::deckbox_command()
            .args(["completions", shell])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        for command in commands {
            assert!(script.contains(command), "{shell} script lacks {command}");
        }
        let checker = match shell {
            "bash" | "zsh" => Some((shell, vec!["-n"])),
            "fish" => Some(("fish", vec!["--no-execute"])),
            _ => None,
        };
        let Some((program, flags)) = checker else {
            continue;
        };
        let path = dir.path().join(format!("deckbox.{shell}"));
        std::fs::write(&path, &script).unwrap();
        match Command::new(program).args(&flags).arg(&path).output() {
            Ok(checked) => assert!(
                checked.status.success(),
                "{shell} rejects the script: {}",
                String::from_utf8_lossy(&checked.stderr)
            ),
            Err(_) if shell != "bash" => {
                crate::common::needs(false, "completions", shell);
            }
            Err(error) => panic!("bash: {error}"),
        }
    }
    let (code, out) = run_in(dir.path(), &["completions", "tcsh"], b"");
    assert_eq!(code, 2, "{out}");
}

/// Issue 50: bash completion offered file names after `--format`. Run as bash runs it (the
/// script sourced, the completion function called on `deckbox check --format `): it offers
/// the listed formats, and only those that start with what is typed.
#[test]
fn bash_completes_format_ids_after_format() {
    let dir = workspace(&[]);
    std::fs::write(dir.path().join("stray-file.txt"), "x").unwrap();
    let (code, script) = run_in(dir.path(), &["completions", "bash"], b"");
    assert_eq!(code, 0);
    let script = crate::common::stdout_of(&script).to_string();
    std::fs::write(dir.path().join("deckbox.bash"), &script).unwrap();
    let complete = |words: &str| -> Vec<String> {
        let program = format!(
            "source ./deckbox.bash; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             COMP_LINE=\"${{COMP_WORDS[*]}}\"; _deckbox deckbox \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let output = Command::new("bash")
            .args(["-c", &program])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .filter(|line| !line.is_empty())
            .map(str::to_string)
            .collect()
    };
    let all = complete("deckbox check --format ''");
    let listed: Vec<String> = deckbox::formats::Format::listed_ids()
        .map(str::to_string)
        .collect();
    assert_eq!(all, listed);
    assert_eq!(complete("deckbox stats --format gl"), ["glc"]);
}

/// `deckbox man` prints roff for deckbox and for each command (named `deckbox-<command>`);
/// an unknown command exits 2 and lists the known ones.
#[test]
fn man_pages() {
    let dir = workspace(&[]);
    let (code, out) = run_in(dir.path(), &["man"], b"");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(".TH deckbox 1"), "{out}");
    assert!(out.contains("deckbox\\-check(1)"), "{out}");
    let (code, out) = run_in(dir.path(), &["man", "check"], b"");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(".TH deckbox-check 1"), "{out}");
    assert!(out.contains("deckbox check"), "{out}");
    let (code, out) = run_in(dir.path(), &["man", "nope"], b"");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("known commands: check"), "{out}");
}

/// An unknown name is offered the nearest names in the list's own language when there are
/// any: an English list misspelling Super Rod does not get the Portuguese `Super Recolhida`.
#[test]
fn suggestions_come_in_the_lists_language() {
    let dir = workspace(&[]);
    let english = "Pokémon: 4\n4 Dreepy TWM 128\n\nTrainer: 2\n2 Super Rodd\n";
    let (code, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "unlimited"],
        english.as_bytes(),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("help: did you mean 'Super Rod'?"), "{out}");
    let french = "Pokémon : 4\n4 Fantyrm\n\nDresseur : 2\n2 Super Bonbonn\n";
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "unlimited"],
        french.as_bytes(),
    );
    // In the list's language, with the English name beside it (issue 27, item 7).
    assert!(
        out.contains("did you mean 'Super bonbon' (Rare Candy)"),
        "{out}"
    );
}

/// A ban on one printing covers its reprints (same name, same text), not other cards of
/// the name: the five reprints of banned Expanded cards the issue found passing, and a
/// Plasma Blast Archeops whose text differs from the banned Noble Victories one.
#[test]
fn bans_cover_every_printing_of_the_banned_card() {
    let dir = workspace(&[]);
    let deck = "Pokémon: 2\n1 Shaymin-EX ROS 77a\n1 Archeops PLB 54\n\nTrainer: 4\n1 Red Card XY 124\n1 Lt. Surge's Strategy HIF 60\n1 Hex Maniac AOR 75a\n1 Island Challenge Amulet CEC 265\n";
    let (code, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "expanded", "--output", "short"],
        deck.as_bytes(),
    );
    assert_eq!(code, 1, "{out}");
    for line in [2, 6, 7, 8, 9] {
        assert!(
            out.contains(&format!("-:{line}:1: error banned:")),
            "line {line}: {out}"
        );
    }
    assert!(!out.contains("-:3:1: error banned"), "{out}");
}

/// Lists written the way players and tools publish them, each legal in its own era: the
/// file name says the format (`expanded__...`). Each must pass without a word, and so must
/// its Pokémon TCG Live conversion: pokemontcg.io ids (`sv3pt5-4`), a PTCGO export with
/// `Blend Energy GRPD` and `Darkness Energy Energy 7`, a Limitless list with glued promo
/// numbers (`Mewtwo V-UNION SWSH161`) and type letters for basic Energy (`SVE P`).
#[test]
fn real_lists_get_their_eras_verdict() {
    let dir = workspace(&[]);
    let folder = repo().join("tests/fixtures/real");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let (format, _) = name.split_once("__").expect("format__name.txt");
        let path = file.to_string_lossy().into_owned();
        let (code, out) = run_in(
            dir.path(),
            &["check", &path, "--format", format, "--output", "short"],
            b"",
        );
        assert_eq!(code, 0, "{name}: {out}");
        assert!(out.contains("--- stdout\n--- stderr"), "{name}: {out}");
        let (code, converted) = run_in(dir.path(), &["convert", "--to", "ptcgl", &path], b"");
        assert_eq!(code, 0, "{name}: {converted}");
        let list = converted
            .split_once("--- stdout\n")
            .and_then(|(_, rest)| rest.split_once("--- stderr"))
            .map(|(stdout, _)| stdout.to_owned())
            .unwrap();
        assert!(!list.contains("sv3") && !list.contains(" R\n"), "{list}");
        let (code, out) = run_in(
            dir.path(),
            &["check", "-", "--format", format, "--output", "short"],
            list.as_bytes(),
        );
        assert_eq!(code, 0, "{name} converted:\n{list}\n{out}");
    }
}

/// A set code or number that names no printing is never silent: `Iono PAL999` (a glued
/// code) and `Ultra Ball sv1-999` (a pokemontcg.io id) each get `unknown-printing`.
#[test]
fn unknown_glued_and_database_ids_are_reported() {
    let dir = workspace(&[]);
    let deck = "1 Iono PAL999\n1 Ultra Ball sv1-999\n1 Iono PAL185\n1 Ultra Ball sv1-196\n";
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "unlimited", "--output", "short"],
        deck.as_bytes(),
    );
    assert!(out.contains("-:1:1: warning unknown-printing"), "{out}");
    assert!(out.contains("-:2:1: warning unknown-printing"), "{out}");
    assert!(!out.contains("-:3:1:") && !out.contains("-:4:1:"), "{out}");
}

/// A name alone is read as a printing the format allows, and where the reading changes the
/// verdict the warning says so: `4 Computer Search` in Unlimited is the Base Set Trainer
/// (four ACE SPECs would break `ace-spec-limit`); in Expanded, where only the ACE SPEC is
/// legal, it is the ACE SPEC. An English `Ultraball` is Ultra Ball, not Beast Ball (whose
/// German name it is).
#[test]
fn a_name_alone_is_read_as_the_card_the_format_allows() {
    let dir = workspace(&[]);
    let deck = "Pokémon: 4\n4 Dreepy TWM 128\n\nTrainer: 8\n4 Computer Search\n4 Ultraball\n";
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "unlimited"],
        deck.as_bytes(),
    );
    assert!(!out.contains("ace-spec-limit\n"), "{out}");
    assert!(out.contains("which one changes the verdict"), "{out}");
    assert!(out.contains("the deck would break ace-spec-limit"), "{out}");
    assert!(!out.contains("Beast Ball"), "{out}");
    assert!(out.contains("(BCR 137, ACE SPEC Item)"), "{out}");
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "expanded", "--output", "short"],
        deck.as_bytes(),
    );
    assert!(out.contains("error ace-spec-limit"), "{out}");
}

/// The rule ids of `--output short` lines, without the ones converting fixes.
fn short_rules(out: &str) -> std::collections::BTreeSet<String> {
    out.lines()
        .filter_map(|line| line.split(": ").nth(1)?.split_whitespace().nth(1))
        // JSON lists each card under its own kind: no header to count or to be under.
        .filter(|rule| !matches!(*rule, "header-count" | "wrong-section" | "encoding"))
        .map(str::to_string)
        .collect()
}

/// `convert --to json` output reads back, for every fixture deck: the same findings (but
/// `header-count` and `encoding`, which converting fixes), the same list once converted to
/// PTCGL, and it is already what `fmt` prints for it.
#[test]
fn json_output_reads_back() {
    let fixtures = repo().join("tests/fixtures/decks");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".txt") && name != "parse-error.txt")
        .collect();
    names.sort();
    for name in &names {
        let dir = workspace(&[&format!("tests/fixtures/decks/{name}")]);
        let path = dir.path();
        let (code, out) = run_in(
            path,
            &["convert", name, "--to", "json", "-o", "deck.json"],
            b"",
        );
        assert_eq!(code, 0, "{name}: {out}");
        let check = |file: &str| {
            let args = ["check", file, "--format", "unlimited", "--output", "short"];
            short_rules(stdout_of(&run_in(path, &args, b"").1))
        };
        assert_eq!(check("deck.json"), check(name), "{name}");
        let ptcgl = |file: &str| run_in(path, &["convert", file, "--to", "ptcgl"], b"").1;
        assert_eq!(ptcgl("deck.json"), ptcgl(name), "{name}");
        let (code, out) = run_in(path, &["fmt", "--check", "deck.json"], b"");
        assert_eq!(code, 0, "{name}: {out}");
    }
}

#[test]
fn json_findings_point_into_the_json() {
    let dir = workspace(&["tests/fixtures/layouts/limitless_dragapult.json"]);
    let (code, out) = run_in(
        dir.path(),
        &["check", "limitless_dragapult.json", "--format", "unlimited"],
        b"",
    );
    assert_eq!(code, 0, "{out}");
    std::fs::write(
        dir.path().join("broken.json"),
        r#"{"decklist": {
  "pokemon": [
    {"count": 4, "name": "Dreepy", "set": "TWM", "number": 128},
    {"count": 5, "name": "Drakloak", "set": "TWM", "number": "129"},
    {"count": 0, "name": "Dragapult ex", "set": "TWM", "number": "130"}
  ],
  "trainer": [
    {"count": 4, "name": "Ionno", "set": null, "number": null}
  ]
}}
"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("malformed.json"),
        "{\n  \"pokemon\": [\n    {\"count\": 4, \"name\": \"Dreepy\"}\n    {\"count\": 4}\n  ]\n}\n",
    )
    .unwrap();
    let (code, out) = run_in(
        dir.path(),
        &["check", "broken.json", "--output", "short"],
        b"",
    );
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("json-findings", out);
    // JSON that does not parse is no deck list: refused where it stops (issue 26).
    let (code, human) = run_in(dir.path(), &["check", "malformed.json"], b"");
    assert_eq!(code, 2, "{human}");
    insta::assert_snapshot!("json-malformed-human", human);
}

/// Professor Juniper and Professor Sycamore: a deck may hold one or the other, never both
/// (the XY-era rule cited in formats/expanded.toml), in any language and printing; four of
/// either alone is fine.
#[test]
fn juniper_and_sycamore_are_exclusive() {
    let dir = workspace(&[]);
    let both = "Pokémon: 4\n4 Dreepy TWM 128\n\nTrainer: 4\n2 Professor Juniper DEX 98\n2 Professeur Platane\n";
    let (code, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "expanded", "--output", "short"],
        both.as_bytes(),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("-:6:1: error exclusive-cards"), "{out}");
    let one = "Pokémon: 4\n4 Dreepy TWM 128\n\nTrainer: 4\n2 Professor Juniper DEX 98\n2 Professor Juniper PLF 116\n";
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "expanded", "--output", "short"],
        one.as_bytes(),
    );
    assert!(!out.contains("exclusive-cards"), "{out}");
}

/// Old lists as Limitless and players print them: Black Star promos without their number's
/// letters (`PR-BLW 100` is BW100), HeartGold & SoulSilver's `Prime` after the name (a
/// rarity, not part of it), and Phantom Forces' Hyper Gear without TCGdex's label.
#[test]
fn old_lists_as_players_print_them() {
    let dir = workspace(&[]);
    let deck = "1 N PR-BLW 100\n1 Zacian V PR-SW 18\n1 Magnezone Prime\n1 Magnezone Prime TM 96\n1 Head Ringer PHF 97\n1 Casque Assourdissant\n";
    let (_, out) = run_in(
        dir.path(),
        &["check", "-", "--format", "unlimited", "--output", "json"],
        deck.as_bytes(),
    );
    let json = stdout_of(&out);
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    let cards: Vec<(String, String, String)> = report["decks"][0]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| {
            let text = |key: &str| card[key].as_str().unwrap_or("?").to_string();
            (text("name"), text("set"), text("number"))
        })
        .collect();
    let expected = [
        ("N", "BWP", "BW100"),
        ("Zacian V", "SWSHP", "SWSH18"),
        ("Magnezone", "TM", "96"),
        ("Magnezone", "TM", "96"),
        ("Head Ringer", "PHF", "97"),
        ("Head Ringer", "PHF", "97"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(cards, expected, "{out}");
    assert!(
        !out.contains("unknown-printing") && !out.contains("card-mismatch"),
        "{out}"
    );
}

/// A Pokémon TCG Live export as the client writes it (docs/research/issue-18.md, §1): its
/// own codes for alternate prints (`SWSHALT`, `SMALT`, `SVALT`), promo and gallery codes with
/// a hyphen, a trailing `PH` finish, basic Energy as `Basic {X} Energy` with `SVE`, `Energy`
/// or a set's code, and header numbers that count lines. Every line is identified and none
/// gets an `unknown-printing` or `header-count` warning (the two Iono lines, 8 copies, and
/// the 42 cards are the only findings).
#[test]
fn a_ptcg_live_export_with_its_own_codes_reads_cleanly() {
    let dir = workspace(&[]);
    let list = "Pokémon: 4\n2 Bibarel CRZ-GG 25\n1 Pikachu PR-SV 27\n4 Dreepy TWM 128\n1 Manaphy CRZ-GG 6\n\nTrainer: 4\n3 Boss's Orders SWSHALT 32\n4 Iono PAL 185 PH\n4 Iono PAL 269\n4 Pokégear 3.0 SMALT 154\n\nEnergy: 5\n3 Basic {P} Energy Energy 13\n12 Basic {P} Energy SVE 13\n1 Basic {R} Energy SVALT 132\n2 Basic {W} Energy SVE 3 PH\n1 Basic {G} Energy FST 283\n\nTotal Cards: 42\n";
    std::fs::write(dir.path().join("live.txt"), list).unwrap();
    let (_, out) = run_in(
        dir.path(),
        &[
            "check", "live.txt", "--format", "expanded", "--output", "json",
        ],
        b"",
    );
    let json: serde_json::Value = serde_json::from_str(stdout_of(&out)).unwrap();
    let deck = &json["decks"][0];
    let rules: Vec<&str> = deck["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["copy-limit", "deck-size"], "{out}");
    let unnamed: Vec<&serde_json::Value> = deck["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|card| card["name"].is_null())
        .collect();
    assert!(unnamed.is_empty(), "{unnamed:?}");
    assert_eq!(deck["cards"][4]["name"], "Boss's Orders");
}

/// A list as the Pokémon TCG Online client exported it (issue 27, item 2): Legendary
/// Treasures' Radiant Collection numbered after the main set's 115 cards (`Kirlia LTR 124` is
/// RC9, `Mew-EX LTR 139` is RC24), and basic Energy with a number and no set code, which is
/// the basic card: no `ambiguous-card` about the special `Metal Energy` of older sets.
#[test]
fn a_ptcgo_export_is_read_as_the_client_wrote_it() {
    let list = "****** Pokémon Trading Card Game Deck List ******\n\n\
        ##Pokémon - 2\n\n* 1 Kirlia LTR 124\n* 1 Mew-EX LTR 139\n\n\
        ##Trainer Cards - 0\n\n##Energy - 8\n\n* 8 Metal Energy 43\n\n\
        Total Cards - 10\n\n\
        ****** Deck List Generated by the Pokémon TCG Online www.pokemon.com/TCGO ******\n";
    let dir = tempfile::tempdir().unwrap();
    let args = ["check", "-", "--format", "unlimited", "--output", "json"];
    let (code, out) = run_in(dir.path(), &args, list.as_bytes());
    assert_eq!(code, 1, "only the deck size is wrong: {out}");
    let json: serde_json::Value = serde_json::from_str(stdout_of(&out)).unwrap();
    let deck = &json["decks"][0];
    let read: Vec<String> = deck["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c["name"].as_str().unwrap(),
                c["set"],
                c["number"]
            )
        })
        .collect();
    assert_eq!(
        read[..2],
        ["Kirlia \"LTR\" \"RC9\"", "Mew EX \"LTR\" \"RC24\""],
        "{out}"
    );
    for rule in [
        "ambiguous-card",
        "unknown-printing",
        "card-mismatch",
        "unknown-card",
    ] {
        assert!(!out.contains(rule), "{rule} in {out}");
    }
    assert!(out.contains("deck-size"), "{out}");
}

/// An unknown name in a French list is offered French names, each with the English name
/// beside it, so the player can tell which card it is.
#[test]
fn suggestions_are_in_the_list_language_with_the_english_name() {
    let list = "Pokémon : 1\n4 Tarsal\n\nDresseur : 1\n4 Super Bonbonn\n";
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = run_in(dir.path(), &["check", "-"], list.as_bytes());
    assert_eq!(code, 1, "{out}");
    let help = out.lines().find(|l| l.contains("did you mean")).unwrap();
    assert!(
        help.to_lowercase().contains("'super bonbon' (rare candy)"),
        "{out}"
    );
}
