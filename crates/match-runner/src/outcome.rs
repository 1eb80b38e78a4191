//! How a game ended, whatever the game: the result, the termination that
//! says why, and the moves played. The seats are White (who has the first
//! engine of game 1 of a pair) and Black, as the records name them.

use engine_client::EngineFailure;
use std::fmt;
use std::str::FromStr;

/// A seat at the board: the records' White and Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// Both seats, White first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// The other seat.
    pub const fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat's name with a capital, for records.
    pub const fn capitalised(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// The result of a game, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result in which `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The score of `side` in half points (0, 1 or 2).
    pub fn half_points(self, side: Side) -> u8 {
        match (self, side) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Side::White) | (GameResult::BlackWins, Side::Black) => 2,
            _ => 0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

impl FromStr for GameResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(format!("bad result \"{s}\": expected 1-0, 0-1 or 1/2-1/2")),
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A win or draw by the rules.
    Normal,
    /// The loser sent a move that is not legal (or not a move at all).
    IllegalMove,
    /// The loser took longer than its clock (plus the margin) allowed.
    TimeForfeit,
    /// The loser's process exited or closed its pipes.
    Crash,
    /// The loser stopped answering (no `readyok` to `isready`, or no handshake).
    Stall,
    /// The loser broke the protocol (e.g. a second `bestmove` for one `go`).
    Protocol,
}

impl Termination {
    /// Every termination, in order.
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
        Termination::Protocol,
    ];
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Normal => "normal",
            Termination::IllegalMove => "illegal move",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Protocol => "protocol error",
        })
    }
}

impl FromStr for Termination {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Termination::ALL
            .into_iter()
            .find(|t| t.to_string() == s)
            .ok_or_else(|| {
                format!(
                    "bad termination \"{s}\": expected normal, illegal move, time forfeit, \
                     crash, stall or protocol error"
                )
            })
    }
}

/// A finished game, as the referee saw it; `M` is the game's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played<M> {
    pub result: GameResult,
    pub termination: Termination,
    /// For abnormal terminations: what happened, in words.
    pub detail: Option<String>,
    /// The legal moves played from the opening.
    pub moves: Vec<M>,
    /// Per move: what the engine reported (score and depth of its last
    /// `info` line) and the time it took, e.g. `cp 12 depth 5 31ms`.
    pub notes: Vec<String>,
    /// The seat whose engine misbehaved and must be restarted.
    pub offender: Option<Side>,
}

impl<M> Played<M> {
    /// A game the rules ended with `result`.
    pub fn normal(result: GameResult, moves: Vec<M>, notes: Vec<String>) -> Played<M> {
        Played {
            result,
            termination: Termination::Normal,
            detail: None,
            moves,
            notes,
            offender: None,
        }
    }

    /// A loss for `side` by `termination`.
    pub fn forfeit(
        side: Side,
        termination: Termination,
        detail: String,
        moves: Vec<M>,
    ) -> Played<M> {
        Played {
            result: GameResult::win_for(side.opposite()),
            termination,
            detail: Some(format!("{} {detail}", side.capitalised())),
            moves,
            notes: Vec::new(),
            offender: Some(side),
        }
    }

    /// A loss for `side`, whose engine failed as `failure` says.
    pub fn failure(side: Side, failure: &EngineFailure, moves: Vec<M>) -> Played<M> {
        let termination = match failure {
            EngineFailure::Silent(_) => Termination::Stall,
            _ => Termination::Crash,
        };
        Played {
            detail: Some(format!("{}'s engine {failure}", side.capitalised())),
            ..Played::forfeit(side, termination, String::new(), moves)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_terminations_round_trip() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            assert_eq!(r.to_string().parse::<GameResult>(), Ok(r));
        }
        for t in Termination::ALL {
            assert_eq!(t.to_string().parse::<Termination>(), Ok(t));
        }
        assert!("1-1".parse::<GameResult>().unwrap_err().contains("\"1-1\""));
        assert!("odd"
            .parse::<Termination>()
            .unwrap_err()
            .contains("\"odd\""));
    }
}
