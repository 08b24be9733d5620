//! Reading each row of a CSV export as one printing, or saying why it cannot be.
//!
//! A row's name (any of the six languages), number (`071/131` is `71`, `TG05/TG30` is
//! `TG5`) and set ([`super::sets`]) each narrow the printings it can be; nothing is guessed:
//! - one printing left: the row is that printing;
//! - several, all one card by the reprint rule
//!   ([`crate::formats::reprint::functionally_identical`], every basic Energy of a type):
//!   the row counts as the newest of them, with a warning naming how many there were
//!   (`--exact-printing` cannot tell which one the row holds);
//! - none in the named set, but the name and number fit printings that are all one card
//!   (TCGplayer files its Scarlet & Violet basic Energy under `SV01`): the same, with a
//!   warning naming the set;
//! - otherwise an error at the row's line, and the row is not counted.
//!
//! The row is then written as the list line `COUNT NAME CODE NUMBER` of the printing read,
//! so `check`'s identifier, the one there is, reads it back.

use serde::Serialize;

use super::csv::Row;
use super::sets::{self, SetReading};
use crate::cards::{CardDb, Printing, PrintingId, number_key};
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::check::rule::Rule;
use crate::formats::reprint;
use crate::names::lang::Language;

/// How many candidate printings an `ambiguous-card` finding names.
const MAX_NAMED: usize = 5;

/// Characters of a refused quantity a message quotes.
const QUOTED: usize = 24;

/// How a row was read, for `need --output json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowReading {
    /// 1-based line of the file.
    pub line: usize,
    /// The quantity as written.
    pub quantity: String,
    pub name: String,
    /// The set cells as written (code, name), joined by ` / ` when both are there.
    pub set: String,
    pub number: String,
    /// `printing` (one printing), `same-card` (several, one card by the reprint rule),
    /// `list` (read by `check`'s identifier: the name alone), `skipped` (quantity 0 or
    /// none), `error` (not counted; the finding says why).
    pub reading: &'static str,
    /// The printing counted, `CODE NUMBER`.
    pub printing: Option<String>,
    /// How many printings fit the row.
    pub candidates: usize,
}

/// One row read: the list line to identify, how it was read, and its finding.
pub struct Read {
    pub list_line: String,
    pub reading: RowReading,
    pub finding: Option<Diagnostic>,
}

fn finding(rule: Rule, severity: Severity, line: usize, message: String) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(rule, message);
    diagnostic.severity = severity;
    diagnostic.line = Some(line);
    diagnostic.column = Some(1);
    diagnostic
}

/// A printing as a list line names it: `TWM 128` (its set id when the set has no code).
fn code_number(printing: &Printing) -> String {
    let code = if printing.set_code.is_empty() {
        &printing.set_id
    } else {
        &printing.set_code
    };
    format!("{code} {}", printing.number)
}

/// The name a row writes, without what apps add to it: TCGplayer's ` - 062/088`.
fn plain_name(name: &str) -> &str {
    match name.rsplit_once(" - ") {
        Some((head, tail))
            if tail.bytes().any(|b| b.is_ascii_digit())
                && !tail.contains(' ')
                && !head.trim().is_empty() =>
        {
            head.trim()
        }
        _ => name,
    }
}

/// A row's number without the set code Collectr writes before a promo's (`SVP 176`): the
/// number, and the code when there is one.
fn split_code(number: &str) -> (&str, &str) {
    match number.trim().split_once(' ') {
        Some((code, rest))
            if !code.is_empty()
                && code.bytes().all(|b| b.is_ascii_alphabetic())
                && rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
                && !rest.contains(' ') =>
        {
            (code, rest)
        }
        _ => ("", number),
    }
}

/// The printings whose name (any language) is the row's, trying the name without the
/// apps' trailing `(...)` marks (`(Full Art)`, `(Secret)`) and without `Basic ` (`Basic
/// Psychic Energy`).
fn by_name(db: &CardDb, name: &str) -> Vec<PrintingId> {
    let mut tries = vec![name.to_string()];
    let mut bare = name.trim();
    while let Some(open) = bare.rfind(" (")
        && bare.ends_with(')')
    {
        bare = bare[..open].trim();
        tries.push(bare.to_string());
    }
    if let Some(rest) = bare.strip_prefix("Basic ") {
        tries.push(rest.to_string());
    }
    for written in tries {
        let mut ids: Vec<PrintingId> = db.name_matches(&written).map(|hit| hit.id).collect();
        ids.sort_unstable();
        ids.dedup();
        if !ids.is_empty() {
            return ids;
        }
    }
    Vec::new()
}

