//! The state of a game and the one way to change it. Every write goes through the methods
//! here, which keep the occupancy bitboards and the position hash current and log the old
//! value, so that any move — whatever its effects — can be undone exactly (`make` /
//! `unmake`) instead of copying the state.

use super::bits::Bits;
use crate::ir::{MAX_COUNTERS, MAX_FLAGS, MAX_PIECES};

/// A cell index; see `geometry`.
pub type Cell = u16;
/// "No cell": off the board, or not applicable (the origin of a placement).
pub const NONE: Cell = u16::MAX;
/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;
/// Owners of pieces: the players, then "neutral" (pieces that belong to no player).
pub const MAX_OWNERS: usize = MAX_PLAYERS + 1;
/// Most cells the engine plays on.
pub const MAX_CELLS: usize = 704;

/// The content of a cell: 0 when empty, otherwise `1 + owner * pieces + piece`, where
/// `pieces` is the number of piece types of the game (see `Codes`).
pub type Code = u8;

/// What sort of move a [`Move`] is, which decides what `piece`, `from` and `to` mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A piece moves from `from` to `to`, taking whatever stands there (through the cells
    /// of `path` first, for a chain of hops).
    Normal,
    /// A piece of type `piece` enters `to` from the mover's hand.
    Place,
    /// A new piece of type `piece` appears on `to`; the piece on `from` stays.
    Create,
    /// The action of index `piece` (a move that is no piece's).
    Action,
    /// The forced pass of `pass when no moves`: only the turn changes.
    Pass,
}

/// A move, as generated: enough to play it and to write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// What sort of move it is.
    pub kind: MoveKind,
    /// The type of the piece that moves, enters or appears (index into the game's
    /// pieces); for an action, the action's index; 0 for a pass.
    pub piece: u8,
    /// Where the piece starts, or `NONE` (a placement, an action, a pass).
    pub from: Cell,
    /// The target cell, or `NONE` (an action, a pass).
    pub to: Cell,
    /// Index of the effect block the producing rule carries, or `NONE`.
    pub effect: u16,
    /// Values of the rule's variables when the move was generated, for its effects.
    pub slots: [u16; crate::ir::MAX_SLOTS],
    /// The piece type chosen by an enclosing `for p in PIECES` (written `=L`), or `NO_CHOICE`.
    pub choice: u8,
    /// The cell chosen by a `choose` of its effects (written `/c4`), or `NONE`.
    pub cell_choice: Cell,
    /// The class of moves of `priority` the producing rule belongs to, or `NO_CLASS`.
    pub class: u8,
    /// For a chain of hops: how many, and where each lands (the last is `to`); 0 for any
    /// other move.
    pub hops: u8,
    /// The landing cell of each hop, in order; only the first `hops` are meaningful.
    pub path: [Cell; crate::ir::MAX_HOPS],
}

/// [`Move::choice`] of a move made outside any choice of piece.
pub const NO_CHOICE: u8 = u8::MAX;
pub const NO_CLASS: u8 = u8::MAX;

impl Move {
    /// Whether two moves are written the same (and so are the same move to a player).
    pub fn same_as(&self, o: &Move) -> bool {
        self.kind == o.kind
            && self.to == o.to
            && self.choice == o.choice
            && self.cell_choice == o.cell_choice
            && match self.kind {
                MoveKind::Normal => {
                    self.from == o.from
                        && self.path[..self.hops as usize] == o.path[..o.hops as usize]
                }
                MoveKind::Place | MoveKind::Create | MoveKind::Action => self.piece == o.piece,
                MoveKind::Pass => true,
            }
    }
}

impl Move {
    /// The pass, the one move of a player who must pass.
    pub const PASS: Move = Move {
        kind: MoveKind::Pass,
        piece: 0,
        from: NONE,
        to: NONE,
        effect: NONE,
        slots: [NONE; crate::ir::MAX_SLOTS],
        choice: NO_CHOICE,
        cell_choice: NONE,
        class: NO_CLASS,
        hops: 0,
        path: [NONE; crate::ir::MAX_HOPS],
    };
}

/// The scalar part of a state, saved whole before a move and restored by `unmake`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Scalars {
    pub to_move: u8,
    /// Who made the last move (before any move: the player before the first).
    pub previous: u8,
    pub passes: u32,
    pub turns: u32,
    pub ply: u32,
    /// Moves the player to move has made in a row within the current turn.
    pub streak: u32,
    pub last_from: Cell,
    pub last_to: Cell,
    pub hash: u64,
    pub moves_made: [u32; MAX_PLAYERS],
}

/// An old value, logged before a write.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Cell(Cell, Code),
    Flag(u8, Cell),
    Hand(u8, u8, u16),
    Counter(u8, u8, i32),
}

/// Where the log stood before a move, and the scalars then.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    log: usize,
    scalars: Scalars,
}

