#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Whole-repository checks through the real binary: directory walks (`.gitignore`, hidden
//! files, symbolic links), deckbox.toml (discovery, globs, overrides, precedence, strict
//! schema, paths kept inside its folder), unreadable files, SARIF, and `deckbox config`.

use crate::common;

use std::path::Path;

use common::repo;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `deckbox` in `dir` with no deckbox environment but `env`.
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = crate::common::deckbox_command();
    command
        .args(args)
        .current_dir(dir)
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT")
        .env("COLUMNS", "100")
        .env("DECKBOX_CACHE_DIR", dir.join(".cache"));
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Writes `files` (path under `dir`, example deck to copy or literal text) into `dir`.
fn tree(dir: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        if let Some(example) = content.strip_prefix("example:") {
            std::fs::copy(repo().join("examples").join(example), &target).unwrap();
        } else {
            std::fs::write(&target, content).unwrap();
        }
    }
}

/// `(path, format, valid)` of every deck in a JSON report.
fn decks(json: &str) -> Vec<(String, String, bool)> {
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    report["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|deck| {
            (
                deck["path"].as_str().unwrap().to_string(),
                deck["format"].as_str().unwrap().to_string(),
                deck["valid"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn paths(json: &str) -> Vec<String> {
    decks(json).into_iter().map(|(path, _, _)| path).collect()
}

#[test]
fn walk_honours_gitignore_with_and_without_git() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            ("a.txt", "example:dragapult.txt"),
            ("sub/b.deck", "example:dragapult.txt"),
            ("sub/c.ptcgl", "example:dragapult.txt"),
            ("ignored/x.txt", "example:broken.txt"),
            ("sub/scratch.txt", "example:broken.txt"),
            ("sub/.gitignore", "scratch.txt\n"),
            (".gitignore", "ignored/\n"),
            (".hidden/y.txt", "example:broken.txt"),
            (".z.txt", "example:broken.txt"),
            ("notes.md", "not a deck"),
        ],
    );
    // A symbolic link loop is not followed (and so cannot hang the walk).
    std::os::unix::fs::symlink(dir.path(), dir.path().join("sub/loop")).unwrap();
    let expected = ["./a.txt", "./sub/b.deck", "./sub/c.ptcgl"];
    let out = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(paths(&out.stdout), expected);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let out = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    assert_eq!(paths(&out.stdout), expected);
    // Named on the command line, an ignored file is checked all the same.
    let out = run(
        dir.path(),
        &["check", "ignored/x.txt", "--output", "json"],
        &[],
    );
    assert_eq!(out.code, 1);
    assert_eq!(paths(&out.stdout), ["ignored/x.txt"]);
}

/// git's rules, as deckbox reads the ignore files itself: a negation brings a file back,
/// `.ignore` wins over `.gitignore`, `.git/info/exclude` applies in a repository, and the
/// ignore files of the folders above the one walked apply up to the repository's root.
#[test]
fn walk_follows_gits_ignore_rules() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (".gitignore", "*.deck\n!keep.deck\nlocal/\n"),
            ("decks/keep.deck", "example:dragapult.txt"),
            ("decks/drop.deck", "example:broken.txt"),
            ("decks/a.txt", "example:dragapult.txt"),
            ("decks/.gitignore", "b.txt\n"),
            ("decks/.ignore", "!b.txt\n"),
            ("decks/b.txt", "example:dragapult.txt"),
            ("decks/local/c.txt", "example:broken.txt"),
            ("decks/excluded.txt", "example:broken.txt"),
            (".git/info/exclude", "excluded.txt\n"),
        ],
    );
    let expected = ["./a.txt", "./b.txt", "./keep.deck"];
    let out = run(
        &dir.path().join("decks"),
        &["check", ".", "--output", "json"],
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(paths(&out.stdout), expected);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn config_globs_include_and_exclude() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (
                "deckbox.toml",
                "[files]\ninclude = [\"decks/**/*.txt\", \"*.list\"]\nexclude = [\"decks/drafts/**\"]\n",
            ),
            ("decks/a.txt", "example:dragapult.txt"),
            ("decks/deep/b.txt", "example:dragapult.txt"),
            ("decks/drafts/c.txt", "example:broken.txt"),
            ("other/d.txt", "example:broken.txt"),
            ("other/e.list", "example:dragapult.txt"),
            ("decks/f.deck", "example:broken.txt"),
        ],
    );
    let out = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        paths(&out.stdout),
        ["./decks/a.txt", "./decks/deep/b.txt", "./other/e.list"]
    );
    // Globs are relative to the config file, wherever the walk starts.
    let out = run(
        &dir.path().join("decks"),
        &["check", ".", "--output", "json"],
        &[],
    );
    assert_eq!(paths(&out.stdout), ["./a.txt", "./deep/b.txt"]);
    let out = run(
        dir.path(),
        &["check", "decks", "decks/drafts/c.txt", "--output", "json"],
        &[],
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        paths(&out.stdout),
        ["decks/a.txt", "decks/deep/b.txt", "decks/drafts/c.txt"]
    );
}

