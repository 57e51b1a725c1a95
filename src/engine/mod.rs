//! Stage 3: IR → play. [`Engine::new`] runs the IR passes and compiles the game once, for
//! bitboards of the board's size; the engine then answers what the legal moves are, plays
//! them, and says when and how the game ends.
//!
//! - `bits`: cell sets as bitboards of `W` words; `state`: the state, every write logged;
//! - `compile`, `evaluate`: IR → closures and tables (tests, cells, conditions, numbers);
//! - `generate`: move rules → targets, collected, counted, picked or matched;
//! - `movegen`: the legal moves (duplicates, `legal if`), counted or drawn at random;
//! - `apply`: playing a move with its effects (`make` / `unmake`);
//! - `status`, `position`: end rules, passes, results; positions with their history;
//! - `hash`: Zobrist keys and the repetition history; `search`: perft and playouts;
//! - `core`: one compiled game; this module: the engine for any board size;
//! - `notation`: moves and boards as text; `passes`: IR rewrites.

mod apart;
mod apply;
mod asleep;
mod attack;
mod batch;
mod bits;
mod compile;
mod connect;
mod core;
mod evaluate;
mod footprint;
mod gate;
mod generate;
mod hash;
mod lines;
mod lone;
mod movegen;
mod notation;
mod origin;
pub mod passes;
mod phase;
mod placeplay;
mod position;
pub mod search;
mod sight;
mod state;
mod status;
mod tally;

use crate::geometry::Board;
use crate::ir::{self, Program};
use core::Core;
pub use notation::ReplayError;
use position::Pos;
pub use search::{Ending, PlayoutStats, Rng};
pub use state::{Cell, MAX_CELLS, MAX_PLAYERS, Move, MoveKind, NO_CHOICE, NONE};

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player won (every other player lost).
    Win(u8),
    /// In a game of three players or more: this player lost, the others share the rest.
    /// (With two players, a loss is the other's win.)
    Lose(u8),
    /// Nobody won.
    Draw,
}

/// A compiled game, ready to play.
pub struct Engine {
    inner: Inner,
}

/// The compiled game, for bitboards of 1, 2, 4 or 11 words.
enum Inner {
    W1(Box<Core<1>>),
    W2(Box<Core<2>>),
    W4(Box<Core<4>>),
    W11(Box<Core<11>>),
}

/// A position of a game: what is where, whose turn it is, and the history repetition
/// needs. Belongs to the engine that made it.
#[derive(Clone, Debug)]
pub struct Position {
    inner: PosInner,
}

#[derive(Clone, Debug)]
enum PosInner {
    W1(Box<Pos<1>>),
    W2(Box<Pos<2>>),
    W4(Box<Pos<4>>),
    W11(Box<Pos<11>>),
}

/// Runs `$body` with `$c` bound to the compiled game, whatever its size.
macro_rules! with_core {
    ($e:expr, $c:ident => $body:expr) => {
        match &$e.inner {
            Inner::W1($c) => $body,
            Inner::W2($c) => $body,
            Inner::W4($c) => $body,
            Inner::W11($c) => $body,
        }
    };
}

/// Runs `$body` with the compiled game and a position of it.
macro_rules! with_pos {
    ($e:expr, $pos:expr, $c:ident, $p:ident => $body:expr) => {
        match (&$e.inner, $pos) {
            (Inner::W1($c), PosInner::W1($p)) => $body,
            (Inner::W2($c), PosInner::W2($p)) => $body,
            (Inner::W4($c), PosInner::W4($p)) => $body,
            (Inner::W11($c), PosInner::W11($p)) => $body,
            _ => panic!("a position of another engine"),
        }
    };
}

pub(crate) use with_core;

impl Engine {
    /// Builds an engine for a checked program.
    pub fn new(program: Program) -> Engine {
        Engine::build(program, true)
    }

    /// Builds an engine, with or without the IR passes (which must not change what the
    /// game does: a test compares the two).
    pub(crate) fn build(mut program: Program, passes: bool) -> Engine {
        if passes {
            passes::run(&mut program);
        }
        let cells = Board::new(program.game.board.clone())
            .map(|b| b.cells() as usize)
            .expect("the checker only accepts valid boards");
        let inner = match cells {
            0..=64 => Inner::W1(Box::new(Core::new(program))),
            65..=128 => Inner::W2(Box::new(Core::new(program))),
            129..=256 => Inner::W4(Box::new(Core::new(program))),
            _ => Inner::W11(Box::new(Core::new(program))),
        };
        Engine { inner }
    }

    /// The checked game this engine plays.
    pub fn game(&self) -> &ir::Game {
        with_core!(self, c => &c.program.game)
    }

    /// The board's geometry: cells, names, directions, drawing.
    pub fn board(&self) -> &Board {
        with_core!(self, c => &c.geo.board)
    }

