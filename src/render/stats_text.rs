//! Text and Markdown renderers of a [`Report`]: aligned tables for a terminal, GitHub tables
//! for a pull request or a wiki.
//!
//! Both show the same sections in the same order (mulligans, cards, queries, simulation) and
//! label the two families of numbers: *kept hand* (after mulligans, what the player holds)
//! and *single shuffle* (one plain shuffle, what web calculators print). Probabilities are
//! percentages with two decimals, expectations have three, so the output is stable. These
//! renderers compute nothing and print nothing.

use super::percent::{Small, points};
use crate::stats::compare::{Comparison, Pair, Variation};
use crate::stats::midgame::MidGameReport;
use crate::stats::{Estimate, EstimateKey, Estimates, Measure, Report, named_estimates};
use crate::util::escape::{self, visible_line};

/// A table: a header row and body rows, first column left-aligned, the others right-aligned.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// How a table is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Text,
    Markdown,
}

impl Style {
    /// `text` (card names, queries and file names among it) as this style shows it: on one
    /// line with invisible characters as `\u{...}` for a terminal, as literal Markdown for a
    /// document ([`crate::util::escape`]).
    fn shown(self, text: &str) -> String {
        match self {
            Style::Text => visible_line(text).into_owned(),
            Style::Markdown => escape::markdown(text),
        }
    }

    /// A page's or a section's title.
    fn title(self, title: &str) -> String {
        match self {
            Style::Text => format!("{}\n", self.shown(title)),
            Style::Markdown => format!("## {}\n\n", self.shown(title)),
        }
    }
}

/// The plain-text report.
pub fn text(report: &Report) -> String {
    render(report, Style::Text)
}

/// The Markdown report (GitHub tables).
pub fn markdown(report: &Report) -> String {
    render(report, Style::Markdown)
}

fn render(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let title = format!(
        "Opening-hand statistics: {} cards, {} Basic Pokémon",
        report.deck.cards, report.deck.basic_pokemon
    );
    out.push_str(&style.title(&title));
    out.push_str(&line(style, &rules_line(report)));
    section(&mut out, style, "Mulligans", &mulligan_table(report), &[]);
    let legend = [
        "Hand: kept hand, the hand kept after mulligans (it holds a Basic Pokémon)",
        "Hand (1 shuffle): single shuffle, ignoring mulligans (what most web calculators print)",
        "prized, E[prized] and T1..Tn (seen by your own turn n) are kept-hand values",
    ];
    section(&mut out, style, "Cards", &card_table(report), &legend);
    if !report.queries.is_empty() {
        let legend = ["Prizes: the query holds among the prize cards (kept hand)"];
        section(&mut out, style, "Queries", &query_table(report), &legend);
    }
    if !report.events.is_empty() {
        let legend = [
            "Each term counts the cards seen by the start of its own turn (by Tn), else the opening hand",
            "Exact: the kept-hand probability as a fraction of equally likely deals",
        ];
        section(&mut out, style, "Events", &event_table(report), &legend);
    }
    if let Some(distributions) = &report.distributions {
        let table = basics_table(&distributions.basics_in_kept_hand);
        section(
            &mut out,
            style,
            "Basic Pokémon in the kept hand",
            &table,
            &[],
        );
        let legend = [
            "P(exactly k copies); Hand (1 shuffle) is a single shuffle, the others kept-hand values",
        ];
        let table = exactly_table(report, distributions);
        section(&mut out, style, "Exactly k copies", &table, &legend);
    }
    if let Some(simulation) = &report.simulation {
        let heading = format!(
            "Simulation: {} setups, seed {}, {} threads (kept-hand estimates)",
            simulation.setups, simulation.seed, simulation.threads
        );
        let estimates = &simulation.estimates;
        let legend = [
            agreement(estimates),
            "Worst: the estimate of the row farthest from its exact value, in standard errors"
                .to_string(),
        ];
        let legend: Vec<&str> = legend.iter().map(String::as_str).collect();
        let table = simulated_cards(report, estimates);
        section(&mut out, style, &heading, &table, &legend);
        if !report.queries.is_empty() {
            let table = simulated_queries(report, estimates);
            section(&mut out, style, "Simulated queries", &table, &[]);
        }
        if !report.events.is_empty() {
            let table = simulated_events(report, estimates);
            section(&mut out, style, "Simulated events", &table, &[]);
        }
    }
    out
}

