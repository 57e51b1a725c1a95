//! IR → IR rewrites run once when an engine is built, each a visitor over the program:
//! [`merge`] joins quantifiers that look along the same lines for different tests, then
//! [`hoist`] binds a `find` inside a quantifier to a slot before the quantifier. Neither
//! changes what a program means; the checker's IR is kept as written (that is what
//! `regula ir` prints). Tests are tabulated when they are compiled (`compile::test`).

pub mod hoist;
pub mod merge;

/// Runs every pass, in order.
pub fn run(p: &mut crate::ir::Program) {
    merge::run(p);
    hoist::run(p);
}
