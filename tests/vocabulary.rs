//! The vocabulary of classic games, each construct on a small game of its own: board
//! shapes, neutral pieces, move classes and their priority, chains of hops, choices within a
//! move, new pieces, actions, connection, groups and lines, and games of three players.

mod common;
use common::*;
use regula::engine::Outcome;

fn owner(g: &regula::engine::Engine, pos: &regula::engine::Position, cell: &str) -> Option<u8> {
    let c = g.board().cell(cell).expect("a cell");
    g.piece_at(pos, c).map(|(o, _)| o)
}

#[test]
fn a_hex_board_has_six_neighbours_and_a_hexagon_drops_its_acute_corners() {
    let g = load(
        "players { a b }\nboard hex 3 x 3\npiece K letter K\nsetup { a K b2  b K a1 }\n\
         moves K { step all to empty }\nend { when no moves: next loses }\n",
    );
    // b2's six neighbours: b3 (northeast), c2 (east), c1 (southeast), b1 (southwest),
    // a2 (west), a3 (northwest); not a1 or c3, which a square board would add.
    assert_eq!(
        moves(&g, &g.start()),
        ["b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2"]
    );
    let h = load(
        "players { a b }\nboard hexagon 2\npiece K letter K\nsetup { a K b2  b K b1 }\n\
         moves K { step all to empty }\nend { when no moves: next loses }\n",
    );
    assert_eq!(h.board().cells(), 7);
    assert!(h.board().cell("a1").is_none() && h.board().cell("c3").is_none());
    assert_eq!(moves(&h, &h.start()).len(), 5, "b1 is taken");
    // No square directions on hexagonal boards.
    assert!(
        regula::compile(
            "players { a b }\nboard hex 3 x 3\npiece K letter K\nsetup { a K b2 }\n\
             moves K { step north }\nend { when no moves: next loses }\n"
        )
        .is_err()
    );
}

#[test]
fn points_are_neighbours_along_their_links_however_far_apart() {
    let g = load(
        "players { a b }\nboard points 7 x 7 {\n  a1-d1-g1\n  a1-a4-a7\n  d1-d2\n}\n\
         piece M letter M\nsetup { a M a1  b M g1 }\n\
         moves M { step all to empty  }\nend { when no moves: next loses }\n",
    );
    assert_eq!(g.board().cells(), 6);
    assert_eq!(moves(&g, &g.start()), ["a1-a4", "a1-d1"]);
    let pos = after(&g, "a1-d1");
    assert_eq!(moves(&g, &pos), ["result: a"], "g1 is blocked by d1 now");
}

#[test]
fn neutral_pieces_belong_to_nobody() {
    let g = load(
        "players { a b }\nboard 3 x 1\npiece K letter K\npiece B letter B\n\
         setup { a K a1  neutral B b1  b K c1 }\n\
         moves K { step all to empty or enemy }\n\
         end { when no moves: next loses }\n",
    );
    // The block is nobody's: neither a friend nor an enemy to take.
    assert_eq!(moves(&g, &g.start()), ["result: b"]);
    let open = load(
        "players { a b }\nboard 4 x 1\npiece K letter K\npiece B letter B\n\
         setup { a K a1  b K d1 }\n\
         moves K { step all to empty then { put neutral B at from } }\n\
         end { when no moves: next loses }\n",
    );
    let pos = after(&open, "a1-b1");
    assert_eq!(owner(&open, &pos, "a1"), Some(2), "owner 2 is neutral");
    assert!(has(&open, &pos, "d1-c1"));
    let pos = after(&open, "a1-b1 d1-c1");
    assert_eq!(moves(&open, &pos), ["result: b"]);
}

