//! Which pieces could start a chain of hops, told without running its rules. Draughts-like
//! captures are hops `move to from + d * n if from + d * k is T`: a piece can start one
//! only where the cell `n` steps away passes the landing test and the cell `k` steps away
//! passes `T`. As sets, for all of a player's pieces at once, that is a few shifts of two
//! sets per direction; most positions of such games have no capture at all, and then the
//! chains need not run for any piece, nor the capture classes of `priority` be counted.
//! Within a chain, a landing cell that no hop's shape leaves ends the path with no run of
//! the hops' rules either.

use super::apply::CEffect;
use super::bits::Bits;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{Ctx, ExprCompiler};
use super::state::{Cell, Move, NONE, State};
use crate::ir::{CellExpr, Cond, DirRef, Effect, Stmt};

/// One hop statement of a chain, by its shape: from the piece, `n` steps in each of
/// `dirs` onto a cell passing `land`, over the cell `k` steps that way passing `over`.
pub struct Hop<const W: usize> {
    dirs: Vec<DirRef>,
    n: u8,
    land: Option<CTest<W>>,
    over: Option<(u8, CTest<W>)>,
    /// Per player (`Core::prepare_gate`), when every direction is a translation of the
    /// board: per direction, the shifts of `n` and `k` steps, each with the cells that
    /// have a cell so many steps away.
    shifts: Vec<Option<Vec<Shifts<W>>>>,
    /// When the statement's whole condition is the hop's shape (its target test and
    /// the jumped cell's), and it stands alone in its `for`: the variable its direction
    /// is bound to (if any) and its effect block, so that its moves are made from the
    /// shape (`Core::gate_hops`).
    exact: Option<(Option<u8>, u16)>,
}

#[derive(Clone, Copy)]
struct Shifts<const W: usize> {
    /// The direction, as the statement's `for` binds it.
    dir: u8,
    n: (i32, Bits<W>),
    k: (i32, Bits<W>),
}

/// The hops of a chain, when every statement of its body has the shape of a `Hop`. A
/// piece at a cell that no hop's shape allows has no first hop, so the chain gives it no
/// move; the converse need not hold (a hop's other conditions are not looked at).
pub type Gate<const W: usize> = Vec<Hop<W>>;

/// What a hop leaves on the cells it changes (`Core::ends_at_landing`). Its landing is
/// left out: a hop's shape tests cells one step away or more, never where it stands.
struct AfterHop<const W: usize> {
    /// Cells left empty: its origin, and those a `remove` surely empties.
    emptied: Bits<W>,
    /// Cells whose content is not known (written under an `if`, or by another effect).
    unknown: Bits<W>,
}

impl<const W: usize> AfterHop<W> {
    /// The cells passing test `t` after the hop (`None`: every cell), from `before`,
    /// those passing it before: changed on the cells the hop changes, a cell not known
    /// taken to pass. `None` when `t` reads more than contents.
    #[inline(always)]
    fn set(&self, t: Option<&CTest<W>>, before: Bits<W>, me: u8) -> Option<Bits<W>> {
        let Some(t) = t else {
            return Some(before);
        };
        let CTest::Table(t) = t else {
            return None;
        };
        let changed = self.emptied.or(self.unknown);
        let passing = self.emptied.and(t.cells_with(me, 0)).or(self.unknown);
        Some(before.minus(changed).or(passing))
    }
}

/// Whether a piece at `from` passes a hop's shape given as `shifts`, with `land` the
/// cells it may land on and `over` those it may jump (when it tests them).
#[inline(always)]
fn passes<const W: usize>(
    shifts: &[Shifts<W>],
    land: Bits<W>,
    over: Option<Bits<W>>,
    from: Cell,
) -> bool {
    let at = from as i32;
    shifts.iter().any(|s| {
        s.n.1.has(from)
            && land.has((at + s.n.0) as Cell)
            && over.is_none_or(|o| s.k.1.has(from) && o.has((at + s.k.0) as Cell))
    })
}

