//! deckbox's web page (`cargo xtask web`, docs/web.md) in a real browser: headless Chromium
//! driven by Selenium (`web_browser.py`) loads `target/web` from a local server on
//! 127.0.0.1, pastes a broken list and sees its findings, fixes it by adding the missing
//! card from a search, reads P(mulligan), opens the share link in a fresh tab and gets the
//! same page. On the way: the first load carries no card texts; they are fetched after the
//! first verdict, in the background, into the Cache API, and then the network is cut: search
//! and card text work offline (and the second tab reads the texts from the cache); every
//! control is reached by Tab in reading order with its focus
//! drawn, Enter and Space work, every input has a label, and the main texts contrast at
//! least 4.5:1 in light and dark. Screenshots at 390 and 1280 px, light and dark, land in
//! `target/web-shots/`.
//! Needs python3 with selenium, chromium and chromedriver (`.ci/run` installs them).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr,
    reason = "tests"
)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::{needs, repo, tool};

const TEST: &str = "web_browser";

/// The card taken out of examples/dragapult.txt to break it, added back from search.
const MISSING: &str = "1 Budew PRE 4";

/// Stops the file server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves `target/web` on 127.0.0.1 at a free port; its URL.
fn serve() -> (Server, String) {
    let mut child = Command::new("python3")
        .args(["-u", "-c", SERVER])
        .arg(repo().join("target/web"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line.trim().parse().unwrap();
    (Server(child), format!("http://127.0.0.1:{port}/"))
}

/// A static file server on a port the system picks (printed first), `.wasm` served as
/// `application/wasm` so the browser compiles it while it streams. Like GitHub Pages it
/// gzips what it serves to a browser that takes gzip (each file once, level 6) and lets it
/// be cached ten minutes, so the bytes the page measures are those a player downloads.
const SERVER: &str = r#"
import functools, gzip, http.server, io, os, sys
ZIPPED = {".html", ".css", ".js", ".wasm", ".json", ".svg", ".bin"}
done = {}
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".bin": "application/octet-stream"}
    def log_message(self, *args):
        pass
    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()
    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if (os.path.splitext(path)[1] not in ZIPPED or not os.path.isfile(path)
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        if path not in done:
            with open(path, "rb") as file:
                done[path] = gzip.compress(file.read(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(done[path])))
        self.end_headers()
        return io.BytesIO(done[path])
handler = functools.partial(Handler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

/// The contrast WCAG 2 asks of text (1.4.3, level AA).
const CONTRAST: f64 = 4.5;

/// The controls a keyboard reaches first, in reading order: the list and its options and
/// actions, then the odds' options, then the search.
const TAB_ORDER: [&str; 14] = [
    "list",
    "format",
    "date",
    "ptcgl",
    "download",
    "share",
    "share-url",
    "cli",
    "going",
    "turns",
    "want",
    "query",
    "search",
    "footer",
];

fn which(names: &[&str]) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    names
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

#[test]
fn a_player_checks_fixes_and_shares_a_list_in_chromium() {
    let chromium = which(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = which(&["chromedriver"]);
    if !needs(chromium.is_some(), TEST, "chromium")
        || !needs(driver.is_some(), TEST, "chromedriver (chromium-driver)")
        || !tool("python3", "--version", TEST)
    {
        return;
    }
    let selenium = Command::new("python3")
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|status| status.success());
    if !needs(selenium, TEST, "python3's selenium") {
        return;
    }
    if super::web_node::built_node_glue(TEST).is_none() {
        return;
    }
    let dragapult = std::fs::read_to_string(repo().join("examples/dragapult.txt")).unwrap();
    let broken = dragapult.replace(&format!("{MISSING}\n"), "");
    assert_ne!(broken, dragapult);
    let shots = repo().join("target/web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let (_server, url) = serve();
    let out = Command::new("python3")
        .arg(repo().join("tests/suite/web_browser.py"))
        .args([url.as_str(), broken.as_str(), "Budew"])
        .arg(&shots)
        .arg(chromium.unwrap())
        .arg(driver.unwrap())
        .arg(&dragapult)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the browser run failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = |key: &str| seen[key].as_str().unwrap_or_default().to_string();
    eprintln!("{}", serde_json::to_string_pretty(&seen).unwrap());

    // The first load: the page and the .wasm, without the card texts.
    let load = &seen["load"];
    let files: Vec<&str> = (load["files"].as_array().unwrap().iter())
        .map(|file| file["name"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().any(|file| file.ends_with(".wasm")),
        "{files:?}"
    );
    assert!(
        !files.iter().any(|file| file.contains("deckbox_texts")),
        "{files:?}"
    );
    let first_verdict = load["first_verdict_ms"].as_f64().unwrap();
    assert!(first_verdict > 0.0, "{load}");
    // The card texts: asked for after the first verdict, in the background, and kept in the
    // Cache API.
    let prefetched: Vec<&serde_json::Value> = (seen["prefetched"].as_array().unwrap().iter())
        .filter(|file| file["name"].as_str().unwrap().contains("deckbox_texts"))
        .collect();
    assert_eq!(prefetched.len(), 1, "{seen}");
    assert!(
        prefetched[0]["start_ms"].as_f64().unwrap() > first_verdict,
        "{seen}"
    );
    assert_eq!(
        seen["prefetch_cached"],
        serde_json::json!([prefetched[0]["name"]])
    );
    // Then the network was cut (a request fails) while the page searched and showed a card's
    // text below.
    assert_eq!(seen["offline"], "refused", "{seen}");
    assert_eq!(seen["still_offline"], "refused", "{seen}");
    assert!(
        load["transferred"].as_u64().unwrap() < load["raw"].as_u64().unwrap(),
        "the server gzips: {load}"
    );

    // The broken list: its finding, in the CLI's words, under its line.
    assert!(text("broken_summary").starts_with("invalid"), "{seen}");
    let rules: Vec<&str> = (seen["findings"].as_array().unwrap().iter())
        .filter_map(|rule| rule.as_str())
        .collect();
    assert!(rules.contains(&"deck-size"), "{rules:?}");
    let findings = seen["finding_text"].to_string();
    assert!(
        findings.contains("the deck has 59 cards, but a deck must have exactly 60"),
        "{findings}"
    );

    // A list in Windows-1252 dropped on the page reads as its text (the page decodes the
    // file as `deckbox check` does), not with UTF-8's replacement characters.
    assert_eq!(seen["dropped"], "Pokémon: 1\n4 Évoli SVI 173\n", "{seen}");

    // The charts of the HTML report, drawn by the library: mulligans and turns.
    assert_eq!(seen["charts"], 2, "{seen}");

    // Every input has a label and every button a name.
    assert_eq!(seen["unlabelled"], serde_json::json!([]), "{seen}");

    // Tab reaches every control in reading order, each with its focus ring, and leaves the
    // page at the end (no trap); the findings' "Why" is on the way.
    let tab = &seen["tab"];
    assert_eq!(tab["left_the_page"], true, "a keyboard trap: {tab}");
    let stops = tab["stops"].as_array().unwrap();
    for stop in stops {
        assert_eq!(stop["visible"], true, "{stop}");
        assert!(
            stop["outline"] != "none" && stop["outline_width"].as_f64().unwrap() >= 2.0,
            "no focus ring: {stop}"
        );
    }
    let key = |stop: &serde_json::Value| match stop["id"].as_str().unwrap_or_default() {
        "" if stop["tag"] == "a" => "footer".to_string(),
        id => id.to_string(),
    };
    let order: Vec<String> = stops.iter().map(key).collect();
    let found: Vec<&str> = (TAB_ORDER.iter().copied())
        .filter(|id| order.iter().any(|stop| stop == id))
        .collect();
    assert_eq!(found, TAB_ORDER, "not reached by Tab: {order:?}");
    let at = |id: &str| order.iter().position(|stop| stop == id).unwrap();
    assert!(
        TAB_ORDER.windows(2).all(|pair| at(pair[0]) < at(pair[1])),
        "Tab order: {order:?}"
    );
    let why = (stops.iter().position(|stop| stop["in_finding"] == true))
        .expect("a finding's Why is reached by Tab");
    assert!(at("cli") < why && why < at("going"), "{order:?}");
    assert_eq!(seen["enter_opens_why"], true);

    // The main texts contrast enough with what is behind them, in light and dark.
    for scheme in ["contrast_light", "contrast_dark"] {
        let measured = seen[scheme].as_array().unwrap();
        let mut missing = Vec::new();
        for text in measured {
            match text["ratio"].as_f64() {
                Some(ratio) => assert!(ratio >= CONTRAST, "{scheme}: {text}"),
                None => missing.push(text["selector"].as_str().unwrap()),
            }
        }
        assert!(missing.len() <= 2, "{scheme}: not on the page: {missing:?}");
    }

    // Fixed from search: the card is back and the list is valid; the odds are shown.
    assert!(text("list_after").contains("\n1 Budew "), "{seen}");
    assert!(text("fixed_summary").starts_with("valid"), "{seen}");
    let mulligan = text("mulligan");
    assert!(
        mulligan.starts_with("P(mulligan) = ") && mulligan.ends_with('%'),
        "{mulligan}"
    );
    assert!(text("cli").starts_with("deckbox check deck.txt --format standard --as-of "));

    // The share link holds the list in its fragment and reopens the same page.
    let link = text("share_link");
    assert!(link.starts_with(&format!("{url}#v1=")), "{link}");
    assert_eq!(text("shared_list"), text("list_after"));
    assert_eq!(text("shared_summary"), text("fixed_summary"));
    assert_eq!(text("shared_mulligan"), mulligan);

    // The card texts: fetched once, after the first verdict (the search offline asked for
    // nothing), then read from the Cache API.
    assert!(!text("card_text").is_empty(), "{seen}");
    assert_eq!(
        seen["texts_fetched"],
        serde_json::json!([prefetched[0]["name"]]),
        "{seen}"
    );
    assert_eq!(
        seen["shared_texts_fetched"],
        serde_json::json!([]),
        "{seen}"
    );
    assert!(
        text("shared_search_status").ends_with("card")
            || text("shared_search_status").ends_with("cards")
    );
    let cached = seen["cached"].as_array().unwrap();
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert_eq!(cached[0], seen["texts_fetched"][0]);

    // Nothing was loaded from anywhere but the local server.
    for file in &files {
        assert!(file.starts_with(&url), "{file}");
    }
    for shot in seen["shots"].as_array().unwrap() {
        let bytes = std::fs::metadata(shot["path"].as_str().unwrap())
            .unwrap()
            .len();
        assert!(bytes > 10_000, "{shot}: {bytes} bytes");
        assert_eq!(shot["overflows"], false, "wider than the screen: {shot}");
    }
}
