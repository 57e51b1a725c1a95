//! Rendering diagnostics in the style of rustc (`file:line:col`, the source line, a caret
//! span, a hint) and as JSON for editors and scripts.

use super::{Diagnostic, Severity, Span};
use std::fmt::Write;

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
    match d.span {
        Some(span) => {
            let (line, col) = line_col(source, span.start);
            let _ = writeln!(out, "  --> {path}:{line}:{col}");
            snippet(&mut out, source, span, '^', "");
        }
        None if !path.is_empty() => {
            let _ = writeln!(out, "  --> {path}");
        }
        None => {}
    }
    for (span, note) in &d.labels {
        let (line, col) = line_col(source, span.start);
        let _ = writeln!(out, "  ::: {path}:{line}:{col}");
        snippet(&mut out, source, *span, '-', note);
    }
    if let Some(h) = &d.hint {
        let (line, _) = line_col(source, d.start());
        let gutter = if d.span.is_some() {
            line.to_string().len()
        } else {
            1
        };
        let _ = writeln!(out, "{:gutter$} = hint: {h}", "");
    }
    out
}

/// The source line of `span` with the span underlined by `mark`, then an optional note.
fn snippet(out: &mut String, source: &str, span: Span, mark: char, note: &str) {
    let (line, col) = line_col(source, span.start);
    let text = source.lines().nth(line - 1).unwrap_or("");
    // Very long lines are cut around the caret so the output stays readable.
    let (shown, shift) = clip_line(text, col - 1);
    let gutter = line.to_string().len();
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{line} | {shown}");
    let (end_line, end_col) = line_col(source, span.end.max(span.start));
    let width = if end_line == line && end_col > col {
        end_col - col
    } else {
        1
    };
    let caret_col = col - 1 - shift;
    let width = width.min(shown.chars().count().saturating_sub(caret_col).max(1));
    let underline = mark.to_string().repeat(width);
    let note = if note.is_empty() {
        String::new()
    } else {
        format!(" {note}")
    };
    let _ = writeln!(
        out,
        "{:gutter$} | {}{underline}{note}",
        "",
        " ".repeat(caret_col),
    );
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

/// A diagnostic as JSON for editors and scripts: its code, severity, file, position (1-based
/// line and column of its start and end, or null), message, hint and labels.
#[derive(Debug, serde::Serialize)]
pub struct JsonDiagnostic<'a> {
    pub code: &'static str,
    pub severity: &'static str,
    pub file: &'a str,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub end_line: Option<usize>,
    pub end_column: Option<usize>,
    pub message: &'a str,
    pub hint: Option<&'a str>,
    pub labels: Vec<JsonLabel<'a>>,
}

/// A secondary place of a diagnostic.
#[derive(Debug, serde::Serialize)]
pub struct JsonLabel<'a> {
    pub line: usize,
    pub column: usize,
    pub note: &'a str,
}

/// The JSON form of a diagnostic.
pub fn to_json<'a>(d: &'a Diagnostic, path: &'a str, source: &str) -> JsonDiagnostic<'a> {
    let start = d.span.map(|s| line_col(source, s.start));
    let end = d.span.map(|s| line_col(source, s.end));
    JsonDiagnostic {
        code: d.code.as_str(),
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        file: path,
        line: start.map(|p| p.0),
        column: start.map(|p| p.1),
        end_line: end.map(|p| p.0),
        end_column: end.map(|p| p.1),
        message: &d.message,
        hint: d.hint.as_deref(),
        labels: d
            .labels
            .iter()
            .map(|(s, note)| {
                let (line, column) = line_col(source, s.start);
                JsonLabel { line, column, note }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Diagnostic};

    #[test]
    fn lines_and_columns_count_characters_from_one() {
        let text = "ab\ncé d\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        // `é` is two bytes and one column; an offset inside it rounds down.
        assert_eq!(line_col(text, 6), (2, 3));
        assert_eq!(line_col(text, 5), (2, 2));
        assert_eq!(line_col(text, 999), (3, 1));
    }

    #[test]
    fn a_diagnostic_shows_its_line_a_caret_its_labels_and_its_hint() {
        let text = "piece King letter K\npiece King letter Q\n";
        let d = Diagnostic::new(Code::E0111, Span::new(26, 30), "`King` is defined twice")
            .with_label(Span::new(6, 10), "first defined here")
            .with_hint("rename one");
        let out = render(&d, "f.game", text);
        assert_eq!(
            out,
            "error[E0111]: `King` is defined twice\n  --> f.game:2:7\n  |\n2 | piece King letter Q\n  |       ^^^^\n  ::: f.game:1:7\n  |\n1 | piece King letter K\n  |       ---- first defined here\n  = hint: rename one\n"
        );
    }

    #[test]
    fn long_lines_are_clipped_around_the_caret() {
        let line = format!("{}X{}", "a".repeat(300), "b".repeat(300));
        let (shown, shift) = clip_line(&line, 300);
        assert_eq!(shown.chars().count(), 160);
        assert_eq!(shown.chars().nth(300 - shift), Some('X'));
    }

    #[test]
    fn json_has_positions_or_nulls() {
        let d = Diagnostic::unlocated(Code::E0004, "cannot read `x`");
        let j = serde_json::to_string(&to_json(&d, "x", "")).unwrap();
        assert_eq!(
            j,
            r#"{"code":"E0004","severity":"error","file":"x","line":null,"column":null,"end_line":null,"end_column":null,"message":"cannot read `x`","hint":null,"labels":[]}"#
        );
    }
}
