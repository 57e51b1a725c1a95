//! Where a move could change what `legal if` says, so that most candidates are judged
//! without being played.
//!
//! Judging a candidate means playing it, evaluating the condition and taking it back. But
//! a plain move (the mover's piece leaves its origin and stands on its target; no effects
//! of its own; `after` effects that change only counters, flags on those two cells, or
//! empty the origin) changes the condition only through some cells. `find friend King`
//! reads the cells of the friendly King; `first tile from c toward d`, the cells up to the
//! first tile; `attacked`, fewer than it reads, since such a move brings no attacker: the
//! attackers a knight's leap or a step away, a line up to an attacker on it, and the
//! first piece of a line with an attacker behind it. Those cells are the condition's
//! footprint. The condition is evaluated once in the position before the moves, with its
//! footprint; a plain candidate whose origin and target miss the footprint takes that
//! value, and the others are played and judged as before. Finding the footprint mostly
//! tells the value too (whether a cell is attacked is seen on the lines and masks looked
//! at), and then the condition is not evaluated apart.
//!
//! Only conditions whose every part reads cell contents, flags and fixed regions from the
//! mover's point of view have a footprint: `find` of pieces, `first … from … toward`, `is`,
//! steps, quantifiers over directions, and `attacked` when the rules read backwards test
//! the attacked cell alone (and no piece whose rules run forwards could reach the cell).
//! Anything that reads the move (`from`, `to`), counters, the turn or the last move has
//! none, and is judged by playing.

use super::bits::Bits;
use super::core::Core;
use super::evaluate::{Ctx, ExprCompiler};
use super::generate::{Emit, Mode};
use super::state::{Cell, Move, MoveKind, NO_CHOICE, NONE, State};
use crate::ir::{CellExpr, Cond, Effect, Owner, PlayerRef, Program, Stmt, Test};

/// The cells a condition reads, told apart by what it reads there.
#[derive(Clone, Copy, Debug)]
struct Seen<const W: usize> {
    /// Cells whose content (or flags, with content) it reads: a plain move starting or
    /// ending on one may change its value.
    cells: Bits<W>,
    /// Cells whose flags alone it reads (a line of sight along tiles): only a move that
    /// writes a flag there may change its value.
    flags: Bits<W>,
}

impl<const W: usize> Seen<W> {
    const NONE: Seen<W> = Seen {
        cells: Bits::EMPTY,
        flags: Bits::EMPTY,
    };

    /// Every cell read.
    #[inline(always)]
    pub fn all(&self) -> Bits<W> {
        self.cells.or(self.flags)
    }
}

/// Adds a condition's footprint to what is seen, and gives the condition's value when
/// finding the footprint told it (`attacked` is known from the lines looked along), so
/// that it need not be evaluated again.
type FootFn<const W: usize> = Box<
    dyn Fn(&Core<W>, &State<W>, &mut Ctx, &mut Seen<W>) -> Option<bool>
        + Send
        + Sync
        + std::panic::RefUnwindSafe,
>;

/// Adds the cells a cell expression reads to what is seen, and gives its value.
type FootCell<const W: usize> = Box<
    dyn Fn(&Core<W>, &State<W>, &mut Ctx, &mut Seen<W>) -> Cell
        + Send
        + Sync
        + std::panic::RefUnwindSafe,
>;

/// A test that reads only the cell's contents, flags and regions.
fn local(t: &Test) -> bool {
    match t {
        Test::Any
        | Test::Empty
        | Test::Occupied
        | Test::Piece { .. }
        | Test::Region(_)
        | Test::Flag(_)
        | Test::Table(_) => true,
        Test::Attacked | Test::Def { .. } => false,
        Test::Not(t) => local(t),
        Test::And(v) | Test::Or(v) => v.iter().all(local),
    }
}

/// A test that reads only flags and fixed regions, never what stands on the cell: no move
/// of a piece changes it, only a move that writes a flag.
pub(super) fn flags_only(t: &Test) -> bool {
    match t {
        Test::Any | Test::Flag(_) | Test::Region(_) => true,
        Test::Not(t) => flags_only(t),
        Test::And(v) | Test::Or(v) => v.iter().all(flags_only),
        _ => false,
    }
}

/// A test that holds only on a piece of another player's or a neutral one: a plain move
/// of the mover's piece never makes it hold where it did not, since it brings no such
/// piece anywhere (it may take one, where the test held).
pub(super) fn foreign_only(t: &Test) -> bool {
    match t {
        Test::Piece { owner, .. } => matches!(owner, Owner::Enemy | Owner::Neutral),
        Test::And(v) => v.iter().any(foreign_only),
        Test::Or(v) => v.iter().all(foreign_only),
        _ => false,
    }
}

