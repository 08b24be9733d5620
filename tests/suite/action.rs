#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The composite action in `action.yml`, its shell steps run as a GitHub runner runs them
//! (`bash --noprofile --norc -eo pipefail`, the step's `env:` set, `GITHUB_OUTPUT`,
//! `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` files) against a scratch folder of decks, with the
//! deckbox under test on the `PATH`. The install step fetches a release archive made here
//! from the binary under test, in `cargo xtask dist`'s layout, from a server on 127.0.0.1:
//! checksum right, checksum wrong, no archive (a `cargo` first on the `PATH` notes the
//! fallback's arguments: nothing is compiled). The review step runs in a git repository made
//! here, the comment step against a `gh` that notes its calls. The `uses:` steps (the cache,
//! the SARIF upload) are not run here.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::common::repo;

/// One step of the action: the keys this test reads.
#[derive(Debug, Default)]
struct Step {
    name: String,
    shell: String,
    uses: String,
    env: BTreeMap<String, String>,
    run: String,
}

/// The steps of `action.yml`, read line by line: a step starts at `    - name:`, its keys are
/// indented 6 spaces, `env:` entries 8, and a `run: |` script is every line indented 8 or
/// more after it.
fn steps() -> Vec<Step> {
    let text = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let after_runs = text.split_once("\n  steps:\n").unwrap().1;
    let mut steps: Vec<Step> = Vec::new();
    let mut block = "";
    for line in after_runs.lines() {
        if let Some(name) = line.strip_prefix("    - name: ") {
            steps.push(Step {
                name: name.to_string(),
                ..Step::default()
            });
            block = "";
            continue;
        }
        let step = steps.last_mut().unwrap();
        if let Some(rest) = line.strip_prefix("        ") {
            match block {
                "run" => step.run.push_str(&format!("{rest}\n")),
                "env" => {
                    let (key, value) = rest.split_once(": ").unwrap();
                    step.env.insert(key.to_string(), value.to_string());
                }
                _ => {}
            }
            continue;
        }
        if line.trim().is_empty() {
            if block == "run" {
                step.run.push('\n');
            }
            continue;
        }
        let (key, value) = line.trim().split_once(':').unwrap();
        let value = value.trim().to_string();
        block = "";
        match key {
            "shell" => step.shell = value,
            "uses" => step.uses = value,
            "run" => {
                assert_eq!(value, "|", "{line}");
                block = "run";
            }
            "env" => block = "env",
            _ => {}
        }
    }
    steps
}

fn step(name: &str) -> Step {
    steps()
        .into_iter()
        .find(|step| step.name == name)
        .unwrap_or_else(|| panic!("no step {name} in action.yml"))
}

/// What a run of one step left.
struct Ran {
    code: i32,
    stdout: String,
    output: String,
    path: String,
    summary: String,
}

/// Runs `step`'s script as a runner does, in `dir`, with `env` in place of the step's
/// `${{ }}` values (every key of the step's `env:` must be given) and the runner's own
/// variables (a Linux x64 runner unless `env` says otherwise). `bin` is put first on the
/// `PATH`.
fn run(step: &Step, dir: &Path, bin: &Path, env: &[(&str, &str)]) -> Ran {
    let given: Vec<&str> = env.iter().map(|(key, _)| *key).collect();
    for key in step.env.keys() {
        assert!(
            given.contains(&key.as_str()),
            "{}: {key} not given",
            step.name
        );
    }
    let scratch = tempfile::tempdir().unwrap();
    let script = scratch.path().join("step.sh");
    std::fs::write(&script, &step.run).unwrap();
    let output_file = scratch.path().join("output");
    let path_file = scratch.path().join("path");
    let summary_file = scratch.path().join("summary");
    let temp = scratch.path().join("runner-temp");
    std::fs::create_dir(&temp).unwrap();
    for file in [&output_file, &path_file, &summary_file] {
        std::fs::write(file, "").unwrap();
    }
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&script)
        .current_dir(dir)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .envs(env.iter().copied())
        .env("PATH", path)
        .env("HOME", scratch.path())
        .env("GITHUB_OUTPUT", &output_file)
        .env("GITHUB_PATH", &path_file)
        .env("GITHUB_STEP_SUMMARY", &summary_file)
        .env("RUNNER_TEMP", &temp)
        .env("GITHUB_ACTION_PATH", repo())
        .env("DECKBOX_TODAY", crate::common::TODAY)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env_remove("DECKBOX_AS_OF")
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        output: std::fs::read_to_string(&output_file).unwrap(),
        path: std::fs::read_to_string(&path_file).unwrap(),
        summary: std::fs::read_to_string(&summary_file).unwrap(),
    }
}

