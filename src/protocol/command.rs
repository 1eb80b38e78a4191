//! The commands a client sends, and their nom parsers: one parser per
//! command, `cut` right after the keyword (so a known command with bad
//! arguments is a syntax error, not an unknown command), the whole line
//! consumed, and nom's errors turned into [`CommandError`] at one boundary,
//! [`parse_command`].

use crate::rules::{Move, ParseMoveError, ParsePositionError, Position};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{cut, eof, map, opt, peek, rest, value, verify};
use nom::error::{context, ContextError, ErrorKind, ParseError};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
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
        parse_command(s)?.ok_or(CommandError::Unknown {
            word: String::new(),
        })
    }
}

/// The error codes of `error <code> <message>` lines, as protocol.md lists them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The first word is not a command.
    UnknownCommand,
    /// A known command with malformed arguments (also: a line that is too
    /// long or not UTF-8).
    Syntax,
    /// A position string the rules refuse.
    BadPosition,
    /// A move that cannot be read or is not legal where it is played.
    IllegalMove,
    /// An unknown option name or a bad option value.
    BadOption,
    /// A command that needs an idle engine, sent while a search, perft or bench runs.
    Busy,
}

impl ErrorCode {
    /// Every code, in the order protocol.md lists them.
    pub const ALL: [ErrorCode; 6] = [
        ErrorCode::UnknownCommand,
        ErrorCode::Syntax,
        ErrorCode::BadPosition,
        ErrorCode::IllegalMove,
        ErrorCode::BadOption,
        ErrorCode::Busy,
    ];

    /// The code as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::Syntax => "syntax",
            ErrorCode::BadPosition => "bad_position",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::BadOption => "bad_option",
            ErrorCode::Busy => "busy",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ErrorCode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("unknown error code \"{s}\""))
    }
}

/// Why a line is not a command the engine can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command.
    Unknown { word: String },
    /// A known command whose arguments do not read.
    Syntax {
        command: String,
        expected: &'static str,
        found: String,
    },
    /// A number with too many digits for its field.
    TooLarge {
        command: String,
        expected: &'static str,
        found: String,
    },
    /// `position fen` with a string the rules refuse.
    BadPosition(ParsePositionError),
    /// A move (1-based `index` in its list) that does not read as a move.
    BadMove {
        command: String,
        list: &'static str,
        index: usize,
        error: ParseMoveError,
    },
    /// A line longer than the engine reads.
    LineTooLong { len: usize, limit: usize },
    /// A line that is not UTF-8.
    NotUtf8 { valid_up_to: usize },
}

impl CommandError {
    /// The code of the `error` line that reports this.
    pub fn code(&self) -> ErrorCode {
        match self {
            CommandError::Unknown { .. } => ErrorCode::UnknownCommand,
            CommandError::Syntax { .. }
            | CommandError::TooLarge { .. }
            | CommandError::LineTooLong { .. }
            | CommandError::NotUtf8 { .. } => ErrorCode::Syntax,
            CommandError::BadPosition(_) => ErrorCode::BadPosition,
            CommandError::BadMove { .. } => ErrorCode::IllegalMove,
        }
    }
}

/// Every command word, for the unknown-command message.
pub const COMMAND_WORDS: &str = "uci, ugi, isready, setoption, uginewgame, ucinewgame, position, \
     go, stop, ponderhit, query, d, perft, bench, quit";

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown { word } => write!(
                f,
                "{} is not a command; expected one of {COMMAND_WORDS}",
                quote(word)
            ),
            CommandError::Syntax {
                command,
                expected,
                found,
            } => write!(f, "{command}: expected {expected}, found {found}"),
            CommandError::TooLarge {
                command,
                expected,
                found,
            } => write!(f, "{command}: {found} is too large; expected {expected}"),
            CommandError::BadPosition(e) => write!(f, "position: {e}"),
            CommandError::BadMove {
                command,
                list,
                index,
                error,
            } => write!(f, "{command}: {list} {index}: {error}"),
            CommandError::LineTooLong { len, limit } => write!(
                f,
                "line of {len} bytes is longer than the {limit} bytes a command may have"
            ),
            CommandError::NotUtf8 { valid_up_to } => write!(
                f,
                "line is not UTF-8 text (bad byte at offset {valid_up_to})"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// `"text"`, shortened to 40 characters, for quoting a client's token in a message.
pub(crate) fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut q: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        q.push_str("...");
    }
    format!("\"{q}\"")
}

