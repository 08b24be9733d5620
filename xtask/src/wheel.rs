//! `cargo xtask wheel`: the Python wheel that holds the deckbox binary.
//!
//! [`wheel`] runs `maturin build` on the repository's `pyproject.toml` (`bindings = "bin"`:
//! the wheel holds the binary as a script, `deckbox-VERSION.data/scripts/deckbox`, and the
//! licences, no Python code), by default the binary the release archive ships (release
//! profile and [`crate::dist::SHIPPED_RUSTC_FLAGS`]), into `target/wheels`, and says which
//! wheel it wrote and its size. `pip install`, `pipx install` and `uvx` then run deckbox with
//! no Rust toolchain (docs/install.md).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// How to get maturin when it is missing.
const MATURIN_MISSING: &str = "maturin is not installed (or not on the PATH): `python3 -m pip install maturin` (or `pipx install maturin`), then run `cargo xtask wheel` again";

/// The cargo profile the wheel's binary is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// What ships: `maturin build --release` with the release archive's rustc flags.
    Release,
    /// `--profile dev`: reuses the debug build of `cargo build` / `cargo test` (for tests; a
    /// large, slow binary).
    Dev,
}

/// The maturin to run: `$MATURIN`, else `maturin` from the `PATH`.
fn maturin() -> OsString {
    std::env::var_os("MATURIN").unwrap_or_else(|| "maturin".into())
}

/// `maturin build` (the program `maturin`) for `root`, writing into `out`.
fn maturin_build(maturin: &OsStr, root: &Path, out: &Path, profile: Profile) -> Command {
    let mut command = Command::new(maturin);
    command.arg("build").current_dir(root);
    match profile {
        Profile::Release => command.arg("--release"),
        Profile::Dev => command.args(["--profile", "dev"]),
    };
    command.arg("--locked").arg("--out").arg(out);
    if profile == Profile::Release {
        // maturin passes what follows `--` to the binary's `cargo rustc`, as dist does.
        command.arg("--").args(crate::dist::SHIPPED_RUSTC_FLAGS);
    }
    crate::dist::as_from_a_shell(&mut command);
    command
}

/// Builds the wheel into `target/wheels` and says where it is and how large.
pub fn wheel(root: &Path, profile: Profile) -> Result<String, String> {
    wheel_with(&maturin(), root, profile)
}

fn wheel_with(maturin: &OsStr, root: &Path, profile: Profile) -> Result<String, String> {
    let found = Command::new(maturin).arg("--version").output();
    let version = match found {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => return Err(MATURIN_MISSING.to_string()),
    };
    let out = root.join("target/wheels");
    let started = SystemTime::now();
    let status = maturin_build(maturin, root, &out, profile)
        .status()
        .map_err(|err| format!("{MATURIN_MISSING} ({err})"))?;
    if !status.success() {
        return Err(format!("maturin build failed ({status})"));
    }
    let wheel = newest_wheel(&out, started)?;
    let bytes = std::fs::metadata(&wheel)
        .map_err(|err| format!("{}: {err}", wheel.display()))?
        .len();
    Ok(format!(
        "{} ({bytes} bytes, {:.1} MB; {} profile, {version})",
        wheel.display(),
        megabytes(bytes),
        match profile {
            Profile::Release => "release",
            Profile::Dev => "dev",
        }
    ))
}

#[allow(clippy::cast_precision_loss, reason = "a size to read, not to count")]
fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// The deckbox wheel in `out` written at or after `since`.
fn newest_wheel(out: &Path, since: SystemTime) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(out).map_err(|err| format!("{}: {err}", out.display()))?;
    let mut newest: Option<(SystemTime, PathBuf)> = None;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let modified = entry.metadata().and_then(|meta| meta.modified());
        if let Ok(modified) = modified
            && name.starts_with("deckbox-")
            && name.ends_with(".whl")
            && modified >= since
            && newest.as_ref().is_none_or(|(time, _)| modified > *time)
        {
            newest = Some((modified, path));
        }
    }
    newest
        .map(|(_, path)| path)
        .ok_or_else(|| format!("maturin wrote no deckbox wheel into {}", out.display()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
    use super::*;

    /// A missing maturin is said plainly, with the command that installs it, before
    /// anything is built.
    #[test]
    fn a_missing_maturin_says_how_to_install_it() {
        let temp = tempfile::tempdir().unwrap();
        let missing = temp.path().join("no-maturin-here");
        let error = wheel_with(missing.as_os_str(), temp.path(), Profile::Dev).unwrap_err();
        assert!(error.starts_with("maturin is not installed"), "{error}");
        assert!(error.contains("python3 -m pip install maturin"), "{error}");
        assert!(!temp.path().join("target").exists());
    }

    /// The command: `maturin build`, the profile asked for, the lock file kept, the output
    /// folder, and none of what `cargo run` set.
    #[test]
    fn the_build_command_names_the_profile_and_drops_cargo_run_variables() {
        let root = crate::root();
        let out = root.join("target/wheels");
        let release = maturin_build(OsStr::new("maturin"), &root, &out, Profile::Release);
        let args: Vec<_> = release
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args[..3], ["build", "--release", "--locked"]);
        // The release archive's flags, after maturin's own options.
        assert_eq!(args[5..], ["--", "-C", "lto=fat"]);
        let dev = maturin_build(OsStr::new("maturin"), &root, &out, Profile::Dev);
        let args: Vec<_> = dev
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args[..4], ["build", "--profile", "dev", "--locked"]);
        assert_eq!(args[5], out.to_string_lossy());
        assert_eq!(args.len(), 6, "no rustc flags for the dev wheel: {args:?}");
        let removed: Vec<String> = dev
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        assert!(
            removed.iter().any(|name| name == "CARGO_MANIFEST_DIR"),
            "{removed:?}"
        );
    }
}