#[test]
fn priority_keeps_the_first_class_that_has_moves_and_longest_the_longest_chains() {
    let src = |priority: &str| {
        format!(
            "players {{ a forward north  b forward south }}\nboard 5 x 7\npiece M letter M\n\
             setup {{ a M c1 e1  b M b2 b4 d2 d4 b6 }}\n{priority}\n\
             moves M {{\n  capture {{\n    chain {{\n      for d in forward-left, forward-right {{\n\
             move to from + d * 2 if from + d is enemy then {{ remove from + d }}\n      }}\n    }}\n  }}\n\
             step forward\n}}\nend {{ when no moves: next loses }}\n"
        )
    };
    let g = load(&src("priority capture"));
    // c1 jumps b2, b4, b6 (c1-a3-c5-a7), or d2, d4, b6 (c1-e3-c5-a7); e1 jumps d2 to c3,
    // then b4 and b6 (e1-c3-a5-c7) or d4 (e1-c3-e5). Only captures are legal.
    assert_eq!(
        moves(&g, &g.start()),
        ["c1-a3-c5-a7", "c1-e3-c5-a7", "e1-c3-a5-c7", "e1-c3-e5"]
    );
    let g = load(&src("priority longest capture"));
    assert_eq!(
        moves(&g, &g.start()),
        ["c1-a3-c5-a7", "c1-e3-c5-a7", "e1-c3-a5-c7"]
    );
    let g = load(&src("priority capture"));
    // The jumped pieces are gone after the chain.
    let pos = after(&g, "e1-c3-e5");
    assert_eq!(at(&g, &pos, "d2"), None);
    assert_eq!(at(&g, &pos, "d4"), None);
    assert_eq!(at(&g, &pos, "e5"), Some('M'));
    // Once no capture exists, the steps are legal: after c1-e3-c5-a7 black's men at b2
    // and d2... are gone, and black's b-file man steps.
    let pos = after(&g, "c1-e3-c5-a7");
    assert!(
        moves(&g, &pos).iter().all(|m| m.len() == 5),
        "{:?}",
        moves(&g, &pos)
    );
}

#[test]
fn two_capture_paths_to_the_same_cell_are_two_moves() {
    let g = load(
        "players { a forward north  b forward south }\nboard 5 x 5\npiece M letter M\n\
         setup { a M c1  b M b2 d2 b4 d4 }\n\
         moves M { chain { for d in diagonal { move to from + d * 2 if from + d is enemy then { remove from + d } } } }\n\
         end { when no moves: next loses }\n",
    );
    let m = moves(&g, &g.start());
    // Around the square of four men, both ways, back to c1.
    assert!(m.contains(&"c1-a3-c5-e3-c1".to_string()), "{m:?}");
    assert!(m.contains(&"c1-e3-c5-a3-c1".to_string()), "{m:?}");
    let pos = after(&g, "c1-a3-c5-e3-c1");
    for c in ["b2", "d2", "b4", "d4"] {
        assert_eq!(at(&g, &pos, c), None, "{c} was jumped");
    }
}

#[test]
fn until_ends_a_chain_early() {
    let g = load(
        "players { a forward north  b forward south }\nboard 3 x 7\npiece M letter M\nregion stop = rank 3\n\
         setup { a M a1  b M b2 b4 }\n\
         moves M { chain { for d in forward-left, forward-right { move to from + d * 2 if from + d is enemy then { remove from + d } } } until to in stop }\n\
         end { when no moves: next loses }\n",
    );
    assert_eq!(moves(&g, &g.start()), ["a1-c3"]);
}

#[test]
fn slides_through_leaps_toward_and_directions_except() {
    let g = load(
        "players { a forward north  b forward south }\nboard 5 x 5\npiece R letter R\npiece Knight letter N\n\
         piece K letter K\nregion throne = c3\nsetup { a R c1  a Knight a1  a K e1  b K e5 }\n\
         moves R { slide north through not in throne to empty }\n\
         moves Knight { leap 1 2 toward forward }\n\
         moves K { step all except west, northwest }\n\
         end { when no moves: next loses }\n",
    );
    let m = moves(&g, &g.start());
    // The rook stops before the throne.
    assert!(m.contains(&"c1-c2".to_string()) && !m.contains(&"c1-c4".to_string()));
    // The knight's forward leaps from a1: b3 and c2.
    assert!(m.contains(&"a1-b3".to_string()) && m.contains(&"a1-c2".to_string()));
    // The king at e1 keeps only north: west and northwest are excepted.
    let k: Vec<&String> = m.iter().filter(|s| s.starts_with("e1")).collect();
    assert_eq!(k, ["e1-e2"]);
}

