//! Whole-file checks, run once everything is lowered: pieces that never move, players
//! without pieces, missing end rules or title, names nobody uses, and definitions nobody
//! uses (still checked for mistakes).

use super::declare::item_span;
use super::rules::Rules;
use super::{Checker, Place, Scope, Symbol};
use crate::diag::{Code, Span};
use crate::ir;
use crate::syntax::ast::{self, Item};

impl<'a> Checker<'a> {
    pub(super) fn lint_rules(&mut self, file: &ast::File, r: &Rules) {
        for (i, m) in r.moves.iter().enumerate() {
            let in_hand = r.hand.iter().any(|&(_, p, n)| p as usize == i && n > 0);
            let on_board = r.setup.iter().any(|s| s.piece as usize == i);
            let name = self.pieces[i].name.clone();
            // A broken section that names the piece may have been its move rules.
            if m.is_none() && (in_hand || on_board) && !self.broken.words.contains(&name) {
                self.error(
                    Code::W0201,
                    self.piece_spans[i],
                    format!("piece `{name}` has no move rule"),
                )
                .hint = Some(format!(
                    "add `moves {name} {{ ... }}`, or leave it out if it never moves"
                ));
            }
        }
        // A misspelt player, piece or cell in the setup has its own error already, and a
        // broken setup or hand may have given the pieces.
        let quiet = r.setup_incomplete
            || self.board.is_none()
            || self.players.len() > ir::MAX_PLAYERS
            || self.broken.sections.contains("setup")
            || self.broken.sections.contains("hand");
        let players_span = file
            .items
            .iter()
            .find(|i| matches!(i, Item::Players(..)))
            .map(item_span);
        if let (false, Some(span)) = (quiet, players_span) {
            for (i, p) in self.players.clone().iter().enumerate() {
                let has = r.setup.iter().any(|s| s.player as usize == i)
                    || r.hand.iter().any(|h| h.0 as usize == i && h.2 > 0);
                if !has {
                    self.error(
                        Code::E0132,
                        span,
                        format!("player `{}` has no pieces", p.name),
                    )
                    .hint = Some("give the player pieces in `setup` or in `hand`".into());
                }
            }
        }
        let first = file.items.first().map_or(Span::default(), item_span);
        if !file.items.iter().any(|i| matches!(i, Item::End(_)))
            && !self.broken.sections.contains("end")
        {
            self.error(
                Code::W0202,
                first,
                "the game has no end rules and can only end when a player cannot move",
            )
            .hint = Some("add an `end { when CONDITION: RESULT }` block".into());
        }
        if r.title.is_none() && !self.broken.sections.contains("game") {
            self.error(
                Code::W0203,
                first,
                "the file has no `game \"Name\" { ... }` block",
            );
        }
    }

    /// Definitions are checked where they are used; one that is never used is checked
    /// once on its own, so that its mistakes are still reported.
    pub(super) fn check_unused_definitions(&mut self, file: &'a ast::File) {
        for item in &file.items {
            if let Item::Define { name, params, body } = item
                && params.is_empty()
                && self
                    .symbols
                    .get(&name.text)
                    .is_some_and(|s| matches!(s, Symbol::Define(_)))
                && !self.symbols.is_used(&name.text)
            {
                self.scope = Scope::default();
                self.place = Some(Place::Anywhere);
                self.expansion.site = name.span;
                self.expansion.stack.push(name.text.clone());
                let _ = self.value(body);
                self.end_expansion();
                self.symbols.mark(&name.text, false);
            }
        }
    }

    pub(super) fn warn_unused(&mut self, file: &ast::File) {
        for item in &file.items {
            let name = match item {
                Item::Region { name, .. }
                | Item::Define { name, .. }
                | Item::Group { name, .. }
                | Item::Counter { name, .. }
                | Item::Flag { name, .. } => name,
                _ => continue,
            };
            let Some(symbol) = self.symbols.get(&name.text) else {
                continue;
            };
            // Only the declaration that owns the name (not a duplicate) is reported.
            let owns = match (symbol, item) {
                (Symbol::Define(d), _) => std::ptr::eq(d, item),
                (Symbol::Region(_), Item::Region { .. })
                | (Symbol::Group(_), Item::Group { .. })
                | (Symbol::Counter(_), Item::Counter { .. })
                | (Symbol::Flag(_), Item::Flag { .. }) => true,
                _ => false,
            };
            if owns && !self.symbols.is_used(&name.text) && !self.broken.words.contains(&name.text)
            {
                self.error(
                    Code::W0204,
                    name.span,
                    format!("{} `{}` is never used", symbol.kind(), name.text),
                )
                .hint = Some("remove it, or use it in a rule".into());
            }
        }
    }
}

/// The value of a condition that does not depend on the game, if it has one.
pub(super) fn constant(c: &ir::Cond) -> Option<bool> {
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
