//! `regula play` as a person uses it: a whole game of tic-tac-toe against MCTS typed
//! through standard input, and the same in a real terminal driven through tmux.

use std::io::Write;
use std::process::{Command, Stdio};

fn regula_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run regula");
    // The game may end before every line is read: a closed pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const GAME: &str = "docs/examples/tictactoe.game";

/// A mistyped move, a move, an undo, the move again, then every cell in turn (a taken
/// cell is refused and the next line is read) until the game ends.
fn script() -> String {
    let mut lines = vec!["a1", "X@b2", "undo", "?", "X@b2"];
    let cells = ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"];
    let moves: Vec<String> = cells.iter().map(|c| format!("X@{c}")).collect();
    lines.extend(moves.iter().map(String::as_str));
    lines.join("\n") + "\n"
}

#[test]
fn a_whole_game_against_mcts_through_standard_input() {
    let args = [
        "play",
        GAME,
        "--white",
        "human",
        "--black",
        "mcts:300",
        "--threads",
        "1",
    ];
    let (code, out, err) = regula_with_input(&args, &script());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("white> a1\n`a1` is not a legal move here; did you mean `X@a1`?"),
        "{out}"
    );
    assert!(out.contains("white played X@b2"), "{out}");
    assert!(out.contains("undone: "), "{out}");
    assert!(
        out.contains("legal moves: X@a1 X@a2 X@a3 X@b1 X@b2 X@b3 X@c1 X@c2 X@c3"),
        "{out}"
    );
    assert!(out.contains("mcts:300: 300 iterations"), "{out}");
    assert!(out.contains("black played X@"), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        ["result: white", "result: black", "result: draw"].contains(&last),
        "the game ends with its result: {out}"
    );
    assert!(!out.contains("end of input"), "{out}");
}

#[test]
fn the_end_of_input_leaves_the_game_cleanly() {
    let (code, out, _) = regula_with_input(&["play", GAME, "--black", "random"], "X@b2\n");
    assert_eq!(code, 0);
    assert!(
        out.ends_with("end of input: the game is left unfinished\n"),
        "{out}"
    );
}

#[test]
fn resigning_ends_the_game_for_the_other_player() {
    let (code, out, _) = regula_with_input(&["play", GAME, "--black", "random"], "resign\n");
    assert_eq!(code, 0);
    assert!(out.ends_with("white resigned\nresult: black\n"), "{out}");
}

#[test]
fn undo_before_any_move_and_hints_are_answered() {
    let (code, out, _) = regula_with_input(
        &[
            "play",
            GAME,
            "--player",
            "black=random",
            "--hint",
            "mcts:100",
        ],
        "undo\nhint\nX@e5\nhelp\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("hint: X@"), "{out}");
    assert!(out.contains("(mcts:100: 100 iterations"), "{out}");
    assert!(out.contains("`X@e5` is not a legal move here"), "{out}");
    assert!(out.contains("back to your previous turn"), "{out}");
}

#[test]
fn agents_play_each_other_to_the_end() {
    let (code, out, err) = regula_with_input(
        &[
            "play",
            GAME,
            "--white",
            "mcts:200",
            "--black",
            "alphabeta:2",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("white> "), "no human, no prompt: {out}");
    assert!(out.contains("alphabeta:2: "), "{out}");
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("result: "),
        "{out}"
    );
}

#[test]
fn bad_players_and_agents_are_usage_errors_with_hints() {
    for (args, needle) in [
        (
            vec!["play", GAME, "--black", "mtcs:2s"],
            "did you mean `mcts`?",
        ),
        (
            vec!["play", GAME, "--blak", "random"],
            "did you mean `--black`?",
        ),
        (
            vec!["play", GAME, "--player", "black"],
            "--player NAME=AGENT",
        ),
        (vec!["play", GAME, "--hint", "human"], "cannot give hints"),
        (
            vec!["play", GAME, "--from", "3/3 white"],
            "the board has 3 ranks",
        ),
    ] {
        let (code, out, err) = regula_with_input(&args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Runs a tmux command; `None` when tmux is not there.
fn tmux(args: &[&str]) -> Option<String> {
    let out = Command::new("tmux").args(args).output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_whole_game_in_a_real_terminal() {
    if tmux(&["-V"]).is_none() {
        println!("note: tmux is not installed; the terminal session is not tested");
        return;
    }
    let session = format!("regula-play-{}", std::process::id());
    let command = format!(
        "{} play {GAME} --white human --black mcts:300 --threads 1; echo EXIT=$?; sleep 30",
        env!("CARGO_BIN_EXE_regula")
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "100",
        "-y",
        "50",
        "-c",
        env!("CARGO_MANIFEST_DIR"),
        &command,
    ])
    .unwrap();
    let pane = || tmux(&["capture-pane", "-p", "-S", "-", "-t", &session]).unwrap_or_default();
    // Waits until the screen ends with a prompt or the game is over.
    let settle = || {
        for _ in 0..200 {
            let text = pane();
            let last = text.trim_end().lines().last().unwrap_or("").to_string();
            if last == "white>" || last.ends_with("white> ") || text.contains("EXIT=") {
                return text;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("no prompt:\n{}", pane());
    };
    settle();
    for line in script().lines() {
        if pane().contains("EXIT=") {
            break;
        }
        tmux(&["send-keys", "-t", &session, "-l", line]).unwrap();
        tmux(&["send-keys", "-t", &session, "Enter"]).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(60));
        settle();
    }
    let screen = settle();
    tmux(&["kill-session", "-t", &session]);
    assert!(screen.contains("did you mean `X@a1`?"), "{screen}");
    assert!(screen.contains("undone: "), "{screen}");
    assert!(screen.contains("result: "), "{screen}");
    assert!(screen.contains("EXIT=0"), "{screen}");
}