/// The `deckbox odds` report as text.
pub fn midgame_text(report: &MidGameReport) -> String {
    midgame(report, Style::Text)
}

/// The `deckbox odds` report as GitHub tables.
pub fn midgame_markdown(report: &MidGameReport) -> String {
    midgame(report, Style::Markdown)
}

fn midgame(report: &MidGameReport, style: Style) -> String {
    let back = if report.shuffled_back > 0 {
        format!(", {} shuffled back", report.shuffled_back)
    } else {
        String::new()
    };
    let title = format!(
        "Mid-game odds: {} cards, {} known, {} face-down prizes{back}",
        report.cards, report.known, report.prizes
    );
    let mut out = style.title(&title);
    if !report.seen.is_empty() {
        let seen: Vec<String> = report
            .seen
            .iter()
            .map(|card| match card.copies {
                1 => card.name.clone(),
                copies => format!("{copies} {}", card.name),
            })
            .collect();
        out.push_str(&line(style, &format!("Seen: {}", seen.join(", "))));
    }
    let draws = format!(
        "The next {} draw{} come from the {} cards of the deck",
        report.draws,
        if report.draws == 1 { "" } else { "s" },
        report.deck
    );
    out.push_str(&line(style, &draws));
    let mut header: Vec<String> = ["Card", "Unknown", "Back"].map(String::from).to_vec();
    header.push(format!("≥1 in next {}", report.draws));
    header.extend(["All unknown prized", "E[prized]"].map(String::from));
    let rows = report
        .per_card
        .iter()
        .map(|card| {
            vec![
                card.name.clone(),
                card.unknown.to_string(),
                card.shuffled_back.to_string(),
                percent(card.draw_at_least_one),
                if card.unknown == 0 {
                    "-".to_string()
                } else {
                    percent(card.prized_all)
                },
                number(card.prized_expected),
            ]
        })
        .collect();
    let legend = [
        "Unknown: copies not seen, in the deck or face down among the prizes; Back: shuffled back",
    ];
    section(&mut out, style, "Cards", &Table { header, rows }, &legend);
    if !report.queries.is_empty() {
        let header = ["Query", "Next draws", "Exact"].map(String::from).to_vec();
        let rows = report
            .queries
            .iter()
            .map(|query| {
                vec![
                    query.query.clone(),
                    percent(query.probability),
                    query.fraction.clone(),
                ]
            })
            .collect();
        section(&mut out, style, "Queries", &Table { header, rows }, &[]);
    }
    out
}

/// `stats A --compare B` as text or GitHub tables (`markdown`).
pub fn comparison(comparison: &Comparison, markdown: bool) -> String {
    let style = if markdown {
        Style::Markdown
    } else {
        Style::Text
    };
    let title = format!("Comparison: {} (A) and {} (B)", comparison.a, comparison.b);
    let mut out = style.title(&title);
    let summary = format!(
        "A: {} cards, {} Basic Pokémon; B: {} cards, {} Basic Pokémon; P(mulligan) {} → {} ({})",
        comparison.cards[0],
        comparison.basic_pokemon[0],
        comparison.cards[1],
        comparison.basic_pokemon[1],
        percent(comparison.mulligan.a),
        percent(comparison.mulligan.b),
        points(comparison.mulligan.difference)
    );
    out.push_str(&line(style, &summary));
    let last = comparison.per_card.first().map_or(0, |c| c.by_turn.len());
    let mut header: Vec<String> = ["Card", "Copies", "Hand A", "Hand B", "Δ"]
        .map(String::from)
        .to_vec();
    if last > 0 {
        header.extend([format!("T{last} A"), format!("T{last} B"), "Δ".to_string()]);
    }
    let rows = comparison
        .per_card
        .iter()
        .map(|card| {
            let mut row = vec![
                card.name.clone(),
                format!("{} → {}", card.copies[0], card.copies[1]),
            ];
            row.extend(pair_cells(&card.opening_hand));
            if let Some(turn) = card.by_turn.last() {
                row.extend(pair_cells(turn));
            }
            row
        })
        .collect();
    let legend = ["Kept-hand values; Δ: B − A in percentage points"];
    section(&mut out, style, "Cards", &Table { header, rows }, &legend);
    if !comparison.queries.is_empty() {
        let mut header: Vec<String> = ["Query", "Hand A", "Hand B", "Δ"]
            .map(String::from)
            .to_vec();
        if last > 0 {
            header.extend([format!("T{last} A"), format!("T{last} B"), "Δ".to_string()]);
        }
        let rows = comparison
            .queries
            .iter()
            .map(|query| {
                let mut row = vec![query.query.clone()];
                row.extend(pair_cells(&query.opening_hand));
                if let Some(turn) = query.by_turn.last() {
                    row.extend(pair_cells(turn));
                }
                row
            })
            .collect();
        section(&mut out, style, "Queries", &Table { header, rows }, &[]);
    }
    if !comparison.events.is_empty() {
        let header = ["Query", "A", "B", "Δ"].map(String::from).to_vec();
        let rows = comparison
            .events
            .iter()
            .map(|event| {
                let mut row = vec![event.query.clone()];
                row.extend(pair_cells(&event.probability));
                row
            })
            .collect();
        section(&mut out, style, "Events", &Table { header, rows }, &[]);
    }
    out
}

