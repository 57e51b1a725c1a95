//! The language's vocabulary in one table: keywords (with what they start and a one-line
//! description) and built-in names. The parser's keyword checks, the list of sections, the
//! descriptions in syntax errors, the keyword rules of the grammar
//! (`grammar/keywords.pest`) and the fuzzers' dictionary (`fuzz/regula.dict`) all come from
//! here; the two generated files are kept equal to [`grammar`] and [`fuzz_dictionary`] by a
//! test.

/// How a keyword behaves in the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeywordKind {
    /// Starts a top-level section; reserved.
    Section,
    /// Reserved: can never be a name.
    Reserved,
    /// A token only where the grammar expects it; elsewhere it may be a name or a
    /// built-in (`all` is also a direction set, `forward` a direction).
    Contextual,
}

#[derive(Debug)]
pub struct Keyword {
    pub word: &'static str,
    pub kind: KeywordKind,
    /// What it means, in one line (shown in editors and some messages).
    pub doc: &'static str,
}

macro_rules! keywords {
    ($($kind:ident $word:literal $doc:literal,)*) => {
        /// Every keyword token of the grammar.
        pub const KEYWORDS: &[Keyword] = &[
            $(Keyword { word: $word, kind: KeywordKind::$kind, doc: $doc },)*
        ];
    };
}

