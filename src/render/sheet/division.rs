//! Play! Pokémon age divisions: which division a player plays in, from the birth year and
//! the season of the event.
//!
//! The rule, as the official deck lists print it (2025 season: "Junior Division (born in
//! 2013 or later)", "Senior Division (born in 2009, 2010, 2011, or 2012)", "Masters
//! Division (born in 2008 or earlier)"; the 2023 form says 2011 / 2007–2010 / 2006): in the
//! season ending in year `Y`, Juniors were born in `Y − 12` or later, Seniors in `Y − 16` to
//! `Y − 13`, Masters in `Y − 17` or earlier. A season runs from September to the World
//! Championships in August, so an event in September to December belongs to the season of
//! the next calendar year. Sources and the open questions: docs/research/issue-18.md, §2a.

use jiff::civil::Date;

/// A Play! Pokémon age division.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Division {
    Junior,
    Senior,
    Masters,
}

/// The first month of a season: events from September on belong to the next year's season.
const SEASON_START_MONTH: i8 = 9;

impl Division {
    /// Every division, youngest first: the order of the form's checkboxes.
    pub const ALL: [Division; 3] = [Division::Junior, Division::Senior, Division::Masters];

    /// The division of a player born in `birth_year`, in the season ending in `season`.
    pub fn of(birth_year: i16, season: i16) -> Division {
        match season - birth_year {
            ..=12 => Division::Junior,
            13..=16 => Division::Senior,
            _ => Division::Masters,
        }
    }

    /// `Junior`, `Senior`, `Masters`.
    pub fn label(self) -> &'static str {
        match self {
            Division::Junior => "Junior",
            Division::Senior => "Senior",
            Division::Masters => "Masters",
        }
    }

    /// The birth years of the division in the season ending in `season`, as the official
    /// form writes them: "born in 2014 or later", "born in 2010, 2011, 2012, or 2013".
    pub fn born(self, season: i16) -> String {
        match self {
            Division::Junior => format!("born in {} or later", season - 12),
            Division::Senior => format!(
                "born in {}, {}, {}, or {}",
                season - 16,
                season - 15,
                season - 14,
                season - 13
            ),
            Division::Masters => format!("born in {} or earlier", season - 17),
        }
    }
}

/// The year of the season an event on `date` belongs to: the year its World Championships
/// are played in.
pub fn season_of(date: Date) -> i16 {
    if date.month() >= SEASON_START_MONTH {
        date.year() + 1
    } else {
        date.year()
    }
}

#[cfg(test)]
mod tests {
    use super::{Division, season_of};
    use jiff::civil::date;

    #[test]
    fn the_2025_form_prints_these_birth_years() {
        // The official 2025-season deck list (docs/research/issue-18.md, §2a).
        assert_eq!(Division::Junior.born(2025), "born in 2013 or later");
        assert_eq!(
            Division::Senior.born(2025),
            "born in 2009, 2010, 2011, or 2012"
        );
        assert_eq!(Division::Masters.born(2025), "born in 2008 or earlier");
        assert_eq!(Division::of(2013, 2025), Division::Junior);
        assert_eq!(Division::of(2012, 2025), Division::Senior);
        assert_eq!(Division::of(2009, 2025), Division::Senior);
        assert_eq!(Division::of(2008, 2025), Division::Masters);
        // The 2023 form: 2011 or later / 2007–2010 / 2006 or earlier.
        assert_eq!(Division::of(2011, 2023), Division::Junior);
        assert_eq!(Division::of(2007, 2023), Division::Senior);
        assert_eq!(Division::of(2006, 2023), Division::Masters);
    }

    #[test]
    fn autumn_events_belong_to_the_next_season() {
        assert_eq!(season_of(date(2025, 8, 31)), 2025);
        assert_eq!(season_of(date(2025, 9, 1)), 2026);
        assert_eq!(season_of(date(2026, 11, 25)), 2027);
        assert_eq!(season_of(date(2026, 1, 10)), 2026);
    }
}
