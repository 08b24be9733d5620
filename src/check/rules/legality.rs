//! Which printings the format allows: `not-legal`, `reprint-undecided`, `legal-as-reprint`,
//! `banned`. The verdicts come from
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
    why: "Each format allows only some printings: Standard the regulation marks of the season, Expanded the Black & White series onward. An older printing stays legal when a legal printing has the same name and functionally identical text (Play! Pokémon Tournament Rules 5.4.1.3). deckbox compares it with each legal printing of the name: the kind of card (Trainer or Energy kind, stage, what it evolves from, types, ACE SPEC, Radiant or Prism Star, the name's mechanic such as ex or V) and a fingerprint of the English rules text, taken after setting aside what changed between eras without changing the effect: reminder lines (how many Items or Supporters a turn, the Stadium and Tool rules, deck limits, a rule box's Prize count), typography, and known rewordings (`his or her`, `Shuffle your deck afterward`, Ultra Ball's cost written three ways). So Ultra Ball SUM 135 and Switch BS 95 are legal in Standard through Ultra Ball MEG 131 and Switch MEG 130, while Potion BS 94 (removes up to 2 damage counters) is not the card Potion POR 83 is (heals 30 damage), nor Energy Retrieval BS 81 (trade a card for the Energy) the card Energy Retrieval CRI 108 is. The finding's help names the legal printing compared and what differed; `deckbox card NAME --output json` lists it as `differences`. A printing whose rules text the card data lacks is not rejected: `reprint-undecided` says the data cannot decide.",
    example: "4 Iono PAL 185   (regulation mark G, rotated out of Standard on 2026-04-10)\n1 Potion BS 94   (compared with Potion POR 83: different effect text)\n",
    fix: "Replace the card, or play a legal printing of it when deckbox names one; `deckbox formats show <format>` lists what the format allows.",
    check: Check::Deck(not_legal),
};

pub(super) const REPRINT_UNDECIDED: RuleDef = RuleDef {
    id: "reprint-undecided",
    severity: Severity::Warning,
    summary: "A card outside the format's pool that may be legal as a reprint, but the card data lacks the rules text to compare.",
    why: "An older printing is legal when a legal printing has the same name and functionally identical text (Play! Pokémon Tournament Rules 5.4.1.3). deckbox compares the text through a fingerprint of each printing's English rules text. A few printings have no rules text in TCGdex, deckbox's card data; the card index takes the missing fingerprint from pokemon-tcg-data where that has the printing (docs/card-index.md counts them). Where neither source has it, deckbox cannot tell whether the two cards say the same: it says so as a warning (the deck stays valid, exit code 0) instead of rejecting a card that is most likely a legal reprint. The finding names the printing without text and the legal printing it was compared with.",
    example: "4 Switch TK4G 28   (HeartGold & SoulSilver Trainer Kit: no rules text in the card data; Switch PFL 123 is legal)\n",
    fix: "Write the code and number of the legal printing deckbox names (or of your card if it is current), or compare the two cards' text yourself: when it says the same, the older printing is legal as a reprint.",
    check: Check::Deck(reprint_undecided),
};

pub(super) const LEGAL_AS_REPRINT: RuleDef = RuleDef {
    id: "legal-as-reprint",
    severity: Severity::Info,
    summary: "A card outside the format's pool that is legal as a reprint of a legal printing (a remark, not a fault).",
    why: "An older printing is legal when a legal printing has the same name and functionally identical text (Play! Pokémon Tournament Rules 5.4.1.3): Switch SLG 67 is played in Standard as Switch PFL 123. Its regulation mark or set is outside the format, so a player or judge reading the list may ask; the remark names the legal printing deckbox compared it with, and the registration sheet (`deckbox sheet`) prints it beside the card.",
    example: "4 Switch SLG 67   (legal as a reprint of PFL 123)\n",
    fix: "Nothing to fix. To avoid the question at the table, write the legal printing's code and number instead.",
    check: Check::Deck(legal_as_reprint),
};

