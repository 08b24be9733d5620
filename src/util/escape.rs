//! Text a user controls (a deck line, a file name, a card name from a downloaded dataset, a
//! format or config file's strings), shown on a terminal or written into a document without
//! doing anything there: control, bidirectional, zero-width and other invisible characters
//! are written as `\u{...}` ([`visible`], [`visible_line`]); a Markdown document gets every
//! character a renderer would act on escaped ([`markdown`]); an HTML page gets markup and
//! invisible characters escaped ([`html`]). It knows nothing of decks; every renderer goes
//! through it.

use std::borrow::Cow;

/// Whether `c` is shown escaped: control characters (escape sequences could recolour, move
/// the cursor or erase a line), bidirectional controls (which reorder what a line shows,
/// Trojan Source), tag characters (U+E0000–U+E007F, invisible text a model or a filter may
/// still read) and the other characters Unicode marks as default-ignorable (zero-width
/// spaces and joiners, variation selectors, fillers: they make two different names look the
/// same), the line and paragraph separators, and the noncharacters U+FFFE and U+FFFF (which
/// XML may not hold). Tabs and line endings are layout and stay.
pub fn hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{FFFE}'..='\u{FFFF}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// The first `chars` characters of `text`, then `…` when there was more: what a message
/// quotes of a value it refuses, so it never repeats megabytes of input.
pub fn excerpt(text: &str, chars: usize) -> String {
    let mut rest = text.chars();
    let head: String = rest.by_ref().take(chars).collect();
    if rest.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// `c` as `\u{202E}`.
fn push_code(out: &mut String, c: char) {
    out.push_str(&format!("\\u{{{:X}}}", u32::from(c)));
}

/// `text` for a terminal: every `hidden` character written as `\u{202E}`. Used for file
/// names, messages, labels and help in the human and short renderers; machine output
/// (JSON, SARIF) keeps text as it is, JSON-escaped.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.contains(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            push_code(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`visible`] for text that must stay on one line (a file name in a finding line or a
/// summary, a card name in a table): tabs and line endings are escaped too, so a file named
/// `a\nb.txt` cannot forge a finding line.
pub fn visible_line(text: &str) -> Cow<'_, str> {
    if !text.contains(|c: char| hidden(c) || matches!(c, '\t' | '\n' | '\r')) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => push_code(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` as literal inline Markdown on one line (a table cell, a heading's words): what a
/// CommonMark or GitHub renderer shows is the text itself, and nothing in it becomes markup.
///
/// - Backslash-escaped everywhere (CommonMark lets any ASCII punctuation be escaped, and the
///   escape shows as the character): `\` (so the text cannot undo an escape), `` ` `` (code
///   spans), `*` `_` `~` (emphasis, strikethrough), `[` `]` (links, images, footnotes,
///   reference definitions), `<` (raw HTML, autolinks), `&` (entities), `|` (table cells),
///   `#` (headings, issue references), `@` (mentions, e-mail autolinks), `$` (math).
/// - Escaped where they act: `:` before `/` (`http://`, a bare autolink), `.` after `www`
///   (`www.` autolinks), and at the start of the text `>` (quote), `-` `+` `=` unless a
///   digit follows (list, thematic break, setext heading; `-0.50` stays) and the `.` or `)`
///   after leading digits when a space or the end follows (ordered list; `12.5%` stays).
/// - An `@` between characters of an e-mail address (`u@e.test`, `mailto:u@e.test`) gets an
///   empty HTML comment before it: GitHub's renderer links addresses after it has resolved
///   escapes (on the text, not the source), and only another node before the `@` stops it.
///   The comment shows nothing; a renderer that shows HTML as text shows `<!-- -->`.
/// - Line breaks and tabs become spaces; [`hidden`] characters become `\u{...}`, its
///   backslash escaped so it shows as written.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (at, c) in text.char_indices() {
        let (before, after) = (&text[..at], &text[at + c.len_utf8()..]);
        let escaped = match c {
            '\\' | '`' | '*' | '_' | '~' | '[' | ']' | '<' | '&' | '|' | '#' | '@' | '$' => true,
            ':' => after.starts_with('/'),
            '.' if after_www(before) => true,
            '.' | ')' => ordered_list(before, after),
            '>' => at == 0,
            '-' | '+' | '=' => at == 0 && !after.starts_with(|c: char| c.is_ascii_digit()),
            _ => false,
        };
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if hidden(c) => {
                out.push('\\');
                push_code(&mut out, c);
            }
            '@' if in_address(before, after) => out.push_str("<!-- -->\\@"),
            c if escaped => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether an `@` between `before` and `after` joins the two parts of an e-mail address as
/// GitHub's renderer finds them: a character of an address's local part before it (a
/// letter, a digit, `.`, `+`, `-` or `_`), one of a domain after it.
fn in_address(before: &str, after: &str) -> bool {
    let local = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_');
    before.ends_with(local)
        && after.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
}

/// Whether `before` ends in `www` (a `.` after it starts a `www.` autolink).
fn after_www(before: &str) -> bool {
    let tail = before
        .len()
        .checked_sub(3)
        .and_then(|from| before.get(from..));
    tail.is_some_and(|tail| tail.eq_ignore_ascii_case("www"))
}

/// Whether a `.` or `)` between `before` and `after` ends an ordered list's marker: digits
/// from the start of the text, then a space or the end (`1. `, `12)`; not `12.5%`).
fn ordered_list(before: &str, after: &str) -> bool {
    !before.is_empty()
        && before.bytes().all(|b| b.is_ascii_digit())
        && (after.is_empty() || after.starts_with([' ', '\t']))
}

/// `text` for HTML element content and quoted attribute values alike: markup characters as
/// entities, [`hidden`] characters as `\u{...}` (a page shows them as plainly as a terminal).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if hidden(c) => push_code(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// A path as text, without loss: as it is when it is UTF-8; otherwise (on Unix, where a
/// file name is any bytes) each byte that is not part of UTF-8 written `\xFF`, where
/// `Path::display` would show U+FFFD for every such byte and two names could look the same.
/// Not made [`visible`]: the callers escape it as they escape any text.
pub fn path(path: &std::path::Path) -> String {
    match path_bytes(path) {
        None => path.display().to_string(),
        Some(bytes) => {
            let mut out = String::with_capacity(bytes.len() + 16);
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
                for byte in chunk.invalid() {
                    out.push_str(&format!("\\x{byte:02X}"));
                }
            }
            out
        }
    }
}

/// A path for a message or a report line: [`path`], then [`visible_line`].
pub fn path_line(path: &std::path::Path) -> String {
    visible_line(&self::path(path)).into_owned()
}

/// The bytes of a path that is not UTF-8, for machine output to give without loss; `None`
/// for a UTF-8 path (and off Unix, where names are not bytes).
pub fn path_bytes(path: &std::path::Path) -> Option<Vec<u8>> {
    if path.to_str().is_some() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(path.as_os_str().as_bytes().to_vec())
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_written_as_codes() {
        for (text, shown) in [
            ("Iono", "Iono"),
            ("\u{1b}[31mIono", "\\u{1B}[31mIono"),
            ("Io\u{202E}no", "Io\\u{202E}no"),
            ("Io\u{2067}no\u{2069}", "Io\\u{2067}no\\u{2069}"),
            ("Iono\u{E0041}\u{E007F}", "Iono\\u{E0041}\\u{E007F}"),
            ("Io\u{AD}no\u{FE0F}", "Io\\u{AD}no\\u{FE0F}"),
            ("a\u{2028}b\u{FFFF}", "a\\u{2028}b\\u{FFFF}"),
            ("Pokémon ♀ δ ◇ ★ ポケモン", "Pokémon ♀ δ ◇ ★ ポケモン"),
            ("tab\tline\n", "tab\tline\n"),
        ] {
            assert_eq!(visible(text), shown, "{text:?}");
        }
        assert_eq!(visible_line("a\tb\r\nc\u{85}"), "a\\tb\\r\\nc\\u{85}");
    }

    #[test]
    fn markdown_escapes_what_a_renderer_acts_on() {
        for (text, escaped) in [
            ("Boss's Orders", "Boss's Orders"),
            ("Dragapult ex", "Dragapult ex"),
            ("[x](http://e.test)", "\\[x\\](http\\://e.test)"),
            ("![img](y)", "!\\[img\\](y)"),
            ("<http://e.test>", "\\<http\\://e.test>"),
            ("<script>alert(1)</script>", "\\<script>alert(1)\\</script>"),
            ("*em* _em_ ~~s~~", "\\*em\\* \\_em\\_ \\~\\~s\\~\\~"),
            ("`code`", "\\`code\\`"),
            ("# heading", "\\# heading"),
            ("a|b", "a\\|b"),
            ("a\\|b", "a\\\\\\|b"),
            ("&amp; @user $x$", "\\&amp; \\@user \\$x\\$"),
            ("u@e.test", "u<!-- -->\\@e.test"),
            ("mailto:a.b@c.d", "mailto:a.b<!-- -->\\@c.d"),
            ("a @b x@ @", "a \\@b x\\@ \\@"),
            ("www.e.test WWW.e.test", "www\\.e.test WWW\\.e.test"),
            ("> quote", "\\> quote"),
            ("- item", "\\- item"),
            ("+ item", "\\+ item"),
            ("1. item", "1\\. item"),
            ("12) item", "12\\) item"),
            ("a - b > c 1. d", "a - b > c 1. d"),
            ("12.5% 1.", "12.5% 1."),
            ("1.", "1\\."),
            ("-0.50 SE", "-0.50 SE"),
            ("+1.25", "+1.25"),
            ("---", "\\---"),
            ("=", "\\="),
            ("line\nbreak\ttab", "line break tab"),
            ("Io\u{202E}no", "Io\\\\u{202E}no"),
            ("Iono\u{E0041}", "Iono\\\\u{E0041}"),
        ] {
            assert_eq!(markdown(text), escaped, "{text:?}");
        }
    }

    #[test]
    fn html_escapes_markup_and_hidden_characters() {
        assert_eq!(
            html(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
        assert_eq!(html("Pokémon"), "Pokémon");
        assert_eq!(html("&amp;"), "&amp;amp;");
        assert_eq!(html("a\u{202E}b\u{0}"), "a\\u{202E}b\\u{0}");
    }

    #[cfg(unix)]
    #[test]
    fn paths_that_are_not_utf8_keep_every_byte() {
        use std::os::unix::ffi::OsStrExt;
        let odd = std::path::Path::new(std::ffi::OsStr::from_bytes(
            b"decks/\xFFd\xC3\xA9ck\xC3.txt",
        ));
        assert_eq!(path(odd), "decks/\\xFFdéck\\xC3.txt");
        assert_eq!(path_bytes(odd).unwrap(), b"decks/\xFFd\xC3\xA9ck\xC3.txt");
        let plain = std::path::Path::new("decks/déck.txt");
        assert_eq!(path(plain), "decks/déck.txt");
        assert_eq!(path_bytes(plain), None);
    }
}
