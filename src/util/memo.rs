//! A bounded memo shared by threads: a value computed once per key, for work a repository
//! check repeats deck after deck (name keys, suggestions, a format's verdict on a printing).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

/// Most entries a memo keeps: enough for every card of a real repository, while a hostile
/// file of a million distinct names cannot grow it without bound. Past it, values are
/// computed and not kept.
pub const MAX_ENTRIES: usize = 1 << 16;

/// Key → value, computed on first use. A cache, not part of any value that holds it: a
/// clone starts empty and any two memos compare equal.
#[derive(Debug)]
pub struct Memo<K, V>(Mutex<HashMap<K, V>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Memo<K, V> {
        Memo(Mutex::new(HashMap::new()))
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

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// The value for `key`, computed by `compute` the first time (`owned` makes the key to
    /// keep from the borrowed one).
    pub fn get_or<Q>(&self, key: &Q, owned: impl FnOnce(&Q) -> K, compute: impl FnOnce() -> V) -> V
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        if let Some(value) = self.0.lock().ok().and_then(|memo| memo.get(key).cloned()) {
            return value;
        }
        let value = compute();
        if let Ok(mut memo) = self.0.lock()
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
        assert_eq!(memo.0.lock().unwrap().len(), MAX_ENTRIES);
        assert!(memo.clone().0.lock().unwrap().is_empty());
    }
}
