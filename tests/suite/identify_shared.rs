//! Identification against the real datasets in ../shared/data: every Standard-era card
//! resolves by printing and by name in every language it has, and one deck gets the same
//! verdict in every language and layout.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use deckbox::cards::identification::resolve::{self, Resolution};
use deckbox::cards::storage::checkout_cache;
use deckbox::cards::{CardDb, Printing};
use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::formats::Format;
use deckbox::names;
use deckbox::names::lang::Language;

fn open(path: &Path) -> CardDb {
    let options = checkout_cache::IndexOptions {
        cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deckbox-cache")),
        rebuild: false,
    };
    checkout_cache::open(path, &options).unwrap()
}

fn tcgdex() -> Option<&'static CardDb> {
    static DB: OnceLock<Option<CardDb>> = OnceLock::new();
    DB.get_or_init(|| {
        common::shared_data("tcgdex identification").map(|data| open(&data.join("tcgdex-repo")))
    })
    .as_ref()
}

fn pokemontcg() -> Option<&'static CardDb> {
    static DB: OnceLock<Option<CardDb>> = OnceLock::new();
    DB.get_or_init(|| {
        common::shared_data("pokemontcg identification").map(|data| open(&data.join("pokemontcg")))
    })
    .as_ref()
}

fn rules_key(printing: &Printing) -> String {
    names::lookup_key(&printing.rules_name())
}

fn standard_era(printing: &Printing) -> bool {
    matches!(printing.regulation_mark, Some('H' | 'I' | 'J'))
}

#[test]
fn every_h_i_j_card_resolves_by_printing_and_by_each_name() {
    let Some(db) = tcgdex() else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    for (_, printing) in db.iter().filter(|(_, p)| standard_era(p)) {
        checked += 1;
        let want = rules_key(printing);
        for (language, name) in printing.names.iter() {
            let by_printing = resolve::resolve(
                db,
                name,
                Some(&printing.set_code),
                Some(&printing.number),
                Some(language),
            );
            match by_printing {
                Resolution::Found {
                    id,
                    by_printing: true,
                    ..
                } => {
                    let found = db.get(id).unwrap();
                    if (found.set_code.as_str(), found.number.as_str())
                        != (printing.set_code.as_str(), printing.number.as_str())
                    {
                        failures.push(format!(
                            "{name} {}: found {}",
                            printing.printing_label(),
                            found.printing_label()
                        ));
                    }
                }
                other => failures.push(format!(
                    "{language} {name} {}: {other:?}",
                    printing.printing_label()
                )),
            }
            match resolve::resolve(db, name, None, None, Some(language)) {
                Resolution::Found { id, .. } => {
                    let found = db.get(id).unwrap();
                    if rules_key(found) != want {
                        failures.push(format!(
                            "{language} '{name}' ({}) found {} ({})",
                            printing.printing_label(),
                            found.names.primary(),
                            found.printing_label()
                        ));
                    }
                }
                other => failures.push(format!("{language} '{name}' by name: {other:?}")),
            }
        }
    }
    assert!(checked > 2000, "only {checked} H/I/J printings loaded");
    assert!(
        failures.is_empty(),
        "{} of {checked} printings failed:\n{}",
        failures.len(),
        failures
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// What must not change between languages and layouts of one deck: validity, every error,
/// and which card each line is. Warnings may differ: a name alone can be ambiguous in one
/// language and not in another (French "Aurore" is both Dawn and Morgan).
#[derive(Debug, PartialEq, Eq)]
struct Verdict {
    valid: bool,
    card_count: u64,
    rules: Vec<String>,
    cards: BTreeMap<String, u64>,
    unidentified: usize,
}

fn verdict(deck: &CheckedDeck, db: &CardDb) -> Verdict {
    let mut cards = BTreeMap::new();
    for card in &deck.cards {
        if let Some(printing) = card.printing.and_then(|id| db.get(id)) {
            *cards.entry(printing.rules_name()).or_insert(0) += u64::from(card.line.count);
        }
    }
    let mut rules: Vec<String> = deck
        .diagnostics
        .iter()
        .filter(|d| d.severity == deckbox::check::diagnostic::Severity::Error)
        .map(|d| format!("{}:{}", d.rule.id(), d.cards.join(",")))
        .collect();
    rules.sort();
    Verdict {
        valid: deck.valid(),
        card_count: deck.card_count(),
        rules,
        cards,
        unidentified: deck.cards.iter().filter(|c| c.printing.is_none()).count(),
    }
}

fn check_text(db: &CardDb, path: &str, text: String) -> CheckedDeck {
    let input = DeckInput {
        path: path.to_string(),
        text,
        encoding_fallback: None,
        path_bytes: None,
        json: None,
    };
    check::check(&input, db, &Format::load("unlimited").unwrap())
}

/// One line of the source deck: count, printing (if identified), section index. Lines
/// that could not be identified are carried over as written.
struct Line<'a> {
    count: u32,
    printing: Option<&'a Printing>,
    written: String,
    section: usize,
}

impl Line<'_> {
    fn name(&self, language: Language) -> &str {
        match self.printing {
            Some(printing) => printing
                .names
                .get(language)
                .unwrap_or_else(|| printing.names.primary()),
            None => &self.written,
        }
    }

    /// ` SET NUMBER`, or nothing for a line that could not be identified.
    fn printing_suffix(&self) -> String {
        self.printing
            .map(|p| format!(" {} {}", p.set_code, p.number))
            .unwrap_or_default()
    }
}

