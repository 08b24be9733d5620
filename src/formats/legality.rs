//! Which printings a format allows: its pool, its ban list and the reprint rule.
//!
//! [`judge`] answers for one printing; [`crate::check::rules`] turns the answers into
//! `not-legal` and `banned` findings. A printing outside the pool is still legal when the
//! format applies the reprint rule and a legal printing has the same name and functionally
//! identical text ([`crate::formats::reprint`]); when the card data lacks the text of one of
//! the two, the verdict says the data cannot decide ([`Verdict::Undecided`]) rather than
//! rejecting the printing.

use crate::cards::{CardDb, Printing, PrintingId, set_key, split_number, split_subset};
use crate::formats::{Ban, Construction, Format, Pool, reprint};
use crate::names;
use jiff::civil::Date;

/// What a format says about one printing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict<'a> {
    Legal,
    /// Outside the pool, but a legal printing (the newest such) has the same name and text.
    LegalAsReprint(PrintingId),
    /// Outside the pool; a legal printing (the newest such) has the same name and kind of
    /// card, but the card data has no rules text for one of the two, so the reprint rule
    /// cannot compare them. `reason` says why the printing is outside the pool.
    Undecided {
        reason: String,
        legal: PrintingId,
    },
    Banned(&'a Ban),
    /// Outside the pool: why, and a legal printing of the same name (the newest) if there
    /// is one, with what the reprint rule found different between the two (empty when the
    /// format has no reprint rule).
    NotLegal {
        reason: String,
        alternative: Option<PrintingId>,
        differences: Vec<reprint::Difference>,
    },
}

impl Verdict<'_> {
    /// Whether the format allows the printing in a deck: legal plainly or as a reprint.
    pub fn allows(&self) -> bool {
        matches!(self, Verdict::Legal | Verdict::LegalAsReprint(_))
    }
}

/// A [`Verdict`] as the format's memo keeps it: a ban by its index in `format.bans`.
#[derive(Debug, Clone)]
pub(crate) enum Judged {
    Legal,
    LegalAsReprint(PrintingId),
    Undecided {
        reason: String,
        legal: PrintingId,
    },
    Banned(usize),
    NotLegal {
        reason: String,
        alternative: Option<PrintingId>,
        differences: Vec<reprint::Difference>,
    },
}

/// Judges one printing. A printing of a database is judged once per format: the verdict is
/// kept in the format's memo.
pub fn judge<'f>(format: &'f Format, db: &CardDb, printing: &Printing) -> Verdict<'f> {
    judge_with(format, db, printing, &mut Found::default())
}

/// [`judge`] for each of `printings` (a card page's), the legal printings of each name
/// found once for all: the reprint rule's search costs the same for every printing of a
/// name, however many it has.
pub fn judge_each<'f>(
    format: &'f Format,
    db: &CardDb,
    printings: &[&Printing],
) -> Vec<Verdict<'f>> {
    let mut found = Found::default();
    (printings.iter())
        .map(|printing| judge_with(format, db, printing, &mut found))
        .collect()
}

/// The legal printings each name finds, by name.
type Found<'d> = std::collections::HashMap<String, Candidates<'d>>;

