//! A reader for the subset of TypeScript the TCGdex cards-database is written in: a module
//! whose `const x: T = <object literal>` holds the record, after `import` lines.
//!
//! It understands values only (objects, arrays, strings in any of the three quotes,
//! numbers, `true`/`false`/`null`/`undefined`, identifiers such as imported names),
//! comments and trailing commas. It does not evaluate anything: an identifier stays an
//! identifier, and template literals with `${...}` are rejected. It knows nothing about
//! cards.

use std::fmt;

/// One value of an object literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Undefined,
    Bool(bool),
    Number(f64),
    Str(String),
    /// A bare identifier used as a value (`serie`, `Set`): an import, left unresolved.
    Ident(String),
    Array(Vec<Value>),
    /// Keys in source order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The value of `key` when this is an object holding it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> &[Value] {
        match self {
            Value::Array(items) => items,
            _ => &[],
        }
    }

    /// The fields of an object (empty for anything else).
    pub fn fields(&self) -> &[(String, Value)] {
        match self {
            Value::Object(fields) => fields,
            _ => &[],
        }
    }
}

/// A syntax error, with the 1-based line it was found on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Deeper nesting than this is refused, so a hostile file cannot overflow the stack.
const MAX_DEPTH: usize = 64;

/// Parses a module: skips everything up to the first `const name[: Type] =`, then reads
/// the value that follows. What comes after it (`export default x`) is not checked.
pub fn parse_module(text: &str) -> Result<Value, ParseError> {
    let mut parser = Parser::new(text);
    parser.skip_to_const_value()?;
    parser.value(0)
}

