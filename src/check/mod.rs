//! Stage 2: syntax tree → IR. Resolves every name, checks kinds and arities, and collects
//! every problem of the file instead of stopping at the first.
//!
//! - `declare`: the names and the board (players, pieces, groups, regions, flags, counters,
//!   definitions), regions and setup as cell sets;
//! - `rules`: move and attack rules, `after` blocks, legality, score, end rules, and the
//!   assembly of the `ir::Game`;
//! - `stmt`, `expr`, `test`: statements and effects, expressions, cell tests and directions;
//! - `lints`: whole-file checks (unused names, pieces that never move, unreachable rules);
//! - `symbols`: the one table of declared names.

mod cost;
mod declare;
mod expr;
mod lints;
mod rules;
mod stmt;
mod symbols;
mod test;

use crate::diag::{Code, Diagnostic, Span};
use crate::geometry::Board;
use crate::ir::{self, Program};
use crate::syntax::ast::{self, Item, Name};
use std::collections::HashSet;
use symbols::{Symbol, Symbols};

/// Checks a parsed file (possibly with broken sections, whose words are then not reported
/// as unknown). Returns the program when there is no error, and all diagnostics (errors
/// and warnings) either way, sorted by position.
pub fn check(file: &ast::File) -> (Option<Program>, Vec<Diagnostic>) {
    let mut c = Checker::new(file);
    let game = c.run(file);
    let has_error = c.diags.iter().any(Diagnostic::is_error);
    let program = match (has_error || c.broken.any, game) {
        (false, Some(game)) => {
            let program = Program {
                game,
                effects: std::mem::take(&mut c.effects),
            };
            c.check_cost(&program).then_some(program)
        }
        _ => None,
    };
    c.diags.sort_by_key(|d| (d.start(), d.code));
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

/// The variables of the rule being lowered.
#[derive(Default)]
struct Scope {
    vars: Vec<(String, Value)>,
    next_slot: u8,
}

/// Most parts (expressions, cell tests, directions) that expanding definitions may add to
/// a file's rules: each use copies a definition, so a few lines could otherwise expand
/// to exponentially many.
pub const MAX_EXPANDED_PARTS: usize = 100_000;

/// Deepest nesting of expressions inside one another once definitions are expanded
/// (the syntax stage bounds each expression as written; expansions stack them).
pub const MAX_EXPANDED_DEPTH: usize = 1_000;

/// The definitions being expanded and what expanding has cost so far.
#[derive(Default)]
struct Expansion {
    /// Definitions being expanded, innermost last (to detect recursion).
    stack: Vec<String>,
    /// Where the outermost of them is used.
    site: Span,
    /// Parts produced by all expansions so far.
    parts: usize,
    /// Expressions being lowered inside one another, through expansions.
    depth: usize,
    /// A limit was hit and reported: further expansions are skipped silently.
    refused: bool,
}

/// What broken sections (syntax errors) may have said: the names they may have declared
/// are not reported as unknown, their words are not reported unused, and a broken `board`
/// or `players` is not reported missing.
#[derive(Default)]
struct Broken {
    any: bool,
    words: HashSet<String>,
    /// Names that a broken section, or a declaration refused, may have declared: their
    /// uses are not reported, which would only repeat the first error.
    declared: HashSet<String>,
    sections: HashSet<String>,
}

/// The names a broken section may have declared, from its words in order: the name after
/// the keyword of a section that declares one; nothing for a section that declares none;
/// any of its words otherwise (the players, the classes of move rules, a variant's
/// sections, text that starts with no keyword).
fn declared_by<'w>(keyword: Option<&str>, words: &'w [String]) -> &'w [String] {
    match keyword {
        Some("region" | "flag" | "piece" | "group" | "counter" | "define" | "param" | "action") => {
            words.get(1..2).unwrap_or_default()
        }
        Some(
            "game" | "board" | "setup" | "hand" | "after" | "legal" | "pass" | "score" | "end",
        ) => &[],
        _ => words,
    }
}

pub(crate) struct Checker<'a> {
    diags: Vec<Diagnostic>,
    /// `None` while the board is missing or invalid: cells are then not checked.
    board: Option<Board>,
    symbols: Symbols<'a>,
    players: Vec<ir::Player>,
    pieces: Vec<ir::Piece>,
    piece_spans: Vec<Span>,
    /// The classes of moves named in `priority`, in order.
    classes: Vec<String>,
    /// Per piece type: where it is declared and how many `shown` symbols it gives.
    shown: Vec<(Span, usize)>,
    regions: Vec<ir::Region>,
    flags: Vec<ir::Flag>,
    counters: Vec<ir::Counter>,
    expansion: Expansion,
    effects: Vec<Vec<ir::Effect>>,
    leaps: Vec<Vec<(i8, i8)>>,
    tracks_repetition: bool,
    has_score: bool,
    scope: Scope,
    place: Option<Place>,
    broken: Broken,
    /// Where the parts of the game whose cost is bounded were written.
    cost_spans: CostSpans,
    /// Every diagnostic reported so far, to report each only once.
    reported: HashSet<(Code, Span, String)>,
    /// Where a diagnostic reported before is written again, then dropped.
    repeated: Diagnostic,
    /// Parts of the move and attack rules of all piece types so far (see
    /// [`cost::MAX_RULE_PARTS`]); `None` once the bound was passed and reported.
    rule_parts: Option<usize>,
}

