//! Random playouts of placement games: every move places a piece from a hand on a cell of
//! a set, or is an action (`Core::only_placed`), and no rule reads repetitions. A draw
//! counts the placeable types' sets and picks a slot among them and the actions; most
//! placements carry no effect, and are written in place with nothing kept to undo them.
//! The games are the very ones the general loop (`Core::playout_listed`) plays, seed for
//! seed: the draws are the same, only the bookkeeping around them is left out.

use super::bits::{Bits, Ranked, select_in_byte};
use super::compile::sets::SetFn;
use super::compile::test::CTest;
use super::core::Core;
use super::evaluate::Ctx;
use super::generate::CStmt;
use super::movegen::Scratch;
use super::position::Pos;
use super::search::{Ending, Rng};
use super::state::{Cell, Move, MoveKind, NONE, State};

/// A move drawn by `Core::random_placed`, in a few bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// A piece of this type from the mover's hand onto this cell, with the effect block of
    /// its placement (or `NONE`).
    Place(u8, Cell, u16),
    /// The action of this index.
    Action(u8),
    /// The player to move has no legal move.
    Nothing,
    /// Not drawn here: a type in hand is placed in another way, or too many types are in
    /// hand; the general draw decides.
    Undecided,
}

/// The most piece types one draw takes from their sets.
const MOST: usize = 8;

/// How `Core::random_placed` draws the piece types in hand, as masks of types (a bit
/// each, for the first `MOST`).
#[derive(Clone, Debug, Default)]
pub struct Placing<const W: usize> {
    /// The types whose cells are counted as sets (`Core::counted_placed`); while another
    /// is in hand, the general draw decides.
    pub drawn: u32,
    /// The drawn types whose rules are not a lone `if` with no `else`.
    pub unguarded: u32,
    /// Per guard: the first type with those rules (`Core::placed_like`), whose `if` is
    /// asked for them all, and the types it guards.
    pub guards: Vec<(u8, u32)>,
    /// Per set: the first type with that placement past its guard
    /// (`Core::placed_set_like`), whose cells and effect block stand for them all, and
    /// the types placed on it.
    pub sets: Vec<(u8, u32)>,
    /// Per type: its set's index in `sets`.
    pub set_of: [u8; MOST],
    /// Per set: when its placement is a lone `place on empty` (within some cells, under
    /// a condition or not), per player, those cells, so that the set is read with no
    /// branch on the test's form; else empty.
    pub on_empty: Vec<Vec<Bits<W>>>,
}

/// A bit per count of `row` that is not zero, the first count's lowest: four counts to a
/// word, each told by whether its bits, or its top bit once the others carried into it,
/// are set, then the four top bits gathered by one multiply (no test per count: the
/// compare-and-set per count was a twentieth of Shaversi's ply).
#[inline(always)]
fn nonzero_lanes(row: &[u16; MOST]) -> u32 {
    const LOW: u64 = 0x7fff_7fff_7fff_7fff;
    // Moves lane i's top bit (at 16 i + 15, shifted down to 16 i) to bit 45 + i: the
    // products' other bits land elsewhere, with no carry between them.
    const GATHER: u64 = 1 | 1 << 15 | 1 << 30 | 1 << 45;
    let four = |w: &[u16]| -> u32 {
        let x = w.iter().rev().fold(0u64, |a, &n| a << 16 | n as u64);
        let top = (x | ((x & LOW) + LOW)) & !LOW;
        ((top >> 15).wrapping_mul(GATHER) >> 45) as u32 & 0xf
    };
    four(&row[..4]) | four(&row[4..]) << 4
}

impl<const W: usize> Core<W> {
    /// Whether playouts take the placement loop (`playout_placed`).
    pub fn plays_placed(&self) -> bool {
        self.only_placed && self.keys.is_none()
    }

