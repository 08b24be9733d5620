//! JSON deck lists written to hurt: extra keys a rewrite must keep, duplicate keys, wrong
//! types, and JSON that is no deck at all (never judged, never rewritten).
