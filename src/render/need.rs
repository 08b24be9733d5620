//! `deckbox need`'s outputs: a table for a terminal, JSON, deck-list lines, and the buy
//! lists TCGplayer's mass entry and Cardmarket's wants list import.
//!
//! The buy lists' syntax, as far as sources show it (docs/collections.md):
//! - TCGplayer mass entry reads one card a line, `COUNT NAME` (its partners' links send
//!   `||1 Dark Magician||`); TCGplayer's app writes a list as `1 Abandoned Sarcophagus [C20]`,
//!   the set code in brackets after the name, and Pokémon exporters add the collector
//!   number after it: `4 Dreepy [TWM] 128`.
//! - Cardmarket's wants list "add deck list" reads `COUNT NAME` a line; the printing is
//!   chosen on the site.

use serde::Serialize;

use crate::cards::{CardDb, Printing};
use crate::check::CheckedDeck;
use crate::check::diagnostic::Severity;
use crate::collection::Collection;
use crate::collection::need::{LineNeed, Need, Unplayable};
use crate::names::lang::Language;
use crate::util::escape::visible;

/// The printing a deck line asks for, when identified.
fn asked<'a>(decks: &[&'a CheckedDeck], db: &'a CardDb, line: &LineNeed) -> Option<&'a Printing> {
    let card = decks.get(line.deck)?.cards.get(line.card)?;
    db.get(card.printing?)
}

/// A printing as a list writes it: `Ultra Ball MEG 131` (its English name).
fn written(printing: &Printing) -> String {
    let name = printing
        .names
        .get(Language::En)
        .unwrap_or(printing.names.primary());
    format!("{name} {} {}", printing.set_code, printing.number)
}

/// The line as the deck wrote it, for a card not identified.
fn as_written(decks: &[&CheckedDeck], line: &LineNeed) -> String {
    decks
        .get(line.deck)
        .and_then(|deck| deck.cards.get(line.card))
        .map(|card| visible(&card.line.name).into_owned())
        .unwrap_or_default()
}

/// How many errors of a deck the table shows under its verdict; `deckbox check` shows all.
const MAX_VERDICT_ERRORS: usize = 10;

/// The deck's own verdict, as `deckbox check` says it, and its errors one short line each:
/// what `need` says first about a deck, before what it lacks.
fn verdict(deck: &CheckedDeck) -> String {
    let mut out = super::summary(deck) + "\n";
    let errors: Vec<_> = deck
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .collect();
    for diagnostic in errors.iter().take(MAX_VERDICT_ERRORS) {
        out.push_str(&format!("  {}\n", super::short_line(deck, diagnostic)));
    }
    if let Some(hidden) = errors.len().checked_sub(MAX_VERDICT_ERRORS)
        && hidden > 0
    {
        out.push_str(&format!(
            "  ... and {hidden} more errors; `deckbox check` lists every one\n"
        ));
    }
    out
}

/// What the table says of a line whose printing the format does not allow: why, and what
/// the legal printing of the name would do.
fn not_to_get(unplayable: &Unplayable, db: &CardDb) -> String {
    let legal = unplayable.legal.and_then(|id| db.get(id));
    match legal {
        None => format!("{}; no printing of it is legal there", unplayable.reason),
        Some(other) if unplayable.differences.is_empty() => format!(
            "{}; {} is legal and the same card: get that printing",
            unplayable.reason,
            written(other)
        ),
        Some(other) => format!(
            "{}; {} is legal but another card by the reprint rule ({})",
            unplayable.reason,
            written(other),
            unplayable.differences.join(", ")
        ),
    }
}

