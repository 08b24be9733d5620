//! What must hold for any input, as functions that panic when it does not: shared by the
//! fuzz targets (fuzz/fuzz_targets, which include this file by path) and by the tests that
//! replay the inputs the fuzzers found (tests/fuzz_regressions.rs) and generate lists
//! (tests/fmt_props.rs). Each takes raw bytes, as a fuzzer gives them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    dead_code,
    reason = "oracles fail loudly; each user calls some of them"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use deckbox::cards::sources::{from_pokemontcg, from_tcgdex};
use deckbox::cards::storage::embedded;
use deckbox::cards::{CardDb, Source};
use deckbox::check::rules::Rule;
use deckbox::check::{self, CheckedDeck};
use deckbox::deck::DeckInput;
use deckbox::deck::{DeckList, Span};
use deckbox::edit::listing::{self, Layout};
use deckbox::formats::Format;
use deckbox::names::lang::Language;
use deckbox::{names, render};

/// The embedded card index, opened once.
pub fn embedded_db() -> &'static CardDb {
    static DB: OnceLock<CardDb> = OnceLock::new();
    DB.get_or_init(|| embedded::open().unwrap())
}

/// The built-in formats fmt must keep verdicts under: the default first.
pub fn formats() -> &'static [Format] {
    static FORMATS: OnceLock<Vec<Format>> = OnceLock::new();
    FORMATS.get_or_init(|| {
        ["unlimited", "standard"]
            .into_iter()
            .map(|id| Format::load(id).unwrap())
            .collect()
    })
}

/// Splits a fuzzer's input in two at the first `\n---\n` (the second part empty if none).
pub fn split_two(bytes: &[u8]) -> (&[u8], &[u8]) {
    const SEPARATOR: &[u8] = b"\n---\n";
    match bytes.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
        Some(at) => (&bytes[..at], &bytes[at + SEPARATOR.len()..]),
        None => (bytes, &[]),
    }
}

fn assert_span(text: &str, span: Span, what: &str) {
    let end = span.offset.checked_add(span.length).unwrap();
    assert!(end <= text.len(), "{what} span {span:?} past the end");
    assert!(
        text.is_char_boundary(span.offset) && text.is_char_boundary(end),
        "{what} span {span:?} splits a character"
    );
}

/// Every span of a parsed list lies in the text, on character boundaries.
pub fn assert_spans(text: &str, list: &DeckList) {
    for card in &list.cards {
        for span in [card.span, card.count_span, card.name_span] {
            assert_span(text, span, "card");
        }
        assert!(card.count >= 1 && card.count <= deckbox::deck::MAX_COUNT);
    }
    for header in &list.headers {
        assert_span(text, header.span, "header");
    }
    for issue in &list.issues {
        assert_span(text, issue.span, "issue");
    }
}

/// The deck-list reader and the whole check pipeline on any bytes: decoding, parsing,
/// identifying against the embedded card index, the rules of the default format, and every
/// report renderer. Nothing panics and every span is valid.
pub fn check_any(bytes: &[u8]) {
    let input = DeckInput::from_bytes("fuzz.txt", bytes);
    let list = deckbox::deck::parse(&input.text);
    assert_spans(&input.text, &list);
    let deck = check::check(&input, embedded_db(), &formats()[0]);
    for diagnostic in &deck.diagnostics {
        if let Some(span) = diagnostic.span {
            assert_span(&deck.source, span, "diagnostic");
        }
    }
    let human = render::human(&deck, render::HumanOptions::default());
    assert!(!has_raw_hidden(&human), "raw control character: {human:?}");
    let short = render::short(&deck);
    assert!(!has_raw_hidden(&short), "raw control character: {short:?}");
    let decks = [deck];
    let json = render::json(&decks, embedded_db());
    serde_json::from_str::<serde_json::Value>(&json).unwrap();
    let sarif = render::stream::sarif(&decks, &[]);
    serde_json::from_str::<serde_json::Value>(&sarif).unwrap();
}

