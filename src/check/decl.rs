//! Declarations: metadata, players, board, regions, flags, pieces, setup, hands, and the
//! top-level assembly of the game.

use super::{Checker, Place, Scope};
use crate::ir::{self, Cell};
use crate::syntax::ast::{self, Item, Name, RegionExpr, RegionOp, Span};
use std::collections::BTreeSet;

pub(super) const DIRECTIONS: [&str; 8] = [
    "north",
    "northeast",
    "east",
    "southeast",
    "south",
    "southwest",
    "west",
    "northwest",
];
pub(super) const SHORT_DIRECTIONS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// Built-in names that stand for values in expressions.
pub(super) const VALUE_BUILTINS: [&str; 14] = [
    "last-to",
    "last-from",
    "moves-made",
    "passes",
    "turns",
    "ply",
    "repetitions",
    "in-hand",
    "mover",
    "next",
    "previous",
    "opponent",
    "true",
    "false",
];

fn reserved_builtin(text: &str) -> bool {
    const OTHER_BUILTINS: &[&str] = &[
        "empty",
        "occupied",
        "any",
        "attacked",
        "friend",
        "enemy",
        "all",
        "edge",
        "orthogonal",
        "diagonal",
        "backward",
        "left",
        "right",
        "forward-left",
        "forward-right",
        "backward-left",
        "backward-right",
    ];
    VALUE_BUILTINS.contains(&text)
        || OTHER_BUILTINS.contains(&text)
        || DIRECTIONS.contains(&text)
        || SHORT_DIRECTIONS.contains(&text)
}

impl<'a> Checker<'a> {
    /// Checks that a new name is not taken and does not shadow a built-in or a square.
    fn new_name(&mut self, n: &Name, taken: &mut BTreeSet<String>) -> bool {
        if reserved_builtin(&n.text) {
            self.error(
                "E0110",
                n.span,
                format!("`{}` is a built-in name and cannot be redefined", n.text),
            )
            .hint = Some("choose another name".into());
            return false;
        }
        if Self::looks_like_square(&n.text) {
            self.error(
                "E0110",
                n.span,
                format!(
                    "`{}` looks like a square and cannot be used as a name",
                    n.text
                ),
            )
            .hint = Some("names of squares are reserved; add a letter after the digits".into());
            return false;
        }
        if !taken.insert(n.text.clone()) {
            self.error("E0111", n.span, format!("`{}` is defined twice", n.text)).hint =
                Some("every player, piece, group, region, flag, counter and definition needs its own name".into());
            return false;
        }
        true
    }

