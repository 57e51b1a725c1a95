//! Counting the moves of every piece of a type at once. Where stepping in a direction
//! adds one number to every cell (`Geo::translation`: rectangles, rhombi), a step of all
//! the pieces is one shift of their set, and a slide an occluded fill: shifted again and
//! again through the empty cells. Two pieces' moves in one direction never land on one
//! cell (a slide stops at the first piece on its way), so the size of each direction's
//! set, within the target test, is how many moves it gives.

use super::bits::Bits;
use super::core::Core;
use super::evaluate::Ctx;
use super::generate::CStmt;
use super::movegen::DRAW_BATCH_FROM;
use super::phase::{Guard, OriginAtom};
use super::search::Rng;
use super::state::{Cell, Move, MoveKind, NONE, State};
use crate::ir;

/// One direction of one statement, as a shift: by `delta`, from the cells of `has`
/// (those with a neighbour that way).
#[derive(Clone, Copy, Debug)]
pub struct Shift<const W: usize> {
    /// The statement of the piece's rules whose target test applies: a statement of
    /// the rules, or with `inner`, one of the body of that statement (an `if`).
    stmt: u8,
    inner: u8,
    /// The statement's place among those of the batch (one number for `stmt` and
    /// `inner`, to see where the statement changes).
    rule: u8,
    /// The batch's guard (`Batch::guards`) under which the statement is, if any
    /// (`UNGUARDED`).
    guard: u8,
    /// The statement's effect block.
    then: u16,
    /// The batch's filter (`Batch::filters`) of the `if` the statement is in, if any
    /// (`UNGUARDED`).
    filter: u8,
    delta: i32,
    has: Bits<W>,
    /// A slide (on to the first occupied cell), or a single step.
    slide: bool,
    /// A slide's doubling steps stay under a word (`Core::line_fill`), known when the
    /// batch is made rather than found at every fill.
    short: bool,
    /// The direction back to a target's origin (a slide's is the first piece that way).
    back: u8,
}

/// No `inner` statement, no guard, or no filter.
const UNGUARDED: u8 = u8::MAX;

/// An `if`'s part on the piece's own cell (`phase::OriginAtom`): per player, per atom,
/// how far its test's cells are shifted back and the cells with a cell that far ahead,
/// so that the pieces passing it are the pieces in a set.
struct Filter<const W: usize> {
    stmt: u8,
    per_player: Vec<Vec<(i32, Bits<W>)>>,
}

/// Shifts next to each other in a batch that share a statement, so a guard, a filter,
/// a target test and whether they slide: asked once for all of them, not shift by
/// shift.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// The run's shifts: `start..end` of the player's.
    start: u32,
    end: u32,
}

/// A piece type's rules as shifts, per player (directions such as `forward` differ),
/// and the `if`s on the position they are under.
pub struct Batch<const W: usize> {
    per_player: Vec<Vec<Shift<W>>>,
    /// Each player's shifts as runs, in order.
    runs: Vec<Vec<Run>>,
    /// The `if`s of the rules whose conditions are asked before a draw (`Core::guards`).
    pub(super) guards: Vec<Guard>,
    /// The `if`s of the rules on the piece's own cell.
    filters: Vec<Filter<W>>,
}

impl<const W: usize> Batch<W> {
    /// The shifts of player `me`'s pieces.
    #[inline(always)]
    pub fn shifts(&self, me: usize) -> &[Shift<W>] {
        &self.per_player[me.min(self.per_player.len() - 1)]
    }

    /// Whether some of its shifts are under guards or filters, or it has guards that
    /// stop it.
    pub fn guarded(&self) -> bool {
        !self.guards.is_empty() || !self.filters.is_empty()
    }

    /// Whether some of its shifts are under filters on the pieces' own cells.
    pub fn filtered(&self) -> bool {
        !self.filters.is_empty()
    }

