//! Random valid games, written as text from the grammar's constructs, and the invariants
//! every game's engine must keep. Used by `tests/generated_games.rs`; stable Rust, no
//! fuzzer needed.

use crate::engine::Engine;
use crate::engine::Move;
use crate::engine::search::Rng;

/// A small random game in the language: every file it writes compiles (a test checks
/// it), and together they use every kind of rule: steps, slides, leaps, placements,
/// conditions, effects, `after move` blocks, `legal if`, passes, scores and end rules.
pub fn random_game(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
    };
    g.game(seed)
}

struct Gen {
    rng: Rng,
}

const NAMES: [&str; 4] = ["Guard", "Runner", "Jumper", "Stone"];
const LETTERS: [char; 4] = ['G', 'R', 'J', 'S'];
const DIRS: [&str; 9] = [
    "orthogonal",
    "diagonal",
    "all",
    "north",
    "forward",
    "forward, backward",
    "left, right",
    "forward-left, forward-right",
    "east, west",
];
const TARGETS: [&str; 6] = [
    "empty",
    "empty or enemy",
    "not friend",
    "enemy",
    "empty and not in goal",
    "any",
];

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }

    fn game(&mut self, seed: u64) -> String {
        let files = 3 + self.below(6) as u8;
        let ranks = 3 + self.below(6) as u8;
        let types = 1 + self.below(NAMES.len());
        let mut out = format!(
            "game \"Generated {seed}\" {{ }}\nplayers {{ white forward north  black forward south }}\nboard {files} x {ranks}\n"
        );
        out.push_str(&format!(
            "region goal {{ white: rank {ranks}  black: rank 1 }}\n"
        ));
        for (name, letter) in NAMES.iter().zip(LETTERS).take(types) {
            out.push_str(&format!("piece {name} letter {letter}\n"));
        }
        let has_flag = self.chance(30);
        if has_flag {
            out.push_str("flag mark = a1\n");
        }
        let has_counter = self.chance(30);
        if has_counter {
            out.push_str("counter tally = 0\n");
        }
        // Distinct cells for the setup, white from the first rank up, black from the last
        // rank down.
        let cells: Vec<String> = (1..=ranks)
            .flat_map(|r| (0..files).map(move |f| format!("{}{r}", (b'a' + f) as char)))
            .collect();
        let per_side = 1 + self.below((cells.len() / 3).max(1));
        let mut setup = String::from("setup {");
        for (player, side) in [
            ("white", &cells[..per_side]),
            ("black", &cells[cells.len() - per_side..]),
        ] {
            for cell in side {
                let t = self.below(types);
                setup.push_str(&format!(" {player} {} {cell}", NAMES[t]));
            }
        }
        setup.push_str(" }\n");
        out.push_str(&setup);
        let placing = self.chance(30);
        if placing {
            let n = 1 + self.below(4);
            out.push_str(&format!(
                "hand {{ white {} {n}  black {} {n} }}\n",
                NAMES[types - 1],
                NAMES[types - 1]
            ));
        }
        for (t, name) in NAMES.iter().enumerate().take(types) {
            let rules = self.rules(t, types, placing && t == types - 1, has_flag, has_counter);
            out.push_str(&format!("moves {name} {{\n{rules}}}\n"));
        }
        if self.chance(30) {
            out.push_str(&format!(
                "after move of {} {{\n  for d in orthogonal {{ if to + d is enemy and to + d + d is friend {{ remove to + d }} }}\n}}\n",
                NAMES[self.below(types)]
            ));
        }
        if self.chance(30) {
            let legal = self.pick(&[
                "not (find friend Guard is attacked)",
                "count cells where friend >= 1",
                "from is empty",
                "any d in orthogonal: to + d is not enemy or true",
            ]);
            out.push_str(&format!("legal if {legal}\n"));
        }
        if self.chance(25) {
            out.push_str("pass when no moves\n");
        }
        let scored = self.chance(25);
        if scored {
            out.push_str("score = count cells where friend\n");
        }
        out.push_str("end {\n");
        if scored {
            out.push_str("  when passes >= 1 and no moves: higher score wins\n");
        }
        if self.chance(50) {
            out.push_str("  when as previous: last-to in goal: previous wins\n");
        }
        if self.chance(50) {
            out.push_str("  when count cells where friend == 0: next loses\n");
        }
        if self.chance(50) {
            out.push_str("  when repetitions >= 3: draw\n");
        }
        out.push_str(&format!(
            "  when moves-made(previous) >= {}: draw\n",
            5 + self.below(40)
        ));
        out.push_str("  when no moves: next loses\n}\n");
        out
    }

    fn rules(&mut self, t: usize, types: usize, place: bool, flag: bool, counter: bool) -> String {
        let mut out = String::new();
        if place {
            out.push_str("  place on empty and not in goal\n");
        }
        for _ in 0..1 + self.below(3) {
            let dirs = self.pick(&DIRS);
            let to = self.pick(&TARGETS);
            let stmt = match self.below(5) {
                0 => format!("step {dirs} to {to}"),
                1 => format!("slide {dirs} max {} to {to}", 1 + self.below(4)),
                2 => format!("leap {} {} to {to}", self.below(3), 1 + self.below(3)),
                3 => format!("step {dirs} to {to} if to + forward is empty or to in goal"),
                _ => format!("for d in {dirs} {{ if to + d is empty {{ move to to + d }} }}"),
            };
            let mut effects = Vec::new();
            if self.chance(30) {
                effects.push("if to is enemy { remove to }".to_string());
            }
            if self.chance(15) {
                effects.push("flip to".to_string());
            }
            if self.chance(15) && types > 1 {
                let other = NAMES[(t + 1) % types];
                effects.push(format!("if to in goal {{ change to to {other} }}"));
            }
            if self.chance(10) {
                effects.push(format!("put {} at from", NAMES[t]));
            }
            if flag && self.chance(30) {
                effects.push("set mark at to  clear mark at from".to_string());
            }
            if counter && self.chance(30) {
                effects.push("tally += 1".to_string());
            }
            if effects.is_empty() || stmt.starts_with("for") {
                out.push_str(&format!("  {stmt}\n"));
            } else {
                out.push_str(&format!("  {stmt} then {{ {} }}\n", effects.join("  ")));
            }
        }
        out
    }
}

