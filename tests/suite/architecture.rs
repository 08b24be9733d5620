#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
//! Keeps the library's layering (ARCHITECTURE.md, `src/lib.rs`): each wing uses only the
//! wings listed before it, so the module graph has no cycle and nothing runs back up the
//! pipeline. A use is any `crate::<wing>` path in a wing's code outside comments and test
//! modules.

use std::path::Path;

/// The wings in pipeline order, as `src/lib.rs` declares them.
const ORDER: [&str; 16] = [
    "util",
    "names",
    "deck",
    "cards",
    "formats",
    "search",
    "check",
    "collection",
    "edit",
    "engine",
    "stats",
    "render",
    "error",
    "settings",
    "session",
    "builder",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn each_wing_uses_only_the_wings_before_it() {
    let src = crate::common::repo().join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';'))
        .collect();
    assert_eq!(
        declared, ORDER,
        "src/lib.rs declares the wings in pipeline order"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut backwards = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let wing = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let Some(at) = ORDER.iter().position(|known| *known == wing) else {
            continue; // lib.rs, main.rs and the binary's cli/
        };
        let text = code(&std::fs::read_to_string(&file).unwrap());
        for (index, _) in text.match_indices("crate::") {
            let used: String = text[index + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if let Some(other) = ORDER.iter().position(|known| *known == used)
                && other > at
            {
                backwards.push(format!("{} uses {used}", relative.display()));
            }
        }
    }
    backwards.dedup();
    assert!(
        backwards.is_empty(),
        "uses that run back up the pipeline:\n{}",
        backwards.join("\n")
    );
}

/// The sub-wings of `cards`, in the order `src/cards/mod.rs` declares and documents them.
const CARDS_ORDER: [&str; 5] = ["model", "database", "identification", "sources", "storage"];

/// Inside `src/cards/`, each sub-wing uses only the sub-wings before it, and names them by
/// their own paths (`crate::cards::model::Printing`): a use of a re-export of
/// `cards/mod.rs` (`crate::cards::Printing`), a `crate::cards::{...}` group or a `super::`
/// that climbs out of the sub-wing would hide which sub-wing it reaches.
#[test]
fn each_cards_sub_wing_uses_only_the_sub_wings_before_it() {
    let cards = crate::common::repo().join("src/cards");
    let root = std::fs::read_to_string(cards.join("mod.rs")).unwrap();
    let declared: Vec<&str> = root
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';'))
        .collect();
    assert_eq!(
        declared, CARDS_ORDER,
        "src/cards/mod.rs declares the sub-wings in order"
    );
    let mut files = Vec::new();
    rust_files(&cards, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&cards).unwrap();
        let parts: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        let [wing, below @ ..] = parts.as_slice() else {
            continue;
        };
        let Some(at) = CARDS_ORDER.iter().position(|known| *known == wing) else {
            continue; // cards/mod.rs itself
        };
        // How many `super::` stay inside the sub-wing: one per module below it.
        let depth = below.len() - usize::from(below.last().is_some_and(|f| f == "mod.rs"));
        let text = code(&std::fs::read_to_string(&file).unwrap());
        let shown = relative.display();
        for (index, _) in text.match_indices("crate::cards::") {
            let used: String = text[index + "crate::cards::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '{')
                .collect();
            match CARDS_ORDER.iter().position(|known| *known == used) {
                Some(other) if other > at => wrong.push(format!("{shown} uses {used}")),
                Some(_) => {}
                None => wrong.push(format!("{shown} uses crate::cards::{used}")),
            }
        }
        for line in text.lines() {
            if line.contains(&"super::".repeat(depth + 1)) {
                wrong.push(format!("{shown} climbs out of {wing}: {}", line.trim()));
            }
        }
    }
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "uses across the sub-wings of cards that are out of order or hidden:\n{}",
        wrong.join("\n")
    );
}
