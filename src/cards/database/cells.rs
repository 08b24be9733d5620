//! [`Cells`]: one cell a printing, each filled once on first access, in chunks allocated
//! the first time one of their cells is asked for.
//!
//! Opening the embedded index used to write 21,159 empty cells (a third of a megabyte of
//! fresh heap pages) before a search that then reads a few dozen of them; a chunk now
//! costs its allocation only once something in it is read (measured in
//! docs/performance.md, "Start-up of a narrow search, part two").

use std::sync::OnceLock;

/// Cells a chunk holds: small enough that a search's few printings touch little memory,
/// large enough that the table of chunks stays small (331 chunks for 21,159 printings).
const CHUNK: usize = 64;

/// Up to [`CHUNK`] cells, allocated together.
type Chunk<T> = Box<[OnceLock<T>]>;

/// `len` cells of `T`, each set at most once.
#[derive(Debug)]
pub(crate) struct Cells<T> {
    len: usize,
    chunks: Box<[OnceLock<Chunk<T>>]>,
}

impl<T> Cells<T> {
    /// `len` empty cells; no chunk is allocated yet.
    pub(crate) fn empty(len: usize) -> Cells<T> {
        Cells {
            len,
            chunks: (0..len.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect(),
        }
    }

    /// One cell a value, each already set.
    pub(crate) fn filled(values: Vec<T>) -> Cells<T> {
        let len = values.len();
        let mut values = values.into_iter();
        let chunks = (0..len.div_ceil(CHUNK))
            .map(|_| {
                let chunk: Chunk<T> = values.by_ref().take(CHUNK).map(OnceLock::from).collect();
                OnceLock::from(chunk)
            })
            .collect();
        Cells { len, chunks }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Cell `index`, its chunk allocated if it was not; `None` past the end.
    pub(crate) fn get(&self, index: usize) -> Option<&OnceLock<T>> {
        if index >= self.len {
            return None;
        }
        let (chunk, at) = (index / CHUNK, index % CHUNK);
        let size = CHUNK.min(self.len - chunk * CHUNK);
        self.chunks
            .get(chunk)?
            .get_or_init(|| (0..size).map(|_| OnceLock::new()).collect())
            .get(at)
    }

    /// How many cells are set, counted without allocating a chunk.
    #[cfg(test)]
    pub(crate) fn set_count(&self) -> usize {
        (self.chunks.iter().filter_map(OnceLock::get))
            .map(|chunk| chunk.iter().filter(|cell| cell.get().is_some()).count())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_its_own_and_none_past_the_end() {
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 3] {
            let cells: Cells<usize> = Cells::empty(len);
            assert_eq!(cells.len(), len);
            assert!(cells.get(len).is_none(), "{len}");
            for i in (0..len).rev() {
                assert_eq!(*cells.get(i).unwrap().get_or_init(|| i), i);
            }
            for i in 0..len {
                assert_eq!(cells.get(i).unwrap().get(), Some(&i), "{len} {i}");
            }
            let filled = Cells::filled((0..len).map(|i| i * 2).collect());
            assert_eq!(filled.len(), len);
            assert!(filled.get(len).is_none());
            for i in 0..len {
                assert_eq!(filled.get(i).unwrap().get(), Some(&(i * 2)), "{len} {i}");
            }
        }
    }

    #[test]
    fn a_chunk_is_allocated_only_when_one_of_its_cells_is_read() {
        let cells: Cells<u8> = Cells::empty(3 * CHUNK);
        assert!(cells.chunks.iter().all(|chunk| chunk.get().is_none()));
        cells.get(CHUNK + 5);
        let allocated: Vec<bool> = cells.chunks.iter().map(|c| c.get().is_some()).collect();
        assert_eq!(allocated, [false, true, false]);
        assert_eq!(cells.set_count(), 0);
        let _ = cells.get(CHUNK + 5).map(|cell| cell.set(7));
        let _ = cells.get(2 * CHUNK).map(|cell| cell.set(8));
        assert_eq!(cells.set_count(), 2);
    }
}
