//! Every occurrence of a declared name in a file, with what it refers to: the players,
//! pieces, groups, regions, flags, counters and definitions (one namespace, as the checker
//! has it), and the local names of rules (loop and `let` variables, parameters).
//!
//! The walk follows the checker's rules of resolution without its typing: a declaration
//! is the first one of its name (a second is an error, counted here as a use of the first);
//! a name that the checker refuses to declare (a built-in or a cell) declares nothing; where
//! the checker looks a word up among the rule's variables first (expressions, directions,
//! pieces of a choice), a variable hides a declared name of the same spelling; cell tests,
//! regions and the lists of pieces of a section only ever name declared things. Broken
//! sections (with a syntax error) are not read.

use crate::diag::Span;
use crate::syntax::ast::{
    self, DirName, Effect, Expr, ExprKind, Item, Name, Num, RegionDef, RegionExpr, Stmt, Test,
    TestKind,
};
use std::collections::HashMap;

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Player,
    Piece,
    Group,
    Region,
    Flag,
    Counter,
    Definition,
    /// A number set on the command line (`param`).
    Param,
    /// A parameter of a definition.
    Parameter,
    /// A loop or `let` variable of a rule, or the variable of a quantifier.
    Variable,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Player => "player",
            Kind::Piece => "piece",
            Kind::Group => "group",
            Kind::Region => "region",
            Kind::Flag => "flag",
            Kind::Counter => "counter",
            Kind::Definition => "definition",
            Kind::Param => "param",
            Kind::Parameter => "parameter",
            Kind::Variable => "variable",
        }
    }

    /// Whether the name is known in the whole file (not only in its rule).
    pub fn is_global(self) -> bool {
        !matches!(self, Kind::Parameter | Kind::Variable)
    }
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub kind: Kind,
    /// The name where it is declared.
    pub span: Span,
    /// The index of the section that declares it.
    pub item: usize,
}

#[derive(Clone, Debug, Default)]
pub struct Index {
    pub decls: Vec<Decl>,
    /// Every occurrence of a declared name (its declaration included) and the index of its
    /// declaration, in the order of the text.
    pub uses: Vec<(Span, usize)>,
}

impl Index {
    pub fn new(file: &ast::File) -> Index {
        let mut w = Walker::default();
        for (i, item) in file.items.iter().enumerate() {
            w.declare_item(i, item);
        }
        for (i, item) in file.items.iter().enumerate() {
            w.item = i;
            w.walk_item(item);
        }
        let mut ix = w.ix;
        ix.uses.sort_by_key(|(s, _)| (s.start, s.end));
        ix.uses.dedup();
        ix
    }

    /// The occurrence at a byte offset (inside the name or just after it).
    pub fn at(&self, offset: usize) -> Option<(Span, usize)> {
        let i = self.uses.partition_point(|(s, _)| s.end < offset);
        self.uses[i..]
            .iter()
            .take_while(|(s, _)| s.start <= offset)
            .last()
            .copied()
    }

    /// Where a declaration is used, its declaration included.
    pub fn occurrences(&self, decl: usize) -> impl Iterator<Item = Span> + '_ {
        self.uses
            .iter()
            .filter(move |(_, d)| *d == decl)
            .map(|(s, _)| *s)
    }

    /// The declaration of a name known in the whole file.
    pub fn global(&self, name: &str) -> Option<usize> {
        self.decls
            .iter()
            .position(|d| d.kind.is_global() && d.name == name)
    }
}

#[derive(Default)]
struct Walker {
    ix: Index,
    globals: HashMap<String, usize>,
    /// The variables in scope, innermost last.
    scope: Vec<(String, usize)>,
    item: usize,
}

