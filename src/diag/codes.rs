//! The catalogue of diagnostic codes: one [`Code`] per distinct problem, each with a title,
//! an explanation and a wrong and a corrected example. `regula explain CODE` prints an
//! entry; docs/ERRORS.md is generated from the catalogue (a test keeps the two identical).

/// One entry of the catalogue.
#[derive(Debug)]
pub struct Entry {
    /// The code the entry explains.
    pub code: Code,
    /// A few words naming the problem, as in the headings of docs/ERRORS.md.
    pub title: &'static str,
    /// What the problem is and how to fix it, in a paragraph.
    pub explanation: &'static str,
    /// A short input that produces the diagnostic.
    pub wrong: &'static str,
    /// The same input, corrected.
    pub right: &'static str,
}

/// Declares the `Code` enum and the catalogue together, so that neither can miss an entry.
macro_rules! catalogue {
    ($($code:ident { title: $title:expr, explanation: $expl:expr, wrong: $wrong:expr, right: $right:expr, })*) => {
        /// A diagnostic code. `E` codes are errors, `W` codes warnings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $title]
                $code,
            )*
        }

        /// Every code, in order, with its explanation.
        pub const CATALOGUE: &[Entry] = &[
            $(Entry { code: Code::$code, title: $title, explanation: $expl, wrong: $wrong, right: $right },)*
        ];

        impl Code {
            /// The code as written in diagnostics: `E0102`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }
        }
    };
}

