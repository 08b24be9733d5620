//! Standard's boundaries through time, a printing on each side of every day the pool
//! changed: the day before and the day of each rotation (`formats/standard.toml`) and of
//! each expansion's tournament-legal day (`formats/play-pokemon.toml`: its rule for the
//! release period, or the exact day an announcement gave). Each printing was picked so that
//! no other printing of its name decides the verdict (no reprint legal on the other side).
//! Then a real-shaped list of the 2025–26 season playing Ascended Heroes, judged by
//! `deckbox check` on both sides of that set's legal day and of the 2026 rotation.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use crate::common;

use deckbox::cards::CardDb;
use deckbox::cards::storage::embedded;
use deckbox::formats::Format;
use deckbox::formats::legality::{Verdict, judge};
use jiff::civil::Date;

/// Rotations: a printing legal in Standard the day before `date` and not on it.
const ROTATIONS: &[(&str, &str, &str)] = &[
    ("MD", "15", "2011-07-01"),  // Aerodactyl; Majestic Dawn-on ends (HGSS-on)
    ("HS", "105", "2012-09-01"), // Ampharos; HeartGold & SoulSilver-on ends (BW-on)
    ("EPO", "83", "2013-08-28"), // Audino; Emerging Powers leaves (Next Destinies-on)
    ("DEX", "11", "2014-09-01"), // Accelgor; Dark Explorers leaves (Boundaries Crossed-on)
    ("PLF", "67", "2015-09-01"), // Absol; Plasma Freeze leaves (XY-on)
    ("PHF", "65A", "2016-09-01"), // Aegislash EX; Phantom Forces leaves (Primal Clash-on)
    ("ROS", "40", "2017-09-01"), // Absol; Roaring Skies leaves (BREAKthrough-on)
    ("STS", "90", "2018-09-01"), // Aipom; Steam Siege leaves (Sun & Moon-on)
    ("GRI", "81", "2019-08-15"), // Absol; Guardians Rising leaves (Ultra Prism-on)
    ("LOT", "122", "2020-08-28"), // Alolan Diglett; Lost Thunder leaves (Team Up-on)
    ("CEC", "133", "2021-09-10"), // Absol; Cosmic Eclipse leaves (marks D, E, F)
    ("VIV", "177", "2023-04-14"), // Aegislash V; mark D leaves
    ("EVS", "106", "2024-04-05"), // Altaria; mark E leaves
    ("PGO", "56", "2025-04-11"), // Aipom; mark F leaves
    ("OBF", "214", "2026-04-10"), // Absol ex; mark G leaves
];