/// The legal printings a name finds (in the pool, not banned), as the reprint rule's
/// search reads them: the newest of each rules name, the newest of each
/// [`reprint::Fingerprint::twin_key`], and of each [`reprint::Fingerprint::kind_key`] the
/// newest and the newest without rules text. "Newest": the latest release date, the first
/// found among equals.
#[derive(Default)]
struct Candidates<'d> {
    newest: std::collections::HashMap<String, (PrintingId, &'d Printing)>,
    twins: std::collections::HashMap<reprint::Fingerprint, (PrintingId, &'d Printing)>,
    kinds: std::collections::HashMap<reprint::Fingerprint, (PrintingId, &'d Printing)>,
    textless: std::collections::HashMap<reprint::Fingerprint, (PrintingId, &'d Printing)>,
}

impl<'d> Candidates<'d> {
    fn of(format: &Format, db: &'d CardDb, name: &str) -> Candidates<'d> {
        let mut found = Candidates::default();
        for hit in db.name_matches(name) {
            let Some(other) = db.get(hit.id) else {
                continue;
            };
            if !format.is_admitted(other) || ban_of(format, db, other).is_some() {
                continue;
            }
            let kept = (hit.id, other);
            keep_newest(&mut found.newest, other.rules_key().to_string(), kept);
            let fingerprint = reprint::Fingerprint::of(other);
            if let Some(key) = fingerprint.twin_key() {
                keep_newest(&mut found.twins, key, kept);
            }
            if let Some(key) = fingerprint.kind_key() {
                if !fingerprint.has_text() {
                    keep_newest(&mut found.textless, key.clone(), kept);
                }
                keep_newest(&mut found.kinds, key, kept);
            }
        }
        found
    }
}

fn keep_newest<'d, K: std::hash::Hash + Eq>(
    map: &mut std::collections::HashMap<K, (PrintingId, &'d Printing)>,
    key: K,
    found: (PrintingId, &'d Printing),
) {
    let kept = map.entry(key).or_insert(found);
    if found.1.release_date > kept.1.release_date {
        *kept = found;
    }
}

fn judge_with<'f, 'd>(
    format: &'f Format,
    db: &'d CardDb,
    printing: &Printing,
    found: &mut Found<'d>,
) -> Verdict<'f> {
    let Some(key) = printing.slot.key() else {
        return judge_now(format, db, printing, found);
    };
    let judged = format.judged.get_or(
        &key,
        |key| *key,
        || match judge_now(format, db, printing, found) {
            Verdict::Legal => Judged::Legal,
            Verdict::LegalAsReprint(id) => Judged::LegalAsReprint(id),
            Verdict::Undecided { reason, legal } => Judged::Undecided { reason, legal },
            Verdict::Banned(ban) => Judged::Banned(ban_index(format, ban)),
            Verdict::NotLegal {
                reason,
                alternative,
                differences,
            } => Judged::NotLegal {
                reason,
                alternative,
                differences,
            },
        },
    );
    match judged {
        Judged::Legal => Verdict::Legal,
        Judged::LegalAsReprint(id) => Verdict::LegalAsReprint(id),
        Judged::Undecided { reason, legal } => Verdict::Undecided { reason, legal },
        Judged::Banned(index) => match format.bans.get(index) {
            Some(ban) => Verdict::Banned(ban),
            // `ban_index` found it in this list: never reached.
            None => judge_now(format, db, printing, found),
        },
        Judged::NotLegal {
            reason,
            alternative,
            differences,
        } => Verdict::NotLegal {
            reason,
            alternative,
            differences,
        },
    }
}

/// Where `ban` (one of `format.bans`, as [`ban_of`] returns) is in `format.bans`.
fn ban_index(format: &Format, ban: &Ban) -> usize {
    let found = format.bans.iter().position(|b| std::ptr::eq(b, ban));
    found.unwrap_or(usize::MAX)
}

/// Whether [`judge`] finds `printing` legal (plainly or as a reprint): the same pool, bans
/// and reprint rule, without the alternative printing and the differences a message about
/// a printing that is not legal needs, and without the memo (a search asks once per
/// printing).
pub fn is_legal(format: &Format, db: &CardDb, printing: &Printing) -> bool {
    if ban_of(format, db, printing).is_some() {
        return false;
    }
    if format.is_admitted(printing) {
        return true;
    }
    let key = printing.rules_key();
    format.pool.reprint_rule
        && format.in_time_as(printing, false).is_ok()
        && legal_twin(db, printing, |id| {
            db.get(id).filter(|other| {
                other.rules_key() == key
                    && format.is_admitted(other)
                    && ban_of(format, db, other).is_none()
            })
        })
}

/// The reprint rule's search: whether a printing found by `printing`'s name that `legal`
/// gives back (a legal printing of the same card, by its id) has functionally identical
/// text.
fn legal_twin<'a>(
    db: &CardDb,
    printing: &Printing,
    legal: impl Fn(PrintingId) -> Option<&'a Printing>,
) -> bool {
    db.name_matches(printing.names.primary()).any(|hit| {
        legal(hit.id).is_some_and(|other| reprint::functionally_identical(printing, other))
    })
}

/// Which printings marked in `within` [`is_legal`] finds legal: a mask of the same length.
///
/// Judged from the database's [`crate::cards::database::columns::Columns`] alone, no
/// printing decoded: a printing's pool is read from its row (see [`Format::admits`]), its
/// bans from its row and those of the printings a ban names, and the reprint rule compares
/// rows' twin classes ([`crate::cards::database::columns::Row::twin`]): a printing outside
/// the pool, released
/// and tournament legal by the date, is legal as a reprint exactly when a legal printing
/// shares its class, which is what [`is_legal`]'s search over the printings of its name
/// finds by comparing their texts.
pub fn legal_among(format: &Format, db: &CardDb, within: &[bool]) -> Vec<bool> {
    let columns = db.columns();
    let every = vec![true; within.len()];
    let (admitted, banned, timely) = pool_and_bans(format, db, &every);
    let twin = |index: usize| {
        let id = PrintingId::try_from(index).ok()?;
        columns.row(id)?.twin
    };
    // The classes of the legal printings: a printing outside the pool is legal as a reprint
    // exactly when its class is one of them.
    let legal_twins: std::collections::HashSet<u32> = match format.pool.reprint_rule {
        true => (0..within.len())
            .filter(|&i| admitted[i] && !banned[i])
            .filter_map(twin)
            .collect(),
        false => std::collections::HashSet::new(),
    };
    let as_reprint = |index: usize| {
        timely.get(index) == Some(&true) && twin(index).is_some_and(|t| legal_twins.contains(&t))
    };
    (within.iter().enumerate())
        .map(|(i, &inside)| inside && !banned[i] && (admitted[i] || as_reprint(i)))
        .collect()
}

/// Which printings marked in `within` are on the format's ban list ([`ban_of`]): a mask
/// of the same length.
///
/// Only the bans are judged, from the rows: a printing's set and number are read in place
/// (no pool or date facts copied), and only for an edition whose set code a ban entry
/// names.
pub fn banned_among(format: &Format, db: &CardDb, within: &[bool]) -> Vec<bool> {
    let columns = db.columns();
    let (names, numbers) = (columns.names(), columns.numbers());
    let banned_names = banned_names(format);
    let listed = listed_printings(format);
    // Which editions' set code a ban entry names: the only ones whose numbers are read.
    let listed_editions: Vec<bool> = (columns.editions().iter())
        .map(|edition| {
            let code = names.get(edition.set_code);
            listed.iter().any(|key| key.set == code)
        })
        .collect();
    // Whether a ban entry writes the card's name, by the card's id in the names pool:
    // looked up once a card, not once a printing.
    let mut card_named: Vec<Option<bool>> = vec![None; names.len()];
    let mut banned = vec![false; within.len()];
    for (index, _) in within.iter().enumerate().filter(|(_, inside)| **inside) {
        let Some(row) = PrintingId::try_from(index)
            .ok()
            .and_then(|id| columns.row(id))
        else {
            continue;
        };
        let Some(edition) = columns.editions().get(row.edition as usize) else {
            continue;
        };
        let set_code = names.get(edition.set_code);
        let listed_edition = listed_editions.get(row.edition as usize) == Some(&true);
        let number = || numbers.get(row.number);
        let names_it = |key: &PrintingKey| listed_edition && key.names_at(set_code, number());
        let named = match card_named.get_mut(row.card as usize) {
            Some(Some(named)) => *named,
            Some(slot) => *slot.insert(banned_names.contains(names.get(row.card))),
            None => banned_names.contains(names.get(row.card)),
        };
        let maybe_banned = named || listed.iter().any(|key| names_it(key));
        banned[index] = maybe_banned
            && ban_where(format, names.get(row.card), names_it, |key| {
                same_card(db, key, row.twin)
            })
            .is_some();
    }
    banned
}

/// The lookup keys of the names a format's ban entries write.
fn banned_names(format: &Format) -> std::collections::HashSet<&str> {
    (format.keys.bans.iter())
        .map(|key| match key {
            BanKey::Printing(_, name) | BanKey::Name(name) => name.as_str(),
        })
        .collect()
}

/// The printings a format's ban entries name by set and number.
fn listed_printings(format: &Format) -> Vec<&PrintingKey> {
    (format.keys.bans.iter())
        .filter_map(|key| match key {
            BanKey::Printing(listed, _) => listed.as_ref(),
            BanKey::Name(_) => None,
        })
        .collect()
}

/// Whether a printing of twin class `twin` (from its row) is the same card as a banned
/// printing `listed` names: the same class ([`crate::cards::database::columns::Row::twin`]).
fn same_card(db: &CardDb, listed: &PrintingKey, twin: Option<u32>) -> bool {
    let columns = db.columns();
    twin.is_some_and(|twin| {
        (db.by_set_number(&listed.set, &listed.number).iter())
            .any(|&banned| columns.row(banned).and_then(|r| r.twin) == Some(twin))
    })
}

/// For each printing marked in `within`: whether the format's pool admits it, whether a
/// ban covers it ([`ban_of`]), and whether it was released and tournament legal by the
/// format's date ([`Format::in_time`]). Read from the columns, no printing decoded: a ban
/// is judged only for a printing of a banned card's name or a banned printing's set and
/// number, from its row.
fn pool_and_bans(
    format: &Format,
    db: &CardDb,
    within: &[bool],
) -> (Vec<bool>, Vec<bool>, Vec<bool>) {
    let columns = db.columns();
    let names = columns.names();
    let banned_names = banned_names(format);
    let listed = listed_printings(format);
    let mut stub = Printing::new("", "", crate::cards::Category::Pokemon);
    let mut admitted = vec![false; within.len()];
    let mut banned = vec![false; within.len()];
    let mut timely = vec![false; within.len()];
    for (index, _) in within.iter().enumerate().filter(|(_, inside)| **inside) {
        let Some(id) = PrintingId::try_from(index).ok() else {
            continue;
        };
        let Some(row) = columns.row(id) else {
            continue;
        };
        if !columns.fill_pool_facts(id, &mut stub) {
            continue;
        }
        admitted[index] = format.is_admitted(&stub);
        timely[index] = format.in_time_as(&stub, false).is_ok();
        // Every clause of `ban_of` needs the card's name or the printing's set and number.
        let maybe_banned =
            banned_names.contains(names.get(row.card)) || listed.iter().any(|key| key.names(&stub));
        // What `ban_of` reads of the printing, from the rows: its rules name, its set and
        // number (in `stub`), and whether it is the same card as a banned printing (the
        // same twin class).
        banned[index] = maybe_banned
            && ban_where(
                format,
                names.get(row.card),
                |listed| listed.names(&stub),
                |listed| same_card(db, listed, row.twin),
            )
            .is_some();
    }
    (admitted, banned, timely)
}

/// Judges one printing, without the memo; the legal printings of its name are looked up in
/// `found` (and kept there).
fn judge_now<'f, 'd>(
    format: &'f Format,
    db: &'d CardDb,
    printing: &Printing,
    found: &mut Found<'d>,
) -> Verdict<'f> {
    if let Some(ban) = ban_of(format, db, printing) {
        return Verdict::Banned(ban);
    }
    let Err(reason) = format.admits(printing) else {
        return Verdict::Legal;
    };
    // A printing not yet released, or whose set was not yet tournament legal, is not legal
    // as a reprint either; the newest legal printing is still named as the one to play.
    let reprint_rule = format.pool.reprint_rule && format.in_time(printing).is_ok();
    let name = printing.names.primary();
    if !found.contains_key(name) {
        found.insert(name.to_string(), Candidates::of(format, db, name));
    }
    let Some(candidates) = found.get(name) else {
        return Verdict::NotLegal {
            reason,
            alternative: None,
            differences: Vec::new(),
        };
    };
    let fingerprint = reprint::Fingerprint::of(printing);
    let alternative = candidates.newest.get(printing.rules_key());
    // Identical: the same twin key. Undecided: the same facts but the text, one of the two
    // without text.
    let identical = (fingerprint.twin_key())
        .filter(|_| reprint_rule)
        .and_then(|key| candidates.twins.get(&key));
    if let Some((id, _)) = identical {
        return Verdict::LegalAsReprint(*id);
    }
    let undecided = (fingerprint.kind_key())
        .filter(|_| reprint_rule)
        .and_then(|key| match fingerprint.has_text() {
            true => candidates.textless.get(&key),
            false => candidates.kinds.get(&key),
        });
    if let Some((legal, _)) = undecided {
        return Verdict::Undecided {
            reason,
            legal: *legal,
        };
    }
    let differences = match alternative {
        Some((_, other)) if format.pool.reprint_rule => {
            fingerprint.differences(&reprint::Fingerprint::of(other))
        }
        _ => Vec::new(),
    };
    Verdict::NotLegal {
        reason,
        alternative: alternative.map(|(id, _)| *id),
        differences,
    }
}

/// The ban entry that covers `printing`, if any. A ban on one printing covers every
/// printing of the same card: the same name and functionally identical text (the reprint
/// rule's comparison), so a reprint of a banned card is banned too (Red Card XY 124 like
/// GEN 71); a printing of the name with other text is not (another Archeops).
pub fn ban_of<'f>(format: &'f Format, db: &CardDb, printing: &Printing) -> Option<&'f Ban> {
    ban_where(
        format,
        printing.rules_key(),
        |listed| listed.names(printing),
        |listed| reprint_of_banned(db, listed, printing),
    )
}

