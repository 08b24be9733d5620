//! `cargo xtask dist`: the release archive of the host's build.
//!
//! [`dist`] builds the shipped binary with cargo (the release profile, and
//! [`SHIPPED_RUSTC_FLAGS`] on the binary's final compile and link), then [`pack`] lays out
//! `target/dist/deckbox-VERSION-TARGET/` and writes `deckbox-VERSION-TARGET.tar.gz` and its
//! `.sha256` (sha256sum's format) beside it. [`pack`] takes any built binary, so its test
//! packs one without a release build. The man pages and completion scripts come from the
//! binary itself (`deckbox man`, `deckbox completions`): what ships is what that binary
//! parses.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The completion scripts shipped: the shell's name for `deckbox completions`, and the file
/// name each shell's completion folder expects.
pub const COMPLETIONS: [(&str, &str); 4] = [
    ("bash", "deckbox.bash"),
    ("zsh", "_deckbox"),
    ("fish", "deckbox.fish"),
    ("powershell", "_deckbox.ps1"),
];

/// The documents shipped at the top of the archive: (path in the repository, name in the
/// archive). Every licence of what the binary carries: deckbox's, the card index's (TCGdex)
/// and the registration sheet's fonts (DejaVu).
pub const DOCUMENTS: [(&str, &str); 5] = [
    ("README.md", "README.md"),
    ("CHANGELOG.md", "CHANGELOG.md"),
    ("LICENSE", "LICENSE"),
    ("cards/LICENSE-TCGdex", "LICENSE-TCGdex"),
    ("assets/fonts/LICENSE-DejaVu.txt", "LICENSE-DejaVu.txt"),
];

/// What [`pack`] wrote.
#[derive(Debug)]
pub struct Packed {
    /// The folder the archive holds, left beside it (the release workflow zips it on Windows).
    pub folder: PathBuf,
    pub archive: PathBuf,
    pub checksum: PathBuf,
    /// The archive's paths, in the order written.
    pub entries: Vec<String>,
}

/// What `cargo run` sets for the program it runs (the `cargo xtask` alias runs this one)
/// beside `CARGO_PKG_*`: a build script that watches one of them with
/// `rerun-if-env-changed` (ring's watches `CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`, `OUT_DIR`)
/// would see it changed since `cargo build --release` ran from a shell, run again, and
/// rebuild the whole release binary, byte for byte the same.
const SET_BY_CARGO_RUN: [&str; 8] = [
    "CARGO_MANIFEST_DIR",
    "CARGO_MANIFEST_PATH",
    "CARGO_CRATE_NAME",
    "CARGO_BIN_NAME",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_TARGET_TMPDIR",
    "CARGO_RUSTC_CURRENT_DIR",
    "OUT_DIR",
];

/// What the shipped binary (the release archive, the wheel) is built with beyond
/// `[profile.release]`, as rustc flags of the `deckbox` binary's own crate: fat LTO, which
/// replaces the profile's thin LTO for the final link only. The library and every
/// dependency are those `cargo build --release` made (LTO reads the bitcode they carry), so
/// nothing but the binary is compiled again; `cargo build --release`, `cargo install` and
/// `cargo test --release` keep thin LTO (docs/performance.md, "What ships": the gain per
/// process and the cost of the link). Not among them: `-C target-feature=+crt-static` (a
/// static glibc binary loads the host's NSS modules, and crashed looking up a user without
/// `$HOME`: same section).
pub const SHIPPED_RUSTC_FLAGS: [&str; 2] = ["-C", "lto=fat"];

/// `cargo rustc --release` of the `deckbox` binary with [`SHIPPED_RUSTC_FLAGS`], in the
/// environment of a shell: without what `cargo run` set for xtask ([`SET_BY_CARGO_RUN`],
/// `CARGO_PKG_*`), so the release build's dependencies are reused, not rebuilt. Cargo keeps
/// both links of the binary in `target/release/deps` (the flags give this one another name)
/// and copies the one built last to `target/release/deckbox`: after both were built once,
/// going from `cargo build --release` to `cargo xtask dist` and back links nothing again.
fn release_build(root: &Path) -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "rustc",
            "--release",
            "--locked",
            "--package",
            "deckbox",
            "--bin",
            "deckbox",
            "--",
        ])
        .args(SHIPPED_RUSTC_FLAGS)
        .current_dir(root);
    as_from_a_shell(&mut command);
    command
}

