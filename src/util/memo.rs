//! A value derived from a struct's fields on first use and kept with it: a printing's rules
//! name and its key. Invisible to comparison, debugging output and serialization (fields
//! holding one are `#[serde(skip)]`): two values with the same fields are equal whether or
//! not either has been used.
//!
//! The fields a memo derives from must not change after its first use; the structs that hold
//! one are built once (loaded, decoded) and then only read.

use std::sync::OnceLock;

#[derive(Clone, Default)]
pub struct Memo<T>(OnceLock<T>);

impl<T> Memo<T> {
    /// The value, computed by `init` on the first call.
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(init)
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}