/// [`ban_of`] for a printing of rules name `rules_key` that `names` says whether a ban
/// entry's set and number name, and `same_card` whether it is the same card as the
/// printing an entry names.
fn ban_where<'f>(
    format: &'f Format,
    rules_key: &str,
    names: impl Fn(&PrintingKey) -> bool,
    same_card: impl Fn(&PrintingKey) -> bool,
) -> Option<&'f Ban> {
    format
        .bans
        .iter()
        .zip(&format.keys.bans)
        .find(|(_, key)| match key {
            BanKey::Printing(Some(listed), name) => {
                names(listed) || (name == rules_key && same_card(listed))
            }
            BanKey::Printing(None, _) => false,
            BanKey::Name(banned) => banned == rules_key,
        })
        .map(|(ban, _)| ban)
}

/// Whether `printing` is the same card as the banned printing `listed` names.
fn reprint_of_banned(db: &CardDb, listed: &PrintingKey, printing: &Printing) -> bool {
    db.by_set_number(&listed.set, &listed.number)
        .iter()
        .filter_map(|&id| db.get(id))
        .any(|banned| reprint::functionally_identical(banned, printing))
}

/// A ban entry, normalized: one printing (with the lookup key of the name the entry
/// writes), or a name's lookup key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BanKey {
    /// `None` when the entry's set code and number cannot name any printing.
    Printing(Option<PrintingKey>, String),
    Name(String),
}