/// Removes from `command`'s environment what `cargo run` set for xtask
/// ([`SET_BY_CARGO_RUN`], `CARGO_PKG_*`): a cargo build it runs (itself or through maturin)
/// then reuses what a build from a shell made.
pub fn as_from_a_shell(command: &mut Command) {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_") || SET_BY_CARGO_RUN.contains(&name.as_ref()) {
            command.env_remove(name.as_ref());
        }
    }
}

/// Builds the shipped binary for the host (or reuses an up-to-date one) and packs it into
/// `target/dist`.
pub fn dist(root: &Path) -> Result<String, String> {
    let status = release_build(root)
        .status()
        .map_err(|err| format!("cargo rustc: {err}"))?;
    if !status.success() {
        return Err(format!("cargo rustc --release failed ({status})"));
    }
    let binary = root
        .join("target/release")
        .join(format!("deckbox{}", std::env::consts::EXE_SUFFIX));
    let packed = pack(&binary, root, &root.join("target/dist"), &host_target()?)?;
    Ok(format!(
        "{}\n{}\n({} entries, unpacked in {})",
        packed.archive.display(),
        packed.checksum.display(),
        packed.entries.len(),
        packed.folder.display()
    ))
}

/// The host's target triple, as `rustc -vV` names it.
fn host_target() -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let verbose = output(Command::new(rustc).arg("-vV"))?;
    verbose
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV names no host".to_string())
}

/// Packs `binary` (a built deckbox), with the documents of the repository at `root`, into
/// `out/deckbox-VERSION-TARGET.tar.gz`, VERSION being what `binary --version` says.
pub fn pack(binary: &Path, root: &Path, out: &Path, target: &str) -> Result<Packed, String> {
    let version = output(Command::new(binary).arg("--version"))?;
    let version = version
        .trim()
        .strip_prefix("deckbox ")
        .ok_or_else(|| format!("{} --version: {version:?}", binary.display()))?;
    let name = format!("deckbox-{version}-{target}");
    let folder = out.join(&name);
    if folder.exists() {
        std::fs::remove_dir_all(&folder).map_err(|err| at(&folder, &err))?;
    }
    let files = layout(binary, root)?;
    for (path, file) in &files {
        let to = folder.join(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|err| at(parent, &err))?;
        }
        std::fs::write(&to, &file.bytes).map_err(|err| at(&to, &err))?;
    }
    let archive = out.join(format!("{name}.tar.gz"));
    let (bytes, entries) = tar_gz(&name, &files)?;
    crate::write(&archive, &bytes)?;
    let checksum = out.join(format!("{name}.tar.gz.sha256"));
    let line = format!("{}  {name}.tar.gz\n", sha256_hex(&bytes));
    crate::write(&checksum, line.as_bytes())?;
    Ok(Packed {
        folder,
        archive,
        checksum,
        entries,
    })
}

/// One file of the archive.
struct File {
    bytes: Vec<u8>,
    executable: bool,
}

/// Every file of the archive, by its path under the archive's folder, in the order written.
fn layout(binary: &Path, root: &Path) -> Result<Vec<(String, File)>, String> {
    let binary_name = binary
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| format!("{}: not a file name", binary.display()))?;
    let mut files = vec![(
        binary_name.to_string(),
        File {
            bytes: std::fs::read(binary).map_err(|err| at(binary, &err))?,
            executable: true,
        },
    )];
    let plain = |bytes: Vec<u8>| File {
        bytes,
        executable: false,
    };
    for (from, name) in DOCUMENTS {
        let path = root.join(from);
        let bytes = std::fs::read(&path).map_err(|err| at(&path, &err))?;
        files.push((name.to_string(), plain(bytes)));
    }
    for (shell, name) in COMPLETIONS {
        let script = output(Command::new(binary).args(["completions", shell]))?;
        files.push((format!("complete/{name}"), plain(script.into_bytes())));
    }
    for (page, roff) in man_pages(binary)? {
        files.push((format!("man/man1/{page}.1"), plain(roff.into_bytes())));
    }
    Ok(files)
}

