//! The commands a client sends, as values: each has a canonical spelling
//! (`Display`) that the parser reads back to the same command.

use crate::error::CommandError;
use grasshopper_rules::{Move, Position};
use std::fmt;
use std::str::FromStr;

/// One command from the client (GUI, match runner or script) to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify, list options, answer `uciok`.
    Uci,
    /// `ugi`: the same, answered with `ugiok`.
    Ugi,
    /// `isready`: answer `readyok` (at once, also during a search).
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption { name: String, value: Option<String> },
    /// `uginewgame` or `ucinewgame`: forget what earlier games taught the engine.
    NewGame,
    /// `position (startpos | fen <position string>) [moves <m1> <m2> ...]`.
    Position { start: Start, moves: Vec<Move> },
    /// `go [limits...]`.
    Go(Go),
    /// `stop`: end the search now; its `bestmove` follows.
    Stop,
    /// `ponderhit`: the pondered move was played; the clock now runs.
    PonderHit,
    /// `quit`: stop any search and exit.
    Quit,
    /// `query ...`: a question about the current position.
    Query(Query),
    /// `d`: draw the current position for a person.
    Display,
    /// `perft <depth>`: count the leaves of the game tree below the current position.
    Perft(u32),
    /// `bench [<depth>]`: the search's fixed benchmark, as the `bench` subcommand runs it.
    Bench(Option<u32>),
}

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the start position with the `Checkers` option's N.
    StartPos,
    /// `fen <position string>`.
    Fen(Position),
}

/// The arguments of `go`. Times are milliseconds; a negative time on the
/// clock (some GUIs send one after a flag fall) reads as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Player 1's (White's) clock: `p1time`, alias `wtime`.
    pub p1time: Option<u64>,
    /// Player 2's (Black's) clock: `p2time`, alias `btime`.
    pub p2time: Option<u64>,
    /// `p1inc`, alias `winc`.
    pub p1inc: Option<u64>,
    /// `p2inc`, alias `binc`.
    pub p2inc: Option<u64>,
    /// `movestogo` (at least 1).
    pub movestogo: Option<u32>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `depth` in plies (at least 1).
    pub depth: Option<u32>,
    /// `nodes` (at least 1).
    pub nodes: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves <m>...`: only these root moves.
    pub searchmoves: Vec<Move>,
}

/// The questions `query` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover` -> `response true|false`.
    GameOver,
    /// `query p1turn` -> `response true|false`.
    P1Turn,
    /// `query result` -> `response p1win|p2win|draw|none`.
    Result,
    /// `query legal <move>` -> `response true` or `response false <reason>`.
    /// Kept as text: a malformed move is an answer (`false`), not an error.
    Legal(String),
    /// `query moves` -> `response <every legal move>`.
    Moves,
    /// `query fen` -> `response <position string>`.
    Fen,
}

impl fmt::Display for Command {
    /// The canonical spelling: what [`parse_command`] reads back to the same command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Ugi => f.write_str("ugi"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Command::NewGame => f.write_str("uginewgame"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Fen(p) => write!(f, "position fen {p}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Query(q) => match q {
                Query::GameOver => f.write_str("query gameover"),
                Query::P1Turn => f.write_str("query p1turn"),
                Query::Result => f.write_str("query result"),
                Query::Legal(m) => write!(f, "query legal {m}"),
                Query::Moves => f.write_str("query moves"),
                Query::Fen => f.write_str("query fen"),
            },
            Command::Display => f.write_str("d"),
            Command::Perft(d) => write!(f, "perft {d}"),
            Command::Bench(None) => f.write_str("bench"),
            Command::Bench(Some(d)) => write!(f, "bench {d}"),
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let numbers = [
            ("p1time", self.p1time),
            ("p2time", self.p2time),
            ("p1inc", self.p1inc),
            ("p2inc", self.p2inc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
        ];
        for (name, v) in numbers {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for m in &self.searchmoves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Command {
    type Err = CommandError;

    /// Reads one non-empty line; see [`parse_command`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::parse_command(s)?.ok_or(CommandError::Unknown {
            word: String::new(),
        })
    }
}
