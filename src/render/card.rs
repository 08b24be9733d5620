//! `deckbox card`: every printing of a card and its legality in each format, as text for
//! an 80-column terminal or as one JSON document.
//!
//! [`CardReport::new`] judges every printing in every format once; [`text`] and [`json`]
//! render that same value. The JSON layout is a contract (see the README): keys are only
//! ever added. Nothing here prints.

use std::fmt::Write;

use serde::Serialize;

use super::card_text::{DetailsEntry, GLUE, details_entry, glued, wrap};
use crate::cards::identification::lookup::{Card, Lookup, MatchedBy};
use crate::cards::{CardDb, Category, EnergyKind, Names, Printing, PrintingId, Stage, TrainerKind};
use crate::formats::history::{Period, legal_periods};
use crate::formats::legality::{Verdict, judge_each};
use crate::formats::{Ban, Format};
use crate::names::lang::Language;
// Every value shown here is one line of a card page: line breaks in a dataset are escaped too.
pub(super) use super::card_text::visible;

/// What `deckbox card` found for a query, judged in every format given.
#[derive(Debug, Clone, Serialize)]
pub struct CardReport {
    /// Version of this layout.
    pub version: u32,
    pub query: String,
    /// `set-number`, `name` or `id`; `null` when no card matched.
    pub matched_by: Option<&'static str>,
    /// The language of the printings' texts (`details`), where the database has it; else
    /// they are in English.
    pub language: Language,
    pub cards: Vec<CardEntry>,
    /// For an unknown query, the nearest card names, best first.
    pub suggestions: Vec<String>,
}

/// One card: every printing with one rules name.
#[derive(Debug, Clone, Serialize)]
pub struct CardEntry {
    /// The name as the rules compare it.
    pub name: String,
    /// Facts of the newest printing.
    pub category: Category,
    pub stage: Option<Stage>,
    pub evolves_from: Option<String>,
    pub types: Vec<String>,
    pub trainer: Option<TrainerKind>,
    pub energy: Option<EnergyKind>,
    /// For a name query, the languages in which the query is this card's name.
    pub matched_languages: Vec<Language>,
    /// Oldest first.
    pub printings: Vec<PrintingEntry>,
    pub formats: Vec<FormatEntry>,
    /// For each format with seasons (Standard, Expanded): when each printing was legal.
    pub history: Vec<HistoryEntry>,
    /// The Black Star promos among the printings, by label: the card data dates them by
    /// their promo series' first day (release date of each promo unknown), and `history`
    /// counts them from it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dated_by_series: Vec<String>,
}

/// When a card's printings were legal in one format, up to the date judged.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryEntry {
    pub format: String,
    /// Printings with the same periods share an entry, in the card's printing order;
    /// printings never legal are left out.
    pub printings: Vec<PeriodsEntry>,
}

/// The periods some printings were legal in.
#[derive(Debug, Clone, Serialize)]
pub struct PeriodsEntry {
    /// `TWM 128` labels.
    pub printings: Vec<String>,
    pub periods: Vec<Period>,
}

/// One printing of a card.
#[derive(Debug, Clone, Serialize)]
pub struct PrintingEntry {
    /// Set code as deck lists print it; empty when the set has none.
    pub set: String,
    pub number: String,
    pub set_id: String,
    /// `YYYY-MM-DD`, or empty when unknown.
    pub released: String,
    pub series: String,
    pub regulation_mark: Option<String>,
    /// The printing's own types (a Pokémon's `Psychic`, a Delta Species' `Fire`, `Metal`):
    /// printings of one name may differ.
    pub types: Vec<String>,
    /// ACE SPEC, Radiant, Prism Star, Pokémon Star, then the Rule Box and name mechanics
    /// (`ex`, `V`, `TAG TEAM`, ...).
    pub rules: Vec<&'static str>,
    pub names: NamesEntry,
    /// What the printing says (HP, attacks, abilities, rules text, illustrator, rarity) in
    /// the report's `language`; `null` when the card database gives none.
    pub details: Option<DetailsEntry>,
    /// The query named this printing itself (its set code and number, or its name).
    pub matched: bool,
    /// `TWM 128`, or `sv06-128` for a set without a code.
    #[serde(skip)]
    pub label: String,
}

