//! Deciding the turn: the end rules in order, then a forced pass or the end of a game
//! nobody can move in; results and scores.

use super::evaluate::Ctx;
use super::hash::Position;
use super::state::{Move, State};
use super::{Engine, Outcome};
use crate::ir::{self, Outcome as IrOutcome};

impl Engine {
    /// Decides the turn: either the game is over, or `moves` holds the legal moves
    /// (a lone pass when the rules force one).
    pub fn status(&self, pos: &Position, moves: &mut Vec<Move>) -> Option<Outcome> {
        let st = &pos.state;
        self.legal_moves(st, moves);
        let mut cx = Ctx::new(st.to_move);
        cx.no_moves = moves.is_empty();
        cx.repetitions = pos.repetitions();
        for rule in &self.game().end {
            if self.cond(st, &mut cx, &rule.cond) {
                moves.clear();
                return Some(self.outcome(st, &mut cx, rule.outcome));
            }
        }
        if moves.is_empty() {
            if self.game().forced_pass {
                moves.push(Move::PASS);
            } else {
                // No move, no pass, no end rule: nothing can happen any more.
                return Some(Outcome::Draw);
            }
        }
        None
    }

    fn outcome(&self, st: &State, cx: &mut Ctx, o: IrOutcome) -> Outcome {
        let who = |p: ir::PlayerRef| match p {
            ir::PlayerRef::Me => st.to_move,
            ir::PlayerRef::Opponent => 1 - st.to_move,
            ir::PlayerRef::Previous => st.previous,
            ir::PlayerRef::Named(i) => i,
        };
        match o {
            IrOutcome::Draw => Outcome::Draw,
            IrOutcome::Wins(p) => Outcome::Win(who(p)),
            IrOutcome::Loses(p) => Outcome::Win(1 - who(p)),
            IrOutcome::HigherScoreWins => {
                let s = self.scores(st, cx);
                match s[0].cmp(&s[1]) {
                    std::cmp::Ordering::Greater => Outcome::Win(0),
                    std::cmp::Ordering::Less => Outcome::Win(1),
                    std::cmp::Ordering::Equal => Outcome::Draw,
                }
            }
        }
    }

    /// Both players' scores (zero when the game declares none).
    pub fn scores(&self, st: &State, cx: &mut Ctx) -> [i64; 2] {
        [0, 1].map(|p| {
            let mut c = *cx;
            c.me = p;
            self.int(st, &mut c, &ir::IntExpr::Score)
        })
    }

    pub fn scores_of(&self, pos: &Position) -> Option<[i64; 2]> {
        self.game().score.as_ref()?;
        Some(self.scores(&pos.state, &mut Ctx::new(pos.state.to_move)))
    }
}
