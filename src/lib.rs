//! Regula: a description language for board games, and an interpreter that runs it.
//!
//! A game file goes through three stages, each with one job and a typed boundary:
//! `syntax` parses text into a tree, `check` resolves and types it into the [`ir`],
//! and [`engine`] compiles the IR into tables and plays it.
//!
//! ```
//! let source = r#"
//!     game "Duel" { }
//!     players { white black }
//!     board 3 x 3
//!     piece Rook letter R
//!     setup { white Rook a1  black Rook c3 }
//!     moves Rook { slide orthogonal to empty or enemy }
//!     end { when no moves: next loses }
//! "#;
//! let engine = regula::load_str(source).expect("a valid game");
//! let pos = engine.start();
//! let mut moves = Vec::new();
//! assert!(engine.status(&pos, &mut moves).is_none());
//! let mut names: Vec<String> = moves.iter().map(|m| engine.notation(m)).collect();
//! names.sort();
//! assert_eq!(names, ["a1-a2", "a1-a3", "a1-b1", "a1-c1"]);
//! ```
//!
//! The documented surface is [`testing`] (for authors' own tests), [`engine`], [`agents`],
//! [`variants`], [`ir`], [`geometry`], [`picture`] and [`diag`], with the functions below.
//! The stages' insides (the syntax tree, the checker, the formatter and the language
//! server) are public only so that the `regula` binary and the repository's tests can
//! reach them; they are hidden from the documentation and may change at any time.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod agents;
#[doc(hidden)]
pub mod check;
pub mod diag;
pub mod engine;
pub mod expect;
#[doc(hidden)]
pub mod fmt;
pub mod geometry;
pub mod ir;
#[doc(hidden)]
pub mod keywords;
pub mod load;
#[doc(hidden)]
pub mod lsp;
pub mod picture;
#[doc(hidden)]
pub mod selfcheck;
#[doc(hidden)]
pub mod syntax;
pub mod testing;
pub mod variants;

use diag::Diagnostic;
use engine::Engine;
pub use load::{LoadError, load_file, read_source};

/// Parses and checks a game's source text. On failure, returns every diagnostic (syntax
/// errors and the checker's findings on the rest of the file together, in file order);
/// on success, the program and its warnings.
/// The file is read as it is, without a variant and with every parameter at its default.
pub fn compile(source: &str) -> Result<(ir::Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    compile_with(source, &variants::Choice::default())
}

/// [`compile`] for a choice of variant and parameter values. A choice the file does not
/// allow (an unknown variant or parameter, a value out of range) is reported with the
/// file's diagnostics, unlocated ([`variants::is_choice_error`]).
pub fn compile_with(
    source: &str,
    choice: &variants::Choice,
) -> Result<(ir::Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    compile_parsed(syntax::parse(source), choice)
}

fn compile_parsed(
    parsed: syntax::Parsed,
    choice: &variants::Choice,
) -> Result<(ir::Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    if parsed.file.items.is_empty() && !parsed.diagnostics.is_empty() {
        // The text was refused as a whole (too large, too deeply nested).
        return Err(parsed.diagnostics);
    }
    let resolved = variants::resolve(parsed.file, choice);
    let (program, mut diags) = check::check(&resolved.file);
    diags.extend(resolved.diagnostics);
    diags.extend(parsed.diagnostics);
    diags.sort_by_key(|d| (d.start(), d.code));
    match program {
        Some(p) if !diags.iter().any(Diagnostic::is_error) => Ok((p, diags)),
        _ => Err(diags),
    }
}

/// Every diagnostic of a file, as `regula check` reports it: those of the file as it is,
/// then, for each variant, those it adds (its message names the variant).
pub fn check_all(source: &str) -> Vec<Diagnostic> {
    let result = |r: Result<(ir::Program, Vec<Diagnostic>), Vec<Diagnostic>>| match r {
        Ok((_, warnings)) => warnings,
        Err(diags) => diags,
    };
    // The file is parsed once when it has no variant (the check of each variant parses it
    // again: resolving takes the tree).
    let parsed = syntax::parse(source);
    let declared = variants::variants(&parsed.file);
    let mut all = result(compile_parsed(parsed, &variants::Choice::default()));
    // Diagnostics are compared by what they show; a set keeps that linear in their number.
    let shown = |d: &Diagnostic| (d.code, d.span, d.message.clone());
    let base: std::collections::HashSet<_> = all.iter().map(shown).collect();
    let mut added = std::collections::HashSet::new();
    for v in declared {
        let choice = variants::Choice {
            variant: Some(v.name.clone()),
            set: Vec::new(),
        };
        for mut d in result(compile_with(source, &choice)) {
            if !base.contains(&shown(&d)) {
                d.message = format!("{} (in variant `{}`)", d.message, v.name);
                if added.insert(shown(&d)) {
                    all.push(d);
                }
            }
        }
    }
    all.sort_by_key(|d| (d.start(), d.code));
    all
}

/// Parses, checks and compiles a game's source text into a ready engine.
pub fn load_str(source: &str) -> Result<Engine, Vec<Diagnostic>> {
    compile(source).map(|(p, _)| Engine::new(p))
}
