//! Evaluation: cell expressions, conditions and numbers, compiled once into closures that
//! read a state from one player's point of view. The common shapes (`to + d is enemy`,
//! `first tile from c toward d`, `find friend King`) get closures of their own, which use
//! the bitboards instead of walking cells. Pure: nothing here changes the state.

use std::sync::Arc;

use super::bits::Bits;
use super::compile::test::{CTest, TestEnv};
use super::core::Core;
use super::lines::LineCount;
use super::state::{Cell, MAX_PLAYERS, NO_CHOICE, NO_CLASS, NONE, State};
use crate::ir::{CellExpr, CmpOp, Cond, DirRef, IntExpr, MAX_SLOTS, PlayerRef, Test};

/// Evaluation context: the point of view and the variables of the rule being run.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    pub me: u8,
    pub from: Cell,
    pub to: Cell,
    pub slots: [u16; MAX_SLOTS],
    /// How deep `attacked` is nested (an attack rule asking whether a cell is attacked).
    pub depth: u8,
    /// Filled in before end rules are evaluated.
    pub no_moves: bool,
    pub repetitions: u32,
    pub again: bool,
    /// The piece type chosen by the enclosing `for p in PIECES`, if any.
    pub choice: u8,
    /// The class of moves of the enclosing class block, if any.
    pub class: u8,
    /// Inside `new`: moves create a piece instead of moving one.
    pub create: bool,
    /// The cell a `choose` of the move being played binds.
    pub cell_choice: Cell,
    /// Whether `no_moves` is known (for the player to move).
    pub moves_known: bool,
}

impl Ctx {
    /// `f` from `who`'s point of view, switched in place and back rather than the
    /// context copied: a copy reads the context whole just after its fields were
    /// written one by one, and waits for those stores. What `f` writes stays: a
    /// condition writes only its own variables' slots, above the live ones.
    #[inline(always)]
    pub fn viewed_by<T>(&mut self, who: u8, f: impl FnOnce(&mut Ctx) -> T) -> T {
        let me = std::mem::replace(&mut self.me, who);
        let out = f(self);
        self.me = me;
        out
    }

    pub fn new(me: u8) -> Ctx {
        Ctx {
            me,
            from: NONE,
            to: NONE,
            slots: [NONE; MAX_SLOTS],
            depth: 0,
            no_moves: false,
            repetitions: 0,
            again: false,
            choice: NO_CHOICE,
            class: NO_CLASS,
            create: false,
            cell_choice: NONE,
            moves_known: false,
        }
    }
}

pub type CellFn<const W: usize> =
    Box<dyn Fn(&Core<W>, &State<W>, &mut Ctx) -> Cell + Send + Sync + std::panic::RefUnwindSafe>;
pub type CondFn<const W: usize> =
    Box<dyn Fn(&Core<W>, &State<W>, &mut Ctx) -> bool + Send + Sync + std::panic::RefUnwindSafe>;
pub type IntFn<const W: usize> =
    Box<dyn Fn(&Core<W>, &State<W>, &mut Ctx) -> i64 + Send + Sync + std::panic::RefUnwindSafe>;

/// Compiles expressions against the tests and regions of one game.
pub struct ExprCompiler<'a, const W: usize> {
    pub tests: &'a TestEnv<'a, W>,
    /// The board, for what is precomputed from it (a line's windows, a step's shift).
    pub geo: &'a super::core::Geo<W>,
    /// The chains of hops met so far: their hop rules and what ends them early.
    pub chains: std::cell::RefCell<Vec<super::core::Chain<W>>>,
    /// The sight tables built so far, per list of directions, shared by the conditions
    /// that look along the same directions (`Sight`).
    pub sights: std::cell::RefCell<Vec<(Vec<DirRef>, Arc<Sight<W>>)>>,
}