/// The first word of `text` quoted, or `end of line`.
fn found(text: &str) -> String {
    match text.split([' ', '\t']).find(|w| !w.is_empty()) {
        Some(w) => quote(w),
        None => "end of line".to_string(),
    }
}

/// Reads one line. `Ok(None)` for a blank line (ignored by the engine).
/// Leading and trailing whitespace (including a CR of a CRLF) is ignored;
/// words may be separated by any run of spaces and tabs.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    if line.is_empty() {
        return Ok(None);
    }
    let command_word = || {
        line.split([' ', '\t'])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    match command(line) {
        Ok((_, c)) => Ok(Some(c)),
        Err(nom::Err::Error(_)) => Err(CommandError::Unknown {
            word: command_word(),
        }),
        Err(nom::Err::Failure(e)) => Err(match e.problem {
            Problem::Nom => CommandError::Syntax {
                command: command_word(),
                expected: e.expected.unwrap_or("something else"),
                found: found(e.at),
            },
            Problem::TooLarge => CommandError::TooLarge {
                command: command_word(),
                expected: e.expected.unwrap_or("a smaller number"),
                found: found(e.at),
            },
            Problem::BadPosition(p) => CommandError::BadPosition(p),
            Problem::BadMove { list, index, error } => CommandError::BadMove {
                command: command_word(),
                list,
                index,
                error,
            },
        }),
        Err(nom::Err::Incomplete(_)) => Err(CommandError::Syntax {
            command: command_word(),
            expected: "a complete line",
            found: "end of line".to_string(),
        }),
    }
}

/// The parsers' error: where it happened, what was expected there (the
/// innermost `context` wins), and anything more specific than "did not match".
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PError<'a> {
    at: &'a str,
    expected: Option<&'static str>,
    problem: Problem,
}

#[derive(Clone, Debug, PartialEq)]
enum Problem {
    /// A nom parser did not match.
    Nom,
    /// Digits that overflow their number type.
    TooLarge,
    BadPosition(ParsePositionError),
    BadMove {
        list: &'static str,
        index: usize,
        error: ParseMoveError,
    },
}

impl<'a> PError<'a> {
    fn new(at: &'a str, problem: Problem) -> Self {
        PError {
            at,
            expected: None,
            problem,
        }
    }
}

impl<'a> ParseError<&'a str> for PError<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        PError::new(input, Problem::Nom)
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a str> for PError<'a> {
    fn add_context(input: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.expected.is_none() {
            other.expected = Some(ctx);
            if other.problem == Problem::Nom {
                other.at = input;
            }
        }
        other
    }
}

type Res<'a, O> = IResult<&'a str, O, PError<'a>>;

/// The whole line is one of the commands.
fn command(input: &str) -> Res<'_, Command> {
    alt((
        bare("uci", Command::Uci),
        bare("ugi", Command::Ugi),
        bare("isready", Command::IsReady),
        bare("uginewgame", Command::NewGame),
        bare("ucinewgame", Command::NewGame),
        bare("stop", Command::Stop),
        bare("ponderhit", Command::PonderHit),
        bare("quit", Command::Quit),
        bare("d", Command::Display),
        setoption,
        position,
        go,
        query,
        perft,
        bench,
    ))
    .parse(input)
}

/// `word`, as a whole word (followed by whitespace or the end of the line).
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = PError<'a>> {
    terminated(tag(word), peek(alt((space1, eof))))
}

