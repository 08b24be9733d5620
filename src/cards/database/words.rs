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
//! the index reads the header and six frames, nothing else. Like the rest of this
//! sub-wing it reads no file and knows nothing of deck lists.

use super::details_encoding::{self, FOLDED_END, TextParts};
use crate::names::lang::Language;

const MAGIC: &[u8; 8] = b"DBXWORDS";
/// Bumped whenever the layout or the words read change.
const VERSION: u32 = 1;
/// Magic, version, total length, printing count, length of the details it indexes.
const HEADER_LEN: usize = 8 + 4 + 8 + 4 + 8;
/// Bits of a use that say where a printing carries the text ([`Part`]).
const PART_BITS: u32 = 3;

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

/// Builds the word index of the encoded details `details` (see `details_encoding`);
/// `None` when they do not open or a table does not read back whole.
pub fn encode(details: &[u8]) -> Option<Vec<u8>> {
    let opened = details_encoding::open(std::borrow::Cow::Owned(details.to_vec()))?;
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
    let mut body = Vec::new();
    for lang in Language::ALL {
        let texts = opened.text_count(lang);
        let mut postings: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        for k in 0..opened.folded_block_count(lang) {
            let block = opened.folded_block(lang, k)?;
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
        let (mut word_bytes, mut word_ends) = (Vec::new(), Vec::new());
        let (mut posting_bytes, mut posting_ends) = (Vec::new(), Vec::new());
        for (word, ids) in &postings {
            word_bytes.extend_from_slice(word.as_bytes());
            word_ends.push(word_bytes.len());
            let mut previous = 0;
            for &id in ids {
                put_varint(&mut posting_bytes, u64::from(id - previous));
                previous = id;
            }
            posting_ends.push(posting_bytes.len());
        }
        let (mut use_bytes, mut use_ends) = (Vec::new(), Vec::new());
        for list in uses.get(lang.index())? {
            let mut previous = 0;
            for &(printing, part_index) in list {
                let delta = u64::from(printing - previous) << PART_BITS | u64::from(part_index);
                put_varint(&mut use_bytes, delta);
                previous = printing;
            }
            use_ends.push(use_bytes.len());
        }
        put_len(&mut body, postings.len())?;
        put_len(&mut body, texts)?;
        for end in word_ends.iter().chain(&posting_ends).chain(&use_ends) {
            put_len(&mut body, *end)?;
        }
        for blob in [&word_bytes, &posting_bytes, &use_bytes] {
            put_len(&mut body, blob.len())?;
            body.extend_from_slice(blob);
        }
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, VERSION);
    out.extend_from_slice(&((HEADER_LEN + body.len()) as u64).to_le_bytes());
    put_len(&mut out, printings)?;
    out.extend_from_slice(&(details.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    Some(out)
}

/// One language's part of the index: where its pieces are in the bytes.
#[derive(Debug, Clone, Default)]
struct Table {
    words: usize,
    texts: usize,
    /// Start of the `u32` ends: the words', the postings', the uses'.
    word_ends: usize,
    posting_ends: usize,
    use_ends: usize,
    word_bytes: std::ops::Range<usize>,
    posting_bytes: std::ops::Range<usize>,
    use_bytes: std::ops::Range<usize>,
}

/// An opened word index: the frame of each language's part, read from the header; the
/// words, postings and uses are read from the bytes when asked for.
#[derive(Debug, Clone)]
pub struct Words {
    tables: Vec<Table>,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let raw = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(raw.try_into().ok()?))
}

/// Element `index` of the `count` little-endian `u32` ends starting at `start`, as the
/// range of a blob of `len` bytes it closes; `None` past the end or out of order.
fn span(bytes: &[u8], start: usize, index: usize, len: usize) -> Option<std::ops::Range<usize>> {
    let end = u32_at(bytes, start.checked_add(index.checked_mul(4)?)?)? as usize;
    let begin = match index.checked_sub(1) {
        Some(previous) => u32_at(bytes, start + previous * 4)? as usize,
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
        let mut tables = Vec::with_capacity(6);
        for _ in Language::ALL {
            let words = u32_at(bytes, at)? as usize;
            let texts = u32_at(bytes, at + 4)? as usize;
            let word_ends = at.checked_add(8)?;
            let posting_ends = word_ends.checked_add(words.checked_mul(4)?)?;
            let use_ends = posting_ends.checked_add(words.checked_mul(4)?)?;
            at = use_ends.checked_add(texts.checked_mul(4)?)?;
            let mut blob = || {
                let len = u32_at(bytes, at)? as usize;
                let start = at.checked_add(4)?;
                at = start.checked_add(len)?;
                (at <= bytes.len()).then_some(start..at)
            };
            let (word_bytes, posting_bytes, use_bytes) = (blob()?, blob()?, blob()?);
            tables.push(Table {
                words,
                texts,
                word_ends,
                posting_ends,
                use_ends,
                word_bytes,
                posting_bytes,
                use_bytes,
            });
        }
        (at == bytes.len()).then_some(Words { tables })
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
        let words = bytes.get(table.word_bytes.clone())?;
        let word_at = |index: usize| {
            let range = span(bytes, table.word_ends, index, words.len())?;
            words.get(range)
        };
        // Binary search over the sorted words, each read in place.
        let (mut low, mut high) = (0, table.words);
        while low < high {
            let middle = low + (high - low) / 2;
            match word_at(middle)?.cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    let postings = bytes.get(table.posting_bytes.clone())?;
                    let range = span(bytes, table.posting_ends, middle, postings.len())?;
                    let list = postings.get(range)?;
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
        let all = bytes.get(table.use_bytes.clone())?;
        let list = all.get(span(bytes, table.use_ends, index, all.len())?)?;
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
}

/// An opened index with the bytes it reads and the number of printings it was opened for:
/// what [`crate::cards::CardDb::word_index`] hands a search.
#[derive(Debug, Clone, Copy)]
pub struct WordIndex<'a> {
    pub(super) words: &'a Words,
    pub(super) bytes: &'a [u8],
    pub(super) printings: usize,
}

impl WordIndex<'_> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Vec<u8>, Vec<u8>) {
        let details = details_encoding::encode(&details_encoding::tests::sample(), true).unwrap();
        let words = encode(&details).unwrap();
        (details, words)
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
