//! Positions as one line of text (docs/POSITIONS.md): the board rank by rank from the top,
//! the player to move, then `key=value` fields for everything else a state holds that
//! rules can read, and the earlier positions repetition compares with.
//!
//! A field left out takes its value at the start of the game (hands, flags, counters) or
//! its neutral value (counts 0, no last move, no earlier positions), so the printer
//! writes only what differs and a hand-written position needs only what matters. Every
//! key is a word of the language that no game can use as a name (`hand`, `turns`, ...)
//! or the name of one of the game's flags or counters, so keys never collide.

use super::core::Core;
use super::hash::History;
use super::position::Pos;
use super::state::{Cell, NONE, State};
use crate::diag::{Code, Diagnostic, Span, suggest};

/// Why a position could not be read: what, where in the text, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PositionError {
    /// The offending field or part of it, as byte offsets into the text.
    pub span: Span,
    /// What is wrong, in one line.
    pub message: String,
    /// How to write it instead, when there is a likely fix.
    pub hint: Option<String>,
}

impl PositionError {
    fn new(span: Span, message: impl Into<String>) -> PositionError {
        PositionError {
            span,
            message: message.into(),
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> PositionError {
        self.hint = Some(hint.into());
        self
    }

    /// The error as a diagnostic located in the position's text.
    pub fn diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::new(Code::E0302, self.span, self.message.clone());
        match &self.hint {
            Some(h) => d.with_hint(h.clone()),
            None => d,
        }
    }
}

/// The keys of fixed fields, in the order they are printed.
const KEYS: &[&str] = &[
    "hand",
    "turns",
    "ply",
    "moves-made",
    "passes",
    "again",
    "previous",
    "last-from",
    "last-to",
    "repetitions",
];

impl<const W: usize> Core<W> {
    fn owner_name(&self, owner: u8) -> String {
        if owner < self.players {
            self.program.game.players[owner as usize].name.clone()
        } else {
            "-".into()
        }
    }

    /// One piece: its letter in upper case for the first player and in lower case for the
    /// second, otherwise followed by its owner in brackets (`-` for neutral pieces).
    fn piece_text(&self, owner: u8, piece: u8) -> String {
        let l = self.program.game.pieces[piece as usize].letter;
        match owner {
            0 => l.to_string(),
            1 if self.players >= 2 && l.is_ascii_alphabetic() => l.to_ascii_lowercase().to_string(),
            _ => format!("{l}[{}]", self.owner_name(owner)),
        }
    }

    fn cells_text(&self, set: impl Fn(Cell) -> bool) -> String {
        let board = &self.geo.board;
        let on: Vec<Cell> = (0..self.geo.cells).filter(|&c| set(c)).collect();
        if on.is_empty() {
            "-".into()
        } else if on.len() as u16 == self.geo.cells {
            "all".into()
        } else if on.len() * 2 <= self.geo.cells as usize {
            let names: Vec<String> = on.iter().map(|&c| board.name(c)).collect();
            names.join(",")
        } else {
            let off: String = (0..self.geo.cells)
                .filter(|&c| !set(c))
                .map(|c| format!("-{}", board.name(c)))
                .collect();
            format!("all{off}")
        }
    }

    fn cell_or_none(&self, c: Cell) -> String {
        if c == NONE {
            "-".into()
        } else {
            self.geo.board.name(c)
        }
    }

