//! Deciding the turn: the end rules in order, then a forced pass or the end of a game
//! nobody can move in; results and scores.

use super::Outcome;
use super::core::Core;
use super::evaluate::{CondFn, Ctx, ExprCompiler};
use super::state::State;
use crate::ir::{self, CmpOp, Cond, IntExpr, Outcome as IrOutcome};

/// An end rule, compiled, with what its condition needs of the turn: most rules cannot
/// hold after most moves (`when no moves`, `when repetitions >= 3`), and are then passed
/// over without running their condition.
pub struct EndRule<const W: usize> {
    cond: CondFn<W>,
    outcome: IrOutcome,
    /// A conjunct of the condition is `no moves` (of the player to move).
    needs_no_moves: bool,
    /// A conjunct asks for at least this many occurrences of the position.
    min_repetitions: u32,
    /// A conjunct asks for at least this many passes in a row, or turns: rules that end
    /// a long game (`when turns >= 2500`) are passed over with a compare each, not a run
    /// of their condition after every move.
    min_passes: u32,
    min_turns: u32,
    /// Any of the three least counts above is more than zero (a rule with none is asked
    /// one byte, not three compares).
    counted: bool,
}

impl<const W: usize> EndRule<W> {
    pub fn new(x: &ExprCompiler<'_, W>, rule: &ir::EndRule) -> EndRule<W> {
        let conjuncts = match &rule.cond {
            Cond::And(v) => &v[..],
            c => std::slice::from_ref(c),
        };
        let mut needs_no_moves = false;
        let (mut min_repetitions, mut min_passes, mut min_turns) = (0, 0, 0);
        // The least value of the left side for which `op k` can hold.
        let least = |op: &CmpOp, k: i64| {
            let least = match op {
                CmpOp::Ge | CmpOp::Eq => k,
                CmpOp::Gt => k.saturating_add(1),
                _ => 0,
            };
            least.clamp(0, u32::MAX as i64) as u32
        };
        for c in conjuncts {
            match c {
                Cond::NoMoves => needs_no_moves = true,
                Cond::Cmp(IntExpr::Repetitions, op, IntExpr::Const(k)) => {
                    min_repetitions = min_repetitions.max(least(op, *k));
                }
                Cond::Cmp(IntExpr::Passes, op, IntExpr::Const(k)) => {
                    min_passes = min_passes.max(least(op, *k));
                }
                Cond::Cmp(IntExpr::Turns, op, IntExpr::Const(k)) => {
                    min_turns = min_turns.max(least(op, *k));
                }
                _ => {}
            }
        }
        EndRule {
            cond: x.cond(&rule.cond),
            outcome: rule.outcome,
            needs_no_moves,
            min_repetitions,
            min_passes,
            min_turns,
            counted: min_repetitions > 0 || min_passes > 0 || min_turns > 0,
        }
    }
}

impl<const W: usize> Core<W> {
    /// The first end rule that holds, with what the player to move can do and how often
    /// the position has occurred; then, if nobody can move and the rules force no pass,
    /// a draw.
    #[inline(never)]
    pub fn decide(&self, st: &State<W>, no_moves: bool, repetitions: u32) -> Option<Outcome> {
        self.decide_inline(st, no_moves, repetitions)
    }

    /// `decide`, inline: in the placement loop, whose plies are short, the call was a
    /// tenth of a ply (in the general loop, inline, it made Shakhmaty's playouts slower).
    #[inline(always)]
    pub fn decide_inline(
        &self,
        st: &State<W>,
        no_moves: bool,
        repetitions: u32,
    ) -> Option<Outcome> {
        let mut cx = Ctx::new(st.s.to_move);
        cx.no_moves = no_moves;
        cx.moves_known = true;
        cx.repetitions = repetitions;
        for rule in &self.end {
            if (rule.needs_no_moves && !no_moves)
                || (rule.counted
                    && (repetitions < rule.min_repetitions
                        || st.s.passes < rule.min_passes
                        || st.s.turns < rule.min_turns))
            {
                continue;
            }
            if (rule.cond)(self, st, &mut cx) {
                return Some(self.outcome(st, &mut cx, rule.outcome));
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
                // The one best score wins; a tie at the top draws. Nothing is allocated:
                // a placement game asks this at the end of every playout.
                let (mut best, mut leader, mut tied) = (i64::MIN, 0, false);
                for p in 0..self.players {
                    let s = self.score(st, &mut Ctx::new(p));
                    if s > best {
                        (best, leader, tied) = (s, p, false);
                    } else if s == best {
                        tied = true;
                    }
                }
                if tied {
                    Outcome::Draw
                } else {
                    Outcome::Win(leader)
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
