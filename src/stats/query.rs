//! The `--want` query language and its exact evaluation.
//!
//! `Rare Candy>=1 & Dreepy>=1`: clauses joined by `&`, each a group of card names joined
//! by `|` (whose counts add up), a comparison (`>=`, `<=`, `=`, `>`, `<`, also `≥`, `≤`)
//! and a count. A `&` met while reading a name belongs to the name, so TAG TEAM cards such
//! as `Pikachu & Zekrom-GX>=1` read as written. The parser keeps names as written, with
//! byte spans into the input; it does not know cards: the caller resolves each name to a
//! card kind ([`Query::resolve`]). Input size, clauses, names and counts are bounded so a
//! hostile argument cannot make the evaluation explode.

use std::collections::BTreeMap;

use serde::Serialize;

use super::exact::{Atom, Clauses, DeckShape, Family, Ratio, Space, StatsError, Window};
use crate::deck::Span;
use crate::formats::{Going, Setup};

/// Longest query accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 1000;
/// Clauses joined by `&`.
pub const MAX_CLAUSES: usize = 8;
/// Names in one `|` group.
pub const MAX_NAMES: usize = 16;
/// Largest count a clause may compare with.
pub const MAX_COUNT: u32 = 999;

/// How a clause compares the count it sees with the count asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cmp {
    Ge,
    Le,
    Eq,
    Gt,
    Lt,
}

impl Cmp {
    pub fn holds(self, have: u32, want: u32) -> bool {
        match self {
            Cmp::Ge => have >= want,
            Cmp::Le => have <= want,
            Cmp::Eq => have == want,
            Cmp::Gt => have > want,
            Cmp::Lt => have < want,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Le => "<=",
            Cmp::Eq => "=",
            Cmp::Gt => ">",
            Cmp::Lt => "<",
        }
    }
}

/// A card name as written in the query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameRef {
    pub text: String,
    pub span: Span,
}

/// `names cmp count`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Clause {
    pub names: Vec<NameRef>,
    pub cmp: Cmp,
    pub count: u32,
    pub span: Span,
}

/// A parsed query: all clauses must hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Query {
    pub clauses: Vec<Clause>,
}

/// A query that could not be read, with the bytes to underline. [`crate::error::Error`]
/// pairs it with the query's text, for miette to draw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct QueryError {
    pub message: String,
    pub span: miette::SourceSpan,
}

impl QueryError {
    /// `message` about the `length` bytes at `offset` of the query.
    pub fn new(message: impl Into<String>, offset: usize, length: usize) -> QueryError {
        QueryError {
            message: message.into(),
            span: miette::SourceSpan::new(offset.into(), length),
        }
    }
}

/// Reads a `--want` expression.
pub fn parse(input: &str) -> Result<Query, QueryError> {
    if input.len() > MAX_QUERY_BYTES {
        let message = format!("the query is longer than {MAX_QUERY_BYTES} bytes");
        return Err(QueryError::new(message, 0, 0));
    }
    let mut parser = Parser { input, pos: 0 };
    let mut clauses = Vec::new();
    loop {
        if clauses.len() == MAX_CLAUSES {
            let message = format!("a query has at most {MAX_CLAUSES} clauses joined by '&'");
            return Err(QueryError::new(message, parser.pos, 0));
        }
        clauses.push(parser.clause(!clauses.is_empty())?);
        parser.skip_blanks();
        match parser.peek() {
            None => return Ok(Query { clauses }),
            Some('&') => parser.pos += 1,
            Some(c) => {
                let message = format!("expected '&' or the end of the query, found '{c}'");
                return Err(QueryError::new(message, parser.pos, c.len_utf8()));
            }
        }
    }
}

