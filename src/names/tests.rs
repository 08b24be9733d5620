//! Table tests for name normalization, one case per line, each citing its source.
//!
//! A citation is `(file, quoted sentence)`. Citations whose file starts with `rulebook-`
//! are checked against /work/shared/rulebooks by `tests/suite/names_rulebooks.rs`, which reads
//! this file: keep them in the form `("rulebook-<name>.txt", "<quote>")`.

use super::*;

/// Where a case comes from: a rulebook file and a sentence quoted from it, or a dataset.
type Cite = (&'static str, &'static str);

const EN_LEVEL: Cite = (
    "rulebook-en-sun-moon.txt",
    "Level is *not* part of a Pokémon's name",
);
const EN_GENGAR: Cite = (
    "rulebook-en-sun-moon.txt",
    "Gengar, Gengar LV. 43, Gengar LV. 44, and Gengar LV.X all have the same name",
);
const EN_SYMBOLS: Cite = (
    "rulebook-en-sun-moon.txt",
    "Symbols at the end of a Pokémon's name are part of a Pokémon's name",
);
const EN_DELTA: Cite = (
    "rulebook-en-sun-moon.txt",
    "However, δ (Delta Species) is not part of a Pokémon's name. Aerodactyl and Aerodactyl δ (Delta Species) have the same name",
);
const EN_OWNER: Cite = (
    "rulebook-en-sun-moon.txt",
    "An owner or form name in a Pokémon's name is part of the Pokémon's name",
);
const EN_MEOWTH: Cite = (
    "rulebook-en-sun-moon.txt",
    "Meowth, Alolan Meowth, and Rocket's Meowth have different names",
);
const EN_BROCK: Cite = (
    "rulebook-en-sun-moon.txt",
    "This is because “Brock’s” is part of the name.",
);
const EN_ALOLAN: Cite = (
    "rulebook-en-sun-moon.txt",
    "is part of the Pokémon's name—this means that Alolan Persian can only evolve from Alolan Meowth, not from Meowth",
);
const EN_GX: Cite = (
    "rulebook-en-sun-moon.txt",
    "The GX is part of a Pokémon-GX's name. Thus, Incineroar and Incineroar-GX have different names",
);
const EN_BREAK: Cite = (
    "rulebook-en-sun-moon.txt",
    "Just like GX, BREAK is part of a Pokémon BREAK's name.",
);
const EN_EX: Cite = (
    "rulebook-en-sun-moon.txt",
    "The EX is part of a Pokémon-EX's name. Thus Yveltal and Yveltal-EX have different names",
);
const EN_MEGA: Cite = (
    "rulebook-en-sun-moon.txt",
    "Thus, Mega Venusaur-EX and Venusaur-EX have different names",
);
const EN_PLASMA: Cite = (
    "rulebook-en-sun-moon.txt",
    "For Pokémon, Team Plasma is not part of the Pokémon's name.",
);
const EN_PRISM: Cite = (
    "rulebook-en-sun-moon.txt",
    "you can include Prism Star cards with different names in your deck",
);
const EN_BASIC_ENERGY: Cite = (
    "rulebook-en-sun-moon.txt",
    "except for basic Energy, you can only have 4 cards with the same name in your deck",
);
const ES_LEVEL: Cite = (
    "rulebook-es-sun-moon.txt",
    "Gengar, Gengar Nv. 43, Gengar Nv. 44 y Gengar Nv. X tienen todas el mismo nombre.",
);
const ES_DELTA: Cite = (
    "rulebook-es-sun-moon.txt",
    "Sin embargo, δ (especie Delta) no forma parte del nombre de un Pokémon.",
);
const ES_OWNER: Cite = (
    "rulebook-es-sun-moon.txt",
    "Meowth, Meowth de Alola y Meowth del Rocket son nombres distintos.",
);
const ES_TURBO: Cite = (
    "rulebook-es-sun-moon.txt",
    "Al igual que GX, TURBO es parte del nombre de un Pokémon TURBO.",
);
const ES_MEGA: Cite = (
    "rulebook-es-sun-moon.txt",
    "Así pues, Mega-Venusaur-EX y Venusaur-EX tienen nombres diferentes",
);
const ES_PLASMA: Cite = (
    "rulebook-es-sun-moon.txt",
    "En las cartas de Pokémon, Equipo Plasma no se considera parte del nombre del Pokémon.",
);
const ES_BASIC_ENERGY: Cite = (
    "rulebook-es-sun-moon.txt",
    "exceptuando las cartas de Energía Básica",
);
const PT_LEVEL: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Gengar, Gengar Nív. 43, Gengar Nív. 44 e Gengar Nív. X têm todos o mesmo nome.",
);
const PT_DELTA: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Entretanto, δ (Espécie Delta) não faz parte do nome de um Pokémon.",
);
const PT_OWNER: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Meowth, Meowth de Alola e Meowth da Equipe Rocket possuem nomes diferentes.",
);
const PT_ALOLA: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Note que “de Alola” faz parte do nome de um Pokémon.",
);
const PT_TURBO: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Da mesma forma que GX, TURBO faz parte do nome do Pokémon TURBO.",
);
const PT_PLASMA: Cite = (
    "rulebook-pt-sun-moon.txt",
    "Nas cartas de Pokémon, o nome Equipe Plasma não é considerado parte do nome do Pokémon.",
);
const PT_BASIC_ENERGY: Cite = (
    "rulebook-pt-sun-moon.txt",
    "exceto pelas cartas de Energia básica",
);
const FR_LEVEL: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Ectoplasma, Ectoplasma Niv. 43, Ectoplasma Niv. 44 et Ectoplasma Niv. X ont tous le même nom.",
);
const FR_DELTA: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Cependant, δ (Espèces Delta) ne fait *pas* partie du nom d'un Pokémon.",
);
const FR_OWNER: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Miaouss, Miaouss d'Alola et Miaouss de la Team Rocket sont des noms différents.",
);
const FR_REGIONAL: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Notez que « de Paldea », « de Hisui », « de Galar » ou « d'Alola » fait partie du nom des Pokémon",
);
const FR_EX: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "« ex » fait partie du nom d'un Pokémon-ex. Par conséquent, Miraidon et Miraidon-ex ont des noms différents",
);
const FR_EX_BW: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "EX fait partie du nom d'un Pokémon-EX. Par conséquent, Yveltal et Yveltal-EX ont des noms différents",
);
const FR_RADIANT: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "« Radieux » fait partie du nom du Pokémon, votre deck peut donc inclure 4 Amphinobi et un Amphinobi Radieux.",
);
const FR_VUNION: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Les quatre « éléments » d'un Pokémon-V-UNION ont le même nom (par exemple, « Mewtwo-V-UNION »).",
);
const FR_TURBO: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Tout comme GX, TURBO fait partie du nom d'un Pokémon TURBO.",
);
const FR_MEGA: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "Par conséquent, Méga-Florizarre-EX et Florizarre-EX ont des noms différents",
);
const FR_PLASMA: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "« Team Plasma » ne fait pas partie du nom d'un Pokémon.",
);
const FR_BASIC_ENERGY: Cite = (
    "rulebook-fr-scarlet-violet.txt",
    "à l'exception des cartes Énergie de base",
);
/// Not a rules question: the same printed character typed or exported several ways.
const UNICODE: Cite = ("unicode", "one printed character, several code points");
/// Decided from how the datasets spell names (TCGdex and pokemontcg, see SOURCES.md).
const DATASETS: Cite = (
    "datasets",
    "TCGdex and pokemontcg spellings of the same card",
);
/// Decided here for lookups (see the module documentation).
const LOOKUP: Cite = ("lookup", "folding decided in names/mod.rs");

