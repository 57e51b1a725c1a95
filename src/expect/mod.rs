//! Expectations kept beside a game: the `.tests` file format (docs/TESTS.md), read into
//! entries, run against the game ([`run()`]), and written back with the values found
//! (`regula test --bless`), keeping every other line as it was.
//!
//! A file is read line by line. A line that starts with a space continues the entry
//! above it (a long move list, the board of `show:`); any other line is an entry of its
//! own, a blank line or a `#` comment. Entries that choose a ruleset (`game`, `variant`,
//! `set`) and a position (`start`, `from`, `after`) set the scene for the expectations
//! below them.

mod run;

pub use run::{Checked, Failure, Options, Report, Status, run};

use std::path::{Path, PathBuf};

/// A `.tests` file, read.
#[derive(Clone, Debug)]
pub struct TestsFile {
    /// Where it was read from; a `game` line is relative to its directory.
    pub path: PathBuf,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    lines: Vec<String>,
    trailing_newline: bool,
}

/// One entry: its kind and the lines it takes (from 1, `last` included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The entry's first line.
    pub line: usize,
    /// Its last line: below `line` when indented lines continue it.
    pub last: usize,
    /// What it says.
    pub kind: Kind,
}

/// What an entry says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `game PATH`: the game file of the entries below (and back to the file as it is).
    Game(String),
    /// `variant NAME`.
    Variant(String),
    /// `set NAME=VALUE`.
    Set(String, i64),
    /// `start`: the game's start position.
    Start,
    /// `from POSITION`: a position in notation.
    From(String),
    /// `after MOVES`: moves played from the last `start` or `from` (else the start).
    After(String),
    /// `DEPTH COUNT`: a perft count.
    Perft {
        /// The depth, in plies.
        depth: u32,
        /// The number of move sequences of that depth.
        count: u64,
    },
    /// `moves: …`: the exact legal moves, sorted.
    Moves(Vec<String>),
    /// `legal: …`: moves that must be legal.
    Legal(Vec<String>),
    /// `illegal: …`: moves that must not be legal.
    Illegal(Vec<String>),
    /// `result: NAME`, `result: draw`, `result: none` (`None`: the game goes on).
    Result(Option<String>),
    /// `show:` and the board below it, indented by two spaces.
    Show(Vec<String>),
    /// `diagnostics: CODE LINE:COLUMN, …`: what checking the game reports.
    Diagnostics(Vec<String>),
}

impl Kind {
    /// Whether the entry is an expectation (the others set the scene).
    pub fn is_expectation(&self) -> bool {
        !matches!(
            self,
            Kind::Game(_)
                | Kind::Variant(_)
                | Kind::Set(..)
                | Kind::Start
                | Kind::From(_)
                | Kind::After(_)
        )
    }
}

/// A line of a `.tests` file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// From 1.
    pub line: usize,
    /// What is wrong with the line.
    pub message: String,
    /// How to write it instead.
    pub hint: String,
}

const LINE_KINDS: &str = "a line is `game PATH`, `variant NAME`, `set NAME=VALUE`, `start`, \
     `from POSITION`, `after MOVES`, `DEPTH COUNT`, `moves:`, `legal:`, `illegal:`, \
     `result:`, `show:`, `diagnostics:` or a `#` comment (docs/TESTS.md)";

/// Reads a `.tests` file's text; every malformed line is reported.
pub fn parse(path: &Path, text: &str) -> Result<TestsFile, Vec<ParseError>> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut entries: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    // Whether the entry above takes indented lines (`show:` keeps them as a block).
    let mut open: Option<bool> = None;
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        if raw.starts_with(' ') || raw.starts_with('\t') {
            if line.is_empty() && open != Some(true) {
                continue;
            }
            let entry = entries.last_mut().filter(|_| open.is_some());
            match (entry, open) {
                (Some(e), Some(true)) => {
                    if let Kind::Show(block) = &mut e.kind {
                        block.push(line.strip_prefix("  ").unwrap_or(line.trim_start()).into());
                    }
                    e.last = n;
                }
                (Some(e), _) => {
                    e.last = n;
                    let words = line.split_whitespace().map(str::to_string);
                    match &mut e.kind {
                        Kind::Moves(v) | Kind::Legal(v) | Kind::Illegal(v) => v.extend(words),
                        Kind::Diagnostics(v) => match diagnostics(line) {
                            Ok(more) => v.extend(more),
                            Err(e) => errors.push(e.at(n)),
                        },
                        _ => {}
                    }
                }
                _ => errors.push(ParseError {
                    line: n,
                    message: "an indented line that continues nothing".into(),
                    hint: "only the lists of `moves:`, `legal:`, `illegal:`, `diagnostics:` \
                           and the board of `show:` continue on indented lines"
                        .into(),
                }),
            }
            continue;
        }
        open = None;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match entry(line) {
            Ok(kind) => {
                open = match kind {
                    Kind::Show(_) => Some(true),
                    Kind::Moves(_) | Kind::Legal(_) | Kind::Illegal(_) | Kind::Diagnostics(_) => {
                        Some(false)
                    }
                    _ => None,
                };
                entries.push(Entry {
                    line: n,
                    last: n,
                    kind,
                });
            }
            Err(e) => errors.push(e.at(n)),
        }
    }
    if errors.is_empty() {
        Ok(TestsFile {
            path: path.to_path_buf(),
            entries,
            lines,
            trailing_newline: text.ends_with('\n'),
        })
    } else {
        Err(errors)
    }
}

