//! Collections: the cards a player owns, read from files, and what a deck still needs
//! from them ([`need`]).
//!
//! A collection is one or more files, each either a list in any layout and language a deck
//! list may take (no construction rules: it is no deck), or a CSV export of a collection
//! app ([`csv`], one entry per dialect: its header names). Every line is identified
//! exactly as `check` identifies a deck line ([`crate::check::identify_only`]): there is
//! no second identifier. A line that cannot be identified is a finding with its file and
//! line, never a guess. This wing reads the files it is handed and prints nothing.

pub mod csv;
pub mod need;
pub mod prices;
pub mod rows;
pub mod sets;

use std::path::Path;

use crate::cards::{CardDb, PrintingId};
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::deck::DeckInput;
use crate::formats::Format;

/// Largest collection file deckbox reads. A CSV export of 50,000 rows with its condition,
/// language and price columns is under 10 MiB.
pub const MAX_COLLECTION_BYTES: u64 = 16 * 1024 * 1024;

/// Most lines (or CSV rows) a collection file may have. About 20,000 printings exist in
/// English: a line per printing and condition stays under this. Each line read costs
/// about 1.2 KB (the card line, and its finding when it has one), so a file at the bound
/// costs about 60 MB.
pub const MAX_COLLECTION_LINES: usize = 50_000;

/// One owned card: a printing, how many, and the line that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owned {
    pub printing: PrintingId,
    pub count: u64,
    /// Index in [`Collection::files`].
    pub file: usize,
    /// 1-based line of the file.
    pub line: usize,
    /// False when the row fit several printings of one card ([`rows`]' `same-card`): it
    /// counts by the reprint rule, never for `--exact-printing`.
    pub known: bool,
}

/// One file of a collection, read and identified.
#[derive(Debug, Clone)]
pub struct CollectionFile {
    /// The lines as identified, with their findings (`unknown-card`, `parse-error`, ...).
    /// For a CSV export, each row is written as a list line at the row's own line number,
    /// so findings name the file's real line.
    pub checked: CheckedDeck,
    /// How each row of a CSV export was read (empty for a list).
    pub rows: Vec<rows::RowReading>,
    /// True when the file was read as a CSV export.
    pub csv: bool,
}

/// The lines of a file that have an error finding: they count for nothing.
fn error_lines(checked: &CheckedDeck) -> std::collections::HashSet<usize> {
    checked
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .filter_map(|diagnostic| diagnostic.line)
        .collect()
}

impl CollectionFile {
    /// How each line or row was read: a CSV export's [`rows`], else each card line of the
    /// list (`list`, or `error` when a finding on its line is an error).
    pub fn readings(&self, db: &CardDb) -> Vec<rows::RowReading> {
        if self.csv {
            return self.rows.clone();
        }
        let failed = error_lines(&self.checked);
        self.checked
            .cards
            .iter()
            .map(|card| {
                let printing = card.printing.and_then(|id| db.get(id));
                let error = failed.contains(&card.line.line) || printing.is_none();
                rows::RowReading {
                    line: card.line.line,
                    quantity: card.line.count.to_string(),
                    name: card.line.name.clone(),
                    set: card.line.set.clone().unwrap_or_default(),
                    number: card.line.number.clone().unwrap_or_default(),
                    reading: if error { "error" } else { "list" },
                    printing: printing
                        .filter(|_| !error)
                        .map(|p| format!("{} {}", p.set_code, p.number)),
                    candidates: usize::from(!error),
                }
            })
            .collect()
    }
}

/// Every file of a collection and what they own, file by file in order.
#[derive(Debug, Clone, Default)]
pub struct Collection {
    pub files: Vec<CollectionFile>,
    pub owned: Vec<Owned>,
    /// Indices in `owned` by the card's rules key, built once ([`Collection::by_key`]):
    /// `check DIR --have` asks it once per deck.
    keys: std::sync::OnceLock<std::collections::HashMap<String, Vec<usize>>>,
}

impl Collection {
    /// Findings that are errors (a line not read, a card not identified), over every file.
    pub fn errors(&self) -> usize {
        self.files
            .iter()
            .map(|file| file.checked.count(Severity::Error))
            .sum()
    }

    /// Cards owned, over every file.
    pub fn card_count(&self) -> u64 {
        self.owned.iter().map(|owned| owned.count).sum()
    }

    /// The owned entries (indices in [`owned`](Self::owned)) grouped by the lookup key of
    /// their card's rules name: the only ones that can count for a line of that card.
    pub fn by_key(&self, db: &CardDb) -> &std::collections::HashMap<String, Vec<usize>> {
        self.keys.get_or_init(|| {
            let mut keys: std::collections::HashMap<String, Vec<usize>> =
                std::collections::HashMap::new();
            for (index, owned) in self.owned.iter().enumerate() {
                if let Some(printing) = db.get(owned.printing) {
                    keys.entry(printing.rules_key().to_string())
                        .or_default()
                        .push(index);
                }
            }
            keys
        })
    }

