//! The nom parsers of the UBGI commands: one parser per command, `cut`
//! right after the keyword so that a known command with bad arguments is
//! answered for what it is, the whole line consumed. UBGI v0.1 spellings
//! (`go role chequer`, `setoption name X value Y`) read as their v0.2 forms.

use crate::command::{Command, Decision, PositionText, Query};
use engine_daemon::words::{self, bare, end, found, keyword, word};
use nom::branch::alt;
use nom::character::complete::{one_of, space1};
use nom::combinator::{cut, eof, opt, peek, rest, value, verify};
use nom::error::context;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
use protocol_vocab::quote;

/// The error codes UBGI v0.2 standardises.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// Unknown command or malformed syntax.
    BadCommand,
    /// A value that is invalid for its key or argument.
    BadValue,
    /// A valid command that cannot be applied now.
    BadState,
    /// A feature, key or format the engine does not implement.
    Unsupported,
}

impl ErrorCode {
    /// The code as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadCommand => "bad_command",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::BadState => "bad_state",
            ErrorCode::Unsupported => "unsupported",
        }
    }
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
}

/// Every command word, for the unknown-command message.
pub const COMMAND_WORDS: &str =
    "ubgi, isready, newgame, position, dice, play, go, set, setoption, get, keys, query, d, stop, quit";

/// Reads one line: `Ok(None)` for a blank line. Surrounding whitespace is
/// ignored; words may be separated by runs of spaces and tabs.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    if line.is_empty() {
        return Ok(None);
    }
    let word = line.split([' ', '\t']).next().unwrap_or_default();
    match command(line) {
        Ok((_, c)) => Ok(Some(c)),
        Err(nom::Err::Error(_)) => Err(CommandError {
            code: ErrorCode::BadCommand,
            message: format!(
                "{} is not a command; expected one of {COMMAND_WORDS}",
                quote(word)
            ),
        }),
        Err(nom::Err::Failure(e)) => Err(CommandError {
            code: e.problem,
            message: format!(
                "{word}: expected {}, found {}",
                e.expected.unwrap_or("something else"),
                found(e.at)
            ),
        }),
        Err(nom::Err::Incomplete(_)) => Err(CommandError {
            code: ErrorCode::BadCommand,
            message: format!("{word}: the line ends too early"),
        }),
    }
}

/// The parsers' error; the problem is the code to answer with.
type PError<'a> = words::PError<'a, ErrorCode>;

impl words::Problem for ErrorCode {
    const UNMATCHED: ErrorCode = ErrorCode::BadCommand;

    fn is_unmatched(&self) -> bool {
        *self == ErrorCode::BadCommand
    }
}

type Res<'a, O> = IResult<&'a str, O, PError<'a>>;

fn command(input: &str) -> Res<'_, Command> {
    alt((
        bare("ubgi", Command::Ubgi),
        bare("isready", Command::IsReady),
        bare("newgame", Command::NewGame),
        bare("keys", Command::Keys),
        bare("stop", Command::Stop),
        bare("quit", Command::Quit),
        bare("d", Command::Display),
        position,
        dice,
        play,
        go_rollout,
        go_ranked,
        go,
        set,
        setoption,
        get,
        query,
    ))
    .parse(input)
}

/// `position gnubgid <ID>` or `position xgid <XGID>`.
fn position(input: &str) -> Res<'_, Command> {
    let source = alt((
        preceded(keyword("gnubgid"), cut(preceded(space1, word)))
            .map(|w: &str| PositionText::Gnubg(w.to_string())),
        preceded(keyword("xgid"), cut(preceded(space1, word)))
            .map(|w: &str| PositionText::Xgid(w.to_string())),
    ));
    preceded(
        keyword("position"),
        cut(terminated(
            context(
                "gnubgid <PositionID[:MatchID]> or xgid <XGID>",
                preceded(space1, source),
            ),
            end("end of line"),
        )),
    )
    .map(Command::Position)
    .parse(input)
}

/// One die: a digit from 1 to 6 as a whole word.
fn die(input: &str) -> Res<'_, u8> {
    let (rest, d) = terminated(one_of("123456"), peek(alt((space1, eof)))).parse(input)?;
    Ok((rest, d as u8 - b'0'))
}

