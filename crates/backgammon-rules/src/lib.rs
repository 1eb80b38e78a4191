//! The rules of classic backgammon (RULES-backgammon.md): positions, dice,
//! legal moves, checked play, cube, game and match state, and the text forms
//! of GNU Backgammon and eXtreme Gammon, and seeded dice. Pure: no
//! dependencies, no I/O.

mod base64;
mod board;
mod cli;
mod dice;
mod draw;
mod game;
mod matchid;
mod movegen;
mod moves;
mod notation;
mod play;
mod rng;
mod xgid;

pub use base64::Base64Error;
pub use board::{
    Board, BoardError, KeyError, ParsePointError, ParsePositionIdError, Point, PositionIdFault,
    PositionKey, Side, CHECKERS,
};
pub use cli::{moves_report, parse_position, show_report, CliError};
pub use dice::{Dice, ParseDiceError};
pub use draw::draw_board;
pub use game::{win_kind, Decision, Ending, Game, GameError, GameResult, NoDouble, Rules};
pub use matchid::{
    CubeOwner, GameState, GnubgId, MatchIdFault, MatchState, ParseGnubgIdError, ParseMatchIdError,
    Player, StateFault, WinKind,
};
pub use moves::{Move, MoveList, Step};
pub use notation::{ParseMoveError, TypedMove, TypedPath};
pub use play::{IllegalMove, MoveError, Reason};
pub use rng::SplitMix;
pub use xgid::{XgDice, Xgid, XgidError};
