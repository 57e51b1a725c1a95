//! Running a tests file: each expectation against the game, with what was found, a diff
//! when it differs, and the entry rewritten with the value found (for `--bless`).

use super::{Kind, TestsFile, default_game, list_text, show_text};
use crate::diag::SourceIndex;
use crate::engine::Position;
use crate::testing::Game;
use crate::variants::Choice;
use std::path::PathBuf;

/// How to run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Skip perft expectations whose count is above this.
    pub max_nodes: Option<u64>,
    /// Compute the new text of the file, with the values found.
    pub bless: bool,
}

/// What running a file found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The tests file.
    pub path: PathBuf,
    /// One per expectation, and one per scene entry that failed (a game that does not
    /// load, a move that is not legal).
    pub checked: Vec<Checked>,
    /// With [`Options::bless`]: the file's new text, when a value changed.
    pub blessed: Option<String>,
}

impl Report {
    /// How many checks have this status (by kind: passed, skipped, failed, blessed).
    pub fn count(&self, f: impl Fn(&Status) -> bool) -> usize {
        self.checked.iter().filter(|c| f(&c.status)).count()
    }

    /// How many checks failed (and were not blessed).
    pub fn failed(&self) -> usize {
        self.count(|s| matches!(s, Status::Failed(_)))
    }
}

/// One entry checked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Where the entry starts in the file, from 1.
    pub line: usize,
    /// What was checked: `perft 3`, `moves`, `result`, `after`, …
    pub what: String,
    /// How it went.
    pub status: Status,
}

/// How a check went.
#[derive(Clone, Debug)]
pub enum Status {
    /// As expected.
    Passed,
    /// Not run: a perft count above the node limit.
    Skipped,
    /// Not as expected.
    Failed(Failure),
    /// Failed, and rewritten with the value found.
    Blessed(Failure),
}

/// What differs: the expectation as written and as found, and lines that show the
/// difference to a reader.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The value expected, as written in the file (empty when the check could not run).
    pub expected: String,
    /// The value found, or why the check could not run.
    pub actual: String,
    /// Lines that show the difference to a reader.
    pub diff: Vec<String>,
    /// The entry with the value found, when `--bless` can write it.
    pub fix: Option<String>,
}

impl Failure {
    fn plain(expected: impl Into<String>, actual: impl Into<String>) -> Failure {
        let (expected, actual) = (expected.into(), actual.into());
        Failure {
            diff: vec![
                format!("expected: {expected}"),
                format!("actual:   {actual}"),
            ],
            expected,
            actual,
            fix: None,
        }
    }

    fn error(message: impl Into<String>) -> Failure {
        let message = message.into();
        Failure {
            expected: String::new(),
            diff: message.lines().map(str::to_string).collect(),
            actual: message,
            fix: None,
        }
    }

    fn fix(mut self, text: String) -> Failure {
        self.fix = Some(text);
        self
    }
}

/// The ruleset of the entries being run, and its game once an entry needs it.
struct Ruleset {
    game: PathBuf,
    choice: Choice,
    /// Whether an entry other than `variant` or `set` came since the ruleset was chosen:
    /// the next `variant` or `set` then starts a new ruleset.
    used: bool,
    /// `Some(None)`: the game does not load, and that was reported.
    loaded: Option<Option<Game>>,
}

/// A position entry's result.
#[derive(Clone)]
enum At {
    Start,
    Here(Position),
    /// Its entry failed (and was reported): the expectations below it are not run.
    Unreachable,
}

/// The checks found so far, and the entries `--bless` rewrites.
struct Found {
    bless: bool,
    checked: Vec<Checked>,
    changes: Vec<(usize, String)>,
}

impl Found {
    fn push(&mut self, index: usize, line: usize, what: impl Into<String>, status: Status) {
        let status = match status {
            Status::Failed(f) if self.bless && f.fix.is_some() => {
                self.changes
                    .push((index, f.fix.clone().unwrap_or_default()));
                Status::Blessed(f)
            }
            s => s,
        };
        self.checked.push(Checked {
            line,
            what: what.into(),
            status,
        });
    }
}