fn pair_cells(pair: &Pair) -> [String; 3] {
    [percent(pair.a), percent(pair.b), points(pair.difference)]
}

/// `stats --vary` as text or GitHub tables (`markdown`): one row per count.
pub fn variation(variation: &Variation, markdown: bool) -> String {
    let style = if markdown {
        Style::Markdown
    } else {
        Style::Text
    };
    let title = format!("{} traded against {}", variation.card, variation.against);
    let mut out = style.title(&title);
    let turns = variation.steps.first().map_or(0, |s| s.by_turn.len());
    let mut header = vec![
        variation.card.clone(),
        variation.against.clone(),
        "P(mulligan)".to_string(),
        format!("{} in hand", variation.card),
    ];
    header.extend(turn_headers(turns as u32));
    let rows = variation
        .steps
        .iter()
        .map(|step| {
            let mut row = vec![
                step.copies.to_string(),
                step.against_copies.to_string(),
                percent(step.mulligan),
                percent(step.opening_hand),
            ];
            row.extend(step.by_turn.iter().map(|p| percent(*p)));
            row
        })
        .collect();
    let legend = ["Kept-hand values; T1..Tn: the card seen by your own turn n"];
    section(&mut out, style, "Counts", &Table { header, rows }, &legend);
    let queries = variation.steps.first().map_or(0, |s| s.queries.len());
    for index in 0..queries {
        let name = variation
            .steps
            .first()
            .and_then(|s| s.queries.get(index))
            .map_or("", |q| q.query.as_str());
        let mut header = vec![
            variation.card.clone(),
            "Hand".to_string(),
            "Prizes".to_string(),
        ];
        header.extend(turn_headers(turns as u32));
        let rows = variation
            .steps
            .iter()
            .filter_map(|step| {
                let query = step.queries.get(index)?;
                let mut row = vec![
                    step.copies.to_string(),
                    percent(query.opening_hand),
                    percent(query.prizes),
                ];
                row.extend(query.by_turn.iter().map(|p| percent(*p)));
                Some(row)
            })
            .collect();
        section(
            &mut out,
            style,
            &format!("Query {name}"),
            &Table { header, rows },
            &[],
        );
    }
    let events = variation.steps.first().map_or(0, |s| s.events.len());
    if events > 0 {
        let mut header = vec![variation.card.clone()];
        if let Some(step) = variation.steps.first() {
            header.extend(step.events.iter().map(|e| e.query.clone()));
        }
        let rows = variation
            .steps
            .iter()
            .map(|step| {
                let mut row = vec![step.copies.to_string()];
                row.extend(step.events.iter().map(|e| percent(e.probability)));
                row
            })
            .collect();
        section(&mut out, style, "Events", &Table { header, rows }, &[]);
    }
    out
}

