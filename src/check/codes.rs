//! The catalogue of diagnostic codes, shown by `regula explain CODE`. docs/ERRORS.md is
//! generated from it (a test keeps the two identical).

/// (code, title, explanation, wrong example, corrected example)
pub const CODES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "E0001",
        "syntax error",
        "The text does not follow the grammar of game files. The message says what was expected at that point; the caret shows where the parser stopped.",
        "piece King letter",
        "piece King letter K",
    ),
    (
        "E0002",
        "file too large",
        "Game files are limited to 1 MiB so that checking them stays fast and bounded.",
        "(a 5 MB generated file)",
        "(split the generated data; real games are a few kilobytes)",
    ),
    (
        "E0003",
        "nesting too deep",
        "Brackets `(` and `{` may nest at most 64 levels. Deeper input is refused before parsing instead of risking the stack.",
        "define x = ((((((((... 200 levels ...))))))))",
        "define x = a1 is empty",
    ),
    (
        "E0004",
        "file cannot be read",
        "The path does not exist, is a directory, or cannot be opened.",
        "regula check games/",
        "regula check games/tablut.game",
    ),
    (
        "E0005",
        "invalid UTF-8",
        "Game files must be UTF-8 text. The location points at the first byte that is not.",
        "game \"Caf\\xe9\" { }   (saved as Latin-1)",
        "game \"Café\" { }      (saved as UTF-8)",
    ),
    (
        "E0100",
        "unknown name",
        "A name in an expression is not a variable, definition, counter, player, direction, square or built-in.",
        "legal if not in_check",
        "define in-check = find friend King is attacked\nlegal if not in-check",
    ),
    (
        "E0101",
        "unknown player",
        "The name is not one of the players declared in `players { ... }`.",
        "players { white black }\nsetup { White King e1 }",
        "players { white black }\nsetup { white King e1 }",
    ),
    (
        "E0102",
        "unknown piece",
        "The name is not a declared `piece` (or, where a set of pieces is accepted, a `group`).",
        "piece King letter K\nsetup { white Kign e1 }",
        "piece King letter K\nsetup { white King e1 }",
    ),
    (
        "E0103",
        "square off the board",
        "The square, rank or file does not exist on the declared board. Files are letters from `a`, ranks numbers from 1.",
        "board 8 x 8\nsetup { white King i1 }",
        "board 8 x 8\nsetup { white King h1 }",
    ),
    (
        "E0104",
        "unknown region",
        "The name is not a declared region, nor the built-in `all` or `edge`.",
        "region throne = e5\nmoves King { slide orthogonal to not in thorne }",
        "region throne = e5\nmoves King { slide orthogonal to not in throne }",
    ),
    (
        "E0105",
        "unknown direction",
        "Directions are north, northeast, east, southeast, south, southwest, west, northwest (or N, NE, ...), the sets orthogonal, diagonal and all, the relative forward, backward, left, right, forward-left, ..., or a loop variable.",
        "moves Rook { slide orthogonals to empty }",
        "moves Rook { slide orthogonal to empty }",
    ),
    (
        "E0106",
        "unknown cell test",
        "A cell test is `empty`, `occupied`, `any`, `attacked`, `friend`, `enemy`, a piece, group or player name, an owner and a piece (`enemy King`), a flag, or `in REGION`.",
        "step all to vacant",
        "step all to empty",
    ),
    (
        "E0107",
        "one direction expected",
        "A direction set (such as `orthogonal`) was used where a single direction is needed.",
        "define up = to + orthogonal",
        "define up(d) = ...   // or: for d in orthogonal { ... to + d ... }",
    ),
    (
        "E0108",
        "unknown flag",
        "The name is not declared with `flag NAME = CELLS`.",
        "flag tile = all\n... then { clear tiles at near }",
        "flag tile = all\n... then { clear tile at near }",
    ),
    (
        "E0109",
        "unknown counter",
        "The name is not declared with `counter NAME = VALUE`.",
        "after move { opened += 1 }",
        "counter opened = 0\nafter move { opened += 1 }",
    ),
    (
        "E0110",
        "reserved name",
        "Built-in names (empty, north, all, edge, mover, ...) and names shaped like squares (`a1`) cannot be declared.",
        "region edge = rank 1",
        "region home = rank 1",
    ),
    (
        "E0111",
        "defined twice",
        "Every player, piece, group, region, flag, counter and definition needs its own name; per-player entries appear once per player.",
        "piece King letter K\npiece King letter Q",
        "piece King letter K\npiece Queen letter Q",
    ),
    (
        "E0112",
        "declared twice",
        "`board`, `players`, `game` and `legal if` may appear only once.",
        "legal if not check\nlegal if not kings-see",
        "legal if not check and not kings-see",
    ),
    (
        "E0113",
        "unsupported board",
        "Boards have 1 to 26 files, 1 to 99 ranks and at most 256 cells.",
        "board 19 x 19",
        "board 15 x 15",
    ),
    (
        "E0114",
        "two players expected",
        "Regula plays two-player games: `players` lists exactly two names, the first moves first.",
        "players { white }",
        "players { white black }",
    ),
    (
        "E0115",
        "missing board or players",
        "Every game declares its board and its players.",
        "piece King letter K",
        "players { white black }\nboard 8 x 8\npiece King letter K",
    ),
    (
        "E0116",
        "letter expected",
        "A piece's letter is one letter A..Z, used in notation and on the board.",
        "piece King letter Ki",
        "piece King letter K",
    ),
    (
        "E0117",
        "letter used twice",
        "Two pieces with the same letter would print the same move and board.",
        "piece Knight letter K\npiece King letter K",
        "piece Knight letter N\npiece King letter K",
    ),
    (
        "E0118",
        "too many declarations",
        "At most 32 piece types, 4 flags and 8 counters.",
        "(a 40th piece type)",
        "(merge pieces that move alike into one type)",
    ),
    (
        "E0119",
        "number out of range",
        "A number is outside what the construct accepts (e.g. `slide ... max 0`, a leap of 20, a negative count in hand).",
        "slide orthogonal max 0 to empty",
        "slide orthogonal max 1 to empty",
    ),
    (
        "E0120",
        "per-player region incomplete",
        "A region given per player must give cells for every player.",
        "region home {\n  white: rank 1\n}",
        "region home {\n  white: rank 1\n  black: rank 8\n}",
    ),
    (
        "E0121",
        "per-player region where the player is unknown",
        "A region that differs per player can be used in rules (the player is known there), not inside another shared region.",
        "region start { white: rank 2  black: rank 7 }\nregion both = start | rank 1",
        "region both { white: rank 1 | rank 2  black: rank 1 | rank 7 }",
    ),
    (
        "E0122",
        "region used before it is defined",
        "Regions, flags and the setup may use only regions defined above them (this rules out cycles).",
        "region b = a | rank 2\nregion a = rank 1",
        "region a = rank 1\nregion b = a | rank 2",
    ),
    (
        "E0125",
        "relative direction without forward",
        "`forward`, `left`, `backward-right` ... depend on each player's forward direction, which `players` must declare.",
        "players { white black }\nmoves Pawn { step forward to empty }",
        "players {\n  white forward north\n  black forward south\n}\nmoves Pawn { step forward to empty }",
    ),
    (
        "E0130",
        "two pieces on one square",
        "The setup puts a second piece on a square that already holds one.",
        "setup {\n  white King e1\n  white Queen e1\n}",
        "setup {\n  white King e1\n  white Queen d1\n}",
    ),
    (
        "E0131",
        "score needed",
        "`higher score wins` compares scores, so the game must say how a player scores.",
        "end { when in-hand == 0: higher score wins }",
        "score = count cells where friend\nend { when in-hand == 0: higher score wins }",
    ),
    (
        "E0132",
        "player without pieces",
        "Each player needs pieces on the board (`setup`) or in hand (`hand`).",
        "setup { white King e1 }",
        "setup { white King e1  black King e8 }",
    ),
    (
        "E0140",
        "too many variables",
        "A rule may bind at most 6 loop or `let` variables at once (each generated move carries them for its effects).",
        "for a in all { for b in all { for c in all { ... } } }   (7 deep)",
        "(bind fewer variables; reuse a definition with parameters)",
    ),
    (
        "E0150",
        "wrong kind of value",
        "An expression has the wrong kind: a cell where a condition is needed, a number where a cell is needed, and so on.",
        "if to { remove to }",
        "if to is enemy { remove to }",
    ),
    (
        "E0151",
        "not known here",
        "Some values exist only in some places: `from` and `to` in move rules, effects and `legal if`, `no moves` and `next` in end rules, `mover` outside end rules.",
        "end { when to in edge: white wins }",
        "end { when last-to in edge: white wins }",
    ),
    (
        "E0152",
        "wrong number of arguments",
        "A definition is called with a different number of arguments than it declares.",
        "define enclosed(k) = ...\nend { when enclosed: black wins }",
        "define enclosed(k) = ...\nend { when enclosed(find white King): black wins }",
    ),
    (
        "E0153",
        "recursive definition",
        "Definitions are expanded where they are used, so a definition cannot use itself, directly or through others.",
        "define a = b\ndefine b = a",
        "define a = to is empty\ndefine b = a",
    ),
    (
        "W0201",
        "piece without move rules",
        "A piece that stands on the board or in a hand has no `moves` rule, so it can never move. Fine for blockers; often a forgotten rule.",
        "piece Rook letter R\nsetup { white Rook a1 }",
        "piece Rook letter R\nmoves Rook { slide orthogonal to not friend }",
    ),
    (
        "W0202",
        "no end rules",
        "Without end rules the game only ends when a player cannot move (a draw).",
        "(no end block)",
        "end { when no moves: next loses }",
    ),
    (
        "W0203",
        "no game block",
        "The file has no `game \"Name\" { ... }` block, so tools show it as Untitled.",
        "players { white black }",
        "game \"Duel\" { description \"...\" }\nplayers { white black }",
    ),
    (
        "W0204",
        "never used",
        "A region, definition, group, counter or flag is declared but no rule uses it.",
        "region throne = e5\n(no rule mentions throne)",
        "moves King { slide orthogonal to empty and not in throne }",
    ),
    (
        "W0205",
        "end rule never fires",
        "The condition of an end rule is always false, or an earlier rule always ends the game first.",
        "end {\n  when true: draw\n  when no moves: next loses\n}",
        "end {\n  when no moves: next loses\n  when repetitions >= 3: draw\n}",
    ),
];

pub fn explain(code: &str) -> Option<String> {
    CODES
        .iter()
        .find(|c| c.0.eq_ignore_ascii_case(code))
        .map(render)
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

fn render(c: &(&str, &str, &str, &str, &str)) -> String {
    format!(
        "{}: {}\n\n{}\n\nWrong:\n\n{}\nRight:\n\n{}",
        c.0,
        c.1,
        c.2,
        indent(c.3),
        indent(c.4)
    )
}

/// The whole catalogue as Markdown (the content of docs/ERRORS.md).
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\nEvery diagnostic of `regula check` carries one of these codes; `regula explain CODE`\nprints the same text. Codes starting with `E` are errors (exit 1), with `W` warnings\n(exit 0 unless `--deny-warnings`).\n\nThis file is generated from `src/check/codes.rs`: edit that, then run\n`REGULA_BLESS=1 cargo test --release --test diagnostics`.\n",
    );
    for c in CODES {
        out.push_str(&format!(
            "\n## {}: {}\n\n{}\n\nWrong:\n\n```\n{}\n```\n\nRight:\n\n```\n{}\n```\n",
            c.0, c.1, c.2, c.3, c.4
        ));
    }
    out
}