impl<const W: usize> ExprCompiler<'_, W> {
    pub fn test(&self, t: &crate::ir::Test) -> CTest<W> {
        self.tests.compile(t, &|c| self.cond(c))
    }

    pub fn line_count(
        &self,
        test: &crate::ir::Test,
        through: &CellExpr,
        n: u16,
        exact: bool,
    ) -> LineCount<W> {
        let through = match through {
            CellExpr::LastTo => None,
            c => Some(self.cell(c)),
        };
        LineCount::new(self.geo, self.test(test), through, n as usize, exact)
    }

    pub fn cell(&self, e: &CellExpr) -> CellFn<W> {
        match e {
            CellExpr::From => Box::new(|_, _, cx| cx.from),
            CellExpr::To => Box::new(|_, _, cx| cx.to),
            CellExpr::LastFrom => Box::new(|_, st, _| st.s.last_from),
            CellExpr::LastTo => Box::new(|_, st, _| st.s.last_to),
            &CellExpr::Const(c) => Box::new(move |_, _, _| c),
            &CellExpr::Slot(s) => Box::new(move |_, _, cx| cx.slots[s as usize]),
            CellExpr::Step(base, d, n) => {
                let (d, n) = (*d, *n as usize);
                let base_slot = Base::of(base);
                if let Some(b) = base_slot {
                    if n == 1 {
                        return Box::new(move |core, st, cx| {
                            let c = b.get(cx, st);
                            if c == NONE {
                                NONE
                            } else {
                                core.step(c, core.dir(cx, d))
                            }
                        });
                    }
                    return Box::new(move |core, st, cx| {
                        core.step_n(b.get(cx, st), core.dir(cx, d), n)
                    });
                }
                let base = self.cell(base);
                Box::new(move |core, st, cx| {
                    let c = base(core, st, cx);
                    core.step_n(c, core.dir(cx, d), n)
                })
            }
            CellExpr::First { test, start, dir } => {
                let (t, d) = (self.test(test), *dir);
                // From a cell read straight from the context: no closure for the start.
                match Base::of(start) {
                    Some(b) => first_from(move |_, st, cx| b.get(cx, st), t, d),
                    None => first_from(self.cell(start), t, d),
                }
            }
            CellExpr::Find(test) => {
                let t = self.test(test);
                if t.is_set() {
                    Box::new(move |core, st, cx| {
                        t.set(core, st, cx)
                            .expect("a set test")
                            .lowest()
                            .unwrap_or(NONE)
                    })
                } else {
                    Box::new(move |core, st, cx| {
                        (0..core.geo.cells)
                            .find(|&c| t.holds(core, st, cx, c))
                            .unwrap_or(NONE)
                    })
                }
            }
        }
    }

    pub fn cond(&self, c: &Cond) -> CondFn<W> {
        match c {
            Cond::True => Box::new(|_, _, _| true),
            Cond::False => Box::new(|_, _, _| false),
            Cond::Is(e, t) => {
                let t = self.test(t);
                let base = Base::of(e);
                // `first FLAG from x toward d is T` in one closure (lines of sight).
                if let CellExpr::First { test, start, dir } = e
                    && let crate::ir::Test::Flag(f) = **test
                    && let Some(b) = Base::of(start)
                {
                    let d = *dir;
                    return Box::new(move |core, st, cx| {
                        let c = b.get(cx, st);
                        if c == NONE {
                            return false;
                        }
                        let c = core.first_in(c, core.dir(cx, d), st.flags[f as usize]);
                        c != NONE && t.holds(core, st, cx, c)
                    });
                }
                // `to + d is T` and `x is T` without a closure for the cell.
                if let CellExpr::Step(inner, d, 1) = e
                    && let Some(b) = Base::of(inner)
                {
                    let d = *d;
                    return Box::new(move |core, st, cx| {
                        let c = b.get(cx, st);
                        if c == NONE {
                            return false;
                        }
                        let c = core.step(c, core.dir(cx, d));
                        c != NONE && t.holds(core, st, cx, c)
                    });
                }
                // `to + d * 2 is T` (the far side of a capture) likewise.
                if let CellExpr::Step(inner, d, n) = e
                    && let Some(b) = Base::of(inner)
                {
                    let (d, n) = (*d, *n as usize);
                    return Box::new(move |core, st, cx| {
                        let c = core.step_n(b.get(cx, st), core.dir(cx, d), n);
                        c != NONE && t.holds(core, st, cx, c)
                    });
                }
                if let Some(b) = base {
                    return Box::new(move |core, st, cx| {
                        let c = b.get(cx, st);
                        c != NONE && t.holds(core, st, cx, c)
                    });
                }
                // `find T is U` (a king found, then asked whether it is attacked) without a
                // closure for the cell.
                if let CellExpr::Find(found) = e
                    && let found = self.test(found)
                    && found.is_set()
                {
                    return Box::new(move |core, st, cx| {
                        let set = found.set(core, st, cx).expect("a set test");
                        set.lowest().is_some_and(|c| t.holds(core, st, cx, c))
                    });
                }
                let e = self.cell(e);
                Box::new(move |core, st, cx| {
                    let c = e(core, st, cx);
                    c != NONE && t.holds(core, st, cx, c)
                })
            }
            Cond::CellEq(a, b) => {
                let (a, b) = (self.cell(a), self.cell(b));
                Box::new(move |core, st, cx| {
                    let x = a(core, st, cx);
                    x != NONE && x == b(core, st, cx)
                })
            }
            Cond::Not(x) => {
                let x = self.cond(x);
                Box::new(move |core, st, cx| !x(core, st, cx))
            }
            Cond::And(v) => {
                // Neighbouring tests of one cell are one test (`last-to is King and
                // last-to in edge`): one table lookup rather than two closures.
                let mut fused: Vec<Cond> = Vec::with_capacity(v.len());
                for x in v {
                    match (fused.last_mut(), x) {
                        (Some(Cond::Is(e, t)), Cond::Is(e2, t2)) if e == e2 => {
                            *t = match std::mem::replace(t, Test::Any) {
                                Test::And(mut ts) => {
                                    ts.push(t2.clone());
                                    Test::And(ts)
                                }
                                t1 => Test::And(vec![t1, t2.clone()]),
                            };
                        }
                        _ => fused.push(x.clone()),
                    }
                }
                if let [one] = &fused[..] {
                    return self.cond(one);
                }
                let v: Vec<CondFn<W>> = fused.iter().map(|x| self.cond(x)).collect();
                match <[CondFn<W>; 2]>::try_from(v) {
                    Ok([a, b]) => Box::new(move |core, st, cx| a(core, st, cx) && b(core, st, cx)),
                    Err(v) => Box::new(move |core, st, cx| v.iter().all(|x| x(core, st, cx))),
                }
            }
            Cond::Or(v) => {
                let v: Vec<CondFn<W>> = v.iter().map(|x| self.cond(x)).collect();
                match <[CondFn<W>; 2]>::try_from(v) {
                    Ok([a, b]) => Box::new(move |core, st, cx| a(core, st, cx) || b(core, st, cx)),
                    Err(v) => Box::new(move |core, st, cx| v.iter().any(|x| x(core, st, cx))),
                }
            }
            Cond::Cmp(a, op, b) => {
                let op = *op;
                if let IntExpr::Const(k) = b {
                    let k = *k;
                    // `moves-made > 0`, `in-hand(white) == 0`: one closure, not two.
                    match a {
                        IntExpr::Of(PlayerRef::Named(i), inner) => {
                            if let Some(own) = Own::of_expr(inner, self.tests.pieces) {
                                let i = *i;
                                return own.compared(op, k, move |_, _, _| i);
                            }
                        }
                        IntExpr::Of(p, inner) => {
                            if let Some(own) = Own::of_expr(inner, self.tests.pieces) {
                                let p = *p;
                                return own
                                    .compared(op, k, move |core, st, cx| core.player(st, cx, p));
                            }
                        }
                        _ => {
                            if let Some(own) = Own::of_expr(a, self.tests.pieces) {
                                return own.compared(op, k, |_, _, cx| cx.me);
                            }
                        }
                    }
                    // `in-hand(white) + in-hand(black) == 0`: a sum of numbers of named
                    // players' own, read in one closure.
                    if let Some(terms) = self.owns_of_named(a)
                        && terms.len() > 1
                    {
                        // Against zero, a sum of pieces in hand (never negative) is told
                        // by whether any count is not zero: the rows or-ed, no sum.
                        if k == 0 && terms.iter().all(|(_, o)| matches!(o, Own::InHand(_))) {
                            let players: Vec<u8> = terms.iter().map(|&(p, _)| p).collect();
                            let n = self.tests.pieces;
                            return compared(op, 0, move |_, st, _| {
                                players.iter().any(|&p| Own::holds_any(st, p, n)) as i64
                            });
                        }
                        return compared(op, k, move |_, st, _| {
                            terms.iter().map(|&(p, own)| own.of(st, p)).sum()
                        });
                    }
                    if let IntExpr::Lines {
                        test,
                        through,
                        n,
                        exact,
                    } = a
                    {
                        let l = self.line_count(test, through, *n, *exact);
                        return compared(op, k, move |core, st, cx| l.count(core, st, cx));
                    }
                    let a = self.int(a);
                    return compared(op, k, move |core, st, cx| a(core, st, cx));
                }
                let (a, b) = (self.int(a), self.int(b));
                Box::new(move |core, st, cx| {
                    let x = a(core, st, cx);
                    op.holds(x, b(core, st, cx))
                })
            }
            Cond::PlayerEq(a, b) => {
                let (a, b) = (*a, *b);
                // `mover == white`: one side named, read without a second lookup.
                match (a, b) {
                    (PlayerRef::Me, PlayerRef::Named(i)) | (PlayerRef::Named(i), PlayerRef::Me) => {
                        Box::new(move |_, _, cx| cx.me == i)
                    }
                    (p, PlayerRef::Named(i)) | (PlayerRef::Named(i), p) => {
                        Box::new(move |core, st, cx| core.player(st, cx, p) == i)
                    }
                    _ => Box::new(move |core, st, cx| {
                        core.player(st, cx, a) == core.player(st, cx, b)
                    }),
                }
            }
            Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body } => {
                let all = matches!(c, Cond::Forall { .. });
                if !all && let Some(f) = self.first_in_some_direction(*slot, dirs, body) {
                    return f;
                }
                if let Some(f) = self.neighbour_in_directions(*slot, dirs, body, all) {
                    return f;
                }
                let (slot, dirs, body) = (*slot as usize, dirs.clone(), self.cond(body));
                Box::new(move |core, st, cx| {
                    for &d in &dirs {
                        cx.slots[slot] = core.dir(cx, d) as u16;
                        if body(core, st, cx) != all {
                            return !all;
                        }
                    }
                    all
                })
            }
            Cond::NoMoves => Box::new(|core, st, cx| {
                if cx.moves_known && cx.me == st.s.to_move {
                    cx.no_moves
                } else {
                    core.count_moves(st, cx.me) == 0
                }
            }),
            Cond::Connects { test, a, b } => {
                let (t, a, b) = (self.test(test), *a as usize, *b as usize);
                if let CTest::Table(t) = t {
                    return Box::new(move |core, st, cx| {
                        core.connects(t.set(st, cx.me), a, b, cx.me as usize)
                    });
                }
                Box::new(move |core, st, cx| {
                    let within = core.cells_where(st, cx, &t);
                    core.connects(within, a, b, cx.me as usize)
                })
            }
            Cond::As(p, body) => {
                let p = *p;
                // A connection game's end rule (`as previous: friend connects A to B`)
                // with a table test reads nothing else of the context.
                if let Cond::Connects { test, a, b } = &**body
                    && let CTest::Table(t) = self.test(test)
                {
                    let (a, b) = (*a as usize, *b as usize);
                    return Box::new(move |core, st, cx| {
                        let me = core.player(st, cx, p);
                        core.connects(t.set(st, me), a, b, me as usize)
                    });
                }
                // A line game's end rule (`as previous: count lines of 3 where friend
                // through last-to > 0`): a line count reads only the point of view from
                // the context, so it is switched in place rather than the context copied.
                if let Cond::Cmp(
                    IntExpr::Lines {
                        test,
                        through,
                        n,
                        exact,
                    },
                    op,
                    IntExpr::Const(k),
                ) = &**body
                    && matches!(**through, CellExpr::LastTo)
                {
                    let (l, op, k) = (self.line_count(test, through, *n, *exact), *op, *k);
                    if l.reads_only_me() {
                        // `previous` read as it is, with no match on the player at every
                        // move (3% of tic-tac-toe's instructions).
                        return match p {
                            PlayerRef::Previous => lines_as(l, op, k, |_, st, _| st.s.previous),
                            p => lines_as(l, op, k, move |core, st, cx| core.player(st, cx, p)),
                        };
                    }
                }
                let body = self.cond(body);
                Box::new(move |core, st, cx| {
                    let who = core.player(st, cx, p);
                    cx.viewed_by(who, |cx| body(core, st, cx))
                })
            }
            Cond::Let { slot, value, body } => {
                let (slot, value, body) = (*slot as usize, self.cell(value), self.cond(body));
                Box::new(move |core, st, cx| {
                    cx.slots[slot] = value(core, st, cx);
                    body(core, st, cx)
                })
            }
        }
    }

    /// `any d in DIRS: first F from X toward d is T` (lines of sight), when F and T are
    /// sets, X does not depend on `d` and the directions are fixed: a direction is only
    /// walked when its ray holds a cell of both sets, since the first cell of F must be
    /// one of T.
    fn first_in_some_direction(&self, slot: u8, dirs: &[DirRef], body: &Cond) -> Option<CondFn<W>> {
        let Cond::Is(
            CellExpr::First {
                test,
                start,
                dir: DirRef::Var(s),
            },
            t,
        ) = body
        else {
            return None;
        };
        let b = Base::of(start)?;
        if *s != slot || **start == CellExpr::Slot(slot) || !dirs.iter().all(DirRef::is_fixed) {
            return None;
        }
        let (f, t) = (self.test(test), self.test(t));
        if !f.is_set() || !t.is_set() {
            return None;
        }
        if let Some(sight) = self.sight(dirs) {
            // Only the cells of both sets in sight of X are looked at, each along its
            // own direction: a king seen by one of two warriors costs two scans, not
            // one test per direction.
            return Some(Box::new(move |core, st, cx| {
                let c = b.get(cx, st);
                if c == NONE {
                    return false;
                }
                let f = f.set(core, st, cx).expect("a set test");
                let both = f.and(t.set(core, st, cx).expect("a set test"));
                let (star, toward) = sight.of(cx.me, c);
                star.and(both)
                    .iter()
                    .any(|x| core.first_in(c, toward[x as usize], f) == x)
            }));
        }
        let dirs = dirs.to_vec();
        Some(Box::new(move |core, st, cx| {
            let c = b.get(cx, st);
            if c == NONE {
                return false;
            }
            let f = f.set(core, st, cx).expect("a set test");
            let both = f.and(t.set(core, st, cx).expect("a set test"));
            dirs.iter().any(|&d| {
                let d = core.dir(cx, d);
                core.geo.ray_mask[c as usize][d as usize & 7].intersects(&both) && {
                    let x = core.first_in(c, d, f);
                    x != NONE && both.has(x)
                }
            })
        }))
    }

    /// The sight tables along `dirs`, built once per list of directions, and only while
    /// all of a game's tables take at most `Sight::MAX_BYTES` (a file with many lists
    /// keeps its memory bounded; the others are tested direction by direction).
    fn sight(&self, dirs: &[DirRef]) -> Option<Arc<Sight<W>>> {
        let mut sights = self.sights.borrow_mut();
        if let Some((_, s)) = sights.iter().find(|(d, _)| d == dirs) {
            return Some(s.clone());
        }
        let used: usize = sights.iter().map(|(_, s)| s.bytes()).sum();
        let sight = Arc::new(Sight::new(self.geo, dirs, Sight::<W>::MAX_BYTES - used)?);
        sights.push((dirs.to_vec(), sight.clone()));
        Some(sight)
    }

    /// The part `X + d is T` of a condition (itself, or one of its `and`), `d` the
    /// direction in variable `slot`, X accepted by `base` and T given as a set: where X's
    /// neighbour that way fails T, the condition fails.
    pub fn neighbour_part<'c>(
        &self,
        slot: u8,
        c: &'c Cond,
        base: impl Fn(&CellExpr) -> bool,
    ) -> Option<(&'c CellExpr, CTest<W>)> {
        let parts = match c {
            Cond::And(v) => v.as_slice(),
            c => std::slice::from_ref(c),
        };
        parts.iter().find_map(|c| match c {
            Cond::Is(CellExpr::Step(x, DirRef::Var(s), 1), t) if *s == slot && base(x) => {
                Some((&**x, self.test(t))).filter(|(_, t)| t.is_set())
            }
            _ => None,
        })
    }

    /// `any d in DIRS: X + d is T and …` (or `all d`), X not depending on `d` and T
    /// given as a set: the body can hold only in the directions whose neighbour of X is
    /// in T's set, taken once. `any` skips the others with a bit test; `all` fails at
    /// the first.
    fn neighbour_in_directions(
        &self,
        slot: u8,
        dirs: &[DirRef],
        body: &Cond,
        all: bool,
    ) -> Option<CondFn<W>> {
        let independent = |x: &CellExpr| match x {
            CellExpr::From | CellExpr::To | CellExpr::LastFrom | CellExpr::LastTo => true,
            CellExpr::Const(_) => true,
            CellExpr::Slot(s) => *s != slot,
            _ => false,
        };
        let (x, t) = self.neighbour_part(slot, body, independent)?;
        let x = Base::of(x).expect("a cell not depending on the direction is read directly");
        let adjacent = self.among_adjacent(dirs);
        let (dirs, body, slot) = (dirs.to_vec(), self.cond(body), slot as usize);
        Some(Box::new(move |core, st, cx| {
            let c = x.get(cx, st);
            if c == NONE {
                // No neighbour at all: every body fails.
                return all && dirs.is_empty();
            }
            let near = t.set(core, st, cx).expect("a set test");
            // No adjacent cell in the set: every direction fails.
            if adjacent && !dirs.is_empty() && !near.intersects(&core.geo.adjacent[c as usize]) {
                return false;
            }
            let saved = cx.slots[slot];
            let mut held = all;
            for &d in &dirs {
                let d = core.dir(cx, d);
                let n = core.step(c, d);
                if n == NONE || !near.has(n) {
                    if all {
                        held = false;
                        break;
                    }
                    continue;
                }
                cx.slots[slot] = d as u16;
                if body(core, st, cx) != all {
                    held = !all;
                    break;
                }
            }
            cx.slots[slot] = saved;
            held
        }))
    }

    pub fn int(&self, e: &IntExpr) -> IntFn<W> {
        match e {
            &IntExpr::Const(v) => Box::new(move |_, _, _| v),
            &IntExpr::Counter(i) => {
                Box::new(move |_, st, cx| st.counters[cx.me as usize][i as usize] as i64)
            }
            IntExpr::MovesMade => Box::new(|_, st, cx| st.s.moves_made[cx.me as usize] as i64),
            IntExpr::Passes => Box::new(|_, st, _| st.s.passes as i64),
            IntExpr::Turns => Box::new(|_, st, _| st.s.turns as i64),
            IntExpr::Ply => Box::new(|_, st, _| st.s.ply as i64),
            IntExpr::Repetitions => Box::new(|_, _, cx| cx.repetitions as i64),
            IntExpr::InHand => {
                // Only the game's own types: the rest of the row is always zero.
                let n = self.tests.pieces;
                Box::new(move |_, st, cx| {
                    st.hand[cx.me as usize][..n].iter().map(|&n| n as i64).sum()
                })
            }
            IntExpr::CountCells(t) => {
                let t = self.test(t);
                if t.is_set() {
                    Box::new(move |core, st, cx| {
                        t.set(core, st, cx).expect("a set test").count() as i64
                    })
                } else {
                    Box::new(move |core, st, cx| {
                        (0..core.geo.cells)
                            .filter(|&c| t.holds(core, st, cx, c))
                            .count() as i64
                    })
                }
            }
            IntExpr::Run { test, start, dir } => {
                let (t, start, d) = (self.test(test), self.cell(start), *dir);
                Box::new(move |core, st, cx| {
                    let c = start(core, st, cx);
                    if c == NONE {
                        return 0;
                    }
                    let ray = core.geo.board.ray(c, core.dir(cx, d));
                    ray.iter()
                        .take_while(|&&x| t.holds(core, st, cx, x))
                        .count() as i64
                })
            }
            IntExpr::CountAttacks(t) => {
                let t = self.test(t);
                Box::new(move |core, st, cx| core.count_attacks(st, cx, &t))
            }
            IntExpr::Score => Box::new(|core, st, cx| core.score(st, cx)),
            IntExpr::MoveCount => Box::new(|core, st, cx| core.count_moves(st, cx.me) as i64),
            IntExpr::Group { test, start } => {
                let (t, start) = (self.test(test), self.cell(start));
                Box::new(move |core, st, cx| {
                    let c = start(core, st, cx);
                    if c == NONE {
                        return 0;
                    }
                    let within = core.cells_where(st, cx, &t);
                    core.fill(Bits::from_cells([c]).and(within), within).count() as i64
                })
            }
            IntExpr::Groups(test) => {
                let t = self.test(test);
                Box::new(move |core, st, cx| {
                    let mut left = core.cells_where(st, cx, &t);
                    let mut groups = 0;
                    while let Some(c) = left.lowest() {
                        left = left.minus(core.fill(Bits::from_cells([c]), left));
                        groups += 1;
                    }
                    groups
                })
            }
            IntExpr::Lines {
                test,
                through,
                n,
                exact,
            } => {
                let l = self.line_count(test, through, *n, *exact);
                Box::new(move |core, st, cx| l.count(core, st, cx))
            }
            IntExpr::Add(a, b) | IntExpr::Sub(a, b) | IntExpr::Mul(a, b) => {
                let (x, y) = (self.int(a), self.int(b));
                match e {
                    IntExpr::Add(..) => Box::new(move |core, st, cx| {
                        x(core, st, cx).saturating_add(y(core, st, cx))
                    }),
                    IntExpr::Sub(..) => Box::new(move |core, st, cx| {
                        x(core, st, cx).saturating_sub(y(core, st, cx))
                    }),
                    _ => Box::new(move |core, st, cx| {
                        x(core, st, cx).saturating_mul(y(core, st, cx))
                    }),
                }
            }
            IntExpr::Of(p, inner) => {
                // A number of the player's own (end rules such as `in-hand(white) +
                // in-hand(black) == 0`): read for that player, with no context copied.
                if let Some(own) = Own::of_expr(inner, self.tests.pieces) {
                    return match *p {
                        PlayerRef::Named(i) => Box::new(move |_, st, _| own.of(st, i)),
                        p => Box::new(move |core, st, cx| own.of(st, core.player(st, cx, p))),
                    };
                }
                let (p, inner) = (*p, self.int(inner));
                Box::new(move |core, st, cx| {
                    let who = core.player(st, cx, p);
                    cx.viewed_by(who, |cx| inner(core, st, cx))
                })
            }
        }
    }
}