/// Characters that end a name.
fn ends_name(c: char) -> bool {
    matches!(c, '|' | '<' | '>' | '=' | '≥' | '≤')
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        self.input.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_blanks(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn clause(&mut self, after_and: bool) -> Result<Clause, QueryError> {
        let start = self.pos;
        let mut names: Vec<NameRef> = Vec::new();
        loop {
            let name = self.name(names.last(), after_and)?;
            names.push(name);
            if self.peek() != Some('|') {
                break;
            }
            if names.len() == MAX_NAMES {
                let message = format!("a '|' group has at most {MAX_NAMES} names");
                return Err(QueryError::new(message, self.pos, 1));
            }
            self.pos += 1;
        }
        let cmp = self.cmp();
        let count = self.count(cmp)?;
        let offset = names.first().map_or(start, |n| n.span.offset);
        let span = Span::new(offset, self.pos - offset);
        Ok(Clause {
            names,
            cmp,
            count,
            span,
        })
    }

    /// A name up to `|`, a comparison or the end, trimmed; `previous` is the name before a
    /// `|`, for the error message.
    fn name(&mut self, previous: Option<&NameRef>, after_and: bool) -> Result<NameRef, QueryError> {
        let input = self.input;
        let rest = input.get(self.pos..).unwrap_or("");
        let len = rest.find(ends_name).unwrap_or(rest.len());
        let raw = rest.get(..len).unwrap_or("");
        let text = raw.trim();
        let offset = self.pos + (raw.len() - raw.trim_start().len());
        let at = self.pos;
        self.pos += len;
        if text.is_empty() {
            let message = match (previous, after_and) {
                (Some(p), _) => format!("expected a card name after '{}|'", p.text),
                (None, true) => "expected a card name after '&'".to_string(),
                (None, false) => "expected a card name".to_string(),
            };
            return Err(QueryError::new(message, at, len));
        }
        let span = Span::new(offset, text.len());
        if self.peek().is_none() {
            let message = format!("expected a comparison such as >=1 after '{text}'");
            return Err(QueryError::new(message, offset, text.len()));
        }
        let text = text.to_string();
        Ok(NameRef { text, span })
    }

    /// The comparison; the caller has checked that one of [`ends_name`] other than `|` is next.
    fn cmp(&mut self) -> Cmp {
        let rest = self.rest();
        let table = [
            (">=", Cmp::Ge),
            ("≥", Cmp::Ge),
            ("<=", Cmp::Le),
            ("≤", Cmp::Le),
            ("==", Cmp::Eq),
            ("=", Cmp::Eq),
            (">", Cmp::Gt),
            ("<", Cmp::Lt),
        ];
        let found = table.iter().find(|(op, _)| rest.starts_with(op));
        let (op, cmp) = found.copied().unwrap_or(("", Cmp::Eq));
        self.pos += op.len();
        cmp
    }

    fn count(&mut self, cmp: Cmp) -> Result<u32, QueryError> {
        self.skip_blanks();
        let rest = self.rest();
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let text = rest.get(..digits).unwrap_or("");
        if text.is_empty() {
            let found = rest.chars().next().map_or(0, char::len_utf8);
            let message = format!("expected a count after '{}', such as 1", cmp.as_str());
            return Err(QueryError::new(message, self.pos, found));
        }
        let count = text.parse::<u32>().ok().filter(|c| *c <= MAX_COUNT);
        let Some(count) = count else {
            let message = format!("the count {text} is too large (at most {MAX_COUNT})");
            return Err(QueryError::new(message, self.pos, digits));
        };
        self.pos += digits;
        Ok(count)
    }
}

/// A clause over card kinds (indices into a [`DeckShape`]), each kind counted once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedClause {
    pub kinds: Vec<usize>,
    pub cmp: Cmp,
    pub count: u32,
}

/// A query whose names the caller has turned into card kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedQuery {
    pub clauses: Vec<ResolvedClause>,
}

impl Query {
    /// Turns each name into a kind with `kind_of`; the first failure is returned as is.
    /// A kind named twice in one group (two languages, say) counts once.
    pub fn resolve<E>(
        &self,
        mut kind_of: impl FnMut(&NameRef) -> Result<usize, E>,
    ) -> Result<ResolvedQuery, E> {
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for clause in &self.clauses {
            let mut kinds = clause
                .names
                .iter()
                .map(&mut kind_of)
                .collect::<Result<Vec<_>, E>>()?;
            kinds.sort_unstable();
            kinds.dedup();
            let (cmp, count) = (clause.cmp, clause.count);
            clauses.push(ResolvedClause { kinds, cmp, count });
        }
        Ok(ResolvedQuery { clauses })
    }
}

/// Exact odds of a query, kept-hand unless named single shuffle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryOdds {
    pub hand: Ratio,
    pub hand_single_shuffle: Ratio,
    pub prizes: Ratio,
    pub prizes_single_shuffle: Ratio,
    /// Over the cards seen by own turn t, t = 1..=turns.
    pub by_turn: Vec<Ratio>,
    pub by_turn_single_shuffle: Vec<Ratio>,
}

impl ResolvedQuery {
    /// Whether the query holds for these per-kind counts (for a simulation).
    pub fn holds(&self, count_of: impl Fn(usize) -> u32) -> bool {
        self.clauses.iter().all(|clause| {
            let have = clause.kinds.iter().map(|&k| count_of(k)).sum();
            clause.cmp.holds(have, clause.count)
        })
    }

