//! Spreadsheet rows pasted as text: cells separated by tabs (or by `;` or `,` under a
//! header row that uses them), with or without a header row naming the columns.
//!
//! A header row (`Qty<TAB>Name<TAB>Set<TAB>No.`, `Anzahl<TAB>Name<TAB>Set<TAB>Nummer`, `Name<TAB>Qty`) is a row whose
//! cells name at least a count column and a name column, in one of the six languages; it
//! decides the columns of the rows after it. Without one, a tab row whose second cell is a
//! count and first is not (`Dreepy<TAB>4<TAB>TWM<TAB>128`) is read name first; a row that starts with
//! its count needs nothing from here (tabs are blanks to the card reader). This module
//! returns byte ranges of the trimmed line and must not judge counts or know cards.

use super::card::{Count, Parts, Range, split_card};
use super::lines::trim;

/// Rows with more cells than this are not table rows (a line is at most 4,096 bytes
/// anyway; this keeps the cell list small).
const MAX_CELLS: usize = 32;

/// Which cell holds what, as a header row named them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Columns {
    pub separator: char,
    pub count: usize,
    pub name: usize,
    pub set: Option<usize>,
    pub number: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Column {
    Count,
    Name,
    Set,
    Number,
    /// A known column deckbox does not use (`Category`, `Type`, `Price`).
    Other,
    /// French `Nombre` (how many) or Spanish `Nombre` (name): a count when another cell
    /// is the name.
    Nombre,
}

/// Column names, lower case, without a trailing `.` or `:`.
const WORDS: &[(&[&str], Column)] = &[
    (
        &[
            "qty",
            "qty.",
            "quantity",
            "count",
            "amount",
            "copies",
            "#",
            "x",
            "anzahl",
            "menge",
            "stück",
            "quantité",
            "quantite",
            "qté",
            "qte",
            "cantidad",
            "cant",
            "quantidade",
            "qtd",
            "qtde",
            "quantità",
            "quantita",
            "qtà",
            "qta",
        ],
        Column::Count,
    ),
    (
        &[
            "name",
            "card",
            "card name",
            "cardname",
            "nom",
            "carte",
            "nom de la carte",
            "carta",
            "nome",
            "karte",
            "kartenname",
            "name der karte",
            "nome da carta",
            "nome della carta",
        ],
        Column::Name,
    ),
    (
        &[
            "set",
            "set code",
            "code",
            "expansion",
            "extension",
            "série",
            "serie",
            "edition",
            "édition",
            "expansión",
            "colección",
            "coleccion",
            "edición",
            "edicion",
            "coleção",
            "colecao",
            "coleçao",
            "erweiterung",
            "espansione",
            "set name",
        ],
        Column::Set,
    ),
    (
        &[
            "no",
            "nr",
            "num",
            "number",
            "nummer",
            "numéro",
            "numero",
            "número",
            "n°",
            "nº",
            "card number",
            "collector number",
            "set number",
            "kartennummer",
        ],
        Column::Number,
    ),
    (
        &[
            "category",
            "type",
            "supertype",
            "price",
            "rarity",
            "catégorie",
            "categorie",
            "categoría",
            "categoria",
            "tipo",
            "kategorie",
            "typ",
            "rareté",
            "rareza",
            "raridade",
            "seltenheit",
            "rarità",
        ],
        Column::Other,
    ),
    (&["nombre"], Column::Nombre),
];

/// The separator a row uses: a tab, else `;`, else `,`.
fn separator(s: &str) -> Option<char> {
    ['\t', ';', ','].into_iter().find(|&c| s.contains(c))
}

/// The cells of `s` split at `separator`, each trimmed (and without surrounding `"`), as
/// ranges of `s`; `None` past [`MAX_CELLS`].
fn cells(s: &str, separator: char) -> Option<Vec<Range>> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in s.split(separator) {
        if out.len() == MAX_CELLS {
            return None;
        }
        let (lead, cell) = trim(piece);
        let quoted = cell.len() >= 2 && cell.starts_with('"') && cell.ends_with('"');
        let (lead, len) = if quoted {
            (lead + 1, cell.len() - 2)
        } else {
            (lead, cell.len())
        };
        out.push((start + lead, start + lead + len));
        start += piece.len() + separator.len_utf8();
    }
    Some(out)
}

fn column(cell: &str) -> Option<Column> {
    let key = cell.trim_end_matches([':', '.']).to_lowercase();
    let key = if key.is_empty() { cell.to_owned() } else { key };
    WORDS
        .iter()
        .find(|(words, _)| words.contains(&key.as_str()))
        .map(|&(_, column)| column)
}