/// Whether the attack rules read backwards (plain steps, slides and leaps) test the
/// attacked cell alone, so that whether a cell is attacked depends on the cell, the lines
/// from it up to their first piece, the cells a step or leap comes from, and the pieces
/// whose rules run forwards (`Core::attack_footprint`).
fn attacks_read_backwards(rules: &[Vec<Stmt>]) -> bool {
    rules.iter().flatten().all(|s| match s {
        Stmt::Step { to, .. } | Stmt::Slide { to, .. } | Stmt::Leap { to, .. } => local(to),
        _ => true,
    })
}

impl<const W: usize> ExprCompiler<'_, W> {
    /// The footprint of a condition, when every part of it has one. `attacks` says
    /// whether `attacked` has one (`attacks_read_backwards`).
    fn footprint(&self, c: &Cond, attacks: bool) -> Option<FootFn<W>> {
        Some(match c {
            Cond::True => Box::new(|_, _, _, _| Some(true)),
            Cond::False => Box::new(|_, _, _, _| Some(false)),
            Cond::PlayerEq(a, b) if *a != PlayerRef::Previous && *b != PlayerRef::Previous => {
                Box::new(|_, _, _, _| None)
            }
            Cond::Is(e, t) => {
                let cell = self.foot_cell(e)?;
                let test = match t {
                    Test::Attacked if attacks => None,
                    t if local(t) => Some(self.test(t)),
                    _ => return None,
                };
                let foreign = foreign_only(t);
                Box::new(move |core, st, cx, f| {
                    let c = cell(core, st, cx, f);
                    if c == NONE {
                        return Some(false);
                    }
                    let Some(t) = &test else {
                        f.cells.insert(c);
                        return match core.attack_footprint(st, cx.me, c) {
                            Some((a, attacked)) => {
                                f.cells = f.cells.or(a);
                                Some(attacked)
                            }
                            None => {
                                f.cells = core.geo.all;
                                None
                            }
                        };
                    };
                    let holds = t.holds(core, st, cx, c);
                    // Where a test of another's pieces fails, no plain move makes it hold.
                    if holds || !foreign {
                        f.cells.insert(c);
                    }
                    Some(holds)
                })
            }
            Cond::CellEq(a, b) => {
                let (a, b) = (self.foot_cell(a)?, self.foot_cell(b)?);
                Box::new(move |core, st, cx, f| {
                    let x = a(core, st, cx, f);
                    Some(x != NONE && x == b(core, st, cx, f))
                })
            }
            Cond::Not(c) => {
                let c = self.footprint(c, attacks)?;
                Box::new(move |core, st, cx, f| c(core, st, cx, f).map(|v| !v))
            }
            Cond::And(v) | Cond::Or(v) => {
                // Every part, not only those evaluated: after the move another part may
                // decide.
                let parts = v
                    .iter()
                    .map(|c| self.footprint(c, attacks))
                    .collect::<Option<Vec<_>>>()?;
                let all = matches!(c, Cond::And(_));
                Box::new(move |core, st, cx, f| {
                    let mut value = Joined::new(all);
                    for p in &parts {
                        value.add(p(core, st, cx, f));
                    }
                    value.get()
                })
            }
            Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body }
                if let Some(sight) =
                    self.sight_footprint(*slot, dirs, body, matches!(c, Cond::Forall { .. })) =>
            {
                sight
            }
            Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body } => {
                let (slot, dirs, body) =
                    (*slot as usize, dirs.clone(), self.footprint(body, attacks)?);
                let all = matches!(c, Cond::Forall { .. });
                Box::new(move |core, st, cx, f| {
                    let mut value = Joined::new(all);
                    for &d in &dirs {
                        cx.slots[slot] = core.dir(cx, d) as u16;
                        value.add(body(core, st, cx, f));
                    }
                    value.get()
                })
            }
            Cond::Let { slot, value, body } => {
                let slot = *slot as usize;
                let (value, body) = (self.foot_cell(value)?, self.footprint(body, attacks)?);
                Box::new(move |core, st, cx, f| {
                    cx.slots[slot] = value(core, st, cx, f);
                    body(core, st, cx, f)
                })
            }
            _ => return None,
        })
    }

    /// Lines of sight from one cell (`any d in D: first T from X toward d is U`, T given
    /// as a set, X not read from `d`): X found once, and each line one mask, rather
    /// than each direction finding X and walking its line through the general parts.
    fn sight_footprint(
        &self,
        slot: crate::ir::Slot,
        dirs: &[crate::ir::DirRef],
        body: &Cond,
        all: bool,
    ) -> Option<FootFn<W>> {
        let (test, start, u) = super::sight::line_of_sight(slot, body)?;
        let independent = match start {
            CellExpr::Find(_) | CellExpr::Const(_) => true,
            CellExpr::Slot(x) => *x != slot,
            _ => false,
        };
        let stops = self.test(test);
        if !independent || !local(test) || !stops.is_set() || !local(u) {
            return None;
        }
        let (flags, foreign) = (flags_only(test), foreign_only(u));
        let (start, u, dirs) = (self.foot_cell(start)?, self.test(u), dirs.to_vec());
        if !u.is_set() {
            return None;
        }
        Some(Box::new(move |core, st, cx, f| {
            let c = start(core, st, cx, f);
            if c == NONE {
                return Some(all && dirs.is_empty());
            }
            let set = stops.set(core, st, cx).expect("a set test");
            let passing = u.set(core, st, cx).expect("a set test");
            // The lines looked along, the first cell of T on each, and whether that cell
            // passes U on some line and on every line.
            let (mut lines, mut firsts, mut some, mut every) =
                (Bits::EMPTY, Bits::EMPTY, false, true);
            for &d in &dirs {
                let seen = core.ray_to_first(c as usize, core.dir(cx, d) as usize & 7, set);
                lines = lines.or(seen);
                let first = seen.and(set);
                firsts = firsts.or(first);
                let holds = first.intersects(&passing);
                some |= holds;
                every &= holds;
            }
            if flags {
                f.flags = f.flags.or(lines);
            } else {
                f.cells = f.cells.or(lines);
            }
            // Where a test of another's pieces fails, no plain move makes it hold.
            f.cells = f
                .cells
                .or(if foreign { firsts.and(passing) } else { firsts });
            Some(if all { every } else { some })
        }))
    }

    fn foot_cell(&self, e: &CellExpr) -> Option<FootCell<W>> {
        Some(match e {
            &CellExpr::Const(c) => Box::new(move |_, _, _, _| c),
            &CellExpr::Slot(s) => Box::new(move |_, _, cx, _| cx.slots[s as usize]),
            CellExpr::Step(base, d, n) => {
                let (base, d, n) = (self.foot_cell(base)?, *d, *n as usize);
                Box::new(move |core, st, cx, f| {
                    let c = base(core, st, cx, f);
                    core.step_n(c, core.dir(cx, d), n)
                })
            }
            CellExpr::First { test, start, dir } if local(test) => {
                let (t, start, d) = (self.test(test), self.foot_cell(start)?, *dir);
                // Along tiles, the cells looked at are read for their flags alone.
                let flags = flags_only(test);
                if t.is_set() {
                    // The ray up to its first cell of T, as one mask: the cells looked at.
                    return Some(Box::new(move |core, st, cx, f| {
                        let c = start(core, st, cx, f);
                        if c == NONE {
                            return NONE;
                        }
                        let set = t.set(core, st, cx).expect("a set test");
                        let seen = core.ray_to_first(c as usize, core.dir(cx, d) as usize & 7, set);
                        if flags {
                            f.flags = f.flags.or(seen);
                        } else {
                            f.cells = f.cells.or(seen);
                        }
                        seen.and(set).lowest().unwrap_or(NONE)
                    }));
                }
                // Every cell looked at, up to the one found.
                Box::new(move |core, st, cx, f| {
                    let c = start(core, st, cx, f);
                    if c == NONE {
                        return NONE;
                    }
                    for &x in core.geo.board.ray(c, core.dir(cx, d)) {
                        if flags {
                            f.flags.insert(x);
                        } else {
                            f.cells.insert(x);
                        }
                        if t.holds(core, st, cx, x) {
                            return x;
                        }
                    }
                    NONE
                })
            }
            // Pieces wherever they stand: a plain move that starts on none of them
            // cannot bring one anywhere, and one that lands on one takes it.
            CellExpr::Find(test) if matches!(**test, Test::Piece { .. }) => {
                let t = self.test(test);
                Box::new(move |core, st, cx, f| {
                    let cells = t.set(core, st, cx).expect("a set test");
                    f.cells = f.cells.or(cells);
                    cells.lowest().unwrap_or(NONE)
                })
            }
            _ => return None,
        })
    }
}