#[test]
fn move_to_any_flies_and_move_to_a_cell_tests_its_target() {
    let g = load(
        "players { a b }\nboard 3 x 3\npiece M letter M\nsetup { a M a1  b M c3 b2 }\n\
         moves M { move to any empty if to != b1 }\nend { when no moves: next loses }\n",
    );
    assert_eq!(moves(&g, &g.start()).len(), 5, "6 empty cells but b1");
    let g = load(
        "players { a b }\nboard 3 x 1\npiece M letter M\nsetup { a M a1  b M b1 }\n\
         moves M { move to from + east  move to from + east * 2 to enemy }\n\
         end { when no moves: next loses }\n",
    );
    // a1 + east is occupied and the default target test is `empty`.
    assert_eq!(moves(&g, &g.start()), ["result: b"]);
}

#[test]
fn new_pieces_leave_the_mover_in_place() {
    let g = load(
        "players { a b }\nboard 3 x 3\npiece Stone letter S\nsetup { a Stone a1  b Stone c3 }\n\
         moves Stone { new step all to empty  leap 2 0 to empty }\nend { when no moves: next loses }\n",
    );
    let m = moves(&g, &g.start());
    assert!(m.contains(&"S@b2".to_string()) && m.contains(&"a1-c1".to_string()));
    let pos = after(&g, "S@b2");
    assert_eq!(at(&g, &pos, "a1"), Some('S'));
    assert_eq!(at(&g, &pos, "b2"), Some('S')); // A `new` statement right after a test (`to empty`) starts a statement: the test
    // does not take `new` for a piece's name.
    let g = load(
        "players { a b }\nboard 3 x 3\npiece Stone letter S\nsetup { a Stone a1  b Stone c3 }\n\
         moves Stone { new step orthogonal to empty  new step diagonal to empty }\n\
         end { when no moves: next loses }\n",
    );
    assert_eq!(moves(&g, &g.start()), ["S@a2", "S@b1", "S@b2"]);
}

#[test]
fn choices_within_a_move_are_moves_of_their_own() {
    let g = load(
        "players { a b }\nboard 4 x 1\npiece Q letter Q\npiece A letter A\nsetup { a Q a1  b Q d1 }\n\
         moves Q { slide all to empty then { choose c from to by slide all to empty { put neutral A at c } } }\n\
         end { when no moves: next loses }\n",
    );
    // a1-b1 then shoot a1 or c1; a1-c1 then shoot b1 or a1.
    assert_eq!(
        moves(&g, &g.start()),
        ["a1-b1/a1", "a1-b1/c1", "a1-c1/a1", "a1-c1/b1"]
    );
    let pos = after(&g, "a1-c1/b1");
    assert_eq!(owner(&g, &pos, "b1"), Some(2));
    let r = load(
        "players { a b }\nboard 3 x 3\npiece M letter M\nsetup { a M a1  b M c3 b3 }\n\
         moves M { step north then { choose c where c is enemy { remove c } } }\n\
         end { when no moves: next loses }\n",
    );
    assert_eq!(moves(&r, &r.start()), ["a1-a2xb3", "a1-a2xc3"]);
    let pos = after(&r, "a1-a2xb3");
    assert_eq!(at(&r, &pos, "b3"), None);
    assert_eq!(at(&r, &pos, "c3"), Some('m'));
}

#[test]
fn an_action_is_a_move_by_its_name() {
    let g = load(
        "players { a b }\nboard 3 x 1\npiece Stone letter S\nhand { a Stone 3  b Stone 3 }\n\
         moves Stone { place on empty }\n\
         action swap when moves-made(a) == 1 and moves-made(b) == 0 { flip last-to }\n\
         end { when no moves: draw }\n",
    );
    assert!(!has(&g, &g.start(), "swap"));
    let pos = after(&g, "S@a1");
    assert!(has(&g, &pos, "swap"));
    let pos = after(&g, "S@a1 swap");
    assert_eq!(owner(&g, &pos, "a1"), Some(1));
    assert!(!has(&g, &pos, "swap"));
}

