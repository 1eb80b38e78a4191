//! One game between two engine processes, refereed: the runner keeps the
//! position with the rules core, checks every move, runs the clocks and ends
//! the game with a result and a termination that says why.

use super::engine::{Engine, EngineFailure, Wait};
use super::spec::{Dialect, TimeControl};
use crate::rules::{Color, Move, Outcome, Position};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The result of a game, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result in which `c` wins.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The score of `c` in half points (0, 1 or 2).
    pub fn half_points(self, c: Color) -> u8 {
        match (self, c) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
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
}

impl Termination {
    /// Every termination, in order.
    pub const ALL: [Termination; 5] = [
        Termination::Normal,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
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
                    "bad termination \"{s}\": expected normal, illegal move, time forfeit, crash or stall"
                )
            })
    }
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

/// Limits and patience for one game.
#[derive(Copy, Clone, Debug)]
pub struct GameSettings {
    /// The time control of White's and of Black's engine.
    pub tc: [TimeControl; 2],
    /// Extra time an engine may use beyond its clock or move time.
    pub margin: Duration,
    /// How long to wait for the handshake and for `readyok`.
    pub timeout: Duration,
    /// How long a move may take under `depth` and `nodes` limits.
    pub move_timeout: Duration,
}

/// A finished game, as the referee saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub result: GameResult,
    pub termination: Termination,
    /// For abnormal terminations: what happened, in words.
    pub detail: Option<String>,
    /// The legal moves played from the opening.
    pub moves: Vec<Move>,
    /// Per move: what the engine reported (score and depth of its last
    /// `info` line) and the time it took, e.g. `cp 12 depth 5 31ms`.
    pub notes: Vec<String>,
    /// The colour whose engine misbehaved and must be restarted.
    pub offender: Option<Color>,
}

impl Played {
    /// A loss for `c` by `termination`.
    pub fn forfeit(c: Color, termination: Termination, detail: String, moves: Vec<Move>) -> Played {
        Played {
            result: GameResult::win_for(c.opposite()),
            termination,
            detail: Some(format!("{} {detail}", capitalised(c))),
            moves,
            notes: Vec::new(),
            offender: Some(c),
        }
    }

    /// A loss for `c`, whose engine failed as `failure` says.
    pub fn failure(c: Color, failure: &EngineFailure, moves: Vec<Move>) -> Played {
        let termination = match failure {
            EngineFailure::Silent(_) => Termination::Stall,
            _ => Termination::Crash,
        };
        Played {
            detail: Some(format!("{}'s engine {failure}", capitalised(c))),
            ..Played::forfeit(c, termination, String::new(), moves)
        }
    }
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays one game from `opening`, White's engine first in `engines`.
pub fn play_game(engines: [&mut Engine; 2], opening: Position, s: &GameSettings) -> Played {
    let mut notes = Vec::new();
    let played = play_inner(engines, opening, s, &mut notes);
    Played { notes, ..played }
}

/// The score and depth of an `info` line, as `cp 12 depth 5` (either may be missing).
fn info_summary(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    if let Some(i) = words.iter().position(|&w| w == "score") {
        if let (Some(kind), Some(v)) = (words.get(i + 1), words.get(i + 2)) {
            if matches!(*kind, "cp" | "mate") && v.parse::<i64>().is_ok() {
                out.push(format!("{kind} {v}"));
            }
        }
    }
    if let Some(i) = words.iter().position(|&w| w == "depth") {
        if let Some(d) = words.get(i + 1).filter(|d| d.parse::<u32>().is_ok()) {
            out.push(format!("depth {d}"));
        }
    }
    out.join(" ")
}

fn play_inner(
    engines: [&mut Engine; 2],
    opening: Position,
    s: &GameSettings,
    notes: &mut Vec<String>,
) -> Played {
    let mut engines = engines;
    for c in Color::ALL {
        let e = &mut engines[c.index()];
        let newgame = match e.dialect() {
            Dialect::Ugi => "uginewgame",
            Dialect::Uci => "ucinewgame",
        };
        if let Err(f) = e.send(newgame).and_then(|_| e.sync(s.timeout)) {
            return Played::failure(c, &f, Vec::new());
        }
    }
    let mut clock = [Duration::ZERO; 2];
    let mut increment = [Duration::ZERO; 2];
    for i in 0..2 {
        if let TimeControl::Clock {
            time,
            increment: inc,
            ..
        } = s.tc[i]
        {
            (clock[i], increment[i]) = (time, inc);
        }
    }
    let mut made = [0u32; 2];
    let mut pos = opening;
    let mut moves: Vec<Move> = Vec::new();
    let start_fen = opening.to_string();
    loop {
        match pos.outcome() {
            Outcome::Win(c) => return normal(GameResult::win_for(c), moves),
            Outcome::Draw => return normal(GameResult::Draw, moves),
            Outcome::Ongoing => {}
        }
        let side = pos.side_to_move();
        let e = &mut engines[side.index()];
        let mut position = format!("position fen {start_fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in &moves {
                position.push(' ');
                position.push_str(&m.to_string());
            }
        }
        let tc = s.tc[side.index()];
        // An opponent without a clock is shown the mover's own clock.
        let shown = |i: usize| {
            if matches!(s.tc[i], TimeControl::Clock { .. }) {
                (clock[i], increment[i])
            } else {
                (clock[side.index()], increment[side.index()])
            }
        };
        let go = go_command(tc, e.dialect(), [shown(0), shown(1)], made[side.index()]);
        let budget = match tc {
            TimeControl::Clock { .. } => clock[side.index()] + s.margin,
            TimeControl::MoveTime(t) => t + s.margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => s.move_timeout,
        };
        if let Err(f) = e.send(&position) {
            return Played::failure(side, &f, moves);
        }
        let started = Instant::now();
        if let Err(f) = e.send(&go) {
            return Played::failure(side, &f, moves);
        }
        let deadline = started + budget;
        let mut info = String::new();
        let reply = loop {
            match e.recv(deadline) {
                Wait::Line(line) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("bestmove") => break Ok(words.next().map(str::to_string)),
                        Some("error") => log::warn!("{}: {line}", e.name()),
                        Some("info") => {
                            let summary = info_summary(&line);
                            if !summary.is_empty() {
                                info = summary;
                            }
                        }
                        _ => log::debug!("{} said something unexpected: {line}", e.name()),
                    }
                }
                Wait::Timeout => break Err(None),
                Wait::Closed => break Err(Some(e.crash_report(&go))),
            }
        };
        let elapsed = started.elapsed();
        let token = match reply {
            Ok(token) => token,
            Err(Some(crash)) => return Played::failure(side, &crash, moves),
            Err(None) => {
                // Out of time. Still alive? Then it is a time forfeit; if it
                // does not answer isready either, it has stalled.
                let _ = e.send("stop");
                return match e.sync(s.timeout) {
                    Ok(()) => Played::forfeit(
                        side,
                        Termination::TimeForfeit,
                        format!("gave no move within {} ms ({tc})", budget.as_millis()),
                        moves,
                    ),
                    Err(f) => Played::failure(side, &f, moves),
                };
            }
        };
        if elapsed > budget {
            return Played::forfeit(
                side,
                Termination::TimeForfeit,
                format!(
                    "took {} ms with {} ms allowed ({})",
                    elapsed.as_millis(),
                    budget.as_millis(),
                    tc
                ),
                moves,
            );
        }
        let illegal = |why: String, moves: Vec<Move>| {
            Played::forfeit(side, Termination::IllegalMove, why, moves)
        };
        let Some(token) = token else {
            return illegal("sent bestmove without a move".to_string(), moves);
        };
        let m = match token.parse::<Move>() {
            Ok(m) => m,
            Err(err) if token == "(none)" => {
                let _ = err;
                return illegal(
                    format!(
                        "claimed to have no move (bestmove (none)), but has {}",
                        pos.legal_moves().len()
                    ),
                    moves,
                );
            }
            Err(err) => return illegal(format!("sent an unreadable move: {err}"), moves),
        };
        match pos.play(m) {
            Ok(next) => pos = next,
            Err(why) => return illegal(format!("played the illegal move {m}: {why}"), moves),
        }
        moves.push(m);
        notes.push(if info.is_empty() {
            format!("{}ms", elapsed.as_millis())
        } else {
            format!("{info} {}ms", elapsed.as_millis())
        });
        let i = side.index();
        made[i] += 1;
        if let TimeControl::Clock { time, moves, .. } = tc {
            clock[i] = clock[i].saturating_sub(elapsed) + increment[i];
            if moves.is_some_and(|n| made[i] % n == 0) {
                clock[i] += time;
            }
        }
    }
}