/// Expansions: a printing of the set, new in it, legal in Standard from its legal day on.
/// The rules: on release until mid-2014, the third Friday after release from Furious
/// Fists, the third Friday of the release month from Sun & Moon, two weeks after release
/// from Sword & Shield; exact days for Black & White, Roaring Skies, Hidden Fates and Ascended Heroes.
const EXPANSIONS: &[(&str, &str, &str)] = &[
    ("UD", "42", "2010-08-18"),    // Aron; released 2010-08-18, on-release
    ("TM", "91", "2010-11-03"),    // Absol; released 2010-11-03, on-release
    ("CL", "23", "2011-02-09"),    // Ampharos; released 2011-02-09, on-release
    ("BLW", "39", "2011-04-26"),   // Alomomola; released 2011-04-25, exact
    ("EPO", "83", "2011-08-31"),   // Audino; released 2011-08-31, on-release
    ("NVI", "12", "2011-11-16"),   // Accelgor; released 2011-11-16, on-release
    ("NXD", "9", "2012-02-08"),    // Amoonguss; released 2012-02-08, on-release
    ("DEX", "11", "2012-05-09"),   // Accelgor; released 2012-05-09, on-release
    ("DRX", "80", "2012-08-15"),   // Aggron; released 2012-08-15, on-release
    ("DRV", "13", "2012-10-05"),   // Axew; released 2012-10-05, on-release
    ("BCR", "152", "2012-11-07"),  // Altaria; released 2012-11-07, on-release
    ("PLS", "13", "2013-02-06"),   // Amoonguss; released 2013-02-06, on-release
    ("PLF", "67", "2013-05-08"),   // Absol; released 2013-05-08, on-release
    ("PLB", "26", "2013-08-14"),   // Abomasnow; released 2013-08-14, on-release
    ("LTR", "92", "2013-11-06"),   // Altaria; released 2013-11-06, on-release
    ("KSS", "29", "2013-11-08"),   // Bidoof; released 2013-11-08, on-release
    ("XY", "86", "2014-02-05"),    // Aegislash; released 2014-02-05, on-release
    ("FLF", "31", "2014-05-07"),   // Avalugg; released 2014-05-07, on-release
    ("FFI", "9", "2014-08-29"),    // Accelgor; released 2014-08-13, third-friday-after
    ("PHF", "65A", "2014-11-21"),  // Aegislash EX; released 2014-11-05, third-friday-after
    ("PRC", "100", "2015-02-20"),  // Aegislash; released 2015-02-04, third-friday-after
    ("DCR", "20", "2015-04-10"),   // Team Aqua's Carvanha; released 2015-03-25, third-friday-after
    ("ROS", "40", "2015-05-15"),   // Absol; released 2015-05-06, exact (Spring Regionals)
    ("AOR", "87", "2015-08-28"),   // Ampharos EX; released 2015-08-12, third-friday-after
    ("BKT", "40", "2015-11-20"),   // Abomasnow; released 2015-11-04, third-friday-after
    ("BKP", "62", "2016-02-19"),   // Aegislash; released 2016-02-03, third-friday-after
    ("GEN", "RC24", "2016-03-11"), // Altaria; released 2016-02-22, third-friday-after
    ("FCO", "76", "2016-05-20"),   // Aerodactyl; released 2016-05-02, third-friday-after
    ("STS", "90", "2016-08-19"),   // Aipom; released 2016-08-03, third-friday-after
    ("EVO", "18", "2016-11-18"),   // Arcanine; released 2016-11-02, third-friday-after
    ("SUM", "86", "2017-02-17"), // Alolan Diglett; released 2017-02-03, third-friday-of-release-month
    ("GRI", "81", "2017-05-19"), // Absol; released 2017-05-05, third-friday-of-release-month
    ("BUS", "83", "2017-08-18"), // Alolan Grimer; released 2017-08-04, third-friday-of-release-month
    ("SLG", "37", "2017-10-20"), // Arbok; released 2017-10-06, third-friday-of-release-month
    ("CIN", "9", "2017-11-17"),  // Accelgor; released 2017-11-03, third-friday-of-release-month
    ("UPR", "38", "2018-02-16"), // Abomasnow; released 2018-02-02, third-friday-of-release-month
    ("FLI", "4", "2018-05-18"),  // Abomasnow; released 2018-05-04, third-friday-of-release-month
    ("CES", "85", "2018-08-17"), // Alolan Raticate GX; released 2018-08-03, third-friday-of-release-month
    ("DRM", "40", "2018-09-21"), // Altaria; released 2018-09-07, third-friday-of-release-month
    ("LOT", "122", "2018-11-16"), // Alolan Diglett; released 2018-11-02, third-friday-of-release-month
    ("TEU", "88", "2019-02-15"),  // Absol; released 2019-01-31, third-friday-of-release-month
    ("DET", "6", "2019-04-19"),   // Arcanine; released 2019-03-29, third-friday-of-release-month
    ("UNB", "125", "2019-05-17"), // Aggron; released 2019-05-03, third-friday-of-release-month
    ("UNM", "42", "2019-08-16"),  // Abomasnow; released 2019-08-02, third-friday-of-release-month
    ("HIF", "SV53", "2019-09-06"), // Alolan Ninetales-GX; released 2019-08-23, exact
    ("CEC", "133", "2019-11-15"), // Absol; released 2019-11-01, third-friday-of-release-month
    ("SSH", "102", "2020-02-21"), // Baltoy; released 2020-02-07, two-weeks-after
    ("RCL", "13", "2020-05-15"),  // Abomasnow; released 2020-05-01, two-weeks-after
    ("DAA", "10", "2020-08-28"),  // Accelgor; released 2020-08-14, two-weeks-after
    ("CPA", "38", "2020-10-09"),  // Absol; released 2020-09-25, two-weeks-after
    ("VIV", "177", "2020-11-27"), // Aegislash V; released 2020-11-13, two-weeks-after
    ("SHF", "SV58", "2021-03-05"), // Alcremie; released 2021-02-19, two-weeks-after
    ("BST", "108", "2021-04-02"), // Aegislash; released 2021-03-19, two-weeks-after
    ("CRE", "10", "2021-07-02"),  // Abomasnow; released 2021-06-18, two-weeks-after
    ("EVS", "106", "2021-09-10"), // Altaria; released 2021-08-27, two-weeks-after
    ("CEL", "14", "2021-10-22"),  // Cosmoem; released 2021-10-08, two-weeks-after
    ("FST", "164", "2021-11-26"), // Absol; released 2021-11-12, two-weeks-after
    ("BRS", "96", "2022-03-11"),  // Aggron V; released 2022-02-25, two-weeks-after
    ("ASR", "TG1", "2022-06-10"), // Abomasnow; released 2022-05-27, two-weeks-after
    ("PGO", "56", "2022-07-15"),  // Aipom; released 2022-07-01, two-weeks-after
    ("LOR", "43", "2022-09-23"),  // Abomasnow; released 2022-09-09, two-weeks-after
    ("SIT", "173", "2022-11-25"), // Alolan Vulpix V; released 2022-11-11, two-weeks-after
    ("CRZ", "GG16", "2023-02-03"), // Absol; released 2023-01-20, two-weeks-after
    ("SVI", "48", "2023-04-14"),  // Alomomola; released 2023-03-31, two-weeks-after
    ("PAL", "11", "2023-06-23"),  // Abomasnow; released 2023-06-09, two-weeks-after
    ("OBF", "214", "2023-08-25"), // Absol ex; released 2023-08-11, two-weeks-after
    ("MEW", "63", "2023-10-06"),  // Abra; released 2023-09-22, two-weeks-after
    ("PAR", "113", "2023-11-17"), // Absol; released 2023-11-03, two-weeks-after
    ("PAF", "101", "2024-02-09"), // Abomasnow; released 2024-01-26, two-weeks-after
    ("TEF", "176", "2024-04-05"), // Arbok; released 2024-03-22, two-weeks-after
    ("TWM", "80", "2024-06-07"),  // Abra; released 2024-05-24, two-weeks-after
    ("SFA", "30", "2024-08-16"),  // Absol; released 2024-08-02, two-weeks-after
    ("SCR", "65", "2024-09-27"),  // Alcremie; released 2024-09-13, two-weeks-after
    ("SSP", "122", "2024-11-22"), // Alolan Diglett; released 2024-11-08, two-weeks-after
    ("PRE", "9", "2025-01-31"),   // Applin; released 2025-01-17, two-weeks-after
    ("JTG", "13", "2025-04-11"),  // Accelgor; released 2025-03-28, two-weeks-after
    ("DRI", "60", "2025-06-13"),  // Abomasnow; released 2025-05-30, two-weeks-after
    ("BLK", "108", "2025-07-31"), // Alomomola; released 2025-07-17, two-weeks-after
    ("WHT", "94", "2025-07-31"),  // Accelgor; released 2025-07-17, two-weeks-after
    ("MEG", "54", "2025-10-10"),  // Abra; released 2025-09-26, two-weeks-after
    ("PFL", "63", "2025-11-28"),  // Absol; released 2025-11-14, two-weeks-after
    ("ASC", "84", "2026-03-06"),  // Azumarill ex; released 2026-01-30, exact
    ("POR", "58", "2026-04-10"),  // Aegislash; released 2026-03-27, two-weeks-after
    ("CRI", "90", "2026-06-05"),  // Ampharos; released 2026-05-22, two-weeks-after
    ("PBL", "41", "2026-07-31"),  // Annihilape; released 2026-07-17, two-weeks-after
];

