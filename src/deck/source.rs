//! A deck's text as a source: where its lines start, to locate a finding by byte offset.
//! It reads no file and knows no card; the renderers use it, it never renders.

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
