//! The card index compiled into the binary: every card of the TCGdex database's
//! international prints, from `cards/index.bin` (see [`super::committed_index`]).
//!
//! It is deckbox's default card source: no clone, no network, no setup. `--cards` replaces
//! it with a user's own checkout (a fresher TCGdex clone, or pokemon-tcg-data). Opening it
//! copies the tables out of the embedded bytes; printings are decoded when a lookup asks
//! for them. This module must not read the disk or know about deck lists.

use super::committed_index;
use crate::cards::database::CardDb;
use crate::cards::model::Source;
use crate::cards::sources::CardDbError;

/// The generated binary index (`cargo xtask cards` writes it; never edited by hand).
static INDEX: &[u8] = include_bytes!("../../../cards/index.bin");

/// What each printing says beyond the rules' facts (`cargo xtask cards` writes it too), in
/// the index's printing order; decoded only when [`CardDb::details`] is first asked. Left
/// out without the `card-texts` feature: [`add_texts`] adds them later.
#[cfg(feature = "card-texts")]
static DETAILS: &[u8] = include_bytes!("../../../cards/details.bin");

/// What `search` tests of each printing (`cargo xtask cards` writes it too, see
/// [`crate::cards::database::columns`]), in the index's printing order.
static COLUMNS: &[u8] = include_bytes!("../../../cards/columns.bin");

/// The word index of the card texts (`cargo xtask cards` writes it from them, see
/// [`crate::cards::database::words`]): what `text:`, `attack:` and `ability:` read first.
#[cfg(feature = "card-texts")]
static WORDS: &[u8] = include_bytes!("../../../cards/words.bin");

/// Opens the embedded index.
pub fn open() -> Result<CardDb, CardDbError> {
    let db = committed_index::db_from_static_bin(INDEX, Source::Embedded).ok_or_else(|| CardDbError::Invalid {
        path: "cards/index.bin".into(),
        message: "the embedded card index is damaged or from another version: regenerate it with `cargo xtask cards`".into(),
    })?;
    #[cfg(feature = "card-texts")]
    let db = db.with_encoded_details(DETAILS).with_encoded_words(WORDS);
    Ok(db.with_encoded_columns(COLUMNS))
}

/// `db` (the embedded index) with the card texts `texts` (the bytes of `cards/details.bin`),
/// for a build without the `card-texts` feature that fetches them when first needed. Refused
/// when they do not describe the index's printings (a file from another index).
pub fn add_texts(db: &mut CardDb, texts: &'static [u8]) -> Result<(), CardDbError> {
    if crate::cards::database::details_encoding::count(texts) != Some(db.len()) {
        return Err(CardDbError::Invalid {
            path: "cards/details.bin".into(),
            message: "these card texts are not the embedded index's: rebuild both from the same `cargo xtask cards`".into(),
        });
    }
    let taken = std::mem::replace(db, CardDb::new(Source::Embedded, Vec::new()));
    *db = taken.with_encoded_details(texts);
    Ok(())
}

/// What a user should know when the embedded index does not hold a card: which sets it
/// covers, and how to get newer cards. The same for an updated index; `None` for a checkout.
pub fn coverage_hint(db: &CardDb) -> Option<String> {
    let which = match db.source() {
        Source::Embedded => "embedded",
        Source::Updated(_) => "updated",
        Source::Tcgdex(_) | Source::PokemonTcg(_) => return None,
    };
    // The index is sorted by release date: its last printing is from the newest set.
    let newest = db
        .len()
        .checked_sub(1)
        .and_then(|last| db.get(u32::try_from(last).ok()?))?;
    Some(format!(
        "the {which} card index holds every card released up to {} ({}); for a newer card run `deckbox cards update` (or use `--cards DIR` with a current TCGdex checkout)",
        newest.set_code, newest.release_date
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A written number loses the set's total (`185/193` is `185`, `cards::number_key`):
    /// no printing's own number may carry one, or it could not be found.
    #[test]
    fn no_collector_number_carries_a_set_total() {
        let db = open().unwrap();
        let with_total: Vec<String> = (db.iter())
            .filter(|(_, printing)| printing.number.contains('/'))
            .map(|(_, printing)| printing.printing_label())
            .collect();
        assert_eq!(with_total, Vec::<String>::new());
    }

    /// The embedded index is read in place and checked less at start-up than a file read
    /// (its columns row by row, its set-number table only when first asked for, its record
    /// ends and name table's offsets, keys and values not value by value): the checks a file
    /// gets hold here (the copy written and read back as a file is read, checked),
    /// every record decodes (so the record ends are in order), and every printing is found
    /// by its set and number.
    #[test]
    fn read_in_place_passes_the_checks_of_a_file() {
        let db = open().unwrap();
        assert!(db.columns().valid(), "cards/columns.bin");
        assert_eq!(db.iter().count(), db.len(), "every record decodes");
        let mut looked_up = 0;
        for (id, printing) in db.iter() {
            let code = match printing.set_code.as_str() {
                "" => continue,
                code => code,
            };
            assert!(
                db.by_set_number(code, &printing.number).contains(&id),
                "{}",
                printing.printing_label()
            );
            looked_up += 1;
        }
        assert!(looked_up > 20_000, "{looked_up}");
        let mut bytes = Vec::new();
        db.encode(&mut bytes, false).unwrap();
        let copied = CardDb::decode(Source::Embedded, bytes, 0).unwrap();
        assert_eq!(
            copied.by_set_number("TWM", "128"),
            db.by_set_number("TWM", "128")
        );
        assert_eq!(copied.by_name("dreepy"), db.by_name("dreepy"));
    }

    #[test]
    fn opens_and_names_its_newest_set() {
        let db = open().unwrap();
        assert!(db.len() > 20_000, "{} printings", db.len());
        let hint = coverage_hint(&db).unwrap();
        assert!(hint.contains("up to PBL (2026-07-17)"), "{hint}");
        #[cfg(feature = "card-texts")]
        assert_eq!(
            db.all_details().len(),
            db.len(),
            "cards/details.bin fits the index"
        );
    }

    /// Texts added afterwards are those the `card-texts` build embeds; texts of another
    /// index are refused.
    #[test]
    fn texts_added_later_are_the_embedded_ones() {
        static TEXTS: &[u8] = include_bytes!("../../../cards/details.bin");
        let mut db = open().unwrap();
        add_texts(&mut db, TEXTS).unwrap();
        assert_eq!(db.all_details().len(), db.len());
        let dreepy = db.by_name("dreepy")[0].id;
        assert!(db.details(dreepy).is_some_and(|d| !d.attacks.is_empty()));
        assert!(add_texts(&mut db, &TEXTS[..TEXTS.len() / 2]).is_err());
        let mut other = crate::cards::database::CardDb::new(Source::Embedded, Vec::new());
        assert!(add_texts(&mut other, TEXTS).is_err());
    }
}

#[cfg(test)]
mod measure {
    /// Run with `cargo test --release --lib cards::storage::embedded::measure -- --ignored
    /// --nocapture`: what the first [`crate::cards::database::CardDb::details`] costs
    /// (docs/performance.md).
    #[test]
    #[ignore = "a measurement, not a check"]
    #[allow(clippy::print_stderr, reason = "prints the measurement")]
    fn decoding_every_printings_details() {
        for _ in 0..5 {
            let db = super::open().unwrap();
            let start = std::time::Instant::now();
            let count = db.all_details().len();
            eprintln!("{count} details decoded in {:.2?}", start.elapsed());
        }
    }
}
