//! Reading one deck list safely, from a file or standard input: only a regular file, at
//! most [`MAX_FILE_BYTES`], [`MAX_LINES`] lines and [`MAX_LINE_BYTES`] a line, decoded to
//! text ([`DeckInput`]). Every command that reads deck lists reads them here. It parses
//! nothing (that is [`super::parse`]) and never prints.

use std::io::Read;

/// Largest deck file deckbox reads (a 60-card list is about 2 KB).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Most lines a deck list may have (a 60-card list has at most about 70). Counted the way
/// the parser cuts lines (`\n`, `\r\n` or a lone `\r`), before anything is parsed. Each
/// line read costs about 1.2 KB (the card line and its finding), and about 3 KB more in JSON
/// output, so 10,000 lines stay within the memory floor however short they are; 200,000
/// short lines cost 230 MB.
pub const MAX_LINES: usize = 10_000;

/// Longest line a deck list may have, in bytes (a card line is under 100). A longer line
/// is not a deck list, and every message quoting it would repeat it.
pub const MAX_LINE_BYTES: usize = 4096;

/// Most objects and array elements a JSON deck list may hold (each `{` and `,` outside its
/// strings, counted before the JSON is parsed): a 60-card list has under 300. Every object
/// that is not a card becomes a finding of about 1.6 KB, so this, not the bytes, bounds what
/// a JSON list costs (an 8 MiB file holds 2.8 million `{}`).
pub const MAX_JSON_VALUES: usize = 10_000;

/// One deck to check: its name for reports and its text as decoded.
#[derive(Debug, Clone, Default)]
pub struct DeckInput {
    /// How reports name the deck (a path, or `-` for standard input); a file name that is
    /// not UTF-8 has its other bytes written `\xFF` ([`crate::util::escape::path`]).
    pub path: String,
    pub text: String,
    /// The legacy encoding the text was decoded from, when it was not UTF-8.
    pub encoding_fallback: Option<&'static str>,
    /// The file name's bytes when it is not UTF-8, for machine output to give without loss.
    pub path_bytes: Option<Vec<u8>>,
    /// A JSON list as [`read_deck`] read it (strictly, to refuse what is no deck list), so
    /// checking it does not read the JSON again; `None` for a text list or an input built
    /// by hand, which [`crate::check::check`] parses itself.
    pub json: Option<super::DeckList>,
}

impl DeckInput {
    /// Decodes raw bytes (UTF-8, else a legacy encoding with an `encoding` warning).
    pub fn from_bytes(path: impl Into<String>, bytes: &[u8]) -> DeckInput {
        let decoded = super::decode(bytes);
        DeckInput {
            path: path.into(),
            text: decoded.text,
            encoding_fallback: decoded.fallback,
            path_bytes: None,
            json: None,
        }
    }
}

/// Why a deck list could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ReadError {
    /// The file (or standard input) could not be read.
    #[error("cannot read {name}: {reason}")]
    ReadDeck {
        name: String,
        reason: std::io::Error,
    },
    /// A deck list path that is a pipe, a device or a folder.
    #[error(
        "cannot read {name}: it is {kind}, not a file; give a deck list's content on standard input with `-`"
    )]
    NotAFile { name: String, kind: &'static str },
    #[error("{name} is larger than {mib} MiB; deck lists are a few kilobytes")]
    DeckTooLarge { name: String, mib: u64 },
    #[error("{name}: {lines} lines; a deck list may have at most {max} lines")]
    TooManyLines {
        name: String,
        lines: usize,
        max: usize,
    },
    #[error(
        "{name}:{line}: a line of {bytes} bytes; a deck list's lines may have at most {max} bytes"
    )]
    LineTooLong {
        name: String,
        line: usize,
        bytes: usize,
        max: usize,
    },
    #[error(
        "{name}: more than {max} JSON objects and array elements; a JSON deck list has a few hundred"
    )]
    TooManyJsonValues { name: String, max: usize },
    #[error("standard input (`-`) can only be read once")]
    StdinTwice,
    /// JSON (or a `*.json` file) that is no deck list deckbox can read: never judged nor
    /// rewritten.
    #[error("{name}:{line}:{column}: not a deck list deckbox can read: {why}")]
    NotADeck {
        name: String,
        line: usize,
        column: usize,
        why: String,
    },
}