/// Everything that changes during a game.
#[derive(Debug)]
pub struct State<const W: usize> {
    pub board: [Code; MAX_CELLS],
    /// Cells holding pieces of each owner.
    pub by_owner: [Bits<W>; MAX_OWNERS],
    /// Cells holding pieces of each type, any owner.
    pub by_type: [Bits<W>; MAX_PIECES],
    pub occupied: Bits<W>,
    pub flags: [Bits<W>; MAX_FLAGS],
    pub hand: [[u16; MAX_PIECES]; MAX_PLAYERS],
    pub counters: [[i32; MAX_COUNTERS]; MAX_PLAYERS],
    pub s: Scalars,
    log: Vec<Undo>,
}

impl<const W: usize> Clone for State<W> {
    fn clone(&self) -> Self {
        let mut st = State {
            log: Vec::new(),
            ..*self
        };
        st.log.clone_from(&self.log);
        st
    }

    /// Keeps the undo log's allocation: playouts start game after game from one state.
    fn clone_from(&mut self, o: &Self) {
        let log = std::mem::take(&mut self.log);
        *self = State { log, ..*o };
        self.log.clone_from(&o.log);
    }
}

impl<const W: usize> State<W> {
    /// Makes this state `o` again, copying only what a game of `cells` cells, `pieces`
    /// piece types and `players` players can change: this state must be a copy of `o`,
    /// since changed (a playout's position, reset for the next playout).
    pub fn reset_from(&mut self, o: &Self, cells: usize, pieces: usize, players: usize) {
        self.copy_position(o, cells, pieces, players);
        self.log.clone_from(&o.log);
    }

    /// `reset_from` with an empty undo log: a scratch copy whose changes are undone
    /// from where it starts (a chain of hops explored on it).
    pub fn scratch_from(&mut self, o: &Self, cells: usize, pieces: usize, players: usize) {
        self.copy_position(o, cells, pieces, players);
        self.log.clear();
    }

    #[inline(always)]
    fn copy_position(&mut self, o: &Self, cells: usize, pieces: usize, players: usize) {
        self.board[..cells].copy_from_slice(&o.board[..cells]);
        self.by_owner = o.by_owner;
        self.by_type[..pieces].copy_from_slice(&o.by_type[..pieces]);
        self.occupied = o.occupied;
        self.flags = o.flags;
        for p in 0..players {
            self.hand[p][..pieces].copy_from_slice(&o.hand[p][..pieces]);
            self.counters[p] = o.counters[p];
        }
        self.s = o.s;
        debug_assert!(
            self == o
                && self.by_owner == o.by_owner
                && self.by_type == o.by_type
                && self.occupied == o.occupied,
            "a state reset from another game's"
        );
    }
}

impl<const W: usize> PartialEq for State<W> {
    /// Two states are equal when the game is in the same situation (their undo logs do
    /// not count).
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.flags == o.flags
            && self.hand == o.hand
            && self.counters == o.counters
            && self.s == o.s
    }
}

/// How cell contents are coded for a game with a given number of piece types.
#[derive(Clone, Debug)]
pub struct Codes {
    pub pieces: u8,
    /// Per code: the owner, and the piece type (both 0 for the empty code).
    pub owner: [u8; 256],
    pub piece: [u8; 256],
    /// Number of codes in use (the empty code included).
    pub count: usize,
}

impl Codes {
    pub fn new(pieces: usize) -> Codes {
        let pieces = pieces.max(1) as u8;
        let mut c = Codes {
            pieces,
            owner: [0; 256],
            piece: [0; 256],
            count: 1 + MAX_OWNERS * pieces as usize,
        };
        for o in 0..MAX_OWNERS as u8 {
            for p in 0..pieces {
                let k = c.code(o, p) as usize;
                c.owner[k] = o;
                c.piece[k] = p;
            }
        }
        c
    }

    #[inline(always)]
    pub fn code(&self, owner: u8, piece: u8) -> Code {
        1 + owner * self.pieces + piece
    }
}

impl<const W: usize> State<W> {
    pub fn new() -> State<W> {
        State {
            board: [0; MAX_CELLS],
            by_owner: [Bits::EMPTY; MAX_OWNERS],
            by_type: [Bits::EMPTY; MAX_PIECES],
            occupied: Bits::EMPTY,
            flags: [Bits::EMPTY; MAX_FLAGS],
            hand: [[0; MAX_PIECES]; MAX_PLAYERS],
            counters: [[0; MAX_COUNTERS]; MAX_PLAYERS],
            s: Scalars {
                last_from: NONE,
                last_to: NONE,
                ..Scalars::default()
            },
            log: Vec::new(),
        }
    }

    /// Whether player `p` holds a piece of one of the first `types` types in hand.
    #[inline(always)]
    pub fn any_in_hand(&self, p: usize, types: usize) -> bool {
        self.hand[p][..types].iter().any(|&n| n > 0)
    }

