//! Lab tools for the Grasshopper engine, run from the command line: Texel
//! tuning of the evaluation weights from self-play ([`tune`]), in-process
//! self-play matches between engine settings or baselines ([`selfplay`]),
//! and how often the engine's move gives value away, judged by the
//! retrograde tables ([`quality`]), with each value-losing move explained
//! ([`errors`]).

mod datalines;
pub mod errors;
pub mod midfit;
pub mod quality;
pub mod selfplay;
pub mod truth;
pub mod tune;
