//! `deckbox search`: every printing a query describes ([`query`] reads it, [`keys`] holds
//! the keys, [`filter`] tests it), grouped by card and sorted ([`group`]).
//!
//! This wing reads the card database, the names' folding and the formats' own legality; it
//! prints nothing and knows no output: `render::search` shows the answer.

pub mod filter;
pub mod keys;
pub mod mask;
pub mod query;

use crate::cards::{CardDb, PrintingId};
use crate::names::lang::Language;

pub use query::{SearchError, parse};

/// Every printing `query` describes, in database order.
pub fn search(db: &CardDb, query: &str) -> Result<Vec<PrintingId>, SearchError> {
    matching(db, &query::parse(query)?)
}

/// What `deckbox search` answers: the cards found, and when none is, those found without
/// the query's `legal:` terms.
#[derive(Debug)]
pub struct Answer {
    /// The cards (or printings) found, in the order asked.
    pub found: Vec<Found>,
    /// The date of the query's `legal:` terms, for lines that name a printing legal then.
    pub legal_date: Option<jiff::civil::Date>,
    /// When nothing is found only because of the `legal:` terms: those terms, as written,
    /// and the cards found without them (by name).
    pub not_legal: Option<(Vec<String>, Vec<Found>)>,
    /// When nothing is found: each `set:` value that names no set, with the set code
    /// nearest it when one is (`TWN`, `TWM`).
    pub unknown_sets: Vec<(String, Option<String>)>,
}

/// Every printing `query` describes, grouped by card (or one group a printing when
/// `each_printing`), sorted by `sort` (by name: names in `lang` first), names shown in
/// `lang`.
pub fn answer(
    db: &CardDb,
    query: &str,
    lang: Language,
    each_printing: bool,
    sort: Sort,
) -> Result<Answer, SearchError> {
    let ids = search(db, query)?;
    let mut found = group(db, &ids, lang, each_printing, sort);
    if sort == Sort::Name {
        rank_by_language(db, query, lang, &mut found);
    }
    let not_legal = if found.is_empty() {
        found_without_legality(db, query).map(|not_legal| {
            let cards = group(db, &not_legal.ids, lang, false, Sort::Name);
            (not_legal.terms, cards)
        })
    } else {
        None
    };
    let unknown_sets = if found.is_empty() {
        unknown_sets(db, query)
    } else {
        Vec::new()
    };
    Ok(Answer {
        found,
        legal_date: legal_date(query),
        not_legal,
        unknown_sets,
    })
}

/// Each `set:` value of `query` that names no set of `db` (by TCGdex id or set code), in
/// query order, with the printed set code nearest it when one is near enough to be a typo
/// (`set:TWN`: `TWM`, by `query::nearest`, as the other hints of a search guess).
pub fn unknown_sets(db: &CardDb, query: &str) -> Vec<(String, Option<String>)> {
    let Ok(expr) = query::parse(query) else {
        return Vec::new();
    };
    let mut written = Vec::new();
    expr.each_term(&mut |term, _| {
        if let ("set", query::Value::Text(raw)) = (term.key.name, &term.value) {
            written.push(raw.as_str());
        }
    });
    if written.is_empty() {
        return Vec::new();
    }
    let columns = db.columns();
    let (names, editions) = (columns.names(), columns.editions());
    let mut codes: Vec<&str> = editions
        .iter()
        .map(|edition| names.get(edition.set_code))
        .filter(|code| !code.is_empty())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    let mut unknown: Vec<(String, Option<String>)> = Vec::new();
    for raw in written {
        let key = crate::cards::set_key(raw);
        let known = editions
            .iter()
            .any(|edition| keys::edition_is(&names, &edition, raw, &key));
        if known || unknown.iter().any(|(seen, _)| seen == raw) {
            continue;
        }
        let near = query::nearest(raw, codes.iter().copied()).map(str::to_string);
        unknown.push((raw.to_string(), near));
    }
    unknown
}

