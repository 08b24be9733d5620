//! The `--want` query language and its exact evaluation.
//!
//! A query is a boolean expression over *terms*: `Rare Candy>=1 & (Dreepy>=2 | !Drakloak<1)`.
//! A term is a group of card names joined by `|` (whose counts add up), a comparison (`>=`,
//! `<=`, `==` or `=`, `>`, `<`, also `≥`, `≤`) and a count, and optionally a turn:
//! `Rare Candy>=1 by T2` counts the cards seen by the start of own turn 2. Terms combine
//! with `&` (and), `|` (or), `!` (not) and parentheses; `!` binds tightest, then `&`, then
//! `|`. A turn after a parenthesized group applies to every term inside that has none:
//! `(Rare Candy>=1 | Drakloak>=1) by T2`. A `|` before the comparison joins names, after it
//! joins terms. A `&` met while
//! reading a name belongs to the name, so TAG TEAM cards such as `Pikachu & Zekrom-GX>=1`
//! read as written, and a name may hold `(`, `)` or `!` (`Boss's Orders (Giovanni)`,
//! `Challenge!`): only at the start of a term do `!` and `(` mean not and a group. A name
//! that ends the query with no comparison asks for at least one: `Rare Candy` is
//! `Rare Candy>=1`.
//!
//! A query whose terms have no turn is a question about one window asked of every window
//! (the hand, the prizes, the cards seen by each turn); a query with a turn on any term is
//! one event, its terms without a turn meaning the opening hand ([`ResolvedQuery::event`]).
//! The parser keeps names as written, with byte spans into the input; it does not know
//! cards: the caller resolves each name to a card kind ([`Query::resolve`]). Input size,
//! terms, names, nesting, turns and counts are bounded so a hostile argument cannot make
//! the evaluation explode.

use std::collections::BTreeMap;

use serde::Serialize;

#[cfg(test)]
use super::exact::Family;
use super::exact::{Atom, DeckShape, Ratio, Space, StatsError, Sweep, Window};
use crate::deck::Span;
use crate::formats::{Going, Setup};

/// Longest query accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 1000;
/// Terms in one query.
pub const MAX_TERMS: usize = 8;
/// Names in one `|` group.
pub const MAX_NAMES: usize = 16;
/// Largest count a term may compare with.
pub const MAX_COUNT: u32 = 999;
/// Deepest nesting of `(` and `!`.
pub const MAX_DEPTH: usize = 32;
/// Latest turn a term may name (the engine deals at most this many turns).
pub const MAX_TURN: u32 = crate::engine::MAX_TURNS;

/// How a term compares the count it sees with the count asked for.
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

/// `names cmp count [by Tn]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    pub names: Vec<NameRef>,
    pub cmp: Cmp,
    pub count: u32,
    /// The own turn by whose start the cards are counted; `None`: see the module docs.
    pub turn: Option<u32>,
    pub span: Span,
}

/// How terms combine; `Term(j)` is the j-th term of the query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Expr {
    Term(usize),
    Not(Box<Expr>),
    All(Vec<Expr>),
    Any(Vec<Expr>),
}

impl Expr {
    /// The value of the expression when term j's truth is `term(j)`.
    pub fn eval(&self, term: &dyn Fn(usize) -> bool) -> bool {
        match self {
            Expr::Term(j) => term(*j),
            Expr::Not(inner) => !inner.eval(term),
            Expr::All(all) => all.iter().all(|e| e.eval(term)),
            Expr::Any(any) => any.iter().any(|e| e.eval(term)),
        }
    }

    /// The expression over sets: `term(j)` is the set (bits) where term j holds, `every`
    /// the set of all; `&` is intersection, `|` union, `!` the complement in `every`.
    pub fn eval_bits(&self, term: &dyn Fn(usize) -> u64, every: u64) -> u64 {
        match self {
            Expr::Term(j) => term(*j) & every,
            Expr::Not(inner) => !inner.eval_bits(term, every) & every,
            Expr::All(all) => all
                .iter()
                .fold(every, |set, e| set & e.eval_bits(term, every)),
            Expr::Any(any) => any.iter().fold(0, |set, e| set | e.eval_bits(term, every)),
        }
    }
}

