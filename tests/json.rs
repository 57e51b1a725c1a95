//! `--format json` on every verb: the output parses, and has the fields docs/JSON.md
//! documents, with values that agree with the human output.

use serde_json::Value;
use std::process::Command;

fn regula(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("run regula");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs a verb with `--format json`: exit 0, one JSON object on one line.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = regula(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(out.lines().count(), 1, "{args:?}: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

fn has_fields(v: &Value, fields: &[&str]) {
    for f in fields {
        assert!(v.get(f).is_some(), "no `{f}` in {v}");
    }
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("json");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn check_gives_an_object_per_file_then_a_summary() {
    let bad = temp_file(
        "bad.game",
        "players { white black }\nboard 3 x 3\npiece King letter K\nsetup { white Kign a1  black King c3 }\n",
    );
    let (code, out, err) = regula(&[
        "check",
        "--format",
        "json",
        "games/tablut.game",
        &bad,
        "no/such.game",
    ]);
    assert_eq!(code, 1);
    assert_eq!(err, "");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (v, file) in lines
        .iter()
        .zip(["games/tablut.game", &bad, "no/such.game"])
    {
        has_fields(
            v,
            &[
                "type",
                "file",
                "errors",
                "warnings",
                "failed",
                "diagnostics",
            ],
        );
        assert_eq!(v["type"], "file");
        assert_eq!(v["file"], file);
    }
    // A clean file has its object too, with no diagnostics.
    assert_eq!(lines[0]["failed"], false);
    assert_eq!(lines[0]["diagnostics"], serde_json::json!([]));
    let d = lines[1]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "E0102")
        .expect("the misspelt piece");
    has_fields(
        d,
        &[
            "code",
            "severity",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "message",
            "hint",
            "labels",
        ],
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(15))
    );
    // A file that cannot be read is reported in the same form.
    assert_eq!(lines[2]["diagnostics"][0]["code"], "E0004");
    assert_eq!(lines[2]["failed"], true);
    let summary = &lines[3];
    has_fields(
        summary,
        &["type", "files", "with_errors", "failed", "warnings", "ok"],
    );
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["files"], 3);
    assert_eq!(summary["with_errors"], 2);
    assert_eq!(summary["ok"], false);
}

#[test]
fn moves_lists_the_moves_or_the_result() {
    let v = json(&["moves", "games/tablut.game"]);
    has_fields(&v, &["to_move", "moves", "result"]);
    let (_, human, _) = regula(&["moves", "games/tablut.game"]);
    let listed: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(listed, human.lines().collect::<Vec<_>>());
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["result"], Value::Null);
    let line = "K@a1 Q@d4 R@h1 R@a8 R@h8 R@b7 B@c1 B@g7 B@f1 B@b1 N@b8 N@g1 N@g8 N@h3 Q@e5 K@c3";
    let v = json(&["moves", "games/shaversi.game", "--after", line]);
    assert_eq!(v["result"], "black");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn perft_gives_the_count_and_the_divide_rows() {
    let v = json(&["perft", "games/tablut.game", "2"]);
    has_fields(
        &v,
        &["depth", "count", "divide", "seconds", "nodes_per_second"],
    );
    assert_eq!(v["depth"], 2);
    assert_eq!(v["count"], 4408);
    assert_eq!(v["divide"], Value::Null);
    assert_eq!(v["seconds"], Value::Null);
    let v = json(&["perft", "games/shakti.game", "2", "--divide"]);
    let rows = v["divide"].as_array().unwrap();
    assert_eq!(rows.len(), 28);
    assert_eq!(
        rows.iter()
            .map(|r| r["count"].as_u64().unwrap())
            .sum::<u64>(),
        768
    );
    assert_eq!(v["count"], 768);
    assert!(rows[0]["move"].as_str().unwrap().starts_with("b2-"));
    let v = json(&["perft", "games/tablut.game", "3", "--stats"]);
    assert_eq!(v["count"], 251856);
    assert!(v["seconds"].as_f64().is_some() && v["nodes_per_second"].as_f64().is_some());
}

#[test]
fn playout_gives_every_statistic() {
    let v = json(&[
        "playout",
        "games/shaversi.game",
        "--count",
        "50",
        "--seed",
        "3",
    ]);
    has_fields(
        &v,
        &[
            "playouts",
            "seed",
            "max_plies",
            "players",
            "draws",
            "draw_share",
            "unfinished",
            "unfinished_share",
            "plies",
            "mean_plies",
            "seconds",
            "playouts_per_second",
            "plies_per_second",
        ],
    );
    assert_eq!(v["playouts"], 50);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["mean_plies"], 16.0);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        has_fields(p, &["name", "wins", "win_share", "losses", "loss_share"]);
    }
    let outcomes: u64 = players
        .iter()
        .map(|p| p["wins"].as_u64().unwrap())
        .sum::<u64>()
        + v["draws"].as_u64().unwrap()
        + v["unfinished"].as_u64().unwrap();
    assert_eq!(outcomes, 50);
}

