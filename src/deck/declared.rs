//! What a deck file says about how to judge it: a comment line before its first card,
//! `# deckbox: format=standard, as-of=2012-08-10` (or after `//`), naming the format and
//! the date of the event it was played at. An archive of decks from many seasons can carry
//! each deck's own season this way. Keys: `format` (a built-in format id) and `as-of`
//! (`YYYY-MM-DD`); either may be left out. This module reads the line; settings decide
//! what wins over it (flags and the environment do).

use jiff::civil::Date;

/// The settings a deck declares, and the line (1-based) that declares them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub format: Option<String>,
    pub as_of: Option<Date>,
    pub line: usize,
}

/// A declaration line that cannot be read: its line (1-based) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DeclaredError {
    pub line: usize,
    pub message: String,
}

/// Lines looked at for the declaration: it belongs at the top of the file.
const MAX_LINES_SCANNED: usize = 40;

/// The declaration of `text`, if its first lines hold one (before any line that is not a
/// comment or blank).
pub fn declared(text: &str) -> Result<Option<Declared>, DeclaredError> {
    for (index, line) in text.lines().take(MAX_LINES_SCANNED).enumerate() {
        let trimmed = line.trim().trim_start_matches('\u{feff}');
        if trimmed.is_empty() {
            continue;
        }
        let Some(comment) = trimmed
            .strip_prefix("//")
            .or_else(|| trimmed.strip_prefix('#'))
        else {
            return Ok(None);
        };
        let comment = comment.trim_start_matches(['#', '/']).trim();
        let Some(rest) = strip_prefix_ignore_case(comment, "deckbox:") else {
            continue;
        };
        return parse(rest, index + 1).map(Some);
    }
    Ok(None)
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

fn parse(rest: &str, line: usize) -> Result<Declared, DeclaredError> {
    let error = |message: String| DeclaredError { line, message };
    let mut declared = Declared {
        format: None,
        as_of: None,
        line,
    };
    // `format = standard, as-of = 2012-08-10`: pairs split by commas or semicolons.
    for pair in rest
        .split([',', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let Some((key, value)) = pair.split_once(['=', ':']) else {
            return Err(error(format!(
                "`{pair}` is not `key=value` (keys: format, as-of)"
            )));
        };
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        match key.as_str() {
            "format" if !value.is_empty() && !value.contains(char::is_whitespace) => {
                declared.format = Some(value.to_string());
            }
            "format" => return Err(error(format!("`{value}` is not a format id"))),
            "as-of" | "as_of" | "date" => {
                let date = crate::util::date::parse(value)
                    .ok_or_else(|| error(format!("`{value}` is not a date (YYYY-MM-DD)")))?;
                declared.as_of = Some(date);
            }
            _ => {
                return Err(error(format!("unknown key `{key}` (keys: format, as-of)")));
            }
        }
    }
    if declared.format.is_none() && declared.as_of.is_none() {
        return Err(error(
            "the line declares nothing (write `deckbox: format=standard, as-of=YYYY-MM-DD`)"
                .to_string(),
        ));
    }
    Ok(declared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        crate::util::date::parse(text).unwrap()
    }

    #[test]
    fn a_comment_before_the_cards_declares_format_and_date() {
        let text = "\u{feff}// Worlds 2012, Masters\n# deckbox: format=standard, as-of=2012-08-10\n\nPokémon: 1\n";
        let found = declared(text).unwrap().unwrap();
        assert_eq!(found.format.as_deref(), Some("standard"));
        assert_eq!(found.as_of, Some(date("2012-08-10")));
        assert_eq!(found.line, 2);
        let spaced = declared("## DECKBOX: Format = expanded; As-Of = 2016-02-01\n").unwrap();
        assert_eq!(spaced.unwrap().format.as_deref(), Some("expanded"));
        let only_date = declared("# deckbox: as-of=2019-08-16\n").unwrap().unwrap();
        assert_eq!(only_date.format, None);
    }

    #[test]
    fn only_the_top_of_the_file_counts() {
        assert_eq!(
            declared("4 Pikachu\n# deckbox: format=standard\n").unwrap(),
            None
        );
        assert_eq!(declared("# just a note\n").unwrap(), None);
        assert_eq!(declared("").unwrap(), None);
    }

    #[test]
    fn mistakes_name_their_line() {
        for (text, expected) in [
            ("# deckbox: as-of=2012-13-01\n", "not a date"),
            ("# deckbox: season=2012\n", "unknown key"),
            ("# deckbox: standard\n", "not `key=value`"),
            ("\n# deckbox:\n", "declares nothing"),
        ] {
            let error = declared(text).unwrap_err();
            assert!(error.message.contains(expected), "{text}: {error}");
        }
        assert_eq!(declared("\n# deckbox:\n").unwrap_err().line, 2);
    }
}
