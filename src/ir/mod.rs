//! The intermediate representation: a checked game with every name resolved to an index.
//! Plain serde data (printable as RON with `regula ir`); the engine compiles it once.
//! [`visit`] walks it.
//!
//! Indices are positions in the lists of [`Game`]: a player is an index into
//! [`Game::players`] (in the order they move), a piece type into [`Game::pieces`], a
//! region into [`Game::regions`], and so on. Local variables live in numbered [`Slot`]s.
//! Conditions, cells and numbers are read from one player's *point of view* (the mover in
//! move rules and effects, the player to move in end rules; see docs/LANGUAGE.md, "Point of
//! view"): [`Owner::Friend`], [`PlayerRef::Me`], relative directions, per-player regions and
//! counters all mean that player's.

pub mod visit;

pub use crate::geometry::{Cell, Shape};
use serde::{Deserialize, Serialize};
/// Index of a local variable (loop direction or `let` cell) within one rule.
pub type Slot = u8;

/// Most local variables one move rule may bind (each generated move carries them).
pub const MAX_SLOTS: usize = 6;
/// Most cells the engine plays on.
pub const MAX_CELLS: usize = 676;
/// Most players.
pub const MAX_PLAYERS: usize = 6;
/// Most hops of one chain move.
pub const MAX_HOPS: usize = 16;
/// Most piece types: a set of them is a `u32` bit set ([`Test::Piece`], [`After`]).
pub const MAX_PIECES: usize = 32;
/// Most flags a game declares.
pub const MAX_FLAGS: usize = 4;
/// Most counters a game declares (each player has its own value of every one).
pub const MAX_COUNTERS: usize = 8;
/// Regions are numbered by a byte, the built-in ones a rule uses included.
pub const MAX_REGIONS: usize = 256;
/// Effect blocks (`then { … }`) are numbered by two bytes.
pub const MAX_EFFECT_BLOCKS: usize = 1 << 16;

/// A checked game: what the sections of a game file declare, every name an index.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Game {
    /// The title given by `game "…"` ("Untitled" without a `game` block).
    pub name: String,
    /// The `key "value"` lines of the `game` block, in file order.
    pub meta: Vec<(String, String)>,
    /// The players, in the order they move; the first one moves first.
    pub players: Vec<Player>,
    /// The board as declared by `board`.
    pub board: Shape,
    /// Regions by index: the declared ones in file order, then each built-in region
    /// (`all`, `edge`, `corners`, `none`) that a rule uses, added the first time it does.
    pub regions: Vec<Region>,
    /// Flags by index, in file order.
    pub flags: Vec<Flag>,
    /// Piece types by index, in file order.
    pub pieces: Vec<Piece>,
    /// The pieces on the board at the start, one entry per cell.
    pub setup: Vec<Placement>,
    /// Pieces each player holds off the board at the start: (player, piece, count).
    pub hand: Vec<(u8, u8, u16)>,
    /// Counters by index, in file order.
    pub counters: Vec<Counter>,
    /// Grid offsets of each distinct `leap` (see `geometry::Board::leap_offsets`).
    pub leaps: Vec<Vec<(i8, i8)>>,
    /// Move rules per piece type (same index as `pieces`).
    pub moves: Vec<Vec<Stmt>>,
    /// Attack rules per piece type; `None` means its move rules double as attacks.
    pub attacks: Vec<Option<Vec<Stmt>>>,
    /// `after move` blocks, in file order: they run in this order after every move of
    /// their pieces.
    pub after: Vec<After>,
    /// `legal if`: a condition every move must satisfy, judged on the position after the
    /// move from the mover's point of view; `None` accepts every move.
    pub legal: Option<Cond>,
    /// `pass when no moves`: a player with no legal move (in a game not over) must pass.
    /// Without it, a position where the player to move has no move and no end rule holds
    /// is a draw.
    pub forced_pass: bool,
    /// `score = …`: a player's score, from that player's point of view; `None` scores 0.
    pub score: Option<IntExpr>,
    /// End rules in file order, evaluated before every turn: the first that holds ends
    /// the game.
    pub end: Vec<EndRule>,
    /// Whether any rule reads `repetitions` (positions are then hashed after each move).
    pub tracks_repetition: bool,
    /// Classes of moves that go first (see `Priority`), if any.
    pub priority: Option<Priority>,
    /// Moves that are no piece's, by name.
    pub actions: Vec<Action>,
}