/// A folder holding only `deckbox`, the binary under test.
fn bin_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let to = dir
        .path()
        .join(format!("deckbox{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_deckbox"), to).unwrap();
    dir
}

/// An executable shell script `name` in `dir`.
#[cfg(unix)]
fn script(dir: &Path, name: &str, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn every_script_reads_its_inputs_from_env() {
    let steps = steps();
    let names: Vec<&str> = steps.iter().map(|step| step.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Choose the deckbox release",
            "Restore deckbox",
            "Install deckbox",
            "Put deckbox on the PATH",
            "Check the decks",
            "Upload to code scanning",
            "Review the pull request",
            "Comment on the pull request",
            "Fail on findings"
        ]
    );
    for step in &steps {
        if step.uses.is_empty() {
            assert_eq!(step.shell, "bash", "{}", step.name);
            assert!(!step.run.is_empty(), "{}", step.name);
            assert!(!step.run.contains("${{"), "{}: {}", step.name, step.run);
        }
    }
    assert!(
        step("Upload to code scanning")
            .uses
            .starts_with("github/codeql-action/upload-sarif@")
    );
    assert!(step("Restore deckbox").uses.starts_with("actions/cache@"));
}

/// The release step: the version of the action's Cargo.toml (or the input's), the archive's
/// target for the runner, the cache key and the install root.
#[test]
fn the_release_is_the_action_version_for_the_runner() {
    if !crate::common::tool("bash", "--version", "the action's shell steps") {
        return;
    }
    let bin = bin_dir();
    let dir = tempfile::tempdir().unwrap();
    let choose = |version: &str, os: &str, arch: &str| -> BTreeMap<String, String> {
        let ran = run(
            &step("Choose the deckbox release"),
            dir.path(),
            bin.path(),
            &[
                ("DECKBOX_VERSION", version),
                ("RUNNER_OS", os),
                ("RUNNER_ARCH", arch),
            ],
        );
        assert_eq!(ran.code, 0, "{}", ran.stdout);
        ran.output
            .lines()
            .map(|line| {
                let (key, value) = line.split_once('=').unwrap();
                (key.to_string(), value.to_string())
            })
            .collect()
    };
    let linux = choose("", "Linux", "X64");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(linux["version"], version);
    assert_eq!(linux["target"], "x86_64-unknown-linux-gnu");
    let digest = linux["key"]
        .strip_prefix(&format!("deckbox-Linux-X64-{version}-"))
        .unwrap();
    assert!(
        digest.len() == 16 && digest.chars().all(|c| c.is_ascii_hexdigit()),
        "{linux:?}"
    );
    assert!(linux["root"].ends_with("/.deckbox-action"), "{linux:?}");
    let mac = choose("9.8.7", "macOS", "ARM64");
    assert_eq!(mac["version"], "9.8.7");
    assert_eq!(mac["target"], "aarch64-apple-darwin");
    assert!(mac["key"].starts_with("deckbox-macOS-ARM64-9.8.7-"));
    // No archive is made for Linux on ARM: the install builds from source.
    assert_eq!(choose("", "Linux", "ARM64")["target"], "");
}

