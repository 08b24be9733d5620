//! Recognizing section headers, deck-total footers and banners, in six languages, and
//! guessing the deck's language from them.
//!
//! A header is a known label with an optional count: `Pokémon: 12`, `Pokémon : 12`,
//! `Trainers (30)`, `##Trainer Cards - 30`, `Energies`. Labels are compared lower-cased,
//! with combining accents removed and blanks collapsed, against a closed table of
//! spellings (accented or not, singular or plural). Some spellings belong to several
//! languages (`Trainer` is English and German, `Energia` Portuguese, Italian and
//! unaccented Spanish): each carries the set of languages it fits, and the deck's language
//! is what all of them agree on. This module must not read card lines.

use crate::names::lang::Language;

use super::Section;
use super::lines::is_blank;

/// A set of languages, one bit per [`Language::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LangSet(u8);

impl LangSet {
    const ALL: LangSet = LangSet(0b11_1111);

    const fn of(langs: &[Language]) -> LangSet {
        let mut bits = 0;
        let mut i = 0;
        while i < langs.len() {
            bits |= 1 << langs[i] as u8;
            i += 1;
        }
        LangSet(bits)
    }

    pub(crate) fn contains(self, lang: Language) -> bool {
        self.0 & (1 << lang.index()) != 0
    }

    fn single(self) -> Option<Language> {
        let mut langs = Language::ALL.into_iter().filter(|&l| self.contains(l));
        match (langs.next(), langs.next()) {
            (Some(lang), None) => Some(lang),
            _ => None,
        }
    }
}

/// What a label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Section(Section),
    /// A part of a section (`Supporters (12)`, `Basic Energy - 8`): its cards are in the
    /// section, and its number counts only its own lines.
    Sub(Section),
    Footer,
}

/// What a header or footer says about the language: the languages its spelling fits, and
/// the one it implies when nothing else in the deck decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hint {
    pub langs: LangSet,
    pub default: Option<Language>,
    /// The languages whose own header is spelled exactly so (what deckbox writes): `Energia`
    /// fits a Spanish list typed without accents, but deckbox writes Spanish `Energía`.
    pub spelled: LangSet,
}

impl Hint {
    /// The language of this label in a deck whose language is `deck`.
    pub(crate) fn resolve(self, deck: Option<Language>) -> Option<Language> {
        match deck {
            Some(lang) if self.langs.contains(lang) => Some(lang),
            _ => self.default,
        }
    }
}

/// How the count was attached to the label, a clue to the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// `Pokémon: 12`, `Pokémon :`.
    Colon,
    /// `##Pokémon - 22`, `Total Cards - 60`.
    Dash,
    /// `Pokémon (12)`, `Pokémon 12`, `Pokémon`.
    Other,
}

/// A recognized header or footer line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marker {
    pub role: Role,
    /// The number written, `None` when absent or too large for `u64`.
    pub count: Option<u64>,
    pub hint: Hint,
    pub form: Form,
}

use Language::{De, En, Es, Fr, It, Pt};

const fn hint(langs: &[Language], default: Option<Language>) -> Hint {
    Hint {
        langs: LangSet::of(langs),
        default,
        spelled: LangSet::of(langs),
    }
}

/// A hint whose label only some of its languages spell so ([`Hint::spelled`]).
const fn hint_spelled(langs: &[Language], default: Option<Language>, spelled: &[Language]) -> Hint {
    Hint {
        langs: LangSet::of(langs),
        default,
        spelled: LangSet::of(spelled),
    }
}

const POKEMON: Role = Role::Section(Section::Pokemon);
const TRAINER: Role = Role::Section(Section::Trainer);
const ENERGY: Role = Role::Section(Section::Energy);
const SUB_POKEMON: Role = Role::Sub(Section::Pokemon);
const SUB_TRAINER: Role = Role::Sub(Section::Trainer);
const SUB_ENERGY: Role = Role::Sub(Section::Energy);
const ANY: Hint = Hint {
    langs: LangSet::ALL,
    default: None,
    spelled: LangSet::ALL,
};