    /// A draw where every move is a placement given as a set or an action
    /// (`Core::only_placed`): the placeable types' sets and the actions are the slots, an
    /// action whose condition fails is set aside and another slot drawn. The types are
    /// taken as masks (`Placing`): each guard is asked and each set built once a draw,
    /// for the types in hand that need them.
    #[inline]
    pub fn random_placed(&self, st: &State<W>, rng: &mut Rng) -> Drawn {
        let me = st.s.to_move;
        if self.moves.len() == 1 {
            return self.random_placed_one(st, rng);
        }
        let (plan, hand) = (&self.placing, &st.hand[me as usize]);
        // The types past the game's are never in hand: up to `MOST` types, one row of
        // counts read at once.
        let in_hand = if self.moves.len() <= MOST {
            nonzero_lanes(hand[..MOST].try_into().expect("a row of counts"))
        } else {
            (hand[..self.moves.len()].iter().enumerate())
                .fold(0u32, |a, (p, &n)| a | ((n != 0) as u32) << p)
        };
        if in_hand & !plan.drawn != 0 {
            return Drawn::Undecided;
        }
        let mut cx = Ctx::new(me);
        let mut open = plan.unguarded;
        for &(t, users) in &plan.guards {
            if in_hand & users != 0 && self.guard_holds(st, &mut cx, t as usize) {
                open |= users;
            }
        }
        let live = in_hand & open;
        if plan.sets.len() == 1 {
            // Every type placed alike (Shaversi's): one set, the slot's type found by
            // whole counts of it, with no table of sets.
            if live == 0 {
                return self.slot_or_action(st, rng, 0, |_| unreachable!("no slot"));
            }
            let (cells, then) = self.placed_set(st, &mut cx, 0);
            let count = cells.count();
            return self.slot_or_action(st, rng, count * live.count_ones(), |k| {
                // Which whole count the slot falls in, by compares made side by side:
                // the cell waits on them, and a loop's exit at a random type was
                // mispredicted at most draws.
                let (mut j, mut bound) = (0, count);
                for _ in 1..MOST {
                    j += (k >= bound) as u32;
                    bound += count;
                }
                let p = select_in_byte(live as u8, j);
                Drawn::Place(p, cells.nth_within(k - j * count), then)
            });
        }
        let mut sets = [Ranked::<W>::EMPTY; MOST];
        let mut counts = [0u32; MOST];
        let mut thens = [NONE; MOST];
        let mut total = 0;
        for (i, &(_, users)) in plan.sets.iter().enumerate() {
            let users = live & users;
            if users == 0 {
                continue;
            }
            let (cells, then) = self.placed_set(st, &mut cx, i);
            let count = cells.count();
            (sets[i], counts[i], thens[i]) = (cells, count, then);
            total += count * users.count_ones();
        }
        self.slot_or_action(st, rng, total, |mut k| {
            let mut left = live;
            while left != 0 {
                let p = left.trailing_zeros() as usize;
                left &= left - 1;
                let i = plan.set_of[p] as usize;
                if k < counts[i] {
                    return Drawn::Place(p as u8, sets[i].nth_within(k), thens[i]);
                }
                k -= counts[i];
            }
            unreachable!("the slot is below the placements' total");
        })
    }

    /// The cells of the plan's set `i` (placed as its first type is, past its guard) and
    /// its placement's effect block, ranked when built: the running counts that give the
    /// set's count also decode the drawn slot, with no second pass after the draw.
    #[inline(always)]
    fn placed_set(&self, st: &State<W>, cx: &mut Ctx, i: usize) -> (Ranked<W>, u16) {
        let place = self.past_its_guard(self.placing.sets[i].0 as usize);
        let (cells, then) = match (self.placing.on_empty[i].get(st.s.to_move as usize), place) {
            (Some(within), [CStmt::Place { cond_set, then, .. }]) => {
                (self.empty_within(st, *within, cond_set), *then)
            }
            _ => self.placements(st, cx, place),
        };
        (cells.ranked(), then)
    }

    /// Whether the guard of type `t`'s placement (its rules' lone `if`) holds.
    #[inline(always)]
    fn guard_holds(&self, st: &State<W>, cx: &mut Ctx, t: usize) -> bool {
        let (cond, _) = Self::guard_of(&self.moves[t]).expect("a guarded placement");
        cond(self, st, cx)
    }

    /// Type `t`'s placement, past its guard if it has one.
    #[inline(always)]
    fn past_its_guard(&self, t: usize) -> &[CStmt<W>] {
        Self::guard_of(&self.moves[t]).map_or(&self.moves[t], |(_, then)| then)
    }

    /// The empty cells of `within`, where a lone `place on empty`'s condition holds.
    #[inline(always)]
    fn empty_within(&self, st: &State<W>, within: Bits<W>, cond_set: &Option<SetFn<W>>) -> Bits<W> {
        let cells = within.minus(st.occupied);
        // The context only for a condition: built before the test of whether there is
        // one, its stores cost a game with none 2% of its instructions.
        match cond_set {
            Some(_) => self.only_where(st, &mut Ctx::new(st.s.to_move), cells, cond_set),
            None => cells,
        }
    }