/// Parses a text that is exactly one value (with surrounding whitespace and comments).
pub fn parse_value(text: &str) -> Result<Value, ParseError> {
    let mut parser = Parser::new(text);
    let value = parser.value(0)?;
    parser.skip_trivia()?;
    match parser.peek() {
        None => Ok(value),
        Some(_) => Err(parser.error("unexpected text after the value")),
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
        }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        let end = self.pos.min(self.bytes.len());
        let line = 1 + self
            .bytes
            .get(..end)
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
        ParseError {
            line,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// Skips whitespace, `//` and `/* */` comments.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek() {
            match (c, self.peek_at(1)) {
                (b' ' | b'\t' | b'\n' | b'\r', _) => self.pos += 1,
                (b'/', Some(b'/')) => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                (b'/', Some(b'*')) => {
                    let rest = self.text.get(self.pos + 2..).unwrap_or("");
                    let Some(end) = rest.find("*/") else {
                        return Err(self.error("unterminated /* comment"));
                    };
                    self.pos += 2 + end + 2;
                }
                _ if self
                    .text
                    .get(self.pos..)
                    .is_some_and(|r| r.starts_with('\u{feff}')) =>
                {
                    self.pos += '\u{feff}'.len_utf8();
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// Walks the module header (imports, type annotations) up to the `=` of the first
    /// top-level `const`, skipping strings so that `=` inside them is not mistaken.
    fn skip_to_const_value(&mut self) -> Result<(), ParseError> {
        let mut seen_const = false;
        loop {
            self.skip_trivia()?;
            match self.peek() {
                None => return Err(self.error("no `const x = {...}` found")),
                Some(b'"' | b'\'' | b'`') => {
                    self.string()?;
                }
                Some(b'=') if seen_const => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(c) if is_ident_start(c) => seen_const |= self.ident() == "const",
                Some(_) => self.pos += 1,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error("values nested too deeply"));
        }
        self.skip_trivia()?;
        match self.peek() {
            None => Err(self.error("unexpected end of file, expected a value")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"' | b'\'' | b'`') => self.concatenation().map(Value::Str),
            Some(c) if c == b'-' || c == b'+' || c == b'.' || c.is_ascii_digit() => self.number(),
            Some(c) if is_ident_start(c) => Ok(match self.ident() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                "null" => Value::Null,
                "undefined" => Value::Undefined,
                other => Value::Ident(other.to_string()),
            }),
            Some(c) => Err(self.error(format!("unexpected `{}`", char::from(c)))),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.pos += 1; // `{`
        let mut fields = Vec::new();
        loop {
            self.skip_trivia()?;
            let key = match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(fields));
                }
                Some(b'"' | b'\'' | b'`') => self.string()?,
                Some(c) if is_ident_start(c) || c.is_ascii_digit() => self.ident().to_string(),
                None => return Err(self.error("unterminated object, expected `}`")),
                Some(c) => {
                    return Err(self.error(format!("expected a key, found `{}`", char::from(c))));
                }
            };
            self.skip_trivia()?;
            let value = match self.peek() {
                Some(b':') => {
                    self.pos += 1;
                    self.value(depth + 1)?
                }
                // Shorthand property `{ serie }`: the value is the identifier itself.
                Some(b',' | b'}') => Value::Ident(key.clone()),
                _ => return Err(self.error(format!("expected `:` after key `{key}`"))),
            };
            fields.push((key, value));
            if !self.separator(b'}')? {
                return Err(self.error("expected `,` or `}` in object"));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.pos += 1; // `[`
        let mut items = Vec::new();
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.error("unterminated array, expected `]`")),
                Some(_) => items.push(self.value(depth + 1)?),
            }
            if !self.separator(b']')? {
                return Err(self.error("expected `,` or `]` in array"));
            }
        }
    }

    /// After an element: consumes a `,`, or sees (without consuming) the closing byte.
    fn separator(&mut self, close: u8) -> Result<bool, ParseError> {
        self.skip_trivia()?;
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(c) => Ok(c == close),
            None => Ok(false),
        }
    }

    /// Identifier characters: ASCII letters, digits, `_`, `$`, and any non-ASCII byte
    /// (so keys such as `café` stay whole; the slice always ends on a char boundary
    /// because it stops at an ASCII byte or the end).
    fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(is_ident_continue) {
            self.pos += 1;
        }
        self.text.get(start..self.pos).unwrap_or("")
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'+' | b'-'))
        {
            self.pos += 1;
        }
        let raw = self
            .text
            .get(start..self.pos)
            .unwrap_or("")
            .replace('_', "");
        raw.parse::<f64>()
            .map(Value::Number)
            .map_err(|_| self.error(format!("invalid number `{raw}`")))
    }

    /// A string, or strings joined with `+` (long effects are split over lines that way).
    fn concatenation(&mut self) -> Result<String, ParseError> {
        let mut out = self.string()?;
        loop {
            let before = self.pos;
            self.skip_trivia()?;
            if self.peek() != Some(b'+') {
                self.pos = before;
                return Ok(out);
            }
            self.pos += 1;
            self.skip_trivia()?;
            match self.peek() {
                Some(b'"' | b'\'' | b'`') => out.push_str(&self.string()?),
                _ => return Err(self.error("only strings may be joined with `+`")),
            }
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let Some(quote) = self.peek() else {
            return Err(self.error("expected a string"));
        };
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self
                .peek()
                .is_some_and(|c| c != quote && c != b'\\' && c != b'\n' && c != b'$')
            {
                self.pos += 1;
            }
            out.push_str(self.text.get(start..self.pos).unwrap_or(""));
            match self.peek() {
                Some(c) if c == quote => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(b'$') if quote == b'`' && self.peek_at(1) == Some(b'{') => {
                    return Err(self.error("template literal with `${...}` is not supported"));
                }
                Some(b'$') => {
                    out.push('$');
                    self.pos += 1;
                }
                Some(b'\n') if quote == b'`' => {
                    out.push('\n');
                    self.pos += 1;
                }
                _ => return Err(self.error("unterminated string")),
            }
        }
    }

    /// Reads one escape sequence (the parser stands on the backslash).
    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(self.error("unterminated string"));
        };
        self.pos += 1;
        match c {
            b'n' => out.push('\n'),
            b't' => out.push('\t'),
            b'r' => out.push('\r'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'v' => out.push('\u{b}'),
            b'0' => out.push('\0'),
            b'\n' => {} // line continuation
            b'\r' => {
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            b'x' => {
                let code = self.hex_digits(2)?;
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            b'u' => {
                let ch = self.unicode_escape()?;
                out.push(ch);
            }
            _ if c.is_ascii() => out.push(char::from(c)),
            _ => {
                // A backslash before a non-ASCII character keeps the character: back up
                // and copy it whole.
                self.pos -= 1;
                let rest = self.text.get(self.pos..).unwrap_or("");
                if let Some(ch) = rest.chars().next() {
                    out.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
        Ok(())
    }

    /// `\uXXXX` (joining a surrogate pair written as two escapes) or `\u{X...}`.
    fn unicode_escape(&mut self) -> Result<char, ParseError> {
        if self.peek() == Some(b'{') {
            self.pos += 1;
            let start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            let digits = self.text.get(start..self.pos).unwrap_or("");
            if self.peek() != Some(b'}') || digits.is_empty() || digits.len() > 6 {
                return Err(self.error("invalid \\u{...} escape"));
            }
            self.pos += 1;
            let code = u32::from_str_radix(digits, 16).unwrap_or(0xfffd);
            return Ok(char::from_u32(code).unwrap_or('\u{fffd}'));
        }
        let high = self.hex_digits(4)?;
        if (0xd800..0xdc00).contains(&high)
            && self.peek() == Some(b'\\')
            && self.peek_at(1) == Some(b'u')
        {
            self.pos += 2;
            let low = self.hex_digits(4)?;
            let code = 0x10000 + ((high - 0xd800) << 10) + (low.wrapping_sub(0xdc00) & 0x3ff);
            return Ok(char::from_u32(code).unwrap_or('\u{fffd}'));
        }
        Ok(char::from_u32(high).unwrap_or('\u{fffd}'))
    }

    fn hex_digits(&mut self, count: usize) -> Result<u32, ParseError> {
        let digits = self.text.get(self.pos..self.pos + count).unwrap_or("");
        if digits.len() != count || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.error("invalid hexadecimal escape"));
        }
        self.pos += count;
        u32::from_str_radix(digits, 16).map_err(|_| self.error("invalid hexadecimal escape"))
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(fields: &[(&str, Value)]) -> Value {
        Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn reads_a_card_module() {
        let text = "import { Card } from \"../../../interfaces\"\nimport Set from '../Twilight = Masquerade'\n\nconst card: Card = {\n\tset: Set,\n\tname: { en: \"Dreepy\", 'es-mx': `Dreepy`, },\n\thp: 70, // comment\n\t/* block */ types: [\"Dragon\",],\n}\n\nexport default card\n";
        let value = parse_module(text).unwrap();
        let expected = obj(&[
            ("set", Value::Ident("Set".into())),
            (
                "name",
                obj(&[
                    ("en", Value::Str("Dreepy".into())),
                    ("es-mx", Value::Str("Dreepy".into())),
                ]),
            ),
            ("hp", Value::Number(70.0)),
            ("types", Value::Array(vec![Value::Str("Dragon".into())])),
        ]);
        assert_eq!(value, expected);
    }

    #[test]
    fn escapes() {
        let value = parse_value(
            r#"["a\"b", 'it\'s', "\\", "\n", "\u00e9\u{1F600}", "\ud83d\ude00", 'x\
y']"#,
        )
        .unwrap();
        let strings: Vec<&str> = value.as_array().iter().filter_map(Value::as_str).collect();
        assert_eq!(strings, ["a\"b", "it's", "\\", "\n", "é😀", "😀", "xy"]);
    }

    #[test]
    fn joined_strings() {
        let joined = parse_value("{ en: \"a \" +\n\t\t'b' + /* c */ `c` }").unwrap();
        assert_eq!(joined.get("en"), Some(&Value::Str("a bc".into())));
        assert!(parse_value("['a' + 1]").is_err());
    }

    #[test]
    fn scalars() {
        let value = parse_value("[true, false, null, undefined, -1.5, 1e3, NaN, 'ü ◇']").unwrap();
        assert_eq!(
            value,
            Value::Array(vec![
                Value::Bool(true),
                Value::Bool(false),
                Value::Null,
                Value::Undefined,
                Value::Number(-1.5),
                Value::Number(1000.0),
                Value::Ident("NaN".into()),
                Value::Str("ü ◇".into()),
            ])
        );
    }

    #[test]
    fn errors_carry_the_line() {
        let err = parse_value("{\n a: 1,\n b: \"open\n}").unwrap_err();
        assert_eq!(err.line, 3);
        let err = parse_value("{\n a 1 }").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse_value("[1, 2").is_err());
        assert!(parse_value("`a ${b}`").is_err());
        assert!(parse_module("import x from 'y'\n").is_err());
        assert!(parse_value(&"[".repeat(1000)).is_err());
    }
}
