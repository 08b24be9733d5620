//! The server driven in process through `Connection::memory()`, as an editor drives it.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::collections::VecDeque;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

use super::serve;
use deckbox::settings::Flags;

/// A broken list judged at a fixed date: a card name misspelt, five Dreepy on one line, a
/// card Standard does not allow.
const BROKEN: &str = "# deckbox: as-of=2026-11-01\n\
Pokémon: 2\n\
5 Dreepy TWM 128\n\
Trainer: 2\n\
4 Ultra Bal\n\
1 Computer Search BCR 137\n";

struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
    waiting: VecDeque<Notification>,
    next: i32,
}

impl Client {
    /// A server for the folder `dir`, with `queued` sent before it starts (so it finds
    /// them all waiting).
    fn start(dir: &std::path::Path, queued: Vec<Message>) -> Client {
        let (server, connection) = Connection::memory();
        let initialize = Request::new(
            RequestId::from(0),
            "initialize".to_string(),
            json!({ "capabilities": {}, "rootUri": uri(dir, "") }),
        );
        connection.sender.send(initialize.into()).unwrap();
        let initialized = Notification::new("initialized".to_string(), json!({}));
        connection.sender.send(initialized.into()).unwrap();
        for message in queued {
            connection.sender.send(message).unwrap();
        }
        let flags = Flags::default();
        let handle = std::thread::spawn(move || serve(&server, flags));
        let mut client = Client {
            connection,
            server: Some(handle),
            waiting: VecDeque::new(),
            next: 1,
        };
        let response = client.response(RequestId::from(0));
        let capabilities = &response.result.unwrap()["capabilities"];
        assert_eq!(capabilities["documentFormattingProvider"], json!(true));
        client
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers")
    }

    fn response(&mut self, id: RequestId) -> Response {
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(notification) => self.waiting.push_back(notification),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Response {
        let id = RequestId::from(self.next);
        self.next += 1;
        let request = Request::new(id.clone(), method.to_string(), params);
        self.connection.sender.send(request.into()).unwrap();
        self.response(id)
    }

    fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_string(), params);
        self.connection.sender.send(notification.into()).unwrap();
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Value {
        loop {
            let notification = match self.waiting.pop_front() {
                Some(notification) => notification,
                None => match self.receive() {
                    Message::Notification(notification) => notification,
                    other => panic!("unexpected {other:?}"),
                },
            };
            if notification.method == "textDocument/publishDiagnostics" {
                return notification.params;
            }
        }
    }

    fn stop(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.error.is_none());
        self.notify("exit", Value::Null);
        let served = self.server.take().unwrap().join().unwrap();
        assert_eq!(served, Ok(()));
    }
}

fn uri(dir: &std::path::Path, name: &str) -> String {
    format!("file://{}/{name}", dir.display())
}

fn open(uri: &str, text: &str) -> Message {
    open_as(uri, "decklist", text)
}

/// A `didOpen` of a buffer the editor gives the language id `language`.
fn open_as(uri: &str, language: &str, text: &str) -> Message {
    Notification::new(
        "textDocument/didOpen".to_string(),
        json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
    )
    .into()
}