fn rules_line(report: &Report) -> String {
    let setup = &report.setup;
    let going = match setup.going {
        crate::formats::Going::First => "going first",
        crate::formats::Going::Second => "going second",
    };
    let draw = if setup.first_player_draws {
        "the first player draws on turn 1"
    } else {
        "the first player skips the turn-1 draw"
    };
    let supporter = match setup.first_turn_supporter {
        Some(true) => " and may play a Supporter",
        Some(false) => " but may not play a Supporter",
        None => "",
    };
    format!(
        "Rules: {}-card hand, {} prize cards, {going} ({draw}{supporter})",
        setup.hand_size, setup.prizes
    )
}

fn line(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{}\n", style.shown(text)),
        Style::Markdown => format!("{}\n\n", style.shown(text)),
    }
}

fn section(out: &mut String, style: Style, heading: &str, table: &Table, legend: &[&str]) {
    match style {
        Style::Text => {
            out.push_str(&format!("\n{}\n", style.shown(heading)));
            out.push_str(&draw_text(table));
            for note in legend {
                out.push_str(&format!("  {}\n", style.shown(note)));
            }
        }
        Style::Markdown => {
            out.push_str(&format!("### {}\n\n", style.shown(heading)));
            out.push_str(&draw_markdown(table));
            if !legend.is_empty() {
                out.push('\n');
                for note in legend {
                    out.push_str(&format!("- {}\n", style.shown(note)));
                }
            }
            out.push('\n');
        }
    }
}

fn mulligan_table(report: &Report) -> Table {
    let m = &report.mulligan;
    let mut rows = vec![
        vec!["P(mulligan)".to_string(), percent(m.probability)],
        vec![
            "Expected mulligans".to_string(),
            number(m.expected_mulligans),
        ],
    ];
    for (k, p) in m.distribution.iter().enumerate().take(4) {
        let plural = if k == 1 { "" } else { "s" };
        rows.push(vec![format!("Exactly {k} mulligan{plural}"), percent(*p)]);
    }
    Table {
        header: vec!["Mulligans".to_string(), "Value".to_string()],
        rows,
    }
}

fn turn_headers(turns: u32) -> impl Iterator<Item = String> {
    (1..=turns).map(|t| format!("T{t}"))
}

fn card_table(report: &Report) -> Table {
    let mut header: Vec<String> = [
        "Card",
        "Copies",
        "Basic",
        "Hand",
        "Hand (1 shuffle)",
        "≥1 prized",
        "All prized",
        "E[prized]",
    ]
    .map(String::from)
    .to_vec();
    header.extend(turn_headers(report.setup.turns).map(|t| t.to_string()));
    let rows = report
        .cards
        .iter()
        .map(|card| {
            let mut row = vec![
                card.label().to_string(),
                card.copies.to_string(),
                if card.basic { "yes" } else { "no" }.to_string(),
                percent(card.opening_hand),
                percent(card.opening_hand_single_shuffle),
                percent(card.prized_at_least_one),
                percent(card.prized_all),
                number(card.prized_expected),
            ];
            row.extend(card.by_turn.iter().map(|p| percent(*p)));
            row
        })
        .collect();
    Table { header, rows }
}

fn query_table(report: &Report) -> Table {
    let mut header: Vec<String> = ["Query", "Hand", "Hand (1 shuffle)", "Prizes"]
        .map(String::from)
        .to_vec();
    header.extend(turn_headers(report.setup.turns).map(|t| t.to_string()));
    let rows = report
        .queries
        .iter()
        .map(|query| {
            let mut row = vec![
                query.query.clone(),
                percent(query.opening_hand),
                percent(query.opening_hand_single_shuffle),
                percent(query.prizes),
            ];
            row.extend(query.by_turn.iter().map(|p| percent(*p)));
            row
        })
        .collect();
    Table { header, rows }
}

fn basics_table(distribution: &[f64]) -> Table {
    let mut header = vec!["Basic Pokémon".to_string()];
    header.extend((1..distribution.len()).map(|b| b.to_string()));
    let mut row = vec!["Kept hand".to_string()];
    row.extend(distribution.iter().skip(1).map(|p| percent(*p)));
    Table {
        header,
        rows: vec![row],
    }
}

