//! The tokens of a game file (words, numbers, strings, punctuation, comments), with the
//! structure that layout tools need: where each section, each line-level part of a section
//! (a statement, an effect, a setup line, an end rule, ...) and each expression starts.
//!
//! A small lexer reads the text. Where the grammar reads a section, the lexer's tokens are
//! split at the parser's token boundaries and take the parser's kinds, so that the two can
//! never disagree: `8x8` is `8`, `x`, `8`; `-1` is a number or a minus and a number, as the
//! grammar decides; `all` is a keyword only where the grammar expects one.

use super::grammar::{Grammar, Rule, is_keyword};
use crate::diag::Span;
use pest::Parser as _;
use pest::iterators::Pair;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Keyword,
    /// A name, a square or a piece's letter.
    Name,
    Number,
    String,
    /// Brackets, operators, `,`, `:` and `=`.
    Punct,
    LineComment,
    BlockComment,
    /// A character the language does not use (only in text with a syntax error).
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// Starts a section, or a part of a section that stands on its own line when the
    /// section is laid out over several lines.
    pub starts_unit: bool,
    /// `(` opening the arguments of a call or the parameters of a definition.
    pub call_paren: bool,
    /// Starts an expression or cell test that is not part of another one.
    pub starts_expr: bool,
    /// Ends an expression or cell test that is not part of another one.
    pub ends_expr: bool,
}

impl Token {
    fn new(kind: TokenKind, start: usize, end: usize) -> Token {
        Token {
            kind,
            span: Span::new(start, end),
            starts_unit: false,
            call_paren: false,
            starts_expr: false,
            ends_expr: false,
        }
    }

    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        &source[self.span.start..self.span.end]
    }

    pub fn is_comment(&self) -> bool {
        matches!(self.kind, TokenKind::LineComment | TokenKind::BlockComment)
    }
}

/// A top-level stretch of the file: a section, or text with a syntax error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub span: Span,
    pub broken: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Tokens {
    /// Every token of the text, in order.
    pub tokens: Vec<Token>,
    /// The sections, in the order of [`super::Parsed`]'s items.
    pub sections: Vec<Section>,
    /// The parser refused the text as a whole (too large, or brackets nested too deeply):
    /// the tokens are the lexer's alone and there are no sections.
    pub refused: bool,
}

impl Tokens {
    /// Whether the whole text forms sections, without a syntax error.
    pub fn is_clean(&self) -> bool {
        !self.refused && self.sections.iter().all(|s| !s.broken)
    }

    /// The token whose span contains `offset` or ends there, preferring the one that
    /// starts there.
    pub fn at(&self, offset: usize) -> Option<&Token> {
        let i = self.tokens.partition_point(|t| t.span.end < offset);
        let here = self.tokens.get(i)?;
        match self.tokens.get(i + 1) {
            Some(next) if next.span.start == offset => Some(next),
            _ => (here.span.start <= offset).then_some(here),
        }
    }
}

/// The tokens of a whole file.
pub fn tokens(source: &str) -> Tokens {
    let refused = Tokens {
        tokens: lex(source, 0, source.len()),
        sections: Vec::new(),
        refused: true,
    };
    if source.len() > crate::load::MAX_SOURCE_BYTES || super::limits::too_deep(source).is_some() {
        return refused;
    }
    let Ok(mut pairs) = Grammar::parse(Rule::file, source) else {
        return refused;
    };
    let Some(file) = pairs.next() else {
        return refused;
    };
    let mut out = Tokens::default();
    let mut at = 0;
    for p in file.into_inner() {
        let span = Span::new(p.as_span().start(), p.as_span().end());
        if p.as_rule() == Rule::EOI {
            continue;
        }
        out.tokens.extend(lex(source, at, span.start));
        let broken = p.as_rule() == Rule::broken
            || super::limits::deepest_beyond(p.clone(), super::MAX_TREE_DEPTH).is_some();
        let first = out.tokens.len();
        if broken {
            out.tokens.extend(lex(source, span.start, span.end));
        } else {
            out.tokens.extend(section_tokens(source, p));
        }
        // A pair's span may run on over the blanks and comments after it.
        let end = out.tokens[first..]
            .iter()
            .rfind(|t| !t.is_comment())
            .map_or(span.end, |t| t.span.end);
        out.sections.push(Section {
            span: Span::new(span.start, end),
            broken,
        });
        at = span.end;
    }
    out.tokens.extend(lex(source, at, source.len()));
    out
}

/// What the parser says about one section: its token boundaries and kinds, and where its
/// units, outermost expressions and calls are.
#[derive(Default)]
struct Structure {
    leaves: Vec<(Span, TokenKind)>,
    units: Vec<usize>,
    exprs: Vec<Span>,
    /// Ends of the names of calls, and starts of parameter lists.
    call_names: Vec<usize>,
    params: Vec<usize>,
}

