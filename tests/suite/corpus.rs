//! The corpus of real published deck lists (`tests/corpus/`, see its README.md) as a
//! regression gate: deckbox reads every list at its date and in its format, and the figures
//! (card lines identified, dated verdicts right) are compared with the committed baseline
//! `tests/corpus/baseline.tsv`.
//!
//! The test fails when a list that was read whole, or judged right, in the baseline no longer
//! is, when the totals drop, or when the manifest and the baseline name different lists.
//! When lists improve it says so; `DECKBOX_CORPUS_BLESS=1 cargo test --test suite corpus::`
//! then rewrites the baseline. `-- --nocapture` prints the figures by source, era,
//! language, format and layout (the tables of docs/corpus.md).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(
    clippy::print_stderr,
    reason = "the figures are reported for the reader"
)]

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The findings that say a card line was not identified.
const MISSES: [&str; 3] = ["unknown-card", "card-mismatch", "parse-error"];

/// One list of the manifest.
pub(crate) struct Entry {
    pub(crate) path: String,
    source: String,
    pub(crate) date: String,
    pub(crate) format: String,
    pub(crate) language: String,
    verdict: Option<bool>,
    era: String,
    pub(crate) layout: String,
    /// Where the source itself is wrong (the manifest's `source_error`), if it is.
    source_error: String,
}

/// What deckbox made of one list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Outcome {
    identified: usize,
    lines: usize,
    /// Whether the verdict matched the source's, when the manifest gives one.
    right: Option<bool>,
}

impl Outcome {
    fn whole(self) -> bool {
        self.identified == self.lines
    }
}

fn corpus() -> PathBuf {
    common::repo().join("tests/corpus")
}

/// The lists of `manifest.tsv`, in its order.
pub(crate) fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(corpus().join("manifest.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (path, source, date, format) = (
        column("path"),
        column("source"),
        column("date"),
        column("format"),
    );
    let (language, verdict) = (column("language"), column("verdict"));
    let (era, layout) = (column("era"), column("layout"));
    let source_error = column("source_error");
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "manifest.tsv: {line}");
            Entry {
                path: cells[path].to_string(),
                source: cells[source].to_string(),
                date: cells[date].to_string(),
                format: cells[format].to_string(),
                language: cells[language].to_string(),
                verdict: match cells[verdict] {
                    "valid" => Some(true),
                    "invalid" => Some(false),
                    "" => None,
                    other => panic!("manifest.tsv: verdict '{other}' in {line}"),
                },
                era: cells[era].to_string(),
                layout: cells[layout].to_string(),
                source_error: cells[source_error].to_string(),
            }
        })
        .collect()
}

/// The non-blank lines of a list deckbox could not read at all: each counts as a card line
/// not identified.
fn non_blank_lines(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count()
}

/// Runs `deckbox check --output json` once per (format, date) over the lists of that group.
fn outcomes(entries: &[Entry]) -> BTreeMap<String, Outcome> {
    let root = corpus();
    let mut groups: BTreeMap<(&str, &str), Vec<&Entry>> = BTreeMap::new();
    for entry in entries {
        groups
            .entry((&entry.format, &entry.date))
            .or_default()
            .push(entry);
    }
    let mut found = BTreeMap::new();
    for ((format, date), group) in groups {
        let output = common::deckbox_command()
            .current_dir(&root)
            .args(["check", "--no-config", "--output", "json"])
            .args(["--format", format, "--as-of", date])
            .args(group.iter().map(|entry| &entry.path))
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
                panic!(
                    "{format} {date}: {}",
                    String::from_utf8_lossy(&output.stderr)
                )
            });
        let mut decks = BTreeMap::new();
        for deck in report["decks"].as_array().unwrap() {
            decks.insert(deck["path"].as_str().unwrap().to_string(), deck);
        }
        for entry in group {
            let outcome = match decks.get(&entry.path) {
                Some(deck) => {
                    // One finding per card line (or JSON card entry) not identified; every
                    // line read as a card is in `cards`, identified or not, except those
                    // with a `parse-error`.
                    let count = |rule: &str| {
                        (deck["diagnostics"].as_array().unwrap().iter())
                            .filter(|found| found["rule"] == rule)
                            .count()
                    };
                    let missed: usize = MISSES.iter().map(|rule| count(rule)).sum();
                    let lines = deck["cards"].as_array().unwrap().len() + count("parse-error");
                    let valid = deck["valid"].as_bool().unwrap();
                    Outcome {
                        identified: lines.saturating_sub(missed),
                        lines,
                        right: entry.verdict.map(|expected| expected == valid),
                    }
                }
                None => Outcome {
                    identified: 0,
                    lines: non_blank_lines(&root.join(&entry.path)),
                    right: entry.verdict.map(|_| false),
                },
            };
            found.insert(entry.path.clone(), outcome);
        }
    }
    found
}

