//! A deck's text as a source: where its lines start (to locate a finding by byte offset)
//! and how its text, or any text a user controls, is shown on a terminal without escape
//! sequences. It reads no file and knows no card; the renderers use it, it never renders.

/// A text and where its lines start, so that locating a finding does not rescan the text
/// (a hostile file may hold 100,000 findings).
pub struct SourceText<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> SourceText<'a> {
    pub fn new(text: &'a str) -> SourceText<'a> {
        let line_starts = std::iter::once(0)
            .chain(crate::deck::line_breaks(text).map(|(_, next)| next))
            .collect();
        SourceText { text, line_starts }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The 1-based line of a byte offset (a binary search: cheap for every offset of a file).
    pub fn line(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start <= offset.min(self.text.len()))
            .max(1)
    }

    /// 1-based line and column (in characters) of a byte offset. A UTF-8 BOM at the start
    /// of the text takes no column.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line(offset);
        let start = self
            .line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .unwrap_or("")
            .chars()
            .filter(|&c| c != '\u{feff}')
            .count()
            + 1;
        (line, column)
    }
}

/// Whether `c` is shown escaped in terminal output: control characters (escape sequences
/// could recolour, move the cursor or erase a line), bidirectional controls (which reorder
/// what a line shows, Trojan Source) and zero-width characters (which make two different
/// names look the same). Tabs and line endings are layout and stay.
pub fn hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
}

/// `text` for a terminal: every `hidden` character written as `\u{202E}`. Used for file
/// names, messages, labels and help in the human and short renderers; machine output
/// (JSON, SARIF) keeps text as it is, JSON-escaped.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{{{:X}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`visible`] for text that must stay on one line (a file name in a finding line or a
/// summary): tabs and line endings are escaped too, so a file named `a\nb.txt` cannot
/// forge a finding line.
pub fn visible_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(|c: char| hidden(c) || matches!(c, '\t' | '\n' | '\r')) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser ends lines at `\n`, `\r\n` and a lone `\r`; findings must be numbered the
    /// same way (a file with lone `\r`s once had every finding on line 1).
    #[test]
    fn lines_are_numbered_as_the_parser_cuts_them() {
        let text = "4 Foo\r4 Bar\r\n4 Baz\n\n4 Qux";
        let source = SourceText::new(text);
        let parsed = crate::deck::parse(text);
        for card in &parsed.cards {
            assert_eq!(
                source.line_column(card.span.offset),
                (card.line, 1),
                "{}",
                card.name
            );
        }
        assert_eq!(parsed.cards.len(), 4);
        assert_eq!(source.line_column(text.len()), (5, 6));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "\u{feff}Pokémon: 1\r\n4 Évoli SVI 1\n";
        let source = SourceText::new(text);
        assert_eq!(source.line_column(0), (1, 1));
        assert_eq!(source.line_column(3), (1, 1));
        let second = text.find("4 É").unwrap();
        assert_eq!(source.line_column(second), (2, 1));
        assert_eq!(source.line_column(second - 1), (1, 12));
        let name = text.find("SVI").unwrap();
        assert_eq!(source.line_column(name), (2, 9));
        assert_eq!(source.line_column(text.len()), (3, 1));
        assert_eq!(source.line_column(text.len() + 10), (3, 1));
    }
}