/// Reads a header row: every cell a known column name, a count and a name among them.
pub(crate) fn header_row(s: &str) -> Option<Columns> {
    let separator = separator(s)?;
    let ranges = cells(s, separator)?;
    let kinds: Vec<Column> = ranges
        .iter()
        .map(|&(a, b)| s.get(a..b).and_then(column))
        .collect::<Option<_>>()?;
    let find = |kind: Column| kinds.iter().position(|&k| k == kind);
    let nombre = find(Column::Nombre);
    let name = find(Column::Name).or(nombre)?;
    let count = find(Column::Count).or(nombre.filter(|&n| n != name))?;
    Some(Columns {
        separator,
        count,
        name,
        set: find(Column::Set),
        number: find(Column::Number),
    })
}

/// Reads a row under `columns`, or a tab row whose first cell is a name and second a count
/// when `columns` is `None`. The count and the parts are ranges of `s`.
pub(crate) fn row<'a>(s: &'a str, columns: Option<&Columns>) -> Option<(Count<'a>, Parts)> {
    let guessed = Columns {
        separator: '\t',
        count: 1,
        name: 0,
        set: Some(2),
        number: Some(3),
    };
    let columns = columns.unwrap_or(&guessed);
    if !s.contains(columns.separator) {
        return None;
    }
    let ranges = cells(s, columns.separator)?;
    let cell = |i: usize| ranges.get(i).copied().filter(|&(a, b)| a < b);
    let (count_start, count_end) = cell(columns.count)?;
    let digits = s.get(count_start..count_end)?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (name_start, name_end) = cell(columns.name)?;
    let name_text = s.get(name_start..name_end)?;
    if name_text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let set = columns.set.and_then(cell);
    // `#128`: the `#` a sheet writes before a collector number is not part of it, as on a
    // text line (`Drakloak TWM #129`).
    let number = columns.number.and_then(cell).map(|(a, b)| {
        let hashed = s.get(a..b).is_some_and(|number| {
            number.starts_with('#') && number.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
        });
        (a + usize::from(hashed), b)
    });
    let parts = if set.is_none() && number.is_none() {
        let inner = split_card(name_text);
        let shift = |(a, b): Range| (name_start + a, name_start + b);
        Parts {
            name: shift(inner.name),
            set: inner.set.map(shift),
            number: inner.number.map(shift),
            ph: inner.ph,
            marked: false,
            note: None,
        }
    } else {
        Parts {
            name: (name_start, name_end),
            set,
            number,
            ph: false,
            marked: false,
            note: None,
        }
    };
    let count = Count {
        span: (count_start, count_end),
        digits,
        negative: false,
        rest: Some(0),
    };
    Some((count, parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(header: &str, line: &str) -> String {
        let columns = header_row(header);
        match row(line, columns.as_ref()) {
            None => "none".to_owned(),
            Some((count, parts)) => {
                let get = |r: Option<Range>| r.and_then(|(a, b)| line.get(a..b)).unwrap_or("-");
                format!(
                    "{} | {} | {} | {}",
                    count.digits,
                    get(Some(parts.name)),
                    get(parts.set),
                    get(parts.number)
                )
            }
        }
    }

    #[test]
    fn rows() {
        insta::assert_snapshot!(show("Qty\tName\tSet\tNo.", "4\tDreepy\tTWM\t128"), @"4 | Dreepy | TWM | 128");
        insta::assert_snapshot!(show("Name\tQty", "Dreepy TWM 128\t4"), @"4 | Dreepy | TWM | 128");
        insta::assert_snapshot!(show("", "Dreepy\t4\tTWM\t128"), @"4 | Dreepy | TWM | 128");
        insta::assert_snapshot!(show("Nombre;Nom;Extension;Numéro", "3;Fantominus;TWM;103"), @"3 | Fantominus | TWM | 103");
        insta::assert_snapshot!(show("Nombre,Cantidad", "\"Dreepy\",4"), @"4 | Dreepy | - | -");
        insta::assert_snapshot!(show("Anzahl\tName\tSet\tNummer", "Pokémon\t\t\t"), @"none");
        insta::assert_snapshot!(show("Qty\tName\tSet\tNo.", "4\tDreepy\tTWM\t#128"), @"4 | Dreepy | TWM | 128");
        insta::assert_snapshot!(show("Qty\tName\tSet\tNo.", "4\tDreepy\tTWM\t#"), @"4 | Dreepy | TWM | #");
        assert!(header_row("Qty\tName\tPrice").is_some());
        assert!(header_row("4\tDreepy\tTWM\t128").is_none());
        assert!(header_row("Dreepy, the best").is_none());
    }
}
