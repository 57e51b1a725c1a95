//! Playing a move: the piece moves (or enters from the hand), then the move's own effects
//! and the `after move` blocks run, then the turn passes unless an effect said `again`.

use super::Engine;
use super::evaluate::Ctx;
use super::state::{Move, MoveKind, NONE, State, code, owner_of, piece_of};
use crate::ir::{CounterOp, Effect, PieceRef};

impl Engine {
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
                let left = st.hand[me as usize][m.piece as usize] - 1;
                self.set_hand(st, me, m.piece, left);
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
            st.turns += 1;
            self.pass_turn(st);
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
                    if c != NONE {
                        self.set_flag(st, *flag, c, *value);
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
                    let ray = self.board.ray(c, self.dir(cx, *dir));
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

fn piece_ref(cx: &Ctx, p: PieceRef) -> u8 {
    match p {
        PieceRef::Const(p) => p,
        PieceRef::Var(s) => cx.slots[s as usize] as u8,
    }
}
