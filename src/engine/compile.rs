//! Compiling cell tests into tables. A test made only of occupancy, piece, owner and
//! region predicates depends on nothing but the point of view, the cell and its content,
//! so it is computed once for every combination; at run time it is one bit lookup.

use super::state::Bits;
use crate::ir::{CellExpr, Cond, Effect, IntExpr, Owner, Program, Stmt, Test};

/// Cell contents are coded 0 (empty) or 1 + owner * 32 + piece: 65 codes for two players.
/// Tables have a row for every byte value so that indexing by a content byte needs no check.
pub const CODES: usize = 256;
const USED_CODES: usize = 65;

/// For each point of view and cell content, the cells where the test holds.
pub type Table = [[Bits; CODES]; 2];

/// `x is A and x is B` → `x is (A and B)`: one test, so one table lookup when pure.
/// Only adjacent conditions are merged, which keeps the order of evaluation.
fn merge_tests_on_same_cell(v: &mut Vec<Cond>) {
    let mut out: Vec<Cond> = Vec::with_capacity(v.len());
    for c in std::mem::take(v) {
        if let (Some(Cond::Is(e1, t1)), Cond::Is(e2, t2)) = (out.last_mut(), &c)
            && e1 == e2
        {
            {
                let t = std::mem::replace(t1, Test::Any);
                *t1 = match t {
                    Test::And(mut list) => {
                        list.push(t2.clone());
                        Test::And(list)
                    }
                    t => Test::And(vec![t, t2.clone()]),
                };
                continue;
            }
        }
        out.push(c);
    }
    *v = out;
}

pub struct Compiler<'a> {
    regions: &'a [[Bits; 2]],
    cells: u16,
    pub tables: Vec<Box<Table>>,
    keys: Vec<Test>,
}

impl<'a> Compiler<'a> {
    pub fn new(regions: &'a [[Bits; 2]], cells: u16) -> Self {
        Compiler {
            regions,
            cells,
            tables: Vec::new(),
            keys: Vec::new(),
        }
    }

    fn pure(t: &Test) -> bool {
        match t {
            Test::Any | Test::Empty | Test::Occupied | Test::Piece { .. } | Test::Region(_) => true,
            Test::Flag(_) | Test::Attacked | Test::Table(_) => false,
            Test::Not(t) => Self::pure(t),
            Test::And(v) | Test::Or(v) => v.iter().all(Self::pure),
        }
    }

    fn holds(&self, t: &Test, me: u8, cell: u16, code: usize) -> bool {
        match t {
            Test::Any => true,
            Test::Empty => code == 0,
            Test::Occupied => code != 0,
            Test::Piece { owner, pieces } => {
                code != 0 && {
                    let (o, p) = (((code - 1) >> 5) as u8, (code - 1) & 31);
                    pieces >> p & 1 != 0
                        && match owner {
                            Owner::Any => true,
                            Owner::Friend => o == me,
                            Owner::Enemy => o != me,
                            Owner::Player(q) => o == *q,
                        }
                }
            }
            Test::Region(r) => self.regions[*r as usize][me as usize].has(cell),
            Test::Not(t) => !self.holds(t, me, cell, code),
            Test::And(v) => v.iter().all(|t| self.holds(t, me, cell, code)),
            Test::Or(v) => v.iter().any(|t| self.holds(t, me, cell, code)),
            Test::Flag(_) | Test::Attacked | Test::Table(_) => {
                unreachable!("only pure tests are tabulated")
            }
        }
    }

    fn table_for(&mut self, t: &Test) -> u16 {
        if let Some(i) = self.keys.iter().position(|k| k == t) {
            return i as u16;
        }
        let mut table = Box::new([[Bits::default(); CODES]; 2]);
        for me in 0..2u8 {
            for code in 0..USED_CODES {
                for cell in 0..self.cells {
                    if self.holds(t, me, cell, code) {
                        table[me as usize][code].set(cell, true);
                    }
                }
            }
        }
        self.keys.push(t.clone());
        self.tables.push(table);
        (self.tables.len() - 1) as u16
    }

