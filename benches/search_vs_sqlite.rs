//! `deckbox search` against `sqlite3` with FTS5 over the same card data (issue 51 item 3).
//!
//! The bench first exports the embedded card index to a SQLite database,
//! `target/search_vs_sqlite/cards-N.db` (N: the number of printings), built once with the
//! `sqlite3` command (no crate) and reused:
//! - `printings`: a row a printing (its id in the index is the rowid) with the columns the
//!   query shapes test: set code, number, kind, types, HP, rarity, illustrator, year, the
//!   card's rules key, the lookup key of what it evolves from, and the legality columns
//!   deckbox itself computed (`legal:standard` and `legal:expanded` on fixed dates,
//!   `banned:expanded`, `stage:basic`), so sqlite is not asked to apply the rules; and
//!   every field deckbox's JSON writes of a printing (set id, series, regulation mark,
//!   rule tags, the name in each of the six languages);
//! - `names` (FTS5): a row a printing, its names in every language;
//! - `texts` (FTS5): a row a printing, columns `text`, `attack`, `ability` holding what
//!   `text:`, `attack:` and `ability:` read, in every language.
//!
//! Then each query shape runs as a whole process both ways, `deckbox search --no-config
//! --output json QUERY` and `sqlite3 -json DB 'SELECT [FIELDS] FROM printings WHERE … ORDER
//! BY name, released, id'`, taking turns (A B A B …) after a
//! warm-up, `DECKBOX_BENCH_RUNS` times each (default 11). It prints per shape the median
//! wall and CPU (user + system, the children's rusage through bash's `times`) of each, the
//! median of the pairwise deckbox / sqlite ratios, and how many printings each found: the
//! two counts are equal where the semantics match, and the shapes where they cannot be are
//! marked `≈` (see docs/performance.md).
//!
//! `cargo bench --bench search_vs_sqlite`; `DECKBOX_BENCH_BINARY=target/release/deckbox`
//! times another build. Needs `sqlite3` with FTS5 and `bash`; asserts nothing but that both
//! sides run.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

#[allow(
    dead_code,
    reason = "this bench times with bash's `times`: it takes the run count and the binary"
)]
mod support;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use deckbox::cards::CardDb;
use deckbox::names::lang::Language;

/// The day `legal:standard` is judged on, both in the export and in deckbox's processes.
const TODAY: &str = "2026-11-25";

/// What sqlite writes of each printing found: the same information deckbox's JSON writes
/// (`render::search::json`: the name shown, set code, number, set id, release date, series,
/// regulation mark, types, rule tags and the names in all six languages, in that order), so
/// neither side writes less than the other.
const FIELDS: &str = "id, name, set_code, number, set_id, released, series, mark, types, \
    rules, name_en, name_fr, name_es, name_pt, name_de, name_it";

/// The export's layout, in the database's file name: a database of an older layout is
/// rebuilt, not reused.
const LAYOUT: u32 = 2;

/// One query shape: deckbox's query, sqlite's `WHERE` clause, and whether both describe the
/// same printings (`false`: the two languages differ there, the counts may too).
struct Shape {
    deckbox: &'static str,
    sql: &'static str,
    same: bool,
}

const fn shape(deckbox: &'static str, sql: &'static str, same: bool) -> Shape {
    Shape { deckbox, sql, same }
}

/// The printings of an FTS5 match on `names`.
macro_rules! names {
    ($match:literal) => {
        concat!(
            "id IN (SELECT rowid FROM names WHERE names MATCH '",
            $match,
            "')"
        )
    };
}

/// The printings of an FTS5 match on `texts`.
macro_rules! texts {
    ($match:literal) => {
        concat!(
            "id IN (SELECT rowid FROM texts WHERE texts MATCH '",
            $match,
            "')"
        )
    };
}

