//! Variants and parameters: a file's `variant` and `param` sections, and a choice of
//! variant and of parameter values, resolved into a plain file (no variant or parameter
//! left, every number written out) that the checker reads like any other.
//!
//! A variant's sections replace every section of the file that declares the same thing
//! (the board, a piece, a region of that name, the setup, the `end` rules, the move rules
//! of the same pieces, ...), at the place of the first one; the others are added at the
//! end. Parameters are then set (defaults, the variant's own `param` sections, then the
//! command line's `--set`), and each number written as a parameter or as arithmetic of
//! parameters (`rank (size - 1)`) is computed. A parameter's name in an expression is
//! its value.

use crate::diag::{Code, Diagnostic, Span};
use crate::syntax::ast::{
    BinOp, BoardShape, ChooseFrom, CountScope, Effect, Expr, ExprKind, File, Item, Name, Num,
    PatternKind, RegionDef, RegionExpr, Stmt,
};
use std::collections::HashMap;

/// Most variants a file may declare: `regula check` checks each, so each costs a check of
/// the whole file.
pub const MAX_VARIANTS: usize = 64;
/// Most parameters a file may declare.
pub const MAX_PARAMS: usize = 64;

/// Which ruleset to play: a variant (none: the file as it is) and parameter values.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// The variant's name (`--variant NAME`), or `None` for the file as it is.
    pub variant: Option<String>,
    /// Parameter values (`--set NAME=VALUE`), applied after the variant's defaults.
    pub set: Vec<(String, i64)>,
}

/// A variant as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The name `--variant` takes.
    pub name: String,
    /// The text after the name (`variant small "A quick game" { … }`), if any.
    pub description: Option<String>,
}

/// A parameter as declared (in the chosen variant), with the value chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name, which rules and `--set` use.
    pub name: String,
    /// The value when `--set` gives none (the chosen variant's, if it declares the
    /// parameter again).
    pub default: i64,
    /// The smallest value allowed.
    pub min: i64,
    /// The largest value allowed.
    pub max: i64,
    /// The value the game is played with.
    pub value: i64,
}

/// A file resolved for one choice.
#[derive(Debug, Default)]
pub struct Resolved {
    /// The file with the variant's sections in place and every parameter written out as
    /// its value: no variant or parameter is left in it.
    pub file: File,
    /// The parameters the file declares, in order, with the values chosen.
    pub params: Vec<Param>,
    /// Problems of the variant and parameter sections, of the numbers written with
    /// parameters, and of the choice itself (unlocated: a command line's mistakes).
    pub diagnostics: Vec<Diagnostic>,
}

/// The variants a file declares, in order (the first of each name, up to
/// [`MAX_VARIANTS`]).
pub fn variants(file: &File) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for item in &file.items {
        if out.len() >= MAX_VARIANTS {
            break;
        }
        if let Item::Variant {
            name, description, ..
        } = item
            && !out.iter().any(|v| v.name == name.text)
        {
            out.push(Variant {
                name: name.text.clone(),
                description: description.clone(),
            });
        }
    }
    out
}

/// Whether a diagnostic is about the choice (an unknown variant or parameter, a value out
/// of range on a command line) rather than about the file.
pub fn is_choice_error(d: &Diagnostic) -> bool {
    d.span.is_none() && matches!(d.code, Code::E0160 | Code::E0161 | Code::E0162)
}

