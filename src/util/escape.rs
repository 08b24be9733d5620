//! Text a user controls (a deck line, a file name, a format file's strings), shown on a
//! terminal without escape sequences: control, bidirectional and zero-width characters are
//! written as `\u{...}`. It knows nothing of decks; every human renderer goes through it.

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
