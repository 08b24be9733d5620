//! Basic Energy names: every spelling of one type, in every language, is one name.
//!
//! Databases and deck lists write the same card as `Fire Energy`, `Basic Fire Energy`,
//! `Basic {R} Energy`, `Énergie Feu de base`, `Energia de Fogo` or `Feuerenergie`, and
//! TCGdex even writes the printed symbol as the English word inside other languages
//! (`Énergie Fire de base`, `Basis-Fire-Energie`). [`basic_energy`] recognizes a whole
//! name as one of these and nothing else: special Energy (`Double Colorless Energy`,
//! `R Energy`, `Growing Grass Energy`) has other words and is never merged.

use super::text::fold_into;

/// One basic Energy type: its English card name, its symbol letter and its words (folded).
struct EnergyType {
    name: &'static str,
    symbol: char,
    words: &'static [&'static str],
}

/// Words from the TCGdex names of basic Energy (en, fr, es, pt, de, it), folded.
const TYPES: [EnergyType; 9] = [
    EnergyType {
        name: "Grass Energy",
        symbol: 'g',
        words: &[
            "grass", "plante", "planta", "grama", "pflanze", "pflanzen", "erba",
        ],
    },
    EnergyType {
        name: "Fire Energy",
        symbol: 'r',
        words: &["fire", "feu", "fuego", "fogo", "feuer", "fuoco"],
    },
    EnergyType {
        name: "Water Energy",
        symbol: 'w',
        words: &["water", "eau", "agua", "wasser", "acqua"],
    },
    EnergyType {
        name: "Lightning Energy",
        symbol: 'l',
        words: &[
            "lightning",
            // The Wizards-era name of the type, which players kept writing (`7 Electric
            // Energy`, pojo.com/KillerDecks/2000/July2000/6p.htm).
            "electric",
            "electrique",
            "electrik",
            "rayo",
            "raio",
            "raios",
            "electrica",
            "eletrica",
            "elektro",
            "lampo",
        ],
    },
    EnergyType {
        name: "Psychic Energy",
        symbol: 'p',
        words: &["psychic", "psy", "psiquica", "psycho", "psico", "psiche"],
    },
    EnergyType {
        name: "Fighting Energy",
        symbol: 'f',
        words: &[
            "fighting",
            "combat",
            "lucha",
            "luta",
            "kampf",
            "lotta",
            "combattimento",
        ],
    },
    EnergyType {
        name: "Darkness Energy",
        symbol: 'd',
        words: &[
            "darkness",
            "obscurite",
            "oscura",
            "noturna",
            "escuridao",
            "finsternis",
            "oscurita",
        ],
    },
    EnergyType {
        name: "Metal Energy",
        symbol: 'm',
        words: &["metal", "metalica", "metall", "metallo"],
    },
    EnergyType {
        name: "Fairy Energy",
        symbol: 'y',
        words: &["fairy", "fee", "hada", "fada", "feen", "folletto"],
    },
];

/// The word "Energy" in the six languages, folded.
const ENERGY_WORDS: [&str; 3] = ["energy", "energie", "energia"];

/// "Basic" in the six languages, folded: `Basic`, `Basis-`, `de base`/`base`, `Básica`.
const BASIC_WORDS: [&str; 5] = ["basic", "basis", "base", "basica", "basico"];

/// Small words allowed around the type: pt `Energia de Fogo`, fr `de base`.
const LINK_WORDS: [&str; 5] = ["de", "da", "di", "del", "do"];

/// The English rules name (`Fire Energy`) when `name` (already cleaned) is a basic Energy
/// spelling in any language, `None` otherwise.
pub(super) fn basic_energy(name: &str) -> Option<&'static str> {
    // Every spelling has "energy", "énergie" or "energía" in it: skip the rest cheaply.
    if !name
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"nerg"))
    {
        return None;
    }
    let mut energy = 0;
    let mut basic = false;
    let mut bare_letter = None;
    let mut found: Option<&'static EnergyType> = None;
    let mut word = String::new();
    for raw in name.split([' ', '-']).filter(|w| !w.is_empty()) {
        if let Some(ty) = braced_symbol(raw) {
            found = replace_once(found, ty)?;
            continue;
        }
        word.clear();
        fold_into(&mut word, raw);
        // German compounds: "Feuerenergie", "Pflanzenenergie".
        let (stem, is_compound) = match word.strip_suffix("energie") {
            Some(stem) if !stem.is_empty() => (stem, true),
            _ => (word.as_str(), false),
        };
        if is_compound || ENERGY_WORDS.contains(&stem) {
            energy += 1;
            if !is_compound {
                continue;
            }
        }
        if BASIC_WORDS.contains(&stem) {
            basic = true;
        } else if let Some(ty) = TYPES.iter().find(|t| t.words.contains(&stem)) {
            found = replace_once(found, ty)?;
        } else if let Some(ty) = letter_symbol(stem) {
            bare_letter = Some(ty);
        } else if !LINK_WORDS.contains(&stem) {
            return None;
        }
    }
    // A bare letter is a symbol only with "Basic": "R Energy" is a special Energy.
    if let (true, Some(ty)) = (basic, bare_letter) {
        found = replace_once(found, ty)?;
    } else if bare_letter.is_some() {
        return None;
    }
    match (energy, found) {
        (1, Some(ty)) => Some(ty.name),
        _ => None,
    }
}