/// One word: a run of characters other than space and tab.
fn word(input: &str) -> Res<'_, &str> {
    take_till1(|c| c == ' ' || c == '\t').parse(input)
}

/// The end of the line; `what` says what else could have come.
fn end<'a>(what: &'static str) -> impl Parser<&'a str, Output = (), Error = PError<'a>> {
    context(what, value((), (space0, eof)))
}

/// A command without arguments.
fn bare<'a>(
    word: &'static str,
    command: Command,
) -> impl Parser<&'a str, Output = Command, Error = PError<'a>> {
    preceded(keyword(word), cut(end("end of line"))).map(move |_| command.clone())
}

/// An unsigned decimal number of type `T`: digits only; too many digits is
/// an error, never a wrap-around.
fn whole<T: FromStr>(input: &str) -> Res<'_, T> {
    let (rest, digits) = digit1(input)?;
    match digits.parse::<T>() {
        Ok(v) => Ok((rest, v)),
        Err(_) => Err(nom::Err::Failure(PError::new(input, Problem::TooLarge))),
    }
}

/// A time in milliseconds that may be negative (read as 0).
fn time_ms(input: &str) -> Res<'_, u64> {
    let (rest, minus) = opt(char('-')).parse(input)?;
    let (rest, v) = whole::<u64>(rest)?;
    Ok((rest, if minus.is_some() { 0 } else { v }))
}

/// Word positions: `(byte offset, word)` for every word of `s`.
fn words_with_offsets(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split([' ', '\t'])
        .scan(0usize, |offset, w| {
            let at = *offset;
            *offset += w.len() + 1;
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

/// A list of moves after a keyword: words up to the end of the line or up to
/// the first of `stop_words`. A word that is not a move fails the command,
/// naming its 1-based index.
fn move_list<'a>(
    list: &'static str,
    stop_words: &'static [&'static str],
) -> impl FnMut(&'a str) -> Res<'a, Vec<Move>> {
    move |input: &'a str| {
        let mut moves = Vec::new();
        let mut rest = input;
        while let Ok((after_space, _)) = space1::<&str, PError>(rest) {
            let Ok((after_word, w)) = word(after_space) else {
                break;
            };
            if stop_words.contains(&w) {
                break;
            }
            match w.parse::<Move>() {
                Ok(m) => moves.push(m),
                Err(error) => {
                    return Err(nom::Err::Failure(PError::new(
                        after_space,
                        Problem::BadMove {
                            list,
                            index: moves.len() + 1,
                            error,
                        },
                    )))
                }
            }
            rest = after_word;
        }
        Ok((rest, moves))
    }
}

/// `position (startpos | fen <position string>) [moves <m>...]`.
fn position(input: &str) -> Res<'_, Command> {
    let start = alt((
        value(Start::StartPos, keyword("startpos")),
        preceded(
            keyword("fen"),
            cut(context(
                "a position string after fen",
                preceded(space1, position_string),
            ))
            .map(Start::Fen),
        ),
    ));
    preceded(
        keyword("position"),
        cut((
            context("startpos or fen <position string>", preceded(space1, start)),
            opt(preceded((space1, keyword("moves")), move_list("move", &[]))),
            end("moves <move>... or end of line"),
        )),
    )
    .map(|(start, moves, ())| Command::Position {
        start,
        moves: moves.unwrap_or_default(),
    })
    .parse(input)
}

/// The six fields of a position string: every word up to `moves` or the end
/// of the line, rejoined with single spaces (so extra blanks are tolerated).
fn position_string(input: &str) -> Res<'_, Position> {
    let mut end = 0;
    let mut fields = Vec::new();
    for (at, w) in words_with_offsets(input) {
        if w == "moves" {
            break;
        }
        fields.push(w);
        end = at + w.len();
    }
    if fields.is_empty() {
        return Err(nom::Err::Error(PError::new(input, Problem::Nom)));
    }
    match fields.join(" ").parse::<Position>() {
        Ok(p) => Ok((&input[end..], p)),
        Err(e) => Err(nom::Err::Failure(PError::new(
            input,
            Problem::BadPosition(e),
        ))),
    }
}

