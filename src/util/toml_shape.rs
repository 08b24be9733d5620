//! A cheap look at a TOML text before it is parsed: how many values it holds and how deep
//! they nest. The TOML parser keeps a node of several hundred bytes for every table, key and
//! array element (an 8 MB `deckbox.toml` of `{a=1}` inline tables cost 2.2 GB), so a file
//! deckbox did not write is counted first, in one pass that allocates nothing, and refused
//! when it holds more than its caller allows. This module knows nothing of what the file
//! means.

use std::io;

/// What [`measure`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// An upper bound on the nodes the parser builds: every `=`, `[`, `{`, `,` and `.`
    /// outside strings and comments (each key, table, array and array element starts at
    /// one, and each `.` of a dotted key makes a table: `a.b.c.d = 1` is four nodes).
    pub values: usize,
    /// The deepest nesting of arrays and inline tables (a `[table]` header counts 1).
    pub depth: usize,
}

/// Counts `text`'s values and nesting ([`Shape`]). Strings (basic, literal, multi-line)
/// and comments are skipped, so a `,` or `[` inside them does not count.
pub fn measure(text: &str) -> Shape {
    let bytes = text.as_bytes();
    let mut shape = Shape::default();
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match byte {
            b'#' => at = end_of_line(bytes, at),
            b'"' | b'\'' => at = end_of_string(bytes, at - 1),
            b'[' | b'{' => {
                shape.values += 1;
                depth += 1;
                shape.depth = shape.depth.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' | b',' | b'.' => shape.values += 1,
            _ => {}
        }
    }
    shape
}

/// Refuses `text` when it holds more than `max_values` values or nests deeper than
/// `max_depth`: an `InvalidData` error saying which bound and that it was not parsed.
pub fn check(text: &str, max_values: usize, max_depth: usize) -> io::Result<Shape> {
    check_within(text, &mut 0, max_values, max_depth)
}

/// [`check`] for one file of several read together (a format and what it `extends`):
/// `spent` holds the values of those read before and takes this one's; the bound is on
/// the sum.
pub fn check_within(
    text: &str,
    spent: &mut usize,
    max_values: usize,
    max_depth: usize,
) -> io::Result<Shape> {
    let shape = measure(text);
    let before = *spent;
    *spent = spent.saturating_add(shape.values);
    let refuse = |what: String| Err(io::Error::new(io::ErrorKind::InvalidData, what));
    if *spent > max_values {
        let whole = if before == 0 {
            "it holds"
        } else {
            "it and the files read with it hold"
        };
        return refuse(format!(
            "{whole} more than {max_values} TOML values (keys, tables, array elements); \
             not read"
        ));
    }
    if shape.depth > max_depth {
        return refuse(format!(
            "it nests arrays and tables more than {max_depth} deep; not read"
        ));
    }
    Ok(shape)
}

fn end_of_line(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&byte| byte == b'\n'))
        .map_or(bytes.len(), |offset| from + offset)
}

/// The index after the string opening at `start` (a `"` or `'`, tripled for multi-line).
/// An unterminated string runs to the end of its line (one-line) or of the text.
fn end_of_string(bytes: &[u8], start: usize) -> usize {
    let quote = bytes.get(start).copied().unwrap_or(b'"');
    let basic = quote == b'"';
    let triple = bytes.get(start..start + 3) == Some(&[quote; 3][..]);
    let mut at = start + if triple { 3 } else { 1 };
    while let Some(&byte) = bytes.get(at) {
        if basic && byte == b'\\' {
            at += 2;
            continue;
        }
        if byte == b'\n' && !triple {
            return at;
        }
        if byte == quote {
            if !triple {
                return at + 1;
            }
            if bytes.get(at..at + 3) == Some(&[quote; 3][..]) {
                // A closing `"""` may be followed by up to two more quotes of the string.
                let mut end = at + 3;
                while end < at + 5 && bytes.get(end) == Some(&quote) {
                    end += 1;
                }
                return end;
            }
        }
        at += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_values_outside_strings_and_comments() {
        let text = "# a, b = [c]\nformat = \"glc,[x]\" # {y}\n[[overrides]]\npaths = ['a,b', \"c\\\"[\"]\nnote = \"\"\"\n[,]\n\"\"\"\n";
        // `=` ×3, `[[` ×2, `[` ×1, `,` ×1 (the `.` and `,` in strings do not count).
        assert_eq!(
            measure(text),
            Shape {
                values: 7,
                depth: 2
            }
        );
    }

    #[test]
    fn each_dot_of_a_dotted_key_is_a_table() {
        // One `=` and six `.`: the parser builds six tables and a value.
        assert_eq!(measure("a.b.c.d.e.f.g = 1\n").values, 7);
        assert_eq!(measure("[[a.b]]\n[c.\"d.e\".f]\n").values, 2 + 1 + 1 + 2);
    }

    #[test]
    fn nesting_is_measured() {
        assert_eq!(measure("a = {b = {c = [[1]]}}").depth, 4);
        assert_eq!(measure("x = [{a=1},{a=1},{a=1}]").values, 1 + 1 + 3 * 2 + 2);
    }

    #[test]
    fn refuses_beyond_the_bounds() {
        let wide = format!("x = [{}1]", "1,".repeat(100));
        assert!(check(&wide, 200, 8).is_ok());
        let error = check(&wide, 50, 8).unwrap_err().to_string();
        assert!(error.contains("more than 50 TOML values"), "{error}");
        let deep = format!("x = {}1{}", "[".repeat(9), "]".repeat(9));
        let error = check(&deep, 200, 8).unwrap_err().to_string();
        assert!(error.contains("more than 8 deep"), "{error}");
    }
}
