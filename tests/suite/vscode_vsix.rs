//! The VS Code extension (`editors/vscode/`) builds into a `.vsix` with one command,
//! `npm ci && npx vsce package`, in a copy of its folder. It needs npm and the npm registry
//! (the network, which no other test uses), so it is ignored unless asked for (`cargo test
//! --test suite vscode_vsix -- --ignored`); it took
//! about 2 minutes on 2 busy cores (npm's download included), and the package is about
//! 470 KB.
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::process::Command;

use crate::common;

#[test]
#[ignore = "needs the npm registry: cargo test --test suite vscode_vsix -- --ignored"]
fn the_vscode_extension_builds() {
    if !common::tool("npm", "--version", "vscode_vsix") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let from = common::repo().join("editors/vscode");
    for name in [
        "package.json",
        "package-lock.json",
        "extension.js",
        "README.md",
        "LICENSE",
        ".vscodeignore",
    ] {
        std::fs::copy(from.join(name), dir.path().join(name)).unwrap();
    }
    let run = |program: &str, args: &[&str]| {
        let output = Command::new(program)
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{program} {args:?}:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run("npm", &["ci", "--no-audit", "--no-fund"]);
    run("npx", &["--no-install", "vsce", "package"]);
    let package = std::fs::read(dir.path().join("deckbox-0.1.0.vsix")).unwrap();
    // A zip archive holding the extension's entry point.
    assert!(package.starts_with(b"PK"));
    let entry = b"extension/extension.js";
    assert!(package.windows(entry.len()).any(|window| window == entry));
}
