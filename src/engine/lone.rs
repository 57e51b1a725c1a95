//! A random move when one piece alone can move: the shot of an Amazon, which only the
//! queen that just moved may fire (`if shooting == 1 and from == last-to { new slide all
//! to empty … }`). The draw by bounds (`Core::random_by_bounds`) leaves that one origin,
//! and its rules are a slide whose targets are one set: the move is drawn from the sets
//! of its rules, read as `each_reached` reads plain rules, with no rule run. The draw
//! takes its numbers as the draw by bounds does (a slot among the piece's bound, then,
//! when it lies beyond the piece's moves, one among them), so that the games played are
//! the same.

use super::bits::Bits;
use super::core::Core;
use super::evaluate::Ctx;
use super::generate::CStmt;
use super::search::Rng;
use super::state::{Cell, Move, MoveKind, NONE, State};

impl<const W: usize> Core<W> {
    /// Whether a piece's rules give their targets as sets whatever the position: rules
    /// that `reaches_as_set` (with effect blocks or not), `new` ones, and `if`s whose
    /// branches are such rules.
    pub(super) fn drawn_by_sets(&self, rules: &[CStmt<W>]) -> bool {
        rules.iter().all(|r| match r {
            CStmt::If {
                then, otherwise, ..
            } => self.drawn_by_sets(then) && self.drawn_by_sets(otherwise),
            CStmt::New(inner) => self.reaches_as_set(inner),
            r => self.reaches_as_set(r),
        })
    }

    /// Hands `f` the targets of the rules of the piece on `cx.from` (rules that pass
    /// `drawn_by_sets`) set by set, in the order a run gives them, with whether they are
    /// made from nothing and their effect block.
    fn each_drawn(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        rules: &[CStmt<W>],
        create: bool,
        f: &mut impl FnMut(bool, u16, Bits<W>),
    ) {
        for r in rules {
            match r {
                CStmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let branch = if cond(self, st, cx) { then } else { otherwise };
                    self.each_drawn(st, cx, branch, create, f);
                }
                CStmt::New(inner) => self.drawn_leaf(st, cx, inner, true, f),
                r => self.drawn_leaf(st, cx, r, create, f),
            }
        }
    }

    /// `each_drawn` for a rule that `reaches_as_set`.
    #[inline(always)]
    fn drawn_leaf(
        &self,
        st: &State<W>,
        cx: &Ctx,
        r: &CStmt<W>,
        create: bool,
        f: &mut impl FnMut(bool, u16, Bits<W>),
    ) {
        let (CStmt::Step { then, .. } | CStmt::Leap { then, .. } | CStmt::Slide { then, .. }) = r
        else {
            unreachable!("a rule drawn by sets")
        };
        self.each_reached(st, cx, std::slice::from_ref(r), |t| f(create, *then, t))
    }

    /// The move of the lone origin `from` (of type `piece`, `bound` slots) that the draw
    /// by bounds would make, or `None` when it has none. The game has no `legal if`, and
    /// the piece's rules pass `drawn_by_sets` and repeat no move.
    pub(super) fn lone_draw(
        &self,
        st: &State<W>,
        from: Cell,
        piece: u8,
        bound: u32,
        rng: &mut Rng,
        sets: &mut Vec<u64>,
    ) -> Option<Move> {
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        // Each set's words, then its effect block and whether it is made from nothing.
        sets.clear();
        let mut count = 0;
        let rules = &self.moves[piece as usize];
        self.each_drawn(st, &mut cx, rules, false, &mut |create, then, t| {
            let n = t.count();
            if n > 0 {
                count += n;
                sets.extend_from_slice(&t.0);
                sets.push(n as u64 | (then as u64) << 32 | (create as u64) << 48);
            }
        });
        let k = rng.below(bound as usize) as u32;
        if count == 0 {
            return None;
        }
        // A slot beyond the piece's moves: one among them instead, as a miss does.
        let mut k = if k < count {
            k
        } else {
            rng.below(count as usize) as u32
        };
        for one in sets.chunks_exact(W + 1) {
            let n = one[W] as u32;
            if k >= n {
                k -= n;
                continue;
            }
            let targets = Bits::<W>(std::array::from_fn(|w| one[w]));
            let create = one[W] >> 48 & 1 != 0;
            return Some(Move {
                kind: if create {
                    MoveKind::Create
                } else {
                    MoveKind::Normal
                },
                piece,
                from,
                to: targets.nth_within(k),
                effect: (one[W] >> 32) as u16,
                slots: cx.slots,
                choice: cx.choice,
                cell_choice: NONE,
                class: cx.class,
                ..Move::PASS
            });
        }
        unreachable!("k is below the sets' count")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movegen::Scratch;

    /// Random games drawn with the lone piece's sets and with its rules run: the same move
    /// at every ply (an Amazon's shots; Tempo's King when its stones are placed).
    fn same_games<const W: usize>(name: &str) -> usize {
        let fast = Core::<W>::example(name);
        let mut general = Core::<W>::example(name);
        assert!(fast.lone_by_sets != 0, "{name}: a type drawn by its sets");
        general.lone_by_sets = 0;
        let mut sc = Scratch::default();
        let mut plies = 0;
        for game in 0..30 {
            let mut st = fast.start();
            let mut rng = Rng::for_playout(11, game);
            for _ in 0..200 {
                let mut other = rng.clone();
                let m = fast.random_legal(&mut st, &mut rng, &mut sc);
                let n = general.random_legal(&mut st, &mut other, &mut sc);
                assert_eq!(m, n, "{name}, game {game}, ply {plies}");
                let Some(m) = m else { break };
                fast.make(&mut st, &m);
                st.commit();
                plies += 1;
            }
        }
        plies
    }

    #[test]
    fn the_lone_pieces_draw_is_the_general_draw() {
        assert!(same_games::<2>("amazons") > 3000);
        let tempo = same_games::<1>("tempo");
        assert!(tempo > 300, "{tempo}");
    }
}