/// A parsed query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Query {
    pub terms: Vec<Term>,
    pub expr: Expr,
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
    let mut parser = Parser {
        input,
        pos: 0,
        terms: Vec::new(),
        depth: 0,
    };
    let expr = parser.any()?;
    parser.skip_blanks();
    if let Some(c) = parser.peek() {
        let message = if c == ')' {
            "')' closes no '('".to_string()
        } else {
            format!("expected '&', '|' or the end of the query, found '{c}'")
        };
        return Err(QueryError::new(message, parser.pos, c.len_utf8()));
    }
    Ok(Query {
        terms: parser.terms,
        expr,
    })
}

/// Characters that end a name.
fn ends_name(c: char) -> bool {
    matches!(c, '|' | '<' | '>' | '=' | '≥' | '≤')
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
    terms: Vec<Term>,
    depth: usize,
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

    /// `all ('|' all)*`
    fn any(&mut self) -> Result<Expr, QueryError> {
        self.joined('|', Parser::all, Expr::Any)
    }

    /// `unary ('&' unary)*`
    fn all(&mut self) -> Result<Expr, QueryError> {
        self.joined('&', Parser::unary, Expr::All)
    }

    /// `operand (separator operand)*`: the one operand, or `group` of them all.
    fn joined(
        &mut self,
        separator: char,
        operand: fn(&mut Self) -> Result<Expr, QueryError>,
        group: fn(Vec<Expr>) -> Expr,
    ) -> Result<Expr, QueryError> {
        let mut operands = vec![operand(self)?];
        loop {
            self.skip_blanks();
            if self.peek() != Some(separator) {
                break;
            }
            self.pos += 1;
            operands.push(operand(self)?);
        }
        Ok(if operands.len() == 1 {
            operands.remove(0)
        } else {
            group(operands)
        })
    }

    /// `'!' unary | '(' any ')' | term`
    fn unary(&mut self) -> Result<Expr, QueryError> {
        self.skip_blanks();
        let at = self.pos;
        match self.peek() {
            Some(c @ ('!' | '(')) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    let message = format!("a query nests '(' and '!' at most {MAX_DEPTH} deep");
                    return Err(QueryError::new(message, at, 1));
                }
                self.pos += 1;
                let expr = if c == '!' {
                    Expr::Not(Box::new(self.unary()?))
                } else {
                    let first_term = self.terms.len();
                    let inner = self.any()?;
                    self.skip_blanks();
                    if self.peek() != Some(')') {
                        let found = self.peek().map_or(0, char::len_utf8);
                        return Err(match self.peek() {
                            None => QueryError::new("expected ')' to close this '('", at, 1),
                            Some(c) => {
                                let message = format!("expected '&', '|' or ')', found '{c}'");
                                QueryError::new(message, self.pos, found)
                            }
                        });
                    }
                    self.pos += 1;
                    // `(A>=1 | B>=1) by T2`: the turn of every term inside without its own.
                    if let Some(turn) = self.turn()? {
                        for term in self.terms.get_mut(first_term..).unwrap_or(&mut []) {
                            term.turn.get_or_insert(turn);
                        }
                    }
                    inner
                };
                self.depth -= 1;
                Ok(expr)
            }
            _ => self.term(),
        }
    }

    fn term(&mut self) -> Result<Expr, QueryError> {
        if self.terms.len() == MAX_TERMS {
            let message = format!("a query has at most {MAX_TERMS} terms");
            return Err(QueryError::new(message, self.pos, 0));
        }
        let start = self.pos;
        let mut names: Vec<NameRef> = Vec::new();
        loop {
            let name = self.name(names.last())?;
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
        // A name with nothing after it is asked to be seen at all: `Rare Candy` is
        // `Rare Candy>=1`, as a player types it.
        let (cmp, count) = if self.peek().is_none() {
            (Cmp::Ge, 1)
        } else {
            let cmp = self.cmp();
            (cmp, self.count(cmp)?)
        };
        let turn = self.turn()?;
        let offset = names.first().map_or(start, |n| n.span.offset);
        let span = Span::new(offset, self.pos - offset);
        self.terms.push(Term {
            names,
            cmp,
            count,
            turn,
            span,
        });
        Ok(Expr::Term(self.terms.len() - 1))
    }

    /// A name up to `|`, a comparison or the end, trimmed; `previous` is the name before a
    /// `|`, for the error message.
    fn name(&mut self, previous: Option<&NameRef>) -> Result<NameRef, QueryError> {
        let input = self.input;
        let rest = input.get(self.pos..).unwrap_or("");
        let len = rest.find(ends_name).unwrap_or(rest.len());
        let raw = rest.get(..len).unwrap_or("");
        let text = raw.trim();
        let offset = self.pos + (raw.len() - raw.trim_start().len());
        let at = self.pos;
        self.pos += len;
        if text.is_empty() {
            let before = input.get(..at).unwrap_or("").trim_end();
            let message = match (previous, before.chars().last()) {
                (Some(p), _) => format!("expected a card name after '{}|'", p.text),
                (None, Some(c @ ('&' | '|' | '!' | '('))) => {
                    format!("expected a card name after '{c}'")
                }
                (None, _) => "expected a card name".to_string(),
            };
            return Err(QueryError::new(message, at, len));
        }
        let span = Span::new(offset, text.len());
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

    /// Digits at the cursor, at most `max`; `what` names the number for errors.
    fn number(&mut self, max: u32, what: &str, expected: &str) -> Result<u32, QueryError> {
        self.skip_blanks();
        let rest = self.rest();
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let text = rest.get(..digits).unwrap_or("");
        if text.is_empty() {
            let found = rest.chars().next().map_or(0, char::len_utf8);
            return Err(QueryError::new(expected, self.pos, found));
        }
        let number = text.parse::<u32>().ok().filter(|n| *n <= max);
        let Some(number) = number else {
            let message = format!("the {what} {text} is too large (at most {max})");
            return Err(QueryError::new(message, self.pos, digits));
        };
        self.pos += digits;
        Ok(number)
    }

    fn count(&mut self, cmp: Cmp) -> Result<u32, QueryError> {
        let expected = format!("expected a count after '{}', such as 1", cmp.as_str());
        self.number(MAX_COUNT, "count", &expected)
    }

    /// ` by T2`, ` by turn 2`, or nothing.
    fn turn(&mut self) -> Result<Option<u32>, QueryError> {
        let before = self.pos;
        self.skip_blanks();
        let rest = self.rest();
        let word = rest.get(..2).filter(|w| w.eq_ignore_ascii_case("by"));
        let after = rest.get(2..).unwrap_or("");
        if word.is_none() || !after.starts_with(char::is_whitespace) {
            self.pos = before;
            return Ok(None);
        }
        let at = self.pos;
        self.pos += 2;
        self.skip_blanks();
        let rest = self.rest();
        let skip = if rest
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case("turn"))
        {
            4
        } else if rest.starts_with(['T', 't']) {
            1
        } else {
            0
        };
        self.pos += skip;
        let turn = self.number(MAX_TURN, "turn", "expected a turn after 'by', such as T2")?;
        if turn == 0 {
            let message = "turns count from 1: 'by T1' is the start of your first turn";
            return Err(QueryError::new(message, at, self.pos - at));
        }
        Ok(Some(turn))
    }
}

