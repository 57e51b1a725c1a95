//! The legal moves of a position: every candidate of the mover's pieces on the board and in
//! hand, without duplicates, minus those that fail `legal if`. Also what rules could ever
//! reach (which lets `attacked` skip pieces that cannot attack a cell).

use super::Engine;
use super::evaluate::Ctx;
use super::state::{Bits, Move, NONE, State, piece_of};
use crate::ir::visit::{Visitor, walk_stmt};
use crate::ir::{self, DirRef, Stmt};

impl Engine {
    /// The legal moves of the player to move, a pass excluded, in generation order.
    pub fn legal_moves(&self, st: &State, out: &mut Vec<Move>) {
        out.clear();
        let g = self.game();
        let me = st.to_move;
        let mut cx = Ctx::new(me);
        for from in st.by_owner[me as usize].iter() {
            let p = piece_of(st.board[from as usize]);
            cx.from = from;
            self.collect(st, &mut cx, p, out);
        }
        for p in 0..g.pieces.len() {
            if st.hand[me as usize][p] > 0 {
                cx.from = NONE;
                self.collect(st, &mut cx, p as u8, out);
            }
        }
    }

    fn collect(&self, st: &State, cx: &mut Ctx, piece: u8, out: &mut Vec<Move>) {
        let first = out.len();
        let dedup = self.may_duplicate[piece as usize];
        let rules = &self.game().moves[piece as usize];
        if !dedup && self.game().legal.is_none() {
            // The common case, kept free of per-move checks.
            self.generate(st, cx, piece, rules, &mut |m: &Move| {
                out.push(*m);
                false
            });
            return;
        }
        self.generate(st, cx, piece, rules, &mut |m: &Move| {
            // Two rules yielding the same move string: the first one generated is kept.
            if dedup
                && out[first..]
                    .iter()
                    .any(|x| x.to == m.to && x.from == m.from && x.choice == m.choice)
            {
                return false;
            }
            if self.is_legal(st, m) {
                out.push(*m);
            }
            false
        });
    }

    #[inline]
    fn is_legal(&self, st: &State, m: &Move) -> bool {
        match &self.game().legal {
            None => true,
            Some(legal) => self.passes_filter(st, m, legal),
        }
    }

    /// `legal if`, judged on the position after the move, from the mover's point of view.
    fn passes_filter(&self, st: &State, m: &Move, legal: &ir::Cond) -> bool {
        let mut after = st.clone();
        self.apply(&mut after, m);
        let mut cx = Ctx::new(st.to_move);
        cx.from = m.from;
        cx.to = m.to;
        self.cond(&after, &mut cx, legal)
    }

    /// Every cell that rules could reach from `from` on an empty board, over-approximated
    /// (rules that compute their target freely reach everywhere).
    pub(super) fn reach_of(&self, stmts: &[Stmt], from: u16) -> Bits {
        struct Reach<'e> {
            e: &'e Engine,
            from: u16,
            out: Bits,
        }
        impl Reach<'_> {
            fn dirs(&self, dirs: &[DirRef]) -> Vec<u8> {
                let b = &self.e.board;
                let mut v = Vec::new();
                for d in dirs {
                    match *d {
                        DirRef::Abs(a) => v.push(a),
                        DirRef::Rel(r) => v.extend(self.e.forward.map(|f| b.rotate(f, r))),
                        DirRef::Var(_) | DirRef::Opp(_) => v.extend(0..b.dir_count() as u8),
                    }
                }
                v
            }
        }
        impl Visitor for Reach<'_> {
            fn stmt(&mut self, s: &Stmt) {
                let b = &self.e.board;
                match s {
                    Stmt::Step { dirs, .. } => {
                        for d in self.dirs(dirs) {
                            let c = b.step(self.from, d);
                            if c != NONE {
                                self.out.set(c, true);
                            }
                        }
                    }
                    Stmt::Slide { dirs, max, .. } => {
                        for d in self.dirs(dirs) {
                            for &c in b.ray(self.from, d).iter().take(*max as usize) {
                                self.out.set(c, true);
                            }
                        }
                    }
                    Stmt::Leap { leap, .. } => {
                        for &c in self.e.leap_targets(*leap, self.from) {
                            self.out.set(c, true);
                        }
                    }
                    Stmt::MoveTo { .. } | Stmt::Place { .. } => {
                        for c in 0..self.e.cells {
                            self.out.set(c, true);
                        }
                    }
                    _ => walk_stmt(self, s),
                }
            }
        }
        let mut r = Reach {
            e: self,
            from,
            out: Bits::default(),
        };
        for s in stmts {
            r.stmt(s);
        }
        r.out
    }
}

/// How many statements of a rule list can produce a move, counting each repetition of a
/// loop: more than one means two of them might produce the same move.
pub(super) fn emitters(stmts: &[Stmt]) -> usize {
    struct Count {
        times: usize,
        total: usize,
    }
    impl Visitor for Count {
        fn stmt(&mut self, s: &Stmt) {
            let loops = match s {
                Stmt::For { dirs, .. } => dirs.len(),
                Stmt::ForPiece { pieces, .. } => pieces.len(),
                // Distinct directions of one step or slide never meet on the same target.
                Stmt::Step { .. }
                | Stmt::Slide { .. }
                | Stmt::Leap { .. }
                | Stmt::MoveTo { .. }
                | Stmt::Place { .. } => {
                    self.total += self.times;
                    return;
                }
                Stmt::If { .. } | Stmt::Let { .. } => 1,
            };
            let outer = self.times;
            self.times *= loops;
            walk_stmt(self, s);
            self.times = outer;
        }
    }
    let mut c = Count { times: 1, total: 0 };
    for s in stmts {
        c.stmt(s);
    }
    c.total
}
