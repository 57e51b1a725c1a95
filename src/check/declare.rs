//! Declarations: the board, players, pieces, groups, regions, flags, counters and
//! definitions, then the contents of regions and flags as cell sets.

use super::{Checker, Symbol};
use crate::diag::{Code, Span};
use crate::geometry::{self, Board, Cell, DirWord};
use crate::ir;
use crate::syntax::ast::{self, Item, Name, RegionExpr, RegionOp};
use std::collections::BTreeSet;
use std::sync::OnceLock;

impl<'a> Checker<'a> {
    /// The board, or while it is missing or invalid, a stand-in square board that only
    /// lends its vocabulary of directions.
    pub(super) fn geo(&self) -> &Board {
        static STAND_IN: OnceLock<Board> = OnceLock::new();
        self.board
            .as_ref()
            .unwrap_or_else(|| STAND_IN.get_or_init(|| Board::square(1, 1).expect("a 1 x 1 board")))
    }

    /// Checks that a new name is not taken and does not shadow a built-in or a cell.
    fn new_name(&mut self, n: &Name, symbol: Symbol<'a>) -> bool {
        if crate::keywords::is_builtin_name(&n.text) {
            self.error(
                Code::E0110,
                n.span,
                format!("`{}` is a built-in name and cannot be redefined", n.text),
            )
            .hint = Some("choose another name".into());
            // Its uses mean the declaration, which is reported: not one error per use.
            self.broken.declared.insert(n.text.clone());
            return false;
        }
        if geometry::looks_like_cell_name(&n.text) {
            self.error(
                Code::E0110,
                n.span,
                format!(
                    "`{}` looks like a cell and cannot be used as a name",
                    n.text
                ),
            )
            .hint = Some("names of cells are reserved; add a letter after the digits".into());
            self.broken.declared.insert(n.text.clone());
            return false;
        }
        if let Err(first) = self.symbols.declare(&n.text, n.span, symbol) {
            let d = self.error(
                Code::E0111,
                n.span,
                format!("`{}` is defined twice", n.text),
            );
            d.hint = Some("every player, piece, group, region, flag, counter and definition needs its own name".into());
            d.labels.push((first, "first defined here".into()));
            return false;
        }
        true
    }

    /// A declaration beyond a limit. Its name is not reported unknown where it is used:
    /// that would only repeat the problem.
    fn too_many(&mut self, name: &Name, msg: String) {
        self.error(Code::E0118, name.span, msg);
        self.broken.declared.insert(name.text.clone());
    }

    pub(super) fn declare(&mut self, file: &'a ast::File) {
        self.declare_board_and_players(file);
        // Names of pieces, groups, flags, counters, regions and definitions.
        for item in &file.items {
            match item {
                Item::Piece {
                    name,
                    letter,
                    shown,
                } => self.declare_piece(name, letter, shown),
                Item::Flag { name, .. } => {
                    if self.flags.len() >= ir::MAX_FLAGS {
                        let msg = format!("more than {} flags", ir::MAX_FLAGS);
                        self.too_many(name, msg);
                    } else if self.new_name(name, Symbol::Flag(self.flags.len() as u8)) {
                        self.flags.push(ir::Flag {
                            name: name.text.clone(),
                            initial: vec![],
                        });
                    }
                }
                Item::Counter { name, initial } => {
                    if self.counters.len() >= ir::MAX_COUNTERS {
                        let msg = format!("more than {} counters", ir::MAX_COUNTERS);
                        self.too_many(name, msg);
                    } else if self.new_name(name, Symbol::Counter(self.counters.len() as u8)) {
                        let initial = i32::try_from(initial.value).unwrap_or_else(|_| {
                            self.error(
                                Code::E0126,
                                name.span,
                                format!("the starting value of `{}` is out of range", name.text),
                            )
                            .hint =
                                Some("counters hold numbers from -2147483648 to 2147483647".into());
                            0
                        });
                        self.counters.push(ir::Counter {
                            name: name.text.clone(),
                            initial,
                        });
                    }
                }
                Item::Region { name, .. } => {
                    // Room is kept for the built-in regions, numbered like the others.
                    let max = ir::MAX_REGIONS - BUILTIN_REGIONS.len();
                    if self.regions.len() >= max {
                        self.too_many(name, format!("more than {max} regions"));
                    } else if self.new_name(name, Symbol::Region(self.regions.len() as u8)) {
                        self.regions.push(ir::Region {
                            name: name.text.clone(),
                            cells: vec![],
                        });
                    }
                }
                Item::Define { name, .. } => {
                    self.new_name(name, Symbol::Define(item));
                }
                Item::Group { name, .. } => {
                    self.new_name(name, Symbol::Group(0));
                }
                _ => {}
            }
        }
        for item in &file.items {
            if let Item::Group { name, members } = item {
                let mut mask = 0;
                for m in members {
                    match self.pieces.iter().position(|p| p.name == m.text) {
                        Some(i) => mask |= 1 << i,
                        None => {
                            self.unknown(
                                Code::E0102,
                                m,
                                format!("unknown piece `{}`", m.text),
                                |s| matches!(s, Symbol::Piece(_)),
                                &[],
                            );
                        }
                    }
                }
                if self.symbols.get(&name.text) == Some(Symbol::Group(0)) {
                    // Replace the placeholder declared above (same name, same span).
                    self.symbols.set_group(&name.text, mask);
                }
            }
        }
        self.define_regions_and_flags(file);
    }

