//! `deckbox mcp`: the assistant face, a Model Context Protocol server on standard input and
//! output (rmcp). Each tool reads its arguments ([`tools`]: their JSON schemas and
//! descriptions), makes the library call its command makes and answers what the command
//! prints with `--output json` (or its text). It writes no file; a path is read only inside
//! the roots the client gives, else the working folder ([`deckbox::session::assist::Roots`]);
//! a bad argument is a tool error with the reason; every answer is bounded
//! ([`deckbox::session::assist::MAX_ANSWER_BYTES`], pages of search results).
//!
//! A result's first text block is what the command prints on standard output, byte for
//! byte; when the command also writes notes on standard error (a line `convert` could not
//! carry over, a collection's findings), they follow as a second block, as written. Each
//! call is computed on a thread of its own, at most
//! [`deckbox::session::assist::MAX_CALLS_IN_FLIGHT`] at once, so a long call does not hold
//! up a short one.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData, Peer, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router,
};

use super::Outcome;
use deckbox::error::Error;
use deckbox::session::assist::{MAX_ANSWER_BYTES, MAX_CALLS_IN_FLIGHT, Roots, file_uri_path};

pub mod tools;

use tools::{Answer, Failure, RootsSource};

/// How long the client has to list its roots.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(10);

/// The URI of the rules reference resource.
const RULES_URI: &str = "deckbox://rules";

/// The URI prefix of the built-in format files.
const FORMAT_URI: &str = "deckbox://formats/";

#[derive(Debug, clap::Args)]
pub struct McpArgs {}

/// The server: its tools' router, and the turns of the calls being computed.
#[derive(Debug, Clone)]
pub struct Server {
    tool_router: ToolRouter<Server>,
    calls: Arc<tokio::sync::Semaphore>,
}

impl Default for Server {
    fn default() -> Self {
        Server {
            tool_router: Self::tool_router(),
            calls: Arc::new(tokio::sync::Semaphore::new(MAX_CALLS_IN_FLIGHT)),
        }
    }
}

impl Server {
    /// `job` computed on a thread of its own once fewer than [`MAX_CALLS_IN_FLIGHT`] calls
    /// are; the protocol's thread stays free to read, answer and ask for roots meanwhile.
    async fn compute<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> Result<T, Failure> + Send + 'static,
    ) -> Result<T, Failure> {
        let turn = (self.calls.clone().acquire_owned().await)
            .map_err(|_| failure("the server is stopping"))?;
        let done = tokio::task::spawn_blocking(move || {
            let result = job();
            drop(turn);
            result
        });
        done.await
            .map_err(|_| failure("deckbox failed on this call; the session goes on"))?
    }
}

/// The roots of a session, asked of the client once a path needs them.
struct AskedRoots(Result<Roots, Failure>);

impl RootsSource for AskedRoots {
    fn roots(&mut self) -> Result<Roots, Failure> {
        match &self.0 {
            Ok(roots) => Ok(roots.clone()),
            Err(Failure(message)) => Err(Failure(message.clone())),
        }
    }
}

/// The folders the client allows (its roots when it has the capability), else the working
/// folder. SEP-2577 deprecates roots for a later revision of the protocol; the clients of
/// today give them, and they are what keeps a path inside the folders the user opened.
#[allow(
    deprecated,
    reason = "roots are what clients give today (SEP-2577 deprecates them)"
)]
async fn roots_of(peer: &Peer<RoleServer>) -> AskedRoots {
    let has_roots = (peer.peer_info()).is_some_and(|info| info.capabilities.roots.is_some());
    if !has_roots {
        return AskedRoots(Roots::new(None).map_err(Failure::from));
    }
    let listed = match tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await {
        Ok(Ok(listed)) => listed,
        Ok(Err(error)) => return AskedRoots(Err(failure(format!("the client's roots: {error}")))),
        Err(_) => return AskedRoots(Err(failure("the client did not list its roots"))),
    };
    let folders: Vec<PathBuf> = (listed.roots.iter())
        .filter_map(|root| file_uri_path(&root.uri))
        .collect();
    AskedRoots(Roots::new(Some(&folders)).map_err(Failure::from))
}