/// A term over card kinds (indices into a [`DeckShape`]), each kind counted once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedTerm {
    pub kinds: Vec<usize>,
    pub cmp: Cmp,
    pub count: u32,
    pub turn: Option<u32>,
}

/// A query whose names the caller has turned into card kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedQuery {
    pub terms: Vec<ResolvedTerm>,
    pub expr: Expr,
}

impl Query {
    /// Turns each name into a kind with `kind_of`; the first failure is returned as is.
    /// A kind named twice in one group (two languages, say) counts once.
    pub fn resolve<E>(
        &self,
        mut kind_of: impl FnMut(&NameRef) -> Result<usize, E>,
    ) -> Result<ResolvedQuery, E> {
        self.resolve_groups(|name| kind_of(name).map(|kind| vec![kind]))
    }

    /// [`Query::resolve`] where a name may stand for several kinds (`Basic Pokémon`).
    pub fn resolve_groups<E>(
        &self,
        mut kinds_of: impl FnMut(&NameRef) -> Result<Vec<usize>, E>,
    ) -> Result<ResolvedQuery, E> {
        let mut terms = Vec::with_capacity(self.terms.len());
        for term in &self.terms {
            let mut kinds = Vec::new();
            for name in &term.names {
                kinds.extend(kinds_of(name)?);
            }
            kinds.sort_unstable();
            kinds.dedup();
            terms.push(ResolvedTerm {
                kinds,
                cmp: term.cmp,
                count: term.count,
                turn: term.turn,
            });
        }
        Ok(ResolvedQuery {
            terms,
            expr: self.expr.clone(),
        })
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

/// Exact odds of a query with turns: one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventOdds {
    pub kept: Ratio,
    pub single_shuffle: Ratio,
}

impl ResolvedQuery {
    /// The query with the cards of `searcher` counted by every term that asks for one of
    /// `targets` (the search always finds its target: `--count-as "Nest Ball=Basic
    /// Pokémon"` counted optimistically); `None` when no term asks for a target.
    pub fn counting(&self, searcher: usize, targets: &[usize]) -> Option<ResolvedQuery> {
        let mut counted = self.clone();
        let mut changed = false;
        for term in &mut counted.terms {
            let asks = term.kinds.iter().any(|kind| targets.contains(kind));
            if asks && !term.kinds.contains(&searcher) {
                term.kinds.push(searcher);
                term.kinds.sort_unstable();
                changed = true;
            }
        }
        changed.then_some(counted)
    }

