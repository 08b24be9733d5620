//! Turning the bytes of a deck file into text, saying when a fallback encoding was used.
//!
//! UTF-8 is kept as is (a UTF-8 BOM included, so spans stay offsets into the file as
//! written); UTF-16 with a BOM is decoded, and so is UTF-16 without one when its zero
//! bytes say so (a deck list is mostly ASCII, whose UTF-16 has a zero byte in every pair;
//! no real text file in UTF-8 does); UTF-8 with a few damaged sequences stays UTF-8, the
//! bad bytes replaced (see [`LOSSY_UTF8`]); anything else is read as Windows-1252, the
//! encoding old Windows exports and Notepad used. This module must not parse or report:
//! the caller decides whether a fallback deserves an `encoding` warning.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// Text decoded from a deck file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded text. A UTF-8 BOM is kept (the parser skips it); a UTF-16 BOM is not,
    /// since UTF-16 offsets never match the decoded text anyway.
    pub text: String,
    /// The encoding used when the bytes were not UTF-8 (`"windows-1252"`, `"UTF-16LE"`,
    /// `"UTF-16BE"`), or [`LOSSY_UTF8`], for an `encoding` warning; `None` for UTF-8.
    pub fallback: Option<&'static str>,
}

/// [`Decoded::fallback`] for a UTF-8 file with damaged bytes: one that starts with a UTF-8
/// BOM, or whose well-formed multi-byte sequences outnumber its malformed ones. The bad
/// bytes become U+FFFD and only their lines are damaged, instead of the whole file being
/// re-read as Windows-1252 (which would turn every `é` elsewhere into `Ã©`).
pub const LOSSY_UTF8: &str = "UTF-8 with invalid bytes replaced";

/// Decodes a deck file: UTF-8 when valid, UTF-16 when it starts with a BOM, Windows-1252
/// otherwise (every byte sequence is valid Windows-1252, so this never fails).
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some(encoding) = utf16_bom(bytes) {
        // `decode` sniffs and removes the BOM; malformed surrogates become U+FFFD.
        let (text, _, _) = encoding.decode(bytes);
        return Decoded {
            text: text.into_owned(),
            fallback: Some(encoding.name()),
        };
    }
    if let Some(encoding) = utf16_by_zeros(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(bytes);
        return Decoded {
            text: text.into_owned(),
            fallback: Some(encoding.name()),
        };
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Decoded {
            text: text.to_owned(),
            fallback: None,
        },
        Err(_) if bytes.starts_with(b"\xEF\xBB\xBF") || mostly_utf8(bytes) => Decoded {
            text: String::from_utf8_lossy(bytes).into_owned(),
            fallback: Some(LOSSY_UTF8),
        },
        Err(_) => {
            let text = WINDOWS_1252.decode_without_bom_handling(bytes).0;
            Decoded {
                text: text.into_owned(),
                fallback: Some(WINDOWS_1252.name()),
            }
        }
    }
}

/// Whether bytes that are not valid UTF-8 are still UTF-8 text with a few damaged
/// sequences: it holds at least one well-formed multi-byte sequence and no more malformed
/// sequences than well-formed ones. A well-formed multi-byte sequence is evidence: in
/// Windows-1252 text it would be mojibake such as `Ã©`, which no one types. A Windows-1252
/// file, whose accented letters are all malformed UTF-8, has none.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut well_formed, mut malformed) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        well_formed += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        malformed += usize::from(!chunk.invalid().is_empty());
    }
    well_formed > 0 && malformed <= well_formed
}

fn utf16_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    match bytes {
        [0xFF, 0xFE, ..] => Some(UTF_16LE),
        [0xFE, 0xFF, ..] => Some(UTF_16BE),
        _ => None,
    }
}

