//! The Grasshopper UGI dialect on the daemon core: the engine's state
//! between commands (position, options, searcher, what runs) and what each
//! command does to it.

use crate::board;
use crate::command::{Command, Go, Query, Start};
use crate::error::ErrorCode;
use crate::options::EngineOptions;
use crate::options::OPTIONS;
use crate::parse::parse_command;
use crate::perft::write_perft_until;
use engine_daemon::{
    Context, Dialect, ErrorLine, Job, Kind, LineError, LineOut, END_OF_INPUT_GRACE,
};
use grasshopper_engine::{
    bench, Clock, Limits, Report, Score, SearchControl, SearchOptions, SearchResult, Searcher,
};
use grasshopper_rules::{Color, Move, Outcome, Position};
use protocol_vocab::sanitise;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

/// Times above this (ms, about 31 years) are read as this, so that no clock
/// arithmetic in the search can overflow.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
/// Depths above this are read as this: no game lasts that many plies.
pub const MAX_DEPTH: u32 = 1000;
/// Stack for search threads: deep recursion must not overflow.
const SEARCH_STACK: usize = 64 << 20;

/// What a job hands back.
pub enum Done {
    /// A search ended: the searcher comes back with the result.
    Search(Box<Searcher>, SearchResult),
    /// A perft count or bench ended; its last line is still to be written.
    Count(Option<String>),
    /// A slow `setoption` (Hash, TablePath) ended: the searcher with the new
    /// options, or with the old ones and why the new were refused.
    Options(Box<Searcher>, Result<EngineOptions, ErrorLine>),
    /// `uginewgame` has cleared the searcher's table.
    Cleared(Box<Searcher>),
}

/// Options whose setting takes long (allocating the table, reading tables):
/// set on a job that holds later commands, so that `isready` is answered
/// when they are in effect and `quit` is read meanwhile.
const SLOW_OPTIONS: [&str; 2] = ["Hash", "TablePath"];

/// The engine's state between commands.
pub struct Ugi {
    /// What `uci` lists as defaults: the options the daemon started with.
    defaults: EngineOptions,
    options: EngineOptions,
    position: Position,
    /// `None` while a search thread holds it.
    searcher: Option<Box<Searcher>>,
    /// The running search's control, for `ponderhit`.
    search: Option<Arc<SearchControl>>,
}

impl Ugi {
    /// A session with the given search options.
    pub fn new(search: SearchOptions) -> Ugi {
        let options = EngineOptions::new(search);
        Ugi {
            defaults: options.clone(),
            position: Position::start(options.checkers).expect("14 checkers is a valid game"),
            searcher: Some(Box::new(Searcher::new(options.search.clone()))),
            options,
            search: None,
        }
    }

    fn error(code: ErrorCode, message: &str) -> ErrorLine {
        ErrorLine {
            code: code.as_str(),
            message: sanitise(message),
        }
    }

    fn start_position(&self) -> Position {
        Position::start(self.options.checkers).expect("Checkers is validated when set")
    }