/// Runs every entry of a tests file.
pub fn run(file: &TestsFile, options: Options) -> Report {
    let dir = file.path.parent().map(PathBuf::from).unwrap_or_default();
    let mut rules = Ruleset {
        game: default_game(&file.path),
        choice: Choice::default(),
        used: false,
        loaded: None,
    };
    let (mut base, mut at) = (At::Start, At::Start);
    let mut found = Found {
        bless: options.bless,
        checked: Vec::new(),
        changes: Vec::new(),
    };
    for (index, entry) in file.entries.iter().enumerate() {
        let line = entry.line;
        match &entry.kind {
            Kind::Game(path) => {
                rules = Ruleset {
                    game: dir.join(path),
                    choice: Choice::default(),
                    used: false,
                    loaded: None,
                };
                (base, at) = (At::Start, At::Start);
                continue;
            }
            Kind::Variant(_) | Kind::Set(..) => {
                if rules.used {
                    rules.choice = Choice::default();
                    rules.used = false;
                }
                if let Kind::Variant(v) = &entry.kind {
                    rules.choice.variant = Some(v.clone());
                }
                if let Kind::Set(k, v) = &entry.kind {
                    rules.choice.set.push((k.clone(), *v));
                }
                rules.loaded = None;
                (base, at) = (At::Start, At::Start);
                continue;
            }
            Kind::Diagnostics(expected) => {
                rules.used = true;
                found.push(index, line, "diagnostics", diagnostics(&rules, expected));
                continue;
            }
            _ => rules.used = true,
        }
        // Everything else needs the game.
        let game = match rules.game(line) {
            Ok(g) => g,
            Err(Some(message)) => {
                found.push(index, line, "game", Status::Failed(Failure::error(message)));
                continue;
            }
            // Already reported: the entries below it are not run.
            Err(None) => continue,
        };
        let unreachable = |found: &mut Found, what: &str, e: crate::testing::Error| {
            found.push(
                index,
                line,
                what,
                Status::Failed(Failure::error(e.message())),
            );
            At::Unreachable
        };
        match &entry.kind {
            Kind::Start => (base, at) = (At::Start, At::Start),
            Kind::From(text) => {
                base = match game.position(text) {
                    Ok(p) => At::Here(p),
                    Err(e) => unreachable(&mut found, "from", e),
                };
                at = base.clone();
            }
            Kind::After(moves) => {
                let mut pos = match &base {
                    At::Start => game.start(),
                    At::Here(p) => p.clone(),
                    At::Unreachable => continue,
                };
                at = match game.play(&mut pos, moves) {
                    Ok(()) => At::Here(pos),
                    Err(e) => unreachable(&mut found, "after", e),
                };
            }
            kind => {
                let pos = match &at {
                    At::Start => game.start(),
                    At::Here(p) => p.clone(),
                    At::Unreachable => continue,
                };
                let (what, status) = expectation(game, &pos, kind, options);
                found.push(index, line, what, status);
            }
        }
    }
    let blessed =
        (options.bless && !found.changes.is_empty()).then(|| file.rewrite(&found.changes));
    Report {
        path: file.path.clone(),
        checked: found.checked,
        blessed,
    }
}

impl Ruleset {
    /// The game of the ruleset; its failure to load is given once (`Some`), then `None`.
    fn game(&mut self, line: usize) -> Result<&Game, Option<String>> {
        if self.loaded.is_none() {
            let set: Vec<(&str, i64)> = self
                .choice
                .set
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect();
            match Game::load_with(&self.game, self.choice.variant.as_deref(), &set) {
                Ok(g) => self.loaded = Some(Some(g)),
                Err(e) => {
                    self.loaded = Some(None);
                    return Err(Some(format!(
                        "{}\n(the game does not load: the entries from line {line} to the next \
                         `game`, `variant` or `set` line are not run; `regula check {}` shows why)",
                        e.message(),
                        self.game.display()
                    )));
                }
            }
        }
        match &self.loaded {
            Some(Some(g)) => Ok(g),
            _ => Err(None),
        }
    }
}