fn leaf_kind(rule: Rule) -> Option<TokenKind> {
    Some(match rule {
        Rule::name | Rule::square => TokenKind::Name,
        Rule::int => TokenKind::Number,
        Rule::string => TokenKind::String,
        Rule::add_op | Rule::region_op | Rule::cmp_op | Rule::counter_op => TokenKind::Punct,
        r if is_keyword(r) => TokenKind::Keyword,
        _ => return None,
    })
}

/// Rules whose pairs are line-level parts of a section, when they stand directly in a
/// section or a block (an `if` after `else` is part of the `if` before it).
fn is_unit(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        meta | player_decl
            | point_line
            | region_case
            | setup_entry
            | hand_entry
            | end_rule
            | for_stmt
            | if_stmt
            | let_stmt
            | step_stmt
            | slide_stmt
            | leap_stmt
            | move_stmt
            | place_stmt
            | chain_stmt
            | new_stmt
            | class_stmt
            | if_effect
            | choose_eff
            | for_effect
            | along_effect
            | remove_eff
            | clear_eff
            | set_eff
            | again_eff
            | flip_eff
            | change_eff
            | put_eff
            | counter_eff
    )
}

fn structure(item: Pair<Rule>) -> Structure {
    let mut s = Structure::default();
    s.units.push(item.as_span().start());
    // Without recursion: the tree may be hundreds of levels deep.
    let mut stack = vec![(item, Rule::file, false)];
    while let Some((p, parent, in_expr)) = stack.pop() {
        let rule = p.as_rule();
        let span = Span::new(p.as_span().start(), p.as_span().end());
        if let Some(kind) = leaf_kind(rule) {
            s.leaves.push((span, kind));
            continue;
        }
        // An `if` after `else` belongs to the `if` before it; the statement after `new`
        // to the `new`. The sections of a variant stand on their own lines, like the file's.
        if (is_unit(rule) && !matches!(parent, Rule::if_stmt | Rule::if_effect | Rule::new_stmt))
            || parent == Rule::variant_item
        {
            s.units.push(span.start);
        }
        let is_expr = matches!(rule, Rule::expr | Rule::test);
        if is_expr && !in_expr {
            s.exprs.push(span);
        }
        match rule {
            Rule::params => s.params.push(span.start),
            Rule::call => {
                if let Some(name) = p.clone().into_inner().next() {
                    s.call_names.push(name.as_span().end());
                }
            }
            _ => {}
        }
        for child in p.into_inner() {
            stack.push((child, rule, in_expr || is_expr));
        }
    }
    s.leaves.sort_by_key(|(span, _)| span.start);
    s.units.sort_unstable();
    s.exprs.sort_unstable();
    s.call_names.sort_unstable();
    s.params.sort_unstable();
    s
}

/// The tokens of a section the grammar accepted.
fn section_tokens(source: &str, item: Pair<Rule>) -> Vec<Token> {
    let (start, end) = (item.as_span().start(), item.as_span().end());
    let s = structure(item);
    let mut cuts: Vec<usize> = s
        .leaves
        .iter()
        .flat_map(|(span, _)| [span.start, span.end])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    for t in lex(source, start, end) {
        let inside = cuts.partition_point(|&c| c <= t.span.start);
        let mut from = t.span.start;
        for &cut in cuts[inside..].iter().take_while(|&&c| c < t.span.end) {
            out.push(Token::new(t.kind, from, cut));
            from = cut;
        }
        out.push(Token::new(t.kind, from, t.span.end));
    }
    let mut last_name_end = None;
    for t in &mut out {
        if let Ok(i) = s
            .leaves
            .binary_search_by_key(&t.span.start, |(sp, _)| sp.start)
            && s.leaves[i].0 == t.span
        {
            t.kind = s.leaves[i].1;
        } else if !t.is_comment() && t.kind != TokenKind::Punct {
            // Text between the parser's tokens is punctuation, whitespace or comments.
            t.kind = TokenKind::Unknown;
        }
        t.starts_unit = s.units.binary_search(&t.span.start).is_ok();
        t.starts_expr = s
            .exprs
            .binary_search_by_key(&t.span.start, |e| e.start)
            .is_ok();
        if t.text(source) == "(" {
            t.call_paren = s.params.binary_search(&t.span.start).is_ok()
                || last_name_end.is_some_and(|e| s.call_names.binary_search(&e).is_ok());
        }
        if !t.is_comment() {
            last_name_end = Some(t.span.end);
        }
    }
    // A pair's span may run on over the blanks and comments after it.
    for e in &s.exprs {
        let upto = out.partition_point(|t| t.span.end <= e.end);
        let last = out[..upto].iter_mut().rev().find(|t| !t.is_comment());
        if let Some(t) = last.filter(|t| t.span.start >= e.start) {
            t.ends_expr = true;
        }
    }
    out
}

