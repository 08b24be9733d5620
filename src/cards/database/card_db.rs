//! [`CardDb`]: printings and their two indexes (set code + number, name key), in one
//! representation whether built in memory or read back from the cache.
//!
//! Both indexes are [`KeyTable`]s. Printings are kept as individually encoded `postcard`
//! records and decoded on first access, so a warm open from the cache decodes only the
//! cards a deck names; a database built in memory starts with every printing decoded.
//! This module must not read or write files (see [`crate::cards::storage`]) nor know about deck
//! lists: it answers questions about cards.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::util::memo::Memo;

use super::cells::Cells;
use super::columns::Columns;
use super::details_encoding::{self, TextParts};
use super::key_table::{self, KeyTable, Reader, U32s};
use super::name_sketch::NameSketch;
use super::words::{WordIndex, Words};
use crate::cards::model::details::Details;
use crate::cards::model::{
    DbSlot, Printing, PrintingId, PrintingView, Source, number_key, split_subset,
};
use crate::names;
use crate::names::lang::Language;

/// Name-index values pack the printing id above the language index (3 bits: 6 languages).
const LANGUAGE_BITS: u32 = 3;

/// A loaded, indexed card database.
#[derive(Debug)]
pub struct CardDb {
    source: Source,
    /// A number no other database of this process has, for the printings' [`DbSlot`]s.
    instance: u64,
    /// One cell per printing, filled on first access from `records` (`None`: the record
    /// does not decode, which only a damaged cache file can cause); allocated a chunk at a
    /// time, when first read.
    printings: Cells<Option<Box<Printing>>>,
    records: Records,
    /// `"CODE\0NUMBER"` (see [`set_number_key`]) → printing ids; for a printing whose set
    /// has no printed code, `"set-id\0NUMBER"` (ids are lower case, codes upper case).
    /// Filled when the database is built or read, except for the embedded index: read from
    /// `by_printing_at` the first time a printing is looked up by set and number (a search
    /// never is).
    by_printing: OnceLock<KeyTable>,
    by_printing_at: Option<(&'static [u8], usize)>,
    /// [`names::lookup_key`] of every name in every language → `id << 3 | language`. Read in
    /// place from the embedded index ([`KeyTable::decode_static`]).
    by_name: KeyTable,
    /// Names already asked for, with the `by_name` row of their lookup key: a repository
    /// check asks for the same card names deck after deck, and a key costs a full name
    /// normalization and a search.
    keys: KeyMemo<Option<usize>>,
    /// The same for set codes and numbers as written (`PR-SV 12` → the row of `SVP\012` in
    /// `by_printing`).
    printing_keys: KeyMemo<Option<usize>>,
    /// The languages each name asked for is written in, a bit per [`Language::index`]: a
    /// list's language is voted by its names, and a common name matches hundreds of
    /// printings.
    languages: KeyMemo<u8>,
    /// Suggestions already searched for an unknown name (a typo is often copied from deck
    /// to deck).
    suggested: KeyMemo<Vec<String>>,
    /// One sketch per [`CardDb::name_keys`] entry, built for the first suggestion search.
    sketches: OnceLock<Vec<(u32, NameSketch)>>,
    /// Set id → printed set code, built the first time a line names a set by its id.
    set_codes: OnceLock<HashMap<String, String>>,
    /// What each printing says beyond the rules' facts (see [`Details`]), by printing id:
    /// decoded on first access, never by a `check`.
    details: DetailsStore,
    /// What `search`'s keys test, a row a printing ([`Columns`]): read from the embedded
    /// `cards/columns.bin`, else built from the printings and details when first asked.
    columns: OnceLock<Columns>,
    encoded_columns: EncodedColumns,
    /// The word index of the texts ([`super::words`]): where its bytes are, and its frame once
    /// read (`None`: absent, damaged, or not this database's texts).
    encoded_words: EncodedColumns,
    words: OnceLock<Option<Words>>,
}

/// Where a database's encoded [`Columns`] are, if it has them.
#[derive(Debug, Clone)]
enum EncodedColumns {
    None,
    /// The embedded `cards/columns.bin`.
    Static(&'static [u8]),
    /// This range of the bytes the records are read from (a `--cards` cache, an index
    /// `deckbox cards update` installed).
    InRecords(std::ops::Range<usize>),
}

/// Every printing's [`Details`], kept encoded ([`details_encoding`]) until first asked for.
#[derive(Debug, Default)]
struct DetailsStore {
    decoded: OnceLock<Decoded>,
    encoded: EncodedDetails,
}

/// The details as far as they have been read.
#[derive(Debug)]
enum Decoded {
    /// Given whole ([`CardDb::with_details`]).
    Built(Vec<Details>),
    /// Opened from their encoding; a printing's are built the first time it is asked for,
    /// so showing one card or testing a few printings never builds them all.
    Opened {
        opened: Box<details_encoding::Opened>,
        /// Boxed: an empty cell is two words, so asking for one printing's details writes
        /// 0.3 MB of cells for 21,000 printings, not the 12 MB of `Details` in place; made
        /// when a printing's details are first asked for, not for a text search.
        cells: OnceLock<Vec<DetailsCell>>,
        /// Each printing's details without their texts ([`CardDb::facts`]).
        facts: OnceLock<Vec<DetailsCell>>,
    },
    /// The source gives none, or the encoded details do not decode.
    None,
}

/// One printing's details once built ([`Decoded::Opened`]).
type DetailsCell = OnceLock<Option<Box<Details>>>;

#[derive(Debug, Default, Clone)]
enum EncodedDetails {
    #[default]
    None,
    /// Compiled into the binary (`cards/details.bin`).
    Static(&'static [u8]),
    /// A range of [`Records::bytes`] (the `--cards` cache).
    InRecords(std::ops::Range<usize>),
}

/// A text [`CardDb::texts`] visits: an id in a language's table of distinct texts (read it
/// with [`CardDb::table_text`]; a reprint's texts share ids), or the text itself when the
/// database was given its details whole.
#[derive(Debug, Clone, Copy)]
pub enum TextRef<'a> {
    Table { lang: Language, id: u32 },
    Inline { lang: Language, text: &'a str },
}

/// [`CardDb::texts`] over details given whole.
fn built_texts(
    details: &Details,
    parts: TextParts,
    visit: &mut dyn FnMut(TextRef<'_>) -> bool,
) -> bool {
    let mut each = |texts: &crate::cards::model::details::Texts| {
        texts
            .iter()
            .any(|(lang, text)| visit(TextRef::Inline { lang, text }))
    };
    (parts.effect && each(&details.effect))
        || details.attacks.iter().any(|attack| {
            (parts.attack_names && each(&attack.name)) || (parts.attack_texts && each(&attack.text))
        })
        || details.abilities.iter().any(|ability| {
            (parts.ability_names && each(&ability.name))
                || (parts.ability_texts && each(&ability.text))
        })
}

/// Written text → what it maps to (an index key, suggestions), shared by the threads of a
/// check.
type KeyMemo<V = String> = Memo<String, V>;

/// A number for a new database, unique in the process (from 1: 0 is "no database").
fn next_instance() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A printing found by name, and the language whose name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameMatch {
    pub id: PrintingId,
    pub language: Language,
}

/// What a [`CardDb`] holds besides its memos: its printings (decoded, or cells filled
/// from `records` on first access), its two indexes, and where its details and search
/// columns are.
struct Parts {
    printings: Cells<Option<Box<Printing>>>,
    records: Records,
    by_printing: OnceLock<KeyTable>,
    by_printing_at: Option<(&'static [u8], usize)>,
    by_name: KeyTable,
    details: DetailsStore,
    encoded_columns: EncodedColumns,
}

/// Encoded printings: record `i` is `bytes[start + ends[i - 1]..start + ends[i]]`. Empty
/// for a database built in memory, whose printings are decoded from the start.
#[derive(Default)]
struct Records {
    /// Borrowed for the embedded index (never copied), owned for a file read.
    bytes: std::borrow::Cow<'static, [u8]>,
    start: usize,
    /// Read in place from the embedded index, copied from a file.
    ends: U32s,
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Records({} bytes)", self.bytes.len())
    }
}

impl Records {
    fn raw(&self, i: usize) -> Option<&[u8]> {
        let range = key_table::span_of(self.ends.all(), i)?;
        self.bytes
            .get(self.start.checked_add(range.start)?..self.start.checked_add(range.end)?)
    }

    fn decode(&self, i: usize) -> Option<Box<Printing>> {
        postcard::from_bytes(self.raw(i)?).ok().map(Box::new)
    }
}

impl CardDb {
    /// Builds the indexes over `printings`.
    pub fn new(source: Source, printings: Vec<Printing>) -> CardDb {
        let by_printing = set_number_table(&printings);
        let by_name = name_table(&printings);
        let instance = next_instance();
        let printings = Cells::filled(
            (0..)
                .zip(printings)
                .map(|(id, mut printing)| {
                    printing.slot = DbSlot::new(instance, id);
                    Some(Box::new(printing))
                })
                .collect(),
        );
        let parts = Parts {
            printings,
            records: Records::default(),
            by_printing: OnceLock::from(by_printing),
            by_printing_at: None,
            by_name,
            details: DetailsStore::default(),
            encoded_columns: EncodedColumns::None,
        };
        CardDb::from_parts(source, instance, parts)
    }

    /// The one constructor every database goes through ([`CardDb::new`] builds the parts in
    /// memory, [`CardDb::decode`] reads them from bytes): the parts, with every memo empty.
    /// `instance` is the [`next_instance`] the printings' slots name.
    fn from_parts(source: Source, instance: u64, parts: Parts) -> CardDb {
        let Parts {
            printings,
            records,
            by_printing,
            by_printing_at,
            by_name,
            details,
            encoded_columns,
        } = parts;
        CardDb {
            source,
            instance,
            printings,
            records,
            by_printing,
            by_printing_at,
            by_name,
            keys: KeyMemo::default(),
            printing_keys: KeyMemo::default(),
            languages: KeyMemo::default(),
            suggested: KeyMemo::default(),
            sketches: OnceLock::new(),
            set_codes: OnceLock::new(),
            details,
            columns: OnceLock::new(),
            encoded_columns,
            encoded_words: EncodedColumns::None,
            words: OnceLock::new(),
        }
    }

    /// The database with `details[i]` as what printing `i` says beyond the rules' facts.
    pub fn with_details(mut self, details: Vec<Details>) -> CardDb {
        self.details = DetailsStore {
            decoded: OnceLock::from(Decoded::Built(details)),
            encoded: EncodedDetails::None,
        };
        self
    }

    /// The database with the details encoded in `bytes` (see [`details_encoding`]), decoded
    /// when first asked for. Left without details when their header does not say they
    /// describe as many printings as the database holds.
    pub(crate) fn with_encoded_details(mut self, bytes: &'static [u8]) -> CardDb {
        let fits = details_encoding::count(bytes) == Some(self.len());
        self.details = DetailsStore {
            decoded: OnceLock::new(),
            encoded: if fits {
                EncodedDetails::Static(bytes)
            } else {
                EncodedDetails::None
            },
        };
        self
    }

    /// The database with the columns encoded in `bytes` (`cards/columns.bin`), read when a
    /// search first asks; built from the printings instead when they do not describe as many
    /// printings as the database holds, or do not decode.
    pub(crate) fn with_encoded_columns(mut self, bytes: &'static [u8]) -> CardDb {
        self.encoded_columns = EncodedColumns::Static(bytes);
        self.columns = OnceLock::new();
        self
    }

    /// The database with the word index of its texts in `bytes` (`cards/words.bin`, see
    /// [`super::words`]), read when a text search first asks; unused when it is not the index of
    /// these texts. Only a build that embeds the texts embeds their index (the web page's
    /// `.wasm` fetches its texts later, and reads them without one).
    #[cfg(feature = "card-texts")]
    pub(crate) fn with_encoded_words(mut self, bytes: &'static [u8]) -> CardDb {
        self.encoded_words = EncodedColumns::Static(bytes);
        self.words = OnceLock::new();
        self
    }

    /// The database without its word index: a text search reads every printing's texts
    /// (what a test compares the index's answers with).
    #[cfg(test)]
    pub(crate) fn without_word_index(mut self) -> CardDb {
        self.encoded_words = EncodedColumns::None;
        self.words = OnceLock::new();
        self
    }

    /// The word index of the texts, when the database has one that fits its texts (the
    /// embedded index, a cache): `None` means a text search reads every printing's texts.
    pub fn word_index(&self) -> Option<WordIndex<'_>> {
        let bytes = match &self.encoded_words {
            EncodedColumns::None => return None,
            EncodedColumns::Static(bytes) => *bytes,
            EncodedColumns::InRecords(range) => self.records.bytes.get(range.clone())?,
        };
        // The details are not opened: the index names where each folded table is in them,
        // and a phrase opens its language's alone (`WordIndex::folded`).
        let details = match &self.details.encoded {
            EncodedDetails::None => return None,
            EncodedDetails::Static(details) => *details,
            EncodedDetails::InRecords(range) => self.records.bytes.get(range.clone())?,
        };
        let words = (self.words).get_or_init(|| Words::open(bytes, self.len(), details.len()));
        Some(WordIndex {
            words: words.as_ref()?,
            bytes,
            details,
            printings: self.len(),
        })
    }

    /// Every printing's [`Columns`] row: what `search` tests without decoding printings.
    /// The first call reads them (about a millisecond for the embedded index) or, for a
    /// database without them, builds them from every printing and its details.
    pub fn columns(&self) -> &Columns {
        self.columns.get_or_init(|| {
            let read = match &self.encoded_columns {
                EncodedColumns::None => None,
                EncodedColumns::Static(bytes) => Columns::decode_static(bytes, self.len()),
                EncodedColumns::InRecords(range) => self
                    .records
                    .bytes
                    .get(range.clone())
                    .and_then(|bytes| Columns::decode(bytes, self.len())),
            };
            read.unwrap_or_else(|| self.build_columns())
        })
    }

    /// [`Columns::build`] over this database's printings and details.
    pub fn build_columns(&self) -> Columns {
        let rows = (0..self.len()).map(|index| {
            let id = PrintingId::try_from(index).ok();
            let printing = id.and_then(|id| self.get(id));
            let facts = id
                .filter(|_| printing.is_some())
                .and_then(|id| self.facts(id));
            (printing, facts)
        });
        Columns::build(rows).unwrap_or_default()
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    pub fn len(&self) -> usize {
        self.printings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.printings.len() == 0
    }

    /// The printing `id`, decoded from the cache on first access.
    pub fn get(&self, id: PrintingId) -> Option<&Printing> {
        let index = usize::try_from(id).ok()?;
        let cell = self.printings.get(index)?;
        let decode = || {
            let mut printing = self.records.decode(index)?;
            printing.slot = DbSlot::new(self.instance, id);
            Some(printing)
        };
        cell.get_or_init(decode).as_deref()
    }

    /// What a listing writes of printing `id` ([`PrintingView`]), borrowed: from the
    /// printing when it is built, else read in place from its record without building it
    /// (no cell is filled), so listing thousands of printings allocates nearly nothing.
    pub fn view(&self, id: PrintingId) -> Option<PrintingView<'_>> {
        let index = usize::try_from(id).ok()?;
        match self.printings.get(index)?.get() {
            Some(printing) => printing.as_deref().map(Printing::view),
            None => postcard::from_bytes(self.records.raw(index)?).ok(),
        }
    }

    /// What printing `id` says beyond the rules' facts (HP, attacks, abilities, rules text,
    /// illustrator, rarity), when the source gives it.
    ///
    /// The first call inflates the encoded details and checks them; each printing's are
    /// then built the first time they are asked for (measured in docs/performance.md). A
    /// database whose details are damaged answers `None` for every printing.
    pub fn details(&self, id: PrintingId) -> Option<&Details> {
        self.details_of(id, false)
    }

    /// [`CardDb::details`], or [`CardDb::facts`] when `facts`: built once, kept.
    fn details_of(&self, id: PrintingId, facts: bool) -> Option<&Details> {
        let index = usize::try_from(id).ok()?;
        match self.decoded_details() {
            Decoded::Built(all) => all.get(index),
            Decoded::Opened {
                opened,
                cells,
                facts: fact_cells,
            } => {
                let cells = if facts { fact_cells } else { cells };
                let cells =
                    cells.get_or_init(|| (0..opened.len()).map(|_| OnceLock::new()).collect());
                let cell = cells.get(index)?;
                let build = || {
                    if facts {
                        opened.facts(index)
                    } else {
                        opened.details(index)
                    }
                    .map(Box::new)
                };
                cell.get_or_init(build).as_deref()
            }
            Decoded::None => None,
        }
    }

    /// What [`CardDb::details`] gives, but the texts in languages (names and texts of
    /// attacks and abilities, rules text) may be left empty: HP, retreat, Weakness,
    /// Resistance, attack costs and damage, illustrator and rarity, read without inflating
    /// any text (see [`CardDb::texts`] for those).
    pub fn facts(&self, id: PrintingId) -> Option<&Details> {
        self.details_of(id, true)
    }

    /// Calls `visit` with each text of printing `id` among `parts` (see [`TextRef`]), until
    /// it returns true; whether it did.
    pub fn texts(
        &self,
        id: PrintingId,
        parts: TextParts,
        visit: &mut dyn FnMut(TextRef<'_>) -> bool,
    ) -> bool {
        let Ok(index) = usize::try_from(id) else {
            return false;
        };
        match self.decoded_details() {
            Decoded::Built(all) => all
                .get(index)
                .is_some_and(|details| built_texts(details, parts, visit)),
            Decoded::Opened { opened, .. } => opened.texts(index, parts, &mut |lang, text| {
                visit(TextRef::Table { lang, id: text })
            }),
            Decoded::None => false,
        }
    }

    /// The text a [`TextRef::Table`] names.
    pub fn table_text(&self, lang: Language, id: u32) -> Option<&str> {
        match self.decoded_details() {
            Decoded::Opened { opened, .. } => opened.text(lang, id),
            _ => None,
        }
    }

    /// Which block of `lang`'s folded table (each text as [`crate::names::fold`] folds it)
    /// holds the text a [`TextRef::Table`] names; `None` when the details were given whole.
    pub fn folded_block_of(&self, lang: Language, id: u32) -> Option<usize> {
        match self.decoded_details() {
            Decoded::Opened { opened, .. } => opened.folded_block_of(lang, id),
            _ => None,
        }
    }

    /// Block `k` of `lang`'s folded table; `None` when the details were given whole or
    /// the block is damaged.
    pub fn folded_block(
        &self,
        lang: Language,
        k: usize,
    ) -> Option<details_encoding::FoldedBlock<'_>> {
        match self.decoded_details() {
            Decoded::Opened { opened, .. } => opened.folded_block(lang, k),
            _ => None,
        }
    }

    /// How many blocks `lang`'s folded table has (0 when the details were given whole).
    pub fn folded_block_count(&self, lang: Language) -> usize {
        match self.decoded_details() {
            Decoded::Opened { opened, .. } => opened.folded_block_count(lang),
            _ => 0,
        }
    }

    /// Every printing's details, by printing id (empty when the source gives none). Builds
    /// every printing's: meant for tests and whole-database passes.
    pub fn all_details(&self) -> Vec<&Details> {
        let ids = (0..self.len()).map(|index| PrintingId::try_from(index).ok());
        ids.map(|id| self.details(id?))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default()
    }

    fn decoded_details(&self) -> &Decoded {
        self.details.decoded.get_or_init(|| {
            let opened = self.encoded_details().and_then(details_encoding::open);
            match opened.filter(|opened| opened.len() == self.len()) {
                Some(opened) => Decoded::Opened {
                    cells: OnceLock::new(),
                    facts: OnceLock::new(),
                    opened: Box::new(opened),
                },
                None => Decoded::None,
            }
        })
    }

    /// The encoded details, when they are kept encoded (those of the cache copied out).
    fn encoded_details(&self) -> Option<std::borrow::Cow<'static, [u8]>> {
        match &self.details.encoded {
            EncodedDetails::None => None,
            EncodedDetails::Static(bytes) => Some(std::borrow::Cow::Borrowed(bytes)),
            EncodedDetails::InRecords(range) => (self.records.bytes.get(range.clone()))
                .map(|bytes| std::borrow::Cow::Owned(bytes.to_vec())),
        }
    }

