//! What `--format json` prints: small structures, one per verb, serialized with serde.
//! docs/JSON.md documents each; field names are part of the command-line contract.

use regula::engine::{Engine, Position};
use serde::Serialize;

/// Prints a value as one line of JSON on standard output.
pub fn print_json(value: &impl Serialize) -> i32 {
    match serde_json::to_string(value) {
        Ok(text) => super::print(&(text + "\n")),
        Err(e) => {
            eprintln!("error: internal failure: the output cannot be written as JSON ({e})");
            101
        }
    }
}

/// `regula moves`: the legal moves, or the result of a finished game.
#[derive(Serialize)]
pub struct Moves {
    /// The player to move; `null` when the game is over.
    pub to_move: Option<String>,
    /// In canonical notation, sorted in byte order; empty when the game is over.
    pub moves: Vec<String>,
    /// A player's name, `draw`, or `NAME loses`; `null` while the game goes on.
    pub result: Option<String>,
}

/// `regula perft`.
#[derive(Serialize)]
pub struct Perft {
    pub depth: u32,
    pub count: u64,
    /// With `--divide`: the count below each root move, sorted by move; otherwise `null`.
    pub divide: Option<Vec<DivideRow>>,
    /// With `--stats`: wall-clock time and speed; otherwise `null`.
    pub seconds: Option<f64>,
    pub nodes_per_second: Option<f64>,
}

#[derive(Serialize)]
pub struct DivideRow {
    #[serde(rename = "move")]
    pub mv: String,
    pub count: u64,
}

/// `regula playout`.
#[derive(Serialize)]
pub struct Playout {
    pub playouts: u64,
    pub seed: u64,
    pub max_plies: u64,
    /// Per player, in the order the game declares them.
    pub players: Vec<PlayerOutcome>,
    pub draws: u64,
    pub draw_share: f64,
    /// Games stopped at `max_plies`.
    pub unfinished: u64,
    pub unfinished_share: f64,
    pub plies: u64,
    pub mean_plies: f64,
    pub seconds: f64,
    pub playouts_per_second: f64,
    pub plies_per_second: f64,
}

#[derive(Serialize)]
pub struct PlayerOutcome {
    pub name: String,
    pub wins: u64,
    pub win_share: f64,
    /// Games this player lost while the others shared the result (three players or more).
    pub losses: u64,
    pub loss_share: f64,
}

/// `regula bench`.
#[derive(Serialize)]
pub struct Bench {
    pub threads: usize,
    pub seconds: f64,
    /// Mean speed of the calibration loop (steps per second, one thread).
    pub calibration_steps_per_second: f64,
    pub games: Vec<BenchGame>,
}

#[derive(Serialize)]
pub struct BenchGame {
    pub file: String,
    pub name: String,
    pub plies_per_second: f64,
    pub playouts_per_second: f64,
    pub mean_plies: f64,
    pub plies_per_mstep: f64,
    /// With `--agents`: MCTS iterations per second from the start, in all and per thread.
    pub mcts_iterations_per_second: Option<f64>,
    pub mcts_iterations_per_second_per_thread: Option<f64>,
}

/// `regula show`: a position.
#[derive(Serialize)]
pub struct Shown {
    pub game: String,
    pub board: Board,
    /// The occupied cells, in the order of `board.cells`.
    pub pieces: Vec<PieceOn>,
    /// Each flag of the game with the cells where it is set.
    pub flags: Vec<FlagCells>,
    /// The player to move; `null` when the game is over.
    pub to_move: Option<String>,
    /// A player's name, `draw`, or `NAME loses`; `null` while the game goes on.
    pub result: Option<String>,
    /// Pieces in hand, for the players the game gives a hand (or who hold something).
    pub hands: Vec<Hand>,
    /// Every player's score, when the game declares one; otherwise `null`.
    pub scores: Option<Vec<Score>>,
    /// Moves played so far, passes included.
    pub ply: u32,
    /// The position notation (what `--from` reads).
    pub position: String,
}

#[derive(Serialize)]
pub struct Board {
    /// As `regula info` writes it: `8 x 8`, `hex 11 x 11`, `hexagon 5`, `points 7 x 7`.
    pub shape: String,
    /// Every cell's name, rank by rank from a1.
    pub cells: Vec<String>,
}

#[derive(Serialize)]
pub struct PieceOn {
    pub cell: String,
    pub piece: String,
    pub letter: String,
    /// The owner's name; `null` for a neutral piece.
    pub owner: Option<String>,
}

#[derive(Serialize)]
pub struct FlagCells {
    pub name: String,
    pub cells: Vec<String>,
}

#[derive(Serialize)]
pub struct Hand {
    pub player: String,
    pub pieces: Vec<InHand>,
}

#[derive(Serialize)]
pub struct InHand {
    pub piece: String,
    pub count: u16,
}

#[derive(Serialize)]
pub struct Score {
    pub player: String,
    pub score: i64,
}

/// `regula replay`.
#[derive(Serialize)]
pub struct Replay {
    pub moves: Vec<String>,
    /// The result the moves lead to: a player's name, `draw`, `NAME loses` or `unfinished`.
    pub result: String,
    /// The result the record states after `result:`, if it states one.
    pub stated_result: Option<String>,
    /// The final position.
    #[serde(rename = "final")]
    pub last: Shown,
    /// With `--each`: every position from the start, one per move; otherwise `null`.
    pub positions: Option<Vec<Shown>>,
}

/// A position as [`Shown`].
pub fn shown(engine: &Engine, pos: &Position) -> Shown {
    let g = engine.game();
    let name = |p: u8| engine.player_name(p).to_string();
    let cells: Vec<String> = (0..engine.cells()).map(|c| engine.cell_name(c)).collect();
    let pieces = (0..engine.cells())
        .filter_map(|c| {
            let (owner, piece) = engine.piece_at(pos, c)?;
            let p = &g.pieces[piece as usize];
            Some(PieceOn {
                cell: cells[c as usize].clone(),
                piece: p.name.clone(),
                letter: p.letter.to_string(),
                owner: (owner < engine.players()).then(|| name(owner)),
            })
        })
        .collect();
    let flags = g
        .flags
        .iter()
        .enumerate()
        .map(|(f, flag)| FlagCells {
            name: flag.name.clone(),
            cells: (0..engine.cells())
                .filter(|&c| pos.flag(f as u8, c))
                .map(|c| cells[c as usize].clone())
                .collect(),
        })
        .collect();
    let hands = (0..engine.players())
        .filter_map(|p| {
            let held: Vec<InHand> = (0..g.pieces.len())
                .filter(|&i| pos.in_hand(p, i as u8) > 0)
                .map(|i| InHand {
                    piece: g.pieces[i].name.clone(),
                    count: pos.in_hand(p, i as u8),
                })
                .collect();
            let declared = g.hand.iter().any(|h| h.0 == p);
            (declared || !held.is_empty()).then(|| Hand {
                player: name(p),
                pieces: held,
            })
        })
        .collect();
    let scores = engine.scores_of(pos).map(|s| {
        s.iter()
            .enumerate()
            .map(|(p, &score)| Score {
                player: name(p as u8),
                score,
            })
            .collect()
    });
    let outcome = engine.status(pos, &mut Vec::new());
    Shown {
        game: g.name.clone(),
        board: Board {
            shape: crate::choice::shape_text(&g.board),
            cells,
        },
        pieces,
        flags,
        to_move: outcome.is_none().then(|| name(pos.to_move())),
        result: outcome.map(|o| engine.outcome_text(o)),
        hands,
        scores,
        ply: pos.ply(),
        position: engine.position_text(pos),
    }
}