/// Checks the invariants of a game's engine, with the random choices of `seed`:
/// - perft at depth 1 to 3 equals the sum of `divide`, and the status lists as many moves
///   as perft 1 counts (none when the game is over);
/// - a random game, replayed from its notation move by move, reaches the same states
///   (hash included) and the same status at every ply;
/// - a finished game has no moves, and stays finished when replayed.
pub fn check_engine(engine: &Engine, seed: u64, plies: usize) {
    let start = engine.start();
    for depth in 1..=3 {
        let total = engine.perft(&start, depth);
        let divided: u64 = engine.divide(&start, depth).iter().map(|r| r.1).sum();
        assert_eq!(
            total, divided,
            "perft {depth} differs from the sum of divide"
        );
    }
    let mut rng = Rng::new(seed);
    let mut pos = engine.start();
    let mut buf: Vec<Move> = Vec::new();
    let mut line: Vec<String> = Vec::new();
    let mut states = vec![pos.clone()];
    for _ in 0..plies {
        let status = engine.status(&pos, &mut buf);
        assert_eq!(
            buf.len() as u64,
            engine.perft(&pos, 1),
            "the moves listed and perft 1 differ after {line:?}"
        );
        if status.is_some() {
            assert!(buf.is_empty(), "a finished game has moves after {line:?}");
            break;
        }
        let m = buf[rng.below(buf.len())];
        line.push(engine.notation(&m));
        engine.play(&mut pos, &m);
        states.push(pos.clone());
    }
    let mut replayed = engine.start();
    for (i, name) in line.iter().enumerate() {
        engine
            .replay(&mut replayed, &[name.as_str()])
            .unwrap_or_else(|e| panic!("move {} of {line:?} does not replay: {e}", i + 1));
        assert!(
            replayed == states[i + 1],
            "replaying {line:?} gives another state after move {}",
            i + 1
        );
    }
    assert_eq!(replayed.repetitions(), pos.repetitions());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    assert_eq!(
        engine.status(&replayed, &mut a),
        engine.status(&pos, &mut b)
    );
    assert_eq!(a, b);
}
