//! Where the piece a condition finds may stand: `not (any d in all: first tile from king
//! toward d is enemy Warrior)`, with `king` found by `find friend King`, read for every
//! cell at once rather than for the cell the King stands on.
//!
//! The cells from which the first cell of T toward `d` is a given cell `p` are those of
//! the ray from `p` the other way, up to and including its first cell of T: so the cells
//! that see a cell of U along some direction are the union, over the cells of U ∩ T and
//! the directions, of those rays. `not`, `and` and `or` are then set operations.
//!
//! A move of the found piece with no effects changes neither T nor U when T reads only
//! flags and U holds only on another's pieces, but for a piece of U it may take on its
//! target: and that piece sees other cells, never its own. So the condition after the
//! move is whether its target is among the cells, and the move need not be played to
//! be judged (`Core::count_judged`).

use super::bits::Bits;
use super::core::Core;
use super::evaluate::{Ctx, ExprCompiler};
use super::footprint::{flags_only, foreign_only};
use super::state::State;
use crate::ir::{CellExpr, Cond, DirRef, Slot, Test};

/// The cells where the found piece may stand for the condition to hold.
pub type Standing<const W: usize> =
    Box<dyn Fn(&Core<W>, &State<W>, &Ctx) -> Bits<W> + Send + Sync + std::panic::RefUnwindSafe>;

impl<const W: usize> ExprCompiler<'_, W> {
    /// The condition as the cells where the piece it finds may stand, when it is made of
    /// lines of sight from that one piece (`Standing`), and the test that finds it.
    pub fn standing(&self, c: &Cond) -> Option<(Standing<W>, Test)> {
        let mut found = Found::default();
        let cells = self.standing_in(c, &mut found)?;
        Some((cells, found.test?))
    }

    fn standing_in(&self, c: &Cond, find: &mut Found) -> Option<Standing<W>> {
        Some(match c {
            Cond::True => Box::new(|core, _, _| core.geo.all),
            Cond::False => Box::new(|_, _, _| Bits::EMPTY),
            Cond::Not(c) => {
                let c = self.standing_in(c, find)?;
                Box::new(move |core, st, cx| core.geo.all.minus(c(core, st, cx)))
            }
            Cond::And(v) | Cond::Or(v) => {
                let parts = (v.iter())
                    .map(|c| self.standing_in(c, find))
                    .collect::<Option<Vec<_>>>()?;
                let all = matches!(c, Cond::And(_));
                Box::new(move |core, st, cx| {
                    let start = if all { core.geo.all } else { Bits::EMPTY };
                    parts.iter().fold(start, |acc, p| {
                        let cells = p(core, st, cx);
                        if all { acc.and(cells) } else { acc.or(cells) }
                    })
                })
            }
            // The piece found once for the quantifier (a pass hoists `find`).
            Cond::Let {
                slot,
                value: CellExpr::Find(found),
                body,
            } => {
                find.same(found)?;
                find.slots.push(*slot);
                self.standing_in(body, find)?
            }
            Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body } => {
                let (test, start, u) = line_of_sight(*slot, body)?;
                match start {
                    CellExpr::Find(found) => find.same(found)?,
                    CellExpr::Slot(x) if find.slots.contains(x) => {}
                    _ => return None,
                }
                if !flags_only(test) || !foreign_only(u) {
                    return None;
                }
                let (stops, ends) = (self.test(test), self.test(u));
                if !stops.is_set() || !ends.is_set() {
                    return None;
                }
                let (dirs, all) = (dirs.clone(), matches!(c, Cond::Forall { .. }));
                Box::new(move |core, st, cx| {
                    let stops = stops.set(core, st, cx).expect("a set test");
                    let ends = ends.set(core, st, cx).expect("a set test").and(stops);
                    let mut out = if all { core.geo.all } else { Bits::EMPTY };
                    let through = core.geo.all.minus(stops);
                    for &d in &dirs {
                        let back = core.geo.opposite[core.dir(cx, d) as usize & 7] as usize;
                        // Where a step that way is a translation, every piece's line at
                        // once, by a fill (as slides are batched); else piece by piece.
                        let seeing = match core.geo.translation[back] {
                            Some((delta, has)) => {
                                core.line_fill(ends.and(has), delta, through, has)
                            }
                            None => ends.iter().fold(Bits::EMPTY, |seeing, p| {
                                seeing.or(core.ray_to_first(p as usize, back, stops))
                            }),
                        };
                        out = if all { out.and(seeing) } else { out.or(seeing) };
                    }
                    out
                })
            }
            _ => return None,
        })
    }
}