#[test]
fn overrides_pick_the_format_per_path() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (
                "deckbox.toml",
                "format = \"expanded\"\n[[overrides]]\npaths = [\"glc/**\"]\nformat = \"glc\"\n[[overrides]]\npaths = [\"old/*.txt\"]\nformat = \"unlimited\"\n",
            ),
            ("a.txt", "example:dragapult.txt"),
            ("glc/b.txt", "example:dragapult.txt"),
            ("old/c.txt", "example:dragapult.txt"),
        ],
    );
    let out = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    let formats: Vec<(String, String)> = decks(&out.stdout)
        .into_iter()
        .map(|(path, format, _)| (path, format))
        .collect();
    let expected = [
        ("./a.txt", "expanded"),
        ("./glc/b.txt", "glc"),
        ("./old/c.txt", "unlimited"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(p, f)| (p.to_string(), f.to_string()))
        .collect();
    assert_eq!(formats, expected);
    // Dragapult ex has a Rule Box: the GLC copy breaks a rule.
    assert!(out.stdout.contains("\"rule-box\""));
    // `--format` applies to every file.
    let out = run(
        dir.path(),
        &["check", ".", "--output", "json", "-f", "standard"],
        &[],
    );
    assert!(decks(&out.stdout).iter().all(|(_, f, _)| f == "standard"));
}

#[test]
fn config_is_found_from_a_subdirectory() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            ("deckbox.toml", "format = \"glc\"\n"),
            ("a/b/deck.txt", "example:dragapult.txt"),
        ],
    );
    let deep = dir.path().join("a/b");
    let out = run(&deep, &["check", "deck.txt", "--output", "json"], &[]);
    assert_eq!(decks(&out.stdout)[0].1, "glc");
    let out = run(
        &deep,
        &["check", "deck.txt", "--output", "json", "--no-config"],
        &[],
    );
    assert_eq!(decks(&out.stdout)[0].1, "standard");
    let elsewhere = tempfile::tempdir().unwrap();
    tree(
        elsewhere.path(),
        &[("mine.toml", "format = \"expanded\"\n")],
    );
    let explicit = elsewhere.path().join("mine.toml");
    let out = run(
        &deep,
        &[
            "check",
            "deck.txt",
            "--output",
            "json",
            "--config",
            explicit.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(decks(&out.stdout)[0].1, "expanded");
}

#[test]
fn precedence_flag_env_file_default() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            ("deckbox.toml", "format = \"glc\"\ncards = \"data\"\n"),
            ("deck.txt", "example:dragapult.txt"),
        ],
    );
    let format = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["check", "deck.txt", "--output", "json"];
        all.extend_from_slice(args);
        let out = run(dir.path(), &all, env);
        decks(&out.stdout)[0].1.clone()
    };
    let env = [("DECKBOX_FORMAT", "expanded")];
    // `data` in the config file is no card database: the format levels are checked with
    // `deckbox config`, which opens none, and with `--no-config` for the default.
    let config = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["config", "--output", "json"];
        all.extend_from_slice(args);
        let out = run(dir.path(), &all, env);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
    };
    let flag = config(&["--format", "standard"], &env);
    assert_eq!(flag["format"]["value"], "standard");
    assert_eq!(flag["format"]["origin"]["kind"], "flag");
    let from_env = config(&[], &env);
    assert_eq!(from_env["format"]["value"], "expanded");
    assert_eq!(from_env["format"]["origin"]["var"], "DECKBOX_FORMAT");
    let file = config(&[], &[]);
    assert_eq!(file["format"]["value"], "glc");
    assert_eq!(file["format"]["origin"]["kind"], "file");
    assert_eq!(file["format"]["origin"]["line"], 1);
    let default = config(&["--no-config"], &[]);
    assert_eq!(default["format"]["value"], "standard");
    assert_eq!(default["format"]["origin"]["kind"], "default");
    // The same order for the card database.
    let cards_flag = config(&["--cards", "/flag"], &[("DECKBOX_CARDS", "/env")]);
    assert_eq!(cards_flag["cards"]["value"], "/flag");
    let cards_env = config(&[], &[("DECKBOX_CARDS", "/env")]);
    assert_eq!(cards_env["cards"]["value"], "/env");
    assert_eq!(cards_env["cards"]["origin"]["var"], "DECKBOX_CARDS");
    let cards_file = config(&[], &[]);
    assert!(
        cards_file["cards"]["value"]
            .as_str()
            .unwrap()
            .ends_with("/data")
    );
    assert_eq!(cards_file["cards"]["origin"]["line"], 2);
    assert_eq!(
        config(&["--no-config"], &[])["cards"]["value"],
        serde_json::Value::Null
    );
    // And each level really reaches the check: the environment over the file, the file
    // over the default.
    std::fs::write(dir.path().join("deckbox.toml"), "format = \"glc\"\n").unwrap();
    assert_eq!(format(&["--format", "standard"], &env), "standard");
    assert_eq!(format(&[], &env), "expanded");
    assert_eq!(format(&[], &[]), "glc");
    assert_eq!(format(&["--no-config"], &[]), "standard");
}

