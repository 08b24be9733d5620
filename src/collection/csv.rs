//! CSV exports of collection apps, read as lists.
//!
//! A dialect is one entry of [`DIALECTS`]: the names of its header's quantity, card name,
//! set code and collector number columns. A file is read as the first dialect whose four
//! names are all in its first line (case and surrounding blanks aside); every other column
//! (condition, language, price, folder...) is ignored. Each row becomes the list line
//! `COUNT NAME SET NUMBER` at the row's own line number, and the list is identified as a
//! deck list is, so a finding names the file's real line.
//!
//! Each dialect's header was read from a file the app exported, as quoted in a public
//! source named beside it (docs/collections.md says which and what was checked). The apps
//! export the same header for every game they track; the sources quote exports of Magic
//! cards. Cardmarket and Collectr are not here: no source shows a header of theirs with a
//! card name (Cardmarket's stock file names cards by product id only).

use super::CollectionError;

/// One CSV layout: the header names of the four columns deckbox reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// The app, for messages and docs.
    pub name: &'static str,
    pub quantity: &'static str,
    pub card: &'static str,
    pub set: &'static str,
    pub number: &'static str,
}

/// Every CSV layout deckbox reads, the most specific first.
pub const DIALECTS: &[Dialect] = &[
    // TCGplayer app, collection export. Header quoted in
    // github.com/nicho92/MtgDesktopCompanion/issues/157 (2021): Quantity, Name, Simple
    // Name, Set, Card Number, Set Code, External ID, Printing, Condition, Language, Rarity,
    // Product ID, SKU, Price, Price Each. `Name` carries the variant (`(Showcase)`), so the
    // card is read from `Simple Name`.
    Dialect {
        name: "TCGplayer",
        quantity: "Quantity",
        card: "Simple Name",
        set: "Set Code",
        number: "Card Number",
    },
    // Dragon Shield, web card manager export. Header quoted by the author of MtgCsvHelper
    // in github.com/StepKie/MtgCsvHelper/issues/7 (2024): Folder Name, Quantity, Trade
    // Quantity, Card Name, Set Code, Set Name, Card Number, Condition, Printing, Language,
    // Price Bought, Date Bought, LOW, MID, MARKET.
    Dialect {
        name: "Dragon Shield (web)",
        quantity: "Quantity",
        card: "Card Name",
        set: "Set Code",
        number: "Card Number",
    },
    // Dragon Shield, phone app export, same source: Quantity, Name, CardNumber, Expansion
    // Code, Expansion Name, PurchasePrice, Foil, Condition, Language, PurchaseDate, Single
    // Current Price, Total Current Price.
    Dialect {
        name: "Dragon Shield (app)",
        quantity: "Quantity",
        card: "Name",
        set: "Expansion Code",
        number: "CardNumber",
    },
    // deckbox's own layout, for a spreadsheet kept by hand.
    Dialect {
        name: "deckbox",
        quantity: "Quantity",
        card: "Name",
        set: "Set",
        number: "Number",
    },
];

/// A CSV file's dialect and where its columns are.
#[derive(Debug, Clone)]
pub struct Found {
    pub dialect: &'static Dialect,
    pub delimiter: u8,
    /// Column indices of quantity, card name, set code and number.
    columns: [usize; 4],
}

/// The separator of a header line: the most frequent of `,`, `;` and tab (spreadsheets
/// in many European locales write `;`).
fn delimiter(header: &str) -> u8 {
    let mut best = (0, b',');
    for candidate in [b',', b';', b'\t'] {
        let count = header.bytes().filter(|&b| b == candidate).count();
        if count > best.0 {
            best = (count, candidate);
        }
    }
    best.1
}

/// The cells of a header line.
fn header_cells(text: &str, delimiter: u8) -> Vec<String> {
    let first = text
        .trim_start_matches('\u{FEFF}')
        .lines()
        .next()
        .unwrap_or("");
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(first.as_bytes());
    reader
        .records()
        .next()
        .and_then(Result::ok)
        .map(|record| record.iter().map(|cell| cell.trim().to_string()).collect())
        .unwrap_or_default()
}