const SHAPES: &[Shape] = &[
    shape("Dreepy", names!("dreepy*"), true),
    // A prefix (the nearest deckbox has to a pattern): every name with a word starting so.
    shape("char", names!("char*"), false),
    shape("Dreepy or Drakloak", names!("dreepy* OR drakloak*"), true),
    shape("set:TWM", "set_code = 'TWM'", true),
    shape(
        "set:TWM number:128",
        "set_code = 'TWM' AND number = '128'",
        true,
    ),
    shape(
        "type:psychic stage:basic hp>=120",
        "types LIKE '%Psychic%' AND basic = 1 AND hp >= 120",
        true,
    ),
    shape("hp>=120", "hp >= 120", true),
    shape("kind:pokemon", "category = 'pokemon'", true),
    shape(
        "text:\"discard your hand\"",
        texts!("text: \"discard your hand\""),
        false,
    ),
    shape("text:draw", texts!("text: draw"), false),
    shape(
        "attack:\"Phantom Dive\"",
        texts!("attack: \"phantom dive\""),
        false,
    ),
    shape(
        "evolves:Dreepy",
        concat!(
            "evolves_from IN (SELECT card FROM printings WHERE ",
            names!("dreepy*"),
            ")"
        ),
        true,
    ),
    shape(
        "into:Drakloak",
        concat!(
            "card IN (SELECT evolves_from FROM printings WHERE ",
            names!("drakloak*"),
            ")"
        ),
        true,
    ),
    shape("legal:standard", "legal_standard = 1", true),
    shape("legal:expanded@2015-06-01", "legal_expanded_2015 = 1", true),
    shape("banned:expanded", "banned_expanded = 1", true),
    shape(
        "kind:supporter -text:coin",
        concat!("kind = 'supporter' AND NOT ", texts!("text: coin")),
        false,
    ),
    shape(
        "type:water or type:fire -stage:basic",
        "types LIKE '%Water%' OR (types LIKE '%Fire%' AND basic = 0)",
        true,
    ),
    shape(
        "artist:\"5ban graphics\"",
        "artist LIKE '%5ban graphics%'",
        true,
    ),
    shape("rarity:rare", "rarity LIKE '%rare%'", false),
    shape("year<2005", "year < 2005", true),
    shape(
        "kind:supporter legal:standard",
        "kind = 'supporter' AND legal_standard = 1",
        true,
    ),
];

fn main() {
    let runs = support::runs(11);
    let binary = support::binary();
    let db = match deckbox::cards::storage::embedded::open() {
        Ok(db) => db,
        Err(error) => panic!("the embedded index: {error}"),
    };
    let path = database(&db);
    println!(
        "search_vs_sqlite: {} against sqlite3 {} ({}), {} printings, {runs} runs each after a warm-up, taking turns",
        binary.display(),
        sqlite_version(),
        path.display(),
        db.len(),
    );
    println!(
        "{:<42} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8}",
        "query", "dbx wall", "dbx cpu", "sql wall", "sql cpu", "wall ×", "cpu ×", "found"
    );
    let mut lost = Vec::new();
    for shape in SHAPES {
        let select = format!(
            "SELECT {FIELDS} FROM printings WHERE {} ORDER BY name, released, id;",
            shape.sql
        );
        let mut ours = Command::new(&binary);
        ours.args(["search", "--no-config", "--output", "json", shape.deckbox])
            .env("DECKBOX_TODAY", TODAY);
        let mut theirs = Command::new("sqlite3");
        theirs.arg("-json").arg(&path).arg(&select);
        let found = (deckbox_count(&mut ours), sqlite_count(&path, shape.sql));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let _ = timed(&mut ours);
        let _ = timed(&mut theirs);
        for _ in 0..runs {
            a.extend(timed(&mut ours));
            b.extend(timed(&mut theirs));
        }
        let ratio = |pick: fn(&Timing) -> f64| {
            median(
                a.iter()
                    .zip(&b)
                    .map(|(a, b)| pick(a) / pick(b).max(0.001))
                    .collect(),
            )
        };
        let (wall, cpu) = (ratio(|t| t.wall), ratio(|t| t.cpu));
        let mark = match (found.0 == found.1, shape.same) {
            (true, _) => "=",
            (false, false) => "≈",
            (false, true) => "≠",
        };
        println!(
            "{:<42} {:>6.1} ms {:>6.1} ms {:>6.1} ms {:>6.1} ms {:>7.2} {:>7.2} {:>6} {mark} {}",
            shape.deckbox,
            median(a.iter().map(|t| t.wall).collect()),
            median(a.iter().map(|t| t.cpu).collect()),
            median(b.iter().map(|t| t.wall).collect()),
            median(b.iter().map(|t| t.cpu).collect()),
            wall,
            cpu,
            found.0.map_or("?".into(), |n| n.to_string()),
            found.1.map_or("?".into(), |n| n.to_string()),
        );
        if wall > 1.0 || cpu > 1.0 {
            lost.push(shape.deckbox);
        }
    }
    println!(
        "deckbox slower than sqlite (wall or CPU ratio over 1) on {} of {} shapes: {lost:?}",
        lost.len(),
        SHAPES.len()
    );
}