/// The value of a conjunction (`all`) or a disjunction from its parts' values, some of
/// them unknown: one part decides it when it is false in a conjunction, true in a
/// disjunction; otherwise it is known when every part is.
struct Joined {
    all: bool,
    decided: bool,
    unknown: bool,
}

impl Joined {
    fn new(all: bool) -> Joined {
        Joined {
            all,
            decided: false,
            unknown: false,
        }
    }

    fn add(&mut self, v: Option<bool>) {
        match v {
            Some(v) => self.decided |= v != self.all,
            None => self.unknown = true,
        }
    }

    fn get(&self) -> Option<bool> {
        if self.decided {
            Some(!self.all)
        } else if self.unknown {
            None
        } else {
            Some(self.all)
        }
    }
}

/// Where effects write, when they only set or clear flags and empty cells at the move's
/// origin, its target and cells it carries in variables (`let near = …` in its rule,
/// then `clear tile at near`). `after` effects, which carry no variables, qualify with
/// no variables and nothing emptied but the origin.
#[derive(Clone, Debug)]
struct Writes {
    /// The variables holding the other cells written.
    slots: Vec<u8>,
    /// Whether a cell other than the origin is emptied.
    removes: bool,
    /// Whether a flag is set or cleared on the origin or the target.
    ends_flagged: bool,
}