    /// How `random_placed` draws the piece types, from `counted_placed`, `placed_like`
    /// and `placed_set_like`.
    pub fn placing_plan(&self) -> Placing<W> {
        let mut plan = Placing::default();
        for p in 0..self.moves.len().min(MOST) {
            if !self.counted_placed[p] {
                continue;
            }
            plan.drawn |= 1 << p;
            if Self::guard_of(&self.moves[p]).is_none() {
                plan.unguarded |= 1 << p;
            } else {
                let like = self.placed_like[p];
                match plan.guards.iter_mut().find(|(t, _)| *t == like) {
                    Some((_, users)) => *users |= 1 << p,
                    None => plan.guards.push((like, 1 << p)),
                }
            }
            let like = self.placed_set_like[p];
            let i = match plan.sets.iter().position(|&(t, _)| t == like) {
                Some(i) => i,
                None => {
                    plan.sets.push((like, 0));
                    plan.sets.len() - 1
                }
            };
            plan.sets[i].1 |= 1 << p;
            plan.set_of[p] = i as u8;
        }
        plan.on_empty = (plan.sets.iter())
            .map(|&(t, _)| match self.past_its_guard(t as usize) {
                [
                    CStmt::Place {
                        on: CTest::Table(table),
                        ..
                    },
                ] => (0..self.players)
                    .map(|p| table.empty_within(p).map(|w| w.and(self.geo.all)))
                    .collect::<Option<Vec<_>>>()
                    .unwrap_or_default(),
                _ => Vec::new(),
            })
            .collect();
        plan
    }

    /// `random_placed` when the game has one piece type (tic-tac-toe, Connect Four,
    /// Hex): its cells are the slots, with no table of types to fill.
    #[inline(always)]
    fn random_placed_one(&self, st: &State<W>, rng: &mut Rng) -> Drawn {
        let me = st.s.to_move;
        let (cells, then) = if st.hand[me as usize][0] == 0 {
            (Bits::EMPTY, NONE)
        } else if let Some(within) = self.placed_on_empty.get(me as usize) {
            let [CStmt::Place { cond_set, then, .. }] = &self.moves[0][..] else {
                unreachable!("a lone placement")
            };
            (self.empty_within(st, *within, cond_set), *then)
        } else if !self.counted_placed[0] {
            return Drawn::Undecided;
        } else {
            self.placements(st, &mut Ctx::new(me), &self.moves[0])
        };
        let cells = cells.ranked();
        self.slot_or_action(st, rng, cells.count(), |k| {
            Drawn::Place(0, cells.nth_within(k), then)
        })
    }

    /// Draws among `total` placement slots (decoded by `slot`) and the actions.
    #[inline(always)]
    fn slot_or_action(
        &self,
        st: &State<W>,
        rng: &mut Rng,
        total: u32,
        slot: impl Fn(u32) -> Drawn,
    ) -> Drawn {
        if self.actions.is_empty() {
            if total == 0 {
                return Drawn::Nothing;
            }
            return slot(rng.below(total as usize) as u32);
        }
        // Actions not yet set aside, one bit each (`only_placed` holds under 64).
        let mut live: u64 = (1u64 << self.actions.len()) - 1;
        let mut live_count = self.actions.len() as u32;
        loop {
            let slots = total + live_count;
            if slots == 0 {
                return Drawn::Nothing;
            }
            let k = rng.below(slots as usize) as u32;
            if k < total {
                return slot(k);
            }
            let i = Bits::<1>([live]).nth_within(k - total);
            if (self.actions[i as usize].0)(self, st, &mut Ctx::new(st.s.to_move)) {
                return Drawn::Action(i as u8);
            }
            live &= !(1 << i);
            live_count -= 1;
        }
    }

    /// The move a draw stands for (`None`: no legal move); not for `Undecided`.
    #[inline(always)]
    pub fn drawn_move(&self, drawn: Drawn) -> Option<Move> {
        match drawn {
            Drawn::Place(piece, to, effect) => Some(Move {
                kind: MoveKind::Place,
                piece,
                to,
                effect,
                ..Move::PASS
            }),
            Drawn::Action(i) => Some(self.action(i as usize)),
            Drawn::Nothing => None,
            Drawn::Undecided => unreachable!("an undecided draw stands for no move"),
        }
    }

