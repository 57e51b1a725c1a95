//! An upper bound of the work one position costs the engine: generating every move,
//! playing each on a copy to judge `legal if`, and the end rules. Each construct that
//! loops multiplies the cost of what it contains (a quantifier by its directions, `find`
//! and `count cells` by the cells, `first` and slides by the longest line, `attacked` by
//! the attack rules of every piece that could attack), so a few lines can describe
//! billions of steps per position; such a game is refused (E0155) instead of making
//! `moves` or `perft` run for hours.

use crate::geometry::Board;
use crate::ir::visit::{self, Visitor};
use crate::ir::{
    CellExpr, ChooseFrom, Cond, Effect, Game, IntExpr, MAX_HOPS, Pattern, Program, Stmt, Test,
};

/// Most steps one position may cost (a step is about one node of a rule evaluated on one
/// cell). The bound is loose for real games (the shipped ones are bounded by 4e7 or
/// less, the chess example by 1.5e8, and take well under a millisecond), tight for rules
/// that really loop: at this limit, listing the moves of one position takes at most
/// about a second.
pub const MAX_POSITION_COST: u64 = 1_000_000_000;

/// Steps that handling one candidate move costs, besides its rules: checking it against
/// the others for duplicates and playing it on a copy of the position.
const CANDIDATE_COST: u64 = 100;

/// Steps that building the engine costs per statement of an attack rule and per cell: it
/// works out which cells each piece could ever attack from each cell (measured at about
/// thirty times a step of evaluation).
const BUILD_COST: u64 = 30;

/// Most parts (statements, conditions, cell tests…) the move and attack rules of all piece
/// types may have together, a rule written for several types counting once for each.
pub const MAX_RULE_PARTS: usize = 1_000_000;

/// The number of parts of some statements.
pub(super) fn parts(stmts: &[Stmt]) -> usize {
    struct Count(usize);
    impl Visitor for Count {
        fn stmt(&mut self, s: &Stmt) {
            self.0 += 1;
            visit::walk_stmt(self, s)
        }
        fn cond(&mut self, c: &Cond) {
            self.0 += 1;
            visit::walk_cond(self, c)
        }
        fn int(&mut self, e: &IntExpr) {
            self.0 += 1;
            visit::walk_int(self, e)
        }
        fn cell(&mut self, e: &CellExpr) {
            self.0 += 1;
            visit::walk_cell(self, e)
        }
        fn test(&mut self, t: &Test) {
            self.0 += 1;
            visit::walk_test(self, t)
        }
    }
    let mut c = Count(0);
    visit::walk_stmts(&mut c, stmts);
    c.0
}

/// The parts of a game's cost per position, for saying which one is too large.
pub(super) struct PositionCost {
    /// Building the engine (once, but before the first position).
    pub build: u64,
    /// Generating the candidate moves of every piece.
    pub moves: u64,
    /// Judging `legal if` for every candidate.
    pub legal: u64,
    /// Playing every candidate on a copy: its effects and the `after move` blocks.
    pub effects: u64,
    /// Each end rule, apart from what its `no moves` costs.
    pub end: Vec<u64>,
    /// What `no moves` in end rules costs: generating and judging every move again.
    pub no_moves: u64,
    /// The score, when `higher score wins` compares it.
    pub score: u64,
}

impl PositionCost {
    pub fn total(&self) -> u64 {
        self.end
            .iter()
            .fold(self.moves, |a, &b| a.saturating_add(b))
            .saturating_add(self.build)
            .saturating_add(self.legal)
            .saturating_add(self.effects)
            .saturating_add(self.score)
            .saturating_add(self.no_moves)
    }
}

/// What loops may range over on this board.
struct Bounds {
    cells: u64,
    /// Cells on the longest line from a cell to the edge.
    ray: u64,
    /// Cells a piece may leap to, per leap of the game.
    leaps: Vec<u64>,
    piece_types: u64,
    /// Directions of the board.
    dirs: u64,
}

/// Sums the cost of the nodes it walks, multiplying what a looping node contains.
struct Counter<'a> {
    bounds: &'a Bounds,
    /// The cost of testing whether a cell is attacked, at the current nesting.
    attacked: u64,
    /// The cost of generating every move (what `no moves` costs).
    no_moves: u64,
    cost: u64,
    /// Candidate moves the statements walked may emit.
    emits: u64,
}

impl Counter<'_> {
    /// The cost of `walk` (and the moves it emits), times `times`, added to the total.
    fn times(&mut self, times: u64, emit: u64, walk: impl FnOnce(&mut Self)) {
        let (cost, emits) = (self.cost, self.emits);
        self.cost = 0;
        self.emits = 0;
        walk(self);
        let inner = self.cost.saturating_add(1);
        self.cost = cost.saturating_add(inner.saturating_mul(times));
        let inner_emits = self.emits.saturating_add(emit);
        self.emits = emits.saturating_add(inner_emits.saturating_mul(times));
    }

    fn of(&mut self, walk: impl FnOnce(&mut Self)) -> (u64, u64) {
        let (cost, emits) = (self.cost, self.emits);
        self.cost = 0;
        self.emits = 0;
        walk(self);
        let out = (self.cost, self.emits);
        self.cost = cost;
        self.emits = emits;
        out
    }
}

