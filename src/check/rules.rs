//! The rules of the game: setup and hands, move and attack rules, `after` blocks, the
//! legality condition, the score and the end rules; then the assembly of the `ir::Game`.

use super::lints::constant;
use super::{Checker, Place, Scope};
use crate::diag::Code;
use crate::ir::{self, Cell};
use crate::syntax::ast::{self, Item};
use std::collections::{HashMap, HashSet};

/// What the rules of a file lower to, before assembly.
#[derive(Default)]
pub(super) struct Rules {
    pub meta: Vec<(String, String)>,
    pub title: Option<String>,
    pub setup: Vec<ir::Placement>,
    pub hand: Vec<(u8, u8, u16)>,
    pub moves: Vec<Option<Vec<ir::Stmt>>>,
    pub attacks: Vec<Option<Vec<ir::Stmt>>>,
    pub after: Vec<ir::After>,
    pub legal: Option<ir::Cond>,
    pub priority: Option<ir::Priority>,
    pub actions: Vec<ir::Action>,
    pub forced_pass: bool,
    pub score: Option<ir::IntExpr>,
    pub end: Vec<ir::EndRule>,
    /// Some setup or hand entry failed to resolve: whole-file checks about pieces are moot.
    pub setup_incomplete: bool,
    /// Pieces in hand per player and piece type, over every entry: they add up.
    pub hand_totals: HashMap<(u8, u8), u32>,
}

impl<'a> Checker<'a> {
    fn enter(&mut self, place: Place) {
        self.scope = Scope::default();
        self.place = Some(place);
    }