    /// Whether any term names a turn: the query is then one event ([`ResolvedQuery::event`]).
    pub fn has_turns(&self) -> bool {
        self.terms.iter().any(|term| term.turn.is_some())
    }

    /// The latest turn a term names.
    pub fn last_turn(&self) -> Option<u32> {
        self.terms.iter().filter_map(|term| term.turn).max()
    }

    /// Whether the query holds when term j sees `count_of(j)` cards of its kinds (the
    /// caller counts each term in its window).
    pub fn holds_with(&self, count_of: impl Fn(usize, &ResolvedTerm) -> u32) -> bool {
        self.expr.eval(&|j| {
            self.terms
                .get(j)
                .is_some_and(|term| term.cmp.holds(count_of(j, term), term.count))
        })
    }

    /// Whether the query holds when every term counts the same cards (`count_of(kind)`).
    pub fn holds(&self, count_of: impl Fn(usize) -> u32) -> bool {
        self.holds_with(|_, term| term.kinds.iter().map(|&k| count_of(k)).sum())
    }

    /// Per kind of a deck of `kinds` kinds: bit j set when term j counts it.
    pub fn kind_masks(&self, kinds: usize) -> Result<Vec<u32>, StatsError> {
        let mut masks = vec![0u32; kinds];
        for (bit, term) in self.terms.iter().enumerate() {
            for &index in &term.kinds {
                let mask = masks
                    .get_mut(index)
                    .ok_or(StatsError::UnknownKind { index })?;
                *mask |= 1u32
                    .checked_shl(bit as u32)
                    .ok_or(StatsError::TooManyTerms { max: 32 })?;
            }
        }
        Ok(masks)
    }

    /// Per term: counts at or above this compare like this value (what a count needs to
    /// keep while it grows).
    pub fn caps(&self) -> Vec<u32> {
        self.terms
            .iter()
            .map(|t| t.count.saturating_add(1))
            .collect()
    }

    /// Whether term j holds for `have` cards.
    pub fn term_holds(&self, j: usize, have: u32) -> bool {
        let term = self.terms.get(j);
        term.is_some_and(|t| t.cmp.holds(have, t.count))
    }

    /// Whether the query holds, given bit j set exactly when term j holds.
    pub fn truth(&self, bits: u32) -> bool {
        self.expr.eval(&|j| bits >> j & 1 == 1)
    }