    pub(super) fn declare(&mut self, file: &'a ast::File) {
        let mut taken = BTreeSet::new();
        let mut board_seen = false;
        let mut players_seen = false;
        // Board and players first: everything else refers to them.
        for item in &file.items {
            match item {
                Item::Board { files, ranks, span } => {
                    if board_seen {
                        self.error("E0112", *span, "the board is declared twice");
                        continue;
                    }
                    board_seen = true;
                    if !(1..=26).contains(files)
                        || !(1..=99).contains(ranks)
                        || files * ranks > ir::MAX_CELLS as i64
                    {
                        self.error(
                            "E0113",
                            *span,
                            format!("a {files} x {ranks} board is not supported"),
                        )
                        .hint = Some(format!(
                            "boards have 1 to 26 files, 1 to 99 ranks and at most {} cells",
                            ir::MAX_CELLS
                        ));
                        continue;
                    }
                    self.files = *files as u8;
                    self.ranks = *ranks as u8;
                }
                Item::Players(decls, span) => {
                    if players_seen {
                        self.error("E0112", *span, "`players` is declared twice");
                        continue;
                    }
                    players_seen = true;
                    for d in decls {
                        if !self.new_name(&d.name, &mut taken) {
                            continue;
                        }
                        let forward = d.forward.as_ref().and_then(|f| self.absolute_direction(f));
                        self.players.push(ir::Player {
                            name: d.name.text.clone(),
                            forward,
                        });
                    }
                    if self.players.len() != 2 {
                        self.error(
                            "E0114",
                            *span,
                            match self.players.len() {
                                1 => "only 1 player is declared".to_string(),
                                n => format!("{n} players are declared"),
                            },
                        )
                        .hint = Some(
                            "Regula plays two-player games: declare exactly two players".into(),
                        );
                    }
                }
                _ => {}
            }
        }
        let first = file.items.first().map_or(Span::default(), item_span);
        if !board_seen {
            self.error("E0115", first, "the file declares no board")
                .hint = Some("add a line such as `board 8 x 8` (files x ranks)".into());
        }
        if !players_seen {
            self.error("E0115", first, "the file declares no players")
                .hint = Some("add `players { White Black }`; the first player moves first".into());
        }
        // Names of pieces, groups, flags, counters, regions and definitions.
        for item in &file.items {
            match item {
                Item::Piece { name, letter } => {
                    if !self.new_name(name, &mut taken) {
                        continue;
                    }
                    let mut chars = letter.text.chars();
                    let ch = match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                        _ => {
                            self.error(
                                "E0116",
                                letter.span,
                                format!("`{}` is not a single letter", letter.text),
                            )
                            .hint = Some(
                                "a piece's letter is one of A..Z, used in notation and display"
                                    .into(),
                            );
                            '?'
                        }
                    };
                    if let Some(other) = self.pieces.iter().find(|p| p.letter == ch && ch != '?') {
                        let msg = format!("letter `{ch}` is already used by `{}`", other.name);
                        self.error("E0117", letter.span, msg).hint =
                            Some("each piece needs its own letter so that moves and boards read unambiguously".into());
                    }
                    if self.pieces.len() >= ir::MAX_PIECES {
                        self.error(
                            "E0118",
                            name.span,
                            format!("more than {} piece types", ir::MAX_PIECES),
                        );
                        continue;
                    }
                    self.pieces.push(ir::Piece {
                        name: name.text.clone(),
                        letter: ch,
                    });
                    self.piece_spans.push(name.span);
                }
                Item::Flag { name, .. } if self.new_name(name, &mut taken) => {
                    if self.flag_list.len() >= ir::MAX_FLAGS {
                        self.error(
                            "E0118",
                            name.span,
                            format!("more than {} flags", ir::MAX_FLAGS),
                        );
                        continue;
                    }
                    self.flags
                        .insert(name.text.clone(), self.flag_list.len() as u8);
                    self.flag_list.push(ir::Flag {
                        name: name.text.clone(),
                        initial: vec![],
                    });
                }
                Item::Counter { name, initial } if self.new_name(name, &mut taken) => {
                    if self.counter_list.len() >= ir::MAX_COUNTERS {
                        self.error(
                            "E0118",
                            name.span,
                            format!("more than {} counters", ir::MAX_COUNTERS),
                        );
                        continue;
                    }
                    let init = i32::try_from(*initial).unwrap_or_else(|_| {
                        self.error("E0119", name.span, "the initial value is out of range");
                        0
                    });
                    self.counters
                        .insert(name.text.clone(), self.counter_list.len() as u8);
                    self.counter_list.push(ir::Counter {
                        name: name.text.clone(),
                        initial: init,
                    });
                }
                Item::Region { name, .. } if self.new_name(name, &mut taken) => {
                    self.regions
                        .insert(name.text.clone(), self.region_list.len() as u8);
                    self.region_list.push(ir::Region {
                        name: name.text.clone(),
                        cells: vec![],
                    });
                }
                Item::Define { name, .. } if self.new_name(name, &mut taken) => {
                    self.defines.insert(name.text.clone(), item);
                }
                Item::Group { name, .. } => {
                    self.new_name(name, &mut taken);
                }
                _ => {}
            }
        }
        if self.files == 0 || self.players.len() != 2 {
            return;
        }
        for item in &file.items {
            if let Item::Group { name, members } = item {
                let mut mask = 0;
                for m in members {
                    match self.pieces.iter().position(|p| p.name == m.text) {
                        Some(i) => mask |= 1 << i,
                        None => {
                            let cands: Vec<String> =
                                self.pieces.iter().map(|p| p.name.clone()).collect();
                            self.error("E0102", m.span, format!("unknown piece `{}`", m.text));
                            self.hint_similar(m, cands.iter().map(String::as_str));
                        }
                    }
                }
                self.groups.insert(name.text.clone(), mask);
            }
        }
        let mut region_index = 0usize;
        for item in &file.items {
            match item {
                Item::Region { name, def }
                    if self.regions.get(&name.text) == Some(&(region_index as u8)) =>
                {
                    let cells = match def {
                        ast::RegionDef::Shared(e) => {
                            let c = self.region_cells(e, None, region_index);
                            vec![c.clone(), c]
                        }
                        ast::RegionDef::PerPlayer(cases) => {
                            let mut per = vec![None, None];
                            for (p, e) in cases {
                                if let Some(i) = self.player_index(p) {
                                    if per[i as usize].is_some() {
                                        self.error(
                                            "E0111",
                                            p.span,
                                            format!("`{}` is given twice", p.text),
                                        );
                                    }
                                    per[i as usize] =
                                        Some(self.region_cells(e, Some(i), region_index));
                                }
                            }
                            per.into_iter()
                                .enumerate()
                                .map(|(i, c)| {
                                    c.unwrap_or_else(|| {
                                        let msg = format!(
                                            "region `{}` has no cells for `{}`",
                                            name.text, self.players[i].name
                                        );
                                        self.error("E0120", name.span, msg).hint =
                                            Some("give every player a line `Player: cells`".into());
                                        vec![]
                                    })
                                })
                                .collect()
                        }
                    };
                    self.region_list[region_index].cells = cells;
                    region_index += 1;
                }
                Item::Flag { name, initial } => {
                    if let Some(&i) = self.flags.get(&name.text) {
                        self.flag_list[i as usize].initial =
                            self.region_cells(initial, None, usize::MAX);
                    }
                }
                _ => {}
            }
        }
    }

    /// Cells of a region expression. `limit` is the index of the region being defined:
    /// only earlier regions may be used, which rules out cycles.
    fn region_cells(&mut self, e: &RegionExpr, player: Option<u8>, limit: usize) -> Vec<Cell> {
        let all = self.files as usize * self.ranks as usize;
        let set: BTreeSet<Cell> = match e {
            RegionExpr::Squares(names) => names
                .iter()
                .filter_map(|n| self.square_or_error(n))
                .collect(),
            RegionExpr::Rank(r, span) => {
                if *r < 1 || *r > self.ranks as i64 {
                    self.error("E0103", *span, format!("rank {r} is not on this board"))
                        .hint = Some(format!("ranks run from 1 to {}", self.ranks));
                    BTreeSet::new()
                } else {
                    (0..self.files as usize)
                        .map(|f| (f + (*r as usize - 1) * self.files as usize) as Cell)
                        .collect()
                }
            }
            RegionExpr::File(n) => {
                let f = n.text.as_bytes()[0].wrapping_sub(b'a') as usize;
                if n.text.len() != 1 || f >= self.files as usize {
                    let last = (b'a' + self.files - 1) as char;
                    self.error(
                        "E0103",
                        n.span,
                        format!("`{}` is not a file of this board", n.text),
                    )
                    .hint = Some(format!("files run from a to {last}"));
                    BTreeSet::new()
                } else {
                    (0..self.ranks as usize)
                        .map(|r| (f + r * self.files as usize) as Cell)
                        .collect()
                }
            }
            RegionExpr::Named(n) => {
                match n.text.as_str() {
                    "all" => (0..all as Cell).collect(),
                    "edge" => (0..all as Cell).filter(|&c| self.on_edge(c)).collect(),
                    _ => {
                        match self.regions.get(&n.text) {
                            Some(&i) if (i as usize) < limit => {
                                self.used.insert(n.text.clone());
                                let p = player.unwrap_or(0) as usize;
                                let r = self.region_list[i as usize].clone();
                                if player.is_none() && r.cells[0] != r.cells[1] {
                                    self.error("E0121", n.span, format!("region `{}` differs per player", n.text)).hint =
                                Some("use it in a per-player region or in a rule, where the player is known".into());
                                }
                                r.cells[p].iter().copied().collect()
                            }
                            Some(_) => {
                                self.error("E0122", n.span, format!("region `{}` is used before it is defined", n.text))
                            .hint = Some("define regions before the regions, flags and setup that use them".into());
                                BTreeSet::new()
                            }
                            None => {
                                let cands: Vec<String> = self
                                    .regions
                                    .keys()
                                    .cloned()
                                    .chain(["all".into(), "edge".into()])
                                    .collect();
                                self.error("E0104", n.span, format!("unknown region `{}`", n.text));
                                self.hint_similar(n, cands.iter().map(String::as_str));
                                BTreeSet::new()
                            }
                        }
                    }
                }
            }
            RegionExpr::Binary(op, a, b) => {
                let a: BTreeSet<Cell> = self.region_cells(a, player, limit).into_iter().collect();
                let b: BTreeSet<Cell> = self.region_cells(b, player, limit).into_iter().collect();
                match op {
                    RegionOp::Union => a.union(&b).copied().collect(),
                    RegionOp::Intersection => a.intersection(&b).copied().collect(),
                    RegionOp::Minus => a.difference(&b).copied().collect(),
                }
            }
        };
        set.into_iter().collect()
    }

    fn on_edge(&self, c: Cell) -> bool {
        let (f, r) = (c as u8 % self.files, c as u8 / self.files);
        f == 0 || r == 0 || f == self.files - 1 || r == self.ranks - 1
    }

    pub(super) fn lower_rules(&mut self, file: &'a ast::File) -> Option<ir::Game> {
        let mut meta = Vec::new();
        let mut title = None;
        let mut setup = Vec::new();
        let mut hand = Vec::new();
        let mut moves: Vec<Option<Vec<ir::Stmt>>> = vec![None; self.pieces.len()];
        let mut attacks: Vec<Option<Vec<ir::Stmt>>> = vec![None; self.pieces.len()];
        let mut after = Vec::new();
        let mut legal = None;
        let mut forced_pass = false;
        let mut score = None;
        let mut end = Vec::new();
        let mut always_ends = false;
        let mut occupied: std::collections::HashSet<Cell> = Default::default();
        self.has_score = file.items.iter().any(|i| matches!(i, Item::Score(_)));
        for item in &file.items {
            match item {
                Item::Game {
                    title: t,
                    meta: m,
                    span,
                } => {
                    if title.is_some() {
                        self.error("E0112", *span, "the `game` block is given twice");
                    }
                    title = Some(t.clone());
                    meta = m.iter().map(|(k, v)| (k.text.clone(), v.clone())).collect();
                }
                Item::Setup(entries) => {
                    for e in entries {
                        let player = self.player_index(&e.player);
                        let piece = self.single_piece(&e.piece);
                        let cells = self.region_cells(&e.cells, player, usize::MAX);
                        let (Some(player), Some(piece)) = (player, piece) else {
                            continue;
                        };
                        for cell in cells {
                            if !occupied.insert(cell) {
                                let sq = self.cell_name(cell);
                                self.error("E0130", e.piece.span, format!("square {sq} is given two pieces in the setup"))
                                    .hint = Some("each square holds at most one piece; remove one of the entries".into());
                                continue;
                            }
                            setup.push(ir::Placement {
                                player,
                                piece,
                                cell,
                            });
                        }
                    }
                }
                Item::Hand(entries) => {
                    for e in entries {
                        let player = self.player_index(&e.player);
                        for (p, n, span) in &e.counts {
                            let piece = self.single_piece(p);
                            if !(0..=u16::MAX as i64).contains(n) {
                                self.error(
                                    "E0119",
                                    *span,
                                    format!("{n} is not a valid number of pieces"),
                                );
                                continue;
                            }
                            if let (Some(player), Some(piece)) = (player, piece) {
                                hand.push((player, piece, *n as u16));
                            }
                        }
                    }
                }
                Item::Moves { pieces, body } | Item::Attacks { pieces, body } => {
                    let is_moves = matches!(item, Item::Moves { .. });
                    let mut mask = 0;
                    for p in pieces {
                        mask |= self.piece_set(p).unwrap_or(0);
                    }
                    self.scope = Scope::default();
                    self.place = Some(Place::Move);
                    let lowered = self.stmts(body);
                    for i in 0..self.pieces.len() {
                        if mask & (1 << i) != 0 {
                            let slot = if is_moves {
                                &mut moves[i]
                            } else {
                                &mut attacks[i]
                            };
                            slot.get_or_insert_with(Vec::new)
                                .extend(lowered.iter().cloned());
                        }
                    }
                }
                Item::After {
                    pieces, effects, ..
                } => {
                    let mut mask = if pieces.is_none() { u32::MAX } else { 0 };
                    for p in pieces.iter().flatten() {
                        mask |= self.piece_set(p).unwrap_or(0);
                    }
                    self.scope = Scope::default();
                    self.place = Some(Place::Effect);
                    let effects = self.effects(effects);
                    after.push(ir::After {
                        pieces: mask,
                        effects,
                    });
                }
                Item::Legal(e) => {
                    self.scope = Scope::default();
                    self.place = Some(Place::Effect);
                    if legal.is_some() {
                        self.error("E0112", e.span, "`legal if` is given twice")
                            .hint = Some("combine the conditions with `and`".into());
                    }
                    legal = self.cond(e);
                }
                Item::Pass(_) => forced_pass = true,
                Item::Score(e) => {
                    self.scope = Scope::default();
                    self.place = Some(Place::End);
                    score = self.int(e);
                }
                Item::End(rules) => {
                    for r in rules {
                        self.scope = Scope::default();
                        self.place = Some(Place::End);
                        let cond = self.cond(&r.cond);
                        match cond.as_ref().and_then(constant) {
                            Some(false) => {
                                self.warn(
                                    "W0205",
                                    r.cond.span,
                                    "this end rule can never fire: its condition is always false",
                                );
                            }
                            _ if always_ends => {
                                self.warn("W0205", r.span, "this end rule can never fire: an earlier rule always ends the game")
                                    .hint = Some("move it above the rule whose condition is always true".into());
                            }
                            Some(true) => always_ends = true,
                            None => {}
                        }
                        let outcome = match &r.outcome {
                            ast::Outcome::Draw => Some(ir::Outcome::Draw),
                            ast::Outcome::HigherScoreWins => {
                                if !self.has_score {
                                    self.error("E0131", r.span, "`higher score wins` needs a score").hint =
                                        Some("declare how a player scores, e.g. `score = count cells where friend`".into());
                                }
                                Some(ir::Outcome::HigherScoreWins)
                            }
                            ast::Outcome::Wins(p) => self.result_player(p).map(ir::Outcome::Wins),
                            ast::Outcome::Loses(p) => self.result_player(p).map(ir::Outcome::Loses),
                        };
                        if let (Some(cond), Some(outcome)) = (cond, outcome) {
                            end.push(ir::EndRule { cond, outcome });
                        }
                    }
                }
                Item::Define { .. } => {}
                _ => {}
            }
        }
        for (i, m) in moves.iter().enumerate() {
            let in_hand = hand.iter().any(|&(_, p, n)| p as usize == i && n > 0);
            let on_board = setup.iter().any(|s| s.piece as usize == i);
            if m.is_none() && (in_hand || on_board) {
                let name = self.pieces[i].name.clone();
                self.warn(
                    "W0201",
                    self.piece_spans[i],
                    format!("piece `{name}` has no move rule"),
                )
                .hint = Some(format!(
                    "add `moves {name} {{ ... }}`, or leave it out if it never moves"
                ));
            }
        }
        // A misspelt player, piece or square in the setup has its own error already.
        let setup_failed = self
            .diags
            .iter()
            .any(|d| matches!(d.code, "E0101" | "E0102" | "E0103"));
        for (i, p) in self.players.clone().iter().enumerate() {
            if setup_failed {
                break;
            }
            let has = setup.iter().any(|s| s.player as usize == i)
                || hand.iter().any(|h| h.0 as usize == i && h.2 > 0);
            if !has {
                let span = item_span(file.items.iter().find(|i| matches!(i, Item::Players(..)))?);
                self.error("E0132", span, format!("player `{}` has no pieces", p.name))
                    .hint = Some("give the player pieces in `setup` or in `hand`".into());
            }
        }
        if !file.items.iter().any(|i| matches!(i, Item::End(_))) {
            let span = file.items.first().map_or(Span::default(), item_span);
            self.warn(
                "W0202",
                span,
                "the game has no end rules and can only end when a player cannot move",
            )
            .hint = Some("add an `end { when CONDITION: RESULT }` block".into());
        }
        let title = title.unwrap_or_else(|| {
            let span = file.items.first().map_or(Span::default(), item_span);
            self.warn(
                "W0203",
                span,
                "the file has no `game \"Name\" { ... }` block",
            );
            "Untitled".into()
        });
        Some(ir::Game {
            name: title,
            meta,
            players: self.players.clone(),
            files: self.files,
            ranks: self.ranks,
            regions: self.region_list.clone(),
            flags: self.flag_list.clone(),
            pieces: self.pieces.clone(),
            setup,
            hand,
            counters: self.counter_list.clone(),
            leaps: std::mem::take(&mut self.leaps),
            moves: moves.into_iter().map(Option::unwrap_or_default).collect(),
            attacks,
            after,
            legal,
            forced_pass,
            score,
            end,
            tracks_repetition: self.tracks_repetition,
        })
    }

    fn result_player(&mut self, p: &Name) -> Option<ir::PlayerRef> {
        match p.text.as_str() {
            "next" => Some(ir::PlayerRef::Me),
            "previous" => Some(ir::PlayerRef::Previous),
            _ => {
                if let Some(i) = self.players.iter().position(|q| q.name == p.text) {
                    return Some(ir::PlayerRef::Named(i as u8));
                }
                let mut cands: Vec<String> = self.players.iter().map(|q| q.name.clone()).collect();
                cands.extend(["next".into(), "previous".into()]);
                self.error("E0101", p.span, format!("unknown player `{}`", p.text))
                    .hint = Some(
                    "a result names a player, `next` (the player to move) or `previous`".into(),
                );
                self.hint_similar(p, cands.iter().map(String::as_str));
                None
            }
        }
    }

    pub(super) fn single_piece(&mut self, n: &Name) -> Option<u8> {
        match self.pieces.iter().position(|p| p.name == n.text) {
            Some(i) => {
                self.used.insert(n.text.clone());
                Some(i as u8)
            }
            None => {
                let cands: Vec<String> = self.pieces.iter().map(|p| p.name.clone()).collect();
                let msg = if self.groups.contains_key(&n.text) {
                    format!("`{}` is a group, not a single piece", n.text)
                } else {
                    format!("unknown piece `{}`", n.text)
                };
                self.error("E0102", n.span, msg);
                self.hint_similar(n, cands.iter().map(String::as_str));
                None
            }
        }
    }

    pub(super) fn cell_name(&self, c: Cell) -> String {
        format!(
            "{}{}",
            (b'a' + (c as u8 % self.files)) as char,
            c as u32 / self.files as u32 + 1
        )
    }

    pub(super) fn warn_unused(&mut self, file: &ast::File) {
        for item in &file.items {
            let (name, what) = match item {
                Item::Region { name, .. } => (name, "region"),
                Item::Define { name, .. } => (name, "definition"),
                Item::Group { name, .. } => (name, "group"),
                Item::Counter { name, .. } => (name, "counter"),
                Item::Flag { name, .. } => (name, "flag"),
                _ => continue,
            };
            let declared = match item {
                Item::Region { .. } => self.regions.contains_key(&name.text),
                Item::Define { .. } => self.defines.contains_key(&name.text),
                Item::Group { .. } => self.groups.contains_key(&name.text),
                Item::Counter { .. } => self.counters.contains_key(&name.text),
                _ => self.flags.contains_key(&name.text),
            };
            if declared && !self.used.contains(&name.text) {
                self.warn(
                    "W0204",
                    name.span,
                    format!("{what} `{}` is never used", name.text),
                )
                .hint = Some("remove it, or use it in a rule".into());
            }
        }
    }
}

