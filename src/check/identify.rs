//! Identifying each line of a deck in the card database: the printing a line names, in the
//! list's language, as a card the format allows; a name that names functionally different
//! cards is read as the one breaking the fewest rules, once the whole deck is known.
//! Findings are built by [`super::rules::lines`]; this module decides when each is due.

use std::collections::BTreeSet;

use super::diagnostic::{Diagnostic, Severity};
use super::rules::{self, lines};
use super::set_codes;
use super::{Construction, DeckCard};
use crate::cards::identification::resolve::{self, Resolution};
use crate::cards::{CardDb, Printing, PrintingId};
use crate::deck::source::SourceText;
use crate::deck::{CardLine, DeckList};
use crate::formats::Format;
use crate::formats::legality::{self, Verdict};
use crate::names;
use crate::names::lang::Language;
use crate::search::keys::Needle;

/// Identifies every line of `list` and reads each ambiguous name as the card that breaks
/// the fewest rules: the cards as identified, and the findings about them (line findings,
/// `ambiguous-card`, and with [`Construction::Findings`] the construction rules' findings
/// for the deck as read). With [`Construction::Off`] (a collection of owned cards, where
/// limits and deck size mean nothing) no construction rule runs, and an ambiguous name is
/// read as its first candidate (the newest), said so with `ambiguous-card`.
pub(super) fn identify_deck(
    text: &SourceText,
    list: &DeckList,
    db: &CardDb,
    format: &Format,
    language: Option<Language>,
    mode: Construction,
) -> (Vec<DeckCard>, Vec<Diagnostic>) {
    let allowed = |printing: &Printing| {
        let verdict = legality::judge(format, db, printing);
        verdict.allows() || matches!(verdict, Verdict::Undecided { .. })
    };
    let existed = |printing: &Printing| {
        crate::util::date::parse(&printing.release_date).is_none_or(|day| day <= format.date)
    };
    let preference = resolve::Preference {
        allowed: &allowed,
        existed: &existed,
    };
    let mut context = Identify {
        db,
        text,
        language,
        preference: &preference,
        suggestions_left: MAX_SUGGESTED,
        notes_left: MAX_NOTES_COMPARED,
        diagnostics: Vec::new(),
        choices: Vec::new(),
    };
    let mut cards: Vec<DeckCard> = list
        .cards
        .iter()
        .enumerate()
        .map(|(index, line)| identify_line(&mut context, index, line))
        .collect();
    let mut diagnostics = context.diagnostics;
    let rules_apply = match mode {
        Construction::Findings => true,
        // Nobody reads their findings: they run only to choose between readings.
        Construction::Choices => !context.choices.is_empty(),
        Construction::Off => false,
    };
    let mut construction = if rules_apply {
        rules::construction(text, list, &cards, db, format)
    } else {
        Vec::new()
    };
    for (n, choice) in context.choices.iter().enumerate() {
        let outcome = if rules_apply && n < MAX_CHOICES {
            choose(
                text,
                list,
                &mut cards,
                &mut construction,
                db,
                format,
                choice,
            )
        } else {
            Outcome {
                chosen: choice.candidates.first().copied().unwrap_or_default(),
                changes: Vec::new(),
            }
        };
        diagnostics.push(lines::ambiguous(
            db,
            text,
            &choice.line,
            &choice.candidates,
            outcome.chosen,
            &outcome.changes,
        ));
    }
    if mode == Construction::Findings {
        diagnostics.extend(construction);
    }
    (cards, diagnostics)
}

/// How many unknown cards per deck get suggestions. Each search scans every known name, so
/// a hostile file of 100,000 unknown lines must not search 100,000 times.
const MAX_SUGGESTED: usize = 50;

/// How many notes per deck are compared with the attack and ability names of the cards
/// their line's name names ([`card_in_note`]). Each comparison reads the texts of every
/// printing of the name, so a hostile file of 100,000 noted lines must not read them
/// 100,000 times.
const MAX_NOTES_COMPARED: usize = 50;

/// What identifying the lines of one deck shares.
struct Identify<'a> {
    db: &'a CardDb,
    text: &'a SourceText<'a>,
    language: Option<Language>,
    /// Which printing a name alone is read as: an allowed one, else one of its date.
    preference: &'a resolve::Preference<'a>,
    suggestions_left: usize,
    /// What is left of [`MAX_NOTES_COMPARED`].
    notes_left: usize,
    diagnostics: Vec<Diagnostic>,
    /// Lines whose name names functionally different cards, for [`choose`].
    choices: Vec<Choice>,
}

/// A line whose name alone names functionally different cards the format allows: which
/// card it is read as is decided once the whole deck is known ([`choose`]).
struct Choice {
    /// Indices in the deck's cards of the lines that write this name (and code) the same
    /// way: they are read as one card.
    indices: Vec<usize>,
    line: CardLine,
    /// The printing picked first (the newest), then one of each other card.
    candidates: Vec<PrintingId>,
}

