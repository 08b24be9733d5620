//! [`NameSketch`]: what the first, cheapest cut of the suggestion search for an unknown
//! name needs about each known name. A [`CardDb`](super::CardDb) builds its sketches once,
//! for its first suggestion search; the search itself is
//! [`crate::cards::identification::resolve::suggestions`].

/// [`crate::names::fold`] of a lookup key, without the work: a key is already folded except for
/// the word `EX`, which keys keep upper case.
pub(crate) fn fold_key(key: &str) -> std::borrow::Cow<'_, str> {
    if key.bytes().any(|byte| byte.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(key.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(key)
    }
}

/// What the first, cheapest cut of a suggestion search needs about a known name (its
/// folded lookup key): lengths, and which of 64 character buckets it uses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameSketch {
    pub(crate) bytes: u32,
    pub(crate) chars: u32,
    pub(crate) mask: u64,
}

impl NameSketch {
    pub(crate) fn of(key: &str) -> NameSketch {
        let folded = fold_key(key);
        let mut mask = 0u64;
        let mut chars = 0u32;
        for c in folded.chars() {
            mask |= 1 << coarse_bucket(c);
            chars = chars.saturating_add(1);
        }
        NameSketch {
            bytes: u32::try_from(folded.len()).unwrap_or(u32::MAX),
            chars,
            mask,
        }
    }
}

/// Which of the 64 buckets of a [`NameSketch`] a character falls in.
pub(crate) fn coarse_bucket(c: char) -> u32 {
    u32::from(c) & 63
}
