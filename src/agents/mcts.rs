//! Monte Carlo tree search (UCT) over the engine's random playouts.
//!
//! Root parallelisation: each thread grows a tree of its own from the same position with
//! its own random numbers, and the visit counts of the root's moves are added up; the most
//! visited move is played. Trees are kept between moves: after a move is played (by
//! anyone), each tree keeps the subtree below it.

use super::{Agent, Budget, Candidate, Choice, Report, playout, rewards};
use crate::engine::search::Ending;
use crate::engine::{Engine, Move, Position, Rng};
use std::time::Instant;

/// The exploration constant of UCB1 for rewards in 0..1.
const EXPLORATION: f64 = 0.7;
/// Most nodes of all trees together (a few hundred bytes each): past it, a search goes on
/// with playouts from the leaves it has, without growing, so that long searches of fast
/// games stay within memory.
const MAX_NODES: usize = 1 << 20;

struct Node {
    /// The move that leads here from the parent.
    mv: Move,
    /// Who played `mv`: the rewards of this node are that player's.
    mover: u8,
    children: Vec<u32>,
    /// Legal moves not yet given a child; `None` until the node is first expanded.
    untried: Option<Vec<Move>>,
    /// The result, when the game is over here.
    over: Option<Vec<f64>>,
    visits: u64,
    reward: f64,
}

impl Node {
    fn new(mv: Move, mover: u8) -> Node {
        Node {
            mv,
            mover,
            children: Vec::new(),
            untried: None,
            over: None,
            visits: 0,
            reward: 0.0,
        }
    }
}

/// One thread's tree; node 0 is the root.
struct Tree {
    root: Position,
    nodes: Vec<Node>,
    rng: Rng,
    /// Most nodes this tree may hold.
    limit: usize,
}

impl Tree {
    fn new(root: Position, rng: Rng, limit: usize) -> Tree {
        let mover = root.to_move();
        Tree {
            root,
            nodes: vec![Node::new(Move::PASS, mover)],
            rng,
            limit,
        }
    }

    /// One iteration: select down the tree, add a node, play a random game from it, and
    /// add its result to every node on the way.
    fn iterate(&mut self, engine: &Engine, buf: &mut Vec<Move>) {
        let mut pos = self.root.clone();
        let mut path = vec![0u32];
        let mut n = 0usize;
        let result = loop {
            if let Some(r) = &self.nodes[n].over {
                break r.clone();
            }
            if self.nodes[n].untried.is_none() {
                if let Some(o) = engine.status(&pos, buf) {
                    let r = rewards(engine, Ending::Over(o));
                    self.nodes[n].over = Some(r.clone());
                    break r;
                }
                self.nodes[n].untried = Some(buf.clone());
            }
            let full = self.nodes.len() >= self.limit;
            let untried = self.nodes[n].untried.as_mut().expect("expanded above");
            if !untried.is_empty() && !full {
                let k = self.rng.below(untried.len());
                let mv = untried.swap_remove(k);
                let mover = pos.to_move();
                engine.play(&mut pos, &mv);
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(mv, mover));
                self.nodes[n].children.push(child);
                path.push(child);
                break playout(engine, pos, &mut self.rng);
            }
            if self.nodes[n].children.is_empty() {
                // The trees are full: play on from this leaf without growing.
                break playout(engine, pos, &mut self.rng);
            }
            let parent_visits = self.nodes[n].visits.max(1) as f64;
            let log = parent_visits.ln();
            let best = self.nodes[n]
                .children
                .iter()
                .copied()
                .max_by(|&a, &b| {
                    let ucb = |c: u32| {
                        let c = &self.nodes[c as usize];
                        let v = c.visits.max(1) as f64;
                        c.reward / v + EXPLORATION * (log / v).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("children, checked above");
            engine.play(&mut pos, &self.nodes[best as usize].mv);
            path.push(best);
            n = best as usize;
        };
        for &k in &path {
            let node = &mut self.nodes[k as usize];
            node.visits += 1;
            node.reward += result[node.mover as usize];
        }
    }

    /// Keeps the subtree below `mv`; false when the tree never explored it (the move is
    /// then not played here: it may belong to another position).
    fn advance(&mut self, engine: &Engine, mv: &Move) -> bool {
        let child = self.nodes[0]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c as usize].mv == *mv);
        let Some(child) = child else {
            return false;
        };
        let mut next = self.root.clone();
        engine.play(&mut next, mv);
        // Copy the subtree into a new arena, parents before children.
        let mut old = std::mem::take(&mut self.nodes);
        let mut order = vec![child];
        let mut i = 0;
        while i < order.len() {
            order.extend(old[order[i] as usize].children.iter().copied());
            i += 1;
        }
        let mut index = vec![u32::MAX; old.len()];
        for (new, &o) in order.iter().enumerate() {
            index[o as usize] = new as u32;
        }
        let mut nodes = Vec::with_capacity(order.len());
        for &o in &order {
            let mut node = std::mem::replace(&mut old[o as usize], Node::new(Move::PASS, 0));
            for c in &mut node.children {
                *c = index[*c as usize];
            }
            nodes.push(node);
        }
        self.nodes = nodes;
        self.root = next;
        true
    }
}

