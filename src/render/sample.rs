//! `deckbox sample` as text: a dealt setup (mulligans, hand, Basic Pokémon in play, prizes,
//! draws), cards named as the deck list wrote them. It deals nothing (that is
//! [`crate::engine`]) and reads no deck.

use crate::engine::TwoPlayerSetup;
use crate::stats::kinds::DeckKind;
use crate::util::escape::visible_line;

/// Cards grouped by kind in deck-list order, with the deck's own written names:
/// `2× Dreepy, Rare Candy`.
fn group(cards: &[u16], kinds: &[DeckKind]) -> String {
    if cards.is_empty() {
        return "(none)".to_string();
    }
    let mut counts: Vec<(u16, u32)> = Vec::new();
    for &card in cards {
        match counts.iter_mut().find(|(kind, _)| *kind == card) {
            Some((_, n)) => *n += 1,
            None => counts.push((card, 1)),
        }
    }
    counts.sort_unstable();
    // Written names come from the deck file: shown on one line, invisible characters as
    // `\u{...}`.
    let name = |kind: u16| {
        let kind = kinds.get(usize::from(kind));
        visible_line(
            kind.and_then(|k| k.written.first())
                .map_or("?", String::as_str),
        )
    };
    let parts: Vec<String> = counts
        .iter()
        .map(|&(kind, n)| match n {
            1 => name(kind).to_string(),
            n => format!("{n}× {}", name(kind)),
        })
        .collect();
    parts.join(", ")
}

/// One sample setup as `deckbox sample` shows it, from the side of the player going first
/// (`going_first`) or second.
pub fn setup(
    index: u32,
    seed: u64,
    going_first: bool,
    kinds: &[DeckKind],
    deal: &TwoPlayerSetup,
) -> String {
    let (you, opponent, going) = if going_first {
        (&deal.first, &deal.second, "first")
    } else {
        (&deal.second, &deal.first, "second")
    };
    let mut out = format!("Sample {index} (you go {going}, seed {seed})\n");
    for (n, hand) in (1..).zip(&you.revealed) {
        out.push_str(&format!(
            "  mulligan {n}: {} (revealed, shuffled back)\n",
            group(hand, kinds)
        ));
    }
    out.push_str(&format!("  hand:       {}\n", group(&you.hand, kinds)));
    out.push_str(&format!(
        "  in play:    {} (Basic Pokémon you may put in play)\n",
        group(&you.basics, kinds)
    ));
    out.push_str(&format!(
        "  prizes:     {} (you would not see these)\n",
        group(&you.prizes, kinds)
    ));
    let theirs = opponent.mulligans;
    let plural = if theirs == 1 { "" } else { "s" };
    if you.extra.is_empty() {
        out.push_str(&format!("  opponent:   {theirs} mulligan{plural}\n"));
    } else {
        out.push_str(&format!(
            "  opponent:   {theirs} mulligan{plural}; you may draw {}\n",
            group(&you.extra, kinds)
        ));
    }
    for draw in &you.draws {
        out.push_str(&format!(
            "  turn {}:     draw {}\n",
            draw.turn,
            group(&[draw.kind], kinds)
        ));
    }
    out
}