/// A printing's name in each language it has one in.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NamesEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub en: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub es: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub de: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub it: Option<String>,
}

/// What one format says about a card.
#[derive(Debug, Clone, Serialize)]
pub struct FormatEntry {
    pub id: String,
    pub name: String,
    /// The date the verdicts hold on (`YYYY-MM-DD`).
    pub as_of: String,
    /// At least one printing is legal (itself or by the reprint rule).
    pub legal: bool,
    /// One verdict per printing, in the order of the card's `printings`.
    pub printings: Vec<VerdictEntry>,
    /// Deck rules of the format that keep the card out of any deck (GLC: no ACE SPEC).
    pub notes: Vec<String>,
}

/// What a format says about one printing.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictEntry {
    pub set: String,
    pub number: String,
    /// `legal`, `legal-as-reprint`, `reprint-undecided` (the card data lacks the text to
    /// compare with `alternative`), `banned` or `not-legal`.
    pub verdict: &'static str,
    /// Why a printing is not legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The legal printing with the same name and text that makes this one legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reprint_of: Option<PrintingRef>,
    /// A legal printing of the same name whose text differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<PrintingRef>,
    /// What the reprint rule found different from `alternative` (`different effect text`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ban: Option<BanEntry>,
    #[serde(skip)]
    label: String,
}

/// A printing named by another entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrintingRef {
    pub set: String,
    pub number: String,
    #[serde(skip)]
    label: String,
}

/// The ban-list entry that bans a printing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BanEntry {
    pub name: String,
    pub source: String,
    pub date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl CardReport {
    /// Judges every printing the lookup found in each of `formats`, with its text in
    /// `language` (else English).
    pub fn new(
        query: &str,
        lookup: &Lookup,
        db: &CardDb,
        formats: &[Format],
        language: Language,
    ) -> CardReport {
        let (matched_by, cards, suggestions) = match lookup {
            Lookup::Found { by, cards } => (
                Some(by.as_str()),
                cards
                    .iter()
                    .filter_map(|card| card_entry(card, db, formats, language))
                    .collect(),
                Vec::new(),
            ),
            Lookup::Unknown { suggestions } => (None, Vec::new(), suggestions.clone()),
        };
        CardReport {
            version: 1,
            query: query.to_string(),
            matched_by,
            language,
            cards,
            suggestions,
        }
    }
}

fn card_entry(
    card: &Card,
    db: &CardDb,
    formats: &[Format],
    language: Language,
) -> Option<CardEntry> {
    let printings: Vec<(PrintingId, &Printing)> = card
        .printings
        .iter()
        .filter_map(|&id| Some((id, db.get(id)?)))
        .collect();
    let (_, newest) = *printings.last()?;
    let entries = printings
        .iter()
        .map(|&(id, printing)| {
            let mut entry = printing_entry(printing, card.matched.contains(&id));
            entry.details = db.details(id).map(|d| details_entry(d, language));
            entry
        })
        .collect();
    let judged = formats
        .iter()
        .map(|format| format_entry(format, db, &printings))
        .collect();
    let ids: Vec<PrintingId> = printings.iter().map(|(id, _)| *id).collect();
    let history = formats
        .iter()
        .filter(|format| !format.seasons.is_empty())
        .map(|format| history_entry(format, db, &ids, &printings))
        .collect();
    Some(CardEntry {
        name: card.name.clone(),
        category: newest.category,
        stage: newest.stage,
        evolves_from: newest.evolves_from.clone(),
        types: newest.types.clone(),
        trainer: newest.trainer,
        energy: newest.energy,
        matched_languages: card.languages.clone(),
        printings: entries,
        formats: judged,
        dated_by_series: (printings.iter())
            .filter(|(_, p)| crate::cards::model::set_id::is_promo_set(&p.set_id))
            .map(|(_, p)| label(p))
            .collect(),
        history,
    })
}

