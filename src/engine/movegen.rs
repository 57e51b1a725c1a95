//! The legal moves of a position: every candidate of the mover's pieces on the board and in
//! hand, without duplicates (the first rule to produce a move keeps it), minus those that
//! fail `legal if`. Also their number without listing them, and one of them drawn
//! uniformly at random without listing them either.

use super::core::Core;
use super::evaluate::Ctx;
use super::generate::{Emit, Mode};
use super::search::Rng;
use super::state::{Cell, Move, MoveKind, NONE, State};

/// A piece (on the board, or in hand when `from` is `NONE`) and how many candidate moves
/// its rules produce.
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    pub from: Cell,
    pub piece: u8,
    pub count: u32,
}

/// Reusable buffers for drawing moves.
#[derive(Default, Clone)]
pub struct Scratch {
    origins: Vec<Origin>,
    rejected: Vec<u32>,
    moves: Vec<Move>,
}

impl<const W: usize> Core<W> {
    /// Calls `f` for every piece the player to move could move or place.
    #[inline]
    fn origins(&self, st: &State<W>, mut f: impl FnMut(Cell, u8)) {
        let me = st.s.to_move as usize;
        for from in st.by_owner[me].iter() {
            f(from, self.codes.piece[st.board[from as usize] as usize]);
        }
        for p in 0..self.moves.len() {
            if st.hand[me][p] > 0 {
                f(NONE, p as u8);
            }
        }
    }

    /// Runs one piece's move rules into an emitter.
    #[inline]
    fn run(&self, st: &State<W>, from: Cell, piece: u8, e: &mut Emit<W>) {
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        e.piece = piece;
        self.generate(st, &mut cx, &self.moves[piece as usize], e);
    }

    /// The legal moves of the player to move, a pass excluded, in generation order.
    pub fn legal_moves(&self, st: &mut State<W>, out: &mut Vec<Move>) {
        out.clear();
        let view: &State<W> = st;
        self.origins(view, |from, piece| {
            let first = out.len();
            let mut e = Emit::new(Mode::Collect, out);
            self.run(view, from, piece, &mut e);
            if self.may_duplicate[piece as usize] {
                dedup(out, first);
            }
        });
        if self.simple {
            if self.legal.is_some() {
                out.retain(|m| self.is_legal(st, m));
            }
            return;
        }
        // Pieces made from nothing may be made from several pieces: once each.
        dedup(out, 0);
        self.add_actions(st, out);
        self.expand_choices(st, out);
        if self.legal.is_some() {
            out.retain(|m| self.is_legal(st, m));
        }
        self.keep_priority(out);
    }

    /// The actions the player to move may take.
    fn add_actions(&self, st: &State<W>, out: &mut Vec<Move>) {
        for (i, (when, _)) in self.actions.iter().enumerate() {
            if when(self, st, &mut Ctx::new(st.s.to_move)) {
                let mut m = Move::PASS;
                m.kind = MoveKind::Action;
                m.piece = i as u8;
                out.push(m);
            }
        }
    }

    /// Each move whose effects make a choice becomes one move per cell chosen.
    fn expand_choices(&self, st: &mut State<W>, out: &mut Vec<Move>) {
        let needs = |m: &Move| {
            (m.effect != NONE && m.hops == 0 && self.choice_blocks[m.effect as usize])
                || (m.kind != MoveKind::Action && self.choice_pieces >> m.piece & 1 != 0)
                || m.kind == MoveKind::Action
                || m.hops > 0
        };
        if !out.iter().any(needs) {
            return;
        }
        let mut options = Vec::new();
        let mut expanded = Vec::with_capacity(out.len());
        for m in out.drain(..) {
            if !needs(&m) {
                expanded.push(m);
                continue;
            }
            let (frame, reached) = self.probe(st, &m, &mut options);
            self.unmake(st, frame);
            if !reached || options.is_empty() {
                expanded.push(m);
                continue;
            }
            for &c in &options {
                let mut x = m;
                x.cell_choice = c;
                expanded.push(x);
            }
        }
        *out = expanded;
    }

    /// Only the moves of the first class of `priority` that has any (and of those, with
    /// `longest`, the ones of the most hops).
    fn keep_priority(&self, out: &mut Vec<Move>) {
        let Some(p) = &self.program.game.priority else {
            return;
        };
        for class in 0..p.classes.len() as u8 {
            if out.iter().any(|m| m.class == class) {
                out.retain(|m| m.class == class);
                if p.longest {
                    let most = out.iter().map(|m| m.hops.max(1)).max().unwrap_or(0);
                    out.retain(|m| m.hops.max(1) == most);
                }
                return;
            }
        }
    }

    /// Whether a candidate passes `legal if`, judged after the move from the mover's point
    /// of view.
    pub fn is_legal(&self, st: &mut State<W>, m: &Move) -> bool {
        let Some(legal) = &self.legal else {
            return true;
        };
        let me = st.s.to_move;
        let frame = self.make(st, m);
        let mut cx = Ctx::new(me);
        cx.from = m.from;
        cx.to = m.to;
        let ok = legal(self, st, &mut cx);
        self.unmake(st, frame);
        ok
    }

