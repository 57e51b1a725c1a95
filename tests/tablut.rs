//! Tablut: one scenario per rule of the rule set, each on a small custom setup.

mod common;
use common::*;
use regula::engine::Outcome;

const WHITE: Outcome = Outcome::Win(0);
const BLACK: Outcome = Outcome::Win(1);

#[test]
fn a_soldier_is_captured_between_the_mover_and_a_friendly_soldier() {
    let g = game("tablut");
    // White: King g7, Guard d4. Black: Mercenaries c4, e1.
    let start = position(&g, "9/9/6K2/9/9/2mG5/9/9/4m4 white");
    let mut pos = after_from(&g, &start, "g7-g8");
    play(&g, &mut pos, "e1-e4");
    assert_eq!(
        at(&g, &pos, "d4"),
        None,
        "the guard between c4 and e4 is captured"
    );
    assert_eq!(at(&g, &pos, "e4"), Some('m'));
}

#[test]
fn guards_capture_mercenaries_too_and_several_at_once() {
    let g = game("tablut");
    // White: King h8, Guards d1 b4 f4 d6. Black: Mercenaries c4 e4 d5 a9.
    let start = position(&g, "m8/7K1/9/3G5/3m5/1Gm1mG3/9/9/3G5 white");
    let pos = after_from(&g, &start, "d1-d4");
    for sq in ["c4", "e4", "d5"] {
        assert_eq!(at(&g, &pos, sq), None, "{sq} is captured");
    }
    assert_eq!(at(&g, &pos, "a9"), Some('m'));
}

#[test]
fn the_king_is_never_a_capturing_partner() {
    let g = game("tablut");
    // White: King b4, Guard d1. Black: Mercenaries c4 a9.
    let start = position(&g, "m8/9/9/9/9/1Km6/9/9/3G5 white");
    let pos = after_from(&g, &start, "d1-d4");
    assert_eq!(at(&g, &pos, "c4"), Some('m'));
}

#[test]
fn the_king_never_captures_by_moving() {
    let g = game("tablut");
    // White: King d1, Guard b4. Black: Mercenaries c4 a9.
    let start = position(&g, "m8/9/9/9/9/1Gm6/9/9/3K5 white");
    let pos = after_from(&g, &start, "d1-d4");
    assert_eq!(at(&g, &pos, "c4"), Some('m'));
}

#[test]
fn the_empty_throne_is_not_a_capturing_partner() {
    let g = game("tablut");
    // White: King h2, Guard a3. Black: Mercenaries e4 a9.
    let start = position(&g, "m8/9/9/9/9/4m4/G8/7K1/9 white");
    let pos = after_from(&g, &start, "a3-e3");
    assert_eq!(
        at(&g, &pos, "e4"),
        Some('m'),
        "e4 sits between e3 and the empty throne"
    );
}

#[test]
fn the_board_edge_is_not_a_capturing_partner() {
    let g = game("tablut");
    // White: King h2, Guard b9. Black: Mercenaries a4 i9.
    let start = position(&g, "1G6m/9/9/9/9/m8/9/7K1/9 white");
    let pos = after_from(&g, &start, "b9-b4");
    assert_eq!(at(&g, &pos, "a4"), Some('m'));
}

#[test]
fn diagonal_enclosure_never_captures() {
    let g = with_setup(
        "tablut",
        "white King h2  white Guard c6 a1  black Mercenary d5 i9",
    );
    let pos = after(&g, "a1-e1");
    let pos2 = {
        let mut p = pos.clone();
        play(&g, &mut p, "i9-i8");
        play(&g, &mut p, "e1-e4");
        p
    };
    assert_eq!(
        at(&g, &pos2, "d5"),
        Some('m'),
        "c6 and e4 enclose d5 only diagonally"
    );
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let g = with_setup(
        "tablut",
        "white King h2  white Guard c4 e4  black Mercenary d9",
    );
    let mut pos = after(&g, "h2-h3");
    play(&g, &mut pos, "d9-d4");
    assert_eq!(at(&g, &pos, "d4"), Some('m'));
    assert_eq!(at(&g, &pos, "c4"), Some('G'));
    assert_eq!(at(&g, &pos, "e4"), Some('G'));
}

#[test]
fn the_occupied_throne_blocks_and_the_empty_throne_is_crossed_but_never_entered() {
    let g = game("tablut");
    let pos = g.start();
    assert!(!has(&g, &pos, "e9-e4") && !has(&g, &pos, "e7-e4"));
    let g = with_setup(
        "tablut",
        "white King e4  white Guard d5  black Mercenary a9",
    );
    let pos = g.start();
    assert!(has(&g, &pos, "d5-f5"), "a guard crosses the empty throne");
    assert!(has(&g, &pos, "d5-i5"));
    assert!(!has(&g, &pos, "d5-e5"), "no piece ends on the throne");
    assert!(has(&g, &pos, "e4-e6"), "the King crosses it too");
    assert!(!has(&g, &pos, "e4-e5"), "and never returns to it");
}

