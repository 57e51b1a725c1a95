//! Whole-tree and random-game drivers: perft (the last ply counted in bulk, the root split
//! over threads) and uniformly random playouts (no move list, reproducible per seed
//! whatever the number of threads).

use super::Outcome;
use super::core::Core;
pub use super::hash::splitmix;
use super::movegen::Scratch;
use super::position::Pos;
use super::state::Move;

/// A small, fast, seedable generator (splitmix64): playouts are reproducible from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose numbers are fixed by the seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Uniform in `0..n` (n > 0), by the multiply-shift method.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((splitmix(&mut self.0) as u128 * n as u128) >> 64) as usize
    }

    /// The generator of playout `i` of a run seeded with `seed`: independent of which
    /// thread plays it.
    pub fn for_playout(seed: u64, i: u64) -> Rng {
        let mut s = seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Rng(splitmix(&mut s))
    }
}

/// A turn of more moves than this (rules whose `again` never lets the turn pass) stops a
/// playout: it is a mistake in the rules, not a game.
pub const MAX_TURN_MOVES: u32 = 1000;

/// How a playout stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended the game.
    Over(Outcome),
    /// `max_plies` reached.
    Cut,
    /// One player moved `MAX_TURN_MOVES` times in a row.
    Runaway,
}

/// Aggregate figures of a batch of playouts.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PlayoutStats {
    /// Playouts played.
    pub count: u64,
    /// Per player.
    pub wins: Vec<u64>,
    /// Per player: games this player lost while the others shared the result (three
    /// players or more).
    pub losses: Vec<u64>,
    /// Games drawn.
    pub draws: u64,
    /// Games cut at the most plies allowed before they ended.
    pub unfinished: u64,
    /// Playouts stopped because a turn never ended (see `MAX_TURN_MOVES`).
    pub runaway: u64,
    /// Moves played in all the playouts together, passes included.
    pub plies: u64,
    /// Wall-clock time of the whole batch, in seconds.
    pub seconds: f64,
}

impl PlayoutStats {
    fn add(&mut self, o: &PlayoutStats) {
        self.count += o.count;
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        if self.losses.len() < o.losses.len() {
            self.losses.resize(o.losses.len(), 0);
        }
        for (a, b) in self.losses.iter_mut().zip(&o.losses) {
            *a += b;
        }
        self.draws += o.draws;
        self.unfinished += o.unfinished;
        self.runaway += o.runaway;
        self.plies += o.plies;
    }
}

impl<const W: usize> Core<W> {
    /// Number of move sequences of length `depth` from `pos` (leaves of the game tree).
    /// `bufs` holds one move buffer per level reached; it grows only as deep as the game
    /// goes, whatever `depth` asks.
    pub fn perft(
        &self,
        pos: &mut Pos<W>,
        depth: u32,
        bufs: &mut Vec<Vec<Move>>,
        level: usize,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        if bufs.len() <= level {
            bufs.push(Vec::with_capacity(64));
        }
        if depth == 1 {
            // The last ply is counted, not played.
            let n = self.count_legal(&mut pos.st, &mut bufs[level]);
            let reps = pos.repetitions();
            if self.decide(&pos.st, n == 0, reps).is_some() {
                return 0;
            }
            return (n as u64).max(1);
        }
        let mut moves = std::mem::take(&mut bufs[level]);
        let total = if self.status(pos, &mut moves).is_some() {
            0
        } else {
            let mut total = 0;
            for m in &moves {
                let p = self.play(pos, m);
                total += self.perft(pos, depth - 1, bufs, level + 1);
                self.undo(pos, p);
            }
            total
        };
        bufs[level] = moves;
        total
    }

