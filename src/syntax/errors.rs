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
        name | name_list => "a name",
        params => "`(`",
        square | squares => "a square such as `e5`",
        int | num | hand_num | file_num => "a number",
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
        | find | count | no_moves | call | from_kw | to_kw | score_kw => EXPRESSION,
        count_what => "`attacks`, `cells`, `groups`, `moves`",
        cmp_op => "a comparison",
        add_op => "`+` or `-`",
        test | test_and | test_unary | test_in | test_words => {
            "a cell test (`empty`, `enemy King`, `in throne`, ...)"
        }
        _ => return None,
    }))
}

/// A pest error as a diagnostic. `base` is where parsing started in `full` (the start of a
/// broken stretch) and `len` the length of the text parsed; the error's positions are
/// relative to it.
pub(super) fn syntax_error(
    full: &str,
    base: usize,
    len: usize,
    e: pest::error::Error<Rule>,
) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let source = &full[base..];
    let stretch = &source[..len.min(source.len())];
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let top_level = open_before(source, pos, b'{').is_empty();
    let mut keywords_expected: Vec<&'static str> = Vec::new();
    let mut expected: Vec<String> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .filter_map(|r| {
                let section =
                    keyword_of(*r).is_some_and(keywords::is_section) || *r == Rule::lone_item;
                if section && top_level {
                    keywords_expected.extend(section_keywords());
                } else if let Some(k) = keyword_of(*r) {
                    keywords_expected.push(k);
                }
                if top_level && section {
                    Some(SECTION.to_string())
                } else {
                    describe(r)
                }
            })
            .collect(),
        ErrorVariant::CustomError { .. } => vec![],
    };
    // pest names only the rules it tried: when what failed furthest is a literal (`=`
    // after `flag todo`), its own report stops at the start of the section. The tokens it
    // tried there, when they were tracked, say what was missing.
    let mut pos = pos;
    if let Some(a) = e.parse_attempts()
        && a.max_position > pos
        && a.max_position <= stretch.len()
    {
        let (tokens, words) = describe_tokens(stretch, a.max_position, &a.expected_tokens());
        if !tokens.is_empty() {
            pos = a.max_position;
            expected = tokens;
            keywords_expected = words;
        }
    } else if let Some(a) = e.parse_attempts()
        && a.max_position == pos
    {
        // The rules pest names here may leave out a sign that could also come.
        let (tokens, _) = describe_tokens(stretch, pos, &a.expected_tokens());
        expected.extend(
            tokens
                .into_iter()
                .filter(|t| matches!(t.as_str(), "`=`" | "`:`" | "`{`")),
        );
    }
    if let Some(d) = non_ascii_name(full, base, pos) {
        return d;
    }
    expected.sort();
    expected.dedup();
    let expected = match expected.len() {
        0 => None,
        1 => Some(expected[0].clone()),
        _ => {
            let (last, rest) = expected.split_last().expect("len >= 2");
            Some(format!("{} or {last}", rest.join(", ")))
        }
    };
    // A broken stretch is read alone: when it ends too early, what was found instead is
    // the next thing in the file.
    let pos = next_token(source, pos);
    let after = (pos >= stretch.trim_end().len() && top_level && expected.is_some())
        .then(|| last_token_before(full, base, pos))
        .flatten();
    let condition = expected.as_deref() == Some(EXPRESSION)
        && previous_word(source, pos).is_some_and(|b| CONDITION_BEFORE.contains(&b));
    let shown = if condition {
        Some("a condition".to_string())
    } else {
        expected.clone()
    };
    let (span, message) = match (&shown, after) {
        // The section ends too early: the mistake is at its end, not at what comes next.
        (Some(exp), Some((end, word))) => (
            Span::new(base + end, base + end),
            format!("expected {exp} after `{word}`"),
        ),
        _ => {
            let (found, found_end) = found_at(source, pos, expected.as_deref());
            let message = match &shown {
                None => format!("unexpected {found}"),
                Some(exp) => format!("expected {exp}, found {found}"),
            };
            (Span::new(base + pos, base + found_end), message)
        }
    };
    let mut d = Diagnostic::new(Code::E0001, span, message);
    // What follows the end of a section that ends too early belongs to the next one: the
    // hints about the word found there would speak of the wrong thing.
    let hint = if after.is_some() {
        (!open_before(source, pos, b'(').is_empty())
            .then(|| "a `(` is never closed: add the missing `)`".to_string())
    } else {
        syntax_hint(full, base, pos, &keywords_expected, expected.as_deref())
    };
    let hint = hint.or_else(|| section_form(stretch)).or_else(|| {
        after.map(|_| {
            "the section ends here, at the end of its line: is something missing?".to_string()
        })
    });
    if let Some(h) = hint {
        d = d.with_hint(h);
    }
    d
}

