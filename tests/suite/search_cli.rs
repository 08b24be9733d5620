#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `deckbox search`: the real binary on the embedded card index, queries typed the way
//! players type them, each answer checked against an independent reading of the data (the
//! TCGdex files themselves, or pokemon-tcg-data's JSON) where one exists.
//!
//! Tests named `..._need_details` read HP, attacks and rules text from the embedded index's
//! card texts (`cards/details.bin`); they never skip for want of them.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common;

use common::{run_deckbox, stdout_of};

/// Runs `deckbox search ARGS...` with no config file, in an empty directory.
fn search(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["search", "--no-config"];
    all.extend_from_slice(args);
    run_deckbox(dir.path(), &all, b"")
}

/// Every printing found, as `(set, number, name)`, from `--output json`.
fn printings(query: &str) -> Vec<(String, String, String)> {
    let (code, out) = search(&[query, "--output", "json"]);
    assert!(code <= 1, "{out}");
    let value: serde_json::Value = serde_json::from_str(stdout_of(&out)).unwrap();
    let mut found = Vec::new();
    for card in value["cards"].as_array().unwrap() {
        for printing in card["printings"].as_array().unwrap() {
            let field = |key: &str| printing[key].as_str().unwrap().to_string();
            found.push((field("set"), field("number"), field("name")));
        }
    }
    found
}

fn names(query: &str) -> BTreeSet<String> {
    printings(query)
        .into_iter()
        .map(|(_, _, name)| name)
        .collect()
}

/// One TCGdex card file, read plainly: the English name and whatever `key: { en: "..." }`
/// blocks it holds, as `(block key, English text)`.
struct TcgdexFile {
    names: Vec<(String, String)>,
    text: String,
}

fn tcgdex_files(test: &str) -> Option<Vec<TcgdexFile>> {
    let data = common::shared_data(test)?.join("tcgdex-repo/data");
    let mut files = Vec::new();
    walk(&data, &mut files);
    Some(files)
}

fn walk(dir: &Path, out: &mut Vec<TcgdexFile>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // TCG Pocket is another game: the index leaves it out, as every loader must.
            if path
                .file_name()
                .is_some_and(|name| name == "Pokémon TCG Pocket")
            {
                continue;
            }
            walk(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "ts") {
            let text = std::fs::read_to_string(&path).unwrap();
            // A card file opens its names block with `name: {` on a line of its own.
            let Some(start) = text.find("\n\tname: {") else {
                continue;
            };
            let block = &text[start..];
            let block = &block[..block.find('}').unwrap()];
            let names = block
                .lines()
                .filter_map(|line| {
                    let (lang, rest) = line.trim().split_once(": \"")?;
                    Some((
                        lang.to_string(),
                        rest.trim_end_matches(',').trim_end_matches('"').to_string(),
                    ))
                })
                .collect();
            out.push(TcgdexFile { names, text });
        }
    }
}

impl TcgdexFile {
    fn name(&self, lang: &str) -> Option<&str> {
        self.names
            .iter()
            .find(|(l, _)| l == lang)
            .map(|(_, n)| n.as_str())
    }
}

#[test]
fn a_french_name_finds_every_printing_of_its_card() {
    let Some(files) = tcgdex_files("a_french_name_finds_every_printing_of_its_card") else {
        return;
    };
    let expected = files
        .iter()
        .filter(|f| f.name("fr") == Some("Fantyrm"))
        .count();
    let found = printings("Fantyrm");
    assert_eq!(found.len(), expected, "{found:?}");
    assert!(
        found.iter().all(|(_, _, name)| name == "Dreepy"),
        "{found:?}"
    );
    // Case, accents and the query's own spacing aside.
    assert_eq!(printings("  fantyrm "), found);
    // The same printings `deckbox card` gives.
    let (_, card) = run_deckbox(
        tempfile::tempdir().unwrap().path(),
        &["card", "--no-config", "Fantyrm", "--output", "json"],
        b"",
    );
    let card: serde_json::Value = serde_json::from_str(stdout_of(&card)).unwrap();
    let card_count = card["cards"][0]["printings"].as_array().unwrap().len();
    assert_eq!(card_count, found.len());
}

