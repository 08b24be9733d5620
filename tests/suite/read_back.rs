#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
//! Every line `deckbox search --output list` writes is read back by `check` as the printing
//! it was written from (issue 51, item 7): a list made from search results is a deck list
//! deckbox reads, card for card, for every printing of the embedded index.

use crate::common;
use crate::oracles::embedded_db;

use deckbox::check;
use deckbox::deck::DeckInput;
use deckbox::formats::Format;

/// A query every printing matches.
const EVERY_PRINTING: &str = "hp>=0 or not hp>=0";

/// Lines per list checked: a deck list is read up to 10,000 lines (docs/security.md).
const LINES_PER_LIST: usize = 5_000;

fn search(output: &str) -> String {
    let out = common::deckbox_command()
        .args(["search", "--unique", "printings", "--output", output, "--"])
        .arg(EVERY_PRINTING)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The printings `search --output json` lists, in order, as `set id, number`.
fn written_printings() -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(&search("json")).unwrap();
    let cards = report["cards"].as_array().unwrap();
    (cards.iter())
        .flat_map(|card| card["printings"].as_array().unwrap())
        .map(|p| format!("{}, {}", p["set_id"].as_str().unwrap(), p["number"]))
        .map(|label| label.replace('"', ""))
        .collect()
}

/// Each line of `search --output list`, the printing `check` reads it as, `set id, number`
/// (`unread` when it identifies none or only by name).
#[test]
fn every_printing_written_as_a_list_line_is_read_back_as_itself() {
    let list = search("list");
    let lines: Vec<&str> = list.lines().collect();
    let written = written_printings();
    assert_eq!(lines.len(), embedded_db().len(), "one line a printing");
    assert_eq!(lines.len(), written.len());
    let format = Format::load_at("unlimited", Some(common::TODAY.parse().unwrap())).unwrap();
    let mut misses = Vec::new();
    for (chunk, at) in lines
        .chunks(LINES_PER_LIST)
        .zip((0..).step_by(LINES_PER_LIST))
    {
        let text = chunk.join("\n");
        let deck = check::check(
            &DeckInput::from_bytes("list.txt", text.as_bytes()),
            embedded_db(),
            &format,
        );
        assert_eq!(deck.cards.len(), chunk.len(), "one card a line");
        // A line read by its name alone says `unknown-printing`: not read as its printing.
        let by_name: Vec<usize> = (deck.diagnostics.iter())
            .filter(|d| d.rule.id() == "unknown-printing")
            .filter_map(|d| d.line)
            .collect();
        for card in &deck.cards {
            let index = at + card.line.line - 1;
            let read = match card.printing.and_then(|id| embedded_db().get(id)) {
                Some(p) if !by_name.contains(&card.line.line) => {
                    format!("{}, {}", p.set_id, p.number)
                }
                _ => "unread".to_string(),
            };
            if read != written[index] {
                misses.push(format!(
                    "{} -> {read} (written {})",
                    lines[index], written[index]
                ));
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} of {} lines not read back as their printing:\n{}",
        misses.len(),
        lines.len(),
        misses.join("\n")
    );
}
