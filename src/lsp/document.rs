//! One open game file and what the language server answers about it: its diagnostics,
//! hovers, definitions and references, completions, outline, renames and formatting. Every
//! answer is computed from the text alone; nothing here reads files or talks JSON-RPC.

use super::index::{Index, Kind};
use super::lines::Lines;
use crate::diag::{self, Severity, Span};
use crate::geometry::{self, Board, DirWord};
use crate::keywords::{self, BuiltinKind, KeywordKind};
use crate::syntax::ast::{self, Item};
use crate::syntax::tokens::{TokenKind, Tokens};
use lsp_types as lsp;
use std::collections::HashMap;

pub struct Document {
    pub text: String,
    pub version: i32,
    lines: Lines,
    tokens: Tokens,
    file: ast::File,
    index: Index,
    diagnostics: Vec<diag::Diagnostic>,
    program: Option<crate::ir::Program>,
}

/// At most this many lines of a declaration are shown in a hover.
const HOVER_LINES: usize = 12;

impl Document {
    pub fn new(text: String, version: i32) -> Document {
        let file = crate::syntax::parse(&text).file;
        let tokens = crate::syntax::tokens::tokens(&text);
        let (program, mut diagnostics) = match crate::compile(&text) {
            Ok((p, warnings)) => (Some(p), warnings),
            Err(d) => (None, d),
        };
        // Those of `regula check`: with variants, each variant's own problems too.
        if !crate::variants::variants(&file).is_empty() {
            diagnostics = crate::check_all(&text);
        }
        Document {
            lines: Lines::new(&text),
            index: Index::new(&file),
            text,
            version,
            tokens,
            file,
            diagnostics,
            program,
        }
    }

    pub fn offset(&self, pos: lsp::Position) -> usize {
        self.lines.offset(&self.text, pos)
    }

    fn range(&self, span: Span) -> lsp::Range {
        self.lines.range(&self.text, span)
    }

    fn location(&self, uri: &lsp::Uri, span: Span) -> lsp::Location {
        lsp::Location::new(uri.clone(), self.range(span))
    }

    fn slice(&self, span: Span) -> &str {
        &self.text[span.start.min(self.text.len())..span.end.min(self.text.len())]
    }

    /// The diagnostics of `regula check`, with the same codes, messages and hints (a hint
    /// is a last line of the message) and the secondary places as related information.
    pub fn diagnostics(&self, uri: &lsp::Uri) -> Vec<lsp::Diagnostic> {
        self.diagnostics
            .iter()
            .map(|d| {
                let mut message = d.message.clone();
                if let Some(h) = &d.hint {
                    message.push_str(&format!("\nhint: {h}"));
                }
                let related: Vec<lsp::DiagnosticRelatedInformation> = d
                    .labels
                    .iter()
                    .map(|(span, note)| lsp::DiagnosticRelatedInformation {
                        location: self.location(uri, *span),
                        message: note.clone(),
                    })
                    .collect();
                lsp::Diagnostic {
                    range: self.range(d.span.unwrap_or_default()),
                    severity: Some(match d.severity {
                        Severity::Error => lsp::DiagnosticSeverity::ERROR,
                        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
                    }),
                    code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
                    source: Some("regula".into()),
                    message,
                    related_information: (!related.is_empty()).then_some(related),
                    ..lsp::Diagnostic::default()
                }
            })
            .collect()
    }

    // ---------- hover ----------

