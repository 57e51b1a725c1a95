//! Whether a piece type's rules could write one move twice. Such a type's moves are
//! listed and told apart, the first of each kept; the moves of a type whose rules
//! provably never reach one target twice are counted, drawn and judged with no list.

use super::bits::Bits;
use super::core::Geo;
use crate::geometry::MAX_DIRS;
use crate::ir::visit::{Visitor, walk_stmt};
use crate::ir::{CellExpr, DirRef, Slot, Stmt, Test};

/// Whether rules could write one move twice: they may by their count of statements
/// (`may_duplicate`), and their targets are not provably apart (`targets_apart`).
pub(super) fn may_write_twice<const W: usize>(geo: &Geo<W>, players: u8, stmts: &[Stmt]) -> bool {
    may_duplicate(stmts) && !targets_apart(geo, players, stmts)
}

/// Whether rules may produce one move twice, by counting the statements that produce
/// moves, times the loops around them. Rules whose targets provably never meet are told
/// apart by `targets_apart`.
/// Placements (from the hand), pieces made from nothing (`new`), chains of hops (written
/// with their path) and other moves of a piece on the board are never written alike, so
/// each kind is counted apart.
fn may_duplicate(stmts: &[Stmt]) -> bool {
    struct Count {
        times: usize,
        inside_new: bool,
        /// Per kind: plain moves, pieces made from nothing, chains, placements.
        total: [usize; 4],
    }
    impl Visitor for Count {
        fn stmt(&mut self, s: &Stmt) {
            let loops = match s {
                Stmt::For { dirs, .. } => dirs.len(),
                Stmt::ForPiece { pieces, .. } => pieces.len(),
                // Distinct directions of one step or slide never meet on the same target.
                Stmt::Step { .. }
                | Stmt::Slide { .. }
                | Stmt::Leap { .. }
                | Stmt::MoveAny { .. }
                | Stmt::Chain { .. }
                | Stmt::MoveTo { .. }
                | Stmt::Place { .. } => {
                    let kind = match s {
                        Stmt::Place { .. } => 3,
                        _ if self.inside_new => 1,
                        Stmt::Chain { .. } => 2,
                        _ => 0,
                    };
                    self.total[kind] += self.times;
                    return;
                }
                Stmt::New(_) => {
                    let outer = self.inside_new;
                    self.inside_new = true;
                    walk_stmt(self, s);
                    self.inside_new = outer;
                    return;
                }
                Stmt::If { .. } | Stmt::Let { .. } | Stmt::Class { .. } => 1,
            };
            let outer = self.times;
            self.times *= loops;
            walk_stmt(self, s);
            self.times = outer;
        }
    }
    let mut c = Count {
        times: 1,
        inside_new: false,
        total: [0; 4],
    };
    for s in stmts {
        c.stmt(s);
    }
    c.total.iter().any(|&n| n > 1)
}

/// A direction and the distances from `from` reached along it, least and most.
type Line = (DirRef, u8, u8);

/// The most alternatives (the branches of `if … else`) that are told apart one by one.
const MOST_ALTERNATIVES: usize = 16;

/// Whether rules made of steps, slides, jumps (`move to from + d * n`), leaps and loops
/// over directions, under conditions, never reach one target twice from any cell, for any
/// player: along each direction their distances do not overlap (`step forward` beside a
/// jump of two; steps and slides in distinct directions, however many statements they
/// are spread over), the leaps land off every line of the others and off each other's
/// targets (a knight's leap beside a queen's lines, on a square board), and in a loop
/// over distinct directions each pass reaches distinct cells of its own line
/// (`along_each`). The two branches of an `if … else` never run together: each is
/// checked with the statements beside it.
fn targets_apart<const W: usize>(geo: &Geo<W>, players: u8, stmts: &[Stmt]) -> bool {
    let mut alternatives = vec![Vec::new()];
    expand(stmts, &mut alternatives)
        && (alternatives.iter()).all(|together| apart_together(geo, players, together))
}