/// One run's wall and CPU time, in milliseconds.
struct Timing {
    wall: f64,
    cpu: f64,
}

/// Runs `command` once under bash, output thrown away: the wall time from `EPOCHREALTIME`
/// and the CPU time from `times` (the children's user and system time, to the millisecond).
/// `None` when it fails.
fn timed(command: &mut Command) -> Option<Timing> {
    let script = r#"s=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || exit 1; e=$EPOCHREALTIME; times; echo "$s $e""#;
    let mut bash = Command::new("bash");
    bash.args(["-c", script, "bench"])
        .arg(command.get_program());
    bash.args(command.get_args());
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            bash.env(key, value);
        }
    }
    let output = bash.stderr(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // `times`: the shell's user and system time, then its children's: `0m0.012s 0m0.004s`.
    let seconds = |field: &str| -> Option<f64> {
        let (minutes, rest) = field.split_once('m')?;
        Some(minutes.parse::<f64>().ok()? * 60.0 + rest.trim_end_matches('s').parse::<f64>().ok()?)
    };
    let children = lines.get(1)?;
    let cpu: f64 = children
        .split_whitespace()
        .map(seconds)
        .sum::<Option<f64>>()?;
    let (start, end) = lines.get(2)?.split_once(' ')?;
    let wall = end.parse::<f64>().ok()? - start.parse::<f64>().ok()?;
    Some(Timing {
        wall: wall * 1000.0,
        cpu: cpu * 1000.0,
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// How many printings deckbox's JSON answer lists.
fn deckbox_count(command: &mut Command) -> Option<usize> {
    let output = command.stderr(Stdio::null()).output().ok()?;
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    let cards = answer.get("cards")?.as_array()?;
    Some(
        cards
            .iter()
            .filter_map(|card| card.get("printings")?.as_array().map(Vec::len))
            .sum(),
    )
}

/// How many printings sqlite finds for `condition`.
fn sqlite_count(path: &Path, condition: &str) -> Option<usize> {
    let output = Command::new("sqlite3")
        .arg(path)
        .arg(format!("SELECT count(*) FROM printings WHERE {condition};"))
        .output()
        .ok()?;
    String::from_utf8_lossy(&output.stdout).trim().parse().ok()
}

fn sqlite_version() -> String {
    Command::new("sqlite3")
        .arg("--version")
        .output()
        .map(|output| {
            let text = String::from_utf8_lossy(&output.stdout);
            text.split_whitespace().next().unwrap_or("?").to_string()
        })
        .unwrap_or_else(|_| "(missing)".into())
}

/// The SQLite copy of `db`, built the first time (or when `DECKBOX_BENCH_REBUILD` is set).
fn database(db: &CardDb) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/search_vs_sqlite");
    let path = dir.join(format!("cards-{}-v{LAYOUT}.db", db.len()));
    if path.exists() && std::env::var_os("DECKBOX_BENCH_REBUILD").is_none() {
        return path;
    }
    if let Err(error) = std::fs::create_dir_all(&dir) {
        panic!("{}: {error}", dir.display());
    }
    let _ = std::fs::remove_file(&path);
    let sql = export(db);
    let mut child = match Command::new("sqlite3")
        .arg(&path)
        .stdin(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("sqlite3: {error}"),
    };
    if let Some(mut stdin) = child.stdin.take()
        && let Err(error) = stdin.write_all(sql.as_bytes())
    {
        panic!("sqlite3: {error}");
    }
    match child.wait() {
        Ok(status) if status.success() => path,
        other => panic!("sqlite3 could not build {}: {other:?}", path.display()),
    }
}

/// Whether each printing is found by `query` (deckbox's own answer, the precomputed columns).
fn mask(db: &CardDb, query: &str) -> Vec<bool> {
    let mut mask = vec![false; db.len()];
    match deckbox::search::search(db, query) {
        Ok(ids) => ids.into_iter().for_each(|id| mask[id as usize] = true),
        Err(error) => panic!("{query}: {error:?}"),
    }
    mask
}

/// `text` as an SQL string literal.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The SQL that builds the database.
fn export(db: &CardDb) -> String {
    let standard = mask(db, &format!("legal:standard@{TODAY}"));
    let expanded = mask(db, "legal:expanded@2015-06-01");
    let banned = mask(db, &format!("banned:expanded@{TODAY}"));
    let basic = mask(db, "stage:basic");
    let mut sql = String::from(
        "PRAGMA journal_mode = OFF;\nBEGIN;\n\
         CREATE TABLE printings (id INTEGER PRIMARY KEY, name TEXT, set_code TEXT, number TEXT, \
         released TEXT, year INTEGER, category TEXT, kind TEXT, types TEXT, hp INTEGER, \
         rarity TEXT, artist TEXT, card TEXT, evolves_from TEXT, basic INTEGER, \
         legal_standard INTEGER, legal_expanded_2015 INTEGER, banned_expanded INTEGER, \
         set_id TEXT, series TEXT, mark TEXT, rules TEXT, name_en TEXT, name_fr TEXT, \
         name_es TEXT, name_pt TEXT, name_de TEXT, name_it TEXT);\n\
         CREATE VIRTUAL TABLE names USING fts5(name, tokenize = 'unicode61 remove_diacritics 2');\n\
         CREATE VIRTUAL TABLE texts USING fts5(text, attack, ability, tokenize = 'unicode61 remove_diacritics 2');\n",
    );
    for (id, printing) in db.iter() {
        let index = id as usize;
        let facts = db.details(id);
        let kind = match (printing.trainer, printing.energy) {
            (Some(trainer), _) => format!("{trainer:?}").to_lowercase(),
            (None, Some(energy)) => format!("{energy:?}").to_lowercase(),
            (None, None) => printing.category.as_str().to_lowercase(),
        };
        let year: Option<u32> = printing.release_date.get(..4).and_then(|y| y.parse().ok());
        let optional = |value: Option<String>| value.map_or("NULL".into(), |v| quoted(&v));
        // The name in each language, NULL where the printing has none (JSON's `null`).
        let names_sql = Language::ALL
            .iter()
            .map(|&lang| optional(printing.names.get(lang).map(str::to_string)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            sql,
            "INSERT INTO printings VALUES ({id}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});",
            quoted(printing.names.primary()),
            quoted(&printing.set_code),
            quoted(&printing.number),
            quoted(&printing.release_date),
            year.map_or("NULL".into(), |y| y.to_string()),
            quoted(&printing.category.as_str().to_lowercase()),
            quoted(&kind),
            quoted(&printing.types.join(",")),
            facts
                .and_then(|f| f.hp)
                .map_or("NULL".into(), |hp| hp.to_string()),
            optional(facts.and_then(|f| f.rarity.clone())),
            optional(facts.and_then(|f| f.illustrator.clone())),
            quoted(printing.rules_key()),
            optional(
                printing
                    .evolves_from
                    .as_deref()
                    .map(deckbox::names::lookup_key)
            ),
            u8::from(basic[index]),
            u8::from(standard[index]),
            u8::from(expanded[index]),
            u8::from(banned[index]),
            quoted(&printing.set_id),
            quoted(&printing.series),
            optional(printing.regulation_mark.map(String::from)),
            quoted(&printing.rule_tags().join(",")),
            names_sql,
        );
        let names: Vec<&str> = printing.names.iter().map(|(_, name)| name).collect();
        let _ = writeln!(
            sql,
            "INSERT INTO names (rowid, name) VALUES ({id}, {});",
            quoted(&names.join("\n"))
        );
        let (mut text, mut attack, mut ability) = (Vec::new(), Vec::new(), Vec::new());
        if let Some(details) = facts {
            text.extend(details.effect.iter().map(|(_, t)| t));
            for each in &details.attacks {
                attack.extend(each.name.iter().map(|(_, t)| t));
                attack.extend(each.text.iter().map(|(_, t)| t));
                text.extend(each.text.iter().map(|(_, t)| t));
            }
            for each in &details.abilities {
                ability.extend(each.name.iter().map(|(_, t)| t));
                ability.extend(each.text.iter().map(|(_, t)| t));
                text.extend(each.text.iter().map(|(_, t)| t));
            }
        }
        let _ = writeln!(
            sql,
            "INSERT INTO texts (rowid, text, attack, ability) VALUES ({id}, {}, {}, {});",
            quoted(&text.join("\n")),
            quoted(&attack.join("\n")),
            quoted(&ability.join("\n")),
        );
    }
    sql.push_str(
        "CREATE INDEX printings_set ON printings (set_code, number);\n\
         CREATE INDEX printings_card ON printings (card);\n\
         CREATE INDEX printings_evolves ON printings (evolves_from);\n\
         COMMIT;\nINSERT INTO texts (texts) VALUES ('optimize');\n\
         INSERT INTO names (names) VALUES ('optimize');\nANALYZE;\n",
    );
    sql
}
