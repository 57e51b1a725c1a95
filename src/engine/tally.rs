//! `count attacks`: how many cells a player's pieces attack, a cell attacked by two
//! pieces counted twice (a score of attacked cells). The types whose attack rules are sets
//! (`Core::reaches_as_set`) are counted from a plan made with the game, per player
//! (`Counted`): the cells a step or leap reaches from each cell, a slide's directions
//! split into those that go up and those that go down, and a target test that holds on
//! fixed cells (`to any`) as those cells. A count then matches no rule, reads no
//! direction and asks no test; the other types run their rules.

use super::bits::Bits;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::Ctx;
use super::generate::{CStmt, Emit, Mode};
use super::state::State;
use crate::geometry::MAX_DIRS;

/// One attack rule of a type whose rules are all sets, for one player.
pub struct Counted<const W: usize> {
    piece: u8,
    /// The rule's place among the type's attack rules.
    rule: u8,
    /// The target test's cells, when they are fixed.
    to: Option<Bits<W>>,
    reach: Reach<W>,
}

enum Reach<const W: usize> {
    /// Per cell, the cells a step or a leap reaches.
    Cells(Vec<Bits<W>>),
    /// A slide's directions (relative ones read from the player's point of view), a bit
    /// each, split by the way they go (`Geometry::increasing`): up, the first stop of a
    /// ray is its lowest cell; down, its highest.
    Rays { up: u8, down: u8 },
    /// A slide with a direction that is a variable or is named twice: its rule's targets
    /// taken piece by piece (`Core::reached_in`), as listing gives them.
    Rule,
}

impl<const W: usize> Core<W> {
    /// Each player's `Counted` rules, in the order of the types and their rules.
    pub(super) fn plan_counted(&mut self) {
        self.counted = (0..self.players).map(|me| self.counted_for(me)).collect();
    }

    fn counted_for(&self, me: u8) -> Vec<Counted<W>> {
        // The directions that go up, a bit each.
        let up = (0..MAX_DIRS).fold(0, |m, d| m | (self.geo.increasing[d] as u8) << d);
        let mut plan = Vec::new();
        for (p, rules) in self.attacks.iter().enumerate() {
            if !self.attacks_as_sets[p] {
                continue;
            }
            for (i, r) in rules.iter().enumerate() {
                let m = me as usize;
                let reach = match r {
                    CStmt::Step { masks: Some(t), .. } => {
                        Reach::Cells(t[m.min(t.len() - 1)].clone())
                    }
                    CStmt::Leap { leap, .. } => Reach::Cells(
                        self.geo.leap_masks[leap[m.min(leap.len() - 1)] as usize].clone(),
                    ),
                    CStmt::Slide { dirs, .. } => match self.slide_dirs(me, dirs) {
                        Some(dirs) => Reach::Rays {
                            up: dirs & up,
                            down: dirs & !up,
                        },
                        None => Reach::Rule,
                    },
                    _ => unreachable!("a rule that reaches_as_set"),
                };
                plan.push(Counted {
                    piece: p as u8,
                    rule: i as u8,
                    to: target_test(r).fixed_cells(me),
                    reach,
                });
            }
        }
        plan
    }

    /// Player `me`'s plan in words, rule by rule: how it reaches, and `fixed` when its
    /// target test's cells are.
    #[cfg(test)]
    pub(super) fn counted_in_words(&self, me: u8) -> Vec<String> {
        (self.counted[me as usize].iter())
            .map(|c| {
                let reach = match c.reach {
                    Reach::Cells(_) => "cells".to_string(),
                    Reach::Rays { up, down } => format!("rays {up:08b} {down:08b}"),
                    Reach::Rule => "rule".to_string(),
                };
                let fixed = if c.to.is_some() { " fixed" } else { "" };
                format!(
                    "{} {reach}{fixed}",
                    self.program.game.pieces[c.piece as usize].name
                )
            })
            .collect()
    }

    /// A slide's directions for player `me`, a bit each, when none is a variable and
    /// none is named twice (relative ones read from `me`'s point of view).
    fn slide_dirs(&self, me: u8, dirs: &[crate::ir::DirRef]) -> Option<u8> {
        let cx = Ctx::new(me);
        dirs.iter().try_fold(0u8, |seen, &d| {
            let bit = 1 << (self.dir(&cx, d) & 7);
            (d.is_fixed() && seen & bit == 0).then_some(seen | bit)
        })
    }

