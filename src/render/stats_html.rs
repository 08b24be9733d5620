//! The `deckbox stats --output html` page: one self-contained HTML5 document for a
//! [`Report`], with inline CSS and inline SVG charts.
//!
//! The page needs no JavaScript and names no external resource (no font, no stylesheet, no
//! image URL), so it opens the same offline as online. Every text that comes from the deck
//! or the command line (card names, queries, simulation keys, the title) goes through
//! [`escape`]. The markup is also well-formed XML (void elements self-closed, attributes
//! quoted) so a plain XML parser can check it. Output is deterministic: fixed float
//! formatting, the report's own ordering, colours from a fixed palette. This module computes
//! nothing: every number comes from the report.

use super::percent::{Small, percent, points};
use crate::formats::Going;
use crate::stats::{CardStats, QueryStats, Report, Simulation, named_estimates};

/// Line colours, in order; the list repeats with a dashed stroke after the last one.
const PALETTE: [&str; 12] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#393b79", "#637939",
];

const CSS: &str = "\
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0; \
background: #fff; color: #1b1b1b; line-height: 1.45; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; border-bottom: 2px solid #e3e3e3; }
p.summary { color: #444; margin: 0 0 8px; }
.family { background: #f6f7f9; border-left: 4px solid #1f77b4; padding: 8px 12px; }
.family dt { font-weight: 600; }
.family dd { margin: 0 0 6px 16px; }
.figures { display: flex; gap: 32px; flex-wrap: wrap; align-items: baseline; }
.figure b { font-size: 1.5rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 8px 0; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e3e3e3; background: #fff; }
.scroll th:first-child, .scroll td:first-child { position: sticky; left: 0; z-index: 1; }
code { overflow-wrap: anywhere; }
th { background: #f0f2f5; text-align: center; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { text-align: left; white-space: nowrap; }
.ss { color: #666; font-style: italic; }
tbody tr:nth-child(even) td { background: #fafafa; }
svg.chart { display: block; max-width: 100%; height: auto; }
svg text { font-size: 12px; fill: #333; }
ul.legend { list-style: none; padding: 0; font-size: 0.85rem; max-width: 760px; }
ul.legend li { margin: 3px 0; }
.note { color: #555; font-size: 0.85rem; }
.kbar { display: inline-block; height: 9px; background: #1f77b4; vertical-align: middle; }
td.bar { text-align: left; width: 84px; }
@media (max-width: 600px) {
main { padding: 12px; }
.scroll td:first-child { white-space: normal; min-width: 6em; max-width: 40vw; overflow-wrap: break-word; }
}
";

/// Escapes text for HTML element content and quoted attribute values alike (markup and
/// invisible characters: [`crate::util::escape::html`]).
pub use crate::util::escape::html as escape;

/// The start of a page titled `title` (escaped here), through its `<h1>`.
fn page_head(title: &str) -> String {
    let title = escape(title);
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n");
    out.push_str("<meta charset=\"utf-8\" />\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n");
    out.push_str(&format!("<title>{title}</title>\n"));
    out.push_str(&format!(
        "<style>\n{CSS}</style>\n</head>\n<body>\n<main>\n"
    ));
    out.push_str(&format!("<h1>{title}</h1>\n"));
    out
}

/// A `<section>` with its heading (escaped here) and body (HTML).
fn html_section(heading: &str, body: &str) -> String {
    format!(
        "<section>\n<h2>{}</h2>\n{body}</section>\n",
        escape(heading)
    )
}

const PAGE_END: &str = "</main>\n</body>\n</html>\n";

/// A table: a header row (escaped here) and body rows of cells already HTML; the first
/// column a name, the others numbers.
fn html_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<div class=\"scroll\">\n<table>\n<thead>\n<tr>");
    for cell in header {
        out.push_str(&format!("<th>{}</th>", escape(cell)));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (index, cell) in row.iter().enumerate() {
            let class = if index == 0 { "name" } else { "num" };
            out.push_str(&format!("<td class=\"{class}\">{cell}</td>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    out
}

/// `deckbox odds` as a page.
pub fn midgame_page(report: &crate::stats::midgame::MidGameReport, title: &str) -> String {
    let mut out = page_head(title);
    out.push_str(&format!(
        "<p class=\"summary\">{} cards, {} known, {} face-down prizes, {} shuffled back: the \
         next {} draws come from the {} cards of the deck. Every value is exact.</p>\n",
        report.cards, report.known, report.prizes, report.shuffled_back, report.draws, report.deck
    ));
    // The answer a reader came for (the next draws) right after the card, in view on a
    // phone.
    let header: Vec<String> = [
        "card".to_string(),
        format!("≥1 in the next {}", report.draws),
        "unknown".to_string(),
        "shuffled back".to_string(),
        "every unknown copy prized".to_string(),
        "expected prized".to_string(),
    ]
    .to_vec();
    let rows: Vec<Vec<String>> = report
        .per_card
        .iter()
        .map(|card| {
            vec![
                escape(&card.name),
                pct(card.draw_at_least_one),
                card.unknown.to_string(),
                card.shuffled_back.to_string(),
                if card.unknown == 0 {
                    "–".to_string()
                } else {
                    pct(card.prized_all)
                },
                fixed(card.prized_expected, 3),
            ]
        })
        .collect();
    out.push_str(&html_section("Cards", &html_table(&header, &rows)));
    if !report.queries.is_empty() {
        let header = ["query", "next draws", "exact"].map(String::from).to_vec();
        let rows: Vec<Vec<String>> = report
            .queries
            .iter()
            .map(|q| {
                vec![
                    format!("<code>{}</code>", escape(&q.query)),
                    pct(q.probability),
                    escape(&q.fraction),
                ]
            })
            .collect();
        out.push_str(&html_section("Queries", &html_table(&header, &rows)));
    }
    out.push_str(PAGE_END);
    out
}

/// A page's title: the deck file's name.
pub fn page_title(file: &std::path::Path) -> String {
    file.file_name().map_or_else(
        || "deck".to_string(),
        |name| crate::util::escape::path(std::path::Path::new(name)),
    )
}

/// `stats A --compare B` as a page.
pub fn comparison_page(comparison: &crate::stats::compare::Comparison, title: &str) -> String {
    use crate::stats::compare::Pair;
    let cells = |pair: &Pair| [pct(pair.a), pct(pair.b), points(pair.difference)];
    let mut out = page_head(title);
    out.push_str(&format!(
        "<p class=\"summary\">A: {} ({} cards, {} Basic Pokémon). B: {} ({} cards, {} Basic \
         Pokémon). P(mulligan) {} → {}. Kept-hand values; Δ is B − A in percentage points.</p>\n",
        escape(&comparison.a),
        comparison.cards[0],
        comparison.basic_pokemon[0],
        escape(&comparison.b),
        comparison.cards[1],
        comparison.basic_pokemon[1],
        pct(comparison.mulligan.a),
        pct(comparison.mulligan.b)
    ));
    let last = comparison.per_card.first().map_or(0, |c| c.by_turn.len());
    let mut header: Vec<String> = ["card", "copies", "hand A", "hand B", "Δ"]
        .map(String::from)
        .to_vec();
    if last > 0 {
        header.extend([
            format!("turn {last} A"),
            format!("turn {last} B"),
            "Δ".to_string(),
        ]);
    }
    let rows: Vec<Vec<String>> = comparison
        .per_card
        .iter()
        .map(|card| {
            let mut row = vec![
                escape(&card.name),
                format!("{} → {}", card.copies[0], card.copies[1]),
            ];
            row.extend(cells(&card.opening_hand));
            if let Some(turn) = card.by_turn.last() {
                row.extend(cells(turn));
            }
            row
        })
        .collect();
    out.push_str(&html_section("Cards", &html_table(&header, &rows)));
    if !comparison.queries.is_empty() || !comparison.events.is_empty() {
        let header = ["query", "A", "B", "Δ"].map(String::from).to_vec();
        let mut rows: Vec<Vec<String>> = Vec::new();
        for query in &comparison.queries {
            let mut row = vec![format!(
                "<code>{}</code> (opening hand)",
                escape(&query.query)
            )];
            row.extend(cells(&query.opening_hand));
            rows.push(row);
        }
        for event in &comparison.events {
            let mut row = vec![format!("<code>{}</code>", escape(&event.query))];
            row.extend(cells(&event.probability));
            rows.push(row);
        }
        out.push_str(&html_section("Queries", &html_table(&header, &rows)));
    }
    out.push_str(PAGE_END);
    out
}

/// `stats --vary` as a page: the varied card in hand by count as bars, then every figure.
pub fn variation_page(variation: &crate::stats::compare::Variation, title: &str) -> String {
    let mut out = page_head(title);
    out.push_str(&format!(
        "<p class=\"summary\">{} traded against {}: the deck keeps its size. Kept-hand \
         values.</p>\n<section>\n<h2>{} in the opening hand</h2>\n",
        escape(&variation.card),
        escape(&variation.against),
        escape(&variation.card)
    ));
    let bars: Vec<(String, f64)> = variation
        .steps
        .iter()
        .map(|step| (step.copies.to_string(), step.opening_hand))
        .collect();
    let axis = format!("copies of {}", escape(&variation.card));
    let chart_title = format!("{} in the opening hand by copies", escape(&variation.card));
    out.push_str(&bar_chart(
        &bars,
        &Bars {
            title: &chart_title,
            axis: &axis,
            unit: "copies",
        },
    ));
    let turns = variation.steps.first().map_or(0, |s| s.by_turn.len());
    // The figure a reader came for (the card in hand) right after its count, in view on a
    // phone.
    let mut header = vec![
        variation.card.clone(),
        "in hand".to_string(),
        variation.against.clone(),
        "P(mulligan)".to_string(),
    ];
    header.extend((1..=turns).map(|t| format!("turn {t}")));
    let rows: Vec<Vec<String>> = variation
        .steps
        .iter()
        .map(|step| {
            let mut row = vec![
                step.copies.to_string(),
                pct(step.opening_hand),
                step.against_copies.to_string(),
                pct(step.mulligan),
            ];
            row.extend(step.by_turn.iter().map(|p| pct(*p)));
            row
        })
        .collect();
    out.push_str(&html_table(&header, &rows));
    out.push_str("</section>\n");
    let first = variation.steps.first();
    let names: Vec<String> = first
        .map(|s| {
            s.queries
                .iter()
                .map(|q| format!("{} (opening hand)", q.query))
                .chain(s.events.iter().map(|e| e.query.clone()))
                .collect()
        })
        .unwrap_or_default();
    if !names.is_empty() {
        let mut header = vec![variation.card.clone()];
        header.extend(names);
        let rows: Vec<Vec<String>> = variation
            .steps
            .iter()
            .map(|step| {
                let mut row = vec![step.copies.to_string()];
                row.extend(step.queries.iter().map(|q| pct(q.opening_hand)));
                row.extend(step.events.iter().map(|e| pct(e.probability)));
                row
            })
            .collect();
        out.push_str(&html_section("Queries", &html_table(&header, &rows)));
    }
    out.push_str(PAGE_END);
    out
}

/// The whole page for `report`, titled `title` (escaped here).
pub fn stats_page(report: &Report, title: &str) -> String {
    let mut out = page_head(title);
    out.push_str(&summary(report));
    out.push_str(&families());
    out.push_str(&mulligan_section(report));
    out.push_str(&cards_section(report));
    out.push_str(&curve_section(report));
    out.push_str(&queries_section(report));
    out.push_str(&distributions_section(report));
    if let Some(simulation) = &report.simulation {
        out.push_str(&simulation_section(simulation));
    }
    out.push_str(PAGE_END);
    out
}

/// The charts of [`stats_page`] alone, each in its `<section>` with its heading and legend:
/// the mulligans (P(mulligan) and the distribution's bars) and the curves of each card seen
/// by own turn. deckbox's web page draws them beside its own figures (docs/web.md).
pub fn charts(report: &Report) -> String {
    let mut out = mulligan_section(report);
    out.push_str(&curve_section(report));
    out
}

fn summary(report: &Report) -> String {
    let setup = &report.setup;
    let going = match setup.going {
        Going::First => "going first",
        Going::Second => "going second",
    };
    let draw = if setup.first_player_draws {
        "the player going first draws on turn 1"
    } else {
        "the player going first does not draw on turn 1"
    };
    let supporter = match setup.first_turn_supporter {
        Some(true) => ", and may play a Supporter",
        Some(false) => ", but may not play a Supporter",
        None => "",
    };
    format!(
        "<p class=\"summary\">{} cards, {} Basic Pokémon. Setup: {} cards in hand, {} prize \
         cards; {draw}{supporter}. Turn curves are for the player {going}, up to turn {}.</p>\n",
        report.deck.cards, report.deck.basic_pokemon, setup.hand_size, setup.prizes, setup.turns
    )
}

fn families() -> String {
    "<dl class=\"family\">\n\
     <dt>kept hand</dt><dd>conditioned on a Basic Pokémon in the kept opening hand: what you \
     actually hold after mulligans. Prizes and draws come from the rest of the deck. Every \
     value is a kept-hand value unless marked otherwise.</dd>\n\
     <dt class=\"ss\">single shuffle</dt><dd>one shuffle with no mulligan rule, the plain \
     hypergeometric odds most web calculators print.</dd>\n\
     </dl>\n"
        .to_string()
}

/// A probability as a percentage with two decimals; below 0.01 % as "1 in N" so rare
/// events such as all copies prized stay readable.
fn pct(p: f64) -> String {
    if !p.is_finite() {
        return "–".to_string();
    }
    percent(p, 2, Small::OneIn)
}

fn fixed(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        "–".to_string()
    }
}

fn mulligan_section(report: &Report) -> String {
    let m = &report.mulligan;
    let mut out = String::from("<section>\n<h2>Mulligans</h2>\n<div class=\"figures\">\n");
    out.push_str(&format!(
        "<div class=\"figure\">P(mulligan) <b>{}</b></div>\n",
        pct(m.probability)
    ));
    out.push_str(&format!(
        "<div class=\"figure\">expected mulligans <b>{}</b></div>\n</div>\n",
        fixed(m.expected_mulligans, 3)
    ));
    let mut bars: Vec<(String, f64)> = m
        .distribution
        .iter()
        .enumerate()
        .map(|(k, p)| (k.to_string(), *p))
        .collect();
    bars.push((format!("{}+", m.distribution.len()), m.distribution_rest));
    let labels = Bars {
        title: "Distribution of the number of mulligans before the kept hand",
        axis: "mulligans before the kept hand",
        unit: "mulligans",
    };
    out.push_str(&bar_chart(&bars, &labels));
    out.push_str("</section>\n");
    out
}

/// A small bar as long as `p` of 80 pixels, before a percentage in a table cell: the
/// exactly-k rows of a card read as a histogram.
fn kbar(p: f64) -> String {
    format!(
        "<span class=\"kbar\" style=\"width:{:.1}px\" aria-hidden=\"true\"></span>",
        clamp01(p) * 80.0
    )
}

/// `--exactly`: the Basic Pokémon of the kept hand as bars, then every card's P(exactly k).
fn distributions_section(report: &Report) -> String {
    let Some(distributions) = &report.distributions else {
        return String::new();
    };
    let mut out = String::from(
        "<section>\n<h2>Exactly k copies</h2>\n<h3>Basic Pokémon in the kept hand</h3>\n",
    );
    let bars: Vec<(String, f64)> = distributions
        .basics_in_kept_hand
        .iter()
        .enumerate()
        .skip(1)
        .map(|(b, p)| (b.to_string(), *p))
        .collect();
    let labels = Bars {
        title: "Distribution of the number of Basic Pokémon in the kept hand",
        axis: "Basic Pokémon in the kept hand",
        unit: "Basic Pokémon",
    };
    out.push_str(&bar_chart(&bars, &labels));
    out.push_str(&format!(
        "<h3>Each card</h3>\n<p class=\"note\">P(exactly k copies), kept hand unless marked \
         single shuffle; the bars draw the opening hand's.</p>\n<div class=\"scroll\">\n<table>\n<thead>\n<tr><th>card</th>\
         <th>k</th><th>opening hand</th><th></th><th class=\"ss\">opening hand, single shuffle</th>\
         <th>in the prizes</th>{}</tr>\n</thead>\n<tbody>\n",
        turn_headers(report.setup.turns as usize, "")
    ));
    for (card, label) in distributions
        .cards
        .iter()
        .zip(report.cards.iter().map(|c| c.label()))
    {
        for k in 0..card.opening_hand.len() {
            let at = |values: &[f64]| values.get(k).copied().unwrap_or(0.0);
            let turns: Vec<f64> = card.by_turn.iter().map(|turn| at(turn)).collect();
            let name = if k == 0 {
                escape(&label)
            } else {
                String::new()
            };
            let (hand, bar) = (pct(at(&card.opening_hand)), kbar(at(&card.opening_hand)));
            out.push_str(&format!(
                "<tr><td class=\"name\">{name}</td><td class=\"num\">{k}</td>\
                 <td class=\"num\">{hand}</td><td class=\"bar\">{bar}</td>\
                 <td class=\"num ss\">{}</td><td class=\"num\">{}</td>{}</tr>\n",
                pct(at(&card.opening_hand_single_shuffle)),
                pct(at(&card.prizes)),
                num_cells(&turns)
            ));
        }
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
    out
}

/// Chart geometry: the plot area inside the SVG.
#[derive(Clone, Copy)]
struct Frame {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Frame {
    fn plot_width(self) -> f64 {
        self.width - self.left - self.right
    }
    fn plot_height(self) -> f64 {
        self.height - self.top - self.bottom
    }
    /// The y coordinate of a value in 0..=`max`.
    fn y(self, value: f64, max: f64) -> f64 {
        let share = if max > 0.0 { value / max } else { 0.0 };
        self.top + self.plot_height() * (1.0 - clamp01(share))
    }
}

fn clamp01(value: f64) -> f64 {
    if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Opening `<svg>` tag with an accessible title.
fn svg_open(frame: Frame, label: &str) -> String {
    format!(
        "<svg class=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
         aria-label=\"{label}\">\n<title>{label}</title>\n",
        w = frame.width,
        h = frame.height
    )
}

/// Horizontal grid lines and percentage ticks from 0 to `max` (a fraction) in `steps`.
fn y_axis(frame: Frame, max: f64, steps: u32, caption: &str) -> String {
    let mut out = String::new();
    for step in 0..=steps {
        let value = max * f64::from(step) / f64::from(steps);
        let y = frame.y(value, max);
        let (x1, x2) = (frame.left, frame.width - frame.right);
        out.push_str(&format!(
            "<line x1=\"{x1:.1}\" y1=\"{y:.1}\" x2=\"{x2:.1}\" y2=\"{y:.1}\" stroke=\"#e3e3e3\" />\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            x1 - 6.0,
            y + 4.0,
            percent(value, 0, Small::Rounded)
        ));
    }
    let (x, y) = (14.0, frame.top + frame.plot_height() / 2.0);
    out.push_str(&format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 {x:.1} {y:.1})\">{caption}</text>\n"
    ));
    out.push_str(&format!(
        "<line x1=\"{l:.1}\" y1=\"{t:.1}\" x2=\"{l:.1}\" y2=\"{b:.1}\" stroke=\"#333\" />\n",
        l = frame.left,
        t = frame.top,
        b = frame.height - frame.bottom
    ));
    out
}

/// A scale maximum that fits `largest`: the next multiple of 10 %, at least 10 %.
fn scale_max(largest: f64) -> f64 {
    let tenths = (clamp01(largest) * 10.0).ceil().max(1.0);
    tenths / 10.0
}

/// Labels of a bar chart: what it shows (its accessible title), the x axis, and each bar's
/// unit in its tooltip (`3 mulligans: 1.89%`).
struct Bars<'a> {
    title: &'a str,
    axis: &'a str,
    unit: &'a str,
}

fn bar_chart(bars: &[(String, f64)], labels: &Bars<'_>) -> String {
    let frame = Frame {
        width: 640.0,
        height: 260.0,
        left: 60.0,
        right: 12.0,
        top: 20.0,
        bottom: 44.0,
    };
    let largest = bars.iter().map(|(_, p)| clamp01(*p)).fold(0.0, f64::max);
    let max = scale_max(largest);
    let mut out = svg_open(frame, labels.title);
    // One tick per 10 %: scale_max is a whole number of tenths.
    let steps = (max * 10.0).round().max(1.0) as u32;
    out.push_str(&y_axis(frame, max, steps, "probability"));
    let slot = frame.plot_width() / bars.len().max(1) as f64;
    let base = frame.height - frame.bottom;
    for (i, (name, p)) in bars.iter().enumerate() {
        let x = frame.left + slot * i as f64 + slot * 0.15;
        let y = frame.y(clamp01(*p), max);
        let middle = x + slot * 0.35;
        out.push_str(&format!(
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#1f77b4\">\
             <title>{name} {}: {}</title></rect>\n\
             <text x=\"{middle:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
             <text x=\"{middle:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{name}</text>\n",
            slot * 0.7,
            base - y,
            labels.unit,
            pct(*p),
            y - 4.0,
            short_pct(*p),
            base + 16.0
        ));
    }
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n</svg>\n",
        frame.left + frame.plot_width() / 2.0,
        frame.height - 6.0,
        labels.axis
    ));
    out
}

/// A compact label for a bar: one decimal, or "&lt;0.1%".
fn short_pct(p: f64) -> String {
    escape(&percent(clamp01(p), 1, Small::Below))
}

fn turn_headers(turns: usize, class: &str) -> String {
    (1..=turns)
        .map(|t| format!("<th{class}>turn {t}</th>"))
        .collect()
}

fn cards_section(report: &Report) -> String {
    let turns = report.setup.turns as usize;
    let mut out = String::from(
        "<section>\n<h2>Cards</h2>\n<p class=\"note\">Kept-hand values unless marked \
         <span class=\"ss\">single shuffle</span>. “Seen by turn t” counts the opening hand \
         and every draw up to your own turn t.</p>\n<div class=\"scroll\">\n<table>\n<thead>\n",
    );
    out.push_str(&format!(
        "<tr><th rowspan=\"2\">card</th><th rowspan=\"2\">copies</th>\
         <th rowspan=\"2\">Basic</th><th colspan=\"2\">in opening hand</th>\
         <th colspan=\"3\">prizes</th><th colspan=\"{}\">seen by own turn</th></tr>\n",
        turns.max(1)
    ));
    out.push_str(&format!(
        "<tr><th>kept hand</th><th class=\"ss\">single shuffle</th><th>≥1 prized</th>\
         <th>all prized</th><th>E[prized]</th>{}</tr>\n</thead>\n<tbody>\n",
        turn_headers(turns, "")
    ));
    for card in &report.cards {
        out.push_str(&card_row(card));
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    out.push_str(&single_shuffle_table(report));
    out.push_str("</section>\n");
    out
}

fn num_cells(values: &[f64]) -> String {
    values
        .iter()
        .map(|p| format!("<td class=\"num\">{}</td>", pct(*p)))
        .collect()
}

fn card_row(card: &CardStats) -> String {
    format!(
        "<tr><td class=\"name\">{}</td><td class=\"num\">{}</td><td>{}</td>\
         <td class=\"num\">{}</td><td class=\"num ss\">{}</td><td class=\"num\">{}</td>\
         <td class=\"num\">{}</td><td class=\"num\">{}</td>{}</tr>\n",
        escape(&card.label()),
        card.copies,
        if card.basic { "Basic" } else { "" },
        pct(card.opening_hand),
        pct(card.opening_hand_single_shuffle),
        pct(card.prized_at_least_one),
        pct(card.prized_all),
        fixed(card.prized_expected, 3),
        num_cells(&card.by_turn)
    )
}

/// The single-shuffle family in full, folded away: useful to compare with web calculators.
fn single_shuffle_table(report: &Report) -> String {
    let turns = report.setup.turns as usize;
    let mut out = String::from(
        "<details>\n<summary>Single-shuffle values (no mulligan rule, as web calculators \
         print them)</summary>\n<div class=\"scroll\">\n<table class=\"ss\">\n<thead>\n",
    );
    out.push_str(&format!(
        "<tr><th>card</th><th>in opening hand</th><th>≥1 prized</th><th>all prized</th>\
         <th>E[prized]</th>{}</tr>\n</thead>\n<tbody>\n",
        turn_headers(turns, "")
    ));
    for card in &report.cards {
        out.push_str(&format!(
            "<tr><td class=\"name\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td>{}</tr>\n",
            escape(&card.label()),
            pct(card.opening_hand_single_shuffle),
            pct(card.prized_at_least_one_single_shuffle),
            pct(card.prized_all_single_shuffle),
            fixed(card.prized_expected_single_shuffle, 3),
            num_cells(&card.by_turn_single_shuffle)
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n</details>\n");
    out
}

/// Colour and dash pattern of the `index`-th line.
fn line_style(index: usize) -> (&'static str, &'static str) {
    let colour = PALETTE
        .get(index % PALETTE.len())
        .copied()
        .unwrap_or("#333");
    let dash = match (index / PALETTE.len()) % 3 {
        0 => "none",
        1 => "6 3",
        _ => "2 2",
    };
    (colour, dash)
}

fn curve_frame() -> Frame {
    Frame {
        width: 760.0,
        height: 380.0,
        left: 60.0,
        right: 20.0,
        top: 16.0,
        bottom: 48.0,
    }
}

/// The x coordinate of point `i` of `count` (the opening hand, then turns 1..).
fn curve_x(frame: Frame, i: usize, count: usize) -> f64 {
    let gaps = count.saturating_sub(1).max(1) as f64;
    frame.left + 20.0 + (frame.plot_width() - 40.0) * i as f64 / gaps
}

/// Cards whose curves are identical (same copies, same Basic-ness) share one line: a
/// 60-card list has a few dozen names but only a handful of distinct curves.
struct Curve {
    values: Vec<f64>,
    label: String,
}

fn curves(report: &Report) -> Vec<Curve> {
    let mut out: Vec<Curve> = Vec::new();
    for card in &report.cards {
        let values: Vec<f64> = std::iter::once(card.opening_hand)
            .chain(card.by_turn.iter().copied())
            .collect();
        let label = format!("{} ({})", escape(&card.label()), card.copies);
        match out.iter_mut().find(|curve| curve.values == values) {
            Some(curve) => {
                curve.label.push_str(", ");
                curve.label.push_str(&label);
            }
            None => out.push(Curve { values, label }),
        }
    }
    out
}

fn curve_section(report: &Report) -> String {
    let frame = curve_frame();
    let count = report.setup.turns as usize + 1;
    let mut out = String::from(
        "<section>\n<h2>Seen by own turn</h2>\n<p class=\"note\">P(at least one copy in the \
         opening hand or drawn by the start of your own turn t), kept hand. Cards with the \
         same curve share a line.</p>\n",
    );
    out.push_str(&svg_open(
        frame,
        "Probability of having seen each card by own turn",
    ));
    out.push_str(&y_axis(frame, 1.0, 10, "P(seen at least one)"));
    out.push_str(&x_axis(frame, count));
    let curves = curves(report);
    for (index, curve) in curves.iter().enumerate() {
        out.push_str(&polyline(frame, index, curve, count));
    }
    out.push_str("</svg>\n<ul class=\"legend\">\n");
    for (index, curve) in curves.iter().enumerate() {
        let (colour, dash) = line_style(index);
        out.push_str(&format!(
            "<li><svg width=\"28\" height=\"10\" aria-hidden=\"true\"><line x1=\"0\" y1=\"5\" \
             x2=\"28\" y2=\"5\" stroke=\"{colour}\" stroke-width=\"3\" \
             stroke-dasharray=\"{dash}\" /></svg> {} <span class=\"note\">({} by turn {})\
             </span></li>\n",
            curve.label,
            pct(curve.values.last().copied().unwrap_or(f64::NAN)),
            count.saturating_sub(1)
        ));
    }
    out.push_str("</ul>\n</section>\n");
    out
}

fn x_axis(frame: Frame, count: usize) -> String {
    let base = frame.height - frame.bottom;
    let mut out = format!(
        "<line x1=\"{:.1}\" y1=\"{base:.1}\" x2=\"{:.1}\" y2=\"{base:.1}\" stroke=\"#333\" />\n",
        frame.left,
        frame.width - frame.right
    );
    for i in 0..count {
        let x = curve_x(frame, i, count);
        let label = if i == 0 {
            "hand".to_string()
        } else {
            format!("turn {i}")
        };
        out.push_str(&format!(
            "<line x1=\"{x:.1}\" y1=\"{base:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#333\" />\n\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>\n",
            base + 5.0,
            base + 20.0
        ));
    }
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">own turn</text>\n",
        frame.left + frame.plot_width() / 2.0,
        frame.height - 6.0
    ));
    out
}

fn polyline(frame: Frame, index: usize, curve: &Curve, count: usize) -> String {
    let (colour, dash) = line_style(index);
    let points: Vec<String> = curve
        .values
        .iter()
        .take(count)
        .enumerate()
        .map(|(i, p)| {
            let (x, y) = (curve_x(frame, i, count), frame.y(clamp01(*p), 1.0));
            format!("{x:.1},{y:.1}")
        })
        .collect();
    format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" \
         stroke-dasharray=\"{dash}\"><title>{}</title></polyline>\n",
        points.join(" "),
        curve.label
    )
}

fn query_row(query: &QueryStats) -> String {
    format!(
        "<tr><td class=\"name\"><code>{}</code></td><td class=\"num\">{}</td>\
         <td class=\"num ss\">{}</td><td class=\"num\">{}</td>{}</tr>\n",
        escape(&query.query),
        pct(query.opening_hand),
        pct(query.opening_hand_single_shuffle),
        pct(query.prizes),
        num_cells(&query.by_turn)
    )
}

fn queries_section(report: &Report) -> String {
    let mut out = String::from("<section>\n<h2>Queries</h2>\n");
    if report.queries.is_empty() && report.events.is_empty() {
        out.push_str(
            "<p class=\"note\">No queries. Ask for combinations with <code>--want</code>, \
             for example <code>--want \"Rare Candy&gt;=1 &amp; Dreepy&gt;=1\"</code>.</p>\n\
             </section>\n",
        );
        return out;
    }
    if !report.queries.is_empty() {
        out.push_str(&format!(
            "<div class=\"scroll\">\n<table>\n<thead>\n<tr><th>query</th>\
             <th>opening hand, kept hand</th><th class=\"ss\">opening hand, single shuffle</th>\
             <th>in the prizes</th>{}</tr>\n</thead>\n<tbody>\n",
            turn_headers(report.setup.turns as usize, "")
        ));
        for query in &report.queries {
            out.push_str(&query_row(query));
        }
        out.push_str("</tbody>\n</table>\n</div>\n");
    }
    out.push_str(&events_table(report));
    out.push_str("</section>\n");
    out
}

/// Queries with turns: one probability each.
fn events_table(report: &Report) -> String {
    if report.events.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<h3>Across turns</h3>\n<p class=\"note\">Each term counts the cards seen by the start \
         of its own turn (<code>by T2</code>), else the opening hand.</p>\n\
         <div class=\"scroll\">\n<table>\n<thead>\n<tr><th>query</th><th>kept hand</th>\
         <th class=\"ss\">single shuffle</th><th>exact</th></tr>\n</thead>\n<tbody>\n",
    );
    for event in &report.events {
        out.push_str(&format!(
            "<tr><td class=\"name\"><code>{}</code></td><td class=\"num\">{}</td>\
             <td class=\"num ss\">{}</td><td class=\"num\">{}</td></tr>\n",
            escape(&event.query),
            pct(event.probability),
            pct(event.probability_single_shuffle),
            escape(&event.fraction)
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    out
}

fn simulation_section(simulation: &Simulation) -> String {
    let mut out = format!(
        "<section>\n<h2>Simulation</h2>\n<p class=\"note\">{} setups through the game-setup \
         engine, seed {}, {} threads. Each estimate ± one standard error next to the exact \
         kept-hand value; |z| above 5 would point at a bug.</p>\n<div class=\"scroll\">\n\
         <table>\n<thead>\n<tr><th>value</th><th>simulated ± standard error</th>\
         <th>exact</th><th>z</th></tr>\n</thead>\n<tbody>\n",
        simulation.setups, simulation.seed, simulation.threads
    );
    for (key, e) in named_estimates(&simulation.estimates) {
        let z = if e.standard_error > 0.0 {
            fixed((e.estimate - e.exact) / e.standard_error, 2)
        } else {
            "–".to_string()
        };
        out.push_str(&format!(
            "<tr><td class=\"name\">{}</td><td class=\"num\">{:.6} ± {:.6}</td>\
             <td class=\"num\">{:.6}</td><td class=\"num\">{z}</td></tr>\n",
            escape(&key),
            e.estimate,
            e.standard_error,
            e.exact
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Setup;
    use crate::stats::query::{self};
    use crate::stats::{DeckShape, Estimate, EstimateKey, Measure, ReportInput};

    /// A 60-card deck: 4 Basic "Dreepy", 4 non-Basic `second`, 6 other Basics, the rest.
    fn report(second: &str, with_query: bool) -> Report {
        let shape = DeckShape::new([(4, true), (4, false), (6, true), (46, false)]);
        let names: Vec<String> = ["Dreepy", second, "other Basic", "other"]
            .map(String::from)
            .to_vec();
        let mut queries = Vec::new();
        if with_query {
            let text = format!("Dreepy>=1 & {second}>=1");
            let parsed = query::parse(&text).unwrap();
            let resolved = parsed
                .resolve(|name| {
                    names
                        .iter()
                        .position(|n| *n == name.text)
                        .ok_or(name.text.clone())
                })
                .unwrap();
            queries.push((text, resolved));
        }
        let input = ReportInput {
            shape: &shape,
            names: &names,
            setup: &Setup::default(),
            turns: 2,
            going: Going::First,
            queries: &queries,
        };
        Report::build(input).unwrap()
    }

    /// Checks that tags nest and close in order, attributes are quoted and every `&` starts
    /// an entity: enough XML to tell a broken page, without a parser dependency.
    fn check_well_formed(page: &str) {
        let body = page.strip_prefix("<!DOCTYPE html>\n").expect("doctype");
        let mut stack: Vec<String> = Vec::new();
        let mut rest = body;
        while let Some(open) = rest.find('<') {
            check_text(&rest[..open]);
            let close = rest[open..].find('>').expect("unclosed tag") + open;
            let tag = &rest[open + 1..close];
            rest = &rest[close + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name), "closing </{name}>");
                continue;
            }
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            assert!(!name.is_empty(), "bad tag <{tag}>");
            check_attributes(&tag[name.len()..]);
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        check_text(rest);
        assert!(stack.is_empty(), "unclosed: {stack:?}");
    }

    fn check_text(text: &str) {
        assert!(!text.contains('>'), "bare > in {text:?}");
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..text[i..].find(';').map_or(text.len(), |e| i + e + 1)];
            let known = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"];
            assert!(known.contains(&entity), "bad entity {entity:?}");
        }
    }

    fn check_attributes(attributes: &str) {
        let attributes = attributes.trim_end_matches('/');
        // name="value" pairs; values hold no quote (escaped) and no '<'.
        let mut parts = attributes.split('"');
        while let Some(name) = parts.next() {
            if name.trim().is_empty() && parts.clone().next().is_none() {
                break;
            }
            let name = name.trim();
            assert!(name.ends_with('='), "attribute {name:?} in {attributes:?}");
            let value = parts.next().expect("unterminated attribute value");
            check_text(value);
            assert!(!value.contains('<'));
        }
    }

    #[test]
    fn escape_handles_markup_characters() {
        assert_eq!(
            escape(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
        assert_eq!(escape("Pokémon"), "Pokémon");
        assert_eq!(escape("&amp;"), "&amp;amp;");
    }

    #[test]
    fn page_is_well_formed_and_has_the_html5_basics() {
        let page = stats_page(&report("Rare Candy", true), "deck.txt");
        check_well_formed(&page);
        for needle in [
            "<html lang=\"en\">",
            "<meta charset=\"utf-8\" />",
            "<meta name=\"viewport\"",
            "<title>deck.txt</title>",
            "<polyline",
            "<rect",
        ] {
            assert!(page.contains(needle), "{needle}");
        }
    }

    /// The charts a web page draws are the page's own sections, word for word, without a
    /// style attribute (a page's Content-Security-Policy may refuse them).
    #[test]
    fn the_charts_are_the_pages_sections() {
        let report = report("Rare Candy", true);
        let page = stats_page(&report, "deck.txt");
        let charts = charts(&report);
        let sections: Vec<&str> = charts.split_inclusive("</section>\n").collect();
        assert_eq!(sections.len(), 2);
        assert!(sections[0].starts_with("<section>\n<h2>Mulligans</h2>"));
        assert!(sections[1].starts_with("<section>\n<h2>Seen by own turn</h2>"));
        for section in sections {
            assert!(section.contains("<svg class=\"chart\""), "{section}");
            assert!(page.contains(section), "{section}");
        }
        assert!(!charts.contains("style="));
    }

    #[test]
    fn page_names_no_external_resource() {
        let mut report = report("Rare Candy", true);
        report.simulation = Some(simulation());
        let page = stats_page(&report, "deck");
        for needle in [
            "http:", "https:", "//", "url(", "src=", "href=", "<script", "@import",
        ] {
            assert!(!page.contains(needle), "{needle}");
        }
    }

    #[test]
    fn a_huge_name_is_cut_in_every_table() {
        let mut report = report("Rare Candy", true);
        report.cards[1].name = "X".repeat(10_000_000);
        let page = stats_page(&report, "deck");
        assert!(page.len() < 200_000, "{}", page.len());
        assert!(page.contains(&format!("{}…", "X".repeat(59))));
        let text = crate::render::stats_text::text(&report);
        assert!(text.len() < 20_000, "{}", text.len());
    }

    #[test]
    fn hostile_names_are_escaped() {
        let hostile = "<script>alert('x')</script> &amp; \"Candy\"";
        let mut report = report("Rare Candy", true);
        report.cards[1].name = hostile.to_string();
        report.queries[0].query = hostile.to_string();
        let mut simulation = simulation();
        let mulligan = simulation.estimates[&EstimateKey::deck(Measure::Mulligan)];
        let key = EstimateKey::of(Measure::OpeningHand, hostile);
        simulation.estimates.insert(key, mulligan);
        report.simulation = Some(simulation);
        let page = stats_page(&report, "<b>title</b>");
        check_well_formed(&page);
        assert!(!page.contains("<script"));
        assert!(!page.contains("<b>title"));
        assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp;amp;"));
        assert!(page.contains("<title>&lt;b&gt;title&lt;/b&gt;</title>"));
    }

    fn simulation() -> Simulation {
        let estimate = Estimate {
            estimate: 0.2601,
            standard_error: 0.0014,
            exact: 0.258629,
        };
        Simulation {
            setups: 100_000,
            seed: 7,
            threads: 2,
            estimates: [(EstimateKey::deck(Measure::Mulligan), estimate)].into(),
        }
    }

    #[test]
    fn output_is_deterministic() {
        let report = report("Rare Candy", true);
        assert_eq!(stats_page(&report, "a"), stats_page(&report, "a"));
    }

    #[test]
    fn small_probabilities_stay_readable() {
        assert_eq!(pct(0.376952), "37.70%");
        assert_eq!(pct(1.0), "100.00%");
        assert_eq!(pct(0.0), "0.00%");
        assert_eq!(pct(3.19157e-5), "1 in 31,333");
        assert_eq!(pct(f64::NAN), "–");
    }

    #[test]
    fn many_cards_cycle_colours_then_dashes() {
        assert_eq!(line_style(0), ("#1f77b4", "none"));
        assert_eq!(line_style(12), ("#1f77b4", "6 3"));
        assert_eq!(line_style(25).1, "2 2");
    }

    #[test]
    fn snapshot_of_a_small_report() {
        let mut report = report("Rare Candy", true);
        report.simulation = Some(simulation());
        let page = stats_page(&report, "small deck");
        // The body only: the stylesheet is fixed text, checked by the tests above.
        let body = &page[page.find("<body>").unwrap()..];
        insta::assert_snapshot!(body, @r##"
        <body>
        <main>
        <h1>small deck</h1>
        <p class="summary">60 cards, 10 Basic Pokémon. Setup: 7 cards in hand, 6 prize cards; the player going first draws on turn 1. Turn curves are for the player going first, up to turn 2.</p>
        <dl class="family">
        <dt>kept hand</dt><dd>conditioned on a Basic Pokémon in the kept opening hand: what you actually hold after mulligans. Prizes and draws come from the rest of the deck. Every value is a kept-hand value unless marked otherwise.</dd>
        <dt class="ss">single shuffle</dt><dd>one shuffle with no mulligan rule, the plain hypergeometric odds most web calculators print.</dd>
        </dl>
        <section>
        <h2>Mulligans</h2>
        <div class="figures">
        <div class="figure">P(mulligan) <b>25.86%</b></div>
        <div class="figure">expected mulligans <b>0.349</b></div>
        </div>
        <svg class="chart" width="640" height="260" viewBox="0 0 640 260" role="img" aria-label="Distribution of the number of mulligans before the kept hand">
        <title>Distribution of the number of mulligans before the kept hand</title>
        <line x1="60.0" y1="216.0" x2="628.0" y2="216.0" stroke="#e3e3e3" />
        <text x="54.0" y="220.0" text-anchor="end">0%</text>
        <line x1="60.0" y1="191.5" x2="628.0" y2="191.5" stroke="#e3e3e3" />
        <text x="54.0" y="195.5" text-anchor="end">10%</text>
        <line x1="60.0" y1="167.0" x2="628.0" y2="167.0" stroke="#e3e3e3" />
        <text x="54.0" y="171.0" text-anchor="end">20%</text>
        <line x1="60.0" y1="142.5" x2="628.0" y2="142.5" stroke="#e3e3e3" />
        <text x="54.0" y="146.5" text-anchor="end">30%</text>
        <line x1="60.0" y1="118.0" x2="628.0" y2="118.0" stroke="#e3e3e3" />
        <text x="54.0" y="122.0" text-anchor="end">40%</text>
        <line x1="60.0" y1="93.5" x2="628.0" y2="93.5" stroke="#e3e3e3" />
        <text x="54.0" y="97.5" text-anchor="end">50%</text>
        <line x1="60.0" y1="69.0" x2="628.0" y2="69.0" stroke="#e3e3e3" />
        <text x="54.0" y="73.0" text-anchor="end">60%</text>
        <line x1="60.0" y1="44.5" x2="628.0" y2="44.5" stroke="#e3e3e3" />
        <text x="54.0" y="48.5" text-anchor="end">70%</text>
        <line x1="60.0" y1="20.0" x2="628.0" y2="20.0" stroke="#e3e3e3" />
        <text x="54.0" y="24.0" text-anchor="end">80%</text>
        <text x="14.0" y="118.0" text-anchor="middle" transform="rotate(-90 14.0 118.0)">probability</text>
        <line x1="60.0" y1="20.0" x2="60.0" y2="216.0" stroke="#333" />
        <rect x="67.7" y="34.4" width="36.1" height="181.6" fill="#1f77b4"><title>0 mulligans: 74.14%</title></rect>
        <text x="85.8" y="30.4" text-anchor="middle">74.1%</text>
        <text x="85.8" y="232.0" text-anchor="middle">0</text>
        <rect x="119.4" y="169.0" width="36.1" height="47.0" fill="#1f77b4"><title>1 mulligans: 19.17%</title></rect>
        <text x="137.5" y="165.0" text-anchor="middle">19.2%</text>
        <text x="137.5" y="232.0" text-anchor="middle">1</text>
        <rect x="171.0" y="203.9" width="36.1" height="12.1" fill="#1f77b4"><title>2 mulligans: 4.96%</title></rect>
        <text x="189.1" y="199.9" text-anchor="middle">5.0%</text>
        <text x="189.1" y="232.0" text-anchor="middle">2</text>
        <rect x="222.7" y="212.9" width="36.1" height="3.1" fill="#1f77b4"><title>3 mulligans: 1.28%</title></rect>
        <text x="240.7" y="208.9" text-anchor="middle">1.3%</text>
        <text x="240.7" y="232.0" text-anchor="middle">3</text>
        <rect x="274.3" y="215.2" width="36.1" height="0.8" fill="#1f77b4"><title>4 mulligans: 0.33%</title></rect>
        <text x="292.4" y="211.2" text-anchor="middle">0.3%</text>
        <text x="292.4" y="232.0" text-anchor="middle">4</text>
        <rect x="325.9" y="215.8" width="36.1" height="0.2" fill="#1f77b4"><title>5 mulligans: 0.09%</title></rect>
        <text x="344.0" y="211.8" text-anchor="middle">0.1%</text>
        <text x="344.0" y="232.0" text-anchor="middle">5</text>
        <rect x="377.6" y="215.9" width="36.1" height="0.1" fill="#1f77b4"><title>6 mulligans: 0.02%</title></rect>
        <text x="395.6" y="211.9" text-anchor="middle">&lt;0.1%</text>
        <text x="395.6" y="232.0" text-anchor="middle">6</text>
        <rect x="429.2" y="216.0" width="36.1" height="0.0" fill="#1f77b4"><title>7 mulligans: 1 in 17,427</title></rect>
        <text x="447.3" y="212.0" text-anchor="middle">&lt;0.1%</text>
        <text x="447.3" y="232.0" text-anchor="middle">7</text>
        <rect x="480.8" y="216.0" width="36.1" height="0.0" fill="#1f77b4"><title>8 mulligans: 1 in 67,382</title></rect>
        <text x="498.9" y="212.0" text-anchor="middle">&lt;0.1%</text>
        <text x="498.9" y="232.0" text-anchor="middle">8</text>
        <rect x="532.5" y="216.0" width="36.1" height="0.0" fill="#1f77b4"><title>9 mulligans: 1 in 260,535</title></rect>
        <text x="550.5" y="212.0" text-anchor="middle">&lt;0.1%</text>
        <text x="550.5" y="232.0" text-anchor="middle">9</text>
        <rect x="584.1" y="216.0" width="36.1" height="0.0" fill="#1f77b4"><title>10+ mulligans: 1 in 746,834</title></rect>
        <text x="602.2" y="212.0" text-anchor="middle">&lt;0.1%</text>
        <text x="602.2" y="232.0" text-anchor="middle">10+</text>
        <text x="344.0" y="254.0" text-anchor="middle">mulligans before the kept hand</text>
        </svg>
        </section>
        <section>
        <h2>Cards</h2>
        <p class="note">Kept-hand values unless marked <span class="ss">single shuffle</span>. “Seen by turn t” counts the opening hand and every draw up to your own turn t.</p>
        <div class="scroll">
        <table>
        <thead>
        <tr><th rowspan="2">card</th><th rowspan="2">copies</th><th rowspan="2">Basic</th><th colspan="2">in opening hand</th><th colspan="3">prizes</th><th colspan="2">seen by own turn</th></tr>
        <tr><th>kept hand</th><th class="ss">single shuffle</th><th>≥1 prized</th><th>all prized</th><th>E[prized]</th><th>turn 1</th><th>turn 2</th></tr>
        </thead>
        <tbody>
        <tr><td class="name">Dreepy</td><td class="num">4</td><td>Basic</td><td class="num">53.89%</td><td class="num ss">39.95%</td><td class="num">33.77%</td><td class="num">1 in 42,334</td><td class="num">0.382</td><td class="num">57.37%</td><td class="num">60.65%</td></tr>
        <tr><td class="name">Rare Candy</td><td class="num">4</td><td></td><td class="num">37.70%</td><td class="num ss">39.95%</td><td class="num">35.43%</td><td class="num">1 in 31,333</td><td class="num">0.404</td><td class="num">42.40%</td><td class="num">46.83%</td></tr>
        <tr><td class="name">other Basic</td><td class="num">6</td><td>Basic</td><td class="num">73.03%</td><td class="num ss">54.14%</td><td class="num">46.73%</td><td class="num">1 in 85,127,822</td><td class="num">0.572</td><td class="num">76.08%</td><td class="num">78.84%</td></tr>
        <tr><td class="name">other</td><td class="num">46</td><td></td><td class="num">100.00%</td><td class="num ss">100.00%</td><td class="num">100.00%</td><td class="num">0.00%</td><td class="num">4.642</td><td class="num">100.00%</td><td class="num">100.00%</td></tr>
        </tbody>
        </table>
        </div>
        <details>
        <summary>Single-shuffle values (no mulligan rule, as web calculators print them)</summary>
        <div class="scroll">
        <table class="ss">
        <thead>
        <tr><th>card</th><th>in opening hand</th><th>≥1 prized</th><th>all prized</th><th>E[prized]</th><th>turn 1</th><th>turn 2</th></tr>
        </thead>
        <tbody>
        <tr><td class="name">Dreepy</td><td class="num">39.95%</td><td class="num">35.15%</td><td class="num">1 in 32,509</td><td class="num">0.400</td><td class="num">44.48%</td><td class="num">48.75%</td></tr>
        <tr><td class="name">Rare Candy</td><td class="num">39.95%</td><td class="num">35.15%</td><td class="num">1 in 32,509</td><td class="num">0.400</td><td class="num">44.48%</td><td class="num">48.75%</td></tr>
        <tr><td class="name">other Basic</td><td class="num">54.14%</td><td class="num">48.41%</td><td class="num">1 in 50,063,860</td><td class="num">0.600</td><td class="num">59.33%</td><td class="num">64.03%</td></tr>
        <tr><td class="name">other</td><td class="num">100.00%</td><td class="num">99.99%</td><td class="num">0.00%</td><td class="num">4.600</td><td class="num">100.00%</td><td class="num">100.00%</td></tr>
        </tbody>
        </table>
        </div>
        </details>
        </section>
        <section>
        <h2>Seen by own turn</h2>
        <p class="note">P(at least one copy in the opening hand or drawn by the start of your own turn t), kept hand. Cards with the same curve share a line.</p>
        <svg class="chart" width="760" height="380" viewBox="0 0 760 380" role="img" aria-label="Probability of having seen each card by own turn">
        <title>Probability of having seen each card by own turn</title>
        <line x1="60.0" y1="332.0" x2="740.0" y2="332.0" stroke="#e3e3e3" />
        <text x="54.0" y="336.0" text-anchor="end">0%</text>
        <line x1="60.0" y1="300.4" x2="740.0" y2="300.4" stroke="#e3e3e3" />
        <text x="54.0" y="304.4" text-anchor="end">10%</text>
        <line x1="60.0" y1="268.8" x2="740.0" y2="268.8" stroke="#e3e3e3" />
        <text x="54.0" y="272.8" text-anchor="end">20%</text>
        <line x1="60.0" y1="237.2" x2="740.0" y2="237.2" stroke="#e3e3e3" />
        <text x="54.0" y="241.2" text-anchor="end">30%</text>
        <line x1="60.0" y1="205.6" x2="740.0" y2="205.6" stroke="#e3e3e3" />
        <text x="54.0" y="209.6" text-anchor="end">40%</text>
        <line x1="60.0" y1="174.0" x2="740.0" y2="174.0" stroke="#e3e3e3" />
        <text x="54.0" y="178.0" text-anchor="end">50%</text>
        <line x1="60.0" y1="142.4" x2="740.0" y2="142.4" stroke="#e3e3e3" />
        <text x="54.0" y="146.4" text-anchor="end">60%</text>
        <line x1="60.0" y1="110.8" x2="740.0" y2="110.8" stroke="#e3e3e3" />
        <text x="54.0" y="114.8" text-anchor="end">70%</text>
        <line x1="60.0" y1="79.2" x2="740.0" y2="79.2" stroke="#e3e3e3" />
        <text x="54.0" y="83.2" text-anchor="end">80%</text>
        <line x1="60.0" y1="47.6" x2="740.0" y2="47.6" stroke="#e3e3e3" />
        <text x="54.0" y="51.6" text-anchor="end">90%</text>
        <line x1="60.0" y1="16.0" x2="740.0" y2="16.0" stroke="#e3e3e3" />
        <text x="54.0" y="20.0" text-anchor="end">100%</text>
        <text x="14.0" y="174.0" text-anchor="middle" transform="rotate(-90 14.0 174.0)">P(seen at least one)</text>
        <line x1="60.0" y1="16.0" x2="60.0" y2="332.0" stroke="#333" />
        <line x1="60.0" y1="332.0" x2="740.0" y2="332.0" stroke="#333" />
        <line x1="80.0" y1="332.0" x2="80.0" y2="337.0" stroke="#333" />
        <text x="80.0" y="352.0" text-anchor="middle">hand</text>
        <line x1="400.0" y1="332.0" x2="400.0" y2="337.0" stroke="#333" />
        <text x="400.0" y="352.0" text-anchor="middle">turn 1</text>
        <line x1="720.0" y1="332.0" x2="720.0" y2="337.0" stroke="#333" />
        <text x="720.0" y="352.0" text-anchor="middle">turn 2</text>
        <text x="400.0" y="374.0" text-anchor="middle">own turn</text>
        <polyline points="80.0,161.7 400.0,150.7 720.0,140.4" fill="none" stroke="#1f77b4" stroke-width="2" stroke-dasharray="none"><title>Dreepy (4)</title></polyline>
        <polyline points="80.0,212.9 400.0,198.0 720.0,184.0" fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="none"><title>Rare Candy (4)</title></polyline>
        <polyline points="80.0,101.2 400.0,91.6 720.0,82.9" fill="none" stroke="#2ca02c" stroke-width="2" stroke-dasharray="none"><title>other Basic (6)</title></polyline>
        <polyline points="80.0,16.0 400.0,16.0 720.0,16.0" fill="none" stroke="#9467bd" stroke-width="2" stroke-dasharray="none"><title>other (46)</title></polyline>
        </svg>
        <ul class="legend">
        <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" stroke="#1f77b4" stroke-width="3" stroke-dasharray="none" /></svg> Dreepy (4) <span class="note">(60.65% by turn 2)</span></li>
        <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" stroke="#d62728" stroke-width="3" stroke-dasharray="none" /></svg> Rare Candy (4) <span class="note">(46.83% by turn 2)</span></li>
        <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" stroke="#2ca02c" stroke-width="3" stroke-dasharray="none" /></svg> other Basic (6) <span class="note">(78.84% by turn 2)</span></li>
        <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" stroke="#9467bd" stroke-width="3" stroke-dasharray="none" /></svg> other (46) <span class="note">(100.00% by turn 2)</span></li>
        </ul>
        </section>
        <section>
        <h2>Queries</h2>
        <div class="scroll">
        <table>
        <thead>
        <tr><th>query</th><th>opening hand, kept hand</th><th class="ss">opening hand, single shuffle</th><th>in the prizes</th><th>turn 1</th><th>turn 2</th></tr>
        </thead>
        <tbody>
        <tr><td class="name"><code>Dreepy&gt;=1 &amp; Rare Candy&gt;=1</code></td><td class="num">19.61%</td><td class="num ss">14.54%</td><td class="num">10.61%</td><td class="num">23.56%</td><td class="num">27.61%</td></tr>
        </tbody>
        </table>
        </div>
        </section>
        <section>
        <h2>Simulation</h2>
        <p class="note">100000 setups through the game-setup engine, seed 7, 2 threads. Each estimate ± one standard error next to the exact kept-hand value; |z| above 5 would point at a bug.</p>
        <div class="scroll">
        <table>
        <thead>
        <tr><th>value</th><th>simulated ± standard error</th><th>exact</th><th>z</th></tr>
        </thead>
        <tbody>
        <tr><td class="name">mulligan</td><td class="num">0.260100 ± 0.001400</td><td class="num">0.258629</td><td class="num">1.05</td></tr>
        </tbody>
        </table>
        </div>
        </section>
        </main>
        </body>
        </html>
        "##);
    }
}