    /// The position as one line (see the module's documentation).
    pub fn position_text(&self, pos: &Pos<W>) -> String {
        let g = &self.program.game;
        let st = &pos.st;
        let board = &self.geo.board;
        let (width, height) = board.extent();
        let start = self.start();
        let mut ranks = Vec::new();
        for r in (0..height).rev() {
            let mut rank = String::new();
            let mut empty = 0;
            for c in (0..width).filter_map(|f| board.at(f, r)) {
                let k = st.board[c as usize];
                if k == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                    empty = 0;
                }
                rank.push_str(
                    &self.piece_text(self.codes.owner[k as usize], self.codes.piece[k as usize]),
                );
            }
            if empty > 0 {
                rank.push_str(&empty.to_string());
            }
            ranks.push(rank);
        }
        let mut fields = vec![ranks.join("/"), self.owner_name(st.s.to_move)];
        let pieces = g.pieces.len();
        if st.hand != start.hand {
            let mut parts = Vec::new();
            for p in 0..self.players {
                let items: String = (0..pieces)
                    .filter_map(|i| {
                        let n = st.hand[p as usize][i];
                        let l = g.pieces[i].letter;
                        match n {
                            0 => None,
                            1 => Some(l.to_string()),
                            _ => Some(format!("{n}{l}")),
                        }
                    })
                    .collect();
                if !items.is_empty() {
                    parts.push(format!("{}:{items}", self.owner_name(p)));
                }
            }
            let value = if parts.is_empty() {
                "-".into()
            } else {
                parts.join(",")
            };
            fields.push(format!("hand={value}"));
        }
        for (i, f) in g.flags.iter().enumerate() {
            if st.flags[i] != start.flags[i] {
                let cells = self.cells_text(|c| st.flags[i].has(c));
                fields.push(format!("{}={cells}", f.name));
            }
        }
        for (i, counter) in g.counters.iter().enumerate() {
            let values: Vec<i32> = (0..self.players as usize)
                .map(|p| st.counters[p][i])
                .collect();
            let initial: Vec<i32> = (0..self.players as usize)
                .map(|p| start.counters[p][i])
                .collect();
            if values != initial {
                let v: Vec<String> = values.iter().map(i32::to_string).collect();
                fields.push(format!("{}={}", counter.name, v.join(",")));
            }
        }
        let s = &st.s;
        let made = &s.moves_made[..self.players as usize];
        for (key, value) in [("turns", s.turns), ("ply", s.ply)] {
            if value != 0 {
                fields.push(format!("{key}={value}"));
            }
        }
        if made.iter().any(|&m| m != 0) {
            let v: Vec<String> = made.iter().map(u32::to_string).collect();
            fields.push(format!("moves-made={}", v.join(",")));
        }
        for (key, value) in [("passes", s.passes), ("again", s.streak)] {
            if value != 0 {
                fields.push(format!("{key}={value}"));
            }
        }
        if s.previous != self.before(s.to_move) {
            fields.push(format!("previous={}", self.owner_name(s.previous)));
        }
        if s.last_from != NONE {
            fields.push(format!("last-from={}", self.cell_or_none(s.last_from)));
        }
        if s.last_to != NONE {
            fields.push(format!("last-to={}", self.cell_or_none(s.last_to)));
        }
        if self.keys.is_some() {
            let hashes = pos.history.hashes();
            let earlier = &hashes[..hashes.len().saturating_sub(1)];
            if !earlier.is_empty() {
                let v: Vec<String> = earlier.iter().map(|h| format!("{h:016x}")).collect();
                fields.push(format!("repetitions={}", v.join(",")));
            }
        }
        fields.join(" ")
    }

    /// The player before `p` in turn order.
    fn before(&self, p: u8) -> u8 {
        (p + self.players - 1) % self.players
    }

    fn player_names(&self) -> Vec<&str> {
        let players = &self.program.game.players;
        players.iter().map(|p| p.name.as_str()).collect()
    }

    fn player_named(&self, name: &str, span: Span) -> Result<u8, PositionError> {
        let names = self.player_names();
        match names.iter().position(|n| *n == name) {
            Some(i) => Ok(i as u8),
            None => {
                let mut e = PositionError::new(span, format!("unknown player `{name}`"));
                e.hint = Some(match suggest(name, names.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? the players are {}", names.join(", ")),
                    None => format!("the players are {}", names.join(", ")),
                });
                Err(e)
            }
        }
    }

    fn cell_named(&self, name: &str, span: Span) -> Result<Cell, PositionError> {
        self.geo.board.cell(name).ok_or_else(|| {
            PositionError::new(span, format!("`{name}` is not a cell of this board"))
                .hint(format!("cells are {}", self.geo.board.describe_names()))
        })
    }

    fn letters(&self) -> String {
        let v: Vec<String> = self
            .program
            .game
            .pieces
            .iter()
            .map(|p| format!("{} ({})", p.letter, p.name))
            .collect();
        v.join(", ")
    }

    fn piece_lettered(&self, l: char, span: Span) -> Result<u8, PositionError> {
        let up = l.to_ascii_uppercase();
        match self.program.game.pieces.iter().position(|p| p.letter == up) {
            Some(i) => Ok(i as u8),
            None => Err(
                PositionError::new(span, format!("no piece has the letter `{l}`"))
                    .hint(format!("the pieces are {}", self.letters())),
            ),
        }
    }

