//! Repairs of TCGdex's known defects, applied to every TCGdex load (the embedded index and a
//! user's `--cards` clone alike), each a named rule with a test. docs/card-index.md lists
//! them with examples; `cargo xtask cards` prints how many printings each one changed.
//!
//! Rules that need the whole database (a stage derived from the Pokémon it evolves from)
//! run after every card is read. Flags the dataset lacks altogether (Black & White ACE
//! SPECs) are not guessed here: they come from the hand-checked files under `cards/`
//! ([`crate::cards::sources::curated`]). This module must not know about deck lists or formats.

use std::collections::HashMap;

use crate::cards::model::{Category, EnergyKind, Printing, Stage, Tag};
use crate::names;
use crate::names::lang::Language;

/// One repair rule and how many printings it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub rule: &'static str,
    pub printings: usize,
}

/// A repair: changes what it must and says how many printings it changed.
type Rule = fn(&mut [Printing]) -> usize;

/// Where a Pokémon of some name was printed, and its stage there.
type Printed = (String, String, Stage);

/// Applies every rule, in order, and says what each changed.
pub fn repair(printings: &mut [Printing]) -> Vec<Repaired> {
    let rules: [(&'static str, Rule); 11] = [
        ("regulation-mark", regulation_marks),
        ("extra-name-words", extra_name_words),
        ("unown-letter", unown_letters),
        ("unown-letter-missing", unown_letters_missing),
        ("blank-in-name", blanks_in_names),
        ("localized-name-drops-mark", localized_names_without_mark),
        ("english-name-missing", english_names_missing),
        ("baby-called-basic", babies_called_basic),
        ("stage-from-mechanic", stage_from_mechanic),
        ("stage-from-evolution", stage_from_evolution),
        ("special-energy-marked-basic", special_energy_marked_basic),
    ];
    rules
        .into_iter()
        .map(|(rule, apply)| Repaired {
            rule,
            printings: apply(printings),
        })
        .collect()
}

/// Printings without rules text, by kind of card: how many TCGdex leaves without it and
/// how many [`rules_text_from`] repaired. A printing without text has no effect
/// fingerprint, and the reprint rule cannot compare it (Switch SLG 67).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextGap {
    /// `Pokémon`, `Trainer` or `special Energy` (basic Energy print no rules text).
    pub kind: &'static str,
    /// Printings of that kind without rules text in TCGdex.
    pub missing: usize,
    /// Of those, how many got the fingerprint of the same printing in the other source.
    pub repaired: usize,
}

/// The kinds [`TextGap`] counts, in the order they are reported.
const TEXT_KINDS: [&str; 3] = ["Pokémon", "Trainer", "special Energy"];

fn text_kind(printing: &Printing) -> Option<usize> {
    match printing.category {
        Category::Pokemon => Some(0),
        Category::Trainer => Some(1),
        Category::Energy if !printing.is_basic_energy() => Some(2),
        Category::Energy => None,
    }
}

/// Where a printing of `other` stands for the same printing of TCGdex: its set code,
/// number, name (lookup key) and kind of card.
type SamePrinting = (String, String, String, Category);

fn same_printing(printing: &Printing) -> SamePrinting {
    (
        printing.set_code.clone(),
        printing.number.clone(),
        printing.rules_key().to_string(),
        printing.category,
    )
}

/// Gives each printing without rules text the effect fingerprint of the same printing
/// (set code, number, name and kind of card) in `other`, pokemon-tcg-data loaded by
/// [`crate::cards::sources::from_pokemontcg`]: the fingerprint only, never the text. Two printings
/// of `other` that match one printing but disagree on the fingerprint repair nothing. Only
/// `cargo xtask cards` runs it ([`crate::cards::storage::committed_index::generate`]); the result does not
/// depend on the order of `other`.
pub fn rules_text_from(printings: &mut [Printing], other: &[Printing]) -> Vec<TextGap> {
    let mut known: HashMap<SamePrinting, Option<(u64, bool)>> = HashMap::new();
    for printing in other {
        let Some(effect) = printing.effect else {
            continue;
        };
        let fact = Some((effect, printing.any_number));
        known
            .entry(same_printing(printing))
            .and_modify(|kept| {
                if *kept != fact {
                    *kept = None;
                }
            })
            .or_insert(fact);
    }
    let mut gaps: Vec<TextGap> = TEXT_KINDS
        .iter()
        .map(|&kind| TextGap {
            kind,
            missing: 0,
            repaired: 0,
        })
        .collect();
    for printing in printings.iter_mut().filter(|p| p.effect.is_none()) {
        let Some(gap) = text_kind(printing).and_then(|kind| gaps.get_mut(kind)) else {
            continue;
        };
        gap.missing += 1;
        if let Some(Some((effect, any_number))) = known.get(&same_printing(printing)) {
            printing.effect = Some(*effect);
            printing.any_number |= *any_number;
            gap.repaired += 1;
        }
    }
    gaps
}

/// What a Pokémon printing says in English apart from its Weakness: HP, retreat,
/// resistances, abilities and attacks.
type PrintedBut<'a> = (
    Option<u16>,
    Option<u8>,
    &'a [crate::cards::model::details::TypeModifier],
    Vec<(&'a str, Option<&'a str>, Option<&'a str>)>,
    Vec<(Option<&'a str>, &'a [String], &'a str, Option<&'a str>)>,
);

fn printed_but_weakness(details: &crate::cards::model::details::Details) -> PrintedBut<'_> {
    let en = Language::En;
    (
        details.hp,
        details.retreat,
        &details.resistances,
        (details.abilities.iter())
            .map(|a| (a.kind.as_str(), a.name.get(en), a.text.get(en)))
            .collect(),
        (details.attacks.iter())
            .map(|a| {
                (
                    a.name.get(en),
                    a.cost.as_slice(),
                    a.damage.as_str(),
                    a.text.get(en),
                )
            })
            .collect(),
    )
}