    /// The deck split by which terms a kind belongs to (and whether it is Basic), so the
    /// enumeration runs over a handful of atoms however many kinds the deck has.
    fn space(&self, shape: &DeckShape, rules: &Setup) -> Result<(Space, Vec<u32>), StatsError> {
        let masks = self.kind_masks(shape.kinds.len())?;
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

    /// The question for [`Space::sweep`] and [`Space::sweep_prizes`], with `closes` saying
    /// where each term's window ends and `reads` after which draws to read the answer.
    fn swept(
        &self,
        space: &Space,
        masks: &[u32],
        closes: &[Option<u32>],
        reads: Option<&[u32]>,
    ) -> Result<Vec<(Ratio, Ratio)>, StatsError> {
        let caps = self.caps();
        let holds = |j: usize, have: u32| self.term_holds(j, have);
        let truth = |bits: u32| self.truth(bits);
        let sweep = Sweep {
            masks,
            caps: &caps,
            closes,
            holds: &holds,
            truth: &truth,
            reads: reads.unwrap_or(&[]),
        };
        match reads {
            Some(_) => space.sweep(&sweep),
            None => Ok(vec![space.sweep_prizes(&sweep)?]),
        }
    }

    /// Exact odds in every window and both families, every term looking at that window
    /// (a query without turns). The hand and every turn come from one sweep, the prizes
    /// from another.
    pub fn odds(
        &self,
        shape: &DeckShape,
        rules: &Setup,
        turns: u32,
        going: Going,
    ) -> Result<QueryOdds, StatsError> {
        let (space, masks) = self.space(shape, rules)?;
        let draws: Vec<u32> = (1..=turns).map(|t| rules.draws_by_turn(t, going)).collect();
        let mut reads: Vec<u32> = draws.iter().copied().chain([0]).collect();
        reads.sort_unstable();
        reads.dedup();
        let closes = vec![None; self.terms.len()];
        let values = self.swept(&space, &masks, &closes, Some(&reads))?;
        let at = |d: u32| {
            let i = reads.binary_search(&d).unwrap_or(0);
            values.get(i).copied().ok_or(StatsError::TooLarge)
        };
        let by_turn = draws
            .iter()
            .map(|d| at(*d))
            .collect::<Result<Vec<_>, _>>()?;
        let hand = at(0)?;
        let prizes = self.swept(&space, &masks, &closes, None)?;
        let prizes = prizes.first().copied().ok_or(StatsError::TooLarge)?;
        Ok(QueryOdds {
            hand: hand.0,
            hand_single_shuffle: hand.1,
            prizes: prizes.0,
            prizes_single_shuffle: prizes.1,
            by_turn: by_turn.iter().map(|r| r.0).collect(),
            by_turn_single_shuffle: by_turn.iter().map(|r| r.1).collect(),
        })
    }

    /// P(the query holds) with term j counting the cards of `windows[j]`, by the dynamic
    /// programme over atoms the sweep replaced: the oracle of the tests.
    #[cfg(test)]
    fn probability(
        &self,
        space: &Space,
        masks: &[u32],
        windows: &[Window],
        family: Family,
    ) -> Result<Ratio, StatsError> {
        let caps = self.caps();
        let holds = |j: usize, have: u32| self.term_holds(j, have);
        let truth = |bits: u32| self.truth(bits);
        let event = super::exact::joint::Event {
            masks,
            caps: &caps,
            windows,
            holds: &holds,
            truth: &truth,
        };
        space.probability_of(family, &event)
    }

    /// Exact odds window by window, each its own dynamic programme over atoms: the oracle
    /// of [`Self::odds`] in the tests.
    #[cfg(test)]
    pub fn odds_by_window(
        &self,
        shape: &DeckShape,
        rules: &Setup,
        turns: u32,
        going: Going,
    ) -> Result<QueryOdds, StatsError> {
        let (space, masks) = self.space(shape, rules)?;
        let all = |window: Window| vec![window; self.terms.len()];
        let p = |window: Window, family| self.probability(&space, &masks, &all(window), family);
        use Family::{Kept, SingleShuffle as One};
        let curve = |family| -> Result<Vec<Ratio>, StatsError> {
            (1..=turns)
                .map(|t| {
                    let draws = rules.draws_by_turn(t, going);
                    p(Window::Seen { draws }, family)
                })
                .collect()
        };
        Ok(QueryOdds {
            hand: p(Window::Hand, Kept)?,
            hand_single_shuffle: p(Window::Hand, One)?,
            prizes: p(Window::Prizes, Kept)?,
            prizes_single_shuffle: p(Window::Prizes, One)?,
            by_turn: curve(Kept)?,
            by_turn_single_shuffle: curve(One)?,
        })
    }

    /// The window each term counts: the cards seen by its turn, else the opening hand.
    pub fn windows(&self, rules: &Setup, going: Going) -> Vec<Window> {
        self.terms
            .iter()
            .map(|term| match term.turn {
                Some(turn) => Window::Seen {
                    draws: rules.draws_by_turn(turn, going),
                },
                None => Window::Hand,
            })
            .collect()
    }

    /// Exact odds of a query with turns, each term in its own window: one sweep.
    pub fn event(
        &self,
        shape: &DeckShape,
        rules: &Setup,
        going: Going,
    ) -> Result<EventOdds, StatsError> {
        let (space, masks) = self.space(shape, rules)?;
        let closes: Vec<Option<u32>> = self
            .windows(rules, going)
            .iter()
            .map(|window| match window {
                Window::Seen { draws } => Some(*draws),
                Window::Hand | Window::Prizes => Some(0),
            })
            .collect();
        let last = closes.iter().flatten().copied().max().unwrap_or(0);
        let values = self.swept(&space, &masks, &closes, Some(&[last]))?;
        let (kept, single_shuffle) = values.first().copied().ok_or(StatsError::TooLarge)?;
        Ok(EventOdds {
            kept,
            single_shuffle,
        })
    }

    /// [`Self::event`] by the dynamic programme over atoms and segments: its oracle in the
    /// tests.
    #[cfg(test)]
    pub fn event_by_windows(
        &self,
        shape: &DeckShape,
        rules: &Setup,
        going: Going,
    ) -> Result<EventOdds, StatsError> {
        let (space, masks) = self.space(shape, rules)?;
        let windows = self.windows(rules, going);
        Ok(EventOdds {
            kept: self.probability(&space, &masks, &windows, Family::Kept)?,
            single_shuffle: self.probability(&space, &masks, &windows, Family::SingleShuffle)?,
        })
    }
}

#[cfg(test)]
mod oracle;

#[cfg(test)]
mod tests {
    use super::*;