    /// Every printing with its id, in id order. Decodes every printing not yet decoded:
    /// meant for tests and whole-database passes, not for a `check` run.
    pub fn iter(&self) -> impl Iterator<Item = (PrintingId, &Printing)> {
        (0..self.len()).filter_map(|index| {
            let id = PrintingId::try_from(index).ok()?;
            Some((id, self.get(id)?))
        })
    }

    /// Printings with this set code and number, as written in a list (`PR-SV`, `CRZ-GG`,
    /// `TG05` are all understood). Several when a database lists a card twice.
    pub fn by_set_number(&self, code: &str, number: &str) -> &[PrintingId] {
        let written = set_number_key(code, number);
        let row = self
            .printing_keys
            .get_or(written.as_str(), str::to_string, || {
                let (code, number) = split_subset(code, number);
                self.by_printing().row(&set_number_key(&code, &number))
            });
        self.printings_at(row)
    }

    /// Printings of a set with no printed code, by the set's database id and the number
    /// (`2019sm-fr`, `33`): how `deckbox search --output list` writes them. Empty for a set
    /// that has a code (its printings are found by the code).
    pub fn by_set_id_number(&self, id: &str, number: &str) -> &[PrintingId] {
        let id = id.trim().to_ascii_lowercase();
        let id = crate::cards::model::set_id::tcgdex_id(&id);
        let key = set_number_key(&id, &number_key(number));
        let row = self.by_printing().row(&key);
        self.printings_at(row)
    }

