//! Formats through time: the date a format judges at, its seasons (each rotation's pool from
//! its effective date), and the date each set became tournament legal.
//!
//! A format file may list `[[seasons]]`: from its `from` date until the next season's, a
//! season's `pool`, `construction` and `setup` tables are laid over the file's own. At a
//! date before the first season the format did not exist, and judging there is an error.
//! `[[tournament_legal]]` says when a newly released set may be played (on release, the
//! third Friday after, ...), by the period the set was released in, and
//! `tournament_legal_dates` gives the exact date of a set where it is known. Without them a
//! printing is legal from its release date. This module computes dates only; the pool
//! ([`crate::formats::legality`]) applies them.

use std::collections::BTreeMap;

use jiff::civil::{Date, Weekday};
use serde::{Deserialize, Serialize};

use crate::cards::{Printing, set_key};
use crate::formats::{Construction, Pool, Setup, reprint};

/// One season of a format whose pool rotates: what changes from `from` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Season {
    /// The first day the season's rules applied at tournaments.
    pub from: Date,
    /// The season's name (`2012–13`).
    pub name: String,
    /// Where its dates and sets come from.
    pub source: String,
    /// When the rotation was announced, if known.
    #[serde(default)]
    pub announced: Option<Date>,
    #[serde(default)]
    pub note: Option<String>,
    /// Laid over the file's `[pool]`, `[construction]` and `[setup]` (read here so the file
    /// is checked strictly; applied from the raw table, key by key).
    #[serde(default)]
    pub pool: Option<Pool>,
    #[serde(default)]
    pub construction: Option<Construction>,
    #[serde(default)]
    pub setup: Option<Setup>,
}

/// When a set released in a period (or one of the sets listed) became tournament legal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegalRule {
    /// The rule applies to sets released on or after this date (until the next rule's).
    #[serde(default)]
    pub released_from: Option<Date>,
    /// Or: the rule applies to these sets (set codes), whenever they were released.
    #[serde(default)]
    pub sets: Vec<String>,
    pub rule: Delay,
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// How long after its release a set may be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Delay {
    /// On the release date.
    OnRelease,
    /// The second Friday after the release date.
    SecondFridayAfter,
    /// The third Friday after the release date.
    ThirdFridayAfter,
    /// The third Friday of the release month, or of the next month for a set released
    /// after it.
    ThirdFridayOfReleaseMonth,
    /// Fourteen days after the release date.
    TwoWeeksAfter,
    /// Twenty-one days after the release date.
    ThreeWeeksAfter,
}

impl Delay {
    /// The first day a set released on `released` may be played.
    pub fn apply(self, released: Date) -> Date {
        let friday_after = |nth: i32| released.nth_weekday(nth, Weekday::Friday).ok();
        let day = match self {
            Delay::OnRelease => Some(released),
            Delay::SecondFridayAfter => friday_after(2),
            Delay::ThirdFridayAfter => friday_after(3),
            Delay::ThirdFridayOfReleaseMonth => {
                let third_friday = |day: Date| day.nth_weekday_of_month(3, Weekday::Friday).ok();
                match third_friday(released) {
                    Some(friday) if friday >= released => Some(friday),
                    _ => released
                        .last_of_month()
                        .tomorrow()
                        .ok()
                        .and_then(third_friday),
                }
            }
            Delay::TwoWeeksAfter => released.checked_add(jiff::Span::new().days(14)).ok(),
            Delay::ThreeWeeksAfter => released.checked_add(jiff::Span::new().days(21)).ok(),
        };
        day.unwrap_or(released)
    }

    /// As the data file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Delay::OnRelease => "on release",
            Delay::SecondFridayAfter => "the second Friday after release",
            Delay::ThirdFridayAfter => "the third Friday after release",
            Delay::ThirdFridayOfReleaseMonth => "the third Friday of the release month",
            Delay::TwoWeeksAfter => "two weeks after release",
            Delay::ThreeWeeksAfter => "three weeks after release",
        }
    }
}

/// When each set became tournament legal: exact dates where known, else the rule of its
/// release period.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TournamentLegal {
    /// Sorted by `released_from`; rules naming sets first.
    pub rules: Vec<LegalRule>,
    /// Set key → date.
    pub dates: BTreeMap<String, Date>,
}

impl TournamentLegal {
    pub(crate) fn new(
        mut rules: Vec<LegalRule>,
        dates: &BTreeMap<String, Date>,
    ) -> TournamentLegal {
        rules.sort_by_key(|rule| (rule.sets.is_empty(), rule.released_from));
        TournamentLegal {
            rules,
            dates: dates
                .iter()
                .map(|(set, date)| (set_key(set), *date))
                .collect(),
        }
    }