/// A Pokémon record without the Weakness its card prints: TCGdex leaves `weaknesses` out of
/// Lillie's Clefairy ex SVP 195, a promo that is otherwise (HP, retreat, Ability, attack) the
/// card Lillie's Clefairy ex JTG 56 and ASC 76 are, with their Metal ×2. Without it the
/// promo's rules text differs from its reprints' and the reprint rule keeps them apart. When
/// every other printing of the name that prints the same in English, apart from the
/// Weakness, has one and the same Weakness and rules text, the record takes that Weakness and
/// their effect fingerprint. Returns how many printings it changed.
pub fn weakness_missing(
    printings: &mut [Printing],
    details: &mut [crate::cards::model::details::Details],
) -> usize {
    let mut found: Vec<(usize, Vec<crate::cards::model::details::TypeModifier>, u64)> = Vec::new();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, printing) in printings.iter().enumerate() {
        if printing.category == Category::Pokemon {
            by_name.entry(printing.rules_key()).or_default().push(index);
        }
    }
    for indices in by_name.values() {
        for &index in indices {
            let Some(mine) = details.get(index) else {
                continue;
            };
            if !mine.weaknesses.is_empty() || mine.hp.is_none() {
                continue;
            }
            let printed = printed_but_weakness(mine);
            let twins: Vec<(&[crate::cards::model::details::TypeModifier], Option<u64>)> = indices
                .iter()
                .filter(|&&other| other != index)
                .filter_map(|&other| Some((details.get(other)?, printings.get(other)?)))
                .filter(|(theirs, _)| printed_but_weakness(theirs) == printed)
                .map(|(theirs, printing)| (theirs.weaknesses.as_slice(), printing.effect))
                .collect();
            let Some(&(weaknesses, Some(effect))) = twins.first() else {
                continue;
            };
            if !weaknesses.is_empty()
                && twins.iter().all(|twin| *twin == (weaknesses, Some(effect)))
            {
                found.push((index, weaknesses.to_vec(), effect));
            }
        }
    }
    for (index, weaknesses, effect) in &found {
        if let (Some(printing), Some(mine)) = (printings.get_mut(*index), details.get_mut(*index)) {
            printing.effect = Some(*effect);
            mine.weaknesses = weaknesses.clone();
        }
    }
    found.len()
}

/// The Baby Pokémon of the Neo era (Neo Genesis to Neo Destiny, 2000–2002), their Wizards
/// Black Star promos and Celebrations' Classic Collection reprint of Neo Genesis Cleffa
/// print the Baby Pokémon rule; TCGdex files them as Basic. pokemon-tcg-data gives each the
/// subtype `Baby` (`cards/en/neo1.json`: Pichu 12, Cleffa 20, Elekid 22, Magby 23;
/// `neo2.json`: Igglybuff 40, Tyrogue 66; `neo3.json`: Smoochum 54; `basep.json`: Cleffa 31,
/// Pichu 35, Igglybuff 36; `cel25c.json`: Cleffa 20), and these seven species are the
/// era's Babies. The e-Card Babies are already `Baby` in TCGdex; the later Pichu, Cleffa ...
/// are Basic Pokémon (EX Sandstorm's Pichu SS 20 is Basic in both sources).
const NEO_BABIES: [&str; 7] = [
    "Pichu",
    "Cleffa",
    "Igglybuff",
    "Smoochum",
    "Tyrogue",
    "Elekid",
    "Magby",
];

fn babies_called_basic(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings.iter_mut() {
        let era = printing.series == "neo"
            || printing.set_id == "basep"
            || (printing.set_id == "cel25cc" && printing.number == "CC9");
        if era
            && printing.category == Category::Pokemon
            && printing.stage == Some(Stage::Basic)
            && NEO_BABIES.contains(&printing.names.primary())
        {
            printing.stage = Some(Stage::Baby);
            changed += 1;
        }
    }
    changed
}

/// TCGdex gives the newest special Energy cards `energyType: "Normal"`, the basic Energy's
/// value (Reversal Energy PAR 266, Prism Energy BLK 86, Team Rocket's Energy ASC 217, the
/// typed Energy of Perfect Order and later: Growing Grass Energy POR 86...). Read as basic,
/// they would be exempt from the copy limit and always legal. A basic Energy is named after
/// its type and nothing else; any other name is a special Energy's.
fn special_energy_marked_basic(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings.iter_mut() {
        if printing.is_basic_energy() && !names::is_basic_energy_name(printing.names.primary()) {
            printing.energy = Some(EnergyKind::Special);
            changed += 1;
        }
    }
    changed
}

