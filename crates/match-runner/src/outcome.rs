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

/// The result of a game, as PGN writes it: `1-0`, `0-1` or `1/2-1/2`, or,
/// for games scored in points (backgammon), the points of White and of Black,
/// e.g. `2-0` (a gammon) or `7-4` (a match to 7). A one-point win is always
/// `WhiteWins` or `BlackWins`, so `1-0` reads the same in every game; build
/// point scores with [`GameResult::points`], which keeps to that.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Points of White and Black, never `1-0` or `0-1` (see above), and
    /// never equal: one side wins.
    Score {
        white: u32,
        black: u32,
    },
}

impl GameResult {
    /// The result in which `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The result with these points: `1-0` and `0-1` are the plain wins,
    /// equal points a draw.
    pub fn points(white: u32, black: u32) -> GameResult {
        match (white, black) {
            (1, 0) => GameResult::WhiteWins,
            (0, 1) => GameResult::BlackWins,
            (w, b) if w == b => GameResult::Draw,
            (white, black) => GameResult::Score { white, black },
        }
    }

    /// The result in which `side` scores `points` and the other side none.
    pub fn points_for(side: Side, points: u32) -> GameResult {
        match side {
            Side::White => GameResult::points(points, 0),
            Side::Black => GameResult::points(0, points),
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::WhiteWins => Some(Side::White),
            GameResult::BlackWins => Some(Side::Black),
            GameResult::Draw => None,
            GameResult::Score { white, black } if white > black => Some(Side::White),
            GameResult::Score { white, black } if black > white => Some(Side::Black),
            GameResult::Score { .. } => None,
        }
    }

    /// The points of `side`: 1 for a win, 1/2 for a draw (as 0.5), or the
    /// points of a point score.
    pub fn score_of(self, side: Side) -> f64 {
        match (self, side) {
            (GameResult::Score { white, .. }, Side::White) => white as f64,
            (GameResult::Score { black, .. }, Side::Black) => black as f64,
            (r, side) => r.half_points(side) as f64 / 2.0,
        }
    }

    /// The score of `side` in half points (0, 1 or 2): a win counts 2,
    /// whatever the points.
    pub fn half_points(self, side: Side) -> u8 {
        match self.winner() {
            None => 1,
            Some(w) if w == side => 2,
            Some(_) => 0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::WhiteWins => f.write_str("1-0"),
            GameResult::BlackWins => f.write_str("0-1"),
            GameResult::Draw => f.write_str("1/2-1/2"),
            GameResult::Score { white, black } => write!(f, "{white}-{black}"),
        }
    }
}

impl FromStr for GameResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad =
            || format!("bad result \"{s}\": expected 1-0, 0-1 or 1/2-1/2 (or points such as 2-0)");
        if s == "1/2-1/2" {
            return Ok(GameResult::Draw);
        }
        let number = |t: &str| -> Option<u32> {
            let plain = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            // No leading zeros: every score has one spelling.
            (plain && (t == "0" || !t.starts_with('0')))
                .then(|| t.parse().ok())
                .flatten()
        };
        let (w, b) = s.split_once('-').ok_or_else(bad)?;
        match (number(w), number(b)) {
            (Some(w), Some(b)) if w != b => Ok(GameResult::points(w, b)),
            _ => Err(bad()),
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
    fn point_scores_read_back_and_keep_the_plain_wins() {
        assert_eq!("1-0".parse(), Ok(GameResult::WhiteWins));
        assert_eq!(GameResult::points(0, 1), GameResult::BlackWins);
        let gammon = GameResult::points(0, 2);
        assert_eq!(gammon, GameResult::Score { white: 0, black: 2 });
        assert_eq!(gammon.to_string(), "0-2");
        assert_eq!("0-2".parse(), Ok(gammon));
        assert_eq!(
            "7-4".parse::<GameResult>().unwrap().winner(),
            Some(Side::White)
        );
        assert_eq!(gammon.half_points(Side::Black), 2);
        assert_eq!(gammon.score_of(Side::Black), 2.0);
        assert_eq!(GameResult::Draw.score_of(Side::White), 0.5);
        assert_eq!(GameResult::points_for(Side::White, 3).to_string(), "3-0");
    }

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
        for bad in ["01-0", "2-", "-2", "2-0-1", "a-b", "1/2"] {
            assert!(bad.parse::<GameResult>().is_err(), "{bad}");
        }
        assert!("odd"
            .parse::<Termination>()
            .unwrap_err()
            .contains("\"odd\""));
    }
}