/// `dice <d1> <d2>`.
fn dice(input: &str) -> Res<'_, Command> {
    fn bad_value(p: PError<'_>) -> PError<'_> {
        PError {
            problem: ErrorCode::BadValue,
            ..p
        }
    }
    preceded(
        keyword("dice"),
        cut(terminated(
            (
                context("two dice from 1 to 6", preceded(space1, die)),
                context("two dice from 1 to 6", preceded(space1, die)),
            ),
            end("end of line after two dice"),
        )),
    )
    .map(|(a, b)| Command::Dice(a, b))
    .parse(input)
    .map_err(|e| e.map(bad_value))
}

/// `play <move>`: the move is the rest of the line.
fn play(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("play"),
        cut(context(
            "a move after play",
            preceded(space1, verify(rest, |m: &str| !m.trim().is_empty())),
        )),
    )
    .map(|m: &str| Command::Play(m.trim().to_string()))
    .parse(input)
}

/// `go`, `go chequer|cube|turn|take`, or the v0.1 `go role chequer|cube|turn`.
fn go(input: &str) -> Res<'_, Command> {
    let decision = alt((
        value(Decision::Chequer, keyword("chequer")),
        value(Decision::Cube, keyword("cube")),
        value(Decision::Turn, keyword("turn")),
        value(Decision::Take, keyword("take")),
    ));
    let role = opt(terminated(keyword("role"), space1));
    preceded(
        keyword("go"),
        cut(terminated(
            opt(preceded(
                space1,
                preceded(role, context("chequer, cube, turn or take", decision)),
            )),
            end("chequer, cube, turn, take or end of line"),
        )),
    )
    .map(|d| Command::Go(d.unwrap_or(Decision::Chequer)))
    .parse(input)
}

/// Most candidates `go ... candidates <K>` lists.
pub const MAX_CANDIDATES: u8 = 32;

/// `go chequer|cube|take candidates <K>` (extension).
fn go_ranked(input: &str) -> Res<'_, Command> {
    let decision = alt((
        value(Decision::Chequer, keyword("chequer")),
        value(Decision::Cube, keyword("cube")),
        value(Decision::Take, keyword("take")),
    ));
    let count = preceded(
        (space1, keyword("candidates"), space1),
        cut(context(
            "a number of candidates from 1 to 32",
            number(1..=MAX_CANDIDATES),
        )),
    );
    preceded(
        (keyword("go"), space1),
        (decision, terminated(count, cut(end("end of line")))),
    )
    .map(|(decision, count)| Command::Ranked { decision, count })
    .parse(input)
}

/// A whole-word number in `range`; outside it (or not a number) is a
/// bad value.
fn number<'a, T>(
    range: std::ops::RangeInclusive<T>,
) -> impl Parser<&'a str, Output = T, Error = PError<'a>>
where
    T: std::str::FromStr + PartialOrd + Copy,
{
    move |input: &'a str| {
        let (rest, w) = word(input)?;
        match w.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok((rest, n)),
            _ => Err(nom::Err::Failure(PError::new(input, ErrorCode::BadValue))),
        }
    }
}

/// `go rollout trials <N> [ply <P>]` (extension).
fn go_rollout(input: &str) -> Res<'_, Command> {
    let trials = preceded(
        (space1, keyword("trials"), space1),
        context(
            "a number of trials from 1 to 1000000000",
            number(1..=1_000_000_000u32),
        ),
    );
    let ply = opt(preceded(
        (space1, keyword("ply"), space1),
        context("a ply from 1 to 3", number(1..=3u8)),
    ));
    preceded(
        (keyword("go"), space1, keyword("rollout")),
        cut(terminated(
            (context("trials <N>", trials), ply),
            end("ply <P> or end of line"),
        )),
    )
    .map(|(trials, ply)| Command::Rollout { trials, ply })
    .parse(input)
}

/// `set <key> <value>`: the value is the rest of the line.
fn set(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("set"),
        cut((
            context("a key after set", preceded(space1, word)),
            context(
                "a value after the key",
                preceded(space1, verify(rest, |v: &str| !v.trim().is_empty())),
            ),
        )),
    )
    .map(|(key, value): (&str, &str)| Command::Set {
        key: key.to_string(),
        value: value.trim().to_string(),
    })
    .parse(input)
}

/// UBGI v0.1's `setoption name <key> value <value>`.
fn setoption(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("setoption"),
        cut((
            context(
                "name <key>",
                preceded((space1, keyword("name"), space1), word),
            ),
            context(
                "value <value>",
                preceded(
                    (space1, keyword("value"), space1),
                    verify(rest, |v: &str| !v.trim().is_empty()),
                ),
            ),
        )),
    )
    .map(|(key, value): (&str, &str)| Command::Set {
        key: key.to_string(),
        value: value.trim().to_string(),
    })
    .parse(input)
}