impl BanKey {
    fn of(ban: &Ban) -> BanKey {
        let name = name_key(&ban.name);
        match (&ban.set, &ban.number) {
            (Some(set), Some(number)) => {
                BanKey::Printing(Some(PrintingKey::new(set, number)), name)
            }
            _ => BanKey::Name(name),
        }
    }
}

/// A set code and number as a format file writes them, normalized as printings store them;
/// the number may be a range of one prefix (`BWP BW01..BW32`: promos BW1 to BW32).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrintingKey {
    set: String,
    number: String,
    /// For a range: the number's prefix and its first and last digits.
    range: Option<(String, u32, u32)>,
}

impl PrintingKey {
    fn new(set: &str, number: &str) -> PrintingKey {
        if let Some((first, last)) = number.split_once("..") {
            let (set, first) = split_subset(set, first);
            let last = crate::cards::number_key(last);
            let (prefix, low, _) = split_number(&first);
            let (last_prefix, high, _) = split_number(&last);
            let range = match (low.parse(), high.parse()) {
                (Ok(low), Ok(high)) if prefix == last_prefix => {
                    Some((prefix.to_string(), low, high))
                }
                // An ill-formed range names no printing.
                _ => Some((String::new(), 1, 0)),
            };
            return PrintingKey {
                set,
                number: first,
                range,
            };
        }
        let (set, number) = split_subset(set, number);
        PrintingKey {
            set,
            number,
            range: None,
        }
    }

