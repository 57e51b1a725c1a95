//! IR → compiled rules: statements and effects become small trees of enums whose
//! conditions, cells and numbers are closures (see `evaluate`), and whose cell tests are
//! tables (see `test`).

pub mod sets;
pub mod test;

use self::test::CTest;
use super::apply::{CEffect, ChooseC};
use super::evaluate::ExprCompiler;
use super::generate::CStmt;
use super::state::NONE;
use crate::ir::{CellExpr, Cond, DirRef, Effect, Pattern, Stmt, Test};

impl<const W: usize> ExprCompiler<'_, W> {
    pub fn stmts(&self, v: &[Stmt]) -> Vec<CStmt<W>> {
        let mut out = Vec::with_capacity(v.len());
        for s in v {
            match s {
                Stmt::For { slot, dirs, body } => self.for_dirs(*slot, dirs, body, &mut out),
                s => out.push(self.stmt(s)),
            }
        }
        out
    }

    /// A `for` over directions. The first `move to` of its body, when it goes to the
    /// first cell of a set along the loop's direction (`move to first tile from from
    /// toward d if to is empty`, or through a `let` bound so) with a target test alone and
    /// no effects, is taken out of the loop as one `Nearest`, which reaches it in every
    /// direction with a few masks. Its moves come before the loop's others: when every
    /// `move to` of the body goes along the loop's direction, the only other moves it
    /// could meet (which `movegen` drops as repeated, the first kept) are those of the
    /// same pass, which it came before already.
    fn for_dirs(&self, slot: u8, dirs: &[DirRef], body: &[Stmt], out: &mut Vec<CStmt<W>>) {
        let first = body.iter().position(|s| !matches!(s, Stmt::Let { .. }));
        let nearest = first
            .filter(|_| super::apart::least_along(slot, body).is_some())
            .and_then(|i| Some((i, self.nearest_move(slot, dirs, &body[..i], &body[i])?)));
        let rest: Vec<Stmt> = match nearest {
            None => body.to_vec(),
            Some((i, nearest)) => {
                out.push(nearest);
                // A body left with only `let`s makes no move.
                if body[i + 1..].iter().all(|s| matches!(s, Stmt::Let { .. })) {
                    return;
                }
                let rest = body.iter().enumerate().filter(|&(j, _)| j != i);
                rest.map(|(_, s)| s.clone()).collect()
            }
        };
        if let Some(beyond) = self.beyond(slot, dirs, &rest) {
            out.push(beyond);
            return;
        }
        out.push(self.stmt(&Stmt::For {
            slot,
            dirs: dirs.to_vec(),
            body: rest,
        }));
    }

    /// A body `let v = first S from from toward d` then `move to first S2 from v toward
    /// d if v is T …` (the target's own tests aside) as a `Beyond`, every test given as
    /// a set.
    fn beyond(&self, slot: u8, dirs: &[DirRef], body: &[Stmt]) -> Option<CStmt<W>> {
        let [
            Stmt::Let { slot: near, value },
            Stmt::MoveTo {
                target,
                to,
                cond,
                then,
            },
        ] = body
        else {
            return None;
        };
        let seek = self.test(first_toward(value, &CellExpr::From, slot)?);
        let past = self.test(first_toward(target, &CellExpr::Slot(*near), slot)?);
        if *near == slot {
            return None;
        }
        let (to, rest) = target_test(target, to, cond);
        let mut mid = Vec::new();
        for c in rest {
            match c {
                Cond::Is(CellExpr::Slot(s), t) if s == near => mid.push(t.clone()),
                _ => return None,
            }
        }
        let mid = self.test(&match mid.len() {
            0 => Test::Any,
            1 => mid.pop().expect("one"),
            _ => Test::And(mid),
        });
        let to = self.test(&to);
        [&seek, &past, &mid, &to]
            .iter()
            .all(|t| t.is_set())
            .then(|| CStmt::Beyond {
                slot,
                dirs: dirs.to_vec(),
                near: *near,
                seek,
                mid,
                past,
                to,
                then: then.unwrap_or(NONE),
            })
    }

    /// `s` as a `Nearest`, when it is a `move to` the first cell passing a test along the
    /// direction `slot` from the piece, written so or through one of the `let`s `before`
    /// it, with no effect and a condition that tests the target alone, both tests given
    /// as sets.
    fn nearest_move(
        &self,
        slot: u8,
        dirs: &[DirRef],
        before: &[Stmt],
        s: &Stmt,
    ) -> Option<CStmt<W>> {
        let Stmt::MoveTo {
            target,
            to,
            cond,
            then: None,
        } = s
        else {
            return None;
        };
        let seek = match target {
            CellExpr::Slot(s) => {
                // The last `let` of the slot before the move.
                let value = before.iter().rev().find_map(|b| match b {
                    Stmt::Let { slot, value } if slot == s => Some(value),
                    _ => None,
                })?;
                first_toward(value, &CellExpr::From, slot)?
            }
            e => first_toward(e, &CellExpr::From, slot)?,
        };
        let (to, rest) = target_test(target, to, cond);
        let (seek, to) = (self.test(seek), self.test(&to));
        (rest.is_empty() && seek.is_set() && to.is_set()).then(|| CStmt::Nearest {
            dirs: dirs.to_vec(),
            seek,
            to,
        })
    }

    fn stmt(&self, s: &Stmt) -> CStmt<W> {
        let then = |t: &Option<u16>| t.unwrap_or(NONE);
        match s {
            Stmt::For { slot, dirs, body } => {
                let body = self.stmts(body);
                CStmt::For {
                    slot: *slot,
                    dirs: dirs.clone(),
                    flat: body
                        .iter()
                        .all(|s| matches!(s, CStmt::Let { .. } | CStmt::MoveTo { .. })),
                    body,
                }
            }
            Stmt::ForPiece { slot, pieces, body } => CStmt::ForPiece {
                slot: *slot,
                pieces: pieces.clone(),
                body: self.stmts(body),
            },
            Stmt::Let { slot, value } => CStmt::Let {
                slot: *slot,
                value: self.cell(value),
            },
            Stmt::If {
                cond,
                then,
                otherwise,
            } => CStmt::If {
                cond: self.cond(cond),
                then: self.stmts(then),
                otherwise: self.stmts(otherwise),
            },
            Stmt::Step {
                dirs,
                to,
                cond,
                then: t,
            } => CStmt::Step {
                dirs: dirs.clone(),
                masks: None,
                to: self.test(to),
                cond: cond.as_ref().map(|c| self.cond(c)),
                then: then(t),
            },
            Stmt::Slide {
                dirs,
                max,
                through,
                to,
                cond,
                then: t,
            } => CStmt::Slide {
                dirs: dirs.clone(),
                fixed: fixed_dirs(dirs),
                max: *max,
                through: through.as_ref().map(|x| self.test(x)),
                to: self.test(to),
                cond: cond.as_ref().map(|c| self.cond(c)),
                then: then(t),
            },
            Stmt::Leap {
                leap,
                to,
                cond,
                then: t,
            } => CStmt::Leap {
                leap: leap.clone(),
                to: self.test(to),
                cond: cond.as_ref().map(|c| self.cond(c)),
                cond_set: cond.as_ref().and_then(|c| self.cond_set(c)),
                then: then(t),
            },
            Stmt::MoveTo {
                target,
                to,
                cond,
                then: t,
            } => {
                // The condition's tests of the target join its test: a jump (`move to
                // from + d * 2 if to is empty`) is then a shift of a batch.
                let (to, rest) = target_test(target, to, cond);
                let to = self.test(&to);
                let cond = match rest[..] {
                    [] => None,
                    [c] => Some(self.cond(c)),
                    _ => Some(self.cond(&Cond::And(rest.into_iter().cloned().collect()))),
                };
                CStmt::MoveTo {
                    step: match target {
                        CellExpr::Step(base, d, n) if **base == CellExpr::From => Some((*d, *n)),
                        _ => None,
                    },
                    target: self.cell(target),
                    to,
                    cond,
                    then: then(t),
                }
            }
            Stmt::MoveAny { to, cond, then: t } => CStmt::MoveAny {
                to: self.test(to),
                cond: cond.as_ref().map(|c| self.cond(c)),
                cond_set: cond.as_ref().and_then(|c| self.cond_set(c)),
                then: then(t),
            },
            Stmt::New(inner) => CStmt::New(Box::new(self.stmt(inner))),
            Stmt::Class { class, body } => CStmt::Class {
                class: *class,
                body: self.stmts(body),
            },
            Stmt::Chain { body, until } => {
                let hops = self.stmts(body);
                let until = until.as_ref().map(|c| self.cond(c));
                let gate = self.gate(body);
                let mut chains = self.chains.borrow_mut();
                chains.push((hops, until, gate));
                CStmt::Chain((chains.len() - 1) as u16)
            }
            Stmt::Place { on, cond, then: t } => CStmt::Place {
                on: self.test(on),
                cond: cond.as_ref().map(|c| self.cond(c)),
                cond_set: cond.as_ref().and_then(|c| self.cond_set(c)),
                then: then(t),
            },
        }
    }

    pub fn effects(&self, v: &[Effect]) -> Vec<CEffect<W>> {
        v.iter().map(|e| self.effect(e)).collect()
    }

    /// The test `T` of a `for d` body that is one `if` without `else` whose condition is,
    /// or has among the parts of its `and`, `to + d is T` with `T` given as a set.
    fn neighbour_guard(&self, slot: u8, body: &[Effect]) -> Option<CTest<W>> {
        let [
            Effect::If {
                cond, otherwise, ..
            },
        ] = body
        else {
            return None;
        };
        if !otherwise.is_empty() {
            return None;
        }
        let to = |x: &CellExpr| matches!(x, CellExpr::To);
        self.neighbour_part(slot, cond, to).map(|(_, t)| t)
    }

    /// Whether each of `dirs`, for every player, leads from every cell to one of its
    /// adjacent cells (`Geo::adjacent`) or off the board.
    pub(super) fn among_adjacent(&self, dirs: &[DirRef]) -> bool {
        let geo = self.geo;
        (0..self.tests.players.max(1) as usize).all(|p| {
            dirs.iter().all(|&d| {
                let d = match d {
                    DirRef::Abs(a) => a,
                    DirRef::Rel(r) => geo.rel[p][r as usize & 7],
                    DirRef::Var(_) | DirRef::Opp(_) => return false,
                };
                (0..geo.cells).all(|c| {
                    let n = geo.nb[c as usize][d as usize & 7];
                    n == NONE || geo.adjacent[c as usize].has(n)
                })
            })
        })
    }

    fn effect(&self, e: &Effect) -> CEffect<W> {
        match e {
            Effect::If {
                cond,
                then,
                otherwise,
            } => CEffect::If {
                cond: self.cond(cond),
                then: self.effects(then),
                otherwise: self.effects(otherwise),
            },
            Effect::For { slot, dirs, body } => CEffect::For {
                slot: *slot,
                dirs: dirs.clone(),
                body: self.effects(body),
                guard: self.neighbour_guard(*slot, body),
                adjacent: self.among_adjacent(dirs),
            },
            Effect::Along {
                slot,
                start,
                dir,
                test,
                body,
            } => CEffect::Along {
                slot: *slot,
                start: self.cell(start),
                dir: *dir,
                test: self.test(test),
                body: self.effects(body),
            },
            Effect::Let { slot, value } => CEffect::Let {
                slot: *slot,
                value: self.cell(value),
            },
            Effect::Remove(c) => CEffect::Remove(self.cell(c)),
            Effect::SetFlag { flag, at, value } => CEffect::SetFlag {
                flag: *flag,
                at: self.cell(at),
                value: *value,
            },
            Effect::Counter {
                counter,
                op,
                value: crate::ir::IntExpr::Const(k),
            } => CEffect::CounterBy {
                counter: *counter,
                op: *op,
                value: (*k).clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            },
            Effect::Counter { counter, op, value } => CEffect::Counter {
                counter: *counter,
                op: *op,
                value: self.int(value),
            },
            Effect::Again => CEffect::Again,
            Effect::Flip(c) => CEffect::Flip(self.cell(c)),
            Effect::Change { at, piece } => CEffect::Change {
                at: self.cell(at),
                piece: *piece,
            },
            Effect::Put { piece, at, neutral } => CEffect::Put {
                piece: *piece,
                at: self.cell(at),
                neutral: *neutral,
            },
            Effect::Choose {
                slot,
                from,
                body,
                removes: _,
            } => CEffect::Choose {
                slot: *slot,
                from: match from {
                    crate::ir::ChooseFrom::Where(c) => ChooseC::Where(self.cond(c)),
                    crate::ir::ChooseFrom::By { start, pattern } => ChooseC::By {
                        start: self.cell(start),
                        pattern: self.stmt(&pattern_stmt(pattern)),
                    },
                },
                body: self.effects(body),
            },
        }
    }
}

