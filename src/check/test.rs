//! Cell tests (`empty`, `enemy King`, `in throne`, …), regions used in rules, and
//! directions as the board understands them.

use super::declare::BUILTIN_REGIONS;
use super::{Checker, Symbol, Value};
use crate::diag::Code;
use crate::geometry::DirWord;
use crate::ir::{self, DirRef};
use crate::syntax::ast::{self, Name, TestKind};

impl<'a> Checker<'a> {
    /// Direction words, sets and variables, expanded to a list.
    fn plain_dirs(&mut self, n: &Name) -> Vec<DirRef> {
        let t = n.text.as_str();
        if let Some(Value::Dir(d)) = self.lookup_var(t) {
            return vec![d];
        }
        match self.geo().dir_word(t) {
            Some(DirWord::Abs(d)) => vec![DirRef::Abs(d)],
            Some(DirWord::Set(set)) => set.into_iter().map(DirRef::Abs).collect(),
            Some(DirWord::Rel(r)) => {
                if self.players.iter().any(|p| p.forward.is_none()) {
                    self.error(
                        Code::E0125,
                        n.span,
                        format!("`{t}` needs each player's forward direction"),
                    )
                    .hint = Some(
                        "declare it in `players { White forward north  Black forward south }`"
                            .into(),
                    );
                }
                vec![DirRef::Rel(r)]
            }
            Some(DirWord::Unavailable) => {
                let words = self.geo().dir_words().join(", ");
                self.error(
                    Code::E0105,
                    n.span,
                    format!("`{t}` is not a direction of this board"),
                )
                .hint = Some(format!("its directions are {words}"));
                vec![]
            }
            None => {
                let mut cands = self.geo().dir_words();
                let vars: Vec<String> = self
                    .scope
                    .vars
                    .iter()
                    .filter(|(_, v)| matches!(v, Value::Dir(_)))
                    .map(|(n, _)| n.clone())
                    .collect();
                cands.extend(vars.iter().map(String::as_str));
                let hint = crate::diag::suggest(t, cands).map(|s| format!("did you mean `{s}`?"));
                self.error(Code::E0105, n.span, format!("unknown direction `{t}`"))
                    .hint = hint;
                vec![]
            }
        }
    }

    /// Directions as written, `opposite` applied, those after `except` left out.
    pub(super) fn dirs(&mut self, names: &[ast::DirName]) -> Vec<DirRef> {
        // Each direction with the name that gave it, to point at a repeated one.
        let mut out: Vec<(DirRef, &Name)> = Vec::new();
        let mut left_out = Vec::new();
        for d in names {
            let plain = self.plain_dirs(&d.name);
            for r in plain {
                let r = if d.opposite { self.opposite(r) } else { r };
                if d.except {
                    left_out.push(r);
                } else {
                    out.push((r, &d.name));
                }
            }
        }
        out.retain(|(d, _)| !left_out.contains(d));
        let mut warned = Vec::new();
        for (i, &(d, n)) in out.iter().enumerate() {
            let Some(&(_, first)) = out[..i].iter().find(|e| e.0 == d) else {
                continue;
            };
            if warned.contains(&n.span) {
                continue;
            }
            warned.push(n.span);
            let msg = if first.text == n.text {
                format!("`{}` is named twice", n.text)
            } else {
                format!(
                    "`{}` names a direction that `{}` already names",
                    n.text, first.text
                )
            };
            self.error(Code::W0206, n.span, msg).hint = Some(
                "each naming counts: a slide takes the direction again and lists its moves \
                 twice, a `for` runs its body twice; name each direction once"
                    .into(),
            );
        }
        self.count_parts(out.len());
        out.into_iter().map(|(d, _)| d).collect()
    }

    pub(super) fn single_dir(&mut self, d: &ast::DirName) -> Option<DirRef> {
        let n = &d.name;
        let d = self.dirs(std::slice::from_ref(d));
        match d.len() {
            1 => Some(d[0]),
            0 => None,
            _ => {
                self.error(
                    Code::E0107,
                    n.span,
                    format!("`{}` is several directions; one is needed here", n.text),
                )
                .hint = Some("loop over them with `for d in ...` and use `d`".into());
                None
            }
        }
    }

    /// The direction pointing the other way.
    pub(super) fn opposite(&self, d: DirRef) -> DirRef {
        match d {
            DirRef::Abs(a) => DirRef::Abs(self.geo().opposite(a)),
            DirRef::Rel(r) => DirRef::Rel(self.geo().opposite_rotation(r)),
            DirRef::Var(s) => DirRef::Opp(s),
            DirRef::Opp(s) => DirRef::Var(s),
        }
    }

