//! Inputs that would cost time without bound: many unknown names, decks too large to
//! simulate, queries whose exact odds would run away (issue 26 items 4, 7 and 8). No
//! assertion here is timed (timings belong in docs/performance.md): each case asserts the
//! bounded behaviour instead, answered or refused with the documented message, exit 2, and
//! output and memory that do not grow with the input.

use super::{common, run, set};

use std::path::Path;

/// `count` card lines of distinct names no card has, as a paste of garbage would give.
fn unknown_names(count: usize) -> String {
    (0..count)
        .map(|index| format!("1 Xyzzy Quuxlebrand {index:06}\n"))
        .collect()
}

/// Peak memory (KiB) of `deckbox args` in `dir`, from GNU time; `None` (with a note) where
/// it is missing.
fn peak_kib_of(dir: &Path, args: &[&str]) -> Option<u64> {
    let output = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M", env!("CARGO_BIN_EXE_deckbox")])
        .args(args)
        .current_dir(dir)
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .env("DECKBOX_TODAY", common::TODAY)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak = stderr.lines().last()?.trim().parse().ok();
    if peak.is_none() {
        common::needs(false, "work_bounds", "/usr/bin/time");
    }
    peak
}

/// 10,000 distinct unknown names (the line bound) (issue 26 item 4: 200,000 took 260 s, grouping each name
/// with a scan of the names before it). Every line gets its finding, only the first 50
/// get suggestions, and the human report draws 100 findings whatever the deck holds.
/// docs/performance.md has the timings, before and after.
#[test]
fn many_distinct_unknown_names() {
    let lines = deckbox::deck::input::MAX_LINES;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("garbage.txt"), unknown_names(lines)).unwrap();
    let out = run(
        dir.path(),
        &["check", "garbage.txt", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), set(&["deck-size", "unknown-card"]));
    assert_eq!(out.at("unknown-card").len(), lines);
    let suggested = out.stdout.matches("did you mean").count();
    assert!(suggested <= 50, "{suggested} lines with suggestions");
    let human = run(dir.path(), &["check", "garbage.txt"], b"");
    assert_eq!(human.code, 1);
    assert!(
        human.stdout.len() < 64 * 1024,
        "human report of {} bytes",
        human.stdout.len()
    );
    // Statistics refuse it on its size, in one short message, before any odds.
    for args in [
        &["stats", "garbage.txt"][..],
        &["sample", "garbage.txt"],
        &["odds", "garbage.txt", "--draws", "1"],
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(
            out.one_error(),
            "error: cannot compute statistics: the deck has 10000 cards, too large: statistics, samples and odds take at most 1000",
            "{args:?}"
        );
        assert!(out.stderr.len() < 1024, "{args:?}: {}", out.stderr);
    }
    // Within the size, 20,000 lines that are no card lines: `stats` names the first 20.
    // After a card line (free text before the first card would be the list's title and
    // notes, never an issue).
    let mut noise = String::from("4 Dreepy TWM 128\n");
    noise.extend((1..lines).map(|i| format!("@@ noise {i}\n")));
    std::fs::write(dir.path().join("noise.txt"), noise).unwrap();
    let out = run(dir.path(), &["stats", "noise.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("  … and 9979 more\n"), "{}", out.stderr);
    assert!(out.stderr.len() < 4096, "{} bytes", out.stderr.len());
}

/// A deck of every card name of the embedded index, one copy each (4,532 kinds): `stats`
/// took 40 s to merge it into kinds (each line compared with every kind before it) and then
/// refused it. Now the size is refused first, and merging is linear anyway.
#[test]
fn a_deck_too_large_to_simulate_is_refused() {
    let index = std::fs::read_to_string(common::repo().join("cards/index.tsv")).unwrap();
    let header = index.lines().nth(1).unwrap();
    let en = header.split('\t').position(|field| field == "en").unwrap();
    let mut names: Vec<&str> = index
        .lines()
        .skip(2)
        .filter_map(|line| line.split('\t').nth(en))
        .filter(|name| !name.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.len() > 4000, "{} names", names.len());
    let deck: String = names.iter().map(|name| format!("1 {name}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("every.txt"), deck).unwrap();
    let expected = format!(
        "error: cannot compute statistics: the deck has {} cards, too large: statistics, samples and odds take at most 1000",
        names.len()
    );
    for args in [
        &["stats", "every.txt"][..],
        &["stats", "every.txt", "--simulate", "1000"],
        &["sample", "every.txt"],
        &["odds", "every.txt", "--draws", "1"],
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.one_error(), expected, "{args:?}");
    }
    // At the bound, the size is no reason to refuse: a 60-card deck padded to 1,000 cards.
    let padded = std::fs::read_to_string(common::repo().join("examples/dragapult.txt"))
        .unwrap()
        .replace("4 Psychic Energy MEE 5", "944 Psychic Energy MEE 5");
    std::fs::write(dir.path().join("padded.txt"), padded).unwrap();
    let out = run(dir.path(), &["sample", "padded.txt", "--seed", "3"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("hand:"), "{}", out.stdout);
    let over = std::fs::read_to_string(dir.path().join("padded.txt"))
        .unwrap()
        .replace("944 Psychic", "945 Psychic");
    std::fs::write(dir.path().join("over.txt"), over).unwrap();
    let out = run(dir.path(), &["sample", "over.txt"], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.one_error().contains("the deck has 1001 cards"),
        "{}",
        out.stderr
    );
}

/// Runs an exact-odds command that used to run away: it answers (stdout has `heading`) or is
/// refused with the documented message (docs/statistics.md, "Bounds"), exit 2; either way
/// the process stays within a few hundred MB.
fn answered_or_refused(dir: &Path, args: &[&str], heading: &str) {
    let out = run(dir, args, b"");
    if out.code == 0 {
        assert!(out.stdout.contains(heading), "{}", out.stdout);
    } else {
        assert_eq!(out.code, 2);
        let error = out.one_error();
        assert!(
            error.contains("the question has too many combinations to compute exactly")
                && error.ends_with("; ask about fewer distinct turns or fewer terms"),
            "{error}"
        );
    }
    if let Some(peak) = peak_kib_of(dir, args) {
        assert!(peak < 400 * 1024, "{args:?}: peak {peak} KiB");
    }
}

/// Runs an exact-odds command that used to run away and must now be answered (issue 33
/// item 1): exit 0, `heading` in stdout, and under 100 MB.
fn answered(dir: &Path, args: &[&str], heading: &str) {
    let out = run(dir, args, b"");
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    assert!(out.stdout.contains(heading), "{}", out.stdout);
    if let Some(peak) = peak_kib_of(dir, args) {
        assert!(peak < 100 * 1024, "{args:?}: peak {peak} KiB");
    }
}

/// Eight terms over eight distinct `by T` turns (issue 26 item 8: 43 s and 725 MB; refused
/// after that issue; one sweep over the draws since issue 33).
#[test]
fn eight_terms_over_eight_turns_are_answered() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let query = "Dreepy>=1 by T1 & Drakloak>=1 by T2 & Rare Candy>=1 by T3 & Dragapult ex>=1 by T4 \
                 & Ultra Ball>=2 by T5 & Buddy-Buddy Poffin>=1 by T6 & Psychic Energy>=2 by T7 \
                 & Boss's Orders>=1 by T8";
    answered(
        dir.path(),
        &["stats", "dragapult.txt", "--want", query],
        "Events",
    );
    let turns = ["stats", "dragapult.txt", "--turns", "30", "--want"];
    let eight = "Dreepy>=2 & Drakloak>=2 & Rare Candy>=2 & Dragapult ex>=2 & Ultra Ball>=2 \
                 & Buddy-Buddy Poffin>=2 & Psychic Energy>=2 & Poké Pad>=2";
    answered(dir.path(), &[&turns[..], &[eight]].concat(), "Queries");
}

/// `odds --draws 40` with eight terms of `>=2` (issue 26 item 8: 940 MB; 1.9 GB and 42 s
/// of CPU before it gave up, in a release build; refused after that issue; each term's count
/// forgotten after its last card since issue 33).
#[test]
fn odds_with_forty_draws_and_eight_terms_are_answered() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let query = "Dreepy>=2 & Drakloak>=2 & Rare Candy>=2 & Dragapult ex>=2 & Ultra Ball>=2 \
                 & Buddy-Buddy Poffin>=2 & Psychic Energy>=2 & Poké Pad>=2";
    let args = ["odds", "dragapult.txt", "--draws", "40", "--want", query];
    answered(dir.path(), &args, "Queries");
}

/// A question past every bound: eight overlapping name groups asking for 40 cards each by
/// eight distinct turns, in a 1,000-card deck. The sweep's states would be 41⁸ and more, and
/// the programme over segments passes its own bounds: refused with the documented message,
/// exit 2, within a few hundred MB.
#[test]
fn a_question_past_every_bound_is_refused() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let padded = std::fs::read_to_string(dir.path().join("dragapult.txt"))
        .unwrap()
        .replace("4 Psychic Energy MEE 5", "944 Psychic Energy MEE 5");
    std::fs::write(dir.path().join("padded.txt"), padded).unwrap();
    let names = [
        "Dreepy",
        "Drakloak",
        "Rare Candy",
        "Ultra Ball",
        "Poké Pad",
        "Buddy-Buddy Poffin",
        "Psychic Energy",
        "Boss's Orders",
        "Crispin",
    ];
    let query = (0..8)
        .map(|i| format!("{}|{}>=40 by T{}", names[i], names[i + 1], 3 * i + 2))
        .collect::<Vec<_>>()
        .join(" & ");
    answered_or_refused(
        dir.path(),
        &["stats", "padded.txt", "--want", &query],
        "Events",
    );
}

