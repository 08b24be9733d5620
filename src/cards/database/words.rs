//! The word index of the card texts (`cards/words.bin`, and the words section of the
//! `--cards` cache): for each language's table of texts (`details_encoding`), every
//! word of the folded texts, sorted, with the ids of the texts that hold it, and for each
//! text the printings that carry it and where (attack name or text, Ability name or text,
//! rules text). A text search (`text:`, `attack:`, `ability:`) intersects the ids of its
//! words, checks only those texts against the folded table (so phrases and word
//! boundaries mean what they meant without the index), and reads the printings from the
//! text's uses: no record is decoded and only the blocks of candidate texts are inflated.
//!
//! A word is a longest run of alphanumeric characters (`char::is_alphanumeric`) of a text
//! folded by [`crate::names::fold`], as the search's word boundaries read them. Every
//! number is read in place from the bytes (little-endian `u32` ends, LEB128 postings): opening
//! the index reads the header and the six directories after it, nothing else. Finding a word
//! reads the first words of its buckets (together at the front) and one bucket; checking a
//! phrase opens only its language's folded table of the details (its frame's place is in
//! the directory), not the rest of the details. Like the rest of this
//! sub-wing it reads no file and knows nothing of deck lists.

use std::sync::OnceLock;

use super::details_encoding::{self, FOLDED_END, FoldedTable, TextParts};
use crate::names::lang::Language;

const MAGIC: &[u8; 8] = b"DBXWORDS";
/// Bumped whenever the layout or the words read change. 2: a directory at the front, words
/// in buckets found through their first words, the folded tables' places in the details.
const VERSION: u32 = 2;
/// Magic, version, total length, printing count, length of the details it indexes.
const HEADER_LEN: usize = 8 + 4 + 8 + 4 + 8;
/// Words of a bucket: a lookup binary-searches the first word of each bucket (the fences,
/// together at the front), then reads one bucket's words in order.
const BUCKET: usize = 32;
/// The pieces of each language's part ([`blob`]).
const BLOBS: usize = 7;
/// A language's directory: word, text and bucket counts, its folded table's frame in the
/// details (start, end), and the start and end of each piece, `u32` each.
const DIRECTORY_LEN: usize = 4 * (3 + 2 + 2 * BLOBS);
/// Bits of a use that say where a printing carries the text ([`Part`]).
const PART_BITS: u32 = 3;

/// The pieces of a language's part, by their index in its directory.
mod blob {
    /// The first word of each bucket, end to end.
    pub const FENCES: usize = 0;
    /// Where each of those words ends in [`FENCES`], `u32` each.
    pub const FENCE_ENDS: usize = 1;
    /// For each bucket, where its words start in [`ENTRIES`] and its first word's postings
    /// in [`POSTINGS`], `u32` each.
    pub const BUCKETS: usize = 2;
    /// Each word in order: its length (LEB128), its bytes, the length of its postings.
    pub const ENTRIES: usize = 3;
    /// Each word's text ids, LEB128 deltas, in the order of the words.
    pub const POSTINGS: usize = 4;
    /// Where each text's uses end in [`USES`], `u32` each.
    pub const USE_ENDS: usize = 5;
    /// Each text's uses: printing deltas shifted left by `PART_BITS`, with the part.
    pub const USES: usize = 6;
    /// The order of the pieces in the file (each piece of the six languages in turn): the
    /// fences first, so that every lookup's binary search reads the front of the file.
    pub const ORDER: [usize; super::BLOBS] = [
        FENCES, FENCE_ENDS, BUCKETS, ENTRIES, POSTINGS, USE_ENDS, USES,
    ];
}

/// Where a printing carries a text: the parts of [`TextParts`], one bit each.
pub mod part {
    pub const ATTACK_NAME: u8 = 1 << 0;
    pub const ATTACK_TEXT: u8 = 1 << 1;
    pub const ABILITY_NAME: u8 = 1 << 2;
    pub const ABILITY_TEXT: u8 = 1 << 3;
    pub const EFFECT: u8 = 1 << 4;
    /// Each part alone, as [`super::TextParts`] selects it, and its index in a use.
    pub(super) const ALL: [u8; 5] = [ATTACK_NAME, ATTACK_TEXT, ABILITY_NAME, ABILITY_TEXT, EFFECT];
}

