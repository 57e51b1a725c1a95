//! Expressions: typing and lowering to IR, name resolution with "did you mean"
//! suggestions, and the expansion of definitions (with recursion detection).

use super::{Checker, MAX_EXPANDED_DEPTH, MAX_EXPANDED_PARTS, Place, Symbol, Value};
use crate::diag::{Code, Span};
use crate::geometry::{self, DirWord};
use crate::ir::{self, CellExpr, Cond, DirRef, IntExpr, PlayerRef};
use crate::keywords::BuiltinKind;
use crate::syntax::ast::{self, BinOp, Expr, ExprKind, Name};

impl<'a> Checker<'a> {
    pub(super) fn lookup_var(&self, text: &str) -> Option<Value> {
        self.scope
            .vars
            .iter()
            .rev()
            .find(|(n, _)| n == text)
            .map(|(_, v)| v.clone())
    }

    /// Direction names and sets, expanded to a list.
    fn expect_kind(&mut self, e: &Expr, v: Value, want: &str) {
        let got = v.kind();
        let hint = match (want, got) {
            ("a condition", "a cell") => {
                Some("test the cell with `is`, e.g. `to is empty` or `to in throne`")
            }
            ("a cell", "a condition") => {
                Some("a cell such as `to`, `from + north` or a square like `e5` is needed")
            }
            ("a number", "a condition") => Some("count with `count cells where TEST`"),
            _ => None,
        };
        let d = self.error(Code::E0150, e.span, format!("expected {want}, found {got}"));
        d.hint = hint.map(String::from);
    }

    pub(super) fn cond(&mut self, e: &Expr) -> Option<Cond> {
        match self.value(e)? {
            Value::Bool(c) => Some(c),
            v => {
                self.expect_kind(e, v, "a condition");
                None
            }
        }
    }

    pub(super) fn int(&mut self, e: &Expr) -> Option<IntExpr> {
        match self.value(e)? {
            Value::Int(i) => Some(i),
            v => {
                self.expect_kind(e, v, "a number");
                None
            }
        }
    }

    pub(super) fn cell(&mut self, e: &Expr) -> Option<CellExpr> {
        match self.value(e)? {
            Value::Cell(c) => Some(c),
            v => {
                self.expect_kind(e, v, "a cell");
                None
            }
        }
    }

    fn in_place(&mut self, span: Span, what: &str, allowed: &[Place], hint: &str) -> Option<()> {
        match self.place {
            Some(p) if p == Place::Anywhere || allowed.contains(&p) => Some(()),
            _ => {
                self.error(Code::E0151, span, format!("{what} is not known here"))
                    .hint = Some(hint.into());
                None
            }
        }
    }

    pub(super) fn value(&mut self, e: &Expr) -> Option<Value> {
        self.count_parts(1);
        self.expansion.depth += 1;
        let v = self.lower_value(e);
        self.expansion.depth -= 1;
        v
    }

    /// Counts parts of the IR produced by an expansion of definitions.
    pub(super) fn count_parts(&mut self, n: usize) {
        if !self.expansion.stack.is_empty() {
            self.expansion.parts += n;
        }
    }

