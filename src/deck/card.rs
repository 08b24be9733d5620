//! Splitting a card line into count, name, set code, collector number and `PH` marker.
//!
//! Works on one trimmed line and returns byte ranges relative to it. It must not judge the
//! count (the caller turns bad counts into issues) nor know any card: a code is recognized
//! by its shape alone, and the card database normalizes it later.
//!
//! Decisions:
//! - Counts: `4`, `4x`, `4X`, `4×`, `4 x`, `x4`, after an optional `*`, `-` or `•` bullet
//!   followed by a blank (`* 4 Name` is the PTCGO layout). `-4` is a negative count.
//! - A trailing ` # ...` or ` // ...` (a blank before the marker) is a comment, except `#`
//!   and a digit: the only card names with `#` are `Blaine's Quiz #1` to `#3`.
//! - Set code and number are taken from the end: `<CODE> <NUMBER> [PH]`, where CODE has
//!   the shape of a set code (see [`is_code`]) and NUMBER that of a collector number.
//! - A number without a code (`Basic {W} Energy  3`, `Lugia V 138`) is taken only when it
//!   cannot belong to the name: a plain 1–3 digit number after a column gap of two blanks,
//!   after a word ending in `Energy`, or after a name suffix (`V`, `ex`, `GX`, `VSTAR`...).
//!   Otherwise it stays in the name (`Iono 185`), where a lookup failure will show it.
//!   A number with the set's printed total (`Gimmighoul 088/182`) is always a number.
//! - A count written last may follow a dash set apart from the name, as lists typed by
//!   hand write it (`Bola de Ninho - X4`, `Balão de Ar -x3`, `Genesect ex 067/086 - X 2`).
//! - Other tools' spellings of a printing, all taken from the end: a code in parentheses
//!   (`Ultra Ball (SVI) 196`), a database card id
//!   (`xy1-12`, `sv3pt5-151`: set id, `-`, number), a code glued to its number (`SWSH161`,
//!   `PAL185`: a number without a code), and a one-letter number after a code (Unseen
//!   Forces' `Unown UF !`; the Limitless deck builder's basic-Energy type letter,
//!   `Fire Energy SVE R`).
//! - Promo words name a Black Star promo ([`promo_named`]): `Promo` by the name, before or
//!   after it, or in its note, names a promo of any series; a series word before it names
//!   that series' promos (`SWSH Promo Zacian V`, `Jirachi Nintendo Promo`); `MP` and
//!   `Movie` before the name name Wizards' Black Star promos (`4 Movie Mewtwo` is Wizards
//!   promo 3, not the newest Mewtwo promo).

use std::sync::LazyLock;

use regex::Regex;

use super::lines::{is_blank, last_tokens, trim};

/// A byte range relative to the line being split.
pub(crate) type Range = (usize, usize);

/// The count at the start of a line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Count<'a> {
    /// The count as written, bullet and `x` included.
    pub span: Range,
    /// The digits alone.
    pub digits: &'a str,
    pub negative: bool,
    /// Where the rest of the line (after blanks) starts; `None` when nothing follows.
    pub rest: Option<usize>,
}

/// The parts of a card line after its count.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    pub name: Range,
    pub set: Option<Range>,
    pub number: Option<Range>,
    pub ph: bool,
    /// Whether the printing is set apart from the name as deck sites write it: in brackets
    /// (`Iono [PAL 185]`), after a dash (`Switch - MEG 130`) or before the name (`TWM 128
    /// Dreepy`). Only such a line may leave its count out.
    pub marked: bool,
    /// A note in brackets after a count written after the name (`Leafeon x2 (Leaf Guard
    /// One)`), brackets included: the line's comment, so `fmt` keeps it.
    pub note: Option<Range>,
}

/// Reads the count at the start of `s`, or `None` when `s` does not start with one.
pub(crate) fn split_count(s: &str) -> Option<Count<'_>> {
    let start = bullet_len(s);
    let body = s.get(start..)?;
    let (negative, x_prefix, skip) = if body.starts_with('-') {
        (true, false, 1)
    } else if let Some(x) = multiplier_len(body) {
        (false, true, x)
    } else {
        (false, false, 0)
    };
    let digits_start = start + skip;
    let digits_len = s
        .get(digits_start..)?
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits_len == 0 {
        return None;
    }
    let digits_end = digits_start + digits_len;
    let end = if x_prefix {
        digits_end
    } else {
        digits_end + suffix_len(s.get(digits_end..)?)
    };
    let after = s.get(end..)?;
    if !after.is_empty() && !after.starts_with(is_blank) {
        return None;
    }
    let (lead, rest) = trim(after);
    Some(Count {
        span: (0, end),
        digits: s.get(digits_start..digits_end)?,
        negative,
        rest: (!rest.is_empty()).then_some(end + lead),
    })
}

/// A count written after the name, as chat posts and some sites write it: `Dreepy x4`,
/// `Dreepy TWM 128 ×4`, `- Iono x2 // tech`. Returns the count (its `rest` is where the
/// name starts) and the parts of what comes between.
pub(crate) fn split_trailing_count(s: &str) -> Option<(Count<'_>, (usize, Parts))> {
    let at = bullet_len(s);
    let body = s.get(at..)?;
    let body = body.get(..comment_start(body))?.trim_end_matches(is_blank);
    // Brackets after the count, as PokéGym reports of 2008 write a line: a set code
    // (`Treecko x3 (GE)`), the printing's, or a note (`Leafeon x2 (Leaf Guard One)`), left
    // out of the name. The count is the word before them.
    let brackets = body
        .ends_with(')')
        .then(|| body.rfind(" (").map(|at| at + 1))
        .flatten();
    let counted = brackets.map_or(body, |at| body.get(..at).unwrap_or(body).trim_end());
    let (start, end, digits) = trailing_multiplier(counted)?;
    let code = brackets.and_then(|open| {
        let (from, to) = bracketed_code(body.get(open..)?)?;
        Some((open + from, open + to))
    });
    let before = separator_removed(body.get(..start)?.trim_end_matches(is_blank));
    if before.is_empty() || starts_numeric(before) {
        return None;
    }
    let count = Count {
        span: (at + start, at + end),
        digits,
        negative: false,
        rest: Some(at),
    };
    let mut parts = split_card(before);
    match (code, brackets) {
        (Some(code), _) => {
            if parts.set.is_some() {
                return None;
            }
            parts.set = Some(code);
        }
        (None, Some(open)) => parts.note = Some((open, body.len())),
        (None, None) => {}
    }
    Some((count, (at, parts)))
}

/// The count written last in `counted`, as `(start, end, digits)`: `x4`, and the forms of
/// a list typed by hand with a dash between name and count, the dash glued to it (`Balão
/// de Ar -x3`) or the `x` apart from the digits (`Genesect ex 067/086  -  X 2`, only after
/// such a dash: `Leafeon Lv. X 2` is no count written last).
fn trailing_multiplier(counted: &str) -> Option<(usize, usize, &str)> {
    let toks = last_tokens(counted, 3);
    let &(start, end) = toks.first()?;
    let token = counted.get(start..end)?;
    let glued = token
        .strip_prefix(['-', '–', '—'])
        .filter(|rest| multiplier_len(rest).is_some());
    let (x_start, counted_token) = match glued {
        Some(rest) => (start, rest),
        None => (start, token),
    };
    if let Some(x) = multiplier_len(counted_token) {
        let digits = counted_token.get(x..)?;
        return digits
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then_some((x_start, end, digits));
    }
    let (&(x_at, x_end), &(dash_at, dash_end)) = (toks.get(1)?, toks.get(2)?);
    let spaced = token.bytes().all(|b| b.is_ascii_digit())
        && matches!(counted.get(x_at..x_end)?, "x" | "X" | "×")
        && matches!(counted.get(dash_at..dash_end)?, "-" | "–" | "—");
    spaced.then_some((x_at, end, token))
}

/// `name` without a trailing dash set apart by a blank (`Bola de Ninho -`), the separator a
/// hand-typed list puts before a count written last (`Bola de Ninho - X4`), as
/// [`without_dash`] drops the one before a code. No card name ends in a dash.
fn separator_removed(name: &str) -> &str {
    let (_, end) = without_dash(name, (0, name.len()));
    name.get(..end).unwrap_or(name)
}

