//! Stage 2: syntax tree → IR. Resolves every name, checks kinds and arities, and collects
//! every problem of the file instead of stopping at the first.

mod decl;
mod expr;

use crate::diag::{Diagnostic, suggest};
use crate::ir::{self, Program};
use crate::syntax::ast::{self, Name, Span};
use std::collections::HashMap;

/// Checks a parsed file. Returns the program when there is no error, and all diagnostics
/// (errors and warnings) either way.
pub fn check(file: &ast::File) -> (Option<Program>, Vec<Diagnostic>) {
    let mut c = Checker::default();
    let game = c.run(file);
    let has_error = c.diags.iter().any(Diagnostic::is_error);
    c.diags.sort_by_key(|d| (d.span.start, d.code));
    let program = match (has_error, game) {
        (false, Some(game)) => Some(Program {
            game,
            effects: c.effects,
        }),
        _ => None,
    };
    (program, c.diags)
}

/// What a name means where it is used.
#[derive(Clone, Debug)]
enum Value {
    Cell(ir::CellExpr),
    Dir(ir::DirRef),
    Int(ir::IntExpr),
    Bool(ir::Cond),
    Player(ir::PlayerRef),
    /// A piece-type variable of `for p in Queen, Rook { … }`, in a slot.
    Piece(ir::Slot),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Cell(_) => "a cell",
            Value::Dir(_) => "a direction",
            Value::Int(_) => "a number",
            Value::Bool(_) => "a condition",
            Value::Player(_) => "a player",
            Value::Piece(_) => "a piece type",
        }
    }
}

/// Where an expression is evaluated; some built-ins only make sense in some places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Move rules: `from` and `to` exist; the point of view is the mover.
    Move,
    /// Effects of a move, `after move` blocks and `legal`: `from`, `to` and `last-*` exist.
    Effect,
    /// End rules and the score: the point of view is the player to move.
    End,
    /// A definition nothing uses: checked for mistakes, allowing every built-in.
    Anywhere,
}

#[derive(Default)]
struct Scope {
    vars: Vec<(String, Value)>,
    next_slot: u8,
    /// Highest slot count reached in this rule; hoisted values are bound above it.
    high: u8,
}

#[derive(Default)]
pub(crate) struct Checker<'a> {
    diags: Vec<Diagnostic>,
    files: u8,
    ranks: u8,
    players: Vec<ir::Player>,
    pieces: Vec<ir::Piece>,
    piece_spans: Vec<Span>,
    groups: HashMap<String, u32>,
    regions: HashMap<String, u8>,
    region_list: Vec<ir::Region>,
    flags: HashMap<String, u8>,
    flag_list: Vec<ir::Flag>,
    counters: HashMap<String, u8>,
    counter_list: Vec<ir::Counter>,
    defines: HashMap<String, &'a ast::Item>,
    expanding: Vec<String>,
    used: std::collections::HashSet<String>,
    effects: Vec<Vec<ir::Effect>>,
    leaps: Vec<Vec<(i8, i8)>>,
    tracks_repetition: bool,
    has_score: bool,
    scope: Scope,
    place: Option<Place>,
}

impl<'a> Checker<'a> {
    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, span, msg));
        self.diags.last_mut().expect("just pushed")
    }

    fn warn(&mut self, code: &'static str, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::warning(code, span, msg));
        self.diags.last_mut().expect("just pushed")
    }

    fn hint_similar<'b>(&mut self, name: &Name, candidates: impl IntoIterator<Item = &'b str>) {
        if let Some(s) = suggest(&name.text, candidates) {
            // The author meant that name: do not also report it as unused.
            self.used.insert(s.to_string());
            let hint = format!("did you mean `{s}`?");
            if let Some(d) = self.diags.last_mut() {
                d.hint = Some(hint);
            }
        }
    }

    fn player_index(&mut self, n: &Name) -> Option<u8> {
        if let Some(i) = self.players.iter().position(|p| p.name == n.text) {
            return Some(i as u8);
        }
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        self.error("E0101", n.span, format!("unknown player `{}`", n.text));
        self.hint_similar(n, names.iter().map(String::as_str));
        None
    }

    /// A piece or group name as a bit set of piece types.
    fn piece_set(&mut self, n: &Name) -> Option<u32> {
        if let Some(i) = self.pieces.iter().position(|p| p.name == n.text) {
            self.used.insert(n.text.clone());
            return Some(1 << i);
        }
        if let Some(&m) = self.groups.get(&n.text) {
            self.used.insert(n.text.clone());
            return Some(m);
        }
        let cands: Vec<String> = self
            .pieces
            .iter()
            .map(|p| p.name.clone())
            .chain(self.groups.keys().cloned())
            .collect();
        self.error("E0102", n.span, format!("unknown piece `{}`", n.text));
        self.hint_similar(n, cands.iter().map(String::as_str));
        None
    }

    /// Parses a square name such as `e5` against the board.
    fn square(&self, text: &str) -> Option<ir::Cell> {
        let letters: String = text
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        let digits = &text[letters.len()..];
        if letters.len() != 1 || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let file = (letters.as_bytes()[0] - b'a') as u32;
        let rank: u32 = digits.parse().ok()?;
        if file < self.files as u32 && rank >= 1 && rank <= self.ranks as u32 {
            Some((file + (rank - 1) * self.files as u32) as ir::Cell)
        } else {
            None
        }
    }

    fn looks_like_square(text: &str) -> bool {
        let letters = text.chars().take_while(|c| c.is_ascii_lowercase()).count();
        letters == 1 && letters < text.len() && text[letters..].chars().all(|c| c.is_ascii_digit())
    }

    fn square_or_error(&mut self, n: &Name) -> Option<ir::Cell> {
        match self.square(&n.text) {
            Some(c) => Some(c),
            None => {
                let last_file = (b'a' + self.files.saturating_sub(1)) as char;
                self.error(
                    "E0103",
                    n.span,
                    format!("`{}` is not a square of this board", n.text),
                )
                .hint = Some(format!(
                    "the board has files a..{last_file} and ranks 1..{}",
                    self.ranks
                ));
                None
            }
        }
    }

    /// Definitions are checked where they are used; one that is never used is checked
    /// once on its own, so that its mistakes are still reported.
    fn check_unused_definitions(&mut self, file: &'a ast::File) {
        for item in &file.items {
            if let ast::Item::Define { name, params, body } = item
                && params.is_empty()
                && !self.used.contains(&name.text)
            {
                self.scope = Scope::default();
                self.place = Some(Place::Anywhere);
                self.expanding.push(name.text.clone());
                let _ = self.value(body);
                self.expanding.pop();
                self.used.remove(&name.text);
            }
        }
    }

    fn run(&mut self, file: &'a ast::File) -> Option<ir::Game> {
        self.declare(file);
        if self.files == 0 {
            return None;
        }
        let game = self.lower_rules(file);
        self.check_unused_definitions(file);
        self.warn_unused(file);
        game
    }
}

mod codes;
pub use codes::{CODES, explain, markdown};
