//! A shallow alpha-beta search over a general evaluation.
//!
//! The evaluation knows no game. It reads three things every game has or may declare:
//! - **material**: each player's pieces, on the board and in hand, each piece type weighed
//!   by how many moves a lone piece of that type has on an empty board, averaged over the
//!   cells (at least 1, so that pieces that never move, such as placed stones, count
//!   too). What a piece can do is what makes it worth having in any game the rules
//!   describe: in orthodox chess this gives Queen > Rook > Bishop > Knight > Pawn;
//! - **mobility**: the number of legal moves of the player to move, a tenth of a pawn
//!   each (for the searching player, against it for the others);
//! - **score**: when the game declares a score, the difference in scores.
//!
//! With more than two players, the search is "paranoid": every other player is assumed to
//! play against the searching one. Whether a player maximises or minimises depends on who
//! is to move, not on the depth, so rules that give a player several moves in a row are
//! searched correctly.

use super::{Agent, Candidate, Choice, Report};
use crate::engine::{Engine, Move, Outcome, Position, Rng};

const WIN: f64 = 1e6;

/// A fixed-depth alpha-beta search over the evaluation above; the `alphabeta:DEPTH` agent.
pub struct AlphaBeta {
    depth: u32,
    /// Per piece type.
    weights: Vec<f64>,
    nodes: u64,
    root: u8,
    rng: Rng,
    name: String,
}

impl AlphaBeta {
    /// A search `depth` plies deep with the piece weights of `engine`'s game; `name` is
    /// the spec shown in its reports.
    pub fn new(engine: &Engine, depth: u32, name: String) -> AlphaBeta {
        AlphaBeta {
            depth,
            weights: piece_weights(engine),
            nodes: 0,
            root: 0,
            rng: Rng::new(depth as u64),
            name,
        }
    }

    /// The position's value for the searching player, when the player to move has
    /// `mobility` legal moves.
    fn evaluate(&self, engine: &Engine, pos: &Position, mobility: usize) -> f64 {
        let players = engine.players();
        let mut material = vec![0.0; players as usize];
        for c in 0..engine.cells() {
            if let Some((owner, piece)) = engine.piece_at(pos, c)
                && owner < players
            {
                material[owner as usize] += self.weights[piece as usize];
            }
        }
        for p in 0..players {
            for (t, w) in self.weights.iter().enumerate() {
                material[p as usize] += pos.in_hand(p, t as u8) as f64 * w;
            }
        }
        let lead = |v: &[f64]| {
            let mine = v[self.root as usize];
            let best_other = (0..v.len())
                .filter(|&p| p != self.root as usize)
                .map(|p| v[p])
                .fold(f64::NEG_INFINITY, f64::max);
            if best_other.is_finite() {
                mine - best_other
            } else {
                mine
            }
        };
        let mut value = lead(&material);
        let sign = if pos.to_move() == self.root {
            1.0
        } else {
            -1.0
        };
        value += sign * 0.1 * mobility as f64;
        if let Some(scores) = engine.scores_of(pos) {
            let s: Vec<f64> = scores.iter().map(|&x| x as f64).collect();
            value += lead(&s);
        }
        value
    }

    fn search(
        &mut self,
        engine: &Engine,
        pos: &Position,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
    ) -> f64 {
        self.nodes += 1;
        let mut moves = Vec::new();
        if let Some(o) = engine.status(pos, &mut moves) {
            return self.result(o, ply);
        }
        if depth == 0 {
            let mobility = if moves == [Move::PASS] {
                0
            } else {
                moves.len()
            };
            return self.evaluate(engine, pos, mobility);
        }
        let maximise = pos.to_move() == self.root;
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for m in &moves {
            let mut next = pos.clone();
            engine.play(&mut next, m);
            let v = self.search(engine, &next, depth - 1, alpha, beta, ply + 1);
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn result(&self, o: Outcome, ply: u32) -> f64 {
        match o {
            // Sooner wins and later losses are better.
            Outcome::Win(p) if p == self.root => WIN - ply as f64,
            Outcome::Win(_) => -WIN + ply as f64,
            Outcome::Lose(p) if p == self.root => -WIN + ply as f64,
            // Another player lost and the root shares the rest: better than a draw, short
            // of a win.
            Outcome::Lose(_) => (WIN - ply as f64) / 2.0,
            Outcome::Draw => 0.0,
        }
    }
}

impl Agent for AlphaBeta {
    fn choose(&mut self, engine: &Engine, pos: &Position, legal: &[Move]) -> Choice {
        let t0 = std::time::Instant::now();
        self.nodes = 0;
        self.root = pos.to_move();
        // Equal moves are played in a random order rather than always the first.
        let mut order: Vec<(Move, f64)> = legal.iter().map(|&m| (m, 0.0)).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.below(i + 1));
        }
        let mut reached = 0;
        if legal.len() > 1 {
            for depth in 1..=self.depth {
                let mut alpha = f64::NEG_INFINITY;
                for entry in order.iter_mut() {
                    let mut next = pos.clone();
                    engine.play(&mut next, &entry.0);
                    let v = self.search(engine, &next, depth - 1, alpha, f64::INFINITY, 1);
                    entry.1 = v;
                    alpha = alpha.max(v);
                }
                // The best first: it is searched first at the next depth.
                order.sort_by(|a, b| b.1.total_cmp(&a.1));
                reached = depth;
                if order[0].1.abs() >= WIN - 1000.0 {
                    break;
                }
            }
        }
        Choice {
            mv: order[0].0,
            report: Report {
                agent: self.name.clone(),
                work: self.nodes,
                unit: "positions",
                seconds: t0.elapsed().as_secs_f64(),
                depth: (reached > 0).then_some(reached),
                score: (reached > 0).then_some(order[0].1),
                best: order
                    .iter()
                    .take(3)
                    .map(|(m, _)| Candidate {
                        mv: engine.notation(m),
                        visits: 0,
                        value: 0.0,
                    })
                    .collect(),
                ..Report::default()
            },
        }
    }
}

/// Per piece type: the mean number of moves of a lone piece of that type (the first
/// player's, with empty hands) over the cells of the board, at least 1.
pub fn piece_weights(engine: &Engine) -> Vec<f64> {
    let g = engine.game();
    let board = engine.board();
    let (width, height) = board.extent();
    let mut buf = Vec::new();
    g.pieces
        .iter()
        .map(|piece| {
            let mut total = 0usize;
            for cell in 0..engine.cells() {
                let mut ranks = Vec::new();
                for r in (0..height).rev() {
                    let mut rank = String::new();
                    let mut empty = 0;
                    for c in (0..width).filter_map(|f| board.at(f, r)) {
                        if c == cell {
                            if empty > 0 {
                                rank += &empty.to_string();
                            }
                            empty = 0;
                            rank.push(piece.letter);
                        } else {
                            empty += 1;
                        }
                    }
                    if empty > 0 {
                        rank += &empty.to_string();
                    }
                    ranks.push(rank);
                }
                let text = format!("{} {} hand=-", ranks.join("/"), g.players[0].name);
                let Ok(pos) = engine.parse_position(&text) else {
                    continue;
                };
                if engine.status(&pos, &mut buf).is_none() && buf != [Move::PASS] {
                    total += buf.len();
                }
            }
            (total as f64 / engine.cells().max(1) as f64).max(1.0)
        })
        .collect()
}