/// How many ambiguous lines get their reading chosen by trying the others: each try runs
/// the construction rules again, and a hostile deck may have thousands of such lines.
const MAX_CHOICES: usize = 16;

/// What [`choose`] decided for one line.
struct Outcome {
    chosen: PrintingId,
    /// The other readings that give the deck a different verdict, with the rules each
    /// would break that the chosen one does not.
    changes: Vec<(PrintingId, Vec<&'static str>)>,
}

/// Reads an ambiguous line as the card that breaks the fewest construction rules (the
/// newest on a tie), updating `cards` and `construction`, and says which other readings
/// would change the verdict. `4 Computer Search` in Unlimited is the Base Set Trainer when
/// the deck already holds an ACE SPEC, and the BCR ACE SPEC otherwise.
fn choose(
    text: &SourceText,
    list: &DeckList,
    cards: &mut [DeckCard],
    construction: &mut Vec<Diagnostic>,
    db: &CardDb,
    format: &Format,
    choice: &Choice,
) -> Outcome {
    let errors = |diagnostics: &[Diagnostic]| -> BTreeSet<&'static str> {
        diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.rule.id())
            .collect()
    };
    let first = choice.candidates.first().copied().unwrap_or_default();
    let mut outcome = Outcome {
        chosen: first,
        changes: Vec::new(),
    };
    let mut tried: Vec<(PrintingId, Vec<Diagnostic>)> = Vec::new();
    for &candidate in &choice.candidates {
        for &index in &choice.indices {
            if let Some(card) = cards.get_mut(index) {
                card.printing = Some(candidate);
            }
        }
        let found = if candidate == first {
            construction.clone()
        } else {
            rules::construction(text, list, cards, db, format)
        };
        tried.push((candidate, found));
    }
    let count = |diagnostics: &[Diagnostic]| errors(diagnostics).len();
    let best = tried
        .iter()
        .enumerate()
        .min_by_key(|(at, (_, found))| (count(found), *at))
        .map_or(0, |(at, _)| at);
    if let Some((chosen, found)) = tried.get(best) {
        outcome.chosen = *chosen;
        let kept = errors(found);
        for (other, theirs) in &tried {
            if other == chosen {
                continue;
            }
            let theirs = errors(theirs);
            if theirs != kept {
                let added = theirs.difference(&kept).copied().collect();
                outcome.changes.push((*other, added));
            }
        }
        *construction = found.clone();
    }
    for &index in &choice.indices {
        if let Some(card) = cards.get_mut(index) {
            card.printing = Some(outcome.chosen);
        }
    }
    outcome
}

