//! The board's tables on each shape.

use super::*;

fn names(b: &Board, cells: &[Cell]) -> Vec<String> {
    cells.iter().map(|&c| b.name(c)).collect()
}

#[test]
fn square_cells_are_numbered_file_first_from_a1() {
    let b = Board::square(9, 9).unwrap();
    assert_eq!(b.cells(), 81);
    assert_eq!(b.cell("a1"), Some(0));
    assert_eq!(b.cell("b1"), Some(1));
    assert_eq!(b.cell("a2"), Some(9));
    assert_eq!(b.cell("i9"), Some(80));
    assert_eq!(b.cell("j1"), None);
    assert_eq!(b.cell("a10"), None);
    assert_eq!(b.cell("a0"), None);
    assert_eq!(b.name(40), "e5");
}

#[test]
fn square_directions_neighbours_and_opposites() {
    let b = Board::square(8, 8).unwrap();
    let e4 = b.cell("e4").unwrap();
    let expect = ["e5", "f5", "f4", "f3", "e3", "d3", "d4", "d5"];
    for (d, want) in expect.iter().enumerate() {
        assert_eq!(b.name(b.step(e4, d as u8)), *want, "direction {d}");
        assert_eq!(b.step(b.step(e4, d as u8), b.opposite(d as u8)), e4);
    }
    assert_eq!(b.step(b.cell("a1").unwrap(), 4), NONE);
    assert_eq!(b.opposite(0), 4);
    assert_eq!(b.opposite(3), 7);
    assert_eq!(b.rotate(7, 2), 1);
    assert_eq!(b.dir_word("NE"), Some(DirWord::Abs(1)));
    assert_eq!(b.dir_word("left"), Some(DirWord::Rel(6)));
    assert_eq!(b.dir_word("diagonal"), Some(DirWord::Set(vec![1, 3, 5, 7])));
    assert_eq!(b.dir_word("up"), None);
}

#[test]
fn rays_stop_at_the_edge() {
    let b = Board::square(5, 5).unwrap();
    let c3 = b.cell("c3").unwrap();
    assert_eq!(names(&b, b.ray(c3, 0)), ["c4", "c5"]);
    assert_eq!(names(&b, b.ray(c3, 5)), ["b2", "a1"]);
    assert!(b.ray(b.cell("e5").unwrap(), 1).is_empty());
}

#[test]
fn leaps_reach_grid_offsets_on_the_board() {
    let b = Board::square(8, 8).unwrap();
    let offsets = Board::leap_offsets(1, 2);
    assert_eq!(offsets.len(), 8);
    let mut t = names(&b, &b.leap_targets(b.cell("a1").unwrap(), &offsets));
    t.sort();
    assert_eq!(t, ["b3", "c2"]);
    assert_eq!(Board::leap_offsets(0, 2).len(), 4);
    assert_eq!(Board::leap_offsets(2, 2).len(), 4);
}

#[test]
fn edges_and_corners_of_a_square() {
    let b = Board::square(4, 3).unwrap();
    assert_eq!(b.edge().len(), 4 * 3 - 2);
    assert_eq!(names(&b, &b.corners()), ["a1", "d1", "a3", "d3"]);
    assert_eq!(names(&b, &b.rank(2).unwrap()), ["a2", "b2", "c2", "d2"]);
    assert_eq!(names(&b, &b.file("b").unwrap()), ["b1", "b2", "b3"]);
    assert!(b.rank(4).is_none() && b.file("e").is_none() && b.file("B").is_none());
}

#[test]
fn sizes_out_of_range_are_refused() {
    assert!(Board::square(0, 3).is_err());
    assert!(Board::square(27, 3).is_err());
    assert!(Board::square(26, 26).is_ok());
    assert!(Board::square(2, 99).is_ok() && Board::square(2, 100).is_err());
    assert!(Board::new(Shape::Hexagon { side: 0 }).is_err());
}

