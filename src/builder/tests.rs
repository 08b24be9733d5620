//! The builder's model driven by messages alone: no terminal, no thread. The searches it
//! asks for are run here, as the binary runs them on a thread of its own. The screen and
//! the file written are tested in the binary (`src/cli/builder/tests.rs`).
#![allow(clippy::unwrap_used, reason = "tests fail loudly")]

use std::path::PathBuf;

use super::{Builder, Effect, Focus, Key, MAX_QUERY, Message, Overlay, SaveRequest};
use crate::cards::storage::embedded;
use crate::deck::DeckInput;
use crate::formats::Format;

/// Standard on the day the suite's outputs are fixed at (`DECKBOX_TODAY` of the CLI tests).
fn standard() -> Format {
    let date = crate::util::date::parse("2026-11-25").unwrap();
    Format::load_at("standard", Some(date)).unwrap()
}

fn builder_on(path: &str, text: &str, exists: bool) -> Builder {
    let db = embedded::open().unwrap();
    Builder::new(db, standard(), PathBuf::from(path), text.into(), exists)
}

/// Sends `message`; the effects, with the searches asked for already run and answered.
fn send(builder: &mut Builder, message: Message) -> Vec<Effect> {
    let mut left = Vec::new();
    for effect in builder.update(message) {
        match effect {
            Effect::Search(request) => {
                let answer = request.run(builder.db());
                assert!(builder.update(Message::Answer(answer)).is_empty());
            }
            other => left.push(other),
        }
    }
    left
}

fn key(builder: &mut Builder, key: Key) -> Vec<Effect> {
    send(builder, Message::Key(key))
}

fn times(builder: &mut Builder, message: &Message, n: usize) {
    for _ in 0..n {
        send(builder, message.clone());
    }
}

/// Types `text` in the emptied search box, lets the input rest (the search runs) and goes
/// to the results.
fn search(builder: &mut Builder, text: &str) {
    send(builder, Message::Focus(Focus::Search));
    send(builder, Message::ClearQuery);
    for c in text.chars() {
        send(builder, Message::Type(c));
    }
    send(builder, Message::Idle);
    send(builder, Message::Focus(Focus::Results));
}

/// 4 Dreepy and 56 basic Psychic Energy, from an empty file.
fn legal_deck(builder: &mut Builder) {
    search(builder, "Dreepy TWM 128");
    assert_eq!(builder.focus(), Focus::Results);
    times(builder, &Message::Add, 4);
    search(builder, "Basic Psychic Energy SVE 5");
    times(builder, &Message::Add, 56);
}

#[test]
fn a_legal_deck_from_an_empty_file_message_by_message() {
    let mut builder = builder_on("new.txt", "", false);
    assert!(!builder.deck().valid(), "an empty deck is not valid");
    legal_deck(&mut builder);
    assert_eq!(builder.deck().card_count(), 60);
    assert!(builder.deck().valid(), "{:?}", builder.deck().diagnostics);
    let Some(Ok(mulligan)) = builder.odds().mulligan.clone() else {
        panic!("no P(mulligan): {:?}", builder.odds().mulligan);
    };
    // 4 Basics in 60 cards: C(56,7)/C(60,7).
    assert!((mulligan - 0.6005).abs() < 0.001, "{mulligan}");
    assert!(builder.dirty());
    // Undo takes back one copy at a time.
    send(&mut builder, Message::Undo);
    assert_eq!(builder.deck().card_count(), 59);
    assert!(!builder.deck().valid());
    assert_eq!(builder.message(), Some("undone"));
}

/// The keys of `deckbox build --help` reach the same messages: a deck typed key by key.
#[test]
fn keys_build_the_same_deck() {
    let mut builder = builder_on("new.txt", "", false);
    for c in "Dreepy TWM 128".chars() {
        key(&mut builder, Key::Char(c));
    }
    key(&mut builder, Key::Enter);
    assert_eq!(builder.focus(), Focus::Results);
    for c in "++=+".chars() {
        key(&mut builder, Key::Char(c));
    }
    key(&mut builder, Key::Char('/'));
    assert_eq!(builder.focus(), Focus::Search);
    key(&mut builder, Key::Ctrl('u'));
    for c in "Basic Psychic Energy SVE 5".chars() {
        key(&mut builder, Key::Char(c));
    }
    key(&mut builder, Key::Tab);
    for _ in 0..56 {
        key(&mut builder, Key::Enter);
    }
    assert_eq!(builder.deck().card_count(), 60);
    assert!(builder.deck().valid(), "{:?}", builder.deck().diagnostics);
    // In a list, a letter with Ctrl is the same command: Ctrl-U undoes there.
    key(&mut builder, Key::Ctrl('u'));
    assert_eq!(builder.deck().card_count(), 59);
}

