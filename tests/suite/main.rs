//! The integration tests, one binary (as ripgrep and typos do): each module was a test
//! binary of its own, and every one linked the whole library. `common` holds the helpers,
//! `oracles` what must hold for any input (shared with the fuzz targets in `fuzz/`).
//!
//! Run one module with `cargo test --test suite <module>::` (e.g. `hostile::`).

mod action;
mod architecture;
mod build_tmux;
mod card_cli;
mod card_index;
mod cards_shared;
mod cards_update;
mod cli;
mod collection_sets;
mod common;
mod config;
mod corpus;
mod curated_vs_shared;
mod deck_parse;
mod docs_paths;
mod edit_cli;
mod engine;
mod event_cli;
mod faces_corpus;
mod fmt_cli;
mod fmt_props;
mod formats_cli;
mod formats_data;
mod fuzz_regressions;
mod history;
mod hostile;
mod html_chromium;
mod identify_shared;
mod lsp_neovim;
mod lsp_process;
mod mcp_cli;
mod mcp_python;
mod mismatch_hints;
mod names_across_languages;
mod names_rulebooks;
mod need_cli;
mod oracles;
mod output_cli;
mod package;
mod pasted_shapes;
mod players;
mod precommit;
mod printed_names;
mod props;
mod quiet;
mod read_back;
mod readme;
mod repo_cli;
mod reprint_cli;
mod reprint_shared;
mod review_cli;
mod search_cli;
mod season_boundaries;
mod sheet_cli;
mod stats_cli;
mod stats_exact;
mod unseen_lines;
mod vscode_vsix;
mod web_browser;
mod web_node;
mod web_npm;
mod wheel;