    fn lower_value(&mut self, e: &Expr) -> Option<Value> {
        Some(match &e.kind {
            ExprKind::Int(i) => Value::Int(IntExpr::Const(*i)),
            ExprKind::From => {
                self.in_place(
                    e.span,
                    "`from`",
                    &[Place::Move, Place::Effect],
                    "in end rules, use `last-from`",
                )?;
                Value::Cell(CellExpr::From)
            }
            ExprKind::To => {
                self.in_place(
                    e.span,
                    "`to`",
                    &[Place::Move, Place::Effect],
                    "in end rules, use `last-to`",
                )?;
                Value::Cell(CellExpr::To)
            }
            ExprKind::Name(n) => {
                return self.name_value(&Name {
                    text: n.clone(),
                    span: e.span,
                });
            }
            ExprKind::Not(inner) => Value::Bool(Cond::Not(Box::new(self.cond(inner)?))),
            ExprKind::Binary(op, a, b) => return self.binary(e, *op, a, b),
            ExprKind::And(parts) => Value::Bool(Cond::And(self.logic(parts, true)?)),
            ExprKind::Or(parts) => Value::Bool(Cond::Or(self.logic(parts, false)?)),
            ExprKind::Is(c, t) => {
                let c = self.cell(c);
                let t = self.test(t);
                Value::Bool(Cond::Is(c?, t?))
            }
            ExprKind::In(c, r) => {
                let c = self.cell(c);
                let r = self.region(r);
                Value::Bool(Cond::Is(c?, ir::Test::Region(r?)))
            }
            ExprKind::Quant {
                all,
                var,
                dirs,
                body,
            } => {
                let dirs = self.dirs(dirs);
                self.scoped(|c| {
                    let slot = c.bind_dir(var);
                    let body = Box::new(c.cond(body)?);
                    Some(Value::Bool(if *all {
                        Cond::Forall { slot, dirs, body }
                    } else {
                        Cond::Exists { slot, dirs, body }
                    }))
                })?
            }
            ExprKind::First { test, start, dir } => {
                let t = self.test(test);
                let s = self.cell(start);
                let d = self.single_dir(dir);
                Value::Cell(CellExpr::First {
                    test: Box::new(t?),
                    start: Box::new(s?),
                    dir: d?,
                })
            }
            ExprKind::Find(t) => Value::Cell(CellExpr::Find(Box::new(self.test(t)?))),
            ExprKind::Count { what, test, scope } => {
                let t = match test {
                    Some(t) => self.test(t)?,
                    None => ir::Test::Any,
                };
                use ast::CountWhat as W;
                Value::Int(match (what, scope) {
                    (W::Cells, Some(ast::CountScope::Along(start, dir))) => {
                        let start = self.cell(start);
                        let dir = self.single_dir(dir);
                        IntExpr::Run {
                            test: t,
                            start: Box::new(start?),
                            dir: dir?,
                        }
                    }
                    (W::Cells, Some(ast::CountScope::Group(start))) => IntExpr::Group {
                        test: t,
                        start: Box::new(self.cell(start)?),
                    },
                    (W::Cells, None) => IntExpr::CountCells(t),
                    (W::Attacks, None) => IntExpr::CountAttacks(t),
                    (W::Groups, None) => IntExpr::Groups(t),
                    (W::Moves, None) if test.is_none() => {
                        self.in_place(
                            e.span,
                            "`count moves`",
                            &[Place::End],
                            "moves are counted in end rules and the score",
                        )?;
                        IntExpr::MoveCount
                    }
                    (what, _) => {
                        let w = match what {
                            W::Attacks => "attacks",
                            W::Moves => "moves",
                            W::Groups => "groups",
                            W::Cells => "cells",
                        };
                        self.error(Code::E0150, e.span, format!("`count {w}` cannot be counted this way"))
                            .hint = Some("runs (`from CELL toward DIR`) and groups (`connected to CELL`) are counted in cells; `count moves` takes no test".into());
                        return None;
                    }
                })
            }
            ExprKind::Lines {
                n,
                exact,
                test,
                through,
            } => {
                let n = (n.value, n.span);
                let t = self.test(test);
                let c = self.cell(through);
                if !(1..=ir::MAX_CELLS as i64).contains(&n.0) {
                    self.error(
                        Code::E0128,
                        n.1,
                        format!("lines of {} cells cannot be counted", n.0),
                    )
                    .hint = Some("lines have at least one cell".into());
                    return None;
                }
                Value::Int(IntExpr::Lines {
                    test: t?,
                    through: Box::new(c?),
                    n: n.0 as u16,
                    exact: *exact,
                })
            }
            ExprKind::Connects(t, a, b) => {
                let t = self.test(t);
                let (ra, rb) = (self.region(a), self.region(b));
                Value::Bool(Cond::Connects {
                    test: t?,
                    a: ra?,
                    b: rb?,
                })
            }
            ExprKind::Opposite(n) => {
                let d = self.single_dir(&plain(n))?;
                Value::Dir(self.opposite(d))
            }
            ExprKind::As(who, body) => {
                let who = match self.value(&Expr {
                    kind: ExprKind::Name(who.text.clone()),
                    span: who.span,
                })? {
                    Value::Player(p) => p,
                    v => {
                        self.error(
                            Code::E0150,
                            who.span,
                            format!("expected a player, found {}", v.kind()),
                        )
                        .hint = Some(
                            "write `as PLAYER: CONDITION`, e.g. `as previous: last-to in goal`"
                                .into(),
                        );
                        return None;
                    }
                };
                Value::Bool(Cond::As(who, Box::new(self.cond(body)?)))
            }
            ExprKind::NoMoves => {
                self.in_place(
                    e.span,
                    "`no moves`",
                    &[Place::End],
                    "`no moves` can be tested in end rules and the score",
                )?;
                Value::Bool(Cond::NoMoves)
            }
            ExprKind::Call(n, args) => return self.call(e, n, args),
        })
    }