    fn identify(&self, ok: &str) -> Vec<String> {
        let mut lines = vec![
            format!("id name grasshopper {}", env!("CARGO_PKG_VERSION")),
            "id author the grasshopper developers".to_string(),
        ];
        lines.extend(self.defaults.describe());
        lines.push(ok.to_string());
        lines
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ErrorLine> {
        self.options.set(name, value).map_err(option_error)?;
        if let Some(s) = self.searcher.as_mut() {
            s.set_options(self.options.search.clone());
        }
        Ok(())
    }

    /// Takes the searcher for a job (a fresh one if a job kept it).
    fn take_searcher(&mut self) -> Box<Searcher> {
        self.searcher
            .take()
            .unwrap_or_else(|| Box::new(Searcher::new(self.options.search.clone())))
    }

    /// `setoption` of a [`SLOW_OPTIONS`] option: the options are set on a
    /// copy and the searcher takes them (allocating its table) on a job.
    fn set_slow_option(
        &mut self,
        name: String,
        value: Option<String>,
        ctx: &mut Context<'_, Done>,
    ) -> io::Result<()> {
        let mut options = self.options.clone();
        let mut searcher = self.take_searcher();
        let work = move || {
            let result = options.set(&name, value.as_deref()).map_err(option_error);
            if result.is_ok() {
                searcher.set_options(options.search.clone());
            }
            Done::Options(searcher, result.map(|()| options))
        };
        ctx.spawn(Job {
            holds: true,
            ..Job::new("setoption", SEARCH_STACK, Box::new(work))
        })
    }

    /// `uginewgame`: the start position now, the table cleared on a job
    /// (a large table takes seconds to clear).
    fn new_game(&mut self, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        self.position = self.start_position();
        let mut searcher = self.take_searcher();
        let work = move || {
            searcher.clear();
            Done::Cleared(searcher)
        };
        ctx.spawn(Job {
            holds: true,
            ..Job::new("uginewgame", SEARCH_STACK, Box::new(work))
        })
    }

    /// `position`: all or nothing.
    fn set_position(&mut self, start: Start, moves: &[Move]) -> Result<(), ErrorLine> {
        let mut pos = match start {
            Start::StartPos => self.start_position(),
            Start::Fen(p) => p,
        };
        for (i, &m) in moves.iter().enumerate() {
            pos = pos.play(m).map_err(|e| {
                Ugi::error(
                    ErrorCode::IllegalMove,
                    &format!("position: move {} ({m}): {e}", i + 1),
                )
            })?;
        }
        self.position = pos;
        Ok(())
    }

    fn query(&self, q: Query) -> String {
        let pos = &self.position;
        let answer = match q {
            Query::GameOver => pos.is_game_over().to_string(),
            Query::P1Turn => (pos.side_to_move() == Color::White).to_string(),
            Query::Result => match pos.outcome() {
                Outcome::Win(Color::White) => "p1win",
                Outcome::Win(Color::Black) => "p2win",
                Outcome::Draw => "draw",
                Outcome::Ongoing => "none",
            }
            .to_string(),
            Query::Legal(text) => match text.parse::<Move>() {
                Err(e) => format!("false {e}"),
                Ok(m) => match pos.check(m) {
                    Ok(()) => "true".to_string(),
                    Err(e) => format!("false {e}"),
                },
            },
            Query::Moves => pos
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            Query::Fen => pos.to_string(),
        };
        if answer.is_empty() {
            "response".to_string()
        } else {
            format!("response {}", sanitise(&answer))
        }
    }

    /// `go` on a finished game: answered at once, without a search.
    fn game_over_lines(&self) -> Option<Vec<String>> {
        let why = match self.position.outcome() {
            Outcome::Ongoing => return None,
            Outcome::Win(c) => format!("{c} has won"),
            Outcome::Draw => "drawn, neither player can move".to_string(),
        };
        Some(vec![
            format!("info string game over: {why}; no move to search"),
            "bestmove (none)".to_string(),
        ])
    }

    fn go(&mut self, go: Go, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        if let Some(lines) = self.game_over_lines() {
            return ctx.out().lines(&lines);
        }
        let pos = self.position;
        for (i, &m) in go.searchmoves.iter().enumerate() {
            if let Err(e) = pos.check(m) {
                let message = format!("go: searchmove {} ({m}): {e}", i + 1);
                return ctx.error(&Ugi::error(ErrorCode::IllegalMove, &message));
            }
        }
        let limits = Limits {
            started: Some(ctx.read_at()),
            ..limits_for(&pos, &go)
        };
        let control = Arc::new(SearchControl::new(go.ponder));
        let mut searcher = self.take_searcher();
        let out = ctx.out().clone();
        let thread_control = Arc::clone(&control);
        let stop_control = Arc::clone(&control);
        let job = Job {
            name: "search",
            stop: Some(Box::new(move || stop_control.stop())),
            stack: SEARCH_STACK,
            holds: false,
            grace: Duration::ZERO,
            work: Box::new(move || {
                let mut told_draw = false;
                let result = searcher.search(&pos, &limits, &thread_control, &mut |r| {
                    let mut lines = vec![info_line(r)];
                    if r.score == Score::Draw && !told_draw {
                        told_draw = true;
                        lines.push("info string score cp 0 is a proved draw".to_string());
                    }
                    // A closed output is noticed by the session's next write.
                    let _ = out.lines(&lines);
                });
                Done::Search(searcher, result)
            }),
        };
        match ctx.spawn(job) {
            Ok(()) => {
                self.search = Some(control);
                Ok(())
            }
            Err(e) => {
                // The searcher went with the job; a fresh one is made when
                // next needed.
                log::error!("cannot start a search thread: {e}");
                ctx.out().lines(&[
                    format!("info string cannot start a search thread: {e}"),
                    "bestmove (none)".to_string(),
                ])
            }
        }
    }

    /// Runs a count (perft or bench) as a job; its output goes out line by
    /// line, the last line once the core knows it is over. `stop`, `quit`
    /// and the end of input (after [`END_OF_INPUT_GRACE`]) stop it through
    /// the control the work is given.
    fn count(
        &mut self,
        name: &'static str,
        ctx: &mut Context<'_, Done>,
        work: impl FnOnce(&mut LineOut, &Position, &SearchControl) -> io::Result<()> + Send + 'static,
    ) -> io::Result<()> {
        let pos = self.position;
        let out = ctx.out().clone();
        let control = Arc::new(SearchControl::new(false));
        let stop_control = Arc::clone(&control);
        let job = Job {
            name,
            stop: Some(Box::new(move || stop_control.stop())),
            stack: SEARCH_STACK,
            holds: false,
            grace: END_OF_INPUT_GRACE,
            work: Box::new(move || {
                let mut w = LineOut::new(out);
                if let Err(e) = work(&mut w, &pos, &control) {
                    log::warn!("{name} output failed: {e}");
                }
                Done::Count(w.into_last_line())
            }),
        };
        if let Err(e) = ctx.spawn(job) {
            return ctx
                .out()
                .line(&format!("info string cannot start {name}: {e}"));
        }
        Ok(())
    }

    /// The `bestmove` line of a finished search; the ponder move only when
    /// the Ponder option is on (strict runners read `bestmove <move>` as
    /// two words).
    fn bestmove_lines(&self, result: &SearchResult) -> Vec<String> {
        let ponder = result.ponder.filter(|_| self.options.ponder);
        match (result.best, ponder) {
            (Some(best), Some(p)) => vec![format!("bestmove {best} ponder {p}")],
            (Some(best), None) => vec![format!("bestmove {best}")],
            (None, _) => vec![
                "info string the search returned no move".to_string(),
                "bestmove (none)".to_string(),
            ],
        }
    }
}

impl Dialect for Ugi {
    type Command = Command;
    type Done = Done;