    /// Reads a position written by `position_text` (or by hand).
    pub fn parse_position(&self, text: &str) -> Result<Pos<W>, PositionError> {
        let fields = split(text, 0, |c: char| c.is_whitespace());
        let whole = Span::new(0, text.len());
        let Some(&(board_at, board_text)) = fields.first() else {
            return Err(PositionError::new(whole, "the position is empty").hint(
                "write the board rank by rank from the top, separated by `/`, then the player to move",
            ));
        };
        let Some(&(mover_at, mover_text)) = fields.get(1) else {
            let names = self.player_names();
            return Err(PositionError::new(
                Span::new(text.len(), text.len()),
                "the player to move is missing",
            )
            .hint(format!(
                "after the board, write one of {}",
                names.join(", ")
            )));
        };
        let start = self.start();
        let mut st: State<W> = State::new();
        self.parse_board(&mut st, board_at, board_text)?;
        st.s.to_move =
            self.player_named(mover_text, Span::new(mover_at, mover_at + mover_text.len()))?;
        st.s.previous = self.before(st.s.to_move);
        st.hand = start.hand;
        st.flags = start.flags;
        st.counters = start.counters;
        let mut earlier = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for &(at, field) in &fields[2..] {
            let span = Span::new(at, at + field.len());
            let Some((key, value)) = field.split_once('=') else {
                return Err(PositionError::new(
                    span,
                    format!("`{field}` is not a `key=value` field"),
                )
                .hint(self.keys_hint()));
            };
            if seen.contains(&key) {
                return Err(PositionError::new(span, format!("`{key}` is given twice")));
            }
            seen.push(key);
            let vat = at + key.len() + 1;
            let vspan = Span::new(vat, at + field.len());
            self.parse_field(&mut st, key, value, vat, span, vspan, &mut earlier)?;
        }
        st.commit();
        if self.keys.is_some() {
            st.s.hash = self.hash(&st);
        }
        let mut history = History::default();
        if self.keys.is_some() {
            for (i, h) in earlier.iter().enumerate() {
                history.push(*h, i == 0);
            }
            history.push(st.s.hash, earlier.is_empty());
        }
        Ok(Pos { st, history })
    }

    fn keys_hint(&self) -> String {
        let g = &self.program.game;
        let mut keys: Vec<&str> = KEYS.to_vec();
        keys.extend(g.flags.iter().map(|f| f.name.as_str()));
        keys.extend(g.counters.iter().map(|c| c.name.as_str()));
        format!("the fields of this game are {}", keys.join(", "))
    }