/// Regulation marks TCGdex prints wrong or leaves out, by set id and local number (normalized), with the
/// mark printed on the card. Each disagrees with pokemon-tcg-data, which gives the mark of
/// the set the card was printed in (Temporal Forces, Twilight Masquerade and Surging Sparks
/// are H sets; Brilliant Stars and Crown Zenith are F sets); TCGdex gives the mark of an
/// earlier printing. A wrong G on these cards made them illegal in Standard.
const MARK_CORRECTIONS: &[(&str, &str, char)] = &[
    ("sv05", "22", 'H'),      // Scovillain ex, TEF 22
    ("sv05", "140", 'H'),     // Ancient Booster Energy Capsule, TEF 140
    ("sv05", "149", 'H'),     // Future Booster Energy Capsule, TEF 149
    ("sv06", "161", 'H'),     // Raifort, TWM 161
    ("sv06", "226", 'H'),     // Luminous Energy, TWM 226
    ("sv08", "252", 'H'),     // Jet Energy, SSP 252
    ("swsh9", "132", 'F'),    // Boss's Orders, BRS 132
    ("swsh12.5", "150", 'F'), // Professor's Research, CRZ 150
    // Marks TCGdex leaves out on Sword & Shield reprints of Trainers (pokemon-tcg-data gives
    // each; without them the printings were not legal in any regulation-mark season).
    ("swsh7", "143", 'E'),     // Copycat, EVS 143
    ("swsh7", "200", 'E'),     // Copycat, EVS 200
    ("swsh7", "222", 'E'),     // Copycat, EVS 222
    ("swsh8", "226", 'E'),     // Bug Catcher, FST 226
    ("swsh8", "235", 'E'),     // Judge, FST 235
    ("swsh8", "240", 'E'),     // Shauna, FST 240
    ("swsh8", "263", 'E'),     // Shauna, FST 263
    ("swsh8", "278", 'E'),     // Shauna, FST 278
    ("swsh9", "139", 'F'),     // Fresh Water Set, BRS 139
    ("swsh9", "150", 'F'),     // Ultra Ball, BRS 150
    ("swsh9", "186", 'F'),     // Ultra Ball, BRS 186
    ("swsh10", "139", 'F'),    // Dark Patch, ASR 139
    ("swsh10", "140", 'F'),    // Energy Loto, ASR 140
    ("swsh10", "157", 'F'),    // Unidentified Fossil, ASR 157
    ("swsh10.5", "69", 'F'),   // Rare Candy, PGO 69
    ("swsh11", "159", 'F'),    // Lady, LOR 159
    ("swsh11", "193", 'F'),    // Lady, LOR 193
    ("swsh11", "208", 'F'),    // Lady, LOR 208
    ("swsh11", "216", 'F'),    // Dark Patch, LOR 216
    ("swsh12", "165", 'F'),    // Unidentified Fossil, SIT 165
    ("swsh12", "212", 'F'),    // Energy Switch, SIT 212
    ("swsh12tg", "TG25", 'E'), // Judge, SIT TG25
    ("swsh12.5", "125", 'F'),  // Crushing Hammer, CRZ 125
    ("swsh12.5", "127", 'F'),  // Energy Retrieval, CRZ 127
    ("swsh12.5", "128", 'F'),  // Energy Search, CRZ 128
    ("swsh12.5", "129", 'F'),  // Energy Switch, CRZ 129
    ("swsh12.5", "132", 'F'),  // Great Ball, CRZ 132
    ("swsh12.5", "137", 'F'),  // Poké Ball, CRZ 137
    ("swsh12.5", "138", 'F'),  // Pokémon Catcher, CRZ 138
    ("swsh12.5", "139", 'F'),  // Potion, CRZ 139
    ("swsh12.5", "141", 'F'),  // Rare Candy, CRZ 141
    ("swsh12.5", "144", 'F'),  // Switch, CRZ 144
    ("swsh12.5", "146", 'F'),  // Ultra Ball, CRZ 146
];

/// Corrects the marks in [`MARK_CORRECTIONS`].
fn regulation_marks(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings.iter_mut() {
        let correction = MARK_CORRECTIONS
            .iter()
            .find(|(set, number, _)| *set == printing.set_id && *number == printing.number);
        if let Some((_, _, mark)) = correction
            && printing.regulation_mark != Some(*mark)
        {
            printing.regulation_mark = Some(*mark);
            changed += 1;
        }
    }
    changed
}

/// Words TCGdex appends to the printed name of Phantom Forces' Team Flare Gear and Hyper
/// Gear Items (`Battle Compressor Team Flare Gear`, `Head Ringer Team Flare Hyper Gear`):
/// the card is named `Battle Compressor`, and deck lists write it so. One suffix per
/// language and label, as TCGdex writes it.
const TEAM_FLARE_GEAR: [(Language, &str); 12] = [
    (Language::En, " Team Flare Gear"),
    (Language::Fr, " Matos Team Flare"),
    (Language::Es, " Equipo del Team Flare"),
    (Language::Pt, " – Equipamento da Equipe Flare"),
    (Language::De, " Team Flare-Zubehör"),
    (Language::It, " [Dotazione del Team Flare]"),
    // Head Ringer and Jamming Net, Team Flare Hyper Gear.
    (Language::En, " Team Flare Hyper Gear"),
    (Language::Fr, " Hypermatos Team Flare"),
    (Language::Es, " Hiperequipo del Team Flare"),
    (Language::Pt, " – Hiperequipamento da Equipe Flare"),
    (Language::De, " Team Flare-Superzubehör"),
    (Language::It, " [Dotazione Extra del Team Flare]"),
];

/// Extra words in a Trainer's name: the Team Flare Gear label, and a parenthesized kind
/// (`Thought Wave Machine (Rocket's Secret Machine)`). The pictured person of
/// `Boss's Orders (Giovanni)` stays: the name rules already set it aside
/// ([`names::canonical`]), and it tells printings apart.
fn extra_name_words(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings
        .iter_mut()
        .filter(|p| p.category == Category::Trainer)
    {
        let mut any = false;
        for (language, suffix) in TEAM_FLARE_GEAR {
            if let Some(name) = printing.names.get(language)
                && let Some(bare) = name.strip_suffix(suffix)
            {
                let bare = bare.trim_end().to_string();
                printing.names.set(language, bare);
                any = true;
            }
        }
        if let Some(bare) = printing
            .names
            .get(Language::En)
            .and_then(|name| name.strip_suffix(" (Rocket's Secret Machine)"))
        {
            let bare = bare.to_string();
            printing.names.set(Language::En, bare);
            any = true;
        }
        if any {
            changed += 1;
        }
    }
    changed
}

/// TCGdex writes Unown's letter two ways, `Unown [E]` (Legends Awakened, Undaunted) and
/// `Unown E` (Mysterious Treasures, Secret Wonders): one card name, so one spelling, the
/// bare letter, in every language (`Zarbi [E]` too).
fn unown_letters(printings: &mut [Printing]) -> usize {
    rename(
        printings
            .iter_mut()
            .filter(|p| p.category == Category::Pokemon),
        |name| {
            let (species, rest) = name.rsplit_once(" [")?;
            let letter = rest.strip_suffix(']')?;
            (letter.chars().count() == 1).then(|| format!("{species} {letter}"))
        },
    )
}