/// The bits of [`part`] that `parts` selects.
pub fn part_mask(parts: TextParts) -> u8 {
    [
        parts.attack_names,
        parts.attack_texts,
        parts.ability_names,
        parts.ability_texts,
        parts.effect,
    ]
    .into_iter()
    .zip(part::ALL)
    .filter(|(on, _)| *on)
    .fold(0, |mask, (_, bit)| mask | bit)
}

/// The words of a folded text, in order, each a longest run of alphanumeric characters.
pub fn words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(0x80 | (value & 0x7f) as u8);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads one LEB128 number (at most 10 bytes) from `bytes[*at..]`, moving `at` past it.
fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_len(out: &mut Vec<u8>, len: usize) -> Option<()> {
    put_u32(out, u32::try_from(len).ok()?);
    Some(())
}

/// Every word of the folded texts of `blocks` (a language's folded table), sorted, with the
/// ids of the texts that hold it; `None` when a block does not read.
fn postings<'b>(
    blocks: impl Iterator<Item = Option<details_encoding::FoldedBlock<'b>>>,
) -> Option<std::collections::BTreeMap<String, Vec<u32>>> {
    let mut postings: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for block in blocks {
        let block = block?;
        let bodies = block.text.split_terminator(char::from(FOLDED_END));
        for (id, text) in (block.first..).zip(bodies) {
            for word in words(text) {
                let ids = postings.entry(word.to_string()).or_default();
                if ids.last() != Some(&id) {
                    ids.push(id);
                }
            }
        }
    }
    Some(postings)
}

/// One language's part of the index as [`encode`] lays it out: its counts, where its
/// folded table is in the details, and its [`BLOBS`] pieces.
struct Part {
    words: usize,
    texts: usize,
    buckets: usize,
    folded: std::ops::Range<usize>,
    /// By [`blob`]: the bytes of each piece.
    blobs: [Vec<u8>; BLOBS],
}

