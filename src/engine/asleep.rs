//! `after move` blocks asleep. A block that is one `if` (no `else`) on counters alone,
//! such as an opening's `if opening < 3 { … }`, does nothing after a plain move (no
//! effect block) while its condition fails: a plain move writes no counter, so the
//! condition the block asks after the move is the one it would ask before it. Such a move
//! is then made bare (`Core::is_bare`), with nothing logged. The condition is kept as a
//! small tree read with no closure, since it is asked before every plain move.

use super::core::Core;
use super::state::State;
use crate::ir::{After, CmpOp, Cond, Effect, IntExpr};

/// A block that may sleep: its pieces (a bit per type) and its condition.
pub struct Sleeper {
    pieces: u32,
    cond: OnCounters,
}

/// A condition on the mover's counters and constants.
enum OnCounters {
    /// A counter compared with a constant (`opening < 3`): whether it lies in `lo..=hi`,
    /// or with `outside` (`!=`) out of it.
    Range {
        counter: u8,
        lo: i64,
        hi: i64,
        outside: bool,
    },
    Const(bool),
    Not(Box<OnCounters>),
    And(Vec<OnCounters>),
    Or(Vec<OnCounters>),
    Cmp(Number, CmpOp, Number),
}

/// A number of the mover's counters and constants, with the arithmetic of the compiled
/// expressions (saturating).
enum Number {
    Const(i64),
    Counter(u8),
    Add(Box<Number>, Box<Number>),
    Sub(Box<Number>, Box<Number>),
    Mul(Box<Number>, Box<Number>),
}

impl Number {
    fn of(e: &IntExpr) -> Option<Number> {
        let two = |a: &IntExpr, b: &IntExpr| Some((Box::new(Self::of(a)?), Box::new(Self::of(b)?)));
        Some(match e {
            &IntExpr::Const(k) => Number::Const(k),
            &IntExpr::Counter(i) => Number::Counter(i),
            IntExpr::Add(a, b) => two(a, b).map(|(a, b)| Number::Add(a, b))?,
            IntExpr::Sub(a, b) => two(a, b).map(|(a, b)| Number::Sub(a, b))?,
            IntExpr::Mul(a, b) => two(a, b).map(|(a, b)| Number::Mul(a, b))?,
            _ => return None,
        })
    }

    fn value(&self, counters: &[i32]) -> i64 {
        match self {
            &Number::Const(k) => k,
            &Number::Counter(i) => counters[i as usize] as i64,
            Number::Add(a, b) => a.value(counters).saturating_add(b.value(counters)),
            Number::Sub(a, b) => a.value(counters).saturating_sub(b.value(counters)),
            Number::Mul(a, b) => a.value(counters).saturating_mul(b.value(counters)),
        }
    }
}

impl OnCounters {
    fn of(c: &Cond) -> Option<OnCounters> {
        let all = |v: &[Cond]| v.iter().map(Self::of).collect::<Option<Vec<_>>>();
        Some(match c {
            Cond::True => OnCounters::Const(true),
            Cond::False => OnCounters::Const(false),
            Cond::Not(c) => OnCounters::Not(Box::new(Self::of(c)?)),
            Cond::And(v) => OnCounters::And(all(v)?),
            Cond::Or(v) => OnCounters::Or(all(v)?),
            Cond::Cmp(a, op, b) => match (a, b) {
                (&IntExpr::Counter(i), &IntExpr::Const(k)) => Self::range(i, *op, k),
                (&IntExpr::Const(k), &IntExpr::Counter(i)) => Self::range(i, flipped(*op), k),
                _ => OnCounters::Cmp(Number::of(a)?, *op, Number::of(b)?),
            },
            _ => return None,
        })
    }

    /// `counter OP k` as a `Range`.
    fn range(counter: u8, op: CmpOp, k: i64) -> OnCounters {
        let never = (i64::MIN, i64::MAX, true);
        let (lo, hi, outside) = match op {
            CmpOp::Eq => (k, k, false),
            CmpOp::Ne => (k, k, true),
            CmpOp::Le => (i64::MIN, k, false),
            CmpOp::Ge => (k, i64::MAX, false),
            // `v < k` is `v <= k - 1`; below the least number it never holds.
            CmpOp::Lt => k.checked_sub(1).map_or(never, |h| (i64::MIN, h, false)),
            CmpOp::Gt => k.checked_add(1).map_or(never, |l| (l, i64::MAX, false)),
        };
        OnCounters::Range {
            counter,
            lo,
            hi,
            outside,
        }
    }