/// Characters that must never reach a terminal raw: escape sequences, bidi controls,
/// zero-width characters, line separators and tag characters inside text. A file's own BOM may start the text, or a quoted
/// source line (`1 │ \u{FEFF}Pokémon: 12`: kept at the start of the file so that spans stay
/// byte offsets, a terminal shows nothing for it; anywhere else it is escaped).
pub fn has_raw_hidden(text: &str) -> bool {
    text.char_indices().any(|(i, c)| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{E0000}'..='\u{E007F}')
            || (c == '\u{FEFF}' && i > 0 && !text[..i].ends_with(" │ "))
    })
}

/// The rule ids of a deck's findings, without the ones formatting is meant to fix.
pub fn verdict(deck: &CheckedDeck) -> (bool, BTreeSet<&'static str>) {
    let ids = deck
        .diagnostics
        .iter()
        .filter(|d| {
            !matches!(
                d.rule,
                Rule::HeaderCount | Rule::WrongSection | Rule::Encoding | Rule::ReadAs
            )
        })
        .map(|d| d.rule.id())
        .collect();
    (deck.valid(), ids)
}

/// Cards by resolved printing (unknown cards by written name).
pub fn cards(deck: &CheckedDeck) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for card in &deck.cards {
        let key = match card.printing {
            Some(id) => format!("#{id}"),
            None => format!("?{}", card.line.name),
        };
        *out.entry(key).or_insert(0) += u64::from(card.line.count);
    }
    out
}

/// Cards by printing when the line's set code and number name it, else by rules name (a
/// name alone picks the newest printing in the list's language, which can be another
/// printing of the same card), unknown cards by written name.
pub fn cards_by_printing(deck: &CheckedDeck, db: &CardDb) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for card in &deck.cards {
        let printing = card.printing.and_then(|id| db.get(id));
        let by_code = match (card.printing, &card.line.set, &card.line.number) {
            (Some(id), Some(set), Some(number)) => db.by_set_number(set, number).contains(&id),
            // `Lugia V  138`: a number alone names the printing of that name and number.
            (Some(_), None, Some(number)) => printing.is_some_and(|p| p.has_written_number(number)),
            _ => false,
        };
        let key = match printing {
            Some(_) if by_code => format!("#{}", card.printing.unwrap()),
            Some(printing) => format!("={}", printing.rules_name()),
            None => format!("?{}", card.line.name),
        };
        *out.entry(key).or_insert(0) += u64::from(card.line.count);
    }
    out
}

/// `fmt`'s promises on one input: formatting twice changes nothing, the result is
/// canonical and reads back without issues, and under every format in `formats` the
/// verdict (apart from what formatting fixes) and the cards are kept. `Err` when fmt
/// refuses the input (unreadable lines, an unknown card under no header), with fmt's
/// reason.
pub fn fmt_properties(
    name: &str,
    input: &DeckInput,
    db: &CardDb,
    formats: &[Format],
) -> Result<String, String> {
    let format = formats.first().unwrap();
    let once = listing::format(input, db, format).map_err(|refusal| refusal.to_string())?;
    let again = DeckInput::from_bytes(name, once.formatted.as_bytes());
    let twice = listing::format(&again, db, format).unwrap();
    assert_eq!(
        twice.formatted, once.formatted,
        "{name}: formatting twice changed the list"
    );
    assert!(twice.is_canonical(), "{name}");
    for format in formats {
        let before = check::check(input, db, format);
        let after = check::check(&again, db, format);
        assert_eq!(
            verdict(&after),
            verdict(&before),
            "{name} ({}): verdict changed\n{}",
            format.id,
            once.formatted
        );
        assert_eq!(cards(&after), cards(&before), "{name}: cards changed");
        assert_eq!(after.list.issues, Vec::new(), "{name}: output reads back");
    }
    Ok(once.formatted)
}