fn history_entry(
    format: &Format,
    db: &CardDb,
    ids: &[PrintingId],
    printings: &[(PrintingId, &Printing)],
) -> HistoryEntry {
    let mut grouped: Vec<PeriodsEntry> = Vec::new();
    let periods = legal_periods(format, db, ids);
    for ((_, printing), periods) in printings.iter().zip(periods) {
        if periods.is_empty() {
            continue;
        }
        match grouped.iter_mut().find(|entry| entry.periods == periods) {
            Some(entry) => entry.printings.push(label(printing)),
            None => grouped.push(PeriodsEntry {
                printings: vec![label(printing)],
                periods,
            }),
        }
    }
    HistoryEntry {
        format: format.id.clone(),
        printings: grouped,
    }
}

/// `TWM 128`; `sv06-128` (the database id) for a set without a printed code.
pub(crate) fn label(printing: &Printing) -> String {
    label_of(&printing.set_code, &printing.set_id, &printing.number)
}

/// [`label`] of a printing's set code, TCGdex set id and number (a printing read in place
/// gives them borrowed).
pub(crate) fn label_of(set_code: &str, set_id: &str, number: &str) -> String {
    if set_code.is_empty() {
        format!("{set_id}-{number}")
    } else {
        format!("{set_code} {number}")
    }
}

fn reference(printing: &Printing) -> PrintingRef {
    PrintingRef {
        set: printing.set_code.clone(),
        number: printing.number.clone(),
        label: label(printing),
    }
}

pub(crate) fn printing_entry(printing: &Printing, matched: bool) -> PrintingEntry {
    PrintingEntry {
        set: printing.set_code.clone(),
        number: printing.number.clone(),
        set_id: printing.set_id.clone(),
        released: printing.release_date.clone(),
        series: printing.series.clone(),
        regulation_mark: printing.regulation_mark.map(String::from),
        types: printing.types.clone(),
        rules: printing.rule_tags(),
        names: names_entry(&printing.names),
        details: None,
        matched,
        label: label(printing),
    }
}

fn names_entry(names: &Names) -> NamesEntry {
    let get = |language| names.get(language).map(str::to_string);
    NamesEntry {
        en: get(Language::En),
        fr: get(Language::Fr),
        es: get(Language::Es),
        pt: get(Language::Pt),
        de: get(Language::De),
        it: get(Language::It),
    }
}

fn format_entry(
    format: &Format,
    db: &CardDb,
    printings: &[(PrintingId, &Printing)],
) -> FormatEntry {
    let each: Vec<&Printing> = printings.iter().map(|(_, printing)| *printing).collect();
    let verdicts: Vec<VerdictEntry> = (judge_each(format, db, &each).into_iter())
        .zip(&each)
        .map(|(verdict, printing)| verdict_entry(verdict, db, printing))
        .collect();
    let legal = verdicts
        .iter()
        .any(|v| matches!(v.verdict, "legal" | "legal-as-reprint"));
    let notes = printings
        .last()
        .map(|(_, newest)| deck_rule_notes(format, newest))
        .unwrap_or_default();
    FormatEntry {
        id: format.id.clone(),
        name: format.name.clone(),
        as_of: format.date.to_string(),
        legal,
        printings: verdicts,
        notes,
    }
}

