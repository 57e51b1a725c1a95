//! Game state and moves: fixed-size values, so that copying a state (as the legality filter
//! does for every candidate move) never allocates.

use crate::ir::{MAX_CELLS, MAX_COUNTERS, MAX_FLAGS, MAX_PIECES, MAX_SLOTS};

/// "No cell": off the board, or not applicable (the origin of a placement).
pub const NONE: u16 = u16::MAX;

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; MAX_CELLS / 64]);

impl Bits {
    /// The cells of the set, in increasing order.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter {
            words: self.0,
            word: 0,
        }
    }
    #[inline]
    pub fn has(&self, c: u16) -> bool {
        // Cells are below 256: masking the word index spares a bounds check in hot loops.
        self.0[((c >> 6) & 3) as usize] >> (c & 63) & 1 != 0
    }
    #[inline]
    pub fn set(&mut self, c: u16, v: bool) {
        let (w, b) = (((c >> 6) & 3) as usize, c & 63);
        if v {
            self.0[w] |= 1 << b;
        } else {
            self.0[w] &= !(1 << b);
        }
    }
}

/// Iterator over the cells of a `Bits`, lowest first.
pub struct BitIter {
    words: [u64; MAX_CELLS / 64],
    word: usize,
}

impl Iterator for BitIter {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        while self.word < self.words.len() {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A piece moves from `from` to `to`, taking whatever stands there.
    Normal,
    /// A piece of type `piece` enters `to` from the mover's hand.
    Place,
    Pass,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub kind: MoveKind,
    pub piece: u8,
    pub from: u16,
    pub to: u16,
    /// Index of the effect block the producing rule carries, or `NONE`.
    pub effect: u16,
    /// Values of the rule's variables when the move was generated, for its effects.
    pub slots: [u16; MAX_SLOTS],
    /// The piece type chosen by an enclosing `for p in PIECES` (written `=L`), or `NO_CHOICE`.
    pub choice: u8,
}

pub const NO_CHOICE: u8 = u8::MAX;

impl Move {
    pub const PASS: Move = Move {
        kind: MoveKind::Pass,
        piece: 0,
        from: NONE,
        to: NONE,
        effect: NONE,
        slots: [NONE; MAX_SLOTS],
        choice: NO_CHOICE,
    };
}

/// Everything that changes during a game. Cell contents are coded in one byte:
/// 0 is empty, otherwise `1 + owner * 32 + piece`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: [u8; MAX_CELLS],
    pub flags: [Bits; MAX_FLAGS],
    pub hand: [[u16; MAX_PIECES]; 2],
    pub counters: [[i32; MAX_COUNTERS]; 2],
    pub moves_made: [u32; 2],
    pub to_move: u8,
    /// Who made the last move (before any move: the player who does not start).
    pub previous: u8,
    pub passes: u32,
    pub turns: u32,
    pub ply: u32,
    /// Moves the player to move has made in a row within the current turn.
    pub streak: u32,
    pub last_from: u16,
    pub last_to: u16,
    pub hash: u64,
    /// Cells holding each player's pieces (kept in step with `board`).
    pub by_owner: [Bits; 2],
}

#[inline]
pub fn code(owner: u8, piece: u8) -> u8 {
    1 + owner * 32 + piece
}
#[inline]
pub fn owner_of(code: u8) -> u8 {
    (code - 1) >> 5
}
#[inline]
pub fn piece_of(code: u8) -> u8 {
    (code - 1) & 31
}
