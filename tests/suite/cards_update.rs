#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `deckbox cards update | status | reset`, the real binary against archives made here from
//! `../shared/data/tcgdex-repo` with a newer synthetic set added (Testing Grounds, `TSG`,
//! released 2026-10-30, after the embedded index's newest set), served by a small HTTP
//! server on 127.0.0.1 or read as files. Nothing leaves the loopback interface.
//!
//! The whole dataset is packed once per test binary ([`full_archive`]); the tests about
//! broken archives use the Mega Evolution series alone ([`small_archive`]), installed with
//! `--force` where a test needs an updated index to stay in place.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

use crate::common;

const TOP: &str = "cards-database-master";

const SET_FILE: &str = r#"import { Set } from '../../interfaces'
import serie from '../Mega Evolution'

const set: Set = {
	id: "me99",
	name: {
		en: "Testing Grounds",
		fr: "Terrain d'Essai"
	},
	serie: serie,
	cardCount: {
		official: 2
	},
	releaseDate: "2026-10-30",
	abbreviations: {
		official: "TSG"
	}
}

export default set
"#;

const CARD_1: &str = r#"import { Card } from "../../../interfaces"
import Set from "../Testing Grounds"

const card: Card = {
	set: Set,
	name: {
		en: "Zyntharo",
		fr: "Zyntharo"
	},
	illustrator: "Nobody",
	rarity: "Common",
	category: "Pokemon",
	hp: 70,
	types: ["Grass"],
	stage: "Basic",
	attacks: [{
		name: {
			en: "Leafy Nudge"
		},
		cost: ["Grass"],
		damage: 20
	}],
	retreat: 1,
	regulationMark: "J"
}

export default card
"#;

const CARD_2: &str = r#"import { Card } from "../../../interfaces"
import Set from "../Testing Grounds"

const card: Card = {
	set: Set,
	name: {
		en: "Zyntharo Trail Map"
	},
	illustrator: "Nobody",
	rarity: "Uncommon",
	category: "Trainer",
	trainerType: "Item",
	effect: {
		en: "Draw 2 cards."
	},
	regulationMark: "J"
}

export default card
"#;

/// One archive entry: its raw path, its kind, its bytes.
struct Entry {
    path: Vec<u8>,
    kind: tar::EntryType,
    data: Vec<u8>,
}

fn file(path: &str, data: &[u8]) -> Entry {
    Entry {
        path: path.as_bytes().to_vec(),
        kind: tar::EntryType::Regular,
        data: data.to_vec(),
    }
}

/// A `.tar.gz` of `entries`, written header by header so that paths the tar crate would
/// refuse (`..`, absolute) can be made.
fn tar_gz(entries: &[Entry]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for entry in entries {
        let mut header = tar::Header::new_gnu();
        let name = &mut header.as_old_mut().name;
        assert!(entry.path.len() < name.len(), "short paths only");
        name[..entry.path.len()].copy_from_slice(&entry.path);
        header.set_entry_type(entry.kind);
        header.set_size(entry.data.len() as u64);
        header.set_mode(0o644);
        if entry.kind.is_symlink() || entry.kind.is_hard_link() {
            header.set_link_name("../../../../etc/passwd").unwrap();
        }
        header.set_cksum();
        builder.append(&header, entry.data.as_slice()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// The TCGdex files under `data/` whose path starts with `only` (all of them for `""`), as
/// archive entries under [`TOP`], with the synthetic set added.
fn dataset(data: &Path, only: &str) -> Vec<Entry> {
    let root = data.join("tcgdex-repo");
    let mut files = Vec::new();
    walk(&root.join("data"), &mut files);
    files.sort();
    let mut entries: Vec<Entry> = files
        .iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(&root).unwrap().to_str()?.to_string();
            relative
                .starts_with(&format!("data/{only}"))
                .then(|| file(&format!("{TOP}/{relative}"), &std::fs::read(path).unwrap()))
        })
        .collect();
    let set = format!("{TOP}/data/Mega Evolution/Testing Grounds");
    entries.push(file(&format!("{set}.ts"), SET_FILE.as_bytes()));
    entries.push(file(&format!("{set}/001.ts"), CARD_1.as_bytes()));
    entries.push(file(&format!("{set}/002.ts"), CARD_2.as_bytes()));
    entries
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The whole dataset and the synthetic set, packed once; `None` (with a note) without
/// `../shared/data`.
fn full_archive(test: &str) -> Option<&'static [u8]> {
    static FULL: OnceLock<Vec<u8>> = OnceLock::new();
    let data = common::shared_data(test)?;
    Some(FULL.get_or_init(|| tar_gz(&dataset(&data, ""))))
}

/// The Mega Evolution series and the synthetic set: far fewer printings than the embedded
/// index, so it installs only with `--force`.
fn small_archive(test: &str) -> Option<&'static [u8]> {
    static SMALL: OnceLock<Vec<u8>> = OnceLock::new();
    let data = common::shared_data(test)?;
    Some(SMALL.get_or_init(|| tar_gz(&dataset(&data, "Mega Evolution"))))
}