    fn declare_board_and_players(&mut self, file: &'a ast::File) {
        let mut board_seen: Option<Span> = None;
        let mut players_seen: Option<Span> = None;
        for item in &file.items {
            if let Item::Board { shape, span } = item {
                if let Some(first) = board_seen {
                    let d = self.error(Code::E0112, *span, "the board is declared twice");
                    d.labels.push((first, "first declared here".into()));
                    continue;
                }
                board_seen = Some(*span);
                self.board = self.board_from(shape, *span);
            }
        }
        for item in &file.items {
            if let Item::Players(decls, span) = item {
                if let Some(first) = players_seen {
                    let d = self.error(Code::E0112, *span, "`players` is declared twice");
                    d.labels.push((first, "first declared here".into()));
                    continue;
                }
                players_seen = Some(*span);
                for d in decls {
                    if !self.new_name(&d.name, Symbol::Player(self.players.len() as u8)) {
                        continue;
                    }
                    let forward = d.forward.as_ref().and_then(|f| self.absolute_direction(f));
                    self.players.push(ir::Player {
                        name: d.name.text.clone(),
                        forward,
                    });
                }
                if self.players.is_empty() || self.players.len() > ir::MAX_PLAYERS {
                    self.error(
                        Code::E0114,
                        *span,
                        match self.players.len() {
                            0 => "no player is declared".to_string(),
                            n => format!("{n} players are declared"),
                        },
                    )
                    .hint = Some(format!(
                        "a game has 1 to {} players, in turn order",
                        ir::MAX_PLAYERS
                    ));
                }
            }
        }
        let first = file.items.first().map_or(Span::default(), item_span);
        if board_seen.is_none() && !self.broken.sections.contains("board") {
            self.error(Code::E0115, first, "the file declares no board")
                .hint = Some("add a line such as `board 8 x 8` (files x ranks)".into());
        }
        if players_seen.is_none() && !self.broken.sections.contains("players") {
            self.error(Code::E0115, first, "the file declares no players")
                .hint = Some("add `players { White Black }`; the first player moves first".into());
        }
    }

