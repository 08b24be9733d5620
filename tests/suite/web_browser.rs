//! deckbox's web page (`cargo xtask web`, docs/web.md) in a real browser: headless Chromium
//! driven by Selenium (`web_browser.py`) loads `target/web` from a local server on
//! 127.0.0.1, pastes a broken list and sees its findings, fixes it by adding the missing
//! card from a search, reads P(mulligan), opens the share link in a fresh tab and gets the
//! same page. Screenshots at 390 and 1280 px land in `target/web-shots/`.
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
/// `application/wasm` so the browser compiles it while it streams.
const SERVER: &str = r#"
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.func.extensions_map[".wasm"] = "application/wasm"
handler.func.log_message = lambda *args: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

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

    // Nothing was loaded from anywhere but the local server.
    for file in seen["timing"]["files"].as_array().unwrap() {
        assert!(file.as_str().unwrap().starts_with(&url), "{file}");
    }
    for shot in seen["shots"].as_array().unwrap() {
        let bytes = std::fs::metadata(shot.as_str().unwrap()).unwrap().len();
        assert!(bytes > 10_000, "{shot}: {bytes} bytes");
    }
}
