//! `deckbox lsp` as a real process fed by a client that writes many messages at once (a
//! script, an editor closing fast): the server reads them as one batch, and every buffer
//! opened or changed before `shutdown` still gets its diagnostics, before the answer to
//! `shutdown`. The protocol in detail is tested in process (`src/cli/lsp/tests.rs`).
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common;

/// Five Dreepy and nothing else: `copy-limit` and `deck-size`.
const FIVE: &str = "# deckbox: as-of=2026-11-01\n5 Dreepy TWM 128\n";
/// Four Dreepy: `deck-size` only.
const FOUR: &str = "# deckbox: as-of=2026-11-01\n4 Dreepy TWM 128\n";

/// The messages framed as the protocol frames them, in one buffer: one write.
fn framed(messages: &[Value]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for message in messages {
        let body = message.to_string();
        write!(bytes, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    }
    bytes
}

/// The next message the server wrote, `None` at the end of its output.
fn next(out: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            return None;
        }
        match line.trim_end() {
            "" => break,
            header => {
                if let Some(value) = header.strip_prefix("Content-Length: ") {
                    length = Some(value.parse::<usize>().unwrap());
                }
            }
        }
    }
    let mut body = vec![0; length.unwrap()];
    out.read_exact(&mut body).unwrap();
    Some(serde_json::from_slice(&body).unwrap())
}

fn server(dir: &std::path::Path) -> Child {
    common::deckbox_command()
        .arg("lsp")
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `initialize`, `initialized`, two lists opened, the first changed, and `shutdown` (id 1).
fn opened_then_shutdown(dir: &std::path::Path) -> (Vec<Value>, [String; 2]) {
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let (a, b) = (uri("a.txt"), uri("b.txt"));
    let open = |uri: &str, text: &str| {
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "decklist", "version": 1, "text": text}}})
    };
    let messages = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        open(&a, FIVE),
        open(&b, FIVE),
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": a, "version": 2}, "contentChanges": [{"text": FOUR}]}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": null}),
    ];
    (messages, [a, b])
}

/// What the server said before its answer to `shutdown`: the rule ids of the last
/// diagnostics published for each of `uris`, with their version.
fn published_before_shutdown(said: &[Value], uris: &[String; 2]) -> Vec<(u64, Vec<String>)> {
    let answer = said.iter().position(|message| message["id"] == json!(1));
    let answer = answer.unwrap_or_else(|| panic!("no answer to shutdown: {said:?}"));
    assert_eq!(said[answer]["result"], Value::Null, "{said:?}");
    uris.iter()
        .map(|uri| {
            let last = said[..answer].iter().rev().find(|message| {
                message["method"] == "textDocument/publishDiagnostics"
                    && message["params"]["uri"] == json!(uri)
            });
            let params =
                &last.unwrap_or_else(|| panic!("no diagnostics for {uri}: {said:?}"))["params"];
            let mut codes: Vec<String> = (params["diagnostics"].as_array().unwrap().iter())
                .map(|diagnostic| diagnostic["code"].as_str().unwrap().to_string())
                .collect();
            codes.sort();
            (params["version"].as_u64().unwrap(), codes)
        })
        .collect()
}

fn expected() -> Vec<(u64, Vec<String>)> {
    vec![
        (2, vec!["deck-size".to_string()]),
        (1, vec!["copy-limit".to_string(), "deck-size".to_string()]),
    ]
}

/// Everything up to `exit` in one write, then the input closed: the server answers every
/// buffer, then `shutdown`, and exits 0 at once (it once waited 30 s for an `exit` it had
/// already read, and failed).
#[test]
fn diagnostics_come_before_shutdown_when_exit_is_in_the_same_write() {
    let dir = tempfile::tempdir().unwrap();
    let (mut messages, uris) = opened_then_shutdown(dir.path());
    messages.push(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let started = Instant::now();
    let mut child = server(dir.path());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&framed(&messages)).unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(took < Duration::from_secs(20), "took {took:?}");
    let mut out = output.stdout.as_slice();
    let said: Vec<Value> = std::iter::from_fn(|| next(&mut out)).collect();
    assert_eq!(published_before_shutdown(&said, &uris), expected());
}

/// `shutdown` in the same write as the edits, `exit` only once it is answered, as an
/// editor closing does: the diagnostics still come first.
#[test]
fn diagnostics_come_before_shutdown_sent_with_the_edits() {
    let dir = tempfile::tempdir().unwrap();
    let (messages, uris) = opened_then_shutdown(dir.path());
    let mut child = server(dir.path());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&framed(&messages)).unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut said = Vec::new();
    while let Some(message) = next(&mut out) {
        let answered = message["id"] == json!(1);
        said.push(message);
        if answered {
            break;
        }
    }
    assert_eq!(published_before_shutdown(&said, &uris), expected());
    // A request after `shutdown` is refused; `exit` ends the server.
    let late = json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uris[0]}, "position": {"line": 1, "character": 3}}});
    let exit = json!({"jsonrpc": "2.0", "method": "exit", "params": null});
    stdin.write_all(&framed(&[late])).unwrap();
    stdin.flush().unwrap();
    let refused = next(&mut out).unwrap();
    assert_eq!(refused["id"], json!(2), "{refused}");
    assert!(refused["error"]["message"].is_string(), "{refused}");
    stdin.write_all(&framed(&[exit])).unwrap();
    drop(stdin);
    assert!(next(&mut out).is_none());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
