//! One answer on every face, on real lists: for a spread of the corpus (`tests/corpus/`, at
//! least three lists of each layout and language and one of each source: JSON records,
//! forum posts, headers in other languages, a French export with CRLF line ends), what
//! `deckbox check --output json` says at the manifest's date and format is what the other
//! faces say at the same date and format:
//!
//! - `deckbox lsp --format F --as-of D` (one real process per date and format), its
//!   published diagnostics (rule, line, severity, in order) and its code lens (card count,
//!   verdict), the buffer being the file's text as an editor decodes it;
//! - `deckbox mcp`'s `check_deck` tool, given the list by path and by text (one session);
//! - the web page's `check` (the WebAssembly build run in Node, as `web_node` does), given
//!   the text the page makes of the file's bytes when it is dropped on it (`decodeList`).
//!
//! Every face takes the date and format as options, so each is compared at the manifest's;
//! those that judge in every format (`check_deck` and the page with `format: all`) are also
//! compared with `check --format all --output json` at that date.
//! The French export is also written in UTF-8 with a byte order mark, UTF-16 (both byte
//! orders) and Windows-1252: a face given text (editor, `deck`) gets it decoded as the
//! library decodes the file, and every face says the same but for the `encoding` finding,
//! which only a face reading the bytes itself (`check`, `deck_path`) can give.
//!
//! The lists are copied into a folder whose `deckbox.toml` adds `*.json` to the files
//! checked (the `[files]` table): the language server answers only for files `deckbox check
//! DIR` would check (docs/editors.md), and a user keeping JSON lists says so there.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::common::{self, deckbox_command};

const TEST: &str = "faces_corpus";

/// Lists of each layout and of each language picked (with one of each source).
const PER_KIND: usize = 3;

/// The config every face reads: JSON lists count as deck lists.
const CONFIG: &str = "[files]\ninclude = [\"*.txt\", \"*.json\"]\n";

/// One list of the manifest.
#[derive(Debug, Clone)]
struct Pick {
    path: String,
    date: String,
    format: String,
}

/// What a face says of one list: verdict, card count, and each finding's rule, line (1-based;
/// the first line for a finding about the whole deck) and severity, in order; and, from a
/// face that judges in every format, the verdicts of `--format all` (else null).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    valid: bool,
    cards: u64,
    findings: Vec<(String, u64, String)>,
    all: Value,
}

fn corpus() -> PathBuf {
    common::repo().join("tests/corpus")
}

/// The French export of the spread (CRLF line ends, accented names), written again in the
/// encodings a file may come in: each is one more list, dated and judged as its source.
const ENCODED: &str = "lists/ptcgl-decklist-parser/decklist-fr.txt";

/// The encodings [`ENCODED`] is written in: a name and the bytes of its text.
type Encoder = fn(&str) -> Vec<u8>;
const ENCODINGS: [(&str, Encoder); 4] = [
    ("utf8-bom", |text| {
        [&b"\xef\xbb\xbf"[..], text.as_bytes()].concat()
    }),
    ("utf16le-bom", |text| {
        let units = text.encode_utf16().flat_map(u16::to_le_bytes);
        [0xff, 0xfe].into_iter().chain(units).collect()
    }),
    ("utf16be-bom", |text| {
        let units = text.encode_utf16().flat_map(u16::to_be_bytes);
        [0xfe, 0xff].into_iter().chain(units).collect()
    }),
    // Windows-1252 (every character of the list is in Latin-1, which it extends).
    ("windows-1252", |text| {
        text.chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap())
            .collect()
    }),
];

