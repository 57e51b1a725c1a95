//! Integer action ids for the moves of any game, fixed per game and ruleset.
//!
//! A move is encoded from its structure, never from its place in a move list, so that the
//! same move has the same id in every position (what policy networks and OpenSpiel's
//! action space expect). With `N` cells, `P` piece types, `A` actions, `C` piece choices
//! (`P + 1` when some rule chooses a piece type, `=Q`, else 1) and `S` cell choices
//! (`N + 1` when some effect chooses a cell, `/c4`, else 1):
//!
//! - a move from a cell: `((from * N + to) * C + choice) * S + cell`;
//! - a placement or a piece made from nothing: `NORMAL + ((piece * N + to) * C + choice) * S + cell`;
//! - an action: `NORMAL + PLACE + index`; the pass: `NORMAL + PLACE + A`;
//! - then `OVERFLOW` ids for moves that share an id in a position (chains of hops between
//!   the same two cells by different paths): numbered in the notation order of the
//!   position's legal moves, so they are only meaningful with the position.
//!
//! `choice` is 0 for no choice, else the piece type + 1; `cell` is 0 for no chosen cell,
//! else the cell + 1. A chain of hops is encoded by its first and last cells.

use regula::engine::{Engine, Move, MoveKind, NO_CHOICE, NONE};
use regula::ir::visit::{self, Visitor};
use regula::ir::{Effect, Program, Stmt};

/// Ids set aside for moves whose structural ids collide in a position.
pub const OVERFLOW: u64 = 256;

/// The parts of a move an id encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parts {
    Step {
        from: u16,
        to: u16,
        choice: u8,
        cell: u16,
    },
    Place {
        piece: u8,
        to: u16,
        choice: u8,
        cell: u16,
    },
    Action(u8),
    Pass,
    Overflow(u64),
}

#[derive(Clone, Debug)]
pub struct Layout {
    pub cells: u64,
    pub pieces: u64,
    pub actions: u64,
    /// Piece choices per move (1, or pieces + 1).
    pub choices: u64,
    /// Cell choices per move (1, or cells + 1).
    pub cell_choices: u64,
}

/// Which kinds of choice a program's rules make.
#[derive(Default)]
struct Uses {
    piece_choice: bool,
    cell_choice: bool,
}

impl Visitor for Uses {
    fn stmt(&mut self, s: &Stmt) {
        if matches!(s, Stmt::ForPiece { .. }) {
            self.piece_choice = true;
        }
        visit::walk_stmt(self, s)
    }
    fn effect(&mut self, e: &Effect) {
        if matches!(e, Effect::Choose { .. }) {
            self.cell_choice = true;
        }
        visit::walk_effect(self, e)
    }
}

impl Layout {
    pub fn new(program: &Program) -> Layout {
        let mut uses = Uses::default();
        visit::walk_program(&mut uses, program);
        let g = &program.game;
        let cells = regula::geometry::Board::new(g.board.clone())
            .map(|b| b.cells() as u64)
            .unwrap_or(0);
        let pieces = g.pieces.len() as u64;
        Layout {
            cells,
            pieces,
            actions: g.actions.len() as u64,
            choices: if uses.piece_choice { pieces + 1 } else { 1 },
            cell_choices: if uses.cell_choice { cells + 1 } else { 1 },
        }
    }

    fn normal(&self) -> u64 {
        self.cells * self.cells * self.choices * self.cell_choices
    }

    fn place(&self) -> u64 {
        self.pieces * self.cells * self.choices * self.cell_choices
    }

    fn pass(&self) -> u64 {
        self.normal() + self.place() + self.actions
    }

    pub fn overflow_base(&self) -> u64 {
        self.pass() + 1
    }

    pub fn size(&self) -> u64 {
        self.overflow_base() + OVERFLOW
    }

    /// The id of a move's parts, or `None` when a choice does not fit the layout.
    pub fn encode(&self, p: Parts) -> Option<u64> {
        let tail = |choice: u8, cell: u16| -> Option<(u64, u64)> {
            let c = if choice == NO_CHOICE {
                0
            } else {
                choice as u64 + 1
            };
            let s = if cell == NONE { 0 } else { cell as u64 + 1 };
            (c < self.choices && s < self.cell_choices).then_some((c, s))
        };
        let n = self.cells;
        match p {
            Parts::Step {
                from,
                to,
                choice,
                cell,
            } => {
                let (c, s) = tail(choice, cell)?;
                let (f, t) = (from as u64, to as u64);
                (f < n && t < n).then(|| ((f * n + t) * self.choices + c) * self.cell_choices + s)
            }
            Parts::Place {
                piece,
                to,
                choice,
                cell,
            } => {
                let (c, s) = tail(choice, cell)?;
                let (k, t) = (piece as u64, to as u64);
                (k < self.pieces && t < n).then(|| {
                    self.normal() + ((k * n + t) * self.choices + c) * self.cell_choices + s
                })
            }
            Parts::Action(i) => {
                ((i as u64) < self.actions).then(|| self.normal() + self.place() + i as u64)
            }
            Parts::Pass => Some(self.pass()),
            Parts::Overflow(k) => (k < OVERFLOW).then(|| self.overflow_base() + k),
        }
    }

