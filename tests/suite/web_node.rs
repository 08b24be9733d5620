//! The same answers in a browser: the WebAssembly build of the library (`web/`, built by
//! `cargo xtask web`) run in Node gives the JSON of `check`, `stats`, `search` and `card`
//! byte for byte as the CLI's `--output json` does, for every example list and deck fixture.
//! Needs Node and the wasm-bindgen CLI (docs/web.md); the build is run when the Node glue is
//! missing or older than the library's sources, once for every test of the suite that
//! needs it ([`built_node_glue`]).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::SystemTime;

use crate::common::{TODAY, deckbox_command, repo, tool};

const TEST: &str = "web_node";

/// The searches compared (each as `deckbox search Q --output json`).
const SEARCHES: [&str; 5] = [
    "Dreepy",
    "type:psychic stage:basic hp>=120 legal:standard@2026-11-25",
    "kind:supporter text:\"discard your hand\"",
    "evolves:Dreepy or into:Dragapult",
    "name:Fantyrm",
];

/// How many card names of each list `card` is compared for.
const CARDS_PER_LIST: usize = 4;

/// The newest modification time under `dir` (files only, recursively).
fn newest(dir: &Path) -> SystemTime {
    let mut latest = SystemTime::UNIX_EPOCH;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let time = if path.is_dir() {
            newest(&path)
        } else {
            entry.metadata().and_then(|m| m.modified()).unwrap()
        };
        latest = latest.max(time);
    }
    latest
}

/// `target/web-node`, built by `cargo xtask web` when missing or older than the sources.
/// The tests of the suite that need it (web_node, web_browser, web_npm) run in parallel
/// threads of one process: the first builds, the others wait for it, none builds again.
pub fn built_node_glue(test: &str) -> Option<PathBuf> {
    if !tool("node", "--version", test) || !tool("wasm-bindgen", "--version", test) {
        return None;
    }
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let glue = BUILT.get_or_init(build_if_stale);
    Some(glue.clone())
}

/// Runs `cargo xtask web` when its Node glue is missing or older than the sources.
fn build_if_stale() -> PathBuf {
    let root = repo();
    let glue = root.join("target/web-node/deckbox_web.js");
    let built = std::fs::metadata(root.join("target/web-node/deckbox_web_bg.wasm"))
        .and_then(|m| m.modified())
        .ok();
    let sources = [
        "src",
        "web/src",
        "web/www",
        "web/pkg",
        "cards",
        "formats",
        "xtask/src",
    ]
    .iter()
    .map(|dir| newest(&root.join(dir)))
    .max()
    .unwrap();
    if built.is_none_or(|built| built < sources) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        // xtask in the test's own (dev) profile: deckbox is already built for it; the
        // `.wasm` is built in release whatever the profile of xtask.
        let status = Command::new(cargo)
            .args(["run", "--quiet", "--package", "xtask", "--", "web"])
            .current_dir(&root)
            .status()
            .unwrap();
        assert!(status.success(), "cargo xtask web failed");
    }
    assert!(glue.is_file(), "{} was not built", glue.display());
    glue
}

/// The lists compared: examples/ and tests/fixtures/decks/.
fn lists() -> Vec<PathBuf> {
    let mut lists = Vec::new();
    for dir in ["examples", "tests/fixtures/decks"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
            .collect();
        found.sort();
        lists.extend(found);
    }
    assert!(lists.len() > 10, "{lists:?}");
    lists
}

