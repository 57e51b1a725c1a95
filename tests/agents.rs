//! Agents: specs as written on the command line, and each agent's play on positions whose
//! right move is known. Budgets are tiny so that the suite stays fast.

mod common;
use common::*;
use regula::agents::{Budget, Spec};
use regula::engine::{Engine, Move, Position};
use std::time::Duration;

fn example(name: &str) -> Engine {
    load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/{name}.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
}

fn legal(e: &Engine, pos: &Position) -> Vec<Move> {
    let mut buf = Vec::new();
    assert!(e.status(pos, &mut buf).is_none());
    buf
}

fn choice(spec: &str, e: &Engine, pos: &Position) -> String {
    let mut agent = spec.parse::<Spec>().unwrap().build(e, 1, 1).unwrap();
    let c = agent.choose(e, pos, &legal(e, pos));
    e.notation(&c.mv)
}

#[test]
fn specs_read_as_written_and_print_back() {
    for (text, spec) in [
        ("human", Spec::Human),
        ("random", Spec::Random),
        ("flat", Spec::Flat(500)),
        ("flat:200", Spec::Flat(200)),
        ("mcts:5000", Spec::Mcts(Budget::Iterations(5000))),
        ("mcts:2s", Spec::Mcts(Budget::Time(Duration::from_secs(2)))),
        (
            "mcts:200ms",
            Spec::Mcts(Budget::Time(Duration::from_millis(200))),
        ),
        ("alphabeta:3", Spec::AlphaBeta(3)),
    ] {
        assert_eq!(text.parse::<Spec>().unwrap(), spec, "{text}");
        if text != "flat" {
            assert_eq!(spec.to_string(), text);
        }
    }
    assert_eq!(
        "mcts:1.5s".parse::<Spec>().unwrap(),
        Spec::Mcts(Budget::Time(Duration::from_millis(1500)))
    );
}

#[test]
fn bad_specs_say_what_is_wrong_and_how_to_write_it() {
    for (text, message, hint) in [
        ("mtcs:2s", "unknown agent `mtcs:2s`", "did you mean `mcts`?"),
        ("minimax", "unknown agent `minimax`", "alphabeta:DEPTH"),
        ("mcts:2x", "`2x` is not a budget", "mcts:200ms"),
        ("mcts:0", "`0` is not a budget", "mcts:5000"),
        ("flat:-3", "`-3` is not a number of playouts", "flat:500"),
        ("alphabeta:99", "depth 99 is too deep", "at most"),
        ("random:3", "`random` takes no argument", "write `random`"),
        ("", "unknown agent ``", "mcts:TIME"),
    ] {
        let e = text.parse::<Spec>().unwrap_err();
        assert!(e.message.contains(message), "{text}: {}", e.message);
        assert!(e.hint.contains(hint), "{text}: {}", e.hint);
    }
}

/// White (X) has a1 and b1 and wins with c1; black threatens a2-b2-c2.
const TICTACTOE_WIN: &str = "3/xx1/XX1 white hand=white:3X,black:2X";
/// Black to move must block c1 (white threatens a1-b1-c1); black cannot win at once.
const TICTACTOE_BLOCK: &str = "3/1x1/XX1 black hand=white:3X,black:3X";

#[test]
fn every_searching_agent_takes_a_win_in_one() {
    let e = example("tictactoe");
    let pos = e.parse_position(TICTACTOE_WIN).unwrap();
    for spec in ["flat:300", "mcts:400", "alphabeta:1", "alphabeta:3"] {
        assert_eq!(choice(spec, &e, &pos), "X@c1", "{spec}");
    }
}

#[test]
fn searching_agents_block_a_threat() {
    let e = example("tictactoe");
    let pos = e.parse_position(TICTACTOE_BLOCK).unwrap();
    for spec in ["mcts:2000", "alphabeta:2"] {
        assert_eq!(choice(spec, &e, &pos), "X@c1", "{spec}");
    }
}

#[test]
fn a_random_agent_plays_legal_moves_from_any_position() {
    let e = game("shakti");
    let mut agent = Spec::Random.build(&e, 3, 1).unwrap();
    let mut pos = e.start();
    let mut buf = Vec::new();
    for _ in 0..60 {
        if e.status(&pos, &mut buf).is_some() {
            break;
        }
        let c = agent.choose(&e, &pos, &buf);
        assert!(buf.contains(&c.mv));
        e.play(&mut pos, &c.mv);
    }
}