    /// A query in a compact form: `[names] cmp count` per term, `&`, `|`, `!` and
    /// parentheses around a group inside another.
    fn show(input: &str) -> String {
        match parse(input) {
            Ok(query) => expr(&query, &query.expr),
            Err(err) => format!("error: {err}"),
        }
    }

    fn expr(query: &Query, e: &Expr) -> String {
        let inner = |e: &Expr| match e {
            Expr::Term(_) | Expr::Not(_) => expr(query, e),
            _ => format!("({})", expr(query, e)),
        };
        match e {
            Expr::Term(j) => {
                let t = &query.terms[*j];
                let names: Vec<&str> = t.names.iter().map(|n| n.text.as_str()).collect();
                let turn = t.turn.map(|n| format!(" by T{n}")).unwrap_or_default();
                format!(
                    "[{}] {} {}{turn}",
                    names.join(" | "),
                    t.cmp.as_str(),
                    t.count
                )
            }
            Expr::Not(e) => format!("!{}", inner(e)),
            Expr::All(all) => all.iter().map(inner).collect::<Vec<_>>().join(" & "),
            Expr::Any(any) => any.iter().map(inner).collect::<Vec<_>>().join(" | "),
        }
    }

    #[test]
    fn parse_table() {
        let table = [
            ("Rare Candy>=1", "[Rare Candy] >= 1"),
            // A bare name at the end asks for at least one (issue 50).
            ("Rare Candy", "[Rare Candy] >= 1"),
            (
                "Rare Candy>=1 & Dreepy",
                "[Rare Candy] >= 1 & [Dreepy] >= 1",
            ),
            ("Nest Ball|Poffin", "[Nest Ball | Poffin] >= 1"),
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
            ("A>=1 | B>=1", "[A] >= 1 | [B] >= 1"),
            ("A|B>=1 | C>=1", "[A | B] >= 1 | [C] >= 1"),
            ("A>=1 & B>=1 | C>=1", "([A] >= 1 & [B] >= 1) | [C] >= 1"),
            ("A>=1 & (B>=1 | C>=1)", "[A] >= 1 & ([B] >= 1 | [C] >= 1)"),
            ("!A>=1", "![A] >= 1"),
            ("!(A>=1 & B>=1)", "!([A] >= 1 & [B] >= 1)"),
            ("!!A>=1", "!![A] >= 1"),
            ("Rare Candy>=1 by T2", "[Rare Candy] >= 1 by T2"),
            ("Rare Candy >= 1 BY turn 3", "[Rare Candy] >= 1 by T3"),
            (
                "Dreepy>=1 by T1 & Rare Candy>=1 by t2",
                "[Dreepy] >= 1 by T1 & [Rare Candy] >= 1 by T2",
            ),
            ("Challenge!>=1", "[Challenge!] >= 1"),
            (
                "A>=1 & (B>=1 | C>=1 by T3) by T2",
                "[A] >= 1 & ([B] >= 1 by T2 | [C] >= 1 by T3)",
            ),
            (
                "(Boss's Orders (Giovanni)>=1 | Iono>=1)",
                "[Boss's Orders (Giovanni)] >= 1 | [Iono] >= 1",
            ),
            (
                "Nest Ball>=1 byT2",
                "error: expected '&', '|' or the end of the query, found 'b'",
            ),
        ];
        for (input, want) in table {
            assert_eq!(show(input), want, "{input}");
        }
    }

