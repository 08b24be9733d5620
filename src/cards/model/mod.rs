//! What a card is: a [`Printing`] is one card as printed in one set (set code + collector
//! number), with every fact the construction rules need; its [`Names`] in each language;
//! the kinds, stages and [`Tags`] the rules read; the normalized set codes and numbers
//! printings are indexed by ([`set_key`], [`number_key`], [`split_subset`]) and the set
//! ids databases write ([`set_id`]); what a printing says beyond the rules ([`details`]);
//! and the [`effect`] fingerprint the reprint rule compares. Plain values: this sub-wing
//! uses no other part of `cards` and must not know about databases, files or deck lists.

pub mod details;
pub mod effect;
pub mod set_id;
pub mod twin;
mod view;

pub use view::PrintingView;

use std::path::PathBuf;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::names;
use crate::names::lang::{Language, Region};
use crate::util::memo::Memo;

/// A card's name in each language it was printed in, and the rules name derived from them.
///
/// The rules name (the English name, or the first known, reduced to what the rulebooks count
/// as the name) and its lookup key are computed whenever the name they come from changes, so
/// they are plain values, never stale, and a repository check that asks for them for every
/// card of every deck does not recompute them. Serialized as the six names and the
/// regional ones alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredNames", into = "StoredNames")]
pub struct Names {
    /// Index: [`Language::index`].
    by_language: [Option<String>; 6],
    /// The names of regional editions that differ from their language's
    /// (`Determinación de Lillie`, es-mx, where Spanish is `Determinación de Lylia`), in
    /// [`Region::ALL`] order: a name the card has, read like one in that language.
    regional: Vec<(Region, String)>,
    rules_name: String,
    rules_key: String,
}

/// What [`Names`] stores: the six names, then the regional ones.
type StoredNames = ([Option<String>; 6], Vec<(Region, String)>);

impl From<StoredNames> for Names {
    fn from((by_language, regional): StoredNames) -> Names {
        let mut names = Names::from(by_language);
        names.regional = regional;
        names
    }
}

impl From<Names> for StoredNames {
    fn from(names: Names) -> StoredNames {
        (names.by_language, names.regional)
    }
}

impl From<[Option<String>; 6]> for Names {
    fn from(by_language: [Option<String>; 6]) -> Names {
        let mut names = Names {
            by_language,
            ..Names::default()
        };
        names.derive();
        names
    }
}

impl From<Names> for [Option<String>; 6] {
    fn from(names: Names) -> [Option<String>; 6] {
        names.by_language
    }
}

impl Names {
    pub fn get(&self, lang: Language) -> Option<&str> {
        self.by_language[lang.index()].as_deref()
    }

    /// Sets a name. Control characters are dropped: no card name has one, and a card
    /// database from elsewhere (`--cards`) must not put escape sequences into what
    /// `convert` writes and every report prints.
    pub fn set(&mut self, lang: Language, name: impl Into<String>) {
        let mut name: String = name.into();
        if name.contains(char::is_control) {
            name.retain(|c| !c.is_control());
        }
        self.by_language[lang.index()] = Some(name);
        self.derive();
    }

    /// Forgets the name in `lang`.
    pub fn remove(&mut self, lang: Language) {
        self.by_language[lang.index()] = None;
        self.derive();
    }

    /// Sets the name of a regional edition. Kept only where it differs from the name in
    /// the region's language: an equal one is no other name.
    pub fn set_regional(&mut self, region: Region, name: impl Into<String>) {
        let mut name: String = name.into();
        name.retain(|c| !c.is_control());
        self.regional.retain(|(r, _)| *r != region);
        if self.get(region.language()) != Some(name.as_str()) && !name.is_empty() {
            self.regional.push((region, name));
            self.regional.sort();
        }
    }

    /// The name of a regional edition, where it differs from its language's.
    pub fn regional(&self, region: Region) -> Option<&str> {
        (self.regional.iter())
            .find(|(r, _)| *r == region)
            .map(|(_, name)| name.as_str())
    }