/// Everything `go` reads, one parameter at a time.
#[derive(Clone, Debug)]
enum GoParam {
    P1Time(u64),
    P2Time(u64),
    P1Inc(u64),
    P2Inc(u64),
    MovesToGo(u32),
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
    Infinite,
    Ponder,
    SearchMoves(Vec<Move>),
}

/// The words that start a `go` parameter (and so end a `searchmoves` list).
const GO_WORDS: &[&str] = &[
    "p1time",
    "wtime",
    "p2time",
    "btime",
    "p1inc",
    "winc",
    "p2inc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
];

/// `name <value>` or `alias <value>` with `cut` after the name.
fn numeric<'a, T, F>(
    names: (&'static str, &'static str),
    expected: &'static str,
    read: F,
    wrap: fn(T) -> GoParam,
) -> impl Parser<&'a str, Output = GoParam, Error = PError<'a>>
where
    F: Parser<&'a str, Output = T, Error = PError<'a>>,
{
    preceded(
        alt((keyword(names.0), keyword(names.1))),
        cut(context(expected, preceded(space1, read))),
    )
    .map(wrap)
}

fn positive_u32(input: &str) -> Res<'_, u32> {
    verify(whole::<u32>, |&v| v >= 1).parse(input)
}

fn positive_u64(input: &str) -> Res<'_, u64> {
    verify(whole::<u64>, |&v| v >= 1).parse(input)
}

fn go_param(input: &str) -> Res<'_, GoParam> {
    const TIME: &str = "a time in milliseconds (a whole number, may be negative)";
    const MS: &str = "a whole number of milliseconds";
    alt((
        numeric(("p1time", "wtime"), TIME, time_ms, GoParam::P1Time),
        numeric(("p2time", "btime"), TIME, time_ms, GoParam::P2Time),
        numeric(("p1inc", "winc"), MS, whole::<u64>, GoParam::P1Inc),
        numeric(("p2inc", "binc"), MS, whole::<u64>, GoParam::P2Inc),
        numeric(
            ("movestogo", "movestogo"),
            "a whole number of moves from 1 to 4294967295",
            positive_u32,
            GoParam::MovesToGo,
        ),
        numeric(
            ("movetime", "movetime"),
            MS,
            whole::<u64>,
            GoParam::MoveTime,
        ),
        numeric(
            ("depth", "depth"),
            "a whole number of plies from 1 to 4294967295",
            positive_u32,
            GoParam::Depth,
        ),
        numeric(
            ("nodes", "nodes"),
            "a whole number of nodes from 1 to 18446744073709551615",
            positive_u64,
            GoParam::Nodes,
        ),
        value(GoParam::Infinite, keyword("infinite")),
        value(GoParam::Ponder, keyword("ponder")),
        map(
            preceded(
                keyword("searchmoves"),
                cut(move_list("searchmove", GO_WORDS)),
            ),
            GoParam::SearchMoves,
        ),
    ))
    .parse(input)
}

/// `go` and its parameters in any order (a repeated one: the last counts).
fn go(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("go"),
        cut(terminated(
            many0(preceded(space1, go_param)),
            end(
                "a go parameter (p1time, p2time, p1inc, p2inc, wtime, btime, winc, binc, \
                 movestogo, movetime, depth, nodes, infinite, ponder, searchmoves) \
                 or end of line",
            ),
        )),
    )
    .map(|params| {
        let mut go = Go::default();
        for p in params {
            match p {
                GoParam::P1Time(v) => go.p1time = Some(v),
                GoParam::P2Time(v) => go.p2time = Some(v),
                GoParam::P1Inc(v) => go.p1inc = Some(v),
                GoParam::P2Inc(v) => go.p2inc = Some(v),
                GoParam::MovesToGo(v) => go.movestogo = Some(v),
                GoParam::MoveTime(v) => go.movetime = Some(v),
                GoParam::Depth(v) => go.depth = Some(v),
                GoParam::Nodes(v) => go.nodes = Some(v),
                GoParam::Infinite => go.infinite = true,
                GoParam::Ponder => go.ponder = true,
                GoParam::SearchMoves(m) => go.searchmoves = m,
            }
        }
        Command::Go(go)
    })
    .parse(input)
}