/// TCGdex leaves the letter out of some translated Unown names (French `Zarbi` for Unown I
/// MT 37 and Unown E MT 65, where the English name is `Unown I`): the letter is part of
/// these cards' names (tests/suite/printed_names.rs), so a translation that is the bare
/// species gets the English name's letter.
fn unown_letters_missing(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings
        .iter_mut()
        .filter(|p| p.category == Category::Pokemon)
    {
        let Some(letter) = printing
            .names
            .get(Language::En)
            .and_then(|name| name.strip_prefix("Unown "))
            .filter(|letter| letter.chars().count() == 1)
            .map(str::to_string)
        else {
            continue;
        };
        let bare: Vec<(Language, String)> = printing
            .names
            .iter()
            .filter(|(_, name)| !name.trim().contains(' '))
            .map(|(language, name)| (language, format!("{} {letter}", name.trim())))
            .collect();
        for (language, name) in &bare {
            printing.names.set(*language, name.clone());
        }
        if !bare.is_empty() {
            changed += 1;
        }
    }
    changed
}

/// Printings TCGdex names in one language only, not English: the French McDonald's
/// collections of 2013, 2018 and 2019 (`2019sm-fr`: `Fantominus`). The rules compare names
/// in English, so each gets the English name of the other printings that carry the same
/// name in that language (apostrophes and case aside), when they all agree on the card (French `Fantominus` is always
/// Gastly). A name whose printings disagree, or that no other printing carries, stays as
/// it is.
fn english_names_missing(printings: &mut [Printing]) -> usize {
    let mut english: HashMap<(Language, String, Category), Option<String>> = HashMap::new();
    for printing in printings.iter() {
        let Some(en) = printing.names.get(Language::En) else {
            continue;
        };
        for (language, name) in printing.names.iter() {
            if language == Language::En {
                continue;
            }
            let slot = english
                .entry((language, names::lookup_key(name), printing.category))
                .or_insert_with(|| Some(en.to_string()));
            // Two English names for one translation: only a spelling apart is one card.
            if slot
                .as_deref()
                .is_some_and(|kept| kept != en && names::lookup_key(kept) != names::lookup_key(en))
            {
                *slot = None;
            }
        }
    }
    let mut changed = 0;
    for printing in printings.iter_mut() {
        if printing.names.get(Language::En).is_some() {
            continue;
        }
        let found = printing.names.iter().find_map(|(language, name)| {
            english
                .get(&(language, names::lookup_key(name), printing.category))
                .cloned()
                .flatten()
        });
        if let Some(en) = found {
            printing.names.set(Language::En, en);
            changed += 1;
        }
    }
    changed
}

/// The blank of `_____'s Pikachu` (the birthday promo, where the owner writes a name) is
/// printed with as many underscores as TCGdex pleases: 11 on the 1999 promo, 5 on its
/// Celebrations reprint, 8 in French. One card, one name: every run of three or more
/// underscores is written as five.
fn blanks_in_names(printings: &mut [Printing]) -> usize {
    rename(printings.iter_mut(), |name| {
        let mut out = String::with_capacity(name.len());
        let mut run = 0;
        for c in name.chars().chain(std::iter::once('\0')) {
            if c == '_' {
                run += 1;
                continue;
            }
            let blank = if run >= 3 { 5 } else { run };
            out.extend(std::iter::repeat_n('_', blank));
            run = 0;
            if c != '\0' {
                out.push(c);
            }
        }
        (out != name).then_some(out)
    })
}

/// Applies `renamed` to every name of every printing (in every language), keeping the new
/// name where it gives one; returns how many printings changed.
fn rename<'a>(
    printings: impl Iterator<Item = &'a mut Printing>,
    renamed: impl Fn(&str) -> Option<String>,
) -> usize {
    let mut changed = 0;
    for printing in printings {
        let mut any = false;
        for language in Language::ALL {
            if let Some(new) = printing.names.get(language).and_then(&renamed) {
                printing.names.set(language, new);
                any = true;
            }
        }
        if any {
            changed += 1;
        }
    }
    changed
}

/// The marks that make a Pokémon another card than the plain one, as the last word of its
/// English name, with the spellings a translation may use instead: the Platinum-era
/// special Pokémon (`Carnivine G`, `Bastiodon GL`, `Bronzong E4`, `Infernape FB`,
/// `Rayquaza C`) and EX/GX. A localized name without the mark names the plain Pokémon
/// (TCGdex's French `Vortente` for Carnivine G, `Bastiodon  Niv. 41` for Bastiodon GL, the
/// Italian `Zygarde-GX` for Zygarde EX).
const MARKS: &[(&str, &[&str])] = &[
    ("G", &["G"]),
    ("GL", &["GL"]),
    ("E4", &["E4", "4"]),
    ("FB", &["FB"]),
    ("C", &["C"]),
    ("EX", &["EX"]),
    ("GX", &["GX"]),
];

/// Drops a localized name that lacks the mark of the English name (see [`MARKS`]): better
/// no French name than one that identifies another card. Unown, whose letter is its form,
/// is left alone.
fn localized_names_without_mark(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings
        .iter_mut()
        .filter(|p| p.category == Category::Pokemon)
    {
        let Some(english) = printing.names.get(Language::En) else {
            continue;
        };
        if english.starts_with("Unown") {
            continue;
        }
        let last = english.rsplit([' ', '-']).next().unwrap_or("");
        let Some((_, spellings)) = MARKS.iter().find(|(mark, _)| *mark == last) else {
            continue;
        };
        // EX and GX may be glued to the word before (`Kyogre PrimitivoEX`); the other marks
        // are words of their own (`Bronzong 4`, not `Niv. 54`).
        let glued = matches!(last, "EX" | "GX");
        let carries = |name: &str| {
            name.split([' ', '-', '[', ']']).any(|word| {
                spellings
                    .iter()
                    .any(|mark| word == *mark || (glued && word.ends_with(mark)))
            })
        };
        let dropped: Vec<Language> = printing
            .names
            .iter()
            .filter(|(language, name)| *language != Language::En && !carries(name))
            .map(|(language, _)| language)
            .collect();
        for language in &dropped {
            printing.names.remove(*language);
        }
        if !dropped.is_empty() {
            changed += 1;
        }
    }
    changed
}