/// Whether every printing of `ids` is one card by the reprint rule.
fn one_card(db: &CardDb, ids: &[PrintingId]) -> bool {
    let mut printings = ids.iter().filter_map(|&id| db.get(id));
    let Some(first) = printings.next() else {
        return false;
    };
    printings.all(|other| reprint::functionally_identical(first, other))
}

/// The newest of `ids` (latest release, then the last id).
fn newest(db: &CardDb, ids: &[PrintingId]) -> Option<PrintingId> {
    ids.iter()
        .copied()
        .max_by_key(|&id| (db.get(id).map(|p| p.release_date.clone()), id))
}

/// Reads one row; see the module's comment.
pub fn read(db: &CardDb, known: &sets::Known, row: &Row) -> Read {
    let set = match (row.set_code.is_empty(), row.set_name.is_empty()) {
        (false, false) => format!("{} / {}", row.set_code, row.set_name),
        (false, true) => row.set_code.clone(),
        _ => row.set_name.clone(),
    };
    let mut reading = RowReading {
        line: row.line,
        quantity: row.quantity.clone(),
        name: row.name.clone(),
        set,
        number: row.number.clone(),
        reading: "error",
        printing: None,
        candidates: 0,
    };
    let quantity = row.quantity.trim();
    if quantity.is_empty() || (quantity.bytes().all(|b| b == b'0')) {
        reading.reading = "skipped";
        return Read {
            list_line: String::new(),
            reading,
            finding: None,
        };
    }
    let count = match quantity.bytes().all(|b| b.is_ascii_digit()) {
        true => quantity.parse::<u32>().ok(),
        false => None,
    };
    let Some(count) = count.filter(|&count| count <= crate::deck::MAX_COUNT) else {
        // Quoted by its first characters: a cell of a megabyte is not repeated.
        let shown = crate::util::escape::excerpt(quantity, QUOTED);
        let shown = crate::util::escape::visible(&shown);
        let message = if quantity.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "the quantity '{shown}' is too large (at most {} copies a row); the row is not counted",
                crate::deck::MAX_COUNT
            )
        } else {
            format!(
                "the quantity '{shown}' is no whole number of cards (digits 0-9); the row is not counted"
            )
        };
        return Read {
            list_line: String::new(),
            reading,
            finding: Some(finding(
                Rule::ParseError,
                Severity::Error,
                row.line,
                message,
            )),
        };
    };
    let name = plain_name(&row.name);
    let named = by_name(db, name);
    if named.is_empty() {
        // A name deckbox does not know: `check`'s identifier reports it (with suggestions).
        reading.reading = "list";
        return Read {
            list_line: format!("{count} {name}"),
            reading,
            finding: None,
        };
    }
    let (number_code, number) = split_code(&row.number);
    let number = number_key(number);
    let with_number: Vec<PrintingId> = named
        .iter()
        .copied()
        .filter(|&id| number.is_empty() || db.get(id).is_some_and(|p| p.number == number))
        .collect();
    let mut set_reading = sets::read_known(known, &row.set_code);
    if set_reading == SetReading::Unknown {
        set_reading = sets::read_known(known, &row.set_name);
    }
    if set_reading == SetReading::Unknown && !number_code.is_empty() {
        set_reading = sets::read_known(known, number_code);
    }
    let in_set: Vec<PrintingId> = match &set_reading {
        SetReading::Ids(ids) => with_number
            .iter()
            .copied()
            .filter(|&id| db.get(id).is_some_and(|p| ids.contains(&p.set_id)))
            .collect(),
        SetReading::Any | SetReading::Unknown => with_number.clone(),
    };
    let written_set = if reading.set.is_empty() {
        "no set".to_string()
    } else {
        format!("set '{}'", crate::util::escape::visible(&reading.set))
    };
    let (candidates, note) = if !in_set.is_empty() {
        let note = (set_reading == SetReading::Unknown && !reading.set.is_empty())
            .then(|| format!("{written_set} is none deckbox knows; read by name and number"));
        (in_set, note)
    } else if !with_number.is_empty() && one_card(db, &with_number) {
        let note = format!(
            "no '{name}' numbered {} in {written_set}; read by name and number",
            row.number
        );
        (with_number, Some(note))
    } else {
        let message = if number.is_empty() {
            format!("no '{name}' in {written_set}")
        } else {
            format!("no '{name}' is numbered {} in {written_set}", row.number)
        };
        return Read {
            list_line: String::new(),
            reading,
            finding: Some(finding(
                Rule::UnknownPrinting,
                Severity::Error,
                row.line,
                format!("{message}; the row is not counted"),
            )),
        };
    };
    reading.candidates = candidates.len();
    let (id, finding_note) = if candidates.len() == 1 {
        reading.reading = "printing";
        (candidates.first().copied(), note)
    } else if one_card(db, &candidates) {
        reading.reading = "same-card";
        let chosen = newest(db, &candidates);
        let what = format!(
            "{} printings fit '{name}' ({written_set}, {}), all one card by the reprint rule; counted as {} by the reprint rule only",
            candidates.len(),
            if row.number.is_empty() {
                "no number".to_string()
            } else {
                format!("number {}", row.number)
            },
            chosen
                .and_then(|id| db.get(id))
                .map(code_number)
                .unwrap_or_default()
        );
        let note = match note {
            Some(note) => format!("{note}; {what}"),
            None => what,
        };
        (chosen, Some(note))
    } else {
        let named: Vec<String> = candidates
            .iter()
            .filter_map(|&id| db.get(id))
            .take(MAX_NAMED)
            .map(code_number)
            .collect();
        let message = format!(
            "'{name}' ({written_set}{}) may be any of {} different cards ({}{}); the row is not counted",
            if row.number.is_empty() {
                ", no number".to_string()
            } else {
                format!(", number {}", row.number)
            },
            candidates.len(),
            named.join(", "),
            if candidates.len() > MAX_NAMED {
                ", ..."
            } else {
                ""
            }
        );
        return Read {
            list_line: String::new(),
            reading,
            finding: Some(finding(
                Rule::AmbiguousCard,
                Severity::Error,
                row.line,
                message,
            )),
        };
    };
    let Some(printing) = id.and_then(|id| db.get(id)) else {
        return Read {
            list_line: String::new(),
            reading,
            finding: None,
        };
    };
    let english = printing
        .names
        .get(Language::En)
        .unwrap_or(printing.names.primary());
    reading.printing = Some(code_number(printing));
    Read {
        list_line: format!("{count} {english} {}", code_number(printing)),
        reading,
        finding: finding_note
            .map(|note| finding(Rule::UnknownPrinting, Severity::Warning, row.line, note)),
    }
}

