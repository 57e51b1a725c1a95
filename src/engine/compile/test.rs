//! Cell tests, compiled. A test made only of occupancy, owner, piece and region
//! predicates depends on nothing but the point of view, the cell and its content: it
//! becomes a table (one bit lookup per cell) that also knows how to compute, in a few
//! bitboard operations, the whole set of cells where it holds. Flags and `attacked` stay
//! as they are; `not`, `and`, `or` combine either form.

use super::super::bits::Bits;
use super::super::core::Core;
use super::super::evaluate::CondFn;
use super::super::evaluate::Ctx;
use super::super::state::{Cell, Codes, MAX_OWNERS, State};
use crate::ir::{Cond, Owner, Test};

/// A compiled cell test.
pub enum CTest<const W: usize> {
    Table(Box<Table<W>>),
    Flag(u8),
    Attacked,
    /// A definition of one cell: the condition with the cell in the slot.
    Def(u8, CondFn<W>),
    Not(Box<CTest<W>>),
    And(Vec<CTest<W>>),
    Or(Vec<CTest<W>>),
}

/// A test that depends only on the point of view, the cell and its content.
pub struct Table<const W: usize> {
    codes: usize,
    /// `rows[me * codes + code]`: the cells where the test holds for that content.
    rows: Vec<Bits<W>>,
    /// Per point of view: the parts whose union is the set of cells where it holds.
    parts: Vec<Vec<Part<W>>>,
    /// Per point of view: the set in one or two operations, for the common tests, and
    /// the cells it is limited to (`empty and not in throne`).
    quick: Vec<(Quick<W>, Bits<W>)>,
}

/// The common shapes of a table's set: a constant (a region), an owner's pieces, every
/// cell but an owner's pieces (`not enemy`), the empty or the occupied cells.
#[derive(Clone, Copy)]
enum Quick<const W: usize> {
    Cells(Bits<W>),
    Owner(u8),
    NotOwner(u8),
    Empty,
    Occupied,
    /// One owner's pieces of one type (`enemy Warrior`).
    OwnerType(u8, u8),
    /// Every owner's pieces of one type (`King`).
    Type(u8),
    /// One owner's pieces but those of one type (`enemy soldier`, a group of all the
    /// types but the king).
    OwnerBut(u8, u8),
    General,
}

/// Cells with some contents, within some cells.
struct Part<const W: usize> {
    within: Bits<W>,
    all_cells: bool,
    empty: bool,
    /// Per owner: the piece types accepted (a bit per type).
    owners: Vec<(u8, u32)>,
}

impl<const W: usize> CTest<W> {
    /// Whether the test holds on cell `c` (which exists) from the point of view of `cx.me`.
    #[inline(always)]
    pub fn holds(&self, core: &Core<W>, st: &State<W>, cx: &Ctx, c: Cell) -> bool {
        match self {
            CTest::Table(t) => t.holds(cx.me, c, st.board[c as usize]),
            CTest::Flag(f) => st.flags[*f as usize].has(c),
            _ => self.holds_slow(core, st, cx, c),
        }
    }

    fn holds_slow(&self, core: &Core<W>, st: &State<W>, cx: &Ctx, c: Cell) -> bool {
        match self {
            CTest::Table(t) => t.holds(cx.me, c, st.board[c as usize]),
            CTest::Flag(f) => st.flags[*f as usize].has(c),
            CTest::Attacked => core.attacked(st, cx, c),
            CTest::Def(slot, cond) => {
                let mut dcx = *cx;
                dcx.slots[*slot as usize] = c;
                cond(core, st, &mut dcx)
            }
            CTest::Not(t) => !t.holds(core, st, cx, c),
            CTest::And(v) => v.iter().all(|t| t.holds(core, st, cx, c)),
            CTest::Or(v) => v.iter().any(|t| t.holds(core, st, cx, c)),
        }
    }

    /// The set of cells where the test holds, when it can be computed at once (`attacked`
    /// is computed cell by cell instead).
    #[inline(always)]
    pub fn set(&self, core: &Core<W>, st: &State<W>, cx: &Ctx) -> Option<Bits<W>> {
        match self {
            CTest::Table(t) => Some(t.set(st, cx.me)),
            CTest::Flag(f) => Some(st.flags[*f as usize]),
            _ => self.set_slow(core, st, cx),
        }
    }

    fn set_slow(&self, core: &Core<W>, st: &State<W>, cx: &Ctx) -> Option<Bits<W>> {
        Some(match self {
            CTest::Table(t) => t.set(st, cx.me),
            CTest::Flag(f) => st.flags[*f as usize],
            CTest::Attacked | CTest::Def(..) => return None,
            CTest::Not(t) => core.geo.all.minus(t.set(core, st, cx)?),
            CTest::And(v) => {
                let mut acc = core.geo.all;
                for t in v {
                    acc = acc.and(t.set(core, st, cx)?);
                }
                acc
            }
            CTest::Or(v) => {
                let mut acc = Bits::EMPTY;
                for t in v {
                    acc = acc.or(t.set(core, st, cx)?);
                }
                acc
            }
        })
    }

