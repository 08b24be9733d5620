//! Set codes other sites write for a set deckbox indexes under another code: TCGdex's own
//! abbreviations (`EP` for Emerging Powers, `TRI` for Triumphant), and the short codes of
//! 2011–2012 posts (`BW` for Black & White). A line whose code and number name no printing
//! under deckbox's code is read with these.

/// `written code`, `code printings are indexed by`. TCGdex's `abbreviations.official` where
/// it differs from the PTCGO code deckbox indexes by (../shared/data/derived/set-codes.json,
/// column `tcgdexOfficialAbbr` beside `code`; upstream tcgdex/cards-database, commit
/// d9083b7): `RO` Team Rocket, `TR` Team Rocket Returns (which PTCGO's `TR`, Team Rocket,
/// collides with: see `check::identify`), `UND` Undaunted, `TRI` Triumphant, `COL`
/// Call of Legends, `EP` Emerging Powers. Players' codes: `BW`, `NV`, `ND` in the 2012
/// Michigan State Championship list of https://www.onehitko.com/category/state-championships/
/// ("2 Zoroark BW", "2 Terrakion NV", "1 Mewtwo ND", beside "1 Tornadus EP").
const ALIASES: [(&str, &str); 9] = [
    ("RO", "TR"),
    ("TR", "TRR"),
    ("UND", "UD"),
    ("TRI", "TM"),
    ("COL", "CL"),
    ("EP", "EPO"),
    ("BW", "BLW"),
    ("NV", "NVI"),
    ("ND", "NXD"),
];

/// The index code a written code may also mean, if any (case ignored).
pub(super) fn alias(code: &str) -> Option<&'static str> {
    let code = code.trim();
    ALIASES
        .iter()
        .find(|(written, _)| written.eq_ignore_ascii_case(code))
        .map(|&(_, indexed)| indexed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcgdex_and_player_codes() {
        assert_eq!(alias("EP"), Some("EPO"));
        assert_eq!(alias("tri"), Some("TM"));
        assert_eq!(alias("TR"), Some("TRR"));
        assert_eq!(alias("EPO"), None);
        assert_eq!(alias("BLW"), None);
    }
}
