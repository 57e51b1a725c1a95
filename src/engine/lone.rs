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
use super::generate::{ANY_CLASS, CStmt, made, push_made};
use super::movegen::{Scratch, recorded};
use super::search::Rng;
use super::state::{Cell, Move, NONE, State};

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
    /// `drawn_by_sets`) set by set, in the order a run gives them, each with the context
    /// a run would make its moves in: whether they are made from nothing, and the
    /// variables the conditions before them left (`any d in …` writes its direction).
    /// True when `f` asked to stop.
    fn each_drawn(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        rules: &[CStmt<W>],
        f: &mut impl FnMut(&Ctx, u16, Bits<W>) -> bool,
    ) -> bool {
        rules.iter().any(|r| match r {
            CStmt::If {
                cond,
                then,
                otherwise,
            } => {
                let branch = if cond(self, st, cx) { then } else { otherwise };
                self.each_drawn(st, cx, branch, f)
            }
            CStmt::New(inner) => {
                cx.create = true;
                let stop = self.drawn_leaf(st, cx, inner, f);
                cx.create = false;
                stop
            }
            r => self.drawn_leaf(st, cx, r, f),
        })
    }

    /// `each_drawn` for a rule that `reaches_as_set`.
    #[inline(always)]
    fn drawn_leaf(
        &self,
        st: &State<W>,
        cx: &Ctx,
        r: &CStmt<W>,
        f: &mut impl FnMut(&Ctx, u16, Bits<W>) -> bool,
    ) -> bool {
        let (CStmt::Step { then, .. } | CStmt::Leap { then, .. } | CStmt::Slide { then, .. }) = r
        else {
            unreachable!("a rule drawn by sets")
        };
        let mut stop = false;
        self.each_reached(st, cx, std::slice::from_ref(r), |t| {
            stop = stop || f(cx, *then, t)
        });
        stop
    }

    /// The draw of a turn's later move when the origin gates leave one piece that can
    /// move, of a type drawn from its rules' sets (an Amazon's shot): `lone_draw` at once,
    /// with none of the draw by bounds around it (the guards of the types drawn from
    /// their sets asked, the origins listed), whose draw it is, number for number. Every
    /// piece of the player to move counts: when the gates leave one, no type's sets give
    /// a move (a guard on the position alone that holds opens its gate to every piece).
    /// The move is written in `out` (`Core::random_into`); false when the case does not
    /// hold, and `out` is untouched.
    #[inline(never)]
    pub(super) fn lone_continued(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        out: &mut Option<Move>,
    ) -> bool {
        let me = st.s.to_move as usize;
        // No action either: `lone_by_sets` holds for no type in a game with one.
        if st.any_in_hand(me, self.moves.len()) {
            return false;
        }
        let cells = self.through_gates(st, st.by_owner[me]);
        let Some(from) = cells.lowest() else {
            return false;
        };
        if cells.at_least(2) {
            return false;
        }
        let piece = self.codes.piece[st.board[from as usize] as usize];
        let bound = self.bound[piece as usize][from as usize];
        if self.lone_by_sets >> piece & 1 == 0 || bound == 0 {
            return false;
        }
        let (kept, words) = (&mut sc.missed_moves, &mut sc.missed_words);
        self.lone_draw(st, from, piece, bound, rng, kept, words, out);
        // As the draw by bounds ends when the lone piece has no move.
        if out.is_none() {
            *out = self.random_exact(st, rng, sc, ANY_CLASS);
        }
        true
    }

    /// The move of the lone origin `from` (of type `piece`, `bound` slots) that the draw
    /// by bounds would make, or `None` when it has none (`Core::lone_by_sets` holds for
    /// the type), written in `out` where it is made, and not copied after. The numbers
    /// are drawn as that draw draws them: a slot of the bound, before the moves are
    /// counted; when it lies beyond them, a second among them, taken from the sets kept on
    /// the way (`kept`, `words`: each set's move with no target, and its cells).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn lone_draw(
        &self,
        st: &State<W>,
        from: Cell,
        piece: u8,
        bound: u32,
        rng: &mut Rng,
        kept: &mut Vec<Move>,
        words: &mut Vec<u64>,
        out: &mut Option<Move>,
    ) {
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        let k = rng.below(bound as usize) as u32;
        kept.clear();
        words.clear();
        // The rules stop at the k-th move, as a run stops at the move it decodes: it is
        // made in the context there (a condition before it may have written a variable).
        let mut seen = 0;
        let found = self.each_drawn(
            st,
            &mut cx,
            &self.moves[piece as usize],
            &mut |cx, then, t| {
                let n = t.count();
                if k - seen < n {
                    *out = Some(made(cx, piece, t.nth_within(k - seen), then));
                    return true;
                }
                if n > 0 {
                    push_made(kept, cx, piece, NONE, then);
                    words.extend_from_slice(&t.0);
                }
                seen += n;
                false
            },
        );
        if found {
            return;
        }
        if seen == 0 {
            *out = None;
            return;
        }
        // The kept sets are a run's record (`Emit::record`): read back as a miss reads it.
        let i = rng.below(seen as usize) as u32;
        *out = Some(recorded::<W>(kept, words, i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random games drawn with the lone piece's sets and with its rules run: the same move
    /// at every ply, variables and all. Returns how many plies were played.
    fn same_games<const W: usize>(name: &str, make: impl Fn() -> Core<W>) -> usize {
        let (fast, mut general) = (make(), make());
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

    /// Shots under conditions, one of which leaves a variable written (`any d in …`): the
    /// moves of the rules after it carry it, as a run makes them.
    const SHOTS: &str = "game \"T\" { }\nplayers { white black }\nboard 6 x 6\n\
        piece Queen letter Q\npiece Arrow letter A\n\
        setup { white Queen a1 f1  black Queen a6 f6 }\ncounter shooting = 0\n\
        moves Queen {\n\
          if shooting == 0 { slide all to empty then { shooting = 1  again } }\n\
          if shooting == 1 and from == last-to and (any d in diagonal: from + d * 2 is enemy or from + d * 3 is enemy) {\n\
            new slide orthogonal to empty then { put neutral Arrow at to  shooting = 0 } }\n\
          if shooting == 1 and from == last-to {\n\
            new step diagonal to empty then { put neutral Arrow at to  shooting = 0 } }\n\
        }\nend { when no moves: next loses }\n";

    /// At a turn's later moves, the lone piece's draw made at once is the draw by
    /// bounds', move for move and number for number; in Amazons it is taken at every shot.
    #[test]
    fn a_lone_continuation_is_drawn_as_the_draw_by_bounds_draws_it() {
        let core = Core::<2>::example("amazons");
        let (mut sc, mut taken, mut later) = (Scratch::default(), 0, 0);
        for game in 0..30 {
            let mut st = core.start();
            let mut rng = Rng::for_playout(13, game);
            loop {
                if st.s.streak > 0 {
                    later += 1;
                    let mut other = rng.clone();
                    let mut m = None;
                    if core.lone_continued(&mut st, &mut other, &mut sc, &mut m) {
                        taken += 1;
                        let n = core.random_bounded::<false>(&mut st, &mut rng.clone(), &mut sc);
                        assert_eq!(m, n, "game {game}");
                    }
                }
                let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) else {
                    break;
                };
                core.make(&mut st, &m);
                st.commit();
            }
        }
        assert!(later > 1000 && taken == later, "{taken} of {later} shots");
    }

    #[test]
    fn the_lone_pieces_draw_is_the_general_draw() {
        assert!(same_games("amazons", || Core::<2>::example("amazons")) > 3000);
        let tempo = same_games("tempo", || Core::<1>::example("tempo"));
        assert!(tempo > 300, "{tempo}");
        let shots = same_games("shots", || Core::<1>::of_text(SHOTS));
        assert!(shots > 500, "{shots}");
    }
}