/// The dialect of `text`, when its first line is the header of one.
pub fn sniff(text: &str) -> Option<Found> {
    let first = text.trim_start_matches('\u{FEFF}').lines().next()?;
    let delimiter = delimiter(first);
    let cells = header_cells(text, delimiter);
    let at = |name: &str| cells.iter().position(|c| c.eq_ignore_ascii_case(name));
    DIALECTS.iter().find_map(|dialect| {
        Some(Found {
            dialect,
            delimiter,
            columns: [
                at(dialect.quantity)?,
                at(dialect.card)?,
                at(dialect.set)?,
                at(dialect.number)?,
            ],
        })
    })
}

/// The error for a `.csv` file whose header is no known dialect's.
pub fn unknown(name: &str, text: &str) -> CollectionError {
    let header = header_cells(text, delimiter(text.lines().next().unwrap_or(""))).join(", ");
    let known = DIALECTS
        .iter()
        .map(|d| {
            format!(
                "{} ({}, {}, {}, {})",
                d.name, d.quantity, d.card, d.set, d.number
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    CollectionError::UnknownCsv {
        name: name.to_string(),
        header: crate::util::escape::visible(&header).into_owned(),
        known,
    }
}

/// One cell made fit for one list line: control characters (a quoted line break) become
/// spaces, blanks are trimmed.
fn cell(record: &::csv::StringRecord, column: usize) -> String {
    let raw = record.get(column).unwrap_or("");
    raw.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The CSV `text` as a list: each row `COUNT NAME SET NUMBER` on the row's own line, the
/// header and the rows' other lines blank. A row whose quantity is no number is kept as
/// its cells joined, so the list's parser reports it at its line; a quantity of 0 (an app
/// listing a card not owned) is left out. A number written `125/197` keeps `125`.
pub fn as_list(name: &str, text: &str, found: &Found) -> Result<String, CollectionError> {
    let body = text.trim_start_matches('\u{FEFF}');
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(found.delimiter)
        .has_headers(true)
        .flexible(true)
        .from_reader(body.as_bytes());
    let mut lines: Vec<String> = Vec::new();
    let mut record = ::csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(error) => {
                let line = error.position().map_or(0, ::csv::Position::line);
                return Err(CollectionError::Csv {
                    name: name.to_string(),
                    line,
                    reason: error.to_string(),
                });
            }
        }
        let line = record.position().map_or(0, ::csv::Position::line);
        let Ok(at) = usize::try_from(line) else {
            continue;
        };
        if at == 0 || at > super::MAX_COLLECTION_LINES {
            continue;
        }
        if lines.len() < at {
            lines.resize(at, String::new());
        }
        let [quantity, card, set, number] = found.columns.map(|column| cell(&record, column));
        let number = number.split('/').next().unwrap_or("").trim().to_string();
        let written = match quantity.parse::<u32>() {
            Ok(0) => String::new(),
            Ok(count) => [count.to_string(), card, set, number]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
            Err(_) => (0..record.len())
                .map(|column| cell(&record, column))
                .collect::<Vec<_>>()
                .join(" "),
        };
        if let Some(slot) = lines.get_mut(at - 1) {
            *slot = written;
        }
    }
    Ok(lines.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::{as_list, sniff};

    #[test]
    fn a_semicolon_export_with_a_bom_is_read_at_its_lines() {
        let text = "\u{FEFF}Quantity;Name;CardNumber;Expansion Code;Condition\n\
                    4;Ultra Ball;196/198;SVI;NearMint\n\
                    0;Switch;194;SVI;NearMint\n\
                    \"2\";\"Boss's Orders\";172;PAL;\"Played\"\n\
                    many;Rare Candy;191;SVI;NearMint\n";
        let found = sniff(text).unwrap();
        assert_eq!(found.dialect.name, "Dragon Shield (app)");
        assert_eq!(
            as_list("x.csv", text, &found).unwrap(),
            "\n4 Ultra Ball SVI 196\n\n2 Boss's Orders PAL 172\nmany Rare Candy 191 SVI NearMint\n"
        );
    }

    #[test]
    fn a_list_is_no_csv() {
        assert!(sniff("4 Ultra Ball SVI 196\n").is_none());
        assert!(sniff("Quantity,Name\n4,Ultra Ball\n").is_none());
        assert!(sniff("").is_none());
    }
}
