//! The general constructs that no shipped game needs, each on a small game of its own:
//! target conditions, piece changes, lines of cells, runs and opposite directions.

mod common;
use common::*;
use regula::engine::Outcome;

const HEAD: &str =
    "game \"T\" { }\nplayers { white forward north  black forward south }\nboard 5 x 5\n";

fn game_with(rest: &str) -> regula::engine::Engine {
    load(&format!("{HEAD}{rest}"))
}

#[test]
fn a_target_condition_filters_steps_slides_leaps_and_placements() {
    let g = game_with(
        "piece Rook letter R\npiece Knight letter N\npiece Man letter M\nregion centre = c3\n\
         setup { white Rook a1  white Knight e1  black Man e5 }\nhand { white Man 1 }\n\
         moves Rook { slide orthogonal to empty if to + north is empty and not (to in centre) }\n\
         moves Knight { leap 1 2 to empty if to + west is empty }\n\
         moves Man { step forward to empty if to + forward is empty  place on empty if to + north is friend }\n\
         end { when no moves: next loses }\n",
    );
    let m = moves(&g, &g.start());
    // The Rook may not stop below an occupied cell: a5 has nothing north (off the board).
    assert!(
        m.contains(&"a1-a4".to_string()) && !m.contains(&"a1-a5".to_string()),
        "{m:?}"
    );
    assert!(m.contains(&"a1-b1".to_string()) && m.contains(&"a1-d1".to_string()));
    // The Knight: c2 (b2 empty) and d3 (c3 empty) both qualify.
    assert!(m.contains(&"e1-c2".to_string()) && m.contains(&"e1-d3".to_string()));
    // Placement only just below a friendly piece: a1 and e1 have nothing below, so none.
    let places: Vec<&String> = m.iter().filter(|s| s.starts_with("M@")).collect();
    assert!(places.is_empty(), "{places:?}");
}

#[test]
fn a_condition_on_the_cell_a_move_goes_to_is_a_condition_on_its_target() {
    // `x is enemy` and `to is enemy` both test the target; `from + east is empty` does
    // not, and stays a condition of its own.
    let moves_with = |setup: &str| {
        let g = game_with(&format!(
            "piece Man letter M\nsetup {{ {setup} }}\n\
             moves Man {{\n  let x = from + north\n  move to x to any if x is enemy\n\
               move to from + east * 2 to any if to is enemy and from + east is empty\n}}\n\
             end {{ when no moves: next loses }}\n"
        ));
        moves(&g, &g.start())
    };
    // b2: north b3 (an enemy); east two d2 (empty). c2: north c3 (empty); east two e2
    // (empty).
    let m = moves_with("white Man b2 c2  black Man b3 c4 d3");
    assert_eq!(m, ["b2-b3"], "{m:?}");
    // a1: north a2 empty; east two c1 (an enemy) with b1 empty. c2: north c3 (an
    // enemy); east two e2 (an enemy) with d2 empty.
    let m = moves_with("white Man a1 c2  black Man c3 e2 c1");
    assert_eq!(m, ["a1-c1", "c2-c3", "c2-e2"], "{m:?}");
}

#[test]
fn change_turns_a_piece_into_another_type() {
    let g = game_with(
        "piece Pawn letter P\npiece Queen letter Q\nregion last-rank { white: rank 5  black: rank 1 }\n\
         setup { white Pawn a4  black Pawn e2 }\n\
         moves Pawn { step forward to empty then { if to in last-rank { change to to Queen } } }\n\
         moves Queen { slide all to not friend }\nend { when no moves: next loses }\n",
    );
    let pos = after(&g, "a4-a5");
    assert_eq!(at(&g, &pos, "a5"), Some('Q'), "the pawn is promoted");
    let pos = after(&g, "a4-a5 e2-e1");
    assert_eq!(at(&g, &pos, "e1"), Some('q'), "black's last rank is rank 1");
}

