//! The match's small vocabulary types, read from the command line: engine
//! specifications, time controls, shards and schedules. Each has `FromStr`
//! and `Display`, and they round-trip.

use engine_client::{Handshake, OptionStyle, Program};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Why a command-line value was refused; the message quotes the bad token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// Which spelling of the protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// `ugi`/`ugiok`, `uginewgame`, `p1time`/`p2time` (the default).
    Ugi,
    /// `uci`/`uciok`, `ucinewgame`, `wtime`/`btime`.
    Uci,
    /// `ubgi`/`ubgiok`, `set KEY VALUE`, `newgame`: backgammon engines.
    Ubgi,
}

impl Proto {
    /// The opening exchange in this spelling.
    pub fn handshake(self) -> Handshake {
        let (hello, ok, set_option) = match self {
            Proto::Ugi => ("ugi", "ugiok", OptionStyle::SetOption),
            Proto::Uci => ("uci", "uciok", OptionStyle::SetOption),
            Proto::Ubgi => ("ubgi", "ubgiok", OptionStyle::Set),
        };
        Handshake {
            hello,
            ok,
            set_option,
        }
    }

    /// The command that starts a new game.
    pub fn new_game(self) -> &'static str {
        match self {
            Proto::Ugi => "uginewgame",
            Proto::Uci => "ucinewgame",
            Proto::Ubgi => "newgame",
        }
    }

    /// The name `proto=` takes.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Ugi => "ugi",
            Proto::Uci => "uci",
            Proto::Ubgi => "ubgi",
        }
    }
}

/// How to start one engine and what to tell it:
/// `cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [tc=TC] [proto=ugi|uci|ubgi]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program to run.
    pub cmd: String,
    /// Arguments for the program, in order.
    pub args: Vec<String>,
    /// The name used in records and statistics (default: the program's file name).
    pub name: String,
    /// Options sent after the handshake, in order (`setoption`, or `set`
    /// in UBGI).
    pub options: Vec<(String, String)>,
    /// The protocol spelling it speaks.
    pub proto: Proto,
    /// This engine's own time control (time odds), instead of the match's.
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// How to start the program.
    pub fn program(&self) -> Program {
        Program {
            cmd: self.cmd.clone(),
            args: self.args.clone(),
            name: self.name.clone(),
        }
    }

    /// Reads a specification from its `key=value` tokens (UGI unless `proto=` says otherwise).
    pub fn from_tokens<S: AsRef<str>>(tokens: &[S]) -> Result<EngineSpec, SpecError> {
        EngineSpec::from_tokens_or(tokens, Proto::Ugi)
    }

    /// Reads a specification from its `key=value` tokens; `proto` unless
    /// `proto=` says otherwise.
    pub fn from_tokens_or<S: AsRef<str>>(
        tokens: &[S],
        proto: Proto,
    ) -> Result<EngineSpec, SpecError> {
        let mut cmd = None;
        let mut name = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut proto = proto;
        let mut tc = None;
        for token in tokens {
            let token = token.as_ref();
            let (key, value) = token.split_once('=').ok_or_else(|| {
                SpecError(format!(
                    "bad engine setting \"{token}\": expected cmd=, name=, arg=, option.NAME=, tc= or proto="
                ))
            })?;
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "tc" => tc = Some(value.parse::<TimeControl>()?),
                "proto" => {
                    proto = match value {
                        "ugi" => Proto::Ugi,
                        "uci" => Proto::Uci,
                        "ubgi" => Proto::Ubgi,
                        _ => {
                            return Err(SpecError(format!(
                                "bad engine proto \"{value}\": expected ugi, uci or ubgi"
                            )))
                        }
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        options.push((opt.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(SpecError(format!(
                            "bad engine setting \"{token}\": expected cmd=, name=, arg=, option.NAME=, tc= or proto="
                        )))
                    }
                },
            }
        }
        let cmd = cmd.filter(|c| !c.is_empty()).ok_or_else(|| {
            SpecError(format!(
                "engine \"{}\" has no cmd=PATH",
                tokens
                    .iter()
                    .map(|t| t.as_ref())
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
        })?;
        let name = match name {
            Some(n) if !n.trim().is_empty() => n,
            Some(_) => return Err(SpecError("engine name= must not be empty".into())),
            None => std::path::Path::new(&cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| cmd.clone()),
        };
        Ok(EngineSpec {
            cmd,
            args,
            name,
            options,
            proto,
            tc,
        })
    }
}

impl FromStr for EngineSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineSpec::from_tokens(&s.split_whitespace().collect::<Vec<_>>())
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cmd={} name={}", self.cmd, self.name)?;
        for a in &self.args {
            write!(f, " arg={a}")?;
        }
        for (k, v) in &self.options {
            write!(f, " option.{k}={v}")?;
        }
        if self.proto != Proto::Ugi {
            write!(f, " proto={}", self.proto.name())?;
        }
        if let Some(tc) = self.tc {
            write!(f, " tc={tc}")?;
        }
        Ok(())
    }
}