#[test]
fn mcts_keeps_the_subtree_of_the_moves_played() {
    let e = example("connect4");
    let mut agent = "mcts:3000"
        .parse::<Spec>()
        .unwrap()
        .build(&e, 5, 2)
        .unwrap();
    let mut pos = e.start();
    let first = agent.choose(&e, &pos, &legal(&e, &pos));
    assert_eq!(first.report.reused, 0);
    assert_eq!(first.report.work, 3000, "{}", first.report);
    assert_eq!(first.report.best[0].mv, e.notation(&first.mv));
    e.play(&mut pos, &first.mv);
    agent.observe(&e, &first.mv);
    let reply = legal(&e, &pos)[0];
    e.play(&mut pos, &reply);
    agent.observe(&e, &reply);
    let second = agent.choose(&e, &pos, &legal(&e, &pos));
    assert!(second.report.reused > 0, "{}", second.report);
    assert_eq!(second.report.work, 3000);
    // After a reset (an undo in `play`), nothing is kept.
    agent.reset();
    let third = agent.choose(&e, &pos, &legal(&e, &pos));
    assert_eq!(third.report.reused, 0);
}

#[test]
fn mcts_with_an_iteration_budget_is_reproducible_for_a_seed() {
    let e = example("breakthrough");
    let pos = e.start();
    let run = |seed| {
        let mut a = "mcts:600"
            .parse::<Spec>()
            .unwrap()
            .build(&e, seed, 2)
            .unwrap();
        let c = a.choose(&e, &pos, &legal(&e, &pos));
        (e.notation(&c.mv), c.report.best[0].visits)
    };
    assert_eq!(run(9), run(9));
}

#[test]
fn material_weights_follow_what_pieces_can_do() {
    let e = example("chess");
    let w = regula::agents::piece_weights(&e);
    let idx = |name: &str| e.game().pieces.iter().position(|p| p.name == name).unwrap();
    let order = ["Queen", "Rook", "Bishop", "Knight", "Pawn"];
    for pair in order.windows(2) {
        assert!(
            w[idx(pair[0])] > w[idx(pair[1])],
            "{} {} vs {} {}",
            pair[0],
            w[idx(pair[0])],
            pair[1],
            w[idx(pair[1])]
        );
    }
    // A mark that is only ever placed still counts as one.
    assert_eq!(regula::agents::piece_weights(&example("tictactoe")), [1.0]);
}

#[test]
fn alphabeta_takes_the_queen_left_hanging() {
    let e = example("chess");
    // Black's Queen on d5 can be taken by the Pawn on e4; nothing else is gained.
    let pos = e
        .parse_position("rnb1kbnr/pppppppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR white")
        .unwrap();
    let mut agent = "alphabeta:2"
        .parse::<Spec>()
        .unwrap()
        .build(&e, 1, 1)
        .unwrap();
    let c = agent.choose(&e, &pos, &legal(&e, &pos));
    assert_eq!(e.notation(&c.mv), "e4-d5", "{}", c.report);
    assert_eq!(c.report.depth, Some(2));
    assert!(c.report.score.unwrap() > 10.0, "{}", c.report);
}

#[test]
fn agents_play_games_of_three_players() {
    let (mut program, _) = regula::compile(
        "game \"Three\" { }\nplayers { red green }\nboard 4 x 4\npiece Stone letter S\nsetup { red Stone a1  green Stone d4 }\nmoves Stone { step all to not friend }\nend { when count cells where friend == 0: next loses\n when turns >= 30: draw }\n",
    )
    .unwrap();
    program.game.players.push(regula::ir::Player {
        name: "blue".into(),
        forward: None,
    });
    program.game.setup.push(regula::ir::Placement {
        player: 2,
        piece: 0,
        cell: 3,
    });
    let e = Engine::new(program);
    for spec in ["random", "flat:50", "mcts:100", "alphabeta:2"] {
        let mut agent = spec.parse::<Spec>().unwrap().build(&e, 1, 2).unwrap();
        let mut pos = e.start();
        let mut buf = Vec::new();
        let mut plies = 0;
        while e.status(&pos, &mut buf).is_none() && plies < 40 {
            let c = agent.choose(&e, &pos, &buf);
            assert!(buf.contains(&c.mv), "{spec}");
            e.play(&mut pos, &c.mv);
            agent.observe(&e, &c.mv);
            plies += 1;
        }
        assert!(plies > 0);
    }
}