/// Runs `deckbox ARGS` with `data` as its data folder, no proxy, no config file.
fn deckbox(data: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = common::deckbox_command();
    command
        .args(args)
        .current_dir(data)
        .env("DECKBOX_DATA_DIR", data)
        .env("DECKBOX_CACHE_DIR", data.join(".cache"))
        .env_remove("DECKBOX_CARDS")
        .env_remove("DECKBOX_FORMAT");
    for proxy in [
        "ALL_PROXY",
        "all_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
    ] {
        command.env_remove(proxy);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn status(data: &Path) -> String {
    let output = deckbox(data, &["cards", "status"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    String::from_utf8(output.stdout).unwrap()
}

/// What the test server answers on each path.
#[derive(Clone)]
enum Answer {
    Body(Vec<u8>),
    /// The body sent in pieces with a pause before each.
    Slow(Vec<u8>),
    /// Announces this many bytes and sends none.
    Huge(u64),
    Redirect(String),
}

/// Serves `routes` on 127.0.0.1 from a thread for the rest of the test binary; returns the
/// base URL.
fn serve(routes: Vec<(&'static str, Answer)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let routes = routes.clone();
            std::thread::spawn(move || answer(stream, &routes));
        }
    });
    base
}

fn answer(mut stream: TcpStream, routes: &[(&'static str, Answer)]) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
    let found = routes.iter().find(|(route, _)| *route == path);
    let _ = match found.map(|(_, answer)| answer) {
        None => stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"),
        Some(Answer::Body(body)) => stream
            .write_all(
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
            )
            .and_then(|()| stream.write_all(body)),
        Some(Answer::Slow(body)) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            for piece in body.chunks(body.len() / 20 + 1) {
                std::thread::sleep(Duration::from_millis(500));
                if stream.write_all(piece).is_err() {
                    break;
                }
            }
            Ok(())
        }
        Some(Answer::Huge(length)) => stream.write_all(
            format!("HTTP/1.1 200 OK\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n")
                .as_bytes(),
        ),
        Some(Answer::Redirect(to)) => stream.write_all(
            format!(
                "HTTP/1.1 302 Found\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            )
            .as_bytes(),
        ),
    };
    let _ = stream.flush();
    // Drain what the client still sends so that closing does not reset the connection.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let _ = reader.read(&mut [0u8; 1024]);
}

/// A 60-card Unlimited deck of the synthetic set's Pokémon, as a player types it.
const DECK: &str = "Pokémon: 4\n4 Zyntharo TSG 1\n\nTrainer: 4\n4 Zyntharo Trail Map TSG 2\n\nEnergy: 52\n52 Grass Energy SVE 1\n";

#[test]
fn a_newer_set_from_the_network_is_known_to_check_card_and_search() {
    let Some(archive) = full_archive("cards_update::a_newer_set") else {
        return;
    };
    let sha = sha256_hex(archive);
    let base = serve(vec![("/cards.tar.gz", Answer::Body(archive.to_vec()))]);
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    std::fs::write(data.join("deck.txt"), DECK).unwrap();
    let before = status(data);
    assert!(before.starts_with("card index: embedded"), "{before}");
    // Unknown to the embedded index: the hint names the update.
    let check = ["check", "deck.txt", "-f", "unlimited", "--no-config"];
    let output = deckbox(data, &check, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("deckbox cards update"),
        "{}",
        text(&output)
    );

    let url = format!("{base}/cards.tar.gz");
    let wrong = "0".repeat(64);
    let output = deckbox(
        data,
        &["cards", "update", "--from", &url, "--sha256", &wrong],
        &[],
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains(&format!("SHA-256 is {sha}")),
        "{}",
        text(&output)
    );
    assert_eq!(status(data), before);

    let output = deckbox(
        data,
        &["cards", "update", "--from", &url, "--sha256", &sha],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let after = status(data);
    assert!(after.starts_with("card index: updated"), "{after}");
    assert!(after.contains(&format!("from: {url}")), "{after}");
    assert!(after.contains(&format!("sha256: {sha}")), "{after}");
    assert!(
        after.contains("newest set: Testing Grounds (TSG, me99), released 2026-10-30"),
        "{after}"
    );
    let embedded: usize = field(&before, "printings").parse().unwrap();
    let updated: usize = field(&after, "printings").parse().unwrap();
    assert_eq!(updated, embedded + 2, "{before}\n{after}");

    let output = deckbox(data, &check, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let output = deckbox(data, &["card", "Zyntharo", "--no-config"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("TSG 1"), "{}", text(&output));
    let output = deckbox(data, &["search", "set:TSG", "--no-config"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let found = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        found.contains("Zyntharo") && found.contains("Zyntharo Trail Map"),
        "{found}"
    );
    // `--cards` still wins: a checkout without the set does not know it.
    if let Some(shared) = common::shared_data("cards_update::cards_wins") {
        let repo = shared.join("tcgdex-repo");
        let output = deckbox(
            data,
            &[
                "card",
                "Zyntharo",
                "--no-config",
                "--cards",
                repo.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    }

    // A repository that states the card data its lists expect.
    let config = data.join("deckbox.toml");
    std::fs::write(&config, "card_data = \"embedded\"\n").unwrap();
    let output = deckbox(data, &["card", "Zyntharo"], &[]);
    let shown = text(&output);
    assert_eq!(output.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains("(line 1) expects the embedded card index"),
        "{shown}"
    );
    assert!(shown.contains("run `deckbox cards reset`"), "{shown}");
    std::fs::write(&config, "card_data = { newest_set = \"TSG\" }\n").unwrap();
    let output = deckbox(data, &["check", "deck.txt", "-f", "unlimited"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(!text(&output).contains("warning"), "{}", text(&output));
    std::fs::remove_file(&config).unwrap();

    let output = deckbox(data, &["cards", "reset"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(status(data), before);
    let output = deckbox(data, &["card", "Zyntharo", "--no-config"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    std::fs::write(&config, "card_data = { newest_set = \"me99\" }\n").unwrap();
    let output = deckbox(data, &["check", "deck.txt", "-f", "unlimited"], &[]);
    let shown = text(&output);
    assert_eq!(output.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("does not know the set `me99`; run `deckbox cards update`"),
        "{shown}"
    );
}

fn field<'a>(status: &'a str, name: &str) -> &'a str {
    status
        .lines()
        .find_map(|line| line.trim().strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no {name} in {status}"))
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A data folder with the small archive installed (`--force`), and its status.
fn installed_small(test: &str) -> Option<(tempfile::TempDir, PathBuf, String)> {
    let small = small_archive(test)?;
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("small.tar.gz");
    std::fs::write(&file, small).unwrap();
    let output = deckbox(
        data.path(),
        &["cards", "update", "--from", file.to_str().unwrap()],
        &[],
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("fewer than the"),
        "{}",
        text(&output)
    );
    assert!(text(&output).contains("--force"), "{}", text(&output));
    let output = deckbox(
        data.path(),
        &[
            "cards",
            "update",
            "--force",
            "--from",
            file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let before = status(data.path());
    assert!(before.contains("Testing Grounds"), "{before}");
    Some((data, file, before))
}

/// Broken archives: (name, bytes, what the error says).
fn broken(small: &[u8]) -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut corrupt = small.to_vec();
    let middle = corrupt.len() / 2;
    for byte in &mut corrupt[middle..middle + 64] {
        *byte ^= 0x5a;
    }
    let card = |path: &str| file(path, CARD_1.as_bytes());
    let escaping = |entries: Vec<Entry>| tar_gz(&entries);
    let top_card = format!("{TOP}/data/Mega Evolution/Testing Grounds/001.ts");
    vec![
        (
            "truncated",
            small[..small.len() / 2].to_vec(),
            "truncated or corrupt",
        ),
        ("corrupt", corrupt, "truncated or corrupt"),
        ("not gzip", DECK.as_bytes().to_vec(), "truncated or corrupt"),
        (
            "climbs out",
            escaping(vec![
                card(&top_card),
                card(&format!("{TOP}/data/../../evil.ts")),
            ]),
            "climbs out",
        ),
        (
            "absolute",
            escaping(vec![card(&top_card), card("/tmp/deckbox-evil.ts")]),
            "is absolute",
        ),
        (
            "symlink",
            escaping(vec![Entry {
                path: format!("{TOP}/data/Base.ts").into_bytes(),
                kind: tar::EntryType::Symlink,
                data: Vec::new(),
            }]),
            "symbolic link",
        ),
        (
            "hard link",
            escaping(vec![Entry {
                path: format!("{TOP}/data/Base.ts").into_bytes(),
                kind: tar::EntryType::Link,
                data: Vec::new(),
            }]),
            "hard link",
        ),
        (
            "two top folders",
            escaping(vec![card(&top_card), card("other/data/Base.ts")]),
            "one top folder",
        ),
        (
            "no data",
            escaping(vec![card(&format!("{TOP}/README.ts"))]),
            "no TCGdex card data",
        ),
    ]
}

#[test]
fn broken_files_change_nothing_and_exit_2() {
    let Some((data, _, before)) = installed_small("cards_update::broken_files") else {
        return;
    };
    let data = data.path();
    for (name, bytes, reason) in broken(small_archive("").unwrap()) {
        let path = data.join("broken.tar.gz");
        std::fs::write(&path, &bytes).unwrap();
        let output = deckbox(
            data,
            &[
                "cards",
                "update",
                "--force",
                "--from",
                path.to_str().unwrap(),
            ],
            &[],
        );
        let shown = text(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {shown}");
        assert!(shown.contains(reason), "{name}: {shown}");
        assert!(
            shown.contains("the card index in use was not changed"),
            "{name}: {shown}"
        );
        assert_eq!(status(data), before, "{name}");
    }
    assert!(!Path::new("/tmp/deckbox-evil.ts").exists());
    // What the updates worked in is gone.
    let left: Vec<_> = std::fs::read_dir(data.join("cards"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".update-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Too large for a lowered bound, and a missing file.
    let small = data.join("small.tar.gz");
    let env = [("DECKBOX_UPDATE_MAX_BYTES", "1000")];
    let output = deckbox(
        data,
        &[
            "cards",
            "update",
            "--force",
            "--from",
            small.to_str().unwrap(),
        ],
        &env,
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("larger than 1000 bytes"),
        "{}",
        text(&output)
    );
    let output = deckbox(data, &["cards", "update", "--from", "no-such.tar.gz"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert_eq!(status(data), before);
}

/// A URL, what the error must say, the environment and the extra arguments.
type Case<'a> = (String, &'a str, Vec<(&'a str, &'a str)>, Vec<&'a str>);

#[test]
fn broken_downloads_change_nothing_and_exit_2() {
    let Some((data, _, before)) = installed_small("cards_update::broken_downloads") else {
        return;
    };
    let data = data.path();
    let small = small_archive("").unwrap();
    let mut routes: Vec<(&'static str, Answer)> = Vec::new();
    let cases = broken(small);
    let names: Vec<&'static str> = vec![
        "/truncated",
        "/corrupt",
        "/notgzip",
        "/climbs",
        "/absolute",
        "/symlink",
        "/hardlink",
        "/twotops",
        "/nodata",
    ];
    for ((_, bytes, _), path) in cases.iter().zip(&names) {
        routes.push((path, Answer::Body(bytes.clone())));
    }
    routes.push(("/slow", Answer::Slow(small.to_vec())));
    routes.push(("/huge", Answer::Huge(1 << 40)));
    routes.push(("/big", Answer::Body(small.to_vec())));
    let base = serve(routes);
    // The loop needs the server's address.
    let looping = serve(vec![("/loop", Answer::Redirect("/loop".into()))]);
    let mut expected: Vec<Case> = cases
        .iter()
        .zip(&names)
        .map(|((_, _, reason), path)| (format!("{base}{path}"), *reason, vec![], vec![]))
        .collect();
    expected.push((
        format!("{base}/slow"),
        "timed out",
        vec![],
        vec!["--timeout", "2"],
    ));
    expected.push((format!("{base}/huge"), "larger than", vec![], vec![]));
    expected.push((
        format!("{base}/big"),
        "larger than 1000 bytes",
        vec![("DECKBOX_UPDATE_MAX_BYTES", "1000")],
        vec![],
    ));
    expected.push((format!("{looping}/loop"), "redirects", vec![], vec![]));
    expected.push((format!("{base}/missing"), "HTTP 404", vec![], vec![]));
    for (url, reason, env, extra) in expected {
        let mut args = vec!["cards", "update", "--force", "--from", url.as_str()];
        args.extend(extra);
        let started = std::time::Instant::now();
        let output = deckbox(data, &args, &env);
        let shown = text(&output);
        assert_eq!(output.status.code(), Some(2), "{url}: {shown}");
        assert!(shown.contains(reason), "{url}: {shown}");
        assert!(started.elapsed() < Duration::from_secs(30), "{url}");
        assert_eq!(status(data), before, "{url}");
    }
}

#[test]
fn two_updates_at_once_leave_one_whole_index() {
    let Some((data, file, _)) = installed_small("cards_update::two_at_once") else {
        return;
    };
    let data = data.path().to_path_buf();
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let (data, file) = (data.clone(), file.clone());
            std::thread::spawn(move || {
                deckbox(
                    &data,
                    &[
                        "cards",
                        "update",
                        "--force",
                        "--from",
                        file.to_str().unwrap(),
                    ],
                    &[],
                )
            })
        })
        .collect();
    let outputs: Vec<Output> = runs.into_iter().map(|run| run.join().unwrap()).collect();
    for output in &outputs {
        let shown = text(output);
        let busy = shown.contains("another `deckbox cards update` is running");
        assert!(
            output.status.code() == Some(0) || (output.status.code() == Some(2) && busy),
            "{shown}"
        );
    }
    assert!(outputs.iter().any(|o| o.status.code() == Some(0)));
    let output = deckbox(&data, &["card", "Zyntharo", "--no-config"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

#[test]
fn an_update_killed_midway_leaves_the_index_in_use() {
    let Some((data, _, before)) = installed_small("cards_update::killed") else {
        return;
    };
    let Some(full) = full_archive("cards_update::killed") else {
        return;
    };
    let data = data.path();
    let file = data.join("full.tar.gz");
    std::fs::write(&file, full).unwrap();
    for wait in [300, 1500] {
        let mut command = common::deckbox_command();
        let mut child = command
            .args(["cards", "update", "--from", file.to_str().unwrap()])
            .env("DECKBOX_DATA_DIR", data)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        child.kill().unwrap(); // SIGKILL on Unix
        let _ = child.wait();
        let now = status(data);
        // Killed before the final rename (the build takes seconds): nothing changed; or,
        // on a fast machine, finished before the kill: a whole new index, never a half one.
        if now != before {
            assert!(now.contains("sha256: "), "{now}");
        }
        let output = deckbox(data, &["card", "Zyntharo", "--no-config"], &[]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    }
}

#[test]
fn a_damaged_installed_index_falls_back_to_the_embedded_one_with_a_warning() {
    let Some((data, _, _)) = installed_small("cards_update::damaged") else {
        return;
    };
    let data = data.path();
    let installed = data.join("cards/index.dbx");
    let mut bytes = std::fs::read(&installed).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&installed, bytes).unwrap();
    let output = deckbox(data, &["card", "Iono", "--no-config"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("is damaged"), "{}", text(&output));
    assert!(
        text(&output).contains("deckbox cards update"),
        "{}",
        text(&output)
    );
    assert!(status(data).contains("card index: embedded"));
    let output = deckbox(data, &["cards", "reset"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

#[test]
fn config_says_which_index_runs_use_and_what_the_repository_expects() {
    let Some((data, _, _)) = installed_small("cards_update::config") else {
        return;
    };
    let data = data.path();
    std::fs::write(data.join("deckbox.toml"), "card_data = \"embedded\"\n").unwrap();
    let output = deckbox(data, &["config"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    let cards = shown.lines().find(|l| l.starts_with("cards ")).unwrap();
    assert!(cards.contains("cards/index.dbx"), "{shown}");
    assert!(cards.ends_with("(deckbox cards update)"), "{shown}");
    let expected = shown.lines().find(|l| l.starts_with("card data")).unwrap();
    assert!(expected.contains("= embedded"), "{shown}");
    assert!(expected.ends_with("(deckbox.toml:1)"), "{shown}");
    let output = deckbox(data, &["config", "--output-format", "json"], &[]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        json["updated_index"]
            .as_str()
            .unwrap()
            .ends_with("index.dbx")
    );
    assert_eq!(json["card_data"], "embedded");
    // `--cards` wins over the installed index, and says so.
    let output = deckbox(data, &["config", "--cards", "elsewhere"], &[]);
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    let cards = shown.lines().find(|l| l.starts_with("cards ")).unwrap();
    assert!(cards.ends_with("(--cards)"), "{shown}");
    let output = deckbox(data, &["cards", "reset"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let output = deckbox(data, &["config"], &[]);
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(shown.contains("cards     = embedded"), "{shown}");
}

/// Issue 52 item 5 and issue 50: `--timeout 9223372036854775807` panicked (a duration
/// overflow); `--from` a named pipe hung holding the update lock; redirects were followed to
/// any host (a server on 127.0.0.1 could send deckbox off this machine); an offline download
/// did not say that `--from FILE` installs an archive fetched elsewhere. Each is refused at
/// once, exit 2, the index in use as it was.
#[cfg(unix)]
#[test]
fn hostile_sources_are_refused_at_once() {
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    let before = status(data);
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/cards.tar.gz", listener.local_addr().unwrap())
    };
    let fifo = data.join("cards.tar.gz");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let base = serve(vec![
        (
            "/out",
            Answer::Redirect("http://93.184.216.34/cards.tar.gz".into()),
        ),
        (
            "/lan",
            Answer::Redirect("http://10.1.2.3/cards.tar.gz".into()),
        ),
    ]);
    let (out, lan) = (format!("{base}/out"), format!("{base}/lan"));
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["cards", "update", "--timeout", "9223372036854775807"],
            &["9223372036854775807", "1..=86400"],
        ),
        (
            &["cards", "update", "--from", fifo.to_str().unwrap()],
            &["it is a named pipe, not a file"],
        ),
        (
            &["cards", "update", "--from", &out],
            &["a redirect from this machine to the internet", "refused"],
        ),
        (
            &["cards", "update", "--from", &lan],
            &["a redirect from this machine to a local network address"],
        ),
        (
            &["cards", "update", "--from", &closed],
            &[
                "help: without network",
                "deckbox cards update --from FILE.tar.gz",
            ],
        ),
    ];
    for (args, said) in cases {
        let started = std::time::Instant::now();
        let output = deckbox(data, args, &[]);
        let shown = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {shown}");
        assert!(!shown.contains("panicked"), "{args:?}: {shown}");
        for needle in said {
            assert!(shown.contains(needle), "{args:?}: {needle}: {shown}");
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
        assert_eq!(status(data), before, "{args:?}");
    }
}

/// A `.tar.gz` of `count` empty files under [`TOP`]`/flood/` (outside `data/`, so the
/// refusal is reached without writing them; only the gzip is held).
fn flood(count: usize) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for n in 0..count {
        let mut header = tar::Header::new_gnu();
        header.set_path(format!("{TOP}/flood/{n}.ts")).unwrap();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(0);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append(&header, std::io::empty()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// Archives that cost their reader unbounded work unless bounded: a gzip bomb of one entry
/// (9 MiB of zeros in a few KB, over `MAX_ENTRY_BYTES`), a flood of 100,001 empty entries
/// (over `MAX_ENTRIES`), and TypeScript built to blow up the reader (objects 10,000 deep, a
/// 1 MiB card file, over `MAX_RECORD_BYTES`): each refused or passed over within seconds,
/// the index in use unchanged (issue 49 item 6; docs/security.md, "Card updates").
#[test]
fn bombs_floods_and_monstrous_typescript_are_bounded() {
    let Some((data, _, before)) = installed_small("cards_update::bombs") else {
        return;
    };
    let data = data.path();
    let top_card = format!("{TOP}/data/Mega Evolution/Testing Grounds/001.ts");
    let bomb = tar_gz(&[
        file(&top_card, CARD_1.as_bytes()),
        file(&format!("{TOP}/data/bomb.ts"), &vec![0u8; 9 << 20]),
    ]);
    assert!(bomb.len() < 100_000, "{} bytes", bomb.len());
    let deep = format!(
        "const card: Card = {{ name: {{ en: \"Deep\" }}, x: {}1{} }}\nexport default card\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let shared = common::shared_data("").unwrap();
    let grounds = format!("{TOP}/data/Mega Evolution/Testing Grounds");
    // The real Mega Evolution series with one monstrous card file added.
    let with_card = |text: &str| {
        let mut entries = dataset(&shared, "Mega Evolution");
        entries.push(file(&format!("{grounds}/003.ts"), text.as_bytes()));
        tar_gz(&entries)
    };
    let big = format!("// {}\n{CARD_1}", "x".repeat(1 << 20));
    // The card file is named by its path in the archive, never by the folder it was
    // unpacked in (`cards/.update-XXXX/...`, issue 49's leftovers).
    let card = format!("the card data in the archive cannot be used: {grounds}/003.ts: ");
    let cases: [(&str, Vec<u8>, &[&str]); 4] = [
        ("bomb", bomb, &["bomb.ts is larger than 8388608 bytes"]),
        ("flood", flood(100_001), &["more than 100000 entries"]),
        (
            "deep",
            with_card(&deep),
            &[&card, "values nested too deeply"],
        ),
        ("big", with_card(&big), &[&card, "it is larger than 64 KiB"]),
    ];
    for (name, bytes, said) in cases {
        let path = data.join(format!("{name}.tar.gz"));
        std::fs::write(&path, &bytes).unwrap();
        let started = std::time::Instant::now();
        let from = path.to_str().unwrap();
        let output = deckbox(data, &["cards", "update", "--force", "--from", from], &[]);
        let shown = text(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {shown}");
        for needle in said {
            assert!(shown.contains(needle), "{name}: {needle}: {shown}");
        }
        assert!(!shown.contains(".update-"), "{name}: {shown}");
        assert!(!shown.contains("panicked"), "{name}: {shown}");
        assert!(started.elapsed() < Duration::from_secs(60), "{name}");
        assert_eq!(status(data), before, "{name}");
    }
}