/// The fewest letters a word of a basic Energy's name needs to be read one slip from a
/// word of the type's spellings ([`basic_energy_slip`]): `noturno` (7) is `noturna`, but
/// `fogu` (4) stays unknown, since short words lie one slip from several others (`fada`,
/// `fado`; `luta`, `lupa`).
const MIN_SLIP_WORD_LETTERS: usize = 5;

/// The name a player meant who wrote a basic Energy's name with one slip in one word (a
/// letter added, dropped or changed, or two neighbours swapped): `energia noturno` is
/// `energia noturna` (Darkness Energy), a gender slip the Portuguese list of
/// tests/corpus/lists/ptcgl-test-decks makes. Every spelling of a basic Energy shares one
/// lookup key (the English name), so the card names a suggestion scan compares never hold
/// `Energia Noturna`: the slip is looked for here, word by word, in the words [`TYPES`],
/// "Energy" and "Basic" are spelt with. The written word and the word it slips to have
/// [`MIN_SLIP_WORD_LETTERS`] letters or more, a letter added or dropped at a word's end is
/// no slip (`Darknes`; as for whole names), and every reading must name the same type
/// (else `None`). The other words are kept as written; `name` is already cleaned.
pub(super) fn basic_energy_slip(name: &str) -> Option<String> {
    if basic_energy(name).is_some() {
        return None;
    }
    // Each word with where it starts: `-` joins words (`Finsternis-Energie`) as a space does.
    let words = name
        .split([' ', '-'])
        .scan(0, |start, word| {
            let at = *start;
            *start += word.len() + 1;
            Some((at, word))
        })
        .filter(|(_, word)| !word.is_empty());
    let vocabulary = (TYPES.iter().flat_map(|ty| ty.words.iter()))
        .chain(ENERGY_WORDS.iter())
        .chain(BASIC_WORDS.iter())
        .filter(|word| word.chars().count() >= MIN_SLIP_WORD_LETTERS);
    let mut read: Option<(&'static str, String)> = None;
    for (at, raw) in words {
        let mut word = String::new();
        fold_into(&mut word, raw);
        if word.chars().count() < MIN_SLIP_WORD_LETTERS {
            continue;
        }
        for meant in vocabulary.clone() {
            let apart = word.starts_with(meant) || meant.starts_with(word.as_str());
            if apart || strsim::osa_distance(&word, meant) != 1 {
                continue;
            }
            let (Some(before), Some(after)) = (name.get(..at), name.get(at + raw.len()..)) else {
                continue;
            };
            let spelled = format!("{before}{meant}{after}");
            let Some(energy) = basic_energy(&spelled) else {
                continue;
            };
            match &read {
                Some((other, _)) if *other != energy => return None,
                Some(_) => {}
                None => read = Some((energy, spelled)),
            }
        }
    }
    read.map(|(_, spelled)| spelled)
}

/// The English name of the basic Energy whose type word `folded` (one folded word, as
/// [`fold_into`] makes it) is, written alone as deck lists do (`9 Darkness`, `8 Water`,
/// `8 Eau`), `dark`, the usual short form of Darkness (`11x Dark`), and the type's symbol
/// letter alone (`10 L`, `4 R`, as SixPrizes lists write them).
pub(super) fn type_alone(folded: &str) -> Option<&'static str> {
    if folded == "dark" {
        return Some("Darkness Energy");
    }
    let mut letters = folded.chars();
    if let (Some(letter), None) = (letters.next(), letters.next()) {
        return TYPES
            .iter()
            .find(|ty| ty.symbol == letter)
            .map(|ty| ty.name);
    }
    TYPES
        .iter()
        .find(|ty| ty.words.contains(&folded))
        .map(|ty| ty.name)
}

/// Whether `name` (already cleaned) is a basic Energy spelling that says so itself: with
/// "Basic" in any language (`Basic Darkness Energy`, `Énergie Obscurité de base`) or the
/// printed symbol (`Basic {D} Energy`, `{D} Energy`). A bare `Darkness Energy` is also the
/// name of old special Energy cards; these spellings are not.
pub(super) fn says_basic_energy(name: &str) -> bool {
    basic_energy(name).is_some()
        && name.split([' ', '-']).any(|raw| {
            let mut word = String::new();
            fold_into(&mut word, raw);
            braced_symbol(raw).is_some() || BASIC_WORDS.contains(&word.as_str())
        })
}

