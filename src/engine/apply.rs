//! Playing a move: the piece moves (or enters from the hand), then the move's own effects
//! and the `after move` blocks run, then the turn passes unless an effect said `again`.
//! Every write is logged by the state, so `make` returns a frame that `unmake` undoes.

use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{CellFn, CondFn, Ctx, IntFn};
use super::generate::{CStmt, Emit, Mode};
use super::hash::Keys;
use super::state::{Cell, Code, Frame, Move, MoveKind, NONE, State};
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
        /// When the body is one `if` (no `else`) whose condition needs `to + d is T`:
        /// `T`, so that a direction whose neighbour of `to` fails it is skipped with a
        /// bit test (most of the directions of a capture rule, most plies).
        guard: Option<CTest<W>>,
        /// Every direction's neighbour of a cell is one of its adjacent cells
        /// (`Geo::adjacent`): a guard's set with none of `to`'s skips the loop at once.
        adjacent: bool,
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
    /// A counter's effect by a constant (`shooting = 1`, `captures += 1`): no closure
    /// called for its value.
    CounterBy {
        counter: u8,
        op: CounterOp,
        value: i32,
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
        neutral: bool,
    },
    Choose {
        slot: u8,
        from: ChooseC<W>,
        body: Vec<CEffect<W>>,
    },
}

/// Where the cells of a compiled `choose` come from.
pub enum ChooseC<const W: usize> {
    Where(CondFn<W>),
    By { start: CellFn<W>, pattern: CStmt<W> },
}

/// What undoes a move made by `Core::make_bare`: the scalars before it, and the cells it
/// wrote (`from` is `NONE` for a placement from the hand).
#[derive(Clone, Copy, Debug)]
pub struct Bare {
    frame: Frame,
    piece: u8,
    from: Cell,
    to: Cell,
    /// What the target held before.
    was: Code,
}

impl Bare {
    /// What undoes `m`, taken before it is made.
    #[inline(always)]
    fn before<const W: usize>(st: &State<W>, m: &Move) -> Bare {
        Bare {
            frame: st.frame(),
            piece: m.piece,
            from: m.from,
            to: m.to,
            was: st.board[m.to as usize],
        }
    }
}

impl<const W: usize> Core<W> {
    /// Plays a move on a state and returns the frame that undoes it.
    #[inline]
    pub fn make(&self, st: &mut State<W>, m: &Move) -> Frame {
        let frame = st.frame();
        self.make_in(st, m, &mut None);
        frame
    }

    /// Plays a move that will not be taken back (a playout's): `make` with no frame
    /// taken, nor one handed back through memory for its caller to copy (a copy that
    /// reads the frame's bytes just after they were written, each in its own size,
    /// waits for them to reach the cache: 2.5% of Amazons' playout time).
    #[inline]
    pub fn make_forward(&self, st: &mut State<W>, m: &Move) {
        self.make_in(st, m, &mut None);
    }

    /// Plays a move up to the first `choose` of its effects and lists the cells it offers
    /// (in `options`). Returns the frame that undoes what was done, and whether a `choose`
    /// was reached.
    pub fn probe(&self, st: &mut State<W>, m: &Move, options: &mut Vec<Cell>) -> (Frame, bool) {
        let frame = st.frame();
        (frame, self.make_in(st, m, &mut Some(options)))
    }