impl Visitor for Counter<'_> {
    fn stmt(&mut self, s: &Stmt) {
        let b = self.bounds;
        let dirs = |d: &Vec<_>| d.len() as u64;
        match s {
            Stmt::For { dirs: d, .. } => self.times(dirs(d), 0, |c| visit::walk_stmt(c, s)),
            Stmt::ForPiece { pieces, .. } => {
                self.times(pieces.len() as u64, 0, |c| visit::walk_stmt(c, s))
            }
            Stmt::Step { dirs: d, .. } => self.times(dirs(d), 1, |c| visit::walk_stmt(c, s)),
            Stmt::Slide { dirs: d, max, .. } => {
                let along = dirs(d).saturating_mul(b.ray.min(*max as u64));
                self.times(along, 1, |c| visit::walk_stmt(c, s))
            }
            Stmt::Leap { leap, .. } => {
                let targets = leap
                    .iter()
                    .map(|l| b.leaps.get(*l as usize).copied().unwrap_or(b.cells))
                    .max()
                    .unwrap_or(0);
                self.times(targets, 1, |c| visit::walk_stmt(c, s))
            }
            Stmt::Place { .. } | Stmt::MoveAny { .. } => {
                self.times(b.cells, 1, |c| visit::walk_stmt(c, s))
            }
            Stmt::MoveTo { .. } => self.times(1, 1, |c| visit::walk_stmt(c, s)),
            // Each hop starts again from where the last landed; the path is at most
            // MAX_HOPS long, and the pieces a hop may jump are far fewer than its
            // branches, so hops times the body bounds real chains.
            Stmt::Chain { .. } => self.times(MAX_HOPS as u64, 1, |c| visit::walk_stmt(c, s)),
            Stmt::Let { .. } | Stmt::If { .. } | Stmt::New(_) | Stmt::Class { .. } => {
                self.times(1, 0, |c| visit::walk_stmt(c, s))
            }
        }
    }

    fn effect(&mut self, e: &Effect) {
        let times = match e {
            Effect::For { dirs, .. } => dirs.len() as u64,
            Effect::Along { .. } => self.bounds.ray,
            Effect::Choose {
                from: ChooseFrom::Where(_),
                ..
            } => self.bounds.cells,
            Effect::Choose {
                from: ChooseFrom::By { pattern, .. },
                ..
            } => match pattern {
                Pattern::Step { dirs, .. } => dirs.len() as u64,
                Pattern::Slide { dirs, max, .. } => {
                    (dirs.len() as u64).saturating_mul(self.bounds.ray.min(*max as u64))
                }
                Pattern::Leap { leap, .. } => self
                    .bounds
                    .leaps
                    .get(*leap as usize)
                    .copied()
                    .unwrap_or(self.bounds.cells),
            },
            _ => 1,
        };
        self.times(times, 0, |c| visit::walk_effect(c, e));
    }

    fn cond(&mut self, cond: &Cond) {
        let times = match cond {
            Cond::Exists { dirs, .. } | Cond::Forall { dirs, .. } => dirs.len() as u64,
            Cond::Connects { .. } => self.bounds.cells.saturating_mul(self.bounds.dirs),
            _ => 1,
        };
        if matches!(cond, Cond::NoMoves) {
            self.cost = self.cost.saturating_add(self.no_moves);
        }
        self.times(times, 0, |c| visit::walk_cond(c, cond));
    }

    fn int(&mut self, e: &IntExpr) {
        let b = self.bounds;
        let times = match e {
            IntExpr::CountCells(_) => b.cells,
            IntExpr::Run { .. } => b.ray,
            // Every piece's attacks, each cell of them tested.
            IntExpr::CountAttacks(_) => self.attacked,
            IntExpr::Group { .. } | IntExpr::Groups(_) => b.cells.saturating_mul(b.dirs),
            IntExpr::Lines { .. } => b.dirs.saturating_mul(b.ray),
            _ => 1,
        };
        if matches!(e, IntExpr::MoveCount) {
            self.cost = self.cost.saturating_add(self.no_moves);
        }
        self.times(times, 0, |c| visit::walk_int(c, e));
    }

    fn cell(&mut self, e: &CellExpr) {
        let b = self.bounds;
        let times = match e {
            CellExpr::Find(_) => b.cells,
            CellExpr::First { .. } => b.ray,
            CellExpr::Step(_, _, n) => *n as u64,
            _ => 1,
        };
        self.times(times, 0, |c| visit::walk_cell(c, e));
    }

    fn test(&mut self, t: &Test) {
        if matches!(t, Test::Attacked) {
            self.cost = self.cost.saturating_add(self.attacked);
        }
        self.times(1, 0, |c| visit::walk_test(c, t));
    }
}

