//! Rendering diagnostics in the style of rustc (`file:line:col`, the source line, a caret
//! span, a hint) and as JSON for editors and scripts.

use super::{Diagnostic, Severity, Span};
use anstyle::{AnsiColor, Color, Style};
use std::fmt::Write;

/// 1-based line and column (in characters) of a byte offset. Scans the text: to place
/// many offsets in one text, build a [`SourceIndex`] once.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    SourceIndex::new(source).line_col(offset)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Bytes between two samples of the character count.
const SAMPLE: usize = 256;

/// A text with where its lines start and how many characters precede every
/// `SAMPLE`-th byte, so that the line and column of an offset cost a binary search and
/// a scan of at most `SAMPLE` bytes, however many diagnostics a file has and however long
/// its lines are.
pub struct SourceIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    chars_before: Vec<usize>,
}

impl<'a> SourceIndex<'a> {
    pub fn new(text: &'a str) -> SourceIndex<'a> {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut chars_before = Vec::with_capacity(bytes.len() / SAMPLE + 1);
        let mut count = 0;
        for chunk in bytes.chunks(SAMPLE) {
            chars_before.push(count);
            count += chars_in(chunk);
        }
        chars_before.push(count);
        SourceIndex {
            text,
            line_starts,
            chars_before,
        }
    }

    /// Characters in the text before a byte offset (on a character boundary).
    fn chars(&self, offset: usize) -> usize {
        let k = offset / SAMPLE;
        self.chars_before[k] + chars_in(&self.text.as_bytes()[k * SAMPLE..offset])
    }

    /// Index (0-based) of the line holding a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// 1-based line and column (in characters) of a byte offset; an offset past the end or
    /// inside a character rounds down.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.line_of(offset);
        let col = self.chars(offset) - self.chars(self.line_starts[line]);
        (line + 1, col + 1)
    }

    /// The text of a line (0-based), without its line break, and where it starts.
    fn line_text(&self, line: usize) -> (&'a str, usize) {
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let text = &self.text[start..end];
        (text.strip_suffix('\r').unwrap_or(text), start)
    }
}

/// Characters starting in `bytes`: every byte but UTF-8 continuation bytes.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

/// Text from a file or a command line as it may safely go to a terminal: control
/// characters and invisible direction overrides become visible symbols, one for one, so
/// that carets under the text stay aligned. A tab becomes a space for the same reason.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let shown = |c: char| match c {
        '\t' => ' ',
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        '\u{80}'..='\u{9f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}' => '\u{fffd}',
        c => c,
    };
    if text.chars().all(|c| shown(c) == c || c == '\n') {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| if c == '\n' { c } else { shown(c) })
            .collect(),
    )
}

/// Renders one diagnostic for a terminal. Builds an index of the text: to render many
/// diagnostics of one text, use [`render_indexed`].
pub fn render(d: &Diagnostic, path: &str, source: &str) -> String {
    render_indexed(d, path, &SourceIndex::new(source))
}

/// Renders one diagnostic for a terminal, with its text already indexed.
pub fn render_indexed(d: &Diagnostic, path: &str, source: &SourceIndex) -> String {
    render_styled(d, path, source, &Palette::PLAIN)
}

/// The styles of a rendered diagnostic's parts. [`Palette::PLAIN`] has none (and adds no
/// bytes); [`Palette::COLOR`] is close to rustc's.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    pub error: Style,
    pub warning: Style,
    pub message: Style,
    /// Line numbers, `|`, `-->` and secondary underlines.
    pub margin: Style,
    pub hint: Style,
}

impl Palette {
    pub const PLAIN: Palette = Palette {
        error: Style::new(),
        warning: Style::new(),
        message: Style::new(),
        margin: Style::new(),
        hint: Style::new(),
    };
    pub const COLOR: Palette = Palette {
        error: Style::new()
            .bold()
            .fg_color(Some(Color::Ansi(AnsiColor::BrightRed))),
        warning: Style::new()
            .bold()
            .fg_color(Some(Color::Ansi(AnsiColor::BrightYellow))),
        message: Style::new().bold(),
        margin: Style::new()
            .bold()
            .fg_color(Some(Color::Ansi(AnsiColor::BrightBlue))),
        hint: Style::new()
            .bold()
            .fg_color(Some(Color::Ansi(AnsiColor::BrightCyan))),
    };
}

/// Renders one diagnostic with styles: the same text as [`render_indexed`], with ANSI
/// escapes around its parts (none with [`Palette::PLAIN`]).
pub fn render_styled(d: &Diagnostic, path: &str, source: &SourceIndex, p: &Palette) -> String {
    let mut out = String::new();
    let path = visible(path);
    let (kind, severity) = match d.severity {
        Severity::Error => ("error", p.error),
        Severity::Warning => ("warning", p.warning),
    };
    let m = p.margin;
    let _ = writeln!(
        out,
        "{severity}{kind}[{}]{severity:#}{msg}: {}{msg:#}",
        d.code,
        visible(&d.message),
        msg = p.message
    );
    match d.span {
        Some(span) => {
            let (line, col) = source.line_col(span.start);
            let _ = writeln!(out, "  {m}-->{m:#} {path}:{line}:{col}");
            snippet(&mut out, source, span, ('^', severity), "", m);
        }
        None if !path.is_empty() => {
            let _ = writeln!(out, "  {m}-->{m:#} {path}");
        }
        None => {}
    }
    for (span, note) in &d.labels {
        let (line, col) = source.line_col(span.start);
        let _ = writeln!(out, "  {m}:::{m:#} {path}:{line}:{col}");
        snippet(&mut out, source, *span, ('-', m), note, m);
    }
    if let Some(h) = &d.hint {
        let (line, _) = source.line_col(d.start());
        let gutter = if d.span.is_some() {
            line.to_string().len()
        } else {
            1
        };
        let hint = p.hint;
        let _ = writeln!(
            out,
            "{:gutter$} {m}={m:#} {hint}hint{hint:#}: {}",
            "",
            visible(h)
        );
    }
    out
}

