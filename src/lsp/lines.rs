//! Positions as the Language Server Protocol counts them: a line and a column in UTF-16
//! code units, lines ending at `\n`, `\r\n` or `\r`. The rest of Regula counts bytes.

use crate::diag::Span;
use lsp_types::{Position, Range};

/// Where each line of a text starts.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The position of a byte offset (clamped to the text, and rounded down to a
    /// character).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position. A column past the end of its line means the end of
    /// the line, a line past the end of the text the end of the text, and a column inside
    /// a character that takes two UTF-16 units the start of that character.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let line = text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            units += c.len_utf16();
            if units > pos.character as usize {
                return start + i;
            }
        }
        start + line.len()
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is one unit (two bytes), `♞` one unit (three bytes), `𝄞` two units (four bytes).
        let text = "é♞𝄞x\r\nab\rc\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position::new(0, 4));
        assert_eq!(lines.offset(text, Position::new(0, 4)), x);
        // Inside the surrogate pair: the start of `𝄞`.
        assert_eq!(
            lines.offset(text, Position::new(0, 3)),
            text.find('𝄞').unwrap()
        );
        let b = text.find('b').unwrap();
        assert_eq!(lines.position(text, b), Position::new(1, 1));
        assert_eq!(
            lines.position(text, text.find('c').unwrap()),
            Position::new(2, 0)
        );
        // Past the end of a line, and of the text.
        assert_eq!(lines.offset(text, Position::new(1, 99)), b + 1);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text, 999), Position::new(3, 0));
        for offset in 0..=text.len() {
            let p = lines.position(text, offset);
            let back = lines.offset(text, p);
            assert!(back <= offset && text.is_char_boundary(back));
        }
    }
}
