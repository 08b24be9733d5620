#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Hostile inputs: what a pre-commit hook meets in other people's repositories. Every case
//! runs the real binary on files written here (nothing big is committed) and asserts its
//! exact verdict: exit 1 with the expected rule ids, or exit 2 with one message naming the
//! file; never a panic, never a hang, never output that grows with the garbage.

// Cases grouped by what they attack; each file is one part of issue-sized work.
mod card_folders;
mod card_printings;
mod collections;
mod escaping;
mod json_decks;
mod markdown;
mod memory;
mod output_files;
mod prices;
mod saving;
mod search;
mod terminal;
mod work_bounds;

use crate::common;
use crate::oracles;

use std::collections::BTreeSet;
use std::path::Path;

use oracles::has_raw_hidden;

/// What one run did, split up.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The rule ids of `--output short` lines (`path:line:col: severity rule: message`).
    fn rules(&self) -> BTreeSet<String> {
        self.stdout
            .lines()
            .filter_map(|line| {
                let (_, rest) = line.split_once(": ")?;
                let (head, _) = rest.split_once(": ")?;
                head.split_whitespace().nth(1).map(str::to_string)
            })
            .collect()
    }

    /// `path:line:col` of every short line with `rule`.
    fn at(&self, rule: &str) -> Vec<String> {
        self.stdout
            .lines()
            .filter(|line| line.contains(&format!(" {rule}: ")))
            .map(|line| line.splitn(4, ':').take(3).collect::<Vec<_>>().join(":"))
            .collect()
    }

    /// The one `error:` message on stderr (exit 2), asserting there is exactly one.
    fn one_error(&self) -> &str {
        let errors: Vec<&str> = self
            .stderr
            .lines()
            .filter(|line| line.starts_with("error:"))
            .collect();
        assert_eq!(errors.len(), 1, "exactly one message:\n{}", self.stderr);
        errors[0]
    }
}

/// Runs the binary and checks what every run must satisfy: a verdict (0, 1 or 2), no panic.
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let (code, rendered) = common::run_deckbox(dir, args, stdin);
    let (head, stderr) = rendered.split_once("--- stderr\n").unwrap();
    let stdout = head.split_once("--- stdout\n").unwrap().1;
    assert!(
        !stderr.contains("panicked") && code != 101,
        "{args:?} panicked:\n{}",
        &stderr[..stderr.len().min(2000)]
    );
    assert!((0..=2).contains(&code), "{args:?}: exit {code}");
    Run {
        code,
        stdout: stdout.to_string(),
        stderr: stderr.to_string(),
    }
}

fn set(rules: &[&str]) -> BTreeSet<String> {
    rules.iter().map(|rule| rule.to_string()).collect()
}

/// Pseudo-random bytes from a fixed-seed xorshift64.
fn garbage(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.to_le_bytes()[0]
        })
        .collect()
}

#[test]
fn empty_and_blank_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();
    std::fs::write(
        dir.path().join("blank.txt"),
        "\n  \n\t\n# only a comment\n// another\n",
    )
    .unwrap();
    for file in ["empty.txt", "blank.txt"] {
        let out = run(dir.path(), &["check", file, "--output", "short"], b"");
        assert_eq!(out.code, 1, "{}", out.stdout);
        assert_eq!(out.rules(), set(&["deck-size", "no-basic-pokemon"]));
        assert!(
            out.stdout.contains("the deck has 0 cards"),
            "{}",
            out.stdout
        );
    }
    let out = run(dir.path(), &["check", "-", "--output", "short"], b"");
    assert_eq!(out.code, 1);
    assert_eq!(out.rules(), set(&["deck-size", "no-basic-pokemon"]));
}

#[test]
fn binary_garbage() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("noise.txt"), garbage(4096)).unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(garbage(512));
    std::fs::write(dir.path().join("image.txt"), png).unwrap();
    let mut elf = b"\x7fELF\x02\x01\x01\0".to_vec();
    elf.extend([0u8; 56]);
    std::fs::write(dir.path().join("program.txt"), elf).unwrap();
    // Not UTF-8: read as Windows-1252, with the warning; every line a parse error.
    for file in ["noise.txt", "image.txt"] {
        let out = run(dir.path(), &["check", file, "--output", "short"], b"");
        assert_eq!(out.code, 1);
        assert_eq!(
            out.rules(),
            set(&["deck-size", "no-basic-pokemon", "encoding", "parse-error"]),
            "{file}"
        );
        assert!(
            out.stdout.len() < 64 * 1024,
            "{file}: {} bytes",
            out.stdout.len()
        );
        assert!(
            !has_raw_hidden(&out.stdout),
            "{file}: raw control characters"
        );
        let human = run(dir.path(), &["check", file], b"");
        assert_eq!(human.code, 1);
        assert!(
            !has_raw_hidden(&human.stdout),
            "{file}: raw control characters"
        );
    }
    // An ELF header is valid UTF-8 (NUL bytes and all): no encoding warning.
    let out = run(
        dir.path(),
        &["check", "program.txt", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.rules(),
        set(&["deck-size", "no-basic-pokemon", "parse-error"])
    );
    let human = run(dir.path(), &["check", "program.txt"], b"");
    assert!(!has_raw_hidden(&human.stdout), "{}", human.stdout);
}

#[test]
fn nul_bytes_inside_card_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deck.txt"),
        b"4 Io\0no\n3 Boss\0s Orders\n4 Boss's Orders\0\n",
    )
    .unwrap();
    let out = run(dir.path(), &["check", "deck.txt", "--output", "short"], b"");
    assert_eq!(out.code, 1);
    assert_eq!(out.rules(), set(&["deck-size", "unknown-card"]));
    // The NUL is part of the name, shown escaped; a trailing one too.
    assert!(
        out.stdout.contains("unknown card 'Io\\u{0}no'"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.at("unknown-card"),
        ["deck.txt:1:3", "deck.txt:2:3", "deck.txt:3:3"]
    );
    let human = run(dir.path(), &["check", "deck.txt"], b"");
    assert!(!human.stdout.contains('\0'), "{}", human.stdout);
}

#[test]
fn long_lines_are_refused_without_echoing_them() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("Pokémon: 4\n4 {}\n", "a".repeat(5 << 20));
    std::fs::write(dir.path().join("long.txt"), &long).unwrap();
    let out = run(dir.path(), &["check", "long.txt"], b"");
    assert_eq!(out.code, 2);
    assert_eq!(
        out.one_error(),
        "error: long.txt:2: a line of 5242882 bytes; a deck list's lines may have at most 4096 bytes"
    );
    assert!(out.stdout.len() + out.stderr.len() < 1024);
    let out = run(dir.path(), &["stats", "-"], long.as_bytes());
    assert_eq!(out.code, 2);
    assert!(
        out.one_error()
            .starts_with("error: standard input:2: a line of 5242882 bytes"),
        "{}",
        out.stderr
    );
    // At the limit the line is read: one finding quoting it, output bounded by the limit.
    let at_limit = format!("4 {}\n", "a".repeat(4094));
    std::fs::write(dir.path().join("edge.txt"), at_limit).unwrap();
    let out = run(dir.path(), &["check", "edge.txt", "--output", "short"], b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), set(&["deck-size", "unknown-card"]));
    assert!(out.stdout.len() < 8 * 1024, "{} bytes", out.stdout.len());
    let out = run(dir.path(), &["check", "edge.txt"], b"");
    assert_eq!(out.code, 1);
    assert!(out.stdout.len() < 32 * 1024, "{} bytes", out.stdout.len());
}