/// `priority [longest] CLASS, …`: when a move of the first class exists, only moves of
/// that class are legal, then the same for the next class; moves of no class come last.
/// With `longest`, only the moves of the most hops of the class that goes first.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Priority {
    /// The class names, first the one that goes first; [`Stmt::Class`] indexes this list.
    pub classes: Vec<String>,
    /// Whether `longest` was written.
    pub longest: bool,
}

/// `action NAME when COND { effects }`: a move written NAME, made by the player to move
/// when COND holds (from that player's point of view).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Action {
    /// The action's name, which is also how the move is written.
    pub name: String,
    /// When the action is available (`Cond::True` without `when`).
    pub when: Cond,
    /// What playing it does; the turn then passes unless one of them is `again`.
    pub effects: Vec<Effect>,
}

/// One entry of `players`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Player {
    /// The name as declared, also how results name the player (`result: white`).
    pub name: String,
    /// The absolute direction (an index into the board's directions) `forward` means.
    pub forward: Option<u8>,
}

/// A named set of cells, possibly different for each player.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Region {
    /// The name as declared, or the built-in name (`edge`, …).
    pub name: String,
    /// One cell list for every player (identical when the region is shared).
    pub cells: Vec<Vec<Cell>>,
}

/// `flag NAME = REGION`: a per-cell boolean, part of the position.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Flag {
    /// The name as declared.
    pub name: String,
    /// The cells where the flag is set at the start.
    pub initial: Vec<Cell>,
}

/// `piece NAME letter L`: a piece type, shared by every player.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Piece {
    /// The name as declared.
    pub name: String,
    /// An upper-case letter A–Z, no other type's: how the type is written in move
    /// notation (`K@d4`, `=Q`).
    pub letter: char,
    /// How each player's piece is drawn, in player order (empty: the letter, upper case
    /// for the first player and lower case for the others).
    pub symbols: Vec<char>,
}

/// One piece of the setup.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Placement {
    /// A player's index, or the number of players for a neutral piece.
    pub player: u8,
    /// The piece type (index into [`Game::pieces`]).
    pub piece: u8,
    /// Where the piece stands; no two placements share a cell.
    pub cell: Cell,
}

/// `counter NAME = N`: an integer every player has a value of, not part of the position
/// for repetition.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Counter {
    /// The name as declared.
    pub name: String,
    /// Every player's value at the start.
    pub initial: i32,
}

/// `after move [of PIECES] { effects }`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct After {
    /// Bit set of piece types whose moves trigger these effects.
    pub pieces: u32,
    /// Run after the move and its own `then` effects, from the mover's point of view; a
    /// pass or an action triggers none.
    pub effects: Vec<Effect>,
}

/// `when COND: RESULT` in `end`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EndRule {
    /// From the point of view of the player to move.
    pub cond: Cond,
    /// The result when the condition holds.
    pub outcome: Outcome,
}

/// The result an end rule declares.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum Outcome {
    /// `draw`.
    Draw,
    /// `higher score wins`: the one player with the highest score wins; equal top scores
    /// draw.
    HigherScoreWins,
    /// `P wins`.
    Wins(PlayerRef),
    /// `P loses`: with two players, the other one wins; with more, the game ends as P's
    /// loss.
    Loses(PlayerRef),
}

/// A direction as written: fixed, relative to the perspective player's forward, or a variable.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum DirRef {
    /// An index into the board's directions.
    Abs(u8),
    /// A rotation (clockwise, in directions) from the perspective player's forward.
    Rel(u8),
    /// The direction bound to a variable by `for d in` or `any`/`all d in`.
    Var(Slot),
    /// The opposite of the direction in a variable.
    Opp(Slot),
}

impl DirRef {
    /// Whether the direction is known without a variable (from the point of view alone).
    pub fn is_fixed(&self) -> bool {
        matches!(self, DirRef::Abs(_) | DirRef::Rel(_))
    }
}

/// A piece type: fixed, or the variable of a `for p in PIECES` loop.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum PieceRef {
    /// A piece type (index into [`Game::pieces`]).
    Const(u8),
    /// The type chosen by the enclosing [`Stmt::ForPiece`].
    Var(Slot),
}

/// A player as written in a rule.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum PlayerRef {
    /// The player whose point of view applies: the mover in move rules, effects and
    /// `legal`; the player to move in end rules and `score`.
    Me,
    /// `opponent`: the player after `Me` in the order of play (the other one, with two).
    Opponent,
    /// The player who made the last move.
    Previous,
    /// A player named in the file (index into [`Game::players`]).
    Named(u8),
}

