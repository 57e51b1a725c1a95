//! The native module `regula._regula`: games, states, agents and matches for Python.
//!
//! Everything here goes through Regula's public API and knows no particular game. Long
//! computations (perft, playouts, agents' searches, match games) release the GIL.

mod actions;

use actions::{Layout, Parts};
use pyo3::exceptions::{PyFileNotFoundError, PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use regula::agents::Spec;
use regula::engine::{Engine, Move, Outcome, Position, Rng};
use regula::variants::{self, Choice};
use std::sync::{Arc, Mutex};

/// A loaded game: the engine and what describes it, shared by its states.
struct Loaded {
    engine: Engine,
    layout: Layout,
    path: String,
    variant: Option<String>,
    variants: Vec<(String, Option<String>)>,
    params: Vec<(String, i64, i64, i64, i64)>,
    /// Whether pieces may belong to no player (they get planes of their own).
    neutral: bool,
}

fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

fn render(path: &str, source: &str, diags: &[regula::diag::Diagnostic]) -> String {
    let index = regula::diag::SourceIndex::new(source);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| regula::diag::render_indexed(d, path, &index))
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A game loaded from a `.game` file for one ruleset.
#[pyclass(frozen, module = "regula._regula")]
#[derive(Clone)]
struct Game {
    inner: Arc<Loaded>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (path, variant=None, params=None))]
    fn new(
        path: &str,
        variant: Option<String>,
        params: Option<Vec<(String, i64)>>,
    ) -> PyResult<Game> {
        let file = std::path::Path::new(path);
        let source = regula::read_source(file).map_err(|e| match e {
            regula::LoadError::Unreadable { .. } if !file.exists() => {
                PyFileNotFoundError::new_err(e.to_string())
            }
            regula::LoadError::Unreadable { .. } => PyOSError::new_err(e.to_string()),
            _ => value_error(e.to_string()),
        })?;
        Game::build(path, &source, variant, params.unwrap_or_default())
    }

    /// A game from its source text.
    #[staticmethod]
    #[pyo3(signature = (source, variant=None, params=None))]
    fn from_source(
        source: &str,
        variant: Option<String>,
        params: Option<Vec<(String, i64)>>,
    ) -> PyResult<Game> {
        Game::build("<source>", source, variant, params.unwrap_or_default())
    }

    #[getter]
    fn name(&self) -> String {
        self.engine().game().name.clone()
    }

    #[getter]
    fn path(&self) -> String {
        self.inner.path.clone()
    }

    #[getter]
    fn variant(&self) -> Option<String> {
        self.inner.variant.clone()
    }

    /// Metadata lines of the game section (description, source, ...), in order.
    #[getter]
    fn meta(&self) -> Vec<(String, String)> {
        self.engine().game().meta.clone()
    }

    #[getter]
    fn players(&self) -> Vec<String> {
        let g = self.engine().game();
        g.players.iter().map(|p| p.name.clone()).collect()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.engine().players() as usize
    }

    /// The board's shape as `regula info` writes it: `9 x 9`, `hex 11 x 11`, `hexagon 5`.
    #[getter]
    fn board_shape(&self) -> String {
        use regula::geometry::Shape;
        match &self.engine().game().board {
            Shape::Square { files, ranks } => format!("{files} x {ranks}"),
            Shape::HexRhombus { files, ranks } => format!("hex {files} x {ranks}"),
            Shape::Hexagon { side } => format!("hexagon {side}"),
            Shape::Points { files, ranks, .. } => format!("points {files} x {ranks}"),
        }
    }

    /// (files, ranks) of the grid the board's cells sit on.
    #[getter]
    fn board_size(&self) -> (u8, u8) {
        self.engine().board().extent()
    }

    #[getter]
    fn num_cells(&self) -> u16 {
        self.engine().cells()
    }

    /// Cell names by index (`a1` first, rank by rank).
    #[getter]
    fn cells(&self) -> Vec<String> {
        let e = self.engine();
        (0..e.cells()).map(|c| e.cell_name(c)).collect()
    }

    /// Piece types: (name, letter).
    #[getter]
    fn pieces(&self) -> Vec<(String, String)> {
        let g = self.engine().game();
        g.pieces
            .iter()
            .map(|p| (p.name.clone(), p.letter.to_string()))
            .collect()
    }

    /// Names of the flags (cell marks), in the order of their observation planes.
    #[getter]
    fn flags(&self) -> Vec<String> {
        let g = self.engine().game();
        g.flags.iter().map(|f| f.name.clone()).collect()
    }

    /// Variants the file declares: (name, description).
    #[getter]
    fn variants(&self) -> Vec<(String, Option<String>)> {
        self.inner.variants.clone()
    }

    /// Parameters: (name, value, default, min, max).
    #[getter]
    fn parameters(&self) -> Vec<(String, i64, i64, i64, i64)> {
        self.inner.params.clone()
    }

    /// Whether pieces of no player have observation planes of their own.
    #[getter]
    fn has_neutral_pieces(&self) -> bool {
        self.inner.neutral
    }

    /// The size of the action space (see `action_layout`).
    fn num_distinct_actions(&self) -> u64 {
        self.inner.layout.size()
    }

    /// The factors of the action ids: cells, pieces, actions, piece choices, cell
    /// choices, the first overflow id and the number of overflow ids.
    fn action_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = &self.inner.layout;
        let d = PyDict::new(py);
        d.set_item("cells", l.cells)?;
        d.set_item("pieces", l.pieces)?;
        d.set_item("actions", l.actions)?;
        d.set_item("piece_choices", l.choices)?;
        d.set_item("cell_choices", l.cell_choices)?;
        d.set_item("overflow_base", l.overflow_base())?;
        d.set_item("overflow", actions::OVERFLOW)?;
        d.set_item("size", l.size())?;
        Ok(d)
    }

    /// A move written from its action id alone (a chosen cell after `/`; an overflow id
    /// has a meaning only in its position: see `State.action_to_string`).
    fn action_to_string(&self, action: u64) -> PyResult<String> {
        let p = self.decode(action)?;
        Ok(actions::parts_text(self.engine(), p))
    }

    /// The action id of a move in notation (a chain of hops by its first and last cells).
    fn string_to_action(&self, text: &str) -> PyResult<u64> {
        actions::parse_parts(self.engine(), text)
            .and_then(|p| self.inner.layout.encode(p))
            .ok_or_else(|| value_error(format!("`{text}` is not a move of {}", self.name())))
    }

    /// The position before the first move.
    fn new_state(&self) -> State {
        State::at(self.clone(), self.engine().start())
    }

    /// A state from a position in the notation of `regula show --position`.
    fn state_from_position(&self, text: &str) -> PyResult<State> {
        let pos = self
            .engine()
            .parse_position(text)
            .map_err(|e| value_error(format!("{}: `{text}`", e.message)))?;
        Ok(State::at(self.clone(), pos))
    }

    /// Number of move sequences of `depth` plies from the start (or `state`), on
    /// `threads` threads (all cores by default). Releases the GIL.
    #[pyo3(signature = (depth, threads=None, state=None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: u32,
        threads: Option<usize>,
        state: Option<&State>,
    ) -> PyResult<u64> {
        if let Some(s) = state {
            self.check_own(s)?;
        }
        let pos = state.map_or_else(|| self.engine().start(), |s| s.pos.clone());
        let threads = threads.unwrap_or_else(cores).max(1);
        let inner = self.inner.clone();
        Ok(py.allow_threads(move || inner.engine.perft_with(&pos, depth, threads)))
    }

    /// `count` random games from the start, game `i` seeded from (`seed`, `i`): the same
    /// figures on any number of threads. Returns a dict of counts (wins and losses per
    /// player), mean plies and seconds. Releases the GIL.
    #[pyo3(signature = (count, seed=1, max_plies=10_000, threads=None))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        count: u64,
        seed: u64,
        max_plies: u64,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let threads = threads.unwrap_or_else(cores).max(1);
        let inner = self.inner.clone();
        let s = py.allow_threads(move || {
            let start = inner.engine.start();
            inner
                .engine
                .playouts_with(&start, count, seed, max_plies, threads)
        });
        let d = PyDict::new(py);
        d.set_item("count", s.count)?;
        d.set_item("wins", s.wins.clone())?;
        d.set_item("losses", s.losses.clone())?;
        d.set_item("draws", s.draws)?;
        d.set_item("unfinished", s.unfinished)?;
        d.set_item("runaway", s.runaway)?;
        d.set_item("plies", s.plies)?;
        d.set_item("mean_plies", s.plies as f64 / s.count.max(1) as f64)?;
        d.set_item("seconds", s.seconds)?;
        Ok(d)
    }

    /// Plays the match games of indices `indices` between two agents (written like the
    /// command line's: `random`, `mcts:ITERATIONS`, ...), as `regula match` plays them:
    /// game `i` is seeded from (`seed`, `i`) and the first agent plays player
    /// `i % players`. Games are played `threads` at a time, without the GIL. Returns, per
    /// game: (index, first agent's player, moves, result kind `win`/`lose`/`draw`/
    /// `unfinished`, the player it names or -1, the result as `regula match` records it).
    #[pyo3(signature = (first, second, indices, seed=1, max_plies=10_000, threads=1, agent_threads=1))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn play_match_games(
        &self,
        py: Python<'_>,
        first: &str,
        second: &str,
        indices: Vec<u64>,
        seed: u64,
        max_plies: u64,
        threads: usize,
        agent_threads: usize,
    ) -> PyResult<Vec<(u64, u8, Vec<String>, String, i32, String)>> {
        let specs = [spec(first)?, spec(second)?];
        let inner = self.inner.clone();
        let games = py.allow_threads(move || {
            let engine = &inner.engine;
            let start = engine.start();
            let next = std::sync::atomic::AtomicUsize::new(0);
            let results = Mutex::new(Vec::new());
            std::thread::scope(|s| {
                for _ in 0..threads.clamp(1, indices.len().max(1)) {
                    s.spawn(|| {
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&i) = indices.get(k) else { break };
                            let g =
                                play_one(engine, &start, &specs, i, seed, agent_threads, max_plies);
                            results
                                .lock()
                                .expect("no thread panics holding it")
                                .push((i, g));
                        }
                    });
                }
            });
            let mut games = results.into_inner().expect("no thread panics holding it");
            games.sort_by_key(|g| g.0);
            games
        });
        let engine = self.engine();
        Ok(games
            .into_iter()
            .map(|(i, (first_plays, moves, outcome))| {
                let (kind, who) = outcome_parts(outcome);
                let text = outcome.map_or_else(|| "unfinished".into(), |o| engine.outcome_text(o));
                (i, first_plays, moves, kind.to_string(), who, text)
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        match &self.inner.variant {
            Some(v) => format!("<regula.Game {} ({v})>", self.name()),
            None => format!("<regula.Game {}>", self.name()),
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn spec(text: &str) -> PyResult<Spec> {
    match text.parse::<Spec>() {
        Ok(Spec::Human) => Err(value_error("a human cannot play through the binding")),
        Ok(s) => Ok(s),
        Err(e) => Err(value_error(format!("{e} ({})", e.hint))),
    }
}

fn outcome_parts(o: Option<Outcome>) -> (&'static str, i32) {
    match o {
        Some(Outcome::Win(p)) => ("win", p as i32),
        Some(Outcome::Lose(p)) => ("lose", p as i32),
        Some(Outcome::Draw) => ("draw", -1),
        None => ("unfinished", -1),
    }
}

/// One game of a match, seeded as `regula match` seeds game `index`, so that the same
/// seed gives the same games as the command line.
fn play_one(
    engine: &Engine,
    start: &Position,
    specs: &[Spec; 2],
    index: u64,
    seed: u64,
    agent_threads: usize,
    max_plies: u64,
) -> (u8, Vec<String>, Option<Outcome>) {
    let n = engine.players();
    let first_plays = (index % n as u64) as u8;
    let game_seed = Rng::for_playout(seed, index).below(usize::MAX) as u64;
    let mut agents: Vec<_> = (0..n)
        .map(|p| {
            let which = usize::from(p != first_plays);
            specs[which]
                .build(
                    engine,
                    Rng::for_playout(game_seed, p as u64).below(usize::MAX) as u64,
                    agent_threads.max(1),
                )
                .expect("match agents are not human")
        })
        .collect();
    let mut pos = start.clone();
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    loop {
        if let Some(o) = engine.status(&pos, &mut buf) {
            return (first_plays, moves, Some(o));
        }
        if moves.len() as u64 >= max_plies {
            return (first_plays, moves, None);
        }
        let c = agents[pos.to_move() as usize].choose(engine, &pos, &buf);
        moves.push(engine.notation(&c.mv));
        engine.play(&mut pos, &c.mv);
        for a in &mut agents {
            a.observe(engine, &c.mv);
        }
    }
}

impl Game {
    fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    fn build(
        path: &str,
        source: &str,
        variant: Option<String>,
        params: Vec<(String, i64)>,
    ) -> PyResult<Game> {
        let choice = Choice {
            variant: variant.clone(),
            set: params,
        };
        let program = match regula::compile_with(source, &choice) {
            Ok((program, _)) => program,
            Err(diags) => return Err(value_error(render(path, source, &diags))),
        };
        let parsed = regula::syntax::parse(source);
        let declared = variants::variants(&parsed.file);
        let params = variants::resolve(parsed.file, &choice).params;
        let layout = Layout::new(&program);
        let g = &program.game;
        let players = g.players.len() as u8;
        // Any mention of neutral ownership in the rules may put such a piece on the board.
        let neutral = g.setup.iter().any(|p| p.player >= players)
            || format!("{program:?}").contains("Neutral");
        Ok(Game {
            inner: Arc::new(Loaded {
                engine: Engine::new(program),
                layout,
                path: path.to_string(),
                variant,
                variants: declared
                    .into_iter()
                    .map(|v| (v.name, v.description))
                    .collect(),
                params: params
                    .into_iter()
                    .map(|p| (p.name, p.value, p.default, p.min, p.max))
                    .collect(),
                neutral,
            }),
        })
    }

    /// Refuses a state of another game (the engine would not know its position).
    fn check_own(&self, state: &State) -> PyResult<()> {
        if Arc::ptr_eq(&self.inner, &state.game.inner) {
            Ok(())
        } else {
            Err(value_error(format!(
                "a state of {}, not of this {} (load the game once and use its states)",
                state.game.name(),
                self.name()
            )))
        }
    }

    fn decode(&self, action: u64) -> PyResult<Parts> {
        self.inner
            .layout
            .decode(action)
            .ok_or_else(|| value_error(format!("{action} is not an action id of {}", self.name())))
    }
}

/// A position of a game, with the moves that led to it (for `undo`).
#[pyclass(module = "regula._regula")]
#[derive(Clone)]
struct State {
    game: Game,
    pos: Position,
    /// Positions before each move played, and the moves, for `undo` and `history`.
    history: Vec<(Position, String)>,
    /// The result, or the legal moves sorted by notation with their action ids.
    outcome: Option<Outcome>,
    legal: Vec<(String, Move)>,
    ids: Vec<u64>,
    /// Set when the legal moves cannot all be given action ids.
    id_error: Option<String>,
}

impl State {
    fn at(game: Game, pos: Position) -> State {
        let mut s = State {
            game,
            pos,
            history: Vec::new(),
            outcome: None,
            legal: Vec::new(),
            ids: Vec::new(),
            id_error: None,
        };
        s.refresh();
        s
    }

    fn refresh(&mut self) {
        let engine = &self.game.inner.engine;
        let mut buf = Vec::new();
        self.outcome = engine.status(&self.pos, &mut buf);
        self.legal = if self.outcome.is_some() {
            Vec::new()
        } else {
            buf.iter().map(|m| (engine.notation(m), *m)).collect()
        };
        self.legal.sort_by(|a, b| a.0.cmp(&b.0));
        let moves: Vec<Move> = self.legal.iter().map(|l| l.1).collect();
        match actions::assign(&self.game.inner.layout, &moves) {
            Ok(ids) => {
                self.ids = ids;
                self.id_error = None;
            }
            Err(e) => {
                self.ids = Vec::new();
                self.id_error = Some(e);
            }
        }
    }

    fn engine(&self) -> &Engine {
        &self.game.inner.engine
    }

    fn index_of_text(&self, text: &str) -> PyResult<usize> {
        if let Some(o) = self.outcome {
            return Err(value_error(format!(
                "`{text}`: the game is already over (result: {})",
                self.engine().outcome_text(o)
            )));
        }
        self.legal
            .binary_search_by(|l| l.0.as_str().cmp(text))
            .map_err(|_| {
                let legal: Vec<&str> = self.legal.iter().map(|l| l.0.as_str()).collect();
                value_error(format!(
                    "`{text}` is not legal for {} here; legal moves: {}",
                    self.engine().player_name(self.pos.to_move()),
                    legal.join(" ")
                ))
            })
    }

    fn index_of_action(&self, action: u64) -> PyResult<usize> {
        if let Some(e) = &self.id_error {
            return Err(value_error(e.clone()));
        }
        match self.ids.iter().position(|&a| a == action) {
            Some(i) => Ok(i),
            None if self.outcome.is_some() => Err(value_error(format!(
                "action {action}: the game is already over (result: {})",
                self.engine().outcome_text(self.outcome.expect("checked"))
            ))),
            None => {
                let what = self
                    .game
                    .inner
                    .layout
                    .decode(action)
                    .map(|p| format!(" (`{}`)", actions::parts_text(self.engine(), p)))
                    .unwrap_or_default();
                Err(value_error(format!(
                    "action {action}{what} is not legal for {} here",
                    self.engine().player_name(self.pos.to_move())
                )))
            }
        }
    }
}

#[pymethods]
impl State {
    #[getter]
    fn game(&self) -> Game {
        self.game.clone()
    }

    /// The legal moves in notation, sorted (empty when the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.legal.iter().map(|l| l.0.clone()).collect()
    }

    /// The action ids of the legal moves, ascending.
    fn legal_actions(&self) -> PyResult<Vec<u64>> {
        if let Some(e) = &self.id_error {
            return Err(value_error(e.clone()));
        }
        let mut ids = self.ids.clone();
        ids.sort_unstable();
        Ok(ids)
    }

    /// The legal moves as (action id, notation), in notation order.
    fn legal_pairs(&self) -> PyResult<Vec<(u64, String)>> {
        if let Some(e) = &self.id_error {
            return Err(value_error(e.clone()));
        }
        Ok(self
            .ids
            .iter()
            .zip(&self.legal)
            .map(|(&a, l)| (a, l.0.clone()))
            .collect())
    }

    /// The notation of a legal move's action id (exact, also for overflow ids).
    fn action_to_string(&self, action: u64) -> PyResult<String> {
        match self.index_of_action(action) {
            Ok(i) => Ok(self.legal[i].0.clone()),
            Err(_) => self.game.action_to_string(action),
        }
    }

    /// The action id of a legal move in notation.
    fn string_to_action(&self, text: &str) -> PyResult<u64> {
        let i = self.index_of_text(text)?;
        match &self.id_error {
            Some(e) => Err(value_error(e.clone())),
            None => Ok(self.ids[i]),
        }
    }

    /// Plays a move: its notation (a str) or its action id (an int).
    fn apply(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = if let Ok(text) = mv.extract::<String>() {
            self.index_of_text(&text)?
        } else if let Ok(a) = mv.extract::<u64>() {
            self.index_of_action(a)?
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a move is its notation (str) or its action id (int)",
            ));
        };
        let (text, m) = self.legal[i].clone();
        let before = self.pos.clone();
        self.game.inner.engine.play(&mut self.pos, &m);
        self.history.push((before, text));
        self.refresh();
        Ok(())
    }

    /// Takes back the last move.
    fn undo(&mut self) -> PyResult<()> {
        let (pos, _) = self
            .history
            .pop()
            .ok_or_else(|| PyIndexError::new_err("no move to undo"))?;
        self.pos = pos;
        self.refresh();
        Ok(())
    }

    /// A copy of this state, history included.
    #[pyo3(name = "clone")]
    fn clone_state(&self) -> State {
        self.clone()
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The moves played since this state's start, in notation.
    fn history(&self) -> Vec<String> {
        self.history.iter().map(|h| h.1.clone()).collect()
    }

    fn is_terminal(&self) -> bool {
        self.outcome.is_some()
    }

    /// The player to move (an index into `game.players`); when the game is over, the
    /// player who would be next.
    fn current_player(&self) -> u8 {
        self.pos.to_move()
    }

    /// Per player: 0 while the game goes on or for a draw; +1 for a win and -1 for a
    /// loss. With three players or more the total is 0: a single winner gets +1 and the
    /// others share -1; a single loser gets -1 and the others share +1.
    fn returns(&self) -> Vec<f64> {
        let n = self.engine().players() as usize;
        let share = 1.0 / (n.max(2) - 1) as f64;
        match self.outcome {
            Some(Outcome::Win(p)) => (0..n)
                .map(|i| if i == p as usize { 1.0 } else { -share })
                .collect(),
            Some(Outcome::Lose(p)) => (0..n)
                .map(|i| if i == p as usize { -1.0 } else { share })
                .collect(),
            _ => vec![0.0; n],
        }
    }

    /// The result as `regula` writes it (`white`, `draw`, `black loses`), or None.
    fn result(&self) -> Option<String> {
        self.outcome.map(|o| self.engine().outcome_text(o))
    }

    /// The winner's index, or None (a draw, a loss in a game of three or more, or no
    /// result yet).
    fn winner(&self) -> Option<u8> {
        self.outcome.and_then(|o| o.winner())
    }

    /// Every player's score, when the game declares one.
    fn scores(&self) -> Option<Vec<i64>> {
        self.engine().scores_of(&self.pos)
    }

    /// Moves played since the start of the game (passes included).
    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    /// The position in the notation of `regula show --position`.
    fn position(&self) -> String {
        self.engine().position_text(&self.pos)
    }

    /// The piece on a cell (a name such as `e5`, or an index): (owner, piece name), the
    /// owner a player's name or `neutral`; None when the cell is empty.
    fn piece_at(&self, cell: &Bound<'_, PyAny>) -> PyResult<Option<(String, String)>> {
        let engine = self.engine();
        let c = if let Ok(name) = cell.extract::<String>() {
            engine
                .board()
                .cell(&name)
                .ok_or_else(|| value_error(format!("no cell `{name}` on this board")))?
        } else {
            let c: u16 = cell.extract()?;
            if c >= engine.cells() {
                return Err(value_error(format!("no cell {c} on this board")));
            }
            c
        };
        let g = engine.game();
        Ok(engine.piece_at(&self.pos, c).map(|(owner, piece)| {
            let owner = g
                .players
                .get(owner as usize)
                .map_or("neutral".to_string(), |p| p.name.clone());
            (owner, g.pieces[piece as usize].name.clone())
        }))
    }

    /// The board as `regula show` draws it.
    fn __str__(&self) -> String {
        self.engine().render(&self.pos)
    }

    fn __repr__(&self) -> String {
        format!("<regula.State {}>", self.position())
    }

    /// The shape of `observation_tensor()`: (planes, ranks, files).
    fn observation_shape(&self) -> (usize, usize, usize) {
        observation_shape(&self.game)
    }

    /// The position as a float32 numpy array of shape (planes, ranks, files), the top rank
    /// first (as `regula show` draws it):
    /// - one plane per (owner, piece type), owners in player order then, when the game
    ///   has neutral pieces, neutral: 1 where such a piece stands;
    /// - one plane per flag: 1 where it is set;
    /// - when the game has hands, one plane per (player, piece type): the number in hand;
    /// - one plane: the index of the player to move.
    ///
    /// Grid positions without a cell (hexagonal boards) are 0 in every plane.
    fn observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let data = self.observation_values();
        let (p, r, f) = observation_shape(&self.game);
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let np = py.import("numpy")?;
        let array = np.call_method1("frombuffer", (PyBytes::new(py, &bytes), "<f4"))?;
        // A copy, so that the array is writable and owns its memory.
        array
            .call_method1("reshape", ((p, r, f),))?
            .call_method0("copy")
    }

    /// `observation_tensor()` as a flat list, for callers without numpy.
    fn observation_list(&self) -> Vec<f32> {
        self.observation_values()
    }
}

fn has_hands(game: &Game) -> bool {
    !game.engine().game().hand.is_empty()
}

fn owners(game: &Game) -> usize {
    game.engine().players() as usize + usize::from(game.inner.neutral)
}

fn observation_shape(game: &Game) -> (usize, usize, usize) {
    let e = game.engine();
    let g = e.game();
    let (files, ranks) = e.board().extent();
    let players = e.players() as usize;
    let pieces = g.pieces.len();
    let hands = if has_hands(game) { players * pieces } else { 0 };
    let planes = owners(game) * pieces + g.flags.len() + hands + 1;
    (planes, ranks as usize, files as usize)
}

impl State {
    fn observation_values(&self) -> Vec<f32> {
        let e = self.engine();
        let g = e.game();
        let (planes, ranks, files) = observation_shape(&self.game);
        let area = ranks * files;
        let mut out = vec![0f32; planes * area];
        let pieces = g.pieces.len();
        let players = e.players() as usize;
        let at = |c: u16| {
            let (f, r) = e.board().coords(c);
            (ranks - 1 - r as usize) * files + f as usize
        };
        for c in 0..e.cells() {
            if let Some((owner, piece)) = e.piece_at(&self.pos, c) {
                let owner = (owner as usize).min(owners(&self.game) - 1);
                out[(owner * pieces + piece as usize) * area + at(c)] = 1.0;
            }
        }
        let mut plane = owners(&self.game) * pieces;
        for f in 0..g.flags.len() {
            for c in 0..e.cells() {
                if self.pos.flag(f as u8, c) {
                    out[plane * area + at(c)] = 1.0;
                }
            }
            plane += 1;
        }
        if has_hands(&self.game) {
            for p in 0..players {
                for k in 0..pieces {
                    let n = self.pos.in_hand(p as u8, k as u8) as f32;
                    out[plane * area..(plane + 1) * area].fill(n);
                    plane += 1;
                }
            }
        }
        out[plane * area..(plane + 1) * area].fill(self.pos.to_move() as f32);
        out
    }
}

/// An agent of the command line (`random`, `flat:PLAYOUTS`, `mcts:ITERATIONS`,
/// `mcts:TIME`, `alphabeta:DEPTH`) playing a game from Python.
#[pyclass(module = "regula._regula")]
struct Agent {
    game: Game,
    spec: String,
    agent: Mutex<Box<dyn regula::agents::Agent>>,
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (game, spec, seed=1, threads=1))]
    fn new(game: Game, spec: &str, seed: u64, threads: usize) -> PyResult<Agent> {
        let s = self::spec(spec)?;
        let agent = s
            .build(game.engine(), seed, threads.max(1))
            .expect("humans are refused above");
        Ok(Agent {
            game,
            spec: s.to_string(),
            agent: Mutex::new(agent),
        })
    }

    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The move the agent chooses in `state`, in notation (the state is not changed).
    /// The agent keeps what it learnt: tell it the moves played with `observe`, or call
    /// `reset` when the game changes otherwise. Releases the GIL while it thinks.
    fn choose(&self, py: Python<'_>, state: &State) -> PyResult<String> {
        self.game.check_own(state)?;
        if state.outcome.is_some() {
            return Err(value_error("the game is over: there is no move to choose"));
        }
        let moves: Vec<Move> = state.legal.iter().map(|l| l.1).collect();
        let pos = state.pos.clone();
        let inner = self.game.inner.clone();
        let mv = py.allow_threads(|| {
            let mut agent = self.agent.lock().expect("no thread panics holding it");
            agent.choose(&inner.engine, &pos, &moves).mv
        });
        Ok(self.game.engine().notation(&mv))
    }

    /// Tells the agent a move was played in `state` (before it is applied there).
    fn observe(&self, state: &State, mv: &str) -> PyResult<()> {
        self.game.check_own(state)?;
        let i = state.index_of_text(mv)?;
        let m = state.legal[i].1;
        let mut agent = self.agent.lock().expect("no thread panics holding it");
        agent.observe(self.game.engine(), &m);
        Ok(())
    }

    /// Forgets the game in progress.
    fn reset(&self) {
        self.agent
            .lock()
            .expect("no thread panics holding it")
            .reset();
    }
}

#[pymodule]
fn _regula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    Ok(())
}
