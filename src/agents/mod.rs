//! Agents: players that choose moves for any game, knowing only the engine's API.
//!
//! Every agent implements [`Agent`]: given the engine, a position and its legal moves, it
//! returns a move and a [`Report`] of what it thought. Agents are built from a spec
//! ([`Spec`], written `random`, `flat:500`, `mcts:2s`, `mcts:5000`, `alphabeta:3` or
//! `human` on the command line). Rewards are per player (a win is 1 for the winner and 0
//! for the others, a draw `1/players` each), so every agent plays games of any number of
//! players; alpha-beta assumes every other player is against it.

mod alphabeta;
mod flat;
mod mcts;

use crate::diag::suggest;
use crate::engine::search::Ending;
use crate::engine::{Engine, Move, Outcome, Position, Rng};
use std::fmt;
use std::time::Duration;

pub use alphabeta::{AlphaBeta, piece_weights};
pub use flat::Flat;
pub use mcts::Mcts;

/// A player that chooses moves.
pub trait Agent: Send {
    /// Chooses one of `legal` (the moves `Engine::status` gave for `pos`, never empty).
    fn choose(&mut self, engine: &Engine, pos: &Position, legal: &[Move]) -> Choice;

    /// Told every move played in the game (its own and others'), after it is played, so
    /// that it can keep what it learnt about the position that follows.
    fn observe(&mut self, _engine: &Engine, _mv: &Move) {}

    /// Forgets everything about the game in progress (after an undo, or a new game).
    fn reset(&mut self) {}
}

/// A move and what led to it.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move chosen, one of the legal moves the agent was given.
    pub mv: Move,
    /// What the agent thought on the way.
    pub report: Report,
}

/// What an agent thought: how much it searched and how it rated the best moves.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The agent's spec, such as `mcts:2s`.
    pub agent: String,
    /// Playouts (Monte Carlo), iterations (MCTS) or positions searched (alpha-beta).
    pub work: u64,
    /// What `work` counts: "playouts", "iterations", "positions".
    pub unit: &'static str,
    /// Wall-clock time the choice took, in seconds.
    pub seconds: f64,
    /// Work carried over from the previous move's search (MCTS tree reuse).
    pub reused: u64,
    /// Depth reached (alpha-beta).
    pub depth: Option<u32>,
    /// Score of the chosen move from the mover's point of view (alpha-beta).
    pub score: Option<f64>,
    /// The best moves, best first.
    pub best: Vec<Candidate>,
}

/// A move the agent considered.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The move in the game's notation (`e2-e4`).
    pub mv: String,
    /// Playouts or visits through this move.
    pub visits: u64,
    /// Mean reward for the mover, 0 to 1 (a win rate, a draw counting 1/players).
    pub value: f64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.agent)?;
        if self.work > 0 {
            write!(
                f,
                " {} {} in {:.2} s ({:.0}/s)",
                self.work,
                self.unit,
                self.seconds,
                self.work as f64 / self.seconds.max(1e-9)
            )?;
        }
        if self.reused > 0 {
            write!(f, ", {} kept from the last move", self.reused)?;
        }
        if let Some(d) = self.depth {
            write!(f, ", depth {d}")?;
        }
        if let Some(s) = self.score {
            write!(f, ", score {s:+.2}")?;
        }
        if !self.best.is_empty() {
            let best: Vec<String> = self
                .best
                .iter()
                .map(|c| {
                    if c.visits > 0 {
                        format!("{} ({} visits, {:.0}%)", c.mv, c.visits, 100.0 * c.value)
                    } else {
                        c.mv.clone()
                    }
                })
                .collect();
            write!(f, "; best {}", best.join(", "))?;
        }
        Ok(())
    }
}

/// How long an agent may think about a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// This many iterations per move, shared among the threads (`mcts:5000`): the
    /// choices depend on the seed and the number of threads, not on the machine's speed.
    Iterations(u64),
    /// As many iterations as fit in this wall-clock time per move (`mcts:2s`).
    Time(Duration),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Time(d) if d.as_millis() % 1000 == 0 => write!(f, "{}s", d.as_secs()),
            Budget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// An agent as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// `human`: a person at the terminal; no [`Agent`] is built for it.
    Human,
    /// `random`: a uniformly random legal move.
    Random,
    /// Flat Monte Carlo: this many playouts per move, shared among the legal moves.
    Flat(u64),
    /// Monte Carlo tree search (UCT) with this budget per move.
    Mcts(Budget),
    /// Alpha-beta search to this depth.
    AlphaBeta(u32),
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Human => write!(f, "human"),
            Spec::Random => write!(f, "random"),
            Spec::Flat(n) => write!(f, "flat:{n}"),
            Spec::Mcts(b) => write!(f, "mcts:{b}"),
            Spec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
        }
    }
}

/// Why an agent spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SpecError {
    /// What is wrong, quoting the spec.
    pub message: String,
    /// How to write it instead.
    pub hint: String,
}

const KINDS: &[&str] = &["human", "random", "flat", "mcts", "alphabeta"];
const FORMS: &str = "agents are human, random, flat:PLAYOUTS, mcts:TIME or mcts:ITERATIONS (mcts:2s, mcts:200ms, mcts:5000), alphabeta:DEPTH";
/// The deepest alpha-beta search accepted: deeper ones would not finish in a game's time.
pub const MAX_DEPTH: u32 = 12;

