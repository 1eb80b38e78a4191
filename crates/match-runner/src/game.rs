//! What the runner needs of a game: its openings, a referee that plays one
//! game between two engine processes, a replay that checks a record, and
//! the record of a finished game.
//! Everything else (schedule, workers, records files, resume, shards,
//! merge, statistics) is written once, over this trait.

use super::outcome::{GameResult, Played, Side, Termination};
use super::spec::{Proto, TimeControl};
use engine_client::Engine;
use std::fmt::{Debug, Display};
use std::str::FromStr;
use std::time::Duration;

/// How a game's results are counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Wins, draws and losses (Elo, pentanomial, SPRT).
    #[default]
    Wins,
    /// Points per game (backgammon money play): the mean with its interval
    /// is the figure; no SPRT.
    Points,
    /// Each runner game is a whole match (backgammon match play): match
    /// wins, Elo and the SPRT, counted in matches.
    Matches,
}

/// A game the runner can referee.
pub trait Game: Sized + Send + Sync + 'static {
    /// Where a game pair starts, as the records' FEN tag writes it.
    type Opening: Clone + PartialEq + Debug + Display + FromStr<Err: Display> + Send + Sync;
    /// One move, as the records write it.
    type Move: Clone + PartialEq + Debug + Display + FromStr<Err: Display> + Send;

    /// The opening of game pair round `round` (the same on every shard).
    fn opening(&self, round: usize) -> Self::Opening;

    /// Who moves first from `opening`.
    fn first_to_move(opening: &Self::Opening) -> Side;

    /// Plays one game from `opening`, White's engine first in `engines`.
    fn play(
        &self,
        engines: [&mut Engine; 2],
        opening: &Self::Opening,
        settings: &GameSettings,
    ) -> Played<Self::Move>;

    /// Why a record's moves do not replay (which one is illegal, and why).
    type ReplayError: std::error::Error + Send + Sync + 'static;

    /// Replays `moves` from `opening`, or says which one is illegal and why.
    fn replay(opening: &Self::Opening, moves: &[Self::Move])
        -> Result<Replayed, Self::ReplayError>;

    /// The protocols the referee speaks; the first is the default.
    const PROTOCOLS: &'static [Proto] = &[Proto::Ugi, Proto::Uci];

    /// How the results of games from `opening` count.
    fn scoring(_opening: &Self::Opening) -> Scoring {
        Scoring::Wins
    }

    /// The seat that made each move, for the records' move numbers. By
    /// default the seats alternate from [`Game::first_to_move`].
    fn movers(opening: &Self::Opening, moves: &[Self::Move]) -> Vec<Side> {
        let first = Self::first_to_move(opening);
        (0..moves.len())
            .map(|i| if i % 2 == 0 { first } else { first.opposite() })
            .collect()
    }

    /// The result when `loser` forfeits after `moves` (which replay without
    /// error). By default a plain win for the other seat.
    fn forfeit_result(_opening: &Self::Opening, _moves: &[Self::Move], loser: Side) -> GameResult {
        GameResult::win_for(loser.opposite())
    }

    /// The file extension of the game's own transcript format, if it has one
    /// (backgammon: `mat`, the match files GNU Backgammon imports).
    const TRANSCRIPT: Option<&'static str> = None;

    /// A record in the game's transcript format.
    fn transcript(_record: &GameRecord<Self>) -> Option<String> {
        None
    }
}

/// One finished game, as the records hold it (their text form is in
/// [`crate::records`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: Game> {
    pub event: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    /// The game pair's number, from 0 (written 1-based in the Round tag).
    pub pair: usize,
    /// 1 or 2: the game within its pair.
    pub game: u8,
    pub white: String,
    pub black: String,
    pub opening: G::Opening,
    /// The time control, as `TimeControl` writes it.
    pub tc: String,
    pub result: GameResult,
    pub termination: Termination,
    /// What happened, for abnormal terminations.
    pub detail: Option<String>,
    pub moves: Vec<G::Move>,
    /// A comment per move (the engine's score, depth and time), or empty.
    /// Written as `{...}` after the move; read back from the records.
    pub notes: Vec<String>,
}

/// Where a replayed game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// The rules ended it with this result.
    Over(GameResult),
    /// It goes on, `to_move` to move.
    Ongoing { to_move: Side },
}

/// Limits and patience for one game.
#[derive(Copy, Clone, Debug)]
pub struct GameSettings {
    /// The time control of White's and of Black's engine.
    pub tc: [TimeControl; 2],
    /// The protocol spelling White's and Black's engine speak.
    pub protos: [Proto; 2],
    /// Extra time an engine may use beyond its clock or move time.
    pub margin: Duration,
    /// How long to wait for the handshake and for `readyok`.
    pub timeout: Duration,
    /// How long a move may take under `depth` and `nodes` limits.
    pub move_timeout: Duration,
}

/// The TimeControl tag of a game: the one time control, or White's and
/// Black's joined by " vs " when they differ (time odds).
pub fn tc_label(white: TimeControl, black: TimeControl) -> String {
    if white == black {
        white.to_string()
    } else {
        format!("{white} vs {black}")
    }
}