fn change(uri: &str, version: i32, text: &str) -> Message {
    Notification::new(
        "textDocument/didChange".to_string(),
        json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
    )
    .into()
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn diagnostics_fixes_formatting_hover_completion() {
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, BROKEN)]);

    let published = client.diagnostics();
    assert_eq!(published["uri"], json!(deck));
    let found = codes(&published);
    for code in ["copy-limit", "unknown-card", "not-legal", "deck-size"] {
        assert!(found.contains(&code.to_string()), "{code} in {found:?}");
    }
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let unknown = diagnostics
        .iter()
        .find(|diagnostic| diagnostic["code"] == "unknown-card")
        .unwrap();
    // `Ultra Bal` on line 5 (0-based 4), after `4 `.
    assert_eq!(
        unknown["range"],
        json!({ "start": { "line": 4, "character": 2 }, "end": { "line": 4, "character": 11 } })
    );
    assert!(
        unknown["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("docs/rules.md#unknown-card")
    );
    // `Pokémon` holds a two-byte `é`: the copy-limit's line starts at character 0 of line 2.
    let copies = diagnostics
        .iter()
        .find(|diagnostic| diagnostic["code"] == "copy-limit")
        .unwrap();
    assert_eq!(
        copies["range"]["start"],
        json!({ "line": 2, "character": 0 })
    );

    // Quick fixes: the suggested name, and the count brought to the limit.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": deck },
            "range": { "start": { "line": 4, "character": 3 }, "end": { "line": 4, "character": 3 } },
            "context": { "diagnostics": [] }
        }),
    );
    let actions = actions.result.unwrap();
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|action| action["title"].as_str().unwrap())
        .collect();
    assert!(titles.contains(&"Replace with 'Ultra Ball'"), "{titles:?}");
    assert!(
        titles.contains(&"Format this list (deckbox fmt)"),
        "{titles:?}"
    );
    let fix = &actions[0]["edit"]["changes"][&deck][0];
    assert_eq!(fix["newText"], "Ultra Ball");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": deck },
            "range": { "start": { "line": 2, "character": 0 }, "end": { "line": 2, "character": 0 } },
            "context": { "diagnostics": [], "only": ["quickfix"] }
        }),
    );
    let actions = actions.result.unwrap();
    assert_eq!(actions[0]["title"], "Keep 4 copies");
    assert_eq!(actions[0]["edit"]["changes"][&deck][0]["newText"], "4");
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions}");

    // Hover on Dreepy: its page and its odds in this deck.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 2, "character": 4 } }),
    );
    let hover = hover.result.unwrap();
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("Dreepy"), "{text}");
    assert!(text.contains("TWM 128"), "{text}");

    // Completion of a name, in English and in French, then of a set code.
    let fixed = BROKEN.replace("Ultra Bal\n", "Ultra Ball\n");
    let typing = format!("{fixed}4 Dragap");
    client
        .connection
        .sender
        .send(change(&deck, 2, &typing))
        .unwrap();
    let completion = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 6, "character": 8 } }),
    );
    let items = completion.result.unwrap()["items"].clone();
    let first = &items[0];
    assert_eq!(first["label"], "Dragapult ex", "{items}");
    let inserted = first["textEdit"]["newText"].as_str().unwrap();
    assert!(inserted.starts_with("Dragapult ex "), "{inserted}");
    let typing = format!("{fixed}4 Fantyr");
    client
        .connection
        .sender
        .send(change(&deck, 3, &typing))
        .unwrap();
    let completion = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 6, "character": 9 } }),
    );
    let items = completion.result.unwrap()["items"].clone();
    assert_eq!(items[0]["label"], "Fantyrm", "{items}");
    let typing = format!("{fixed}4 Dreepy ");
    client
        .connection
        .sender
        .send(change(&deck, 4, &typing))
        .unwrap();
    let completion = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 6, "character": 9 } }),
    );
    let items = completion.result.unwrap()["items"].clone();
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"TWM 128"), "{labels:?}");

    // Formatting is `deckbox fmt`'s text: the fixed list formatted has its canonical
    // header counts.
    client
        .connection
        .sender
        .send(change(&deck, 5, &fixed))
        .unwrap();
    let edits = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": deck }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    let edits = edits.result.unwrap();
    let formatted = edits[0]["newText"].as_str().unwrap();
    assert!(formatted.contains("Trainer: 5"), "{formatted}");

    // The outline and the summary.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": deck } }),
    );
    let symbols = symbols.result.unwrap();
    assert_eq!(symbols[0]["name"], "Pokémon: 2");
    assert_eq!(symbols[0]["children"][0]["name"], "5 Dreepy");
    let lens = client.request(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": deck } }),
    );
    let lens = lens.result.unwrap();
    let title = lens[0]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with("10 cards, "), "{title}");
    client.stop();
}