/// Identifies one line, recording `unknown-card`, `card-mismatch` and `ambiguous-card`.
fn identify_line(context: &mut Identify, index: usize, line: &CardLine) -> DeckCard {
    let Identify {
        db, text, language, ..
    } = *context;

    let resolve = |line: &CardLine| {
        resolve::resolve_among(
            db,
            &line.name,
            line.set.as_deref(),
            line.number.as_deref(),
            language,
            context.preference,
        )
    };
    let mut resolution = resolve(line);
    if let Some(found) = by_other_code(line, &resolution, &resolve) {
        resolution = found;
    }
    // A line whose name no card has is read again: `3 drakloak twm 129` may end in a code
    // typed in lower case, `4 ORDINI DEL CAPO` is a name in capitals whose last words looked
    // like a code and a number in letters, `FEZANDIPITI EX` a Pokémon ex typed in capitals,
    // `Crispin SCR 133 (thanks to X)` a card followed by a note (kept as its comment). The
    // first other reading that finds a card stands, as the line typed as the card prints it
    // would. Promo words come first: in capitals, `Jirachi Nintendo Promo` would read as a
    // code `NINTENDO` and a number in words, `PROMO`.
    let others = [
        crate::deck::without_promo_word,
        crate::deck::lower_case_code,
        crate::deck::whole_name,
        crate::deck::lower_case_ex,
        crate::deck::without_note,
        crate::deck::name_then_code,
        crate::deck::note_then_code,
        crate::deck::post_shorthand,
    ];
    let reread = matches!(resolution, Resolution::Unknown)
        .then(|| {
            others.iter().find_map(|other| {
                let reread = other(line)?;
                match resolve(&reread) {
                    Resolution::Unknown => None,
                    found => Some((reread, found)),
                }
            })
        })
        .flatten()
        .map(|(mut reread, found)| {
            // A set named by its id (`Fossil Magmar` is `base3`'s: `post_shorthand`) is
            // written with its printed code, as `fmt` writes the line.
            if let (Some(set), Resolution::Found { id, .. }) = (reread.set.as_deref(), &found)
                && crate::deck::looks_like_set_id(set)
                && let Some(printing) = db.get(*id).filter(|p| p.set_id == set)
            {
                reread.set = Some(printing.set_code.clone());
            }
            resolution = found;
            reread
        })
        .or_else(|| {
            // Last, shorthand for a card (`11x Dark`, `DCE`, `Pokegear hgss1-96`): only
            // when nothing else reads the line, and said so, as a note. A line with a code
            // and number is read so only when they name the card the shorthand names; a
            // code that names no set (`{"name": "Psychic", "set": "Energy"}`) is no code.
            let placeholder = |set: &str| {
                resolve::is_placeholder(set, line.number.as_deref().unwrap_or_default())
            };
            let coded = line.set.as_deref().is_some_and(|set| !placeholder(set));
            let mismatch = matches!(resolution, Resolution::Mismatch { .. });
            if !(matches!(resolution, Resolution::Unknown) && !coded || mismatch) {
                return None;
            }
            // `Darkness (Special)` is the special Energy of that name, never the basic one. A
            // nickname followed by a note (`3 ER(Always good)`) is read without it,
            // unless the note tells a special Energy, which the type alone would read as the
            // basic one.
            let (bare, card, special) = match names::shorthand(&line.name) {
                Some(card) => (line.clone(), card, false),
                None => match names::special_energy(&line.name) {
                    Some(card) => (line.clone(), card, true),
                    None => {
                        let bare = crate::deck::without_note(line).filter(|bare| {
                            !(bare.comment.as_deref())
                                .is_some_and(|note| note.to_lowercase().contains("special"))
                        })?;
                        let card = names::shorthand(&bare.name)?;
                        (bare, card, false)
                    }
                },
            };
            let reread = CardLine {
                name: card.to_string(),
                ..bare.clone()
            };
            match resolve(&reread) {
                Resolution::Unknown => None,
                Resolution::Mismatch { .. } if coded => None,
                Resolution::Found {
                    by_printing: false, ..
                } if mismatch => None,
                found => {
                    resolution = if special {
                        not_basic(db, found)?
                    } else {
                        found
                    };
                    context
                        .diagnostics
                        .push(lines::read_as(text, line, &bare.name, card));
                    // A special Energy named after its type keeps the name written (`4
                    // Special M`, `4 Darkness (Special)`): the card's own name is the basic
                    // Energy's too, and `fmt` would merge the two lines into one.
                    Some(if special { bare } else { reread })
                }
            }
        })
        .or_else(|| misspelt(context, line, &mut resolution, &resolve));
    // The line as read (`Énergie Turbo Double BRS 151 (note)` is read without its note
    // first): a name in another order or misspelt is the printing its id names either way,
    // so `fmt`, which writes the note as a comment, never changes the verdict.
    let written = line;
    let line = reread.as_ref().unwrap_or(line);
    let dated_ex = ex_of_the_date(context, line, &mut resolution, &resolve);
    let line = dated_ex.as_ref().unwrap_or(line);
    promo_word(context, written, line, &mut resolution);
    let noted_set = set_in_note(db, line, &mut resolution, &resolve);
    let line = noted_set.as_ref().unwrap_or(line);
    card_in_note(context, line, &mut resolution);
    by_words(context, line, &mut resolution);
    misspelt_with_its_id(context, text, line, &mut resolution);
    let (printing, matched) = match resolution {
        Resolution::Found {
            id,
            language,
            others,
            by_printing,
        } => {
            if !others.is_empty() {
                let candidates: Vec<PrintingId> = std::iter::once(id).chain(others).collect();
                let same = |choice: &&mut Choice| {
                    choice.candidates == candidates
                        && choice.line.name.trim() == line.name.trim()
                        && choice.line.set == line.set
                        && choice.line.number == line.number
                };
                match context.choices.iter_mut().find(same) {
                    Some(choice) => choice.indices.push(index),
                    None => context.choices.push(Choice {
                        indices: vec![index],
                        line: line.clone(),
                        candidates,
                    }),
                }
            }
            if let (false, Some(number)) = (by_printing, line.number.as_deref())
                && !line.set.as_deref().is_some_and(|set| {
                    resolve::is_placeholder(set, number) || resolve::is_ptcgl_alt_code(set)
                })
                && !db.get(id).is_some_and(Printing::is_basic_energy)
            {
                let written = match line.set.as_deref() {
                    Some(set) => format!("{set} {number}"),
                    None => number.to_string(),
                };
                context
                    .diagnostics
                    .push(lines::unknown_printing(db, text, line, id, &written));
            }
            // PTCG Live's own numbers (`SVALT 180`) name no printed card, and no public
            // source maps them (docs/corpus.md, "Audit of re-readings"): a Pokémon's name may
            // name several cards, so the reading by name is said, as a remark.
            if let (Some(set), Some(number)) = (line.set.as_deref(), line.number.as_deref())
                && resolve::is_ptcgl_alt_code(set)
                && db
                    .get(id)
                    .is_some_and(|p| p.category == crate::cards::Category::Pokemon)
            {
                let written = format!("{set} {number}");
                context
                    .diagnostics
                    .push(lines::alt_number(text, line, db.get(id), &written));
            }
            (Some(id), language)
        }
        Resolution::Mismatch { printing, by_name } => {
            context
                .diagnostics
                .push(lines::mismatch(db, text, line, printing, by_name));
            (by_name.or(Some(printing)), None)
        }
        Resolution::Unknown => {
            let suggestions = if context.suggestions_left > 0 {
                context.suggestions_left -= 1;
                in_language(
                    db,
                    resolve::suggestions_in(db, &line.name, language),
                    language,
                )
            } else {
                Vec::new()
            };
            context
                .diagnostics
                .push(lines::unknown(text, line, &suggestions));
            (None, None)
        }
    };
    DeckCard {
        line: line.clone(),
        printing,
        language: matched,
    }
}