/// Adds `stmts` to every set of statements that may run together: an `if` with an
/// `else` doubles the sets, one branch in each; any other `if` adds its branch. False
/// when the sets would be too many.
fn expand<'a>(stmts: &'a [Stmt], sets: &mut Vec<Vec<&'a Stmt>>) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::If {
            then, otherwise, ..
        } if !otherwise.is_empty() => {
            let mut other = sets.clone();
            let both = expand(then, sets) && expand(otherwise, &mut other);
            sets.extend(other);
            both && sets.len() <= MOST_ALTERNATIVES
        }
        Stmt::If { then, .. } => expand(then, sets),
        s => {
            sets.iter_mut().for_each(|set| set.push(s));
            true
        }
    })
}

/// `targets_apart` for statements that may all run (no `if` among them). Placements,
/// pieces made from nothing (`new`) and moves of the piece are never written alike: each
/// kind is told apart on its own.
fn apart_together<const W: usize>(geo: &Geo<W>, players: u8, stmts: &[&Stmt]) -> bool {
    let mut lines: Vec<Line> = Vec::new();
    let mut leaps: Vec<&[u16]> = Vec::new();
    let (mut made, mut places, mut anywhere) = (Vec::new(), 0, 0);
    let gathered = stmts.iter().all(|s| match s {
        Stmt::New(inner) => {
            made.push(&**inner);
            true
        }
        // Each gives a cell once, and is the only one of its kind.
        Stmt::Place { .. } => {
            places += 1;
            true
        }
        Stmt::MoveAny { .. } => {
            anywhere += 1;
            true
        }
        Stmt::Step { dirs, .. } => {
            lines.extend(dirs.iter().map(|&d| (d, 1, 1)));
            true
        }
        Stmt::Slide { dirs, max, .. } => {
            lines.extend(dirs.iter().map(|&d| (d, 1, *max)));
            true
        }
        Stmt::MoveTo {
            target: CellExpr::Step(base, d, n),
            ..
        } if **base == CellExpr::From && *n > 0 => {
            lines.push((*d, *n, *n));
            true
        }
        Stmt::Leap { leap, .. } => {
            leaps.push(leap);
            true
        }
        Stmt::For { slot, dirs, body } => match along_each(*slot, body) {
            Some((lo, hi)) => {
                lines.extend(dirs.iter().map(|&d| (d, lo, hi)));
                true
            }
            None => false,
        },
        _ => false,
    });
    if !gathered
        || places > 1
        || (anywhere > 0 && anywhere + lines.len() + leaps.len() > 1)
        || !(made.is_empty() || apart_together(geo, players, &made))
    {
        return false;
    }
    // Within one kind, absolute or relative, equal directions are equal values.
    let all_abs = lines.iter().all(|(d, ..)| matches!(d, DirRef::Abs(_)));
    let all_rel = lines.iter().all(|(d, ..)| matches!(d, DirRef::Rel(_)));
    let overlap = lines.iter().enumerate().any(|(i, &(d, lo, hi))| {
        lines[..i]
            .iter()
            .any(|&(e, a, b)| e == d && lo <= b && a <= hi)
    });
    if overlap || !(all_abs || all_rel) {
        return false;
    }
    leaps.is_empty()
        || (0..players).all(|p| {
            (0..geo.cells as usize).all(|c| {
                let mut seen = Bits::<W>::EMPTY;
                for (d, ..) in &lines {
                    let d = match *d {
                        DirRef::Abs(a) => a,
                        DirRef::Rel(r) => geo.rel[p as usize][r as usize & 7],
                        _ => return false,
                    };
                    seen = seen.or(geo.ray_mask[c][d as usize & (MAX_DIRS - 1)]);
                }
                leaps.iter().all(|leap| {
                    let l = leap[(p as usize).min(leap.len() - 1)] as usize;
                    let cells = geo.leap_masks[l][c];
                    let apart = !cells.intersects(&seen);
                    seen = seen.or(cells);
                    apart
                })
            })
        })
}