    /// Asked before every plain move: a counter's range at once, the rest apart.
    #[inline(always)]
    fn holds(&self, counters: &[i32]) -> bool {
        match *self {
            OnCounters::Range {
                counter,
                lo,
                hi,
                outside,
            } => {
                let v = counters[counter as usize] as i64;
                // One unsigned compare for `lo <= v <= hi`.
                (v.wrapping_sub(lo) as u64 <= hi.wrapping_sub(lo) as u64) != outside
            }
            _ => self.holds_apart(counters),
        }
    }

    fn holds_apart(&self, counters: &[i32]) -> bool {
        match self {
            OnCounters::Range { .. } => self.holds(counters),
            &OnCounters::Const(b) => b,
            OnCounters::Not(c) => !c.holds(counters),
            OnCounters::And(v) => v.iter().all(|c| c.holds(counters)),
            OnCounters::Or(v) => v.iter().any(|c| c.holds(counters)),
            OnCounters::Cmp(a, op, b) => op.holds(a.value(counters), b.value(counters)),
        }
    }
}

/// `a OP b` as `b OP' a`.
fn flipped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        op => op,
    }
}

/// The blocks that may sleep, and the pieces of the others (always awake). A block
/// after one that writes a counter never sleeps: its condition, asked after that block
/// ran, may differ from the one before the move.
pub(super) fn sleepers(after: &[After]) -> (Vec<Sleeper>, u32) {
    let (mut sleepers, mut awake, mut written) = (Vec::new(), 0, false);
    for a in after {
        let cond = match &a.effects[..] {
            [
                Effect::If {
                    cond, otherwise, ..
                },
            ] if otherwise.is_empty() && !written => OnCounters::of(cond),
            _ => None,
        };
        match cond {
            Some(cond) => sleepers.push(Sleeper {
                pieces: a.pieces,
                cond,
            }),
            None => awake |= a.pieces,
        }
        written |= writes_counter(&a.effects);
    }
    (sleepers, awake)
}

fn writes_counter(effects: &[Effect]) -> bool {
    struct Finds(bool);
    impl crate::ir::visit::Visitor for Finds {
        fn effect(&mut self, e: &Effect) {
            self.0 |= matches!(e, Effect::Counter { .. });
            crate::ir::visit::walk_effect(self, e);
        }
    }
    let mut f = Finds(false);
    effects
        .iter()
        .for_each(|e| crate::ir::visit::Visitor::effect(&mut f, e));
    f.0
}

impl<const W: usize> Core<W> {
    /// Whether no `after move` block among those of `pieces` (a bit per type) does
    /// anything after a plain move of type `piece` now.
    #[inline(always)]
    pub(super) fn no_after(&self, st: &State<W>, piece: u8, pieces: u32) -> bool {
        pieces >> piece & 1 == 0
            || !self.sleepers.is_empty() && (self.after_awake(st) & pieces) >> piece & 1 == 0
    }