#[rustfmt::skip]
const CANONICAL: &[(&str, &str, Cite)] = &[
    // Unicode first.
    ("Boss\u{2019}s Orders", "Boss's Orders", UNICODE),
    ("Boss\u{2018}s Orders", "Boss's Orders", UNICODE),
    ("Boss\u{02BC}s Orders", "Boss's Orders", UNICODE),
    ("Boss`s Orders", "Boss's Orders", UNICODE),
    ("Porygon\u{2010}Z", "Porygon-Z", UNICODE),
    ("Porygon\u{2011}Z", "Porygon-Z", UNICODE),
    ("Porygon\u{2012}Z", "Porygon-Z", UNICODE),
    ("Porygon\u{2013}Z", "Porygon-Z", UNICODE),
    ("Porygon\u{2014}Z", "Porygon-Z", UNICODE),
    ("Porygon\u{2212}Z", "Porygon-Z", UNICODE),
    ("Pika\u{200B}chu", "Pikachu", UNICODE),
    ("Pika\u{200C}chu\u{200D}", "Pikachu", UNICODE),
    ("\u{FEFF}Pikachu\u{2060}", "Pikachu", UNICODE),
    ("Ultra\u{00A0}Ball", "Ultra Ball", UNICODE),
    ("Ultra\u{202F}Ball", "Ultra Ball", UNICODE),
    ("  Ultra\t\tBall  ", "Ultra Ball", UNICODE),
    ("Le\u{0301}viator", "Léviator", UNICODE),
    ("Le\u{200B}\u{0301}viator", "Léviator", UNICODE),
    ("Boss\u{1FEF}s Orders", "Boss's Orders", UNICODE),
    ("\u{1FEF}", "'", UNICODE),
    // Level is not part of the name.
    ("Gengar LV. 43", "Gengar", EN_GENGAR),
    ("Gengar LV.43", "Gengar", EN_GENGAR),
    ("Gengar LV. 44", "Gengar", EN_GENGAR),
    ("Gengar LV.X", "Gengar", EN_GENGAR),
    ("Gengar Lv.X", "Gengar", EN_LEVEL),
    ("Gengar Lv. 43", "Gengar", EN_LEVEL),
    ("Ectoplasma Niv. 43", "Ectoplasma", FR_LEVEL),
    ("Ectoplasma NIV.X", "Ectoplasma", FR_LEVEL),
    ("Ectoplasma Niv. X", "Ectoplasma", FR_LEVEL),
    ("Gengar Nv. 43", "Gengar", ES_LEVEL),
    ("Gengar Nv. X", "Gengar", ES_LEVEL),
    ("Gengar Nív. 43", "Gengar", PT_LEVEL),
    ("Gengar Liv. 43", "Gengar", EN_LEVEL),
    ("Staraptor FB LV.X", "Staraptor FB", EN_LEVEL),
    // δ is not part of the name.
    ("Aerodactyl δ", "Aerodactyl", EN_DELTA),
    ("Aerodactyl (Delta Species)", "Aerodactyl", EN_DELTA),
    ("Aerodactyl Delta Species", "Aerodactyl", EN_DELTA),
    ("Aerodactyl δ (Delta Species)", "Aerodactyl", EN_DELTA),
    ("Aerodactyl δ (especie Delta)", "Aerodactyl", ES_DELTA),
    ("Aerodactyl δ (Espécie Delta)", "Aerodactyl", PT_DELTA),
    ("Ptéra δ (Espèces Delta)", "Ptéra", FR_DELTA),
    ("Gardevoir ex δ", "Gardevoir ex", EN_DELTA),
    ("Charizard ☆ δ", "Charizard ★", EN_DELTA),
    ("δ Rainbow Energy", "δ Rainbow Energy", DATASETS),
    // Symbols at the end are part of the name: Prism Star.
    ("Giratina ◇", "Giratina ◇", EN_SYMBOLS),
    ("Giratina ♢", "Giratina ◇", EN_SYMBOLS),
    ("Giratina ◊", "Giratina ◇", EN_SYMBOLS),
    ("Giratina {*}", "Giratina ◇", EN_SYMBOLS),
    ("Giratina{*}", "Giratina ◇", EN_SYMBOLS),
    ("Giratina Prism Star", "Giratina ◇", EN_PRISM),
    ("Giratina (Prism Star)", "Giratina ◇", EN_PRISM),
    ("Super Boost Energy ◇", "Super Boost Energy ◇", EN_PRISM),
    ("Prism Energy", "Prism Energy", DATASETS),
    // Star: TCGdex ☆ and "Groudon Star", pokemontcg ★, TCGdex German "Kyogre *".
    ("Alakazam ☆", "Alakazam ★", EN_SYMBOLS),
    ("Alakazam ★", "Alakazam ★", EN_SYMBOLS),
    ("Alakazam {star}", "Alakazam ★", EN_SYMBOLS),
    ("Groudon Star", "Groudon ★", DATASETS),
    ("Kyogre *", "Kyogre ★", DATASETS),
    ("Star Piece", "Star Piece", DATASETS),
    ("Team Star Grunt", "Team Star Grunt", DATASETS),
    ("Recluta del Team Star", "Recluta del Team Star", DATASETS),
    ("Recruta da Equipe Star", "Recruta da Equipe Star", DATASETS),
    ("Rüpel von Team Star", "Rüpel von Team Star", DATASETS),
    ("Boost Energy*", "Boost Energy", DATASETS),
    // Owners and forms are part of the name.
    ("Brock's Sandshrew", "Brock's Sandshrew", EN_BROCK),
    ("Brock’s Sandshrew", "Brock's Sandshrew", EN_BROCK),
    ("Team Rocket's Meowth", "Team Rocket's Meowth", EN_MEOWTH),
    ("Miaouss de la Team Rocket", "Miaouss de la Team Rocket", FR_OWNER),
    ("Meowth del Team Rocket", "Meowth del Team Rocket", ES_OWNER),
    ("Meowth da Equipe Rocket", "Meowth da Equipe Rocket", PT_OWNER),
    ("Team Rockets Mauzi", "Team Rockets Mauzi", EN_OWNER),
    ("Alolan Meowth", "Alolan Meowth", EN_ALOLAN),
    ("Galarian Meowth", "Galarian Meowth", EN_OWNER),
    ("Hisuian Zoroark", "Hisuian Zoroark", EN_OWNER),
    ("Paldean Wooper", "Paldean Wooper", EN_OWNER),
    ("Meowth de Alola", "Meowth de Alola", PT_ALOLA),
    ("Miaouss d'Alola", "Miaouss d'Alola", FR_REGIONAL),
    ("Miaouss d’Alola", "Miaouss d'Alola", FR_REGIONAL),
    ("Meowth di Alola", "Meowth di Alola", EN_OWNER),
    ("Alola-Mauzi", "Alola-Mauzi", EN_OWNER),
    // Suffixes are part of the name, in one spelling.
    ("Mewtwo-ex", "Mewtwo ex", FR_EX),
    ("Mewtwo ex", "Mewtwo ex", FR_EX),
    ("Mewtwo-EX", "Mewtwo EX", EN_EX),
    ("Incineroar-GX", "Incineroar GX", EN_GX),
    ("Mewtwo-ex de la Team Rocket", "Mewtwo ex de la Team Rocket", FR_EX),
    ("Hisui Viscogon-VSTAR", "Hisui Viscogon VSTAR", DATASETS),
    ("Mewtwo V-UNION", "Mewtwo V-UNION", FR_VUNION),
    ("Mewtwo-V-UNION", "Mewtwo V-UNION", FR_VUNION),
    ("Mewtwo V-UNIÓN", "Mewtwo V-UNION", FR_VUNION),
    ("Mewtwo V-UNIÃO", "Mewtwo V-UNION", FR_VUNION),
    ("Mewtwo V UNIONE", "Mewtwo V-UNION", FR_VUNION),
    ("Mewtwo V-ASTRO", "Mewtwo VSTAR", DATASETS),
    ("Mewtwo V ASTRO", "Mewtwo VSTAR", DATASETS),
    ("Raichu BREAK", "Raichu BREAK", EN_BREAK),
    ("Raichu-GX-TURBO", "Raichu GX BREAK", LOOKUP),
    ("Acchiappa-Pokémon Eccellente-EX-TURBO", "Acchiappa-Pokémon Eccellente EX BREAK", LOOKUP),
    ("Raichu TURBO", "Raichu BREAK", ES_TURBO),
    ("Raichu-TURBO", "Raichu BREAK", PT_TURBO),
    ("Staross TURBO", "Staross BREAK", FR_TURBO),
    ("Mega Turbo", "Mega Turbo", DATASETS),
    ("M Venusaur-EX", "Mega Venusaur EX", EN_MEGA),
    ("M Venusaur EX", "Mega Venusaur EX", EN_MEGA),
    ("M-Bisaflor EX", "Mega Bisaflor EX", EN_MEGA),
    // Found by the normalizer property test: a stray blank after `M-`.
    ("M- Bisaflor EX", "Mega Bisaflor EX", EN_MEGA),
    ("Mega-Venusaur-EX", "Mega-Venusaur EX", ES_MEGA),
    ("Méga-Florizarre-EX", "Méga-Florizarre EX", FR_MEGA),
    ("Mega Venusaur ex", "Mega Venusaur ex", DATASETS),
    ("Radiant Greninja", "Radiant Greninja", FR_RADIANT),
    ("Amphinobi Radieux", "Amphinobi Radieux", FR_RADIANT),
    ("Greninja Radiante", "Greninja Radiante", FR_RADIANT),
    ("Greninja Lucente", "Greninja Lucente", FR_RADIANT),
    ("Strahlendes Quajutsu", "Strahlendes Quajutsu", FR_RADIANT),
    // Team Plasma is not part of a Pokémon's name; it is part of the Trainers'.
    ("Team Plasma Liepard", "Liepard", EN_PLASMA),
    ("Léopardus de la Team Plasma", "Léopardus", FR_PLASMA),
    ("Liepard del Equipo Plasma", "Liepard", ES_PLASMA),
    ("Liepard da Equipe Plasma", "Liepard", PT_PLASMA),
    ("Team Plasma Ball", "Team Plasma Ball", EN_PLASMA),
    ("Team Plasma Badge", "Team Plasma Badge", EN_PLASMA),
    ("Team Plasma Grunt", "Team Plasma Grunt", EN_PLASMA),
    ("Team Plasma Energy", "Team Plasma Energy", EN_PLASMA),
    ("Team-Plasma-Ball", "Team-Plasma-Ball", DATASETS),
    ("Badge de la Team Plasma", "Badge de la Team Plasma", DATASETS),
    ("Sbire de la Team Plasma", "Sbire de la Team Plasma", DATASETS),
    ("Poké Ball del Equipo Plasma", "Poké Ball del Equipo Plasma", DATASETS),
    ("Medaglia Team Plasma", "Medaglia Team Plasma", DATASETS),
    ("Insígnia da Equipe Plasma", "Insígnia da Equipe Plasma", DATASETS),
    ("Plasma Energy", "Plasma Energy", DATASETS),
    // The pictured person is not part of the name.
    ("Boss's Orders (Giovanni)", "Boss's Orders", DATASETS),
    ("Professor's Research (Professor Oak)", "Professor's Research", DATASETS),
    ("Ordres du Boss (Giovanni)", "Ordres du Boss", DATASETS),
    ("Thought Wave Machine (Rocket's Secret Machine)", "Thought Wave Machine", DATASETS),
    ("PokéDex (HANDY909)", "PokéDex HANDY909", DATASETS),
    ("Ancient TM (Ice)*", "Ancient TM [Ice]", DATASETS),
    ("Unown [A]", "Unown [A]", DATASETS),
    ("Nidoran ♂", "Nidoran♂", DATASETS),
    // Basic Energy: one name per type, in English.
    ("Fire Energy", "Fire Energy", EN_BASIC_ENERGY),
    ("Basic Fire Energy", "Fire Energy", EN_BASIC_ENERGY),
    ("Basic {R} Energy", "Fire Energy", EN_BASIC_ENERGY),
    ("{R} Energy", "Fire Energy", EN_BASIC_ENERGY),
    ("Basic R Energy", "Fire Energy", EN_BASIC_ENERGY),
    ("Énergie Feu", "Fire Energy", FR_BASIC_ENERGY),
    ("Énergie {R} de base", "Fire Energy", FR_BASIC_ENERGY),
    ("Énergie Feu de base", "Fire Energy", FR_BASIC_ENERGY),
    ("Énergie Fire de base", "Fire Energy", FR_BASIC_ENERGY),
    ("Energía Fuego", "Fire Energy", ES_BASIC_ENERGY),
    ("Energía {R} básica", "Fire Energy", ES_BASIC_ENERGY),
    ("Energía Fire Básica", "Fire Energy", ES_BASIC_ENERGY),
    ("Energia de Fogo", "Fire Energy", PT_BASIC_ENERGY),
    ("Energia {R} Básica", "Fire Energy", PT_BASIC_ENERGY),
    ("Feuer-Energie", "Fire Energy", EN_BASIC_ENERGY),
    ("Feuerenergie", "Fire Energy", EN_BASIC_ENERGY),
    ("Basis-{R}-Energie", "Fire Energy", EN_BASIC_ENERGY),
    ("Basis-Fire-Energie", "Fire Energy", EN_BASIC_ENERGY),
    ("Energia Fuoco", "Fire Energy", EN_BASIC_ENERGY),
    ("Energia {R} base", "Fire Energy", EN_BASIC_ENERGY),
    ("Energia base Fire", "Fire Energy", EN_BASIC_ENERGY),
    ("Basic {Y} Energy", "Fairy Energy", EN_BASIC_ENERGY),
    ("Énergie Fée", "Fairy Energy", FR_BASIC_ENERGY),
    ("Pflanzenenergie", "Grass Energy", EN_BASIC_ENERGY),
    ("Energia Noturna", "Darkness Energy", PT_BASIC_ENERGY),
    ("Energía Metálica", "Metal Energy", ES_BASIC_ENERGY),
    ("Double Colorless Energy", "Double Colorless Energy", EN_BASIC_ENERGY),
    ("Reversal Energy", "Reversal Energy", EN_BASIC_ENERGY),
    ("R Energy", "R Energy", DATASETS),
    ("Growing Grass Energy", "Growing Grass Energy", DATASETS),
    ("Energía Grass Creciente", "Energía Grass Creciente", DATASETS),
    ("Energy Switch", "Energy Switch", DATASETS),
];