/// Hundredths as `12.50`.
fn money(cents: u128) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The table: per deck, each line with its missing count, the card, and the owned copies
/// counted for it (`file:line`); then the totals (and the cost, with prices).
pub fn table(need: &Need, decks: &[&CheckedDeck], collection: &Collection, db: &CardDb) -> String {
    let mut out = String::new();
    for (index, deck) in decks.iter().enumerate() {
        out.push_str(&verdict(deck));
        out.push_str("  missing  card                               counted from the collection\n");
        for line in need.lines.iter().filter(|line| line.deck == index) {
            let card = match asked(decks, db, line) {
                Some(printing) => written(printing),
                None => format!("{} (not identified)", as_written(decks, line)),
            };
            let counted: Vec<String> = line
                .counted
                .iter()
                .filter_map(|counted| {
                    let owned = collection.owned.get(counted.owned)?;
                    let file = collection.files.get(owned.file)?;
                    let printing = db.get(owned.printing)?;
                    Some(format!(
                        "{} {} ({}:{})",
                        counted.count,
                        written(printing),
                        visible(&file.checked.path),
                        owned.line
                    ))
                })
                .collect();
            let counted = if counted.is_empty() {
                "-".to_string()
            } else {
                counted.join(", ")
            };
            match &line.unplayable {
                Some(unplayable) => {
                    let mut note = not_to_get(unplayable, db);
                    if !line.counted.is_empty() {
                        note.push_str(&format!("; owned: {counted}"));
                    }
                    out.push_str(&format!("  {:>7}  {card:<33}  {note}\n", "-"));
                }
                None => out.push_str(&format!("  {:>7}  {card:<33}  {counted}\n", line.missing)),
            }
        }
        let wanted: u64 = need
            .lines
            .iter()
            .filter(|line| line.deck == index)
            .map(|line| line.wanted)
            .sum();
        out.push_str(&format!(
            "  {} of {wanted} cards missing",
            need.missing_of(index)
        ));
        match need.not_legal_of(index) {
            0 => out.push_str("\n\n"),
            n => out.push_str(&format!(", {n} not legal (not counted as missing)\n\n")),
        }
    }
    let rule = if need.exact {
        "only the same printing counted (--exact-printing)"
    } else {
        "any printing the deck's format allows with the same name and text counted"
    };
    out.push_str(&format!(
        "{} cards missing in all; {rule}\n",
        need.missing()
    ));
    if need.not_legal() > 0 {
        out.push_str(&format!(
            "{} cards are not legal in their deck's format at its date: replace them; they are in no list of what to get\n",
            need.not_legal()
        ));
    }
    if let Some(currency) = &need.currency {
        let (cents, unpriced) = need.cost();
        out.push_str(&format!(
            "cost of what is missing: {} {currency}",
            money(cents)
        ));
        if unpriced > 0 {
            out.push_str(&format!(" ({unpriced} cards have no price)"));
        }
        out.push('\n');
    }
    out
}

/// Missing cards merged by the printing asked for, in the order first met: (printing or
/// the name as written, count).
fn merged<'a>(
    need: &Need,
    decks: &[&'a CheckedDeck],
    db: &'a CardDb,
) -> Vec<(Option<&'a Printing>, String, u64)> {
    let mut out: Vec<(Option<&Printing>, String, u64)> = Vec::new();
    for line in need.playable().filter(|line| line.missing > 0) {
        let printing = asked(decks, db, line);
        let key = match printing {
            Some(printing) => written(printing),
            None => as_written(decks, line),
        };
        match out.iter_mut().find(|(_, k, _)| *k == key) {
            Some(entry) => entry.2 += line.missing,
            None => out.push((printing, key, line.missing)),
        }
    }
    out
}

/// Deck-list lines of what is missing: `2 Dreepy TWM 128`.
pub fn list(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    merged(need, decks, db)
        .into_iter()
        .map(|(_, card, count)| format!("{count} {card}\n"))
        .collect()
}

/// TCGplayer mass entry: `2 Dreepy [TWM] 128`.
pub fn tcgplayer(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    merged(need, decks, db)
        .into_iter()
        .map(|(printing, card, count)| match printing {
            Some(p) => format!(
                "{count} {} [{}] {}\n",
                p.names.get(Language::En).unwrap_or(p.names.primary()),
                p.set_code,
                p.number
            ),
            None => format!("{count} {card}\n"),
        })
        .collect()
}