/// `fmt` round trip on any bytes with the embedded card index, then `convert` to the language the
/// first byte picks, printed in every layout: each reads back without issues (JSON with every
/// card).
pub fn fmt_any(bytes: &[u8]) {
    let input = DeckInput::from_bytes("fuzz.txt", bytes);
    if let Err(why) = fmt_properties("fuzz.txt", &input, embedded_db(), formats()) {
        // Refused: exactly when the reader found unreadable lines, or a card it does not
        // know sits under no header.
        assert!(
            !deckbox::deck::parse(&input.text).issues.is_empty()
                || why.contains("is no card deckbox knows")
                || json_refusal(&why),
            "{why}"
        );
        return;
    }
    let deck = check::check(&input, embedded_db(), &formats()[0]);
    let language = Language::ALL[usize::from(bytes.first().copied().unwrap_or(0)) % 6];
    let (converted, _) = listing::convert(&deck, embedded_db(), language).unwrap();
    for layout in [Layout::Ptcgl, Layout::Ptcgo, Layout::Limitless] {
        let text = listing::render(&converted, layout);
        let list = deckbox::deck::parse(&text);
        assert_eq!(list.issues, Vec::new(), "{layout:?}:\n{text}");
    }
    let json = listing::render(&converted, Layout::Json);
    serde_json::from_str::<serde_json::Value>(&json).unwrap();
    // deckbox reads its own JSON back: no issues, every card.
    let list = deckbox::deck::parse(&json);
    assert_eq!(list.issues, Vec::new(), "json:\n{json}");
    let total: u64 = list.cards.iter().map(|card| u64::from(card.count)).sum();
    assert_eq!(total, converted.total(), "json:\n{json}");
}

/// `text` without the blanks the deck reader skips around a JSON list.
fn trim_blank(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{200B}'))
}

/// Whether fmt refused a JSON list for what its layout cannot keep (keys deckbox's own
/// layout has no place for, card objects that disagree on a key when merged).
fn json_refusal(why: &str) -> bool {
    why.contains("has no place for") || why.contains("merging them would drop")
}

/// Keys of a JSON deck list that deckbox reads or writes itself; every other member must
/// survive `fmt`. In deckbox's own layout (`own`), also what that layout recomputes.
fn deckbox_key(key: &str, own: bool) -> bool {
    let key = key.trim().to_lowercase();
    deckbox::deck::CardField::of(&key).is_some()
        || deckbox::deck::section_named(&key).is_some()
        || [
            "sections", "language", "comments", "decklist", "deck", "list",
        ]
        .contains(&key.as_str())
        || (own && ["english", "total", "section", "cards"].contains(&key.as_str()))
}

/// Every member of every object in `value` whose key deckbox does not read, as
/// `(key, value as JSON)`.
fn foreign_members(value: &serde_json::Value, own: bool, out: &mut BTreeSet<(String, String)>) {
    match value {
        serde_json::Value::Object(members) => {
            for (key, member) in members {
                if deckbox_key(key, own) {
                    foreign_members(member, own, out);
                } else {
                    out.insert((key.clone(), member.to_string()));
                }
            }
        }
        serde_json::Value::Array(elements) => {
            for element in elements {
                foreign_members(element, own, out);
            }
        }
        _ => {}
    }
}

