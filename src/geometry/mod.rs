//! The board: its cells and their names, directions and their names, opposite and rotated
//! directions, neighbours, rays, leaps, edges, corners, and how it is drawn as text.
//!
//! Every other module asks this one about the board; none of them knows its shape. A shape
//! is a [`Shape`] value (part of the IR) that [`Board::new`] turns into lookup tables. Three
//! families exist:
//!
//! - **square** grids: `files x ranks` cells, eight directions;
//! - **hexagonal** grids: a rhombus `files x ranks` (each rank shifted half a cell to the
//!   right of the one below, as on a Hex board) or a hexagon of a given side, six
//!   directions;
//! - **points** on a grid joined by explicit links (mill boards, Alquerque): the eight
//!   compass directions, but a point's neighbour in a direction is the point linked to it
//!   that way, however far away on the grid.
//!
//! Cells are numbered rank by rank from the bottom, file by file from the left (a1 = 0);
//! on a square grid, cell = file + rank × files. Every cell is named by its file letter
//! and rank number (`a1`), whatever the shape.

mod draw;

use serde::{Deserialize, Serialize};

/// A cell index: `0..board.cells()`.
pub type Cell = u16;
/// "No cell": off the board, or not applicable.
pub const NONE: Cell = u16::MAX;
/// Most directions any shape has.
pub const MAX_DIRS: usize = 8;
/// Most files of a grid (they are lettered a..z).
pub const MAX_FILES: u8 = 26;
/// Most ranks of a grid.
pub const MAX_RANKS: u8 = 99;
/// Most cells of any board.
pub const MAX_CELLS: usize = 676;

/// The shape of a board, as declared.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Shape {
    /// `board FILES x RANKS`: a rectangle of square cells, eight directions.
    Square {
        /// Cells per rank, 1 to [`MAX_FILES`].
        files: u8,
        /// Cells per file, 1 to [`MAX_RANKS`] (and at most [`MAX_CELLS`] cells in all).
        ranks: u8,
    },
    /// A rhombus of hexagons: rank r + 1 sits half a cell right of rank r.
    HexRhombus {
        /// Cells per rank, as for a square board.
        files: u8,
        /// Cells per file, as for a square board.
        ranks: u8,
    },
    /// A hexagon of hexagons with `side` cells on each side: the rhombus of side
    /// 2 × side − 1 without its two acute corners.
    Hexagon {
        /// Cells on each side, 1 to 13.
        side: u8,
    },
    /// Points on a `files x ranks` grid, joined by lines of links: each line is a chain of
    /// points, consecutive points being neighbours. Lines also count for "in a row".
    Points {
        /// Width of the grid the points sit on.
        files: u8,
        /// Height of the grid the points sit on.
        ranks: u8,
        /// The points, as (file, rank) from 0 (a1 is (0, 0)); each is a cell.
        points: Vec<(u8, u8)>,
        /// The lines as written, each a chain of points along one direction.
        lines: Vec<Vec<(u8, u8)>>,
    },
}

/// The direction vocabulary of a family of shapes.
#[derive(Debug)]
struct Dirs {
    /// Names in clockwise order; index = direction.
    names: &'static [&'static str],
    short: &'static [&'static str],
    /// Grid step of each direction (file, rank); for points, the unit vector of a link.
    deltas: &'static [(i8, i8)],
    /// Relative direction names, by clockwise rotation from `forward`.
    relative: &'static [&'static str],
    /// Named sets of directions.
    sets: &'static [(&'static str, &'static [u8])],
}

