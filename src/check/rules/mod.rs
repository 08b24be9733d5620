//! Every rule deckbox checks, in one registry: each rule's id, severity, documentation and
//! code sit together in the file of its family, and one list (`every_rule!` in
//! `check/rule.rs`) names them once.
//!
//! A rule is a [`RuleDef`]: its stable id (a contract: never rename or reuse one), its
//! severity, what `deckbox explain` and `docs/rules.md` say of it, and how it is found
//! ([`Check`]). Construction rules run over the whole identified deck ([`construction`]);
//! line rules are found while the lines are read and identified ([`crate::check`]), with the
//! findings built by `rules/lines.rs`. Every rule runs on every deck, so a player sees everything
//! at once. Cards count by *name* as the rulebooks define it ([`crate::names`]): printings
//! and languages of one name count together. Lines that could not be identified count
//! toward the deck size only.
//!
//! Adding a rule: write its `RuleDef` and function in the file of its family (or a new
//! file), and add one line to the list of rules in `check/rule.rs` (`every_rule!`): that
//! line makes the [`Rule`] variant findings name (without depending on the rules) and ties it
//! to its definition here. The order of the list is the order of [`Rule::ALL`], of
//! `deckbox explain` and of findings on one line.
//!
//! This module must not read files or render anything; a format's limits come from
//! [`Format`], never from constants here.

mod copies;
mod glc;
mod headers;
mod legality;
pub(super) mod lines;
mod size;
mod tags;

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::cards::{CardDb, Printing};
use crate::check::DeckCard;
use crate::check::diagnostic::{Diagnostic, Label, Severity};
pub use crate::check::rule::Rule;
use crate::deck::source::SourceText;
use crate::deck::{DeckList, Span};
use crate::formats::Format;
use crate::formats::legality::Verdict;

/// One rule: what it is, how bad, what the documentation says, and how it is found.
#[derive(Debug)]
pub struct RuleDef {
    /// The stable id (`copy-limit`).
    pub id: &'static str,
    pub severity: Severity,
    /// One sentence: what the rule finds.
    pub summary: &'static str,
    /// Why it is a rule, quoting the rulebook passage or naming the source.
    pub why: &'static str,
    /// A deck-list excerpt, or a sentence, that breaks the rule.
    pub example: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    pub check: Check,
}

/// How a rule's findings are made.
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// While the lines are read and identified: [`crate::check::check`] calls the builders
    /// in `rules/lines.rs`.
    Lines,
    /// Over the identified deck, by this function.
    Deck(fn(&Deck) -> Vec<Diagnostic>),
}

/// Ties each [`Rule`] to its [`RuleDef`], from the one list of rules
/// (`every_rule!` in `check/rule.rs`, which also makes the enum). The `match` is
/// exhaustive, so every rule has a definition.
macro_rules! registry {
    ($($variant:ident => $def:path,)*) => {
        impl Rule {
            /// The rule's definition.
            pub fn def(self) -> &'static RuleDef {
                match self {
                    $(Rule::$variant => &$def,)*
                }
            }
        }
    };
}

crate::check::rule::every_rule!(registry);

impl Rule {
    /// The stable id (`copy-limit`).
    pub fn id(self) -> &'static str {
        self.def().id
    }

    pub fn severity(self) -> Severity {
        self.def().severity
    }

    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.id() == id)
    }

    /// The rule `written` names when case, spaces, `-` and `_` are ignored (`copylimit`,
    /// `Copy_Limit`), as a person types an id they read once.
    pub fn from_loose_id(written: &str) -> Option<Rule> {
        let loose = |text: &str| -> String {
            text.chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let wanted = loose(written);
        Rule::ALL
            .into_iter()
            .find(|rule| loose(rule.id()) == wanted)
    }

    /// The rule whose id is nearest to `written`, when it is near enough to be a typo
    /// (at most a third of its letters differ): for "did you mean".
    pub fn closest(written: &str) -> Option<Rule> {
        let written = written.to_ascii_lowercase();
        Rule::ALL
            .into_iter()
            .map(|rule| (strsim::levenshtein(rule.id(), &written), rule))
            .filter(|(distance, rule)| *distance * 3 <= rule.id().len().max(3))
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, rule)| rule)
    }

    /// The rule's documentation, as `deckbox explain` prints it.
    pub fn doc(self) -> &'static RuleDef {
        self.def()
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// What every construction rule reads: the deck as identified and the format.
pub struct Deck<'a> {
    pub text: &'a SourceText<'a>,
    pub list: &'a DeckList,
    /// Every card line, identified or not.
    pub cards: &'a [DeckCard],
    /// The identified lines, with their printings.
    pub identified: Vec<(&'a DeckCard, &'a Printing)>,
    pub db: &'a CardDb,
    pub format: &'a Format,
    /// What the format says of each identified line's printing, judged once for the rules
    /// that read it.
    verdicts: OnceCell<Vec<Verdict<'a>>>,
}

impl<'a> Deck<'a> {
    /// The format's verdict on each line of [`identified`](Self::identified), in order.
    pub fn verdicts(&self) -> &[Verdict<'a>] {
        self.verdicts.get_or_init(|| {
            self.identified
                .iter()
                .map(|(_, printing)| {
                    crate::formats::legality::judge(self.format, self.db, printing)
                })
                .collect()
        })
    }
}

