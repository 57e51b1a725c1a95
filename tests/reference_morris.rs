//! An independent implementation of Nine Men's Morris (docs/examples/nine-mens-morris.game),
//! written from the rules in that file's header comment, not from the engine: the 24
//! points of the mill board and its 16 lines; nine men in hand each, placed on empty points
//! while any are in hand; then steps along a line to an adjacent empty point, or flights to
//! any empty point for a player with three men; a man that forms a mill (the man just
//! placed or moved among three men of its owner on a line) removes an enemy man that is not
//! in a mill, or any enemy man when all of them are in mills (one removal, however many
//! mills are formed); and, checked in this order before every turn: a player with fewer
//! than three men on the board and in hand loses, a player with no move loses, a position
//! (board, hands, player to move) seen for the third time is a draw.

mod common;

use regula::engine::Engine;

const POINTS: [&str; 24] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// The 16 lines of three points: eight along ranks, eight along files.
const LINES: [[&str; 3]; 16] = [
    ["a1", "d1", "g1"],
    ["b2", "d2", "f2"],
    ["c3", "d3", "e3"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c5", "d5", "e5"],
    ["b6", "d6", "f6"],
    ["a7", "d7", "g7"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

const MEN: u8 = 9;
const NAMES: [&str; 2] = ["white", "black"];

fn point(name: &str) -> usize {
    POINTS
        .iter()
        .position(|p| *p == name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

/// The board's geometry, as indices into POINTS.
struct Board {
    lines: Vec<[usize; 3]>,
    neighbours: Vec<Vec<usize>>,
}

impl Board {
    fn new() -> Board {
        let lines: Vec<[usize; 3]> = LINES
            .iter()
            .map(|l| [point(l[0]), point(l[1]), point(l[2])])
            .collect();
        let mut neighbours = vec![Vec::new(); POINTS.len()];
        for l in &lines {
            for (a, b) in [(l[0], l[1]), (l[1], l[2])] {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
        Board { lines, neighbours }
    }
}

/// What repetition compares: the board, both hands and the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    board: [Option<usize>; 24],
    hand: [u8; 2],
    to_move: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Move {
    /// None for a placement from the hand.
    from: Option<usize>,
    to: usize,
    removes: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Win(usize),
    Draw,
}

fn notation(m: Move) -> String {
    let mut s = match m.from {
        None => format!("M@{}", POINTS[m.to]),
        Some(f) => format!("{}-{}", POINTS[f], POINTS[m.to]),
    };
    if let Some(r) = m.removes {
        s.push('x');
        s.push_str(POINTS[r]);
    }
    s
}

struct Morris {
    board: Board,
    now: Key,
    /// Every position since the start, the initial and the current one included.
    history: Vec<Key>,
}

impl Morris {
    fn start() -> Morris {
        let now = Key {
            board: [None; 24],
            hand: [MEN, MEN],
            to_move: 0,
        };
        Morris {
            board: Board::new(),
            now,
            history: vec![now],
        }
    }

    fn men(&self, board: &[Option<usize>; 24], player: usize) -> usize {
        board.iter().filter(|&&o| o == Some(player)).count()
    }

    fn in_mill(&self, board: &[Option<usize>; 24], p: usize) -> bool {
        let Some(owner) = board[p] else {
            return false;
        };
        self.board
            .lines
            .iter()
            .any(|l| l.contains(&p) && l.iter().all(|&q| board[q] == Some(owner)))
    }

    fn repetitions(&self) -> usize {
        self.history.iter().filter(|k| **k == self.now).count()
    }

    /// The moves of the player to move, whatever the end rules say.
    fn generate(&self) -> Vec<Move> {
        let me = self.now.to_move;
        let board = &self.now.board;
        let empty: Vec<usize> = (0..24).filter(|&p| board[p].is_none()).collect();
        let mut bases = Vec::new();
        if self.now.hand[me] > 0 {
            bases.extend(empty.iter().map(|&to| (None, to)));
        } else {
            let flying = self.men(board, me) == 3;
            for from in (0..24).filter(|&p| board[p] == Some(me)) {
                if flying {
                    bases.extend(empty.iter().map(|&to| (Some(from), to)));
                } else {
                    for &to in &self.board.neighbours[from] {
                        if board[to].is_none() {
                            bases.push((Some(from), to));
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (from, to) in bases {
            let mut after = *board;
            if let Some(f) = from {
                after[f] = None;
            }
            after[to] = Some(me);
            let base = Move {
                from,
                to,
                removes: None,
            };
            if !self.in_mill(&after, to) {
                out.push(base);
                continue;
            }
            let enemies: Vec<usize> = (0..24).filter(|&p| after[p] == Some(1 - me)).collect();
            let free: Vec<usize> = enemies
                .iter()
                .copied()
                .filter(|&p| !self.in_mill(&after, p))
                .collect();
            let targets = if free.is_empty() { enemies } else { free };
            if targets.is_empty() {
                out.push(base);
            }
            for r in targets {
                out.push(Move {
                    removes: Some(r),
                    ..base
                });
            }
        }
        out
    }

    /// The end rules in the order of the game file, then the moves.
    fn status(&self) -> Result<Vec<Move>, Outcome> {
        let me = self.now.to_move;
        let moves = self.generate();
        if self.men(&self.now.board, me) + (self.now.hand[me] as usize) < 3 {
            return Err(Outcome::Win(1 - me));
        }
        if moves.is_empty() {
            return Err(Outcome::Win(1 - me));
        }
        if self.repetitions() >= 3 {
            return Err(Outcome::Draw);
        }
        Ok(moves)
    }

    fn play(&mut self, m: Move) {
        let me = self.now.to_move;
        match m.from {
            None => {
                assert!(self.now.hand[me] > 0);
                self.now.hand[me] -= 1;
            }
            Some(f) => self.now.board[f] = None,
        }
        assert!(self.now.board[m.to].is_none());
        self.now.board[m.to] = Some(me);
        if let Some(r) = m.removes {
            assert_eq!(self.now.board[r], Some(1 - me));
            self.now.board[r] = None;
        }
        self.now.to_move = 1 - me;
        self.history.push(self.now);
    }

    fn undo(&mut self) {
        self.history.pop();
        self.now = *self.history.last().expect("the start stays");
    }

    fn play_text(&mut self, text: &str) {
        let m = self
            .status()
            .unwrap_or_else(|r| panic!("{text}: the game is over ({r:?})"))
            .into_iter()
            .find(|&m| notation(m) == text)
            .unwrap_or_else(|| panic!("{text} is not legal"));
        self.play(m);
    }

    fn after(moves: &str) -> Morris {
        let mut t = Morris::start();
        for m in moves.split_whitespace() {
            t.play_text(m);
        }
        t
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let Ok(moves) = self.status() else {
            return 0;
        };
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for m in moves {
            self.play(m);
            total += self.perft(depth - 1);
            self.undo();
        }
        total
    }

    /// Sorted moves in notation, or `result: …`, as `common::moves` writes them.
    fn listing(&self) -> Vec<String> {
        match self.status() {
            Err(Outcome::Win(p)) => vec![format!("result: {}", NAMES[p])],
            Err(Outcome::Draw) => vec!["result: draw".to_string()],
            Ok(moves) => {
                let mut v: Vec<String> = moves.into_iter().map(notation).collect();
                v.sort();
                v
            }
        }
    }
}

fn morris() -> Engine {
    let path = format!(
        "{}/docs/examples/nine-mens-morris.game",
        env!("CARGO_MANIFEST_DIR")
    );
    common::load(&std::fs::read_to_string(path).expect("docs/examples/nine-mens-morris.game"))
}

// Move sequences that exercise the rules.
// White's third man forms a mill (a1-d1-g1) and may remove either of Black's two men.
const FIRST_MILL: &str = "M@a1 M@b2 M@d1 M@d2";
// White places a1 and forms two mills at once (a1-d1-g1, a1-a4-a7): one removal.
const DOUBLE_MILL: &str = "M@d1 M@b2 M@g1 M@f4 M@a4 M@c5 M@a7 M@e3";
// Black's only men (b6 d6 f6) form a mill: white's mill a1-a4-a7 may remove any of them.
const ALL_IN_MILLS: &str = "M@a1 M@b6 M@d1 M@d6 M@a4 M@f6xd1";
// The end of the placing phase, with mills formed by both sides on the way: White (eight
// men) to make its first step; a4-b4-c4 is a mill that b4 can open and close again.
const PLACED: &str = "M@a1 M@b2 M@d1 M@d2 M@g1xb2 M@b6 M@a4 M@d6 M@c4 M@f6xa4 M@a4 M@a7 \
     M@b4xd2 M@d2 M@e4 M@f4 M@g4 M@c5";
// Then White opens and closes its mill four times, and Black is down to three men, all in
// its mill b6-d6-f6: Black flies.
const FLYING: &str = "M@a1 M@b2 M@d1 M@d2 M@g1xb2 M@b6 M@a4 M@d6 M@c4 M@f6xa4 M@a4 M@a7 \
     M@b4xd2 M@d2 M@e4 M@f4 M@g4 M@c5 b4-b2 c5-d5 b2-b4xd2 d5-e5 b4-b2 e5-d5 b2-b4xa7 \
     d5-c5 b4-b2 c5-d5 b2-b4xf4 d5-e5 b4-b2 e5-d5 b2-b4xd5";
// Black has flown a man into b2, under White's mill; White's next mill takes Black to two
// men.
const FLOWN: &str = "M@a1 M@b2 M@d1 M@d2 M@g1xb2 M@b6 M@a4 M@d6 M@c4 M@f6xa4 M@a4 M@a7 \
     M@b4xd2 M@d2 M@e4 M@f4 M@g4 M@c5 b4-b2 c5-d5 b2-b4xd2 d5-e5 b4-b2 e5-d5 b2-b4xa7 \
     d5-c5 b4-b2 c5-d5 b2-b4xf4 d5-e5 b4-b2 e5-d5 b2-b4xd5 d6-b2";
// From PLACED, both sides step out and back twice: Black's d5-c5 would bring the position
// after PLACED for the third time, a draw.
const REPEATING: &str = "M@a1 M@b2 M@d1 M@d2 M@g1xb2 M@b6 M@a4 M@d6 M@c4 M@f6xa4 M@a4 M@a7 \
     M@b4xd2 M@d2 M@e4 M@f4 M@g4 M@c5 g4-g7 c5-d5 g7-g4 d5-c5 g4-g7 c5-d5 g7-g4";
// The hands are almost empty and no mill was formed: Black's last man, on g1, leaves every
// white man without an empty neighbour.
const BLOCKING: &str = "M@a1 M@a7 M@a4 M@b4 M@b2 M@b6 M@d1 M@c4 M@d7 M@d2 M@f2 M@d6 M@f6 \
     M@e4 M@g4 M@f4 M@g7";

const SEQUENCES: [&str; 9] = [
    "",
    FIRST_MILL,
    DOUBLE_MILL,
    ALL_IN_MILLS,
    PLACED,
    FLYING,
    FLOWN,
    REPEATING,
    BLOCKING,
];

fn removals(listing: &[String], base: &str) -> Vec<String> {
    listing
        .iter()
        .filter(|m| m.starts_with(base))
        .cloned()
        .collect()
}

#[test]
fn the_reference_plays_the_rules() {
    // One removal per move, of a man not in a mill while there is one.
    let first = Morris::after(FIRST_MILL).listing();
    assert_eq!(removals(&first, "M@g1"), ["M@g1xb2", "M@g1xd2"]);
    let double = Morris::after(DOUBLE_MILL).listing();
    assert_eq!(
        removals(&double, "M@a1"),
        ["M@a1xb2", "M@a1xc5", "M@a1xe3", "M@a1xf4"]
    );
    let all = Morris::after(ALL_IN_MILLS).listing();
    assert_eq!(removals(&all, "M@a7"), ["M@a7xb6", "M@a7xd6", "M@a7xf6"]);
    // Steps along the lines once the hands are empty.
    let placed = Morris::after(PLACED).listing();
    assert_eq!(placed, ["b4-b2", "c4-c3", "e4-e3", "e4-e5", "g4-g7"]);
    // Three men fly: 3 men times 13 empty points.
    assert_eq!(Morris::after(FLYING).listing().len(), 39);
    // Two men left: the game is over.
    let mut flown = Morris::after(FLOWN);
    flown.play_text("d1-d2");
    flown.play_text("b2-c3");
    flown.play_text("d2-d1xc3");
    assert_eq!(flown.listing(), ["result: white"]);
    // The third occurrence of a position is a draw.
    let mut repeating = Morris::after(REPEATING);
    assert_eq!(repeating.repetitions(), 2);
    repeating.play_text("d5-c5");
    assert_eq!(repeating.repetitions(), 3);
    assert_eq!(repeating.listing(), ["result: draw"]);
    // A player who cannot move loses.
    let mut blocking = Morris::after(BLOCKING);
    blocking.play_text("M@g1");
    assert_eq!(blocking.listing(), ["result: black"]);
}

#[test]
fn the_engine_lists_the_same_moves_after_each_sequence() {
    let g = morris();
    for moves in SEQUENCES {
        let want = Morris::after(moves).listing();
        assert_eq!(
            common::moves(&g, &common::after(&g, moves)),
            want,
            "after [{moves}]"
        );
    }
}

/// Perft of the reference and of the engine from the start and after each sequence.
#[test]
fn perft_matches_the_reference() {
    let g = morris();
    let depth = if cfg!(debug_assertions) { 3 } else { 4 };
    for moves in SEQUENCES {
        let mut reference = Morris::after(moves);
        let pos = common::after(&g, moves);
        for d in 1..=depth {
            assert_eq!(
                g.perft(&pos, d),
                reference.perft(d),
                "perft({d}) after [{moves}]"
            );
        }
    }
}

/// Depth 5 from the start and after each sequence (release builds take a few seconds).
#[test]
#[ignore]
fn perft_matches_the_reference_at_depth_5() {
    let g = morris();
    for moves in SEQUENCES {
        let mut reference = Morris::after(moves);
        let pos = common::after(&g, moves);
        assert_eq!(g.perft(&pos, 5), reference.perft(5), "after [{moves}]");
    }
}

/// A small, seedable generator (xorshift64*), independent of the engine's.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize % n
    }
}

#[test]
fn move_lists_match_the_reference_along_random_games() {
    let g = morris();
    let mut rng = Rng(0x3A7C_91E5_D00D_F00D);
    // Games won by reducing the loser to two men, by leaving it no move, and drawn.
    let mut ends = [0usize; 3];
    let games = if cfg!(debug_assertions) { 60 } else { 300 };
    for game in 0..games {
        let mut reference = Morris::start();
        let mut pos = g.start();
        let mut played = Vec::new();
        loop {
            let want = reference.listing();
            let got = common::moves(&g, &pos);
            assert_eq!(got, want, "game {game} after [{}]", played.join(" "));
            if want[0].starts_with("result: ") {
                let me = reference.now.to_move;
                ends[if want[0] == "result: draw" {
                    2
                } else if reference.men(&reference.now.board, me) < 3 {
                    0
                } else {
                    1
                }] += 1;
                break;
            }
            // A third of the games take a mill whenever there is one (they reach flying),
            // a third never do when they can help it (they block and repeat), a third
            // choose uniformly.
            let (mills, quiet): (Vec<&String>, Vec<&String>) =
                want.iter().partition(|m| m.contains('x'));
            let pool = match game % 3 {
                0 if !mills.is_empty() => mills,
                1 if !quiet.is_empty() => quiet,
                _ => want.iter().collect(),
            };
            let m = pool[rng.below(pool.len())].clone();
            reference.play_text(&m);
            common::play(&g, &mut pos, &m);
            played.push(m);
        }
    }
    eprintln!("two men, no move, draw: {ends:?}");
    // Games end both ways that random play reaches often (a blockade is rare).
    assert!(ends[0] > 0 && ends[2] > 0, "{ends:?}");
}

/// Prints the counts of tests/perft/nine-mens-morris.perft:
/// `cargo test --release --test reference_morris -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_perft_data() {
    for moves in SEQUENCES {
        println!("{}", if moves.is_empty() { "start" } else { moves });
        let mut t = Morris::after(moves);
        for d in 1..=6 {
            println!("{d} {}", t.perft(d));
        }
    }
}