const COMPASS: Dirs = Dirs {
    names: &[
        "north",
        "northeast",
        "east",
        "southeast",
        "south",
        "southwest",
        "west",
        "northwest",
    ],
    short: &["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
    deltas: &[
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ],
    relative: &[
        "forward",
        "forward-right",
        "right",
        "backward-right",
        "backward",
        "backward-left",
        "left",
        "forward-left",
    ],
    sets: &[
        ("orthogonal", &[0, 2, 4, 6]),
        ("diagonal", &[1, 3, 5, 7]),
        ("all", &[0, 1, 2, 3, 4, 5, 6, 7]),
    ],
};

const HEX: Dirs = Dirs {
    names: &[
        "northeast",
        "east",
        "southeast",
        "southwest",
        "west",
        "northwest",
    ],
    short: &["NE", "E", "SE", "SW", "W", "NW"],
    deltas: &[(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)],
    relative: &[
        "forward",
        "forward-right",
        "backward-right",
        "backward",
        "backward-left",
        "forward-left",
    ],
    sets: &[("all", &[0, 1, 2, 3, 4, 5])],
};

/// Every direction word any shape knows, for reserved-name checks and suggestions.
pub fn direction_words() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for d in [&COMPASS, &HEX] {
        let words = d.names.iter().chain(d.short).chain(d.relative);
        for w in words.copied().chain(d.sets.iter().map(|(n, _)| *n)) {
            if !v.contains(&w) {
                v.push(w);
            }
        }
    }
    v
}

/// What a direction word means on a given board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirWord {
    /// One absolute direction.
    Abs(u8),
    /// A rotation from the player's forward direction.
    Rel(u8),
    /// A named set of absolute directions.
    Set(Vec<u8>),
    /// A direction word of another shape: not available here.
    Unavailable,
}

/// Why a shape cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Files or ranks out of range, or more than [`MAX_CELLS`] cells: (files, ranks).
    #[error("a {0} x {1} board is not supported")]
    Size(i64, i64),
    /// A hexagon's side out of 1 to 13.
    #[error("a hexagon of side {0} is not supported")]
    Side(i64),
    /// A point given twice (its name).
    #[error("point {0} is listed twice")]
    DuplicatePoint(String),
    /// A line goes through a cell that is not a point (its name).
    #[error("{0} is not one of the board's points")]
    NotAPoint(String),
    /// Two consecutive points of a line are not along one of the eight directions.
    #[error("{0} and {1} are not on one straight line of the grid")]
    NotStraight(String, String),
    /// A point would have two neighbours in one direction (its name).
    #[error("{0} is linked to two points in the same direction")]
    TwoLinks(String),
}

/// The board's tables, built once from its shape.
#[derive(Clone, Debug)]
pub struct Board {
    shape: Shape,
    dirs: &'static Dirs,
    width: u8,
    height: u8,
    /// Grid position of every cell.
    coords: Vec<(u8, u8)>,
    /// Cell at each grid position (`width × height`), or `NONE`.
    grid: Vec<Cell>,
    /// `nb[cell][dir]`: the neighbour, or `NONE`.
    nb: Vec<[Cell; MAX_DIRS]>,
    /// `rays[cell][dir]`: the cells from the neighbour to the edge, as a range of `ray_cells`.
    rays: Vec<[(u32, u32); MAX_DIRS]>,
    ray_cells: Vec<Cell>,
}

impl Board {
    /// Builds the tables of a shape, or says why the shape is not acceptable.
    pub fn new(shape: Shape) -> Result<Board, ShapeError> {
        let (dirs, width, height): (&'static Dirs, u8, u8) = match &shape {
            Shape::Square { files, ranks }
            | Shape::HexRhombus { files, ranks }
            | Shape::Points { files, ranks, .. } => {
                if !(1..=MAX_FILES).contains(files)
                    || !(1..=MAX_RANKS).contains(ranks)
                    || *files as usize * *ranks as usize > MAX_CELLS
                {
                    return Err(ShapeError::Size(*files as i64, *ranks as i64));
                }
                let d = if matches!(shape, Shape::HexRhombus { .. }) {
                    &HEX
                } else {
                    &COMPASS
                };
                (d, *files, *ranks)
            }
            Shape::Hexagon { side } => {
                if !(1..=13).contains(side) {
                    return Err(ShapeError::Side(*side as i64));
                }
                (&HEX, 2 * side - 1, 2 * side - 1)
            }
        };
        let exists = |f: u8, r: u8| -> bool {
            match &shape {
                Shape::Hexagon { side } => {
                    let s = (f as i32 + r as i32) - 2 * (*side as i32 - 1);
                    s.abs() < *side as i32
                }
                Shape::Points { points, .. } => points.contains(&(f, r)),
                _ => true,
            }
        };
        let mut coords = Vec::new();
        let mut grid = vec![NONE; width as usize * height as usize];
        for r in 0..height {
            for f in 0..width {
                if exists(f, r) {
                    grid[f as usize + r as usize * width as usize] = coords.len() as Cell;
                    coords.push((f, r));
                }
            }
        }
        let mut b = Board {
            shape: shape.clone(),
            dirs,
            width,
            height,
            coords,
            grid,
            nb: Vec::new(),
            rays: Vec::new(),
            ray_cells: Vec::new(),
        };
        b.nb = match &shape {
            Shape::Points { points, lines, .. } => b.linked_neighbours(points, lines)?,
            _ => b.grid_neighbours(),
        };
        b.build_rays();
        Ok(b)
    }