#[test]
fn a_burst_of_edits_is_checked_once_at_its_last_text() {
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut queued = vec![open(&deck, BROKEN)];
    for version in 2..=30 {
        queued.push(change(
            &deck,
            version,
            &BROKEN.replace("5 Dreepy", "4 Dreepy"),
        ));
    }
    let mut client = Client::start(dir.path(), queued);
    let published = client.diagnostics();
    assert_eq!(published["version"], 30);
    assert!(!codes(&published).contains(&"copy-limit".to_string()));
    // Nothing else was published: the next message is the answer to this request.
    let response = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": deck } }),
    );
    assert!(response.error.is_none());
    assert!(client.waiting.is_empty(), "{:?}", client.waiting);
    client.stop();
}

#[test]
fn a_config_change_is_picked_up_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("deckbox.toml"), "format = \"standard\"\n").unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, BROKEN)]);
    assert!(codes(&client.diagnostics()).contains(&"not-legal".to_string()));
    std::fs::write(
        dir.path().join("deckbox.toml"),
        "# Expanded from now on\nformat = \"expanded\"\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(dir.path(), "deckbox.toml"), "type": 2 }] }),
    );
    let published = client.diagnostics();
    assert!(
        !codes(&published).contains(&"not-legal".to_string()),
        "{published}"
    );
    client.stop();
}

#[test]
fn bad_input_gets_an_error_never_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    // Past `check`'s bounds: one diagnostic saying so, as `check` would.
    let huge = "4 Dreepy TWM 128\n".repeat(200_001);
    let binary = String::from_utf8_lossy(&[0, 159, 146, 150, 0, 255, 10, 13, 0]).into_owned();
    let queued = vec![open(&deck, &huge)];
    let mut client = Client::start(dir.path(), queued);
    let published = client.diagnostics();
    let message = published["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("lines; a deck list may have at most"),
        "{message}"
    );
    client
        .connection
        .sender
        .send(change(&deck, 2, &binary))
        .unwrap();
    client.diagnostics();
    // A request whose params are not what the method takes.
    let response = client.request("textDocument/hover", json!({ "bogus": 1 }));
    let error = response.error.unwrap();
    assert_eq!(error.code, lsp_server::ErrorCode::InvalidParams as i32);
    let response = client.request("deckbox/unknown", json!({}));
    assert_eq!(
        response.error.unwrap().code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    // A notification it cannot read, and a buffer never opened.
    client.notify("textDocument/didChange", json!({ "nonsense": true }));
    let response = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri(dir.path(), "never.txt") }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert!(response.error.is_some());
    client.stop();
}

/// The quick fix's edits of the first action offered at `line` (0-based) for `code`.
fn fix_at(client: &mut Client, deck: &str, line: u32, code: &str) -> (String, Value) {
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": deck },
            "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } },
            "context": { "diagnostics": [], "only": ["quickfix"] }
        }),
    );
    let actions = actions.result.unwrap();
    let action = (actions.as_array().unwrap().iter())
        .find(|action| action["diagnostics"][0]["code"] == code)
        .unwrap_or_else(|| panic!("no fix for {code}: {actions}"));
    (
        action["title"].as_str().unwrap().to_string(),
        action["edit"]["changes"][deck].clone(),
    )
}

#[test]
fn copies_over_several_lines_and_a_header_count_have_fixes() {
    // Six Dreepy on three lines (at most 4), under a header that says 9.
    let text = "# deckbox: as-of=2026-11-01\n\
Pokémon: 9\n\
3 Dreepy TWM 128\n\
2x Dreepy TWM 128\n\
1 Dreepy TWM 128\n\
Trainer: 4\n\
4 Ultra Ball MEG 131\n\
Total Cards: 10\n";
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, text)]);
    let found = codes(&client.diagnostics());
    assert!(found.contains(&"copy-limit".to_string()), "{found:?}");
    // The last line goes, the one before loses one copy: 3 + 1 = 4.
    let (title, edits) = fix_at(&mut client, &deck, 2, "copy-limit");
    assert_eq!(title, "Keep 4 copies");
    assert_eq!(
        edits,
        json!([
            { "range": { "start": { "line": 3, "character": 0 }, "end": { "line": 3, "character": 1 } }, "newText": "1" },
            { "range": { "start": { "line": 4, "character": 0 }, "end": { "line": 5, "character": 0 } }, "newText": "" },
        ])
    );
    // The header says 9 of a section of 6 cards on 3 lines: `write 6`.
    let (title, edits) = fix_at(&mut client, &deck, 1, "header-count");
    assert_eq!(title, "Write 6");
    assert_eq!(
        edits,
        json!([{ "range": { "start": { "line": 1, "character": 9 }, "end": { "line": 1, "character": 10 } }, "newText": "6" }])
    );
    client.stop();
}