/// A parse error before its line is known.
struct Bad(String, String);

impl Bad {
    fn at(self, line: usize) -> ParseError {
        ParseError {
            line,
            message: self.0,
            hint: self.1,
        }
    }
}

fn entry(line: &str) -> Result<Kind, Bad> {
    let (head, rest) = match line.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (line, ""),
    };
    let needs = |what: &str, example: &str| {
        Bad(
            format!("`{head}` needs {what}"),
            format!("write it as `{example}`"),
        )
    };
    let list = |rest: &str| rest.split_whitespace().map(str::to_string).collect();
    Ok(match head {
        "game" if rest.is_empty() => return Err(needs("a path", "game ../games/my.game")),
        "game" => Kind::Game(rest.into()),
        "variant" if rest.is_empty() => return Err(needs("a name", "variant NAME")),
        "variant" => Kind::Variant(rest.into()),
        "set" => {
            let (name, value) = rest
                .split_once('=')
                .ok_or_else(|| needs("a parameter and a value", "set size=9"))?;
            let value = value.trim().parse().map_err(|_| {
                Bad(
                    format!("`{}` is not a whole number", value.trim()),
                    "write it as `set size=9`".into(),
                )
            })?;
            if name.trim().is_empty() {
                return Err(needs("a parameter and a value", "set size=9"));
            }
            Kind::Set(name.trim().into(), value)
        }
        "start" if rest.is_empty() => Kind::Start,
        "from" if rest.is_empty() => {
            return Err(needs("a position", "from 3/1X1/3 black"));
        }
        "from" => Kind::From(rest.into()),
        "after" => Kind::After(rest.into()),
        "moves:" => Kind::Moves(list(rest)),
        "legal:" => Kind::Legal(list(rest)),
        "illegal:" => Kind::Illegal(list(rest)),
        "result:" => match rest {
            "" => return Err(needs("a result", "result: white` or `result: none")),
            "none" => Kind::Result(None),
            r => Kind::Result(Some(r.into())),
        },
        "show:" if rest.is_empty() => Kind::Show(Vec::new()),
        "show:" => {
            return Err(Bad(
                "the board of `show:` goes on the lines below it".into(),
                "indent each line of the board by two spaces".into(),
            ));
        }
        "diagnostics:" => Kind::Diagnostics(diagnostics(rest)?),
        "moves" | "legal" | "illegal" | "result" | "show" | "diagnostics" => {
            return Err(Bad(
                format!("`{head}` needs a colon"),
                format!("write `{head}:`"),
            ));
        }
        _ if head.starts_with(|c: char| c.is_ascii_digit()) => {
            let mut words = line.split_whitespace();
            let depth = words.next().and_then(|w| w.parse().ok());
            let count = words.next().and_then(|w| w.parse().ok());
            match (depth, count, words.next()) {
                (Some(depth), Some(count), None) => Kind::Perft { depth, count },
                _ => {
                    return Err(Bad(
                        format!("`{line}` is not a perft count"),
                        "write the depth and the count, e.g. `3 8902`".into(),
                    ));
                }
            }
        }
        _ => return Err(Bad(format!("unknown line `{line}`"), LINE_KINDS.into())),
    })
}