    fn parse(&mut self, line: &str) -> Result<Option<Command>, ErrorLine> {
        parse_command(line).map_err(|e| Ugi::error(e.code(), &e.to_string()))
    }

    fn kind(&self, command: &Command) -> Kind {
        match command {
            Command::Quit => Kind::Quit,
            Command::Stop => Kind::Stop,
            Command::SetOption { .. } => Kind::NeedsIdle("setoption"),
            Command::NewGame => Kind::NeedsIdle("uginewgame"),
            Command::Position { .. } => Kind::NeedsIdle("position"),
            Command::Go(_) => Kind::NeedsIdle("go"),
            Command::Perft(_) => Kind::NeedsIdle("perft"),
            Command::Bench(_) => Kind::NeedsIdle("bench"),
            Command::Uci
            | Command::Ugi
            | Command::IsReady
            | Command::PonderHit
            | Command::Query(_)
            | Command::Display => Kind::Anytime,
        }
    }

    fn execute(&mut self, command: Command, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        let done = |r: Result<(), ErrorLine>| match r {
            Ok(()) => Ok(()),
            Err(e) => ctx.error(&e),
        };
        match command {
            Command::Uci => ctx.out().lines(&self.identify("uciok")),
            Command::Ugi => ctx.out().lines(&self.identify("ugiok")),
            Command::IsReady => ctx.out().line("readyok"),
            Command::PonderHit => {
                if let Some(control) = &self.search {
                    control.ponderhit();
                }
                Ok(())
            }
            Command::Query(q) => ctx.out().line(&self.query(q)),
            Command::Display => ctx.out().lines(&board::draw(&self.position)),
            Command::SetOption { name, value } => match OPTIONS.find(&name).map(|spec| spec.name) {
                Some(slow) if SLOW_OPTIONS.contains(&slow) => {
                    self.set_slow_option(name, value, ctx)
                }
                _ => done(self.set_option(&name, value.as_deref())),
            },
            Command::NewGame => self.new_game(ctx),
            Command::Position { start, moves } => done(self.set_position(start, &moves)),
            Command::Go(go) => self.go(go, ctx),
            Command::Perft(depth) => self.count("perft", ctx, move |w, pos, control| {
                write_perft_until(w, pos, depth, true, control).map(|_| ())
            }),
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
                self.count("bench", ctx, move |w, _, control| {
                    bench::one_second(w)?;
                    bench::run_until(w, depth, control)?;
                    if control.is_stopped() {
                        writeln!(w, "info string bench stopped, no total")?;
                    }
                    Ok(())
                })
            }
            // The core handles these two.
            Command::Stop | Command::Quit => Ok(()),
        }
    }