fn exactly_table(report: &Report, distributions: &crate::stats::Distributions) -> Table {
    let mut header: Vec<String> = ["Card", "k", "Hand", "Hand (1 shuffle)", "Prizes"]
        .map(String::from)
        .to_vec();
    header.extend(turn_headers(report.setup.turns));
    let mut rows = Vec::new();
    for (card, stats) in distributions.cards.iter().zip(&report.cards) {
        for k in 0..card.opening_hand.len() {
            let at = |values: &[f64]| percent(values.get(k).copied().unwrap_or(0.0));
            let mut row = vec![
                if k == 0 {
                    stats.label().into_owned()
                } else {
                    String::new()
                },
                k.to_string(),
                at(&card.opening_hand),
                at(&card.opening_hand_single_shuffle),
                at(&card.prizes),
            ];
            row.extend(card.by_turn.iter().map(|turn| at(turn)));
            rows.push(row);
        }
    }
    Table { header, rows }
}

fn event_table(report: &Report) -> Table {
    let header = ["Query", "Kept hand", "1 shuffle", "Exact"]
        .map(String::from)
        .to_vec();
    let rows = report
        .events
        .iter()
        .map(|event| {
            vec![
                event.query.clone(),
                percent(event.probability),
                percent(event.probability_single_shuffle),
                event.fraction.clone(),
            ]
        })
        .collect();
    Table { header, rows }
}

/// The simulated events beside their exact values.
fn simulated_events(report: &Report, estimates: &Estimates) -> Table {
    let header = ["Query", "Kept hand", "Worst"].map(String::from).to_vec();
    let rows = report
        .events
        .iter()
        .map(|event| {
            let keys = keys_of(&[Measure::Event], &event.query);
            simulated_row(&event.query, estimates, &keys, usize::MAX)
        })
        .collect();
    Table { header, rows }
}

/// The simulated card figures in the layout of the card table, plus the mulligan rate: one
/// row per card rather than one per estimate, so a 30-card deck stays one screen.
fn simulated_cards(report: &Report, estimates: &Estimates) -> Table {
    let mut header: Vec<String> = ["Card", "Hand", "≥1 prized", "All prized", "E[prized]"]
        .map(String::from)
        .to_vec();
    header.extend(turn_headers(report.setup.turns));
    header.push("Worst".to_string());
    let mut mulligans = vec!["P(mulligan), E[mulligans]".to_string()];
    let keys = [Measure::Mulligan, Measure::ExpectedMulligans].map(EstimateKey::deck);
    mulligans.push(cell(estimates, &keys[0], percent));
    mulligans.extend(std::iter::repeat_n(String::new(), 2));
    mulligans.push(cell(estimates, &keys[1], number));
    mulligans.extend((0..report.setup.turns).map(|_| String::new()));
    mulligans.push(worst(estimates, &keys));
    let mut rows = vec![mulligans];
    for card in &report.cards {
        let mut measures = vec![
            Measure::OpeningHand,
            Measure::PrizedAtLeastOne,
            Measure::PrizedAll,
            Measure::PrizedExpected,
        ];
        measures.extend((1..=report.setup.turns).map(Measure::ByTurn));
        let keys = keys_of(&measures, &card.name);
        rows.push(simulated_row(&card.label(), estimates, &keys, 3));
    }
    Table { header, rows }
}

/// The simulated `--want` figures in the layout of the query table.
fn simulated_queries(report: &Report, estimates: &Estimates) -> Table {
    let mut header: Vec<String> = ["Query", "Hand", "Prizes"].map(String::from).to_vec();
    header.extend(turn_headers(report.setup.turns));
    header.push("Worst".to_string());
    let rows = report
        .queries
        .iter()
        .map(|query| {
            let mut measures = vec![Measure::QueryOpeningHand, Measure::QueryPrizes];
            measures.extend((1..=report.setup.turns).map(Measure::QueryByTurn));
            let keys = keys_of(&measures, &query.query);
            simulated_row(&query.query, estimates, &keys, usize::MAX)
        })
        .collect();
    Table { header, rows }
}

/// The keys of `measures` of one card or query.
fn keys_of(measures: &[Measure], subject: &str) -> Vec<EstimateKey> {
    let key = |measure: &Measure| EstimateKey::of(*measure, subject);
    measures.iter().map(key).collect()
}

