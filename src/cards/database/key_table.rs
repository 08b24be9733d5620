//! A sorted table from string keys to lists of `u32` values, and the little-endian byte
//! layout [`super::CardDb`] is cached in.
//!
//! A [`KeyTable`] is four flat arrays (all keys concatenated, their end offsets, the end
//! offsets of each key's values, all values) searched by binary search: reading one back
//! from a cache is a few bulk copies, with no allocation per key, which is what keeps a
//! warm open of a 100k-key index in the low milliseconds; reading one from the embedded
//! index copies nothing (the arrays are read in place). This module must not know what
//! the keys and values mean (names, set numbers, printing ids): `card_db.rs` decides.

use std::borrow::Cow;
use std::ops::Range;

/// Keys in byte order, each with a non-empty, sorted, deduplicated list of values.
///
/// A table read from bytes that live as long as the program (the embedded index) is read
/// where it is ([`KeyTable::decode_static`]): nothing is copied at start-up, values are read
/// as little-endian `u32`s when asked for.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct KeyTable {
    /// UTF-8: checked whole when a table is decoded from a file, key by key as each is read
    /// from the embedded index.
    keys: Cow<'static, [u8]>,
    /// `key_ends[i]` is where key `i` ends in `keys`; it starts where key `i - 1` ends.
    key_ends: U32s,
    /// `value_ends[i]` is where key `i`'s values end in `values`.
    value_ends: U32s,
    values: U32s,
}

/// `u32`s held in memory, or little-endian bytes read in place.
#[derive(Debug, Clone)]
pub enum U32s {
    Owned(Vec<u32>),
    Static(&'static [u8]),
}

impl Default for U32s {
    fn default() -> U32s {
        U32s::Owned(Vec::new())
    }
}

impl PartialEq for U32s {
    fn eq(&self, other: &U32s) -> bool {
        self.all().len() == other.all().len() && self.all().iter().eq(other.all().iter())
    }
}

impl Eq for U32s {}

impl U32s {
    pub fn all(&self) -> Values<'_> {
        match self {
            U32s::Owned(values) => Values::Slice(values),
            U32s::Static(bytes) => Values::Le(bytes),
        }
    }
}

/// The `u32`s of one key (or of a whole table): a slice in memory, or little-endian bytes
/// read in place.
#[derive(Debug, Clone, Copy)]
pub enum Values<'a> {
    Slice(&'a [u32]),
    Le(&'a [u8]),
}

impl<'a> Values<'a> {
    pub fn len(self) -> usize {
        match self {
            Values::Slice(values) => values.len(),
            Values::Le(bytes) => bytes.len() / 4,
        }
    }

    pub fn get(self, i: usize) -> Option<u32> {
        match self {
            Values::Slice(values) => values.get(i).copied(),
            Values::Le(bytes) => {
                let at = i.checked_mul(4)?;
                let word = bytes.get(at..at.checked_add(4)?)?;
                Some(u32::from_le_bytes(word.try_into().ok()?))
            }
        }
    }

    pub fn first(self) -> Option<u32> {
        self.get(0)
    }

    /// The values `range`, `None` past the end.
    fn range(self, range: Range<usize>) -> Option<Values<'a>> {
        match self {
            Values::Slice(values) => values.get(range).map(Values::Slice),
            Values::Le(bytes) => bytes
                .get(range.start.checked_mul(4)?..range.end.checked_mul(4)?)
                .map(Values::Le),
        }
    }

    /// The values in memory; `None` for values read in place.
    pub fn as_slice(self) -> Option<&'a [u32]> {
        match self {
            Values::Slice(values) => Some(values),
            Values::Le(_) => None,
        }
    }

    pub fn iter(self) -> impl Iterator<Item = u32> + 'a {
        let (slice, bytes): (&[u32], &[u8]) = match self {
            Values::Slice(values) => (values, &[]),
            Values::Le(bytes) => (&[], bytes),
        };
        let read = bytes
            .chunks_exact(4)
            .map(|word| word.try_into().map_or(0, u32::from_le_bytes));
        slice.iter().copied().chain(read)
    }

    pub fn is_sorted(self) -> bool {
        match self {
            Values::Slice(values) => values.is_sorted(),
            Values::Le(_) => self.iter().is_sorted(),
        }
    }

    pub fn last(self) -> Option<u32> {
        self.get(self.len().checked_sub(1)?)
    }
}

