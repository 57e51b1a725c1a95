//! An independent implementation of Tempo (docs/examples/tempo.game), written from the
//! rules in that file's header comment, not from the engine: a 4x4 board, a King per
//! player that steps in any direction onto an empty square or an enemy piece, three
//! Stones per player placed from the hand on empty squares, and, checked in this order
//! before every turn: a player without a King loses, a position (board, hands, player to
//! move) seen for the third time is a draw, a player with no move loses.
//!
//! Tempo is the only game of the tests that combines pieces in hand with a repetition rule: the same
//! board comes back with fewer Stones in hand when a Stone is placed and then taken.
//! Its perft counts, from positions whose history holds such boards, check that the
//! engine's repetition counting tells those positions apart (and the player to move).

mod common;

use regula::engine::Engine;

const SIZE: usize = 4;
const CELLS: usize = SIZE * SIZE;
const STONES: u8 = 3;
const NAMES: [&str; 2] = ["white", "black"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    King,
    Stone,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    owner: usize,
    kind: Kind,
}

/// What repetition compares: the board, both hands and the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    board: [Option<Piece>; CELLS],
    hand: [u8; 2],
    to_move: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Move {
    Step(usize, usize),
    Place(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Win(usize),
    Draw,
}

#[derive(Clone)]
struct Tempo {
    now: Key,
    /// Every position since the start, the initial and the current one included.
    history: Vec<Key>,
}

fn square(c: usize) -> String {
    format!("{}{}", (b'a' + (c % SIZE) as u8) as char, c / SIZE + 1)
}

fn parse_square(s: &str) -> usize {
    let b = s.as_bytes();
    assert_eq!(b.len(), 2, "square {s}");
    (b[0] - b'a') as usize + (b[1] - b'1') as usize * SIZE
}

fn notation(m: Move) -> String {
    match m {
        Move::Step(from, to) => format!("{}-{}", square(from), square(to)),
        Move::Place(to) => format!("S@{}", square(to)),
    }
}

impl Tempo {
    fn start() -> Tempo {
        let mut board = [None; CELLS];
        board[parse_square("a1")] = Some(Piece {
            owner: 0,
            kind: Kind::King,
        });
        board[parse_square("d4")] = Some(Piece {
            owner: 1,
            kind: Kind::King,
        });
        let now = Key {
            board,
            hand: [STONES, STONES],
            to_move: 0,
        };
        Tempo {
            now,
            history: vec![now],
        }
    }

    fn repetitions(&self) -> usize {
        self.history.iter().filter(|k| **k == self.now).count()
    }

    fn king(&self, player: usize) -> Option<usize> {
        (0..CELLS).find(|&c| {
            self.now.board[c]
                == Some(Piece {
                    owner: player,
                    kind: Kind::King,
                })
        })
    }

    /// The moves of the player to move, whatever the end rules say.
    fn generate(&self) -> Vec<Move> {
        let me = self.now.to_move;
        let mut out = Vec::new();
        if let Some(k) = self.king(me) {
            let (f, r) = ((k % SIZE) as i32, (k / SIZE) as i32);
            for df in -1..=1 {
                for dr in -1..=1 {
                    let (nf, nr) = (f + df, r + dr);
                    if (df, dr) == (0, 0) || !(0..SIZE as i32).contains(&nf) {
                        continue;
                    }
                    if !(0..SIZE as i32).contains(&nr) {
                        continue;
                    }
                    let to = nf as usize + nr as usize * SIZE;
                    match self.now.board[to] {
                        Some(p) if p.owner == me => {}
                        _ => out.push(Move::Step(k, to)),
                    }
                }
            }
        }
        if self.now.hand[me] > 0 {
            for c in 0..CELLS {
                if self.now.board[c].is_none() {
                    out.push(Move::Place(c));
                }
            }
        }
        out
    }

    /// The end rules in the order of the game file, then the moves.
    fn status(&self) -> Result<Vec<Move>, Outcome> {
        let me = self.now.to_move;
        let moves = self.generate();
        if self.king(me).is_none() {
            return Err(Outcome::Win(1 - me));
        }
        if self.repetitions() >= 3 {
            return Err(Outcome::Draw);
        }
        if moves.is_empty() {
            return Err(Outcome::Win(1 - me));
        }
        Ok(moves)
    }

    fn play(&mut self, m: Move) {
        let me = self.now.to_move;
        match m {
            Move::Step(from, to) => {
                self.now.board[to] = self.now.board[from].take();
            }
            Move::Place(to) => {
                assert!(self.now.hand[me] > 0 && self.now.board[to].is_none());
                self.now.board[to] = Some(Piece {
                    owner: me,
                    kind: Kind::Stone,
                });
                self.now.hand[me] -= 1;
            }
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

    fn after(moves: &str) -> Tempo {
        let mut t = Tempo::start();
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

fn tempo() -> Engine {
    let path = format!("{}/docs/examples/tempo.game", env!("CARGO_MANIFEST_DIR"));
    common::load(&std::fs::read_to_string(path).expect("docs/examples/tempo.game"))
}

// Move sequences whose history matters. Placing Stones that the Kings take and coming back
// gives the starting board, White to move, with two Stones in each hand instead of three.
const STONES_TAKEN: &str = "S@c4 S@b2 a1-b2 d4-c4 b2-a1 c4-d4";
// The same, after both Kings stepped out and back: its second occurrence. The starting
// board with White to move is now on the board for the third time, with other hands.
const STONES_TAKEN_TWICE: &str = "S@c4 S@b2 a1-b2 d4-c4 b2-a1 c4-d4 a1-b1 d4-c4 b1-a1 c4-d4";
// White's King walks a triangle: the starting board and hands, but Black to move.
const TRIANGLE: &str = "a1-b1 d4-c4 b1-b2 c4-d4 b2-a1";
// The same after both Kings stepped out and back: its second occurrence.
const TRIANGLE_TWICE: &str = "a1-b1 d4-c4 b1-b2 c4-d4 b2-a1 d4-c4 a1-b1 c4-d4 b1-a1";
// The starting position for the second time: a third is a draw.
const BACK_AND_FORTH: &str = "a1-b1 d4-c4 b1-a1 c4-d4";
// White has walled its King in with two of its Stones: a third would leave it no move.
const WALLED: &str = "S@a2 d4-c4 S@b1 c4-d4";

#[test]
fn the_reference_counts_repetitions_of_whole_positions() {
    assert_eq!(Tempo::after(STONES_TAKEN).repetitions(), 1);
    assert_eq!(Tempo::after(STONES_TAKEN_TWICE).repetitions(), 2);
    assert_eq!(Tempo::after(TRIANGLE).repetitions(), 1);
    assert_eq!(Tempo::after(TRIANGLE_TWICE).repetitions(), 2);
    assert_eq!(Tempo::after(BACK_AND_FORTH).repetitions(), 2);
    let mut t = Tempo::after(BACK_AND_FORTH);
    for m in BACK_AND_FORTH.split_whitespace() {
        t.play_text(m);
    }
    assert_eq!(t.listing(), ["result: draw"]);
    let walled_in = format!("{WALLED} S@b2 S@d1");
    assert_eq!(Tempo::after(&walled_in).listing(), ["result: black"]);
}

/// Perft of the reference and of the engine from the start and after each sequence.
/// Depth 5 in a release build: the Kings can go out and back and the game still goes on.
#[test]
fn perft_matches_the_reference() {
    let g = tempo();
    let depth = if cfg!(debug_assertions) { 4 } else { 5 };
    for moves in [
        "",
        STONES_TAKEN,
        STONES_TAKEN_TWICE,
        TRIANGLE,
        TRIANGLE_TWICE,
        BACK_AND_FORTH,
        WALLED,
    ] {
        let mut reference = Tempo::after(moves);
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
    let g = tempo();
    let mut rng = Rng(0x7E3F_0B1D_5A5A_C0DE);
    let mut results = [0usize; 3];
    for game in 0..400 {
        let mut reference = Tempo::start();
        let mut pos = g.start();
        let mut played = Vec::new();
        loop {
            let want = reference.listing();
            let got = common::moves(&g, &pos);
            assert_eq!(got, want, "game {game} after [{}]", played.join(" "));
            if want[0].starts_with("result: ") {
                results[match want[0].as_str() {
                    "result: white" => 0,
                    "result: black" => 1,
                    _ => 2,
                }] += 1;
                break;
            }
            // Uniform among the moves, or half the time among the King's moves only:
            // Kings that wander make repetitions, with and without Stones taken.
            let steps: Vec<&String> = want.iter().filter(|m| m.contains('-')).collect();
            let m = if !steps.is_empty() && rng.below(2) == 0 {
                steps[rng.below(steps.len())].clone()
            } else {
                want[rng.below(want.len())].clone()
            };
            reference.play_text(&m);
            common::play(&g, &mut pos, &m);
            played.push(m);
        }
    }
    // Both sides win some games and some end in a draw by repetition.
    assert!(results.iter().all(|&n| n > 0), "{results:?}");
}

/// Prints the counts of docs/examples/tempo.tests:
/// `cargo test --release --test reference_tempo -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_perft_data() {
    for (moves, depth) in [
        ("", 6),
        (STONES_TAKEN, 6),
        (STONES_TAKEN_TWICE, 6),
        (TRIANGLE, 6),
        (TRIANGLE_TWICE, 6),
        (WALLED, 6),
    ] {
        println!("{}", if moves.is_empty() { "start" } else { moves });
        let mut t = Tempo::after(moves);
        for d in 1..=depth {
            println!("{d} {}", t.perft(d));
        }
    }
}