/// Builds the word index of the encoded details `details` (see `details_encoding`);
/// `None` when they do not open or a table does not read back whole.
pub fn encode(details: &[u8]) -> Option<Vec<u8>> {
    let opened = details_encoding::open(std::borrow::Cow::Owned(details.to_vec()))?;
    let folded = details_encoding::folded_frames(details)?;
    let printings = opened.len();
    // uses[lang][text - 1]: (printing, part index), in printing order.
    let mut uses: Vec<Vec<Vec<(u32, u8)>>> = Language::ALL
        .iter()
        .map(|&lang| vec![Vec::new(); opened.text_count(lang)])
        .collect();
    for index in 0..printings {
        let printing = u32::try_from(index).ok()?;
        for (part_index, bit) in (0u8..).zip(part::ALL) {
            let parts = TextParts {
                attack_names: bit == part::ATTACK_NAME,
                attack_texts: bit == part::ATTACK_TEXT,
                ability_names: bit == part::ABILITY_NAME,
                ability_texts: bit == part::ABILITY_TEXT,
                effect: bit == part::EFFECT,
            };
            let mut broken = false;
            opened.texts(index, parts, &mut |lang, id| {
                let slot = (id.checked_sub(1))
                    .and_then(|i| uses.get_mut(lang.index())?.get_mut(i as usize));
                match slot {
                    Some(list) if list.last() != Some(&(printing, part_index)) => {
                        list.push((printing, part_index));
                    }
                    Some(_) => {}
                    None => broken = true,
                }
                false
            });
            (!broken).then_some(())?;
        }
    }
    let mut parts = Vec::with_capacity(6);
    for lang in Language::ALL {
        let texts = opened.text_count(lang);
        let blocks = (0..opened.folded_block_count(lang)).map(|k| opened.folded_block(lang, k));
        let postings = postings(blocks)?;
        let mut blobs: [Vec<u8>; BLOBS] = Default::default();
        let mut buckets = 0;
        for (index, (word, ids)) in postings.iter().enumerate() {
            let mut list = Vec::new();
            let mut previous = 0;
            for &id in ids {
                put_varint(&mut list, u64::from(id - previous));
                previous = id;
            }
            if index % BUCKET == 0 {
                buckets += 1;
                blobs[blob::FENCES].extend_from_slice(word.as_bytes());
                let (fences, entries) = (blobs[blob::FENCES].len(), blobs[blob::ENTRIES].len());
                let postings = blobs[blob::POSTINGS].len();
                put_len(&mut blobs[blob::FENCE_ENDS], fences)?;
                put_len(&mut blobs[blob::BUCKETS], entries)?;
                put_len(&mut blobs[blob::BUCKETS], postings)?;
            }
            put_varint(&mut blobs[blob::ENTRIES], word.len() as u64);
            blobs[blob::ENTRIES].extend_from_slice(word.as_bytes());
            put_varint(&mut blobs[blob::ENTRIES], list.len() as u64);
            blobs[blob::POSTINGS].extend_from_slice(&list);
        }
        for list in uses.get(lang.index())? {
            let mut previous = 0;
            for &(printing, part_index) in list {
                let delta = u64::from(printing - previous) << PART_BITS | u64::from(part_index);
                put_varint(&mut blobs[blob::USES], delta);
                previous = printing;
            }
            let end = blobs[blob::USES].len();
            put_len(&mut blobs[blob::USE_ENDS], end)?;
        }
        parts.push(Part {
            words: postings.len(),
            texts,
            buckets,
            folded: folded.get(lang.index())?.clone(),
            blobs,
        });
    }
    // The header and the six directories, then every piece in the order of `FRONT`: what
    // every lookup reads (the fences) stands together at the front.
    let mut at = HEADER_LEN + 6 * DIRECTORY_LEN;
    let mut places: Vec<[std::ops::Range<usize>; BLOBS]> = vec![Default::default(); parts.len()];
    for &piece in &blob::ORDER {
        for (part, place) in parts.iter().zip(&mut places) {
            let len = part.blobs.get(piece)?.len();
            *place.get_mut(piece)? = at..at + len;
            at += len;
        }
    }
    let mut out = Vec::with_capacity(at);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, VERSION);
    out.extend_from_slice(&(at as u64).to_le_bytes());
    put_len(&mut out, printings)?;
    out.extend_from_slice(&(details.len() as u64).to_le_bytes());
    for (part, place) in parts.iter().zip(&places) {
        for value in [part.words, part.texts, part.buckets] {
            put_len(&mut out, value)?;
        }
        put_len(&mut out, part.folded.start)?;
        put_len(&mut out, part.folded.end)?;
        for range in place {
            put_len(&mut out, range.start)?;
            put_len(&mut out, range.end)?;
        }
    }
    for &piece in &blob::ORDER {
        for part in &parts {
            out.extend_from_slice(part.blobs.get(piece)?);
        }
    }
    (out.len() == at).then_some(out)
}

/// One language's part of the index: where its pieces are in the bytes.
#[derive(Debug, Clone, Default)]
struct Table {
    words: usize,
    texts: usize,
    buckets: usize,
    /// Where its folded table's frame is in the details the index was built from.
    folded: std::ops::Range<usize>,
    /// By [`blob`]: where each piece is.
    blobs: [std::ops::Range<usize>; BLOBS],
}

impl Table {
    fn piece<'b>(&self, bytes: &'b [u8], piece: usize) -> Option<&'b [u8]> {
        bytes.get(self.blobs.get(piece)?.clone())
    }
}

/// An opened word index: the frame of each language's part, read from the header; the
/// words, postings and uses are read from the bytes when asked for, and each language's
/// folded table opened the first time a phrase is checked against it.
#[derive(Debug)]
pub struct Words {
    tables: Vec<Table>,
    folded: [OnceLock<Option<FoldedTable>>; 6],
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let raw = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(raw.try_into().ok()?))
}

/// Element `index` of the `count` little-endian `u32` ends in `ends`, as the range of a
/// blob of `len` bytes it closes; `None` past the end or out of order.
fn span(ends: &[u8], index: usize, len: usize) -> Option<std::ops::Range<usize>> {
    let end = u32_at(ends, index.checked_mul(4)?)? as usize;
    let begin = match index.checked_sub(1) {
        Some(previous) => u32_at(ends, previous * 4)? as usize,
        None => 0,
    };
    (begin <= end && end <= len).then_some(begin..end)
}

