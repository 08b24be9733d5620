//! `deckbox lsp`: the language server for deck lists, over standard input and output. This
//! face reads Language Server Protocol messages (`lsp-server`), asks the library for one
//! buffer's findings, fixes, formatting, hover, completion and outline
//! ([`deckbox::session::editor`]), and converts them to `lsp-types`. It never exits on a
//! bad message: a request it cannot read gets an error response, a notification it cannot
//! read is dropped.
//!
//! Edits come in bursts: every message already waiting is handled before any buffer is
//! checked, so a burst of `didChange` costs one check of the last text; `shutdown` is
//! answered only after the diagnostics of every buffer opened or changed before it, even in
//! the same burst (a client that writes everything at once, then `exit`). Settings are those
//! of `deckbox check` on the file: the nearest `deckbox.toml` above it (read again when it
//! changes), its `[[overrides]]` entry, and the list's own `# deckbox:` line.

// lsp-types' `Uri` hashes and compares by its text; its cell only caches a parse.
#![allow(clippy::mutable_key_type)]

#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::Uri;

use super::{Outcome, SettingsArgs};
use deckbox::check::diagnostic::Severity;
use deckbox::error::Error;
use deckbox::session::editor::{self, Buffer, Finding, Lines};
use deckbox::settings::{Flags, Settings};

#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// Accepted for editors that pass it; the server always speaks on standard input and
    /// output.
    #[arg(long)]
    pub stdio: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// Serves one editor until it says `exit` or closes the connection.
pub(crate) fn run(args: &LspArgs) -> Result<Outcome, Error> {
    let (connection, threads) = Connection::stdio();
    let served = serve(&connection, args.settings.flags());
    drop(connection);
    let joined = threads.join();
    Ok(
        match served.and(joined.map_err(|error| error.to_string())) {
            Ok(()) => Outcome::default(),
            Err(message) => Outcome::failure(format!("error: deckbox lsp: {message}\n")),
        },
    )
}

/// What the server can do.
fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE,
                ]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![" ".to_string()]),
            ..lsp::CompletionOptions::default()
        }),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_lens_provider: Some(lsp::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        ..lsp::ServerCapabilities::default()
    }
}

/// The server's loop over `connection`, from `initialize` to `exit`.
pub(crate) fn serve(connection: &Connection, flags: Flags) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|error| error.to_string())?;
    let initialized = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "deckbox", "version": env!("CARGO_PKG_VERSION") },
    });
    let (id, _params) = connection
        .initialize_start()
        .map_err(|error| error.to_string())?;
    connection
        .initialize_finish(id, initialized)
        .map_err(|error| error.to_string())?;
    let mut server = Server::new(flags);
    let send = |message: Message| {
        connection
            .sender
            .send(message)
            .map_err(|error| error.to_string())
    };
    let publish = |server: &mut Server| {
        for (uri, version, diagnostics) in server.publish() {
            let params = lsp::PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            };
            send(Notification::new("textDocument/publishDiagnostics".to_string(), params).into())?;
        }
        Ok::<(), String>(())
    };
    // After `shutdown` only `exit` counts: it may already wait in the same batch, so the
    // loop goes on reading (lsp-server's `handle_shutdown` would wait for it on the channel
    // this loop has already emptied).
    let mut shut_down = false;
    while let Ok(first) = connection.receiver.recv() {
        // Everything already waiting is handled before any check: a burst of edits is
        // checked once, at its last text.
        let mut batch = vec![first];
        batch.extend(connection.receiver.try_iter());
        for message in batch {
            match message {
                Message::Notification(notification) if notification.method == "exit" => {
                    return Ok(());
                }
                Message::Request(request) if request.method == "shutdown" && !shut_down => {
                    // Every buffer opened or changed before `shutdown` gets its
                    // diagnostics before the answer, the last thing the client reads.
                    publish(&mut server)?;
                    shut_down = true;
                    send(Response::new_ok(request.id, ()).into())?;
                }
                Message::Request(request) if shut_down => {
                    let refused = Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        "deckbox lsp is shutting down: only `exit` is read now".to_string(),
                    );
                    send(refused.into())?;
                }
                Message::Request(request) => send(server.request(request).into())?,
                Message::Notification(notification) if !shut_down => server.notify(notification),
                Message::Notification(_) | Message::Response(_) => {}
            }
        }
        if !shut_down {
            publish(&mut server)?;
        }
    }
    Ok(())
}

