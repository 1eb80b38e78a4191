//! The commands a UBGI controller sends, as values. Each has a canonical
//! spelling (`Display`) that the parser reads back to the same command.

use std::fmt;

/// A decision `go` asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The checker play for the given dice: `bestmove`.
    Chequer,
    /// Double or not, before rolling: `bestcube`.
    Cube,
    /// The cube decision and, without a double, the checker play: `bestturn`.
    Turn,
    /// Take or drop a double (extension): `besttake`.
    Take,
}

impl Decision {
    /// The word `go` takes for it.
    pub const fn word(self) -> &'static str {
        match self {
            Decision::Chequer => "chequer",
            Decision::Cube => "cube",
            Decision::Turn => "turn",
            Decision::Take => "take",
        }
    }
}

/// Where a `position` command comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionText {
    /// `position gnubgid <PositionID>[:<MatchID>]`.
    Gnubg(String),
    /// `position xgid <XGID>` (with or without the `XGID=` prefix).
    Xgid(String),
}

/// A question (extension).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query legal <move>`: `response true` or `response false <reason>`.
    Legal(String),
    /// `query moves`: every legal move for the dice.
    Moves,
    /// `query result`: how the game stands.
    Result,
    /// `query position`: the position as GNU Backgammon and XG write it.
    Position,
}

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ubgi,
    IsReady,
    NewGame,
    Position(PositionText),
    Dice(u8, u8),
    /// `play <move>` (extension): the player on roll plays the move with
    /// the current dice; the opponent is then on roll, without dice.
    Play(String),
    Go(Decision),
    /// `go chequer|cube|take candidates <K>` (extension): the decision, its
    /// answer line preceded by `info rank` lines for the best `K` checker
    /// plays, or an `info cube` line with the cube decision's equities.
    Ranked {
        decision: Decision,
        count: u8,
    },
    /// `go rollout trials <N> [ply <P>]` (extension): roll out the position,
    /// or each legal move of the dice set, streaming `info rollout` lines.
    Rollout {
        trials: u32,
        ply: Option<u8>,
    },
    Set {
        key: String,
        value: String,
    },
    Get(String),
    Keys,
    Query(Query),
    Display,
    Stop,
    Quit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ubgi => f.write_str("ubgi"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Position(PositionText::Gnubg(id)) => write!(f, "position gnubgid {id}"),
            Command::Position(PositionText::Xgid(x)) => write!(f, "position xgid {x}"),
            Command::Dice(a, b) => write!(f, "dice {a} {b}"),
            Command::Play(m) => write!(f, "play {m}"),
            Command::Go(d) => write!(f, "go {}", d.word()),
            Command::Ranked { decision, count } => {
                write!(f, "go {} candidates {count}", decision.word())
            }
            Command::Rollout { trials, ply } => {
                write!(f, "go rollout trials {trials}")?;
                match ply {
                    Some(p) => write!(f, " ply {p}"),
                    None => Ok(()),
                }
            }
            Command::Set { key, value } => write!(f, "set {key} {value}"),
            Command::Get(key) => write!(f, "get {key}"),
            Command::Keys => f.write_str("keys"),
            Command::Query(Query::Legal(m)) => write!(f, "query legal {m}"),
            Command::Query(Query::Moves) => f.write_str("query moves"),
            Command::Query(Query::Result) => f.write_str("query result"),
            Command::Query(Query::Position) => f.write_str("query position"),
            Command::Display => f.write_str("d"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
        }
    }
}