/// A server on 127.0.0.1 handing out the files of `dir` (404 for any other path), one
/// request per connection; the paths asked for are noted.
fn serve(dir: &Path) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let asked = Arc::new(Mutex::new(Vec::new()));
    let noted = Arc::clone(&asked);
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|n| n > 0) && header != "\r\n" {
                header.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
            noted.lock().unwrap().push(path.clone());
            let name = path.trim_start_matches('/');
            let file = (!name.contains('/') && !name.is_empty())
                .then(|| std::fs::read(dir.join(name)).ok())
                .flatten();
            let (status, body) = match file {
                Some(body) => ("200 OK", body),
                None => ("404 Not Found", b"not found\n".to_vec()),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    (url, asked)
}

/// The release archive of the binary under test as `cargo xtask dist` lays it out
/// (`deckbox-VERSION-TARGET/` holding the binary and the documents), written to `dir` as
/// `NAME.tar.gz` with its `.sha256` in sha256sum's format; returns NAME.
fn release_archive(dir: &Path, target: &str) -> String {
    let name = format!("deckbox-{}-{target}", env!("CARGO_PKG_VERSION"));
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    let files = [
        (
            "deckbox",
            std::fs::read(env!("CARGO_BIN_EXE_deckbox")).unwrap(),
            0o755,
        ),
        (
            "LICENSE",
            std::fs::read(repo().join("LICENSE")).unwrap(),
            0o644,
        ),
        (
            "README.md",
            std::fs::read(repo().join("README.md")).unwrap(),
            0o644,
        ),
    ];
    for (file, bytes, mode) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(mode);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, format!("{name}/{file}"), bytes.as_slice())
            .unwrap();
    }
    let archive = tar.into_inner().unwrap().finish().unwrap();
    std::fs::write(dir.join(format!("{name}.tar.gz")), &archive).unwrap();
    let line = format!("{}  {name}.tar.gz\n", hex(&Sha256::digest(&archive)));
    std::fs::write(dir.join(format!("{name}.tar.gz.sha256")), line).unwrap();
    name
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The install step against a release served from 127.0.0.1: the archive whose checksum
/// matches is unpacked and its deckbox runs from the install root (and then checks a deck
/// and writes the summary); a wrong checksum fails the step with nothing installed and no
/// build; no archive for the version (404) builds from the action's source with
/// `cargo install --locked`, here a `cargo` that notes its arguments.
#[cfg(unix)]
#[test]
fn the_install_step_takes_the_checked_archive_or_builds_when_there_is_none() {
    if !crate::common::tool("bash", "--version", "the action's install step")
        || !crate::common::tool("curl", "--version", "the action's install step")
    {
        return;
    }
    let target = "x86_64-unknown-linux-gnu";
    let release = tempfile::tempdir().unwrap();
    let name = release_archive(release.path(), target);
    let (url, asked) = serve(release.path());
    // A `cargo` that notes its arguments and builds nothing.
    let shims = tempfile::tempdir().unwrap();
    let cargo_log = shims.path().join("cargo.log");
    script(
        shims.path(),
        "cargo",
        &format!("#!/bin/sh\necho \"$*\" >> '{}'\n", cargo_log.display()),
    );
    let decks = tempfile::tempdir().unwrap();
    let install = step("Install deckbox");
    let install_into = |root: &Path, version: &str, release_url: &str| {
        run(
            &install,
            decks.path(),
            shims.path(),
            &[
                ("DECKBOX_ROOT", root.to_str().unwrap()),
                ("DECKBOX_VERSION", version),
                ("DECKBOX_TARGET", target),
                ("DECKBOX_RELEASE_URL", release_url),
            ],
        )
    };
    let version = env!("CARGO_PKG_VERSION");

    // The checksum matches: deckbox is installed from the archive, runs, and nothing is built.
    let good = tempfile::tempdir().unwrap();
    let ran = install_into(good.path(), version, &format!("{url}/"));
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout.contains(&format!("deckbox {version}")),
        "{}",
        ran.stdout
    );
    let installed = good.path().join("bin/deckbox");
    let same =
        std::fs::read(&installed).unwrap() == std::fs::read(env!("CARGO_BIN_EXE_deckbox")).unwrap();
    assert!(same, "the archive's binary is installed");
    assert!(!cargo_log.exists(), "nothing built");
    assert_eq!(
        *asked.lock().unwrap(),
        [format!("/{name}.tar.gz"), format!("/{name}.tar.gz.sha256")]
    );
    // The installed deckbox, put on the PATH, checks a deck and reviews nothing amiss.
    let on_path = run(
        &step("Put deckbox on the PATH"),
        decks.path(),
        shims.path(),
        &[("DECKBOX_ROOT", good.path().to_str().unwrap())],
    );
    assert_eq!(on_path.path, format!("{}/bin\n", good.path().display()));
    std::fs::copy(
        repo().join("examples/dragapult.txt"),
        decks.path().join("dragapult.txt"),
    )
    .unwrap();
    let check = run(
        &step("Check the decks"),
        decks.path(),
        &good.path().join("bin"),
        &[
            ("DECKBOX_PATHS", "."),
            ("DECKBOX_CHECK_FORMAT", ""),
            ("DECKBOX_SARIF", "deckbox.sarif"),
        ],
    );
    assert_eq!(check.output, "exit-code=0\n", "{}", check.stdout);

    // The checksum does not match: the step fails, installs nothing and builds nothing.
    let sums = release.path().join(format!("{name}.tar.gz.sha256"));
    let right = std::fs::read_to_string(&sums).unwrap();
    std::fs::write(&sums, format!("{}{}", "0".repeat(64), &right[64..])).unwrap();
    let bad = tempfile::tempdir().unwrap();
    let ran = install_into(bad.path(), version, &url);
    assert_ne!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout.contains("::error::") && ran.stdout.contains("nothing installed"),
        "{}",
        ran.stdout
    );
    assert!(!bad.path().join("bin/deckbox").exists());
    assert!(
        !cargo_log.exists(),
        "a bad checksum never falls back to a build"
    );
    // No checksum beside the archive: the same.
    std::fs::remove_file(&sums).unwrap();
    let ran = install_into(bad.path(), version, &url);
    assert_ne!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout.contains("never installed unchecked"),
        "{}",
        ran.stdout
    );
    assert!(!bad.path().join("bin/deckbox").exists());
    assert!(!cargo_log.exists());

    // No archive for that version: built from the action's source with cargo.
    let none = tempfile::tempdir().unwrap();
    let ran = install_into(none.path(), "0.0.0-none", &url);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    assert!(ran.stdout.contains("no release archive"), "{}", ran.stdout);
    let asked_cargo = std::fs::read_to_string(&cargo_log).unwrap();
    assert_eq!(
        asked_cargo,
        format!(
            "install --locked --path {} --root {}\n",
            repo().display(),
            none.path().display()
        )
    );
    assert!(
        asked
            .lock()
            .unwrap()
            .contains(&format!("/deckbox-0.0.0-none-{target}.tar.gz"))
    );

    // A server that cannot be reached: the step fails, and does not build either.
    std::fs::remove_file(&cargo_log).unwrap();
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let ran = install_into(none.path(), version, &format!("http://127.0.0.1:{port}"));
    assert_ne!(ran.code, 0, "{}", ran.stdout);
    assert!(!cargo_log.exists(), "{}", ran.stdout);
}

