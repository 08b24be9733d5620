#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Formats through time, on real lists: every list of `tests/fixtures/history` (published
//! tournament lists from 2011 to 2024) is legal in its format at its event's date, illegal
//! the day before its newest set became tournament legal and, in Standard, from the next
//! rotation; bans and unbans take effect on their day. The dates are those of
//! formats/play-pokemon.toml, standard.toml and expanded.toml, each citing its source.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Deserialize;

use crate::common::{self, repo, workspace};

#[derive(Deserialize)]
struct Manifest {
    deck: Vec<Deck>,
}

#[derive(Deserialize)]
struct Deck {
    file: String,
    event: String,
    event_date: String,
    format: String,
    not_yet: String,
    rotated: Option<String>,
    why: String,
    #[serde(default)]
    bans: Vec<Ban>,
}

#[derive(Deserialize)]
struct Ban {
    date: String,
    card: String,
}

fn manifest() -> Vec<Deck> {
    let text = std::fs::read_to_string(repo().join("tests/fixtures/history/manifest.toml"))
        .expect("manifest");
    let manifest: Manifest = toml::from_str(&text).expect("manifest schema");
    assert!(manifest.deck.len() >= 18);
    manifest.deck
}

/// What `deckbox check` said of one deck: exit code, the rules of its `--output short`
/// findings, and everything printed.
struct Verdict {
    code: i32,
    rules: BTreeSet<String>,
    out: String,
}

impl Verdict {
    /// Whether a `banned` finding names `card`.
    fn banned(&self, card: &str) -> bool {
        self.out
            .lines()
            .any(|line| line.contains("error banned:") && line.contains(card))
    }
}

fn check_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Verdict {
    let (code, out) = common::run_deckbox(dir, args, stdin);
    let rules = out
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.split_once(": error ")?;
            rest.split_once(':').map(|(rule, _)| rule.to_string())
        })
        .collect();
    Verdict { code, rules, out }
}

fn judge(deck: &Deck, date: &str) -> Verdict {
    let path = repo().join("tests/fixtures/history").join(&deck.file);
    let path = path.to_string_lossy().into_owned();
    check_in(
        repo().as_path(),
        &[
            "check",
            &path,
            "--format",
            &deck.format,
            "--as-of",
            date,
            "--output",
            "short",
        ],
        b"",
    )
}

#[test]
fn every_list_is_legal_in_its_own_season() {
    for deck in manifest() {
        let verdict = judge(&deck, &deck.event_date);
        assert_eq!(
            verdict.code, 0,
            "{} ({}):\n{}",
            deck.file, deck.event, verdict.out
        );
    }
}

#[test]
fn every_list_is_illegal_before_its_newest_set_was_legal() {
    for deck in manifest() {
        let verdict = judge(&deck, &deck.not_yet);
        assert_eq!(
            verdict.code, 1,
            "{}: {}\n{}",
            deck.file, deck.why, verdict.out
        );
        assert!(
            verdict.rules.contains("not-legal"),
            "{}: {}",
            deck.file,
            verdict.out
        );
    }
}

#[test]
fn standard_lists_rotate_out() {
    let mut rotated = 0;
    for deck in manifest() {
        let Some(date) = &deck.rotated else {
            continue;
        };
        let verdict = judge(&deck, date);
        assert_eq!(
            verdict.code, 1,
            "{}: {}\n{}",
            deck.file, deck.why, verdict.out
        );
        assert!(verdict.rules.contains("not-legal"), "{}", verdict.out);
        // A name without a set code is read as a printing of the list's time, so what
        // leaves is said as a rotation, never as a card "released after" the date.
        assert!(!verdict.out.contains("it was released"), "{}", verdict.out);
        rotated += 1;
    }
    assert!(rotated >= 14);
}

/// Expanded never rotated: a 2015 list is still in its pool today, broken only by bans.
#[test]
fn expanded_lists_are_broken_only_by_bans_since() {
    for deck in manifest().iter().filter(|deck| deck.format == "expanded") {
        let verdict = judge(deck, "2026-11-25");
        let expected: BTreeSet<String> = ["banned".to_string()].into();
        assert_eq!(verdict.rules, expected, "{}: {}", deck.file, verdict.out);
    }
}