#[test]
fn canonical_table() {
    for &(printed, expected, cite) in CANONICAL {
        assert_eq!(
            canonical(printed),
            expected,
            "canonical({printed:?}), per {cite:?}"
        );
    }
}

#[test]
fn canonical_table_is_idempotent() {
    for &(printed, _, cite) in CANONICAL {
        let once = canonical(printed);
        assert_eq!(
            canonical(&once),
            once,
            "canonical twice on {printed:?}, per {cite:?}"
        );
        assert_eq!(
            lookup_key(&once),
            lookup_key(printed),
            "{printed:?}, per {cite:?}"
        );
    }
}

/// `(a, b, same key?)`.
#[rustfmt::skip]
const KEYS: &[(&str, &str, bool, Cite)] = &[
    ("Mewtwo ex", "Mewtwo EX", false, EN_EX),
    ("Mewtwo-ex", "Mewtwo ex", true, FR_EX),
    ("Mewtwo-EX", "Mewtwo EX", true, EN_EX),
    ("MEWTWO EX", "Mewtwo-EX", true, EN_EX),
    ("mewtwo ex", "Mewtwo ex", true, FR_EX),
    ("Yveltal", "Yveltal EX", false, FR_EX_BW),
    ("Incineroar-GX", "Incineroar GX", true, EN_GX),
    ("Incineroar", "Incineroar GX", false, EN_GX),
    ("M Venusaur-EX", "Mega Venusaur EX", true, EN_MEGA),
    ("Mega Venusaur EX", "Venusaur EX", false, EN_MEGA),
    ("Mega Venusaur EX", "Mega Venusaur ex", false, EN_MEGA),
    ("Mega-Venusaur-EX", "M Venusaur-EX", true, ES_MEGA),
    ("Mewtwo V-UNIÓN", "Mewtwo V UNIONE", true, FR_VUNION),
    ("Mewtwo V-UNIÃO", "Mewtwo-V-UNION", true, FR_VUNION),
    ("Raichu TURBO", "Raichu BREAK", true, ES_TURBO),
    ("Raichu", "Raichu BREAK", false, EN_BREAK),
    ("Zacian V", "Zacian VMAX", false, LOOKUP),
    ("Zacian V", "Zacian", false, LOOKUP),
    ("Gengar LV.X", "gengar", true, EN_GENGAR),
    ("Alakazam ☆", "Alakazam", false, EN_SYMBOLS),
    ("Alakazam ☆", "Alakazam ★", true, DATASETS),
    ("Giratina ◇", "Giratina {*}", true, EN_PRISM),
    ("Giratina ◇", "Giratina", false, EN_PRISM),
    ("Alolan Meowth", "Meowth", false, EN_MEOWTH),
    ("Rocket's Meowth", "Meowth", false, EN_MEOWTH),
    ("Meowth de Alola", "Meowth", false, ES_OWNER),
    ("Miaouss d'Alola", "Miaouss d’Alola", true, FR_REGIONAL),
    ("Radiant Greninja", "Greninja", false, FR_RADIANT),
    ("Team Plasma Liepard", "Liepard", true, EN_PLASMA),
    ("Liepard del Equipo Plasma", "Liepard", true, ES_PLASMA),
    ("Poké Ball del Equipo Plasma", "Poké Ball", false, DATASETS),
    ("Team Plasma Ball", "Team-Plasma-Ball", true, DATASETS),
    ("pokemon catcher", "Pokémon Catcher", true, LOOKUP),
    ("ENERGIE", "Énergie", true, LOOKUP),
    ("Mr. Mime", "Mr Mime", true, LOOKUP),
    ("Mr.Mime", "Mr Mime", true, LOOKUP),
    ("Porygon-Z", "Porygon Z", true, LOOKUP),
    ("Ho-Oh", "Ho Oh", true, LOOKUP),
    ("Boss's Orders", "Boss’s Orders", true, LOOKUP),
    ("Boss's Orders", "Bosss Orders", true, LOOKUP),
    ("Boss's Orders", "Boss's Orders (Ghetsis)", true, LOOKUP),
    ("Le\u{0301}viator", "Léviator", true, UNICODE),
    ("Nidoran♀", "Nidoran♂", false, DATASETS),
    ("Nidoran ♀", "Nidoran♀", true, DATASETS),
    ("Unown [!]", "Unown [?]", false, DATASETS),
    ("PokéDex (HANDY909)", "PokéDex HANDY909", true, DATASETS),
    ("PokéDex (HANDY909)", "Pokédex", false, DATASETS),
    ("Fire Energy", "Basic {R} Energy", true, EN_BASIC_ENERGY),
    ("Énergie Feu", "Énergie {R} de base", true, FR_BASIC_ENERGY),
    ("Feuer-Energie", "Basis-{R}-Energie", true, EN_BASIC_ENERGY),
    ("Fire Energy", "Water Energy", false, EN_BASIC_ENERGY),
    ("Fire Energy", "R Energy", false, DATASETS),
    // PTCGO exports the types as letters, TCGdex as words, Limitless as symbols.
    ("Blend Energy WLFM", "Blend Energy Water Lightning Fighting Metal", true, DATASETS),
    ("Blend Energy GRPD", "Blend Energy Grass Fire Psychic Darkness", true, DATASETS),
    ("Unit Energy LPM", "Unit Energy LightningPsychicMetal", true, DATASETS),
    ("Unit Energy {L}{P}{M}", "Unit Energy LightningPsychicMetal", true, DATASETS),
    ("Unit Energy FDY", "Unit Energy FightingDarknessFairy", true, DATASETS),
    ("Énergie Unitaire FDY", "Énergie Unitaire FightingDarknessFairy", true, DATASETS),
    ("Unit Energy LPM", "Unit Energy GRW", false, DATASETS),
    ("Blend Energy WLFM", "Blend Energy GRPD", false, DATASETS),
    ("Unit Energy LP", "Unit Energy LPM", false, DATASETS),
    ("(*", "(", true, LOOKUP),
    ("'(Giovanni)", "'", true, LOOKUP),
    // Event records of AlexWilsonNC/ptcg-story (2023-24 NAIC, Regionals) label special
    // Energy and ACE SPECs after the name.
    ("Double Turbo Energy - Special", "Double Turbo Energy", true, DATASETS),
    ("Prime Catcher - ACESPEC", "Prime Catcher", true, DATASETS),
    ("Hero's Cape - ACE SPEC", "Hero's Cape", true, DATASETS),
    // pokedata's record of the 2024 World Championships gives both labels.
    ("Legacy Energy - Special - ACESPEC", "Legacy Energy", true, DATASETS),
    ("Neo Upper Energy - Special - ACESPEC", "Neo Upper Energy", true, DATASETS),
    ("Legacy Energy - Special - Rare", "Legacy Energy", false, DATASETS),
    ("Porygon-Z", "Porygon", false, DATASETS),
];