/// A folder holding every list of `picks` at its path, the encoded copies of [`ENCODED`]
/// (added to `picks`) and the config file [`CONFIG`].
fn workspace(picks: &mut Vec<Pick>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for pick in picks.iter() {
        let to = dir.path().join(&pick.path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(corpus().join(&pick.path), to).unwrap();
    }
    let source = picks
        .iter()
        .find(|pick| pick.path == ENCODED)
        .unwrap()
        .clone();
    let text = std::fs::read_to_string(corpus().join(ENCODED)).unwrap();
    std::fs::create_dir(dir.path().join("encoded")).unwrap();
    for (name, encode) in ENCODINGS {
        let path = format!("encoded/{name}.txt");
        std::fs::write(dir.path().join(&path), encode(&text)).unwrap();
        picks.push(Pick {
            path,
            ..source.clone()
        });
    }
    std::fs::write(dir.path().join("deckbox.toml"), CONFIG).unwrap();
    dir
}

/// The spread: walking the manifest in order, a list is picked when its layout or its
/// language has fewer than [`PER_KIND`] picks, or its source none.
fn picks() -> Vec<Pick> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut picked = Vec::new();
    for entry in crate::corpus::manifest() {
        let source = entry.path.split('/').nth(1).unwrap();
        let keys = [
            (format!("layout {}", entry.layout), PER_KIND),
            (format!("language {}", entry.language), PER_KIND),
            (format!("source {source}"), 1),
        ];
        if !(keys.iter()).any(|(key, most)| counts.get(key).copied().unwrap_or(0) < *most) {
            continue;
        }
        for (key, _) in keys {
            *counts.entry(key).or_default() += 1;
        }
        picked.push(Pick {
            path: entry.path,
            date: entry.date,
            format: entry.format,
        });
    }
    picked
}

/// A finding of `check --output json` (or `check_deck`, or the page): its rule, line and
/// severity.
fn finding(diagnostic: &Value) -> (String, u64, String) {
    (
        diagnostic["rule"].as_str().unwrap().to_string(),
        diagnostic["line"].as_u64().unwrap_or(1),
        diagnostic["severity"].as_str().unwrap().to_string(),
    )
}

/// What a deck of `check --output json` says.
fn said(deck: &Value) -> Said {
    Said {
        valid: deck["valid"].as_bool().unwrap(),
        cards: deck["card_count"].as_u64().unwrap(),
        findings: deck["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(finding)
            .collect(),
        all: Value::Null,
    }
}

/// The verdicts in every format of a `check --format all --output json` document, of its
/// one deck; `"refused"` when there is none (a date before one of the formats began).
fn everywhere(json: Option<&str>) -> Value {
    let Some(json) = json else {
        return json!("refused");
    };
    let report: Value =
        serde_json::from_str(json).unwrap_or_else(|error| panic!("{error}: {json}"));
    assert_eq!(report.as_array().map(Vec::len), Some(1), "{json}");
    report[0]["formats"].clone()
}

/// The one deck of a `check --output json` document.
fn only_deck(json: &str) -> Value {
    let report: Value =
        serde_json::from_str(json).unwrap_or_else(|error| panic!("{error}: {json}"));
    let decks = report["decks"].as_array().unwrap();
    assert_eq!(decks.len(), 1, "{json}");
    decks[0].clone()
}

/// The text of a list as an editor or a page holds it: its bytes decoded as the library
/// decodes them.
fn text_of(root: &Path, pick: &Pick) -> String {
    deckbox::deck::decode(&std::fs::read(root.join(&pick.path)).unwrap()).text
}

/// `deckbox check --output json` on each list, in its format and in all.
fn cli(root: &Path, picks: &[Pick]) -> Vec<Said> {
    picks
        .iter()
        .map(|pick| {
            let run = |format: &str| {
                let output = deckbox_command()
                    .current_dir(root)
                    .args(["check", "--output", "json"])
                    .args(["--format", format, "--as-of", &pick.date, &pick.path])
                    .env_remove("DECKBOX_CARDS")
                    .env_remove("DECKBOX_FORMAT")
                    .output()
                    .unwrap();
                let json = String::from_utf8(output.stdout).unwrap();
                (output.status.code() != Some(2)).then_some(json)
            };
            Said {
                all: everywhere(run("all").as_deref()),
                ..said(&only_deck(&run(&pick.format).unwrap()))
            }
        })
        .collect()
}

/// `deckbox mcp`'s `check_deck` on each list, by path then by text, each in its format and
/// in all, in one session.
fn mcp(root: &Path, picks: &[Pick]) -> Vec<(Said, Said)> {
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "suite", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (index, pick) in picks.iter().enumerate() {
        let by_path = json!({"deck_path": root.join(&pick.path),
            "format": pick.format, "as_of": pick.date});
        let by_text =
            json!({"deck": text_of(root, pick), "format": pick.format, "as_of": pick.date});
        for (id, mut arguments) in (4 * index + 1..).step_by(2).zip([by_path, by_text]) {
            lines.push(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "check_deck", "arguments": arguments}}));
            arguments["format"] = json!("all");
            lines.push(
                json!({"jsonrpc": "2.0", "id": id + 1, "method": "tools/call",
                "params": {"name": "check_deck", "arguments": arguments}}),
            );
        }
    }
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    // The server's roots are its working folder.
    let mut command = deckbox_command();
    command
        .current_dir(root)
        .arg("mcp")
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT");
    let output = piped(&mut command, input);
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let answer = |id: usize, pick: &Pick| {
        let found = answers.iter().find(|answer| answer["id"] == json!(id));
        let result = &found.unwrap_or_else(|| panic!("no answer {id} for {}", pick.path))["result"];
        let text = result["content"][0]["text"].as_str().unwrap().to_string();
        (result["isError"] != json!(true)).then_some(text)
    };
    let both = |id: usize, pick: &Pick| Said {
        all: everywhere(answer(id + 1, pick).as_deref()),
        ..said(&only_deck(&answer(id, pick).unwrap()))
    };
    (picks.iter().enumerate())
        .map(|(index, pick)| (both(4 * index + 1, pick), both(4 * index + 3, pick)))
        .collect()
}