/// The file for a choice of variant and parameter values. The file is taken, not copied:
/// its trees may be hundreds of levels deep.
pub fn resolve(file: File, choice: &Choice) -> Resolved {
    let mut diags = Vec::new();
    let mut items = Vec::new();
    let mut chosen = None;
    let mut seen: HashMap<String, Span> = HashMap::new();
    for item in file.items {
        match item {
            Item::Variant { name, items: v, .. } => {
                if let Some(first) = seen.get(&name.text) {
                    diags.push(
                        Diagnostic::new(
                            Code::E0111,
                            name.span,
                            format!("variant `{}` is declared twice", name.text),
                        )
                        .with_label(*first, "first declared here")
                        .with_hint("give each variant its own name"),
                    );
                    continue;
                }
                if seen.len() >= MAX_VARIANTS {
                    diags.push(Diagnostic::new(
                        Code::E0118,
                        name.span,
                        format!("more than {MAX_VARIANTS} variants"),
                    ));
                    continue;
                }
                if choice.variant.as_deref() == Some(name.text.as_str()) {
                    chosen = Some(v);
                }
                seen.insert(name.text, name.span);
            }
            other => items.push(other),
        }
    }
    if let Some(want) = &choice.variant
        && chosen.is_none()
    {
        let names: Vec<&str> = seen.keys().map(String::as_str).collect();
        let mut d = Diagnostic::unlocated(Code::E0160, format!("unknown variant `{want}`"));
        d.hint = Some(match crate::diag::suggest(want, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None if names.is_empty() => "this game declares no variants".into(),
            None => {
                let mut sorted = names.clone();
                sorted.sort_unstable();
                format!("the variants are: {}", sorted.join(", "))
            }
        });
        diags.push(d);
    }
    if let Some(v) = chosen {
        merge(&mut items, v);
    }
    let (params, values) = params(&mut items, choice, &mut diags);
    let mut r = Numbers {
        values,
        diags: Vec::new(),
    };
    r.binders(&items);
    for item in &mut items {
        if !r.item(item) {
            // A board whose size is unknown is read as a broken section: the checker then
            // reports neither a missing board nor every square as off it.
            if let Item::Board { span, .. } = item {
                *item = Item::Broken {
                    span: *span,
                    keyword: Some("board".into()),
                    words: Vec::new(),
                };
            }
        }
    }
    diags.extend(r.diags);
    Resolved {
        file: File { items },
        params,
        diagnostics: diags,
    }
}