/// What the CLI prints: stdout when it succeeded (exit 0 or 1), else `None`.
fn cli(args: &[&str], stdin: &[u8]) -> Option<String> {
    let mut child = deckbox_command()
        .args(args)
        .env_remove("DECKBOX_FORMAT")
        .env_remove("DECKBOX_CARDS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    matches!(out.status.code(), Some(0 | 1)).then(|| String::from_utf8(out.stdout).unwrap())
}

/// Runs every call in Node with the built glue; each answer is the JSON text, or `null`
/// when the call threw.
fn in_node(glue: &Path, calls: &serde_json::Value) -> Vec<Option<String>> {
    let script = r#"
const deckbox = require(process.argv[1]);
// The card texts are not in the .wasm: search and card need them loaded first.
let refused = false;
try { deckbox.search("Dreepy", "{}"); } catch (error) { refused = /card texts/.test(error.message); }
if (!refused || deckbox.hasTexts()) throw new Error("the .wasm holds the card texts");
refused = false;
try { new deckbox.DeckBuilder("", "{}").search("text:draw"); } catch (error) { refused = /card texts/.test(error.message); }
if (!refused) throw new Error("the builder searched without the card texts");
deckbox.loadTexts(require("node:fs").readFileSync(require("node:path").join(require("node:path").dirname(process.argv[1]), "deckbox_texts.bin")));
if (!deckbox.hasTexts()) throw new Error("the card texts did not load");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const answers = JSON.parse(input).map(([fn, arg, options]) => {
    try { return deckbox[fn](arg, JSON.stringify(options)); } catch (error) { return null; }
  });
  process.stdout.write(JSON.stringify(answers));
});
"#;
    let mut child = Command::new("node")
        .args(["-e", script])
        .arg(glue)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        calls.to_string().as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "node failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_webassembly_build_answers_as_the_cli_does() {
    let Some(glue) = built_node_glue(TEST) else {
        return;
    };
    let mut calls = Vec::new();
    let mut expected = Vec::new();
    let options = serde_json::json!({ "format": "standard", "date": TODAY });
    let deck_args = ["--no-config", "--format", "standard", "--as-of", TODAY];
    for path in lists() {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if text.as_bytes() != bytes {
            // The page reads text: a file in another encoding is decoded by `decodeList`
            // (faces_corpus compares such files).
            continue;
        }
        let name = path.display().to_string();
        for (command, extra) in [
            ("check", &[][..]),
            ("stats", &[][..]),
            ("stats", &["--want", "Dreepy>=1 & Rare Candy>=1 by T2"][..]),
        ] {
            let mut args = vec![command, "-", "--output", "json"];
            args.extend(deck_args);
            args.extend(extra);
            let mut options = options.clone();
            if extra.len() == 2 {
                options["want"] = serde_json::json!([extra[1]]);
            }
            calls.push(serde_json::json!([command, text, options]));
            expected.push((format!("{name}: {}", args.join(" ")), cli(&args, &bytes)));
        }
        let all = serde_json::json!({ "format": "all", "date": TODAY });
        calls.push(serde_json::json!(["check", text, all]));
        let args = [
            "check",
            "-",
            "--output",
            "json",
            "--no-config",
            "--format",
            "all",
            "--as-of",
            TODAY,
        ];
        expected.push((format!("{name}: {}", args.join(" ")), cli(&args, &bytes)));
        let deck = deckbox::deck::parse(&text);
        for line in deck.cards.iter().take(CARDS_PER_LIST) {
            let card = serde_json::json!({ "date": TODAY });
            calls.push(serde_json::json!(["card", line.name, card]));
            let args = [
                "card",
                &line.name,
                "--output",
                "json",
                "--no-config",
                "--as-of",
                TODAY,
            ];
            expected.push((args.join(" "), cli(&args, b"")));
        }
    }
    for query in SEARCHES {
        calls.push(serde_json::json!(["search", query, {}]));
        let args = ["search", "--output", "json", "--no-config", "--", query];
        expected.push((format!("search {query}"), cli(&args, b"")));
    }
    let answers = in_node(&glue, &serde_json::Value::Array(calls));
    assert_eq!(answers.len(), expected.len());
    let mut compared = 0;
    for ((what, cli), web) in expected.iter().zip(&answers) {
        assert_eq!(
            cli.is_some(),
            web.is_some(),
            "{what}: the CLI {} but the page {}",
            if cli.is_some() { "answered" } else { "failed" },
            if web.is_some() { "answered" } else { "failed" },
        );
        if let (Some(cli), Some(web)) = (cli, web) {
            assert!(cli == web, "{what}: the page's JSON differs from the CLI's");
            compared += 1;
        }
    }
    // Most calls answer: a broken fixture fails `stats` in both.
    assert!(
        compared * 4 > expected.len() * 3,
        "{compared} of {}",
        expected.len()
    );
}

/// The page's charts are the HTML report's (`deckbox stats -o report.html`): the same
/// sections, drawn by the same library code.
#[test]
fn the_charts_are_the_html_reports() {
    let Some(glue) = built_node_glue(TEST) else {
        return;
    };
    let path = repo().join("examples/dragapult.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let options = serde_json::json!({ "format": "standard", "date": TODAY, "turns": 3 });
    let calls = serde_json::json!([["statsCharts", text, options]]);
    let charts = in_node(&glue, &calls).remove(0).unwrap();
    let args = [
        "stats",
        "-",
        "--output",
        "html",
        "--no-config",
        "--format",
        "standard",
        "--as-of",
        TODAY,
        "--turns",
        "3",
    ];
    let page = cli(&args, text.as_bytes()).unwrap();
    let sections: Vec<&str> = charts.split_inclusive("</section>\n").collect();
    assert_eq!(sections.len(), 2, "{charts}");
    for section in sections {
        assert!(section.contains("<svg class=\"chart\""), "{section}");
        assert!(page.contains(section), "not in the report: {section}");
    }
}