#[test]
fn line_count_limit() {
    let dir = tempfile::tempdir().unwrap();
    let lines = |n: usize, ending: &str| -> String {
        (0..n)
            .map(|i| format!("{} Zorbulax{i}{ending}", i % 4 + 1))
            .collect()
    };
    let many = lines(20_000, "\n");
    std::fs::write(dir.path().join("deck.txt"), &many).unwrap();
    let refused = "20000 lines; a deck list may have at most 10000 lines";
    for args in [
        &["check", "deck.txt"][..],
        &["check", "deck.txt", "--output", "json"],
        &["stats", "deck.txt"],
        &["fmt", "--check", "deck.txt"],
        &["convert", "deck.txt", "--to", "ptcgo"],
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.one_error(), format!("error: deck.txt: {refused}"));
        assert!(out.stdout.len() < 1024, "{args:?}");
    }
    for command in ["check", "stats"] {
        let out = run(dir.path(), &[command, "-"], many.as_bytes());
        assert_eq!(out.code, 2);
        assert_eq!(out.one_error(), format!("error: standard input: {refused}"));
    }
    // The bound counts lines as the parser cuts them: `\r\n` is one ending, a lone `\r`
    // one; exactly the limit is read.
    std::fs::write(dir.path().join("limit.txt"), lines(10_000, "\r\n")).unwrap();
    let out = run(
        dir.path(),
        &["check", "limit.txt", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.at("unknown-card").len(), 10_000);
    std::fs::write(dir.path().join("over.txt"), lines(10_001, "\r")).unwrap();
    let out = run(dir.path(), &["check", "over.txt"], b"");
    assert_eq!(out.code, 2);
    assert_eq!(
        out.one_error(),
        "error: over.txt: 10001 lines; a deck list may have at most 10000 lines"
    );
    // Without a final line ending the last line still counts.
    let mut unterminated = lines(10_001, "\n");
    unterminated.pop();
    std::fs::write(dir.path().join("tail.txt"), unterminated).unwrap();
    let out = run(dir.path(), &["check", "tail.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(out.one_error().contains("10001 lines"), "{}", out.stderr);
}

#[test]
fn counts_that_overflow_or_make_no_sense() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deck.txt"),
        "99999999999999999999999999 Iono\n18446744073709551616 Iono\n4294967296 Iono\n0 Iono\n-4 Iono\n4 Boss's Orders\n",
    )
    .unwrap();
    let out = run(dir.path(), &["check", "deck.txt", "--output", "short"], b"");
    assert_eq!(out.code, 1);
    assert_eq!(
        out.rules(),
        set(&["deck-size", "no-basic-pokemon", "parse-error"])
    );
    assert_eq!(
        out.at("parse-error"),
        [
            "deck.txt:1:1",
            "deck.txt:2:1",
            "deck.txt:3:1",
            "deck.txt:4:1",
            "deck.txt:5:1"
        ]
    );
    assert!(
        out.stdout.contains("the deck has 4 cards"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("count 999999999999… is too large to be a number of copies"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("count -4 is negative"),
        "{}",
        out.stdout
    );
    let out = run(dir.path(), &["stats", "deck.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("deck.txt has lines deckbox could not identify"),
        "{}",
        out.stderr
    );
    // Counts within the per-line bound that add up beyond any exact statistic.
    let big: String = "10000 Dreepy TWM 128\n".repeat(10_000);
    std::fs::write(dir.path().join("big.txt"), big).unwrap();
    let out = run(dir.path(), &["stats", "big.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(out.one_error().contains("too large"), "{}", out.stderr);
}

#[test]
fn hostile_json() {
    let dir = tempfile::tempdir().unwrap();
    // Nesting 9,000 deep on as many lines (within the line bounds): serde_json skips it
    // without recursing, and the reader only descends into shapes it knows.
    let deep = format!("{}1]", "[\n".repeat(9_000));
    std::fs::write(dir.path().join("deep.json"), &deep).unwrap();
    let closed = format!(
        "{{\"pokemon\": [\n{}1{}]}}",
        "[\n".repeat(4_000),
        "]\n".repeat(4_000)
    );
    std::fs::write(dir.path().join("closed.json"), &closed).unwrap();
    // Neither is a deck list deckbox can read (issue 26): each is refused where it stops,
    // never judged as an empty deck.
    let out = run(
        dir.path(),
        &["check", "deep.json", "closed.json", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "error: deep.json:128:1: not a deck list deckbox can read: not valid JSON: recursion limit exceeded"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("error: closed.json:127:1: not a deck list deckbox can read: not valid JSON: recursion limit exceeded"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.len() < 2048, "{} bytes", out.stderr.len());
    // Values of the right type but every wrong size: each is one finding, the good card is
    // still read.
    std::fs::write(
        dir.path().join("values.json"),
        concat!(
            "{\"pokemon\": [\n",
            "{\"count\": 99999999999999999999999999999999999999999999, \"name\": \"Dreepy\"},\n",
            "{\"count\": 1.5e3, \"name\": \"Dreepy\"},\n",
            "{\"count\": -4, \"name\": \"Dreepy\"},\n",
            "{\"count\": 0, \"name\": \"  \"},\n",
            "{\"count\": 4, \"name\": \"Dree\\npy\"},\n",
            "{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"T W M\", \"number\": -1},\n",
            "{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}\n",
            "], \"language\": \"ja\", \"sideboard\": [{\"count\": 1}]}\n"
        ),
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["check", "values.json", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.rules(),
        set(&["deck-size", "parse-error"]),
        "{}",
        out.stdout
    );
    assert_eq!(out.at("parse-error").len(), 10, "{}", out.stdout);
    assert!(
        out.stdout.contains("the deck has 4 cards"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("count 999999999999… is too large to be a number of copies"),
        "{}",
        out.stdout
    );
    assert!(!has_raw_hidden(&out.stdout), "{}", out.stdout);
    // fmt and convert refuse it (exit 2) rather than drop the lines.
    for args in [&["fmt", "values.json"][..], &["convert", "values.json"]] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stdout.is_empty());
    }
    // Values of the wrong type, out of any range or not text: no deck list (exit 2), at
    // the first of them.
    for (text, at) in [
        (
            "{\"pokemon\": [{\"count\": {\"a\": 1}, \"name\": [\"Dreepy\"]}]}",
            "1:24",
        ),
        (
            "{\"pokemon\": [\n{\"count\": 1e999, \"name\": \"Dreepy\"}]}",
            "2:15",
        ),
        (
            "{\"pokemon\": [{\"count\": 4, \"name\": \"\\ud800\"}]}",
            "1:42",
        ),
        (
            "{\"language\": 7, \"comments\": [1], \"pokemon\": []}",
            "1:14",
        ),
    ] {
        std::fs::write(dir.path().join("types.json"), text).unwrap();
        let out = run(
            dir.path(),
            &["check", "types.json", "--output", "short"],
            b"",
        );
        assert_eq!(out.code, 2, "{text}: {}", out.stdout);
        assert!(
            out.one_error().starts_with(&format!(
                "error: types.json:{at}: not a deck list deckbox can read"
            )),
            "{text}: {}",
            out.stderr
        );
    }
}

#[test]
fn text_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Pokémon: 0\n4 Boss’s Orders\n";
    // Windows-1252: é is 0xE9, ’ is 0x92.
    let cp1252: Vec<u8> = text
        .chars()
        .map(|c| match c {
            'é' => 0xE9,
            '’' => 0x92,
            c => u8::try_from(c).unwrap(),
        })
        .collect();
    let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let with_bom: Vec<u8> = [0xFF, 0xFE].into_iter().chain(utf16.clone()).collect();
    std::fs::write(dir.path().join("cp1252.txt"), cp1252).unwrap();
    std::fs::write(dir.path().join("utf16-bom.txt"), with_bom).unwrap();
    std::fs::write(dir.path().join("utf16.txt"), utf16).unwrap();
    std::fs::write(
        dir.path().join("lone.txt"),
        b"4 Boss\x80\x80s Orders\n4 \xBFIono\n",
    )
    .unwrap();
    // Windows-1252, UTF-16 with a BOM and UTF-16 without one (told by its zero bytes):
    // decoded, the card identified, a warning.
    for (file, encoding) in [
        ("cp1252.txt", "windows-1252"),
        ("utf16-bom.txt", "UTF-16LE"),
        ("utf16.txt", "UTF-16LE"),
    ] {
        let out = run(dir.path(), &["check", file, "--output", "short"], b"");
        assert_eq!(out.code, 1, "{file}");
        assert_eq!(
            out.rules(),
            set(&[
                "deck-size",
                "no-basic-pokemon",
                "encoding",
                "header-count",
                "wrong-section"
            ]),
            "{file}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains(&format!("read as {encoding}")),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout.contains("the deck has 4 cards"),
            "{}",
            out.stdout
        );
    }
    // Lone continuation bytes: Windows-1252 characters in the name, an unknown card.
    let out = run(
        dir.path(),
        &[
            "check",
            "lone.txt",
            "--output",
            "short",
            "--format",
            "unlimited",
        ],
        b"",
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.rules(), set(&["deck-size", "encoding", "unknown-card"]));
    assert!(
        out.stdout.contains("unknown card 'Boss€€s Orders'"),
        "{}",
        out.stdout
    );
}

#[test]
fn zero_width_and_bidi_characters_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        "4 Boss\u{2019}s Orders",                  // 1: the control: identified
        "4 \u{200B}Boss's Orders\u{200B}",         // 2: at the edges: blanks, identified
        "4 Boss's\u{200B} Orders",                 // 3: inside: unknown
        "4 Boss's Or\u{200D}ders",                 // 4
        "4 Boss's Or\u{FEFF}ders",                 // 5
        "4 \u{202E}sredrO s'ssoB",                 // 6: shows as "Boss's Orders" reversed
        "4 \u{2066}Boss's Orders\u{2069}",         // 7
        "4 Boss's \u{2067}Orders\u{2068}\u{2069}", // 8
        "4 \u{1b}[2K\u{1b}[1GBoss's Orders",       // 9: would erase the line on a terminal
    ];
    std::fs::write(dir.path().join("deck.txt"), lines.join("\n") + "\n").unwrap();
    let out = run(dir.path(), &["check", "deck.txt", "--output", "short"], b"");
    assert_eq!(out.code, 1);
    // Zero-width characters are folded away: lines 1 to 5 are 20 copies of Boss's Orders.
    // Bidi controls and escape sequences are not: unknown cards, shown escaped.
    assert_eq!(
        out.at("unknown-card"),
        (6..=9)
            .map(|n| format!("deck.txt:{n}:3"))
            .collect::<Vec<_>>()
    );
    assert!(
        out.stdout
            .contains("copy-limit: 20 cards named 'Boss's Orders' on 5 lines"),
        "{}",
        out.stdout
    );
    for escaped in [
        "'\\u{202E}sredrO s'ssoB'",
        "'\\u{2066}Boss's Orders\\u{2069}'",
        "'Boss's \\u{2067}Orders\\u{2068}\\u{2069}'",
        "'\\u{1B}[2K\\u{1B}[1GBoss's Orders'",
    ] {
        assert!(
            out.stdout.contains(&format!("unknown card {escaped}")),
            "{escaped}:\n{}",
            out.stdout
        );
    }
    assert!(!has_raw_hidden(&out.stdout), "{}", out.stdout);
    // The human renderer quotes the lines with the hidden characters replaced (same byte
    // length, so the underlines still point at the name).
    let human = run(dir.path(), &["check", "deck.txt"], b"");
    assert_eq!(human.code, 1);
    assert!(!has_raw_hidden(&human.stdout), "{}", human.stdout);
    assert!(
        human.stdout.contains("4 \u{FFFD}sredrO s'ssoB"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains("4 Boss's Or\u{FFFD}ders"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains("4 ?[2K?[1GBoss's Orders"),
        "{}",
        human.stdout
    );
    // File names are escaped too.
    let name = "evil\u{202E}txt.deck";
    std::fs::write(dir.path().join(name), "4 Boss's Orders\n").unwrap();
    let out = run(dir.path(), &["check", name], b"");
    assert_eq!(out.code, 1);
    assert!(!has_raw_hidden(&out.stdout), "{}", out.stdout);
    assert!(
        out.stdout.contains("evil\\u{202E}txt.deck"),
        "{}",
        out.stdout
    );
    // JSON is machine output: names as written (JSON-escaped where JSON requires).
    let out = run(dir.path(), &["check", "deck.txt", "--output", "json"], b"");
    assert!(out.stdout.contains("\u{202E}sredrO"), "{}", out.stdout);
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_terminates() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("a/b")).unwrap();
    copy_example("broken.txt", &tree.join("a/broken.txt"));
    std::os::unix::fs::symlink("..", tree.join("a/loop")).unwrap();
    std::os::unix::fs::symlink("../..", tree.join("a/b/up")).unwrap();
    std::os::unix::fs::symlink("../tree", tree.join("a/b/loop.txt")).unwrap();
    let out = run(dir.path(), &["check", "tree", "--output", "short"], b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.rules(),
        set(&["ace-spec-limit", "copy-limit", "deck-size", "unknown-card"])
    );
    // Checked once, under its real path: links are not followed.
    assert_eq!(out.at("copy-limit"), ["tree/a/broken.txt:2:1"]);
    // A link named on the command line is followed once; the links inside it are not.
    let out = run(
        dir.path(),
        &["check", "tree/a/loop", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.at("copy-limit"), ["tree/a/loop/a/broken.txt:2:1"]);
}

/// Files root cannot read either (the tests may run as root, so `chmod 000` proves
/// nothing): a dangling symbolic link named explicitly, a path through a file, a named pipe
/// (opening it would block forever with no writer) and a file over the size limit.
#[cfg(unix)]
#[test]
fn unreadable_files_among_readable_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("broken.txt", &d.join("broken.txt"));
    copy_example("dragapult.txt", &d.join("good.txt"));
    std::os::unix::fs::symlink("nowhere.txt", d.join("dangling.txt")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(d.join("pipe.txt"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(d.join("huge.txt"), vec![b'x'; 9 << 20]).unwrap();
    let args = [
        "check",
        "good.txt",
        "dangling.txt",
        "broken.txt",
        "pipe.txt",
        "good.txt/deck.txt",
        "huge.txt",
        "--output",
        "short",
    ];
    let out = run(d, &args, b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    // The readable files were still checked.
    assert_eq!(
        out.rules(),
        set(&["ace-spec-limit", "copy-limit", "deck-size", "unknown-card"])
    );
    let errors: Vec<&str> = out
        .stderr
        .lines()
        .filter(|line| line.starts_with("error:"))
        .collect();
    assert_eq!(
        errors,
        [
            "error: cannot read dangling.txt: No such file or directory (os error 2)",
            "error: cannot read pipe.txt: it is a named pipe, not a file; give a deck list's content on standard input with `-`",
            "error: cannot read good.txt/deck.txt: Not a directory (os error 20)",
            "error: huge.txt is larger than 8 MiB; deck lists are a few kilobytes",
        ],
        "{}",
        out.stderr
    );
    // A directory walk does not pick up the pipe or follow the dangling link.
    let out = run(d, &["check", ".", "--output", "short"], b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(
        out.one_error(),
        "error: ./huge.txt is larger than 8 MiB; deck lists are a few kilobytes"
    );
    // One-file commands say the same.
    let out = run(d, &["stats", "pipe.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.one_error().contains("pipe.txt: it is a named pipe"),
        "{}",
        out.stderr
    );
}

/// A TCGdex checkout of one series and one set (`ONE`, sv99) holding `cards`: each its
/// number, English name and the rest of its record (category, stage, ...).
fn tcgdex_set(root: &Path, cards: &[(&str, &str, &str)]) {
    let set = root.join("data/SV/Set One");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(
        root.join("data/SV.ts"),
        "import { Serie } from '../interfaces'\nconst serie: Serie = { id: \"sv\", name: { en: \"Scarlet & Violet\" } }\nexport default serie\n",
    )
    .unwrap();
    std::fs::write(
        root.join("data/SV/Set One.ts"),
        "import { Set } from '../../interfaces'\nimport serie from '../SV'\nconst set: Set = { id: \"sv99\", name: { en: \"Set One\" }, serie: serie,\n\treleaseDate: \"2023-06-09\", abbreviations: { official: \"ONE\" } }\nexport default set\n",
    )
    .unwrap();
    for (number, name, rest) in cards {
        let text = format!(
            "import {{ Card }} from \"../../../interfaces\"\nimport Set from \"../Set One\"\nconst card: Card = {{ set: Set, name: {{ en: \"{name}\" }}, {rest} }}\nexport default card\n"
        );
        std::fs::write(set.join(format!("{number}.ts")), text).unwrap();
    }
}

/// A tiny TCGdex checkout: one series, one set, two cards.
fn tcgdex_checkout(root: &Path) {
    tcgdex_set(
        root,
        &[
            (
                "001",
                "Iono",
                "category: \"Trainer\",\n\ttrainerType: \"Supporter\", regulationMark: \"G\"",
            ),
            (
                "002",
                "Pikachu",
                "category: \"Pokemon\",\n\tstage: \"Basic\", types: [\"Lightning\"]",
            ),
        ],
    );
}

#[test]
fn card_databases_with_a_broken_record() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("deck.txt"),
        "4 Iono ONE 1\n4 Pikachu\n4 Iono PAL 185\n",
    )
    .unwrap();
    // The fake TCGdex checkout works: both cards known by set code or name.
    tcgdex_checkout(&d.join("tcgdex"));
    let args = [
        "check",
        "deck.txt",
        "--cards",
        "tcgdex",
        "--rebuild-index",
        "--output",
        "short",
        "--format",
        "unlimited",
    ];
    let out = run(d, &args, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    // The fake checkout has no PAL 185: that line is identified by its name, and said so.
    assert_eq!(
        out.rules(),
        set(&["deck-size", "copy-limit", "unknown-printing"]),
        "{}",
        out.stdout
    );
    // One record with a syntax error: a warning naming the file and the line, every run
    // (no cache hides it), and the rest of the checkout still works.
    std::fs::write(
        d.join("tcgdex/data/SV/Set One/003.ts"),
        "import Set from \"../Set One\"\nconst card: Card = { set: Set,\n\tname: { en: \"Broken\" ,\n\tcategory: \"Trainer\" [[[\nexport default card\n",
    )
    .unwrap();
    for rebuild in [false, true, false] {
        let mut args = vec![
            "check",
            "deck.txt",
            "--cards",
            "tcgdex",
            "--output",
            "short",
            "--format",
            "unlimited",
        ];
        if rebuild {
            args.push("--rebuild-index");
        }
        let out = run(d, &args, b"");
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert_eq!(
            out.rules(),
            set(&["deck-size", "copy-limit", "unknown-printing"])
        );
        assert!(
            out.stderr
                .contains("warning: 1 file of the card data could not be read"),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr.contains("tcgdex/data/SV/Set One/003.ts: line 4"),
            "{}",
            out.stderr
        );
    }
    // pokemon-tcg-data: `sets/en.json` and `cards/en/<set>.json`.
    let ptcg = d.join("ptcg");
    std::fs::create_dir_all(ptcg.join("sets")).unwrap();
    std::fs::create_dir_all(ptcg.join("cards/en")).unwrap();
    std::fs::write(
        ptcg.join("sets/en.json"),
        r#"[{"id": "sv2", "name": "Paldea Evolved", "series": "Scarlet & Violet", "ptcgoCode": "PAL", "releaseDate": "2023/06/09"}]"#,
    )
    .unwrap();
    let cards = ptcg.join("cards/en/sv2.json");
    std::fs::write(
        &cards,
        "[\n{\"id\": \"sv2-185\", \"name\": \"Iono\", \"supertype\": \"Trainer\", \"subtypes\": [\"Supporter\"], \"number\": \"185\"}\n]\n",
    )
    .unwrap();
    let args = [
        "check",
        "deck.txt",
        "--cards",
        "ptcg",
        "--rebuild-index",
        "--output",
        "short",
    ];
    let out = run(d, &args, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.at("unknown-card"), ["deck.txt:2:3"], "{}", out.stdout);
    // A record of the wrong type, then a truncated file: exit 2, file, line and column.
    std::fs::write(
        &cards,
        "[\n{\"id\": \"sv2-185\", \"name\": \"Iono\", \"supertype\": \"Trainer\", \"number\": \"185\"},\n{\"id\": \"sv2-186\", \"name\": \"X\", \"supertype\": \"Trainer\", \"number\": 186}\n]\n",
    )
    .unwrap();
    // The set's cards are left out, with a warning naming the file, line and column.
    let out = run(
        d,
        &["check", "deck.txt", "--cards", "ptcg", "--rebuild-index"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("ptcg/cards/en/sv2.json: invalid type: integer `186`"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("at line 3 column 68"), "{}", out.stderr);
    std::fs::write(&cards, "[\n{\"id\": \"sv2-185\", \"name\": \"Iono\",\n").unwrap();
    let out = run(
        d,
        &["check", "deck.txt", "--cards", "ptcg", "--rebuild-index"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("ptcg/cards/en/sv2.json: EOF while parsing"),
        "{}",
        out.stderr
    );
    // A removed card file: the set is named.
    std::fs::remove_file(&cards).unwrap();
    let out = run(d, &["check", "deck.txt", "--cards", "ptcg"], b"");
    assert!(
        out.stderr.contains("set `sv2` has no card file"),
        "{}",
        out.stderr
    );
}

/// A damaged TCGdex checkout (issue 14 item 7): a card file that is a named pipe, a folder
/// where a card file should be, a set folder whose set file was removed, and an in-place
/// edit of a card file while the cache is warm. Each damaged file is named once, the rest
/// of the checkout is used, and nothing hangs.
#[cfg(unix)]
#[test]
fn a_damaged_card_checkout_names_the_files_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("deck.txt"), "4 Iono ONE 1\n4 Pikachu ONE 2\n").unwrap();
    tcgdex_checkout(&d.join("tcgdex"));
    let cache = d.join("cache");
    let args = [
        "check",
        "deck.txt",
        "--cards",
        "tcgdex",
        "--format",
        "unlimited",
    ];
    let (code, stderr) = run_watched(d, &args, &cache);
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    // An edit in place (same folder entries): seen while the cache is warm.
    let pikachu = d.join("tcgdex/data/SV/Set One/002.ts");
    let text = std::fs::read_to_string(&pikachu).unwrap();
    std::fs::write(&pikachu, text.replace("Pikachu", "Raichu")).unwrap();
    let out = run(
        d,
        &[
            "check", "deck.txt", "--cards", "tcgdex", "--output", "short",
        ],
        b"",
    );
    assert!(out.stdout.contains("card-mismatch"), "{}", out.stdout);
    std::fs::write(&pikachu, &text).unwrap();
    // Damage of three kinds.
    let set = d.join("tcgdex/data/SV/Set One");
    if !mkfifo(&set.join("003.ts")) {
        return;
    }
    std::fs::create_dir(set.join("004.ts")).unwrap();
    std::fs::create_dir_all(d.join("tcgdex/data/SV/Set Two")).unwrap();
    std::fs::copy(&pikachu, d.join("tcgdex/data/SV/Set Two/001.ts")).unwrap();
    for _ in 0..2 {
        let (code, stderr) = run_watched(d, &args, &cache);
        assert_eq!(code, 1, "{stderr}");
        assert!(
            stderr.contains("warning: 3 files of the card data could not be read"),
            "{stderr}"
        );
        for (file, why) in [
            ("Set One/003.ts", "a named pipe"),
            ("Set One/004.ts", "a directory"),
            ("Set Two", "a set folder without its set file (Set Two.ts)"),
        ] {
            assert!(
                stderr
                    .lines()
                    .any(|line| line.contains(file) && line.contains(why)),
                "{file}: {stderr}"
            );
        }
    }
}

/// A cache file with a flipped bit is rebuilt, and said (issue 14 item 7); a cache made
/// outdated by a change to the checkout is rebuilt without a word.
#[test]
fn a_damaged_card_cache_is_rebuilt_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("deck.txt"), "4 Iono ONE 1\n4 Pikachu ONE 2\n").unwrap();
    tcgdex_checkout(&d.join("tcgdex"));
    let cache = d.join("cache");
    let run_check = || {
        let output = crate::common::deckbox_command()
            .args([
                "check", "deck.txt", "--cards", "tcgdex", "--output", "short",
            ])
            .current_dir(d)
            .env("DECKBOX_CACHE_DIR", &cache)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stdout, stderr)
    };
    let first = run_check();
    assert_eq!(first.0, Some(1), "{}", first.2);
    let files: Vec<_> = std::fs::read_dir(&cache).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    let file = files[0].path();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let damaged = run_check();
    assert_eq!((damaged.0, &damaged.1), (first.0, &first.1));
    assert!(
        damaged.2.contains("card-index cache") && damaged.2.contains("was damaged; rebuilt it"),
        "{}",
        damaged.2
    );
    assert!(!run_check().2.contains("damaged"));
    std::fs::copy(
        d.join("tcgdex/data/SV/Set One/002.ts"),
        d.join("tcgdex/data/SV/Set One/009.ts"),
    )
    .unwrap();
    let outdated = run_check();
    assert!(!outdated.2.contains("cache"), "{}", outdated.2);
}

#[test]
fn format_and_config_files_with_bad_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    std::fs::write(
        d.join("typo.toml"),
        "id = \"x\"\nname = \"X\"\n\n[construction]\ndeck_size = 40\ncopy_limt = 2\n",
    )
    .unwrap();
    std::fs::write(
        d.join("type.toml"),
        "id = \"x\"\nname = \"X\"\n[construction]\ndeck_size = \"forty\"\n",
    )
    .unwrap();
    for (file, key, at) in [
        ("typo.toml", "unknown field `copy_limt`", "typo.toml:6:1"),
        (
            "type.toml",
            "invalid type: string \"forty\"",
            "type.toml:4:13",
        ),
    ] {
        let path = format!("./{file}");
        for command in ["check", "stats"] {
            let out = run(d, &[command, "deck.txt", "--format", &path], b"");
            assert_eq!(out.code, 2, "{command} {file}: {}", out.stdout);
            assert!(out.stderr.contains(key), "{}", out.stderr);
            assert!(out.stderr.contains(at), "{}", out.stderr);
        }
    }
    for (toml, key, at) in [
        (
            "format = \"standard\"\nformta = \"glc\"\n",
            "unknown field `formta`",
            "deckbox.toml:2:1",
        ),
        (
            "format = 3\n",
            "invalid type: integer `3`",
            "deckbox.toml:1:10",
        ),
        (
            "[files]\ninclude = \"*.txt\"\n",
            "invalid type: string \"*.txt\"",
            "deckbox.toml:2:11",
        ),
    ] {
        std::fs::write(d.join("deckbox.toml"), toml).unwrap();
        for command in ["check", "stats"] {
            let out = run(d, &[command, "deck.txt"], b"");
            assert_eq!(out.code, 2, "{command} {toml:?}: {}", out.stdout);
            assert!(out.stderr.contains(key), "{}", out.stderr);
            assert!(out.stderr.contains(at), "{}", out.stderr);
        }
    }
}

#[test]
fn stats_on_hostile_decks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("empty.txt"), "").unwrap();
    std::fs::write(d.join("garbage.txt"), garbage(4096)).unwrap();
    let out = run(d, &["stats", "empty.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.one_error().contains("the deck has 0 cards"),
        "{}",
        out.stderr
    );
    let out = run(d, &["stats", "garbage.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.len() < 64 * 1024);
    for output in ["text", "json", "html"] {
        let out = run(d, &["stats", "-", "--output", output], b"4 Io\x00no\n");
        assert_eq!(out.code, 2, "{output}");
    }
}

/// Copies `examples/<name>` to `to`.
fn copy_example(name: &str, to: &Path) {
    std::fs::copy(common::repo().join("examples").join(name), to).unwrap();
}

/// A write error on standard output is a failure (exit 2, said on stderr): `deckbox fmt
/// deck > /dev/full` must not exit 0 with nothing written. A closed pipe stays quiet.
#[test]
fn a_full_standard_output_is_exit_two_and_a_closed_pipe_is_quiet() {
    let deck = common::repo().join("examples/dragapult.txt");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        common::needs(false, "a_full_standard_output", "/dev/full");
        return;
    };
    drop(full);
    let deck = deck.display().to_string();
    let examples = common::repo().join("examples").display().to_string();
    // `check` streams its report: the first failed write stops it, said once.
    for args in [
        &["fmt", deck.as_str()][..],
        &[
            "check",
            "--no-config",
            "--output",
            "human",
            examples.as_str(),
        ][..],
        &[
            "check",
            "--no-config",
            "--output",
            "json",
            examples.as_str(),
        ][..],
        &[
            "check",
            "--no-config",
            "--output",
            "sarif",
            examples.as_str(),
        ][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = crate::common::deckbox_command()
            .args(args)
            .env(
                "DECKBOX_CACHE_DIR",
                std::env::temp_dir().join("deckbox-hostile-cache"),
            )
            .stdout(std::process::Stdio::from(full))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.matches("cannot write to standard output").count(),
            1,
            "{args:?}: {stderr}"
        );
    }
    let mut child = crate::common::deckbox_command()
        .args(["fmt", &deck])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty(), "{:?}", output.stderr);
}

/// `DECKBOX_FORMAT` holding a byte that is not UTF-8 is refused (exit 2), not silently
/// replaced by the default; `DECKBOX_CARDS` is a path, used as the system gives it.
#[cfg(unix)]
#[test]
fn environment_that_is_not_utf8_is_refused_or_used_as_a_path() {
    use std::os::unix::ffi::OsStrExt;
    let deck = common::repo().join("examples/dragapult.txt");
    let run = |name: &str, value: &[u8]| {
        crate::common::deckbox_command()
            .args(["check", &deck.display().to_string()])
            .env_remove("DECKBOX_FORMAT")
            .env_remove("DECKBOX_CARDS")
            .env(name, std::ffi::OsStr::from_bytes(value))
            .env(
                "DECKBOX_CACHE_DIR",
                std::env::temp_dir().join("deckbox-hostile-cache"),
            )
            .output()
            .unwrap()
    };
    let output = run("DECKBOX_FORMAT", b"stand\xffard");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("DECKBOX_FORMAT is not valid UTF-8"),
        "{stderr}"
    );
    let output = run("DECKBOX_CARDS", b"/no/such/cards\xff");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/no/such/cards"), "{stderr}");
}

/// Strings from files a cloned repository controls never reach the terminal raw: a format
/// file's name and description (`formats show`, `check`'s summary), a TOML parse error's
/// quoted line, and a file name with a line break in `--output short` (issue 14 item 3).
#[test]
fn escape_sequences_from_files_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let esc = '\u{1b}';
    std::fs::write(
        dir.path().join("evil.toml"),
        "id = \"evil\\u001b[2J\"\nname = \"Evil\\u001b[31m\"\ndescription = \"bell\\u0007\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("broken.toml"),
        format!("id = \"broken\"\nname = {esc}[2J\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("a\nb.txt"), "4 Dreepy TWM 128\n").unwrap();
    let run = |args: &[&str]| common::run_deckbox(dir.path(), args, b"");
    for args in [
        &["formats", "show", "evil.toml"][..],
        &["check", "a\nb.txt", "--format", "evil.toml"][..],
        &[
            "check",
            "a\nb.txt",
            "--format",
            "evil.toml",
            "--output",
            "short",
        ][..],
        &["check", "a\nb.txt", "--format", "broken.toml"][..],
    ] {
        let (_, out) = run(args);
        assert!(
            !out.contains(esc) && !out.contains('\u{7}'),
            "{args:?}: {out:?}"
        );
    }
    let (_, out) = run(&["formats", "show", "evil.toml"]);
    assert!(out.contains("Evil\\u{1B}[31m (evil\\u{1B}[2J)"), "{out}");
    let (_, out) = run(&[
        "check", "a\nb.txt", "--format", "standard", "--output", "short",
    ]);
    assert!(out.contains("a\\nb.txt:"), "{out}");
    assert!(!out.contains("a\nb.txt"), "{out}");
}

/// `fmt --write` never writes mojibake back: a file that is not UTF-8 (one stray byte, a
/// Windows-1252 or UTF-16 file) is refused, byte for byte unchanged (issue 14 item 0).
#[test]
fn fmt_write_refuses_files_that_are_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, Vec<u8>); 2] = [
        (
            "stray.txt",
            b"Trainer: 8\n4 Pok\xe9 Pad\n4 Iono PAL 185\n".to_vec(),
        ),
        (
            "utf16.txt",
            std::iter::once(0xFEFF_u16)
                .chain("Trainer: 4\n4 Iono PAL 185\n".encode_utf16())
                .flat_map(u16::to_le_bytes)
                .collect(),
        ),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
        let (code, out) = common::run_deckbox(dir.path(), &["fmt", "--write", name], b"");
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("is not UTF-8"), "{out}");
        assert_eq!(&std::fs::read(dir.path().join(name)).unwrap(), bytes);
    }
}

/// Format-file mistakes are named where they are: `extends` of a missing file points at the
/// `extends` line of the file that holds it, and `hand_size = 0` at its value (issue 14
/// item 10).
#[test]
fn format_file_mistakes_point_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("child.toml"),
        "id = \"child\"\nname = \"Child\"\nextends = \"missing.toml\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("hand.toml"),
        "id = \"hand\"\nname = \"Hand\"\n[setup]\nhand_size = 0\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Dreepy TWM 128\n").unwrap();
    let (code, out) = common::run_deckbox(
        dir.path(),
        &["check", "deck.txt", "--format", "child.toml"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("child.toml:3:1"), "{out}");
    assert!(out.contains("missing.toml, which cannot be read"), "{out}");
    let (code, out) = common::run_deckbox(
        dir.path(),
        &["stats", "deck.txt", "--format", "hand.toml"],
        b"",
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("hand.toml:4:13"), "{out}");
    assert!(out.contains("must be at least 1"), "{out}");
}

/// Runs deckbox in `dir` and fails instead of hanging: killed after 30 seconds.
#[cfg(unix)]
fn run_watched(dir: &Path, args: &[&str], cache: &Path) -> (i32, String) {
    let mut child = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("DECKBOX_CACHE_DIR", cache)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            return (status.code().unwrap_or(-1), err);
        }
        if started.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            panic!("deckbox {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Makes a named pipe at `path`; `false` (with a note) where `mkfifo` is missing.
#[cfg(unix)]
fn mkfifo(path: &Path) -> bool {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|status| status.success());
    if !made {
        common::needs(false, "named-pipe cases", "mkfifo");
    }
    made
}

/// Files that never end or never open are refused, never waited on or read without bound
/// (issue 14 items 1, 2, 7): a named pipe or a link to `/dev/zero` as `--format`, as the
/// file an `extends` names, and as the card-index cache, and an over-size format file.
#[cfg(unix)]
#[test]
fn pipes_and_endless_files_are_refused_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    std::fs::write(dir.path().join("deck.txt"), "4 Dreepy TWM 128\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.toml")).unwrap();
    std::fs::write(
        dir.path().join("child.toml"),
        "id = \"child\"\nname = \"Child\"\nextends = \"pipe.toml\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("huge.toml"), "#".repeat(9 << 20)).unwrap();
    let mut cases = vec![
        ("zero.toml", "a device, not a file"),
        ("huge.toml", "larger than 1 MiB"),
    ];
    if mkfifo(&dir.path().join("pipe.toml")) {
        cases.push(("pipe.toml", "a named pipe, not a file"));
        cases.push(("child.toml", "a named pipe, not a file"));
    }
    for (format, message) in cases {
        let (code, err) = run_watched(
            dir.path(),
            &["check", "deck.txt", "--format", format],
            &cache,
        );
        assert_eq!(code, 2, "{format}: {err}");
        assert!(err.contains(message), "{format}: {err}");
    }
    // The cache of a card-data checkout replaced by a pipe, then by a link to /dev/zero:
    // each run rebuilds it from the checkout instead of waiting or reading without end.
    let Some(data) = common::shared_data("cache as a pipe") else {
        return;
    };
    let cards = data.join("pokemontcg").display().to_string();
    let args = [
        "check",
        "deck.txt",
        "--format",
        "unlimited",
        "--cards",
        &cards,
    ];
    let (code, err) = run_watched(dir.path(), &args, &cache);
    assert!(code == 0 || code == 1, "{err}");
    let file = std::fs::read_dir(&cache)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    for replace in ["pipe", "zero"] {
        std::fs::remove_file(&file).unwrap();
        if replace == "pipe" {
            if !mkfifo(&file) {
                continue;
            }
        } else {
            std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
        }
        let (code, err) = run_watched(dir.path(), &args, &cache);
        assert!(code == 0 || code == 1, "{replace}: {err}");
        assert!(
            std::fs::metadata(&file).unwrap().is_file(),
            "{replace}: rebuilt"
        );
    }
}

