//! Merging lines of sight: `not (any d in all: first tile from king toward d is enemy
//! Warrior) and not (any d in all: first tile from king toward d is enemy King)` asks
//! one question, `not (any d in all: first tile from king toward d is enemy Warrior or
//! enemy King)`, so that the lines are looked along once rather than once per kind of
//! piece.
//!
//! Two quantifiers over the same directions and slot, whose bodies test the same cell
//! expression, are one quantifier over the test `T or U`: `(∃d. x(d) is T) or (∃d. x(d)
//! is U)` is `∃d. x(d) is T or x(d) is U`, and a cell expression with no cell (off the
//! board) passes neither. `not A and not B` is `not (A or B)`, which lets the `and` of
//! two negated quantifiers merge too.

use crate::ir::visit::mutable::{VisitorMut, walk_cond};
use crate::ir::{Cond, Program, Test};

/// Merges the quantifiers of every condition of a program.
pub fn run(p: &mut Program) {
    crate::ir::visit::mutable::walk_program(&mut Merge, p);
}

struct Merge;

impl VisitorMut for Merge {
    fn cond(&mut self, c: &mut Cond) {
        walk_cond(self, c);
        match c {
            Cond::Or(parts) => {
                merge_within(parts, |c| Some(c));
                if parts.len() == 1 {
                    *c = parts.pop().expect("one part");
                }
            }
            Cond::And(parts) => {
                merge_within(parts, |c| match c {
                    Cond::Not(inner) => Some(inner),
                    _ => None,
                });
                if parts.len() == 1 {
                    *c = parts.pop().expect("one part");
                }
            }
            _ => {}
        }
    }
}

/// Merges into the first of them each later part whose quantifier (reached through
/// `inner`) can join an earlier one's, keeping the order of the rest.
///
/// Only quantifiers are paired, and against at most `HEADS` earlier ones, so that an
/// `and` of tens of thousands of parts (a hostile file) costs linear time, not the
/// square of its length.
fn merge_within(parts: &mut Vec<Cond>, inner: fn(&mut Cond) -> Option<&mut Cond>) {
    const HEADS: usize = 32;
    let mut heads: Vec<usize> = Vec::new();
    let mut joined = vec![false; parts.len()];
    for j in 0..parts.len() {
        if !matches!(inner(&mut parts[j]), Some(Cond::Exists { .. })) {
            continue;
        }
        let (head, tail) = parts.split_at_mut(j);
        let merged = heads
            .iter()
            .any(|&i| match (inner(&mut head[i]), inner(&mut tail[0])) {
                (Some(a), Some(b)) => join(a, b),
                _ => false,
            });
        if merged {
            joined[j] = true;
        } else if heads.len() < HEADS {
            heads.push(j);
        }
    }
    let mut k = 0;
    parts.retain(|_| {
        k += 1;
        !joined[k - 1]
    });
}

/// Makes `a` hold where `a` or `b` does, when both are `any d in DIRS: X is T` over the
/// same slot, directions and cell expression; false (and `a` unchanged) otherwise.
fn join(a: &mut Cond, b: &Cond) -> bool {
    let (
        Cond::Exists {
            slot: s1,
            dirs: d1,
            body: b1,
        },
        Cond::Exists {
            slot: s2,
            dirs: d2,
            body: b2,
        },
    ) = (a, b)
    else {
        return false;
    };
    let (Cond::Is(x1, t1), Cond::Is(x2, t2)) = (&mut **b1, &**b2) else {
        return false;
    };
    if s1 != s2 || d1 != d2 || x1 != x2 {
        return false;
    }
    let mut tests = match std::mem::replace(t1, Test::Any) {
        Test::Or(v) => v,
        t => vec![t],
    };
    match t2 {
        Test::Or(v) => tests.extend(v.iter().cloned()),
        t => tests.push(t.clone()),
    }
    *t1 = Test::Or(tests);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(source: &str) -> Program {
        crate::compile(source).expect("compiles").0
    }

    const GAME: &str = "game \"T\" { }\nplayers { white black }\nboard 5 x 5\n\
        piece King letter K\npiece Rook letter R\npiece Bishop letter B\n\
        setup { white King c1  white Rook a1  black King c5  black Rook a5 e3  black Bishop e5 }\n\
        define king = find friend King\n\
        define by-rook = any d in orthogonal: first occupied from king toward d is enemy Rook\n\
        define by-bishop = any d in diagonal: first occupied from king toward d is enemy Bishop\n\
        define by-king = any d in orthogonal: first occupied from king toward d is enemy King\n\
        moves King { step all to not friend }\n\
        moves Rook { slide orthogonal to not friend }\n\
        moves Bishop { slide diagonal to not friend }\n\
        legal if not by-rook and not by-bishop and not by-king\n\
        end { when no moves: next loses }\n";

    #[test]
    fn negated_quantifiers_along_the_same_lines_become_one() {
        let mut p = program(GAME);
        run(&mut p);
        let Some(Cond::And(parts)) = &p.game.legal else {
            panic!("an `and` stays: {:?}", p.game.legal);
        };
        // The rook's and the king's lines are the same (orthogonal); the bishop's differ.
        assert_eq!(parts.len(), 2, "{parts:?}");
        let text = format!("{:?}", parts[0]);
        assert!(text.starts_with("Not(Exists"), "{text}");
        assert!(text.contains("Or(["), "{text}");
    }

    #[test]
    fn merging_does_not_change_what_a_game_does() {
        let p = program(GAME);
        let plain = crate::engine::Engine::build(p.clone(), false);
        let merged = crate::engine::Engine::new(p);
        for d in 1..=4 {
            assert_eq!(
                plain.perft(&plain.start(), d),
                merged.perft(&merged.start(), d)
            );
        }
    }
}
