#![no_main]
//! Fuzz target `web`: any text as the options JSON of every call of the web crate
//! (`deckbox-web`, which reads it with serde outside the library): each call on a fixed
//! list or query answers JSON that parses (or the PTCG Live text), or an error with a
//! message, never a panic. The builder takes the same options.

const DECK: &str = include_str!("../../examples/dragapult.txt");

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    let Ok(options) = std::str::from_utf8(bytes) else {
        return;
    };
    let answers = [
        deckbox_web::check_json(DECK, options),
        deckbox_web::stats_json(DECK, options),
        deckbox_web::search_json("Dreepy", options),
        deckbox_web::card_json("TWM 128", options),
    ];
    for answer in answers {
        match answer {
            Ok(json) => {
                serde_json::from_str::<serde_json::Value>(&json).unwrap();
            }
            Err(message) => assert!(!message.is_empty(), "{options:?}"),
        }
    }
    match deckbox_web::ptcgl_text(DECK, options) {
        Ok(text) => assert!(text.contains("Dreepy"), "{options:?}"),
        Err(message) => assert!(!message.is_empty(), "{options:?}"),
    }
    if let Ok(mut builder) = deckbox_web::builder(DECK, options) {
        builder.add(0);
        assert!(builder.text().contains("Dreepy"), "{options:?}");
    }
});
