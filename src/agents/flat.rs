//! Flat Monte Carlo: the playouts of a move are shared evenly among the legal moves, each
//! followed by a random game; the move with the best mean reward for the mover is played.

use super::{Agent, Candidate, Choice, Report, playout};
use crate::engine::{Engine, Move, Position, Rng};

/// The `flat:PLAYOUTS` agent.
pub struct Flat {
    playouts: u64,
    rng: Rng,
    name: String,
}

impl Flat {
    /// `playouts` per move (at least one per legal move), drawn from `seed`; `name` is the
    /// spec shown in its reports.
    pub fn new(playouts: u64, seed: u64, name: String) -> Flat {
        Flat {
            playouts,
            rng: Rng::new(seed),
            name,
        }
    }
}

impl Agent for Flat {
    fn choose(&mut self, engine: &Engine, pos: &Position, legal: &[Move]) -> Choice {
        let t0 = std::time::Instant::now();
        let me = pos.to_move() as usize;
        let mut stats = vec![(0u64, 0.0f64); legal.len()];
        if legal.len() > 1 {
            for i in 0..self.playouts.max(legal.len() as u64) {
                let k = (i % legal.len() as u64) as usize;
                let mut next = pos.clone();
                engine.play(&mut next, &legal[k]);
                let r = playout(engine, next, &mut self.rng);
                stats[k].0 += 1;
                stats[k].1 += r[me];
            }
        }
        let mut order: Vec<usize> = (0..legal.len()).collect();
        let mean = |k: usize| stats[k].1 / stats[k].0.max(1) as f64;
        order.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
        let work = stats.iter().map(|s| s.0).sum();
        Choice {
            mv: legal[order[0]],
            report: Report {
                agent: self.name.clone(),
                work,
                unit: "playouts",
                seconds: t0.elapsed().as_secs_f64(),
                best: order
                    .iter()
                    .take(3)
                    .filter(|&&k| stats[k].0 > 0)
                    .map(|&k| Candidate {
                        mv: engine.notation(&legal[k]),
                        visits: stats[k].0,
                        value: mean(k),
                    })
                    .collect(),
                ..Report::default()
            },
        }
    }
}
