//! Playing a move: the piece moves (or enters from the hand), then the move's own effects
//! and the `after move` blocks run, then the turn passes unless an effect said `again`.
//! Every write is logged by the state, so `make` returns a frame that `unmake` undoes.

use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{CellFn, CondFn, Ctx, IntFn};
use super::state::{Frame, Move, MoveKind, NONE, State};
use crate::ir::{CounterOp, DirRef, PieceRef};

/// A compiled effect.
pub enum CEffect<const W: usize> {
    If {
        cond: CondFn<W>,
        then: Vec<CEffect<W>>,
        otherwise: Vec<CEffect<W>>,
    },
    For {
        slot: u8,
        dirs: Vec<DirRef>,
        body: Vec<CEffect<W>>,
    },
    /// Each cell beyond `start` in `dir`, while it passes `test`, bound to `slot`.
    Along {
        slot: u8,
        start: CellFn<W>,
        dir: DirRef,
        test: CTest<W>,
        body: Vec<CEffect<W>>,
    },
    Let {
        slot: u8,
        value: CellFn<W>,
    },
    Remove(CellFn<W>),
    SetFlag {
        flag: u8,
        at: CellFn<W>,
        value: bool,
    },
    Counter {
        counter: u8,
        op: CounterOp,
        value: IntFn<W>,
    },
    Again,
    Flip(CellFn<W>),
    Change {
        at: CellFn<W>,
        piece: PieceRef,
    },
    Put {
        piece: PieceRef,
        at: CellFn<W>,
    },
}

impl<const W: usize> Core<W> {
    /// Plays a move on a state and returns the frame that undoes it.
    pub fn make(&self, st: &mut State<W>, m: &Move) -> Frame {
        let frame = st.frame();
        let me = st.s.to_move;
        let keys = self.keys.as_ref();
        let mut cx = Ctx::new(me);
        cx.from = m.from;
        cx.to = m.to;
        cx.slots = m.slots;
        match m.kind {
            MoveKind::Normal => {
                let k = st.board[m.from as usize];
                st.put(&self.codes, keys, m.from, 0);
                st.put(&self.codes, keys, m.to, k);
            }
            MoveKind::Place => {
                st.put(&self.codes, keys, m.to, self.codes.code(me, m.piece));
                let left = st.hand[me as usize][m.piece as usize] - 1;
                st.set_hand(keys, me, m.piece, left);
            }
            MoveKind::Pass => {}
        }
        st.s.last_from = m.from;
        st.s.last_to = m.to;
        if m.kind == MoveKind::Pass {
            st.s.passes += 1;
        } else {
            st.s.passes = 0;
            st.s.moves_made[me as usize] += 1;
            if m.effect != NONE {
                self.effects(st, &mut cx, &self.blocks[m.effect as usize]);
            }
            for (pieces, block) in &self.after {
                if pieces >> m.piece & 1 != 0 {
                    let mut acx = Ctx::new(me);
                    acx.from = m.from;
                    acx.to = m.to;
                    self.effects(st, &mut acx, block);
                    cx.again |= acx.again;
                }
            }
        }
        st.s.previous = me;
        st.s.ply += 1;
        if cx.again {
            st.s.streak += 1;
        } else {
            st.s.streak = 0;
            st.s.turns += 1;
            let next = (me + 1) % self.players;
            if let Some(k) = keys {
                st.s.hash ^= k.side(me) ^ k.side(next);
            }
            st.s.to_move = next;
        }
        frame
    }

    /// Undoes a move made with `make`.
    #[inline]
    pub fn unmake(&self, st: &mut State<W>, frame: Frame) {
        st.undo(&self.codes, frame);
    }

    fn effects(&self, st: &mut State<W>, cx: &mut Ctx, effects: &[CEffect<W>]) {
        let keys = self.keys.as_ref();
        for e in effects {
            match e {
                CEffect::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    if cond(self, st, cx) {
                        self.effects(st, cx, then)
                    } else {
                        self.effects(st, cx, otherwise)
                    }
                }
                CEffect::For { slot, dirs, body } => {
                    for &d in dirs {
                        cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                        self.effects(st, cx, body);
                    }
                }
                CEffect::Let { slot, value } => cx.slots[*slot as usize] = value(self, st, cx),
                CEffect::Remove(at) => {
                    let c = at(self, st, cx);
                    if c != NONE {
                        st.put(&self.codes, keys, c, 0);
                    }
                }
                CEffect::SetFlag { flag, at, value } => {
                    let c = at(self, st, cx);
                    if c != NONE {
                        st.set_flag(keys, *flag, c, *value);
                    }
                }
                CEffect::Counter { counter, op, value } => {
                    let v = value(self, st, cx);
                    let old = st.counters[cx.me as usize][*counter as usize];
                    let v = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    let new = match op {
                        CounterOp::Add => old.saturating_add(v),
                        CounterOp::Sub => old.saturating_sub(v),
                        CounterOp::Assign => v,
                    };
                    st.set_counter(cx.me, *counter, new);
                }
                CEffect::Again => cx.again = true,
                CEffect::Along {
                    slot,
                    start,
                    dir,
                    test,
                    body,
                } => {
                    let c = start(self, st, cx);
                    if c == NONE {
                        continue;
                    }
                    let d = self.dir(cx, *dir);
                    for &x in self.geo.board.ray(c, d) {
                        if !test.holds(self, st, cx, x) {
                            break;
                        }
                        cx.slots[*slot as usize] = x;
                        self.effects(st, cx, body);
                    }
                }
                CEffect::Flip(at) => {
                    let c = at(self, st, cx);
                    let k = if c == NONE { 0 } else { st.board[c as usize] };
                    let owner = self.codes.owner[k as usize];
                    if k != 0 && owner < self.players {
                        // To the mover; the mover's own piece goes to the next player.
                        let to = if owner == cx.me {
                            (owner + 1) % self.players
                        } else {
                            cx.me
                        };
                        let code = self.codes.code(to, self.codes.piece[k as usize]);
                        st.put(&self.codes, keys, c, code);
                    }
                }
                CEffect::Change { at, piece } => {
                    let c = at(self, st, cx);
                    let k = if c == NONE { 0 } else { st.board[c as usize] };
                    if k != 0 {
                        let code = self
                            .codes
                            .code(self.codes.owner[k as usize], piece_ref(cx, *piece));
                        st.put(&self.codes, keys, c, code);
                    }
                }
                CEffect::Put { piece, at } => {
                    let c = at(self, st, cx);
                    if c != NONE {
                        st.put(
                            &self.codes,
                            keys,
                            c,
                            self.codes.code(cx.me, piece_ref(cx, *piece)),
                        );
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
