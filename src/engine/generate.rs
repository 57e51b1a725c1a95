//! Move generation: move (or attack) rules, compiled into statements that run for one
//! piece and hand their targets to an [`Emit`], which collects them, counts them, picks
//! the n-th, or asks whether one of them is a given cell. Statements whose targets form a
//! set (a slide, step, leap or placement with a tabulated test and no condition) hand the
//! whole set at once, so that counting is a popcount and a slide a few masks.

use super::bits::Bits;
use super::compile::sets::SetFn;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{CellFn, CondFn, Ctx};
use super::state::{Cell, Move, MoveKind, NONE, State};
use crate::ir::DirRef;

/// A compiled move statement.
pub enum CStmt<const W: usize> {
    For {
        slot: u8,
        dirs: Vec<DirRef>,
        body: Vec<CStmt<W>>,
        /// The body is only `let`s and `move to`s (`for d in all { let near = …; move
        /// to near … }`): run by `for_moves`, with no call per statement.
        flat: bool,
    },
    ForPiece {
        slot: u8,
        pieces: Vec<u8>,
        body: Vec<CStmt<W>>,
    },
    Let {
        slot: u8,
        value: CellFn<W>,
    },
    If {
        cond: CondFn<W>,
        then: Vec<CStmt<W>>,
        otherwise: Vec<CStmt<W>>,
    },
    Step {
        dirs: Vec<DirRef>,
        /// Per player (or one for all), per cell: the cells of the steps, when no
        /// direction is a variable (see `Core::tabulate_steps`).
        masks: Option<super::core::StepMasks<W>>,
        to: CTest<W>,
        cond: Option<CondFn<W>>,
        then: u16,
    },
    Slide {
        dirs: Vec<DirRef>,
        /// The directions a bit each when every one is absolute and none is named twice
        /// (most slides), else 0: loops over them read no direction's variable or player.
        fixed: u8,
        max: u8,
        through: Option<CTest<W>>,
        to: CTest<W>,
        cond: Option<CondFn<W>>,
        then: u16,
    },
    Leap {
        /// Per player, or one for all.
        leap: Vec<u16>,
        to: CTest<W>,
        cond: Option<CondFn<W>>,
        /// `cond` as a set of targets, when it has one.
        cond_set: Option<SetFn<W>>,
        then: u16,
    },
    MoveTo {
        /// The target as `n` steps from `from` in a direction, when it is written so: no
        /// call to `target` then.
        step: Option<(DirRef, u8)>,
        target: CellFn<W>,
        to: CTest<W>,
        /// `None` when the condition tests only the target: it is part of `to` then.
        cond: Option<CondFn<W>>,
        then: u16,
    },
    /// In each direction, a move to the first cell of `seek` beyond the piece, if it
    /// passes `to`: the `move to first T from from toward d`s of a `for` (see
    /// `ExprCompiler::for_dirs`), with no effect.
    Nearest {
        dirs: Vec<DirRef>,
        seek: CTest<W>,
        to: CTest<W>,
    },
    /// A `for` over directions whose body is `let near = first seek from from toward
    /// d` then `move to first past from near toward d if near is mid …` (see
    /// `ExprCompiler::beyond`): run with no closure, each test a set read once.
    Beyond {
        slot: u8,
        dirs: Vec<DirRef>,
        near: u8,
        seek: CTest<W>,
        mid: CTest<W>,
        past: CTest<W>,
        to: CTest<W>,
        then: u16,
    },
    MoveAny {
        to: CTest<W>,
        cond: Option<CondFn<W>>,
        cond_set: Option<SetFn<W>>,
        then: u16,
    },
    New(Box<CStmt<W>>),
    /// Index into `Core::chains`.
    Chain(u16),
    Class {
        class: u8,
        body: Vec<CStmt<W>>,
    },
    Place {
        on: CTest<W>,
        cond: Option<CondFn<W>>,
        cond_set: Option<SetFn<W>>,
        then: u16,
    },
}

/// What to do with the targets of a piece's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode<const W: usize> {
    /// Push every move.
    Collect,
    /// Count them.
    Count,
    /// Stop at the one with this index (counting from where `count` stands) and keep it.
    Nth(u32),
    /// Stop when one targets this cell.
    Hit(Cell),
    /// Stop at the first that targets this cell, and keep it.
    Find(Cell),
    /// Count those that target cells of a set.
    CountIn(Bits<W>),
    /// Count them, and separately per class of `priority` (`Emit::classes`).
    CountByClass,
    /// Count the plain moves (of a piece on the board, with no effect block, no piece
    /// chosen) whose origin and target are off this set, a `legal if`'s footprint; push
    /// the others, to be judged one by one (`Core::count_judged`).
    Judge(Bits<W>),
    /// Count the plain moves whose target is in this set, the cells where the piece a
    /// `legal if` finds may stand (`sight.rs`), when the piece moving is that one; push
    /// the others, to be judged one by one (`Core::count_judged`).
    Stand(Bits<W>),
}

/// How many classes of `priority` a `CountByClass` emitter tells apart; the last slot
/// counts the moves of no class.
pub const CLASS_SLOTS: usize = 4;

/// The slot of `CountByClass` counts a move of class `class` goes to.
#[inline(always)]
pub fn class_slot(class: u8) -> usize {
    (class as usize).min(CLASS_SLOTS - 1)
}

/// Whether the moves of a rule are plain: a piece on the board moving, with no effect
/// block and no piece chosen.
#[inline(always)]
fn plain_move(cx: &Ctx, then: u16) -> bool {
    then == NONE && cx.from != NONE && !cx.create && cx.choice == super::state::NO_CHOICE
}

/// The class filter of an emitter that takes moves of every class.
pub const ANY_CLASS: u8 = u8::MAX - 1;

/// Where an emitter that looks for one move (`Nth`, `Find`) writes it: in itself, or in
/// its caller's slot, which the caller then reads in place (a move copied whole just
/// after its fields were written, each in its own size, waits for those stores).
pub enum Found<'a> {
    Here(Option<Move>),
    In(&'a mut Option<Move>),
}

impl Found<'_> {
    #[inline(always)]
    pub fn slot(&mut self) -> &mut Option<Move> {
        match self {
            Found::Here(m) => m,
            Found::In(m) => m,
        }
    }
}

