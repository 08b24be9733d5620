//! Set codes other sites write for a set deckbox indexes under another code: TCGdex's own
//! abbreviations (`EP` for Emerging Powers, `TRI` for Triumphant), the short codes of
//! 2011–2012 posts (`BW` for Black & White), and a results site's own (`FL` for FireRed &
//! LeafGreen). A line whose code and number name no printing under deckbox's code is read
//! with these.

use crate::cards::sources::from_tcgdex::tcgdex_code_alias;

/// `written code`, `code printings are indexed by`: the short codes of 2012 posts, in the
/// 2012 Michigan State Championship list of
/// <https://www.onehitko.com/category/state-championships/> ("2 Zoroark BW", "2 Terrakion
/// NV", "1 Mewtwo ND", beside "1 Tornadus EP").
const POST_CODES: [(&str, &str); 3] = [("BW", "BLW"), ("NV", "NVI"), ("ND", "NXD")];

/// `written code`, `code printings are indexed by`: the codes of ptcg-story's event records
/// (AlexWilsonNC/ptcg-story, `major-events/*/…/*.js`, each card a `set` and a `number`) that
/// no set has in the index. Its 2006 US Nationals records (`major-events/2006/us-nats/
/// us-nats.js`, commit 2494965a) write FireRed & LeafGreen `FL`: `Celio's Network` FL 88,
/// `Blastoise ex` FL 104, `Wartortle` FL 50, each FireRed & LeafGreen's card at that number,
/// and another version of the same file (commit 0778a227), which draws each card as an
/// image, shows that Celio's Network as `rg.088.celios_network.jpg`. Every other code those records write (`TRR`,
/// `DX`, `MA`, `HL`, `DS`, `HP`, `PR-SV`, ...) is one deckbox reads (docs/corpus.md, "Audit
/// of re-readings").
const SITE_CODES: [(&str, &str); 1] = [("FL", "RG")];

/// The index code a written code may also mean, if any (case ignored): TCGdex's own code
/// for a set (`EP`, `TRI`, `RO`, and `TR`, Team Rocket Returns, which PTCGO's `TR`, Team
/// Rocket, collides with: see `check::identify`), from the card loader's table
/// ([`tcgdex_code_alias`]), else a post's short code or a site's code.
pub(super) fn alias(code: &str) -> Option<&'static str> {
    tcgdex_code_alias(code).or_else(|| {
        let code = code.trim();
        (POST_CODES.iter().chain(&SITE_CODES))
            .find(|(written, _)| written.eq_ignore_ascii_case(code))
            .map(|&(_, indexed)| indexed)
    })
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
        assert_eq!(alias("FL"), Some("RG"));
        assert_eq!(alias("RG"), None);
    }
}
