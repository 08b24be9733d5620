#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! CLI tests of `deckbox stats` and `deckbox sample`: run the real binary in a temporary
//! directory with the embedded card index and snapshot exit code, stdout and stderr. The
//! simulation agrees with the exact values, and a deck written in French or German gives the
//! same numbers as its English original.

use crate::common;

use common::workspace;
use std::path::Path;
use std::process::Stdio;

/// Runs `deckbox` in `dir` with `args` and returns the exit code, stdout and the whole run
/// rendered for a snapshot.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = crate::common::deckbox_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env("COLUMNS", "100")
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = output.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let rendered = format!(
        "exit: {code}\n--- stdout\n{stdout}--- stderr\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (code, stdout, rendered)
}

fn dragapult() -> tempfile::TempDir {
    workspace(&["examples/dragapult.txt", "examples/broken.txt"])
}

#[test]
fn stats_in_every_output() {
    let dir = dragapult();
    for output in ["text", "markdown", "json"] {
        let (code, _, out) = run_in(dir.path(), &["stats", "dragapult.txt", "--output", output]);
        assert_eq!(code, 0, "{out}");
        insta::assert_snapshot!(format!("stats-{output}"), out);
    }
}

/// The HTML page is one self-contained document (the renderer has its own tests).
#[test]
fn stats_html_page() {
    let dir = dragapult();
    let args = [
        "stats",
        "dragapult.txt",
        "--output",
        "html",
        "--want",
        "Dreepy>=2",
    ];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    assert!(stdout.starts_with("<!DOCTYPE html>"), "{out}");
    assert!(stdout.contains("dragapult.txt"));
    assert!(stdout.contains("Dreepy&gt;=2"));
    assert!(!stdout.contains("http://") && !stdout.contains("https://"));
}

#[test]
fn want_queries() {
    let dir = dragapult();
    let (code, _, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--going",
            "second",
            "--turns",
            "2",
            "--want",
            "Rare Candy>=1 & Dreepy>=1",
            "--want",
            "Buddy-Buddy Poffin|Ultra Ball>=1",
        ],
    );
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("want-valid", out);
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--want",
            "Dreepy>=1 & Rare Candi>=1",
        ],
    );
    assert_eq!(code, 2, "{out}");
    assert!(stdout.is_empty());
    insta::assert_snapshot!("want-unknown-name", out);
}

#[test]
fn unidentified_lines_and_broken_rules() {
    let dir = dragapult();
    let (code, _, out) = run_in(dir.path(), &["stats", "broken.txt"]);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("broken-deck", out);
    let dir = workspace(&[
        "tests/fixtures/decks/no-basic-pokemon.txt",
        "tests/fixtures/decks/copy-limit-languages.txt",
    ]);
    let (code, _, out) = run_in(dir.path(), &["stats", "no-basic-pokemon.txt"]);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("no-basic-pokemon", out);
    // A rule broken is a note on stderr, not a reason to withhold the numbers.
    let args = ["stats", "copy-limit-languages.txt", "--output", "json"];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    assert!(stdout.starts_with('{'), "{out}");
    let stderr = out.split("--- stderr\n").nth(1).unwrap();
    assert_eq!(
        stderr,
        "note: the deck breaks 1 rule; `deckbox check copy-limit-languages.txt` for details\n"
    );
}

/// Every simulated estimate is within 5 standard errors of its exact kept-hand value
/// (seeded, so this is deterministic): 10^7 setups in a release build, fewer in a debug one.
#[test]
fn simulation_agrees_with_exact_values() {
    let dir = dragapult();
    let setups: u64 = if cfg!(debug_assertions) {
        200_000
    } else {
        10_000_000
    };
    let setups_arg = setups.to_string();
    let args = [
        "stats",
        "dragapult.txt",
        "--simulate",
        &setups_arg,
        "--seed",
        "7",
        "--threads",
        "2",
        "--want",
        "Rare Candy>=1 & Dreepy>=1",
        "--output",
        "json",
    ];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let simulation = &json["simulation"];
    assert_eq!(simulation["setups"], setups);
    assert_eq!(simulation["seed"], 7);
    assert_eq!(simulation["threads"], 2);
    let estimates = simulation["estimates"].as_object().unwrap();
    // mulligan, expected mulligans, 28 cards × 8, 1 query × 6.
    assert_eq!(estimates.len(), 2 + 28 * 8 + 6);
    for (key, e) in estimates {
        let (estimate, se, exact) = (
            e["estimate"].as_f64().unwrap(),
            e["standard_error"].as_f64().unwrap(),
            e["exact"].as_f64().unwrap(),
        );
        let gap = (estimate - exact).abs();
        assert!(
            gap <= 5.0 * se + 1e-12,
            "{key}: {estimate} ± {se} vs {exact}"
        );
    }
    let card = &json["cards"][0];
    let key = format!("opening_hand/{}", card["name"].as_str().unwrap());
    assert_eq!(estimates[&key]["exact"], card["opening_hand"]);
    // Same seed and threads: the same numbers.
    let (_, again, _) = run_in(dir.path(), &args);
    assert_eq!(stdout, again);
}

