//! Expressions, cell tests, move statements and effects: typing and lowering to IR.

use super::decl::{DIRECTIONS, SHORT_DIRECTIONS, VALUE_BUILTINS};
use super::{Checker, Place, Value};
use crate::ir::{self, CellExpr, Cond, DirRef, IntExpr, PlayerRef};
use crate::syntax::ast::{self, BinOp, Expr, ExprKind, Name, Span, TestKind};

const RELATIVE: [&str; 8] = [
    "forward",
    "forward-right",
    "right",
    "backward-right",
    "backward",
    "backward-left",
    "left",
    "forward-left",
];

impl<'a> Checker<'a> {
    pub(super) fn absolute_direction(&mut self, n: &Name) -> Option<u8> {
        let i = DIRECTIONS
            .iter()
            .position(|d| *d == n.text)
            .or_else(|| SHORT_DIRECTIONS.iter().position(|d| *d == n.text));
        if i.is_none() {
            self.error("E0105", n.span, format!("unknown direction `{}`", n.text));
            self.hint_similar(n, DIRECTIONS.iter().copied());
        }
        i.map(|i| i as u8)
    }

    fn lookup_var(&self, text: &str) -> Option<Value> {
        self.scope
            .vars
            .iter()
            .rev()
            .find(|(n, _)| n == text)
            .map(|(_, v)| v.clone())
    }

    /// Direction names and sets, expanded to a list.
    fn plain_dirs(&mut self, names: &[Name]) -> Vec<DirRef> {
        let mut out = Vec::new();
        for n in names {
            let t = n.text.as_str();
            if let Some(Value::Dir(d)) = self.lookup_var(t) {
                out.push(d);
            } else if let Some(i) = DIRECTIONS
                .iter()
                .position(|d| *d == t)
                .or_else(|| SHORT_DIRECTIONS.iter().position(|d| *d == t))
            {
                out.push(DirRef::Abs(i as u8));
            } else if let Some(i) = RELATIVE.iter().position(|d| *d == t) {
                if self.players.iter().any(|p| p.forward.is_none()) {
                    self.error(
                        "E0125",
                        n.span,
                        format!("`{t}` needs each player's forward direction"),
                    )
                    .hint = Some(
                        "declare it in `players { White forward north  Black forward south }`"
                            .into(),
                    );
                }
                out.push(DirRef::Rel(i as u8));
            } else {
                match t {
                    "orthogonal" => out.extend([0, 2, 4, 6].map(DirRef::Abs)),
                    "diagonal" => out.extend([1, 3, 5, 7].map(DirRef::Abs)),
                    "all" => out.extend((0..8).map(DirRef::Abs)),
                    _ => {
                        let mut cands: Vec<String> = DIRECTIONS
                            .iter()
                            .chain(RELATIVE.iter())
                            .map(|s| s.to_string())
                            .collect();
                        cands.extend(["orthogonal", "diagonal", "all"].map(String::from));
                        cands.extend(
                            self.scope
                                .vars
                                .iter()
                                .filter(|(_, v)| matches!(v, Value::Dir(_)))
                                .map(|(n, _)| n.clone()),
                        );
                        self.error("E0105", n.span, format!("unknown direction `{t}`"));
                        self.hint_similar(n, cands.iter().map(String::as_str));
                    }
                }
            }
        }
        out
    }

    /// Directions as written, `opposite` applied.
    fn dirs(&mut self, names: &[ast::DirName]) -> Vec<DirRef> {
        let mut out = Vec::new();
        for d in names {
            let plain = self.plain_dirs(std::slice::from_ref(&d.name));
            out.extend(
                plain
                    .into_iter()
                    .map(|r| if d.opposite { opposite(r) } else { r }),
            );
        }
        out
    }

    fn single_dir(&mut self, d: &ast::DirName) -> Option<DirRef> {
        let n = &d.name;
        let d = self.dirs(std::slice::from_ref(d));
        match d.len() {
            1 => Some(d[0]),
            0 => None,
            _ => {
                self.error(
                    "E0107",
                    n.span,
                    format!("`{}` is several directions; one is needed here", n.text),
                )
                .hint = Some("loop over them with `for d in ...` and use `d`".into());
                None
            }
        }
    }