/// Every printing `expr` describes, in database order.
fn matching(db: &CardDb, expr: &query::Expr) -> Result<Vec<PrintingId>, SearchError> {
    let state = keys::State::new(db);
    let compiled = filter::compile(db, expr, &state)?;
    let mask = compiled.matching(&state, &mask::Mask::all(db.len()));
    Ok(mask
        .ones()
        .filter_map(|index| PrintingId::try_from(index).ok())
        .collect())
}

/// Why a query found nothing although cards match the rest of it: its `legal:` terms (as
/// written) ruled out `ids`, which exist but are not legal where the query asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLegal {
    /// The `legal:` terms left out, as written (`legal:standard@2019-05-01`).
    pub terms: Vec<String>,
    /// What the query finds without them.
    pub ids: Vec<PrintingId>,
}

/// For a query that found nothing: whether it finds cards once its `legal:` terms are left
/// out (the whole query, or the parts of a top-level `and`). `None` when it has no such term,
/// when nothing would be left, or when the rest finds nothing either.
pub fn found_without_legality(db: &CardDb, query: &str) -> Option<NotLegal> {
    let is_legal = |expr: &query::Expr| matches!(expr, query::Expr::Term(term) if term.key.name == "legal" && term.op == keys::Op::Eq);
    let parts = match query::parse(query).ok()? {
        query::Expr::And(parts) => parts,
        _ => return None,
    };
    let (dropped, kept): (Vec<_>, Vec<_>) = parts.into_iter().partition(is_legal);
    if dropped.is_empty() || kept.is_empty() {
        return None;
    }
    let terms = dropped
        .iter()
        .filter_map(|expr| match expr {
            query::Expr::Term(term) => query.get(term.span.offset..term.span.end()),
            _ => None,
        })
        .map(str::to_string)
        .collect();
    let rest = match kept.len() {
        1 => kept.into_iter().next()?,
        _ => query::Expr::And(kept),
    };
    let ids = matching(db, &rest).ok()?;
    (!ids.is_empty()).then_some(NotLegal { terms, ids })
}

/// The earliest date a `legal:F@DATE` term of `query` judges at, when it has one: a deck
/// list of the answer names printings released by then.
pub fn legal_date(query: &str) -> Option<jiff::civil::Date> {
    let mut earliest: Option<jiff::civil::Date> = None;
    query::parse(query).ok()?.each_term(&mut |term, negated| {
        // `-legal:standard@…` asks for cards not legal then: no date to keep to.
        if let (
            "legal",
            query::Value::Format {
                date: Some(date), ..
            },
            false,
        ) = (term.key.name, &term.value, negated)
        {
            earliest = Some(earliest.map_or(*date, |known| known.min(*date)));
        }
    });
    earliest
}

/// How the answer is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// By the name shown, A to Z.
    #[default]
    Name,
    /// Newest first (a card by its newest printing found).
    Released,
    /// Highest HP first; cards without HP last.
    Hp,
    /// By set (oldest set first), then collector number.
    Set,
}

/// One card of the answer: the printings found that share a rules name, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The name shown: in the chosen language when the card has one, else its English name.
    pub name: String,
    pub printings: Vec<PrintingId>,
}

/// A group of [`group`] as it is gathered: its printings by release date, the newest of
/// them, and that one's name shown.
type Group<'a> = (Vec<(&'a str, PrintingId)>, (&'a str, PrintingId), &'a str);