/// `deckbox(1)` and one `deckbox-COMMAND(1)` page for every command it refers to but `help`.
fn man_pages(binary: &Path) -> Result<Vec<(String, String)>, String> {
    let main = output(Command::new(binary).arg("man"))?;
    let mut commands: Vec<&str> = main
        .split("deckbox\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(command, _)| command))
        .filter(|command| {
            command
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        // clap's `deckbox help` prints the others' help: it has no page of its own.
        .filter(|command| *command != "help")
        .collect();
    commands.dedup();
    if commands.is_empty() {
        return Err(format!("{} man: no command pages named", binary.display()));
    }
    let mut pages = Vec::with_capacity(commands.len() + 1);
    for command in &commands {
        let page = output(Command::new(binary).args(["man", command]))?;
        pages.push((format!("deckbox-{command}"), page));
    }
    pages.insert(0, ("deckbox".to_string(), main.clone()));
    Ok(pages)
}

/// The gzipped tar of `files` under the folder `name`, and its entries' paths. Each folder's
/// entry comes before its first file, as tar(1) writes them.
fn tar_gz(name: &str, files: &[(String, File)]) -> Result<(Vec<u8>, Vec<String>), String> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    let mut entries: Vec<String> = Vec::new();
    let io = |err: std::io::Error| format!("archive: {err}");
    for (path, file) in files {
        let full = format!("{name}/{path}");
        let folders = full.match_indices('/').map(|(end, _)| &full[..=end]);
        for folder in folders {
            if !entries.iter().any(|entry| entry == folder) {
                let mut header = header(tar::EntryType::Directory, 0, 0o755);
                tar.append_data(&mut header, folder, std::io::empty())
                    .map_err(io)?;
                entries.push(folder.to_string());
            }
        }
        let mode = if file.executable { 0o755 } else { 0o644 };
        let size = u64::try_from(file.bytes.len()).map_err(|err| err.to_string())?;
        let mut header = header(tar::EntryType::Regular, size, mode);
        tar.append_data(&mut header, &full, file.bytes.as_slice())
            .map_err(io)?;
        entries.push(full);
    }
    let gz = tar.into_inner().map_err(io)?;
    Ok((gz.finish().map_err(io)?, entries))
}

/// A tar header dated `SOURCE_DATE_EPOCH` when set (a reproducible build), else now.
fn header(kind: tar::EntryType, size: u64, mode: u32) -> tar::Header {
    let mtime = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|epoch| epoch.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_secs())
        });
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_size(size);
    header.set_mode(mode);
    header.set_mtime(mtime);
    header
}