/// A special Energy named with the printed symbol for its type, as PTCG Live exports write
/// it (`Telepathic {P} Energy` for Telepathic Psychic Energy, `Nitro {R} Energy`,
/// `Rocky {F} Energy`): the name with each symbol spelled as the English type word. `None`
/// when the name does not end in "Energy" or no word before it is a lone symbol (`name` is
/// already cleaned; basic Energy is read before this).
pub(super) fn spelled_symbols(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    let (last, before) = words.split_last()?;
    if !last.eq_ignore_ascii_case("energy") {
        return None;
    }
    let mut changed = false;
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for word in before {
        match braced_symbol(word) {
            Some(ty) => {
                changed = true;
                out.push(ty.name.strip_suffix(" Energy").unwrap_or(ty.name));
            }
            None => out.push(word),
        }
    }
    out.push(last);
    changed.then(|| out.join(" "))
}

/// `{R}` or `[R]`, as deck-list exports write the printed symbol.
fn braced_symbol(raw: &str) -> Option<&'static EnergyType> {
    let inner = raw
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')))?;
    letter_symbol(&inner.to_ascii_lowercase())
}

fn letter_symbol(word: &str) -> Option<&'static EnergyType> {
    let mut chars = word.chars();
    let (Some(letter), None) = (chars.next(), chars.next()) else {
        return None;
    };
    TYPES.iter().find(|t| t.symbol == letter)
}

/// Records the type, failing (`None`) when the name already named another type.
fn replace_once(
    found: Option<&'static EnergyType>,
    ty: &'static EnergyType,
) -> Option<Option<&'static EnergyType>> {
    match found {
        Some(prev) if prev.symbol != ty.symbol => None,
        _ => Some(Some(ty)),
    }
}

/// The name of a special Energy that lists its types (`Blend Energy WLFM`,
/// `Unit Energy {L}{P}{M}`, `Unit Energy LightningPsychicMetal`,
/// `Blend Energy Grass Fire Psychic Darkness`), with the list written one way: capital
/// symbol letters in the order of [`TYPES`] (`Blend Energy WLFM`). PTCGO exports letters,
/// TCGdex the English words, Limitless the symbols. `None` for any other name (`name` is
/// already cleaned).
pub(super) fn multi_type(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    let mut symbols: Vec<char> = Vec::new();
    let mut kept = words.len();
    while kept > 0 {
        let Some(found) = words.get(kept - 1).and_then(|word| type_list(word)) else {
            break;
        };
        symbols.extend(found);
        kept -= 1;
    }
    let prefix = words.get(..kept)?;
    let says_energy = prefix.iter().any(|word| {
        let mut folded = String::new();
        fold_into(&mut folded, word);
        folded.contains("energ")
    });
    let mut letters: Vec<char> = TYPES
        .iter()
        .map(|ty| ty.symbol)
        .filter(|symbol| symbols.contains(symbol))
        .collect();
    // Two different types at least: `PP` lists one, and the name it gives (`… P`) must read
    // the same again (canonical names are fixed points).
    if letters.len() < 2 || !says_energy {
        return None;
    }
    letters.iter_mut().for_each(|c| *c = c.to_ascii_uppercase());
    Some(format!(
        "{} {}",
        prefix.join(" "),
        String::from_iter(letters)
    ))
}

/// The type symbols one word lists: `WLFM` (capitals), `{L}{P}{M}`, `LightningPsychicMetal`
/// or a single English type word (`Grass`). `None` when the word is anything else.
fn type_list(word: &str) -> Option<Vec<char>> {
    if word.starts_with('{') || word.starts_with('[') {
        let pieces = word.split_inclusive(['}', ']']);
        return pieces
            .map(|piece| braced_symbol(piece).map(|t| t.symbol))
            .collect();
    }
    if word.bytes().all(|b| b.is_ascii_uppercase()) {
        let lower = word.to_ascii_lowercase();
        return lower
            .chars()
            .map(|c| letter_symbol(c.encode_utf8(&mut [0; 4])).map(|t| t.symbol))
            .collect();
    }
    // English words glued in capitalized pieces: `GrassFireWater`.
    let mut symbols = Vec::new();
    let mut start = 0;
    let bytes = word.as_bytes();
    for end in 1..=bytes.len() {
        if end == bytes.len() || bytes.get(end).is_some_and(u8::is_ascii_uppercase) {
            let piece = word.get(start..end)?.to_ascii_lowercase();
            let ty = TYPES
                .iter()
                .find(|t| t.words.first() == Some(&piece.as_str()))?;
            symbols.push(ty.symbol);
            start = end;
        }
    }
    Some(symbols)
}