#[test]
fn show_gives_cells_pieces_hands_scores_and_the_position() {
    let v = json(&["show", "docs/examples/tictactoe.game", "--after", "X@b2"]);
    has_fields(
        &v,
        &[
            "game", "board", "pieces", "flags", "to_move", "result", "hands", "scores", "ply",
            "position",
        ],
    );
    assert_eq!(v["board"]["shape"], "3 x 3");
    assert_eq!(v["board"]["cells"].as_array().unwrap().len(), 9);
    assert_eq!(
        v["pieces"],
        serde_json::json!([{"cell": "b2", "piece": "Mark", "letter": "X", "owner": "white"}])
    );
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["ply"], 1);
    let (_, line, _) = regula(&[
        "show",
        "docs/examples/tictactoe.game",
        "--after",
        "X@b2",
        "--position",
    ]);
    assert_eq!(v["position"], line.trim_end());
    assert_eq!(v["hands"][0]["player"], "white");
    // A game with a score.
    let v = json(&["show", "games/shaversi.game"]);
    let scores = v["scores"].as_array().expect("shaversi keeps a score");
    assert_eq!(scores.len(), 2);
    has_fields(&scores[0], &["player", "score"]);
}

#[test]
fn replay_gives_the_moves_the_results_and_the_positions() {
    let record = temp_file("ttt.txt", "X@a1 X@a2 X@b1 X@b2 X@c1 result: white\n");
    let v = json(&["replay", "docs/examples/tictactoe.game", &record]);
    has_fields(
        &v,
        &["moves", "result", "stated_result", "final", "positions"],
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 5);
    assert_eq!(v["result"], "white");
    assert_eq!(v["stated_result"], "white");
    assert_eq!(v["final"]["result"], "white");
    assert_eq!(v["positions"], Value::Null);
    let v = json(&["replay", "docs/examples/tictactoe.game", &record, "--each"]);
    assert_eq!(v["positions"].as_array().unwrap().len(), 6);
}

#[test]
fn bench_gives_a_row_per_game() {
    let v = json(&[
        "bench",
        "docs/examples/tictactoe.game",
        "--seconds",
        "0.05",
        "--agents",
    ]);
    has_fields(
        &v,
        &[
            "threads",
            "seconds",
            "calibration_steps_per_second",
            "games",
        ],
    );
    let row = &v["games"][0];
    has_fields(
        row,
        &[
            "file",
            "name",
            "plies_per_second",
            "playouts_per_second",
            "mean_plies",
            "plies_per_mstep",
            "mcts_iterations_per_second",
            "mcts_iterations_per_second_per_thread",
        ],
    );
    assert_eq!(row["name"], "Tic-tac-toe");
    assert!(row["mcts_iterations_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn info_and_match_speak_json_too() {
    let v = json(&["info", "games/tablut.game"]);
    has_fields(
        &v,
        &[
            "name",
            "variant",
            "description",
            "sources",
            "meta",
            "players",
            "board",
            "pieces",
            "variants",
            "parameters",
        ],
    );
    let v = json(&[
        "match",
        "docs/examples/tictactoe.game",
        "random",
        "random",
        "--games",
        "4",
    ]);
    has_fields(
        &v,
        &[
            "game",
            "agents",
            "games",
            "wins",
            "draws",
            "losses",
            "unfinished",
            "score",
            "score_low",
            "score_high",
            "elo",
            "elo_low",
            "elo_high",
            "mean_plies",
            "seconds",
        ],
    );
}