/// Rewrites keep what the user did not ask to change (issue 14 item 0): a link stays a link
/// and its target gets the new list; a read-only file and a file with several names are
/// refused (exit 2, the file untouched, `--force` named) and written with `--force`, keeping
/// the mode; the owner, group and extended attributes are kept.
#[cfg(unix)]
#[test]
fn rewrites_keep_links_modes_owners_and_attributes() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let messy = "Pokémon: 1\n4 Dreepy TWM 128\nTrainer: 1\n4 Ultra Ball SVI 196\n";
    let canonical_start = "Pokémon: 4\n";

    // A symbolic link: the target is rewritten, the link stays.
    std::fs::create_dir(dir.path().join("lists")).unwrap();
    std::fs::write(dir.path().join("lists/real.txt"), messy).unwrap();
    std::os::unix::fs::symlink("lists/real.txt", dir.path().join("link.txt")).unwrap();
    let done = run(dir.path(), &["fmt", "--write", "link.txt"], b"");
    assert_eq!(done.code, 0, "{}", done.stderr);
    let link = std::fs::symlink_metadata(dir.path().join("link.txt")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    let real = std::fs::read_to_string(dir.path().join("lists/real.txt")).unwrap();
    assert!(real.starts_with(canonical_start), "{real}");

    // Read-only: refused, then forced; the mode stays 0444.
    let path = dir.path().join("locked.txt");
    std::fs::write(&path, messy).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    for args in [
        &["fmt", "--write", "locked.txt"][..],
        &["add", "locked.txt", "Iono PAL 185"][..],
    ] {
        let refused = run(dir.path(), args, b"");
        assert_eq!(refused.code, 2, "{args:?}: {}", refused.stderr);
        assert!(
            refused.one_error().contains("read-only"),
            "{}",
            refused.stderr
        );
        assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), messy);
    }
    let forced = run(
        dir.path(),
        &["fmt", "--write", "--force", "locked.txt"],
        b"",
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with(canonical_start)
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444);

    // Two names for one file: refused, then forced.
    let first = dir.path().join("first.txt");
    std::fs::write(&first, messy).unwrap();
    std::fs::hard_link(&first, dir.path().join("second.txt")).unwrap();
    let refused = run(dir.path(), &["add", "first.txt", "Iono PAL 185"], b"");
    assert_eq!(refused.code, 2);
    assert!(
        refused.one_error().contains("hard links"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), messy);
    let forced = run(
        dir.path(),
        &["add", "--force", "first.txt", "Iono PAL 185"],
        b"",
    );
    assert_ne!(forced.code, 2, "{}", forced.stderr);
    assert!(std::fs::read_to_string(&first).unwrap().contains("Iono"));

    // Owner, group and an extended attribute survive a rewrite.
    let owned = dir.path().join("owned.txt");
    std::fs::write(&owned, messy).unwrap();
    let chowned = std::os::unix::fs::chown(&owned, Some(4321), Some(4321)).is_ok();
    let tagged = xattr::set(&owned, "user.deckbox.test", b"kept").is_ok();
    let done = run(dir.path(), &["fmt", "--write", "owned.txt"], b"");
    assert_eq!(done.code, 0, "{}", done.stderr);
    let metadata = std::fs::metadata(&owned).unwrap();
    if chowned {
        assert_eq!((metadata.uid(), metadata.gid()), (4321, 4321));
    } else {
        common::needs(
            false,
            "fmt keeps the owner",
            "the right to give a file away (chown)",
        );
    }
    if tagged {
        let value = xattr::get(&owned, "user.deckbox.test").unwrap();
        assert_eq!(value.as_deref(), Some(&b"kept"[..]));
    } else {
        common::needs(
            false,
            "fmt keeps extended attributes",
            "user extended attributes",
        );
    }

    // `convert --output` onto an existing file (read-only or not) is refused.
    let refused = run(
        dir.path(),
        &[
            "convert",
            "first.txt",
            "--to",
            "limitless",
            "-o",
            "locked.txt",
        ],
        b"",
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused.one_error().contains("already exists"),
        "{}",
        refused.stderr
    );
}