/// The text report shows the simulation as one row per card (plus the mulligan row and one
/// row per query), each with its worst deviation, and one sentence on the agreement.
#[test]
fn simulation_text_is_one_row_per_card() {
    let dir = dragapult();
    let args = [
        "stats",
        "dragapult.txt",
        "--simulate",
        "200000",
        "--want",
        "Rare Candy>=1 & Dreepy>=1",
    ];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let simulation = stdout.split("Simulation: 200000 setups").nth(1).unwrap();
    let (cards, queries) = simulation.split_once("Simulated queries").unwrap();
    let rows = |text: &str| text.lines().filter(|l| l.ends_with(" SE")).count();
    assert_eq!(rows(cards), 1 + 28, "{cards}");
    assert_eq!(rows(queries), 1, "{queries}");
    assert!(
        cards.contains("232 estimates, all within"),
        "2 + 28 × 8 card and mulligan estimates: {cards}"
    );
    assert!(cards.lines().any(|l| l.trim_start().starts_with("Dreepy ")));
}

#[test]
fn sample_is_reproducible() {
    let dir = dragapult();
    let (code, first, out) = run_in(dir.path(), &["sample", "--seed", "1", "dragapult.txt"]);
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("sample-seed-1", out);
    let (_, again, _) = run_in(dir.path(), &["sample", "--seed", "1", "dragapult.txt"]);
    assert_eq!(first, again);
    let (_, other, _) = run_in(dir.path(), &["sample", "--seed", "2", "dragapult.txt"]);
    assert_ne!(first, other);
    let many = [
        "sample", "--seed", "3", "--count", "40", "--going", "second",
    ];
    let (code, text, out) = run_in(dir.path(), &[&many[..], &["dragapult.txt"]].concat());
    assert_eq!(code, 0, "{out}");
    assert_eq!(text.matches("Sample ").count(), 40);
    assert_eq!(text.matches("(you would not see these)").count(), 40);
    // Some of 40 setups take a mulligan (P ≈ 0.26 each), and each shows the revealed hand.
    assert!(text.contains("mulligan 1:"), "{text}");
}

/// Without `--seed`, each run deals a new hand and says its seed; that seed deals it again.
#[test]
fn sample_deals_anew_and_prints_the_seed_that_repeats_it() {
    let dir = dragapult();
    let seed_of = |text: &str| -> String {
        let start = text.find(", seed ").unwrap() + ", seed ".len();
        let end = start + text[start..].find(')').unwrap();
        text[start..end].to_string()
    };
    let (code, first, out) = run_in(dir.path(), &["sample", "dragapult.txt"]);
    assert_eq!(code, 0, "{out}");
    let (_, second, _) = run_in(dir.path(), &["sample", "dragapult.txt"]);
    // Two seeds of 10^9 are the same once in a billion runs.
    assert_ne!(seed_of(&first), seed_of(&second), "{first}{second}");
    let seed = seed_of(&first);
    let (_, again, _) = run_in(dir.path(), &["sample", "--seed", &seed, "dragapult.txt"]);
    assert_eq!(first, again);
}

