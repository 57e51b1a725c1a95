//! Conditions on the target cell as sets of cells: `place on empty if to in bottom or
//! to + south is occupied` gives its targets as bitboard operations (a region, a test's
//! cells, the cells before a set in a direction), not as one evaluation per cell. Parts
//! that do not read `to` are evaluated once, as all cells or none.

use super::super::bits::Bits;
use super::super::core::Core;
use super::super::evaluate::{Ctx, ExprCompiler};
use super::super::state::State;
use crate::ir::visit::{Visitor, walk_cell};
use crate::ir::{CellExpr, Cond, DirRef};

/// The cells where a condition holds with `to` bound to each.
pub type SetFn<const W: usize> =
    Box<dyn Fn(&Core<W>, &State<W>, &mut Ctx) -> Bits<W> + Send + Sync + std::panic::RefUnwindSafe>;

/// Whether an expression reads the target cell.
fn reads_to(c: &Cond) -> bool {
    struct Finder(bool);
    impl Visitor for Finder {
        fn cell(&mut self, e: &CellExpr) {
            self.0 |= matches!(e, CellExpr::To);
            walk_cell(self, e)
        }
    }
    let mut f = Finder(false);
    f.cond(c);
    f.0
}

impl<const W: usize> ExprCompiler<'_, W> {
    /// The condition as a set of target cells, when every part that reads `to` is a cell
    /// test of `to` or of a neighbour of `to` in a fixed direction.
    pub fn cond_set(&self, c: &Cond) -> Option<SetFn<W>> {
        if !reads_to(c) {
            let f = self.cond(c);
            return Some(Box::new(move |core, st, cx| {
                if f(core, st, cx) {
                    core.geo.all
                } else {
                    Bits::EMPTY
                }
            }));
        }
        match c {
            Cond::Is(CellExpr::To, t) => {
                let t = self.test(t);
                t.is_set().then(|| -> SetFn<W> {
                    Box::new(move |core, st, cx| t.set(core, st, cx).expect("a set test"))
                })
            }
            Cond::Is(CellExpr::Step(inner, d, 1), t) if matches!(**inner, CellExpr::To) => {
                let (t, d) = (self.test(t), *d);
                // A fixed direction along a translation of the board: one shift.
                if let (DirRef::Abs(a), true) = (d, t.is_set())
                    && let Some((delta, has)) = self.geo.translation[a as usize & 7]
                {
                    return Some(Box::new(move |core, st, cx| {
                        let set = t.set(core, st, cx).expect("a set test");
                        set.shift(-delta).and(has)
                    }));
                }
                t.is_set().then(|| -> SetFn<W> {
                    Box::new(move |core, st, cx| {
                        let set = t.set(core, st, cx).expect("a set test");
                        core.before_step(set, core.dir(cx, d))
                    })
                })
            }
            // The first cell passing A beyond `to` passes U: the cells before one of
            // A ∩ U, or before a cell outside A that is itself such a cell (a fixed
            // point, reached within the longest ray).
            Cond::Is(CellExpr::First { test, start, dir }, u)
                if matches!(**start, CellExpr::To) =>
            {
                let (a, u, d) = (self.test(test), self.test(u), *dir);
                (a.is_set() && u.is_set()).then(|| -> SetFn<W> {
                    Box::new(move |core, st, cx| {
                        let a = a.set(core, st, cx).expect("a set test");
                        let hit = a.and(u.set(core, st, cx).expect("a set test"));
                        let d = core.dir(cx, d);
                        let mut x = core.before_step(hit, d);
                        loop {
                            let next = core.before_step(hit.or(x.minus(a)), d);
                            if next == x {
                                return x;
                            }
                            x = next;
                        }
                    })
                })
            }
            Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body } => {
                let any = matches!(c, Cond::Exists { .. });
                let (slot, dirs, body) = (*slot as usize, dirs.clone(), self.cond_set(body)?);
                Some(Box::new(move |core, st, cx| {
                    let saved = cx.slots[slot];
                    let mut acc = if any { Bits::EMPTY } else { core.geo.all };
                    for &d in &dirs {
                        cx.slots[slot] = core.dir(cx, d) as u16;
                        let set = body(core, st, cx);
                        acc = if any { acc.or(set) } else { acc.and(set) };
                    }
                    cx.slots[slot] = saved;
                    acc
                }))
            }
            Cond::Not(inner) => {
                let f = self.cond_set(inner)?;
                Some(Box::new(move |core, st, cx| {
                    core.geo.all.minus(f(core, st, cx))
                }))
            }
            Cond::And(v) => {
                let parts = v
                    .iter()
                    .map(|c| self.cond_set(c))
                    .collect::<Option<Vec<_>>>()?;
                Some(Box::new(move |core, st, cx| {
                    let mut acc = core.geo.all;
                    for p in &parts {
                        if acc.is_empty() {
                            break;
                        }
                        acc = acc.and(p(core, st, cx));
                    }
                    acc
                }))
            }
            Cond::Or(v) => {
                let mut parts = v
                    .iter()
                    .map(|c| self.cond_set(c))
                    .collect::<Option<Vec<_>>>()?;
                if parts.len() == 2 {
                    let (b, a) = (parts.pop()?, parts.pop()?);
                    return Some(Box::new(move |core, st, cx| {
                        a(core, st, cx).or(b(core, st, cx))
                    }));
                }
                Some(Box::new(move |core, st, cx| {
                    let mut acc = Bits::EMPTY;
                    for p in &parts {
                        acc = acc.or(p(core, st, cx));
                    }
                    acc
                }))
            }
            _ => None,
        }
    }
}
