//! Deciding the turn: the end rules in order, then a forced pass or the end of a game
//! nobody can move in; results and scores.

use super::Outcome;
use super::core::Core;
use super::evaluate::Ctx;
use super::state::State;
use crate::ir::{self, Outcome as IrOutcome};

impl<const W: usize> Core<W> {
    /// The first end rule that holds, with what the player to move can do and how often
    /// the position has occurred; then, if nobody can move and the rules force no pass,
    /// a draw.
    pub fn decide(&self, st: &State<W>, no_moves: bool, repetitions: u32) -> Option<Outcome> {
        let mut cx = Ctx::new(st.s.to_move);
        cx.no_moves = no_moves;
        cx.moves_known = true;
        cx.repetitions = repetitions;
        for (cond, outcome) in &self.end {
            if cond(self, st, &mut cx) {
                return Some(self.outcome(st, &mut cx, *outcome));
            }
        }
        if no_moves && !self.program.game.forced_pass {
            // No move, no pass, no end rule: nothing can happen any more.
            return Some(Outcome::Draw);
        }
        None
    }

    fn outcome(&self, st: &State<W>, cx: &mut Ctx, o: IrOutcome) -> Outcome {
        let who = |p: ir::PlayerRef| self.player(st, cx, p);
        match o {
            IrOutcome::Draw => Outcome::Draw,
            IrOutcome::Wins(p) => Outcome::Win(who(p)),
            IrOutcome::Loses(p) if self.players == 2 => Outcome::Win(1 - who(p)),
            IrOutcome::Loses(p) => Outcome::Lose(who(p)),
            IrOutcome::HigherScoreWins => {
                let s = self.scores(st);
                let best = s.iter().copied().max().unwrap_or(0);
                let top: Vec<usize> = (0..s.len()).filter(|&i| s[i] == best).collect();
                match top[..] {
                    [one] => Outcome::Win(one as u8),
                    _ => Outcome::Draw,
                }
            }
        }
    }

    /// Every player's score (zero when the game declares none).
    pub fn scores(&self, st: &State<W>) -> Vec<i64> {
        (0..self.players)
            .map(|p| self.score(st, &mut Ctx::new(p)))
            .collect()
    }
}
