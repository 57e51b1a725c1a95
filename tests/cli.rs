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
    // Depth 1 is the number of moves the `moves` verb lists, and 0 once the game is over.
    let (_, out, _) = regula(&["perft", "games/tablut.game", "1"]);
    let (_, list, _) = regula(&["moves", "games/tablut.game"]);
    assert_eq!(out, format!("{}\n", list.lines().count()));
    let won = ["perft", "docs/examples/tictactoe.game", "1", "--after"];
    let (code, out, _) = regula(&[&won[..], &["X@a1 X@a2 X@b1 X@b2 X@c1"]].concat());
    assert_eq!((code, out.as_str()), (0, "0\n"));
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
    let (code, out, err) = regula(&args);
    assert_eq!((code, err.as_str()), (0, ""));
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

/// Runs regula with standard input and environment variables.
fn regula_with(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_regula"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run regula");
    // A verb that does not read its input may exit before taking it all.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const KIGN: &[u8] = b"players { white black }\nboard 3 x 3\npiece King letter K\nsetup { white Kign a1  black King c3 }\n";

/// A valid game whose only problem is a warning (an unused definition).
const WARNED: &[u8] = b"game \"Warned\" { }\nplayers { white black }\nboard 3 x 3\npiece King letter K\nsetup { white King a1  black King c3 }\nmoves King { step all to empty }\ndefine unused = true\nend { when no moves: next loses }\n";