    /// The set-number table, read the first time it is asked for when it was left in the
    /// embedded index's bytes; empty when those do not read (a test reads them).
    fn by_printing(&self) -> &KeyTable {
        self.by_printing.get_or_init(|| {
            let (bytes, at) = self.by_printing_at.unwrap_or_default();
            let count = u32::try_from(self.len()).unwrap_or(0);
            KeyTable::decode(&mut Reader::new(bytes, at))
                .filter(|table| table.values().iter().all(|id| id < count))
                .unwrap_or_default()
        })
    }

    /// The printings of row `row` of the set-number table (always held in memory).
    fn printings_at(&self, row: Option<usize>) -> &[PrintingId] {
        row.and_then(|row| self.by_printing().values_at(row).as_slice())
            .unwrap_or(&[])
    }

    /// The printed code of the set whose database id is `id` (`sv03.5` → `MEW`), or of the
    /// TCGdex set a pokemontcg.io id names (`sv3pt5` → `MEW`): the code of the first
    /// printing of that set that has one. Read from the [`Columns`]' editions; only a line
    /// written with a set id asks.
    pub fn set_code_of_id(&self, id: &str) -> Option<&str> {
        let codes = self.set_codes_by_id();
        let id = id.to_ascii_lowercase();
        codes
            .get(&id)
            .or_else(|| codes.get(crate::cards::model::set_id::tcgdex_id(&id).as_ref()))
            .map(String::as_str)
    }