fn parse_baseline(text: &str) -> BTreeMap<String, Outcome> {
    (text.lines().skip(1))
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let number = |cell: &str| cell.parse::<usize>().unwrap();
            let right = match cells[3] {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            };
            let outcome = Outcome {
                identified: number(cells[1]),
                lines: number(cells[2]),
                right,
            };
            (cells[0].to_string(), outcome)
        })
        .collect()
}

fn render_baseline(outcomes: &BTreeMap<String, Outcome>) -> String {
    let mut text = String::from("path\tidentified\tlines\tverdict_right\n");
    for (path, outcome) in outcomes {
        let right = match outcome.right {
            Some(true) => "yes",
            Some(false) => "no",
            None => "-",
        };
        let (identified, lines) = (outcome.identified, outcome.lines);
        writeln!(text, "{path}\t{identified}\t{lines}\t{right}").unwrap();
    }
    text
}

/// Sums: lists, lists read whole, card lines identified, card lines, verdicts right, verdicts.
#[derive(Default)]
struct Totals([usize; 6]);

impl Totals {
    fn add(&mut self, outcome: Outcome) {
        let t = &mut self.0;
        t[0] += 1;
        t[1] += usize::from(outcome.whole());
        t[2] += outcome.identified;
        t[3] += outcome.lines;
        t[4] += usize::from(outcome.right == Some(true));
        t[5] += usize::from(outcome.right.is_some());
    }

    fn row(&self, name: &str) -> String {
        let [lists, whole, identified, lines, right, verdicts] = self.0;
        let percent = |a: usize, b: usize| {
            if b == 0 {
                "–".to_string()
            } else {
                format!("{:.1} %", a as f64 * 100.0 / b as f64)
            }
        };
        format!(
            "| {name} | {lists} | {whole} | {identified}/{lines} ({}) | {right}/{verdicts} ({}) |",
            percent(identified, lines),
            percent(right, verdicts)
        )
    }
}

/// How a table of the figures groups the lists.
type Key = fn(&Entry) -> &str;

fn figures(entries: &[Entry], outcomes: &BTreeMap<String, Outcome>) -> String {
    let mut text = String::new();
    let header = "| lists read whole | card lines identified | dated verdicts right |";
    let mut all = Totals::default();
    for entry in entries {
        all.add(outcomes[&entry.path]);
    }
    writeln!(text, "| | lists {header}\n|---|---|---|---|---|").unwrap();
    writeln!(text, "{}\n", all.row("all")).unwrap();
    let keys: [(&str, Key); 5] = [
        ("source", |e| e.path.split('/').nth(1).unwrap_or("")),
        ("era", |e| &e.era),
        ("language", |e| &e.language),
        ("format", |e| &e.format),
        ("layout", |e| &e.layout),
    ];
    for (name, key) in keys {
        let mut by: BTreeMap<&str, Totals> = BTreeMap::new();
        for entry in entries {
            by.entry(key(entry)).or_default().add(outcomes[&entry.path]);
        }
        writeln!(text, "| {name} | lists {header}\n|---|---|---|---|---|").unwrap();
        for (value, totals) in by {
            writeln!(text, "{}", totals.row(value)).unwrap();
        }
        text.push('\n');
    }
    text
}

