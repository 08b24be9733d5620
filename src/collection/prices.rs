//! A price list, offline: a CSV file of `name,set,number,price,currency` (a header line with
//! those names, in any order; other columns ignored). Each row is identified as a deck line
//! is; `need` prices what is missing at the cheapest printing that counts.

use super::CollectionError;
use crate::cards::{CardDb, PrintingId};
use crate::check::CheckedDeck;
use crate::deck::DeckInput;
use crate::formats::Format;

/// The price of one printing, in hundredths of the currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Price {
    pub printing: PrintingId,
    pub cents: u64,
    /// 1-based line of the file.
    pub line: usize,
}

/// A price list: one currency, the printings priced, and the rows as identified (with their
/// findings: a row whose card is unknown is reported, not priced).
#[derive(Debug, Clone)]
pub struct Prices {
    pub currency: String,
    pub rows: Vec<Price>,
    pub checked: CheckedDeck,
}

/// The header names a price file gives, in this order in the docs.
pub const COLUMNS: [&str; 5] = ["name", "set", "number", "price", "currency"];

/// The highest price a row may give, in hundredths: 1,000,000,000.00. The dearest card ever
/// sold went for about 5 million dollars, so a larger figure is a mistake in the file; with
/// this bound and [`crate::deck::MAX_COUNT`] copies a line, no total of a deck's cost can
/// overflow (totals are summed as `u128`).
pub const MAX_PRICE_CENTS: u64 = 100_000_000_000;

/// The longest currency a price file may give, in characters: a code (`EUR`, `USD`) or a
/// symbol (`€`), with room for longer local codes.
pub const MAX_CURRENCY_CHARS: usize = 8;

/// How much of a refused cell a message quotes.
const QUOTED_CHARS: usize = 24;

