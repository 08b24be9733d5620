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

use std::path::Path;
use std::process::Command;

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
        match folder {
            "web" => copy_dir(&root.join("web/www"), &out)?,
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
