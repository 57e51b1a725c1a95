//! Diagnostics: what went wrong, where, and what to do about it. Every stage reports its
//! problems as [`Diagnostic`] values with a [`Code`] from the catalogue; rendering them for
//! a terminal or as JSON is separate ([`render`], [`to_json`]).

mod codes;
mod render;
mod suggest;

pub use codes::{CATALOGUE, Code, Entry, explain, markdown};
pub use render::{
    JsonDiagnostic, JsonLabel, Palette, SourceIndex, line_col, render, render_indexed,
    render_styled, to_json, to_json_indexed, visible,
};
pub use suggest::{suggest, suggest_within};

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset just past the last byte (equal to `start` for a point).
    pub end: usize,
}

impl Span {
    /// The bytes from `start` up to, not including, `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// How serious a diagnostic is; it follows from its [`Code`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The file is refused: no program is produced.
    Error,
    /// The file can be played, but something in it is likely a mistake.
    Warning,
}

/// One problem of a game file, of reading it, or of the command line that names its
/// variant and parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning, as the code says.
    pub severity: Severity,
    /// Which problem it is: `regula explain CODE` explains it.
    pub code: Code,
    /// What is wrong, as one line of text (the code and the place are shown apart).
    pub message: String,
    /// Where in the file; `None` for problems of the file as a whole or of a command line.
    pub span: Option<Span>,
    /// What to do about it, shown after the message as `= hint: …`.
    pub hint: Option<String>,
    /// Other places the problem involves, each with a note ("first defined here").
    pub labels: Vec<(Span, String)>,
}

impl Diagnostic {
    /// A diagnostic at a place in the file; warning or error as its code says.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: if code.is_warning() {
                Severity::Warning
            } else {
                Severity::Error
            },
            code,
            message: message.into(),
            span: Some(span),
            hint: None,
            labels: Vec::new(),
        }
    }

    /// A diagnostic about a whole file or a command line, with no place to point at.
    pub fn unlocated(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            span: None,
            ..Diagnostic::new(code, Span::default(), message)
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same diagnostic with one more place it involves, and a note about it.
    pub fn with_label(mut self, span: Span, note: impl Into<String>) -> Self {
        self.labels.push((span, note.into()));
        self
    }

    /// Whether it is an error (which makes the file unplayable), not a warning.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Where the diagnostic starts, for sorting (unlocated ones first).
    pub fn start(&self) -> usize {
        self.span.map_or(0, |s| s.start)
    }
}
