//! `deckbox lsp` driven by a real editor: Neovim headless, set up by docs/editors.md's
//! Neovim block as its `init.lua` and driven through its built-in client
//! (`tests/suite/lsp_neovim.lua`), opens a broken list, receives the diagnostics, applies a
//! quick fix, completes a name, hovers, formats and writes; the file on disk is then what
//! `deckbox fmt` would write, with the fix and the completed card. The protocol itself is
//! tested in process (`src/cli/lsp/tests.rs`). Skips with a note when `nvim` is missing,
//! unless `DECKBOX_NO_SKIP=1` (as `.ci/run` sets after installing Debian's `neovim`).
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::process::Command;

use crate::common;

#[test]
fn neovim_shows_fixes_completes_hovers_and_formats() {
    if !common::tool("nvim", "--version", "lsp_neovim") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The block the docs give, as the init file; `deckbox` found on the PATH.
    let docs = std::fs::read_to_string(common::repo().join("docs/editors.md")).unwrap();
    let neovim = &docs[docs.find("## Neovim").unwrap()..];
    let block = neovim.split("```lua\n").nth(1).unwrap();
    let init = dir.path().join("init.lua");
    std::fs::write(&init, &block[..block.find("```").unwrap()]).unwrap();
    std::fs::create_dir(dir.path().join("decks")).unwrap();
    let deck = dir.path().join("decks/deck.txt");
    std::fs::write(
        &deck,
        "# deckbox: as-of=2026-11-01\n4 Dreepy TWM 128\n4 Drakloak TWM 129\n4 Ultra Bal\n",
    )
    .unwrap();
    let log = dir.path().join("nvim.log");
    let script = common::repo().join("tests/suite/lsp_neovim.lua");
    let binary = std::path::PathBuf::from(common::deckbox_command().get_program());
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-u"])
        .arg(&init)
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .env("DECK", &deck)
        .env("LOG", &log)
        .env("PATH", path)
        .env("DECKBOX_TODAY", common::TODAY)
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .current_dir(dir.path())
        .status()
        .unwrap();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "nvim failed:\n{said}");
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(
        lines,
        [
            "diagnostics deck-size,unknown-card",
            "fix Replace with 'Ultra Ball'",
            "complete Dragapult ex",
            "hover **Dreepy**: 4 copies in the deck; in the opening hand 100.00%, prized at least one 87.60%; P(mulligan) 6.92%",
            "written",
        ],
        "{said}"
    );
    let written = std::fs::read_to_string(&deck).unwrap();
    assert!(written.contains("4 Ultra Ball\n"), "{written}");
    assert!(written.contains("4 Dragapult ex "), "{written}");
    // What Neovim wrote is canonical: `deckbox fmt --check` finds nothing to change.
    let (code, report) =
        common::run_deckbox(dir.path(), &["fmt", "--check", "decks/deck.txt"], b"");
    assert_eq!(code, 0, "{report}\n{written}");
}
