//! Stage 3: IR → runtime. `Engine::new` compiles a checked program once into tables
//! (neighbours, leap targets, regions as bit sets, reach sets, hash keys); the engine then
//! answers what the legal moves are, plays them, and says when and how the game ends.

mod compile;
mod eval;
pub mod search;
pub mod state;

use crate::ir::{self, Outcome as IrOutcome, Program, Stmt};
pub use eval::Ctx;
use state::{Bits, Move, MoveKind, NONE, State, code, owner_of, piece_of};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Hand counts are hashed modulo this: two positions that differ only by this many pieces
/// in one hand (with the same board) would look alike, which placement games never reach.
const HAND_KEYS: usize = 256;

const DELTAS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Draw,
}

pub struct Engine {
    pub program: Program,
    pub cells: u16,
    files: u16,
    /// `nb[cell][dir]`: the neighbour in that direction, or `NONE`.
    nb: Vec<[u16; 8]>,
    /// `rays[cell][dir]`: the cells from the neighbour to the board's edge, as a range
    /// into `ray_cells`; slides walk them without testing for the edge.
    rays: Vec<[(u32, u32); 8]>,
    ray_cells: Vec<u16>,
    forward: [u8; 2],
    /// Per leap: targets of every cell, as ranges into `leap_cells`.
    leap_index: Vec<Vec<(u32, u32)>>,
    leap_cells: Vec<u16>,
    /// Per region, per player.
    regions: Vec<[Bits; 2]>,
    /// Rules used for `attacked` and `count attacks`, per piece type.
    attack_rules: Vec<Vec<Stmt>>,
    /// Per piece type and origin: every cell its attack rules could ever reach.
    reach: Vec<Vec<Bits>>,
    /// Whether a piece type has several rules that could produce the same move.
    may_duplicate: Vec<bool>,
    zobrist: Vec<u64>,
    zobrist_side: u64,
    /// Precomputed cell tests (see `compile`).
    tables: Vec<Box<compile::Table>>,
}

/// A state plus the history that repetition rules need.
#[derive(Clone)]
pub struct Position {
    pub state: State,
    seen: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

/// Position hashes are already uniformly random: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Position {
    pub fn repetitions(&self) -> u32 {
        self.seen.get(&self.state.hash).copied().unwrap_or(1)
    }
}