keywords! {
    Section "game" "the game's name and metadata: `game \"Name\" { description \"...\" }`",
    Section "players" "the players, in turn order, each with an optional `forward` direction",
    Section "board" "the board's shape and size: `board 8 x 8`",
    Section "region" "a named set of cells, possibly different per player",
    Section "flag" "a per-cell on/off mark that moves can set and clear",
    Section "piece" "a piece type with its letter: `piece King letter K`",
    Section "group" "a name for several piece types",
    Section "setup" "the pieces on the board at the start",
    Section "hand" "the pieces each player holds off the board at the start",
    Section "counter" "a per-player number that effects change",
    Section "define" "a named condition or value, with optional parameters",
    Section "moves" "the move rules of piece types",
    Section "attacks" "what piece types attack, when it differs from how they move",
    Section "after" "effects after every move (of some piece types): `after move of ... { }`",
    Section "legal" "a condition every move must satisfy, judged after the move: `legal if ...`",
    Section "pass" "`pass when no moves`: a player with no move passes",
    Section "score" "how a player scores, for `higher score wins`",
    Section "end" "the end rules, checked in order before every turn",
    Section "priority" "classes of moves that go first: `priority capture`",
    Section "action" "a move that is no piece's, by name: `action swap when ply == 1 { flip last-to }`",
    Section "param" "a number chosen on the command line, with a default and a range: `param size = 8 in 5..26`",
    Section "variant" "a named ruleset: sections that replace or add to the file's, chosen with `--variant NAME`",
    Reserved "when" "an end rule: `when CONDITION: RESULT`",
    Reserved "for" "a loop over directions or piece types, or along a line of cells",
    Reserved "in" "membership: `CELL in REGION`, `for d in DIRS`",
    Reserved "let" "binds a name to a cell for the rest of the block",
    Reserved "if" "a condition on a statement, an effect or a target",
    Reserved "else" "the other branch of an `if`",
    Reserved "step" "moves one cell in each given direction",
    Reserved "slide" "moves any number of cells along each given direction",
    Reserved "leap" "jumps to cells at fixed grid offsets: `leap 1 2` is a knight",
    Reserved "place" "enters a piece from the mover's hand",
    Reserved "move" "`move to CELL`: a move to a computed cell",
    Reserved "to" "the target of a move: `to TEST`, or the cell `to`",
    Reserved "then" "effects of one move statement: `then { ... }`",
    Reserved "max" "the longest a slide may go: `slide all max 2`",
    Reserved "remove" "removes the piece on a cell",
    Reserved "clear" "clears a flag on a cell",
    Reserved "set" "sets a flag on a cell",
    Reserved "again" "the mover moves again: the turn does not pass",
    Reserved "and" "both conditions (or cell tests) hold",
    Reserved "or" "either condition (or cell test) holds",
    Reserved "not" "the condition (or cell test) does not hold",
    Reserved "is" "tests a cell: `CELL is TEST`",
    Reserved "first" "the first cell passing a test along a direction",
    Reserved "from" "the origin of a move, or the start of a line",
    Reserved "toward" "the direction of a line: `first T from C toward D`",
    Reserved "find" "the first cell on the board passing a test",
    Reserved "count" "counts cells or attacks",
    Reserved "where" "the test of a count: `count cells where TEST`",
    Reserved "wins" "a result: `PLAYER wins`",
    Reserved "loses" "a result: `PLAYER loses`",
    Reserved "draw" "a result: the game is drawn",
    Reserved "of" "the pieces an `after move` block applies to",
    Reserved "letter" "a piece's letter, used in notation and drawings",
    Reserved "at" "the cell of an effect: `clear FLAG at CELL`",
    Reserved "on" "the cells a placement may use: `place on TEST`",
    Reserved "no" "`no moves`: the player to move has no legal move",
    Reserved "flip" "the piece on a cell changes owner",
    Reserved "change" "the piece on a cell becomes another type",
    Reserved "put" "a new piece of the mover's appears on a cell",
    Reserved "while" "how far a line of cells goes: `for c from C toward D while TEST`",
    Reserved "opposite" "the reverse of a direction",
    Reserved "as" "a condition from another player's point of view: `as PLAYER: C`",
    Reserved "chain" "hops repeated from where each lands, as one move: `chain { ... } until C`",
    Reserved "choose" "a cell the mover chooses as part of a move: `choose c where C { ... }`",
    Contextual "x" "between the sides of a board: `board 8 x 8`",
    Contextual "any" "a quantifier `any d in DIRS: C`, or the cell test that always holds",
    Contextual "all" "a quantifier `all d in DIRS: C`, every direction, or every cell",
    Contextual "cells" "what `count cells` counts",
    Contextual "higher" "`higher score wins`",
    Contextual "rank" "a rank of the board in a region: `rank 2`",
    Contextual "file" "a file of the board in a region: `file e`",
    Contextual "forward" "a player's forward direction, declared in `players`",
    Contextual "hex" "a board of hexagons in a rhombus: `board hex 11 x 11`",
    Contextual "hexagon" "a board of hexagons in a hexagon: `board hexagon 5`",
    Contextual "points" "a board of points joined by lines: `board points 7 x 7 { a1-d1-g1 ... }`",
    Contextual "shown" "how each player's piece of a type is drawn: `piece Mark letter X shown X O`",
    Contextual "longest" "`priority longest capture`: only the moves of the most hops",
    Contextual "until" "what ends a chain of hops early: `chain { ... } until to in last-rank`",
    Contextual "new" "a new piece appears on the target, the mover stays: `new step all to empty`",
    Contextual "through" "cells a slide may pass over: `slide orthogonal through not in corners`",
    Contextual "except" "directions left out of a list: `step all except backward`",
    Contextual "by" "how chosen cells are reached: `choose c from to by slide all`",
    Contextual "connects" "a chain of neighbouring cells joins two regions: `friend connects top to bottom`",
    Contextual "connected" "the cells joined to one: `count cells where friend connected to c`",
    Contextual "groups" "sets of neighbouring cells passing a test: `count groups where friend`",
    Contextual "lines" "lines through a cell: `count lines of 5 where friend through last-to`",
    Contextual "exactly" "lines of exactly N cells: `count lines of exactly 5 where ...`",
}

/// What a built-in name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    Direction,
    CellTest,
    Region,
    Player,
    Value,
}

#[derive(Debug)]
pub struct Builtin {
    pub word: &'static str,
    pub kind: BuiltinKind,
    pub doc: &'static str,
}

macro_rules! builtins {
    ($($kind:ident $word:literal $doc:literal,)*) => {
        /// Built-in names other than directions (see [`crate::geometry::direction_words`]).
        pub const BUILTINS: &[Builtin] = &[
            $(Builtin { word: $word, kind: BuiltinKind::$kind, doc: $doc },)*
        ];
    };
}

