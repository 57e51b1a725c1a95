//! Stage 1: source text → syntax tree. Knows the grammar, nothing about games.

pub mod ast;

use crate::diag::Diagnostic;
use ast::*;
use pest::Parser as _;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/regula.pest"]
struct Grammar;

/// Files larger than this are refused before parsing (the grammar is recursive).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;
/// Deepest bracket nesting accepted; deeper input is refused instead of risking the stack.
pub const MAX_NESTING: usize = 64;

/// Parses a whole file. On a syntax error, returns the diagnostics found.
pub fn parse(source: &str) -> Result<File, Vec<Diagnostic>> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(vec![
            Diagnostic::error(
                "E0002",
                Span::default(),
                format!("file is too large ({} bytes)", source.len()),
            )
            .with_hint(format!(
                "game files are limited to {MAX_SOURCE_BYTES} bytes"
            )),
        ]);
    }
    if let Some(span) = too_deep(source) {
        return Err(vec![
            Diagnostic::error("E0003", span, "brackets are nested too deeply").with_hint(format!(
                "at most {MAX_NESTING} levels of `(` and `{{` are accepted"
            )),
        ]);
    }
    let mut pairs = match Grammar::parse(Rule::file, source) {
        Ok(pairs) => pairs,
        Err(e) => return Err(all_syntax_errors(source, e)),
    };
    let file = pairs.next().expect("the file rule always yields one pair");
    if let Some(span) = deepest_beyond(file.clone(), MAX_TREE_DEPTH) {
        return Err(vec![
            Diagnostic::error("E0003", span, "this expression is nested too deeply")
                .with_hint("split it into named definitions (`define name = ...`)"),
        ]);
    }
    let mut items = Vec::new();
    for p in file.into_inner() {
        if p.as_rule() != Rule::EOI {
            items.push(item(p));
        }
    }
    Ok(File { items })
}

/// Deepest syntax tree accepted (a nesting level of an expression is several tree levels).
/// Later stages recurse over the tree, so its depth is bounded before they run.
const MAX_TREE_DEPTH: usize = 600;

/// The span of the first node deeper than `limit`, found without recursion.
fn deepest_beyond(root: Pair<Rule>, limit: usize) -> Option<Span> {
    let mut stack = vec![(root, 0usize)];
    while let Some((p, depth)) = stack.pop() {
        if depth > limit {
            return Some(span(&p));
        }
        stack.extend(p.into_inner().map(|c| (c, depth + 1)));
    }
    None
}

