//! Text from files that must never reach a terminal or a document raw: paths, card names,
//! config values, Markdown and PDF metadata.