impl Walker {
    fn declare(&mut self, n: &Name, kind: Kind, item: usize) {
        if crate::keywords::is_builtin_name(&n.text)
            || crate::geometry::looks_like_cell_name(&n.text)
        {
            return;
        }
        match self.globals.get(&n.text) {
            Some(&first) => self.ix.uses.push((n.span, first)),
            None => {
                let d = self.ix.decls.len();
                self.ix.decls.push(Decl {
                    name: n.text.clone(),
                    kind,
                    span: n.span,
                    item,
                });
                self.globals.insert(n.text.clone(), d);
                self.ix.uses.push((n.span, d));
            }
        }
    }

    fn declare_item(&mut self, i: usize, item: &Item) {
        match item {
            Item::Players(decls, _) => {
                for p in decls {
                    self.declare(&p.name, Kind::Player, i);
                }
            }
            Item::Piece { name, .. } => self.declare(name, Kind::Piece, i),
            Item::Group { name, .. } => self.declare(name, Kind::Group, i),
            Item::Region { name, .. } => self.declare(name, Kind::Region, i),
            Item::Flag { name, .. } => self.declare(name, Kind::Flag, i),
            Item::Counter { name, .. } => self.declare(name, Kind::Counter, i),
            Item::Define { name, .. } => self.declare(name, Kind::Definition, i),
            Item::Param { name, .. } => self.declare(name, Kind::Param, i),
            // A variant's sections declare what the file's do; the file's come first.
            Item::Variant { items, .. } => items.iter().for_each(|it| self.declare_item(i, it)),
            _ => {}
        }
    }

    /// A use of a declared name (not of a variable).
    fn global(&mut self, n: &Name) {
        if let Some(&d) = self.globals.get(&n.text) {
            self.ix.uses.push((n.span, d));
        }
    }

    /// A use where the rule's variables come first.
    fn name(&mut self, n: &Name) {
        match self.scope.iter().rev().find(|(v, _)| *v == n.text) {
            Some(&(_, d)) => self.ix.uses.push((n.span, d)),
            None => self.global(n),
        }
    }

    /// Binds a variable until the scope is cut back.
    fn bind(&mut self, n: &Name, kind: Kind) {
        let d = self.ix.decls.len();
        self.ix.decls.push(Decl {
            name: n.text.clone(),
            kind,
            span: n.span,
            item: self.item,
        });
        self.ix.uses.push((n.span, d));
        self.scope.push((n.text.clone(), d));
    }

    fn walk_item(&mut self, item: &Item) {
        self.scope.clear();
        match item {
            Item::Region { def, .. } => match def {
                RegionDef::Shared(e) => self.region(e),
                RegionDef::PerPlayer(cases) => {
                    for (p, e) in cases {
                        self.global(p);
                        self.region(e);
                    }
                }
            },
            Item::Flag { initial, .. } => self.region(initial),
            Item::Group { members, .. } => members.iter().for_each(|m| self.global(m)),
            Item::Setup(entries) => {
                for e in entries {
                    self.global(&e.player);
                    self.global(&e.piece);
                    self.region(&e.cells);
                }
            }
            Item::Hand(entries) => {
                for e in entries {
                    self.global(&e.player);
                    for (p, n, _) in &e.counts {
                        self.global(p);
                        self.num(n);
                    }
                }
            }
            Item::Define { params, body, .. } => {
                for p in params {
                    self.bind(p, Kind::Parameter);
                }
                self.expr(body);
            }
            Item::Moves { pieces, body } | Item::Attacks { pieces, body } => {
                pieces.iter().for_each(|p| self.global(p));
                self.stmts(body);
            }
            Item::After {
                pieces, effects, ..
            } => {
                pieces.iter().flatten().for_each(|p| self.global(p));
                self.effects(effects);
            }
            Item::Legal(e) | Item::Score(e) => self.expr(e),
            Item::Action { when, effects, .. } => {
                if let Some(w) = when {
                    self.expr(w);
                }
                self.effects(effects);
            }
            Item::Priority { .. } => {}
            Item::End(rules) => {
                for r in rules {
                    self.expr(&r.cond);
                    if let ast::Outcome::Wins(p) | ast::Outcome::Loses(p) = &r.outcome {
                        self.global(p);
                    }
                }
            }
            Item::Board { shape, .. } => match shape {
                ast::BoardShape::Square { files, ranks }
                | ast::BoardShape::Hex { files, ranks }
                | ast::BoardShape::Points { files, ranks, .. } => {
                    self.num(files);
                    self.num(ranks);
                }
                ast::BoardShape::Hexagon { side } => self.num(side),
            },
            Item::Counter { initial, .. } => self.num(initial),
            Item::Variant { items, .. } => items.iter().for_each(|it| self.walk_item(it)),
            Item::Game { .. }
            | Item::Players(..)
            | Item::Piece { .. }
            | Item::Param { .. }
            | Item::Pass(_)
            | Item::Broken { .. } => {}
        }
    }

