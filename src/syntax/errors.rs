//! Syntax errors in the author's terms: what was expected (never a rule name), what was
//! found, and a hint for the usual mistakes (an unclosed brace, a misspelt keyword, a
//! keyword used as a name).

use super::grammar::{Rule, keyword_of};
use super::limits::open_before;
use crate::diag::{Code, Diagnostic, Span};
use crate::keywords;

/// What the author would call the thing a rule stands for, as it appears in "expected …".
fn describe(rule: &Rule) -> Option<String> {
    use Rule::*;
    if let Some(word) = keyword_of(*rule) {
        return Some(format!("`{word}`"));
    }
    Some(String::from(match rule {
        EOI => "end of file",
        item | lone_item | game_item | players_item | board_item | region_item | flag_item
        | piece_item | group_item | setup_item | hand_item | counter_item | define_item
        | moves_item | attacks_item | after_item | legal_item | pass_item | score_item
        | end_item => "a section (`game`, `board`, `piece`, `moves`, `end`, ...)",
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
        | find | count | no_moves | call | from_kw | to_kw | score_kw => "an expression",
        cmp_op => "a comparison",
        add_op => "`+` or `-`",
        test | test_and | test_unary | test_in | test_words => {
            "a cell test (`empty`, `enemy King`, `in throne`, ...)"
        }
        _ => return None,
    }))
}

/// A pest error as a diagnostic. `base` is where parsing started in `full` (the start of a
/// broken stretch); the error's positions are relative to it.
pub(super) fn syntax_error(full: &str, base: usize, e: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let source = &full[base..];
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    // A broken stretch is read alone: when it ends too early, what was found instead is
    // the next thing in the file.
    let pos = next_token(source, pos);
    let found = found_at(source, pos);
    let top_level = open_before(source, pos, b'{').is_empty();
    let mut expected: Vec<String> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .filter_map(|r| {
                let section =
                    keyword_of(*r).is_some_and(keywords::is_section) || *r == Rule::lone_item;
                if top_level && section {
                    Some(SECTION.to_string())
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
    let mut d = Diagnostic::new(Code::E0001, Span::new(base + pos, base + end), message);
    if let Some(h) = syntax_hint(full, base, pos) {
        d = d.with_hint(h);
    }
    d
}

/// The position of the next token at or after `pos`, past blanks and comments.
fn next_token(source: &str, mut pos: usize) -> usize {
    loop {
        let rest = &source[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            pos += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if trimmed.starts_with("/*") {
            pos += trimmed.find("*/").map_or(trimmed.len(), |i| i + 2);
        } else {
            return pos;
        }
    }
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

/// Keywords long enough that a near miss is likely a misspelling of one.
fn misspellable() -> impl Iterator<Item = &'static str> {
    keywords::KEYWORDS
        .iter()
        .map(|k| k.word)
        .filter(|w| w.len() >= 4)
}

fn syntax_hint(full: &str, base: usize, pos: usize) -> Option<String> {
    let source = &full[base..];
    let word: String = source[pos..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-')
        .collect();
    if let Some(&open) = open_before(source, pos, b'{').last()
        && (pos >= source.trim_end().len() || keywords::is_section(&word))
    {
        let (line, _) = crate::diag::line_col(full, base + open);
        return Some(format!(
            "the `{{` opened on line {line} is not closed: is a `}}` missing before this?"
        ));
    }
    if pos >= source.trim_end().len() && !open_before(source, pos, b'(').is_empty() {
        return Some("a `(` is never closed: add the missing `)`".into());
    }
    if !word.is_empty()
        && keywords::keyword(&word).is_none()
        && let Some(k) = crate::diag::suggest(&word, misspellable())
    {
        return Some(format!("did you mean the keyword `{k}`?"));
    }
    let at_line_start = source[..pos]
        .rsplit('\n')
        .next()
        .is_some_and(|l| l.trim().is_empty());
    if keywords::is_section(&word) && at_line_start {
        return Some(format!(
            "`{word}` starts a new section: is something missing at the end of the line before?"
        ));
    }
    if keywords::is_reserved(&word) {
        return Some(format!(
            "`{word}` is a keyword and cannot be used as a name here"
        ));
    }
    None
}
