//! Rendering diagnostics in the style of rustc (`file:line:col`, the source line, a caret
//! span, a hint) and as JSON for editors and scripts.

use super::{Diagnostic, Severity, Span};
use annotate_snippets::{Annotation, AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use anstyle::{AnsiColor, Color, Style};

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
    /// Indexes a text in one pass over its bytes.
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

    /// A span made safe to show: inside the text, on character boundaries, not reversed,
    /// and not ending at the start of a line, which would draw it over two lines when it
    /// only takes in a line break.
    fn within_line(&self, span: Span) -> Span {
        let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
        let mut end = floor_char_boundary(self.text, span.end.min(self.text.len())).max(start);
        if end > start {
            let line = self.line_of(end);
            if self.line_starts[line] == end && line > 0 {
                let (text, line_start) = self.line_text(line - 1);
                end = (line_start + text.len()).max(start);
            }
        }
        Span { start, end }
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
    let safe = |c: char| if c == '\t' { ' ' } else { shown(c) };
    if text.chars().all(|c| safe(c) == c) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(safe).collect())
}

/// A character as it is shown: control characters, C1 controls, zero-width characters and
/// direction overrides as a visible symbol of their own. annotate-snippets replaces C0
/// controls and direction overrides itself but prints C1 controls (which some terminals
/// obey) and zero-width characters as they are, so shown source lines go through this too.
fn shown(c: char) -> char {
    match c {
        '\t' | '\n' => c,
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        '\u{80}'..='\u{9f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}' => '\u{fffd}',
        c => c,
    }
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
    /// The word `error` and the code after it, and the primary underline of an error.
    pub error: Style,
    /// The word `warning` and the code after it, and the primary underline of a warning.
    pub warning: Style,
    /// The message of the first line and the word `hint`.
    pub message: Style,
    /// Line numbers, `|`, `-->`, `=` and secondary underlines and their notes.
    pub margin: Style,
}

impl Palette {
    /// No styles: for pipes, files, `--color never` and `NO_COLOR`.
    pub const PLAIN: Palette = Palette {
        error: Style::new(),
        warning: Style::new(),
        message: Style::new(),
        margin: Style::new(),
    };
    /// Bold bright red errors and yellow warnings, bright blue margins: for a terminal.
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
    };

    fn renderer(&self) -> Renderer {
        Renderer::plain()
            .error(self.error)
            .warning(self.warning)
            .emphasis(self.message)
            .line_num(self.margin)
            .context(self.margin)
    }
}

/// Renders one diagnostic with styles: the same text as [`render_indexed`], with ANSI
/// escapes around its parts (none with [`Palette::PLAIN`]). The layout is annotate-snippets'
/// (rustc's): the place, the lines involved with the primary span underlined by `^` and
/// the labels by `-` with their notes, then the hint.
pub fn render_styled(d: &Diagnostic, path: &str, source: &SourceIndex, p: &Palette) -> String {
    let path = visible(path);
    let message = visible(&d.message);
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = Group::with_title(level.primary_title(message).id(d.code.as_str()));
    let excerpt = d.span.map(|span| Excerpt::new(source, span, &d.labels));
    match &excerpt {
        Some(e) => group = group.element(e.snippet(&path)),
        None if !path.is_empty() => group = group.element(Origin::path(path.as_ref())),
        None => {}
    }
    if let Some(h) = &d.hint {
        group = group.element(Level::HELP.with_name("hint").message(visible(h)));
    }
    let mut out = p.renderer().render(&[group]);
    if let Some(fix) = excerpt.as_ref().and_then(|e| e.clipped_column) {
        fix.apply(&mut out, &path);
    }
    out.push('\n');
    out
}

/// Lines longer than this (in bytes) are cut around the spans before they are rendered,
/// so that showing a place on a huge line costs no more than on a short one (when all of a
/// diagnostic's spans are on that line, as on every line a file can repeat an error on).
const LONG_LINE: usize = 1024;