/// Runs `command` with `input` on its standard input, written while its output is read
/// (a long input and a long output would otherwise each wait for the other).
fn piped(command: &mut Command, input: String) -> std::process::Output {
    let mut child = (command.stdin(Stdio::piped()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

/// A language server over pipes, speaking `Content-Length` framed JSON.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = Some(value.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.unwrap()];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// The answer to request `id` (notifications before it are dropped).
    fn answer(&mut self, id: u64) -> Value {
        loop {
            let message = self.receive();
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
        }
    }
}

/// `deckbox lsp`, one process per date and format: each list opened as its file, its
/// published diagnostics and its code lens.
fn lsp(root: &Path, picks: &[Pick]) -> Vec<Said> {
    let mut groups: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (index, pick) in picks.iter().enumerate() {
        groups
            .entry((&pick.format, &pick.date))
            .or_default()
            .push(index);
    }
    let mut found: BTreeMap<usize, Said> = BTreeMap::new();
    for ((format, date), group) in groups {
        let mut child = deckbox_command()
            .current_dir(root)
            .args(["lsp", "--format", format, "--as-of", date])
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        };
        server.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
        server.answer(0);
        server.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        let uri = |index: usize| {
            format!(
                "file://{}",
                root.join(&picks[index].path)
                    .display()
                    .to_string()
                    .replace(' ', "%20")
            )
        };
        for &index in &group {
            server.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri(index), "languageId": "decklist",
                    "version": 1, "text": text_of(root, &picks[index])}}}));
        }
        let mut published: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        while published.len() < group.len() {
            let message = server.receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                let params = &message["params"];
                let diagnostics = params["diagnostics"].as_array().unwrap().clone();
                published.insert(params["uri"].as_str().unwrap().to_string(), diagnostics);
            }
        }
        for (id, &index) in (1..).zip(&group) {
            server.send(
                &json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeLens",
                "params": {"textDocument": {"uri": uri(index)}}}),
            );
            let lens = server.answer(id);
            let title = lens["result"][0]["command"]["title"].as_str();
            let title = title.unwrap_or_else(|| panic!("{}: {lens}", picks[index].path));
            let (cards, verdict) = title.split_once(" cards, ").unwrap();
            let severity = |code: u64| match code {
                1 => "error",
                2 => "warning",
                _ => "info",
            };
            let findings = published[&uri(index)]
                .iter()
                .map(|diagnostic| {
                    (
                        diagnostic["code"].as_str().unwrap().to_string(),
                        diagnostic["range"]["start"]["line"].as_u64().unwrap() + 1,
                        severity(diagnostic["severity"].as_u64().unwrap()).to_string(),
                    )
                })
                .collect();
            let said = Said {
                valid: verdict.starts_with("valid"),
                cards: cards.parse().unwrap(),
                findings,
                all: Value::Null,
            };
            found.insert(index, said);
        }
        server.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "shutdown"}));
        server.answer(0);
        server.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
        assert!(server.child.wait().unwrap().success());
    }
    found.into_values().collect()
}