    /// How many legal moves the player to move has (a pass excluded).
    pub fn count_legal(&self, st: &mut State<W>, buf: &mut Vec<Move>) -> u32 {
        if self.simple && self.legal.is_none() && !self.may_duplicate.iter().any(|&d| d) {
            let mut none = Vec::new();
            let mut e = Emit::new(Mode::Count, &mut none);
            self.origins(st, |from, piece| self.run(st, from, piece, &mut e));
            return e.count;
        }
        self.legal_moves(st, buf);
        buf.len() as u32
    }

    /// A legal move drawn uniformly at random, or `None` when there is none; no move list
    /// is built. First a few draws against upper bounds (`random_by_bounds`); when they all
    /// miss, candidates are counted per piece, one is drawn and decoded, and a duplicate
    /// of an earlier candidate or one failing `legal if` is set aside and another drawn
    /// among the rest. Either way every legal move is equally likely.
    pub fn random_legal(&self, st: &mut State<W>, rng: &mut Rng, sc: &mut Scratch) -> Option<Move> {
        if !self.simple {
            // Classes, chains, choices and actions need the whole list.
            self.legal_moves(st, &mut sc.moves);
            return (!sc.moves.is_empty()).then(|| sc.moves[rng.below(sc.moves.len())]);
        }
        if let Some(m) = self.random_by_bounds(st, rng, sc) {
            return Some(m);
        }
        sc.origins.clear();
        sc.rejected.clear();
        let mut total = 0u32;
        {
            let mut none = Vec::new();
            let origins = &mut sc.origins;
            let view: &State<W> = st;
            self.origins(view, |from, piece| {
                let mut e = Emit::new(Mode::Count, &mut none);
                self.run(view, from, piece, &mut e);
                if e.count > 0 {
                    origins.push(Origin {
                        from,
                        piece,
                        count: e.count,
                    });
                    total += e.count;
                }
            });
        }
        loop {
            let left = total - sc.rejected.len() as u32;
            if left == 0 {
                return None;
            }
            // The r-th candidate not set aside (`rejected` is sorted).
            let mut k = rng.below(left as usize) as u32;
            for &x in &sc.rejected {
                if x <= k {
                    k += 1;
                } else {
                    break;
                }
            }
            let mut offset = 0;
            let origin = *sc
                .origins
                .iter()
                .find(|o| {
                    if k < offset + o.count {
                        true
                    } else {
                        offset += o.count;
                        false
                    }
                })
                .expect("k is below the total");
            let m = self.nth(st, origin.from, origin.piece, k - offset, &mut sc.moves);
            let m = m.expect("the n-th candidate exists");
            let first = !sc.moves.iter().any(|x| x.same_as(&m));
            if first && self.is_legal(st, &m) {
                return Some(m);
            }
            let at = sc.rejected.partition_point(|&x| x < k);
            sc.rejected.insert(at, k);
        }
    }

    /// Rejection sampling: each piece is given as many slots as its rules could ever
    /// produce candidates from where it stands (`Core::bound`); a slot is drawn uniformly
    /// and decoded, and kept when it is a candidate, not a duplicate of an earlier one,
    /// and legal. Every legal move has exactly one slot, so a kept draw is uniform; only
    /// the drawn piece's rules run. Gives up (`None`) after a few misses, which also
    /// happens when there is no legal move at all.
    fn random_by_bounds(&self, st: &mut State<W>, rng: &mut Rng, sc: &mut Scratch) -> Option<Move> {
        const TRIES: usize = 16;
        sc.origins.clear();
        let mut total = 0u32;
        let hand = self.geo.cells as usize;
        let origins = &mut sc.origins;
        self.origins(st, |from, piece| {
            let at = if from == NONE { hand } else { from as usize };
            let bound = self.bound[piece as usize][at];
            if bound > 0 {
                origins.push(Origin {
                    from,
                    piece,
                    count: bound,
                });
                total += bound;
            }
        });
        if total == 0 {
            return None;
        }
        for _ in 0..TRIES {
            let mut k = rng.below(total as usize) as u32;
            let o = *sc
                .origins
                .iter()
                .find(|o| {
                    if k < o.count {
                        true
                    } else {
                        k -= o.count;
                        false
                    }
                })
                .expect("k is below the total");
            let Some(m) = self.nth(st, o.from, o.piece, k, &mut sc.moves) else {
                continue;
            };
            let first = !sc.moves.iter().any(|x| x.same_as(&m));
            if first && self.is_legal(st, &m) {
                return Some(m);
            }
        }
        None
    }

    /// The `index`-th candidate of a piece, if it has that many; `before` then holds the
    /// earlier candidates when the piece's rules may yield duplicates (empty otherwise).
    fn nth(
        &self,
        st: &State<W>,
        from: Cell,
        piece: u8,
        index: u32,
        before: &mut Vec<Move>,
    ) -> Option<Move> {
        before.clear();
        let mut e = Emit::new(Mode::Nth(index), before);
        e.keep_before = self.may_duplicate[piece as usize];
        self.run(st, from, piece, &mut e);
        e.found
    }
}

/// Drops, among `out[first..]`, moves with the notation of an earlier one.
fn dedup(out: &mut Vec<Move>, first: usize) {
    let mut i = first;
    while i < out.len() {
        if out[first..i].iter().any(|x| x.same_as(&out[i])) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}
