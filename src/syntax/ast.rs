//! The syntax tree of a game file: a plain value, with a byte span on everything a
//! diagnostic may point at. Names are not resolved here.

pub use crate::diag::Span;

/// An identifier (or square, or letter) as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// A direction as written: a name, possibly reversed with `opposite`, possibly left out
/// of its list (`all except backward`).
#[derive(Clone, Debug, PartialEq)]
pub struct DirName {
    pub name: Name,
    pub opposite: bool,
    pub except: bool,
}

/// A number where the grammar takes one. Written as digits, `expr` is `None` and `value`
/// is the number; written as a parameter's name or as arithmetic in parentheses, `expr`
/// holds it until [`crate::variants::resolve`] computes `value` and clears it (the checker
/// only sees resolved files).
#[derive(Clone, Debug)]
pub struct Num {
    pub value: i64,
    pub span: Span,
    pub expr: Option<Box<Expr>>,
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.expr.as_deref().map(|e| &e.kind) {
            None => write!(f, "{}", self.value),
            Some(ExprKind::Name(n)) => write!(f, "{n}"),
            Some(_) => write!(f, "(…)"),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Game {
        title: String,
        meta: Vec<(Name, String)>,
        span: Span,
    },
    Players(Vec<PlayerDecl>, Span),
    Board {
        shape: BoardShape,
        span: Span,
    },
    Region {
        name: Name,
        def: RegionDef,
    },
    Flag {
        name: Name,
        initial: RegionExpr,
    },
    Piece {
        name: Name,
        letter: Name,
        /// How each player's piece is drawn (`shown X O`), in player order.
        shown: Vec<Name>,
    },
    Group {
        name: Name,
        members: Vec<Name>,
    },
    Setup(Vec<SetupEntry>),
    Hand(Vec<HandEntry>),
    Counter {
        name: Name,
        initial: Num,
    },
    Define {
        name: Name,
        params: Vec<Name>,
        body: Expr,
    },
    Moves {
        pieces: Vec<Name>,
        body: Vec<Stmt>,
    },
    Attacks {
        pieces: Vec<Name>,
        body: Vec<Stmt>,
    },
    After {
        pieces: Option<Vec<Name>>,
        effects: Vec<Effect>,
        span: Span,
    },
    Legal(Expr),
    Pass(Span),
    Score(Expr),
    End(Vec<EndRule>),
    /// `priority [longest] CLASS, …`
    Priority {
        longest: bool,
        classes: Vec<Name>,
        span: Span,
    },
    /// `action NAME [when COND] { effects }`
    Action {
        name: Name,
        when: Option<Expr>,
        effects: Vec<Effect>,
    },
    /// `param NAME = DEFAULT in MIN..MAX`
    Param {
        name: Name,
        default: (i64, Span),
        min: i64,
        max: i64,
        span: Span,
    },
    /// `variant NAME ["description"] { sections }`
    Variant {
        name: Name,
        description: Option<String>,
        items: Vec<Item>,
        span: Span,
    },
    /// Text that does not form a section (it has a syntax error). `keyword` is the section
    /// keyword it starts with, if any; `words` are the words it contains.
    Broken {
        span: Span,
        keyword: Option<String>,
        words: Vec<String>,
    },
}

/// The board as declared.
#[derive(Clone, Debug)]
pub enum BoardShape {
    Square {
        files: Num,
        ranks: Num,
    },
    Hex {
        files: Num,
        ranks: Num,
    },
    Hexagon {
        side: Num,
    },
    /// Points on a grid: each line is a chain of cells, consecutive ones linked.
    Points {
        files: Num,
        ranks: Num,
        lines: Vec<Vec<Name>>,
    },
}

#[derive(Clone, Debug)]
pub struct PlayerDecl {
    pub name: Name,
    pub forward: Option<Name>,
}

#[derive(Clone, Debug)]
pub enum RegionDef {
    Shared(RegionExpr),
    PerPlayer(Vec<(Name, RegionExpr)>),
}

#[derive(Clone, Debug)]
pub enum RegionExpr {
    Squares(Vec<Name>),
    Rank(Num, Span),
    File(Name),
    /// A file by its number from 1: `file 11`, `file (size)`.
    FileNumber(Num, Span),
    Named(Name),
    Binary(RegionOp, Box<RegionExpr>, Box<RegionExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionOp {
    Union,
    Intersection,
    Minus,
}

#[derive(Clone, Debug)]
pub struct SetupEntry {
    pub player: Name,
    pub piece: Name,
    pub cells: RegionExpr,
}

#[derive(Clone, Debug)]
pub struct HandEntry {
    pub player: Name,
    pub counts: Vec<(Name, Num, Span)>,
}

#[derive(Clone, Debug)]
pub struct EndRule {
    pub cond: Expr,
    pub outcome: Outcome,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Draw,
    HigherScoreWins,
    Wins(Name),
    Loses(Name),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    For {
        var: Name,
        dirs: Vec<DirName>,
        body: Vec<Stmt>,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    Let {
        var: Name,
        value: Expr,
    },
    Step {
        dirs: Vec<DirName>,
        to: Option<Test>,
        cond: Option<Expr>,
        then: Vec<Effect>,
        span: Span,
    },
    Slide {
        dirs: Vec<DirName>,
        max: Option<(Num, Span)>,
        /// Cells the slide may pass over (all, when absent).
        through: Option<Test>,
        to: Option<Test>,
        cond: Option<Expr>,
        then: Vec<Effect>,
        span: Span,
    },
    Leap {
        a: Num,
        b: Num,
        /// Only the leaps that go toward these directions (all, when empty).
        toward: Vec<DirName>,
        to: Option<Test>,
        cond: Option<Expr>,
        then: Vec<Effect>,
        span: Span,
    },
    MoveTo {
        target: MoveTarget,
        to: Option<Test>,
        cond: Option<Expr>,
        then: Vec<Effect>,
        span: Span,
    },
    Place {
        on: Option<Test>,
        cond: Option<Expr>,
        then: Vec<Effect>,
        span: Span,
    },
    /// A step, slide, leap or move whose target gets a new piece; the mover stays.
    New(Box<Stmt>),
    /// Hops repeated from where each lands, as one move.
    Chain {
        body: Vec<Stmt>,
        until: Option<Expr>,
        span: Span,
    },
    /// Moves of a class named in `priority`.
    Class {
        class: Name,
        body: Vec<Stmt>,
    },
}

/// Where `move to` goes: a computed cell, or any cell passing a test.
#[derive(Clone, Debug)]
pub enum MoveTarget {
    Cell(Expr),
    Any(Test),
}

/// A way of reaching cells from a cell, for `choose … from CELL by PATTERN`.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub kind: PatternKind,
    pub to: Option<Test>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PatternKind {
    Step(Vec<DirName>),
    Slide(Vec<DirName>, Option<(Num, Span)>),
    Leap(Num, Num),
}

/// Where the cells of a `choose` come from.
#[derive(Clone, Debug)]
pub enum ChooseFrom {
    /// Every cell for which the condition holds (with the variable bound to it).
    Where(Expr),
    /// The targets of a pattern from a cell.
    By(Expr, Pattern),
}

#[derive(Clone, Debug)]
pub enum Effect {
    If {
        cond: Expr,
        then: Vec<Effect>,
        otherwise: Vec<Effect>,
    },
    For {
        var: Name,
        dirs: Vec<DirName>,
        body: Vec<Effect>,
    },
    /// `for c from CELL toward DIR while TEST { … }`: the cells along a line.
    Along {
        var: Name,
        start: Expr,
        dir: DirName,
        test: Test,
        body: Vec<Effect>,
    },
    Let {
        var: Name,
        value: Expr,
    },
    Remove(Expr),
    Clear {
        flag: Name,
        at: Expr,
    },
    Set {
        flag: Name,
        at: Expr,
    },
    Again(Span),
    Counter {
        name: Name,
        op: CounterOp,
        value: Expr,
    },
    Flip(Expr),
    Change {
        at: Expr,
        piece: Name,
    },
    Put {
        /// `neutral`, or none for the mover.
        owner: Option<Name>,
        piece: Name,
        at: Expr,
    },
    /// A cell the mover chooses as part of the move.
    Choose {
        var: Name,
        from: ChooseFrom,
        body: Vec<Effect>,
        span: Span,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterOp {
    Add,
    Sub,
    Assign,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountWhat {
    Attacks,
    Cells,
    Moves,
    Groups,
}

/// What a `count cells` is restricted to.
#[derive(Clone, Debug)]
pub enum CountScope {
    /// The run of cells beyond a cell in a direction.
    Along(Box<Expr>, DirName),
    /// The group of neighbouring cells joined to a cell.
    Group(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Name(String),
    From,
    To,
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `A and B and …`, kept as one list however long, so that neither lowering nor
    /// dropping it recurses once per operand.
    And(Vec<Expr>),
    /// `A or B or …`, likewise.
    Or(Vec<Expr>),
    Not(Box<Expr>),
    Is(Box<Expr>, Test),
    In(Box<Expr>, Name),
    Quant {
        all: bool,
        var: Name,
        dirs: Vec<DirName>,
        body: Box<Expr>,
    },
    First {
        test: Test,
        start: Box<Expr>,
        dir: DirName,
    },
    Find(Test),
    /// `count …`; with `from CELL toward DIR`, the run of consecutive cells there; with
    /// `connected to CELL`, the group of that cell.
    Count {
        what: CountWhat,
        test: Option<Test>,
        scope: Option<CountScope>,
    },
    /// `count lines of [exactly] N where TEST through CELL`
    Lines {
        n: Num,
        exact: bool,
        test: Test,
        through: Box<Expr>,
    },
    /// `TEST connects REGION to REGION`
    Connects(Test, Name, Name),
    NoMoves,
    Opposite(Name),
    /// `as PLAYER: CONDITION`, the condition from that player's point of view.
    As(Name, Box<Expr>),
    Call(Name, Vec<Expr>),
}

/// A condition on one implicit cell.
#[derive(Clone, Debug)]
pub struct Test {
    pub kind: TestKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TestKind {
    /// One or two words: `empty`, `King`, `enemy soldier`, `White King`.
    Words(Name, Option<Name>),
    In(Name),
    Not(Box<Test>),
    And(Vec<Test>),
    Or(Vec<Test>),
}
