#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! `deckbox sheet`: registration sheets from lists as players have them (a PTCG Live export
//! with its own codes, a hand-typed French list, a Limitless JSON deck, a list too long for
//! one page), read back from the PDF with poppler's `pdftotext`, `pdfinfo` and `pdftoppm`.
//! Those tools are skipped with a note when missing, unless `DECKBOX_REQUIRE_POPPLER=1`
//! (`.ci/run` installs poppler-utils and sets it).

use std::path::Path;
use std::process::Command;

use crate::common;

/// Whether poppler's tools are on the machine; panics when they are required.
fn poppler() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var("DECKBOX_REQUIRE_POPPLER").as_deref() != Ok("1"),
            "DECKBOX_REQUIRE_POPPLER=1 but pdftotext is not on PATH"
        );
        common::skipped("sheet test skipped: poppler-utils (pdftotext) is not installed");
    }
    found
}

/// The PDF's text, laid out as on the page.
fn pdf_text(pdf: &Path) -> String {
    let output = Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(output.status.success(), "pdftotext failed on {pdf:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// `pdfinfo`'s value for `key` (`Pages`, `Page size`).
fn pdf_info(pdf: &Path, key: &str) -> String {
    let output = Command::new("pdfinfo").arg(pdf).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{key}:")))
        .map(|value| value.trim().to_string())
        .unwrap_or_else(|| panic!("pdfinfo has no {key}: {text}"))
}

/// Squeezes runs of spaces, so that a table row reads as one spaced line.
fn squeezed(text: &str) -> String {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn sheet(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut all = vec!["sheet"];
    all.extend_from_slice(args);
    common::run_deckbox(dir, &all, b"")
}

/// A PTCG Live export (header numbers counting lines, `SWSHALT`, `PH`, `Basic {P} Energy`
/// with `SVE` and the `Energy` pseudo-code) becomes one Letter page in one command: the
/// player's fields, the Senior Division of a player born in 2011 in the 2027 season (an
/// event in November belongs to the next year's season), every card with its set,
/// number and regulation mark, totals, and "Valid deck".
#[test]
fn a_ptcg_live_export_becomes_a_one_page_sheet() {
    let dir = common::workspace(&["examples/ptcg-live.txt"]);
    let (code, out) = sheet(
        dir.path(),
        &[
            "ptcg-live.txt",
            "-o",
            "sheet.pdf",
            "--player",
            "Ash Ketchum",
            "--player-id",
            "1234567",
            "--birth-date",
            "2011-03-14",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        common::stdout_of(&out),
        "wrote sheet.pdf: Ash Ketchum, Senior Division, Standard, 60 cards, valid\n"
    );
    if !poppler() {
        return;
    }
    let pdf = dir.path().join("sheet.pdf");
    assert_eq!(pdf_info(&pdf, "Pages"), "1");
    assert!(pdf_info(&pdf, "Page size").starts_with("612 x 792"));
    let text = squeezed(&pdf_text(&pdf));
    for expected in [
        "Pokémon TCG Deck Registration Sheet",
        "2027 Play! Pokémon season · Event date: 2026-11-25",
        "Player Name: Ash Ketchum Player ID: 1234567 Date of Birth (MM/DD/YYYY): 03/14/2011",
        "Senior Division (born in 2011, 2012, 2013, or 2014)",
        "Pokémon Total: 19",
        "QTY: NAME: SET: COLL. #: REG:",
        "3 Dragapult ex TWM 130 H",
        "1 Lillie's Clefairy ex JTG 56 I",
        "1 Meowth ex POR 62 J",
        "Trainer Total: 34",
        "4 Ultra Ball MEG 131 I",
        "Energy Total: 7",
        "2 Psychic Energy SVE 13",
        "3 Fire Energy SVE 2",
        "Total Cards 60",
        "✓ Valid deck",
        "ADMINISTRATIVE USE ONLY",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // PTCG Live's SWSHALT code names no printed set: the row leaves set, number and mark
    // blank rather than invent a printing.
    let boss = text
        .lines()
        .find(|line| line.contains("Boss's Orders"))
        .unwrap();
    assert!(format!(" {boss}").ends_with(" 2 Boss's Orders"), "{text}");
}

/// The same sheet, drawn twice, is the same bytes (no creation date), and its page renders:
/// pdftoppm at 72 dpi gives a Letter page, 612 × 792 pixels, with ink on it.
#[test]
fn a_sheet_is_reproducible_and_renders() {
    let dir = common::workspace(&["examples/ptcg-live.txt"]);
    for output in ["a.pdf", "b.pdf"] {
        let (code, out) = sheet(dir.path(), &["ptcg-live.txt", "-o", output]);
        assert_eq!(code, 0, "{out}");
    }
    let a = std::fs::read(dir.path().join("a.pdf")).unwrap();
    assert!(a.starts_with(b"%PDF-"));
    assert_eq!(a, std::fs::read(dir.path().join("b.pdf")).unwrap());
    if !poppler() {
        return;
    }
    let status = Command::new("pdftoppm")
        .args(["-r", "72", "-png", "-singlefile"])
        .arg(dir.path().join("a.pdf"))
        .arg(dir.path().join("page"))
        .status()
        .unwrap();
    assert!(status.success());
    let file = std::fs::File::open(dir.path().join("page.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), (612, 792));
    let dark = pixels[..frame.buffer_size()]
        .iter()
        .filter(|&&value| value < 64)
        .count();
    // Black header bars and text: a blank page would have none.
    assert!(dark > 10_000, "{dark} dark samples");
}

/// A hand-typed French list (CRLF, `4x`, a `// Joueur :` line, Trainers without set codes,
/// a curly apostrophe) prints English names with the list's own names beside them, on A4;
/// the Masters Division of a player born in 2009 in the 2027 season.
#[test]
fn a_french_list_prints_english_names_with_its_own() {
    let dir = common::workspace(&["tests/fixtures/sheet/francais.txt"]);
    let (code, out) = sheet(
        dir.path(),
        &[
            "francais.txt",
            "-o",
            "feuille.pdf",
            "--paper",
            "a4",
            "--birth-date",
            "2009-09-30",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        common::stdout_of(&out).starts_with("wrote feuille.pdf: Pierre Dupré, Masters Division"),
        "{out}"
    );
    if !poppler() {
        return;
    }
    let pdf = dir.path().join("feuille.pdf");
    assert!(pdf_info(&pdf, "Page size").starts_with("595.28 x 841.89"));
    let text = squeezed(&pdf_text(&pdf));
    for expected in [
        "Player Name: Pierre Dupré",
        "09/30/2009",
        "4 Dreepy Fantyrm TWM 128 H",
        "1 Lillie's Clefairy ex Mélofée-ex de Lilie JTG 56 I",
        "1 Energy Switch Échange d’Énergie",
        "4 Psychic Energy Énergie Psy",
        "Card names in English; the list's own names",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

/// An invalid deck gets no sheet (exit 1, the findings and how to go on); with `--force` it
/// gets one that says so, and the exit code still says the deck breaks a rule.
#[test]
fn an_invalid_deck_needs_force() {
    let dir = common::workspace(&["tests/fixtures/event/misty.txt"]);
    let (code, out) = sheet(dir.path(), &["misty.txt", "-o", "misty.pdf"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error copy-limit: 5 cards named 'Dreepy'"),
        "{out}"
    );
    assert!(
        out.contains("help: fix the deck, or pass `--force`"),
        "{out}"
    );
    assert!(!dir.path().join("misty.pdf").exists());

    let (code, out) = sheet(dir.path(), &["misty.txt", "-o", "misty.pdf", "--force"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("warning: the sheet says the deck is invalid (--force)"));
    if !poppler() {
        return;
    }
    let text = squeezed(&pdf_text(&dir.path().join("misty.pdf")));
    assert!(text.contains("NOT A VALID DECK: 2 errors"), "{text}");
    assert!(text.contains("line 3: 5 cards named 'Dreepy'"), "{text}");
    // The player line of the list fills the name.
    assert!(text.contains("Player Name: Misty"), "{text}");
}

/// `-o` naming an existing file (the deck itself, say) is refused, and the file is
/// unchanged; a date of birth after the event is a usage error.
#[test]
fn a_sheet_never_replaces_a_deck() {
    let dir = common::workspace(&["examples/ptcg-live.txt"]);
    let before = std::fs::read(dir.path().join("ptcg-live.txt")).unwrap();
    let (code, out) = sheet(dir.path(), &["ptcg-live.txt", "-o", "ptcg-live.txt"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("cannot write ptcg-live.txt: it already exists"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("ptcg-live.txt")).unwrap(),
        before
    );

    let (code, out) = sheet(
        dir.path(),
        &["ptcg-live.txt", "-o", "s.pdf", "--birth-date", "2030-01-01"],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("the date of birth 2030-01-01 is after the event date 2026-11-25"),
        "{out}"
    );
}

/// PTCG Live's hyphenated codes print as the paper form's: `PR-SV 27` as `SVP 27`,
/// `CRZ-GG 25` as `CRZ GG25`; a Pokémon named without set and number is left blank and
/// called out, on the sheet and on standard error. A Limitless JSON deck reads too.
#[test]
fn codes_print_as_the_paper_form_wants() {
    let dir = common::workspace(&["tests/fixtures/event/gary.json"]);
    let list = "Pokémon: 3\n1 Pikachu PR-SV 27\n2 Bibarel CRZ-GG 25\n4 Bidoof\n\nTrainer: 1\n4 Iono PAL 185 PH\n\nEnergy: 1\n49 Basic {L} Energy SVE 4\n\nTotal Cards: 60\n";
    std::fs::write(dir.path().join("live.txt"), list).unwrap();
    let (code, out) = sheet(
        dir.path(),
        &["live.txt", "-o", "live.pdf", "--format", "unlimited"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning: line 4: Bidoof has no set code and collector number"),
        "{out}"
    );
    let (code, out) = sheet(dir.path(), &["gary.json", "-o", "gary.pdf", "--force"]);
    assert!(code == 0 || code == 1, "{out}");
    assert!(dir.path().join("gary.pdf").is_file(), "{out}");
    if !poppler() {
        return;
    }
    let text = squeezed(&pdf_text(&dir.path().join("live.pdf")));
    for expected in [
        "Format: Unlimited",
        "1 Pikachu SVP 27",
        "2 Bibarel CRZ GG25",
        "4 Iono PAL 185 G",
        "49 Lightning Energy SVE 4",
        "Write in the set and collector number of 1 Pokémon",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // The left column shares the line; nothing follows the name.
    let bidoof = text.lines().find(|line| line.contains("Bidoof")).unwrap();
    assert!(format!(" {bidoof}").ends_with(" 4 Bidoof"), "{text}");
}

/// A list with more lines than the form has rows flows onto a second page, each table
/// continued under its own bar; no card is dropped.
#[test]
fn a_long_list_flows_onto_a_second_page() {
    let dir = tempfile::tempdir().unwrap();
    let pokemon = [
        "Combusken CES 27",
        "Fletchling POR 66",
        "Gliscor PFL 50",
        "Golisopod UNM 51",
        "Lapras OBF 45",
        "Lotad TK8A 11",
        "Magikarp SF 65",
        "Malamar XY 76",
        "Mantine SK 77",
        "Misdreavus PR 39",
        "Orbeetle SHF SV9",
        "Pidgey TEU 122",
        "Pidove TK5Z 14",
        "Quagsire DRM 26",
        "Sableye XYP XY92",
        "Tirtouga NVI 25",
        "Torracat TEU 21",
        "Zacian PFL 100",
        "Dreepy TWM 128",
        "Drakloak TWM 129",
        "Dragapult ex TWM 130",
        "Duskull PRE 35",
    ];
    let trainers = [
        "Black Belt's Training ASC 255",
        "Blaine's Last Stand HIF 52",
        "Brock's Grit TEU 172",
        "Candice SIT 152",
        "Colress's Experiment LOR 155",
        "Fisherman CES 130",
        "Green's Exploration UNB 209",
        "Hau CES 132",
        "Iono PAF 80",
        "Jacinthe POR 110",
        "Janine's Secret Art SFA 59",
        "Judge DRI 167",
        "Norman PAR 168",
        "Pokémon Center Lady CPA 60",
        "Professor Juniper PLB 84",
        "Zinnia's Resolve EVS 164",
        "Enhanced Hammer TWM 148",
        "Poké Ball RCL 164",
        "Potion UF 95",
        "Sweet Honey ASR 153",
        "Switch MEG 130",
        "Tag Call CEC 270",
        "Time-Space Distortion MT 124",
        "Poison Barb SUM 124",
        "Wishful Baton CIN 121",
        "Ancient Ruins SK 119",
        "Scorched Earth FCO 110",
        "Charity G1 99",
        "Double Gust N1 100",
        "Tropical Wind PR-NP 26",
    ];
    let mut list = String::from("Pokémon: 22\n");
    for card in pokemon {
        list.push_str(&format!("1 {card}\n"));
    }
    list.push_str("\nTrainer: 30\n");
    for card in trainers {
        list.push_str(&format!("1 {card}\n"));
    }
    list.push_str("\nEnergy: 8\n8 Psychic Energy SVE 5\n\nTotal Cards: 60\n");
    std::fs::write(dir.path().join("long.txt"), &list).unwrap();
    let (code, out) = sheet(
        dir.path(),
        &["long.txt", "-o", "long.pdf", "--format", "unlimited"],
    );
    assert_eq!(code, 0, "{out}");
    if !poppler() {
        return;
    }
    let pdf = dir.path().join("long.pdf");
    assert_eq!(pdf_info(&pdf, "Pages"), "2");
    // The card data writes some English names with a curly apostrophe.
    let text = squeezed(&pdf_text(&pdf)).replace('’', "'");
    assert!(text.contains("Pokémon TCG Deck Registration Sheet (continued)"));
    assert!(text.contains("Trainer (continued) Total: 30"), "{text}");
    for card in pokemon.iter().chain(trainers.iter()) {
        let name = card.rsplitn(3, ' ').last().unwrap();
        assert!(
            text.contains(&format!("1 {name} ")),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("Page 2 of 2"), "{text}");
}

/// The embedded font draws every character of every English card name in the card index
/// (é, δ, ◇, ★, ♀, ♂, ...) but one, which the data writes in Japanese: no name prints as
/// empty boxes.
#[test]
fn the_font_covers_every_card_name() {
    use deckbox::render::sheet::pdf::uncovered;
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let mut names: Vec<&str> = db
        .iter()
        .filter_map(|(_, printing)| printing.names.get(deckbox::names::lang::Language::En))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.len() > 4_000, "{} names", names.len());
    // The one English name the data writes in Japanese prints as `[Exeggutor]`; any other
    // name would print with empty boxes, so a new one must be seen here.
    assert_eq!(uncovered(names.iter().copied()), ["ナッシー[Exeggutor]"]);
    assert_eq!(
        uncovered([
            "Pokémon Center",
            "Gardevoir δ",
            "Lugia ◇",
            "Pikachu ★",
            "Nidoran♀",
            "ザ"
        ]),
        ["ザ"],
        "a character outside the font is found"
    );
}

/// The README's sheet command, run as written (in a copy of the repository's examples), says
/// what it wrote: a player's PTCG Live export to a sheet in one command.
#[test]
fn the_readme_sheet_command_works() {
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    let command = readme
        .lines()
        .find(|line| line.starts_with("deckbox sheet "))
        .expect("the README shows a sheet command");
    let args = shell_words(command);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("examples")).unwrap();
    std::fs::copy(
        common::repo().join("examples/ptcg-live.txt"),
        dir.path().join("examples/ptcg-live.txt"),
    )
    .unwrap();
    let refs: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let (code, out) = common::run_deckbox(dir.path(), &refs, b"");
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        common::stdout_of(&out),
        "wrote sheet.pdf: Ash Ketchum, Senior Division, Standard, 60 cards, valid\n"
    );
    assert!(dir.path().join("sheet.pdf").is_file());
}

/// Words of a shell command line, double quotes grouping (all the README uses).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Every layout and language deckbox reads gets a sheet (PTCG Live in six languages, the
/// legacy PTCGO layout, Limitless text and JSON, plain lists, UTF-16, Windows-1252): the
/// sheet's total is the deck's card count. A list with a line deckbox cannot read gets none
/// (exit 2, the line named): that card would be missing from the sheet.
#[test]
fn every_layout_gets_a_sheet() {
    let from = common::repo().join("tests/fixtures/layouts");
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&from)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 12);
    let require_text = poppler();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        std::fs::copy(&file, dir.path().join(&name)).unwrap();
        let pdf = format!("{name}.pdf");
        let (code, out) = sheet(dir.path(), &[&name, "-o", &pdf, "--force"]);
        if name == "messy_issues.txt" {
            assert_eq!(code, 2, "{out}");
            assert!(
                out.contains("no sheet: the sheet would drop or misfile lines 4, 5"),
                "{out}"
            );
            continue;
        }
        assert!(code == 0 || code == 1, "{name}: {out}");
        let cards = common::stdout_of(&out)
            .split(", ")
            .find_map(|part| part.strip_suffix(" cards"))
            .unwrap_or_else(|| panic!("{name}: {out}"))
            .to_string();
        if require_text {
            let text = squeezed(&pdf_text(&dir.path().join(&pdf)));
            assert!(
                text.contains(&format!("Total Cards {cards}")),
                "{name}: {cards} cards\n{text}"
            );
        }
    }
}

/// Hostile field values (a name of 5,000 letters with a newline and a terminal escape, an
/// empty ID) make a sheet, not a panic; the name is cut to its field.
#[test]
fn hostile_fields_make_a_sheet() {
    let dir = common::workspace(&["examples/ptcg-live.txt"]);
    let name = format!("{}\n\u{1b}[31mred", "A".repeat(5000));
    let (code, out) = sheet(
        dir.path(),
        &[
            "ptcg-live.txt",
            "-o",
            "s.pdf",
            "--player",
            &name,
            "--player-id",
            "",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.contains('\u{1b}'),
        "the escape reached the terminal: {out}"
    );
    if !poppler() {
        return;
    }
    let text = pdf_text(&dir.path().join("s.pdf"));
    let line = text
        .lines()
        .find(|line| line.contains("Player Name:"))
        .unwrap();
    assert!(line.contains("…") && line.contains("Player ID:"), "{line}");
    assert!(!text.contains('\u{1b}'));
}

/// A name alone is a printing that existed at the date judged (issue 27, item 5): Igor
/// Costa's 2012 Worlds list typed without codes, judged on 2012-06-30 in that season's
/// Standard, shows 2012 printings in `check --output-format json`, `convert` and the sheet, never a later
/// reprint (`PLB 84` Professor Juniper, 2013) or a 2025 basic Energy (`MEE 7`).
#[test]
fn names_alone_are_printings_of_the_date_judged() {
    let dir = common::workspace(&["tests/fixtures/names-only/2012-darkrai-terrakion.txt"]);
    let deck = "2012-darkrai-terrakion.txt";
    let at = ["--format", "standard", "--as-of", "2012-06-30"];
    let (code, out) = common::run_deckbox(
        dir.path(),
        &[&["check", deck, "--output", "json"][..], &at].concat(),
        b"",
    );
    assert!(code == 0 || code == 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(common::stdout_of(&out)).unwrap();
    let db = deckbox::cards::storage::embedded::open().unwrap();
    let cards = json["decks"][0]["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 22);
    for card in cards {
        let (set, number) = (
            card["set"].as_str().unwrap(),
            card["number"].as_str().unwrap(),
        );
        let printing = db.get(db.by_set_number(set, number)[0]).unwrap();
        assert!(
            printing.release_date.as_str() <= "2012-06-30",
            "{} read as {set} {number}, released {}",
            card["written"],
            printing.release_date
        );
    }
    let labels: Vec<String> = cards
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["set"].as_str().unwrap(),
                c["number"].as_str().unwrap()
            )
        })
        .collect();
    for expected in ["DEX 63", "NXD 54", "DEX 98", "DEX 102", "NXD 92"] {
        assert!(
            labels.iter().any(|l| l == expected),
            "{expected} missing: {labels:?}"
        );
    }
    let (code, out) = common::run_deckbox(dir.path(), &[&["convert", deck][..], &at].concat(), b"");
    assert_eq!(code, 0, "{out}");
    for later in ["PLB", "MEE", "LTR", "ASC", "SLG"] {
        assert!(
            !common::stdout_of(&out).contains(later),
            "{later} in\n{out}"
        );
    }
    let (code, out) = sheet(dir.path(), &[&[deck, "-o", "s.pdf"][..], &at].concat());
    assert!(code == 0 || code == 1, "{out}");
    if !poppler() {
        return;
    }
    let text = squeezed(&pdf_text(&dir.path().join("s.pdf")));
    assert!(text.contains("3 Professor Juniper"), "{text}");
    for later in ["PLB 84", "MEE 7", "MEE 6"] {
        assert!(!text.contains(later), "{later} in\n{text}");
    }
}

/// A card legal only by the reprint rule keeps its own set, number and rotated mark on the
/// sheet, with a remark naming the legal printing it reprints, and a note says what the
/// remark means: no rotated mark stands unexplained.
#[test]
fn a_reprint_carries_its_remark() {
    let dir = tempfile::tempdir().unwrap();
    let deck = "\
Pokémon: 11
4 Dreepy TWM 128
4 Drakloak TWM 129
3 Dragapult ex TWM 130

Trainer: 12
4 Switch SLG 67
4 Ultra Ball SVI 196
4 Rare Candy MEG 125

Energy: 37
37 Psychic Energy SVE 5
";
    std::fs::write(dir.path().join("deck.txt"), deck).unwrap();
    let (code, out) = sheet(
        dir.path(),
        &["deck.txt", "-o", "sheet.pdf", "--as-of", "2026-06-01"],
    );
    assert_eq!(code, 0, "{out}");
    if !poppler() {
        return;
    }
    let text = squeezed(&pdf_text(&dir.path().join("sheet.pdf")));
    for expected in [
        "4 Switch reprint of PFL 123 SLG 67",
        "4 Ultra Ball reprint of ASC 213 SVI 196 G",
        "is legal as a reprint of the printing named in",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // A printing in the pool has no remark (the note may share its text line).
    let candy = text
        .lines()
        .find_map(|l| l.split_once("Rare Candy"))
        .unwrap()
        .1;
    assert_eq!(candy.trim(), "MEG 125 I", "{text}");
}