#[test]
fn the_deck_panel_changes_its_lines_and_cycles_printings() {
    let mut builder = builder_on("new.txt", "", false);
    search(&mut builder, "Dreepy TWM 128");
    times(&mut builder, &Message::Add, 3);
    send(&mut builder, Message::SwitchPanel);
    assert_eq!(builder.focus(), Focus::Deck);
    send(&mut builder, Message::Remove);
    assert_eq!(builder.deck().card_count(), 2);
    times(&mut builder, &Message::Add, 2);
    assert_eq!(builder.deck().card_count(), 4);
    let before = builder.deck().cards[0].printing;
    send(&mut builder, Message::CyclePrinting);
    assert_eq!(builder.deck().card_count(), 4, "{}", builder.text());
    assert_eq!(builder.deck().cards.len(), 1, "{}", builder.text());
    assert_ne!(
        builder.deck().cards[0].printing,
        before,
        "{}",
        builder.text()
    );
    // One undo takes the whole change of printing back.
    send(&mut builder, Message::Undo);
    assert_eq!(builder.deck().cards[0].printing, before);
    assert_eq!(builder.deck().card_count(), 4);
    send(&mut builder, Message::SwitchPanel);
    assert_eq!(builder.focus(), Focus::Results);
}

/// Issue 50: `p` moved the line to the end of its section, so fixing a list top to bottom
/// skipped lines. The line now keeps its place and its comment; the highlight stays on it,
/// so `j` goes on to the next line.
#[test]
fn a_new_printing_keeps_the_line_where_it_stands() {
    let text = "Pokémon: 8\n4 Dreepy TWM 128 // the best\n4 Drakloak TWM 129\n";
    let mut builder = builder_on("deck.txt", text, true);
    send(&mut builder, Message::Focus(Focus::Deck));
    assert_eq!(builder.focus(), Focus::Deck);
    send(&mut builder, Message::CyclePrinting);
    let lines: Vec<&str> = builder.text().lines().collect();
    assert_eq!(lines.len(), 3, "{}", builder.text());
    assert_eq!(lines[0], "Pokémon: 8");
    assert!(
        lines[1].starts_with("4 Dreepy ") && !lines[1].contains("TWM 128"),
        "{}",
        builder.text()
    );
    assert!(lines[1].ends_with("// the best"), "{}", builder.text());
    assert_eq!(lines[2], "4 Drakloak TWM 129");
    assert_eq!(builder.deck_at(), 0);
    key(&mut builder, Key::Char('j'));
    assert_eq!(builder.deck_at(), 1);
    key(&mut builder, Key::Char('u'));
    assert_eq!(builder.text(), text);
}

/// Issue 50, the builder's other frictions: Ctrl-U clears the search box; `p` on the
/// results says where it works; results are ranked as `deckbox search` ranks them (`switch`
/// gives Switch first, not Energy Switch).
#[test]
fn the_search_box_clears_and_results_rank_by_name() {
    let mut builder = builder_on("new.txt", "", false);
    for c in "boss".chars() {
        key(&mut builder, Key::Char(c));
    }
    key(&mut builder, Key::Ctrl('u'));
    assert_eq!(builder.query(), "");
    search(&mut builder, "switch");
    let first = (builder.results().first())
        .and_then(|&id| builder.db().get(id))
        .unwrap();
    assert_eq!(first.names.primary(), "Switch");
    key(&mut builder, Key::Char('p'));
    assert!(
        builder
            .message()
            .is_some_and(|m| m.contains("Tab to the deck")),
        "{:?}",
        builder.message()
    );
    // Any other key clears the status line.
    key(&mut builder, Key::Other);
    assert_eq!(builder.message(), None);
}

