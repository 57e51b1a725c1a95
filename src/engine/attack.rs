//! Attacks: whether a cell is attacked, and how many cells a player attacks.
//!
//! Attack rules that are plain steps, slides and leaps (no condition, no variable
//! direction) are checked backwards from the attacked cell: a knight attacks `c` when one
//! stands a knight's leap from `c`; a rook when the first piece from `c` along a line is
//! one. A piece type's other rules run forwards, only from cells whose reach by those
//! rules covers `c`.

use super::bits::Bits;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::{Ctx, ExprCompiler};
use super::generate::{CStmt, Emit, Mode};
use super::state::{Cell, NONE, State};
use crate::geometry::MAX_DIRS;
use crate::ir::{DirRef, MAX_PIECES, Stmt};

/// How deep `attacked` may nest (an attack rule that itself asks whether a cell is attacked).
const MAX_ATTACK_DEPTH: u8 = 2;

/// One attack rule, read backwards.
pub enum Rev<const W: usize> {
    Step {
        dirs: Vec<DirRef>,
        to: CTest<W>,
        /// Per player (or one for all), per cell: the cells one of the steps leads to it
        /// from (filled in by `Core::tabulate_reverse`).
        back: Vec<Vec<Bits<W>>>,
    },
    Slide {
        dirs: Vec<DirRef>,
        max: u8,
        to: CTest<W>,
    },
    Leap {
        /// Per player, or one for all.
        leap: Vec<u16>,
        to: CTest<W>,
    },
}

/// The attack rules of a piece type split in two: the plain ones, read backwards, and the
/// rest, run forwards. A rule list that binds variables (`let`) is all run forwards, since
/// its later rules may read them.
pub fn reverse<const W: usize>(x: &ExprCompiler<W>, rules: &[Stmt]) -> (Vec<Rev<W>>, Vec<Stmt>) {
    let fixed = |dirs: &[DirRef]| dirs.iter().all(DirRef::is_fixed);
    if rules.iter().any(|s| matches!(s, Stmt::Let { .. })) {
        return (Vec::new(), rules.to_vec());
    }
    let mut back = Vec::new();
    let mut rest = Vec::new();
    for s in rules {
        match s {
            Stmt::Step {
                dirs,
                to,
                cond: None,
                ..
            } if fixed(dirs) => back.push(Rev::Step {
                dirs: dirs.clone(),
                to: x.test(to),
                back: Vec::new(),
            }),
            Stmt::Slide {
                dirs,
                max,
                to,
                cond: None,
                ..
            } if fixed(dirs) => back.push(Rev::Slide {
                dirs: dirs.clone(),
                max: *max,
                to: x.test(to),
            }),
            Stmt::Leap {
                leap,
                to,
                cond: None,
                ..
            } => back.push(Rev::Leap {
                leap: leap.clone(),
                to: x.test(to),
            }),
            _ => rest.push(s.clone()),
        }
    }
    (back, rest)
}

/// How `attacked` looks for one player's attackers, gathered once per game from the
/// rules read backwards: first the rules a mask answers (steps and leaps, then slides of
/// limited length), then one scan per line from the attacked cell for every type sliding
/// along it to the edge, then the pieces whose rules run forwards.
pub struct Plan<const W: usize> {
    /// The steps and leaps, so that asking one is a lookup and an intersection,
    /// whatever its kind.
    masks: Vec<NearMask>,
    /// Per cell, per mask: the cells its attackers reach that cell from (one row per
    /// cell, found with one index).
    mask_from: Vec<Bits<W>>,
    /// (piece type, index into its reversed rules) of the slides of limited length.
    near: Vec<(u8, u16)>,
    /// The lines to the edge, those asked about the same slides together.
    groups: Vec<Group>,
    /// Piece types with rules run forwards (`Core::attack_rest`).
    forwards: Vec<u8>,
    /// The piece types with any attack rule, and per cell, per such type (one row per
    /// cell): every cell one of its pieces could attack the cell from on an empty board.
    /// Most calls are answered by these alone, with no look at a rule: no piece of the
    /// player stands where its type could attack from.
    types: Vec<u8>,
    danger: Vec<Bits<W>>,
}

/// A step or leap read backwards, for one attacking player (the cells its attackers reach
/// each cell from are its column of `Plan::mask_from`).
struct NearMask {
    piece: u8,
    rule: u16,
}

