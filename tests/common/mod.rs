//! Helpers shared by the integration tests.
#![allow(dead_code)]

use regula::engine::{Engine, Outcome, Position};

pub fn game_source(name: &str) -> String {
    let path = format!("{}/games/{name}.game", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

pub fn load(source: &str) -> Engine {
    regula::load_str(source).unwrap_or_else(|d| panic!("game does not compile: {d:#?}"))
}

pub fn game(name: &str) -> Engine {
    load(&game_source(name))
}

/// The game with its `setup { … }` block replaced: the same rules from another position.
pub fn with_setup(name: &str, setup: &str) -> Engine {
    load(&replace_block(
        &game_source(name),
        "setup {",
        &format!("setup {{\n{setup}\n}}"),
    ))
}

/// Replaces the brace block that starts with `head` (e.g. "setup {") by `with`.
pub fn replace_block(source: &str, head: &str, with: &str) -> String {
    let start = source
        .find(head)
        .unwrap_or_else(|| panic!("no `{head}` block"));
    let mut depth = 0;
    for (i, c) in source[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return format!("{}{}{}", &source[..start], with, &source[start + i + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("unclosed `{head}` block")
}

/// A position written in the notation of docs/POSITIONS.md; panics with the error.
pub fn position(engine: &Engine, text: &str) -> Position {
    engine
        .parse_position(text)
        .unwrap_or_else(|e| panic!("`{text}`: {e:?}"))
}

/// The position after `moves` from `start`.
pub fn after_from(engine: &Engine, start: &Position, moves: &str) -> Position {
    let mut pos = start.clone();
    let list: Vec<&str> = moves.split_whitespace().collect();
    engine
        .replay(&mut pos, &list)
        .unwrap_or_else(|e| panic!("{e}"));
    pos
}

pub fn after(engine: &Engine, moves: &str) -> Position {
    let mut pos = engine.start();
    let list: Vec<&str> = moves.split_whitespace().collect();
    engine
        .replay(&mut pos, &list)
        .unwrap_or_else(|e| panic!("{e}"));
    pos
}

/// Sorted legal moves in notation, or `result: …` when the game is over.
pub fn moves(engine: &Engine, pos: &Position) -> Vec<String> {
    let mut buf = Vec::new();
    match engine.status(pos, &mut buf) {
        Some(o) => vec![format!("result: {}", engine.outcome_text(o))],
        None => {
            let mut v: Vec<String> = buf.iter().map(|m| engine.notation(m)).collect();
            v.sort();
            v
        }
    }
}

pub fn outcome(engine: &Engine, pos: &Position) -> Option<Outcome> {
    engine.status(pos, &mut Vec::new())
}

/// Plays one move given in notation; panics (with the legal moves) if it is not legal.
pub fn play(engine: &Engine, pos: &mut Position, mv: &str) {
    engine.replay(pos, &[mv]).unwrap_or_else(|e| panic!("{e}"));
}

pub fn has(engine: &Engine, pos: &Position, mv: &str) -> bool {
    moves(engine, pos).iter().any(|m| m == mv)
}

/// What stands on a square, as its display letter (upper case for the first player),
/// or None when the square is empty.
pub fn at(engine: &Engine, pos: &Position, square: &str) -> Option<char> {
    let cell = engine.board().cell(square).expect("a cell of the board");
    let (owner, piece) = engine.piece_at(pos, cell)?;
    let letter = engine.game().pieces[piece as usize].letter;
    Some(if owner == 0 {
        letter
    } else {
        letter.to_ascii_lowercase()
    })
}