    /// The most shifts of any player.
    pub fn most_shifts(&self) -> usize {
        self.per_player.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// Piece types `Core::draw_shifted` draws together: their rules are the same (`moves
/// King, Guard { … }`), so that the shifts of all their pieces are one set's. A player
/// needs `least` pieces of them or more.
pub struct ShiftGroup {
    /// The first type, whose batch stands for the group's.
    pub lead: u8,
    /// The group's other types (most groups have none).
    pub more: Vec<u8>,
    pub least: u32,
}

impl ShiftGroup {
    /// The cells of `set` that hold a piece of the group.
    /// With `GROUPED` false, every group is one type.
    #[inline(always)]
    fn of<const W: usize, const GROUPED: bool>(&self, st: &State<W>, set: Bits<W>) -> Bits<W> {
        let lead = set.and(st.by_type[self.lead as usize]);
        if !GROUPED {
            return lead;
        }
        (self.more.iter()).fold(lead, |a, &t| a.or(set.and(st.by_type[t as usize])))
    }
}

impl<const W: usize> Core<W> {
    /// A piece's rules as shifts, when every statement is a plain step or slide: fixed
    /// directions that are translations of the board, a target test given as a set, no
    /// condition, and for a slide no length limit and a `through` test, if any, given as
    /// a set. A statement may also be an `if` with no `else` on the position (a phase of
    /// the turn): a `Guard`. With `unclassed`, class blocks are left out: the moves of
    /// no class, for when those of the classes are known to be none
    /// (`Core::gated_classes`).
    pub fn batch_of(&self, piece: usize, rules: &[CStmt<W>], unclassed: bool) -> Option<Batch<W>> {
        if rules.is_empty() || rules.len() > UNGUARDED as usize {
            return None;
        }
        // The statements drawn from the sets: where they are, their guard and filter,
        // and them.
        let mut drawn: Vec<(u8, u8, u8, u8, &CStmt<W>)> = Vec::new();
        let mut guards = Vec::new();
        let mut filters = Vec::new();
        for (i, s) in rules.iter().enumerate() {
            match s {
                CStmt::Class { .. } if unclassed => continue,
                CStmt::If {
                    then, otherwise, ..
                } if otherwise.is_empty() => {
                    let guard = self.guards.get(piece)?.get(i)?.as_ref();
                    let filter = self.origin_filters.get(piece)?.get(i)?.as_ref();
                    // The condition is told by the guard, the filter, or both.
                    let told = guard.is_some_and(|g| g.whole) || filter.is_some();
                    let shifted = told
                        && !then.is_empty()
                        && then.len() < UNGUARDED as usize
                        && then
                            .iter()
                            .all(|s| shape(s, self.geo.longest_ray).is_some());
                    if guards.len() >= 64 || filters.len() >= UNGUARDED as usize {
                        return None;
                    }
                    let g = match guard {
                        Some(_) => {
                            guards.push(Guard {
                                stmt: i as u8,
                                blocks: !shifted,
                            });
                            (guards.len() - 1) as u8
                        }
                        None if shifted => UNGUARDED,
                        None => return None,
                    };
                    if shifted {
                        let f = match filter {
                            Some(atoms) => {
                                filters.push(self.filter(i as u8, atoms)?);
                                (filters.len() - 1) as u8
                            }
                            None => UNGUARDED,
                        };
                        drawn.extend(
                            (then.iter().enumerate()).map(|(j, s)| (i as u8, j as u8, g, f, s)),
                        );
                    }
                }
                s => {
                    shape(s, self.geo.longest_ray)?;
                    drawn.push((i as u8, UNGUARDED, UNGUARDED, UNGUARDED, s));
                }
            }
        }
        if drawn.is_empty() || drawn.len() > u8::MAX as usize {
            return None;
        }
        let per_player: Vec<Vec<Shift<W>>> = (0..self.players)
            .map(|p| {
                let cx = Ctx::new(p);
                let mut shifts = Vec::new();
                for (rule, &(stmt, inner, guard, filter, s)) in drawn.iter().enumerate() {
                    let (dirs, slide, then, n) = shape(s, self.geo.longest_ray).expect("a shape");
                    let mut seen = 0u8;
                    for &d in dirs {
                        if !d.is_fixed() {
                            return None;
                        }
                        let d = self.dir(&cx, d) as usize & 7;
                        // A step's targets are one set per piece (a direction named
                        // twice counts once); a slide counts each naming, as listing does.
                        if !slide && seen & (1 << d) != 0 {
                            continue;
                        }
                        seen |= 1 << d;
                        let (delta, has) = self.ahead(d, n)?;
                        shifts.push(Shift {
                            stmt,
                            inner,
                            rule: rule as u8,
                            then,
                            guard,
                            filter,
                            delta,
                            has,
                            slide,
                            short: self.fills_short(delta),
                            back: self.geo.opposite[d],
                        });
                    }
                }
                Some(shifts)
            })
            .collect::<Option<_>>()?;
        let runs = per_player.iter().map(|shifts| runs_of(shifts)).collect();
        Some(Batch {
            per_player,
            runs,
            guards,
            filters,
        })
    }

    /// `n` steps in direction `d` as a translation of the board: how far it moves a cell,
    /// and the cells it moves (those with a cell that far ahead).
    fn ahead(&self, d: usize, n: u8) -> Option<(i32, Bits<W>)> {
        let (delta, has) = self.geo.translation[d]?;
        if n == 1 {
            return Some((delta, has));
        }
        let far =
            (0..self.geo.cells).filter(|&c| self.geo.board.ray(c, d as u8).len() >= n as usize);
        Some((delta * n as i32, Bits::from_cells(far)))
    }

    /// The filter of the `if` at statement `stmt`, from its atoms (`Core::origin_filters`).
    fn filter(&self, stmt: u8, atoms: &[OriginAtom<W>]) -> Option<Filter<W>> {
        let per_player = (0..self.players)
            .map(|p| {
                let cx = Ctx::new(p);
                (atoms.iter())
                    .map(|a| match a.step {
                        None => Some((0, self.geo.all)),
                        Some((d, n)) => self.ahead(self.dir(&cx, d) as usize & 7, n),
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Filter { stmt, per_player })
    }

    /// The pieces of `pieces` that pass filter `f` of the player to move.
    #[inline(always)]
    fn filter_pieces(
        &self,
        st: &State<W>,
        cx: &Ctx,
        piece: u8,
        batch: &Batch<W>,
        f: u8,
        pieces: Bits<W>,
    ) -> Bits<W> {
        let filter = &batch.filters[f as usize];
        let atoms = self.origin_filters[piece as usize][filter.stmt as usize]
            .as_ref()
            .expect("a filter's atoms");
        let ahead = &filter.per_player[cx.me as usize];
        atoms
            .iter()
            .zip(ahead)
            .fold(pieces, |left, (a, &(delta, has))| {
                let cells = a.test.set(self, st, cx).expect("a set test");
                left.and(has).and(cells.shift(-delta))
            })
    }

    /// How many moves the player to move's `pieces`, of type `piece`, have on the board,
    /// by `Core::batch`, under the guards `holding` (`guards_holding`).
    pub fn count_batch(
        &self,
        st: &State<W>,
        piece: u8,
        pieces: Bits<W>,
        batch: &Batch<W>,
        holding: u64,
    ) -> u32 {
        let mut count = 0;
        self.each_shift(st, piece, pieces, batch, holding, |_, targets| {
            count += targets.count()
        });
        count
    }

    /// For a draw: the targets of each shift of `pieces` (`count_batch`), appended to
    /// `sets` one after another in the batch's order, each as its `W` words and its
    /// count (so that decoding counts nothing again). Returns how many moves they make.
    #[inline(never)]
    pub fn batch_targets(
        &self,
        st: &State<W>,
        piece: u8,
        pieces: Bits<W>,
        batch: &Batch<W>,
        holding: u64,
        sets: &mut Vec<u64>,
    ) -> u32 {
        let mut count = 0;
        self.each_shift(st, piece, pieces, batch, holding, |_, targets| {
            let n = targets.count();
            count += n;
            sets.extend_from_slice(&targets.0);
            sets.push(n as u64);
        });
        count
    }

    /// The `index`-th move of the sets `batch_targets` gave (`sets` starts at them),
    /// written in `out` where it is made. Each target has one origin: a step's is one
    /// shift back, a slide's the first occupied cell back along its line, since the
    /// slide crossed only empty cells.
    #[inline(always)]
    pub fn batch_move(
        &self,
        st: &State<W>,
        piece: u8,
        batch: &Batch<W>,
        sets: &[u64],
        index: u32,
        out: &mut Option<Move>,
    ) {
        let me = st.s.to_move as usize;
        let mut index = index;
        for (i, sh) in batch.shifts(me).iter().enumerate() {
            let at = i * (W + 1);
            let n = sets[at + W] as u32;
            if index >= n {
                index -= n;
                continue;
            }
            let targets = Bits::<W>(std::array::from_fn(|w| sets[at + w]));
            *out = Some(self.shift_move(st, piece, sh, targets.nth_within(index)));
            return;
        }
        unreachable!("the index is below the sets' count")
    }

    /// A uniform random move when every piece the player to move has is of a group of
    /// types a draw takes from their sets (`Core::shift_drawn`), nothing is in hand and
    /// the game has no action, no `legal if` and no piece made from nothing: each
    /// shift's targets are built in a reused buffer, one is drawn by their counts and
    /// decoded, with no list of origins. When the groups are the types of
    /// `Core::drawn_batched`, the draw is the one `random_by_bounds` makes (the same
    /// types and shifts in the same order, one number drawn), so the games played are
    /// the same. `None` when the case does not hold; `Some(None)` when there is no move.
    #[cfg(test)]
    pub fn draw_shifted(
        &self,
        st: &State<W>,
        rng: &mut Rng,
        sets: &mut Vec<u64>,
    ) -> Option<Option<Move>> {
        let mut out = None;
        self.draw_shifted_into(st, rng, sets, &mut out)
            .then_some(out)
    }

    /// `draw_shifted`, the move written in `out` (`Core::random_into`); false when the
    /// case does not hold, and `out` is untouched.
    #[inline(always)]
    pub(super) fn draw_shifted_into(
        &self,
        st: &State<W>,
        rng: &mut Rng,
        sets: &mut Vec<u64>,
        out: &mut Option<Move>,
    ) -> bool {
        // Apart, so that games whose groups are single types, or have no guard, pay
        // nothing for the others.
        match (self.shift_grouped, self.shift_guarded) {
            (false, false) => self.draw_shifted_in::<false, false>(st, rng, sets, out),
            (true, false) => self.draw_shifted_in::<true, false>(st, rng, sets, out),
            (_, true) => self.draw_shifted_in::<true, true>(st, rng, sets, out),
        }
    }

    #[inline(never)]
    fn draw_shifted_in<const GROUPED: bool, const GUARDED: bool>(
        &self,
        st: &State<W>,
        rng: &mut Rng,
        sets: &mut Vec<u64>,
        out: &mut Option<Move>,
    ) -> bool {
        let me = st.s.to_move as usize;
        if st.any_in_hand(me, self.moves.len()) {
            return false;
        }
        let mut left = st.by_owner[me];
        for g in &self.shift_drawn {
            let mine = g.of::<W, GROUPED>(st, left);
            if !mine.is_empty() && !mine.at_least(g.least) {
                return false;
            }
            left = left.minus(mine);
        }
        if !left.is_empty() {
            return false;
        }
        // Per shift (on a board of one word, per shift with targets): its `W` words, then
        // its count, group and index in one word, written in place (the buffer is kept,
        // sized once for every shift, not an array cleared nor a vector grown at every
        // draw).
        if sets.len() < self.shift_words {
            sets.resize(self.shift_words, 0);
        }
        let (mut total, mut end) = (0u32, 0);
        for (at, g) in self.shift_drawn.iter().enumerate() {
            let mine = g.of::<W, GROUPED>(st, st.by_owner[me]);
            if mine.is_empty() {
                continue;
            }
            let lead = g.lead;
            let batch = self.batch[lead as usize].as_ref().expect("batched");
            // A phase whose moves are not shifts: the general draw (nothing drawn yet).
            let holding = if GUARDED {
                match self.guards_holding(st, lead, batch) {
                    Some(h) => h,
                    None => return false,
                }
            } else {
                0
            };
            let mut i = 0u64;
            // Guards and filters are one case: few games have either.
            self.each_shift_in::<GUARDED, GUARDED>(st, lead, mine, batch, holding, |_, targets| {
                let count = if W == 1 { targets.count() } else { 0 };
                if W > 1 || count > 0 {
                    sets[end..end + W].copy_from_slice(&targets.0);
                    sets[end + W] = count as u64 | (at as u64) << 32 | i << 40;
                    end += W + 1;
                    total += count;
                }
                i += 1;
            });
        }
        // Sets of several words are counted apart, read back from memory, where their
        // words' counts are summed in vector registers (the fills leave the words in
        // general ones): Amazons' playouts 1.06x as fast. A set of one word is counted
        // at once, and left out when empty (Breakthrough 0.95x counted apart).
        if W > 1 {
            for one in sets[..end].chunks_exact_mut(W + 1) {
                let count = Bits::<W>(std::array::from_fn(|w| one[w])).count();
                one[W] |= count as u64;
                total += count;
            }
        }
        if total == 0 {
            *out = None;
            return true;
        }
        let mut k = rng.below(total as usize) as u32;
        for one in sets[..end].chunks_exact(W + 1) {
            let count = one[W] as u32;
            if k < count {
                let (at, i) = ((one[W] >> 32) as u8 as usize, (one[W] >> 40) as usize);
                let targets = Bits::<W>(std::array::from_fn(|w| one[w]));
                let g = &self.shift_drawn[at];
                let batch = self.batch[g.lead as usize].as_ref().expect("batched");
                let sh = &batch.shifts(me)[i];
                let m = out.insert(self.shift_move(st, g.lead, sh, targets.nth_within(k)));
                if GROUPED && !g.more.is_empty() {
                    // The piece on the origin (its rules are the lead's, effects and all).
                    m.piece = self.codes.piece[st.board[m.from as usize] as usize];
                }
                return true;
            }
            k -= count;
        }
        unreachable!("the index is below the sets' count")
    }

    /// The fewest pieces of a type `draw_shifted` takes from their sets: a step is one
    /// shift, cheaper than running one piece's rules, but a slide is a fill of several
    /// rounds, dearer than a lone piece's walk along its rays.
    pub fn least_drawn(batch: &Batch<W>) -> u32 {
        if batch.per_player.iter().flatten().any(|sh| sh.slide) {
            DRAW_BATCH_FROM
        } else {
            1
        }
    }

    /// The move of a shift of type `piece` landing on `to`, one of its targets.
    #[inline(always)]
    fn shift_move(&self, st: &State<W>, piece: u8, sh: &Shift<W>, to: Cell) -> Move {
        // A slide crossed only empty cells: its origin is the first piece back along its
        // line, found by a bit scan rather than a walk of unknown length.
        let from = if sh.slide {
            self.first_in(to, sh.back, st.occupied)
        } else {
            (to as i32 - sh.delta) as Cell
        };
        Move {
            kind: MoveKind::Normal,
            piece,
            from,
            to,
            effect: sh.then,
            ..Move::PASS
        }
    }

    /// A shift's statement.
    #[inline(always)]
    fn shift_stmt(&self, piece: u8, sh: &Shift<W>) -> &CStmt<W> {
        let s = &self.moves[piece as usize][sh.stmt as usize];
        if sh.inner == UNGUARDED {
            return s;
        }
        match s {
            CStmt::If { then, .. } => &then[sh.inner as usize],
            _ => unreachable!("an inner statement is in an `if`"),
        }
    }

    /// Counting under `legal if` with a footprint `foot` (`Emit`'s `Judge` mode) for the
    /// player to move's `pieces` of type `piece`, none of them on the footprint: the
    /// moves with no effect block whose target misses it are counted, and the others
    /// are listed in `judged`, to be played and judged. Returns the count.
    #[allow(clippy::too_many_arguments)]
    pub fn judge_batch(
        &self,
        st: &State<W>,
        piece: u8,
        pieces: Bits<W>,
        batch: &Batch<W>,
        holding: u64,
        foot: Bits<W>,
        judged: &mut Vec<Move>,
    ) -> u32 {
        let mut count = 0;
        self.each_shift(
            st,
            piece,
            pieces,
            batch,
            holding,
            // Called per shift: left a call (the compiler's choice across the three
            // `each_shift_in`s), it cost Shakhmaty's perft 3% of its instructions.
            #[inline(always)]
            |sh, targets| {
                let listed = if sh.then == NONE {
                    count += targets.minus(foot).count();
                    targets.and(foot)
                } else {
                    targets
                };
                for to in listed.iter() {
                    judged.push(self.shift_move(st, piece, sh, to));
                }
            },
        );
        count
    }

    /// Hands `f` each shift of the player to move's `pieces` with its targets: the cells
    /// it reaches within the statement's target test. A slide's walls (the empty cells
    /// failing its `through` test) stop it before them, as the edge does. A shift under
    /// a guard not `holding` has no targets (it is handed to `f` all the same, so that
    /// the sets of a draw stand in the batch's order).
    #[inline(always)]
    fn each_shift(
        &self,
        st: &State<W>,
        piece: u8,
        pieces: Bits<W>,
        batch: &Batch<W>,
        holding: u64,
        f: impl FnMut(&Shift<W>, Bits<W>),
    ) {
        // Apart, so that the types with no guard or filter pay nothing for them.
        match (batch.guards.is_empty(), batch.filters.is_empty()) {
            (true, true) => {
                self.each_shift_in::<false, false>(st, piece, pieces, batch, holding, f)
            }
            (false, true) => {
                self.each_shift_in::<true, false>(st, piece, pieces, batch, holding, f)
            }
            (_, false) => self.each_shift_in::<true, true>(st, piece, pieces, batch, holding, f),
        }
    }

    #[inline(always)]
    fn each_shift_in<const GUARDED: bool, const FILTERED: bool>(
        &self,
        st: &State<W>,
        piece: u8,
        pieces: Bits<W>,
        batch: &Batch<W>,
        holding: u64,
        mut f: impl FnMut(&Shift<W>, Bits<W>),
    ) {
        let me = st.s.to_move as usize;
        let cx = Ctx::new(me as u8);
        let empty = self.geo.all.minus(st.occupied);
        let shifts = batch.shifts(me);
        let runs = &batch.runs[me.min(batch.runs.len() - 1)];
        // The statements of one `if` on the piece's own cell share its pieces.
        let (mut filtered_by, mut filtered) = (UNGUARDED, pieces);
        for run in runs {
            let run = &shifts[run.start as usize..run.end as usize];
            let first = &run[0];
            if GUARDED && first.guard != UNGUARDED && holding >> first.guard & 1 == 0 {
                for sh in run {
                    f(sh, Bits::EMPTY);
                }
                continue;
            }
            let pieces = if FILTERED && first.filter != UNGUARDED {
                if first.filter != filtered_by {
                    filtered_by = first.filter;
                    filtered = self.filter_pieces(st, &cx, piece, batch, first.filter, pieces);
                }
                filtered
            } else {
                pieces
            };
            let rule = if GUARDED {
                self.shift_stmt(piece, first)
            } else {
                &self.moves[piece as usize][first.stmt as usize]
            };
            let (to, through) = match rule {
                CStmt::Step { to, .. } | CStmt::MoveTo { to, .. } => (to, None),
                CStmt::Slide { to, through, .. } => (to, through.as_ref()),
                _ => unreachable!("a batch holds steps, jumps and slides"),
            };
            let targets = to.set(self, st, &cx).expect("a set test");
            if !first.slide {
                for sh in run {
                    f(sh, pieces.and(sh.has).shift(sh.delta).and(targets));
                }
                continue;
            }
            // What a slide may enter: any cell but a wall. With none, every fill's cells
            // are the board's, and not masked again.
            match through {
                None => self.slide_run::<false>(run, pieces, empty, self.geo.all, targets, &mut f),
                Some(t) => {
                    let open = (t.set(self, st, &cx).expect("a set test")).or(st.occupied);
                    self.slide_run::<true>(run, pieces, empty.and(open), open, targets, &mut f)
                }
            }
        }
    }

    /// `each_shift_in` for a run of slides, `pass` the cells they may cross (empty, and
    /// with `WALLED`, `open`).
    #[inline(always)]
    fn slide_run<const WALLED: bool>(
        &self,
        run: &[Shift<W>],
        pieces: Bits<W>,
        pass: Bits<W>,
        open: Bits<W>,
        targets: Bits<W>,
        f: &mut impl FnMut(&Shift<W>, Bits<W>),
    ) {
        for sh in run {
            let from = pieces.and(sh.has);
            let reached = self.fill_by::<WALLED>(from, sh.delta, sh.short, pass, open, sh.has);
            f(sh, reached.and(targets));
        }
    }

    /// The cells slides from `from` reach by steps of `delta` (a translation, `has` the
    /// cells with a neighbour that way), up to and including the first cell they may not
    /// `pass` (`slide_fill`, with no walls).
    #[inline(always)]
    pub(super) fn line_fill(
        &self,
        from: Bits<W>,
        delta: i32,
        pass: Bits<W>,
        has: Bits<W>,
    ) -> Bits<W> {
        let short = self.fills_short(delta);
        self.fill_by::<false>(from, delta, short, pass, self.geo.all, has)
    }

    /// `slide_fill` by `delta`, `short` when its doubling steps stay under a word: every
    /// shift of the fill one way, with no test of its sign per shift, nor of its size
    /// when short.
    #[inline(always)]
    fn fill_by<const WALLED: bool>(
        &self,
        from: Bits<W>,
        delta: i32,
        short: bool,
        pass: Bits<W>,
        open: Bits<W>,
        has: Bits<W>,
    ) -> Bits<W> {
        let k = delta.unsigned_abs();
        match (delta < 0, short) {
            (true, true) => self.slide_fill::<true, true, WALLED>(from, pass, open, has, k),
            (true, false) => self.slide_fill::<true, false, WALLED>(from, pass, open, has, k),
            (false, true) => self.slide_fill::<false, true, WALLED>(from, pass, open, has, k),
            (false, false) => self.slide_fill::<false, false, WALLED>(from, pass, open, has, k),
        }
    }

    /// Whether the doubling steps of a fill by `delta` stay under a word.
    #[inline(always)]
    fn fills_short(&self, delta: i32) -> bool {
        (delta.unsigned_abs() as u64) << self.geo.fill_rounds.saturating_sub(1) < 64
    }

    /// The cells slides from `from` (the sliding pieces with a cell beyond them, `has`)
    /// reach one step of `k` at a time, down with `DOWN`, up to and including the first
    /// cell they may not `pass` (one not empty, or with `WALLED` not `open`), and only
    /// `open` cells (with `WALLED` false, every cell is). The cells a slide crosses and
    /// may go on from (passable, with a cell beyond) are filled from those first reached
    /// through chains of them, by doubling steps (one, two, four… cells at once, as many
    /// rounds as the longest ray needs), with no loop waiting for every slide to stop.
    #[inline(always)]
    fn slide_fill<const DOWN: bool, const SHORT: bool, const WALLED: bool>(
        &self,
        from: Bits<W>,
        pass: Bits<W>,
        open: Bits<W>,
        has: Bits<W>,
        k: u32,
    ) -> Bits<W> {
        let walls = |b: Bits<W>| if WALLED { b.and(open) } else { b };
        let on = pass.and(has);
        let reached = walls(from.shift_by::<DOWN, SHORT>(k));
        let mut fill = reached.and(on);
        if fill.is_empty() {
            return reached;
        }
        let (mut pro, mut step) = (on, k);
        fill = fill.or(pro.and(fill.shift_by::<DOWN, SHORT>(step)));
        for _ in 1..self.geo.fill_rounds {
            pro = pro.and(pro.shift_by::<DOWN, SHORT>(step));
            step *= 2;
            fill = fill.or(pro.and(fill.shift_by::<DOWN, SHORT>(step)));
        }
        reached.or(walls(fill.shift_by::<DOWN, SHORT>(k)))
    }
}

/// Shifts split where their statement changes (`Shift::rule`).
fn runs_of<const W: usize>(shifts: &[Shift<W>]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, sh) in shifts.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if shifts[r.start as usize].rule == sh.rule => r.end = i as u32 + 1,
            _ => runs.push(Run {
                start: i as u32,
                end: i as u32 + 1,
            }),
        }
    }
    runs
}

/// A statement's directions, whether it slides, its effect block and how many steps
/// its moves go, when a batch can take it: a step, a jump (`move to from + d * n`) or a
/// slide with no condition, a target test given as a set, and for a slide no length
/// limit (under `longest`, the longest ray) and a `through` test, if any, given as a set.
fn shape<const W: usize>(s: &CStmt<W>, longest: usize) -> Option<(&[ir::DirRef], bool, u16, u8)> {
    match s {
        CStmt::Step {
            dirs,
            to,
            cond: None,
            then,
            ..
        } if to.is_set() => Some((dirs, false, *then, 1)),
        CStmt::MoveTo {
            step: Some((d, n)),
            to,
            cond: None,
            then,
            ..
        } if to.is_set() && *n > 0 => Some((std::slice::from_ref(d), false, *then, *n)),
        CStmt::Slide {
            dirs,
            fixed: _,
            max,
            through,
            to,
            cond: None,
            then,
        } if to.is_set()
            && through.as_ref().is_none_or(|t| t.is_set())
            && *max as usize >= longest =>
        {
            Some((dirs, true, *then, 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::core::Core;
    use crate::engine::evaluate::Ctx;
    use crate::engine::generate::{Emit, Mode};
    use crate::engine::movegen::Scratch;
    use crate::engine::search::Rng;
    use crate::engine::state::{Move, State};

    /// The moves of the player to move's pieces of a type, their rules run piece by piece.
    fn one_by_one<const W: usize>(core: &Core<W>, st: &State<W>, piece: u8) -> u32 {
        let me = st.s.to_move as usize;
        let mut none = Vec::new();
        let mut e = Emit::new(Mode::Count, &mut none);
        e.piece = piece;
        for from in st.by_owner[me].and(st.by_type[piece as usize]).iter() {
            let mut cx = Ctx::new(me as u8);
            cx.from = from;
            core.generate(st, &mut cx, &core.moves[piece as usize], &mut e);
        }
        e.count
    }

    /// The moves of the player to move's pieces of a type, listed piece by piece.
    fn listed<const W: usize>(core: &Core<W>, st: &State<W>, piece: u8) -> Vec<Move> {
        let me = st.s.to_move as usize;
        let mut out = Vec::new();
        for from in st.by_owner[me].and(st.by_type[piece as usize]).iter() {
            let mut e = Emit::new(Mode::Collect, &mut out);
            e.piece = piece;
            let mut cx = Ctx::new(me as u8);
            cx.from = from;
            core.generate(st, &mut cx, &core.moves[piece as usize], &mut e);
        }
        out
    }

    /// Plays random games and, in every position, compares each batched piece type's
    /// count with its pieces counted one by one, and the moves its sets decode to (every
    /// index of `batch_targets`, through `batch_move`) with the moves listed piece by
    /// piece. A type under guards is compared where its guards let it be drawn from its
    /// sets. Returns how many types are batched, and in how many positions a type's
    /// guards held and let it (some guard holding), or stopped it.
    fn agrees(source: &str) -> (usize, u32, u32) {
        let core = Core::<2>::of_text(source);
        let mut rng = Rng::new(7);
        let mut sc = Scratch::default();
        let (mut positions, mut guarded, mut stopped) = (0, 0, 0);
        for _ in 0..20 {
            let mut st = core.start();
            for _ in 0..60 {
                for (piece, batch) in core.batch.iter().enumerate() {
                    let Some(batch) = batch else { continue };
                    let Some(holding) = core.guards_holding(&st, piece as u8, batch) else {
                        stopped += 1;
                        continue;
                    };
                    guarded += (holding != 0) as u32;
                    let want = one_by_one(&core, &st, piece as u8);
                    let me = st.s.to_move as usize;
                    let pieces = st.by_owner[me].and(st.by_type[piece]);
                    let got = core.count_batch(&st, piece as u8, pieces, batch, holding);
                    assert_eq!(got, want, "{source}");
                    let mut sets = Vec::new();
                    let n = core.batch_targets(&st, piece as u8, pieces, batch, holding, &mut sets);
                    assert_eq!(n, want, "{source}");
                    let key = |m: &Move| (m.from, m.to, m.effect, m.piece, m.kind as u8);
                    let mut decoded: Vec<_> = (0..n)
                        .map(|k| {
                            let mut m = None;
                            core.batch_move(&st, piece as u8, batch, &sets, k, &mut m);
                            key(&m.expect("a move"))
                        })
                        .collect();
                    let mut wanted: Vec<_> =
                        listed(&core, &st, piece as u8).iter().map(key).collect();
                    decoded.sort_unstable();
                    wanted.sort_unstable();
                    assert_eq!(decoded, wanted, "{source}");
                    positions += 1;
                }
                let Some(m) = core.random_legal(&mut st, &mut rng, &mut sc) else {
                    break;
                };
                core.make(&mut st, &m);
                st.commit();
            }
        }
        assert!(positions > 0 || core.batch.iter().all(|b| b.is_none()));
        let batched = core.batch.iter().filter(|b| b.is_some()).count();
        (batched, guarded, stopped)
    }

    #[test]
    fn batched_counts_match_the_pieces_counted_one_by_one() {
        let square = "players { white forward north  black forward south }\n\
            board 9 x 9\n\
            region corner = a1 | i9\n\
            region middle = e5 | d4 | f6 | c7 | g3\n\
            piece Rook letter R\npiece Pawn letter P\npiece King letter K\n\
            moves Rook { slide orthogonal through not in middle to not friend and not in corner }\n\
            moves Pawn { step forward, forward-left to empty  step forward to empty }\n\
            moves King { step all to not friend  slide diagonal, diagonal through not in middle to enemy }\n\
            setup {\n white Rook a2 c3 e5 e6\n white Pawn b2 c2 d2\n white King e1\n \
            black Rook h8 g7 b8\n black Pawn f7 g6 h7\n black King e9\n}\n";
        let hex = |board: &str| {
            format!(
                "players {{ white black }}\n{board}\nregion corner = a4\n\
                 piece Rook letter R\npiece Stone letter S\n\
                 moves Rook {{ slide east, northeast, west through not in corner to not friend }}\n\
                 moves Stone {{ step all to empty }}\n\
                 setup {{\n white Rook d4 c4 e3\n white Stone d3 c5\n \
                 black Rook e4 d5\n black Stone e5 b4\n}}\n"
            )
        };
        // Rays of nine cells, whose fill reaches the eighth in three rounds.
        let wide = "players { white black }\nboard 10 x 10\n\
            piece Queen letter Q\npiece Rook letter R\n\
            moves Queen { slide all to not friend }\n\
            moves Rook { slide orthogonal to empty }\n\
            setup {\n white Queen a1 j1 e5\n white Rook a2 b10\n \
            black Queen a10 j10 f6\n black Rook j9 c1\n}\n";
        for (rest, batched) in [
            (square.to_string(), 3),
            (wide.to_string(), 2),
            (hex("board hex 7 x 7"), 2),
            // Ranks of unequal lengths: no direction is a translation.
            (hex("board hexagon 4"), 0),
        ] {
            let source = format!("game \"T\" {{ }}\n{rest}");
            assert_eq!(agrees(&source), (batched, 0, 0), "{source}");
        }
    }

    /// Rules in phases of the turn (`if` on a counter): a phase of steps and slides is
    /// counted from the sets while its guard holds, and a phase that is not (a piece made
    /// from nothing, a test of `from`) stops the type's draw from its sets while the
    /// guard's part on the position holds.
    #[test]
    fn phases_of_steps_and_slides_are_counted_from_the_sets() {
        let amazons =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/amazons.game");
        let amazons = std::fs::read_to_string(amazons).expect("a game");
        let (batched, guarded, stopped) = agrees(&amazons);
        assert_eq!(batched, 1, "the queens, under their guard");
        assert!(guarded > 100 && stopped > 100, "{guarded} {stopped}");
        // Three phases: men step, then slide (both from their sets), then one of them
        // steps again under a test of `from` (not).
        let phases = "game \"T\" { }\nplayers { white black }\nboard 8 x 8\n\
            piece Man letter M\ncounter phase = 0\n\
            moves Man {\n\
              step orthogonal to empty\n\
              if phase == 0 { step diagonal to empty then { phase = 1 } }\n\
              if phase == 1 { slide diagonal to not friend then { phase = 2 } }\n\
              if phase == 2 and from != last-to { step north to empty then { phase = 0 } }\n\
            }\n\
            setup {\n white Man a1 c1 e1 g1 b2 d2\n black Man b8 d8 f8 h8 a7 c7\n}\n";
        let (batched, guarded, stopped) = agrees(phases);
        assert_eq!(batched, 1, "{phases}");
        assert!(guarded > 100 && stopped > 20, "{guarded} {stopped}");
    }

    /// `if`s on the piece's own cell (a pawn's double step, with a second statement in
    /// its `if`; a cell that must be of a region; both beside a test of a counter): their
    /// pieces are filtered as a set, and their counts and moves are those of the pieces
    /// run one by one. With only such types, the draw from the sets alone draws legal
    /// moves.
    #[test]
    fn ifs_on_the_pieces_cells_filter_them_as_sets() {
        let filters = "game \"T\" { }\n\
            players { white forward north  black forward south }\n\
            board 8 x 8\n\
            region start { white: rank 2  black: rank 7 }\n\
            region centre = (file d | file e) & (rank 4 | rank 5)\n\
            counter turn = 0\n\
            piece Pawn letter P\npiece Guard letter G\n\
            moves Pawn {\n\
              step forward to empty\n\
              if from in start and from + forward is empty {\n\
                move to from + forward * 2 if to is empty\n\
                step backward to empty\n\
              }\n\
              step forward-left, forward-right to enemy\n\
            }\n\
            moves Guard {\n\
              if from is not in centre { step orthogonal to empty then { turn += 1 } }\n\
              if turn < 4 and from + north * 2 is enemy and from in start { step diagonal to not friend }\n\
            }\n\
            setup {\n white Pawn rank 2\n white Guard c1 f1 b3 g3 d4\n \
            black Pawn rank 7\n black Guard c8 f8 b6 g6 e5\n}\n";
        let (batched, guarded, stopped) = agrees(filters);
        assert_eq!((batched, stopped), (2, 0), "{filters}");
        assert!(guarded > 100, "{guarded}");
        let core = Core::<1>::of_text(filters);
        let pawn = &core.batch[0].as_ref().expect("the pawns batched");
        assert!(pawn.filtered() && pawn.guards.is_empty());
        let mut general = Core::<1>::of_text(filters);
        general.draws_shifted = false;
        let mut drawn = 0;
        for game in 0..20 {
            let mut st = core.start();
            let mut rng = Rng::for_playout(3, game);
            for _ in 0..80 {
                let Some(m) = core.draw_shifted(&st, &mut rng, &mut Vec::new()) else {
                    break;
                };
                let mut legal = Vec::new();
                general.legal_moves(&mut st, &mut legal);
                assert_eq!(m.is_none(), legal.is_empty(), "game {game}");
                let Some(m) = m else { break };
                assert!(legal.contains(&m), "game {game}: {m:?}");
                drawn += 1;
                core.make(&mut st, &m);
                st.commit();
            }
        }
        assert!(drawn > 500, "{drawn} draws");
    }

    /// The draw from the sets alone (`Core::draw_shifted`) against the general one, in
    /// the positions of random games: where every type of the player to move is one
    /// `random_by_bounds` draws from its sets, the same move for the same numbers (so
    /// that seeded playouts play the same games); elsewhere, a legal move (or none
    /// exactly when there is none). Wolf and Sheep's lone wolf and Tablut's king with
    /// its guards, drawn from their sets only here, are the second case.
    #[test]
    fn the_draw_from_the_sets_alone_is_the_general_draw() {
        let tablut = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/tablut.game");
        let tablut = std::fs::read_to_string(tablut).expect("a game");
        for (name, fast) in [
            ("breakthrough", Core::<1>::example("breakthrough")),
            ("wolf-and-sheep", Core::<1>::example("wolf-and-sheep")),
        ] {
            let mut general = Core::<1>::example(name);
            general.draws_shifted = false;
            compare(name, &fast, &general);
        }
        // Pieces made from nothing (the arrows), in a phase the general draw takes.
        let mut general = Core::<2>::example("amazons");
        general.draws_shifted = false;
        compare("amazons", &Core::<2>::example("amazons"), &general);
        let fast = Core::<2>::of_text(&tablut);
        let mut general = Core::<2>::of_text(&tablut);
        general.draws_shifted = false;
        compare("tablut", &fast, &general);
    }

    fn compare<const W: usize>(name: &str, fast: &Core<W>, general: &Core<W>) {
        assert!(fast.draws_shifted, "{name}");
        let mut sc = Scratch::default();
        let (mut same, mut other) = (0, 0);
        for game in 0..30 {
            let mut st = fast.start();
            let mut rng = Rng::for_playout(9, game);
            for _ in 0..200 {
                let me = st.s.to_move as usize;
                let alike = (fast.drawn_batched.iter()).fold(st.by_owner[me], |left, &p| {
                    let mine = left.and(st.by_type[p as usize]);
                    if mine.at_least(crate::engine::movegen::DRAW_BATCH_FROM) {
                        left.minus(mine)
                    } else {
                        left
                    }
                });
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let m = fast.random_legal(&mut st, &mut a, &mut sc);
                let n = general.random_legal(&mut st, &mut b, &mut sc);
                let used = fast
                    .draw_shifted(&st, &mut rng.clone(), &mut Vec::new())
                    .is_some();
                if alike.is_empty() {
                    assert_eq!(m, n, "{name}, game {game}");
                    same += used as u32;
                } else {
                    let mut legal = Vec::new();
                    general.legal_moves(&mut st, &mut legal);
                    assert_eq!(m.is_none(), legal.is_empty(), "{name}, game {game}");
                    assert!(m.is_none_or(|m| legal.iter().any(|x| x == &m)));
                    other += used as u32;
                }
                rng = a;
                let Some(m) = m else { break };
                fast.make(&mut st, &m);
                st.commit();
            }
        }
        assert!(same > 100, "{name}: {same} draws from the sets alike");
        // The lone wolf, and Tablut's king drawn with the guards (the same rules); every
        // piece in Breakthrough and Amazons is of a type drawn from its sets.
        assert!(
            name == "breakthrough" || name == "amazons" || other > 100,
            "{name}: {other} other draws"
        );
    }
}
