//! Calendar days as format files, deck files and flags write them (`YYYY-MM-DD`), and
//! today's date: what "as of" means everywhere.

use jiff::civil::Date;

/// The variable that fixes what deckbox takes for today (`YYYY-MM-DD`): reproducible test
/// and CI runs. Unlike `DECKBOX_AS_OF` it only replaces the clock, so a deck's own date and
/// the config file still win over it.
pub const TODAY_VAR: &str = "DECKBOX_TODAY";

/// Today's date: `DECKBOX_TODAY` when it holds a date, else the clock's date in UTC. The
/// date a format judges at when nothing says otherwise.
pub fn today() -> Date {
    std::env::var(TODAY_VAR)
        .ok()
        .and_then(|value| parse(&value))
        .unwrap_or_else(|| {
            jiff::tz::Offset::UTC
                .to_datetime(jiff::Timestamp::now())
                .date()
        })
}

/// Reads `YYYY-MM-DD`; `None` for anything else (a printing's release date may be empty).
pub fn parse(text: &str) -> Option<Date> {
    let text = text.trim();
    // jiff also reads `2012-08-10T...`; a date is exactly ten characters.
    (text.len() == 10).then(|| text.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn dates_are_exactly_iso_days() {
        assert_eq!(
            parse("2012-08-10").map(|d| d.to_string()).as_deref(),
            Some("2012-08-10")
        );
        assert_eq!(parse(" 2012-08-10 ").map(|d| d.day()), Some(10));
        assert_eq!(parse("2012-8-10"), None);
        assert_eq!(parse("2012-02-30"), None);
        assert_eq!(parse("2012-08-10T00:00"), None);
        assert_eq!(parse(""), None);
    }
}