impl NearMask {
    /// The rule's target test.
    fn to<'a, const W: usize>(&self, core: &'a Core<W>) -> &'a CTest<W> {
        match &core.reverse[self.piece as usize][self.rule as usize] {
            Rev::Step { to, .. } | Rev::Slide { to, .. } | Rev::Leap { to, .. } => to,
        }
    }
}

/// The directions looked along from the attacked cell whose first piece is asked about
/// the same slides (piece type, rule): a rook's four, a bishop's four. Their first
/// pieces are found by masks, with no bit scan or branch per direction, joined, and met
/// with the group's sliders at once, so that only a slider that is a first piece is
/// looked at (most calls find none), and a group none of whose types the player has is
/// passed over whole.
struct Group {
    /// The directions toward higher cells (a ray's first piece is its lowest).
    up: Vec<u8>,
    /// The directions toward lower cells.
    down: Vec<u8>,
    slides: Vec<(u8, u16)>,
    /// The slides' piece types, once each.
    types: Vec<u8>,
}

impl Group {
    fn dirs(&self) -> impl Iterator<Item = u8> + '_ {
        self.up.iter().chain(&self.down).copied()
    }

    /// The pieces of `theirs` (one player's) of the group's types.
    #[inline(always)]
    fn sliders<const W: usize>(&self, st: &State<W>, theirs: Bits<W>) -> Bits<W> {
        (self.types.iter())
            .fold(Bits::EMPTY, |s, &p| s.or(st.by_type[p as usize]))
            .and(theirs)
    }
}

impl<const W: usize> Plan<W> {
    /// Per mask, the cells its attackers reach `c` from.
    #[inline(always)]
    fn mask_row(&self, c: Cell) -> &[Bits<W>] {
        let n = self.masks.len();
        &self.mask_from[c as usize * n..][..n]
    }

    /// Per type of `types`, the cells its pieces could attack `c` from.
    #[inline(always)]
    fn danger_row(&self, c: Cell) -> &[Bits<W>] {
        let n = self.types.len();
        &self.danger[c as usize * n..][..n]
    }
}

impl<const W: usize> Core<W> {
    /// Whether some piece of another player (not a neutral one) attacks cell `c`: has an
    /// attack rule (or, lacking attack rules, a move rule) that reaches it.
    pub fn attacked(&self, st: &State<W>, cx: &Ctx, c: Cell) -> bool {
        if cx.depth >= MAX_ATTACK_DEPTH {
            return false;
        }
        if self.players == 2 {
            // The one enemy, with no loop over the players. The player asking is one of
            // the two (a condition is always evaluated from a player's point of view).
            debug_assert!(cx.me < 2, "asked by owner {}", cx.me);
            return self.attacked_by(st, 1 - (cx.me & 1), cx.depth, c);
        }
        (0..self.players).any(|enemy| enemy != cx.me && self.attacked_by(st, enemy, cx.depth, c))
    }

    /// Whether a piece of `enemy` attacks `c`, asked at `depth`: most calls are answered
    /// by the plan's `danger` alone, in a few instructions kept apart from the rest,
    /// which looks at the rules.
    #[inline(always)]
    fn attacked_by(&self, st: &State<W>, enemy: u8, depth: u8, c: Cell) -> bool {
        let plan = &self.attack_plans[enemy as usize];
        let could = (plan.types.iter().zip(plan.danger_row(c)))
            .fold(Bits::EMPTY, |s, (&p, from)| {
                s.or(from.and(st.by_type[p as usize & (MAX_PIECES - 1)]))
            });
        could.intersects(&st.by_owner[enemy as usize]) && self.attacked_near(st, enemy, depth, c)
    }