impl Words {
    /// Reads the frame of an index [`encode`] wrote for `printings` printings and details
    /// of `details_len` bytes; `None` when it is another index's, or out of place.
    pub fn open(bytes: &[u8], printings: usize, details_len: usize) -> Option<Words> {
        let header = bytes.get(..HEADER_LEN)?;
        let total = u64::from_le_bytes(header.get(12..20)?.try_into().ok()?);
        let fits = header.get(..8)? == MAGIC
            && u32_at(header, 8)? == VERSION
            && total == bytes.len() as u64
            && u32_at(header, 20)? as usize == printings
            && u64::from_le_bytes(header.get(24..32)?.try_into().ok()?) == details_len as u64;
        fits.then_some(())?;
        let mut at = HEADER_LEN;
        let mut next = || {
            let value = u32_at(bytes, at)? as usize;
            at += 4;
            Some(value)
        };
        let mut tables = Vec::with_capacity(6);
        for _ in Language::ALL {
            let (words, texts, buckets) = (next()?, next()?, next()?);
            let folded = next()?..next()?;
            let mut blobs: [std::ops::Range<usize>; BLOBS] = Default::default();
            for range in &mut blobs {
                *range = next()?..next()?;
                (range.start <= range.end && range.end <= bytes.len()).then_some(())?;
            }
            let sized = |piece: usize, len: usize| blobs.get(piece).is_some_and(|r| r.len() == len);
            let fits = (folded.start <= folded.end && folded.end <= details_len)
                && words.div_ceil(BUCKET) == buckets
                && sized(blob::FENCE_ENDS, buckets.checked_mul(4)?)
                && sized(blob::BUCKETS, buckets.checked_mul(8)?)
                && sized(blob::USE_ENDS, texts.checked_mul(4)?);
            fits.then_some(())?;
            tables.push(Table {
                words,
                texts,
                buckets,
                folded,
                blobs,
            });
        }
        Some(Words {
            tables,
            folded: Default::default(),
        })
    }

    /// How many texts `lang`'s table holds, as the index read it.
    pub fn text_count(&self, lang: Language) -> usize {
        self.tables.get(lang.index()).map_or(0, |table| table.texts)
    }

    /// The ids (1 for the table's first text) of `lang`'s texts that hold `word` (folded,
    /// one word) as a word, in order; empty when none does or the bytes are damaged.
    pub fn texts_with(&self, bytes: &[u8], lang: Language, word: &str) -> Vec<u32> {
        self.read_postings(bytes, lang, word).unwrap_or_default()
    }