/// `get <key>`.
fn get(input: &str) -> Res<'_, Command> {
    preceded(
        keyword("get"),
        cut(terminated(
            context("a key after get", preceded(space1, word)),
            end("end of line after the key"),
        )),
    )
    .map(|k: &str| Command::Get(k.to_string()))
    .parse(input)
}

/// `query legal <move>`, `query moves`, `query result`, `query position`.
fn query(input: &str) -> Res<'_, Command> {
    let question = alt((
        preceded(
            keyword("legal"),
            cut(context(
                "a move after legal",
                preceded(space1, verify(rest, |m: &str| !m.trim().is_empty())),
            )),
        )
        .map(|m: &str| Query::Legal(m.trim().to_string())),
        terminated(value(Query::Moves, keyword("moves")), end("end of line")),
        terminated(value(Query::Result, keyword("result")), end("end of line")),
        terminated(
            value(Query::Position, keyword("position")),
            end("end of line"),
        ),
    ));
    preceded(
        keyword("query"),
        cut(context(
            "legal <move>, moves, result or position",
            preceded(space1, question),
        )),
    )
    .map(Command::Query)
    .parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> CommandError {
        parse_command(line).expect_err(line)
    }

    #[test]
    fn every_command_reads_and_round_trips() {
        let lines = [
            "ubgi",
            "isready",
            "newgame",
            "position gnubgid 4HPwATDgc/ABMA",
            "position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "position xgid XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10",
            "dice 5 2",
            "play 13/8 13/11",
            "go chequer",
            "go cube",
            "go turn",
            "go take",
            "go rollout trials 1296",
            "go rollout trials 36 ply 2",
            "go chequer candidates 5",
            "go cube candidates 1",
            "set engine.player random",
            "get engine.ply",
            "keys",
            "query legal 13/8 6/5",
            "query moves",
            "query result",
            "query position",
            "d",
            "stop",
            "quit",
        ];
        for line in lines {
            let c = ok(line);
            assert_eq!(c.to_string(), line);
            assert_eq!(ok(&c.to_string()), c);
        }
    }

    #[test]
    fn old_spellings_read_as_the_new_ones() {
        assert_eq!(ok("go"), Command::Go(Decision::Chequer));
        assert_eq!(ok("go role chequer"), Command::Go(Decision::Chequer));
        assert_eq!(ok("go role cube"), Command::Go(Decision::Cube));
        assert_eq!(
            ok("setoption name engine.ply value 1"),
            Command::Set {
                key: "engine.ply".into(),
                value: "1".into()
            }
        );
        assert_eq!(ok("  dice\t6  6 \r"), Command::Dice(6, 6));
    }

    #[test]
    fn bad_lines_get_the_standard_codes_and_name_the_token() {
        let e = err("isreadyy");
        assert_eq!(e.code, ErrorCode::BadCommand);
        assert!(e.message.contains("\"isreadyy\""), "{e}");
        let e = err("dice 7 1");
        assert_eq!(e.code, ErrorCode::BadValue);
        assert!(e.message.contains("\"7\""), "{e}");
        assert_eq!(err("dice 1").code, ErrorCode::BadValue);
        assert_eq!(err("go sideways").code, ErrorCode::BadCommand);
        assert_eq!(
            ok("go chequer candidates 3"),
            Command::Ranked {
                decision: Decision::Chequer,
                count: 3
            }
        );
        assert_eq!(err("go chequer candidates 0").code, ErrorCode::BadValue);
        assert_eq!(err("go chequer candidates 33").code, ErrorCode::BadValue);
        assert_eq!(err("go chequer candidates").code, ErrorCode::BadCommand);
        assert_eq!(err("go turn candidates 3").code, ErrorCode::BadCommand);
        let e = err("go rollout trials 0");
        assert_eq!(e.code, ErrorCode::BadValue);
        assert!(e.message.contains("\"0\""), "{e}");
        assert_eq!(err("go rollout trials 36 ply 4").code, ErrorCode::BadValue);
        assert_eq!(err("go rollout").code, ErrorCode::BadCommand);
        assert_eq!(
            err("go rollout trials 36 depth 2").code,
            ErrorCode::BadCommand
        );
        assert_eq!(err("position fen x").code, ErrorCode::BadCommand);
        assert_eq!(err("set engine.ply").code, ErrorCode::BadCommand);
        assert_eq!(err("ubgi now").code, ErrorCode::BadCommand);
        assert_eq!(parse_command("   "), Ok(None));
    }
}