fn section_keywords() -> impl Iterator<Item = &'static str> {
    keywords::KEYWORDS
        .iter()
        .map(|k| k.word)
        .filter(|w| keywords::is_section(w))
}

/// The tokens pest tried at `at`, in the author's terms, and those of them that are
/// words. Blanks and comments, and the characters that would only have made the word
/// before `at` longer, say nothing about what is missing.
fn describe_tokens<T: std::fmt::Display>(
    text: &str,
    at: usize,
    tokens: &[T],
) -> (Vec<String>, Vec<&'static str>) {
    let in_word = text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let mut out = Vec::new();
    let mut words = Vec::new();
    for t in tokens {
        // pest's tokens are not exported, only shown: `=`, or `a..z` for a range.
        let t = t.to_string();
        let chars: Vec<char> = t.chars().collect();
        let range = (chars.len() == 4 && t.get(1..3) == Some("..")).then(|| chars[0]);
        if let Some(start) = range {
            if !in_word {
                out.push(
                    if start.is_ascii_digit() {
                        "a number"
                    } else {
                        "a name"
                    }
                    .to_string(),
                );
            }
            continue;
        }
        if matches!(
            t.as_str(),
            " " | "\t" | "\r" | "\n" | "//" | "/*" | "BUILTIN_RULE"
        ) {
            continue;
        }
        if in_word && matches!(t.as_str(), "_" | "-") {
            continue;
        }
        if let Some(k) = keywords::keyword(&t) {
            words.push(k.word);
            out.push(format!("`{t}`"));
        } else if t == "_" {
            out.push("a name".into());
        } else {
            out.push(format!("`{t}`"));
        }
    }
    out.sort();
    out.dedup();
    (out, words)
}

/// The end of the last token before `pos` in the stretch at `base`, and its text.
fn last_token_before(full: &str, base: usize, pos: usize) -> Option<(usize, &str)> {
    let t = super::tokens::lex(full, base, base + pos)
        .into_iter()
        .rfind(|t| !t.is_comment())?;
    Some((t.span.end - base, t.text(full)))
}

/// A name written with letters outside ASCII (`zöne`): the grammar reads `z` as a name
/// and stops at `ö`, which says nothing to the author. Reported whole.
fn non_ascii_name(full: &str, base: usize, pos: usize) -> Option<Diagnostic> {
    let wordy = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let at = base + pos;
    let start = full[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| wordy(c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = at
        + full[at..]
            .char_indices()
            .find(|&(_, c)| !wordy(c))
            .map_or(full.len() - at, |(i, _)| i);
    let word = &full[start..end];
    if word.is_ascii() || !word.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        return None;
    }
    let ascii = fold_to_ascii(word);
    let example = match &ascii {
        Some(w) => format!(", e.g. `{w}`"),
        None => String::new(),
    };
    Some(
        Diagnostic::new(
            Code::E0001,
            Span::new(start, end),
            format!("`{word}` is not a valid name: names are written with ASCII letters"),
        )
        .with_hint(format!(
            "a name is a letter or `_`, then ASCII letters, digits, `_` or `-`: write it without accents or other letters{example}"
        )),
    )
}

/// The word with the accents of Latin letters taken off, if that leaves it ASCII.
fn fold_to_ascii(word: &str) -> Option<String> {
    const FOLDS: [(&str, &str); 14] = [
        ("àáâãäåā", "a"),
        ("ÀÁÂÃÄÅĀ", "A"),
        ("çćč", "c"),
        ("ÇĆČ", "C"),
        ("èéêëēę", "e"),
        ("ÈÉÊËĒĘ", "E"),
        ("ìíîïī", "i"),
        ("ÌÍÎÏĪ", "I"),
        ("ñń", "n"),
        ("òóôõöøō", "o"),
        ("ÒÓÔÕÖØŌ", "O"),
        ("ùúûüū", "u"),
        ("ÙÚÛÜŪ", "U"),
        ("ýÿ", "y"),
    ];
    let mut out = String::new();
    for c in word.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if c == 'ß' {
            out.push_str("ss");
        } else {
            out.push_str(FOLDS.iter().find(|(from, _)| from.contains(c))?.1);
        }
    }
    Some(out)
}