fn day(text: &str) -> Date {
    text.parse().unwrap()
}

fn legal_at(db: &CardDb, set: &str, number: &str, date: Date) -> bool {
    let format = Format::load_at("standard", Some(date)).unwrap();
    let ids = db.by_set_number(set, number);
    assert!(!ids.is_empty(), "{set} {number} is not in the index");
    ids.iter()
        .all(|&id| judge(&format, db, db.get(id).unwrap()).allows())
}

#[test]
fn each_rotation_removes_its_sets_on_its_day() {
    let db = embedded::open().unwrap();
    for &(set, number, date) in ROTATIONS {
        let date = day(date);
        let before = date.yesterday().unwrap();
        assert!(
            legal_at(&db, set, number, before),
            "{set} {number} on {before}"
        );
        assert!(
            !legal_at(&db, set, number, date),
            "{set} {number} on {date}"
        );
    }
}

#[test]
fn each_expansion_joins_on_its_legal_day() {
    let db = embedded::open().unwrap();
    for &(set, number, date) in EXPANSIONS {
        let date = day(date);
        let before = date.yesterday().unwrap();
        assert!(
            !legal_at(&db, set, number, before),
            "{set} {number} on {before}"
        );
        assert!(legal_at(&db, set, number, date), "{set} {number} on {date}");
    }
}

