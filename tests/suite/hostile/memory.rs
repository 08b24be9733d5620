//! Inputs that would cost memory without bound: huge or deeply repeated decks, configs,
//! format files, ignore files and card datasets. Each stays within its documented bound.
//!
//! The bound each case checks is docs/security.md's: no single input file makes deckbox use
//! more than [`FLOOR_KIB`] plus 20 times its size. Peak memory is measured with GNU time
//! where `/usr/bin/time` exists (CI installs it); elsewhere the memory part is skipped
//! with a note and the verdicts are still checked.

use super::{Run, copy_example};
use crate::common;

use std::path::Path;
use std::process::Stdio;

/// The fixed floor of docs/security.md's memory bound: deckbox with the embedded card
/// index, a format and one deck, plus what a file at its bound may add beyond 20 times its
/// size (measured under 40 MiB for every case here).
const FLOOR_KIB: u64 = 64 * 1024;

/// What one measured run did: its verdict and, where GNU time exists, its peak memory.
struct Measured {
    run: Run,
    peak_kib: Option<u64>,
}

/// Runs the binary in `dir` (no config unless the case writes one, the cache inside `dir`)
/// under GNU time when it is there.
fn measured(dir: &Path, args: &[&str]) -> Measured {
    let peak_file = dir.join(".peak");
    let timed = Path::new("/usr/bin/time").is_file();
    let mut command = if timed {
        let mut command = std::process::Command::new("/usr/bin/time");
        command
            .args(["-f", "%M", "-o"])
            .arg(&peak_file)
            .arg(env!("CARGO_BIN_EXE_deckbox"));
        command
    } else {
        std::process::Command::new(env!("CARGO_BIN_EXE_deckbox"))
    };
    // What `common::deckbox_command` and `run_deckbox` set, for the binary under time.
    for unset in ["DECKBOX_AS_OF", "DECKBOX_CARDS", "DECKBOX_FORMAT"] {
        command.env_remove(unset);
    }
    command.envs([("DECKBOX_TODAY", common::TODAY), ("COLUMNS", "100")]);
    let output = command
        .args(args)
        .current_dir(dir)
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .env("DECKBOX_DATA_DIR", dir.join(".data"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = output.status.code().unwrap_or(-1);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !stderr.contains("panicked") && (0..=2).contains(&code),
        "{args:?}: exit {code}: {}",
        &stderr[..stderr.len().min(2000)]
    );
    let peak_kib = std::fs::read_to_string(&peak_file)
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse().ok());
    if !timed {
        common::needs(false, "peak memory", "/usr/bin/time");
    }
    Measured {
        run: Run {
            code,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr,
        },
        peak_kib,
    }
}

impl Measured {
    /// Asserts the peak stayed within [`FLOOR_KIB`] plus 20 times `input` bytes.
    fn within(&self, input: u64, case: &str) -> &Self {
        if let Some(peak) = self.peak_kib {
            let bound = FLOOR_KIB + 20 * input / 1024;
            assert!(peak <= bound, "{case}: peak {peak} KiB, bound {bound} KiB");
        }
        self
    }