    /// The cells where the test holds for player `me` whatever the position, when they
    /// are fixed (`any`, a region).
    pub fn fixed_cells(&self, me: u8) -> Option<Bits<W>> {
        match self {
            CTest::Table(t) => match t.quick[me as usize].0 {
                Quick::Cells(b) => Some(b),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `set` gives an answer (no `attacked` inside).
    #[inline(always)]
    pub fn is_set(&self) -> bool {
        match self {
            CTest::Table(_) | CTest::Flag(_) => true,
            CTest::Attacked | CTest::Def(..) => false,
            _ => self.is_set_slow(),
        }
    }

    fn is_set_slow(&self) -> bool {
        match self {
            CTest::Not(t) => t.is_set(),
            CTest::And(v) | CTest::Or(v) => v.iter().all(CTest::is_set),
            _ => self.is_set(),
        }
    }
}

impl<const W: usize> Table<W> {
    /// The cells the test is limited to when it is `empty` (within them) from `me`'s
    /// point of view, else `None`.
    pub fn empty_within(&self, me: u8) -> Option<Bits<W>> {
        match self.quick[me as usize] {
            (Quick::Empty, within) => Some(within),
            _ => None,
        }
    }

    #[inline(always)]
    pub fn holds(&self, me: u8, c: Cell, code: u8) -> bool {
        self.rows[me as usize * self.codes + code as usize].has(c)
    }

    /// The cells where the test would hold, from `me`'s point of view, with the piece of
    /// `code` (0: none) standing on each.
    #[inline(always)]
    pub fn cells_with(&self, me: u8, code: u8) -> Bits<W> {
        self.rows[me as usize * self.codes + code as usize]
    }

    /// Every cell where the test holds, from `me`'s point of view.
    #[inline(always)]
    pub fn set(&self, st: &State<W>, me: u8) -> Bits<W> {
        let (quick, within) = self.quick[me as usize];
        match quick {
            Quick::Cells(b) => b,
            Quick::Owner(o) => st.by_owner[o as usize].and(within),
            Quick::NotOwner(o) => within.minus(st.by_owner[o as usize]),
            Quick::Empty => within.minus(st.occupied),
            Quick::Occupied => st.occupied.and(within),
            Quick::OwnerType(o, p) => st.by_owner[o as usize]
                .and(st.by_type[p as usize])
                .and(within),
            Quick::Type(p) => st.by_type[p as usize].and(within),
            Quick::OwnerBut(o, p) => st.by_owner[o as usize]
                .minus(st.by_type[p as usize])
                .and(within),
            Quick::General => self.set_by_parts(st, me),
        }
    }

    #[inline(never)]
    fn set_by_parts(&self, st: &State<W>, me: u8) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for part in &self.parts[me as usize] {
            let mut acc = if part.empty {
                part.within.minus(st.occupied)
            } else {
                Bits::EMPTY
            };
            for &(o, types) in &part.owners {
                let mut of_owner = st.by_owner[o as usize];
                if types != u32::MAX {
                    let mut t = Bits::EMPTY;
                    let mut m = types;
                    while m != 0 {
                        t = t.or(st.by_type[m.trailing_zeros() as usize]);
                        m &= m - 1;
                    }
                    of_owner = of_owner.and(t);
                }
                acc = acc.or(of_owner);
            }
            out = out.or(if part.all_cells {
                acc
            } else {
                acc.and(part.within)
            });
        }
        out
    }
}

/// Whether a test depends only on the point of view, the cell and its content.
pub fn pure(t: &Test) -> bool {
    match t {
        Test::Any | Test::Empty | Test::Occupied | Test::Piece { .. } | Test::Region(_) => true,
        Test::Flag(_) | Test::Attacked | Test::Table(_) | Test::Def { .. } => false,
        Test::Not(t) => pure(t),
        Test::And(v) | Test::Or(v) => v.iter().all(pure),
    }
}

/// What a compiled test needs to know about the game.
pub struct TestEnv<'a, const W: usize> {
    pub codes: &'a Codes,
    pub players: u8,
    pub pieces: usize,
    pub all: Bits<W>,
    /// Per region, per player.
    pub regions: &'a [Vec<Bits<W>>],
}

impl<const W: usize> TestEnv<'_, W> {
    /// Compiles a test: pure → one table; a conjunction or disjunction → its pure part
    /// first, as one table, then the rest.
    /// `def` compiles the condition of a definition used as a test.
    pub fn compile(&self, t: &Test, def: &dyn Fn(&Cond) -> CondFn<W>) -> CTest<W> {
        if pure(t) {
            return CTest::Table(Box::new(self.table(t)));
        }
        match t {
            Test::Flag(f) => CTest::Flag(*f),
            Test::Attacked => CTest::Attacked,
            Test::Def { slot, cond } => CTest::Def(*slot, def(cond)),
            Test::Not(inner) => CTest::Not(Box::new(self.compile(inner, def))),
            Test::And(v) | Test::Or(v) => {
                let is_and = matches!(t, Test::And(_));
                let (pure_part, rest): (Vec<&Test>, Vec<&Test>) = v.iter().partition(|x| pure(x));
                let mut out = Vec::new();
                if !pure_part.is_empty() {
                    let owned: Vec<Test> = pure_part.into_iter().cloned().collect();
                    let combined = if is_and {
                        Test::And(owned)
                    } else {
                        Test::Or(owned)
                    };
                    out.push(CTest::Table(Box::new(self.table(&combined))));
                }
                out.extend(rest.into_iter().map(|x| self.compile(x, def)));
                if out.len() == 1 {
                    out.pop().expect("one")
                } else if is_and {
                    CTest::And(out)
                } else {
                    CTest::Or(out)
                }
            }
            _ => unreachable!("pure tests are handled above"),
        }
    }