/// Cardmarket's wants list import: `2 Dreepy`, merged by name.
pub fn cardmarket(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> String {
    let mut out: Vec<(String, u64)> = Vec::new();
    for (printing, card, count) in merged(need, decks, db) {
        let name = match printing {
            Some(p) => p
                .names
                .get(Language::En)
                .unwrap_or(p.names.primary())
                .to_string(),
            None => card,
        };
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 += count,
            None => out.push((name, count)),
        }
    }
    out.into_iter()
        .map(|(name, count)| format!("{count} {name}\n"))
        .collect()
}

#[derive(Serialize)]
struct JsonNeed<'a> {
    buildable: bool,
    missing_count: u64,
    exact_printing: bool,
    missing: Vec<JsonMissing>,
    /// Deck lines whose printing their format does not allow: not in `missing`.
    not_legal: Vec<JsonNotLegal>,
    decks: Vec<JsonDeck<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<JsonCost>,
    collection: JsonCollection,
    /// Given a folder: each deck on its own against the whole collection.
    #[serde(skip_serializing_if = "Option::is_none")]
    each_deck: Option<Vec<JsonReadiness<'a>>>,
    /// Given a folder: the owned cards several decks would each use.
    #[serde(skip_serializing_if = "Option::is_none")]
    shared: Option<Vec<JsonShared<'a>>>,
}

#[derive(Serialize)]
struct JsonMissing {
    /// English name (the name as written when the card is not identified).
    name: String,
    count: u64,
    set: Option<String>,
    number: Option<String>,
}

#[derive(Serialize)]
struct JsonNotLegal {
    /// English name.
    name: String,
    count: u64,
    set: String,
    number: String,
    /// Why: `not legal in Standard on 2026-11-25: ...` or `banned in ...`.
    reason: String,
    /// A legal printing of the name, and whether it is the same card by the reprint rule.
    legal: Option<JsonLegal>,
}

#[derive(Serialize)]
struct JsonLegal {
    name: String,
    set: String,
    number: String,
    same_card: bool,
    /// What the reprint rule found different, when it is another card.
    differences: Vec<&'static str>,
}

#[derive(Serialize)]
struct JsonDeck<'a> {
    path: &'a str,
    format: &'a str,
    as_of: String,
    /// The deck's own verdict, as `deckbox check` gives it: no error finding.
    valid: bool,
    errors: usize,
    cards: u64,
    missing: u64,
    /// Cards of lines whose printing the format does not allow at `as_of`.
    not_legal: u64,
}

#[derive(Serialize)]
struct JsonCost {
    currency: String,
    /// The total as a decimal string (`12.50`), exact.
    amount: String,
    unpriced: u64,
}

#[derive(Serialize)]
struct JsonCollection {
    files: usize,
    cards: u64,
    /// Lines of the collection that could not be read or identified (on standard error).
    errors: usize,
    /// How each row (CSV) or card line (list) of each file was read.
    rows: Vec<JsonRow>,
}

#[derive(Serialize)]
struct JsonRow {
    file: String,
    #[serde(flatten)]
    row: crate::collection::rows::RowReading,
}

/// The lines whose printing their format does not allow, for JSON.
fn not_legal(need: &Need, decks: &[&CheckedDeck], db: &CardDb) -> Vec<JsonNotLegal> {
    need.lines
        .iter()
        .filter_map(|line| {
            let unplayable = line.unplayable.as_ref()?;
            let printing = asked(decks, db, line)?;
            let legal = unplayable.legal.and_then(|id| db.get(id));
            Some(JsonNotLegal {
                name: english(printing),
                count: line.wanted,
                set: printing.set_code.clone(),
                number: printing.number.clone(),
                reason: unplayable.reason.clone(),
                legal: legal.map(|other| JsonLegal {
                    name: english(other),
                    set: other.set_code.clone(),
                    number: other.number.clone(),
                    same_card: unplayable.differences.is_empty(),
                    differences: unplayable.differences.clone(),
                }),
            })
        })
        .collect()
}

