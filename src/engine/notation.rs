//! Moves and positions as text: canonical move notation, replaying moves written in it,
//! and the board drawn as text.

use super::state::{self, Move, MoveKind};
use super::{Engine, Inner, Outcome, Position, with_core};
use crate::diag::{Code, Diagnostic};

/// Why a move written as text could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move comes after the end of the game.
    #[error("move {} `{text}`: the game is already over (result: {result})", .index + 1)]
    GameOver {
        /// Index of the move in the list, from 0.
        index: usize,
        /// The move as written.
        text: String,
        /// How the game ended, as [`Engine::outcome_text`] writes it.
        result: String,
    },
    /// A move is not one of the legal moves of the position it is played in.
    #[error("move {} `{text}` is not legal for {player} here", .index + 1)]
    Illegal {
        /// Index of the move in the list, from 0.
        index: usize,
        /// The move as written.
        text: String,
        /// The name of the player to move.
        player: String,
        /// The legal moves there, sorted.
        legal: Vec<String>,
    },
}

impl ReplayError {
    /// Index of the offending move in the list, from 0.
    pub fn index(&self) -> usize {
        match self {
            ReplayError::GameOver { index, .. } | ReplayError::Illegal { index, .. } => *index,
        }
    }

    /// The error as a diagnostic (it has no place in the game file).
    pub fn diagnostic(&self) -> Diagnostic {
        match self {
            ReplayError::GameOver { .. } => Diagnostic::unlocated(Code::E0301, self.to_string()),
            ReplayError::Illegal { legal, .. } => {
                Diagnostic::unlocated(Code::E0300, self.to_string())
                    .with_hint(format!("legal moves: {}", legal.join(" ")))
            }
        }
    }
}

impl Engine {
    /// The name of a cell, `a1`.
    pub fn cell_name(&self, c: u16) -> String {
        self.board().name(c)
    }

    /// A move in canonical notation: `e2-e4`, `K@d4` (a placement, or a piece made from
    /// nothing), `e7-e8=Q` (a choice of piece), `c3-e5-c7` (a chain of hops), `d1-d7/g7`
    /// (a chosen cell; `x` instead of `/` when the choice removes a piece), an action's
    /// name, `pass`.
    pub fn notation(&self, m: &Move) -> String {
        let mut s = match m.kind {
            MoveKind::Pass => "pass".into(),
            MoveKind::Action => self.game().actions[m.piece as usize].name.clone(),
            MoveKind::Place | MoveKind::Create => format!(
                "{}@{}",
                self.game().pieces[m.piece as usize].letter,
                self.cell_name(m.to)
            ),
            MoveKind::Normal => {
                let mut s = self.cell_name(m.from);
                let path: &[u16] = if m.hops > 0 {
                    &m.path[..m.hops as usize]
                } else {
                    std::slice::from_ref(&m.to)
                };
                for &c in path {
                    s.push('-');
                    s.push_str(&self.cell_name(c));
                }
                s
            }
        };
        if m.choice != state::NO_CHOICE {
            s.push('=');
            s.push(self.game().pieces[m.choice as usize].letter);
        }
        if m.cell_choice != state::NONE {
            s.push(with_core!(self, c => c.choice_separator(m)));
            s.push_str(&self.cell_name(m.cell_choice));
        }
        s
    }

    /// Plays moves written in notation from the current position.
    pub fn replay(&self, pos: &mut Position, moves: &[&str]) -> Result<(), ReplayError> {
        let mut buf = Vec::new();
        for (index, text) in moves.iter().enumerate() {
            if let Some(o) = self.status(pos, &mut buf) {
                return Err(ReplayError::GameOver {
                    index,
                    text: text.to_string(),
                    result: self.outcome_text(o),
                });
            }
            match buf.iter().find(|m| self.notation(m) == *text) {
                Some(m) => {
                    let m = *m;
                    self.play(pos, &m);
                }
                None => {
                    let mut legal: Vec<String> = buf.iter().map(|m| self.notation(m)).collect();
                    legal.sort();
                    return Err(ReplayError::Illegal {
                        index,
                        text: text.to_string(),
                        player: self.player_name(pos.to_move()).to_string(),
                        legal,
                    });
                }
            }
        }
        Ok(())
    }

    /// The position as text: the board (first player's pieces in upper case), hands,
    /// scores, and who is to move or the result.
    pub fn render(&self, pos: &Position) -> String {
        use std::fmt::Write;
        let g = self.game();
        // A flag that starts on most cells marks presence (a tile): its absence shows as `#`.
        // Other flags mark something special: where set, an empty cell shows as `*`.
        let majority: Vec<bool> = g
            .flags
            .iter()
            .map(|f| f.initial.len() * 2 > self.cells() as usize)
            .collect();
        let glyph = |c: u16| match self.piece_at(pos, c) {
            Some((owner, piece)) => {
                let p = &g.pieces[piece as usize];
                match p.symbols.get(owner as usize) {
                    Some(&s) => s,
                    None if owner == 0 => p.letter,
                    None => p.letter.to_ascii_lowercase(),
                }
            }
            None if (0..majority.len()).any(|i| majority[i] && !pos.flag(i as u8, c)) => '#',
            None if (0..majority.len()).any(|i| !majority[i] && pos.flag(i as u8, c)) => '*',
            None => '.',
        };
        let mut out = self.board().draw(glyph);
        for p in 0..self.players() {
            let hand: Vec<String> = (0..g.pieces.len())
                .filter(|&i| pos.in_hand(p, i as u8) > 0)
                .map(|i| format!("{}x{}", pos.in_hand(p, i as u8), g.pieces[i].letter))
                .collect();
            if g.hand.iter().any(|h| h.0 == p) {
                let _ = writeln!(
                    out,
                    "in hand, {}: {}",
                    self.player_name(p),
                    if hand.is_empty() {
                        "none".into()
                    } else {
                        hand.join(" ")
                    }
                );
            }
        }
        if let Some(s) = self.scores_of(pos) {
            let parts: Vec<String> = s
                .iter()
                .enumerate()
                .map(|(p, v)| format!("{} {v}", self.player_name(p as u8)))
                .collect();
            let _ = writeln!(out, "score: {}", parts.join(", "));
        }
        let mut buf = Vec::new();
        match self.status(pos, &mut buf) {
            Some(o) => {
                let _ = writeln!(out, "result: {}", self.outcome_text(o));
            }
            None => {
                let _ = writeln!(out, "{} to move", self.player_name(pos.to_move()));
            }
        }
        out
    }
}

impl Outcome {
    /// The winner, if there is one.
    pub fn winner(self) -> Option<u8> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Lose(_) | Outcome::Draw => None,
        }
    }
}