#[test]
fn set_codes_numbers_and_ids_find_that_printing() {
    for (query, set, number) in [
        ("TWM 128", "TWM", "128"),
        ("twm 0128", "TWM", "128"),
        ("PR-SV 12", "SVP", "12"),
        ("sv06-128", "TWM", "128"),
    ] {
        let found = printings(query);
        assert_eq!(found.len(), 1, "{query}: {found:?}");
        assert_eq!(
            (found[0].0.as_str(), found[0].1.as_str()),
            (set, number),
            "{query}"
        );
    }
    // Combined with a key: the printing, when it passes.
    assert_eq!(printings("TWM 128 kind:pokemon").len(), 1);
    assert!(printings("TWM 128 kind:trainer").is_empty());
}

#[test]
fn ace_specs_legal_in_expanded_in_june_2015() {
    let Some(data) = common::shared_data("ace_specs_legal_in_expanded_in_june_2015") else {
        return;
    };
    // pokemon-tcg-data: every ACE SPEC of a set released by then (Expanded, at its start in
    // 2015, took every set from Black & White on; no ACE SPEC was banned then).
    let sets: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("pokemontcg/sets/en.json")).unwrap(),
    )
    .unwrap();
    let mut expected = BTreeSet::new();
    for set in sets.as_array().unwrap() {
        let released = set["releaseDate"].as_str().unwrap().replace('/', "-");
        let series = set["series"].as_str().unwrap();
        if released.as_str() > "2015-06-01" || !["Black & White", "XY"].contains(&series) {
            continue;
        }
        let file = data.join(format!(
            "pokemontcg/cards/en/{}.json",
            set["id"].as_str().unwrap()
        ));
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let cards: serde_json::Value = serde_json::from_str(&text).unwrap();
        for card in cards.as_array().unwrap() {
            let subtypes = card["subtypes"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            if subtypes.iter().any(|s| s == "ACE SPEC") {
                expected.insert(card["name"].as_str().unwrap().to_string());
            }
        }
    }
    assert!(expected.len() >= 10, "{expected:?}");
    assert_eq!(names("is:ace-spec legal:expanded@2015-06-01"), expected);
}

