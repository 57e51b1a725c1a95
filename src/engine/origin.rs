//! Which pieces of a type could make a move at all this turn, told from the `if`s their
//! rules are made of, once per position rather than once per piece. Rules written in
//! phases, such as a queen that moves and then shoots from where it landed,
//!
//! ```text
//! if shooting == 0 { slide all to empty then { shooting = 1  again } }
//! if shooting == 1 and from == last-to { new slide all to empty then { … } }
//! ```
//!
//! give, while `shooting` is 1, moves to the one piece on `last-to`: the others need not
//! run their rules, nor be drawn in a random playout only to yield nothing.

use super::bits::Bits;
use super::core::Core;
use super::evaluate::{CellFn, CondFn, Ctx, ExprCompiler};
use super::state::{NONE, State};
use crate::ir::visit::{Visitor, walk_cell, walk_cond};
use crate::ir::{CellExpr, Cond, Stmt};

/// One top-level statement of a piece type's rules, as the pieces it could give moves
/// to: none unless `guard` holds (when there is one), and then only the piece on
/// `cell`'s cell (when there is one).
struct Arm<const W: usize> {
    guard: Option<CondFn<W>>,
    cell: Option<CellFn<W>>,
}

/// A piece type's rules as `Arm`s, when at least one of them can rule pieces out.
pub struct OriginGate<const W: usize> {
    arms: Vec<Arm<W>>,
}

/// Finds what a gate cannot evaluate once per position: `from`, `to`, a variable, or
/// whether the player has moves (which would run the rules being gated).
#[derive(Default)]
struct ReadsMore(bool);

impl Visitor for ReadsMore {
    fn cond(&mut self, c: &Cond) {
        self.0 |= matches!(c, Cond::NoMoves);
        walk_cond(self, c)
    }
    fn cell(&mut self, e: &CellExpr) {
        self.0 |= matches!(e, CellExpr::From | CellExpr::To);
        walk_cell(self, e)
    }
    fn slot(&mut self, _s: crate::ir::Slot) {
        self.0 = true;
    }
    fn dir(&mut self, d: &crate::ir::DirRef) {
        self.0 |= !d.is_fixed();
    }
}

/// Whether a condition reads nothing but the position.
pub(super) fn of_position(c: &Cond) -> bool {
    let mut f = ReadsMore::default();
    f.cond(c);
    !f.0
}

/// Whether a cell expression reads nothing but the position.
fn cell_of_position(e: &CellExpr) -> bool {
    let mut f = ReadsMore::default();
    f.cell(e);
    !f.0
}

impl<const W: usize> ExprCompiler<'_, W> {
    /// The gate of a piece type whose rules are `rules`: each top-level statement an
    /// `if` with no `else`, whose condition's conjuncts include one that reads only the
    /// position or one that is `from == CELL` (CELL read from the position). The other
    /// conjuncts are left out: a gate may let through a piece that then has no move, but
    /// never holds back one that has.
    pub fn origin_gate(&self, rules: &[Stmt]) -> Option<OriginGate<W>> {
        let mut arms = Vec::new();
        for s in rules {
            let Stmt::If {
                cond, otherwise, ..
            } = s
            else {
                return None;
            };
            if !otherwise.is_empty() {
                return None;
            }
            let conjuncts = match cond {
                Cond::And(v) => v.as_slice(),
                c => std::slice::from_ref(c),
            };
            let guards: Vec<Cond> = conjuncts
                .iter()
                .filter(|c| of_position(c))
                .cloned()
                .collect();
            let cell = conjuncts.iter().find_map(|c| match c {
                Cond::CellEq(CellExpr::From, e) | Cond::CellEq(e, CellExpr::From)
                    if cell_of_position(e) =>
                {
                    Some(e)
                }
                _ => None,
            });
            if guards.is_empty() && cell.is_none() {
                return None;
            }
            // A lone conjunct compiles to its own closure (`ExprCompiler::cond`).
            arms.push(Arm {
                guard: (!guards.is_empty()).then(|| self.cond(&Cond::And(guards))),
                cell: cell.map(|e| self.cell(e)),
            });
        }
        (!arms.is_empty()).then_some(OriginGate { arms })
    }
}