    /// `"SET NUMBER"` or `"SET FIRST..LAST"`; `None` for an entry of any other shape (it
    /// names no printing).
    pub(crate) fn parse(entry: &str) -> Option<PrintingKey> {
        let mut parts = entry.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (Some(set), Some(number), None) => Some(PrintingKey::new(set, number)),
            _ => None,
        }
    }

    pub(crate) fn names(&self, printing: &Printing) -> bool {
        self.names_at(&printing.set_code, &printing.number)
    }

    /// Whether the entry names the printing of set code `set` and number `number` (as
    /// printings store them).
    fn names_at(&self, set: &str, number: &str) -> bool {
        if self.set != set {
            return false;
        }
        match &self.range {
            None => self.number == number,
            Some((prefix, low, high)) => {
                let (own_prefix, digits, _) = split_number(number);
                own_prefix == prefix
                    && digits
                        .parse::<u32>()
                        .is_ok_and(|n| (*low..=*high).contains(&n))
            }
        }
    }
}

/// Whether any of `keys` names `printing`.
pub(crate) fn any_names(keys: &[Option<PrintingKey>], printing: &Printing) -> bool {
    keys.iter().flatten().any(|key| key.names(printing))
}

/// The lookup key of a card name as a format file writes it.
fn name_key(name: &str) -> String {
    names::lookup_key(&names::canonical(name))
}