/// Where the code sits in a word that is a set code in brackets (`(GE)`, `(MD)`): two to
/// four capital letters or digits, at least one a letter. A word in brackets such as
/// `(CFF)` that is no code is still read as one: the name decides (`unknown-printing`).
fn bracketed_code(word: &str) -> Option<(usize, usize)> {
    let inner = word.strip_prefix('(')?.strip_suffix(')')?;
    let code = (2..=4).contains(&inner.len())
        && inner
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && inner.bytes().any(|b| b.is_ascii_uppercase());
    code.then_some((1, 1 + inner.len()))
}

/// A card line written without a count but with its printing set apart as deck sites
/// write it ([`Parts::marked`]: `Iono [PAL 185]`, `Switch - MEG 130`, `TWM 128 Dreepy`):
/// one copy. `Iono PAL 185` alone is not enough: it is a Pokémon TCG Live line that lost
/// its count. The count's span is empty,
/// where the name starts. A number that looks like a year (`NAIC 2024`) is not a printing,
/// so a title line such as `Top 8 NAIC 2024` stays text.
pub(crate) fn implied_count(s: &str) -> Option<(Count<'_>, (usize, Parts))> {
    let at = bullet_len(s);
    let parts = split_card(s.get(at..)?);
    let number = s.get(at + parts.number?.0..at + parts.number?.1)?;
    let year = number.len() == 4 && (number.starts_with("19") || number.starts_with("20"));
    let name = s.get(at + parts.name.0..at + parts.name.1)?;
    if !parts.marked || parts.set.is_none() || name.is_empty() || year || starts_numeric(name) {
        return None;
    }
    let count = Count {
        span: (at, at),
        digits: "1",
        negative: false,
        rest: Some(at),
    };
    Some((count, (at, parts)))
}

/// Whether `s` starts with a digit of any script (`4Iono`, `４ Iono`): a count written
/// wrong, which must stay a finding rather than become part of a name.
fn starts_numeric(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_numeric)
}

/// Length of a leading `*`, `-` or `•` bullet and the blanks after it (0 if none).
fn bullet_len(s: &str) -> usize {
    let Some(c) = s.chars().next().filter(|c| matches!(c, '*' | '-' | '•')) else {
        return 0;
    };
    let (lead, _) = trim(s.get(c.len_utf8()..).unwrap_or_default());
    if lead == 0 { 0 } else { c.len_utf8() + lead }
}

/// Length of an `x`, `X` or `×` that is immediately followed by a digit (`x4`).
fn multiplier_len(s: &str) -> Option<usize> {
    let c = s.chars().next().filter(|c| matches!(c, 'x' | 'X' | '×'))?;
    let next = s.get(c.len_utf8()..)?.bytes().next()?;
    next.is_ascii_digit().then_some(c.len_utf8())
}

/// Whether a name written after a count would be read as that count's `x`: `4 x Ultra
/// Ball` is four `Ultra Ball`, so a card named `x Ultra Ball` must be written `4x x Ultra
/// Ball`.
pub(crate) fn reads_as_multiplier(name: &str) -> bool {
    suffix_len(name) > 0
}

/// Length of the `x` after the digits, in `4x` or `4 x`, when it stands alone; or of a dash
/// set apart by blanks, the separator a list typed by hand puts between count and name
/// (`4 – Igglybuff HL`, `9 – Psychic`: pojo.com's report of the 2004 World Championships'
/// grinder, `tests/corpus/lists/pojo/2004-08-20-worlds-grinder-wigglytuff.txt`). No card
/// name starts with a dash.
fn suffix_len(s: &str) -> usize {
    let rest = s.trim_start_matches(is_blank);
    let lead = s.len() - rest.len();
    let Some(c) = (rest.chars().next())
        .filter(|c| matches!(c, 'x' | 'X' | '×') || (lead > 0 && matches!(c, '-' | '–' | '—')))
    else {
        return 0;
    };
    let after = rest.get(c.len_utf8()..).unwrap_or_default();
    if after.is_empty() || after.starts_with(is_blank) {
        lead + c.len_utf8()
    } else {
        0
    }
}

/// Splits what follows the count into name, set code, number and `PH`.
pub(crate) fn split_card(rest: &str) -> Parts {
    let mut parts = split_printing(rest);
    if parts.set.is_some() {
        parts.name = without_from(rest, parts.name);
    }
    parts
}

/// A name range without the word `from` that joined it to its printing, as some deck
/// sites write a card: `2x Zoroark-GX from SLG 53/73`, `Ultra Ball (Ultra) from SLG 68`.
/// No card name ends in `from`.
fn without_from(body: &str, (start, end): Range) -> Range {
    let name = body.get(start..end).unwrap_or_default();
    let cut = name.len().saturating_sub(4);
    let (Some(head), Some(word)) = (name.get(..cut), name.get(cut..)) else {
        return (start, end);
    };
    let head = head.trim_end_matches(is_blank);
    if word.eq_ignore_ascii_case("from") && head.len() < cut && !head.is_empty() {
        (start, start + head.len())
    } else {
        (start, end)
    }
}

/// [`split_card`] before the word `from` is set aside.
fn split_printing(rest: &str) -> Parts {
    let body = rest.get(..comment_start(rest)).unwrap_or(rest);
    let body = body.trim_end_matches(is_blank);
    let toks = last_tokens(body, 4);
    let tok = |i: usize| toks.get(i).and_then(|&(a, b)| body.get(a..b));
    let name = |end_tok: usize| {
        let end = toks.get(end_tok).map_or(0, |&(a, _)| a);
        (
            0,
            body.get(..end)
                .map_or(0, |s| s.trim_end_matches(is_blank).len()),
        )
    };
    let ph = tok(0) == Some("PH") && coded(body, &toks, 1);
    let at = usize::from(ph);
    if coded(body, &toks, at) {
        let written = name(at + 1);
        let name = without_dash(body, written);
        return Parts {
            name,
            set: toks.get(at + 1).map(|&range| unparenthesized(body, range)),
            number: toks.get(at).copied(),
            ph,
            marked: name != written,
            note: None,
        };
    }
    if let Some(parts) = bracketed(body).or_else(|| code_first(body)) {
        return parts;
    }
    if let Some(&(start, end)) = toks.first()
        && toks.len() > 1
        && let Some(dash) = body.get(start..end).and_then(database_id)
    {
        return Parts {
            name: name(0),
            set: Some((start, start + dash)),
            number: Some((start + dash + 1, end)),
            ph: false,
            marked: false,
            note: None,
        };
    }
    if bare_number(body, &toks) || glued_number(body, &toks) || number_of_total(body, &toks) {
        return Parts {
            name: name(0),
            set: None,
            number: toks.first().copied(),
            ph: false,
            marked: false,
            note: None,
        };
    }
    Parts {
        name: (0, body.len()),
        set: None,
        number: None,
        ph: false,
        marked: false,
        note: None,
    }
}

/// Whether tokens `at` and `at + 1` (from the end) are a number and a code, with a name
/// before them. `Energy` counts as a code only when the name before it still says Energy
/// in some language (`Basic {W} Energy Energy 3`, `Énergie Feu de base Energy 2`), or
/// `Fire Energy 3` would lose its last word.
fn coded(body: &str, toks: &[Range], at: usize) -> bool {
    let get = |i: usize| toks.get(i).and_then(|&(a, b)| body.get(a..b));
    let (Some(number), Some(code), Some(_)) = (get(at), get(at + 1), get(at + 2)) else {
        return false;
    };
    let name = toks.get(at + 1).and_then(|&(start, _)| body.get(..start));
    let code = code
        .strip_prefix('(')
        .and_then(|c| c.strip_suffix(')'))
        .unwrap_or(code);
    (is_number(number) || is_letter_number(number))
        && is_code(code)
        && (code != "Energy" || name.is_some_and(mentions_energy))
}

/// A printing in brackets at the end of the line, as deck sites write it: `Charmander
/// (PAF 7)`, `Iono [PAL 185]`. The brackets hold exactly a code and a number separated by
/// blanks, and a name comes before them (a `-` before the brackets is dropped).
fn bracketed(body: &str) -> Option<Parts> {
    let close = body.chars().next_back()?;
    let open = match close {
        ')' => '(',
        ']' => '[',
        _ => return None,
    };
    let start = body.rfind(open)?;
    let inner_start = start + 1;
    let inner = body.get(inner_start..body.len() - 1)?;
    let toks = last_tokens(inner, 3);
    let [(num_start, num_end), (code_start, code_end)] = toks.as_slice() else {
        return None;
    };
    let (number, code) = (
        inner.get(*num_start..*num_end)?,
        inner.get(*code_start..*code_end)?,
    );
    if !is_code(code) || !(is_number(number) || is_letter_number(number)) {
        return None;
    }
    let name = without_dash(
        body,
        (0, body.get(..start)?.trim_end_matches(is_blank).len()),
    );
    (name.1 > 0).then_some(Parts {
        name,
        set: Some((inner_start + code_start, inner_start + code_end)),
        number: Some((inner_start + num_start, inner_start + num_end)),
        ph: false,
        marked: true,
        note: None,
    })
}

