//! Reading a search query: `type:psychic stage:basic hp>=120 (legal:standard or -banned:expanded)`.
//!
//! A query is terms joined by juxtaposition (and), `or`, `-` or `not` (not) and parentheses;
//! `not` binds tightest, then and, then `or`. A term is a bare word or a `"quoted phrase"`
//! (a card name, or a set code and number such as `TWM 128`), or a key from
//! [`super::keys::KEYS`] with an operator and a value (`hp>=120`, `text:"draw 3"`). The
//! parser checks each key and value against that table, so a mistake is found before any
//! card is read, with its byte span in the query as typed and the nearest key or value. It
//! knows no card database: [`super::filter`] resolves names and printings.

use jiff::civil::Date;

pub use super::keys::Op;
use super::keys::{KEYS, Key, Kind};
use crate::deck::Span;

/// Longest query accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 1000;
/// Deepest nesting of parentheses and negations.
pub const MAX_DEPTH: usize = 32;
/// Terms (words, phrases and keyed terms) in one query.
pub const MAX_TERMS: usize = 64;

/// A bare word or a quoted phrase, as written (without its quotes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub span: Span,
    pub quoted: bool,
}

/// A keyed term's value, checked against its key's [`Kind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Free text, as written.
    Text(String),
    /// One of the key's choices, as the table spells it.
    Choice(&'static str),
    Number(u32),
    Date(Date),
    /// A built-in format id and the date to judge at (today when none).
    Format {
        id: String,
        date: Option<Date>,
    },
}

/// `key op value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub key: &'static Key,
    pub op: Op,
    pub value: Value,
    /// Whether the value was a `"quoted phrase"` (a name then matches whole words only).
    pub quoted: bool,
    pub span: Span,
}

/// A parsed query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    /// Consecutive bare words and phrases: names, or set codes and numbers
    /// ([`super::filter`] decides which).
    Words(Vec<Word>),
    Term(Term),
}

impl Expr {
    /// Calls `visit` on each term of the expression in query order, with whether it lies
    /// under a `not` (`-legal:standard` asks for the cards a term rules out).
    pub fn each_term<'q>(&'q self, visit: &mut impl FnMut(&'q Term, bool)) {
        self.each_term_under(false, visit);
    }

    fn each_term_under<'q>(&'q self, negated: bool, visit: &mut impl FnMut(&'q Term, bool)) {
        match self {
            Expr::And(parts) | Expr::Or(parts) => {
                parts
                    .iter()
                    .for_each(|part| part.each_term_under(negated, visit));
            }
            Expr::Not(inner) => inner.each_term_under(!negated, visit),
            Expr::Words(_) => {}
            Expr::Term(term) => visit(term, negated),
        }
    }
}

/// Why a query cannot be read: a message about the bytes at `span`, and a help line (the
/// nearest key or value) when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchError {
    pub message: String,
    pub span: Span,
    pub help: Option<String>,
}

impl SearchError {
    pub fn new(message: impl Into<String>, span: Span) -> SearchError {
        SearchError {
            message: message.into(),
            span,
            help: None,
        }
    }

    fn help(mut self, help: Option<String>) -> SearchError {
        self.help = help;
        self
    }
}

/// Reads a query.
pub fn parse(input: &str) -> Result<Expr, SearchError> {
    if input.len() > MAX_QUERY_BYTES {
        let message = format!("the query is longer than {MAX_QUERY_BYTES} bytes");
        return Err(SearchError::new(message, Span::new(0, 0)));
    }
    let mut parser = Parser {
        input,
        pos: 0,
        depth: 0,
        terms: 0,
    };
    let expr = parser.or()?;
    parser.skip_blanks();
    match parser.peek() {
        None => Ok(expr),
        Some(')') => Err(SearchError::new(
            "this `)` closes no `(`",
            Span::new(parser.pos, 1),
        )),
        // `or` returns only at the end, at `)` or at a word it could not read, which it
        // reports itself; kept for safety.
        Some(_) => Err(SearchError::new(
            "unexpected text",
            Span::new(parser.pos, 1),
        )),
    }
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
    depth: usize,
    terms: usize,
}

