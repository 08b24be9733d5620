//! Rules found while the lines are read and identified: `parse-error`, `encoding`,
//! `unknown-card`, `card-mismatch`, `ambiguous-card`, `unknown-printing`, `read-as`. Their definitions
//! and the functions that build their findings; [`crate::check`] decides when each is due.

use super::{Check, Rule, RuleDef};
use crate::cards::model::{number_key, split_number};
use crate::cards::{CardDb, Printing, PrintingId};
use crate::check::diagnostic::{Diagnostic, Severity};
use crate::deck::source::SourceText;
use crate::deck::{CardLine, DeckList, Layout, ParseIssueKind, Span};
use crate::names;

pub(super) const PARSE_ERROR: RuleDef = RuleDef {
    id: "parse-error",
    severity: Severity::Error,
    summary: "A line of the list could not be read as a card, a section header, a footer or a comment.",
    why: "Every line of a deck list should say how many copies of which card it holds; a line deckbox cannot read may hide a card the deck needs.",
    example: "4 Iono PAL 185\nfour Arven\n",
    fix: "Write the line as `<count> <name>` optionally followed by the set code and number (`4 Arven SVI 166`), or start it with `#` to make it a comment.",
    check: Check::Lines,
};

pub(super) const UNKNOWN_CARD: RuleDef = RuleDef {
    id: "unknown-card",
    severity: Severity::Error,
    summary: "No card with this name exists in the card database.",
    why: "Rules can only be checked for cards deckbox can identify. Names are matched in English, French, Spanish, Portuguese, German and Italian, ignoring case and accents.",
    example: "4 Boss's Order PAL 172\n",
    fix: "Correct the spelling (deckbox suggests the nearest names), or, for a card newer than the embedded card index, point deckbox at a current TCGdex checkout with `--cards DIR`.",
    check: Check::Lines,
};

pub(super) const CARD_MISMATCH: RuleDef = RuleDef {
    id: "card-mismatch",
    severity: Severity::Error,
    summary: "The set code and number name a different card than the name written on the line.",
    why: "A set code and collector number identify one printing; when the name disagrees, the line is ambiguous and the deck may not contain the card you think.",
    example: "4 Drakloak TWM 128   (TWM 128 is Dreepy)\n",
    fix: "Fix the name or the set code and number so they name the same card.",
    check: Check::Lines,
};

pub(super) const AMBIGUOUS_CARD: RuleDef = RuleDef {
    id: "ambiguous-card",
    severity: Severity::Warning,
    summary: "A name without set code and number matches functionally different cards.",
    why: "Cards with one name can differ in what the rules care about (Base Set Computer Search is an ordinary Item, Boundaries Crossed Computer Search is an ACE SPEC). deckbox reads the name as a card the format allows, the one that breaks the fewest rules (the newest on a tie), says which, and says when another reading would change the verdict.",
    example: "1 Computer Search\n",
    fix: "Add the set code and number of the printing you play (`1 Computer Search BCR 137`).",
    check: Check::Lines,
};

pub(super) const UNKNOWN_PRINTING: RuleDef = RuleDef {
    id: "unknown-printing",
    severity: Severity::Warning,
    summary: "The set code and number name no printing; the card was identified by its name alone.",
    why: "A set code and collector number identify one printing. When no card is printed under them (a typo, a set code from another tool), deckbox identifies the card by its name, says which printing it assumed, and never lets the line pass in silence: the printing decides legality. A code no set of the card index has (a set released after the index was built, such as `30C`) is said to be none of the index's, with the index's newest set: `deckbox cards update` gets newer sets.",
    example: "4 Ultra Ball DXE 102\n",
    fix: "Write the set code and number of the printing you play (`4 Ultra Ball SVI 196`), or leave both out.",
    check: Check::Lines,
};