    /// The deck split by which clauses a kind belongs to (and whether it is Basic), so the
    /// enumeration runs over a handful of atoms however many kinds the deck has.
    fn space(&self, shape: &DeckShape, rules: &Setup) -> Result<(Space, Vec<u32>), StatsError> {
        let mut masks = vec![0u32; shape.kinds.len()];
        for (bit, clause) in self.clauses.iter().enumerate() {
            for &index in &clause.kinds {
                let mask = masks
                    .get_mut(index)
                    .ok_or(StatsError::UnknownKind { index })?;
                *mask |= 1u32.checked_shl(bit as u32).ok_or(StatsError::TooComplex)?;
            }
        }
        let mut groups: BTreeMap<(u32, bool), u32> = BTreeMap::new();
        for (kind, mask) in shape.kinds.iter().zip(&masks) {
            let copies = groups.entry((*mask, kind.basic)).or_insert(0);
            *copies = copies.saturating_add(kind.copies);
        }
        let atoms = groups
            .iter()
            .map(|(&(_, basic), &copies)| Atom { copies, basic });
        let atom_masks = groups.keys().map(|&(mask, _)| mask).collect();
        Ok((Space::new(atoms.collect(), rules)?, atom_masks))
    }

    /// Exact odds in every window and both families.
    pub fn odds(
        &self,
        shape: &DeckShape,
        rules: &Setup,
        turns: u32,
        going: Going,
    ) -> Result<QueryOdds, StatsError> {
        let (space, masks) = self.space(shape, rules)?;
        let caps: Vec<u32> = self
            .clauses
            .iter()
            .map(|c| c.count.saturating_add(1))
            .collect();
        let holds = |j: usize, have: u32| {
            let clause = self.clauses.get(j);
            clause.is_some_and(|c| c.cmp.holds(have, c.count))
        };
        let event = Clauses {
            masks: &masks,
            caps: &caps,
            holds: &holds,
        };
        use Family::{Kept, SingleShuffle as One};
        let curve = |family| -> Result<Vec<Ratio>, StatsError> {
            (1..=turns)
                .map(|t| {
                    let draws = rules.draws_by_turn(t, going);
                    space.probability_of(Window::Seen { draws }, family, &event)
                })
                .collect()
        };
        Ok(QueryOdds {
            hand: space.probability_of(Window::Hand, Kept, &event)?,
            hand_single_shuffle: space.probability_of(Window::Hand, One, &event)?,
            prizes: space.probability_of(Window::Prizes, Kept, &event)?,
            prizes_single_shuffle: space.probability_of(Window::Prizes, One, &event)?,
            by_turn: curve(Kept)?,
            by_turn_single_shuffle: curve(One)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A query in a compact form: `[names] cmp count` per clause, joined by ` & `.
    fn show(input: &str) -> String {
        match parse(input) {
            Ok(query) => {
                let clauses = query.clauses.iter().map(|c| {
                    let names: Vec<&str> = c.names.iter().map(|n| n.text.as_str()).collect();
                    format!("[{}] {} {}", names.join(" | "), c.cmp.as_str(), c.count)
                });
                clauses.collect::<Vec<_>>().join(" & ")
            }
            Err(err) => format!("error: {err}"),
        }
    }

    #[test]
    fn parse_table() {
        let table = [
            ("Rare Candy>=1", "[Rare Candy] >= 1"),
            (
                "Rare Candy>=1 & Dreepy>=1",
                "[Rare Candy] >= 1 & [Dreepy] >= 1",
            ),
            (
                "Nest Ball|Buddy-Buddy Poffin>=1",
                "[Nest Ball | Buddy-Buddy Poffin] >= 1",
            ),
            ("  Nest Ball | Poffin  >=  2  ", "[Nest Ball | Poffin] >= 2"),
            ("A<=2", "[A] <= 2"),
            ("A=0", "[A] = 0"),
            ("A==0", "[A] = 0"),
            ("A>1", "[A] > 1"),
            ("A<3", "[A] < 3"),
            ("A≥1&B≤2", "[A] >= 1 & [B] <= 2"),
            ("Pikachu & Zekrom-GX>=1", "[Pikachu & Zekrom-GX] >= 1"),
            (
                "Pikachu & Zekrom-GX>=1 & Boss's Orders>=1",
                "[Pikachu & Zekrom-GX] >= 1 & [Boss's Orders] >= 1",
            ),
            ("Pokégear 3.0>=1", "[Pokégear 3.0] >= 1"),
            (
                "Ordres du Boss|Boss’s Orders>=1",
                "[Ordres du Boss | Boss’s Orders] >= 1",
            ),
            ("Rare Candy>=999", "[Rare Candy] >= 999"),
        ];
        for (input, want) in table {
            assert_eq!(show(input), want, "{input}");
        }
    }

    #[test]
    fn spans_are_bytes_of_the_input() {
        let input = "  Pokégear 3.0 | Dreepy >= 1";
        let query = parse(input).unwrap();
        let clause = &query.clauses[0];
        for name in &clause.names {
            assert_eq!(&input[name.span.offset..name.span.end()], name.text);
        }
        assert_eq!(
            &input[clause.span.offset..clause.span.end()],
            "Pokégear 3.0 | Dreepy >= 1"
        );
    }

    /// The message, the query and a caret under each character of the error's span (at
    /// least one): where miette's label will point.
    fn error(input: &str) -> String {
        let error = parse(input).unwrap_err();
        let (offset, length) = (error.span.offset(), error.span.len());
        let pad = " ".repeat(input[..offset].chars().count());
        let carets = "^".repeat(input[offset..offset + length].chars().count().max(1));
        format!("error: {}\n  {input}\n  {pad}{carets}", error.message)
    }

    #[test]
    fn error_messages() {
        insta::assert_snapshot!(error("Rare Candy"), @r"
        error: expected a comparison such as >=1 after 'Rare Candy'
          Rare Candy
          ^^^^^^^^^^
        ");
        insta::assert_snapshot!(error("Rare Candy>=1 & Dreepy"), @r"
        error: expected a comparison such as >=1 after 'Dreepy'
          Rare Candy>=1 & Dreepy
                          ^^^^^^
        ");
        insta::assert_snapshot!(error("Rare Candy>="), @r"
        error: expected a count after '>=', such as 1
          Rare Candy>=
                      ^
        ");
        insta::assert_snapshot!(error("Rare Candy=>1"), @r"
        error: expected a count after '=', such as 1
          Rare Candy=>1
                     ^
        ");
        insta::assert_snapshot!(error("Rare Candy>=1 Dreepy>=1"), @r"
        error: expected '&' or the end of the query, found 'D'
          Rare Candy>=1 Dreepy>=1
                        ^
        ");
        insta::assert_snapshot!(error("Rare Candy>=1 & "), @r"
        error: expected a card name after '&'
          Rare Candy>=1 & 
                         ^
        ");
        insta::assert_snapshot!(error("Nest Ball| >=1"), @r"
        error: expected a card name after 'Nest Ball|'
          Nest Ball| >=1
                    ^
        ");
        insta::assert_snapshot!(error(">=1"), @r"
        error: expected a card name
          >=1
          ^
        ");
        insta::assert_snapshot!(error("Pokégear>=1000"), @r"
        error: the count 1000 is too large (at most 999)
          Pokégear>=1000
                    ^^^^
        ");
    }

    #[test]
    fn input_is_bounded() {
        let long = "A".repeat(MAX_QUERY_BYTES + 1);
        assert_eq!(show(&long), "error: the query is longer than 1000 bytes");
        let many = ["A>=1"; MAX_CLAUSES + 1].join("&");
        assert_eq!(
            show(&many),
            "error: a query has at most 8 clauses joined by '&'"
        );
        let names = ["A"; MAX_NAMES + 1].join("|") + ">=1";
        assert_eq!(show(&names), "error: a '|' group has at most 16 names");
        assert!(parse(&["A>=1"; MAX_CLAUSES].join("&")).is_ok());
    }

    #[test]
    fn resolve_counts_a_kind_once_per_group_and_holds_checks_all_clauses() {
        let query = parse("Boss's Orders|Ordres du Boss>=2 & Dreepy>=1").unwrap();
        let resolved = query
            .resolve(|n| Ok::<_, ()>(usize::from(n.text == "Dreepy")))
            .unwrap();
        assert_eq!(resolved.clauses[0].kinds, vec![0]);
        assert!(resolved.holds(|k| [2, 1][k]));
        assert!(!resolved.holds(|k| [1, 1][k]));
        assert!(!resolved.holds(|k| [2, 0][k]));
        let failed = query.resolve(|n| {
            if n.text == "Dreepy" {
                Err(n.span)
            } else {
                Ok(0)
            }
        });
        assert_eq!(failed, Err(Span::new(34, 6)));
    }
}