impl<const W: usize> ExprCompiler<'_, W> {
    /// A sum of numbers of named players' own (`in-hand(white) + in-hand(black)`), as
    /// its terms.
    fn owns_of_named(&self, e: &IntExpr) -> Option<Vec<(u8, Own)>> {
        match e {
            IntExpr::Of(PlayerRef::Named(p), inner) => {
                Some(vec![(*p, Own::of_expr(inner, self.tests.pieces)?)])
            }
            IntExpr::Add(a, b) => {
                let mut terms = self.owns_of_named(a)?;
                terms.extend(self.owns_of_named(b)?);
                Some(terms)
            }
            _ => None,
        }
    }
}

/// What a closure kept in a compiled expression must be: shared by the threads that
/// play, and whole after a panic another thread caught.
trait Shared: Send + Sync + std::panic::RefUnwindSafe + 'static {}
impl<T: Send + Sync + std::panic::RefUnwindSafe + 'static> Shared for T {}

/// `read OP k` in one closure, the comparison chosen when it is built: a jump on the
/// operator at every evaluation was a twentieth of a placement game's time, its guards
/// asked at every draw.
fn compared<const W: usize>(
    op: CmpOp,
    k: i64,
    read: impl Fn(&Core<W>, &State<W>, &mut Ctx) -> i64 + Shared,
) -> CondFn<W> {
    match op {
        CmpOp::Eq => Box::new(move |core, st, cx| read(core, st, cx) == k),
        CmpOp::Ne => Box::new(move |core, st, cx| read(core, st, cx) != k),
        CmpOp::Lt => Box::new(move |core, st, cx| read(core, st, cx) < k),
        CmpOp::Le => Box::new(move |core, st, cx| read(core, st, cx) <= k),
        CmpOp::Gt => Box::new(move |core, st, cx| read(core, st, cx) > k),
        CmpOp::Ge => Box::new(move |core, st, cx| read(core, st, cx) >= k),
    }
}