/// Two edits of one deck at the same moment both land (issue 14 item 0): each `add` locks
/// the file before reading it, so the second applies its card to the first's result.
#[test]
fn simultaneous_adds_on_one_deck_both_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.txt");
    let cards = [
        "Iono PAL 185",
        "Arven SVI 166",
        "Nest Ball SVI 181",
        "Switch SVI 194",
    ];
    for trial in 0..5 {
        std::fs::write(&path, "Pokémon: 1\n1 Dreepy TWM 128\n").unwrap();
        let children: Vec<_> = cards
            .iter()
            .map(|card| {
                crate::common::deckbox_command()
                    .args(["add", "--no-config", "deck.txt", card])
                    .current_dir(dir.path())
                    .env("DECKBOX_CACHE_DIR", dir.path().join("cache"))
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for card in cards {
            let name = card.rsplitn(3, ' ').last().unwrap();
            assert!(text.contains(name), "trial {trial}: {name} lost:\n{text}");
        }
    }
}

/// `add` on a named pipe says it edits files (not "use `-`", which add refuses) and does
/// not wait for a writer (issue 14 item 10).
#[cfg(unix)]
#[test]
fn add_on_a_pipe_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    if !mkfifo(&dir.path().join("pipe.txt")) {
        return;
    }
    let cache = dir.path().join("cache");
    for args in [
        &["add", "pipe.txt", "Iono"][..],
        &["add", "--dry-run", "pipe.txt", "Iono"][..],
        &["remove", "pipe.txt", "Iono"][..],
    ] {
        let (code, stderr) = run_watched(dir.path(), args, &cache);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("named pipe"), "{stderr}");
        assert!(!stderr.contains("`-`"), "{stderr}");
    }
}