    /// How many cells of `set` the rule `c` reaches from each of `pieces`, summed.
    #[inline(always)]
    fn count_reach(
        &self,
        st: &State<W>,
        cx: &Ctx,
        c: &Counted<W>,
        pieces: Bits<W>,
        set: Bits<W>,
    ) -> u32 {
        // The rule itself is looked up only where it is read.
        let rule = || &self.attacks[c.piece as usize][c.rule as usize];
        if let Reach::Rule = c.reach {
            // Rarely: piece by piece, as the rule's targets are listed.
            let mut pcx = *cx;
            return (pieces.iter())
                .map(|x| {
                    pcx.from = x;
                    self.reached_in(st, &pcx, std::slice::from_ref(rule()), set)
                })
                .sum();
        }
        let within = match c.to {
            Some(cells) => cells.and(set),
            None => self.within(st, cx, rule(), set),
        };
        let mut count = 0;
        match &c.reach {
            Reach::Cells(reached) => {
                for x in pieces.iter() {
                    count += reached[x as usize].and(within).count();
                }
            }
            Reach::Rays { up, down } => {
                for x in pieces.iter() {
                    let rays = &self.geo.ray_mask[x as usize];
                    let reached = joined::<true, W>(rays, *up, st.occupied).or(joined::<false, W>(
                        rays,
                        *down,
                        st.occupied,
                    ));
                    count += reached.and(within).count();
                }
            }
            Reach::Rule => unreachable!("counted above"),
        }
        count
    }

    /// The cells of `set` where a rule's target test holds, when they are not fixed.
    #[inline(never)]
    fn within(&self, st: &State<W>, cx: &Ctx, rule: &CStmt<W>, set: Bits<W>) -> Bits<W> {
        let to = target_test(rule).set(self, st, cx);
        to.expect("a set test").and(set)
    }

    /// Over the pieces of `cx.me`, the number of attacked cells passing a test (a cell
    /// attacked by two pieces counts twice).
    pub fn count_attacks(&self, st: &State<W>, cx: &Ctx, t: &CTest<W>) -> i64 {
        let mut acx = Ctx::new(cx.me);
        acx.depth = cx.depth;
        let set = t.set(self, st, cx);
        let mut total = 0i64;
        let mut rest = st.by_owner[cx.me as usize];
        // Type by type where the rules are sets: what a rule reaches within, and a
        // slide's directions, are the same for every piece of the type.
        if let Some(set) = set {
            let mine = rest;
            for c in &self.counted[cx.me as usize] {
                let pieces = mine.and(st.by_type[c.piece as usize]);
                if pieces.is_empty() {
                    continue;
                }
                rest = rest.minus(pieces);
                total += self.count_reach(st, &acx, c, pieces, set) as i64;
            }
        }
        let mut buf = Vec::new();
        for from in rest.iter() {
            let p = self.codes.piece[st.board[from as usize] as usize];
            acx.from = from;
            match set {
                Some(set) => {
                    let mut e = Emit::new(Mode::CountIn(set), &mut buf);
                    self.generate(st, &mut acx, &self.attacks[p as usize], &mut e);
                    total += e.count as i64;
                }
                None => {
                    buf.clear();
                    let mut e = Emit::new(Mode::Collect, &mut buf);
                    self.generate(st, &mut acx, &self.attacks[p as usize], &mut e);
                    total += buf.iter().filter(|m| t.holds(self, st, cx, m.to)).count() as i64;
                }
            }
        }
        total
    }

    /// How many cells of `set` the rules of a piece on `cx.from` reach, every rule passing
    /// `reaches_as_set`: as many as the emitter would count (a cell two rules reach, or
    /// a slide's direction named twice, counts twice), with none run.
    #[inline]
    fn reached_in(&self, st: &State<W>, cx: &Ctx, rules: &[CStmt<W>], set: Bits<W>) -> u32 {
        let mut count = 0;
        self.each_reached(st, cx, rules, |targets| count += targets.and(set).count());
        count
    }
}

/// A rule's target test (a rule that `reaches_as_set`).
fn target_test<const W: usize>(r: &CStmt<W>) -> &CTest<W> {
    match r {
        CStmt::Step { to, .. } | CStmt::Leap { to, .. } | CStmt::Slide { to, .. } => to,
        _ => unreachable!("a rule that reaches_as_set"),
    }
}

/// The rays of `dirs` (a bit each, all going one way: up with `UP`) up to and including
/// their first of `stops`, joined.
#[inline(always)]
fn joined<const UP: bool, const W: usize>(
    rays: &[Bits<W>; MAX_DIRS],
    mut dirs: u8,
    stops: Bits<W>,
) -> Bits<W> {
    let mut reached = Bits::EMPTY;
    while dirs != 0 {
        reached = reached.or(rays[dirs.trailing_zeros() as usize].to_first::<UP>(stops));
        dirs &= dirs - 1;
    }
    reached
}