/// The same deck in French, German and English: the same numbers (names are English).
#[test]
fn localized_decks_give_the_same_numbers() {
    let dir = workspace(&[
        "examples/gardevoir-fr.txt",
        "tests/fixtures/stats/gardevoir-en.txt",
        "tests/fixtures/stats/gardevoir-de.txt",
    ]);
    let stats = |file: &str, want: &str| {
        let args = ["stats", file, "--output", "json", "--want", want];
        let (code, stdout, out) = run_in(dir.path(), &args);
        assert_eq!(code, 0, "{out}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let mut queries = json["queries"].clone();
        for query in queries.as_array_mut().unwrap() {
            query["query"] = serde_json::Value::Null;
        }
        // Every figure and the English name agree; `local_name` is the list's own.
        let mut cards = json["cards"].clone();
        for card in cards.as_array_mut().unwrap() {
            card.as_object_mut().unwrap().remove("local_name");
        }
        (
            json["deck"].clone(),
            json["mulligan"].clone(),
            cards,
            queries,
        )
    };
    let english = stats("gardevoir-en.txt", "Rare Candy>=1 & Ralts>=1");
    let french = stats("gardevoir-fr.txt", "Super Bonbon>=1 & Tarsal>=1");
    let german = stats("gardevoir-de.txt", "Sonderbonbon>=1 & Trasla>=1");
    // A French deck asked in English, through the card database.
    let mixed = stats("gardevoir-fr.txt", "rare candy>=1 & Ralts>=1");
    // Each list is in its own language's canonical order: the cards are compared as a set.
    let as_set = |figures: &(
        serde_json::Value,
        serde_json::Value,
        serde_json::Value,
        serde_json::Value,
    )| {
        let mut figures = figures.clone();
        figures
            .2
            .as_array_mut()
            .unwrap()
            .sort_by_key(|card| card.to_string());
        figures
    };
    assert_eq!(as_set(&english), as_set(&french));
    assert_eq!(as_set(&english), as_set(&german));
    assert_eq!(as_set(&english), as_set(&mixed));
    let names: Vec<&str> = english.2.as_array().unwrap()[..3]
        .iter()
        .map(|card| card["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ralts", "Kirlia", "Mega Gardevoir ex"]);
}

/// A French list's statistics name its cards in French (the JSON keeps the English `name`
/// beside `local_name`).
#[test]
fn statistics_speak_the_lists_language() {
    let dir = tempfile::tempdir().unwrap();
    let deck = "Pokémon : 8\n4 Fantyrm TWM 128\n4 Dispareptil TWM 129\n\nDresseur : 4\n4 Ordres du Boss PAL 172\n\nÉnergie : 48\n48 Énergie Psy de base\n";
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    let (code, out, err) = run_in(dir.path(), &["stats", "deck.txt"]);
    assert_eq!(code, 0, "{err}");
    for name in ["Fantyrm", "Dispareptil", "Ordres du Boss"] {
        assert!(out.contains(name), "{name}: {out}");
    }
    assert!(!out.contains("Dreepy"), "{out}");
    let (_, json, _) = run_in(dir.path(), &["stats", "deck.txt", "--output", "json"]);
    assert!(json.contains("\"name\": \"Dreepy\""), "{json}");
    assert!(json.contains("\"local_name\": \"Fantyrm\""), "{json}");
}

/// `--threads` is bounded: a typo cannot ask the system for 100,000 threads (exit 2, the
/// bound named); the bound itself is accepted.
#[test]
fn threads_are_bounded() {
    let dir = dragapult();
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--simulate",
            "1000",
            "--threads",
            "100000",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("from 0 to 256"), "{err}");
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--simulate",
            "1000",
            "--threads",
            "256",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

/// The worked example of docs/statistics.md ("The query language"): the command shown
/// prints the Events lines shown, and the simulator agrees with each exact event.
#[test]
fn the_documented_events_are_printed() {
    let doc = std::fs::read_to_string(common::repo().join("docs/statistics.md")).unwrap();
    let command = doc
        .lines()
        .find(|line| line.starts_with("$ deckbox stats examples/dragapult.txt --turns 2 --want"))
        .expect("the worked example's command");
    let wants: Vec<&str> = command
        .split("--want \"")
        .skip(1)
        .map(|w| w.trim_end_matches(['"', ' ']))
        .collect();
    assert_eq!(wants.len(), 2, "{command}");
    let documented: Vec<&str> = doc
        .lines()
        .skip_while(|line| *line != "Events")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .collect();
    assert_eq!(documented.len(), 3, "{documented:?}");
    let dir = dragapult();
    let mut args = vec!["stats", "dragapult.txt", "--turns", "2"];
    for want in &wants {
        args.extend(["--want", want]);
    }
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let printed: Vec<&str> = stdout
        .lines()
        .skip_while(|line| *line != "Events")
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(printed, documented);

    args.extend(["--simulate", "400000", "--threads", "2", "--output", "json"]);
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for want in &wants {
        let estimate = &json["simulation"]["estimates"][format!("event/{want}")];
        let (got, exact, se) = (
            estimate["estimate"].as_f64().unwrap(),
            estimate["exact"].as_f64().unwrap(),
            estimate["standard_error"].as_f64().unwrap(),
        );
        assert!(
            (got - exact).abs() < 5.0 * se,
            "{want}: {got} vs {exact} ± {se}"
        );
    }
}

/// `--exactly` adds every card's distributions to each output: in JSON, each card's
/// P(exactly k) for k = 0..copies sums to 1 in every window, and the kept hand holds 1 to 7
/// Basic Pokémon; the text report has both tables.
#[test]
fn exactly_prints_every_distribution() {
    let dir = dragapult();
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--turns",
            "2",
            "--exactly",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let distributions = &json["distributions"];
    let sum = |values: &serde_json::Value| -> f64 {
        values
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .sum()
    };
    let basics = &distributions["basics_in_kept_hand"];
    assert_eq!(basics.as_array().unwrap().len(), 8, "0..=7 Basic Pokémon");
    assert!((sum(basics) - 1.0).abs() < 1e-12);
    let cards = distributions["cards"].as_array().unwrap();
    assert_eq!(cards.len(), json["cards"].as_array().unwrap().len());
    for (card, stats) in cards.iter().zip(json["cards"].as_array().unwrap()) {
        assert_eq!(card["name"], stats["name"]);
        let copies = stats["copies"].as_u64().unwrap() as usize;
        for window in ["opening_hand", "opening_hand_single_shuffle", "prizes"] {
            assert_eq!(card[window].as_array().unwrap().len(), copies + 1);
            assert!((sum(&card[window]) - 1.0).abs() < 1e-12, "{card}");
        }
        for turn in card["by_turn"].as_array().unwrap() {
            assert!((sum(turn) - 1.0).abs() < 1e-12, "{card}");
        }
        // P(at least one) is the card table's opening-hand value.
        let none = card["opening_hand"][0].as_f64().unwrap();
        let some = stats["opening_hand"].as_f64().unwrap();
        assert!((1.0 - none - some).abs() < 1e-12, "{card}");
    }
    let (code, stdout, _) = run_in(dir.path(), &["stats", "dragapult.txt", "--exactly"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("\nBasic Pokémon in the kept hand\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nExactly k copies\n"), "{stdout}");
    let (_, stdout, _) = run_in(dir.path(), &["stats", "dragapult.txt", "--output", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["distributions"].is_null());
}

/// The mid-game question of issue 19 in one command: a known 7-card hand, 6 face-down
/// prizes, "what are my chances to draw Rare Candy in the next 2 cards?". The answer is
/// 1 − C(U − r, 2) / C(U, 2) over the U = 53 unknown cards holding r = 2 Rare Candy (the
/// prizes do not change it); the prize figures follow C(U − r, P − r) / C(U, P).
#[test]
fn odds_answers_a_mid_game_question() {
    let dir = dragapult();
    let hand = "Dreepy, Drakloak, Rare Candy, Ultra Ball, Buddy-Buddy Poffin, 2 Psychic Energy";
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "odds",
            "dragapult.txt",
            "--seen",
            hand,
            "--draws",
            "2",
            "--want",
            "Rare Candy>=1",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["known"], 7);
    assert_eq!(json["unknown"], 53);
    assert_eq!(json["deck"], 47);
    // Issue 50: the report repeats which cards were seen (in deck order).
    let seen: Vec<(String, u64)> = json["seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| {
            (
                card["name"].as_str().unwrap().to_string(),
                card["copies"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert!(
        seen.contains(&("Psychic Energy".to_string(), 2)),
        "{seen:?}"
    );
    let (_, text, _) = run_in(
        dir.path(),
        &["odds", "dragapult.txt", "--seen", hand, "--draws", "2"],
    );
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|line| line.starts_with("Seen: Dreepy, Drakloak")
                && line.ends_with(", 2 Psychic Energy")),
        "{text}"
    );
    let choose = |n: u128, k: u128| (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1));
    let (num, den) = (choose(53, 2) - choose(51, 2), choose(53, 2));
    let g = (1..=num)
        .rev()
        .find(|g| num % g == 0 && den % g == 0)
        .unwrap();
    assert_eq!(
        json["queries"][0]["fraction"],
        format!("{}/{}", num / g, den / g)
    );
    let candy = json["per_card"]
        .as_array()
        .unwrap()
        .iter()
        .find(|card| card["name"] == "Rare Candy")
        .unwrap();
    assert_eq!(candy["unknown"], 2);
    let all_prized = choose(51, 4) as f64 / choose(53, 6) as f64;
    assert!((candy["prized_all"].as_f64().unwrap() - all_prized).abs() < 1e-15);
    assert!((candy["prized_expected"].as_f64().unwrap() - 2.0 * 6.0 / 53.0).abs() < 1e-15);

    // Iono: the hand goes back, the deck is 47 + 7 cards.
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "odds",
            "dragapult.txt",
            "--seen",
            hand,
            "--shuffle-back",
            hand,
            "--draws",
            "4",
            "--prizes",
            "4",
            "--output",
            "markdown",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        stdout.starts_with(
            "## Mid-game odds: 60 cards, 7 known, 4 face-down prizes, 7 shuffled back\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("The next 4 draws come from the 56 cards of the deck"),
        "{stdout}"
    );
}

/// Mistakes in `odds` are exit 2 with the item shown: a name not in the deck (with the
/// nearest one), more copies than the deck has, cards shuffled back that were not seen, a
/// turn in a query, more draws than cards.
#[test]
fn odds_mistakes_are_shown() {
    let dir = dragapult();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--seen", "Dreepy, Rare Candi", "--draws", "1"],
            "'Rare Candi' is not in this deck (did you mean 'Rare Candy'?)",
        ),
        (
            &["--seen", "5 Dreepy", "--draws", "1"],
            "--seen has 5 Dreepy, but the deck has 4",
        ),
        (
            &[
                "--seen",
                "Dreepy",
                "--shuffle-back",
                "2 Dreepy",
                "--draws",
                "1",
            ],
            "--shuffle-back returns 2 Dreepy, but --seen knows 1",
        ),
        (
            &["--draws", "1", "--want", "Dreepy>=1 by T2"],
            "a turn ('by T2') means nothing here",
        ),
        (&["--draws", "55"], "55 draws, but the deck holds 54 cards"),
    ];
    for (args, message) in cases {
        let mut all = vec!["odds", "dragapult.txt"];
        all.extend_from_slice(args);
        let (code, stdout, out) = run_in(dir.path(), &all);
        assert_eq!(code, 2, "{out}");
        assert!(stdout.is_empty());
        assert!(out.contains(message), "{message}: {out}");
    }
}