/// A Mega Dragonite ex list of the 2025–26 season (the cards of the lists that season's
/// events played, made up here): Ascended Heroes became tournament legal on 2026-03-06, not
/// two weeks after its first product (2026-02-13), and its I and J cards were legal beside
/// G and H until the 2026 rotation took the G cards out.
const DRAGONITE: &str = "Pokémon: 16
3 Dratini ASC 150
2 Dragonair ASC 151
3 Mega Dragonite ex ASC 152
2 Tynamo ASC 59
2 Eelektrik ASC 60
1 Mega Eelektross ex ASC 61
1 Fezandipiti ex SFA 38
1 Mew ex MEW 151
1 Zeraora DRI 78

Trainer: 34
4 Lillie's Determination MEG 119
3 Professor's Research SVI 189
2 Boss's Orders PAL 172
2 Iono PAL 185
4 Buddy-Buddy Poffin TEF 144
4 Earthen Vessel PAR 163
4 Ultra Ball MEG 131
2 Night Stretcher SFA 61
2 Nest Ball SVI 181
3 Rare Candy MEG 125
2 Air Balloon BLK 79
1 Maximum Belt TEF 154
1 Battle Cage PFL 85

Energy: 10
6 Basic Lightning Energy SVE 4
4 Basic Water Energy SVE 3
";

fn check_dragonite(date: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let args = ["check", "-", "--as-of", date, "--output", "short"];
    common::run_deckbox(dir.path(), &args, DRAGONITE.as_bytes())
}

#[test]
fn an_ascended_heroes_list_is_legal_from_the_sets_legal_day_to_the_rotation() {
    let (code, out) = check_dragonite("2026-03-05");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("Mega Dragonite ex (ASC 152) is not legal in Standard: it became tournament legal on 2026-03-06, after 2026-03-05"),
        "{out}"
    );
    for date in ["2026-03-06", "2026-04-09"] {
        let (code, out) = check_dragonite(date);
        assert_eq!(code, 0, "{date}: {out}");
    }
    let (code, out) = check_dragonite("2026-04-10");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "Iono (PAL 185) is not legal in Standard: its regulation mark G is not one of H, I, J"
        ),
        "{out}"
    );
    assert!(
        !out.contains("error not-legal: Mega Dragonite"),
        "the Ascended Heroes cards stay legal: {out}"
    );
}