/// UTF-16 without a BOM, told by where its zero bytes are in the first 1,024 bytes: in at
/// least 90% of the pairs, always on the same side (odd offsets: little-endian), and never
/// on the other side.
fn utf16_by_zeros(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = bytes.get(..bytes.len().min(1024))?;
    let pairs = head.len() / 2;
    if pairs < 2 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let (mut even, mut odd) = (0, 0);
    for pair in head.chunks_exact(2) {
        even += usize::from(pair.first() == Some(&0));
        odd += usize::from(pair.get(1) == Some(&0));
    }
    let most = pairs - pairs / 10;
    match (even, odd) {
        (0, odd) if odd >= most => Some(UTF_16LE),
        (even, 0) if even >= most => Some(UTF_16BE),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_without_a_bom_is_told_by_its_zero_bytes() {
        let text = "Pokémon: 4\r\n4 Iono PAL 185\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&le).text, text);
        assert_eq!(decode(&le).fallback, Some("UTF-16LE"));
        assert_eq!(decode(&be).text, text);
        assert_eq!(decode(&be).fallback, Some("UTF-16BE"));
        // A few NUL bytes in UTF-8 text are not UTF-16.
        let nuls = b"4 Io\0no PAL 185\n4 Boss\0s Orders\n";
        assert_eq!(decode(nuls).fallback, None);
        assert_eq!(decode(b"\0\0\0\0").fallback, None);
    }

    #[test]
    fn utf8_is_kept_with_its_bom() {
        let decoded = decode("\u{FEFF}4 Iono PAL 185".as_bytes());
        assert_eq!(decoded.text, "\u{FEFF}4 Iono PAL 185");
        assert_eq!(decoded.fallback, None);
    }

    #[test]
    fn invalid_utf8_falls_back_to_windows_1252() {
        // "Pokémon: 1" and a curly apostrophe as written by an old Windows export.
        let decoded = decode(b"Pok\xe9mon: 1\n1 Boss\x92s Orders PAL 172");
        assert_eq!(decoded.text, "Pokémon: 1\n1 Boss\u{2019}s Orders PAL 172");
        assert_eq!(decoded.fallback, Some("windows-1252"));
    }

    #[test]
    fn broken_utf8_after_a_bom_stays_utf8() {
        let decoded = decode(b"\xEF\xBB\xBF4 Pok\xe9ball SVI 185");
        assert_eq!(decoded.text, "\u{FEFF}4 Pok\u{FFFD}ball SVI 185");
        assert_eq!(decoded.fallback, Some(LOSSY_UTF8));
    }

    #[test]
    fn utf8_with_a_few_damaged_bytes_stays_utf8() {
        // Far from the stray bytes, `Poké Pad` and `Boss’s Orders` stay what they are.
        let bytes =
            b"4 Pok\xc3\xa9 Pad SFA 81\n2 Iono\xff PAL 185\n1 Boss\xe2\x80\x99s Orders PAL 172\n";
        let decoded = decode(bytes);
        assert_eq!(decoded.fallback, Some(LOSSY_UTF8));
        assert_eq!(
            decoded.text,
            "4 Poké Pad SFA 81\n2 Iono\u{FFFD} PAL 185\n1 Boss\u{2019}s Orders PAL 172\n"
        );
        // More damage than UTF-8 is not evidence of UTF-8: Windows-1252.
        let decoded = decode(b"Pok\xe9mon: 2\n1 Pok\xe9 Ball\n1 Caf\xc3\xa9\n1 \xe9t\xe9\n");
        assert_eq!(decoded.fallback, Some("windows-1252"));
    }

    #[test]
    fn utf16_with_bom_is_decoded() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("4 Pokémon".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("4 Pokémon".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&le).text, "4 Pokémon");
        assert_eq!(decode(&le).fallback, Some("UTF-16LE"));
        assert_eq!(decode(&be).text, "4 Pokémon");
        assert_eq!(decode(&be).fallback, Some("UTF-16BE"));
    }

    #[test]
    fn odd_utf16_never_panics() {
        let decoded = decode(&[0xFF, 0xFE, 0x34]);
        assert_eq!(decoded.text, "\u{FFFD}");
        assert_eq!(decode(&[]).text, "");
    }
}
