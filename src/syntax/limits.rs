//! The bounds the syntax stage enforces before and after pest runs, so that every later
//! stage may recurse over the tree without risk to the stack, and one lexical scanner of
//! brackets that all of them share.

use super::grammar::Rule;
use crate::diag::Span;
use pest::iterators::Pair;

/// Deepest bracket nesting accepted; deeper input is refused instead of risking the stack.
pub const MAX_NESTING: usize = 64;

/// Deepest syntax tree accepted (a nesting level of an expression is several tree levels).
pub const MAX_TREE_DEPTH: usize = 600;

/// A token of the text that the bounds look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `(`, `)`, `{` or `}`.
    Bracket(u8),
    /// A name or keyword.
    Word(&'a str),
    /// `=`, `+=` or `-=` (not a comparison).
    Assign,
}

/// The brackets, words and assignments of the text outside strings and comments, each
/// with its byte offset, in order.
pub fn tokens(source: &str) -> impl Iterator<Item = (usize, Token<'_>)> + '_ {
    let bytes = source.as_bytes();
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            i += 1;
            match bytes[at] {
                b'"' => {
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'/' if bytes.get(at + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(at + 1) == Some(&b'*') => {
                    i += 1;
                    while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/'))
                    {
                        i += 1;
                    }
                    i += 2;
                }
                b @ (b'(' | b')' | b'{' | b'}') => return Some((at, Token::Bracket(b))),
                b'<' | b'>' | b'!' | b'=' if bytes.get(at + 1) == Some(&b'=') => i += 1,
                b'=' => return Some((at, Token::Assign)),
                b if b.is_ascii_alphabetic() || b == b'_' => {
                    while i < bytes.len() && word_byte(bytes[i]) {
                        i += 1;
                    }
                    return Some((at, Token::Word(&source[at..i])));
                }
                // A number: its digits are not the start of a word.
                b if b.is_ascii_digit() => {
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                _ => {}
            }
        }
        None
    })
}

/// Each bracket of the text outside strings and comments, with its byte offset, in order.
pub fn brackets(source: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    tokens(source).filter_map(|(at, t)| match t {
        Token::Bracket(b) => Some((at, b)),
        _ => None,
    })
}

/// Where constructs that open a level of nesting without a bracket (`not`, `as P:`,
/// `any d in D:`, `first … from … toward`, `else if`) first nest deeper than [`MAX_TREE_DEPTH`], if
/// they do. The parser recurses once per such level, before the tree can be measured, so
/// their nesting is bounded from the text first. The count errs on the high side, never
/// the low: a level is closed only where the grammar must have closed it — `and` and `or`
/// end a `not` or a `from` (whose operands are single comparisons and sums), `toward` ends
/// a `from`, a closing bracket ends what its bracket opened, and an assignment or a word
/// that never stands in an expression ends the expression.
pub fn prefixes_too_deep(source: &str) -> Option<Span> {
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        /// `not` or `from`: ends with its operand.
        Operand,
        /// The line of `first`/`count`/`for … from`: ends at `toward`.
        From,
        /// `as` and quantifiers: their body extends as far as possible.
        Body,
    }
    let mut open: Vec<Open> = Vec::new();
    // The number of levels open at each bracket open.
    let mut brackets: Vec<usize> = Vec::new();
    let mut after_else = false;
    for (at, t) in tokens(source) {
        let base = brackets.last().copied().unwrap_or(0);
        let else_if = after_else && t == Token::Word("if");
        after_else = t == Token::Word("else");
        match t {
            // `else if` nests the next `if` in the one before, up to the end of the chain.
            Token::Word("else") => open.push(Open::Body),
            Token::Word("if") if else_if => {}
            Token::Bracket(b'(' | b'{') => brackets.push(open.len()),
            Token::Bracket(_) => open.truncate(brackets.pop().unwrap_or(0)),
            Token::Assign => open.truncate(base),
            Token::Word("not") => open.push(Open::Operand),
            Token::Word("from") => open.push(Open::From),
            Token::Word("as" | "any" | "all") => open.push(Open::Body),
            Token::Word("and" | "or") => {
                while open.len() > base && open.last() != Some(&Open::Body) {
                    open.pop();
                }
            }
            Token::Word("toward") => {
                if let Some(i) = open[base..].iter().rposition(|o| *o == Open::From) {
                    open.truncate(base + i);
                }
            }
            Token::Word(w) if crate::keywords::ends_expression(w) => open.truncate(base),
            Token::Word(_) => {}
        }
        if open.len() > MAX_TREE_DEPTH {
            let len = match t {
                Token::Word(w) => w.len(),
                _ => 1,
            };
            return Some(Span::new(at, at + len));
        }
    }
    None
}