    /// Every name a reader may write for the card: [`Names::iter`], then the regional
    /// names, each with its region's language (`Determinación de Lillie` is Spanish).
    pub fn readable(&self) -> impl Iterator<Item = (Language, &str)> {
        self.iter()
            .chain((self.regional.iter()).map(|(region, name)| (region.language(), name.as_str())))
    }

    /// Every `(language, name)` the card has.
    pub fn iter(&self) -> impl Iterator<Item = (Language, &str)> {
        Language::ALL
            .into_iter()
            .filter_map(|lang| self.get(lang).map(|name| (lang, name)))
    }

    /// The English name, or the first name the card has when it was never printed in English.
    pub fn primary(&self) -> &str {
        self.get(Language::En)
            .or_else(|| self.iter().next().map(|(_, name)| name))
            .unwrap_or("")
    }

    /// Recomputes the rules name and key when the primary name changed. Both are pure
    /// functions of the primary name, which thousands of printings share (every reprint,
    /// every basic Energy): each decoded printing derives them, so they are memoized by it.
    fn derive(&mut self) {
        static DERIVED: LazyLock<Memo<String, (String, String)>> = LazyLock::new(Memo::default);
        let primary = self.primary();
        let (name, key) = DERIVED.get_or(primary, str::to_string, || {
            let name = names::canonical(primary);
            let key = names::lookup_key(&name);
            (name, key)
        });
        self.rules_name = name;
        self.rules_key = key;
    }
}

/// The three kinds of card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Pokemon,
    Trainer,
    Energy,
}

impl Category {
    /// The section of a deck list a card of this kind belongs under.
    pub fn section(self) -> crate::deck::Section {
        match self {
            Category::Pokemon => crate::deck::Section::Pokemon,
            Category::Trainer => crate::deck::Section::Trainer,
            Category::Energy => crate::deck::Section::Energy,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Pokemon => "pokemon",
            Category::Trainer => "trainer",
            Category::Energy => "energy",
        }
    }
}

/// A Pokémon's stage as printed. Pokémon ex, V, GX and the like are `Basic`, `Stage1` or
/// `Stage2`; the other variants are the stages the rulebooks treat apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Basic,
    /// Neo-era Baby Pokémon: Basic Pokémon for every rule.
    Baby,
    Stage1,
    Stage2,
    /// Restored Pokémon come from a Fossil card and are not Basic Pokémon.
    Restored,
    /// V-UNION pieces are not Basic Pokémon; the four pieces share one name.
    VUnion,
    LevelUp,
    Break,
    Vmax,
    Vstar,
    /// XY-era Mega Evolution (`M Venusaur-EX`); 2025 Mega Pokémon ex are Basic/Stage 1/2.
    Mega,
}

impl Stage {
    /// Whether a Pokémon of this stage is a Basic Pokémon (may be put into play at setup).
    pub fn is_basic(self) -> bool {
        matches!(self, Stage::Basic | Stage::Baby)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Basic => "Basic",
            Stage::Baby => "Baby",
            Stage::Stage1 => "Stage 1",
            Stage::Stage2 => "Stage 2",
            Stage::Restored => "Restored",
            Stage::VUnion => "V-UNION",
            Stage::LevelUp => "LEVEL-UP",
            Stage::Break => "BREAK",
            Stage::Vmax => "VMAX",
            Stage::Vstar => "VSTAR",
            Stage::Mega => "Mega",
        }
    }
}

/// The kind of a Trainer card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrainerKind {
    Item,
    Supporter,
    Stadium,
    Tool,
    TechnicalMachine,
    RocketsSecretMachine,
}

impl TrainerKind {
    /// The kind as the cards print it (`Pokémon Tool`, `Technical Machine`).
    pub fn label(self) -> &'static str {
        match self {
            TrainerKind::Item => "Item",
            TrainerKind::Supporter => "Supporter",
            TrainerKind::Stadium => "Stadium",
            TrainerKind::Tool => "Pokémon Tool",
            TrainerKind::TechnicalMachine => "Technical Machine",
            TrainerKind::RocketsSecretMachine => "Rocket's Secret Machine",
        }
    }
}

/// Basic Energy is exempt from the copy limit; special Energy is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnergyKind {
    Basic,
    Special,
}