/// How long engines may think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A chess clock: `[moves/]seconds[+increment]`; with `moves`, the time
    /// is added again after every `moves` moves of a player.
    Clock {
        moves: Option<u32>,
        time: Duration,
        increment: Duration,
    },
    /// A fixed time per move: `movetime=MS`.
    MoveTime(Duration),
    /// A fixed depth per move: `depth=D`.
    Depth(u32),
    /// A fixed number of nodes per move: `nodes=N`.
    Nodes(u64),
}

/// Reads seconds with up to three decimals as an exact duration.
fn parse_seconds(text: &str, what: &str, tc: &str) -> Result<Duration, SpecError> {
    let bad = || {
        SpecError(format!(
            "bad time control \"{tc}\": {what} \"{text}\" is not a number of seconds (up to 3 decimals)"
        ))
    };
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 3
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || int.len() > 9
    {
        return Err(bad());
    }
    let secs: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let millis: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    Ok(Duration::from_millis(secs * 1000 + millis))
}

fn show_seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

impl FromStr for TimeControl {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let number = |v: &str, what: &str| -> Result<u64, SpecError> {
            v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                SpecError(format!(
                    "bad time control \"{s}\": {what} \"{v}\" is not a positive whole number"
                ))
            })
        };
        if let Some(v) = s.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(Duration::from_millis(number(
                v,
                "milliseconds",
            )?)));
        }
        if let Some(v) = s.strip_prefix("depth=") {
            let d = number(v, "depth")?;
            return u32::try_from(d).map(TimeControl::Depth).map_err(|_| {
                SpecError(format!(
                    "bad time control \"{s}\": depth \"{v}\" is too large"
                ))
            });
        }
        if let Some(v) = s.strip_prefix("nodes=") {
            return Ok(TimeControl::Nodes(number(v, "nodes")?));
        }
        if s.is_empty() || !s.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return Err(SpecError(format!(
                "bad time control \"{s}\": expected [moves/]seconds[+increment], movetime=MS, depth=D or nodes=N"
            )));
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let m = number(m, "moves")?;
                (
                    Some(u32::try_from(m).map_err(|_| {
                        SpecError(format!("bad time control \"{s}\": too many moves"))
                    })?),
                    rest,
                )
            }
            None => (None, s),
        };
        let (time, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let time = parse_seconds(time, "time", s)?;
        if time.is_zero() {
            return Err(SpecError(format!(
                "bad time control \"{s}\": the base time must be positive"
            )));
        }
        Ok(TimeControl::Clock {
            moves,
            time,
            increment: parse_seconds(inc, "increment", s)?,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock {
                moves,
                time,
                increment,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", show_seconds(time))?;
                if !increment.is_zero() {
                    write!(f, "+{}", show_seconds(increment))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// A slice of the match: shard `index` (1-based) of `count`. Shard i plays
/// the game pairs whose number p (0-based) has p mod count = i - 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole match.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// True when this shard plays pair number `pair` (0-based).
    pub fn contains(&self, pair: usize) -> bool {
        pair % self.count as usize == (self.index - 1) as usize
    }
}

impl FromStr for Shard {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            SpecError(format!(
                "bad shard \"{s}\": expected i/n with 1 <= i <= n, e.g. 3/8"
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Who plays whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl FromStr for Schedule {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "round-robin" => Ok(Schedule::RoundRobin),
            "gauntlet" => Ok(Schedule::Gauntlet),
            _ => Err(SpecError(format!(
                "bad schedule \"{s}\": expected round-robin or gauntlet"
            ))),
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Schedule::RoundRobin => "round-robin",
            Schedule::Gauntlet => "gauntlet",
        })
    }
}

impl Schedule {
    /// The pairings (first, second) of `n` engines, by index.
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Schedule::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Schedule::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_read_every_setting_and_round_trip() {
        let e: EngineSpec =
            "cmd=/bin/gh name=gh-random arg=--player arg=random option.Hash=64 option.Threads=1"
                .parse()
                .unwrap();
        assert_eq!(e.cmd, "/bin/gh");
        assert_eq!(e.name, "gh-random");
        assert_eq!(e.args, ["--player", "random"]);
        assert_eq!(
            e.options,
            [("Hash".into(), "64".into()), ("Threads".into(), "1".into())]
        );
        assert_eq!(e.to_string().parse::<EngineSpec>(), Ok(e));
        let u: EngineSpec = "cmd=./engines/stock proto=uci tc=nodes=500"
            .parse()
            .unwrap();
        assert_eq!(u.tc, Some(TimeControl::Nodes(500)));
        assert_eq!(u.name, "stock");
        assert_eq!(u.proto, Proto::Uci);
        assert_eq!(u.to_string().parse::<EngineSpec>(), Ok(u));
        let b = EngineSpec::from_tokens_or(
            &["cmd=tools/gnubg-ubgi", "option.engine.ply=2"],
            Proto::Ubgi,
        )
        .unwrap();
        assert_eq!(b.proto, Proto::Ubgi);
        assert_eq!(b.proto.handshake().set_option, OptionStyle::Set);
        assert_eq!(b.to_string().parse::<EngineSpec>(), Ok(b));
        let g = EngineSpec::from_tokens_or(&["cmd=x", "proto=ugi"], Proto::Ubgi).unwrap();
        assert_eq!(g.proto, Proto::Ugi);
    }

    #[test]
    fn bad_engine_specs_quote_the_token() {
        for (bad, want) in [
            ("name=x", "no cmd"),
            ("cmd=a hash=1", "\"hash=1\""),
            ("cmd=a option.=1", "\"option.=1\""),
            ("cmd=a proto=xboard", "\"xboard\""),
            ("cmd=a bare", "\"bare\""),
            ("cmd=a name=", "empty"),
            ("cmd=a tc=slow", "\"slow\""),
        ] {
            let e = bad.parse::<EngineSpec>().unwrap_err().to_string();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn time_controls_round_trip() {
        let ms = Duration::from_millis;
        for (text, tc) in [
            (
                "40/60+0.6",
                TimeControl::Clock {
                    moves: Some(40),
                    time: ms(60_000),
                    increment: ms(600),
                },
            ),
            (
                "10+0.1",
                TimeControl::Clock {
                    moves: None,
                    time: ms(10_000),
                    increment: ms(100),
                },
            ),
            (
                "0.5",
                TimeControl::Clock {
                    moves: None,
                    time: ms(500),
                    increment: ms(0),
                },
            ),
            ("movetime=100", TimeControl::MoveTime(ms(100))),
            ("depth=3", TimeControl::Depth(3)),
            ("nodes=5000", TimeControl::Nodes(5000)),
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(tc), "{text}");
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!(
            "1.25+.05".parse::<TimeControl>().unwrap().to_string(),
            "1.25+0.05"
        );
    }

    #[test]
    fn bad_time_controls_say_what_is_expected() {
        for (bad, want) in [
            ("", "expected [moves/]seconds"),
            ("fast", "\"fast\""),
            ("depth=0", "\"0\""),
            ("depth=-3", "\"-3\""),
            ("nodes=x", "\"x\""),
            ("movetime=", "\"\""),
            ("40/x+1", "\"x\""),
            ("10+0.0001", "\"0.0001\""),
            ("0+1", "positive"),
            ("1e3", "\"1e3\""),
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_partition_the_pairs() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for p in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.contains(p)).count(), 1);
        }
        assert_eq!("2/3".parse::<Shard>().unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().unwrap_err().to_string().contains(bad));
        }
    }

    #[test]
    fn schedules_pair_the_engines() {
        assert_eq!(Schedule::RoundRobin.pairings(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(Schedule::Gauntlet.pairings(3), [(0, 1), (0, 2)]);
        assert_eq!(Schedule::RoundRobin.pairings(2), [(0, 1)]);
        for s in [Schedule::RoundRobin, Schedule::Gauntlet] {
            assert_eq!(s.to_string().parse::<Schedule>(), Ok(s));
        }
        assert!("swiss"
            .parse::<Schedule>()
            .unwrap_err()
            .0
            .contains("\"swiss\""));
    }
}