/// Whether an effect block writes only cells its move names (`from`, `to`, a variable
/// the move carries, a square, so many steps from one of them), with no variable bound
/// in it: then the cells a hop with it changes are known before it is made
/// (`Core::ends_at_landing`).
pub fn names_its_writes(block: &[Effect]) -> bool {
    fn named(e: &CellExpr) -> bool {
        match e {
            CellExpr::From | CellExpr::To | CellExpr::Const(_) | CellExpr::Slot(_) => true,
            CellExpr::Step(base, _, _) => named(base),
            _ => false,
        }
    }
    block.iter().all(|e| match e {
        Effect::If {
            then, otherwise, ..
        } => names_its_writes(then) && names_its_writes(otherwise),
        Effect::Counter { .. } | Effect::Again => true,
        Effect::Remove(at)
        | Effect::SetFlag { at, .. }
        | Effect::Flip(at)
        | Effect::Change { at, .. }
        | Effect::Put { at, .. } => named(at),
        _ => false,
    })
}

impl<const W: usize> ExprCompiler<'_, W> {
    /// The gate of a chain whose hop rules are `body`, when they have its shape.
    pub fn gate(&self, body: &[Stmt]) -> Option<Gate<W>> {
        let mut hops = Vec::new();
        for s in body {
            self.gate_stmt(s, None, &mut hops)?;
        }
        (!hops.is_empty()).then_some(hops)
    }

    /// Adds the hops of `s` (inside a `for` over `bound`'s directions when given).
    fn gate_stmt(
        &self,
        s: &Stmt,
        bound: Option<(crate::ir::Slot, &[DirRef])>,
        hops: &mut Gate<W>,
    ) -> Option<()> {
        match s {
            Stmt::For { slot, dirs, body }
                if bound.is_none() && dirs.iter().all(DirRef::is_fixed) =>
            {
                let first = hops.len();
                for b in body {
                    self.gate_stmt(b, Some((*slot, dirs)), hops)?;
                }
                if body.len() > 1 {
                    // Made direction by direction, statement by statement: not in the
                    // order of the shapes.
                    hops[first..].iter_mut().for_each(|h| h.exact = None);
                }
                Some(())
            }
            Stmt::MoveTo {
                target: CellExpr::Step(base, d, n),
                to,
                cond,
                then,
            } if **base == CellExpr::From && *n > 0 => {
                let dirs = match (*d, bound) {
                    (DirRef::Var(v), Some((slot, dirs))) if v == slot => dirs.to_vec(),
                    (d, _) if d.is_fixed() => vec![d],
                    _ => return None,
                };
                let land = Some(self.test(to)).filter(CTest::is_set);
                let over = over(cond, *d).and_then(|(k, t)| {
                    let t = self.test(t);
                    t.is_set().then_some((k, t))
                });
                let whole = match cond {
                    Cond::True => true,
                    Cond::Is(..) => over.is_some(),
                    _ => false,
                };
                // A fixed direction inside a `for` is made once per direction of the
                // `for`, not once.
                let slot = match (*d, bound) {
                    (DirRef::Var(v), _) => Some(Some(v)),
                    (_, None) => Some(None),
                    _ => None,
                };
                let exact = slot
                    .filter(|_| whole && land.is_some())
                    .map(|slot| (slot, then.unwrap_or(NONE)));
                hops.push(Hop {
                    dirs,
                    n: *n,
                    land,
                    over,
                    shifts: Vec::new(),
                    exact,
                });
                Some(())
            }
            _ => None,
        }
    }
}

/// The step and test of `from + d * k is T`, alone or as a part of an `and`.
fn over(c: &Cond, d: DirRef) -> Option<(u8, &crate::ir::Test)> {
    match c {
        Cond::Is(CellExpr::Step(base, d2, k), t)
            if **base == CellExpr::From && *d2 == d && *k > 0 =>
        {
            Some((*k, t))
        }
        Cond::And(v) => v.iter().find_map(|c| over(c, d)),
        _ => None,
    }
}

impl<const W: usize> Core<W> {
    /// Fills in the hops' `shifts`, so that `starts` shifts each set once per hop and
    /// direction rather than stepping it back one cell at a time.
    pub fn prepare_gate(&self, gate: &mut Gate<W>) {
        for h in gate.iter_mut() {
            let k = h.over.as_ref().map_or(0, |o| o.0);
            h.shifts = (0..self.players)
                .map(|p| {
                    let cx = Ctx::new(p);
                    // All or nothing: a loop with no test per direction.
                    (h.dirs.iter())
                        .map(|&d| {
                            let d = self.dir(&cx, d);
                            let (delta, _) = self.geo.translation[d as usize & 7]?;
                            let away = |m: u8| {
                                let cells = (0..self.geo.cells)
                                    .filter(|&c| self.step_n(c, d, m as usize) != NONE);
                                (delta * m as i32, Bits::from_cells(cells))
                            };
                            Some(Shifts {
                                dir: d,
                                n: away(h.n),
                                k: away(k),
                            })
                        })
                        .collect()
                })
                .collect();
        }
    }

