//! Random play: moves are drawn uniformly among the legal ones (checked with a chi-square
//! test, including games with `legal if`, duplicate candidates, pieces in hand and piece
//! choices), playouts are reproducible for a seed whatever the number of threads, and a
//! very long game keeps its memory bounded.

mod common;
use common::*;
use regula::engine::Rng;

/// The chi-square statistic's critical value for `df` degrees of freedom at p = 1e-6
/// (Wilson–Hilferty approximation).
fn critical(df: f64) -> f64 {
    let z = 4.753;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

/// Draws many random moves in a position and checks they are legal, that every legal
/// move comes up, and that their frequencies pass a chi-square test of uniformity.
fn uniform(g: &regula::engine::Engine, after_moves: &str) {
    let pos = after(g, after_moves);
    let legal = moves(g, &pos);
    assert!(legal.len() > 1, "{after_moves}: {legal:?}");
    let per_move = 300;
    let draws = per_move * legal.len();
    let mut seen = std::collections::HashMap::new();
    let mut rng = Rng::new(42);
    for _ in 0..draws {
        let m = g.random_move(&pos, &mut rng).expect("a legal move");
        *seen.entry(g.notation(&m)).or_insert(0usize) += 1;
    }
    let mut drawn: Vec<&String> = seen.keys().collect();
    drawn.sort();
    assert_eq!(drawn, legal.iter().collect::<Vec<_>>(), "{after_moves}");
    let e = per_move as f64;
    let chi2: f64 = seen.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
    let limit = critical((legal.len() - 1) as f64);
    assert!(chi2 < limit, "{after_moves}: chi2 {chi2:.1} >= {limit:.1}");
}

#[test]
fn random_moves_are_uniform_with_legality_and_duplicates() {
    // Shakti: `legal if` rejects moves, and a Warrior's two rules per direction may meet.
    let g = game("shakti");
    uniform(&g, "");
    uniform(&g, "b2-b4 f6-f4 d2-c3");
}

#[test]
fn random_moves_are_uniform_in_check_and_with_choices() {
    // Shakhmaty in check after the opening turn; chess with promotion choices.
    let g = game("shakhmaty");
    uniform(&g, "e2-e4 d1-h5 h5-f7");
    let chess = load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/chess.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    uniform(&chess, "b2-b4 a7-a5 b4-a5 b7-b6 a5-b6 c8-a6 b6-b7 a6-b5");
}

#[test]
fn random_moves_are_uniform_over_placements_and_board_moves() {
    let tempo = load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/tempo.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    uniform(&tempo, "");
    uniform(&tempo, "S@b2 S@c3");
    // Shaversi: placements under guards, one guard for the types with the same rules
    // and one set of cells for the types placed alike (the King open and the Queen not at
    // the start, then the Queen alone, then four types).
    uniform(&game("shaversi"), "");
    uniform(&game("shaversi"), "K@e4");
    uniform(&game("shaversi"), "K@e4 Q@d5");
}

/// An example game of `docs/examples`.
fn example(name: &str) -> regula::engine::Engine {
    load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/{name}.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
}

#[test]
fn random_moves_are_uniform_over_pieces_made_by_several_pieces_and_actions() {
    // Ataxx: a clone onto a cell next to two stones is one move, made from either.
    uniform(&example("ataxx"), "S@b6 S@b2 a7-c5");
    // Hex: placements and the swap, an action.
    uniform(&example("hex"), "S@f6");
    // Amazons: the arrow, a piece made from nothing, after the queen's move; and the
    // queens' moves, whose bounds count one of the two phases of a turn.
    uniform(&example("amazons"), "d1-d7");
    uniform(&example("amazons"), "");
}

#[test]
fn random_moves_are_uniform_over_placements_drawn_from_their_set() {
    // A lone placement is drawn from its set of cells: Othello's with a condition given
    // as a set (the flips), Connect Four's on the lowest empty cells, tic-tac-toe's
    // anywhere empty (these two read from the empty cells, not through the test).
    uniform(&example("othello"), "");
    uniform(&example("othello"), "D@d3 D@c3");
    uniform(&example("connect4"), "D@d1 D@d2 D@d3");
    uniform(&example("tictactoe"), "X@b2 X@a1");
    // One type placed on empty cells within cells that differ per player (the draw reads
    // each player's cells, not the whole board).
    let homes = load(
        "game \"Homes\" { }\n\
         players { white black }\n\
         board 4 x 4\n\
         piece Stone letter S\n\
         hand {\n white Stone 6\n black Stone 6\n}\n\
         region home {\n white: rank 1 | rank 2\n black: rank 3 | rank 4\n}\n\
         region margin = file a\n\
         moves Stone { place on empty and in home and not in margin }\n\
         end { when no moves: draw }\n",
    );
    uniform(&homes, "");
    uniform(&homes, "S@b1 S@c4");
    uniform(&homes, "S@b1 S@c4 S@d2");
    // Several types in hand, each placed on its own set, and an action that is legal
    // only on some plies (drawn as one more slot, set aside when it is not).
    let kinds = load(
        "game \"Kinds\" { }\n\
         players { white black }\n\
         board 4 x 4\n\
         piece Stone letter S\npiece Tower letter T\npiece Wall letter W\n\
         hand {\n white Stone 4 Tower 2 Wall 1\n black Stone 4 Tower 2 Wall 1\n}\n\
         moves Stone { place on empty }\n\
         moves Tower { place on empty and not in edge }\n\
         moves Wall { place on empty if to in edge }\n\
         action rest when moves-made >= 2 { }\n\
         end { when no moves: draw }\n",
    );
    uniform(&kinds, "");
    uniform(&kinds, "S@b2 T@c3");
    uniform(&kinds, "S@b2 T@c3 W@a1 S@d4");
}

#[test]
fn random_moves_are_uniform_over_pieces_drawn_by_their_sets() {
    // Types a player has four or more of, whose rules are plain steps and slides, are
    // drawn from the sets of all their pieces' targets: Rooks and Pawns here, beside a
    // lone King drawn by its rules, with `legal if` rejecting moves (in check after
    // a3-a4), and Breakthrough's and Tablut's pieces.
    let rooks = load(
        "game \"Rooks\" { }\n\
         players { white forward north  black forward south }\n\
         board 6 x 6\n\
         piece King letter K\npiece Rook letter R\npiece Pawn letter P\n\
         setup {\n white Rook a1 c1 d1 f1\n white King e2\n white Pawn a2 b2 c2 d2\n \
         black Rook a6 c6 d6 f6\n black King b5\n black Pawn c5 d5 e5 f5\n}\n\
         moves King { step all to not friend }\n\
         moves Rook { slide orthogonal to not friend }\n\
         moves Pawn { step forward to empty  step forward-left, forward-right to enemy }\n\
         legal if not (find friend King is attacked)\n\
         end { when no moves: next loses }\n",
    );
    uniform(&rooks, "");
    uniform(&rooks, "a2-a3 c5-c4");
    uniform(&rooks, "a2-a3 c5-c4 a3-a4");
    uniform(&example("breakthrough"), "");
    uniform(&game("tablut"), "e3-h3 e2-e3");
    // The king, whose rules are the guards', drawn with them.
    uniform(&game("tablut"), "e4-h4 a4-a3 e6-h6 a6-a7");
    // A lone piece of steps only (the wolf) is drawn from its sets too, when it is all
    // its player has; the sheep, all of theirs, from theirs.
    uniform(&example("wolf-and-sheep"), "a1-b2");
    uniform(&example("wolf-and-sheep"), "a1-b2 d8-c7 c1-d2");
}

#[test]
fn random_moves_are_uniform_within_the_first_class_that_has_moves() {
    // English draughts: only the captures when there are some, else the other moves.
    let draughts = example("english-draughts");
    uniform(&draughts, "");
    uniform(&draughts, "c3-d4 f6-e5 d4-f6");
    uniform(&draughts, "c3-d4 d6-c5 b2-c3 c5-b4");
    // Men and kings whose first hops are told by the hops' shape: captures by a man and a
    // king, then none (the men's steps drawn from their sets, the king's by its rules).
    let small = load(
        "game \"T\" { }\nplayers { black forward north  white forward south }\n\
         board 6 x 6\npiece Man letter M\npiece King letter K\n\
         setup { black Man a1 c1 e1 a3  black King c3  white Man b4 d4 b6 f4  white King f6 }\n\
         priority capture\n\
         moves Man { capture { chain { for d in forward-left, forward-right {\n\
           move to from + d * 2 if from + d is enemy then { remove from + d } } } }\n\
           step forward-left, forward-right }\n\
         moves King { capture { chain { for d in diagonal {\n\
           move to from + d * 2 if from + d is enemy then { remove from + d } } } }\n\
           step diagonal }\n\
         end { when no moves: next loses }\n",
    );
    uniform(&small, "");
    uniform(&small, "c3-a5");
}

#[test]
fn random_moves_are_uniform_within_a_class_under_legal_if() {
    // Captures first, in check: the Knight's captures are refused by `legal if`, the
    // King's are not. Once a drawn candidate fails, the others are listed and drawn
    // from the list.
    let check = load(
        "game \"Check\" { }\n\
         players { white black }\n\
         board 6 x 6\n\
         piece King letter K\npiece Rook letter R\npiece Knight letter N\n\
         setup {\n white King e1\n white Knight c3\n white Rook a1\n \
         black King f6\n black Rook e6 d2 f1 b5 a4\n}\n\
         priority capture\n\
         moves King { capture { step all to enemy } }\n\
         moves Knight { capture { leap 1 2 to enemy } }\n\
         moves Rook { slide orthogonal to empty }\n\
         attacks Rook { slide orthogonal to any }\n\
         legal if not (find friend King is attacked)\n\
         end { when no moves: next loses }\n",
    );
    assert_eq!(moves(&check, &check.start()), ["e1-d2", "e1-f1"]);
    uniform(&check, "");
}

#[test]
fn the_same_seed_gives_the_same_statistics_whatever_the_threads() {
    let games = ["tablut", "shakti", "shaversi"].map(game);
    let examples = ["hex", "ataxx", "english-draughts"].map(example);
    for (name, g) in [
        "tablut",
        "shakti",
        "shaversi",
        "hex",
        "ataxx",
        "english-draughts",
    ]
    .iter()
    .zip(games.iter().chain(examples.iter()))
    {
        let one = g.playouts_with(&g.start(), 60, 9, 100_000, 1);
        let two = g.playouts_with(&g.start(), 60, 9, 100_000, 2);
        assert_eq!(
            (one.wins, one.draws, one.plies),
            (two.wins, two.draws, two.plies),
            "{name}"
        );
    }
    // Enough playouts that threads claim them in runs, of other lengths for each number of
    // threads.
    let g = example("tictactoe");
    let one = g.playouts_with(&g.start(), 5000, 9, 100_000, 1);
    for threads in [2, 3] {
        let more = g.playouts_with(&g.start(), 5000, 9, 100_000, threads);
        assert_eq!(
            (&one.wins, one.draws, one.plies, one.count),
            (&more.wins, more.draws, more.plies, more.count),
            "tic-tac-toe over {threads} threads"
        );
    }
    assert_eq!(one.count, 5000);
}

#[test]
fn a_million_plies_with_a_repetition_rule_stay_within_16_mb() {
    // Two Kings walking at random on a small board, with a repetition rule that never
    // fires: nothing is ever irreversible, so the whole game is one stretch of history.
    let g = load(
        "game \"Walk\" { }\nplayers { white black }\nboard 4 x 4\npiece King letter K\n\
         setup { white King a1  black King d4 }\nmoves King { step all to empty }\n\
         end { when repetitions >= 100000000: draw }\n",
    );
    let mut pos = g.start();
    let (ending, plies) = g.playout(&mut pos, &mut Rng::new(1), 1_000_000);
    assert_eq!(ending, regula::engine::Ending::Cut);
    assert_eq!(plies, 1_000_000);
    assert!(pos.repetitions() > 1);
    let bytes = pos.history_bytes();
    assert!(bytes < 16 << 20, "{bytes} bytes of history");
}