impl Engine {
    pub fn new(mut program: Program) -> Engine {
        let g = &program.game;
        let (files, ranks) = (g.files as i32, g.ranks as i32);
        let cells = (files * ranks) as u16;
        let mut nb = vec![[NONE; 8]; cells as usize];
        for c in 0..cells as i32 {
            for (d, (dx, dy)) in DELTAS.iter().enumerate() {
                let (f, r) = (c % files + dx, c / files + dy);
                if (0..files).contains(&f) && (0..ranks).contains(&r) {
                    nb[c as usize][d] = (f + r * files) as u16;
                }
            }
        }
        let mut rays = vec![[(0u32, 0u32); 8]; cells as usize];
        let mut ray_cells = Vec::new();
        for c in 0..cells as usize {
            for d in 0..8 {
                let start = ray_cells.len() as u32;
                let mut x = nb[c][d];
                while x != NONE {
                    ray_cells.push(x);
                    x = nb[x as usize][d];
                }
                rays[c][d] = (start, ray_cells.len() as u32);
            }
        }
        let mut leap_index = Vec::new();
        let mut leap_cells = Vec::new();
        for offsets in &g.leaps {
            let mut idx = Vec::new();
            for c in 0..cells as i32 {
                let start = leap_cells.len() as u32;
                for &(dx, dy) in offsets {
                    let (f, r) = (c % files + dx as i32, c / files + dy as i32);
                    if (0..files).contains(&f) && (0..ranks).contains(&r) {
                        leap_cells.push((f + r * files) as u16);
                    }
                }
                idx.push((start, leap_cells.len() as u32));
            }
            leap_index.push(idx);
        }
        let regions = g
            .regions
            .iter()
            .map(|r| {
                let mut b = [Bits::default(); 2];
                for (p, cells) in r.cells.iter().enumerate().take(2) {
                    for &c in cells {
                        b[p].set(c, true);
                    }
                }
                b
            })
            .collect();
        let forward = [0, 1].map(|p| g.players.get(p).and_then(|pl| pl.forward).unwrap_or(0));
        let regions: Vec<[Bits; 2]> = regions;
        let mut compiler = compile::Compiler::new(&regions, cells);
        compiler.program(&mut program);
        let tables = std::mem::take(&mut compiler.tables);
        let g = &program.game;
        let attack_rules: Vec<Vec<Stmt>> = (0..g.pieces.len())
            .map(|p| g.attacks[p].clone().unwrap_or_else(|| g.moves[p].clone()))
            .collect();
        let may_duplicate = g.moves.iter().map(|m| emitters(m) > 1).collect();
        // splitmix64: fixed keys so that hashes are the same on every run.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let zobrist = (0..cells as usize * 64
            + ir::MAX_FLAGS * cells as usize
            + 2
            + 2 * ir::MAX_PIECES * HAND_KEYS)
            .map(|_| search::splitmix(&mut seed))
            .collect();
        let mut e = Engine {
            program,
            cells,
            files: files as u16,
            nb,
            rays,
            ray_cells,
            forward,
            leap_index,
            leap_cells,
            regions,
            attack_rules,
            reach: vec![],
            may_duplicate,
            zobrist,
            zobrist_side: search::splitmix(&mut 0xD1B5_4A32_D192_ED03u64.clone()),
            tables,
        };
        e.reach = (0..e.attack_rules.len())
            .map(|p| {
                (0..cells)
                    .map(|c| e.reach_of(&e.attack_rules[p], c))
                    .collect()
            })
            .collect();
        e
    }

    #[inline]
    fn ray(&self, from: u16, d: u8) -> &[u16] {
        let (s, t) = self.rays[from as usize][(d & 7) as usize];
        &self.ray_cells[s as usize..t as usize]
    }

    fn leap_targets(&self, leap: u16, from: u16) -> &[u16] {
        let (s, t) = self.leap_index[leap as usize][from as usize];
        &self.leap_cells[s as usize..t as usize]
    }

    /// Every cell that rules could reach from `from` on an empty board, over-approximated
    /// (rules that compute their target freely reach everywhere).
    fn reach_of(&self, stmts: &[Stmt], from: u16) -> Bits {
        let mut b = Bits::default();
        let dirs_of = |dirs: &[ir::DirRef]| -> Vec<u8> {
            let mut v = Vec::new();
            for d in dirs {
                match *d {
                    ir::DirRef::Abs(a) => v.push(a),
                    ir::DirRef::Rel(r) => v.extend(self.forward.map(|f| (f + r) & 7)),
                    ir::DirRef::Var(_) | ir::DirRef::Opp(_) => v.extend(0..8),
                }
            }
            v
        };
        for s in stmts {
            match s {
                Stmt::For { body, .. } | Stmt::ForPiece { body, .. } => {
                    b = or(b, self.reach_of(body, from))
                }
                Stmt::If {
                    then, otherwise, ..
                } => {
                    b = or(b, self.reach_of(then, from));
                    b = or(b, self.reach_of(otherwise, from));
                }
                Stmt::Let { .. } => {}
                Stmt::Step { dirs, .. } => {
                    for d in dirs_of(dirs) {
                        let c = self.nb[from as usize][d as usize & 7];
                        if c != NONE {
                            b.set(c, true);
                        }
                    }
                }
                Stmt::Slide { dirs, max, .. } => {
                    for d in dirs_of(dirs) {
                        let mut c = from;
                        for _ in 0..*max {
                            c = self.nb[c as usize][d as usize & 7];
                            if c == NONE {
                                break;
                            }
                            b.set(c, true);
                        }
                    }
                }
                Stmt::Leap { leap, .. } => {
                    for &c in self.leap_targets(*leap, from) {
                        b.set(c, true);
                    }
                }
                Stmt::MoveTo { .. } | Stmt::Place { .. } => {
                    for c in 0..self.cells {
                        b.set(c, true);
                    }
                }
            }
        }
        b
    }

    pub fn game(&self) -> &ir::Game {
        &self.program.game
    }

    pub fn start(&self) -> Position {
        let g = self.game();
        let mut st = State {
            board: [0; ir::MAX_CELLS],
            flags: [Bits::default(); ir::MAX_FLAGS],
            hand: [[0; ir::MAX_PIECES]; 2],
            counters: [[0; ir::MAX_COUNTERS]; 2],
            moves_made: [0; 2],
            to_move: 0,
            previous: 1,
            passes: 0,
            turns: 0,
            ply: 0,
            streak: 0,
            last_from: NONE,
            last_to: NONE,
            hash: 0,
            by_owner: [Bits::default(); 2],
        };
        for p in &g.setup {
            st.board[p.cell as usize] = code(p.player, p.piece);
            st.by_owner[p.player as usize].set(p.cell, true);
        }
        for (i, f) in g.flags.iter().enumerate() {
            for &c in &f.initial {
                st.flags[i].set(c, true);
            }
        }
        for &(p, piece, n) in &g.hand {
            st.hand[p as usize][piece as usize] += n;
        }
        for (i, c) in g.counters.iter().enumerate() {
            st.counters[0][i] = c.initial;
            st.counters[1][i] = c.initial;
        }
        if g.tracks_repetition {
            st.hash = self.hash(&st);
        }
        let mut pos = Position {
            state: st,
            seen: HashMap::default(),
        };
        self.record(&mut pos);
        pos
    }

    fn record(&self, pos: &mut Position) {
        if self.game().tracks_repetition {
            debug_assert_eq!(
                pos.state.hash,
                self.hash(&pos.state),
                "incremental hash drifted"
            );
            *pos.seen.entry(pos.state.hash).or_insert(0) += 1;
        }
    }

    /// Hash of what makes a position "the same" for repetition: pieces, flags, hands and
    /// the player to move (not counters or move numbers). Computed in full once; `apply`
    /// keeps it up to date from then on.
    fn hash(&self, st: &State) -> u64 {
        let mut h = if st.to_move == 1 {
            self.zobrist_side
        } else {
            0
        };
        for c in 0..self.cells {
            h ^= self.zobrist_cell(c, st.board[c as usize]);
            for f in 0..self.game().flags.len() {
                if st.flags[f].has(c) {
                    h ^= self.zobrist_flag(f as u8, c);
                }
            }
        }
        for p in 0..2u8 {
            for piece in 0..self.game().pieces.len() {
                h ^= self.zobrist_hand(p, piece as u8, st.hand[p as usize][piece]);
            }
        }
        h
    }

    #[inline]
    fn zobrist_cell(&self, c: u16, code: u8) -> u64 {
        if code == 0 {
            0
        } else {
            self.zobrist[c as usize * 64 + (code as usize & 63)]
        }
    }

    #[inline]
    fn zobrist_flag(&self, f: u8, c: u16) -> u64 {
        self.zobrist[self.cells as usize * (64 + f as usize) + c as usize]
    }

    #[inline]
    fn zobrist_hand(&self, p: u8, piece: u8, count: u16) -> u64 {
        let base = self.cells as usize * (64 + ir::MAX_FLAGS);
        self.zobrist[base
            + (p as usize * ir::MAX_PIECES + piece as usize) * HAND_KEYS
            + (count as usize % HAND_KEYS)]
    }

    /// Writes a cell, keeping the position hash current.
    #[inline]
    fn put(&self, st: &mut State, c: u16, code: u8) {
        if self.game().tracks_repetition {
            st.hash ^= self.zobrist_cell(c, st.board[c as usize]) ^ self.zobrist_cell(c, code);
        }
        let old = st.board[c as usize];
        if old != 0 {
            st.by_owner[owner_of(old) as usize].set(c, false);
        }
        if code != 0 {
            st.by_owner[owner_of(code) as usize].set(c, true);
        }
        st.board[c as usize] = code;
    }

    #[inline]
    fn hash_hand(&self, st: &mut State, p: u8, piece: u8) {
        if self.game().tracks_repetition {
            st.hash ^= self.zobrist_hand(p, piece, st.hand[p as usize][piece as usize]);
        }
    }

    /// The legal moves of the player to move, a pass excluded, in generation order.
    pub fn legal_moves(&self, st: &State, out: &mut Vec<Move>) {
        out.clear();
        let g = self.game();
        let me = st.to_move;
        let mut cx = Ctx::new(me);
        for from in st.by_owner[me as usize].iter() {
            let p = piece_of(st.board[from as usize]);
            cx.from = from;
            self.collect(st, &mut cx, p, out);
        }
        for p in 0..g.pieces.len() {
            if st.hand[me as usize][p] > 0 {
                cx.from = NONE;
                self.collect(st, &mut cx, p as u8, out);
            }
        }
    }

    fn collect(&self, st: &State, cx: &mut Ctx, piece: u8, out: &mut Vec<Move>) {
        let first = out.len();
        let dedup = self.may_duplicate[piece as usize];
        let rules = &self.game().moves[piece as usize];
        if !dedup && self.game().legal.is_none() {
            // The common case, kept free of per-move checks.
            self.generate(st, cx, piece, rules, &mut |m: &Move| {
                out.push(*m);
                false
            });
            return;
        }
        self.generate(st, cx, piece, rules, &mut |m: &Move| {
            // Two rules yielding the same move string: the first one generated is kept.
            if dedup
                && out[first..]
                    .iter()
                    .any(|x| x.to == m.to && x.from == m.from && x.choice == m.choice)
            {
                return false;
            }
            if self.is_legal(st, m) {
                out.push(*m);
            }
            false
        });
    }

    #[inline]
    fn is_legal(&self, st: &State, m: &Move) -> bool {
        match &self.game().legal {
            None => true,
            Some(legal) => self.passes_filter(st, m, legal),
        }
    }

    fn passes_filter(&self, st: &State, m: &Move, legal: &ir::Cond) -> bool {
        let mut after = st.clone();
        self.apply(&mut after, m);
        let mut cx = Ctx::new(st.to_move);
        cx.from = m.from;
        cx.to = m.to;
        self.cond(&after, &mut cx, legal)
    }

    /// Decides the turn: either the game is over, or `moves` holds the legal moves
    /// (a lone pass when the rules force one).
    pub fn status(&self, pos: &Position, moves: &mut Vec<Move>) -> Option<Outcome> {
        let st = &pos.state;
        self.legal_moves(st, moves);
        let mut cx = Ctx::new(st.to_move);
        cx.no_moves = moves.is_empty();
        cx.repetitions = pos.repetitions();
        for rule in &self.game().end {
            if self.cond(st, &mut cx, &rule.cond) {
                moves.clear();
                return Some(self.outcome(st, &mut cx, rule.outcome));
            }
        }
        if moves.is_empty() {
            if self.game().forced_pass {
                moves.push(Move::PASS);
            } else {
                // No move, no pass, no end rule: nothing can happen any more.
                return Some(Outcome::Draw);
            }
        }
        None
    }

    fn outcome(&self, st: &State, cx: &mut Ctx, o: IrOutcome) -> Outcome {
        let who = |p: ir::PlayerRef| match p {
            ir::PlayerRef::Me => st.to_move,
            ir::PlayerRef::Opponent => 1 - st.to_move,
            ir::PlayerRef::Previous => st.previous,
            ir::PlayerRef::Named(i) => i,
        };
        match o {
            IrOutcome::Draw => Outcome::Draw,
            IrOutcome::Wins(p) => Outcome::Win(who(p)),
            IrOutcome::Loses(p) => Outcome::Win(1 - who(p)),
            IrOutcome::HigherScoreWins => {
                let s = self.scores(st, cx);
                match s[0].cmp(&s[1]) {
                    std::cmp::Ordering::Greater => Outcome::Win(0),
                    std::cmp::Ordering::Less => Outcome::Win(1),
                    std::cmp::Ordering::Equal => Outcome::Draw,
                }
            }
        }
    }

    /// Both players' scores (zero when the game declares none).
    pub fn scores(&self, st: &State, cx: &mut Ctx) -> [i64; 2] {
        [0, 1].map(|p| {
            let mut c = *cx;
            c.me = p;
            self.int(st, &mut c, &ir::IntExpr::Score)
        })
    }

    pub fn scores_of(&self, pos: &Position) -> Option<[i64; 2]> {
        self.game().score.as_ref()?;
        Some(self.scores(&pos.state, &mut Ctx::new(pos.state.to_move)))
    }

    pub fn play(&self, pos: &mut Position, m: &Move) {
        self.apply(&mut pos.state, m);
        self.record(pos);
    }

    /// Undoes the history bookkeeping of `play` (the caller restores the state).
    fn forget(&self, pos: &mut Position) {
        if self.game().tracks_repetition {
            let h = pos.state.hash;
            if let Some(n) = pos.seen.get_mut(&h) {
                *n -= 1;
                if *n == 0 {
                    pos.seen.remove(&h);
                }
            }
        }
    }

    // ---------- notation ----------

    pub fn cell_name(&self, c: u16) -> String {
        format!(
            "{}{}",
            (b'a' + (c % self.files) as u8) as char,
            c / self.files + 1
        )
    }

    pub fn notation(&self, m: &Move) -> String {
        let base = match m.kind {
            MoveKind::Pass => "pass".into(),
            MoveKind::Place => format!(
                "{}@{}",
                self.game().pieces[m.piece as usize].letter,
                self.cell_name(m.to)
            ),
            MoveKind::Normal => format!("{}-{}", self.cell_name(m.from), self.cell_name(m.to)),
        };
        if m.choice == state::NO_CHOICE {
            base
        } else {
            format!("{base}={}", self.game().pieces[m.choice as usize].letter)
        }
    }

    pub fn player_name(&self, p: u8) -> &str {
        &self.game().players[p as usize].name
    }

    pub fn outcome_text(&self, o: Outcome) -> String {
        match o {
            Outcome::Win(p) => self.player_name(p).to_string(),
            Outcome::Draw => "draw".into(),
        }
    }

    /// Applies moves written in notation from the current position. On failure, returns
    /// the index (0-based) of the offending move and a message.
    pub fn replay(&self, pos: &mut Position, moves: &[&str]) -> Result<(), (usize, String)> {
        let mut buf = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            if let Some(o) = self.status(pos, &mut buf) {
                return Err((
                    i,
                    format!(
                        "move {} `{text}`: the game is already over (result: {})",
                        i + 1,
                        self.outcome_text(o)
                    ),
                ));
            }
            match buf.iter().find(|m| self.notation(m) == *text) {
                Some(m) => {
                    let m = *m;
                    self.play(pos, &m);
                }
                None => {
                    let mut legal: Vec<String> = buf.iter().map(|m| self.notation(m)).collect();
                    legal.sort();
                    let who = self.player_name(pos.state.to_move);
                    return Err((
                        i,
                        format!(
                            "move {} `{text}` is not legal for {who} here\nlegal moves: {}",
                            i + 1,
                            legal.join(" ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The board as text: rank 1 at the bottom, first player's pieces in upper case.
    pub fn render(&self, pos: &Position) -> String {
        use std::fmt::Write;
        let g = self.game();
        let st = &pos.state;
        let mut out = String::new();
        let files = self.files as usize;
        let ranks = g.ranks as usize;
        let width = ranks.to_string().len();
        let header: String = (0..files)
            .map(|f| format!(" {}", (b'a' + f as u8) as char))
            .collect();
        let _ = writeln!(out, "{:width$} {header}", "");
        // A flag that starts on most cells marks presence (a tile): its absence shows as `#`.
        // Other flags mark something special: where set, an empty cell shows as `*`.
        let majority: Vec<bool> = g
            .flags
            .iter()
            .map(|f| f.initial.len() * 2 > self.cells as usize)
            .collect();
        for r in (0..ranks).rev() {
            let mut line = format!("{:>width$} ", r + 1);
            for f in 0..files {
                let c = (f + r * files) as u16;
                let k = st.board[c as usize];
                let ch = if k != 0 {
                    let l = g.pieces[piece_of(k) as usize].letter;
                    if owner_of(k) == 0 {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    }
                } else if majority
                    .iter()
                    .enumerate()
                    .any(|(i, &m)| m && !st.flags[i].has(c))
                {
                    '#'
                } else if majority
                    .iter()
                    .enumerate()
                    .any(|(i, &m)| !m && st.flags[i].has(c))
                {
                    '*'
                } else {
                    '.'
                };
                line.push(' ');
                line.push(ch);
            }
            let _ = writeln!(out, "{line}");
        }
        for p in 0..2u8 {
            let hand: Vec<String> = (0..g.pieces.len())
                .filter(|&i| st.hand[p as usize][i] > 0)
                .map(|i| format!("{}x{}", st.hand[p as usize][i], g.pieces[i].letter))
                .collect();
            if g.hand.iter().any(|h| h.0 == p) {
                let _ = writeln!(
                    out,
                    "in hand, {}: {}",
                    self.player_name(p),
                    if hand.is_empty() {
                        "none".into()
                    } else {
                        hand.join(" ")
                    }
                );
            }
        }
        if let Some(s) = self.scores_of(pos) {
            let _ = writeln!(
                out,
                "score: {} {}, {} {}",
                self.player_name(0),
                s[0],
                self.player_name(1),
                s[1]
            );
        }
        let mut buf = Vec::new();
        match self.status(pos, &mut buf) {
            Some(o) => {
                let _ = writeln!(out, "result: {}", self.outcome_text(o));
            }
            None => {
                let _ = writeln!(out, "{} to move", self.player_name(st.to_move));
            }
        }
        out
    }
}

fn or(a: Bits, b: Bits) -> Bits {
    let mut r = a;
    for (x, y) in r.0.iter_mut().zip(b.0) {
        *x |= y;
    }
    r
}

/// How many statements of a rule list can produce a move.
fn emitters(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::For { dirs, body, .. } => emitters(body) * dirs.len(),
            Stmt::ForPiece { pieces, body, .. } => emitters(body) * pieces.len(),
            Stmt::If {
                then, otherwise, ..
            } => emitters(then) + emitters(otherwise),
            Stmt::Let { .. } => 0,
            // Distinct directions of one step or slide never meet on the same target.
            Stmt::Step { .. }
            | Stmt::Slide { .. }
            | Stmt::Leap { .. }
            | Stmt::MoveTo { .. }
            | Stmt::Place { .. } => 1,
        })
        .sum()
}