/// `E0102 4:15, W0201 12:3, E0160`: codes, each with its line and column when located.
fn diagnostics(text: &str) -> Result<Vec<String>, Bad> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut words = item.split_whitespace();
        let code = words.next().unwrap_or("");
        let place = words.next();
        let code_ok = code.len() == 5
            && code.starts_with(['E', 'W'])
            && code[1..].bytes().all(|b| b.is_ascii_digit());
        let place_ok = place.is_none_or(|p| {
            p.split_once(':')
                .is_some_and(|(l, c)| l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok())
        });
        if !code_ok || !place_ok || words.next().is_some() {
            return Err(Bad(
                format!("`{item}` is not a diagnostic"),
                "write each as CODE LINE:COLUMN, separated by commas: \
                 `diagnostics: E0102 4:15, E0104 9:58`"
                    .into(),
            ));
        }
        out.push(item.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    Ok(out)
}

impl TestsFile {
    /// The file's text with some entries rewritten (entry index, new text), every other
    /// line kept as it was.
    pub fn rewrite(&self, changes: &[(usize, String)]) -> String {
        let mut out: Vec<String> = Vec::with_capacity(self.lines.len());
        let mut skip_to = 0;
        for (i, line) in self.lines.iter().enumerate() {
            let n = i + 1;
            if n <= skip_to {
                continue;
            }
            let change = changes
                .iter()
                .find(|(e, _)| self.entries.get(*e).is_some_and(|e| e.line == n));
            match change {
                Some((e, text)) => {
                    out.extend(text.lines().map(str::to_string));
                    skip_to = self.entries[*e].last;
                }
                None => out.push(line.clone()),
            }
        }
        let mut text = out.join("\n");
        if self.trailing_newline {
            text.push('\n');
        }
        text
    }
}

/// Widest line that a rewritten list fills before it wraps.
const WIDTH: usize = 96;

/// An entry as written: `key: a b c`, wrapped onto lines indented by two spaces.
pub fn list_text(key: &str, items: &[String], separator: &str) -> String {
    let mut text = format!("{key}:");
    let mut width = text.len();
    for (i, item) in items.iter().enumerate() {
        let sep = if i == 0 { " " } else { separator };
        if i > 0 && width + sep.len() + item.len() > WIDTH {
            text.push_str(sep.trim_end());
            text.push_str("\n  ");
            width = 2;
        } else {
            text.push_str(sep);
            width += sep.len();
        }
        text.push_str(item);
        width += item.len();
    }
    text
}

/// `show:` and the board below it, indented.
pub fn show_text(lines: &[String]) -> String {
    let mut text = String::from("show:");
    for l in lines {
        text.push_str("\n  ");
        text.push_str(l);
    }
    text
}

/// The default game of a tests file: the `.game` file of the same stem beside it.
pub fn default_game(tests: &Path) -> PathBuf {
    tests.with_extension("game")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<TestsFile, Vec<ParseError>> {
        parse(Path::new("x.tests"), text)
    }

    #[test]
    fn continuation_lines_extend_lists_and_blocks() {
        let f = read("moves: a1 b1\n  c1\nshow:\n     a b\n  1  . .\n\n2 7\n").unwrap();
        let kinds: Vec<&Kind> = f.entries.iter().map(|e| &e.kind).collect();
        assert_eq!(
            kinds,
            [
                &Kind::Moves(vec!["a1".into(), "b1".into(), "c1".into()]),
                &Kind::Show(vec!["   a b".into(), "1  . .".into()]),
                &Kind::Perft { depth: 2, count: 7 },
            ]
        );
        assert_eq!((f.entries[1].line, f.entries[1].last), (3, 5));
    }

    #[test]
    fn every_malformed_line_is_reported_with_a_hint() {
        let e = read("start\nmoves a1\n  b2\nset x\n3 abc\nfrobnicate\ndiagnostics: E12 4:5\n")
            .unwrap_err();
        let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
        assert!(e.iter().all(|e| !e.hint.is_empty()));
        assert_eq!(e[0].message, "`moves` needs a colon");
    }

    #[test]
    fn rewriting_keeps_every_other_line() {
        let text = "# a comment\nstart\n1 20\n\nmoves: a\n  b\n# end\n";
        let f = read(text).unwrap();
        let out = f.rewrite(&[(1, "1 21".into()), (2, "moves: a b c".into())]);
        assert_eq!(out, "# a comment\nstart\n1 21\n\nmoves: a b c\n# end\n");
        assert_eq!(f.rewrite(&[]), text);
    }

    #[test]
    fn long_lists_wrap() {
        let items: Vec<String> = (0..40).map(|i| format!("a{i}-b{i}")).collect();
        let text = list_text("moves", &items, " ");
        assert!(text.lines().count() > 1);
        assert!(text.lines().all(|l| l.len() <= WIDTH));
        let f = read(&text).unwrap();
        assert_eq!(f.entries[0].kind, Kind::Moves(items));
    }
}
