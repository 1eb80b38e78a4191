//! The engine's random generator is the rules crate's seeded dice
//! generator, re-exported so engine code names it in one place.

pub use backgammon_rules::SplitMix;
