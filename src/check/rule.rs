//! The rule ids: what a [`crate::check::diagnostic::Diagnostic`] names.
//!
//! This is the one list of rules, in registry order (`every_rule!`): each rule's variant
//! and where its [`crate::check::rules::RuleDef`] is. This file makes the [`Rule`] enum and
//! [`Rule::ALL`] from it and ignores the definitions; [`crate::check::rules`] makes
//! `Rule::def` from the same list. A finding needs only the name, so the findings do not
//! depend on the rules that make them.

/// The list of every rule, in registry order: the order of `deckbox explain`, of
/// [`Rule::ALL`] and of findings on one line. Each entry is the variant and its definition,
/// a path in `check::rules` (`family::CONST`). `every_rule!(then)` hands the list to the
/// macro `then`; adding a rule is one line here.
macro_rules! every_rule {
    ($then:ident) => {
        $then! {
            ParseError => lines::PARSE_ERROR,
            UnknownCard => lines::UNKNOWN_CARD,
            CardMismatch => lines::CARD_MISMATCH,
            DeckSize => size::DECK_SIZE,
            CopyLimit => copies::COPY_LIMIT,
            AceSpecLimit => tags::ACE_SPEC_LIMIT,
            PrismStarLimit => copies::PRISM_STAR_LIMIT,
            RadiantLimit => tags::RADIANT_LIMIT,
            GoldStarLimit => tags::GOLD_STAR_LIMIT,
            NoBasicPokemon => size::NO_BASIC_POKEMON,
            NotLegal => legality::NOT_LEGAL,
            ReprintUndecided => legality::REPRINT_UNDECIDED,
            LegalAsReprint => legality::LEGAL_AS_REPRINT,
            PromoDateUnknown => legality::PROMO_DATE_UNKNOWN,
            Banned => legality::BANNED,
            SingleType => glc::SINGLE_TYPE,
            RuleBox => glc::RULE_BOX,
            ExclusiveCards => copies::EXCLUSIVE_CARDS,
            HeaderCount => headers::HEADER_COUNT,
            WrongSection => headers::WRONG_SECTION,
            AmbiguousCard => lines::AMBIGUOUS_CARD,
            UnknownPrinting => lines::UNKNOWN_PRINTING,
            ReadAs => lines::READ_AS,
            Encoding => lines::ENCODING,
        }
    };
}
pub(crate) use every_rule;

/// The [`Rule`] enum and [`Rule::ALL`] from `every_rule!`'s list (the definitions unused).
macro_rules! rule_enum {
    ($($variant:ident => $def:path,)*) => {
        /// Every rule deckbox checks, by stable id; serialized as the id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($variant,)*
        }

        impl Rule {
            /// Every rule, in registry order: the order of `deckbox explain` and of findings
            /// on one line.
            pub const ALL: [Rule; [$(Rule::$variant),*].len()] = [$(Rule::$variant),*];
        }
    };
}

every_rule!(rule_enum);