fn identified<'a>(deck: &CheckedDeck, db: &'a CardDb) -> Vec<Line<'a>> {
    use deckbox::cards::Category;
    use deckbox::deck::Section;
    deck.cards
        .iter()
        .map(|card| {
            let printing = card.printing.and_then(|id| db.get(id));
            let category = printing.map(|p| p.category);
            let section = match (category, card.line.section) {
                (Some(Category::Pokemon), _) | (None, Some(Section::Pokemon)) => 0,
                (Some(Category::Energy), _) | (None, Some(Section::Energy)) => 2,
                _ => 1,
            };
            Line {
                count: card.line.count,
                printing,
                written: card.line.name.clone(),
                section,
            }
        })
        .collect()
}

/// Localized headers and footer of a TCG Live export.
fn headers(language: Language) -> ([&'static str; 3], &'static str) {
    match language {
        Language::En => (["Pokémon", "Trainer", "Energy"], "Total Cards"),
        Language::Fr => (["Pokémon ", "Dresseur ", "Énergie "], "Total de cartes "),
        Language::Es => (["Pokémon", "Entrenador", "Energía"], "Total de cartas"),
        Language::Pt => (["Pokémon", "Treinador", "Energia"], "Total de cartas"),
        Language::De => (["Pokémon", "Trainer", "Energie"], "Karten insgesamt"),
        Language::It => (["Pokémon", "Allenatore", "Energia"], "Carte totali"),
    }
}

/// Writes the deck as a TCG Live export in `language`, names from the database.
fn live_export(lines: &[Line], language: Language, with_printings: bool) -> String {
    let (titles, footer) = headers(language);
    let mut out = String::new();
    let mut total = 0;
    for (section, title) in titles.iter().enumerate() {
        let in_section: Vec<&Line> = lines.iter().filter(|l| l.section == section).collect();
        let count: u32 = in_section.iter().map(|l| l.count).sum();
        out.push_str(&format!("{title}: {count}\n"));
        for line in in_section {
            let name = line.name(language);
            if with_printings {
                out.push_str(&format!(
                    "{} {name}{}\n",
                    line.count,
                    line.printing_suffix()
                ));
            } else {
                out.push_str(&format!("{} {name}\n", line.count));
            }
            total += line.count;
        }
        out.push('\n');
    }
    out.push_str(&format!("{footer}: {total}\n"));
    out
}

fn ptcgo(lines: &[Line]) -> String {
    let titles = ["##Pokémon", "##Trainer Cards", "##Energy"];
    let mut out = String::from("****** Pokémon Trading Card Game Deck List ******\n\n");
    let mut total = 0;
    for (section, title) in titles.iter().enumerate() {
        let in_section: Vec<&Line> = lines.iter().filter(|l| l.section == section).collect();
        let count: u32 = in_section.iter().map(|l| l.count).sum();
        out.push_str(&format!("{title} - {count}\n\n"));
        for line in in_section {
            out.push_str(&format!(
                "* {} {}{}\n",
                line.count,
                line.name(Language::En),
                line.printing_suffix()
            ));
            total += line.count;
        }
        out.push('\n');
    }
    out.push_str(&format!("Total Cards - {total}\n\n****** Deck List Generated by the Pokémon TCG Online www.pokemon.com/TCGO ******\n"));
    out
}

fn limitless(lines: &[Line]) -> String {
    let titles = ["Pokémon", "Trainer", "Energy"];
    let mut out = String::new();
    for (section, title) in titles.iter().enumerate() {
        let in_section: Vec<&Line> = lines.iter().filter(|l| l.section == section).collect();
        let count: u32 = in_section.iter().map(|l| l.count).sum();
        out.push_str(&format!("{title}: {count}\n"));
        for line in in_section {
            out.push_str(&format!(
                "{} {}{}\n",
                line.count,
                line.name(Language::En),
                line.printing_suffix()
            ));
        }
        out.push('\n');
    }
    out
}

fn same_verdict_everywhere(db: &CardDb, example: &str, languages: &[Language]) {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(example),
    )
    .unwrap();
    let original = check_text(db, example, text);
    let expected = verdict(&original, db);
    // Only broken.txt has a line no card matches (its misspelled `Boss's Order`).
    let misspelled = usize::from(example == "broken.txt");
    assert_eq!(
        expected.unidentified, misspelled,
        "{example}: {:?}",
        original.diagnostics
    );
    let lines = identified(&original, db);
    let mut variants: Vec<(String, String)> = vec![
        ("ptcgo".into(), ptcgo(&lines)),
        ("limitless".into(), limitless(&lines)),
    ];
    for &language in languages {
        variants.push((
            format!("live-{language}"),
            live_export(&lines, language, true),
        ));
        variants.push((
            format!("names-{language}"),
            live_export(&lines, language, false),
        ));
    }
    for (name, text) in variants {
        let deck = check_text(db, &name, text.clone());
        assert_eq!(
            verdict(&deck, db),
            expected,
            "{example} as {name}:\n{text}\n{:#?}",
            deck.diagnostics
        );
        if let Some(code) = name.strip_prefix("live-") {
            let language = Language::from_code(code).unwrap();
            assert_eq!(deck.language, Some(language), "{name}: language detected");
        }
    }
}