#[test]
fn quitting_asks_only_when_something_is_unsaved() {
    let mut builder = builder_on("new.txt", "", false);
    key(&mut builder, Key::Enter);
    assert_eq!(key(&mut builder, Key::Char('q')), [Effect::Quit]);
    search(&mut builder, "Dreepy TWM 128");
    send(&mut builder, Message::Add);
    assert_eq!(key(&mut builder, Key::Char('q')), Vec::new());
    assert_eq!(builder.overlay(), Some(Overlay::ConfirmQuit));
    // Any key but `y` closes the question, and does nothing else.
    assert_eq!(key(&mut builder, Key::Char('n')), Vec::new());
    assert_eq!(builder.overlay(), None);
    assert_eq!(builder.deck().card_count(), 1);
    assert_eq!(key(&mut builder, Key::Ctrl('c')), Vec::new());
    assert_eq!(builder.overlay(), Some(Overlay::ConfirmQuit));
    assert_eq!(key(&mut builder, Key::Char('y')), [Effect::Quit]);
    // The same with messages: the question, then quitting once it is asked.
    send(&mut builder, Message::CloseOverlay);
    assert_eq!(send(&mut builder, Message::Quit), Vec::new());
    assert_eq!(send(&mut builder, Message::Quit), [Effect::Quit]);
}

#[test]
fn the_search_box_takes_every_key_and_reports_a_bad_query() {
    let mut builder = builder_on("new.txt", "", false);
    // `q`, `u`, `p` and `?` are letters of a query while the box has the focus.
    for c in "quip?".chars() {
        assert_eq!(key(&mut builder, Key::Char(c)), Vec::new());
    }
    assert_eq!(builder.query(), "quip?");
    assert_eq!(builder.overlay(), None);
    key(&mut builder, Key::Ctrl('u'));
    for c in "hp>=".chars() {
        key(&mut builder, Key::Char(c));
    }
    send(&mut builder, Message::Idle);
    assert_eq!(builder.focus(), Focus::Search);
    assert!(builder.search_error().is_some(), "hp>= is incomplete");
    search(&mut builder, "type:psychic stage:basic hp>=120");
    assert!(!builder.results().is_empty());
    assert!(builder.search_error().is_none());
    key(&mut builder, Key::Char('/'));
    key(&mut builder, Key::Backspace);
    assert_eq!(builder.query(), "type:psychic stage:basic hp>=12");
}

/// The search is asked for once the input rests, one at a time; an answer to a query typed
/// over since is dropped, and keys typed ahead (`Enter` then `+`) act on the results of the
/// query in the box even before the answer comes.
#[test]
fn searches_are_asked_for_when_the_input_rests_and_stale_answers_are_dropped() {
    let mut builder = builder_on("new.txt", "", false);
    assert_eq!(builder.update(Message::Idle), Vec::new());
    for c in "Dreepy".chars() {
        assert_eq!(builder.update(Message::Type(c)), Vec::new());
    }
    let effects = builder.update(Message::Idle);
    let [Effect::Search(request)] = &effects[..] else {
        panic!("no search asked for: {effects:?}");
    };
    assert_eq!(request.query, "Dreepy");
    assert!(builder.searching());
    // One search at a time.
    builder.update(Message::Type(' '));
    assert_eq!(builder.update(Message::Idle), Vec::new());
    // Its answer no longer answers the box: dropped, and the next search is asked for.
    builder.update(Message::Answer(request.run(builder.db())));
    assert!(!builder.searching());
    assert!(builder.results().is_empty());
    builder.update(Message::Type('T'));
    let effects = builder.update(Message::Idle);
    let [Effect::Search(request)] = &effects[..] else {
        panic!("no search asked for: {effects:?}");
    };
    assert_eq!(request.query, "Dreepy T");
    assert_eq!(request.generation, 2);
    // Enter, then `+`, before the answer: the search runs there and then.
    for c in "WM 128".chars() {
        builder.update(Message::Type(c));
    }
    builder.update(Message::Key(Key::Enter));
    assert_eq!(builder.results().len(), 1);
    builder.update(Message::Key(Key::Char('+')));
    assert_eq!(builder.deck().card_count(), 1);
    // The late answer of `Dreepy T` changes nothing shown.
    let late = request.run(builder.db());
    builder.update(Message::Answer(late));
    assert!(!builder.searching());
    assert_eq!(builder.results().len(), 1);
}

/// A paste goes into the search box, without its line breaks, and the box stops growing at
/// [`MAX_QUERY`].
#[test]
fn a_paste_goes_into_the_search_box() {
    let mut builder = builder_on("new.txt", "", false);
    send(&mut builder, Message::Focus(Focus::Deck));
    send(
        &mut builder,
        Message::Paste("Dreepy\nTWM\t128\u{1b}".into()),
    );
    assert_eq!(builder.focus(), Focus::Search);
    assert_eq!(builder.query(), "Dreepy TWM 128");
    assert_eq!(builder.deck().card_count(), 0, "a line break adds nothing");
    send(&mut builder, Message::Paste("x".repeat(100_000)));
    assert_eq!(builder.query().len(), MAX_QUERY);
    assert!(builder.message().is_some_and(|m| m.contains("cut")));
    // A character that would cross the bound is not typed in part.
    send(&mut builder, Message::ClearQuery);
    send(&mut builder, Message::Paste("é".repeat(MAX_QUERY)));
    assert_eq!(builder.query().len(), MAX_QUERY);
    send(&mut builder, Message::ClearQuery);
    send(
        &mut builder,
        Message::Paste(format!("{}é", "x".repeat(MAX_QUERY - 1))),
    );
    assert_eq!(builder.query().len(), MAX_QUERY - 1);
}

