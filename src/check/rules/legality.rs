//! Which printings the format allows: `not-legal`, `banned`. The verdicts come from
//! [`crate::formats::legality`], judged once per deck ([`Deck::verdicts`]).

use super::{Check, Deck, Rule, RuleDef};
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::formats::legality::Verdict;
use crate::formats::reprint;
use crate::names;

pub(super) const NOT_LEGAL: RuleDef = RuleDef {
    id: "not-legal",
    severity: Severity::Error,
    summary: "A card outside the format's card pool (regulation mark, set, series or release date).",
    why: "Each format allows only some printings: Standard the regulation marks of the season, Expanded the Black & White series onward. An older printing stays legal when a legal printing has the same name and functionally identical text (Play! Pokémon Tournament Rules 5.4.1.3). deckbox compares it with each legal printing of the name: the kind of card (Trainer or Energy kind, stage, what it evolves from, types, ACE SPEC, Radiant or Prism Star, the name's mechanic such as ex or V) and a fingerprint of the English rules text, taken after setting aside what changed between eras without changing the effect: reminder lines (how many Items or Supporters a turn, the Stadium and Tool rules, deck limits, a rule box's Prize count), typography, and known rewordings (`his or her`, `Shuffle your deck afterward`, Ultra Ball's cost written three ways). So Ultra Ball SUM 135 and Switch BS 95 are legal in Standard through Ultra Ball MEG 131 and Switch MEG 130, while Potion BS 94 (removes up to 2 damage counters) is not the card Potion POR 83 is (heals 30 damage), nor Energy Retrieval BS 81 (trade a card for the Energy) the card Energy Retrieval CRI 108 is. The finding's help names the legal printing compared and what differed; `deckbox card NAME --output json` lists it as `differences`.",
    example: "4 Iono PAL 185   (regulation mark G, rotated out of Standard on 2026-04-10)\n1 Potion BS 94   (compared with Potion POR 83: different effect text)\n",
    fix: "Replace the card, or play a legal printing of it when deckbox names one; `deckbox formats show <format>` lists what the format allows.",
    check: Check::Deck(not_legal),
};

pub(super) const BANNED: RuleDef = RuleDef {
    id: "banned",
    severity: Severity::Error,
    summary: "A card on the format's ban list.",
    why: "Organizers ban cards that break a format. The ban list is part of the format file, each entry with its source and the date it took effect.",
    example: "1 Lysandre's Trump Card PHF 99   (banned in Expanded)\n",
    fix: "Remove the card; `deckbox formats show <format>` prints the ban list.",
    check: Check::Deck(banned),
};

/// `banned`: one finding per line whose printing is on the format's ban list.
fn banned(deck: &Deck) -> Vec<Diagnostic> {
    let format = deck.format;
    deck.identified
        .iter()
        .zip(deck.verdicts())
        .filter_map(|((card, printing), verdict)| {
            let Verdict::Banned(ban) = verdict else {
                return None;
            };
            let name = printing.rules_name();
            let label = printing.printing_label();
            let mut help = format!("remove '{name}'");
            if let Some(note) = &ban.note {
                help.push_str(&format!(" ({note})"));
            }
            Some(
                Diagnostic::new(
                    Rule::Banned,
                    format!(
                        "{name} ({label}) is banned in {}: {}, since {}",
                        format.name, ban.source, ban.date
                    ),
                )
                .with_help(help)
                .at(deck.text, card.line.span, "banned")
                .with_cards(vec![name]),
            )
        })
        .collect()
}

/// `not-legal`: one finding per line whose printing is outside the format's pool (and not
/// legal as a reprint), naming the legal printing compared when there is one.
fn not_legal(deck: &Deck) -> Vec<Diagnostic> {
    let (db, format) = (deck.db, deck.format);
    deck.identified
        .iter()
        .zip(deck.verdicts())
        .filter_map(|((card, printing), verdict)| {
            let Verdict::NotLegal {
                reason,
                alternative,
                differences,
            } = verdict
            else {
                return None;
            };
            let name = printing.rules_name();
            let label = printing.printing_label();
            let help = match alternative.and_then(|id| db.get(id)) {
                Some(other) if format.pool.reprint_rule => format!(
                    "compared with {} {} (legal) by the reprint rule: same name, {}; play that printing if you mean it, or replace the card",
                    names::canonical(other.names.primary()),
                    other.printing_label(),
                    described(differences)
                ),
                Some(other) => format!(
                    "play a legal printing such as {} {} (this format has no reprint rule: the printing itself must be in the pool)",
                    names::canonical(other.names.primary()),
                    other.printing_label()
                ),
                None => format!(
                    "replace '{name}': no printing of it is legal in {}",
                    format.name
                ),
            };
            Some(
                Diagnostic::new(
                    Rule::NotLegal,
                    format!("{name} ({label}) is not legal in {}: {reason}", format.name),
                )
                .with_help(help)
                .at(deck.text, card.line.span, "not legal")
                .with_cards(vec![name]),
            )
        })
        .collect()
}

/// What the reprint rule found different, for a message: `different effect text`, or
/// several facts joined by commas.
fn described(differences: &[reprint::Difference]) -> String {
    if differences.is_empty() {
        return "no difference found".to_string();
    }
    let phrases: Vec<&str> = differences.iter().map(|d| d.describe()).collect();
    phrases.join(", ")
}