    pub(super) fn lower_rules(&mut self, file: &'a ast::File) -> Option<ir::Game> {
        let mut r = Rules {
            moves: vec![None; self.pieces.len()],
            attacks: vec![None; self.pieces.len()],
            ..Rules::default()
        };
        let mut occupied: HashSet<Cell> = HashSet::new();
        // Classes are named before the move rules that use them.
        for item in &file.items {
            if let Item::Priority {
                longest,
                classes,
                span,
            } = item
            {
                if r.priority.is_some() {
                    self.error(Code::E0112, *span, "`priority` is given twice")
                        .hint =
                        Some("list every class in one `priority` section, first first".into());
                    continue;
                }
                self.classes = classes.iter().map(|c| c.text.clone()).collect();
                r.priority = Some(ir::Priority {
                    classes: self.classes.clone(),
                    longest: *longest,
                });
            }
        }
        self.has_score = file.items.iter().any(|i| matches!(i, Item::Score(_)));
        for item in &file.items {
            match item {
                Item::Game { title, meta, span } => {
                    if r.title.is_some() {
                        self.error(Code::E0112, *span, "the `game` block is given twice");
                    }
                    r.title = Some(title.clone());
                    r.meta = meta
                        .iter()
                        .map(|(k, v)| (k.text.clone(), v.clone()))
                        .collect();
                }
                Item::Setup(entries) => {
                    for e in entries {
                        self.setup_entry(e, &mut r, &mut occupied);
                    }
                }
                Item::Hand(entries) => {
                    for e in entries {
                        self.hand_entry(e, &mut r);
                    }
                }
                Item::Moves { pieces, body } | Item::Attacks { pieces, body } => {
                    if matches!(item, Item::Moves { .. }) && r.moves.iter().all(Option::is_none) {
                        self.cost_spans.moves = pieces[0].span;
                    }
                    let mask = pieces
                        .iter()
                        .fold(0, |m, p| m | self.piece_set(p).unwrap_or(0));
                    self.enter(Place::Move);
                    let lowered = self.stmts(body);
                    // A rule for several piece types is copied into each of them.
                    let copies = (mask & ((1u64 << self.pieces.len()) - 1) as u32).count_ones();
                    let parts = super::cost::parts(&lowered) * copies as usize;
                    let keep = match self.rule_parts.map(|n| n + parts) {
                        Some(n) if n <= super::cost::MAX_RULE_PARTS => {
                            self.rule_parts = Some(n);
                            true
                        }
                        Some(n) => {
                            self.rule_parts = None;
                            self.error(
                                Code::E0155,
                                pieces[0].span,
                                format!("the move and attack rules of the piece types have {n} parts, counting a rule once for each type it is written for"),
                            )
                            .hint = Some(format!(
                                "at most {} are accepted; write fewer rules, or for fewer piece types",
                                super::cost::MAX_RULE_PARTS
                            ));
                            false
                        }
                        None => false,
                    };
                    let table = if matches!(item, Item::Moves { .. }) {
                        &mut r.moves
                    } else {
                        &mut r.attacks
                    };
                    for (i, slot) in table.iter_mut().enumerate() {
                        if mask & (1 << i) != 0 {
                            // Refused rules still count as written: no "no move rule" then.
                            let rules = slot.get_or_insert_with(Vec::new);
                            if keep {
                                rules.extend(lowered.iter().cloned());
                            }
                        }
                    }
                }
                Item::After {
                    pieces,
                    effects,
                    span,
                } => {
                    if r.after.is_empty() {
                        self.cost_spans.effects = *span;
                    }
                    let mask = match pieces {
                        None => u32::MAX,
                        Some(list) => list
                            .iter()
                            .fold(0, |m, p| m | self.piece_set(p).unwrap_or(0)),
                    };
                    self.enter(Place::Effect);
                    let effects = self.effects(effects);
                    r.after.push(ir::After {
                        pieces: mask,
                        effects,
                    });
                }
                Item::Legal(e) => {
                    self.cost_spans.legal = e.span;
                    self.enter(Place::Effect);
                    if r.legal.is_some() {
                        self.error(Code::E0112, e.span, "`legal if` is given twice")
                            .hint = Some("combine the conditions with `and`".into());
                    }
                    r.legal = self.cond(e);
                }
                Item::Pass(_) => r.forced_pass = true,
                Item::Action {
                    name,
                    when,
                    effects,
                } => {
                    self.enter(Place::Move);
                    let cond = match when {
                        Some(c) => self.cond(c),
                        None => Some(ir::Cond::True),
                    };
                    self.enter(Place::Effect);
                    let effects = self.effects(effects);
                    if let Some(cond) = cond {
                        r.actions.push(ir::Action {
                            name: name.text.clone(),
                            when: cond,
                            effects,
                        });
                    }
                }
                Item::Score(e) => {
                    self.cost_spans.score = e.span;
                    self.enter(Place::End);
                    r.score = self.int(e);
                }
                Item::End(rules) => {
                    for rule in rules {
                        self.end_rule(rule, &mut r);
                    }
                }
                _ => {}
            }
        }
        self.lint_rules(file, &r);
        let board = self.board.as_ref()?.shape().clone();
        let title = r.title.unwrap_or_else(|| "Untitled".into());
        Some(ir::Game {
            name: title,
            meta: r.meta,
            players: self.players.clone(),
            board,
            regions: self.regions.clone(),
            flags: self.flags.clone(),
            pieces: self.pieces.clone(),
            setup: r.setup,
            hand: r.hand,
            counters: self.counters.clone(),
            leaps: std::mem::take(&mut self.leaps),
            moves: r.moves.into_iter().map(Option::unwrap_or_default).collect(),
            attacks: r.attacks,
            after: r.after,
            legal: r.legal,
            forced_pass: r.forced_pass,
            score: r.score,
            end: r.end,
            tracks_repetition: self.tracks_repetition,
            priority: r.priority,
            actions: r.actions,
        })
    }

    fn setup_entry(&mut self, e: &ast::SetupEntry, r: &mut Rules, occupied: &mut HashSet<Cell>) {
        let errors = self.diags.len();
        let player = self.player_index(&e.player);
        let piece = self.single_piece(&e.piece);
        let cells = self.region_cells(&e.cells, player, usize::MAX);
        // Whatever failed (a name, a cell), the setup is not what the author meant.
        r.setup_incomplete |= self.diags.len() > errors;
        let (Some(player), Some(piece)) = (player, piece) else {
            r.setup_incomplete = true;
            return;
        };
        if self.board.is_none() {
            return;
        }
        for cell in cells {
            if !occupied.insert(cell) {
                let sq = self.cell_name(cell);
                self.error(
                    Code::E0130,
                    e.piece.span,
                    format!("square {sq} is given two pieces in the setup"),
                )
                .hint =
                    Some("each square holds at most one piece; remove one of the entries".into());
                continue;
            }
            r.setup.push(ir::Placement {
                player,
                piece,
                cell,
            });
        }
    }