#[test]
fn unknown_key_is_an_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (
                "deckbox.toml",
                "# decks\nformat = \"glc\"\nlangauge = \"fr\"\n",
            ),
            ("deck.txt", "example:dragapult.txt"),
        ],
    );
    let out = run(dir.path(), &["check", "deck.txt"], &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("deckbox.toml:3:1"), "{}", out.stderr);
    assert!(
        out.stderr.contains("unknown key `langauge`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `language`?"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
}

#[test]
fn config_paths_may_not_leave_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("repo");
    tree(
        &inner,
        &[
            ("deck.txt", "example:dragapult.txt"),
            ("deckbox.toml", "cards = \"../cards\"\n"),
        ],
    );
    std::fs::create_dir(dir.path().join("cards")).unwrap();
    let out = run(&inner, &["check", "deck.txt"], &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("outside the config file's folder"),
        "{}",
        out.stderr
    );
    // A link out of the folder is caught too.
    std::os::unix::fs::symlink(dir.path().join("cards"), inner.join("link")).unwrap();
    std::fs::write(inner.join("deckbox.toml"), "cards = \"link\"\n").unwrap();
    let out = run(&inner, &["check", "deck.txt"], &[]);
    assert!(
        out.stderr.contains("outside the config file's folder"),
        "{}",
        out.stderr
    );
    std::fs::write(
        inner.join("deckbox.toml"),
        "[files]\nexclude = [\"../x/**\"]\n",
    )
    .unwrap();
    let out = run(&inner, &["check", "deck.txt"], &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("reaches outside"), "{}", out.stderr);
}

#[test]
fn many_files_come_out_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut expected = Vec::new();
    // Names chosen so creation order, directory order and path order differ.
    for i in 0..120u32 {
        let folder = ["b", "a", "c/d", "c"][(i % 4) as usize];
        let name = format!("{folder}/{:03}.txt", (i * 37) % 120);
        let example = if i % 3 == 0 {
            "broken.txt"
        } else {
            "dragapult.txt"
        };
        tree(dir.path(), &[(&name, &format!("example:{example}"))]);
        expected.push(format!("./{name}"));
    }
    expected.sort();
    let first = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    assert_eq!(first.code, 1);
    assert_eq!(paths(&first.stdout), expected);
    let short = run(dir.path(), &["check", ".", "--output", "short"], &[]);
    // The same report on one thread, two, and one per core (`--threads` as `stats` has it).
    for threads in ["1", "2", "0"] {
        let json = ["check", ".", "--output", "json", "--threads", threads];
        assert_eq!(run(dir.path(), &json, &[]).stdout, first.stdout);
        let again = ["check", ".", "--output", "short", "--threads", threads];
        assert_eq!(run(dir.path(), &again, &[]).stdout, short.stdout);
    }
    let refused = run(dir.path(), &["check", ".", "--threads", "257"], &[]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("from 0 to 256"),
        "{}",
        refused.stderr
    );
    let human = run(dir.path(), &["check", ".", "--color", "never"], &[]);
    assert!(
        human
            .stdout
            .ends_with("checked 120 decks: 80 valid, 40 invalid\n"),
        "{}",
        human.stdout
    );
}