impl KeyTable {
    /// Builds a table from `(key, value)` pairs in any order, repeats allowed. Returns
    /// `None` when the keys or values do not fit `u32` offsets (over 4 GiB).
    pub fn build<K: AsRef<str> + Ord>(mut entries: Vec<(K, u32)>) -> Option<KeyTable> {
        entries.sort_unstable_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()).then(a.1.cmp(&b.1)));
        entries.dedup_by(|a, b| a.0.as_ref() == b.0.as_ref() && a.1 == b.1);
        let mut keys = String::new();
        let (mut key_ends, mut value_ends, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let mut last: Option<&str> = None;
        for (key, value) in &entries {
            let key = key.as_ref();
            if last != Some(key) {
                keys.push_str(key);
                key_ends.push(u32::try_from(keys.len()).ok()?);
                value_ends.push(0);
                last = Some(key);
            }
            values.push(*value);
            let count = u32::try_from(values.len()).ok()?;
            if let Some(end) = value_ends.last_mut() {
                *end = count;
            }
        }
        Some(KeyTable {
            keys: Cow::Owned(keys.into_bytes()),
            key_ends: U32s::Owned(key_ends),
            value_ends: U32s::Owned(value_ends),
            values: U32s::Owned(values),
        })
    }

    /// How many distinct keys the table holds.
    pub fn len(&self) -> usize {
        self.key_ends.all().len()
    }

    /// Every value of every key, in key order.
    pub fn values(&self) -> Values<'_> {
        self.values.all()
    }

    /// The row of `key` (see [`KeyTable::values_at`]), `None` when the key is absent.
    pub fn row(&self, key: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match self.key(mid).map(|k| k.cmp(key)) {
                Some(std::cmp::Ordering::Less) => low = mid + 1,
                Some(std::cmp::Ordering::Greater) => high = mid,
                Some(std::cmp::Ordering::Equal) => return Some(mid),
                // Only a damaged cache gets here (offsets checked at decode, so never).
                None => return None,
            }
        }
        None
    }

    /// Every key with its values, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Values<'_>)> {
        (0..self.len()).filter_map(|i| Some((self.key(i)?, self.values_at(i))))
    }

    pub fn key(&self, i: usize) -> Option<&str> {
        std::str::from_utf8(self.keys.get(span_of(self.key_ends.all(), i)?)?).ok()
    }

    pub fn values_at(&self, i: usize) -> Values<'_> {
        span_of(self.value_ends.all(), i)
            .and_then(|range| self.values.all().range(range))
            .unwrap_or(Values::Slice(&[]))
    }

    /// All keys, concatenated in key order, and where each ends: what a scan of every key
    /// for one substring reads (see [`CardDb::names_containing`](super::CardDb::names_containing)).
    pub fn keys_and_ends(&self) -> (&[u8], Values<'_>) {
        (&self.keys, self.key_ends.all())
    }

    /// Appends the table to `out` (see [`KeyTable::decode`]).
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_blob(out, &self.keys);
        for u32s in [&self.key_ends, &self.value_ends, &self.values] {
            let values = u32s.all();
            out.extend_from_slice(&((values.len() * 4) as u64).to_le_bytes());
            for value in values.iter() {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
    }

    /// Reads a table written by [`KeyTable::encode`], checking that every offset lands
    /// inside its array (and on a character boundary), so lookups never fail later.
    pub fn decode(reader: &mut Reader<'_>) -> Option<KeyTable> {
        let keys = std::str::from_utf8(reader.blob()?).ok()?;
        let table = KeyTable {
            keys: Cow::Owned(keys.as_bytes().to_vec()),
            key_ends: U32s::Owned(reader.u32s()?),
            value_ends: U32s::Owned(reader.u32s()?),
            values: U32s::Owned(reader.u32s()?),
        };
        table.is_consistent(keys).then_some(table)
    }

    /// [`KeyTable::decode`] of bytes that live as long as the program (the embedded index):
    /// the table is read where it is, nothing copied, and not checked offset by offset at
    /// every start (a test checks the embedded index as a file's tables are checked: the
    /// arrays' sizes are checked here, every lookup is checked anyway, and a key that is
    /// not UTF-8 reads as no key, never a panic).
    pub fn decode_static(reader: &mut Reader<'static>) -> Option<KeyTable> {
        let keys = reader.blob()?;
        let mut u32s = || {
            let blob = reader.blob()?;
            (blob.len() % 4 == 0).then_some(U32s::Static(blob))
        };
        let table = KeyTable {
            keys: Cow::Borrowed(keys),
            key_ends: u32s()?,
            value_ends: u32s()?,
            values: u32s()?,
        };
        let sizes = table.key_ends.all().len() == table.value_ends.all().len()
            && table.key_ends.all().last().map_or(0, |end| end as usize) == keys.len()
            && (table.value_ends.all().last()).map_or(0, |end| end as usize)
                == table.values.all().len();
        sizes.then_some(table)
    }

    /// Whether the offsets fit the arrays and fall on the character boundaries of `keys`
    /// (the table's keys, checked UTF-8).
    fn is_consistent(&self, keys: &str) -> bool {
        let ends_ok = |ends: Values<'_>, total: usize| {
            ends.is_sorted() && ends.last().map_or(0, |end| end as usize) == total
        };
        let key_ends = self.key_ends.all();
        key_ends.len() == self.value_ends.all().len()
            && ends_ok(key_ends, self.keys.len())
            && ends_ok(self.value_ends.all(), self.values.all().len())
            && key_ends
                .iter()
                .all(|end| keys.is_char_boundary(end as usize))
    }
}

