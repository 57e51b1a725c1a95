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
            if self.is_bare(&pos.st, m) {
                return Played::Bare(self.make_bare(&mut pos.st, m));
            }
            return Played::Logged(self.make(&mut pos.st, m));
        }
        let before = self.progress_key(&pos.st);
        let frame = self.make(&mut pos.st, m);
        self.record(pos, m, before);
        Played::Logged(frame)
    }

    /// `play` for a move that will not be undone (a playout's): nothing to undo it by is
    /// handed back.
    pub fn play_forward(&self, pos: &mut Pos<W>, m: &Move) {
        if self.keys.is_none() {
            if self.is_bare(&pos.st, m) {
                self.move_bare(&mut pos.st, m.piece, m.from, m.to);
            } else {
                self.make_forward(&mut pos.st, m);
            }
            return;
        }
        let before = self.progress_key(&pos.st);
        self.make_forward(&mut pos.st, m);
        self.record(pos, m, before);
    }

    /// Records the position a move `m` led to, for repetition; `before` is the progress
    /// key before it.
    #[inline(always)]
    fn record(&self, pos: &mut Pos<W>, m: &Move, before: u64) {
        debug_assert_eq!(
            pos.st.s.hash,
            self.hash(&pos.st),
            "incremental hash drifted"
        );
        let irreversible = m.kind == MoveKind::Place || self.progress_key(&pos.st) != before;
        pos.history.push(pos.st.s.hash, irreversible);
    }

    /// Completes `play` for a move its judge left made (`Kept`): the hash a bare move
    /// left out, and the history; `before` is the progress key before it.
    pub fn keep_played(&self, pos: &mut Pos<W>, m: &Move, made: Played, before: u64) {
        let Some(keys) = &self.keys else {
            return;
        };
        if let Played::Bare(b) = made {
            pos.st.s.hash = self.bare_hash(keys, &pos.st, &b);
        }
        self.record(pos, m, before);
    }

    /// Undoes a move played with `play`.
    #[inline]
    pub fn undo(&self, pos: &mut Pos<W>, p: Played) {
        if self.keys.is_some() {
            pos.history.pop();
        }
        self.unmake_played(&mut pos.st, p);
    }

    /// Undoes a move made bare or logged, on the state alone.
    #[inline]
    pub fn unmake_played(&self, st: &mut State<W>, p: Played) {
        match p {
            Played::Bare(b) => self.unmake_bare(st, b),
            Played::Logged(frame) => self.unmake(st, frame),
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
                    bare += core.is_bare(&pos.st, &m) as u32;
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

    /// Under `legal if`, the playout loop keeps each move as its judge made it
    /// (`keep_played`): it plays the games of a loop that draws, asks the end rules, then
    /// plays the move afresh, seed for seed, with the same hashes and history. The games
    /// have moves made bare (steps, placements from a hand) and in full (effects,
    /// `after move` blocks), and rules on repetitions.
    #[test]
    fn a_move_kept_as_judged_is_the_move_played_afresh() {
        let placed = "game \"T\" { }\nplayers { white black }\nboard 4 x 4\n\
            piece King letter K\npiece Man letter M\n\
            setup { white King a1  black King d4 }\n\
            hand { white Man 3  black Man 3 }\n\
            moves King { step all to not friend }\n\
            moves Man { place on empty  step orthogonal to empty }\n\
            legal if not (find friend King is attacked)\n\
            end { when no moves: next loses  when repetitions >= 3: draw }\n";
        let shipped = |name: &str| {
            let path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("games/{name}.game"));
            std::fs::read_to_string(path).expect("a shipped game")
        };
        let games = [
            ("placed", Core::<1>::of_text(placed)),
            ("shakti", Core::<1>::of_text(&shipped("shakti"))),
            ("shakhmaty", Core::<1>::of_text(&shipped("shakhmaty"))),
            ("chess", Core::<1>::example("chess")),
        ];
        let hashed = games.iter().filter(|(_, core)| core.keys.is_some()).count();
        assert!(hashed >= 2, "only {hashed} games keep a history");
        for (name, core) in &games {
            assert!(core.legal.is_some(), "{name}");
            let mut sc = Scratch::default();
            let mut plies = 0;
            for i in 0..30 {
                // Some playouts cut short, at any ply.
                let most = if i % 3 == 0 { i % 17 } else { 300 };
                let mut kept = core.start_pos();
                let ra = core.playout_listed(&mut kept, &mut Rng::for_playout(9, i), most, &mut sc);
                let (mut afresh, mut rng, mut n) = (core.start_pos(), Rng::for_playout(9, i), 0);
                let rb = loop {
                    let m = core.random_legal(&mut afresh.st, &mut rng, &mut sc);
                    if let Some(e) = core.stops::<false>(&afresh, m.is_none(), n, most) {
                        break (e, n);
                    }
                    core.play(&mut afresh, &m.unwrap_or(Move::PASS));
                    afresh.commit();
                    n += 1;
                };
                assert_eq!(ra, rb, "{name}, playout {i}");
                assert!(kept.st == afresh.st, "{name}, playout {i}");
                assert_eq!(kept.st.s.hash, core.hash(&kept.st), "{name}, playout {i}");
                assert_eq!(kept.st.s.hash, afresh.st.s.hash, "{name}, playout {i}");
                let history = |p: &Pos<1>| format!("{:?}", p.history);
                assert_eq!(history(&kept), history(&afresh), "{name}, playout {i}");
                plies += ra.1;
            }
            assert!(plies > 1000, "{name}: only {plies} plies");
        }
    }
}