/// Characters kept on either side of the spans of a line that is cut: more than a terminal
/// line, so that annotate-snippets trims the line further (with `...`) and the cut is never
/// seen.
const KEPT: usize = 256;

/// The lines of a diagnostic's spans, as they are given to annotate-snippets: shown safely,
/// with the spans' offsets into them.
struct Excerpt {
    text: String,
    /// 1-based number of the first line.
    first_line: usize,
    primary: std::ops::Range<usize>,
    labels: Vec<(std::ops::Range<usize>, String)>,
    clipped_column: Option<ColumnFix>,
}

impl Excerpt {
    fn new(source: &SourceIndex, primary: Span, labels: &[(Span, String)]) -> Excerpt {
        let text = source.text;
        let spans: Vec<Span> = std::iter::once(primary)
            .chain(labels.iter().map(|(s, _)| *s))
            .map(|s| source.within_line(s))
            .collect();
        let first = spans.iter().map(|s| source.line_of(s.start)).min();
        let last = spans.iter().map(|s| source.line_of(s.end)).max();
        let (first, last) = (first.unwrap_or(0), last.unwrap_or(0));
        let mut start = source.line_starts[first];
        let (last_text, last_start) = source.line_text(last);
        let mut end = last_start + last_text.len();
        let mut clipped_column = None;
        if first == last && end - start > LONG_LINE {
            let from = spans.iter().map(|s| s.start).min().unwrap_or(start);
            let to = spans.iter().map(|s| s.end).max().unwrap_or(from);
            let cut = text[start..from]
                .char_indices()
                .rev()
                .nth(KEPT - 1)
                .map_or(start, |(i, _)| start + i);
            end = text[to..end]
                .char_indices()
                .nth(KEPT)
                .map_or(end, |(i, _)| to + i);
            if cut > start {
                let (line, column) = source.line_col(spans[0].start);
                let shown = source.chars(spans[0].start) - source.chars(cut) + 1;
                clipped_column = Some(ColumnFix {
                    line,
                    shown,
                    column,
                });
            }
            start = cut;
        }
        let mut offsets: Vec<usize> = spans
            .iter()
            .flat_map(|s| [s.start, s.end])
            .map(|o| o.clamp(start, end) - start)
            .collect();
        let shown = shown_keeping_offsets(&text[start..end], &mut offsets);
        let mut ranges = offsets.chunks(2).map(|o| o[0]..o[1]);
        Excerpt {
            text: shown,
            first_line: first + 1,
            primary: ranges.next().unwrap_or(0..0),
            labels: ranges
                .zip(labels)
                .map(|(r, (_, note))| (r, visible(note).into_owned()))
                .collect(),
            clipped_column,
        }
    }

    fn snippet<'a>(&'a self, path: &'a str) -> Snippet<'a, Annotation<'a>> {
        Snippet::source(self.text.as_str())
            .line_start(self.first_line)
            .path(path)
            .annotation(AnnotationKind::Primary.span(self.primary.clone()))
            .annotations(self.labels.iter().map(|(r, note)| {
                AnnotationKind::Context
                    .span(r.clone())
                    .label(Some(note.as_str()).filter(|n| !n.is_empty()))
            }))
    }
}

/// The column of the primary span in the `-->` line of a cut line. annotate-snippets counts
/// it from the start of the text it is given and cannot be told otherwise while it names
/// the file itself (an `Origin` of our own would add a `:::` line), so the column it
/// writes is put right afterwards.
#[derive(Clone, Copy)]
struct ColumnFix {
    line: usize,
    shown: usize,
    column: usize,
}

