//! Evaluation: the IR's cell tests, cell expressions, conditions and numbers against a
//! state, from one player's point of view. Pure: nothing here changes the state.

use super::Engine;
use super::state::{Bits, Move, NO_CHOICE, NONE, State, owner_of, piece_of};
use crate::ir::MAX_SLOTS;
use crate::ir::{CellExpr, Cond, DirRef, IntExpr, Owner, PlayerRef, Test};

/// How deep `attacked` may nest (an attack rule that itself asks whether a cell is attacked).
const MAX_ATTACK_DEPTH: u8 = 2;

/// Evaluation context: the point of view and the variables of the rule being run.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub me: u8,
    pub from: u16,
    pub to: u16,
    pub slots: [u16; MAX_SLOTS],
    pub depth: u8,
    /// Filled in before end rules are evaluated.
    pub no_moves: bool,
    pub repetitions: u32,
    pub again: bool,
    /// The piece type chosen by the enclosing `for p in PIECES`, if any.
    pub choice: u8,
}

impl Ctx {
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
        }
    }
}

impl Engine {
    /// The absolute direction a written direction means here.
    #[inline]
    pub(super) fn dir(&self, cx: &Ctx, d: DirRef) -> u8 {
        match d {
            DirRef::Abs(a) => a,
            DirRef::Rel(r) => self.board.rotate(self.forward[cx.me as usize], r),
            DirRef::Var(s) => cx.slots[s as usize] as u8,
            DirRef::Opp(s) => self.board.opposite(cx.slots[s as usize] as u8),
        }
    }

    pub(super) fn player(&self, st: &State, cx: &Ctx, p: PlayerRef) -> u8 {
        match p {
            PlayerRef::Me => cx.me,
            PlayerRef::Opponent => 1 - cx.me,
            PlayerRef::Previous => st.previous,
            PlayerRef::Named(i) => i,
        }
    }

    /// Tests cell `c` (which exists). Precomputed tests, the common case, are inlined.
    #[inline(always)]
    pub(super) fn test(&self, st: &State, cx: &Ctx, c: u16, t: &Test) -> bool {
        match t {
            Test::Table(i) => {
                self.tables[*i as usize][(cx.me & 1) as usize][st.board[c as usize] as usize].has(c)
            }
            Test::Flag(f) => st.flags[(*f & 3) as usize].has(c),
            _ => self.test_slow(st, cx, c, t),
        }
    }

    fn test_slow(&self, st: &State, cx: &Ctx, c: u16, t: &Test) -> bool {
        match t {
            Test::Any => true,
            Test::Empty => st.board[c as usize] == 0,
            Test::Occupied => st.board[c as usize] != 0,
            Test::Piece { owner, pieces } => {
                let k = st.board[c as usize];
                k != 0
                    && pieces >> piece_of(k) & 1 != 0
                    && match owner {
                        Owner::Any => true,
                        Owner::Friend => owner_of(k) == cx.me,
                        Owner::Enemy => owner_of(k) != cx.me,
                        Owner::Player(p) => owner_of(k) == *p,
                    }
            }
            Test::Flag(f) => st.flags[*f as usize].has(c),
            Test::Region(r) => self.regions[*r as usize][cx.me as usize].has(c),
            Test::Attacked => self.attacked(st, cx, c),
            Test::Table(t) => {
                self.tables[*t as usize][cx.me as usize][st.board[c as usize] as usize].has(c)
            }
            Test::Not(t) => !self.test(st, cx, c, t),
            Test::And(v) => v.iter().all(|t| self.test(st, cx, c, t)),
            Test::Or(v) => v.iter().any(|t| self.test(st, cx, c, t)),
        }
    }

    /// Whether some enemy piece has an attack (or, lacking attack rules, a move) ending on `c`.
    fn attacked(&self, st: &State, cx: &Ctx, c: u16) -> bool {
        if cx.depth >= MAX_ATTACK_DEPTH {
            return false;
        }
        let enemy = 1 - cx.me;
        let mut ecx = Ctx::new(enemy);
        ecx.depth = cx.depth + 1;
        for from in st.by_owner[enemy as usize].iter() {
            let p = piece_of(st.board[from as usize]);
            if !self.reach[p as usize][from as usize].has(c) {
                continue;
            }
            ecx.from = from;
            if self.generate(
                st,
                &mut ecx,
                p,
                &self.attack_rules[p as usize],
                &mut |m: &Move| m.to == c,
            ) {
                return true;
            }
        }
        false
    }