#[test]
fn put_creates_a_piece_of_the_mover() {
    // An Amazons-like rule: after each move, an arrow blocks the square moved from.
    let g = game_with(
        "piece Queen letter Q\npiece Arrow letter A\nsetup { white Queen a1  black Queen e5 }\n\
         moves Queen { slide all to empty then { put Arrow at from } }\nend { when no moves: next loses }\n",
    );
    let pos = after(&g, "a1-c3");
    assert_eq!(at(&g, &pos, "a1"), Some('A'));
    assert!(!has(&g, &pos, "e5-a1"), "arrows block");
}

#[test]
fn flip_along_a_line_turns_over_the_pieces_passed() {
    let g = game_with(
        "piece Disc letter D\nsetup { white Disc a1  black Disc b1 c1 d1 }\n\
         moves Disc { step north to empty then { for c from a1 toward east while enemy { flip c } } }\n\
         end { when no moves: next loses }\n",
    );
    let pos = after(&g, "a1-a2");
    for sq in ["b1", "c1", "d1"] {
        assert_eq!(at(&g, &pos, sq), Some('D'), "{sq} flipped to white");
    }
}

#[test]
fn runs_count_consecutive_cells_and_opposite_reverses_a_direction() {
    let g = game_with(
        "piece Stone letter S\nsetup { white Stone a3 b3 d3  black Stone e1 }\n\
         moves Stone { step north to empty }\n\
         end {\n  when count cells where white Stone from c3 toward west == 2 and count cells where white Stone from c3 toward opposite west == 1\n    and c3 + opposite east is white Stone: draw\n}\n",
    );
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Draw));
}

#[test]
fn opposite_of_a_loop_variable() {
    let g = game_with(
        "piece Stone letter S\nsetup { white Stone c3 c4  black Stone a1 }\nmoves Stone { step north to empty }\n\
         end { when any d in all: (c3 + d is white Stone and c3 + opposite d is empty and c3 + d * 2 is empty): draw }\n",
    );
    // d = north: c4 is white, c2 (opposite) is empty, c5 is empty.
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Draw));
}

#[test]
fn move_rules_can_read_the_last_move() {
    // En passant: a pawn that has just made a double step can be taken by a pawn beside it,
    // moving diagonally behind it.
    let g = game_with(
        "piece Pawn letter P\nregion start { white: rank 2  black: rank 4 }\n\
         setup { white Pawn b2 a1  black Pawn c4 e5 }\n\
         moves Pawn {\n  step forward to empty\n  if from in start { move to from + forward * 2 if from + forward is empty and to is empty }\n\
           for side in east, west {\n    if last-to == from + side and last-to is enemy Pawn and last-from == last-to + forward * 2 {\n\
               move to from + side + forward if to is empty then { remove from + side }\n    }\n  }\n}\n\
         end { when no moves: next loses }\n",
    );
    let pos = after(&g, "b2-b4");
    assert!(has(&g, &pos, "c4-b3"), "{:?}", moves(&g, &pos));
    let mut taken = pos.clone();
    play(&g, &mut taken, "c4-b3");
    assert_eq!(
        at(&g, &taken, "b4"),
        None,
        "the double-stepped pawn is removed"
    );
    let later = after(&g, "a1-a2 e5-e4 b2-b4 e4-e3 a2-a3");
    assert!(
        !has(&g, &later, "c4-b3"),
        "only right after the double step"
    );
}