#[test]
fn one_thread_and_two_give_the_same_report_across_chunks() {
    // More files than two chunks of the walk (512 each), standard input among them: one
    // thread walks, checks and writes in turn, two hand chunks over; the reports must match.
    let dir = tempfile::tempdir().unwrap();
    for i in 0..1100u32 {
        let example = if i % 7 == 0 {
            "broken.txt"
        } else {
            "dragapult.txt"
        };
        let name = format!("{}/{:04}.txt", i % 3, i);
        tree(dir.path(), &[(&name, &format!("example:{example}"))]);
    }
    let pasted = "Pokémon: 1\n4 Pikachu BS 58\n";
    let report = |threads: &str, output: &str| {
        let mut command = crate::common::deckbox_command();
        command
            .args(["check", "1", "-", "0", "2", "--output", output])
            .args(["--threads", threads])
            .current_dir(dir.path())
            .env_remove("DECKBOX_CARDS")
            .env_remove("DECKBOX_FORMAT")
            .env("DECKBOX_CACHE_DIR", dir.path().join(".cache"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command.spawn().unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), pasted.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    for output in ["short", "sarif"] {
        let one = report("1", output);
        assert_eq!(one.0, Some(1), "{output}");
        assert_eq!(one, report("2", output), "{output}");
    }
    let (_, json) = report("1", "json");
    let order = paths(&json);
    assert_eq!(order.len(), 1101);
    // Folder 1 first, then standard input, then folders 0 and 2: the operands' order.
    assert_eq!(order[366], "1/1099.txt");
    assert_eq!(order[367], "-");
    assert_eq!(order[368], "0/0000.txt");
    assert_eq!(order[1100], "2/1097.txt");
}

#[test]
fn unreadable_files_among_readable_ones() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            ("a.txt", "example:dragapult.txt"),
            ("b.txt", "example:broken.txt"),
            ("c.txt", "example:dragapult.txt"),
        ],
    );
    // Too large to be a deck list: unreadable whoever runs the test.
    let huge = vec![b'#'; 9 * 1024 * 1024];
    std::fs::write(dir.path().join("big.txt"), huge).unwrap();
    let out = run(dir.path(), &["check", ".", "--output", "short"], &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("./big.txt is larger than"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("./b.txt:"), "{}", out.stdout);
    let human = run(dir.path(), &["check", ".", "--color", "never"], &[]);
    assert!(
        human
            .stdout
            .ends_with("checked 3 decks: 2 valid, 1 invalid; 1 file could not be read\n"),
        "{}",
        human.stdout
    );
    std::fs::remove_file(dir.path().join("big.txt")).unwrap();
    // Without read permission, unless the test runs as a user who reads it anyway (root).
    let locked = dir.path().join("c.txt");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&locked).is_ok() {
        eprintln!("note: chmod 000 part skipped: this user reads the file anyway");
        return;
    }
    let out = run(dir.path(), &["check", ".", "--output", "json"], &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot read ./c.txt"), "{}", out.stderr);
    assert_eq!(paths(&out.stdout), ["./a.txt", "./b.txt"]);
}

#[test]
fn empty_directory_warns_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "no decks here").unwrap();
    let out = run(dir.path(), &["check", "."], &[]);
    assert_eq!(out.code, 0);
    assert!(
        out.stderr.starts_with("warning: no deck lists found"),
        "{}",
        out.stderr
    );
}

