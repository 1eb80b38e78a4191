//! The rules of classic backgammon (`docs/rules/RULES-backgammon.md` in the
//! repository): positions, dice, legal moves, checked play, cube, game and
//! match state, and the text forms of GNU Backgammon, eXtreme Gammon and FIBS, and
//! seeded dice. Pure: no dependencies, no I/O.
//!
//! Read a GNU Backgammon Position ID, list the legal moves of a roll (one
//! per resulting position, in GNU Backgammon's notation) and play one:
//!
//! ```
//! use backgammon_rules::{Board, Dice, Side};
//!
//! // The starting position, seen from the player on roll, who rolled 3-1.
//! let board: Board = "4HPwATDgc/ABMA".parse()?;
//! let dice: Dice = "31".parse()?;
//! assert_eq!(board.pips(Side::OnRoll), 167);
//!
//! let moves = board.legal_moves(dice);
//! let texts: Vec<String> = moves.moves().iter().map(|m| board.move_text(m)).collect();
//! assert_eq!(texts.len(), 16);
//! assert!(texts.contains(&"8/5 6/5".to_string()));
//! assert!(texts.contains(&"24/21 6/5".to_string()));
//!
//! // Play a move typed as a player would type it: checked, and resolved to
//! // the one legal move it means.
//! let (played, after) = board.play_text(dice, "8/5 6/5")?;
//! assert_eq!(board.move_text(&played), "8/5 6/5");
//! // The board after the move is still seen from the mover's side: two
//! // checkers now on the 5-point. `swapped()` hands the turn over.
//! assert_eq!(after.count(Side::OnRoll, "5".parse()?), 2);
//! assert_eq!(after.position_id(), "4HPwATCwZ/ABMA");
//! assert_eq!(after.swapped().position_id(), "sGfwATDgc/ABMA");
//!
//! // An illegal move is refused with the rule it breaks.
//! let refused = board.play_text(dice, "13/7").unwrap_err();
//! assert_eq!(
//!     refused.to_string(),
//!     "illegal move \"13/7\": the move needs more dice than were rolled"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod base64;
mod board;
mod dice;
mod draw;
mod fibs;
mod game;
mod matchid;
mod movegen;
mod moves;
mod notation;
mod play;
mod position_text;
mod rng;
mod xgid;

pub use base64::Base64Error;
pub use board::{
    Board, BoardError, KeyError, ParsePointError, ParsePositionIdError, Point, PositionIdFault,
    PositionKey, Side, CHECKERS,
};
pub use dice::{Dice, ParseDiceError};
pub use draw::draw_board;
pub use fibs::{FibsBoard, FibsError, FibsPosition};
pub use game::{win_kind, Decision, Ending, Game, GameError, GameResult, NoDouble, Rules};
pub use matchid::{
    CubeOwner, GameState, GnubgId, MatchIdFault, MatchState, ParseGnubgIdError, ParseMatchIdError,
    Player, StateFault, WinKind,
};
pub use moves::{Move, MoveList, Step};
pub use notation::{ParseMoveError, TypedMove, TypedPath};
pub use play::{IllegalMove, MoveError, Reason};
pub use position_text::{parse_position, PositionTextError};
pub use rng::{RollDice, SplitMix};
pub use xgid::{XgDice, Xgid, XgidError};
