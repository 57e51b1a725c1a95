//! Repetition: the Zobrist hash of what makes two positions "the same" (pieces, flags,
//! hands, the player to move), and the history of hashes a game has been through.
//!
//! The history is a stack of hashes, one per position, so that undoing a move is a pop,
//! with a count per hash. A game that plays on (rather than searches) drops everything
//! before its last irreversible move: a move that changed something the rules can never
//! change back (the number of pieces in a game that never adds any, the pieces in hand, a
//! flag that is only ever cleared or only ever set), since no position before it can
//! recur. Memory is then proportional to the positions since that move, not to the
//! length of the game.

use super::state::{Cell, Code, MAX_PLAYERS};
use crate::ir::{MAX_FLAGS, MAX_PIECES};

/// Hand counts are hashed modulo this: two positions that differ only by this many pieces
/// in one hand (with the same board) would look alike, which placement games never reach.
const HAND_KEYS: usize = 256;

/// splitmix64: a fixed sequence, so that hashes are the same on every run.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The random keys of the hash: per cell and content code, per flag and cell, per player,
/// piece and hand count, and per player to move.
#[derive(Debug)]
pub struct Keys {
    cells: Vec<u64>,
    flags: Vec<u64>,
    hands: Vec<u64>,
    side: [u64; MAX_PLAYERS],
    n: usize,
}

impl Keys {
    pub fn new(cells: usize) -> Keys {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut take = |n: usize| (0..n).map(|_| splitmix(&mut seed)).collect::<Vec<u64>>();
        let cell_keys = take(cells * 256);
        let flags = take(MAX_FLAGS * cells);
        let hands = take(MAX_PLAYERS * MAX_PIECES * HAND_KEYS);
        let side: Vec<u64> = take(MAX_PLAYERS);
        Keys {
            cells: cell_keys,
            flags,
            hands,
            // The first player to move adds nothing, as before any move.
            side: std::array::from_fn(|i| if i == 0 { 0 } else { side[i] }),
            n: cells,
        }
    }

    #[inline(always)]
    pub fn cell(&self, c: Cell, code: Code) -> u64 {
        if code == 0 {
            0
        } else {
            self.cells[c as usize * 256 + code as usize]
        }
    }

    #[inline(always)]
    pub fn flag(&self, f: u8, c: Cell) -> u64 {
        self.flags[f as usize * self.n + c as usize]
    }

    #[inline(always)]
    pub fn hand(&self, p: u8, piece: u8, count: u16) -> u64 {
        self.hands
            [(p as usize * MAX_PIECES + piece as usize) * HAND_KEYS + count as usize % HAND_KEYS]
    }

    #[inline(always)]
    pub fn side(&self, p: u8) -> u64 {
        self.side[p as usize]
    }
}

/// Position hashes are already uniformly random: a hash map can use them as they are.
#[derive(Clone, Debug, Default)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
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

/// The hashes of the positions a game has been through since its last irreversible move,
/// with how often each occurred, for `repetitions`.
#[derive(Debug, Default)]
pub struct History {
    /// In order; the stack that undoing a move pops.
    hashes: Vec<u64>,
    /// Indices of `hashes` where a segment starts: the position after an irreversible
    /// move (or the first one).
    segments: Vec<u32>,
    counts: std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<IdHasher>>,
}

impl Clone for History {
    fn clone(&self) -> Self {
        History {
            hashes: self.hashes.clone(),
            segments: self.segments.clone(),
            counts: self.counts.clone(),
        }
    }

    /// Keeps the allocations, as `State::clone_from` does.
    fn clone_from(&mut self, o: &Self) {
        self.hashes.clone_from(&o.hashes);
        self.segments.clone_from(&o.segments);
        self.counts.clone_from(&o.counts);
    }
}

impl History {
    /// Records a position; `irreversible` when the move that led to it can never be
    /// undone by the rules.
    #[inline]
    pub fn push(&mut self, hash: u64, irreversible: bool) {
        if irreversible || self.hashes.is_empty() {
            self.segments.push(self.hashes.len() as u32);
        }
        self.hashes.push(hash);
        *self.counts.entry(hash).or_insert(0) += 1;
    }

    /// Forgets the last position recorded.
    #[inline]
    pub fn pop(&mut self) {
        let Some(h) = self.hashes.pop() else { return };
        if self.segments.last() == Some(&(self.hashes.len() as u32)) {
            self.segments.pop();
        }
        if let Some(n) = self.counts.get_mut(&h) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&h);
            }
        }
    }

    /// Drops the positions before the last irreversible move, for a game whose moves so
    /// far will never be undone: none of them can occur again, so memory stays
    /// proportional to the positions since.
    pub fn commit(&mut self) {
        let Some(&start) = self.segments.last() else {
            return;
        };
        if start == 0 {
            return;
        }
        for h in self.hashes.drain(..start as usize) {
            if let Some(n) = self.counts.get_mut(&h) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&h);
                }
            }
        }
        self.segments.clear();
        self.segments.push(0);
        if self.hashes.capacity() > 4 * self.hashes.len() + 64 {
            self.hashes.shrink_to(2 * self.hashes.len());
            self.counts.shrink_to(2 * self.counts.len());
        }
    }

    /// How many times the last position recorded has occurred (1 when it is new).
    #[inline]
    pub fn repetitions(&self) -> u32 {
        match self.hashes.last() {
            Some(h) => self.counts.get(h).copied().unwrap_or(1),
            None => 1,
        }
    }

    /// Bytes held, for memory checks.
    pub fn bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.segments.capacity() * 4 + self.counts.capacity() * 13
    }
}

impl History {
    /// The hashes recorded, oldest first (the last one is the current position's): what
    /// the position notation writes down for repetition.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_are_counted_and_undone() {
        let mut h = History::default();
        for (x, irr) in [(1, false), (2, false), (1, false), (2, false), (1, false)] {
            h.push(x, irr);
        }
        assert_eq!(h.repetitions(), 3);
        h.pop();
        assert_eq!(h.repetitions(), 2);
        h.push(7, true);
        assert_eq!(h.repetitions(), 1);
        h.pop();
        assert_eq!(h.repetitions(), 2);
    }

    #[test]
    fn committing_drops_what_came_before_the_last_irreversible_move() {
        let mut h = History::default();
        for i in 0..10_000u64 {
            h.push(i % 3, false);
        }
        h.push(99, true);
        h.push(1, false);
        h.commit();
        assert_eq!(
            h.repetitions(),
            1,
            "the 1s before the irreversible move are gone"
        );
        h.push(99, false);
        assert_eq!(h.repetitions(), 2);
        assert!(h.bytes() < 4096, "{} bytes", h.bytes());
    }
}