/// The range of item `i` in an array described by end offsets.
pub fn span(ends: &[u32], i: usize) -> Option<Range<usize>> {
    span_of(Values::Slice(ends), i)
}

/// [`span`] of end offsets in memory or read in place.
pub fn span_of(ends: Values<'_>, i: usize) -> Option<Range<usize>> {
    let start = match i.checked_sub(1) {
        Some(previous) => ends.get(previous)?,
        None => 0,
    };
    let end = ends.get(i)?;
    (start <= end).then_some(start as usize..end as usize)
}

/// Appends `bytes` with a little-endian `u64` length in front.
pub fn put_blob(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// Appends `values` as a blob of little-endian `u32`s.
pub fn put_u32s(out: &mut Vec<u8>, values: &[u32]) {
    out.extend_from_slice(&((values.len() * 4) as u64).to_le_bytes());
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

/// Reads what [`put_blob`] and [`put_u32s`] wrote, front to back. Every read is checked:
/// a short or damaged buffer yields `None`, never a panic.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8], position: usize) -> Reader<'a> {
        Reader { bytes, position }
    }

    /// Where the next read starts.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Whether everything was read.
    pub fn at_end(&self) -> bool {
        self.position == self.bytes.len()
    }

    pub fn blob(&mut self) -> Option<&'a [u8]> {
        let len_bytes = self
            .bytes
            .get(self.position..self.position.checked_add(8)?)?;
        let len = usize::try_from(u64::from_le_bytes(len_bytes.try_into().ok()?)).ok()?;
        let start = self.position + 8;
        let blob = self.bytes.get(start..start.checked_add(len)?)?;
        self.position = start + len;
        Some(blob)
    }

    /// A blob of little-endian `u32`s, read where it is.
    pub fn u32s_in_place(&mut self) -> Option<&'a [u8]> {
        let blob = self.blob()?;
        (blob.len() % 4 == 0).then_some(blob)
    }

    pub fn u32s(&mut self) -> Option<Vec<u32>> {
        let blob = self.blob()?;
        if blob.len() % 4 != 0 {
            return None;
        }
        Some(
            blob.chunks_exact(4)
                .map(|chunk| u32::from_le_bytes(chunk.try_into().unwrap_or_default()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(entries: &[(&str, u32)]) -> KeyTable {
        KeyTable::build(entries.to_vec()).unwrap()
    }

    impl KeyTable {
        /// The values of `key`, empty when the key is absent.
        fn get(&self, key: &str) -> Vec<u32> {
            self.row(key)
                .map_or(Vec::new(), |row| self.values_at(row).iter().collect())
        }
    }

    #[test]
    fn hits_and_misses() {
        let t = table(&[("pikachu", 3), ("dreepy", 1), ("pikachu", 2)]);
        assert_eq!(t.len(), 2);
        assert_eq!(t.get("pikachu"), [2, 3]);
        assert_eq!(t.get("dreepy"), [1]);
        assert_eq!(t.get("drakloak"), [] as [u32; 0]);
        assert_eq!(t.get(""), [] as [u32; 0]);
        assert_eq!(t.get("zzz"), [] as [u32; 0]);
        assert_eq!(KeyTable::default().get("x"), [] as [u32; 0]);
    }

    #[test]
    fn keys_sharing_prefixes() {
        let t = table(&[
            ("pikachu ex", 4),
            ("pikachu", 1),
            ("pika", 2),
            ("pikachu v", 3),
            ("p", 5),
        ]);
        assert_eq!(t.get("p"), [5]);
        assert_eq!(t.get("pika"), [2]);
        assert_eq!(t.get("pikachu"), [1]);
        assert_eq!(t.get("pikachu ex"), [4]);
        assert_eq!(t.get("pikachu v"), [3]);
        assert_eq!(t.get("pikach"), [] as [u32; 0]);
        assert_eq!(t.get("pikachu e"), [] as [u32; 0]);
        let keys: Vec<&str> = t.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["p", "pika", "pikachu", "pikachu ex", "pikachu v"]);
    }

    #[test]
    fn many_values_per_key_sorted_and_deduplicated() {
        let mut entries: Vec<(String, u32)> =
            (0..1000).rev().map(|v| ("énergie".into(), v)).collect();
        entries.push(("énergie".into(), 7));
        entries.push(("eau".into(), 9));
        let t = KeyTable::build(entries).unwrap();
        let expected: Vec<u32> = (0..1000).collect();
        assert_eq!(t.get("énergie"), expected.as_slice());
        assert_eq!(t.get("eau"), [9]);
    }

    #[test]
    fn encode_decode_round_trip_and_damage() {
        let t = table(&[("fantyrm", 9), ("dreepy", 8), ("dreepy", 1)]);
        let mut bytes = Vec::new();
        t.encode(&mut bytes);
        let mut reader = Reader::new(&bytes, 0);
        assert_eq!(KeyTable::decode(&mut reader), Some(t.clone()));
        assert!(reader.at_end());
        for cut in 0..bytes.len() {
            assert_eq!(KeyTable::decode(&mut Reader::new(&bytes[..cut], 0)), None);
        }
        // An offset pointing past the keys is refused.
        let mut damaged = bytes.clone();
        let first_end = 8 + "dreepyfantyrm".len() + 8;
        damaged[first_end] = 200;
        assert_eq!(KeyTable::decode(&mut Reader::new(&damaged, 0)), None);
    }

    #[test]
    fn read_in_place_as_copied() {
        let t = table(&[("fantyrm", 9), ("dreepy", 8), ("dreepy", 1), ("énergie", 3)]);
        let mut bytes = Vec::new();
        t.encode(&mut bytes);
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let mut reader = Reader::new(bytes, 0);
        let in_place = KeyTable::decode_static(&mut reader).unwrap();
        assert!(reader.at_end());
        assert!(matches!(in_place.values_at(0), Values::Le(_)));
        assert_eq!(in_place, t);
        assert_eq!(in_place.get("dreepy"), [1, 8]);
        assert_eq!(in_place.get("énergie"), [3]);
        assert_eq!(in_place.get("zzz"), [] as [u32; 0]);
        assert_eq!(in_place.values_at(0).as_slice(), None);
        let mut again = Vec::new();
        in_place.encode(&mut again);
        assert_eq!(again, bytes);
        for cut in 0..bytes.len() {
            assert_eq!(
                KeyTable::decode_static(&mut Reader::new(&bytes[..cut], 0)),
                None
            );
        }
        // A key end out of place is not looked for at every start (a test checks the
        // embedded index as a file is checked): the table reads, each lookup stays checked
        // (no panic, a key cut inside a character reads as none), and a file's is refused.
        let key_ends = 8 + "dreepyfantyrménergie".len() + 8;
        for (at, end) in [(0, 200), (1, 14)] {
            let mut damaged = bytes.to_vec();
            damaged[key_ends + 4 * at] = end;
            assert_eq!(KeyTable::decode(&mut Reader::new(&damaged, 0)), None);
            let damaged: &'static [u8] = Box::leak(damaged.into_boxed_slice());
            let read = KeyTable::decode_static(&mut Reader::new(damaged, 0)).unwrap();
            for i in 0..4 {
                let _ = (read.key(i), read.values_at(i).iter().count());
            }
            assert_eq!(read.key(2), if at == 1 { None } else { Some("énergie") });
            let _ = (read.get("dreepy"), read.get("énergie"), read.iter().count());
        }
        // The arrays' sizes are still checked: the last key end is the keys' length.
        let mut damaged = bytes.to_vec();
        damaged[key_ends + 4 * 2] = 200;
        let damaged: &'static [u8] = Box::leak(damaged.into_boxed_slice());
        assert_eq!(KeyTable::decode_static(&mut Reader::new(damaged, 0)), None);
    }
}
