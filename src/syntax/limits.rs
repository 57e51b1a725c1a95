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

/// Each bracket of the text outside strings and comments, with its byte offset, in order.
pub fn brackets(source: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let bytes = source.as_bytes();
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
                b @ (b'(' | b')' | b'{' | b'}') => return Some((at, b)),
                _ => {}
            }
        }
        None
    })
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

/// The span of the first node deeper than `limit`, found without recursion.
pub fn deepest_beyond(root: Pair<Rule>, limit: usize) -> Option<Span> {
    let mut stack = vec![(root, 0usize)];
    while let Some((p, depth)) = stack.pop() {
        if depth > limit {
            let s = p.as_span();
            return Some(Span::new(s.start(), s.end()));
        }
        stack.extend(p.into_inner().map(|c| (c, depth + 1)));
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
}