/// A number each player has of their own.
#[derive(Clone, Copy)]
enum Own {
    /// The pieces in hand, of the game's first this many types (the rest are zero).
    InHand(usize),
    MovesMade,
    Counter(u8),
}

impl Own {
    fn of_expr(e: &IntExpr, pieces: usize) -> Option<Own> {
        match *e {
            IntExpr::InHand => Some(Own::InHand(pieces)),
            IntExpr::MovesMade => Some(Own::MovesMade),
            IntExpr::Counter(i) => Some(Own::Counter(i)),
            _ => None,
        }
    }

    /// `OWN(who) OP k` in one closure, with the kind of number and the comparison chosen
    /// when it is built.
    fn compared<const W: usize>(
        self,
        op: CmpOp,
        k: i64,
        who: impl Fn(&Core<W>, &State<W>, &Ctx) -> u8 + Shared,
    ) -> CondFn<W> {
        match self {
            Own::MovesMade => compared(op, k, move |core, st, cx| {
                st.s.moves_made[who(core, st, cx) as usize] as i64
            }),
            Own::Counter(i) => compared(op, k, move |core, st, cx| {
                st.counters[who(core, st, cx) as usize][i as usize] as i64
            }),
            own => compared(op, k, move |core, st, cx| own.of(st, who(core, st, cx))),
        }
    }

