//! Sets of cells as bitboards of `W` machine words, sized to the board: one word for
//! boards of up to 64 cells, two up to 128, and so on. Cell `c` is bit `c % 64` of word
//! `c / 64`.

/// A set of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    pub const EMPTY: Bits<W> = Bits([0; W]);

    /// The set of the first `n` cells.
    pub fn first(n: usize) -> Bits<W> {
        let mut b = Bits::EMPTY;
        for c in 0..n.min(64 * W) {
            b.insert(c as u16);
        }
        b
    }

    /// The set of the given cells.
    pub fn from_cells(cells: impl IntoIterator<Item = u16>) -> Bits<W> {
        let mut b = Bits::EMPTY;
        for c in cells {
            b.insert(c);
        }
        b
    }

    #[inline(always)]
    pub fn has(&self, c: u16) -> bool {
        let w = c as usize >> 6;
        w < W && self.0[w] >> (c & 63) & 1 != 0
    }

    #[inline(always)]
    pub fn insert(&mut self, c: u16) {
        self.0[c as usize >> 6] |= 1 << (c & 63);
    }

    /// The set with `c` added, made word by word with no indexed write, so that a set
    /// being built stays in registers: an indexed write puts it in memory, and a wide
    /// load of it just after waits for that store to reach the cache.
    #[inline(always)]
    pub fn with(self, c: u16) -> Bits<W> {
        let (at, bit) = (c as usize >> 6, 1u64 << (c & 63));
        Bits(std::array::from_fn(|w| {
            self.0[w] | if w == at { bit } else { 0 }
        }))
    }

    #[inline(always)]
    pub fn remove(&mut self, c: u16) {
        self.0[c as usize >> 6] &= !(1 << (c & 63));
    }

    #[inline(always)]
    pub fn set(&mut self, c: u16, v: bool) {
        if v { self.insert(c) } else { self.remove(c) }
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set has `n` cells or more: cheaper than `count` for a small `n`.
    #[inline(always)]
    pub fn at_least(&self, mut n: u32) -> bool {
        if n == 0 {
            return true;
        }
        for &w in &self.0 {
            let mut w = w;
            while w != 0 {
                n -= 1;
                if n == 0 {
                    return true;
                }
                w &= w - 1;
            }
        }
        false
    }

    /// The lowest cell of the set.
    #[inline(always)]
    pub fn lowest(&self) -> Option<u16> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some((i * 64) as u16 + w.trailing_zeros() as u16);
            }
        }
        None
    }

    /// The cells up to and including the lowest of the set (every cell when it is
    /// empty): `x ^ (x - 1)` across the words, the borrow carried from word to word,
    /// with no branch and no search for the cell.
    #[inline(always)]
    pub fn through_lowest(&self) -> Bits<W> {
        let mut borrow = 1u64;
        Bits(std::array::from_fn(|i| {
            let w = self.0[i];
            let (d, b) = w.overflowing_sub(borrow);
            borrow = b as u64;
            w ^ d
        }))
    }

    /// The cells of a ray (`self`) up to and including its first of `stops`, all of it
    /// when none is, the ray's way known: `UP` when it goes to higher cells (its first
    /// stop is its lowest), for loops that take the directions of each way apart.
    #[inline(always)]
    pub fn to_first<const UP: bool>(self, stops: Bits<W>) -> Bits<W> {
        let hits = self.and(stops);
        self.and(if UP {
            hits.through_lowest()
        } else {
            hits.down_to_highest()
        })
    }

    /// The cells from the top down to and including the highest of the set (every cell
    /// when it is empty). With no branch: whether a word is empty is as likely as not
    /// where a ray crosses words, and a mispredicted branch costs more than the masks.
    #[inline(always)]
    pub fn down_to_highest(&self) -> Bits<W> {
        let mut out = [0u64; W];
        // Every bit once a word above holds a cell of the set: the words below get none.
        let mut above = 0u64;
        for i in (0..W).rev() {
            let w = self.0[i];
            // `w | 1` has `w`'s highest bit, or for an empty word bit 0 (every cell kept).
            out[i] = !0 << (63 - (w | 1).leading_zeros()) & !above;
            above |= ((w != 0) as u64).wrapping_neg();
        }
        Bits(out)
    }

    /// The highest cell of the set.
    #[inline(always)]
    pub fn highest(&self) -> Option<u16> {
        for (i, &w) in self.0.iter().enumerate().rev() {
            if w != 0 {
                return Some((i * 64) as u16 + 63 - w.leading_zeros() as u16);
            }
        }
        None
    }

    /// The `k`-th cell of the set in increasing order (from 0), where `k` is below its
    /// count: on a one-word board, without counting the word again.
    #[inline(always)]
    pub fn nth_within(&self, k: u32) -> u16 {
        if W == 1 {
            return select(self.0[0], k);
        }
        self.nth(k).expect("k is below the count")
    }

    /// The set with each word's running counts: its size, then any of its cells by rank,
    /// with one pass over each word for both (a draw counts a set, then decodes a cell).
    #[inline(always)]
    pub fn ranked(self) -> Ranked<W> {
        Ranked {
            words: self.0,
            running: std::array::from_fn(|i| running_counts(self.0[i])),
        }
    }

    /// The `k`-th cell of the set in increasing order (from 0), if it has that many.
    #[inline]
    pub fn nth(&self, mut k: u32) -> Option<u16> {
        let mut i = 0;
        while i < W {
            let w = self.0[i];
            // The running counts that find the bit also give the word's count: no
            // second pass over the word.
            let running = running_counts(w);
            let n = (running >> 56) as u32;
            if k < n {
                return Some((i * 64) as u16 + select_in(w, running, k));
            }
            k -= n;
            i += 1;
        }
        None
    }

    /// The cells of the set, in increasing order.
    #[inline(always)]
    pub fn iter(self) -> BitIter<W> {
        BitIter {
            words: self.0,
            word: 0,
        }
    }

    #[inline(always)]
    pub fn and(self, o: Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    #[inline(always)]
    pub fn or(self, o: Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    #[inline(always)]
    pub fn intersects(&self, o: &Bits<W>) -> bool {
        (0..W).any(|i| self.0[i] & o.0[i] != 0)
    }

    /// The cells of `self` not in `o`.
    #[inline(always)]
    pub fn minus(self, o: Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    /// Every cell `c` moved to `c + k`, or with `DOWN` to `c - k` (cells moved outside
    /// `0..64 * W` are lost): `shift` with its direction known, for a loop of shifts one
    /// way. With `SHORT`, `k` is known to be in `1..64`, and is not tested.
    #[inline(always)]
    pub fn shift_by<const DOWN: bool, const SHORT: bool>(self, k: u32) -> Bits<W> {
        if !SHORT && !(1..64).contains(&k) {
            return self.shift(if DOWN { -(k as i32) } else { k as i32 });
        }
        Bits(std::array::from_fn(|i| {
            if DOWN {
                let high = if i + 1 < W {
                    self.0[i + 1] << (64 - k)
                } else {
                    0
                };
                self.0[i] >> k | high
            } else {
                let low = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
                self.0[i] << k | low
            }
        }))
    }

    /// Every cell `c` moved to `c + k` (cells moved outside `0..64 * W` are lost).
    #[inline(always)]
    pub fn shift(self, k: i32) -> Bits<W> {
        // A step on any board is under a word: the common case without the general
        // case's word offsets and edge tests.
        if (1..64).contains(&k) {
            return self.shift_by::<false, true>(k as u32);
        }
        if (-63..0).contains(&k) {
            return self.shift_by::<true, true>(k.unsigned_abs());
        }
        let n = k.unsigned_abs() as usize;
        let (words, bits) = (n / 64, (n % 64) as u32);
        if words >= W {
            return Bits::EMPTY;
        }
        let w = |i: isize| -> u64 {
            if i >= 0 && (i as usize) < W {
                self.0[i as usize]
            } else {
                0
            }
        };
        Bits(std::array::from_fn(|i| {
            let i = i as isize;
            if k >= 0 {
                let (a, b) = (w(i - words as isize), w(i - words as isize - 1));
                if bits == 0 {
                    a
                } else {
                    a << bits | b >> (64 - bits)
                }
            } else {
                let (a, b) = (w(i + words as isize), w(i + words as isize + 1));
                if bits == 0 {
                    a
                } else {
                    a >> bits | b << (64 - bits)
                }
            }
        }))
    }
}

/// A set of cells ready to be counted and decoded (`Bits::ranked`).
#[derive(Clone, Copy, Debug)]
pub struct Ranked<const W: usize> {
    words: [u64; W],
    running: [u64; W],
}

impl<const W: usize> Ranked<W> {
    pub const EMPTY: Ranked<W> = Ranked {
        words: [0; W],
        running: [0; W],
    };

    /// How many cells the set has.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.running.iter().map(|r| (r >> 56) as u32).sum()
    }

    /// The `k`-th cell of the set in increasing order (from 0); `k` is below its count.
    #[inline(always)]
    pub fn nth_within(&self, mut k: u32) -> u16 {
        let mut i = 0;
        while i + 1 < W {
            let n = (self.running[i] >> 56) as u32;
            if k < n {
                break;
            }
            k -= n;
            i += 1;
        }
        (i * 64) as u16 + select_in(self.words[i], self.running[i], k)
    }
}

/// Iterator over the cells of a set, lowest first.
pub struct BitIter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for BitIter<W> {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        while self.word < W {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let b = w.trailing_zeros();
                *w &= *w - 1;
                return Some((self.word as u32 * 64 + b) as u16);
            }
            self.word += 1;
        }
        None
    }
}