/// Most characters of a source line shown; longer lines are cut around the caret.
const MAX_SHOWN: usize = 160;

/// The source line of `span` with the span underlined by `mark`, then an optional note.
fn snippet(
    out: &mut String,
    source: &SourceIndex,
    span: Span,
    (mark, style): (char, Style),
    note: &str,
    m: Style,
) {
    let (line, col) = source.line_col(span.start);
    let (text, line_start) = source.line_text(line - 1);
    let caret = floor_char_boundary(text, span.start.saturating_sub(line_start).min(text.len()));
    let (shown, shift) = clip_line(text, caret, col - 1);
    let gutter = line.to_string().len();
    let _ = writeln!(out, "{:gutter$} {m}|{m:#}", "");
    let _ = writeln!(out, "{m}{line} |{m:#} {}", visible(shown));
    let (end_line, end_col) = source.line_col(span.end.max(span.start));
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
        format!(" {}", visible(note))
    };
    let _ = writeln!(
        out,
        "{:gutter$} {m}|{m:#} {}{style}{underline}{note}{style:#}",
        "",
        " ".repeat(caret_col),
    );
}

/// At most [`MAX_SHOWN`] characters of a line around the caret (at byte `caret`, character
/// `col`), and how many characters were cut before them. Only the characters near the
/// caret are looked at, so that a long line costs no more than a short one.
fn clip_line(text: &str, caret: usize, col: usize) -> (&str, usize) {
    if text.chars().take(MAX_SHOWN + 1).count() <= MAX_SHOWN {
        return (text, 0);
    }
    // Half the window after the caret, or less where the line ends sooner.
    let after = text[caret..].chars().take(MAX_SHOWN / 2).count();
    let back = (MAX_SHOWN - after).min(col);
    let start = match back {
        0 => caret,
        n => text[..caret]
            .char_indices()
            .rev()
            .nth(n - 1)
            .map_or(0, |(i, _)| i),
    };
    let end = text[start..]
        .char_indices()
        .nth(MAX_SHOWN)
        .map_or(text.len(), |(i, _)| start + i);
    (&text[start..end], col - back)
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

/// The JSON form of a diagnostic. Builds an index of the text: for many diagnostics of
/// one text, use [`to_json_indexed`].
pub fn to_json<'a>(d: &'a Diagnostic, path: &'a str, source: &str) -> JsonDiagnostic<'a> {
    to_json_indexed(d, path, &SourceIndex::new(source))
}

/// The JSON form of a diagnostic, with its text already indexed.
pub fn to_json_indexed<'a>(
    d: &'a Diagnostic,
    path: &'a str,
    source: &SourceIndex,
) -> JsonDiagnostic<'a> {
    let start = d.span.map(|s| source.line_col(s.start));
    let end = d.span.map(|s| source.line_col(s.end));
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
                let (line, column) = source.line_col(s.start);
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
        let line = format!("{}X{}", "é".repeat(300), "b".repeat(300));
        let (shown, shift) = clip_line(&line, 600, 300);
        assert_eq!(shown.chars().count(), 160);
        assert_eq!(shown.chars().nth(300 - shift), Some('X'));
        // Near either end, the window stays on the line.
        let (shown, shift) = clip_line(&line, 2, 1);
        assert_eq!((shown.chars().count(), shift), (160, 0));
        let (shown, shift) = clip_line(&line, line.len() - 1, 600);
        assert_eq!(shown.chars().count(), 160);
        assert_eq!(shown.chars().nth(600 - shift), Some('b'));
        assert!(line.ends_with(shown));
        let short = "éé X";
        assert_eq!(clip_line(short, 5, 3), (short, 0));
    }

    #[test]
    fn an_index_places_offsets_like_a_scan() {
        let text = format!("ab\ncé d\n{}\r\nx", "ü".repeat(700));
        let index = SourceIndex::new(&text);
        for offset in 0..text.len() + 3 {
            let o = floor_char_boundary(&text, offset.min(text.len()));
            let before = &text[..o];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            let col = text[start..o].chars().count() + 1;
            assert_eq!(index.line_col(offset), (line, col), "offset {offset}");
        }
        assert_eq!(index.line_text(2).0.chars().count(), 700);
    }

    #[test]
    fn control_characters_are_shown_without_moving_the_caret() {
        let text = "legal if \0 \u{202e}x\tis empty\n";
        let d = Diagnostic::new(Code::E0001, Span::new(16, 17), "found `\0`");
        let out = render(&d, "f\u{1b}.game", text);
        assert_eq!(
            out,
            "error[E0001]: found `\u{2400}`\n  --> f\u{241b}.game:1:15\n  |\n1 | legal if \u{2400} \u{fffd}x is empty\n  |               ^\n"
        );
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'));
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
