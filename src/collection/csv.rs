//! CSV exports of collection apps: columns read by what they mean, not by one app's header.
//!
//! A header is recognized when it has a column meaning the quantity and one meaning the
//! card's name ([`ROLES`]: the names the known apps give them, and the words of the six
//! languages deckbox reads), in any order; set (a code or a name), number, language,
//! condition and finish columns are read when present, and every other column (prices,
//! folder, dates, notes) is ignored. A first line `sep=,` (Dragon Shield's web export, for
//! spreadsheets) names the separator; otherwise it is the most frequent of `,`, `;` and tab
//! in the header. A byte-order mark and CRLF line ends are read.
//!
//! The layouts the apps write, and where each was seen, are in docs/collections.md and
//! tests/fixtures/need/SOURCES.md (one fixture per app, as the app writes it).

use super::CollectionError;

/// What a column means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Quantity,
    Name,
    /// A set code (`TWM`, TCGplayer's `SWSH08`, `SWSH12: TG`).
    SetCode,
    /// A set's name (`Twilight Masquerade`, `SV06: Twilight Masquerade`, `Flammes
    /// Obsidiennes`). Codes and names are both tried on either column.
    SetName,
    Number,
    Language,
    Condition,
    Finish,
}

/// Every role and the header names that mean it, the preferred first: a header with
/// `Simple Name` and `Name` (TCGplayer, whose `Name` carries ` - 062/088`) is read from
/// `Simple Name`; Cardmarket's `English Name` before its `Local Name`. Compared with case,
/// blanks and a trailing `:` aside.
pub const ROLES: &[(Role, &[&str])] = &[
    (
        Role::Quantity,
        &[
            "quantity",
            "qty",
            "count",
            "amount",
            "copies",
            "quantité",
            "quantite",
            "nombre d'exemplaires",
            "cantidad",
            "quantidade",
            "anzahl",
            "menge",
            "quantità",
            "quantita",
        ],
    ),
    (
        Role::Name,
        &[
            "simple name",
            "card name",
            "english name",
            "product name",
            "name",
            "card",
            "nom",
            "nom de la carte",
            "carte",
            "nombre",
            "carta",
            "nome",
            "kartenname",
            "karte",
        ],
    ),
    (
        Role::SetCode,
        &[
            "set code",
            "expansion code",
            "edition code",
            "exp.",
            "setcode",
            "set_code",
            "code",
        ],
    ),
    (
        Role::SetName,
        &[
            "set",
            "set name",
            "expansion",
            "expansion name",
            "exp. name",
            "edition",
            "extension",
            "série",
            "edición",
            "edicion",
            "expansión",
            "colección",
            "coleção",
            "colecao",
            "erweiterung",
            "espansione",
        ],
    ),
    (
        Role::Number,
        &[
            "card number",
            "cardnumber",
            "collector number",
            "number",
            "no.",
            "nr.",
            "#",
            "numéro",
            "numero",
            "número",
            "nummer",
            "kartennummer",
        ],
    ),
    (
        Role::Language,
        &[
            "language",
            "card language",
            "langue",
            "idioma",
            "língua",
            "sprache",
            "lingua",
        ],
    ),
    (
        Role::Condition,
        &[
            "condition",
            "card condition",
            "état",
            "etat",
            "estado",
            "condição",
            "zustand",
            "condizione",
        ],
    ),
    (
        Role::Finish,
        &[
            "printing",
            "finish",
            "foil",
            "foil?",
            "isfoil",
            "card variant",
            "variance",
            "variant",
        ],
    ),
];

/// A CSV file's separator and where its columns are.
#[derive(Debug, Clone)]
pub struct Found {
    pub delimiter: u8,
    /// Lines before the header (the `sep=` line).
    skip: usize,
    columns: Vec<(Role, usize)>,
}

impl Found {
    /// The column of a role, when the header has one.
    pub fn column(&self, role: Role) -> Option<usize> {
        self.columns
            .iter()
            .find(|(have, _)| *have == role)
            .map(|(_, at)| *at)
    }
}