#[test]
fn lookup_key_table() {
    for &(a, b, same, cite) in KEYS {
        let (ka, kb) = (lookup_key(a), lookup_key(b));
        assert_eq!(
            ka == kb,
            same,
            "{a:?} -> {ka:?}, {b:?} -> {kb:?}, per {cite:?}"
        );
    }
}

/// `canonical_pokemon` strips the tag even where `canonical` keeps it for a Trainer word.
#[rustfmt::skip]
const POKEMON: &[(&str, &str, Cite)] = &[
    ("Team Plasma Liepard", "Liepard", EN_PLASMA),
    ("Liepard del Equipo Plasma", "Liepard", ES_PLASMA),
    ("Liepard da Equipe Plasma", "Liepard", PT_PLASMA),
    ("Léopardus de la Team Plasma", "Léopardus", FR_PLASMA),
    ("Team Plasma Liepard δ", "Liepard", EN_DELTA),
    ("Team Plasma Giratina ◇", "Giratina ◇", EN_SYMBOLS),
    ("Team Plasma Ball", "Ball", EN_PLASMA),
    ("Meowth del Team Rocket", "Meowth del Team Rocket", ES_OWNER),
];

#[test]
fn canonical_pokemon_table() {
    for &(printed, expected, cite) in POKEMON {
        assert_eq!(
            canonical_pokemon(printed),
            expected,
            "{printed:?}, per {cite:?}"
        );
    }
}