    /// `attacked_by` when a piece of `enemy` stands where its type could attack `c` from.
    /// What only an attacker found needs (the enemy's context, a rule's target test) is
    /// built or asked only then.
    #[inline(never)]
    fn attacked_near(&self, st: &State<W>, enemy: u8, depth: u8, c: Cell) -> bool {
        let theirs = st.by_owner[enemy as usize];
        let plan = &self.attack_plans[enemy as usize];
        let row = plan.mask_row(c);
        // Every mask's attackers joined, with no branch per mask: one is rarely there.
        let near = (plan.masks.iter().zip(row)).fold(Bits::EMPTY, |s, (m, from)| {
            s.or(from.and(st.by_type[m.piece as usize]))
        });
        if near.intersects(&theirs) && self.masks_attack(st, plan, enemy, depth, c) {
            return true;
        }
        for &(p, i) in &plan.near {
            let attackers = theirs.and(st.by_type[p as usize]);
            if !attackers.is_empty()
                && self.limited_slide_reaches(
                    st,
                    &Self::enemy_cx(enemy, depth),
                    c,
                    &self.reverse[p as usize][i as usize],
                    attackers,
                )
            {
                return true;
            }
        }
        for g in &plan.groups {
            let sliders = g.sliders(st, theirs);
            if sliders.is_empty() {
                continue;
            }
            let hits = self.firsts(c, g, st.occupied).and(sliders);
            if !hits.is_empty() && self.hits_attack(st, g, hits, enemy, depth, c) {
                return true;
            }
        }
        let forwards = (plan.forwards.iter()).fold(Bits::EMPTY, |s, &p| {
            s.or(st.by_type[p as usize].and(self.reach[p as usize][c as usize]))
        });
        forwards.intersects(&theirs)
            && self.forwards_attack(st, forwards.and(theirs), enemy, depth, c)
    }

    /// The context of `enemy`'s rules asked from `attacked` at `depth`.
    fn enemy_cx(enemy: u8, depth: u8) -> Ctx {
        let mut ecx = Ctx::new(enemy);
        ecx.depth = depth + 1;
        ecx
    }

    /// Whether a step or leap of `enemy`'s reaches `c`, one of its attackers a mask away.
    /// Out of line, as the rest of what `attacked_by` asks only when an attacker is
    /// found: what it keeps at hand then is not kept by every call.
    #[inline(never)]
    fn masks_attack(&self, st: &State<W>, plan: &Plan<W>, enemy: u8, depth: u8, c: Cell) -> bool {
        let ecx = Self::enemy_cx(enemy, depth);
        let theirs = st.by_owner[enemy as usize];
        plan.masks.iter().zip(plan.mask_row(c)).any(|(m, from)| {
            from.intersects(&theirs.and(st.by_type[m.piece as usize]))
                && m.to(self).holds(self, st, &ecx, c)
        })
    }

    /// Whether one of `hits`, the first pieces along a group's lines that slide along
    /// them, reaches `c`.
    #[inline(never)]
    fn hits_attack(
        &self,
        st: &State<W>,
        g: &Group,
        hits: Bits<W>,
        enemy: u8,
        depth: u8,
        c: Cell,
    ) -> bool {
        let ecx = Self::enemy_cx(enemy, depth);
        hits.iter()
            .any(|x| self.slides_reach(st, &ecx, c, &g.slides, x))
    }

    /// Whether one of `forwards`, pieces of `enemy` whose rules run forwards, reaches `c`.
    #[inline(never)]
    fn forwards_attack(
        &self,
        st: &State<W>,
        forwards: Bits<W>,
        enemy: u8,
        depth: u8,
        c: Cell,
    ) -> bool {
        let mut none = Vec::new();
        let mut e = Emit::new(Mode::Hit(c), &mut none);
        let mut ecx = Self::enemy_cx(enemy, depth);
        for from in forwards.iter() {
            let p = self.codes.piece[st.board[from as usize] as usize];
            ecx.from = from;
            if self.generate(st, &mut ecx, &self.attack_rest[p as usize], &mut e) {
                return true;
            }
        }
        false
    }