/// A row: the label, each key's simulated value (the key at `expectation` is a count, the
/// others probabilities), and the worst deviation among them.
fn simulated_row(
    label: &str,
    estimates: &Estimates,
    keys: &[EstimateKey],
    expectation: usize,
) -> Vec<String> {
    let mut row = vec![label.to_string()];
    for (index, key) in keys.iter().enumerate() {
        let show = if index == expectation {
            number
        } else {
            percent
        };
        row.push(cell(estimates, key, show));
    }
    row.push(worst(estimates, keys));
    row
}

/// A simulated value, or `-` when the simulation did not estimate it.
fn cell(estimates: &Estimates, key: &EstimateKey, show: fn(f64) -> String) -> String {
    estimates
        .get(key)
        .map_or_else(|| "-".to_string(), |e| show(e.estimate))
}

/// How far an estimate is from its exact value, in standard errors (`None` without spread).
fn sigmas(e: &Estimate) -> Option<f64> {
    (e.standard_error > 0.0).then(|| (e.estimate - e.exact) / e.standard_error)
}

/// The signed deviation of the estimate among `keys` farthest from its exact value.
fn worst(estimates: &Estimates, keys: &[EstimateKey]) -> String {
    keys.iter()
        .filter_map(|key| sigmas(estimates.get(key)?))
        .max_by(|a, b| a.abs().total_cmp(&b.abs()))
        .map_or_else(|| "-".to_string(), |s| format!("{s:+.2} SE"))
}

/// One sentence on how well the whole simulation agrees with the exact values.
fn agreement(estimates: &Estimates) -> String {
    // In the order of the keys' text, as `--output json` lists them.
    let farthest = named_estimates(estimates)
        .into_iter()
        .filter_map(|(key, e)| Some((key, sigmas(e)?)))
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()));
    match farthest {
        Some((key, s)) => format!(
            "{} estimates, all within {:.2} standard errors of the exact kept-hand values \
             (farthest: {key}, {s:+.2}); `--output json` lists each with its standard error",
            estimates.len(),
            s.abs()
        ),
        None => format!("{} estimates", estimates.len()),
    }
}

/// The line for standard error when a deck whose statistics are shown breaks `broken`
/// construction rules (nothing when it breaks none); `path` is the deck's.
pub fn broken_note(broken: usize, path: &str) -> String {
    if broken == 0 {
        return String::new();
    }
    let rules = if broken == 1 { "rule" } else { "rules" };
    format!(
        "note: the deck breaks {broken} {rules}; `deckbox check {}` for details\n",
        visible_line(path)
    )
}

/// A probability as a percentage; tiny non-zero values say so rather than round to zero.
fn percent(p: f64) -> String {
    super::percent::percent(p, 2, Small::Below)
}

fn number(x: f64) -> String {
    format!("{x:.3}")
}

fn width(cell: &str) -> usize {
    cell.chars().count()
}

fn draw_text(table: &Table) -> String {
    let shown = |row: &Vec<String>| -> Vec<String> {
        row.iter().map(|cell| Style::Text.shown(cell)).collect()
    };
    let table = Table {
        header: shown(&table.header),
        rows: table.rows.iter().map(shown).collect(),
    };
    let columns = table.header.len();
    let mut widths: Vec<usize> = table.header.iter().map(|h| width(h)).collect();
    for row in &table.rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&table.header).chain(&table.rows) {
        let mut text = String::from(" ");
        for (index, (cell, w)) in row.iter().zip(&widths).enumerate().take(columns) {
            let pad = " ".repeat(w.saturating_sub(width(cell)));
            if index == 0 {
                text.push_str(&format!(" {cell}{pad}"));
            } else {
                text.push_str(&format!("  {pad}{cell}"));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

fn draw_markdown(table: &Table) -> String {
    let row = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| escape::markdown(c)).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out = row(&table.header);
    let rule: Vec<&str> = (0..table.header.len())
        .map(|i| if i == 0 { ":---" } else { "---:" })
        .collect();
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for body in &table.rows {
        out.push_str(&row(body));
    }
    out
}