builtins! {
    CellTest "empty" "the cell has no piece",
    CellTest "occupied" "the cell has a piece",
    CellTest "any" "always holds",
    CellTest "attacked" "an enemy piece attacks the cell",
    CellTest "friend" "the cell has a piece of the point-of-view player",
    CellTest "enemy" "the cell has a piece of another player",
    Region "all" "every cell of the board",
    Region "edge" "the cells of the board's border",
    Region "corners" "the cells where two sides of the board's border meet",
    Region "none" "no cell (a flag that starts nowhere: `flag marked = none`)",
    Player "mover" "the player making the move (move rules, effects, `legal if`)",
    Player "opponent" "the other player",
    Player "next" "the player to move (end rules)",
    Player "previous" "the player who made the last move",
    Player "neutral" "the owner of pieces that belong to no player",
    Value "last-to" "the cell the last move went to",
    Value "last-from" "the cell the last move came from",
    Value "moves-made" "moves the player has made, passes excluded",
    Value "passes" "passes made in a row just before now",
    Value "turns" "completed turns",
    Value "ply" "moves made by both players, passes included",
    Value "repetitions" "how many times the current position has occurred",
    Value "in-hand" "pieces in the player's hand",
    Value "true" "the condition that always holds",
    Value "false" "the condition that never holds",
}

/// The keyword of a word, if it is one.
pub fn keyword(word: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.word == word)
}

/// Whether a word can never be a name.
pub fn is_reserved(word: &str) -> bool {
    keyword(word).is_some_and(|k| k.kind != KeywordKind::Contextual)
}

/// Whether a word starts a top-level section.
pub fn is_section(word: &str) -> bool {
    keyword(word).is_some_and(|k| k.kind == KeywordKind::Section)
}

/// Whether a word can never stand inside an expression: a reserved word that only starts
/// or separates sections, statements, effects and clauses. An expression being read has
/// ended when one comes (the syntax stage's bound on prefix nesting relies on this).
pub fn ends_expression(word: &str) -> bool {
    const WORDS: &[&str] = &[
        "when", "for", "let", "if", "else", "step", "slide", "leap", "place", "move", "then",
        "max", "remove", "clear", "set", "again", "wins", "loses", "draw", "of", "letter", "at",
        "on", "flip", "change", "put", "while",
    ];
    // `moves`, `attacks` and `score` also occur inside expressions (`no moves`,
    // `count attacks`, the value `score`).
    (is_section(word) && !matches!(word, "moves" | "attacks" | "score")) || WORDS.contains(&word)
}

/// The words that start sections, in the reference's order.
pub fn sections() -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .iter()
        .filter(|k| k.kind == KeywordKind::Section)
        .map(|k| k.word)
}

/// Whether a name is taken by the language: a built-in value, test, region, player or a
/// direction word of any board.
pub fn is_builtin_name(word: &str) -> bool {
    static DIRECTIONS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    BUILTINS.iter().any(|b| b.word == word)
        || DIRECTIONS
            .get_or_init(crate::geometry::direction_words)
            .contains(&word)
}

/// The name of a keyword's grammar rule.
pub fn rule_name(word: &str) -> String {
    format!("k_{word}")
}

/// The keyword rules of the grammar (the content of `grammar/keywords.pest`).
pub fn grammar() -> String {
    let mut reserved: Vec<&str> = KEYWORDS
        .iter()
        .filter(|k| k.kind != KeywordKind::Contextual)
        .map(|k| k.word)
        .collect();
    // Longest first: PEG alternation takes the first match, and `for` must not hide `forward`.
    reserved.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let mut out = String::from(
        "// Generated from src/keywords.rs: do not edit. A test keeps it equal to\n\
         // `regula::keywords::grammar()`; refresh with `REGULA_BLESS=1 cargo test --test docs`.\n\n",
    );
    out.push_str("// Words that can never be names.\nkeyword = @{\n    (");
    let mut line_len = 4;
    for (i, w) in reserved.iter().enumerate() {
        let piece = if i == 0 {
            format!("\"{w}\"")
        } else {
            format!(" | \"{w}\"")
        };
        if line_len + piece.len() > 92 {
            out.push_str("\n    ");
            line_len = 4;
        }
        line_len += piece.len();
        out.push_str(&piece);
    }
    out.push_str(") ~ !ident_char\n}\n\n// Each keyword as a token (atomic, so that `format` is not `for` + `mat`).\n");
    for k in KEYWORDS {
        // `x` stands between numbers: `8x8` reads as 8 x 8.
        let boundary = if k.word == "x" { "" } else { " ~ !ident_char" };
        out.push_str(&format!(
            "{} = @{{ \"{}\"{boundary} }}\n",
            rule_name(k.word),
            k.word
        ));
    }
    let sections: Vec<String> = sections().map(rule_name).collect();
    out.push_str(&format!(
        "\n// The keywords that start a section.\nsection_start = _{{ {} }}\n",
        sections.join(" | ")
    ));
    out
}