/// An upper bound of what one position of `program` costs, part by part.
pub(super) fn position_cost(program: &Program, board: &Board) -> PositionCost {
    let g: &Game = &program.game;
    let cells = board.cells() as u64;
    let dirs = board.dir_count() as u8;
    let ray = (0..board.cells())
        .flat_map(|c| (0..dirs).map(move |d| (c, d)))
        .map(|(c, d)| board.ray(c, d).len() as u64)
        .max()
        .unwrap_or(0);
    let bounds = Bounds {
        cells,
        ray,
        leaps: g.leaps.iter().map(|o| o.len() as u64).collect(),
        piece_types: g.pieces.len() as u64,
        dirs: dirs as u64,
    };
    let mut counter = Counter {
        bounds: &bounds,
        attacked: 0,
        no_moves: 0,
        cost: 0,
        emits: 0,
    };
    // Pieces on the board: those of the setup and the hands, unless effects create more
    // (then one per cell at most); and placements, one origin per type in hand.
    let creates = program
        .effects
        .iter()
        .chain(g.after.iter().map(|a| &a.effects))
        .chain(g.actions.iter().map(|a| &a.effects))
        .any(|block| creates_pieces(block))
        || g.moves.iter().any(|r| places_new(r));
    let given = g.setup.len() as u64 + g.hand.iter().map(|h| h.2 as u64).sum::<u64>();
    let on_board = if creates { cells } else { given.min(cells) };
    let pieces = on_board.saturating_add(bounds.piece_types);
    // `attacked` runs the attack rules of every piece that could attack; an attack rule
    // may ask again, two levels deep (deeper counts as not attacked).
    let attack_rules: Vec<&Vec<Stmt>> = (0..g.pieces.len())
        .map(|p| g.attacks[p].as_ref().unwrap_or(&g.moves[p]))
        .collect();
    let build = attack_rules
        .iter()
        .map(|r| counter.of(|c| visit::walk_stmts(c, r)).0)
        .fold(0, u64::saturating_add)
        .saturating_mul(cells)
        .saturating_mul(BUILD_COST);
    for _ in 0..2 {
        let worst = attack_rules
            .iter()
            .map(|r| counter.of(|c| visit::walk_stmts(c, r)).0)
            .max()
            .unwrap_or(0);
        counter.attacked = pieces.saturating_mul(worst.saturating_add(1));
    }
    let (gen_cost, emits) = g
        .moves
        .iter()
        .map(|r| counter.of(|c| visit::walk_stmts(c, r)))
        .fold((0, 0), |(a, b), (c, d)| (a.max(c), b.max(d)));
    let moves = pieces.saturating_mul(gen_cost.saturating_add(1));
    let candidates = pieces.saturating_mul(emits);
    let then = program
        .effects
        .iter()
        .map(|block| counter.of(|c| visit::walk_effects(c, block)).0)
        .max()
        .unwrap_or(0);
    let after: u64 = g
        .after
        .iter()
        .map(|a| counter.of(|c| visit::walk_effects(c, &a.effects)).0)
        .fold(0, u64::saturating_add);
    let legal = g.legal.as_ref().map_or(0, |l| counter.of(|c| c.cond(l)).0);
    // Actions are candidates of their own: their condition, then their effects.
    let actions: u64 = g
        .actions
        .iter()
        .map(|a| {
            counter
                .of(|c| {
                    c.cond(&a.when);
                    visit::walk_effects(c, &a.effects)
                })
                .0
        })
        .fold(0, u64::saturating_add);
    // A candidate also costs its own handling (duplicates, a copy of the position).
    let per_move = then
        .saturating_add(after)
        .saturating_add(legal)
        .saturating_add(CANDIDATE_COST);
    let end: Vec<u64> = g
        .end
        .iter()
        .map(|r| counter.of(|c| c.cond(&r.cond)).0)
        .collect();
    counter.no_moves = moves.saturating_add(candidates.saturating_mul(per_move));
    let no_moves = g
        .end
        .iter()
        .zip(&end)
        .map(|(r, own)| counter.of(|c| c.cond(&r.cond)).0 - own)
        .fold(0, u64::saturating_add);
    let score = g
        .score
        .as_ref()
        .map_or(0, |s| counter.of(|c| c.int(s)).0.saturating_mul(2));
    PositionCost {
        build,
        moves: moves.saturating_add(candidates.saturating_mul(CANDIDATE_COST)),
        legal: candidates.saturating_mul(legal),
        effects: candidates
            .saturating_mul(then.saturating_add(after))
            .saturating_add(actions),
        end,
        no_moves,
        score,
    }
}

/// Whether effects may put new pieces on the board.
fn creates_pieces(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::Put { .. } => true,
        Effect::If {
            then, otherwise, ..
        } => creates_pieces(then) || creates_pieces(otherwise),
        Effect::For { body, .. } | Effect::Along { body, .. } | Effect::Choose { body, .. } => {
            creates_pieces(body)
        }
        _ => false,
    })
}

/// Whether move rules create pieces with `new`.
fn places_new(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::New(_) => true,
        Stmt::For { body, .. }
        | Stmt::ForPiece { body, .. }
        | Stmt::Chain { body, .. }
        | Stmt::Class { body, .. } => places_new(body),
        Stmt::If {
            then, otherwise, ..
        } => places_new(then) || places_new(otherwise),
        _ => false,
    })
}