/// The cost of what is missing, when prices were given.
fn json_cost(need: &Need) -> Option<JsonCost> {
    need.currency.as_ref().map(|currency| {
        let (cents, unpriced) = need.cost();
        JsonCost {
            currency: currency.clone(),
            amount: money(cents),
            unpriced,
        }
    })
}

/// A printing's English name (its first name when it has none).
fn english(printing: &Printing) -> String {
    printing
        .names
        .get(Language::En)
        .unwrap_or(printing.names.primary())
        .to_string()
}

/// One JSON document: `buildable`, `missing` (each with `name`, `count` and the printing
/// asked for), per deck counts, the cost with prices; given a folder (`each`), each deck
/// on its own as the table says it (`each_deck`) and the owned cards decks share
/// (`shared`).
pub fn json<'a>(
    need: &Need,
    decks: &[&'a CheckedDeck],
    collection: &'a Collection,
    db: &CardDb,
    each: Option<EachDeck<'_>>,
) -> Result<String, serde_json::Error> {
    let missing = merged(need, decks, db)
        .into_iter()
        .map(|(printing, card, count)| match printing {
            Some(p) => JsonMissing {
                name: p
                    .names
                    .get(Language::En)
                    .unwrap_or(p.names.primary())
                    .to_string(),
                count,
                set: Some(p.set_code.clone()),
                number: Some(p.number.clone()),
            },
            None => JsonMissing {
                name: card,
                count,
                set: None,
                number: None,
            },
        })
        .collect();
    let deck_rows = decks
        .iter()
        .enumerate()
        .map(|(index, deck)| JsonDeck {
            path: &deck.path,
            format: &deck.format,
            as_of: deck.as_of.to_string(),
            valid: deck.valid(),
            errors: deck.count(Severity::Error),
            cards: deck.card_count(),
            missing: need.missing_of(index),
            not_legal: need.not_legal_of(index),
        })
        .collect();
    let cost = json_cost(need);
    let (each_deck, shared) = match each.map(|each| each_deck(each, decks, collection, db)) {
        Some((each, shared)) => (Some(each), Some(shared)),
        None => (None, None),
    };
    let document = JsonNeed {
        buildable: need.buildable(),
        missing_count: need.missing(),
        exact_printing: need.exact,
        missing,
        not_legal: not_legal(need, decks, db),
        decks: deck_rows,
        cost,
        each_deck,
        shared,
        collection: JsonCollection {
            files: collection.files.len(),
            cards: collection.card_count(),
            errors: collection.errors(),
            rows: collection
                .files
                .iter()
                .flat_map(|file| {
                    file.readings(db).into_iter().map(|row| JsonRow {
                        file: visible(&file.checked.path).into_owned(),
                        row,
                    })
                })
                .collect(),
        },
    };
    serde_json::to_string_pretty(&document).map(|text| text + "\n")
}

/// `need DIR --have`: each deck on its own (legal or not, buildable or how many cards it
/// lacks, their cost with prices), then the owned cards several decks would each use.
pub fn readiness(
    each: EachDeck<'_>,
    decks: &[&CheckedDeck],
    collection: &Collection,
    db: &CardDb,
) -> String {
    let (ready, shared) = each_deck(each, decks, collection, db);
    let mut out = String::from("deck\tverdict\tcollection\tcost\n");
    for deck in &ready {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            deck.path,
            deck.verdict(),
            deck.collection(),
            deck.cost_text()
        ));
    }
    if !shared.is_empty() {
        out.push_str("\nowned cards several decks would each use:\n");
    }
    for entry in &shared {
        out.push_str(&format!(
            "  {} {} ({}:{}): {}\n",
            entry.owned,
            entry.card(),
            entry.file,
            entry.line,
            entry.users()
        ));
    }
    out
}