/// One row of an export, its cells by role (trimmed, control characters as spaces).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    /// 1-based line of the file where the row starts.
    pub line: usize,
    pub quantity: String,
    pub name: String,
    pub set_code: String,
    pub set_name: String,
    pub number: String,
    pub language: String,
    pub condition: String,
    pub finish: String,
}

/// The separator a `sep=X` first line names (quoted or not), if the first line is one.
fn sep_line(first: &str) -> Option<u8> {
    let line = first.trim().trim_matches('"');
    let rest = line.strip_prefix("sep=")?;
    match rest.as_bytes() {
        [byte] => Some(*byte),
        _ => None,
    }
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

/// The header line, its separator and how many lines precede it.
fn header_line(text: &str) -> (&str, u8, usize) {
    let mut lines = text.trim_start_matches('\u{FEFF}').lines();
    let first = lines.next().unwrap_or("");
    match sep_line(first) {
        Some(sep) => (lines.next().unwrap_or(""), sep, 1),
        None => (first, delimiter(first), 0),
    }
}

/// The cells of a header line.
fn header_cells(line: &str, delimiter: u8) -> Vec<String> {
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    reader
        .records()
        .next()
        .and_then(Result::ok)
        .map(|record| record.iter().map(|cell| cell.trim().to_string()).collect())
        .unwrap_or_default()
}

/// A header cell as compared with [`ROLES`]' names.
fn header_key(cell: &str) -> String {
    cell.trim()
        .trim_end_matches(':')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Where each role's column is: for each role, the header cell matching its earliest
/// name; a cell serves one role.
fn columns(cells: &[String]) -> Vec<(Role, usize)> {
    let keys: Vec<String> = cells.iter().map(|cell| header_key(cell)).collect();
    let mut taken = vec![false; keys.len()];
    let mut found = Vec::new();
    for (role, names) in ROLES {
        let hit = names.iter().find_map(|name| {
            keys.iter()
                .enumerate()
                .position(|(at, key)| key == name && !taken.get(at).copied().unwrap_or(true))
        });
        if let Some(at) = hit {
            if let Some(slot) = taken.get_mut(at) {
                *slot = true;
            }
            found.push((*role, at));
        }
    }
    found
}

/// The layout of `text`, when its header (after a `sep=` line) has a quantity and a name
/// column.
pub fn sniff(text: &str) -> Option<Found> {
    let (header, delimiter, skip) = header_line(text);
    let cells = header_cells(header, delimiter);
    let columns = columns(&cells);
    let has = |role| columns.iter().any(|(have, _)| *have == role);
    (has(Role::Quantity) && has(Role::Name)).then_some(Found {
        delimiter,
        skip,
        columns,
    })
}

/// The error for a `.csv` file whose header has no quantity or no name column: what the
/// header says and the column names deckbox looked for.
pub fn unknown(name: &str, text: &str) -> CollectionError {
    let (header, delimiter, _) = header_line(text);
    let header = header_cells(header, delimiter).join(", ");
    let known = ROLES
        .iter()
        .filter(|(role, _)| matches!(role, Role::Quantity | Role::Name))
        .map(|(role, names)| format!("{role:?}: {}", names.join(" / ")))
        .collect::<Vec<_>>()
        .join("; ");
    CollectionError::UnknownCsv {
        name: name.to_string(),
        header: crate::util::escape::visible(&header).into_owned(),
        known: format!(
            "a quantity and a card name column, in any order ({known}), and reads a set code or name, number, language, condition and finish column when there is one"
        ),
    }
}

/// One cell made fit for one list line: control characters (a quoted line break) become
/// spaces, blanks are trimmed.
fn cell(record: &::csv::StringRecord, column: Option<usize>) -> String {
    let raw = column.and_then(|at| record.get(at)).unwrap_or("");
    raw.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The rows of a CSV export, each with the line it starts at.
pub fn rows(name: &str, text: &str, found: &Found) -> Result<Vec<Row>, CollectionError> {
    let body = text.trim_start_matches('\u{FEFF}');
    let mut rest = body;
    for _ in 0..found.skip {
        rest = rest.split_once('\n').map_or("", |(_, after)| after);
    }
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(found.delimiter)
        .has_headers(true)
        .flexible(true)
        .from_reader(rest.as_bytes());
    let mut rows = Vec::new();
    let mut record = ::csv::StringRecord::new();
    // Line ends counted so far, up to byte `counted_to`: records come in file order, so
    // each row's line is counted on from the last one's (counting from the file's start
    // for every row made 20,000 rows cost seconds).
    let (mut counted_to, mut line_ends) = (0usize, 0usize);
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(error) => {
                let line = error.position().map_or(0, ::csv::Position::line);
                return Err(CollectionError::Csv {
                    name: name.to_string(),
                    line: line.saturating_add(found.skip as u64),
                    reason: error.to_string(),
                });
            }
        }
        // The line from the record's byte offset: the reader's own line count is off
        // after CRLF line ends.
        let byte = record.position().map_or(0, ::csv::Position::byte);
        let Ok(byte) = usize::try_from(byte) else {
            continue;
        };
        // After CRLF the offset is the `\n` the reader skips: it ends the line before.
        let end = match rest.as_bytes().get(byte) {
            Some(b'\n') => byte + 1,
            _ => byte,
        };
        let end = end.clamp(counted_to, rest.len());
        let since = rest.as_bytes().get(counted_to..end).unwrap_or_default();
        line_ends += since.iter().filter(|&&b| b == b'\n').count();
        counted_to = end;
        let line = line_ends + 1 + found.skip;
        if line == 0 || line > super::MAX_COLLECTION_LINES {
            continue;
        }
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        rows.push(Row {
            line,
            quantity: cell(&record, found.column(Role::Quantity)),
            name: cell(&record, found.column(Role::Name)),
            set_code: cell(&record, found.column(Role::SetCode)),
            set_name: cell(&record, found.column(Role::SetName)),
            number: cell(&record, found.column(Role::Number)),
            language: cell(&record, found.column(Role::Language)),
            condition: cell(&record, found.column(Role::Condition)),
            finish: cell(&record, found.column(Role::Finish)),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::{Role, rows, sniff};

    #[test]
    fn a_sep_line_names_the_separator_and_rows_keep_their_lines() {
        let text = "\"sep=,\"\r\nFolder Name,Quantity,Trade Quantity,Card Name,Set Code,Set Name,Card Number,Condition,Printing,Language\r\n\
                    Binder,4,0,Ultra Ball,SVI,Scarlet & Violet,196,NearMint,Normal,English\r\n";
        let found = sniff(text).unwrap();
        assert_eq!(found.column(Role::Name), Some(3));
        let read = rows("x.csv", text, &found).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].line, 3);
        assert_eq!(read[0].name, "Ultra Ball");
        assert_eq!(read[0].set_code, "SVI");
        assert_eq!(read[0].set_name, "Scarlet & Violet");
        assert_eq!(read[0].number, "196");
    }

    #[test]
    fn columns_are_read_by_meaning_in_any_order_and_language() {
        let text = "\u{FEFF}Nom;Extension;Numéro;Quantité;Prix\nHyper Ball;Écarlate et Violet;196/198;4;0,50\n";
        let found = sniff(text).unwrap();
        let read = rows("x.csv", text, &found).unwrap();
        assert_eq!(
            (
                read[0].quantity.as_str(),
                read[0].name.as_str(),
                read[0].set_name.as_str(),
                read[0].number.as_str()
            ),
            ("4", "Hyper Ball", "Écarlate et Violet", "196/198")
        );
        // TCGplayer: `Simple Name` is preferred to `Name`, which carries the number.
        let text = "Quantity,Name,Simple Name,Set,Card Number,Set Code\n1,Dawn - 087/094,Dawn,ME02: Phantasmal Flames,087/094,PFL\n";
        let read = rows("x.csv", text, &sniff(text).unwrap()).unwrap();
        assert_eq!(read[0].name, "Dawn");
        assert_eq!(read[0].set_code, "PFL");
        assert_eq!(read[0].set_name, "ME02: Phantasmal Flames");
    }

    #[test]
    fn a_list_is_no_csv() {
        assert!(sniff("4 Ultra Ball SVI 196\n").is_none());
        assert!(sniff("Quantity,Set\n4,SVI\n").is_none());
        assert!(sniff("").is_none());
    }
}
