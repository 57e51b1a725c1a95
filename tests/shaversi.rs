//! Shaversi: placement rules, scoring and the end of the game.

mod common;
use common::*;
use regula::engine::Outcome;

/// Shaversi's rules with pieces already on the board and other hands.
fn shaversi(setup: &str, hand: &str) -> regula::engine::Engine {
    let src = replace_block(
        &game_source("shaversi"),
        "hand {",
        &format!("hand {{\n{hand}\n}}\nsetup {{\n{setup}\n}}"),
    );
    load(&src)
}

#[test]
fn the_worked_scoring_example() {
    // White Rook a1, White King a3, Black Bishop c3: White 8 + 5 = 13, Black 10.
    let g = shaversi(
        "white Rook a1  white King a3  black Bishop c3",
        "white Queen 1  black Queen 1",
    );
    assert_eq!(g.scores_of(&g.start()), Some(vec![13, 10]));
}

#[test]
fn white_opens_with_the_king_and_black_with_the_queen() {
    let g = game("shaversi");
    let m = moves(&g, &g.start());
    assert_eq!(m.len(), 64);
    assert!(m.iter().all(|mv| mv.starts_with("K@")));
    let m = moves(&g, &after(&g, "K@d4"));
    assert_eq!(m.len(), 63, "every empty square");
    assert!(m.iter().all(|mv| mv.starts_with("Q@")));
    assert!(!m.contains(&"Q@d4".to_string()), "only empty squares");
}

#[test]
fn later_placements_are_unrestricted() {
    let g = game("shaversi");
    let m = moves(&g, &after(&g, "K@d4 Q@e5"));
    for letter in ["Q@", "R@", "B@", "N@"] {
        assert_eq!(
            m.iter().filter(|mv| mv.starts_with(letter)).count(),
            62,
            "{letter}"
        );
    }
    assert!(
        !m.iter().any(|mv| mv.starts_with("K@")),
        "the only King is placed"
    );
    let m = moves(&g, &after(&g, "K@d4 Q@e5 N@a1 K@b2"));
    assert!(
        m.contains(&"N@c3".to_string()),
        "the second Knight, next to the enemy King"
    );
    let m = moves(&g, &after(&g, "K@d4 Q@e5 N@a1 K@b2 N@c3 R@h8"));
    assert!(
        !m.iter().any(|m| m.starts_with("N@")),
        "both white Knights are placed"
    );
}

#[test]
fn a_slider_attacks_up_to_the_first_piece_of_either_colour() {
    let g = shaversi(
        "white Rook a1  white Knight a4  black Knight c1",
        "white Queen 1  black Queen 1",
    );
    // Rook: a2 a3 (a4 blocks) + b1 (c1 blocks) = 3; Knight a4: b2 c3 c5 b6 = 4.
    // Black Knight c1: a2 b3 d3 e2 = 4.
    assert_eq!(g.scores_of(&g.start()), Some(vec![7, 4]));
}

#[test]
fn the_game_lasts_sixteen_placements_and_the_higher_score_wins() {
    let g = game("shaversi");
    let mut pos = g.start();
    let line = "K@a1 Q@d4 R@h1 R@a8 R@h8 R@b7 B@c1 B@g7 B@f1 B@b1 N@b8 N@g1 N@g8 N@h3 Q@e5 K@c3";
    for (i, mv) in line.split_whitespace().enumerate() {
        assert_eq!(
            outcome(&g, &pos),
            None,
            "still placing before move {}",
            i + 1
        );
        play(&g, &mut pos, mv);
    }
    // Both figures and the result were computed by an independent implementation of the
    // rules for this position.
    assert_eq!(g.scores_of(&pos), Some(vec![46, 57]));
    assert_eq!(outcome(&g, &pos), Some(Outcome::Win(1)));
    assert_eq!(g.perft(&pos, 1), 0, "a finished game has no moves");
}

#[test]
fn equal_scores_draw() {
    let g = shaversi("white Rook a1  black Rook h8", "");
    assert_eq!(g.scores_of(&g.start()), Some(vec![14, 14]));
    assert_eq!(moves(&g, &g.start()), ["result: draw"]);
    let g = shaversi("white Queen a1  black Rook h8", "");
    assert_eq!(moves(&g, &g.start()), ["result: white"]);
}