/// The fuzzers' dictionary: every keyword and built-in name (the content of
/// `fuzz/regula.dict`).
pub fn fuzz_dictionary() -> String {
    let words = KEYWORDS
        .iter()
        .map(|k| k.word)
        .chain(BUILTINS.iter().map(|b| b.word))
        .chain(crate::geometry::direction_words());
    let mut seen = std::collections::BTreeSet::new();
    let mut out = String::from("# Generated from src/keywords.rs: do not edit.\n");
    for w in words {
        if seen.insert(w) {
            out.push_str(&format!("kw{}=\"{w}\"\n", seen.len() - 1));
        }
    }
    for op in [
        "{", "}", "(", ")", ":", ",", "==", "!=", "<=", ">=", "+=", "-=", "|", "&", "*", "..",
    ] {
        out.push_str(&format!("op{}=\"{op}\"\n", seen.len()));
        seen.insert(op);
    }
    out
}

/// A word of the language as a TextMate regular expression: `-` belongs to names, so word
/// boundaries are written out.
fn tm_words(words: &[&str]) -> String {
    let mut words: Vec<&str> = words.to_vec();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.dedup();
    format!("(?<![A-Za-z0-9_-])(?:{})(?![A-Za-z0-9_-])", words.join("|"))
}

/// The TextMate grammar of game files (the content of `editors/regula.tmLanguage.json`),
/// for editors and highlighters that read TextMate grammars (VS Code, Sublime Text, bat,
/// shiki, ...). Keywords and built-in names come from the tables above.
pub fn textmate_grammar() -> String {
    use serde_json::json;
    let reserved = |ops: bool| -> Vec<&str> {
        KEYWORDS
            .iter()
            .filter(|k| k.kind == KeywordKind::Reserved)
            .map(|k| k.word)
            .filter(|w| ["and", "or", "not", "is", "in"].contains(w) == ops)
            .collect()
    };
    let sections: Vec<&str> = sections().collect();
    let builtins = |kinds: &[BuiltinKind]| -> Vec<&str> {
        BUILTINS
            .iter()
            .filter(|b| kinds.contains(&b.kind))
            .map(|b| b.word)
            .collect()
    };
    // Contextual keywords that are not also built-in names (`all`, `any`, `forward` are).
    let contextual: Vec<&str> = KEYWORDS
        .iter()
        .filter(|k| k.kind == KeywordKind::Contextual && k.word != "x" && !is_builtin_name(k.word))
        .map(|k| k.word)
        .collect();
    let name = "[A-Za-z_][A-Za-z0-9_-]*";
    let grammar = json!({
        "name": "Regula",
        "scopeName": "source.regula",
        "fileTypes": ["game"],
        "comment": "Generated from src/keywords.rs by regula::keywords::textmate_grammar(): do not edit.",
        "patterns": [
            {"include": "#comments"},
            {"include": "#strings"},
            {"include": "#declarations"},
            {"include": "#board-size"},
            {"include": "#keywords"},
            {"include": "#builtins"},
            {"include": "#literals"},
            {"include": "#operators"},
        ],
        "repository": {
            "comments": {"patterns": [
                {"name": "comment.line.double-slash.regula", "match": "//.*$"},
                {"name": "comment.block.regula", "begin": "/\\*", "end": "\\*/"},
            ]},
            "strings": {"patterns": [{
                "name": "string.quoted.double.regula",
                "begin": "\"",
                "end": "\"",
                "patterns": [{"name": "constant.character.escape.regula", "match": "\\\\."}],
            }]},
            "declarations": {"patterns": [
                {
                    "match": format!("{}\\s+({name})", tm_words(&["define"])),
                    "captures": {"0": {"name": "storage.type.regula"}, "1": {"name": "entity.name.function.regula"}},
                },
                {
                    "match": format!("{}\\s+({name})", tm_words(&["piece", "group", "region", "flag", "counter"])),
                    "captures": {"0": {"name": "storage.type.regula"}, "1": {"name": "entity.name.type.regula"}},
                },
            ]},
            "board-size": {"patterns": [{
                "match": "(?<![A-Za-z0-9_-])([0-9]+)\\s*(x)\\s*([0-9]+)(?![A-Za-z0-9_-])",
                "captures": {
                    "1": {"name": "constant.numeric.integer.regula"},
                    "2": {"name": "keyword.other.regula"},
                    "3": {"name": "constant.numeric.integer.regula"},
                },
            }]},
            "keywords": {"patterns": [
                {"name": "storage.type.regula", "match": tm_words(&sections)},
                {"name": "keyword.operator.word.regula", "match": tm_words(&reserved(true))},
                {"name": "keyword.control.regula", "match": tm_words(&reserved(false))},
                {"name": "keyword.other.regula", "match": tm_words(&contextual)},
            ]},
            "builtins": {"patterns": [
                {"name": "constant.language.regula", "match": tm_words(&["true", "false"])},
                {"name": "support.constant.direction.regula", "match": tm_words(&crate::geometry::direction_words())},
                {"name": "support.function.test.regula", "match": tm_words(&builtins(&[BuiltinKind::CellTest]))},
                {"name": "variable.language.player.regula", "match": tm_words(&builtins(&[BuiltinKind::Player]))},
                {"name": "support.constant.regula", "match": tm_words(&builtins(&[BuiltinKind::Region, BuiltinKind::Value]))},
            ]},
            "literals": {"patterns": [
                {"name": "constant.other.square.regula", "match": "(?<![A-Za-z0-9_-])[a-z][0-9]+(?![A-Za-z0-9_-])"},
                {"name": "constant.numeric.integer.regula", "match": "(?<![A-Za-z0-9_-])-?[0-9]+(?![A-Za-z0-9_-])"},
            ]},
            "operators": {"patterns": [
                {"name": "keyword.operator.regula", "match": "==|!=|<=|>=|\\+=|-=|[-+*<>=|&]"},
                {"name": "punctuation.separator.regula", "match": "[,:]"},
                {"name": "punctuation.section.braces.regula", "match": "[{}]"},
                {"name": "punctuation.section.parens.regula", "match": "[()]"},
            ]},
        },
    });
    serde_json::to_string_pretty(&grammar).expect("a JSON value prints") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unique_and_sections_reserved() {
        let mut words: Vec<&str> = KEYWORDS.iter().map(|k| k.word).collect();
        let n = words.len();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n, "a keyword is listed twice");
        assert!(is_section("moves") && is_reserved("moves"));
        assert!(is_reserved("toward") && !is_reserved("forward") && !is_reserved("all"));
        assert!(!is_section("when"));
        assert_eq!(sections().count(), 22);
    }

    #[test]
    fn the_textmate_grammar_names_every_keyword_and_built_in() {
        let g = textmate_grammar();
        let v: serde_json::Value = serde_json::from_str(&g).unwrap();
        assert_eq!(v["scopeName"], "source.regula");
        for k in KEYWORDS {
            let w = if k.word == "x" { "(x)" } else { k.word };
            assert!(g.contains(w), "{}", k.word);
        }
        for b in BUILTINS {
            assert!(g.contains(b.word), "{}", b.word);
        }
        // Longer words first, so that `to` does not hide `toward` in an alternation.
        assert!(g.find("toward").unwrap() < g.find("|to|").unwrap());
    }

    #[test]
    fn words_that_end_expressions_are_reserved() {
        // A name could stand inside an expression: none may be listed.
        for k in KEYWORDS.iter().filter(|k| ends_expression(k.word)) {
            assert!(is_reserved(k.word), "{}", k.word);
        }
        assert!(ends_expression("when") && ends_expression("board"));
        assert!(!ends_expression("moves") && !ends_expression("from") && !ends_expression("as"));
    }

    #[test]
    fn the_generated_grammar_puts_longer_words_first() {
        let g = grammar();
        let pos = |w: &str| g.find(&format!("\"{w}\"")).unwrap();
        assert!(pos("toward") < pos("to"));
        assert!(pos("setup") < pos("set"));
        assert!(pos("moves") < pos("move"));
        assert!(g.contains("k_x = @{ \"x\" }"));
    }
}