/// A `choose … by` pattern as the move statement that reaches the same cells.
fn pattern_stmt(p: &Pattern) -> Stmt {
    match p {
        Pattern::Step { dirs, to } => Stmt::Step {
            dirs: dirs.clone(),
            to: to.clone(),
            cond: None,
            then: None,
        },
        Pattern::Slide { dirs, max, to } => Stmt::Slide {
            dirs: dirs.clone(),
            max: *max,
            through: None,
            to: to.clone(),
            cond: None,
            then: None,
        },
        Pattern::Leap { leap, to } => Stmt::Leap {
            leap: vec![*leap],
            to: to.clone(),
            cond: None,
            then: None,
        },
    }
}

/// The test `T` when `e` is `first T from START toward d`, `d` the direction in `slot`.
fn first_toward<'e>(e: &'e CellExpr, start: &CellExpr, slot: u8) -> Option<&'e Test> {
    match e {
        CellExpr::First {
            test,
            start: s,
            dir,
        } if **s == *start && *dir == DirRef::Var(slot) => Some(test),
        _ => None,
    }
}

/// A `move to`'s target test with the parts of its condition that test the target (as
/// `to` or as the expression it is) joined to it, and the other parts, left to the
/// condition.
fn target_test<'c>(target: &CellExpr, to: &Test, cond: &'c Cond) -> (Test, Vec<&'c Cond>) {
    let parts = match cond {
        Cond::True => Vec::new(),
        c => super::phase::conjuncts(c),
    };
    let (on_target, rest): (Vec<&Cond>, Vec<&Cond>) = parts.into_iter().partition(|c| {
        matches!(c, Cond::Is(x, _)
            if *x == CellExpr::To || (x == target && apart_from_to(target)))
    });
    let to = if on_target.is_empty() {
        to.clone()
    } else {
        let mut tests = vec![to.clone()];
        tests.extend(on_target.into_iter().filter_map(|c| match c {
            Cond::Is(_, t) => Some(t.clone()),
            _ => None,
        }));
        Test::And(tests)
    };
    (to, rest)
}