/// `12.5`, `12.50` or `12` as hundredths; `None` for anything else (a sign, three
/// decimals, a currency symbol, more than [`MAX_PRICE_CENTS`]).
fn cents(text: &str) -> Option<u64> {
    let (units, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if units.is_empty() || !digits(units) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let units: u64 = units.parse().ok()?;
    let fraction: u64 = format!("{fraction:0<2}").parse().ok()?;
    units
        .checked_mul(100)?
        .checked_add(fraction)
        .filter(|cents| *cents <= MAX_PRICE_CENTS)
}

/// A currency as a file writes it, upper-cased: 1 to [`MAX_CURRENCY_CHARS`] letters or
/// currency signs (`EUR`, `usd`, `€`, `R$`); `None` for anything else (spaces, digits,
/// control characters and markup never reach a table or a page).
fn currency_of(text: &str) -> Option<String> {
    const SIGNS: &str = "$€£¥₩₹₽¢₺₴₪฿₱₫₦₡₲₵₸₭₮";
    let count = text.chars().count();
    let fits = (1..=MAX_CURRENCY_CHARS).contains(&count)
        && text.chars().all(|c| c.is_alphabetic() || SIGNS.contains(c));
    fits.then(|| text.to_uppercase())
}

/// Reads a price file (at most [`super::MAX_COLLECTION_BYTES`] and
/// [`super::MAX_COLLECTION_LINES`] lines) and identifies its rows in `format`.
pub fn read(
    path: &std::path::Path,
    db: &CardDb,
    format: &Format,
) -> Result<Prices, CollectionError> {
    let bytes = super::read_bytes(path)?;
    parse(&crate::util::escape::path(path), &bytes, db, format)
}

/// A price file from its bytes; see [`read`].
pub fn parse(
    name: &str,
    bytes: &[u8],
    db: &CardDb,
    format: &Format,
) -> Result<Prices, CollectionError> {
    let fail = |line: usize, reason: String| CollectionError::Price {
        name: name.to_string(),
        line,
        reason,
    };
    let mut input = DeckInput::from_bytes(name, bytes);
    let lines = super::line_count(&input.text);
    if lines > super::MAX_COLLECTION_LINES {
        return Err(CollectionError::TooManyLines {
            name: name.to_string(),
            lines,
            max: super::MAX_COLLECTION_LINES,
        });
    }
    let body = input.text.trim_start_matches('\u{FEFF}').to_string();
    let mut reader = ::csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(body.as_bytes());
    let header = reader
        .headers()
        .map_err(|error| fail(1, error.to_string()))?
        .clone();
    let mut columns = [0usize; 5];
    for (slot, wanted) in columns.iter_mut().zip(COLUMNS) {
        *slot = header
            .iter()
            .position(|cell| cell.trim().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                fail(
                    1,
                    format!("the header has no `{wanted}` column; a price file's header is `name,set,number,price,currency`"),
                )
            })?;
    }
    let mut list: Vec<String> = Vec::new();
    let mut priced: Vec<(usize, u64)> = Vec::new();
    let mut currency: Option<String> = None;
    for record in reader.records() {
        let record = record.map_err(|error| {
            let line = error.position().map_or(0, ::csv::Position::line);
            fail(usize::try_from(line).unwrap_or(0), error.to_string())
        })?;
        let line = record
            .position()
            .and_then(|p| usize::try_from(p.line()).ok())
            .unwrap_or(0);
        if line == 0 || line > super::MAX_COLLECTION_LINES {
            continue;
        }
        let [card, set, number, price, money] =
            columns.map(|column| record.get(column).unwrap_or("").trim().to_string());
        let quoted = |cell: &str| {
            crate::util::escape::visible_line(&crate::util::escape::excerpt(cell, QUOTED_CHARS))
                .into_owned()
        };
        let cents = cents(&price).ok_or_else(|| {
            let (units, fraction) = price.split_once('.').unwrap_or((&price, ""));
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            let why = if !digits(units) || !(fraction.is_empty() || digits(fraction)) {
                "write 12.50"
            } else if fraction.len() > 2 {
                "at most two decimals: 12.50"
            } else {
                "a price is at most 1000000000.00"
            };
            fail(line, format!("`{}` is not a price ({why})", quoted(&price)))
        })?;
        let money = currency_of(&money).ok_or_else(|| {
            fail(
                line,
                format!(
                    "`{}` is not a currency (write its code, such as EUR or USD, or its sign, at most {MAX_CURRENCY_CHARS} characters)",
                    quoted(&money)
                ),
            )
        })?;
        match &currency {
            None => currency = Some(money),
            Some(first) if *first == money => {}
            Some(first) => {
                return Err(fail(
                    line,
                    format!(
                        "the price is in {money}, the file's first in {first}; a price file gives one currency"
                    ),
                ));
            }
        }
        if list.len() < line {
            list.resize(line, String::new());
        }
        let number = number.split('/').next().unwrap_or("").to_string();
        let written = ["1".to_string(), card, set, number]
            .into_iter()
            .map(|part| {
                part.chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect::<String>()
            })
            .filter(|part| !part.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(slot) = list.get_mut(line - 1) {
            *slot = written;
        }
        priced.push((line, cents));
    }
    input.text = list.join("\n") + "\n";
    let checked = crate::check::identify_only(&input, db, format);
    let by_line: std::collections::HashMap<usize, PrintingId> = checked
        .cards
        .iter()
        .filter_map(|card| Some((card.line.line, card.printing?)))
        .collect();
    let rows: Vec<Price> = priced
        .into_iter()
        .filter_map(|(line, cents)| {
            Some(Price {
                printing: *by_line.get(&line)?,
                cents,
                line,
            })
        })
        .collect();
    // A printing priced twice at two prices: which one is meant is the file's to say, not
    // a guess (the first, or the cheaper, would be counted silently).
    let mut first: std::collections::HashMap<PrintingId, &Price> = std::collections::HashMap::new();
    for row in &rows {
        match first.get(&row.printing) {
            Some(before) if before.cents != row.cents => {
                let card = db
                    .get(row.printing)
                    .map(|p| format!("the printing {} {}", p.set_code, p.number))
                    .unwrap_or_default();
                return Err(fail(
                    row.line,
                    format!(
                        "{} is priced on line {} already, at another price; a printing has one price",
                        crate::util::escape::visible_line(&card),
                        before.line
                    ),
                ));
            }
            Some(_) => {}
            None => {
                first.insert(row.printing, row);
            }
        }
    }
    Ok(Prices {
        currency: currency.unwrap_or_default(),
        rows,
        checked,
    })
}

#[cfg(test)]
mod tests {
    use super::cents;

    #[test]
    fn prices_as_written() {
        assert_eq!(cents("12.50"), Some(1250));
        assert_eq!(cents("12.5"), Some(1250));
        assert_eq!(cents("0.07"), Some(7));
        assert_eq!(cents("3"), Some(300));
        assert_eq!(cents("$3"), None);
        assert_eq!(cents("1.005"), None);
        assert_eq!(cents("-1"), None);
        assert_eq!(cents(""), None);
        assert_eq!(cents("99999999999999999999"), None);
        assert_eq!(cents("1000000000.00"), Some(super::MAX_PRICE_CENTS));
        assert_eq!(cents("1000000000.01"), None);
    }

    #[test]
    fn currencies_as_written() {
        use super::currency_of as currency;
        assert_eq!(currency("eur").as_deref(), Some("EUR"));
        assert_eq!(currency("€").as_deref(), Some("€"));
        assert_eq!(currency("R$").as_deref(), Some("R$"));
        assert_eq!(currency(""), None);
        assert_eq!(currency("EUR\u{1b}]0;x\u{7}"), None);
        assert_eq!(currency("[EUR](http://x)"), None);
        assert_eq!(currency("EUROSDOLLARS"), None);
    }
}