    /// The board a declaration describes, or an error saying why it is not supported.
    fn board_from(&mut self, shape: &ast::BoardShape, span: Span) -> Option<Board> {
        use ast::BoardShape as B;
        let grid_ok = |f: i64, r: i64| {
            (1..=geometry::MAX_FILES as i64).contains(&f)
                && (1..=geometry::MAX_RANKS as i64).contains(&r)
                && f * r <= ir::MAX_CELLS as i64
        };
        let limits = format!(
            "boards have 1 to {} files, 1 to {} ranks and at most {} cells",
            geometry::MAX_FILES,
            geometry::MAX_RANKS,
            ir::MAX_CELLS
        );
        let too_large = |c: &mut Self, what: String| {
            c.error(Code::E0113, span, format!("{what} is not supported"))
                .hint = Some(limits.clone());
            None
        };
        let shape = match shape {
            B::Square { files, ranks } | B::Hex { files, ranks }
                if !grid_ok(files.value, ranks.value) =>
            {
                return too_large(self, format!("a {files} x {ranks} board"));
            }
            B::Square { files, ranks } => geometry::Shape::Square {
                files: files.value as u8,
                ranks: ranks.value as u8,
            },
            B::Hex { files, ranks } => geometry::Shape::HexRhombus {
                files: files.value as u8,
                ranks: ranks.value as u8,
            },
            B::Hexagon { side } if !(1..=13).contains(&side.value) => {
                self.error(
                    Code::E0113,
                    span,
                    format!("a hexagon of side {side} is not supported"),
                )
                .hint = Some("a hexagon has a side of 1 to 13 cells".into());
                return None;
            }
            B::Hexagon { side } => geometry::Shape::Hexagon {
                side: side.value as u8,
            },
            B::Points { files, ranks, .. } if !grid_ok(files.value, ranks.value) => {
                return too_large(self, format!("a {files} x {ranks} grid of points"));
            }
            B::Points {
                files,
                ranks,
                lines,
            } => {
                let mut out = Vec::new();
                for line in lines {
                    let mut cells = Vec::new();
                    for n in line {
                        match geometry::parse_cell_name(&n.text) {
                            Some((f, r)) if f < files.value as u32 && r < ranks.value as u32 => {
                                cells.push((f as u8, r as u8))
                            }
                            _ => {
                                let last = (b'a' + files.value as u8 - 1) as char;
                                self.error(
                                    Code::E0103,
                                    n.span,
                                    format!("`{}` is not on this grid", n.text),
                                )
                                .hint = Some(format!(
                                    "the grid has files a..{last} and ranks 1..{ranks}"
                                ));
                            }
                        }
                    }
                    out.push(cells);
                }
                let mut points: Vec<(u8, u8)> = out.iter().flatten().copied().collect();
                points.sort_by_key(|&(f, r)| (r, f));
                points.dedup();
                geometry::Shape::Points {
                    files: files.value as u8,
                    ranks: ranks.value as u8,
                    points,
                    lines: out,
                }
            }
        };
        match Board::new(shape) {
            Ok(b) => Some(b),
            Err(e) => {
                self.error(Code::E0127, span, format!("this board cannot be built: {e}"))
                    .hint = Some(
                    "each line links points along one of the eight directions, and a point has at most one link each way"
                        .into(),
                );
                None
            }
        }
    }