#[rustfmt::skip]
const FOLD: &[(&str, &str)] = &[
    ("Pokémon Catcher", "pokemon catcher"),
    ("Boss’s Orders", "bosss orders"),
    ("Mr. Mime", "mr mime"),
    ("Porygon-Z", "porygon z"),
    ("ÉNERGIE", "energie"),
    ("Furnifraß", "furnifrass"),
    ("Nœunœuf", "noeunoeuf"),
    ("Hôtel « Au paradis des Pokémon »", "hotel au paradis des pokemon"),
    ("Mewtwo EX", "mewtwo ex"),
    ("  Nidoran♀\t", "nidoran♀"),
];

#[test]
fn fold_table() {
    for &(input, expected) in FOLD {
        assert_eq!(fold(input), expected, "fold({input:?})");
    }
}

#[test]
fn lookup_key_shows_the_ex_distinction() {
    insta::assert_snapshot!(
        [
            "Mewtwo ex",
            "Mewtwo-EX",
            "M Venusaur-EX",
            "Basic {R} Energy",
            "Team Plasma Liepard",
            "Boss’s Orders (Giovanni)",
        ]
        .map(|name| format!("{name} => {}", lookup_key(name)))
        .join("\n"),
        @r"
    Mewtwo ex => mewtwo ex
    Mewtwo-EX => mewtwo EX
    M Venusaur-EX => mega venusaur EX
    Basic {R} Energy => fire energy
    Team Plasma Liepard => liepard
    Boss’s Orders (Giovanni) => bosss orders
    "
    );
}

