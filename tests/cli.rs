//! The command-line contract: output formats and exit codes (0 ok, 1 invalid game file,
//! 2 bad usage or illegal move).

use std::process::Command;

fn regula(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run regula");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn check_accepts_every_shipped_game_without_warnings() {
    let (code, out, err) = regula(&[
        "check",
        "--deny-warnings",
        "games/tablut.game",
        "games/shakti.game",
        "games/shaversi.game",
        "games/shakhmaty.game",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "");
    assert_eq!(err, "ok: 4 file(s) checked\n");
}

#[test]
fn check_reports_errors_with_location_and_exit_1() {
    let path = temp_file("bad.game", b"players { white black }\nboard 3 x 3\npiece King letter K\nsetup { white Kign a1  black King c3 }\n");
    let (code, _, err) = regula(&["check", &path]);
    assert_eq!(code, 1);
    assert!(err.contains("error[E0102]: unknown piece `Kign`"), "{err}");
    assert!(err.contains(&format!("{path}:4:15")), "{err}");
    assert!(err.contains("did you mean `King`?"), "{err}");
}

#[test]
fn check_json_gives_one_object_per_file_on_stdout() {
    let path = temp_file("bad2.game", b"players { white black }\nboard 3 x 3\npiece King letter K\nsetup { white Kign a1  black King z9 }\n");
    let (code, out, err) = regula(&["check", "--format", "json", &path]);
    assert_eq!(code, 1);
    assert_eq!(err, "", "JSON goes to standard output only");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let file = &lines[0];
    assert_eq!(file["type"], "file");
    assert_eq!(file["file"], path.as_str());
    assert_eq!(file["failed"], true);
    let diags = file["diagnostics"].as_array().unwrap();
    let count = |key: &str| file[key].as_u64().unwrap() as usize;
    assert_eq!(count("errors") + count("warnings"), diags.len());
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "E0102" && d["severity"] == "error"),
        "{out}"
    );
    assert!(
        diags.iter().any(|d| d["code"] == "E0103" && d["line"] == 4),
        "{out}"
    );
    assert_eq!(lines[1]["type"], "summary");
    assert_eq!(lines[1]["ok"], false);
}

#[test]
fn unreadable_inputs_are_errors_not_panics() {
    for (args, needle) in [
        (vec!["check", "no/such/file.game"], "no such file"),
        (vec!["check", "games"], "is a directory"),
        (vec!["moves", "no/such/file.game"], "no such file"),
    ] {
        let (code, _, err) = regula(&args);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains(needle), "{err}");
    }
    let bad = temp_file("latin1.game", b"game \"Caf\xe9\" { }\n");
    let (code, _, err) = regula(&["check", &bad]);
    assert_eq!(code, 1);
    assert!(
        err.contains("not valid UTF-8") && err.contains(":1:10"),
        "{err}"
    );
    let empty = temp_file("empty.game", b"");
    let (code, _, err) = regula(&["check", &empty]);
    assert_eq!(code, 1);
    assert!(err.contains("declares no board"), "{err}");
}