/// The code and number written before the name, as some sites and spreadsheets order
/// them: `TWM 128 Dreepy`. Taken only when the end of the line holds no printing.
fn code_first(body: &str) -> Option<Parts> {
    let mut words = first_tokens(body, 3).into_iter();
    let (code_start, code_end) = words.next()?;
    let (num_start, num_end) = words.next()?;
    let (name_start, _) = words.next()?;
    let code = body.get(code_start..code_end)?;
    let number = body.get(num_start..num_end)?;
    (is_code(code) && code != "Energy" && is_number(number)).then_some(Parts {
        name: (name_start, body.len()),
        set: Some((code_start, code_end)),
        number: Some((num_start, num_end)),
        ph: false,
        marked: true,
        note: None,
    })
}

/// The first `n` blank-separated tokens of `s` as byte ranges, in order.
fn first_tokens(s: &str, n: usize) -> Vec<Range> {
    let mut out = Vec::with_capacity(n);
    let mut start = None;
    for (i, c) in s.char_indices() {
        if out.len() == n {
            return out;
        }
        match (is_blank(c), start) {
            (true, Some(a)) => {
                out.push((a, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(a) = start.filter(|_| out.len() < n) {
        out.push((a, s.len()));
    }
    out
}

/// A name range without a trailing ` -` (or en/em dash) that separated it from its code:
/// `Switch - MEG 130`.
fn without_dash(body: &str, (start, end): Range) -> Range {
    let Some(name) = body.get(start..end) else {
        return (start, end);
    };
    match name.strip_suffix(['-', '–', '—']) {
        Some(head) if head.ends_with(is_blank) => {
            let head = head.trim_end_matches(is_blank);
            if head.is_empty() {
                (start, end)
            } else {
                (start, start + head.len())
            }
        }
        _ => (start, end),
    }
}

/// A code written in parentheses, `(SVI)`, as tools modelled on card-game exports of other
/// games write it (`4 Ultra Ball (SVI) 196`): the range without them.
fn unparenthesized(body: &str, (start, end): Range) -> Range {
    match body.get(start..end) {
        Some(code) if code.len() > 2 && code.starts_with('(') && code.ends_with(')') => {
            (start + 1, end - 1)
        }
        _ => (start, end),
    }
}

/// Whether a name contains an Energy word in one of the six languages (`Energy`,
/// `Énergie`, `Feuerenergie`, `Energía`, `Energia`).
fn mentions_energy(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower.contains("energ") || lower.contains("énerg")
}

/// Whether the last token is a collector number without a code, by the rules in the
/// module documentation.
fn bare_number(body: &str, toks: &[Range]) -> bool {
    let (Some(&(num_start, num_end)), Some(&(prev_start, prev_end))) = (toks.first(), toks.get(1))
    else {
        return false;
    };
    let (Some(number), Some(prev)) = (body.get(num_start..num_end), body.get(prev_start..prev_end))
    else {
        return false;
    };
    let plain = (1..=3).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit());
    let gap = body
        .get(prev_end..num_start)
        .is_some_and(|g| g.chars().count() >= 2);
    plain && (gap || ends_in_energy(prev) || NAME_SUFFIXES.contains(&prev))
}

/// Whether the last token is a collector number with the set's printed total and no code
/// before it, as a player copies it off the card (`Gimmighoul 088/182`): digits, `/`,
/// digits. No card name holds such a word. The name and the number choose the printing;
/// the total is not checked.
fn number_of_total(body: &str, toks: &[Range]) -> bool {
    let last = toks.first().and_then(|&(a, b)| body.get(a..b));
    toks.len() > 1
        && last
            .and_then(|token| token.split_once('/'))
            .is_some_and(|(number, total)| {
                let digits =
                    |s: &str| (1..=3).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
                digits(number) && digits(total)
            })
}

/// Where the `-` of a database card id is (`xy1-12`, `sv3pt5-151`, `swshp-SWSH020`,
/// `2019sm-fr-33`): a lower-case set id ([`looks_like_set_id`]), a dash, and a collector
/// number. pokemontcg.io and TCGdex ids look like this; printed codes are upper case. The
/// Unown of EX Unseen Forces are numbered by their letter (`ex10-E`, `ex10-!`).
fn database_id(token: &str) -> Option<usize> {
    let (set, number) = token.rsplit_once('-')?;
    let unown = matches!(number.as_bytes(), [b'A'..=b'Z' | b'!' | b'?']);
    (crate::deck::looks_like_set_id(set) && (is_number(number) || unown)).then_some(set.len())
}

/// Whether `set` and `number` joined by a dash read back as one database id
/// ([`database_id`]): how `fmt` keeps an id that names no printing (`p-172`). A number no
/// id has (`dvina`, from `de dvina` read as a lower-case code) stays apart.
pub(crate) fn joins_as_database_id(set: &str, number: &str) -> bool {
    database_id(&format!("{set}-{number}")) == Some(set.len())
}

/// The shapes of set codes and collector numbers, compiled once and copied per thread: a
/// `Regex` used from several threads at once hands its scratch space out under a lock, and
/// every line of every file of `check DIR` asks these (a copy shares the compiled program).
struct Shapes {
    /// A set code glued to its number: `SWSH161`, `PAL185`, `GG69`.
    glued: Option<Regex>,
    /// A set code: `SVI`, `PR-SV`, `CRZ-GG`, `N1`.
    code: Option<Regex>,
    /// A collector number: `185`, `TG12`, `XY150a`, `136/198`.
    number: Option<Regex>,
}

impl Shapes {
    fn compile() -> Shapes {
        Shapes {
            glued: Regex::new(r"^[A-Z]{2,5}[0-9]{1,4}[a-z]?$").ok(),
            code: Regex::new(
                r"^(?:[A-Z][A-Za-z0-9]{1,9}(?:-[A-Z0-9]{1,4})?|TK-[A-Z][A-Za-z]{2,11})$",
            )
            .ok(),
            number: Regex::new(
                r"^[A-Za-z]{0,5}[0-9]{1,4}[A-Za-z]{0,2}(?:/[A-Za-z]{0,5}[0-9]{1,4})?$",
            )
            .ok(),
        }
    }

    /// Whether `token` has the shape `pick` chooses, with this thread's copy.
    fn matches(pick: impl Fn(&Shapes) -> &Option<Regex>, token: &str) -> bool {
        static COMPILED: LazyLock<Shapes> = LazyLock::new(Shapes::compile);
        thread_local! {
            static HERE: Shapes = Shapes {
                glued: COMPILED.glued.clone(),
                code: COMPILED.code.clone(),
                number: COMPILED.number.clone(),
            };
        }
        let test = |shapes: &Shapes| pick(shapes).as_ref().is_some_and(|re| re.is_match(token));
        // A thread that is ending has no copy left: it asks the shared one.
        HERE.try_with(test).unwrap_or_else(|_| test(&COMPILED))
    }
}

/// Whether the last token is a set code glued to its number (`SWSH161`, `PAL185`, `GG69`):
/// two to five capitals, then digits. No card name ends in such a word.
fn glued_number(body: &str, toks: &[Range]) -> bool {
    let last = toks.first().and_then(|&(a, b)| body.get(a..b));
    toks.len() > 1
        && last.is_some_and(|token| {
            !NAME_SUFFIXES.contains(&token) && Shapes::matches(|shapes| &shapes.glued, token)
        })
}

/// Last words of card names that are never set codes, though `GX` and `VSTAR` look like one.
const NAME_SUFFIXES: &[&str] = &[
    "V", "ex", "EX", "GX", "VMAX", "VSTAR", "V-UNION", "BREAK", "LEGEND", "Prime", "◇", "★",
];

fn ends_in_energy(word: &str) -> bool {
    let len = word.len();
    len >= 6
        && word
            .get(len - 6..)
            .is_some_and(|end| end.eq_ignore_ascii_case("energy"))
}

/// Whether `tok` has the shape of a set code: `SVI`, `PR-SV`, `CRZ-GG`, `SWSHEnergy`, a
/// Trainer Kit's code in PTCG Online's exports (`TK-` and the kit's Pokémon, capitalised:
/// `TK-AlolanRaichu`, `TK-PikachuLibre`), or exactly `Energy` (old exports' code for basic
/// Energy). Needs two upper-case letters so
/// that name words (`Mr.`, `Null`) never match, or one and a digit: the Wizards-era codes
/// `N1`–`N4` (Neo), `B2` (Base Set 2), `G1`/`G2` (Gym). Name suffixes are excluded by name.
/// Also two digits and a capital: PTCG Live's code of the 30th Celebration set, `30C`
/// ([`digits_letter`]).
pub(crate) fn is_code(tok: &str) -> bool {
    if tok == "Energy" || digits_letter(tok) {
        return true;
    }
    tok.len() <= 15
        && (tok.bytes().filter(u8::is_ascii_uppercase).count() >= 2 || letter_digit(tok))
        && !NAME_SUFFIXES.contains(&tok)
        && Shapes::matches(|shapes| &shapes.code, tok)
}

/// `30C`: two digits and one upper-case letter, the one shape of a set code that starts
/// with a digit (PTCG Live's code of 30th Celebration, released 2026-09-16). No card name
/// ends in such a word, and a collector number never has it (its letters come first,
/// `TG12`, or are lower-case, `150a`).
fn digits_letter(tok: &str) -> bool {
    matches!(tok.as_bytes(), [a, b, letter] if a.is_ascii_digit() && b.is_ascii_digit() && letter.is_ascii_uppercase())
}

/// `N1`: one upper-case letter and one digit.
fn letter_digit(tok: &str) -> bool {
    matches!(tok.as_bytes(), [letter, digit] if letter.is_ascii_uppercase() && digit.is_ascii_digit())
}

/// Whether `tok` has the shape of a collector number: `185`, `059`, `TG12`, `GG59`,
/// `SWSH230`, `XY150a`, `H12`, optionally `/193` after it.
pub(crate) fn is_number(tok: &str) -> bool {
    tok.len() <= 24 && Shapes::matches(|shapes| &shapes.number, tok)
}

/// A collector number without digits, after a set code: Unseen Forces numbers its Unown
/// `A` to `Z`, `!` and `?` (`Unown UF !`), the Limitless deck builder writes a basic
/// Energy's type letter there (`Fire Energy SVE R`), and a few cards are numbered in words
/// (`Alph Lithograph UL TWO`, `Pikachu at the Museum MEP MUSEUM`). Name suffixes
/// (`LEGEND`, `BREAK`) are not numbers.
fn is_letter_number(tok: &str) -> bool {
    let word = (3..=6).contains(&tok.len())
        && tok.bytes().all(|b| b.is_ascii_uppercase())
        && !NAME_SUFFIXES.contains(&tok);
    word || matches!(tok.as_bytes(), [c] if c.is_ascii_uppercase() || *c == b'!' || *c == b'?')
}

/// Byte offset where a trailing ` # ...` or ` // ...` comment starts (`s.len()` if none).
/// A `#` followed by a digit is part of the name: Gym Heroes prints `Blaine's Quiz #1`.
pub(crate) fn comment_start(s: &str) -> usize {
    let mut prev_blank = false;
    for (i, c) in s.char_indices() {
        let numbered = c == '#'
            && s.get(i + 1..)
                .is_some_and(|t| t.starts_with(|d: char| d.is_ascii_digit()));
        if prev_blank
            && ((c == '#' && !numbered) || s.get(i..).is_some_and(|t| t.starts_with("//")))
        {
            return i;
        }
        prev_blank = is_blank(c);
    }
    s.len()
}

/// The other reading of a line whose set code was typed in lower case (`3 drakloak twm
/// 129`, `2 dragapult ex twm  130`, `3 drakloak twm129`, `3x drakloak (twm 129)`) or whose
/// number has a `#` (`Drakloak TWM #129`): the line read again with its last word, then its
/// last two, in capitals and without the `#`. The parser takes codes in
/// capitals only, since a lower-case word is a name's (`Professor's Research`, `Boss's
/// Orders ex`), so this reading is tried only when the whole name matches no card (see
/// `check::identify`). `None` for a line that has a code, or when capitals give it none.
pub fn lower_case_code(line: &super::CardLine) -> Option<super::CardLine> {
    if line.set.is_some() {
        return None;
    }
    // A number already read (`twm  130`: two blanks) is read again with the code.
    let text = match line.number.as_deref() {
        Some(number) => format!("{}  {number}", line.name),
        None => line.name.clone(),
    };
    let words = last_tokens(&text, 2);
    (1..=words.len()).find_map(|last| raised_reading(line, &text, words.get(..last)?))
}

/// [`lower_case_code`] with the words at `words` in capitals: a reading with a code, or with
/// a code glued to its number (`TWM129`), and a name before it.
fn raised_reading(line: &super::CardLine, text: &str, words: &[Range]) -> Option<super::CardLine> {
    // Capitals keep every byte where it is, so the ranges of one text are the other's.
    let mut upper = text.to_string();
    let mut raised = Vec::new();
    for &(start, end) in words {
        let word = text.get(start..end)?;
        if word.is_ascii() && word.bytes().any(|b| b.is_ascii_lowercase()) {
            upper.replace_range(start..end, &word.to_ascii_uppercase());
            raised.push((start, end));
        }
        // `TWM #129`: the `#` of a number is a blank (a `#` glued to digits is a name's,
        // `Blaine's Quiz #1`, so the parser kept it).
        if word.starts_with('#') && word.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
            upper.replace_range(start..start + 1, " ");
            raised.push((start, end));
        }
    }
    let parts = split_card(&upper);
    let number = parts.number?;
    // Without a code, only a number that was raised holds one (`twm129`).
    let coded = parts.set.is_some() || raised.contains(&number);
    let piece = |(start, end): Range| text.get(start..end).map(str::to_string);
    let name = piece(parts.name).filter(|name| !name.is_empty())?;
    (coded && !raised.is_empty() && !parts.ph).then_some(super::CardLine {
        name_span: super::Span::new(line.name_span.offset + parts.name.0, name.len()),
        name,
        set: parts.set.and_then(piece),
        number: Some(piece(number)?),
        ..line.clone()
    })
}

/// The other reading of a line whose last words were read as a set code and a number
/// spelled in letters (`4 AVENTURA DE ECO`: code `DE`, number `ECO`; `ENERGY SEARCH PRO`):
/// the whole text as the name. A name typed in capitals ends in words of that shape
/// (`ORDINI DEL CAPO`, `ORDRES DU BOSS`), so this reading is tried only when the first one
/// names no card (see `check::identify`), as a number in words is rare (`Unown UF A`,
/// `Alph Lithograph UL TWO`). `None` for a line whose number has a digit, or has none.
pub fn whole_name(line: &super::CardLine) -> Option<super::CardLine> {
    let number = line.number.as_deref()?;
    if number.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = match line.set.as_deref() {
        Some(set) => format!("{} {set} {number}", line.name),
        None => format!("{} {number}", line.name),
    };
    Some(super::CardLine {
        name_span: super::Span::new(line.name_span.offset, name.len()),
        name,
        set: None,
        number: None,
        ..line.clone()
    })
}

/// The other reading of a line that ends in a note after its card, as forum posts write
/// them: `4 Buddy-Buddy Poffin TEF 144 (thanks to X)` (text after a code and a number),
/// `1 Prime Catcher <-- MVP`, `2 Crispin - tech`, `1 Iono ← MVP` (text after an arrow or a
/// dash). The line is read without the note, which becomes its comment (so `fmt` keeps
/// it, as `// (thanks to X)`); tried only when the whole name is no card's (see
/// `check::identify`). `None` for a line read with a printing, or with no note.
pub fn without_note(line: &super::CardLine) -> Option<super::CardLine> {
    if line.set.is_some() || line.number.is_some() {
        return None;
    }
    let text = line.name.as_str();
    // Every word, first to last, with where it starts.
    let mut words: Vec<(usize, &str)> = (last_tokens(text, text.len()).into_iter())
        .filter_map(|(start, end)| Some((start, text.get(start..end)?)))
        .collect();
    words.reverse();
    // A code and a number with a name before them and words after them.
    let coded = words.windows(3).skip(1).find_map(|w| match w {
        [(_, code), (at, number), _] if is_code(code) && is_number(number) => {
            Some(at + number.len())
        }
        _ => None,
    });
    // `#` starts a card number a post writes after the name (`2 Tynamo #39 (Free
    // Retreat)`): the printing's number, with no set (below).
    let arrow = ["<--", "<-", "←", "--", "–", "—", "-", "#", "(", "["]
        .iter()
        .find_map(|mark| {
            words
                .iter()
                .skip(1)
                .find(|(_, word)| word.starts_with(mark))
        })
        .map(|&(at, _)| at)
        // A note glued to the name: `4 Electabuzz(Tons of people play Raindance)`.
        .or_else(|| {
            words.iter().find_map(|&(at, word)| {
                word.find('(')
                    .filter(|&open| open > 0)
                    .map(|open| at + open)
            })
        });
    // A dash inside a bracket the note opened is the note's (`4x Electrike (EX: Deoxys -
    // Recharge)`, pojo.com's 2006 Mewtric deck): the note starts at that bracket.
    let arrow = arrow.map(|at| opened_before(text, at).unwrap_or(at));
    let end = coded.or(arrow)?;
    let kept = text.get(..end)?.trim_end_matches(is_blank);
    // An ellipsis leads to the note: `2 Magby... [useful in a pinch]`.
    let kept = (kept.strip_suffix("...").or_else(|| kept.strip_suffix('…')))
        .unwrap_or(kept)
        .trim_end_matches(is_blank);
    let note = text.get(end..)?.trim_matches(is_blank);
    let parts = split_card(kept);
    let piece = |(start, end): Range| kept.get(start..end).map(str::to_string);
    let name = piece(parts.name).filter(|name| !name.is_empty())?;
    // The number after `#` is the printing's (`Tynamo #39`, `Tynamo #38` of one list are
    // Noble Victories' two Tynamo, not the newest Tynamo twice); what follows is the note.
    let numbered = (note.strip_prefix('#'))
        .filter(|_| parts.set.is_none() && parts.number.is_none())
        .map(|rest| {
            rest.split_at(
                rest.find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len()),
            )
        })
        .filter(|(digits, _)| !digits.is_empty());
    let (number, note) = match numbered {
        Some((digits, rest)) => (Some(digits.to_string()), rest.trim_matches(is_blank)),
        None => (parts.number.and_then(piece), note),
    };
    let comment = match (&line.comment, note.is_empty()) {
        (Some(comment), true) => Some(comment.clone()),
        (Some(comment), false) => Some(format!("{note}; {comment}")),
        (None, true) => None,
        (None, false) => Some(note.to_string()),
    };
    Some(super::CardLine {
        name_span: super::Span::new(line.name_span.offset + parts.name.0, name.len()),
        name,
        set: parts.set.and_then(piece),
        number,
        ph: parts.ph,
        comment,
        ..line.clone()
    })
}

/// Other readings of a line as Wizards-era posts write a card, each of the line as it is
/// or without its note (see [`without_note`]): a shorthand spelled out in parentheses (`3
/// NGR(Nightly Garbage Run)`: the words inside), a name in the plural (`3 Pluspowers`, `2
/// Scoop Ups`: without the `s`), a name followed by the Pokémon's level (`2 Mewtwo L60`,
/// `Sabrina's Abra Lv. 18`: without it), a Wizards set's name before or after the card (`3
/// Fossil Magmar`: without it). Tried only when the whole name is no card's (see
/// `check::identify`). `None` for a line read with a code or a number, or of none of
/// these shapes.
pub fn post_shorthand(line: &super::CardLine) -> Option<super::CardLine> {
    if line.set.is_some() || line.number.is_some() {
        return None;
    }
    let bare = without_note(line).filter(|bare| bare.set.is_none() && bare.number.is_none());
    let name = bare.as_ref().unwrap_or(line).name.trim_end();
    let spelled = line
        .name
        .trim_end()
        .strip_suffix(')')
        .and_then(|inner| inner.split_once('('))
        .map(|(_, inside)| inside.trim())
        .filter(|inside| inside.chars().any(char::is_alphabetic));
    let singular = name
        .strip_suffix('s')
        .filter(|stem| !stem.ends_with(['\'', '’', 's']) && stem.len() > 2);
    let without_level = name.rsplit_once(' ').and_then(|(stem, last)| {
        let digits = ["Lv.", "LV.", "Lv", "LV", "L"]
            .iter()
            .find_map(|mark| last.strip_prefix(mark))?;
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then_some(stem.trim_end())
            .or_else(|| {
                // `Lv. 18`: the mark and the level as two words.
                let (stem, mark) = stem.trim_end().rsplit_once(' ')?;
                let level = last.bytes().all(|b| b.is_ascii_digit());
                (level && ["Lv.", "LV.", "Lv", "LV"].contains(&mark)).then_some(stem.trim_end())
            })
    });
    // The Wizards set a report names before or after the card (`3 Fossil Magmar`, `3
    // Magmar Fossil`, `Base Squirtle`): the card of that set, as `Magmar FO` would be. The
    // set is given by its id (`base3`); `check::identify` writes its code.
    let without_set = crate::names::sets::wizards_set_around(name);
    let (read, set) = match spelled.or(without_level) {
        Some(read) => (read, None),
        None => match without_set {
            Some((read, id)) => (read, Some(id.to_string())),
            None => (singular?, None),
        },
    };
    let base = bare.as_ref().unwrap_or(line);
    (!read.is_empty()).then(|| super::CardLine {
        name: read.to_string(),
        set: set.or_else(|| base.set.clone()),
        ..base.clone()
    })
}

/// The other reading of a name typed in capitals that ends in `EX` (`FEZANDIPITI EX`,
/// `MAUZI-EX`): the Scarlet & Violet `ex`. `EX` and `ex` are different names in the rules
/// (the old Pokémon-EX and the new Pokémon ex), so this reading is tried only when the name
/// with `EX` is no card's (see `check::identify`). `None` for a name that does not end in
/// `EX`.
pub fn lower_case_ex(line: &super::CardLine) -> Option<super::CardLine> {
    let stem = line.name.strip_suffix("EX")?;
    stem.ends_with([' ', '-']).then(|| super::CardLine {
        name: format!("{stem}ex"),
        ..line.clone()
    })
}

/// The other reading of a line that ends in a set code with no number (`4 Iono PAL`,
/// `2 Rare Candy SVI`): the name before the code, and the code. A name may end in a word of
/// that shape (`Mewtwo EX`, `Iono`'s `PAL` is no name's), so this reading is tried only when
/// the whole name is no card's (see `check::identify`). Codes joined by `/` name the sets
/// of two printings of the card (`2 Smeargle UD/CL`): the first is read. `None` for a line
/// read with a code or a number, or whose last word is not a code.
pub fn name_then_code(line: &super::CardLine) -> Option<super::CardLine> {
    if line.set.is_some() || line.number.is_some() {
        return None;
    }
    let (name, codes) = line.name.trim_end().rsplit_once(' ')?;
    let name = name.trim_end();
    let is_plain_code =
        |code: &str| code.bytes().all(|b| b.is_ascii_alphanumeric()) && is_code(code);
    let code = codes.split('/').next()?;
    (!name.is_empty() && codes.split('/').all(is_plain_code))
        .then(|| first_words(line, name, Some(code.to_string())))
}

/// Where the last bracket (`(`, `[`) still open at `at` opens, after the name's first
/// character: `None` when every bracket before `at` is closed.
fn opened_before(text: &str, at: usize) -> Option<usize> {
    let (open, _) = super::lines::unclosed_brackets(text.get(..at)?);
    open.last().copied().filter(|&index| index > 0)
}

/// [`name_then_code`] of a line read without its note ([`without_note`]): `4 – Igglybuff
/// HL (Search for a basic + a basic energy card.` (pojo.com's 2004 World Championships
/// grinder list) is Hidden Legends' Igglybuff, its note kept as the comment. Tried only
/// when the whole name is no card's, as both are.
pub fn note_then_code(line: &super::CardLine) -> Option<super::CardLine> {
    without_note(line).and_then(|bare| name_then_code(&bare))
}

/// `line` read as the first words of its name, `name`, with the set code `set`.
fn first_words(line: &super::CardLine, name: &str, set: Option<String>) -> super::CardLine {
    super::CardLine {
        name_span: super::Span::new(line.name_span.offset, name.len()),
        name: name.to_string(),
        set,
        ..line.clone()
    }
}

/// The Black Star promo series a word before `Promo` names, by TCGdex's set id: the first
/// word of each series' English set name in `cards/set-names.tsv` (`Wizards Black Star
/// Promos`, `Nintendo Black Star Promos`, `SWSH Black Star Promos`, `SVP Black Star
/// Promos`, ...), and two more spellings of a series' letters: `WotC` (Wizards of the
/// Coast), and `SV` and `ME`, the letters of the series PTCG Live writes in its promo codes
/// (`PR-SV`, and `MEP`'s series). Compared folded to lower case.
const PROMO_SERIES: [(&str, &str); 13] = [
    ("wizards", "basep"),
    ("wotc", "basep"),
    ("nintendo", "np"),
    ("dp", "dpp"),
    ("hgss", "hgssp"),
    ("bw", "bwp"),
    ("xy", "xyp"),
    ("sm", "smp"),
    ("swsh", "swshp"),
    ("svp", "svp"),
    ("sv", "svp"),
    ("mep", "mep"),
    ("me", "mep"),
];

/// The words that name Wizards' Black Star promos with no `Promo` after them: `MP`, the
/// Movie Promo (`3 MP Mewtwo(Takes out …)`, pojo.com's July 2000 league deck), and
/// `Movie` (`4 Movie Mewtwo`, pojo.com's 2000 Tulsa report): the promos given at the
/// first Pokémon films, Wizards promo 3 among them, which TCGdex files under `basep`.
const MOVIE_WORDS: [&str; 2] = ["mp", "movie"];

/// The promo set a word names (`MP`, `Movie`, `Wizards`, `SWSH`: see [`PROMO_SERIES`] and
/// [`MOVIE_WORDS`]), by set id.
fn promo_series(word: &str) -> Option<&'static str> {
    if MOVIE_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)) {
        return Some("basep");
    }
    (PROMO_SERIES.iter())
        .find(|(written, _)| word.eq_ignore_ascii_case(written))
        .map(|&(_, id)| id)
}

