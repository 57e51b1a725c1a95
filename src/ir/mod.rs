//! The intermediate representation: a checked game with every name resolved to an index.
//! Plain serde data (printable as RON with `regula ir`); the engine compiles it once.
//! [`visit`] walks it.

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
pub const MAX_PIECES: usize = 32;
pub const MAX_FLAGS: usize = 4;
pub const MAX_COUNTERS: usize = 8;
/// Regions are numbered by a byte, the built-in ones a rule uses included.
pub const MAX_REGIONS: usize = 256;
/// Effect blocks (`then { … }`) are numbered by two bytes.
pub const MAX_EFFECT_BLOCKS: usize = 1 << 16;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Game {
    pub name: String,
    pub meta: Vec<(String, String)>,
    pub players: Vec<Player>,
    pub board: Shape,
    pub regions: Vec<Region>,
    pub flags: Vec<Flag>,
    pub pieces: Vec<Piece>,
    pub setup: Vec<Placement>,
    /// Pieces each player holds off the board at the start: (player, piece, count).
    pub hand: Vec<(u8, u8, u16)>,
    pub counters: Vec<Counter>,
    /// Grid offsets of each distinct `leap` (see `geometry::Board::leap_offsets`).
    pub leaps: Vec<Vec<(i8, i8)>>,
    /// Move rules per piece type (same index as `pieces`).
    pub moves: Vec<Vec<Stmt>>,
    /// Attack rules per piece type; `None` means its move rules double as attacks.
    pub attacks: Vec<Option<Vec<Stmt>>>,
    pub after: Vec<After>,
    pub legal: Option<Cond>,
    pub forced_pass: bool,
    pub score: Option<IntExpr>,
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
    pub classes: Vec<String>,
    pub longest: bool,
}

