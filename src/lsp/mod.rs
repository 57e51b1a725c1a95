//! `regula lsp`: a language server over standard input and output (JSON-RPC with
//! Content-Length framing, through `lsp-server`). It keeps the open game files, checks each
//! as it changes and publishes the diagnostics of `regula check`, and answers hovers,
//! definitions, references, completions, outlines, renames and formatting from
//! [`document::Document`].
//!
//! Positions are UTF-16 columns ([`lines`]); the whole text is sent on every change.

pub mod document;
pub mod index;
pub mod lines;

use document::Document;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions::default()),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
        })),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    }
}

/// Serves one client on standard input and output until it says `exit` (or closes its
/// end). Returns the exit code: 0 after `shutdown` then `exit`, 1 otherwise.
pub fn run() -> i32 {
    let (connection, io) = Connection::stdio();
    let code = serve(&connection);
    drop(connection);
    let _ = io.join();
    code
}

fn serve(connection: &Connection) -> i32 {
    let Ok((id, _params)) = connection.initialize_start() else {
        return 1;
    };
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "regula", "version": env!("CARGO_PKG_VERSION")},
    });
    if connection.initialize_finish(id, result).is_err() {
        return 1;
    }
    let mut server = Server {
        connection,
        docs: HashMap::new(),
    };
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => match connection.handle_shutdown(&req) {
                Ok(true) => return 0,
                Ok(false) => server.request(req),
                Err(_) => return 1,
            },
            Message::Notification(n) if n.method == "exit" => return 1,
            Message::Notification(n) => server.notification(n),
            Message::Response(_) => {}
        }
    }
    1
}

struct Server<'c> {
    connection: &'c Connection,
    docs: HashMap<lsp::Uri, Document>,
}

/// An error answer: its JSON-RPC code and message.
type Failure = (ErrorCode, String);

fn params<P: DeserializeOwned>(value: Value) -> Result<P, Failure> {
    serde_json::from_value(value).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn json<T: serde::Serialize>(value: T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

impl Server<'_> {
    fn send(&self, msg: impl Into<Message>) {
        // A client that has gone away is not an error of ours; the loop ends with it.
        let _ = self.connection.sender.send(msg.into());
    }

    fn doc(&self, uri: &lsp::Uri) -> Result<&Document, Failure> {
        self.docs.get(uri).ok_or_else(|| {
            (
                ErrorCode::InvalidParams,
                format!("`{}` is not open", uri.as_str()),
            )
        })
    }

    fn request(&self, req: Request) {
        let id = req.id.clone();
        let answer = self.answer(&req.method, req.params);
        self.send(match answer {
            Ok(v) => Response::new_ok(id, v),
            Err((code, msg)) => Response::new_err(id, code as i32, msg),
        });
    }

    fn answer(&self, method: &str, p: Value) -> Result<Value, Failure> {
        match method {
            "textDocument/hover" => {
                let p: lsp::HoverParams = params(p)?;
                let at = p.text_document_position_params;
                json(self.doc(&at.text_document.uri)?.hover(at.position))
            }
            "textDocument/definition" => {
                let p: lsp::GotoDefinitionParams = params(p)?;
                let at = p.text_document_position_params;
                let doc = self.doc(&at.text_document.uri)?;
                json(doc.definition(&at.text_document.uri, at.position))
            }
            "textDocument/references" => {
                let p: lsp::ReferenceParams = params(p)?;
                let at = p.text_document_position;
                let doc = self.doc(&at.text_document.uri)?;
                json(doc.references(
                    &at.text_document.uri,
                    at.position,
                    p.context.include_declaration,
                ))
            }
            "textDocument/completion" => {
                let p: lsp::CompletionParams = params(p)?;
                let at = p.text_document_position;
                let items = self.doc(&at.text_document.uri)?.completion(at.position);
                json(lsp::CompletionResponse::Array(items))
            }
            "textDocument/documentSymbol" => {
                let p: lsp::DocumentSymbolParams = params(p)?;
                let symbols = self.doc(&p.text_document.uri)?.symbols();
                json(lsp::DocumentSymbolResponse::Nested(symbols))
            }
            "textDocument/prepareRename" => {
                let p: lsp::TextDocumentPositionParams = params(p)?;
                let doc = self.doc(&p.text_document.uri)?;
                let (range, placeholder) = doc
                    .prepare_rename(p.position)
                    .map_err(|m| (ErrorCode::RequestFailed, m))?;
                json(lsp::PrepareRenameResponse::RangeWithPlaceholder { range, placeholder })
            }
            "textDocument/rename" => {
                let p: lsp::RenameParams = params(p)?;
                let at = p.text_document_position;
                let doc = self.doc(&at.text_document.uri)?;
                doc.rename(&at.text_document.uri, at.position, &p.new_name)
                    .map_err(|m| (ErrorCode::RequestFailed, m))
                    .and_then(json)
            }
            "textDocument/formatting" => {
                let p: lsp::DocumentFormattingParams = params(p)?;
                let doc = self.doc(&p.text_document.uri)?;
                doc.formatting()
                    .map_err(|m| (ErrorCode::InternalError, m))
                    .and_then(json)
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("`{method}` is not supported"),
            )),
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = params::<lsp::DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let d = p.text_document;
                self.docs
                    .insert(d.uri.clone(), Document::new(d.text, d.version));
                self.publish(&d.uri);
            }
            "textDocument/didChange" => {
                let Ok(p) = params::<lsp::DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                let Some(doc) = self.docs.get(&uri) else {
                    return;
                };
                let mut text = doc.text.clone();
                for change in p.content_changes {
                    match change.range {
                        // Only whole texts are asked for, but a range is honoured.
                        Some(r) => {
                            let lines = lines::Lines::new(&text);
                            let start = lines.offset(&text, r.start);
                            let end = lines.offset(&text, r.end).max(start);
                            text.replace_range(start..end, &change.text);
                        }
                        None => text = change.text,
                    }
                }
                self.docs
                    .insert(uri.clone(), Document::new(text, p.text_document.version));
                self.publish(&uri);
            }
            "textDocument/didClose" => {
                let Ok(p) = params::<lsp::DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                self.docs.remove(&uri);
                self.send_diagnostics(uri, Vec::new(), None);
            }
            _ => {}
        }
    }

    fn publish(&self, uri: &lsp::Uri) {
        if let Some(doc) = self.docs.get(uri) {
            self.send_diagnostics(uri.clone(), doc.diagnostics(uri), Some(doc.version));
        }
    }

    fn send_diagnostics(
        &self,
        uri: lsp::Uri,
        diagnostics: Vec<lsp::Diagnostic>,
        version: Option<i32>,
    ) {
        let params = lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new(
            "textDocument/publishDiagnostics".into(),
            params,
        ));
    }
}