/// Ends a bare word or an unquoted value.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ')' || c == '"'
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        self.input.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_blanks(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The bare word at the cursor (not consumed).
    fn word_ahead(&self) -> &'a str {
        let rest = self.rest();
        let end = rest.find(ends_word).unwrap_or(rest.len());
        &rest[..end]
    }

    /// One level deeper, for the `(` or negation of `length` bytes at `at`: the caret of
    /// the refusal stands under the one that goes past [`MAX_DEPTH`].
    fn deeper(&mut self, at: usize, length: usize) -> Result<(), SearchError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let message = format!("the query nests deeper than {MAX_DEPTH} levels");
            return Err(SearchError::new(message, Span::new(at, length)));
        }
        Ok(())
    }

    /// `and ("or" and)*`
    fn or(&mut self) -> Result<Expr, SearchError> {
        let mut parts = vec![self.and()?];
        loop {
            self.skip_blanks();
            if !self.word_ahead().eq_ignore_ascii_case("or") {
                break;
            }
            let at = self.pos;
            self.pos += 2;
            self.skip_blanks();
            if matches!(self.peek(), None | Some(')'))
                || self.word_ahead().eq_ignore_ascii_case("or")
            {
                return Err(SearchError::new(
                    "`or` needs a term after it",
                    Span::new(at, 2),
                ));
            }
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Expr::Or(parts)
        })
    }

    /// One or more unary terms, side by side; consecutive words are kept together.
    fn and(&mut self) -> Result<Expr, SearchError> {
        let mut parts: Vec<Expr> = Vec::new();
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            if c == ')' || self.word_ahead().eq_ignore_ascii_case("or") {
                break;
            }
            let part = self.unary()?;
            match (parts.last_mut(), part) {
                (Some(Expr::Words(words)), Expr::Words(more)) => words.extend(more),
                (_, part) => parts.push(part),
            }
        }
        match parts.len() {
            0 => {
                let span = Span::new(self.pos, usize::from(self.peek().is_some()));
                Err(SearchError::new("expected a search term here", span))
            }
            1 => Ok(parts.remove(0)),
            _ => Ok(Expr::And(parts)),
        }
    }

    fn unary(&mut self) -> Result<Expr, SearchError> {
        let word = self.word_ahead();
        let negation = if word.eq_ignore_ascii_case("not") {
            Some(3)
        } else if self.peek() == Some('-') {
            Some(1)
        } else {
            None
        };
        if let Some(length) = negation {
            let at = self.pos;
            self.pos += length;
            self.skip_blanks();
            if matches!(self.peek(), None | Some(')')) {
                return Err(SearchError::new("nothing to negate", Span::new(at, length)));
            }
            self.deeper(at, length)?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.peek() == Some('(') {
            let open = self.pos;
            self.pos += 1;
            self.deeper(open, 1)?;
            let inner = self.or()?;
            self.depth -= 1;
            self.skip_blanks();
            if self.peek() != Some(')') {
                return Err(SearchError::new(
                    "this `(` is never closed",
                    Span::new(open, 1),
                ));
            }
            self.pos += 1;
            return Ok(inner);
        }
        self.terms += 1;
        if self.terms > MAX_TERMS {
            let message = format!("the query has more than {MAX_TERMS} terms");
            // The caret on the whole first character of the term past the limit (`⬦` is
            // three bytes).
            let width = self.peek().map_or(0, char::len_utf8);
            return Err(SearchError::new(message, Span::new(self.pos, width)));
        }
        self.term()
    }

    /// A quoted phrase, a keyed term or a bare word.
    fn term(&mut self) -> Result<Expr, SearchError> {
        let start = self.pos;
        if self.peek() == Some('"') {
            let text = self.quoted()?;
            let span = Span::new(start, self.pos - start);
            return Ok(Expr::Words(vec![Word {
                text,
                span,
                quoted: true,
            }]));
        }
        let word = self.word_ahead();
        if let Some((name, op, op_len)) = split_key(word) {
            return self.keyed(name, op, op_len).map(Expr::Term);
        }
        self.pos += word.len();
        Ok(Expr::Words(vec![Word {
            text: word.to_string(),
            span: Span::new(start, word.len()),
            quoted: false,
        }]))
    }

    /// `"..."` at the cursor: its text, without the quotes.
    fn quoted(&mut self) -> Result<String, SearchError> {
        let open = self.pos;
        let body = &self.rest()[1..];
        let Some(close) = body.find('"') else {
            return Err(SearchError::new(
                "this quote is never closed",
                Span::new(open, 1),
            ));
        };
        let text = body[..close].to_string();
        self.pos += close + 2;
        if text.trim().is_empty() {
            let span = Span::new(open, close + 2);
            return Err(SearchError::new("an empty phrase", span));
        }
        Ok(text)
    }

    /// `name op value`, the cursor at `name`.
    fn keyed(&mut self, name: &'a str, op: Op, op_len: usize) -> Result<Term, SearchError> {
        let start = self.pos;
        let key_span = Span::new(start, name.len());
        let Some(key) = find_key(name) else {
            let message = format!("unknown key `{name}`");
            let help = match option_for(name) {
                Some(option) => Some(option.to_string()),
                None => nearest(name, KEYS.iter().flat_map(Key::names))
                    .map(|near| format!("did you mean `{near}:`?")),
            };
            return Err(SearchError::new(message, key_span).help(help));
        };
        self.pos += name.len() + op_len;
        let value_start = self.pos;
        let quoted = self.peek() == Some('"');
        let raw = if quoted {
            self.quoted()?
        } else {
            let word = self.word_ahead();
            self.pos += word.len();
            word.to_string()
        };
        // A quoted value's text starts after its quote: a mistake inside it (the date of
        // `legal:"standard@2026-02-30"`) is pointed at in the text, not one to the left.
        let value_span = if quoted {
            Span::new(value_start + 1, raw.len())
        } else {
            Span::new(value_start, self.pos - value_start)
        };
        if raw.is_empty() {
            let message = format!("`{}` needs a value: {}", key.name, key.kind.expects());
            return Err(SearchError::new(
                message,
                Span::new(start, self.pos - start),
            ));
        }
        if op != Op::Eq && !key.kind.ordered() {
            let message = format!("`{}` compares only with `:` or `=`", key.name);
            return Err(SearchError::new(
                message,
                Span::new(start + name.len(), op_len),
            ));
        }
        let value = value_of(key, &raw, value_span)?;
        Ok(Term {
            key,
            op,
            value,
            quoted,
            span: Span::new(start, self.pos - start),
        })
    }
}