/// Lysandre's Trump Card (2015-06-15), Archeops (2017-08-18), Shaymin-EX (2020-11-27): legal
/// the day before each ban, banned from its day.
#[test]
fn bans_take_effect_on_their_day() {
    let mut checked = 0;
    for deck in manifest() {
        for ban in &deck.bans {
            let date: jiff::civil::Date = ban.date.parse().unwrap();
            let eve = date.yesterday().unwrap().to_string();
            assert!(
                !judge(&deck, &eve).banned(&ban.card),
                "{} on {eve}",
                ban.card
            );
            let on = judge(&deck, &ban.date);
            assert!(
                on.banned(&ban.card),
                "{} on {}: {}",
                ban.card,
                ban.date,
                on.out
            );
            checked += 1;
        }
    }
    assert!(checked >= 5);
}

/// A list typed for the test: the banned cards of Expanded's history, one each.
const EXPANDED_BANS: &str = "Pokémon: 2\n1 Shiftry NXD 72\n1 Seedot BLW 2\n\nTrainer: 3\n1 Lusamine CIN 96\n1 Wally ROS 94\n1 Ultra Ball PLF 122\n";

/// Shiftry (2015-09-01 to 2017-08-18), Wally (2018-08-17 to the Shining Fates
/// announcement) and Lusamine (2019-02-15 to the same): bans that were lifted.
#[test]
fn lifted_bans_end_on_their_day() {
    let dir = workspace(&[]);
    let at = |date: &str| {
        check_in(
            dir.path(),
            &[
                "check", "-", "--format", "expanded", "--as-of", date, "--output", "short",
            ],
            EXPANDED_BANS.as_bytes(),
        )
    };
    assert!(!at("2015-08-31").banned("Shiftry"));
    assert!(at("2015-09-01").banned("Shiftry"));
    assert!(at("2017-08-17").banned("Shiftry"));
    assert!(!at("2017-08-18").banned("Shiftry"));
    assert!(!at("2018-08-16").banned("Wally"));
    assert!(at("2018-08-17").banned("Wally"));
    assert!(!at("2019-02-14").banned("Lusamine"));
    let both = at("2019-02-15");
    assert!(
        both.banned("Lusamine") && both.banned("Wally"),
        "{}",
        both.out
    );
    let lifted = at("2021-03-05");
    assert!(
        !lifted.banned("Lusamine") && !lifted.banned("Wally"),
        "{}",
        lifted.out
    );
}

/// Bellelba & Brycen-Man and Mismagius: banned in Standard from 2020-08-28 (pokemon.com,
/// Darkness Ablaze banned list) until their sets rotated on 2021-09-10; Mismagius stays
/// banned in Expanded.
#[test]
fn standard_bans_end_when_their_cards_rotate() {
    let dir = workspace(&[]);
    let deck = "Pokémon: 2\n1 Mismagius UNB 78\n1 Misdreavus UNB 77\n\nTrainer: 1\n1 Bellelba & Brycen-Man CEC 186\n";
    let at = |format: &str, date: &str| {
        check_in(
            dir.path(),
            &[
                "check", "-", "--format", format, "--as-of", date, "--output", "short",
            ],
            deck.as_bytes(),
        )
    };
    let before = at("standard", "2020-08-27");
    assert!(!before.rules.contains("banned"), "{}", before.out);
    assert!(!before.rules.contains("not-legal"), "{}", before.out);
    let banned = at("standard", "2020-08-28");
    assert!(
        banned.banned("Mismagius") && banned.banned("Bellelba & Brycen-Man"),
        "{}",
        banned.out
    );
    let rotated = at("standard", "2021-09-10");
    assert!(!rotated.rules.contains("banned"), "{}", rotated.out);
    assert!(rotated.rules.contains("not-legal"), "{}", rotated.out);
    assert!(at("expanded", "2021-09-10").banned("Mismagius"));
}

/// Gym Leader Challenge began on 2021-07-14: its site's "One Year of Gym Leader Challenge"
/// dates the first anniversary to July 14, 2022 (formats/glc.toml). `--format all` says the
/// format did not exist the day before (and in 2006), judges the deck in it from that day,
/// and `--format glc` before it is an error, as for Standard before its first season.
#[test]
fn glc_did_not_exist_before_its_first_day() {
    let dir = workspace(&[]);
    let deck = b"4 Pikachu BLW 115\n";
    for (date, exists) in [
        ("2006-07-01", false),
        ("2021-07-13", false),
        ("2021-07-14", true),
        ("2026-11-25", true),
    ] {
        let all = check_in(
            dir.path(),
            &[
                "check", "-", "--format", "all", "--as-of", date, "--output", "json",
            ],
            deck,
        );
        assert_eq!(all.code, 1, "{}", all.out);
        let reports: serde_json::Value = serde_json::from_str(common::stdout_of(&all.out)).unwrap();
        let formats = reports[0]["formats"].as_array().unwrap();
        let glc = formats.iter().find(|f| f["format"] == "glc").unwrap();
        assert_eq!(glc["absent"].is_string(), !exists, "{date}: {glc}");
        // Judged from its first day: one Pikachu too many for a singleton format.
        assert_eq!(
            glc["broken"].to_string().contains("copy-limit"),
            exists,
            "{date}: {glc}"
        );
        let one = check_in(
            dir.path(),
            &["check", "-", "--format", "glc", "--as-of", date],
            deck,
        );
        assert_eq!(one.code, if exists { 1 } else { 2 }, "{}", one.out);
        assert_eq!(one.out.contains("did not exist"), !exists, "{}", one.out);
    }
    let text = check_in(
        dir.path(),
        &["check", "-", "--format", "all", "--as-of", "2021-07-13"],
        deck,
    );
    assert!(
        text.out.contains("glc        did not exist yet"),
        "{}",
        text.out
    );
}