/// The SHA-256 of `bytes` in lowercase hex, as sha256sum prints it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// What `command` printed, or why it failed.
fn output(command: &mut Command) -> Result<String, String> {
    let shown = format!("{command:?}");
    let out = command.output().map_err(|err| format!("{shown}: {err}"))?;
    if !out.status.success() {
        return Err(format!(
            "{shown} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|err| format!("{shown}: {err}"))
}

fn at(path: &Path, err: &std::io::Error) -> String {
    format!("{}: {err}", path.display())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
    use super::*;

    /// The deckbox binary cargo built beside this test, in the same profile: `cargo build`
    /// (or `cargo test --release`, as CI runs before this) makes it.
    fn built_deckbox(root: &Path) -> PathBuf {
        let profile = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        let binary = root
            .join("target")
            .join(profile)
            .join(format!("deckbox{}", std::env::consts::EXE_SUFFIX));
        assert!(
            binary.is_file(),
            "{} is missing: build deckbox first (`cargo build`, or `cargo test --release` for the release profile)",
            binary.display()
        );
        binary
    }

    /// Issue 50: `cargo xtask dist` rebuilt the release binary `cargo build --release` had
    /// just built. The `cargo xtask` alias is `cargo run`, which sets `CARGO_PKG_NAME`,
    /// `CARGO_MANIFEST_DIR`... for xtask; ring's build script reruns when they change, so
    /// the inner `cargo build --release` recompiled ring and everything above it. Cargo
    /// sets the same variables for this test: the build command must drop each of them.
    #[test]
    fn the_release_build_runs_without_what_cargo_run_set() {
        assert!(std::env::var_os("CARGO_PKG_NAME").is_some(), "run by cargo");
        assert!(
            std::env::var_os("CARGO_MANIFEST_DIR").is_some(),
            "run by cargo"
        );
        let command = release_build(&crate::root());
        let removed: Vec<String> = command
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        for (name, _) in std::env::vars() {
            let set_by_cargo = name.starts_with("CARGO_PKG_")
                || [
                    "CARGO_MANIFEST_DIR",
                    "CARGO_MANIFEST_PATH",
                    "CARGO_CRATE_NAME",
                ]
                .contains(&name.as_str());
            assert!(
                !set_by_cargo || removed.contains(&name),
                "{name} reaches the release build: {removed:?}"
            );
        }
        // What the user configures stays: the toolchain, the target folder, the profile.
        assert!(!removed.iter().any(|name| name == "CARGO_HOME"));
        // The binary alone, with fat LTO on its final link.
        let args: Vec<_> = command
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args.join(" "),
            "rustc --release --locked --package deckbox --bin deckbox -- -C lto=fat"
        );
    }

    /// Packs a built binary into a temporary folder: the archive holds the binary, the
    /// documents and licences, the four completion scripts and a man page per command, all
    /// under one folder; the `.sha256` beside it is the archive's, in sha256sum's format.
    #[test]
    fn packs_a_built_binary_with_its_pages_scripts_and_licences() {
        let root = crate::root();
        let temp = tempfile::tempdir().unwrap();
        let out = temp.path();
        let packed = pack(&built_deckbox(&root), &root, out, "test-target").unwrap();
        let archive_name = packed.archive.file_name().unwrap().to_str().unwrap();
        assert!(
            archive_name.starts_with("deckbox-") && archive_name.ends_with("-test-target.tar.gz"),
            "{archive_name}"
        );
        let folder = archive_name.strip_suffix(".tar.gz").unwrap();

        // What the archive holds, read back with the tar reader.
        let bytes = std::fs::read(&packed.archive).unwrap();
        let mut read = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
        let mut listed = Vec::new();
        for entry in read.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let mut content = Vec::new();
            std::io::Read::read_to_end(&mut entry, &mut content).unwrap();
            let mode = entry.header().mode().unwrap();
            listed.push((path, content, mode));
        }
        let names: Vec<&str> = listed.iter().map(|(path, ..)| path.as_str()).collect();
        assert_eq!(
            names, packed.entries,
            "the entries reported are those written"
        );
        let file = |name: &str| {
            let full = format!("{folder}/{name}");
            listed
                .iter()
                .find(|(path, ..)| *path == full)
                .unwrap_or_else(|| panic!("{full} not in {names:#?}"))
        };
        let binary = format!("deckbox{}", std::env::consts::EXE_SUFFIX);
        let (_, content, mode) = file(&binary);
        assert_eq!(content, &std::fs::read(built_deckbox(&root)).unwrap());
        assert_eq!(mode & 0o111, 0o111, "the binary is executable");
        for (from, name) in DOCUMENTS {
            assert_eq!(
                file(name).1,
                std::fs::read(root.join(from)).unwrap(),
                "{name}"
            );
        }
        assert!(String::from_utf8_lossy(&file("LICENSE").1).contains("MIT License"));
        for (_, name) in COMPLETIONS {
            let (_, script, mode) = file(&format!("complete/{name}"));
            assert!(script.len() > 1000, "{name}: {} bytes", script.len());
            assert_eq!(mode & 0o111, 0, "{name} is not executable");
        }
        assert!(
            String::from_utf8_lossy(&file("complete/_deckbox").1).starts_with("#compdef deckbox")
        );
        let main_page = String::from_utf8_lossy(&file("man/man1/deckbox.1").1).into_owned();
        assert!(main_page.contains(".TH deckbox 1"), "{main_page}");
        for command in ["check", "fmt", "stats", "sheet", "search", "man"] {
            let page = file(&format!("man/man1/deckbox-{command}.1"));
            assert!(
                String::from_utf8_lossy(&page.1).contains(&format!(".TH deckbox-{command} 1")),
                "{command}"
            );
        }
        let pages = names.iter().filter(|name| name.ends_with(".1")).count();
        assert_eq!(
            pages,
            main_page.matches("(1)").count(),
            "deckbox(1) and a page for every command it names but help"
        );
        // Folders come before their files; nothing lies outside the archive's folder.
        assert_eq!(names[0], format!("{folder}/"));
        assert!(
            names
                .iter()
                .all(|name| name.starts_with(&format!("{folder}/")))
        );
        let man = names
            .iter()
            .position(|name| *name == format!("{folder}/man/man1/"))
            .unwrap();
        assert!(names[..man].iter().all(|name| !name.ends_with(".1")));

        // The checksum line: sha256sum's `HEX  NAME`, the archive's digest.
        let line = std::fs::read_to_string(&packed.checksum).unwrap();
        assert_eq!(
            packed.checksum.file_name().unwrap().to_str().unwrap(),
            format!("{archive_name}.sha256")
        );
        let (hex, name) = line.trim_end().split_once("  ").unwrap();
        assert_eq!(name, archive_name);
        assert_eq!(hex.len(), 64);
        assert_eq!(hex, sha256_hex(&bytes));
        assert!(line.ends_with('\n'));
        // The folder beside it holds the same files.
        assert!(packed.folder.join(&binary).is_file());
        assert!(packed.folder.join("man/man1/deckbox-check.1").is_file());
    }

    /// SHA-256 of known inputs (FIPS 180-2's examples).
    #[test]
    fn sha256_matches_the_standard_examples() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
