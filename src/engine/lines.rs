//! `count lines of N where T through c` by sets: every window of N cells in a row through
//! a cell, along each of the board's lines, as a mask, so that a line is a mask test
//! instead of a walk outwards from the cell.

use super::bits::Bits;
use super::compile::test::CTest;
use super::core::{Core, Geo};
use super::evaluate::{CellFn, Ctx};
use super::state::{Cell, NONE, State};

/// The most bytes the windows of one `lines` expression may take; beyond, lines are
/// walked (very long lines on a large board).
const MAX_BYTES: usize = 8 << 20;

/// N cells in a row through a cell, along one line.
struct Window<const W: usize> {
    cells: Bits<W>,
    /// The cells just beyond both ends: a run of exactly N has none of them.
    ends: Bits<W>,
}

/// One of the board's lines through a cell: the cell's neighbours on it, and its windows.
struct Line<const W: usize> {
    /// The cells next to the cell along the line (one or two): a run of two cells or more
    /// through the cell holds one of them, so a line without is passed over at once.
    near: Bits<W>,
    windows: Vec<Window<W>>,
}

/// Per cell, its windows of `n` cells, grouped by line.
pub struct Windows<const W: usize> {
    n: usize,
    /// Whether every line through every cell has one window (the board's lines are `n`
    /// cells long, as in tic-tac-toe).
    one_each: bool,
    /// Per cell: the neighbours along all of its lines, then the lines.
    per_cell: Vec<(Bits<W>, Vec<Line<W>>)>,
}

impl<const W: usize> Windows<W> {
    /// The windows of `n` cells through every cell, or `None` when they would take too
    /// much memory.
    pub fn new(geo: &Geo<W>, n: usize) -> Option<Windows<W>> {
        let cells = geo.board.cells() as usize;
        let bytes = cells * geo.axes.len() * n * std::mem::size_of::<Window<W>>();
        if n == 0 || bytes > MAX_BYTES {
            return None;
        }
        let per_cell: Vec<(Bits<W>, Vec<Line<W>>)> = (0..cells as Cell)
            .map(|c| {
                let mut lines = Vec::new();
                let mut near_all = Bits::EMPTY;
                for &d in &geo.axes {
                    // The whole line through c, in order, and where c stands on it.
                    let back = geo.board.ray(c, geo.opposite[d as usize]);
                    let mut line: Vec<Cell> = back.iter().rev().copied().collect();
                    let at = line.len();
                    line.push(c);
                    line.extend_from_slice(geo.board.ray(c, d));
                    let mut near = Bits::EMPTY;
                    if at > 0 {
                        near.insert(line[at - 1]);
                    }
                    if let Some(&next) = line.get(at + 1) {
                        near.insert(next);
                    }
                    let mut windows = Vec::new();
                    let first = (at + 1).saturating_sub(n);
                    for start in first..=at {
                        if start + n > line.len() {
                            break;
                        }
                        let mut ends = Bits::EMPTY;
                        if start > 0 {
                            ends.insert(line[start - 1]);
                        }
                        if let Some(&after) = line.get(start + n) {
                            ends.insert(after);
                        }
                        windows.push(Window {
                            cells: Bits::from_cells(line[start..start + n].iter().copied()),
                            ends,
                        });
                    }
                    if !windows.is_empty() {
                        near_all = near_all.or(near);
                        lines.push(Line { near, windows });
                    }
                }
                (near_all, lines)
            })
            .collect();
        let one_each =
            (per_cell.iter()).all(|(_, lines)| lines.iter().all(|l| l.windows.len() == 1));
        Some(Windows {
            n,
            one_each,
            per_cell,
        })
    }

    /// How many of the lines through `c` hold a run of cells of `set` through `c` of at
    /// least `n` cells, or with `exact`, of exactly `n`.
    #[inline]
    pub fn count(&self, c: Cell, set: Bits<W>, exact: bool) -> i64 {
        let (near_all, lines) = &self.per_cell[c as usize];
        // After most moves of a line game, no cell next to the one played is the mover's:
        // with n of two or more, no line is then long enough.
        let gated = self.n >= 2;
        if gated && !near_all.intersects(&set) {
            return 0;
        }
        if self.one_each {
            // Each line's one window tested with no branch: a test of its neighbours
            // first would cost as much, and fail as often as not, mispredicted
            // (tic-tac-toe 1.10x as fast without it).
            return (lines.iter())
                .map(|l| {
                    let w = &l.windows[0];
                    (w.cells.minus(set).is_empty() & (!exact | !w.ends.intersects(&set))) as i64
                })
                .sum();
        }
        let mut count = 0;
        for line in lines {
            if gated && !line.near.intersects(&set) {
                continue;
            }
            for w in &line.windows {
                if !w.cells.minus(set).is_empty() {
                    continue;
                }
                // The run through c is at least this window; exactly it when neither
                // neighbour beyond its ends is in the set (then no other window of this
                // line can be).
                if !exact || !w.ends.intersects(&set) {
                    count += 1;
                }
                break;
            }
        }
        count
    }
}

