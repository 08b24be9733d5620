#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
//! Keeps the library's layering (ARCHITECTURE.md, `src/lib.rs`): each wing uses only the
//! wings listed before it, so the module graph has no cycle and nothing runs back up the
//! pipeline; and in the binary, no command's file uses another command's (shared code lives
//! in the library, or in `src/cli/mod.rs` and `src/cli/output.rs`).
//!
//! A use is any path through `crate::` (one path, or each path of a `crate::{a, b::c}` group)
//! or, in the binary, through `super::`, anywhere in a file's code: comments, string literals
//! and test code (`#[cfg(test)]` modules and items, cut at their matching brace) are left out.

use std::path::{Path, PathBuf};

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

/// The binary's modules under `src/cli/` that every command may use: the dispatcher with the
/// shared settings arguments, the reading of the command line (which, like the dispatcher,
/// names every command's arguments), the output arguments, and the progress bar. Every other
/// module is a command's.
const SHARED_CLI: [&str; 4] = ["mod", "parse", "output", "bar"];

/// The modules a `lib.rs` or `mod.rs` declares public (`pub mod name;`), in order.
fn declared_modules(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';'))
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file as it is built outside tests: comments and the contents of string and
/// character literals blanked (so a brace or a path inside them counts for nothing), then
/// every item under `#[cfg(test)]` removed up to its end (the brace matching its first `{`,
/// or its `;`), however far into the file it stands.
fn code(text: &str) -> String {
    let blank = blank_comments_and_literals(text);
    let mut out = String::with_capacity(blank.len());
    let mut rest = blank.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        rest = &rest[item_end(rest)..];
    }
    out.push_str(rest);
    out
}

/// Where the item that starts `text` ends: after the brace matching its first `{`, or after
/// its `;` when that comes first (`#[cfg(test)] use ...;`, `#[cfg(test)] mod tests;`).
fn item_end(text: &str) -> usize {
    let mut depth = 0usize;
    for (index, byte) in text.bytes().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return index + 1;
                }
            }
            b';' if depth == 0 => return index + 1,
            _ => {}
        }
    }
    text.len()
}

