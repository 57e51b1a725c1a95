//! pest pairs → syntax tree. The grammar has already accepted the text: every `expect`
//! here states a shape the grammar guarantees.

use super::ast::*;
use super::grammar::{Rule, is_keyword};
use pest::iterators::Pair;

// ---------- pairs → AST ----------

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span {
        start: s.start(),
        end: s.end(),
    }
}

fn name(p: Pair<Rule>) -> Name {
    Name {
        text: p.as_str().to_string(),
        span: span(&p),
    }
}

fn int(p: Pair<Rule>) -> i64 {
    p.as_str()
        .parse()
        .expect("items with numbers out of range are refused before they are lowered")
}

/// A `num` or `hand_num`: digits are read now; a parameter or arithmetic is kept as an
/// expression, for `crate::variants::resolve` to compute.
fn num(p: Pair<Rule>) -> Num {
    let sp = span(&p);
    let inner = p.into_inner().next().expect("a number, a name or a sum");
    match inner.as_rule() {
        Rule::int => Num {
            value: int(inner),
            span: sp,
            expr: None,
        },
        Rule::name => Num {
            value: 0,
            span: sp,
            expr: Some(Box::new(Expr {
                kind: ExprKind::Name(inner.as_str().to_string()),
                span: sp,
            })),
        },
        _ => Num {
            value: 0,
            span: sp,
            expr: Some(Box::new(expr(inner))),
        },
    }
}