/// The card lists of a format file as lookup keys, computed once when the format is
/// compiled: a repository check judges every printing of every deck against them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Keys {
    /// One per entry of `bans`, in order.
    bans: Vec<BanKey>,
    /// One per entry of `construction.copy_limit_exempt`.
    pub(crate) copy_limit_exempt: Vec<Option<PrintingKey>>,
    /// One per group of `construction.exclusive`: its names' keys.
    pub(crate) exclusive: Vec<Vec<String>>,
    /// One per entry of `pool.include` and `pool.exclude`.
    include: Vec<Option<PrintingKey>>,
    exclude: Vec<Option<PrintingKey>>,
    /// `YYYY-MM-DD`, [`SETTLED_DAYS`] before the format's date: a printing released before
    /// it was released and tournament legal by the date, whatever the calendar rules say.
    pub(crate) settled: String,
}

/// Days after which every released set is tournament legal: the longest rule (the third
/// Friday of the next month) is under 50 days, and the exact dates of
/// `tournament_legal_dates` are within weeks of their set's release.
const SETTLED_DAYS: i64 = 120;

impl Keys {
    pub(crate) fn new(construction: &Construction, pool: &Pool, bans: &[Ban], date: Date) -> Keys {
        let printings = |entries: &[String]| -> Vec<Option<PrintingKey>> {
            entries
                .iter()
                .map(|entry| PrintingKey::parse(entry))
                .collect()
        };
        let group = |group: &super::Exclusive| group.names.iter().map(|n| name_key(n)).collect();
        Keys {
            bans: bans.iter().map(BanKey::of).collect(),
            copy_limit_exempt: printings(&construction.copy_limit_exempt),
            exclusive: construction.exclusive.iter().map(group).collect(),
            include: printings(&pool.include),
            exclude: printings(&pool.exclude),
            settled: date
                .checked_sub(jiff::Span::new().days(SETTLED_DAYS))
                .map(|day| day.to_string())
                .unwrap_or_default(),
        }
    }
}

/// The reason a refusal gives: formatted only when it is to be shown (`explain`), else
/// empty (an empty `String` allocates nothing).
fn why(explain: bool, reason: impl FnOnce() -> String) -> String {
    if explain { reason() } else { String::new() }
}

impl Format {
    /// `Ok` when the printing is in the format's pool at its date, else why not (one short
    /// clause).
    ///
    /// It reads the printing's set code, number, release date, series, regulation mark and
    /// kind of card and of Energy, nothing else (`search` judges a printing's
    /// [`crate::cards::database::columns::Columns`] row through a stub holding just those).
    pub fn admits(&self, printing: &Printing) -> Result<(), String> {
        self.admits_as(printing, true)
    }

    /// Whether [`Format::admits`] answers `Ok`, without formatting the reason of a refusal:
    /// a search asks it of every printing.
    pub fn is_admitted(&self, printing: &Printing) -> bool {
        self.admits_as(printing, false).is_ok()
    }