#[test]
fn a_byte_order_mark_shifts_no_position() {
    // Editors count a BOM the client sends as one UTF-16 unit of the first line.
    let text = "\u{feff}5 Dreepy TWM 128\n4 Ultra Bal\n";
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, text)]);
    let published = client.diagnostics();
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let range_of = |code: &str| {
        (diagnostics.iter())
            .find(|diagnostic| diagnostic["code"] == code)
            .unwrap_or_else(|| panic!("{code} in {published}"))["range"]
            .clone()
    };
    assert_eq!(
        range_of("copy-limit"),
        json!({ "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 17 } })
    );
    assert_eq!(
        range_of("unknown-card"),
        json!({ "start": { "line": 1, "character": 2 }, "end": { "line": 1, "character": 11 } })
    );
    let (_, edits) = fix_at(&mut client, &deck, 0, "copy-limit");
    assert_eq!(
        edits,
        json!([{ "range": { "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 2 } }, "newText": "4" }])
    );
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 0, "character": 0 } }),
    );
    let hover = hover.result.unwrap();
    assert_eq!(
        hover["range"],
        json!({ "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 17 } })
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("TWM 128")
    );
    // Completion on the first line: the name after the count and the BOM.
    client
        .connection
        .sender
        .send(change(&deck, 2, "\u{feff}4 Dragap"))
        .unwrap();
    let completion = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": deck }, "position": { "line": 0, "character": 9 } }),
    );
    let items = completion.result.unwrap()["items"].clone();
    assert_eq!(items[0]["label"], "Dragapult ex", "{items}");
    assert_eq!(
        items[0]["textEdit"]["range"],
        json!({ "start": { "line": 0, "character": 3 }, "end": { "line": 0, "character": 9 } })
    );
    client.stop();
}

#[test]
fn a_card_legal_as_a_reprint_gets_a_printing_of_the_format() {
    let text = "# deckbox: as-of=2026-11-01\n4 Ultra Ball SVI 196\n";
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, text)]);
    let found = codes(&client.diagnostics());
    assert!(found.contains(&"legal-as-reprint".to_string()), "{found:?}");
    let (title, edits) = fix_at(&mut client, &deck, 1, "legal-as-reprint");
    let printing = title
        .strip_prefix("Play Ultra Ball ")
        .unwrap_or_else(|| panic!("{title}"));
    assert_ne!(printing, "SVI 196");
    // The name and the code after the count, replaced.
    assert_eq!(
        edits,
        json!([{ "range": { "start": { "line": 1, "character": 2 }, "end": { "line": 1, "character": 20 } }, "newText": format!("Ultra Ball {printing}") }])
    );
    client.stop();
}

