//! Deciding the turn: the end rules in order, then a forced pass or the end of a game
//! nobody can move in; results and scores.

use super::Outcome;
use super::core::Core;
use super::evaluate::{CondFn, Ctx, ExprCompiler};
use super::state::State;
use crate::ir::visit::{Visitor, walk_cond, walk_int};
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
    /// Whether the condition asks anything of the moves the player to move has (`no
    /// moves`, `moves`).
    asks_moves: bool,
}

impl<const W: usize> EndRule<W> {
    pub fn new(x: &ExprCompiler<'_, W>, rule: &ir::EndRule) -> EndRule<W> {
        let conjuncts = match &rule.cond {
            Cond::And(v) => &v[..],
            c => std::slice::from_ref(c),
        };
        let mut needs_no_moves = false;
        let mut min_repetitions = 0;
        for c in conjuncts {
            match c {
                Cond::NoMoves => needs_no_moves = true,
                Cond::Cmp(IntExpr::Repetitions, op, IntExpr::Const(k)) => {
                    let least = match op {
                        CmpOp::Ge | CmpOp::Eq => *k,
                        CmpOp::Gt => k.saturating_add(1),
                        _ => 0,
                    };
                    min_repetitions = min_repetitions.max(least.clamp(0, u32::MAX as i64) as u32);
                }
                _ => {}
            }
        }
        EndRule {
            cond: x.cond(&rule.cond),
            outcome: rule.outcome,
            needs_no_moves,
            min_repetitions,
            asks_moves: asks_moves(&rule.cond),
        }
    }
}

/// Whether a condition reads the moves of the player to move anywhere in it.
fn asks_moves(c: &Cond) -> bool {
    struct Asks(bool);
    impl Visitor for Asks {
        fn cond(&mut self, c: &Cond) {
            self.0 |= matches!(c, Cond::NoMoves);
            walk_cond(self, c)
        }
        fn int(&mut self, e: &IntExpr) {
            self.0 |= matches!(e, IntExpr::MoveCount);
            walk_int(self, e)
        }
    }
    let mut a = Asks(false);
    a.cond(c);
    a.0
}

impl<const W: usize> Core<W> {
    /// The first end rule that holds, with what the player to move can do and how often
    /// the position has occurred; then, if nobody can move and the rules force no pass,
    /// a draw.
    pub fn decide(&self, st: &State<W>, no_moves: bool, repetitions: u32) -> Option<Outcome> {
        self.decide_from(st, no_moves, repetitions, 0)
    }

    /// How many end rules come first that ask nothing of the moves: they decide a
    /// position before its moves are known (a playout's draw is then not made in a
    /// finished game), and `decide_from` that many takes the others after.
    pub fn rules_before_moves(&self) -> usize {
        self.end.iter().take_while(|r| !r.asks_moves).count()
    }

    /// `decide` from end rule `first` on (those before it known not to hold).
    #[inline]
    pub fn decide_from(
        &self,
        st: &State<W>,
        no_moves: bool,
        repetitions: u32,
        first: usize,
    ) -> Option<Outcome> {
        // Made for the first rule asked: after most moves, none is (the rules left once
        // `decide_before` has asked the others are mostly `when no moves`).
        let mut context = None;
        for rule in &self.end[first..] {
            if (rule.needs_no_moves && !no_moves) || repetitions < rule.min_repetitions {
                continue;
            }
            let cx = context.get_or_insert_with(|| {
                let mut cx = Ctx::new(st.s.to_move);
                cx.no_moves = no_moves;
                cx.moves_known = true;
                cx.repetitions = repetitions;
                cx
            });
            if (rule.cond)(self, st, cx) {
                return Some(self.outcome(st, cx, rule.outcome));
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

    /// The first of the end rules before `first`, which ask nothing of the moves, that
    /// holds (`rules_before_moves`).
    #[inline(always)]
    pub fn decide_before(&self, st: &State<W>, repetitions: u32, first: usize) -> Option<Outcome> {
        if first == 0 {
            return None;
        }
        let mut cx = Ctx::new(st.s.to_move);
        cx.repetitions = repetitions;
        for rule in &self.end[..first] {
            if repetitions < rule.min_repetitions {
                continue;
            }
            if (rule.cond)(self, st, &mut cx) {
                return Some(self.outcome(st, &mut cx, rule.outcome));
            }
        }
        None
    }

    /// Every player's score (zero when the game declares none).
    pub fn scores(&self, st: &State<W>) -> Vec<i64> {
        (0..self.players)
            .map(|p| self.score(st, &mut Ctx::new(p)))
            .collect()
    }
}
