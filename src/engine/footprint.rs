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
use crate::ir::{CellExpr, Cond, Effect, PlayerRef, Program, Stmt, Test};

/// Adds a condition's footprint to the set, and gives the condition's value when finding
/// the footprint told it (`attacked` is known from the lines looked along), so that it
/// need not be evaluated again.
type FootFn<const W: usize> = Box<
    dyn Fn(&Core<W>, &State<W>, &mut Ctx, &mut Bits<W>) -> Option<bool>
        + Send
        + Sync
        + std::panic::RefUnwindSafe,
>;

/// Adds the cells a cell expression reads to the set, and gives its value.
type FootCell<const W: usize> = Box<
    dyn Fn(&Core<W>, &State<W>, &mut Ctx, &mut Bits<W>) -> Cell
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
                Box::new(move |core, st, cx, f| {
                    let c = cell(core, st, cx, f);
                    if c == NONE {
                        return Some(false);
                    }
                    f.insert(c);
                    let Some(t) = &test else {
                        return match core.attack_footprint(st, cx.me, c) {
                            Some((a, attacked)) => {
                                *f = f.or(a);
                                Some(attacked)
                            }
                            None => {
                                *f = core.geo.all;
                                None
                            }
                        };
                    };
                    Some(t.holds(core, st, cx, c))
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
                if t.is_set() {
                    // The ray up to its first cell of T, as one mask: the cells looked at.
                    return Some(Box::new(move |core, st, cx, f| {
                        let c = start(core, st, cx, f);
                        if c == NONE {
                            return NONE;
                        }
                        let set = t.set(core, st, cx).expect("a set test");
                        let seen = core.ray_to_first(c as usize, core.dir(cx, d) as usize & 7, set);
                        *f = f.or(seen);
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
                        f.insert(x);
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
                    *f = f.or(cells);
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
        })
    }

    /// Whether a move writes no cell of footprint `f`: a move of a piece from its origin
    /// to its target (no chain, placement or choice), whose own effects and `after`
    /// effects write only those cells and cells it carries (`Writes`).
    #[inline]
    fn misses(&self, m: &Move, f: &Bits<W>) -> bool {
        if m.kind != MoveKind::Normal
            || m.hops != 0
            || m.choice != NO_CHOICE
            || self.plain_after >> m.piece & 1 == 0
            || f.has(m.from)
            || f.has(m.to)
        {
            return false;
        }
        if m.effect == NONE {
            return true;
        }
        match &self.blocks[m.effect as usize] {
            Some(w) if !(w.removes && self.asks_attacked) => w.slots.iter().all(|&s| {
                let c = m.slots[s as usize];
                c == NONE || !f.has(c)
            }),
            _ => false,
        }
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
        let me = st.s.to_move;
        let (f, before) = self.foot_and_value(st, fp, legal);
        buf.clear();
        let mut batched = 0;
        let mut together = Bits::EMPTY;
        for &piece in &self.batched {
            if fp.plain_after >> piece & 1 == 0 {
                continue;
            }
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
        let mut e = Emit::new(Mode::Judge(f), buf);
        e.count = batched;
        let others = st.by_owner[me as usize].minus(together);
        self.origins_among(st, others, |from, piece| {
            let plain = fp.plain_after >> piece & 1 != 0;
            // `after` effects that may write the footprint: every move of the piece is
            // judged.
            e.mode = if plain { Mode::Judge(f) } else { Mode::Collect };
            if plain && self.moves_as_sets >> piece & 1 != 0 && from != NONE {
                // Its targets as sets, handed to the emitter as its rules would hand
                // them, with no rule run.
                let mut cx = Ctx::new(me);
                cx.from = from;
                e.piece = piece;
                self.each_reached(st, &cx, &self.moves[piece as usize], |targets| {
                    e.many(&cx, targets, NONE);
                });
                return;
            }
            self.run(st, from, piece, &mut e);
        });
        let mut count = if before { e.count } else { 0 };
        for m in buf.iter() {
            count += if fp.misses(m, &f) {
                before
            } else {
                self.is_legal(st, m)
            } as u32;
        }
        count
    }

    /// The footprint of `legal if` in this position and the condition's value, from
    /// finding the footprint when that tells it.
    fn foot_and_value(
        &self,
        st: &State<W>,
        fp: &Footprint<W>,
        legal: &super::evaluate::CondFn<W>,
    ) -> (Bits<W>, bool) {
        let me = st.s.to_move;
        let mut f = Bits::EMPTY;
        let known = (fp.foot)(self, st, &mut Ctx::new(me), &mut f);
        (
            f,
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
        let (f, before) = self.foot_and_value(st, fp, legal);
        out.retain(|m| {
            if fp.misses(m, &f) {
                before
            } else {
                self.is_legal(st, m)
            }
        });
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
            let mut played = Core::<1>::of_text(&text);
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
                            "{path}, game {game}, ply {}: {} moves against {}",
                            pos.st.s.ply,
                            x.len(),
                            b.len()
                        );
                    }
                    // Counted, most moves as sets: as many as listed.
                    let counted = core.count_legal(&mut pos.st, &mut Vec::new());
                    assert_eq!(counted as usize, b.len(), "{path}, game {game}");
                    positions += 1;
                    moves += a.len();
                    if a.is_empty() {
                        break;
                    }
                    core.play(&mut pos, &a[rng.below(a.len())]);
                }
            }
            assert!(
                positions > 1000 && moves > 10_000,
                "{path}: {positions}, {moves}"
            );
        }
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