    /// The cells where a plain move of `me` (its piece leaves its origin and stands on its
    /// target, nothing else changes) could change whether `c` is attacked for `me`, when
    /// the rules read backwards test the attacked cell alone (see `footprint`), and
    /// whether it is attacked now (as `attacked` says, from the same lines and masks).
    /// Such a move brings no attacker: only taking one, or opening or closing a line,
    /// matters. So the cells are `c`; the attackers a step or leap reaches it from; on
    /// each line, the cells up to a first piece that attacks along it, or that first
    /// piece alone when the piece behind it attacks along it. `None` when a piece whose
    /// rules run forwards could reach `c` from where it stands: what those rules read is
    /// not known.
    pub fn attack_footprint(&self, st: &State<W>, me: u8, c: Cell) -> Option<(Bits<W>, bool)> {
        let mut f = Bits::EMPTY;
        f.insert(c);
        let mut attacked = false;
        // By masks and bit scans: the cells beyond `c` that way, less those beyond the
        // first piece, are the cells up to it. The first piece met, when it attacks.
        let line = |f: &mut Bits<W>, d: u8, attacks: &dyn Fn(Cell) -> bool| -> Cell {
            let first = self.first_in(c, d, st.occupied);
            if first == NONE {
                return NONE;
            }
            if attacks(first) {
                let beyond = |x: Cell| self.geo.ray_mask[x as usize][d as usize & 7];
                *f = f.or(beyond(c).minus(beyond(first)));
                return first;
            }
            let next = self.first_in(first, d, st.occupied);
            if next != NONE && attacks(next) {
                f.insert(first);
            }
            NONE
        };
        for enemy in (0..self.players).filter(|&p| p != me) {
            let mut ecx = Ctx::new(enemy);
            ecx.depth = 1;
            let theirs = st.by_owner[enemy as usize];
            let plan = &self.attack_plans[enemy as usize];
            for (m, from) in plan.masks.iter().zip(plan.mask_row(c)) {
                // The attackers a mask finds attack when `c` passes the rule's target test.
                let found = from.and(theirs.and(st.by_type[m.piece as usize]));
                f = f.or(found);
                attacked = attacked || (!found.is_empty() && m.to(self).holds(self, st, &ecx, c));
            }
            for &(p, i) in &plan.near {
                let attackers = theirs.and(st.by_type[p as usize]);
                let r = &self.reverse[p as usize][i as usize];
                let Rev::Slide { dirs, .. } = r else {
                    unreachable!("the near rules of a plan are slides")
                };
                for &d in dirs {
                    let back = self.geo.opposite[self.dir(&ecx, d) as usize & 7];
                    line(&mut f, back, &|x| attackers.has(x));
                }
                // A slide of limited length looks no further than it goes, as `attacked`
                // asks it.
                attacked = attacked
                    || (!attackers.is_empty()
                        && self.limited_slide_reaches(st, &ecx, c, r, attackers));
            }
            for g in &plan.groups {
                let sliders = g.sliders(st, theirs);
                for back in g.dirs() {
                    // No piece that slides along the line stands on it: nothing it holds
                    // attacks `c`, nor would once opened.
                    if !self.geo.ray_mask[c as usize][back as usize & 7].intersects(&sliders) {
                        continue;
                    }
                    let first = line(&mut f, back, &|x| sliders.has(x));
                    attacked = attacked
                        || (first != NONE && self.slides_reach(st, &ecx, c, &g.slides, first));
                }
            }
            for &p in &plan.forwards {
                let reach = self.reach[p as usize][c as usize];
                if reach.intersects(&theirs.and(st.by_type[p as usize])) {
                    return None;
                }
            }
        }
        Some((f, attacked))
    }

    /// Whether one of `slides` (those along a line) of the piece on `x`, the first met
    /// from `c` along the line, reaches `c`: one of its type's whose target test `c`
    /// passes.
    #[inline]
    fn slides_reach(
        &self,
        st: &State<W>,
        ecx: &Ctx,
        c: Cell,
        slides: &[(u8, u16)],
        x: Cell,
    ) -> bool {
        let t = self.codes.piece[st.board[x as usize] as usize];
        slides.iter().any(|&(p, i)| {
            p == t
                && match &self.reverse[p as usize][i as usize] {
                    Rev::Slide { to, .. } => to.holds(self, st, ecx, c),
                    _ => false,
                }
        })
    }

    /// The first piece from `c` along each of a group's directions, as one set.
    #[inline(always)]
    fn firsts(&self, c: Cell, g: &Group, occupied: Bits<W>) -> Bits<W> {
        let rays = &self.geo.ray_mask[c as usize];
        let mut firsts = Bits::EMPTY;
        for &d in &g.up {
            let hits = rays[d as usize & 7].and(occupied);
            firsts = firsts.or(hits.and(hits.through_lowest()));
        }
        for &d in &g.down {
            let hits = rays[d as usize & 7].and(occupied);
            firsts = firsts.or(hits.and(hits.down_to_highest()));
        }
        firsts
    }

    /// Gathers each player's `Plan` from the rules read backwards.
    pub(super) fn plan_attacks(&mut self) {
        self.attack_plans = (0..self.players).map(|me| self.plan(me)).collect();
    }