    /// The cells where a pure test holds for `me` when they hold the content `code`:
    /// computed as sets, once per content, so that a long rule costs its length, not its
    /// length times the board.
    fn holds_at(&self, t: &Test, me: u8, code: usize) -> Bits<W> {
        let when = |b: bool| if b { self.all } else { Bits::EMPTY };
        match t {
            Test::Any => self.all,
            Test::Empty => when(code == 0),
            Test::Occupied => when(code != 0),
            Test::Piece { owner, pieces } => when(
                code != 0 && {
                    let (o, p) = (self.codes.owner[code], self.codes.piece[code]);
                    pieces >> p & 1 != 0
                        && match owner {
                            Owner::Any => true,
                            Owner::Friend => o == me,
                            // Neutral pieces are nobody's enemy.
                            Owner::Enemy => o != me && o < self.players,
                            Owner::Player(q) => o == *q,
                            Owner::Neutral => o == self.players,
                        }
                },
            ),
            Test::Region(r) => self.regions[*r as usize][me as usize].and(self.all),
            Test::Not(t) => self.all.minus(self.holds_at(t, me, code)),
            Test::And(v) => {
                let mut acc = self.all;
                for t in v {
                    if acc.is_empty() {
                        break;
                    }
                    acc = acc.and(self.holds_at(t, me, code));
                }
                acc
            }
            Test::Or(v) => {
                let mut acc = Bits::EMPTY;
                for t in v {
                    if acc == self.all {
                        break;
                    }
                    acc = acc.or(self.holds_at(t, me, code));
                }
                acc
            }
            Test::Flag(_) | Test::Attacked | Test::Table(_) | Test::Def { .. } => {
                unreachable!("only pure tests are tabulated")
            }
        }
    }

    /// The quick form of one point of view's rows (the cells per content), if any, and
    /// the cells it holds within: every content must hold on all of those or on none.
    fn quick(&self, rows: &[Bits<W>]) -> (Quick<W>, Bits<W>) {
        if rows.iter().all(|r| *r == rows[0]) {
            return (Quick::Cells(rows[0]), self.all);
        }
        let within = rows.iter().fold(Bits::EMPTY, |a, r| a.or(*r));
        if !rows.iter().all(|r| *r == within || r.is_empty()) {
            return (Quick::General, self.all);
        }
        (self.quick_within(rows, within), within)
    }

    /// The quick form of rows each of which is `within` or empty.
    fn quick_within(&self, rows: &[Bits<W>], within: Bits<W>) -> Quick<W> {
        let holds = |code: usize| rows[code] == within;
        let owner = |code: usize| self.codes.owner[code];
        let all_codes = |f: &dyn Fn(usize) -> bool| (0..rows.len()).all(|c| holds(c) == f(c));
        if all_codes(&|c| c == 0) {
            return Quick::Empty;
        }
        if all_codes(&|c| c != 0) {
            return Quick::Occupied;
        }
        for p in 0..self.pieces as u8 {
            if all_codes(&|c| c != 0 && self.codes.piece[c] == p) {
                return Quick::Type(p);
            }
        }
        for o in 0..MAX_OWNERS as u8 {
            if all_codes(&|c| c != 0 && owner(c) == o) {
                return Quick::Owner(o);
            }
            if all_codes(&|c| c == 0 || owner(c) != o) {
                return Quick::NotOwner(o);
            }
            for p in 0..self.pieces as u8 {
                if all_codes(&|c| c != 0 && owner(c) == o && self.codes.piece[c] == p) {
                    return Quick::OwnerType(o, p);
                }
                if all_codes(&|c| c != 0 && owner(c) == o && self.codes.piece[c] != p) {
                    return Quick::OwnerBut(o, p);
                }
            }
        }
        Quick::General
    }

