//! The deck-construction rules, each reading its limit from the [`Format`].
//!
//! Every rule sees the whole deck and returns its findings; all rules run on every deck so
//! a player sees everything at once. Cards count by *name* as the rulebooks define it
//! ([`crate::names`]): printings and languages of one name count together. Lines that could
//! not be identified count toward the deck size only.

use std::collections::BTreeMap;

use crate::cards::{CardDb, Printing};
use crate::check::DeckCard;
use crate::check::diagnostic::{Diagnostic, Label, Rule, SourceText};
use crate::deck::{DeckList, Section, Span};
use crate::formats::legality::{self, Verdict};
use crate::formats::{Format, reprint};
use crate::names;

/// The cards of one name (or one tag) and the lines they are on.
struct Group<'a> {
    display: String,
    count: u64,
    lines: Vec<&'a DeckCard>,
}

impl<'a> Group<'a> {
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

/// Runs every construction rule of `format` over an identified deck.
pub fn construction(
    text: &SourceText,
    list: &DeckList,
    cards: &[DeckCard],
    db: &CardDb,
    format: &Format,
) -> Vec<Diagnostic> {
    let identified: Vec<(&DeckCard, &Printing)> = cards
        .iter()
        .filter_map(|card| Some((card, db.get(card.printing?)?)))
        .collect();
    let mut out = Vec::new();
    out.extend(deck_size(text, list, cards, format));
    out.extend(copy_limit(text, &identified, cards, format));
    out.extend(ace_spec_limit(text, &identified, format));
    out.extend(prism_star_limit(text, &identified, format));
    out.extend(total_limit(text, &identified, TagLimit::RADIANT, format));
    out.extend(total_limit(
        text,
        &identified,
        TagLimit::POKEMON_STAR,
        format,
    ));
    out.extend(no_basic_pokemon(&identified, cards, format));
    out.extend(legality(text, &identified, db, format));
    if !format.construction.rule_box_allowed {
        out.extend(rule_box(text, &identified));
    }
    out.extend(exclusive(text, &identified, format));
    if format.construction.single_type {
        out.extend(single_type(text, &identified));
    }
    out.extend(header_counts(text, list, format));
    out
}

fn plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("{count} {one}")
    } else {
        format!("{count} {many}")
    }
}

fn deck_size(
    text: &SourceText,
    list: &DeckList,
    cards: &[DeckCard],
    format: &Format,
) -> Option<Diagnostic> {
    let total: u64 = cards.iter().map(|card| u64::from(card.line.count)).sum();
    let wanted = u64::from(format.construction.deck_size);
    if total == wanted {
        return None;
    }
    let help = if total > wanted {
        format!("remove {}", plural(total - wanted, "card", "cards"))
    } else {
        format!("add {}", plural(wanted - total, "card", "cards"))
    };
    let diagnostic = Diagnostic::new(
        Rule::DeckSize,
        format!(
            "the deck has {}, but a deck must have exactly {wanted}",
            plural(total, "card", "cards")
        ),
    )
    .with_help(help);
    Some(match &list.footer {
        Some(footer) => diagnostic.at(text, footer.span, format!("the list adds up to {total}")),
        None => diagnostic,
    })
}

/// Groups unidentified lines by the lookup key of their written name, in written order.
fn by_written_name<'a>(cards: impl Iterator<Item = &'a DeckCard>) -> Vec<Group<'a>> {
    let mut groups: Vec<(String, Group<'a>)> = Vec::new();
    for card in cards {
        let key = crate::names::lookup_key(&card.line.name);
        match groups.iter_mut().find(|(known, _)| *known == key) {
            Some((_, group)) => group.add(card),
            None => {
                let mut group = Group {
                    display: card.line.name.clone(),
                    count: 0,
                    lines: Vec::new(),
                };
                group.add(card);
                groups.push((key, group));
            }
        }
    }
    groups.into_iter().map(|(_, group)| group).collect()
}