/// `setoption name <name words> [value <rest of the line>]`.
fn setoption(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("setoption"),
        cut((
            preceded(
                context("name <option name>", preceded(space1, keyword("name"))),
                context("an option name after name", preceded(space1, option_name)),
            ),
            opt(preceded(
                (space1, keyword("value")),
                map(opt(preceded(space1, rest)), |v: Option<&str>| {
                    v.unwrap_or_default().to_string()
                }),
            )),
            end("value <value> or end of line"),
        )),
    )
    .map(|(name, value, ())| Command::SetOption { name, value })
    .parse(input)
}

/// The words of an option name, up to `value`, rejoined with single spaces.
fn option_name(input: &str) -> Res<'_, String> {
    let mut end = 0;
    let mut words = Vec::new();
    for (at, w) in words_with_offsets(input) {
        if w == "value" {
            break;
        }
        words.push(w);
        end = at + w.len();
    }
    if words.is_empty() {
        return Err(nom::Err::Error(PError::new(input, Problem::Nom)));
    }
    Ok((&input[end..], words.join(" ")))
}

/// `query <question>`.
fn query(input: &str) -> Res<'_, Command> {
    let question = alt((
        value(Query::GameOver, keyword("gameover")),
        value(Query::P1Turn, keyword("p1turn")),
        value(Query::Result, keyword("result")),
        preceded(
            keyword("legal"),
            cut(context(
                "a move after legal",
                preceded(space1, word).map(|w: &str| Query::Legal(w.to_string())),
            )),
        ),
        value(Query::Moves, keyword("moves")),
        value(Query::Fen, keyword("fen")),
    ));
    preceded(
        keyword("query"),
        cut(terminated(
            context(
                "gameover, p1turn, result, legal <move>, moves or fen",
                preceded(space1, question),
            ),
            end("end of line"),
        )),
    )
    .map(Command::Query)
    .parse(input)
}

/// `perft <depth>`.
fn perft(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("perft"),
        cut(terminated(
            context(
                "a depth in plies (a whole number from 0 to 4294967295)",
                preceded(space1, whole::<u32>),
            ),
            end("end of line"),
        )),
    )
    .map(Command::Perft)
    .parse(input)
}