    /// Whether some set of the database has the printed code `code` (case ignored): `30C`,
    /// a set released after the index was built, has none.
    pub fn has_set_code(&self, code: &str) -> bool {
        let code = code.trim();
        (self.set_codes_by_id().values()).any(|known| known.eq_ignore_ascii_case(code))
    }

    /// Each set id's printed code, from the [`Columns`]' editions (the first edition of a set
    /// with a code gives it), read once.
    fn set_codes_by_id(&self) -> &HashMap<String, String> {
        self.set_codes.get_or_init(|| {
            let columns = self.columns();
            let names = columns.names();
            let mut codes = HashMap::new();
            for edition in columns.editions().iter() {
                let (set_id, code) = (names.get(edition.set_id), names.get(edition.set_code));
                if !code.is_empty() && !codes.contains_key(set_id) {
                    codes.insert(set_id.to_string(), code.to_string());
                }
            }
            codes
        })
    }

    /// The newest set of the database that has a printed code: its code and its release
    /// date (`YYYY-MM-DD`), the latest date first, then the greatest code.
    pub fn newest_set(&self) -> Option<(&str, &str)> {
        let columns = self.columns();
        let names = columns.names();
        (columns.editions().iter())
            .map(|edition| (names.get(edition.release_date), names.get(edition.set_code)))
            .filter(|(date, code)| !code.is_empty() && !date.is_empty())
            .max()
            .map(|(date, code)| (code, date))
    }