    /// A square board, `files x ranks`.
    pub fn square(files: u8, ranks: u8) -> Result<Board, ShapeError> {
        Board::new(Shape::Square { files, ranks })
    }

    fn grid_neighbours(&self) -> Vec<[Cell; MAX_DIRS]> {
        (0..self.cells())
            .map(|c| {
                let mut row = [NONE; MAX_DIRS];
                for (d, &(dx, dy)) in self.dirs.deltas.iter().enumerate() {
                    row[d] = self.offset(c, dx as i32, dy as i32);
                }
                row
            })
            .collect()
    }

    fn linked_neighbours(
        &self,
        points: &[(u8, u8)],
        lines: &[Vec<(u8, u8)>],
    ) -> Result<Vec<[Cell; MAX_DIRS]>, ShapeError> {
        let name = |(f, r): (u8, u8)| format!("{}{}", (b'a' + f) as char, r + 1);
        for (i, p) in points.iter().enumerate() {
            if points[..i].contains(p) {
                return Err(ShapeError::DuplicatePoint(name(*p)));
            }
        }
        let mut nb = vec![[NONE; MAX_DIRS]; self.cells() as usize];
        for line in lines {
            for pair in line.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (Some(ca), Some(cb)) = (self.at(a.0, a.1), self.at(b.0, b.1)) else {
                    let missing = if self.at(a.0, a.1).is_none() { a } else { b };
                    return Err(ShapeError::NotAPoint(name(missing)));
                };
                let (dx, dy) = (b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32);
                let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i32;
                let unit = if g == 0 {
                    None
                } else {
                    let u = ((dx / g) as i8, (dy / g) as i8);
                    self.dirs.deltas.iter().position(|&d| d == u)
                };
                let Some(d) = unit else {
                    return Err(ShapeError::NotStraight(name(a), name(b)));
                };
                let back = self.opposite(d as u8) as usize;
                for (from, dir, to) in [(ca, d, cb), (cb, back, ca)] {
                    let slot = &mut nb[from as usize][dir];
                    if *slot != NONE && *slot != to {
                        return Err(ShapeError::TwoLinks(name(self.coords[from as usize])));
                    }
                    *slot = to;
                }
            }
        }
        Ok(nb)
    }

    fn build_rays(&mut self) {
        let n = self.cells() as usize;
        self.rays = vec![[(0, 0); MAX_DIRS]; n];
        for c in 0..n {
            for d in 0..self.dir_count() {
                let start = self.ray_cells.len() as u32;
                let mut x = self.nb[c][d];
                // A ray cannot revisit a cell on any shape, but bound it anyway.
                while x != NONE && self.ray_cells.len() - (start as usize) < n {
                    self.ray_cells.push(x);
                    x = self.nb[x as usize][d];
                }
                self.rays[c][d] = (start, self.ray_cells.len() as u32);
            }
        }
    }

    // ---------- cells ----------

    /// The shape this board was built from.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Number of cells.
    pub fn cells(&self) -> u16 {
        self.coords.len() as u16
    }

    /// Files (grid columns) and ranks (grid rows).
    pub fn extent(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    /// The cell at a grid position, if the board has one there.
    pub fn at(&self, file: u8, rank: u8) -> Option<Cell> {
        if file >= self.width || rank >= self.height {
            return None;
        }
        let c = self.grid[file as usize + rank as usize * self.width as usize];
        (c != NONE).then_some(c)
    }

    /// Grid position (file, rank) of a cell, both from 0.
    pub fn coords(&self, c: Cell) -> (u8, u8) {
        self.coords[c as usize]
    }

    /// The cell `(dx, dy)` grid steps away, or `NONE`.
    pub fn offset(&self, c: Cell, dx: i32, dy: i32) -> Cell {
        let (f, r) = self.coords[c as usize];
        let (f, r) = (f as i32 + dx, r as i32 + dy);
        if f < 0 || r < 0 || f > u8::MAX as i32 || r > u8::MAX as i32 {
            return NONE;
        }
        self.at(f as u8, r as u8).unwrap_or(NONE)
    }

    /// The name of a cell: file letter and rank number, `a1`.
    pub fn name(&self, c: Cell) -> String {
        let (f, r) = self.coords[c as usize];
        format!("{}{}", (b'a' + f) as char, r as u32 + 1)
    }

    /// The cell a name denotes, if the board has it.
    pub fn cell(&self, name: &str) -> Option<Cell> {
        let (f, r) = parse_cell_name(name)?;
        if f >= self.width as u32 || r >= self.height as u32 {
            return None;
        }
        self.at(f as u8, r as u8)
    }

    /// What the cells of this board are called, for hints: "files a..i and ranks 1..9".
    pub fn describe_names(&self) -> String {
        let last = (b'a' + self.width - 1) as char;
        match self.shape {
            Shape::Square { .. } | Shape::HexRhombus { .. } => {
                format!("files a..{last} and ranks 1..{}", self.height)
            }
            _ => format!(
                "cells named by file a..{last} and rank 1..{} where the board has them",
                self.height
            ),
        }
    }

    /// The cells of a rank (1-based), or `None` when the board has no such rank.
    pub fn rank(&self, rank: i64) -> Option<Vec<Cell>> {
        if rank < 1 || rank > self.height as i64 {
            return None;
        }
        Some(
            (0..self.width)
                .filter_map(|f| self.at(f, (rank - 1) as u8))
                .collect(),
        )
    }

    /// The cells of a file given by its letter, or `None` when the board has no such file.
    pub fn file(&self, letter: &str) -> Option<Vec<Cell>> {
        let b = letter.as_bytes();
        if b.len() != 1 || !b[0].is_ascii_lowercase() || b[0] - b'a' >= self.width {
            return None;
        }
        Some(self.file_index(b[0] - b'a'))
    }

    /// The cells of a file given by its index from 0 (which must be below the width).
    pub fn file_index(&self, f: u8) -> Vec<Cell> {
        (0..self.height).filter_map(|r| self.at(f, r)).collect()
    }

    /// Every cell of the board.
    pub fn all(&self) -> Vec<Cell> {
        (0..self.cells()).collect()
    }

    /// The cells of the board's border.
    pub fn edge(&self) -> Vec<Cell> {
        (0..self.cells()).filter(|&c| self.on_edge(c)).collect()
    }

    fn on_edge(&self, c: Cell) -> bool {
        match self.shape {
            // Points have no missing neighbours to speak of: the border is the grid's.
            Shape::Points { .. } => {
                let (f, r) = self.coords[c as usize];
                f == 0 || r == 0 || f == self.width - 1 || r == self.height - 1
            }
            _ => (0..self.dir_count()).any(|d| self.nb[c as usize][d] == NONE),
        }
    }

    /// The board's corners: the cells where two sides of its border meet.
    pub fn corners(&self) -> Vec<Cell> {
        match self.shape {
            Shape::Points { .. } | Shape::Square { .. } => {
                let (w, h) = (self.width - 1, self.height - 1);
                let mut v: Vec<Cell> = [(0, 0), (w, 0), (0, h), (w, h)]
                    .iter()
                    .filter_map(|&(f, r)| self.at(f, r))
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            // On hexagonal grids a corner has at most three neighbours.
            _ => (0..self.cells())
                .filter(|&c| {
                    (0..self.dir_count())
                        .filter(|&d| self.nb[c as usize][d] != NONE)
                        .count()
                        <= 3
                })
                .collect(),
        }
    }

    // ---------- directions ----------

    /// Number of directions (8 on square grids and point boards, 6 on hexagonal grids).
    pub fn dir_count(&self) -> usize {
        self.dirs.names.len()
    }

    /// The name of an absolute direction.
    pub fn dir_name(&self, d: u8) -> &'static str {
        self.dirs.names[d as usize % self.dir_count()]
    }

    /// The grid step of a direction (file, rank); on point boards, the unit vector of a
    /// link that way.
    pub fn dir_delta(&self, d: u8) -> (i8, i8) {
        self.dirs.deltas[d as usize % self.dir_count()]
    }

    /// The reverse of a direction.
    #[inline]
    pub fn opposite(&self, d: u8) -> u8 {
        self.rotate(d, (self.dir_count() / 2) as u8)
    }

    /// `d` turned clockwise by `steps` directions.
    #[inline]
    pub fn rotate(&self, d: u8, steps: u8) -> u8 {
        ((d as usize + steps as usize) % self.dir_count()) as u8
    }

    /// The relative direction words, in rotation order from `forward`.
    pub fn relative_words(&self) -> &'static [&'static str] {
        self.dirs.relative
    }

    /// The reverse of a relative direction (a rotation).
    pub fn opposite_rotation(&self, r: u8) -> u8 {
        self.opposite(r)
    }

    /// What a direction word means here.
    pub fn dir_word(&self, word: &str) -> Option<DirWord> {
        if let Some(i) = self.dirs.names.iter().position(|n| *n == word) {
            return Some(DirWord::Abs(i as u8));
        }
        if let Some(i) = self.dirs.short.iter().position(|n| *n == word) {
            return Some(DirWord::Abs(i as u8));
        }
        if let Some(i) = self.dirs.relative.iter().position(|n| *n == word) {
            return Some(DirWord::Rel(i as u8));
        }
        if let Some((_, set)) = self.dirs.sets.iter().find(|(n, _)| *n == word) {
            return Some(DirWord::Set(set.to_vec()));
        }
        direction_words()
            .contains(&word)
            .then_some(DirWord::Unavailable)
    }

    /// The direction words this board understands, for suggestions.
    pub fn dir_words(&self) -> Vec<&'static str> {
        let d = self.dirs;
        let mut v: Vec<&'static str> = d.names.to_vec();
        v.extend(d.relative.iter());
        v.extend(d.sets.iter().map(|(n, _)| *n));
        v
    }

    /// The directions of a named set, such as `all`.
    pub fn all_dirs(&self) -> Vec<u8> {
        (0..self.dir_count() as u8).collect()
    }

    // ---------- neighbours, rays, leaps ----------

    /// The neighbour of `c` in direction `d`, or `NONE`.
    #[inline]
    pub fn step(&self, c: Cell, d: u8) -> Cell {
        self.nb[c as usize][d as usize & (MAX_DIRS - 1)]
    }

    /// The cells beyond `c` in direction `d`, nearest first, up to the edge.
    #[inline]
    pub fn ray(&self, c: Cell, d: u8) -> &[Cell] {
        let (s, t) = self.rays[c as usize][d as usize & (MAX_DIRS - 1)];
        &self.ray_cells[s as usize..t as usize]
    }

    /// The grid offsets of a leap `a b`: (±a, ±b) and (±b, ±a), without repeats.
    pub fn leap_offsets(a: i8, b: i8) -> Vec<(i8, i8)> {
        let mut offsets = Vec::new();
        for (x, y) in [(a, b), (b, a)] {
            for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let o = (x * sx, y * sy);
                if !offsets.contains(&o) {
                    offsets.push(o);
                }
            }
        }
        offsets
    }

    /// The cells a leap with these grid offsets reaches from `c`.
    pub fn leap_targets(&self, c: Cell, offsets: &[(i8, i8)]) -> Vec<Cell> {
        offsets
            .iter()
            .map(|&(dx, dy)| self.offset(c, dx as i32, dy as i32))
            .filter(|&t| t != NONE)
            .collect()
    }
}

/// `a1` → (0, 0): a lower-case file letter and a rank number from 1, whatever the board.
pub fn parse_cell_name(text: &str) -> Option<(u32, u32)> {
    let b = text.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() || !b[1..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let rank: u32 = text[1..].parse().ok()?;
    (rank >= 1).then(|| ((b[0] - b'a') as u32, rank - 1))
}

/// Whether a word has the shape of a cell name (`a1`, `t12`), on any board.
pub fn looks_like_cell_name(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests;