#[test]
fn corpus_stays_read_and_judged_right() {
    let entries = manifest();
    assert!(!entries.is_empty());
    for entry in &entries {
        assert!(
            corpus().join(&entry.path).is_file(),
            "manifest.tsv names a missing list: {}",
            entry.path
        );
        assert!(!entry.source.is_empty(), "{}: no source", entry.path);
    }
    let now = outcomes(&entries);
    eprintln!("{}", figures(&entries, &now));
    // A list deckbox misreads or misjudges whose source is not known to be wrong is a
    // defect to fix (or a source error to record in the manifest).
    let unexplained: Vec<&str> = (entries.iter())
        .filter(|e| e.source_error.is_empty())
        .filter(|e| !now[&e.path].whole() || now[&e.path].right == Some(false))
        .map(|e| e.path.as_str())
        .collect();
    eprintln!(
        "misses not recorded as source errors: {}",
        if unexplained.is_empty() {
            "none".to_string()
        } else {
            unexplained.join(", ")
        }
    );
    let baseline_path = corpus().join("baseline.tsv");
    if std::env::var("DECKBOX_CORPUS_BLESS").as_deref() == Ok("1") {
        std::fs::write(&baseline_path, render_baseline(&now)).unwrap();
        eprintln!("note: tests/corpus/baseline.tsv rewritten");
        return;
    }
    let before = parse_baseline(&std::fs::read_to_string(&baseline_path).unwrap());
    let mut regressions = Vec::new();
    let mut improvements = 0;
    for (path, outcome) in &now {
        let Some(old) = before.get(path) else {
            regressions.push(format!("{path}: not in the baseline"));
            continue;
        };
        if old.whole() && !outcome.whole() {
            let (identified, lines) = (outcome.identified, outcome.lines);
            regressions.push(format!(
                "{path}: was read whole, now {identified}/{lines} card lines identified"
            ));
        }
        if old.right == Some(true) && outcome.right != Some(true) {
            regressions.push(format!("{path}: its verdict was right, now wrong"));
        }
        improvements += usize::from(
            outcome.identified > old.identified
                || (outcome.right == Some(true) && old.right != Some(true)),
        );
    }
    for path in before.keys().filter(|path| !now.contains_key(*path)) {
        regressions.push(format!("{path}: in the baseline, not in the manifest"));
    }
    let sum = |outcomes: &BTreeMap<String, Outcome>| {
        let mut totals = Totals::default();
        outcomes.values().for_each(|outcome| totals.add(*outcome));
        (totals.0[2], totals.0[4])
    };
    let ((identified, right), (identified_before, right_before)) = (sum(&now), sum(&before));
    if identified < identified_before {
        regressions.push(format!(
            "card lines identified dropped: {identified_before} → {identified}"
        ));
    }
    if right < right_before {
        regressions.push(format!("verdicts right dropped: {right_before} → {right}"));
    }
    assert!(
        regressions.is_empty(),
        "the corpus regressed (if a change is intended, rerun with DECKBOX_CORPUS_BLESS=1):\n{}",
        regressions.join("\n")
    );
    if improvements > 0 {
        eprintln!(
            "note: {improvements} lists improved: update the baseline with \
             `DECKBOX_CORPUS_BLESS=1 cargo test --test suite corpus::`"
        );
    }
}

/// One row of `tests/corpus/classes.tsv`: a line of a corpus list that holds a class of
/// issue 42, and how deckbox must read it.
struct ClassRow {
    class: String,
    path: String,
    line: u64,
    text: String,
    /// `header` (no card and no finding on the line), or `Name | SET | NUMBER` (`*` for any
    /// set or number) and maybe `| stage`, a stage `deckbox search` finds the printing read
    /// with (`baby`: a Neo-era Baby Pokémon), then `! rule` for each finding the line must
    /// have (and no other).
    reads: String,
    /// `read` (deckbox reads the line as `reads` says) or `misread` (a class still to fix:
    /// deckbox does not, and the test says when it starts to).
    read: bool,
}

