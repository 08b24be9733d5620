//! `deckbox mcp` gives the command line's answers: each tool, called over the protocol (raw
//! JSON-RPC lines on standard input), answers byte for byte what its command prints with
//! `--output json` (or its text, for commands without JSON) for the same input, and the
//! notes it writes on standard error as a second block.

#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{run_deckbox, stdout_of, workspace};

/// The files every test reads, copied into a fresh folder.
const FILES: &[&str] = &[
    "examples/dragapult.txt",
    "examples/broken.txt",
    "examples/collection/binder.txt",
];

/// Runs `deckbox mcp` in `dir` through one session (no roots capability: the working folder
/// is the root) calling each of `calls` (tool name, arguments); returns each call's result.
fn session(dir: &Path, calls: &[(&str, Value)]) -> Vec<Value> {
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "suite", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (id, (name, arguments)) in (1..).zip(calls) {
        lines.push(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}));
    }
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let (code, rendered) = run_deckbox(dir, &["mcp"], input.as_bytes());
    assert_eq!(code, 0, "{rendered}");
    let answers: Vec<Value> = stdout_of(&rendered)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (1..=calls.len())
        .map(|id| {
            let answer = answers.iter().find(|answer| answer["id"] == json!(id));
            answer.unwrap_or_else(|| panic!("no answer {id}: {answers:?}"))["result"].clone()
        })
        .collect()
}

/// The text of a tool's result (its first block), and whether it is a tool error.
fn text(result: &Value) -> (&str, bool) {
    let said = result["content"][0]["text"].as_str().unwrap_or("");
    (said, result["isError"] == json!(true))
}

/// The notes of a tool's result: its second block (not a search's next cursor), or "".
fn notes(result: &Value) -> &str {
    let blocks = result["content"].as_array().unwrap();
    (blocks.iter().skip(1))
        .filter_map(|block| block["text"].as_str())
        .find(|text| !text.starts_with("{\"next_cursor\""))
        .unwrap_or("")
}

/// The stderr part of what [`run_deckbox`] rendered.
fn stderr_of(rendered: &str) -> &str {
    rendered
        .split_once("--- stderr\n")
        .map_or("", |(_, rest)| rest)
}

/// `tool` with `arguments` answers what `deckbox ARGS` prints (the deck, when `stdin` is
/// given, on standard input), with its notes on standard error as the second block; returns
/// those notes.
fn same(tool: &str, arguments: Value, args: &[&str], stdin: &str) -> String {
    let dir = workspace(FILES);
    let result = &session(dir.path(), &[(tool, arguments)])[0];
    let (_, cli) = run_deckbox(dir.path(), args, stdin.as_bytes());
    let expected = stdout_of(&cli);
    assert!(!expected.is_empty(), "{cli}");
    let (said, error) = text(result);
    assert!(!error, "{said}");
    assert_eq!(said, expected, "{tool} against deckbox {args:?}");
    assert_eq!(notes(result), stderr_of(&cli), "{tool}'s notes");
    stderr_of(&cli).to_string()
}

fn dragapult() -> String {
    std::fs::read_to_string(crate::common::repo().join("examples/dragapult.txt")).unwrap()
}

#[test]
fn check_deck_is_check_json() {
    let broken =
        std::fs::read_to_string(crate::common::repo().join("examples/broken.txt")).unwrap();
    same(
        "check_deck",
        json!({"deck": broken, "as_of": "2026-01-10"}),
        &["check", "-", "--as-of", "2026-01-10", "--output", "json"],
        &broken,
    );
}

#[test]
fn check_deck_in_every_format_is_check_format_all_json() {
    let broken =
        std::fs::read_to_string(crate::common::repo().join("examples/broken.txt")).unwrap();
    same(
        "check_deck",
        json!({"deck": broken, "format": "all", "as_of": "2026-01-10"}),
        &[
            "check",
            "-",
            "--format",
            "all",
            "--as-of",
            "2026-01-10",
            "--output",
            "json",
        ],
        &broken,
    );
    same(
        "check_deck",
        json!({"deck": dragapult(), "format": "ALL"}),
        &["check", "-", "--format", "all", "--output", "json"],
        &dragapult(),
    );
}