/// What the promo words among `words` (a line's words in order, `promo` at `at`) say of
/// the series: the word before `promo` when it names one (`SWSH Promo`, `Movie Promo`),
/// none for `Black Star Promo` or `Promo` alone (a promo of any series). Returns the series
/// and where the promo words start.
fn series_before(words: &[&str], at: usize) -> (Option<&'static str>, usize) {
    let before = |back: usize| at.checked_sub(back).and_then(|i| words.get(i)).copied();
    if let Some(series) = before(1).and_then(promo_series) {
        return (Some(series), at - 1);
    }
    let black_star = before(2).is_some_and(|w| w.eq_ignore_ascii_case("black"))
        && before(1).is_some_and(|w| w.eq_ignore_ascii_case("star"));
    (None, if black_star { at - 2 } else { at })
}

/// The other reading of a line that names a promo card by words after its name (`1
/// Toxicroak G Promo`, `Jirachi Promo`, `Zacian V SWSH Promo`) or before it (`Promo
/// Mewtwo`, `SWSH Promo Zacian V`, `Black Star Promo Mew`, and the words of
/// `MOVIE_WORDS` alone: `3 MP Mewtwo(Takes out …)`, `4 Movie Mewtwo`): the name without
/// the words, and without a note after it (kept as the comment, as [`without_note`] reads
/// it). Tried only when the whole name is no card's (see `check::identify`). `None` for a
/// line read with a code or a number, or with no such word.
pub fn without_promo_word(line: &super::CardLine) -> Option<super::CardLine> {
    promo_reading(line).map(|(line, _)| line)
}