    /// [`Format::admits`], the reason of a refusal left empty unless `explain`.
    fn admits_as(&self, printing: &Printing, explain: bool) -> Result<(), String> {
        if any_names(&self.keys.exclude, printing) {
            return Err(why(explain, || {
                "the format file excludes this printing".to_string()
            }));
        }
        self.in_time_as(printing, explain)?;
        if any_names(&self.keys.include, printing)
            || (self.pool.basic_energy_always && printing.is_basic_energy())
        {
            return Ok(());
        }
        self.pool.admits_criteria(printing, explain, || {
            crate::util::date::parse(&printing.release_date)
        })
    }

    /// `Ok` when the printing had been released and its set had become tournament legal by
    /// the format's date, else why not. A printing that fails this is never legal at the
    /// date, in the pool or as a reprint: a reprint counts only from its set's legal day.
    /// (A printing with no release date is not refused here.)
    pub fn in_time(&self, printing: &Printing) -> Result<(), String> {
        self.in_time_as(printing, true)
    }

    /// [`Format::in_time`], the reason of a refusal left empty unless `explain`.
    fn in_time_as(&self, printing: &Printing, explain: bool) -> Result<(), String> {
        // A printing released long before the date was legal by then: the date checks cost
        // a parse and a calendar rule each, and a repository check judges thousands.
        let settled = !printing.release_date.is_empty()
            && printing.release_date.as_str() < self.keys.settled.as_str();
        if settled {
            return Ok(());
        }
        let date = self.date;
        if let Some(released) = crate::util::date::parse(&printing.release_date)
            && released > date
        {
            return Err(why(explain, || {
                if crate::cards::model::set_id::is_promo_set(&printing.set_id) {
                    format!("its promo series began {released}, after {date}")
                } else {
                    format!("it was released {released}, after {date}")
                }
            }));
        }
        if let Some(legal) = self.tournament_legal.legal_from(printing)
            && legal > date
        {
            return Err(why(explain, || {
                format!("it became tournament legal on {legal}, after {date}")
            }));
        }
        Ok(())
    }
}

impl Pool {
    /// The criteria part of [`Format::admits`]: regulation marks, series, sets, dates.
    fn admits_criteria(
        &self,
        printing: &Printing,
        explain: bool,
        released: impl FnOnce() -> Option<Date>,
    ) -> Result<(), String> {
        if let Some(marks) = &self.regulation_marks {
            match printing.regulation_mark {
                Some(mark)
                    if marks
                        .iter()
                        .any(|m| m.eq_ignore_ascii_case(mark.encode_utf8(&mut [0; 4]))) => {}
                Some(mark) => {
                    return Err(why(explain, || {
                        format!(
                            "its regulation mark {mark} is not one of {}",
                            marks.join(", ")
                        )
                    }));
                }
                None => {
                    return Err(why(explain, || {
                        format!(
                            "it has no regulation mark (the format allows {})",
                            marks.join(", ")
                        )
                    }));
                }
            }
        }
        if let Some(series) = &self.series
            && !series
                .iter()
                .any(|s| s.eq_ignore_ascii_case(&printing.series))
        {
            return Err(why(explain, || {
                format!("its series ({}) is not in the format", printing.series)
            }));
        }
        if let Some(sets) = &self.sets
            && !sets.iter().any(|set| set_key(set) == printing.set_code)
        {
            return Err(why(explain, || {
                format!("its set ({}) is not in the format", printing.set_code)
            }));
        }
        self.admits_date(explain, released)
    }