/// Whose pieces a [`Test::Piece`] accepts, from the point-of-view player's side.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum Owner {
    /// Anyone's, neutral pieces included (a piece name alone: `King`).
    Any,
    /// The point-of-view player's.
    Friend,
    /// Any other player (neutral pieces are nobody's enemy).
    Enemy,
    /// One named player's (index into [`Game::players`]).
    Player(u8),
    /// Pieces that belong to no player.
    Neutral,
}

/// A cell test: a condition on one cell, its content and the point of view (what follows
/// `to`, `on`, `is`, `where`, `first` and `find`). It never holds for "no cell".
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Test {
    /// `any`: every cell.
    Any,
    /// `empty`: no piece on the cell.
    Empty,
    /// `occupied`: a piece on the cell.
    Occupied,
    /// A piece of one of the types in `pieces` (bit `i`: [`Game::pieces`]`[i]`) belonging
    /// to `owner`: `friend` and `enemy` alone are every type, a group several.
    Piece {
        /// Whose pieces count.
        owner: Owner,
        /// Bit set of the piece types that count.
        pieces: u32,
    },
    /// The flag (index into [`Game::flags`]) is set on the cell.
    Flag(u8),
    /// The cell belongs to the region (index into [`Game::regions`]), in its cells for
    /// the point-of-view player.
    Region(u8),
    /// `attacked`: a piece of another player attacks the cell by its attack rules (read
    /// from that player's point of view).
    Attacked,
    /// A definition of one cell parameter used as a test: the condition with the cell
    /// in the slot.
    Def {
        /// Where the tested cell is put for the condition.
        slot: Slot,
        /// The definition's body, expanded.
        cond: Box<Cond>,
    },
    /// Never written by the checker: the engine replaces every test that depends only on
    /// the cell, its content and the point of view by a lookup in precomputed table `n`.
    Table(u16),
    /// `not T`.
    Not(Box<Test>),
    /// `T and U …`: every part holds.
    And(Vec<Test>),
    /// `T or U …`: some part holds.
    Or(Vec<Test>),
}

/// An expression whose value is a cell, or "no cell" (off the board, nothing found, no
/// last move): a condition about no cell is false.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum CellExpr {
    /// `from`: where the moving piece starts (in a chain, the current hop); no cell for a
    /// placement.
    From,
    /// `to`: the target of the move (in a chain, where the current hop lands).
    To,
    /// `last-from`: the origin of the last move made (in `legal if` and effects, of the
    /// move being judged or played); no cell before the first move or after a pass.
    LastFrom,
    /// `last-to`: the target of the last move made, as for `LastFrom`.
    LastTo,
    /// A square written in the file (`e5`).
    Const(Cell),
    /// The cell in a variable: a `let`, a `choose`, a `for c from … while`, or the
    /// parameter of a definition used as a cell test.
    Slot(Slot),
    /// `count` steps in a direction; off the board yields no cell.
    Step(Box<CellExpr>, DirRef, u8),
    /// First cell passing `test` beyond `start` in `dir`.
    First {
        /// What the cell must pass; cells failing it are skipped.
        test: Box<Test>,
        /// The cell the search starts after.
        start: Box<CellExpr>,
        /// The direction searched, to the edge of the board.
        dir: DirRef,
    },
    /// First cell on the board (a1, b1, …) passing `test`.
    Find(Box<Test>),
}

