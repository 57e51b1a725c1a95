//! `regula test`: tests files that pass, that fail (with file:line, expected and found),
//! that are malformed, `--bless`, `--max-nodes`, `--format json`, and finding the files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn regula_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run regula");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn regula(args: &[&str]) -> (i32, String, String) {
    regula_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// A fresh directory holding tic-tac-toe and the given tests files.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("expect")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = format!(
        "{}/docs/examples/tictactoe.game",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(game, dir.join("tictactoe.game")).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// Every kind of expectation, right.
const PASSING: &str = "\
# tic-tac-toe from the start
start
1 9
2 72
legal: X@a1 X@b2
illegal: O@a1 a1-a2
result: none
after X@b2 X@a1 X@c3
moves: X@a2 X@a3 X@b1 X@b3 X@c1 X@c2
from 3/1X1/3 black
moves: X@a1 X@a2 X@a3 X@b1 X@b3 X@c1 X@c2 X@c3
after X@a1
show:
     a b c
  3  . . .
  2  . X .
  1  O . .
  in hand, white: 5xX
  in hand, black: 3xX
  white to move

# white's three in a row
start
after X@a1 X@b1 X@a2 X@b2 X@a3
result: white
moves:
";

#[test]
fn a_passing_file_exits_0_with_a_summary() {
    let dir = scratch("pass", &[("tictactoe.tests", PASSING)]);
    let (code, out, err) = regula_in(&dir, &["test", "tictactoe.tests"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ok   tictactoe.tests: 10 passed"), "{out}");
    assert!(
        out.ends_with("test result: ok. 10 passed; 0 failed; 1 file(s)\n"),
        "{out}"
    );
}

/// The same expectations, some wrong.
fn failing() -> String {
    PASSING
        .replace("2 72", "2 73")
        .replace(
            "moves: X@a2 X@a3 X@b1 X@b3 X@c1 X@c2",
            "moves: X@a2 X@a3 X@b1 X@b3 X@c1 X@b2",
        )
        .replace("result: white", "result: draw")
        .replace("  1  O . .", "  1  . O .")
        .replace("legal: X@a1 X@b2", "legal: X@a1 X@b2 X@d4")
}

#[test]
fn a_failing_file_exits_1_showing_each_difference_at_its_line() {
    let dir = scratch("fail", &[("tictactoe.tests", &failing())]);
    let (code, out, _) = regula_in(&dir, &["test", "tictactoe.tests"]);
    assert_eq!(code, 1, "{out}");
    for part in [
        "FAIL tictactoe.tests:4: perft 2\n    expected: 73\n    actual:   72\n",
        "FAIL tictactoe.tests:5: legal\n    not legal here: X@d4\n",
        "FAIL tictactoe.tests:9: moves\n    missing (not legal): X@b2\n    extra (legal, not listed): X@c2\n",
        "FAIL tictactoe.tests:13: show\n    (- expected, + found)\n",
        "    - 1  . O .\n    + 1  O . .\n",
        "FAIL tictactoe.tests:25: result\n    expected: draw\n    actual:   white\n",
        "test result: FAILED. 5 passed; 5 failed; 1 file(s)\n",
    ] {
        assert!(out.contains(part), "missing {part:?} in:\n{out}");
    }
}

#[test]
fn json_lists_each_failure_with_expected_and_actual() {
    let dir = scratch("json", &[("tictactoe.tests", &failing())]);
    let (code, out, _) = regula_in(&dir, &["test", "--format", "json", "tictactoe.tests"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(5), Some(5))
    );
    let checks = v["files"][0]["checks"].as_array().unwrap();
    let perft = checks.iter().find(|c| c["line"] == 4).unwrap();
    assert_eq!(perft["what"], "perft 2");
    assert_eq!(
        (perft["expected"].as_str(), perft["actual"].as_str()),
        (Some("73"), Some("72"))
    );
    assert_eq!(perft["status"], "failed");
}

#[test]
fn bless_writes_the_values_found_keeping_comments_and_layout() {
    // `legal:` is never rewritten: without its failure, blessing fixes everything.
    let wrong = failing().replace(" X@d4", "");
    let dir = scratch("bless", &[("tictactoe.tests", &wrong)]);
    let (code, out, _) = regula_in(&dir, &["test", "--bless", "tictactoe.tests"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("4 blessed (rewritten)"), "{out}");
    let text = std::fs::read_to_string(dir.join("tictactoe.tests")).unwrap();
    assert_eq!(text, PASSING);
    let (code, out, _) = regula_in(&dir, &["test", "tictactoe.tests"]);
    assert_eq!(code, 0, "{out}");

    // An expectation bless cannot write stays, and still fails.
    let dir = scratch("bless-legal", &[("tictactoe.tests", &failing())]);
    let (code, out, _) = regula_in(&dir, &["test", "--bless", "tictactoe.tests"]);
    assert_eq!(code, 1, "{out}");
    let text = std::fs::read_to_string(dir.join("tictactoe.tests")).unwrap();
    assert!(text.contains("legal: X@a1 X@b2 X@d4\n"), "{text}");
    assert!(text.contains("2 72\n"), "{text}");
}

#[test]
fn a_malformed_file_exits_2_with_each_line_and_a_hint() {
    let dir = scratch(
        "malformed",
        &[(
            "tictactoe.tests",
            "start\nmoves X@a1\n2 seventy\nplay X@a1\n",
        )],
    );
    let (code, _, err) = regula_in(&dir, &["test", "tictactoe.tests"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("error: tictactoe.tests:2: `moves` needs a colon\n  = hint: write `moves:`"),
        "{err}"
    );
    assert!(
        err.contains("error: tictactoe.tests:3: `2 seventy` is not a perft count"),
        "{err}"
    );
    assert!(
        err.contains("error: tictactoe.tests:4: unknown line `play X@a1`\n  = hint: a line is"),
        "{err}"
    );
}

#[test]
fn an_illegal_move_or_a_missing_game_fails_at_its_line() {
    let tests = "after X@b2 X@b2\n1 7\ngame nowhere.game\nstart\n1 9\n";
    let dir = scratch("illegal", &[("tictactoe.tests", tests)]);
    let (code, out, _) = regula_in(&dir, &["test", "tictactoe.tests"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL tictactoe.tests:1: after\n    move 2 `X@b2` is not legal for black here; legal moves: X@a1"), "{out}");
    assert!(out.contains("FAIL tictactoe.tests:4: game\n"), "{out}");
    assert!(out.contains("nowhere.game"), "{out}");
    assert!(
        out.contains("test result: FAILED. 0 passed; 2 failed"),
        "{out}"
    );
}

#[test]
fn max_nodes_skips_large_counts_and_says_how_many() {
    let (code, out, err) = regula(&["test", "--max-nodes", "100000", "games/tablut.tests"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("; 5 skipped (perft above --max-nodes 100000);"),
        "{out}"
    );
}

#[test]
fn the_expected_diagnostics_of_a_broken_game_pass() {
    let (code, out, _) = regula(&["test", "tests/expect/broken.tests"]);
    assert_eq!(code, 0, "{out}");
    let dir = scratch(
        "diagnostics",
        &[("tictactoe.tests", "diagnostics: E0102 6:15\n")],
    );
    let (code, out, _) = regula_in(&dir, &["test"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("    missing: E0102 6:15\n"), "{out}");
}

#[test]
fn without_files_every_tests_file_below_is_run() {
    let dir = scratch("find", &[("tictactoe.tests", "1 9\n")]);
    std::fs::create_dir_all(dir.join("more/.hidden")).unwrap();
    std::fs::write(dir.join("more/x.tests"), "game ../tictactoe.game\n2 72\n").unwrap();
    std::fs::write(dir.join("more/.hidden/y.tests"), "1 1\n").unwrap();
    let (code, out, _) = regula_in(&dir, &["test"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("ok   more/x.tests: 1 passed\nok   tictactoe.tests: 1 passed\n"),
        "{out}"
    );
    let empty = scratch("none", &[]);
    let (code, _, err) = regula_in(&empty, &["test"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no `*.tests` file under the current directory"),
        "{err}"
    );
}