/// docs/statistics.md's `deckbox odds` example prints the Queries lines shown there.
#[test]
fn the_documented_odds_are_printed() {
    let doc = std::fs::read_to_string(common::repo().join("docs/statistics.md")).unwrap();
    let command = doc
        .lines()
        .find(|line| line.starts_with("$ deckbox odds examples/dragapult.txt"))
        .expect("the odds example");
    let quoted: Vec<&str> = command.split('"').skip(1).step_by(2).collect();
    assert_eq!(quoted.len(), 3, "{command}");
    let documented: Vec<&str> = doc
        .lines()
        .skip_while(|line| !line.starts_with("  Query ") || !line.contains("Next draws"))
        .take(3)
        .collect();
    let dir = dragapult();
    let args = [
        "odds",
        "dragapult.txt",
        "--seen",
        quoted[0],
        "--draws",
        "2",
        "--want",
        quoted[1],
        "--want",
        quoted[2],
    ];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let printed: Vec<&str> = stdout
        .lines()
        .skip_while(|line| !line.starts_with("  Query "))
        .take(3)
        .collect();
    assert_eq!(printed, documented);
    assert_eq!(printed.len(), 3);
}

/// Classes of cards in queries, and `--count-as` both ways: a kept hand always holds a
/// Basic Pokémon; a query a rule applies to comes twice, as written and counting the search
/// card, which is the same as naming it in the term; a query no rule applies to comes once.
#[test]
fn count_as_shows_both_ways() {
    let dir = dragapult();
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--want",
            "Basic Pokémon>=1",
            "--want",
            "Dreepy>=1",
            "--want",
            "Dreepy|Buddy-Buddy Poffin>=1",
            "--want",
            "Supporters>=1 by T2",
            "--count-as",
            "Buddy-Buddy Poffin=Basic Pokémon",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let queries = json["queries"].as_array().unwrap();
    let names: Vec<&str> = queries
        .iter()
        .map(|q| q["query"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Basic Pokémon>=1",
            "Basic Pokémon>=1 [counting Buddy-Buddy Poffin as Basic Pokémon]",
            "Dreepy>=1",
            "Dreepy>=1 [counting Buddy-Buddy Poffin as Basic Pokémon]",
            "Dreepy|Buddy-Buddy Poffin>=1",
        ]
    );
    assert_eq!(queries[0]["opening_hand"], 1.0);
    assert!(queries[0]["opening_hand_single_shuffle"].as_f64().unwrap() < 1.0);
    assert!(queries[3]["opening_hand"].as_f64() > queries[2]["opening_hand"].as_f64());
    for key in ["opening_hand", "prizes", "by_turn"] {
        assert_eq!(queries[3][key], queries[4][key], "{key}");
    }
    // Lillie's Determination, Boss's Orders, Crispin, Dawn, Hilda: 10 Supporters.
    let events = json["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "no rule applies to Supporters");

    let (code, _, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--count-as",
            "Nest Ball=Basic Pokémon",
        ],
    );
    assert_eq!(code, 2);
    assert!(out.contains("'Nest Ball' is not in this deck"), "{out}");
    let (code, _, out) = run_in(
        dir.path(),
        &[
            "odds",
            "dragapult.txt",
            "--draws",
            "2",
            "--want",
            "Pokémon>=1",
            "--count-as",
            "Ultra Ball=Pokemons",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Pokémon>=1 [counting Ultra Ball as Pokemons]"),
        "{out}"
    );
}

/// `--compare` and `--vary` agree with each other and with plain reports: comparing the
/// list with one Psychic Energy turned into a fourth Rare Candy gives the same figures as
/// `--vary "Rare Candy=3..4:Psychic Energy"` at 4, and as `stats` of the edited list; a
/// query naming a card the other deck does not play counts 0 there.
#[test]
fn compare_and_vary_agree() {
    let dir = workspace(&["examples/dragapult.txt", "examples/gardevoir-fr.txt"]);
    let edited = std::fs::read_to_string(dir.path().join("dragapult.txt"))
        .unwrap()
        .replace("3 Rare Candy MEG 125", "4 Rare Candy MEG 125")
        .replace("4 Psychic Energy MEE 5", "3 Psychic Energy MEE 5");
    std::fs::write(dir.path().join("four-candy.txt"), edited).unwrap();
    let want = "Dreepy>=1 & Rare Candy>=1 by T2";
    let json_of = |args: &[&str]| -> serde_json::Value {
        let (code, stdout, out) = run_in(dir.path(), args);
        assert_eq!(code, 0, "{out}");
        serde_json::from_str(&stdout).unwrap()
    };
    let compared = json_of(&[
        "stats",
        "dragapult.txt",
        "--compare",
        "four-candy.txt",
        "--want",
        want,
        "--want",
        "Rare Candy>=1",
        "--output",
        "json",
    ]);
    let varied = json_of(&[
        "stats",
        "dragapult.txt",
        "--vary",
        "Rare Candy=3..4:Psychic Energy",
        "--want",
        want,
        "--want",
        "Rare Candy>=1",
        "--output",
        "json",
    ]);
    let plain = json_of(&[
        "stats",
        "four-candy.txt",
        "--want",
        want,
        "--output",
        "json",
    ]);
    let event_b = compared["events"][0]["probability"]["b"].as_f64().unwrap();
    assert_eq!(event_b, plain["events"][0]["probability"].as_f64().unwrap());
    assert_eq!(
        event_b,
        varied["steps"][1]["events"][0]["probability"]
            .as_f64()
            .unwrap()
    );
    let event_a = compared["events"][0]["probability"]["a"].as_f64().unwrap();
    assert_eq!(
        event_a,
        varied["steps"][0]["events"][0]["probability"]
            .as_f64()
            .unwrap()
    );
    let candy = compared["per_card"]
        .as_array()
        .unwrap()
        .iter()
        .find(|card| card["name"] == "Rare Candy")
        .unwrap();
    assert_eq!(candy["copies"], serde_json::json!([3, 4]));
    assert!(candy["opening_hand"]["difference"].as_f64().unwrap() > 0.05);
    let dreepy = &compared["per_card"][0];
    assert_eq!(dreepy["opening_hand"]["difference"], 0.0);
    assert_eq!(varied["steps"][1]["copies"], 4);
    assert_eq!(varied["steps"][1]["against_copies"], 3);

    // Gardevoir plays no Dreepy: 0 there, and its cards come after A's.
    let other = json_of(&[
        "stats",
        "dragapult.txt",
        "--compare",
        "gardevoir-fr.txt",
        "--want",
        "Dreepy>=1",
        "--output",
        "json",
    ]);
    assert_eq!(other["queries"][0]["opening_hand"]["b"], 0.0);
    assert!(
        other["per_card"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["copies"] == serde_json::json!([0, 4]))
    );

    let (code, _, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--vary",
            "Rare Candy=0..9:Fire Energy",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        out.contains("--vary: 7 Rare Candy would need 1 more Fire Energy than the deck's 3"),
        "{out}"
    );
}

/// A Pokémon LV.X shares its name with the Pokémon it levels up ("Gengar, Gengar LV. 43,
/// Gengar LV. 44, and Gengar LV.X all have the same name", Sun & Moon rulebook, deck
/// building), but it is not a Basic Pokémon: only the 1 Mewtwo can be the opening hand's
/// Basic ("If either player has no Basic Pokémon in their opening hand, that player must take
/// a mulligan", same rulebook, "Full Details of Taking a Mulligan"). So P(mulligan) =
/// C(59,7)/C(60,7) = 53/60, and `stats`, `odds` and `sample` agree with `check`.
#[test]
fn a_level_x_is_never_dealt_as_a_basic_pokemon() {
    let dir = workspace(&["tests/fixtures/stats/mewtwo-lvx.txt"]);
    assert_eq!(reduce(choose(59, 7), choose(60, 7)), "53/60");
    let args = [
        "stats",
        "mewtwo-lvx.txt",
        "--format",
        "unlimited",
        "--output",
        "json",
        "--want",
        "Mewtwo LV.X>=1",
        "--want",
        "Basic Pokémon>=2",
    ];
    let (code, stdout, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mulligan = json["mulligan"]["probability"].as_f64().unwrap();
    assert!((mulligan - 53.0 / 60.0).abs() < 1e-12, "{mulligan}");
    // A kept hand holds the one Mewtwo and 6 of the other 59 cards.
    let level_x = choose(59, 6) - choose(56, 6);
    let queries = &json["queries"];
    let seen = queries[0]["opening_hand"].as_f64().unwrap();
    assert!(
        (seen - level_x as f64 / choose(59, 6) as f64).abs() < 1e-12,
        "{queries}"
    );
    assert_eq!(queries[1]["opening_hand"].as_f64(), Some(0.0), "{queries}");
    let names: Vec<(&str, bool)> = json["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| {
            (
                card["name"].as_str().unwrap(),
                card["basic"].as_bool().unwrap(),
            )
        })
        .take(2)
        .collect();
    assert_eq!(names, [("Mewtwo", true), ("Mewtwo LV.X", false)]);

    // `sample` never puts a Mewtwo LV.X in play at setup.
    let args = ["sample", "--seed", "5", "--count", "60", "mewtwo-lvx.txt"];
    let (code, text, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let in_play: Vec<&str> = text.lines().filter(|l| l.contains("in play:")).collect();
    assert_eq!(in_play.len(), 60);
    assert!(in_play.iter().all(|l| !l.contains("LV.X")), "{text}");

    // `odds` counts the same kinds: the LV.X is a card of its own, not a Basic.
    let args = [
        "odds",
        "mewtwo-lvx.txt",
        "--format",
        "unlimited",
        "--want",
        "Basic Pokémon>=1",
        "--seen",
        "Mewtwo",
        "--draws",
        "1",
    ];
    let (code, text, out) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let query = text
        .lines()
        .find(|l| l.contains("Basic Pokémon>=1"))
        .unwrap();
    assert!(
        query.ends_with(" 0/1"),
        "no Basic Pokémon left to draw: {text}"
    );
    assert!(text.contains("Mewtwo LV.X                3"), "{text}");
}

/// C(n, k) in u128.
fn choose(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
}

fn reduce(num: u128, den: u128) -> String {
    let (mut a, mut b) = (num, den);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    format!("{}/{}", num / a, den / a)
}

/// The worked examples of docs/statistics.md against closed forms written here from the
/// rules alone (hypergeometric counts, no dynamic programme): the event "a Dreepy in the
/// kept hand and a Rare Candy seen by turn 2" (4 Dreepy and 6 other Basic Pokémon, 3 Rare
/// Candy, 60 cards, going first with the turn-1 draw: 2 draws by turn 2), and Dreepy's
/// exactly-k distribution in the kept hand.
#[test]
fn worked_examples_match_closed_forms() {
    let dir = dragapult();
    let (code, stdout, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "--turns",
            "2",
            "--exactly",
            "--want",
            "Dreepy>=1 & Rare Candy>=1 by T2",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        json["setup"]["first_player_draws"], true,
        "2 draws by turn 2"
    );
    // Hands: d Dreepy (d >= 1, so the hand is kept), c Rare Candy, o other Basics, r rest.
    let (mut hits, draws) = (0u128, choose(53, 2));
    for d in 1..=4u128 {
        for c in 0..=3u128 {
            for o in 0..=6u128 {
                let Some(r) = 7u128.checked_sub(d + c + o) else {
                    continue;
                };
                let hands = choose(4, d) * choose(3, c) * choose(6, o) * choose(47, r);
                // With no Candy in hand, the 2 draws must hold one of the 3 left in 53 cards.
                let good_draws = if c >= 1 { draws } else { draws - choose(50, 2) };
                hits += hands * good_draws;
            }
        }
    }
    let kept = choose(60, 7) - choose(50, 7);
    assert_eq!(json["events"][0]["fraction"], reduce(hits, kept * draws));

    let dreepy = &json["distributions"]["cards"][0];
    assert_eq!(dreepy["name"], "Dreepy");
    for k in 0..=4u128 {
        let ways = if k == 0 {
            choose(56, 7) - choose(50, 7)
        } else {
            choose(4, k) * choose(56, 7 - k)
        };
        let want = ways as f64 / kept as f64;
        let got = dreepy["opening_hand"][k as usize].as_f64().unwrap();
        assert!((got - want).abs() < 1e-15, "Dreepy ×{k}: {got} vs {want}");
    }
}

/// `odds`, `--compare` and `--vary` as HTML pages: self-contained, their tables there, and
/// a query's `<` escaped (a query is typed by the user).
#[test]
fn odds_compare_and_vary_make_pages() {
    let dir = workspace(&["examples/dragapult.txt", "examples/ptcg-live.txt"]);
    let pages = [
        vec![
            "odds",
            "dragapult.txt",
            "--seen",
            "Dreepy",
            "--draws",
            "2",
            "--want",
            "Rare Candy<2",
        ],
        vec![
            "stats",
            "dragapult.txt",
            "--compare",
            "ptcg-live.txt",
            "--want",
            "Rare Candy<2",
        ],
        vec![
            "stats",
            "dragapult.txt",
            "--vary",
            "Rare Candy=1..3:Psychic Energy",
            "--want",
            "Rare Candy<2",
        ],
    ];
    for mut args in pages {
        args.extend(["--output", "html"]);
        let (code, stdout, out) = run_in(dir.path(), &args);
        assert_eq!(code, 0, "{out}");
        assert!(stdout.starts_with("<!DOCTYPE html>") && stdout.ends_with("</html>\n"));
        assert!(stdout.contains("Rare Candy&lt;2"), "{stdout}");
        assert!(!stdout.contains("Rare Candy<2"));
        assert!(
            !stdout.contains("<script src") && !stdout.contains("<link"),
            "self-contained"
        );
        assert!(stdout.contains("<table>"));
    }
}

/// `--shuffle-back K` is the first K cards of `--seen`: the same figures as naming them.
#[test]
fn shuffle_back_takes_a_count_or_the_cards() {
    let dir = dragapult();
    let hand = "Dreepy, Drakloak, Rare Candy, Ultra Ball, Buddy-Buddy Poffin, 2 Psychic Energy";
    let seen = format!("{hand}, Boss's Orders, Jamming Tower");
    let run = |back: &str| {
        let (code, stdout, out) = run_in(
            dir.path(),
            &[
                "odds",
                "dragapult.txt",
                "--seen",
                &seen,
                "--shuffle-back",
                back,
                "--draws",
                "5",
                "--prizes",
                "3",
                "--want",
                "Rare Candy>=1 | Dreepy>=2",
                "--output",
                "json",
            ],
        );
        assert_eq!(code, 0, "{out}");
        stdout
    };
    let by_count = run("7");
    assert_eq!(by_count, run(hand));
    let json: serde_json::Value = serde_json::from_str(&by_count).unwrap();
    assert_eq!(json["shuffled_back"], 7);
    assert_eq!(json["deck"], 60 - 9 - 3 + 7);
    let (code, _, out) = run_in(
        dir.path(),
        &[
            "odds",
            "dragapult.txt",
            "--seen",
            hand,
            "--shuffle-back",
            "8",
            "--draws",
            "1",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        out.contains("--shuffle-back 8: --seen lists only 7 cards"),
        "{out}"
    );
}

/// The statistics state the first-turn Supporter rule of the rulebook of the date judged:
/// the Scarlet & Violet rulebook's "La personne qui commence la partie ne peut pas jouer de
/// carte Supporter pendant son premier tour" today, the Sun & Moon rulebook's "Play Trainer
/// cards (as many as you want, but only one Supporter card and one Stadium card per turn)"
/// (no first-turn exception) in 2019, and none before Sun & Moon. The odds themselves count
/// draws, which the rule does not change.
#[test]
fn stats_state_the_first_turn_supporter_rule_of_the_date_judged() {
    let dir = dragapult();
    let json_at = |date: &str| {
        let (code, stdout, out) = run_in(
            dir.path(),
            &[
                "stats",
                "dragapult.txt",
                "-f",
                "unlimited",
                "--as-of",
                date,
                "--exactly",
                "--output",
                "json",
            ],
        );
        assert_eq!(code, 0, "{date}: {out}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    let today = json_at("2026-11-25");
    let sun_moon = json_at("2019-06-01");
    let older = json_at("2016-06-01");
    assert_eq!(today["setup"]["first_turn_supporter"], false);
    assert_eq!(sun_moon["setup"]["first_turn_supporter"], true);
    assert!(
        older["setup"].get("first_turn_supporter").is_none(),
        "{}",
        older["setup"]
    );
    assert_eq!(
        today["mulligan"], sun_moon["mulligan"],
        "the rule changes no odds"
    );
    let (code, _, out) = run_in(
        dir.path(),
        &[
            "stats",
            "dragapult.txt",
            "-f",
            "unlimited",
            "--as-of",
            "2019-06-01",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("the first player draws on turn 1 and may play a Supporter"),
        "{out}"
    );
}