/// A comparison of two numbers.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Whether `a OP b`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// A condition on the position, from the point-of-view player's side.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Cond {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `CELL is TEST`, and `CELL in REGION` (a [`Test::Region`]): the cell exists and
    /// passes the test.
    Is(CellExpr, Test),
    /// `A == B` of cells: both exist and are the same (`!=` is its `Not`).
    CellEq(CellExpr, CellExpr),
    /// `not C`.
    Not(Box<Cond>),
    /// `C and D …`: every part holds (nested `and`s are flattened into one list).
    And(Vec<Cond>),
    /// `C or D …`: some part holds (nested `or`s are flattened into one list).
    Or(Vec<Cond>),
    /// A comparison of numbers.
    Cmp(IntExpr, CmpOp, IntExpr),
    /// `A == B` of players: both are the same player (`!=` is its `Not`).
    PlayerEq(PlayerRef, PlayerRef),
    /// `any d in DIRS: C`: the body holds for some direction, bound to the slot in turn.
    Exists {
        /// Where each direction is put for the body.
        slot: Slot,
        /// The directions tried, in order.
        dirs: Vec<DirRef>,
        /// The condition about the direction in the slot.
        body: Box<Cond>,
    },
    /// `all d in DIRS: C`: the body holds for every direction, bound to the slot in turn.
    Forall {
        /// Where each direction is put for the body.
        slot: Slot,
        /// The directions tried, in order.
        dirs: Vec<DirRef>,
        /// The condition about the direction in the slot.
        body: Box<Cond>,
    },
    /// The player to move has no legal move (a pass excluded).
    NoMoves,
    /// The condition from another player's point of view.
    As(PlayerRef, Box<Cond>),
    /// A chain of neighbouring cells passing the test joins the two regions. Neighbours
    /// here are orthogonal ones (all six on a hexagonal board), as for
    /// [`IntExpr::Group`] and [`IntExpr::Groups`].
    Connects {
        /// What every cell of the chain passes.
        test: Test,
        /// The region the chain starts in (its point-of-view cells).
        a: u8,
        /// The region the chain must reach.
        b: u8,
    },
    /// Compute a cell once, bind it to a slot, then evaluate the body. Never written by
    /// the checker: an engine pass binds a `find` this way before a quantifier, so that
    /// it is computed once rather than once per direction.
    Let {
        /// Where the cell is put.
        slot: Slot,
        /// The cell, computed once.
        value: CellExpr,
        /// The condition that reads it from the slot.
        body: Box<Cond>,
    },
}

/// A number, from the point-of-view player's side where it matters. Arithmetic saturates
/// at the bounds of `i64`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum IntExpr {
    /// A number written in the file (a parameter is already replaced by its value).
    Const(i64),
    /// The player's value of a counter (index into [`Game::counters`]).
    Counter(u8),
    /// `moves-made`: moves the player has made, passes excluded.
    MovesMade,
    /// `passes`: passes made in a row just before now (0 after a real move).
    Passes,
    /// `turns`: completed turns (a turn ends when the player to move changes).
    Turns,
    /// `ply`: moves made by all players, passes included.
    Ply,
    /// `repetitions`: how many times the current position has occurred, this time
    /// included (sets [`Game::tracks_repetition`]).
    Repetitions,
    /// `in-hand`: the pieces in the player's hand, all types together.
    InHand,
    /// `count attacks where TEST`: over the player's pieces, the attacked cells passing
    /// the test (a cell attacked by two pieces counts twice).
    CountAttacks(Test),
    /// `count cells where TEST`: the cells passing the test.
    CountCells(Test),
    /// Consecutive cells beyond `start` in `dir` passing the test.
    Run {
        /// What each cell of the run passes.
        test: Test,
        /// The cell the run starts after (not counted).
        start: Box<CellExpr>,
        /// The direction counted along.
        dir: DirRef,
    },
    /// `score`: the player's [`Game::score`].
    Score,
    /// The legal moves of the point-of-view player (as if it were to move).
    MoveCount,
    /// The cells passing the test joined to a cell through neighbours passing it.
    Group {
        /// What every cell of the group passes.
        test: Test,
        /// The cell whose group is counted (0 when it fails the test).
        start: Box<CellExpr>,
    },
    /// The groups of neighbouring cells passing the test.
    Groups(Test),
    /// Lines through a cell, along the board's directions, of cells passing the test:
    /// those of `n` cells or more, or of exactly `n`.
    Lines {
        /// What every cell of a line passes.
        test: Test,
        /// The cell every line counted goes through (and includes).
        through: Box<CellExpr>,
        /// The length of a line, in cells, from 1 to the number of cells.
        n: u16,
        /// Whether only lines of exactly `n` count (`lines of exactly N`).
        exact: bool,
    },
    /// `A + B`.
    Add(Box<IntExpr>, Box<IntExpr>),
    /// `A - B`.
    Sub(Box<IntExpr>, Box<IntExpr>),
    /// `A * B`.
    Mul(Box<IntExpr>, Box<IntExpr>),
    /// A number from another player's point of view: `score(P)`, `moves-made(P)`,
    /// `in-hand(P)`.
    Of(PlayerRef, Box<IntExpr>),
}

