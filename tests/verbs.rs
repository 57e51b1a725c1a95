//! The verbs around positions, matches and records: `show --position` and `--from`,
//! `match` (summary, records, JSON, reproducibility) and `replay`.

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

fn temp(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verbs");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn a_printed_position_is_accepted_by_every_verb_with_from() {
    let game = "games/shakti.game";
    let after = "b2-b4 f6-f4 d2-d3 d6-e6";
    let (code, line, _) = regula(&["show", game, "--after", after, "--position"]);
    assert_eq!(code, 0);
    let line = line.trim_end();
    assert!(line.starts_with("7/1w2k2/"), "{line}");
    for verb in [
        vec!["moves", game],
        vec!["perft", game, "3"],
        vec!["show", game],
        vec!["show", game, "--svg"],
    ] {
        let mut by_moves = verb.clone();
        by_moves.extend(["--after", after]);
        let mut by_position = verb.clone();
        by_position.extend(["--from", line]);
        let a = regula(&by_moves);
        let b = regula(&by_position);
        assert_eq!(a.0, 0, "{verb:?}: {}", a.2);
        assert_eq!(a.1, b.1, "{verb:?}");
    }
    let (code, out, _) = regula(&["playout", game, "--count", "20", "--from", line]);
    assert_eq!(code, 0);
    assert!(out.contains("playouts: 20"), "{out}");
}

#[test]
fn a_malformed_position_points_at_the_field() {
    let (code, _, err) = regula(&[
        "moves",
        "docs/examples/tictactoe.game",
        "--from",
        "3/1X1/3 whte",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("error[E0302]: unknown player `whte`"), "{err}");
    assert!(err.contains("--> --from:1:9"), "{err}");
    assert!(err.contains("1 | 3/1X1/3 whte\n  |         ^^^^"), "{err}");
    assert!(err.contains("did you mean `white`?"), "{err}");
}

#[test]
fn a_match_reports_score_interval_and_elo_and_writes_records() {
    let records = temp("ttt.txt");
    let (code, out, err) = regula(&[
        "match",
        "docs/examples/tictactoe.game",
        "mcts:300",
        "random",
        "--games",
        "8",
        "--seed",
        "4",
        "--records",
        &records,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "no progress bar when stderr is not a terminal");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 8);
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 8);
    let score = v["score"].as_f64().unwrap();
    assert!((score - (w as f64 + d as f64 / 2.0) / 8.0).abs() < 1e-9);
    assert!(
        v["score_low"].as_f64().unwrap() <= score && score <= v["score_high"].as_f64().unwrap()
    );
    assert!(w > l, "MCTS beats random play at tic-tac-toe: {out}");
    let text = std::fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8);
    for line in &lines {
        assert!(line.starts_with("X@"), "{line}");
        assert!(line.contains(" result: "), "{line}");
    }
    // Every record replays, and its stated result is the one the moves give.
    for i in 1..=8 {
        let (code, out, err) = regula(&[
            "replay",
            "docs/examples/tictactoe.game",
            &records,
            "--line",
            &i.to_string(),
        ]);
        assert_eq!(code, 0, "line {i}: {err}");
        assert!(out.contains("result: "), "{out}");
    }
}

#[test]
fn a_match_is_reproducible_for_a_seed_whatever_the_threads() {
    let run = |threads: &str, records: &str| {
        let (code, out, err) = regula(&[
            "match",
            "docs/examples/connect4.game",
            "mcts:200",
            "flat:100",
            "--games",
            "4",
            "--seed",
            "11",
            "--threads",
            threads,
            "--records",
            records,
        ]);
        assert_eq!(code, 0, "{err}");
        (out, std::fs::read_to_string(records).unwrap())
    };
    let (a, ra) = run("1", &temp("c4a.txt"));
    let (_, rb) = run("2", &temp("c4b.txt"));
    assert_eq!(ra, rb);
    assert!(
        a.contains("Connect Four: mcts:200 against flat:100, 4 games"),
        "{a}"
    );
    assert!(
        a.contains("score: ") && a.contains("Elo difference: "),
        "{a}"
    );
}

#[test]
fn match_refuses_humans_and_bad_agents() {
    let game = "docs/examples/tictactoe.game";
    let (code, _, err) = regula(&["match", game, "human", "random"]);
    assert_eq!(code, 2);
    assert!(err.contains("regula play"), "{err}");
    let (code, _, err) = regula(&["match", game, "mcts:2x", "random"]);
    assert_eq!(code, 2);
    assert!(err.contains("`2x` is not a budget"), "{err}");
}

#[test]
fn replay_checks_every_move_and_the_stated_result() {
    let game = "docs/examples/tictactoe.game";
    let good = temp("good.txt");
    std::fs::write(&good, "X@a1 X@a2 X@b1 X@b2 X@c1 result: white\n").unwrap();
    let (code, out, _) = regula(&["replay", game, &good, "--each"]);
    assert_eq!(code, 0);
    assert!(out.contains("\n5. X@c1\n"), "{out}");
    assert!(out.ends_with("result: white\n"), "{out}");
    assert_eq!(out.matches("   a b c").count(), 6, "every position: {out}");
    let page = temp("game.html");
    let (code, _, _) = regula(&["replay", game, &good, "--html", &page]);
    assert_eq!(code, 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<svg ").count(), 6);

    let wrong_result = temp("wrong.txt");
    std::fs::write(&wrong_result, "X@a1 X@a2 X@b1 X@b2 X@c1 result: black\n").unwrap();
    let (code, _, err) = regula(&["replay", game, &wrong_result]);
    assert_eq!(code, 2);
    assert!(err.contains("error[E0303]"), "{err}");

    let illegal = temp("illegal.txt");
    std::fs::write(&illegal, "X@a1 X@a1\n").unwrap();
    let (code, _, err) = regula(&["replay", game, &illegal]);
    assert_eq!(code, 2);
    assert!(
        err.contains("error[E0300]: move 2 `X@a1` is not legal for black"),
        "{err}"
    );

    let (code, _, err) = regula(&["replay", game, &good, "--line", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no game on line 2"), "{err}");
}