/// `count lines of N where T through X`, compiled once. The end rule of line games asks
/// it after every move, about the cell just played (`last-to`): that cell is read
/// without a closure, and a test given by a table is one set, from which both whether
/// the cell passes and the lines are read.
pub struct LineCount<const W: usize> {
    test: CTest<W>,
    /// `None` for `last-to`.
    through: Option<CellFn<W>>,
    n: usize,
    exact: bool,
    /// `None` when they would take too much memory: lines are then walked.
    windows: Option<Windows<W>>,
}

impl<const W: usize> LineCount<W> {
    pub fn new(
        geo: &Geo<W>,
        test: CTest<W>,
        through: Option<CellFn<W>>,
        n: usize,
        exact: bool,
    ) -> Self {
        LineCount {
            test,
            through,
            n,
            exact,
            windows: Windows::new(geo, n),
        }
    }

    /// Whether counting reads nothing of the context but the point of view (and writes
    /// nothing in it): the cell is `last-to` and the test a table.
    pub fn reads_only_me(&self) -> bool {
        self.through.is_none() && matches!(self.test, CTest::Table(_))
    }

    #[inline(always)]
    pub fn count(&self, core: &Core<W>, st: &State<W>, cx: &mut Ctx) -> i64 {
        let c = match &self.through {
            None => st.s.last_to,
            Some(f) => f(core, st, cx),
        };
        if c == NONE {
            return 0;
        }
        if let CTest::Table(t) = &self.test {
            let set = t.set(st, cx.me);
            return if set.has(c) {
                self.count_in(core, c, set)
            } else {
                0
            };
        }
        if !self.test.holds(core, st, cx, c) {
            return 0;
        }
        match self.test.set(core, st, cx) {
            Some(set) => self.count_in(core, c, set),
            None => walk(&core.geo, c, self.n, self.exact, |x| {
                self.test.holds(core, st, cx, x)
            }),
        }
    }

    /// The lines through `c`, a cell of `set`, of cells of `set`: a mask test per window
    /// (or, with too many windows to keep, a walk over bits).
    #[inline(always)]
    fn count_in(&self, core: &Core<W>, c: Cell, set: Bits<W>) -> i64 {
        match &self.windows {
            Some(w) => w.count(c, set, self.exact),
            None => walk(&core.geo, c, self.n, self.exact, |x| set.has(x)),
        }
    }
}

/// How many of the lines through `c` (a cell that `has`) hold a run of cells that `has`
/// through `c` of at least `n` cells, or with `exact`, of exactly `n`, walked outwards
/// from `c` cell by cell.
pub fn walk<const W: usize>(
    geo: &Geo<W>,
    c: Cell,
    n: usize,
    exact: bool,
    has: impl Fn(Cell) -> bool,
) -> i64 {
    let run = |d: u8| geo.board.ray(c, d).iter().take_while(|&&x| has(x)).count();
    geo.axes
        .iter()
        .filter(|&&d| {
            let len = 1 + run(d) + run(geo.opposite[d as usize]);
            if exact { len == n } else { len >= n }
        })
        .count() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::Core;

    #[test]
    fn windows_count_the_lines_a_walk_counts() {
        // 3 x 3 with lines of 3: every line through a cell is one window (`one_each`).
        let boards = [
            "board 3 x 3",
            "board 6 x 6",
            "board hex 5 x 5",
            "board points 7 x 7 {\n a1-d1-g1\n b2-d2-f2\n a1-a4-a7\n d1-d2-d3\n a4-b4-c4\n}",
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut one_each = 0;
        for board in boards {
            let source = format!(
                "game \"T\" {{ }}\nplayers {{ white black }}\n{board}\npiece Man letter M\n\
                 hand {{ white Man 9  black Man 9 }}\nmoves Man {{ place on empty }}\n"
            );
            let core = Core::<1>::of_text(&source);
            let cells = core.geo.board.cells();
            for n in 1..=5 {
                let windows = Windows::new(&core.geo, n).expect("small");
                if board == "board 3 x 3" && n == 3 {
                    assert!(windows.one_each, "every line of 3 x 3 is one window of 3");
                }
                one_each += (windows.one_each && n > 1) as u32;
                for _ in 0..300 {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    // Dense sets, so that long runs occur.
                    let set = Bits([rng | rng.rotate_left(17)]).and(Bits::first(cells as usize));
                    for c in 0..cells {
                        for exact in [false, true] {
                            // Both count only for a cell of the set.
                            if !set.has(c) {
                                continue;
                            }
                            let want = walk(&core.geo, c, n, exact, |x| set.has(x));
                            let got = windows.count(c, set, exact);
                            assert_eq!(got, want, "{board}: {c} in {set:?}, n {n}, exact {exact}");
                        }
                    }
                }
            }
        }
        // 3 x 3 and the points board with n 3, and windows longer than any line.
        assert!(one_each >= 2, "{one_each} boards with a window a line");
    }
}
