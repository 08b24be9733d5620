//! Text from files that must never reach a terminal or a document raw: paths, card names,
//! config values, Markdown and PDF metadata (issue 26 items 5 and 7).

use std::path::Path;

use super::{Run, common, copy_example, has_raw_hidden, run, tcgdex_set};

/// A card name from a downloaded dataset that reverses the rest of the line and opens an
/// isolate (the loader drops escape sequences from names already).
const IONO: &str = "Io\u{202E}no\u{2066}";
/// A name carrying invisible tag characters.
const PIKA: &str = "Pika\u{E0041}\u{E007F}chu ex";
/// A name a Markdown renderer would turn into a link, an image, HTML and emphasis.
const EVIL: &str = "Evil [x](http://e.test) ![i](j) <b>*em*</b> _u_ `c` | @u www.e.test";

/// A TCGdex checkout of one set (`ONE`) whose three cards have the names above.
fn hostile_checkout(root: &Path) {
    let basic =
        "category: \"Pokemon\",\n\tstage: \"Basic\", types: [\"Lightning\"], regulationMark: \"G\"";
    let supporter = "category: \"Trainer\",\n\ttrainerType: \"Supporter\", regulationMark: \"G\"";
    tcgdex_set(
        root,
        &[
            ("001", IONO, supporter),
            ("002", PIKA, basic),
            ("003", EVIL, basic),
        ],
    );
}

/// A folder with the hostile checkout (`cards`) and a 60-card deck of its cards
/// (`deck.txt`), written the way a list names them: by name, set code and number.
fn hostile_repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    hostile_checkout(&dir.path().join("cards"));
    let deck = format!(
        "# player: [me](http://e.test) <img src=x onerror=alert(1)> \u{202E}Ash\n20 {IONO} ONE 1\n20 {PIKA} ONE 2\n20 {EVIL} ONE 3\n"
    );
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    dir
}

/// Runs `args` with `--cards cards` (and `--format unlimited` for a deck) after them.
fn with_cards(dir: &Path, args: &[&str]) -> Run {
    let mut all = args.to_vec();
    all.extend(["--cards", "cards"]);
    if args[0] != "card" {
        all.extend(["--format", "unlimited"]);
    }
    run(dir, &all, b"")
}

/// Standard output and error together, for the "nothing raw" check.
fn both(out: &Run) -> String {
    format!("{}{}", out.stdout, out.stderr)
}

/// Card names from a `--cards` dataset, with escape sequences, bidirectional controls and
/// tag characters, reach no terminal raw: every text output of every command shows them
/// as `\u{...}`.
#[test]
fn card_names_from_a_dataset_are_escaped_in_every_text_output() {
    let dir = hostile_repository();
    let d = dir.path();
    std::fs::write(d.join("old.txt"), format!("20 {IONO} ONE 1\n")).unwrap();
    let commands: [&[&str]; 11] = [
        &["check", "deck.txt"],
        &["check", "deck.txt", "--output", "short"],
        &["check", "deck.txt", "--output", "csv"],
        &["stats", "deck.txt"],
        &["stats", "deck.txt", "--want", &format!("{IONO}>=1")],
        &[
            "odds",
            "deck.txt",
            "--seen",
            &format!("1 {IONO}"),
            "--draws",
            "1",
        ],
        &["sample", "deck.txt", "--count", "3"],
        &["card", "ONE 1"],
        &["diff", "old.txt", "deck.txt"],
        &["fmt", "--check", "deck.txt"],
        // Last: it writes the deck (`--dry-run` would print the list itself, as data).
        &["add", "deck.txt", &format!("1 {PIKA} ONE 2")],
    ];
    for args in commands {
        let out = with_cards(d, args);
        assert_ne!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!has_raw_hidden(&both(&out)), "{args:?}:\n{}", both(&out));
    }
    // The names are shown, escaped, not dropped.
    let stats = with_cards(d, &["stats", "deck.txt"]);
    assert!(
        stats.stdout.contains("Io\\u{202E}no\\u{2066}"),
        "{}",
        stats.stdout
    );
    assert!(
        stats.stdout.contains("Pika\\u{E0041}\\u{E007F}chu ex"),
        "{}",
        stats.stdout
    );
    let card = with_cards(d, &["card", "ONE 2"]);
    assert!(card.stdout.contains("\\u{E0041}"), "{}", card.stdout);
    let sample = with_cards(d, &["sample", "deck.txt", "--count", "3"]);
    assert!(sample.stdout.contains("\\u{E007F}"), "{}", sample.stdout);
}