/// Groups cards by rules name, in the order names first appear.
fn by_name<'a>(cards: impl Iterator<Item = (&'a DeckCard, &'a Printing)>) -> Vec<Group<'a>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Group<'a>> = BTreeMap::new();
    for (card, printing) in cards {
        let display = printing.rules_name();
        let key = printing.rules_key().to_string();
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups
            .entry(key)
            .or_insert_with(|| Group {
                display,
                count: 0,
                lines: Vec::new(),
            })
            .add(card);
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}

/// `exclusive-cards`: one finding per group of the format's `exclusive` whose cards of two
/// or more names are in the deck, pointing at the first line of each name after the first.
fn exclusive(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    format: &Format,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (group, keys) in format.exclusive() {
        let tied = cards
            .iter()
            .filter(|(_, printing)| keys.iter().any(|key| key == printing.rules_key()))
            .copied();
        let present = by_name(tied);
        let [kept, rest @ ..] = present.as_slice() else {
            continue;
        };
        let Some(second) = rest.first() else {
            continue;
        };
        let Some(span) = second.first_span() else {
            continue;
        };
        let counted: Vec<String> = present
            .iter()
            .map(|group| format!("{} × {}", group.count, group.display))
            .collect();
        let related = present
            .iter()
            .flat_map(|group| &group.lines)
            .filter(|card| card.line.span != span)
            .map(|card| Label {
                line: card.line.line,
                span: card.line.span,
                message: "tied to it".to_string(),
            })
            .collect();
        out.push(
            Diagnostic::new(
                Rule::ExclusiveCards,
                format!(
                    "the deck holds {}, but a deck may hold only one of {} ({})",
                    counted.join(" and "),
                    group.names.join(" or "),
                    group.source
                ),
            )
            .with_help(format!(
                "keep {} or {}, not both; up to {} copies of the one you keep",
                kept.display, second.display, format.construction.copy_limit
            ))
            .at(
                text,
                span,
                format!("{} is tied to {}", second.display, kept.display),
            )
            .with_related(related)
            .with_cards(present.iter().map(|group| group.display.clone()).collect()),
        );
    }
    out
}

/// `copy-limit`. Unidentified lines count too, grouped by the name as written (five
/// copies of an unknown name are five copies of one name, whatever the card is).
fn copy_limit(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    all: &[DeckCard],
    format: &Format,
) -> Vec<Diagnostic> {
    let limit = u64::from(format.construction.copy_limit);
    let overrides = format.construction.printed_copy_overrides;
    let exempt = format.copy_limit_exempt();
    let counted = cards
        .iter()
        .filter(|(_, printing)| {
            !printing.is_basic_energy()
                && (!overrides || !printing.any_number)
                && !legality::any_names(exempt, printing)
        })
        .copied();
    let mut groups = by_name(counted);
    groups.extend(by_written_name(
        all.iter().filter(|card| card.printing.is_none()),
    ));
    groups
        .into_iter()
        .filter(|group| group.count > limit)
        .filter_map(|group| {
            let span = group.first_span()?;
            let excess = group.count - limit;
            let lines = if group.lines.len() > 1 {
                format!(" on {} lines", group.lines.len())
            } else {
                String::new()
            };
            Some(
                Diagnostic::new(
                    Rule::CopyLimit,
                    format!(
                        "{} named '{}'{lines}, but at most {} with the same name {} allowed",
                        plural(group.count, "card", "cards"),
                        group.display,
                        plural(limit, "card", "cards"),
                        if limit == 1 { "is" } else { "are" }
                    ),
                )
                .with_help(format!(
                    "remove {} of '{}'",
                    plural(excess, "copy", "copies"),
                    group.display
                ))
                .at(
                    text,
                    span,
                    format!(
                        "{} here",
                        group.lines.first().map_or(0, |card| card.line.count)
                    ),
                )
                .with_related(group.related())
                .with_cards(vec![group.display]),
            )
        })
        .collect()
}

