//! The rules of Grasshopper, exactly as `docs/rules/RULES.md` (in the
//! repository) states them: pure, no I/O, no dependencies. Positions, moves,
//! legal move generation, perft, and the game facts that search and solver
//! share ([`Decided`], the canonical key).
//!
//! Read a position string (protocol.md's form: the 24 points by quadrant,
//! the side to move, the checkers each side has still to enter, the score
//! and the scoring run), list its legal moves and play one:
//!
//! ```
//! use grasshopper_rules::{Move, Outcome, Position};
//!
//! // The 4-checker game at its start: an empty board, White to move.
//! let start: Position = "....../....../....../...... w 4 4 0-0 -".parse()?;
//! assert_eq!(start, Position::start(4).unwrap());
//!
//! // The first action is an entry onto an empty point of quadrant A.
//! let moves: Vec<String> = start.legal_moves().as_slice().iter().map(Move::to_string).collect();
//! assert_eq!(moves, ["bar/1", "bar/2", "bar/3", "bar/4", "bar/5", "bar/6"]);
//!
//! // Play one, checked; the result is again a position string.
//! let next = start.play("bar/3".parse()?)?;
//! assert_eq!(next.to_string(), "..w.../....../....../...... b 3 4 0-0 -");
//! assert_eq!(next.outcome(), Outcome::Ongoing);
//!
//! // An illegal move is refused with the rule it breaks.
//! let refused = next.play("bar/3".parse()?).unwrap_err();
//! assert_eq!(refused.to_string(), "point 3 is occupied");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod game;
pub mod mask;
mod movegen;
mod moves;
mod perft;
mod position;
mod types;

pub use game::{Decided, Forced, CANONICAL_KEY_BITS};
pub use movegen::{IllegalMove, Outcome, Reason};
pub use moves::{Move, MoveKind, MoveList, ParseMoveError};
pub use perft::{perft, perft2, perft_divide};
pub use position::{FenField, ParsePositionError, Parts, Position, Run, Square, MAX_CHECKERS};
pub use types::{Color, ParseColorError, ParsePointError, Point, Quadrant};