    pub fn hover(&self, pos: lsp::Position) -> Option<lsp::Hover> {
        let offset = self.offset(pos);
        let (span, text) = match self.index.at(offset) {
            Some((span, d)) => (span, self.describe(d)),
            None => {
                let t = self.tokens.at(offset)?;
                (t.span, self.describe_word(t.text(&self.text), t.kind)?)
            }
        };
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: text,
            }),
            range: Some(self.range(span)),
        })
    }

    /// What a declared name is: its kind and its declaration, and for regions and flags
    /// their cells when the file compiles.
    fn describe(&self, d: usize) -> String {
        let decl = &self.index.decls[d];
        let mut out = format!("{} `{}`", decl.kind.word(), decl.name);
        if decl.kind == Kind::Player {
            let first = self.index.decls.iter().find(|d| d.kind == Kind::Player);
            if first.is_some_and(|f| f.name == decl.name) {
                out.push_str(", moves first");
            }
        }
        let declaration = match decl.kind {
            // A variable is shown with the line that binds it, not its whole section.
            Kind::Variable | Kind::Parameter => {
                let start = self.text[..decl.span.start]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                let end = self.text[decl.span.end..]
                    .find('\n')
                    .map_or(self.text.len(), |i| decl.span.end + i);
                Some(self.text[start..end].trim().to_string())
            }
            _ => self
                .tokens
                .sections
                .get(decl.item)
                .map(|s| self.slice(s.span).to_string()),
        };
        if let Some(text) = declaration {
            let lines: Vec<&str> = text.lines().collect();
            let mut shown = lines[..lines.len().min(HOVER_LINES)].join("\n");
            if lines.len() > HOVER_LINES {
                shown.push_str("\n...");
            }
            out.push_str(&format!("\n\n```regula\n{shown}\n```"));
        }
        if let Some(cells) = self.cells(decl) {
            out.push_str(&format!("\n\n{cells}"));
        }
        out
    }

    /// The cells of a region or flag, from the compiled program.
    fn cells(&self, decl: &super::index::Decl) -> Option<String> {
        let game = &self.program.as_ref()?.game;
        let board = Board::new(game.board.clone()).ok()?;
        let names = |cells: &[geometry::Cell]| -> String {
            let list: Vec<String> = cells.iter().map(|&c| board.name(c)).collect();
            match list.len() {
                0 => "no cell".into(),
                1 => format!("1 cell: {}", list[0]),
                n => format!("{n} cells: {}", list.join(" ")),
            }
        };
        match decl.kind {
            Kind::Region => {
                let r = game.regions.iter().find(|r| r.name == decl.name)?;
                if r.cells.windows(2).all(|w| w[0] == w[1]) {
                    let cells = r.cells.first()?;
                    Some(names(cells))
                } else {
                    let per: Vec<String> = game
                        .players
                        .iter()
                        .zip(&r.cells)
                        .map(|(p, c)| format!("- {}: {}", p.name, names(c)))
                        .collect();
                    Some(format!("cells per player:\n{}", per.join("\n")))
                }
            }
            Kind::Flag => {
                let f = game.flags.iter().find(|f| f.name == decl.name)?;
                Some(format!("set at the start on {}", names(&f.initial)))
            }
            _ => None,
        }
    }

    /// The board the file declares, or a stand-in that knows the square board's words.
    fn board(&self) -> Option<Board> {
        if let Some(p) = &self.program {
            return Board::new(p.game.board.clone()).ok();
        }
        self.file.items.iter().find_map(|item| match item {
            Item::Board {
                shape: ast::BoardShape::Square { files, ranks },
                ..
            } => {
                let f = u8::try_from(files.value).ok()?;
                let r = u8::try_from(ranks.value).ok()?;
                Board::square(f, r).ok()
            }
            _ => None,
        })
    }

    fn describe_word(&self, word: &str, kind: TokenKind) -> Option<String> {
        if kind == TokenKind::Keyword
            && let Some(k) = keywords::keyword(word)
        {
            let what = match k.kind {
                KeywordKind::Section => "section keyword",
                KeywordKind::Reserved => "keyword",
                KeywordKind::Contextual => "keyword here",
            };
            return Some(format!("**`{word}`** ({what}): {}", k.doc));
        }
        if kind != TokenKind::Name {
            return None;
        }
        let mut parts: Vec<String> = keywords::BUILTINS
            .iter()
            .filter(|b| b.word == word)
            .map(|b| {
                format!(
                    "**`{word}`** (built-in {}): {}",
                    builtin_kind(b.kind),
                    b.doc
                )
            })
            .collect();
        if let Some(d) = self.direction(word) {
            parts.push(format!("**`{word}`** (direction): {d}"));
        }
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }

    /// What a direction word means on this file's board.
    fn direction(&self, word: &str) -> Option<String> {
        let board = self
            .board()
            .or_else(|| Board::square(8, 8).ok())
            .filter(|b| b.dir_word(word).is_some())?;
        Some(match board.dir_word(word)? {
            DirWord::Abs(_) => "an absolute direction of the board".into(),
            DirWord::Rel(_) => {
                "a direction relative to the point-of-view player's `forward`".into()
            }
            DirWord::Set(set) => {
                let names: Vec<&str> = set.iter().map(|&d| board.dir_name(d)).collect();
                format!("the directions {}", names.join(", "))
            }
            DirWord::Unavailable => "a direction of another kind of board".into(),
        })
    }

    // ---------- definitions and references ----------

    pub fn definition(&self, uri: &lsp::Uri, pos: lsp::Position) -> Option<lsp::Location> {
        let (_, d) = self.index.at(self.offset(pos))?;
        Some(self.location(uri, self.index.decls[d].span))
    }

    pub fn references(
        &self,
        uri: &lsp::Uri,
        pos: lsp::Position,
        with_declaration: bool,
    ) -> Vec<lsp::Location> {
        let Some((_, d)) = self.index.at(self.offset(pos)) else {
            return Vec::new();
        };
        let decl = self.index.decls[d].span;
        self.index
            .occurrences(d)
            .filter(|s| with_declaration || *s != decl)
            .map(|s| self.location(uri, s))
            .collect()
    }

    // ---------- completion ----------

    /// Whether an offset is inside a comment or a string, where nothing is completed.
    fn in_text(&self, offset: usize) -> bool {
        self.tokens.tokens.iter().any(|t| {
            let s = t.text(&self.text);
            let open_ended = match t.kind {
                TokenKind::LineComment => true,
                TokenKind::BlockComment => !s.ends_with("*/") || s.len() < 4,
                TokenKind::String => !s.ends_with('"') || s.len() < 2,
                _ => return false,
            };
            t.span.start < offset && (offset < t.span.end || (open_ended && offset == t.span.end))
        })
    }

    pub fn completion(&self, pos: lsp::Position) -> Vec<lsp::CompletionItem> {
        let offset = self.offset(pos);
        if self.in_text(offset) {
            return Vec::new();
        }
        let item = self
            .tokens
            .sections
            .iter()
            .position(|s| s.span.start <= offset && offset <= s.span.end);
        let mut out: Vec<lsp::CompletionItem> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut add = |label: &str, kind: lsp::CompletionItemKind, detail: String| {
            if seen.insert(label.to_string()) {
                out.push(lsp::CompletionItem {
                    label: label.to_string(),
                    kind: Some(kind),
                    detail: Some(detail),
                    ..lsp::CompletionItem::default()
                });
            }
        };
        // Variables of the rule around the cursor, declared before it.
        for d in self.index.decls.iter().rev() {
            if !d.kind.is_global() && Some(d.item) == item && d.span.end <= offset {
                add(
                    &d.name,
                    lsp::CompletionItemKind::VARIABLE,
                    d.kind.word().into(),
                );
            }
        }
        for d in &self.index.decls {
            if d.kind.is_global() {
                add(&d.name, completion_kind(d.kind), d.kind.word().into());
            }
        }
        for b in keywords::BUILTINS {
            let kind = match b.kind {
                BuiltinKind::CellTest => lsp::CompletionItemKind::FUNCTION,
                BuiltinKind::Player => lsp::CompletionItemKind::CONSTANT,
                _ => lsp::CompletionItemKind::VALUE,
            };
            add(
                b.word,
                kind,
                format!("built-in {}: {}", builtin_kind(b.kind), b.doc),
            );
        }
        let board = self.board().or_else(|| Board::square(8, 8).ok());
        let words = board.map_or_else(geometry::direction_words, |b| b.dir_words());
        for w in words {
            add(w, lsp::CompletionItemKind::ENUM_MEMBER, "direction".into());
        }
        for k in keywords::KEYWORDS {
            add(k.word, lsp::CompletionItemKind::KEYWORD, k.doc.into());
        }
        out
    }

    // ---------- outline ----------

    #[allow(deprecated)] // `DocumentSymbol::deprecated` must be given, as `None`.
    fn symbol(
        &self,
        name: String,
        detail: Option<String>,
        kind: lsp::SymbolKind,
        range: Span,
        selection: Span,
        children: Vec<lsp::DocumentSymbol>,
    ) -> lsp::DocumentSymbol {
        lsp::DocumentSymbol {
            name,
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: self.range(range),
            selection_range: self.range(selection),
            children: (!children.is_empty()).then_some(children),
        }
    }

    /// The sections, each with the names it declares (and an `end` section with its rules).
    pub fn symbols(&self) -> Vec<lsp::DocumentSymbol> {
        use lsp::SymbolKind as S;
        let mut out = Vec::new();
        for (item, section) in self.file.items.iter().zip(&self.tokens.sections) {
            let span = section.span;
            let keyword = self
                .tokens
                .tokens
                .iter()
                .find(|t| t.span.start >= span.start)
                .map_or(span, |t| t.span);
            let names = |v: &[ast::Name]| {
                v.iter()
                    .map(|n| n.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let declared = |n: &ast::Name, what: &str, kind| {
                self.symbol(
                    n.text.clone(),
                    Some(what.into()),
                    kind,
                    span,
                    n.span,
                    vec![],
                )
            };
            let plain = |name: String, kind, children| {
                self.symbol(name, None, kind, span, keyword, children)
            };
            out.push(match item {
                Item::Game { title, .. } => self.symbol(
                    "game".into(),
                    Some(title.clone()),
                    S::MODULE,
                    span,
                    keyword,
                    vec![],
                ),
                Item::Players(decls, _) => {
                    let children = decls
                        .iter()
                        .map(|p| declared(&p.name, "player", S::CONSTANT))
                        .collect();
                    plain("players".into(), S::NAMESPACE, children)
                }
                Item::Board { shape, .. } => self.symbol(
                    "board".into(),
                    Some(match shape {
                        ast::BoardShape::Square { files, ranks } => format!("{files} x {ranks}"),
                        ast::BoardShape::Hex { files, ranks } => format!("hex {files} x {ranks}"),
                        ast::BoardShape::Hexagon { side } => format!("hexagon {side}"),
                        ast::BoardShape::Points { files, ranks, .. } => {
                            format!("points {files} x {ranks}")
                        }
                    }),
                    S::STRUCT,
                    span,
                    keyword,
                    vec![],
                ),
                Item::Region { name, .. } => declared(name, "region", S::ENUM),
                Item::Flag { name, .. } => declared(name, "flag", S::BOOLEAN),
                Item::Piece { name, .. } => declared(name, "piece", S::CLASS),
                Item::Group { name, .. } => declared(name, "group", S::INTERFACE),
                Item::Counter { name, .. } => declared(name, "counter", S::NUMBER),
                Item::Define { name, .. } => declared(name, "definition", S::FUNCTION),
                Item::Setup(_) => plain("setup".into(), S::NAMESPACE, vec![]),
                Item::Hand(_) => plain("hand".into(), S::NAMESPACE, vec![]),
                Item::Moves { pieces, .. } => {
                    plain(format!("moves {}", names(pieces)), S::METHOD, vec![])
                }
                Item::Attacks { pieces, .. } => {
                    plain(format!("attacks {}", names(pieces)), S::METHOD, vec![])
                }
                Item::After { pieces, .. } => plain(
                    match pieces {
                        Some(p) => format!("after move of {}", names(p)),
                        None => "after move".into(),
                    },
                    S::EVENT,
                    vec![],
                ),
                Item::Legal(_) => plain("legal if".into(), S::BOOLEAN, vec![]),
                Item::Priority { classes, .. } => {
                    plain(format!("priority {}", names(classes)), S::ENUM, vec![])
                }
                Item::Action { name, .. } => declared(name, "action", S::EVENT),
                Item::Pass(_) => plain("pass when no moves".into(), S::EVENT, vec![]),
                Item::Score(_) => plain("score".into(), S::NUMBER, vec![]),
                Item::Param { name, .. } => declared(name, "param", S::CONSTANT),
                Item::Variant { name, .. } => {
                    plain(format!("variant {}", name.text), S::NAMESPACE, vec![])
                }
                Item::End(rules) => {
                    let children = rules
                        .iter()
                        .map(|r| {
                            let text: Vec<&str> = self.slice(r.span).split_whitespace().collect();
                            let mut name = text.join(" ");
                            if name.chars().count() > 60 {
                                name = name.chars().take(59).collect::<String>() + "…";
                            }
                            self.symbol(name, None, S::EVENT, r.span, r.span, vec![])
                        })
                        .collect();
                    plain("end".into(), S::NAMESPACE, children)
                }
                Item::Broken { .. } => continue,
            });
        }
        out
    }

    // ---------- rename ----------

    /// The name a rename at this position would change, or why there is none.
    pub fn prepare_rename(&self, pos: lsp::Position) -> Result<(lsp::Range, String), String> {
        let offset = self.offset(pos);
        if let Some((span, _)) = self.index.at(offset) {
            return Ok((self.range(span), self.slice(span).to_string()));
        }
        Err(match self.tokens.at(offset) {
            Some(t) if t.kind == TokenKind::Keyword => {
                format!("`{}` is a keyword", t.text(&self.text))
            }
            Some(t) if keywords::is_builtin_name(t.text(&self.text)) => {
                format!("`{}` is a built-in name", t.text(&self.text))
            }
            _ => "there is no declared name here".into(),
        })
    }

    /// Renames the declared name at a position everywhere it is used, or says why not.
    pub fn rename(
        &self,
        uri: &lsp::Uri,
        pos: lsp::Position,
        new_name: &str,
    ) -> Result<lsp::WorkspaceEdit, String> {
        let (_, d) = self
            .index
            .at(self.offset(pos))
            .ok_or("there is no declared name here")?;
        let decl = &self.index.decls[d];
        if new_name != decl.name {
            self.check_new_name(d, new_name)?;
        }
        let edits = self
            .index
            .occurrences(d)
            .map(|s| lsp::TextEdit::new(self.range(s), new_name.to_string()))
            .collect();
        Ok(lsp::WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..lsp::WorkspaceEdit::default()
        })
    }

    fn check_new_name(&self, d: usize, new: &str) -> Result<(), String> {
        let decl = &self.index.decls[d];
        let mut chars = new.chars();
        let valid = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(format!(
                "`{new}` is not a name: a letter or `_`, then letters, digits, `_` or `-`"
            ));
        }
        if keywords::keyword(new).is_some() {
            return Err(format!("`{new}` is a keyword"));
        }
        if keywords::is_builtin_name(new) {
            return Err(format!("`{new}` is a built-in name"));
        }
        if geometry::looks_like_cell_name(new) {
            return Err(format!("`{new}` looks like a cell"));
        }
        let clash = self.index.decls.iter().find(|o| {
            o.name == new && (decl.kind.is_global() || o.kind.is_global() || o.item == decl.item)
        });
        if let Some(o) = clash {
            let line = self.lines.position(&self.text, o.span.start).line + 1;
            return Err(format!(
                "`{new}` is already the name of a {} (line {line})",
                o.kind.word()
            ));
        }
        let broken = self.file.items.iter().any(|i| match i {
            Item::Broken { words, .. } => words.iter().any(|w| *w == decl.name || *w == new),
            _ => false,
        });
        if broken {
            return Err(format!(
                "a section with a syntax error mentions `{}` or `{new}`: fix it first",
                decl.name
            ));
        }
        Ok(())
    }

    // ---------- formatting ----------

    /// The edit that lays the document out as `regula fmt` does; none while it has a
    /// syntax error.
    pub fn formatting(&self) -> Result<Vec<lsp::TextEdit>, String> {
        match crate::fmt::format(&self.text) {
            Ok(f) if f == self.text => Ok(Vec::new()),
            Ok(f) => Ok(vec![lsp::TextEdit::new(
                self.range(Span::new(0, self.text.len())),
                f,
            )]),
            Err(crate::fmt::Error::Syntax(_)) => Ok(Vec::new()),
            Err(crate::fmt::Error::Internal(msg)) => Err(msg),
        }
    }
}

fn builtin_kind(k: BuiltinKind) -> &'static str {
    match k {
        BuiltinKind::Direction => "direction",
        BuiltinKind::CellTest => "cell test",
        BuiltinKind::Region => "region",
        BuiltinKind::Player => "player",
        BuiltinKind::Value => "value",
    }
}

fn completion_kind(k: Kind) -> lsp::CompletionItemKind {
    use lsp::CompletionItemKind as C;
    match k {
        Kind::Player => C::CONSTANT,
        Kind::Piece | Kind::Group => C::CLASS,
        Kind::Region => C::ENUM,
        Kind::Flag => C::PROPERTY,
        Kind::Counter => C::FIELD,
        Kind::Definition => C::FUNCTION,
        Kind::Param => C::CONSTANT,
        Kind::Parameter | Kind::Variable => C::VARIABLE,
    }
}