/// The settings of a config file, and when it was last changed.
type Stamp = Option<(std::time::SystemTime, u64)>;

/// An open buffer.
struct Document {
    path: PathBuf,
    text: String,
    version: i32,
    /// Whether the editor calls it JSON (its `languageId`).
    json: bool,
    /// Whether it is a JSON deck list outside the `[files]` selection
    /// ([`editor::is_json_deck`]), once asked: asked again after an edit, until it once was
    /// one (a JSON list broken while typed keeps its diagnostic saying why).
    json_deck: Option<bool>,
    /// The buffer checked, with the stamp of the settings it was checked with.
    checked: Option<(Stamp, Result<Buffer, String>)>,
}

struct Server {
    flags: Flags,
    /// Settings by config file (`None`: none), with its stamp when they were resolved.
    settings: HashMap<Option<PathBuf>, (Stamp, Result<Settings, String>)>,
    documents: HashMap<Uri, Document>,
    /// Documents changed since their diagnostics were last sent.
    dirty: BTreeSet<Uri>,
}

/// An error as one line of text.
fn shown(error: &Error) -> String {
    super::render(error).trim_end().to_string()
}

impl Server {
    fn new(flags: Flags) -> Server {
        Server {
            flags,
            settings: HashMap::new(),
            documents: HashMap::new(),
            dirty: BTreeSet::new(),
        }
    }