fn verdict_entry(verdict: Verdict<'_>, db: &CardDb, printing: &Printing) -> VerdictEntry {
    let mut entry = VerdictEntry {
        set: printing.set_code.clone(),
        number: printing.number.clone(),
        verdict: "legal",
        reason: None,
        reprint_of: None,
        alternative: None,
        differences: Vec::new(),
        ban: None,
        label: label(printing),
    };
    match verdict {
        Verdict::Legal => {}
        Verdict::LegalAsReprint(id) => {
            entry.verdict = "legal-as-reprint";
            entry.reprint_of = db.get(id).map(reference);
        }
        Verdict::Undecided { reason, legal } => {
            entry.verdict = "reprint-undecided";
            entry.reason = Some(reason);
            entry.alternative = db.get(legal).map(reference);
            entry.differences = vec![crate::formats::reprint::Difference::MissingText.describe()];
        }
        Verdict::Banned(ban) => {
            entry.verdict = "banned";
            entry.ban = Some(ban_entry(ban));
        }
        Verdict::NotLegal {
            reason,
            alternative,
            differences,
        } => {
            entry.verdict = "not-legal";
            entry.reason = Some(reason);
            entry.alternative = alternative.and_then(|id| db.get(id)).map(reference);
            entry.differences = differences.iter().map(|d| d.describe()).collect();
        }
    }
    entry
}

fn ban_entry(ban: &Ban) -> BanEntry {
    BanEntry {
        name: ban.name.clone(),
        source: ban.source.clone(),
        date: ban.date.to_string(),
        note: ban.note.clone(),
    }
}

/// The format's deck rules that no deck holding this card can meet, whatever its pool says.
fn deck_rule_notes(format: &Format, printing: &Printing) -> Vec<String> {
    let c = &format.construction;
    let limits = [
        (
            printing.ace_spec && c.ace_spec_limit == Some(0),
            "ACE SPEC cards",
        ),
        (
            printing.radiant && c.radiant_limit == Some(0),
            "Radiant Pokémon",
        ),
        (
            printing.prism_star && c.prism_star_copies == Some(0),
            "Prism Star cards",
        ),
        (
            printing.pokemon_star && c.pokemon_star_limit == Some(0),
            "Pokémon Star cards",
        ),
        (
            printing.has_rule_box() && !c.rule_box_allowed,
            "Rule Box cards",
        ),
    ];
    limits
        .into_iter()
        .filter(|(applies, _)| *applies)
        .map(|(_, what)| format!("its decks may not hold {what}"))
        .collect()
}

/// One JSON document, pretty-printed and newline-terminated.
pub fn json(report: &CardReport) -> String {
    let mut out = serde_json::to_string_pretty(report).unwrap_or_default();
    out.push('\n');
    out
}

/// The message for a query no card matches, with the nearest names.
pub fn unknown(report: &CardReport, hint: Option<&str>) -> String {
    let mut out = format!("error: unknown card '{}'\n", visible(&report.query));
    let quoted: Vec<String> = report
        .suggestions
        .iter()
        .map(|name| format!("'{}'", visible(name)))
        .collect();
    match quoted.as_slice() {
        [] => {
            out.push_str("help: check the spelling of the name, or the set code and number");
            if let Some(hint) = hint {
                let _ = write!(out, "; {hint}");
            }
            out.push('\n');
        }
        many => {
            let _ = writeln!(out, "help: did you mean {}?", many.join(", "));
        }
    }
    out
}

/// Every card found, for a terminal: its kind and names, a table of printings, then one
/// paragraph per format.
pub fn text(report: &CardReport) -> String {
    let mut out = String::new();
    if report.cards.len() > 1 {
        let _ = writeln!(
            out,
            "'{}' names {} cards.\n",
            visible(&report.query),
            report.cards.len()
        );
    }
    // A name query names most printings of a card: only a set code and number (or an id)
    // points at one printing worth marking.
    let mark = report.matched_by != Some(MatchedBy::Name.as_str());
    for (index, card) in report.cards.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        card_text(&mut out, card, mark);
    }
    out
}