/// One card as printed in one set, with what the rules need to know about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Printing {
    /// The set code printed in deck lists, normalized by [`set_key`] (`TWM`, `SVP`, `BRS`).
    /// Empty when the source knows no printed code for the set.
    pub set_code: String,
    /// The database's own set id (`sv06`, `swsh9tg`); for embedded cards, the set code.
    pub set_id: String,
    /// The collector number, normalized by [`number_key`] (`128`, `TG5`, `SWSH230`).
    pub number: String,
    /// Release date of the set, `YYYY-MM-DD`, or empty when unknown.
    pub release_date: String,
    /// Series id of the set (`sv`, `swsh`, `sm`, `xy`, `bw`, ...), or empty when unknown.
    pub series: String,
    pub names: Names,
    pub category: Category,
    pub stage: Option<Stage>,
    /// The English name of the Pokémon this one evolves from.
    pub evolves_from: Option<String>,
    /// Pokémon types, in English (`Fire`, `Water`, ...).
    pub types: Vec<String>,
    pub trainer: Option<TrainerKind>,
    pub energy: Option<EnergyKind>,
    pub ace_spec: bool,
    pub radiant: bool,
    pub prism_star: bool,
    /// Pokémon Star (☆ / ★ after the name, EX and POP era).
    pub pokemon_star: bool,
    pub regulation_mark: Option<char>,
    /// The Rule Box and name mechanics the card carries (ex, GX, V, BREAK, LV.X, ...).
    pub tags: Tags,
    /// [`effect::fingerprint`] of the English rules text's [`effect::text_key`]: what the
    /// reprint rule compares. `None` when the source gives no rules text.
    pub effect: Option<u64>,
    /// The card prints "you may have as many of this card in your deck as you like".
    pub any_number: bool,
    /// Where the printing sits in its [`CardDb`](crate::cards::database::CardDb), for memos
    /// keyed by printing; not part of the card (never written, equal for any two printings).
    #[serde(skip)]
    pub slot: DbSlot,
}

/// A printing's place in a [`CardDb`](crate::cards::database::CardDb): the database (a
/// number unique in the process) and the printing's id there; none for a printing outside a
/// database. Any two slots compare equal, so a printing's equality is the card's alone;
/// [`DbSlot::key`] tells them apart.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbSlot {
    /// 0: in no database.
    db: u64,
    id: PrintingId,
}

impl DbSlot {
    pub(crate) fn new(db: u64, id: PrintingId) -> DbSlot {
        DbSlot { db, id }
    }

    /// The database and id, when the printing is in a database.
    pub fn key(self) -> Option<(u64, PrintingId)> {
        (self.db != 0).then_some((self.db, self.id))
    }
}

impl PartialEq for DbSlot {
    fn eq(&self, _: &DbSlot) -> bool {
        true
    }
}