    pub(super) fn cell(&self, st: &State, cx: &Ctx, e: &CellExpr) -> u16 {
        match e {
            CellExpr::From => cx.from,
            CellExpr::To => cx.to,
            CellExpr::LastFrom => st.last_from,
            CellExpr::LastTo => st.last_to,
            CellExpr::Const(c) => *c,
            CellExpr::Slot(s) => cx.slots[*s as usize],
            CellExpr::Step(base, d, n) => {
                let mut c = match **base {
                    CellExpr::To => cx.to,
                    CellExpr::From => cx.from,
                    CellExpr::Slot(s) => cx.slots[s as usize],
                    _ => self.cell(st, cx, base),
                };
                let d = self.dir(cx, *d);
                for _ in 0..*n {
                    if c == NONE {
                        break;
                    }
                    c = self.board.step(c, d);
                }
                c
            }
            CellExpr::First { test, start, dir } => {
                let c = match **start {
                    CellExpr::From => cx.from,
                    CellExpr::Slot(s) => cx.slots[s as usize],
                    _ => self.cell(st, cx, start),
                };
                if c == NONE {
                    return NONE;
                }
                let ray = self.board.ray(c, self.dir(cx, *dir));
                ray.iter()
                    .copied()
                    .find(|&c| self.test(st, cx, c, test))
                    .unwrap_or(NONE)
            }
            CellExpr::Find(t) => {
                // A precomputed test that never holds on an empty cell: look at pieces only.
                if let Test::Table(i) = **t {
                    let table = &self.tables[i as usize][(cx.me & 1) as usize];
                    if table[0] == Bits::default() {
                        let mut occupied = st.by_owner[0];
                        for (w, o) in occupied.0.iter_mut().zip(st.by_owner[1].0) {
                            *w |= o;
                        }
                        return occupied
                            .iter()
                            .find(|&c| table[st.board[c as usize] as usize].has(c))
                            .unwrap_or(NONE);
                    }
                }
                (0..self.cells)
                    .find(|&c| self.test(st, cx, c, t))
                    .unwrap_or(NONE)
            }
        }
    }

    pub(super) fn cond(&self, st: &State, cx: &mut Ctx, c: &Cond) -> bool {
        match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Is(e, t) => {
                let c = self.cell(st, cx, e);
                c != NONE && self.test(st, cx, c, t)
            }
            Cond::CellEq(a, b) => {
                let (a, b) = (self.cell(st, cx, a), self.cell(st, cx, b));
                a != NONE && a == b
            }
            Cond::Not(c) => !self.cond(st, cx, c),
            Cond::And(v) => v.iter().all(|c| self.cond(st, cx, c)),
            Cond::Or(v) => v.iter().any(|c| self.cond(st, cx, c)),
            Cond::Cmp(a, op, b) => {
                let (a, b) = (self.int(st, cx, a), self.int(st, cx, b));
                op.holds(a, b)
            }
            Cond::PlayerEq(a, b) => self.player(st, cx, *a) == self.player(st, cx, *b),
            Cond::Exists { slot, dirs, body } => dirs.iter().any(|&d| {
                cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                self.cond(st, cx, body)
            }),
            Cond::Forall { slot, dirs, body } => dirs.iter().all(|&d| {
                cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                self.cond(st, cx, body)
            }),
            Cond::NoMoves => cx.no_moves,
            Cond::As(p, c) => {
                let mut inner = *cx;
                inner.me = self.player(st, cx, *p);
                self.cond(st, &mut inner, c)
            }
            Cond::Let { slot, value, body } => {
                cx.slots[*slot as usize] = self.cell(st, cx, value);
                self.cond(st, cx, body)
            }
        }
    }

    pub(super) fn int(&self, st: &State, cx: &mut Ctx, e: &IntExpr) -> i64 {
        let me = cx.me as usize;
        match e {
            IntExpr::Const(v) => *v,
            IntExpr::Counter(c) => st.counters[me][*c as usize] as i64,
            IntExpr::MovesMade => st.moves_made[me] as i64,
            IntExpr::Passes => st.passes as i64,
            IntExpr::Turns => st.turns as i64,
            IntExpr::Ply => st.ply as i64,
            IntExpr::Repetitions => cx.repetitions as i64,
            IntExpr::InHand => st.hand[me].iter().map(|&n| n as i64).sum(),
            IntExpr::CountCells(t) => {
                (0..self.cells).filter(|&c| self.test(st, cx, c, t)).count() as i64
            }
            IntExpr::Run { test, start, dir } => {
                let c = self.cell(st, cx, start);
                if c == NONE {
                    return 0;
                }
                let ray = self.board.ray(c, self.dir(cx, *dir));
                ray.iter()
                    .take_while(|&&x| self.test(st, cx, x, test))
                    .count() as i64
            }
            IntExpr::CountAttacks(t) => {
                let mut n = 0i64;
                let mut acx = Ctx::new(cx.me);
                acx.depth = cx.depth;
                for from in st.by_owner[cx.me as usize].iter() {
                    acx.from = from;
                    let p = piece_of(st.board[from as usize]);
                    let tcx = acx;
                    self.generate(
                        st,
                        &mut acx,
                        p,
                        &self.attack_rules[p as usize],
                        &mut |m: &Move| {
                            n += i64::from(self.test(st, &tcx, m.to, t));
                            false
                        },
                    );
                }
                n
            }
            IntExpr::Score => match &self.program.game.score {
                Some(s) => self.int(st, cx, s),
                None => 0,
            },
            IntExpr::Add(a, b) => self.int(st, cx, a).saturating_add(self.int(st, cx, b)),
            IntExpr::Sub(a, b) => self.int(st, cx, a).saturating_sub(self.int(st, cx, b)),
            IntExpr::Mul(a, b) => self.int(st, cx, a).saturating_mul(self.int(st, cx, b)),
            IntExpr::Of(p, e) => {
                let mut inner = *cx;
                inner.me = self.player(st, cx, *p);
                self.int(st, &mut inner, e)
            }
        }
    }
}