/// Every known label, lower case. Unaccented spellings fit every language that could have
/// dropped the accent (`energie` is German, or French / Italian typed without accents).
const LABELS: &[(&[&str], Role, Hint)] = &[
    (
        &["pokémon", "pokemon", "pokémons", "pokemons"],
        POKEMON,
        ANY,
    ),
    (
        &["pokémon cards", "pokemon cards"],
        POKEMON,
        hint(&[En], Some(En)),
    ),
    (
        &["trainer", "trainers", "trainer cards", "trainer card"],
        TRAINER,
        hint(&[En, De], Some(En)),
    ),
    (&["trainerkarten"], TRAINER, hint(&[De], Some(De))),
    // Trainers, Supporters and Stadiums, as forum posts head the section (`TSS 27`,
    // `T/S/S (24)`).
    (&["tss", "t/s/s"], TRAINER, hint(&[En], Some(En))),
    // The card-type headers of exports in each language (`##Cartes Dresseur - 34`).
    (
        &["cartes pokémon", "cartes pokemon"],
        POKEMON,
        hint(&[Fr], Some(Fr)),
    ),
    (
        &[
            "cartas de pokémon",
            "cartas de pokemon",
            "cartas pokémon",
            "cartas pokemon",
        ],
        POKEMON,
        hint(&[Es, Pt], None),
    ),
    (
        &["carte pokémon", "carte pokemon"],
        POKEMON,
        hint(&[It], Some(It)),
    ),
    (
        &[
            "pokémon-karten",
            "pokemon-karten",
            "pokémonkarten",
            "pokemonkarten",
        ],
        POKEMON,
        hint(&[De], Some(De)),
    ),
    (
        &["cartes dresseur", "cartes dresseurs"],
        TRAINER,
        hint(&[Fr], Some(Fr)),
    ),
    (
        &["cartas de entrenador", "cartas de entrenadores"],
        TRAINER,
        hint(&[Es], Some(Es)),
    ),
    (
        &["cartas de treinador", "cartas de treinadores"],
        TRAINER,
        hint(&[Pt], Some(Pt)),
    ),
    (
        &["carte allenatore", "carte allenatori"],
        TRAINER,
        hint(&[It], Some(It)),
    ),
    (
        &[
            "cartes énergie",
            "cartes énergies",
            "cartes energie",
            "cartes energies",
        ],
        ENERGY,
        hint(&[Fr], Some(Fr)),
    ),
    (
        &["cartas de energía", "cartas de energia"],
        ENERGY,
        hint(&[Es, Pt], None),
    ),
    (&["carte energia"], ENERGY, hint(&[It], Some(It))),
    (&["energiekarten"], ENERGY, hint(&[De], Some(De))),
    (&["dresseur", "dresseurs"], TRAINER, hint(&[Fr], Some(Fr))),
    (
        &["entrenador", "entrenadores"],
        TRAINER,
        hint(&[Es], Some(Es)),
    ),
    (
        &["treinador", "treinadores"],
        TRAINER,
        hint(&[Pt], Some(Pt)),
    ),
    (
        &["allenatore", "allenatori"],
        TRAINER,
        hint(&[It], Some(It)),
    ),
    (
        &["energy", "energy cards", "energy card"],
        ENERGY,
        hint(&[En], Some(En)),
    ),
    (&["energies"], ENERGY, hint(&[En, Fr], Some(En))),
    (&["énergie", "énergies"], ENERGY, hint(&[Fr], Some(Fr))),
    (&["energie"], ENERGY, hint(&[De, Fr, It], Some(De))),
    (&["energien"], ENERGY, hint(&[De], Some(De))),
    (&["energía", "energías"], ENERGY, hint(&[Es], Some(Es))),
    (
        &["energia"],
        ENERGY,
        hint_spelled(&[Pt, It, Es], None, &[Pt, It]),
    ),
    (&["energias"], ENERGY, hint(&[Pt, Es], None)),
    (&["total cards"], Role::Footer, hint(&[En], Some(En))),
    (&["total de cartes"], Role::Footer, hint(&[Fr], Some(Fr))),
    (&["total de cartas"], Role::Footer, hint(&[Es, Pt], None)),
    (&["karten insgesamt"], Role::Footer, hint(&[De], Some(De))),
    (
        &["carte totali", "totale carte"],
        Role::Footer,
        hint(&[It], Some(It)),
    ),
    (&["total"], Role::Footer, hint(&[En, Fr, Es, Pt], None)),
    // As players type a footer by hand.
    (&["cartas totales"], Role::Footer, hint(&[Es], Some(Es))),
    (&["totale"], Role::Footer, hint(&[It], Some(It))),
    (&["gesamt"], Role::Footer, hint(&[De], Some(De))),
];