/// Reads one deck file (or standard input for `-`), bounded in size ([`MAX_FILE_BYTES`])
/// and in lines ([`MAX_LINES`]). Every command that reads deck lists reads them here.
pub fn read_deck(
    file: &std::path::Path,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Result<DeckInput, ReadError> {
    let mut bytes = Vec::new();
    let is_stdin = file.as_os_str() == "-";
    let name = name_of(file);
    if is_stdin {
        if std::mem::replace(stdin_used, true) {
            return Err(ReadError::StdinTwice);
        }
        stdin
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|reason| ReadError::ReadDeck {
                name: name.clone(),
                reason,
            })?;
    } else {
        // A named pipe would block forever without a writer, a terminal until typed at:
        // only regular files are opened (symbolic links followed).
        let unreadable = |reason| ReadError::ReadDeck {
            name: name.clone(),
            reason,
        };
        let metadata = std::fs::metadata(file).map_err(unreadable)?;
        if !metadata.is_file() {
            return Err(ReadError::NotAFile {
                name,
                kind: crate::util::bounded::kind(&metadata.file_type()),
            });
        }
        let handle = std::fs::File::open(file).map_err(unreadable)?;
        handle
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
    }
    let mut input = from_read(file, &bytes)?;
    input.path_bytes = crate::util::escape::path_bytes(file);
    Ok(input)
}

/// How messages name `file`: `standard input` for `-`.
fn name_of(file: &std::path::Path) -> String {
    if file.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        crate::util::escape::visible(&crate::util::escape::path(file)).into_owned()
    }
}

/// A deck list's bytes read from elsewhere (standard input, a file, a git revision) named
/// `file`, held to the bounds [`read_deck`] holds a file to: [`MAX_FILE_BYTES`] (give at
/// most one byte more to tell), [`MAX_LINES`], [`MAX_LINE_BYTES`], [`MAX_JSON_VALUES`].
pub fn from_read(file: &std::path::Path, bytes: &[u8]) -> Result<DeckInput, ReadError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(file));
    }
    bounded(
        file,
        DeckInput::from_bytes(crate::util::escape::path(file), bytes),
    )
}

/// A deck list that is already text (an editor's buffer, a web page's text box), named
/// `file`, held to the same bounds as [`from_read`] but never decoded again: its spans are
/// offsets in `text` as given. (Decoding would read a text whose characters alternate with
/// NULs as UTF-16 and give another text.)
pub fn from_text(file: &std::path::Path, text: &str) -> Result<DeckInput, ReadError> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(file));
    }
    let input = DeckInput {
        path: crate::util::escape::path(file),
        text: text.to_owned(),
        ..DeckInput::default()
    };
    bounded(file, input)
}

fn too_large(file: &std::path::Path) -> ReadError {
    ReadError::DeckTooLarge {
        name: name_of(file),
        mib: MAX_FILE_BYTES / 1024 / 1024,
    }
}

/// Holds a decoded deck list to [`MAX_LINES`], [`MAX_LINE_BYTES`] and [`MAX_JSON_VALUES`],
/// and reads it as JSON when it is.
fn bounded(file: &std::path::Path, mut input: DeckInput) -> Result<DeckInput, ReadError> {
    let name = name_of(file);
    let shape = measure(&input.text);
    if shape.lines > MAX_LINES {
        return Err(ReadError::TooManyLines {
            name,
            lines: shape.lines,
            max: MAX_LINES,
        });
    }
    if let Some((line, bytes)) = shape.first_long_line {
        return Err(ReadError::LineTooLong {
            name,
            line,
            bytes,
            max: MAX_LINE_BYTES,
        });
    }
    if super::json::is_json(&input.text)
        && crate::util::bounded::json_values(input.text.as_bytes()) > MAX_JSON_VALUES
    {
        return Err(ReadError::TooManyJsonValues {
            name: name.clone(),
            max: MAX_JSON_VALUES,
        });
    }
    input.json = read_json_deck(file, &input).map_err(|refused| ReadError::NotADeck {
        name,
        line: refused.line,
        column: refused.column,
        why: crate::util::escape::visible(&refused.why).into_owned(),
    })?;
    Ok(input)
}