    /// The operands of an `and` (or `or`) chain, each checked even when another fails.
    /// An operand that is itself the same connective (a definition, a parenthesis) is
    /// merged into the list, once: the work stays linear in the size of the result.
    fn logic(&mut self, parts: &[Expr], and: bool) -> Option<Vec<Cond>> {
        let mut out = Vec::with_capacity(parts.len());
        let mut ok = true;
        for p in parts {
            match self.cond(p) {
                Some(Cond::And(v)) if and => out.extend(v),
                Some(Cond::Or(v)) if !and => out.extend(v),
                Some(c) => out.push(c),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Option<Value> {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let va = self.value(a)?;
                match (va, op) {
                    (Value::Cell(c), BinOp::Add) => {
                        let (dir, n) = self.dir_times(b)?;
                        Some(Value::Cell(CellExpr::Step(Box::new(c), dir, n)))
                    }
                    (Value::Int(x), _) => {
                        let y = self.int(b)?;
                        let (x, y) = (Box::new(x), Box::new(y));
                        Some(Value::Int(match op {
                            BinOp::Add => IntExpr::Add(x, y),
                            BinOp::Sub => IntExpr::Sub(x, y),
                            _ => IntExpr::Mul(x, y),
                        }))
                    }
                    (v, _) => {
                        let d = self.error(
                            Code::E0150,
                            e.span,
                            format!("cannot apply `{}` to {}", op_text(op), v.kind()),
                        );
                        d.hint = Some("cells move with `cell + direction` (or `cell + direction * 2`); numbers add".into());
                        None
                    }
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let va = self.value(a)?;
                let vb = self.value(b)?;
                let negate = op == BinOp::Ne;
                let c = match (va, vb) {
                    (Value::Int(x), Value::Int(y)) => Cond::Cmp(
                        x,
                        match op {
                            BinOp::Eq => ir::CmpOp::Eq,
                            BinOp::Ne => ir::CmpOp::Ne,
                            BinOp::Lt => ir::CmpOp::Lt,
                            BinOp::Le => ir::CmpOp::Le,
                            BinOp::Gt => ir::CmpOp::Gt,
                            _ => ir::CmpOp::Ge,
                        },
                        y,
                    ),
                    (Value::Player(x), Value::Player(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                        let c = Cond::PlayerEq(x, y);
                        if negate { Cond::Not(Box::new(c)) } else { c }
                    }
                    (Value::Cell(x), Value::Cell(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                        let c = Cond::CellEq(x, y);
                        if negate { Cond::Not(Box::new(c)) } else { c }
                    }
                    (x, y) => {
                        let msg = format!("cannot compare {} with {}", x.kind(), y.kind());
                        self.error(Code::E0150, e.span, msg).hint =
                            Some("numbers compare with < <= == != >= >; cells and players with == and !=".into());
                        return None;
                    }
                };
                Some(Value::Bool(c))
            }
        }
    }

    /// The right side of `cell + …`: a direction, optionally times a constant.
    fn dir_times(&mut self, b: &Expr) -> Option<(DirRef, u8)> {
        let bad = |c: &mut Self| {
            c.error(Code::E0150, b.span, "expected a direction after `+`")
                .hint = Some("write `to + north`, `from + d` or `to + d * 2`".into());
            None
        };
        match &b.kind {
            ExprKind::Name(n) => self
                .single_dir(&plain(&Name {
                    text: n.clone(),
                    span: b.span,
                }))
                .map(|d| (d, 1)),
            ExprKind::Opposite(n) => self.single_dir(&plain(n)).map(|d| (self.opposite(d), 1)),
            ExprKind::Binary(BinOp::Mul, x, y) => {
                let ExprKind::Int(k) = y.kind else {
                    return bad(self);
                };
                if !(1..=255).contains(&k) {
                    return bad(self);
                }
                let d = match &x.kind {
                    ExprKind::Name(n) => self.single_dir(&plain(&Name {
                        text: n.clone(),
                        span: x.span,
                    })),
                    ExprKind::Opposite(n) => self.single_dir(&plain(n)).map(|d| self.opposite(d)),
                    _ => return bad(self),
                };
                d.map(|d| (d, k as u8))
            }
            _ => bad(self),
        }
    }

    fn name_value(&mut self, n: &Name) -> Option<Value> {
        let t = n.text.as_str();
        if let Some(v) = self.lookup_var(t) {
            return Some(v);
        }
        if let Some(Symbol::Define(_)) = self.symbols.get(t) {
            return self.call(
                &Expr {
                    kind: ExprKind::Name(t.into()),
                    span: n.span,
                },
                n,
                &[],
            );
        }
        match self.symbols.get(t) {
            Some(Symbol::Counter(c)) => {
                self.symbols.mark(t, true);
                return Some(Value::Int(IntExpr::Counter(c)));
            }
            Some(Symbol::Player(i)) => return Some(Value::Player(PlayerRef::Named(i))),
            _ => {}
        }
        Some(match t {
            "true" => Value::Bool(Cond::True),
            "false" => Value::Bool(Cond::False),
            "last-to" => Value::Cell(CellExpr::LastTo),
            "last-from" => Value::Cell(CellExpr::LastFrom),
            "moves-made" => Value::Int(IntExpr::MovesMade),
            "passes" => Value::Int(IntExpr::Passes),
            "turns" => Value::Int(IntExpr::Turns),
            "ply" => Value::Int(IntExpr::Ply),
            "repetitions" => {
                self.tracks_repetition = true;
                Value::Int(IntExpr::Repetitions)
            }
            "in-hand" => Value::Int(IntExpr::InHand),
            "score" => Value::Int(IntExpr::Score),
            "mover" => {
                if self.place == Some(Place::End) {
                    self.error(Code::E0151, n.span, "`mover` is not known in end rules").hint =
                        Some("end rules speak of `next` (the player to move) and `previous` (who moved last)".into());
                    return None;
                }
                Value::Player(PlayerRef::Me)
            }
            "next" => {
                if !matches!(self.place, Some(Place::End | Place::Anywhere)) {
                    self.error(Code::E0151, n.span, "`next` is only known in end rules")
                        .hint = Some("in move rules and effects the player is `mover`".into());
                    return None;
                }
                Value::Player(PlayerRef::Me)
            }
            "previous" => Value::Player(PlayerRef::Previous),
            "opponent" => Value::Player(PlayerRef::Opponent),
            _ => {
                if geometry::looks_like_cell_name(t) {
                    return self
                        .cell_or_error(n)
                        .map(|c| Value::Cell(CellExpr::Const(c)));
                }
                match self.geo().dir_word(t) {
                    Some(DirWord::Abs(d)) => return Some(Value::Dir(DirRef::Abs(d))),
                    Some(DirWord::Rel(r)) => return Some(Value::Dir(DirRef::Rel(r))),
                    Some(_) => {
                        // A set of directions, or a word of another board: `dirs` says which.
                        return self
                            .single_dir(&ast::DirName {
                                name: n.clone(),
                                opposite: false,
                                except: false,
                            })
                            .map(Value::Dir);
                    }
                    None => {}
                }
                if let Some(sym) = self.symbols.get(t) {
                    let what = sym.kind();
                    self.error(
                        Code::E0150,
                        n.span,
                        format!("`{t}` cannot stand alone here"),
                    )
                    .hint = Some(format!(
                        "`{t}` is a {what}: test a cell with it, `to is {t}` (or `to in {t}` for a region)"
                    ));
                    return None;
                }
                let vars: Vec<String> = self.scope.vars.iter().map(|(v, _)| v.clone()).collect();
                let mut extra: Vec<&str> = vars.iter().map(String::as_str).collect();
                extra.extend(
                    crate::keywords::BUILTINS
                        .iter()
                        .filter(|b| matches!(b.kind, BuiltinKind::Value | BuiltinKind::Player))
                        .map(|b| b.word),
                );
                // Names may hold dashes: `turns-1` is one (unknown) name, not `turns - 1`.
                let known = |w: &str| {
                    (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
                        || extra.contains(&w)
                        || matches!(
                            self.symbols.get(w),
                            Some(Symbol::Define(_) | Symbol::Counter(_))
                        )
                };
                let spaced = t
                    .match_indices('-')
                    .map(|(i, _)| (&t[..i], &t[i + 1..]))
                    .find(|(a, b)| known(a) && known(b))
                    .map(|(a, b)| format!("{a} - {b}"));
                let d = self.unknown(
                    Code::E0100,
                    n,
                    format!("unknown name `{t}`"),
                    |s| matches!(s, Symbol::Define(_) | Symbol::Counter(_)),
                    &extra,
                );
                if let (Some(d), Some(spaced)) = (d, spaced) {
                    d.hint = Some(format!(
                        "a `-` inside a word is part of the name: to subtract, write `{spaced}` with spaces"
                    ));
                }
                return None;
            }
        })
    }

    fn call(&mut self, e: &Expr, n: &Name, args: &[Expr]) -> Option<Value> {
        // Built-in functions that take a player.
        if let Some(kind) = match n.text.as_str() {
            "score" => Some(IntExpr::Score),
            "moves-made" => Some(IntExpr::MovesMade),
            "in-hand" => Some(IntExpr::InHand),
            _ => None,
        } {
            if args.len() != 1 {
                self.error(
                    Code::E0152,
                    e.span,
                    format!("`{}` takes one player", n.text),
                );
                return None;
            }
            let p = match self.value(&args[0])? {
                Value::Player(p) => p,
                v => {
                    self.expect_kind(&args[0], v, "a player");
                    return None;
                }
            };
            return Some(Value::Int(IntExpr::Of(p, Box::new(kind))));
        }
        let Some(Symbol::Define(ast::Item::Define { params, body, .. })) =
            self.symbols.use_name(&n.text)
        else {
            self.unknown(
                Code::E0100,
                n,
                format!("unknown definition `{}`", n.text),
                |s| matches!(s, Symbol::Define(_)),
                &[],
            );
            return None;
        };
        if params.len() != args.len() {
            self.error(
                Code::E0152,
                e.span,
                format!(
                    "`{}` takes {} argument(s), {} given",
                    n.text,
                    params.len(),
                    args.len()
                ),
            )
            .hint = Some(format!(
                "its parameters are ({})",
                params
                    .iter()
                    .map(|p| p.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            return None;
        }
        let values: Vec<Value> = args.iter().map(|a| self.value(a)).collect::<Option<_>>()?;
        self.expand(n, params, body, values)
    }

    /// Expands a definition where it is used, its parameters bound to values.
    pub(super) fn expand(
        &mut self,
        n: &Name,
        params: &[Name],
        body: &Expr,
        values: Vec<Value>,
    ) -> Option<Value> {
        if self.expansion.stack.contains(&n.text) {
            let chain = self.expansion.stack.join(" → ");
            self.error(
                Code::E0153,
                n.span,
                format!(
                    "definition `{}` refers to itself ({chain} → {})",
                    n.text, n.text
                ),
            )
            .hint = Some(
                "definitions are expanded where they are used, so they cannot be recursive".into(),
            );
            return None;
        }
        if self.expansion.stack.len() >= 32 {
            self.error(Code::E0153, n.span, "definitions are nested too deeply");
            return None;
        }
        if !self.may_expand(n) {
            return None;
        }
        if self.expansion.stack.is_empty() {
            self.expansion.site = n.span;
        }
        self.expansion.stack.push(n.text.clone());
        // The body sees only its parameters (and the rule's point of view), not the caller's variables.
        let saved_vars = std::mem::take(&mut self.scope.vars);
        for (p, v) in params.iter().zip(values) {
            self.scope.vars.push((p.text.clone(), v));
        }
        let out = self.value(body);
        self.scope.vars = saved_vars;
        self.end_expansion();
        out
    }

    /// Whether expanding `n` here stays within the limits; the first time it does not, the
    /// outermost definition being expanded is reported, at the place it is used.
    fn may_expand(&mut self, n: &Name) -> bool {
        let x = &self.expansion;
        if x.refused {
            return false;
        }
        let (root, site) = match x.stack.first() {
            Some(root) => (root.clone(), x.site),
            None => (n.text.clone(), n.span),
        };
        if x.parts > MAX_EXPANDED_PARTS {
            self.expansion_too_large(&root, site);
            false
        } else if x.depth > MAX_EXPANDED_DEPTH {
            self.expansion.refused = true;
            self.error(
                Code::E0154,
                site,
                format!("`{root}` expands to expressions nested more than {MAX_EXPANDED_DEPTH} levels deep"),
            )
            .hint = Some("definitions are expanded where they are used, each inside the expression that uses it; nest fewer of them".into());
            false
        } else {
            true
        }
    }

    pub(super) fn end_expansion(&mut self) {
        let root = self.expansion.stack.first().cloned().unwrap_or_default();
        self.expansion.stack.pop();
        if self.expansion.stack.is_empty()
            && !self.expansion.refused
            && self.expansion.parts > MAX_EXPANDED_PARTS
        {
            // The last expansion went over without using another definition after.
            self.expansion_too_large(&root, self.expansion.site);
        }
    }

    fn expansion_too_large(&mut self, root: &str, site: Span) {
        self.expansion.refused = true;
        self.error(
            Code::E0154,
            site,
            format!("`{root}` expands to more than {MAX_EXPANDED_PARTS} parts"),
        )
        .hint = Some("definitions are expanded where they are used: one used twice in another doubles its size; use fewer copies, or a simpler definition".into());
    }

    // ---------- cell tests ----------
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        _ => "?",
    }
}

fn plain(n: &Name) -> ast::DirName {
    ast::DirName {
        name: n.clone(),
        opposite: false,
        except: false,
    }
}