#[test]
fn a_hex_rhombus_has_six_directions_like_a_hex_board() {
    let b = Board::new(Shape::HexRhombus {
        files: 11,
        ranks: 11,
    })
    .unwrap();
    assert_eq!(b.dir_count(), 6);
    let b1 = b.cell("b1").unwrap();
    let mut n: Vec<String> = (0..6)
        .map(|d| b.step(b1, d))
        .filter(|&c| c != NONE)
        .map(|c| b.name(c))
        .collect();
    n.sort();
    assert_eq!(n, ["a1", "a2", "b2", "c1"]);
    assert_eq!(b.opposite(0), 3);
    assert_eq!(names(&b, &b.corners()), ["a1", "k1", "a11", "k11"]);
    assert_eq!(b.edge().len(), 40);
    assert_eq!(b.dir_word("north"), Some(DirWord::Unavailable));
    assert_eq!(b.dir_word("right"), Some(DirWord::Unavailable));
}

#[test]
fn a_hexagon_drops_the_acute_corners_of_its_rhombus() {
    let b = Board::new(Shape::Hexagon { side: 2 }).unwrap();
    assert_eq!(b.cells(), 7);
    assert_eq!(
        names(&b, &b.all()),
        ["b1", "c1", "a2", "b2", "c2", "a3", "b3"]
    );
    let centre = b.cell("b2").unwrap();
    assert!((0..6).all(|d| b.step(centre, d) != NONE));
    assert_eq!(b.corners().len(), 6);
    assert_eq!(Board::new(Shape::Hexagon { side: 5 }).unwrap().cells(), 61);
}

fn mill() -> Board {
    let p = |s: &str| parse_cell_name(s).map(|(f, r)| (f as u8, r as u8)).unwrap();
    let line = |s: &str| s.split('-').map(p).collect::<Vec<_>>();
    let lines: Vec<Vec<(u8, u8)>> = [
        "a1-d1-g1", "b2-d2-f2", "c3-d3-e3", "a4-b4-c4", "e4-f4-g4", "c5-d5-e5", "b6-d6-f6",
        "a7-d7-g7", "a1-a4-a7", "b2-b4-b6", "c3-c4-c5", "d1-d2-d3", "d5-d6-d7", "e3-e4-e5",
        "f2-f4-f6", "g1-g4-g7",
    ]
    .iter()
    .map(|s| line(s))
    .collect();
    let mut points: Vec<(u8, u8)> = lines.iter().flatten().copied().collect();
    points.sort();
    points.dedup();
    Board::new(Shape::Points {
        files: 7,
        ranks: 7,
        points,
        lines,
    })
    .unwrap()
}

#[test]
fn points_are_neighbours_along_their_links() {
    let b = mill();
    assert_eq!(b.cells(), 24);
    let a1 = b.cell("a1").unwrap();
    assert_eq!(b.name(b.step(a1, 0)), "a4");
    assert_eq!(b.name(b.step(a1, 2)), "d1");
    assert_eq!(b.step(a1, 1), NONE);
    assert_eq!(names(&b, b.ray(a1, 0)), ["a4", "a7"]);
    // c4 and e4 are both points, but not linked: d4 is no point.
    assert_eq!(b.step(b.cell("c4").unwrap(), 2), NONE);
    assert!(b.cell("d4").is_none());
    assert_eq!(b.corners().len(), 4);
}

#[test]
fn bad_point_boards_are_refused_with_a_reason() {
    let bad = Board::new(Shape::Points {
        files: 3,
        ranks: 3,
        points: vec![(0, 0), (1, 2)],
        lines: vec![vec![(0, 0), (1, 2)]],
    });
    assert_eq!(
        bad.unwrap_err(),
        ShapeError::NotStraight("a1".into(), "b3".into())
    );
    let missing = Board::new(Shape::Points {
        files: 3,
        ranks: 3,
        points: vec![(0, 0)],
        lines: vec![vec![(0, 0), (0, 1)]],
    });
    assert_eq!(missing.unwrap_err(), ShapeError::NotAPoint("a2".into()));
}

#[test]
fn drawings_of_each_shape() {
    let sq = Board::square(3, 2).unwrap();
    assert_eq!(sq.draw(|_| '.'), "   a b c\n2  . . .\n1  . . .\n");
    let hex = Board::new(Shape::HexRhombus { files: 3, ranks: 2 }).unwrap();
    assert_eq!(hex.draw(|_| '.'), "2   . . .\n1  . . .\n   a b c\n");
    let m = mill();
    let text = m.draw(|_| 'o');
    assert!(text.starts_with("7  o-----------o-----------o\n   |           |           |\n"));
    assert!(text.contains("4  o---o---o       o---o---o\n"), "{text}");
}