    /// Writes a cell, keeping the bitboards current; `keys` (when hashing) the hash.
    #[inline]
    pub fn put(&mut self, codes: &Codes, keys: Option<&super::hash::Keys>, c: Cell, code: Code) {
        let old = self.board[c as usize];
        if old == code {
            return;
        }
        self.log.push(Undo::Cell(c, old));
        if let Some(k) = keys {
            self.s.hash ^= k.cell(c, old) ^ k.cell(c, code);
        }
        self.write_cell(codes, c, old, code);
    }

    /// Writes a cell with nothing logged to undo it, for a position that is never taken
    /// back (a playout's).
    #[inline(always)]
    pub fn write_unlogged(&mut self, codes: &Codes, c: Cell, code: Code) {
        let old = self.board[c as usize];
        if old != code {
            self.write_cell(codes, c, old, code);
        }
    }

    #[inline(always)]
    fn write_cell(&mut self, codes: &Codes, c: Cell, old: Code, code: Code) {
        if old != 0 {
            self.by_owner[codes.owner[old as usize] as usize].remove(c);
            self.by_type[codes.piece[old as usize] as usize].remove(c);
            self.occupied.remove(c);
        }
        if code != 0 {
            self.by_owner[codes.owner[code as usize] as usize].insert(c);
            self.by_type[codes.piece[code as usize] as usize].insert(c);
            self.occupied.insert(c);
        }
        self.board[c as usize] = code;
    }

    /// Sets or clears a flag on a cell.
    #[inline]
    pub fn set_flag(&mut self, keys: Option<&super::hash::Keys>, f: u8, c: Cell, value: bool) {
        if self.flags[f as usize].has(c) == value {
            return;
        }
        self.log.push(Undo::Flag(f, c));
        self.flags[f as usize].set(c, value);
        if let Some(k) = keys {
            self.s.hash ^= k.flag(f, c);
        }
    }

    /// Changes a count in hand.
    #[inline]
    pub fn set_hand(&mut self, keys: Option<&super::hash::Keys>, p: u8, piece: u8, count: u16) {
        let slot = &mut self.hand[p as usize][piece as usize];
        let old = *slot;
        if old == count {
            return;
        }
        *slot = count;
        self.log.push(Undo::Hand(p, piece, old));
        if let Some(k) = keys {
            self.s.hash ^= k.hand(p, piece, old) ^ k.hand(p, piece, count);
        }
    }

    /// Changes a player's counter (counters are not part of the hash).
    #[inline]
    pub fn set_counter(&mut self, p: u8, i: u8, value: i32) {
        let slot = &mut self.counters[p as usize][i as usize];
        if *slot != value {
            self.log.push(Undo::Counter(p, i, *slot));
            *slot = value;
        }
    }

    /// Marks where an undo would come back to.
    #[inline]
    pub fn frame(&self) -> Frame {
        Frame {
            log: self.log.len(),
            scalars: self.s,
        }
    }

    /// Undoes every write since `frame` was taken.
    #[inline]
    pub fn undo(&mut self, codes: &Codes, frame: Frame) {
        while self.log.len() > frame.log {
            match self.log.pop().expect("the log is longer than the frame") {
                Undo::Cell(c, old) => {
                    let now = self.board[c as usize];
                    self.write_cell(codes, c, now, old);
                }
                Undo::Flag(f, c) => {
                    let v = self.flags[f as usize].has(c);
                    self.flags[f as usize].set(c, !v);
                }
                Undo::Hand(p, piece, old) => self.hand[p as usize][piece as usize] = old,
                Undo::Counter(p, i, old) => self.counters[p as usize][i as usize] = old,
            }
        }
        self.s = frame.scalars;
    }

    /// Undoes a move made by `Core::move_bare` since `frame` was taken: `piece` went from
    /// `from` (from the mover's hand when `NONE`) to `to`, which held `was`.
    #[inline]
    pub fn undo_bare(
        &mut self,
        codes: &Codes,
        frame: Frame,
        piece: u8,
        from: Cell,
        to: Cell,
        was: Code,
    ) {
        self.unmove_bare(codes, frame.scalars.to_move, piece, from, to, was);
        self.s = frame.scalars;
    }

    /// The cells (or the hand) of `undo_bare`, the scalars left as they are: `piece`
    /// of player `me` went from `from` to `to`, which held `was`.
    #[inline]
    pub fn unmove_bare(
        &mut self,
        codes: &Codes,
        me: u8,
        piece: u8,
        from: Cell,
        to: Cell,
        was: Code,
    ) {
        let code = self.board[to as usize];
        self.write_unlogged(codes, to, was);
        if from == NONE {
            self.hand[me as usize][piece as usize] += 1;
        } else {
            self.write_unlogged(codes, from, code);
        }
    }

    /// Forgets the undo log: the moves made so far become permanent.
    #[inline]
    pub fn commit(&mut self) {
        self.log.clear();
    }
}

impl<const W: usize> Default for State<W> {
    fn default() -> Self {
        State::new()
    }
}