/// A printing released after the date judged, or before its set became tournament legal,
/// is never legal, not even as a reprint of a printing legal then (docs/formats.md: "A
/// printing released after the date judged is never legal, in any format"); `check`,
/// `search` and `card` say the same.
#[test]
fn a_reprint_counts_from_its_own_sets_legal_day() {
    let db = embedded::open().unwrap();
    // Lillie's Clefairy ex: Journey Together (legal 2025-04-11) and its Ascended Heroes
    // reprint (legal 2026-03-06), the same card.
    assert!(legal_at(&db, "JTG", "56", day("2026-03-05")));
    assert!(!legal_at(&db, "ASC", "76", day("2026-03-05")));
    assert!(legal_at(&db, "ASC", "76", day("2026-03-06")));
    // Scoop Up Cyclone: Plasma Blast (2013) and Prismatic Evolutions (released 2025-01-17,
    // legal 2025-01-31) in Expanded.
    let expanded = |date: &str| Format::load_at("expanded", Some(day(date))).unwrap();
    let pre = db.get(db.by_set_number("PRE", "128")[0]).unwrap();
    let plb = db.get(db.by_set_number("PLB", "95")[0]).unwrap();
    assert_eq!(judge(&expanded("2015-06-01"), &db, plb), Verdict::Legal);
    for date in ["2015-06-01", "2025-01-20", "2025-01-30"] {
        let format = expanded(date);
        let verdict = judge(&format, &db, pre);
        assert!(
            matches!(verdict, Verdict::NotLegal { .. }),
            "{date}: {verdict:?}"
        );
    }
    assert_eq!(judge(&expanded("2025-01-31"), &db, pre), Verdict::Legal);

    let dir = tempfile::tempdir().unwrap();
    let search = |query: &str| {
        let args = ["search", query, "--unique", "printings", "--output", "list"];
        common::stdout_of(&common::run_deckbox(dir.path(), &args, b"").1).to_string()
    };
    let then = search("name:\"Scoop Up Cyclone\" legal:expanded@2015-06-01");
    assert_eq!(then, "1 Scoop Up Cyclone PLB 95\n");
    let now = search("name:\"Scoop Up Cyclone\" legal:expanded@2025-01-31");
    assert!(now.contains("PRE 128"), "{now}");

    let args = ["card", "PRE", "128", "--as-of", "2025-06-01"];
    let card = common::run_deckbox(dir.path(), &args, b"").1;
    let expanded_history = card.split("  expanded   PLB 95").nth(1).unwrap_or_default();
    assert!(
        expanded_history.contains("PRE 128: 2025-01-31 – today"),
        "{card}"
    );
}

/// Black Star promos are dated by their series (the card data has no day per promo): a
/// promo is not legal before its series began, and where the verdict rests on the series'
/// first day `check` says so instead of guessing silently.
#[test]
fn a_promo_counts_from_its_series_and_check_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let check = |line: &str, format: &str, date: &str| {
        let args = [
            "check", "-", "--format", format, "--as-of", date, "--output", "short",
        ];
        let (_, out) = common::run_deckbox(dir.path(), &args, line.as_bytes());
        common::stdout_of(&out).to_string()
    };
    // Lumineon V SWSH250, a Sword & Shield promo printed with regulation mark F (the F
    // cards came in 2022): never legal before the SWSH promos began (2019-11-15).
    let before = check("1 Lumineon V SWSHP SWSH250\n", "standard", "2019-11-14");
    assert!(
        before.contains("not-legal: Lumineon V (SWSHP SWSH250) is not legal in Standard: its promo series began 2019-11-15, after 2019-11-14"),
        "{before}"
    );
    let unknown = "release date of this promo unknown: judged from its series";
    let early = check("1 Lumineon V SWSHP SWSH250\n", "standard", "2019-12-01");
    assert!(!early.contains("not-legal"), "{early}");
    assert!(
        early.contains(&format!(
            "info promo-date-unknown: Lumineon V (SWSHP SWSH250): {unknown}, whose promos began on 2019-11-15"
        )),
        "{early}"
    );
    // Once the next promo series (SVP, 2023-03-31) began, the remark is not made.
    let later = check("1 Lumineon V SWSHP SWSH250\n", "standard", "2023-06-01");
    assert!(
        !later.contains("promo-date-unknown") && !later.contains("not-legal"),
        "{later}"
    );
    // Lillie's Clefairy ex SVP 195 (regulation mark I, of 2025): in Expanded of 2024 it is
    // judged from the SVP promos' first day, and said so.
    let clefairy = check("1 Lillie's Clefairy ex SVP 195\n", "expanded", "2024-06-01");
    assert!(clefairy.contains(unknown), "{clefairy}");
    let before = check("1 Lillie's Clefairy ex SVP 195\n", "expanded", "2023-03-30");
    assert!(before.contains("not-legal"), "{before}");
    // `card` counts the promo from the same day and says so under its periods.
    let args = ["card", "SWSHP", "SWSH250"];
    let card = common::stdout_of(&common::run_deckbox(dir.path(), &args, b"").1).to_string();
    assert!(card.contains("SWSH250: 2019-11-15 – "), "{card}");
    assert!(
        card.contains("release date of these promos unknown"),
        "{card}"
    );
}
