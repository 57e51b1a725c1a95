//! Hoisting `find` out of quantifiers: `any d in all: first tile from find friend King
//! toward d is …` looks for the King once, not once per direction.
//!
//! A `find` depends only on the position and the point of view, which a quantifier does
//! not change, so its value is bound to a fresh variable slot just before the outermost
//! quantifier that contains it. The slot is above every slot the rule uses, so nothing
//! else can read or overwrite it; when no slot is left, the `find` stays where it is.

use crate::ir::visit::mutable::{VisitorMut, walk_cell, walk_cond, walk_effects, walk_stmts};
use crate::ir::visit::{SlotsUsed, walk_cond as read_cond, walk_effects as read_effects};
use crate::ir::{CellExpr, Cond, MAX_SLOTS, Program, Slot};

/// Hoists the `find`s of every rule of a program.
pub fn run(p: &mut Program) {
    let g = &mut p.game;
    for rules in g.moves.iter_mut().chain(g.attacks.iter_mut().flatten()) {
        let mut h = Hoist {
            next: crate::ir::visit::slots_used(rules),
        };
        walk_stmts(&mut h, rules);
    }
    let blocks = g
        .after
        .iter_mut()
        .map(|a| &mut a.effects)
        .chain(p.effects.iter_mut());
    for block in blocks {
        let mut used = SlotsUsed::default();
        read_effects(&mut used, block);
        walk_effects(&mut Hoist { next: used.0 }, block);
    }
    let conds = g
        .legal
        .iter_mut()
        .chain(g.end.iter_mut().map(|e| &mut e.cond));
    for c in conds {
        let mut used = SlotsUsed::default();
        read_cond(&mut used, c);
        Hoist { next: used.0 }.cond(c);
    }
}

struct Hoist {
    next: u8,
}

impl VisitorMut for Hoist {
    fn cond(&mut self, c: &mut Cond) {
        if !matches!(c, Cond::Exists { .. } | Cond::Forall { .. }) {
            return walk_cond(self, c);
        }
        let mut found = Collect {
            found: Vec::new(),
            next: &mut self.next,
        };
        walk_cond(&mut found, c);
        for (slot, value) in found.found.into_iter().rev() {
            let body = Box::new(std::mem::replace(c, Cond::True));
            *c = Cond::Let { slot, value, body };
        }
    }
}

/// Replaces the `find`s of a quantifier (outside any `as PLAYER:`, whose point of view
/// differs) by slots, and lists them with the slot each is bound to.
struct Collect<'a> {
    found: Vec<(Slot, CellExpr)>,
    next: &'a mut u8,
}

impl VisitorMut for Collect<'_> {
    fn cond(&mut self, c: &mut Cond) {
        if !matches!(c, Cond::As(..)) {
            walk_cond(self, c);
        }
    }

    fn cell(&mut self, e: &mut CellExpr) {
        walk_cell(self, e);
        if !matches!(e, CellExpr::Find(_)) {
            return;
        }
        let slot = match self.found.iter().find(|(_, v)| v == e) {
            Some((s, _)) => *s,
            None if (*self.next as usize) < MAX_SLOTS => {
                let s = *self.next;
                *self.next += 1;
                self.found.push((s, e.clone()));
                s
            }
            None => return,
        };
        *e = CellExpr::Slot(slot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(source: &str) -> Program {
        crate::compile(source).expect("compiles").0
    }

    const GAME: &str = "game \"T\" { }\nplayers { white black }\nboard 3 x 3\n\
        piece King letter K\nsetup { white King a1  black King c3 }\n\
        define king = find friend King\n\
        moves King { step all to empty if not (any d in orthogonal: king + d is enemy) }\n\
        end { when any d in all: king + d is enemy: next loses }\n";

    #[test]
    fn a_find_inside_a_quantifier_is_bound_once_before_it() {
        let mut p = program(GAME);
        run(&mut p);
        let text = format!("{:?}", p.game.end[0].cond);
        assert!(text.starts_with("Let { slot: 1, value: Find("), "{text}");
        assert!(text.contains("Step(Slot(1), Var(0), 1)"), "{text}");
        let rule = format!("{:?}", p.game.moves[0]);
        assert!(rule.contains("Let { slot: 1, value: Find("), "{rule}");
    }

    #[test]
    fn hoisting_does_not_change_what_a_game_does() {
        let p = program(GAME);
        let plain = crate::engine::Engine::build(p.clone(), false);
        let hoisted = crate::engine::Engine::new(p);
        for d in 1..=4 {
            assert_eq!(
                plain.perft(&plain.start(), d),
                hoisted.perft(&hoisted.start(), d)
            );
        }
    }
}