#[test]
fn notes_on_standard_error_come_as_a_second_block() {
    // A Pokémon without its set code: PTCG Live may not import it, `convert` warns.
    let deck = "Pokémon: 4\n4 Dreepy\nTrainer: 1\n1 Iono PAL 185\n";
    let said = same(
        "convert_list",
        json!({"deck": deck}),
        &["convert", "-", "--to", "ptcgl"],
        deck,
    );
    assert!(
        said.contains("warning: PTCG Live imports a Pokémon"),
        "{said}"
    );
    // A deck that breaks a rule: `stats` says its odds are those of a broken deck.
    let broken = dragapult().replace("4 Dreepy", "5 Dreepy");
    let said = same(
        "opening_odds",
        json!({"deck": broken}),
        &["stats", "-", "--output", "json"],
        &broken,
    );
    assert!(!said.is_empty());
    // A clean answer has one block.
    let result = &session(
        workspace(FILES).path(),
        &[("explain_rule", json!({"rule": "copy-limit"}))],
    )[0];
    assert_eq!(result["content"].as_array().unwrap().len(), 1, "{result}");
}

#[test]
fn a_short_call_answers_while_a_long_one_is_computed() {
    use std::io::{BufRead, Write};
    // About a second of odds (32 combinations over 30 turns, each card's exact
    // distribution), then a rule's page (a few milliseconds), sent together.
    let want: Vec<String> = (0..32)
        .map(|k| {
            format!(
                "Dreepy>=1 & Drakloak>=1 & Dragapult ex>=1 & Rare Candy>={} & Poké Pad>=1 & Ultra Ball>=1 & Crispin>=1 | Boss's Orders>=2",
                k % 4
            )
        })
        .collect();
    let calls = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "suite", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "opening_odds", "arguments": {"deck": dragapult(), "turns": 30,
            "exactly": true, "going": "second", "want": want}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "explain_rule", "arguments": {"rule": "copy-limit"}}}),
    ];
    let dir = workspace(FILES);
    let mut child = crate::common::deckbox_command()
        .arg("mcp")
        .current_dir(dir.path())
        .env("DECKBOX_CACHE_DIR", dir.path().join(".cache"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for call in &calls {
        writeln!(stdin, "{call}").unwrap();
    }
    stdin.flush().unwrap();
    // The answers in the order they come, the input kept open until both are in.
    let mut order = Vec::new();
    let mut results = std::collections::HashMap::new();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    while order.len() < 2 {
        let line = lines.next().expect("an answer").unwrap();
        let answer: Value = serde_json::from_str(&line).unwrap();
        if let Some(id) = answer["id"].as_i64().filter(|id| *id > 0) {
            order.push(id);
            results.insert(id, answer["result"].clone());
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert_eq!(order, [2, 1], "the rule's page waited for the odds");
    assert!(!text(&results[&1]).1, "{}", results[&1]);
    assert!(text(&results[&2]).0.contains("copy-limit"));
}

#[test]
fn check_deck_of_a_path_is_check_json() {
    let dir = workspace(FILES);
    let path = std::fs::canonicalize(dir.path().join("broken.txt")).unwrap();
    let path = path.to_str().unwrap();
    let result = &session(
        dir.path(),
        &[(
            "check_deck",
            json!({"deck_path": path, "format": "expanded"}),
        )],
    )[0];
    let (_, cli) = run_deckbox(
        dir.path(),
        &["check", path, "--format", "expanded", "--output", "json"],
        b"",
    );
    assert_eq!(text(result), (stdout_of(&cli), false));
}

#[test]
fn search_cards_is_search_json() {
    same(
        "search_cards",
        json!({"query": "kind:supporter text:\"discard your hand\" legal:standard@2026-11-25"}),
        &[
            "search",
            "kind:supporter text:\"discard your hand\" legal:standard@2026-11-25",
            "--output",
            "json",
        ],
        "",
    );
}

#[test]
fn card_is_card_json() {
    same(
        "card",
        json!({"query": "TWM 128", "lang": "fr"}),
        &["card", "TWM", "128", "--lang", "fr", "--output", "json"],
        "",
    );
}

#[test]
fn opening_odds_is_stats_json() {
    same(
        "opening_odds",
        json!({"deck": dragapult(), "want": ["Dreepy>=1 & Rare Candy>=1 by T2"], "going": "second"}),
        &[
            "stats",
            "-",
            "--want",
            "Dreepy>=1 & Rare Candy>=1 by T2",
            "--going",
            "second",
            "--output",
            "json",
        ],
        &dragapult(),
    );
}

#[test]
fn midgame_odds_is_odds_json() {
    same(
        "midgame_odds",
        json!({"deck": dragapult(), "seen": "Dreepy, 2 Rare Candy", "draws": 2, "want": ["Drakloak>=1"]}),
        &[
            "odds",
            "-",
            "--seen",
            "Dreepy, 2 Rare Candy",
            "--draws",
            "2",
            "--want",
            "Drakloak>=1",
            "--output",
            "json",
        ],
        &dragapult(),
    );
}

#[test]
fn missing_cards_is_need_json() {
    // The answer names the collection file, which the tool reads by its resolved path.
    let dir = workspace(FILES);
    let binder = std::fs::canonicalize(dir.path().join("binder.txt")).unwrap();
    let binder = binder.to_str().unwrap();
    let arguments = json!({"deck": dragapult(), "collection_path": binder});
    let result = &session(dir.path(), &[("missing_cards", arguments)])[0];
    let (_, cli) = run_deckbox(
        dir.path(),
        &["need", "-", "--have", binder, "--output", "json"],
        dragapult().as_bytes(),
    );
    assert!(stdout_of(&cli).contains("binder.txt"), "{cli}");
    assert_eq!(text(result), (stdout_of(&cli), false));
}

#[test]
fn convert_list_is_convert() {
    same(
        "convert_list",
        json!({"deck": dragapult(), "to": "limitless", "lang": "de"}),
        &["convert", "-", "--to", "limitless", "--lang", "de"],
        &dragapult(),
    );
}

#[test]
fn format_list_is_fmt() {
    let deck = "Pokémon: 2\n2 Dreepy TWM 128\nTrainer: 1\n1 Iono PAL 185\n";
    same("format_list", json!({"deck": deck}), &["fmt", "-"], deck);
}

#[test]
fn explain_rule_is_explain() {
    same(
        "explain_rule",
        json!({"rule": "ace-spec-limit"}),
        &["explain", "ace-spec-limit"],
        "",
    );
}

#[test]
fn list_formats_is_formats() {
    same("list_formats", json!({}), &["formats"], "");
    same(
        "list_formats",
        json!({"format": "expanded", "as_of": "2015-06-01"}),
        &["formats", "show", "expanded", "--as-of", "2015-06-01"],
        "",
    );
}

#[test]
fn bad_arguments_are_tool_errors_with_the_reason() {
    let dir = workspace(FILES);
    let outside = tempfile::NamedTempFile::new().unwrap();
    let outside = outside.path().to_str().unwrap().to_string();
    let calls = [
        ("check_deck", json!({"deck_path": outside})),
        ("check_deck", json!({"deck_path": "../x.txt"})),
        (
            "check_deck",
            json!({"deck": "4 Dreepy\n", "deck_path": "broken.txt"}),
        ),
        (
            "check_deck",
            json!({"deck": "4 Dreepy\n", "format": "formats.toml"}),
        ),
        (
            "check_deck",
            json!({"deck": "4 Dreepy\n", "as_of": "yesterday"}),
        ),
        ("search_cards", json!({"query": "hp>"})),
        ("search_cards", json!({"query": "Dreepy", "cursor": "x"})),
        ("card", json!({"query": "Dreepyy"})),
        ("opening_odds", json!({"deck": "4 Dreepy\n", "turns": 61})),
        (
            "midgame_odds",
            json!({"deck": "4 Dreepy\n", "draws": 70000}),
        ),
        ("missing_cards", json!({"deck": "4 Dreepy\n"})),
        ("convert_list", json!({"deck": "4 Dreepy\n", "to": "pdf"})),
        ("explain_rule", json!({"rule": "nope"})),
    ];
    let results = session(dir.path(), &calls);
    let reasons: Vec<String> = results
        .iter()
        .map(|result| {
            let (said, error) = text(result);
            assert!(error, "{said}");
            said.lines()
                .next()
                .unwrap_or("")
                .replace(&outside, "OUTSIDE")
        })
        .collect();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let reasons = reasons.join("\n").replace(root.to_str().unwrap(), "ROOT");
    insta::assert_snapshot!(reasons, @r"
    error: cannot read OUTSIDE: no such file in the folders this session may read (ROOT)
    error: cannot read ../x.txt: no such file in the folders this session may read (ROOT)
    error: give one of `deck` (the text) and `deck_path`
    error: unknown format 'formats.toml'; expected one of standard, expanded, unlimited, glc, gameboy, play-pokemon, expanded-pool
    error: `yesterday` is not a date (YYYY-MM-DD)
    error: `hp` needs a value: a whole number
    error: the cursor `x` is not one a previous page gave
    error: unknown card 'Dreepyy'
    error: turns must be from 1 to 30, not 61
    error: draws and prizes must be at most 60000
    error: give `collection` or `collection_path`
    error: unknown layout 'pdf'; expected ptcgl, ptcgo, limitless or json
    error: unknown rule 'nope'
    ");
}