    fn read_postings(&self, bytes: &[u8], lang: Language, word: &str) -> Option<Vec<u32>> {
        let table = self.tables.get(lang.index())?;
        let fences = table.piece(bytes, blob::FENCES)?;
        let fence_ends = table.piece(bytes, blob::FENCE_ENDS)?;
        let fence = |k: usize| fences.get(span(fence_ends, k, fences.len())?);
        // The last bucket whose first word is not past `word`: binary search over the
        // fences, which stand together at the front of the index.
        let (mut low, mut high) = (0, table.buckets);
        while low < high {
            let middle = low + (high - low) / 2;
            if fence(middle)? <= word.as_bytes() {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        let Some(k) = low.checked_sub(1) else {
            return Some(Vec::new());
        };
        let buckets = table.piece(bytes, blob::BUCKETS)?;
        let entries = table.piece(bytes, blob::ENTRIES)?;
        let postings = table.piece(bytes, blob::POSTINGS)?;
        let mut at = u32_at(buckets, k.checked_mul(8)?)? as usize;
        let mut posting = u32_at(buckets, k * 8 + 4)? as usize;
        // The bucket's words one after the other, each with the length of its postings.
        let in_bucket = table.words.checked_sub(k * BUCKET)?.min(BUCKET);
        for _ in 0..in_bucket {
            let len = usize::try_from(get_varint(entries, &mut at)?).ok()?;
            let entry = entries.get(at..at.checked_add(len)?)?;
            at += len;
            let list_len = usize::try_from(get_varint(entries, &mut at)?).ok()?;
            let list_end = posting.checked_add(list_len)?;
            match entry.cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => posting = list_end,
                std::cmp::Ordering::Greater => break,
                std::cmp::Ordering::Equal => {
                    let list = postings.get(posting..list_end)?;
                    let (mut ids, mut at, mut id) = (Vec::new(), 0, 0u32);
                    while at < list.len() {
                        let delta = u32::try_from(get_varint(list, &mut at)?).ok()?;
                        id = id.checked_add(delta)?;
                        (delta > 0 && id as usize <= table.texts).then_some(())?;
                        ids.push(id);
                    }
                    return Some(ids);
                }
            }
        }
        Some(Vec::new())
    }

    /// Calls `visit` with each printing that carries text `id` of `lang`'s table in one of
    /// the parts of `mask` ([`part`]); `None` when the bytes are damaged or a printing is
    /// not below `printings`.
    pub fn uses(
        &self,
        bytes: &[u8],
        lang: Language,
        id: u32,
        mask: u8,
        printings: usize,
        visit: &mut dyn FnMut(u32),
    ) -> Option<()> {
        let table = self.tables.get(lang.index())?;
        let index = id.checked_sub(1)? as usize;
        (index < table.texts).then_some(())?;
        let all = table.piece(bytes, blob::USES)?;
        let ends = table.piece(bytes, blob::USE_ENDS)?;
        let list = all.get(span(ends, index, all.len())?)?;
        let (mut at, mut printing) = (0, 0u32);
        while at < list.len() {
            let value = get_varint(list, &mut at)?;
            let delta = u32::try_from(value >> PART_BITS).ok()?;
            printing = printing.checked_add(delta)?;
            ((printing as usize) < printings).then_some(())?;
            let bit = *part::ALL.get((value & ((1 << PART_BITS) - 1)) as usize)?;
            if mask & bit != 0 {
                visit(printing);
            }
        }
        Some(())
    }

    /// `lang`'s folded table, opened from `details` (the details the index was built from)
    /// the first time; `None` when it does not open there.
    pub fn folded(&self, details: &[u8], lang: Language) -> Option<&FoldedTable> {
        let table = self.tables.get(lang.index())?;
        let cell = self.folded.get(lang.index())?;
        cell.get_or_init(|| {
            details_encoding::open_folded(details, table.folded.clone(), table.texts)
        })
        .as_ref()
    }
}

/// An opened index with the bytes it reads, the details it was built from and the number
/// of printings it was opened for: what [`crate::cards::CardDb::word_index`] hands a search.
#[derive(Debug, Clone, Copy)]
pub struct WordIndex<'a> {
    pub(super) words: &'a Words,
    pub(super) bytes: &'a [u8],
    pub(super) details: &'a [u8],
    pub(super) printings: usize,
}

impl<'a> WordIndex<'a> {
    /// The ids of `lang`'s texts that hold `word` (folded, one [`words`] word), in order.
    pub fn texts_with(&self, lang: Language, word: &str) -> Vec<u32> {
        self.words.texts_with(self.bytes, lang, word)
    }

    /// Calls `visit` with each printing that carries text `id` of `lang` in one of the
    /// parts of `mask` ([`part_mask`]); false when the index is damaged there.
    pub fn uses(&self, lang: Language, id: u32, mask: u8, visit: &mut dyn FnMut(u32)) -> bool {
        (self.words)
            .uses(self.bytes, lang, id, mask, self.printings, visit)
            .is_some()
    }

    /// `lang`'s folded table, with the details' bytes its blocks are read from: opened
    /// alone the first time (the rest of the details is not read); `None` when it does not
    /// open.
    pub fn folded(&self, lang: Language) -> Option<(&'a FoldedTable, &'a [u8])> {
        Some((self.words.folded(self.details, lang)?, self.details))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Vec<u8>, Vec<u8>) {
        let details = details_encoding::encode(&details_encoding::tests::sample(), true).unwrap();
        let words = encode(&details).unwrap();
        (details, words)
    }