    /// Plays a move, up to the first `choose` of its effects when probing: whether it
    /// stopped there.
    fn make_in(&self, st: &mut State<W>, m: &Move, probe: &mut Option<&mut Vec<Cell>>) -> bool {
        let me = st.s.to_move;
        let keys = self.keys.as_ref();
        let mut cx = Ctx::new(me);
        cx.from = m.from;
        cx.to = m.to;
        cx.slots = m.slots;
        cx.cell_choice = m.cell_choice;
        let mut stopped = false;
        match m.kind {
            MoveKind::Normal if m.hops > 0 => {
                // A chain: each hop found again from where the piece stands, by where it lands.
                let mut at = m.from;
                for &next in &m.path[..m.hops as usize] {
                    let Some(h) = self.hop(st, m, at, next) else {
                        break;
                    };
                    self.move_piece(st, &h);
                    if h.effect != NONE {
                        let mut hcx = cx;
                        hcx.from = h.from;
                        hcx.to = h.to;
                        hcx.slots = h.slots;
                        stopped =
                            self.effects(st, &mut hcx, &self.blocks[h.effect as usize], probe);
                        cx.cell_choice = hcx.cell_choice;
                        cx.again |= hcx.again;
                        if stopped {
                            break;
                        }
                    }
                    at = next;
                }
            }
            MoveKind::Normal => self.move_piece(st, m),
            MoveKind::Place => {
                st.put(&self.codes, keys, m.to, self.codes.code(me, m.piece));
                let left = st.hand[me as usize][m.piece as usize] - 1;
                st.set_hand(keys, me, m.piece, left);
            }
            // Its effects start by putting a piece on the target: the cell and the hash
            // end as they would after both puts.
            MoveKind::Create if m.effect != NONE && self.puts_on_to[m.effect as usize] => {}
            MoveKind::Create => st.put(&self.codes, keys, m.to, self.codes.code(me, m.piece)),
            MoveKind::Action => {
                stopped = self.effects(st, &mut cx, &self.actions[m.piece as usize].1, probe);
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
            if !stopped && m.effect != NONE && m.hops == 0 && m.kind != MoveKind::Action {
                stopped = self.effects(st, &mut cx, &self.blocks[m.effect as usize], probe);
            }
            if m.kind != MoveKind::Action {
                for (pieces, block) in &self.after {
                    if stopped {
                        break;
                    }
                    if pieces >> m.piece & 1 != 0 {
                        let mut acx = Ctx::new(me);
                        acx.from = m.from;
                        acx.to = m.to;
                        acx.cell_choice = cx.cell_choice;
                        stopped = match &block[..] {
                            // A block that is one `if` (crowning, promotion) asks its
                            // condition here: most moves take a branch with nothing in it,
                            // and run no effect at all.
                            [
                                CEffect::If {
                                    cond,
                                    then,
                                    otherwise,
                                },
                            ] => self.branch(st, &mut acx, cond, then, otherwise, probe),
                            _ => self.effects(st, &mut acx, block, probe),
                        };
                        cx.cell_choice = acx.cell_choice;
                        cx.again |= acx.again;
                    }
                }
            }
        }
        if stopped {
            return true;
        }
        self.end_move(st, me, cx.again, keys);
        false
    }

    /// The scalars at a move's end: the ply counted, and the turn passed unless the
    /// move asked to go `again` (the side's hash key turned with it when `keys` is
    /// given).
    #[inline(always)]
    fn end_move(&self, st: &mut State<W>, me: u8, again: bool, keys: Option<&Keys>) {
        let s = &mut st.s;
        s.previous = me;
        s.ply += 1;
        if again {
            s.streak += 1;
        } else {
            s.streak = 0;
            s.turns += 1;
            let next = self.after(me);
            if let Some(k) = keys {
                s.hash ^= k.side(me) ^ k.side(next);
            }
            s.to_move = next;
        }
    }

    /// Whether `move_bare` plays `m` as `make` would in position `st`: a placement or a
    /// plain move with no effect block, no `after move` block awake for its piece
    /// (`after_awake`), in a game with no hash.
    #[inline(always)]
    pub fn is_bare(&self, st: &State<W>, m: &Move) -> bool {
        self.keys.is_none() && self.is_plain(st, m)
    }

    /// Whether `move_bare` plays `m` as `make` would but for the hash: a placement or a
    /// plain move with no effect block and no `after move` block awake for its piece.
    /// A move made only to be judged by `legal if`, which never reads the hash, is made so.
    #[inline(always)]
    pub fn is_plain(&self, st: &State<W>, m: &Move) -> bool {
        // The blocks asked only for a piece they apply to, when one may be asleep.
        Self::plain_shape(m) && self.no_after(st, m.piece, self.after_pieces)
    }

    /// Whether `legal if` judges `m` rightly when it is made with `make_bare`: it
    /// `is_plain`, or it would be but for `after move` blocks that write only what the
    /// condition does not read (`Footprint::unread_after`).
    #[inline(always)]
    pub fn judged_plain(&self, st: &State<W>, m: &Move) -> bool {
        Self::plain_shape(m) && self.no_after(st, m.piece, self.judged_after)
    }

    /// Whether `legal if` judges `m` rightly when it is made with `make_light`: a move
    /// of a piece with an effect block whose writes the condition's footprint can tell
    /// (`Footprint::light`), so that the condition reads no hash, counter or turn, and
    /// no `after move` block that writes what it reads.
    #[inline(always)]
    pub fn judged_light(&self, st: &State<W>, m: &Move) -> bool {
        m.kind == MoveKind::Normal
            && m.hops == 0
            && m.choice == super::state::NO_CHOICE
            && m.effect != NONE
            && self
                .legal_foot
                .as_ref()
                .is_some_and(|fp| fp.light(m.effect))
            && self.no_after(st, m.piece, self.judged_after)
    }

    /// What `make` does for a move that `judged_light`, but for the hash of the two
    /// cells and the `after move` blocks: the piece moves as `move_bare` moves it, with
    /// nothing logged, then its effects run as `make` runs them (logged, with the
    /// scalars as they stand then), then the turn passes. Returns what `unmake_light`
    /// needs.
    #[inline(always)]
    pub fn make_light(&self, st: &mut State<W>, m: &Move) -> Bare {
        let b = Bare::before(st, m);
        let me = st.s.to_move;
        self.start_bare(st, me, m.piece, m.from, m.to);
        let mut cx = Ctx::new(me);
        (cx.from, cx.to, cx.slots, cx.cell_choice) = (m.from, m.to, m.slots, m.cell_choice);
        self.effects(st, &mut cx, &self.blocks[m.effect as usize], &mut None);
        self.end_move(st, me, cx.again, None);
        b
    }

    /// Undoes `make_light`: the effects' writes and the scalars from the log, then the
    /// two cells as `unmake_bare` puts them back.
    #[inline(always)]
    pub fn unmake_light(&self, st: &mut State<W>, b: Bare) {
        st.undo(&self.codes, b.frame);
        let me = st.s.to_move;
        st.unmove_bare(&self.codes, me, b.piece, b.from, b.to, b.was);
    }

    /// A placement or a plain move with no effect block (its `after move` blocks aside).
    #[inline(always)]
    fn plain_shape(m: &Move) -> bool {
        matches!(m.kind, MoveKind::Normal | MoveKind::Place) && m.effect == NONE && m.hops == 0
    }

    /// What `make` does for a move that `is_bare` (`from` is `NONE` for a placement):
    /// the cells, the hand and the turn, nothing logged. A playout's position is never
    /// taken back; `make_bare` keeps what undoes the move itself.
    #[inline(always)]
    pub fn move_bare(&self, st: &mut State<W>, piece: u8, from: Cell, to: Cell) {
        let me = st.s.to_move;
        self.start_bare(st, me, piece, from, to);
        self.end_move(st, me, false, None);
    }

    /// A move's start as `move_bare` makes it: the cells (or the hand) written with
    /// nothing logged, then the scalars a move sets before its effects.
    #[inline(always)]
    fn start_bare(&self, st: &mut State<W>, me: u8, piece: u8, from: Cell, to: Cell) {
        if from == NONE {
            st.write_unlogged(&self.codes, to, self.codes.code(me, piece));
            st.hand[me as usize][piece as usize] -= 1;
        } else {
            let code = st.board[from as usize];
            st.write_unlogged(&self.codes, from, 0);
            st.write_unlogged(&self.codes, to, code);
        }
        let s = &mut st.s;
        s.last_from = from;
        s.last_to = to;
        s.passes = 0;
        s.moves_made[me as usize] += 1;
    }

    /// Makes a move that `is_plain` with `move_bare`, keeping what undoes it: the
    /// scalars and the target's old content (`unmake_bare`). Its hash is not kept.
    #[inline(always)]
    pub fn make_bare(&self, st: &mut State<W>, m: &Move) -> Bare {
        let b = Bare::before(st, m);
        self.move_bare(st, m.piece, m.from, m.to);
        b
    }

    /// The hash `make` would have left after a move made with `make_bare`, which leaves
    /// the hash (`st.s.hash`) as it was before (`keys`: the game's).
    pub fn bare_hash(&self, keys: &Keys, st: &State<W>, b: &Bare) -> u64 {
        let me = st.s.previous;
        let code = st.board[b.to as usize];
        let mut hash = st.s.hash ^ keys.side(me) ^ keys.side(st.s.to_move);
        // What the target held when the piece came: nothing, if it left that very cell.
        let mut was = b.was;
        if b.from == NONE {
            let left = st.hand[me as usize][b.piece as usize];
            hash ^= keys.hand(me, b.piece, left + 1) ^ keys.hand(me, b.piece, left);
        } else {
            hash ^= keys.cell(b.from, code);
            if b.from == b.to {
                was = 0;
            }
        }
        hash ^ keys.cell(b.to, was) ^ keys.cell(b.to, code)
    }

    /// Undoes a move made with `make_bare`.
    #[inline(always)]
    pub fn unmake_bare(&self, st: &mut State<W>, b: Bare) {
        st.undo_bare(&self.codes, b.frame, b.piece, b.from, b.to, b.was);
    }

    /// Undoes a move made with `make` (or `probe`).
    #[inline]
    pub fn unmake(&self, st: &mut State<W>, frame: Frame) {
        st.undo(&self.codes, frame);
    }

    /// The piece moves from `from` to `to`, taking whatever stands there.
    #[inline]
    fn move_piece(&self, st: &mut State<W>, m: &Move) {
        let keys = self.keys.as_ref();
        let k = st.board[m.from as usize];
        st.put(&self.codes, keys, m.from, 0);
        st.put(&self.codes, keys, m.to, k);
    }

    /// One hop of a chain: the piece moves, then the hop's own effects run. Returns the
    /// frame that undoes it.
    pub fn make_hop(&self, st: &mut State<W>, h: &Move) -> Frame {
        let frame = st.frame();
        self.move_piece(st, h);
        if h.effect != NONE {
            let mut cx = Ctx::new(st.s.to_move);
            cx.from = h.from;
            cx.to = h.to;
            cx.slots = h.slots;
            self.effects(st, &mut cx, &self.blocks[h.effect as usize], &mut None);
        }
        frame
    }

    /// The hop of chain move `m` from `at` that lands on `next`.
    fn hop(&self, st: &State<W>, m: &Move, at: Cell, next: Cell) -> Option<Move> {
        let (body, _, gate) = &self.chains[m.effect as usize];
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = at;
        cx.slots = m.slots;
        // The first hop that lands there, kept as generation meets it: nothing listed.
        let mut found = None;
        let first = |hcx: &Ctx, to, then| {
            found = (to == next).then(|| super::generate::made(hcx, m.piece, to, then));
            found.is_some()
        };
        if let Some(g) = gate
            && self.gate_hops(g, st, &mut cx, first).is_some()
        {
            return found;
        }
        let mut none = Vec::new();
        let mut e = Emit::new(Mode::Find(next), &mut none);
        e.piece = m.piece;
        self.generate(st, &mut cx, body, &mut e);
        e.found.slot().take()
    }

    /// The cells a `choose` offers.
    fn options(&self, st: &State<W>, cx: &Ctx, slot: u8, from: &ChooseC<W>, out: &mut Vec<Cell>) {
        out.clear();
        match from {
            ChooseC::Where(cond) => {
                for c in 0..self.geo.cells {
                    let mut ccx = *cx;
                    ccx.slots[slot as usize] = c;
                    if cond(self, st, &mut ccx) {
                        out.push(c);
                    }
                }
            }
            ChooseC::By { start, pattern } => {
                let mut ccx = *cx;
                let s = start(self, st, &mut ccx);
                if s == NONE {
                    return;
                }
                ccx.from = s;
                let mut found = Vec::new();
                let mut e = Emit::new(Mode::Collect, &mut found);
                self.generate(st, &mut ccx, std::slice::from_ref(pattern), &mut e);
                out.extend(found.iter().map(|m| m.to));
                out.sort_unstable();
                out.dedup();
            }
        }
    }

    /// The branch of an `if` its condition picks, run (an empty one costs no call).
    /// True when the effects stopped.
    #[inline(always)]
    fn branch(
        &self,
        st: &mut State<W>,
        cx: &mut Ctx,
        cond: &CondFn<W>,
        then: &[CEffect<W>],
        otherwise: &[CEffect<W>],
        probe: &mut Option<&mut Vec<Cell>>,
    ) -> bool {
        let branch = if cond(self, st, cx) { then } else { otherwise };
        !branch.is_empty() && self.effects(st, cx, branch, probe)
    }

    /// Runs effects. When probing, the first `choose` lists its cells and stops
    /// everything (returns true).
    fn effects(
        &self,
        st: &mut State<W>,
        cx: &mut Ctx,
        effects: &[CEffect<W>],
        probe: &mut Option<&mut Vec<Cell>>,
    ) -> bool {
        effects.iter().any(|e| self.effect(st, cx, e, probe))
    }

    /// Applies `op` by `v` to player `me`'s counter.
    #[inline(always)]
    fn count_by(&self, st: &mut State<W>, me: u8, counter: u8, op: CounterOp, v: i32) {
        let old = st.counters[me as usize][counter as usize];
        let new = match op {
            CounterOp::Add => old.saturating_add(v),
            CounterOp::Sub => old.saturating_sub(v),
            CounterOp::Assign => v,
        };
        st.set_counter(me, counter, new);
    }

    /// Runs one effect (see `effects`). Kept out of `effects`' loop so that the loads the
    /// many arms need are made in their own arms, not all at every call.
    #[inline(never)]
    fn effect(
        &self,
        st: &mut State<W>,
        cx: &mut Ctx,
        e: &CEffect<W>,
        probe: &mut Option<&mut Vec<Cell>>,
    ) -> bool {
        let keys = self.keys.as_ref();
        match e {
            CEffect::If {
                cond,
                then,
                otherwise,
            } => {
                if self.branch(st, cx, cond, then, otherwise, probe) {
                    return true;
                }
            }
            CEffect::For {
                slot,
                dirs,
                body,
                guard,
                adjacent,
            } => {
                let near = match guard {
                    Some(t) if cx.to != NONE => t.set(self, st, cx),
                    _ => None,
                };
                if let Some(near) = near
                    && *adjacent
                    && !near.intersects(&self.geo.adjacent[cx.to as usize])
                {
                    return false;
                }
                for &d in dirs {
                    let d = self.dir(cx, d);
                    if let Some(near) = near {
                        let n = self.step(cx.to, d);
                        if n == NONE || !near.has(n) {
                            continue;
                        }
                    }
                    cx.slots[*slot as usize] = d as u16;
                    if self.effects(st, cx, body, probe) {
                        return true;
                    }
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
                let v = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                self.count_by(st, cx.me, *counter, *op, v);
            }
            CEffect::CounterBy { counter, op, value } => {
                self.count_by(st, cx.me, *counter, *op, *value)
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
                    return false;
                }
                let d = self.dir(cx, *dir);
                for &x in self.geo.board.ray(c, d) {
                    if !test.holds(self, st, cx, x) {
                        break;
                    }
                    cx.slots[*slot as usize] = x;
                    if self.effects(st, cx, body, probe) {
                        return true;
                    }
                }
            }
            CEffect::Flip(at) => {
                let c = at(self, st, cx);
                let k = if c == NONE { 0 } else { st.board[c as usize] };
                let owner = self.codes.owner[k as usize];
                if k != 0 && owner < self.players {
                    // To the mover; the mover's own piece goes to the next player.
                    let to = if owner == cx.me {
                        self.after(owner)
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
            CEffect::Put { piece, at, neutral } => {
                let c = at(self, st, cx);
                if c != NONE {
                    let owner = if *neutral { self.players } else { cx.me };
                    let code = self.codes.code(owner, piece_ref(cx, *piece));
                    st.put(&self.codes, keys, c, code);
                }
            }
            CEffect::Choose { slot, from, body } => {
                if let Some(out) = probe {
                    self.options(st, cx, *slot, from, out);
                    return true;
                }
                // The move carries the choice; a move made when there was nothing to
                // choose carries none, and the body does not run.
                if cx.cell_choice != NONE {
                    cx.slots[*slot as usize] = cx.cell_choice;
                    cx.cell_choice = NONE;
                    if self.effects(st, cx, body, probe) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

fn piece_ref(cx: &Ctx, p: PieceRef) -> u8 {
    match p {
        PieceRef::Const(p) => p,
        PieceRef::Var(s) => cx.slots[s as usize] as u8,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::core::Core;
    use crate::engine::movegen::Scratch;
    use crate::engine::search::Rng;

    /// Through random games, every move that `is_bare` leaves the very state `make`
    /// leaves, sets of cells included.
    #[test]
    fn a_bare_move_is_made_as_make_makes_it() {
        let mut bare = 0;
        for name in [
            "wolf-and-sheep",
            "breakthrough",
            "tictactoe",
            "english-draughts",
        ] {
            let core = Core::<1>::example(name);
            let mut sc = Scratch::default();
            for i in 0..50 {
                let mut rng = Rng::for_playout(11, i);
                let mut st = core.start();
                for _ in 0..300 {
                    let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) else {
                        break;
                    };
                    let mut made = st.clone();
                    core.make(&mut made, &m);
                    made.commit();
                    if core.is_bare(&st, &m) {
                        bare += 1;
                        core.move_bare(&mut st, m.piece, m.from, m.to);
                        assert!(st == made, "{name}: {m:?}");
                        assert_eq!(st.by_owner, made.by_owner, "{name}: {m:?}");
                        assert_eq!(st.by_type, made.by_type, "{name}: {m:?}");
                        assert_eq!(st.occupied, made.occupied, "{name}: {m:?}");
                    } else {
                        st = made;
                    }
                }
            }
        }
        assert!(bare > 1000, "only {bare} bare moves");
    }

    /// Men that jump an enemy man, removing it, marking its cell and counting the
    /// jump, under a condition on the lines from the King: effects that `Writes` tells.
    const JUMPS: &str = "players { white black }\nboard 6 x 6\nflag mark = none\n\
        piece King letter K\npiece Man letter M\ncounter jumps = 0\n\
        setup { white King a1  white Man b2 c2 d2 b3\n black King f6  black Man b5 c5 d5 e5 e4 }\n\
        moves King { step all to not friend }\n\
        moves Man { for d in all { let over = from + d\n\
          move to over + d if over is enemy Man and to is empty then {\n\
            remove over  set mark at over  jumps += 1 } }\n\
          step all to empty }\n\
        legal if not (any d in orthogonal: first occupied from find friend King toward d is enemy Man)\n\
        pass when no moves\n\
        end { when no moves and passes >= 1: draw  when jumps >= 6: draw }\n";

    /// Through random games, every legal move that `judged_light` (Shakti's jumps,
    /// which clear the tile passed over; `JUMPS`'s, which take a man, mark its cell and
    /// count) leaves the state `make` leaves but for the hash, sets of cells included,
    /// and `unmake_light` gives the position back whole.
    #[test]
    fn a_move_made_light_is_made_as_make_makes_it_but_for_the_hash() {
        let shakti = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/shakti.game");
        let shakti = std::fs::read_to_string(shakti).expect("the game");
        for (path, text) in [("shakti", &shakti[..]), ("jumps", JUMPS)] {
            let core = Core::<1>::of_text(text);
            let least = 1000;
            let (mut sc, mut light, mut moves) = (Scratch::default(), 0, Vec::new());
            for i in 0..60 {
                let mut rng = Rng::for_playout(3, i);
                let mut st = core.start();
                for _ in 0..200 {
                    core.legal_moves(&mut st, &mut moves);
                    for m in &moves {
                        if !core.judged_light(&st, m) {
                            continue;
                        }
                        light += 1;
                        let before = st.clone();
                        let mut made = st.clone();
                        core.make(&mut made, m);
                        let light = core.make_light(&mut st, m);
                        made.s.hash = st.s.hash;
                        assert!(st == made, "{path}: {m:?}");
                        assert_eq!(st.by_owner, made.by_owner, "{path}: {m:?}");
                        assert_eq!(st.by_type, made.by_type, "{path}: {m:?}");
                        assert_eq!(st.occupied, made.occupied, "{path}: {m:?}");
                        core.unmake_light(&mut st, light);
                        assert!(st == before, "{path}: {m:?} not undone");
                        assert_eq!(st.by_owner, before.by_owner, "{path}: {m:?}");
                        assert_eq!(st.occupied, before.occupied, "{path}: {m:?}");
                    }
                    let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) else {
                        break;
                    };
                    core.make(&mut st, &m);
                    st.commit();
                }
            }
            assert!(light >= least, "{path}: only {light} moves made light");
        }
    }

    /// A shot made from nothing whose effects first put a neutral arrow on its target,
    /// and a counter set by constants: the cell holds the arrow alone, the hash is the
    /// position's (the game keeps one, for its repetition rule), and undoing the move
    /// gives the position back.
    #[test]
    fn an_arrow_put_over_a_new_piece_is_made_and_undone_whole() {
        let source = "game \"T\" { }\nplayers { white black }\nboard 5 x 5\n\
            piece Queen letter Q\npiece Arrow letter A\n\
            setup { white Queen a1  black Queen e5 }\ncounter shooting = 0\n\
            moves Queen {\n\
              if shooting == 0 { slide all to empty then { shooting = 1  again } }\n\
              if shooting == 1 and from == last-to {\n\
                new slide all to empty then { put neutral Arrow at to  shooting = 0 } }\n\
            }\nend { when repetitions >= 3: draw  when no moves: next loses }\n";
        let core = Core::<1>::of_text(source);
        assert!(core.puts_on_to.contains(&true));
        let mut sc = Scratch::default();
        let (mut shots, arrow) = (0, core.codes.code(core.players, 1));
        for i in 0..40 {
            let mut rng = Rng::for_playout(5, i);
            let mut st = core.start();
            while let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) {
                let before = st.clone();
                let frame = core.make(&mut st, &m);
                assert_eq!(st.s.hash, core.hash(&st), "{m:?}");
                if m.kind == crate::engine::state::MoveKind::Create {
                    shots += 1;
                    assert_eq!(st.board[m.to as usize], arrow, "{m:?}");
                    assert_eq!(st.counters[before.s.to_move as usize][0], 0);
                } else {
                    assert_eq!(st.counters[before.s.to_move as usize][0], 1);
                }
                core.unmake(&mut st, frame);
                assert!(st == before, "{m:?} not undone");
                core.make(&mut st, &m);
                st.commit();
            }
        }
        assert!(shots > 100, "only {shots} shots");
    }
}