/// `hp>=120` → `("hp", Ge, 2)`: a word that starts with a key-like name (letters and `-`)
/// and an operator. A bare word such as `PR-SV` or `sv06-128` has none.
fn split_key(word: &str) -> Option<(&str, Op, usize)> {
    let end = word.find(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))?;
    let (name, rest) = word.split_at(end);
    if name.is_empty() || name.starts_with('-') {
        return None;
    }
    let ops = [
        (">=", Op::Ge),
        ("<=", Op::Le),
        (":", Op::Eq),
        ("=", Op::Eq),
        (">", Op::Gt),
        ("<", Op::Lt),
    ];
    let (text, op) = ops.into_iter().find(|(text, _)| rest.starts_with(text))?;
    // `hp:>=120` reads as `hp>=120`.
    if text == ":" {
        for (more, op) in ops {
            if more != ":" && more != "=" && rest[1..].starts_with(more) {
                return Some((name, op, 1 + more.len()));
            }
        }
    }
    Some((name, op, text.len()))
}

fn find_key(name: &str) -> Option<&'static Key> {
    KEYS.iter()
        .find(|key| key.names().any(|known| known.eq_ignore_ascii_case(name)))
}

/// Checks `raw` against the kind of value `key` takes.
fn value_of(key: &'static Key, raw: &str, span: Span) -> Result<Value, SearchError> {
    let wrong = |what: String| SearchError::new(what, span);
    match key.kind {
        Kind::Text | Kind::Card => Ok(Value::Text(raw.to_string())),
        Kind::Number => raw
            .parse()
            .map(Value::Number)
            .map_err(|_| wrong(format!("`{}` takes a whole number, not `{raw}`", key.name))),
        Kind::Date => crate::util::date::parse(raw)
            .map(Value::Date)
            .ok_or_else(|| {
                wrong(format!(
                    "`{}` takes a date (YYYY-MM-DD), not `{raw}`",
                    key.name
                ))
            }),
        Kind::Choice(choices) => choice(key, choices, raw, span).map(Value::Choice),
        Kind::Format => format_value(key, raw, span),
    }
}

