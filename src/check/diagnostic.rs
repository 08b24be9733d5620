//! Findings: one rule id per failure class, one serializable message type for every output.
//!
//! A [`Diagnostic`] is what every renderer in [`crate::render`] shows: human, short and
//! JSON are views of the same values. Rule ids are a stable contract: never rename or reuse
//! one. This module holds no rule logic (see [`crate::check`]); it describes findings and
//! documents the rules (`deckbox explain <rule>`).

use serde::Serialize;

use crate::deck::Span;
use crate::deck::source::SourceText;

/// How bad a finding is. Errors make a deck invalid; warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Every rule deckbox checks, by stable id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    ParseError,
    UnknownCard,
    CardMismatch,
    DeckSize,
    CopyLimit,
    AceSpecLimit,
    PrismStarLimit,
    RadiantLimit,
    GoldStarLimit,
    NoBasicPokemon,
    NotLegal,
    Banned,
    SingleType,
    RuleBox,
    ExclusiveCards,
    HeaderCount,
    AmbiguousCard,
    UnknownPrinting,
    Encoding,
}

impl Rule {
    pub const ALL: [Rule; 19] = [
        Rule::ParseError,
        Rule::UnknownCard,
        Rule::CardMismatch,
        Rule::DeckSize,
        Rule::CopyLimit,
        Rule::AceSpecLimit,
        Rule::PrismStarLimit,
        Rule::RadiantLimit,
        Rule::GoldStarLimit,
        Rule::NoBasicPokemon,
        Rule::NotLegal,
        Rule::Banned,
        Rule::SingleType,
        Rule::RuleBox,
        Rule::ExclusiveCards,
        Rule::HeaderCount,
        Rule::AmbiguousCard,
        Rule::UnknownPrinting,
        Rule::Encoding,
    ];

    /// The stable id (`copy-limit`).
    pub fn id(self) -> &'static str {
        self.doc().id
    }

    pub fn severity(self) -> Severity {
        match self {
            Rule::HeaderCount | Rule::AmbiguousCard | Rule::UnknownPrinting | Rule::Encoding => {
                Severity::Warning
            }
            _ => Severity::Error,
        }
    }

    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.id() == id)
    }

    /// The rule's documentation, as `deckbox explain` prints it.
    pub fn doc(self) -> &'static RuleDoc {
        let index = Rule::ALL.iter().position(|rule| *rule == self).unwrap_or(0);
        &RULE_DOCS[index]
    }
}

/// What a rule checks, why (with the rulebook passage), an example, and the fix.
#[derive(Debug, Serialize)]
pub struct RuleDoc {
    pub id: &'static str,
    pub summary: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    pub fix: &'static str,
}