    fn plan(&self, me: u8) -> Plan<W> {
        let cx = Ctx::new(me);
        let mut plan = Plan {
            masks: Vec::new(),
            mask_from: Vec::new(),
            near: Vec::new(),
            groups: Vec::new(),
            forwards: Vec::new(),
            types: Vec::new(),
            danger: Vec::new(),
        };
        // Per direction looked along, the slides that reach the cell from its first piece.
        let mut lines: Vec<(u8, Vec<(u8, u16)>)> = Vec::new();
        let me = me as usize;
        let mut froms: Vec<&Vec<Bits<W>>> = Vec::new();
        for (p, rules) in self.reverse.iter().enumerate() {
            for (i, r) in rules.iter().enumerate() {
                let rule = (p as u8, i as u16);
                let from = match r {
                    Rev::Leap { leap, .. } => {
                        Some(&self.geo.leap_masks[leap[me.min(leap.len() - 1)] as usize])
                    }
                    Rev::Step { back, .. } => Some(&back[me.min(back.len() - 1)]),
                    Rev::Slide { .. } => None,
                };
                if let Some(from) = from {
                    plan.masks.push(NearMask {
                        piece: p as u8,
                        rule: i as u16,
                    });
                    froms.push(from);
                    continue;
                }
                let Rev::Slide { dirs, max, .. } = r else {
                    unreachable!("steps and leaps are masks")
                };
                if (*max as usize) < self.geo.longest_ray {
                    plan.near.push(rule);
                    continue;
                }
                for &d in dirs {
                    let back = self.geo.opposite[self.dir(&cx, d) as usize & (MAX_DIRS - 1)];
                    match lines.iter_mut().find(|l| l.0 == back) {
                        Some(line) => line.1.push(rule),
                        None => lines.push((back, vec![rule])),
                    }
                }
            }
            if !self.attack_rest[p].is_empty() {
                plan.forwards.push(p as u8);
            }
        }
        for (back, slides) in lines {
            let g = match plan.groups.iter_mut().position(|g| g.slides == slides) {
                Some(i) => &mut plan.groups[i],
                None => {
                    let mut types: Vec<u8> = slides.iter().map(|&(p, _)| p).collect();
                    types.sort_unstable();
                    types.dedup();
                    plan.groups.push(Group {
                        up: Vec::new(),
                        down: Vec::new(),
                        slides,
                        types,
                    });
                    plan.groups.last_mut().expect("pushed")
                }
            };
            if self.geo.increasing[back as usize & (MAX_DIRS - 1)] {
                g.up.push(back);
            } else {
                g.down.push(back);
            }
        }
        plan.mask_from = (0..self.geo.cells as usize)
            .flat_map(|c| froms.iter().map(move |from| from[c]))
            .collect();
        self.plan_danger(&mut plan, &cx);
        plan
    }

    /// `Plan::types` and `Plan::danger`, over-approximated: a slide's whole lines, a
    /// forward rule's `reach`.
    fn plan_danger(&self, plan: &mut Plan<W>, cx: &Ctx) {
        let n = self.reverse.len();
        let mut from = vec![vec![Bits::<W>::EMPTY; self.geo.cells as usize]; n];
        let mut any = vec![false; n];
        let mut join = |p: usize, cell_from: &dyn Fn(usize) -> Bits<W>| {
            any[p] = true;
            for (c, f) in from[p].iter_mut().enumerate() {
                *f = f.or(cell_from(c));
            }
        };
        let masks = plan.masks.len();
        for (i, m) in plan.masks.iter().enumerate() {
            join(m.piece as usize, &|c| plan.mask_from[c * masks + i]);
        }
        for (p, rules) in self.reverse.iter().enumerate() {
            for r in rules {
                let Rev::Slide { dirs, .. } = r else { continue };
                for &d in dirs {
                    let back = self.geo.opposite[self.dir(cx, d) as usize & (MAX_DIRS - 1)];
                    join(p, &|c| self.geo.ray_mask[c][back as usize & (MAX_DIRS - 1)]);
                }
            }
        }
        for &p in &plan.forwards {
            join(p as usize, &|c| self.reach[p as usize][c]);
        }
        plan.types = (0..n as u8).filter(|&p| any[p as usize]).collect();
        plan.danger = (0..self.geo.cells as usize)
            .flat_map(|c| {
                plan.types
                    .iter()
                    .map(|&p| from[p as usize][c])
                    .collect::<Vec<_>>()
            })
            .collect();
    }

