//! `regula fmt`: one canonical layout for game files.
//!
//! The formatter reads the token stream of [`crate::syntax::tokens`] (comments included),
//! with the parser's marks of where sections, their line-level parts ("units": statements,
//! effects, setup lines, end rules, ...) and expressions start, builds a tree of blocks,
//! units, expressions and parentheses from it, and lays that out with a Wadler-style pretty
//! printer (the `pretty` crate) at [`WIDTH`] columns:
//!
//! - two spaces of indentation per brace level; one space between tokens, none inside
//!   parentheses, before `,` and `:`, or between a definition's name and its `(`;
//! - each section starts a line; a section laid out over several lines is separated from its
//!   neighbours by a blank line; other blank lines are kept, at most one in a row;
//! - a block written on one line stays on one line if it fits (its units separated by two
//!   spaces, or one when each is a single word); otherwise each unit gets its own line;
//! - a line break the author put inside a unit is kept, as a continuation line indented by
//!   two more (a break after `and`/`or` moves before it); a block's `{` and an `else` join
//!   the line before;
//! - an expression too long for its line breaks before each `and`/`or` at its outermost
//!   level, then inside parentheses, as needed;
//! - comments stay where they were: on their own line, or at the end of a line, where
//!   consecutive end-of-line comments at one indentation are aligned;
//! - trailing whitespace is removed and the file ends with one newline.
//!
//! Formatting never changes what a file says: a file with a syntax error is refused, and
//! every result is checked to have exactly the tokens and comments of the input.

use crate::diag::{Code, Diagnostic};
use crate::syntax::tokens::{Token, TokenKind};
use pretty::{Doc, RcDoc};

/// The width lines are fitted to.
pub const WIDTH: usize = 100;

#[derive(Debug)]
pub enum Error {
    /// The file has syntax errors (the parser's diagnostics): it is not formatted.
    Syntax(Vec<Diagnostic>),
    /// A fault of the formatter: its result would not have said the same as the input.
    Internal(String),
}

/// The canonical layout of a game file.
pub fn format(source: &str) -> Result<String, Error> {
    let tokens = crate::syntax::tokens::tokens(source);
    if !tokens.is_clean() {
        let mut diags = crate::syntax::parse(source).diagnostics;
        if diags.is_empty() {
            diags.push(Diagnostic::unlocated(
                Code::E0001,
                "the file cannot be read as sections",
            ));
        }
        return Err(Error::Syntax(diags));
    }
    let out = Printer::new(source, &tokens.tokens).file();
    same_tokens(source, &tokens.tokens, &out)?;
    Ok(out)
}

/// Checks that `out` has the tokens of the input, comments included (up to trailing
/// whitespace inside comments), and no syntax error.
fn same_tokens(source: &str, before: &[Token], out: &str) -> Result<(), Error> {
    let after = crate::syntax::tokens::tokens(out);
    let text = |src: &str, t: &Token| -> String {
        let s = t.text(src);
        if t.is_comment() {
            s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
        } else {
            s.to_string()
        }
    };
    let a: Vec<(TokenKind, String)> = before.iter().map(|t| (t.kind, text(source, t))).collect();
    let b: Vec<(TokenKind, String)> = after
        .tokens
        .iter()
        .map(|t| (t.kind, text(out, t)))
        .collect();
    if !after.is_clean() || a != b {
        let at = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        return Err(Error::Internal(format!(
            "the formatted text would differ from the input at token {at} ({:?} became {:?}); the file is left as it is",
            a.get(at).map(|t| &t.1),
            b.get(at).map(|t| &t.1)
        )));
    }
    Ok(())
}

type D = RcDoc<'static, ()>;

/// Marks of the placeholders that stand for strings and comments during layout, so that
/// their text (which may hold anything, line breaks included) is never measured as code,
/// reindented or stripped; they are put back at the end. Outside strings and comments a
/// game file is ASCII, so these characters can only be placeholders there.
const HIDDEN: char = '\u{E000}';
/// A placeholder for a comment at the end of a line (aligned with its neighbours).
const TRAILING: char = '\u{E001}';
const END: char = '\u{E002}';