/// For a loop body of `let`s and `move to`s whose `move to`s all go to a cell on the
/// line of the loop's direction from `from` (passes over distinct directions then never
/// reach one cell): how far from `from` each one's target lies at least, in order. A
/// pass whose ray is shorter than that has no such move. `None` for any other body.
pub(super) fn least_along(slot: Slot, body: &[Stmt]) -> Option<Vec<u8>> {
    let mut lets = Vec::new();
    let mut least = Vec::new();
    for s in body {
        match s {
            Stmt::Let { slot: s, value } if *s != slot => {
                let w = way(value, slot, &lets);
                lets.push((*s, w));
            }
            Stmt::MoveTo { target, .. } => {
                let w = way(target, slot, &lets).filter(|w| !w.is_empty())?;
                least.push(span(&w).0);
            }
            _ => return None,
        }
    }
    Some(least)
}

/// One link of the way from `from` to a target along a loop's direction: so many cells
/// further, or the first cell passing a test beyond the cell before (at least one
/// further).
#[derive(Clone, PartialEq)]
enum Link<'a> {
    Cells(u8),
    First(&'a Test),
}

/// The distances from `from` a way of links may reach, least and most.
fn span(way: &[Link]) -> (u8, u8) {
    let least = way.iter().fold(0u8, |n, l| match l {
        Link::Cells(k) => n.saturating_add(*k),
        Link::First(_) => n.saturating_add(1),
    });
    let first = way.iter().any(|l| matches!(l, Link::First(_)));
    (least, if first { u8::MAX } else { least })
}

/// Whether two targets of one pass are never the same cell: one is further along the
/// other's way (every link goes on by a cell at least), or their distances differ.
fn distinct(a: &[Link], b: &[Link]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.len() < long.len() && long.starts_with(short) {
        return true;
    }
    let ((a_lo, a_hi), (b_lo, b_hi)) = (span(a), span(b));
    a_hi < b_lo || b_hi < a_lo
}

/// The way from `from` to a cell along the direction in `slot`, when the cell is on
/// that line: steps of the direction and `first … toward` it, from `from` or from a
/// variable `lets` holds such a way for.
fn way<'a>(
    e: &'a CellExpr,
    slot: Slot,
    lets: &[(Slot, Option<Vec<Link<'a>>>)],
) -> Option<Vec<Link<'a>>> {
    match e {
        CellExpr::From => Some(Vec::new()),
        CellExpr::Step(base, DirRef::Var(s), n) if *s == slot && *n > 0 => {
            let mut w = way(base, slot, lets)?;
            w.push(Link::Cells(*n));
            Some(w)
        }
        CellExpr::First {
            test,
            start,
            dir: DirRef::Var(s),
        } if *s == slot => {
            let mut w = way(start, slot, lets)?;
            w.push(Link::First(test));
            Some(w)
        }
        CellExpr::Slot(s) => lets.iter().rev().find(|(x, _)| x == s)?.1.clone(),
        _ => None,
    }
}