/// The reading of a line whose set code is one other sites write for a set deckbox indexes
/// under another ([`set_codes`]: TCGdex's `EP` in `4 Cheren EP 91`, a 2012 post's `BW`):
/// the printing the indexed code and the number name, when it is the line's card and the
/// written code names no printing of it. A code that means two sets (`TR`: PTCGO's Team
/// Rocket, TCGdex's Team Rocket Returns) is read as the set that prints the card at that
/// number (`Rocket's Admin. TR 86`: Team Rocket Returns; `Dark Raichu TR 83`: Team Rocket);
/// where both do (`Dratini TR 53`), as deckbox's own code, so that every line `fmt` writes
/// reads back as itself. `4 Cilan EP 86` stays Cilan by its name (Emerging Powers' 86 is
/// Rufflet: Cilan is Next Destinies 86), with `unknown-printing`.
fn by_other_code(
    line: &CardLine,
    resolution: &Resolution,
    resolve: &dyn Fn(&CardLine) -> Resolution,
) -> Option<Resolution> {
    let by_printing = |found: &Resolution| {
        matches!(
            found,
            Resolution::Found {
                by_printing: true,
                ..
            }
        )
    };
    if by_printing(resolution) {
        return None;
    }
    line.number.as_ref()?;
    let indexed = set_codes::alias(line.set.as_deref()?)?;
    let found = resolve(&CardLine {
        set: Some(indexed.to_string()),
        ..line.clone()
    });
    by_printing(&found).then_some(found)
}

/// The reading of a name-only line that names its card with a promo word (`1 Toxicroak G
/// Promo`, `Jirachi Promo`, `2 Promo Mewtwo`, `1x Mew (Promo 8)`: [`crate::deck::promo_named`]):
/// a Black Star promo printing of the name, not the newest printing of any set (Toxicroak
/// G Promo is DP41, not Platinum's PL 40); the word read as a set code (`Mew (Promo 8)`)
/// counts too. Words that name one promo series keep that series' promos only: `4 Movie
/// Mewtwo` and `MP Mewtwo` are Wizards' (Wizards promo 3), today as in 2000, where `Promo
/// Mewtwo` judged today is the newest Mewtwo promo. Of several, the one numbered as the note says
/// (`Promo 8`), then one the format allows at the date judged, else one released by then,
/// then the list's language, then the newest. The promo word says which card: no
/// `ambiguous-card` choice is left. A line read by another code or a number, or whose name
/// has no promo printing released by the date, keeps its reading.
fn promo_word(
    context: &Identify,
    written: &CardLine,
    line: &CardLine,
    resolution: &mut Resolution,
) {
    let Some((id, language)) = by_name_alone(resolution) else {
        return;
    };
    // A code or a number names the printing, unless the code is the promo word itself
    // (`1x Mew (Promo 8)`).
    let coded = match line.set.as_deref() {
        None => line.number.is_some(),
        Some(set) => !set.eq_ignore_ascii_case("promo"),
    };
    if coded {
        return;
    }
    let Some(named) = crate::deck::promo_named(written, line) else {
        return;
    };
    let db = context.db;
    let number_key = crate::cards::model::number_key;
    let number = named.number.as_deref().map(number_key);
    let preference = context.preference;
    // A promo may lack the name in the list's language (`1 Coatox G Promo`: TCGdex gives
    // Platinum's Toxicroak G a French name, not the promo): its English name finds it.
    let english = db
        .get(id)
        .map(|printing| printing.names.primary().to_string());
    let best = (db.name_matches(&line.name))
        .chain(english.iter().flat_map(|name| db.name_matches(name)))
        .filter_map(|hit| Some((hit, db.get(hit.id)?)))
        .filter(|(_, printing)| {
            crate::cards::model::set_id::is_promo_set(&printing.set_id)
                && named.set.is_none_or(|set| printing.set_id == set)
                && (preference.existed)(printing)
        })
        .max_by_key(|(hit, printing)| {
            (
                number.as_deref() == Some(number_key(&printing.number).as_str()),
                (preference.allowed)(printing),
                Some(hit.language) == context.language,
                printing.release_date.clone(),
                std::cmp::Reverse(hit.id),
            )
        });
    if let Some((hit, printing)) = best {
        // The promo numbered as written accounts for the number: no `unknown-printing`.
        let numbered = number.as_deref() == Some(number_key(&printing.number).as_str());
        *resolution = Resolution::Found {
            id: hit.id,
            language: language.or(Some(hit.language)),
            by_printing: numbered,
            others: Vec::new(),
        };
    }
}

