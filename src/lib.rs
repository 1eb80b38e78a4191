//! Grasshopper: an engine for the dice-less backgammon variant.
//!
//! Layers point one way: [`rules`] (pure game rules) is used by the search and
//! solver, which are used by the protocol and the command line.

pub mod cli;
pub use match_runner as matchrunner;
pub mod protocol;
pub use grasshopper_engine as search;
pub use grasshopper_rules as rules;
pub use grasshopper_solver as solver;

pub use rules::{
    perft, perft_divide, Color, FenField, IllegalMove, Move, MoveKind, MoveList, Outcome,
    ParseColorError, ParseMoveError, ParsePointError, ParsePositionError, Point, Position,
    Quadrant, Reason, Run, Square, MAX_CHECKERS,
};
pub use solver::{Probe, SharedTables, Solution, Solver, TableError, Tables, Value};