/// Where generated moves go.
pub struct Emit<'a, const W: usize> {
    pub mode: Mode<W>,
    pub out: &'a mut Vec<Move>,
    pub count: u32,
    pub found: Found<'a>,
    pub piece: u8,
    /// In `Nth` mode, also push the candidates before the n-th (to spot duplicates).
    pub keep_before: bool,
    /// In `Nth` mode without `keep_before`, also record the candidates of each statement
    /// the n-th is not in, so that a run that misses (fewer candidates than n) leaves
    /// them all, in order: a move in `out`, or a set of targets as a move with no
    /// target in `out` and the set's words here (read back by `movegen`'s `recorded`).
    pub record: Option<&'a mut Vec<u64>>,
    /// Only moves of this class of `priority` (`NO_CLASS`: of none) count, unless it is
    /// `ANY_CLASS`.
    pub class: u8,
    /// In `CountByClass` mode, the counts per class slot (`class_slot`).
    pub classes: [u32; CLASS_SLOTS],
}

impl<'a, const W: usize> Emit<'a, W> {
    pub fn new(mode: Mode<W>, out: &'a mut Vec<Move>) -> Emit<'a, W> {
        Emit {
            mode,
            out,
            count: 0,
            found: Found::Here(None),
            piece: 0,
            keep_before: false,
            record: None,
            class: ANY_CLASS,
            classes: [0; CLASS_SLOTS],
        }
    }

    #[inline(always)]
    fn make(&self, cx: &Ctx, to: Cell, then: u16) -> Move {
        made(cx, self.piece, to, then)
    }

    /// `make`, pushed (`push_made`).
    #[inline(always)]
    fn push(&mut self, cx: &Ctx, to: Cell, then: u16) {
        push_made(self.out, cx, self.piece, to, then);
    }

    /// `make`, as the move found: written field by field into its slot (`made_in`).
    #[inline(always)]
    fn find(&mut self, cx: &Ctx, to: Cell, then: u16) {
        let piece = self.piece;
        made_in(self.found.slot().insert(Move::PASS), cx, piece, to, then);
    }

    /// A whole chain of hops, as one move. True when generation should stop.
    pub fn chain(&mut self, cx: &Ctx, chain: u16, path: &[Cell]) -> bool {
        let mut m = self.make(cx, *path.last().expect("a hop"), chain);
        m.hops = path.len() as u8;
        m.path[..path.len()].copy_from_slice(path);
        match self.mode {
            Mode::Collect | Mode::Judge(_) | Mode::Stand(_) => {
                self.out.push(m);
                false
            }
            Mode::Count | Mode::CountIn(_) => {
                self.count += 1;
                false
            }
            Mode::CountByClass => {
                self.count += 1;
                self.classes[class_slot(cx.class)] += 1;
                false
            }
            Mode::Nth(k) => {
                if self.count == k {
                    *self.found.slot() = Some(m);
                    return true;
                }
                if self.keep_before || self.record.is_some() {
                    self.out.push(m);
                }
                self.count += 1;
                false
            }
            Mode::Hit(c) => m.to == c,
            Mode::Find(c) => {
                let hit = m.to == c;
                if hit {
                    *self.found.slot() = Some(m);
                }
                hit
            }
        }
    }

    /// One target. True when generation should stop.
    #[inline(always)]
    pub fn one(&mut self, cx: &Ctx, to: Cell, then: u16) -> bool {
        match self.mode {
            Mode::Collect => {
                self.push(cx, to, then);
                false
            }
            Mode::Count => {
                self.count += 1;
                false
            }
            Mode::CountByClass => {
                self.count += 1;
                self.classes[class_slot(cx.class)] += 1;
                false
            }
            Mode::Nth(k) => {
                if self.count == k {
                    self.find(cx, to, then);
                    return true;
                }
                if self.keep_before || self.record.is_some() {
                    self.push(cx, to, then);
                }
                self.count += 1;
                false
            }
            Mode::Hit(c) => to == c,
            Mode::Find(c) => {
                let hit = to == c;
                if hit {
                    self.find(cx, to, then);
                }
                hit
            }
            Mode::CountIn(set) => {
                self.count += set.has(to) as u32;
                false
            }
            Mode::Judge(f) => {
                if self.plain(cx, then, f) && !f.has(to) {
                    self.count += 1;
                } else {
                    self.push(cx, to, then);
                }
                false
            }
            Mode::Stand(may) => {
                if plain_move(cx, then) {
                    self.count += may.has(to) as u32;
                } else {
                    self.push(cx, to, then);
                }
                false
            }
        }
    }

    /// Whether, in `Judge` mode, the moves of this piece and rule are plain and start
    /// off the footprint `f`.
    #[inline(always)]
    fn plain(&self, cx: &Ctx, then: u16, f: Bits<W>) -> bool {
        plain_move(cx, then) && !f.has(cx.from)
    }

    /// A set of targets, lowest cell first. True when generation should stop.
    #[inline(always)]
    pub fn many(&mut self, cx: &Ctx, targets: Bits<W>, then: u16) -> bool {
        match self.mode {
            Mode::Count => {
                self.count += targets.count();
                false
            }
            Mode::CountByClass => {
                let n = targets.count();
                self.count += n;
                self.classes[class_slot(cx.class)] += n;
                false
            }
            Mode::Nth(k) => {
                let ranked = targets.ranked();
                let n = ranked.count();
                let inside = k - self.count < n;
                if self.keep_before {
                    for to in targets.iter().take((k - self.count).min(n) as usize) {
                        self.push(cx, to, then);
                    }
                }
                if inside {
                    let to = ranked.nth_within(k - self.count);
                    self.find(cx, to, then);
                    return true;
                }
                if !self.keep_before
                    && n > 0
                    && let Some(words) = &mut self.record
                {
                    words.extend_from_slice(&targets.0);
                    self.push(cx, NONE, then);
                }
                self.count += n;
                false
            }
            Mode::Hit(c) => targets.has(c),
            Mode::Find(c) => {
                let hit = targets.has(c);
                if hit {
                    self.find(cx, c, then);
                }
                hit
            }
            Mode::CountIn(set) => {
                self.count += targets.and(set).count();
                false
            }
            Mode::Collect => {
                for to in targets.iter() {
                    self.push(cx, to, then);
                }
                false
            }
            Mode::Stand(may) => {
                if plain_move(cx, then) {
                    self.count += targets.and(may).count();
                } else {
                    for to in targets.iter() {
                        self.push(cx, to, then);
                    }
                }
                false
            }
            Mode::Judge(f) => {
                let judged = if self.plain(cx, then, f) {
                    self.count += targets.minus(f).count();
                    targets.and(f)
                } else {
                    targets
                };
                for to in judged.iter() {
                    self.push(cx, to, then);
                }
                false
            }
        }
    }
}

impl<const W: usize> Core<W> {
    /// Runs rules for the piece at `cx.from` (or, when `cx.from` is `NONE`, for a piece in
    /// hand). Returns true when the emitter asked to stop.
    pub fn generate(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        rules: &[CStmt<W>],
        e: &mut Emit<W>,
    ) -> bool {
        // Statements outside the class an emitter takes produce nothing it counts.
        let other_class = e.class != ANY_CLASS && e.class != cx.class;
        for s in rules {
            if other_class
                && !matches!(
                    s,
                    CStmt::For { .. }
                        | CStmt::Beyond { .. }
                        | CStmt::ForPiece { .. }
                        | CStmt::Let { .. }
                        | CStmt::If { .. }
                        | CStmt::New(_)
                        | CStmt::Class { .. }
                )
            {
                continue;
            }
            if self.stmt(st, cx, s, e) {
                return true;
            }
        }
        false
    }