#[test]
fn never_empty_and_never_panics_on_odd_input() {
    for input in [
        "",
        " ",
        "'",
        "-",
        "δ",
        "◇",
        "(Giovanni)",
        "*",
        "{*}",
        "Star",
        "LV.X",
        "Team Plasma",
        "Team Plasma ",
        "((",
        "))",
        "M EX",
        "-EX",
        "ex",
    ] {
        let key = lookup_key(input);
        if !input.trim().is_empty() {
            assert!(!key.is_empty(), "lookup_key({input:?}) is empty");
        }
        assert_eq!(canonical(&canonical(input)), canonical(input), "{input:?}");
    }
}

/// PTCG Live exports write a special Energy's type as its printed symbol in braces:
/// `4 Telepathic {P} Energy POR 88`, `2 Nitro {R} Energy CRI 86`, `4 Rocky {F} Energy POR 87`
/// (tests/corpus/lists/codes4tcg/yt-2026-08-21-snipe-the-bench-tppywini6cg-1.txt line 32,
/// community-1784333501559-1.txt line 33, yt-2026-08-22-littledarkfury-naegag8k8au-1.txt
/// line 23). They name the card printed "Telepathic Psychic Energy"; a basic Energy and a
/// name that does not end in "Energy" keep their reading.
#[test]
fn special_energy_with_its_type_symbol_is_the_printed_name() {
    for (written, printed) in [
        ("Telepathic {P} Energy", "Telepathic Psychic Energy"),
        ("Nitro {R} Energy", "Nitro Fire Energy"),
        ("Rocky {F} Energy", "Rocky Fighting Energy"),
        ("Speed {L} Energy", "Speed Lightning Energy"),
        ("Voltaic {L} Energy", "Voltaic Lightning Energy"),
        ("Stone {F} Energy", "Stone Fighting Energy"),
        ("Luminous {D} Energy", "Luminous Darkness Energy"),
    ] {
        assert_eq!(canonical(written), canonical(printed), "{written}");
        assert_eq!(lookup_key(written), lookup_key(printed), "{written}");
        assert!(!is_basic_energy_name(written), "{written}");
    }
    assert_eq!(canonical("Basic {P} Energy"), "Psychic Energy");
    assert_eq!(canonical("Blend Energy {G}{R}{P}{D}"), "Blend Energy GRPD");
    assert_eq!(canonical("Unown {P} Card"), "Unown {P} Card");
    // A symbol glued to a suffix is spelled once the suffix is split off, in one pass (the
    // names fuzz target found `{P}-ex` left as `{P} ex`, then spelled on a second pass).
    let glued = canonical("Rocky {F}-ex Energy");
    assert_eq!(glued, "Rocky Fighting ex Energy");
    assert_eq!(canonical(&glued), glued);
}