    /// Whether player `p` has any piece in hand, of the game's first `n` types (the rest
    /// are never in hand).
    #[inline(always)]
    fn holds_any<const W: usize>(st: &State<W>, p: u8, n: usize) -> bool {
        let row = &st.hand[p as usize];
        // Up to eight types, one read of eight counts.
        if n <= 8 {
            let h: &[u16; 8] = row[..8].try_into().expect("eight counts");
            return h.iter().fold(0, |a, &x| a | x) != 0;
        }
        row[..n].iter().any(|&x| x != 0)
    }

    #[inline(always)]
    fn of<const W: usize>(self, st: &State<W>, p: u8) -> i64 {
        let p = p as usize;
        match self {
            // Up to eight types, eight counts summed at once (the types past the game's
            // are never in hand), with no loop.
            Own::InHand(n) if n <= 8 => {
                let h: &[u16; 8] = st.hand[p][..8].try_into().expect("eight counts");
                h.iter().map(|&x| x as u32).sum::<u32>() as i64
            }
            Own::InHand(n) => st.hand[p][..n].iter().map(|&n| n as i64).sum(),
            Own::MovesMade => st.s.moves_made[p] as i64,
            Own::Counter(i) => st.counters[p][i as usize] as i64,
        }
    }
}

/// What can be seen from each cell along some fixed directions: the union of their rays,
/// and for each cell on one of them, which direction it lies in. Kept per player when a
/// direction is relative (`forward`), once otherwise.
pub struct Sight<const W: usize> {
    cells: usize,
    /// Per player (or one), per cell.
    star: Vec<Bits<W>>,
    /// Per player (or one), per cell, per cell: the direction from the first to the
    /// second, when the second is on one of the rays.
    toward: Vec<u8>,
    per_player: bool,
}

