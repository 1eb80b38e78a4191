//! The rules crate against docs/rules/RULES.md and against an independent naive model
//! (testkit): one test binary, a module per concern.

mod examples;
mod forced;
mod naive;
mod perft;
mod props;
