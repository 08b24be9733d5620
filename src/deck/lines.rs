//! Cutting text into trimmed lines and blank-separated tokens, keeping byte offsets.
//!
//! "Blank" is any Unicode white space (tabs and non-breaking spaces included) plus the
//! invisible BOM / zero-width space that editors leave behind. This module must not look
//! at what a line means: that is the classifier's job.

/// Whether `c` separates words: Unicode white space, a BOM or a zero-width space.
pub(crate) fn is_blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{200B}')
}

/// One line of the input, without its line ending and surrounding blanks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Byte offset of `text` in the whole input.
    pub offset: usize,
    pub text: &'a str,
}

/// Every line ending of `text`, as (where it starts, where the next line starts): `\n`,
/// `\r\n` or a lone `\r` (old Mac files), the rule [`lines`] cuts by. Everything that
/// numbers or counts lines uses it, so line numbers agree everywhere.
pub(crate) fn line_breaks(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter_map(move |(at, &byte)| match byte {
            b'\n' if at > 0 && bytes.get(at - 1) == Some(&b'\r') => None,
            b'\n' => Some((at, at + 1)),
            b'\r' if bytes.get(at + 1) == Some(&b'\n') => Some((at, at + 2)),
            b'\r' => Some((at, at + 1)),
            _ => None,
        })
}

/// The lines of `text`, ending at `\n`, `\r\n` or a lone `\r` (old Mac files).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut number = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let tail = text.get(start..)?;
        number += 1;
        let (raw, next) = match tail.find(['\r', '\n']) {
            Some(end) => {
                let ending = if tail.get(end..)?.starts_with("\r\n") {
                    2
                } else {
                    1
                };
                (tail.get(..end)?, start + end + ending)
            }
            None => {
                done = true;
                (tail, text.len())
            }
        };
        let (lead, trimmed) = trim(raw);
        let line = Line {
            number,
            offset: start + lead,
            text: trimmed,
        };
        start = next;
        Some(line)
    })
}

/// `s` with its chat markup turned into blanks of the same length, so every byte offset
/// stays where it was: Markdown bold (`**`, `__`) and emoji (`🧰`, `⚡️`, flags and
/// skin tones), as forum and Discord posts dress a list. `None` when `s` has none.
/// The symbols of card names are not emoji: `★` (Pokémon Star), `◇` and the `♢` `⬦` that
/// PTCGO exports and players write for it (Prism Star), `δ`, `♀` (`names::is_name_symbol`).
pub(crate) fn blank_markup(s: &str) -> Option<String> {
    let emoji = |c: char| {
        (matches!(u32::from(c), 0x1F000..=0x1FAFF | 0x2B00..=0x2BFF)
            || ('\u{2600}'..='\u{27BF}').contains(&c))
            && !crate::names::is_name_symbol(c)
    };
    // What joins or modifies an emoji is blanked after one only: a zero-width joiner inside
    // a name is folded away when names are compared, as any zero-width character.
    let joins = |c: char| matches!(u32::from(c), 0xFE0F | 0x200D | 0x20E3 | 0xE0020..=0xE007F);
    // One pass over the bytes first: most lines have no `*`, `_` or three- and four-byte
    // character (every emoji and joiner starts with a byte from 0xE2 up).
    if !s.bytes().any(|b| b == b'*' || b == b'_' || b >= 0xE2)
        || !(s.contains("**") || s.contains("__") || s.chars().any(emoji))
    {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    let mut after_emoji = false;
    while let Some(c) = chars.next() {
        let blank = emoji(c) || (after_emoji && joins(c));
        if (c == '*' || c == '_') && chars.peek() == Some(&c) {
            chars.next();
            out.push_str("  ");
        } else if blank {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
        after_emoji = blank;
    }
    Some(out)
}

/// The brackets (`(`, `[`) of `text` left open at its end, each by where it opens, and how
/// many closing ones (`)`, `]`) close none: a note a post opens on a card line and closes on
/// the next one.
pub(crate) fn unclosed_brackets(text: &str) -> (Vec<usize>, usize) {
    let (mut open, mut unmatched) = (Vec::new(), 0);
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' => open.push(at),
            ')' | ']' if open.pop().is_none() => unmatched += 1,
            _ => {}
        }
    }
    (open, unmatched)
}

/// `s` without surrounding blanks, and how many bytes were cut from its start.
pub(crate) fn trim(s: &str) -> (usize, &str) {
    let t = s.trim_start_matches(is_blank);
    (s.len() - t.len(), t.trim_end_matches(is_blank))
}

/// The last `n` blank-separated tokens of `s` as byte ranges, last token first. Scans
/// from the end and stops early, so a huge line costs nothing more than its tail.
pub(crate) fn last_tokens(s: &str, n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(n);
    let mut end = None;
    for (i, c) in s.char_indices().rev() {
        if out.len() == n {
            return out;
        }
        if is_blank(c) {
            if let Some(e) = end.take() {
                out.push((i + c.len_utf8(), e));
            }
        } else if end.is_none() {
            end = Some(i + c.len_utf8());
        }
    }
    if let Some(e) = end.filter(|_| out.len() < n) {
        out.push((0, e));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str) -> String {
        lines(text)
            .map(|l| format!("{}@{}:{:?}", l.number, l.offset, l.text))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn line_endings() {
        insta::assert_snapshot!(render("a\nb\r\n c \rd"), @r#"1@0:"a" 2@2:"b" 3@6:"c" 4@9:"d""#);
        insta::assert_snapshot!(render("a\n"), @r#"1@0:"a" 2@2:"""#);
        insta::assert_snapshot!(render(""), @r#"1@0:"""#);
        insta::assert_snapshot!(render("\u{FEFF}4 Iono\u{A0}\t"), @r#"1@3:"4 Iono""#);
    }

    #[test]
    fn tokens_from_the_end() {
        let s = "Iono\u{A0}PAL  185";
        let toks: Vec<&str> = last_tokens(s, 2).iter().map(|&(a, b)| &s[a..b]).collect();
        assert_eq!(toks, ["185", "PAL"]);
        let toks: Vec<&str> = last_tokens(s, 9).iter().map(|&(a, b)| &s[a..b]).collect();
        assert_eq!(toks, ["185", "PAL", "Iono"]);
        assert!(last_tokens("", 3).is_empty());
    }
}