impl std::str::FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let err = |message: String, hint: &str| SpecError {
            message,
            hint: hint.to_string(),
        };
        let (kind, arg) = match text.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (text, None),
        };
        let count = |a: &str, what: &str, example: &str| -> Result<u64, SpecError> {
            match a.parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(err(
                    format!("`{a}` is not a number of {what} in `{text}`"),
                    &format!("write a whole number above 0: `{example}`"),
                )),
            }
        };
        match (kind, arg) {
            ("human", None) => Ok(Spec::Human),
            ("random", None) => Ok(Spec::Random),
            ("flat", None) => Ok(Spec::Flat(500)),
            ("flat", Some(a)) => Ok(Spec::Flat(count(a, "playouts", "flat:500")?)),
            ("mcts", None) => Ok(Spec::Mcts(Budget::Time(Duration::from_secs(1)))),
            ("mcts", Some(a)) => parse_budget(a).map(Spec::Mcts).ok_or_else(|| {
                err(
                    format!("`{a}` is not a budget in `{text}`"),
                    "write a time (`mcts:2s`, `mcts:200ms`, `mcts:1.5s`) or a number of iterations (`mcts:5000`)",
                )
            }),
            ("alphabeta", None) => Ok(Spec::AlphaBeta(3)),
            ("alphabeta", Some(a)) => {
                let d = count(a, "plies", "alphabeta:3")?;
                if d > MAX_DEPTH as u64 {
                    return Err(err(
                        format!("depth {d} is too deep in `{text}`"),
                        &format!("alpha-beta searches at most {MAX_DEPTH} plies"),
                    ));
                }
                Ok(Spec::AlphaBeta(d as u32))
            }
            ("human" | "random", Some(_)) => Err(err(
                format!("`{kind}` takes no argument: `{text}`"),
                &format!("write `{kind}`"),
            )),
            _ => {
                let hint = match suggest(kind, KINDS.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? {FORMS}"),
                    None => FORMS.to_string(),
                };
                Err(err(format!("unknown agent `{text}`"), &hint))
            }
        }
    }
}

/// `2s`, `200ms`, `1.5s` (a time) or `5000` (iterations).
fn parse_budget(a: &str) -> Option<Budget> {
    let time = |num: &str, scale: f64| {
        let v: f64 = num.parse().ok()?;
        (v.is_finite() && v > 0.0 && v * scale <= 86_400.0)
            .then(|| Budget::Time(Duration::from_secs_f64(v * scale)))
    };
    if let Some(ms) = a.strip_suffix("ms") {
        time(ms, 0.001)
    } else if let Some(s) = a.strip_suffix('s') {
        time(s, 1.0)
    } else {
        a.parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .map(Budget::Iterations)
    }
}

impl Spec {
    /// The agent, or `None` for a human. `seed` makes its choices reproducible (when its
    /// budget is not a time); `threads` is how many cores it may use.
    pub fn build(&self, engine: &Engine, seed: u64, threads: usize) -> Option<Box<dyn Agent>> {
        let name = self.to_string();
        Some(match *self {
            Spec::Human => return None,
            Spec::Random => Box::new(RandomAgent {
                rng: Rng::new(seed),
                name,
            }),
            Spec::Flat(n) => Box::new(Flat::new(n, seed, name)),
            Spec::Mcts(b) => Box::new(Mcts::new(b, seed, threads, name)),
            Spec::AlphaBeta(d) => Box::new(AlphaBeta::new(engine, d, name)),
        })
    }
}

/// Uniformly random legal moves.
struct RandomAgent {
    rng: Rng,
    name: String,
}

impl Agent for RandomAgent {
    fn choose(&mut self, engine: &Engine, pos: &Position, legal: &[Move]) -> Choice {
        let mv = engine
            .random_move(pos, &mut self.rng)
            .unwrap_or(legal[self.rng.below(legal.len())]);
        Choice {
            mv,
            report: Report {
                agent: self.name.clone(),
                ..Report::default()
            },
        }
    }
}

/// Longest random game a playout plays before calling it a draw.
pub const PLAYOUT_PLIES: u64 = 10_000;

/// The reward of each player for a finished (or cut) playout.
pub(crate) fn rewards(engine: &Engine, ending: Ending) -> Vec<f64> {
    let n = engine.players() as usize;
    match ending {
        Ending::Over(Outcome::Win(p)) => (0..n).map(|i| f64::from(i == p as usize)).collect(),
        // One player lost: the others share the point.
        Ending::Over(Outcome::Lose(p)) if n > 1 => (0..n)
            .map(|i| {
                if i == p as usize {
                    0.0
                } else {
                    1.0 / (n - 1) as f64
                }
            })
            .collect(),
        _ => vec![1.0 / n as f64; n],
    }
}

/// Plays a random game from `pos` (consumed) and returns each player's reward.
pub(crate) fn playout(engine: &Engine, mut pos: Position, rng: &mut Rng) -> Vec<f64> {
    let (ending, _) = engine.playout(&mut pos, rng, PLAYOUT_PLIES);
    rewards(engine, ending)
}