    fn finished(&mut self, done: Done, ctx: &mut Context<'_, Done>) -> io::Result<()> {
        match done {
            Done::Search(searcher, result) => {
                self.searcher = Some(searcher);
                self.search = None;
                ctx.out().lines(&self.bestmove_lines(&result))
            }
            Done::Count(Some(line)) => ctx.out().line(&line),
            Done::Count(None) => Ok(()),
            Done::Options(searcher, result) => {
                self.searcher = Some(searcher);
                match result {
                    Ok(options) => {
                        self.options = options;
                        Ok(())
                    }
                    Err(e) => ctx.error(&e),
                }
            }
            Done::Cleared(searcher) => {
                self.searcher = Some(searcher);
                Ok(())
            }
        }
    }

    fn busy(&self, command: &'static str, job: &'static str) -> ErrorLine {
        let why = match job {
            "search" => "a search is running; send stop and wait for bestmove first",
            "perft" => "perft is running; send stop or wait for its nodes line first",
            _ => "bench is running; send stop or wait for its nodes line first",
        };
        Ugi::error(ErrorCode::Busy, &format!("{command}: {why}"))
    }

    fn unreadable(&self, error: &LineError) -> ErrorLine {
        Ugi::error(ErrorCode::Syntax, &error.to_string())
    }
}

/// A refused `setoption`.
fn option_error(e: engine_daemon::OptionError) -> ErrorLine {
    Ugi::error(ErrorCode::BadOption, &format!("setoption: {e}"))
}