#[test]
fn as_evaluates_a_condition_from_another_players_point_of_view() {
    // Breakthrough-style goal rows given per player: in end rules the point of view is the
    // player to move, so the mover's own goal needs `as previous:`.
    let g = game_with(
        "piece Pawn letter P\nregion goal { white: rank 5  black: rank 1 }\nsetup { white Pawn a4 b2  black Pawn e4 }\n\
         moves Pawn { step forward to empty }\n\
         define king-row = find friend Pawn\n\
         end {\n  when as previous: (last-to in goal and (any d in all: king-row is Pawn)): previous wins\n  when no moves: next loses\n}\n",
    );
    let pos = after(&g, "a4-a5");
    assert_eq!(
        outcome(&g, &pos),
        Some(Outcome::Win(0)),
        "white reached its own goal row"
    );
    let pos = after(&g, "b2-b3");
    assert_eq!(outcome(&g, &pos), None, "rank 3 is nobody's goal");
    // Without `as`, the same region is read for the player to move (black: rank 1).
    let plain = game_with(
        "piece Pawn letter P\nregion goal { white: rank 5  black: rank 1 }\nsetup { white Pawn a4  black Pawn e4 }\n\
         moves Pawn { step forward to empty }\nend {\n  when last-to in goal: previous wins\n  when no moves: next loses\n}\n",
    );
    assert_eq!(outcome(&plain, &after(&plain, "a4-a5")), None);
}

#[test]
fn end_rules_are_tried_in_the_order_written() {
    let rules = [
        "when turns >= 0: white wins",
        "when moves-made(white) == 0: draw",
    ];
    for (order, want) in [([0, 1], "result: white"), ([1, 0], "result: draw")] {
        let g = game_with(&format!(
            "piece Man letter M\nsetup {{ white Man a1  black Man e5 }}\n\
             moves Man {{ step forward to empty }}\nend {{\n  {}\n  {}\n}}\n",
            rules[order[0]], rules[order[1]]
        ));
        assert_eq!(moves(&g, &g.start()), [want]);
    }
}

#[test]
fn passes_count_only_passes_in_a_row() {
    // White's Man is blocked for good and must pass every turn; Black's Rook shuffles.
    let g = game_with(
        "piece Man letter M\npiece Rook letter R\npiece Wall letter W\n\
         setup { white Man a1  black Wall a2  black Rook c3 }\npass when no moves\n\
         moves Man { step forward to empty }\nmoves Rook { step north, south to empty }\n\
         moves Wall { step forward to empty if false }\n\
         end { when passes >= 2: draw }\n",
    );
    assert_eq!(moves(&g, &g.start()), ["pass"]);
    // Black's move in between resets the count: White's second pass is not two in a row.
    let pos = after(&g, "pass c3-c2 pass");
    assert_eq!(moves(&g, &pos), ["c2-c1", "c2-c3"]);
}

#[test]
fn limits_on_turns_and_passes_hold_from_the_first_turn_they_name() {
    // Two Rooks shuffle for ever: only the limit ends the game. Each form of the
    // comparison, alone and as one condition of several.
    for (rule, last_open) in [
        ("turns >= 4", 3),
        ("turns > 4", 4),
        ("turns == 4", 3),
        ("turns >= 4 and passes == 0", 3),
        ("passes < 1 and turns > 2", 2),
    ] {
        let g = game_with(&format!(
            "piece Rook letter R\nsetup {{ white Rook a1  black Rook e5 }}\n\
             moves Rook {{ step north, south to empty }}\nend {{ when {rule}: draw }}\n"
        ));
        let shuffle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"];
        for turn in 1..=last_open + 1 {
            let line: Vec<&str> = (0..turn).map(|i| shuffle[i % 4]).collect();
            let pos = after(&g, &line.join(" "));
            let want = (turn > last_open).then_some(Outcome::Draw);
            assert_eq!(outcome(&g, &pos), want, "{rule}, after turn {turn}");
        }
    }
    // A limit on passes, reached by a player who can never move.
    let g = game_with(
        "piece Man letter M\npiece Rook letter R\npiece Wall letter W\n\
         setup { white Man a1  black Wall a2  black Rook c3 }\npass when no moves\n\
         moves Man { step forward to empty }\nmoves Rook { step north, south to empty }\n\
         moves Wall { step forward to empty if false }\n\
         end { when passes > 0: draw }\n",
    );
    assert_eq!(outcome(&g, &g.start()), None);
    assert_eq!(outcome(&g, &after(&g, "pass")), Some(Outcome::Draw));
}