    /// A random playout of a game that `plays_placed`: as `playout_listed`, but a
    /// placement with no effect is written in place, with no undo data or history.
    pub fn playout_placed(
        &self,
        pos: &mut Pos<W>,
        rng: &mut Rng,
        max_plies: u64,
        sc: &mut Scratch,
    ) -> (Ending, u64) {
        // Apart for one piece type, whose loop holds its draw (inline, with no table of
        // types in the frame: a call and that frame were a tenth of a small game's ply).
        if self.moves.len() == 1 {
            return self.playout_placed_in::<true>(pos, rng, max_plies, sc);
        }
        self.playout_placed_in::<false>(pos, rng, max_plies, sc)
    }

    #[inline(always)]
    fn playout_placed_in<const ONE: bool>(
        &self,
        pos: &mut Pos<W>,
        rng: &mut Rng,
        max_plies: u64,
        sc: &mut Scratch,
    ) -> (Ending, u64) {
        let mut plies = 0;
        loop {
            let drawn = if ONE {
                self.random_placed_one(&pos.st, rng)
            } else {
                self.random_placed(&pos.st, rng)
            };
            let m = match drawn {
                Drawn::Place(piece, to, NONE) if self.after_pieces >> piece & 1 == 0 => {
                    // No history is kept (no rule reads repetitions): the position has
                    // occurred once, as `pos.repetitions()` says.
                    if let Some(e) = self.stops::<true>(pos, false, plies, max_plies) {
                        return (e, plies);
                    }
                    self.move_bare(&mut pos.st, piece, NONE, to);
                    plies += 1;
                    continue;
                }
                Drawn::Undecided => self.random_legal(&mut pos.st, rng, sc),
                drawn => self.drawn_move(drawn),
            };
            if let Some(e) = self.stops::<true>(pos, m.is_none(), plies, max_plies) {
                return (e, plies);
            }
            self.play_forward(pos, m.as_ref().unwrap_or(&Move::PASS));
            pos.commit();
            plies += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every count's bit, for counts of every size, zero and not, in every lane.
    #[test]
    fn nonzero_lanes_tells_each_count_apart() {
        let values = [0u16, 1, 2, 0x7fff, 0x8000, 0x8001, 0xffff, 300];
        let mut rng = Rng::new(5);
        for _ in 0..20000 {
            let row: [u16; MOST] = std::array::from_fn(|_| values[rng.below(values.len())]);
            let want = (row.iter().enumerate()).fold(0, |a, (i, &n)| a | ((n != 0) as u32) << i);
            assert_eq!(nonzero_lanes(&row), want, "{row:?}");
        }
    }

    /// `count` playouts of `core`, seeded from `seed`, through the placement loop and the
    /// general one: the same endings, lengths and final positions, each cut at
    /// `most(i)` plies.
    fn both_loops_agree<const W: usize>(
        core: &Core<W>,
        seed: u64,
        count: u64,
        most: impl Fn(u64) -> u64,
        name: &str,
    ) {
        let start = core.start_pos();
        let mut sc = Scratch::default();
        for i in 0..count {
            let (mut a, mut b) = (start.clone(), start.clone());
            let ra = core.playout_placed(&mut a, &mut Rng::for_playout(seed, i), most(i), &mut sc);
            let rb = core.playout_listed(&mut b, &mut Rng::for_playout(seed, i), most(i), &mut sc);
            assert_eq!(ra, rb, "{name}, playout {i}");
            assert!(
                a.st == b.st,
                "{name}, playout {i}: the final positions differ"
            );
        }
    }

    /// Each game's playouts, through the placement loop and the general one: the same
    /// endings, lengths and final positions, seed for seed.
    #[test]
    fn the_placement_loop_plays_the_general_loops_games() {
        let mut tried = 0;
        for name in ["tictactoe", "connect4", "hex", "three-in-a-row", "ataxx"] {
            let core = Core::<2>::example(name);
            if !core.plays_placed() {
                continue;
            }
            tried += 1;
            // Some playouts cut short, at any ply.
            let most = |i| if i % 3 == 0 { i % 11 } else { 400 };
            both_loops_agree(&core, 7, 300, most, name);
        }
        assert!(tried >= 3, "only {tried} games play placements");
    }

    /// Several types in hand, under guards asked once for the types with the same rules,
    /// on sets shared by the types placed alike (Shaversi's shape, with a second set and
    /// an unguarded type): the mask draw and the general loop play the same games.
    #[test]
    fn guarded_types_on_shared_sets_play_the_general_loops_games() {
        let source = "game \"T\" { }\nplayers { white black }\nboard 4 x 4\nregion low = rank 1\n\
            piece King letter K\npiece Queen letter Q\npiece Rook letter R\n\
            piece Bishop letter B\npiece Pawn letter P\n\
            hand { white King 1 Queen 1 Rook 2 Bishop 2 Pawn 3  black King 1 Queen 1 Rook 2 Bishop 2 Pawn 3 }\n\
            moves King { if mover == white or moves-made > 0 { place on empty } }\n\
            moves Queen { if mover == black or moves-made > 0 { place on empty } }\n\
            moves Rook, Bishop { if moves-made > 1 { place on empty } }\n\
            moves Pawn { place on empty and not in low }\n\
            end { when in-hand(white) + in-hand(black) == 0: draw\n when no moves: draw }\n";
        let core = Core::<1>::of_text(source);
        assert!(core.plays_placed());
        // Three guards (King's, Queen's, the Rook's and Bishop's one), two sets.
        assert_eq!(core.placing.guards.len(), 3);
        assert_eq!(core.placing.sets.len(), 2);
        both_loops_agree(&core, 9, 300, |_| 400, "guarded types");
    }

    /// More types than one draw takes as masks (the ninth leaves the draw to the general
    /// one while it is in hand), all placed alike, and an action beside the placements:
    /// both loops still play the same games.
    #[test]
    fn more_types_than_the_masks_and_an_action_play_the_general_loops_games() {
        let names = ["Pa", "Pb", "Pc", "Pd", "Pe", "Pf", "Pg", "Ph", "Pi"];
        let pieces: String = (names.iter().zip("ABCDEFGHI".chars()))
            .map(|(n, l)| format!("piece {n} letter {l}\n"))
            .collect();
        let hand: String = names.iter().map(|n| format!("{n} 1 ")).collect();
        let source = format!(
            "game \"T\" {{ }}\nplayers {{ white black }}\nboard 4 x 4\n{pieces}\
             hand {{ white {hand} black {hand} }}\ncounter skips = 0\n\
             moves Pa, Pb, Pc {{ if moves-made > 0 {{ place on empty }} }}\n\
             moves Pd, Pe, Pf, Pg, Ph, Pi {{ place on empty }}\n\
             action skip when skips < 2 {{ skips += 1 }}\n\
             end {{ when no moves: draw }}\n"
        );
        let core = Core::<1>::of_text(&source);
        assert!(core.plays_placed());
        // The ninth type is past the masks: not drawn by them. Every type is placed on
        // empty cells: one set, whose draw finds the slot's type by whole counts.
        assert_eq!(core.placing.drawn, 0xff);
        assert_eq!(core.placing.sets.len(), 1);
        both_loops_agree(
            &core,
            11,
            300,
            |i| if i % 4 == 0 { i % 13 } else { 400 },
            "nine types",
        );
    }

    #[test]
    fn a_position_reset_after_a_playout_is_the_start_again() {
        let core = Core::<1>::example("connect4");
        let start = core.start_pos();
        let mut pos = start.clone();
        let mut sc = Scratch::default();
        let dims = (
            core.geo.cells as usize,
            core.moves.len(),
            core.players as usize,
        );
        for i in 0..20 {
            let (_, plies) = core.playout(&mut pos, &mut Rng::for_playout(5, i), 400, &mut sc);
            assert!(plies > 0 && pos.st != start.st);
            pos.reset_from(&start, dims.0, dims.1, dims.2);
            assert!(
                pos.st == start.st,
                "playout {i}: the position is not the start's"
            );
            assert_eq!(pos.st.by_owner, start.st.by_owner);
            assert_eq!(pos.st.by_type, start.st.by_type);
            assert_eq!(pos.st.occupied, start.st.occupied);
        }
    }

    #[test]
    fn a_placement_with_an_effect_or_after_block_is_made_in_full() {
        // Flipping neighbours (an effect) and counting in an `after move` block: both
        // loops must still agree.
        let source = "game \"T\" { }\nplayers { white black }\nboard 4 x 4\n\
            piece Man letter M\npiece Dot letter D\n\
            hand { white Man 8 Dot 2  black Man 8 Dot 2 }\n\
            counter placed = 0\n\
            moves Man { place on empty then { for d in orthogonal { if to + d is enemy { flip to + d } } } }\n\
            moves Dot { place on empty }\n\
            after move of Dot { placed += 1 }\n\
            end { when no moves: draw }\n";
        let core = Core::<1>::of_text(source);
        assert!(core.plays_placed());
        both_loops_agree(&core, 3, 200, |_| 400, "effects");
    }
}
