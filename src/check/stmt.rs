//! Move statements and effects: lowering them to IR, with their variables in slots.

use super::{Checker, Place, Symbol, Value};
use crate::diag::{Code, Span};
use crate::geometry::Board;
use crate::ir::{self, CellExpr, Cond, DirRef};
use crate::syntax::ast::{self, Expr, Name};

impl<'a> Checker<'a> {
    pub(super) fn alloc_slot(&mut self, span: Span) -> ir::Slot {
        let s = self.scope.next_slot;
        if s as usize >= ir::MAX_SLOTS {
            self.error(Code::E0140, span, "too many variables in one rule")
                .hint = Some(format!(
                "a rule may bind at most {} loop or `let` variables at once",
                ir::MAX_SLOTS
            ));
        }
        self.scope.next_slot = s.saturating_add(1);
        s.min(ir::MAX_SLOTS as u8 - 1)
    }

    pub(super) fn bind_dir(&mut self, var: &Name) -> ir::Slot {
        let slot = self.alloc_slot(var.span);
        self.scope
            .vars
            .push((var.text.clone(), Value::Dir(DirRef::Var(slot))));
        slot
    }

    pub(super) fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let (vars, slot) = (self.scope.vars.len(), self.scope.next_slot);
        let out = f(self);
        self.scope.vars.truncate(vars);
        self.scope.next_slot = slot;
        out
    }

    // ---------- statements ----------

    pub(super) fn stmts(&mut self, body: &[ast::Stmt]) -> Vec<ir::Stmt> {
        self.scoped(|c| body.iter().filter_map(|s| c.stmt(s)).collect())
    }

    fn then_block(&mut self, effects: &[ast::Effect], span: Span) -> Option<u16> {
        if effects.is_empty() {
            return None;
        }
        let saved = self.place.replace(Place::Effect);
        let lowered = self.effects(effects);
        self.place = saved;
        // Out of reach within the file size limit, but a wrapped index would be silent.
        let Ok(index) = u16::try_from(self.effects.len()) else {
            let msg = format!("more than {} `then` blocks", ir::MAX_EFFECT_BLOCKS);
            self.error(Code::E0118, span, msg);
            return None;
        };
        self.effects.push(lowered);
        Some(index)
    }

    fn target_test(&mut self, t: &Option<ast::Test>) -> ir::Test {
        t.as_ref()
            .and_then(|t| self.test(t))
            .unwrap_or(ir::Test::Empty)
    }

    /// Whether a `for` list names piece types (a choice) rather than directions.
    fn all_pieces(&self, names: &[ast::DirName]) -> bool {
        !names.is_empty()
            && names.iter().all(|d| {
                !d.opposite
                    && self.lookup_var(&d.name.text).is_none()
                    && matches!(self.symbols.get(&d.name.text), Some(Symbol::Piece(_)))
            })
    }

    /// A piece type named in an effect: a `for p in …` variable or a declared piece.
    fn piece_ref(&mut self, n: &Name) -> Option<ir::PieceRef> {
        if let Some(Value::Piece(slot)) = self.lookup_var(&n.text) {
            return Some(ir::PieceRef::Var(slot));
        }
        self.single_piece(n).map(ir::PieceRef::Const)
    }

    /// A target condition of a move statement (`… if COND`): it may use `to`.
    fn target_cond(&mut self, c: &Option<Expr>) -> Option<Option<Cond>> {
        match c {
            None => Some(None),
            Some(e) => self.cond(e).map(Some),
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Option<ir::Stmt> {
        Some(match s {
            ast::Stmt::For { var, dirs, body } if self.all_pieces(dirs) => {
                let pieces: Vec<u8> = dirs
                    .iter()
                    .filter_map(|d| self.single_piece(&d.name))
                    .collect();
                self.scoped(|c| {
                    let slot = c.alloc_slot(var.span);
                    c.scope.vars.push((var.text.clone(), Value::Piece(slot)));
                    ir::Stmt::ForPiece {
                        slot,
                        pieces,
                        body: c.stmts(body),
                    }
                })
            }
            ast::Stmt::For { var, dirs, body } => {
                let dirs = self.dirs(dirs);
                self.scoped(|c| {
                    let slot = c.bind_dir(var);
                    ir::Stmt::For {
                        slot,
                        dirs,
                        body: c.stmts(body),
                    }
                })
            }
            ast::Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.cond(cond);
                let then = self.stmts(then);
                let otherwise = self.stmts(otherwise);
                ir::Stmt::If {
                    cond: cond?,
                    then,
                    otherwise,
                }
            }
            ast::Stmt::Let { var, value } => {
                let value = self.cell(value);
                let slot = self.alloc_slot(var.span);
                self.scope
                    .vars
                    .push((var.text.clone(), Value::Cell(CellExpr::Slot(slot))));
                ir::Stmt::Let {
                    slot,
                    value: value?,
                }
            }
            ast::Stmt::Step {
                dirs,
                to,
                cond,
                then,
                span,
            } => {
                let dirs = self.dirs(dirs);
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Step {
                    dirs,
                    to,
                    cond: cond?,
                    then: self.then_block(then, *span),
                }
            }
            ast::Stmt::Slide {
                dirs,
                max,
                through,
                to,
                cond,
                then,
                span,
            } => {
                let dirs = self.dirs(dirs);
                let max = match max.as_ref().map(|(m, s)| (&m.value, s)) {
                    None => u8::MAX,
                    Some((m, span)) if !(1..=255).contains(m) => {
                        self.error(Code::E0119, *span, format!("`max {m}` is out of range"))
                            .hint = Some("a slide goes at least 1 and at most 255 cells".into());
                        u8::MAX
                    }
                    Some((m, _)) => *m as u8,
                };
                let through = through.as_ref().and_then(|t| self.test(t));
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Slide {
                    dirs,
                    max,
                    through,
                    to,
                    cond: cond?,
                    then: self.then_block(then, *span),
                }
            }
            ast::Stmt::Leap {
                a,
                b,
                toward,
                to,
                cond,
                then,
                span,
            } => {
                let (a, b) = (&a.value, &b.value);
                if !(0..=16).contains(a) || !(0..=16).contains(b) || (*a == 0 && *b == 0) {
                    self.error(Code::E0123, *span, format!("`leap {a} {b}` is not a leap"))
                        .hint = Some(
                        "give two distances from 0 to 16, not both 0 (a knight is `leap 1 2`)"
                            .into(),
                    );
                    return None;
                }
                let offsets = Board::leap_offsets(*a as i8, *b as i8);
                let toward = self.dirs(toward);
                let leap = if toward.is_empty() {
                    vec![self.leap_index(offsets)]
                } else {
                    // Only the leaps with some way along one of the directions, per player
                    // when the directions are relative to the player.
                    let per_player = toward.iter().any(|d| matches!(d, DirRef::Rel(_)));
                    let povs = if per_player {
                        self.players.len().max(1)
                    } else {
                        1
                    };
                    (0..povs)
                        .map(|p| {
                            let dirs: Vec<(i8, i8)> = toward
                                .iter()
                                .filter_map(|d| self.absolute(*d, p as u8))
                                .map(|d| self.geo().dir_delta(d))
                                .collect();
                            let kept = offsets
                                .iter()
                                .copied()
                                .filter(|&(x, y)| {
                                    dirs.iter().any(|&(dx, dy)| {
                                        x as i32 * dx as i32 + y as i32 * dy as i32 > 0
                                    })
                                })
                                .collect();
                            self.leap_index(kept)
                        })
                        .collect()
                };
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Leap {
                    leap,
                    to,
                    cond: cond?,
                    then: self.then_block(then, *span),
                }
            }
            ast::Stmt::MoveTo {
                target: ast::MoveTarget::Cell(target),
                to,
                cond,
                then,
                span,
            } => {
                let target = self.cell(target);
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::MoveTo {
                    target: target?,
                    to,
                    cond: cond?.unwrap_or(Cond::True),
                    then: self.then_block(then, *span),
                }
            }
            ast::Stmt::MoveTo {
                target: ast::MoveTarget::Any(test),
                cond,
                then,
                span,
                ..
            } => {
                let to = self.test(test);
                let cond = self.target_cond(cond);
                ir::Stmt::MoveAny {
                    to: to?,
                    cond: cond?,
                    then: self.then_block(then, *span),
                }
            }
            ast::Stmt::New(inner) => ir::Stmt::New(Box::new(self.stmt(inner)?)),
            ast::Stmt::Chain { body, until, span } => {
                let body = self.stmts(body);
                if body.is_empty() {
                    self.error(Code::E0129, *span, "a chain needs at least one hop rule")
                        .hint = Some(
                        "write the hop inside: `chain { move to from + d * 2 if ... }`".into(),
                    );
                }
                let until = until.as_ref().map(|c| self.cond(c));
                ir::Stmt::Chain {
                    body,
                    until: match until {
                        Some(c) => Some(c?),
                        None => None,
                    },
                }
            }
            ast::Stmt::Class { class, body } => {
                let body = self.stmts(body);
                match self.classes.iter().position(|c| *c == class.text) {
                    Some(i) => ir::Stmt::Class {
                        class: i as u8,
                        body,
                    },
                    None => {
                        let known: Vec<&str> = self.classes.iter().map(String::as_str).collect();
                        let hint = crate::diag::suggest(&class.text, known.iter().copied())
                            .map(String::from);
                        let d = self.error(
                            Code::E0129,
                            class.span,
                            format!("`{}` is not a class of moves", class.text),
                        );
                        d.hint = Some(match hint {
                            Some(h) => format!("did you mean `{h}`?"),
                            None => "name the classes of moves in `priority CLASS, …`".into(),
                        });
                        return None;
                    }
                }
            }
            ast::Stmt::Place {
                on,
                cond,
                then,
                span,
            } => {
                let on = self.target_test(on);
                let cond = self.target_cond(cond);
                ir::Stmt::Place {
                    on,
                    cond: cond?,
                    then: self.then_block(then, *span),
                }
            }
        })
    }

    /// A step, slide or leap pattern of `choose … by`.
    fn pattern(&mut self, p: &ast::Pattern) -> Option<ir::Pattern> {
        let to = self.target_test(&p.to);
        Some(match &p.kind {
            ast::PatternKind::Step(dirs) => ir::Pattern::Step {
                dirs: self.dirs(dirs),
                to,
            },
            ast::PatternKind::Slide(dirs, max) => ir::Pattern::Slide {
                dirs: self.dirs(dirs),
                max: match max.as_ref().map(|(m, s)| (&m.value, s)) {
                    None => u8::MAX,
                    Some((m, _)) if (1..=255).contains(m) => *m as u8,
                    Some((m, span)) => {
                        self.error(Code::E0119, *span, format!("`max {m}` is out of range"))
                            .hint = Some("a slide goes at least 1 and at most 255 cells".into());
                        return None;
                    }
                },
                to,
            },
            ast::PatternKind::Leap(a, b) => {
                let (a, b) = (&a.value, &b.value);
                if !(0..=16).contains(a) || !(0..=16).contains(b) || (*a == 0 && *b == 0) {
                    self.error(Code::E0123, p.span, format!("`leap {a} {b}` is not a leap"))
                        .hint = Some("give two distances from 0 to 16, not both 0".into());
                    return None;
                }
                ir::Pattern::Leap {
                    leap: self.leap_index(Board::leap_offsets(*a as i8, *b as i8)),
                    to,
                }
            }
        })
    }

    /// The index of a leap pattern, shared by every statement with the same offsets.
    fn leap_index(&mut self, offsets: Vec<(i8, i8)>) -> u16 {
        match self.leaps.iter().position(|l| *l == offsets) {
            Some(i) => i as u16,
            None => {
                self.leaps.push(offsets);
                (self.leaps.len() - 1) as u16
            }
        }
    }

    /// The absolute direction a fixed direction means for a player (`None` for variables).
    fn absolute(&self, d: DirRef, player: u8) -> Option<u8> {
        match d {
            DirRef::Abs(a) => Some(a),
            DirRef::Rel(r) => {
                let f = self.players.get(player as usize)?.forward?;
                Some(self.geo().rotate(f, r))
            }
            DirRef::Var(_) | DirRef::Opp(_) => None,
        }
    }

    pub(super) fn effects(&mut self, body: &[ast::Effect]) -> Vec<ir::Effect> {
        self.scoped(|c| body.iter().filter_map(|e| c.effect(e)).collect())
    }

    fn flag(&mut self, n: &Name) -> Option<u8> {
        match self.symbols.get(&n.text) {
            Some(Symbol::Flag(f)) => {
                self.symbols.mark(&n.text, true);
                Some(f)
            }
            _ => {
                self.unknown(
                    Code::E0108,
                    n,
                    format!("unknown flag `{}`", n.text),
                    |s| matches!(s, Symbol::Flag(_)),
                    &[],
                );
                None
            }
        }
    }

    fn effect(&mut self, e: &ast::Effect) -> Option<ir::Effect> {
        Some(match e {
            ast::Effect::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.cond(cond);
                let then = self.effects(then);
                let otherwise = self.effects(otherwise);
                ir::Effect::If {
                    cond: cond?,
                    then,
                    otherwise,
                }
            }
            ast::Effect::For { var, dirs, body } => {
                let dirs = self.dirs(dirs);
                self.scoped(|c| {
                    let slot = c.bind_dir(var);
                    ir::Effect::For {
                        slot,
                        dirs,
                        body: c.effects(body),
                    }
                })
            }
            ast::Effect::Along {
                var,
                start,
                dir,
                test,
                body,
            } => {
                let start = self.cell(start);
                let dir = self.single_dir(dir);
                let test = self.test(test);
                let (start, dir, test) = (start?, dir?, test?);
                self.scoped(|c| {
                    let slot = c.alloc_slot(var.span);
                    c.scope
                        .vars
                        .push((var.text.clone(), Value::Cell(CellExpr::Slot(slot))));
                    ir::Effect::Along {
                        slot,
                        start,
                        dir,
                        test,
                        body: c.effects(body),
                    }
                })
            }
            ast::Effect::Let { var, value } => {
                let value = self.cell(value);
                let slot = self.alloc_slot(var.span);
                self.scope
                    .vars
                    .push((var.text.clone(), Value::Cell(CellExpr::Slot(slot))));
                ir::Effect::Let {
                    slot,
                    value: value?,
                }
            }
            ast::Effect::Remove(c) => ir::Effect::Remove(self.cell(c)?),
            ast::Effect::Flip(c) => ir::Effect::Flip(self.cell(c)?),
            ast::Effect::Change { at, piece } => {
                let at = self.cell(at);
                let piece = self.piece_ref(piece);
                ir::Effect::Change {
                    at: at?,
                    piece: piece?,
                }
            }
            ast::Effect::Put { owner, piece, at } => {
                let neutral = match owner {
                    None => false,
                    Some(o) if o.text == "neutral" => true,
                    Some(o) => {
                        self.error(Code::E0101, o.span, format!("`{}` cannot be given a new piece here", o.text))
                            .hint = Some("a new piece is the mover's (`put Stone at c`) or neutral (`put neutral Arrow at c`)".into());
                        return None;
                    }
                };
                let piece = self.piece_ref(piece);
                let at = self.cell(at);
                ir::Effect::Put {
                    piece: piece?,
                    at: at?,
                    neutral,
                }
            }
            ast::Effect::Choose {
                var, from, body, ..
            } => {
                let removes = body.iter().any(|e| matches!(e, ast::Effect::Remove(_)));
                let start = match from {
                    ast::ChooseFrom::By(start, _) => Some(self.cell(start)),
                    ast::ChooseFrom::Where(_) => None,
                };
                let pattern = match from {
                    ast::ChooseFrom::By(_, p) => Some(self.pattern(p)),
                    ast::ChooseFrom::Where(_) => None,
                };
                let (slot, from, body) = self.scoped(|c| {
                    let slot = c.alloc_slot(var.span);
                    c.scope
                        .vars
                        .push((var.text.clone(), Value::Cell(CellExpr::Slot(slot))));
                    let from = match (from, start, pattern) {
                        (ast::ChooseFrom::Where(cond), _, _) => {
                            c.cond(cond).map(ir::ChooseFrom::Where)
                        }
                        (_, Some(Some(start)), Some(Some(pattern))) => {
                            Some(ir::ChooseFrom::By { start, pattern })
                        }
                        _ => None,
                    };
                    (slot, from, c.effects(body))
                });
                ir::Effect::Choose {
                    slot,
                    from: from?,
                    body,
                    removes,
                }
            }
            ast::Effect::Clear { flag, at } | ast::Effect::Set { flag, at } => {
                let f = self.flag(flag);
                let at = self.cell(at);
                ir::Effect::SetFlag {
                    flag: f?,
                    at: at?,
                    value: matches!(e, ast::Effect::Set { .. }),
                }
            }
            ast::Effect::Again(_) => ir::Effect::Again,
            ast::Effect::Counter { name, op, value } => {
                let counter = self.counter(name);
                let value = self.int(value);
                let op = match op {
                    ast::CounterOp::Add => ir::CounterOp::Add,
                    ast::CounterOp::Sub => ir::CounterOp::Sub,
                    ast::CounterOp::Assign => ir::CounterOp::Assign,
                };
                ir::Effect::Counter {
                    counter: counter?,
                    op,
                    value: value?,
                }
            }
        })
    }

    fn counter(&mut self, n: &Name) -> Option<u8> {
        match self.symbols.get(&n.text) {
            Some(Symbol::Counter(c)) => {
                self.symbols.mark(&n.text, true);
                Some(c)
            }
            _ => {
                self.unknown(
                    Code::E0109,
                    n,
                    format!("unknown counter `{}`", n.text),
                    |s| matches!(s, Symbol::Counter(_)),
                    &[],
                );
                None
            }
        }
    }

    // ---------- typed views of an expression ----------
}