#[test]
fn connection_groups_and_lines() {
    let src = "players { a b }\nboard hex 3 x 3\npiece Stone letter S\nregion west-side = file a\nregion east-side = file c\n\
               setup { a Stone a1 b1 c1 a3  b Stone b3 }\nmoves Stone { place on empty }\nhand { a Stone 1  b Stone 1 }\n\
               define linked = as a: friend connects west-side to east-side\n\
               score = count groups where friend\n\
               end {\n  when linked: a wins\n  when count cells where friend connected to a1 == 1: draw\n}\n";
    let g = load(src);
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Win(0)));
    // Scores: a has two groups (a1 b1 c1, and a3), b one.
    let text = g.render(&g.start());
    assert!(text.contains("score: a 2, b 1"), "{text}");
    let lines = load(
        "players { a b }\nboard 5 x 5\npiece Stone letter S\nsetup { a Stone a1 b1 c1 e1 a2 a3 a4  b Stone e5 }\n\
         moves Stone { step all }\n\
         end {\n  when as a: count lines of exactly 3 where friend through a1 == 1: a wins\n  when no moves: draw\n}\n",
    );
    // Through a1: a1-b1-c1 is exactly 3, a1..a4 is 4: one line of exactly three.
    assert_eq!(outcome(&lines, &lines.start()), Some(Outcome::Win(0)));
}

#[test]
fn count_moves_and_no_moves_from_another_players_view() {
    let g = load(
        "players { a b }\nboard 3 x 1\npiece K letter K\nsetup { a K a1  b K c1 }\n\
         moves K { step all to empty }\n\
         end {\n  when as b: count moves == 1: a wins\n  when no moves: draw\n}\n",
    );
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Win(0)));
    let g = load(
        "players { a b }\nboard 4 x 1\npiece K letter K\nsetup { a K a1 c1  b K d1 }\n\
         moves K { step all to empty }\nend { when as b: no moves: a wins }\n",
    );
    // a, to move, has moves; b has none.
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Win(0)));
}

#[test]
fn a_definition_of_one_cell_is_a_cell_test() {
    let g = load(
        "players { a b }\nboard 3 x 3\npiece M letter M\nsetup { a M b2  b M a1 c3 }\n\
         define cornered(c) = c in corners and c is enemy\n\
         moves M { step all to cornered }\nend { when no moves: next loses }\n",
    );
    assert_eq!(moves(&g, &g.start()), ["b2-a1", "b2-c3"]);
}

#[test]
fn with_three_players_a_loss_is_one_players_loss() {
    let g = load(
        "players { a b c }\nboard 3 x 1\npiece K letter K\nsetup { a K a1  b K b1  c K c1 }\n\
         moves K { step all to empty }\nend { when no moves: next loses }\n",
    );
    // a's king is boxed in by b's: a, to move, loses; b and c share the rest.
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Lose(0)));
    assert_eq!(moves(&g, &g.start()), ["result: a loses"]);
    let turns = load(
        "players { a b c }\nboard 3 x 3\npiece Stone letter S shown X Y Z\nhand { a Stone 3  b Stone 3  c Stone 3 }\n\
         moves Stone { place on empty }\nend { when no moves: draw }\n",
    );
    // Turns go a, b, c, a…: the fourth stone is a's again.
    let pos = after(&turns, "S@a1 S@b1 S@c1 S@a2");
    let o: Vec<Option<u8>> = ["a1", "b1", "c1", "a2"]
        .iter()
        .map(|c| owner(&turns, &pos, c))
        .collect();
    assert_eq!(o, [Some(0), Some(1), Some(2), Some(0)]);
    assert!(
        turns.render(&pos).contains("X Y Z"),
        "{}",
        turns.render(&pos)
    );
}