/// `git args` in `dir` as a fixed author, with no user or system config.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = crate::common::git_command(dir).args(args).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The review step on a pull request of two commits (a deck added, then broken): the
/// Markdown review goes to the job summary and its file to the step's output, the broken
/// deck does not fail the step (the check step says so); the comment step posts it through
/// `gh` once, then updates that comment.
#[cfg(unix)]
#[test]
fn the_review_step_writes_the_summary_and_the_comment_step_posts_it_once() {
    if !crate::common::tool("git", "--version", "the action's review step") {
        return;
    }
    let bin = bin_dir();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::create_dir(root.join("decks")).unwrap();
    let dragapult = std::fs::read_to_string(repo().join("examples/dragapult.txt")).unwrap();
    std::fs::write(root.join("decks/dragapult.txt"), &dragapult).unwrap();
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "a deck"]);
    let base = git(root, &["rev-parse", "HEAD"]);
    let broken = dragapult.replace("4 Dreepy TWM 128", "5 Dreepy TWM 128");
    assert_ne!(broken, dragapult);
    std::fs::write(root.join("decks/dragapult.txt"), &broken).unwrap();
    git(root, &["commit", "-q", "-a", "-m", "a fifth Dreepy"]);

    let review = step("Review the pull request");
    let ran = run(
        &review,
        root,
        bin.path(),
        &[("DECKBOX_BASE", &base), ("DECKBOX_CHECK_FORMAT", "")],
    );
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    let short = git(root, &["rev-parse", "--short", &base]);
    assert!(
        ran.summary
            .starts_with(&format!("## deckbox review: {short} → ")),
        "{}",
        ran.summary
    );
    assert!(
        ran.summary.contains("### decks/dragapult.txt (changed)"),
        "{}",
        ran.summary
    );
    assert!(ran.summary.contains("Dreepy"), "{}", ran.summary);
    let markdown = ran.output.trim_end().strip_prefix("markdown=").unwrap();
    assert!(markdown.ends_with("/deckbox-review.md"), "{markdown}");
    // The same review as deckbox's own (the file is gone with the runner's temp folder).
    let (_, direct) = crate::common::run_deckbox(
        root,
        &[
            "review",
            &short,
            &git(root, &["rev-parse", "--short", "HEAD"]),
            "--output",
            "markdown",
        ],
        b"",
    );
    assert_eq!(crate::common::stdout_of(&direct), ran.summary);

    // A base commit that is nowhere, not even on the remote: the step fails with 2.
    let ran = run(
        &review,
        root,
        bin.path(),
        &[
            ("DECKBOX_BASE", &"0".repeat(40)),
            ("DECKBOX_CHECK_FORMAT", ""),
        ],
    );
    assert_eq!(ran.code, 2, "{}", ran.stdout);
    assert_eq!(ran.summary, "");

    // The comment: a `gh` that notes its calls, and lists an earlier deckbox comment once
    // there is one.
    let shims = tempfile::tempdir().unwrap();
    let calls = shims.path().join("gh.log");
    let existing = shims.path().join("existing");
    let sent = shims.path().join("sent.md");
    script(
        shims.path(),
        "gh",
        &format!(
            "#!/bin/sh\necho \"$GH_HOST $*\" >> '{calls}'\ncase \"$*\" in *--paginate*) cat '{existing}' 2>/dev/null; exit 0;; esac\nfor arg; do case \"$arg\" in body=@*) cp \"${{arg#body=@}}\" '{sent}';; esac; done\necho https://github.example/comment\n",
            calls = calls.display(),
            existing = existing.display(),
            sent = sent.display()
        ),
    );
    let review_file = root.join("review.md");
    std::fs::write(&review_file, "## deckbox review: a → b\n\nreviewed\n").unwrap();
    let comment = step("Comment on the pull request");
    let post = || {
        run(
            &comment,
            root,
            shims.path(),
            &[
                ("GH_TOKEN", "token"),
                ("DECKBOX_REPOSITORY", "owner/decks"),
                ("DECKBOX_PULL_REQUEST", "7"),
                ("DECKBOX_REVIEW", review_file.to_str().unwrap()),
            ],
        )
    };
    let ran = post();
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("review posted: https://github.example/comment"),
        "{}",
        ran.stdout
    );
    let log = std::fs::read_to_string(&calls).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].starts_with("github.com api --paginate repos/owner/decks/issues/7/comments"),
        "{log}"
    );
    assert!(
        lines[1].starts_with(
            "github.com api --method POST repos/owner/decks/issues/7/comments -F body=@"
        ),
        "{log}"
    );
    assert_eq!(
        std::fs::read_to_string(&sent).unwrap(),
        "<!-- deckbox review -->\n## deckbox review: a → b\n\nreviewed\n"
    );
    // A deckbox comment is there already: it is updated, not stacked.
    std::fs::write(&existing, "4242\n").unwrap();
    std::fs::remove_file(&calls).unwrap();
    let ran = post();
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    let log = std::fs::read_to_string(&calls).unwrap();
    assert!(
        log.lines().nth(1).unwrap().starts_with(
            "github.com api --method PATCH repos/owner/decks/issues/comments/4242 -F body=@"
        ),
        "{log}"
    );
    // gh refused (a read-only token): a warning, not a failed job.
    script(shims.path(), "gh", "#!/bin/sh\nexit 1\n");
    let ran = post();
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    assert!(
        ran.stdout.contains("::warning::deckbox could not comment"),
        "{}",
        ran.stdout
    );
}