/// `--simulate` has an upper bound (issue 26 item 7): 10⁹ setups, about 40 s of one core;
/// past it, a usage error (exit 2) naming the bound, before any work.
#[test]
fn simulate_past_its_bound_is_a_usage_error() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    for setups in ["1000000001", "1099511627776", "18446744073709551615"] {
        let out = run(
            dir.path(),
            &["stats", "dragapult.txt", "--simulate", setups],
            b"",
        );
        assert_eq!(out.code, 2, "{setups}: {}", out.stderr);
        assert!(
            out.stderr.contains("1..=1000000000"),
            "{setups}: {}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
}

/// Eight terms of `>=n` joined by `join`, over cards of examples/dragapult.txt.
fn eight_terms(at_least: u32, join: &str) -> String {
    let names = [
        "Dreepy",
        "Drakloak",
        "Rare Candy",
        "Dragapult ex",
        "Ultra Ball",
        "Buddy-Buddy Poffin",
        "Psychic Energy",
        "Poké Pad",
    ];
    let terms: Vec<String> = names.iter().map(|n| format!("{n}>={at_least}")).collect();
    terms.join(join)
}

/// Questions whose exact odds cost more than 10× a plain `stats` or 50 MB (issue 51 item
/// 2: eight `>=4` terms with `--turns 16` were refused after 3.8 s and 111 MB; `>=3` over
/// 30 turns answered after 1.5 s) are refused before the sweep starts, with the message
/// naming the bound (docs/statistics.md, "Bounds"): exit 2, nothing on stdout, and the
/// process no larger than one that never began the sweep (the sweep itself held 50–110 MB).
#[test]
fn questions_past_the_exact_bounds_are_refused_before_work() {
    let dir = common::workspace(&["examples/dragapult.txt"]);
    let states = format!(
        "error: cannot compute statistics: the question has too many combinations to compute exactly (more than {} partial deals at once); ask about fewer distinct turns or fewer terms",
        deckbox::stats::exact::SWEEP_MAX_STATES
    );
    // The work allowed grows with the draws: 8 by turn 8 (going first, who draws on turn 1).
    let exact =
        deckbox::stats::exact::SWEEP_MAX_WORK + 8 * deckbox::stats::exact::SWEEP_WORK_PER_DRAW;
    let steps = format!(
        "error: cannot compute statistics: the question has too many combinations to compute exactly (more than {exact} steps); ask about fewer distinct turns or fewer terms"
    );
    let equal = "Dreepy==3 & Drakloak==3 & Rare Candy==3 & Dragapult ex==2 & Ultra Ball==3 \
                 & Buddy-Buddy Poffin==2 & Psychic Energy==3 & Poké Pad==2";
    let cases = [
        (eight_terms(4, " & "), "16", &states),
        (eight_terms(4, " & "), "30", &states),
        (eight_terms(3, " & "), "30", &states),
        (eight_terms(3, " & "), "6", &states),
        (eight_terms(4, " | "), "30", &states),
        (equal.to_string(), "8", &steps),
    ];
    for (query, turns, message) in cases {
        let args = ["stats", "dragapult.txt", "--turns", turns, "--want", &query];
        let out = run(dir.path(), &args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(&out.one_error(), message, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        if let Some(peak) = peak_kib_of(dir.path(), &args) {
            assert!(peak < 40 * 1024, "{args:?}: peak {peak} KiB");
        }
    }
    // Just inside the bounds: answered, under 50 MB.
    for (query, turns) in [(eight_terms(4, " & "), "2"), (eight_terms(2, " & "), "30")] {
        let args = ["stats", "dragapult.txt", "--turns", turns, "--want", &query];
        answered(dir.path(), &args, "Queries");
        if let Some(peak) = peak_kib_of(dir.path(), &args) {
            assert!(peak < 50 * 1024, "{args:?}: peak {peak} KiB");
        }
    }
}
