//! `regula replay`: a game record played again, every move checked.

use regula::engine::{Engine, Position, ReplayError};

/// A record line: its moves and the result it states, if any (`... result: white`).
pub fn parse_line(line: &str) -> (Vec<&str>, Option<&str>) {
    match line.split_once("result:") {
        Some((moves, result)) => (moves.split_whitespace().collect(), Some(result.trim())),
        None => (line.split_whitespace().collect(), None),
    }
}

/// Every position of the game, from `start` (included), one per move.
pub fn positions(
    engine: &Engine,
    start: &Position,
    moves: &[&str],
) -> Result<Vec<Position>, ReplayError> {
    let mut out = vec![start.clone()];
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        engine.replay(&mut pos, &[m]).map_err(|e| match e {
            ReplayError::GameOver { text, result, .. } => ReplayError::GameOver {
                index: i,
                text,
                result,
            },
            ReplayError::Illegal {
                text,
                player,
                legal,
                ..
            } => ReplayError::Illegal {
                index: i,
                text,
                player,
                legal,
            },
        })?;
        out.push(pos.clone());
    }
    Ok(out)
}

/// The result the final position has: a player's name, `draw`, or `unfinished`.
pub fn result_of(engine: &Engine, pos: &Position) -> String {
    match engine.status(pos, &mut Vec::new()) {
        Some(o) => engine.outcome_text(o),
        None => "unfinished".into(),
    }
}