/// [`without_promo_word`], with the promo set its words name ([`series_before`]; the
/// words of [`MOVIE_WORDS`] alone name `basep`).
fn promo_reading(line: &super::CardLine) -> Option<(super::CardLine, Option<&'static str>)> {
    if line.set.is_some() || line.number.is_some() {
        return None;
    }
    let noted = without_note(line).filter(|noted| noted.set.is_none() && noted.number.is_none());
    let line = noted.as_ref().unwrap_or(line);
    let written = line.name.trim_end();
    // Every word with where it starts.
    let spans: Vec<(usize, &str)> = (last_tokens(written, written.len()).into_iter().rev())
        .filter_map(|(start, end)| Some((start, written.get(start..end)?)))
        .collect();
    let words: Vec<&str> = spans.iter().map(|&(_, word)| word).collect();
    let is_promo = |word: &&str| word.eq_ignore_ascii_case("promo");
    // After the name: `Toxicroak G Promo`, `Mewtwo Movie Promo`.
    if let Some(last) = words
        .len()
        .checked_sub(1)
        .filter(|&at| words.get(at).is_some_and(is_promo))
    {
        let (series, from) = series_before(&words, last);
        let name = (spans.get(from))
            .and_then(|&(at, _)| written.get(..at))
            .map(str::trim_end)
            .filter(|name| !name.is_empty());
        if let Some(name) = name {
            return Some((first_words(line, name, None), series));
        }
    }
    // Before it: `Promo Mewtwo`, `SWSH Promo Zacian V`, `MP Mewtwo`, `Movie Promo Mewtwo`.
    let promo_at = words.iter().position(is_promo).filter(|&at| at <= 3);
    let (series, rest_at) = match promo_at {
        Some(at) => {
            let (series, from) = series_before(&words, at);
            (from == 0).then_some((series, at + 1))?
        }
        None => {
            let first = words.first()?;
            let movie = MOVIE_WORDS.iter().any(|w| first.eq_ignore_ascii_case(w));
            movie.then_some((Some("basep"), 1))?
        }
    };
    let &(start, _) = spans.get(rest_at)?;
    let rest = written.get(start..)?;
    Some((
        super::CardLine {
            name_span: super::Span::new(line.name_span.offset + start, rest.len()),
            name: rest.to_string(),
            set: None,
            ..line.clone()
        },
        series,
    ))
}