/// A Pokémon without a stage whose mechanic is a stage of its own: V-UNION, VMAX, VSTAR,
/// BREAK, LV.X, and the XY Mega Evolutions (`M Rayquaza-EX`).
fn stage_from_mechanic(printings: &mut [Printing]) -> usize {
    let mut changed = 0;
    for printing in printings.iter_mut().filter(|p| needs_stage(p)) {
        let tags = printing.tags;
        let stage = [
            (Tag::VUnion, Stage::VUnion),
            (Tag::Vmax, Stage::Vmax),
            (Tag::Vstar, Stage::Vstar),
            (Tag::Break, Stage::Break),
            (Tag::LvX, Stage::LevelUp),
        ]
        .into_iter()
        .find(|(tag, _)| tags.contains(*tag))
        .map(|(_, stage)| stage)
        .or_else(|| {
            let english = printing.names.get(Language::En).unwrap_or("");
            (english.starts_with("M ") && tags.contains(Tag::UpperEx)).then_some(Stage::Mega)
        });
        if let Some(stage) = stage {
            printing.stage = Some(stage);
            changed += 1;
        }
    }
    changed
}

fn needs_stage(printing: &Printing) -> bool {
    printing.category == Category::Pokemon && printing.stage.is_none()
}

/// The other Pokémon without a stage (about 800 printings, mostly Basic EX, GX and TAG TEAM
/// cards, but some GX and ex evolve), and the `ex`/GX cards wrongly called Basic
/// ([`mislabelled_basic`]). Derived, not assumed:
/// - a Pokémon that evolves from another is one stage above it: from a Basic (or a Fossil
///   Trainer) it is Stage 1, from a Stage 1 it is Stage 2. The parent's stage is taken from
///   its printings in the same set, else the same series, else any; a parent without a stage
///   yet is settled first.
/// - a Pokémon that evolves from nothing takes the stage its other printings of the same
///   name have (most common first), else Basic.
fn stage_from_evolution(printings: &mut [Printing]) -> usize {
    let key = |name: &str| names::lookup_key(name);
    let mut changed = 0;
    // Up to the longest evolution line: each round settles the Pokémon whose parent is known.
    for _ in 0..3 {
        let known = known_stages(printings);
        let mut round = 0;
        for index in 0..printings.len() {
            let Some(printing) = printings
                .get(index)
                .filter(|p| needs_stage(p) || mislabelled_basic(p))
            else {
                continue;
            };
            let stage = match &printing.evolves_from {
                Some(parent) => {
                    let found = known.lookup(&key(parent), &printing.set_id, &printing.series);
                    match found {
                        Some(Stage::Basic | Stage::Baby | Stage::Restored) => Some(Stage::Stage1),
                        Some(Stage::Stage1) => Some(Stage::Stage2),
                        Some(_) => None,
                        // A Fossil is a Trainer: what evolves from it is a Stage 1 (Omanyte
                        // from Helix Fossil before Restored Pokémon existed).
                        None if known.is_trainer(&key(parent)) => Some(Stage::Stage1),
                        None => None,
                    }
                }
                None => Some(
                    known
                        .lookup(printing.rules_key(), &printing.set_id, "")
                        .or_else(|| {
                            let species = evolving_species(printing)?;
                            known.lookup(&key(species), &printing.set_id, &printing.series)
                        })
                        .unwrap_or(Stage::Basic),
                ),
            };
            if let (Some(stage), Some(printing)) = (stage, printings.get_mut(index)) {
                printing.stage = Some(stage);
                round += 1;
            }
        }
        changed += round;
        if round == 0 {
            break;
        }
    }
    changed
}

/// An `ex` or GX Pokémon that TCGdex calls Basic but that evolves from another Pokémon
/// (Dragon's `Ampharos ex`, from Flaaffy). Plain Pokémon are left alone: vintage cards name
/// a Baby Pokémon they may evolve from (`Pikachu` from Pichu) and are Basic all the same.
fn mislabelled_basic(printing: &Printing) -> bool {
    printing.category == Category::Pokemon
        && printing.stage == Some(Stage::Basic)
        && printing.evolves_from.is_some()
        && (printing.tags.contains(Tag::LowerEx) || printing.tags.contains(Tag::Gx))
}

/// For a GX or `ex` Pokémon (mechanics that may evolve), the species it is a form of:
/// `Blastoise GX` is a Blastoise, a Stage 2 like every Blastoise. EX, V and TAG TEAM cards
/// are always Basic, whatever their species.
fn evolving_species(printing: &Printing) -> Option<&str> {
    let may_evolve = printing.tags.contains(Tag::Gx) || printing.tags.contains(Tag::LowerEx);
    if !may_evolve || printing.tags.contains(Tag::TagTeam) {
        return None;
    }
    let english = printing.names.get(Language::En)?;
    english.rsplit_once([' ', '-']).map(|(species, _)| species)
}

/// The stages printings of each name have, by name key, with where they were printed.
struct KnownStages {
    by_name: HashMap<String, Vec<Printed>>,
    trainers: std::collections::HashSet<String>,
}

fn known_stages(printings: &[Printing]) -> KnownStages {
    let mut by_name: HashMap<String, Vec<Printed>> = HashMap::new();
    let mut trainers = std::collections::HashSet::new();
    for printing in printings {
        match (printing.category, printing.stage) {
            (Category::Pokemon, Some(stage)) => by_name
                .entry(printing.rules_key().to_string())
                .or_default()
                .push((printing.set_id.clone(), printing.series.clone(), stage)),
            (Category::Trainer, _) => {
                trainers.insert(printing.rules_key().to_string());
            }
            _ => {}
        }
    }
    KnownStages { by_name, trainers }
}