fn card_text(out: &mut String, card: &CardEntry, mark: bool) {
    let _ = writeln!(out, "{} ({})", visible(&card.name), kind(card));
    names_text(out, card);
    out.push('\n');
    printings_text(out, card, mark);
    let texts: Vec<(&str, &DetailsEntry)> = (card.printings.iter())
        .filter_map(|p| Some((p.label.as_str(), p.details.as_ref()?)))
        .collect();
    super::card_text::text(out, &texts);
    out.push('\n');
    let date = card.formats.first().map(|f| f.as_of.as_str()).unwrap_or("");
    let _ = writeln!(out, "Legality as of {date}");
    let width = card.formats.iter().map(|f| f.id.len()).max().unwrap_or(0) + 2;
    for format in &card.formats {
        format_text(out, format, width);
    }
    if !card.history.is_empty() {
        let _ = writeln!(out, "\nLegal through time (up to {date})");
        for entry in &card.history {
            history_text(out, entry, width);
        }
        if !card.dated_by_series.is_empty() {
            let line = format!(
                "release date of these promos unknown: judged from their series' first day: {}",
                card.dated_by_series.join(", ")
            );
            wrap(out, &format!("  {:<width$}", ""), width + 4, &line);
        }
    }
}

/// `  standard   TWM 128, PRE 71: 2024-06-07 – today`, a line per group of printings.
fn history_text(out: &mut String, entry: &HistoryEntry, width: usize) {
    if entry.printings.is_empty() {
        let _ = writeln!(out, "  {:<width$}never", entry.format);
        return;
    }
    for (n, group) in entry.printings.iter().enumerate() {
        let format = if n == 0 { entry.format.as_str() } else { "" };
        let periods: Vec<String> = group
            .periods
            .iter()
            .map(|period| match period.until {
                Some(until) => format!("{}{GLUE}–{GLUE}{until}", period.from),
                None => format!("{}{GLUE}–{GLUE}today", period.from),
            })
            .collect();
        let printings: Vec<String> = group.printings.iter().map(|p| glued(p)).collect();
        let line = format!("{}: {}", printings.join(", "), periods.join("; "));
        wrap(out, &format!("  {format:<width$}"), width + 4, &line);
    }
}

/// Whether the card's printings are not all of the same types (`Mewtwo` of Delta Species is
/// Fire and Metal, other Mewtwo are Psychic).
fn types_differ(card: &CardEntry) -> bool {
    card.printings
        .windows(2)
        .any(|pair| pair[0].types != pair[1].types)
}

/// `Stage 1 Pokémon, Dragon, evolves from Dreepy`, `Trainer: Supporter`, `Basic Energy`.
fn kind(card: &CardEntry) -> String {
    match card.category {
        Category::Pokemon => {
            let stage = card.stage.map_or("", |stage| stage.as_str());
            let mut out = format!("{stage} Pokémon").trim_start().to_string();
            // Printings of different types show theirs in the table, not here.
            if !types_differ(card) {
                for kind in &card.types {
                    let _ = write!(out, ", {}", visible(kind));
                }
            }
            if let Some(from) = &card.evolves_from {
                let _ = write!(out, ", evolves from {}", visible(from));
            }
            out
        }
        Category::Trainer => match card.trainer {
            Some(trainer) => format!("Trainer: {}", trainer.label()),
            None => "Trainer".to_string(),
        },
        Category::Energy => match card.energy {
            Some(EnergyKind::Basic) => "Basic Energy".to_string(),
            Some(EnergyKind::Special) => "Special Energy".to_string(),
            None => "Energy".to_string(),
        },
    }
}

