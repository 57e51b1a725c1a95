//! The interpreter proper: evaluates the IR's tests, cells, conditions and numbers against a
//! state, generates moves from move rules, and applies moves with their effects.
//! Nothing here allocates: generated moves go to a caller-supplied closure.

use super::Engine;
use super::state::{Bits, Move, MoveKind, NO_CHOICE, NONE, State, code, owner_of, piece_of};
use crate::ir::MAX_SLOTS;
use crate::ir::{CellExpr, Cond, CounterOp, DirRef, Effect, IntExpr, Owner, PlayerRef, Stmt, Test};

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
    #[inline]
    fn dir(&self, cx: &Ctx, d: DirRef) -> u8 {
        match d {
            DirRef::Abs(a) => a,
            DirRef::Rel(r) => (self.forward[cx.me as usize] + r) & 7,
            DirRef::Var(s) => cx.slots[s as usize] as u8,
            DirRef::Opp(s) => (cx.slots[s as usize] as u8 + 4) & 7,
        }
    }

    #[inline]
    fn step(&self, c: u16, d: u8) -> u16 {
        self.nb[c as usize][(d & 7) as usize]
    }

    fn player(&self, st: &State, cx: &Ctx, p: PlayerRef) -> u8 {
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
                    c = self.step(c, d);
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
                let ray = self.ray(c, self.dir(cx, *dir));
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
                let ray = self.ray(c, self.dir(cx, *dir));
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

    /// Runs move rules for the piece at `cx.from` (or, when `cx.from` is `NONE`, for a piece
    /// in hand), handing each candidate to `emit`. Stops early, returning true, when `emit` does.
    pub(super) fn generate<F: FnMut(&Move) -> bool>(
        &self,
        st: &State,
        cx: &mut Ctx,
        piece: u8,
        stmts: &[Stmt],
        emit: &mut F,
    ) -> bool {
        for s in stmts {
            let stop = match s {
                Stmt::For { slot, dirs, body } => {
                    let mut stop = false;
                    for &d in dirs {
                        cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                        if self.generate(st, cx, piece, body, emit) {
                            stop = true;
                            break;
                        }
                    }
                    stop
                }
                Stmt::ForPiece { slot, pieces, body } => {
                    let saved = cx.choice;
                    let mut stop = false;
                    for &p in pieces {
                        cx.slots[*slot as usize] = p as u16;
                        cx.choice = p;
                        if self.generate(st, cx, piece, body, emit) {
                            stop = true;
                            break;
                        }
                    }
                    cx.choice = saved;
                    stop
                }
                Stmt::Let { slot, value } => {
                    cx.slots[*slot as usize] = self.cell(st, cx, value);
                    false
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    if self.cond(st, cx, cond) {
                        self.generate(st, cx, piece, then, emit)
                    } else {
                        self.generate(st, cx, piece, otherwise, emit)
                    }
                }
                Stmt::Step {
                    dirs,
                    to,
                    cond,
                    then,
                } => {
                    let mut stop = false;
                    if cx.from != NONE {
                        for &d in dirs {
                            let c = self.step(cx.from, self.dir(cx, d));
                            if c != NONE
                                && self.test(st, cx, c, to)
                                && self.target_holds(st, cx, c, cond)
                                && self.emit(cx, piece, c, *then, emit)
                            {
                                stop = true;
                                break;
                            }
                        }
                    }
                    stop
                }
                Stmt::Slide {
                    dirs,
                    max,
                    to,
                    cond,
                    then,
                } => self.slide(st, cx, piece, dirs, *max, (to, cond.as_ref()), *then, emit),
                Stmt::Leap {
                    leap,
                    to,
                    cond,
                    then,
                } => {
                    let mut stop = false;
                    if cx.from != NONE {
                        for &c in self.leap_targets(*leap, cx.from) {
                            if self.test(st, cx, c, to)
                                && self.target_holds(st, cx, c, cond)
                                && self.emit(cx, piece, c, *then, emit)
                            {
                                stop = true;
                                break;
                            }
                        }
                    }
                    stop
                }
                Stmt::MoveTo { target, cond, then } => {
                    let c = if cx.from == NONE {
                        NONE
                    } else {
                        self.cell(st, cx, target)
                    };
                    if c != NONE {
                        cx.to = c;
                        self.cond(st, cx, cond) && self.emit(cx, piece, c, *then, emit)
                    } else {
                        false
                    }
                }
                Stmt::Place { on, cond, then } => {
                    let mut stop = false;
                    if cx.from == NONE {
                        for c in 0..self.cells {
                            if self.test(st, cx, c, on)
                                && self.target_holds(st, cx, c, cond)
                                && self.emit(cx, piece, c, *then, emit)
                            {
                                stop = true;
                                break;
                            }
                        }
                    }
                    stop
                }
            };
            if stop {
                return true;
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn slide<F: FnMut(&Move) -> bool>(
        &self,
        st: &State,
        cx: &mut Ctx,
        piece: u8,
        dirs: &[DirRef],
        max: u8,
        (to, cond): (&Test, Option<&Cond>),
        then: Option<u16>,
        emit: &mut F,
    ) -> bool {
        if cx.from == NONE {
            return false;
        }
        // The common case: a precomputed target test and no condition, in its own loop.
        if let (Test::Table(i), None) = (to, cond) {
            let table = &self.tables[*i as usize][(cx.me & 1) as usize];
            return self.slide_table(st, cx, piece, dirs, max, table, then, emit);
        }
        for &d in dirs {
            let ray = self.ray(cx.from, self.dir(cx, d));
            for &c in &ray[..ray.len().min(max as usize)] {
                let k = st.board[c as usize];
                if self.test(st, cx, c, to)
                    && self.target_holds_ref(st, cx, c, cond)
                    && self.emit(cx, piece, c, then, emit)
                {
                    return true;
                }
                if k != 0 {
                    break;
                }
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn slide_table<F: FnMut(&Move) -> bool>(
        &self,
        st: &State,
        cx: &mut Ctx,
        piece: u8,
        dirs: &[DirRef],
        max: u8,
        table: &[Bits; super::compile::CODES],
        then: Option<u16>,
        emit: &mut F,
    ) -> bool {
        for &d in dirs {
            let ray = self.ray(cx.from, self.dir(cx, d));
            for &c in &ray[..ray.len().min(max as usize)] {
                let k = st.board[c as usize];
                if table[k as usize].has(c) && self.emit(cx, piece, c, then, emit) {
                    return true;
                }
                if k != 0 {
                    break;
                }
            }
        }
        false
    }

    /// A statement's `if` condition on its target, with `to` bound to that target.
    #[inline]
    fn target_holds(&self, st: &State, cx: &mut Ctx, c: u16, cond: &Option<Cond>) -> bool {
        self.target_holds_ref(st, cx, c, cond.as_ref())
    }

    #[inline]
    fn target_holds_ref(&self, st: &State, cx: &mut Ctx, c: u16, cond: Option<&Cond>) -> bool {
        match cond {
            None => true,
            Some(k) => {
                cx.to = c;
                self.cond(st, cx, k)
            }
        }
    }

    #[inline]
    fn emit<F: FnMut(&Move) -> bool>(
        &self,
        cx: &mut Ctx,
        piece: u8,
        to: u16,
        then: Option<u16>,
        emit: &mut F,
    ) -> bool {
        cx.to = to;
        let m = Move {
            kind: if cx.from == NONE {
                MoveKind::Place
            } else {
                MoveKind::Normal
            },
            piece,
            from: cx.from,
            to,
            effect: then.unwrap_or(NONE),
            slots: cx.slots,
            choice: cx.choice,
        };
        emit(&m)
    }

    /// Applies a move and all its consequences (effects, `after move` blocks, turn order).
    /// End rules are not evaluated here.
    pub fn apply(&self, st: &mut State, m: &Move) {
        let me = st.to_move;
        let mut cx = Ctx::new(me);
        cx.from = m.from;
        cx.to = m.to;
        cx.slots = m.slots;
        match m.kind {
            MoveKind::Normal => {
                let k = st.board[m.from as usize];
                self.put(st, m.from, 0);
                self.put(st, m.to, k);
            }
            MoveKind::Place => {
                self.put(st, m.to, code(me, m.piece));
                self.hash_hand(st, me, m.piece);
                st.hand[me as usize][m.piece as usize] -= 1;
                self.hash_hand(st, me, m.piece);
            }
            MoveKind::Pass => {}
        }
        st.last_from = m.from;
        st.last_to = m.to;
        if m.kind == MoveKind::Pass {
            st.passes += 1;
        } else {
            st.passes = 0;
            st.moves_made[me as usize] += 1;
            if m.effect != NONE {
                self.effects(st, &mut cx, &self.program.effects[m.effect as usize]);
            }
            for a in &self.program.game.after {
                if a.pieces >> m.piece & 1 != 0 {
                    let mut acx = Ctx::new(me);
                    acx.from = m.from;
                    acx.to = m.to;
                    self.effects(st, &mut acx, &a.effects);
                    cx.again |= acx.again;
                }
            }
        }
        st.previous = me;
        st.ply += 1;
        if cx.again {
            st.streak += 1;
        } else {
            st.streak = 0;
            st.to_move = 1 - me;
            st.turns += 1;
            if self.program.game.tracks_repetition {
                st.hash ^= self.zobrist_side;
            }
        }
    }

    fn effects(&self, st: &mut State, cx: &mut Ctx, effects: &[Effect]) {
        for e in effects {
            match e {
                Effect::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    if self.cond(st, cx, cond) {
                        self.effects(st, cx, then)
                    } else {
                        self.effects(st, cx, otherwise)
                    }
                }
                Effect::For { slot, dirs, body } => {
                    for &d in dirs {
                        cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                        self.effects(st, cx, body);
                    }
                }
                Effect::Let { slot, value } => cx.slots[*slot as usize] = self.cell(st, cx, value),
                Effect::Remove(c) => {
                    let c = self.cell(st, cx, c);
                    if c != NONE {
                        self.put(st, c, 0);
                    }
                }
                Effect::SetFlag { flag, at, value } => {
                    let c = self.cell(st, cx, at);
                    if c != NONE && st.flags[*flag as usize].has(c) != *value {
                        st.flags[*flag as usize].set(c, *value);
                        if self.program.game.tracks_repetition {
                            st.hash ^= self.zobrist_flag(*flag, c);
                        }
                    }
                }
                Effect::Counter { counter, op, value } => {
                    let v = self.int(st, cx, value);
                    let slot = &mut st.counters[cx.me as usize][*counter as usize];
                    let v = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    *slot = match op {
                        CounterOp::Add => slot.saturating_add(v),
                        CounterOp::Sub => slot.saturating_sub(v),
                        CounterOp::Assign => v,
                    };
                }
                Effect::Again => cx.again = true,
                Effect::Along {
                    slot,
                    start,
                    dir,
                    test,
                    body,
                } => {
                    let c = self.cell(st, cx, start);
                    if c == NONE {
                        continue;
                    }
                    let ray = self.ray(c, self.dir(cx, *dir));
                    for &x in ray {
                        if !self.test(st, cx, x, test) {
                            break;
                        }
                        cx.slots[*slot as usize] = x;
                        self.effects(st, cx, body);
                    }
                }
                Effect::Flip(at) => {
                    let c = self.cell(st, cx, at);
                    let k = if c == NONE { 0 } else { st.board[c as usize] };
                    if k != 0 {
                        self.put(st, c, code(1 - owner_of(k), piece_of(k)));
                    }
                }
                Effect::Change { at, piece } => {
                    let c = self.cell(st, cx, at);
                    let k = if c == NONE { 0 } else { st.board[c as usize] };
                    if k != 0 {
                        self.put(st, c, code(owner_of(k), piece_ref(cx, *piece)));
                    }
                }
                Effect::Put { piece, at } => {
                    let c = self.cell(st, cx, at);
                    if c != NONE {
                        self.put(st, c, code(cx.me, piece_ref(cx, *piece)));
                    }
                }
            }
        }
    }
}

fn piece_ref(cx: &Ctx, p: crate::ir::PieceRef) -> u8 {
    match p {
        crate::ir::PieceRef::Const(p) => p,
        crate::ir::PieceRef::Var(s) => cx.slots[s as usize] as u8,
    }
}