    /// Adds one file, read and identified. A line with an error finding (a card not
    /// identified, a set and number naming another card, a quantity that is no number)
    /// counts for nothing.
    pub fn push(&mut self, file: CollectionFile) {
        self.keys = std::sync::OnceLock::new();
        let index = self.files.len();
        let failed = error_lines(&file.checked);
        let unsure: std::collections::HashSet<usize> = file
            .rows
            .iter()
            .filter(|row| row.reading == "same-card")
            .map(|row| row.line)
            .collect();
        for card in &file.checked.cards {
            if let Some(printing) = card.printing
                && card.line.count > 0
                && !failed.contains(&card.line.line)
            {
                self.owned.push(Owned {
                    printing,
                    count: u64::from(card.line.count),
                    file: index,
                    line: card.line.line,
                    known: !unsure.contains(&card.line.line),
                });
            }
        }
        self.files.push(file);
    }
}

/// Why a collection (or price) file could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum CollectionError {
    #[error("cannot read {name}: {reason}")]
    Read {
        name: String,
        reason: std::io::Error,
    },
    #[error("{name} has {lines} lines; a collection file may have at most {max}")]
    TooManyLines {
        name: String,
        lines: usize,
        max: usize,
    },
    #[error(
        "{name} looks like a CSV file, but its header ({header}) has no quantity or no card name column; deckbox looks for {known}"
    )]
    UnknownCsv {
        name: String,
        header: String,
        known: String,
    },
    #[error("{name}:{line}: cannot read this CSV row: {reason}")]
    Csv {
        name: String,
        line: u64,
        reason: String,
    },
    #[error("{name}:{line}: {reason}")]
    Price {
        name: String,
        line: usize,
        reason: String,
    },
}

/// Reads one collection file (a regular file, at most [`MAX_COLLECTION_BYTES`]).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CollectionError> {
    crate::util::bounded::read(path, MAX_COLLECTION_BYTES).map_err(|reason| CollectionError::Read {
        name: crate::util::escape::path(path),
        reason,
    })
}

/// The lines of `text` as a deck list counts them: one a line ending, and one more for
/// text after the last (a final line ending starts no line: a file of 50,000 rows, each
/// ended, has 50,000 lines).
fn line_count(text: &str) -> usize {
    let mut end = 0;
    let mut lines = 0;
    for (_, next) in crate::deck::line_breaks(text) {
        lines += 1;
        end = next;
    }
    lines + usize::from(end < text.len())
}

/// Reads every file of a collection and identifies its lines in `format` (which printing
/// a name alone is read as); see [`parse`].
pub fn read(paths: &[&Path], db: &CardDb, format: &Format) -> Result<Collection, CollectionError> {
    let mut collection = Collection::default();
    for path in paths {
        let bytes = read_bytes(path)?;
        let name = crate::util::escape::path(path);
        collection.push(parse(&name, &bytes, db, format)?);
    }
    Ok(collection)
}

/// One collection file from its bytes: a CSV export when its header has a quantity and a
/// card name column ([`csv::sniff`]; a file named `*.csv` must), else a list. Each CSV row
/// is read as one printing or reported ([`rows`]), then written as a list line at the
/// row's own line number and identified as a deck line is, so findings name the real line.
pub fn parse(
    name: &str,
    bytes: &[u8],
    db: &CardDb,
    format: &Format,
) -> Result<CollectionFile, CollectionError> {
    let mut input = DeckInput::from_bytes(name, bytes);
    let lines = line_count(&input.text);
    if lines > MAX_COLLECTION_LINES {
        return Err(CollectionError::TooManyLines {
            name: name.to_string(),
            lines,
            max: MAX_COLLECTION_LINES,
        });
    }
    let Some(found) = csv::sniff(&input.text) else {
        if name.to_ascii_lowercase().ends_with(".csv") {
            return Err(csv::unknown(name, &input.text));
        }
        let checked = crate::check::identify_only(&input, db, format);
        return Ok(CollectionFile {
            checked,
            rows: Vec::new(),
            csv: false,
        });
    };
    let mut lines: Vec<String> = Vec::new();
    let mut readings = Vec::new();
    let mut findings = Vec::new();
    let known = sets::Known::of(db);
    for row in csv::rows(name, &input.text, &found)? {
        let read = rows::read(db, &known, &row);
        if lines.len() < row.line {
            lines.resize(row.line, String::new());
        }
        if let Some(slot) = lines.get_mut(row.line - 1) {
            *slot = read.list_line;
        }
        readings.push(read.reading);
        findings.extend(read.finding);
    }
    input.text = lines.join("\n") + "\n";
    let mut checked = crate::check::identify_only(&input, db, format);
    checked.diagnostics.extend(findings);
    checked
        .diagnostics
        .sort_by_key(|diagnostic| diagnostic.line.unwrap_or(0));
    Ok(CollectionFile {
        checked,
        rows: readings,
        csv: true,
    })
}