    /// Whether the format says anything about tournament dates.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.dates.is_empty()
    }

    /// The first day `printing` may be played: `None` when its release date is unknown.
    pub fn legal_from(&self, printing: &Printing) -> Option<Date> {
        if let Some(date) = self.dates.get(&printing.set_code) {
            return Some(*date);
        }
        let released = crate::util::date::parse(&printing.release_date)?;
        let by_set = self.rules.iter().find(|rule| {
            rule.sets
                .iter()
                .any(|set| set_key(set) == printing.set_code)
        });
        let by_period = || {
            self.rules
                .iter()
                .filter(|rule| rule.sets.is_empty())
                .rfind(|rule| rule.released_from.is_none_or(|from| from <= released))
        };
        let rule = by_set.or_else(by_period);
        Some(rule.map_or(released, |rule| rule.rule.apply(released)))
    }
}

/// The season in effect at `date`: the last one whose `from` is on or before it. `Err` with
/// the first season when the date comes before every season.
pub fn season_at(seasons: &[Season], date: Date) -> Result<Option<usize>, &Season> {
    let Some(first) = seasons.iter().min_by_key(|season| season.from) else {
        return Ok(None);
    };
    if date < first.from {
        return Err(first);
    }
    Ok(seasons
        .iter()
        .enumerate()
        .filter(|(_, season)| season.from <= date)
        .max_by_key(|(_, season)| season.from)
        .map(|(index, _)| index))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        crate::util::date::parse(text).unwrap()
    }

    #[test]
    fn delays_count_fridays_after_the_release() {
        // 2013-02-06 was a Wednesday.
        let released = date("2013-02-06");
        assert_eq!(Delay::OnRelease.apply(released), released);
        assert_eq!(Delay::SecondFridayAfter.apply(released), date("2013-02-15"));
        assert_eq!(Delay::ThirdFridayAfter.apply(released), date("2013-02-22"));
        assert_eq!(
            Delay::ThirdFridayOfReleaseMonth.apply(released),
            date("2013-02-15")
        );
        assert_eq!(Delay::TwoWeeksAfter.apply(released), date("2013-02-20"));
        assert_eq!(Delay::ThreeWeeksAfter.apply(released), date("2013-02-27"));
        // A Friday release: the next Friday is the first after it.
        assert_eq!(
            Delay::SecondFridayAfter.apply(date("2024-01-26")),
            date("2024-02-09")
        );
        // Released after its month's third Friday: the next month's. Team Up (released
        // 2019-01-31) was legal from 2019-02-15, the day its ban list took effect.
        assert_eq!(
            Delay::ThirdFridayOfReleaseMonth.apply(date("2019-01-31")),
            date("2019-02-15")
        );
        // Sun & Moon (2017-02-03) was legal from 2017-02-17.
        assert_eq!(
            Delay::ThirdFridayOfReleaseMonth.apply(date("2017-02-03")),
            date("2017-02-17")
        );
    }
}

/// The days a printing was legal in a format: from `from` to `until` (inclusive), `until`
/// `None` while it still is at the format's date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub from: Date,
    pub until: Option<Date>,
}

/// Most dates [`legal_periods`] judges at: far more than the seasons, bans and sets of any
/// format file, and a bound on what a hostile one can ask for.
const MAX_BOUNDARIES: usize = 2_000;