#[test]
fn one_deck_one_verdict_in_six_languages_and_three_layouts_tcgdex() {
    let Some(db) = tcgdex() else { return };
    for example in ["dragapult.txt", "broken.txt", "gardevoir-fr.txt"] {
        same_verdict_everywhere(db, example, &Language::ALL);
    }
}

#[test]
fn english_lists_with_pokemontcg() {
    let Some(db) = pokemontcg() else { return };
    // pokemon-tcg-data ends at Ascended Heroes: use a deck of cards it has.
    let text = "Pokémon: 4\n4 Dreepy TWM 128\n4 Drakloak TWM 129\n3 Dragapult ex TWM 130\n1 Radiant Greninja ASR 46\n\
Trainer: 4\n4 Iono PAL 185\n4 Arven SVI 166\n4 Ultra Ball SVI 196\n4 Rare Candy SVI 191\n4 Nest Ball SVI 181\n\
1 Prime Catcher TEF 157\n1 Master Ball TEF 153\n4 Buddy-Buddy Poffin TEF 144\n4 Boss's Orders PAL 172\n\
4 Switch SVI 194\n4 Super Rod PAL 188\n\nEnergy: 2\n5 Basic {P} Energy SVE 5\n5 Fire Energy SVE 2\nTotal Cards: 60\n";
    let deck = check_text(db, "english.txt", text.to_string());
    let rules: Vec<&str> = deck.diagnostics.iter().map(|d| d.rule.id()).collect();
    assert_eq!(deck.card_count(), 60);
    assert!(
        deck.cards.iter().all(|c| c.printing.is_some()),
        "{:#?}",
        deck.diagnostics
    );
    assert_eq!(
        rules.iter().filter(|r| **r == "ace-spec-limit").count(),
        1,
        "{rules:?}"
    );
    assert!(!deck.valid());
    let lines = identified(&deck, db);
    for (name, text) in [("ptcgo", ptcgo(&lines)), ("limitless", limitless(&lines))] {
        let other = check_text(db, name, text.clone());
        assert_eq!(verdict(&other, db), verdict(&deck, db), "{name}:\n{text}");
    }
    // Without set codes, `Master Ball` is also the older, ordinary Item: read as that one,
    // the deck keeps one ACE SPEC, and the warning says the choice changes the verdict.
    let text = live_export(&lines, Language::En, false);
    let names = check_text(db, "names", text.clone());
    assert!(names.valid(), "{text}\n{:#?}", names.diagnostics);
    let warning = names
        .diagnostics
        .iter()
        .find(|d| d.rule.id() == "ambiguous-card" && d.message.contains("Master Ball"))
        .expect("Master Ball is ambiguous");
    assert!(
        warning.message.contains("changes the verdict"),
        "{warning:?}"
    );
    let help = warning.help.as_deref().unwrap_or_default();
    assert!(help.contains("would break ace-spec-limit"), "{help}");
}