/// `action NAME when COND { effects }`: a move written NAME, made by the player to move
/// when COND holds (from that player's point of view).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Action {
    pub name: String,
    pub when: Cond,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Player {
    pub name: String,
    /// The absolute direction (an index into the board's directions) `forward` means.
    pub forward: Option<u8>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Region {
    pub name: String,
    /// One cell list for every player (identical when the region is shared).
    pub cells: Vec<Vec<Cell>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Flag {
    pub name: String,
    pub initial: Vec<Cell>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Piece {
    pub name: String,
    pub letter: char,
    /// How each player's piece is drawn, in player order (empty: the letter, upper case
    /// for the first player and lower case for the others).
    pub symbols: Vec<char>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Placement {
    /// A player's index, or the number of players for a neutral piece.
    pub player: u8,
    pub piece: u8,
    pub cell: Cell,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Counter {
    pub name: String,
    pub initial: i32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct After {
    /// Bit set of piece types whose moves trigger these effects.
    pub pieces: u32,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EndRule {
    pub cond: Cond,
    pub outcome: Outcome,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum Outcome {
    Draw,
    HigherScoreWins,
    Wins(PlayerRef),
    Loses(PlayerRef),
}

/// A direction as written: fixed, relative to the perspective player's forward, or a variable.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum DirRef {
    /// An index into the board's directions.
    Abs(u8),
    /// A rotation (clockwise, in directions) from the perspective player's forward.
    Rel(u8),
    Var(Slot),
    /// The opposite of the direction in a variable.
    Opp(Slot),
}

/// A piece type: fixed, or the variable of a `for p in PIECES` loop.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum PieceRef {
    Const(u8),
    Var(Slot),
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum PlayerRef {
    /// The player whose point of view applies: the mover in move rules, effects and
    /// `legal`; the player to move in end rules and `score`.
    Me,
    Opponent,
    /// The player who made the last move.
    Previous,
    Named(u8),
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum Owner {
    Any,
    Friend,
    /// Any other player (neutral pieces are nobody's enemy).
    Enemy,
    Player(u8),
    /// Pieces that belong to no player.
    Neutral,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Test {
    Any,
    Empty,
    Occupied,
    Piece {
        owner: Owner,
        pieces: u32,
    },
    Flag(u8),
    Region(u8),
    Attacked,
    /// A definition of one cell parameter used as a test: the condition with the cell
    /// in the slot.
    Def {
        slot: Slot,
        cond: Box<Cond>,
    },
    /// Never written by the checker: the engine replaces every test that depends only on
    /// the cell, its content and the point of view by a lookup in precomputed table `n`.
    Table(u16),
    Not(Box<Test>),
    And(Vec<Test>),
    Or(Vec<Test>),
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum CellExpr {
    From,
    To,
    LastFrom,
    LastTo,
    Const(Cell),
    Slot(Slot),
    /// `count` steps in a direction; off the board yields no cell.
    Step(Box<CellExpr>, DirRef, u8),
    /// First cell passing `test` beyond `start` in `dir`.
    First {
        test: Box<Test>,
        start: Box<CellExpr>,
        dir: DirRef,
    },
    /// First cell on the board (a1, b1, …) passing `test`.
    Find(Box<Test>),
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
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

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Cond {
    True,
    False,
    Is(CellExpr, Test),
    CellEq(CellExpr, CellExpr),
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Cmp(IntExpr, CmpOp, IntExpr),
    PlayerEq(PlayerRef, PlayerRef),
    Exists {
        slot: Slot,
        dirs: Vec<DirRef>,
        body: Box<Cond>,
    },
    Forall {
        slot: Slot,
        dirs: Vec<DirRef>,
        body: Box<Cond>,
    },
    /// The player to move has no legal move (a pass excluded).
    NoMoves,
    /// The condition from another player's point of view.
    As(PlayerRef, Box<Cond>),
    /// A chain of neighbouring cells passing the test joins the two regions.
    Connects {
        test: Test,
        a: u8,
        b: u8,
    },
    /// Compute a cell once, bind it to a slot, then evaluate the body.
    Let {
        slot: Slot,
        value: CellExpr,
        body: Box<Cond>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum IntExpr {
    Const(i64),
    Counter(u8),
    MovesMade,
    Passes,
    Turns,
    Ply,
    Repetitions,
    InHand,
    CountAttacks(Test),
    CountCells(Test),
    /// Consecutive cells beyond `start` in `dir` passing the test.
    Run {
        test: Test,
        start: Box<CellExpr>,
        dir: DirRef,
    },
    Score,
    /// The legal moves of the point-of-view player (as if it were to move).
    MoveCount,
    /// The cells passing the test joined to a cell through neighbours passing it.
    Group {
        test: Test,
        start: Box<CellExpr>,
    },
    /// The groups of neighbouring cells passing the test.
    Groups(Test),
    /// Lines through a cell, along the board's directions, of cells passing the test:
    /// those of `n` cells or more, or of exactly `n`.
    Lines {
        test: Test,
        through: Box<CellExpr>,
        n: u16,
        exact: bool,
    },
    Add(Box<IntExpr>, Box<IntExpr>),
    Sub(Box<IntExpr>, Box<IntExpr>),
    Mul(Box<IntExpr>, Box<IntExpr>),
    Of(PlayerRef, Box<IntExpr>),
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Stmt {
    For {
        slot: Slot,
        dirs: Vec<DirRef>,
        body: Vec<Stmt>,
    },
    /// A choice among piece types: each move the body produces is written with `=L`.
    ForPiece {
        slot: Slot,
        pieces: Vec<u8>,
        body: Vec<Stmt>,
    },
    Let {
        slot: Slot,
        value: CellExpr,
    },
    If {
        cond: Cond,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    Step {
        dirs: Vec<DirRef>,
        to: Test,
        cond: Option<Cond>,
        then: Option<u16>,
    },
    Slide {
        dirs: Vec<DirRef>,
        max: u8,
        /// Cells the slide may pass over; a cell failing it stops the slide before it.
        through: Option<Test>,
        to: Test,
        cond: Option<Cond>,
        then: Option<u16>,
    },
    Leap {
        /// The leap pattern (index into `Game::leaps`), per player when the leap is
        /// limited to directions relative to the player, otherwise one.
        leap: Vec<u16>,
        to: Test,
        cond: Option<Cond>,
        then: Option<u16>,
    },
    MoveTo {
        target: CellExpr,
        to: Test,
        cond: Cond,
        then: Option<u16>,
    },
    /// A move to any cell passing the test.
    MoveAny {
        to: Test,
        cond: Option<Cond>,
        then: Option<u16>,
    },
    /// The statement's moves create a new piece of the mover's type on the target; the
    /// moving piece stays (written like a placement, `L@c4`).
    New(Box<Stmt>),
    /// Hops repeated from where each lands, as one move, while another hop exists and
    /// `until` does not hold after a hop.
    Chain {
        body: Vec<Stmt>,
        until: Option<Cond>,
    },
    /// Moves of a class of `Priority`.
    Class {
        class: u8,
        body: Vec<Stmt>,
    },
    Place {
        on: Test,
        cond: Option<Cond>,
        then: Option<u16>,
    },
}

/// Effect lists referenced by index from the move statements that produce them.
pub type EffectBlocks = Vec<Vec<Effect>>;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Effect {
    If {
        cond: Cond,
        then: Vec<Effect>,
        otherwise: Vec<Effect>,
    },
    For {
        slot: Slot,
        dirs: Vec<DirRef>,
        body: Vec<Effect>,
    },
    /// Each cell beyond `start` in `dir`, while it passes `test`, bound to `slot`.
    Along {
        slot: Slot,
        start: CellExpr,
        dir: DirRef,
        test: Test,
        body: Vec<Effect>,
    },
    Let {
        slot: Slot,
        value: CellExpr,
    },
    Remove(CellExpr),
    SetFlag {
        flag: u8,
        at: CellExpr,
        value: bool,
    },
    Counter {
        counter: u8,
        op: CounterOp,
        value: IntExpr,
    },
    Again,
    /// The piece on the cell changes owner.
    Flip(CellExpr),
    /// The piece on the cell becomes another type (same owner).
    Change {
        at: CellExpr,
        piece: PieceRef,
    },
    /// A new piece appears on the cell (replacing any): the mover's, or a neutral one.
    Put {
        piece: PieceRef,
        at: CellExpr,
        neutral: bool,
    },
    /// A cell the mover chooses, bound to the slot for the body. Each choice is a move
    /// of its own, written after the move with `/` (or `x` when the body removes).
    Choose {
        slot: Slot,
        from: ChooseFrom,
        body: Vec<Effect>,
        removes: bool,
    },
}

/// Where the cells of a `choose` come from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum ChooseFrom {
    /// Every cell for which the condition holds, with the cell in the slot.
    Where(Cond),
    /// The targets of a pattern from a cell.
    By { start: CellExpr, pattern: Pattern },
}

/// A step, slide or leap pattern, for `choose … by`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Pattern {
    Step {
        dirs: Vec<DirRef>,
        to: Test,
    },
    Slide {
        dirs: Vec<DirRef>,
        max: u8,
        to: Test,
    },
    Leap {
        leap: u16,
        to: Test,
    },
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub enum CounterOp {
    Add,
    Sub,
    Assign,
}

/// A checked game plus the effect blocks its move statements point into.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Program {
    pub game: Game,
    pub effects: EffectBlocks,
}