    /// Runs one statement. Kept out of `generate`'s loop so that the loads the many arms
    /// need are made in their own arms, not all at every call.
    #[inline(never)]
    fn stmt(&self, st: &State<W>, cx: &mut Ctx, s: &CStmt<W>, e: &mut Emit<W>) -> bool {
        match s {
            CStmt::For {
                slot,
                dirs,
                body,
                flat: true,
            } => self.for_moves(st, cx, *slot, dirs, body, e),
            CStmt::For {
                slot, dirs, body, ..
            } => dirs.iter().any(|&d| {
                cx.slots[*slot as usize] = self.dir(cx, d) as u16;
                self.generate(st, cx, body, e)
            }),
            CStmt::ForPiece { slot, pieces, body } => {
                let saved = cx.choice;
                let stop = pieces.iter().any(|&p| {
                    cx.slots[*slot as usize] = p as u16;
                    cx.choice = p;
                    self.generate(st, cx, body, e)
                });
                cx.choice = saved;
                stop
            }
            CStmt::Let { slot, value } => {
                cx.slots[*slot as usize] = value(self, st, cx);
                false
            }
            CStmt::If {
                cond,
                then,
                otherwise,
            } => {
                if cond(self, st, cx) {
                    self.generate(st, cx, then, e)
                } else {
                    self.generate(st, cx, otherwise, e)
                }
            }
            CStmt::Step {
                masks: Some(masks),
                to,
                then,
                ..
            } => {
                cx.from != NONE && {
                    let mask = masks[(cx.me as usize).min(masks.len() - 1)][cx.from as usize];
                    match e.mode {
                        Mode::Hit(c) => {
                            mask.has(c) && to.holds(self, st, cx, c) && e.one(cx, c, *then)
                        }
                        _ => {
                            let set = to.set(self, st, cx).expect("a set test");
                            e.many(cx, mask.and(set), *then)
                        }
                    }
                }
            }
            CStmt::Step {
                dirs,
                to,
                cond,
                then,
                ..
            } => {
                cx.from != NONE
                    && dirs.iter().any(|&d| {
                        let c = self.step(cx.from, self.dir(cx, d));
                        c != NONE && self.target(st, cx, c, to, cond, *then, e)
                    })
            }
            CStmt::Slide {
                dirs,
                fixed,
                max,
                through,
                to,
                cond,
                then,
            } => {
                cx.from != NONE
                    && self.slide(
                        st,
                        cx,
                        (dirs, *fixed),
                        *max,
                        through.as_ref(),
                        to,
                        cond,
                        *then,
                        e,
                    )
            }
            CStmt::Leap {
                leap,
                to,
                cond,
                cond_set,
                then,
            } => {
                let leap = leap[(cx.me as usize).min(leap.len() - 1)] as usize;
                if cx.from == NONE {
                    false
                } else if to.is_set() && (cond.is_none() || cond_set.is_some()) {
                    let set = to.set(self, st, cx).expect("a set test");
                    let targets = self.geo.leap_masks[leap][cx.from as usize].and(set);
                    let targets = self.only_where(st, cx, targets, cond_set);
                    e.many(cx, targets, *then)
                } else {
                    self.geo.leap_lists[leap][cx.from as usize]
                        .iter()
                        .any(|&c| self.target(st, cx, c, to, cond, *then, e))
                }
            }
            CStmt::MoveTo { .. } => self.move_to(st, cx, s, e),
            CStmt::Nearest { dirs, seek, to } => {
                cx.from != NONE && self.nearest(st, cx, dirs, seek, to, e)
            }
            CStmt::Beyond { .. } => self.beyond(st, cx, s, e),
            CStmt::MoveAny {
                to,
                cond,
                cond_set,
                then,
            } => cx.from != NONE && self.any_cell(st, cx, to, cond, cond_set, *then, e),
            CStmt::New(inner) => {
                let saved = cx.create;
                cx.create = true;
                let stop = self.generate(st, cx, std::slice::from_ref(inner), e);
                cx.create = saved;
                stop
            }
            CStmt::Class { class, body } if e.class != ANY_CLASS && e.class != *class => false,
            CStmt::Class { class, body } => {
                let saved = cx.class;
                cx.class = *class;
                let stop = self.generate(st, cx, body, e);
                cx.class = saved;
                stop
            }
            CStmt::Chain(id) => {
                cx.from != NONE
                    // A piece the hops' shape rules out costs no run of their rules.
                    && self.chains[*id as usize]
                        .2
                        .as_ref()
                        .is_none_or(|g| self.could_start(g, st, cx, cx.from))
                    && self.chain_from(st, cx, *id, e)
            }
            CStmt::Place {
                on,
                cond,
                cond_set,
                then,
            } => cx.from == NONE && self.any_cell(st, cx, on, cond, cond_set, *then, e),
        }
    }

