//! Random playouts of placement games: every move places a piece from a hand on a cell of
//! a set, or is an action (`Core::only_placed`), and no rule reads repetitions. A draw
//! counts the placeable types' sets and picks a slot among them and the actions; most
//! placements carry no effect, and are written in place with nothing kept to undo them.
//! The games are the very ones the general loop (`Core::playout_listed`) plays, seed for
//! seed: the draws are the same, only the bookkeeping around them is left out.

use super::bits::Bits;
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

/// Whether a guard of placements is known to hold, in one draw.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Unknown,
    Yes,
    No,
}

impl<const W: usize> Core<W> {
    /// Whether playouts take the placement loop (`playout_placed`).
    pub fn plays_placed(&self) -> bool {
        self.only_placed && self.keys.is_none()
    }

    /// A draw where every move is a placement given as a set or an action
    /// (`Core::only_placed`): the placeable types' sets and the actions are the slots, an
    /// action whose condition fails is set aside and another slot drawn.
    #[inline]
    pub fn random_placed(&self, st: &State<W>, rng: &mut Rng) -> Drawn {
        let me = st.s.to_move;
        if self.moves.len() == 1 {
            return self.random_placed_one(st, rng);
        }
        let mut cx = Ctx::new(me);
        // Each set built, with its count, for the types placed alike (`built`, a bit
        // each).
        let (mut sets, mut built) = ([(Bits::<W>::EMPTY, 0u32); MOST], 0u8);
        let mut open = [Open::Unknown; MOST];
        // The types with cells to be placed on: type, set, effect block, count.
        let mut types = [(0u8, 0u8, NONE, 0u32); MOST];
        let (mut n, mut total) = (0, 0);
        for p in 0..self.moves.len() {
            if st.hand[me as usize][p] == 0 {
                continue;
            }
            if !self.counted_placed[p] || p >= MOST {
                return Drawn::Undecided;
            }
            let Some((at, then)) =
                self.placeable_set(st, &mut cx, p, &mut sets, &mut built, &mut open)
            else {
                continue;
            };
            let count = sets[at].1;
            if count > 0 {
                types[n] = (p as u8, at as u8, then, count);
                n += 1;
                total += count;
            }
        }
        self.slot_or_action(st, rng, total, |mut k| {
            for &(piece, at, then, count) in &types[..n] {
                if k < count {
                    return Drawn::Place(piece, sets[at as usize].0.nth_within(k), then);
                }
                k -= count;
            }
            unreachable!("the slot is below the placements' total");
        })
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
            let cells = within.minus(st.occupied);
            // The context only for a condition: built before the test of whether there
            // is one, its stores cost a game with none 2% of its instructions.
            let cells = match cond_set {
                Some(_) => self.only_where(st, &mut Ctx::new(me), cells, cond_set),
                None => cells,
            };
            (cells, *then)
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

    /// Where in `sets` the cells type `p` in hand (`counted_placed`, `p < MOST`) may be
    /// placed on are, built there if need be, and its placement's effect block; `None`
    /// when its guard fails. A guard is asked once for the types with the same rules
    /// (`Core::placed_like`: `moves Rook, Bishop, Knight { if … }`), and a placement's
    /// set built once for the types placed alike under other guards
    /// (`Core::placed_set_like`).
    #[inline(always)]
    fn placeable_set(
        &self,
        st: &State<W>,
        cx: &mut Ctx,
        p: usize,
        sets: &mut [(Bits<W>, u32); MOST],
        built: &mut u8,
        open: &mut [Open; MOST],
    ) -> Option<(usize, u16)> {
        let like = self.placed_like[p] as usize;
        let place = Self::past_guard(&self.moves[p], |cond| {
            if open[like] == Open::Unknown {
                open[like] = if cond(self, st, cx) {
                    Open::Yes
                } else {
                    Open::No
                };
            }
            open[like] == Open::Yes
        })?;
        let at = self.placed_set_like[p] as usize;
        let [CStmt::Place { then, .. }] = place else {
            // No lone statement: built each time, for its effect block (the types placed
            // alike have the same cells, so that the set may stand for them all).
            let (cells, then) = self.placements(st, cx, place);
            sets[at] = (cells, cells.count());
            return Some((at, then));
        };
        if *built & 1 << at == 0 {
            *built |= 1 << at;
            let cells = self.placements(st, cx, place).0;
            sets[at] = (cells, cells.count());
        }
        Some((at, *then))
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
            let start = core.start_pos();
            let mut sc = Scratch::default();
            for i in 0..300 {
                let (mut a, mut b) = (start.clone(), start.clone());
                // Some playouts cut short, at any ply.
                let most = if i % 3 == 0 { i % 11 } else { 400 };
                let ra = core.playout_placed(&mut a, &mut Rng::for_playout(7, i), most, &mut sc);
                let rb = core.playout_listed(&mut b, &mut Rng::for_playout(7, i), most, &mut sc);
                assert_eq!(ra, rb, "{name}, playout {i}");
                assert!(
                    a.st == b.st,
                    "{name}, playout {i}: the final positions differ"
                );
            }
        }
        assert!(tried >= 3, "only {tried} games play placements");
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
        let start = core.start_pos();
        let mut sc = Scratch::default();
        for i in 0..200 {
            let (mut a, mut b) = (start.clone(), start.clone());
            let ra = core.playout_placed(&mut a, &mut Rng::for_playout(3, i), 400, &mut sc);
            let rb = core.playout_listed(&mut b, &mut Rng::for_playout(3, i), 400, &mut sc);
            assert_eq!(ra, rb, "playout {i}");
            assert!(a.st == b.st, "playout {i}: the final positions differ");
        }
    }
}