/// The printing and name language of a line read by its name alone (no code and number
/// named the printing).
fn by_name_alone(resolution: &Resolution) -> Option<(PrintingId, Option<Language>)> {
    match *resolution {
        Resolution::Found {
            id,
            language,
            by_printing: false,
            ..
        } => Some((id, language)),
        _ => None,
    }
}

/// The reading of a line whose name ends in `EX` as the Pokémon ex of the date judged
/// (`1x Blaziken EX`, pokegym.net's list of the 2004 Florida State Championship, is Team
/// Magma vs Team Aqua's Blaziken ex): `EX` and `ex` are different names in the rules (the
/// Pokémon-EX of 2012–2016 and the Pokémon-ex of 2003–2007 and of Scarlet & Violet), and
/// players of each era write their own in capitals. Read so only when the line is read by
/// its name alone, no printing of the name as written was released by the date judged (the
/// printing read is one of the date when there is one), and the name with `ex` names a card
/// that was. `None`, and the reading unchanged, otherwise.
fn ex_of_the_date(
    context: &Identify,
    line: &CardLine,
    resolution: &mut Resolution,
    resolve: &dyn Fn(&CardLine) -> Resolution,
) -> Option<CardLine> {
    let (id, _) = by_name_alone(resolution)?;
    let existed = |id: PrintingId| {
        (context.db.get(id)).is_some_and(|printing| (context.preference.existed)(printing))
    };
    if existed(id) || line.set.is_some() || line.number.is_some() {
        return None;
    }
    let reread = crate::deck::lower_case_ex(line)?;
    let found = resolve(&reread);
    let (other, _) = by_name_alone(&found)?;
    existed(other).then(|| {
        *resolution = found;
        reread
    })
}

/// The reading of a line read by its name alone whose note names a set
/// ([`names::sets::named_in`], whose docs give the rule): `2 x Glurak ex (das andere aus
/// 151)`, PokéPhil's list of 2024-03-05, is the Charizard ex of 151 (MEW), not the newest
/// one (Paldean Fates'), as `Glurak ex MEW` would be; `4x Gastly (Fossil)`, a
/// Wizards-era report's, is Fossil's. A code and a number no printing of the name has are
/// read as words of the note (`Glurak ex (aus 151)`: `aus` is no set's code). The line as
/// read has the set's code, so `fmt` writes it and reads it back as the same card, and
/// keeps the note as its comment unless the note is the set's name alone. Read so only
/// when that set prints the line's card; otherwise the line keeps its reading (the note
/// may be about something else: `(2 of 151 cards)` names no set). Like the other readings
/// of a note, no finding says so: the line names the card, the note its set.
fn set_in_note(
    db: &CardDb,
    line: &CardLine,
    resolution: &mut Resolution,
    resolve: &dyn Fn(&CardLine) -> Resolution,
) -> Option<CardLine> {
    if !matches!(
        resolution,
        Resolution::Found {
            by_printing: false,
            ..
        }
    ) {
        return None;
    }
    let (bare, note) = match (line.set.as_deref(), line.number.as_deref()) {
        (None, None) => match crate::deck::without_note(line) {
            Some(bare) if bare.set.is_none() && bare.number.is_none() => {
                let note = bare.comment.clone()?;
                (bare, note)
            }
            _ => (line.clone(), line.comment.clone()?),
        },
        // `aus 151`: no printing of the name has the code (else it is a printing's number
        // the line got wrong, which `unknown-printing` says).
        (Some(code), Some(number)) => {
            let coded = (db.name_matches(&line.name)).any(|hit| {
                db.get(hit.id)
                    .is_some_and(|p| p.set_code.eq_ignore_ascii_case(code))
            });
            if coded {
                return None;
            }
            let words = format!("{code} {number}");
            let note = match &line.comment {
                Some(comment) => format!("{words}; {comment}"),
                None => words,
            };
            let bare = CardLine {
                set: None,
                number: None,
                ..line.clone()
            };
            (bare, note)
        }
        _ => return None,
    };
    let comment = (!names::sets::is_only_a_set_name(&note)).then(|| note.clone());
    names::sets::named_in(&note).into_iter().find_map(|set_id| {
        let code = db.set_code_of_id(set_id).filter(|code| !code.is_empty())?;
        let reread = CardLine {
            set: Some(code.to_string()),
            comment: comment.clone(),
            ..bare.clone()
        };
        let found = resolve(&reread);
        let Resolution::Found { id, .. } = found else {
            return None;
        };
        db.get(id).filter(|printing| printing.set_id == set_id)?;
        *resolution = found;
        Some(reread)
    })
}