    fn table(&self, t: &Test) -> Table<W> {
        let codes = self.codes.count;
        let players = self.players.max(1) as usize;
        let mut rows = vec![Bits::EMPTY; players * codes];
        for me in 0..players as u8 {
            for code in 0..codes {
                rows[me as usize * codes + code] = self.holds_at(t, me, code);
            }
        }
        // Group the contents by the cells where they make the test hold.
        let mut parts = Vec::new();
        for me in 0..players {
            let row = &rows[me * codes..(me + 1) * codes];
            let mut mine: Vec<Part<W>> = Vec::new();
            for (code, cells) in row.iter().enumerate() {
                if cells.is_empty() {
                    continue;
                }
                let i = match mine.iter().position(|p| p.within == *cells) {
                    Some(i) => i,
                    None => {
                        mine.push(Part {
                            within: *cells,
                            all_cells: *cells == self.all,
                            empty: false,
                            owners: Vec::new(),
                        });
                        mine.len() - 1
                    }
                };
                let part = &mut mine[i];
                if code == 0 {
                    part.empty = true;
                    continue;
                }
                let (o, p) = (self.codes.owner[code], self.codes.piece[code]);
                match part.owners.iter_mut().find(|(x, _)| *x == o) {
                    Some((_, types)) => *types |= 1 << p,
                    None => part.owners.push((o, 1 << p)),
                }
            }
            let every_type = if self.pieces >= 32 {
                u32::MAX
            } else {
                (1u32 << self.pieces) - 1
            };
            for part in &mut mine {
                for (_, types) in &mut part.owners {
                    if *types == every_type {
                        *types = u32::MAX;
                    }
                }
                part.owners.retain(|(o, _)| (*o as usize) < MAX_OWNERS);
            }
            parts.push(mine);
        }
        let quick = (0..players)
            .map(|me| self.quick(&rows[me * codes..(me + 1) * codes]))
            .collect();
        Table {
            codes,
            rows,
            parts,
            quick,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table's set, by its quick form or by its parts, against its rows cell by cell:
    /// tests of every shape, from each point of view, on boards filled at random with
    /// every owner's pieces (neutral ones too).
    #[test]
    fn a_tables_set_is_the_cells_where_it_holds() {
        let core = Core::<2>::example("hnefatafl");
        let pieces = core.program.game.pieces.len();
        let env = TestEnv {
            codes: &core.codes,
            players: core.players,
            pieces,
            all: core.geo.all,
            regions: &core.geo.regions,
        };
        let owners = [
            Owner::Any,
            Owner::Friend,
            Owner::Enemy,
            Owner::Player(0),
            Owner::Player(1),
            Owner::Neutral,
        ];
        let mut tests = vec![Test::Empty, Test::Occupied, Test::Any, Test::Region(0)];
        for owner in owners {
            for types in [1, 2, 4, 3, 6, (1 << pieces) - 1] {
                let piece = Test::Piece {
                    owner,
                    pieces: types,
                };
                tests.push(Test::Not(Box::new(piece.clone())));
                tests.push(Test::Or(vec![Test::Empty, piece.clone()]));
                tests.push(Test::And(vec![piece.clone(), Test::Region(1)]));
                tests.push(piece);
            }
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut quick_types, mut owner_but) = (0, 0);
        for t in &tests {
            let table = env.table(t);
            quick_types += table
                .quick
                .iter()
                .filter(|q| matches!(q.0, Quick::Type(_)))
                .count();
            owner_but += table
                .quick
                .iter()
                .filter(|q| matches!(q.0, Quick::OwnerBut(..)))
                .count();
            for _ in 0..20 {
                let mut st = State::<2>::new();
                for c in 0..core.geo.cells {
                    let r = crate::engine::hash::splitmix(&mut seed);
                    let code = if r.is_multiple_of(3) {
                        0
                    } else {
                        let owner = (r >> 8) as u8 % (core.players + 1);
                        core.codes.code(owner, (r >> 16) as u8 % pieces as u8)
                    };
                    st.write_unlogged(&core.codes, c, code);
                }
                for me in 0..core.players {
                    let set = table.set(&st, me);
                    for c in 0..core.geo.cells {
                        let code = st.board[c as usize];
                        assert_eq!(
                            set.has(c),
                            table.holds(me, c, code),
                            "{t:?} for {me} at {c}"
                        );
                    }
                }
            }
        }
        assert!(quick_types > 0, "a type of anyone's is read from its set");
        assert!(
            owner_but > 0,
            "an owner's pieces but a type are read from two sets"
        );
    }
}