/// Parentheses opened and not closed before `pos` (outside strings and comments).
fn open_parens(source: &str, pos: usize) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut comment = false;
    for (i, c) in source.char_indices().take_while(|(i, _)| *i < pos) {
        match c {
            '\n' => comment = false,
            _ if comment => {}
            '/' if !in_string && source[i + 1..].starts_with('/') => comment = true,
            '"' => in_string = !in_string,
            '(' if !in_string => depth += 1,
            ')' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// Opening braces not yet closed before `pos` (outside strings and comments).
fn open_braces(source: &str, pos: usize) -> Vec<usize> {
    let mut open = Vec::new();
    let bytes = source.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < pos.min(bytes.len()) {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' if !in_string => open.push(i),
            b'}' if !in_string => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open
}

/// At most this many syntax errors are reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

const SECTIONS: &[&str] = &[
    "game", "players", "board", "region", "flag", "piece", "group", "setup", "hand", "counter",
    "define", "moves", "attacks", "after", "legal", "pass", "score", "end",
];

/// The first syntax error, then the others: parsing resumes at each later line that starts a
/// section, so that one run reports a mistake in every section.
fn all_syntax_errors(source: &str, first: pest::error::Error<Rule>) -> Vec<Diagnostic> {
    let mut out = vec![syntax_error(source, 0, first)];
    let (mut from, mut resumed) = (out[0].span.start, 0);
    while out.len() < MAX_SYNTAX_ERRORS {
        let Some(next) = next_section_start(source, from, resumed) else {
            break;
        };
        resumed = next;
        let rest = &source[next..];
        match Grammar::parse(Rule::file, rest) {
            Ok(_) => break,
            Err(e) => {
                let d = syntax_error(source, next, e);
                from = d.span.start;
                out.push(d);
            }
        }
    }
    out
}

/// Where parsing can resume after an error at `from`: the first section keyword that begins a
/// line, at or after `from` and after the previous resumption point `after`.
fn next_section_start(source: &str, from: usize, after: usize) -> Option<usize> {
    let mut line_start = source[..from.min(source.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    while line_start < source.len() {
        let line = &source[line_start..];
        let word_pos = line_start + (line.len() - line.trim_start_matches([' ', '\t']).len());
        let word: String = source[word_pos..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if word_pos >= from && word_pos > after && SECTIONS.contains(&word.as_str()) {
            return Some(word_pos);
        }
        line_start += line.find('\n').map_or(line.len(), |i| i + 1);
    }
    None
}

fn too_deep(source: &str) -> Option<Span> {
    let mut depth = 0usize;
    let mut in_string = false;
    for (i, c) in source.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '(' | '{' if !in_string => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(Span {
                        start: i,
                        end: i + 1,
                    });
                }
            }
            ')' | '}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn describe(rule: &Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        EOI => "end of file",
        item | game_item | players_item | board_item | region_item | flag_item | piece_item
        | group_item | setup_item | hand_item | counter_item | define_item | moves_item
        | attacks_item | after_item | legal_item | pass_item | score_item | end_item => {
            "a section (`game`, `board`, `piece`, `moves`, `end`, ...)"
        }
        name | name_list | params => "a name",
        square | squares => "a square such as `e5`",
        int => "a number",
        string => "a quoted string",
        meta => "a `key \"text\"` line",
        player_decl => "a player name",
        region_expr | region_case => "a region (squares, `rank 1`, `file a`, or a region name)",
        region_op => "`|`, `&` or `-`",
        setup_entry => "a setup line `Player Piece squares`",
        hand_entry | hand_count => "a hand line `Player Piece count ...`",
        end_rule => "an end rule `when CONDITION: RESULT`",
        outcome | wins | loses | draw | higher_wins => {
            "a result (`White wins`, `next loses`, `draw`, `higher score wins`)"
        }
        block | effect_block => "`{`",
        stmt | for_stmt | if_stmt | let_stmt | step_stmt | slide_stmt | leap_stmt | move_stmt
        | place_stmt => {
            "a move rule (`step`, `slide`, `leap`, `move to`, `place`, `for`, `if`, `let`)"
        }
        effect | if_effect | for_effect | remove_eff | clear_eff | set_eff | again_eff
        | counter_eff => {
            "an effect (`remove`, `clear`, `set`, `again`, a counter update, `if`, `for`)"
        }
        counter_op => "`+=`, `-=` or `=`",
        to_clause => "`to` and a cell test",
        then_clause => "`then { ... }`",
        max_clause => "`max` and a number",
        dirs => "a direction",
        expr | or_expr | and_expr | not_expr | cmp_expr | sum | product | quantifier | first
        | find | count | no_moves | call | from_kw | to_kw => "an expression",
        cmp_op => "a comparison",
        add_op => "`+` or `-`",
        test | test_and | test_unary | test_in | test_words => {
            "a cell test (`empty`, `enemy King`, `in throne`, ...)"
        }
        k_game => "`game`",
        k_players => "`players`",
        k_board => "`board`",
        k_x => "`x`",
        k_letter => "`letter`",
        k_to => "`to`",
        k_from => "`from`",
        k_toward => "`toward`",
        k_in => "`in`",
        k_if => "`if`",
        k_when => "`when`",
        k_is => "`is`",
        k_at => "`at`",
        k_move => "`move`",
        k_moves => "`moves`",
        k_score => "`score`",
        k_wins => "`wins`",
        k_then => "`then`",
        k_else => "`else`",
        k_and => "`and`",
        k_or => "`or`",
        k_of => "`of`",
        k_on => "`on`",
        k_max => "`max`",
        k_forward => "`forward`",
        k_where => "`where`",
        _ => return None,
    })
}

/// A pest error as a diagnostic. `base` is where parsing started in `full` (non-zero when
/// resuming after an earlier error); the error's positions are relative to it.
fn syntax_error(full: &str, base: usize, e: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let source = &full[base..];
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found = found_at(source, pos);
    let top_level = open_braces(source, pos).is_empty();
    let mut expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .filter_map(|r| {
                if top_level && is_section(r) {
                    Some(SECTION)
                } else {
                    describe(r)
                }
            })
            .collect(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    expected.sort();
    expected.dedup();
    let message = match expected.len() {
        0 => format!("unexpected {found}"),
        1 => format!("expected {}, found {found}", expected[0]),
        _ => {
            let (last, rest) = expected.split_last().expect("len >= 2");
            format!("expected {} or {last}, found {found}", rest.join(", "))
        }
    };
    let end = pos + source[pos..].chars().next().map_or(0, char::len_utf8);
    let mut d = Diagnostic::error(
        "E0001",
        Span {
            start: base + pos,
            end: base + end,
        },
        message,
    );
    if let Some(h) = syntax_hint(full, base, pos) {
        d = d.with_hint(h);
    }
    d
}

fn found_at(source: &str, pos: usize) -> String {
    let rest = &source[pos..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    if rest.is_empty() {
        "end of file".into()
    } else if !word.is_empty() {
        format!("`{word}`")
    } else {
        format!("`{}`", rest.chars().next().expect("non-empty"))
    }
}

const SECTION: &str =
    "a section (`game`, `players`, `board`, `piece`, `setup`, `moves`, `end`, ...)";

fn is_section(rule: &Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        k_game
            | k_players
            | k_board
            | k_region
            | k_flag
            | k_piece
            | k_group
            | k_setup
            | k_hand
            | k_counter
            | k_define
            | k_moves
            | k_attacks
            | k_after
            | k_legal
            | k_pass
            | k_score
            | k_end
    )
}

fn syntax_hint(full: &str, base: usize, pos: usize) -> Option<String> {
    let source = &full[base..];
    let word: String = source[pos..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-')
        .collect();
    if let Some(&open) = open_braces(source, pos).last()
        && (pos >= source.trim_end().len() || SECTIONS.contains(&word.as_str()))
    {
        let (line, _) = crate::diag::line_col(full, base + open);
        return Some(format!(
            "the `{{` opened on line {line} is not closed: is a `}}` missing before this?"
        ));
    }
    if pos >= source.trim_end().len() && open_parens(source, pos) > 0 {
        return Some("a `(` is never closed: add the missing `)`".into());
    }
    const KEYWORDS: &[&str] = &[
        "game", "players", "board", "region", "flag", "piece", "group", "setup", "hand", "counter",
        "define", "moves", "attacks", "after", "legal", "pass", "score", "end", "when", "step",
        "slide", "leap", "place", "move", "remove", "clear", "set", "again", "first", "find",
        "count", "toward", "letter", "forward",
    ];
    if !word.is_empty()
        && !KEYWORDS.contains(&word.as_str())
        && let Some(k) = crate::diag::suggest(&word, KEYWORDS.iter().copied())
    {
        return Some(format!("did you mean the keyword `{k}`?"));
    }
    let at_line_start = source[..pos]
        .rsplit('\n')
        .next()
        .is_some_and(|l| l.trim().is_empty());
    if SECTIONS.contains(&word.as_str()) && at_line_start {
        return Some(format!(
            "`{word}` starts a new section: is something missing at the end of the line before?"
        ));
    }
    if KEYWORDS.contains(&word.as_str()) {
        return Some(format!(
            "`{word}` is a keyword and cannot be used as a name here"
        ));
    }
    None
}

// ---------- pairs → AST ----------

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span {
        start: s.start(),
        end: s.end(),
    }
}

fn name(p: Pair<Rule>) -> Name {
    Name {
        text: p.as_str().to_string(),
        span: span(&p),
    }
}

fn int(p: Pair<Rule>) -> i64 {
    // Out-of-range numbers saturate; the checker rejects them with a location.
    p.as_str()
        .parse()
        .unwrap_or(if p.as_str().starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        })
}

fn string(p: Pair<Rule>) -> String {
    let s = p.as_str();
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(c) => out.push(c),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a pair is a keyword token, which carries no information once matched.
fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::k_game
            | Rule::k_players
            | Rule::k_board
            | Rule::k_region
            | Rule::k_flag
            | Rule::k_piece
            | Rule::k_group
            | Rule::k_setup
            | Rule::k_hand
            | Rule::k_counter
            | Rule::k_define
            | Rule::k_moves
            | Rule::k_attacks
            | Rule::k_after
            | Rule::k_legal
            | Rule::k_pass
            | Rule::k_score
            | Rule::k_end
            | Rule::k_when
            | Rule::k_for
            | Rule::k_in
            | Rule::k_let
            | Rule::k_if
            | Rule::k_else
            | Rule::k_step
            | Rule::k_slide
            | Rule::k_leap
            | Rule::k_place
            | Rule::k_move
            | Rule::k_to
            | Rule::k_then
            | Rule::k_max
            | Rule::k_remove
            | Rule::k_clear
            | Rule::k_set
            | Rule::k_again
            | Rule::k_and
            | Rule::k_or
            | Rule::k_not
            | Rule::k_is
            | Rule::k_first
            | Rule::k_from
            | Rule::k_toward
            | Rule::k_find
            | Rule::k_count
            | Rule::k_where
            | Rule::k_wins
            | Rule::k_loses
            | Rule::k_draw
            | Rule::k_of
            | Rule::k_letter
            | Rule::k_forward
            | Rule::k_at
            | Rule::k_on
            | Rule::k_no
            | Rule::k_x
            | Rule::k_any
            | Rule::k_all
            | Rule::k_cells
            | Rule::k_higher
            | Rule::k_rank
            | Rule::k_file
            | Rule::k_flip
            | Rule::k_change
            | Rule::k_put
            | Rule::k_while
            | Rule::k_opposite
            | Rule::k_as
    )
}

/// Inner pairs without keyword tokens.
fn meaningful(p: Pair<Rule>) -> Vec<Pair<Rule>> {
    p.into_inner()
        .filter(|q| !is_keyword(q.as_rule()))
        .collect()
}

fn names(p: Pair<Rule>) -> Vec<Name> {
    p.into_inner().map(name).collect()
}

fn item(p: Pair<Rule>) -> Item {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = meaningful(p).into_iter();
    match rule {
        Rule::game_item => {
            let title = string(inner.next().expect("title"));
            let meta = inner
                .map(|m| {
                    let mut i = m.into_inner();
                    (
                        name(i.next().expect("key")),
                        string(i.next().expect("value")),
                    )
                })
                .collect();
            Item::Game {
                title,
                meta,
                span: sp,
            }
        }
        Rule::players_item => Item::Players(
            inner
                .map(|d| {
                    let mut i = meaningful(d).into_iter();
                    PlayerDecl {
                        name: name(i.next().expect("player")),
                        forward: i.next().map(name),
                    }
                })
                .collect(),
            sp,
        ),
        Rule::board_item => {
            let files = int(inner.next().expect("files"));
            let ranks = int(inner.next().expect("ranks"));
            Item::Board {
                files,
                ranks,
                span: sp,
            }
        }
        Rule::region_item => {
            let n = name(inner.next().expect("name"));
            let rest: Vec<_> = inner.collect();
            let def = if rest.len() == 1 && rest[0].as_rule() == Rule::region_expr {
                RegionDef::Shared(region_expr(rest.into_iter().next().expect("expr")))
            } else {
                RegionDef::PerPlayer(
                    rest.into_iter()
                        .map(|c| {
                            let mut i = c.into_inner();
                            (
                                name(i.next().expect("player")),
                                region_expr(i.next().expect("expr")),
                            )
                        })
                        .collect(),
                )
            };
            Item::Region { name: n, def }
        }
        Rule::flag_item => Item::Flag {
            name: name(inner.next().expect("name")),
            initial: region_expr(inner.next().expect("expr")),
        },
        Rule::piece_item => Item::Piece {
            name: name(inner.next().expect("name")),
            letter: name(inner.next().expect("letter")),
        },
        Rule::group_item => Item::Group {
            name: name(inner.next().expect("name")),
            members: names(inner.next().expect("list")),
        },
        Rule::setup_item => Item::Setup(
            inner
                .map(|e| {
                    let mut i = e.into_inner();
                    SetupEntry {
                        player: name(i.next().expect("player")),
                        piece: name(i.next().expect("piece")),
                        cells: region_expr(i.next().expect("cells")),
                    }
                })
                .collect(),
        ),
        Rule::hand_item => Item::Hand(
            inner
                .map(|e| {
                    let mut i = e.into_inner();
                    let player = name(i.next().expect("player"));
                    let counts = i
                        .map(|c| {
                            let sp = span(&c);
                            let mut j = c.into_inner();
                            (
                                name(j.next().expect("piece")),
                                int(j.next().expect("count")),
                                sp,
                            )
                        })
                        .collect();
                    HandEntry { player, counts }
                })
                .collect(),
        ),
        Rule::counter_item => Item::Counter {
            name: name(inner.next().expect("name")),
            initial: int(inner.next().expect("value")),
        },
        Rule::define_item => {
            let n = name(inner.next().expect("name"));
            let mut params = Vec::new();
            let mut next = inner.next().expect("body");
            if next.as_rule() == Rule::params {
                params = names(next);
                next = inner.next().expect("body");
            }
            Item::Define {
                name: n,
                params,
                body: expr(next),
            }
        }
        Rule::moves_item | Rule::attacks_item => {
            let pieces = names(inner.next().expect("pieces"));
            let body = block(inner.next().expect("block"));
            if rule == Rule::moves_item {
                Item::Moves { pieces, body }
            } else {
                Item::Attacks { pieces, body }
            }
        }
        Rule::after_item => {
            let mut pieces = None;
            let mut next = inner.next().expect("effects");
            if next.as_rule() == Rule::name_list {
                pieces = Some(names(next));
                next = inner.next().expect("effects");
            }
            Item::After {
                pieces,
                effects: effects(next),
                span: sp,
            }
        }
        Rule::legal_item => Item::Legal(expr(inner.next().expect("expr"))),
        Rule::pass_item => Item::Pass(sp),
        Rule::score_item => Item::Score(expr(inner.next().expect("expr"))),
        Rule::end_item => Item::End(
            inner
                .map(|r| {
                    let sp = span(&r);
                    let mut i = meaningful(r).into_iter();
                    let cond = expr(i.next().expect("cond"));
                    let o = i
                        .next()
                        .expect("outcome")
                        .into_inner()
                        .next()
                        .expect("kind");
                    let outcome = match o.as_rule() {
                        Rule::draw => Outcome::Draw,
                        Rule::higher_wins => Outcome::HigherScoreWins,
                        Rule::wins => Outcome::Wins(name(meaningful(o).remove(0))),
                        _ => Outcome::Loses(name(meaningful(o).remove(0))),
                    };
                    EndRule {
                        cond,
                        outcome,
                        span: sp,
                    }
                })
                .collect(),
        ),
        other => unreachable!("grammar item {other:?}"),
    }
}

fn region_expr(p: Pair<Rule>) -> RegionExpr {
    let mut inner = p.into_inner();
    let mut acc = region_term(inner.next().expect("term"));
    while let Some(op) = inner.next() {
        let op = match op.as_str() {
            "|" => RegionOp::Union,
            "&" => RegionOp::Intersection,
            _ => RegionOp::Minus,
        };
        let rhs = region_term(inner.next().expect("rhs"));
        acc = RegionExpr::Binary(op, Box::new(acc), Box::new(rhs));
    }
    acc
}

fn region_term(p: Pair<Rule>) -> RegionExpr {
    match p.as_rule() {
        Rule::squares => RegionExpr::Squares(names(p)),
        Rule::rank_term => {
            let sp = span(&p);
            RegionExpr::Rank(int(meaningful(p).remove(0)), sp)
        }
        Rule::file_term => RegionExpr::File(name(meaningful(p).remove(0))),
        Rule::region_expr => region_expr(p),
        _ => RegionExpr::Named(name(p)),
    }
}

fn block(p: Pair<Rule>) -> Vec<Stmt> {
    p.into_inner().map(stmt).collect()
}

fn dir_name(p: Pair<Rule>) -> DirName {
    let opposite = p
        .clone()
        .into_inner()
        .any(|q| q.as_rule() == Rule::k_opposite);
    let n = p
        .into_inner()
        .find(|q| q.as_rule() == Rule::name)
        .expect("direction name");
    DirName {
        name: name(n),
        opposite,
    }
}

fn dir_names(p: Pair<Rule>) -> Vec<DirName> {
    p.into_inner().map(dir_name).collect()
}

/// The optional `to TEST`, `if COND` and `then { … }` clauses of a move statement.
struct Clauses {
    to: Option<Test>,
    cond: Option<Expr>,
    then: Vec<Effect>,
}

fn clauses(inner: &mut std::iter::Peekable<std::vec::IntoIter<Pair<Rule>>>) -> Clauses {
    let mut c = Clauses {
        to: None,
        cond: None,
        then: Vec::new(),
    };
    for p in inner.by_ref() {
        match p.as_rule() {
            Rule::to_clause => c.to = Some(test(meaningful(p).remove(0))),
            Rule::if_clause => c.cond = Some(expr(meaningful(p).remove(0))),
            Rule::then_clause => c.then = effects(meaningful(p).remove(0)),
            Rule::test | Rule::test_unary => c.to = Some(test(p)),
            _ => {}
        }
    }
    c
}

fn stmt(p: Pair<Rule>) -> Stmt {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = meaningful(p).into_iter().peekable();
    match rule {
        Rule::for_stmt => {
            let var = name(inner.next().expect("var"));
            let dirs = dir_names(inner.next().expect("dirs"));
            Stmt::For {
                var,
                dirs,
                body: block(inner.next().expect("body")),
            }
        }
        Rule::if_stmt => {
            let cond = expr(inner.next().expect("cond"));
            let then = block(inner.next().expect("then"));
            let otherwise = match inner.next() {
                Some(e) if e.as_rule() == Rule::if_stmt => vec![stmt(e)],
                Some(e) => block(e),
                None => vec![],
            };
            Stmt::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::let_stmt => Stmt::Let {
            var: name(inner.next().expect("var")),
            value: expr(inner.next().expect("value")),
        },
        Rule::step_stmt => {
            let dirs = dir_names(inner.next().expect("dirs"));
            let c = clauses(&mut inner);
            Stmt::Step {
                dirs,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::slide_stmt => {
            let dirs = dir_names(inner.next().expect("dirs"));
            let mut max = None;
            if inner.peek().map(|q| q.as_rule()) == Some(Rule::max_clause) {
                let m = inner.next().expect("max");
                let msp = span(&m);
                max = Some((int(meaningful(m).remove(0)), msp));
            }
            let c = clauses(&mut inner);
            Stmt::Slide {
                dirs,
                max,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::leap_stmt => {
            let a = int(inner.next().expect("a"));
            let b = int(inner.next().expect("b"));
            let c = clauses(&mut inner);
            Stmt::Leap {
                a,
                b,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::move_stmt => {
            let target = expr(inner.next().expect("target"));
            let c = clauses(&mut inner);
            Stmt::MoveTo {
                target,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::place_stmt => {
            let c = clauses(&mut inner);
            Stmt::Place {
                on: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        other => unreachable!("grammar statement {other:?}"),
    }
}

fn effects(p: Pair<Rule>) -> Vec<Effect> {
    p.into_inner().map(effect).collect()
}

fn effect(p: Pair<Rule>) -> Effect {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = meaningful(p).into_iter();
    match rule {
        Rule::if_effect => {
            let cond = expr(inner.next().expect("cond"));
            let then = effects(inner.next().expect("then"));
            let otherwise = match inner.next() {
                Some(e) if e.as_rule() == Rule::if_effect => vec![effect(e)],
                Some(e) => effects(e),
                None => vec![],
            };
            Effect::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::for_effect => {
            let var = name(inner.next().expect("var"));
            let dirs = dir_names(inner.next().expect("dirs"));
            Effect::For {
                var,
                dirs,
                body: effects(inner.next().expect("body")),
            }
        }
        Rule::along_effect => {
            let var = name(inner.next().expect("var"));
            let start = expr(inner.next().expect("start"));
            let dir = dir_name(inner.next().expect("dir"));
            let t = test(inner.next().expect("test"));
            Effect::Along {
                var,
                start,
                dir,
                test: t,
                body: effects(inner.next().expect("body")),
            }
        }
        Rule::let_stmt => Effect::Let {
            var: name(inner.next().expect("var")),
            value: expr(inner.next().expect("value")),
        },
        Rule::remove_eff => Effect::Remove(expr(inner.next().expect("cell"))),
        Rule::flip_eff => Effect::Flip(expr(inner.next().expect("cell"))),
        Rule::change_eff => {
            let at = expr(inner.next().expect("cell"));
            Effect::Change {
                at,
                piece: name(inner.next().expect("piece")),
            }
        }
        Rule::put_eff => {
            let piece = name(inner.next().expect("piece"));
            Effect::Put {
                piece,
                at: expr(inner.next().expect("cell")),
            }
        }
        Rule::clear_eff => Effect::Clear {
            flag: name(inner.next().expect("flag")),
            at: expr(inner.next().expect("at")),
        },
        Rule::set_eff => Effect::Set {
            flag: name(inner.next().expect("flag")),
            at: expr(inner.next().expect("at")),
        },
        Rule::again_eff => Effect::Again(sp),
        Rule::counter_eff => {
            let n = name(inner.next().expect("counter"));
            let op = match inner.next().expect("op").as_str() {
                "+=" => CounterOp::Add,
                "-=" => CounterOp::Sub,
                _ => CounterOp::Assign,
            };
            Effect::Counter {
                name: n,
                op,
                value: expr(inner.next().expect("value")),
            }
        }
        other => unreachable!("grammar effect {other:?}"),
    }
}

fn binary_chain(p: Pair<Rule>, sub: fn(Pair<Rule>) -> Expr) -> Expr {
    let mut inner = p.into_inner();
    let mut acc = sub(inner.next().expect("operand"));
    while let Some(op) = inner.next() {
        let op = match op.as_str() {
            "or" => BinOp::Or,
            "and" => BinOp::And,
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            _ => BinOp::Mul,
        };
        let rhs = sub(inner.next().expect("operand"));
        let span = Span {
            start: acc.span.start,
            end: rhs.span.end,
        };
        acc = Expr {
            kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
            span,
        };
    }
    acc
}

fn expr(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    match p.as_rule() {
        Rule::expr => expr(p.into_inner().next().expect("or_expr")),
        Rule::or_expr | Rule::and_expr | Rule::sum => binary_chain(p, expr),
        Rule::product => {
            // `*` is a plain string token: rebuild the chain with explicit operators.
            let mut inner = p.into_inner();
            let mut acc = expr(inner.next().expect("atom"));
            for rhs in inner {
                let rhs = expr(rhs);
                let span = Span {
                    start: acc.span.start,
                    end: rhs.span.end,
                };
                acc = Expr {
                    kind: ExprKind::Binary(BinOp::Mul, Box::new(acc), Box::new(rhs)),
                    span,
                };
            }
            acc
        }
        Rule::k_or | Rule::k_and | Rule::add_op => {
            unreachable!("operators are consumed by binary_chain")
        }
        Rule::not_expr => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("operand");
            if first.as_rule() == Rule::k_not {
                Expr {
                    kind: ExprKind::Not(Box::new(expr(inner.next().expect("operand")))),
                    span: sp,
                }
            } else {
                expr(first)
            }
        }
        Rule::cmp_expr => {
            let mut inner = p.into_inner();
            let lhs = expr(inner.next().expect("lhs"));
            match inner.next() {
                None => lhs,
                Some(op) => match op.as_rule() {
                    Rule::k_is => Expr {
                        kind: ExprKind::Is(Box::new(lhs), test(inner.next().expect("test"))),
                        span: sp,
                    },
                    Rule::k_in => Expr {
                        kind: ExprKind::In(Box::new(lhs), name(inner.next().expect("region"))),
                        span: sp,
                    },
                    _ => {
                        let bop = match op.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<=" => BinOp::Le,
                            ">=" => BinOp::Ge,
                            "<" => BinOp::Lt,
                            _ => BinOp::Gt,
                        };
                        let rhs = expr(inner.next().expect("rhs"));
                        Expr {
                            kind: ExprKind::Binary(bop, Box::new(lhs), Box::new(rhs)),
                            span: sp,
                        }
                    }
                },
            }
        }
        Rule::quantifier => {
            let mut inner = p.into_inner();
            let all = inner.next().expect("kind").as_rule() == Rule::k_all;
            let mut rest = inner.filter(|q| q.as_rule() != Rule::k_in);
            let var = name(rest.next().expect("var"));
            let dirs = dir_names(rest.next().expect("dirs"));
            let body = Box::new(expr(rest.next().expect("body")));
            Expr {
                kind: ExprKind::Quant {
                    all,
                    var,
                    dirs,
                    body,
                },
                span: sp,
            }
        }
        Rule::first => {
            let mut inner = meaningful(p).into_iter();
            let t = test(inner.next().expect("test"));
            let start = Box::new(expr(inner.next().expect("start")));
            let dir = dir_name(inner.next().expect("dir"));
            Expr {
                kind: ExprKind::First {
                    test: t,
                    start,
                    dir,
                },
                span: sp,
            }
        }
        Rule::find => Expr {
            kind: ExprKind::Find(test(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::count => {
            let mut inner = p.into_inner();
            inner.next();
            let what = if inner.next().expect("what").as_rule() == Rule::k_attacks {
                CountWhat::Attacks
            } else {
                CountWhat::Cells
            };
            let rest: Vec<Pair<Rule>> = inner.filter(|q| !is_keyword(q.as_rule())).collect();
            let mut t = None;
            let mut along = None;
            let mut it = rest.into_iter().peekable();
            if it.peek().is_some_and(|q| q.as_rule() == Rule::test_unary) {
                t = it.next().map(test);
            }
            if let (Some(start), Some(dir)) = (it.next(), it.next()) {
                along = Some((Box::new(expr(start)), dir_name(dir)));
            }
            Expr {
                kind: ExprKind::Count {
                    what,
                    test: t,
                    along,
                },
                span: sp,
            }
        }
        Rule::viewpoint => {
            let mut inner = meaningful(p).into_iter();
            let who = name(inner.next().expect("player"));
            let body = Box::new(expr(inner.next().expect("body")));
            Expr {
                kind: ExprKind::As(who, body),
                span: sp,
            }
        }
        Rule::opposite => Expr {
            kind: ExprKind::Opposite(name(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::no_moves => Expr {
            kind: ExprKind::NoMoves,
            span: sp,
        },
        Rule::call => {
            let mut inner = p.into_inner();
            let n = name(inner.next().expect("name"));
            Expr {
                kind: ExprKind::Call(n, inner.map(expr).collect()),
                span: sp,
            }
        }
        Rule::int => Expr {
            kind: ExprKind::Int(int(p)),
            span: sp,
        },
        Rule::from_kw => Expr {
            kind: ExprKind::From,
            span: sp,
        },
        Rule::to_kw => Expr {
            kind: ExprKind::To,
            span: sp,
        },
        Rule::name => Expr {
            kind: ExprKind::Name(p.as_str().to_string()),
            span: sp,
        },
        other => unreachable!("grammar expression {other:?}"),
    }
}

fn test(p: Pair<Rule>) -> Test {
    let sp = span(&p);
    match p.as_rule() {
        Rule::test | Rule::test_and => {
            let is_or = p.as_rule() == Rule::test;
            let parts: Vec<Test> = meaningful(p).into_iter().map(test).collect();
            if parts.len() == 1 {
                parts.into_iter().next().expect("one")
            } else if is_or {
                Test {
                    kind: TestKind::Or(parts),
                    span: sp,
                }
            } else {
                Test {
                    kind: TestKind::And(parts),
                    span: sp,
                }
            }
        }
        Rule::test_unary => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("operand");
            if first.as_rule() == Rule::k_not {
                Test {
                    kind: TestKind::Not(Box::new(test(inner.next().expect("operand")))),
                    span: sp,
                }
            } else {
                test(first)
            }
        }
        Rule::test_in => Test {
            kind: TestKind::In(name(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::test_words => {
            let mut inner = p.into_inner();
            let a = name(inner.next().expect("word"));
            Test {
                kind: TestKind::Words(a, inner.next().map(name)),
                span: sp,
            }
        }
        other => unreachable!("grammar test {other:?}"),
    }
}
