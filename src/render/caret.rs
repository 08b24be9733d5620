//! The one drawing of a mistake in a one-line input (a `search` query, a `--want` expression,
//! a `--count-as` or `--seen` list): the message, the input as shown, and carets under the
//! mistake, counted on the text as shown.

use crate::util::escape::visible_line;

/// `error: message`, the input, carets under the bytes `start..end` of `input` (at least
/// one), and `help:` when there is help. The input is shown with its hidden characters
/// escaped (`\u{202E}`, eight columns) and the pad and carets are counted on that text, so
/// the carets stand under the mistake whatever comes before it. A span that does not fall
/// on character boundaries of the input gives the message alone.
pub fn draw(message: &str, input: &str, start: usize, end: usize, help: Option<&str>) -> String {
    let start = start.min(input.len());
    let end = end.clamp(start, input.len());
    let mut out = match (input.get(..start), input.get(start..end)) {
        (Some(before), Some(under)) => {
            let pad = " ".repeat(visible_line(before).chars().count());
            let carets = "^".repeat(visible_line(under).chars().count().max(1));
            format!(
                "error: {message}\n  {}\n  {pad}{carets}\n",
                visible_line(input)
            )
        }
        _ => format!("error: {message}\n"),
    };
    if let Some(help) = help {
        out.push_str(&format!("help: {help}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::draw;

    #[test]
    fn carets_stand_under_the_mistake_as_shown() {
        assert_eq!(
            draw("unknown key `zzz`", "a:1 zzz:1", 4, 7, Some("try `name:`")),
            "error: unknown key `zzz`\n  a:1 zzz:1\n      ^^^\nhelp: try `name:`\n"
        );
        // The hidden character is shown as eight columns; the carets follow it.
        assert_eq!(
            draw("bad", "x\u{202E} y", 5, 6, None),
            "error: bad\n  x\\u{202E} y\n            ^\n"
        );
        // An empty span still gets one caret; a span inside a character gives the message.
        assert_eq!(draw("end", "ab", 2, 2, None), "error: end\n  ab\n    ^\n");
        assert_eq!(draw("odd", "é", 1, 2, None), "error: odd\n");
    }
}