    fn notify(&mut self, notification: Notification) {
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(params) =
                    serde_json::from_value::<lsp::DidOpenTextDocumentParams>(notification.params)
                {
                    let document = params.text_document;
                    let path = file_path(&document.uri);
                    self.documents.insert(
                        document.uri.clone(),
                        Document {
                            path,
                            json: document.language_id.eq_ignore_ascii_case("json"),
                            json_deck: None,
                            text: document.text,
                            version: document.version,
                            checked: None,
                        },
                    );
                    self.dirty.insert(document.uri);
                }
            }
            "textDocument/didChange" => {
                if let Ok(params) =
                    serde_json::from_value::<lsp::DidChangeTextDocumentParams>(notification.params)
                    && let Some(document) = self.documents.get_mut(&params.text_document.uri)
                    && let Some(change) = params.content_changes.into_iter().next_back()
                {
                    document.text = change.text;
                    document.version = params.text_document.version;
                    document.checked = None;
                    if document.json_deck != Some(true) {
                        document.json_deck = None;
                    }
                    self.dirty.insert(params.text_document.uri);
                }
            }
            "textDocument/didClose" => {
                if let Ok(params) =
                    serde_json::from_value::<lsp::DidCloseTextDocumentParams>(notification.params)
                {
                    self.documents.remove(&params.text_document.uri);
                    self.dirty.remove(&params.text_document.uri);
                }
            }
            // A deckbox.toml changed: every buffer is checked again (the settings are read
            // again when their file's stamp changed).
            "workspace/didChangeWatchedFiles" | "textDocument/didSave" => {
                self.dirty.extend(self.documents.keys().cloned());
            }
            _ => {}
        }
    }

    /// The settings for `path` and their stamp: resolved again when its config file
    /// changed.
    fn settings_key(&mut self, path: &std::path::Path) -> (Option<PathBuf>, Stamp) {
        let key = if self.flags.no_config {
            None
        } else if let Some(config) = &self.flags.config {
            Some(config.clone())
        } else {
            path.parent().and_then(deckbox::settings::config::discover)
        };
        let stamp = key
            .as_ref()
            .and_then(|file| std::fs::metadata(file).ok())
            .and_then(|meta| Some((meta.modified().ok()?, meta.len())));
        let fresh = matches!(self.settings.get(&key), Some((old, _)) if *old == stamp);
        if !fresh {
            let flags = Flags {
                config: key.clone(),
                ..self.flags.clone()
            };
            let settings = Settings::resolve(&flags).map_err(|error| shown(&error));
            self.settings.insert(key.clone(), (stamp, settings));
        }
        (key, stamp)
    }

    /// The settings and the buffer checked of `uri`, checked again when it or its
    /// settings changed.
    fn checked(&mut self, uri: &Uri) -> Result<(&Settings, &Buffer), String> {
        let path = match self.documents.get(uri) {
            Some(document) => document.path.clone(),
            None => return Err(format!("{} is not open", uri.as_str())),
        };
        let (key, stamp) = self.settings_key(&path);
        let settings = match self.settings.get(&key) {
            Some((_, Ok(settings))) => settings,
            Some((_, Err(message))) => return Err(message.clone()),
            None => return Err("no settings".to_string()),
        };
        let document = self
            .documents
            .get_mut(uri)
            .ok_or_else(|| format!("{} is not open", uri.as_str()))?;
        if !matches!(&document.checked, Some((old, _)) if *old == stamp) {
            let buffer = editor::analyse(settings, &document.path, &document.text)
                .map_err(|error| shown(&error));
            document.checked = Some((stamp, buffer));
        }
        match &document.checked {
            Some((_, Ok(buffer))) => Ok((settings, buffer)),
            Some((_, Err(message))) => Err(message.clone()),
            None => Err("not checked".to_string()),
        }
    }

    /// Whether `uri` is a deck list `deckbox check DIR` would check
    /// ([`editor::is_checked_file`]) or a JSON deck list ([`editor::is_json_deck`]): other
    /// files opened as deck lists get no answer at all. A file whose settings cannot be
    /// read is served (its diagnostic says why), and so is a buffer never opened (the
    /// request fails: it is not open).
    fn serves(&mut self, uri: &Uri) -> bool {
        let Some(path) = self
            .documents
            .get(uri)
            .map(|document| document.path.clone())
        else {
            return true;
        };
        let (key, _) = self.settings_key(&path);
        let settings = match self.settings.get(&key) {
            Some((_, Ok(settings))) => settings,
            _ => return true,
        };
        if editor::is_checked_file(settings, &path) {
            return true;
        }
        let Some(document) = self.documents.get_mut(uri) else {
            return true;
        };
        *document.json_deck.get_or_insert_with(|| {
            editor::is_json_deck(settings, &path, document.json, &document.text)
        })
    }

    /// [`Server::checked`] for a buffer the server serves ([`Server::serves`]), `None` for
    /// any other: every answer goes through here, so a file `check DIR` would not check
    /// gets none.
    fn served(&mut self, uri: &Uri) -> Option<Result<(&Settings, &Buffer), String>> {
        if !self.serves(uri) {
            return None;
        }
        Some(self.checked(uri))
    }

    /// The diagnostics of every buffer changed since they were last sent.
    fn publish(&mut self) -> Vec<(Uri, Option<i32>, Vec<lsp::Diagnostic>)> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut published = Vec::new();
        for uri in dirty {
            let Some(version) = self.documents.get(&uri).map(|document| document.version) else {
                continue;
            };
            let diagnostics = match self.served(&uri) {
                None => Vec::new(),
                Some(Ok((_, buffer))) => {
                    let lines = Lines::new(&buffer.input.text);
                    buffer
                        .findings()
                        .iter()
                        .map(|finding| diagnostic(&uri, &lines, finding))
                        .collect()
                }
                Some(Err(message)) => vec![failure(message)],
            };
            published.push((uri, Some(version), diagnostics));
        }
        published
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        let answered =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request)));
        match answered {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("deckbox lsp failed on {method}"),
            ),
        }
    }

    fn answer(&mut self, request: Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        fn params<P: serde::de::DeserializeOwned>(
            request: Request,
        ) -> Result<(RequestId, P), (ErrorCode, String)> {
            let method = request.method.clone();
            serde_json::from_value(request.params)
                .map(|params| (request.id, params))
                .map_err(|error| {
                    (
                        ErrorCode::InvalidParams,
                        format!("invalid {method} params: {error}"),
                    )
                })
        }
        let failed = |message: String| (ErrorCode::RequestFailed, message);
        let json = |value: serde_json::Value| Ok(value);
        match request.method.as_str() {
            "textDocument/formatting" => {
                let (_, params): (_, lsp::DocumentFormattingParams) = params(request)?;
                let uri = params.text_document.uri;
                let Some(checked) = self.served(&uri) else {
                    return json(serde_json::json!([]));
                };
                let (settings, buffer) = checked.map_err(failed)?;
                let formatted = buffer.formatted(&settings.db).map_err(failed)?;
                let edits = whole(&buffer.input.text, formatted);
                json(serde_json::json!(edits))
            }
            "textDocument/codeAction" => {
                let (_, params): (_, lsp::CodeActionParams) = params(request)?;
                let uri = params.text_document.uri.clone();
                let (settings, buffer) = match self.served(&uri) {
                    Some(Ok(checked)) => checked,
                    _ => return json(serde_json::json!([])),
                };
                json(serde_json::json!(code_actions(
                    &uri, settings, buffer, &params
                )))
            }
            "textDocument/hover" => {
                let (_, params): (_, lsp::HoverParams) = params(request)?;
                let at = params.text_document_position_params;
                let (settings, buffer) = match self.served(&at.text_document.uri) {
                    Some(Ok(checked)) => checked,
                    _ => return json(serde_json::Value::Null),
                };
                let lines = Lines::new(&buffer.input.text);
                let offset = lines.offset(at.position.line, at.position.character);
                let hover = buffer
                    .hover(&settings.db, offset)
                    .map(|(span, text)| lsp::Hover {
                        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                            kind: lsp::MarkupKind::Markdown,
                            value: text,
                        }),
                        range: Some(range(&lines, span)),
                    });
                json(serde_json::json!(hover))
            }
            "textDocument/completion" => {
                let (_, params): (_, lsp::CompletionParams) = params(request)?;
                let at = params.text_document_position;
                let (settings, buffer) = match self.served(&at.text_document.uri) {
                    Some(Ok(checked)) => checked,
                    _ => return json(serde_json::Value::Null),
                };
                let lines = Lines::new(&buffer.input.text);
                let offset = lines.offset(at.position.line, at.position.character);
                let (span, candidates) = buffer.complete(&settings.db, offset);
                let replaced = range(&lines, span);
                let items: Vec<lsp::CompletionItem> = candidates
                    .into_iter()
                    .map(|candidate| lsp::CompletionItem {
                        label: candidate.label,
                        detail: Some(candidate.detail),
                        kind: Some(lsp::CompletionItemKind::VALUE),
                        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                            range: replaced,
                            new_text: candidate.insert,
                        })),
                        ..lsp::CompletionItem::default()
                    })
                    .collect();
                json(serde_json::json!(lsp::CompletionList {
                    is_incomplete: true,
                    items,
                }))
            }
            "textDocument/documentSymbol" => {
                let (_, params): (_, lsp::DocumentSymbolParams) = params(request)?;
                let (_, buffer) = match self.served(&params.text_document.uri) {
                    Some(Ok(checked)) => checked,
                    _ => return json(serde_json::json!([])),
                };
                json(serde_json::json!(symbols(buffer)))
            }
            "textDocument/codeLens" => {
                let (_, params): (_, lsp::CodeLensParams) = params(request)?;
                let (settings, buffer) = match self.served(&params.text_document.uri) {
                    Some(Ok(checked)) => checked,
                    _ => return json(serde_json::json!([])),
                };
                let lens = lsp::CodeLens {
                    range: lsp::Range::default(),
                    command: Some(lsp::Command {
                        title: buffer.summary(&settings.db),
                        command: String::new(),
                        arguments: None,
                    }),
                    data: None,
                };
                json(serde_json::json!([lens]))
            }
            method => Err((
                ErrorCode::MethodNotFound,
                format!("deckbox lsp does not answer {method}"),
            )),
        }
    }
}