    /// A `Beyond`, as the `for` it stands for runs: the variables written in every
    /// direction, the target's tests before the one of `near`.
    #[inline(never)]
    fn beyond(&self, st: &State<W>, cx: &mut Ctx, s: &CStmt<W>, e: &mut Emit<W>) -> bool {
        let CStmt::Beyond {
            slot,
            dirs,
            near,
            seek,
            mid,
            past,
            to,
            then,
        } = s
        else {
            return false;
        };
        let set = |t: &CTest<W>| t.set(self, st, cx).expect("a set test");
        let (seek, mid, past, to) = (set(seek), set(mid), set(past), set(to));
        // As `generate` skips them: a move outside the class the emitter takes.
        let other_class = e.class != ANY_CLASS && e.class != cx.class;
        let from = cx.from;
        dirs.iter().any(|&d| {
            let d = self.dir(cx, d);
            cx.slots[*slot as usize] = d as u16;
            let n = if from == NONE {
                NONE
            } else {
                self.first_in(from, d, seek)
            };
            cx.slots[*near as usize] = n;
            if other_class || n == NONE {
                return false;
            }
            let c = self.first_in(n, d, past);
            c != NONE && to.has(c) && {
                cx.to = c;
                mid.has(n) && e.one(cx, c, *then)
            }
        })
    }

    /// A `Nearest`: the first cell of `seek` in each direction, joined in a loop that
    /// calls nothing and has no branch on the board. A direction named twice gives its
    /// cell once, where the loop gave it twice: rules that name one twice may repeat a
    /// move (`apart.rs`), so their moves are listed and the first of each kept anyway.
    #[inline(always)]
    fn nearest(
        &self,
        st: &State<W>,
        cx: &Ctx,
        dirs: &[DirRef],
        seek: &CTest<W>,
        to: &CTest<W>,
        e: &mut Emit<W>,
    ) -> bool {
        let from = cx.from as usize;
        let seek = seek.set(self, st, cx).expect("a set test");
        let reached = dirs.iter().fold(Bits::EMPTY, |reached, &d| {
            reached.or(self.first_cell_of(from, self.dir(cx, d) as usize & 7, seek))
        });
        e.many(
            cx,
            reached.and(to.set(self, st, cx).expect("a set test")),
            NONE,
        )
    }

    /// A `move to` statement (`s`). True when the emitter asked to stop.
    #[inline(always)]
    fn move_to(&self, st: &State<W>, cx: &mut Ctx, s: &CStmt<W>, e: &mut Emit<W>) -> bool {
        let CStmt::MoveTo {
            step,
            target,
            to,
            cond,
            then,
        } = s
        else {
            return false;
        };
        if cx.from == NONE {
            return false;
        }
        let c = match *step {
            Some((d, n)) => self.step_n(cx.from, self.dir(cx, d), n as usize),
            None => target(self, st, cx),
        };
        c != NONE && to.holds(self, st, cx, c) && {
            cx.to = c;
            cond.as_ref().is_none_or(|f| f(self, st, cx)) && e.one(cx, c, *then)
        }
    }

    /// A `for` over directions whose body is only `let`s and `move to`s, each run in
    /// place: `stmt`, built for every kind of statement, costs a large frame per call.
    #[inline(never)]
    fn for_moves(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        slot: u8,
        dirs: &[DirRef],
        body: &[CStmt<W>],
        e: &mut Emit<W>,
    ) -> bool {
        // As `generate` skips them: a move outside the class the emitter takes.
        let other_class = e.class != ANY_CLASS && e.class != cx.class;
        dirs.iter().any(|&d| {
            cx.slots[slot as usize] = self.dir(cx, d) as u16;
            body.iter().any(|s| match s {
                CStmt::Let { slot, value } => {
                    cx.slots[*slot as usize] = value(self, st, cx);
                    false
                }
                _ => !other_class && self.move_to(st, cx, s, e),
            })
        })
    }

    /// Every cell of the board passing `to` and `cond` (a placement, a man that flies):
    /// as one set when the test and the condition have one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn any_cell(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        to: &CTest<W>,
        cond: &Option<CondFn<W>>,
        cond_set: &Option<SetFn<W>>,
        then: u16,
        e: &mut Emit<W>,
    ) -> bool {
        if to.is_set() && (cond.is_none() || cond_set.is_some()) {
            let set = to.set(self, st, cx).expect("a set test");
            let targets = self.only_where(st, cx, set.and(self.geo.all), cond_set);
            e.many(cx, targets, then)
        } else {
            (0..self.geo.cells).any(|c| self.target(st, cx, c, to, cond, then, e))
        }
    }

    /// Whether a piece's rules give its placements as one set: a lone placement whose
    /// test and condition have sets, or when `guarded`, also an `if` (on the position:
    /// nothing is bound yet) whose branches are such rules or nothing. A random draw
    /// then counts and decodes its candidates from that set, with no emitter. (Where some
    /// type acts on the board, several guarded types in hand are drawn faster by their
    /// bounds: one of them is decoded rather than every one's set built. Where none
    /// does, `Core::random_placed` builds each set once for the types placed alike.)
    pub fn placements_only(rules: &[CStmt<W>], guarded: bool) -> bool {
        let branch = |rules: &[CStmt<W>]| rules.is_empty() || Self::placements_only(rules, true);
        match rules {
            [
                CStmt::Place {
                    on, cond, cond_set, ..
                },
            ] => on.is_set() && (cond.is_none() || cond_set.is_some()),
            [
                CStmt::If {
                    then, otherwise, ..
                },
            ] if guarded => {
                branch(then) && branch(otherwise) && !(then.is_empty() && otherwise.is_empty())
            }
            _ => false,
        }
    }

    /// A piece's placement past its guard: the body of a lone `if` with no `else` when
    /// its condition `holds` (`None` when it does not), or else the rules themselves.
    #[inline(always)]
    pub fn past_guard(
        rules: &[CStmt<W>],
        holds: impl FnOnce(&CondFn<W>) -> bool,
    ) -> Option<&[CStmt<W>]> {
        match Self::guard_of(rules) {
            Some((cond, then)) => holds(cond).then_some(then),
            None => Some(rules),
        }
    }

    /// A piece's guard, when its rules are a lone `if` with no `else`: the condition and
    /// the body.
    #[inline(always)]
    pub fn guard_of(rules: &[CStmt<W>]) -> Option<(&CondFn<W>, &[CStmt<W>])> {
        match rules {
            [
                CStmt::If {
                    cond,
                    then,
                    otherwise,
                },
            ] if otherwise.is_empty() => Some((cond, then)),
            _ => None,
        }
    }