    fn hand_entry(&mut self, e: &ast::HandEntry, r: &mut Rules) {
        let player = self.player_index(&e.player);
        for (p, n, span) in &e.counts {
            let n = &n.value;
            let piece = self.single_piece(p);
            if !(0..=u16::MAX as i64).contains(n) {
                self.error(
                    Code::E0124,
                    *span,
                    format!("{n} is not a valid number of pieces"),
                )
                .hint = Some(format!("a hand holds 0 to {} pieces of a type", u16::MAX));
                r.setup_incomplete = true;
                continue;
            }
            let (Some(player), Some(piece)) = (player, piece) else {
                r.setup_incomplete = true;
                continue;
            };
            let total = r.hand_totals.entry((player, piece)).or_default();
            if *total + *n as u32 > u32::from(u16::MAX) {
                let msg = format!(
                    "`{}` holds {} `{}` in hand in all",
                    e.player.text,
                    *total + *n as u32,
                    p.text
                );
                self.error(Code::E0124, *span, msg).hint = Some(format!(
                    "entries for the same player and piece add up, to at most {}",
                    u16::MAX
                ));
                r.setup_incomplete = true;
                continue;
            }
            *total += *n as u32;
            r.hand.push((player, piece, *n as u16));
        }
    }

    fn end_rule(&mut self, rule: &ast::EndRule, r: &mut Rules) {
        self.enter(Place::End);
        let cond = self.cond(&rule.cond);
        let always_ends = r.end.iter().any(|e| constant(&e.cond) == Some(true));
        match cond.as_ref().and_then(constant) {
            Some(false) => {
                self.error(
                    Code::W0205,
                    rule.cond.span,
                    "this end rule can never fire: its condition is always false",
                );
            }
            _ if always_ends => {
                self.error(
                    Code::W0205,
                    rule.span,
                    "this end rule can never fire: an earlier rule always ends the game",
                )
                .hint = Some("move it above the rule whose condition is always true".into());
            }
            _ => {}
        }
        let outcome = match &rule.outcome {
            ast::Outcome::Draw => Some(ir::Outcome::Draw),
            ast::Outcome::HigherScoreWins => {
                // A broken `score` section is reported already.
                if !self.has_score && !self.broken.sections.contains("score") {
                    self.error(Code::E0131, rule.span, "`higher score wins` needs a score")
                        .hint = Some(
                        "declare how a player scores, e.g. `score = count cells where friend`"
                            .into(),
                    );
                }
                Some(ir::Outcome::HigherScoreWins)
            }
            ast::Outcome::Wins(p) => self.result_player(p).map(ir::Outcome::Wins),
            ast::Outcome::Loses(p) => self.result_player(p).map(ir::Outcome::Loses),
        };
        if let (Some(cond), Some(outcome)) = (cond, outcome) {
            r.end.push(ir::EndRule { cond, outcome });
            self.cost_spans.end.push(rule.span);
        }
    }

    fn result_player(&mut self, p: &ast::Name) -> Option<ir::PlayerRef> {
        match p.text.as_str() {
            "next" => Some(ir::PlayerRef::Me),
            "previous" => Some(ir::PlayerRef::Previous),
            _ => {
                if let Some(super::Symbol::Player(i)) = self.symbols.get(&p.text) {
                    return Some(ir::PlayerRef::Named(i));
                }
                if let Some(d) = self.unknown(
                    Code::E0101,
                    p,
                    format!("unknown player `{}`", p.text),
                    |s| matches!(s, super::Symbol::Player(_)),
                    &["next", "previous"],
                ) && d.hint.is_none()
                {
                    d.hint = Some(
                        "a result names a player, `next` (the player to move) or `previous`".into(),
                    );
                }
                None
            }
        }
    }
}