#[test]
fn the_shell_steps_check_a_folder_of_decks() {
    if !crate::common::tool("bash", "--version", "the action's shell steps") {
        return;
    }
    let bin = bin_dir();
    let decks = tempfile::tempdir().unwrap();
    let root = decks.path();
    std::fs::create_dir(root.join("decks")).unwrap();
    let examples = repo().join("examples");
    std::fs::copy(
        examples.join("dragapult.txt"),
        root.join("decks/dragapult.txt"),
    )
    .unwrap();

    // The install root's bin folder goes on the PATH.
    let on_path = run(
        &step("Put deckbox on the PATH"),
        root,
        bin.path(),
        &[("DECKBOX_ROOT", "/opt/deckbox-action")],
    );
    assert_eq!(on_path.code, 0);
    assert_eq!(on_path.path, "/opt/deckbox-action/bin\n");

    let check = step("Check the decks");
    let check_with = |paths: &str, format: &str| {
        run(
            &check,
            root,
            bin.path(),
            &[
                ("DECKBOX_PATHS", paths),
                ("DECKBOX_CHECK_FORMAT", format),
                ("DECKBOX_SARIF", "deckbox.sarif"),
            ],
        )
    };
    let sarif = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(root.join("deckbox.sarif")).unwrap()).unwrap()
    };

    // A valid deck: exit code 0, a SARIF report with no results.
    let clean = check_with(".", "");
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    assert_eq!(clean.output, "exit-code=0\n");
    let report = sarif();
    assert_eq!(report["version"], "2.1.0");
    assert_eq!(report["runs"][0]["results"].as_array().unwrap().len(), 0);

    // A broken deck beside it: the step passes (so the report is uploaded), says 1, and the
    // findings are in the log and in the report.
    std::fs::copy(examples.join("broken.txt"), root.join("decks/lost-box.txt")).unwrap();
    let broken = check_with(".", "");
    assert_eq!(broken.code, 0, "{}", broken.stdout);
    assert_eq!(broken.output, "exit-code=1\n");
    assert!(
        broken
            .stdout
            .contains("decks/lost-box.txt:2:1: error copy-limit"),
        "{}",
        broken.stdout
    );
    let rules: Vec<String> = sarif()["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["ruleId"].as_str().unwrap().to_string())
        .collect();
    assert!(rules.contains(&"copy-limit".to_string()), "{rules:?}");

    // A format: the valid deck alone, judged in GLC, breaks GLC's singleton rule; paths
    // separated by spaces are two operands.
    let glc = check_with("decks/dragapult.txt", "glc");
    assert_eq!(glc.output, "exit-code=1\n", "{}", glc.stdout);
    let both = check_with("decks/dragapult.txt decks/lost-box.txt", "");
    assert_eq!(both.output, "exit-code=1\n", "{}", both.stdout);
    assert!(
        both.stdout.contains("decks/lost-box.txt:2:1"),
        "{}",
        both.stdout
    );

    // deckbox cannot do its job (a file that does not exist): the step fails with 2.
    let failed = check_with("decks/missing.txt", "");
    assert_eq!(failed.code, 2, "{}", failed.stdout);
    assert!(
        failed.stdout.contains("::error::deckbox could not check"),
        "{}",
        failed.stdout
    );

    // The last step fails the job on findings unless told not to.
    let fail = step("Fail on findings");
    let verdict = |exit: &str, fail_on: &str| {
        run(
            &fail,
            root,
            bin.path(),
            &[
                ("DECKBOX_EXIT", exit),
                ("DECKBOX_FAIL_ON_FINDINGS", fail_on),
            ],
        )
        .code
    };
    assert_eq!(verdict("1", "true"), 1);
    assert_eq!(verdict("1", "false"), 0);
    assert_eq!(verdict("0", "true"), 0);
}

/// The action's documentation names its inputs as `action.yml` declares them.
#[test]
fn the_documented_inputs_are_the_declared_ones() {
    let action = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let inputs = action
        .split_once("\ninputs:\n")
        .unwrap()
        .1
        .split_once("\noutputs:")
        .unwrap()
        .0;
    let declared: Vec<&str> = inputs
        .lines()
        .filter_map(|line| line.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|key| !key.starts_with(' '))
        .collect();
    assert_eq!(
        declared,
        [
            "paths",
            "format",
            "sarif-file",
            "upload",
            "fail-on-findings",
            "review",
            "comment",
            "github-token",
            "version",
            "release-url"
        ]
    );
    let doc = std::fs::read_to_string(repo().join("docs/repositories.md")).unwrap();
    for input in declared {
        assert!(
            doc.contains(&format!("`{input}`")),
            "docs/repositories.md: {input}"
        );
    }
}