/// Labels of the parts of a section, written without accents (a label is compared with
/// its accents folded: `Energías básicas` is `energias basicas`).
const SUB_LABELS: &[(&[&str], Role, Hint)] = &[
    // The stages a Pokémon section is cut into by a pojo.com report of 2004 (`Basic
    // Pokémon:`, `Stage 1 Pokémon:`, `tests/corpus/lists/pojo/2004-10-09-memphis-magma-overlord.txt`).
    (
        &["basic pokemon", "stage 1 pokemon", "stage 2 pokemon"],
        SUB_POKEMON,
        hint(&[En], Some(En)),
    ),
    (
        &["supporter", "supporters", "supporter cards"],
        SUB_TRAINER,
        hint(&[En, Fr], Some(En)),
    ),
    (
        &["item", "items", "item cards"],
        SUB_TRAINER,
        hint(&[En, De, Pt], Some(En)),
    ),
    (
        &[
            "tool",
            "tools",
            "pokemon tool",
            "pokemon tools",
            "tool cards",
        ],
        SUB_TRAINER,
        hint(&[En], Some(En)),
    ),
    (
        &["stadium", "stadiums", "stadium cards"],
        SUB_TRAINER,
        hint(&[En], Some(En)),
    ),
    (&["objet", "objets"], SUB_TRAINER, hint(&[Fr], Some(Fr))),
    (
        &["outil", "outils", "outil pokemon", "outils pokemon"],
        SUB_TRAINER,
        hint(&[Fr], Some(Fr)),
    ),
    (&["stade", "stades"], SUB_TRAINER, hint(&[Fr], Some(Fr))),
    (
        &["partidario", "partidarios"],
        SUB_TRAINER,
        hint(&[Es], Some(Es)),
    ),
    (&["objeto", "objetos"], SUB_TRAINER, hint(&[Es], Some(Es))),
    (
        &[
            "herramienta",
            "herramientas",
            "herramienta pokemon",
            "herramientas pokemon",
        ],
        SUB_TRAINER,
        hint(&[Es], Some(Es)),
    ),
    (
        &["estadio", "estadios"],
        SUB_TRAINER,
        hint(&[Es, Pt], Some(Es)),
    ),
    (
        &["unterstutzer", "unterstuetzer"],
        SUB_TRAINER,
        hint(&[De], Some(De)),
    ),
    (
        &["pokemon-ausrustung", "ausrustung", "pokemon-ausruestung"],
        SUB_TRAINER,
        hint(&[De], Some(De)),
    ),
    (&["stadion", "stadien"], SUB_TRAINER, hint(&[De], Some(De))),
    (&["aiuto", "aiuti"], SUB_TRAINER, hint(&[It], Some(It))),
    (
        &["strumento", "strumenti"],
        SUB_TRAINER,
        hint(&[It], Some(It)),
    ),
    (
        &["oggetto pokemon", "oggetti pokemon", "oggetti"],
        SUB_TRAINER,
        hint(&[It], Some(It)),
    ),
    (&["stadio", "stadi"], SUB_TRAINER, hint(&[It], Some(It))),
    (
        &["apoiador", "apoiadores"],
        SUB_TRAINER,
        hint(&[Pt], Some(Pt)),
    ),
    (&["itens"], SUB_TRAINER, hint(&[Pt], Some(Pt))),
    (
        &[
            "ferramenta",
            "ferramentas",
            "ferramenta pokemon",
            "ferramentas pokemon",
        ],
        SUB_TRAINER,
        hint(&[Pt], Some(Pt)),
    ),
    (
        &[
            "special energy",
            "special energies",
            "special energy cards",
            "basic energy",
            "basic energies",
            "basic energy cards",
        ],
        SUB_ENERGY,
        hint(&[En], Some(En)),
    ),
    (
        &[
            "energie speciale",
            "energies speciales",
            "energie de base",
            "energies de base",
        ],
        SUB_ENERGY,
        hint(&[Fr], Some(Fr)),
    ),
    (
        &[
            "energia especial",
            "energias especiales",
            "energia basica",
            "energias basicas",
        ],
        SUB_ENERGY,
        hint(&[Es, Pt], None),
    ),
    (&["energias especiais"], SUB_ENERGY, hint(&[Pt], Some(Pt))),
    (
        &[
            "spezial-energie",
            "spezial-energien",
            "spezialenergie",
            "basis-energie",
            "basis-energien",
            "basisenergie",
        ],
        SUB_ENERGY,
        hint(&[De], Some(De)),
    ),
    (
        &[
            "energia speciale",
            "energie speciali",
            "energia base",
            "energie base",
        ],
        SUB_ENERGY,
        hint(&[It], Some(It)),
    ),
];