    /// Asserts exit 2 with `needles` all said on stderr, and nothing on stdout.
    fn refused(&self, needles: &[&str]) {
        assert_eq!(self.run.code, 2, "{}", self.run.stderr);
        // miette wraps long messages and draws a margin: compare the words.
        let words = |text: &str| -> String {
            text.split_whitespace()
                .filter(|word| !matches!(*word, "×" | "│" | "error:"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let said = words(&self.run.stderr);
        for needle in needles {
            assert!(
                said.contains(&words(needle)),
                "{needle}: {}",
                self.run.stderr
            );
        }
        assert!(self.run.stdout.is_empty(), "{}", self.run.stdout);
    }
}

fn write(dir: &Path, name: &str, text: &str) -> u64 {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    text.len() as u64
}

/// `[{},{},...]` on lines of 1,000 objects (within the line bounds), about `bytes` long.
fn empty_objects(bytes: usize) -> String {
    let line = format!("{}\n", "{},".repeat(1000));
    format!("[\n{}{{}}]\n", line.repeat(bytes / line.len()))
}

/// A 2 MB JSON deck of `{}` objects cost 1.1 GB, an 8.3 MB one 4.5 GB (issue 26 item 2):
/// more than [`deckbox::deck::input::MAX_JSON_VALUES`] objects and elements are refused
/// before the JSON is parsed, bare or under a section; at the bound the deck is read.
#[test]
fn json_decks_of_empty_objects() {
    let dir = tempfile::tempdir().unwrap();
    let array = empty_objects(2_000_000);
    let size = write(dir.path(), "array.json", &array);
    write(
        dir.path(),
        "object.json",
        &format!("{{\"pokemon\": {array}}}"),
    );
    write(dir.path(), "large.json", &empty_objects(8_300_000));
    for file in ["array.json", "object.json", "large.json"] {
        let out = measured(dir.path(), &["check", file, "--output", "short"]);
        out.within(size, file);
        assert_eq!(
            out.run.one_error(),
            format!(
                "error: {file}: more than 10000 JSON objects and array elements; a JSON deck list has a few hundred"
            )
        );
    }
    // Under the bound (3,333 card objects: 9,998 objects and commas), the deck is read:
    // each card an unknown-card finding.
    let card = |i: usize| format!("{{\"count\": 1, \"name\": \"Zorbulax {i}\"}}");
    let cards: Vec<String> = (0..3_333).map(card).collect();
    let edge = format!("[\n{}\n]\n", cards.join(",\n"));
    let size = write(dir.path(), "edge.json", &edge);
    let out = measured(dir.path(), &["check", "edge.json", "--output", "short"]);
    assert_eq!(out.run.code, 1, "{}", out.run.stderr);
    assert_eq!(out.run.at("unknown-card").len(), 3_333);
    out.within(size, "edge.json");
}

/// `x = [{a=1},{a=1},...]`: an 8 MB `deckbox.toml` of inline tables cost 2.2 GB on every
/// command, 3.2 GB as a format file. Now a config or format file over 1 MiB is refused
/// unread, and one within the bytes but with more values than its bound before it is
/// parsed.
#[test]
fn toml_files_of_inline_tables() {
    let dir = tempfile::tempdir().unwrap();
    copy_example("dragapult.txt", &dir.path().join("deck.txt"));
    let tables = |bytes: usize| format!("x = [{}]\n", "{a=1},".repeat(bytes / 6));
    let nested = |count: usize| -> String {
        (0..count)
            .map(|i| format!("k{i} = {{b = {{c = 1}}}}\n"))
            .collect()
    };
    let cases = [
        ("big", tables(8_000_000), "it is larger than 1 MiB"),
        (
            "wide",
            tables(1_000_000),
            "it holds more than 30000 TOML values (keys, tables, array elements); not read",
        ),
        (
            "nested",
            nested(40_000),
            "it holds more than 30000 TOML values (keys, tables, array elements); not read",
        ),
        (
            "deep",
            format!("x = {}1{}\n", "[".repeat(5_000), "]".repeat(5_000)),
            "it nests arrays and tables more than 8 deep; not read",
        ),
    ];
    for (name, text, reason) in &cases {
        refused_as_config_and_as_format(dir.path(), name, text, reason, &[&["check", "deck.txt"]]);
    }
}

/// `text` as the `deckbox.toml` of `dir` is refused by each of `commands` for `reason`,
/// and as a format file by `check` (its bound of values is the format's), each within the
/// memory bound.
fn refused_as_config_and_as_format(
    dir: &Path,
    case: &str,
    text: &str,
    reason: &str,
    commands: &[&[&str]],
) {
    let size = write(dir, "deckbox.toml", text);
    for args in commands {
        measured(dir, args).within(size, case).refused(&[
            "cannot read config file",
            "deckbox.toml",
            reason,
        ]);
    }
    std::fs::remove_file(dir.join("deckbox.toml")).unwrap();
    write(dir, "format.toml", text);
    let out = measured(
        dir,
        &[
            "check",
            "--no-config",
            "--format",
            "format.toml",
            "deck.txt",
        ],
    );
    let reason = reason.replace("30000", "20000");
    out.within(size, case)
        .refused(&["cannot read format file format.toml", &reason]);
    std::fs::remove_file(dir.join("format.toml")).unwrap();
}

/// Shapes whose values the parser multiplies (issue 49 item 1): a 1 MB `deckbox.toml` of
/// dotted keys (`a.b.c.d.e.f.g = 1`, one value and six tables a line) cost 467 MB on every
/// command, `card` included, and a 364 KB format file of them 255 MB. Each dot now counts as
/// the table it makes, so both are refused before they are parsed, by every command; arrays
/// of tables and long keys are refused or read within the bound, and a file of each shape
/// just within the bound is read within it too.
#[test]
fn toml_files_of_dotted_keys_arrays_of_tables_and_long_keys() {
    let dir = tempfile::tempdir().unwrap();
    copy_example("dragapult.txt", &dir.path().join("deck.txt"));
    let dotted = |lines: usize| -> String {
        (0..lines)
            .map(|i| format!("k{i}.b.c.d.e.f.g = 1\n"))
            .collect()
    };
    let arrays = |lines: usize| -> String {
        (0..lines)
            .map(|i| format!("[[k{}.b.c]]\nx = 1\n", i % 7))
            .collect()
    };
    let values = "it holds more than 30000 TOML values (keys, tables, array elements); not read";
    let refused = [
        ("dotted keys", dotted(40_000)),
        ("arrays of tables", arrays(50_000)),
    ];
    for (case, text) in &refused {
        assert!(text.len() <= 1 << 20, "{case}: {} bytes", text.len());
        refused_as_config_and_as_format(
            dir.path(),
            case,
            text,
            values,
            &[&["check", "deck.txt"], &["card", "Dreepy"]],
        );
    }
    // Just within the bounds each shape is parsed (and then refused for its unknown keys)
    // within the memory bound; a key of 900 KB is one value.
    let within = [
        ("dotted keys at the bound", dotted(4_200), "k0"),
        ("arrays of tables at the bound", arrays(5_900), "k0"),
        (
            "a long key",
            format!("{} = 1\n", "k".repeat(900_000)),
            "kkkk",
        ),
    ];
    for (case, text, key) in &within {
        let size = write(dir.path(), "deckbox.toml", text);
        measured(dir.path(), &["card", "Dreepy"])
            .within(size, case)
            .refused(&["deckbox.toml", "unknown", key]);
    }
}

/// 100,000 override globs cost 465 MB to 1 GB and 3 to 12 s: now at most
/// [`deckbox::settings::config::MAX_OVERRIDE_GLOBS`] (5,000) are compiled, and one more is
/// refused with the line of the entry that passes the bound.
#[test]
fn override_globs_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    copy_example("dragapult.txt", &dir.path().join("deck.txt"));
    let config = |entries: usize| -> String {
        let mut text = String::from("format = \"standard\"\n");
        for index in 0..entries {
            text.push_str(&format!(
                "[[overrides]]\npaths = [\"glc{index}/**\", \"x{index}/*.txt\"]\nformat = \"glc\"\n"
            ));
        }
        text
    };
    let size = write(dir.path(), "deckbox.toml", &config(2_500));
    let started = std::time::Instant::now();
    let out = measured(dir.path(), &["check", "."]);
    assert_eq!(out.run.code, 0, "{}", out.run.stderr);
    out.within(size, "5,000 globs");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let size = write(dir.path(), "deckbox.toml", &config(2_501));
    measured(dir.path(), &["check", "."])
        .within(size, "5,002 globs")
        .refused(&["more than 5000 override globs", "deckbox.toml:7503"]);
}

/// A chain of `extends` over format files of 8 MB each cost 1.8 GB: each file now has at
/// most 1 MiB and the chain together [`deckbox::formats::MAX_FORMAT_VALUES`] values, so
/// the file that passes the bound is named and none of it is parsed.
#[test]
fn extends_chains_are_bounded_together() {
    let dir = tempfile::tempdir().unwrap();
    copy_example("dragapult.txt", &dir.path().join("deck.txt"));
    let mut total = 0;
    for index in 0..8 {
        let parent = if index < 7 {
            format!("extends = \"f{}.toml\"\n", index + 1)
        } else {
            String::new()
        };
        // 3,000 values a file: under the bound alone, over it by the seventh file.
        let sources = "\"a\",".repeat(2_990);
        total += write(
            dir.path(),
            &format!("f{index}.toml"),
            &format!("id = \"f{index}\"\nname = \"F\"\n{parent}sources = [{sources}]\n"),
        );
    }
    let out = measured(
        dir.path(),
        &["check", "--no-config", "--format", "f0.toml", "deck.txt"],
    );
    out.within(total, "chain").refused(&[
        "f6.toml",
        "it and the files read with it hold more than 20000 TOML values",
    ]);
    // The first files alone are within the bound.
    let out = measured(
        dir.path(),
        &["check", "--no-config", "--format", "f3.toml", "deck.txt"],
    );
    assert_ne!(out.run.code, 2, "{}", out.run.stderr);
}

/// Seven nested `.gitignore` files of 1 MiB cost 680 MB to 1.9 GB and 20 s: an ignore file
/// may have 256 KiB and 2,000 patterns, a walk 6,000 patterns in all; past them the file
/// is a warning and the walk goes on without it, as for any ignore file it cannot read.
#[cfg(unix)]
#[test]
fn nested_ignore_files_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut folder = dir.path().to_path_buf();
    let mut total = 0;
    for depth in 0..7 {
        // 1,500 patterns a file (under the per-file bound), the last one ignoring drafts.
        let mut patterns: String = (0..1_499).map(|n| format!("a{depth}*b{n}\n")).collect();
        patterns.push_str(&format!("draft{depth}.txt\n"));
        total += write(&folder, ".gitignore", &patterns);
        copy_example("broken.txt", &folder.join(format!("draft{depth}.txt")));
        folder = folder.join(format!("s{depth}"));
    }
    std::fs::create_dir_all(&folder).unwrap();
    copy_example("dragapult.txt", &folder.join("deck.txt"));
    write(dir.path(), "huge/.gitignore", &"x\n".repeat(5_000));
    copy_example("dragapult.txt", &dir.path().join("huge/deck.txt"));
    total += 10_000;
    let out = measured(
        dir.path(),
        &["check", "--no-config", ".", "--output", "short"],
    );
    out.within(total, "ignore files");
    let warnings: Vec<&str> = out
        .run
        .stderr
        .lines()
        .filter(|line| line.starts_with("warning:"))
        .collect();
    assert!(
        warnings.iter().any(|line| line.contains("huge/.gitignore")
            && line.contains("it has 5000 patterns; an ignore file may have at most 2000")),
        "{}",
        out.run.stderr
    );
    // The first four files fit the walk's 6,000 patterns; the fifth on are left out.
    assert!(
        warnings
            .iter()
            .any(|line| line.contains("more than 6000 patterns together")),
        "{}",
        out.run.stderr
    );
    let checked = &out.run.stdout;
    assert!(!checked.contains("draft0.txt"), "{checked}");
    assert!(checked.contains("draft6.txt"), "{checked}");
}

/// A pokemon-tcg-data checkout whose set list names a file outside it (`../`, an absolute
/// path, a link out) reads nothing there, and one naming a set's file 500 times (236 MB and
/// 12 s before) loads it once (issue 26 item 3). Each refused entry is named in the
/// warning about files that could not be loaded.
#[cfg(unix)]
#[test]
fn pokemon_tcg_data_set_ids_stay_inside() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ptcg");
    let card = |name: &str, number: usize| {
        format!(
            "{{\"name\": \"{name}\", \"supertype\": \"Pokémon\", \"subtypes\": [\"Basic\"], \"number\": \"{number}\", \"hp\": \"60\"}}"
        )
    };
    let set: Vec<String> = (1..=2_000).map(|n| card("Zorbulax", n)).collect();
    let size = write(
        &root,
        "cards/en/big.json",
        &format!("[{}]", set.join(",\n")),
    );
    write(
        dir.path(),
        "outside/secret.json",
        &format!("[{}]", card("Secretmon", 1)),
    );
    std::os::unix::fs::symlink(
        dir.path().join("outside/secret.json"),
        root.join("cards/en/linked.json"),
    )
    .unwrap();
    let outside = dir.path().join("outside/secret").display().to_string();
    let mut sets = vec![
        serde_json::json!({"id": "../../../outside/secret", "ptcgoCode": "OUT"}),
        serde_json::json!({"id": outside, "ptcgoCode": "ABS"}),
        serde_json::json!({"id": "linked", "ptcgoCode": "LNK"}),
    ];
    for _ in 0..500 {
        sets.push(
            serde_json::json!({"id": "big", "ptcgoCode": "BIG", "releaseDate": "2020/01/01"}),
        );
    }
    write(
        &root,
        "sets/en.json",
        &serde_json::Value::Array(sets).to_string(),
    );
    write(
        dir.path(),
        "deck.txt",
        "4 Secretmon OUT 1\n4 Zorbulax BIG 7\n",
    );
    let out = measured(
        dir.path(),
        &[
            "check",
            "--no-config",
            "--cards",
            "ptcg",
            "deck.txt",
            "--output",
            "short",
        ],
    );
    out.within(size, "set list");
    assert_eq!(out.run.code, 1, "{}", out.run.stderr);
    assert!(
        out.run.stdout.contains("unknown card 'Secretmon'"),
        "{}",
        out.run.stdout
    );
    assert!(
        !out.run.stdout.contains("unknown card 'Zorbulax'"),
        "{}",
        out.run.stdout
    );
    for needle in [
        "set id `../../../outside/secret` is not a plain id",
        "is not a plain id",
        "leads outside the checkout",
        "set `big` is listed more than once",
    ] {
        assert!(
            out.run.stderr.contains(needle),
            "{needle}: {}",
            out.run.stderr
        );
    }
}