#[test]
fn moves_are_sorted_one_per_line() {
    let (code, out, _) = regula(&["moves", "games/tablut.game"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 56);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert_eq!(lines[0], "c5-c1");
}

#[test]
fn moves_of_a_finished_game_print_the_result() {
    let (code, out, _) = regula(&[
        "moves",
        "games/shakhmaty.game",
        "--after",
        "d1-c3 c3-c7 c7-e8",
    ]);
    assert_eq!(code, 0);
    assert!(!out.starts_with("result"));
    let line = "K@a1 Q@d4 R@h1 R@a8 R@h8 R@b7 B@c1 B@g7 B@f1 B@b1 N@b8 N@g1 N@g8 N@h3 Q@e5 K@c3";
    let (code, out, _) = regula(&["moves", "games/shaversi.game", "--after", line]);
    assert_eq!(code, 0);
    // White scores 46, Black 57 (by an independent implementation of the rules).
    assert_eq!(out, "result: black\n");
}

#[test]
fn an_illegal_move_names_itself_and_its_index_and_exits_2() {
    let (code, out, err) = regula(&["moves", "games/tablut.game", "--after", "d5-d8 e5-e1"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("move 2 `e5-e1` is not legal for black"),
        "{err}"
    );
    assert!(err.contains("legal moves: "), "{err}");
    let (code, _, err) = regula(&["perft", "games/tablut.game", "1", "--after", "garbage"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 1 `garbage`"), "{err}");
}

#[test]
fn perft_prints_the_count_alone() {
    let (code, out, _) = regula(&["perft", "games/tablut.game", "2"]);
    assert_eq!(code, 0);
    assert_eq!(out, "4408\n");
    let (_, out, _) = regula(&["perft", "games/tablut.game", "0"]);
    assert_eq!(out, "1\n");
}

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let (code, out, _) = regula(&["perft", "games/shakti.game", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 29);
    assert_eq!(*lines.last().unwrap(), "768");
    let sum: u64 = lines[..28]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 768);
    assert!(lines[0].starts_with("b2-"), "{}", lines[0]);
}

#[test]
fn playout_reports_shares_length_and_speed() {
    let args = [
        "playout",
        "games/shaversi.game",
        "--count",
        "50",
        "--seed",
        "3",
    ];
    let (code, out, _) = regula(&args);
    assert_eq!(code, 0);
    for key in [
        "playouts: 50",
        "white: ",
        "black: ",
        "draw: ",
        "mean plies: 16.0",
        "playouts/s: ",
        "plies/s: ",
    ] {
        assert!(out.contains(key), "{key} in {out}");
    }
    let (_, again, _) = regula(&args);
    let shares = |s: &str| s.lines().take(5).collect::<Vec<_>>().join("\n");
    assert_eq!(shares(&out), shares(&again), "same seed, same games");
}

#[test]
fn show_draws_the_board_and_who_is_to_move() {
    let (code, out, _) = regula(&["show", "games/tablut.game", "--after", "d5-d8"]);
    assert_eq!(code, 0);
    assert!(out.contains("8  . . . G m . . . ."), "{out}");
    assert!(out.ends_with("black to move\n"));
}

#[test]
fn ir_prints_ron_that_reads_back() {
    let (code, out, _) = regula(&["ir", "games/shakti.game"]);
    assert_eq!(code, 0);
    let program: regula::ir::Program = ron::from_str(&out).expect("valid RON");
    assert_eq!(program.game.name, "Shakti");
}

#[test]
fn explain_knows_every_code_and_rejects_unknown_ones() {
    let (code, out, _) = regula(&["explain", "E0102"]);
    assert_eq!(code, 0);
    assert!(out.contains("unknown piece"));
    let (code, _, _) = regula(&["explain", "E9999"]);
    assert_eq!(code, 2);
}

#[test]
fn bad_usage_exits_2_and_help_exits_0() {
    assert_eq!(regula(&["perft", "games/tablut.game"]).0, 2);
    assert_eq!(regula(&["frobnicate"]).0, 2);
    let (code, out, _) = regula(&["perft", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Example"));
}

#[test]
fn a_turn_that_never_passes_is_stopped_with_an_error() {
    let path = temp_file(
        "again.game",
        b"game \"Loop\" { }\nplayers { white black }\nboard 3 x 3\npiece Rook letter R\nsetup { white Rook a1  black Rook c3 }\nmoves Rook { slide orthogonal to empty }\nafter move { again }\nend { when no moves: next loses }\n",
    );
    let (code, _, err) = regula(&["playout", &path, "--count", "3"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("1000 moves in a row") && err.contains("again"),
        "{err}"
    );
}

#[test]
fn bench_refuses_a_duration_that_is_not_a_sane_number_of_seconds() {
    for bad in ["inf", "1e308", "0", "nan", "-0.5", "3601", "two"] {
        let arg = format!("--seconds={bad}");
        let (code, out, err) = regula(&["bench", "games/tablut.game", &arg]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(out, "");
        assert!(
            err.contains("expected a number of seconds above 0 and at most 3600"),
            "{bad}: {err}"
        );
    }
    let (code, out, err) = regula(&["bench", "games/tablut.game", "--seconds", "0.05"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("NaN") && out.contains("Tablut"), "{out}");
}

#[test]
fn ir_prints_every_program_the_checker_accepts() {
    // A sum of 500 terms is 500 levels deep in the IR, within the syntax stage's bound.
    let sum = vec!["1"; 500].join(" + ");
    let path = temp_file(
        "deep_ir.game",
        format!("game \"Deep\" {{ }}\nplayers {{ white black }}\nboard 3 x 3\npiece King letter K\nsetup {{ white King a1  black King c3 }}\nmoves King {{ step all to empty }}\nlegal if {sum} == 500\nend {{ when no moves: next loses }}\n").as_bytes(),
    );
    let (code, out, err) = regula(&["ir", &path]);
    assert_eq!(code, 0, "{err}");
    let program: regula::ir::Program = ron::Options::default()
        .without_recursion_limit()
        .from_str(&out)
        .expect("valid RON");
    assert!(program.game.legal.is_some());
    assert!(
        !err.contains("ron::") && !err.contains("serde_stacker"),
        "{err}"
    );
}