fn prism_star_limit(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    format: &Format,
) -> Vec<Diagnostic> {
    let limit = u64::from(format.construction.prism_star_copies);
    let prism = cards
        .iter()
        .filter(|(_, printing)| printing.prism_star)
        .copied();
    by_name(prism)
        .into_iter()
        .filter(|group| group.count > limit)
        .filter_map(|group| {
            let span = group.first_span()?;
            Some(
                Diagnostic::new(
                    Rule::PrismStarLimit,
                    format!(
                        "{} of the Prism Star card '{}', but only {} of each Prism Star card is allowed",
                        plural(group.count, "copy", "copies"),
                        group.display,
                        plural(limit, "copy", "copies"),
                    ),
                )
                .with_help(format!(
                    "keep {} of '{}'",
                    plural(limit, "copy", "copies"),
                    group.display
                ))
                .at(text, span, "Prism Star card")
                .with_related(group.related())
                .with_cards(vec![group.display]),
            )
        })
        .collect()
}

/// A limit on the total number of cards carrying one tag.
struct TagLimit {
    rule: Rule,
    what: &'static str,
    whats: &'static str,
    has: fn(&Printing) -> bool,
    limit: fn(&Format) -> u32,
}

impl TagLimit {
    const ACE_SPEC: TagLimit = TagLimit {
        rule: Rule::AceSpecLimit,
        what: "ACE SPEC card",
        whats: "ACE SPEC cards",
        has: |printing| printing.ace_spec,
        limit: |format| format.construction.ace_spec_limit,
    };
    const RADIANT: TagLimit = TagLimit {
        rule: Rule::RadiantLimit,
        what: "Radiant Pokémon",
        whats: "Radiant Pokémon",
        has: |printing| printing.radiant,
        limit: |format| format.construction.radiant_limit,
    };
    const POKEMON_STAR: TagLimit = TagLimit {
        rule: Rule::GoldStarLimit,
        what: "Pokémon Star card",
        whats: "Pokémon Star cards",
        has: |printing| printing.pokemon_star,
        limit: |format| format.construction.pokemon_star_limit,
    };
}

fn ace_spec_limit(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    format: &Format,
) -> Option<Diagnostic> {
    total_limit(text, cards, TagLimit::ACE_SPEC, format)
}

fn total_limit(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    tag: TagLimit,
    format: &Format,
) -> Option<Diagnostic> {
    let limit = u64::from((tag.limit)(format));
    let tagged: Vec<(&DeckCard, &Printing)> = cards
        .iter()
        .filter(|(_, printing)| (tag.has)(printing))
        .copied()
        .collect();
    let total: u64 = tagged
        .iter()
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    if total <= limit {
        return None;
    }
    let groups = by_name(tagged.iter().copied());
    let names: Vec<String> = groups.iter().map(|group| group.display.clone()).collect();
    let all = Group {
        display: String::new(),
        count: total,
        lines: tagged.iter().map(|(card, _)| *card).collect(),
    };
    let span = all.first_span()?;
    let related = all
        .lines
        .iter()
        .skip(1)
        .map(|card| Label {
            line: card.line.line,
            span: card.line.span,
            message: format!("another {}", tag.what),
        })
        .collect();
    Some(
        Diagnostic::new(
            tag.rule,
            if limit == 0 {
                format!(
                    "{} in the deck ({}), but the format allows none",
                    plural(total, tag.what, tag.whats),
                    names.join(", ")
                )
            } else {
                format!(
                    "{} in the deck ({}), but only {limit} is allowed in total",
                    plural(total, tag.what, tag.whats),
                    names.join(", ")
                )
            },
        )
        .with_help(if limit == 0 {
            format!("remove {}", names.join(", "))
        } else {
            format!(
                "keep {} and remove the rest: {}",
                plural(limit, tag.what, tag.whats),
                names.join(", ")
            )
        })
        .at(text, span, tag.what)
        .with_related(related)
        .with_cards(names),
    )
}

