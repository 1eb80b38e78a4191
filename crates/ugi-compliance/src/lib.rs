//! Protocol compliance for engines that speak protocol.md:
//!
//! - [`grammar`]: the strict grammar of every line an engine may write,
//!   [`grammar::classify`] giving a line's typed form or the exact reason it
//!   is refused;
//! - [`strict`]: an engine process read through that grammar, every wait
//!   with a deadline (shared by the checker and the strict-client tests);
//! - [`check`]: `grasshopper compliance`, which drives any such engine
//!   through every command and prints `PASS <check>` or `FAIL <check>: <why>`
//!   per check, every move refereed by the rules crate;
//! - [`positions`]: the fixed positions the checks use.

pub mod check;
pub mod grammar;
pub mod positions;
pub mod strict;

pub use check::{run, CheckResult, Settings};
pub use grammar::{classify, classify_raw, Line, Refusal};
pub use strict::{Fault, StrictEngine};