/// The choice `raw` names: exactly as written, else without case when that names one
/// choice only (`ex` and `EX` differ).
fn choice(
    key: &Key,
    choices: &'static [&'static str],
    raw: &str,
    span: Span,
) -> Result<&'static str, SearchError> {
    if let Some(&exact) = choices.iter().find(|&&choice| choice == raw) {
        return Ok(exact);
    }
    let loose: Vec<&'static str> = choices
        .iter()
        .copied()
        .filter(|choice| choice.eq_ignore_ascii_case(raw))
        .collect();
    match loose.as_slice() {
        [one] => Ok(one),
        [] => {
            let message = format!("`{}` has no value `{raw}`", key.name);
            let help = match nearest(raw, choices.iter().copied()) {
                Some(near) => format!("did you mean `{}:{near}`? ", key.name),
                None => String::new(),
            };
            let help = format!("{help}values: {}", choices.join(", "));
            Err(SearchError::new(message, span).help(Some(help)))
        }
        several => {
            let message = format!("`{}:{raw}` is ambiguous: case matters here", key.name);
            let help = format!("write one of {}", several.join(", "));
            Err(SearchError::new(message, span).help(Some(help)))
        }
    }
}

/// `standard`, `expanded@2015-06-01`: a built-in format, and a date to judge at.
fn format_value(key: &Key, raw: &str, span: Span) -> Result<Value, SearchError> {
    let (id, date) = match raw.split_once('@') {
        Some((id, date)) => (id, Some(date)),
        None => (raw, None),
    };
    let date = match date {
        None => None,
        Some(text) => {
            let Some(date) = crate::util::date::parse(text) else {
                let at = span.offset + id.len() + 1;
                let message = format!("`{text}` is not a date (YYYY-MM-DD)");
                return Err(SearchError::new(message, Span::new(at, text.len())));
            };
            Some(date)
        }
    };
    let lower = id.to_ascii_lowercase();
    if !crate::formats::Format::builtin_ids().any(|known| known == lower) {
        let message = format!("`{}` knows no format `{id}`", key.name);
        let near = nearest(&lower, crate::formats::Format::listed_ids());
        let help = near.map(|near| format!("did you mean `{}:{near}`?", key.name));
        let id_span = Span::new(span.offset, id.len());
        return Err(SearchError::new(message, id_span).help(help));
    }
    Ok(Value::Format { id: lower, date })
}

