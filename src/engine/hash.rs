//! Repetition: the Zobrist hash of what makes two positions "the same" (pieces, flags,
//! hands, the player to move), and the history of hashes a game has been through.
//!
//! The history is a stack of hashes, one per position, so that its memory grows by eight
//! bytes a move and undoing a move is a pop. Counting the occurrences of a position scans
//! the stack back only to the last irreversible move: a move that changed something the
//! rules can never change back (the number of pieces in a game that never adds any, the
//! pieces in hand, a flag that is only ever cleared or only ever set), since no position
//! before it can recur. Long histories also keep a small counting filter that answers
//! "seen once" without a scan.

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

/// Histories longer than this keep a counting filter beside the stack.
const FILTER_FROM: usize = 1024;
const FILTER_BITS: u32 = 21;

/// The hashes of the positions a game has been through, for `repetitions`.
#[derive(Clone, Debug, Default)]
pub struct History {
    hashes: Vec<u64>,
    /// Indices of `hashes` where a segment starts: the position after an irreversible move.
    segments: Vec<u32>,
    /// Per bucket of hash values, how many positions of the stack fall in it (saturating):
    /// a bucket holding 1 means the position on top was seen once.
    filter: Vec<u8>,
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
        if self.hashes.len() == FILTER_FROM {
            self.filter = vec![0; 1 << FILTER_BITS];
            for &h in &self.hashes {
                Self::bump(&mut self.filter, h, true);
            }
        } else if !self.filter.is_empty() {
            Self::bump(&mut self.filter, hash, true);
        }
    }

    /// Forgets the last position recorded.
    #[inline]
    pub fn pop(&mut self) {
        let Some(h) = self.hashes.pop() else { return };
        if self.segments.last() == Some(&(self.hashes.len() as u32)) {
            self.segments.pop();
        }
        if self.hashes.len() < FILTER_FROM {
            self.filter = Vec::new();
        } else {
            Self::bump(&mut self.filter, h, false);
        }
    }

    fn bump(filter: &mut [u8], h: u64, up: bool) {
        let b = &mut filter[(h >> (64 - FILTER_BITS)) as usize];
        // A saturated bucket stays so: it then always sends counting to the scan.
        if *b != u8::MAX {
            *b = if up { *b + 1 } else { b.saturating_sub(1) };
        }
    }

    /// How many times the last position recorded has occurred (1 when it is new).
    pub fn repetitions(&self) -> u32 {
        let Some(&h) = self.hashes.last() else {
            return 1;
        };
        if !self.filter.is_empty() && self.filter[(h >> (64 - FILTER_BITS)) as usize] <= 1 {
            return 1;
        }
        let start = self.segments.last().copied().unwrap_or(0) as usize;
        self.hashes[start..].iter().filter(|&&x| x == h).count() as u32
    }

    /// Bytes held, for memory checks.
    pub fn bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.segments.capacity() * 4 + self.filter.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_are_counted_back_to_the_last_irreversible_move() {
        let mut h = History::default();
        for (x, irr) in [(1, false), (2, false), (1, false), (2, false), (1, false)] {
            h.push(x, irr);
        }
        assert_eq!(h.repetitions(), 3);
        h.pop();
        assert_eq!(h.repetitions(), 2);
        h.push(1, true);
        assert_eq!(
            h.repetitions(),
            1,
            "nothing before an irreversible move counts"
        );
        h.pop();
        assert_eq!(h.repetitions(), 2);
    }

    #[test]
    fn long_histories_use_the_filter_and_stay_exact() {
        let mut h = History::default();
        let mut seed = 5;
        for i in 0..5000u64 {
            let x = if i % 7 == 0 { 42 } else { splitmix(&mut seed) };
            h.push(x, false);
        }
        h.push(42, false);
        assert_eq!(h.repetitions(), 5000 / 7 + 2);
        h.push(splitmix(&mut seed), false);
        assert_eq!(h.repetitions(), 1);
        for _ in 0..4500 {
            h.pop();
        }
        assert!(h.bytes() < 1 << 22);
    }
}