/// Saving is an effect: the list to write, the file's previous text once it exists; what
/// was written comes back as a message.
#[test]
fn a_save_asks_for_the_list_and_takes_back_what_was_written() {
    let mut builder = builder_on("new.txt", "", false);
    assert!(!builder.dirty(), "nothing to save before a change");
    legal_deck(&mut builder);
    let effects = send(&mut builder, Message::Save);
    let [Effect::Save(request)] = &effects[..] else {
        panic!("{effects:?}");
    };
    let expected = SaveRequest {
        path: PathBuf::from("new.txt"),
        name: "new.txt".into(),
        text: builder.text().to_string(),
        previous: None,
    };
    assert_eq!(*request, expected);
    // Written as `fmt --write` writes it.
    let input = DeckInput::from_bytes("new.txt", request.text.as_bytes());
    let written = crate::edit::listing::format(&input, builder.db(), &standard())
        .unwrap()
        .formatted;
    send(&mut builder, Message::Saved(Ok(written.clone())));
    assert!(!builder.dirty());
    assert_eq!(builder.text(), written);
    assert_eq!(builder.message(), Some("saved new.txt"));
    assert_eq!(builder.deck().card_count(), 60);
    // A save that failed leaves the list unsaved and says why.
    send(&mut builder, Message::Undo);
    let effects = send(&mut builder, Message::Save);
    let [Effect::Save(request)] = &effects[..] else {
        panic!("no save asked for: {effects:?}");
    };
    assert_eq!(request.previous.as_deref(), Some(written.as_str()));
    send(
        &mut builder,
        Message::Saved(Err("cannot write new.txt".into())),
    );
    assert!(builder.dirty());
    assert_eq!(builder.message(), Some("cannot write new.txt"));
    // Ctrl-S saves from anywhere, even with a window open.
    send(&mut builder, Message::Help);
    assert!(matches!(
        key(&mut builder, Key::Ctrl('s'))[..],
        [Effect::Save(_)]
    ));
}

/// A click and the wheel, as messages: a line chosen in a list, the highlight moved in the
/// list under the pointer without the focus.
#[test]
fn lines_are_selected_and_scrolled() {
    let mut builder = builder_on("new.txt", "", false);
    legal_deck(&mut builder);
    search(&mut builder, "Pikachu");
    assert!(builder.results().len() > 12);
    send(&mut builder, Message::Focus(Focus::Search));
    send(
        &mut builder,
        Message::Select {
            list: Focus::Results,
            row: Some(2),
        },
    );
    assert_eq!((builder.focus(), builder.result_at()), (Focus::Results, 2));
    send(
        &mut builder,
        Message::Scroll {
            list: Focus::Deck,
            by: 5,
        },
    );
    assert_eq!((builder.focus(), builder.deck_at()), (Focus::Results, 1));
    // A row past the end moves nothing; the focus moves.
    send(
        &mut builder,
        Message::Select {
            list: Focus::Deck,
            row: Some(7),
        },
    );
    assert_eq!((builder.focus(), builder.deck_at()), (Focus::Deck, 1));
    send(
        &mut builder,
        Message::Select {
            list: Focus::Deck,
            row: Some(0),
        },
    );
    assert_eq!(builder.deck_at(), 0);
    send(&mut builder, Message::Move(-3));
    assert_eq!(builder.deck_at(), 0);
    key(&mut builder, Key::PageDown);
    assert_eq!(builder.deck_at(), 1);
}

