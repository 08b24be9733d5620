//! [`compile`] turns a parsed query into a [`Filter`] (each value prepared for the
//! database: text folded, formats loaded, names and printings resolved) that
//! [`Filter::matching`] runs over every printing of a database, with the tests of
//! [`super::keys::KEYS`].
//!
//! Legality is the format's own judgement ([`crate::formats::legality::judge`], with its
//! reprint rule and bans), never a second reading of the pool. Names are folded as
//! [`crate::names::fold`] folds them (case, accents, apostrophes), in all six languages.

use jiff::civil::Date;

use super::keys::{Key, Needle, Op, Related, Seen, State, Test};
use super::mask::Mask;
use super::query::{Expr, SearchError, Term, Value, Word};
use crate::cards::database::columns::Field;
use crate::cards::identification::lookup::{self, Lookup, MatchedBy};
use crate::cards::{CardDb, PrintingId};
use crate::formats::Format;

/// A compiled query: each term's value prepared for the database (text folded, formats
/// loaded at their dates, names and printings resolved).
pub enum Filter {
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Not(Box<Filter>),
    /// Printings a set code and number or a TCGdex id named.
    Ids(Vec<PrintingId>),
    Name(Needle),
    Key(&'static Key, Prepared),
}

/// A keyed term's value, ready to test.
pub enum Prepared {
    Text(Needle),
    Card(Related),
    Number(Op, u32),
    Date(Op, Date),
    Choice(&'static str),
    Format(Box<Format>),
}

/// Prepares a parsed query for `db`.
pub fn compile(db: &CardDb, expr: &Expr, state: &State) -> Result<Filter, SearchError> {
    Ok(match expr {
        Expr::And(parts) => Filter::And(compile_all(db, parts, state)?),
        Expr::Or(parts) => Filter::Or(compile_all(db, parts, state)?),
        Expr::Not(inner) => Filter::Not(Box::new(compile(db, inner, state)?)),
        Expr::Words(words) => words_filter(db, words),
        Expr::Term(term) => Filter::Key(term.key, prepare(db, term)?),
    })
}

fn compile_all(db: &CardDb, parts: &[Expr], state: &State) -> Result<Vec<Filter>, SearchError> {
    parts.iter().map(|part| compile(db, part, state)).collect()
}

/// Consecutive words: `TWM 128` and `sv06-128` name printings as `deckbox card` reads
/// them; every other word or phrase is a name to find.
fn words_filter(db: &CardDb, words: &[Word]) -> Filter {
    let mut parts = Vec::new();
    let mut index = 0;
    while let Some(word) = words.get(index) {
        let next = words
            .get(index + 1)
            .filter(|next| !word.quoted && !next.quoted);
        if let Some(next) = next
            && looks_like_code(&word.text)
            && next.text.contains(|c: char| c.is_ascii_digit())
            && let Some(ids) = printings(
                db,
                &format!("{} {}", word.text, next.text),
                MatchedBy::SetNumber,
            )
        {
            parts.push(Filter::Ids(ids));
            index += 2;
            continue;
        }
        let id_like = !word.quoted
            && word.text.contains('-')
            && word.text.contains(|c: char| c.is_ascii_digit());
        match id_like
            .then(|| printings(db, &word.text, MatchedBy::SetId))
            .flatten()
        {
            Some(ids) => parts.push(Filter::Ids(ids)),
            None => parts.push(Filter::Name(Needle::name(&word.text, !word.quoted))),
        }
        index += 1;
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Filter::And(parts)
    }
}

/// A set code as deck lists write it: letters, digits and `-`, short.
fn looks_like_code(word: &str) -> bool {
    word.len() <= 8 && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// The printings `deckbox card QUERY` names itself, when it reads `query` as `by`.
fn printings(db: &CardDb, query: &str, by: MatchedBy) -> Option<Vec<PrintingId>> {
    match lookup::lookup(db, query) {
        Lookup::Found { by: found, cards } if found == by => {
            Some(cards.into_iter().flat_map(|card| card.matched).collect())
        }
        _ => None,
    }
}

fn prepare(db: &CardDb, term: &Term) -> Result<Prepared, SearchError> {
    Ok(match (&term.value, term.key.test) {
        (Value::Text(text), Test::CardField(..)) => Prepared::Card(related(db, &Needle::new(text))),
        (Value::Text(text), _) if term.key.name == "name" => {
            Prepared::Text(Needle::name(text, !term.quoted))
        }
        (Value::Text(text), _) => Prepared::Text(Needle::new(text)),
        (Value::Choice(choice), _) => Prepared::Choice(choice),
        (Value::Number(number), _) => Prepared::Number(term.op, *number),
        (Value::Date(date), _) => Prepared::Date(term.op, *date),
        (Value::Format { id, date }, _) => {
            let format = Format::load_at(id, *date)
                .map_err(|error| SearchError::new(error.to_string(), term.span))?;
            Prepared::Format(Box::new(format))
        }
    })
}

/// The cards whose name holds `needle`, and what they evolve from, read from their rows.
fn related(db: &CardDb, needle: &Needle) -> Related {
    let mut related = Related::default();
    let columns = db.columns();
    for hit in needle.name_hits(db) {
        let Some(row) = columns.row(hit.id) else {
            continue;
        };
        related.cards.push(row.card);
        related.from.extend(row.evolves);
    }
    for ids in [&mut related.cards, &mut related.from] {
        ids.sort_unstable();
        ids.dedup();
    }
    related
}

impl Filter {
    /// How costly the filter is to run over one printing (0 cheapest).
    fn cost(&self) -> u8 {
        match self {
            Filter::Ids(_) => 0,
            Filter::Name(_) => 0,
            Filter::Key(key, _) => key.cost,
            Filter::Not(inner) => inner.cost(),
            Filter::And(parts) | Filter::Or(parts) => {
                parts.iter().map(Filter::cost).max().unwrap_or(0)
            }
        }
    }

    /// Which of the printings kept in `within` pass: a mask of the same length.
    pub fn matching(&self, state: &State, within: &Mask) -> Mask {
        match self {
            Filter::And(parts) => {
                let mut order: Vec<&Filter> = parts.iter().collect();
                order.sort_by_key(|part| part.cost());
                let mut mask = within.clone();
                for part in order {
                    mask = part.matching(state, &mask);
                }
                mask
            }
            Filter::Or(parts) => {
                let mut mask = Mask::none(within.len());
                for part in parts {
                    let mut left = within.clone();
                    left.and_not(&mask);
                    mask.or(&part.matching(state, &left));
                }
                mask
            }
            Filter::Not(inner) => {
                let mut mask = within.clone();
                mask.and_not(&inner.matching(state, within));
                mask
            }
            Filter::Ids(ids) => {
                let mut mask = Mask::none(within.len());
                for index in ids.iter().filter_map(|&id| usize::try_from(id).ok()) {
                    if within.get(index) {
                        mask.set(index);
                    }
                }
                mask
            }
            Filter::Name(needle) => {
                let mut mask = within.clone();
                mask.and(state.names_holding(needle));
                mask
            }
            Filter::Key(key, Prepared::Format(format)) => match key.test {
                // Legality is judged over the whole mask: once per card, not per printing.
                Test::Format(test) => Mask::from_bools(&test(format, state.db, &within.to_bools())),
                _ => Mask::none(within.len()),
            },
            Filter::Key(key, prepared) => {
                // A text key the word index answers is one mask for every printing, computed
                // once: nothing is left to test a printing at a time.
                if let (Test::Texts(parts), Prepared::Text(needle)) = (key.test, prepared)
                    && let Some(found) = needle.indexed(state.db, parts)
                {
                    let mut mask = within.clone();
                    mask.and(found);
                    return mask;
                }
                // A test of one field reads that field of each printing kept where its record
                // is, and the row only of those that pass (a record that does not decode
                // passes nothing): what `passes` answers, without decoding every row.
                let columns = state.db.columns();
                let field_test = |index: usize, field, test: &dyn Fn(u32) -> bool| {
                    columns.field(index, field).is_some_and(test)
                        && PrintingId::try_from(index).is_ok_and(|id| columns.row(id).is_some())
                };
                match (key.test, prepared) {
                    // The printings of an edition are the runs the columns list for it: the
                    // editions that pass are tested, and their printings read from the runs
                    // (which hold only printings whose record decodes), no row.
                    (Test::TextField(Field::Edition, test), Prepared::Text(needle)) => {
                        let mut mask = Mask::none(within.len());
                        for edition in 0..columns.editions().len() {
                            if u32::try_from(edition).is_ok_and(|e| test(columns, needle, e)) {
                                columns
                                    .edition_rows(edition)
                                    .for_each(|run| mask.set_range(run));
                            }
                        }
                        mask.and(within);
                        return mask;
                    }
                    (Test::TextField(field, test), Prepared::Text(needle)) => {
                        return within.filter(|index| {
                            field_test(index, field, &|value| test(columns, needle, value))
                        });
                    }
                    (Test::CardField(field, ids), Prepared::Card(related)) => {
                        let ids = ids(related);
                        // An indexed field's printings are listed by value: the few ids
                        // given are looked up, no row read.
                        let mut mask = Mask::none(within.len());
                        for &id in ids {
                            let Some(rows) = columns.rows_where(field, id) else {
                                let test = |value| ids.binary_search(&value).is_ok();
                                return within.filter(|index| field_test(index, field, &test));
                            };
                            rows.for_each(|index| mask.set(index));
                        }
                        mask.and(within);
                        return mask;
                    }
                    _ => {}
                }
                let test = |index: usize| self.passes(state, index);
                // A test of a printing's row costs nanoseconds: threads would cost more than
                // they save. One that decodes printings or folds texts runs on every
                // processor.
                if key.cost <= 1 {
                    within.filter(test)
                } else {
                    within.par_filter(test)
                }
            }
        }
    }

    /// Whether printing `index` passes this term.
    fn passes(&self, state: &State, index: usize) -> bool {
        let Some(id) = PrintingId::try_from(index).ok() else {
            return false;
        };
        let columns = state.db.columns();
        let Some(row) = columns.row(id) else {
            return false;
        };
        let seen = Seen {
            id,
            row,
            columns,
            state,
        };
        match (self,) {
            (Filter::Name(needle),) => state.names_hold(id, needle),
            (Filter::Key(key, prepared),) => match (key.test, prepared) {
                (Test::Text(test), Prepared::Text(needle)) => test(&seen, needle),
                (Test::Texts(parts), Prepared::Text(needle)) => seen.texts_hold(parts, needle),
                (Test::TextField(field, test), Prepared::Text(needle)) => row
                    .get(field)
                    .is_some_and(|value| test(columns, needle, value)),
                (Test::CardField(field, ids), Prepared::Card(related)) => row
                    .get(field)
                    .is_some_and(|value| ids(related).binary_search(&value).is_ok()),
                (Test::Number(test), Prepared::Number(op, n)) => test(&seen, *op, *n),
                (Test::Date(test), Prepared::Date(op, date)) => test(&seen, *op, *date),
                (Test::Choice(test), Prepared::Choice(choice)) => test(&seen, choice),
                // The parser gives each key the value its kind takes.
                _ => false,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query;

    /// A key that tests one field of the row (`set:`, `number:`, `evolves:`, `into:`) reads
    /// that field in place for every printing; it finds what decoding each printing's row
    /// and testing it (`Filter::passes`, the path every other key takes) finds, over every
    /// printing of the embedded index: set codes and ids of every kind (promos, subsets,
    /// sets without a code), numbers with letters, names with accents, values that name
    /// nothing, and inside `and`, `or` and `not`.
    #[test]
    fn field_keys_find_what_decoded_rows_find() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let state = State::new(&db);
        let every = Mask::all(db.len());
        let queries = [
            "set:TWM",
            "set:twm",
            "set:sv06",
            "set:PR-SV",
            "set:svp",
            "set:SHF",
            "set:CRZ-GG",
            "set:swsh12.5",
            "set:2019sm-fr",
            "set:TWN",
            "number:128",
            "number:0128",
            "number:128/167",
            "number:TG12",
            "number:tg12",
            "number:SV107",
            "number:RC5",
            "number:GG59",
            "number:999999",
            "evolves:Dreepy",
            "evolves:pikachu",
            "evolves:\"Flabébé\"",
            "evolves:Fantyrm",
            "evolves:nothing-named-so",
            "into:Drakloak",
            "into:raichu",
            "into:Dragapult",
            "into:Florges",
            "into:Dispareptil",
        ];
        let mut found = 0;
        for written in queries {
            let filter = compile(&db, &query::parse(written).unwrap(), &state).unwrap();
            assert!(
                matches!(
                    &filter,
                    Filter::Key(key, _) if matches!(key.test, Test::TextField(..) | Test::CardField(..))
                ),
                "{written} tests a field"
            );
            let in_place = filter.matching(&state, &every);
            let decoded = every.filter(|index| filter.passes(&state, index));
            assert_eq!(in_place, decoded, "{written}");
            found += in_place.ones().count();
        }
        assert!(found > 1_000, "{found}");
        for written in [
            "set:TWM number:128",
            "set:TWM -number:128",
            "set:SHF number:SV107",
            "set:swsh12 number:TG12",
            "set:TWM or evolves:Dreepy",
            "-into:Drakloak kind:pokemon",
        ] {
            let with_fields = crate::search::search(&db, written).unwrap();
            let expr = query::parse(written).unwrap();
            let compiled = compile(&db, &expr, &state).unwrap();
            let by_rows = |index: usize| decoded_passes(&compiled, &state, index);
            let decoded: Vec<PrintingId> = (0..db.len())
                .filter(|&index| by_rows(index))
                .map(|index| PrintingId::try_from(index).unwrap())
                .collect();
            assert_eq!(with_fields, decoded, "{written}");
        }
    }

    /// `set:` reads a set's printings from its editions' runs, `evolves:` and `into:` a
    /// card's from the field's index: over every printing of the embedded index, each
    /// edition's runs hold the printings whose decoded row is of that edition, each id's
    /// lists (rules name, what it evolves from) the printings whose row holds it, and
    /// `set:` with every set id and set code finds what testing each decoded row finds.
    #[test]
    fn set_runs_and_evolution_indexes_find_what_a_scan_finds() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let columns = db.columns();
        let rows: Vec<Option<crate::cards::database::columns::Row>> = (0..db.len())
            .map(|index| columns.row(PrintingId::try_from(index).unwrap()))
            .collect();
        let scan = |field: Field, value: usize| -> Vec<usize> {
            (rows.iter().enumerate())
                .filter(|(_, row)| row.is_some_and(|row| row.get(field) == Some(value as u32)))
                .map(|(index, _)| index)
                .collect()
        };
        let editions = columns.editions();
        assert!(editions.len() > 200, "{}", editions.len());
        for edition in 0..editions.len() {
            let from_runs: Vec<usize> = columns.edition_rows(edition).flatten().collect();
            assert_eq!(
                from_runs,
                scan(Field::Edition, edition),
                "edition {edition}"
            );
        }
        let names = columns.names().len();
        for field in [Field::Card, Field::Evolves] {
            let mut listed = 0;
            for value in 0..names {
                let from_index: Vec<usize> =
                    (columns.rows_where(field, value as u32).unwrap()).collect();
                assert_eq!(from_index, scan(field, value), "{field:?} {value}");
                listed += from_index.len();
            }
            let having = rows.iter().flatten().filter(|row| row.get(field).is_some());
            assert_eq!(listed, having.count(), "{field:?}");
            assert!(listed > 7_000, "{field:?} {listed}");
        }
        let state = State::new(&db);
        let every = Mask::all(db.len());
        let pool = columns.names();
        let mut written: Vec<&str> = editions
            .iter()
            .flat_map(|e| [pool.get(e.set_id), pool.get(e.set_code)])
            .filter(|set| !set.is_empty() && !set.contains([' ', '"', '(', ')', ':']))
            .collect();
        written.sort_unstable();
        written.dedup();
        assert!(written.len() > 300, "{}", written.len());
        for set in written {
            let expr = query::parse(&format!("set:{set}")).unwrap();
            let filter = compile(&db, &expr, &state).unwrap();
            let from_runs = filter.matching(&state, &every);
            let decoded = every.filter(|index| filter.passes(&state, index));
            assert_eq!(from_runs, decoded, "set:{set}");
            assert!(from_runs.ones().next().is_some(), "set:{set}");
        }
    }

    /// Whether printing `index` passes `filter`, every term tested on its decoded row.
    fn decoded_passes(filter: &Filter, state: &State, index: usize) -> bool {
        match filter {
            Filter::And(parts) => parts.iter().all(|part| decoded_passes(part, state, index)),
            Filter::Or(parts) => parts.iter().any(|part| decoded_passes(part, state, index)),
            Filter::Not(inner) => !decoded_passes(inner, state, index),
            Filter::Ids(ids) => ids.iter().any(|&id| usize::try_from(id) == Ok(index)),
            Filter::Key(_, _) | Filter::Name(_) => filter.passes(state, index),
        }
    }
}