fn string(p: Pair<Rule>) -> String {
    let s = p.as_str();
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(c) => out.push(c),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a pair is a keyword token, which carries no information once matched.
fn meaningful(p: Pair<Rule>) -> Vec<Pair<Rule>> {
    p.into_inner()
        .filter(|q| !is_keyword(q.as_rule()))
        .collect()
}

fn names(p: Pair<Rule>) -> Vec<Name> {
    p.into_inner().map(name).collect()
}

pub(super) fn item(p: Pair<Rule>) -> Item {
    let sp = span(&p);
    let rule = p.as_rule();
    let longest = p
        .clone()
        .into_inner()
        .any(|q| q.as_rule() == Rule::k_longest);
    let mut inner = meaningful(p).into_iter();
    match rule {
        Rule::game_item => {
            let title = string(inner.next().expect("title"));
            let meta = inner
                .map(|m| {
                    let mut i = m.into_inner();
                    (
                        name(i.next().expect("key")),
                        string(i.next().expect("value")),
                    )
                })
                .collect();
            Item::Game {
                title,
                meta,
                span: sp,
            }
        }
        Rule::players_item => Item::Players(
            inner
                .map(|d| {
                    let mut i = meaningful(d).into_iter();
                    PlayerDecl {
                        name: name(i.next().expect("player")),
                        forward: i.next().map(name),
                    }
                })
                .collect(),
            sp,
        ),
        Rule::board_item => {
            let b = inner.next().expect("shape");
            let rule = b.as_rule();
            let mut parts = meaningful(b).into_iter();
            let mut num = || num(parts.next().expect("a size"));
            let shape = match rule {
                Rule::hexagon_board => BoardShape::Hexagon { side: num() },
                Rule::hex_board => BoardShape::Hex {
                    files: num(),
                    ranks: num(),
                },
                Rule::point_board => {
                    let (files, ranks) = (num(), num());
                    let lines = parts
                        .map(|l| {
                            let start = l.as_span().start();
                            let mut at = start;
                            l.as_str()
                                .split('-')
                                .map(|cell| {
                                    let n = Name {
                                        text: cell.to_string(),
                                        span: Span::new(at, at + cell.len()),
                                    };
                                    at += cell.len() + 1;
                                    n
                                })
                                .collect()
                        })
                        .collect();
                    BoardShape::Points {
                        files,
                        ranks,
                        lines,
                    }
                }
                _ => BoardShape::Square {
                    files: num(),
                    ranks: num(),
                },
            };
            Item::Board { shape, span: sp }
        }
        Rule::region_item => {
            let n = name(inner.next().expect("name"));
            let rest: Vec<_> = inner.collect();
            let def = if rest.len() == 1 && rest[0].as_rule() == Rule::region_expr {
                RegionDef::Shared(region_expr(rest.into_iter().next().expect("expr")))
            } else {
                RegionDef::PerPlayer(
                    rest.into_iter()
                        .map(|c| {
                            let mut i = c.into_inner();
                            (
                                name(i.next().expect("player")),
                                region_expr(i.next().expect("expr")),
                            )
                        })
                        .collect(),
                )
            };
            Item::Region { name: n, def }
        }
        Rule::flag_item => Item::Flag {
            name: name(inner.next().expect("name")),
            initial: region_expr(inner.next().expect("expr")),
        },
        Rule::piece_item => Item::Piece {
            name: name(inner.next().expect("name")),
            letter: name(inner.next().expect("letter")),
            shown: inner
                .map(|sym| {
                    let q = sym.into_inner().next().expect("a symbol");
                    let mut n = name(q.clone());
                    if q.as_rule() == Rule::string {
                        n.text = string(q);
                    }
                    n
                })
                .collect(),
        },
        Rule::group_item => Item::Group {
            name: name(inner.next().expect("name")),
            members: names(inner.next().expect("list")),
        },
        Rule::setup_item => Item::Setup(
            inner
                .map(|e| {
                    let mut i = e.into_inner();
                    SetupEntry {
                        player: name(i.next().expect("player")),
                        piece: name(i.next().expect("piece")),
                        cells: region_expr(i.next().expect("cells")),
                    }
                })
                .collect(),
        ),
        Rule::hand_item => Item::Hand(
            inner
                .map(|e| {
                    let mut i = e.into_inner();
                    let player = name(i.next().expect("player"));
                    let counts = i
                        .map(|c| {
                            let sp = span(&c);
                            let mut j = c.into_inner();
                            (
                                name(j.next().expect("piece")),
                                num(j.next().expect("count")),
                                sp,
                            )
                        })
                        .collect();
                    HandEntry { player, counts }
                })
                .collect(),
        ),
        Rule::counter_item => Item::Counter {
            name: name(inner.next().expect("name")),
            initial: num(inner.next().expect("value")),
        },
        Rule::define_item => {
            let n = name(inner.next().expect("name"));
            let mut params = Vec::new();
            let mut next = inner.next().expect("body");
            if next.as_rule() == Rule::params {
                params = names(next);
                next = inner.next().expect("body");
            }
            Item::Define {
                name: n,
                params,
                body: expr(next),
            }
        }
        Rule::moves_item | Rule::attacks_item => {
            let pieces = names(inner.next().expect("pieces"));
            let body = block(inner.next().expect("block"));
            if rule == Rule::moves_item {
                Item::Moves { pieces, body }
            } else {
                Item::Attacks { pieces, body }
            }
        }
        Rule::after_item => {
            let mut pieces = None;
            let mut next = inner.next().expect("effects");
            if next.as_rule() == Rule::name_list {
                pieces = Some(names(next));
                next = inner.next().expect("effects");
            }
            Item::After {
                pieces,
                effects: effects(next),
                span: sp,
            }
        }
        Rule::legal_item => Item::Legal(expr(inner.next().expect("expr"))),
        Rule::priority_item => Item::Priority {
            longest,
            classes: names(inner.next().expect("classes")),
            span: sp,
        },
        Rule::action_item => {
            let n = name(inner.next().expect("name"));
            let mut next = inner.next().expect("effects");
            let mut when = None;
            if next.as_rule() != Rule::effect_block {
                when = Some(expr(next));
                next = inner.next().expect("effects");
            }
            Item::Action {
                name: n,
                when,
                effects: effects(next),
            }
        }
        Rule::pass_item => Item::Pass(sp),
        Rule::score_item => Item::Score(expr(inner.next().expect("expr"))),
        Rule::end_item => Item::End(
            inner
                .map(|r| {
                    let sp = span(&r);
                    let mut i = meaningful(r).into_iter();
                    let cond = expr(i.next().expect("cond"));
                    let o = i
                        .next()
                        .expect("outcome")
                        .into_inner()
                        .next()
                        .expect("kind");
                    let outcome = match o.as_rule() {
                        Rule::draw => Outcome::Draw,
                        Rule::higher_wins => Outcome::HigherScoreWins,
                        Rule::wins => Outcome::Wins(name(meaningful(o).remove(0))),
                        _ => Outcome::Loses(name(meaningful(o).remove(0))),
                    };
                    EndRule {
                        cond,
                        outcome,
                        span: sp,
                    }
                })
                .collect(),
        ),
        Rule::param_item => {
            let n = name(inner.next().expect("name"));
            let d = inner.next().expect("default");
            let default = (int(d.clone()), span(&d));
            let min = int(inner.next().expect("min"));
            let max = int(inner.next().expect("max"));
            Item::Param {
                name: n,
                default,
                min,
                max,
                span: sp,
            }
        }
        Rule::variant_item => {
            let n = name(inner.next().expect("name"));
            let mut description = None;
            let mut items = Vec::new();
            for q in inner {
                if q.as_rule() == Rule::string {
                    description = Some(string(q));
                } else {
                    items.push(item(q));
                }
            }
            Item::Variant {
                name: n,
                description,
                items,
                span: sp,
            }
        }
        other => unreachable!("grammar item {other:?}"),
    }
}

fn region_expr(p: Pair<Rule>) -> RegionExpr {
    let mut inner = p.into_inner();
    let mut acc = region_term(inner.next().expect("term"));
    while let Some(op) = inner.next() {
        let op = match op.as_str() {
            "|" => RegionOp::Union,
            "&" => RegionOp::Intersection,
            _ => RegionOp::Minus,
        };
        let rhs = region_term(inner.next().expect("rhs"));
        acc = RegionExpr::Binary(op, Box::new(acc), Box::new(rhs));
    }
    acc
}

fn region_term(p: Pair<Rule>) -> RegionExpr {
    match p.as_rule() {
        Rule::squares => RegionExpr::Squares(names(p)),
        Rule::rank_term => {
            let sp = span(&p);
            RegionExpr::Rank(num(meaningful(p).remove(0)), sp)
        }
        Rule::file_term => {
            let sp = span(&p);
            let inner = meaningful(p).remove(0);
            match inner.as_rule() {
                Rule::file_num => RegionExpr::FileNumber(num(inner), sp),
                _ => RegionExpr::File(name(inner)),
            }
        }
        Rule::region_expr => region_expr(p),
        _ => RegionExpr::Named(name(p)),
    }
}

fn block(p: Pair<Rule>) -> Vec<Stmt> {
    p.into_inner().map(stmt).collect()
}

fn dir_name(p: Pair<Rule>) -> DirName {
    let opposite = p
        .clone()
        .into_inner()
        .any(|q| q.as_rule() == Rule::k_opposite);
    let n = p
        .into_inner()
        .find(|q| q.as_rule() == Rule::name)
        .expect("direction name");
    DirName {
        name: name(n),
        opposite,
        except: false,
    }
}

/// A list of directions; those after `except` are marked to be left out.
fn dir_names(p: Pair<Rule>) -> Vec<DirName> {
    let mut out = Vec::new();
    for q in p.into_inner() {
        if q.as_rule() == Rule::except_clause {
            for d in meaningful(q) {
                let mut d = dir_name(d);
                d.except = true;
                out.push(d);
            }
        } else {
            out.push(dir_name(q));
        }
    }
    out
}

/// The optional `to TEST`, `if COND` and `then { … }` clauses of a move statement.
struct Clauses {
    to: Option<Test>,
    cond: Option<Expr>,
    then: Vec<Effect>,
}

fn clauses(inner: &mut std::iter::Peekable<std::vec::IntoIter<Pair<Rule>>>) -> Clauses {
    let mut c = Clauses {
        to: None,
        cond: None,
        then: Vec::new(),
    };
    for p in inner.by_ref() {
        match p.as_rule() {
            Rule::to_clause => c.to = Some(test(meaningful(p).remove(0))),
            Rule::if_clause => c.cond = Some(expr(meaningful(p).remove(0))),
            Rule::then_clause => c.then = effects(meaningful(p).remove(0)),
            Rule::test | Rule::test_unary => c.to = Some(test(p)),
            _ => {}
        }
    }
    c
}

fn stmt(p: Pair<Rule>) -> Stmt {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = meaningful(p).into_iter().peekable();
    match rule {
        Rule::for_stmt => {
            let var = name(inner.next().expect("var"));
            let dirs = dir_names(inner.next().expect("dirs"));
            Stmt::For {
                var,
                dirs,
                body: block(inner.next().expect("body")),
            }
        }
        Rule::if_stmt => {
            let cond = expr(inner.next().expect("cond"));
            let then = block(inner.next().expect("then"));
            let otherwise = match inner.next() {
                Some(e) if e.as_rule() == Rule::if_stmt => vec![stmt(e)],
                Some(e) => block(e),
                None => vec![],
            };
            Stmt::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::let_stmt => Stmt::Let {
            var: name(inner.next().expect("var")),
            value: expr(inner.next().expect("value")),
        },
        Rule::step_stmt => {
            let dirs = dir_names(inner.next().expect("dirs"));
            let c = clauses(&mut inner);
            Stmt::Step {
                dirs,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::slide_stmt => {
            let dirs = dir_names(inner.next().expect("dirs"));
            let mut max = None;
            if inner.peek().map(|q| q.as_rule()) == Some(Rule::max_clause) {
                let m = inner.next().expect("max");
                let msp = span(&m);
                max = Some((num(meaningful(m).remove(0)), msp));
            }
            let mut through = None;
            if inner.peek().map(|q| q.as_rule()) == Some(Rule::through_clause) {
                through = Some(test(meaningful(inner.next().expect("through")).remove(0)));
            }
            let c = clauses(&mut inner);
            Stmt::Slide {
                dirs,
                max,
                through,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::leap_stmt => {
            let a = num(inner.next().expect("a"));
            let b = num(inner.next().expect("b"));
            let mut toward = Vec::new();
            if inner.peek().map(|q| q.as_rule()) == Some(Rule::toward_clause) {
                toward = dir_names(meaningful(inner.next().expect("toward")).remove(0));
            }
            let c = clauses(&mut inner);
            Stmt::Leap {
                a,
                b,
                toward,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::move_stmt => {
            let t = inner.next().expect("target");
            let target = if t.as_rule() == Rule::move_any {
                MoveTarget::Any(test(meaningful(t).remove(0)))
            } else {
                MoveTarget::Cell(expr(t))
            };
            let c = clauses(&mut inner);
            Stmt::MoveTo {
                target,
                to: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::place_stmt => {
            let c = clauses(&mut inner);
            Stmt::Place {
                on: c.to,
                cond: c.cond,
                then: c.then,
                span: sp,
            }
        }
        Rule::new_stmt => Stmt::New(Box::new(stmt(inner.next().expect("statement")))),
        Rule::chain_stmt => Stmt::Chain {
            body: block(inner.next().expect("hops")),
            until: inner.next().map(expr),
            span: sp,
        },
        Rule::class_stmt => Stmt::Class {
            class: name(inner.next().expect("class")),
            body: block(inner.next().expect("body")),
        },
        other => unreachable!("grammar statement {other:?}"),
    }
}

fn effects(p: Pair<Rule>) -> Vec<Effect> {
    p.into_inner().map(effect).collect()
}

fn effect(p: Pair<Rule>) -> Effect {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = meaningful(p).into_iter();
    match rule {
        Rule::if_effect => {
            let cond = expr(inner.next().expect("cond"));
            let then = effects(inner.next().expect("then"));
            let otherwise = match inner.next() {
                Some(e) if e.as_rule() == Rule::if_effect => vec![effect(e)],
                Some(e) => effects(e),
                None => vec![],
            };
            Effect::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::for_effect => {
            let var = name(inner.next().expect("var"));
            let dirs = dir_names(inner.next().expect("dirs"));
            Effect::For {
                var,
                dirs,
                body: effects(inner.next().expect("body")),
            }
        }
        Rule::along_effect => {
            let var = name(inner.next().expect("var"));
            let start = expr(inner.next().expect("start"));
            let dir = dir_name(inner.next().expect("dir"));
            let t = test(inner.next().expect("test"));
            Effect::Along {
                var,
                start,
                dir,
                test: t,
                body: effects(inner.next().expect("body")),
            }
        }
        Rule::let_stmt => Effect::Let {
            var: name(inner.next().expect("var")),
            value: expr(inner.next().expect("value")),
        },
        Rule::remove_eff => Effect::Remove(expr(inner.next().expect("cell"))),
        Rule::flip_eff => Effect::Flip(expr(inner.next().expect("cell"))),
        Rule::change_eff => {
            let at = expr(inner.next().expect("cell"));
            Effect::Change {
                at,
                piece: name(inner.next().expect("piece")),
            }
        }
        Rule::put_eff => {
            let first = name(inner.next().expect("piece"));
            let second = inner.next().expect("cell");
            let (owner, piece, at) = if second.as_rule() == Rule::name {
                (Some(first), name(second), expr(inner.next().expect("cell")))
            } else {
                (None, first, expr(second))
            };
            Effect::Put { owner, piece, at }
        }
        Rule::choose_eff => {
            let var = name(inner.next().expect("var"));
            let src = inner.next().expect("cells");
            let from = if src.as_rule() == Rule::choose_where {
                ChooseFrom::Where(expr(meaningful(src).remove(0)))
            } else {
                let mut parts = meaningful(src).into_iter();
                let start = expr(parts.next().expect("start"));
                ChooseFrom::By(start, pattern(parts.next().expect("pattern")))
            };
            Effect::Choose {
                var,
                from,
                body: effects(inner.next().expect("body")),
                span: sp,
            }
        }
        Rule::clear_eff => Effect::Clear {
            flag: name(inner.next().expect("flag")),
            at: expr(inner.next().expect("at")),
        },
        Rule::set_eff => Effect::Set {
            flag: name(inner.next().expect("flag")),
            at: expr(inner.next().expect("at")),
        },
        Rule::again_eff => Effect::Again(sp),
        Rule::counter_eff => {
            let n = name(inner.next().expect("counter"));
            let op = match inner.next().expect("op").as_str() {
                "+=" => CounterOp::Add,
                "-=" => CounterOp::Sub,
                _ => CounterOp::Assign,
            };
            Effect::Counter {
                name: n,
                op,
                value: expr(inner.next().expect("value")),
            }
        }
        other => unreachable!("grammar effect {other:?}"),
    }
}

fn binary_chain(p: Pair<Rule>, sub: fn(Pair<Rule>) -> Expr) -> Expr {
    let mut inner = p.into_inner();
    let mut acc = sub(inner.next().expect("operand"));
    while let Some(op) = inner.next() {
        let op = match op.as_str() {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            _ => BinOp::Mul,
        };
        let rhs = sub(inner.next().expect("operand"));
        let span = Span {
            start: acc.span.start,
            end: rhs.span.end,
        };
        acc = Expr {
            kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)),
            span,
        };
    }
    acc
}

/// `A and B and …` (or `or`) as one flat list: a chain as long as the file allows costs
/// no recursion.
fn logic_chain(p: Pair<Rule>, and: bool) -> Expr {
    let mut operands: Vec<Expr> = p
        .into_inner()
        .filter(|q| !is_keyword(q.as_rule()))
        .map(expr)
        .collect();
    if operands.len() == 1 {
        return operands.pop().expect("one operand");
    }
    let span = Span {
        start: operands[0].span.start,
        end: operands[operands.len() - 1].span.end,
    };
    let kind = if and {
        ExprKind::And(operands)
    } else {
        ExprKind::Or(operands)
    };
    Expr { kind, span }
}

fn expr(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    match p.as_rule() {
        Rule::expr => expr(p.into_inner().next().expect("or_expr")),
        Rule::or_expr => logic_chain(p, false),
        Rule::and_expr => logic_chain(p, true),
        Rule::sum => binary_chain(p, expr),
        Rule::product => {
            // `*` is a plain string token: rebuild the chain with explicit operators.
            let mut inner = p.into_inner();
            let mut acc = expr(inner.next().expect("atom"));
            for rhs in inner {
                let rhs = expr(rhs);
                let span = Span {
                    start: acc.span.start,
                    end: rhs.span.end,
                };
                acc = Expr {
                    kind: ExprKind::Binary(BinOp::Mul, Box::new(acc), Box::new(rhs)),
                    span,
                };
            }
            acc
        }
        Rule::k_or | Rule::k_and | Rule::add_op => {
            unreachable!("operators are consumed by binary_chain")
        }
        Rule::not_expr => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("operand");
            if first.as_rule() == Rule::k_not {
                Expr {
                    kind: ExprKind::Not(Box::new(expr(inner.next().expect("operand")))),
                    span: sp,
                }
            } else {
                expr(first)
            }
        }
        Rule::cmp_expr => {
            let mut inner = p.into_inner();
            let lhs = expr(inner.next().expect("lhs"));
            match inner.next() {
                None => lhs,
                Some(op) => match op.as_rule() {
                    Rule::k_is => Expr {
                        kind: ExprKind::Is(Box::new(lhs), test(inner.next().expect("test"))),
                        span: sp,
                    },
                    Rule::k_in => Expr {
                        kind: ExprKind::In(Box::new(lhs), name(inner.next().expect("region"))),
                        span: sp,
                    },
                    _ => {
                        let bop = match op.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<=" => BinOp::Le,
                            ">=" => BinOp::Ge,
                            "<" => BinOp::Lt,
                            _ => BinOp::Gt,
                        };
                        let rhs = expr(inner.next().expect("rhs"));
                        Expr {
                            kind: ExprKind::Binary(bop, Box::new(lhs), Box::new(rhs)),
                            span: sp,
                        }
                    }
                },
            }
        }
        Rule::quantifier => {
            let mut inner = p.into_inner();
            let all = inner.next().expect("kind").as_rule() == Rule::k_all;
            let mut rest = inner.filter(|q| q.as_rule() != Rule::k_in);
            let var = name(rest.next().expect("var"));
            let dirs = dir_names(rest.next().expect("dirs"));
            let body = Box::new(expr(rest.next().expect("body")));
            Expr {
                kind: ExprKind::Quant {
                    all,
                    var,
                    dirs,
                    body,
                },
                span: sp,
            }
        }
        Rule::first => {
            let mut inner = meaningful(p).into_iter();
            let t = test(inner.next().expect("test"));
            let start = Box::new(expr(inner.next().expect("start")));
            let dir = dir_name(inner.next().expect("dir"));
            Expr {
                kind: ExprKind::First {
                    test: t,
                    start,
                    dir,
                },
                span: sp,
            }
        }
        Rule::find => Expr {
            kind: ExprKind::Find(test(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::count => {
            let body = meaningful(p).remove(0);
            if body.as_rule() == Rule::count_lines {
                let exact = body
                    .clone()
                    .into_inner()
                    .any(|q| q.as_rule() == Rule::k_exactly);
                let mut parts = meaningful(body).into_iter();
                let n = parts.next().expect("length");
                let n = num(n);
                let t = test(parts.next().expect("test"));
                let through = Box::new(expr(parts.next().expect("cell")));
                return Expr {
                    kind: ExprKind::Lines {
                        n,
                        exact,
                        test: t,
                        through,
                    },
                    span: sp,
                };
            }
            let mut parts = body.into_inner();
            let what = match parts.next().expect("what").as_rule() {
                Rule::k_attacks => CountWhat::Attacks,
                Rule::k_moves => CountWhat::Moves,
                Rule::k_groups => CountWhat::Groups,
                _ => CountWhat::Cells,
            };
            let mut t = None;
            let mut scope = None;
            for q in parts.filter(|q| !is_keyword(q.as_rule())) {
                match q.as_rule() {
                    Rule::test_unary => t = Some(test(q)),
                    Rule::count_along => {
                        let mut a = meaningful(q).into_iter();
                        let start = Box::new(expr(a.next().expect("start")));
                        scope = Some(CountScope::Along(start, dir_name(a.next().expect("dir"))));
                    }
                    _ => {
                        let start = Box::new(expr(meaningful(q).remove(0)));
                        scope = Some(CountScope::Group(start));
                    }
                }
            }
            Expr {
                kind: ExprKind::Count {
                    what,
                    test: t,
                    scope,
                },
                span: sp,
            }
        }
        Rule::connects => {
            let mut parts = meaningful(p).into_iter();
            let t = test(parts.next().expect("test"));
            let a = name(parts.next().expect("region"));
            let b = name(parts.next().expect("region"));
            Expr {
                kind: ExprKind::Connects(t, a, b),
                span: sp,
            }
        }
        Rule::viewpoint => {
            let mut inner = meaningful(p).into_iter();
            let who = name(inner.next().expect("player"));
            let body = Box::new(expr(inner.next().expect("body")));
            Expr {
                kind: ExprKind::As(who, body),
                span: sp,
            }
        }
        Rule::opposite => Expr {
            kind: ExprKind::Opposite(name(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::no_moves => Expr {
            kind: ExprKind::NoMoves,
            span: sp,
        },
        Rule::call => {
            let mut inner = p.into_inner();
            let n = name(inner.next().expect("name"));
            Expr {
                kind: ExprKind::Call(n, inner.map(expr).collect()),
                span: sp,
            }
        }
        Rule::int => Expr {
            kind: ExprKind::Int(int(p)),
            span: sp,
        },
        Rule::from_kw => Expr {
            kind: ExprKind::From,
            span: sp,
        },
        Rule::score_kw => Expr {
            kind: ExprKind::Name("score".into()),
            span: sp,
        },
        Rule::to_kw => Expr {
            kind: ExprKind::To,
            span: sp,
        },
        Rule::name => Expr {
            kind: ExprKind::Name(p.as_str().to_string()),
            span: sp,
        },
        other => unreachable!("grammar expression {other:?}"),
    }
}

fn test(p: Pair<Rule>) -> Test {
    let sp = span(&p);
    match p.as_rule() {
        Rule::test | Rule::test_and => {
            let is_or = p.as_rule() == Rule::test;
            let parts: Vec<Test> = meaningful(p).into_iter().map(test).collect();
            if parts.len() == 1 {
                parts.into_iter().next().expect("one")
            } else if is_or {
                Test {
                    kind: TestKind::Or(parts),
                    span: sp,
                }
            } else {
                Test {
                    kind: TestKind::And(parts),
                    span: sp,
                }
            }
        }
        Rule::test_unary => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("operand");
            if first.as_rule() == Rule::k_not {
                Test {
                    kind: TestKind::Not(Box::new(test(inner.next().expect("operand")))),
                    span: sp,
                }
            } else {
                test(first)
            }
        }
        Rule::test_in => Test {
            kind: TestKind::In(name(meaningful(p).remove(0))),
            span: sp,
        },
        Rule::test_words => {
            let mut inner = p.into_inner();
            let a = name(inner.next().expect("word"));
            Test {
                kind: TestKind::Words(a, inner.next().map(name)),
                span: sp,
            }
        }
        other => unreachable!("grammar test {other:?}"),
    }
}

fn pattern(p: Pair<Rule>) -> Pattern {
    let sp = span(&p);
    let raw: Vec<Pair<Rule>> = p.into_inner().collect();
    let mut to = None;
    let mut kind = None;
    let mut i = 0;
    while i < raw.len() {
        match raw[i].as_rule() {
            Rule::k_step => kind = Some(PatternKind::Step(dir_names(raw[i + 1].clone()))),
            Rule::k_slide => {
                let max = raw
                    .get(i + 2)
                    .filter(|q| q.as_rule() == Rule::max_clause)
                    .map(|m| (num(meaningful(m.clone()).remove(0)), span(m)));
                kind = Some(PatternKind::Slide(dir_names(raw[i + 1].clone()), max));
            }
            Rule::k_leap => {
                kind = Some(PatternKind::Leap(
                    num(raw[i + 1].clone()),
                    num(raw[i + 2].clone()),
                ))
            }
            Rule::to_clause => to = Some(test(meaningful(raw[i].clone()).remove(0))),
            _ => {}
        }
        i += 1;
    }
    Pattern {
        kind: kind.expect("a step, slide or leap"),
        to,
        span: sp,
    }
}
