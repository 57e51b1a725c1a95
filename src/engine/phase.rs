//! Phases of a turn in a piece's rules: `if`s on the position alone (`if shooting == 0 {
//! slide … }`), asked once before a draw rather than once per piece, so that a phase made
//! of steps and slides is counted from the sets of all the pieces at once (`batch.rs`).

use super::batch::Batch;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{CondFn, Ctx, ExprCompiler};
use super::origin::of_position;
use super::state::State;
use crate::ir;

/// A statement `if C { … }` of a piece's rules that a batch depends on. When its body is
/// made of steps and slides and C reads only the position (`IfGuard::whole`), the
/// body's shifts count while C holds. Otherwise (`blocks`), its part of C on the
/// position is asked, and while that holds, the type is not drawn from its sets: its
/// pieces run their rules as any others. Phases of a turn are written so (`if shooting
/// == 0 { slide … }  if shooting == 1 and from == last-to { … }`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Guard {
    pub stmt: u8,
    pub blocks: bool,
}

/// The part of a top-level `if`'s condition that reads only the position (not the
/// piece's cell, a target, a variable or the moves: `origin::of_position`), compiled,
/// for a batch's guards.
pub struct IfGuard<const W: usize> {
    pub holds: CondFn<W>,
    /// Whether it is the whole condition.
    pub whole: bool,
}

/// The parts of `c` that must all hold: its terms if it is an `and`, else itself.
pub fn conjuncts(c: &ir::Cond) -> Vec<&ir::Cond> {
    match c {
        ir::Cond::And(v) => v.iter().collect(),
        c => vec![c],
    }
}

/// The conjuncts of `c` that read only the position, as one condition, and whether they
/// are all of it; `None` when none does.
pub fn position_part(c: &ir::Cond) -> Option<(ir::Cond, bool)> {
    let parts = conjuncts(c);
    let on_position: Vec<ir::Cond> = (parts.iter())
        .filter(|c| of_position(c))
        .map(|&c| c.clone())
        .collect();
    let whole = on_position.len() == parts.len();
    match on_position.len() {
        0 => None,
        1 => Some((on_position.into_iter().next().expect("one"), whole)),
        _ => Some((ir::Cond::And(on_position), whole)),
    }
}

/// A conjunct of a top-level `if` on the piece's own cell: `from is T` (`from in
/// REGION`) with no step, or `from + d * n is T`, whose test `T` is given as a set. Its
/// pieces are those of a set: the cells of `T`, or those `n` steps back from them.
pub struct OriginAtom<const W: usize> {
    pub step: Option<(ir::DirRef, u8)>,
    pub test: CTest<W>,
}

/// The conjuncts of an `if`'s condition on the piece's own cell (`OriginAtom`), when
/// every conjunct is one of them or reads only the position (`position_part`) and at
/// least one is: the pieces that pass them are then a set (`if from in pawn-start and
/// from + forward is empty { move to from + forward * 2 }`).
pub fn origin_part<const W: usize>(
    x: &ExprCompiler<W>,
    c: &ir::Cond,
) -> Option<Vec<OriginAtom<W>>> {
    let mut atoms = Vec::new();
    for part in conjuncts(c) {
        if of_position(part) {
            continue;
        }
        let ir::Cond::Is(cell, test) = part else {
            return None;
        };
        let step = match cell {
            ir::CellExpr::From => None,
            ir::CellExpr::Step(base, d, n)
                if **base == ir::CellExpr::From && d.is_fixed() && *n > 0 =>
            {
                Some((*d, *n))
            }
            _ => return None,
        };
        let test = x.test(test);
        if !test.is_set() {
            return None;
        }
        atoms.push(OriginAtom { step, test });
    }
    (!atoms.is_empty()).then_some(atoms)
}

impl<const W: usize> Core<W> {
    /// Which of a batch's guards hold for the player to move, a bit each; `None` when
    /// one whose rules are not shifts (`Guard::blocks`) may hold: the type's pieces then
    /// run their rules.
    #[inline(always)]
    pub fn guards_holding(&self, st: &State<W>, piece: u8, batch: &Batch<W>) -> Option<u64> {
        if batch.guards.is_empty() {
            return Some(0);
        }
        self.ask_guards(st, piece, batch)
    }

    #[inline(never)]
    fn ask_guards(&self, st: &State<W>, piece: u8, batch: &Batch<W>) -> Option<u64> {
        let mut cx = Ctx::new(st.s.to_move);
        let mut holding = 0;
        for (k, g) in batch.guards.iter().enumerate() {
            let guard = self.guards[piece as usize][g.stmt as usize].as_ref();
            if (guard.expect("a guard").holds)(self, st, &mut cx) {
                if g.blocks {
                    return None;
                }
                holding |= 1 << k;
            }
        }
        Some(holding)
    }
}

#[cfg(test)]
mod tests {
    use super::position_part;

    #[test]
    fn a_guards_part_on_the_position_leaves_out_what_reads_a_move() {
        use crate::ir::{CellExpr, CmpOp, Cond, IntExpr};
        let phase = Cond::Cmp(IntExpr::Counter(0), CmpOp::Eq, IntExpr::Const(1));
        let mover = Cond::CellEq(CellExpr::From, CellExpr::LastTo);
        let last = Cond::CellEq(CellExpr::LastTo, CellExpr::Const(3));
        assert_eq!(position_part(&phase), Some((phase.clone(), true)));
        assert_eq!(position_part(&mover), None);
        assert_eq!(
            position_part(&Cond::And(vec![phase.clone(), mover.clone()])),
            Some((phase.clone(), false))
        );
        assert_eq!(
            position_part(&Cond::And(vec![phase.clone(), mover, last.clone()])),
            Some((Cond::And(vec![phase, last]), false))
        );
        // A variable, even one bound inside: left out.
        let any = Cond::Exists {
            slot: 0,
            dirs: vec![crate::ir::DirRef::Abs(0)],
            body: Box::new(Cond::True),
        };
        assert_eq!(position_part(&any), None);
    }
}