/// The path of a `file:` URI (any other names no file: its settings are the defaults').
fn file_path(uri: &Uri) -> PathBuf {
    let is_file = uri
        .scheme()
        .is_some_and(|scheme| scheme.as_str().eq_ignore_ascii_case("file"));
    if !is_file {
        return PathBuf::from("-");
    }
    PathBuf::from(
        uri.path()
            .as_estr()
            .decode()
            .into_string_lossy()
            .into_owned(),
    )
}

fn range(lines: &Lines, span: deckbox::deck::Span) -> lsp::Range {
    let (start_line, start) = lines.position(span.offset);
    let (end_line, end) = lines.position(span.end());
    lsp::Range {
        start: lsp::Position::new(start_line, start),
        end: lsp::Position::new(end_line, end),
    }
}

fn diagnostic(uri: &Uri, lines: &Lines, finding: &Finding) -> lsp::Diagnostic {
    let related = finding
        .related
        .iter()
        .map(|(span, message)| lsp::DiagnosticRelatedInformation {
            location: lsp::Location {
                uri: uri.clone(),
                range: range(lines, *span),
            },
            message: message.clone(),
        })
        .collect::<Vec<_>>();
    lsp::Diagnostic {
        range: range(lines, finding.span),
        severity: Some(match finding.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lsp::NumberOrString::String(finding.rule.id().to_string())),
        code_description: finding
            .doc
            .parse::<Uri>()
            .ok()
            .map(|href| lsp::CodeDescription { href }),
        source: Some("deckbox".to_string()),
        message: finding.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

/// The one diagnostic of a buffer that could not be checked (too large, a bad
/// `# deckbox:` line, a config file that cannot be read).
fn failure(message: String) -> lsp::Diagnostic {
    lsp::Diagnostic {
        severity: Some(lsp::DiagnosticSeverity::ERROR),
        source: Some("deckbox".to_string()),
        message,
        ..lsp::Diagnostic::default()
    }
}

/// The edits that turn `text` into `formatted`: none when they are the same, else one
/// replacing the whole text.
fn whole(text: &str, formatted: String) -> Vec<lsp::TextEdit> {
    if formatted == text {
        return Vec::new();
    }
    let lines = Lines::new(text);
    vec![lsp::TextEdit {
        range: range(&lines, deckbox::deck::Span::new(0, text.len())),
        new_text: formatted,
    }]
}

/// The quick fixes of the findings under `params.range`, and "format this list".
fn code_actions(
    uri: &Uri,
    settings: &Settings,
    buffer: &Buffer,
    params: &lsp::CodeActionParams,
) -> Vec<lsp::CodeActionOrCommand> {
    let wanted = |kind: &lsp::CodeActionKind| match &params.context.only {
        Some(only) => only
            .iter()
            .any(|prefix| kind.as_str().starts_with(prefix.as_str())),
        None => true,
    };
    let lines = Lines::new(&buffer.input.text);
    let text = &buffer.input.text;
    let start = lines.offset(params.range.start.line, params.range.start.character);
    let start = editor::after_bom(text, start);
    let end = lines.offset(params.range.end.line, params.range.end.character);
    let end = editor::after_bom(text, end);
    let mut actions = Vec::new();
    let edit = |edits: Vec<lsp::TextEdit>| lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..lsp::WorkspaceEdit::default()
    };
    if wanted(&lsp::CodeActionKind::QUICKFIX) {
        for finding in buffer.findings() {
            let (from, to) = (finding.span.offset, finding.span.end());
            if to < start || from > end {
                continue;
            }
            for (index, fix) in buffer.fixes(&settings.db, &finding).into_iter().enumerate() {
                let edits = fix
                    .edits
                    .iter()
                    .map(|change| lsp::TextEdit {
                        range: range(&lines, change.span),
                        new_text: change.text.clone(),
                    })
                    .collect();
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: fix.title,
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic(uri, &lines, &finding)]),
                    edit: Some(edit(edits)),
                    is_preferred: Some(index == 0),
                    ..lsp::CodeAction::default()
                }));
            }
        }
    }
    if wanted(&lsp::CodeActionKind::SOURCE)
        && let Ok(formatted) = buffer.formatted(&settings.db)
        && formatted != buffer.input.text
    {
        actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: "Format this list (deckbox fmt)".to_string(),
            kind: Some(lsp::CodeActionKind::SOURCE),
            edit: Some(edit(whole(&buffer.input.text, formatted))),
            ..lsp::CodeAction::default()
        }));
    }
    actions
}

/// The outline: each header with the card lines under it.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, as `None`.
fn symbols(buffer: &Buffer) -> Vec<lsp::DocumentSymbol> {
    let lines = Lines::new(&buffer.input.text);
    let mut outline: Vec<lsp::DocumentSymbol> = Vec::new();
    for symbol in buffer.symbols() {
        let place = range(&lines, symbol.span);
        let entry = lsp::DocumentSymbol {
            name: symbol.name,
            detail: None,
            kind: if symbol.header {
                lsp::SymbolKind::NAMESPACE
            } else {
                lsp::SymbolKind::CONSTANT
            },
            tags: None,
            deprecated: None,
            range: place,
            selection_range: place,
            children: symbol.header.then(Vec::new),
        };
        match outline.last_mut() {
            Some(header) if !symbol.header && header.children.is_some() => {
                // A header's range holds its cards.
                header.range.end = entry.range.end;
                if let Some(children) = header.children.as_mut() {
                    children.push(entry);
                }
            }
            _ => outline.push(entry),
        }
    }
    outline
}