/// The sex of a Nidoran is a symbol at the end of its name, part of the name ("Symbols at
/// the end of a Pokémon's name are part of a Pokémon's name", rulebook-en-sun-moon.txt,
/// "What Does and Doesn't Count for a Pokémon's Name?"): the cards print `Nidoran♀` and
/// `Nidoran♂` (TCGdex's English `Nidoran ♀`, pokemon-tcg-data's `Nidoran♀`), TCGdex's
/// German ones `Nidoran W` and `Nidoran M` (or `m`, `w`: weiblich, männlich), and lists
/// typed without the symbols write a letter: `2 Nidoran F pl2-71`
/// (tests/corpus/lists/ptcg-sim/2007-2009-dandp-p--16-abomasnow-ampharos.txt, line 7),
/// `Nidoran (F)`, `Nidoran Female`. Each is the one name, never the other sex's; other
/// names that end in a capital letter keep it.
#[test]
fn nidoran_with_its_sex_in_letters() {
    for (female, male) in [
        ("Nidoran F", "Nidoran M"),
        ("Nidoran (F)", "Nidoran (M)"),
        ("Nidoran f", "Nidoran m"),
        ("nidoran female", "NIDORAN MALE"),
        ("Nidoran-F", "Nidoran-M"),
        ("Nidoran W", "Nidoran M"),
        ("Nidoran w", "Nidoran m"),
        ("Nidoran ♀", "Nidoran ♂"),
        ("Nidoran♀", "Nidoran♂"),
        ("Nidoran F δ", "Nidoran M δ"),
        ("Nidoran W Lv. 12", "Nidoran m Lv.14"),
    ] {
        assert_eq!(lookup_key(female), lookup_key("Nidoran♀"), "{female}");
        assert_eq!(lookup_key(male), lookup_key("Nidoran♂"), "{male}");
    }
    assert_eq!(canonical("Nidoran F"), "Nidoran♀");
    assert_eq!(canonical("Nidoran (M)"), "Nidoran♂");
    assert_eq!(
        canonical("Team Rocket's Nidoran F"),
        "Team Rocket's Nidoran♀"
    );
    assert_eq!(
        canonical(&canonical("Nidoran (F)")),
        canonical("Nidoran (F)")
    );
    assert_ne!(lookup_key("Nidoran F"), lookup_key("Nidoran♂"));
    assert_ne!(lookup_key("Nidoran M"), lookup_key("Nidoran♀"));
    // Only the word Nidoran takes a sex; other names keep their last letter.
    assert_eq!(canonical("Porygon Z"), "Porygon Z");
    assert_eq!(canonical("Unown F"), "Unown F");
    assert_eq!(canonical("Nidorina F"), "Nidorina F");
    assert_eq!(canonical("Xnidoran F"), "Xnidoran F");
}

/// Indexing a database calls `lookup_key` ~150k times: it must stay at a few µs per call.
/// Timing is only meaningful optimized: `cargo test --release --lib names -- --ignored`.
#[test]
#[ignore = "timing; run with --release"]
fn lookup_key_is_fast() {
    let names: Vec<&str> = CANONICAL.iter().map(|&(printed, _, _)| printed).collect();
    let calls = 150_000;
    let start = std::time::Instant::now();
    let mut total = 0;
    for i in 0..calls {
        total += lookup_key(names[i % names.len()]).len();
    }
    let per_call = start.elapsed() / calls as u32;
    assert!(total > 0);
    if cfg!(not(debug_assertions)) {
        assert!(per_call.as_micros() < 5, "{per_call:?} per lookup_key call");
    }
}