impl ColumnFix {
    fn apply(self, out: &mut String, path: &str) {
        let ColumnFix {
            line,
            shown,
            column,
        } = self;
        // The `-->` line comes second. Its path, line and column are unstyled; the `-->`
        // before them may not be.
        let wrong = format!("{path}:{line}:{shown}");
        let Some(second) = out.find('\n').map(|i| i + 1) else {
            return;
        };
        let second_end = out[second..].find('\n').map_or(out.len(), |i| second + i);
        if out[second..second_end].ends_with(&wrong) {
            let at = second_end - wrong.len();
            out.replace_range(at..second_end, &format!("{path}:{line}:{column}"));
        }
    }
}

/// `text` with every character [`shown`], and byte offsets into it moved along.
fn shown_keeping_offsets(text: &str, offsets: &mut [usize]) -> String {
    if text.chars().all(|c| shown(c) == c) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let moved: Vec<usize> = offsets
        .iter()
        .map(|&o| {
            // Characters before `o`, shown, are the bytes before it in `out`.
            text[..o].chars().map(|c| shown(c).len_utf8()).sum()
        })
        .collect();
    out.extend(text.chars().map(shown));
    offsets.copy_from_slice(&moved);
    out
}

/// A diagnostic as JSON for editors and scripts: its code, severity, file, position (1-based
/// line and column of its start and end, or null), message, hint and labels.
#[derive(Debug, serde::Serialize)]
pub struct JsonDiagnostic<'a> {
    /// The code, such as `E0102` (`regula explain CODE` describes it).
    pub code: &'static str,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The file as named on the command line (`<stdin>` for `-`).
    pub file: &'a str,
    /// Line of the span's start (1-based), or null for a diagnostic about the whole file.
    pub line: Option<usize>,
    /// Column of the span's start, in characters (1-based), or null.
    pub column: Option<usize>,
    /// Line of the span's end, or null.
    pub end_line: Option<usize>,
    /// Column just past the span's end, in characters (1-based), or null.
    pub end_column: Option<usize>,
    /// What is wrong, in one sentence.
    pub message: &'a str,
    /// How to put it right, when there is a suggestion.
    pub hint: Option<&'a str>,
    /// Other places the diagnostic points at (a first definition, say).
    pub labels: Vec<JsonLabel<'a>>,
}