/// The limits for a `go` in the current position: the mover's clock is
/// p1's when White is to move, p2's when Black is.
pub(crate) fn limits_for(pos: &Position, go: &Go) -> Limits {
    let ms = |v: u64| Duration::from_millis(v.min(MAX_TIME_MS));
    let (mut time, mut inc) = match pos.side_to_move() {
        Color::White => (go.p1time, go.p1inc),
        Color::Black => (go.p2time, go.p2inc),
    };
    if time.is_none() {
        // Only the other player's clock: budget from it rather than
        // search until a stop that a match runner will never send.
        (time, inc) = match pos.side_to_move() {
            Color::White => (go.p2time, go.p2inc),
            Color::Black => (go.p1time, go.p1inc),
        };
    }
    let mut limits = Limits {
        clock: time.map(|t| Clock {
            time: ms(t),
            increment: ms(inc.unwrap_or(0)),
            moves_to_go: go.movestogo,
        }),
        movetime: go.movetime.map(ms),
        depth: go.depth.map(|d| d.min(MAX_DEPTH)),
        nodes: go.nodes,
        infinite: go.infinite,
        searchmoves: go.searchmoves.clone(),
        started: None,
    };
    // No limit at all (a bare `go`) means search until stop; say so
    // rather than leave it to the search's interpretation.
    if limits.clock.is_none()
        && limits.movetime.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
    {
        limits.infinite = true;
    }
    limits
}

/// The `info` line for a search report: integers only, as UCI parsers read them.
fn info_line(r: &Report) -> String {
    let score = match r.score {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(n) => format!("mate {n}"),
        Score::Draw => "cp 0".to_string(),
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {}",
        r.depth,
        r.seldepth,
        r.multipv,
        r.nodes,
        r.nps,
        r.hashfull,
        r.time.as_millis()
    );
    if !r.pv.is_empty() {
        s.push_str(" pv");
        for m in &r.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match parse_command(line) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_movers_clock_counts() {
        let white = Position::start(14).unwrap();
        let black = white.play("bar/1".parse().unwrap()).unwrap();
        let g = go("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 7");
        let clock = |pos: &Position| limits_for(pos, &g).clock.unwrap();
        assert_eq!(
            clock(&white),
            Clock {
                time: Duration::from_millis(1000),
                increment: Duration::from_millis(10),
                moves_to_go: Some(7)
            }
        );
        assert_eq!(clock(&black).time, Duration::from_millis(2000));
        assert_eq!(clock(&black).increment, Duration::from_millis(20));
        // Only the other side's clock: it is used rather than none.
        let only_p1 = limits_for(&black, &go("go p1time 500"));
        assert_eq!(only_p1.clock.unwrap().time, Duration::from_millis(500));
        assert!(!only_p1.infinite);
    }

    #[test]
    fn limits_are_passed_on_and_clamped() {
        let pos = Position::start(14).unwrap();
        let l = limits_for(
            &pos,
            &go("go movetime 18446744073709551615 depth 4294967295 nodes 9"),
        );
        assert_eq!(l.movetime, Some(Duration::from_millis(MAX_TIME_MS)));
        assert_eq!(l.depth, Some(MAX_DEPTH));
        assert_eq!(l.nodes, Some(9));
        assert!(!l.infinite);
        assert!(limits_for(&pos, &go("go")).infinite);
        assert!(limits_for(&pos, &go("go ponder")).infinite);
        assert!(!limits_for(&pos, &go("go ponder movetime 5")).infinite);
        let sm = limits_for(&pos, &go("go searchmoves bar/2 bar/3"));
        assert_eq!(sm.searchmoves.len(), 2);
    }

    fn report(score: Score) -> Report {
        Report {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score,
            nodes: 1234,
            nps: 5678,
            hashfull: 12,
            time: Duration::from_millis(217),
            pv: vec!["bar/1".parse().unwrap(), "bar/2".parse().unwrap()],
        }
    }

    #[test]
    fn info_lines_carry_only_integers() {
        assert_eq!(
            info_line(&report(Score::Cp(-35))),
            "info depth 3 seldepth 5 multipv 1 score cp -35 nodes 1234 nps 5678 hashfull 12 \
             time 217 pv bar/1 bar/2"
        );
        assert!(info_line(&report(Score::Mate(-4))).contains(" score mate -4 "));
        assert!(info_line(&report(Score::Draw)).contains(" score cp 0 "));
    }
}
