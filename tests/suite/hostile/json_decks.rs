//! JSON deck lists written to hurt: extra keys a rewrite must keep, duplicate keys, wrong
//! types, and JSON that is no deck at all (never judged, never rewritten). Issue 26 items 1
//! and 6, and issue 27's list held in a JSON string.

use super::{run, set};

use std::path::Path;

/// A Limitless export as an event page keeps it: the player, the event, notes, and cards
/// carrying the site's own keys (`id`, `english`), pretty-printed by hand.
const LIMITLESS: &str = r#"{
  "player": "Ash Ketchum",
  "event": {"name": "Regional Championship", "date": "2026-11-01", "place": 3},
  "pokemon": [
    {"count": 2, "name": "Drakloak", "set": "TWM", "number": "129", "id": "twm-129"},
    {"count": 4, "name": "Dreepy", "set": "TWM", "number": "128", "id": "twm-128"}
  ],
  "trainer": [
    {"count": 4, "name": "Pok\u00e9gear 3.0", "set": "SVI", "number": 186, "english": "Pokegear 3.0"},
    {"count": 3, "name": "Iono", "set": "PAL", "number": "185"}
  ],
  "energy": [
    {"qty": 5, "name": "Basic Psychic Energy", "set": "SVE", "number": "5"}
  ],
  "notes": "Went 6-2; \"Iono\" was great"
}
"#;

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Every key and value of `before` that is not a card list: they must all be in `after`,
/// unchanged, in the same order.
fn other_members(text: &str) -> Vec<(String, serde_json::Value)> {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    value
        .as_object()
        .unwrap()
        .iter()
        .filter(|(key, _)| !["pokemon", "trainer", "energy"].contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// Card objects of a section as JSON values.
fn cards(text: &str, section: &str) -> Vec<serde_json::Value> {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    value[section].as_array().unwrap().clone()
}

#[test]
fn fmt_keeps_a_limitless_deck_in_its_layout_with_every_key() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "deck.json", LIMITLESS);
    // The deck is judged as written: the cards are read, the extra keys are no finding.
    let judge = [
        "check",
        "deck.json",
        "--output",
        "short",
        "--format",
        "unlimited",
    ];
    let out = run(dir.path(), &judge, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), set(&["deck-size"]), "{}", out.stdout);
    assert!(
        out.stdout.contains("the deck has 18 cards"),
        "{}",
        out.stdout
    );

    let printed = run(dir.path(), &["fmt", "deck.json"], b"");
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    let check = run(dir.path(), &["fmt", "--check", "deck.json"], b"");
    assert_eq!(check.code, 1, "not canonical yet: {}", check.stdout);
    let write_run = run(dir.path(), &["fmt", "--write", "deck.json"], b"");
    assert_eq!(write_run.code, 0, "{}", write_run.stderr);
    let written = read(dir.path(), "deck.json");
    assert_eq!(written, printed.stdout, "--write writes what fmt prints");

    // Still Limitless: no `sections`, `total` or `language` of deckbox's own layout.
    assert!(!written.contains("\"sections\""), "{written}");
    assert!(!written.contains("\"total\""), "{written}");
    // The player, the event (its keys in order), the notes: kept, in their order.
    assert_eq!(other_members(&written), other_members(LIMITLESS));
    let keys: Vec<&str> = written
        .lines()
        .filter_map(|line| line.strip_prefix("  \""))
        .filter_map(|line| line.split('"').next())
        .collect();
    assert_eq!(
        keys,
        ["player", "event", "pokemon", "trainer", "energy", "notes"]
    );
    assert!(
        written.contains(
            r#""event": {"name": "Regional Championship", "date": "2026-11-01", "place": 3}"#
        ),
        "the event as written: {written}"
    );
    // Cards in canonical order (Dreepy before Drakloak), each keeping its own keys in order
    // and its values as written where they are canonical (`\u00e9`, the number 186, `qty`).
    let pokemon = cards(&written, "pokemon");
    assert_eq!(pokemon[0]["name"], "Dreepy");
    assert_eq!(pokemon[0]["id"], "twm-128");
    assert_eq!(pokemon[1]["id"], "twm-129");
    assert!(
        written.contains(r#"{"count": 4, "name": "Pok\u00e9gear 3.0", "set": "SVI", "number": 186, "english": "Pokegear 3.0"}"#),
        "{written}"
    );
    assert!(
        written
            .contains(r#"{"qty": 5, "name": "Basic Psychic Energy", "set": "SVE", "number": "5"}"#),
        "{written}"
    );

    // Idempotent, and the verdict is the same.
    let again = run(dir.path(), &["fmt", "--check", "deck.json"], b"");
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, ""),
        "{}",
        again.stderr
    );
    let after = run(dir.path(), &judge, b"");
    assert_eq!(after.rules(), out.rules());
    assert!(after.stdout.contains("the deck has 18 cards"));
}