/// A text deck at its line bound ([`deckbox::deck::input::MAX_LINES`]): each line read costs
/// about 1.2 KB whatever its length, so short lines are the worst case (200,000 lines of
/// distinct unknown names, 3.3 MB, cost 234 MB before the bound came down to 20,000). In
/// short, human and JSON output, the peak stays within the bound.
#[test]
fn text_decks_at_the_line_bound() {
    let dir = tempfile::tempdir().unwrap();
    let max = deckbox::deck::input::MAX_LINES;
    let short: String = (0..max).map(|i| format!("1 Q{i}\n")).collect();
    let size = write(dir.path(), "short.txt", &short);
    for output in ["short", "human", "json"] {
        let out = measured(dir.path(), &["check", "short.txt", "--output", output]);
        assert_eq!(out.run.code, 1, "{}", out.run.stderr);
        out.within(size, output);
    }
    let over: String = (0..=max).map(|i| format!("1 Q{i}\n")).collect();
    write(dir.path(), "over.txt", &over);
    let out = measured(dir.path(), &["check", "over.txt"]);
    out.refused(&[&format!("a deck list may have at most {max} lines")]);
}

/// A TCGdex checkout cannot read outside itself (issue 26 item 3): a card file, a set
/// folder or a series folder that is a symbolic link out of `data/` is a damaged record,
/// named in the warning, and the file it points to is never read as a card.
#[cfg(unix)]
#[test]
fn tcgdex_links_out_of_the_checkout_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    super::tcgdex_checkout(&d.join("tcgdex"));
    // Outside the checkout: a card record and a whole set folder of them.
    let outside = d.join("outside");
    std::fs::create_dir_all(outside.join("set")).unwrap();
    let record = std::fs::read_to_string(d.join("tcgdex/data/SV/Set One/002.ts")).unwrap();
    let secret = record.replace("Pikachu", "Secretchu");
    std::fs::write(outside.join("secret.ts"), &secret).unwrap();
    std::fs::write(outside.join("set/001.ts"), &secret).unwrap();
    let set = d.join("tcgdex/data/SV/Set One");
    std::os::unix::fs::symlink(outside.join("secret.ts"), set.join("003.ts")).unwrap();
    std::fs::copy(
        d.join("tcgdex/data/SV/Set One.ts"),
        d.join("tcgdex/data/SV/Set Two.ts"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.join("set"), d.join("tcgdex/data/SV/Set Two")).unwrap();
    std::fs::write(d.join("deck.txt"), "4 Secretchu\n4 Pikachu ONE 2\n").unwrap();
    let out = measured(
        d,
        &[
            "check",
            "deck.txt",
            "--cards",
            "tcgdex",
            "--format",
            "unlimited",
            "--output",
            "short",
        ],
    );
    assert!(
        out.run
            .stderr
            .contains("files of the card data could not be read"),
        "{}",
        out.run.stderr
    );
    for link in ["Set One/003.ts", "Set Two"] {
        assert!(
            out.run
                .stderr
                .lines()
                .any(|line| line.contains(link) && line.contains("symbolic link")),
            "{link}: {}",
            out.run.stderr
        );
    }
    assert!(
        out.run.stdout.contains("unknown card 'Secretchu'"),
        "{}",
        out.run.stdout
    );
}

