//! Lab tools for the Grasshopper engine, run from the command line: Texel
//! tuning of the evaluation weights from self-play ([`tune`]) and in-process
//! self-play matches between engine settings or baselines ([`selfplay`]).

pub mod selfplay;
pub mod tune;
