//! Drawing a board as text: square grids as a table, hexagonal grids with each rank
//! shifted half a cell, point boards with their links.

use super::{Board, Cell, NONE, Shape};

impl Board {
    /// The board as text, one character per cell from `glyph`; rank 1 at the bottom.
    pub fn draw(&self, glyph: impl Fn(Cell) -> char) -> String {
        match self.shape {
            Shape::Points { .. } => self.draw_points(glyph),
            Shape::Square { .. } => self.draw_grid(glyph, false),
            _ => self.draw_grid(glyph, true),
        }
    }

    fn draw_grid(&self, glyph: impl Fn(Cell) -> char, hex: bool) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let width = self.height.to_string().len();
        let header: String = (0..self.width)
            .map(|f| format!(" {}", (b'a' + f) as char))
            .collect();
        // Hexagonal rows shift half a cell (one character) right per rank.
        let shift = |r: u8| if hex { r as usize } else { 0 };
        if !hex {
            let _ = writeln!(out, "{:width$} {header}", "");
        }
        for r in (0..self.height).rev() {
            let mut line = format!("{:>width$} {}", r + 1, " ".repeat(shift(r)));
            for f in 0..self.width {
                line.push(' ');
                line.push(self.at(f, r).map_or(' ', &glyph));
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        if hex {
            let _ = writeln!(out, "{:width$} {header}", "");
        }
        out
    }

    fn draw_points(&self, glyph: impl Fn(Cell) -> char) -> String {
        // Points four columns and two rows apart, so that every straight link (also
        // diagonal ones) passes through whole character positions.
        let (cols, rows) = (
            4 * (self.width as usize - 1) + 1,
            2 * (self.height as usize - 1) + 1,
        );
        let mut canvas = vec![vec![' '; cols]; rows];
        let at = |f: u8, r: u8| (2 * (self.height - 1 - r) as usize, 4 * f as usize);
        for c in 0..self.cells() {
            for d in 0..4u8 {
                let n = self.nb[c as usize][d as usize];
                if n == NONE {
                    continue;
                }
                let (a, b) = (self.coords(c), self.coords(n));
                let (y0, x0) = at(a.0, a.1);
                let (y1, x1) = at(b.0, b.1);
                let steps = (y0.abs_diff(y1)).max(x0.abs_diff(x1));
                let ch = match d {
                    0 => '|',
                    2 => '-',
                    1 => '/',
                    _ => '\\',
                };
                for i in 1..steps {
                    let y =
                        (y0 as i64 + (y1 as i64 - y0 as i64) * i as i64 / steps as i64) as usize;
                    let x =
                        (x0 as i64 + (x1 as i64 - x0 as i64) * i as i64 / steps as i64) as usize;
                    // Diagonals cross every other column: leave the rest blank.
                    if d % 2 == 0 || (y0.abs_diff(y) * 2 == x0.abs_diff(x)) {
                        canvas[y][x] = ch;
                    }
                }
            }
        }
        for c in 0..self.cells() {
            let (f, r) = self.coords(c);
            let (y, x) = at(f, r);
            canvas[y][x] = glyph(c);
        }
        let width = self.height.to_string().len();
        let mut out = String::new();
        for (y, row) in canvas.iter().enumerate() {
            let label = if y % 2 == 0 {
                (self.height as usize - y / 2).to_string()
            } else {
                String::new()
            };
            let line: String = row.iter().collect();
            out.push_str(format!("{label:>width$}  {line}").trim_end());
            out.push('\n');
        }
        let header: String = (0..self.width)
            .map(|f| format!("{:<4}", (b'a' + f) as char))
            .collect();
        out.push_str(format!("{:width$}  {header}", "").trim_end());
        out.push('\n');
        out
    }
}