impl<const W: usize> Core<W> {
    /// The cells from which pieces of a gated type could move in this position: `None`
    /// when any could.
    #[inline]
    fn gate_cells(&self, gate: &OriginGate<W>, st: &State<W>) -> Option<Bits<W>> {
        let mut cx = Ctx::new(st.s.to_move);
        let mut cells = Bits::EMPTY;
        for arm in &gate.arms {
            if arm.guard.as_ref().is_some_and(|g| !g(self, st, &mut cx)) {
                continue;
            }
            let Some(cell) = &arm.cell else {
                return None;
            };
            let c = cell(self, st, &mut cx);
            if c != NONE {
                cells = cells.with(c);
            }
        }
        Some(cells)
    }

    /// `cells` without the pieces that their type's gate rules out this turn.
    #[inline(always)]
    pub fn through_gates(&self, st: &State<W>, mut cells: Bits<W>) -> Bits<W> {
        for (piece, gate) in &self.origin_gates {
            let pieces = st.by_type[*piece as usize].and(cells);
            if pieces.is_empty() {
                continue;
            }
            if let Some(open) = self.gate_cells(gate, st) {
                cells = cells.minus(pieces.minus(open));
            }
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::super::movegen::Scratch;
    use super::super::search::Rng;
    use super::super::state::Move;
    use super::*;

    /// A man steps, then the same man steps again (gated by `from == last-to`), or any
    /// man steps diagonally under a guard that reads `to`: not a condition on the
    /// position, so that in the second phase no man can be ruled out.
    const PHASES: &str = r#"
game "Phases" { }
players { white black }
board 5 x 5
piece Man letter M
counter phase = 0
setup {
  white Man a1 c1 e1
  black Man a5 c5 e5
}
moves Man {
  if phase == 0 { step all to empty then { phase = 1  again } }
  if phase == 1 and from == last-to { step orthogonal to empty then { phase = 0 } }
  if phase == 1 and to + north is empty { step diagonal to empty then { phase = 0 } }
}
end { when no moves: next loses }
"#;

    /// Through random games, the moves listed with the gates are those listed without
    /// them, and in Amazons the gates do rule pieces out.
    #[test]
    fn gates_rule_out_only_pieces_without_moves() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
        let amazons = std::fs::read_to_string(dir.join("amazons.game")).expect("a game");
        for (name, source) in [("phases", PHASES.to_string()), ("amazons", amazons)] {
            let gated = Core::<2>::of_text(&source);
            let mut plain = Core::<2>::of_text(&source);
            assert_eq!(gated.origin_gates.len(), 1, "{name}");
            plain.origin_gates.clear();
            let (mut sc, mut ruled_out, mut positions) = (Scratch::default(), 0, 0);
            for game in 0..20 {
                let mut pos = gated.start_pos();
                let mut rng = Rng::for_playout(3, game);
                for _ in 0..60 {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    gated.legal_moves(&mut pos.st, &mut a);
                    plain.legal_moves(&mut pos.st, &mut b);
                    let text = |v: &[Move]| format!("{v:?}");
                    assert_eq!(text(&a), text(&b), "{name}, game {game}");
                    let mine = pos.st.by_owner[pos.st.s.to_move as usize];
                    ruled_out += (gated.through_gates(&pos.st, mine) != mine) as u32;
                    positions += 1;
                    let Some(m) = gated.random_legal(&mut pos.st, &mut rng, &mut sc) else {
                        break;
                    };
                    gated.play(&mut pos, &m);
                }
            }
            assert!(
                name != "amazons" || ruled_out * 4 > positions,
                "{name}: pieces ruled out in {ruled_out} of {positions} positions"
            );
        }
    }
}
