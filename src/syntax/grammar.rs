//! The pest parser of `grammar/regula.pest` and `grammar/keywords.pest`, and which of its
//! rules are keyword tokens.

use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/regula.pest"]
#[grammar = "../grammar/keywords.pest"]
pub(super) struct Grammar;

/// The keyword a rule matches, if it is a keyword token (`k_for` → `for`).
pub(super) fn keyword_of(rule: Rule) -> Option<&'static str> {
    static TABLE: OnceLock<Vec<Option<&'static str>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        // The grammar's keyword rules are generated from the keyword table under these
        // names (see `keywords::rule_name`). Each name is made once: made for every pair
        // of rule and keyword, they took some 10 million instructions at every start.
        let words: std::collections::HashMap<String, &'static str> = (crate::keywords::KEYWORDS)
            .iter()
            .rev()
            .map(|k| (crate::keywords::rule_name(k.word), k.word))
            .collect();
        let mut t = vec![None; Rule::all_rules().len() + 1];
        for &r in Rule::all_rules() {
            t[r as usize] = words.get(&format!("{r:?}")).copied();
        }
        t
    });
    table.get(rule as usize).copied().flatten()
}

/// Whether a pair is a keyword token, which carries no information once matched.
pub(super) fn is_keyword(rule: Rule) -> bool {
    keyword_of(rule).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_has_a_token_rule_and_nothing_else_is_one() {
        let found: Vec<&str> = Rule::all_rules()
            .iter()
            .filter_map(|&r| keyword_of(r))
            .collect();
        assert_eq!(found.len(), crate::keywords::KEYWORDS.len());
        assert!(!is_keyword(Rule::name) && !is_keyword(Rule::file));
        assert_eq!(keyword_of(Rule::k_toward), Some("toward"));
    }
}