/// Per byte value and `k`: the position of the byte's `k`-th set bit (0 past its count).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The position of the `k`-th set bit of `w` (from 0; `k` below its count), in a few
/// word operations and no branch (a drawn `k` is random, so a loop over it would
/// mispredict at every draw): per-byte counts and their running sums find the byte
/// (without a popcount instruction, which the baseline x86-64 lacks), then a table the
/// bit within it.
#[inline(always)]
fn select(w: u64, k: u32) -> u16 {
    select_in(w, running_counts(w), k)
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// Byte i: the set bits of `w` in bytes 0..=i (at most 64, so no byte overflows); the
/// top byte is the word's count.
#[inline(always)]
fn running_counts(w: u64) -> u64 {
    let mut x = w - ((w >> 1) & 0x5555_5555_5555_5555);
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    x = (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x.wrapping_mul(ONES)
}

/// The `k`-th set bit of a byte (from 0; `k` below its count), by one table read.
#[inline(always)]
pub fn select_in_byte(b: u8, k: u32) -> u8 {
    SELECT_IN_BYTE[b as usize][k as usize & 7]
}

/// `select` given the word's `running_counts`.
#[inline(always)]
fn select_in(w: u64, running: u64, k: u32) -> u16 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // High bit of byte i set when running_i <= k: a run of the low bytes.
    let at_most = ((k as u64 * ONES) | HIGH).wrapping_sub(running) & HIGH;
    let byte = (!at_most & HIGH).trailing_zeros() / 8;
    // The set bits in the bytes below it: byte `byte - 1` of the running sums.
    let before = ((running << 8) >> (8 * byte)) & 0xff;
    let bits = (w >> (8 * byte)) & 0xff;
    (8 * byte + SELECT_IN_BYTE[bits as usize][(k as u64 - before) as usize & 7] as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the cells counted one by one, on sets of two words that are empty, sparse
    /// or dense, in either word.
    #[test]
    fn the_cells_up_to_the_lowest_and_from_the_highest() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for i in 0..3000 {
            let x = crate::engine::hash::splitmix(&mut seed);
            let w = |k: u32| match (i / 4 + k) % 4 {
                0 => 0,
                1 => 1 << (x.rotate_left(k * 9) % 64),
                2 => x.rotate_left(k * 31) & x.rotate_left(k * 17 + 5),
                _ => x.rotate_left(k * 7),
            };
            let set = Bits::<2>([w(0), w(1)]);
            let (lo, hi) = (set.lowest(), set.highest());
            let (up, down) = (set.through_lowest(), set.down_to_highest());
            for c in 0..128u16 {
                assert_eq!(up.has(c), lo.is_none_or(|l| c <= l), "{set:?}, cell {c}");
                assert_eq!(down.has(c), hi.is_none_or(|h| c >= h), "{set:?}, cell {c}");
            }
        }
    }

    /// Shifts, one way by a known size and the general one, move every cell by `k`,
    /// against the cells moved one by one.
    #[test]
    fn a_shift_moves_every_cell() {
        fn moved<const W: usize>(b: Bits<W>, k: i32) -> Bits<W> {
            let top = 64 * W as i32;
            Bits::from_cells(
                b.iter()
                    .map(|c| c as i32 + k)
                    .filter(|c| (0..top).contains(c))
                    .map(|c| c as u16),
            )
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut w = || crate::engine::hash::splitmix(&mut seed);
            let (one, three) = (Bits::<1>([w()]), Bits::<3>([w(), w(), w()]));
            for k in 1..192u32 {
                let (up, down) = (k as i32, -(k as i32));
                assert_eq!(one.shift(up), moved(one, up), "{one:?} by {up}");
                assert_eq!(one.shift(down), moved(one, down), "{one:?} by {down}");
                assert_eq!(three.shift(up), moved(three, up), "{three:?} by {up}");
                assert_eq!(three.shift(down), moved(three, down), "{three:?} by {down}");
                assert_eq!(one.shift_by::<false, false>(k), moved(one, up));
                assert_eq!(one.shift_by::<true, false>(k), moved(one, down));
                assert_eq!(three.shift_by::<false, false>(k), moved(three, up));
                assert_eq!(three.shift_by::<true, false>(k), moved(three, down));
                if k < 64 {
                    assert_eq!(three.shift_by::<false, true>(k), moved(three, up));
                    assert_eq!(three.shift_by::<true, true>(k), moved(three, down));
                }
            }
        }
    }

    #[test]
    fn the_kth_cell_is_the_kth_in_order() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse, dense and one-word sets alike.
            let w = match i % 4 {
                0 => x & x.rotate_left(21),
                1 => x | x.rotate_left(9),
                2 => x & 0xff,
                _ => x,
            };
            let b = Bits::<2>([w, x.rotate_left(31)]);
            let cells: Vec<u16> = b.iter().collect();
            for (k, &c) in cells.iter().enumerate() {
                assert_eq!(b.nth(k as u32), Some(c), "{b:?}, k = {k}");
                assert_eq!(b.nth_within(k as u32), c, "{b:?}, k = {k}");
                assert_eq!(b.ranked().nth_within(k as u32), c, "{b:?}, k = {k}");
            }
            let one = Bits::<1>([w]);
            for (k, c) in one.iter().enumerate() {
                assert_eq!(one.nth_within(k as u32), c, "{one:?}, k = {k}");
                assert_eq!(one.ranked().nth_within(k as u32), c, "{one:?}, k = {k}");
            }
            assert_eq!(b.nth(cells.len() as u32), None);
            assert_eq!(b.ranked().count(), b.count());
            assert_eq!(one.ranked().count(), one.count());
        }
    }

    #[test]
    fn sets_over_several_words() {
        let b: Bits<2> = Bits::from_cells([3, 64, 70, 127]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.lowest(), Some(3));
        assert_eq!(b.highest(), Some(127));
        assert_eq!(b.nth(0), Some(3));
        assert_eq!(b.nth(2), Some(70));
        assert_eq!(b.nth(4), None);
        assert_eq!(b.iter().collect::<Vec<_>>(), [3, 64, 70, 127]);
        assert!(b.has(64) && !b.has(65) && !b.has(500));
        assert!(b.at_least(0) && b.at_least(4) && !b.at_least(5));
        assert!(Bits::<2>::EMPTY.at_least(0) && !Bits::<2>::EMPTY.at_least(1));
        let a: Bits<2> = Bits::first(65);
        assert_eq!(a.and(b).iter().collect::<Vec<_>>(), [3, 64]);
        assert_eq!(b.minus(a).iter().collect::<Vec<_>>(), [70, 127]);
        assert!(Bits::<2>::EMPTY.lowest().is_none() && Bits::<2>::EMPTY.highest().is_none());
    }

    #[test]
    fn nth_agrees_with_walking_the_set() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b: Bits<2> = Bits([x, x.rotate_left(29) & x.rotate_right(3)]);
            let cells: Vec<u16> = b.iter().collect();
            for (k, &c) in cells.iter().enumerate() {
                assert_eq!(b.nth(k as u32), Some(c));
            }
            assert_eq!(b.nth(cells.len() as u32), None);
        }
        assert_eq!(Bits::<1>([u64::MAX]).nth(63), Some(63));
    }

    #[test]
    fn shifts_carry_across_words_and_drop_what_leaves() {
        let b: Bits<3> = Bits::from_cells([0, 5, 63, 64, 100, 191]);
        for k in [-130, -64, -7, -1, 0, 1, 7, 63, 64, 65, 130, 200] {
            let want: Vec<u16> = [0i32, 5, 63, 64, 100, 191]
                .iter()
                .map(|c| c + k)
                .filter(|c| (0..192).contains(c))
                .map(|c| c as u16)
                .collect();
            assert_eq!(b.shift(k).iter().collect::<Vec<_>>(), want, "shift by {k}");
        }
    }
}