fn failure(message: impl Into<String>) -> Failure {
    Failure::from(Error::Usage {
        message: message.into(),
    })
}

/// A tool's answer as its result: the text, then its notes when there are any; or a tool
/// error with the reason. An answer larger than [`MAX_ANSWER_BYTES`] is refused.
fn answer(result: Result<Answer, Failure>) -> CallToolResult {
    match result {
        Ok(Answer { text, notes }) if text.len() + notes.len() > MAX_ANSWER_BYTES => {
            CallToolResult::error(vec![ContentBlock::text(format!(
                "error: the answer is {} bytes, more than {MAX_ANSWER_BYTES}; narrow the question\n",
                text.len() + notes.len()
            ))])
        }
        Ok(Answer { text, notes }) => {
            let mut blocks = vec![ContentBlock::text(text)];
            if !notes.is_empty() {
                blocks.push(ContentBlock::text(notes));
            }
            CallToolResult::success(blocks)
        }
        Err(Failure(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

/// Whether a tool's arguments need the roots: a path among them.
fn roots_if(
    peer: &Peer<RoleServer>,
    paths: &[&Option<String>],
) -> impl Future<Output = AskedRoots> {
    let needed = paths.iter().any(|path| path.is_some());
    let peer = peer.clone();
    async move {
        if needed {
            roots_of(&peer).await
        } else {
            AskedRoots(Ok(Roots::none()))
        }
    }
}

#[tool_router]
impl Server {
    #[tool(
        description = "Check a Pokémon TCG deck list against a format's construction rules at a date: the verdict and every finding with its line, rule id, message, why (the rulebook passage) and fix. The same JSON as `deckbox check --output json`; with `format: \"all\"`, the formats the deck is legal in (`deckbox check --format all --output json`). The list may be in English, French, Spanish, Portuguese, German or Italian, mixed line by line: each name is recognised in its own language, so there is no language to choose. Notes the command writes on standard error come as a second text block.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn check_deck(
        &self,
        Parameters(args): Parameters<tools::CheckDeck>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path]).await;
        answer(
            self.compute(move || tools::check_deck(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "Search every Pokémon TCG card ever printed with deckbox's query language (names in six languages, kind, stage, type, HP, attacks, text, legality at a date). Paged: pass the `next_cursor` of a page to get the next. Each page is the JSON of `deckbox search --output json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search_cards(
        &self,
        Parameters(args): Parameters<tools::SearchCards>,
    ) -> CallToolResult {
        match self.compute(move || tools::search_cards(&args)).await {
            Ok((page, next)) => {
                let mut result = answer(Ok(page));
                if let Some(next) = next {
                    let cursor = serde_json::json!({ "next_cursor": next }).to_string();
                    result.content.push(ContentBlock::text(cursor));
                }
                result
            }
            Err(failed) => answer(Err(failed)),
        }
    }

    #[tool(
        description = "Look a card up by name (any of six languages), set code and number (`TWM 128`) or id: its text, every printing, its names, and its legality in each format today or at a date, through time. The JSON of `deckbox card --output json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn card(&self, Parameters(args): Parameters<tools::CardLookup>) -> CallToolResult {
        answer(self.compute(move || tools::card(&args)).await)
    }

    #[tool(
        description = "Exact opening-hand odds of a deck: mulligans, each card in the opening hand, prized and seen by each turn, and `want` combinations (`Dreepy>=1 & Rare Candy>=1 by T2`). The JSON of `deckbox stats --output json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn opening_odds(
        &self,
        Parameters(args): Parameters<tools::OpeningOdds>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path]).await;
        answer(
            self.compute(move || tools::opening_odds(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "Exact mid-game odds from the cards known (hand, discard, in play, prizes taken): each card in the next draws and among the prizes, and `want` combinations. The JSON of `deckbox odds --output json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn midgame_odds(
        &self,
        Parameters(args): Parameters<tools::MidgameOdds>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path]).await;
        answer(
            self.compute(move || tools::midgame_odds(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "What is still missing to build a deck from a collection of owned cards (a list or a collection app's CSV export), by the reprint rule or the exact printing. The JSON of `deckbox need --output json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn missing_cards(
        &self,
        Parameters(args): Parameters<tools::MissingCards>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path, &args.collection_path]).await;
        answer(
            self.compute(move || tools::missing_cards(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "Convert a deck list to another layout (ptcgl for Pokémon TCG Live import, ptcgo, limitless, json) or language. The text `deckbox convert` prints.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn convert_list(
        &self,
        Parameters(args): Parameters<tools::ConvertList>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path]).await;
        answer(
            self.compute(move || tools::convert_list(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "A deck list in deckbox's canonical layout (sections, counts, set codes as the card database has them). The text `deckbox fmt` prints; nothing is written.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn format_list(
        &self,
        Parameters(args): Parameters<tools::FormatList>,
        peer: Peer<RoleServer>,
    ) -> CallToolResult {
        let mut roots = roots_if(&peer, &[&args.deck.deck_path]).await;
        answer(
            self.compute(move || tools::format_list(&args, &mut roots))
                .await,
        )
    }

    #[tool(
        description = "Explain a rule a finding names: what it checks, the rulebook passage, an example and the fix; without a rule, every rule. The text of `deckbox explain`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explain_rule(
        &self,
        Parameters(args): Parameters<tools::ExplainRule>,
    ) -> CallToolResult {
        answer(self.compute(move || tools::explain_rule(&args)).await)
    }

    #[tool(
        description = "The formats deckbox judges in (Standard, Expanded, Unlimited, GLC, ...), or one in full: its pool, bans and setup, at a date. The text of `deckbox formats`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_formats(
        &self,
        Parameters(args): Parameters<tools::ListFormats>,
    ) -> CallToolResult {
        answer(self.compute(move || tools::list_formats(&args)).await)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new("deckbox", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "deckbox checks Pokémon TCG deck lists offline: check_deck for the verdict, then card, search_cards and explain_rule to fix what it finds, opening_odds and midgame_odds for odds, missing_cards against a collection. Give a list as text (`deck`) or as a path inside the client's roots (`deck_path`).",
            )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = vec![
            Resource::new(RULES_URI, "rules")
                .with_description("Every rule deckbox checks: the rulebook passage, an example, the fix (docs/rules.md).")
                .with_mime_type("text/markdown"),
        ];
        for (id, file, _) in deckbox::formats::Format::builtin_files() {
            resources.push(
                Resource::new(format!("{FORMAT_URI}{id}"), file)
                    .with_description(format!("The built-in format file {file}"))
                    .with_mime_type("application/toml"),
            );
        }
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let text = if uri == RULES_URI {
            Some(deckbox::render::rules_reference::markdown())
        } else {
            uri.strip_prefix(FORMAT_URI).and_then(|id| {
                deckbox::formats::Format::builtin_files()
                    .find(|(known, _, _)| *known == id)
                    .map(|(_, _, text)| text.to_string())
            })
        };
        match text {
            Some(text) => {
                Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into())
            }
            None => Err(ErrorData::resource_not_found(
                format!("no resource {uri}; resources/list names them"),
                None,
            )),
        }
    }
}

/// Serves one client on standard input and output until it closes them.
pub(crate) fn run(_args: &McpArgs) -> Result<Outcome, Error> {
    let failed = |error: String| Error::Usage {
        message: format!("the MCP server stopped: {error}"),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| failed(error.to_string()))?;
    runtime.block_on(async {
        let service = Server::default()
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| failed(error.to_string()))?;
        service
            .waiting()
            .await
            .map_err(|error| failed(error.to_string()))?;
        Ok(Outcome::default())
    })
}
