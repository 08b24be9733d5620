//! A bounded memo shared by threads: a value computed once per key, for work a repository
//! check repeats deck after deck (name keys, suggestions, a format's verdict on a printing).
//!
//! Each thread has a part of its own: threads that share one map, even under a read lock,
//! pass its cache line back and forth on every look-up, and `check DIR` looks up several
//! keys per line of every file. A value is computed once per thread that asks for it; the
//! values are the same whichever thread computes them.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most entries one part of a memo keeps: enough for every card of a real repository, while
/// a hostile file of a million distinct names cannot grow it without bound. Past it, values
/// are computed and not kept.
pub const MAX_ENTRIES: usize = 1 << 14;

/// Parts of a memo: threads beyond this many share parts. A memo holds at most
/// `PARTS * MAX_ENTRIES` entries (131,072).
pub const PARTS: usize = 8;

/// One thread's map, alone on its cache lines.
#[derive(Debug)]
#[repr(align(128))]
struct Part<K, V>(Mutex<HashMap<K, V>>);

/// Key → value, computed on first use. A cache, not part of any value that holds it: a
/// clone starts empty and any two memos compare equal.
#[derive(Debug)]
pub struct Memo<K, V>(Box<[Part<K, V>]>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Memo<K, V> {
        Memo(
            (0..PARTS)
                .map(|_| Part(Mutex::new(HashMap::new())))
                .collect(),
        )
    }
}

impl<K, V> Clone for Memo<K, V> {
    fn clone(&self) -> Memo<K, V> {
        Memo::default()
    }
}

impl<K, V> PartialEq for Memo<K, V> {
    fn eq(&self, _: &Memo<K, V>) -> bool {
        true
    }
}

/// The part of every memo this thread uses: threads are numbered as they first ask.
fn this_thread() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static MINE: usize = NEXT.fetch_add(1, Ordering::Relaxed) % PARTS;
    }
    // A thread that is ending has no number left: it shares the first part.
    MINE.try_with(|&part| part).unwrap_or(0)
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// The value for `key`, computed by `compute` the first time this thread's part is asked
    /// (`owned` makes the key to keep from the borrowed one).
    pub fn get_or<Q>(&self, key: &Q, owned: impl FnOnce(&Q) -> K, compute: impl FnOnce() -> V) -> V
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(Part(part)) = self.0.get(this_thread()) else {
            return compute();
        };
        if let Some(value) = part.lock().ok().and_then(|memo| memo.get(key).cloned()) {
            return value;
        }
        let value = compute();
        if let Ok(mut memo) = part.lock()
            && memo.len() < MAX_ENTRIES
        {
            memo.insert(owned(key), value.clone());
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept<K, V>(memo: &Memo<K, V>) -> usize {
        memo.0.iter().map(|part| part.0.lock().unwrap().len()).sum()
    }

    #[test]
    fn computes_once_and_stays_bounded() {
        let memo: Memo<String, usize> = Memo::default();
        let mut computed = 0;
        for _ in 0..3 {
            let value = memo.get_or("a", str::to_string, || {
                computed += 1;
                7
            });
            assert_eq!(value, 7);
        }
        assert_eq!(computed, 1);
        for i in 0..MAX_ENTRIES + 10 {
            memo.get_or(i.to_string().as_str(), str::to_string, || i);
        }
        assert_eq!(kept(&memo), MAX_ENTRIES);
        assert_eq!(kept(&memo.clone()), 0);
    }

    #[test]
    fn threads_keep_parts_of_their_own_and_agree() {
        let memo: Memo<String, usize> = Memo::default();
        let computed = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..PARTS * 2 {
                scope.spawn(|| {
                    for round in 0..3 {
                        let value = memo.get_or("Pikachu", str::to_string, || {
                            computed.fetch_add(1, Ordering::Relaxed);
                            25
                        });
                        assert_eq!(value, 25, "round {round}");
                    }
                });
            }
        });
        // Every thread found the value after its first look-up: at most one computation per
        // thread (two threads of one part may both compute it first), one entry per part.
        let computed = computed.load(Ordering::Relaxed);
        let parts = memo.0.iter().map(|part| part.0.lock().unwrap().len());
        assert!(parts.clone().all(|entries| entries <= 1));
        assert!((parts.sum::<usize>()..=PARTS * 2).contains(&computed));
    }
}
