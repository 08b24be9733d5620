#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `pip install deckbox`: the wheel `pyproject.toml` describes (maturin, `bindings = "bin"`),
//! built with the profile of the binary under test (so maturin's cargo build reuses it: no
//! build of its own), installed with `pip install --no-index` into a fresh
//! virtual environment, and run from the environment's `bin`: it says the same as the binary
//! under test. Needs maturin and python3 (`.ci/run` installs maturin).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::common::{self, repo};

/// What `cargo test` set for this test that a cargo build started from here must not see:
/// a build script that watches one (ring's watches `CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`,
/// `OUT_DIR`) would run again and rebuild deckbox (xtask/src/dist.rs says the same).
fn as_from_a_shell(command: &mut Command) -> &mut Command {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let set_by_cargo = name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_BIN_EXE_")
            || [
                "CARGO_MANIFEST_DIR",
                "CARGO_MANIFEST_PATH",
                "CARGO_CRATE_NAME",
                "CARGO_BIN_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
                "CARGO_RUSTC_CURRENT_DIR",
                "OUT_DIR",
            ]
            .contains(&name.as_ref());
        if set_by_cargo {
            command.env_remove(name.as_ref());
        }
    }
    command
}

fn ok(what: &str, output: &Output) {
    assert!(
        output.status.success(),
        "{what}: {}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `program args` as the suite runs deckbox: today fixed, no card or format variables.
fn deckbox_output(program: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo())
        .env("DECKBOX_TODAY", common::TODAY)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env_remove("DECKBOX_AS_OF")
        .output()
        .unwrap();
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The wheel of `pyproject.toml`, built once per test process (the two tests that install it
/// share it; two maturin builds at once would each copy the profile's folder) with the profile
/// of the binary under test: `--profile dev` under `cargo test`, `--release` under `cargo test
/// --release` (CI), so maturin's cargo build finds that build fresh and compiles nothing. It
/// lives in the target's `tmp` folder under this process's id; folders of finished runs are
/// removed first.
pub fn built_wheel() -> &'static Path {
    &built_wheel_and_log().0
}

/// What maturin said while building [`built_wheel`]'s wheel (cargo's `Compiling` lines tell
/// a wheel built afresh from one built from the binary under test).
fn built_wheel_log() -> &'static str {
    &built_wheel_and_log().1
}

fn built_wheel_and_log() -> &'static (PathBuf, String) {
    static WHEEL: OnceLock<(PathBuf, String)> = OnceLock::new();
    WHEEL.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        std::fs::create_dir_all(tmp).unwrap();
        for entry in std::fs::read_dir(tmp).unwrap() {
            let path = entry.unwrap().path();
            let pid = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_prefix("wheel-"))
                .and_then(|pid| pid.parse::<u32>().ok());
            if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                std::fs::remove_dir_all(&path).unwrap();
            }
        }
        let out = tmp.join(format!("wheel-{}", std::process::id()));
        build_wheel(&out)
    })
}

/// A copy of a profile's folder for a second cargo build to run in, made so that nothing the
/// copy's build writes can reach the original: cargo writes the fingerprints, the `.d` files
/// and build scripts' outputs in place (a hard link would carry the write back to the
/// original), so those are copied with their times; the compiled crates and executables,
/// which rustc and the linker replace (a new file, then a rename), are hard links;
/// `incremental` is left out (a fresh build needs none).
fn profile_copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (path, name) = (entry.path(), entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            if name != "incremental" {
                profile_copy(&path, &to.join(&name));
            }
        } else if kind.is_file() {
            // The profile's own folder and its `deps`: executables (no extension) and crates.
            // Not `.cargo-lock`: a lock shared by both folders would make each build wait for
            // the other.
            let output_folder = from.join("deps").is_dir() || from.ends_with("deps");
            let replaced = !name.to_string_lossy().starts_with('.')
                && path
                    .extension()
                    .is_none_or(|ext| ["rlib", "rmeta", "so", "a"].iter().any(|ok| ext == *ok));
            if output_folder && replaced {
                std::fs::hard_link(&path, to.join(&name)).unwrap();
            } else {
                // With its time: cargo compares the times of a unit's files with its
                // dependencies' (a copy made now, in any order, would look stale).
                let copied = to.join(&name);
                std::fs::copy(&path, &copied).unwrap();
                let modified = entry.metadata().unwrap().modified().unwrap();
                std::fs::File::options()
                    .write(true)
                    .open(&copied)
                    .unwrap()
                    .set_modified(modified)
                    .unwrap();
            }
        }
    }
}

fn build_wheel(out: &Path) -> (PathBuf, String) {
    let under_test = Path::new(env!("CARGO_BIN_EXE_deckbox"));
    let profile_dir = under_test.parent().unwrap();
    let profile = profile_dir
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let copy = tempfile::tempdir_in(profile_dir.parent().unwrap()).unwrap();
    profile_copy(profile_dir, &copy.path().join(&profile));
    let mut maturin = Command::new("maturin");
    maturin.arg("build");
    match profile.as_str() {
        "debug" => maturin.args(["--profile", "dev"]),
        _ => maturin.arg("--release"),
    };
    let built = as_from_a_shell(
        maturin
            .args(["--locked", "--target-dir"])
            .arg(copy.path())
            .arg("--out")
            .arg(out)
            .current_dir(repo()),
    )
    .output()
    .unwrap();
    ok("maturin build", &built);
    let found: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    let log = String::from_utf8_lossy(&built.stderr).into_owned();
    (found.into_iter().next().unwrap(), log)
}

#[cfg(unix)]
#[test]
fn the_wheel_installs_into_a_fresh_venv_and_runs_deckbox() {
    let test = "the wheel";
    if !common::tool("maturin", "--version", test) || !common::tool("python3", "--version", test) {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let wheel = built_wheel();
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        name.starts_with(&format!("deckbox-{version}-py3-none-")) && name.ends_with(".whl"),
        "{name}"
    );

    // A fresh environment, the wheel alone, no index.
    let venv = scratch.path().join("venv");
    ok(
        "python3 -m venv",
        &Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output()
            .unwrap(),
    );
    let installed = Command::new(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-cache-dir",
        ])
        .arg(wheel)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .unwrap();
    ok("pip install --no-index", &installed);

    // The environment's deckbox is the binary under test.
    let from_wheel = venv.join("bin/deckbox");
    let under_test = Path::new(env!("CARGO_BIN_EXE_deckbox"));
    assert!(
        std::fs::read(&from_wheel).unwrap() == std::fs::read(under_test).unwrap(),
        "the wheel's deckbox is not the binary under test: maturin's cargo build compiled \
         instead of finding the build fresh; its output:\n{}",
        built_wheel_log()
    );
    let said = deckbox_output(&from_wheel, &["--version"]);
    assert_eq!(said, (Some(0), format!("deckbox {version}\n")));
    for example in ["examples/dragapult.txt", "examples/broken.txt"] {
        let args = ["check", example];
        assert_eq!(
            deckbox_output(&from_wheel, &args),
            deckbox_output(under_test, &args),
            "{example}"
        );
    }
    assert_eq!(
        deckbox_output(&from_wheel, &["check", "examples/broken.txt"]).0,
        Some(1)
    );
}