    /// Number of cells of the board.
    pub fn cells(&self) -> u16 {
        with_core!(self, c => c.geo.cells)
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        with_core!(self, c => c.players)
    }

    /// The position before the first move.
    pub fn start(&self) -> Position {
        let inner = match &self.inner {
            Inner::W1(c) => PosInner::W1(Box::new(c.start_pos())),
            Inner::W2(c) => PosInner::W2(Box::new(c.start_pos())),
            Inner::W4(c) => PosInner::W4(Box::new(c.start_pos())),
            Inner::W11(c) => PosInner::W11(Box::new(c.start_pos())),
        };
        Position { inner }
    }

    /// Decides the turn: either the game is over, or `moves` holds the legal moves
    /// (a lone pass when the rules force one).
    pub fn status(&self, pos: &Position, moves: &mut Vec<Move>) -> Option<Outcome> {
        let mut p = pos.clone();
        with_pos!(self, &mut p.inner, c, p => c.status(p, moves))
    }

    /// Plays a move (one of those `status` listed).
    pub fn play(&self, pos: &mut Position, m: &Move) {
        with_pos!(self, &mut pos.inner, c, p => {
            c.play(p, m);
            p.commit();
        })
    }

    /// Number of move sequences of length `depth` from `pos` (leaves of the game tree;
    /// a forced pass is a move). Uses every core for deep counts.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.perft_with(pos, depth, threads)
    }

    /// Perft on a given number of threads.
    pub fn perft_with(&self, pos: &Position, depth: u32, threads: usize) -> u64 {
        with_pos!(self, &pos.inner, c, p => c.perft_par(p, depth, threads))
    }

    /// Perft split by root move: (move in notation, count), sorted by notation.
    pub fn divide(&self, pos: &Position, depth: u32) -> Vec<(String, u64)> {
        let mut buf = Vec::new();
        if depth == 0 || self.status(pos, &mut buf).is_some() {
            return vec![];
        }
        let mut out: Vec<(String, u64)> = buf
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                self.play(&mut next, m);
                (self.notation(m), self.perft(&next, depth - 1))
            })
            .collect();
        out.sort();
        out
    }

    /// Plays uniformly random legal moves from `pos` until the game ends, `max_plies`
    /// moves were played, or a turn never ends. Returns how it stopped and the plies.
    pub fn playout(&self, pos: &mut Position, rng: &mut Rng, max_plies: u64) -> (Ending, u64) {
        with_pos!(self, &mut pos.inner, c, p => {
            c.playout(p, rng, max_plies, &mut Default::default())
        })
    }

    /// A legal move of the player to move drawn uniformly at random (without listing the
    /// moves), or `None` when there is none (the game may then force a pass, or be over:
    /// see `status`).
    pub fn random_move(&self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        let mut p = pos.clone();
        with_pos!(self, &mut p.inner, c, p => {
            c.random_legal(&mut p.st, rng, &mut Default::default())
        })
    }

    /// `count` random playouts from the start on one thread; see `playouts_with`.
    pub fn playouts(&self, count: u64, seed: u64, max_plies: u64) -> PlayoutStats {
        self.playouts_with(&self.start(), count, seed, max_plies, 1)
    }

    /// `count` random playouts from `start`, playout `i` seeded from (`seed`, `i`), over
    /// `threads` threads: the same seed gives the same statistics whatever `threads`.
    pub fn playouts_with(
        &self,
        start: &Position,
        count: u64,
        seed: u64,
        max_plies: u64,
        threads: usize,
    ) -> PlayoutStats {
        let done = std::sync::atomic::AtomicU64::new(0);
        self.playouts_counted(start, count, seed, max_plies, threads, &done)
    }

    /// [`playouts_with`](Engine::playouts_with), adding 1 to `done` as each playout
    /// ends, so that another thread can follow a long batch.
    pub fn playouts_counted(
        &self,
        start: &Position,
        count: u64,
        seed: u64,
        max_plies: u64,
        threads: usize,
        done: &std::sync::atomic::AtomicU64,
    ) -> PlayoutStats {
        with_pos!(self, &start.inner, c, p => {
            c.playouts(p, count, seed, max_plies, threads, done)
        })
    }

    /// Every player's score, when the game declares one.
    pub fn scores_of(&self, pos: &Position) -> Option<Vec<i64>> {
        self.game().score.as_ref()?;
        Some(with_pos!(self, &pos.inner, c, p => c.scores(&p.st)))
    }

    /// The name of player `p` (in the order they move) as the file declares it.
    pub fn player_name(&self, p: u8) -> &str {
        &self.game().players[p as usize].name
    }

    /// A result as `regula moves` prints it after `result:`: the winner's name,
    /// `NAME loses` or `draw`.
    pub fn outcome_text(&self, o: Outcome) -> String {
        match o {
            Outcome::Win(p) => self.player_name(p).to_string(),
            Outcome::Lose(p) => format!("{} loses", self.player_name(p)),
            Outcome::Draw => "draw".into(),
        }
    }
}