/// What a line says of the Black Star promo it names: promo words by its name (see
/// [`without_promo_word`]: `1 Toxicroak G Promo`, `2 Promo Mewtwo`, `4 Movie Mewtwo`) or in
/// the note after it (`4x Mewtwo (Promo 3 and 14)`, pojo.com's Vancouver list of
/// 2000-07-22; `1x Mew (Promo 8)` and `(promo)`, which the parser reads as a set code
/// `Promo` and a number; `(SWSH promo)`), the promo's number when the line gives one (`8`;
/// the first of several), and the promo set its words name, when they name one.
/// `written` is the line as written, `read` the line as read (its note, if any, in its
/// comment). `None` when neither names a promo.
///
/// The rule for the set: `MP` and `Movie` (alone or before `Promo`) name Wizards' Black
/// Star promos (`basep`); a series word before `Promo` names that series' promos
/// (`PROMO_SERIES`: `Nintendo Promo`, `SWSH Promo`, `SV Promo`); `Promo` alone and
/// `Black Star Promo` name a Black Star promo of any series, and the date chooses.
pub fn promo_named(written: &super::CardLine, read: &super::CardLine) -> Option<PromoNamed> {
    // A note the name index reads through (`Igglybuff (promo)` is found whole) is still
    // the line's note.
    let noted = without_note(written);
    let comment = (read.comment.as_deref())
        .or_else(|| noted.as_ref().and_then(|line| line.comment.as_deref()));
    let note = comment.and_then(|note| {
        let words: Vec<&str> = note
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .collect();
        let at = words
            .iter()
            .position(|word| word.eq_ignore_ascii_case("promo"))?;
        let number = (words.get(at + 1)).filter(|word| word.chars().all(|c| c.is_ascii_digit()));
        Some(PromoNamed {
            number: number.map(|word| word.to_string()),
            set: series_before(&words, at).0,
        })
    });
    // The word read as a set code: `1 Toudoudou (promo)`, `1x Mew (Promo 8)`.
    let coded = (read.set.as_deref())
        .filter(|set| set.eq_ignore_ascii_case("promo"))
        .map(|_| PromoNamed {
            number: read.number.clone(),
            set: None,
        });
    coded
        .or(note)
        .or_else(|| promo_reading(written).map(|(_, set)| PromoNamed { number: None, set }))
}

/// A promo named by a promo word: see [`promo_named`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoNamed {
    /// The promo's number, when the line gives it (`Mew (Promo 8)`: `8`).
    pub number: Option<String>,
    /// The id of the promo set the words name (`MP Mewtwo`: `basep`), when they name one.
    pub set: Option<&'static str>,
}

/// Whether `token` is written like a database set id (`sv3pt5`, `xy1`, `swshp`,
/// `swsh12pt5gg`, `sv03.5`): lower-case letters first, then letters, digits and dots.
/// TCGdex also names McDonald's collections by their year (`2013bw`), a French one with
/// `-fr` after it (`2019sm-fr`): sets with no printed code, which `deckbox search --output
/// list` writes by their id. Printed set codes are upper case (`SVI`), so the two never meet.
pub fn looks_like_set_id(token: &str) -> bool {
    let mut chars = token.chars();
    let lettered = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.');
    token.len() <= 16 && (lettered || is_year_set_id(token))
}