fn normal(result: GameResult, moves: Vec<Move>) -> Played {
    Played {
        result,
        termination: Termination::Normal,
        detail: None,
        moves,
        notes: Vec::new(),
        offender: None,
    }
}

/// The `go` command for the side to move, whose time control is `tc`:
/// `clocks` are White's and Black's (time left, increment), `made` the moves
/// the mover has made this game.
fn go_command(
    tc: TimeControl,
    dialect: Dialect,
    clocks: [(Duration, Duration); 2],
    made: u32,
) -> String {
    match tc {
        TimeControl::Clock { moves, .. } => {
            let (t1, t2, i1, i2) = match dialect {
                Dialect::Ugi => ("p1time", "p2time", "p1inc", "p2inc"),
                Dialect::Uci => ("wtime", "btime", "winc", "binc"),
            };
            let ms = |d: Duration| d.as_millis();
            let mut go = format!(
                "go {t1} {} {t2} {} {i1} {} {i2} {}",
                ms(clocks[0].0),
                ms(clocks[1].0),
                ms(clocks[0].1),
                ms(clocks[1].1)
            );
            if let Some(n) = moves {
                go.push_str(&format!(" movestogo {}", n - made % n));
            }
            go
        }
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
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

    #[test]
    fn info_lines_are_summed_up_by_score_and_depth() {
        assert_eq!(
            info_summary("info depth 5 seldepth 7 score cp -12 nodes 100 pv bar/1"),
            "cp -12 depth 5"
        );
        assert_eq!(info_summary("info score mate 3"), "mate 3");
        assert_eq!(info_summary("info string hello depth x"), "");
    }

    #[test]
    fn go_commands_carry_both_clocks() {
        let ms = Duration::from_millis;
        let tc = TimeControl::Clock {
            moves: Some(40),
            time: ms(60_000),
            increment: ms(600),
        };
        let go = go_command(
            tc,
            Dialect::Ugi,
            [(ms(1500), ms(600)), (ms(2500), ms(700))],
            2,
        );
        assert_eq!(
            go,
            "go p1time 1500 p2time 2500 p1inc 600 p2inc 700 movestogo 38"
        );
        let sudden = TimeControl::Clock {
            moves: None,
            time: ms(1000),
            increment: ms(0),
        };
        let go = go_command(sudden, Dialect::Uci, [(ms(1), ms(0)), (ms(2), ms(0))], 0);
        assert_eq!(go, "go wtime 1 btime 2 winc 0 binc 0");
        assert_eq!(
            go_command(TimeControl::Depth(2), Dialect::Ugi, [(ms(0), ms(0)); 2], 0),
            "go depth 2"
        );
    }
}