/// Every character of a Markdown document that a renderer would act on is escaped: in
/// `line`, each `<`, `[`, `]`, backtick, `*`, `_`, `@`, `&`, `$` and `~` follows a
/// backslash, no autolink (`http://`, `www.`) is left, and no invisible character is raw.
/// A table's rows have as many unescaped `|` as its header.
fn assert_inert_markdown(doc: &str) {
    assert!(!has_raw_hidden(doc), "{doc}");
    let mut columns: Option<usize> = None;
    for line in doc.lines() {
        let mut backslashes = 0;
        let mut pipes = 0;
        for c in line.chars() {
            if c == '\\' {
                backslashes += 1;
                continue;
            }
            let escaped = backslashes % 2 == 1;
            backslashes = 0;
            assert!(
                escaped || !matches!(c, '<' | '[' | ']' | '`' | '*' | '_' | '@' | '&' | '$' | '~'),
                "unescaped {c:?} in {line:?}"
            );
            pipes += usize::from(c == '|' && !escaped);
        }
        assert!(
            !line.contains("http://") && !line.contains("www."),
            "{line}"
        );
        if line.starts_with('|') {
            assert_eq!(*columns.get_or_insert(pipes), pipes, "{line}");
        } else {
            columns = None;
        }
    }
}

/// `check --output markdown` (the event table), `stats` and `odds --output markdown` escape
/// links, images, HTML, emphasis, code, mentions and autolinks, not only `|`.
#[test]
fn markdown_documents_escape_everything_a_renderer_acts_on() {
    let dir = hostile_repository();
    let d = dir.path();
    let want = format!("{IONO}>=1");
    let seen = format!("1 {EVIL}");
    for args in [
        &["check", "deck.txt", "--output", "markdown"][..],
        &["stats", "deck.txt", "--output", "markdown"],
        &["stats", "deck.txt", "--output", "markdown", "--want", &want],
        &[
            "odds", "deck.txt", "--seen", &seen, "--draws", "2", "--output", "markdown",
        ],
    ] {
        let out = with_cards(d, args);
        assert_ne!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_inert_markdown(&out.stdout);
        // The text is still all there, escaped.
        assert!(
            out.stdout.contains("\\](http\\://e.test)"),
            "{args:?}: {}",
            out.stdout
        );
    }
    let table = with_cards(d, &["check", "deck.txt", "--output", "markdown"]);
    assert!(
        table
            .stdout
            .contains("\\<img src=x onerror=alert(1)> \\\\u{202E}Ash"),
        "{}",
        table.stdout
    );
}