/// For the body of a loop over directions (variable `slot`) whose targets all lie on the
/// line of the pass's direction, distinct within a pass (`distinct`): the least and most
/// distances from `from` they reach. Passes over distinct directions reach distinct
/// cells, since lines from one cell share none.
fn along_each(slot: Slot, body: &[Stmt]) -> Option<(u8, u8)> {
    fn gather<'a>(
        slot: Slot,
        body: &'a [Stmt],
        lets: &mut Vec<(Slot, Option<Vec<Link<'a>>>)>,
        targets: &mut Vec<Vec<Link<'a>>>,
    ) -> bool {
        body.iter().all(|s| match s {
            Stmt::Let { slot: s, value } => {
                let w = way(value, slot, lets);
                lets.push((*s, w));
                *s != slot
            }
            Stmt::MoveTo { target, .. } => match way(target, slot, lets) {
                Some(w) if !w.is_empty() => {
                    targets.push(w);
                    true
                }
                _ => false,
            },
            Stmt::If {
                then, otherwise, ..
            } => gather(slot, then, lets, targets) && gather(slot, otherwise, lets, targets),
            _ => false,
        })
    }
    let (mut lets, mut targets) = (Vec::new(), Vec::new());
    if !gather(slot, body, &mut lets, &mut targets) {
        return None;
    }
    let apart = (0..targets.len()).all(|i| (0..i).all(|j| distinct(&targets[i], &targets[j])));
    let spans = targets.iter().map(|w| span(w));
    let lo = spans.clone().map(|(lo, _)| lo).min()?;
    let hi = spans.map(|(_, hi)| hi).max()?;
    apart.then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::super::core::Core;

    /// Whether each piece's rules are known never to reach one target twice.
    fn apart(rules: &str) -> Vec<bool> {
        let src = format!(
            "game \"A\" {{ }}\nplayers {{ white forward north  black forward south }}\n\
             board 8 x 8\nflag tile = all\npiece A letter A\npiece B letter B\n\
             setup {{ white A a1  black A h8 }}\n{rules}\nend {{ when no moves: draw }}\n"
        );
        let core = Core::<1>::of_text(&src);
        core.may_duplicate.iter().map(|&d| !d).collect()
    }

    #[test]
    fn targets_apart_tells_rules_that_cannot_meet_from_rules_that_can() {
        // A knight's leap never lands on a queen's lines; a one-one leap lands on the
        // diagonals.
        let k = "moves A { slide all to any  leap 1 2 to any }\nmoves B { slide all leap 1 1 }";
        assert_eq!(apart(k), [true, false]);
        // A double step beside a single step; a jump of one onto a step's target.
        let p = "moves A { step forward  if from is empty { move to from + forward * 2 } }\n\
                 moves B { step forward  move to from + forward * 1 }";
        assert_eq!(apart(p), [true, false]);
        // A slide of at most two beside a jump of three; beside a jump of two.
        let s = "moves A { slide north max 2  move to from + north * 3 }\n\
                 moves B { slide north max 2  move to from + north * 2 }";
        assert_eq!(apart(s), [true, false]);
        // Two leaps that share targets; absolute and relative directions mixed.
        let m = "moves A { leap 1 2  leap 2 1 }\nmoves B { step north  step forward }";
        assert_eq!(apart(m), [false, false]);
    }

    #[test]
    fn loops_over_directions_and_branches_of_an_else_are_told_apart() {
        // A step to the first tile of each line and a jump to the tile beyond it; two
        // `first`s of different tests, which may be one cell.
        let lines = "moves A { for d in all {\n\
                     let near = first tile from from toward d\n\
                     move to near if near is empty\n\
                     move to first tile from near toward d if near is empty } }\n\
                     moves B { for d in all {\n\
                     move to first tile from from toward d\n\
                     move to first occupied from from toward d } }";
        assert_eq!(apart(lines), [true, false]);
        // A loop beside a step along its lines: apart only when one branch or the other
        // runs.
        let branches = "moves A { if from is empty { step all } else {\n\
                        for d in all { move to first tile from from toward d } } }\n\
                        moves B { if from is empty { step all }\n\
                        for d in all { move to first tile from from toward d } }";
        assert_eq!(apart(branches), [true, false]);
        // Jumps of two beyond the first tile of a line; a direction named twice.
        let jumps = "moves A { for d in orthogonal { move to from + d * 2  \
                     move to first tile from from + d * 2 toward d } }\n\
                     moves B { for d in north, north { move to from + d * 1 } }";
        assert_eq!(apart(jumps), [true, false]);
    }

    #[test]
    fn placements_pieces_made_from_nothing_and_moves_are_told_apart_by_kind() {
        // A clone onto a neighbour beside jumps of two; the same beside a step onto a
        // neighbour, which the clone's targets meet only as pieces made from nothing.
        let clones = "moves A { new step all to empty  leap 2 0  leap 2 1  leap 2 2 }\n\
                      moves B { new leap 1 1  new step all to empty }";
        assert_eq!(apart(clones), [true, false]);
        // A man that flies anywhere or steps, one at a time; both at once.
        let flies = "moves A { place  if in-hand == 0 {\n\
                     if from is empty { move to any empty } else { step all } } }\n\
                     moves B { if in-hand == 0 { move to any empty  step all } }";
        assert_eq!(apart(flies), [true, false]);
    }
}