#[test]
fn ambiguous_names_warn_and_v_union_pieces_share_a_name() {
    let Some(db) = tcgdex() else { return };
    let deck = check_text(db, "ambiguous.txt", "1 Computer Search\n".to_string());
    let ambiguous: Vec<_> = deck
        .diagnostics
        .iter()
        .filter(|d| d.rule.id() == "ambiguous-card")
        .collect();
    assert_eq!(ambiguous.len(), 1, "{:#?}", deck.diagnostics);
    assert!(
        ambiguous[0].message.contains("ACE SPEC"),
        "{}",
        ambiguous[0].message
    );
    let deck = check_text(db, "pinned.txt", "1 Computer Search BCR 137\n".to_string());
    assert!(
        deck.diagnostics
            .iter()
            .all(|d| d.rule.id() != "ambiguous-card")
    );
    // Four V-UNION pieces are four copies of one name; a fifth breaks the copy limit.
    let pieces: Vec<&Printing> = db
        .iter()
        .map(|(_, p)| p)
        .filter(|p| {
            p.stage == Some(deckbox::cards::Stage::VUnion)
                && p.names.primary().starts_with("Mewtwo")
        })
        .collect();
    assert!(pieces.len() >= 4, "{pieces:?}");
    let names: std::collections::BTreeSet<String> = pieces.iter().map(|p| rules_key(p)).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    let mut list: String = pieces
        .iter()
        .take(4)
        .map(|p| format!("1 {} {} {}\n", p.names.primary(), p.set_code, p.number))
        .collect();
    let deck = check_text(db, "vunion.txt", list.clone());
    assert!(
        deck.diagnostics.iter().all(|d| d.rule.id() != "copy-limit"),
        "{:#?}",
        deck.diagnostics
    );
    assert!(
        deck.diagnostics
            .iter()
            .any(|d| d.rule.id() == "no-basic-pokemon"),
        "V-UNION pieces are not Basic"
    );
    list.push_str(&format!(
        "1 {} {} {}\n",
        pieces[0].names.primary(),
        pieces[0].set_code,
        pieces[0].number
    ));
    let deck = check_text(db, "vunion5.txt", list);
    assert!(
        deck.diagnostics.iter().any(|d| d.rule.id() == "copy-limit"),
        "{:#?}",
        deck.diagnostics
    );
}

/// The embedded index alone gives the example decks one verdict in every language and layout.
#[test]
fn one_deck_one_verdict_in_six_languages_and_three_layouts_embedded() {
    let db = deckbox::cards::storage::embedded::open().unwrap();
    for example in ["dragapult.txt", "broken.txt", "gardevoir-fr.txt"] {
        same_verdict_everywhere(&db, example, &Language::ALL);
    }
}

/// Current Standard lists typed by hand (names only, no set codes) in each of the six
/// languages, and as Live exports: judged in Standard by the embedded index exactly as by a
/// TCGdex clone.
#[test]
fn the_embedded_index_judges_standard_lists_like_a_tcgdex_clone() {
    let Some(tcgdex) = tcgdex() else { return };
    let embedded = deckbox::cards::storage::embedded::open().unwrap();
    let standard = Format::load("standard").unwrap();
    let judge = |db: &CardDb, name: &str, text: &str| {
        let input = DeckInput {
            path: name.to_string(),
            text: text.to_string(),
            encoding_fallback: None,
            path_bytes: None,
            json: None,
        };
        verdict(&check::check(&input, db, &standard), db)
    };
    for example in ["dragapult.txt", "broken.txt", "gardevoir-fr.txt"] {
        let text = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("examples")
                .join(example),
        )
        .unwrap();
        let original = check_text(tcgdex, example, text);
        let lines = identified(&original, tcgdex);
        for language in Language::ALL {
            for with_printings in [false, true] {
                let list = live_export(&lines, language, with_printings);
                let name = format!("{example} {language} printings={with_printings}");
                assert_eq!(
                    judge(&embedded, &name, &list),
                    judge(tcgdex, &name, &list),
                    "{name}:\n{list}"
                );
            }
        }
    }
}

/// Every pokemontcg.io set id becomes the TCGdex id of the same set, per the crosswalk in
/// ../shared/data/derived/set-codes.json, and the embedded index knows that set's printed
/// code: `4 Ultra Ball sv1-196` is read as SVI 196 whatever set it names.
#[test]
fn pokemontcg_set_ids_name_the_same_sets() {
    let Some(data) = common::shared_data("pokemontcg set ids") else {
        return;
    };
    let text = std::fs::read_to_string(data.join("derived/set-codes.json")).unwrap();
    let crosswalk: serde_json::Value = serde_json::from_str(&text).unwrap();
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let mut checked = 0;
    for set in crosswalk["sets"].as_array().unwrap() {
        let (Some(pokemontcg), Some(tcgdex)) =
            (set["pokemontcgId"].as_str(), set["tcgdexId"].as_str())
        else {
            continue;
        };
        assert_eq!(
            deckbox::cards::model::set_id::tcgdex_id(pokemontcg),
            tcgdex,
            "{pokemontcg}"
        );
        // Sets the index prints no code for (Best of Game) cannot be named by id either.
        if let (Some(code), Some(found)) = (set["code"].as_str(), db.set_code_of_id(pokemontcg)) {
            assert_eq!(
                deckbox::cards::set_key(found),
                deckbox::cards::set_key(code),
                "{pokemontcg}"
            );
        }
        checked += 1;
    }
    assert!(checked > 160, "{checked}");
}
