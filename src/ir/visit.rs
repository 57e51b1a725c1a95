//! One walk over the IR, in a shared (`Visitor`) and a mutable (`VisitorMut`) form.
//!
//! A visitor overrides the hooks it cares about and calls the matching `walk_*` function to
//! go on into the children; every hook's default is to walk. Both forms are generated from
//! one definition, so that they cannot drift apart.

use super::{
    CellExpr, ChooseFrom, Cond, DirRef, Effect, IntExpr, Pattern, PieceRef, Program, Slot, Stmt,
    Test,
};

macro_rules! visitor {
    ($Visitor:ident, $($mut:tt)?) => {
        /// A walk over the IR; every hook defaults to visiting the node's children.
        pub trait $Visitor {
            /// A move or attack statement; the default walks its parts and body.
            fn stmt(&mut self, s: &$($mut)? Stmt) {
                walk_stmt(self, s)
            }
            /// An effect; the default walks its parts and body.
            fn effect(&mut self, e: &$($mut)? Effect) {
                walk_effect(self, e)
            }
            /// A condition; the default walks its operands.
            fn cond(&mut self, c: &$($mut)? Cond) {
                walk_cond(self, c)
            }
            /// A number; the default walks its operands.
            fn int(&mut self, e: &$($mut)? IntExpr) {
                walk_int(self, e)
            }
            /// A cell expression; the default walks its operands.
            fn cell(&mut self, e: &$($mut)? CellExpr) {
                walk_cell(self, e)
            }
            /// A cell test; the default walks its parts.
            fn test(&mut self, t: &$($mut)? Test) {
                walk_test(self, t)
            }
            /// A direction as written (its children: none).
            fn dir(&mut self, _d: &$($mut)? DirRef) {}
            /// A variable slot, bound or read.
            fn slot(&mut self, _s: Slot) {}
        }

        /// Visits every rule of a program: move and attack rules, `after` blocks, the
        /// legality condition, the score, end rules and the effect blocks of moves.
        pub fn walk_program<V: $Visitor + ?Sized>(v: &mut V, p: &$($mut)? Program) {
            walk_rules(v, &$($mut)? p.game.moves, &$($mut)? p.game.attacks);
            for a in &$($mut)? p.game.after {
                walk_effects(v, &$($mut)? a.effects);
            }
            if let Some(c) = &$($mut)? p.game.legal {
                v.cond(c);
            }
            if let Some(s) = &$($mut)? p.game.score {
                v.int(s);
            }
            for r in &$($mut)? p.game.end {
                v.cond(&$($mut)? r.cond);
            }
            for a in &$($mut)? p.game.actions {
                v.cond(&$($mut)? a.when);
                walk_effects(v, &$($mut)? a.effects);
            }
            for block in &$($mut)? p.effects {
                walk_effects(v, block);
            }
        }

        fn walk_rules<V: $Visitor + ?Sized>(
            v: &mut V,
            moves: &$($mut)? Vec<Vec<Stmt>>,
            attacks: &$($mut)? Vec<Option<Vec<Stmt>>>,
        ) {
            for m in moves {
                walk_stmts(v, m);
            }
            for a in attacks.into_iter().flatten() {
                walk_stmts(v, a);
            }
        }

        /// Visits each statement of a list, in order.
        pub fn walk_stmts<V: $Visitor + ?Sized>(v: &mut V, list: &$($mut)? [Stmt]) {
            for s in list {
                v.stmt(s);
            }
        }

        /// Visits each effect of a list, in order.
        pub fn walk_effects<V: $Visitor + ?Sized>(v: &mut V, list: &$($mut)? [Effect]) {
            for e in list {
                v.effect(e);
            }
        }

        /// Visits the children of a statement: its slot, directions, target test and
        /// condition, then its body. A `then` block is not a child (it is an index into
        /// [`Program::effects`], walked by [`walk_program`]).
        pub fn walk_stmt<V: $Visitor + ?Sized>(v: &mut V, s: &$($mut)? Stmt) {
            match s {
                Stmt::For { slot, dirs, body } => {
                    v.slot(*slot);
                    for d in dirs {
                        v.dir(d);
                    }
                    walk_stmts(v, body);
                }
                Stmt::ForPiece { slot, body, .. } => {
                    v.slot(*slot);
                    walk_stmts(v, body);
                }
                Stmt::Let { slot, value } => {
                    v.cell(value);
                    v.slot(*slot);
                }
                Stmt::If { cond, then, otherwise } => {
                    v.cond(cond);
                    walk_stmts(v, then);
                    walk_stmts(v, otherwise);
                }
                Stmt::Step { dirs, to, cond, .. } => {
                    for d in dirs {
                        v.dir(d);
                    }
                    v.test(to);
                    if let Some(c) = cond {
                        v.cond(c);
                    }
                }
                Stmt::Slide { dirs, through, to, cond, .. } => {
                    for d in dirs {
                        v.dir(d);
                    }
                    if let Some(t) = through {
                        v.test(t);
                    }
                    v.test(to);
                    if let Some(c) = cond {
                        v.cond(c);
                    }
                }
                Stmt::Leap { to, cond, .. }
                | Stmt::Place { on: to, cond, .. }
                | Stmt::MoveAny { to, cond, .. } => {
                    v.test(to);
                    if let Some(c) = cond {
                        v.cond(c);
                    }
                }
                Stmt::MoveTo { target, to, cond, .. } => {
                    v.cell(target);
                    v.test(to);
                    v.cond(cond);
                }
                Stmt::New(inner) => v.stmt(inner),
                Stmt::Chain { body, until } => {
                    walk_stmts(v, body);
                    if let Some(c) = until {
                        v.cond(c);
                    }
                }
                Stmt::Class { body, .. } => walk_stmts(v, body),
            }
        }

        /// Visits the children of an effect: the cells, tests and conditions it reads, the
        /// slot it binds, then its body.
        pub fn walk_effect<V: $Visitor + ?Sized>(v: &mut V, e: &$($mut)? Effect) {
            match e {
                Effect::If { cond, then, otherwise } => {
                    v.cond(cond);
                    walk_effects(v, then);
                    walk_effects(v, otherwise);
                }
                Effect::For { slot, dirs, body } => {
                    v.slot(*slot);
                    for d in dirs {
                        v.dir(d);
                    }
                    walk_effects(v, body);
                }
                Effect::Along { slot, start, dir, test, body } => {
                    v.cell(start);
                    v.dir(dir);
                    v.test(test);
                    v.slot(*slot);
                    walk_effects(v, body);
                }
                Effect::Let { slot, value } => {
                    v.cell(value);
                    v.slot(*slot);
                }
                Effect::Remove(c) | Effect::Flip(c) => v.cell(c),
                Effect::SetFlag { at, .. } => v.cell(at),
                Effect::Counter { value, .. } => v.int(value),
                Effect::Again => {}
                Effect::Change { at, piece } | Effect::Put { piece, at, .. } => {
                    if let PieceRef::Var(s) = piece {
                        v.slot(*s);
                    }
                    v.cell(at);
                }
                Effect::Choose { slot, from, body, .. } => {
                    match from {
                        ChooseFrom::Where(c) => {
                            v.slot(*slot);
                            v.cond(c);
                        }
                        ChooseFrom::By { start, pattern } => {
                            v.cell(start);
                            match pattern {
                                Pattern::Step { dirs, to } | Pattern::Slide { dirs, to, .. } => {
                                    for d in dirs {
                                        v.dir(d);
                                    }
                                    v.test(to);
                                }
                                Pattern::Leap { to, .. } => v.test(to),
                            }
                            v.slot(*slot);
                        }
                    }
                    walk_effects(v, body);
                }
            }
        }

        /// Visits the children of a condition: its operands, and the slot a quantifier or
        /// `Let` binds.
        pub fn walk_cond<V: $Visitor + ?Sized>(v: &mut V, c: &$($mut)? Cond) {
            match c {
                Cond::True | Cond::False | Cond::NoMoves | Cond::PlayerEq(..) => {}
                Cond::Is(e, t) => {
                    v.cell(e);
                    v.test(t);
                }
                Cond::CellEq(a, b) => {
                    v.cell(a);
                    v.cell(b);
                }
                Cond::Not(x) | Cond::As(_, x) => v.cond(x),
                Cond::Connects { test, .. } => v.test(test),
                Cond::And(list) | Cond::Or(list) => {
                    for x in list {
                        v.cond(x);
                    }
                }
                Cond::Cmp(a, _, b) => {
                    v.int(a);
                    v.int(b);
                }
                Cond::Exists { slot, dirs, body } | Cond::Forall { slot, dirs, body } => {
                    v.slot(*slot);
                    for d in dirs {
                        v.dir(d);
                    }
                    v.cond(body);
                }
                Cond::Let { slot, value, body } => {
                    v.cell(value);
                    v.slot(*slot);
                    v.cond(body);
                }
            }
        }

        /// Visits the children of a number: its operands, tests and cells.
        pub fn walk_int<V: $Visitor + ?Sized>(v: &mut V, e: &$($mut)? IntExpr) {
            match e {
                IntExpr::CountAttacks(t) | IntExpr::CountCells(t) => v.test(t),
                IntExpr::Run { test, start, dir } => {
                    v.test(test);
                    v.cell(start);
                    v.dir(dir);
                }
                IntExpr::Add(a, b) | IntExpr::Sub(a, b) | IntExpr::Mul(a, b) => {
                    v.int(a);
                    v.int(b);
                }
                IntExpr::Of(_, x) => v.int(x),
                IntExpr::Group { test, start } | IntExpr::Lines { test, through: start, .. } => {
                    v.test(test);
                    v.cell(start);
                }
                IntExpr::Groups(t) => v.test(t),
                IntExpr::Const(_)
                | IntExpr::Counter(_)
                | IntExpr::MovesMade
                | IntExpr::Passes
                | IntExpr::Turns
                | IntExpr::Ply
                | IntExpr::Repetitions
                | IntExpr::InHand
                | IntExpr::MoveCount
                | IntExpr::Score => {}
            }
        }

        /// Visits the children of a cell expression: the cell it starts from, its test
        /// and direction, or the slot it reads.
        pub fn walk_cell<V: $Visitor + ?Sized>(v: &mut V, e: &$($mut)? CellExpr) {
            match e {
                CellExpr::Slot(s) => v.slot(*s),
                CellExpr::Step(base, d, _) => {
                    v.cell(base);
                    v.dir(d);
                }
                CellExpr::First { test, start, dir } => {
                    v.test(test);
                    v.cell(start);
                    v.dir(dir);
                }
                CellExpr::Find(t) => v.test(t),
                CellExpr::From
                | CellExpr::To
                | CellExpr::LastFrom
                | CellExpr::LastTo
                | CellExpr::Const(_) => {}
            }
        }

        /// Visits the children of a cell test: its parts, or a definition's slot and
        /// condition.
        pub fn walk_test<V: $Visitor + ?Sized>(v: &mut V, t: &$($mut)? Test) {
            match t {
                Test::Not(x) => v.test(x),
                Test::Def { slot, cond } => {
                    v.slot(*slot);
                    v.cond(cond);
                }
                Test::And(list) | Test::Or(list) => {
                    for x in list {
                        v.test(x);
                    }
                }
                Test::Any
                | Test::Empty
                | Test::Occupied
                | Test::Piece { .. }
                | Test::Flag(_)
                | Test::Region(_)
                | Test::Attacked
                | Test::Table(_) => {}
            }
        }
    };
}

visitor!(Visitor,);

/// The mutable walk.
pub mod mutable {
    use super::super::{
        CellExpr, ChooseFrom, Cond, DirRef, Effect, IntExpr, Pattern, PieceRef, Program, Slot,
        Stmt, Test,
    };

    visitor!(VisitorMut, mut);
}

pub use mutable::VisitorMut;

/// Finds the highest slot a part of a rule binds or reads: `.0` is that slot plus one
/// (0 when it uses none).
#[derive(Default)]
pub struct SlotsUsed(pub u8);

impl Visitor for SlotsUsed {
    fn slot(&mut self, s: Slot) {
        self.0 = self.0.max(s + 1);
    }
    fn dir(&mut self, d: &DirRef) {
        if let DirRef::Var(s) | DirRef::Opp(s) = d {
            self.0 = self.0.max(s + 1);
        }
    }
}

/// The highest slot a rule binds or reads, plus one (0 when it uses none).
pub fn slots_used(stmts: &[Stmt]) -> u8 {
    let mut m = SlotsUsed::default();
    walk_stmts(&mut m, stmts);
    m.0
}
