//! Shakti: scenarios for the rules of sections 3 to 7 of the rule set, each on a small
//! custom setup and tile layout (the same rules, another position).

mod common;
use common::*;
use regula::engine::{Engine, Outcome};

/// Shakti's rules with another setup and another initial set of tiles.
fn shakti(setup: &str, tiles: &str) -> Engine {
    let src = game_source("shakti").replace("flag tile = all\n", &format!("flag tile = {tiles}\n"));
    load(&replace_block(
        &src,
        "setup {",
        &format!("setup {{\n{setup}\n}}"),
    ))
}

fn starting_with<'a>(moves: &'a [String], prefix: &str) -> Vec<&'a str> {
    moves
        .iter()
        .filter(|m| m.starts_with(prefix))
        .map(String::as_str)
        .collect()
}

#[test]
fn the_king_moves_to_the_first_tile_it_sees_across_holes() {
    let g = shakti("white King d2  black King a7", "all - d3 d4");
    let m = moves(&g, &g.start());
    assert!(m.contains(&"d2-d5".to_string()), "{m:?}");
    assert!(
        !m.contains(&"d2-d3".to_string()) && !m.contains(&"d2-d4".to_string()),
        "holes are never entered"
    );
    assert!(!m.contains(&"d2-d6".to_string()), "only the first tile");
}

#[test]
fn an_occupied_tile_ends_the_scan_and_blocks_the_direction() {
    let g = shakti("white King d2  white Warrior d4  black King a7", "all - d3");
    let m = moves(&g, &g.start());
    assert!(
        starting_with(&m, "d2-d").iter().all(|mv| *mv == "d2-d1"),
        "{m:?}"
    );
}

#[test]
fn a_warrior_seen_across_holes_gives_check_and_only_the_king_may_answer() {
    let g = shakti(
        "white King d2  white Warrior a1  black King g7  black Warrior d5",
        "all - d3 d4",
    );
    let m = moves(&g, &g.start());
    assert!(
        starting_with(&m, "a1").is_empty(),
        "nothing can be interposed: {m:?}"
    );
    assert!(!m.is_empty() && m.iter().all(|mv| mv.starts_with("d2")));
}

#[test]
fn a_vacant_tile_blocks_check() {
    let g = shakti(
        "white King d2  white Warrior a1  black King g7  black Warrior d5",
        "all",
    );
    let m = moves(&g, &g.start());
    assert!(
        !starting_with(&m, "a1").is_empty(),
        "not in check: the Warrior may move"
    );
}

#[test]
fn in_check_the_king_steps_to_adjacent_tiles_only() {
    let g = shakti(
        "white King a1  white Warrior g1  black King g7  black Warrior a4",
        "all - a2 a3",
    );
    assert_eq!(
        moves(&g, &g.start()),
        ["a1-b1", "a1-b2"],
        "the hole a2 cannot be crossed in check"
    );
}

#[test]
fn in_check_the_king_captures_an_unprotected_adjacent_warrior() {
    let g = shakti(
        "white King d2  white Warrior g1  black King a7  black Warrior d3 a1",
        "all",
    );
    let mut pos = g.start();
    assert!(has(&g, &pos, "d2-d3"));
    play(&g, &mut pos, "d2-d3");
    assert_eq!(
        at(&g, &pos, "d3"),
        Some('K'),
        "the Warrior is removed from the game"
    );
}

#[test]
fn a_protected_warrior_cannot_be_captured() {
    let g = shakti(
        "white King d2  white Warrior g1  black King a7  black Warrior d3 d6",
        "all - d4 d5",
    );
    assert!(
        !has(&g, &g.start(), "d2-d3"),
        "after the capture d6 would see the King"
    );
}

#[test]
fn a_warrior_steps_to_the_first_tile_and_jumps_to_the_second_removing_the_first() {
    let g = shakti("white King a1  white Warrior c2  black King g7", "all - c3");
    let m = moves(&g, &g.start());
    assert!(
        m.contains(&"c2-c4".into()) && m.contains(&"c2-c5".into()),
        "{m:?}"
    );
    let pos = after(&g, "c2-c4");
    assert!(
        g.render(&pos).contains("3  . . # . . . ."),
        "a step removes nothing: c3 was the only hole"
    );
    let mut pos = g.start();
    play(&g, &mut pos, "c2-c5");
    let board = g.render(&pos);
    assert!(
        board.contains("4  . . # . . . ."),
        "the jumped tile c4 became a hole:\n{board}"
    );
}