/// Every name the card's printings carry, once each, one line per language; languages
/// that give the same names share a line (`en/es/pt/it  Dreepy`).
fn names_text(out: &mut String, card: &CardEntry) {
    let mut lines: Vec<(Vec<&str>, Vec<&str>)> = Vec::new();
    for language in Language::ALL {
        let mut seen: Vec<&str> = Vec::new();
        for printing in &card.printings {
            if let Some(name) = printing.names.get(language)
                && !seen.contains(&name)
            {
                seen.push(name);
            }
        }
        if seen.is_empty() {
            continue;
        }
        match lines.iter_mut().find(|(_, names)| *names == seen) {
            Some((languages, _)) => languages.push(language.code()),
            None => lines.push((vec![language.code()], seen)),
        }
    }
    let labels: Vec<String> = lines.iter().map(|(codes, _)| codes.join("/")).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    for (label, (_, names)) in labels.iter().zip(&lines) {
        let shown: Vec<String> = names.iter().map(|name| glued(name)).collect();
        // The dot stays with the name before it: a line never starts with one.
        let joined = shown.join(&format!("{GLUE}· "));
        wrap(out, &format!("  {label:<width$}  "), width + 4, &joined);
    }
}

impl NamesEntry {
    fn get(&self, language: Language) -> Option<&str> {
        match language {
            Language::En => self.en.as_deref(),
            Language::Fr => self.fr.as_deref(),
            Language::Es => self.es.as_deref(),
            Language::Pt => self.pt.as_deref(),
            Language::De => self.de.as_deref(),
            Language::It => self.it.as_deref(),
        }
    }
}