fn class_rows() -> Vec<ClassRow> {
    let text = std::fs::read_to_string(corpus().join("classes.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (class, path, line) = (column("class"), column("path"), column("line"));
    let (written, reads, status) = (column("text"), column("reads"), column("status"));
    lines
        .map(|row| {
            let cells: Vec<&str> = row.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "classes.tsv: {row}");
            ClassRow {
                class: cells[class].to_string(),
                path: cells[path].to_string(),
                line: cells[line].parse().unwrap(),
                text: cells[written].to_string(),
                reads: cells[reads].to_string(),
                read: match cells[status] {
                    "read" => true,
                    "misread" => false,
                    other => panic!("classes.tsv: status '{other}' in {row}"),
                },
            }
        })
        .collect()
}

/// What `check` made of one line of a list: `header`, or `Name | SET | NUMBER` (and `|
/// stage` when `expected` gives a stage and `deckbox search` finds the printing read with
/// it, else `| not stage`),
/// then `! rule` for each finding on the line, in the form of `classes.tsv`'s `reads`, with
/// the set and number kept when `expected` gives them and `*` where it does.
fn line_reading(deck: &serde_json::Value, line: u64, expected: &str) -> String {
    let on_line = |list: &str| -> Vec<&serde_json::Value> {
        (deck[list].as_array().unwrap().iter())
            .filter(|item| item["line"].as_u64() == Some(line))
            .collect()
    };
    let cards = on_line("cards");
    let mut rules: Vec<&str> = (on_line("diagnostics").into_iter())
        .filter_map(|found| found["rule"].as_str())
        .collect();
    rules.sort_unstable();
    let wanted: Vec<&str> = expected.split(" ! ").next().unwrap().split(" | ").collect();
    let mut text = match cards.as_slice() {
        [] => "header".to_string(),
        [card] => {
            let field = |key: &str, at: usize| match wanted.get(at) {
                Some(&"*") => "*".to_string(),
                _ => card[key].as_str().unwrap_or("-").to_string(),
            };
            let mut text = format!(
                "{} | {} | {}",
                field("name", 0),
                field("set", 1),
                field("number", 2)
            );
            if let Some(stage) = wanted.get(3) {
                let set = card["set"].as_str().unwrap_or("-");
                let number = card["number"].as_str().unwrap_or("-");
                write!(text, " | {}", stage_of(stage, set, number)).unwrap();
            }
            text
        }
        more => format!("{} cards", more.len()),
    };
    for rule in rules {
        write!(text, " ! {rule}").unwrap();
    }
    text
}

/// `stage` when `deckbox search` finds the printing `set` `number` with `stage:STAGE`
/// (`baby`: a Neo-era Baby Pokémon, the rules' Basic), else `not STAGE`.
fn stage_of(stage: &str, set: &str, number: &str) -> String {
    let query = format!("stage:{stage} set:{set} number:{number}");
    let output = common::deckbox_command()
        .args(["search", "--no-config", "--output", "json", &query])
        .env_remove("DECKBOX_CARDS")
        .output()
        .unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or(serde_json::Value::Null);
    let printings = (report["cards"].as_array().into_iter().flatten())
        .flat_map(|card| card["printings"].as_array().into_iter().flatten());
    let found = printings
        .into_iter()
        .any(|p| p["matched"] == true && p["set"] == set && p["number"] == number);
    if found {
        stage.to_string()
    } else {
        format!("not {stage}")
    }
}

/// Every class of issue 42 (item 3, and items 1, 2 and 4 where a list shows them) that a
/// corpus list holds, at the line that holds it (`tests/corpus/classes.tsv`): the line is
/// there byte-exact, and `check`, at that list's date and in its format (manifest.tsv),
/// reads it as the row says.
#[test]
fn every_class_is_read_as_its_row_says() {
    let rows = class_rows();
    assert!(!rows.is_empty());
    let entries = manifest();
    let mut wrong = Vec::new();
    for row in &rows {
        let bytes = std::fs::read(corpus().join(&row.path)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let index = usize::try_from(row.line - 1).unwrap();
        assert_eq!(
            text.split('\n').nth(index),
            Some(row.text.as_str()),
            "classes.tsv: {} line {} is not the line written there",
            row.path,
            row.line
        );
        let entry = (entries.iter().find(|entry| entry.path == row.path))
            .unwrap_or_else(|| panic!("classes.tsv: {} is not in manifest.tsv", row.path));
        let output = common::deckbox_command()
            .current_dir(corpus())
            .args(["check", "--no-config", "--output", "json"])
            .args(["--format", &entry.format, "--as-of", &entry.date, &row.path])
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let reading = line_reading(&report["decks"][0], row.line, &row.reads);
        if (reading == row.reads) != row.read {
            let status = if row.read { "read" } else { "misread" };
            wrong.push(format!(
                "{} ({status}) {}:{}: expected {}, read {reading}",
                row.class, row.path, row.line, row.reads
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "classes.tsv rows not read as stated (a row marked misread that is now read: \
         mark it read):\n{}",
        wrong.join("\n")
    );
}