    /// Perft with the root moves shared among `threads` threads.
    pub fn perft_par(&self, pos: &Pos<W>, depth: u32, threads: usize) -> u64
    where
        Self: Sync,
    {
        let mut root = pos.clone();
        let mut moves = Vec::new();
        if depth < 3 || threads < 2 {
            return self.perft(&mut root, depth, &mut Vec::new(), 0);
        }
        if self.status(&mut root, &mut moves).is_some() {
            return 0;
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads.min(moves.len()))
                .map(|_| {
                    s.spawn(|| {
                        let mut p = pos.clone();
                        let mut bufs = Vec::new();
                        let mut sum = 0;
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(m) = moves.get(i) else { break };
                            let u = self.play(&mut p, m);
                            sum += self.perft(&mut p, depth - 1, &mut bufs, 0);
                            self.undo(&mut p, u);
                        }
                        sum
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a perft thread"))
                .sum()
        })
    }

    /// Plays uniformly random legal moves until the game ends, `max_plies` moves were
    /// played, or one player has moved `MAX_TURN_MOVES` times in a row. Returns how it
    /// stopped and the number of plies.
    pub fn playout(
        &self,
        pos: &mut Pos<W>,
        rng: &mut Rng,
        max_plies: u64,
        sc: &mut Scratch,
    ) -> (Ending, u64) {
        if self.plays_placed() {
            return self.playout_placed(pos, rng, max_plies, sc);
        }
        self.playout_listed(pos, rng, max_plies, sc)
    }

    /// `playout` by the general loop: draw, judge, play.
    pub fn playout_listed(
        &self,
        pos: &mut Pos<W>,
        rng: &mut Rng,
        max_plies: u64,
        sc: &mut Scratch,
    ) -> (Ending, u64) {
        if self.legal.is_some() {
            return self.playout_listed_in::<true>(pos, rng, max_plies, sc);
        }
        self.playout_listed_in::<false>(pos, rng, max_plies, sc)
    }

    /// `playout_listed`, with `JUDGED` when the game has `legal if`.
    #[inline(always)]
    fn playout_listed_in<const JUDGED: bool>(
        &self,
        pos: &mut Pos<W>,
        rng: &mut Rng,
        max_plies: u64,
        sc: &mut Scratch,
    ) -> (Ending, u64) {
        let mut plies = 0;
        // The drawn move, written where the draw makes it, and read in place.
        let mut m = None;
        loop {
            // Under `legal if`, the end rules are asked before the draw, as if a move were
            // to come: when they end nothing, the move drawn is kept as its judge made it
            // (`Kept`), not undone to be made again. The draws are the same either way.
            let ahead = JUDGED
                && plies < max_plies
                && pos.st.s.streak < MAX_TURN_MOVES
                && self.decide(&pos.st, false, pos.repetitions()).is_none();
            let before = if ahead { self.progress_key(&pos.st) } else { 0 };
            sc.keep.on = ahead;
            self.random_into(&mut pos.st, rng, sc, &mut m);
            sc.keep.on = false;
            if !(ahead && m.is_some())
                && let Some(e) = self.stops::<false>(pos, m.is_none(), plies, max_plies)
            {
                return (e, plies);
            }
            match (&m, if JUDGED { sc.keep.made.take() } else { None }) {
                (Some(m), Some(made)) => {
                    self.keep_played(pos, m, made, before);
                    pos.commit();
                }
                // Nothing to undo and no history to keep (no rule reads repetitions).
                (Some(m), None) if self.is_bare(&pos.st, m) => {
                    self.move_bare(&mut pos.st, m.piece, m.from, m.to)
                }
                (m, _) => {
                    self.play_forward(pos, m.as_ref().unwrap_or(&Move::PASS));
                    pos.commit();
                }
            }
            plies += 1;
        }
    }

    /// How a playout stops before its next move, if it does: the end rules (with
    /// `INLINE`, by `decide_inline`), then `max_plies`, then a runaway turn.
    #[inline(always)]
    pub fn stops<const INLINE: bool>(
        &self,
        pos: &Pos<W>,
        no_moves: bool,
        plies: u64,
        max_plies: u64,
    ) -> Option<Ending> {
        let decided = if INLINE {
            self.decide_inline(&pos.st, no_moves, pos.repetitions())
        } else {
            self.decide(&pos.st, no_moves, pos.repetitions())
        };
        if let Some(o) = decided {
            return Some(Ending::Over(o));
        }
        if plies >= max_plies {
            return Some(Ending::Cut);
        }
        (pos.st.s.streak >= MAX_TURN_MOVES).then_some(Ending::Runaway)
    }

    /// `count` playouts from `start`, playout `i` seeded from (`seed`, `i`), over
    /// `threads` threads. The statistics do not depend on the number of threads. `done`
    /// counts the playouts as they end.
    pub fn playouts(
        &self,
        start: &Pos<W>,
        count: u64,
        seed: u64,
        max_plies: u64,
        threads: usize,
        done: &std::sync::atomic::AtomicU64,
    ) -> PlayoutStats
    where
        Self: Sync,
    {
        let t0 = std::time::Instant::now();
        let threads = threads.clamp(1, count.max(1) as usize);
        let next = std::sync::atomic::AtomicU64::new(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        // Playouts are claimed and reported in runs: two atomic additions a playout
        // were about 1% of a short game's time. Runs stay short enough for every
        // thread to get a share of a small batch.
        let chunk = (count / (threads as u64 * 64)).clamp(1, 32);
        let run = || {
            let mut stats = PlayoutStats {
                wins: vec![0; self.players as usize],
                losses: vec![0; self.players as usize],
                ..Default::default()
            };
            let mut sc = Scratch::default();
            // One position per thread, reset from the start for each playout: its
            // buffers (undo log, history) are allocated once.
            let mut pos = start.clone();
            let (mut first, mut i, mut end) = (0, 0, 0);
            loop {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                if i == end {
                    first = next.fetch_add(chunk, std::sync::atomic::Ordering::Relaxed);
                    if first >= count {
                        break;
                    }
                    (i, end) = (first, (first + chunk).min(count));
                }
                pos.reset_from(
                    start,
                    self.geo.cells as usize,
                    self.moves.len(),
                    self.players as usize,
                );
                let mut rng = Rng::for_playout(seed, i);
                let (o, plies) = self.playout(&mut pos, &mut rng, max_plies, &mut sc);
                stats.count += 1;
                stats.plies += plies;
                i += 1;
                if i == end {
                    done.fetch_add(end - first, std::sync::atomic::Ordering::Relaxed);
                }
                match o {
                    Ending::Over(Outcome::Win(p)) => stats.wins[p as usize] += 1,
                    Ending::Over(Outcome::Lose(p)) => stats.losses[p as usize] += 1,
                    Ending::Over(Outcome::Draw) => stats.draws += 1,
                    Ending::Cut => stats.unfinished += 1,
                    Ending::Runaway => {
                        stats.runaway += 1;
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            }
            stats
        };
        let mut total = PlayoutStats {
            wins: vec![0; self.players as usize],
            losses: vec![0; self.players as usize],
            ..Default::default()
        };
        if threads == 1 {
            total.add(&run());
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads).map(|_| s.spawn(run)).collect();
                for h in handles {
                    total.add(&h.join().expect("a playout thread"));
                }
            });
        }
        total.seconds = t0.elapsed().as_secs_f64();
        total
    }
}