/// In the order of [`Rule::ALL`].
static RULE_DOCS: [RuleDoc; 19] = [
    RuleDoc {
        id: "parse-error",
        summary: "A line of the list could not be read as a card, a section header, a footer or a comment.",
        why: "Every line of a deck list should say how many copies of which card it holds; a line deckbox cannot read may hide a card the deck needs.",
        example: "4 Iono PAL 185\nfour Arven\n",
        fix: "Write the line as `<count> <name>` optionally followed by the set code and number (`4 Arven SVI 166`), or start it with `#` to make it a comment.",
    },
    RuleDoc {
        id: "unknown-card",
        summary: "No card with this name exists in the card database.",
        why: "Rules can only be checked for cards deckbox can identify. Names are matched in English, French, Spanish, Portuguese, German and Italian, ignoring case and accents.",
        example: "4 Boss's Order PAL 172\n",
        fix: "Correct the spelling (deckbox suggests the nearest names), or, for a card newer than the embedded card index, point deckbox at a current TCGdex checkout with `--cards DIR`.",
    },
    RuleDoc {
        id: "card-mismatch",
        summary: "The set code and number name a different card than the name written on the line.",
        why: "A set code and collector number identify one printing; when the name disagrees, the line is ambiguous and the deck may not contain the card you think.",
        example: "4 Drakloak TWM 128   (TWM 128 is Dreepy)\n",
        fix: "Fix the name or the set code and number so they name the same card.",
    },
    RuleDoc {
        id: "deck-size",
        summary: "The deck does not have the number of cards the format requires (60).",
        why: "Rulebook (Sun & Moon, \"Deck Building\"): \"your deck must be exactly 60 cards; it can't be any more or less, even 59 or 61 cards!\"",
        example: "A list whose lines add up to 61 cards.",
        fix: "Add or remove cards until the deck has exactly the required number.",
    },
    RuleDoc {
        id: "copy-limit",
        summary: "More copies of cards with the same name than the format allows (4), basic Energy excepted.",
        why: "Rulebook (Sun & Moon, \"What does and doesn't count for a Pokémon's name?\"): \"When you are building a deck, you can have only 4 copies of a card with the same name in it, except for basic Energy cards.\" Different printings and languages of one name count together; levels, δ and the pictured person are not part of the name.",
        example: "3 Iono PAL 185\n2 Iono PAF 80\n",
        fix: "Remove copies until no name appears more than 4 times.",
    },
    RuleDoc {
        id: "ace-spec-limit",
        summary: "More than one ACE SPEC card in the deck.",
        why: "Rulebook (Sun & Moon, \"Appendix O: ACE SPEC Trainer Cards\"): \"ACE SPEC Trainer cards are so powerful that you can only have one in your deck. And that's not one of each: that's only one ACE SPEC card total in your deck.\"",
        example: "1 Prime Catcher TEF 157\n1 Master Ball TEF 153\n",
        fix: "Keep one ACE SPEC card and remove the others.",
    },
    RuleDoc {
        id: "prism-star-limit",
        summary: "More than one copy of a Prism Star (◇) card with the same name.",
        why: "Rulebook (Sun & Moon, \"Appendix C: Prism Star Cards\"): \"you can only have one copy of a Prism Star card in your deck. Unlike ACE SPEC cards, you can include Prism Star cards with different names in your deck\".",
        example: "2 Giratina ◇ LOT 97\n",
        fix: "Keep one copy of each Prism Star card.",
    },
    RuleDoc {
        id: "radiant-limit",
        summary: "More than one Radiant Pokémon in the deck.",
        why: "Rulebook (Scarlet & Violet, fr, \"Annexe 6 : Les Pokémon Radieux\"): \"vous ne pouvez avoir qu'un Pokémon Radieux dans votre deck\" (you can have only one Radiant Pokémon in your deck). It counts all Radiant Pokémon together; ordinary Pokémon of the same species do not count (4 Greninja and 1 Radiant Greninja is fine).",
        example: "1 Radiant Greninja ASR 46\n1 Radiant Charizard PGO 11\n",
        fix: "Keep one Radiant Pokémon and remove the others.",
    },
    RuleDoc {
        id: "gold-star-limit",
        summary: "More than one Pokémon Star (☆) card in the deck.",
        why: "Pokémon Star cards carry the rule \"You can't have more than 1 Pokémon Star in your deck.\"",
        example: "1 Rayquaza ☆ DF 107\n1 Gyarados ☆ DF 102\n",
        fix: "Keep one Pokémon Star card and remove the others.",
    },
    RuleDoc {
        id: "no-basic-pokemon",
        summary: "The deck has no Basic Pokémon.",
        why: "Rulebook (Sun & Moon, \"Deck Building\"): \"Finally, your deck must have at least one Basic Pokémon in it.\" Restored Pokémon and V-UNION pieces are not Basic Pokémon, and Fossil Item cards are not Pokémon while in the deck.",
        example: "A deck of only Trainer and Energy cards.",
        fix: "Add at least one Basic Pokémon; most decks play 8 to 15 so the opening hand rarely needs a mulligan.",
    },
    RuleDoc {
        id: "not-legal",
        summary: "A card outside the format's card pool (regulation mark, set, series or release date).",
        why: "Each format allows only some printings: Standard the regulation marks of the season, Expanded the Black & White series onward. An older printing stays legal when a legal printing has the same name and functionally identical text (Play! Pokémon Tournament Rules 5.4.1.3). deckbox compares it with each legal printing of the name: the kind of card (Trainer or Energy kind, stage, what it evolves from, types, ACE SPEC, Radiant or Prism Star, the name's mechanic such as ex or V) and a fingerprint of the English rules text, taken after setting aside what changed between eras without changing the effect: reminder lines (how many Items or Supporters a turn, the Stadium and Tool rules, deck limits, a rule box's Prize count), typography, and known rewordings (`his or her`, `Shuffle your deck afterward`, Ultra Ball's cost written three ways). So Ultra Ball SUM 135 and Switch BS 95 are legal in Standard through Ultra Ball MEG 131 and Switch MEG 130, while Potion BS 94 (removes up to 2 damage counters) is not the card Potion POR 83 is (heals 30 damage), nor Energy Retrieval BS 81 (trade a card for the Energy) the card Energy Retrieval CRI 108 is. The finding's help names the legal printing compared and what differed; `deckbox card NAME --output json` lists it as `differences`.",
        example: "4 Iono PAL 185   (regulation mark G, rotated out of Standard on 2026-04-10)\n1 Potion BS 94   (compared with Potion POR 83: different effect text)\n",
        fix: "Replace the card, or play a legal printing of it when deckbox names one; `deckbox formats show <format>` lists what the format allows.",
    },
    RuleDoc {
        id: "banned",
        summary: "A card on the format's ban list.",
        why: "Organizers ban cards that break a format. The ban list is part of the format file, each entry with its source and the date it took effect.",
        example: "1 Lysandre's Trump Card PHF 99   (banned in Expanded)\n",
        fix: "Remove the card; `deckbox formats show <format>` prints the ban list.",
    },
    RuleDoc {
        id: "single-type",
        summary: "The deck's Pokémon do not all share one type.",
        why: "Gym Leader Challenge decks are built like a Gym Leader's team: every Pokémon card must share one type. A dual-type Pokémon fits when one of its types matches. Each card counts by its own type, so an evolution line that changes type (Eevee, Colorless, into Flareon, Fire) cannot be played whole.",
        example: "4 Dreepy TWM 128      (Dragon)\n4 Ralts MEG 58        (Psychic)\n",
        fix: "Keep the Pokémon of one type and replace the others.",
    },
    RuleDoc {
        id: "rule-box",
        summary: "A Rule Box card in a format that does not allow them.",
        why: "Rule Box cards carry a box of extra rules (French Scarlet & Violet rulebook, Annexe 6: \"Un Pokémon Radieux est un Pokémon avec un encadré Règle\"): Pokémon ex, EX, GX, TAG TEAM, V, VMAX, VSTAR, V-UNION, BREAK, Mega, LEGEND, Radiant Pokémon and Prism Star cards. Gym Leader Challenge bans them all.",
        example: "1 Dragapult ex TWM 130\n",
        fix: "Replace the card with one without a Rule Box.",
    },
    RuleDoc {
        id: "exclusive-cards",
        summary: "The deck holds cards of two names that the format's rules tie together: a deck may hold only one of them.",
        why: "Some cards are tied by tournament rules rather than by the rulebook. When Professor Sycamore reprinted Professor Juniper's effect with the XY era (announced on the Japanese Pokémon TCG site, reported by Bulbanews on 2013-09-27), a deck became allowed either card, never both, still up to 4 copies of the one it plays. Each format file lists its groups with their source.",
        example: "2 Professor Juniper DEX 98\n2 Professor Sycamore XY 122\n",
        fix: "Keep one of the names and replace the other (up to 4 copies of the one you keep).",
    },
    RuleDoc {
        id: "header-count",
        summary: "A section header or the footer gives a count that matches neither the cards nor the lines under it.",
        why: "Pokémon TCG Live headers count lines, other tools count cards; a number that matches neither suggests the list was edited by hand and a line was lost or added.",
        example: "Pokémon: 14\n4 Dreepy TWM 128\n",
        fix: "Update the number, or let `deckbox fmt` rewrite the headers.",
    },
    RuleDoc {
        id: "ambiguous-card",
        summary: "A name without set code and number matches functionally different cards.",
        why: "Cards with one name can differ in what the rules care about (Base Set Computer Search is an ordinary Item, Boundaries Crossed Computer Search is an ACE SPEC). deckbox reads the name as a card the format allows, the one that breaks the fewest rules (the newest on a tie), says which, and says when another reading would change the verdict.",
        example: "1 Computer Search\n",
        fix: "Add the set code and number of the printing you play (`1 Computer Search BCR 137`).",
    },
    RuleDoc {
        id: "unknown-printing",
        summary: "The set code and number name no printing; the card was identified by its name alone.",
        why: "A set code and collector number identify one printing. When no card is printed under them (a typo, a set code from another tool), deckbox identifies the card by its name, says which printing it assumed, and never lets the line pass in silence: the printing decides legality.",
        example: "4 Ultra Ball DXE 102\n",
        fix: "Write the set code and number of the printing you play (`4 Ultra Ball SVI 196`), or leave both out.",
    },
    RuleDoc {
        id: "encoding",
        summary: "The file is not UTF-8; it was read as Windows-1252.",
        why: "Deck lists are text; accents in card names (Pokémon, Énergie) only survive in a known encoding. Windows-1252 is the usual legacy encoding on Windows.",
        example: "A list saved by an old Windows editor.",
        fix: "Save the file as UTF-8.",
    },
];