#[test]
fn the_second_tile_of_a_jump_is_found_across_holes() {
    let g = shakti(
        "white King a1  white Warrior c2  black King g7",
        "all - c3 c5",
    );
    assert!(has(&g, &g.start(), "c2-c6"));
    assert!(!has(&g, &g.start(), "c2-c5"));
}

#[test]
fn a_jump_needs_both_tiles_vacant() {
    let g = shakti("white King a1  white Warrior c2 c4  black King g7", "all");
    let m = moves(&g, &g.start());
    assert!(
        m.contains(&"c2-c3".into()) && !m.contains(&"c2-c5".into()) && !m.contains(&"c2-c4".into())
    );
    let g = shakti("white King a1  white Warrior c2 c3  black King g7", "all");
    assert!(
        starting_with(&moves(&g, &g.start()), "c2-c")
            .iter()
            .all(|m| *m == "c2-c1")
    );
}

#[test]
fn a_jump_may_not_remove_the_last_tile_between_the_kings() {
    let g = shakti(
        "white King d2  white Warrior c4  black King d6",
        "all - d3 d5",
    );
    let m = moves(&g, &g.start());
    assert!(
        m.contains(&"c4-d4".into()),
        "a step leaves the tile behind: {m:?}"
    );
    assert!(
        !m.contains(&"c4-e4".into()),
        "jumping over d4 would let the Kings see each other"
    );
}

#[test]
fn a_jump_that_uncovers_a_check_on_the_own_king_is_illegal() {
    let g = game("shakti");
    let pos = after(&g, "b2-a3 b6-a6 a3-c3 f6-f4");
    assert!(has(&g, &pos, "f2-e3"));
    assert!(
        !has(&g, &pos, "f2-d4"),
        "removing e3 would open f4's diagonal to d2"
    );
}

#[test]
fn a_warrior_may_give_check_and_a_jump_may_give_discovered_check() {
    let g = shakti(
        "white King a1  white Warrior c2  black King c7  black Warrior g1",
        "all - c5 c6",
    );
    let pos = after(&g, "c2-c4");
    let m = moves(&g, &pos);
    assert!(
        m.iter().all(|mv| mv.starts_with("c7")),
        "black is in check by c4: {m:?}"
    );
    let g = shakti(
        "white King a1  white Warrior d2 c3  black King d7  black Warrior g1",
        "all - d4 d5 d6",
    );
    let pos = after(&g, "c3-e3");
    let m = moves(&g, &pos);
    assert!(
        m.iter().all(|mv| mv.starts_with("d7")),
        "removing d3 uncovered d2's check: {m:?}"
    );
}

#[test]
fn a_player_without_a_legal_move_who_is_not_in_check_passes() {
    let g = shakti(
        "white King a1  white Warrior b1 a2 b2  black King d7  black Warrior e7",
        "a1 b1 a2 b2 d7 e7 d6",
    );
    let mut pos = g.start();
    assert_eq!(moves(&g, &pos), ["pass"]);
    play(&g, &mut pos, "pass");
    assert_eq!(
        moves(&g, &pos),
        ["d7-d6", "e7-d6"],
        "the opponent moves again"
    );
}

#[test]
fn two_players_without_moves_draw_and_the_second_pass_is_never_played() {
    let g = shakti(
        "white King a1  white Warrior b1 a2 b2  black King d7  black Warrior e7",
        "a1 b1 a2 b2 d7 e7",
    );
    let mut pos = g.start();
    assert_eq!(moves(&g, &pos), ["pass"]);
    play(&g, &mut pos, "pass");
    assert_eq!(moves(&g, &pos), ["result: draw"]);
}

#[test]
fn in_check_without_a_legal_move_is_checkmate() {
    let g = shakti(
        "white King a1  black King g7  black Warrior b2 d4",
        "a1 b1 a2 b2 d4 g7",
    );
    assert_eq!(outcome(&g, &g.start()), Some(Outcome::Win(1)));
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let g = game("shakti");
    let mut pos = g.start();
    for mv in [
        "d2-d1", "d6-d7", "d1-d2", "d7-d6", "d2-d1", "d6-d7", "d1-d2",
    ] {
        play(&g, &mut pos, mv);
        assert_eq!(outcome(&g, &pos), None);
    }
    play(&g, &mut pos, "d7-d6");
    assert_eq!(outcome(&g, &pos), Some(Outcome::Draw));
}