/// A JSON deck list from any bytes (the `json` fuzz target): it is read or refused as no
/// deck list, never half-read; a refusal points into the text; a list read keeps every
/// span in the text; `fmt` of a list read keeps every member deckbox does not read (with
/// its value) and is idempotent, or refuses with a reason.
pub fn json_any(bytes: &[u8]) {
    let input = DeckInput::from_bytes("fuzz.json", bytes);
    let text = &input.text;
    let list = match deckbox::deck::read_json(text) {
        Ok(list) => list,
        Err(refused) => {
            assert_span(text, refused.span, "refusal");
            assert!(refused.line >= 1 && refused.column >= 1, "{refused:?}");
            assert!(!refused.why.is_empty());
            // The infallible reader says the same, as its one issue.
            let parsed = deckbox::deck::parse(text);
            if parsed.layout == Some(deckbox::deck::Layout::Json) {
                assert!(parsed.cards.is_empty(), "a refused text has no card");
                assert_eq!(parsed.issues.len(), 1, "{:?}", parsed.issues);
            }
            return;
        }
    };
    assert_spans(text, &list);
    let original: serde_json::Value =
        serde_json::from_str(trim_blank(text)).expect("a list read is valid JSON");
    let formatted = match listing::format(&input, embedded_db(), &formats()[0]) {
        Ok(formatted) => formatted.formatted,
        Err(refusal) => {
            let why = refusal.to_string();
            assert!(
                !list.issues.is_empty()
                    || why.contains("is no card deckbox knows")
                    || json_refusal(&why),
                "{why}"
            );
            return;
        }
    };
    let rewritten: serde_json::Value = serde_json::from_str(trim_blank(&formatted))
        .unwrap_or_else(|error| panic!("fmt wrote invalid JSON ({error}):\n{formatted}"));
    let own = original.as_object().is_some_and(|members| {
        members
            .keys()
            .any(|key| key.trim().eq_ignore_ascii_case("sections"))
    });
    let (mut before, mut after) = (BTreeSet::new(), BTreeSet::new());
    foreign_members(&original, own, &mut before);
    foreign_members(&rewritten, own, &mut after);
    let lost: Vec<_> = before.difference(&after).collect();
    assert!(
        lost.is_empty(),
        "fmt lost {lost:?}:\n{text}\n---\n{formatted}"
    );
    let again = DeckInput::from_bytes("fuzz.json", formatted.as_bytes());
    let twice = listing::format(&again, embedded_db(), &formats()[0])
        .unwrap_or_else(|refusal| panic!("fmt refuses its own output ({refusal}):\n{formatted}"));
    assert_eq!(
        twice.formatted, formatted,
        "formatting twice changed the list"
    );
}

/// Name normalization on any text: the canonical name and the folded form are fixed
/// points (normalizing again changes nothing), and a name and its canonical name look up
/// the same key. (`lookup_key` itself is not a projection: it is compared, never applied
/// twice; `Foo-Lv.X` keys as `foo lv x`, which keys as `foo`.)
pub fn names_any(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let canonical = names::canonical(text);
    assert_eq!(
        names::canonical(&canonical),
        canonical,
        "canonical of {text:?}"
    );
    let pokemon = names::canonical_pokemon(text);
    assert_eq!(
        names::canonical_pokemon(&pokemon),
        pokemon,
        "canonical_pokemon of {text:?}"
    );
    assert_eq!(
        names::lookup_key(&canonical),
        names::lookup_key(text),
        "key of {text:?} and of its canonical name"
    );
    let folded = names::fold(text);
    assert_eq!(names::fold(&folded), folded, "fold of {text:?}");
}

/// The TCGdex record reader on any text: a module, a bare value, and a set plus a card
/// (split at `\n---\n`) mapped to a printing, whose derived names must not panic.
pub fn tcgdex_any(bytes: &[u8]) {
    let (set, card) = split_two(bytes);
    let (Ok(set), Ok(card)) = (std::str::from_utf8(set), std::str::from_utf8(card)) else {
        return;
    };
    let _ = from_tcgdex::literal::parse_module(set);
    let _ = from_tcgdex::literal::parse_value(set);
    if let Ok(printing) = from_tcgdex::card_from_text(set, card, "1", "fuzz") {
        let _ = printing.rules_name();
        let _ = CardDb::new(Source::Embedded, vec![printing]);
    }
}

/// The pokemon-tcg-data reader on any bytes: a set object and a card array (split at
/// `\n---\n`), mapped to printings and indexed.
pub fn pokemontcg_any(bytes: &[u8]) {
    let (set, cards) = split_two(bytes);
    if let Ok(printings) = from_pokemontcg::printings_from_json(set, cards) {
        for printing in &printings {
            let _ = printing.rules_name();
        }
        let _ = CardDb::new(Source::Embedded, printings);
    }
}

/// A format file on any text: loaded or refused with an error, and when loaded, a real
/// deck checked under it.
pub fn format_any(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(format) = Format::parse(Path::new("fuzz.toml"), text) else {
        return;
    };
    let deck = "Pokémon: 4\n4 Pikachu SVI 63\nTrainer: 4\n4 Iono PAL 185\nEnergy: 4\n4 Basic {L} Energy SVE 4\n";
    let input = DeckInput::from_bytes("deck.txt", deck.as_bytes());
    let checked = check::check(&input, embedded_db(), &format);
    let _ = render::short(&checked);
    let _ = render::formats::show(&format);
}