enum Node {
    Tok(usize),
    Block(Block),
    /// An outermost expression or cell test.
    Group(Vec<Node>),
    Paren(usize, Vec<Node>, usize),
}

struct Block {
    open: usize,
    close: usize,
    /// A line comment right after `{`.
    comment: Option<usize>,
    entries: Vec<Entry>,
    /// Written on one line.
    one_line: bool,
}

struct Entry {
    blank_before: bool,
    kind: EntryKind,
}

enum EntryKind {
    Unit(Vec<Node>),
    /// A comment on its own line between units.
    Comment(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Unit,
    Group,
    Paren,
}

struct Printer<'s> {
    src: &'s str,
    toks: &'s [Token],
    /// Line breaks before each token in the input.
    breaks: Vec<usize>,
    pos: usize,
    hidden: Vec<String>,
}

impl<'s> Printer<'s> {
    fn new(src: &'s str, toks: &'s [Token]) -> Printer<'s> {
        let mut breaks = Vec::with_capacity(toks.len());
        let mut at = 0;
        for t in toks {
            breaks.push(src[at..t.span.start].matches('\n').count());
            at = t.span.end;
        }
        let mut p = Printer {
            src,
            toks,
            breaks,
            pos: 0,
            hidden: Vec::new(),
        };
        // A condition broken after `and`/`or` is broken before it instead.
        for i in 0..toks.len().saturating_sub(1) {
            if p.is_and_or(i)
                && p.breaks[i] == 0
                && p.breaks[i + 1] > 0
                && !toks[i + 1].is_comment()
            {
                p.breaks.swap(i, i + 1);
            }
        }
        p
    }

    fn text(&self, i: usize) -> &'s str {
        self.toks[i].text(self.src)
    }

    fn is(&self, i: usize, text: &str) -> bool {
        i < self.toks.len() && self.toks[i].kind == TokenKind::Punct && self.text(i) == text
    }

    fn is_and_or(&self, i: usize) -> bool {
        self.toks[i].kind == TokenKind::Keyword && matches!(self.text(i), "and" | "or")
    }

    // ---------- tokens → tree ----------

    fn body(&mut self) -> Vec<Entry> {
        let mut entries = Vec::new();
        while self.pos < self.toks.len() && !self.is(self.pos, "}") {
            let blank_before = self.breaks[self.pos] >= 2;
            let i = self.pos;
            // A block comment followed on its line by a unit stays in front of it.
            let leads = self.toks[i].kind == TokenKind::BlockComment
                && i + 1 < self.toks.len()
                && self.breaks[i + 1] == 0
                && !self.toks[i + 1].is_comment()
                && !self.is(i + 1, "}");
            let kind = if leads {
                self.pos += 1;
                let mut nodes = vec![Node::Tok(i)];
                nodes.extend(self.seq(Level::Unit));
                EntryKind::Unit(nodes)
            } else if self.toks[i].is_comment() {
                self.pos += 1;
                EntryKind::Comment(i)
            } else {
                EntryKind::Unit(self.seq(Level::Unit))
            };
            entries.push(Entry { blank_before, kind });
        }
        entries
    }

    /// Whether the unit being read ends before the comments at `pos`: the next token
    /// after them starts a unit or closes the block.
    fn unit_ends_before_comments(&self) -> bool {
        let mut i = self.pos;
        while i < self.toks.len() && self.toks[i].is_comment() {
            i += 1;
        }
        i == self.toks.len() || self.is(i, "}") || self.toks[i].starts_unit
    }

    fn seq(&mut self, level: Level) -> Vec<Node> {
        let mut nodes = Vec::new();
        while self.pos < self.toks.len() {
            let i = self.pos;
            let t = &self.toks[i];
            let stop = match level {
                Level::Unit => {
                    self.is(i, "}")
                        || (t.starts_unit && !nodes.is_empty())
                        || (t.is_comment()
                            && self.breaks[i] > 0
                            && self.unit_ends_before_comments())
                }
                // Expressions and parentheses never hold braces.
                Level::Group => self.is(i, "{") || self.is(i, "}"),
                Level::Paren => self.is(i, ")") || self.is(i, "{") || self.is(i, "}"),
            };
            if stop {
                break;
            }
            let node = if self.is(i, "{") {
                Node::Block(self.block())
            } else if t.starts_expr && level == Level::Unit {
                // Before parentheses: an expression may start with one.
                Node::Group(self.seq(Level::Group))
            } else if self.is(i, "(") {
                self.paren()
            } else {
                self.pos += 1;
                Node::Tok(i)
            };
            let done = level == Level::Group && self.toks[self.last(&node)].ends_expr;
            nodes.push(node);
            if done {
                break;
            }
        }
        if nodes.is_empty() && self.pos < self.toks.len() && level == Level::Unit {
            // A stray closing token (not in a text the parser accepted): keep it.
            self.pos += 1;
            nodes.push(Node::Tok(self.pos - 1));
        }
        nodes
    }

    fn block(&mut self) -> Block {
        let open = self.pos;
        self.pos += 1;
        let mut comment = None;
        if self.pos < self.toks.len()
            && self.toks[self.pos].kind == TokenKind::LineComment
            && self.breaks[self.pos] == 0
        {
            comment = Some(self.pos);
            self.pos += 1;
        }
        let entries = self.body();
        let close = self.pos.min(self.toks.len() - 1);
        self.pos += 1;
        let inside = &self.src[self.toks[open].span.start..self.toks[close].span.end];
        Block {
            open,
            close,
            comment,
            entries,
            one_line: comment.is_none() && !inside.contains('\n'),
        }
    }

    fn paren(&mut self) -> Node {
        let open = self.pos;
        self.pos += 1;
        let inner = self.seq(Level::Paren);
        let close = self.pos.min(self.toks.len() - 1);
        self.pos += 1;
        Node::Paren(open, inner, close)
    }

    fn first(&self, n: &Node) -> usize {
        match n {
            Node::Tok(i) | Node::Paren(i, _, _) => *i,
            Node::Block(b) => b.open,
            Node::Group(v) => v.first().map_or(0, |n| self.first(n)),
        }
    }

    fn last(&self, n: &Node) -> usize {
        match n {
            Node::Tok(i) | Node::Paren(_, _, i) => *i,
            Node::Block(b) => b.close,
            Node::Group(v) => v.last().map_or(0, |n| self.last(n)),
        }
    }

    // ---------- tree → document ----------

    fn hide(&mut self, i: usize, trailing: bool) -> D {
        let text = self.text(i).to_string();
        let width = if trailing { 0 } else { text.chars().count() };
        let mark = if trailing { TRAILING } else { HIDDEN };
        let placeholder = format!("{mark}{}{END}", self.hidden.len());
        self.hidden.push(text);
        RcDoc::new(Doc::RenderLen(
            width,
            RcDoc::new(Doc::OwnedText(placeholder.into())),
        ))
    }

    fn token(&mut self, i: usize) -> D {
        match self.toks[i].kind {
            TokenKind::LineComment => self.hide(i, self.breaks[i] == 0),
            TokenKind::BlockComment | TokenKind::String => self.hide(i, false),
            _ => RcDoc::text(self.text(i).to_string()),
        }
    }

    /// What goes between two neighbouring nodes.
    fn sep(&self, prev: &Node, next: &Node, in_expr: bool) -> D {
        let (a, b) = (self.last(prev), self.first(next));
        let tb = self.text(b);
        if self.toks[a].kind == TokenKind::LineComment {
            return RcDoc::hardline();
        }
        if self.toks[b].kind == TokenKind::Punct && matches!(tb, ")" | "," | ":") {
            return RcDoc::nil();
        }
        if self.breaks[b] > 0 {
            let joins = matches!(next, Node::Block(_))
                || (matches!(prev, Node::Block(_))
                    && self.toks[b].kind == TokenKind::Keyword
                    && tb == "else");
            return if joins {
                RcDoc::space()
            } else {
                RcDoc::hardline()
            };
        }
        if in_expr && self.is_and_or(b) {
            return RcDoc::line();
        }
        if self.is(a, "(") || self.toks[b].call_paren {
            return RcDoc::nil();
        }
        // A range: `3..19`.
        if self.is(a, "..") || self.is(b, "..") {
            return RcDoc::nil();
        }
        RcDoc::space()
    }

    fn seq_doc(&mut self, nodes: &[Node], in_expr: bool) -> D {
        let mut d = RcDoc::nil();
        for (k, n) in nodes.iter().enumerate() {
            if k > 0 {
                d = d.append(self.sep(&nodes[k - 1], n, in_expr));
            }
            d = d.append(self.node(n));
        }
        d
    }

    fn node(&mut self, n: &Node) -> D {
        match n {
            Node::Tok(i) => self.token(*i),
            Node::Block(b) => self.block_doc(b),
            Node::Group(v) => self.seq_doc(v, true).nest(2).group(),
            Node::Paren(open, inner, close) => {
                let inner = self.seq_doc(inner, true);
                let open = self.token(*open);
                let close = self.token(*close);
                open.append(inner.nest(2)).append(close).group()
            }
        }
    }

    /// A unit: its continuation lines are indented by two, the blocks in it are not.
    fn unit(&mut self, nodes: &[Node]) -> D {
        let mut out = RcDoc::nil();
        let mut run = RcDoc::nil();
        for (k, n) in nodes.iter().enumerate() {
            let sep = if k == 0 {
                RcDoc::nil()
            } else {
                self.sep(&nodes[k - 1], n, false)
            };
            if let Node::Block(b) = n {
                out = out
                    .append(run.nest(2))
                    .append(sep)
                    .append(self.block_doc(b));
                run = RcDoc::nil();
            } else {
                run = run.append(sep).append(self.node(n));
            }
        }
        out.append(run.nest(2))
    }

    fn entry(&mut self, e: &Entry) -> D {
        match &e.kind {
            EntryKind::Unit(nodes) => self.unit(nodes),
            EntryKind::Comment(i) => self.hide(*i, false),
        }
    }

    fn entries(&mut self, entries: &[Entry]) -> D {
        let mut d = RcDoc::nil();
        for (k, e) in entries.iter().enumerate() {
            if k > 0 {
                d = d.append(RcDoc::hardline());
                if e.blank_before {
                    d = d.append(RcDoc::hardline());
                }
            }
            d = d.append(self.entry(e));
        }
        d
    }

    fn block_doc(&mut self, b: &Block) -> D {
        let open = self.token(b.open);
        let close = self.token(b.close);
        if b.entries.is_empty() && b.comment.is_none() {
            return open.append(RcDoc::space()).append(close);
        }
        if b.one_line {
            let single = b.entries.iter().all(|e| match &e.kind {
                EntryKind::Unit(n) => n.len() == 1 && matches!(n[0], Node::Tok(_)),
                EntryKind::Comment(_) => true,
            });
            let sep = if single { " " } else { "  " };
            let mut inner = RcDoc::nil();
            for (k, e) in b.entries.iter().enumerate() {
                if k > 0 {
                    inner = inner.append(RcDoc::hardline().flat_alt(RcDoc::text(sep)));
                }
                inner = inner.append(self.entry(e));
            }
            return open
                .append(RcDoc::line().append(inner).nest(2))
                .append(RcDoc::line())
                .append(close)
                .group();
        }
        let mut d = open;
        if let Some(c) = b.comment {
            d = d.append(RcDoc::space()).append(self.hide(c, true));
        }
        if !b.entries.is_empty() {
            d = d.append(RcDoc::hardline().append(self.entries(&b.entries)).nest(2));
        }
        d.append(RcDoc::hardline()).append(close)
    }

    fn render(doc: D) -> String {
        let mut s = String::new();
        let _ = doc.render_fmt(WIDTH, &mut s);
        s
    }

    fn file(&mut self) -> String {
        let mut entries = self.body();
        while self.pos < self.toks.len() {
            // Not in a text the parser accepted; kept rather than lost.
            entries.push(Entry {
                blank_before: self.breaks[self.pos] >= 2,
                kind: EntryKind::Unit(vec![Node::Tok(self.pos)]),
            });
            self.pos += 1;
            entries.extend(self.body());
        }
        // A section and the comments just above it form a group; a group laid out over
        // several lines is set apart by blank lines.
        let mut rendered = Vec::new();
        let mut group = Vec::new();
        let mut multi: Vec<bool> = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            let text = Self::render(self.entry(e));
            let starts_group =
                k == 0 || e.blank_before || matches!(entries[k - 1].kind, EntryKind::Unit(_));
            if starts_group {
                multi.push(false);
            }
            if matches!(e.kind, EntryKind::Unit(_)) && text.contains('\n') {
                *multi.last_mut().expect("a group") = true;
            }
            group.push(multi.len() - 1);
            rendered.push(text);
        }
        let mut out = String::new();
        for (k, text) in rendered.iter().enumerate() {
            if k > 0 {
                out.push('\n');
                let new_group = group[k] != group[k - 1];
                if entries[k].blank_before
                    || (new_group && (multi[group[k]] || multi[group[k - 1]]))
                {
                    out.push('\n');
                }
            }
            out.push_str(text);
        }
        self.finish(&out)
    }

    /// Trailing whitespace, the alignment of end-of-line comments, and the hidden texts
    /// put back.
    fn finish(&self, text: &str) -> String {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches(' ')).collect();
        let split: Vec<Option<(String, &str)>> = lines
            .iter()
            .map(|l| {
                let at = l.find(TRAILING)?;
                let code = self.unhide(l[..at].trim_end());
                (!code.trim().is_empty()).then_some((code, &l[at..]))
            })
            .collect();
        let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
        let mut out = String::new();
        let mut k = 0;
        while k < lines.len() {
            let Some((_, _)) = &split[k] else {
                out.push_str(&self.unhide(lines[k]));
                out.push('\n');
                k += 1;
                continue;
            };
            let mut end = k + 1;
            while end < lines.len()
                && split[end].is_some()
                && indent(lines[end]) == indent(lines[k])
            {
                end += 1;
            }
            let column = (k..end)
                .filter_map(|j| split[j].as_ref().map(|(c, _)| c.chars().count()))
                .max()
                .unwrap_or(0)
                + 2;
            for s in split[k..end].iter().flatten() {
                let (code, comment) = s;
                let pad = column - code.chars().count();
                out.push_str(code);
                out.push_str(&" ".repeat(pad));
                out.push_str(&self.unhide(comment));
                out.push('\n');
            }
            k = end;
        }
        while out.ends_with("\n\n") {
            out.pop();
        }
        if out.trim().is_empty() {
            return String::new();
        }
        out
    }

    /// A line with its placeholders replaced by their texts (comments without trailing
    /// whitespace).
    fn unhide(&self, line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(at) = rest.find([HIDDEN, TRAILING]) {
            out.push_str(&rest[..at]);
            let after = &rest[at + HIDDEN.len_utf8()..];
            let end = after.find(END).unwrap_or(after.len());
            let text = after[..end]
                .parse::<usize>()
                .ok()
                .and_then(|i| self.hidden.get(i))
                .map_or("", String::as_str);
            if text.starts_with('"') {
                out.push_str(text);
            } else {
                let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
                out.push_str(&lines.join("\n"));
            }
            rest = after.get(end + END.len_utf8()..).unwrap_or("");
        }
        out.push_str(rest);
        out
    }
}

