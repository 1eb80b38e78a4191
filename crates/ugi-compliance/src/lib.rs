//! Protocol compliance for engines that are not necessarily ours:
//!
//! - [`grammar`]: the strict grammar of every line a UGI engine may write
//!   (protocol.md), [`grammar::classify`] giving a line's typed form or the
//!   exact reason it is refused;
//! - [`strict`]: an engine process read through a dialect's grammar, every
//!   wait with a deadline (shared by the checkers and the strict-client tests);
//! - [`ugi`]: `grasshopper compliance`, the UGI checker: the core UGI
//!   requires, and our extensions where the engine offers them;
//! - [`ubgi`]: `grasshopper compliance --ubgi`, the UBGI checker, by the
//!   draft's conformance levels;
//! - [`report`]: `PASS`/`FAIL`/`SKIP` per check and the summary line;
//! - [`positions`]: the fixed Grasshopper positions the UGI checks use.

pub mod grammar;
pub mod positions;
pub mod report;
pub mod strict;
pub mod ubgi;
pub mod ugi;

pub use grammar::{classify, classify_raw, Line, Refusal};
pub use report::{CheckResult, Level, Settings, Summary, Tier, Verdict};
pub use strict::{Fault, StrictEngine};
pub use ugi::run;