/// A UTF-8 file with a few damaged bytes stays UTF-8 (issue 14 item 5): only the damaged
/// lines are flagged, and the accented lines far from them read as written, with no false
/// `parse-error` or `card-mismatch`.
#[test]
fn a_few_damaged_bytes_flag_their_lines_only() {
    let dir = tempfile::tempdir().unwrap();
    let clean = std::fs::read(common::repo().join("examples/gardevoir-fr.txt")).unwrap();
    let text = String::from_utf8(clean).unwrap();
    assert!(text.contains("2 Aurore PFL 87") && text.contains("4 Détermination de Lilie"));
    let mut damaged = text
        .replace("2 Aurore PFL 87", "2 Aur\u{0}ore PFL 87")
        .into_bytes();
    let nul = damaged.iter().position(|&byte| byte == 0).unwrap();
    damaged[nul] = 0xFF;
    std::fs::write(dir.path().join("damaged.txt"), &damaged).unwrap();
    let out = run(
        dir.path(),
        &["check", "damaged.txt", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(
        out.rules(),
        set(&["card-mismatch", "encoding"]),
        "{}",
        out.stdout
    );
    assert_eq!(out.at("encoding"), ["damaged.txt:13:6"], "{}", out.stdout);
    assert_eq!(
        out.at("card-mismatch"),
        ["damaged.txt:13:1"],
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("Ã"), "no mojibake: {}", out.stdout);
    // `fmt --write` still refuses it: writing back would replace the damaged bytes.
    let refused = run(dir.path(), &["fmt", "--write", "damaged.txt"], b"");
    assert_eq!(refused.code, 2);
    assert_eq!(
        std::fs::read(dir.path().join("damaged.txt")).unwrap(),
        damaged
    );
}

/// Peak memory (KiB) of `deckbox check --output json` on `dir`, from GNU time; `None`
/// (with a note) where it is missing.
fn peak_kib(dir: &Path) -> Option<u64> {
    let output = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M", env!("CARGO_BIN_EXE_deckbox")])
        .args(["check", "--no-config", "--output", "json", "."])
        .current_dir(dir)
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr.lines().last()?.trim().parse().ok()
}

/// Memory stays flat in the number of files checked (issue 14 item 6): each deck's part of
/// the report is written as soon as it is checked, and the deck dropped. Ten times the decks
/// (4,000 instead of 400) cost less than 30 MB more; keeping every checked deck, as before,
/// cost about 120 MB more (docs/performance.md has the figures).
#[cfg(unix)]
#[test]
fn memory_stays_flat_in_the_number_of_decks() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    let examples = ["dragapult.txt", "broken.txt", "gardevoir-fr.txt"];
    for (dir, decks) in [(&small, 400), (&large, 4000)] {
        for index in 0..decks {
            let folder = dir.path().join(format!("d{}", index % 50));
            std::fs::create_dir_all(&folder).unwrap();
            copy_example(
                examples[index % 3],
                &folder.join(format!("deck{index}.txt")),
            );
        }
    }
    let (Some(few), Some(many)) = (peak_kib(small.path()), peak_kib(large.path())) else {
        common::needs(false, "repository memory", "/usr/bin/time");
        return;
    };
    assert!(
        many < few + 30 * 1024,
        "400 decks: {few} KiB, 4,000 decks: {many} KiB"
    );
}

/// A deckbox.toml with 2,499 `[[overrides]]` entries (4,998 globs, within the bound of
/// 5,000) is read and applied in linear time (issue 14 item 9: 20,000 entries took 22 s a
/// check, quadratic in the entries); the last matching entry still wins. The watchdog only
/// guards against a hang; docs/performance.md has the timings.
#[test]
fn many_overrides_are_applied_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = String::from("format = \"standard\"\n");
    for index in 0..2_499 {
        config.push_str(&format!(
            "[[overrides]]\npaths = [\"glc{index}/**\", \"x{index}/*.txt\"]\nformat = \"glc\"\n"
        ));
    }
    config.push_str("[[overrides]]\npaths = [\"glc7/**\"]\nformat = \"unlimited\"\n");
    std::fs::write(dir.path().join("deckbox.toml"), config).unwrap();
    for folder in ["glc5", "glc7", "x2498", "plain"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        copy_example("dragapult.txt", &dir.path().join(folder).join("deck.txt"));
    }
    let cache = dir.path().join("cache");
    let (code, stderr) = run_watched(dir.path(), &["check", "."], &cache);
    assert_eq!(code, 1, "{stderr}");
    let out = run(dir.path(), &["check", ".", "--output", "json"], b"");
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let formats: BTreeSet<(String, String)> = report["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|deck| {
            let path = deck["path"].as_str().unwrap().replace('\\', "/");
            (path, deck["format"].as_str().unwrap().to_string())
        })
        .collect();
    let expected: BTreeSet<(String, String)> = [
        ("glc5/deck.txt", "glc"),
        ("glc7/deck.txt", "unlimited"),
        ("x2498/deck.txt", "glc"),
        ("plain/deck.txt", "standard"),
    ]
    .into_iter()
    .map(|(path, format)| (format!("./{path}"), format.to_string()))
    .collect();
    assert_eq!(formats, expected);
}