    /// The cells a piece in hand whose rules pass `placements_only` may be placed on, and
    /// the effect block of its placement.
    #[inline(always)]
    pub fn placements(&self, st: &State<W>, cx: &mut Ctx, rules: &[CStmt<W>]) -> (Bits<W>, u16) {
        match rules {
            [
                CStmt::Place {
                    on, cond_set, then, ..
                },
            ] => {
                let set = on.set(self, st, cx).expect("a set test");
                (
                    self.only_where(st, cx, set.and(self.geo.all), cond_set),
                    *then,
                )
            }
            [
                CStmt::If {
                    cond,
                    then,
                    otherwise,
                },
            ] => self.guarded_placements(st, cx, cond, then, otherwise),
            _ => (Bits::EMPTY, NONE),
        }
    }

    /// `placements` under an `if`: out of line, so that the plain placement's stays inline.
    #[inline(never)]
    fn guarded_placements(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        cond: &CondFn<W>,
        then: &[CStmt<W>],
        otherwise: &[CStmt<W>],
    ) -> (Bits<W>, u16) {
        let branch = if cond(self, st, cx) { then } else { otherwise };
        self.placements(st, cx, branch)
    }

    /// The targets among `targets` where a statement's condition holds, given as a set.
    #[inline(always)]
    pub(super) fn only_where(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        targets: Bits<W>,
        cond_set: &Option<SetFn<W>>,
    ) -> Bits<W> {
        match cond_set {
            Some(f) if !targets.is_empty() => targets.and(f(self, st, cx)),
            _ => targets,
        }
    }

    /// One target cell of a statement: its cell test, then its `if` condition (with `to`
    /// bound to the cell), then the emitter. True when the emitter asked to stop.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn target(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        c: Cell,
        to: &CTest<W>,
        cond: &Option<CondFn<W>>,
        then: u16,
        e: &mut Emit<W>,
    ) -> bool {
        to.holds(self, st, cx, c)
            && match cond {
                None => true,
                Some(k) => {
                    cx.to = c;
                    k(self, st, cx)
                }
            }
            && e.one(cx, c, then)
    }

    #[allow(clippy::too_many_arguments)]
    fn slide(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        (dirs, fixed): (&[DirRef], u8),
        max: u8,
        through: Option<&CTest<W>>,
        to: &CTest<W>,
        cond: &Option<CondFn<W>>,
        then: u16,
        e: &mut Emit<W>,
    ) -> bool {
        let from = cx.from as usize;
        // Cells the slide may not pass over stop it before them, like the edge.
        let walls = match through {
            None => Some(Bits::EMPTY),
            Some(t) => t
                .set(self, st, cx)
                .map(|s| self.geo.all.minus(s).minus(st.occupied)),
        };
        // The common case: every cell up to and including the first occupied one, then
        // the test, as bitboard operations.
        if let (None, true, true, Some(walls)) = (
            cond,
            max as usize >= self.geo.longest_ray,
            to.is_set(),
            walls,
        ) {
            let set = to.set(self, st, cx).expect("a set test");
            // Counting needs only the size of all the directions' targets together:
            // one popcount, not one per direction. Rays of distinct directions share no
            // cell; a direction named twice counts twice, as listing would. Decoding the
            // n-th target of a draw may take them together too (in the order of cells,
            // not of directions: any order in which each target has one index will do),
            // unless it lists the targets before the n-th to spot duplicates, which must
            // come in the order listing gives.
            let counting = match e.mode {
                Mode::Count
                | Mode::CountIn(_)
                | Mode::CountByClass
                | Mode::Judge(_)
                | Mode::Stand(_) => true,
                Mode::Nth(_) => !e.keep_before,
                Mode::Collect | Mode::Hit(_) | Mode::Find(_) => false,
            };
            let mut reached = Bits::EMPTY;
            let stops = st.occupied.or(walls);
            if counting && fixed != 0 {
                // No direction named twice: every ray joined, with no direction read.
                let reached = self.rays_to_first(from, fixed, stops).minus(walls);
                return e.many(cx, reached.and(set), then);
            }
            let mut seen = 0u8;
            for &d in dirs {
                let d = self.dir(cx, d) as usize & 7;
                // The ray up to its first occupied cell or wall; a wall is no target. A
                // cell is never both occupied and a wall.
                let reach = self.ray_to_first(from, d, stops).minus(walls);
                if counting && seen & (1 << d) == 0 {
                    seen |= 1 << d;
                    reached = reached.or(reach);
                } else if e.many(cx, reach.and(set), then) {
                    return true;
                }
            }
            return counting && e.many(cx, reached.and(set), then);
        }
        for &d in dirs {
            let ray = self.geo.board.ray(cx.from, self.dir(cx, d));
            for &c in &ray[..ray.len().min(max as usize)] {
                if through.is_some_and(|t| !st.occupied.has(c) && !t.holds(self, st, cx, c)) {
                    break;
                }
                if self.target(st, cx, c, to, cond, then, e) {
                    return true;
                }
                if st.occupied.has(c) {
                    break;
                }
            }
        }
        false
    }
}

/// The move a rule of a piece of type `piece` makes to `to` with effect block `then`, in
/// the context it is generated in (where it starts, whether it makes a new piece, its
/// variables, choice and class).
#[inline(always)]
pub(super) fn made(cx: &Ctx, piece: u8, to: Cell, then: u16) -> Move {
    Move {
        kind: if cx.from == NONE {
            MoveKind::Place
        } else if cx.create {
            MoveKind::Create
        } else {
            MoveKind::Normal
        },
        piece,
        from: cx.from,
        to,
        effect: then,
        slots: cx.slots,
        choice: cx.choice,
        cell_choice: NONE,
        class: cx.class,
        hops: 0,
        path: [NONE; crate::ir::MAX_HOPS],
    }
}

/// `made`, written field by field into `m`, a pass (a move kept in a list): a move
/// built apart and pushed is copied whole, in wide loads that wait for the stores of
/// its fields just written.
#[inline(always)]
pub(super) fn made_in(m: &mut Move, cx: &Ctx, piece: u8, to: Cell, then: u16) {
    let made = made(cx, piece, to, then);
    (m.kind, m.piece, m.from, m.to, m.effect) = (made.kind, piece, made.from, to, then);
    (m.slots, m.choice, m.class) = (made.slots, made.choice, made.class);
}