/// The "could not identify" message of `stats`, `odds` and `sample`, and an error about a
/// deck's `# deckbox:` line, quote the deck's text escaped.
#[test]
fn messages_quoting_a_deck_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("unknown.txt"),
        "4 Dreepy TWM 128\n4 Zorb\u{1b}]0;pwned\u{7}ax\u{202E} \u{E0041}\n",
    )
    .unwrap();
    for args in [
        &["stats", "unknown.txt"][..],
        &["odds", "unknown.txt", "--seen", "1 Dreepy", "--draws", "1"],
        &["sample", "unknown.txt"],
    ] {
        let out = run(d, args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("could not identify"), "{}", out.stderr);
        assert!(!has_raw_hidden(&out.stderr), "{args:?}: {:?}", out.stderr);
        assert!(
            out.stderr
                .contains("Zorb\\u{1B}]0;pwned\\u{7}ax\\u{202E} \\u{E0041}"),
            "{args:?}: {}",
            out.stderr
        );
    }
    // A file name with a line break cannot forge a line of the message.
    let forged = "a\n  line 9: forged.txt";
    std::fs::write(d.join(forged), "4 Dreepy TWM 128\n4 Zorbulax\n").unwrap();
    let out = run(d, &["stats", forged], b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("a\\n  line 9: forged.txt has lines"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("\n  line 9: forged"), "{}", out.stderr);
    std::fs::write(
        d.join("declared.txt"),
        "# deckbox: format=\u{1b}[2Jevil\u{202E}\n4 Dreepy TWM 128\n",
    )
    .unwrap();
    for args in [
        &["check", "declared.txt"][..],
        &["stats", "declared.txt"],
        &["fmt", "declared.txt"],
    ] {
        let out = run(d, args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!has_raw_hidden(&both(&out)), "{args:?}: {:?}", out.stderr);
        assert!(
            out.stderr.contains("\\u{1B}[2Jevil\\u{202E}"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// `add` and `remove` name the lines they changed or could not change as written, escaped.
#[test]
fn add_and_remove_messages_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deck = std::fs::read_to_string(common::repo().join("examples/dragapult.txt")).unwrap();
    let deck = deck.replace("4 Dreepy TWM 128", "4 Dree\u{200D}py TWM 128");
    std::fs::write(d.join("deck.txt"), &deck).unwrap();
    let before = deck.into_bytes();
    // An unknown card: nothing written, the message escaped.
    for command in ["add", "remove"] {
        let out = run(
            d,
            &[command, "deck.txt", "1 Evil\u{1b}[2J\u{202E}card"],
            b"",
        );
        assert_eq!(out.code, 2, "{command}: {}", out.stderr);
        assert!(!has_raw_hidden(&both(&out)), "{command}: {:?}", out.stderr);
        assert!(
            out.stderr.contains("Evil\\u{1B}[2J\\u{202E}card"),
            "{}",
            out.stderr
        );
        assert_eq!(std::fs::read(d.join("deck.txt")).unwrap(), before);
    }
    // The line written with a zero-width joiner is identified; the change names it as
    // written.
    let out = run(d, &["add", "deck.txt", "1 Dreepy TWM 128"], b"");
    assert_ne!(out.code, 2, "{}", out.stderr);
    assert!(!has_raw_hidden(&both(&out)), "{:?}", out.stdout);
    assert!(out.stdout.contains("Dree\\u{200D}py"), "{}", out.stdout);
    let out = run(d, &["remove", "deck.txt", "1 Dreepy"], b"");
    assert_ne!(out.code, 2, "{}", out.stderr);
    assert!(!has_raw_hidden(&both(&out)), "{:?}", out.stdout);
    assert!(out.stdout.contains("Dree\\u{200D}py"), "{}", out.stdout);
}

/// `deckbox config` shows values from a cloned repository's deckbox.toml escaped.
#[test]
fn config_values_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("deckbox.toml"),
        "format = \"evil\\u001b[2J\\u202e.toml\"\n[files]\ninclude = [\"*\\u2066.txt\"]\nexclude = [\"x\\u001b/*.txt\"]\n[[overrides]]\npaths = [\"glc\\u0007/**\", \"tag\\U000E0041/*.txt\"]\nformat = \"glc\"\n",
    )
    .unwrap();
    let out = run(d, &["config"], b"");
    assert!(!has_raw_hidden(&both(&out)), "{:?}", both(&out));
    for shown in [
        "evil\\u{1B}[2J\\u{202E}.toml",
        "*\\u{2066}.txt",
        "x\\u{1B}/*.txt",
        "glc\\u{7}/**",
        "tag\\u{E0041}/*.txt",
    ] {
        assert!(out.stdout.contains(shown), "{shown}: {}", out.stdout);
    }
}

/// A glob deckbox cannot compile, in `[files]` or `[[overrides]]`, is an error that quotes
/// the pattern and points at its line of deckbox.toml.
#[test]
fn glob_errors_name_the_pattern_and_where_it_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    for (config, pattern, line) in [
        ("[files]\ninclude = [\"decks/[ab\"]\n", "decks/[ab", 2),
        ("[files]\nexclude = [\"*.txt\", \"{a,b\"]\n", "{a,b", 2),
        (
            "format = \"standard\"\n[[overrides]]\npaths = [\"ok/*\", \"bad/[z-a]\"]\nformat = \"glc\"\n",
            "bad/[z-a]",
            3,
        ),
    ] {
        std::fs::write(d.join("deckbox.toml"), config).unwrap();
        let out = run(d, &["check", "."], b"");
        assert_eq!(out.code, 2, "{config}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("`{pattern}`")),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr.contains(&format!("deckbox.toml:{line}")),
            "{config}: {}",
            out.stderr
        );
    }
}