impl<const W: usize> Sight<W> {
    /// The most bytes the tables of one game may take.
    const MAX_BYTES: usize = 4 << 20;

    /// `None` when the tables would take more than `budget` bytes, or two of the
    /// directions' rays from a cell share a cell (then a cell's direction is not one).
    fn new(geo: &super::core::Geo<W>, dirs: &[DirRef], budget: usize) -> Option<Sight<W>> {
        let cells = geo.cells as usize;
        let per_player = !dirs.iter().all(|d| matches!(d, DirRef::Abs(_)));
        let tables = if per_player { MAX_PLAYERS } else { 1 };
        if Self::bytes_for(tables, cells) > budget {
            return None;
        }
        let mut star = vec![Bits::EMPTY; tables * cells];
        let mut toward = vec![u8::MAX; tables * cells * cells];
        for p in 0..tables {
            let mut abs: Vec<u8> = dirs
                .iter()
                .map(|&d| match d {
                    DirRef::Abs(a) => a,
                    DirRef::Rel(r) => geo.rel[p][r as usize & 7],
                    _ => unreachable!("fixed directions"),
                })
                .collect();
            abs.sort_unstable();
            abs.dedup();
            for c in 0..cells {
                let at = p * cells + c;
                for &d in &abs {
                    let ray = geo.ray_mask[c][d as usize & 7];
                    if ray.intersects(&star[at]) {
                        return None;
                    }
                    star[at] = star[at].or(ray);
                    for x in ray.iter() {
                        toward[at * cells + x as usize] = d;
                    }
                }
            }
        }
        Some(Sight {
            cells,
            star,
            toward,
            per_player,
        })
    }

    fn bytes_for(tables: usize, cells: usize) -> usize {
        tables * cells * (cells + std::mem::size_of::<Bits<W>>())
    }

    fn bytes(&self) -> usize {
        Self::bytes_for(self.star.len() / self.cells.max(1), self.cells)
    }

    /// The cells in sight of `c`, and the direction of each (indexed by cell).
    #[inline(always)]
    fn of(&self, me: u8, c: Cell) -> (Bits<W>, &[u8]) {
        let at = if self.per_player { me as usize } else { 0 } * self.cells + c as usize;
        (
            self.star[at],
            &self.toward[at * self.cells..(at + 1) * self.cells],
        )
    }
}

/// A cell a closure reads straight from the context or the position.
#[derive(Clone, Copy)]
enum Base {
    To,
    From,
    Slot(u8),
    LastTo,
    LastFrom,
    Const(Cell),
}

impl Base {
    /// The base for a cell expression read straight from the context or the position,
    /// if it is one.
    fn of(e: &CellExpr) -> Option<Base> {
        match *e {
            CellExpr::To => Some(Base::To),
            CellExpr::From => Some(Base::From),
            CellExpr::Slot(s) => Some(Base::Slot(s)),
            CellExpr::LastTo => Some(Base::LastTo),
            CellExpr::LastFrom => Some(Base::LastFrom),
            CellExpr::Const(c) => Some(Base::Const(c)),
            _ => None,
        }
    }

