//! A position: a state and the history repetition needs; playing and undoing moves on it,
//! and deciding its turn.

use super::Outcome;
use super::apply::Bare;
use super::core::Core;
use super::hash::History;
use super::state::{Frame, Move, MoveKind, State};

/// A state and the hashes of the positions before it.
#[derive(Debug)]
pub struct Pos<const W: usize> {
    pub st: State<W>,
    pub history: History,
}

impl<const W: usize> Clone for Pos<W> {
    fn clone(&self) -> Self {
        Pos {
            st: self.st.clone(),
            history: self.history.clone(),
        }
    }

    fn clone_from(&mut self, o: &Self) {
        self.st.clone_from(&o.st);
        self.history.clone_from(&o.history);
    }
}

impl<const W: usize> Pos<W> {
    /// Makes this position `o` again: see `State::reset_from`.
    pub fn reset_from(&mut self, o: &Self, cells: usize, pieces: usize, players: usize) {
        self.st.reset_from(&o.st, cells, pieces, players);
        // A game that keeps no history (no rule reads repetitions) has none to copy.
        if !(o.history.is_empty() && self.history.is_empty()) {
            self.history.clone_from(&o.history);
        }
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> u32 {
        self.history.repetitions()
    }

    /// Makes the moves played so far permanent: their undo data is dropped, and so is the
    /// history before the last irreversible move.
    pub fn commit(&mut self) {
        self.st.commit();
        self.history.commit();
    }
}

/// What undoes a move played with `Core::play`.
#[derive(Clone, Copy, Debug)]
pub enum Played {
    Logged(Frame),
    /// A move that `is_bare`, made with nothing logged.
    Bare(Bare),
}

impl<const W: usize> Core<W> {
    pub fn start_pos(&self) -> Pos<W> {
        let st = self.start();
        let mut history = History::default();
        if self.keys.is_some() {
            history.push(st.s.hash, true);
        }
        Pos { st, history }
    }

    /// Plays a move, recording the position for repetition.
    #[inline]
    pub fn play(&self, pos: &mut Pos<W>, m: &Move) -> Played {
        if self.keys.is_none() {
            // The cells, the hand and the turn, with no log entry (perft's last moves
            // before the counted ply, most of the time).
            if self.is_bare(m) {
                return Played::Bare(self.make_bare(&mut pos.st, m));
            }
            return Played::Logged(self.make(&mut pos.st, m));
        }
        let before = self.progress_key(&pos.st);
        let frame = self.make(&mut pos.st, m);
        debug_assert_eq!(
            pos.st.s.hash,
            self.hash(&pos.st),
            "incremental hash drifted"
        );
        let irreversible = m.kind == MoveKind::Place || self.progress_key(&pos.st) != before;
        pos.history.push(pos.st.s.hash, irreversible);
        Played::Logged(frame)
    }

    /// Undoes a move played with `play`.
    #[inline]
    pub fn undo(&self, pos: &mut Pos<W>, p: Played) {
        if self.keys.is_some() {
            pos.history.pop();
        }
        match p {
            Played::Bare(b) => self.unmake_bare(&mut pos.st, b),
            Played::Logged(frame) => self.unmake(&mut pos.st, frame),
        }
    }

    /// Decides the turn: either the game is over, or `moves` holds the legal moves (a lone
    /// pass when the rules force one).
    pub fn status(&self, pos: &mut Pos<W>, moves: &mut Vec<Move>) -> Option<Outcome> {
        self.legal_moves(&mut pos.st, moves);
        let reps = pos.repetitions();
        if let Some(o) = self.decide(&pos.st, moves.is_empty(), reps) {
            moves.clear();
            return Some(o);
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movegen::Scratch;
    use crate::engine::search::Rng;

    /// Random lines of play, taken back move by move with `undo`: every position on the
    /// way back is the one before the move, sets of cells included, whether the move was
    /// made bare or logged.
    #[test]
    fn undo_takes_back_what_play_made() {
        let mut bare = 0;
        for name in ["wolf-and-sheep", "tictactoe", "english-draughts", "othello"] {
            let core = Core::<1>::example(name);
            let mut sc = Scratch::default();
            for i in 0..40 {
                let mut rng = Rng::for_playout(13, i);
                let mut pos = core.start_pos();
                let mut line = Vec::new();
                for _ in 0..60 {
                    let Some(m) = core.random_legal(&mut pos.st, &mut rng, &mut sc) else {
                        break;
                    };
                    bare += core.is_bare(&m) as u32;
                    let before = pos.st.clone();
                    line.push((before, core.play(&mut pos, &m)));
                }
                while let Some((before, played)) = line.pop() {
                    core.undo(&mut pos, played);
                    assert!(pos.st == before, "{name}, playout {i}");
                    assert_eq!(pos.st.by_owner, before.by_owner, "{name}, playout {i}");
                    assert_eq!(pos.st.by_type, before.by_type, "{name}, playout {i}");
                    assert_eq!(pos.st.occupied, before.occupied, "{name}, playout {i}");
                }
            }
        }
        assert!(bare > 500, "only {bare} bare moves");
    }
}