/// The `mcts:BUDGET` agent: one tree per thread, kept from move to move.
pub struct Mcts {
    budget: Budget,
    threads: usize,
    trees: Vec<Tree>,
    seed: u64,
    moves_seen: u64,
    name: String,
}

impl Mcts {
    /// A search of `budget` per move on `threads` trees (at least one), drawn from
    /// `seed`; `name` is the spec shown in its reports.
    pub fn new(budget: Budget, seed: u64, threads: usize, name: String) -> Mcts {
        Mcts {
            budget,
            threads: threads.max(1),
            trees: Vec::new(),
            seed,
            moves_seen: 0,
            name,
        }
    }
}

impl Agent for Mcts {
    fn choose(&mut self, engine: &Engine, pos: &Position, legal: &[Move]) -> Choice {
        let t0 = Instant::now();
        if self.trees.len() != self.threads || self.trees.iter().any(|t| t.root != *pos) {
            let seed = self.seed ^ self.moves_seen.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.trees = (0..self.threads as u64)
                .map(|t| {
                    let limit = MAX_NODES / self.threads;
                    Tree::new(pos.clone(), Rng::for_playout(seed, t), limit)
                })
                .collect();
        }
        let reused: u64 = self.trees.iter().map(|t| t.nodes[0].visits).sum();
        if legal.len() > 1 {
            let budget = self.budget;
            let threads = self.threads as u64;
            let run = |(t, tree): (u64, &mut Tree)| {
                let mut buf = Vec::new();
                let mut done = 0u64;
                loop {
                    let more = match budget {
                        Budget::Iterations(n) => done < n / threads + u64::from(t < n % threads),
                        Budget::Time(d) => done == 0 || t0.elapsed() < d,
                    };
                    if !more {
                        break;
                    }
                    tree.iterate(engine, &mut buf);
                    done += 1;
                }
            };
            if self.trees.len() == 1 {
                run((0, &mut self.trees[0]));
            } else {
                std::thread::scope(|s| {
                    for (t, tree) in self.trees.iter_mut().enumerate() {
                        s.spawn(move || run((t as u64, tree)));
                    }
                });
            }
        }
        // Root statistics, added up over the trees.
        let mut stats: Vec<(Move, u64, f64)> = Vec::new();
        for tree in &self.trees {
            for &c in &tree.nodes[0].children {
                let node = &tree.nodes[c as usize];
                match stats.iter_mut().find(|s| s.0 == node.mv) {
                    Some(s) => {
                        s.1 += node.visits;
                        s.2 += node.reward;
                    }
                    None => stats.push((node.mv, node.visits, node.reward)),
                }
            }
        }
        stats.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        let mv = stats
            .first()
            .map(|s| s.0)
            .filter(|m| legal.contains(m))
            .unwrap_or(legal[0]);
        let total: u64 = self.trees.iter().map(|t| t.nodes[0].visits).sum();
        Choice {
            mv,
            report: Report {
                agent: self.name.clone(),
                work: total - reused,
                unit: "iterations",
                seconds: t0.elapsed().as_secs_f64(),
                reused,
                best: stats
                    .iter()
                    .take(3)
                    .map(|s| Candidate {
                        mv: engine.notation(&s.0),
                        visits: s.1,
                        value: s.2 / s.1.max(1) as f64,
                    })
                    .collect(),
                ..Report::default()
            },
        }
    }

    fn observe(&mut self, engine: &Engine, mv: &Move) {
        self.moves_seen += 1;
        if !self.trees.iter_mut().all(|t| t.advance(engine, mv)) {
            self.trees.clear();
        }
    }

    fn reset(&mut self) {
        self.trees.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_tree_keeps_searching_without_growing() {
        let engine = crate::load_str(
            "players { white black }\nboard 3 x 3\npiece Mark letter X\nhand { white Mark 5  black Mark 4 }\nmoves Mark { place on empty }\nend { when no moves: draw }\n",
        )
        .unwrap();
        let mut tree = Tree::new(engine.start(), Rng::new(1), 50);
        let mut buf = Vec::new();
        for _ in 0..500 {
            tree.iterate(&engine, &mut buf);
        }
        assert_eq!(tree.nodes.len(), 50);
        assert_eq!(tree.nodes[0].visits, 500);
        let below: u64 = tree.nodes[0]
            .children
            .iter()
            .map(|&c| tree.nodes[c as usize].visits)
            .sum();
        assert_eq!(
            below, 500,
            "every iteration went through a child of the root"
        );
    }
}