/// A statement of a `moves` or `attacks` body, run for one piece at `from` (or in hand,
/// for `place`). Move statements produce candidate moves; a candidate is a move when its
/// target passes the statement's test (`to`, `on`) and its condition.
///
/// In every move statement, `cond` is the `if COND` after the target, about each target
/// (`to` standing for it), and `then` the index in [`Program::effects`] of its
/// `then { … }` block, run when the move is played.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Stmt {
    /// `for d in DIRS { … }`: the body once per direction, with it in the slot.
    For {
        /// Where each direction is put for the body.
        slot: Slot,
        /// The directions, in order.
        dirs: Vec<DirRef>,
        /// The statements run for each.
        body: Vec<Stmt>,
    },
    /// A choice among piece types: each move the body produces is written with `=L`.
    ForPiece {
        /// Where each piece type is put for the body ([`PieceRef::Var`]).
        slot: Slot,
        /// The piece types (indices into [`Game::pieces`]), in order.
        pieces: Vec<u8>,
        /// The statements run for each.
        body: Vec<Stmt>,
    },
    /// `let NAME = CELL`: binds a cell for the rest of the block.
    Let {
        /// Where the cell is put.
        slot: Slot,
        /// The cell it names.
        value: CellExpr,
    },
    /// `if COND { … } else { … }`: runs one branch.
    If {
        /// Decides the branch, for the piece at `from`.
        cond: Cond,
        /// The statements run when it holds.
        then: Vec<Stmt>,
        /// The statements run when it does not (empty without `else`).
        otherwise: Vec<Stmt>,
    },
    /// `step DIRS`: the neighbouring cell in each direction.
    Step {
        /// The directions stepped in.
        dirs: Vec<DirRef>,
        /// What the target must pass (`empty` when not written).
        to: Test,
        /// The target condition.
        cond: Option<Cond>,
        /// The effect block.
        then: Option<u16>,
    },
    /// `slide DIRS`: along each direction, every cell up to and including the first
    /// occupied one.
    Slide {
        /// The directions slid along.
        dirs: Vec<DirRef>,
        /// At most this many cells (255, more than any line, when not written).
        max: u8,
        /// Cells the slide may pass over; a cell failing it stops the slide before it.
        through: Option<Test>,
        /// What a target must pass (`empty` when not written).
        to: Test,
        /// The target condition.
        cond: Option<Cond>,
        /// The effect block.
        then: Option<u16>,
    },
    /// `leap A B`: the cells at the leap's offsets; nothing blocks.
    Leap {
        /// The leap pattern (index into `Game::leaps`), per player when the leap is
        /// limited to directions relative to the player, otherwise one.
        leap: Vec<u16>,
        /// What a target must pass (`empty` when not written).
        to: Test,
        /// The target condition.
        cond: Option<Cond>,
        /// The effect block.
        then: Option<u16>,
    },
    /// `move to CELL`: one computed cell.
    MoveTo {
        /// The target; no cell produces no move.
        target: CellExpr,
        /// What the target must pass (`empty` when not written).
        to: Test,
        /// The target condition (`Cond::True` when not written).
        cond: Cond,
        /// The effect block.
        then: Option<u16>,
    },
    /// A move to any cell passing the test.
    MoveAny {
        /// What a target must pass.
        to: Test,
        /// The target condition.
        cond: Option<Cond>,
        /// The effect block.
        then: Option<u16>,
    },
    /// The statement's moves create a new piece of the mover's type on the target; the
    /// moving piece stays (written like a placement, `L@c4`).
    New(Box<Stmt>),
    /// Hops repeated from where each lands, as one move, while another hop exists and
    /// `until` does not hold after a hop.
    Chain {
        /// The statements producing each hop, run again from where the hop lands.
        body: Vec<Stmt>,
        /// Ends the path when it holds after a hop (`to` being where the hop landed).
        until: Option<Cond>,
    },
    /// Moves of a class of `Priority`.
    Class {
        /// The class (index into [`Priority::classes`]).
        class: u8,
        /// The statements whose moves belong to it.
        body: Vec<Stmt>,
    },
    /// `place`: for a piece type in the mover's hand, a move from the hand to every cell
    /// passing the test (one per type and cell, however many are in hand).
    Place {
        /// What a target must pass (`empty` when not written).
        on: Test,
        /// The target condition.
        cond: Option<Cond>,
        /// The effect block.
        then: Option<u16>,
    },
}

/// Effect lists referenced by index from the move statements that produce them.
pub type EffectBlocks = Vec<Vec<Effect>>;