/// Groups `ids` by card (rules name), or one group per printing when `each_printing`, and
/// sorts the groups by `sort`; names are shown in `lang`.
pub fn group(
    db: &CardDb,
    ids: &[PrintingId],
    lang: Language,
    each_printing: bool,
    sort: Sort,
) -> Vec<Found> {
    // A card is its rules key's id in the columns' names pool (one id a distinct key): no
    // key is copied. Each printing is read in place ([`CardDb::view`]), not built.
    // The name shown is the newest printing's ([`shown_name`] of the group's last), kept
    // from the one read of each printing.
    let columns = db.columns();
    let mut groups: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for &id in ids {
        let (Some(printing), Some(row)) = (db.view(id), columns.row(id)) else {
            continue;
        };
        let dated = (printing.release_date, id);
        let shown = printing.name(lang).unwrap_or(printing.primary());
        if each_printing {
            groups.push((vec![dated], dated, shown));
            continue;
        }
        let at = *index.entry(row.card).or_insert_with(|| {
            groups.push((Vec::new(), dated, shown));
            groups.len() - 1
        });
        let (printings, newest, name) = &mut groups[at];
        printings.push(dated);
        if dated > *newest {
            (*newest, *name) = (dated, shown);
        }
    }
    let mut found: Vec<Found> = groups
        .into_iter()
        .map(|(mut printings, _, shown)| {
            // Oldest first; an id is in one group once, so the order is total.
            printings.sort_unstable();
            let printings: Vec<PrintingId> = printings.into_iter().map(|(_, id)| id).collect();
            Found {
                name: shown.to_string(),
                printings,
            }
        })
        .collect();
    let folded = |f: &Found| crate::names::fold(&f.name);
    let newest = |f: &Found| {
        f.printings
            .last()
            .map(|&id| released(db, id))
            .unwrap_or_default()
    };
    let hp = |f: &Found| {
        f.printings
            .iter()
            .filter_map(|&id| db.facts(id).and_then(|d| d.hp))
            .max()
    };
    let set_place = |f: &Found| {
        f.printings.first().and_then(|&id| db.view(id)).map(|p| {
            let (prefix, digits, suffix) = crate::cards::split_number(p.number);
            let digits: u32 = digits.parse().unwrap_or(u32::MAX);
            let number = (prefix.to_string(), digits, suffix.to_string());
            (p.release_date, p.set_id, number)
        })
    };
    match sort {
        Sort::Name => found.sort_by_cached_key(|f| (folded(f), f.printings.clone())),
        Sort::Released => found.sort_by_cached_key(|f| (std::cmp::Reverse(newest(f)), folded(f))),
        Sort::Hp => found.sort_by_cached_key(|f| (std::cmp::Reverse(hp(f)), folded(f))),
        Sort::Set => found.sort_by_cached_key(|f| (set_place(f), folded(f))),
    }
    found
}

/// Moves first the cards whose name in `lang` holds the names `query` asks for (its bare
/// words and `name:` values outside a `not`), keeping the order of `found` otherwise: `char`
/// lists Charizard before Alcremie, whose French name (Charmilly) matched. Among them, the
/// name that is exactly what was asked comes first, then those that start with it. Cards
/// matched only in another language still follow.
pub fn rank_by_language(db: &CardDb, query: &str, lang: Language, found: &mut [Found]) {
    fn needles(expr: &query::Expr, out: &mut Vec<keys::Needle>) {
        match expr {
            query::Expr::And(parts) | query::Expr::Or(parts) => {
                parts.iter().for_each(|part| needles(part, out));
            }
            query::Expr::Not(_) => {}
            query::Expr::Words(words) => {
                out.extend((words.iter()).map(|word| keys::Needle::name(&word.text, !word.quoted)))
            }
            query::Expr::Term(term) => {
                if let ("name", query::Value::Text(text)) = (term.key.name, &term.value) {
                    out.push(keys::Needle::name(text, !term.quoted));
                }
            }
        }
    }
    let mut wanted = Vec::new();
    match query::parse(query) {
        Ok(expr) => needles(&expr, &mut wanted),
        Err(_) => return,
    }
    if wanted.is_empty() {
        return;
    }
    // The words asked for, folded as names are: a name that is exactly them comes first,
    // then one that starts with them (`switch`: Switch, then Switch Cart, then Energy
    // Switch), then any other that holds them.
    let asked: Vec<&str> = wanted.iter().map(|needle| needle.folded.as_str()).collect();
    let asked = asked.join(" ");
    let rank = |card: &Found| -> u8 {
        let keys = card.printings.iter().filter_map(|&id| {
            let name = db.view(id)?.name(lang)?;
            let key = crate::names::lookup_key(name).to_lowercase();
            wanted
                .iter()
                .all(|needle| needle.in_name(&key))
                .then_some(key)
        });
        keys.map(|key| {
            if key == asked {
                0
            } else if key.starts_with(&asked) {
                1
            } else {
                2
            }
        })
        .min()
        .unwrap_or(3)
    };
    found.sort_by_cached_key(rank);
}

