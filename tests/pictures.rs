//! Pictures: the SVG of a position on every board shape, compared with golden files that
//! were reviewed by eye (rendered in a browser); and the HTML page of a game.
//! `REGULA_BLESS=1 cargo test --release --test pictures` rewrites the golden files.

mod common;
use common::*;
use regula::engine::Engine;

/// A game of Stones placed from the hand (and Kings that step), on the board declared by
/// `board` (the text after the keyword), with `setup` entries and players after white and
/// black.
fn stones_on(board: &str, setup: &str, more_players: &str) -> Engine {
    let hands: String = more_players
        .split_whitespace()
        .map(|p| format!("  {p} Stone 9"))
        .collect();
    load(&format!(
        "game \"Stones\" {{ }}\nplayers {{ white black {more_players} }}\nboard {board}\npiece Stone letter S\npiece King letter K\nsetup {{ {setup} }}\nhand {{ white Stone 9  black Stone 9{hands} }}\nmoves Stone {{ place on empty }}\nmoves King {{ step all to empty }}\nend {{ when no moves: next loses }}\n"
    ))
}

/// Nine men's morris: three rings of eight points, joined at the middle of their sides.
const MORRIS: &str = "points 7 x 7 {\n  a1-d1-g1-g4-g7-d7-a7-a4-a1\n  b2-d2-f2-f4-f6-d6-b6-b4-b2\n  c3-d3-e3-e4-e5-d5-c5-c4-c3\n  d1-d2-d3  g4-f4-e4  d7-d6-d5  a4-b4-c4\n}";

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
        "hex 5 x 5",
        "white King a1  black King e5  white Stone c3",
        "",
    );
    let mut pos = e.start();
    play(&e, &mut pos, "S@b4");
    golden("hex_rhombus", &regula::picture::svg(&e, &pos));
}

#[test]
fn a_hexagon_with_three_players_and_a_neutral_piece() {
    let e = stones_on("hexagon 3", "", "red");
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
    let e = stones_on(MORRIS, "white Stone a1  black Stone d2  black Stone g7", "");
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

#[test]
fn players_named_after_a_colour_get_it() {
    // Hex's players are red and blue; a game of white, black and red keeps its colours
    // (see the hexagon above), and a player named otherwise gets the first colour left.
    let e = example("hex");
    let mut pos = e.start();
    play(&e, &mut pos, "S@f6");
    play(&e, &mut pos, "S@e7");
    let svg = regula::picture::svg(&e, &pos);
    assert!(
        svg.contains("<title>red Stone on f6</title><circle cx"),
        "{svg}"
    );
    assert_eq!(
        svg.matches("fill=\"#c0392b\" stroke=\"#101010\"").count(),
        1
    );
    assert_eq!(
        svg.matches("fill=\"#2e6fd8\" stroke=\"#101010\"").count(),
        1
    );
    let e = stones_on("3 x 3", "sun Stone a1  white Stone b1", "sun");
    let svg = regula::picture::svg(&e, &e.start());
    // sun, named after no colour, gets red: white and black are taken by their players.
    let sun = svg.split("<title>sun Stone on a1</title>").nth(1).unwrap();
    let disc = &sun[..sun.find("</g>").unwrap()];
    assert!(disc.contains("fill=\"#c0392b\""), "{disc}");
}