/// Where brackets first nest deeper than [`MAX_NESTING`], if they do.
pub fn too_deep(source: &str) -> Option<Span> {
    let mut depth = 0usize;
    for (at, b) in brackets(source) {
        if b == b'(' || b == b'{' {
            depth += 1;
            if depth > MAX_NESTING {
                return Some(Span::new(at, at + 1));
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    None
}

/// The brackets of one kind (`{` or `(`) opened and not closed before `pos`.
pub fn open_before(source: &str, pos: usize, open: u8) -> Vec<usize> {
    let close = if open == b'{' { b'}' } else { b')' };
    let mut stack = Vec::new();
    for (at, b) in brackets(source).take_while(|&(at, _)| at < pos) {
        if b == open {
            stack.push(at);
        } else if b == close {
            stack.pop();
        }
    }
    stack
}

/// A part of the text that would make a tree deeper than the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    pub span: Span,
    /// When a chain of operators is the cause: how many operands it has.
    pub chain: Option<usize>,
}

/// The first node deeper than `limit`, found without recursion. A chain of N operands
/// (`a + b + …`, `r | s | …`) counts N - 1 levels of its own: it lowers to N - 1 binary
/// operations inside one another, which later stages walk recursively.
pub fn deepest_beyond(root: Pair<Rule>, limit: usize) -> Option<TooDeep> {
    let span = |p: &Pair<Rule>| Span::new(p.as_span().start(), p.as_span().end());
    let mut stack = vec![(root, 0usize)];
    while let Some((p, depth)) = stack.pop() {
        if depth > limit {
            return Some(TooDeep {
                span: span(&p),
                chain: None,
            });
        }
        let operands = match p.as_rule() {
            // Operands alternate with operator tokens.
            Rule::sum | Rule::region_expr => p.clone().into_inner().count().div_ceil(2),
            // `*` is a plain string, not a token of its own.
            Rule::product => p.clone().into_inner().count(),
            _ => 1,
        };
        let below = depth + operands;
        if operands > 1 && below > limit {
            return Some(TooDeep {
                span: span(&p),
                chain: Some(operands),
            });
        }
        stack.extend(p.into_inner().map(|c| (c, below)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_in_strings_and_comments_do_not_count() {
        let text = "a ( \"(\" // (\n /* { ( */ { ) }";
        let found: Vec<u8> = brackets(text).map(|(_, b)| b).collect();
        assert_eq!(found, b"({)}");
    }

    #[test]
    fn tokens_are_brackets_words_and_assignments() {
        let text = "define x-1 = a1 == 2 /* not */ \"as\" c += 10 <= (d)";
        let found: Vec<Token> = tokens(text).map(|(_, t)| t).collect();
        use Token::*;
        assert_eq!(
            found,
            [
                Word("define"),
                Word("x-1"),
                Assign,
                Word("a1"),
                Word("c"),
                Assign,
                Bracket(b'('),
                Word("d"),
                Bracket(b')')
            ]
        );
    }

    #[test]
    fn prefix_nesting_is_bounded_before_parsing() {
        let deep = |unit: &str, n: usize| format!("legal if {}true", unit.repeat(n));
        for unit in [
            "not ",
            "as a:",
            "any d in N:",
            "as a: true and ",
            "not as a: ",
        ] {
            let text = deep(unit, MAX_TREE_DEPTH + 1);
            assert!(prefixes_too_deep(&text).is_some(), "{unit}");
        }
        assert_eq!(prefixes_too_deep(&deep("as a:", MAX_TREE_DEPTH)), None);
        let first = format!(
            "legal if {}to{} is empty",
            "first empty from ".repeat(MAX_TREE_DEPTH + 1),
            " toward N".repeat(MAX_TREE_DEPTH + 1)
        );
        assert!(prefixes_too_deep(&first).is_some());
        // Siblings do not add up: levels close where the grammar closes them.
        for (unit, tail) in [
            ("not true and ", "true"),
            ("from is empty or ", "true"),
            ("(as a: true) and ", "true"),
            ("first empty from to toward N is empty and ", "true"),
        ] {
            let text = format!("legal if {}{tail}", unit.repeat(3 * MAX_TREE_DEPTH));
            assert_eq!(prefixes_too_deep(&text), None, "{unit}");
        }
        let chain = format!(
            "moves K {{ if true {{ }}{} }}",
            " else if true { }".repeat(MAX_TREE_DEPTH + 1)
        );
        assert!(prefixes_too_deep(&chain).is_some());
        let ifs = format!(
            "moves K {{ {} }}",
            "if true { } else { } ".repeat(3 * MAX_TREE_DEPTH)
        );
        assert_eq!(prefixes_too_deep(&ifs), None);
        let rules = "end { when as a: true: draw }\n".repeat(3 * MAX_TREE_DEPTH);
        assert_eq!(prefixes_too_deep(&rules), None);
        let effects = format!(
            "after move {{ {} }}",
            "c += as a: 1 ".repeat(3 * MAX_TREE_DEPTH)
        );
        assert_eq!(prefixes_too_deep(&effects), None);
    }

    #[test]
    fn a_comment_full_of_brackets_is_not_too_deep() {
        let text = format!("// {}\nboard 3 x 3", "(".repeat(70));
        assert_eq!(too_deep(&text), None);
        let text = format!("/* {} */", "{".repeat(70));
        assert_eq!(too_deep(&text), None);
        let deep = "(".repeat(65);
        assert_eq!(too_deep(&deep), Some(Span::new(64, 65)));
    }

    #[test]
    fn open_brackets_before_a_position() {
        let text = "moves X { if a { ( }";
        assert_eq!(open_before(text, text.len(), b'{'), vec![8]);
        assert_eq!(open_before(text, text.len(), b'(').len(), 1);
        assert!(open_before(text, 5, b'{').is_empty());
    }

    fn depth_of(rule: Rule, text: &str, limit: usize) -> Option<TooDeep> {
        use pest::Parser as _;
        let p = super::super::grammar::Grammar::parse(rule, text)
            .unwrap()
            .next()
            .unwrap();
        deepest_beyond(p, limit)
    }

    #[test]
    fn a_chain_of_operators_counts_one_level_per_operator() {
        let sum = |n: usize| vec!["1"; n].join(" + ");
        // expr > or > and > not > cmp > sum, then the chain, then product > int.
        assert_eq!(depth_of(Rule::expr, &sum(100), 200), None);
        let deep = depth_of(Rule::expr, &sum(300), 200).unwrap();
        assert_eq!(deep.chain, Some(300));
        assert_eq!(deep.span, Span::new(0, sum(300).len()));
        let product = vec!["2"; 300].join(" * ");
        assert_eq!(
            depth_of(Rule::expr, &product, 200).unwrap().chain,
            Some(300)
        );
        let region = vec!["a1"; 300].join(" | ");
        assert_eq!(
            depth_of(Rule::region_expr, &region, 200).unwrap().chain,
            Some(300)
        );
        // A flat list is not a chain: `a and b and …` and squares `a1 b1 …`.
        let and = vec!["true"; 300].join(" and ");
        assert_eq!(depth_of(Rule::expr, &and, 200), None);
        assert_eq!(depth_of(Rule::region_expr, &"a1 ".repeat(300), 200), None);
    }
}