    /// Every word of every language's texts in the embedded index is found with the texts
    /// that hold it (as reading the folded tables finds them), and strings that are not
    /// words of the table (cut short, made longer, before the first, after the last) find
    /// nothing: every bucket and fence of the layout is read. Each folded table opened
    /// alone from the index's directory is the one the details open with the rest.
    #[test]
    fn every_word_is_found_with_its_texts() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let Some(index) = db.word_index() else {
            panic!("cards/words.bin fits the index");
        };
        let mut checked = 0;
        for lang in Language::ALL {
            let blocks = (0..db.folded_block_count(lang)).map(|k| db.folded_block(lang, k));
            let postings = postings(blocks).unwrap();
            assert!(postings.len() > 5000, "{lang:?}: {} words", postings.len());
            let expected = |word: &str| postings.get(word).cloned().unwrap_or_default();
            for word in postings.keys() {
                let mut cut = word.clone();
                cut.pop();
                let longer = [
                    format!("{word}\u{1}"),
                    format!("{word}0"),
                    format!("{word}zzq"),
                ];
                for probe in [word.clone(), cut].into_iter().chain(longer) {
                    assert_eq!(index.texts_with(lang, &probe), expected(&probe), "{probe}");
                    checked += 1;
                }
            }
            for probe in ["", "\u{1}", "\u{10ffff}", "zzzzzzzz"] {
                assert_eq!(index.texts_with(lang, probe), expected(probe), "{probe:?}");
            }
            let Some((table, details)) = index.folded(lang) else {
                panic!("{lang:?}: the folded table opens alone");
            };
            assert_eq!(table.block_count(), db.folded_block_count(lang));
            for k in 0..table.block_count() {
                let (alone, with_the_rest) = (table.block(details, k), db.folded_block(lang, k));
                assert_eq!(
                    alone.map(|b| (b.first, b.text)),
                    with_the_rest.map(|b| (b.first, b.text))
                );
            }
            for id in 0..=index.words.text_count(lang) as u32 + 1 {
                assert_eq!(table.block_of(id), db.folded_block_of(lang, id), "{id}");
            }
        }
        assert!(checked > 200_000, "{checked} probes");
    }

    #[test]
    fn words_are_runs_of_letters_and_digits() {
        let found: Vec<&str> = words("defaussez-vous d'1 carte ×2, x").collect();
        assert_eq!(found, ["defaussez", "vous", "d", "1", "carte", "2", "x"]);
    }

    #[test]
    fn an_index_opens_only_for_its_details() {
        let (details, words) = sample();
        let count = details_encoding::count(&details).unwrap();
        assert!(Words::open(&words, count, details.len()).is_some());
        assert!(Words::open(&words, count + 1, details.len()).is_none());
        assert!(Words::open(&words, count, details.len() + 1).is_none());
        assert!(Words::open(&words[..words.len() - 1], count, details.len()).is_none());
    }

    /// Every cut, every flipped byte: the index opens or not, and reading it never panics
    /// nor names a text or printing past the end.
    #[test]
    fn damaged_bytes_never_panic_nor_leave_bounds() {
        let (details, words) = sample();
        let count = details_encoding::count(&details).unwrap();
        let opened = details_encoding::open(std::borrow::Cow::Owned(details.clone())).unwrap();
        let mut damaged = Vec::new();
        for cut in 0..words.len() {
            damaged.push(words[..cut].to_vec());
        }
        for at in 0..words.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut bytes = words.clone();
                bytes[at] ^= flip;
                damaged.push(bytes);
            }
        }
        for bytes in damaged {
            let Some(index) = Words::open(&bytes, count, details.len()) else {
                continue;
            };
            for lang in Language::ALL {
                for word in ["", "a", "flip", "coin", "zzzz"] {
                    for id in index.texts_with(&bytes, lang, word) {
                        assert!(id >= 1 && id as usize <= index.text_count(lang));
                        let _ = index.uses(&bytes, lang, id, 0xff, count, &mut |printing| {
                            assert!((printing as usize) < count);
                        });
                    }
                }
                for id in 0..=opened.text_count(lang) as u32 + 1 {
                    let _ = index.uses(&bytes, lang, id, 0xff, count, &mut |printing| {
                        assert!((printing as usize) < count);
                    });
                }
            }
        }
    }
}