/// A TCGdex checkout of records within every per-record bound, each with 1,200 attacks,
/// cost 2.2 GB as `--cards` (4 GB as `cards update`'s archive) (issue 52 item 1): past
/// [`deckbox::cards::sources::budget::MAX_DATASET_PARTS`] attacks, abilities, weaknesses
/// and resistances in all, the load is refused, naming the bound, within the memory bound,
/// as `--cards` and as `cards update`'s archive (peak 245 MB for the update on 2026-11-28,
/// debug build, against 4 GB before the bound).
#[test]
fn a_dataset_of_many_attacks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let attacks = "{name:{en:\"A\"},cost:[\"Colorless\"],damage:10},".repeat(1_200);
    let rest = format!("category: \"Pokemon\", stage: \"Basic\", attacks: [{attacks}]");
    let numbers: Vec<String> = (1..=350).map(|number| format!("{number:03}")).collect();
    let cards: Vec<(&str, &str, &str)> = numbers
        .iter()
        .map(|number| (number.as_str(), "Attacker", rest.as_str()))
        .collect();
    super::tcgdex_set(&dir.path().join("tcgdex"), &cards);
    let size = 350 * rest.len() as u64;
    write(dir.path(), "deck.txt", "4 Attacker ONE 1\n");
    let out = measured(
        dir.path(),
        &["check", "--no-config", "--cards", "tcgdex", "deck.txt"],
    );
    out.within(size, "many attacks");
    out.refused(&["more than 400000 attacks, abilities, weaknesses and resistances"]);
    // The same records as `cards update`'s archive: refused within the same bound, and
    // nothing installed.
    let archive = dir.path().join("cards.tar.gz");
    let packed = std::process::Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(dir.path())
        .arg("tcgdex")
        .status()
        .unwrap();
    assert!(packed.success());
    let from = archive.to_str().unwrap();
    let out = measured(dir.path(), &["cards", "update", "--force", "--from", from]);
    out.within(size, "many attacks, as an update");
    out.refused(&["more than 400000 attacks, abilities, weaknesses and resistances"]);
    assert!(!dir.path().join(".data/cards/index.dbx").exists());
    // Fewer attacks load: the bound is on the sum, not on a record.
    for number in &numbers[100..] {
        std::fs::remove_file(
            dir.path()
                .join(format!("tcgdex/data/SV/Set One/{number}.ts")),
        )
        .unwrap();
    }
    let out = measured(
        dir.path(),
        &["check", "--no-config", "--cards", "tcgdex", "deck.txt"],
    );
    assert_eq!(out.run.code, 1, "{}", out.run.stderr);
}