#[test]
fn tiles_are_part_of_the_repeated_position() {
    // The same pieces on the same squares, but a tile fewer, is another position.
    let g = game("shakti");
    let mut pos = g.start();
    for mv in ["b2-b4", "d6-d7", "b4-b2", "d7-d6"] {
        play(&g, &mut pos, mv);
    }
    assert_eq!(
        pos.repetitions(),
        1,
        "b2-b4 removed b3: the start position is not repeated"
    );
}

#[test]
fn the_inventors_45_tile_layout_is_a_one_line_change() {
    let src = game_source("shakti").replace("flag tile = all\n", "flag tile = all - a1 g1 a7 g7\n");
    let g = load(&src);
    assert!(
        g.render(&g.start())
            .starts_with("   a b c d e f g\n7  # . . . . . #")
    );
}

#[test]
fn a_warrior_protected_by_the_enemy_king_cannot_be_captured() {
    // After d2xd3 the King on d3 would see the black King on d6 across the holes d4 d5.
    let g = shakti(
        "white King d2  white Warrior g1  black King d6  black Warrior d3 a7",
        "all - d4 d5",
    );
    let m = moves(&g, &g.start());
    assert!(!m.contains(&"d2-d3".to_string()), "{m:?}");
    assert!(
        !m.is_empty() && m.iter().all(|mv| mv.starts_with("d2")),
        "in check: King moves only"
    );
}

#[test]
fn a_move_may_give_double_check() {
    // d3-d5 jumps over d4: the Warrior lands next to the black King (check) and the removed
    // tile opens c3's diagonal to e5 (discovered check).
    let g = shakti(
        "white King a1  white Warrior c3 d3  black King e5  black Warrior g7",
        "all",
    );
    let pos = after(&g, "d3-d5");
    let m = moves(&g, &pos);
    assert!(
        !m.is_empty() && m.iter().all(|mv| mv.starts_with("e5")),
        "only the King may answer: {m:?}"
    );
    assert!(
        m.contains(&"e5-d5".to_string()),
        "the adjacent checker is unprotected"
    );
    assert!(
        !m.contains(&"e5-e4".to_string()) && !m.contains(&"e5-d6".to_string()),
        "next to d5: still in check"
    );
}

#[test]
fn a_pinned_warrior_still_gives_check() {
    // The black Warrior d4 cannot move (it shields its King d7 from white's Warrior d1),
    // yet it checks the white King b4 along rank 4.
    let g = shakti(
        "white King b4  white Warrior d1  black King d7  black Warrior d4",
        "all - c4 d2 d3 d5 d6",
    );
    let m = moves(&g, &g.start());
    assert!(
        !m.is_empty() && m.iter().all(|mv| mv.starts_with("b4")),
        "{m:?}"
    );
}

#[test]
fn a_king_never_captures_outside_check() {
    // Over many random positions: a King move made while not in check lands on a vacant tile.
    let g = game("shakti");
    let probe = load(&game_source("shakti").replace("end {", "end {\n  when check: draw"));
    let mut rng = regula::engine::search::Rng::new(11);
    let mut buf = Vec::new();
    let mut checked = 0;
    for _ in 0..200 {
        let mut pos = g.start();
        let mut line: Vec<String> = Vec::new();
        while g.status(&pos, &mut buf).is_none() && line.len() < 60 {
            let probe_pos = after(&probe, &line.join(" "));
            let in_check =
                outcome(&probe, &probe_pos) == Some(Outcome::Draw) && outcome(&g, &pos).is_none();
            if !in_check {
                for m in buf
                    .iter()
                    .filter(|m| m.kind == regula::engine::MoveKind::Normal)
                {
                    if g.game().pieces[m.piece as usize].name == "King" {
                        assert_eq!(
                            g.piece_at(&pos, m.to),
                            None,
                            "capture outside check after {line:?}"
                        );
                        checked += 1;
                    }
                }
            }
            let m = buf[rng.below(buf.len())];
            line.push(g.notation(&m));
            g.play(&mut pos, &m);
            if probe
                .status(&after(&probe, &line.join(" ")), &mut Vec::new())
                .is_some()
                && g.status(&pos, &mut Vec::new()).is_none()
            {
                break; // the probe stops at a check; replaying beyond it is not possible
            }
        }
    }
    assert!(checked > 1000, "only {checked} King moves examined");
}
