//! The VS Code extension (`editors/vscode/`) builds into a `.vsix` with its one documented
//! command, `npm run package` (vsce), offline: its `node_modules` comes from `npm ci` (the
//! lockfile, exactly), which `.ci/run` runs in its install phase, the only one with the
//! network. Without `editors/vscode/node_modules` the test skips locally and fails in CI
//! (`common::needs`). The package is a zip archive: its manifest names the extension, it
//! holds `extension.js` and `package.json` as committed, and the language client the
//! extension requires, but not the build tools.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::io::Read;
use std::process::Command;

use crate::common;

const TEST: &str = "vscode_vsix";

#[test]
fn the_vscode_extension_builds() {
    if !common::tool("npm", "--version", TEST) {
        return;
    }
    let dir = common::repo().join("editors/vscode");
    let modules = dir.join("node_modules");
    let installed = modules.join("@vscode/vsce/package.json").is_file()
        && modules.join("vscode-languageclient/package.json").is_file();
    if !common::needs(
        installed,
        TEST,
        "editors/vscode/node_modules (`npm ci` there, as .ci/run does)",
    ) {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let vsix = out.path().join("deckbox.vsix");
    let output = Command::new("npm")
        .args(["run", "package", "--", "--out"])
        .arg(&vsix)
        .current_dir(&dir)
        .env("npm_config_offline", "true")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_cache", out.path().join("cache"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "npm run package:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );

    let entries = unzip(&std::fs::read(&vsix).unwrap());
    let names: Vec<&str> = entries.iter().map(|(name, _)| name.as_str()).collect();
    let file = |name: &str| -> &[u8] {
        &entries
            .iter()
            .find(|(entry, _)| entry == name)
            .unwrap_or_else(|| panic!("{name} is not in the .vsix: {names:?}"))
            .1
    };

    // Everything outside node_modules, exactly: no stray file of the folder goes in.
    let mut own: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| !name.starts_with("extension/node_modules/"))
        .collect();
    own.sort_unstable();
    assert_eq!(
        own,
        [
            "[Content_Types].xml",
            "extension.vsixmanifest",
            "extension/LICENSE.txt",
            "extension/extension.js",
            "extension/package.json",
            "extension/readme.md",
        ]
    );

    let manifest = String::from_utf8(file("extension.vsixmanifest").to_vec()).unwrap();
    assert!(
        manifest.contains(
            r#"<Identity Language="en-US" Id="deckbox" Version="0.1.0" Publisher="deckbox" />"#
        ),
        "{manifest}"
    );
    assert!(
        manifest.contains("__ext_deck,__ext_ptcgl,__ext_ptcgo"),
        "{manifest}"
    );

    assert_eq!(
        file("extension/extension.js"),
        std::fs::read(dir.join("extension.js")).unwrap()
    );
    let package: serde_json::Value =
        serde_json::from_slice(file("extension/package.json")).unwrap();
    assert_eq!(package["name"], "deckbox");
    assert_eq!(package["main"], "./extension.js");
    assert_eq!(package["activationEvents"][0], "onLanguage:decklist");
    assert_eq!(package["contributes"]["languages"][0]["id"], "decklist");
    // `*.txt` deck lists under `decks/`, as the Neovim and Helix blocks of docs/editors.md
    // choose them.
    assert_eq!(
        package["contributes"]["languages"][0]["filenamePatterns"],
        serde_json::json!(["**/decks/**/*.txt"])
    );
    assert_eq!(
        package["contributes"]["configuration"]["properties"]["deckbox.path"]["default"],
        "deckbox"
    );

    // The runtime dependency travels with the extension; the packager does not.
    assert!(names.contains(&"extension/node_modules/vscode-languageclient/package.json"));
    assert!(
        names
            .iter()
            .any(|name| name.starts_with("extension/node_modules/vscode-languageclient/lib/node/"))
    );
    assert!(
        !names
            .iter()
            .any(|name| name.starts_with("extension/node_modules/@vscode/"))
    );
}

/// The entries of a zip archive (name, contents), read from its central directory; stored
/// and deflated entries only, which is what vsce writes.
fn unzip(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([zip[at], zip[at + 1]]));
    let u32_at = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap()) as usize;
    assert!(zip.starts_with(b"PK\x03\x04"), "not a zip archive");
    // The end-of-central-directory record: 22 bytes and a comment, at the end.
    let end = (0..=zip.len() - 22)
        .rev()
        .find(|&at| zip[at..].starts_with(b"PK\x05\x06"))
        .unwrap();
    let count = u16_at(end + 10);
    let mut at = u32_at(end + 16);
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        assert!(
            zip[at..].starts_with(b"PK\x01\x02"),
            "bad central directory"
        );
        let method = u16_at(at + 10);
        let compressed = u32_at(at + 20);
        let size = u32_at(at + 24);
        let name_len = u16_at(at + 28);
        let skip = name_len + u16_at(at + 30) + u16_at(at + 32);
        let local = u32_at(at + 42);
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        assert!(zip[local..].starts_with(b"PK\x03\x04"), "bad local header");
        let data_at = local + 30 + u16_at(local + 26) + u16_at(local + 28);
        let data = &zip[data_at..data_at + compressed];
        let contents = match method {
            0 => data.to_vec(),
            8 => {
                let mut inflated = Vec::with_capacity(size);
                flate2::read::DeflateDecoder::new(data)
                    .read_to_end(&mut inflated)
                    .unwrap();
                inflated
            }
            other => panic!("{name}: compression method {other}"),
        };
        assert_eq!(contents.len(), size, "{name}");
        entries.push((name, contents));
        at += 46 + skip;
    }
    entries
}