/// `p` and `u` on a JSON list: the line moves to another printing and back, and the list
/// stays JSON that `fmt` writes the same.
#[test]
fn printings_cycle_and_undo_in_a_json_list() {
    let text = "{\"pokemon\": [{\"count\": 4, \"name\": \"Dreepy\", \"set\": \"TWM\", \"number\": \"128\"}]}\n";
    let mut builder = builder_on("deck.json", text, true);
    send(&mut builder, Message::Focus(Focus::Deck));
    let before = builder.deck().cards[0].printing;
    send(&mut builder, Message::CyclePrinting);
    assert_ne!(
        builder.deck().cards[0].printing,
        before,
        "{}",
        builder.text()
    );
    assert_eq!(builder.deck().card_count(), 4);
    serde_json::from_str::<serde_json::Value>(builder.text()).unwrap();
    let input = DeckInput::from_bytes("deck.json", builder.text().as_bytes());
    let formatted = crate::edit::listing::format(&input, builder.db(), &standard()).unwrap();
    assert!(formatted.is_canonical(), "{}", builder.text());
    send(&mut builder, Message::Undo);
    assert_eq!(builder.deck().cards[0].printing, before);
}

#[test]
fn with_a_collection_results_show_what_is_owned_and_the_deck_what_it_lacks() {
    let db = embedded::open().unwrap();
    let binder = "4 Dreepy TWM 128\n10 Basic Psychic Energy SVE 5\n";
    let file = crate::collection::parse("binder.txt", binder.as_bytes(), &db, &standard()).unwrap();
    let mut have = crate::collection::Collection::default();
    have.push(file);
    let mut builder = builder_on("new.txt", "", false).with_collection(have);
    legal_deck(&mut builder);
    // 4 Dreepy owned, 10 of the 56 Energy: 46 cards to get.
    assert_eq!(builder.lacking().map(|need| need.missing()), Some(46));
    search(&mut builder, "Dreepy TWM 128");
    let dreepy = builder.results()[0];
    assert_eq!(builder.owned(dreepy), Some(4));
    send(&mut builder, Message::SwitchPanel);
    let dreepy_line = builder.rows()[0].card;
    assert_eq!(builder.lacking_of(dreepy_line), Some(0));
    let energy_line = builder.rows()[1].card;
    assert_eq!(builder.lacking_of(energy_line), Some(46));
}

/// The model serves a terminal and a browser (WebAssembly) alike: no file of it names a
/// terminal library, a thread or a clock.
#[test]
fn the_model_knows_no_terminal_thread_or_clock() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/builder");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for word in [
            "ratatui",
            "crossterm",
            "std::thread",
            "rayon",
            "Instant",
            "SystemTime",
        ] {
            assert!(!text.contains(word), "{} names {word}", path.display());
        }
        read += 1;
    }
    assert!(read > 0, "no file read in {}", dir.display());
}

/// Issue 50: header counts the list got wrong stayed wrong while cards were added and
/// removed (an edit moves a wrong count by as much as the cards), so their `header-count`
/// warnings stayed until saving, when `fmt --write` wrote the true counts. After each change
/// the builder now writes them as the save will: the warnings follow the cards, a right
/// count is never touched, and `u` takes the whole change back.
#[test]
fn header_counts_follow_the_cards_as_they_change() {
    let text = "Pokémon: 12\n4 Dreepy TWM 128\n4 Drakloak TWM 129\n\nTrainer: 4\n4 Iono PAL 185\n";
    let mut builder = builder_on("deck.txt", text, true);
    let header_counts = |b: &Builder| -> Vec<String> {
        (b.deck().diagnostics.iter())
            .filter(|d| d.rule.id() == "header-count")
            .map(|d| d.message.clone())
            .collect()
    };
    // The file as opened: its header says 12 over 8 cards.
    assert_eq!(
        header_counts(&builder),
        ["the Pokémon header says 12, but its section has 8 cards on 2 lines"]
    );
    search(&mut builder, "Dragapult ex TWM 130");
    send(&mut builder, Message::Add);
    assert_eq!(header_counts(&builder), Vec::<String>::new());
    let lines: Vec<&str> = builder.text().lines().collect();
    assert_eq!(lines[0], "Pokémon: 9", "{}", builder.text());
    assert!(lines.contains(&"Trainer: 4"), "{}", builder.text());
    // Removing a copy keeps every count true.
    send(&mut builder, Message::Focus(Focus::Deck));
    send(&mut builder, Message::Remove);
    assert_eq!(header_counts(&builder), Vec::<String>::new());
    assert!(
        builder.text().starts_with("Pokémon: 8\n"),
        "{}",
        builder.text()
    );
    // `u` twice: the file as opened, its warning with it.
    send(&mut builder, Message::Undo);
    send(&mut builder, Message::Undo);
    assert_eq!(builder.text(), text);
    assert_eq!(header_counts(&builder).len(), 1);
}