    /// Whether one of `attackers` (pieces of `ecx.me`) reaches `c` by slide `r`, of
    /// limited length (a plan's `near` slides; those to the edge are its lines).
    #[inline(always)]
    fn limited_slide_reaches(
        &self,
        st: &State<W>,
        ecx: &Ctx,
        c: Cell,
        r: &Rev<W>,
        attackers: Bits<W>,
    ) -> bool {
        let Rev::Slide { dirs, max, to } = r else {
            unreachable!("the near rules of a plan are slides")
        };
        dirs.iter().any(|&d| {
            let back = self.geo.opposite[self.dir(ecx, d) as usize & 7];
            let x = self.first_in(c, back, st.occupied);
            x != NONE
                && attackers.has(x)
                && self.geo.board.ray(c, back).iter().position(|&y| y == x) < Some(*max as usize)
        }) && to.holds(self, st, ecx, c)
    }
}

impl<const W: usize> Core<W> {
    /// Whether a rule's targets are a set built with no emitter (`reached_in`): a step
    /// given by masks, a leap, or a slide with no length limit and no `through` test,
    /// each with a target test given as a set and no condition.
    pub(super) fn reaches_as_set(&self, r: &CStmt<W>) -> bool {
        match r {
            CStmt::Step {
                masks: Some(_),
                to,
                cond: None,
                ..
            }
            | CStmt::Leap { to, cond: None, .. } => to.is_set(),
            CStmt::Slide {
                max,
                through: None,
                to,
                cond: None,
                ..
            } => to.is_set() && *max as usize >= self.geo.longest_ray,
            _ => false,
        }
    }

    /// Hands `f` the targets of the rules of a piece on `cx.from`, every rule passing
    /// `reaches_as_set`, as the emitter would give them set by set: a rule's targets
    /// within its target test, a slide's directions together (rays of distinct
    /// directions share no cell) and each direction named again apart.
    #[inline(always)]
    pub(super) fn each_reached(
        &self,
        st: &State<W>,
        cx: &Ctx,
        rules: &[CStmt<W>],
        mut f: impl FnMut(Bits<W>),
    ) {
        let (me, from) = (cx.me as usize, cx.from as usize);
        let within = |to: &CTest<W>| to.set(self, st, cx).expect("a set test");
        for r in rules {
            match r {
                CStmt::Step {
                    masks: Some(m), to, ..
                } => f(m[me.min(m.len() - 1)][from].and(within(to))),
                CStmt::Leap { leap, to, .. } => {
                    let leap = leap[me.min(leap.len() - 1)] as usize;
                    f(self.geo.leap_masks[leap][from].and(within(to)))
                }
                CStmt::Slide {
                    fixed: fixed @ 1..,
                    to,
                    ..
                } => {
                    // The target test's set first: it comes back through memory, read
                    // as soon as written (a wait), unless the rays are found between.
                    let set = within(to);
                    f(self.rays_to_first(from, *fixed, st.occupied).and(set))
                }
                CStmt::Slide { dirs, to, .. } => {
                    // The rays joined in a loop that calls nothing; a direction named
                    // again (rarely) is handed over alone after it, before the joined
                    // set, as `Core::slide` hands them when counting.
                    let set = within(to);
                    let (mut reached, mut seen, mut again) = (Bits::EMPTY, 0u8, false);
                    for &d in dirs {
                        let d = self.dir(cx, d) as usize & 7;
                        again |= seen & (1 << d) != 0;
                        seen |= 1 << d;
                        reached = reached.or(self.ray_to_first(from, d, st.occupied));
                    }
                    if again {
                        let mut seen = 0u8;
                        for &d in dirs {
                            let d = self.dir(cx, d) as usize & 7;
                            if seen & (1 << d) != 0 {
                                f(self.ray_to_first(from, d, st.occupied).and(set));
                            }
                            seen |= 1 << d;
                        }
                    }
                    f(reached.and(set))
                }
                _ => unreachable!("a rule that reaches_as_set"),
            }
        }
    }

