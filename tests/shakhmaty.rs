//! Shakhmaty (Early Modern): piece moves, threat and legality, the three-move opening
//! turn, passes and the end of the game.

mod common;
use common::*;
use regula::engine::Outcome;
use regula::engine::search::Rng;

#[test]
fn the_queen_also_leaps_like_a_knight() {
    let g = game("shakhmaty");
    let m = moves(&g, &g.start());
    assert!(
        m.contains(&"d1-c3".into()) && m.contains(&"d1-e3".into()),
        "{m:?}"
    );
    assert_eq!(m.len(), 22);
    let g = with_setup(
        "shakhmaty",
        "white Queen d4  white King a1  black King h8  black Pawn e6",
    );
    let m = moves(&g, &g.start());
    for leap in [
        "d4-b3", "d4-b5", "d4-c2", "d4-c6", "d4-e2", "d4-e6", "d4-f3", "d4-f5",
    ] {
        assert!(m.contains(&leap.to_string()), "{leap}");
    }
    assert!(
        m.contains(&"d4-h8".to_string()),
        "sliding captures the first enemy piece"
    );
}

#[test]
fn pawns_step_forward_double_step_only_from_their_start_and_capture_diagonally() {
    let g = with_setup(
        "shakhmaty",
        "white King a1  white Pawn e2 c3  black King h8  black Pawn d4 f3 a6",
    );
    let m = moves(&g, &g.start());
    assert!(
        m.contains(&"e2-e3".into()) && m.contains(&"e2-e4".into()) && m.contains(&"e2-f3".into())
    );
    assert!(m.contains(&"c3-c4".into()) && m.contains(&"c3-d4".into()));
    assert!(
        !m.contains(&"c3-c5".into()),
        "no double step away from the starting rank"
    );
    let g = with_setup(
        "shakhmaty",
        "white King a1  black King h8  black Pawn a6 h7",
    );
    let pos = after(&g, "a1-b1 b1-a1 a1-b1");
    let m = moves(&g, &pos);
    assert!(
        m.contains(&"a6-a5".into()) && !m.contains(&"a6-a4".into()),
        "black moves south: {m:?}"
    );
    assert!(
        m.contains(&"h7-h5".into()),
        "and double-steps from its own start rank"
    );
    let g = with_setup(
        "shakhmaty",
        "white King a1  white Pawn e2  black King h8  black Pawn e3",
    );
    assert!(
        !has(&g, &g.start(), "e2-e4"),
        "no double step past a blocked square"
    );
}

#[test]
fn pawns_never_promote_and_have_no_move_on_the_last_rank() {
    let g = with_setup(
        "shakhmaty",
        "white King a1  white Pawn e7 d8  black King h1",
    );
    let m = moves(&g, &g.start());
    assert!(m.contains(&"e7-e8".to_string()));
    assert!(!m.iter().any(|mv| mv.starts_with("d8")));
    let pos = after(&g, "e7-e8");
    assert_eq!(at(&g, &pos, "e8"), Some('P'));
}

#[test]
fn moving_into_check_is_refused_in_the_opening_and_afterwards() {
    let g = with_setup(
        "shakhmaty",
        "white King e1  white Pawn a2  black King e8  black Rook h2",
    );
    let kings = |pos: &regula::engine::Position| -> Vec<String> {
        moves(&g, pos)
            .into_iter()
            .filter(|m| m.starts_with("e1"))
            .collect()
    };
    assert_eq!(kings(&g.start()), ["e1-d1", "e1-f1"]);
    let pos = after(&g, "a2-a3 a3-a4 a4-a5 e8-d8 d8-e8 e8-d8");
    assert_eq!(pos.to_move(), 0);
    assert_eq!(kings(&pos), ["e1-d1", "e1-f1"]);
}