/// `bench [<depth>]`.
fn bench(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("bench"),
        cut(terminated(
            opt(preceded(space1, positive_u32)),
            end("a depth in plies (a whole number from 1 to 4294967295) or end of line"),
        )),
    )
    .map(Command::Bench)
    .parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> CommandError {
        match parse_command(line) {
            Err(e) => e,
            other => panic!("{line:?} should fail but gave {other:?}"),
        }
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn bare_commands_read_with_any_surrounding_whitespace() {
        let cases = [
            ("uci", Command::Uci),
            ("ugi", Command::Ugi),
            ("isready", Command::IsReady),
            ("uginewgame", Command::NewGame),
            ("ucinewgame", Command::NewGame),
            ("stop", Command::Stop),
            ("ponderhit", Command::PonderHit),
            ("quit", Command::Quit),
            ("d", Command::Display),
        ];
        for (text, cmd) in cases {
            assert_eq!(ok(text), cmd);
            assert_eq!(ok(&format!("  \t{text} \r\n")), cmd);
            assert_eq!(ok(&format!("{text}\r")), cmd);
        }
    }

    #[test]
    fn blank_lines_are_no_command() {
        for line in ["", "   ", "\r\n", "\t \r"] {
            assert_eq!(parse_command(line), Ok(None));
        }
    }

    #[test]
    fn near_misses_are_unknown_commands_quoting_the_word() {
        for (line, word) in [
            ("isreadyy", "isreadyy"),
            ("isready_", "isready_"),
            ("ISREADY", "ISREADY"),
            ("gox depth 3", "gox"),
            ("positions startpos", "positions"),
            ("dd", "dd"),
            ("\u{feff}uci", "\u{feff}uci"),
        ] {
            let e = err(line);
            assert_eq!(e.code(), ErrorCode::UnknownCommand, "{line}");
            assert!(e.to_string().contains(&format!("\"{word}\"")), "{e}");
        }
    }

    #[test]
    fn bare_commands_with_arguments_are_syntax_errors() {
        let e = err("isready now");
        assert_eq!(e.code(), ErrorCode::Syntax);
        assert_eq!(
            e.to_string(),
            "isready: expected end of line, found \"now\""
        );
        assert_eq!(err("quit 1").code(), ErrorCode::Syntax);
    }

    #[test]
    fn position_startpos_with_and_without_moves() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position   startpos\tmoves bar/1  bar/2 "),
            Command::Position {
                start: Start::StartPos,
                moves: vec![mv("bar/1"), mv("bar/2")]
            }
        );
        assert_eq!(
            ok("position startpos moves"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
    }

    #[test]
    fn position_fen_tolerates_extra_blanks_between_fields() {
        let fen = "w...../W...../....../b..... b 9 11 1-1 w1";
        let p: Position = fen.parse().unwrap();
        assert_eq!(
            ok(&format!("position fen {fen}")),
            Command::Position {
                start: Start::Fen(p),
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position fen w...../W...../....../b.....  b\t9 11 1-1 w1 moves 1/7"),
            Command::Position {
                start: Start::Fen(p),
                moves: vec![mv("1/7")]
            }
        );
    }

    #[test]
    fn position_fen_with_a_bad_field_names_the_field() {
        let e = err("position fen ....../....../....../...... x 14 14 0-0 -");
        assert_eq!(e.code(), ErrorCode::BadPosition);
        assert!(e.to_string().contains("side to move"), "{e}");
        assert!(e.to_string().contains("\"x\""), "{e}");
        let e = err("position fen ....../....../....../...... w 14 14 0-0");
        assert_eq!(e.code(), ErrorCode::BadPosition);
        assert!(e.to_string().contains("6 fields"), "{e}");
        let e = err("position fen ....../....../....../...... w 14 14 0-0 moves bar/1");
        assert_eq!(e.code(), ErrorCode::BadPosition, "{e}");
        assert_eq!(err("position fen").code(), ErrorCode::Syntax);
        assert_eq!(err("position fen moves bar/1").code(), ErrorCode::Syntax);
    }

    #[test]
    fn position_with_a_malformed_move_names_its_index() {
        let e = err("position startpos moves bar/1 3-9");
        assert_eq!(e.code(), ErrorCode::IllegalMove);
        assert!(e.to_string().starts_with("position: move 2: "), "{e}");
        assert!(e.to_string().contains("\"3-9\""), "{e}");
    }

    #[test]
    fn position_near_misses_are_syntax_errors() {
        for line in [
            "position",
            "position start",
            "position startpos bar/1",
            "position startpos move bar/1",
            "position startposmoves",
        ] {
            assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
        }
        assert_eq!(
            err("position start").to_string(),
            "position: expected startpos or fen <position string>, found \"start\""
        );
    }

    #[test]
    fn go_reads_every_limit_and_the_aliases() {
        let g = |line: &str| match ok(line) {
            Command::Go(g) => g,
            c => panic!("{c:?}"),
        };
        assert_eq!(g("go"), Go::default());
        let full = g(
            "go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5 movetime 300 \
                      depth 7 nodes 100000 infinite ponder searchmoves bar/1 bar/2",
        );
        assert_eq!(
            full,
            Go {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(5),
                movetime: Some(300),
                depth: Some(7),
                nodes: Some(100000),
                infinite: true,
                ponder: true,
                searchmoves: vec![mv("bar/1"), mv("bar/2")],
            }
        );
        assert_eq!(
            g("go wtime 1000 btime 2000 winc 10 binc 20"),
            Go {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: Some(10),
                p2inc: Some(20),
                ..Go::default()
            }
        );
        // searchmoves in the middle ends at the next parameter.
        let sm = g("go searchmoves bar/3 depth 2");
        assert_eq!(sm.searchmoves, vec![mv("bar/3")]);
        assert_eq!(sm.depth, Some(2));
        // A flag-fallen clock reads as 0.
        assert_eq!(g("go wtime -15 btime 10").p1time, Some(0));
    }

    #[test]
    fn go_refuses_negative_zero_and_huge_limits() {
        let e = err("go depth -3");
        assert_eq!(e.code(), ErrorCode::Syntax);
        assert_eq!(
            e.to_string(),
            "go: expected a whole number of plies from 1 to 4294967295, found \"-3\""
        );
        for line in [
            "go depth 0",
            "go depth",
            "go nodes 0",
            "go movestogo 0",
            "go movetime -5",
            "go depth 3.5",
            "go depth +3",
            "go wtime",
            "go wtime --5",
            "go depthh 3",
            "go infinitely",
            "go 5",
        ] {
            assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
        }
        let e = err("go depth 99999999999999999999999");
        assert_eq!(e.code(), ErrorCode::Syntax);
        assert!(e.to_string().contains("too large"), "{e}");
        assert!(matches!(
            err("go nodes 18446744073709551616"),
            CommandError::TooLarge { .. }
        ));
        assert!(matches!(
            err("go searchmoves bar/1 bar/99"),
            CommandError::BadMove { index: 2, .. }
        ));
    }

    #[test]
    fn setoption_reads_names_of_several_words_and_free_values() {
        assert_eq!(
            ok("setoption name Hash value 64"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            ok("setoption  name Move  Overhead value  50"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }
        );
        assert_eq!(
            ok("setoption name Ponder"),
            Command::SetOption {
                name: "Ponder".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name Ponder value"),
            Command::SetOption {
                name: "Ponder".into(),
                value: Some(String::new())
            }
        );
        for line in [
            "setoption",
            "setoption Hash 64",
            "setoption name",
            "setoption name value 3",
        ] {
            assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
        }
    }

    #[test]
    fn query_reads_every_question() {
        let cases = [
            ("query gameover", Query::GameOver),
            ("query p1turn", Query::P1Turn),
            ("query result", Query::Result),
            ("query legal bar/1", Query::Legal("bar/1".into())),
            ("query legal 3-9", Query::Legal("3-9".into())),
            ("query moves", Query::Moves),
            ("query fen", Query::Fen),
        ];
        for (line, q) in cases {
            assert_eq!(ok(line), Command::Query(q));
        }
        for line in [
            "query",
            "query legal",
            "query legal a b",
            "query p2turn",
            "query fen x",
        ] {
            assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
        }
    }

    #[test]
    fn perft_reads_a_depth() {
        assert_eq!(ok("perft 3"), Command::Perft(3));
        assert_eq!(ok("perft 0"), Command::Perft(0));
        for line in [
            "perft",
            "perft -1",
            "perft x",
            "perft 3 4",
            "perft 4294967296",
        ] {
            assert_eq!(err(line).code(), ErrorCode::Syntax, "{line}");
        }
    }

    #[test]
    fn bench_reads_an_optional_depth() {
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 7"), Command::Bench(Some(7)));
        for line in [
            "bench 0",
            "bench -1",
            "bench x",
            "bench 3 4",
            "bench 4294967296",
            "benchmark",
        ] {
            assert!(parse_command(line).is_err(), "{line}");
        }
        assert_eq!(err("bench 0").code(), ErrorCode::Syntax);
    }

    #[test]
    fn long_tokens_are_quoted_shortened() {
        let long = "x".repeat(10_000);
        let e = err(&long).to_string();
        assert!(e.len() < 400, "{}", e.len());
        assert!(e.contains("...\""));
    }

    #[test]
    fn error_codes_round_trip() {
        for c in ErrorCode::ALL {
            assert_eq!(c.to_string().parse::<ErrorCode>(), Ok(c));
        }
        assert!("nope".parse::<ErrorCode>().is_err());
    }

    fn arb_move() -> impl proptest::strategy::Strategy<Value = Move> {
        use proptest::prelude::*;
        prop_oneof![
            Just(Move::PASS),
            (1u8..=6).prop_map(|p| Move::enter(Point::new(p).unwrap())),
            (19u8..=24).prop_map(|p| Move::bear_off(Point::new(p).unwrap())),
            (1u8..=18, 1u8..=6).prop_map(|(a, d)| Move::step(
                Point::new(a).unwrap(),
                Point::new((a + d + 5).min(24)).unwrap()
            )
            .unwrap()),
        ]
    }

    proptest::proptest! {
        #[test]
        fn go_round_trips_through_text(
            times in proptest::collection::vec(proptest::option::of(0u64..u64::MAX), 4),
            movestogo in proptest::option::of(1u32..=u32::MAX),
            movetime in proptest::option::of(0u64..=u64::MAX),
            depth in proptest::option::of(1u32..=u32::MAX),
            nodes in proptest::option::of(1u64..=u64::MAX),
            infinite: bool,
            ponder: bool,
            searchmoves in proptest::collection::vec(arb_move(), 0..4),
        ) {
            let cmd = Command::Go(Go {
                p1time: times[0], p2time: times[1], p1inc: times[2], p2inc: times[3],
                movestogo, movetime, depth, nodes, infinite, ponder, searchmoves,
            });
            proptest::prop_assert_eq!(cmd.to_string().parse::<Command>(), Ok(cmd));
        }

        #[test]
        fn position_round_trips_through_text(
            fen in proptest::bool::ANY,
            moves in proptest::collection::vec(arb_move(), 0..6),
        ) {
            let start = if fen {
                Start::Fen("w...../W...../....../b..... b 9 11 1-1 w1".parse().unwrap())
            } else {
                Start::StartPos
            };
            let cmd = Command::Position { start, moves };
            proptest::prop_assert_eq!(cmd.to_string().parse::<Command>(), Ok(cmd));
        }

        #[test]
        fn no_line_makes_the_parser_panic(line in "\\PC{0,60}") {
            let _ = parse_command(&line);
        }

        #[test]
        fn mangled_commands_never_panic(
            base in proptest::sample::select(vec![
                "go depth 3 searchmoves bar/1", "position startpos moves bar/1 bar/2",
                "setoption name Hash value 3", "query legal 3/9", "perft 2",
            ]),
            cut_at in 0usize..40,
            junk in "[ -~]{0,5}",
        ) {
            let mut s = base.to_string();
            let at = cut_at.min(s.len());
            s.insert_str(at, &junk);
            let _ = parse_command(&s);
        }
    }

    #[test]
    fn the_other_commands_round_trip_through_text() {
        let cmds = [
            Command::Uci,
            Command::Ugi,
            Command::IsReady,
            Command::NewGame,
            Command::Stop,
            Command::PonderHit,
            Command::Quit,
            Command::Display,
            Command::Perft(4),
            Command::Bench(None),
            Command::Bench(Some(3)),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("8".into()),
            },
            Command::SetOption {
                name: "Ponder".into(),
                value: None,
            },
            Command::Query(Query::GameOver),
            Command::Query(Query::P1Turn),
            Command::Query(Query::Result),
            Command::Query(Query::Legal("bar/4".into())),
            Command::Query(Query::Moves),
            Command::Query(Query::Fen),
        ];
        for c in cmds {
            assert_eq!(c.to_string().parse::<Command>(), Ok(c.clone()), "{c}");
        }
    }
}