/// When each of `printings` was legal in `format` (itself or by the reprint rule), from the
/// format's first season (or the first printing's release) up to the format's date. The
/// verdict can change only on a season's first day, a ban's first or last day, or the day
/// one of the card's printings became tournament legal, so the verdict is taken on each of
/// those days and the runs of legal days are joined.
///
/// The format is compiled once per season (and once per change of its bans, only for a
/// card a ban may cover), never per day: within a season a printing is in the pool from the
/// day it is in time (`DayProbe::in_time`, which only moves forward) if it is in the pool
/// at all, and a printing is legal as a reprint on a day one of its twins (the printings
/// its name finds with the same [`reprint::Fingerprint::twin_key`]) is. So each printing's
/// day of being in time is found once (a binary search over the days), its place in the
/// pool once per season, and each day costs a comparison per printing and per twin group:
/// no work grows with the square of the printings of a name.
pub fn legal_periods(
    format: &crate::formats::Format,
    db: &crate::cards::CardDb,
    printings: &[crate::cards::PrintingId],
) -> Vec<Vec<Period>> {
    let end = format.date;
    let mut days: Vec<Date> = format.seasons.iter().map(|season| season.from).collect();
    for ban in &format.all_bans {
        days.push(ban.date);
        days.extend(ban.until);
    }
    let siblings: Vec<&Printing> = printings.iter().filter_map(|&id| db.get(id)).collect();
    for printing in &siblings {
        days.extend(crate::util::date::parse(&printing.release_date));
        days.extend(format.tournament_legal.legal_from(printing));
    }
    days.retain(|day| *day <= end);
    days.sort_unstable();
    days.dedup();
    days.truncate(MAX_BOUNDARIES);
    let groups = TwinGroups::new(db, printings);
    let members = &groups.members;
    // The first day (an index into `days`) each printing is in time: never before.
    let mut probe = DayProbe::new(format);
    let in_time: Vec<usize> = members
        .iter()
        .map(|printing| first_day(&days, |day| probe.in_time(day, printing)))
        .collect();
    // Printings a ban of the file may cover on some day: only these are looked up against
    // the bans in effect, each time they change.
    let every_ban = probe.with_every_ban();
    let ban_prone: Vec<bool> = members
        .iter()
        .map(|printing| crate::formats::legality::ban_of(&every_ban, db, printing).is_some())
        .collect();
    let any_ban_prone = ban_prone.contains(&true);
    let mut periods = vec![Vec::new(); printings.len()];
    let mut open: Vec<Option<Date>> = vec![None; printings.len()];
    let mut season: Option<SeasonPool> = None;
    let mut banned = vec![false; members.len()];
    let mut bans_then: Option<Vec<crate::formats::Ban>> = None;
    for (index, &day) in days.iter().enumerate() {
        let Ok(season_index) = season_at(&format.seasons, day) else {
            continue;
        };
        if season.as_ref().is_none_or(|s| s.index != season_index) {
            // The season's last day judged: a printing in the pool then (in time, so its
            // other facts admit it) is in the pool from the day it is in time.
            let last = days[index..]
                .iter()
                .take_while(|&&later| season_at(&format.seasons, later) == Ok(season_index))
                .last()
                .copied()
                .unwrap_or(day);
            let Ok(then) = format.at(last) else {
                continue;
            };
            season = Some(SeasonPool {
                index: season_index,
                reprint_rule: then.pool.reprint_rule,
                pooled: members.iter().map(|p| then.is_admitted(p)).collect(),
            });
        }
        let Some(current) = &season else {
            continue;
        };
        if any_ban_prone {
            let bans: Vec<crate::formats::Ban> = (format.all_bans.iter())
                .filter(|ban| ban.in_effect(day))
                .cloned()
                .collect();
            if bans_then.as_ref() != Some(&bans) {
                if let Ok(then) = format.at(day) {
                    for (member, printing) in members.iter().enumerate() {
                        banned[member] = ban_prone[member]
                            && crate::formats::legality::ban_of(&then, db, printing).is_some();
                    }
                }
                bans_then = Some(bans);
            }
        }
        let admitted =
            |member: usize| current.pooled[member] && in_time[member] <= index && !banned[member];
        let twin_legal: Vec<bool> = (groups.twins.iter())
            .map(|twins| twins.iter().any(|&member| admitted(member)))
            .collect();
        for (position, &judged) in groups.of_printing.iter().enumerate() {
            let Some((member, group)) = judged else {
                continue;
            };
            let legal = !banned[member]
                && in_time[member] <= index
                && (current.pooled[member]
                    || (current.reprint_rule && group.is_some_and(|group| twin_legal[group])));
            match (legal, open[position]) {
                (true, None) => open[position] = Some(day),
                (false, Some(from)) => {
                    let until = day.yesterday().ok();
                    periods[position].push(Period { from, until });
                    open[position] = None;
                }
                _ => {}
            }
        }
    }
    for (index, from) in open.into_iter().enumerate() {
        if let Some(from) = from {
            periods[index].push(Period { from, until: None });
        }
    }
    periods
}

/// What [`legal_periods`] keeps of one season.
struct SeasonPool {
    index: Option<usize>,
    reprint_rule: bool,
    /// Per member: in the season's pool once in time.
    pooled: Vec<bool>,
}

/// The first of `days` on which `holds` (which only turns from false to true) holds;
/// `days.len()` when it never does.
fn first_day(days: &[Date], mut holds: impl FnMut(Date) -> bool) -> usize {
    days.partition_point(move |&day| !holds(day))
}