/// Checks the properties SARIF 2.1.0 requires (and those code-scanning services read) on a
/// real multi-file check, against the spec's object definitions.
#[test]
fn sarif_has_the_required_structure() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            ("decks/dragapult.txt", "example:dragapult.txt"),
            ("decks/broken.txt", "example:broken.txt"),
            ("decks/fr/gardevoir fr.txt", "example:gardevoir-fr.txt"),
        ],
    );
    let out = run(dir.path(), &["check", "decks", "--output", "sarif"], &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let log: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // sarifLog: version (must be "2.1.0") and runs are required.
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    // run: tool is required; toolComponent: name is required.
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "deckbox");
    assert!(driver["version"].is_string());
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), deckbox::check::rules::Rule::ALL.len());
    for rule in rules {
        // reportingDescriptor: id is required; descriptions are multiformatMessageStrings.
        assert!(rule["id"].is_string());
        for key in ["shortDescription", "fullDescription", "help"] {
            assert!(rule[key]["text"].is_string(), "{key} of {rule}");
        }
    }
    let artifacts = run["artifacts"].as_array().unwrap();
    let uris: Vec<&str> = artifacts
        .iter()
        .map(|artifact| artifact["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "decks/broken.txt",
            "decks/dragapult.txt",
            "decks/fr/gardevoir%20fr.txt"
        ]
    );
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for result in results {
        // result: message is required, with text; ruleId names a rule of the driver.
        assert!(result["message"]["text"].is_string());
        let id = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(["error", "warning", "note", "none"].contains(&result["level"].as_str().unwrap()));
        for location in result["locations"].as_array().unwrap() {
            let physical = &location["physicalLocation"];
            let artifact = &physical["artifactLocation"];
            let at = artifact["index"].as_u64().unwrap() as usize;
            assert_eq!(artifact["uri"], artifacts[at]["location"]["uri"]);
            if let Some(region) = physical.get("region") {
                // region: lines and columns are integers ≥ 1, the end not before the start.
                for key in ["startLine", "startColumn", "endLine", "endColumn"] {
                    assert!(region[key].as_u64().unwrap() >= 1, "{key}: {region}");
                }
                let start = (region["startLine"].as_u64(), region["startColumn"].as_u64());
                let end = (region["endLine"].as_u64(), region["endColumn"].as_u64());
                assert!(end >= start, "{region}");
            }
        }
    }
    // broken.txt's unknown card is located on its line.
    let unknown = results
        .iter()
        .find(|result| {
            result["ruleId"] == "unknown-card"
                && result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    == "decks/broken.txt"
        })
        .expect("an unknown-card result in broken.txt");
    let region = &unknown["locations"][0]["physicalLocation"]["region"];
    assert!(region["startLine"].as_u64().unwrap() > 1);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

#[test]
fn config_command_shows_each_origin() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        repo().join("tests/fixtures/repo/deckbox.toml"),
        dir.path().join("deckbox.toml"),
    )
    .unwrap();
    let out = run(dir.path(), &["config"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("config-text", out.stdout);
    let out = run(
        dir.path(),
        &["config", "--cards", "cards"],
        &[("DECKBOX_FORMAT", "expanded")],
    );
    insta::assert_snapshot!("config-flag-and-env", out.stdout);
    let out = run(dir.path(), &["config", "--no-config"], &[]);
    insta::assert_snapshot!("config-none", out.stdout);
}

/// A format file an override names that cannot be read stops `check` and `fmt --check`
/// before any deck is reported, even when the file it applies to comes last in the walk
/// (the walk streams its files, so the formats are loaded by a walk of their own first).
#[test]
fn an_override_format_that_cannot_load_stops_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (
                "deckbox.toml",
                "format = \"standard\"\n[[overrides]]\npaths = [\"z/**\"]\nformat = \"bad.toml\"\n",
            ),
            ("bad.toml", "name = 3\n"),
            ("a.txt", "example:dragapult.txt"),
            ("z/b.txt", "example:dragapult.txt"),
        ],
    );
    for args in [&["check", "."][..], &["fmt", "--check", "."]] {
        let out = run(dir.path(), args, &[]);
        assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(out.stderr.contains("bad.toml"), "{args:?}: {}", out.stderr);
    }
    // Without the file it applies to, the override loads nothing and the run is clean.
    std::fs::remove_file(dir.path().join("z/b.txt")).unwrap();
    let out = run(dir.path(), &["check", "."], &[]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("a.txt"));
}

/// A walk names the files it passed over whose names may hold a list (issue 50), but not
/// those `deckbox.toml` excludes, nor a README: the user chose those.
#[test]
fn skipped_lists_are_named_unless_excluded() {
    let dir = tempfile::tempdir().unwrap();
    tree(
        dir.path(),
        &[
            (
                "deckbox.toml",
                "[files]\ninclude = [\"decks/**/*.txt\"]\nexclude = [\"decks/archive/**\"]\n",
            ),
            ("decks/dragapult.txt", "example:dragapult.txt"),
            ("decks/top8.md", "example:dragapult.txt"),
            ("decks/archive/old.json", "{}"),
            ("decks/README.md", "# Our decks\n"),
        ],
    );
    let out = run(dir.path(), &["check", "."], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "note: skipped 1 file whose names are not those of deck lists: ./decks/top8.md\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("old.json") && !out.stderr.contains("README"),
        "{}",
        out.stderr
    );
}