/// Labels longer than this are never headers; it keeps a huge line from being lower-cased.
const MAX_LABEL: usize = 40;

/// Reads a header or footer line (leading `#`s already removed), or `None`. Markdown
/// emphasis around it (`**Pokémon (12)**`, from chat pastes) is ignored.
pub(crate) fn marker(s: &str) -> Option<Marker> {
    let s = s.trim_matches(['*', '_']).trim_matches(is_blank);
    labelled(s)
}

/// A label with its count after it, or none: `Pokémon: 12`, `Trainers (30)`, `Energies`.
fn labelled(s: &str) -> Option<Marker> {
    let (label, count, form) = split_label(s)?;
    if label.len() > MAX_LABEL {
        return None;
    }
    let key = normalize(label);
    let &(_, role, hint) = LABELS
        .iter()
        .find(|(spellings, ..)| spellings.contains(&key.as_str()))
        .or_else(|| {
            let key = fold_accents(&key);
            SUB_LABELS
                .iter()
                .find(|(spellings, ..)| spellings.contains(&key.as_str()))
        })?;
    let count = count.and_then(|digits| digits.parse().ok());
    Some(Marker {
        role,
        count,
        hint,
        form,
    })
}

/// A section's label after its count, as Wizards-era posts head their sections (`20
/// Pokemon:`, `x15 Pokemon`, `27x Trainers`): only the three sections' own labels, which
/// no card is named.
pub(crate) fn count_first(s: &str) -> Option<Marker> {
    let s = s.trim_matches(['*', '_']).trim_matches(is_blank);
    let rest = s.strip_prefix(['x', 'X']).unwrap_or(s);
    let digits_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = rest.split_at(digits_len);
    let rest = rest.strip_prefix(['x', 'X']).unwrap_or(rest);
    if digits.is_empty() || !rest.starts_with(is_blank) {
        return None;
    }
    let label = rest.trim_matches(is_blank);
    let label = label
        .strip_suffix(':')
        .unwrap_or(label)
        .trim_end_matches(is_blank);
    if label.len() > MAX_LABEL {
        return None;
    }
    let key = normalize(label);
    let &(_, role, hint) = LABELS
        .iter()
        .find(|(spellings, ..)| spellings.contains(&key.as_str()))?;
    matches!(role, Role::Section(_)).then(|| Marker {
        role,
        count: digits.parse().ok(),
        hint,
        form: Form::Other,
    })
}

/// Splits `Pokémon: 12` into (`Pokémon`, `12`), `Pokémon (12)` into (`Pokémon`, `12`),
/// `Trainer:` into (`Trainer`, none). A colon after a parenthesized count is dropped:
/// `Pokémon (12):`, and `Trainers (19) :` with a blank before it, as a PokéGym report of
/// 2004 heads its sections (`tests/corpus/lists/pokegym/2004-florida-states-blaziken-ninetales.txt`).
fn split_label(s: &str) -> Option<(&str, Option<&str>, Form)> {
    let s = s.trim_end_matches(is_blank);
    let s = s
        .strip_suffix(':')
        .map(|t| t.trim_end_matches(is_blank))
        .filter(|t| t.ends_with(')'))
        .unwrap_or(s);
    let (head, count) = if let Some(inner) = s.strip_suffix(')') {
        let open = inner.rfind('(')?;
        let digits = inner.get(open + 1..)?.trim_matches(is_blank);
        (inner.get(..open)?, Some(digits).filter(|d| is_digits(d)))
    } else {
        let digits_len = s.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (head, digits) = s.split_at(s.len() - digits_len);
        (head, Some(digits).filter(|d| !d.is_empty()))
    };
    let head = head.trim_end_matches(is_blank);
    let (label, form) = if let Some(label) = head.strip_suffix(':') {
        (label, Form::Colon)
    } else if let Some(label) = head.strip_suffix(['-', '–', '—']) {
        (label, Form::Dash)
    } else {
        (head, Form::Other)
    };
    let label = label.trim_end_matches(is_blank);
    (!label.is_empty()).then_some((label, count, form))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Lower case, combining accents dropped (a decomposed `é` is then `e`), blanks collapsed.
fn normalize(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for word in label.split(is_blank).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        let letters = word
            .chars()
            .filter(|c| !('\u{300}'..='\u{36F}').contains(c));
        out.extend(letters.flat_map(char::to_lowercase));
    }
    out
}

