//! Telling what one trimmed line is: blank, comment, banner, header, footer, card or
//! unreadable.
//!
//! Order matters and is written once here: `//` and `#` comments first (but `##Pokémon -
//! 22` is a header), then banners, then a section's label after its count (`20 Pokemon:`),
//! then anything starting with a count is a card line, then headers and footers. This
//! module must not build the deck or judge counts.

use super::card::{self, Count, Parts};
use super::header::{self, Marker};
use super::lines::trim;
use super::spreadsheet::{self, Columns};

/// What a line is, with byte ranges relative to the trimmed line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Class<'a> {
    Blank,
    Comment,
    Banner,
    /// A spreadsheet's header row, naming its columns (`Qty<TAB>Name<TAB>Set<TAB>No.`).
    ColumnNames(Columns),
    /// A header or footer, written bare or after `#`s (`##Pokémon - 22`, `## Trainers`).
    Marker(Marker),
    /// A count and what follows it; `parts` is `None` when nothing follows the count.
    Card {
        count: Count<'a>,
        parts: Option<(usize, Parts)>,
    },
    Unreadable,
}

/// Classifies one trimmed line.
pub(crate) fn classify(s: &str) -> Class<'_> {
    if s.is_empty() {
        return Class::Blank;
    }
    if let Some(columns) = spreadsheet::header_row(s) {
        return Class::ColumnNames(columns);
    }
    if s.starts_with("//") {
        return Class::Comment;
    }
    if let Some(after) = s.strip_prefix('#') {
        let (_, label) = trim(after.trim_start_matches('#'));
        return match header::marker(label) {
            Some(marker) => Class::Marker(marker),
            None => Class::Comment,
        };
    }
    // A Markdown code fence (`` ``` `` or `` ```text ``), as Discord wraps a pasted list,
    // frames the list as a banner does.
    if header::is_banner(s) || s.starts_with("```") {
        return Class::Banner;
    }
    // `20 Pokemon:`, `x15 Pokemon`: a section's own label after a count, which no card is.
    if let Some(marker) = header::count_first(s) {
        return Class::Marker(marker);
    }
    if let Some(count) = card::split_count(s) {
        let parts = count
            .rest
            .and_then(|at| Some((at, card::split_card(s.get(at..)?))));
        return Class::Card { count, parts };
    }
    if let Some(marker) = header::marker(s) {
        return Class::Marker(marker);
    }
    let row = spreadsheet::row(s, None).map(|(count, parts)| (count, (0, parts)));
    match row
        .or_else(|| card::split_trailing_count(s))
        .or_else(|| card::implied_count(s))
    {
        Some((count, parts)) => Class::Card {
            count,
            parts: Some(parts),
        },
        None => Class::Unreadable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> &'static str {
        match classify(s) {
            Class::Blank => "blank",
            Class::Comment => "comment",
            Class::Banner => "banner",
            Class::ColumnNames(_) => "columns",
            Class::Marker(_) => "marker",
            Class::Card { .. } => "card",
            Class::Unreadable => "unreadable",
        }
    }

    #[test]
    fn kinds() {
        let cases = [
            ("", "blank"),
            ("// sideboard ideas", "comment"),
            ("# 2nd place list", "comment"),
            ("#", "comment"),
            ("##Pokémon - 22", "marker"),
            ("## Trainers (30)", "marker"),
            (
                "****** Pokémon Trading Card Game Deck List ******",
                "banner",
            ),
            ("-----", "banner"),
            ("* 4 Dreepy TWM 128", "card"),
            ("-2 Iono", "card"),
            ("4", "card"),
            ("Pokémon: 12", "marker"),
            ("20 Pokemon:", "marker"),
            ("x27 Trainers", "marker"),
            ("4 Energy Switch", "card"),
            ("Total Cards: 60", "marker"),
            ("Dragapult ex by Ash", "unreadable"),
            ("*", "unreadable"),
            ("Qty\tName\tSet\tNo.", "columns"),
            ("Dreepy\t4\tTWM\t128", "card"),
            ("Dreepy x4", "card"),
            ("Iono [PAL 185]", "card"),
            ("TWM 128 Dreepy", "card"),
            ("Charizard ex - 1st place Regional", "unreadable"),
            ("Top 8 NAIC 2024", "unreadable"),
        ];
        for (line, expected) in cases {
            assert_eq!(kind(line), expected, "{line:?}");
        }
    }
}