    /// Whether a piece of player `cx.me` at `from` passes the shape of some hop of `gate`.
    /// Where the hops' directions are translations of the board, each is a bit test of
    /// the landing and jumped cells' sets, `from` moved by the shifts `starts` makes; a
    /// chain asks it at every landing, and each direction's two steps along the rays and
    /// two cell tests took several times as long.
    #[inline]
    pub fn could_start(&self, gate: &Gate<W>, st: &State<W>, cx: &Ctx, from: Cell) -> bool {
        gate.iter().any(|h| {
            let Some(Some(shifts)) = h.shifts.get(cx.me as usize) else {
                return self.hop_walked(h, st, cx, from);
            };
            let (land, over) = self.hop_sets(h, st, cx);
            passes(shifts, land, over, from)
        })
    }

    /// Hands `f` the hops of a chain with `gate` at `cx.from` (its first, or those from a
    /// landing), from the hops' shapes as the chain's rules would make them, in their
    /// order, until `f` asks to stop (returns true), when every hop is
    /// `exact` and its directions translations; `None` (nothing handed) otherwise, else
    /// whether `f` stopped. A hop is handed as `made` takes it (its context, target and
    /// effect block), for `f` to write where it keeps it: a move built here and handed
    /// over would be copied whole just after its fields were written. The hops'
    /// variables are bound in `cx` itself, not in a copy, for the same reason (the sets
    /// of a hop read no variable).
    pub fn gate_hops(
        &self,
        gate: &Gate<W>,
        st: &State<W>,
        cx: &mut Ctx,
        mut f: impl FnMut(&Ctx, Cell, u16) -> bool,
    ) -> Option<bool> {
        let me = cx.me as usize;
        let ready = |h: &Hop<W>| h.exact.is_some() && matches!(h.shifts.get(me), Some(Some(_)));
        if !gate.iter().all(ready) {
            return None;
        }
        for h in gate {
            let (Some((slot, then)), Some(Some(shifts))) = (h.exact, h.shifts.get(me)) else {
                continue;
            };
            let (land, over) = self.hop_sets(h, st, cx);
            for s in shifts {
                // Bound for every direction, as the `for` binds it: the statements after
                // the `for` see its last.
                if let Some(v) = slot {
                    cx.slots[v as usize] = s.dir as u16;
                }
                if passes(std::slice::from_ref(s), land, over, cx.from) {
                    let to = (cx.from as i32 + s.n.0) as Cell;
                    if f(cx, to, then) {
                        return Some(true);
                    }
                }
            }
        }
        Some(false)
    }

    /// Whether a path of a chain with `gate` ends where hop `h` lands (no hop's shape
    /// leaves that cell), told in the position before the hop, so that a path of one hop
    /// costs no copy of the position nor the hop made and taken back. The hop changes
    /// its origin, its landing and the cells its effects write: when they name them all
    /// (`Core::named_writes`) and the hops test contents alone, the sets of the cells
    /// passing the tests after the hop are those before, changed on those cells
    /// (`AfterHop::set`). `false` when that cannot be told.
    pub fn ends_at_landing(&self, gate: &Gate<W>, st: &State<W>, cx: &Ctx, h: &Move) -> bool {
        let Some(after) = self.after_hop(st, h) else {
            return false;
        };
        !gate.iter().any(|hop| {
            let Some(Some(shifts)) = hop.shifts.get(cx.me as usize) else {
                return true;
            };
            let (land, over) = self.hop_sets(hop, st, cx);
            let Some(land) = after.set(hop.land.as_ref(), land, cx.me) else {
                return true;
            };
            let over = match (&hop.over, over) {
                (Some((_, t)), Some(o)) => match after.set(Some(t), o, cx.me) {
                    Some(o) => Some(o),
                    None => return true,
                },
                _ => None,
            };
            passes(shifts, land, over, h.to)
        })
    }

