//! `deckbox search`'s answer: a table of cards (or of printings), one JSON document, or deck
//! list lines (`1 Dreepy TWM 128`); and a query's mistake with a caret under it.

#[cfg(doc)]
use super::card::PrintingEntry;
use std::fmt::Write as _;

use super::card::label_of;
use crate::cards::{CardDb, PrintingView};
use crate::names::lang::Language;
use crate::search::{Found, SearchError};

/// Printings listed on one card's line before `+N more`.
const SHOWN_PRINTINGS: usize = 6;

/// The table: each card (or printing) on one line, its name then its printings, and a
/// closing count.
pub fn text(db: &CardDb, found: &[Found], each_printing: bool) -> String {
    let width = found
        .iter()
        .map(|card| card.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    let mut out = String::new();
    for card in found {
        // Each printing read in place ([`CardDb::view`]), once; the labels past the first
        // few are only counted.
        let mut listed = 0;
        let mut shown = String::new();
        for printing in card.printings.iter().filter_map(|&id| db.view(id)) {
            if listed < SHOWN_PRINTINGS {
                if listed > 0 {
                    shown.push_str(", ");
                }
                let label = label_of(printing.set_code, printing.set_id, printing.number);
                if each_printing {
                    let _ = write!(shown, "{label:<12} {}", printing.release_date);
                } else {
                    shown.push_str(&label);
                }
            }
            listed += 1;
        }
        if listed > SHOWN_PRINTINGS {
            let _ = write!(shown, " +{} more", listed - SHOWN_PRINTINGS);
        }
        let name = crate::util::escape::visible(&card.name);
        let _ = writeln!(out, "{name:<width$}  {shown}");
    }
    let printings: usize = found.iter().map(|card| card.printings.len()).sum();
    let count = if each_printing {
        plural(printings, "printing")
    } else {
        format!(
            "{} ({})",
            plural(found.len(), "card"),
            plural(printings, "printing")
        )
    };
    out.push_str(&format!("{count}\n"));
    out
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// One JSON document: the query and each card with its printings (docs/user-guide.md), as
/// [`write_json`] writes it.
pub fn json(db: &CardDb, query: &str, found: &[Found], lang: Language) -> String {
    let mut out = Vec::with_capacity(256 + found.len() * 64);
    // Writing into a `Vec` cannot fail.
    let _ = write_json(&mut out, db, query, found, lang);
    String::from_utf8(out).unwrap_or_default()
}

/// Bytes of JSON gathered before they are handed to the writer: a card's entry at a time is
/// written into one buffer, which goes out past this size, so memory stays flat in the
/// number of printings found.
const CHUNK: usize = 32 * 1024;

/// One JSON document: the query and each card with its printings (docs/user-guide.md),
/// written to `out` as it is made; the first write error stops it.
///
/// Written by hand, byte for byte what `serde_json::to_string_pretty` writes of the card
/// entries ([`PrintingEntry`] with the name shown first, `details` null), each printing read
/// in place ([`CardDb::view`]): a search that finds thousands of printings spent most of its
/// time building printings and entries. The test `the_json_is_what_serde_writes` compares
/// the two over every printing.
pub fn write_json(
    out: &mut dyn std::io::Write,
    db: &CardDb,
    query: &str,
    found: &[Found],
    lang: Language,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(CHUNK + CHUNK / 4);
    buf.extend_from_slice(b"{\n  \"query\": ");
    string(&mut buf, query);
    buf.extend_from_slice(b",\n  \"cards\": ");
    if found.is_empty() {
        buf.extend_from_slice(b"[]");
    } else {
        buf.push(b'[');
        for (at, card) in found.iter().enumerate() {
            item(&mut buf, at, 4);
            buf.extend_from_slice(b"{\n      \"name\": ");
            string(&mut buf, &card.name);
            buf.extend_from_slice(b",\n      \"printings\": ");
            let printings = (card.printings.iter()).filter_map(|&id| db.view(id));
            array(&mut buf, 6, printings, |out, printing| {
                entry(out, &printing, lang)
            });
            buf.extend_from_slice(b"\n    }");
            if buf.len() >= CHUNK {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
        buf.extend_from_slice(b"\n  ]");
    }
    buf.extend_from_slice(b"\n}\n");
    out.write_all(&buf)
}

/// One printing of the JSON answer, at the indent of a card's `printings` (8 spaces).
fn entry(out: &mut Vec<u8>, printing: &PrintingView<'_>, lang: Language) {
    let field = |out: &mut Vec<u8>, key: &str| {
        out.extend_from_slice(b",\n          \"");
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\": ");
    };
    out.extend_from_slice(b"{\n          \"name\": ");
    string(out, printing.name(lang).unwrap_or(printing.primary()));
    for (key, value) in [
        ("set", printing.set_code),
        ("number", printing.number),
        ("set_id", printing.set_id),
        ("released", printing.release_date),
        ("series", printing.series),
    ] {
        field(out, key);
        string(out, value);
    }
    field(out, "regulation_mark");
    match printing.regulation_mark {
        Some(mark) => string(out, mark.encode_utf8(&mut [0; 4])),
        None => out.extend_from_slice(b"null"),
    }
    field(out, "types");
    array(out, 10, &printing.types, |out, t| string(out, t));
    field(out, "rules");
    array(out, 10, printing.rule_tags(), string);
    field(out, "names");
    let mut names = printing.names().peekable();
    if names.peek().is_none() {
        out.extend_from_slice(b"{}");
    } else {
        out.push(b'{');
        for (at, (lang, name)) in names.enumerate() {
            item(out, at, 12);
            out.push(b'"');
            out.extend_from_slice(lang.code().as_bytes());
            out.extend_from_slice(b"\": ");
            string(out, name);
        }
        out.extend_from_slice(b"\n          }");
    }
    out.extend_from_slice(
        b",\n          \"details\": null,\n          \"matched\": true\n        }",
    );
}

/// `items` as a pretty JSON array whose closing bracket is `indent` spaces in: `[]`, or one
/// item a line, each written by `each` two spaces further in.
fn array<T>(
    out: &mut Vec<u8>,
    indent: usize,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut Vec<u8>, T),
) {
    let mut items = items.into_iter().peekable();
    if items.peek().is_none() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    for (at, value) in items.enumerate() {
        item(out, at, indent + 2);
        each(out, value);
    }
    out.push(b'\n');
    out.resize(out.len() + indent, b' ');
    out.push(b']');
}

/// What goes before item `at` of a pretty JSON array or object: a comma after the first,
/// a line break, and the item's indent.
fn item(out: &mut Vec<u8>, at: usize, indent: usize) {
    out.extend_from_slice(if at == 0 { b"\n" } else { b",\n" });
    out.resize(out.len() + indent, b' ');
}

/// `text` as a JSON string, escaped as serde_json escapes it: a quote, a backslash and the
/// control characters below U+0020, nothing else (so a text without them is copied).
fn string(out: &mut Vec<u8>, text: &str) {
    if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        // Writing a `str` into a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    } else {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    }
}

/// Deck list lines, one a card (its newest printing found) or one a printing:
/// `1 Dreepy TWM 128`. With `released_by` (the date of the query's `legal:F@DATE`), a card's
/// line names its newest printing released by then: a list of that day could not name a
/// printing released later (nor is one legal then, `crate::formats::Format::in_time`).
pub fn list(
    db: &CardDb,
    found: &[Found],
    lang: Language,
    released_by: Option<jiff::civil::Date>,
) -> String {
    let by = released_by.map(|date| date.to_string());
    let in_time = |p: &PrintingView| {
        by.as_deref()
            .is_none_or(|by| !p.release_date.is_empty() && p.release_date <= by)
    };
    let mut out = String::new();
    for card in found {
        let Some(&id) = card.printings.last() else {
            continue;
        };
        let chosen = if card.printings.len() == 1 {
            db.view(id)
        } else {
            // The newest printing with a printed set code, as a deck list writes one; each
            // read in place ([`CardDb::view`]).
            let newest = |keep: &dyn Fn(&PrintingView) -> bool| {
                (card.printings.iter().rev())
                    .filter_map(|&id| db.view(id))
                    .find(|p| !p.set_code.is_empty() && keep(p))
            };
            newest(&in_time)
                .or_else(|| newest(&|_| true))
                .or_else(|| db.view(id))
        };
        let Some(printing) = chosen else { continue };
        let name = printing.name(lang).unwrap_or(printing.primary());
        let name = crate::util::escape::visible(name);
        let label = label_of(printing.set_code, printing.set_id, printing.number);
        let _ = writeln!(out, "1 {name} {label}");
    }
    out
}

/// A query's mistake: the message, the query, a caret under each wrong character, and the
/// nearest key or value ([`super::caret::draw`]).
pub fn error(query: &str, error: &SearchError) -> String {
    super::caret::draw(
        &error.message,
        query,
        error.span.offset,
        error.span.end(),
        error.help.as_deref(),
    )
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;
    use crate::render::card::label;
    use crate::render::card::{PrintingEntry, printing_entry};
    use crate::search::{Sort, shown_name};

    #[derive(Serialize)]
    struct Report<'a> {
        query: &'a str,
        cards: Vec<CardEntry>,
    }

    #[derive(Serialize)]
    struct CardEntry {
        name: String,
        printings: Vec<Entry>,
    }

    #[derive(Serialize)]
    struct Entry {
        name: String,
        #[serde(flatten)]
        printing: PrintingEntry,
    }

    /// A writer that takes 100,000 bytes, then fails.
    struct Short(Vec<u8>);

    impl std::io::Write for Short {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if self.0.len() + bytes.len() > 100_000 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.0.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The answer as serde wrote it before [`json`] was written by hand.
    fn by_serde(db: &CardDb, query: &str, found: &[Found], lang: Language) -> String {
        let cards = (found.iter())
            .map(|card| CardEntry {
                name: card.name.clone(),
                printings: (card.printings.iter())
                    .filter_map(|&id| {
                        Some(Entry {
                            name: shown_name(db, id, lang),
                            printing: printing_entry(db.get(id)?, true),
                        })
                    })
                    .collect(),
            })
            .collect();
        let mut out = serde_json::to_string_pretty(&Report { query, cards }).unwrap();
        out.push('\n');
        out
    }

    /// The table as it was written from built printings, before [`text`] read them in place.
    fn text_built(db: &CardDb, found: &[Found], each_printing: bool) -> String {
        let width = (found.iter().map(|card| card.name.chars().count()))
            .max()
            .unwrap_or(0)
            .min(40);
        let mut out = String::new();
        for card in found {
            let labels: Vec<String> = (card.printings.iter())
                .filter_map(|&id| db.get(id))
                .map(|p| match each_printing {
                    true => format!("{:<12} {}", label(p), p.release_date),
                    false => label(p),
                })
                .collect();
            let mut shown = labels[..labels.len().min(SHOWN_PRINTINGS)].join(", ");
            if labels.len() > SHOWN_PRINTINGS {
                shown.push_str(&format!(" +{} more", labels.len() - SHOWN_PRINTINGS));
            }
            let name = crate::util::escape::visible(&card.name);
            out.push_str(&format!("{name:<width$}  {shown}\n"));
        }
        let printings: usize = found.iter().map(|card| card.printings.len()).sum();
        let count = match each_printing {
            true => plural(printings, "printing"),
            false => format!(
                "{} ({})",
                plural(found.len(), "card"),
                plural(printings, "printing")
            ),
        };
        out + &count + "\n"
    }

    /// The deck list lines as they were written from built printings, before [`list`]
    /// read them in place.
    fn list_built(
        db: &CardDb,
        found: &[Found],
        lang: Language,
        by: Option<jiff::civil::Date>,
    ) -> String {
        let by = by.map(|date| date.to_string());
        let in_time = |p: &crate::cards::Printing| {
            (by.as_deref())
                .is_none_or(|by| !p.release_date.is_empty() && p.release_date.as_str() <= by)
        };
        let mut out = String::new();
        for card in found {
            let Some(&id) = card.printings.last() else {
                continue;
            };
            let newest = |keep: &dyn Fn(&crate::cards::Printing) -> bool| {
                (card.printings.iter().rev())
                    .find(|&&id| (db.get(id)).is_some_and(|p| !p.set_code.is_empty() && keep(p)))
            };
            let id = match card.printings.len() {
                1 => id,
                _ => *newest(&in_time)
                    .or_else(|| newest(&|_| true))
                    .unwrap_or(&id),
            };
            let Some(printing) = db.get(id) else { continue };
            let name = crate::util::escape::visible(&shown_name(db, id, lang)).into_owned();
            out.push_str(&format!("1 {name} {}\n", label(printing)));
        }
        out
    }

    /// The table and the deck list lines, read in place, are what they were when written
    /// from built printings: every printing of the embedded index (names with accents and
    /// `♀`, sets without a printed code, printings past the sixth of a card), grouped by
    /// card and one a group, in English, French and German, at no date and two `legal:`
    /// dates; and a few queries' answers under each sort.
    #[test]
    fn text_and_list_read_in_place_as_from_printings() {
        let built = crate::cards::storage::embedded::open().unwrap();
        let all: Vec<_> = built.iter().map(|(id, _)| id).collect();
        // A database none of whose printings is built: each is read from its record.
        let db = crate::cards::storage::embedded::open().unwrap();
        let date = |text: &str| text.parse::<jiff::civil::Date>().ok();
        for lang in [Language::En, Language::Fr, Language::De] {
            for each in [false, true] {
                let found = crate::search::group(&db, &all, lang, each, Default::default());
                assert_eq!(text(&db, &found, each), text_built(&built, &found, each));
                for by in [None, date("2015-06-01"), date("1999-01-01")] {
                    assert_eq!(
                        list(&db, &found, lang, by),
                        list_built(&built, &found, lang, by)
                    );
                }
            }
        }
        for query in [
            "Dreepy",
            "nidoran",
            "pokemon",
            "set:TWM",
            "flabebe",
            "Nothing at all",
        ] {
            let ids = crate::search::search(&db, query).unwrap();
            for sort in [Sort::Name, Sort::Released, Sort::Hp, Sort::Set] {
                let found = crate::search::group(&db, &ids, Language::Fr, false, sort);
                assert_eq!(text(&db, &found, false), text_built(&built, &found, false));
                let lines = list(&db, &found, Language::Fr, None);
                assert_eq!(lines, list_built(&built, &found, Language::Fr, None));
            }
        }
    }

    /// Every printing of the embedded index, grouped by card and one a group, in two
    /// languages, and an empty answer, a query that needs escaping and an empty card: the
    /// same bytes both ways.
    #[test]
    fn the_json_is_what_serde_writes() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let all: Vec<_> = db.iter().map(|(id, _)| id).collect();
        let query = "name:\"a \\ b\" \u{7}é";
        for lang in [Language::En, Language::De] {
            for each in [false, true] {
                let found = crate::search::group(&db, &all, lang, each, Default::default());
                assert_eq!(
                    json(&db, query, &found, lang),
                    by_serde(&db, query, &found, lang)
                );
            }
        }
        // Streamed to a writer that fails past 100,000 bytes: what went out is the start of
        // the document, and the error ends the writing.
        let found = crate::search::group(&db, &all, Language::En, false, Default::default());
        let whole = json(&db, query, &found, Language::En);
        let mut short = Short(Vec::new());
        assert!(write_json(&mut short, &db, query, &found, Language::En).is_err());
        assert!(!short.0.is_empty() && whole.as_bytes().starts_with(&short.0));
        let empty = Found {
            name: "Nothing".into(),
            printings: Vec::new(),
        };
        for found in [&[][..], &[empty][..]] {
            assert_eq!(
                json(&db, query, found, Language::En),
                by_serde(&db, query, found, Language::En)
            );
        }
    }
}