impl KnownStages {
    /// The stage of `name`'s printings in `set_id`, else in `series`, else anywhere; the
    /// most common one at the first level that has any (ties: the lower stage).
    fn lookup(&self, name: &str, set_id: &str, series: &str) -> Option<Stage> {
        let printed = self.by_name.get(name)?;
        let levels: [&dyn Fn(&Printed) -> bool; 3] = [
            &|(set, _, _)| set == set_id,
            &|(_, serie, _)| !series.is_empty() && serie == series,
            &|_| true,
        ];
        levels.iter().find_map(|matches| {
            let mut counts: Vec<(Stage, usize)> = Vec::new();
            for (_, _, stage) in printed.iter().filter(|entry| matches(entry)) {
                match counts.iter_mut().find(|(known, _)| known == stage) {
                    Some((_, count)) => *count += 1,
                    None => counts.push((*stage, 1)),
                }
            }
            counts
                .into_iter()
                .max_by_key(|(stage, count)| (*count, std::cmp::Reverse(stage_rank(*stage))))
                .map(|(stage, _)| stage)
        })
    }

    fn is_trainer(&self, name: &str) -> bool {
        self.trainers.contains(name)
    }
}

fn stage_rank(stage: Stage) -> u8 {
    match stage {
        Stage::Baby => 0,
        Stage::Basic => 1,
        Stage::Stage1 => 2,
        Stage::Stage2 => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::model::Tags;

    fn pokemon(set: &str, number: &str, name: &str, stage: Option<Stage>) -> Printing {
        let mut p = Printing::new(set, number, Category::Pokemon);
        p.set_id = set.to_lowercase();
        p.series = "xy".into();
        p.names.set(Language::En, name);
        p.stage = stage;
        p.tags = Tags::of_pokemon(name, stage);
        p
    }

    #[test]
    fn missing_rules_text_takes_the_other_sources_fingerprint() {
        let trainer = |set: &str, number: &str, name: &str, text: &str| {
            let mut p = Printing::new(set, number, Category::Trainer);
            p.names.set(Language::En, name);
            p.set_rules_text(text);
            p
        };
        let mut printings = vec![
            trainer("SLG", "67", "Switch", ""),
            trainer("TK4G", "28", "Switch", ""),
            trainer("CIN", "120", "Counter Catcher", ""),
            trainer("SUM", "1", "Potion", ""),
        ];
        let text = "Switch your Active Pokémon with 1 of your Benched Pokémon.";
        let other = vec![
            trainer("SLG", "67", "Switch", text),
            // Another name on the same code and number repairs nothing.
            trainer("TK4G", "28", "Poké Ball", "Flip a coin."),
            // Two printings that disagree repair nothing.
            trainer("CIN", "120", "Counter Catcher", "a"),
            trainer("CIN", "120", "Counter Catcher", "b"),
            trainer("SUM", "1", "Potion", ""),
        ];
        let gaps = rules_text_from(&mut printings, &other);
        assert_eq!(
            printings[0].effect,
            trainer("MEG", "130", "Switch", text).effect
        );
        assert!(printings[1..].iter().all(|p| p.effect.is_none()));
        let counts: Vec<(&str, usize, usize)> = gaps
            .iter()
            .map(|g| (g.kind, g.missing, g.repaired))
            .collect();
        assert_eq!(
            counts,
            [
                ("Pokémon", 0, 0),
                ("Trainer", 4, 1),
                ("special Energy", 0, 0)
            ]
        );
        // The order of the other source does not change the result.
        let mut again = printings.clone();
        again[0].effect = None;
        let mut reversed = other.clone();
        reversed.reverse();
        rules_text_from(&mut again, &reversed);
        assert_eq!(again, printings);
    }

    #[test]
    fn stages_are_derived_from_evolutions_and_names() {
        let mut printings = vec![
            pokemon("NXD", "54", "Mewtwo-EX", None),
            pokemon("XY", "1", "Charmander", Some(Stage::Basic)),
            pokemon("XY", "2", "Charmeleon", Some(Stage::Stage1)),
            pokemon("XY", "3", "Charizard-GX", None),
            pokemon("ROS", "1", "Venusaur & Snivy-GX", None),
            pokemon("XY", "4", "Eevee", None),
            pokemon("XY", "5", "Eevee", Some(Stage::Basic)),
            pokemon("ROS", "2", "M Rayquaza-EX", None),
            pokemon("SSP", "1", "Pikachu VMAX", None),
            pokemon("XY", "6", "Omanyte", None),
            pokemon("XY", "7", "Omastar", None),
            pokemon("SMP", "SM189", "Blastoise GX", None),
            pokemon("XY", "9", "Blastoise", Some(Stage::Stage2)),
        ];
        printings[3].evolves_from = Some("Charmeleon".into());
        printings[9].evolves_from = Some("Helix Fossil".into());
        printings[10].evolves_from = Some("Omanyte".into());
        let mut fossil = Printing::new("XY", "8", Category::Trainer);
        fossil.names.set(Language::En, "Helix Fossil");
        printings.push(fossil);
        let report = repair(&mut printings);
        let stages: Vec<Option<Stage>> = printings.iter().map(|p| p.stage).collect();
        assert_eq!(
            stages,
            [
                Some(Stage::Basic),
                Some(Stage::Basic),
                Some(Stage::Stage1),
                Some(Stage::Stage2),
                Some(Stage::Basic),
                Some(Stage::Basic),
                Some(Stage::Basic),
                Some(Stage::Mega),
                Some(Stage::Vmax),
                Some(Stage::Stage1),
                Some(Stage::Stage2),
                Some(Stage::Stage2),
                Some(Stage::Stage2),
                None,
            ]
        );
        let by_rule = |rule: &str| report.iter().find(|r| r.rule == rule).unwrap().printings;
        assert_eq!(by_rule("stage-from-mechanic"), 2);
        assert_eq!(by_rule("stage-from-evolution"), 7);
    }

    #[test]
    fn team_flare_gear_and_machine_labels_leave_the_name() {
        let mut compressor = Printing::new("PHF", "92", Category::Trainer);
        compressor
            .names
            .set(Language::En, "Battle Compressor Team Flare Gear");
        compressor
            .names
            .set(Language::It, "Compressore Lotta [Dotazione del Team Flare]");
        compressor.names.set(
            Language::Pt,
            "Compressor de Batalha – Equipamento da Equipe Flare",
        );
        let mut machine = Printing::new("G1", "1", Category::Trainer);
        machine.names.set(
            Language::En,
            "Thought Wave Machine (Rocket's Secret Machine)",
        );
        let mut boss = Printing::new("BRS", "132", Category::Trainer);
        boss.names.set(Language::En, "Boss's Orders (Giovanni)");
        let mut printings = vec![compressor, machine, boss];
        assert_eq!(extra_name_words(&mut printings), 2);
        assert_eq!(
            printings[0].names.get(Language::En),
            Some("Battle Compressor")
        );
        assert_eq!(printings[0].rules_name(), "Battle Compressor");
        assert_eq!(
            printings[0].names.get(Language::It),
            Some("Compressore Lotta")
        );
        assert_eq!(
            printings[0].names.get(Language::Pt),
            Some("Compressor de Batalha")
        );
        assert_eq!(
            printings[1].names.get(Language::En),
            Some("Thought Wave Machine")
        );
        assert_eq!(
            printings[2].names.get(Language::En),
            Some("Boss's Orders (Giovanni)")
        );
    }

    #[test]
    fn blanks_are_five_underscores() {
        let mut promo = pokemon("PR", "24", "___________'s Pikachu", Some(Stage::Basic));
        promo.names.set(Language::Fr, "Pikachu de ________");
        let reprint = pokemon("CEL", "CC8", "_____'s Pikachu", Some(Stage::Basic));
        let mut printings = vec![promo, reprint];
        assert_eq!(blanks_in_names(&mut printings), 1);
        assert_eq!(printings[0].rules_name(), printings[1].rules_name());
        assert_eq!(
            printings[0].names.get(Language::Fr),
            Some("Pikachu de _____")
        );
    }

    #[test]
    fn a_missing_weakness_is_taken_from_the_same_cards_other_printings() {
        use crate::cards::model::details::{Details, TypeModifier};
        let metal = vec![TypeModifier {
            energy_type: "Metal".into(),
            value: "×2".into(),
        }];
        let card = |number: &str, weaknesses: &[TypeModifier], effect: u64| {
            let mut p = pokemon("JTG", number, "Lillie's Clefairy ex", Some(Stage::Basic));
            p.effect = Some(effect);
            let details = Details {
                hp: Some(190),
                retreat: Some(1),
                weaknesses: weaknesses.to_vec(),
                ..Details::default()
            };
            (p, details)
        };
        let (mut printings, mut details): (Vec<_>, Vec<_>) = [
            card("56", &metal, 1),
            card("195", &[], 2),
            card("76", &metal, 1),
        ]
        .into_iter()
        .unzip();
        // Another HP: another card, left alone.
        details.push(Details {
            hp: Some(70),
            ..Details::default()
        });
        printings.push(pokemon(
            "SVI",
            "1",
            "Lillie's Clefairy ex",
            Some(Stage::Basic),
        ));
        assert_eq!(weakness_missing(&mut printings, &mut details), 1);
        assert_eq!(printings[1].effect, Some(1));
        assert_eq!(details[1].weaknesses, metal);
        assert!(details[3].weaknesses.is_empty());
        // Two printings that disagree on the Weakness repair nothing.
        let (mut printings, mut details): (Vec<_>, Vec<_>) = [
            card("56", &metal, 1),
            card("195", &[], 2),
            card("76", &[], 3),
            card("77", &metal[..0], 2),
        ]
        .into_iter()
        .unzip();
        details[2].weaknesses = vec![TypeModifier {
            energy_type: "Darkness".into(),
            value: "×2".into(),
        }];
        assert_eq!(weakness_missing(&mut printings, &mut details), 0);
    }

    #[test]
    fn neo_babies_are_baby_pokemon() {
        let at = |set_id: &str, series: &str, number: &str, name: &str| {
            let mut p = pokemon("N1", number, name, Some(Stage::Basic));
            p.set_id = set_id.into();
            p.series = series.into();
            p
        };
        let mut printings = vec![
            at("neo1", "neo", "12", "Pichu"),
            at("basep", "base", "36", "Igglybuff"),
            at("cel25cc", "swsh", "CC9", "Cleffa"),
            // Not Babies: a Neo Basic of another species, EX Sandstorm's Pichu.
            at("neo1", "neo", "16", "Pikachu"),
            at("ex2", "ex", "20", "Pichu"),
        ];
        assert_eq!(babies_called_basic(&mut printings), 3);
        let stages: Vec<_> = printings.iter().map(|p| p.stage).collect();
        assert_eq!(
            stages,
            [
                Some(Stage::Baby),
                Some(Stage::Baby),
                Some(Stage::Baby),
                Some(Stage::Basic),
                Some(Stage::Basic)
            ]
        );
        assert!(printings[0].is_basic_pokemon());
    }

    #[test]
    fn special_energy_marked_basic_is_special() {
        let energy = |number: &str, name: &str| {
            let mut printing = Printing::new("POR", number, Category::Energy);
            printing.energy = Some(EnergyKind::Basic);
            printing.names.set(Language::En, name);
            printing
        };
        let mut printings = vec![
            energy("86", "Growing Grass Energy"),
            energy("1", "Grass Energy"),
            energy("2", "Basic Fire Energy"),
            energy("266", "Reversal Energy"),
        ];
        assert_eq!(special_energy_marked_basic(&mut printings), 2);
        let kinds: Vec<bool> = printings.iter().map(Printing::is_basic_energy).collect();
        assert_eq!(kinds, [false, true, true, false]);
    }

    #[test]
    fn unown_letters_lose_their_brackets() {
        let mut e = pokemon("LA", "E", "Unown [E]", Some(Stage::Basic));
        e.names.set(Language::Fr, "Zarbi [E]");
        let mut plain = pokemon("MT", "E", "Unown E", Some(Stage::Basic));
        plain.names.set(Language::De, "Icognito E");
        let mut vstar = pokemon("SIT", "1", "Unown VSTAR", Some(Stage::Vstar));
        vstar.names.set(Language::It, "Unown [VSTAR]");
        let mut printings = vec![e, plain, vstar];
        assert_eq!(unown_letters(&mut printings), 1);
        assert_eq!(printings[0].names.get(Language::En), Some("Unown E"));
        assert_eq!(printings[0].names.get(Language::Fr), Some("Zarbi E"));
        assert_eq!(printings[0].rules_name(), printings[1].rules_name());
        assert_eq!(printings[2].names.get(Language::It), Some("Unown [VSTAR]"));
    }

    #[test]
    fn a_translation_without_the_unown_letter_gets_it() {
        let mut i = pokemon("MT", "37", "Unown I", Some(Stage::Basic));
        i.names.set(Language::Fr, "Zarbi");
        i.names.set(Language::De, "Icognito I");
        let mut uf = pokemon("UF", "I", "Unown", Some(Stage::Basic));
        uf.names.set(Language::Fr, "Zarbi");
        let mut printings = vec![i, uf];
        assert_eq!(unown_letters_missing(&mut printings), 1);
        assert_eq!(printings[0].names.get(Language::Fr), Some("Zarbi I"));
        assert_eq!(printings[0].names.get(Language::De), Some("Icognito I"));
        // Unseen Forces' Unown are named `Unown`: nothing to add.
        assert_eq!(printings[1].names.get(Language::Fr), Some("Zarbi"));
    }

    #[test]
    fn a_printing_named_in_french_only_gets_the_english_name() {
        let mut fossil = pokemon("FO", "33", "Gastly", Some(Stage::Basic));
        fossil.names.set(Language::Fr, "Fantominus");
        let mut alolan = pokemon("SM", "1", "Alolan Vulpix", Some(Stage::Basic));
        alolan.names.set(Language::Fr, "Goupix d’Alola");
        let french_only = |number: &str, name: &str| {
            let mut p = Printing::new("", number, Category::Pokemon);
            p.names.set(Language::Fr, name);
            p
        };
        // Two English names for one French name: no repair.
        let mut a = pokemon("XY", "1", "Ralts", Some(Stage::Basic));
        a.names.set(Language::Fr, "Tarsal");
        let mut b = pokemon("XY", "2", "Kirlia", Some(Stage::Stage1));
        b.names.set(Language::Fr, "Tarsal");
        let mut printings = vec![
            fossil,
            alolan,
            a,
            b,
            french_only("27", "Fantominus"),
            french_only("13", "Goupix d'Alola"),
            french_only("31", "Tarsal"),
            french_only("99", "Inconnu"),
        ];
        assert_eq!(english_names_missing(&mut printings), 2);
        assert_eq!(printings[4].names.get(Language::En), Some("Gastly"));
        assert_eq!(printings[4].rules_name(), "Gastly");
        assert_eq!(printings[5].names.get(Language::En), Some("Alolan Vulpix"));
        assert_eq!(printings[6].names.get(Language::En), None);
        assert_eq!(printings[7].names.get(Language::En), None);
    }

    #[test]
    fn localized_names_without_the_mark_are_dropped() {
        let mut carnivine = pokemon("DPP", "DP42", "Carnivine G", Some(Stage::Basic));
        carnivine.names.set(Language::Fr, "Vortente");
        carnivine.names.set(Language::De, "Venuflibis G");
        let mut bronzong = pokemon("RR", "16", "Bronzong E4", Some(Stage::Stage1));
        bronzong.names.set(Language::De, "Bronzong 4");
        bronzong.names.set(Language::Fr, "Archéodong  Niv. 54");
        let mut zygarde = pokemon("FCO", "54", "Zygarde EX", Some(Stage::Basic));
        zygarde.names.set(Language::It, "Zygarde-GX");
        zygarde.names.set(Language::Pt, "Zygarde EX");
        let mut kyogre = pokemon("PRC", "55", "Primal Kyogre EX", Some(Stage::Basic));
        kyogre.names.set(Language::Pt, "Kyogre PrimitivoEX");
        let mut unown = pokemon("MT", "66", "Unown G", Some(Stage::Basic));
        unown.names.set(Language::Fr, "Zarbi");
        let mut printings = vec![carnivine, bronzong, zygarde, kyogre, unown];
        assert_eq!(localized_names_without_mark(&mut printings), 3);
        let names = |i: usize| -> Vec<(Language, String)> {
            printings[i]
                .names
                .iter()
                .map(|(l, n)| (l, n.to_string()))
                .collect()
        };
        assert_eq!(names(0).len(), 2, "{:?}", names(0));
        assert_eq!(printings[0].names.get(Language::Fr), None);
        assert_eq!(printings[1].names.get(Language::De), Some("Bronzong 4"));
        assert_eq!(printings[1].names.get(Language::Fr), None);
        assert_eq!(printings[2].names.get(Language::It), None);
        assert_eq!(printings[2].names.get(Language::Pt), Some("Zygarde EX"));
        assert_eq!(
            printings[3].names.get(Language::Pt),
            Some("Kyogre PrimitivoEX")
        );
        assert_eq!(printings[4].names.get(Language::Fr), Some("Zarbi"));
    }
}