#[test]
fn a_date_before_the_first_season_is_an_error() {
    let dir = workspace(&[]);
    for (format, date) in [("standard", "2010-08-15"), ("expanded", "2014-08-31")] {
        let verdict = check_in(
            dir.path(),
            &["check", "-", "--format", format, "--as-of", date],
            b"4 Pikachu\n",
        );
        assert_eq!(verdict.code, 2, "{}", verdict.out);
        assert!(verdict.out.contains("did not exist"), "{}", verdict.out);
    }
    let verdict = check_in(dir.path(), &["check", "-", "--as-of", "2012-13-01"], b"");
    assert_eq!(verdict.code, 2, "{}", verdict.out);
    assert!(verdict.out.contains("not a date"), "{}", verdict.out);
}

/// The Madison 2015 list, declaring its own format and date.
fn declared_madison(line: &str) -> String {
    let list = std::fs::read_to_string(repo().join(
        "tests/fixtures/history/2015-madison-regionals-masters-seismitoad-shaymin-expanded.txt",
    ))
    .unwrap();
    format!("{line}\n{list}")
}

#[test]
fn a_deck_declares_its_format_and_date() {
    let dir = workspace(&[]);
    let deck = declared_madison("# deckbox: format=expanded, as-of=2015-05-29");
    std::fs::write(dir.path().join("madison.txt"), &deck).unwrap();
    let own = check_in(dir.path(), &["check", "madison.txt"], b"");
    assert_eq!(own.code, 0, "{}", own.out);
    assert!(
        own.out
            .contains("(60 cards, format expanded as of 2015-05-29)"),
        "{}",
        own.out
    );
    // A flag wins over the deck: today, Lysandre's Trump Card and Shaymin-EX are banned.
    let flagged = check_in(
        dir.path(),
        &[
            "check",
            "madison.txt",
            "--as-of",
            "2026-11-25",
            "--output",
            "short",
        ],
        b"",
    );
    assert!(flagged.banned("Lysandre's Trump Card"), "{}", flagged.out);
    // Statistics and formatting read the declaration too.
    let (code, stats) = common::run_deckbox(dir.path(), &["stats", "madison.txt"], b"");
    assert_eq!(code, 0, "{stats}");
    assert!(!stats.contains("breaks"), "{stats}");
    // A declaration that cannot be read names its line.
    std::fs::write(
        dir.path().join("bad.txt"),
        declared_madison("// deckbox: format=modified"),
    )
    .unwrap();
    let bad = check_in(dir.path(), &["check", "bad.txt"], b"");
    assert_eq!(bad.code, 2, "{}", bad.out);
    assert!(
        bad.out
            .contains("bad.txt: line 1: unknown format `modified`"),
        "{}",
        bad.out
    );
}