fn released(db: &CardDb, id: PrintingId) -> &str {
    db.view(id).map_or("", |p| p.release_date)
}

/// The printing's name in `lang`, else its English (or first) name.
pub fn shown_name(db: &CardDb, id: PrintingId, lang: Language) -> String {
    db.view(id)
        .map(|p| p.name(lang).unwrap_or(p.primary()).to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::model::details::{Ability, Attack, Details, Texts, TypeModifier};
    use crate::cards::{Category, Printing, Source, Stage, TrainerKind};

    /// The earliest `legal:F@DATE` a query judges at, terms under a `not` aside.
    #[test]
    fn the_legal_date_is_the_earliest_asked_and_not_negated() {
        let date = |query: &str| legal_date(query).map(|date| date.to_string());
        assert_eq!(date("Iono"), None);
        assert_eq!(
            date("legal:expanded@2015-06-01 or (kind:item legal:standard@2014-02-01)"),
            Some("2014-02-01".to_string())
        );
        assert_eq!(
            date("legal:standard@2019-05-01 -legal:standard@2012-01-01"),
            Some("2019-05-01".to_string())
        );
        assert_eq!(date("-legal:standard@2012-01-01"), None);
    }

    fn printing(code: &str, number: &str, names: &[(Language, &str)]) -> Printing {
        let mut printing = Printing::new(code, number, Category::Pokemon);
        for &(lang, name) in names {
            printing.names.set(lang, name);
        }
        printing
    }

    fn texts(en: &str, fr: &str) -> Texts {
        let mut texts = Texts::default();
        texts.0[Language::En.index()] = Some(en.into());
        texts.0[Language::Fr.index()] = Some(fr.into());
        texts
    }

    /// Three printings with details, as the generator will fill them: a Basic Psychic
    /// Pokémon with an attack and an Ability, its Stage 1, and a Supporter.
    fn db() -> CardDb {
        use Language::*;
        let mut dreepy = printing("TWM", "128", &[(En, "Dreepy"), (Fr, "Fantyrm")]);
        dreepy.category = Category::Pokemon;
        dreepy.stage = Some(Stage::Basic);
        dreepy.types = vec!["Psychic".into()];
        let mut drakloak = printing("TWM", "129", &[(En, "Drakloak"), (Fr, "Dispareptil")]);
        drakloak.category = Category::Pokemon;
        drakloak.stage = Some(Stage::Stage1);
        drakloak.evolves_from = Some("Dreepy".into());
        drakloak.types = vec!["Dragon".into()];
        let mut research = printing("SVI", "189", &[(En, "Professor's Research")]);
        research.category = Category::Trainer;
        research.trainer = Some(TrainerKind::Supporter);
        let details = vec![
            Details {
                hp: Some(130),
                retreat: Some(1),
                weaknesses: vec![TypeModifier {
                    energy_type: "Darkness".into(),
                    value: "×2".into(),
                }],
                attacks: vec![Attack {
                    name: texts("Phantom Dive", "Plongée Fantôme"),
                    cost: vec!["Fire".into(), "Psychic".into()],
                    damage: "200".into(),
                    text: texts(
                        "Put 6 damage counters on your opponent's Benched Pokémon.",
                        "",
                    ),
                }],
                illustrator: Some("Scav".into()),
                rarity: Some("Common".into()),
                ..Details::default()
            },
            Details {
                hp: Some(90),
                abilities: vec![Ability {
                    kind: "Ability".into(),
                    name: texts("Recon Directive", "Directive de Reconnaissance"),
                    text: texts("Look at the top 2 cards of your deck.", ""),
                }],
                ..Details::default()
            },
            Details {
                effect: texts(
                    "Discard your hand and draw 7 cards.",
                    "Défaussez votre main et piochez 7 cartes.",
                ),
                ..Details::default()
            },
        ];
        CardDb::new(Source::Embedded, vec![dreepy, drakloak, research]).with_details(details)
    }

    fn found(query: &str) -> Vec<PrintingId> {
        search(&db(), query).unwrap_or_else(|error| panic!("{query}: {error:?}"))
    }

    /// A cache (details encoded, the word index after the columns) answers text keys
    /// through its index as the database it was written from answers them from its texts.
    #[test]
    fn a_cache_answers_text_keys_through_its_word_index() {
        let db = db();
        assert!(db.word_index().is_none());
        let mut bytes = Vec::new();
        db.encode(&mut bytes, true).unwrap();
        let cache = CardDb::decode(Source::Embedded, bytes, 0).unwrap();
        assert!(cache.word_index().is_some());
        for query in [
            "text:counters",
            "text:\"opponent's benched\"",
            "text:\"opponents benched pokemon\"",
            "attack:\"plongee fantome\"",
            "attack:phantom",
            "ability:\"top 2 cards\"",
            "ability:recon -text:deck",
            "text:\"your deck.\"",
            "text:pokémon",
        ] {
            let from_texts = search(&db, query).unwrap();
            assert_eq!(search(&cache, query).unwrap(), from_texts, "{query}");
        }
        assert_eq!(search(&cache, "attack:\"phantom dive\"").unwrap(), [0]);
    }

    #[test]
    fn detail_keys_read_the_details() {
        let table: [(&str, &[PrintingId]); 22] = [
            ("hp>=120", &[0]),
            ("hp<120", &[1]),
            ("hp=90", &[1]),
            ("hp:90", &[1]),
            ("retreat=1", &[0]),
            ("damage>=200", &[0]),
            ("damage>200", &[]),
            ("cost=2", &[0]),
            ("weak:darkness", &[0]),
            ("resist:darkness", &[]),
            ("artist:scav", &[0]),
            ("rarity:common", &[0]),
            ("attack:\"Phantom Dive\"", &[0]),
            // The French name, accents folded; and the attack's text.
            ("attack:\"plongee fantome\"", &[0]),
            ("attack:\"damage counters\"", &[0]),
            ("ability:\"recon directive\"", &[1]),
            ("text:\"discard your hand\"", &[2]),
            ("text:\"defaussez votre main\"", &[2]),
            ("kind:supporter text:\"discard your hand\"", &[2]),
            ("type:psychic stage:basic hp>=120", &[0]),
            ("\"Phantom Dive\"", &[]),
            ("-hp>=1", &[2]),
        ];
        for (query, want) in table {
            assert_eq!(found(query), want, "{query}");
        }
    }

    #[test]
    fn names_words_and_evolutions() {
        let table: [(&str, &[PrintingId]); 10] = [
            ("Fantyrm", &[0]),
            ("\"professor's research\"", &[2]),
            ("professors research", &[2]),
            ("TWM 129", &[1]),
            ("twm-128", &[0]),
            ("evolves:Dreepy", &[1]),
            ("into:Drakloak", &[0]),
            ("Dreepy or Drakloak", &[0, 1]),
            ("not (Dreepy or kind:trainer)", &[1]),
            ("stage:basic -type:dragon", &[0]),
        ];
        for (query, want) in table {
            assert_eq!(found(query), want, "{query}");
        }
    }

    #[test]
    fn names_in_the_language_asked_come_first() {
        let db = db();
        // `d` starts Dispareptil (French) and Dreepy, whose French name is Fantyrm.
        let ids = search(&db, "d").unwrap();
        let mut found = group(&db, &ids, Language::Fr, false, Sort::Name);
        found.reverse();
        rank_by_language(&db, "d", Language::Fr, &mut found);
        let names: Vec<&str> = found.iter().map(|card| card.name.as_str()).collect();
        assert_eq!(names, ["Dispareptil", "Fantyrm"]);
        let ids = search(&db, "dr").unwrap();
        let mut found = group(&db, &ids, Language::En, false, Sort::Name);
        rank_by_language(&db, "dr", Language::En, &mut found);
        let names: Vec<&str> = found.iter().map(|card| card.name.as_str()).collect();
        assert_eq!(names, ["Drakloak", "Dreepy"]);
        let fantyrm = search(&db, "fan").unwrap();
        let mut found = group(&db, &fantyrm, Language::En, false, Sort::Name);
        rank_by_language(&db, "fan", Language::En, &mut found);
        assert_eq!(
            found[0].name, "Dreepy",
            "still found through its French name"
        );
    }

    /// The query shapes of `benches/search_vs_sqlite.rs`, on the embedded index: the
    /// grouping (by the columns' rules-key id) is the one by rules key as written, and
    /// `evolves:` (its lookup keys memoized by name) finds what a lookup key a printing finds.
    #[test]
    fn the_bench_shapes_group_as_by_rules_key() {
        let Ok(db) = crate::cards::storage::embedded::open() else {
            panic!("the embedded index");
        };
        let shapes = [
            "Dreepy",
            "char",
            "set:TWM",
            "type:psychic stage:basic hp>=120",
            "hp>=120",
            "text:\"discard your hand\"",
            "attack:\"Phantom Dive\"",
            "evolves:Dreepy",
            "evolves:charmander",
            "into:Drakloak",
            "legal:expanded@2015-06-01",
            "banned:expanded@2026-11-25",
            "kind:supporter -text:coin",
            "artist:\"5ban graphics\"",
            "year<2005",
        ];
        for query in shapes {
            let ids = search(&db, query).unwrap_or_else(|error| panic!("{query}: {error:?}"));
            assert!(!ids.is_empty(), "{query}");
            // The grouping as it was: a `String` key a printing, then by release date.
            let mut groups: Vec<(String, Vec<PrintingId>)> = Vec::new();
            for &id in &ids {
                let key = db.get(id).map(|p| p.rules_key().to_string());
                let key = key.unwrap_or_else(|| panic!("{query}: {id}"));
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, printings)) => printings.push(id),
                    None => groups.push((key, vec![id])),
                }
            }
            for (_, printings) in &mut groups {
                printings.sort_by_cached_key(|&id| (released(&db, id).to_string(), id));
            }
            let mut want: Vec<Vec<PrintingId>> = groups.into_iter().map(|(_, p)| p).collect();
            want.sort();
            let mut got: Vec<Vec<PrintingId>> = group(&db, &ids, Language::En, false, Sort::Name)
                .into_iter()
                .map(|card| card.printings)
                .collect();
            got.sort();
            assert_eq!(got, want, "{query}");
            let each = group(&db, &ids, Language::En, true, Sort::Released);
            assert_eq!(each.len(), ids.len(), "{query}");
            // The name shown is the newest printing's, read again as it was.
            for lang in Language::ALL {
                for card in group(&db, &ids, lang, false, Sort::Name) {
                    let newest = *card.printings.last().unwrap();
                    assert_eq!(card.name, shown_name(&db, newest, lang), "{query} {lang:?}");
                }
            }
        }
        for needle in ["Dreepy", "charmander", "pikachu"] {
            let asked = keys::Needle::new(needle);
            let keys: std::collections::HashSet<String> = (db
                .names_where(|key| asked.in_name(key)))
            .into_iter()
            .filter_map(|hit| db.get(hit.id).map(|p| p.rules_key().to_string()))
            .collect();
            let want: Vec<PrintingId> = db
                .iter()
                .filter(|(_, p)| {
                    (p.evolves_from.as_deref())
                        .is_some_and(|from| keys.contains(&crate::names::lookup_key(from)))
                })
                .map(|(id, _)| id)
                .collect();
            assert!(!want.is_empty(), "{needle}");
            assert_eq!(search(&db, &format!("evolves:{needle}")).ok(), Some(want));
        }
    }

    #[test]
    fn grouping_and_sorting() {
        let db = db();
        let all = search(&db, "kind:pokemon or kind:trainer").unwrap();
        let by_hp = group(&db, &all, Language::Fr, false, Sort::Hp);
        let names: Vec<&str> = by_hp.iter().map(|card| card.name.as_str()).collect();
        // Highest HP first, no HP last; names in French when the card has one.
        assert_eq!(names, ["Fantyrm", "Dispareptil", "Professor's Research"]);
        let by_name = group(&db, &all, Language::En, false, Sort::Name);
        let names: Vec<&str> = by_name.iter().map(|card| card.name.as_str()).collect();
        assert_eq!(names, ["Drakloak", "Dreepy", "Professor's Research"]);
    }
}