fn expectation(game: &Game, pos: &Position, kind: &Kind, options: Options) -> (String, Status) {
    let fail = |f: Failure| Status::Failed(f);
    match kind {
        Kind::Perft { depth, count } => {
            let what = format!("perft {depth}");
            if options.max_nodes.is_some_and(|max| *count > max) {
                return (what, Status::Skipped);
            }
            let got = game.perft(pos, *depth);
            let status = if got == *count {
                Status::Passed
            } else {
                fail(
                    Failure::plain(count.to_string(), got.to_string())
                        .fix(format!("{depth} {got}")),
                )
            };
            (what, status)
        }
        Kind::Moves(expected) => {
            let got = game.moves(pos);
            if &got == expected {
                return ("moves".into(), Status::Passed);
            }
            let mut diff = Vec::new();
            let missing: Vec<&str> = expected
                .iter()
                .filter(|m| !got.contains(m))
                .map(String::as_str)
                .collect();
            let extra: Vec<&str> = got
                .iter()
                .filter(|m| !expected.contains(m))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                diff.push(format!("missing (not legal): {}", missing.join(" ")));
            }
            if !extra.is_empty() {
                diff.push(format!("extra (legal, not listed): {}", extra.join(" ")));
            }
            if missing.is_empty() && extra.is_empty() {
                diff.push("the same moves, not in sorted (byte) order".into());
            }
            if let Some(r) = game.result(pos) {
                diff.push(format!("the game is over here (result: {r})"));
            }
            let f = Failure {
                expected: expected.join(" "),
                actual: got.join(" "),
                diff,
                fix: Some(list_text("moves", &got, " ")),
            };
            ("moves".into(), fail(f))
        }
        Kind::Legal(list) | Kind::Illegal(list) => {
            let want = matches!(kind, Kind::Legal(_));
            let what = if want { "legal" } else { "illegal" };
            let wrong: Vec<&str> = list
                .iter()
                .filter(|m| game.is_legal(pos, m) != want)
                .map(String::as_str)
                .collect();
            if wrong.is_empty() {
                return (what.into(), Status::Passed);
            }
            let mut diff = vec![if want {
                format!("not legal here: {}", wrong.join(" "))
            } else {
                format!("legal here: {}", wrong.join(" "))
            }];
            if want {
                match game.result(pos) {
                    Some(r) => diff.push(format!("the game is over here (result: {r})")),
                    None => diff.push(format!("legal moves: {}", game.moves(pos).join(" "))),
                }
            }
            let f = Failure {
                expected: format!("{what}: {}", wrong.join(" ")),
                actual: format!(
                    "{}: {}",
                    if want { "illegal" } else { "legal" },
                    wrong.join(" ")
                ),
                diff,
                fix: None,
            };
            (what.into(), fail(f))
        }
        Kind::Result(expected) => {
            let got = game.result(pos);
            let text = |r: &Option<String>| r.clone().unwrap_or_else(|| "none".into());
            let status = if &got == expected {
                Status::Passed
            } else {
                fail(
                    Failure::plain(text(expected), text(&got))
                        .fix(format!("result: {}", text(&got))),
                )
            };
            ("result".into(), status)
        }
        Kind::Show(expected) => {
            let got: Vec<String> = game
                .show(pos)
                .lines()
                .map(|l| l.trim_end().to_string())
                .collect();
            let want: Vec<String> = expected.iter().map(|l| l.trim_end().to_string()).collect();
            if got == want {
                return ("show".into(), Status::Passed);
            }
            let f = Failure {
                expected: want.join("\n"),
                actual: got.join("\n"),
                diff: [
                    vec!["(- expected, + found)".to_string()],
                    line_diff(&want, &got),
                ]
                .concat(),
                fix: Some(show_text(&got)),
            };
            ("show".into(), fail(f))
        }
        _ => unreachable!("scene entries are handled by `run`"),
    }
}

/// Checks the game file for the ruleset chosen, and compares its diagnostics (errors and
/// warnings, in file order) with those expected.
fn diagnostics(rules: &Ruleset, expected: &[String]) -> Status {
    let source = match crate::read_source(&rules.game) {
        Ok(s) => s,
        Err(e) => return Status::Failed(Failure::error(e.to_string())),
    };
    let diags = match crate::compile_with(&source, &rules.choice) {
        Ok((_, warnings)) => warnings,
        Err(diags) => diags,
    };
    let index = SourceIndex::new(&source);
    let found: Vec<(String, String)> = diags
        .iter()
        .map(|d| {
            let place = d.span.map(|s| index.line_col(s.start));
            let short = match place {
                Some((l, c)) => format!("{} {l}:{c}", d.code),
                None => d.code.to_string(),
            };
            (short, d.message.clone())
        })
        .collect();
    let got: Vec<String> = found.iter().map(|f| f.0.clone()).collect();
    if got == expected {
        return Status::Passed;
    }
    let mut diff = Vec::new();
    for e in expected.iter().filter(|e| !got.contains(e)) {
        diff.push(format!("missing: {e}"));
    }
    for (short, message) in found.iter().filter(|f| !expected.contains(&f.0)) {
        diff.push(format!("extra:   {short} {message}"));
    }
    if diff.is_empty() {
        diff.push("the same diagnostics, in another order".into());
    }
    Status::Failed(Failure {
        expected: expected.join(", "),
        actual: got.join(", "),
        diff,
        fix: Some(list_text("diagnostics", &got, ", ")),
    })
}

/// The lines of two texts side by side as a diff: ` ` both, `-` expected only, `+` found
/// only (a longest common subsequence; boards are a few dozen lines).
fn line_diff(expected: &[String], got: &[String]) -> Vec<String> {
    let (n, m) = (expected.len(), got.len());
    if n * m > 1_000_000 {
        let mut out: Vec<String> = expected.iter().map(|l| format!("- {l}")).collect();
        out.extend(got.iter().map(|l| format!("+ {l}")));
        return out;
    }
    // lcs[i][j]: the longest common subsequence of expected[i..] and got[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == got[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == got[j] {
            out.push(format!("  {}", expected[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", expected[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", got[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn a_diff_marks_changed_lines_only() {
        let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        let d = line_diff(&s(&["a", "b", "c"]), &s(&["a", "x", "c"]));
        assert_eq!(d, ["  a", "- b", "+ x", "  c"]);
    }
}