/// The columns of [`readiness_csv`]: a `deck` row per deck, then a `shared` row per owned
/// card and deck that counts it; the JSON's `each_deck` and `shared` fields.
const READINESS_CSV: [&str; 16] = [
    "row",
    "deck",
    "legal",
    "buildable",
    "missing",
    "not_legal",
    "cost",
    "currency",
    "unpriced",
    "name",
    "set",
    "number",
    "file",
    "line",
    "owned",
    "count",
];

/// How many of [`READINESS_CSV`]'s columns, `row` to `unpriced`, a `deck` row fills.
const DECK_COLUMNS: usize = 9;

/// [`readiness`] as CSV (RFC 4180, CRLF, formulas defused as in every CSV deckbox writes):
/// one `deck` row per deck (`legal`, `buildable`, `missing`, `not_legal`, and with prices
/// `cost`, `currency`, `unpriced`), then one `shared` row per owned card and each deck that
/// would use it (`name`, `set`, `number`, the collection's `file` and `line`, how many are
/// `owned`, and the deck's `count`).
pub fn readiness_csv(
    each: EachDeck<'_>,
    decks: &[&CheckedDeck],
    collection: &Collection,
    db: &CardDb,
) -> String {
    let (ready, shared) = each_deck(each, decks, collection, db);
    let record = |cells: &[String]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|cell| super::event::csv_field(cell))
            .collect();
        format!("{}\r\n", cells.join(","))
    };
    let mut out = record(&READINESS_CSV.map(String::from));
    for deck in &ready {
        let (cost, currency, unpriced) = match &deck.cost {
            Some(cost) => (
                cost.amount.clone(),
                cost.currency.clone(),
                cost.unpriced.to_string(),
            ),
            None => Default::default(),
        };
        let mut cells = vec![
            "deck".to_string(),
            deck.path.to_string(),
            deck.legal.to_string(),
            deck.buildable.to_string(),
            deck.missing.to_string(),
            deck.not_legal.to_string(),
            cost,
            currency,
            unpriced,
        ];
        cells.resize(READINESS_CSV.len(), String::new());
        out.push_str(&record(&cells));
    }
    for entry in &shared {
        for user in &entry.decks {
            let mut cells = vec!["shared".to_string(), user.path.to_string()];
            // `legal` to `unpriced` are the deck rows' columns: empty here.
            cells.resize(DECK_COLUMNS, String::new());
            cells.extend([
                entry.name.clone(),
                entry.set.clone(),
                entry.number.clone(),
                entry.file.to_string(),
                entry.line.to_string(),
                entry.owned.to_string(),
                user.count.to_string(),
            ]);
            out.push_str(&record(&cells));
        }
    }
    out
}

/// [`readiness`] as Markdown: the table of decks (`deck`, `verdict`, `collection`, `cost`,
/// as the text table says them), then a table of the owned cards several decks would each
/// use. Every cell is escaped ([`crate::util::escape::markdown`]).
pub fn readiness_markdown(
    each: EachDeck<'_>,
    decks: &[&CheckedDeck],
    collection: &Collection,
    db: &CardDb,
) -> String {
    let (ready, shared) = each_deck(each, decks, collection, db);
    let row = |cells: &[&str]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|cell| crate::util::escape::markdown(cell))
            .collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out =
        String::from("| deck | verdict | collection | cost |\n| --- | --- | --- | --- |\n");
    for deck in &ready {
        out.push_str(&row(&[
            &deck.path,
            deck.verdict(),
            &deck.collection(),
            &deck.cost_text(),
        ]));
    }
    if !shared.is_empty() {
        out.push_str("\nOwned cards several decks would each use:\n\n");
        out.push_str("| owned | card | collection | decks |\n| --- | --- | --- | --- |\n");
    }
    for entry in &shared {
        out.push_str(&row(&[
            &entry.owned.to_string(),
            &entry.card(),
            &format!("{}:{}", entry.file, entry.line),
            &entry.users(),
        ]));
    }
    out
}

#[derive(Serialize)]
struct JsonReadiness<'a> {
    path: std::borrow::Cow<'a, str>,
    /// No finding of `check` is an error.
    legal: bool,
    /// Nothing missing and every line legal, from the whole collection for this deck alone.
    buildable: bool,
    missing: u64,
    not_legal: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<JsonCost>,
}