/// The reading of a line read by its name alone whose note names an attack or an ability
/// of one of the cards of that name ([`names::notes`] gives the rule for the words):
/// `1 Marshadow (Reset Hole)` (pokemoncardjp.com.au's report of the Chiba Champions League,
/// 2019-04) is Unbroken Bonds' Marshadow, whose ability is Resetting Hole, not Shining
/// Legends' (Let Loose), the Marshadow of the list's date. Cards are told apart by their
/// texts (a printing's effect fingerprint, as the reprint rule compares them); the note
/// chooses when exactly one card of the name has a move it spells, in any language. The
/// date then chooses the printing among that card's, as for a line read by its name: one
/// the format allows that was released by the date judged, else one released by then,
/// else the card's first printing. That last case is a list from before the card's
/// English release (a Japanese event's): the note says which card was played, so that
/// card is read, and the rules judge it at the date (`not-legal`, released after the
/// date), as they judge any card the list names. No `ambiguous-card` choice is left: the
/// note said which card. Like the other readings of a note, no finding says so. Only the
/// first [`MAX_NOTES_COMPARED`] such notes of a deck are compared.
fn card_in_note(context: &mut Identify, line: &CardLine, resolution: &mut Resolution) {
    let Some((id, language)) = by_name_alone(resolution) else {
        return;
    };
    let (name, note) = match (line.set.is_none() && line.number.is_none())
        .then(|| crate::deck::without_note(line))
        .flatten()
    {
        Some(bare) if bare.set.is_none() && bare.number.is_none() && bare.comment.is_some() => {
            (bare.name, bare.comment)
        }
        _ => (line.name.clone(), line.comment.clone()),
    };
    let words = names::notes::note_words(&note.unwrap_or_default());
    if words.is_empty() {
        return;
    }
    let db = context.db;
    let english = db.get(id).map(|p| p.names.primary().to_string());
    let mut seen = BTreeSet::new();
    let printings: Vec<(PrintingId, &Printing)> = (db.name_matches(&name))
        .chain(english.iter().flat_map(|name| db.name_matches(name)))
        .filter(|hit| seen.insert(hit.id))
        .filter_map(|hit| Some((hit.id, db.get(hit.id)?)))
        .collect();
    // One card per text: the printings of each effect fingerprint.
    let cards: BTreeSet<Option<u64>> = printings.iter().map(|(_, p)| p.effect).collect();
    if cards.len() < 2 || context.notes_left == 0 {
        return;
    }
    context.notes_left -= 1;
    let spelt = |printing: PrintingId| {
        let parts = crate::cards::TextParts {
            attack_names: true,
            ability_names: true,
            ..Default::default()
        };
        db.texts(printing, parts, &mut |text| {
            let text = match text {
                crate::cards::TextRef::Table { lang, id } => db.table_text(lang, id),
                crate::cards::TextRef::Inline { text, .. } => Some(text),
            };
            text.is_some_and(|text| names::notes::spells(&words, text))
        })
    };
    let mut named = cards
        .into_iter()
        .filter(|card| (printings.iter()).any(|&(id, p)| p.effect == *card && spelt(id)));
    let (Some(card), None) = (named.next(), named.next()) else {
        return;
    };
    let preference = context.preference;
    let of_card = || printings.iter().filter(|(_, p)| p.effect == card);
    // Released by the date: the newest, one the format allows first; none: the first.
    let best = (of_card().filter(|(_, p)| (preference.existed)(p)))
        .max_by_key(|&&(id, p)| {
            (
                (preference.allowed)(p),
                p.release_date.clone(),
                std::cmp::Reverse(id),
            )
        })
        .or_else(|| of_card().min_by_key(|&&(id, p)| (p.release_date.clone(), id)));
    if let Some(&(id, _)) = best {
        *resolution = Resolution::Found {
            id,
            language,
            by_printing: false,
            others: Vec::new(),
        };
    }
}