#[test]
fn a_nested_decklist_stays_nested_and_the_rest_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let head =
        "{\r\n  \"player\": {\"name\": \"Ash\", \"division\": \"Masters\"},\r\n  \"decklist\": ";
    let tail = ",\r\n  \"notes\": [1, 2, {\"x\": null}]\r\n}\r\n";
    let text = format!(
        "{head}{{\"trainer\": [{{\"count\": 1, \"name\": \"Iono\", \"set\": \"PAL\", \"number\": \"185\"}}], \"pokemon\": [{{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}}], \"source\": \"limitless\"}}{tail}"
    );
    write(dir.path(), "nested.json", &text);
    let out = run(dir.path(), &["fmt", "--write", "nested.json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let written = read(dir.path(), "nested.json");
    assert!(written.starts_with(head), "{written}");
    assert!(written.ends_with(tail), "{written}");
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    let deck = &value["decklist"];
    assert_eq!(deck["source"], "limitless");
    assert_eq!(deck["pokemon"][0]["name"], "Dreepy");
    assert_eq!(deck["trainer"][0]["name"], "Iono");
    assert!(value.get("sections").is_none() && deck.get("sections").is_none());
    // CRLF kept on every line written.
    assert!(!written.replace("\r\n", "").contains('\n'), "{written:?}");
    let again = run(dir.path(), &["fmt", "--check", "nested.json"], b"");
    assert_eq!(again.code, 0, "{}", again.stdout);
}

#[test]
fn an_array_of_cards_keeps_each_cards_keys() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"[{"count": 2, "name": "Iono", "set": "PAL", "number": "185", "id": 7, "tags": ["draw"]},
 {"amount": 4, "name": "Dreepy", "set": "TWM", "number": "128", "english": "Dreepy", "id": 8}]"#;
    write(dir.path(), "cards.json", text);
    let out = run(dir.path(), &["fmt", "--write", "cards.json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let written = read(dir.path(), "cards.json");
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    let cards = value.as_array().unwrap();
    assert_eq!(cards.len(), 2, "{written}");
    assert_eq!(cards[0]["amount"], 4, "Pokémon first: {written}");
    assert_eq!(cards[0]["id"], 8);
    assert_eq!(cards[0]["english"], "Dreepy");
    assert_eq!(cards[1]["tags"], serde_json::json!(["draw"]));
    assert!(
        written.contains(r#"{"count": 2, "name": "Iono", "set": "PAL", "number": "185", "id": 7, "tags": ["draw"]}"#),
        "key order kept: {written}"
    );
}

#[test]
fn merging_two_card_objects_that_disagree_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // The same card twice: merged when nothing but the count differs, refused when merging
    // would drop an `id` one of them has.
    let same = r#"{"trainer": [{"count": 2, "name": "Iono", "set": "PAL", "number": "185", "id": 1}, {"count": 1, "name": "Iono", "set": "PAL", "number": "185", "id": 1}]}"#;
    write(dir.path(), "same.json", same);
    let out = run(dir.path(), &["fmt", "same.json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains(r#"{"count": 3, "name": "Iono", "set": "PAL", "number": "185", "id": 1}"#),
        "{}",
        out.stdout
    );
    let apart = same.replacen("\"id\": 1}]", "\"id\": 2}]", 1);
    write(dir.path(), "apart.json", &apart);
    let refused = run(dir.path(), &["fmt", "--write", "apart.json"], b"");
    assert_eq!(refused.code, 2);
    assert!(
        refused.one_error().contains("merging them would drop `id`"),
        "{}",
        refused.stderr
    );
    assert_eq!(read(dir.path(), "apart.json"), apart);
}

#[test]
fn deckbox_layout_with_keys_it_does_not_write_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let own = r#"{"language": "en", "player": "Ash", "sections": [{"section": "trainer", "count": 4, "cards": [{"count": 4, "name": "Iono", "set": "PAL", "number": "185", "ph": false, "english": "Iono", "note": "x"}]}], "total": 4}"#;
    write(dir.path(), "own.json", own);
    for args in [
        &["fmt", "own.json"][..],
        &["fmt", "--check", "own.json"],
        &["fmt", "--write", "own.json"],
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.one_error()
                .contains("no place for `player`, `note`; rewriting it would drop them"),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(read(dir.path(), "own.json"), own);
    // Without them it is written anew, as before.
    let plain = own
        .replace(r#""player": "Ash", "#, "")
        .replace(r#", "note": "x""#, "");
    write(dir.path(), "plain.json", &plain);
    let out = run(dir.path(), &["fmt", "--write", "plain.json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(read(dir.path(), "plain.json").contains("\"sections\": ["));
}

#[test]
fn repeated_keys_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let top = "{\n  \"pokemon\": [{\"count\": 4, \"name\": \"Dreepy\"}],\n  \"pokemon\": [{\"count\": 4, \"name\": \"Drakloak\"}]\n}\n";
    let card = "{\"pokemon\": [\n  {\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"name\": \"Dragapult ex\"}\n]}\n";
    let event = "{\"event\": {\"date\": \"2026-11-01\", \"date\": \"2026-11-02\"},\n\"pokemon\": [{\"count\": 4, \"name\": \"Dreepy\"}]}\n";
    for (file, text, place, key) in [
        ("top.json", top, "top.json:3:3", "pokemon"),
        ("card.json", card, "card.json:2:48", "name"),
        ("event.json", event, "event.json:1:34", "date"),
    ] {
        write(dir.path(), file, text);
        for args in [
            &["check", file][..],
            &["fmt", file],
            &["fmt", "--write", file],
            &["stats", file],
        ] {
            let out = run(dir.path(), args, b"");
            assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
            assert_eq!(
                out.one_error(),
                format!(
                    "error: {place}: not a deck list deckbox can read: the key `{key}` is written twice in one object; a JSON reader would keep one value and drop the other, so deckbox reads neither"
                ),
            );
            assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        }
        assert_eq!(read(dir.path(), file), text);
    }
}

#[test]
fn wrong_types_are_errors_at_their_place_never_an_empty_deck() {
    let dir = tempfile::tempdir().unwrap();
    for (text, place, why) in [
        (
            "{\"pokemon\": [\n  {\"count\": \"four\", \"name\": \"Dreepy\"}\n]}",
            "2:13",
            "a card's count must be a number, such as `\"count\": 4`, not a string",
        ),
        (
            "{\"pokemon\": {}, \"trainer\": [{\"count\": 4, \"name\": \"Iono\"}]}",
            "1:13",
            "`pokemon` must be an array, not an object",
        ),
        (
            "{\"trainer\": [{\"count\": 4, \"name\": 4}]}",
            "1:35",
            "a card's name must be a string, not a number",
        ),
        (
            "{\"energy\": [{\"count\": 4, \"name\": \"Jet Energy\", \"set\": 12}]}",
            "1:55",
            "a set code must be a string without blanks, not a number",
        ),
        (
            "{\"energy\": [{\"count\": 4, \"name\": \"Jet Energy\", \"ph\": \"no\"}]}",
            "1:54",
            "`ph` must be true or false, not a string",
        ),
    ] {
        write(dir.path(), "deck.json", text);
        let out = run(
            dir.path(),
            &["check", "deck.json", "--output", "short"],
            b"",
        );
        assert_eq!(out.code, 2, "{text}: {}", out.stdout);
        assert_eq!(
            out.one_error(),
            format!("error: deck.json:{place}: not a deck list deckbox can read: {why}"),
            "{text}"
        );
        assert!(
            out.stdout.is_empty(),
            "no finding about an empty deck: {}",
            out.stdout
        );
    }
    // A value of the right type that makes no card stays a finding, and the rest is judged.
    write(
        dir.path(),
        "counts.json",
        "{\"pokemon\": [{\"count\": 0, \"name\": \"Dreepy\"}, {\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}]}",
    );
    let out = run(
        dir.path(),
        &["check", "counts.json", "--output", "short"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), set(&["deck-size", "parse-error"]));
    assert_eq!(out.at("parse-error"), ["counts.json:1:24"]);
    let refused = run(dir.path(), &["fmt", "--write", "counts.json"], b"");
    assert_eq!(refused.code, 2, "a line fmt would drop: {}", refused.stderr);
}

/// Files that are JSON but no deck list.
const NOT_DECKS: [(&str, &str, &str); 8] = [
    (
        "cards.json",
        "{\"cards\":\"Dreepy\"}\n",
        "1:1: not a deck list deckbox can read: an object with no `pokemon`, `trainer`, `energy` or `sections` key",
    ),
    (
        "numbers.json",
        "[1,2,3]\n",
        "1:2: not a deck list deckbox can read: a list of cards holds a number",
    ),
    (
        "empty.json",
        "{}",
        "1:1: not a deck list deckbox can read: an object with no",
    ),
    (
        "string.json",
        "\"4 Dreepy TWM 128\"\n",
        "1:1: not a deck list deckbox can read: a string, where a deck list is an object of sections or an array of card objects",
    ),
    (
        "section.json",
        "{\"pokemon\":\"x\"}",
        "1:12: not a deck list deckbox can read: `pokemon` must be an array, not a string",
    ),
    (
        "array.json",
        "[]",
        "1:1: not a deck list deckbox can read: an empty array",
    ),
    (
        "broken.json",
        "{\"pokemon\": [{\"count\": 4 \"name\": \"Dreepy\"}]}",
        "1:26: not a deck list deckbox can read: not valid JSON: expected `,` or `}`",
    ),
    (
        "package.json",
        "{\"name\": \"my-site\", \"version\": \"1.0.0\", \"dependencies\": {}}\n",
        "1:1: not a deck list deckbox can read: an object with no",
    ),
];

#[test]
fn json_that_is_no_deck_is_never_judged() {
    let dir = tempfile::tempdir().unwrap();
    for (file, text, message) in NOT_DECKS {
        write(dir.path(), file, text);
        for args in [
            &["check", file, "--output", "short"][..],
            &["check", file, "--output", "json"],
            &["fmt", file],
            &["fmt", "--check", file],
            &["convert", file, "--to", "ptcgo"],
            &["stats", file],
        ] {
            let out = run(dir.path(), args, b"");
            assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
            assert!(
                out.one_error()
                    .starts_with(&format!("error: {file}:{message}")),
                "{args:?}: {}",
                out.stderr
            );
            assert!(
                !out.stdout.contains("deck-size") && !out.stdout.contains("no-basic-pokemon"),
                "{args:?}: {}",
                out.stdout
            );
        }
    }
    // On standard input too, named as such.
    let out = run(dir.path(), &["check", "-"], b"[1, 2, 3]");
    assert_eq!(out.code, 2);
    assert!(
        out.one_error()
            .starts_with("error: standard input:1:2: not a deck list deckbox can read"),
        "{}",
        out.stderr
    );
}

#[test]
fn fmt_write_over_a_folder_of_them_changes_none() {
    let dir = tempfile::tempdir().unwrap();
    let decks = dir.path().join("decks");
    std::fs::create_dir(&decks).unwrap();
    for (file, text, _) in NOT_DECKS {
        write(&decks, file, text);
    }
    // Beside them, a good Limitless list the walk formats, and a text list.
    write(&decks, "good.json", LIMITLESS);
    write(&decks, "good.txt", "4 Dreepy TWM 128\n");
    write(
        dir.path(),
        "deckbox.toml",
        "[files]\ninclude = [\"*.json\", \"*.txt\"]\n",
    );
    let before: Vec<(String, Vec<u8>)> = NOT_DECKS
        .iter()
        .map(|(file, _, _)| (file.to_string(), std::fs::read(decks.join(file)).unwrap()))
        .collect();
    let out = run(dir.path(), &["fmt", "--write", "decks"], b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    for (file, bytes) in &before {
        assert_eq!(&std::fs::read(decks.join(file)).unwrap(), bytes, "{file}");
        assert!(
            out.stderr.contains(&format!("{file}:")),
            "{file} named: {}",
            out.stderr
        );
    }
    let errors = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .count();
    assert_eq!(errors, NOT_DECKS.len(), "{}", out.stderr);
    assert!(
        out.stderr.contains("formatted decks/good.json"),
        "{}",
        out.stderr
    );
    assert_eq!(
        other_members(&read(&decks, "good.json")),
        other_members(LIMITLESS)
    );
    // `--check` over the folder says the same and writes nothing.
    let out = run(dir.path(), &["fmt", "--check", "decks"], b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    for (file, bytes) in &before {
        assert_eq!(&std::fs::read(decks.join(file)).unwrap(), bytes, "{file}");
    }
}

/// Issue 27: an event record keeping the list as text under `decklist` or `list`.
#[test]
fn a_text_list_in_a_json_string_is_read_and_formatted_in_place() {
    let dir = tempfile::tempdir().unwrap();
    // `\u00e9`, `\"` and `\n` escapes before and inside the cards a finding points at.
    let record = concat!(
        "{\"player\": \"Ash \\\"the\\\" Champion\",\n",
        " \"decklist\": \"Pok\\u00e9mon: 4\\n4 Dreepy TWM 128\\n\\nTrainer: 5\\n",
        "4 Iono PAL 185\\n1 Pok\\u00e9 Z\\u00e9ro Ball\\n// tech \\\"choice\\\"\\n\",\n",
        " \"round\": 3}\n"
    );
    write(dir.path(), "record.json", record);
    let out = run(
        dir.path(),
        &[
            "check",
            "record.json",
            "--output",
            "short",
            "--format",
            "unlimited",
        ],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.rules(),
        set(&["deck-size", "unknown-card"]),
        "{}",
        out.stdout
    );
    // The unknown card is underlined where it is written, escapes and all.
    let json = run(
        dir.path(),
        &["check", "record.json", "--output", "json"],
        b"",
    );
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let finding = report["decks"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "unknown-card")
        .unwrap()
        .clone();
    let offset = finding["span"]["offset"].as_u64().unwrap() as usize;
    let length = finding["span"]["length"].as_u64().unwrap() as usize;
    assert_eq!(
        &record[offset..offset + length],
        "Pok\\u00e9 Z\\u00e9ro Ball",
        "{finding}"
    );
    assert_eq!(
        out.at("unknown-card"),
        ["record.json:2:82"],
        "{}",
        out.stdout
    );

    // fmt rewrites the string and keeps the rest byte for byte.
    let fixed = record.replace("1 Pok\\u00e9 Z\\u00e9ro Ball\\n", "");
    write(dir.path(), "record.json", &fixed);
    let out = run(dir.path(), &["fmt", "--write", "record.json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let written = read(dir.path(), "record.json");
    assert!(
        written.starts_with("{\"player\": \"Ash \\\"the\\\" Champion\",\n \"decklist\": \""),
        "{written}"
    );
    assert!(written.ends_with("\",\n \"round\": 3}\n"), "{written}");
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        value["decklist"],
        "// tech \"choice\"\n\nPokémon: 4\n4 Dreepy TWM 128\n\nTrainer: 4\n4 Iono PAL 185\n\nTotal Cards: 8\n"
    );
    let again = run(dir.path(), &["fmt", "--check", "record.json"], b"");
    assert_eq!(again.code, 0, "{}", again.stdout);

    // Under `list`, and a line the text reader cannot read: fmt refuses, nothing written.
    let listed = "{\"id\": 9, \"list\": \"4 Dreepy TWM 128\\n?? what\\n\"}";
    write(dir.path(), "listed.json", listed);
    let out = run(
        dir.path(),
        &["check", "listed.json", "--output", "short"],
        b"",
    );
    assert_eq!(
        out.at("parse-error"),
        ["listed.json:1:38"],
        "{}",
        out.stdout
    );
    let refused = run(dir.path(), &["fmt", "--write", "listed.json"], b"");
    assert_eq!(refused.code, 2);
    assert_eq!(read(dir.path(), "listed.json"), listed);
    // `add` and `remove` refuse what `fmt --write` refuses, and edit the list in its string
    // otherwise, keeping the record around it.
    let out = run(dir.path(), &["add", "listed.json", "1 Iono PAL 185"], b"");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("not edited"), "{}", out.stderr);
    assert_eq!(read(dir.path(), "listed.json"), listed);
    let out = run(
        dir.path(),
        &["remove", "record.json", "1 Iono PAL 185"],
        b"",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let edited = read(dir.path(), "record.json");
    let value: serde_json::Value = serde_json::from_str(&edited).unwrap();
    assert_eq!(value["round"], 3, "{edited}");
    assert!(
        value["decklist"]
            .as_str()
            .is_some_and(|list| list.contains("3 Iono PAL 185\n\nTotal Cards: 7")),
        "{edited}"
    );
    let again = run(dir.path(), &["fmt", "--check", "record.json"], b"");
    assert_eq!(again.code, 0, "{}", again.stdout);
}
