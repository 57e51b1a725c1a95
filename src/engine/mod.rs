//! Stage 3: IR → play. [`Engine::new`] runs the IR passes and builds the runtime tables
//! once (the board's geometry, leap targets, regions as bit sets, reach sets, hash keys);
//! the engine then answers what the legal moves are, plays them, and says when and how
//! the game ends.
//!
//! - `evaluate`: cell tests, cells, conditions and numbers (pure);
//! - `generate`: move rules → candidate moves, handed to a closure;
//! - `movegen`: the legal moves of a position (candidates, duplicates, `legal if`);
//! - `apply`: playing a move with its effects;
//! - `status`: end rules, forced passes, results and scores;
//! - `hash`: the position hash and the history repetition needs;
//! - `notation`: moves and boards as text, and replaying moves written as text;
//! - `search`: perft and random playouts; `passes`: IR rewrites; `state`: the state.

mod apply;
mod evaluate;
mod generate;
mod hash;
mod movegen;
mod notation;
pub mod passes;
pub mod search;
pub mod state;
mod status;

use crate::geometry::Board;
use crate::ir::{self, Program, Stmt};
pub use evaluate::Ctx;
pub use hash::Position;
pub use notation::ReplayError;
use state::Bits;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Draw,
}

pub struct Engine {
    pub program: Program,
    board: Board,
    pub cells: u16,
    /// Per player: the absolute direction its `forward` means.
    forward: [u8; 2],
    /// Per leap: targets of every cell, as ranges into `leap_cells`.
    leap_index: Vec<Vec<(u32, u32)>>,
    leap_cells: Vec<u16>,
    /// Per region, per player.
    regions: Vec<[Bits; 2]>,
    /// Rules used for `attacked` and `count attacks`, per piece type.
    attack_rules: Vec<Vec<Stmt>>,
    /// Per piece type and origin: every cell its attack rules could ever reach.
    reach: Vec<Vec<Bits>>,
    /// Whether a piece type has several rules that could produce the same move.
    may_duplicate: Vec<bool>,
    zobrist: hash::Keys,
    /// Precomputed cell tests (see `passes::tables`).
    tables: Vec<Box<passes::Table>>,
}

impl Engine {
    /// Builds an engine for a checked program.
    pub fn new(program: Program) -> Engine {
        Engine::build(program, true)
    }

    /// Builds an engine, with or without the IR passes (which must not change what the
    /// game does: a test compares the two).
    pub(crate) fn build(mut program: Program, passes: bool) -> Engine {
        let board =
            Board::new(program.game.board.clone()).expect("the checker only accepts valid boards");
        let cells = board.cells();
        let g = &program.game;
        let mut leap_index = Vec::new();
        let mut leap_cells = Vec::new();
        for offsets in &g.leaps {
            let idx = (0..cells)
                .map(|c| {
                    let start = leap_cells.len() as u32;
                    leap_cells.extend(board.leap_targets(c, offsets));
                    (start, leap_cells.len() as u32)
                })
                .collect();
            leap_index.push(idx);
        }
        let regions: Vec<[Bits; 2]> = g
            .regions
            .iter()
            .map(|r| {
                let mut b = [Bits::default(); 2];
                for (p, cells) in r.cells.iter().enumerate().take(2) {
                    for &c in cells {
                        b[p].set(c, true);
                    }
                }
                b
            })
            .collect();
        let forward = [0, 1].map(|p| g.players.get(p).and_then(|pl| pl.forward).unwrap_or(0));
        let mut tables = Vec::new();
        if passes {
            passes::hoist::run(&mut program);
            let mut compiler = passes::tables::Compiler::new(&regions, cells);
            compiler.program(&mut program);
            tables = compiler.tables;
        }
        let g = &program.game;
        let attack_rules: Vec<Vec<Stmt>> = (0..g.pieces.len())
            .map(|p| g.attacks[p].clone().unwrap_or_else(|| g.moves[p].clone()))
            .collect();
        let may_duplicate = g.moves.iter().map(|m| movegen::emitters(m) > 1).collect();
        let mut e = Engine {
            zobrist: hash::Keys::new(cells),
            program,
            board,
            cells,
            forward,
            leap_index,
            leap_cells,
            regions,
            attack_rules,
            reach: vec![],
            may_duplicate,
            tables,
        };
        e.reach = (0..e.attack_rules.len())
            .map(|p| {
                (0..cells)
                    .map(|c| e.reach_of(&e.attack_rules[p], c))
                    .collect()
            })
            .collect();
        e
    }

    fn leap_targets(&self, leap: u16, from: u16) -> &[u16] {
        let (s, t) = self.leap_index[leap as usize][from as usize];
        &self.leap_cells[s as usize..t as usize]
    }

    pub fn game(&self) -> &ir::Game {
        &self.program.game
    }

    /// The board's geometry: cells, names, directions, drawing.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn player_name(&self, p: u8) -> &str {
        &self.game().players[p as usize].name
    }

    pub fn outcome_text(&self, o: Outcome) -> String {
        match o {
            Outcome::Win(p) => self.player_name(p).to_string(),
            Outcome::Draw => "draw".into(),
        }
    }
}