pub(super) const READ_AS: RuleDef = RuleDef {
    id: "read-as",
    severity: Severity::Info,
    summary: "A line that names no card was read as the card its shorthand stands for (a remark, not a fault).",
    why: "Players write a basic Energy by its type alone (`11x Dark`, `8 Water`, `8 Eau`) and a few cards by a widely used short name (`DCE`, `Double Colorless`). deckbox reads such a line as that card only when no card has the name written, from a curated table where each short name has a public source, and says which card it read, so a wrong guess is seen; `fmt` writes the card's name. A name no card has, on a line with no set code, that spells the name of exactly one card but for one slip (a letter added, dropped or changed inside the name, or two neighbours swapped; the name at least 6 letters; `4 Lysander`) is read as that card too, with this finding at warning level: a guess the player should see.",
    example: "11x Dark   (read as Darkness Energy)\n",
    fix: "Nothing to fix; `deckbox fmt` writes the card's full name.",
    check: Check::Lines,
};

pub(super) const ENCODING: RuleDef = RuleDef {
    id: "encoding",
    severity: Severity::Warning,
    summary: "The file is not UTF-8: it was read as UTF-16 or Windows-1252, or a line of a UTF-8 file holds bytes that are not UTF-8.",
    why: "Deck lists are text; accents in card names (Pokémon, Énergie) only survive in a known encoding. UTF-16 (with or without a byte-order mark) and Windows-1252, the usual legacy encoding on Windows, are read as such; a UTF-8 file with a few damaged bytes stays UTF-8, and each damaged line is named, with the bytes shown as �.",
    example: "A list saved by an old Windows editor, or one whose accented letters were cut in half by a copy.",
    fix: "Save the file as UTF-8.",
    check: Check::Lines,
};

/// `parse-error`: one finding per line (or JSON value) the reader could not read.
/// Most damaged lines of a UTF-8 file named one by one; the rest are counted in the last.
const MAX_DAMAGED_LINES: usize = 20;

/// One `encoding` warning for each line of a UTF-8 file that holds bytes that are not UTF-8
/// (decoded as U+FFFD): the rest of the file was read as written.
pub(crate) fn damaged_lines(text: &SourceText) -> Vec<Diagnostic> {
    let mut damaged = text
        .text()
        .match_indices('\u{FFFD}')
        .map(|(offset, _)| (text.line(offset), offset))
        .collect::<Vec<_>>();
    damaged.dedup_by_key(|(line, _)| *line);
    let total = damaged.len();
    damaged
        .into_iter()
        .take(MAX_DAMAGED_LINES)
        .enumerate()
        .map(|(index, (_, offset))| {
            let more = match total - MAX_DAMAGED_LINES.min(total) {
                extra if extra > 0 && index + 1 == MAX_DAMAGED_LINES => {
                    format!(" ({extra} more lines like it are not shown)")
                }
                _ => String::new(),
            };
            Diagnostic::new(
                Rule::Encoding,
                format!("this line holds bytes that are not UTF-8, shown as �; the rest of the file is UTF-8{more}"),
            )
            .with_help("retype the damaged characters and save the file as UTF-8")
            .at(text, Span::new(offset, '\u{FFFD}'.len_utf8()), "not UTF-8")
        })
        .collect()
}

pub(crate) fn parse_errors(text: &SourceText, list: &DeckList) -> Vec<Diagnostic> {
    let json = list.layout == Some(Layout::Json);
    let help = if json {
        r#"write each card as `{"count": 4, "name": "Iono", "set": "PAL", "number": "185"}` in a `pokemon`, `trainer` or `energy` array"#
    } else {
        "write card lines as `<count> <name> [<set code> <number>]`, e.g. `4 Iono PAL 185`; start a comment with `#`"
    };
    list.issues
        .iter()
        .map(|issue| {
            let label = match issue.kind {
                ParseIssueKind::BadCount => "this count",
                ParseIssueKind::Unreadable if json => "here",
                ParseIssueKind::Unreadable => "this line",
            };
            Diagnostic::new(Rule::ParseError, issue.message.clone())
                .with_help(help)
                .at(text, issue.span, label)
        })
        .collect()
}

/// `encoding`: the whole file was read in a legacy encoding.
pub(crate) fn not_utf8(encoding: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::Encoding,
        format!("the file is not UTF-8; it was read as {encoding}"),
    )
    .with_help("save the file as UTF-8")
}

