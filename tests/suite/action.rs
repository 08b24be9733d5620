#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! The composite action in `action.yml`, its shell steps run as a GitHub runner runs them
//! (`bash --noprofile --norc -eo pipefail`, the step's `env:` set, `GITHUB_OUTPUT` and
//! `GITHUB_PATH` files) against a scratch folder of decks, with the deckbox under test on the
//! `PATH`. The install step (`cargo install` of this repository: a release build's time) and
//! the `uses:` steps (the cache, the SARIF upload) are not run here.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

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
}

/// Runs `step`'s script as a runner does, in `dir`, with `env` in place of the step's
/// `${{ }}` values (every key of the step's `env:` must be given) and the runner's own
/// variables. `bin` is put first on the `PATH`.
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
    std::fs::write(&output_file, "").unwrap();
    std::fs::write(&path_file, "").unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&script)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env("PATH", path)
        .env("HOME", scratch.path())
        .env("GITHUB_OUTPUT", &output_file)
        .env("GITHUB_PATH", &path_file)
        .env("GITHUB_ACTION_PATH", repo())
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env("DECKBOX_TODAY", crate::common::TODAY)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        output: std::fs::read_to_string(&output_file).unwrap(),
        path: std::fs::read_to_string(&path_file).unwrap(),
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

#[test]
fn every_script_reads_its_inputs_from_env() {
    let steps = steps();
    let names: Vec<&str> = steps.iter().map(|step| step.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Key the deckbox build",
            "Restore deckbox",
            "Install deckbox",
            "Put deckbox on the PATH",
            "Check the decks",
            "Upload to code scanning",
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
    let install = step("Install deckbox").run;
    assert!(
        install.contains("cargo install --path \"$GITHUB_ACTION_PATH\" --locked"),
        "{install}"
    );
}

#[test]
fn the_shell_steps_key_install_and_check_a_folder_of_decks() {
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

    // The cache key: the runner, then a digest of the action's source.
    let key = run(&step("Key the deckbox build"), root, bin.path(), &[]);
    assert_eq!(key.code, 0, "{}", key.stdout);
    let lines: Vec<&str> = key.output.lines().collect();
    let digest = lines[0].strip_prefix("key=deckbox-Linux-X64-").unwrap();
    assert!(
        digest.len() == 16 && digest.chars().all(|c| c.is_ascii_hexdigit()),
        "{lines:?}"
    );
    let root_line = lines[1].strip_prefix("root=").unwrap();
    assert!(root_line.ends_with("/.deckbox-action"), "{root_line}");

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
            "fail-on-findings"
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