/// A secondary place of a diagnostic.
#[derive(Debug, serde::Serialize)]
pub struct JsonLabel<'a> {
    /// Line of the place (1-based).
    pub line: usize,
    /// Column of the place, in characters (1-based).
    pub column: usize,
    /// What the place is, such as `first defined here`.
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
    fn a_diagnostic_shows_its_lines_a_caret_its_labels_and_its_hint() {
        let text = "piece King letter K\npiece King letter Q\n";
        let d = Diagnostic::new(Code::E0111, Span::new(26, 30), "`King` is defined twice")
            .with_label(Span::new(6, 10), "first defined here")
            .with_hint("rename one");
        assert_eq!(
            render(&d, "f.game", text),
            "\
error[E0111]: `King` is defined twice
 --> f.game:2:7
  |
1 | piece King letter K
  |       ---- first defined here
2 | piece King letter Q
  |       ^^^^
  |
  = hint: rename one
"
        );
    }

    #[test]
    fn a_diagnostic_without_a_place_has_its_file_and_hint() {
        let d = Diagnostic::unlocated(Code::E0004, "cannot read `x`").with_hint("check it");
        assert_eq!(
            render(&d, "x", ""),
            "error[E0004]: cannot read `x`\n--> x\n = hint: check it\n"
        );
        assert_eq!(
            render(&d, "", ""),
            "error[E0004]: cannot read `x`\n |\n = hint: check it\n"
        );
    }

    #[test]
    fn the_caret_is_under_the_text_after_tabs() {
        // A tab is shown as four spaces, and the caret moves with it.
        let text = "players { white black }\n\t\tlegal if emtpy\n";
        let at = text.find("emtpy").unwrap();
        let d = Diagnostic::new(Code::E0106, Span::new(at, at + 5), "unknown cell test");
        assert_eq!(
            render(&d, "f.game", text),
            "\
error[E0106]: unknown cell test
 --> f.game:2:12
  |
2 |         legal if emtpy
  |                  ^^^^^
"
        );
    }

    #[test]
    fn the_caret_is_under_the_text_after_wide_characters() {
        // `名`, `前` and `🎲` take two columns each on a terminal.
        let text = "define 名前 = 🎲 emtpy\n";
        let at = text.find("emtpy").unwrap();
        let d = Diagnostic::new(Code::E0106, Span::new(at, at + 5), "unknown cell test");
        let out = render(&d, "f.game", text);
        assert_eq!(
            out,
            "\
error[E0106]: unknown cell test
 --> f.game:1:15
  |
1 | define 名前 = 🎲 emtpy
  |                  ^^^^^
"
        );
        // In columns: each wide character is one character but two columns.
        let lines: Vec<&str> = out.lines().collect();
        let text_column = lines[3][..lines[3].find("emtpy").unwrap()].chars().count() + 3;
        assert_eq!(lines[4].find('^'), Some(text_column));
    }

    #[test]
    fn a_wide_span_is_underlined_for_its_whole_width() {
        let text = "piece 王 letter K\n";
        let d = Diagnostic::new(Code::E0001, Span::new(6, 9), "not a valid name");
        let out = render(&d, "f.game", text);
        assert!(
            out.ends_with("1 | piece 王 letter K\n  |       ^^\n"),
            "{out}"
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_caret_and_keep_its_column() {
        let text = format!("{}X{}\n", "é".repeat(2000), "b".repeat(2000));
        let d = Diagnostic::new(Code::E0001, Span::new(4000, 4001), "found `X`");
        for p in [Palette::PLAIN, Palette::COLOR] {
            let out = render_styled(&d, "f.game", &SourceIndex::new(&text), &p);
            assert!(out.contains("f.game:1:2001\n"), "{out}");
        }
        let out = render(&d, "f.game", &text);
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[3].starts_with("1 | ...") && lines[3].ends_with("..."),
            "{out}"
        );
        assert!(lines[3].chars().count() < 160, "{out}");
        let x = lines[3].chars().position(|c| c == 'X');
        assert_eq!(lines[4].chars().position(|c| c == '^'), x, "{out}");
        // Near the start, nothing is cut before the caret.
        let d = Diagnostic::new(Code::E0001, Span::new(2, 4), "found `é`");
        let out = render(&d, "f.game", &text);
        assert!(
            out.contains(" --> f.game:1:2\n") && out.contains("1 | éé"),
            "{out}"
        );
    }

    #[test]
    fn a_span_taking_in_a_line_break_stays_on_its_line() {
        let text = "abc\r\ndef\n";
        let d = Diagnostic::new(Code::E0001, Span::new(1, 5), "here");
        let out = render(&d, "f", text);
        assert!(out.ends_with("1 | abc\n  |  ^^\n"), "{out}");
        // Past the end of the text, or reversed: placed, not a panic.
        let d = Diagnostic::new(Code::E0001, Span::new(99, 120), "here");
        assert!(render(&d, "f", "é\n").contains("--> f:2:1"));
        let d = Diagnostic::new(Code::E0001, Span::new(1, 0), "here");
        assert!(render(&d, "f", "é\n").contains("--> f:1:1"));
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
        let text = "legal if \0 \u{202e}x\u{85}\u{200b}\tis empty\n";
        let d = Diagnostic::new(Code::E0001, Span::new(21, 23), "found `\0`")
            .with_label(Span::new(9, 10), "a \u{1b}[2J note")
            .with_hint("\u{9b}31m");
        let out = render(&d, "f\u{1b}.game", text);
        assert_eq!(
            out,
            "\
error[E0001]: found `\u{2400}`
 --> f\u{241b}.game:1:17
  |
1 | legal if \u{2400} \u{fffd}x\u{fffd}\u{fffd}    is empty
  |          -         ^^
  |          |
  |          a \u{241b}[2J note
  |
  = hint: \u{fffd}31m
"
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