#[test]
fn a_card_name_is_not_an_attack_name() {
    // A phrase matches names: no card is named after Dragapult ex's attack.
    let (code, out) = search(&["\"Phantom Dive\""]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(out, @r#"
    exit: 1
    --- stdout
    --- stderr
    no card matches `"Phantom Dive"`
    "#);
}

#[test]
fn an_attack_by_name_needs_details() {
    let Some(files) = tcgdex_files("an_attack_by_name_needs_details") else {
        return;
    };
    let expected: BTreeSet<String> = files
        .iter()
        .filter(|f| f.text.contains("en: \"Phantom Dive\""))
        .filter_map(|f| f.name("en").map(str::to_string))
        .collect();
    assert!(expected.contains("Dragapult ex"), "{expected:?}");
    assert_eq!(names("attack:\"Phantom Dive\""), expected);
}

#[test]
fn supporters_that_discard_your_hand_need_details() {
    let Some(files) = tcgdex_files("supporters_that_discard_your_hand_need_details") else {
        return;
    };
    let expected: BTreeSet<String> = files
        .iter()
        .filter(|f| f.text.contains("trainerType: \"Supporter\""))
        .filter(|f| f.text.to_lowercase().contains("discard your hand"))
        .filter_map(|f| f.name("en").map(str::to_string))
        .collect();
    assert!(expected.contains("Professor's Research"), "{expected:?}");
    assert_eq!(names("kind:supporter text:\"discard your hand\""), expected);
}

#[test]
fn a_french_phrase_finds_its_cards_however_it_is_cased_or_accented_need_details() {
    let Some(files) = tcgdex_files(
        "a_french_phrase_finds_its_cards_however_it_is_cased_or_accented_need_details",
    ) else {
        return;
    };
    // The French rules text of Professor's Research and its kin, read from the files.
    let expected: BTreeSet<String> = files
        .iter()
        .filter(|f| {
            f.text.lines().any(|line| {
                let line = line.trim_start();
                line.starts_with("fr: \"") && line.to_lowercase().contains("défaussez votre main")
            })
        })
        .filter_map(|f| f.name("en").map(str::to_string))
        .collect();
    assert!(expected.contains("Professor's Research"), "{expected:?}");
    assert_eq!(names("text:\"défaussez votre main\""), expected);
    assert_eq!(names("text:\"DEFAUSSEZ Votre main\""), expected);
}

#[test]
fn an_ability_by_name_needs_details() {
    let Some(files) = tcgdex_files("an_ability_by_name_needs_details") else {
        return;
    };
    let expected: BTreeSet<String> = files
        .iter()
        .filter(|f| f.text.contains("en: \"Recon Directive\""))
        .filter_map(|f| f.name("en").map(str::to_string))
        .collect();
    assert!(expected.contains("Drakloak"), "{expected:?}");
    assert_eq!(names("ability:\"recon directive\""), expected);
    // Combined with another key and negated: the same cards, without Twilight Masquerade's.
    let outside_twm: BTreeSet<(String, String)> = printings("ability:\"Recon Directive\" -set:TWM")
        .into_iter()
        .map(|(set, number, _)| (set, number))
        .collect();
    let all: BTreeSet<(String, String)> = printings("ability:\"Recon Directive\"")
        .into_iter()
        .map(|(set, number, _)| (set, number))
        .filter(|(set, _)| set != "TWM")
        .collect();
    assert_eq!(outside_twm, all);
}

#[test]
fn basic_psychic_pokemon_with_120_hp_need_details() {
    let Some(files) = tcgdex_files("basic_psychic_pokemon_with_120_hp_need_details") else {
        return;
    };
    let hp = |f: &TcgdexFile| -> Option<u32> {
        let at = f.text.find("\n\thp: ")?;
        f.text[at + 6..]
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    // The card's own `types: [...]` (written on one line or several), not an attack's cost.
    let types = |f: &TcgdexFile| -> Option<String> {
        let at = f.text.find("\n\ttypes: [")?;
        let rest = &f.text[at..];
        Some(rest[..rest.find(']')?].to_string())
    };
    let expected: BTreeSet<String> = files
        .iter()
        // A Basic Pokémon as the rules define it: stage `Basic`, or (where TCGdex gives no
        // stage, as on many EX and GX cards) a Pokémon that evolves from nothing; the halves
        // of a Pokémon LEGEND are played together from the hand, never as a Basic Pokémon.
        .filter(|f| {
            f.text.contains("\n\tstage: \"Basic\"")
                || (f.text.contains("\n\tcategory: \"Pokemon\"")
                    && !f.text.contains("\n\tstage: ")
                    && !f.text.contains("\n\tevolveFrom: "))
        })
        .filter(|f| !f.name("en").is_some_and(|name| name.ends_with(" LEGEND")))
        .filter(|f| types(f).is_some_and(|types| types.contains("\"Psychic\"")))
        .filter(|f| hp(f).is_some_and(|hp| hp >= 120))
        .filter_map(|f| f.name("en").map(str::to_string))
        .collect();
    let all = names("type:psychic stage:basic hp>=120");
    assert_eq!(all, expected);
    // In Standard: some of them, each one the format admits.
    let legal = names("type:psychic stage:basic hp>=120 legal:standard");
    assert!(!legal.is_empty() && legal.is_subset(&all), "{legal:?}");
    let legal_anywhere = names("legal:standard");
    assert!(legal.is_subset(&legal_anywhere));
}

#[test]
fn mistakes_are_shown_under_the_query() {
    let table = [
        "tpye:psychic hp>=120",
        "stage:basc",
        "is:Ex",
        "legal:standrd@2020-01-01",
        "legal:expanded@2015-13-01",
        "hp>=lots",
        "(Dreepy or Drakloak",
        "kind:item or",
    ];
    let mut shown = String::new();
    for query in table {
        let (code, out) = search(&[query]);
        assert_eq!(code, 2, "{out}");
        shown.push_str(&out);
    }
    insta::assert_snapshot!(shown);
}

/// A query's mistake is an error like any other: what standard error said before it (the
/// old reading of `-o`, the config file's note on the card data) still comes first, and the
/// caret is drawn under the query.
#[test]
fn a_mistake_comes_after_the_warnings_and_notes_before_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deckbox.toml"),
        "card_data = { newest_set = \"ZZZ\" }\n",
    )
    .unwrap();
    let (code, out) = run_deckbox(dir.path(), &["search", "hp>=", "-o", "json"], b"");
    assert_eq!(code, 2, "{out}");
    let stderr = out.split_once("--- stderr\n").unwrap().1;
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("warning: `-o json` is read as"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("help: write `--output-format json`"),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("warning: ") && lines[2].contains("expects card data up to set `ZZZ`"),
        "{stderr}"
    );
    assert_eq!(
        &lines[3..],
        [
            "error: `hp` needs a value: a whole number",
            "  hp>=",
            "  ^^^^"
        ],
        "{stderr}"
    );
}

#[test]
fn outputs() {
    let (code, list) = search(&[
        "evolves:Dreepy or Dreepy",
        "--output",
        "list",
        "--lang",
        "fr",
    ]);
    assert_eq!(code, 0, "{list}");
    insta::assert_snapshot!(list);
    let (code, table) = search(&["Dreepy", "--unique", "printings", "--sort", "set"]);
    assert_eq!(code, 0, "{table}");
    insta::assert_snapshot!(table);
    let (code, negated) = search(&["--sort", "released", "--", "-is:ex name:Dragapult"]);
    assert_eq!(code, 0, "{negated}");
    assert!(!negated.contains("Dragapult ex"), "{negated}");
    insta::assert_snapshot!(negated);
}

#[test]
fn the_user_guide_lists_every_key() {
    let guide = std::fs::read_to_string(common::repo().join("docs/user-guide.md")).unwrap();
    let section = guide
        .split("## Finding cards: `deckbox search`")
        .nth(1)
        .unwrap();
    for key in deckbox::search::keys::KEYS {
        for name in key.names() {
            assert!(
                section.contains(&format!("`{name}:`")) || section.contains(&format!("`{name}`")),
                "docs/user-guide.md does not list the search key `{name}`"
            );
        }
    }
}

#[test]
fn a_bare_word_starts_a_word_of_the_name_in_any_language() {
    // Typed as players type them: the start of a name, in English, French, German.
    let char = names("char");
    for name in ["Charizard", "Charmander", "Charmeleon"] {
        assert!(char.contains(name), "{char:?}");
    }
    // `char` starts no word of `Richard` or `Orchard`-like names: a word's start only.
    assert!(
        char.iter().all(|name| !name.starts_with("Rich")),
        "{char:?}"
    );
    let mew = names("mew");
    assert!(mew.contains("Mew") && mew.contains("Mewtwo"), "{mew:?}");
    assert!(
        mew.contains("Mewtwo ex") || mew.contains("Mew ex"),
        "{mew:?}"
    );
    assert!(names("pika").contains("Pikachu"));
    // French `Dracaufeu` and German `Glurak` are Charizard.
    assert!(names("dracau").contains("Charizard"));
    assert!(names("GLUR").contains("Charizard"));
    // A quoted phrase keeps to whole words: Mew, not Mewtwo.
    let exact = names("\"mew\"");
    assert!(
        exact.contains("Mew") && !exact.contains("Mewtwo"),
        "{exact:?}"
    );
    let keyed = names("name:\"mew\"");
    assert_eq!(keyed, exact);
    assert!(names("name:mewt").contains("Mewtwo"));
    // Several words: each starts a word of the same card's name.
    assert!(names("prof res").contains("Professor's Research"));
}

#[test]
fn a_list_at_a_date_names_printings_released_by_then() {
    let query = "name:\"ultra ball\" legal:expanded@2015-06-01";
    let (code, out) = search(&[query, "--output", "list"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = stdout_of(&out).lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    // Ultra Ball was reprinted long after 2015; a printing released after the date judged
    // is never legal then, not even as a reprint (docs/formats.md), so the search finds
    // only the printings of June 2015, and the list names the newest of them.
    let released = |query: &str| {
        let (code, json) = search(&[query, "--unique", "printings", "--output", "json"]);
        assert_eq!(code, 0, "{json}");
        let value: serde_json::Value = serde_json::from_str(stdout_of(&json)).unwrap();
        let mut released = std::collections::HashMap::new();
        for card in value["cards"].as_array().unwrap() {
            for p in card["printings"].as_array().unwrap() {
                let label = format!(
                    "{} {}",
                    p["set"].as_str().unwrap(),
                    p["number"].as_str().unwrap()
                );
                released.insert(label, p["released"].as_str().unwrap().to_string());
            }
        }
        released
    };
    let today = released("name:\"ultra ball\" legal:expanded");
    assert!(
        today.values().any(|date| date.as_str() > "2015-06-01"),
        "the test needs a later reprint: {today:?}"
    );
    let then = released(query);
    assert!(
        then.values().all(|date| date.as_str() <= "2015-06-01"),
        "{then:?}"
    );
    let label = lines[0].trim_start_matches("1 Ultra Ball ");
    let date = &then[label];
    assert_eq!(Some(date), then.values().max());
}

#[test]
fn names_in_the_language_asked_come_first() {
    // `char` starts Charizard, and Charmilly, Alcremie's French name: English names first.
    let (code, out) = search(&["char", "--output", "list"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = stdout_of(&out).lines().collect();
    assert!(lines[0].contains(" Char"), "{}", lines[0]);
    let alcremie = lines.iter().position(|line| line.contains("Alcremie"));
    let charizard = lines.iter().position(|line| line.contains("Charizard"));
    assert!(alcremie > charizard && charizard.is_some(), "{lines:?}");
    // In French, Charmilly is a match in the language asked.
    let (_, out) = search(&["char", "--lang", "fr", "--output", "list"]);
    let first = stdout_of(&out)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(first.contains(" Char"), "{first}");
}

/// `legal:` and `banned:` judge every printing from the search columns, once per card;
/// `check` judges one printing at a time (`legality::judge`). The two agree on every
/// printing of the embedded index, in formats with and without the reprint rule, today and
/// at past dates.
#[test]
fn legal_and_banned_agree_with_check_on_every_printing() {
    use deckbox::formats::Format;
    use deckbox::formats::legality::{self, Verdict};
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let date = |text: &str| text.parse::<jiff::civil::Date>().unwrap();
    let formats = [
        ("standard", Some(date("2026-11-25"))),
        ("expanded", Some(date("2026-11-25"))),
        ("expanded", Some(date("2015-06-01"))),
        ("standard", Some(date("2019-07-01"))),
        ("glc", Some(date("2026-11-25"))),
    ];
    let every = vec![true; db.len()];
    let mut any_banned = false;
    for (id, at) in formats {
        let format = Format::load_at(id, at).unwrap();
        let legal = legality::legal_among(&format, &db, &every);
        let banned = legality::banned_among(&format, &db, &every);
        for (index, printing) in db.iter() {
            let verdict = legality::judge(&format, &db, printing);
            let label = format!("{id}@{at:?} {}", printing.printing_label());
            let is_legal = verdict.allows();
            assert_eq!(legal[index as usize], is_legal, "{label}: {verdict:?}");
            let is_banned = matches!(verdict, Verdict::Banned(_));
            assert_eq!(banned[index as usize], is_banned, "{label}: {verdict:?}");
        }
        assert!(legal.iter().any(|l| *l), "{id}: something is legal");
        any_banned |= banned.iter().any(|b| *b);
    }
    assert!(any_banned, "Expanded bans cards");
}

/// Issue 50: a search with no results did not say that the cards exist but are not legal
/// where the query asked. When leaving the `legal:` terms out finds cards, the note says how
/// many, names the first, and how to see them; a query that finds nothing either way, or a
/// `legal:` term alone, gets no such note; `sort:` points to `--sort`.
#[test]
fn an_empty_search_says_when_the_cards_exist_but_are_not_legal() {
    let (code, out) = search(&["name:\"Boss\" legal:standard@2019-05-01"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "note: 2 cards match without `legal:standard@2019-05-01` (Boss's Orders, The Boss's Way): they exist but are not legal there"
        ),
        "{out}"
    );
    let (code, out) = search(&["name:zzzzqq legal:standard"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("note:"), "{out}");
    let (code, out) = search(&["sort:name", "kind:supporter"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("`--sort name`"), "{out}");
}

/// A hidden character before the mistake is shown escaped (`\u{202E}`, eight columns): the
/// carets still stand under the mistake, not eight columns to its left (issue 52 item 8).
#[test]
fn the_caret_stands_under_the_mistake_after_an_escaped_character() {
    let (code, out) = search(&["name:\"Pik\u{202E}a\" zzz:1"]);
    assert_eq!(code, 2, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let shown = lines
        .iter()
        .position(|line| line.contains("zzz:1"))
        .unwrap();
    let at = lines[shown].find("zzz").unwrap();
    let carets = lines[shown + 1];
    assert_eq!(carets.find('^'), Some(at), "{out}");
    assert_eq!(carets.trim(), "^^^", "{out}");
}

/// A `set:` value that names no set, when nothing is found: the note names the nearest set
/// code, as `check` suggests one for an unknown printing (`TWN` is one letter from `TWM`).
#[test]
fn an_unknown_set_value_names_the_nearest_code() {
    let (code, out) = search(&["set:TWN"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no set has the code or id `TWN`"), "{out}");
    assert!(out.contains("did you mean `set:TWM`?"), "{out}");
    let (code, out) = search(&["set:TWM", "number:128"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("no set has"), "{out}");
}