/// The `--want` query language on any text: parsing never panics and every span lies on
/// the input's character boundaries; a query that parses is evaluated exactly (every window,
/// as an event when it has turns, and mid-game) on a small deck without a panic, every
/// probability between 0 and 1; a budget or size error is an error, not a hang.
pub fn query_any(bytes: &[u8]) {
    use deckbox::formats::{Going, Setup};
    use deckbox::stats::midgame::Table;
    use deckbox::stats::{DeckShape, query};
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let parsed = match query::parse(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            let (offset, length) = (error.span.offset(), error.span.len());
            assert!(offset + length <= text.len(), "{text:?}: {error:?}");
            assert!(text.is_char_boundary(offset) && text.is_char_boundary(offset + length));
            return;
        }
    };
    for term in &parsed.terms {
        for name in &term.names {
            let span = name.span;
            assert_eq!(text.get(span.offset..span.end()), Some(name.text.as_str()));
        }
        assert!(text.get(term.span.offset..term.span.end()).is_some());
    }
    // Five kinds: A 4 Basic, B 3, C 2 Basic, D 1, E 20; a name is the kind of its length.
    let shape = DeckShape::new([(4, true), (3, false), (2, true), (1, false), (20, false)]);
    let resolved = parsed
        .resolve(|name| Ok::<_, ()>(name.text.len() % 5))
        .unwrap();
    let rules = Setup {
        hand_size: 5,
        prizes: 3,
        ..Setup::default()
    };
    let unit = |p: deckbox::stats::Ratio| assert!(p.numer() <= p.denom(), "{text:?}: {p:?}");
    if resolved.has_turns() {
        if let Ok(odds) = resolved.event(&shape, &rules, Going::Second) {
            unit(odds.kept);
            unit(odds.single_shuffle);
        }
    } else if let Ok(odds) = resolved.odds(&shape, &rules, 3, Going::First) {
        for p in [
            odds.hand,
            odds.hand_single_shuffle,
            odds.prizes,
            odds.prizes_single_shuffle,
        ] {
            unit(p);
        }
        odds.by_turn.iter().copied().for_each(unit);
        let table = Table {
            unknown: vec![3, 2, 2, 1, 15],
            back: vec![1, 0, 0, 0, 0],
            prizes: 3,
            draws: 4,
        };
        if let Ok(p) = table.query(&resolved) {
            unit(p);
        }
    }
}

/// A small database for the search oracle: every 70th printing of the embedded index (about
/// 300 of every kind and era), so each query runs in milliseconds.
fn search_db() -> &'static CardDb {
    static DB: OnceLock<CardDb> = OnceLock::new();
    DB.get_or_init(|| {
        let some = embedded_db().iter().step_by(70).map(|(_, p)| p.clone());
        CardDb::new(Source::Embedded, some.collect())
    })
}

/// Any text as a `deckbox search` query: parsing finishes, an error's span lies on character
/// boundaries inside the text, and a query that parses runs over a real database, finding
/// printings of that database only, each once, and the same ones twice.
pub fn search_any(bytes: &[u8]) {
    use deckbox::search;
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let db = search_db();
    match search::search(db, text) {
        Ok(found) => {
            assert!(found.windows(2).all(|w| w[0] < w[1]), "{text:?}");
            assert!(found.iter().all(|&id| db.get(id).is_some()));
            assert_eq!(search::search(db, text).ok(), Some(found.clone()));
            let groups = search::group(db, &found, Language::Fr, false, search::Sort::Set);
            let grouped: usize = groups.iter().map(|g| g.printings.len()).sum();
            assert_eq!(grouped, found.len());
        }
        Err(error) => {
            let (offset, end) = (error.span.offset, error.span.end());
            assert!(end <= text.len(), "{text:?}: {error:?}");
            assert!(
                text.is_char_boundary(offset) && text.is_char_boundary(end),
                "{text:?}: {error:?}"
            );
            let shown = render::search::error(text, &error);
            assert!(shown.starts_with("error: "));
        }
    }
}

