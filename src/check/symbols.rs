//! The names a file declares: one table for players, pieces, groups, regions, flags,
//! counters and definitions (they share one namespace), with where each was declared,
//! whether a rule used it, and suggestions for misspellings.

use crate::diag::{Span, suggest_within};
use crate::syntax::ast::Item;
use std::collections::BTreeMap;

/// Work the suggestions of one file may spend (see [`suggest_within`]): enough for every
/// misspelling of a real file, and bounded for a hostile one.
const SUGGESTION_BUDGET: usize = 20_000_000;

/// What a declared name stands for: an index into the checker's list of that kind.
#[derive(Clone, Copy, Debug)]
pub(super) enum Symbol<'a> {
    Player(u8),
    Piece(u8),
    /// A set of piece types.
    Group(u32),
    Region(u8),
    Flag(u8),
    Counter(u8),
    Define(&'a Item),
}

impl PartialEq for Symbol<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Symbol::Player(a), Symbol::Player(b))
            | (Symbol::Piece(a), Symbol::Piece(b))
            | (Symbol::Region(a), Symbol::Region(b))
            | (Symbol::Flag(a), Symbol::Flag(b))
            | (Symbol::Counter(a), Symbol::Counter(b)) => a == b,
            (Symbol::Group(a), Symbol::Group(b)) => a == b,
            (Symbol::Define(a), Symbol::Define(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Symbol<'_> {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Symbol::Player(_) => "player",
            Symbol::Piece(_) => "piece",
            Symbol::Group(_) => "group",
            Symbol::Region(_) => "region",
            Symbol::Flag(_) => "flag",
            Symbol::Counter(_) => "counter",
            Symbol::Define(_) => "definition",
        }
    }
}

struct Entry<'a> {
    symbol: Symbol<'a>,
    span: Span,
    used: bool,
}

pub(super) struct Symbols<'a> {
    /// In name order, so that suggestions do not depend on hashing.
    map: BTreeMap<String, Entry<'a>>,
    suggestion_budget: usize,
}

impl Default for Symbols<'_> {
    fn default() -> Self {
        Symbols {
            map: BTreeMap::new(),
            suggestion_budget: SUGGESTION_BUDGET,
        }
    }
}

impl<'a> Symbols<'a> {
    /// Declares a name; if it is taken, returns where it was declared first.
    pub(super) fn declare(
        &mut self,
        name: &str,
        span: Span,
        symbol: Symbol<'a>,
    ) -> Result<(), Span> {
        if let Some(e) = self.map.get(name) {
            return Err(e.span);
        }
        self.map.insert(
            name.to_string(),
            Entry {
                symbol,
                span,
                used: false,
            },
        );
        Ok(())
    }

    /// What a name stands for, without counting it as used.
    pub(super) fn get(&self, name: &str) -> Option<Symbol<'a>> {
        self.map.get(name).map(|e| e.symbol)
    }

    /// What a name stands for, counting it as used.
    pub(super) fn use_name(&mut self, name: &str) -> Option<Symbol<'a>> {
        let e = self.map.get_mut(name)?;
        e.used = true;
        Some(e.symbol)
    }

    /// Sets the piece types of a declared group.
    pub(super) fn set_group(&mut self, name: &str, mask: u32) {
        if let Some(e) = self.map.get_mut(name) {
            e.symbol = Symbol::Group(mask);
        }
    }

    /// Counts a name as used (or no longer used).
    pub(super) fn mark(&mut self, name: &str, used: bool) {
        if let Some(e) = self.map.get_mut(name) {
            e.used = used;
        }
    }

    pub(super) fn is_used(&self, name: &str) -> bool {
        self.map.get(name).is_some_and(|e| e.used)
    }

    /// The closest declared name of the kinds `keep` accepts (or of `extra`), if close
    /// enough to be a likely misspelling. The suggested name counts as used: the author
    /// meant it.
    pub(super) fn suggest(
        &mut self,
        word: &str,
        keep: impl Fn(&Symbol) -> bool,
        extra: &[&str],
    ) -> Option<String> {
        let cands = self
            .map
            .iter()
            .filter(|(_, e)| keep(&e.symbol))
            .map(|(n, _)| n.as_str())
            .chain(extra.iter().copied());
        let best = suggest_within(word, cands, &mut self.suggestion_budget)?.to_string();
        self.mark(&best, true);
        Some(best)
    }
}