fn describe(printing: &Printing) -> String {
    let mut kind = match (printing.category, printing.trainer, printing.stage) {
        (crate::cards::Category::Trainer, Some(kind), _) => kind.label().to_string(),
        (crate::cards::Category::Pokemon, _, Some(stage)) => format!("{} Pokémon", stage.as_str()),
        (crate::cards::Category::Trainer, None, _) => "Trainer".to_string(),
        (crate::cards::Category::Energy, _, _) => "Energy".to_string(),
        (crate::cards::Category::Pokemon, _, None) => "Pokémon".to_string(),
    };
    if printing.ace_spec {
        kind = format!("ACE SPEC {kind}");
    }
    format!(
        "{} ({}, {kind})",
        printing.names.primary(),
        printing.printing_label()
    )
}

/// `unknown-printing`: the line's set code and number name no printing, so the card was
/// identified by its name as `assumed`. A code no set of the card index has, and no near
/// code explains (`3 Ultra Ball 30C 128`: 30th Celebration, released after the embedded
/// index was built), is said to be no set of the index, with the index's newest set and
/// how to get newer ones (`deckbox cards update`).
pub(crate) fn unknown_printing(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    assumed: PrintingId,
    written: &str,
) -> Diagnostic {
    let guess = meant(db, line, false);
    let unknown_set = (line.set.as_deref())
        .filter(|code| guess.is_none() && !db.has_set_code(code))
        .map(str::trim);
    if let Some(code) = unknown_set {
        return newer_set(db, text, line, assumed, code);
    }
    let meant = guess.filter(|meant| db.get(assumed) != Some(*meant));
    let assumed = db.get(assumed);
    let label = assumed.map(Printing::printing_label).unwrap_or_default();
    let name = assumed.map(Printing::rules_name).unwrap_or_default();
    let guess = meant.map_or_else(String::new, |meant| {
        format!(
            "did you mean {} ({} {})? ",
            meant.printing_label(),
            names::canonical(meant.names.primary()),
            meant.printing_label()
        )
    });
    Diagnostic::new(
        Rule::UnknownPrinting,
        format!("no '{}' is printed as {written}; it was identified by its name", line.name),
    )
    .with_help(format!(
        "{guess}deckbox assumed {name} ({label}); write the set code and number of the printing you play, or leave both out"
    ))
    .at(text, line.span, format!("no printing {written}"))
    .with_cards(assumed.map(Printing::rules_name).into_iter().collect())
}

/// [`unknown_printing`] for a set code no set of the card index has: maybe a set released
/// after the index was built.
fn newer_set(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    assumed: PrintingId,
    code: &str,
) -> Diagnostic {
    let assumed = db.get(assumed);
    let label = assumed.map(Printing::printing_label).unwrap_or_default();
    let name = assumed.map(Printing::rules_name).unwrap_or_default();
    let newest = db.newest_set().map_or_else(String::new, |(newest, date)| {
        format!("the card index ends with {newest} (released {date}): ")
    });
    Diagnostic::new(
        Rule::UnknownPrinting,
        format!(
            "no set in the card index has the code {code}; '{}' was identified by its name",
            line.name
        ),
    )
    .with_help(format!(
        "{newest}if {code} is a set released since, run `deckbox cards update` to get it; deckbox assumed {name} ({label})"
    ))
    .at(text, line.span, format!("no set {code} in the card index"))
    .with_cards(assumed.map(Printing::rules_name).into_iter().collect())
}

/// `unknown-printing` at info level for a Pokémon written with one of PTCG Live's own codes
/// (`1 Team Rocket's Mimikyu SVALT 180`): the client's number for a promo variant, which
/// no public source maps to a printed card (Limitless's decklist docs say only that these
/// numbers are the game's own, and that a Pokémon needs its printed code and number). The
/// card was identified by its name alone; a remark, since the player's export is as the
/// client wrote it.
pub(crate) fn alt_number(
    text: &SourceText,
    line: &CardLine,
    assumed: Option<&Printing>,
    written: &str,
) -> Diagnostic {
    let label = assumed.map(Printing::printing_label).unwrap_or_default();
    let name = assumed.map(Printing::rules_name).unwrap_or_default();
    let mut diagnostic = Diagnostic::new(
        Rule::UnknownPrinting,
        format!(
            "{written} is PTCG Live's own number for a promo variant, which no public source maps to a printed card; '{}' was identified by its name",
            line.name
        ),
    )
    .with_help(format!(
        "deckbox assumed {name} ({label}); if the card you play has other attacks, write the set code and number printed on it"
    ))
    .at(text, line.span, format!("read as {name} {label}"))
    .with_cards(assumed.map(Printing::rules_name).into_iter().collect());
    diagnostic.severity = Severity::Info;
    diagnostic
}