#[test]
fn a_file_by_its_number_is_the_file_of_that_letter_and_a_parameter_can_give_it() {
    let game = |file: &str| {
        format!(
            "players {{ a b }}\nparam size = 4 in 2..9\nboard size x size\npiece Stone letter S\n\
             hand {{ a Stone 9  b Stone 9 }}\nregion goal = {file}\n\
             moves Stone {{ place on empty and in goal }}\nend {{ when no moves: next loses }}\n"
        )
    };
    let by_letter = load(&game("file d"));
    for file in ["file 4", "file (size)", "file (size - 1 + 1)"] {
        let g = load(&game(file));
        assert_eq!(
            moves(&g, &g.start()),
            moves(&by_letter, &by_letter.start()),
            "{file}"
        );
    }
    assert_eq!(
        moves(&by_letter, &by_letter.start()),
        ["S@d1", "S@d2", "S@d3", "S@d4"]
    );
    // Off the board, with the board's range as the hint.
    let diags = regula::compile(&game("file 5")).unwrap_err();
    let error = diags.iter().find(|d| d.is_error()).expect("an error");
    assert_eq!(error.code.to_string(), "E0103", "{diags:?}");
    assert_eq!(error.message, "file 5 is not on this board");
    assert_eq!(
        error.hint.as_deref(),
        Some("files are numbered from 1 to 4")
    );
}

#[test]
fn a_condition_on_the_target_gives_the_same_moves_as_a_set_and_cell_by_cell() {
    // `place … if COND` where COND reads the target only through cell tests of it and
    // of its neighbours is evaluated as sets of cells; the same condition behind a
    // definition is evaluated cell by cell. Both must agree on every board shape, with
    // directions off the board, negations and the neighbour of a neighbour.
    let boards = [
        "board 5 x 4",
        "board hex 4 x 3",
        "board hexagon 3",
        "board points 7 x 7 {\n  a1-d1-g1\n  a4-d4-g4\n  a7-d7-g7\n  a1-a4-a7\n  d1-d4-d7\n  g1-g4-g7\n  a1-d4-g7\n}",
    ];
    let rules = [
        "to in low or to + east is occupied and not (to + west is friend)",
        // Othello's bracket, and a test of every direction.
        "any d in all: to + d is enemy and first (not enemy) from to toward d is friend",
        "to in low or (all d in all: to + d is empty or first occupied from to toward d is friend)",
    ];
    for (board, rule) in boards
        .iter()
        .flat_map(|b| rules.iter().map(move |r| (b, r)))
    {
        // Stones in the middle, so that brackets exist from the start.
        let (a, b) = if board.contains("points") {
            ("d4", "d1")
        } else {
            ("b2", "c2")
        };
        let source = |cond: &str, def: &str| {
            format!(
                "players {{ a b }}\n{board}\nregion low = rank 1\npiece Stone letter S\n\
                 setup {{ a Stone {a}  b Stone {b} }}\n\
                 hand {{ a Stone 9  b Stone 9 }}\n{def}\nmoves Stone {{ place on empty if {cond} }}\n\
                 end {{ when no moves: next loses }}\n"
            )
        };
        let by_sets = load(&source(rule, ""));
        let by_cells = load(&source(
            "to is fits",
            &format!(
                "define fits(c) = {}",
                rule.split(' ')
                    .map(|w| match w {
                        "to" => "c",
                        "(to" => "(c",
                        w => w,
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ));
        let mut pos = by_sets.start();
        let mut other = by_cells.start();
        // Follow one line of play, comparing the moves at every ply.
        for ply in 0..12 {
            let a = moves(&by_sets, &pos);
            assert_eq!(a, moves(&by_cells, &other), "{board}, ply {ply}");
            let Some(mv) = a
                .get(ply * 7 % a.len().max(1))
                .filter(|m| !m.starts_with("result"))
            else {
                break;
            };
            play(&by_sets, &mut pos, mv);
            play(&by_cells, &mut other, mv);
        }
        assert_eq!(
            by_sets.perft(&by_sets.start(), 3),
            by_cells.perft(&by_cells.start(), 3),
            "{board}, {rule}"
        );
    }
}