    /// A region named in a rule. Built-in regions become ordinary ones the first time a
    /// rule uses them.
    pub(super) fn region(&mut self, n: &Name) -> Option<u8> {
        if let Some(Symbol::Region(r)) = self.symbols.use_name(&n.text) {
            return Some(r);
        }
        if let Some(cells) = self.builtin_region(&n.text) {
            let i = self.regions.len() as u8;
            self.regions.push(ir::Region {
                name: n.text.clone(),
                cells: vec![cells; self.players.len().max(1)],
            });
            let _ = self.symbols.declare(&n.text, n.span, Symbol::Region(i));
            self.symbols.mark(&n.text, true);
            return Some(i);
        }
        self.unknown(
            Code::E0104,
            n,
            format!("unknown region `{}`", n.text),
            |s| matches!(s, Symbol::Region(_)),
            BUILTIN_REGIONS,
        );
        None
    }

    pub(super) fn test(&mut self, t: &ast::Test) -> Option<ir::Test> {
        self.count_parts(1);
        let all = |c: &mut Self, v: &[ast::Test]| -> Option<Vec<ir::Test>> {
            // Every part is checked, so that each mistake is reported.
            let parts: Vec<Option<ir::Test>> = v.iter().map(|x| c.test(x)).collect();
            parts.into_iter().collect()
        };
        Some(match &t.kind {
            TestKind::Not(inner) => ir::Test::Not(Box::new(self.test(inner)?)),
            TestKind::And(v) => ir::Test::And(all(self, v)?),
            TestKind::Or(v) => ir::Test::Or(all(self, v)?),
            TestKind::In(r) => ir::Test::Region(self.region(r)?),
            TestKind::Words(a, None) => self.one_word_test(a)?,
            TestKind::Words(owner, Some(piece)) => {
                let owner = match owner.text.as_str() {
                    "friend" => ir::Owner::Friend,
                    "enemy" => ir::Owner::Enemy,
                    _ => match self.symbols.get(&owner.text) {
                        Some(Symbol::Player(i)) => ir::Owner::Player(i),
                        _ => {
                            self.unknown(
                                Code::E0101,
                                owner,
                                format!("`{}` is not `friend`, `enemy` or a player", owner.text),
                                |s| matches!(s, Symbol::Player(_)),
                                &["friend", "enemy"],
                            );
                            return None;
                        }
                    },
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
        let t = a.text.as_str();
        Some(match t {
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
            _ => match self.symbols.get(t) {
                Some(Symbol::Flag(f)) => {
                    self.symbols.mark(t, true);
                    ir::Test::Flag(f)
                }
                Some(Symbol::Player(i)) => ir::Test::Piece {
                    owner: ir::Owner::Player(i),
                    pieces: all,
                },
                Some(Symbol::Piece(_) | Symbol::Group(_)) => ir::Test::Piece {
                    owner: ir::Owner::Any,
                    pieces: self.piece_set(a)?,
                },
                Some(Symbol::Region(_)) => return self.region_as_test(a),
                Some(Symbol::Define(ast::Item::Define { params, body, .. }))
                    if params.len() == 1 =>
                {
                    // A definition of one cell as a test: the cell goes into a slot.
                    self.symbols.mark(t, true);
                    let slot = self.alloc_slot(a.span);
                    let value = Value::Cell(crate::ir::CellExpr::Slot(slot));
                    let cond = match self.expand(a, params, body, vec![value])? {
                        Value::Bool(c) => c,
                        v => {
                            self.error(Code::E0150, a.span, format!("`{t}` is {}, not a condition", v.kind()))
                                .hint = Some("a definition used as a cell test is a condition about its one cell".into());
                            return None;
                        }
                    };
                    ir::Test::Def {
                        slot,
                        cond: Box::new(cond),
                    }
                }
                _ if self.builtin_region(t).is_some() => return self.region_as_test(a),
                _ => {
                    if let Some(d) = self.unknown(
                        Code::E0106,
                        a,
                        format!("unknown cell test `{t}`"),
                        |s| {
                            matches!(
                                s,
                                Symbol::Flag(_)
                                    | Symbol::Piece(_)
                                    | Symbol::Group(_)
                                    | Symbol::Player(_)
                            )
                        },
                        &["empty", "occupied", "any", "attacked", "friend", "enemy"],
                    ) && d.hint.is_none()
                    {
                        d.hint = Some("a cell test is `empty`, `occupied`, `friend`, `enemy`, a piece, a flag, or `in REGION`".into());
                    }
                    return None;
                }
            },
        })
    }

    fn region_as_test(&mut self, a: &Name) -> Option<ir::Test> {
        let t = &a.text;
        self.error(Code::E0150, a.span, format!("`{t}` is a region"))
            .hint = Some(format!("write `in {t}`"));
        None
    }
}
