//! Helpers for testing a game from Rust: load it, play moves written in notation, and
//! read back what a test compares — the sorted legal moves, perft counts, the result,
//! the board as `regula show` draws it, and positions in notation
//! (`regula show --position`).
//!
//! Every helper returns plain strings and numbers, so that snapshots of them (with
//! [insta](https://insta.rs), say) are readable and stable. A snapshot test of a game's
//! moves, from a crate that depends on `regula`:
//!
//! ```
//! # fn main() -> Result<(), regula::testing::Error> {
//! let game = regula::testing::Game::load("docs/examples/tictactoe.game")?;
//! let pos = game.after("X@b2 X@a1 X@c3")?;
//! insta::assert_snapshot!(game.moves(&pos).join(" "), @"X@a2 X@a3 X@b1 X@b3 X@c1 X@c2");
//! assert_eq!(game.result(&game.after("X@a1 X@b1 X@a2 X@b2 X@a3")?).as_deref(), Some("white"));
//! # Ok(())
//! # }
//! ```
//!
//! Expectations kept in `.tests` files beside a game (`regula test`) are run by
//! [`crate::expect`], which uses these helpers.
#![warn(missing_docs)]

use crate::diag::{self, Diagnostic};
use crate::engine::{Engine, Position};
use crate::variants::Choice;
use std::path::Path;

/// Why a game could not be loaded, a move played or a position read: a message ready to
/// print (diagnostics rendered as `regula check` shows them, with the legal moves when a
/// move was refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }

    fn diagnostics(path: &str, source: &str, diags: &[Diagnostic]) -> Error {
        let index = diag::SourceIndex::new(source);
        let text: String = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| diag::render_indexed(d, path, &index))
            .collect();
        Error::new(text.trim_end().to_string())
    }

    /// The message, as printed.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A game ready to test: its engine, for one ruleset (a variant and parameter values).
pub struct Game {
    engine: Engine,
}

impl Game {
    /// Loads a game file as it is (no variant, every parameter at its default).
    pub fn load(path: impl AsRef<Path>) -> Result<Game, Error> {
        Game::load_with(path, None, &[])
    }

    /// Loads a game file for a variant and parameter values, as `--variant` and `--set`
    /// choose them: `Game::load_with("hex.game", None, &[("size", 4)])`.
    pub fn load_with(
        path: impl AsRef<Path>,
        variant: Option<&str>,
        set: &[(&str, i64)],
    ) -> Result<Game, Error> {
        let path = path.as_ref();
        let source = crate::read_source(path).map_err(|e| Error::new(e.to_string()))?;
        Game::build(&path.to_string_lossy(), &source, variant, set)
    }

    /// A game from its source text, as it is.
    pub fn from_source(source: &str) -> Result<Game, Error> {
        Game::from_source_with(source, None, &[])
    }

    /// A game from its source text, for a variant and parameter values.
    pub fn from_source_with(
        source: &str,
        variant: Option<&str>,
        set: &[(&str, i64)],
    ) -> Result<Game, Error> {
        Game::build("<source>", source, variant, set)
    }

    fn build(
        path: &str,
        source: &str,
        variant: Option<&str>,
        set: &[(&str, i64)],
    ) -> Result<Game, Error> {
        let choice = Choice {
            variant: variant.map(str::to_string),
            set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        };
        match crate::compile_with(source, &choice) {
            Ok((program, _)) => Ok(Game {
                engine: Engine::new(program),
            }),
            Err(diags) => Err(Error::diagnostics(path, source, &diags)),
        }
    }

    /// A game around an engine already built.
    pub fn from_engine(engine: Engine) -> Game {
        Game { engine }
    }

    /// The engine, for everything these helpers do not cover.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.engine.start()
    }

    /// The position after moves in notation, separated by spaces, played from the start.
    pub fn after(&self, moves: &str) -> Result<Position, Error> {
        let mut pos = self.start();
        self.play(&mut pos, moves)?;
        Ok(pos)
    }

    /// Plays moves in notation, separated by spaces, from `pos`. On an illegal move, `pos`
    /// is left after the moves before it, and the error lists the legal moves.
    pub fn play(&self, pos: &mut Position, moves: &str) -> Result<(), Error> {
        let list: Vec<&str> = moves.split_whitespace().collect();
        self.engine.replay(pos, &list).map_err(|e| {
            let d = e.diagnostic();
            match d.hint {
                Some(h) => Error::new(format!("{}; {h}", d.message)),
                None => Error::new(d.message),
            }
        })
    }

    /// The legal moves in notation, sorted (byte order, as `regula moves` lists them);
    /// none when the game is over.
    pub fn moves(&self, pos: &Position) -> Vec<String> {
        let mut buf = Vec::new();
        if self.engine.status(pos, &mut buf).is_some() {
            return Vec::new();
        }
        let mut names: Vec<String> = buf.iter().map(|m| self.engine.notation(m)).collect();
        names.sort();
        names
    }

    /// Whether a move in notation is legal in `pos`.
    pub fn is_legal(&self, pos: &Position, mv: &str) -> bool {
        let mut buf = Vec::new();
        self.engine.status(pos, &mut buf).is_none()
            && buf.iter().any(|m| self.engine.notation(m) == mv)
    }

    /// The number of move sequences of `depth` moves from `pos`.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        self.engine.perft(pos, depth)
    }

    /// The result, as `regula moves` prints it after `result: ` (the winner's name,
    /// `draw`, or `NAME loses`); `None` while the game goes on.
    pub fn result(&self, pos: &Position) -> Option<String> {
        let outcome = self.engine.status(pos, &mut Vec::new())?;
        Some(self.engine.outcome_text(outcome))
    }

    /// The board as `regula show` draws it below the title: ranks, hands, scores, and
    /// who is to move or the result.
    pub fn show(&self, pos: &Position) -> String {
        self.engine.render(pos)
    }

    /// The position in notation, on one line (`regula show --position`).
    pub fn position_text(&self, pos: &Position) -> String {
        self.engine.position_text(pos)
    }

    /// Reads a position in notation (docs/POSITIONS.md).
    pub fn position(&self, text: &str) -> Result<Position, Error> {
        self.engine.parse_position(text).map_err(|e| {
            let d = e.diagnostic();
            Error::new(diag::render(&d, "position", text).trim_end().to_string())
        })
    }
}
