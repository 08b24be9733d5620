//! What the reprint rule (Play! Pokémon Tournament Rules 5.4.1.3) compares of one printing,
//! gathered in a [`Fingerprint`]: its name, kind, stage, evolution, types, marks and
//! [`super::effect`] fingerprint, folded once. Its [`Fingerprint::twin_key`] is what the
//! search columns keep of a printing, so a query compares two printings without decoding
//! either. Plain values: deciding what a format allows, and comparing two
//! printings, is `crate::formats`' job (`formats::reprint`).

use super::effect::fold;
use super::{Category, EnergyKind, Printing, TrainerKind};
use crate::names;

/// Every fact the reprint rule compares of one printing, folded once: comparing two
/// fingerprints ([`Fingerprint::differences`], [`Fingerprint::twin_key`]) folds no text, so
/// a card's printings are compared with each other without folding each again per pair.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    name: String,
    category: Category,
    basic_energy: bool,
    stage: Option<super::Stage>,
    /// A Pokémon's only; `None` for other cards.
    evolves_from: Option<String>,
    /// A Pokémon's only, folded and sorted; empty for other cards.
    types: Vec<String>,
    trainer: Option<TrainerKind>,
    energy: Option<EnergyKind>,
    rarity: [bool; 4],
    tags: super::Tags,
    effect: Option<u64>,
}

impl Fingerprint {
    pub fn of(p: &Printing) -> Fingerprint {
        let pokemon = p.category == Category::Pokemon;
        Fingerprint {
            name: p.rules_key().to_string(),
            category: p.category,
            basic_energy: is_basic_energy(p),
            stage: p.stage,
            evolves_from: if pokemon { evolves_from(p) } else { None },
            types: if pokemon { types(p) } else { Vec::new() },
            trainer: trainer(p),
            energy: p.energy,
            rarity: rarity(p),
            tags: p.tags,
            effect: p.effect,
        }
    }

    /// Equal for two printings exactly when the reprint rule's `functionally_identical` holds between them;
    /// `None` for a printing identical to nothing (no rules text, not a basic Energy). Two
    /// basic Energy of one name share a key whatever else they say.
    pub fn twin_key(&self) -> Option<Fingerprint> {
        if self.basic_energy {
            return Some(Fingerprint {
                name: self.name.clone(),
                category: self.category,
                basic_energy: true,
                stage: None,
                evolves_from: None,
                types: Vec::new(),
                trainer: None,
                energy: None,
                rarity: [false; 4],
                tags: super::Tags::default(),
                effect: None,
            });
        }
        self.effect.is_some().then(|| self.clone())
    }

    /// Equal for two printings exactly when they differ in nothing but their texts (the
    /// facts the reprint rule's `undecided` looks at besides the text); `None` for a basic Energy, which is
    /// never undecided.
    pub fn kind_key(&self) -> Option<Fingerprint> {
        (!self.basic_energy).then(|| Fingerprint {
            effect: None,
            ..self.clone()
        })
    }

    /// Whether this printing has rules text to compare.
    pub fn has_text(&self) -> bool {
        self.effect.is_some()
    }

    /// The printed facts besides text: stage, evolution, types, Trainer and Energy kind,
    /// ACE SPEC / Radiant / Prism Star / Pokémon Star, and the name's mechanic (whose rule
    /// box [`super::effect::text_key`] leaves out of the text).
    pub fn same_kind(&self, other: &Fingerprint) -> bool {
        self.stage == other.stage
            && self.trainer == other.trainer
            && self.energy == other.energy
            && self.rarity == other.rarity
            && self.tags == other.tags
            && (self.category != Category::Pokemon
                || (self.evolves_from == other.evolves_from && self.types == other.types))
    }

    /// What differs between the two printings of these fingerprints.
    pub fn differences(&self, other: &Fingerprint) -> Vec<Difference> {
        let (a, b) = (self, other);
        let mut out = Vec::new();
        if a.name != b.name {
            out.push(Difference::Name);
        }
        if a.category != b.category {
            out.push(Difference::Category);
            return out;
        }
        if a.basic_energy && b.basic_energy {
            return out;
        }
        let facts = [
            (a.stage != b.stage, Difference::Stage),
            (a.evolves_from != b.evolves_from, Difference::EvolvesFrom),
            (a.types != b.types, Difference::Types),
            (a.trainer != b.trainer, Difference::TrainerKind),
            (a.energy != b.energy, Difference::EnergyKind),
            (a.rarity != b.rarity, Difference::Rarity),
            (a.tags != b.tags, Difference::Mechanic),
        ];
        out.extend(
            facts
                .iter()
                .filter(|(differs, _)| *differs)
                .map(|(_, d)| *d),
        );
        match (a.effect, b.effect) {
            (Some(a_effect), Some(b_effect)) if a_effect != b_effect => {
                out.push(Difference::Effect)
            }
            (Some(_), Some(_)) => {}
            _ => out.push(Difference::MissingText),
        }
        out
    }
}

/// One fact the reprint rule compares, found different between two printings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Difference {
    Name,
    Category,
    Stage,
    EvolvesFrom,
    Types,
    TrainerKind,
    EnergyKind,
    /// ACE SPEC, Radiant, Prism Star or Pokémon Star.
    Rarity,
    /// The name's mechanic: ex, EX, GX, V, VMAX, BREAK, LEGEND...
    Mechanic,
    /// Both have rules text and its fingerprints differ.
    Effect,
    /// One of them has no rules text in the card data.
    MissingText,
}

impl Difference {
    /// A short phrase for messages: "different effect text".
    pub fn describe(self) -> &'static str {
        match self {
            Difference::Name => "a different name",
            Difference::Category => "a different kind of card",
            Difference::Stage => "a different stage",
            Difference::EvolvesFrom => "evolves from a different Pokémon",
            Difference::Types => "different types",
            Difference::TrainerKind => "a different Trainer kind",
            Difference::EnergyKind => "a different Energy kind",
            Difference::Rarity => "a different ACE SPEC, Radiant or Prism Star mark",
            Difference::Mechanic => "a different mechanic (ex, V, GX...)",
            Difference::Effect => "different effect text",
            Difference::MissingText => "no rules text in the card data to compare",
        }
    }
}

pub(crate) fn is_basic_energy(p: &Printing) -> bool {
    p.energy == Some(EnergyKind::Basic)
}

fn evolves_from(p: &Printing) -> Option<String> {
    p.evolves_from.as_deref().map(names::lookup_key)
}

fn types(p: &Printing) -> Vec<String> {
    let mut types: Vec<String> = p.types.iter().map(|t| fold(t)).collect();
    types.sort();
    types
}

/// Trainers from before Black & White have no subtype; the rules play them as Items.
fn trainer(p: &Printing) -> Option<TrainerKind> {
    match (p.category, p.trainer) {
        (Category::Trainer, None) => Some(TrainerKind::Item),
        (_, kind) => kind,
    }
}

fn rarity(p: &Printing) -> [bool; 4] {
    [p.ace_spec, p.radiant, p.prism_star, p.pokemon_star]
}
