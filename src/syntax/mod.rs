//! Stage 1: source text → syntax tree. Knows the grammar, nothing about games.
//!
//! The parser never gives up: a stretch of text that does not form a section becomes an
//! [`ast::Item::Broken`] with a syntax error, and the sections around it are read as usual,
//! so that the checker can still report every other problem of the file.

pub mod ast;
mod errors;
mod grammar;
mod limits;
mod lower;
pub mod tokens;

use crate::diag::{Code, Diagnostic, Span};
use ast::{File, Item};
use grammar::{Grammar, Rule};
pub use limits::{MAX_NESTING, MAX_TREE_DEPTH};
use pest::Parser as _;

/// At most this many syntax errors are reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

/// A file's syntax tree, as much of it as could be read, and its syntax errors.
#[derive(Debug, Default)]
pub struct Parsed {
    pub file: File,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a whole file, recovering from syntax errors section by section.
pub fn parse(source: &str) -> Parsed {
    let refuse = |d: Diagnostic| Parsed {
        file: File::default(),
        diagnostics: vec![d],
    };
    if source.len() > crate::load::MAX_SOURCE_BYTES {
        return refuse(
            Diagnostic::unlocated(
                Code::E0002,
                format!("the file is too large ({} bytes)", source.len()),
            )
            .with_hint(format!(
                "game files are limited to {} bytes",
                crate::load::MAX_SOURCE_BYTES
            )),
        );
    }
    if let Some(span) = limits::too_deep(source) {
        return refuse(
            Diagnostic::new(Code::E0003, span, "brackets are nested too deeply").with_hint(
                format!("at most {MAX_NESTING} levels of `(` and `{{` are accepted"),
            ),
        );
    }
    if let Some(span) = limits::prefixes_too_deep(source) {
        return refuse(
            Diagnostic::new(Code::E0006, span, "this expression is nested too deeply")
                .with_hint("split it into named definitions (`define name = ...`)"),
        );
    }
    let file = match Grammar::parse(Rule::file, source) {
        Ok(mut pairs) => pairs.next().expect("the file rule always yields one pair"),
        // `broken` accepts any text, so this is not expected; report it all the same.
        Err(e) => return refuse(errors::syntax_error(source, 0, source.len(), e)),
    };
    let mut out = Parsed::default();
    for p in file.into_inner() {
        let span = Span::new(p.as_span().start(), p.as_span().end());
        match p.as_rule() {
            Rule::EOI => {}
            Rule::broken => {
                if out.diagnostics.len() < MAX_SYNTAX_ERRORS {
                    out.diagnostics.push(broken_stretch(source, span));
                }
                out.file.items.push(broken(source, span));
            }
            _ => match limits::deepest_beyond(p.clone(), MAX_TREE_DEPTH) {
                Some(deep) => {
                    out.diagnostics.push(too_deep(deep));
                    out.file.items.push(broken(source, span));
                }
                None => {
                    let bad = numbers_out_of_range(&p);
                    if bad.is_empty() {
                        out.file.items.push(lower::item(p));
                    } else {
                        out.diagnostics.extend(bad);
                        out.file.items.push(broken(source, span));
                    }
                }
            },
        }
    }
    out
}

/// A number that does not fit in 64 bits, for each one in an item: such an item is not
/// read further, rather than read with another number.
fn numbers_out_of_range(item: &pest::iterators::Pair<Rule>) -> Vec<Diagnostic> {
    item.clone()
        .into_inner()
        .flatten()
        .filter(|p| p.as_rule() == Rule::int && p.as_str().parse::<i64>().is_err())
        .map(|p| {
            let span = Span::new(p.as_span().start(), p.as_span().end());
            Diagnostic::new(
                Code::E0007,
                span,
                format!("the number {} is out of range", p.as_str()),
            )
            .with_hint(format!(
                "numbers are whole numbers from {} to {}",
                i64::MIN,
                i64::MAX
            ))
        })
        .collect()
}

fn too_deep(deep: limits::TooDeep) -> Diagnostic {
    match deep.chain {
        None => Diagnostic::new(Code::E0006, deep.span, "this expression is nested too deeply")
            .with_hint("split it into named definitions (`define name = ...`)"),
        Some(n) => Diagnostic::new(
            Code::E0006,
            deep.span,
            format!("this chain of {n} operands is too deep"),
        )
        .with_hint(format!(
            "each operator of a chain is one level of nesting (at most {MAX_TREE_DEPTH}); group the operands in parentheses, e.g. `(a + b + c) + (d + e + f)`"
        )),
    }
}

/// The syntax error of a stretch that does not form a section: the stretch is read again
/// alone, as one section, to find where and why it fails.
fn broken_stretch(source: &str, span: Span) -> Diagnostic {
    match parse_in_detail(&source[span.start..span.end]) {
        Err(e) => errors::syntax_error(source, span.start, span.end - span.start, e),
        Ok(_) => Diagnostic::new(Code::E0001, span, "this text cannot be read as a section"),
    }
}

/// Longest broken stretch read again with pest's record of every token it tried (which
/// costs about three times a plain parse).
const MAX_DETAILED: usize = 64 * 1024;

/// Parses a stretch alone as one section; a short one with pest's record of the tokens it
/// tried, which names a missing `=` or `:` where its rule-level report cannot.
fn parse_in_detail(text: &str) -> Result<(), pest::error::Error<Rule>> {
    use std::sync::{Mutex, PoisonError};
    // The switch is pest's, for the whole process: only this function turns it on, and
    // only while it holds the lock, so that its own parse always has the record and other
    // parses at worst pay for one they do not read.
    static DETAIL: Mutex<()> = Mutex::new(());
    if text.len() > MAX_DETAILED {
        return Grammar::parse(Rule::lone_item, text).map(drop);
    }
    let _only_one = DETAIL.lock().unwrap_or_else(PoisonError::into_inner);
    pest::set_error_detail(true);
    let parsed = Grammar::parse(Rule::lone_item, text).map(drop);
    pest::set_error_detail(false);
    parsed
}

/// A broken stretch in the tree, with the words it mentions: names it may have declared,
/// which the checker then does not report as unknown.
fn broken(source: &str, span: Span) -> Item {
    let text = &source[span.start..span.end];
    let words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .map(str::to_string)
        .collect();
    let keyword = text
        .split_whitespace()
        .next()
        .filter(|w| crate::keywords::is_section(w))
        .map(str::to_string);
    Item::Broken {
        span,
        keyword,
        words,
    }
}
