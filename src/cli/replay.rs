//! `regula replay`: a game record played again, every move checked.

use super::{Format, print, report, usage};
use regula::LoadError;
use regula::diag::Diagnostic;
use regula::engine::{Engine, Position, ReplayError};
use std::path::Path;

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

/// Reads a record file (`-`: standard input) within the bounds of a game file: at most
/// [`regula::load::MAX_SOURCE_BYTES`], a regular file, UTF-8. The reason is returned when not.
fn read_record(path: &Path) -> Result<String, String> {
    regula::read_source(path).map_err(|e| match e {
        LoadError::Unreadable { reason, .. } => reason,
        LoadError::Directory { .. } => "it is a directory".into(),
        LoadError::NotAFile { .. } => "it is not a regular file".into(),
        LoadError::TooLarge { .. } => {
            format!("it is larger than {} bytes", regula::load::MAX_SOURCE_BYTES)
        }
        LoadError::Encoding { .. } => "it is not valid UTF-8".into(),
        LoadError::Invalid { .. } => unreachable!("reading does not compile"),
    })
}

/// Runs `regula replay`: reads the record, checks it, prints and draws it.
pub fn start(
    engine: &Engine,
    start: &Position,
    record: &Path,
    line: usize,
    each: bool,
    html: Option<&Path>,
) -> i32 {
    let text = match read_record(record) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read the record {}: {e}", record.display());
            return 1;
        }
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(chosen) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return usage(
            &format!("{} has no game on line {line}", record.display()),
            &format!("it has {} game(s); choose one with --line", lines.len()),
        );
    };
    let (moves, stated) = parse_line(chosen);
    let positions = match positions(engine, start, &moves) {
        Ok(p) => p,
        Err(e) => {
            report("", "", &[e.diagnostic()], Format::Human);
            return 2;
        }
    };
    let last = positions.last().expect("the start at least");
    let actual = result_of(engine, last);
    let mut out = String::new();
    if each {
        for (i, p) in positions.iter().enumerate() {
            if i > 0 {
                out.push_str(&format!("\n{}. {}\n", i, moves[i - 1]));
            }
            out.push_str(&engine.render(p));
        }
    } else {
        out.push_str(&engine.render(last));
    }
    if let Some(path) = html {
        let page = regula::picture::html(engine, &positions, &moves);
        if let Err(e) = std::fs::write(path, page) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    print(&out);
    match stated {
        Some(r) if r != actual => {
            let d = Diagnostic::unlocated(
                regula::diag::Code::E0303,
                format!("the record says `result: {r}`, the moves give `{actual}`"),
            )
            .with_hint("the moves were checked one by one; the stated result is what differs");
            report("", "", &[d], Format::Human);
            2
        }
        _ => 0,
    }
}