catalogue! {
    E0001 {
        title: "syntax error",
        explanation: "The text does not follow the grammar of game files. The message says what was expected at that point; the caret shows where the parser stopped.",
        wrong: "piece King letter",
        right: "piece King letter K",
    }
    E0002 {
        title: "file too large",
        explanation: "Game files are limited to 1 MiB so that checking them stays fast and bounded.",
        wrong: "(a 5 MB generated file)",
        right: "(split the generated data; real games are a few kilobytes)",
    }
    E0003 {
        title: "nesting too deep",
        explanation: "Brackets `(` and `{` may nest at most 64 levels. Deeper input is refused before parsing instead of risking the stack.",
        wrong: "define x = ((((((((... 200 levels ...))))))))",
        right: "define x = a1 is empty",
    }
    E0004 {
        title: "file cannot be read",
        explanation: "The path does not exist, is a directory, or cannot be opened.",
        wrong: "regula check games/",
        right: "regula check games/tablut.game",
    }
    E0005 {
        title: "invalid UTF-8",
        explanation: "Game files must be UTF-8 text. The location points at the first byte that is not.",
        wrong: "game \"Caf\\xe9\" { }   (saved as Latin-1)",
        right: "game \"Café\" { }      (saved as UTF-8)",
    }
    E0006 {
        title: "expression too deep",
        explanation: "An expression nests more levels than the checker accepts: about 60 levels of parentheses, operators or quantifiers inside one another, or 600 of `not`, `as P:` and quantifiers written one inside the next. A chain of operators counts one level per operator (`a + b + c` is `(a + b) + c`), so a sum, product or region expression has at most about 590 operands; group them in parentheses. Name the parts of a deep expression with `define` instead.",
        wrong: "define far = not not not not ... (a hundred levels) ... true",
        right: "define near = a1 is empty\ndefine far = not near",
    }
    E0007 {
        title: "number out of range",
        explanation: "Numbers are whole numbers from -9,223,372,036,854,775,808 to 9,223,372,036,854,775,807; a longer one cannot be read, and is not silently replaced by another. Each place that takes a number may accept less (boards, counters, hands, slides and leaps say how much).",
        wrong: "legal if moves-made < 99999999999999999999",
        right: "legal if moves-made < 1000",
    }
    E0100 {
        title: "unknown name",
        explanation: "A name in an expression is not a variable, definition, counter, player, direction, square or built-in.",
        wrong: "legal if not in_check",
        right: "define in-check = find friend King is attacked\nlegal if not in-check",
    }
    E0101 {
        title: "unknown player",
        explanation: "The name is not one of the players declared in `players { ... }`.",
        wrong: "players { white black }\nsetup { White King e1 }",
        right: "players { white black }\nsetup { white King e1 }",
    }
    E0102 {
        title: "unknown piece",
        explanation: "The name is not a declared `piece` (or, where a set of pieces is accepted, a `group`).",
        wrong: "piece King letter K\nsetup { white Kign e1 }",
        right: "piece King letter K\nsetup { white King e1 }",
    }
    E0103 {
        title: "square off the board",
        explanation: "The square, rank or file does not exist on the declared board. Files are letters from `a`, ranks numbers from 1.",
        wrong: "board 8 x 8\nsetup { white King i1 }",
        right: "board 8 x 8\nsetup { white King h1 }",
    }
    E0104 {
        title: "unknown region",
        explanation: "The name is not a declared region, nor the built-in `all` or `edge`.",
        wrong: "region throne = e5\nmoves King { slide orthogonal to not in thorne }",
        right: "region throne = e5\nmoves King { slide orthogonal to not in throne }",
    }
    E0105 {
        title: "unknown direction",
        explanation: "Directions are north, northeast, east, southeast, south, southwest, west, northwest (or N, NE, ...), the sets orthogonal, diagonal and all, the relative forward, backward, left, right, forward-left, ..., or a loop variable.",
        wrong: "moves Rook { slide orthogonals to empty }",
        right: "moves Rook { slide orthogonal to empty }",
    }
    E0106 {
        title: "unknown cell test",
        explanation: "A cell test is `empty`, `occupied`, `any`, `attacked`, `friend`, `enemy`, a piece, group or player name, an owner and a piece (`enemy King`), a flag, or `in REGION`.",
        wrong: "step all to vacant",
        right: "step all to empty",
    }
    E0107 {
        title: "one direction expected",
        explanation: "A direction set (such as `orthogonal`) was used where a single direction is needed.",
        wrong: "define up = to + orthogonal",
        right: "define up(d) = ...   // or: for d in orthogonal { ... to + d ... }",
    }
    E0108 {
        title: "unknown flag",
        explanation: "The name is not declared with `flag NAME = CELLS`.",
        wrong: "flag tile = all\n... then { clear tiles at near }",
        right: "flag tile = all\n... then { clear tile at near }",
    }
    E0109 {
        title: "unknown counter",
        explanation: "The name is not declared with `counter NAME = VALUE`.",
        wrong: "after move { opened += 1 }",
        right: "counter opened = 0\nafter move { opened += 1 }",
    }
    E0110 {
        title: "reserved name",
        explanation: "Built-in names (empty, north, all, edge, mover, ...) and names shaped like squares (`a1`) cannot be declared.",
        wrong: "region edge = rank 1",
        right: "region home = rank 1",
    }
    E0111 {
        title: "defined twice",
        explanation: "Every player, piece, group, region, flag, counter and definition needs its own name; per-player entries appear once per player.",
        wrong: "piece King letter K\npiece King letter Q",
        right: "piece King letter K\npiece Queen letter Q",
    }
    E0112 {
        title: "declared twice",
        explanation: "`board`, `players`, `game` and `legal if` may appear only once.",
        wrong: "legal if not check\nlegal if not kings-see",
        right: "legal if not check and not kings-see",
    }
    E0113 {
        title: "unsupported board",
        explanation: "Square boards have 1 to 26 files, 1 to 99 ranks and at most 676 cells; `hex F x R` rhombi and `hexagon N` boards (N at most 13) stay within 676 cells.",
        wrong: "board 27 x 27",
        right: "board 19 x 19",
    }
    E0114 {
        title: "one to six players expected",
        explanation: "`players` lists one to six names; the first moves first and turns go round in the order listed.",
        wrong: "players { }",
        right: "players { white black }",
    }
    E0115 {
        title: "missing board or players",
        explanation: "Every game declares its board and its players.",
        wrong: "piece King letter K",
        right: "players { white black }\nboard 8 x 8\npiece King letter K",
    }
    E0116 {
        title: "letter expected",
        explanation: "A piece's letter is one letter A..Z, used in notation and on the board; `shown` gives one character per player (and one more for neutral pieces) to draw it with.",
        wrong: "piece King letter Ki",
        right: "piece King letter K",
    }
    E0117 {
        title: "letter used twice",
        explanation: "Two pieces with the same letter would print the same move and board.",
        wrong: "piece Knight letter K\npiece King letter K",
        right: "piece Knight letter N\npiece King letter K",
    }
    E0118 {
        title: "too many declarations",
        explanation: "At most 32 piece types, 4 flags, 8 counters, 252 regions (256 with the built-in `all`, `edge`, `corners` and `none`), 64 variants and 64 parameters.",
        wrong: "(a 40th piece type)",
        right: "(merge pieces that move alike into one type)",
    }
    E0119 {
        title: "slide length out of range",
        explanation: "The `max` of a slide is the most cells it may go: at least 1, at most 255.",
        wrong: "slide orthogonal max 0 to empty",
        right: "slide orthogonal max 1 to empty",
    }
    E0120 {
        title: "per-player region incomplete",
        explanation: "A region given per player must give cells for every player.",
        wrong: "region home {\n  white: rank 1\n}",
        right: "region home {\n  white: rank 1\n  black: rank 8\n}",
    }
    E0121 {
        title: "per-player region where the player is unknown",
        explanation: "A region that differs per player can be used in rules (the player is known there), not inside another shared region.",
        wrong: "region start { white: rank 2  black: rank 7 }\nregion both = start | rank 1",
        right: "region both { white: rank 1 | rank 2  black: rank 1 | rank 7 }",
    }
    E0122 {
        title: "region used before it is defined",
        explanation: "Regions, flags and the setup may use only regions defined above them (this rules out cycles).",
        wrong: "region b = a | rank 2\nregion a = rank 1",
        right: "region a = rank 1\nregion b = a | rank 2",
    }
    E0123 {
        title: "leap out of range",
        explanation: "A `leap A B` goes A cells one way and B the other, in any of the eight combinations of signs and order. Both distances are from 0 to 16, and not both 0.",
        wrong: "moves Knight { leap 0 0 to not friend }",
        right: "moves Knight { leap 1 2 to not friend }",
    }
    E0124 {
        title: "count in hand out of range",
        explanation: "A player holds from 0 to 65,535 pieces of one type in hand. Entries for the same player and piece add up, and so must stay within the same bound.",
        wrong: "hand { white Stone -1 }",
        right: "hand { white Stone 32 }",
    }
    E0125 {
        title: "relative direction without forward",
        explanation: "`forward`, `left`, `backward-right` ... depend on each player's forward direction, which `players` must declare.",
        wrong: "players { white black }\nmoves Pawn { step forward to empty }",
        right: "players {\n  white forward north\n  black forward south\n}\nmoves Pawn { step forward to empty }",
    }
    E0126 {
        title: "counter start out of range",
        explanation: "Counters hold whole numbers from -2,147,483,648 to 2,147,483,647; the starting value must be one of them.",
        wrong: "counter moves-left = 9999999999",
        right: "counter moves-left = 200",
    }
    E0127 {
        title: "board cannot be built",
        explanation: "A board of points is declared as lines of linked points. Each link must go along one of the eight directions of the grid (straight or diagonal), a point may be linked at most once in each direction, and every point must be on the grid.",
        wrong: "board points 3 x 3 { a1-b3 }",
        right: "board points 3 x 3 { a1-b2-c3  a1-a2-a3 }",
    }
    E0128 {
        title: "line length out of range",
        explanation: "`count lines of N where TEST through CELL` counts lines of N cells or more (or exactly N) through a cell; N is at least 1.",
        wrong: "when count lines of 0 where enemy through last-to > 0: previous wins",
        right: "when count lines of 5 where enemy through last-to > 0: previous wins",
    }
    E0129 {
        title: "bad class or chain of moves",
        explanation: "A block of moves named by a class (`capture { ... }`) must name a class declared in `priority`, and a `chain` of hops needs at least one hop rule inside.",
        wrong: "priority capture\nmoves Man { captures { step forward to enemy } }",
        right: "priority capture\nmoves Man { capture { step forward to enemy } }",
    }
    E0130 {
        title: "two pieces on one square",
        explanation: "The setup puts a second piece on a square that already holds one.",
        wrong: "setup {\n  white King e1\n  white Queen e1\n}",
        right: "setup {\n  white King e1\n  white Queen d1\n}",
    }
    E0131 {
        title: "score needed",
        explanation: "`higher score wins` compares scores, so the game must say how a player scores.",
        wrong: "end { when in-hand == 0: higher score wins }",
        right: "score = count cells where friend\nend { when in-hand == 0: higher score wins }",
    }
    E0132 {
        title: "player without pieces",
        explanation: "Each player needs pieces on the board (`setup`) or in hand (`hand`).",
        wrong: "setup { white King e1 }",
        right: "setup { white King e1  black King e8 }",
    }
    E0140 {
        title: "too many variables",
        explanation: "A rule may bind at most 6 loop or `let` variables at once (each generated move carries them for its effects).",
        wrong: "for a in all { for b in all { for c in all { ... } } }   (7 deep)",
        right: "(bind fewer variables; reuse a definition with parameters)",
    }
    E0150 {
        title: "wrong kind of value",
        explanation: "An expression has the wrong kind: a cell where a condition is needed, a number where a cell is needed, and so on.",
        wrong: "if to { remove to }",
        right: "if to is enemy { remove to }",
    }
    E0151 {
        title: "not known here",
        explanation: "Some values exist only in some places: `from` and `to` in move rules, effects and `legal if`, `no moves` and `next` in end rules, `mover` outside end rules.",
        wrong: "end { when to in edge: white wins }",
        right: "end { when last-to in edge: white wins }",
    }
    E0152 {
        title: "wrong number of arguments",
        explanation: "A definition is called with a different number of arguments than it declares.",
        wrong: "define enclosed(k) = ...\nend { when enclosed: black wins }",
        right: "define enclosed(k) = ...\nend { when enclosed(find white King): black wins }",
    }
    E0153 {
        title: "recursive definition",
        explanation: "Definitions are expanded where they are used, so a definition cannot use itself, directly or through others.",
        wrong: "define a = b\ndefine b = a",
        right: "define a = to is empty\ndefine b = a",
    }
    E0154 {
        title: "definition expands too much",
        explanation: "Definitions are expanded where they are used: each use is a copy of the definition, with the definitions it uses copied inside. A definition used twice in the next, over a few lines, would expand to millions of parts. The expansions of a file may add at most 100,000 parts (expressions, cell tests and directions) to its rules, nested at most 1,000 levels deep.",
        wrong: "define a = to is empty\ndefine b = a and a\ndefine c = b and b\n...\ndefine z = y and y\nlegal if z",
        right: "define a = to is empty\nlegal if a",
    }
    E0155 {
        title: "rules too costly",
        explanation: "Every position, the engine generates the moves of every piece, plays each candidate on a copy to judge `legal if`, and evaluates the end rules. A construct that loops multiplies the cost of what it contains: a quantifier by its directions, `find` and `count cells` by the cells of the board, `first` and slides by the longest line, `attacked` and `count attacks` by the attack rules of every piece. Building the engine works out, for every piece type and cell, which cells its attack rules could reach. The checker bounds this work from above (in steps, each about one part of a rule on one cell) and refuses a game whose bound passes 1,000,000,000: such rules would make listing the moves of one position take minutes or years. The message names the most costly part. The move and attack rules of all piece types may also have at most 1,000,000 parts together, a rule written for several piece types counting once for each.",
        wrong: "legal if any a in all: any b in all: any c in all: any d in all:\n  any e in all: any f in all: find attacked == from",
        right: "legal if not (find friend King is attacked)",
    }
    E0160 {
        title: "unknown variant",
        explanation: "`--variant NAME` names a variant the game file does not declare. `regula info GAME` lists the variants of a game; without `--variant`, the file is played as it is.",
        wrong: "regula moves games/shakti.game --variant inventors",
        right: "regula moves games/shakti.game --variant inventor",
    }
    E0161 {
        title: "unknown parameter",
        explanation: "A number is written as a name that is not a parameter of the game, or `--set NAME=VALUE` names one the game does not declare. Parameters are declared with `param NAME = DEFAULT in MIN..MAX`; `regula info GAME` lists them.",
        wrong: "param size = 8 in 5..26\nboard sise x sise",
        right: "param size = 8 in 5..26\nboard size x size",
    }
    E0162 {
        title: "parameter out of range",
        explanation: "A parameter's default, or a value given with `--set`, is outside the range the parameter declares (`in MIN..MAX`, both included). The range keeps every value the game is played with among those its author meant.",
        wrong: "param size = 30 in 5..26",
        right: "param size = 8 in 5..26",
    }
    E0163 {
        title: "number not known before the game starts",
        explanation: "Where the grammar takes a number (a board's size, a rank, a count in hand, a counter's start, `max`, `leap`, `lines of`), it may be written as a parameter or as arithmetic of numbers and parameters with `+`, `-` and `*` in parentheses, all known before the game starts. A value of the position, such as `turns` or `count cells`, is not.",
        wrong: "region last = rank (count cells where empty)",
        right: "param size = 8 in 5..26\nregion last = rank (size - 1)",
    }
    W0201 {
        title: "piece without move rules",
        explanation: "A piece that stands on the board or in a hand has no `moves` rule, so it can never move. Fine for blockers; often a forgotten rule.",
        wrong: "piece Rook letter R\nsetup { white Rook a1 }",
        right: "piece Rook letter R\nmoves Rook { slide orthogonal to not friend }",
    }
    W0202 {
        title: "no end rules",
        explanation: "Without end rules the game only ends when a player cannot move (a draw).",
        wrong: "(no end block)",
        right: "end { when no moves: next loses }",
    }
    W0203 {
        title: "no game block",
        explanation: "The file has no `game \"Name\" { ... }` block, so tools show it as Untitled.",
        wrong: "players { white black }",
        right: "game \"Duel\" { description \"...\" }\nplayers { white black }",
    }
    W0204 {
        title: "never used",
        explanation: "A region, definition, group, counter or flag is declared but no rule uses it.",
        wrong: "region throne = e5\n(no rule mentions throne)",
        right: "moves King { slide orthogonal to empty and not in throne }",
    }
    W0205 {
        title: "end rule never fires",
        explanation: "The condition of an end rule is always false, or an earlier rule always ends the game first.",
        wrong: "end {\n  when true: draw\n  when no moves: next loses\n}",
        right: "end {\n  when no moves: next loses\n  when repetitions >= 3: draw\n}",
    }
    W0206 {
        title: "direction named twice",
        explanation: "A list of directions names one direction twice, often once alone and once in a set such as `orthogonal`. Each naming counts: a slide over the list takes the direction again, so its moves are listed twice (and counted twice by perft); a `for` runs its body again for it, making the same moves, which are kept once; a step reaches the cell once.",
        wrong: "moves Rook { slide orthogonal, north to not friend }",
        right: "moves Rook { slide orthogonal to not friend }",
    }
    E0300 {
        title: "illegal move",
        explanation: "A move given on the command line (`--after`) is not one of the legal moves of the position it is played in. The message gives its number in the list and the legal moves there. Moves are written in canonical notation: `e2-e4`, `K@d4`, `e7-e8=Q`, `pass`.",
        wrong: "regula moves games/tablut.game --after \"e5-e1\"",
        right: "regula moves games/tablut.game --after \"d1-d4\"",
    }
    E0301 {
        title: "move after the end",
        explanation: "A move given on the command line comes after the game has ended: a finished game has no moves.",
        wrong: "regula moves tictactoe.game --after \"X@a1 O@b1 X@a2 O@b2 X@a3 O@b3\"",
        right: "regula moves tictactoe.game --after \"X@a1 O@b1 X@a2 O@b2 X@a3\"",
    }
    E0302 {
        title: "malformed position",
        explanation: "A position given on the command line (`--from`) is not written in the position notation (what `regula show --position` prints), or names something the game does not have: the board rank by rank from the top (a digit for that many empty cells, the first player's pieces in upper case, the second's in lower case), the player to move, then `key=value` fields. The caret shows the offending field.",
        wrong: "regula moves tictactoe.game --from \"3/1X/3 white\"",
        right: "regula moves tictactoe.game --from \"3/1X1/3 black hand=white:4X,black:4X\"",
    }
    E0303 {
        title: "record and result disagree",
        explanation: "Every move of a game record (`regula replay`) is legal, but the result the record states after `result:` is not the one the moves lead to: the record was edited, or written for other rules.",
        wrong: "X@a1 X@a2 X@b1 X@b2 X@c1 result: black",
        right: "X@a1 X@a2 X@b1 X@b2 X@c1 result: white",
    }
}