/// A text read as JSON (its first character is `{` or `[`, or its file is named `*.json`)
/// must be a deck list [`super::read_json`] reads: anything else would be judged as an
/// empty deck, or rewritten without the keys deckbox does not know. The list read, for a
/// JSON text.
fn read_json_deck(
    file: &std::path::Path,
    input: &DeckInput,
) -> Result<Option<super::DeckList>, super::NotADeck> {
    let named_json = file
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"));
    if named_json || super::json::is_json(&input.text) {
        return super::read_json(&input.text).map(Some);
    }
    Ok(None)
}

/// The lines of a text, as [`measure`] counts them.
struct Shape {
    lines: usize,
    /// The first line longer than [`MAX_LINE_BYTES`]: its number and length in bytes.
    first_long_line: Option<(usize, usize)>,
}

/// Counts the lines the parser will see in `text` (line endings are `\n`, `\r\n` and a
/// lone `\r`; text after the last ending is one more line) and finds the first line over
/// [`MAX_LINE_BYTES`]. One pass over the bytes, nothing allocated.
fn measure(text: &str) -> Shape {
    let mut lines = 0;
    let mut first_long_line = None;
    let mut start = 0;
    let mut line = |length: usize, lines: &mut usize| {
        *lines += 1;
        if length > MAX_LINE_BYTES && first_long_line.is_none() {
            first_long_line = Some((*lines, length));
        }
    };
    for (end, next) in super::line_breaks(text) {
        line(end - start, &mut lines);
        start = next;
    }
    // Text after the last line ending is one more line.
    if start < text.len() {
        line(text.len() - start, &mut lines);
    }
    Shape {
        lines,
        first_long_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An editor's text is read as given: one whose characters alternate with NULs (a
    /// UTF-16 file opened as UTF-8) would be decoded again as UTF-16 by `from_read`, and
    /// the spans found in that other text would not fall in the editor's (a fuzz crash of
    /// `deckbox lsp`'s completion, fuzz/regressions/editor).
    #[test]
    fn a_text_is_not_decoded_again() {
        let utf16: Vec<u8> = "Pokémon: 4\n4 Dreepy TWM 128\nTrainer: 1\n1 Iono PAL 185\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let text = &*String::from_utf8_lossy(&utf16);
        let file = std::path::Path::new("-");
        assert_eq!(from_text(file, text).unwrap().text, text);
        assert_ne!(from_read(file, text.as_bytes()).unwrap().text, text);
        let huge = "a\n".repeat(MAX_LINES + 1);
        assert!(matches!(
            from_text(file, &huge),
            Err(ReadError::TooManyLines { .. })
        ));
    }

    /// The JSON list `read_deck` keeps is the one `check` would parse: the cache changes
    /// no verdict. A text list keeps none.
    #[test]
    fn a_json_deck_is_read_once_and_kept_as_parsed() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("deck.json");
        let text = "{\"player\": \"Ash\",\n \"pokemon\": [{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}]}\n";
        std::fs::write(&json, text).unwrap();
        let read = |path: &std::path::Path| read_deck(path, &mut std::io::empty(), &mut false);
        let input = read(&json).unwrap();
        assert_eq!(input.json, Some(crate::deck::parse(text)));
        let plain = dir.path().join("deck.txt");
        std::fs::write(&plain, "4 Dreepy TWM 128\n").unwrap();
        assert_eq!(read(&plain).unwrap().json, None);
    }
}