/// What a section declares, for a variant's section to replace it: sections that declare
/// a name by the name (one namespace), the others by their keyword (and pieces).
fn key(item: &Item) -> Option<String> {
    let names = |v: &[Name]| {
        v.iter()
            .map(|n| n.text.as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    Some(match item {
        Item::Game { .. } => "game".into(),
        Item::Players(..) => "players".into(),
        Item::Board { .. } => "board".into(),
        Item::Setup(_) => "setup".into(),
        Item::Hand(_) => "hand".into(),
        Item::Legal(_) => "legal".into(),
        Item::Pass(_) => "pass".into(),
        Item::Score(_) => "score".into(),
        Item::End(_) => "end".into(),
        Item::Priority { .. } => "priority".into(),
        Item::Region { name, .. }
        | Item::Flag { name, .. }
        | Item::Piece { name, .. }
        | Item::Group { name, .. }
        | Item::Counter { name, .. }
        | Item::Define { name, .. }
        | Item::Param { name, .. }
        | Item::Action { name, .. } => format!("name {}", name.text),
        Item::Moves { pieces, .. } => format!("moves {}", names(pieces)),
        Item::Attacks { pieces, .. } => format!("attacks {}", names(pieces)),
        Item::After { pieces, .. } => {
            format!("after {}", pieces.as_deref().map_or(String::new(), names))
        }
        Item::Variant { .. } | Item::Broken { .. } => return None,
    })
}

/// Applies a variant's sections to the file's: each replaces the file's sections with the
/// same key, at the place of the first; the others are added at the end.
fn merge(items: &mut Vec<Item>, variant: Vec<Item>) {
    let mut added: Vec<Item> = Vec::new();
    let mut groups: Vec<(String, Vec<Item>)> = Vec::new();
    for v in variant {
        match key(&v) {
            None => added.push(v),
            Some(k) => match groups.iter_mut().find(|(g, _)| *g == k) {
                Some((_, g)) => g.push(v),
                None => groups.push((k, vec![v])),
            },
        }
    }
    for (k, group) in groups {
        match items.iter().position(|it| key(it).as_ref() == Some(&k)) {
            Some(at) => {
                let mut j = 0;
                items.retain(|it| {
                    j += 1;
                    j - 1 == at || key(it).as_ref() != Some(&k)
                });
                items.splice(at..=at, group);
            }
            None => added.extend(group),
        }
    }
    items.extend(added);
}

/// The parameters of the file (its `param` sections are taken out), with the choice's
/// values applied: each parameter's declaration and the value it takes.
fn params(
    items: &mut Vec<Item>,
    choice: &Choice,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Param>, HashMap<String, i64>) {
    let mut out: Vec<Param> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let declared: HashMap<String, Span> = items
        .iter()
        .filter_map(|it| match it {
            Item::Region { name, .. }
            | Item::Flag { name, .. }
            | Item::Piece { name, .. }
            | Item::Group { name, .. }
            | Item::Counter { name, .. }
            | Item::Define { name, .. } => Some((name.text.clone(), name.span)),
            _ => None,
        })
        .chain(items.iter().flat_map(|it| {
            match it {
                Item::Players(decls, _) => decls
                    .iter()
                    .map(|d| (d.name.text.clone(), d.name.span))
                    .collect(),
                _ => Vec::new(),
            }
        }))
        .collect();
    for item in items.iter() {
        let Item::Param {
            name,
            default,
            min,
            max,
            ..
        } = item
        else {
            continue;
        };
        if let Some(i) = out.iter().position(|p| p.name == name.text) {
            diags.push(
                Diagnostic::new(
                    Code::E0111,
                    name.span,
                    format!("parameter `{}` is declared twice", name.text),
                )
                .with_label(spans[i], "first declared here")
                .with_hint(
                    "a variant's `param` replaces the file's; in one place, declare it once",
                ),
            );
            continue;
        }
        if let Some(other) = declared.get(&name.text) {
            diags.push(
                Diagnostic::new(
                    Code::E0111,
                    name.span,
                    format!("`{}` is declared as a parameter and as something else", name.text),
                )
                .with_label(*other, "also declared here")
                .with_hint("players, pieces, regions, flags, counters, definitions and parameters share one namespace"),
            );
            continue;
        }
        if crate::keywords::is_builtin_name(&name.text)
            || crate::geometry::looks_like_cell_name(&name.text)
        {
            diags.push(
                Diagnostic::new(
                    Code::E0110,
                    name.span,
                    format!("`{}` is a built-in name or a square", name.text),
                )
                .with_hint("give the parameter another name"),
            );
            continue;
        }
        if min > max || !(min..=max).contains(&&default.0) {
            diags.push(
                Diagnostic::new(
                    Code::E0162,
                    default.1,
                    format!(
                        "the default {} of `{}` is not within {min}..{max}",
                        default.0, name.text
                    ),
                )
                .with_hint(if min > max {
                    "the range is written smallest first: `in MIN..MAX`".to_string()
                } else {
                    format!("give a default from {min} to {max}, or widen the range")
                }),
            );
        }
        if out.len() >= MAX_PARAMS {
            diags.push(Diagnostic::new(
                Code::E0118,
                name.span,
                format!("more than {MAX_PARAMS} parameters"),
            ));
            continue;
        }
        spans.push(name.span);
        out.push(Param {
            name: name.text.clone(),
            default: default.0,
            min: *min,
            max: *max,
            value: default.0,
        });
    }
    items.retain(|it| !matches!(it, Item::Param { .. }));
    for (name, value) in &choice.set {
        let Some(p) = out.iter_mut().find(|p| p.name == *name) else {
            let names: Vec<&str> = out.iter().map(|p| p.name.as_str()).collect();
            let mut d = Diagnostic::unlocated(Code::E0161, format!("unknown parameter `{name}`"));
            d.hint = Some(match crate::diag::suggest(name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if names.is_empty() => "this game declares no parameters".into(),
                None => format!("the parameters are: {}", names.join(", ")),
            });
            diags.push(d);
            continue;
        };
        if !(p.min..=p.max).contains(value) {
            diags.push(
                Diagnostic::unlocated(Code::E0162, format!("`{name}={value}` is out of range"))
                    .with_hint(format!("`{name}` goes from {} to {}", p.min, p.max)),
            );
            continue;
        }
        p.value = *value;
    }
    let values = out.iter().map(|p| (p.name.clone(), p.value)).collect();
    (out, values)
}

/// The walk that computes numbers and puts parameters' values into expressions.
struct Numbers {
    values: HashMap<String, i64>,
    diags: Vec<Diagnostic>,
}

impl Numbers {
    /// Refuses variables and definition parameters named like a parameter: in their scope,
    /// the name would mean two things.
    fn binders(&mut self, items: &[Item]) {
        let mut names = Vec::new();
        for item in items {
            match item {
                Item::Define { params, body, .. } => {
                    names.extend(params.iter().cloned());
                    expr_binders(body, &mut names);
                }
                Item::Moves { body, .. } | Item::Attacks { body, .. } => {
                    stmt_binders(body, &mut names)
                }
                Item::After { effects, .. } | Item::Action { effects, .. } => {
                    effect_binders(effects, &mut names)
                }
                Item::Legal(e) | Item::Score(e) => expr_binders(e, &mut names),
                Item::End(rules) => rules.iter().for_each(|r| expr_binders(&r.cond, &mut names)),
                _ => {}
            }
        }
        for n in names {
            if self.values.contains_key(&n.text) {
                self.diags.push(
                    Diagnostic::new(
                        Code::E0111,
                        n.span,
                        format!("`{}` is already a parameter", n.text),
                    )
                    .with_hint("give the variable another name"),
                );
            }
        }
    }

    /// Resolves the numbers of a section; false if one of them could not be computed.
    fn item(&mut self, item: &mut Item) -> bool {
        let before = self.diags.len();
        match item {
            Item::Board { shape, .. } => match shape {
                BoardShape::Square { files, ranks }
                | BoardShape::Hex { files, ranks }
                | BoardShape::Points { files, ranks, .. } => {
                    self.num(files);
                    self.num(ranks);
                }
                BoardShape::Hexagon { side } => self.num(side),
            },
            Item::Region { def, .. } => match def {
                RegionDef::Shared(e) => self.region(e),
                RegionDef::PerPlayer(cases) => cases.iter_mut().for_each(|(_, e)| self.region(e)),
            },
            Item::Flag { initial, .. } => self.region(initial),
            Item::Setup(entries) => entries.iter_mut().for_each(|e| self.region(&mut e.cells)),
            Item::Hand(entries) => {
                for e in entries {
                    e.counts.iter_mut().for_each(|(_, n, _)| self.num(n));
                }
            }
            Item::Counter { initial, .. } => self.num(initial),
            Item::Define { body, .. } => self.expr(body),
            Item::Moves { body, .. } | Item::Attacks { body, .. } => self.stmts(body),
            Item::After { effects, .. } => self.effects(effects),
            Item::Action { when, effects, .. } => {
                if let Some(w) = when {
                    self.expr(w);
                }
                self.effects(effects);
            }
            Item::Legal(e) | Item::Score(e) => self.expr(e),
            Item::End(rules) => rules.iter_mut().for_each(|r| self.expr(&mut r.cond)),
            Item::Game { .. }
            | Item::Players(..)
            | Item::Piece { .. }
            | Item::Group { .. }
            | Item::Pass(_)
            | Item::Priority { .. }
            | Item::Param { .. }
            | Item::Variant { .. }
            | Item::Broken { .. } => {}
        }
        self.diags.len() == before
    }

    fn num(&mut self, n: &mut Num) {
        if let Some(e) = n.expr.take() {
            // One, when the number cannot be computed: a value every place accepts, so
            // that no second error follows from the first.
            n.value = self.constant(&e).unwrap_or(1);
        }
    }

    /// The value of arithmetic on numbers and parameters, or an error.
    fn constant(&mut self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Name(n) => match self.values.get(n) {
                Some(v) => Some(*v),
                None => {
                    let names: Vec<&str> = self.values.keys().map(String::as_str).collect();
                    let mut d =
                        Diagnostic::new(Code::E0161, e.span, format!("unknown parameter `{n}`"));
                    d.hint = Some(match crate::diag::suggest(n, names.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "declare it: `param NAME = DEFAULT in MIN..MAX`".into(),
                    });
                    self.diags.push(d);
                    None
                }
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (a, b) = (self.constant(a), self.constant(b));
                let (a, b) = (a?, b?);
                // Saturating, like the engine's arithmetic.
                Some(match op {
                    BinOp::Add => a.saturating_add(b),
                    BinOp::Sub => a.saturating_sub(b),
                    _ => a.saturating_mul(b),
                })
            }
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        Code::E0163,
                        e.span,
                        "this number must be known before the game starts",
                    )
                    .with_hint("write a number, a parameter, or `+ - *` of them in parentheses: `(size - 1)`"),
                );
                None
            }
        }
    }

    fn region(&mut self, e: &mut RegionExpr) {
        match e {
            RegionExpr::Rank(n, _) | RegionExpr::FileNumber(n, _) => self.num(n),
            RegionExpr::Binary(_, a, b) => {
                self.region(a);
                self.region(b);
            }
            RegionExpr::Squares(_) | RegionExpr::File(_) | RegionExpr::Named(_) => {}
        }
    }

    fn stmts(&mut self, body: &mut [Stmt]) {
        body.iter_mut().for_each(|s| self.stmt(s));
    }

    fn stmt(&mut self, s: &mut Stmt) {
        let (cond, then) = match s {
            Stmt::For { body, .. }
            | Stmt::Chain {
                body, until: None, ..
            }
            | Stmt::Class { body, .. } => {
                return self.stmts(body);
            }
            Stmt::Chain {
                body,
                until: Some(u),
                ..
            } => {
                self.expr(u);
                return self.stmts(body);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmts(then);
                return self.stmts(otherwise);
            }
            Stmt::Let { value, .. } => return self.expr(value),
            Stmt::New(inner) => return self.stmt(inner),
            Stmt::Step { cond, then, .. } | Stmt::Place { cond, then, .. } => (cond, then),
            Stmt::Slide {
                max, cond, then, ..
            } => {
                if let Some((m, _)) = max {
                    self.num(m);
                }
                (cond, then)
            }
            Stmt::Leap {
                a, b, cond, then, ..
            } => {
                self.num(a);
                self.num(b);
                (cond, then)
            }
            Stmt::MoveTo {
                target, cond, then, ..
            } => {
                if let crate::syntax::ast::MoveTarget::Cell(e) = target {
                    self.expr(e);
                }
                (cond, then)
            }
        };
        if let Some(c) = cond {
            self.expr(c);
        }
        self.effects(then);
    }

    fn effects(&mut self, body: &mut [Effect]) {
        for e in body {
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
                Effect::For { body, .. } => self.effects(body),
                Effect::Along { start, body, .. } => {
                    self.expr(start);
                    self.effects(body);
                }
                Effect::Let { value, .. } => self.expr(value),
                Effect::Remove(x) | Effect::Flip(x) => self.expr(x),
                Effect::Clear { at, .. }
                | Effect::Set { at, .. }
                | Effect::Change { at, .. }
                | Effect::Put { at, .. } => self.expr(at),
                Effect::Counter { value, .. } => self.expr(value),
                Effect::Again(_) => {}
                Effect::Choose { from, body, .. } => {
                    match from {
                        ChooseFrom::Where(c) => self.expr(c),
                        ChooseFrom::By(start, p) => {
                            self.expr(start);
                            match &mut p.kind {
                                PatternKind::Slide(_, Some((m, _))) => self.num(m),
                                PatternKind::Leap(a, b) => {
                                    self.num(a);
                                    self.num(b);
                                }
                                PatternKind::Step(_) | PatternKind::Slide(_, None) => {}
                            }
                        }
                    }
                    self.effects(body);
                }
            }
        }
    }

    /// Without recursion: an expression may be hundreds of levels deep.
    fn expr(&mut self, e: &mut Expr) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if let ExprKind::Name(n) = &e.kind
                && let Some(&v) = self.values.get(n.as_str())
            {
                e.kind = ExprKind::Int(v);
                continue;
            }
            match &mut e.kind {
                ExprKind::Binary(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::And(v) | ExprKind::Or(v) | ExprKind::Call(_, v) => stack.extend(v),
                ExprKind::Not(x)
                | ExprKind::Is(x, _)
                | ExprKind::In(x, _)
                | ExprKind::As(_, x)
                | ExprKind::Quant { body: x, .. }
                | ExprKind::First { start: x, .. }
                | ExprKind::Count {
                    scope: Some(CountScope::Along(x, _) | CountScope::Group(x)),
                    ..
                } => stack.push(x),
                ExprKind::Lines { n, through, .. } => {
                    self.num(n);
                    stack.push(through);
                }
                _ => {}
            }
        }
    }
}