/// `key` with the accented letters of the six languages' labels written without accents
/// (`ü` as `u`: `Unterstützer` is `unterstutzer`).
fn fold_accents(key: &str) -> String {
    key.chars()
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            '–' | '—' => '-',
            other => other,
        })
        .collect()
}

/// Whether `s` is a banner or separator line: starts with `***` (the PTCGO
/// `****** Pokémon Trading Card Game Deck List ******`) or is made only of `*`, `=`, `-`,
/// `_` or `~` (at least three).
pub(crate) fn is_banner(s: &str) -> bool {
    s.starts_with("***")
        || (s.len() >= 3 && s.chars().all(|c| matches!(c, '*' | '=' | '-' | '_' | '~')))
}

/// The deck's language from the hints of its headers and footer: what every hint that says
/// anything agrees on; when several languages remain, the default they share; when hints
/// disagree, the language most of them fit. `None` when nothing decides.
pub(crate) fn deck_language(hints: &[Hint]) -> Option<Language> {
    let telling: Vec<Hint> = hints
        .iter()
        .copied()
        .filter(|h| h.langs != LangSet::ALL)
        .collect();
    if telling.is_empty() {
        return None;
    }
    let agreed = LangSet(
        telling
            .iter()
            .fold(LangSet::ALL.0, |acc, h| acc & h.langs.0),
    );
    if let Some(lang) = agreed.single() {
        return Some(lang);
    }
    // Among the languages that fit, the one whose own headers are spelled as written: the
    // headers deckbox writes read back as the language they were written in (`Energia` and
    // `Total de cartas` are Portuguese; Spanish would be `Energía`).
    let spelled = LangSet(telling.iter().fold(agreed.0, |acc, h| acc & h.spelled.0));
    if let Some(lang) = spelled.single() {
        return Some(lang);
    }
    if agreed.0 != 0 {
        let mut defaults = telling
            .iter()
            .filter_map(|h| h.default)
            .filter(|&l| agreed.contains(l));
        let first = defaults.next()?;
        return defaults.all(|l| l == first).then_some(first);
    }
    majority(&telling)
}

/// The languages every hint that says anything fits, in [`Language::ALL`] order; empty
/// when no hint says anything or they fit no language together.
pub(crate) fn fitting_languages(hints: &[Hint]) -> Vec<Language> {
    let agreed = hints
        .iter()
        .filter(|h| h.langs != LangSet::ALL)
        .fold(LangSet::ALL, |acc, h| LangSet(acc.0 & h.langs.0));
    if agreed == LangSet::ALL {
        return Vec::new();
    }
    Language::ALL
        .into_iter()
        .filter(|&l| agreed.contains(l))
        .collect()
}

