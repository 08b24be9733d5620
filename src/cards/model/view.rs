//! [`PrintingView`]: what a listing writes of a printing (its set, number, names, types,
//! mark and rule tags), borrowed: read in place from a printing's encoded record, so a
//! search that lists thousands of printings builds none of them, or borrowed from a
//! [`Printing`] already built.

use serde::Deserialize;

use super::{Category, EnergyKind, Printing, Stage, Tags, TrainerKind};
use crate::names::lang::{Language, Region};

/// The fields of [`Printing`] up to its [`Tags`], in [`Printing`]'s order and with its
/// types, strings borrowed: `postcard` writes a struct as its fields one after the other, so
/// this reads the start of a printing's record and leaves the fields after `tags` unread
/// (`postcard::from_bytes` ignores what follows). The unit test
/// `every_embedded_record_views_as_its_printing` compares the two over every printing of
/// the embedded index.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PrintingView<'a> {
    pub set_code: &'a str,
    pub set_id: &'a str,
    pub number: &'a str,
    pub release_date: &'a str,
    pub series: &'a str,
    /// [`super::Names`] as stored: the six names by [`Language::index`], then the regional
    /// ones.
    #[serde(borrow)]
    names: ([Option<&'a str>; 6], Vec<(Region, &'a str)>),
    pub category: Category,
    pub stage: Option<Stage>,
    pub evolves_from: Option<&'a str>,
    #[serde(borrow)]
    pub types: Vec<&'a str>,
    pub trainer: Option<TrainerKind>,
    pub energy: Option<EnergyKind>,
    pub ace_spec: bool,
    pub radiant: bool,
    pub prism_star: bool,
    pub pokemon_star: bool,
    pub regulation_mark: Option<char>,
    pub tags: Tags,
}

impl<'a> PrintingView<'a> {
    /// The name in `lang`, as [`super::Names::get`].
    pub fn name(&self, lang: Language) -> Option<&'a str> {
        self.names.0[lang.index()]
    }

    /// Every `(language, name)` the card has, as [`super::Names::iter`].
    pub fn names(&self) -> impl Iterator<Item = (Language, &'a str)> + '_ {
        Language::ALL
            .into_iter()
            .filter_map(|lang| Some((lang, self.name(lang)?)))
    }

    /// The English name, or the first the card has, as [`super::Names::primary`].
    pub fn primary(&self) -> &'a str {
        self.name(Language::En)
            .or_else(|| self.names().next().map(|(_, name)| name))
            .unwrap_or("")
    }

    /// The rule tags written of the printing, as [`Printing::rule_tags`].
    pub fn rule_tags(&self) -> impl Iterator<Item = &'static str> + use<> {
        rule_tags(
            [
                self.ace_spec,
                self.radiant,
                self.prism_star,
                self.pokemon_star,
            ],
            self.tags,
        )
    }
}

impl Printing {
    /// The printing borrowed as a [`PrintingView`].
    pub fn view(&self) -> PrintingView<'_> {
        let names = &self.names;
        PrintingView {
            set_code: &self.set_code,
            set_id: &self.set_id,
            number: &self.number,
            release_date: &self.release_date,
            series: &self.series,
            names: (
                Language::ALL.map(|lang| names.get(lang)),
                (names.regional.iter())
                    .map(|(region, name)| (*region, name.as_str()))
                    .collect(),
            ),
            category: self.category,
            stage: self.stage,
            evolves_from: self.evolves_from.as_deref(),
            types: self.types.iter().map(String::as_str).collect(),
            trainer: self.trainer,
            energy: self.energy,
            ace_spec: self.ace_spec,
            radiant: self.radiant,
            prism_star: self.prism_star,
            pokemon_star: self.pokemon_star,
            regulation_mark: self.regulation_mark,
            tags: self.tags,
        }
    }
}

/// The rule tags written of a printing (`card`'s and `search`'s JSON, `rules`): the flags
/// with a limit of their own first (ACE SPEC, Radiant, Prism Star, Pokémon Star, as
/// `flags` gives them in that order), then the tags.
pub(super) fn rule_tags(flags: [bool; 4], tags: Tags) -> impl Iterator<Item = &'static str> {
    let labels = ["ACE SPEC", "Radiant", "Prism Star", "Pokémon Star"];
    let flagged = (flags.into_iter().zip(labels)).filter_map(|(on, tag)| on.then_some(tag));
    flagged.chain(tags.iter().map(|tag| tag.label()))
}
