//! IR → IR rewrites run once when an engine is built, each a visitor over the program:
//! [`hoist`] binds a `find` inside a quantifier to a slot before the quantifier. It does not
//! change what a program means; the checker's IR is kept as written (that is what
//! `regula ir` prints). Tests are tabulated when they are compiled (`compile::test`).

pub mod hoist;