/// A table: printing, set id, release date, regulation mark, rule tags. The printing a set
/// code and number named is marked with an arrow.
fn printings_text(out: &mut String, card: &CardEntry, mark: bool) {
    let count = card.printings.len();
    let plural = if count == 1 { "" } else { "s" };
    let _ = writeln!(out, "{count} printing{plural}");
    let any_rules = card.printings.iter().any(|p| !p.rules.is_empty());
    let rules = if any_rules { "rules" } else { "" };
    let typed = types_differ(card);
    let mut header: Vec<String> = ["printing", "set id", "released", "mark", rules]
        .map(String::from)
        .to_vec();
    if typed {
        header.insert(1, "type".to_string());
    }
    let rows = card.printings.iter().map(|p| {
        let marker = if mark && p.matched { "→ " } else { "  " };
        let mut row = vec![
            visible(&p.label).into_owned(),
            visible(&p.set_id).into_owned(),
            match p.released.as_str() {
                "" => "?".to_string(),
                date => visible(date).into_owned(),
            },
            p.regulation_mark
                .as_deref()
                .map_or("-".to_string(), |mark| visible(mark).into_owned()),
            p.rules.join(", "),
        ];
        if typed {
            row.insert(1, visible(&p.types.join("/")).into_owned());
        }
        (marker, row)
    });
    let rows: Vec<(&str, Vec<String>)> = std::iter::once(("  ", header)).chain(rows).collect();
    let mut widths = vec![0usize; rows.first().map_or(0, |(_, row)| row.len())];
    for (_, row) in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for (marker, row) in &rows {
        let mut line = marker.to_string();
        for (cell, width) in row.iter().zip(&widths) {
            let pad = width.saturating_sub(cell.chars().count());
            let _ = write!(line, "{cell}{}  ", " ".repeat(pad));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// A format's verdicts, grouped: `legal`, `legal by the reprint rule`, `banned`, `not
/// legal`, each with its printings unless it covers them all.
fn format_text(out: &mut String, format: &FormatEntry, width: usize) {
    let lines = verdict_lines(&format.printings);
    let notes = format
        .notes
        .iter()
        .map(|note| format!("but {}", visible(note)));
    let mut first = true;
    for line in lines.into_iter().chain(notes) {
        let prefix = if first {
            format!("  {:<width$}", visible(&format.id))
        } else {
            " ".repeat(width + 2)
        };
        first = false;
        wrap(out, &prefix, width + 4, &line);
    }
}

/// Most distinct reasons shown for the printings that are not legal; past it (or when no
/// printing is legal and reasons differ), one line gives the newest printing's reason as
/// an example.
const MAX_REASONS: usize = 3;

fn verdict_lines(verdicts: &[VerdictEntry]) -> Vec<String> {
    let all = verdicts.len();
    let mut lines = Vec::new();
    let legal: Vec<&VerdictEntry> = verdicts.iter().filter(|v| v.verdict == "legal").collect();
    if !legal.is_empty() {
        lines.push(listed("legal", &legal, all, ""));
    }
    let reprints: Vec<&VerdictEntry> = verdicts
        .iter()
        .filter(|v| v.verdict == "legal-as-reprint")
        .collect();
    if !reprints.is_empty() {
        let targets = distinct(reprints.iter().filter_map(|v| v.reprint_of.as_ref()));
        let why = match targets.as_slice() {
            [one] => format!("same name and text as {}", glued(&one.label)),
            _ => "same name and text as a legal printing".to_string(),
        };
        lines.push(listed("legal by the reprint rule", &reprints, all, &why));
    }
    let undecided: Vec<&VerdictEntry> = verdicts
        .iter()
        .filter(|v| v.verdict == "reprint-undecided")
        .collect();
    if !undecided.is_empty() {
        let why = "no rules text in the card data to compare with a legal printing";
        lines.push(listed("undecided", &undecided, all, why));
    }
    for ban in distinct(verdicts.iter().filter_map(|v| v.ban.as_ref())) {
        let banned: Vec<&VerdictEntry> = verdicts
            .iter()
            .filter(|v| v.ban.as_ref() == Some(ban))
            .collect();
        let why = format!("since {}, {}", visible(&ban.date), visible(&ban.source));
        lines.push(listed("banned", &banned, all, &why));
    }
    let not_legal: Vec<&VerdictEntry> = verdicts
        .iter()
        .filter(|v| v.verdict == "not-legal")
        .collect();
    let reasons = distinct(not_legal.iter().filter_map(|v| v.reason.as_ref()));
    let example = not_legal.last().map_or(String::new(), |v| {
        let reason = v.reason.as_deref().unwrap_or_default();
        format!("e.g. {}: {}", glued(&v.label), visible(reason))
    });
    if reasons.len() > 1 && not_legal.len() == all {
        lines.push(format!("not legal, no printing is in the pool; {example}"));
    } else if reasons.len() > MAX_REASONS {
        lines.push(listed("not legal", &not_legal, all, &example));
    } else {
        for reason in reasons {
            let group: Vec<&VerdictEntry> = not_legal
                .iter()
                .copied()
                .filter(|v| v.reason.as_ref() == Some(reason))
                .collect();
            lines.push(listed("not legal", &group, all, &visible(reason)));
        }
    }
    lines
}

/// `legal`, `not legal: REASON` when `group` is every printing; else `legal: A, B — WHY`.
fn listed(verdict: &str, group: &[&VerdictEntry], all: usize, why: &str) -> String {
    if group.len() == all {
        return match why {
            "" => verdict.to_string(),
            why => format!("{verdict}: {why}"),
        };
    }
    let labels: Vec<String> = group.iter().map(|v| glued(&v.label)).collect();
    match why {
        "" => format!("{verdict}: {}", labels.join(", ")),
        why => format!("{verdict}: {} — {why}", labels.join(", ")),
    }
}

/// Each value once, in order of first appearance.
fn distinct<'a, T: PartialEq>(values: impl Iterator<Item = &'a T>) -> Vec<&'a T> {
    let mut out: Vec<&T> = Vec::new();
    for value in values {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::card_text::WIDTH;
    use super::*;

    #[test]
    fn wrap_keeps_to_the_width_with_a_hanging_indent() {
        let mut out = String::new();
        let words = vec!["TWM 128"; 20].join(", ");
        wrap(&mut out, "  standard   legal: ", 15, &words);
        for line in out.lines() {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        assert!(out.lines().nth(1).unwrap().starts_with(&" ".repeat(15)));
        assert!(!out.lines().nth(1).unwrap().starts_with(&" ".repeat(16)));
    }
}