/// `made`, pushed onto `out`: written field by field into its place in the list
/// (`made_in`), not built apart and copied in.
#[inline(always)]
pub(super) fn push_made(out: &mut Vec<Move>, cx: &Ctx, piece: u8, to: Cell, then: u16) {
    out.push(Move::PASS);
    made_in(out.last_mut().expect("pushed"), cx, piece, to, then);
}

/// What exploring a chain needs, kept per thread from one piece's chain to the next so
/// that counting captures allocates nothing: the stack of hops and a scratch state (of
/// whatever board size, hence `Any`). A chain explored inside another's takes fresh ones.
#[derive(Default)]
struct ChainScratch {
    stack: Vec<Move>,
    /// The scratch state, and the game (`Core::id`) it is a state of.
    state: Option<(u64, Box<dyn std::any::Any>)>,
}

thread_local! {
    static CHAIN_SCRATCH: std::cell::RefCell<Option<ChainScratch>> =
        const { std::cell::RefCell::new(None) };
}

impl ChainScratch {
    fn take() -> ChainScratch {
        CHAIN_SCRATCH.with_borrow_mut(|k| k.take().unwrap_or_default())
    }

    /// The scratch state kept in `slot`, made a copy of `st`, a state of `core`'s game.
    /// A kept state of the same game is copied over in the parts the game uses (copying
    /// a whole state, with its undo log, cost English draughts' playouts 7%).
    fn state<'a, const W: usize>(
        slot: &'a mut Option<(u64, Box<dyn std::any::Any>)>,
        core: &Core<W>,
        st: &State<W>,
    ) -> &'a mut State<W> {
        let kept = (slot.take())
            .filter(|(id, _)| *id == core.id)
            .and_then(|(_, kept)| kept.downcast::<State<W>>().ok());
        let fresh = match kept {
            Some(mut s) => {
                let (cells, pieces) = (core.geo.cells as usize, core.moves.len());
                s.scratch_from(st, cells, pieces, core.players as usize);
                s
            }
            None => Box::new(st.clone()),
        };
        let (_, kept) = slot.insert((core.id, fresh));
        kept.downcast_mut().expect("just put")
    }

    fn give_back(mut self) {
        self.stack.clear();
        CHAIN_SCRATCH.with_borrow_mut(|k| *k = Some(self));
    }
}

/// The cells a chain of hops has landed on so far.
#[derive(Default)]
struct Path {
    cells: [Cell; crate::ir::MAX_HOPS],
    len: usize,
}

impl<const W: usize> Core<W> {
    /// Every path of chain `id` from where the piece of `cx` stands. Out of `stmt`'s
    /// body, whose other arms would otherwise pay for this one's registers at every call.
    #[inline(never)]
    fn chain_from(&self, st: &State<W>, cx: &Ctx, id: u16, e: &mut Emit<W>) -> bool {
        // Most pieces have no first hop: they cost no copy of the state.
        let origin = *cx;
        let mut kept = ChainScratch::take();
        let stack = &mut kept.stack;
        self.hops(st, &origin, cx.from, id, e.piece, stack);
        // Nor do those whose every first hop ends where it lands (most, in draughts).
        let (mut path, mut stop) = (Path::default(), false);
        let (mut scratch, mut slot) = (None, Some(&mut kept.state));
        for i in 0..kept.stack.len() {
            let h = kept.stack[i];
            stop = if self.ends_told(id, st, &origin, &h) {
                e.chain(&origin, id, &[h.to])
            } else {
                let scratch = scratch.get_or_insert_with(|| {
                    ChainScratch::state(slot.take().expect("made once"), self, st)
                });
                self.hop_on(scratch, &origin, &mut kept.stack, i, id, &mut path, e)
            };
            if stop {
                break;
            }
        }
        kept.give_back();
        stop
    }

    /// Appends the hops of chain `id` from `at` to `out`.
    fn hops(&self, st: &State<W>, origin: &Ctx, at: Cell, id: u16, piece: u8, out: &mut Vec<Move>) {
        let mut cx = *origin;
        cx.from = at;
        cx.create = false;
        let (body, _, gate) = &self.chains[id as usize];
        let push = |hcx: &Ctx, to, then| {
            push_made(out, hcx, piece, to, then);
            false
        };
        if let Some(g) = gate
            && self.gate_hops(g, st, &mut cx, push).is_some()
        {
            return;
        }
        let mut he = Emit::new(Mode::Collect, out);
        he.piece = piece;
        self.generate(st, &mut cx, body, &mut he);
    }