    #[test]
    fn spans_are_bytes_of_the_input() {
        let input = "  Pokégear 3.0 | Dreepy >= 1";
        let query = parse(input).unwrap();
        let clause = &query.terms[0];
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
        error: expected '&', '|' or the end of the query, found 'D'
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
    fn errors_of_the_boolean_language() {
        insta::assert_snapshot!(error("(A>=1 | B>=1"), @r"
        error: expected ')' to close this '('
          (A>=1 | B>=1
          ^
        ");
        insta::assert_snapshot!(error("(A>=1 B>=1)"), @r"
        error: expected '&', '|' or ')', found 'B'
          (A>=1 B>=1)
                ^
        ");
        insta::assert_snapshot!(error("A>=1)"), @r"
        error: ')' closes no '('
          A>=1)
              ^
        ");
        insta::assert_snapshot!(error("A>=1 & !"), @r"
        error: expected a card name after '!'
          A>=1 & !
                  ^
        ");
        insta::assert_snapshot!(error("A>=1 by T"), @r"
        error: expected a turn after 'by', such as T2
          A>=1 by T
                   ^
        ");
        insta::assert_snapshot!(error("A>=1 by T0"), @r"
        error: turns count from 1: 'by T1' is the start of your first turn
          A>=1 by T0
               ^^^^^
        ");
        insta::assert_snapshot!(error("A>=1 by T31"), @r"
        error: the turn 31 is too large (at most 30)
          A>=1 by T31
                   ^^
        ");
        insta::assert_snapshot!(error("A>=1 | | B>=1"), @r"
        error: expected a card name after '|'
          A>=1 | | B>=1
                 ^
        ");
    }

    #[test]
    fn input_is_bounded() {
        let long = "A".repeat(MAX_QUERY_BYTES + 1);
        assert_eq!(show(&long), "error: the query is longer than 1000 bytes");
        let many = ["A>=1"; MAX_TERMS + 1].join("|");
        assert_eq!(show(&many), "error: a query has at most 8 terms");
        let deep = format!(
            "{}A>=1{}",
            "(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(
            show(&deep),
            "error: a query nests '(' and '!' at most 32 deep"
        );
        let nots = format!("{}A>=1", "!".repeat(900));
        assert!(show(&nots).starts_with("error: "));
        let names = ["A"; MAX_NAMES + 1].join("|") + ">=1";
        assert_eq!(show(&names), "error: a '|' group has at most 16 names");
        assert!(parse(&["A>=1"; MAX_TERMS].join("&")).is_ok());
    }

    #[test]
    fn resolve_counts_a_kind_once_per_group_and_holds_checks_the_expression() {
        let query = parse("Boss's Orders|Ordres du Boss>=2 & Dreepy>=1").unwrap();
        let resolved = query
            .resolve(|n| Ok::<_, ()>(usize::from(n.text == "Dreepy")))
            .unwrap();
        assert_eq!(resolved.terms[0].kinds, vec![0]);
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