/// The writes of an effect block, when `Writes` can tell them.
fn writes(effects: &[Effect]) -> Option<Writes> {
    fn gather(effects: &[Effect], w: &mut Writes) -> bool {
        effects.iter().all(|e| match e {
            Effect::If {
                then, otherwise, ..
            } => gather(then, w) && gather(otherwise, w),
            Effect::Counter { .. } | Effect::Again => true,
            Effect::SetFlag { at, .. } | Effect::Remove(at) => {
                w.removes |= matches!(e, Effect::Remove(_)) && *at != CellExpr::From;
                w.ends_flagged |= matches!(e, Effect::SetFlag { .. })
                    && matches!(at, CellExpr::From | CellExpr::To);
                match at {
                    CellExpr::From | CellExpr::To => true,
                    &CellExpr::Slot(s) => {
                        w.slots.push(s);
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        })
    }
    let mut w = Writes {
        slots: Vec::new(),
        removes: false,
        ends_flagged: false,
    };
    gather(effects, &mut w).then_some(w)
}

/// The flags, a bit each, that a condition reads, or that the attack rules read, which
/// `attacked` runs.
fn flags_read(c: &Cond, attack_rules: &[Vec<Stmt>]) -> u32 {
    struct Reads(u32);
    impl crate::ir::visit::Visitor for Reads {
        fn test(&mut self, t: &Test) {
            if let Test::Flag(f) = t {
                self.0 |= 1 << f;
            }
            crate::ir::visit::walk_test(self, t);
        }
    }
    let mut r = Reads(0);
    crate::ir::visit::Visitor::cond(&mut r, c);
    for rules in attack_rules {
        crate::ir::visit::walk_stmts(&mut r, rules);
    }
    r.0
}

/// Whether effects write nothing a condition with a footprint and flags `read` reads:
/// only counters and other flags (and they may ask for `again`).
fn unread(effects: &[Effect], read: u32) -> bool {
    effects.iter().all(|e| match e {
        Effect::If {
            then, otherwise, ..
        } => unread(then, read) && unread(otherwise, read),
        Effect::Counter { .. } | Effect::Again => true,
        Effect::SetFlag { flag, .. } => read >> flag & 1 == 0,
        _ => false,
    })
}

/// Whether a condition looks along lines for a test of flags alone (`Seen::flags`).
fn reads_flags_alone(c: &Cond) -> bool {
    struct Reads(bool);
    impl crate::ir::visit::Visitor for Reads {
        fn cell(&mut self, e: &CellExpr) {
            self.0 |= matches!(e, CellExpr::First { test, .. } if flags_only(test));
            crate::ir::visit::walk_cell(self, e);
        }
    }
    let mut r = Reads(false);
    crate::ir::visit::Visitor::cond(&mut r, c);
    r.0
}

/// Whether a condition asks `attacked`, whose footprint holds only for moves that empty
/// no cell but their origin (`Core::attack_footprint`).
fn asks_attacked(c: &Cond) -> bool {
    struct Asks(bool);
    impl crate::ir::visit::Visitor for Asks {
        fn test(&mut self, t: &Test) {
            self.0 |= matches!(t, Test::Attacked);
            crate::ir::visit::walk_test(self, t);
        }
    }
    let mut a = Asks(false);
    crate::ir::visit::Visitor::cond(&mut a, c);
    a.0
}

/// `legal if`'s footprint, and what a move's writes are, compiled once per game.
pub struct Footprint<const W: usize> {
    foot: FootFn<W>,
    /// Piece types whose `after` effects write no more than flags on the move's origin
    /// and target, and the emptying of its origin.
    plain_after: u32,
    /// Per effect block, where it writes.
    blocks: Vec<Option<Writes>>,
    /// Whether the condition asks `attacked`, whose footprint holds only for moves that
    /// empty no cell but their origin (`Core::attack_footprint`).
    asks_attacked: bool,
    /// Piece types whose `after` effects write only counters (and ask for `again`),
    /// which a condition with a footprint never reads, and flags it does not read: a
    /// move of theirs with no effects of its own is judged without them, as a bare move
    /// (`Core::judged_plain`).
    pub unread_after: u32,
    /// The condition as the cells where the piece it finds may stand, when it is made
    /// of lines of sight from it (`sight.rs`): a plain move of that piece is judged by
    /// its target.
    pub standing: Option<(super::sight::Standing<W>, super::compile::test::CTest<W>)>,
    /// Whether some cells are read for their flags alone (`Seen::flags`).
    flags_alone: bool,
}

impl<const W: usize> Footprint<W> {
    /// The footprint of a game's `legal if`, when it has one. `attack_rules` are every
    /// piece type's attack rules (its move rules when it has none).
    pub fn of(x: &ExprCompiler<W>, program: &Program, attack_rules: &[Vec<Stmt>]) -> Option<Self> {
        let g = &program.game;
        let legal = g.legal.as_ref()?;
        let foot = x.footprint(legal, attacks_read_backwards(attack_rules))?;
        // The piece types, a bit each, whose every `after` block passes `ok`.
        let after_all = |ok: &dyn Fn(&[Effect]) -> bool| {
            (0..g.pieces.len())
                .filter(|&p| (g.after.iter()).all(|a| a.pieces >> p & 1 == 0 || ok(&a.effects)))
                .fold(0u32, |m, p| m | 1 << p)
        };
        let plain_after =
            after_all(&|e| writes(e).is_some_and(|w| w.slots.is_empty() && !w.removes));
        let read = flags_read(legal, attack_rules);
        let unread_after = after_all(&|e| unread(e, read));
        Some(Footprint {
            foot,
            plain_after,
            unread_after,
            blocks: program.effects.iter().map(|b| writes(b)).collect(),
            asks_attacked: asks_attacked(legal),
            standing: x
                .standing(legal)
                .map(|(cells, find)| (cells, x.test(&find))),
            flags_alone: reads_flags_alone(legal),
        })
    }

    /// Whether an effect block writes only what `Writes` tells: cells and flags, at
    /// the move's ends or at cells it carries, and counters (`Core::make_light`).
    #[inline(always)]
    pub fn light(&self, effect: u16) -> bool {
        self.blocks[effect as usize].is_some()
    }

    /// The cells where a move of `piece` with no effects of its own, starting or ending
    /// there, may change the condition: those whose content it reads, and those whose
    /// flags it reads too when the piece's `after` effects may write a flag it reads.
    /// With `FLAGS` false, the condition reads no cell for its flags alone (`flags` is
    /// empty), and the test is left out.
    #[inline(always)]
    fn judged_at<const FLAGS: bool>(&self, seen: &Seen<W>, piece: u8) -> Bits<W> {
        if !FLAGS || self.unread_after >> piece & 1 != 0 {
            seen.cells
        } else {
            seen.all()
        }
    }

    /// Whether a move is a plain move: no effects of its own, `after` effects that write
    /// nothing the condition reads.
    #[inline(always)]
    fn plain(&self, m: &Move) -> bool {
        m.kind == MoveKind::Normal
            && m.hops == 0
            && m.choice == NO_CHOICE
            && m.effect == NONE
            && (self.plain_after & self.unread_after) >> m.piece & 1 != 0
    }

    /// Whether a move writes nothing the condition reads: a move of a piece from its
    /// origin to its target (no chain, placement or choice), whose own effects and
    /// `after` effects write only those cells and cells it carries (`Writes`), none of
    /// them read.
    #[inline]
    fn misses<const FLAGS: bool>(&self, m: &Move, seen: &Seen<W>) -> bool {
        if m.kind != MoveKind::Normal
            || m.hops != 0
            || m.choice != NO_CHOICE
            || self.plain_after >> m.piece & 1 == 0
        {
            return false;
        }
        if m.effect == NONE {
            let f = self.judged_at::<FLAGS>(seen, m.piece);
            return !f.has(m.from) && !f.has(m.to);
        }
        let Some(w) = &self.blocks[m.effect as usize] else {
            return false;
        };
        let ends = if FLAGS && w.ends_flagged {
            seen.all()
        } else {
            self.judged_at::<FLAGS>(seen, m.piece)
        };
        if ends.has(m.from) || ends.has(m.to) || (w.removes && self.asks_attacked) {
            return false;
        }
        // A cell it carries may have a flag written or its piece taken.
        let all = if FLAGS { seen.all() } else { seen.cells };
        w.slots.iter().all(|&s| {
            let c = m.slots[s as usize];
            c == NONE || !all.has(c)
        })
    }
}

impl<const W: usize> Core<W> {
    /// How many legal moves the player to move has, when `legal if` has a footprint and
    /// the rules can repeat no move (`Core::judges_in_bulk`): the plain moves off the
    /// footprint are counted as sets, each taking the condition's value before the move,
    /// and only the others are listed and judged. A type drawn by its sets (`batch.rs`)
    /// counts its pieces off the footprint together.
    pub(super) fn count_judged(&self, st: &mut State<W>, buf: &mut Vec<Move>) -> u32 {
        let (Some(legal), Some(fp)) = (&self.legal, &self.legal_foot) else {
            self.legal_moves(st, buf);
            return buf.len() as u32;
        };
        // Apart, so that conditions that read no flags alone pay nothing for telling
        // them apart.
        if fp.flags_alone {
            self.count_judged_in::<true>(st, buf, fp, legal)
        } else {
            self.count_judged_in::<false>(st, buf, fp, legal)
        }
    }

    fn count_judged_in<const FLAGS: bool>(
        &self,
        st: &mut State<W>,
        buf: &mut Vec<Move>,
        fp: &Footprint<W>,
        legal: &super::evaluate::CondFn<W>,
    ) -> u32 {
        let me = st.s.to_move;
        let (seen, before) = self.foot_and_value(st, fp, legal);
        buf.clear();
        let mut batched = 0;
        let mut together = Bits::EMPTY;
        for &piece in &self.batched {
            if fp.plain_after >> piece & 1 == 0 {
                continue;
            }
            let f = fp.judged_at::<FLAGS>(&seen, piece);
            // The pieces on the footprint run their rules, as any piece's.
            let mine = st.by_owner[me as usize]
                .and(st.by_type[piece as usize])
                .minus(f);
            let batch = self.batch[piece as usize].as_ref().expect("batched");
            if mine.at_least(super::movegen::BATCH_FROM)
                && let Some(holding) = self.guards_holding(st, piece, batch)
            {
                together = together.or(mine);
                batched += self.judge_batch(st, piece, mine, batch, holding, f, buf);
            }
        }
        // The one piece the condition finds, when it is made of lines of sight from it
        // (`sight.rs`): its plain moves are counted by where it may stand, not listed.
        let mut standing: Option<(Bits<W>, Option<Bits<W>>)> = None;
        let mut found = Bits::EMPTY;
        if FLAGS && let Some((_, find)) = &fp.standing {
            let cells = find.set(self, st, &Ctx::new(me)).expect("a set test");
            standing = Some((cells, None));
            if !cells.at_least(2) {
                found = cells;
            }
        }
        let mut stood = 0;
        let mut e = Emit::new(Mode::Judge(seen.cells), buf);
        e.count = batched;
        let others = st.by_owner[me as usize].minus(together);
        self.origins_among(st, others, |from, piece| {
            let plain = fp.plain_after >> piece & 1 != 0;
            if plain
                && fp.unread_after >> piece & 1 != 0
                && from != NONE
                && found.has(from)
                && let Some(((cells, _), (_, may))) = fp.standing.as_ref().zip(standing.as_mut())
            {
                let may = *may.get_or_insert_with(|| cells(self, st, &Ctx::new(me)));
                // Kept apart: these take no value from before the move.
                let counted = e.count;
                e.mode = Mode::Stand(may);
                self.run(st, from, piece, &mut e);
                stood += e.count - counted;
                e.count = counted;
                return;
            }
            // `after` effects that may write the footprint: every move of the piece is
            // judged.
            e.mode = if plain {
                Mode::Judge(fp.judged_at::<FLAGS>(&seen, piece))
            } else {
                Mode::Collect
            };
            if plain && self.moves_as_sets >> piece & 1 != 0 && from != NONE {
                // Its targets as sets, handed to the emitter as its rules would hand
                // them, with no rule run.
                let mut cx = Ctx::new(me);
                cx.from = from;
                e.piece = piece;
                self.each_reached(
                    st,
                    &cx,
                    &self.moves[piece as usize],
                    // Called per rule, like `judge_batch`'s per shift: inlined.
                    #[inline(always)]
                    |targets| {
                        e.many(&cx, targets, NONE);
                    },
                );
                return;
            }
            self.run(st, from, piece, &mut e);
        });
        let mut count = if before { e.count } else { 0 } + stood;
        for m in buf.iter() {
            count += self.judged::<FLAGS>(st, fp, &seen, before, m, &mut standing) as u32;
        }
        count
    }

    /// Whether a candidate passes `legal if`, given the footprint `seen` and the value
    /// `before` the move: taken when the move misses the footprint, seen after the move
    /// without playing it when it is a plain move of a piece the condition finds, and
    /// otherwise played and judged.
    /// Lines of sight (`standing`) read flags alone: with `FLAGS` false there are none.
    #[inline(always)]
    fn judged<const FLAGS: bool>(
        &self,
        st: &mut State<W>,
        fp: &Footprint<W>,
        seen: &Seen<W>,
        before: bool,
        m: &Move,
        standing: &mut Option<(Bits<W>, Option<Bits<W>>)>,
    ) -> bool {
        if fp.misses::<FLAGS>(m, seen) {
            return before;
        }
        if FLAGS
            && let Some((cells, find)) = &fp.standing
            && fp.plain(m)
        {
            // A move of the one piece found.
            let cx = Ctx::new(st.s.to_move);
            let (found, may) = standing
                .get_or_insert_with(|| (find.set(self, st, &cx).expect("a set test"), None));
            if found.has(m.from) && !found.at_least(2) {
                return may.get_or_insert_with(|| cells(self, st, &cx)).has(m.to);
            }
        }
        self.is_legal(st, m)
    }

    /// The footprint of `legal if` in this position and the condition's value, from
    /// finding the footprint when that tells it.
    fn foot_and_value(
        &self,
        st: &State<W>,
        fp: &Footprint<W>,
        legal: &super::evaluate::CondFn<W>,
    ) -> (Seen<W>, bool) {
        let me = st.s.to_move;
        let mut seen = Seen::NONE;
        let known = (fp.foot)(self, st, &mut Ctx::new(me), &mut seen);
        (
            seen,
            known.unwrap_or_else(|| legal(self, st, &mut Ctx::new(me))),
        )
    }

    /// Keeps the candidates that pass `legal if`: those whose writes miss the condition's
    /// footprint take its value before the move; the others are played and judged.
    pub(super) fn retain_legal(&self, st: &mut State<W>, out: &mut Vec<Move>) {
        let Some(legal) = &self.legal else {
            return;
        };
        let Some(fp) = self.legal_foot.as_ref().filter(|_| out.len() > 1) else {
            out.retain(|m| self.is_legal(st, m));
            return;
        };
        let (seen, before) = self.foot_and_value(st, fp, legal);
        let mut standing = None;
        if fp.flags_alone {
            out.retain(|m| self.judged::<true>(st, fp, &seen, before, m, &mut standing));
        } else {
            out.retain(|m| self.judged::<false>(st, fp, &seen, before, m, &mut standing));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::Rng;

    /// The games whose `legal if` has a footprint, and what their moves exercise: pins,
    /// checks by every kind of piece, castling and promotion (effects), en passant, a
    /// three-move first turn (`after` effects on counters), `after` effects on a flag the
    /// condition does not read (chess's `unmoved`), lines of sight through holes.
    const GAMES: [&str; 3] = [
        "docs/examples/chess.game",
        "games/shakhmaty.game",
        "games/shakti.game",
    ];

    #[test]
    fn moves_judged_by_footprint_are_the_moves_judged_by_playing() {
        for path in GAMES {
            let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let text = std::fs::read_to_string(&file).expect("the game file");
            let core = Core::<1>::of_text(&text);
            assert!(core.legal_foot.is_some(), "{path}: no footprint");
            // Chess's promotions are choices: its moves are listed to be counted.
            assert_eq!(core.judges_in_bulk, !path.contains("chess"), "{path}");
            // Every candidate judged: with `after` blocks that write nothing the condition
            // reads left out (a bare move), and by playing the whole move.
            let mut bare = Core::<1>::of_text(&text);
            bare.legal_foot = None;
            bare.judges_in_bulk = false;
            if !path.contains("shakti") {
                assert_ne!(bare.judged_after, bare.after_pieces, "{path}");
            }
            let (positions, moves) = agrees_with_playing(&core, &bare, &text, path);
            assert!(
                positions > 1000 && moves > 10_000,
                "{path}: {positions}, {moves}"
            );
        }
    }

    /// Plays 30 random games of `core`, checking in every position that its moves, and
    /// their count, are those of the game judged by playing every candidate (and of
    /// `bare`'s). Returns how many positions and moves were seen.
    fn agrees_with_playing(
        core: &Core<1>,
        bare: &Core<1>,
        text: &str,
        label: &str,
    ) -> (usize, usize) {
        let mut played = Core::<1>::of_text(text);
        played.legal_foot = None;
        played.judges_in_bulk = false;
        played.judged_after = played.after_pieces;
        let (mut positions, mut moves) = (0, 0);
        for game in 0..30 {
            let mut rng = Rng::for_playout(11, game);
            let mut pos = core.start_pos();
            for _ in 0..120 {
                let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
                core.legal_moves(&mut pos.st, &mut a);
                played.legal_moves(&mut pos.st, &mut b);
                bare.legal_moves(&mut pos.st, &mut c);
                for x in [&a, &c] {
                    assert!(
                        x.len() == b.len() && x.iter().zip(&b).all(|(x, y)| x.same_as(y)),
                        "{label}, game {game}, ply {}: {} moves against {}",
                        pos.st.s.ply,
                        x.len(),
                        b.len()
                    );
                }
                // Counted, most moves as sets: as many as listed.
                let counted = core.count_legal(&mut pos.st, &mut Vec::new());
                assert_eq!(counted as usize, b.len(), "{label}, game {game}");
                positions += 1;
                moves += a.len();
                if a.is_empty() {
                    break;
                }
                core.play(&mut pos, &a[rng.below(a.len())]);
            }
        }
        (positions, moves)
    }

    /// Lines of sight from a found piece, read along holes (flags alone) or along pieces
    /// (content), testing another's pieces or the mover's own, with one piece found or
    /// two: each kind of read is told apart rightly, and so are the moves of the piece
    /// found (`sight.rs`), captures of the pieces it looks for among them.
    #[test]
    fn lines_of_sight_are_judged_by_what_they_read() {
        let game = |seen: &str, kings: &str, rook: &str| {
            format!(
                "players {{ white black }}\n\
                 board 6 x 6\n\
                 flag tile = all - b3 e4 c5\n\
                 piece King letter K\n\
                 piece Rook letter R\n\
                 setup {{ white King {kings}  white Rook a1 f1\n black King d6  black Rook a6 f6 c4 }}\n\
                 moves King {{ step all to not friend }}\n\
                 moves Rook {{ slide orthogonal to tile and not friend{rook} }}\n\
                 legal if {seen}\n\
                 pass when no moves\n\
                 end {{ when no moves and passes >= 1: draw }}\n"
            )
        };
        let (mut standing, mut seen_in_all) = (0, 0);
        let sight = |stops: &str, d: &str, seen: &str| {
            format!("{d} d in all: first {stops} from find friend King toward d is {seen}")
        };
        for stops in ["tile", "occupied"] {
            for seen in [
                format!("not ({})", sight(stops, "any", "enemy Rook")),
                format!(
                    "not ({})",
                    sight(stops, "any", "(enemy Rook or enemy King)")
                ),
                format!("not ({})", sight(stops, "any", "friend Rook")),
                format!(
                    "({}) or not ({})",
                    sight(stops, "all", "enemy"),
                    sight(stops, "any", "enemy King")
                ),
            ] {
                // Rooks that leave a hole behind them, in their own effects or in
                // `after` effects: the lines along holes change.
                let rooks = [
                    "",
                    " then { clear tile at from }",
                    " }\nafter move of Rook { clear tile at from",
                ];
                for (kings, rook) in [
                    ("c1", ""),
                    ("c1 d1", ""),
                    ("c1", rooks[1]),
                    ("c1", rooks[2]),
                ] {
                    let text = game(&seen, kings, rook);
                    let core = Core::<1>::of_text(&text);
                    let label = format!("{stops} / {seen} / {kings} / {rook}");
                    assert!(core.legal_foot.is_some(), "{label}");
                    let fp = core.legal_foot.as_ref().expect("a footprint");
                    standing += fp.standing.is_some() as u32;
                    let mut bare = Core::<1>::of_text(&text);
                    bare.legal_foot = None;
                    bare.judges_in_bulk = false;
                    let (positions, _) = agrees_with_playing(&core, &bare, &text, &label);
                    assert!(positions > 50, "{label}: {positions}");
                    seen_in_all += positions;
                }
            }
        }
        assert!(seen_in_all > 10_000, "{seen_in_all}");
        // Along holes, at another's pieces only.
        assert_eq!(standing, 12);
    }

    /// An `after` block that writes a flag the condition reads runs when a move is
    /// judged; one that writes only counters and other flags does not need to.
    #[test]
    fn after_blocks_are_left_out_of_judging_only_when_the_condition_cannot_see_them() {
        let game = |reads: &str| {
            format!(
                "players {{ white black }}\n\
                 board 4 x 4\n\
                 flag marked = none\n\
                 flag seen = none\n\
                 piece Man letter M\n\
                 setup {{ white Man a1\n black Man d4 }}\n\
                 counter steps = 0\n\
                 moves Man {{ step all to empty }}\n\
                 after move {{ set marked at to\n steps += 1 }}\n\
                 legal if not (find friend Man is {reads})\n\
                 end {{ when no moves: draw }}\n"
            )
        };
        for (reads, bare) in [("marked", false), ("seen", true)] {
            let core = Core::<1>::of_text(&game(reads));
            assert!(core.legal_foot.is_some(), "{reads}");
            assert_eq!(core.judged_after & 1 == 0, bare, "{reads}");
            let mut pos = core.start_pos();
            let mut moves = Vec::new();
            core.legal_moves(&mut pos.st, &mut moves);
            // Every step lands on a cell the `after` block marks.
            assert_eq!(moves.len(), if bare { 3 } else { 0 }, "{reads}");
        }
    }
}
