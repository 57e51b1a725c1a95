//! Compiling cell tests into tables. A test made only of occupancy, piece, owner and
//! region predicates depends on nothing but the point of view, the cell and its content,
//! so it is computed once for every combination; at run time it is one bit lookup.

use crate::engine::state::Bits;
use crate::ir::visit::mutable::{VisitorMut, walk_cond, walk_program};
use crate::ir::{Cond, Owner, Program, Test};

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
    fn rewrite(&mut self, t: &mut Test) {
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
                    self.rewrite(r);
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
            Test::Not(inner) => self.rewrite(inner),
            _ => {}
        }
    }

    /// Rewrites every test of a program.
    pub fn program(&mut self, p: &mut Program) {
        walk_program(self, p);
    }
}

impl VisitorMut for Compiler<'_> {
    fn test(&mut self, t: &mut Test) {
        self.rewrite(t);
    }

    fn cond(&mut self, c: &mut Cond) {
        if let Cond::And(v) = c {
            merge_tests_on_same_cell(v);
        }
        walk_cond(self, c);
        if let Cond::And(v) = c
            && v.len() == 1
        {
            *c = v.pop().expect("one");
        }
    }
}