#[test]
fn the_date_comes_from_the_config_file_and_per_path_overrides() {
    let dir = workspace(&[]);
    let history = repo().join("tests/fixtures/history");
    std::fs::create_dir_all(dir.path().join("2012")).unwrap();
    std::fs::create_dir_all(dir.path().join("2015")).unwrap();
    std::fs::copy(
        history.join("2012-worlds-masters-darkrai-terrakion.txt"),
        dir.path().join("2012/worlds.txt"),
    )
    .unwrap();
    std::fs::copy(
        history.join("2015-madison-regionals-masters-seismitoad-shaymin-expanded.txt"),
        dir.path().join("2015/madison.txt"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("deckbox.toml"),
        "format = \"standard\"\nas_of = \"2012-08-10\"\n\n[[overrides]]\npaths = [\"2015/**\"]\nformat = \"expanded\"\nas_of = \"2015-05-29\"\n",
    )
    .unwrap();
    let both = check_in(dir.path(), &["check", "."], b"");
    assert_eq!(both.code, 0, "{}", both.out);
    assert!(
        both.out.contains("format standard as of 2012-08-10"),
        "{}",
        both.out
    );
    assert!(
        both.out.contains("format expanded as of 2015-05-29"),
        "{}",
        both.out
    );
    // DECKBOX_AS_OF wins over the file for every deck.
    let (_, out) = {
        let output = common::deckbox_command()
            .args(["check", "."])
            .current_dir(dir.path())
            .env("DECKBOX_AS_OF", "2026-11-25")
            .env("DECKBOX_CACHE_DIR", dir.path().join(".cache"))
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    assert!(out.contains("format expanded as of 2026-11-25"), "{out}");
    // `deckbox config` says where the date came from.
    let config = check_in(dir.path(), &["config"], b"");
    assert!(
        config.out.contains("as of    = 2012-08-10"),
        "{}",
        config.out
    );
    assert!(
        config.out.contains("2015/** → expanded, as of 2015-05-29"),
        "{}",
        config.out
    );
}

/// Without `--as-of` or any other date, deckbox judges at today's date (the clock's, in
/// UTC), and says so.
#[test]
fn without_a_date_the_deck_is_judged_today() {
    let dir = workspace(&["examples/dragapult.txt"]);
    let before = jiff::Timestamp::now();
    let output = common::deckbox_command()
        .args(["check", "dragapult.txt"])
        .current_dir(dir.path())
        .env_remove("DECKBOX_TODAY")
        .env("DECKBOX_CACHE_DIR", dir.path().join(".cache"))
        .output()
        .unwrap();
    let after = jiff::Timestamp::now();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let day = |at: jiff::Timestamp| jiff::tz::Offset::UTC.to_datetime(at).date().to_string();
    assert!(
        stdout.contains(&format!("as of {})", day(before)))
            || stdout.contains(&format!("as of {})", day(after))),
        "{stdout}"
    );
}

/// A child format can drop an inherited pool criterion (`unset`), and its seasons add to
/// its parent's: an announced rotation shows in `formats show` and applies from its day.
#[test]
fn child_formats_unset_criteria_and_add_seasons() {
    let dir = workspace(&[]);
    std::fs::write(
        dir.path().join("classic.toml"),
        "id = \"classic\"\nname = \"Classic\"\nextends = \"expanded\"\n[pool]\nunset = [\"series\"]\nsets = [\"BS\"]\n",
    )
    .unwrap();
    let classic = |deck: &str| {
        check_in(
            dir.path(),
            &[
                "check",
                "-",
                "--format",
                "classic.toml",
                "--output",
                "short",
            ],
            deck.as_bytes(),
        )
    };
    assert!(!classic("4 Pikachu BS 58\n").rules.contains("not-legal"));
    assert!(classic("4 Pikachu BLW 115\n").rules.contains("not-legal"));
    std::fs::write(
        dir.path().join("preview.toml"),
        "id = \"preview\"\nname = \"Preview\"\nextends = \"standard\"\n[[seasons]]\nfrom = \"2027-04-09\"\nname = \"2027–28 (announced)\"\nsource = \"a test\"\n[seasons.pool]\nregulation_marks = [\"I\", \"J\", \"K\"]\n",
    )
    .unwrap();
    let shown = check_in(
        dir.path(),
        &["formats", "show", "preview.toml", "--as-of", "2026-11-25"],
        b"",
    );
    assert!(
        shown
            .out
            .contains("next rotation        2027–28 (announced) from 2027-04-09"),
        "{}",
        shown.out
    );
    let h_card = "4 Dreepy TWM 128\n";
    let at = |date: &str| {
        check_in(
            dir.path(),
            &[
                "check",
                "-",
                "--format",
                "preview.toml",
                "--as-of",
                date,
                "--output",
                "short",
            ],
            h_card.as_bytes(),
        )
    };
    assert!(!at("2027-04-08").rules.contains("not-legal"));
    assert!(at("2027-04-09").rules.contains("not-legal"));
}

/// `deckbox card --as-of`: legality on that day; formats that did not exist are left out.
#[test]
fn card_legality_at_a_date() {
    let dir = workspace(&[]);
    let (_, before) = common::run_deckbox(
        dir.path(),
        &["card", "PHF", "99", "--as-of", "2015-06-14"],
        b"",
    );
    assert!(before.contains("Legality as of 2015-06-14"), "{before}");
    assert!(before.contains("expanded   legal"), "{before}");
    let (_, after) = common::run_deckbox(
        dir.path(),
        &["card", "PHF", "99", "--as-of", "2015-06-15"],
        b"",
    );
    assert!(after.contains("banned"), "{after}");
    let (_, early) = common::run_deckbox(
        dir.path(),
        &["card", "BLW", "115", "--as-of", "2012-01-01"],
        b"",
    );
    assert!(early.contains("standard"), "{early}");
    assert!(!early.contains("expanded"), "{early}");
}

/// `--format all`: where a deck is legal on a date. Exit 0 when it is legal somewhere, 1
/// when nowhere.
#[test]
fn where_is_this_deck_legal() {
    let dir = workspace(&[]);
    let madison = repo().join(
        "tests/fixtures/history/2015-madison-regionals-masters-seismitoad-shaymin-expanded.txt",
    );
    let madison = madison.to_string_lossy().into_owned();
    let then = check_in(
        dir.path(),
        &[
            "check",
            &madison,
            "--format",
            "all",
            "--as-of",
            "2015-05-29",
            "--output",
            "short",
        ],
        b"",
    );
    assert_eq!(then.code, 0, "{}", then.out);
    assert!(then.out.contains(": legal in "), "{}", then.out);
    assert!(then.out.contains("expanded"), "{}", then.out);
    assert!(then.out.contains("(as of 2015-05-29)"), "{}", then.out);
    let today = check_in(
        dir.path(),
        &["check", &madison, "--format", "ALL", "--output", "json"],
        b"",
    );
    assert_eq!(today.code, 0, "{}", today.out);
    let json = common::stdout_of(&today.out);
    let reports: serde_json::Value = serde_json::from_str(json).unwrap();
    let formats = reports[0]["formats"].as_array().unwrap();
    let ids: Vec<&str> = formats
        .iter()
        .map(|f| f["format"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["standard", "expanded", "unlimited", "glc", "gameboy"]);
    assert_eq!(formats[1]["valid"], false);
    assert_eq!(formats[1]["broken"][0]["rule"], "banned");
    assert_eq!(formats[1]["broken"][0]["count"], 2);
    assert_eq!(formats[2]["valid"], true);
    // Expanded did not exist in 2012: said, and not counted as legal. Before Standard's
    // first season (2010-08-16) the run's default format, Standard, is no error either:
    // every format is judged at the date and Standard says it did not exist.
    for (date, deck, absent) in [
        (
            "2012-08-10",
            "4 Pikachu BLW 115\n",
            "expanded   did not exist yet",
        ),
        (
            "2006-07-01",
            "4 Pikachu BS 58\n",
            "standard   did not exist yet",
        ),
    ] {
        let early = check_in(
            dir.path(),
            &["check", "-", "--format", "all", "--as-of", date],
            deck.as_bytes(),
        );
        assert_eq!(early.code, 1, "{}", early.out);
        assert!(early.out.contains(absent), "{}", early.out);
        let nowhere = format!("-: legal in no format (as of {date})");
        assert!(early.out.contains(&nowhere), "{}", early.out);
    }
}

/// `deckbox card` gives the days each printing was legal in Standard and Expanded: Ultra
/// Ball from Dark Explorers (2012-05-09) until the 2019 rotation left no printing of it,
/// and again from Brilliant Stars' legal day (2022-03-11).
#[test]
fn a_card_shows_when_it_was_legal() {
    let dir = workspace(&[]);
    let (code, out) =
        common::run_deckbox(dir.path(), &["card", "DEX", "102", "--output", "json"], b"");
    assert_eq!(code, 0, "{out}");
    let json = common::stdout_of(&out);
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    let history = &report["cards"][0]["history"];
    assert_eq!(history[0]["format"], "standard");
    let periods = &history[0]["printings"][0]["periods"];
    assert_eq!(
        periods,
        &serde_json::json!([
            {"from": "2012-05-09", "until": "2019-08-14"},
            {"from": "2022-03-11", "until": null},
        ])
    );
    assert_eq!(history[1]["format"], "expanded");
    assert_eq!(
        history[1]["printings"][0]["periods"],
        serde_json::json!([{"from": "2014-09-01", "until": null}])
    );
    // Lysandre's Trump Card: from Phantom Forces' legal day to the eve of its ban.
    let (_, text) = common::run_deckbox(dir.path(), &["card", "PHF", "99"], b"");
    assert!(
        text.contains("expanded   PHF 99, PHF 118: 2014-11-21 – 2015-06-14"),
        "{text}"
    );
}