impl Code {
    /// The code written `text` (case-insensitive), if it exists.
    pub fn parse(text: &str) -> Option<Code> {
        CATALOGUE
            .iter()
            .map(|e| e.code)
            .find(|c| c.as_str().eq_ignore_ascii_case(text))
    }

    /// Its catalogue entry.
    pub fn entry(self) -> &'static Entry {
        CATALOGUE
            .iter()
            .find(|e| e.code == self)
            .expect("every code is in the catalogue")
    }

    /// Whether diagnostics with this code are warnings.
    pub fn is_warning(self) -> bool {
        self.as_str().starts_with('W')
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text `regula explain CODE` prints, or `None` for an unknown code.
pub fn explain(code: &str) -> Option<String> {
    let e = Code::parse(code)?.entry();
    let indent = |s: &str| -> String { s.lines().map(|l| format!("    {l}\n")).collect() };
    Some(format!(
        "{}: {}\n\n{}\n\nWrong:\n\n{}\nRight:\n\n{}",
        e.code,
        e.title,
        e.explanation,
        indent(e.wrong),
        indent(e.right)
    ))
}

/// The whole catalogue as Markdown (the content of docs/ERRORS.md).
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\nEvery diagnostic of `regula` carries one of these codes; `regula explain CODE`\nprints the same text. Codes starting with `E` are errors (exit 1 for a game file, 2 for\na command line), with `W` warnings (exit 0 unless `--deny-warnings`).\n\nThis file is generated from `src/diag/codes.rs`: edit that, then run\n`REGULA_BLESS=1 cargo test --release --test diagnostics`.\n",
    );
    for e in CATALOGUE {
        out.push_str(&format!(
            "\n## {}: {}\n\n{}\n\nWrong:\n\n```\n{}\n```\n\nRight:\n\n```\n{}\n```\n",
            e.code, e.title, e.explanation, e.wrong, e.right
        ));
    }
    out
}