/// The printings [`legal_periods`] judges and the reprint rule's candidates of each: the
/// printings its name finds with the same [`reprint::Fingerprint::twin_key`] (what
/// [`reprint::functionally_identical`] compares), each printing fingerprinted once.
struct TwinGroups<'a> {
    /// Every printing judged or compared, once each.
    members: Vec<&'a Printing>,
    /// For each judged printing (in order), its member and its group of twins.
    of_printing: Vec<Option<(usize, Option<usize>)>>,
    /// Each group's members: the printings one name finds with one twin key.
    twins: Vec<Vec<usize>>,
}

impl<'a> TwinGroups<'a> {
    fn new(db: &'a crate::cards::CardDb, printings: &[crate::cards::PrintingId]) -> Self {
        use std::collections::HashMap;
        let mut groups = TwinGroups {
            members: Vec::new(),
            of_printing: Vec::with_capacity(printings.len()),
            twins: Vec::new(),
        };
        let mut keys: Vec<Option<reprint::Fingerprint>> = Vec::new();
        let mut member_of: HashMap<crate::cards::PrintingId, usize> = HashMap::new();
        let mut member = |groups: &mut TwinGroups<'a>, id, printing: &'a Printing| {
            *member_of.entry(id).or_insert_with(|| {
                groups.members.push(printing);
                keys.push(reprint::Fingerprint::of(printing).twin_key());
                groups.members.len() - 1
            })
        };
        // The printings each name finds, once per name, grouped by twin key.
        let mut group_of: HashMap<(&'a str, reprint::Fingerprint), usize> = HashMap::new();
        let mut judged = Vec::with_capacity(printings.len());
        let mut hits: Vec<(&'a str, usize)> = Vec::new();
        let mut names: std::collections::HashSet<&'a str> = Default::default();
        for &id in printings {
            let Some(printing) = db.get(id) else {
                judged.push(None);
                continue;
            };
            let name = printing.names.primary();
            judged.push(Some((member(&mut groups, id, printing), name)));
            if names.insert(name) {
                for hit in db.name_matches(name) {
                    if let Some(other) = db.get(hit.id) {
                        hits.push((name, member(&mut groups, hit.id, other)));
                    }
                }
            }
        }
        for (name, found) in hits {
            if let Some(key) = &keys[found] {
                let next = groups.twins.len();
                let group = *group_of.entry((name, key.clone())).or_insert(next);
                if group == next {
                    groups.twins.push(Vec::new());
                }
                groups.twins[group].push(found);
            }
        }
        groups.of_printing = (judged.into_iter())
            .map(|judged| {
                let (member, name) = judged?;
                let group =
                    (keys[member].clone()).and_then(|key| group_of.get(&(name, key)).copied());
                Some((member, group))
            })
            .collect();
        groups
    }
}

/// One format at any day, for [`Format::in_time`]: the format's date and the date-derived
/// key `in_time` reads are moved to the day asked (compiling the format for each day cost
/// the most of a card page).
struct DayProbe {
    format: crate::formats::Format,
}

impl DayProbe {
    fn new(format: &crate::formats::Format) -> DayProbe {
        DayProbe {
            format: format.clone(),
        }
    }

    fn in_time(&mut self, day: Date, printing: &Printing) -> bool {
        if self.format.date != day {
            self.format.date = day;
            self.format.keys.settled = crate::formats::legality::Keys::new(
                &crate::formats::Construction::default(),
                &crate::formats::Pool::default(),
                &[],
                day,
            )
            .settled;
        }
        self.format.in_time(printing).is_ok()
    }

    /// The format with every ban of its file in effect: a printing none of them covers is
    /// never banned ([`crate::formats::legality::ban_of`] matches each ban on its own).
    fn with_every_ban(&self) -> crate::formats::Format {
        let mut format = self.format.clone();
        format.bans = format.all_bans.clone();
        format.keys = crate::formats::legality::Keys::new(
            &format.construction,
            &format.pool,
            &format.bans,
            format.date,
        );
        format
    }
}

/// The first day of a Black Star promo's series when the promo's own release date is not
/// known and the verdict at `date` may depend on it; `None` otherwise.
///
/// The card data dates a promo set, not each promo: TCGdex gives the promo set's release
/// date (the first day of the series' promos) and no date per card, pokemon-tcg-data only
/// set dates, and deckbox found no other source giving every promo's day. So every promo
/// counts from its series' first day (a 2022 SWSH promo as from 2019-11-15), which may be
/// years early. That matters at a date from the series' first day until the next promo
/// series began, and always in the newest series; an older series' promos were seldom
/// printed after it (SM245 to SM247 came in 2021, "nearly five years since SM01":
/// <https://ludkinsmedia.com/new-sun-moon-promos-so-give-me-my-missing-pikachu/>).
pub fn promo_dated_by_series(
    db: &crate::cards::CardDb,
    printing: &Printing,
    date: Date,
) -> Option<Date> {
    if !crate::cards::model::set_id::is_promo_set(&printing.set_id) {
        return None;
    }
    let first = crate::util::date::parse(&printing.release_date)?;
    if date < first {
        return None;
    }
    let columns = db.columns();
    let names = columns.names();
    let next = (0u32..)
        .zip(columns.editions().iter())
        .filter(|(_, edition)| crate::cards::model::set_id::is_promo_set(names.get(edition.set_id)))
        .filter_map(|(index, _)| columns.released(index).0)
        .filter(|day| *day > first)
        .min();
    next.is_none_or(|next| date < next).then_some(first)
}

#[cfg(test)]
mod periods_tests {
    use super::*;
    use crate::cards::identification::lookup::{Lookup, lookup};
    use crate::cards::storage::embedded;
    use crate::formats::Format;

    /// The periods as they were computed before the format was compiled once per season:
    /// the format compiled at every day, each printing judged there with its twins found
    /// pair by pair. The oracle of [`legal_periods`].
    fn day_by_day(
        format: &Format,
        db: &crate::cards::CardDb,
        printings: &[crate::cards::PrintingId],
    ) -> Vec<Vec<Period>> {
        let end = format.date;
        let mut days: Vec<Date> = format.seasons.iter().map(|season| season.from).collect();
        for ban in &format.all_bans {
            days.push(ban.date);
            days.extend(ban.until);
        }
        for printing in printings.iter().filter_map(|&id| db.get(id)) {
            days.extend(crate::util::date::parse(&printing.release_date));
            days.extend(format.tournament_legal.legal_from(printing));
        }
        days.retain(|day| *day <= end);
        days.sort_unstable();
        days.dedup();
        days.truncate(MAX_BOUNDARIES);
        let mut periods = vec![Vec::new(); printings.len()];
        let mut open: Vec<Option<Date>> = vec![None; printings.len()];
        for &day in &days {
            let Ok(then) = format.at(day) else {
                continue;
            };
            let unbanned = |p: &Printing| crate::formats::legality::ban_of(&then, db, p).is_none();
            for (index, &id) in printings.iter().enumerate() {
                let legal = db.get(id).is_some_and(|printing| {
                    let twins = db
                        .name_matches(printing.names.primary())
                        .filter_map(|hit| db.get(hit.id))
                        .filter(|other| {
                            other.rules_key() == printing.rules_key()
                                && reprint::functionally_identical(printing, other)
                        });
                    unbanned(printing)
                        && (then.is_admitted(printing)
                            || (then.pool.reprint_rule && then.in_time(printing).is_ok() && {
                                twins
                            }
                            .any(|twin| then.is_admitted(twin) && unbanned(twin))))
                });
                match (legal, open[index]) {
                    (true, None) => open[index] = Some(day),
                    (false, Some(from)) => {
                        periods[index].push(Period {
                            from,
                            until: day.yesterday().ok(),
                        });
                        open[index] = None;
                    }
                    _ => {}
                }
            }
        }
        for (index, from) in open.into_iter().enumerate() {
            if let Some(from) = from {
                periods[index].push(Period { from, until: None });
            }
        }
        periods
    }

    #[test]
    fn periods_are_those_of_judging_every_day() {
        let db = embedded::open().unwrap();
        // Reprinted staples, a banned card and banned printings, basic and special Energy,
        // a card reprinted under rotation, Pokémon of many printings.
        let names = [
            "Pikachu",
            "Fire Energy",
            "Double Colorless Energy",
            "Lysandre's Trump Card",
            "Red Card",
            "Professor Juniper",
            "Switch",
            "Ultra Ball",
            "Rare Candy",
            "Potion",
            "Forest of Giant Plants",
            "Archeops",
            "Mewtwo",
            "Energy Retrieval",
            "Nest Ball",
            "Quick Ball",
        ];
        for date in [None, Some("2016-06-01"), Some("2021-03-01")] {
            let date = date.and_then(crate::util::date::parse);
            for id in ["standard", "expanded"] {
                let format = Format::load_at(id, date).unwrap();
                for name in names {
                    let Lookup::Found { cards, .. } = lookup(&db, name) else {
                        panic!("{name} not found");
                    };
                    for card in cards {
                        assert_eq!(
                            legal_periods(&format, &db, &card.printings),
                            day_by_day(&format, &db, &card.printings),
                            "{name} in {id} at {date:?}"
                        );
                    }
                }
            }
        }
    }
}