/// Settings for [`editor_any`]: Standard at a fixed date, no config file, opened once.
fn editor_settings() -> &'static deckbox::settings::Settings {
    static SETTINGS: OnceLock<deckbox::settings::Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| {
        let flags = deckbox::settings::Flags {
            format: Some("standard".into()),
            no_config: true,
            as_of: Some("2026-11-25".parse().unwrap()),
            ..Default::default()
        };
        deckbox::settings::Settings::resolve(&flags).unwrap()
    })
}

/// Any bytes as the buffer an editor sends `deckbox lsp` (the text, then after `\n---\n`
/// bytes that pick the positions asked about): analysing finishes; every finding, related
/// line, fix edit, hover, completion and outline span lies on character boundaries inside
/// the buffer; completion offers at most `MAX_COMPLETIONS`; and positions survive the trip
/// to (line, UTF-16 column) and back.
pub fn editor_any(bytes: &[u8]) {
    use deckbox::session::editor::{self, Lines, MAX_COMPLETIONS};
    let (text, picks) = split_two(bytes);
    let text = String::from_utf8_lossy(text);
    let settings = editor_settings();
    let db = &settings.db;
    let Ok(buffer) = editor::analyse(settings, Path::new("deck.txt"), &text) else {
        return;
    };
    for finding in buffer.findings() {
        assert_span(&text, finding.span, "finding");
        for (span, _) in &finding.related {
            assert_span(&text, *span, "related line");
        }
        for fix in buffer.fixes(db, &finding) {
            for edit in &fix.edits {
                assert_span(&text, edit.span, "fix edit");
            }
        }
    }
    for symbol in buffer.symbols() {
        assert_span(&text, symbol.span, "symbol");
    }
    let _ = buffer.formatted(db);
    let _ = buffer.summary(db);
    let lines = Lines::new(&text);
    let mut offsets = vec![0, text.len()];
    offsets.extend(
        picks
            .iter()
            .take(8)
            .map(|&b| usize::from(b) * text.len() / 255),
    );
    for offset in offsets {
        let offset = (0..=offset)
            .rev()
            .find(|&at| text.is_char_boundary(at))
            .unwrap_or(0);
        if let Some((span, _)) = buffer.hover(db, offset) {
            assert_span(&text, span, "hover");
        }
        let (span, candidates) = buffer.complete(db, offset);
        assert_span(&text, span, "completion");
        assert!(candidates.len() <= MAX_COMPLETIONS);
        let (line, column) = lines.position(offset);
        assert_eq!(lines.offset(line, column), offset, "{text:?} at {offset}");
    }
}

/// Any bytes as git's answers to `deckbox review` and `deckbox log` (a `diff --name-status
/// -z` listing, then after `\n---\n` a `log -z` one): reading finishes, with an error or
/// with no more changes than the answer has fields.
pub fn git_any(bytes: &[u8]) {
    use deckbox::session::git;
    let (diff, log) = split_two(bytes);
    if let Ok(changes) = git::parse_changes(diff) {
        assert!(changes.len() <= diff.iter().filter(|&&b| b == 0).count() + 1);
    }
    if let Ok(commits) = git::parse_log(log) {
        assert!(commits.len() <= log.iter().filter(|&&b| b == 0).count() + 1);
        assert!(commits.iter().all(|c| c.hash.len() >= 40));
    }
}

/// Any text as what an MCP client sends `deckbox mcp` about files: a root's `file://` URI
/// (decoded to an absolute path or refused), a path to confine to one root (inside it or
/// refused), and a page cursor (a page inside the list or refused).
pub fn assist_any(bytes: &[u8]) {
    use deckbox::session::assist::{self, Roots};
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Some(path) = assist::file_uri_path(text) {
        assert!(path.is_absolute(), "{text:?} gave {path:?}");
    }
    static ROOT: OnceLock<std::path::PathBuf> = OnceLock::new();
    let root = ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join("deckbox-assist-oracle");
        std::fs::create_dir_all(root.join("decks")).unwrap();
        std::fs::write(root.join("decks/deck.txt"), "4 Pikachu\n").unwrap();
        root.canonicalize().unwrap()
    });
    let roots = Roots::new(Some(std::slice::from_ref(root))).unwrap();
    if let Ok(path) = roots.confine(Path::new(text)) {
        let real = path.canonicalize().unwrap_or(path.clone());
        assert!(real.starts_with(root), "{text:?} escaped to {path:?}");
    }
    let items: Vec<u32> = (0..7).collect();
    for limit in [None, Some(1), Some(3)] {
        if let Ok((page, next)) = assist::page(&items, Some(text), limit) {
            assert!(page.len() <= 7);
            if let Some(next) = next {
                assert!(next.parse::<usize>().unwrap() <= items.len());
            }
        }
    }
}

