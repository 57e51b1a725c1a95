//! IR → IR rewrites run once when an engine is built, each a visitor over the program:
//!
//! - [`hoist`]: a `find` inside a quantifier is computed once, before the quantifier;
//! - [`tables`]: a cell test that depends only on the cell, its content and the point of
//!   view becomes a lookup in a precomputed table.
//!
//! Neither changes what a program means; the checker's IR is kept as written (that is
//! what `regula ir` prints).

pub mod hoist;
pub mod tables;

pub use tables::{CODES, Table};