    /// Tabulates where the steps of attack rules read backwards come from.
    pub(super) fn tabulate_reverse(&mut self) {
        let mut reverse = std::mem::take(&mut self.reverse);
        for r in reverse.iter_mut().flatten() {
            if let Rev::Step { dirs, back, .. } = r {
                let relative = dirs.iter().any(|d| matches!(d, DirRef::Rel(_)));
                let players = if relative { self.players } else { 1 };
                *back = (0..players)
                    .map(|p| {
                        let cx = Ctx::new(p);
                        let mut to = vec![Bits::EMPTY; self.geo.cells as usize];
                        for x in 0..self.geo.cells {
                            for &d in dirs.iter() {
                                let c = self.step(x, self.dir(&cx, d));
                                if c != NONE {
                                    to[c as usize].insert(x);
                                }
                            }
                        }
                        to
                    })
                    .collect();
            }
        }
        self.reverse = reverse;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movegen::Scratch;
    use crate::engine::position::Pos;
    use crate::engine::search::Rng;

    /// Every shape of attack rule: steps, leaps, slides to the edge and of limited length,
    /// directions relative to the player (one way only, for the Lance), a target test
    /// that depends on the attacker, and a rule run forwards (a double step).
    const GAME: &str = "game \"A\" { }\n\
        players { white forward north  black forward south }\n\
        board 8 x 8\n\
        piece King letter K\npiece Rook letter R\npiece Bishop letter B\n\
        piece Knight letter N\npiece Pawn letter P\npiece Guard letter G\n\
        piece Lance letter L\n\
        hand {\n\
          white King 2 Rook 2 Bishop 2 Knight 2 Pawn 4 Guard 2 Lance 2\n\
          black King 2 Rook 2 Bishop 2 Knight 2 Pawn 4 Guard 2 Lance 2\n\
        }\n\
        moves King, Rook, Bishop, Knight, Pawn, Guard, Lance { place on empty }\n\
        attacks King { step all to any }\n\
        attacks Rook { slide orthogonal to any }\n\
        attacks Bishop { slide diagonal to not friend }\n\
        attacks Knight { leap 1 2 to any }\n\
        attacks Pawn {\n\
          step forward-left, forward-right to any\n\
          move to from + forward * 2 if from + forward is empty\n\
        }\n\
        attacks Guard { slide orthogonal, northeast max 2 to any }\n\
        attacks Lance { slide forward to any }\n\
        end { when no moves: draw }\n";

    /// Whether a piece of a player other than `me` reaches `c` by its attack rules run
    /// forwards, piece by piece.
    fn by_every_piece<const W: usize>(core: &Core<W>, st: &State<W>, me: u8, c: Cell) -> bool {
        (0..core.players).filter(|&p| p != me).any(|enemy| {
            st.by_owner[enemy as usize].iter().any(|from| {
                let p = core.codes.piece[st.board[from as usize] as usize];
                let mut cx = Ctx::new(enemy);
                cx.depth = 1;
                cx.from = from;
                let mut none = Vec::new();
                let mut e = Emit::new(Mode::Hit(c), &mut none);
                core.generate(st, &mut cx, &core.attacks[p as usize], &mut e)
            })
        })
    }

    /// Forty positions of random games from the start, game `i` cut after `i % cut`
    /// placements, each with its number.
    fn random_positions<const W: usize>(core: &Core<W>, seed: u64, cut: u64) -> Vec<(u64, Pos<W>)> {
        let mut sc = Scratch::default();
        (0..40)
            .map(|game| {
                let mut rng = Rng::for_playout(seed, game);
                let mut pos = core.start_pos();
                for _ in 0..(game % cut) {
                    let m = core
                        .random_legal(&mut pos.st, &mut rng, &mut sc)
                        .expect("a move");
                    core.play(&mut pos, &m);
                }
                (game, pos)
            })
            .collect()
    }

    #[test]
    fn the_plan_finds_the_attackers_that_running_every_piece_finds() {
        plan_finds_every_attacker(&Core::<1>::of_text(GAME));
        // On a board of two words, where a line's first piece may lie in either word.
        let wide = GAME.replace("board 8 x 8", "board 10 x 10");
        plan_finds_every_attacker(&Core::<2>::of_text(&wide));
    }

    fn plan_finds_every_attacker<const W: usize>(core: &Core<W>) {
        let (mut attacked, mut quiet) = (0, 0);
        for (game, pos) in random_positions(core, 9, 33) {
            for me in 0..2 {
                for c in 0..core.geo.cells {
                    let want = by_every_piece(core, &pos.st, me, c);
                    let got = core.attacked(&pos.st, &Ctx::new(me), c);
                    assert_eq!(got, want, "game {game}, cell {c}, player {me}");
                    if want {
                        attacked += 1;
                    } else {
                        quiet += 1;
                    }
                }
            }
        }
        assert!(
            attacked > 500 && quiet > 500,
            "{attacked} attacked, {quiet} not"
        );
    }

    /// Finding a cell's attack footprint tells whether it is attacked, as `attacked`
    /// does, whenever it finds one (no piece whose rules run forwards reaches the cell).
    #[test]
    fn the_attack_footprint_knows_what_attacked_says() {
        let core = Core::<1>::of_text(GAME);
        let (mut attacked, mut quiet, mut unknown) = (0, 0, 0);
        for (game, pos) in random_positions(&core, 5, 33) {
            for me in 0..2 {
                for c in 0..core.geo.cells {
                    let want = core.attacked(&pos.st, &Ctx::new(me), c);
                    match core.attack_footprint(&pos.st, me, c) {
                        Some((f, got)) => {
                            assert_eq!(got, want, "game {game}, cell {c}, player {me}");
                            assert!(f.has(c));
                            if got { attacked += 1 } else { quiet += 1 }
                        }
                        None => unknown += 1,
                    }
                }
            }
        }
        assert!(
            attacked > 500 && quiet > 500 && unknown > 10,
            "{attacked} attacked, {quiet} not, {unknown} unknown"
        );
    }

    #[test]
    fn attacks_counted_as_sets_are_those_the_emitter_counts() {
        // Steps, leaps and slides to the edge are counted as sets; the limited slide and
        // the double step are run. A target test that reads the attacker (`not friend`)
        // and one that does not (`any`) both meet the score's test (`empty`).
        // Then a rook's slide that names north twice, as listing gives it twice.
        let text = GAME.replace("end {", "score = count attacks where empty\nend {");
        let twice = text.replace("slide orthogonal to any", "slide orthogonal, north to any");
        assert_ne!(text, twice);
        // Every way the plan reaches: cells (a step, a leap), rays split up and down
        // (directions a bit each from north clockwise; north, northeast, east and
        // northwest go up; white's forward is north), and a rule counted as written (a
        // direction named twice); target tests fixed (`any`) or not.
        let planned = |text: &str| Core::<1>::of_text(text).counted_in_words(0).join(", ");
        assert_eq!(
            planned(&text),
            "King cells fixed, Rook rays 00000101 01010000 fixed, \
             Bishop rays 10000010 00101000, Knight cells fixed, Lance rays 00000001 00000000 fixed"
        );
        assert_eq!(
            planned(&twice),
            "King cells fixed, Rook rule fixed, Bishop rays 10000010 00101000, \
             Knight cells fixed, Lance rays 00000001 00000000 fixed"
        );
        // Black's forward is south, which goes down.
        let black = Core::<1>::of_text(&text).counted_in_words(1);
        assert_eq!(black.last().unwrap(), "Lance rays 00000000 00010000 fixed");
        // A third player, whose forward (east) goes up: each player's plan is its own.
        let three = text
            .replace(
                "black forward south }",
                "black forward south  red forward east }",
            )
            .replace(
                "black King 2 Rook 2 Bishop 2 Knight 2 Pawn 4 Guard 2 Lance 2\n",
                "black King 2 Rook 2 Bishop 2 Knight 2 Pawn 4 Guard 2 Lance 2\n\
                 red King 2 Rook 2 Bishop 2 Knight 2 Pawn 4 Guard 2 Lance 2\n",
            );
        assert!(three.contains("east }") && three.contains("red King 2"));
        let red = Core::<1>::of_text(&three).counted_in_words(2);
        assert_eq!(red.last().unwrap(), "Lance rays 00000100 00000000 fixed");
        for text in [text, twice, three] {
            score_is_the_emitters_count(&text);
        }
    }

    fn score_is_the_emitters_count(text: &str) {
        let core = Core::<1>::of_text(text);
        let as_sets = core.attacks_as_sets.iter().filter(|&&b| b).count();
        assert_eq!(as_sets, 5, "{:?}", core.attacks_as_sets);
        let mut seen = 0;
        for (game, pos) in random_positions(&core, 4, 31) {
            let st = &pos.st;
            let empty = core.geo.all.minus(st.occupied);
            for me in 0..core.players {
                let mut want = 0;
                for from in st.by_owner[me as usize].iter() {
                    let p = core.codes.piece[st.board[from as usize] as usize];
                    let mut cx = Ctx::new(me);
                    cx.from = from;
                    let mut none = Vec::new();
                    let mut e = Emit::new(Mode::CountIn(empty), &mut none);
                    core.generate(st, &mut cx, &core.attacks[p as usize], &mut e);
                    want += e.count as i64;
                }
                assert_eq!(
                    core.score(st, &mut Ctx::new(me)),
                    want,
                    "game {game}, player {me}"
                );
                seen += want;
            }
        }
        assert!(seen > 1000, "{seen} attacks in all");
    }
}
