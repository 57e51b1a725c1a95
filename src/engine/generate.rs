//! Move generation: runs move (or attack) rules for one piece and hands every candidate
//! move to a caller's closure. Nothing here allocates.

use super::Engine;
use super::evaluate::Ctx;
use super::state::{Bits, Move, MoveKind, NONE, State};
use crate::ir::{Cond, DirRef, Stmt, Test};

impl Engine {
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
                    cx.from != NONE
                        && dirs.iter().any(|&d| {
                            let c = self.board.step(cx.from, self.dir(cx, d));
                            c != NONE && self.target(st, cx, piece, c, (to, cond), *then, emit)
                        })
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
                    cx.from != NONE
                        && self
                            .leap_targets(*leap, cx.from)
                            .iter()
                            .any(|&c| self.target(st, cx, piece, c, (to, cond), *then, emit))
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
                    cx.from == NONE
                        && (0..self.cells)
                            .any(|c| self.target(st, cx, piece, c, (on, cond), *then, emit))
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
            let ray = self.board.ray(cx.from, self.dir(cx, d));
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
        table: &[Bits; super::passes::CODES],
        then: Option<u16>,
        emit: &mut F,
    ) -> bool {
        for &d in dirs {
            let ray = self.board.ray(cx.from, self.dir(cx, d));
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

    /// One target cell of a statement: its cell test, then its `if` condition (with `to`
    /// bound to the cell), then the move. True when `emit` asks to stop.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn target<F: FnMut(&Move) -> bool>(
        &self,
        st: &State,
        cx: &mut Ctx,
        piece: u8,
        c: u16,
        (to, cond): (&Test, &Option<Cond>),
        then: Option<u16>,
        emit: &mut F,
    ) -> bool {
        self.test(st, cx, c, to)
            && self.target_holds_ref(st, cx, c, cond.as_ref())
            && self.emit(cx, piece, c, then, emit)
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
}