/// The value of a condition that does not depend on the game, if it has one.
fn constant(c: &ir::Cond) -> Option<bool> {
    use ir::{Cond, IntExpr};
    match c {
        Cond::True => Some(true),
        Cond::False => Some(false),
        Cond::Not(c) => constant(c).map(|b| !b),
        Cond::And(v) => v.iter().try_fold(true, |acc, c| Some(acc && constant(c)?)),
        Cond::Or(v) => v.iter().try_fold(false, |acc, c| Some(acc || constant(c)?)),
        Cond::Cmp(IntExpr::Const(a), op, IntExpr::Const(b)) => Some(op.holds(*a, *b)),
        _ => None,
    }
}

pub(super) fn item_span(item: &Item) -> Span {
    match item {
        Item::Game { span, .. }
        | Item::Players(_, span)
        | Item::Board { span, .. }
        | Item::After { span, .. } => *span,
        Item::Pass(span) => *span,
        Item::Region { name, .. }
        | Item::Flag { name, .. }
        | Item::Piece { name, .. }
        | Item::Group { name, .. }
        | Item::Counter { name, .. }
        | Item::Define { name, .. } => name.span,
        Item::Setup(e) => e.first().map_or(Span::default(), |e| e.player.span),
        Item::Hand(e) => e.first().map_or(Span::default(), |e| e.player.span),
        Item::Moves { pieces, .. } | Item::Attacks { pieces, .. } => pieces[0].span,
        Item::Legal(e) | Item::Score(e) => e.span,
        Item::End(r) => r.first().map_or(Span::default(), |r| r.span),
    }
}