#[test]
fn a_dash_reads_the_game_from_standard_input_for_every_verb() {
    let tablut = std::fs::read("games/tablut.game").unwrap();
    for args in [
        vec!["moves"],
        vec!["perft", "2"],
        vec!["show"],
        vec!["info"],
        vec!["playout", "--count", "5"],
    ] {
        let mut from_file = vec![args[0], "games/tablut.game"];
        from_file.extend(&args[1..]);
        let mut from_stdin = vec![args[0], "-"];
        from_stdin.extend(&args[1..]);
        let (code, a, err) = regula_with(&from_stdin, &tablut, &[]);
        assert_eq!(code, 0, "{args:?}: {err}");
        let (_, b, _) = regula(&from_file);
        let firsts = |s: &str| s.lines().take(3).collect::<Vec<_>>().join("\n");
        assert_eq!(firsts(&a), firsts(&b), "{args:?}");
    }
    let (code, _, err) = regula_with(&["check", "-"], &tablut, &[]);
    assert_eq!((code, err.as_str()), (0, "ok: 1 file(s) checked\n"));
    // Messages name it `<stdin>`, in both formats.
    let (code, _, err) = regula_with(&["check", "-"], KIGN, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("--> <stdin>:4:15"), "{err}");
    let (code, out, _) = regula_with(&["check", "-", "--format", "json"], KIGN, &[]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("{\"type\":\"file\",\"file\":\"<stdin>\""),
        "{out}"
    );
    let (code, _, err) = regula_with(&["moves", "-"], KIGN, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("<stdin>:4:15"), "{err}");
    // Standard input is read once.
    let (code, _, err) = regula_with(&["check", "-", "-"], &tablut, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than once"), "{err}");
    let (code, _, err) = regula_with(&["replay", "-", "-"], &tablut, &[]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn color_follows_the_option_and_the_environment() {
    let path = temp_file("color.game", KIGN);
    let esc = |s: &str| s.contains('\u{1b}');
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["check", path.as_str()];
        all.extend(args);
        regula_with(&all, b"", env).2
    };
    let always = run(&["--color", "always"], &[]);
    assert!(esc(&always), "{always}");
    assert!(
        always.contains("\u{1b}[1m\u{1b}[91merror[E0102]"),
        "{always}"
    );
    // Not a terminal: no colour, unless forced.
    assert!(!esc(&run(&[], &[])));
    assert!(!esc(&run(&["--color", "auto"], &[])));
    assert!(!esc(&run(
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    assert!(esc(&run(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!esc(&run(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    // Stripped of its escapes, the coloured text is the plain one.
    let plain = run(&["--color", "never"], &[]);
    let mut stripped = String::new();
    let mut in_escape = false;
    for c in always.chars() {
        match (in_escape, c) {
            (false, '\u{1b}') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, c) => stripped.push(c),
        }
    }
    assert_eq!(stripped, plain);
}

#[test]
fn deny_warnings_says_when_only_warnings_fail() {
    let path = temp_file("warned.game", WARNED);
    let (code, _, err) = regula(&["check", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[W"), "{err}");
    assert!(
        err.ends_with("ok: 1 file(s) checked, 1 warning(s)\n"),
        "{err}"
    );
    let (code, _, err) = regula(&["check", "--deny-warnings", &path]);
    assert_eq!(code, 1);
    assert!(
        err.ends_with("error: 1 warning(s) denied by --deny-warnings\n"),
        "{err}"
    );
    // With a real error too, the errors are the reason: no such line.
    let bad = temp_file("kign.game", KIGN);
    let (code, _, err) = regula(&["check", "--deny-warnings", &path, &bad]);
    assert_eq!(code, 1);
    assert!(!err.contains("denied"), "{err}");
}

#[test]
fn check_of_several_files_ends_with_a_summary() {
    let bad = temp_file("kign2.game", KIGN);
    let warned = temp_file("warned2.game", WARNED);
    let (code, _, err) = regula(&["check", "games/tablut.game", &bad, &warned, "no/such.game"]);
    assert_eq!(code, 1);
    assert!(
        err.ends_with("\n4 file(s) checked: 2 with errors, 4 warning(s)\n"),
        "{err}"
    );
}

#[test]
fn perft_is_silent_on_stderr_unless_asked_for_stats() {
    let (code, out, err) = regula(&["perft", "games/tablut.game", "3"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "251856\n", ""));
    let (code, out, err) = regula(&["perft", "games/tablut.game", "3", "--divide"]);
    assert_eq!(code, 0);
    assert!(out.ends_with("\n251856\n"));
    assert_eq!(err, "");
    let (code, out, err) = regula(&["perft", "games/tablut.game", "2", "--stats"]);
    assert_eq!((code, out.as_str()), (0, "4408\n"));
    assert!(
        err.ends_with(" nodes/s\n") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn perft_split_over_the_root_moves_counts_like_the_engine() {
    // Several depths, thread counts and a game with fewer root moves than threads.
    for (game, depth, want) in [
        ("games/shakti.game", "3", None),
        ("docs/examples/tictactoe.game", "4", Some(3024)),
    ] {
        let mut counts = Vec::new();
        for threads in ["1", "3", "64"] {
            let (code, out, err) = regula(&["perft", game, depth, "--threads", threads]);
            assert_eq!(code, 0, "{err}");
            counts.push(out.trim().parse::<u64>().unwrap());
            let (_, divided, _) = regula(&["perft", game, depth, "--threads", threads, "--divide"]);
            let lines: Vec<&str> = divided.lines().collect();
            let sum: u64 = lines[..lines.len() - 1]
                .iter()
                .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(sum, counts[0], "{game} {threads}");
            let mut sorted = lines[..lines.len() - 1].to_vec();
            sorted.sort();
            assert_eq!(sorted, lines[..lines.len() - 1], "rows in move order");
        }
        assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
        if let Some(w) = want {
            assert_eq!(counts[0], w);
        }
    }
}

#[test]
fn help_describes_every_argument_and_the_exit_codes() {
    let (code, out, _) = regula(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Exit codes: 0 ok, 1 invalid game file, 2 bad usage or illegal move"),
        "{out}"
    );
    let verbs = [
        "check", "info", "moves", "perft", "playout", "show", "play", "match", "replay", "ir",
        "bench", "explain", "lsp", "fmt",
    ];
    for verb in verbs {
        let (code, out, _) = regula(&[verb, "-h"]);
        assert_eq!(code, 0, "{verb}");
        let mut in_list = false;
        for line in out.lines() {
            if line == "Arguments:" || line == "Options:" {
                in_list = true;
                continue;
            }
            if line.is_empty() {
                in_list = false;
            }
            // An entry: `  <GAME>  text` or `      --after <AFTER>  text`.
            let entry = line.trim_start();
            if in_list && (entry.starts_with('-') || entry.starts_with('<')) {
                let text = entry.split_once("  ").map_or("", |(_, t)| t.trim());
                assert!(!text.is_empty(), "`regula {verb}`: no help for `{entry}`");
            }
        }
    }
}

#[test]
fn messages_name_no_file_of_the_repository() {
    let (code, out, _) = regula(&["explain"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("E0001  syntax error\n"), "{out}");
    let (code, _, err) = regula(&["explain", "E9999"]);
    assert_eq!(code, 2);
    assert!(err.contains("`regula explain` without a code"), "{err}");
    let (_, out, _) = regula(&["explain", "E0302"]);
    assert!(!out.contains("docs/"), "{out}");
    let (_, out, _) = regula(&["lsp", "--help"]);
    assert!(!out.contains("docs/"), "{out}");
}

#[test]
fn bench_columns_fit_the_longest_game_name() {
    let long = temp_file(
        "long_name.game",
        b"game \"A game whose name is longer than the columns\" { }\nplayers { white black }\nboard 3 x 3\npiece King letter K\nsetup { white King a1  black King c3 }\nmoves King { step all to empty }\nend { when no moves: next loses }\n",
    );
    let (code, out, err) = regula(&[
        "bench",
        "docs/examples/tictactoe.game",
        &long,
        "--seconds",
        "0.05",
        "--agents",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The playout table, then the agents' table after a blank line.
    let agents = lines.iter().position(|l| l.is_empty()).unwrap() + 1;
    for table in [&lines[0..3], &lines[agents..agents + 3]] {
        let widths: Vec<usize> = table.iter().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{table:#?}");
        // The first column is as wide as the longest name.
        let name = "A game whose name is longer than the columns";
        assert!(table[0].starts_with(&format!("{:<w$} ", "game", w = name.len())));
        assert!(table.iter().any(|l| l.starts_with(&format!("{name} "))));
    }
    assert!(lines[2].starts_with("A game whose name is longer than the columns "));
}

#[test]
fn completions_are_printed_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _regula"),
        ("zsh", "#compdef regula"),
        ("fish", "complete -c regula"),
    ] {
        let (code, out, err) = regula(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(marker), "{shell}: {out}");
        // Verbs and their options are there to complete.
        assert!(out.contains("perft") && out.contains("variant"), "{shell}");
    }
    let (code, _, err) = regula(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("possible values"), "{err}");
}

/// Runs regula with `args`, sends it Ctrl-C after 1.5 s, and returns how it ended and
/// its standard error.
#[cfg(unix)]
fn interrupted(args: &[&str]) -> (std::process::Output, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("regula runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("regula ends");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, err)
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_perft_says_what_was_counted() {
    let (out, err) = interrupted(&[
        "perft",
        "games/shakti.game",
        "9",
        "--divide",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.starts_with("interrupted: "), "{err}");
    assert!(err.contains(" of 28 root moves counted"), "{err}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_playout_says_how_many_were_played() {
    let (out, err) = interrupted(&[
        "playout",
        "games/tablut.game",
        "--count",
        "100000000",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.starts_with("interrupted: "), "{err}");
    assert!(err.ends_with(" of 100000000 playouts played\n"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn playout_and_bench_show_no_progress_when_stderr_is_not_a_terminal() {
    // Both last past the second after which a terminal would be shown a bar.
    let (code, out, err) = regula(&[
        "playout",
        "games/shakti.game",
        "--count",
        "4000",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("playouts: 4000\n"), "{out}");
    assert_eq!(err, "", "no progress bar when stderr is not a terminal");
    let (code, out, err) = regula(&["bench", "games/tablut.game", "--seconds", "1.2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Tablut"), "{out}");
    assert_eq!(err, "", "no progress bar when stderr is not a terminal");
}