    fn parse_board(&self, st: &mut State<W>, at: usize, text: &str) -> Result<(), PositionError> {
        let board = &self.geo.board;
        let (width, height) = board.extent();
        // Split by hand rather than with `split`: a rank without cells (on a board of
        // points) is written empty, and must still count.
        let mut ranks: Vec<(usize, &str)> = Vec::new();
        let mut offset = at;
        for part in text.split('/') {
            ranks.push((offset, part));
            offset += part.len() + 1;
        }
        if ranks.len() != height as usize {
            return Err(PositionError::new(
                Span::new(at, at + text.len()),
                format!("the board has {height} ranks, the position gives {}", ranks.len()),
            )
            .hint("write every rank from the top, separated by `/`; a digit stands for that many empty cells"));
        }
        for (i, &(rat, rtext)) in ranks.iter().enumerate() {
            let r = height - 1 - i as u8;
            let cells: Vec<Cell> = (0..width).filter_map(|f| board.at(f, r)).collect();
            let rspan = Span::new(rat, rat + rtext.len());
            let mut next = 0usize;
            let b = rtext.as_bytes();
            let mut j = 0;
            let overflow =
                |j: usize| {
                    PositionError::new(
                    Span::new(rat + j, rat + rtext.len()),
                    format!("rank {} has {} cells, the position gives more", r + 1, cells.len()),
                )
                .hint("a digit stands for that many empty cells; count the cells of the rank again")
                };
            while j < b.len() {
                let c = b[j] as char;
                if c.is_ascii_digit() {
                    let k = j;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    let n: usize = rtext[k..j].parse().map_err(|_| overflow(k))?;
                    if n == 0 {
                        return Err(PositionError::new(
                            Span::new(rat + k, rat + j),
                            "a run of 0 empty cells",
                        ));
                    }
                    next += n;
                    if next > cells.len() {
                        return Err(overflow(k));
                    }
                    continue;
                }
                let Some(ch) = rtext[j..].chars().next() else {
                    break;
                };
                let k = j;
                j += ch.len_utf8();
                let piece = self.piece_lettered(ch, Span::new(rat + k, rat + j))?;
                let owner = if rtext[j..].starts_with('[') {
                    let close = rtext[j..].find(']').ok_or_else(|| {
                        PositionError::new(Span::new(rat + j, rat + rtext.len()), "unclosed `[`")
                            .hint("an owner is written in brackets: `P[red]`, or `P[-]` for a neutral piece")
                    })?;
                    let name = &rtext[j + 1..j + close];
                    let nspan = Span::new(rat + j + 1, rat + j + close);
                    j += close + 1;
                    if name == "-" {
                        self.players
                    } else {
                        self.player_named(name, nspan)?
                    }
                } else if ch.is_ascii_lowercase() {
                    if self.players < 2 {
                        return Err(PositionError::new(
                            Span::new(rat + k, rat + j),
                            "a lower-case letter is a piece of the second player; this game has one",
                        )
                        .hint("write the first player's pieces in upper case"));
                    }
                    1
                } else {
                    0
                };
                if next >= cells.len() {
                    return Err(overflow(k));
                }
                st.put(
                    &self.codes,
                    None,
                    cells[next],
                    self.codes.code(owner, piece),
                );
                next += 1;
            }
            if next != cells.len() {
                return Err(PositionError::new(
                    rspan,
                    format!(
                        "rank {} has {} cells, the position gives {next}",
                        r + 1,
                        cells.len()
                    ),
                )
                .hint(
                    "a digit stands for that many empty cells; count the cells of the rank again",
                ));
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn parse_field(
        &self,
        st: &mut State<W>,
        key: &str,
        value: &str,
        vat: usize,
        span: Span,
        vspan: Span,
        earlier: &mut Vec<u64>,
    ) -> Result<(), PositionError> {
        let g = &self.program.game;
        let players = self.players as usize;
        let number = |v: &str, at: usize| -> Result<i64, PositionError> {
            v.parse::<i64>().map_err(|_| {
                PositionError::new(
                    Span::new(at, at + v.len()),
                    format!("`{v}` is not a number"),
                )
            })
        };
        let count = |v: &str, at: usize| -> Result<u32, PositionError> {
            let n = number(v, at)?;
            u32::try_from(n).map_err(|_| {
                PositionError::new(Span::new(at, at + v.len()), format!("`{v}` is not a count"))
                    .hint("counts are whole numbers from 0")
            })
        };
        let per_player = |what: &str| -> Result<Vec<(usize, &str)>, PositionError> {
            let parts: Vec<(usize, &str)> = {
                let mut v = Vec::new();
                let mut o = vat;
                for p in value.split(',') {
                    v.push((o, p));
                    o += p.len() + 1;
                }
                v
            };
            if parts.len() != players {
                return Err(PositionError::new(
                    vspan,
                    format!(
                        "{what} needs one value per player ({players}), the position gives {}",
                        parts.len()
                    ),
                )
                .hint("separate the values with commas, in the order the players are declared"));
            }
            Ok(parts)
        };
        match key {
            "hand" => {
                st.hand = [[0; crate::ir::MAX_PIECES]; super::state::MAX_PLAYERS];
                if value == "-" {
                    return Ok(());
                }
                let mut o = vat;
                for part in value.split(',') {
                    let pspan = Span::new(o, o + part.len());
                    let Some((who, items)) = part.split_once(':') else {
                        return Err(PositionError::new(pspan, format!("`{part}` does not name a player"))
                            .hint("write each hand as `player:items`, such as `white:2Q3P`, and `hand=-` when every hand is empty"));
                    };
                    let p = self.player_named(who, Span::new(o, o + who.len()))?;
                    let mut j = 0;
                    let b = items.as_bytes();
                    let iat = o + who.len() + 1;
                    while j < b.len() {
                        let k = j;
                        while j < b.len() && b[j].is_ascii_digit() {
                            j += 1;
                        }
                        let n = if j > k {
                            count(&items[k..j], iat + k)?
                        } else {
                            1
                        };
                        let Some(ch) = items[j..].chars().next() else {
                            return Err(PositionError::new(
                                Span::new(iat + k, iat + j),
                                "a count without a piece letter",
                            ));
                        };
                        let piece =
                            self.piece_lettered(ch, Span::new(iat + j, iat + j + ch.len_utf8()))?;
                        j += ch.len_utf8();
                        st.hand[p as usize][piece as usize] = n.min(u16::MAX as u32) as u16;
                    }
                    o += part.len() + 1;
                }
            }
            "turns" => st.s.turns = count(value, vat)?,
            "ply" => st.s.ply = count(value, vat)?,
            "passes" => st.s.passes = count(value, vat)?,
            "again" => st.s.streak = count(value, vat)?,
            "moves-made" => {
                for (p, (at, v)) in per_player("moves-made")?.into_iter().enumerate() {
                    st.s.moves_made[p] = count(v, at)?;
                }
            }
            "previous" => st.s.previous = self.player_named(value, vspan)?,
            "last-from" | "last-to" => {
                let c = if value == "-" {
                    NONE
                } else {
                    self.cell_named(value, vspan)?
                };
                if key == "last-from" {
                    st.s.last_from = c;
                } else {
                    st.s.last_to = c;
                }
            }
            "repetitions" => {
                if self.keys.is_none() {
                    return Err(PositionError::new(span, "this game has no repetition rule")
                        .hint("leave the `repetitions` field out"));
                }
                if value == "-" {
                    return Ok(());
                }
                let mut o = vat;
                for h in value.split(',') {
                    let v = u64::from_str_radix(h, 16).map_err(|_| {
                        PositionError::new(Span::new(o, o + h.len()), format!("`{h}` is not a position hash"))
                            .hint("`repetitions` lists the hashes of earlier positions, in hexadecimal, separated by commas")
                    })?;
                    earlier.push(v);
                    o += h.len() + 1;
                }
            }
            _ => {
                if let Some(f) = g.flags.iter().position(|f| f.name == key) {
                    st.flags[f] = Default::default();
                    self.parse_cells(st, f as u8, value, vat)?;
                } else if let Some(i) = g.counters.iter().position(|c| c.name == key) {
                    for (p, (at, v)) in per_player(key)?.into_iter().enumerate() {
                        let n = number(v, at)?;
                        st.counters[p][i] = i32::try_from(n).map_err(|_| {
                            PositionError::new(
                                Span::new(at, at + v.len()),
                                format!("`{v}` is out of range"),
                            )
                        })?;
                    }
                } else {
                    let mut names: Vec<&str> = KEYS.to_vec();
                    names.extend(g.flags.iter().map(|f| f.name.as_str()));
                    names.extend(g.counters.iter().map(|c| c.name.as_str()));
                    let e = PositionError::new(
                        Span::new(span.start, span.start + key.len()),
                        format!("unknown field `{key}`"),
                    );
                    return Err(match suggest(key, names.iter().copied()) {
                        Some(s) => e.hint(format!("did you mean `{s}`?")),
                        None => e.hint(self.keys_hint()),
                    });
                }
            }
        }
        Ok(())
    }

    /// A flag's cells: `-` (none), `all`, `all-c3-f5` (all but those), or `a1,e1`.
    fn parse_cells(
        &self,
        st: &mut State<W>,
        f: u8,
        value: &str,
        at: usize,
    ) -> Result<(), PositionError> {
        if value == "-" {
            return Ok(());
        }
        if let Some(rest) = value.strip_prefix("all") {
            for c in 0..self.geo.cells {
                st.flags[f as usize].insert(c);
            }
            let mut o = at + 3;
            for name in rest.split('-').skip(1) {
                let c = self.cell_named(name, Span::new(o + 1, o + 1 + name.len()))?;
                st.flags[f as usize].remove(c);
                o += name.len() + 1;
            }
            if !rest.is_empty() && !rest.starts_with('-') {
                return Err(PositionError::new(
                    Span::new(at, at + value.len()),
                    format!("`{value}` is not a set of cells"),
                )
                .hint("write `all`, `all-c3-f5` (all but c3 and f5), `a1,e1`, or `-` for none"));
            }
            return Ok(());
        }
        let mut o = at;
        for name in value.split(',') {
            let c = self.cell_named(name, Span::new(o, o + name.len()))?;
            st.flags[f as usize].insert(c);
            o += name.len() + 1;
        }
        Ok(())
    }
}

/// The non-empty parts of `text` between separators, with their byte offsets (+ `base`).
fn split(text: &str, base: usize, sep: impl Fn(char) -> bool) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (sep(c), start) {
            (true, Some(s)) => {
                out.push((base + s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((base + s, &text[s..]));
    }
    out
}