/// Whether a target's cell is the same before and after `to` is set to it: the
/// expression reads no `to` (and no test that might), so a condition on the expression
/// is one on the target.
fn apart_from_to(e: &CellExpr) -> bool {
    match e {
        CellExpr::Slot(_)
        | CellExpr::Const(_)
        | CellExpr::From
        | CellExpr::LastFrom
        | CellExpr::LastTo => true,
        CellExpr::Step(base, _, _) => apart_from_to(base),
        CellExpr::To | CellExpr::First { .. } | CellExpr::Find(_) => false,
    }
}

/// The directions of a statement a bit each, when every one is absolute and none is named
/// twice; 0 otherwise.
fn fixed_dirs(dirs: &[DirRef]) -> u8 {
    let mut mask = 0u8;
    for d in dirs {
        match d {
            DirRef::Abs(a) if mask & 1 << (a & 7) == 0 => mask |= 1 << (a & 7),
            _ => return 0,
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::fixed_dirs;
    use crate::ir::DirRef;

    #[test]
    fn fixed_directions_are_absolute_and_named_once() {
        assert_eq!(
            fixed_dirs(&[DirRef::Abs(0), DirRef::Abs(2), DirRef::Abs(7)]),
            0b1000_0101
        );
        // Named twice, relative to the player, or read from a variable: none.
        assert_eq!(fixed_dirs(&[DirRef::Abs(1), DirRef::Abs(1)]), 0);
        assert_eq!(fixed_dirs(&[DirRef::Abs(1), DirRef::Rel(0)]), 0);
        assert_eq!(fixed_dirs(&[DirRef::Var(0)]), 0);
    }
}