/// `regula fmt`: formats each file in place (`-`: standard input to standard output), or
/// with `check`, changes nothing and lists on standard output the files that would change.
/// Problems are printed on standard error. Returns the exit code: 0 when every file is
/// formatted (or, with `check`, already was), 1 otherwise.
pub fn run(paths: &[String], check: bool) -> i32 {
    use std::io::Write;
    let mut status = 0;
    let report = |path: &str, source: &str, diags: &[Diagnostic]| {
        let mut err = std::io::stderr().lock();
        for d in diags {
            let _ = err.write_all(crate::diag::render(d, path, source).as_bytes());
        }
    };
    for path in paths {
        let source = match crate::read_source(path) {
            Ok(s) => s,
            Err(e) => {
                let (diags, text) = e.diagnostics();
                report(e.path(), text, &diags);
                status = 1;
                continue;
            }
        };
        let formatted = match format(&source) {
            Ok(f) => f,
            Err(Error::Syntax(diags)) => {
                report(path, &source, &diags);
                eprintln!("error: `{path}` has syntax errors and is left as it is");
                status = 1;
                continue;
            }
            Err(Error::Internal(msg)) => {
                eprintln!("error: `{path}`: {msg}; please report it with the file");
                status = 1;
                continue;
            }
        };
        let changed = formatted != source;
        if check {
            if changed {
                println!("{path}");
                status = 1;
            }
        } else if path == "-" {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(formatted.as_bytes());
            let _ = out.flush();
        } else if changed && let Err(e) = std::fs::write(path, &formatted) {
            eprintln!("error: cannot write `{path}`: {e}");
            status = 1;
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(s: &str) -> String {
        match format(s) {
            Ok(out) => out,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn spacing_indentation_and_one_line_blocks() {
        let src = "moves  King{step all to not friend}\nmoves Pawn {\nif from+forward in last-rank{ for p in Queen,Knight {step forward then {change to to p}} }\n}\n";
        assert_eq!(
            fmt(src),
            "moves King { step all to not friend }\n\nmoves Pawn {\n  if from + forward in last-rank { for p in Queen, Knight { step forward then { change to to p } } }\n}\n"
        );
    }

    #[test]
    fn calls_parameters_and_parentheses_are_tight() {
        assert_eq!(
            fmt("define f ( k , d ) = ( k + d is empty ) and g( k )"),
            "define f(k, d) = (k + d is empty) and g(k)\n"
        );
    }

    #[test]
    fn long_conditions_break_at_and_or_from_the_outside_in() {
        let cond = (0..12)
            .map(|i| format!("x{i} is empty"))
            .collect::<Vec<_>>();
        let src = format!(
            "legal if {} or (a is empty and b is empty)",
            cond.join(" and ")
        );
        let out = fmt(&src);
        assert!(out.lines().all(|l| l.len() <= WIDTH), "{out}");
        assert!(
            out.starts_with("legal if x0 is empty\n    and x1 is empty\n"),
            "{out}"
        );
        assert!(
            out.contains("\n    or (a is empty and b is empty)\n"),
            "{out}"
        );
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn an_expression_that_starts_with_a_parenthesis_breaks_too() {
        let long = (0..10)
            .map(|i| format!("x{i} is empty"))
            .collect::<Vec<_>>()
            .join(" and ");
        let out = fmt(&format!("legal if (a is empty or b is empty) and {long}"));
        assert!(
            out.starts_with("legal if (a is empty or b is empty)\n    and x0 is empty\n"),
            "{out}"
        );
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn comments_stay_and_end_of_line_comments_align() {
        let src = "// head\n\n\n\nplayers { white black } // first\nboard 3 x 3     // size\n/* before */ piece P letter P\n";
        assert_eq!(
            fmt(src),
            "// head\n\nplayers { white black }  // first\nboard 3 x 3              // size\n/* before */ piece P letter P\n"
        );
    }

    #[test]
    fn a_file_with_a_syntax_error_is_refused() {
        match format("piece King letter\nboard 3 x 3\n") {
            Err(Error::Syntax(d)) => assert_eq!(d[0].code, Code::E0001),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn strings_keep_their_text() {
        let src = "game \"A  b\n   \n\u{E000}c\" {   }\n";
        assert_eq!(fmt(src), "game \"A  b\n   \n\u{E000}c\" { }\n");
    }
}