/// A setting from deckbox.toml or the environment that cannot be used says where it was set
/// (issue 14 item 10): a repository's config file is never a mystery.
#[test]
fn a_setting_that_fails_says_where_it_was_set() {
    let dir = tempfile::tempdir().unwrap();
    copy_example("dragapult.txt", &dir.path().join("deck.txt"));
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    for (config, args, needle) in [
        (
            "language = \"en\"\n\ncards = \"nope\"\n",
            &["check", "deck.txt"][..],
            "`cards` is set by deckbox.toml:3",
        ),
        (
            "\ncards = \"empty\"\n",
            &["check", "deck.txt"][..],
            "`cards` is set by deckbox.toml:2",
        ),
        (
            "format = \"gone.toml\"\n",
            &["check", "deck.txt"][..],
            "`format` is set by deckbox.toml:1",
        ),
        (
            "format = \"standard\"\n[[overrides]]\npaths = [\"*.txt\"]\nformat = \"gone.toml\"\n",
            &["check", "."][..],
            "`format` is set by deckbox.toml:4",
        ),
        (
            "format = \"standard\"\n[[overrides]]\npaths = [\"*.txt\"]\nformat = \"gone.toml\"\n",
            &["add", "--dry-run", "deck.txt", "Iono"][..],
            "`format` is set by deckbox.toml:4",
        ),
    ] {
        std::fs::write(dir.path().join("deckbox.toml"), config).unwrap();
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{config}: {}", out.stderr);
        assert!(out.stderr.contains(needle), "{config}: {}", out.stderr);
    }
    let (code, rendered) = {
        let output = crate::common::deckbox_command()
            .args(["check", "--no-config", "deck.txt"])
            .current_dir(dir.path())
            .env("DECKBOX_CARDS", dir.path().join("nope"))
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    assert_eq!(code, Some(2), "{rendered}");
    assert!(
        rendered.contains("`cards` is set by DECKBOX_CARDS"),
        "{rendered}"
    );
}

/// An ignore file that is a named pipe, a folder or a link to `/dev/zero` neither hangs the
/// walk nor is read without end (issue 14 item 10): a warning names it, the walk goes on
/// without its patterns, and readable ignore files still apply.
#[cfg(unix)]
#[test]
fn unreadable_ignore_files_warn_and_the_walk_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["pipe", "folder", "zero", "plain"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        copy_example("dragapult.txt", &dir.path().join(folder).join("deck.txt"));
        copy_example("broken.txt", &dir.path().join(folder).join("draft.txt"));
    }
    if !mkfifo(&dir.path().join("pipe/.gitignore")) {
        return;
    }
    std::fs::create_dir(dir.path().join("folder/.gitignore")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero/.ignore")).unwrap();
    std::fs::write(dir.path().join("plain/.gitignore"), "draft.txt\n").unwrap();
    let cache = dir.path().join("cache");
    let (code, stderr) = run_watched(dir.path(), &["check", "--no-config", "."], &cache);
    assert_eq!(code, 1, "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 3, "{stderr}");
    for (file, kind) in [
        ("folder/.gitignore", "a directory"),
        ("pipe/.gitignore", "a named pipe"),
        ("zero/.ignore", "a device"),
    ] {
        assert!(
            warnings
                .iter()
                .any(|line| line.contains(file) && line.contains(kind)),
            "{file}: {stderr}"
        );
    }
    let out = run(
        dir.path(),
        &["check", "--no-config", ".", "--output", "short"],
        b"",
    );
    let checked: BTreeSet<String> = out
        .stdout
        .lines()
        .filter_map(|line| line.split(':').next())
        .map(str::to_string)
        .collect();
    // The readable .gitignore still hides plain/draft.txt; the others hide nothing.
    assert!(!checked.contains("./plain/draft.txt"), "{}", out.stdout);
    for folder in ["pipe", "folder", "zero"] {
        assert!(
            checked.contains(&format!("./{folder}/draft.txt")),
            "{}",
            out.stdout
        );
    }
}