const PUNCT2: [&str; 7] = ["==", "!=", "<=", ">=", "+=", "-=", ".."];
const PUNCT1: &[u8] = b"{}()=:,|&-+*<>";

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The lexer's tokens of `source[start..end]`, without the parser's help.
pub(super) fn lex(source: &str, start: usize, end: usize) -> Vec<Token> {
    let bytes = &source.as_bytes()[..end];
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let b = bytes[i];
        let from = i;
        let rest = &bytes[i..];
        let kind = if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        } else if i == 0 && rest.starts_with("\u{feff}".as_bytes()) {
            // A byte-order mark, which the grammar skips.
            i += 3;
            continue;
        } else if rest.starts_with(b"//") {
            i += rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            TokenKind::LineComment
        } else if rest.starts_with(b"/*") {
            i += rest[2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4);
            TokenKind::BlockComment
        } else if b == b'"' {
            i += 1;
            while i < end && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(end);
            TokenKind::String
        } else if b.is_ascii_alphabetic() || b == b'_' {
            while i < end && is_ident(bytes[i]) {
                i += 1;
            }
            let word = &source[from..i];
            if crate::keywords::is_reserved(word) {
                TokenKind::Keyword
            } else {
                TokenKind::Name
            }
        } else if b.is_ascii_digit() || (b == b'-' && rest.get(1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < end && bytes[i].is_ascii_digit() {
                i += 1;
            }
            TokenKind::Number
        } else if PUNCT2.iter().any(|p| rest.starts_with(p.as_bytes())) {
            i += 2;
            TokenKind::Punct
        } else if PUNCT1.contains(&b) {
            i += 1;
            TokenKind::Punct
        } else {
            i += source[i..].chars().next().map_or(1, char::len_utf8);
            TokenKind::Unknown
        };
        // An escape may have stepped into the middle of a character: end on a boundary.
        while i < end && !source.is_char_boundary(i) {
            i += 1;
        }
        out.push(Token::new(kind, from, i.min(end)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<(TokenKind, &str)> {
        tokens(source)
            .tokens
            .iter()
            .map(|t| (t.kind, t.text(source)))
            .collect()
    }

    #[test]
    fn the_parser_decides_what_a_minus_and_an_x_are() {
        use TokenKind::*;
        assert_eq!(
            kinds("board 8x8"),
            [
                (Keyword, "board"),
                (Number, "8"),
                (Keyword, "x"),
                (Number, "8")
            ]
        );
        let src = "define d = turns -1\nmoves P { leap 1 -2 }";
        let k = kinds(src);
        assert!(k.contains(&(Punct, "-")) && k.contains(&(Number, "1")));
        assert!(k.contains(&(Number, "-2")));
        // `all` is a keyword only where the grammar expects one.
        let src = "define a = any d in all: to + d is empty";
        let k = kinds(src);
        assert!(k.contains(&(Keyword, "any")) && k.contains(&(Name, "all")));
    }

    #[test]
    fn units_expressions_and_calls_are_marked() {
        let src = "moves P {\n  if a and f(b) { step all }\n  else if c { step north }\n}\ndefine f(x) = (x is empty)";
        let t = tokens(src);
        assert!(t.is_clean());
        let units: Vec<&str> = t
            .tokens
            .iter()
            .filter(|t| t.starts_unit)
            .map(|t| t.text(src))
            .collect();
        // The `if` after `else` belongs to the statement before it.
        assert_eq!(units, ["moves", "if", "step", "step", "define"]);
        let calls = t.tokens.iter().filter(|t| t.call_paren).count();
        assert_eq!(calls, 2);
        let starts: Vec<&str> = t
            .tokens
            .iter()
            .filter(|t| t.starts_expr)
            .map(|t| t.text(src))
            .collect();
        assert_eq!(starts, ["a", "c", "("]);
        assert!(t.tokens.last().unwrap().ends_expr);
    }

    #[test]
    fn broken_text_is_lexed_and_nothing_is_lost() {
        let src = "board 3 x 3\npiece King letter\n\"unclosed é\nplayers { a b } /* open";
        let t = tokens(src);
        assert!(!t.is_clean());
        let broken: Vec<bool> = t.sections.iter().map(|s| s.broken).collect();
        // The unclosed comment after `players` is a broken stretch of its own.
        assert_eq!(broken, [false, true, false, true]);
        let last = t.tokens.last().unwrap();
        assert_eq!(last.kind, TokenKind::BlockComment);
        for w in t.tokens.windows(2) {
            assert!(w[0].span.end <= w[1].span.start);
        }
        for tok in &t.tokens {
            assert!(src.is_char_boundary(tok.span.start) && src.is_char_boundary(tok.span.end));
        }
    }

    #[test]
    fn a_token_is_found_at_its_start_and_its_end() {
        let src = "piece King letter K";
        let t = tokens(src);
        assert_eq!(t.at(6).unwrap().text(src), "King");
        assert_eq!(t.at(10).unwrap().text(src), "King");
        assert_eq!(t.at(5).unwrap().text(src), "piece");
        assert!(t.at(100).is_none());
    }
}