#[cfg(test)]
mod tests {
    use super::{read, split_code};
    use crate::collection::csv::Row;
    use crate::collection::sets::Known;

    fn row(name: &str, set_name: &str, number: &str) -> Row {
        Row {
            line: 2,
            quantity: "2".to_string(),
            name: name.to_string(),
            set_code: String::new(),
            set_name: set_name.to_string(),
            number: number.to_string(),
            language: String::new(),
            condition: String::new(),
            finish: String::new(),
        }
    }

    #[test]
    fn a_code_before_the_number_is_no_part_of_it() {
        assert_eq!(split_code("SVP 176"), ("SVP", "176"));
        assert_eq!(split_code("176"), ("", "176"));
        assert_eq!(split_code("SWSH123"), ("", "SWSH123"));
        assert_eq!(split_code("TG05/TG30"), ("", "TG05/TG30"));
        assert_eq!(split_code("SVP 1 2"), ("", "SVP 1 2"));
    }

    /// Collectr writes a promo's number after its set code and its name with the number
    /// (`Umbreon ex - 176`, `SVP 176`, set `Scarlet & Violet Promo`), as a public importer
    /// quotes a real Collectr export (`Main,Pokemon,Scarlet & Violet Promo,Umbreon ex -
    /// 176,SVP 176,Promo,Holofoil,...`). TCGdex's SVP 176 is Umbreon ex
    /// (../shared/data/tcgdex-repo/data/Scarlet & Violet/SVP Black Star Promos/176.ts).
    #[test]
    fn collectrs_promo_numbers_read_as_their_printing() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let known = Known::of(&db);
        let umbreon = read(
            &db,
            &known,
            &row("Umbreon ex - 176", "Scarlet & Violet Promo", "SVP 176"),
        );
        assert_eq!(umbreon.reading.reading, "printing");
        assert_eq!(umbreon.reading.printing.as_deref(), Some("SVP 176"));
        assert_eq!(umbreon.list_line, "2 Umbreon ex SVP 176");
        assert!(umbreon.finding.is_none(), "{:?}", umbreon.finding);
        // A code that names no set of that number: never another printing.
        let wrong = read(
            &db,
            &known,
            &row("Umbreon ex", "Scarlet & Violet Promo", "SVP 177"),
        );
        assert_eq!(wrong.reading.reading, "error");
        assert!(wrong.list_line.is_empty());
    }
}