/// A change to the position, from the mover's point of view. Effects run in order, each
/// seeing the changes of those before; `from`, `to` and the rule's variables keep the
/// values they had when the move was generated.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Effect {
    /// `if COND { … } else { … }`.
    If {
        /// Decides the branch, on the position as the effects before it left it.
        cond: Cond,
        /// The effects run when it holds.
        then: Vec<Effect>,
        /// The effects run when it does not (empty without `else`).
        otherwise: Vec<Effect>,
    },
    /// `for d in DIRS { … }`: the body once per direction, with it in the slot.
    For {
        /// Where each direction is put for the body.
        slot: Slot,
        /// The directions, in order.
        dirs: Vec<DirRef>,
        /// The effects run for each.
        body: Vec<Effect>,
    },
    /// Each cell beyond `start` in `dir`, while it passes `test`, bound to `slot`.
    Along {
        /// Where each cell is put for the body.
        slot: Slot,
        /// The cell the walk starts after.
        start: CellExpr,
        /// The direction walked.
        dir: DirRef,
        /// The walk stops at the first cell failing it.
        test: Test,
        /// The effects run for each cell.
        body: Vec<Effect>,
    },
    /// `let NAME = CELL`: binds a cell for the rest of the block.
    Let {
        /// Where the cell is put.
        slot: Slot,
        /// The cell.
        value: CellExpr,
    },
    /// `remove CELL`: empties the cell (nothing off the board).
    Remove(CellExpr),
    /// `set FLAG at CELL` and `clear FLAG at CELL`.
    SetFlag {
        /// The flag (index into [`Game::flags`]).
        flag: u8,
        /// The cell whose flag changes.
        at: CellExpr,
        /// `true` for `set`, `false` for `clear`.
        value: bool,
    },
    /// `COUNTER += N`, `-=`, `=`: changes the mover's value of a counter.
    Counter {
        /// The counter (index into [`Game::counters`]).
        counter: u8,
        /// How the value changes.
        op: CounterOp,
        /// The number added, subtracted or assigned.
        value: IntExpr,
    },
    /// `again`: the mover moves again; the turn does not pass.
    Again,
    /// The piece on the cell changes owner.
    Flip(CellExpr),
    /// The piece on the cell becomes another type (same owner).
    Change {
        /// The cell whose piece changes.
        at: CellExpr,
        /// The type it becomes.
        piece: PieceRef,
    },
    /// A new piece appears on the cell (replacing any): the mover's, or a neutral one.
    Put {
        /// The new piece's type.
        piece: PieceRef,
        /// Where it appears.
        at: CellExpr,
        /// Whether it is neutral (`put neutral …`) rather than the mover's.
        neutral: bool,
    },
    /// A cell the mover chooses, bound to the slot for the body. Each choice is a move
    /// of its own, written after the move with `/` (or `x` when the body removes).
    Choose {
        /// Where the chosen cell is put.
        slot: Slot,
        /// The cells to choose from; when there is none, the move is made without the
        /// body.
        from: ChooseFrom,
        /// The effects run with the chosen cell.
        body: Vec<Effect>,
        /// Whether the body removes (a `remove` at its top level): the choice is then
        /// written with `x`.
        removes: bool,
    },
}

/// Where the cells of a `choose` come from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum ChooseFrom {
    /// Every cell for which the condition holds, with the cell in the slot.
    Where(Cond),
    /// The targets of a pattern from a cell.
    By {
        /// The cell the pattern starts from.
        start: CellExpr,
        /// How the cells are reached from it.
        pattern: Pattern,
    },
}

/// A step, slide or leap pattern, for `choose … by`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Pattern {
    /// `step DIRS`: the neighbouring cell in each direction.
    Step {
        /// The directions stepped in.
        dirs: Vec<DirRef>,
        /// What a cell must pass (`empty` when not written).
        to: Test,
    },
    /// `slide DIRS [max N]`: along each direction, up to and including the first
    /// occupied cell.
    Slide {
        /// The directions slid along.
        dirs: Vec<DirRef>,
        /// At most this many cells (255 when not written).
        max: u8,
        /// What a cell must pass (`empty` when not written).
        to: Test,
    },
    /// `leap A B`: the cells at the leap's offsets.
    Leap {
        /// The leap pattern (index into [`Game::leaps`]).
        leap: u16,
        /// What a cell must pass (`empty` when not written).
        to: Test,
    },
}

/// How an [`Effect::Counter`] changes a counter.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum CounterOp {
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `=`
    Assign,
}

/// A checked game plus the effect blocks its move statements point into.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Program {
    /// The game.
    pub game: Game,
    /// The `then { … }` blocks of every move statement, by the index the statement holds.
    pub effects: EffectBlocks,
}
