//! The legal moves of a position: every candidate of the mover's pieces on the board and in
//! hand, without duplicates (the first rule to produce a move keeps it), minus those that
//! fail `legal if`. Also their number without listing them, and one of them drawn
//! uniformly at random without listing them either.

use super::batch::Batch;
use super::bits::Bits;
use super::core::{Core, GatedClass};
use super::evaluate::{CondFn, Ctx};
use super::generate::{ANY_CLASS, CLASS_SLOTS, Emit, Found, Mode, class_slot};
use super::placeplay::Drawn;
use super::position::Played;
use super::search::Rng;
use super::state::{Cell, Move, MoveKind, NO_CHOICE, NO_CLASS, NONE, State};
use crate::ir::MAX_PIECES;

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
    /// Per piece, its candidates per class slot (`random_by_class`).
    split: Vec<(Cell, u8, [u32; CLASS_SLOTS])>,
    rejected: Vec<u32>,
    moves: Vec<Move>,
    /// The actions the player to move may take, by index.
    actions: Vec<u8>,
    /// For pieces in hand whose rules are one placement set (`Core::placed`), drawn by
    /// `random_by_bounds`: the origin's index, the placement's effect block, and where
    /// its cells start in `sets` (a set's words, in order).
    placed: Vec<(u32, u16, u32)>,
    sets: Vec<u64>,
    /// For piece types drawn together (`Core::batch`): the origin's index, the type, and
    /// where its shifts' target sets start in `sets`.
    shifted: Vec<(u32, u8, u32)>,
    /// In `random_by_bounds`, the last origin whose decoding missed (its slots were more
    /// than its candidates), with those candidates in order: a later draw landing on it
    /// takes its candidate from them instead of running its rules again.
    missed: Option<u32>,
    pub(super) missed_moves: Vec<Move>,
    pub(super) missed_words: Vec<u64>,
    /// What the run being decoded records (`Emit::record`).
    words: Vec<u64>,
    /// The shifts' target sets of `Core::draw_shifted`, apart from `sets`: it is sized
    /// once and written in place, where `random_by_bounds` clears `sets` and pushes.
    shifted_sets: Vec<u64>,
    /// `draw`'s candidates, listed once a drawn one failed `legal if` (`draw_listed`).
    listed: Vec<Move>,
    /// An earlier piece's moves, for `made_before` (a vector grown afresh for each was
    /// 6% of Ataxx's instructions in its allocator).
    made: Vec<Move>,
    /// Whether the move a draw returns stays made by its judge (`Kept`).
    pub keep: Kept,
}

/// A playout plays the move it draws: with `on`, the judge of `legal if` that passes the
/// drawn move leaves it made, as `made` says, rather than undoing it for the playout to
/// make it again: bare when `make_bare` does all `make` does but the hash (which
/// `Core::bare_hash` then completes), else logged.
#[derive(Default, Clone)]
pub struct Kept {
    pub on: bool,
    pub made: Option<Played>,
}

/// Moves already listed, to drop later moves written alike in linear time: per kind,
/// origin (or piece) and piece choice, the cells moved to; moves that a cell does not tell
/// apart (chains, choices, actions) are compared one by one.
#[derive(Default)]
struct Seen<const W: usize> {
    keys: Vec<(MoveKind, Cell, u8)>,
    targets: Vec<Bits<W>>,
    others: Vec<Move>,
}

impl<const W: usize> Seen<W> {
    fn clear(&mut self) {
        self.keys.clear();
        self.targets.clear();
        self.others.clear();
    }

    /// Records `m`; false when a move written alike was recorded before.
    fn first(&mut self, m: &Move) -> bool {
        if m.hops > 0 || m.cell_choice != NONE || m.to == NONE {
            if self.others.iter().any(|x| x.same_as(m)) {
                return false;
            }
            self.others.push(*m);
            return true;
        }
        let origin = match m.kind {
            MoveKind::Normal => m.from,
            _ => m.piece as Cell,
        };
        let key = (m.kind, origin, m.choice);
        let i = match self.keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.keys.push(key);
                self.targets.push(Bits::EMPTY);
                self.keys.len() - 1
            }
        };
        let fresh = !self.targets[i].has(m.to);
        self.targets[i].insert(m.to);
        fresh
    }
}

/// The fewest pieces of a type counted together by `Core::count_batch`.
pub(super) const BATCH_FROM: u32 = 2;

/// The fewest pieces of a type drawn together (`Core::shifted_origins`). Their sets cost
/// every ply, a piece's rules only when a draw lands on it: with few pieces, it seldom
/// does.
pub(super) const DRAW_BATCH_FROM: u32 = 4;

impl<const W: usize> Core<W> {
    /// Calls `f` for every piece the player to move could move or place.
    #[inline]
    fn origins(&self, st: &State<W>, f: impl FnMut(Cell, u8)) {
        self.origins_among(st, st.by_owner[st.s.to_move as usize], f);
    }