#[test]
fn pieces_move_like_rooks_and_never_jump() {
    let g = with_setup(
        "tablut",
        "white King a9  white Guard c3  black Mercenary c6 f3",
    );
    let m = moves(&g, &g.start());
    let guard: Vec<&String> = m.iter().filter(|s| s.starts_with("c3")).collect();
    assert_eq!(
        guard,
        [
            "c3-a3", "c3-b3", "c3-c1", "c3-c2", "c3-c4", "c3-c5", "c3-d3", "c3-e3"
        ]
    );
}

#[test]
fn four_mercenaries_capture_the_king() {
    let g = with_setup(
        "tablut",
        "white King c3  white Guard h8  black Mercenary b3 d3 c2 g4",
    );
    let mut pos = after(&g, "h8-h7");
    assert_eq!(outcome(&g, &pos), None);
    play(&g, &mut pos, "g4-c4");
    assert_eq!(outcome(&g, &pos), Some(BLACK));
    assert_eq!(moves(&g, &pos), ["result: black"]);
}

#[test]
fn three_mercenaries_and_the_empty_throne_capture_the_king() {
    let g = with_setup(
        "tablut",
        "white King e4  white Guard h8  black Mercenary d4 f4 a3",
    );
    let mut pos = after(&g, "h8-h7");
    play(&g, &mut pos, "a3-e3");
    assert_eq!(outcome(&g, &pos), Some(BLACK));
}

#[test]
fn on_the_throne_the_king_needs_four_mercenaries() {
    let g = with_setup(
        "tablut",
        "white King e5  white Guard h8  black Mercenary d5 f5 e6 a4",
    );
    let mut pos = after(&g, "h8-h7");
    play(&g, &mut pos, "a4-e4");
    assert_eq!(outcome(&g, &pos), Some(BLACK));
    let g = with_setup(
        "tablut",
        "white King e5  white Guard h8 e4  black Mercenary d5 f5 a6",
    );
    let mut pos = after(&g, "h8-h7");
    play(&g, &mut pos, "a6-e6");
    assert_eq!(outcome(&g, &pos), None, "a guard on e4 never helps Black");
}

#[test]
fn guards_and_the_edge_never_help_enclose_the_king() {
    let g = with_setup(
        "tablut",
        "white King c3  white Guard c4 h8  black Mercenary d3 c2 a1",
    );
    let mut pos = after(&g, "h8-h7");
    play(&g, &mut pos, "a1-a3");
    play(&g, &mut pos, "h7-h8");
    play(&g, &mut pos, "a3-b3");
    assert_eq!(outcome(&g, &pos), None);
}

#[test]
fn the_king_moving_into_an_enclosure_is_not_captured_until_black_completes_one() {
    let g = with_setup(
        "tablut",
        "white King e6  white Guard h8  black Mercenary d4 f4 e3 a9",
    );
    let mut pos = after(&g, "e6-e4");
    assert_eq!(
        outcome(&g, &pos),
        None,
        "the King crossed the throne into the enclosure"
    );
    play(&g, &mut pos, "a9-b9");
    assert_eq!(
        outcome(&g, &pos),
        None,
        "a Black move away from the King completes nothing"
    );
    play(&g, &mut pos, "h8-h7");
    play(&g, &mut pos, "d4-d3");
    play(&g, &mut pos, "h7-h8");
    play(&g, &mut pos, "d3-d4");
    assert_eq!(
        outcome(&g, &pos),
        Some(BLACK),
        "the mercenary that moved next to the King completes it"
    );
}

#[test]
fn the_king_on_any_edge_square_wins_for_white() {
    let g = with_setup("tablut", "white King e4  black Mercenary a9");
    for (mv, _) in [("e4-e1", 0), ("e4-a4", 0), ("e4-i4", 0)] {
        let pos = after(&g, mv);
        assert_eq!(outcome(&g, &pos), Some(WHITE), "{mv}");
    }
    let g = with_setup("tablut", "white King b2  black Mercenary h8");
    let pos = after(&g, "b2-b1");
    assert_eq!(
        outcome(&g, &pos),
        Some(WHITE),
        "corners are edge squares like any other"
    );
    let g = with_setup(
        "tablut",
        "white King e4  white Guard c3  black Mercenary a9",
    );
    let pos = after(&g, "c3-c1");
    assert_eq!(outcome(&g, &pos), None, "only the King wins on the edge");
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let g = game("tablut");
    let mut pos = g.start();
    for (i, mv) in [
        "d5-d8", "d1-d4", "d8-d5", "d4-d1", "d5-d8", "d1-d4", "d8-d5",
    ]
    .iter()
    .enumerate()
    {
        play(&g, &mut pos, mv);
        assert_eq!(outcome(&g, &pos), None, "after move {}", i + 1);
    }
    play(&g, &mut pos, "d4-d1");
    assert_eq!(pos.repetitions(), 3);
    assert_eq!(outcome(&g, &pos), Some(Outcome::Draw));
}

#[test]
fn a_player_without_a_legal_move_loses() {
    let g = with_setup("tablut", "white King a2  black Mercenary a3 b2 a1 h8");
    assert_eq!(outcome(&g, &g.start()), Some(BLACK));
    let g = with_setup(
        "tablut",
        "white King e4 c8  white Guard a2 b1  black Mercenary a1",
    );
    let pos = after(&g, "e4-e3");
    assert_eq!(moves(&g, &pos), ["result: white"]);
}
