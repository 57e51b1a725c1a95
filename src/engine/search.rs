//! Whole-tree and random-game drivers: perft and uniformly random playouts.

use super::state::Move;
use super::{Engine, Outcome, Position};

pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A small, fast, seedable generator (splitmix64): playouts are reproducible from a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// Uniform in `0..n` (n > 0), by the multiply-shift method.
    pub fn below(&mut self, n: usize) -> usize {
        ((splitmix(&mut self.0) as u128 * n as u128) >> 64) as usize
    }
}

impl Engine {
    /// Number of move sequences of length `depth` from `pos` (leaves of the game tree).
    pub fn perft(&self, pos: &mut Position, depth: u32) -> u64 {
        let mut bufs: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_rec(pos, depth, &mut bufs)
    }

    fn perft_rec(&self, pos: &mut Position, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per depth");
        if self.status(pos, buf).is_some() {
            return 0;
        }
        if depth == 1 {
            return buf.len() as u64;
        }
        let mut total = 0;
        for m in buf.iter() {
            let saved = pos.state.clone();
            self.play(pos, m);
            total += self.perft_rec(pos, depth - 1, rest);
            self.forget(pos);
            pos.state = saved;
        }
        total
    }

    /// Perft split by root move: (move in notation, count), sorted by notation.
    pub fn divide(&self, pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
        let mut buf = Vec::new();
        if depth == 0 || self.status(pos, &mut buf).is_some() {
            return vec![];
        }
        let mut out: Vec<(String, u64)> = buf
            .iter()
            .map(|m| {
                let saved = pos.state.clone();
                self.play(pos, m);
                let n = self.perft(pos, depth - 1);
                self.forget(pos);
                pos.state = saved;
                (self.notation(m), n)
            })
            .collect();
        out.sort();
        out
    }

    /// Plays uniformly random legal moves until the game ends, `max_plies` moves were
    /// played, or one player has moved `MAX_TURN_MOVES` times in a row. Returns how it
    /// stopped and the number of plies.
    pub fn playout(
        &self,
        pos: &mut Position,
        rng: &mut Rng,
        max_plies: u64,
        buf: &mut Vec<Move>,
    ) -> (Ending, u64) {
        let mut plies = 0;
        loop {
            if let Some(o) = self.status(pos, buf) {
                return (Ending::Over(o), plies);
            }
            if plies >= max_plies {
                return (Ending::Cut, plies);
            }
            if pos.state.streak >= MAX_TURN_MOVES {
                return (Ending::Runaway, plies);
            }
            let m = buf[rng.below(buf.len())];
            self.play(pos, &m);
            plies += 1;
        }
    }
}

/// A turn of more moves than this (rules whose `again` never lets the turn pass) stops a
/// playout: it is a mistake in the rules, not a game.
pub const MAX_TURN_MOVES: u32 = 1000;

/// How a playout stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Over(Outcome),
    /// `max_plies` reached.
    Cut,
    /// One player moved `MAX_TURN_MOVES` times in a row.
    Runaway,
}

/// Aggregate figures of a batch of playouts.
#[derive(Debug, Default, Clone)]
pub struct PlayoutStats {
    pub count: u64,
    pub wins: [u64; 2],
    pub draws: u64,
    pub unfinished: u64,
    /// Playouts stopped because a turn never ended (see `MAX_TURN_MOVES`).
    pub runaway: u64,
    pub plies: u64,
    pub seconds: f64,
}

impl Engine {
    pub fn playouts(&self, count: u64, seed: u64, max_plies: u64) -> PlayoutStats {
        let mut rng = Rng::new(seed);
        let mut stats = PlayoutStats {
            count,
            ..Default::default()
        };
        let start = self.start();
        let mut buf = Vec::with_capacity(256);
        let t0 = std::time::Instant::now();
        for _ in 0..count {
            let mut pos = start.clone();
            let (o, plies) = self.playout(&mut pos, &mut rng, max_plies, &mut buf);
            stats.plies += plies;
            match o {
                Ending::Over(Outcome::Win(p)) => stats.wins[p as usize] += 1,
                Ending::Over(Outcome::Draw) => stats.draws += 1,
                Ending::Cut => stats.unfinished += 1,
                Ending::Runaway => {
                    stats.runaway += 1;
                    stats.count = stats.wins.iter().sum::<u64>()
                        + stats.draws
                        + stats.unfinished
                        + stats.runaway;
                    break;
                }
            }
        }
        stats.seconds = t0.elapsed().as_secs_f64();
        stats
    }
}
