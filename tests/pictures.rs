//! Pictures: the SVG of a position on every board shape, compared with golden files that
//! were reviewed by eye (rendered in a browser); and the HTML page of a game.
//! `REGULA_BLESS=1 cargo test --release --test pictures` rewrites the golden files.

mod common;
use common::*;
use regula::engine::Engine;
use regula::geometry::{Board, Shape};

/// A game of Stones placed from the hand, on any board shape, with pieces set up at
/// named cells: (player, piece letter, cell). The language declares square boards (its
/// syntax for the others is still to come), so the shape is set in the IR.
fn stones_on(shape: Shape, setup: &[(u8, char, &str)], more_players: &[&str]) -> Engine {
    let (mut program, _) = regula::compile(
        "game \"Stones\" { }\nplayers { white black }\nboard 3 x 3\npiece Stone letter S\npiece King letter K\nhand { white Stone 9  black Stone 9 }\nmoves Stone { place on empty }\nmoves King { step all to empty }\nend { when no moves: next loses }\n",
    )
    .unwrap();
    let board = Board::new(shape.clone()).unwrap();
    program.game.board = shape;
    for name in more_players {
        program.game.players.push(regula::ir::Player {
            name: name.to_string(),
            forward: None,
        });
    }
    program.game.setup = setup
        .iter()
        .map(|&(player, letter, cell)| regula::ir::Placement {
            player,
            piece: program
                .game
                .pieces
                .iter()
                .position(|p| p.letter == letter)
                .unwrap() as u8,
            cell: board.cell(cell).unwrap(),
        })
        .collect();
    Engine::new(program)
}

fn morris() -> Shape {
    let ring = |k: u8| {
        let (lo, mid, hi) = (k, 3, 6 - k);
        vec![
            (lo, lo),
            (mid, lo),
            (hi, lo),
            (hi, mid),
            (hi, hi),
            (mid, hi),
            (lo, hi),
            (lo, mid),
            (lo, lo),
        ]
    };
    let rings: Vec<Vec<(u8, u8)>> = (0..3).map(ring).collect();
    let mut points: Vec<(u8, u8)> = rings.iter().flat_map(|r| r[..8].to_vec()).collect();
    points.sort();
    let mut lines = rings;
    lines.push(vec![(3, 0), (3, 1), (3, 2)]);
    lines.push(vec![(6, 3), (5, 3), (4, 3)]);
    lines.push(vec![(3, 6), (3, 5), (3, 4)]);
    lines.push(vec![(0, 3), (1, 3), (2, 3)]);
    Shape::Points {
        files: 7,
        ranks: 7,
        points,
        lines,
    }
}

fn golden(name: &str, svg: &str) {
    let path = format!("{}/tests/pictures/{name}.svg", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("REGULA_BLESS").is_some() {
        std::fs::write(&path, svg).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == svg,
        "{name}.svg differs from {path}: look at the new one in a browser, then bless it"
    );
}

fn example(name: &str) -> Engine {
    load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/{name}.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
}

#[test]
fn a_square_board_with_flags_and_the_last_move() {
    let e = example("chess");
    let pos = after(&e, "e2-e4 e7-e5 g1-f3");
    golden("chess", &regula::picture::svg(&e, &pos));
}

#[test]
fn holes_are_drawn_as_missing_tiles() {
    let e = game("shakti");
    let pos = after(&e, "b2-b4 f6-f4");
    let svg = regula::picture::svg(&e, &pos);
    // Two cells lost their tile; no flag marker is drawn for a presence flag.
    assert_eq!(svg.matches("stroke-dasharray=\"4 3\"").count(), 2);
    assert!(!svg.contains("class=\"flag\""));
    golden("shakti", &svg);
}

#[test]
fn a_hex_rhombus() {
    let e = stones_on(
        Shape::HexRhombus { files: 5, ranks: 5 },
        &[(0, 'K', "a1"), (1, 'K', "e5"), (0, 'S', "c3")],
        &[],
    );
    let mut pos = e.start();
    play(&e, &mut pos, "S@b4");
    golden("hex_rhombus", &regula::picture::svg(&e, &pos));
}

#[test]
fn a_hexagon_with_three_players_and_a_neutral_piece() {
    let e = stones_on(Shape::Hexagon { side: 3 }, &[], &["red"]);
    let pos = e
        .parse_position("S[-]2/1S[red]2/1Ks1S[-]/1K1k/2S[red] white last-from=b3 last-to=b2")
        .unwrap();
    // As docs/POSITIONS.md shows it.
    assert_eq!(
        e.position_text(&pos),
        "S[-]2/1S[red]2/1Ks1S[-]/1K1k/2S[red] white last-from=b3 last-to=b2"
    );
    golden("hexagon", &regula::picture::svg(&e, &pos));
}

#[test]
fn points_joined_by_lines() {
    let e = stones_on(
        morris(),
        &[(0, 'S', "a1"), (1, 'S', "d2"), (1, 'S', "g7")],
        &[],
    );
    let mut pos = e.start();
    play(&e, &mut pos, "S@d5");
    assert_eq!(
        e.position_text(&pos),
        "2s/3/1S1/6/3/1s1/S2 black hand=white:8S,black:9S turns=1 ply=1 moves-made=1,0 last-to=d5"
    );
    let svg = regula::picture::svg(&e, &pos);
    assert_eq!(svg.matches("class=\"cell\"").count(), 24);
    // 32 links: 8 per ring, 2 on each of the four cross lines.
    assert_eq!(svg.matches("<line ").count(), 32);
    golden("morris", &svg);
}

#[test]
fn every_piece_is_drawn_with_its_letter_in_its_owner_colour() {
    let e = example("chess");
    let svg = regula::picture::svg(&e, &e.start());
    assert_eq!(svg.matches("class=\"piece\"").count(), 32);
    assert_eq!(
        svg.matches("fill=\"#f7f3e8\" stroke=\"#101010\"").count(),
        16
    );
    assert_eq!(
        svg.matches("fill=\"#262626\" stroke=\"#101010\"").count(),
        16
    );
    assert!(svg.contains("<title>white King on e1</title>"));
    assert!(!svg.contains("class=\"last\""), "no move yet");
}

#[test]
fn a_game_page_holds_every_position_and_steps_with_keys() {
    let e = example("tictactoe");
    let moves = ["X@b2", "X@a1", "X@c3"];
    let mut positions = vec![e.start()];
    for m in moves {
        let mut p = positions.last().unwrap().clone();
        play(&e, &mut p, m);
        positions.push(p);
    }
    let page = regula::picture::html(&e, &positions, &moves);
    assert_eq!(page.matches("<svg ").count(), 4);
    assert!(page.contains("ArrowRight") && page.contains("ArrowLeft"));
    assert!(page.contains("3. X@c3"));
    for external in ["http://", "https://", "src=", "href="] {
        let uses = page.matches(external).count();
        let allowed = if external == "http://" { 4 } else { 0 };
        assert_eq!(
            uses, allowed,
            "{external}: only the SVG namespace may appear"
        );
    }
}