/// The reading of a name-only line kept to the printings that are not basic Energy (`4
/// Darkness (Special)`): the first of them, the others as its alternatives. `None` when
/// every candidate is basic (the special Energy is not among the cards the format allows).
fn not_basic(db: &CardDb, found: Resolution) -> Option<Resolution> {
    let Resolution::Found {
        id,
        language,
        by_printing,
        others,
    } = found
    else {
        return Some(found);
    };
    let mut special = std::iter::once(id)
        .chain(others)
        .filter(|&printing| !db.get(printing).is_some_and(Printing::is_basic_energy));
    let id = special.next()?;
    Some(Resolution::Found {
        id,
        language,
        by_printing,
        others: special.collect(),
    })
}

/// The most words of a name read word by word ([`by_words`]): card names have fewer.
const MAX_WORDS: usize = 8;

/// A reading as `deckbox search` reads a name: each word starts a word of one of a
/// printing's names, in any language (one name table for both). So a name no table holds
/// whole, such as a translation with its words in another order (`Énergie Turbo Double BRS
/// 151`: Énergie Double Turbo), is read as the printing its code and number name when that
/// printing's names hold every word and the name alone names no other card (no note: the
/// code names the card, the name agrees). A name with no code is left to suggestions (a
/// misspelt `Boss's Order` is not silently another name).
fn by_words(context: &Identify, line: &CardLine, resolution: &mut Resolution) {
    // A name that names another card (`Charizard OBF 125`: Charizard ex) stays a
    // mismatch: the number may be the slip.
    let Some(printing) = unnamed_mismatch(resolution) else {
        return;
    };
    let folded = names::fold(&line.name);
    let needles: Vec<Needle> = (folded.split_whitespace())
        .map(|word| Needle::name(word, true))
        .collect();
    if !(1..=MAX_WORDS).contains(&needles.len()) {
        return;
    }
    if let Some(language) = words_language(context.db, printing, &needles, context.language) {
        *resolution = Resolution::Found {
            id: printing,
            language: Some(language),
            by_printing: true,
            others: Vec::new(),
        };
    }
}

/// The language of the name of `id` that holds the most of the needles, when its names
/// (in any language) hold every one; the list's language first on a tie.
fn words_language(
    db: &CardDb,
    id: PrintingId,
    needles: &[Needle],
    prefer: Option<Language>,
) -> Option<Language> {
    let printing = db.get(id)?;
    let keys: Vec<(Language, String)> = (printing.names.iter())
        .map(|(language, name)| (language, names::lookup_key(name)))
        .collect();
    let holds = |needle: &Needle| keys.iter().any(|(_, key)| needle.in_name(key));
    if !needles.iter().all(holds) {
        return None;
    }
    let count = |language: Language| {
        let key = keys.iter().find(|(l, _)| *l == language);
        key.map_or(0, |(_, key)| {
            needles.iter().filter(|n| n.in_name(key)).count()
        })
    };
    let mut order: Vec<Language> = prefer.into_iter().collect();
    order.extend(Language::ALL.into_iter().filter(|l| Some(*l) != prefer));
    order.into_iter().rev().max_by_key(|&l| count(l))
}

/// The printing a line's code and number name, when its name names no card at all.
fn unnamed_mismatch(resolution: &Resolution) -> Option<PrintingId> {
    match *resolution {
        Resolution::Mismatch {
            printing,
            by_name: None,
        } => Some(printing),
        _ => None,
    }
}

/// The most letters a name written next to its card's id may differ by (insertions,
/// deletions, substitutions, swaps of two letters), and the fewest letters of a name per
/// such slip: `Cytnhia's Feelings dp6-131` is one slip in 16 letters, `Fighting Energy
/// dp1-126` two in 14 (Lightning Energy: another card, not a slip).
const MAX_SLIPS: usize = 2;
const LETTERS_PER_SLIP: usize = 8;

/// A name no card has, next to the id of a card whose name it spells but for a slip or two
/// (`2 Cytnhia's Feelings dp6-131` in ptcg-sim's 2007–09 Abomasnow Ampharos list; `Azelv
/// Lv.X dp6-140`): that card, with a `read-as` note. A name another card has stays a
/// mismatch (the number may be the slip), and so does a name the id's card does not
/// nearly spell, or a basic Energy's (`Fire Energy` next to a Water Energy's id: a type is
/// never a slip).
fn misspelt_with_its_id(
    context: &mut Identify,
    text: &SourceText,
    line: &CardLine,
    resolution: &mut Resolution,
) {
    let Some(printing) = unnamed_mismatch(resolution) else {
        return;
    };
    let Some(card) = context.db.get(printing) else {
        return;
    };
    if names::is_basic_energy_name(&line.name) {
        return;
    }
    let written = names::fold(&line.name);
    let letters = written.chars().filter(|c| c.is_alphanumeric()).count();
    let slips = (card.names.readable())
        .map(|(_, name)| strsim::osa_distance(&written, &names::fold(name)))
        .min();
    if slips.is_some_and(|slips| slips <= MAX_SLIPS && slips * LETTERS_PER_SLIP <= letters) {
        let name = card.names.primary().to_string();
        context
            .diagnostics
            .push(lines::read_as(text, line, &line.name, &name));
        *resolution = Resolution::Found {
            id: printing,
            language: None,
            by_printing: true,
            others: Vec::new(),
        };
    }
}

