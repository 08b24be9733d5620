//! The npm package of deckbox's WebAssembly build (`web/pkg/`, laid out in `target/npm` by
//! `cargo xtask web`): `npm pack` (offline) packs the module, its glue and its types, and the
//! packed module, unpacked and imported in Node, answers with the CLI's JSON.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use std::process::Command;

use crate::common::{TODAY, repo, tool};

const TEST: &str = "web_npm";

#[test]
fn the_npm_package_packs_and_answers() {
    if !tool("npm", "--version", TEST) {
        return;
    }
    if super::web_node::built_node_glue(TEST).is_none() {
        return;
    }
    let package = repo().join("target/npm");
    let into = tempfile::tempdir().unwrap();
    let out = Command::new("npm")
        .args(["pack", "--offline", "--json", "--pack-destination"])
        .arg(into.path())
        .current_dir(&package)
        .env("npm_config_cache", into.path().join("cache"))
        .env("npm_config_update_notifier", "false")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "npm pack: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let packed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut files: Vec<&str> = (packed[0]["files"].as_array().unwrap().iter())
        .map(|file| file["path"].as_str().unwrap())
        .collect();
    files.sort_unstable();
    assert_eq!(
        files,
        [
            "deckbox_texts.bin",
            "deckbox_web.js",
            "deckbox_web_bg.wasm",
            "index.d.ts",
            "index.js",
            "package.json"
        ]
    );
    let tarball = into.path().join(packed[0]["filename"].as_str().unwrap());
    let unpacked = into.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&unpacked)
        .status()
        .unwrap();
    assert!(status.success());

    // The packed module, imported as a user would, gives the CLI's verdict.
    let script = format!(
        r#"
import {{ readFileSync }} from "node:fs";
import * as deckbox from "./package/index.js";
await deckbox.load(readFileSync("./package/deckbox_web_bg.wasm"));
const text = readFileSync(process.argv[2], "utf8");
const report = deckbox.check(text, {{ format: "standard", date: "{TODAY}" }});
const odds = deckbox.stats(text, {{ format: "standard", date: "{TODAY}" }});
const charts = deckbox.statsCharts(text, {{ format: "standard", date: "{TODAY}" }});
await deckbox.loadTexts(readFileSync("./package/deckbox_texts.bin"));
const found = deckbox.search("Dreepy");
const dreepy = deckbox.card("Dreepy TWM 128");
const attacks = dreepy.cards[0].printings.find((p) => p.set === "TWM").details.attacks.length;
console.log(JSON.stringify([report.decks[0].valid, odds.mulligan.probability, found.cards.length > 0, deckbox.formats().includes("standard"), (charts.match(/<svg class="chart"/g) || []).length, attacks]));
"#
    );
    std::fs::write(unpacked.join("try.mjs"), script).unwrap();
    let out = Command::new("node")
        .arg("try.mjs")
        .arg(repo().join("examples/dragapult.txt"))
        .current_dir(&unpacked)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said[0], true);
    let p = said[1].as_f64().unwrap();
    assert!((p - 0.258_629_234_297_510_8).abs() < 1e-12, "{p}");
    assert_eq!(said[2], true);
    assert_eq!(said[3], true);
    assert_eq!(said[4], 2, "the mulligan and turn charts");
    assert!(
        said[5].as_u64().unwrap() > 0,
        "Dreepy's attacks, from the card texts"
    );
}