    /// The piece types whose `after move` blocks may do something after a plain move of
    /// the player to move, a bit each.
    #[inline(never)]
    fn after_awake(&self, st: &State<W>) -> u32 {
        let counters = &st.counters[st.s.to_move as usize][..];
        (self.sleepers.iter())
            .filter(|s| s.cond.holds(counters))
            .fold(self.always_awake, |awake, s| awake | s.pieces)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::core::Core;
    use crate::engine::movegen::Scratch;
    use crate::engine::search::Rng;

    /// A game of kings and rooks with the `after move` blocks given.
    fn game(after: &str) -> Core<1> {
        Core::of_text(&format!(
            "game \"T\" {{ }}\nplayers {{ white black }}\nboard 5 x 5\n\
             piece King letter K\npiece Rook letter R\n\
             setup {{ white King a1  white Rook e1  black King a5  black Rook e5 }}\n\
             counter opening = 0\ncounter moved = 0\n\
             moves King {{ step all to not friend }}\n\
             moves Rook {{ slide orthogonal to not friend }}\n{after}\n\
             end {{ when no moves: next loses  when turns >= 80: draw }}\n"
        ))
    }

    const OPENING: &str =
        "after move { if opening < 2 { opening += 1  if opening < 2 { again } } }";

    #[test]
    fn a_block_sleeps_when_it_is_one_if_on_counters_before_any_counter_is_written() {
        let asleep = |after: &str| game(after).sleepers.len();
        assert_eq!(asleep(OPENING), 1);
        assert_eq!(
            asleep("after move { if moved * 2 - 1 >= opening + 3 { again } }"),
            1
        );
        // After a block writing a counter; on a cell; with an `else`; not one `if`.
        let later = "after move of Rook { moved += 1 }\n\
                     after move of King { if moved < 3 { opening += 1 } }";
        assert_eq!(asleep(later), 0);
        assert_eq!(
            asleep("after move of King { if to is empty { moved += 1 } }"),
            0
        );
        assert_eq!(
            asleep("after move { if moved < 3 { moved += 1 } else { again } }"),
            0
        );
        assert_eq!(
            asleep("after move { if moved < 3 { moved += 1 }  again }"),
            0
        );
        let core = game(&format!("{OPENING}\nafter move of King {{ opening += 1 }}"));
        assert_eq!((core.sleepers.len(), core.always_awake), (1, 1));
    }

    /// A comparison read as a range, either way round, and the general tree give what
    /// comparing the numbers gives, at the ends of the numbers too.
    #[test]
    fn a_condition_on_counters_holds_as_the_comparison_does() {
        use super::OnCounters;
        use crate::ir::{CmpOp, Cond, IntExpr};
        let ops = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ];
        let compare = |a: i64, op: CmpOp, b: i64| op.holds(a, b);
        let ks = [
            i64::MIN,
            i32::MIN as i64,
            -3,
            0,
            2,
            3,
            i32::MAX as i64,
            i64::MAX,
        ];
        let vs = [i32::MIN, -3, 0, 1, 2, 3, 4, i32::MAX];
        let (counter, k) = (|| IntExpr::Counter(1), IntExpr::Const);
        let (mut ranges, mut held) = (0, 0);
        for op in ops {
            for k0 in ks {
                let sum = IntExpr::Add(Box::new(counter()), Box::new(k(0)));
                let conds = [
                    Cond::Cmp(counter(), op, k(k0)),
                    Cond::Cmp(k(k0), op, counter()),
                    Cond::Cmp(sum, op, k(k0)),
                ];
                let on = conds.map(|c| OnCounters::of(&c).expect("on counters"));
                ranges += on
                    .iter()
                    .filter(|c| matches!(c, OnCounters::Range { .. }))
                    .count();
                for v in vs {
                    let counters = [7, v];
                    let want = compare(v as i64, op, k0);
                    held += want as u32;
                    assert_eq!(on[0].holds(&counters), want, "{v} {op:?} {k0}");
                    assert_eq!(
                        on[1].holds(&counters),
                        compare(k0, op, v as i64),
                        "{k0} {op:?} {v}"
                    );
                    assert_eq!(on[2].holds(&counters), want, "{v} + 0 {op:?} {k0}");
                }
            }
        }
        assert_eq!(ranges, 2 * ops.len() * ks.len());
        assert!(held > 100, "{held}");
    }

    /// Once the opening's `if` fails, a move of either piece is bare, and made bare it
    /// leaves the state `make` leaves; during the opening, none is.
    #[test]
    fn a_move_is_bare_while_the_block_sleeps() {
        let core = game(OPENING);
        let mut sc = Scratch::default();
        let (mut bare, mut opening) = (0, 0);
        for i in 0..40 {
            let mut rng = Rng::for_playout(5, i);
            let mut st = core.start();
            for _ in 0..100 {
                let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) else {
                    break;
                };
                let mut made = st.clone();
                core.make(&mut made, &m);
                made.commit();
                let waking = st.counters[st.s.to_move as usize][0] < 2;
                assert_eq!(core.is_bare(&st, &m), !waking, "{m:?}");
                if waking {
                    opening += 1;
                    st = made;
                } else {
                    bare += 1;
                    core.move_bare(&mut st, m.piece, m.from, m.to);
                    assert!(st == made, "{m:?}");
                }
            }
        }
        assert!(
            bare > 1000 && opening == 160,
            "{bare} bare, {opening} in the opening"
        );
    }
}