/// `text` with comments (`//`, nested `/* */`) and the insides of string, raw string, byte
/// string and character literals replaced by spaces, keeping every other byte (and so every
/// offset and newline) in place.
fn blank_comments_and_literals(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut index = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    while index < bytes.len() {
        let rest = &bytes[index..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            blank(&mut out, index, index + end);
            index += end;
        } else if rest.starts_with(b"/*") {
            let mut depth = 0usize;
            let mut at = 0;
            while at < rest.len() {
                if rest[at..].starts_with(b"/*") {
                    depth += 1;
                    at += 2;
                } else if rest[at..].starts_with(b"*/") {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
            blank(&mut out, index, index + at);
            index += at;
        } else if let Some(hashes) = raw_string_start(rest) {
            // r"..." or r#"..."# (and br...): ends at a quote followed by the same hashes.
            let open = rest.iter().position(|&b| b == b'"').unwrap() + 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let end = rest[open..]
                .windows(close.len())
                .position(|window| window == close.as_slice())
                .map_or(rest.len(), |at| open + at);
            blank(&mut out, index + open, index + end);
            index += (end + close.len()).min(rest.len());
        } else if rest[0] == b'"' {
            let mut at = 1;
            while at < rest.len() && rest[at] != b'"' {
                at += if rest[at] == b'\\' { 2 } else { 1 };
            }
            let end = at.min(rest.len());
            blank(&mut out, index + 1, index + end);
            index += end + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('{', '\'', '\u{7d}'), not a lifetime ('a).
            let end = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&b| b == b'\'').map(|at| at + 2)
            } else {
                let width = std::str::from_utf8(&rest[1..])
                    .ok()
                    .or_else(|| text.get(index + 1..))
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                (rest.get(1 + width) == Some(&b'\'')).then_some(1 + width)
            };
            match end {
                Some(end) => {
                    blank(&mut out, index + 1, index + end);
                    index += end + 1;
                }
                None => index += 1,
            }
        } else {
            index += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How many `#` a raw string starting `rest` has (`r"`, `r#"`, `br##"`), or `None`.
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let rest = rest.strip_prefix(b"b").unwrap_or(rest);
    let rest = rest.strip_prefix(b"r")?;
    let hashes = rest.iter().take_while(|&&b| b == b'#').count();
    (rest.get(hashes) == Some(&b'"')).then_some(hashes)
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path used through `root` (`crate::` or `super::`): the segments after it, one path
/// per member of a `{...}` group (nested groups included), e.g. `crate::{cards::CardDb,
/// check}` gives `[cards, CardDb]` and `[check]`. A path is cut where it stops being one.
fn paths_after(text: &str, root: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (index, _) in text.match_indices(root) {
        let before = &text[..index];
        if before.chars().next_back().is_some_and(is_ident) || before.ends_with("::") {
            continue; // `my_crate::`; `super::super::` is read from its first `super`
        }
        let mut prefix = Vec::new();
        read_path(&text[index + root.len()..], &mut prefix, &mut found);
    }
    found
}

/// Reads one path (or group) at the start of `text`, after the segments in `prefix`.
fn read_path(text: &str, prefix: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0usize;
        let mut start = 0;
        for (at, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    let mut inner = prefix.clone();
                    read_path(&group[start..at], &mut inner, found);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    let mut inner = prefix.clone();
                    read_path(&group[start..at], &mut inner, found);
                    start = at + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let segment: String = text.chars().take_while(|&c| is_ident(c)).collect();
    if segment.is_empty() {
        if !prefix.is_empty() {
            found.push(prefix.clone());
        }
        return;
    }
    prefix.push(segment.clone());
    let rest = text[segment.len()..].trim_start();
    match rest.strip_prefix("::") {
        Some(rest) => read_path(rest, prefix, found),
        None => found.push(prefix.clone()),
    }
}

/// What runs back up the library's pipeline: for each file (its path under `src/` and its
/// text), a wing's use of a wing after it in `order`.
fn backwards_uses(files: &[(PathBuf, String)], order: &[&str]) -> Vec<String> {
    let mut backwards = Vec::new();
    for (relative, text) in files {
        let wing = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let Some(at) = order.iter().position(|known| *known == wing) else {
            continue; // lib.rs, main.rs and the binary's cli/
        };
        for path in paths_after(&code(text), "crate::") {
            let used = &path[0];
            if let Some(other) = order.iter().position(|known| known == used)
                && other > at
            {
                let line = format!("{} uses {used}", relative.display());
                if !backwards.contains(&line) {
                    backwards.push(line);
                }
            }
        }
    }
    backwards
}

/// The binary's command files that use another command's module: for each file under
/// `src/cli/` (its path under `src/` and its text), every `crate::cli::<x>` and every
/// `super::` path that lands on another command than its own.
fn commands_using_commands(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut crossing = Vec::new();
    for (relative, text) in files {
        let parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts.first().map(String::as_str) != Some("cli") || parts.len() < 2 {
            continue;
        }
        let own = parts[1].as_str();
        if SHARED_CLI.contains(&own) {
            continue;
        }
        // The module this file is: cli::odds, cli::build (mod.rs), cli::build::app.
        let mut module = parts.clone();
        if module.last().map(String::as_str) == Some("mod") {
            module.pop();
        }
        let code = code(text);
        let mut targets: Vec<Vec<String>> = paths_after(&code, "crate::")
            .into_iter()
            .filter(|path| path.first().map(String::as_str) == Some("cli"))
            .collect();
        for path in paths_after(&code, "super::") {
            // `super::super::x`: each `super` climbs one module.
            let mut base = module.clone();
            base.pop();
            let mut rest = path.as_slice();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            targets.push(base);
        }
        for target in targets {
            if target.first().map(String::as_str) != Some("cli") {
                continue;
            }
            let Some(other) = target.get(1) else { continue };
            if other != own && !SHARED_CLI.contains(&other.as_str()) && is_command(other) {
                let line = format!("{} uses the command {other}", relative.display());
                if !crossing.contains(&line) {
                    crossing.push(line);
                }
            }
        }
    }
    crossing
}

/// Whether `name` is a module of `src/cli/` (a file or a folder), so `super::Outcome` (an
/// item of `cli/mod.rs`) is not taken for a command.
fn is_command(name: &str) -> bool {
    let cli = crate::common::repo().join("src/cli");
    cli.join(format!("{name}.rs")).is_file() || cli.join(name).join("mod.rs").is_file()
}

/// Every file under `src/` with its text, except the files of modules declared under
/// `#[cfg(test)]` (`#[cfg(test)] mod tests;`), which only tests build.
fn source_files() -> Vec<(PathBuf, String)> {
    let src = crate::common::repo().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let read: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            (file.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect();
    let mut test_only = Vec::new();
    for (path, text) in &read {
        // A module's children sit beside `mod.rs`/`lib.rs`/`main.rs`, else in a folder
        // named after the file.
        let stem = path.file_stem().unwrap().to_string_lossy();
        let dir = match stem.as_ref() {
            "mod" | "lib" | "main" => path.parent().unwrap().to_path_buf(),
            _ => path.with_extension(""),
        };
        let blank = blank_comments_and_literals(text);
        for (at, _) in blank.match_indices("#[cfg(test)]") {
            let item = blank[at + "#[cfg(test)]".len()..].trim_start();
            let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
            if let Some(rest) = item.strip_prefix("mod ") {
                let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
                if rest[name.len()..].trim_start().starts_with(';') {
                    test_only.push(dir.join(format!("{name}.rs")));
                    test_only.push(dir.join(&name).join("mod.rs"));
                }
            }
        }
    }
    read.into_iter()
        .filter(|(path, _)| !test_only.contains(path))
        .collect()
}

#[test]
fn each_wing_uses_only_the_wings_before_it() {
    let src = crate::common::repo().join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let declared = declared_modules(&lib);
    assert_eq!(
        declared, ORDER,
        "src/lib.rs declares the wings in pipeline order"
    );
    let backwards = backwards_uses(&source_files(), &ORDER);
    assert!(
        backwards.is_empty(),
        "uses that run back up the pipeline:\n{}",
        backwards.join("\n")
    );
}

#[test]
fn no_command_uses_another_command() {
    let crossing = commands_using_commands(&source_files());
    assert!(
        crossing.is_empty(),
        "commands that use another command's module (move the shared code into the library, \
         or into src/cli/mod.rs or output.rs):\n{}",
        crossing.join("\n")
    );
}

/// The checks catch what the first version of this test missed: a use after a test
/// function (it cut the file at the first `#[cfg(test)]`), a use inside a `crate::{...}`
/// group (it read only the word after `crate::`), and a command using another command.
#[test]
fn the_checks_catch_forbidden_uses() {
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_string());
    let cards = file(
        "cards/db.rs",
        "#[cfg(test)]\nfn helper() { let _ = \"}\"; }\n\
         use crate::{names::fold, check::Finding};\n\
         #[cfg(test)]\nmod tests { use crate::render::x; }\n\
         // use crate::settings::y;\n\
         fn f() -> &'static str { \"crate::stats\" }\n\
         use crate::settings::Settings;\n",
    );
    assert_eq!(
        backwards_uses(&[cards], &ORDER),
        ["cards/db.rs uses check", "cards/db.rs uses settings"],
        "a group, and a use after a test function, are seen; test modules, comments and \
         strings are not"
    );

    let odds = file(
        "cli/odds.rs",
        "use super::{Outcome, output::OutputArgs, stats::{StatsDeck, wanted}};\n",
    );
    let build = file(
        "cli/build/app.rs",
        "use super::super::fmt::for_writing;\nuse super::ui::draw;\n\
         fn f() { crate::cli::check::run(); }\n",
    );
    let shared = file(
        "cli/mod.rs",
        "use self::fmt::x; fn f() { super::stats::y(); }\n",
    );
    assert_eq!(
        commands_using_commands(&[odds, build, shared]),
        [
            "cli/odds.rs uses the command stats",
            "cli/build/app.rs uses the command check",
            "cli/build/app.rs uses the command fmt",
        ]
    );
}

#[test]
fn code_keeps_what_is_built_and_drops_tests_comments_and_literals() {
    let text = "use a; // crate::x\n/* crate::y /* nested */ */\nlet c = '{';\n\
                let s = r#\"crate::z { \"#;\n#[cfg(test)]\nmod t { fn f() { if x { } } }\n\
                fn after<'a>(x: &'a str) {}\n";
    let kept = code(text);
    assert!(!kept.contains("crate::"), "{kept}");
    assert!(!kept.contains("mod t"), "{kept}");
    assert!(kept.contains("fn after<'a>(x: &'a str) {}"), "{kept}");
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
    let declared = declared_modules(&root);
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