    /// Explores the hops of chain `id` (those of `stack` from `first` on, from where the
    /// piece stands) on a scratch state, emitting every complete path (one that no hop
    /// continues, or that `until` ends). Each level's hops are kept on one stack, above
    /// the levels below it. True when the emitter asked to stop.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &self,
        st: &mut State<W>,
        origin: &Ctx,
        stack: &mut Vec<Move>,
        first: usize,
        id: u16,
        path: &mut Path,
        e: &mut Emit<W>,
    ) -> bool {
        let end = stack.len();
        if first == end {
            return path.len > 0 && e.chain(origin, id, &path.cells[..path.len]);
        }
        for i in first..end {
            let h = stack[i];
            let stop = if self.ends_told(id, st, origin, &h) {
                path.cells[path.len] = h.to;
                e.chain(origin, id, &path.cells[..=path.len])
            } else {
                self.hop_on(st, origin, stack, i, id, path, e)
            };
            if stop {
                return true;
            }
        }
        false
    }

    /// Whether the path of chain `id` ends where hop `h` lands, told before the hop is
    /// made (`Core::ends_at_landing`), which then need not be.
    #[inline(always)]
    fn ends_told(&self, id: u16, st: &State<W>, origin: &Ctx, h: &Move) -> bool {
        (self.chains[id as usize].2.as_ref())
            .is_some_and(|g| self.ends_at_landing(g, st, origin, h))
    }

    /// The paths of chain `id` that go on with hop `stack[i]` from `path`, the hop made
    /// (`chain`, when its landing could not be told before). True when the emitter asked
    /// to stop.
    #[allow(clippy::too_many_arguments)]
    fn hop_on(
        &self,
        st: &mut State<W>,
        origin: &Ctx,
        stack: &mut Vec<Move>,
        i: usize,
        id: u16,
        path: &mut Path,
        e: &mut Emit<W>,
    ) -> bool {
        let (_, until, gate) = &self.chains[id as usize];
        let h = stack[i];
        path.cells[path.len] = h.to;
        path.len += 1;
        let frame = self.make_hop(st, &h);
        // A landing no hop's shape leaves (most, in draughts) ends the path too, and
        // runs none of the hops' rules.
        let ended = path.len >= crate::ir::MAX_HOPS
            || until.as_ref().is_some_and(|u| {
                let mut cx = *origin;
                cx.from = h.from;
                cx.to = h.to;
                u(self, st, &mut cx)
            })
            || gate
                .as_ref()
                .is_some_and(|g| !self.could_start(g, st, origin, h.to));
        let stop = if ended {
            e.chain(origin, id, &path.cells[..path.len])
        } else {
            let end = stack.len();
            self.hops(st, origin, h.to, id, e.piece, stack);
            let stop = self.chain(st, origin, stack, end, id, path, e);
            stack.truncate(end);
            stop
        };
        self.unmake(st, frame);
        path.len -= 1;
        stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movegen::Scratch;
    use crate::engine::search::Rng;
    use crate::engine::state::NO_CLASS;

    /// Rules with `move to`s the first cell of a set along a `for`'s direction, directly
    /// and through a `let`, a direction named twice for white (`forward`, `north`: the
    /// same move twice, which the list keeps once), and a jump left in the loop; with
    /// `kept`, each also tests `from is friend`, always true but not a test of the
    /// target, which keeps it in the loop. Those left in the loop either way: one after
    /// another `move to` (a Guard's step first and its sight second reach one cell, and
    /// the step's move, with its effect, is the one kept), and one beside a `move to` off
    /// the loop's line (a Herald's `move to c4`, met by its sight along the lines through
    /// c4).
    fn nearest_game(kept: bool, hex: bool) -> String {
        let also = if kept { " and from is friend" } else { "" };
        let (straight, scout, slant) = if hex {
            (
                "east, west",
                "forward, northeast, forward-left, west",
                "northeast, southeast, west",
            )
        } else {
            (
                "orthogonal",
                "forward, north, forward-left, west",
                "diagonal",
            )
        };
        format!(
            "{}piece Seer letter S\npiece Scout letter C\npiece Jumper letter J\n\
             piece Guard letter G\npiece Herald letter H\n\
             hand {{ white Seer 3 Scout 3 Jumper 3 Guard 2 Herald 2\n\
                     black Seer 3 Scout 3 Jumper 3 Guard 2 Herald 2 }}\n\
             moves Guard {{ place on empty\n\
               for d in {straight} {{ move to from + d if to is empty then {{ clear tile at to }}\n\
                 move to first tile from from toward d if to is empty }} }}\n\
             moves Herald {{ place on empty\n\
               for d in all {{ move to first tile from from toward d if to is empty\n\
                 move to c4 if to is empty then {{ set tile at to }} }} }}\n\
             moves Seer {{ place on empty\n\
               for d in all {{ move to first occupied from from toward d if to is enemy{also} }} }}\n\
             moves Scout {{ place on empty\n\
               for d in {scout} {{\n\
                 let x = first tile from from toward d\n move to x if x is empty{also} }} }}\n\
             moves Jumper {{ place on empty\n\
               for d in {slant} {{ let near = first tile from from toward d\n\
                 move to near if near is not friend{also}\n\
                 move to first tile from near toward d if near is empty and to is empty }} }}\n\
             end {{ when no moves: draw }}\n",
            tiled_board("N", hex)
        )
    }

    /// A game's name, its players (white's forward north or, on the hexagon, northeast)
    /// and a board of tiles with four missing: the same rules are tried on a square
    /// board and on a hexagon (six directions, none of them `north`, rays along three
    /// axes).
    fn tiled_board(name: &str, hex: bool) -> String {
        let (forward, board) = if hex {
            ("northeast  black forward southwest", "hexagon 4")
        } else {
            ("north  black forward south", "7 x 6")
        };
        format!(
            "game \"{name}\" {{ }}\nplayers {{ white forward {forward} }}\n\
             board {board}\nflag tile = all - c3 d4 e2 d5\n"
        )
    }

    /// What W0206 tells of a direction named twice: a slide lists its moves again, a
    /// `for` makes the same moves again, which are kept once.
    #[test]
    fn a_direction_named_twice_lists_a_slide_twice_and_a_for_once() {
        let count = |rules: &str| {
            let core = Core::<1>::of_text(&format!(
                "game \"D\" {{ }}\nplayers {{ white  black }}\nboard 5 x 5\n\
                 piece Man letter M\nsetup {{ white Man c1  black Man c5 }}\n\
                 moves Man {{ {rules} }}\nend {{ when no moves: draw }}\n"
            ));
            let mut st = core.start();
            let mut buf = Vec::new();
            (core.count_legal(&mut st, &mut buf), {
                core.legal_moves(&mut st, &mut buf);
                buf.len()
            })
        };
        assert_eq!(count("slide north, east"), (5, 5));
        assert_eq!(count("slide north, north, east"), (8, 8));
        assert_eq!(count("for d in north, east { move to from + d }"), (2, 2));
        assert_eq!(
            count("for d in north, north, east { move to from + d }"),
            (2, 2)
        );
    }

    #[test]
    fn moves_to_the_first_cell_along_a_for_are_the_moves_the_loop_makes() {
        for hex in [false, true] {
            same_moves_taken_out_or_kept(hex);
        }
    }

    fn same_moves_taken_out_or_kept(hex: bool) {
        let taken = Core::<1>::of_text(&nearest_game(false, hex));
        let kept = Core::<1>::of_text(&nearest_game(true, hex));
        let nearest = |core: &Core<1>| {
            (core.moves.iter().flatten())
                .filter(|s| matches!(s, CStmt::Nearest { .. }))
                .count()
        };
        assert_eq!((nearest(&taken), nearest(&kept)), (3, 0));
        let sorted = |core: &Core<1>, st: &mut State<1>| {
            let mut v = Vec::new();
            core.legal_moves(st, &mut v);
            let mut v: Vec<_> = v
                .iter()
                .map(|m| (m.kind as u8, m.piece, m.from, m.to, m.effect))
                .collect();
            v.sort();
            v
        };
        let (mut sc, mut moves) = (Scratch::default(), 0);
        for game in 0..40 {
            let mut rng = Rng::for_playout(11, game);
            let mut pos = taken.start_pos();
            for _ in 0..30 {
                let want = sorted(&kept, &mut pos.st);
                assert_eq!(sorted(&taken, &mut pos.st), want, "game {game}, hex {hex}");
                let mut buf = Vec::new();
                assert_eq!(taken.count_legal(&mut pos.st, &mut buf), want.len() as u32);
                moves += want.iter().filter(|m| m.2 != NONE).count();
                let Some(m) = taken.random_legal(&mut pos.st, &mut rng, &mut sc) else {
                    break;
                };
                taken.play(&mut pos, &m);
            }
        }
        assert!(moves > 2000, "{moves} moves on the board, hex {hex}");
    }

    /// Jumps past the first cell of a set, to the first cell of a set beyond it, as
    /// `Beyond`s and (with `kept`, an always-true `from is friend` in their conditions)
    /// run in their loops: a Leaper's with an effect on the cell passed over and a `move
    /// to` of the first cell before it, a Vaulter's with no other move, two tests of the
    /// cell passed over and relative directions, a Skipper's over any occupied cell onto
    /// an enemy.
    fn beyond_game(kept: bool, hex: bool) -> String {
        let also = if kept { " and from is friend" } else { "" };
        let (slant, vault) = if hex {
            ("northeast, southeast, west", "forward, forward-left, west")
        } else {
            ("diagonal", "forward, forward-left, east")
        };
        format!(
            "{}piece Leaper letter L\npiece Vaulter letter V\npiece Skipper letter S\n\
             hand {{ white Leaper 3 Vaulter 3 Skipper 2  black Leaper 3 Vaulter 3 Skipper 2 }}\n\
             moves Leaper {{ place on empty\n\
               for d in all {{ let near = first tile from from toward d\n\
                 move to near if near is empty\n\
                 move to first tile from near toward d if near is empty and to is empty{also} then {{\n\
                   clear tile at near }} }} }}\n\
             moves Vaulter {{ place on empty\n\
               for d in {vault} {{ let over = first tile from from toward d\n\
                 move to first tile from over toward d if over is not friend and over is tile and to is not friend{also} }} }}\n\
             moves Skipper {{ place on empty\n\
               for d in {slant} {{ let x = first occupied from from toward d\n\
                 move to first occupied from x toward d if to is enemy{also} }} }}\n\
             end {{ when no moves: draw }}\n",
            tiled_board("B", hex)
        )
    }

    #[test]
    fn jumps_beyond_the_first_cell_are_the_moves_the_loop_makes() {
        for hex in [false, true] {
            let taken = Core::<1>::of_text(&beyond_game(false, hex));
            let kept = Core::<1>::of_text(&beyond_game(true, hex));
            let beyond = |core: &Core<1>| {
                (core.moves.iter().flatten())
                    .filter(|s| matches!(s, CStmt::Beyond { .. }))
                    .count()
            };
            assert_eq!((beyond(&taken), beyond(&kept)), (3, 0), "hex {hex}");
            // Everything a move carries: the cell passed over is a variable, which the
            // effect reads.
            let sorted = |core: &Core<1>, st: &mut State<1>| {
                let mut v = Vec::new();
                core.legal_moves(st, &mut v);
                let mut v: Vec<_> = (v.iter())
                    .map(|m| (m.kind as u8, m.piece, m.from, m.to, m.effect, m.slots))
                    .collect();
                v.sort();
                v
            };
            let (mut sc, mut jumps) = (Scratch::default(), 0);
            for game in 0..40 {
                let mut rng = Rng::for_playout(5, game);
                let (mut pos, mut other) = (taken.start_pos(), kept.start_pos());
                for _ in 0..40 {
                    let want = sorted(&kept, &mut pos.st);
                    assert_eq!(sorted(&taken, &mut pos.st), want, "game {game}, hex {hex}");
                    let mut buf = Vec::new();
                    assert_eq!(taken.count_legal(&mut pos.st, &mut buf), want.len() as u32);
                    jumps += (want.iter())
                        .filter(|m| m.2 != NONE && !taken.geo.nb[m.2 as usize].contains(&m.3))
                        .count();
                    let Some(m) = taken.random_legal(&mut pos.st, &mut rng, &mut sc) else {
                        break;
                    };
                    taken.play(&mut pos, &m);
                    kept.play(&mut other, &m);
                    assert!(pos.st == other.st, "game {game}, hex {hex}");
                }
            }
            assert!(jumps > 1000, "{jumps} moves past a cell, hex {hex}");
        }
    }

    /// The targets of the piece at `from` in a run that takes moves of class `class`.
    fn targets<const W: usize>(core: &Core<W>, st: &State<W>, from: Cell, class: u8) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut e = Emit::new(Mode::Collect, &mut out);
        e.class = class;
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        core.generate(st, &mut cx, &core.moves[0], &mut e);
        out.iter().map(|m| m.to).collect()
    }

    #[test]
    fn a_for_of_moves_gives_only_the_moves_of_the_class_asked_for() {
        // Steps and jumps each in a `for` of `move to`s, the jumps a class of their own.
        let core = Core::<1>::of_text(
            "game \"T\" { }\nplayers { black forward north  white forward south }\n\
             board 6 x 6\npiece Man letter M\n\
             setup { black Man c1  white Man b2 }\npriority capture\n\
             moves Man {\n  for d in forward-left, forward-right { move to from + d if from + d * 2 is empty }\n\
               capture { for d in forward-left, forward-right {\n\
               move to from + d * 2 if from + d is enemy then { remove from + d } } }\n}\n\
             end { when no moves: next loses }\n",
        );
        let for_ = |v: &[CStmt<1>]| {
            v.iter()
                .filter(|s| matches!(s, CStmt::For { flat: true, .. }))
                .count()
        };
        assert_eq!(for_(&core.moves[0]), 1, "the steps' `for` is run flat");
        let st = core.start();
        let c = |name: &str| core.geo.board.cell(name).expect("a cell");
        let from = c("c1");
        assert_eq!(targets(&core, &st, from, ANY_CLASS), [c("d2"), c("a3")]);
        assert_eq!(targets(&core, &st, from, NO_CLASS), [c("d2")]);
        assert_eq!(targets(&core, &st, from, 0), [c("a3")]);
    }
}