    /// `origins`, of the pieces on the board only those on `cells`.
    #[inline]
    pub(super) fn origins_among(&self, st: &State<W>, cells: Bits<W>, mut f: impl FnMut(Cell, u8)) {
        let me = st.s.to_move as usize;
        self.board_origins(st, cells, &mut f);
        if !self.hands {
            return;
        }
        for p in 0..self.moves.len() {
            if st.hand[me][p] > 0 {
                f(NONE, p as u8);
            }
        }
    }

    /// The board's part of `origins`: the pieces on `cells` that act on the board.
    #[inline(always)]
    fn board_origins(&self, st: &State<W>, cells: Bits<W>, mut f: impl FnMut(Cell, u8)) {
        // No cell left (every piece drawn from its type's sets): no gate to ask.
        let cells = if self.origin_gates.is_empty() || cells.is_empty() {
            cells
        } else {
            self.through_gates(st, cells)
        };
        if self.all_act_on_board {
            for from in cells.iter() {
                f(from, self.codes.piece[st.board[from as usize] as usize]);
            }
        } else if !self.none_act_on_board {
            for from in cells.iter() {
                let piece = self.codes.piece[st.board[from as usize] as usize];
                if self.acts_on_board[piece as usize] {
                    f(from, piece);
                }
            }
        }
    }

    /// Runs one piece's move rules into an emitter.
    #[inline]
    pub(super) fn run(&self, st: &State<W>, from: Cell, piece: u8, e: &mut Emit<W>) {
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        e.piece = piece;
        self.generate(st, &mut cx, &self.moves[piece as usize], e);
    }

    /// The legal moves of the player to move, a pass excluded, in generation order.
    pub fn legal_moves(&self, st: &mut State<W>, out: &mut Vec<Move>) {
        out.clear();
        let view: &State<W> = st;
        // A piece's rules may repeat one of its moves; pieces made from nothing may be
        // made from several pieces. Either way the first keeps it.
        let mut own = Seen::<W>::default();
        let mut made = Seen::<W>::default();
        self.origins(view, |from, piece| {
            self.collect_first(view, from, piece, ANY_CLASS, out, &mut own, &mut made)
        });
        if self.simple {
            self.retain_legal(st, out);
            return;
        }
        self.add_actions(st, out);
        if self.any_choice {
            self.expand_choices(st, out);
        }
        self.retain_legal(st, out);
        self.keep_priority(out);
    }