/// `2013bw`, `2019sm-fr`: four digits, lower-case letters, and maybe a dash and a
/// two-letter language.
fn is_year_set_id(token: &str) -> bool {
    let (id, language) = token.split_once('-').unwrap_or((token, "ab"));
    let (Some(year), Some(series)) = (id.get(..4), id.get(4..)) else {
        return false;
    };
    year.bytes().all(|b| b.is_ascii_digit())
        && !series.is_empty()
        && series.bytes().all(|b| b.is_ascii_lowercase())
        && language.len() == 2
        && language.bytes().all(|b| b.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lower-case reading of a line: `name | code | number` (`-` for no code), or
    /// `none`.
    fn lower(text: &str) -> String {
        let list = crate::deck::parse(text);
        let reading = list.cards.first().and_then(lower_case_code);
        reading.map_or("none".into(), |line| {
            let code = line.set.unwrap_or("-".into());
            format!(
                "{} | {code} | {}",
                line.name,
                line.number.unwrap_or_default()
            )
        })
    }

    #[test]
    fn a_lower_case_code_and_number_end_the_name() {
        let cases = [
            ("3 drakloak twm 129", "drakloak | twm | 129"),
            ("2 Dragapult ex twm 130", "Dragapult ex | twm | 130"),
            // The number already set off by two blanks: the code ends the name.
            ("2 dragapult ex twm  130", "dragapult ex | twm | 130"),
            ("1 iono pal 185/193", "iono | pal | 185/193"),
            ("1 pikachu pr-sv 27", "pikachu | pr-sv | 27"),
            // The shapes the parser knows in capitals: glued, in parentheses.
            ("3 drakloak twm129", "drakloak | - | twm129"),
            ("3 drakloak (twm) 129", "drakloak | twm | 129"),
            ("3x drakloak (twm 129)", "drakloak | twm | 129"),
            // A phone's capital (`Twm`) is lower case enough, and a number in words is one
            // in capitals (`Alph Lithograph UL TWO`): the card data says whether it exists.
            ("3 Drakloak Twm 129", "Drakloak | Twm | 129"),
            ("3 drakloak twm one", "drakloak | twm | one"),
            // A number written with `#`.
            ("3 Drakloak TWM #129", "Drakloak | TWM | 129"),
            ("3 drakloak twm #129", "drakloak | twm | 129"),
            // No second reading: a code in capitals is the parser's, `ex` ends names, a
            // code alone is no name, and a code needs a letter first.
            ("3 Drakloak TWM 129", "none"),
            ("1 Mewtwo ex 12", "none"),
            ("3 twm 129", "none"),
            ("3 drakloak 12 129", "none"),
            ("4 dreepyy", "none"),
        ];
        for (line, reading) in cases {
            assert_eq!(lower(line), reading, "{line}");
        }
    }

    /// `name | code | number` of the first card line of `text`.
    fn read(text: &str) -> String {
        let list = crate::deck::parse(text);
        list.cards.first().map_or("none".into(), |line| {
            let code = line.set.clone().unwrap_or("-".into());
            let number = line.number.clone().unwrap_or_default();
            format!("{} | {code} | {number}", line.name)
        })
    }

    /// A post's `#` before a number after the name (PokéBeach's 2011 Canberra City
    /// Championship report: `2 Tynamo #39 (Free Retreat)`, `1 Tynamo #38 (40hp)`) writes
    /// the printing's number, with no set; the rest is the note.
    #[test]
    fn a_number_after_a_hash_is_the_printings() {
        let read = |text: &str| {
            let list = crate::deck::parse(text);
            let bare = without_note(list.cards.first().unwrap()).unwrap();
            let number = bare.number.clone().unwrap_or("-".into());
            let note = bare.comment.clone().unwrap_or("-".into());
            format!("{} | {number} | {note}", bare.name)
        };
        assert_eq!(
            read("2 Tynamo #39 (Free Retreat)"),
            "Tynamo | 39 | (Free Retreat)"
        );
        assert_eq!(read("1 Tynamo #38"), "Tynamo | 38 | -");
        assert_eq!(read("1 Tynamo #38 (40hp)"), "Tynamo | 38 | (40hp)");
    }

    /// A dash inside the note's bracket is the note's: pojo.com's 2006 Mewtric deck writes
    /// `4x Electrike (EX: Deoxys - Recharge)`, the set and the attack. A dash after a name
    /// that holds a closed bracket still starts the note.
    #[test]
    fn a_dash_inside_a_note_s_bracket_is_the_note_s() {
        let read = |text: &str| {
            let list = crate::deck::parse(text);
            let bare = without_note(list.cards.first().unwrap()).unwrap();
            format!("{} | {}", bare.name, bare.comment.unwrap_or("-".into()))
        };
        assert_eq!(
            read("4x Electrike (EX: Deoxys - Recharge)"),
            "Electrike | (EX: Deoxys - Recharge)"
        );
        assert_eq!(
            read("1 Ancient Technical Machine [Rock] - tech"),
            "Ancient Technical Machine [Rock] | - tech"
        );
        assert_eq!(read("2 Crispin - tech"), "Crispin | - tech");
    }

    #[test]
    fn the_word_from_joins_a_name_to_its_printing() {
        let cases = [
            ("2x Zoroark-GX from SLG 53/73", "Zoroark-GX | SLG | 53/73"),
            (
                "1 Ultra Ball (Ultra) from SLG 68/73",
                "Ultra Ball (Ultra) | SLG | 68/73",
            ),
            ("1 Ultra Ball FROM SLG 68", "Ultra Ball | SLG | 68"),
            // Only before a printing, and never the whole name.
            ("1 Ultra Ball from", "Ultra Ball from | - | "),
            ("1 from SLG 68", "from | SLG | 68"),
        ];
        for (line, reading) in cases {
            assert_eq!(read(line), reading, "{line}");
        }
    }

    /// pokemontcg.io numbers the Unown of EX Unseen Forces by their letter: `1 Unown ex10-E`
    /// (tests/corpus/lists/ptcg-sim/2003-2007-ex--03-rayler.txt line 5). Only one capital,
    /// `!` or `?` is such a number.
    #[test]
    fn a_database_id_with_the_letter_of_an_unown() {
        let cases = [
            ("1 Unown ex10-E", "Unown | ex10 | E"),
            ("1 Unown ex10-!", "Unown | ex10 | !"),
            ("1 Unown ex10-?", "Unown | ex10 | ?"),
            ("4 Gardevoir ex sv1-86", "Gardevoir ex | sv1 | 86"),
            // TCGdex's ids of sets with no printed code, as `search --output list` writes
            // them.
            ("1 Jangmo-o 2018sm-fr-34", "Jangmo-o | 2018sm-fr | 34"),
            ("1 Pikachu 2013bw-1", "Pikachu | 2013bw | 1"),
            ("1 Jolteon-EX xya-28A", "Jolteon-EX | xya | 28A"),
            ("1 Pikachu 2013-1", "Pikachu 2013-1 | - | "),
            ("1 Porygon-Z", "Porygon-Z | - | "),
            ("1 Unown ex10-EF", "Unown ex10-EF | - | "),
        ];
        for (line, reading) in cases {
            assert_eq!(read(line), reading, "{line}");
        }
    }

    fn count(s: &str) -> String {
        match split_count(s) {
            None => "none".to_owned(),
            Some(c) => format!(
                "{:?} digits={} neg={} rest={:?}",
                &s[c.span.0..c.span.1],
                c.digits,
                c.negative,
                c.rest.map(|r| &s[r..])
            ),
        }
    }

    #[test]
    fn counts() {
        insta::assert_snapshot!(count("4 Iono"), @r#""4" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("4x Iono"), @r#""4x" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("4 x Iono"), @r#""4 x" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("4 – Igglybuff HL"), @r#""4 –" digits=4 neg=false rest=Some("Igglybuff HL")"#);
        insta::assert_snapshot!(count("9 - Psychic"), @r#""9 -" digits=9 neg=false rest=Some("Psychic")"#);
        // Glued to the count or to the name, a dash is no separator.
        insta::assert_snapshot!(count("4- Iono"), @"none");
        insta::assert_snapshot!(count("4 -Iono"), @r#""4" digits=4 neg=false rest=Some("-Iono")"#);
        insta::assert_snapshot!(count("4 Xerneas"), @r#""4" digits=4 neg=false rest=Some("Xerneas")"#);
        insta::assert_snapshot!(count("x4 Iono"), @r#""x4" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("4×\u{A0}Iono"), @r#""4×" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("* 4 Iono"), @r#""* 4" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("- 4 Iono"), @r#""- 4" digits=4 neg=false rest=Some("Iono")"#);
        insta::assert_snapshot!(count("-2 Iono"), @r#""-2" digits=2 neg=true rest=Some("Iono")"#);
        insta::assert_snapshot!(count("4"), @r#""4" digits=4 neg=false rest=None"#);
        insta::assert_snapshot!(count("4Iono"), @"none");
        insta::assert_snapshot!(count("Iono"), @"none");
        insta::assert_snapshot!(count("*"), @"none");
    }

    fn trailing(s: &str) -> String {
        match split_trailing_count(s) {
            None => "none".to_owned(),
            Some((c, (at, parts))) => format!(
                "{:?} digits={} name={:?} number={:?}",
                &s[c.span.0..c.span.1],
                c.digits,
                &s[at + parts.name.0..at + parts.name.1],
                parts.number.map(|(a, b)| &s[at + a..at + b])
            ),
        }
    }

    #[test]
    fn counts_written_last() {
        insta::assert_snapshot!(trailing("Dreepy x4"), @r#""x4" digits=4 name="Dreepy" number=None"#);
        insta::assert_snapshot!(trailing("Bola de Ninho - X4"), @r#""X4" digits=4 name="Bola de Ninho" number=None"#);
        insta::assert_snapshot!(trailing("balão de ar -x3"), @r#""-x3" digits=3 name="balão de ar" number=None"#);
        insta::assert_snapshot!(trailing("Genesect Ex 067/086  -  X 2"), @r#""X 2" digits=2 name="Genesect Ex" number=Some("067/086")"#);
        insta::assert_snapshot!(trailing("gimmighoul 088/182 - X2"), @r#""X2" digits=2 name="gimmighoul" number=Some("088/182")"#);
        insta::assert_snapshot!(trailing("Leafeon Lv. X x2"), @r#""x2" digits=2 name="Leafeon Lv. X" number=None"#);
        insta::assert_snapshot!(trailing("Leafeon Lv. X 2"), @"none");
        insta::assert_snapshot!(trailing("Iono X 2"), @"none");
        insta::assert_snapshot!(trailing("Ho-Oh - X"), @"none");
        insta::assert_snapshot!(trailing("- x2"), @"none");
    }

    #[test]
    fn codes_and_numbers() {
        for code in [
            "SVI",
            "PR-SV",
            "PR-SW",
            "CRZ-GG",
            "SWSHEnergy",
            "SMEnergy",
            "TK-AlolanRaichu",
            "TK-PikachuLibre",
            "TK-Suicune",
            "Energy",
            "XY",
            "N1",
            "B2",
            "30C",
        ] {
            assert!(is_code(code), "{code}");
        }
        for word in [
            "V",
            "GX",
            "VSTAR",
            "Mr.",
            "Null",
            "Iono",
            "V-UNION",
            "SVI-ABCDE",
            "TK-pikachu",
            "TK-",
            "sVI",
            "n1",
            "N12",
            "30",
            "3C",
            "30c",
            "300C",
        ] {
            assert!(!is_code(word), "{word}");
        }
        for number in [
            "185", "059", "TG12", "GG59", "SWSH230", "XY150a", "H12", "185/193",
        ] {
            assert!(is_number(number), "{number}");
        }
        for word in ["ex", "12345", "1-2", "A", "GX"] {
            assert!(!is_number(word), "{word}");
        }
    }

    /// A promo word by the name or in the note names a promo, with the note's number when
    /// it gives one; a word that only holds `promo` (`Promotion`) or a line with none does
    /// not.
    /// What the first line of `text`, read as `check` reads it, says of a promo.
    fn promo_of(text: &str) -> Option<PromoNamed> {
        let list = crate::deck::parse(text);
        let written = list.cards.first()?;
        let read = without_note(written).unwrap_or_else(|| written.clone());
        promo_named(written, &read)
    }

    #[test]
    fn a_promo_word_or_note_names_a_promo() {
        let named = |text: &str| promo_of(text).map(|promo| promo.number.unwrap_or("-".into()));
        assert_eq!(named("1 Toxicroak G Promo").as_deref(), Some("-"));
        assert_eq!(named("2 Promo Mewtwo").as_deref(), Some("-"));
        assert_eq!(named("1 Coatox G promo").as_deref(), Some("-"));
        assert_eq!(named("4x Mewtwo (Promo 3 and 14)").as_deref(), Some("3"));
        assert_eq!(named("2 Igglybuff (lv. 5 promo)").as_deref(), Some("-"));
        assert_eq!(named("1 Toudoudou (promo)").as_deref(), Some("-"));
        assert_eq!(named("1 Igglybuff (promo)").as_deref(), Some("-"));
        assert_eq!(named("1x Mew (Promo 8)").as_deref(), Some("8"));
        assert_eq!(named("2 Magby... [useful in a pinch]"), None);
        assert_eq!(named("1 Pikachu (Promotion)"), None);
        assert_eq!(named("4 Iono"), None);
    }

    /// The promo words name a series' promos where they say one: `MP` and `Movie` (pojo.com's
    /// 2000 reports: `3 MP Mewtwo(Takes out …)`, `4 Movie Mewtwo`) Wizards' (`basep`), a
    /// series word before `Promo` that series' (`SWSH Promo`, `Nintendo Promo`, in the name
    /// or the note, in any of the six languages, which all write `Promo`); `Promo` alone
    /// and `Black Star Promo` no series.
    #[test]
    fn promo_words_name_a_series() {
        let set = |text: &str| promo_of(text).map(|promo| promo.set.unwrap_or("-"));
        let reading = |text: &str| {
            let list = crate::deck::parse(text);
            without_promo_word(list.cards.first()?).map(|line| line.name)
        };
        for (text, series, name) in [
            ("4 Movie Mewtwo", "basep", "Mewtwo"),
            ("3 MP Mewtwo(Takes out 'Chan)", "basep", "Mewtwo"),
            ("2 Movie Promo Mewtwo", "basep", "Mewtwo"),
            ("1 Mewtwo Movie Promo", "basep", "Mewtwo"),
            ("1 Wizards Promo Mew", "basep", "Mew"),
            ("1 WotC Promo Mew", "basep", "Mew"),
            ("1 Jirachi Nintendo Promo", "np", "Jirachi"),
            ("2 Zacian V SWSH Promo", "swshp", "Zacian V"),
            ("2 SWSH Promo Zacian V", "swshp", "Zacian V"),
            ("4 Iono SV Promo", "svp", "Iono"),
            ("4 Iono SVP promo", "svp", "Iono"),
            ("1 Toxicroak G DP Promo", "dpp", "Toxicroak G"),
            ("2 Promo Mewtwo", "-", "Mewtwo"),
            ("1 Mew Black Star Promo", "-", "Mew"),
            ("1 Black Star Promo Mew", "-", "Mew"),
            ("1 Toxicroak G Promo", "-", "Toxicroak G"),
            ("1 Coatox G Promo", "-", "Coatox G"),
        ] {
            assert_eq!(reading(text).as_deref(), Some(name), "{text}");
            assert_eq!(set(text), Some(series), "{text}");
        }
        // In a note (French, Spanish, Italian, German, Portuguese lists write `Promo` too).
        assert_eq!(set("1 Mew (SWSH promo)"), Some("swshp"));
        assert_eq!(set("1 Évoli (promo SWSH)"), Some("-"));
        assert_eq!(set("1 Mewtu (Promo Nintendo)"), Some("-"));
        assert_eq!(set("1 Mewtu (Nintendo Promo)"), Some("np"));
        assert_eq!(set("4 Mewtwo (Movie Promo 3)"), Some("basep"));
        assert_eq!(set("1x Mew (Promo 8)"), Some("-"));
        // A series word after `Promo` is no promo word of the name (`Promo` stands
        // between name and series word), and a series word alone names nothing.
        assert_eq!(reading("1 Coatox G promo DP"), None);
        assert_eq!(reading("1 Evoli Promo SWSH"), None);
        assert_eq!(set("1 SWSH Zacian V"), None);
        assert_eq!(reading("1 SWSH Zacian V"), None);
        assert_eq!(reading("3 MP"), None);
        assert_eq!(reading("1 SWSH Promo"), None);
    }
}
