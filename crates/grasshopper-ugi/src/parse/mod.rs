//! The nom parsers of the commands: one parser per command, `cut` right
//! after the keyword (so a known command with bad arguments is a syntax
//! error, not an unknown command), the whole line consumed, and nom's errors
//! turned into [`CommandError`] at one boundary, [`parse_command`].

use crate::command::{Command, Go, Query, Start};
use crate::error::CommandError;
use engine_daemon::words::{self, bare, end, found, keyword, word};
use grasshopper_rules::{Move, ParseMoveError, ParsePositionError, Position};
use nom::branch::alt;
use nom::character::complete::{char, digit1, space1};
use nom::combinator::{cut, map, opt, rest, value, verify};
use nom::error::context;
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
use std::str::FromStr;

#[cfg(test)]
mod tests;

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

/// The parsers' error, with the UGI dialect's problems.
pub(crate) type PError<'a> = words::PError<'a, Problem>;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
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

impl words::Problem for Problem {
    const UNMATCHED: Problem = Problem::Nom;

    fn is_unmatched(&self) -> bool {
        *self == Problem::Nom
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
            let Ok((after_word, w)) = word::<PError>(after_space) else {
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

/// What `perft` takes (the cap is [`crate::perft::MAX_PERFT_DEPTH`]).
const PERFT_DEPTHS: &str = "a depth in plies (a whole number from 0 to 12)";

/// `perft <depth>`.
fn perft(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("perft"),
        cut(terminated(
            context(
                PERFT_DEPTHS,
                preceded(
                    space1,
                    verify(whole::<u32>, |d| *d <= crate::perft::MAX_PERFT_DEPTH),
                ),
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
