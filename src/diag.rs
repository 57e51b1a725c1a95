//! Diagnostics: what went wrong in a game file, where, and what to do about it.
//! Rendered in the style of rustc: `file:line:col`, the source line, a caret span, a hint.

use crate::syntax::ast::Span;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `E0101`; see docs/ERRORS.md.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            hint: None,
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            code,
            message: message.into(),
            span,
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = source[line_start..offset].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders one diagnostic for a terminal.
pub fn render(d: &Diagnostic, path: &str, source: &str) -> String {
    let mut out = String::new();
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(out, "{kind}[{}]: {}", d.code, d.message);
    let (line, col) = line_col(source, d.span.start);
    let _ = writeln!(out, "  --> {path}:{line}:{col}");
    let text = source.lines().nth(line - 1).unwrap_or("");
    // Very long lines are cut around the caret so the output stays readable.
    let (shown, shift) = clip_line(text, col - 1);
    let gutter = line.to_string().len();
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{line} | {shown}");
    let (end_line, end_col) = line_col(source, d.span.end.max(d.span.start));
    let width = if end_line == line && end_col > col {
        end_col - col
    } else {
        1
    };
    let caret_col = col - 1 - shift;
    let width = width.min(shown.chars().count().saturating_sub(caret_col).max(1));
    let _ = writeln!(
        out,
        "{:gutter$} | {}{}",
        "",
        " ".repeat(caret_col),
        "^".repeat(width)
    );
    if let Some(h) = &d.hint {
        let _ = writeln!(out, "{:gutter$} = hint: {h}", "");
    }
    out
}

fn clip_line(text: &str, col: usize) -> (String, usize) {
    const MAX: usize = 160;
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX {
        return (text.to_string(), 0);
    }
    let start = col
        .saturating_sub(MAX / 2)
        .min(chars.len().saturating_sub(MAX));
    (chars[start..start + MAX].iter().collect(), start)
}

/// JSON rendering for editors and CI: one object per diagnostic.
pub fn to_json(d: &Diagnostic, path: &str, source: &str) -> String {
    let (line, col) = line_col(source, d.span.start);
    let (end_line, end_col) = line_col(source, d.span.end);
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let hint = d.hint.as_deref().map_or("null".to_string(), json_string);
    format!(
        "{{\"code\":{},\"severity\":\"{sev}\",\"file\":{},\"line\":{line},\"column\":{col},\"end_line\":{end_line},\"end_column\":{end_col},\"message\":{},\"hint\":{hint}}}",
        json_string(d.code),
        json_string(path),
        json_string(&d.message),
    )
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The closest candidate to `word` by edit distance, if close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&word.to_lowercase(), &c.to_lowercase());
        let limit = (word.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    // Optimal string alignment distance: an adjacent swap ("Kign" -> "King") is one edit.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}
