//! `deckbox check --format all`, drawn: one deck judged in every shipped format at one date
//! ([`crate::check::everywhere`]), as a table (human), one line (short) or JSON.

use crate::check::everywhere::Everywhere;
use crate::util::escape::visible_line;

/// `deck.txt, as of 2026-11-25` and one row per format.
pub fn human(deck: &Everywhere) -> String {
    let mut out = format!("{}, as of {}\n", visible_line(&deck.path), deck.as_of);
    let width = deck
        .formats
        .iter()
        .map(|v| v.format.len())
        .max()
        .unwrap_or(0);
    for verdict in &deck.formats {
        let said = if let Some(absent) = &verdict.absent {
            visible_line(absent).into_owned()
        } else if verdict.valid {
            "legal".to_string()
        } else {
            let broken: Vec<String> = verdict
                .broken
                .iter()
                .map(|broken| match broken.count {
                    1 => broken.rule.clone(),
                    n => format!("{} ×{n}", broken.rule),
                })
                .collect();
            format!("invalid ({})", broken.join(", "))
        };
        out.push_str(&format!("  {:<width$}  {said}\n", verdict.format));
    }
    out.push_str(&format!("{}\n", short(deck)));
    out
}

/// `deck.txt: legal in expanded, unlimited (as of 2026-11-25)`.
pub fn short(deck: &Everywhere) -> String {
    let legal = deck.legal_in();
    let said = if legal.is_empty() {
        "legal in no format".to_string()
    } else {
        format!("legal in {}", legal.join(", "))
    };
    format!(
        "{}: {said} (as of {})",
        visible_line(&deck.path),
        deck.as_of
    )
}

/// Every deck as one JSON array, pretty-printed and newline-terminated (`--output json`).
pub fn json(decks: &[Everywhere]) -> String {
    let mut text = serde_json::to_string_pretty(decks).unwrap_or_default();
    text.push('\n');
    text
}
