//! Lab tools for the Grasshopper engine, run from the command line: Texel
//! tuning of the evaluation weights from self-play ([`tune`]), in-process
//! self-play matches between engine settings or baselines ([`selfplay`]),
//! and how often the engine's move gives value away, judged by the
//! retrograde tables ([`quality`]), with each value-losing move explained
//! ([`errors`]); the nets fitted to the tables ([`midfit`]) and the
//! 14-checker game's net fitted to its own searches ([`distill`]).

mod datalines;
pub mod distill;
pub mod errors;
pub mod midfit;
pub mod quality;
pub mod selfplay;
pub mod truth;
pub mod tune;