/// A file `check DIR` would not check (here `notes.txt`, outside the `[files]` globs) gets
/// nothing, with the very text that gets findings, a hover, names, fixes, formatting and a
/// summary in `decks/deck.txt`.
#[test]
fn only_the_files_check_would_check_get_answers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deckbox.toml"),
        "[files]\ninclude = [\"decks/*.txt\"]\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("decks")).unwrap();
    let notes = uri(dir.path(), "notes.txt");
    let deck = uri(dir.path(), "decks/deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&notes, BROKEN), open(&deck, BROKEN)]);
    let mut published = [client.diagnostics(), client.diagnostics()];
    published.sort_by_key(|params| params["uri"].as_str().unwrap().to_string());
    assert_eq!(published[0]["uri"], json!(deck));
    assert!(codes(&published[0]).contains(&"copy-limit".to_string()));
    assert_eq!(published[1]["uri"], json!(notes));
    assert_eq!(published[1]["diagnostics"], json!([]));
    // Line 2 is `5 Dreepy TWM 128`, line 4 `4 Ultra Bal`.
    let at = |uri: &str, line: u32, character: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
    let whole = |uri: &str| {
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 6, "character": 0 } },
            "context": { "diagnostics": [] },
            "options": { "tabSize": 4, "insertSpaces": true },
        })
    };
    let mut answers = |uri: &str| {
        [
            client.request("textDocument/hover", at(uri, 2, 4)),
            client.request("textDocument/completion", at(uri, 4, 11)),
            client.request("textDocument/codeAction", whole(uri)),
            client.request("textDocument/formatting", whole(uri)),
            client.request("textDocument/codeLens", whole(uri)),
            client.request("textDocument/documentSymbol", whole(uri)),
        ]
        .map(|response| {
            assert!(response.error.is_none(), "{response:?}");
            response.result.unwrap()
        })
    };
    let [hover, completion, actions, formatting, lens, symbols] = answers(&deck);
    assert!(hover["contents"]["value"].to_string().contains("Dreepy"));
    let names = completion["items"].to_string();
    assert!(names.contains("Ultra Ball"), "{names}");
    for answer in [&actions, &formatting, &lens, &symbols] {
        assert!(!answer.as_array().unwrap().is_empty(), "{answer}");
    }
    let [hover, completion, actions, formatting, lens, symbols] = answers(&notes);
    assert_eq!(hover, Value::Null);
    assert_eq!(completion, Value::Null);
    for answer in [&actions, &formatting, &lens, &symbols] {
        assert_eq!(answer, &json!([]));
    }
    client.stop();
}

/// Completion and hover in each of the six languages deckbox reads: part of Rare Candy's
/// name in that language completes to its name there, with a set and number, and hovering
/// the line written shows the card.
#[test]
fn completion_and_hover_in_every_language() {
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, "")]);
    client.diagnostics();
    let typed = [
        ("Rare Can", "Rare Candy"),
        ("Super Bon", "Super Bonbon"),
        ("Caramelo R", "Caramelo Raro"),
        ("Sonderbon", "Sonderbonbon"),
        ("Caramella r", "Caramella rara"),
        ("Doce R", "Doce Raro"),
    ];
    for (version, (part, name)) in (2..).zip(typed) {
        let text = format!("4 {part}");
        let sender = &client.connection.sender;
        sender.send(change(&deck, version, &text)).unwrap();
        let end = u32::try_from(text.len()).unwrap();
        let completion = client.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": deck }, "position": { "line": 0, "character": end } }),
        );
        let items = completion.result.unwrap()["items"].clone();
        let item = items
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["label"] == name)
            .unwrap_or_else(|| panic!("{part}: {items}"));
        let inserted = item["textEdit"]["newText"].as_str().unwrap();
        assert!(inserted.starts_with(&format!("{name} ")), "{inserted}");
        let line = format!("4 {inserted}\n");
        let sender = &client.connection.sender;
        sender.send(change(&deck, version + 10, &line)).unwrap();
        let hover = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": deck }, "position": { "line": 0, "character": 3 } }),
        );
        let shown = hover.result.unwrap()["contents"]["value"].to_string();
        assert!(shown.contains("Rare Candy"), "{name}: {shown}");
    }
    client.stop();
}

/// Issue 45: "a missing header" is a quick fix. Trainers under the Pokémon header of a
/// French list (its headers `Pokémon :` and `Énergie :`) get `wrong-section`; its fix adds
/// the header the list lacks, in the list's words and counting as its headers do, after
/// which neither that finding nor the Pokémon header's count is left.
#[test]
fn trainers_under_the_pokemon_header_get_their_header() {
    let text = "Pokémon : 6\n\
4 Dreepy TWM 128\n\
2 Drakloak TWM 129\n\
4 Ultra Ball MEG 131\n\
1 Iono PAL 185\n\
Énergie : 3\n\
3 Psychic Energy SVE 5\n";
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.txt");
    let mut client = Client::start(dir.path(), vec![open(&deck, text)]);
    let found = codes(&client.diagnostics());
    assert!(found.contains(&"wrong-section".to_string()), "{found:?}");
    assert!(found.contains(&"header-count".to_string()), "{found:?}");
    let (title, edits) = fix_at(&mut client, &deck, 3, "wrong-section");
    assert_eq!(title, "Add the header 'Dresseur : 5'");
    assert_eq!(
        edits,
        json!([{ "range": { "start": { "line": 3, "character": 0 }, "end": { "line": 3, "character": 0 } }, "newText": "Dresseur : 5\n" }])
    );
    let fixed = text.replacen("4 Ultra Ball", "Dresseur : 5\n4 Ultra Ball", 1);
    (client.connection.sender)
        .send(change(&deck, 2, &fixed))
        .unwrap();
    let found = codes(&client.diagnostics());
    assert!(!found.contains(&"wrong-section".to_string()), "{found:?}");
    assert!(!found.contains(&"header-count".to_string()), "{found:?}");
    client.stop();
}