    /// What hop `h` leaves on the cells it changes, when its effects name every cell
    /// they write.
    #[inline(always)]
    fn after_hop(&self, st: &State<W>, h: &Move) -> Option<AfterHop<W>> {
        let mut after = AfterHop {
            emptied: Bits::EMPTY,
            unknown: Bits::EMPTY,
        };
        after.emptied.insert(h.from);
        if h.effect != NONE {
            if !self.named_writes[h.effect as usize] {
                return None;
            }
            let mut cx = Ctx::new(st.s.to_move);
            cx.from = h.from;
            cx.to = h.to;
            cx.slots = h.slots;
            self.written(
                st,
                &mut cx,
                &self.blocks[h.effect as usize],
                true,
                &mut after,
            );
        }
        Some(after)
    }

    /// Adds the cells `block` writes to `after`: emptied by a `remove` that surely runs
    /// (`sure`: not under an `if`), any other write not known.
    #[inline(always)]
    fn written(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        block: &[CEffect<W>],
        sure: bool,
        after: &mut AfterHop<W>,
    ) {
        for e in block {
            let (at, emptied) = match e {
                CEffect::If {
                    then, otherwise, ..
                } => {
                    self.written_under_if(st, cx, then, after);
                    self.written_under_if(st, cx, otherwise, after);
                    continue;
                }
                CEffect::Remove(at) => (at, sure),
                CEffect::SetFlag { at, .. }
                | CEffect::Flip(at)
                | CEffect::Change { at, .. }
                | CEffect::Put { at, .. } => (at, false),
                _ => continue,
            };
            let c = at(self, st, cx);
            if c == NONE {
                continue;
            }
            if emptied {
                after.emptied.insert(c);
                after.unknown.remove(c);
            } else {
                after.unknown.insert(c);
            }
        }
    }

    /// `written` for the effects under an `if`, which may not run: a call of its own,
    /// so that `written`, inlined into `after_hop`, does not call itself.
    fn written_under_if(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        block: &[CEffect<W>],
        after: &mut AfterHop<W>,
    ) {
        self.written(st, cx, block, false, after)
    }

    /// The cells a hop may land on and those it may jump over (when it tests them).
    #[inline(always)]
    fn hop_sets(&self, h: &Hop<W>, st: &State<W>, cx: &Ctx) -> (Bits<W>, Option<Bits<W>>) {
        let land = match &h.land {
            Some(t) => t.set(self, st, cx).expect("a set test"),
            None => self.geo.all,
        };
        let over = (h.over.as_ref()).map(|(_, t)| t.set(self, st, cx).expect("a set test"));
        (land, over)
    }

    /// `could_start` for one hop, by stepping along its directions and testing cells.
    fn hop_walked(&self, h: &Hop<W>, st: &State<W>, cx: &Ctx, from: Cell) -> bool {
        h.dirs.iter().any(|&d| {
            let d = self.dir(cx, d);
            let to = self.step_n(from, d, h.n as usize);
            to != NONE
                && h.land.as_ref().is_none_or(|t| t.holds(self, st, cx, to))
                && h.over.as_ref().is_none_or(|(k, t)| {
                    let c = self.step_n(from, d, *k as usize);
                    c != NONE && t.holds(self, st, cx, c)
                })
        })
    }