    fn admits_date(
        &self,
        explain: bool,
        released: impl FnOnce() -> Option<Date>,
    ) -> Result<(), String> {
        if self.released_from.is_none() && self.released_until.is_none() {
            return Ok(());
        }
        let Some(released) = released() else {
            return Err(why(explain, || "its release date is unknown".to_string()));
        };
        if let Some(from) = self.released_from
            && released < from
        {
            return Err(why(explain, || {
                format!("it was released {released}, before {from}")
            }));
        }
        if let Some(until) = self.released_until
            && released > until
        {
            return Err(why(explain, || {
                format!("it was released {released}, after {until}")
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::PrintingKey;
    use crate::cards::{Category, Printing};

    /// `legal:` and `banned:` read the search columns (pool facts, twin classes) and decode
    /// nothing; [`super::is_legal`] and [`super::ban_of`] decode each printing and search
    /// the printings of its name, comparing texts. The two agree on every printing of the
    /// embedded index, in formats with and without the reprint rule, at dates where a
    /// reprint's set was released but not yet tournament legal (so the reprint is not legal
    /// yet though its card is, Play! Pokémon Tournament Rules 5.4.1.3: "a card is legal
    /// ... from the date its set becomes legal"), and for Black Star promos legal only as
    /// reprints.
    #[test]
    fn the_rows_judge_every_printing_as_the_texts_do() {
        use crate::cards::model::set_id::is_promo_set;
        use crate::formats::{Format, reprint};
        let db = crate::cards::storage::embedded::open().unwrap();
        let date = |text: &str| Some(text.parse::<jiff::civil::Date>().unwrap());
        let formats = [
            ("standard", date("2026-11-25")),
            ("standard", date("2024-05-30")),
            ("standard", date("2023-04-01")),
            ("standard", date("2019-07-01")),
            ("expanded", date("2026-11-25")),
            ("expanded", date("2024-05-30")),
            ("expanded", date("2015-06-01")),
            ("glc", date("2026-11-25")),
        ];
        let every = vec![true; db.len()];
        let (mut early_reprints, mut promo_reprints, mut banned_reprints) = (0, 0, 0);
        for (id, at) in formats {
            let format = Format::load_at(id, at).unwrap();
            let legal = super::legal_among(&format, &db, &every);
            let banned = super::banned_among(&format, &db, &every);
            let mut legal_ones = std::collections::HashMap::<&str, Vec<&Printing>>::new();
            for (_, p) in db.iter().filter(|(i, _)| legal[*i as usize]) {
                legal_ones.entry(p.rules_key()).or_default().push(p);
            }
            for (index, printing) in db.iter() {
                let label = format!("{id}@{at:?} {}", printing.printing_label());
                let slow = super::is_legal(&format, &db, printing);
                assert_eq!(legal[index as usize], slow, "{label}");
                let ban = super::ban_of(&format, &db, printing);
                assert_eq!(banned[index as usize], ban.is_some(), "{label}");
                let listed = |ban: &crate::formats::Ban| match (&ban.set, &ban.number) {
                    (Some(set), Some(number)) => !PrintingKey::new(set, number).names(printing),
                    _ => false,
                };
                banned_reprints += usize::from(ban.is_some_and(listed));
                if format.is_admitted(printing) {
                    continue;
                }
                let twin_of_legal = || {
                    (legal_ones.get(printing.rules_key()).into_iter().flatten())
                        .any(|other| reprint::functionally_identical(printing, other))
                };
                early_reprints += usize::from(format.in_time(printing).is_err() && twin_of_legal());
                promo_reprints += usize::from(slow && is_promo_set(&printing.set_id));
            }
        }
        // The cases the rows must get right are in the data.
        assert!(
            early_reprints > 0,
            "a reprint judged before its set's legal day"
        );
        assert!(promo_reprints > 0, "a Black Star promo legal as a reprint");
        assert!(banned_reprints > 0, "a reprint of a banned printing");
    }

    #[test]
    fn entries_name_one_printing_or_a_range_of_one_prefix() {
        let promo = |number: &str| Printing::new("BWP", number, Category::Pokemon);
        let range = PrintingKey::parse("BWP BW01..BW32").unwrap();
        assert!(range.names(&promo("BW01")));
        assert!(range.names(&promo("BW32")));
        assert!(!range.names(&promo("BW33")));
        assert!(!range.names(&promo("XY01")));
        assert!(!range.names(&Printing::new("XYP", "BW05", Category::Pokemon)));
        let one = PrintingKey::parse("BWP BW05").unwrap();
        assert!(one.names(&promo("BW5")));
        assert!(!one.names(&promo("BW6")));
        // Ends with different prefixes name nothing.
        let odd = PrintingKey::parse("HIF SV1..70").unwrap();
        assert!(!odd.names(&Printing::new("HIF", "SV5", Category::Pokemon)));
    }
}
