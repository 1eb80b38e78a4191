//! The rules of Grasshopper, exactly as `RULES.md` states them: pure, no I/O.
//!
//! Backgammon, when it comes, gets a module of its own beside this one.

mod movegen;
mod moves;
mod perft;
mod position;
mod types;

pub use movegen::{IllegalMove, Outcome, Reason};
pub use moves::{Move, MoveKind, MoveList, ParseMoveError};
pub use perft::{perft, perft2, perft_divide};
pub use position::{FenField, ParsePositionError, Position, Run, Square, MAX_CHECKERS};
pub use types::{Color, ParseColorError, ParsePointError, Point, Quadrant};
