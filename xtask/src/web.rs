//! `cargo xtask web`: deckbox as a static web page (docs/web.md).
//!
//! [`web`] builds the `deckbox-web` crate (`web/`) in release for `wasm32-unknown-unknown`,
//! runs the `wasm-bindgen` CLI on it (which must be the version `web/Cargo.toml` pins: the
//! `.wasm` and its JavaScript glue are made for each other) and writes:
//!
//! - `target/web/`: the page (`web/www/`'s files) beside the glue (`deckbox_web.js`) and the
//!   `.wasm`: serve the folder with any static file server;
//! - `target/web-node/`: the same `.wasm` with glue for Node (`--target nodejs`), which
//!   `tests/suite/web_node.rs` runs;
//! - `target/npm/`: the npm package (`web/pkg/`'s `package.json` and types, the web glue and
//!   the `.wasm`), ready for `npm pack`.
//!
//! The `.wasm` is built without the card texts (the library's `card-texts` feature): each
//! folder gets them beside it as a file of their own (`cards/details.bin`), which the page
//! fetches once, when a search first needs them. The page's copy is named by its content
//! (`deckbox_texts.<hash>.bin`, the name written into `app.js`), so a browser may keep it for
//! good: new texts get a new name.

use std::path::Path;
use std::process::Command;

/// The card texts' file as the npm package and the Node glue name it; the page's carries a
/// hash of its content before `.bin` (see [`texts_name`]).
const TEXTS: &str = "deckbox_texts.bin";
/// The card texts, as `cargo xtask cards` writes them.
const TEXTS_SOURCE: &str = "cards/details.bin";

/// The crate built.
const PACKAGE: &str = "deckbox-web";
/// Its `.wasm`, as cargo names it.
const WASM: &str = "deckbox_web.wasm";
const TARGET: &str = "wasm32-unknown-unknown";

/// Builds the page into `target/web` (and its Node and npm twins).
pub fn web(root: &Path) -> Result<String, String> {
    let pinned = pinned_version(&root.join("web/Cargo.toml"))?;
    let bindgen = std::env::var_os("WASM_BINDGEN").unwrap_or_else(|| "wasm-bindgen".into());
    let version = output(Command::new(&bindgen).arg("--version")).map_err(|err| {
        format!("{err}\ninstall it with `cargo install wasm-bindgen-cli --version {pinned}`")
    })?;
    // `wasm-bindgen 0.2.130`
    if version.split_whitespace().nth(1) != Some(pinned.as_str()) {
        return Err(format!(
            "`{}` is not the version deckbox-web pins ({pinned}): `cargo install wasm-bindgen-cli --version {pinned} --force`",
            version.trim()
        ));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--lib",
            "--package",
            PACKAGE,
        ])
        .args(["--target", TARGET])
        .current_dir(root)
        .status()
        .map_err(|err| format!("cargo build: {err}"))?;
    if !status.success() {
        return Err(format!(
            "cargo build --release --target {TARGET} failed ({status})"
        ));
    }
    let wasm = root.join("target").join(TARGET).join("release").join(WASM);
    let target = root.join("target");
    let mut summary = Vec::new();
    for (folder, bindgen_target) in [("web", "web"), ("web-node", "nodejs"), ("npm", "web")] {
        let out = target.join(folder);
        if out.exists() {
            std::fs::remove_dir_all(&out).map_err(|err| format!("{}: {err}", out.display()))?;
        }
        let status = Command::new(&bindgen)
            .args(["--target", bindgen_target, "--no-typescript", "--out-dir"])
            .arg(&out)
            .arg(&wasm)
            .status()
            .map_err(|err| format!("wasm-bindgen: {err}"))?;
        if !status.success() {
            return Err(format!(
                "wasm-bindgen --target {bindgen_target} failed ({status})"
            ));
        }
        let texts = std::fs::read(root.join(TEXTS_SOURCE))
            .map_err(|err| format!("{TEXTS_SOURCE}: {err}"))?;
        // The embedded copy keeps its folded tables plain (a native search reads them in
        // place); the page downloads its copy, so it gets the smallest form.
        let texts = deckbox::cards::database::compact_details(&texts)
            .ok_or_else(|| format!("{TEXTS_SOURCE} does not read back whole"))?;
        let texts_file = if folder == "web" {
            texts_name(&texts)
        } else {
            TEXTS.to_string()
        };
        std::fs::write(out.join(&texts_file), &texts)
            .map_err(|err| format!("{texts_file}: {err}"))?;
        match folder {
            "web" => {
                copy_dir(&root.join("web/www"), &out)?;
                name_texts(&out.join("app.js"), &texts_file)?;
            }
            "npm" => copy_dir(&root.join("web/pkg"), &out)?,
            _ => {}
        }
        summary.push(format!("{} ({} files)", out.display(), count(&out)?));
    }
    let size = std::fs::metadata(target.join("web/deckbox_web_bg.wasm"))
        .map_err(|err| format!("the page's .wasm: {err}"))?
        .len();
    summary.push(format!("deckbox_web_bg.wasm: {size} bytes"));
    Ok(summary.join("\n"))
}