/// Where each part of a game was written, to point at the one that costs too much.
#[derive(Default)]
struct CostSpans {
    moves: Span,
    legal: Span,
    effects: Span,
    /// One per end rule of the game, in order.
    end: Vec<Span>,
    score: Span,
}

impl<'a> Checker<'a> {
    fn new(file: &ast::File) -> Checker<'a> {
        let mut broken = Broken::default();
        for item in &file.items {
            if let Item::Broken { keyword, words, .. } = item {
                broken.any = true;
                broken
                    .declared
                    .extend(declared_by(keyword.as_deref(), words).iter().cloned());
                broken.words.extend(words.iter().cloned());
                broken.sections.extend(keyword.iter().cloned());
            }
        }
        Checker {
            diags: Vec::new(),
            board: None,
            symbols: Symbols::default(),
            players: Vec::new(),
            pieces: Vec::new(),
            piece_spans: Vec::new(),
            shown: Vec::new(),
            classes: Vec::new(),
            regions: Vec::new(),
            flags: Vec::new(),
            counters: Vec::new(),
            expansion: Expansion::default(),
            effects: Vec::new(),
            leaps: Vec::new(),
            tracks_repetition: false,
            has_score: false,
            scope: Scope::default(),
            place: None,
            broken,
            cost_spans: CostSpans::default(),
            rule_parts: Some(0),
            reported: HashSet::new(),
            repeated: Diagnostic::unlocated(Code::E0001, ""),
        }
    }

    fn error(&mut self, code: Code, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        let d = Diagnostic::new(code, span, msg);
        // A mistake in a definition's body is met again at each use of the definition: it
        // is reported once, not once per copy (which could be thousands of times).
        if !self.reported.insert((code, span, d.message.clone())) {
            self.repeated = d;
            return &mut self.repeated;
        }
        self.diags.push(d);
        self.diags.last_mut().expect("just pushed")
    }

    /// Reports a name that is not what it should be, with the closest declared name of the
    /// kinds `keep` accepts (or of `extra`) as a suggestion. A name that a broken section
    /// or a refused declaration may have declared is not reported: then there is no
    /// diagnostic.
    fn unknown(
        &mut self,
        code: Code,
        n: &Name,
        msg: String,
        keep: impl Fn(&Symbol) -> bool,
        extra: &[&str],
    ) -> Option<&mut Diagnostic> {
        if self.broken.declared.contains(&n.text) {
            return None;
        }
        let hint = self.symbols.suggest(&n.text, keep, extra);
        let d = self.error(code, n.span, msg);
        if let Some(s) = hint {
            d.hint = Some(format!("did you mean `{s}`?"));
        }
        Some(d)
    }

    /// Whether one position of the game costs the engine a bounded amount of work; if not,
    /// the part that costs most is reported.
    fn check_cost(&mut self, program: &Program) -> bool {
        let Some(board) = &self.board else {
            return true;
        };
        let cost = cost::position_cost(program, board);
        if cost.total() <= cost::MAX_POSITION_COST {
            return true;
        }
        let s = &self.cost_spans;
        let mut parts = vec![
            (cost.moves, s.moves, "the move rules".to_string()),
            (
                cost.build,
                s.moves,
                "preparing the attack rules, for every piece type and cell,".into(),
            ),
            (
                cost.legal,
                s.legal,
                "`legal if`, judged for every candidate move,".into(),
            ),
            (
                cost.effects,
                s.effects,
                "the effects of every candidate move".into(),
            ),
            (cost.score, s.score, "the score".into()),
        ];
        for (c, span) in cost.end.iter().zip(&s.end) {
            parts.push((*c, *span, "this end rule".into()));
        }
        let (steps, span, what) = parts
            .into_iter()
            .max_by_key(|p| p.0)
            .expect("parts of the cost");
        let steps = if steps == u64::MAX {
            "more than 1.8e19".to_string()
        } else {
            format!("up to {:.1e}", steps as f64)
        };
        self.error(
            Code::E0155,
            span,
            format!("{what} may cost {steps} steps in one position"),
        )
        .hint = Some(format!(
            "one position may cost at most {:.0e} steps; quantifiers, `find`, `count`, `first`, slides and `attacked` multiply the cost of what they contain",
            cost::MAX_POSITION_COST as f64
        ));
        false
    }

    fn run(&mut self, file: &'a ast::File) -> Option<ir::Game> {
        self.declare(file);
        let game = self.lower_rules(file);
        self.check_unused_definitions(file);
        self.warn_unused(file);
        game
    }
}