/// How a one-line section is written, for a mistake in one of them.
fn section_form(stretch: &str) -> Option<String> {
    let mut words = stretch.split_whitespace();
    let keyword = words.next()?;
    let name = words
        .next()
        .filter(|w| {
            w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                && !keywords::is_reserved(w)
        })
        .unwrap_or("NAME");
    Some(match keyword {
        "flag" => format!(
            "a flag needs `= REGION`, the cells where it starts set: e.g. `flag {name} = none`"
        ),
        "region" => format!(
            "a region is `region {name} = CELLS`, or one per player: `region {name} {{ white: rank 1  black: rank 8 }}`"
        ),
        "piece" => format!("a piece is `piece {name} letter L`, e.g. `piece King letter K`"),
        "counter" => format!("a counter is `counter {name} = NUMBER`, e.g. `counter {name} = 0`"),
        "define" => format!(
            "a definition is `define {name} = EXPRESSION`, or with parameters `define {name}(c) = c is empty`"
        ),
        "group" => format!("a group is `group {name} = Piece, Piece, ...`"),
        "moves" | "attacks" => format!(
            "move rules are `{keyword} {name} {{ ... }}`, e.g. `{keyword} {name} {{ step all to empty }}`"
        ),
        "score" => "the score is a number: e.g. `score = count cells where friend`".into(),
        "param" => format!(
            "a parameter is `param {name} = DEFAULT in MIN .. MAX`, e.g. `param {name} = 8 in 4 .. 12`"
        ),
        _ => return None,
    })
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

/// What was found at `pos`, and where it ends. Where a condition or value was expected, a
/// keyword that cannot start one is shown with the words after it on the line (`board
/// full`): together they are what the author meant as one.
fn found_at(source: &str, pos: usize, expected: Option<&str>) -> (String, usize) {
    let rest = &source[pos..];
    let word_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    if rest.is_empty() {
        return ("end of file".into(), pos);
    }
    if word.is_empty() {
        let c = rest.chars().next().expect("non-empty");
        return (format!("`{c}`"), pos + c.len_utf8());
    }
    if expected == Some(EXPRESSION) && keywords::is_reserved(word) {
        let phrase_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == ' '))
            .unwrap_or(rest.len());
        let phrase = rest[..phrase_len].trim_end();
        return (format!("`{phrase}`"), pos + phrase.len());
    }
    let first = word.chars().next().expect("non-empty");
    (format!("`{word}`"), pos + first.len_utf8())
}

const EXPRESSION: &str = "an expression";

const SECTION: &str =
    "a section (`game`, `players`, `board`, `piece`, `setup`, `moves`, `end`, ...)";

fn syntax_hint(
    full: &str,
    base: usize,
    pos: usize,
    expected_keywords: &[&str],
    expected: Option<&str>,
) -> Option<String> {
    let source = &full[base..];
    let word: String = source[pos..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let at_line_start = source[..pos]
        .rsplit('\n')
        .next()
        .is_some_and(|l| l.trim().is_empty());
    if let Some(&open) = open_before(source, pos, b'{').last()
        && (pos >= source.trim_end().len() || (keywords::is_section(&word) && at_line_start))
    {
        let (line, _) = crate::diag::line_col(full, base + open);
        return Some(format!(
            "the `{{` opened on line {line} is not closed: is a `}}` missing before this?"
        ));
    }
    if pos >= source.trim_end().len() && !open_before(source, pos, b'(').is_empty() {
        return Some("a `(` is never closed: add the missing `)`".into());
    }
    let before = previous_word(source, pos);
    if before == Some("count") {
        let test = if keywords::is_reserved(&word) || word.is_empty() {
            "friend"
        } else {
            &word
        };
        return Some(format!(
            "`count` names what it counts: `count cells where {test}`, `count attacks`, `count moves`, `count groups where {test}`"
        ));
    }
    // Only a keyword that may stand here is suggested, and never for a word that already
    // means something (`friend` is not a misspelt `find`).
    if !word.is_empty()
        && keywords::keyword(&word).is_none()
        && !keywords::is_builtin_name(&word)
        && let Some(k) = crate::diag::suggest(
            &word,
            expected_keywords.iter().copied().filter(|w| w.len() >= 4),
        )
    {
        return Some(format!("did you mean the keyword `{k}`?"));
    }
    if keywords::is_section(&word) && at_line_start {
        return Some(format!(
            "`{word}` starts a new section: is something missing at the end of the line before?"
        ));
    }
    if expected == Some(EXPRESSION)
        && keywords::is_reserved(&word)
        && before.is_some_and(|b| CONDITION_BEFORE.contains(&b))
    {
        return Some(format!(
            "`{word}` is a keyword and does not start a condition; conditions are e.g. `no moves`, `count cells where empty == 0`, `last-to is King`, `last-to in edge`, or a definition's name"
        ));
    }
    if keywords::is_reserved(&word) {
        return Some(format!(
            "`{word}` is a keyword and cannot be used as a name here"
        ));
    }
    None
}

/// Words after which a condition is expected.
const CONDITION_BEFORE: [&str; 7] = ["when", "if", "until", "and", "or", "not", "while"];

/// The word just before `pos`, past blanks (not past comments: a guess, for hints).
fn previous_word(source: &str, pos: usize) -> Option<&str> {
    let before = source[..pos].trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |i| i + 1);
    Some(&before[start..]).filter(|w| !w.is_empty())
}