/// The printing of the line's name its set code and number most likely meant, when they
/// name another card (`in_set`: a `card-mismatch`) or no printing (`unknown-printing`): one
/// with the number written, in the set whose code is nearest the one written (the code was
/// mistyped: `Ultra Ball PAF 196` is SVI 196, `Dreepy TWN 128` TWM 128); else, for a
/// mismatch, one in the set written with the nearest number (`Drakloak TWM 128` is TWM
/// 129); else one in a set whose code is one letter off, the nearest number. None for an
/// `unknown-printing` whose set prints the name.
fn meant<'a>(db: &'a CardDb, line: &CardLine, in_set: bool) -> Option<&'a Printing> {
    let (set, number) = (line.set.as_deref()?.trim(), line.number.as_deref()?);
    let set = set.to_ascii_uppercase();
    let number_written = number_key(number);
    let value = |number: &str| {
        let (_, digits, _) = split_number(number);
        digits.parse::<i64>().ok()
    };
    let near = |number: &str| match (value(&number_written), value(&number_key(number))) {
        (Some(a), Some(b)) => a.abs_diff(b),
        _ => u64::MAX,
    };
    let mut seen = std::collections::HashSet::new();
    let printings: Vec<&Printing> = db
        .name_matches(&line.name)
        .filter(|hit| seen.insert(hit.id))
        .filter_map(|hit| db.get(hit.id))
        .filter(|printing| !printing.set_code.is_empty())
        .collect();
    // A set written right whose number names nothing (`Iono PAL 999`): the printing
    // assumed is that set's, no other guess is better.
    if !in_set
        && printings
            .iter()
            .any(|p| p.set_code.eq_ignore_ascii_case(&set))
    {
        return None;
    }
    printings
        .into_iter()
        .filter_map(|printing| {
            let code = printing.set_code.to_ascii_uppercase();
            let distance = strsim::levenshtein(&code, &set);
            let tier = if number_key(&printing.number) == number_written && code != set {
                0
            } else if in_set && code == set {
                1
            } else if distance == 1 {
                2
            } else {
                return None;
            };
            let date = std::cmp::Reverse(printing.release_date.clone());
            Some(((tier, distance, near(&printing.number), date), printing))
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, printing)| printing)
}