    /// `name`'s lookup key ([`names::lookup_key`]) as the database holds it, when some
    /// printing has a name with that key: computed once per name (the look-up of
    /// [`CardDb::name_matches`]) and borrowed.
    pub fn known_key(&self, name: &str) -> Option<&str> {
        self.by_name.key(self.name_row(name)?)
    }

    /// The row of `by_name` whose key is `name`'s lookup key.
    fn name_row(&self, name: &str) -> Option<usize> {
        self.keys.get_or(name, str::to_string, || {
            self.by_name.row(&names::lookup_key(name))
        })
    }

    /// Printings whose name, in any language, has the same lookup key as `name`.
    pub fn by_name(&self, name: &str) -> Vec<NameMatch> {
        self.name_matches(name).collect()
    }

    /// [`CardDb::by_name`] without collecting: a basic Energy name matches hundreds of
    /// printings, and most callers keep a few of them.
    pub fn name_matches(&self, name: &str) -> impl Iterator<Item = NameMatch> + '_ {
        let row = self.name_row(name);
        row.map_or(key_table::Values::Slice(&[]), |row| {
            self.by_name.values_at(row)
        })
        .iter()
        .filter_map(unpack_name_hit)
    }

    /// Every printing one of whose names has a lookup key that passes `test` (each distinct
    /// key tested once), with the language of that name.
    pub fn names_where(&self, test: impl Fn(&str) -> bool) -> Vec<NameMatch> {
        self.by_name
            .iter()
            .filter(|(key, _)| test(key))
            .flat_map(|(_, hits)| hits.iter().filter_map(unpack_name_hit))
            .collect()
    }