fn no_basic_pokemon(
    cards: &[(&DeckCard, &Printing)],
    all: &[DeckCard],
    format: &Format,
) -> Option<Diagnostic> {
    let wanted = u64::from(format.construction.min_basic_pokemon);
    let basics: u64 = cards
        .iter()
        .filter(|(_, printing)| printing.is_basic_pokemon())
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    // An unidentified line may be a Basic Pokémon: the count cannot be judged, and the
    // line's own `unknown-card` error already says what to fix.
    let unidentified = all.iter().any(|card| card.printing.is_none());
    if basics >= wanted || unidentified {
        return None;
    }
    let help = "add at least one Basic Pokémon (Restored Pokémon, V-UNION pieces and Fossil Items do not count)".to_string();
    Some(
        Diagnostic::new(
            Rule::NoBasicPokemon,
            format!(
                "the deck has {}, but needs at least {wanted}",
                plural(basics, "Basic Pokémon", "Basic Pokémon")
            ),
        )
        .with_help(help),
    )
}

/// `header-count`: a header's number must count the cards or the lines of its section; the
/// footer's must count the cards of the deck (unless `deck-size` already points there).
fn header_counts(text: &SourceText, list: &DeckList, format: &Format) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (index, header) in list.headers.iter().enumerate() {
        let Some(written) = header.count else {
            continue;
        };
        let next = list
            .headers
            .get(index + 1)
            .map_or(usize::MAX, |next| next.line);
        // Card lines are in line order: the section is one slice, found by bisection, so
        // a list of many headers stays linear.
        let start = list.cards.partition_point(|card| card.line <= header.line);
        let end = list.cards.partition_point(|card| card.line < next);
        let lines = list.cards.get(start..end.max(start)).unwrap_or(&[]);
        let cards: u64 = lines.iter().map(|card| u64::from(card.count)).sum();
        if written == cards || written == lines.len() as u64 {
            continue;
        }
        out.push(
            Diagnostic::new(
                Rule::HeaderCount,
                format!(
                    "the {} header says {written}, but its section has {} on {}",
                    section_name(header.section),
                    plural(cards, "card", "cards"),
                    plural(lines.len() as u64, "line", "lines")
                ),
            )
            .with_help(format!("write {cards} (or run `deckbox fmt`)"))
            .at(text, header.span, format!("expected {cards}")),
        );
    }
    if let Some(footer) = &list.footer
        && let Some(written) = footer.count
    {
        let cards: u64 = list.cards.iter().map(|card| u64::from(card.count)).sum();
        if written != cards && cards == u64::from(format.construction.deck_size) {
            out.push(
                Diagnostic::new(
                    Rule::HeaderCount,
                    format!(
                        "the footer says {written} cards, but the list has {}",
                        plural(cards, "card", "cards")
                    ),
                )
                .with_help(format!("write {cards}, or find the line that was lost"))
                .at(text, footer.span, format!("expected {cards}")),
            );
        }
    }
    out
}

fn section_name(section: Section) -> &'static str {
    match section {
        Section::Pokemon => "Pokémon",
        Section::Trainer => "Trainer",
        Section::Energy => "Energy",
    }
}