/// `ambiguous-card`: the line's name alone names functionally different cards. Says which
/// one deckbox read it as and, when another reading would change the verdict, how.
pub(crate) fn ambiguous(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    candidates: &[PrintingId],
    chosen: PrintingId,
    changes: &[(PrintingId, Vec<&'static str>)],
) -> Diagnostic {
    let others = candidates.iter().filter(|&&id| id != chosen);
    let candidates: Vec<String> = std::iter::once(&chosen)
        .chain(others)
        .filter_map(|&id| db.get(id))
        .map(describe)
        .collect();
    let chosen = db.get(chosen);
    let picked = chosen.map(describe).unwrap_or_default();
    let mut message = format!(
        "'{}' names functionally different cards: {}",
        line.name,
        candidates.join(", ")
    );
    let mut help = format!("deckbox read it as {picked}");
    if !changes.is_empty() {
        message.push_str("; which one changes the verdict");
        for (other, rules) in changes {
            let other = db.get(*other).map(describe).unwrap_or_default();
            if rules.is_empty() {
                help.push_str(&format!("; as {other} the deck breaks other rules"));
            } else {
                help.push_str(&format!(
                    "; as {other} the deck would break {}",
                    rules.join(", ")
                ));
            }
        }
    }
    help.push_str("; add the set code and number of the printing you play");
    Diagnostic::new(Rule::AmbiguousCard, message)
        .with_help(help)
        .at(text, line.name_span, "which printing?")
        .with_cards(chosen.map(Printing::rules_name).into_iter().collect())
}

pub(crate) fn mismatch(
    db: &CardDb,
    text: &SourceText,
    line: &CardLine,
    printing: PrintingId,
    by_name: Option<PrintingId>,
) -> Diagnostic {
    let code = format!(
        "{} {}",
        line.set.as_deref().unwrap_or(""),
        line.number.as_deref().unwrap_or("")
    );
    let actual = db
        .get(printing)
        .map(|p| names::canonical(p.names.primary()));
    let actual = actual.unwrap_or_default();
    let suggested = meant(db, line, true).or_else(|| by_name.and_then(|id| db.get(id)));
    let help = match suggested {
        Some(named) if !named.set_code.is_empty() => format!(
            "write `{actual} {code}`, or keep the name and use the set code and number of a printing of it, such as {} {}",
            names::canonical(named.names.primary()),
            named.printing_label()
        ),
        _ => format!("write `{actual} {code}`, or fix the set code and number"),
    };
    Diagnostic::new(
        Rule::CardMismatch,
        format!("{code} is {actual}, not '{}'", line.name),
    )
    .with_help(help)
    .at(text, line.span, format!("{code} is {actual}"))
    .with_cards(vec![actual])
}

/// `unknown-card`, with suggestions: each a name in the list's language and, when it is not
/// English, the English name beside it (`'Super Bonbon' (Rare Candy)`).
pub(crate) fn unknown(
    text: &SourceText,
    line: &CardLine,
    suggestions: &[(String, Option<String>)],
) -> Diagnostic {
    let shown: Vec<String> = suggestions
        .iter()
        .map(|(name, english)| match english {
            Some(english) => format!("'{name}' ({english})"),
            None => format!("'{name}'"),
        })
        .collect();
    let help = match shown.as_slice() {
        // What the card index covers is said once per run, by the caller
        // (`cards::storage::embedded::coverage_hint`), not under every unknown line.
        [] => "check the spelling".to_string(),
        many => format!("did you mean {}?", many.join(", ")),
    };
    Diagnostic::new(Rule::UnknownCard, format!("unknown card '{}'", line.name))
        .with_help(help)
        .at(text, line.name_span, "no card has this name")
}

/// `read-as`: a line that names no card was read as the card its shorthand stands for.
pub(crate) fn read_as(text: &SourceText, line: &CardLine, written: &str, card: &str) -> Diagnostic {
    Diagnostic::new(Rule::ReadAs, format!("'{written}' read as {card}"))
        .with_help(format!("write `{card}` to name the card in full"))
        .at(text, line.name_span, format!("read as {card}"))
        .with_cards(vec![card.to_string()])
}

/// `read-as` at warning level: a name no card has, read as the one card whose name it spells
/// but for one slip (`Lysander`: Lysandre), with its English name when that differs. A
/// guess, so a warning the player sees.
pub(crate) fn misspelt(
    text: &SourceText,
    line: &CardLine,
    written: &str,
    card: &str,
    english: Option<&str>,
) -> Diagnostic {
    let told = match english {
        Some(english) => format!("'{card}' ({english})"),
        None => format!("'{card}'"),
    };
    let mut diagnostic = Diagnostic::new(Rule::ReadAs, format!("read '{written}' as {told}"))
        .with_help(format!(
            "no card is named '{written}'; '{card}' is the one card a letter away: write `{card}` if that is the card you play"
        ))
        .at(text, line.name_span, format!("read as {card}"))
        .with_cards(vec![card.to_string()]);
    diagnostic.severity = Severity::Warning;
    diagnostic
}

#[cfg(test)]
mod tests {
    use super::describe;
    use crate::cards::{Category, Printing, TrainerKind};
    use crate::names::lang::Language;

    #[test]
    fn printings_are_described_by_the_kind_the_card_prints() {
        let mut tool = Printing::new("SSH", "167", Category::Trainer);
        tool.names.set(Language::En, "Lucky Egg".to_string());
        tool.trainer = Some(TrainerKind::Tool);
        assert_eq!(describe(&tool), "Lucky Egg (SSH 167, Pokémon Tool)");
        tool.trainer = Some(TrainerKind::RocketsSecretMachine);
        assert_eq!(
            describe(&tool),
            "Lucky Egg (SSH 167, Rocket's Secret Machine)"
        );
        tool.ace_spec = true;
        tool.trainer = Some(TrainerKind::TechnicalMachine);
        assert_eq!(
            describe(&tool),
            "Lucky Egg (SSH 167, ACE SPEC Technical Machine)"
        );
    }
}