fn stmt_binders(body: &[Stmt], out: &mut Vec<Name>) {
    for s in body {
        match s {
            Stmt::For { var, body, .. } => {
                out.push(var.clone());
                stmt_binders(body, out);
            }
            Stmt::Let { var, value } => {
                out.push(var.clone());
                expr_binders(value, out);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                expr_binders(cond, out);
                stmt_binders(then, out);
                stmt_binders(otherwise, out);
            }
            Stmt::Chain { body, until, .. } => {
                stmt_binders(body, out);
                if let Some(u) = until {
                    expr_binders(u, out);
                }
            }
            Stmt::Class { body, .. } => stmt_binders(body, out),
            Stmt::New(inner) => stmt_binders(std::slice::from_ref(inner.as_ref()), out),
            Stmt::Step { cond, then, .. }
            | Stmt::Slide { cond, then, .. }
            | Stmt::Leap { cond, then, .. }
            | Stmt::MoveTo { cond, then, .. }
            | Stmt::Place { cond, then, .. } => {
                if let Some(c) = cond {
                    expr_binders(c, out);
                }
                effect_binders(then, out);
            }
        }
    }
}

fn effect_binders(body: &[Effect], out: &mut Vec<Name>) {
    for e in body {
        match e {
            Effect::If {
                cond,
                then,
                otherwise,
            } => {
                expr_binders(cond, out);
                effect_binders(then, out);
                effect_binders(otherwise, out);
            }
            Effect::For { var, body, .. } | Effect::Along { var, body, .. } => {
                out.push(var.clone());
                effect_binders(body, out);
            }
            Effect::Let { var, value } => {
                out.push(var.clone());
                expr_binders(value, out);
            }
            Effect::Choose {
                var, from, body, ..
            } => {
                out.push(var.clone());
                if let ChooseFrom::Where(c) = from {
                    expr_binders(c, out);
                }
                effect_binders(body, out);
            }
            _ => {}
        }
    }
}

/// Without recursion, like [`Numbers::expr`].
fn expr_binders(e: &Expr, out: &mut Vec<Name>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Quant { var, body, .. } => {
                out.push(var.clone());
                stack.push(body);
            }
            ExprKind::Binary(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            ExprKind::And(v) | ExprKind::Or(v) | ExprKind::Call(_, v) => stack.extend(v),
            ExprKind::Not(x)
            | ExprKind::Is(x, _)
            | ExprKind::In(x, _)
            | ExprKind::As(_, x)
            | ExprKind::First { start: x, .. }
            | ExprKind::Count {
                scope: Some(CountScope::Along(x, _) | CountScope::Group(x)),
                ..
            }
            | ExprKind::Lines { through: x, .. } => stack.push(x),
            _ => {}
        }
    }
}