    fn declare_piece(&mut self, name: &Name, letter: &Name, shown: &[Name]) {
        if self.pieces.len() >= ir::MAX_PIECES {
            let msg = format!("more than {} piece types", ir::MAX_PIECES);
            self.too_many(name, msg);
            return;
        }
        if !self.new_name(name, Symbol::Piece(self.pieces.len() as u8)) {
            return;
        }
        let mut chars = letter.text.chars();
        let ch = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                self.error(
                    Code::E0116,
                    letter.span,
                    format!("`{}` is not a single letter", letter.text),
                )
                .hint =
                    Some("a piece's letter is one of A..Z, used in notation and display".into());
                '?'
            }
        };
        if let Some(i) = self.pieces.iter().position(|p| p.letter == ch && ch != '?') {
            let msg = format!("letter `{ch}` is already used by `{}`", self.pieces[i].name);
            let first = self.piece_spans[i];
            let d = self.error(Code::E0117, letter.span, msg);
            d.hint = Some(
                "each piece needs its own letter so that moves and boards read unambiguously"
                    .into(),
            );
            d.labels.push((first, "the piece that has it".into()));
        }
        let mut symbols = Vec::new();
        for s in shown {
            let mut chars = s.text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => symbols.push(c),
                _ => {
                    self.error(
                        Code::E0116,
                        s.span,
                        format!("`{}` is not a single character", s.text),
                    )
                    .hint = Some("give one character per player: `shown X O`".into());
                }
            }
        }
        let players = self.players.len();
        if !shown.is_empty() && shown.len() != players && shown.len() != players + 1 {
            let span = Span::new(shown[0].span.start, shown[shown.len() - 1].span.end);
            self.error(
                Code::E0116,
                span,
                format!("{} symbols for {players} players", shown.len()),
            )
            .hint = Some(
                "give one character per player, in the order of `players`, and optionally one more for neutral pieces"
                    .into(),
            );
        }
        self.shown.push((name.span, shown.len()));
        self.pieces.push(ir::Piece {
            name: name.text.clone(),
            letter: ch,
            symbols,
        });
        self.piece_spans.push(name.span);
    }

    fn define_regions_and_flags(&mut self, file: &'a ast::File) {
        let mut region_index = 0usize;
        for item in &file.items {
            match item {
                Item::Region { name, def }
                    if self.symbols.get(&name.text) == Some(Symbol::Region(region_index as u8)) =>
                {
                    let cells = self.region_def(name, def, region_index);
                    self.regions[region_index].cells = cells;
                    region_index += 1;
                }
                Item::Flag { name, initial } => {
                    if let Some(Symbol::Flag(i)) = self.symbols.get(&name.text) {
                        self.flags[i as usize].initial =
                            self.region_cells(initial, None, usize::MAX);
                    }
                }
                _ => {}
            }
        }
    }

    /// The cells of a region declaration, one list per player.
    fn region_def(&mut self, name: &Name, def: &ast::RegionDef, index: usize) -> Vec<Vec<Cell>> {
        match def {
            ast::RegionDef::Shared(e) => {
                let c = self.region_cells(e, None, index);
                vec![c; self.players.len().max(1)]
            }
            ast::RegionDef::PerPlayer(cases) => {
                let mut per: Vec<Option<Vec<Cell>>> = vec![None; self.players.len()];
                for (p, e) in cases {
                    if let Some(i) = self.player_index(p) {
                        if per[i as usize].is_some() {
                            self.error(Code::E0111, p.span, format!("`{}` is given twice", p.text));
                        }
                        per[i as usize] = Some(self.region_cells(e, Some(i), index));
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
                            self.error(Code::E0120, name.span, msg).hint =
                                Some("give every player a line `Player: cells`".into());
                            vec![]
                        })
                    })
                    .collect()
            }
        }
    }

    /// Cells of a region expression. `limit` is the index of the region being defined:
    /// only earlier regions may be used, which rules out cycles.
    pub(super) fn region_cells(
        &mut self,
        e: &RegionExpr,
        player: Option<u8>,
        limit: usize,
    ) -> Vec<Cell> {
        let set: BTreeSet<Cell> = match e {
            RegionExpr::Squares(names) => {
                names.iter().filter_map(|n| self.cell_or_error(n)).collect()
            }
            RegionExpr::Rank(r, span) => {
                let Some(b) = &self.board else { return vec![] };
                match b.rank(r.value) {
                    Some(cells) => cells.into_iter().collect(),
                    None => {
                        let last = b.extent().1;
                        self.error(Code::E0103, *span, format!("rank {r} is not on this board"))
                            .hint = Some(format!("ranks run from 1 to {last}"));
                        BTreeSet::new()
                    }
                }
            }
            RegionExpr::FileNumber(f, span) => {
                let Some(b) = &self.board else { return vec![] };
                let width = b.extent().0;
                let cells = (1..=width as i64)
                    .contains(&f.value)
                    .then(|| b.file_index(f.value as u8 - 1));
                match cells {
                    Some(cells) => cells.into_iter().collect(),
                    None => {
                        self.error(Code::E0103, *span, format!("file {f} is not on this board"))
                            .hint = Some(format!("files are numbered from 1 to {width}"));
                        BTreeSet::new()
                    }
                }
            }
            RegionExpr::File(n) => {
                let Some(b) = &self.board else { return vec![] };
                match b.file(&n.text) {
                    Some(cells) => cells.into_iter().collect(),
                    None => {
                        let last = (b'a' + b.extent().0 - 1) as char;
                        self.error(
                            Code::E0103,
                            n.span,
                            format!("`{}` is not a file of this board", n.text),
                        )
                        .hint = Some(format!("files run from a to {last}"));
                        BTreeSet::new()
                    }
                }
            }
            RegionExpr::Named(n) => {
                if let Some(cells) = self.builtin_region(&n.text) {
                    return cells;
                }
                match self.symbols.get(&n.text) {
                    Some(Symbol::Region(i)) if (i as usize) < limit => {
                        self.symbols.mark(&n.text, true);
                        let r = &self.regions[i as usize];
                        let differs = r.cells.windows(2).any(|w| w[0] != w[1]);
                        let cells = r
                            .cells
                            .get(player.unwrap_or(0) as usize)
                            .cloned()
                            .unwrap_or_default();
                        if player.is_none() && differs {
                            self.error(Code::E0121, n.span, format!("region `{}` differs per player", n.text))
                                .hint = Some("use it in a per-player region or in a rule, where the player is known".into());
                        }
                        cells.into_iter().collect()
                    }
                    Some(Symbol::Region(_)) => {
                        self.error(
                            Code::E0122,
                            n.span,
                            format!("region `{}` is used before it is defined", n.text),
                        )
                        .hint = Some(
                            "define regions before the regions, flags and setup that use them"
                                .into(),
                        );
                        BTreeSet::new()
                    }
                    _ => {
                        self.unknown(
                            Code::E0104,
                            n,
                            format!("unknown region `{}`", n.text),
                            |s| matches!(s, Symbol::Region(_)),
                            BUILTIN_REGIONS,
                        );
                        BTreeSet::new()
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

    /// The cells of a built-in region, if the name is one (none while the board is unknown).
    pub(super) fn builtin_region(&self, name: &str) -> Option<Vec<Cell>> {
        let b = self.board.as_ref();
        match name {
            "all" => Some(b.map(Board::all).unwrap_or_default()),
            "edge" => Some(b.map(Board::edge).unwrap_or_default()),
            "corners" => Some(b.map(Board::corners).unwrap_or_default()),
            "none" => Some(Vec::new()),
            _ => None,
        }
    }

    /// The cell a name denotes. While the board is unknown, any cell-shaped name is
    /// accepted (as cell 0) without an error.
    pub(super) fn cell_or_error(&mut self, n: &Name) -> Option<Cell> {
        let Some(b) = &self.board else {
            return geometry::looks_like_cell_name(&n.text).then_some(0);
        };
        match b.cell(&n.text) {
            Some(c) => Some(c),
            None => {
                let hint = format!("the board has {}", b.describe_names());
                self.error(
                    Code::E0103,
                    n.span,
                    format!("`{}` is not a square of this board", n.text),
                )
                .hint = Some(hint);
                None
            }
        }
    }

    pub(super) fn cell_name(&self, c: Cell) -> String {
        self.geo().name(c)
    }

    pub(super) fn absolute_direction(&mut self, n: &Name) -> Option<u8> {
        match self.geo().dir_word(&n.text) {
            Some(DirWord::Abs(d)) => Some(d),
            _ => {
                let cands: Vec<&str> = (0..self.geo().dir_count() as u8)
                    .map(|d| self.geo().dir_name(d))
                    .collect();
                let hint = crate::diag::suggest(&n.text, cands);
                let d = self.error(
                    Code::E0105,
                    n.span,
                    format!("unknown direction `{}`", n.text),
                );
                d.hint = hint.map(|h| format!("did you mean `{h}`?"));
                None
            }
        }
    }

    pub(super) fn player_index(&mut self, n: &Name) -> Option<u8> {
        if let Some(Symbol::Player(i)) = self.symbols.get(&n.text) {
            return Some(i);
        }
        if n.text == "neutral" {
            // Pieces that belong to no player: the owner after the last player.
            return Some(self.players.len() as u8);
        }
        self.unknown(
            Code::E0101,
            n,
            format!("unknown player `{}`", n.text),
            |s| matches!(s, Symbol::Player(_)),
            &[],
        );
        None
    }

    /// A piece or group name as a bit set of piece types.
    pub(super) fn piece_set(&mut self, n: &Name) -> Option<u32> {
        match self.symbols.use_name(&n.text) {
            Some(Symbol::Piece(i)) => Some(1 << i),
            Some(Symbol::Group(m)) => Some(m),
            _ => {
                self.unknown(
                    Code::E0102,
                    n,
                    format!("unknown piece `{}`", n.text),
                    |s| matches!(s, Symbol::Piece(_) | Symbol::Group(_)),
                    &[],
                );
                None
            }
        }
    }

    /// One piece type (not a group).
    pub(super) fn single_piece(&mut self, n: &Name) -> Option<u8> {
        match self.symbols.get(&n.text) {
            Some(Symbol::Piece(i)) => {
                self.symbols.mark(&n.text, true);
                Some(i)
            }
            Some(Symbol::Group(_)) => {
                self.error(
                    Code::E0102,
                    n.span,
                    format!("`{}` is a group, not a single piece", n.text),
                );
                None
            }
            _ => {
                self.unknown(
                    Code::E0102,
                    n,
                    format!("unknown piece `{}`", n.text),
                    |s| matches!(s, Symbol::Piece(_)),
                    &[],
                );
                None
            }
        }
    }
}

/// The built-in regions, for suggestions.
pub(super) const BUILTIN_REGIONS: &[&str] = &["all", "edge", "corners", "none"];

pub(super) fn item_span(item: &Item) -> Span {
    match item {
        Item::Game { span, .. }
        | Item::Players(_, span)
        | Item::Board { span, .. }
        | Item::After { span, .. }
        | Item::Broken { span, .. } => *span,
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
        Item::Priority { span, .. } => *span,
        Item::Action { name, .. } | Item::Param { name, .. } | Item::Variant { name, .. } => {
            name.span
        }
        Item::End(r) => r.first().map_or(Span::default(), |r| r.span),
    }
}