    pub fn decode(&self, id: u64) -> Option<Parts> {
        let n = self.cells;
        let split = |x: u64| -> (u64, u8, u16) {
            let s = x % self.cell_choices;
            let x = x / self.cell_choices;
            let c = x % self.choices;
            let x = x / self.choices;
            let choice = if c == 0 { NO_CHOICE } else { (c - 1) as u8 };
            let cell = if s == 0 { NONE } else { (s - 1) as u16 };
            (x, choice, cell)
        };
        if id < self.normal() {
            let (x, choice, cell) = split(id);
            return Some(Parts::Step {
                from: (x / n) as u16,
                to: (x % n) as u16,
                choice,
                cell,
            });
        }
        let id = id - self.normal();
        if id < self.place() {
            let (x, choice, cell) = split(id);
            return Some(Parts::Place {
                piece: (x / n) as u8,
                to: (x % n) as u16,
                choice,
                cell,
            });
        }
        let id = id - self.place();
        if id < self.actions {
            return Some(Parts::Action(id as u8));
        }
        let id = id - self.actions;
        if id == 0 {
            return Some(Parts::Pass);
        }
        (id - 1 < OVERFLOW).then_some(Parts::Overflow(id - 1))
    }
}

/// The structural parts of a generated move.
pub fn parts_of(m: &Move) -> Parts {
    match m.kind {
        MoveKind::Normal => Parts::Step {
            from: m.from,
            to: m.to,
            choice: m.choice,
            cell: m.cell_choice,
        },
        MoveKind::Place | MoveKind::Create => Parts::Place {
            piece: m.piece,
            to: m.to,
            choice: m.choice,
            cell: m.cell_choice,
        },
        MoveKind::Action => Parts::Action(m.piece),
        MoveKind::Pass => Parts::Pass,
    }
}

/// Parts written as text, without a position: the cell choice is written with `/` (the
/// position's legal moves know whether a game writes `x` there).
pub fn parts_text(engine: &Engine, p: Parts) -> String {
    let g = engine.game();
    let tail = |choice: u8, cell: u16| {
        let mut s = String::new();
        if choice != NO_CHOICE {
            s.push('=');
            s.push(g.pieces[choice as usize].letter);
        }
        if cell != NONE {
            s.push('/');
            s.push_str(&engine.cell_name(cell));
        }
        s
    };
    match p {
        Parts::Step {
            from,
            to,
            choice,
            cell,
        } => format!(
            "{}-{}{}",
            engine.cell_name(from),
            engine.cell_name(to),
            tail(choice, cell)
        ),
        Parts::Place {
            piece,
            to,
            choice,
            cell,
        } => format!(
            "{}@{}{}",
            g.pieces[piece as usize].letter,
            engine.cell_name(to),
            tail(choice, cell)
        ),
        Parts::Action(i) => g.actions[i as usize].name.clone(),
        Parts::Pass => "pass".into(),
        Parts::Overflow(k) => format!("<overflow {k}>"),
    }
}

/// Reads a move written in notation into its parts (a chain of hops by its first and
/// last cells), or `None` when the text is no move of this game.
pub fn parse_parts(engine: &Engine, text: &str) -> Option<Parts> {
    let g = engine.game();
    let board = engine.board();
    if text == "pass" {
        return Some(Parts::Pass);
    }
    if let Some(i) = g.actions.iter().position(|a| a.name == text) {
        return Some(Parts::Action(i as u8));
    }
    let letter = |c: char| g.pieces.iter().position(|p| p.letter == c).map(|i| i as u8);
    // The chosen cell follows the last `/` or `x` that is followed by a cell name.
    let (body, cell) = match text.rfind(['/', 'x']) {
        Some(i) if i > 0 => match board.cell(&text[i + 1..]) {
            Some(c) => (&text[..i], c),
            None => (text, NONE),
        },
        _ => (text, NONE),
    };
    let (body, choice) = match body.rsplit_once('=') {
        Some((b, l)) => {
            let mut chars = l.chars();
            let (c, rest) = (chars.next()?, chars.next());
            if rest.is_some() {
                return None;
            }
            (b, letter(c)?)
        }
        None => (body, NO_CHOICE),
    };
    if let Some((l, at)) = body.split_once('@') {
        let mut chars = l.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        return Some(Parts::Place {
            piece: letter(c)?,
            to: board.cell(at)?,
            choice,
            cell,
        });
    }
    let path: Vec<u16> = body
        .split('-')
        .map(|c| board.cell(c))
        .collect::<Option<_>>()?;
    if path.len() < 2 {
        return None;
    }
    Some(Parts::Step {
        from: path[0],
        to: *path.last()?,
        choice,
        cell,
    })
}

/// The ids of a position's legal moves (sorted by notation): each move's structural id,
/// or, for moves that share one, an overflow id in notation order.
pub fn assign(layout: &Layout, legal: &[Move]) -> Result<Vec<u64>, String> {
    let base: Vec<Option<u64>> = legal.iter().map(|m| layout.encode(parts_of(m))).collect();
    let mut count = std::collections::HashMap::new();
    for b in base.iter().flatten() {
        *count.entry(*b).or_insert(0u32) += 1;
    }
    let mut next = 0u64;
    base.iter()
        .map(|b| match b {
            Some(id) if count[id] == 1 => Ok(*id),
            _ => {
                let id = layout.encode(Parts::Overflow(next)).ok_or_else(|| {
                    format!(
                        "more than {OVERFLOW} legal moves here share an action id; use moves in notation"
                    )
                })?;
                next += 1;
                Ok(id)
            }
        })
        .collect()
}