/// A name-only line whose name no card has and nothing else reads, one slip from the name
/// of exactly one card ([`resolve::one_slip_from`]: `4 Lysander`, pokebeach's 2011
/// Canberra Cities list; `1 Hitmochan`, Pojo's 2000 Super Trainer Showdown report): read as
/// that card, with a `read-as` note at warning level, since the guess may be wrong. The
/// search is a suggestion search, so it draws on the deck's [`MAX_SUGGESTED`]; the line as
/// read names the card, so `fmt` writes its name.
fn misspelt(
    context: &mut Identify,
    line: &CardLine,
    resolution: &mut Resolution,
    resolve: &dyn Fn(&CardLine) -> Resolution,
) -> Option<CardLine> {
    let name_only = line.set.is_none() && line.number.is_none();
    if !(matches!(resolution, Resolution::Unknown) && name_only && context.suggestions_left > 0) {
        return None;
    }
    let card = resolve::one_slip_from(context.db, &line.name)?;
    let reread = CardLine {
        name: card.clone(),
        ..line.clone()
    };
    let found = resolve(&reread);
    if !matches!(found, Resolution::Found { .. }) {
        return None;
    }
    context.suggestions_left -= 1;
    *resolution = found;
    let english = in_language(context.db, vec![card.clone()], None)
        .into_iter()
        .find_map(|(_, english)| english);
    context.diagnostics.push(lines::misspelt(
        context.text,
        line,
        &line.name,
        &card,
        english.as_deref(),
    ));
    Some(reread)
}

/// The suggestions that are card names in the list's own language, when there are any: an
/// English list misspelling `Super Rod` is offered `Super Rod`, not the Portuguese
/// `Super Recolhida` as well. Each comes with its English name when that differs
/// (`Super Bonbon` is Rare Candy), so a player can tell the card and search it.
pub(crate) fn in_language(
    db: &CardDb,
    suggestions: Vec<String>,
    language: Option<Language>,
) -> Vec<(String, Option<String>)> {
    let own: Vec<String> = match language {
        Some(language) => suggestions
            .iter()
            .filter(|name| resolve::name_languages(db, name).contains(&language))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let chosen = if own.is_empty() { suggestions } else { own };
    chosen
        .into_iter()
        .map(|name| {
            let english = english_name(db, &name, language)
                .filter(|english| names::lookup_key(english) != names::lookup_key(&name));
            (name, english)
        })
        .collect()
}

/// The English name of the card a suggested name names, in the list's language first.
fn english_name(db: &CardDb, name: &str, language: Option<Language>) -> Option<String> {
    let hits = db.by_name(name);
    let hit = hits
        .iter()
        .find(|hit| Some(hit.language) == language)
        .or_else(|| hits.first())?;
    let printing = db.get(hit.id)?;
    printing.names.get(Language::En).map(str::to_string)
}

/// The deck's languages: (the one most distinct card names are written in, ties broken
/// by the headers and then by [`Language::ALL`] order; the language to write its headers
/// in). Distinct names, so merging identical lines (as `fmt` does) changes neither.
pub(super) fn deck_languages(db: &CardDb, list: &DeckList) -> (Option<Language>, Option<Language>) {
    let mut votes = [0usize; 6];
    let mut seen = BTreeSet::new();
    for line in &list.cards {
        if !seen.insert(line.name.as_str()) {
            continue;
        }
        for language in resolve::name_languages(db, &line.name) {
            votes[language.index()] += 1;
        }
    }
    let fits = &list.header_languages;
    let most = |among: &mut dyn Iterator<Item = Language>| {
        // `max_by_key` keeps the last of equals: scan in reverse for the first.
        among
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .max_by_key(|language| votes[language.index()])
    };
    let names = if votes.iter().all(|&v| v == 0) {
        list.language
            .or_else(|| fits.first().copied())
            .or_else(|| (!list.headers.is_empty()).then_some(Language::En))
    } else {
        let preferred = fits.iter().copied();
        let rest = Language::ALL.into_iter().filter(|l| !fits.contains(l));
        most(&mut preferred.chain(rest))
    };
    let headers = list
        .language
        .or_else(|| most(&mut fits.iter().copied()))
        .or(names);
    (names, headers)
}