/// A secondary place a finding points at (the other lines of an over-limit card).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    pub line: usize,
    pub span: Span,
    pub message: String,
}

/// One finding about one deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub rule: Rule,
    pub severity: Severity,
    /// One line, no trailing period.
    pub message: String,
    /// What to change.
    pub help: Option<String>,
    /// 1-based line and column of the primary span; `None` for deck-wide findings.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub span: Option<Span>,
    /// What to write under the primary span.
    pub label: Option<String>,
    /// Other lines involved.
    pub related: Vec<Label>,
    /// English names of the cards involved.
    pub cards: Vec<String>,
}

impl Diagnostic {
    /// A finding with the rule's own severity and no location yet.
    pub fn new(rule: Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule,
            severity: rule.severity(),
            message: message.into(),
            help: None,
            line: None,
            column: None,
            span: None,
            label: None,
            related: Vec::new(),
            cards: Vec::new(),
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Points the finding at `span` of `source`, computing line and column.
    pub fn at(mut self, source: &SourceText, span: Span, label: impl Into<String>) -> Diagnostic {
        let (line, column) = source.line_column(span.offset);
        self.line = Some(line);
        self.column = Some(column);
        self.span = Some(span);
        self.label = Some(label.into());
        self
    }

    pub fn with_related(mut self, related: Vec<Label>) -> Diagnostic {
        self.related = related;
        self
    }

    pub fn with_cards(mut self, cards: Vec<String>) -> Diagnostic {
        self.cards = cards;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_its_own_doc() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_id(rule.id()), Some(rule));
            let serialized = serde_json::to_string(&rule).unwrap();
            assert_eq!(serialized, format!("\"{}\"", rule.id()));
        }
    }
}