/// The web page's `check` on each list, in Node, given the text the page makes of the file
/// dropped on it (`decodeList`); `None` when Node or the build tools are missing.
fn web(root: &Path, picks: &[Pick]) -> Option<Vec<Said>> {
    let glue = crate::web_node::built_node_glue(TEST)?;
    let script = r#"
const deckbox = require(process.argv[1]);
// The page's verdict once the card texts came (it draws the verdict again then): a note
// naming a move chooses its card by them.
const path = require("node:path");
deckbox.loadTexts(require("node:fs").readFileSync(path.join(path.dirname(process.argv[1]), "deckbox_texts.bin")));
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const answers = JSON.parse(input).map(([bytes, options]) => {
    const text = deckbox.decodeList(Uint8Array.from(bytes));
    try { return deckbox.check(text, JSON.stringify(options)); } catch (error) { return null; }
  });
  process.stdout.write(JSON.stringify(answers));
});
"#;
    let calls: Vec<Value> = (picks.iter())
        .flat_map(|pick| {
            let bytes = std::fs::read(root.join(&pick.path)).unwrap();
            [
                json!([bytes, {"format": pick.format, "date": pick.date}]),
                json!([bytes, {"format": "all", "date": pick.date}]),
            ]
        })
        .collect();
    let mut command = Command::new("node");
    command.args(["-e", script]).arg(glue);
    let output = piped(&mut command, Value::from(calls).to_string());
    assert!(output.status.success(), "node failed");
    let answers: Vec<Option<String>> = serde_json::from_slice(&output.stdout).unwrap();
    let both = |pair: &[Option<String>]| Said {
        all: everywhere(pair[1].as_deref()),
        ..said(&only_deck(pair[0].as_deref().unwrap()))
    };
    Some(answers.chunks(2).map(both).collect())
}

#[test]
fn every_face_says_what_check_says_on_corpus_lists() {
    let mut picks = picks();
    assert!(picks.len() >= 40, "{} lists", picks.len());
    let dir = workspace(&mut picks);
    let root = dir.path();
    let expected = cli(root, &picks);
    // Each face, and whether it is given text (decoded by the editor, the page or the
    // assistant) rather than the file's bytes: such a face cannot say the file was in
    // another encoding than UTF-8 (the `encoding` finding), and says all the rest.
    let mut faces: Vec<(&str, bool, Vec<Said>)> = Vec::new();
    let (by_path, by_text) = mcp(root, &picks).into_iter().unzip();
    faces.push(("mcp check_deck deck_path", false, by_path));
    faces.push(("mcp check_deck deck", true, by_text));
    faces.push(("lsp", true, lsp(root, &picks)));
    if let Some(web) = web(root, &picks) {
        faces.push(("web check", true, web));
    }
    let mut differences = Vec::new();
    for (face, text, answers) in &faces {
        for ((pick, want), got) in picks.iter().zip(&expected).zip(answers) {
            let (mut want, mut got) = (want.clone(), got.clone());
            let legacy = (want.findings.iter()).any(|(rule, _, _)| rule == "encoding");
            if *text {
                want.findings.retain(|(rule, _, _)| rule != "encoding");
            }
            // The verdicts in every format count the `encoding` warning.
            if got.all.is_null() || (*text && legacy) {
                (want.all, got.all) = (Value::Null, Value::Null);
            }
            if want != got {
                differences.push(format!(
                    "{face} on {} ({} {}):\n  check: {want:?}\n  {face}: {got:?}",
                    pick.path, pick.format, pick.date
                ));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
    // The encoded copies say what the list says, and the legacy ones that they are.
    let french = &expected[picks.iter().position(|pick| pick.path == ENCODED).unwrap()];
    for (pick, said) in picks.iter().zip(&expected).rev().take(ENCODINGS.len()) {
        let mut said = said.clone();
        let legacy = said.findings.iter().any(|(rule, _, _)| rule == "encoding");
        assert_eq!(
            legacy,
            !pick.path.ends_with("utf8-bom.txt"),
            "{}",
            pick.path
        );
        said.findings.retain(|(rule, _, _)| rule != "encoding");
        if legacy {
            // Its verdicts in every format count one warning more.
            said.all = french.all.clone();
        }
        assert_eq!(said, *french, "{}", pick.path);
    }
}