/// A `*.json` deck list is checked without a `[files]` entry (JSON is not among the default
/// patterns): read strictly, it is a deck list; `package.json`, opened as JSON beside it, is
/// none and gets nothing. Once a deck list, a JSON buffer broken while typed keeps a
/// diagnostic saying why, rather than going quiet.
#[test]
fn a_json_deck_list_is_checked_and_other_json_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let deck = uri(dir.path(), "deck.json");
    let package = uri(dir.path(), "package.json");
    let list = r#"{"pokemon": [{"count": 5, "name": "Dreepy", "set": "TWM", "number": "128"}]}"#;
    let manifest =
        r#"{"name": "decks", "version": "1.0.0", "scripts": {"test": "deckbox check ."}}"#;
    let mut client = Client::start(
        dir.path(),
        vec![
            open_as(&deck, "json", list),
            open_as(&package, "json", manifest),
        ],
    );
    let mut published = [client.diagnostics(), client.diagnostics()];
    published.sort_by_key(|params| params["uri"].as_str().unwrap().to_string());
    assert_eq!(published[0]["uri"], json!(deck));
    let found = codes(&published[0]);
    assert!(found.contains(&"copy-limit".to_string()), "{found:?}");
    assert_eq!(published[1]["uri"], json!(package));
    assert_eq!(published[1]["diagnostics"], json!([]));
    let whole = |uri: &str| json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } });
    let lens = client.request("textDocument/codeLens", whole(&package));
    assert_eq!(lens.result.unwrap(), json!([]));
    let lens = client.request("textDocument/codeLens", whole(&deck));
    assert!(lens.result.unwrap().to_string().contains("5 cards"));
    // Broken mid-edit: one diagnostic saying it is not a deck list deckbox can read.
    client
        .connection
        .sender
        .send(change(&deck, 2, r#"{"pokemon": [{"count": 5, "#))
        .unwrap();
    let broken = client.diagnostics();
    assert_eq!(broken["uri"], json!(deck));
    let said = broken["diagnostics"].to_string();
    assert!(said.contains("not a deck list"), "{said}");
    client.stop();
}

/// A JSON deck list in a folder `[files] exclude` leaves out gets nothing, as `check .` would
/// skip it; a buffer the editor says is JSON is read as one whatever its name (an unsaved
/// buffer, a file with no extension).
#[test]
fn an_excluded_json_deck_is_left_alone_and_json_is_known_by_its_language() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deckbox.toml"),
        "[files]\nexclude = [\"archive/*\"]\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("archive")).unwrap();
    let list = r#"{"pokemon": [{"count": 5, "name": "Dreepy", "set": "TWM", "number": "128"}]}"#;
    let archived = uri(dir.path(), "archive/old.json");
    let unnamed = uri(dir.path(), "list");
    let mut client = Client::start(
        dir.path(),
        vec![
            open_as(&archived, "json", list),
            open_as(&unnamed, "json", list),
        ],
    );
    let mut published = [client.diagnostics(), client.diagnostics()];
    published.sort_by_key(|params| params["uri"].as_str().unwrap().to_string());
    assert_eq!(published[0]["uri"], json!(archived));
    assert_eq!(published[0]["diagnostics"], json!([]));
    assert_eq!(published[1]["uri"], json!(unnamed));
    let found = codes(&published[1]);
    assert!(found.contains(&"copy-limit".to_string()), "{found:?}");
    client.stop();
}