    #[inline(always)]
    fn get<const W: usize>(self, cx: &Ctx, st: &State<W>) -> Cell {
        match self {
            Base::To => cx.to,
            Base::From => cx.from,
            Base::Slot(s) => cx.slots[s as usize],
            Base::LastTo => st.s.last_to,
            Base::LastFrom => st.s.last_from,
            Base::Const(c) => c,
        }
    }
}

/// `first T from X toward d`, with X given by `start`: the nearest cell of T's set
/// along the ray when T has one (a flag's, read directly), else the ray walked.
fn first_from<const W: usize>(
    start: impl Fn(&Core<W>, &State<W>, &mut Ctx) -> Cell + Shared,
    t: CTest<W>,
    d: DirRef,
) -> CellFn<W> {
    if let CTest::Flag(f) = t {
        // `first tile from c toward d`: the nearest cell of the flag's set.
        return Box::new(move |core, st, cx| {
            let c = start(core, st, cx);
            if c == NONE {
                return NONE;
            }
            core.first_in(c, core.dir(cx, d), st.flags[f as usize])
        });
    }
    if t.is_set() {
        return Box::new(move |core, st, cx| {
            let c = start(core, st, cx);
            if c == NONE {
                return NONE;
            }
            let set = t.set(core, st, cx).expect("a set test");
            core.first_in(c, core.dir(cx, d), set)
        });
    }
    Box::new(move |core, st, cx| {
        let c = start(core, st, cx);
        if c == NONE {
            return NONE;
        }
        let ray = core.geo.board.ray(c, core.dir(cx, d));
        ray.iter()
            .copied()
            .find(|&x| t.holds(core, st, cx, x))
            .unwrap_or(NONE)
    })
}

/// `as PLAYER: count lines … OP K`, with the player given by `who`: the line count reads
/// only the point of view, switched in place rather than the context copied.
fn lines_as<const W: usize>(
    l: LineCount<W>,
    op: CmpOp,
    k: i64,
    who: impl Fn(&Core<W>, &State<W>, &Ctx) -> u8 + Shared,
) -> CondFn<W> {
    compared(op, k, move |core, st, cx| {
        let who = who(core, st, cx);
        cx.viewed_by(who, |cx| l.count(core, st, cx))
    })
}

impl<const W: usize> Core<W> {
    /// The cells where a test holds.
    pub fn cells_where(&self, st: &State<W>, cx: &Ctx, t: &CTest<W>) -> Bits<W> {
        t.set(self, st, cx).unwrap_or_else(|| {
            Bits::from_cells((0..self.geo.cells).filter(|&c| t.holds(self, st, cx, c)))
        })
    }

    /// How many legal moves `player` would have if it were to move.
    pub fn count_moves(&self, st: &State<W>, player: u8) -> u32 {
        let mut view = st.clone();
        view.s.to_move = player;
        self.count_legal(&mut view, &mut Vec::new())
    }

    /// The absolute direction a written direction means here.
    #[inline(always)]
    pub fn dir(&self, cx: &Ctx, d: DirRef) -> u8 {
        match d {
            DirRef::Abs(a) => a,
            DirRef::Rel(r) => self.geo.rel[cx.me as usize][r as usize & 7],
            DirRef::Var(s) => cx.slots[s as usize] as u8,
            DirRef::Opp(s) => self.geo.opposite[cx.slots[s as usize] as usize & 7],
        }
    }

    /// The neighbour of `c` in direction `d` (`NONE` off the board).
    #[inline(always)]
    pub fn step(&self, c: Cell, d: u8) -> Cell {
        self.geo.nb[c as usize][d as usize & 7]
    }

    /// The cells whose neighbour in direction `d` is in `set`.
    pub fn before_step(&self, set: Bits<W>, d: u8) -> Bits<W> {
        let d = d as usize & 7;
        if let Some((delta, has)) = self.geo.translation[d] {
            return set.shift(-delta).and(has);
        }
        let mut out = Bits::EMPTY;
        if self.geo.back_exact[d] {
            for c in set.iter() {
                let b = self.geo.back[c as usize][d];
                if b != NONE {
                    out.insert(b);
                }
            }
        } else {
            for c in 0..self.geo.cells {
                let n = self.geo.nb[c as usize][d];
                if n != NONE && set.has(n) {
                    out.insert(c);
                }
            }
        }
        out
    }

    /// The cell `n` steps away, or `NONE`.
    #[inline]
    pub fn step_n(&self, c: Cell, d: u8, n: usize) -> Cell {
        if c == NONE || n == 0 {
            return c;
        }
        self.geo.board.ray(c, d).get(n - 1).copied().unwrap_or(NONE)
    }

    /// The cells beyond `c` in direction `d` (`d & 7`), up to and including the first of
    /// `stops` (to the edge when none is): masked from the ray, with no bit scan and no
    /// second table read.
    #[inline(always)]
    pub fn ray_to_first(&self, c: usize, d: usize, stops: Bits<W>) -> Bits<W> {
        // The way chosen by a select on the stop, not by a branch over two copies of
        // the ray's reads (Amazons 1.007x the instructions through `Bits::to_first`).
        let ray = self.geo.ray_mask[c][d];
        let hits = ray.and(stops);
        let up_to = if self.geo.increasing[d] {
            hits.through_lowest()
        } else {
            hits.down_to_highest()
        };
        ray.and(up_to)
    }

