//! The one drawing of a mistake in a one-line input (a `search` query, a `--want` expression,
//! a `--count-as` or `--seen` list): the message, the input as shown, and carets under the
//! mistake, counted on the text as shown.

use crate::util::escape::visible_line;

/// Most characters of the input a drawing shows (as shown, escapes counted): a longer input
/// (a query of a megabyte, refused for its length) is shown around the mistake, cut with `…`,
/// so a message never repeats the input whole.
pub const MAX_SHOWN: usize = 120;

/// Characters of the input shown before the mistake when the input is cut.
const LEAD: usize = 40;

/// `error: message`, the input, carets under the bytes `start..end` of `input` (at least
/// one), and `help:` when there is help. The input is shown with its hidden characters
/// escaped (`\u{202E}`, eight columns) and the pad and carets are counted on that text, so
/// the carets stand under the mistake whatever comes before it; past [`MAX_SHOWN`]
/// characters only the part around the mistake is shown. A span that does not fall on
/// character boundaries of the input gives the message alone.
pub fn draw(message: &str, input: &str, start: usize, end: usize, help: Option<&str>) -> String {
    let start = start.min(input.len());
    let end = end.clamp(start, input.len());
    let mut out = match (input.get(..start), input.get(start..end)) {
        (Some(before), Some(under)) => {
            let (before, under, after) = (
                visible_line(before),
                visible_line(under),
                visible_line(&input[end..]),
            );
            let (shown, pad, carets) = window(&before, &under, &after);
            format!(
                "error: {message}\n  {shown}\n  {}{}\n",
                " ".repeat(pad),
                "^".repeat(carets.max(1))
            )
        }
        _ => format!("error: {message}\n"),
    };
    if let Some(help) = help {
        out.push_str(&format!("help: {help}\n"));
    }
    out
}

/// The input as shown (`before`, `under` the carets, `after`), at most [`MAX_SHOWN`]
/// characters of it around `under`, and the columns before the carets and under them.
fn window(before: &str, under: &str, after: &str) -> (String, usize, usize) {
    let count = |text: &str| text.chars().count();
    let (b, u, a) = (count(before), count(under), count(after));
    if b + u + a <= MAX_SHOWN {
        return (format!("{before}{under}{after}"), b, u);
    }
    let lead = b.min(LEAD);
    let marked = u.min(MAX_SHOWN - lead);
    let tail = a.min(MAX_SHOWN - lead - marked);
    let mut shown = String::new();
    if lead < b {
        shown.push('…');
    }
    shown.extend(before.chars().skip(b - lead));
    shown.extend(under.chars().take(marked));
    shown.extend(after.chars().take(tail));
    if marked < u || tail < a {
        shown.push('…');
    }
    (shown, usize::from(lead < b) + lead, marked)
}

#[cfg(test)]
mod tests {
    use super::{MAX_SHOWN, draw};

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
        // A long input is shown around the mistake, cut with `…`.
        let long = format!("{}zzz:1{}", "a ".repeat(5_000), " b".repeat(5_000));
        let drawn = draw("unknown key `zzz`", &long, 10_000, 10_003, None);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(
            lines[1],
            format!("  …{}zzz:1{} …", "a ".repeat(20), " b".repeat(37))
        );
        assert_eq!(lines[2], format!("  {}^^^", " ".repeat(41)));
        let drawn = draw("too long", &"x".repeat(1 << 20), 0, 0, None);
        assert_eq!(
            drawn,
            format!("error: too long\n  {}…\n  ^\n", "x".repeat(MAX_SHOWN))
        );
    }
}