    /// Runs a piece's rules, appending its moves of class `class` to `out`. A piece's
    /// rules may repeat one of its moves, and pieces made from nothing may be made from
    /// several pieces (`made` holds those of the pieces before): either way the first
    /// keeps it.
    #[allow(clippy::too_many_arguments)]
    fn collect_first(
        &self,
        st: &State<W>,
        from: Cell,
        piece: u8,
        class: u8,
        out: &mut Vec<Move>,
        own: &mut Seen<W>,
        made: &mut Seen<W>,
    ) {
        let first = out.len();
        let mut e = Emit::new(Mode::Collect, out);
        e.class = class;
        self.run(st, from, piece, &mut e);
        let repeats = self.may_duplicate[piece as usize];
        if !repeats && !self.creates {
            return;
        }
        own.clear();
        // A piece's plain moves (from its cell, no choice, no hops) are told apart by
        // their targets alone: one set, with no search for the key. No other move has
        // their key, so `own` never sees one of them.
        let mut plain = Bits::<W>::EMPTY;
        let mut kept = first;
        for i in first..out.len() {
            let m = out[i];
            let keep = if m.kind == MoveKind::Create {
                made.first(&m)
            } else if !repeats {
                true
            } else if m.kind == MoveKind::Normal
                && m.from == from
                && m.hops == 0
                && m.choice == NO_CHOICE
                && m.cell_choice == NONE
                && m.to != NONE
            {
                let fresh = !plain.has(m.to);
                plain.insert(m.to);
                fresh
            } else {
                own.first(&m)
            };
            if keep {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
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
    #[inline(always)]
    pub fn is_legal(&self, st: &mut State<W>, m: &Move) -> bool {
        match &self.legal {
            None => true,
            Some(legal) => self.judge(st, m, legal),
        }
    }

    /// `is_legal` for a move a draw returns when it passes: left made when `keep.on`
    /// (`Kept`).
    #[inline(always)]
    fn drawn_legal(&self, st: &mut State<W>, m: &Move, keep: &mut Kept) -> bool {
        match &self.legal {
            None => true,
            Some(legal) if keep.on => self.judge_kept(st, m, legal, &mut keep.made),
            Some(legal) => self.judge(st, m, legal),
        }
    }

    /// `judge`, leaving a move that passes made: by `make_bare` when that is all `make`
    /// does but for the hash, else by `make` (even where `judge` would judge the move
    /// made bare: most moves drawn pass, and are then made once, not twice).
    #[inline(never)]
    fn judge_kept(
        &self,
        st: &mut State<W>,
        m: &Move,
        legal: &CondFn<W>,
        made: &mut Option<Played>,
    ) -> bool {
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = m.from;
        cx.to = m.to;
        let played = if self.is_plain(st, m) {
            Played::Bare(self.make_bare(st, m))
        } else {
            Played::Logged(self.make(st, m))
        };
        if legal(self, st, &mut cx) {
            *made = Some(played);
            return true;
        }
        self.unmake_played(st, played);
        false
    }

    /// `is_legal` for a game with `legal if`: out of line, so that the games without one
    /// pay only the test for it where a move is drawn.
    #[inline(never)]
    fn judge(&self, st: &mut State<W>, m: &Move, legal: &CondFn<W>) -> bool {
        let me = st.s.to_move;
        let mut cx = Ctx::new(me);
        cx.from = m.from;
        cx.to = m.to;
        if self.judged_plain(st, m) {
            // Nothing logged and no hash kept: the two cells and the scalars are put
            // back from what was there.
            let bare = self.make_bare(st, m);
            let ok = legal(self, st, &mut cx);
            self.unmake_bare(st, bare);
            return ok;
        }
        if self.judged_light(st, m) {
            let light = self.make_light(st, m);
            let ok = legal(self, st, &mut cx);
            self.unmake_light(st, light);
            return ok;
        }
        let frame = self.make(st, m);
        let ok = legal(self, st, &mut cx);
        self.unmake(st, frame);
        ok
    }

    /// How many legal moves the player to move has (a pass excluded).
    pub fn count_legal(&self, st: &mut State<W>, buf: &mut Vec<Move>) -> u32 {
        if self.counts_in_bulk {
            let mut none = Vec::new();
            let mut e = Emit::new(Mode::Count, &mut none);
            // Pieces whose rules are shifts of their set are counted together; the
            // others one by one (in hand, steps and slides make nothing).
            let me = st.s.to_move as usize;
            let mut together = Bits::EMPTY;
            for &piece in &self.batched {
                let mine = st.by_owner[me].and(st.by_type[piece as usize]);
                // A fill costs as many rounds as the longest ray, a lone piece's walk
                // only its own ray's length.
                let batch = self.batch[piece as usize].as_ref().expect("batched");
                if mine.count() >= BATCH_FROM
                    && let Some(holding) = self.guards_holding(st, piece, batch)
                {
                    together = together.or(mine);
                    e.count += self.count_batch(st, piece, mine, batch, holding);
                }
            }
            let run = |from, piece| self.run(st, from, piece, &mut e);
            self.board_origins(st, st.by_owner[me].minus(together), run);
            // Each type's count of cells, kept for the types placed like it; and the
            // count of each placement's cells with its guard left out, for the types
            // whose placement is the same under another guard.
            let mut placeable = [0u32; MAX_PIECES];
            let mut unguarded = [u32::MAX; MAX_PIECES];
            for p in 0..self.moves.len() {
                if st.hand[me][p] == 0 {
                    continue;
                }
                if self.counted_placed[p] {
                    let like = self.placed_like[p] as usize;
                    if like == p || st.hand[me][like] == 0 {
                        placeable[p] = self.placeable(st, p, &mut unguarded);
                    } else {
                        placeable[p] = placeable[like];
                    }
                    e.count += placeable[p];
                } else {
                    self.run(st, NONE, p as u8, &mut e);
                }
            }
            let mut cx = Ctx::new(st.s.to_move);
            let actions = self
                .actions
                .iter()
                .filter(|(when, _)| when(self, st, &mut cx));
            return e.count + actions.count() as u32;
        }
        if self.judges_in_bulk {
            return self.count_judged(st, buf);
        }
        self.legal_moves(st, buf);
        buf.len() as u32
    }

    /// How many cells a piece type in hand that is `counted_placed` may be placed on:
    /// past its guard, if any, the count of its placement's cells, shared through
    /// `unguarded` with the types whose placement is the same (`Core::placed_set_like`).
    #[inline(always)]
    fn placeable(&self, st: &State<W>, p: usize, unguarded: &mut [u32; MAX_PIECES]) -> u32 {
        let mut cx = Ctx::new(st.s.to_move);
        let Some(place) = Self::past_guard(&self.moves[p], |cond| cond(self, st, &mut cx)) else {
            return 0;
        };
        let like = self.placed_set_like[p] as usize;
        if unguarded[like] == u32::MAX {
            unguarded[like] = self.placements(st, &mut cx, place).0.count();
        }
        unguarded[like]
    }

    /// A legal move drawn uniformly at random, or `None` when there is none; no move list
    /// is built unless choices or `priority longest` need one (`Core::list_draws`). With
    /// priority between classes, the draw is among the moves of the first class that has
    /// a legal one, class by class, then among the moves of no class.
    pub fn random_legal(&self, st: &mut State<W>, rng: &mut Rng, sc: &mut Scratch) -> Option<Move> {
        let mut out = None;
        self.random_into(st, rng, sc, &mut out);
        out
    }

    /// `random_legal`, the move written in `out`. The draws most games take write it
    /// where they make it: a move handed back through memory is copied by its caller in
    /// wide loads of bytes just written each in its own size, which wait for the
    /// stores to reach the cache.
    pub fn random_into(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        out: &mut Option<Move>,
    ) {
        if self.list_draws {
            self.legal_moves(st, &mut sc.moves);
            *out = (!sc.moves.is_empty()).then(|| sc.moves[rng.below(sc.moves.len())]);
            return;
        }
        let Some(priority) = &self.program.game.priority else {
            if self.only_placed {
                match self.random_placed(st, rng) {
                    Drawn::Undecided => {}
                    drawn => {
                        *out = self.drawn_move(drawn);
                        return;
                    }
                }
            }
            // Upper bounds per piece do not cover chains, whose paths branch.
            if self.chains.is_empty() {
                // A turn's later move (a shot after the queen's move) is often one
                // piece's: the gates tell, before any type's sets are built.
                if st.s.streak > 0
                    && self.lone_by_sets != 0
                    && !self.origin_gates.is_empty()
                    && self.lone_continued(st, rng, sc, out)
                {
                    return;
                }
                if self.draws_shifted && self.draw_shifted_into(st, rng, &mut sc.shifted_sets, out)
                {
                    return;
                }
                self.random_bounded_into::<false>(st, rng, sc, out);
                return;
            }
            *out = self.random_exact(st, rng, sc, ANY_CLASS);
            return;
        };
        self.random_by_priority(st, rng, sc, priority, out);
    }

    /// `random_legal` in a game with `priority`.
    fn random_by_priority(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        priority: &crate::ir::Priority,
        out: &mut Option<Move>,
    ) {
        if let Some(gated) = &self.gated_classes {
            let classes = priority.classes.len() as u8;
            return self.random_by_gates(st, rng, sc, gated, classes, out);
        }
        if priority.classes.len() < CLASS_SLOTS {
            *out = self.random_by_class(st, rng, sc, priority.classes.len() as u8);
            return;
        }
        for class in 0..priority.classes.len() as u8 {
            *out = self.random_exact(st, rng, sc, class);
            if out.is_some() {
                return;
            }
        }
        *out = self.random_exact(st, rng, sc, NO_CLASS);
    }

    /// `random_by_bounds` for moves of any class, or with `UNCLASSED` of no class, then
    /// `random_exact` when it gives up (`random_bounded_into`, for tests).
    #[cfg(test)]
    pub(super) fn random_bounded<const UNCLASSED: bool>(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
    ) -> Option<Move> {
        let mut out = None;
        self.random_bounded_into::<UNCLASSED>(st, rng, sc, &mut out);
        out
    }

    /// `random_by_bounds` for moves of any class, or with `UNCLASSED` of no class, then
    /// `random_exact` when it gives up; the move written in `out` (`random_into`).
    #[inline(always)]
    fn random_bounded_into<const UNCLASSED: bool>(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        out: &mut Option<Move>,
    ) {
        // Copies per case: games with no placement set or no type drawn by its sets keep
        // a draw free of their tests, and the others' draws free of the classes'.
        let drawn = match (
            self.any_placed,
            !self.draw_batches::<UNCLASSED>().0.is_empty(),
        ) {
            (false, false) => self.random_by_bounds::<false, false, UNCLASSED>(st, rng, sc, out),
            (false, true) => self.random_by_bounds::<false, true, UNCLASSED>(st, rng, sc, out),
            (true, false) => self.random_by_bounds::<true, false, UNCLASSED>(st, rng, sc, out),
            (true, true) => self.random_by_bounds::<true, true, UNCLASSED>(st, rng, sc, out),
        };
        if !drawn {
            *out = self.random_exact(st, rng, sc, class_of::<UNCLASSED>());
        }
    }

    /// The piece types drawn by their sets, and their batches: with `UNCLASSED`, those of
    /// the moves of no class (`Core::unclassed`).
    #[inline(always)]
    fn draw_batches<const UNCLASSED: bool>(&self) -> (&[u8], &[Option<Batch<W>>]) {
        if UNCLASSED {
            (&self.drawn_unclassed, &self.unclassed)
        } else {
            (&self.drawn_batched, &self.batch)
        }
    }

    /// A uniform draw class by class when every class is made of gated chains
    /// (`Core::gated_classes`): for a class, only the pieces that could start one of its
    /// chains list their moves, and one is drawn among them; when none has a legal move
    /// of any class, the moves of no class, whose bounds leave the chains out, are drawn
    /// by bounds.
    fn random_by_gates(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        gated: &[GatedClass],
        classes: u8,
        out: &mut Option<Move>,
    ) {
        let me = st.s.to_move;
        for class in 0..classes {
            // The few pieces that could start a chain list their paths, so that the one
            // drawn is not explored a second time.
            sc.moves.clear();
            for g in gated.iter().filter(|g| g.class == class) {
                let piece = g.piece;
                // A type the player has none of (draughts' kings, most of a game) costs
                // no gate.
                let mine = st.by_owner[me as usize].and(st.by_type[piece as usize]);
                if mine.is_empty() {
                    continue;
                }
                let mut cells = Bits::EMPTY;
                for &id in &g.chains {
                    let gate = self.chains[id as usize].2.as_ref().expect("gated");
                    cells = cells.or(self.starts(gate, st, me));
                }
                for from in cells.and(mine).iter() {
                    let at = sc.moves.len();
                    let mut e = Emit::new(Mode::Collect, &mut sc.moves);
                    e.class = class;
                    self.run(st, from, piece, &mut e);
                    // One piece's rules may write one path twice: it is one move.
                    if self.may_duplicate[piece as usize] {
                        let mut kept = at;
                        for i in at..sc.moves.len() {
                            let m = sc.moves[i];
                            if !sc.moves[at..kept].iter().any(|x| x.same_as(&m)) {
                                sc.moves[kept] = m;
                                kept += 1;
                            }
                        }
                        sc.moves.truncate(kept);
                    }
                }
            }
            // Uniform among the legal ones: an illegal draw is set aside, and another
            // drawn among the rest.
            while !sc.moves.is_empty() {
                let i = rng.below(sc.moves.len());
                if self.drawn_legal(st, &sc.moves[i], &mut sc.keep) {
                    *out = Some(sc.moves[i]);
                    return;
                }
                sc.moves.swap_remove(i);
            }
        }
        self.random_bounded_into::<true>(st, rng, sc, out)
    }

    /// The actions the player to move may take, into `sc.actions`.
    fn actions_now(&self, st: &State<W>, sc: &mut Scratch) {
        sc.actions.clear();
        if !self.actions.is_empty() {
            let mut cx = Ctx::new(st.s.to_move);
            for (i, (when, _)) in self.actions.iter().enumerate() {
                if when(self, st, &mut cx) {
                    sc.actions.push(i as u8);
                }
            }
        }
    }

    /// `random_exact` class by class, with the candidates of every class counted in one
    /// pass over the pieces rather than one pass per class.
    fn random_by_class(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        classes: u8,
    ) -> Option<Move> {
        self.actions_now(st, sc);
        sc.split.clear();
        let split = &mut sc.split;
        self.counted(st, Mode::CountByClass, ANY_CLASS, |from, piece, e| {
            split.push((from, piece, e.classes));
        });
        for class in (0..classes).chain([NO_CLASS]) {
            let slot = class_slot(class);
            sc.origins.clear();
            let mut total = 0;
            for &(from, piece, counts) in &sc.split {
                if counts[slot] > 0 {
                    sc.origins.push(Origin {
                        from,
                        piece,
                        count: counts[slot],
                    });
                    total += counts[slot];
                }
            }
            if let Some(m) = self.draw(st, rng, sc, class, total) {
                return Some(m);
            }
        }
        None
    }

    /// The action a candidate index past the pieces' candidates stands for.
    pub(super) fn action(&self, index: usize) -> Move {
        let mut m = Move::PASS;
        m.kind = MoveKind::Action;
        m.piece = index as u8;
        m
    }

    /// A legal move of class `class` (or of any, with `ANY_CLASS`) drawn uniformly:
    /// candidates are counted per piece, one is drawn and decoded, and a duplicate of an
    /// earlier candidate is set aside and another drawn among the rest. Under `legal
    /// if`, the candidates are listed and drawn from the list instead (`draw_listed`).
    /// Actions (of no class) come after the pieces' candidates.
    pub(super) fn random_exact(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        class: u8,
    ) -> Option<Move> {
        self.actions_now(st, sc);
        sc.origins.clear();
        if self.legal.is_some() {
            // Under `legal if`, a draw here follows one that gave up after candidates
            // failed it: listing them once costs about what counting them does, and
            // then no piece's rules run again for each draw.
            self.origins(st, |from, piece| {
                sc.origins.push(Origin {
                    from,
                    piece,
                    count: 0,
                })
            });
            return self.draw_listed(st, rng, sc, class, None);
        }
        let mut total = 0u32;
        let origins = &mut sc.origins;
        self.counted(st, Mode::Count, class, |from, piece, e| {
            origins.push(Origin {
                from,
                piece,
                count: e.count,
            });
            total += e.count;
        });
        self.draw(st, rng, sc, class, total)
    }

    /// Runs the rules of every piece the player to move could move or place into a
    /// counting emitter (`mode`, moves of class `class`), and hands `f` those that have
    /// candidates, with the emitter that counted them.
    fn counted(
        &self,
        st: &State<W>,
        mode: Mode<W>,
        class: u8,
        mut f: impl FnMut(Cell, u8, &Emit<W>),
    ) {
        let mut none = Vec::new();
        self.origins(st, |from, piece| {
            let mut e = Emit::new(mode, &mut none);
            e.class = class;
            self.run(st, from, piece, &mut e);
            if e.count > 0 {
                f(from, piece, &e);
            }
        });
    }

    /// Draws among the `pieces` candidates of class `class` counted per origin in
    /// `sc.origins` (and the actions, for moves of no class), as `random_exact` says.
    fn draw(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        class: u8,
        pieces: u32,
    ) -> Option<Move> {
        sc.rejected.clear();
        let mut total = pieces;
        if class == ANY_CLASS || class == NO_CLASS {
            total += sc.actions.len() as u32;
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
            let m = if k >= pieces {
                self.action(sc.actions[(k - pieces) as usize] as usize)
            } else {
                let (at, offset) = locate(&sc.origins, k);
                let o = sc.origins[at];
                let mut m = None;
                let found = self.nth(st, o, k - offset, class, None, &mut sc.moves, &mut m);
                debug_assert!(found.is_ok());
                let m = m.expect("the n-th candidate exists");
                if sc.moves.iter().any(|x| x.same_as(&m))
                    || (m.kind == MoveKind::Create
                        && self.made_before(st, &m, &sc.origins[..at], &mut sc.made))
                {
                    let at = sc.rejected.partition_point(|&x| x < k);
                    sc.rejected.insert(at, k);
                    continue;
                }
                m
            };
            if self.drawn_legal(st, &m, &mut sc.keep) {
                return Some(m);
            }
            // Most candidates may fail (a king in check): rather than run a piece's rules
            // again for each draw, they are listed once and drawn from the list.
            return self.draw_listed(st, rng, sc, class, Some(m));
        }
    }

    /// A draw among the candidates of class `class` of the pieces of `sc.origins`, once
    /// `illegal`, if any, failed `legal if`: they are listed once (a move that a piece's
    /// rules, or pieces made from nothing, repeat kept the first time, as `draw` keeps
    /// it), with the actions, and drawn uniformly among those not yet judged, each that
    /// fails taken out. Every draw is uniform among the moves not judged before, so the
    /// move kept is uniform among the legal ones.
    #[inline(never)]
    fn draw_listed(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        class: u8,
        illegal: Option<Move>,
    ) -> Option<Move> {
        let mut list = std::mem::take(&mut sc.listed);
        list.clear();
        let (mut own, mut made) = (Seen::<W>::default(), Seen::<W>::default());
        for o in &sc.origins {
            self.collect_first(st, o.from, o.piece, class, &mut list, &mut own, &mut made);
        }
        if class == ANY_CLASS || class == NO_CLASS {
            list.extend(sc.actions.iter().map(|&a| self.action(a as usize)));
        }
        if let Some(illegal) = illegal {
            list.retain(|m| !m.same_as(&illegal));
        }
        let found = loop {
            if list.is_empty() {
                break None;
            }
            let i = rng.below(list.len());
            let m = list[i];
            if self.drawn_legal(st, &m, &mut sc.keep) {
                break Some(m);
            }
            list.swap_remove(i);
        };
        sc.listed = list;
        found
    }

    /// Whether a piece made from nothing could also be made by one of `earlier` pieces
    /// (which then has it: a move counts once, for the first piece that makes it).
    #[cold]
    fn made_before(
        &self,
        st: &State<W>,
        m: &Move,
        earlier: &[Origin],
        made: &mut Vec<Move>,
    ) -> bool {
        earlier.iter().any(|o| {
            made.clear();
            let mut e = Emit::new(Mode::Collect, made);
            self.run(st, o.from, o.piece, &mut e);
            made.iter().any(|x| x.same_as(m))
        })
    }

    /// Rejection sampling: each piece is given as many slots as its rules could ever
    /// produce candidates from where it stands (`Core::bound`), and each action one; a
    /// slot is drawn uniformly and decoded, and kept when it is a candidate, not a
    /// duplicate of an earlier one, and legal. Every legal move has exactly one slot, so
    /// a kept draw is uniform; only the drawn piece's rules run. A slot past a piece's
    /// candidates has counted them, and the piece's slots shrink to that count (each
    /// candidate still has one); the run that missed recorded its candidates, so that a
    /// later slot of the same piece is decoded from them, not by running its rules again
    /// (a lone origin, such as the one piece that may move, then costs one run). Gives up
    /// (false) after a few rejections, which also happens when there is no legal move at
    /// all: no more than there are pieces, since a draw costs about what counting one
    /// piece's candidates costs. With `UNCLASSED`, only moves of no class count (for when
    /// the classes' chains can have no move: their bounds are none). The move drawn (or
    /// `None`, when there is none) is written in `out`, where the decoding writes it.
    fn random_by_bounds<const PLACED: bool, const SHIFTED: bool, const UNCLASSED: bool>(
        &self,
        st: &mut State<W>,
        rng: &mut Rng,
        sc: &mut Scratch,
        out: &mut Option<Move>,
    ) -> bool {
        let class = class_of::<UNCLASSED>();
        const TRIES: usize = 16;
        sc.origins.clear();
        if PLACED || SHIFTED {
            sc.sets.clear();
        }
        if PLACED {
            sc.placed.clear();
        }
        let hand = self.geo.cells as usize;
        let me = st.s.to_move as usize;
        let mut board = st.by_owner[me];
        let (drawn, batches) = self.draw_batches::<UNCLASSED>();
        let (mut total, mut extra) = (0u32, 0);
        if SHIFTED {
            sc.shifted.clear();
            let together;
            (together, total, extra) = self.shifted_origins(st, sc, drawn, batches);
            board = board.minus(together);
        }
        let origins = &mut sc.origins;
        self.board_origins(st, board, |from, piece| {
            let bound = self.bound[piece as usize][from as usize];
            if bound > 0 {
                origins.push(Origin {
                    from,
                    piece,
                    count: bound,
                });
                total += bound;
            }
        });
        // In hand, apart from the board, so that games without placement sets run the
        // board's loop as they would without this path.
        for p in 0..if self.hands { self.moves.len() } else { 0 } {
            if st.hand[me][p] == 0 {
                continue;
            }
            let piece = p as u8;
            if PLACED && self.placed[p] {
                total +=
                    self.placement_origin(st, piece, &mut sc.origins, &mut sc.placed, &mut sc.sets);
                continue;
            }
            let bound = self.bound[p][hand];
            if bound > 0 {
                sc.origins.push(Origin {
                    from: NONE,
                    piece,
                    count: bound,
                });
                total += bound;
            }
        }
        let mut pieces = total;
        // Each action is one slot too, its condition tested only when drawn: most plies
        // of a game with a swap rule never look at it.
        total += self.actions.len() as u32;
        if total == 0 {
            *out = None;
            return true;
        }
        // One piece alone can move (a phase of the turn for the piece that moved), with
        // rules whose targets are sets: drawn from them, with no rule run.
        // (An origin of a type drawn from its sets or placed is not on the board.)
        if let [o] = sc.origins[..]
            && self.lone_by_sets >> o.piece & 1 != 0
            && o.from != NONE
        {
            let (kept, words) = (&mut sc.missed_moves, &mut sc.missed_words);
            self.lone_draw(st, o.from, o.piece, o.count, rng, kept, words, out);
            return true;
        }
        sc.missed = None;
        let mut tries = TRIES.min(sc.origins.len() + self.actions.len() + extra);
        while tries > 0 {
            tries -= 1;
            let k = rng.below(total as usize) as u32;
            if k >= pieces {
                let i = (k - pieces) as usize;
                if !(self.actions[i].0)(self, st, &mut Ctx::new(st.s.to_move)) {
                    continue;
                }
                *out = Some(self.action(i));
            } else {
                let (at, offset) = locate(&sc.origins, k);
                let o = sc.origins[at];
                if SHIFTED
                    && !sc.shifted.is_empty()
                    && self.shifted_move(st, sc, at, k - offset, batches, out)
                {
                    if self.drawn_legal(st, out.as_ref().expect("a move"), &mut sc.keep) {
                        return true;
                    }
                    continue;
                }
                if PLACED
                    && !sc.placed.is_empty()
                    && let Some(m) = self.placement(sc, at, k - offset)
                {
                    if self.drawn_legal(st, &m, &mut sc.keep) {
                        *out = Some(m);
                        return true;
                    }
                    continue;
                }
                // The candidate, written in `out`, and those before it when the piece's
                // rules may repeat one (then listed one by one, as `keep_before` lists
                // them).
                let earlier = if sc.missed == Some(at as u32) {
                    let i = k - offset;
                    *out = Some(recorded::<W>(&sc.missed_moves, &sc.missed_words, i));
                    // Only a piece that may repeat a move has its moves one by one.
                    let dup = self.may_duplicate[o.piece as usize];
                    if dup {
                        &sc.missed_moves[..i as usize]
                    } else {
                        &[][..]
                    }
                } else {
                    sc.words.clear();
                    match self.nth(
                        st,
                        o,
                        k - offset,
                        class,
                        Some(&mut sc.words),
                        &mut sc.moves,
                        out,
                    ) {
                        Ok(()) => {}
                        Err(count) => {
                            // The miss counted the piece's candidates: its slots shrink to
                            // them (each candidate keeps one), and the try is given back,
                            // once per piece, so that a lone piece in hand on a filling
                            // board costs two decodings rather than a miss and a recount.
                            sc.origins[at].count = count;
                            total -= o.count - count;
                            pieces -= o.count - count;
                            if total == 0 {
                                *out = None;
                                return true;
                            }
                            std::mem::swap(&mut sc.moves, &mut sc.missed_moves);
                            std::mem::swap(&mut sc.words, &mut sc.missed_words);
                            sc.missed = Some(at as u32);
                            tries += 1;
                            continue;
                        }
                    }
                    &sc.moves[..]
                };
                let m = out.as_ref().expect("a candidate");
                if (self.may_duplicate[o.piece as usize] && earlier.iter().any(|x| x.same_as(m)))
                    || (m.kind == MoveKind::Create
                        && self.made_before(st, m, &sc.origins[..at], &mut sc.made))
                {
                    continue;
                }
            }
            if self.drawn_legal(st, out.as_ref().expect("a candidate"), &mut sc.keep) {
                return true;
            }
        }
        false
    }

    /// The origins of a draw for the piece types whose rules are shifts of their set
    /// (`Core::batch`): one per type, with its exact number of moves, so that no slot is
    /// drawn in vain. Returns the pieces they cover, their moves, and how many more
    /// pieces than origins they hold.
    #[inline(never)]
    fn shifted_origins(
        &self,
        st: &State<W>,
        sc: &mut Scratch,
        drawn: &[u8],
        batches: &[Option<Batch<W>>],
    ) -> (Bits<W>, u32, usize) {
        let me = st.s.to_move as usize;
        let (mut together, mut total, mut extra) = (Bits::EMPTY, 0, 0);
        for &piece in drawn {
            let mine = st.by_owner[me].and(st.by_type[piece as usize]);
            if !mine.at_least(DRAW_BATCH_FROM) {
                continue;
            }
            let batch = batches[piece as usize].as_ref().expect("batched");
            let Some(holding) = self.guards_holding(st, piece, batch) else {
                continue;
            };
            together = together.or(mine);
            let words = sc.sets.len();
            let count = self.batch_targets(st, piece, mine, batch, holding, &mut sc.sets);
            if count == 0 {
                sc.sets.truncate(words);
                continue;
            }
            extra += mine.count() as usize - 1;
            sc.shifted
                .push((sc.origins.len() as u32, piece, words as u32));
            sc.origins.push(Origin {
                from: NONE,
                piece,
                count,
            });
            total += count;
        }
        (together, total, extra)
    }

    /// The `index`-th candidate of origin `at` when `shifted_origins` added it, written in
    /// `out`; false (`out` untouched) when `shifted_origins` did not add it.
    #[inline(never)]
    fn shifted_move(
        &self,
        st: &State<W>,
        sc: &Scratch,
        at: usize,
        index: u32,
        batches: &[Option<Batch<W>>],
        out: &mut Option<Move>,
    ) -> bool {
        let Some(&(_, piece, words)) = sc.shifted.iter().find(|s| s.0 == at as u32) else {
            return false;
        };
        let batch = batches[piece as usize].as_ref().expect("batched");
        self.batch_move(st, piece, batch, &sc.sets[words as usize..], index, out);
        true
    }

    /// Adds a piece in hand whose rules pass `placements_only` to the origins of a draw,
    /// with its exact candidates (one set: no slot is drawn in vain). Returns how many.
    #[inline(never)]
    fn placement_origin(
        &self,
        st: &State<W>,
        piece: u8,
        origins: &mut Vec<Origin>,
        placed: &mut Vec<(u32, u16, u32)>,
        sets: &mut Vec<u64>,
    ) -> u32 {
        let mut cx = Ctx::new(st.s.to_move);
        let (cells, then) = self.placements(st, &mut cx, &self.moves[piece as usize]);
        let count = cells.count();
        if count > 0 {
            placed.push((origins.len() as u32, then, sets.len() as u32));
            sets.extend_from_slice(&cells.0);
            origins.push(Origin {
                from: NONE,
                piece,
                count,
            });
        }
        count
    }

    /// The `index`-th candidate of origin `at` when `placement_origin` added it.
    #[inline(never)]
    fn placement(&self, sc: &Scratch, at: usize, index: u32) -> Option<Move> {
        let &(_, then, words) = sc.placed.iter().find(|p| p.0 == at as u32)?;
        let cells = Bits::<W>(std::array::from_fn(|i| sc.sets[words as usize + i]));
        Some(Move {
            kind: MoveKind::Place,
            piece: sc.origins[at].piece,
            to: cells.nth_within(index),
            effect: then,
            ..Move::PASS
        })
    }

    /// The `index`-th candidate of a piece, written in `out`, or how many it has when
    /// fewer; `before` then holds the earlier candidates when the piece's rules may yield
    /// duplicates, or with `record`, all of them as `Emit::record` says (empty otherwise).
    #[allow(clippy::too_many_arguments)]
    fn nth(
        &self,
        st: &State<W>,
        o: Origin,
        index: u32,
        class: u8,
        record: Option<&mut Vec<u64>>,
        before: &mut Vec<Move>,
        out: &mut Option<Move>,
    ) -> Result<(), u32> {
        before.clear();
        *out = None;
        let mut e = Emit::new(Mode::Nth(index), before);
        e.class = class;
        e.keep_before = self.may_duplicate[o.piece as usize];
        e.record = record;
        e.found = Found::In(out);
        self.run(st, o.from, o.piece, &mut e);
        let count = e.count;
        if out.is_some() { Ok(()) } else { Err(count) }
    }
}

/// The class a draw takes moves of: with `UNCLASSED`, no class.
const fn class_of<const UNCLASSED: bool>() -> u8 {
    if UNCLASSED { NO_CLASS } else { ANY_CLASS }
}

/// The `i`-th candidate of a run recorded by `Emit::record`: `moves` holds the moves in
/// order, a set of targets standing as a move with no target, whose set is next in
/// `words`.
#[inline(always)]
pub(super) fn recorded<const W: usize>(moves: &[Move], words: &[u64], mut i: u32) -> Move {
    let mut at = 0;
    for m in moves {
        if m.to != NONE {
            if i == 0 {
                return *m;
            }
            i -= 1;
            continue;
        }
        let set = Bits::<W>(std::array::from_fn(|w| words[at + w]));
        at += W;
        let n = set.count();
        if i < n {
            return Move {
                to: set.nth_within(i),
                ..*m
            };
        }
        i -= n;
    }
    unreachable!("the run recorded its candidates")
}

/// Which origin the `k`-th candidate belongs to, and how many candidates come before
/// that origin's.
#[inline(always)]
fn locate(origins: &[Origin], k: u32) -> (usize, u32) {
    let mut offset = 0;
    for (i, o) in origins.iter().enumerate() {
        if k < offset + o.count {
            return (i, offset);
        }
        offset += o.count;
    }
    unreachable!("k is below the total")
}