/// `deckbox_texts.<16 hex digits of the SHA-256 of texts>.bin`.
fn texts_name(texts: &[u8]) -> String {
    use sha2::Digest;
    let hash = sha2::Sha256::digest(texts);
    let hex: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
    TEXTS.replace(".bin", &format!(".{hex}.bin"))
}

/// Writes the texts' file name into the page's script, in place of the one
/// [`TEXTS`] it names (once, in quotes).
fn name_texts(script: &Path, name: &str) -> Result<(), String> {
    let text =
        std::fs::read_to_string(script).map_err(|err| format!("{}: {err}", script.display()))?;
    let quoted = format!("\"{TEXTS}\"");
    if text.matches(&quoted).count() != 1 {
        return Err(format!("{} names {quoted} not once", script.display()));
    }
    std::fs::write(script, text.replace(&quoted, &format!("\"{name}\"")))
        .map_err(|err| format!("{}: {err}", script.display()))
}

/// The exact version `web/Cargo.toml` gives `wasm-bindgen` (`"=0.2.130"`).
fn pinned_version(manifest: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(manifest)
        .map_err(|err| format!("{}: {err}", manifest.display()))?;
    text.lines()
        .find_map(|line| line.strip_prefix("wasm-bindgen = \"="))
        .and_then(|rest| rest.strip_suffix('"'))
        .map(str::to_string)
        .ok_or_else(|| format!("{} pins no `wasm-bindgen = \"=X\"`", manifest.display()))
}

/// Copies the files of `from` (one level: the page has no folders) into `to`.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(from).map_err(|err| format!("{}: {err}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|err| format!("{}: {err}", from.display()))?;
        let path = entry.path();
        if path.is_file() {
            std::fs::copy(&path, to.join(entry.file_name()))
                .map_err(|err| format!("{}: {err}", path.display()))?;
        }
    }
    Ok(())
}

fn count(folder: &Path) -> Result<usize, String> {
    Ok(std::fs::read_dir(folder)
        .map_err(|err| format!("{}: {err}", folder.display()))?
        .count())
}

fn output(command: &mut Command) -> Result<String, String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let out = command
        .output()
        .map_err(|err| format!("{program}: {err}"))?;
    if !out.status.success() {
        return Err(format!("{program} failed ({})", out.status));
    }
    String::from_utf8(out.stdout).map_err(|err| format!("{program}: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_are_named_by_their_content() {
        let a = texts_name(b"one");
        assert_eq!(a, texts_name(b"one"));
        assert_ne!(a, texts_name(b"two"));
        assert!(a.starts_with("deckbox_texts.") && a.ends_with(".bin") && a.len() == 34);
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("app.js");
        std::fs::write(&script, "const TEXTS = \"deckbox_texts.bin\";\n").unwrap();
        name_texts(&script, &a).unwrap();
        let named = std::fs::read_to_string(&script).unwrap();
        assert_eq!(named, format!("const TEXTS = \"{a}\";\n"));
        assert!(name_texts(&script, &a).is_err(), "already named");
    }

    #[test]
    fn the_pinned_version_is_read_from_the_crate() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let version = pinned_version(&root.join("web/Cargo.toml")).unwrap();
        assert!(version.starts_with("0.2."), "{version}");
        let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
        assert!(
            lock.contains(&format!("name = \"wasm-bindgen\"\nversion = \"{version}\"")),
            "Cargo.lock resolves wasm-bindgen {version}"
        );
    }
}
