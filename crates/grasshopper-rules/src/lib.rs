//! The rules of Grasshopper, exactly as `RULES.md` states them: pure, no I/O,
//! no dependencies. Positions, moves, legal move generation, perft, and the
//! game facts that search and solver share ([`Decided`], the canonical key).

mod game;
pub mod mask;
mod movegen;
mod moves;
mod perft;
mod position;
mod types;

pub use game::{Decided, CANONICAL_KEY_BITS};
pub use movegen::{IllegalMove, Outcome, Reason};
pub use moves::{Move, MoveKind, MoveList, ParseMoveError};
pub use perft::{perft, perft2, perft_divide};
pub use position::{FenField, ParsePositionError, Parts, Position, Run, Square, MAX_CHECKERS};
pub use types::{Color, ParseColorError, ParsePointError, Point, Quadrant};