/// The Dragapult example checked in Standard at a fixed date, for [`mcp_any`].
fn stats_checked() -> &'static deckbox::check::CheckedDeck {
    static DECK: OnceLock<deckbox::check::CheckedDeck> = OnceLock::new();
    DECK.get_or_init(|| {
        let text = include_str!("../../examples/dragapult.txt");
        let settings = editor_settings();
        let path = Path::new("-");
        let mut stdin = text.as_bytes();
        deckbox::session::read_and_check(path, settings, &mut stdin, &mut false)
            .unwrap()
            .2
    })
}

/// Any bytes as the arguments object of a `deckbox mcp` tool call: the values its tools
/// hand the library as they are (`as_of`, `cursor` and `limit`; `opening_odds`' `want`,
/// `count_as` and `turns`; `midgame_odds`' `seen`, `shuffle_back`, `draws` and `prizes`,
/// within the bounds the tools check first) reach those calls on the Dragapult example:
/// a value or an error, never a panic, every probability between 0 and 1.
pub fn mcp_any(bytes: &[u8]) {
    use deckbox::formats::Going;
    use deckbox::stats::{StatsDeck, StatsRequest, midgame};
    let Ok(serde_json::Value::Object(args)) = serde_json::from_slice::<serde_json::Value>(bytes)
    else {
        return;
    };
    let text = |key: &str| args.get(key).and_then(serde_json::Value::as_str);
    let number = |key: &str| args.get(key).and_then(serde_json::Value::as_u64);
    let texts = |key: &str| -> Vec<String> {
        let list = args.get(key).and_then(serde_json::Value::as_array);
        (list.into_iter().flatten())
            .filter_map(|value| value.as_str().map(str::to_string))
            .take(32)
            .collect()
    };
    if let Some(date) = text("as_of") {
        let _ = deckbox::util::date::parse(date);
    }
    let items: Vec<u32> = (0..250).collect();
    if let Ok((page, next)) =
        deckbox::session::assist::page(&items, text("cursor"), number("limit").map(|n| n as usize))
    {
        assert!(page.len() <= 100);
        if let Some(next) = next {
            assert!(next.parse::<usize>().unwrap() <= items.len());
        }
    }
    let settings = editor_settings();
    let deck = StatsDeck::from_checked(stats_checked(), &settings.db).unwrap();
    let (want, count_as) = (texts("want"), texts("count_as"));
    let turns = number("turns").unwrap_or(4).min(4) as u32;
    if turns > 0 && args.contains_key("want") {
        let request = StatsRequest {
            setup: &settings.format.setup,
            turns,
            going: Going::Second,
            want: &want,
            count_as: &count_as,
            exactly: false,
            simulate: None,
        };
        if let Ok(report) = deck.report(&request, &deckbox::util::progress::Quiet) {
            let json = serde_json::to_value(&report).unwrap();
            assert!(json.is_object());
        }
    }
    if let Some(seen) = text("seen") {
        let request = midgame::MidGameRequest {
            seen,
            shuffle_back: text("shuffle_back"),
            prizes: number("prizes").unwrap_or(6).min(60) as u32,
            draws: number("draws").unwrap_or(1).min(60) as u32,
            want: &want,
            count_as: &count_as,
        };
        if let Ok(report) = midgame::odds(&deck, &request) {
            for card in &report.per_card {
                for p in [card.draw_at_least_one, card.prized_all] {
                    assert!((0.0..=1.0).contains(&p), "{seen:?}: {p}");
                }
            }
        }
    }
}