impl Printing {
    /// The rule tags written of a printing (`card`'s and `search`'s JSON, `rules`): the
    /// flags with a limit of their own first (ACE SPEC, Radiant, Prism Star, Pokémon Star),
    /// then the tags.
    pub fn rule_tags(&self) -> Vec<&'static str> {
        let flags = [
            self.ace_spec,
            self.radiant,
            self.prism_star,
            self.pokemon_star,
        ];
        view::rule_tags(flags, self.tags).collect()
    }

    /// A printing of `category` with this set code and number (normalized by [`set_key`]
    /// and [`number_key`]; the set id is the lower-case code) and every other fact empty.
    pub fn new(set_code: &str, number: &str, category: Category) -> Printing {
        Printing {
            set_code: set_key(set_code),
            set_id: set_code.to_lowercase(),
            number: number_key(number),
            release_date: String::new(),
            series: String::new(),
            names: Names::default(),
            category,
            stage: None,
            evolves_from: None,
            types: Vec::new(),
            trainer: None,
            energy: None,
            ace_spec: false,
            radiant: false,
            prism_star: false,
            pokemon_star: false,
            regulation_mark: None,
            tags: Tags::default(),
            effect: None,
            any_number: false,
            slot: DbSlot::default(),
        }
    }

    /// The card's name as the rules compare it: the English name (or the first known),
    /// reduced to what the rulebooks count as the name.
    pub fn rules_name(&self) -> String {
        self.rules_name_str().to_string()
    }

    /// [`Printing::rules_name`], borrowed.
    pub fn rules_name_str(&self) -> &str {
        &self.names.rules_name
    }

    /// [`names::lookup_key`] of the rules name: equal for two printings exactly when the
    /// rules count them as the same name.
    pub fn rules_key(&self) -> &str {
        &self.names.rules_key
    }

    /// Sets [`Printing::effect`] and [`Printing::any_number`] from the English rules text
    /// (abilities, attacks, effects, one paragraph per line). Call it once the names are
    /// final: a Pokémon's own name is part of the comparison.
    pub fn set_rules_text(&mut self, text: &str) {
        self.any_number = effect::allows_any_number(text);
        self.effect = (!text.trim().is_empty()).then(|| {
            let name = names::canonical(self.names.primary());
            effect::fingerprint(&effect::text_key(&name, self.category, text))
        });
    }

    /// A Basic Pokémon: may be put into play at setup. The two halves of a Pokémon LEGEND
    /// are not, whatever stage a dataset gives them (they are played together from the hand).
    pub fn is_basic_pokemon(&self) -> bool {
        self.category == Category::Pokemon
            && self.stage.is_some_and(Stage::is_basic)
            && !self.tags.contains(Tag::Legend)
    }

    /// Whether the card has a Rule Box: Pokémon ex, EX, GX (TAG TEAM too), V, VMAX, VSTAR,
    /// V-UNION, BREAK, Mega, LEGEND, Radiant, and every Prism Star card.
    pub fn has_rule_box(&self) -> bool {
        self.radiant || self.prism_star || self.tags.has_rule_box()
    }

    pub fn is_basic_energy(&self) -> bool {
        self.category == Category::Energy && self.energy == Some(EnergyKind::Basic)
    }

    /// Whether a number written without a set code names this printing: its own number
    /// (`138`, `SWSH161`) or its set code glued to it (`PAL185`).
    pub fn has_written_number(&self, written: &str) -> bool {
        let key = number_key(written);
        self.number == key
            || key
                .strip_prefix(self.set_code.as_str())
                .is_some_and(|rest| !self.set_code.is_empty() && rest == self.number)
    }

    /// `TWM 128`, or the name when the set is unknown.
    pub fn printing_label(&self) -> String {
        if self.set_code.is_empty() {
            self.set_id.clone()
        } else {
            format!("{} {}", self.set_code, self.number)
        }
    }
}

/// A Rule Box or name mechanic a Pokémon card carries: what its name ends in (`ex`, `GX`,
/// `V`) or how it is played (BREAK, LV.X, LEGEND, Prime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    /// `Pokémon ex`: the EX-series (2003-2007) and Scarlet & Violet (2023-) mechanic.
    LowerEx,
    /// `Pokémon-EX` (Black & White, XY).
    UpperEx,
    Gx,
    TagTeam,
    V,
    Vmax,
    Vstar,
    VUnion,
    Break,
    Mega,
    LvX,
    Legend,
    Prime,
}

impl Tag {
    pub const ALL: [Tag; 13] = [
        Tag::LowerEx,
        Tag::UpperEx,
        Tag::Gx,
        Tag::TagTeam,
        Tag::V,
        Tag::Vmax,
        Tag::Vstar,
        Tag::VUnion,
        Tag::Break,
        Tag::Mega,
        Tag::LvX,
        Tag::Legend,
        Tag::Prime,
    ];