impl Position {
    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> u32 {
        match &self.inner {
            PosInner::W1(p) => p.repetitions(),
            PosInner::W2(p) => p.repetitions(),
            PosInner::W4(p) => p.repetitions(),
            PosInner::W11(p) => p.repetitions(),
        }
    }
}

/// Runs `$body` with `$s` bound to the state of a position, whatever its size.
macro_rules! with_state {
    ($pos:expr, $s:ident => $body:expr) => {
        match &$pos.inner {
            PosInner::W1(p) => {
                let $s = &p.st;
                $body
            }
            PosInner::W2(p) => {
                let $s = &p.st;
                $body
            }
            PosInner::W4(p) => {
                let $s = &p.st;
                $body
            }
            PosInner::W11(p) => {
                let $s = &p.st;
                $body
            }
        }
    };
}

impl Position {
    /// The player to move.
    pub fn to_move(&self) -> u8 {
        with_state!(self, s => s.s.to_move)
    }

    /// Completed turns (a turn ends when the player to move changes).
    pub fn turns(&self) -> u32 {
        with_state!(self, s => s.s.turns)
    }

    /// Moves made by both players, passes included.
    pub fn ply(&self) -> u32 {
        with_state!(self, s => s.s.ply)
    }

    /// The raw content code of a cell (0 when empty); see `Engine::piece_at`.
    fn code_at(&self, c: Cell) -> u8 {
        with_state!(self, s => s.board[c as usize])
    }

    /// Whether a flag is set on a cell.
    pub fn flag(&self, f: u8, c: Cell) -> bool {
        with_state!(self, s => s.flags[f as usize].has(c))
    }

    /// How many pieces of a type a player holds in hand.
    pub fn in_hand(&self, player: u8, piece: u8) -> u16 {
        with_state!(self, s => s.hand[player as usize][piece as usize])
    }

    /// Bytes held by the history repetition needs (it grows by about eight a move).
    pub fn history_bytes(&self) -> usize {
        match &self.inner {
            PosInner::W1(p) => p.history.bytes(),
            PosInner::W2(p) => p.history.bytes(),
            PosInner::W4(p) => p.history.bytes(),
            PosInner::W11(p) => p.history.bytes(),
        }
    }

    /// The position hash (0 when the game has no repetition rule).
    pub fn hash(&self) -> u64 {
        with_state!(self, s => s.s.hash)
    }
}

impl PartialEq for Position {
    /// The same situation of the game (the histories are not compared).
    fn eq(&self, o: &Self) -> bool {
        match (&self.inner, &o.inner) {
            (PosInner::W1(a), PosInner::W1(b)) => a.st == b.st,
            (PosInner::W2(a), PosInner::W2(b)) => a.st == b.st,
            (PosInner::W4(a), PosInner::W4(b)) => a.st == b.st,
            (PosInner::W11(a), PosInner::W11(b)) => a.st == b.st,
            _ => false,
        }
    }
}

impl Engine {
    /// The piece on a cell: (owner, piece type), or `None` when the cell is empty. The
    /// owner is a player's index, or `players()` for a neutral piece.
    pub fn piece_at(&self, pos: &Position, c: Cell) -> Option<(u8, u8)> {
        let k = pos.code_at(c);
        (k != 0)
            .then(|| with_core!(self, c => (c.codes.owner[k as usize], c.codes.piece[k as usize])))
    }
}

// ---------- Positions as text, and what agents and pictures read ----------
//
// Kept together, apart from the engine's own code: the position notation (`text`), and
// read-only accessors for the agents (`crate::agents`) and drawings (`crate::picture`).

mod text;
pub use text::PositionError;

impl Engine {
    /// The position as one line of text (docs/POSITIONS.md); `parse_position` reads it back.
    pub fn position_text(&self, pos: &Position) -> String {
        with_pos!(self, &pos.inner, c, p => c.position_text(p))
    }

    /// Reads a position written in the notation of `position_text`.
    pub fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        let inner = match &self.inner {
            Inner::W1(c) => PosInner::W1(Box::new(c.parse_position(text)?)),
            Inner::W2(c) => PosInner::W2(Box::new(c.parse_position(text)?)),
            Inner::W4(c) => PosInner::W4(Box::new(c.parse_position(text)?)),
            Inner::W11(c) => PosInner::W11(Box::new(c.parse_position(text)?)),
        };
        Ok(Position { inner })
    }
}

impl Position {
    /// The cells the last move came from and went to (`NONE` before any move, and for
    /// the origin of a placement or a pass).
    pub fn last_move(&self) -> (Cell, Cell) {
        with_state!(self, s => (s.s.last_from, s.s.last_to))
    }
}