    /// The cells from which a piece of player `me` passes the shape of some hop of `gate`
    /// (`could_start` for every cell at once).
    pub fn starts(&self, gate: &Gate<W>, st: &State<W>, me: u8) -> Bits<W> {
        let cx = Ctx::new(me);
        let back = |mut set: Bits<W>, d: u8, n: u8| {
            for _ in 0..n {
                set = self.before_step(set, d);
            }
            set
        };
        let mut out = Bits::EMPTY;
        for h in gate {
            let (land, over) = self.hop_sets(h, st, &cx);
            let over = over.map(|o| (h.over.as_ref().expect("a test").0, o));
            if let Some(Some(shifts)) = h.shifts.get(me as usize) {
                for s in shifts {
                    let cells = land.shift(-s.n.0).and(s.n.1);
                    out = out.or(match over {
                        Some((_, over)) => cells.and(over.shift(-s.k.0)).and(s.k.1),
                        None => cells,
                    });
                }
                continue;
            }
            for &d in &h.dirs {
                let d = self.dir(&cx, d);
                let cells = back(land, d, h.n);
                out = out.or(match over {
                    Some((k, over)) => cells.and(back(over, d, k)),
                    None => cells,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::{Emit, Mode};
    use crate::engine::search::Rng;

    /// The first hops of chain `id` for the piece at `from`, by its rules.
    fn first_hops<const W: usize>(
        core: &Core<W>,
        st: &State<W>,
        id: usize,
        from: Cell,
    ) -> Vec<Move> {
        let mut out = Vec::new();
        let mut e = Emit::new(Mode::Collect, &mut out);
        e.piece = core.codes.piece[st.board[from as usize] as usize];
        let mut cx = Ctx::new(st.s.to_move);
        cx.from = from;
        core.generate(st, &mut cx, &core.chains[id].0, &mut e);
        out
    }

    /// Hands `f` every position of 40 random games of up to 60 moves.
    fn each_position(core: &Core<1>, seed: u64, mut f: impl FnMut(&State<1>)) {
        let mut rng = Rng::new(seed);
        for _ in 0..40 {
            let mut st = core.start();
            for _ in 0..60 {
                f(&st);
                let mut buf = Vec::new();
                core.legal_moves(&mut st, &mut buf);
                if buf.is_empty() {
                    break;
                }
                let m = buf[rng.below(buf.len())];
                core.make(&mut st, &m);
                st.commit();
            }
        }
    }

    /// Hands `f` every piece of the player to move, with each chain's id and gate, in
    /// the positions of `each_position`; the context is the player's, with no origin.
    fn each_origin(
        core: &Core<1>,
        seed: u64,
        mut f: impl FnMut(&State<1>, usize, &Gate<1>, &Ctx, Cell),
    ) {
        each_position(core, seed, |st| {
            let cx = Ctx::new(st.s.to_move);
            for (id, chain) in core.chains.iter().enumerate() {
                let gate = chain.2.as_ref().expect("gated");
                for from in st.by_owner[cx.me as usize].iter() {
                    f(st, id, gate, &cx, from);
                }
            }
        });
    }

    const GAME: &str = "game \"T\" { }\nplayers { black forward north  white forward south }\n\
        board 6 x 6\npiece Man letter M\npiece King letter K\n\
        setup { black Man a1 c1 e1 b2 d2 f2 a3 e3  white Man b6 d6 f6 a5 c5 e5 b4 f4 }\n\
        priority capture\n\
        moves Man { capture { chain { for d in forward-left, forward-right {\n\
          move to from + d * 2 if from + d is enemy then { remove from + d } } } }\n\
          step forward-left, forward-right }\n\
        moves King { capture { chain { for d in diagonal {\n\
          move to from + d * 2 if from is friend and from + d is enemy then { remove from + d } } } }\n\
          step diagonal }\n\
        region crown { black: rank 6  white: rank 1 }\n\
        after move of Man { if to in crown { change to to King } }\n\
        end { when no moves: next loses }\n";

    /// In random games, wherever `ends_at_landing` tells a first hop's path to end before
    /// the hop is made, no hop's shape leaves its landing once it is made; with hops
    /// whose effects empty the jumped cell it tells most landings, and with effects it
    /// cannot follow (a `remove` under an `if`, a `change`) it is still right.
    #[test]
    fn a_landing_told_before_the_hop_is_one_no_hop_leaves() {
        let plain = "then { remove from + d }";
        let games = [
            (GAME.to_string(), true),
            (
                GAME.replace(
                    plain,
                    "then { if from + d is enemy Man { remove from + d } }",
                ),
                false,
            ),
            (
                GAME.replace(plain, "then { change from + d to King  remove from + d }"),
                true,
            ),
            (
                GAME.replace(plain, "then { remove from + d  change from + d to King }"),
                false,
            ),
        ];
        for (text, mostly) in games {
            let core = Core::<1>::of_text(&text);
            let (mut told, mut hops) = (0, 0);
            each_origin(&core, 3, |st, id, gate, cx, from| {
                for h in first_hops(&core, st, id, from) {
                    hops += 1;
                    if !core.ends_at_landing(gate, st, cx, &h) {
                        continue;
                    }
                    told += 1;
                    let mut made = st.clone();
                    core.make_hop(&mut made, &h);
                    let after = core.could_start(gate, &made, cx, h.to);
                    assert!(!after, "chain {id}: {h:?}");
                }
            });
            assert!(hops > 100, "{hops} hops");
            if mostly {
                assert!(told * 2 > hops, "told {told} of {hops}");
            }
        }
    }

    /// In random games, the first hops `gate_hops` makes from the hops' shapes are the
    /// moves the chain's rules make, in their order and with their variables (a `for`'s
    /// direction stays bound to its last for the statements after it); a chain whose hop
    /// condition says more than its shape (`from is friend and …`), whose `for` holds two
    /// statements, or with a fixed direction inside a `for` (a hop per pass) is left to
    /// its rules.
    #[test]
    fn hops_made_from_their_shape_are_those_the_rules_make() {
        let men = "move to from + d * 2 if from + d is enemy then { remove from + d } } } }";
        let ahead = "move to from + forward * 2 if from + forward is enemy \
                     then { remove from + forward }";
        let two = GAME.replace(
            men,
            "move to from + d * 2 if from + d is enemy then { remove from + d }\n\
             move to from + d * 3 if from + d * 2 is enemy then { remove from + d * 2 } } } }",
        );
        // Men that step straight on too, so that hops along a file come up.
        let straight = |g: String| {
            g.replace(
                "step forward-left, forward-right }",
                "step forward, forward-left, forward-right }",
            )
        };
        let fixed_in_for = straight(GAME.replace(men, &format!("{ahead} }} }} }}")));
        let after_for = straight(GAME.replace(
            men,
            &format!("move to from + d * 2 if from + d is enemy then {{ remove from + d }} }}\n{ahead} }} }}"),
        ));
        let variants = [&two, &fixed_in_for, &after_for];
        assert!(variants.iter().all(|v| **v != GAME));
        let games = [
            (GAME, true),
            (&two[..], false),
            (&fixed_in_for[..], false),
            (&after_for[..], true),
        ];
        for (text, men) in games {
            let core = Core::<1>::of_text(text);
            let (mut made, mut left) = (0, 0);
            each_origin(&core, 5, |st, id, gate, cx, from| {
                let piece = core.codes.piece[st.board[from as usize] as usize];
                let mut hcx = *cx;
                hcx.from = from;
                let mut shaped = Vec::new();
                let made_all = core.gate_hops(gate, st, &mut hcx, |hcx, to, then| {
                    shaped.push(crate::engine::generate::made(hcx, piece, to, then));
                    false
                });
                if made_all.is_some() {
                    assert_eq!(shaped, first_hops(&core, st, id, from), "chain {id}");
                    made += shaped.len();
                } else {
                    assert!(shaped.is_empty());
                    left += 1;
                }
            });
            // The men's chains are made from their shapes, the kings' left to their rules.
            assert_eq!(made > 50, men, "{made} hops made");
            assert!(left > 50, "{left} left to the rules");
        }
    }

    /// In random games, the cells `starts` gives are those `could_start` accepts, and
    /// every piece that has a first hop by its rules is among them.
    #[test]
    fn starts_are_the_cells_whose_pieces_could_hop() {
        let core = Core::<1>::of_text(GAME);
        let gates: Vec<&Gate<1>> = core.chains.iter().filter_map(|c| c.2.as_ref()).collect();
        assert_eq!(gates.len(), core.chains.len(), "every chain has a gate");
        assert!(core.gated_classes.is_some());
        assert_eq!(
            core.drawn_unclassed,
            [0],
            "the men's steps are drawn from their sets"
        );
        let (mut with, mut without) = (0, 0);
        each_position(&core, 7, |st| {
            let me = st.s.to_move;
            let cx = Ctx::new(me);
            for (id, gate) in gates.iter().enumerate() {
                let starts = core.starts(gate, st, me);
                for c in 0..core.geo.cells {
                    let walked = gate.iter().any(|h| core.hop_walked(h, st, &cx, c));
                    assert_eq!(starts.has(c), walked);
                    assert_eq!(core.could_start(gate, st, &cx, c), walked);
                }
                for from in st.by_owner[me as usize].iter() {
                    if !first_hops(&core, st, id, from).is_empty() {
                        assert!(starts.has(from), "a piece that hops is let through");
                        with += 1;
                    } else {
                        without += 1;
                    }
                }
            }
        });
        assert!(
            with > 50 && without > 50,
            "both kinds are seen: {with} {without}"
        );
    }
}