    /// [`CardDb::names_where`] for a `test` that passes only keys holding `needle` (once
    /// their ASCII capitals are lowered): the keys are searched for `needle` all at once,
    /// and only those that hold it, as written or with their capitals lowered, are given to
    /// `test`. The same
    /// answer as `names_where(test)` (a test compares them), without testing every key.
    pub fn names_containing(&self, needle: &str, test: impl Fn(&str) -> bool) -> Vec<NameMatch> {
        if needle.is_empty() {
            return self.names_where(test);
        }
        let (keys, ends) = self.by_name.keys_and_ends();
        // The row of the key holding byte `at`: the first whose end is past it.
        let row_of = |at: usize| {
            let (mut low, mut high) = (0, ends.len());
            while low < high {
                let mid = low + (high - low) / 2;
                if ends.get(mid).is_some_and(|end| (end as usize) <= at) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            low
        };
        let end_of = |row: usize| ends.get(row).map_or(keys.len(), |end| end as usize);
        let mut rows = Vec::new();
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let mut from = 0;
        while let Some(found) = keys.get(from..).and_then(|rest| finder.find(rest)) {
            let row = row_of(from + found);
            rows.push(row);
            // On to the next key: a match running into it is not its own.
            from = end_of(row);
        }
        // A key with a capital (`EX`) is a row only when it holds `needle` once its ASCII
        // capitals are lowered (the only keys `test` can pass): each such key is compared
        // once, in place, so the thousands of `EX` keys are neither sorted nor tested.
        let holds_lowered = |key: &[u8]| {
            key.windows(needle.len())
                .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
        };
        // The end of the last key compared: its other capitals are passed over.
        let mut compared = 0;
        const CHUNK: usize = 64;
        for (chunk, bytes) in keys.chunks(CHUNK).enumerate() {
            if bytes
                .iter()
                .fold(false, |any, b| any | b.is_ascii_uppercase())
            {
                let at = chunk * CHUNK;
                let capitals = (bytes.iter().enumerate()).filter(|(_, b)| b.is_ascii_uppercase());
                for (i, _) in capitals {
                    if at + i < compared {
                        continue;
                    }
                    let row = row_of(at + i);
                    let start = row.checked_sub(1).map_or(0, end_of);
                    compared = end_of(row);
                    if keys.get(start..compared).is_some_and(holds_lowered) {
                        rows.push(row);
                    }
                }
            }
        }
        rows.sort_unstable();
        rows.dedup();
        rows.into_iter()
            .filter_map(|row| Some((self.by_name.key(row)?, self.by_name.values_at(row))))
            .filter(|(key, _)| test(key))
            .flat_map(|(_, hits)| hits.iter().filter_map(unpack_name_hit))
            .collect()
    }

    /// The languages in which `name` names some printing, in [`Language::ALL`] order.
    pub fn name_languages(&self, name: &str) -> impl Iterator<Item = Language> + use<> {
        let mask = self.languages.get_or(name, str::to_string, || {
            self.name_matches(name)
                .fold(0u8, |mask, hit| mask | 1 << (hit.language.index() & 7))
        });
        Language::ALL
            .into_iter()
            .filter(move |language| mask & 1 << (language.index() & 7) != 0)
    }

    /// A [`NameSketch`] of every name key with its index, computed once.
    pub(crate) fn name_sketches(&self) -> &[(u32, NameSketch)] {
        self.sketches.get_or_init(|| {
            let indices = 0..u32::try_from(self.by_name.len()).unwrap_or(u32::MAX);
            let keys = indices.filter_map(|index| Some((index, self.by_name.key(index as usize)?)));
            keys.map(|(index, key)| (index, NameSketch::of(key)))
                .collect()
        })
    }

    /// The suggestions for `name`, searched by `search` the first time.
    pub(crate) fn suggestions_for(
        &self,
        name: &str,
        search: impl FnOnce() -> Vec<String>,
    ) -> Vec<String> {
        self.suggested.get_or(name, str::to_string, search)
    }

    /// The name key at `index` (see [`CardDb::name_sketches`]) with one printing and
    /// language it names, as [`CardDb::name_keys`] gives them.
    pub(crate) fn name_key_at(&self, index: u32) -> Option<(&str, PrintingId, Language)> {
        let key = self.by_name.key(index as usize)?;
        let hit = unpack_name_hit(self.by_name.values_at(index as usize).first()?)?;
        Some((key, hit.id, hit.language))
    }

    /// Every distinct lookup key with one display name for it, for suggestions.
    pub fn name_keys(&self) -> impl Iterator<Item = (&str, PrintingId, Language)> {
        self.by_name.iter().filter_map(|(key, hits)| {
            let hit = unpack_name_hit(hits.first()?)?;
            Some((key, hit.id, hit.language))
        })
    }

    /// Appends the database to `out`, in the layout [`CardDb::decode`] reads: the name
    /// table, the set-number table, the record ends, the records, the details (empty
    /// when there are none) and, `with_columns`, the search columns and the word index of
    /// the texts ([`super::words`], empty without details) (else one empty blob: the
    /// embedded index keeps them in `cards/columns.bin` and `cards/words.bin`, beside it).
    pub(crate) fn encode(&self, out: &mut Vec<u8>, with_columns: bool) -> Option<()> {
        self.by_name.encode(out);
        self.by_printing().encode(out);
        let mut records = Vec::new();
        let mut ends = Vec::with_capacity(self.len());
        for index in 0..self.len() {
            match self.records.raw(index) {
                Some(raw) => records.extend_from_slice(raw),
                None => {
                    let printing = self.get(PrintingId::try_from(index).ok()?)?;
                    records = postcard::to_extend(printing, records).ok()?;
                }
            }
            ends.push(u32::try_from(records.len()).ok()?);
        }
        key_table::put_u32s(out, &ends);
        key_table::put_blob(out, &records);
        let details = match (self.details.decoded.get(), self.encoded_details()) {
            (_, Some(encoded)) => encoded,
            (Some(Decoded::Built(details)), None) if !details.is_empty() => {
                std::borrow::Cow::Owned(details_encoding::encode(details, false)?)
            }
            _ => std::borrow::Cow::Borrowed(&[][..]),
        };
        key_table::put_blob(out, &details);
        // The search columns, so that a search on a cache or an installed index reads them
        // as it reads the embedded ones instead of building them from every printing.
        if with_columns {
            key_table::put_blob(out, &self.columns().encode()?);
            // And the word index of the texts, as `cards/words.bin` beside the embedded
            // index: a text search reads it first (empty without details).
            if details.is_empty() {
                key_table::put_blob(out, &[]);
            } else {
                key_table::put_blob(out, &super::words::encode(&details)?);
            }
        } else {
            key_table::put_blob(out, &[]);
        }
        Some(())
    }

    /// Reads a database written by [`CardDb::encode`] from `bytes[start..]`, keeping
    /// `bytes` to decode printings from later. `None` when anything is out of place.
    pub(crate) fn decode(
        source: Source,
        bytes: impl Into<std::borrow::Cow<'static, [u8]>>,
        start: usize,
    ) -> Option<CardDb> {
        let bytes = bytes.into();
        // The embedded index is read in place: its name table is not copied, and its
        // set-number table is read when first asked for (a search never asks).
        let in_place = match &bytes {
            std::borrow::Cow::Borrowed(bytes) => Some(*bytes),
            std::borrow::Cow::Owned(_) => None,
        };
        let mut reader = Reader::new(&bytes, start);
        let (by_name, by_printing, by_printing_at) = match in_place {
            Some(bytes) => {
                let mut in_place = Reader::new(bytes, start);
                let by_name = KeyTable::decode_static(&mut in_place)?;
                let at = in_place.position();
                // Skipped: its keys and three arrays.
                for _ in 0..4 {
                    in_place.blob()?;
                }
                reader = Reader::new(bytes, in_place.position());
                (by_name, OnceLock::new(), Some((bytes, at)))
            }
            None => {
                let by_name = KeyTable::decode(&mut reader)?;
                let by_printing = KeyTable::decode(&mut reader)?;
                (by_name, OnceLock::from(by_printing), None)
            }
        };
        let ends = match in_place {
            Some(bytes) => {
                let ends = Reader::new(bytes, reader.position()).u32s_in_place()?;
                reader.blob()?;
                U32s::Static(ends)
            }
            None => U32s::Owned(reader.u32s()?),
        };
        let records_start = reader.position().checked_add(8)?;
        let records_len = reader.blob()?.len();
        let details_start = reader.position().checked_add(8)?;
        let details_len = reader.blob()?.len();
        let details_range = details_start..details_start + details_len;
        let columns_start = reader.position().checked_add(8)?;
        let columns_len = reader.blob()?.len();
        let encoded_columns = match columns_len {
            0 => EncodedColumns::None,
            _ => EncodedColumns::InRecords(columns_start..columns_start + columns_len),
        };
        // The word index follows the columns when there are columns (a cache; the embedded
        // index keeps both beside it).
        let encoded_words = if columns_len == 0 {
            EncodedColumns::None
        } else {
            let words_start = reader.position().checked_add(8)?;
            let words_len = reader.blob()?.len();
            EncodedColumns::InRecords(words_start..words_start + words_len)
        };
        let encoded = match bytes.get(details_range.clone()) {
            Some([]) => EncodedDetails::None,
            Some(details) if details_encoding::count(details) == Some(ends.all().len()) => {
                EncodedDetails::InRecords(details_range)
            }
            _ => return None,
        };
        let count = ends.all().len();
        let id_count = u32::try_from(count).ok()?;
        // The embedded index's record ends and name table are not checked value by value at
        // every start (`embedded::tests` checks them, as a file's are checked here; a bad
        // value would only read as a printing that does not decode).
        let checked = in_place.is_some()
            || (ends.all().is_sorted()
                && by_name
                    .values()
                    .iter()
                    .all(|hit| unpack_name_hit(hit).is_some_and(|hit| hit.id < id_count)));
        let consistent = reader.at_end()
            && checked
            && ends.all().last().map_or(0, |end| end as usize) == records_len
            && by_printing
                .get()
                .is_none_or(|table| table.values().iter().all(|id| id < id_count));
        if !consistent {
            return None;
        }
        let parts = Parts {
            printings: Cells::empty(count),
            records: Records {
                bytes,
                start: records_start,
                ends,
            },
            by_printing,
            by_printing_at,
            by_name,
            details: DetailsStore {
                decoded: OnceLock::new(),
                encoded,
            },
            encoded_columns,
        };
        let mut db = CardDb::from_parts(source, next_instance(), parts);
        db.encoded_words = encoded_words;
        Some(db)
    }
}

/// The set-number index key: both parts already normalized by [`split_subset`]. The NUL
/// cannot occur in either, so no two pairs share a key.
fn set_number_key(code: &str, number: &str) -> String {
    // Pushed, not `format!`: a lookup per line of every list checked.
    let mut key = String::with_capacity(code.len() + 1 + number.len());
    key.push_str(code);
    key.push('\0');
    key.push_str(number);
    key
}

fn set_number_table(printings: &[Printing]) -> KeyTable {
    // A set with no printed code is keyed by its id: lower case, so never a code's key.
    let entries: Vec<(String, u32)> = printings
        .iter()
        .zip(0..)
        .filter_map(|(printing, id)| {
            let set = match printing.set_code.as_str() {
                "" => printing.set_id.to_ascii_lowercase(),
                code => code.to_string(),
            };
            (!set.is_empty()).then(|| (set_number_key(&set, &printing.number), id))
        })
        .collect();
    // Only fails past 4 GiB of keys: no card database comes near.
    KeyTable::build(entries).unwrap_or_default()
}

fn name_table(printings: &[Printing]) -> KeyTable {
    // Most names repeat (one per language, reprints): normalize each distinct name once.
    let mut key_of: HashMap<&str, String> = HashMap::new();
    for printing in printings {
        for (_, name) in printing.names.readable() {
            key_of
                .entry(name)
                .or_insert_with(|| names::lookup_key(name));
        }
    }
    let mut entries: Vec<(&str, u32)> = Vec::new();
    for (printing, id) in printings.iter().zip(0..u32::MAX >> LANGUAGE_BITS) {
        // A regional name (`es-mx`) is read in its region's language.
        for (language, name) in printing.names.readable() {
            if let Some(key) = key_of.get(name) {
                entries.push((key.as_str(), pack_name_hit(id, language)));
            }
        }
    }
    // Only fails past 4 GiB of keys: no card database comes near.
    KeyTable::build(entries).unwrap_or_default()
}

fn pack_name_hit(id: PrintingId, language: Language) -> u32 {
    id << LANGUAGE_BITS | language.index() as u32
}

fn unpack_name_hit(value: u32) -> Option<NameMatch> {
    let language = *Language::ALL.get((value & ((1 << LANGUAGE_BITS) - 1)) as usize)?;
    Some(NameMatch {
        id: value >> LANGUAGE_BITS,
        language,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cards::model::{Category, Names, Stage};
    use crate::names::lang::Region;

    /// A printing read in place from its record is the printing built from it, field by
    /// field, for every printing of the embedded index (some with regional names, several
    /// types, rule flags and tags); and reading one builds nothing.
    #[test]
    fn every_embedded_record_views_as_its_printing() {
        let db = crate::cards::storage::embedded::open().unwrap();
        let fresh = crate::cards::storage::embedded::open().unwrap();
        let (mut regional, mut flagged) = (0, 0);
        for (id, printing) in db.iter() {
            let read = fresh.view(id).unwrap();
            assert_eq!(read, printing.view(), "{id}");
            assert_eq!(read.rule_tags().collect::<Vec<_>>(), printing.rule_tags());
            assert_eq!(read.primary(), printing.names.primary());
            regional += usize::from(
                Region::ALL
                    .iter()
                    .any(|&r| printing.names.regional(r).is_some()),
            );
            flagged += usize::from(printing.ace_spec || printing.radiant || printing.prism_star);
        }
        assert!(regional > 0 && flagged > 0, "{regional} {flagged}");
        assert_eq!(fresh.printings.set_count(), 0);
        assert_eq!(fresh.view(PrintingId::MAX), None);
    }

    pub(crate) fn printing(code: &str, number: &str, names: &[(Language, &str)]) -> Printing {
        let mut all = Names::default();
        for &(language, name) in names {
            all.set(language, name);
        }
        let mut printing = Printing::new(code, number, Category::Pokemon);
        printing.release_date = "2024-05-24".into();
        printing.series = "sv".into();
        printing.names = all;
        printing.stage = Some(Stage::Basic);
        printing.types = vec!["Dragon".into()];
        printing.regulation_mark = Some('H');
        printing.set_rules_text("Attack: 10");
        printing
    }

    fn small_db() -> CardDb {
        use Language::*;
        CardDb::new(
            Source::Embedded,
            vec![
                printing(
                    "TWM",
                    "128",
                    &[(En, "Dreepy"), (Fr, "Fantyrm"), (Es, "Dreepy")],
                ),
                printing("TWM", "129", &[(En, "Drakloak"), (De, "Phandra")]),
                printing("SVP", "14", &[(En, "Dreepy")]),
                printing("", "1", &[(En, "Dreepy")]),
                printing("CRZ", "GG59", &[(En, "Dreepy")]),
                printing("CRZ", "GG59", &[(En, "Dreepy"), (It, "Dreepy")]),
            ],
        )
    }

    #[test]
    fn lookups() {
        let db = small_db();
        assert_eq!(db.len(), 6);
        assert_eq!(db.by_set_number("twm", "0128"), [0]);
        assert_eq!(db.by_set_number("PR-SV", "014"), [2]);
        assert_eq!(db.by_set_number("CRZ-GG", "59"), [4, 5]);
        assert!(db.by_set_number("TWM", "130").is_empty());
        assert!(db.by_set_number("", "1").is_empty());
        let dreepy: Vec<(u32, Language)> = db
            .by_name("dreepy")
            .iter()
            .map(|hit| (hit.id, hit.language))
            .collect();
        use Language::*;
        let expected = [
            (0, En),
            (0, Es),
            (2, En),
            (3, En),
            (4, En),
            (5, En),
            (5, It),
        ];
        assert_eq!(dreepy, expected);
        assert_eq!(
            db.by_name("FANTYRM")[0],
            NameMatch {
                id: 0,
                language: Fr
            }
        );
        assert!(db.by_name("Dreep").is_empty());
        let keys: Vec<(&str, u32, Language)> = db.name_keys().collect();
        assert_eq!(keys.len(), 4);
        assert!(keys.contains(&("phandra", 1, De)));
        assert_eq!(db.iter().count(), 6);
        assert_eq!(db.get(6), None);
    }

    #[test]
    fn encoded_db_answers_like_the_original() {
        let db = small_db();
        let mut bytes = vec![0xAA; 5];
        db.encode(&mut bytes, true).unwrap();
        let copy = CardDb::decode(Source::Embedded, bytes.clone(), 5).unwrap();
        assert_same(&db, &copy);
        // The search columns are read from the bytes, not built again, and say the same.
        assert!(matches!(copy.encoded_columns, EncodedColumns::InRecords(_)));
        assert_eq!(copy.columns().encode(), db.columns().encode());
        assert!(matches!(copy.encoded_words, EncodedColumns::InRecords(_)));
        // Re-encoding a decoded database copies its records unchanged.
        let mut again = vec![0xAA; 5];
        copy.encode(&mut again, true).unwrap();
        assert_eq!(again, bytes);
        for cut in 5..bytes.len() {
            assert!(CardDb::decode(Source::Embedded, bytes[..cut].to_vec(), 5).is_none());
        }
    }

    #[test]
    fn a_damaged_record_is_missing_not_fatal() {
        let db = small_db();
        let mut bytes = Vec::new();
        db.encode(&mut bytes, false).unwrap();
        // The last record's last byte is the end of its rules text's final field (the empty
        // details' and columns' lengths follow it).
        let last = bytes.len() - 17;
        bytes[last] = 0xFF;
        let copy = CardDb::decode(Source::Embedded, bytes, 0).unwrap();
        assert!(copy.get(0).is_some());
        assert_eq!(copy.get(5), None);
        assert_eq!(copy.iter().count(), 5);
    }

    /// Every lookup and every printing of `a` and `b` agree.
    pub(crate) fn assert_same(a: &CardDb, b: &CardDb) {
        assert_eq!(a.len(), b.len());
        assert!(a.iter().eq(b.iter()));
        assert!(a.name_keys().eq(b.name_keys()));
        for (key, _, _) in a.name_keys() {
            assert_eq!(a.by_name(key), b.by_name(key));
        }
        for (_, printing) in a.iter() {
            let (code, number) = (&printing.set_code, &printing.number);
            assert_eq!(a.by_set_number(code, number), b.by_set_number(code, number));
        }
    }
}