/// Runs every construction rule of the registry over an identified deck.
pub fn construction(
    text: &SourceText,
    list: &DeckList,
    cards: &[DeckCard],
    db: &CardDb,
    format: &Format,
) -> Vec<Diagnostic> {
    let deck = Deck {
        text,
        list,
        cards,
        identified: cards
            .iter()
            .filter_map(|card| Some((card, db.get(card.printing?)?)))
            .collect(),
        db,
        format,
        verdicts: OnceCell::new(),
    };
    Rule::ALL
        .into_iter()
        .filter_map(|rule| match rule.def().check {
            Check::Deck(run) => Some(run(&deck)),
            Check::Lines => None,
        })
        .flatten()
        .collect()
}

/// `1 card`, `2 cards`.
fn plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("{count} {one}")
    } else {
        format!("{count} {many}")
    }
}

/// The cards of one name (or one tag) and the lines they are on.
struct Group<'a> {
    display: String,
    count: u64,
    lines: Vec<&'a DeckCard>,
}

impl<'a> Group<'a> {
    fn new(display: String) -> Group<'a> {
        Group {
            display,
            count: 0,
            lines: Vec::new(),
        }
    }

    fn add(&mut self, card: &'a DeckCard) {
        self.count += u64::from(card.line.count);
        self.lines.push(card);
    }

    /// Labels on every line of the group but the first.
    fn related(&self) -> Vec<Label> {
        self.lines
            .iter()
            .skip(1)
            .map(|card| Label {
                line: card.line.line,
                span: card.line.span,
                message: format!("{} more here", card.line.count),
            })
            .collect()
    }

    fn first_span(&self) -> Option<Span> {
        self.lines.first().map(|card| card.line.span)
    }
}

/// Groups unidentified lines by the lookup key of their written name, in written order.
/// The key finds its group through a map: a hostile deck of 200,000 distinct unknown names
/// must not compare each with every group before it (that took minutes).
fn by_written_name<'a>(cards: impl Iterator<Item = &'a DeckCard>) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for card in cards {
        let key = crate::names::lookup_key(&card.line.name);
        let at = *index.entry(key).or_insert_with(|| {
            groups.push(Group::new(card.line.name.clone()));
            groups.len() - 1
        });
        if let Some(group) = groups.get_mut(at) {
            group.add(card);
        }
    }
    groups
}

/// Groups cards by rules name, in the order names first appear.
fn by_name<'a>(cards: impl Iterator<Item = (&'a DeckCard, &'a Printing)>) -> Vec<Group<'a>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Group<'a>> = BTreeMap::new();
    for (card, printing) in cards {
        let key = printing.rules_key().to_string();
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups
            .entry(key)
            .or_insert_with(|| Group::new(printing.rules_name()))
            .add(card);
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_its_own_id_and_serializes_as_it() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_id(rule.id()), Some(rule));
            let serialized = serde_json::to_string(&rule).unwrap();
            assert_eq!(serialized, format!("\"{}\"", rule.id()));
            let kebab: String = format!("{rule:?}")
                .chars()
                .enumerate()
                .flat_map(|(at, c)| {
                    let dash = (at > 0 && c.is_uppercase()).then_some('-');
                    dash.into_iter().chain(c.to_lowercase())
                })
                .collect();
            assert_eq!(kebab, rule.id(), "the id is the variant in kebab case");
        }
    }

    /// `deckbox explain` shows each example as a list to try: a line written with a set code
    /// and number must name that printing of that card (`Rayquaza ☆ DX 107`, not a `DF 107`
    /// that is another card).
    #[test]
    fn rule_examples_use_real_printings() {
        let db = crate::cards::storage::embedded::open().unwrap();
        // These rules' examples name no real printing on purpose.
        let misnamed = ["unknown-card", "card-mismatch", "unknown-printing"];
        for rule in Rule::ALL {
            let def = rule.def();
            if misnamed.contains(&def.id) {
                continue;
            }
            let list = crate::deck::parse(def.example);
            for line in &list.cards {
                let (Some(set), Some(number)) = (line.set.as_deref(), line.number.as_deref())
                else {
                    continue;
                };
                if crate::cards::identification::resolve::is_placeholder(set, number)
                    || crate::cards::identification::resolve::is_ptcgl_alt_code(set)
                {
                    continue;
                }
                let found = crate::cards::identification::resolve::resolve(
                    &db,
                    &line.name,
                    Some(set),
                    Some(number),
                    None,
                );
                assert!(
                    matches!(
                        found,
                        crate::cards::identification::resolve::Resolution::Found {
                            by_printing: true,
                            ..
                        }
                    ),
                    "{}: `{} {set} {number}` is no printing of that card: {found:?}",
                    def.id,
                    line.name
                );
            }
        }
    }

    #[test]
    fn every_rule_is_documented() {
        for rule in Rule::ALL {
            let def = rule.def();
            for (what, text) in [
                ("summary", def.summary),
                ("why", def.why),
                ("example", def.example),
                ("fix", def.fix),
            ] {
                assert!(!text.trim().is_empty(), "{} has no {what}", def.id);
            }
        }
    }
}