/// `not-legal` and `banned`: one finding per line whose printing the format does not allow.
fn legality(
    text: &SourceText,
    cards: &[(&DeckCard, &Printing)],
    db: &CardDb,
    format: &Format,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (card, printing) in cards {
        let verdict = legality::judge(format, db, printing);
        if matches!(verdict, Verdict::Legal | Verdict::LegalAsReprint(_)) {
            continue;
        }
        let name = printing.rules_name();
        let label = printing.printing_label();
        let diagnostic = match verdict {
            Verdict::Legal | Verdict::LegalAsReprint(_) => continue,
            Verdict::Banned(ban) => {
                let mut help = format!("remove '{name}'");
                if let Some(note) = &ban.note {
                    help.push_str(&format!(" ({note})"));
                }
                Diagnostic::new(
                    Rule::Banned,
                    format!(
                        "{name} ({label}) is banned in {}: {}, since {}",
                        format.name, ban.source, ban.date
                    ),
                )
                .with_help(help)
                .at(text, card.line.span, "banned")
            }
            Verdict::NotLegal {
                reason,
                alternative,
                differences,
            } => {
                let help = match alternative.and_then(|id| db.get(id)) {
                    Some(other) if format.pool.reprint_rule => format!(
                        "compared with {} {} (legal) by the reprint rule: same name, {}; play that printing if you mean it, or replace the card",
                        names::canonical(other.names.primary()),
                        other.printing_label(),
                        described(&differences)
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
                Diagnostic::new(
                    Rule::NotLegal,
                    format!("{name} ({label}) is not legal in {}: {reason}", format.name),
                )
                .with_help(help)
                .at(text, card.line.span, "not legal")
            }
        };
        out.push(diagnostic.with_cards(vec![name]));
    }
    out
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

/// `rule-box`: one finding per line holding a Rule Box card.
fn rule_box(text: &SourceText, cards: &[(&DeckCard, &Printing)]) -> Vec<Diagnostic> {
    cards
        .iter()
        .filter(|(_, printing)| printing.has_rule_box())
        .map(|(card, printing)| {
            let name = printing.rules_name();
            Diagnostic::new(
                Rule::RuleBox,
                format!("{name} has a Rule Box, and the format allows no Rule Box cards"),
            )
            .with_help(format!("replace '{name}' with a card without a Rule Box"))
            .at(text, card.line.span, "Rule Box card")
            .with_cards(vec![name])
        })
        .collect()
}

/// `single-type`: every Pokémon must share one type. Names the type most Pokémon have and
/// points at the lines that lack it.
fn single_type(text: &SourceText, cards: &[(&DeckCard, &Printing)]) -> Option<Diagnostic> {
    let pokemon: Vec<&(&DeckCard, &Printing)> = cards
        .iter()
        .filter(|(_, printing)| {
            printing.category == crate::cards::Category::Pokemon && !printing.types.is_empty()
        })
        .collect();
    let mut tally: BTreeMap<&str, u64> = BTreeMap::new();
    for (card, printing) in &pokemon {
        for kind in &printing.types {
            *tally.entry(kind.as_str()).or_insert(0) += u64::from(card.line.count);
        }
    }
    let total: u64 = pokemon
        .iter()
        .map(|(card, _)| u64::from(card.line.count))
        .sum();
    let (best, count) = tally
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(kind, count)| (*kind, *count))?;
    if count == total {
        return None;
    }
    let off: Vec<&&(&DeckCard, &Printing)> = pokemon
        .iter()
        .filter(|(_, printing)| !printing.types.iter().any(|kind| kind == best))
        .collect();
    let (first, _) = **off.first()?;
    let described: Vec<String> = off
        .iter()
        .map(|(_, printing)| format!("{} ({})", printing.rules_name(), printing.types.join("/")))
        .collect();
    let related = off
        .iter()
        .skip(1)
        .map(|(card, printing)| Label {
            line: card.line.line,
            span: card.line.span,
            message: printing.types.join("/"),
        })
        .collect();
    Some(
        Diagnostic::new(
            Rule::SingleType,
            format!(
                "the Pokémon share no type: {count} of {total} are {best}, but not {}",
                described.join(", ")
            ),
        )
        .with_help(format!("replace the Pokémon that are not {best}"))
        .at(text, first.line.span, format!("not {best}"))
        .with_related(related)
        .with_cards(
            off.iter()
                .map(|(_, printing)| printing.rules_name())
                .collect(),
        ),
    )
}