/// The language the most hints fit, if exactly one has that many.
fn majority(hints: &[Hint]) -> Option<Language> {
    let votes = |lang: Language| hints.iter().filter(|h| h.langs.contains(lang)).count();
    let best = Language::ALL.into_iter().map(votes).max()?;
    let mut winners = Language::ALL.into_iter().filter(|&l| votes(l) == best);
    match (winners.next(), winners.next()) {
        (Some(lang), None) => Some(lang),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        match marker(s) {
            None => "none".to_owned(),
            Some(m) => format!(
                "{:?} {:?} {:?} {:?}",
                m.role, m.count, m.hint.default, m.form
            ),
        }
    }

    #[test]
    fn markers() {
        insta::assert_snapshot!(show("Pokémon: 12"), @"Section(Pokemon) Some(12) None Colon");
        insta::assert_snapshot!(show("Pokémon : 12"), @"Section(Pokemon) Some(12) None Colon");
        insta::assert_snapshot!(show("Pokemon:"), @"Section(Pokemon) None None Colon");
        insta::assert_snapshot!(show("Trainers (30)"), @"Section(Trainer) Some(30) Some(En) Other");
        insta::assert_snapshot!(show("Trainer Cards - 30"), @"Section(Trainer) Some(30) Some(En) Dash");
        insta::assert_snapshot!(show("Énergie :"), @"Section(Energy) None Some(Fr) Colon");
        insta::assert_snapshot!(show("ENERGIE\u{A0}: 8"), @"Section(Energy) Some(8) Some(De) Colon");
        insta::assert_snapshot!(show("Total de cartas: 60"), @"Footer Some(60) None Colon");
        insta::assert_snapshot!(show("Karten  insgesamt: 60"), @"Footer Some(60) Some(De) Colon");
        insta::assert_snapshot!(show("Gesamt: 60"), @"Footer Some(60) Some(De) Colon");
        insta::assert_snapshot!(show("Totale: 60"), @"Footer Some(60) Some(It) Colon");
        insta::assert_snapshot!(show("Cartas totales: 60"), @"Footer Some(60) Some(Es) Colon");
        insta::assert_snapshot!(show("Cartes Dresseur - 34"), @"Section(Trainer) Some(34) Some(Fr) Dash");
        insta::assert_snapshot!(show("Cartas de Treinador (30)"), @"Section(Trainer) Some(30) Some(Pt) Other");
        insta::assert_snapshot!(show("Total Cards - 60"), @"Footer Some(60) Some(En) Dash");
        insta::assert_snapshot!(show("Total Cards: 99999999999999999999999"), @"Footer None Some(En) Colon");
        insta::assert_snapshot!(show("Boss's Orders (Giovanni)"), @"none");
        insta::assert_snapshot!(show(": 12"), @"none");
        insta::assert_snapshot!(show("(12)"), @"none");
        insta::assert_snapshot!(show("**Pokémon (12)**"), @"Section(Pokemon) Some(12) None Other");
        insta::assert_snapshot!(show("__Trainers (30):__"), @"Section(Trainer) Some(30) Some(En) Other");
        insta::assert_snapshot!(show("Trainers (19) :"), @"Section(Trainer) Some(19) Some(En) Other");
        insta::assert_snapshot!(show("Stage 1 Pokémon:"), @"Sub(Pokemon) None Some(En) Colon");
        insta::assert_snapshot!(show("Supporters (12)"), @"Sub(Trainer) Some(12) Some(En) Other");
        insta::assert_snapshot!(show("Basic Energy - 8"), @"Sub(Energy) Some(8) Some(En) Dash");
        insta::assert_snapshot!(show("Energías básicas: 8"), @"Sub(Energy) Some(8) None Colon");
        insta::assert_snapshot!(show("Unterstützer (12)"), @"Sub(Trainer) Some(12) Some(De) Other");
        insta::assert_snapshot!(show("Outils Pokémon (2)"), @"Sub(Trainer) Some(2) Some(Fr) Other");
        insta::assert_snapshot!(show("Professor's Research"), @"none");
    }

    fn lang(labels: &[&str]) -> Option<Language> {
        let hints: Vec<Hint> = labels
            .iter()
            .filter_map(|l| marker(l))
            .map(|m| m.hint)
            .collect();
        deck_language(&hints)
    }

    #[test]
    fn deck_languages() {
        assert_eq!(lang(&["Pokémon"]), None);
        assert_eq!(lang(&["Pokémon", "Trainer", "Energy"]), Some(En));
        assert_eq!(lang(&["Pokémon", "Trainer", "Energie"]), Some(De));
        assert_eq!(lang(&["Pokémon", "Trainer"]), Some(En));
        assert_eq!(lang(&["Pokémon", "Dresseur", "Energie"]), Some(Fr));
        assert_eq!(lang(&["Pokémon", "Allenatore", "Energia"]), Some(It));
        assert_eq!(
            lang(&["Pokémon", "Treinador", "Energia", "Total de cartas"]),
            Some(Pt)
        );
        assert_eq!(lang(&["Pokemon", "Entrenador", "Energia"]), Some(Es));
        assert_eq!(lang(&["Energia"]), None);
        // Spelled as deckbox writes Portuguese (Spanish is `Energía`).
        assert_eq!(lang(&["Pokémon", "Energia", "Total de cartas"]), Some(Pt));
        assert_eq!(lang(&["Pokémon", "Energía", "Total de cartas"]), Some(Es));
        assert_eq!(lang(&["Trainer", "Energy", "Total de cartes"]), Some(En));
    }
}