#[test]
fn the_higher_score_wins_and_a_tie_at_the_top_draws() {
    let g = game_with(
        "piece Stone letter S\nhand { white Stone 2  black Stone 2 }\nmoves Stone { place on empty }\n\
         score = count cells where (friend and in edge)\n\
         end { when in-hand(white) + in-hand(black) == 0: higher score wins }\n",
    );
    assert_eq!(outcome(&g, &after(&g, "S@a1 S@b1 S@c1")), None);
    // Two stones each on the edge: a tie.
    assert_eq!(
        outcome(&g, &after(&g, "S@a1 S@b1 S@c1 S@d1")),
        Some(Outcome::Draw)
    );
    // Black's second stone off the edge: White's 2 beat Black's 1, either way round.
    assert_eq!(
        outcome(&g, &after(&g, "S@a1 S@b1 S@c1 S@c3")),
        Some(Outcome::Win(0))
    );
    assert_eq!(
        outcome(&g, &after(&g, "S@b2 S@b1 S@c3 S@c1")),
        Some(Outcome::Win(1))
    );
}

#[test]
fn score_is_a_value_and_a_function_of_a_player() {
    let g = game_with(
        "piece Stone letter S\nhand { white Stone 2  black Stone 2 }\nmoves Stone { place on empty }\n\
         score = count cells where friend\n\
         end {\n  when score(white) >= 2 and score > 1: black wins\n  when score(black) >= 2: white wins\n}\n",
    );
    // Black to move, White has 2 stones and Black 1: `score` reads Black's (1).
    assert_eq!(outcome(&g, &after(&g, "S@a1 S@b1 S@c1")), None);
    // White to move, 2 stones each: now `score` reads White's (2).
    assert_eq!(
        moves(&g, &after(&g, "S@a1 S@b1 S@c1 S@d1")),
        ["result: black"]
    );
}

#[test]
fn attacks_by_move_to_reach_the_cells_their_targets_name() {
    // Three black Strikers each attack through a `move to` whose target is named another
    // way: two steps forward, a square, the first occupied cell of a line. The white King
    // may not step onto an attacked cell.
    let game = |king: &str| {
        game_with(&format!(
            "piece King letter K\npiece Striker letter S\npiece Post letter P\n\
             setup {{ white King {king}  black Striker a4 e4 e1  black Post a1 }}\n\
             moves King {{ step all to empty }}\nmoves Post {{ }}\n\
             moves Striker {{\n  if from == a4 {{ move to from + forward * 2 to not friend }}\n\
               if from == e4 {{ move to d3 to not friend }}\n\
               if from == e1 {{ move to first occupied from from toward west to not friend }}\n}}\n\
             legal if not find friend King is attacked\nend {{ when no moves: next loses }}\n"
        ))
    };
    // e4 strikes d3; e1 strikes the first occupied cell west: its own Post on a1 with the
    // King away, but d1, c1 or b1 with the King there.
    let g = game("c2");
    let m = moves(&g, &g.start());
    for attacked in ["c2-d3", "c2-b1", "c2-c1", "c2-d1"] {
        assert!(!m.contains(&attacked.to_string()), "{attacked} in {m:?}");
    }
    for ok in ["c2-b2", "c2-b3", "c2-c3", "c2-d2"] {
        assert!(m.contains(&ok.to_string()), "{ok} missing from {m:?}");
    }
    // a4 strikes a2, two steps forward (south for black).
    let g = game("b3");
    let m = moves(&g, &g.start());
    assert!(!m.contains(&"b3-a2".to_string()), "{m:?}");
    assert!(m.contains(&"b3-a3".to_string()) && m.contains(&"b3-b2".to_string()));
}
