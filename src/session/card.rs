//! `deckbox card`: a card looked up by name or by set code and number, with every printing
//! and its legality in each listed format.

use jiff::civil::Date;

use crate::cards::CardDb;
use crate::cards::identification::lookup;
use crate::cards::storage::embedded;
use crate::error::Error;
use crate::formats::{Format, FormatError};
use crate::names::lang::Language;
use crate::render::card::CardReport;

/// What `deckbox card` found.
pub struct CardPage {
    pub report: CardReport,
    /// When nothing matched: what the card data covers.
    pub coverage: Option<String>,
}

/// Every printing `query` names in `db`, with its legality in each listed format at `as_of`
/// (today without one; formats that did not exist then are left out) and its text in
/// `language`.
pub fn card(
    db: &CardDb,
    query: &str,
    as_of: Option<Date>,
    language: Language,
) -> Result<CardPage, Error> {
    let mut formats: Vec<Format> = Vec::new();
    for id in Format::listed_ids() {
        match Format::load_at(id, as_of) {
            Ok(format) => formats.push(format),
            Err(FormatError::BeforeFirstSeason { .. }) => {}
            Err(error) => return Err(error.into()),
        }
    }
    let found = lookup::lookup(db, query);
    let report = CardReport::new(query, &found, db, &formats, language);
    let coverage = if report.cards.is_empty() {
        embedded::coverage_hint(db)
    } else {
        None
    };
    Ok(CardPage { report, coverage })
}