    /// `ray_to_first` in each direction of `dirs` (a bit each), joined.
    #[inline(always)]
    pub fn rays_to_first(&self, c: usize, dirs: u8, stops: Bits<W>) -> Bits<W> {
        let (mut reached, mut left) = (Bits::EMPTY, dirs);
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            reached = reached.or(self.ray_to_first(c, d, stops));
        }
        reached
    }

    /// The nearest cell of `set` beyond `c` in direction `d`, as a set of one cell or
    /// none: the ray's hits masked up to the first, with no bit scan and no branch.
    #[inline(always)]
    pub fn first_cell_of(&self, c: usize, d: usize, set: Bits<W>) -> Bits<W> {
        let hits = self.geo.ray_mask[c][d].and(set);
        hits.and(if self.geo.increasing[d] {
            hits.through_lowest()
        } else {
            hits.down_to_highest()
        })
    }

    /// The nearest cell of `set` beyond `c` in direction `d`, or `NONE`.
    #[inline(always)]
    pub fn first_in(&self, c: Cell, d: u8, set: Bits<W>) -> Cell {
        let hits = self.geo.ray_mask[c as usize][d as usize & 7].and(set);
        let found = if self.geo.increasing[d as usize & 7] {
            hits.lowest()
        } else {
            hits.highest()
        };
        found.unwrap_or(NONE)
    }

    /// The player after `p` in turn order (a compare, not a division: every move asks).
    #[inline(always)]
    pub fn after(&self, p: u8) -> u8 {
        if p + 1 == self.players { 0 } else { p + 1 }
    }

    pub fn player(&self, st: &State<W>, cx: &Ctx, p: PlayerRef) -> u8 {
        match p {
            PlayerRef::Me => cx.me,
            PlayerRef::Opponent => self.after(cx.me),
            PlayerRef::Previous => st.s.previous,
            PlayerRef::Named(i) => i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::search::Rng;
    use super::*;

    /// A king that may not stand in sight of an enemy rook, along directions relative to
    /// each player or fixed, on a board with holes in the sight lines.
    fn game(dirs: &str, body: &str) -> String {
        format!(
            "game \"Sight\" {{ }}\n\
             players {{ white forward north  black forward south }}\n\
             board 7 x 7\n\
             flag tile = all - c3 e5 d4\n\
             piece King letter K\npiece Rook letter R\n\
             setup {{\n white King d1\n white Rook a1 g1 b2\n black King d7\n black Rook a7 g7 f6\n}}\n\
             moves King {{ step all to not friend }}\n\
             moves Rook {{ slide all to not friend }}\n\
             legal if not any d in {dirs}: {body}\n\
             end {{ when no moves: next loses }}\n"
        )
    }

    /// The sight tables of a game share one budget: on a 25 x 25 board, the tables of
    /// fixed directions and of one list of relative ones (six players' tables) fit, a
    /// second list of relative ones does not, and its condition is tested direction by
    /// direction.
    #[test]
    fn sight_tables_stay_within_their_budget() {
        let text = "game \"Big\" { }\n\
            players { white forward north  black forward south }\n\
            board 25 x 25\npiece Man letter M\n\
            setup {\n white Man a1\n black Man y25\n}\n\
            moves Man { step all to empty }\n\
            end { when no moves: next loses }\n";
        let program = crate::compile(text).expect("compiles").0;
        let geo = super::super::core::Geo::<11>::new(&program.game);
        let mut left = Sight::<11>::MAX_BYTES;
        let lists = [
            vec![DirRef::Abs(0), DirRef::Abs(2)],
            vec![DirRef::Rel(0), DirRef::Rel(1)],
        ];
        for dirs in &lists {
            let s = Sight::new(&geo, dirs, left).expect("within the budget");
            left -= s.bytes();
        }
        assert!(Sight::new(&geo, &[DirRef::Rel(2)], left).is_none());
        assert!(Sight::new(&geo, &[DirRef::Abs(1)], left).is_some());
    }

    /// `any d in DIRS: first F from X toward d is T` looks only at the cells of T in
    /// sight of X (`Sight`); written with a double `not`, the same condition runs one
    /// test per direction. Both must allow the same moves in every position of random
    /// games.
    #[test]
    fn sight_tables_judge_as_directions_one_by_one() {
        // As the engine builds its core: with `find` hoisted out of the quantifier.
        let core = Core::<1>::of_text;
        let first = "first tile from find friend King toward d";
        for dirs in [
            "forward, forward-left, forward-right, left, right",
            "all",
            "north, east",
        ] {
            let (mut positions, mut ruled_out) = (0, 0);
            let sight = core(&game(dirs, &format!("{first} is enemy Rook")));
            let walked = core(&game(dirs, &format!("not not {first} is enemy Rook")));
            let text = game(dirs, "");
            let free = text.lines().filter(|l| !l.starts_with("legal if"));
            let free = free.collect::<Vec<_>>().join("\n");
            let free = core(&free);
            for g in 0..40 {
                let mut rng = Rng::for_playout(5, g);
                let mut st = sight.start();
                for _ in 0..80 {
                    let (mut a, mut b, mut all) = (Vec::new(), Vec::new(), Vec::new());
                    sight.legal_moves(&mut st, &mut a);
                    walked.legal_moves(&mut st, &mut b);
                    free.legal_moves(&mut st, &mut all);
                    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{dirs}, game {g}");
                    ruled_out += all.len() - a.len();
                    positions += 1;
                    if a.is_empty() {
                        break;
                    }
                    sight.make(&mut st, &a[rng.below(a.len())]);
                    st.commit();
                }
            }
            assert!(
                positions > 500 && ruled_out > 100,
                "{dirs}: {positions} positions, {ruled_out} moves ruled out"
            );
        }
    }

    /// `find T is U` asks U of the cell found, and fails when none is: chess's `legal if
    /// not check`, where `check` is `find friend King is attacked`, holds for a king not
    /// attacked, fails for one attacked, and holds again when there is no king.
    #[test]
    fn a_cell_found_is_asked_and_none_found_fails() {
        let core = Core::<1>::example("chess");
        let legal = core.legal.as_ref().expect("legal if");
        let mut st = core.start();
        assert!(legal(&core, &st, &mut Ctx::new(0)));
        // A black queen on e2, next to the white king on e1.
        st.put(&core.codes, None, 12, core.codes.code(1, 1));
        assert!(!legal(&core, &st, &mut Ctx::new(0)));
        st.put(&core.codes, None, 4, 0);
        assert!(legal(&core, &st, &mut Ctx::new(0)));
    }
}