/// The candidate nearest to `written` by edit distance (case aside), when it is near
/// enough to be a typo: at most a third of its length, and 3.
pub(super) fn nearest<'c>(
    written: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    let written = written.to_lowercase();
    let limit = (written.chars().count() / 3).clamp(1, 3);
    candidates
        .map(|candidate| {
            (
                strsim::osa_distance(&written, &candidate.to_lowercase()),
                candidate,
            )
        })
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// What to say for a key that other card searches have in their query (Scryfall's
/// `order:`, `unique:`, `lang:`) and deckbox has as an option of `search` instead.
fn option_for(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "sort" | "order" => {
            Some("the order is an option, not a key: `--sort name` (or released, hp, set)")
        }
        "unique" => Some("one line a card or a printing is an option: `--unique printings`"),
        "lang" | "language" => Some(
            "the language names are shown in is an option: `--lang fr` (every language is searched)",
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query as the tree reads it, one line.
    fn show(expr: &Expr) -> String {
        match expr {
            Expr::And(parts) => {
                let parts: Vec<String> = parts.iter().map(show).collect();
                format!("({})", parts.join(" AND "))
            }
            Expr::Or(parts) => {
                let parts: Vec<String> = parts.iter().map(show).collect();
                format!("({})", parts.join(" OR "))
            }
            Expr::Not(inner) => format!("NOT {}", show(inner)),
            Expr::Words(words) => {
                let words: Vec<&str> = words.iter().map(|word| word.text.as_str()).collect();
                format!("[{}]", words.join("|"))
            }
            Expr::Term(term) => format!("{} {:?}{:?}", term.key.name, term.op, term.value),
        }
    }

    fn read(input: &str) -> String {
        match parse(input) {
            Ok(expr) => show(&expr),
            Err(error) => caret(input, &error),
        }
    }

    fn caret(input: &str, error: &SearchError) -> String {
        let pad = " ".repeat(input[..error.span.offset].chars().count());
        let marks = input[error.span.offset..error.span.end()].chars().count();
        let help = error.help.as_deref().unwrap_or("");
        format!(
            "{}\n{input}\n{pad}{}\n{help}",
            error.message,
            "^".repeat(marks.max(1))
        )
    }

    #[test]
    fn queries_read_as_written() {
        let table = [
            ("Dreepy", "[Dreepy]"),
            ("TWM 128", "[TWM|128]"),
            ("\"Boss's Orders\"", "[Boss's Orders]"),
            (
                "type:psychic stage:basic hp>=120",
                "(type EqChoice(\"psychic\") AND stage EqChoice(\"basic\") AND hp GeNumber(120))",
            ),
            (
                "t:Psychic hp:>=120",
                "(type EqChoice(\"psychic\") AND hp GeNumber(120))",
            ),
            ("a or b c", "([a] OR [b|c])"),
            (
                "-is:ex not (kind:item OR kind:tool)",
                "(NOT is EqChoice(\"ex\") AND NOT (kind EqChoice(\"item\") OR kind EqChoice(\"tool\")))",
            ),
            ("is:EX", "is EqChoice(\"EX\")"),
            ("PR-SV 12", "[PR-SV|12]"),
            ("sv06-128", "[sv06-128]"),
            (
                "legal:Expanded@2015-06-01",
                "legal EqFormat { id: \"expanded\", date: Some(2015-06-01) }",
            ),
            ("released<2020-01-01", "released LtDate(2020-01-01)"),
            (
                "text:\"discard your hand\"",
                "text EqText(\"discard your hand\")",
            ),
        ];
        for (input, want) in table {
            assert_eq!(read(input), want, "{input}");
        }
    }

    #[test]
    fn mistakes_point_at_the_character() {
        insta::assert_snapshot!(read("tpye:psychic hp>=120"), @r"
        unknown key `tpye`
        tpye:psychic hp>=120
        ^^^^
        did you mean `type:`?
        ");
        insta::assert_snapshot!(read("sort:name kind:supporter"), @r"
        unknown key `sort`
        sort:name kind:supporter
        ^^^^
        the order is an option, not a key: `--sort name` (or released, hp, set)
        ");
        insta::assert_snapshot!(read("t:psychc"), @r"
        `type` has no value `psychc`
        t:psychc
          ^^^^^^
        did you mean `type:psychic`? values: grass, fire, water, lightning, psychic, fighting, darkness, metal, fairy, dragon, colorless
        ");
        insta::assert_snapshot!(read("is:Ex"), @r"
        `is:Ex` is ambiguous: case matters here
        is:Ex
           ^^
        write one of ex, EX
        ");
        insta::assert_snapshot!(read("hp>=lots"), @r"
        `hp` takes a whole number, not `lots`
        hp>=lots
            ^^^^
        ");
        insta::assert_snapshot!(read("legal:standrd"), @r"
        `legal` knows no format `standrd`
        legal:standrd
              ^^^^^^^
        did you mean `legal:standard`?
        ");
        insta::assert_snapshot!(read("(Dreepy or Drakloak"), @r"
        this `(` is never closed
        (Dreepy or Drakloak
        ^
        ");
        insta::assert_snapshot!(read("Dreepy )"), @r"
        this `)` closes no `(`
        Dreepy )
               ^
        ");
        insta::assert_snapshot!(read("name:Drée or"), @r"
        `or` needs a term after it
        name:Drée or
                  ^^
        ");
        insta::assert_snapshot!(read("set:\"TWM"), @r#"
        this quote is never closed
        set:"TWM
            ^
        "#);
        insta::assert_snapshot!(read("legal:\"standard@2026-02-30\""), @r#"
        `2026-02-30` is not a date (YYYY-MM-DD)
        legal:"standard@2026-02-30"
                        ^^^^^^^^^^
        "#);
        insta::assert_snapshot!(read("hp:\"12x\""), @r#"
        `hp` takes a whole number, not `12x`
        hp:"12x"
            ^^^
        "#);
        assert_eq!(read("kind:item hp"), "(kind EqChoice(\"item\") AND [hp])");
    }

    #[test]
    fn bounds_hold() {
        let deep = format!(
            "{}x{}",
            "(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        assert!(read(&deep).starts_with("the query nests deeper"));
        let nots = format!("{}x", "-".repeat(MAX_DEPTH + 1));
        assert!(parse(&nots).is_err());
        let many = vec!["x"; MAX_TERMS + 1].join(" ");
        assert!(read(&many).starts_with("the query has more than"));
        // The caret covers the whole character past the limit (a fuzz find: it split `⬦`).
        let wide = vec!["⬦"; MAX_TERMS + 1].join(" ");
        let error = parse(&wide).unwrap_err();
        let (offset, end) = (error.span.offset, error.span.end());
        assert_eq!(wide.get(offset..end), Some("⬦"));
        let long = "x".repeat(MAX_QUERY_BYTES + 1);
        assert!(parse(&long).is_err());
        for input in [
            "", "  ", "()", "-", "not", "or", "\"\"", "hp>=", "(((", ")))",
        ] {
            assert!(parse(input).is_err(), "{input:?}");
        }
    }
}