    fn region(&mut self, e: &RegionExpr) {
        match e {
            RegionExpr::Named(n) => self.global(n),
            RegionExpr::Binary(_, a, b) => {
                self.region(a);
                self.region(b);
            }
            RegionExpr::Rank(n, _) | RegionExpr::FileNumber(n, _) => self.num(n),
            RegionExpr::Squares(_) | RegionExpr::File(_) => {}
        }
    }

    /// A number written as a parameter or arithmetic of parameters.
    fn num(&mut self, n: &Num) {
        if let Some(e) = &n.expr {
            self.expr(e);
        }
    }

    fn dirs(&mut self, dirs: &[DirName]) {
        dirs.iter().for_each(|d| self.name(&d.name));
    }

    fn stmts(&mut self, body: &[Stmt]) {
        let mark = self.scope.len();
        for s in body {
            self.stmt(s);
        }
        self.scope.truncate(mark);
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::For { var, dirs, body } => {
                self.dirs(dirs);
                let mark = self.scope.len();
                self.bind(var, Kind::Variable);
                self.stmts(body);
                self.scope.truncate(mark);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmts(then);
                self.stmts(otherwise);
            }
            Stmt::Let { var, value } => {
                self.expr(value);
                self.bind(var, Kind::Variable);
            }
            Stmt::Step {
                dirs,
                to,
                cond,
                then,
                ..
            } => {
                self.dirs(dirs);
                self.clauses(to.as_ref(), cond.as_ref(), then);
            }
            Stmt::Slide {
                dirs,
                max,
                through,
                to,
                cond,
                then,
                ..
            } => {
                self.dirs(dirs);
                if let Some((m, _)) = max {
                    self.num(m);
                }
                if let Some(t) = through {
                    self.test(t);
                }
                self.clauses(to.as_ref(), cond.as_ref(), then);
            }
            Stmt::Leap {
                a,
                b,
                toward,
                to,
                cond,
                then,
                ..
            } => {
                self.num(a);
                self.num(b);
                self.dirs(toward);
                self.clauses(to.as_ref(), cond.as_ref(), then);
            }
            Stmt::MoveTo {
                target,
                to,
                cond,
                then,
                ..
            } => {
                match target {
                    ast::MoveTarget::Cell(e) => self.expr(e),
                    ast::MoveTarget::Any(t) => self.test(t),
                }
                self.clauses(to.as_ref(), cond.as_ref(), then);
            }
            Stmt::New(inner) => self.stmt(inner),
            Stmt::Chain { body, until, .. } => {
                self.stmts(body);
                if let Some(u) = until {
                    self.expr(u);
                }
            }
            Stmt::Class { class, body } => {
                self.name(class);
                self.stmts(body);
            }
            Stmt::Place { on, cond, then, .. } => self.clauses(on.as_ref(), cond.as_ref(), then),
        }
    }

    fn clauses(&mut self, to: Option<&Test>, cond: Option<&Expr>, then: &[Effect]) {
        if let Some(t) = to {
            self.test(t);
        }
        if let Some(c) = cond {
            self.expr(c);
        }
        self.effects(then);
    }

    fn effects(&mut self, body: &[Effect]) {
        let mark = self.scope.len();
        for e in body {
            self.effect(e);
        }
        self.scope.truncate(mark);
    }

    fn effect(&mut self, e: &Effect) {
        match e {
            Effect::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.effects(then);
                self.effects(otherwise);
            }
            Effect::For { var, dirs, body } => {
                self.dirs(dirs);
                let mark = self.scope.len();
                self.bind(var, Kind::Variable);
                self.effects(body);
                self.scope.truncate(mark);
            }
            Effect::Along {
                var,
                start,
                dir,
                test,
                body,
            } => {
                self.expr(start);
                self.name(&dir.name);
                self.test(test);
                let mark = self.scope.len();
                self.bind(var, Kind::Variable);
                self.effects(body);
                self.scope.truncate(mark);
            }
            Effect::Let { var, value } => {
                self.expr(value);
                self.bind(var, Kind::Variable);
            }
            Effect::Remove(c) | Effect::Flip(c) => self.expr(c),
            Effect::Clear { flag, at } | Effect::Set { flag, at } => {
                self.global(flag);
                self.expr(at);
            }
            Effect::Counter { name, value, .. } => {
                self.global(name);
                self.expr(value);
            }
            Effect::Change { at, piece } => {
                self.expr(at);
                self.name(piece);
            }
            Effect::Put { piece, at, .. } => {
                self.name(piece);
                self.expr(at);
            }
            Effect::Choose {
                var, from, body, ..
            } => {
                match from {
                    ast::ChooseFrom::Where(_) => {}
                    ast::ChooseFrom::By(start, pattern) => {
                        self.expr(start);
                        match &pattern.kind {
                            ast::PatternKind::Step(d) | ast::PatternKind::Slide(d, _) => {
                                self.dirs(d)
                            }
                            ast::PatternKind::Leap(..) => {}
                        }
                        if let Some(t) = &pattern.to {
                            self.test(t);
                        }
                    }
                }
                let mark = self.scope.len();
                self.bind(var, Kind::Variable);
                if let ast::ChooseFrom::Where(c) = from {
                    self.expr(c);
                }
                self.effects(body);
                self.scope.truncate(mark);
            }
            Effect::Again(_) => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Name(text) => self.name(&Name {
                text: text.clone(),
                span: e.span,
            }),
            ExprKind::Int(_) | ExprKind::From | ExprKind::To | ExprKind::NoMoves => {}
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::And(parts) | ExprKind::Or(parts) => {
                for p in parts {
                    self.expr(p);
                }
            }
            ExprKind::Not(a) => self.expr(a),
            ExprKind::Is(c, t) => {
                self.expr(c);
                self.test(t);
            }
            ExprKind::In(c, r) => {
                self.expr(c);
                self.global(r);
            }
            ExprKind::Quant {
                var, dirs, body, ..
            } => {
                self.dirs(dirs);
                let mark = self.scope.len();
                self.bind(var, Kind::Variable);
                self.expr(body);
                self.scope.truncate(mark);
            }
            ExprKind::First { test, start, dir } => {
                self.test(test);
                self.expr(start);
                self.name(&dir.name);
            }
            ExprKind::Find(t) => self.test(t),
            ExprKind::Count { test, scope, .. } => {
                if let Some(t) = test {
                    self.test(t);
                }
                match scope {
                    Some(ast::CountScope::Along(start, dir)) => {
                        self.expr(start);
                        self.name(&dir.name);
                    }
                    Some(ast::CountScope::Group(start)) => self.expr(start),
                    None => {}
                }
            }
            ExprKind::Lines {
                n, test, through, ..
            } => {
                self.num(n);
                self.test(test);
                self.expr(through);
            }
            ExprKind::Connects(t, a, b) => {
                self.test(t);
                self.global(a);
                self.global(b);
            }
            ExprKind::Opposite(n) | ExprKind::As(n, _) => {
                self.name(n);
                if let ExprKind::As(_, body) = &e.kind {
                    self.expr(body);
                }
            }
            ExprKind::Call(n, args) => {
                self.name(n);
                args.iter().for_each(|a| self.expr(a));
            }
        }
    }

    fn test(&mut self, t: &Test) {
        match &t.kind {
            TestKind::Words(a, b) => {
                self.global(a);
                if let Some(b) = b {
                    self.global(b);
                }
            }
            TestKind::In(r) => self.global(r),
            TestKind::Not(t) => self.test(t),
            TestKind::And(v) | TestKind::Or(v) => v.iter().for_each(|t| self.test(t)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(src: &str) -> Index {
        Index::new(&crate::syntax::parse(src).file)
    }

    fn uses_of<'s>(src: &'s str, ix: &Index, name: &str) -> Vec<&'s str> {
        let d = ix.global(name).unwrap();
        ix.occurrences(d)
            .map(|s| &src[s.start..s.end])
            .collect::<Vec<_>>()
    }

    #[test]
    fn declarations_and_uses_in_every_kind_of_place() {
        let src = "players { white black }\nboard 3 x 3\nregion goal { white: rank 3  black: rank 1 }\n\
                   flag seen = a1\ncounter n = 0\npiece King letter K\ngroup royals = King\n\
                   setup { white King a1  black King c3 }\n\
                   define near(c) = c in goal and c is King\n\
                   moves royals { step all to not friend if near(to) then { set seen at to  n += 1 } }\n\
                   after move of King { if to is seen { clear seen at to } }\n\
                   end { when as previous: last-to in goal: previous wins  when n > 3: white wins }\n";
        let ix = index(src);
        assert_eq!(uses_of(src, &ix, "goal").len(), 3);
        assert_eq!(uses_of(src, &ix, "King").len(), 6);
        assert_eq!(uses_of(src, &ix, "seen").len(), 4);
        assert_eq!(uses_of(src, &ix, "white").len(), 4);
        assert_eq!(uses_of(src, &ix, "near").len(), 2);
        assert_eq!(uses_of(src, &ix, "n").len(), 3);
        assert_eq!(uses_of(src, &ix, "royals").len(), 2);
        let c = ix.decls.iter().position(|d| d.name == "c").unwrap();
        assert_eq!(ix.decls[c].kind, Kind::Parameter);
        assert_eq!(ix.occurrences(c).count(), 3);
    }

    #[test]
    fn a_variable_hides_a_declared_name_where_the_checker_looks_at_variables_first() {
        let src = "piece d letter D\nmoves d { for d in all { step d to d } }\n";
        let ix = index(src);
        // `step d`: the loop variable; `to d`: a cell test, so the piece.
        let piece = ix.global("d").unwrap();
        let spans: Vec<usize> = ix.occurrences(piece).map(|s| s.start).collect();
        assert_eq!(spans, [6, 23, 52]);
        let var = ix
            .decls
            .iter()
            .position(|d| d.kind == Kind::Variable)
            .unwrap();
        assert_eq!(ix.occurrences(var).count(), 2);
    }

    #[test]
    fn refused_and_duplicate_declarations() {
        let src = "piece empty letter E\npiece a1 letter A\npiece K letter K\npiece K letter Q\n";
        let ix = index(src);
        assert!(ix.global("empty").is_none() && ix.global("a1").is_none());
        let k = ix.global("K").unwrap();
        assert_eq!(ix.occurrences(k).count(), 2);
        assert_eq!(ix.decls.len(), 1);
    }

    #[test]
    fn the_occurrence_at_an_offset() {
        let src = "piece King letter K\nmoves King { step all }\n";
        let ix = index(src);
        assert!(ix.at(26).is_some() && ix.at(30).is_some());
        assert!(ix.at(31).is_none() && ix.at(0).is_none());
    }
}
