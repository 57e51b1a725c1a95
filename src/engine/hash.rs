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

/// The hashes of the positions a game has been through since its last irreversible move,
/// with how often each occurred, for `repetitions`. Positions before that move cannot
/// occur again: a game that commits (`History::commit`) drops them, and memory stays
/// flat however long it runs.
#[derive(Debug, Default)]
pub struct History {
    /// In order; the stack that undoing a move pops.
    hashes: Vec<u64>,
    /// Indices of `hashes` where a segment starts: the position after an irreversible
    /// move (or the first one).
    segments: Vec<u32>,
    /// How often each hash of `hashes` occurs there: an open-addressing table (linear
    /// probing from a hash's low bits, a power of two long, at most half full), which a
    /// playout clears rather than frees, so that recording a position allocates nothing
    /// once the table has grown to the game's runs of reversible moves.
    counts: Counts,
}

#[derive(Debug, Default)]
struct Counts {
    keys: Vec<u64>,
    /// 0: a free slot.
    counts: Vec<u32>,
    /// Slots in use.
    used: usize,
}

impl Counts {
    const MIN: usize = 16;

    #[inline(always)]
    fn mask(&self) -> usize {
        self.keys.len() - 1
    }

    /// The slot holding `hash`, or the free slot where it would go.
    #[inline(always)]
    fn slot(&self, hash: u64) -> usize {
        let mask = self.mask();
        let mut i = hash as usize & mask;
        while self.counts[i] != 0 && self.keys[i] != hash {
            i = (i + 1) & mask;
        }
        i
    }

    #[inline]
    fn add(&mut self, hash: u64, n: u32) {
        if 2 * (self.used + 1) > self.keys.len() {
            self.resize((2 * self.keys.len()).max(Self::MIN));
        }
        let i = self.slot(hash);
        if self.counts[i] == 0 {
            self.keys[i] = hash;
            self.used += 1;
        }
        self.counts[i] += n;
    }

    #[inline]
    fn get(&self, hash: u64) -> u32 {
        if self.keys.is_empty() {
            return 0;
        }
        self.counts[self.slot(hash)]
    }

    /// One occurrence of `hash`, which the table holds, fewer.
    #[inline]
    fn remove_one(&mut self, hash: u64) {
        let mask = self.mask();
        let mut hole = self.slot(hash);
        self.counts[hole] -= 1;
        if self.counts[hole] != 0 {
            return;
        }
        self.used -= 1;
        // Backward-shift deletion: an entry further along the probe run moves into the
        // hole when its home slot does not lie strictly after the hole, so that every
        // probe still finds its key before a free slot.
        let mut j = (hole + 1) & mask;
        while self.counts[j] != 0 {
            let home = self.keys[j] as usize & mask;
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.keys[hole] = self.keys[j];
                self.counts[hole] = self.counts[j];
                self.counts[j] = 0;
                hole = j;
            }
            j = (j + 1) & mask;
        }
    }

    /// The same entries in a table of `len` slots.
    fn resize(&mut self, len: usize) {
        let keys = std::mem::take(&mut self.keys);
        let counts = std::mem::take(&mut self.counts);
        self.keys = vec![0; len];
        self.counts = vec![0; len];
        self.used = 0;
        for (k, n) in keys.into_iter().zip(counts) {
            if n != 0 {
                self.add(k, n);
            }
        }
    }

    fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.counts.capacity() * 4
    }
}

impl Clone for History {
    fn clone(&self) -> Self {
        let mut h = History::default();
        h.clone_from(self);
        h
    }

    /// Keeps the allocations, as `State::clone_from` does: a playout starts from a copy
    /// of the start, whose table is small. A larger one is cleared and refilled.
    fn clone_from(&mut self, o: &Self) {
        self.hashes.clone_from(&o.hashes);
        self.segments.clone_from(&o.segments);
        let (mine, theirs) = (&mut self.counts, &o.counts);
        if mine.keys.len() > theirs.keys.len() {
            mine.counts.fill(0);
            mine.used = 0;
            for (&k, &n) in theirs.keys.iter().zip(&theirs.counts) {
                if n != 0 {
                    mine.add(k, n);
                }
            }
        } else {
            mine.keys.clone_from(&theirs.keys);
            mine.counts.clone_from(&theirs.counts);
            mine.used = theirs.used;
        }
    }
}

impl History {
    /// Whether no position is recorded.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty() && self.counts.used == 0
    }

    /// Records a position; `irreversible` when the move that led to it can never be
    /// undone by the rules.
    #[inline]
    pub fn push(&mut self, hash: u64, irreversible: bool) {
        if irreversible || self.hashes.is_empty() {
            self.segments.push(self.hashes.len() as u32);
        }
        self.hashes.push(hash);
        self.counts.add(hash, 1);
    }

    /// Forgets the last position recorded.
    #[inline]
    pub fn pop(&mut self) {
        let Some(h) = self.hashes.pop() else { return };
        if self.segments.last() == Some(&(self.hashes.len() as u32)) {
            self.segments.pop();
        }
        self.counts.remove_one(h);
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
            self.counts.remove_one(h);
        }
        self.segments.clear();
        self.segments.push(0);
        if self.hashes.capacity() > 4 * self.hashes.len() + 64 {
            self.hashes.shrink_to(2 * self.hashes.len());
        }
        if self.counts.keys.len() > 8 * self.counts.used + 1024 {
            self.counts
                .resize((4 * self.counts.used).next_power_of_two().max(Counts::MIN));
        }
    }

    /// How many times the last position recorded has occurred (1 when it is new).
    #[inline]
    pub fn repetitions(&self) -> u32 {
        match self.hashes.last() {
            Some(&h) => self.counts.get(h).max(1),
            None => 1,
        }
    }

    /// Bytes held, for memory checks.
    pub fn bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.segments.capacity() * 4 + self.counts.bytes()
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

    /// Against a plain count over the positions recorded, through random pushes, pops
    /// and commits, with hashes that repeat often and share probe
    /// runs, so that removals shift entries back.
    #[test]
    fn repetitions_match_a_plain_count() {
        let mut seed = 7u64;
        let mut h = History::default();
        // The model: every position pushed and not popped, with its flag; a commit keeps
        // those from the last irreversible one on.
        let mut model: Vec<(u64, bool)> = Vec::new();
        for step in 0..20_000 {
            let r = splitmix(&mut seed);
            match r % 10 {
                0..=5 => {
                    // Sixteen values, whose low bits (where probing starts) collide.
                    let hash = ((r >> 8) % 2) << 4 | ((r >> 16) % 8) << 40;
                    let irreversible = (r >> 24).is_multiple_of(16);
                    h.push(hash, irreversible);
                    model.push((hash, irreversible || model.is_empty()));
                }
                6..=8 if !model.is_empty() => {
                    h.pop();
                    model.pop();
                }
                _ => {
                    h.commit();
                    if let Some(i) = model.iter().rposition(|&(_, irr)| irr) {
                        model.drain(..i);
                        model[0].1 = true;
                    }
                }
            }
            // Real positions before an irreversible move never recur; these can, and
            // count until a commit drops them.
            let want = match model.last() {
                None => 1,
                Some(&(last, _)) => model.iter().filter(|&&(x, _)| x == last).count() as u32,
            };
            assert_eq!(h.repetitions(), want, "step {step}");
        }
    }
}