#[derive(Serialize)]
struct JsonShared<'a> {
    name: String,
    set: String,
    number: String,
    /// The collection's file and line, and how many it owns.
    file: std::borrow::Cow<'a, str>,
    line: usize,
    owned: u64,
    /// Each deck that counts it on its own, and how many copies.
    decks: Vec<JsonUser<'a>>,
}

#[derive(Serialize)]
struct JsonUser<'a> {
    path: std::borrow::Cow<'a, str>,
    count: u64,
}

impl JsonReadiness<'_> {
    /// `legal` or `illegal`, as the tables say it.
    fn verdict(&self) -> &'static str {
        if self.legal { "legal" } else { "illegal" }
    }

    /// `buildable`, `missing 5`, `2 not legal` or `missing 5, 2 not legal`.
    fn collection(&self) -> String {
        match (self.missing, self.not_legal) {
            (0, 0) => "buildable".to_string(),
            (missing, 0) => format!("missing {missing}"),
            (0, illegal) => format!("{illegal} not legal"),
            (missing, illegal) => format!("missing {missing}, {illegal} not legal"),
        }
    }

    /// What is missing costs (`7.80 USD (3 unpriced)`), or `-` without prices or when
    /// nothing is missing.
    fn cost_text(&self) -> String {
        match &self.cost {
            Some(cost) if self.missing > 0 => {
                let unpriced = if cost.unpriced > 0 {
                    format!(" ({} unpriced)", cost.unpriced)
                } else {
                    String::new()
                };
                format!("{} {}{unpriced}", cost.amount, cost.currency)
            }
            _ => "-".to_string(),
        }
    }
}

impl JsonShared<'_> {
    /// The owned printing as a list writes it: `Dreepy TWM 128`.
    fn card(&self) -> String {
        format!("{} {} {}", self.name, self.set, self.number)
    }

    /// The decks that would use it: `decks/a.txt (4), decks/b.txt (4)`.
    fn users(&self) -> String {
        let users: Vec<String> = self
            .decks
            .iter()
            .map(|user| format!("{} ({})", user.path, user.count))
            .collect();
        users.join(", ")
    }
}

/// A folder's decks each on its own (`need DIR --have --output json`), and the owned
/// cards several of them would each use, for [`json`].
pub type EachDeck<'a> = (
    &'a [crate::collection::need::Readiness],
    &'a [crate::collection::need::Shared],
);

/// `each_deck` and `shared` of [`json`]'s document, for a folder.
fn each_deck<'a>(
    (ready, shared): EachDeck<'_>,
    decks: &[&'a CheckedDeck],
    collection: &'a Collection,
    db: &CardDb,
) -> (Vec<JsonReadiness<'a>>, Vec<JsonShared<'a>>) {
    let path = |deck: usize| {
        decks
            .get(deck)
            .map(|checked| visible(&checked.path))
            .unwrap_or_default()
    };
    let each = ready
        .iter()
        .map(|deck| JsonReadiness {
            path: path(deck.deck),
            legal: deck.legal,
            buildable: deck.need.buildable(),
            missing: deck.need.missing(),
            not_legal: deck.need.not_legal(),
            cost: json_cost(&deck.need),
        })
        .collect();
    let shared = shared
        .iter()
        .filter_map(|entry| {
            let owned = collection.owned.get(entry.owned)?;
            let file = collection.files.get(owned.file)?;
            let printing = db.get(owned.printing)?;
            Some(JsonShared {
                name: english(printing),
                set: printing.set_code.clone(),
                number: printing.number.clone(),
                file: visible(&file.checked.path),
                line: owned.line,
                owned: owned.count,
                decks: entry
                    .decks
                    .iter()
                    .map(|&(deck, count)| JsonUser {
                        path: path(deck),
                        count,
                    })
                    .collect(),
            })
        })
        .collect();
    (each, shared)
}