    /// Rewrites a test: pure → table; a conjunction → its pure part first, as one table.
    pub fn test(&mut self, t: &mut Test) {
        if Self::pure(t) {
            *t = Test::Table(self.table_for(t));
            return;
        }
        match t {
            Test::And(_) | Test::Or(_) => {
                let is_and = matches!(t, Test::And(_));
                let v = match t {
                    Test::And(v) | Test::Or(v) => v,
                    _ => unreachable!(),
                };
                let (pure, mut rest): (Vec<Test>, Vec<Test>) =
                    std::mem::take(v).into_iter().partition(Self::pure);
                for r in &mut rest {
                    self.test(r);
                }
                let mut out = Vec::new();
                if !pure.is_empty() {
                    let combined = if is_and {
                        Test::And(pure)
                    } else {
                        Test::Or(pure)
                    };
                    out.push(Test::Table(self.table_for(&combined)));
                }
                out.extend(rest);
                *t = if is_and {
                    Test::And(out)
                } else {
                    Test::Or(out)
                };
            }
            Test::Not(inner) => self.test(inner),
            _ => {}
        }
    }

    fn cell(&mut self, e: &mut CellExpr) {
        match e {
            CellExpr::Step(base, _, _) => self.cell(base),
            CellExpr::First { test, start, .. } => {
                self.test(test);
                self.cell(start);
            }
            CellExpr::Find(t) => self.test(t),
            _ => {}
        }
    }

    pub fn cond(&mut self, c: &mut Cond) {
        match c {
            Cond::Is(e, t) => {
                self.cell(e);
                self.test(t);
            }
            Cond::CellEq(a, b) => {
                self.cell(a);
                self.cell(b);
            }
            Cond::Not(x) | Cond::As(_, x) => self.cond(x),
            Cond::And(v) => {
                merge_tests_on_same_cell(v);
                v.iter_mut().for_each(|x| self.cond(x));
                if v.len() == 1 {
                    *c = v.pop().expect("one");
                }
            }
            Cond::Or(v) => v.iter_mut().for_each(|x| self.cond(x)),
            Cond::Cmp(a, _, b) => {
                self.int(a);
                self.int(b);
            }
            Cond::Exists { body, .. } | Cond::Forall { body, .. } => self.cond(body),
            Cond::Let { value, body, .. } => {
                self.cell(value);
                self.cond(body);
            }
            Cond::True | Cond::False | Cond::PlayerEq(..) | Cond::NoMoves => {}
        }
    }

    pub fn int(&mut self, e: &mut IntExpr) {
        match e {
            IntExpr::CountAttacks(t) | IntExpr::CountCells(t) => self.test(t),
            IntExpr::Run { test, start, .. } => {
                self.test(test);
                self.cell(start);
            }
            IntExpr::Add(a, b) | IntExpr::Sub(a, b) | IntExpr::Mul(a, b) => {
                self.int(a);
                self.int(b);
            }
            IntExpr::Of(_, e) => self.int(e),
            _ => {}
        }
    }

    pub fn stmts(&mut self, v: &mut [Stmt]) {
        for s in v {
            match s {
                Stmt::For { body, .. } | Stmt::ForPiece { body, .. } => self.stmts(body),
                Stmt::Let { value, .. } => self.cell(value),
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.cond(cond);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                Stmt::Step { to, cond, .. }
                | Stmt::Slide { to, cond, .. }
                | Stmt::Leap { to, cond, .. }
                | Stmt::Place { on: to, cond, .. } => {
                    self.test(to);
                    if let Some(c) = cond {
                        self.cond(c);
                    }
                }
                Stmt::MoveTo { target, cond, .. } => {
                    self.cell(target);
                    self.cond(cond);
                }
            }
        }
    }

    pub fn effects(&mut self, v: &mut [Effect]) {
        for e in v {
            match e {
                Effect::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.cond(cond);
                    self.effects(then);
                    self.effects(otherwise);
                }
                Effect::For { body, .. } => self.effects(body),
                Effect::Let { value, .. } | Effect::Remove(value) | Effect::Flip(value) => {
                    self.cell(value)
                }
                Effect::Change { at, .. } | Effect::Put { at, .. } => self.cell(at),
                Effect::Along {
                    start, test, body, ..
                } => {
                    self.cell(start);
                    self.test(test);
                    self.effects(body);
                }
                Effect::SetFlag { at, .. } => self.cell(at),
                Effect::Counter { value, .. } => self.int(value),
                Effect::Again => {}
            }
        }
    }

    /// Rewrites every test of a program.
    pub fn program(&mut self, p: &mut Program) {
        let g = &mut p.game;
        for m in &mut g.moves {
            self.stmts(m);
        }
        for a in g.attacks.iter_mut().flatten() {
            self.stmts(a);
        }
        for a in &mut g.after {
            self.effects(&mut a.effects);
        }
        if let Some(l) = &mut g.legal {
            self.cond(l);
        }
        if let Some(s) = &mut g.score {
            self.int(s);
        }
        for e in &mut g.end {
            self.cond(&mut e.cond);
        }
        for block in &mut p.effects {
            self.effects(block);
        }
    }
}