    fn alloc_slot(&mut self, span: Span) -> ir::Slot {
        let s = self.scope.next_slot;
        if s as usize >= ir::MAX_SLOTS {
            self.error("E0140", span, "too many variables in one rule")
                .hint = Some(format!(
                "a rule may bind at most {} loop or `let` variables at once",
                ir::MAX_SLOTS
            ));
        }
        self.scope.next_slot = s.saturating_add(1);
        self.scope.high = self.scope.high.max(self.scope.next_slot);
        s.min(ir::MAX_SLOTS as u8 - 1)
    }

    fn bind_dir(&mut self, var: &Name) -> ir::Slot {
        let slot = self.alloc_slot(var.span);
        self.scope
            .vars
            .push((var.text.clone(), Value::Dir(DirRef::Var(slot))));
        slot
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
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

    fn then_block(&mut self, effects: &[ast::Effect]) -> Option<u16> {
        if effects.is_empty() {
            return None;
        }
        let saved = self.place.replace(Place::Effect);
        let lowered = self.effects(effects);
        self.place = saved;
        self.effects.push(lowered);
        Some((self.effects.len() - 1) as u16)
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
                    && self.pieces.iter().any(|p| p.name == d.name.text)
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
                ..
            } => {
                let dirs = self.dirs(dirs);
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Step {
                    dirs,
                    to,
                    cond: cond?,
                    then: self.then_block(then),
                }
            }
            ast::Stmt::Slide {
                dirs,
                max,
                to,
                cond,
                then,
                ..
            } => {
                let dirs = self.dirs(dirs);
                let max = match max {
                    None => u8::MAX,
                    Some((m, span)) if !(1..=255).contains(m) => {
                        self.error("E0119", *span, format!("`max {m}` is out of range"))
                            .hint = Some("a slide goes at least 1 and at most 255 cells".into());
                        u8::MAX
                    }
                    Some((m, _)) => *m as u8,
                };
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Slide {
                    dirs,
                    max,
                    to,
                    cond: cond?,
                    then: self.then_block(then),
                }
            }
            ast::Stmt::Leap {
                a,
                b,
                to,
                cond,
                then,
                span,
            } => {
                if !(0..=16).contains(a) || !(0..=16).contains(b) || (*a == 0 && *b == 0) {
                    self.error("E0119", *span, format!("`leap {a} {b}` is not a leap"))
                        .hint = Some(
                        "give two distances from 0 to 16, not both 0 (a knight is `leap 1 2`)"
                            .into(),
                    );
                    return None;
                }
                let (a, b) = (*a as i8, *b as i8);
                let mut offsets = Vec::new();
                for (x, y) in [(a, b), (b, a)] {
                    for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let o = (x * sx, y * sy);
                        if !offsets.contains(&o) {
                            offsets.push(o);
                        }
                    }
                }
                let leap = match self.leaps.iter().position(|l| *l == offsets) {
                    Some(i) => i,
                    None => {
                        self.leaps.push(offsets);
                        self.leaps.len() - 1
                    }
                } as u16;
                let to = self.target_test(to);
                let cond = self.target_cond(cond);
                ir::Stmt::Leap {
                    leap,
                    to,
                    cond: cond?,
                    then: self.then_block(then),
                }
            }
            ast::Stmt::MoveTo {
                target, cond, then, ..
            } => {
                let target = self.cell(target);
                let cond = self.target_cond(cond);
                ir::Stmt::MoveTo {
                    target: target?,
                    cond: cond?.unwrap_or(Cond::True),
                    then: self.then_block(then),
                }
            }
            ast::Stmt::Place { on, cond, then, .. } => {
                let on = self.target_test(on);
                let cond = self.target_cond(cond);
                ir::Stmt::Place {
                    on,
                    cond: cond?,
                    then: self.then_block(then),
                }
            }
        })
    }

    pub(super) fn effects(&mut self, body: &[ast::Effect]) -> Vec<ir::Effect> {
        self.scoped(|c| body.iter().filter_map(|e| c.effect(e)).collect())
    }

    fn flag(&mut self, n: &Name) -> Option<u8> {
        match self.flags.get(&n.text) {
            Some(&f) => {
                self.used.insert(n.text.clone());
                Some(f)
            }
            None => {
                let cands: Vec<String> = self.flags.keys().cloned().collect();
                self.error("E0108", n.span, format!("unknown flag `{}`", n.text));
                self.hint_similar(n, cands.iter().map(String::as_str));
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
            ast::Effect::Put { piece, at } => {
                let piece = self.piece_ref(piece);
                let at = self.cell(at);
                ir::Effect::Put {
                    piece: piece?,
                    at: at?,
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
        match self.counters.get(&n.text) {
            Some(&c) => {
                self.used.insert(n.text.clone());
                Some(c)
            }
            None => {
                let cands: Vec<String> = self.counters.keys().cloned().collect();
                self.error("E0109", n.span, format!("unknown counter `{}`", n.text));
                self.hint_similar(n, cands.iter().map(String::as_str));
                None
            }
        }
    }

    // ---------- typed views of an expression ----------

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
        let d = self.error("E0150", e.span, format!("expected {want}, found {got}"));
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
                self.error("E0151", span, format!("{what} is not known here"))
                    .hint = Some(hint.into());
                None
            }
        }
    }

    pub(super) fn value(&mut self, e: &Expr) -> Option<Value> {
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
                let (hoisted, quant) = self.scoped(|c| {
                    let slot = c.bind_dir(var);
                    let mut body = c.cond(body)?;
                    // A `find` does not depend on the loop: compute it once, before the loop.
                    let hoisted = c.hoist_finds(&mut body);
                    let body = Box::new(body);
                    let quant = if *all {
                        Cond::Forall { slot, dirs, body }
                    } else {
                        Cond::Exists { slot, dirs, body }
                    };
                    Some((hoisted, quant))
                })?;
                let mut cond = quant;
                for (slot, value) in hoisted.into_iter().rev() {
                    cond = Cond::Let {
                        slot,
                        value,
                        body: Box::new(cond),
                    };
                }
                Value::Bool(cond)
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
            ExprKind::Count { what, test, along } => {
                let t = match test {
                    Some(t) => self.test(t)?,
                    None => ir::Test::Any,
                };
                Value::Int(match (what, along) {
                    (ast::CountWhat::Cells, Some((start, dir))) => {
                        let start = self.cell(start);
                        let dir = self.single_dir(dir);
                        IntExpr::Run {
                            test: t,
                            start: Box::new(start?),
                            dir: dir?,
                        }
                    }
                    (ast::CountWhat::Attacks, Some(_)) => {
                        self.error("E0150", e.span, "`count attacks` cannot be counted along a line").hint =
                            Some("count a run of cells with `count cells where TEST from CELL toward DIR`".into());
                        return None;
                    }
                    (ast::CountWhat::Attacks, None) => IntExpr::CountAttacks(t),
                    (ast::CountWhat::Cells, None) => IntExpr::CountCells(t),
                })
            }
            ExprKind::Opposite(n) => Value::Dir(opposite(self.single_dir(&plain(n))?)),
            ExprKind::As(who, body) => {
                let who = match self.value(&Expr {
                    kind: ExprKind::Name(who.text.clone()),
                    span: who.span,
                })? {
                    Value::Player(p) => p,
                    v => {
                        self.error(
                            "E0150",
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
                    "`no moves` can only be tested in end rules",
                )?;
                Value::Bool(Cond::NoMoves)
            }
            ExprKind::Call(n, args) => return self.call(e, n, args),
        })
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Option<Value> {
        match op {
            BinOp::And | BinOp::Or => {
                let a = self.cond(a);
                let b = self.cond(b);
                let (a, b) = (a?, b?);
                let flat = |c: Cond, out: &mut Vec<Cond>| match (c, op) {
                    (Cond::And(v), BinOp::And) | (Cond::Or(v), BinOp::Or) => out.extend(v),
                    (c, _) => out.push(c),
                };
                let mut v = Vec::new();
                flat(a, &mut v);
                flat(b, &mut v);
                Some(Value::Bool(if op == BinOp::And {
                    Cond::And(v)
                } else {
                    Cond::Or(v)
                }))
            }
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
                            "E0150",
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
                        self.error("E0150", e.span, msg).hint =
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
            c.error("E0150", b.span, "expected a direction after `+`")
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
            ExprKind::Opposite(n) => self.single_dir(&plain(n)).map(|d| (opposite(d), 1)),
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
                    ExprKind::Opposite(n) => self.single_dir(&plain(n)).map(opposite),
                    _ => return bad(self),
                };
                d.map(|d| (d, k as u8))
            }
            _ => bad(self),
        }
    }

    /// Replaces every `find` in `c` by a fresh slot; returns the slots and what they hold.
    fn hoist_finds(&mut self, c: &mut Cond) -> Vec<(ir::Slot, CellExpr)> {
        let mut found: Vec<(ir::Slot, CellExpr)> = Vec::new();
        let mut visit = |e: &mut CellExpr, this: &mut Self| {
            if let CellExpr::Find(_) = e {
                let slot = match found.iter().find(|(_, v)| v == e) {
                    Some((s, _)) => *s,
                    None => {
                        // Above every slot the body used, so nothing inside can overwrite it.
                        let s = this.scope.high;
                        this.scope.high += 1;
                        if s as usize >= ir::MAX_SLOTS {
                            this.error("E0140", Span::default(), "too many variables in one rule");
                        }
                        found.push((s, e.clone()));
                        s
                    }
                };
                *e = CellExpr::Slot(slot);
            }
        };
        walk_cells(c, &mut |e| visit(e, self));
        found
    }

    fn region(&mut self, n: &Name) -> Option<u8> {
        if let Some(&r) = self.regions.get(&n.text) {
            self.used.insert(n.text.clone());
            return Some(r);
        }
        if n.text == "edge" || n.text == "all" {
            // Built-in regions become ordinary ones the first time a rule uses them.
            let cells = self.builtin_region(&n.text);
            self.region_list.push(ir::Region {
                name: n.text.clone(),
                cells: vec![cells.clone(), cells],
            });
            let i = (self.region_list.len() - 1) as u8;
            self.regions.insert(n.text.clone(), i);
            self.used.insert(n.text.clone());
            return Some(i);
        }
        let cands: Vec<String> = self
            .regions
            .keys()
            .cloned()
            .chain(["edge".into(), "all".into()])
            .collect();
        self.error("E0104", n.span, format!("unknown region `{}`", n.text));
        self.hint_similar(n, cands.iter().map(String::as_str));
        None
    }

    fn builtin_region(&self, name: &str) -> Vec<ir::Cell> {
        let (f, r) = (self.files as u16, self.ranks as u16);
        (0..f * r)
            .filter(|c| {
                name == "all" || c % f == 0 || c / f == 0 || c % f == f - 1 || c / f == r - 1
            })
            .collect()
    }

    fn name_value(&mut self, n: &Name) -> Option<Value> {
        let t = n.text.as_str();
        if let Some(v) = self.lookup_var(t) {
            return Some(v);
        }
        if self.defines.contains_key(t) {
            return self.call(
                &Expr {
                    kind: ExprKind::Name(t.into()),
                    span: n.span,
                },
                n,
                &[],
            );
        }
        if let Some(&c) = self.counters.get(t) {
            self.used.insert(t.to_string());
            return Some(Value::Int(IntExpr::Counter(c)));
        }
        if let Some(i) = self.players.iter().position(|p| p.name == t) {
            return Some(Value::Player(PlayerRef::Named(i as u8)));
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
                    self.error("E0151", n.span, "`mover` is not known in end rules").hint =
                        Some("end rules speak of `next` (the player to move) and `previous` (who moved last)".into());
                    return None;
                }
                Value::Player(PlayerRef::Me)
            }
            "next" => {
                if !matches!(self.place, Some(Place::End | Place::Anywhere)) {
                    self.error("E0151", n.span, "`next` is only known in end rules")
                        .hint = Some("in move rules and effects the player is `mover`".into());
                    return None;
                }
                Value::Player(PlayerRef::Me)
            }
            "previous" => Value::Player(PlayerRef::Previous),
            "opponent" => Value::Player(PlayerRef::Opponent),
            _ => {
                if let Some(c) = self.square(t) {
                    return Some(Value::Cell(CellExpr::Const(c)));
                }
                if let Some(d) = DIRECTIONS
                    .iter()
                    .chain(SHORT_DIRECTIONS.iter())
                    .position(|d| *d == t)
                {
                    return Some(Value::Dir(DirRef::Abs((d % 8) as u8)));
                }
                if let Some(d) = RELATIVE.iter().position(|d| *d == t) {
                    return Some(Value::Dir(DirRef::Rel(d as u8)));
                }
                if Self::looks_like_square(t) {
                    return self
                        .square_or_error(n)
                        .map(|c| Value::Cell(CellExpr::Const(c)));
                }
                let mut cands: Vec<String> =
                    self.scope.vars.iter().map(|(v, _)| v.clone()).collect();
                cands.extend(self.defines.keys().cloned());
                cands.extend(self.counters.keys().cloned());
                cands.extend(VALUE_BUILTINS.map(String::from));
                let msg = if self.pieces.iter().any(|p| p.name == t)
                    || self.groups.contains_key(t)
                    || self.regions.contains_key(t)
                    || self.flags.contains_key(t)
                {
                    self.error("E0150", n.span, format!("`{t}` cannot stand alone here"))
                        .hint = Some(format!(
                        "test a cell with it: `to is {t}` (or `to in {t}` for a region)"
                    ));
                    return None;
                } else {
                    format!("unknown name `{t}`")
                };
                self.error("E0100", n.span, msg);
                self.hint_similar(n, cands.iter().map(String::as_str));
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
                self.error("E0152", e.span, format!("`{}` takes one player", n.text));
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
        let Some(ast::Item::Define { params, body, .. }) = self.defines.get(&n.text).copied()
        else {
            let cands: Vec<String> = self.defines.keys().cloned().collect();
            self.error("E0100", n.span, format!("unknown definition `{}`", n.text));
            self.hint_similar(n, cands.iter().map(String::as_str));
            return None;
        };
        self.used.insert(n.text.clone());
        if params.len() != args.len() {
            self.error(
                "E0152",
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
        if self.expanding.contains(&n.text) {
            let chain = self.expanding.join(" → ");
            self.error(
                "E0153",
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
        if self.expanding.len() >= 32 {
            self.error("E0153", n.span, "definitions are nested too deeply");
            return None;
        }
        let values: Vec<Value> = args.iter().map(|a| self.value(a)).collect::<Option<_>>()?;
        self.expanding.push(n.text.clone());
        // The body sees only its parameters (and the rule's point of view), not the caller's variables.
        let saved_vars = std::mem::take(&mut self.scope.vars);
        for (p, v) in params.iter().zip(values) {
            self.scope.vars.push((p.text.clone(), v));
        }
        let out = self.value(body);
        self.scope.vars = saved_vars;
        self.expanding.pop();
        out
    }

    // ---------- cell tests ----------

    pub(super) fn test(&mut self, t: &ast::Test) -> Option<ir::Test> {
        Some(match &t.kind {
            TestKind::Not(inner) => ir::Test::Not(Box::new(self.test(inner)?)),
            TestKind::And(v) => ir::Test::And(
                v.iter()
                    .map(|x| self.test(x))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .collect::<Option<_>>()?,
            ),
            TestKind::Or(v) => ir::Test::Or(
                v.iter()
                    .map(|x| self.test(x))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .collect::<Option<_>>()?,
            ),
            TestKind::In(r) => ir::Test::Region(self.region(r)?),
            TestKind::Words(a, None) => self.one_word_test(a)?,
            TestKind::Words(owner, Some(piece)) => {
                let owner = match owner.text.as_str() {
                    "friend" => ir::Owner::Friend,
                    "enemy" => ir::Owner::Enemy,
                    _ => {
                        if !self.players.iter().any(|p| p.name == owner.text) {
                            let mut cands: Vec<String> =
                                self.players.iter().map(|p| p.name.clone()).collect();
                            cands.extend(["friend".into(), "enemy".into()]);
                            self.error(
                                "E0101",
                                owner.span,
                                format!("`{}` is not `friend`, `enemy` or a player", owner.text),
                            );
                            self.hint_similar(owner, cands.iter().map(String::as_str));
                            return None;
                        }
                        ir::Owner::Player(self.player_index(owner)?)
                    }
                };
                ir::Test::Piece {
                    owner,
                    pieces: self.piece_set(piece)?,
                }
            }
        })
    }

    fn one_word_test(&mut self, a: &Name) -> Option<ir::Test> {
        let all = if self.pieces.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.pieces.len()) - 1
        };
        Some(match a.text.as_str() {
            "empty" => ir::Test::Empty,
            "occupied" => ir::Test::Occupied,
            "any" => ir::Test::Any,
            "attacked" => ir::Test::Attacked,
            "friend" => ir::Test::Piece {
                owner: ir::Owner::Friend,
                pieces: all,
            },
            "enemy" => ir::Test::Piece {
                owner: ir::Owner::Enemy,
                pieces: all,
            },
            t => {
                if let Some(&f) = self.flags.get(t) {
                    self.used.insert(t.to_string());
                    ir::Test::Flag(f)
                } else if let Some(i) = self.players.iter().position(|p| p.name == t) {
                    ir::Test::Piece {
                        owner: ir::Owner::Player(i as u8),
                        pieces: all,
                    }
                } else if self.pieces.iter().any(|p| p.name == t) || self.groups.contains_key(t) {
                    ir::Test::Piece {
                        owner: ir::Owner::Any,
                        pieces: self.piece_set(a)?,
                    }
                } else if self.regions.contains_key(t) || t == "edge" {
                    self.error("E0150", a.span, format!("`{t}` is a region"))
                        .hint = Some(format!("write `in {t}`"));
                    return None;
                } else {
                    let mut cands: Vec<String> =
                        ["empty", "occupied", "any", "attacked", "friend", "enemy"]
                            .map(String::from)
                            .to_vec();
                    cands.extend(self.flags.keys().cloned());
                    cands.extend(self.pieces.iter().map(|p| p.name.clone()));
                    cands.extend(self.groups.keys().cloned());
                    cands.extend(self.players.iter().map(|p| p.name.clone()));
                    self.error("E0106", a.span, format!("unknown cell test `{t}`"));
                    self.hint_similar(a, cands.iter().map(String::as_str));
                    if self.diags.last().is_some_and(|d| d.hint.is_none()) {
                        self.diags.last_mut().expect("just pushed").hint =
                            Some("a cell test is `empty`, `occupied`, `friend`, `enemy`, a piece, a flag, or `in REGION`".into());
                    }
                    return None;
                }
            }
        })
    }
}

/// Calls `f` on every outermost cell expression of a condition (not inside nested quantifiers'
/// own hoisting, which already happened).
fn walk_cells(c: &mut Cond, f: &mut dyn FnMut(&mut CellExpr)) {
    fn cell(e: &mut CellExpr, f: &mut dyn FnMut(&mut CellExpr)) {
        match e {
            CellExpr::Step(base, _, _) => cell(base, f),
            CellExpr::First { start, .. } => cell(start, f),
            _ => {}
        }
        f(e);
    }
    match c {
        Cond::Is(e, _) => cell(e, f),
        Cond::CellEq(a, b) => {
            cell(a, f);
            cell(b, f);
        }
        Cond::Not(x) => walk_cells(x, f),
        // Another point of view: its `find`s mean something else, so they stay inside.
        Cond::As(..) => {}
        Cond::And(v) | Cond::Or(v) => v.iter_mut().for_each(|x| walk_cells(x, f)),
        Cond::Exists { body, .. } | Cond::Forall { body, .. } => walk_cells(body, f),
        Cond::Let { value, body, .. } => {
            cell(value, f);
            walk_cells(body, f);
        }
        Cond::True | Cond::False | Cond::Cmp(..) | Cond::PlayerEq(..) | Cond::NoMoves => {}
    }
}

/// The direction pointing the other way.
fn opposite(d: DirRef) -> DirRef {
    match d {
        DirRef::Abs(a) => DirRef::Abs((a + 4) & 7),
        DirRef::Rel(r) => DirRef::Rel((r + 4) & 7),
        DirRef::Var(s) => DirRef::Opp(s),
        DirRef::Opp(s) => DirRef::Var(s),
    }
}

fn plain(n: &Name) -> ast::DirName {
    ast::DirName {
        name: n.clone(),
        opposite: false,
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        _ => "?",
    }
}