/// A quantifier's body that is a line of sight along its direction, `first T from X
/// toward d is U`: T, X and U.
pub(super) fn line_of_sight(slot: Slot, body: &Cond) -> Option<(&Test, &CellExpr, &Test)> {
    match body {
        Cond::Is(
            CellExpr::First {
                test,
                start,
                dir: DirRef::Var(s),
            },
            u,
        ) if *s == slot => Some((test, start, u)),
        _ => None,
    }
}

/// The one piece a condition finds, and the variables it is held in.
#[derive(Default)]
struct Found {
    test: Option<Test>,
    slots: Vec<Slot>,
}

impl Found {
    /// `Some` when `test` finds the piece found so far, or is the first.
    fn same(&mut self, test: &Test) -> Option<()> {
        match &self.test {
            Some(t) if t != test => None,
            Some(_) => Some(()),
            None => {
                self.test = Some(test.clone());
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::core::Core;
    use crate::engine::evaluate::Ctx;
    use crate::engine::search::Rng;

    /// In every position of random games, the cells `standing` gives are those where the
    /// condition holds with the found piece put there (the piece lifted from its cell
    /// and put on each empty cell in turn): on Shakti's square board, whose steps are
    /// translations (lines filled all at once), and on a hexagon, whose steps are not
    /// all (lines walked piece by piece).
    #[test]
    fn the_cells_where_the_found_piece_may_stand_are_those_where_the_condition_holds() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/shakti.game");
        let text = std::fs::read_to_string(path).expect("the game");
        let variant = text.rfind("\nvariant").expect("a variant");
        let hexagon = text[..variant]
            .replace("board 7 x 7", "board hexagon 4")
            .replace("Warrior b2 f2", "Warrior c2 e3")
            .replace("Warrior b6 f6", "Warrior c5 e6");
        for (text, square) in [(text.as_str(), true), (hexagon.as_str(), false)] {
            let core = Core::<1>::of_text(text);
            let translated = |d: usize| core.geo.translation[d].is_some();
            assert_eq!((0..8).all(translated), square);
            stands_where_it_holds(&core);
        }
    }

    fn stands_where_it_holds(core: &Core<1>) {
        let fp = core.legal_foot.as_ref().expect("a footprint");
        let (standing, _) = fp.standing.as_ref().expect("lines of sight from the King");
        let cond = core.legal.as_ref().expect("a condition");
        // Declared first.
        let king = 0;
        let mut checked = 0;
        for game in 0..20 {
            let mut rng = Rng::for_playout(3, game);
            let mut pos = core.start_pos();
            for _ in 0..80 {
                let me = pos.st.s.to_move;
                let mine = pos.st.by_owner[me as usize].and(pos.st.by_type[king]);
                let Some(k) = mine.lowest() else { break };
                let cells = standing(core, &pos.st, &Ctx::new(me));
                let code = core.codes.code(me, king as u8);
                for c in 0..core.geo.cells {
                    if c != k && pos.st.board[c as usize] != 0 {
                        continue;
                    }
                    let mut st = pos.st.clone();
                    st.write_unlogged(&core.codes, k, 0);
                    st.write_unlogged(&core.codes, c, code);
                    let holds = cond(core, &st, &mut Ctx::new(me));
                    assert_eq!(cells.has(c), holds, "game {game}, cell {c}");
                    checked += 1;
                }
                let mut moves = Vec::new();
                core.legal_moves(&mut pos.st, &mut moves);
                if moves.is_empty() {
                    break;
                }
                core.play(&mut pos, &moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