#[test]
fn each_first_turn_is_three_moves_then_single_moves_alternate() {
    let g = game("shakhmaty");
    let mut pos = g.start();
    let sides = [
        "e2-e4", "d2-d4", "g1-f3", "e7-e5", "d7-d5", "g8-f6", "b1-c3", "b8-c6", "c1-f4",
    ];
    let movers: Vec<u8> = sides
        .iter()
        .map(|mv| {
            let who = pos.to_move();
            play(&g, &mut pos, mv);
            who
        })
        .collect();
    assert_eq!(movers, [0, 0, 0, 1, 1, 1, 0, 1, 0]);
}

#[test]
fn the_king_capture_line_of_the_rules() {
    let g = game("shakhmaty");
    let pos = after(&g, "d1-c3 c3-c7 c7-e8");
    assert_eq!(at(&g, &pos, "e8"), Some('Q'), "the black King is captured");
    assert_eq!(outcome(&g, &pos), None, "and the game goes on");
    let m = moves(&g, &pos);
    assert!(
        m.len() > 10,
        "without a King, no black move is refused: {m:?}"
    );
    assert!(m.contains(&"f8-e7".to_string()) || m.contains(&"d7-d6".to_string()));
}

#[test]
fn checkmate_wins() {
    let g = game("shakhmaty");
    let text = std::fs::read_to_string(format!(
        "{}/games/shakhmaty.tests",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // The position below the comment that says it is checkmate.
    let mut lines = text.lines().skip_while(|l| !l.starts_with("# checkmate"));
    let mate = lines.find_map(|l| l.strip_prefix("after ")).unwrap();
    let pos = after(&g, mate);
    assert_eq!(outcome(&g, &pos), Some(Outcome::Win(1)));
    assert_eq!(moves(&g, &pos), ["result: black"]);
}

#[test]
fn a_player_without_a_legal_move_passes_and_two_passes_draw() {
    let g = with_setup(
        "shakhmaty",
        "white King a8  white Pawn a7 b7 b8  black Pawn h1",
    );
    let mut pos = g.start();
    assert_eq!(moves(&g, &pos), ["pass"]);
    play(&g, &mut pos, "pass");
    assert_eq!(moves(&g, &pos), ["pass"], "the second pass is played");
    play(&g, &mut pos, "pass");
    assert_eq!(moves(&g, &pos), ["result: draw"]);
}

#[test]
fn a_stalemated_player_passes_and_play_continues() {
    let g = with_setup(
        "shakhmaty",
        "white King a1  white Pawn a2  black King e8  black Rook b8  black Pawn a3",
    );
    let mut pos = g.start();
    assert_eq!(moves(&g, &pos), ["pass"]);
    play(&g, &mut pos, "pass");
    assert_eq!(pos.to_move(), 1);
    assert!(moves(&g, &pos).len() > 1);
}

#[test]
fn the_turn_limit_draws() {
    let src = game_source("shakhmaty").replace("when turns >= 2500: draw", "when turns >= 8: draw");
    let g = load(&src);
    let mut pos = after(
        &g,
        "e2-e4 d2-d4 g1-f3 e7-e5 d7-d5 g8-f6 b1-c3 b8-c6 c1-f4 c8-f5 f1-b5",
    );
    assert_eq!(pos.turns(), 7);
    assert_eq!(outcome(&g, &pos), None);
    play(&g, &mut pos, "f8-b4");
    assert_eq!(outcome(&g, &pos), Some(Outcome::Draw));
}

#[test]
fn a_random_game_that_reaches_the_limit_lasts_2504_moves() {
    let g = game("shakhmaty");
    for seed in 1..20 {
        let mut pos = g.start();
        let (o, plies) = g.playout(&mut pos, &mut Rng::new(seed), 10_000);
        if pos.turns() >= 2500 {
            assert_eq!(o, regula::engine::search::Ending::Over(Outcome::Draw));
            assert_eq!(
                plies, 2504,
                "two opening turns of three moves, then 2498 single moves"
            );
            return;
        }
    }
    panic!("no random game reached the turn limit");
}