    /// The tag as cards print it (`ex`, `EX`, `TAG TEAM`, `LV.X`).
    pub fn label(self) -> &'static str {
        match self {
            Tag::LowerEx => "ex",
            Tag::UpperEx => "EX",
            Tag::Gx => "GX",
            Tag::TagTeam => "TAG TEAM",
            Tag::V => "V",
            Tag::Vmax => "VMAX",
            Tag::Vstar => "VSTAR",
            Tag::VUnion => "V-UNION",
            Tag::Break => "BREAK",
            Tag::Mega => "Mega",
            Tag::LvX => "LV.X",
            Tag::Legend => "LEGEND",
            Tag::Prime => "Prime",
        }
    }

    /// The tag in the card index file: the label without spaces (`TAG-TEAM`).
    pub fn id(self) -> &'static str {
        match self {
            Tag::TagTeam => "TAG-TEAM",
            other => other.label(),
        }
    }

    pub fn from_id(id: &str) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| tag.id() == id)
    }

    /// Whether a card with this tag has a Rule Box (LV.X and Prime cards do not).
    pub fn is_rule_box(self) -> bool {
        !matches!(self, Tag::LvX | Tag::Prime)
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// A set of [`Tag`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tags(u16);

impl Tags {
    /// The set as its bits (a [`Tag`]'s bit is `1 << (tag as u16)`), for a fixed-width file
    /// form; [`Tags::from_bits`] reads them back.
    pub fn bits(self) -> u16 {
        self.0
    }

    pub fn from_bits(bits: u16) -> Tags {
        Tags(bits)
    }

    pub fn insert(&mut self, tag: Tag) {
        self.0 |= tag.bit();
    }

    pub fn contains(self, tag: Tag) -> bool {
        self.0 & tag.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The tags in [`Tag::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Tag> {
        Tag::ALL.into_iter().filter(move |tag| self.contains(*tag))
    }

    pub fn has_rule_box(self) -> bool {
        self.iter().any(Tag::is_rule_box)
    }

    /// The tags a Pokémon's English name and stage show: the name's last word (`ex`, `EX`,
    /// `-GX`, `V`, `VMAX`, `VSTAR`, `V-UNION`, `BREAK`, `LV.X`, `LEGEND`), `&` in a GX name
    /// (TAG TEAM), `M`/`Mega` in front (Mega), and the stages that are mechanics. Loaders
    /// add what a name does not show (Prime, LEGEND by rarity).
    pub fn of_pokemon(english_name: &str, stage: Option<Stage>) -> Tags {
        let mut tags = Tags::default();
        // δ (Delta Species) is not part of the name's mechanics: `Rayquaza ex δ`.
        let name = english_name.trim().trim_end_matches('δ').trim_end();
        let last = name.rsplit([' ', '-']).next().unwrap_or("");
        let ends_with = |suffix: &str| {
            name.strip_suffix(suffix)
                .is_some_and(|rest| rest.ends_with([' ', '-']))
        };
        let by_name = [
            ("ex", Tag::LowerEx),
            ("EX", Tag::UpperEx),
            ("GX", Tag::Gx),
            ("V", Tag::V),
            ("VMAX", Tag::Vmax),
            ("VSTAR", Tag::Vstar),
            ("BREAK", Tag::Break),
            ("LEGEND", Tag::Legend),
        ];
        for (word, tag) in by_name {
            if last == word && ends_with(word) {
                tags.insert(tag);
            }
        }
        if ends_with("V-UNION") {
            tags.insert(Tag::VUnion);
        }
        if ends_with("LV.X") {
            tags.insert(Tag::LvX);
        }
        if tags.contains(Tag::Gx) && name.contains(" & ") {
            tags.insert(Tag::TagTeam);
        }
        if name.starts_with("M ") || name.starts_with("Mega ") {
            tags.insert(Tag::Mega);
        }
        match stage {
            Some(Stage::Vmax) => tags.insert(Tag::Vmax),
            Some(Stage::Vstar) => tags.insert(Tag::Vstar),
            Some(Stage::VUnion) => tags.insert(Tag::VUnion),
            Some(Stage::Break) => tags.insert(Tag::Break),
            Some(Stage::Mega) => tags.insert(Tag::Mega),
            Some(Stage::LevelUp) => tags.insert(Tag::LvX),
            _ => {}
        }
        tags
    }
}

/// Index of a printing inside its [`CardDb`](crate::cards::database::CardDb).
pub type PrintingId = u32;

/// Where a card database came from (shown in reports and `--verbose` output).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Embedded,
    Tcgdex(PathBuf),
    PokemonTcg(PathBuf),
    /// The index `deckbox cards update` installed (the file it lives in).
    Updated(PathBuf),
}

/// Normalizes a set code as written in a list into the code printings are indexed by:
/// upper case, and the aliases deck lists use for promo sets (`PR-SV` is `SVP`, `PR-EX` the
/// Nintendo Black Star promos' `PR-NP`).
pub fn set_key(code: &str) -> String {
    let upper = code.trim().to_ascii_uppercase();
    let canonical = match upper.as_str() {
        "PR-SV" | "SVP" => "SVP",
        "PR-SW" | "SWSHP" | "PR-SWSH" => "SWSHP",
        "PR-SM" | "SMP" => "SMP",
        "PR-XY" | "XYP" => "XYP",
        "PR-BLW" | "PR-BW" | "BWP" => "BWP",
        "PR-MEP" | "MEP" => "MEP",
        // The codes printings carry are `PR-DPP` and `PR-NP`; lists kept as records
        // (ptcg-story's 2004–2009 event records) write the series' short name.
        "PR-DP" => "PR-DPP",
        "PR-EX" => "PR-NP",
        other => other,
    };
    canonical.to_string()
}

/// Normalizes a collector number: upper case, leading zeros of the digit run removed
/// (`003` is `3`, `TG05` is `TG5`, `xy150a` is `XY150A`), and the set's total a card prints
/// after its number dropped (`185/193` is `185`, `TG05/TG30` is `TG5`).
pub fn number_key(number: &str) -> String {
    let number = number.split_once('/').map_or(number, |(number, _)| number);
    let upper = number.trim().to_ascii_uppercase();
    let (prefix, digits, suffix) = split_number(&upper);
    let trimmed = digits.trim_start_matches('0');
    let digits = if trimmed.is_empty() && !digits.is_empty() {
        "0"
    } else {
        trimmed
    };
    [prefix, digits, suffix].concat()
}

/// A collector number's letters before its first digit run, that run, and the rest:
/// `TG05` is (`TG`, `05`, ``), `150a` is (``, `150`, `a`).
pub(crate) fn split_number(number: &str) -> (&str, &str, &str) {
    let digits_at = number
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(number.len());
    let (prefix, rest) = number.split_at(digits_at);
    let digits_len = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (digits, suffix) = rest.split_at(digits_len);
    (prefix, digits, suffix)
}

/// The order collectors sort numbers in: `2` before `10`, `TG5` after `99`.
pub(crate) fn number_order(number: &str) -> (String, u64, String) {
    let (prefix, digits, suffix) = split_number(number);
    (
        prefix.to_string(),
        digits.parse().unwrap_or(0),
        suffix.to_string(),
    )
}

/// Splits a subset written into the set code (`CRZ-GG`, `BRS-TG`) onto the number, and
/// normalizes both: `("CRZ-GG", "59")` and `("CRZ", "GG59")` are both `("CRZ", "GG59")`.
pub fn split_subset(code: &str, number: &str) -> (String, String) {
    let code = code.trim();
    // A promo alias such as `PR-SV` is a whole code, not set `PR` + subset `SV`.
    let is_alias = set_key(code) != code.to_ascii_uppercase();
    if !is_alias
        && let Some((main, sub)) = code.rsplit_once(['-', ':'])
        && matches!(
            sub.to_ascii_uppercase().as_str(),
            "GG" | "TG" | "SV" | "CC" | "RC"
        )
    {
        let number = number_key(number);
        let sub = sub.to_ascii_uppercase();
        let number = if number.starts_with(&sub) {
            number
        } else {
            format!("{sub}{number}")
        };
        return (set_key(main), number);
    }
    let set = set_key(code);
    let number = number_key(number);
    // Black Star promos printed `BW100`, `SWSH251`: lists (Limitless among them) often write
    // the digits alone, `PR-BLW 100`.
    if let Some(prefix) = promo_prefix(&set)
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
    {
        return (set, format!("{prefix}{number}"));
    }
    (set, number)
}

/// The letters every number of a Black Star promo set starts with.
fn promo_prefix(set: &str) -> Option<&'static str> {
    Some(match set {
        "PR-DPP" => "DP",
        "PR-HS" => "HGSS",
        "BWP" => "BW",
        "XYP" => "XY",
        "SMP" => "SM",
        "SWSHP" => "SWSH",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoized_rules_names_follow_each_change_of_the_primary_name() {
        let mut names = Names::default();
        names.set(Language::Fr, "Pikachu-V");
        assert_eq!(names.rules_key, names::lookup_key("Pikachu V"));
        names.set(Language::En, "Team Plasma Ball");
        assert_eq!(names.rules_name, names::canonical("Team Plasma Ball"));
        assert_eq!(names.rules_key, names::lookup_key(&names.rules_name));
        // A second card of the same primary name reads the memo: the same values.
        let mut again = Names::default();
        again.set(Language::En, "Team Plasma Ball");
        assert_eq!(
            (again.rules_name, again.rules_key),
            (names.rules_name.clone(), names.rules_key.clone())
        );
        names.remove(Language::En);
        assert_eq!(names.rules_name, names::canonical("Pikachu-V"));
        assert_eq!(names.rules_key, names::lookup_key("Pikachu-V"));
    }

    #[test]
    fn written_numbers_name_the_printing_alone_or_glued_to_its_code() {
        let iono = Printing::new("PAL", "185", Category::Trainer);
        assert!(iono.has_written_number("185") && iono.has_written_number("PAL185"));
        assert!(!iono.has_written_number("PAL999") && !iono.has_written_number("SVI185"));
        let mewtwo = Printing::new("SWSHP", "SWSH161", Category::Pokemon);
        assert!(mewtwo.has_written_number("SWSH161"));
    }

    #[test]
    fn numbers_lose_padding_and_case() {
        assert_eq!(number_key("003"), "3");
        assert_eq!(number_key("185/193"), "185");
        assert_eq!(number_key("TG05/TG30"), "TG5");
        assert_eq!(number_key("059/198 "), "59");
        assert_eq!(number_key("TG05"), "TG5");
        assert_eq!(number_key("xy150a"), "XY150A");
        assert_eq!(number_key("SWSH230"), "SWSH230");
        assert_eq!(number_key("0"), "0");
        assert_eq!(number_key("GG59"), "GG59");
    }

    #[test]
    fn subsets_move_from_code_to_number() {
        let expected = ("CRZ".to_string(), "GG59".to_string());
        assert_eq!(split_subset("CRZ-GG", "59"), expected);
        assert_eq!(split_subset("CRZ", "GG59"), expected);
        assert_eq!(split_subset("crz-gg", "GG59"), expected);
        assert_eq!(
            split_subset("PR-SV", "014"),
            ("SVP".to_string(), "14".to_string())
        );
        assert_eq!(
            split_subset("BRS", "TG05"),
            ("BRS".to_string(), "TG5".to_string())
        );
    }

    #[test]
    fn promo_aliases() {
        assert_eq!(set_key("PR-SV"), "SVP");
        assert_eq!(set_key("svp"), "SVP");
        assert_eq!(set_key("PR-SW"), "SWSHP");
        // Promo numbers written without their letters.
        assert_eq!(
            split_subset("PR-BLW", "100"),
            ("BWP".to_string(), "BW100".to_string())
        );
        assert_eq!(
            split_subset("PR-SW", "018"),
            ("SWSHP".to_string(), "SWSH18".to_string())
        );
        assert_eq!(
            split_subset("SVP", "85"),
            ("SVP".to_string(), "85".to_string())
        );
        assert_eq!(set_key("TWM"), "TWM");
        // ptcg-story's records: `"set": "PR-EX", "number": "17"` (Torchic, Nintendo Black
        // Star Promos 017) and `"set": "PR-DP", "number": "DP41"` (Toxicroak G).
        assert_eq!(set_key("PR-EX"), "PR-NP");
        assert_eq!(
            split_subset("PR-DP", "41"),
            ("PR-DPP".to_string(), "DP41".to_string())
        );
        assert_eq!(
            split_subset("pr-dp", "DP41"),
            ("PR-DPP".to_string(), "DP41".to_string())
        );
    }
}
