//! Positions and their history: the Zobrist hash of what makes two positions "the same"
//! for repetition (pieces, flags, hands, the player to move), kept up to date by every
//! write, and the count of each hash seen so far.

use super::Engine;
use super::search::splitmix;
use super::state::{Bits, NONE, State, code, owner_of};
use crate::ir;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Hand counts are hashed modulo this: two positions that differ only by this many pieces
/// in one hand (with the same board) would look alike, which placement games never reach.
const HAND_KEYS: usize = 256;

/// A state plus the history that repetition rules need.
#[derive(Clone)]
pub struct Position {
    pub state: State,
    seen: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

/// Position hashes are already uniformly random: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Position {
    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> u32 {
        self.seen.get(&self.state.hash).copied().unwrap_or(1)
    }
}

/// The random keys of the hash: per cell and content code, per flag and cell, per player,
/// piece and hand count, and one for the second player to move.
pub(super) struct Keys {
    table: Vec<u64>,
    side: u64,
    cells: usize,
}

impl Keys {
    pub(super) fn new(cells: u16) -> Keys {
        let cells = cells as usize;
        // splitmix64: fixed keys so that hashes are the same on every run.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let n = cells * 64 + ir::MAX_FLAGS * cells + 2 * ir::MAX_PIECES * HAND_KEYS;
        let table = (0..n).map(|_| splitmix(&mut seed)).collect();
        Keys {
            table,
            side: splitmix(&mut 0xD1B5_4A32_D192_ED03u64.clone()),
            cells,
        }
    }

    #[inline]
    fn cell(&self, c: u16, code: u8) -> u64 {
        if code == 0 {
            0
        } else {
            self.table[c as usize * 64 + (code as usize & 63)]
        }
    }

    #[inline]
    fn flag(&self, f: u8, c: u16) -> u64 {
        self.table[self.cells * (64 + f as usize) + c as usize]
    }

    #[inline]
    fn hand(&self, p: u8, piece: u8, count: u16) -> u64 {
        let base = self.cells * (64 + ir::MAX_FLAGS);
        self.table[base
            + (p as usize * ir::MAX_PIECES + piece as usize) * HAND_KEYS
            + (count as usize % HAND_KEYS)]
    }
}

impl Engine {
    /// The position before the first move.
    pub fn start(&self) -> Position {
        let g = self.game();
        let mut st = State {
            board: [0; ir::MAX_CELLS],
            flags: [Bits::default(); ir::MAX_FLAGS],
            hand: [[0; ir::MAX_PIECES]; 2],
            counters: [[0; ir::MAX_COUNTERS]; 2],
            moves_made: [0; 2],
            to_move: 0,
            previous: 1,
            passes: 0,
            turns: 0,
            ply: 0,
            streak: 0,
            last_from: NONE,
            last_to: NONE,
            hash: 0,
            by_owner: [Bits::default(); 2],
        };
        for p in &g.setup {
            st.board[p.cell as usize] = code(p.player, p.piece);
            st.by_owner[p.player as usize].set(p.cell, true);
        }
        for (i, f) in g.flags.iter().enumerate() {
            for &c in &f.initial {
                st.flags[i].set(c, true);
            }
        }
        for &(p, piece, n) in &g.hand {
            st.hand[p as usize][piece as usize] += n;
        }
        for (i, c) in g.counters.iter().enumerate() {
            st.counters[0][i] = c.initial;
            st.counters[1][i] = c.initial;
        }
        if g.tracks_repetition {
            st.hash = self.hash(&st);
        }
        let mut pos = Position {
            state: st,
            seen: HashMap::default(),
        };
        self.record(&mut pos);
        pos
    }

    /// Plays a move (one of those `status` listed).
    pub fn play(&self, pos: &mut Position, m: &super::state::Move) {
        self.apply(&mut pos.state, m);
        self.record(pos);
    }

    fn record(&self, pos: &mut Position) {
        if self.game().tracks_repetition {
            debug_assert_eq!(
                pos.state.hash,
                self.hash(&pos.state),
                "incremental hash drifted"
            );
            *pos.seen.entry(pos.state.hash).or_insert(0) += 1;
        }
    }

    /// Undoes the history bookkeeping of `play` (the caller restores the state).
    pub(super) fn forget(&self, pos: &mut Position) {
        if self.game().tracks_repetition {
            let h = pos.state.hash;
            if let Some(n) = pos.seen.get_mut(&h) {
                *n -= 1;
                if *n == 0 {
                    pos.seen.remove(&h);
                }
            }
        }
    }

    /// The hash of a state, computed in full (`apply` keeps it up to date from then on).
    pub(super) fn hash(&self, st: &State) -> u64 {
        let k = &self.zobrist;
        let mut h = if st.to_move == 1 { k.side } else { 0 };
        for c in 0..self.cells {
            h ^= k.cell(c, st.board[c as usize]);
            for f in 0..self.game().flags.len() {
                if st.flags[f].has(c) {
                    h ^= k.flag(f as u8, c);
                }
            }
        }
        for p in 0..2u8 {
            for piece in 0..self.game().pieces.len() {
                h ^= k.hand(p, piece as u8, st.hand[p as usize][piece]);
            }
        }
        h
    }

    /// Writes a cell, keeping the hash and the occupancy sets current.
    #[inline]
    pub(super) fn put(&self, st: &mut State, c: u16, code: u8) {
        if self.game().tracks_repetition {
            st.hash ^= self.zobrist.cell(c, st.board[c as usize]) ^ self.zobrist.cell(c, code);
        }
        let old = st.board[c as usize];
        if old != 0 {
            st.by_owner[owner_of(old) as usize].set(c, false);
        }
        if code != 0 {
            st.by_owner[owner_of(code) as usize].set(c, true);
        }
        st.board[c as usize] = code;
    }

    /// Changes a count in hand, keeping the hash current.
    #[inline]
    pub(super) fn set_hand(&self, st: &mut State, p: u8, piece: u8, count: u16) {
        let slot = &mut st.hand[p as usize][piece as usize];
        if self.game().tracks_repetition {
            st.hash ^= self.zobrist.hand(p, piece, *slot) ^ self.zobrist.hand(p, piece, count);
        }
        *slot = count;
    }

    /// Sets or clears a flag on a cell, keeping the hash current.
    #[inline]
    pub(super) fn set_flag(&self, st: &mut State, f: u8, c: u16, value: bool) {
        if st.flags[f as usize].has(c) != value {
            st.flags[f as usize].set(c, value);
            if self.game().tracks_repetition {
                st.hash ^= self.zobrist.flag(f, c);
            }
        }
    }

    /// Passes the turn to the other player, keeping the hash current.
    #[inline]
    pub(super) fn pass_turn(&self, st: &mut State) {
        st.to_move = 1 - st.to_move;
        if self.game().tracks_repetition {
            st.hash ^= self.zobrist.side;
        }
    }
}