/// `convert -o FILE` writes a new file; an existing one (a deck list named by mistake) is
/// refused without `--force`, exit 2, byte for byte as it was.
#[test]
fn convert_output_refuses_an_existing_file_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    let deck = std::fs::read(d.join("deck.txt")).unwrap();
    std::fs::write(d.join("out.txt"), "keep me\n").unwrap();
    for (target, kept) in [("out.txt", &b"keep me\n"[..]), ("deck.txt", &deck[..])] {
        let out = run(d, &["convert", "deck.txt", "-o", target], b"");
        assert_eq!(out.code, 2, "{target}: {}", out.stderr);
        assert_eq!(
            out.one_error(),
            format!("error: cannot write {target}: it already exists")
        );
        assert!(out.stderr.contains("`--force`"), "{}", out.stderr);
        assert_eq!(std::fs::read(d.join(target)).unwrap(), kept);
    }
    let out = run(d, &["convert", "deck.txt", "-o", "new.txt"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let converted = std::fs::read_to_string(d.join("new.txt")).unwrap();
    assert!(converted.contains("Dreepy"), "{converted}");
    let out = run(d, &["convert", "deck.txt", "-o", "out.txt", "--force"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(d.join("out.txt")).unwrap(),
        converted
    );
}

/// A file name with a byte that is not UTF-8 (Linux allows any bytes) is given without loss:
/// JSON has the name with U+FFFD and its bytes in `path_bytes`, SARIF percent-encodes the
/// byte in its URIs, and text output shows it as `\xFF`.
#[cfg(target_os = "linux")]
#[test]
fn file_names_that_are_not_utf8_are_reported_without_loss() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("decks")).unwrap();
    let name = std::ffi::OsStr::from_bytes(b"d\xFFeck.txt");
    std::fs::write(d.join("decks").join(name), "4 Dreepy TWM 128\n").unwrap();

    let out = run(d, &["check", "decks", "--output", "json"], b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let deck = &report["decks"][0];
    assert_eq!(deck["path"], "decks/d\u{FFFD}eck.txt");
    let bytes: Vec<u8> = deck["path_bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|byte| u8::try_from(byte.as_u64().unwrap()).unwrap())
        .collect();
    assert_eq!(bytes, b"decks/d\xFFeck.txt");

    let out = run(d, &["check", "decks", "--output", "sarif"], b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let log: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let run_log = &log["runs"][0];
    assert_eq!(
        run_log["artifacts"][0]["location"]["uri"],
        "decks/d%FFeck.txt"
    );
    for result in run_log["results"].as_array().unwrap() {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uri"], "decks/d%FFeck.txt");
    }

    for output in ["short", "human"] {
        let out = run(d, &["check", "decks", "--output", output], b"");
        assert!(
            out.stdout.contains("decks/d\\xFFeck.txt"),
            "{output}: {}",
            out.stdout
        );
        assert!(!out.stdout.contains('\u{FFFD}'), "{output}: {}", out.stdout);
    }
    // A name that is UTF-8 has no `path_bytes`.
    std::fs::write(d.join("plain.txt"), "4 Dreepy TWM 128\n").unwrap();
    let plain = run(d, &["check", "plain.txt", "--output", "json"], b"");
    assert!(!plain.stdout.contains("path_bytes"), "{}", plain.stdout);
}

/// The XMP packet of a PDF: from `<?xpacket begin` to the end of `<?xpacket end ...?>`.
fn xmp_packet(pdf: &[u8]) -> &[u8] {
    let find = |needle: &[u8], from: usize| {
        pdf[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|at| at + from)
    };
    let start = find(b"<?xpacket begin", 0).expect("an XMP packet");
    let end = find(b"<?xpacket end", start).expect("the packet's end");
    let close = find(b"?>", end).expect("the end's close") + 2;
    &pdf[start..close]
}

/// Well-formed enough for an XML parser: no control character XML forbids, every `&` an
/// entity, every `<` the start of a tag, comment or processing instruction, tags balanced.
fn assert_well_formed_xml(xml: &str) {
    assert!(
        !xml.chars()
            .any(|c| (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                || matches!(c, '\u{FFFE}' | '\u{FFFF}')),
        "a character XML forbids: {xml:?}"
    );
    for (at, _) in xml.match_indices('&') {
        let entity = &xml[at..xml[at..].find(';').map_or(xml.len(), |end| at + end + 1)];
        assert!(
            ["&lt;", "&gt;", "&amp;", "&apos;", "&quot;"].contains(&entity)
                || entity.starts_with("&#"),
            "bare & in {entity:?}"
        );
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        assert!(!tag.contains('<'), "a < inside a tag: {tag:?}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "closing </{name}>");
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap());
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

/// A player's name with control characters, markup and a CDATA end in it keeps the PDF's
/// XMP metadata well-formed XML: the title holds the name escaped.
#[test]
fn sheet_metadata_stays_well_formed_xml() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_example("dragapult.txt", &d.join("deck.txt"));
    let player = "Ash\u{1}\u{1b}[2J <b>&amp; ]]> \u{202E}\u{FFFF}";
    let out = run(
        d,
        &["sheet", "deck.txt", "-o", "sheet.pdf", "--player", player],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!has_raw_hidden(&both(&out)), "{:?}", both(&out));
    let pdf = std::fs::read(d.join("sheet.pdf")).unwrap();
    let packet = std::str::from_utf8(xmp_packet(&pdf)).expect("UTF-8 XMP");
    assert_well_formed_xml(packet);
    assert!(
        packet.contains("Ash\\u{1}\\u{1B}[2J &lt;b&gt;&amp;amp; ]]&gt; \\u{202E}\\u{FFFF}"),
        "{packet}"
    );
    // The same name from the list's `# player:` line.
    std::fs::write(
        d.join("named.txt"),
        format!(
            "# player: {player}\n{}",
            std::fs::read_to_string(d.join("deck.txt")).unwrap()
        ),
    )
    .unwrap();
    let out = run(d, &["sheet", "named.txt", "-o", "named.pdf"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let pdf = std::fs::read(d.join("named.pdf")).unwrap();
    assert_well_formed_xml(std::str::from_utf8(xmp_packet(&pdf)).unwrap());
    // pdfinfo, where installed, reads the title.
    match std::process::Command::new("pdfinfo")
        .arg(d.join("sheet.pdf"))
        .output()
    {
        Ok(info) => {
            assert!(info.status.success(), "{info:?}");
            let text = String::from_utf8_lossy(&info.stdout);
            assert!(text.contains("Deck registration sheet: Ash"), "{text}");
        }
        Err(_) => {
            crate::common::needs(false, "escaping sheet", "pdfinfo (poppler-utils)");
        }
    }
}