/// `reprint-undecided`: one finding per line whose printing is outside the pool and may be
/// a reprint of a legal printing, had the card data the text of both.
fn reprint_undecided(deck: &Deck) -> Vec<Diagnostic> {
    let (db, format) = (deck.db, deck.format);
    deck.identified
        .iter()
        .zip(deck.verdicts())
        .filter_map(|((card, printing), verdict)| {
            let Verdict::Undecided { reason, legal } = verdict else {
                return None;
            };
            let other = db.get(*legal)?;
            let name = printing.rules_name();
            let (label, legal_label) = (printing.printing_label(), other.printing_label());
            let missing = match (printing.effect.is_none(), other.effect.is_none()) {
                (true, true) => format!("{label} nor {legal_label}"),
                (false, true) => legal_label.clone(),
                _ => label.clone(),
            };
            Some(
                Diagnostic::new(
                    Rule::ReprintUndecided,
                    format!(
                        "{name} ({label}) is outside {} ({reason}) and may be legal as a reprint of {legal_label}, but the card data has no rules text for {missing}: deckbox cannot decide",
                        format.name
                    ),
                )
                .with_help(format!(
                    "write a current printing's code, such as {} {legal_label}; or compare the two cards' text: when they say the same, {label} is legal",
                    names::canonical(other.names.primary())
                ))
                .at(deck.text, card.line.span, "cannot decide")
                .with_cards(vec![name]),
            )
        })
        .collect()
}

/// `legal-as-reprint`: one remark per line whose printing is legal only by the reprint
/// rule, naming the legal printing it reprints.
fn legal_as_reprint(deck: &Deck) -> Vec<Diagnostic> {
    let (db, format) = (deck.db, deck.format);
    deck.identified
        .iter()
        .zip(deck.verdicts())
        .filter_map(|((card, printing), verdict)| {
            let Verdict::LegalAsReprint(id) = verdict else {
                return None;
            };
            let other = db.get(*id)?;
            let name = printing.rules_name();
            let legal = other.printing_label();
            Some(
                Diagnostic::new(
                    Rule::LegalAsReprint,
                    format!(
                        "{name} ({}) is legal in {} as a reprint of {legal}",
                        printing.printing_label(),
                        format.name
                    ),
                )
                .with_help(format!(
                    "same name and text as {} {legal} (Play! Pokémon Tournament Rules 5.4.1.3)",
                    names::canonical(other.names.primary())
                ))
                .at(deck.text, card.line.span, "legal as a reprint")
                .with_cards(vec![name]),
            )
        })
        .collect()
}

pub(super) const PROMO_DATE_UNKNOWN: RuleDef = RuleDef {
    id: "promo-date-unknown",
    severity: Severity::Info,
    summary: "A Black Star promo judged legal from the first day of its promo series, because its own release date is unknown (a remark, not a fault).",
    why: "A printing released after the date judged is never legal. The card data dates each Black Star promo set by the first day of its series (SWSH promos from 2019-11-15, SV promos from 2023-03-31), not each promo: TCGdex and pokemon-tcg-data give no date per promo, and deckbox has no other source for them. A promo printed years into its series is judged as if it existed from the series' first day, so at a date in that series a promo deckbox finds legal may not have been released yet. The remark says so instead of guessing silently; it is made from the series' first day until the next promo series began, and always for the newest series.",
    example: "1 Lumineon V SWSHP SWSH250   (judged at 2020-03-01: SWSH promos count from 2019-11-15)\n",
    fix: "Nothing to fix when you know the promo had been released by the deck's date; else play a printing from an expansion of that date.",
    check: Check::Deck(promo_date_unknown),
};

/// `promo-date-unknown`: one remark per line playing a Black Star promo found legal only
/// because the card data dates it by its series' first day.
fn promo_date_unknown(deck: &Deck) -> Vec<Diagnostic> {
    let (db, format) = (deck.db, deck.format);
    deck.identified
        .iter()
        .zip(deck.verdicts())
        .filter(|(_, verdict)| verdict.allows())
        .filter_map(|((card, printing), _)| {
            let first =
                crate::formats::history::promo_dated_by_series(db, printing, format.date)?;
            let name = printing.rules_name();
            Some(
                Diagnostic::new(
                    Rule::PromoDateUnknown,
                    format!(
                        "{name} ({}): release date of this promo unknown: judged from its series, whose promos began on {first}",
                        printing.printing_label()
                    ),
                )
                .with_help(format!(
                    "legal in {} as of {} if it had been released by then",
                    format.name, format.date
                ))
                .at(deck.text, card.line.span, "promo dated by its series")
                .with_cards(vec![name]),
            )
        })
        .collect()
}

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
