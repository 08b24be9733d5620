//! The rule ids: what a [`crate::check::diagnostic::Diagnostic`] names.
//!
//! This is only the list of rules, in registry order. What each rule is (its id string,
//! severity, documentation and check) is its [`crate::check::rules::RuleDef`], which
//! `Rule::def` in [`crate::check::rules`] returns; a finding needs only the name, so the
//! findings do not depend on the rules that make them.

/// Every rule deckbox checks, by stable id; serialized as the id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    ParseError,
    UnknownCard,
    CardMismatch,
    DeckSize,
    CopyLimit,
    AceSpecLimit,
    PrismStarLimit,
    RadiantLimit,
    GoldStarLimit,
    NoBasicPokemon,
    NotLegal,
    ReprintUndecided,
    LegalAsReprint,
    PromoDateUnknown,
    Banned,
    SingleType,
    RuleBox,
    ExclusiveCards,
    HeaderCount,
    AmbiguousCard,
    UnknownPrinting,
    ReadAs,
    Encoding,
}

impl Rule {
    /// Every rule, in registry order: the order of `deckbox explain` and of findings on one
    /// line. `rules::tests` checks that it names every rule the registry defines, once.
    pub const ALL: [Rule; 23] = [
        Rule::ParseError,
        Rule::UnknownCard,
        Rule::CardMismatch,
        Rule::DeckSize,
        Rule::CopyLimit,
        Rule::AceSpecLimit,
        Rule::PrismStarLimit,
        Rule::RadiantLimit,
        Rule::GoldStarLimit,
        Rule::NoBasicPokemon,
        Rule::NotLegal,
        Rule::ReprintUndecided,
        Rule::LegalAsReprint,
        Rule::PromoDateUnknown,
        Rule::Banned,
        Rule::SingleType,
        Rule::RuleBox,
        Rule::ExclusiveCards,
        Rule::HeaderCount,
        Rule::AmbiguousCard,
        Rule::UnknownPrinting,
        Rule::ReadAs,
        Rule::Encoding,
    ];
}
