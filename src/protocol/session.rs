//! The session: the engine's state between commands (position, options,
//! searcher, what is running) and what each command does to it.

use super::command::{Command, ErrorCode, Go, Query, Start};
use super::options::EngineOptions;
use super::{board, sanitise, Event, Inbox, LineOut, Output};
use crate::rules::{Color, Move, Outcome, Position};
use crate::search::{
    Clock, Limits, Report, Score, SearchControl, SearchOptions, SearchResult, Searcher,
};
use std::io;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// Times above this (ms, about 31 years) are read as this, so that no clock
/// arithmetic in the search can overflow.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
/// Depths above this are read as this: no game lasts that many plies.
pub const MAX_DEPTH: u32 = 1000;
/// How long `quit` waits for a stopped search to hand back its move.
const QUIT_GRACE: Duration = Duration::from_secs(5);
/// Stack for search threads: deep recursion must not overflow.
const SEARCH_STACK: usize = 64 << 20;

/// What runs beside the session.
enum Job {
    Idle,
    /// A search; its `bestmove` is still owed.
    Search(Arc<SearchControl>),
    /// A perft count or a bench, named (it cannot be stopped, only
    /// outlived by `quit`).
    Count(&'static str),
}

/// The engine's state between commands.
pub(crate) struct Session {
    out: Output,
    events: Sender<Event>,
    /// What `uci` lists as defaults: the options the daemon started with.
    defaults: EngineOptions,
    options: EngineOptions,
    position: Position,
    /// `None` while a search thread holds it.
    searcher: Option<Box<Searcher>>,
    job: Job,
}

impl Session {
    pub(crate) fn new(out: Output, events: Sender<Event>, search: SearchOptions) -> Session {
        let options = EngineOptions::new(search);
        Session {
            out,
            events,
            defaults: options.clone(),
            position: Position::start(options.checkers).expect("14 checkers is a valid game"),
            searcher: Some(Box::new(Searcher::new(options.search.clone()))),
            options,
            job: Job::Idle,
        }
    }

    /// Writes `error <code> <message>`.
    pub(crate) fn error(&self, code: ErrorCode, message: &str) -> io::Result<()> {
        self.out
            .line(&format!("error {code} {}", sanitise(message)))
    }

    /// Runs one command (not `quit`, which the loop handles).
    pub(crate) fn execute(
        &mut self,
        command: Command,
        read_at: std::time::Instant,
        inbox: &mut Inbox,
    ) -> io::Result<()> {
        match command {
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::Stop => self.stop(inbox),
            Command::PonderHit => {
                if let Job::Search(control) = &self.job {
                    control.ponderhit();
                }
                Ok(())
            }
            Command::Query(q) => self.query(q),
            Command::Display => self.out.lines(&board::draw(&self.position)),
            Command::Quit => Ok(()),
            Command::SetOption { name, value } => {
                if self.busy("setoption")? {
                    return Ok(());
                }
                match self.options.set(&name, value.as_deref()) {
                    Ok(()) => {
                        if let Some(s) = self.searcher.as_mut() {
                            s.set_options(self.options.search.clone());
                        }
                        Ok(())
                    }
                    Err(e) => self.error(ErrorCode::BadOption, &e.to_string()),
                }
            }
            Command::NewGame => {
                if self.busy("uginewgame")? {
                    return Ok(());
                }
                self.searcher_mut().clear();
                self.position = self.start_position();
                Ok(())
            }
            Command::Position { start, moves } => {
                if self.busy("position")? {
                    return Ok(());
                }
                self.set_position(start, &moves)
            }
            Command::Go(go) => {
                if self.busy("go")? {
                    return Ok(());
                }
                self.go(go, read_at)
            }
            Command::Perft(depth) => {
                if self.busy("perft")? {
                    return Ok(());
                }
                self.count("perft", move |w, pos| {
                    crate::cli::write_perft(w, pos, depth, true).map(|_| ())
                })
            }
            Command::Bench(depth) => {
                if self.busy("bench")? {
                    return Ok(());
                }
                let depth = depth.unwrap_or(crate::search::bench::DEFAULT_DEPTH);
                self.count("bench", move |w, _| {
                    crate::search::bench::one_second(w)?;
                    crate::search::bench::run(w, depth).map(|_| ())
                })
            }
        }
    }

    /// Reports `error busy` and returns true when a search, perft or bench runs.
    fn busy(&self, command: &str) -> io::Result<bool> {
        let why = match self.job {
            Job::Idle => return Ok(false),
            Job::Search(_) => "a search is running; send stop and wait for bestmove first",
            Job::Count("perft") => "perft is running; wait for its nodes line first",
            Job::Count(_) => "bench is running; wait for its nodes line first",
        };
        self.error(ErrorCode::Busy, &format!("{command}: {why}"))?;
        Ok(true)
    }

    fn searcher_mut(&mut self) -> &mut Searcher {
        let options = &self.options.search;
        self.searcher
            .get_or_insert_with(|| Box::new(Searcher::new(options.clone())))
    }

    fn start_position(&self) -> Position {
        Position::start(self.options.checkers).expect("Checkers is validated when set")
    }

    fn identify(&self, ok: &str) -> io::Result<()> {
        let mut lines = vec![
            format!("id name grasshopper {}", env!("CARGO_PKG_VERSION")),
            "id author the grasshopper developers".to_string(),
        ];
        lines.extend(self.defaults.describe());
        lines.push(ok.to_string());
        self.out.lines(&lines)
    }

    /// `position`: all or nothing.
    fn set_position(&mut self, start: Start, moves: &[Move]) -> io::Result<()> {
        let mut pos = match start {
            Start::StartPos => self.start_position(),
            Start::Fen(p) => p,
        };
        for (i, &m) in moves.iter().enumerate() {
            match pos.play(m) {
                Ok(next) => pos = next,
                Err(e) => {
                    return self.error(
                        ErrorCode::IllegalMove,
                        &format!("position: move {} ({m}): {e}", i + 1),
                    )
                }
            }
        }
        self.position = pos;
        Ok(())
    }

    fn query(&self, q: Query) -> io::Result<()> {
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
        let line = if answer.is_empty() {
            "response".to_string()
        } else {
            format!("response {}", sanitise(&answer))
        };
        self.out.line(&line)
    }

    fn go(&mut self, go: Go, read_at: std::time::Instant) -> io::Result<()> {
        let pos = self.position;
        match pos.outcome() {
            Outcome::Ongoing => {}
            outcome => {
                let why = match outcome {
                    Outcome::Win(c) => format!("{c} has won"),
                    _ => "drawn, neither player can move".to_string(),
                };
                return self.out.lines(&[
                    format!("info string game over: {why}; no move to search"),
                    "bestmove (none)".to_string(),
                ]);
            }
        }
        for (i, &m) in go.searchmoves.iter().enumerate() {
            if let Err(e) = pos.check(m) {
                return self.error(
                    ErrorCode::IllegalMove,
                    &format!("go: searchmove {} ({m}): {e}", i + 1),
                );
            }
        }
        let limits = Limits {
            started: Some(read_at),
            ..limits_for(&pos, &go)
        };
        let control = Arc::new(SearchControl::new(go.ponder));
        let thread_control = Arc::clone(&control);
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Box::new(Searcher::new(self.options.search.clone())));
        let out = self.out.clone();
        let events = self.events.clone();
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
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
                let _ = events.send(Event::SearchDone { searcher, result });
            });
        match spawned {
            Ok(_) => {
                self.job = Job::Search(control);
                Ok(())
            }
            Err(e) => {
                // The searcher went with the closure; a fresh one is made
                // when next needed.
                log::error!("cannot start a search thread: {e}");
                self.out.lines(&[
                    format!("info string cannot start a search thread: {e}"),
                    "bestmove (none)".to_string(),
                ])
            }
        }
    }

    /// `stop`: the search ends, and its `bestmove` is written before the
    /// next command runs (so a client may send `position` right after).
    fn stop(&mut self, inbox: &mut Inbox) -> io::Result<()> {
        if let Job::Search(control) = &self.job {
            control.stop();
            // The search answers a stop at once; if it somehow does not,
            // the session carries on and the bestmove comes when it comes.
            if let Some((searcher, result)) = inbox.wait_for_search(QUIT_GRACE) {
                self.search_done(searcher, result)?;
            } else {
                log::warn!("the search did not stop within {QUIT_GRACE:?}");
            }
        }
        Ok(())
    }

    /// A search thread has finished: write its `bestmove`.
    pub(crate) fn search_done(
        &mut self,
        searcher: Box<Searcher>,
        result: SearchResult,
    ) -> io::Result<()> {
        self.searcher = Some(searcher);
        self.job = Job::Idle;
        // UCI: the ponder move is named only to a GUI that switched
        // pondering on; strict runners read `bestmove <move>` as two words.
        let ponder = result.ponder.filter(|_| self.options.ponder);
        match result.best {
            Some(best) => match ponder {
                Some(p) => self.out.line(&format!("bestmove {best} ponder {p}")),
                None => self.out.line(&format!("bestmove {best}")),
            },
            None => self.out.lines(&[
                "info string the search returned no move".to_string(),
                "bestmove (none)".to_string(),
            ]),
        }
    }

    /// Runs a count (perft or bench) on a thread of its own; its output
    /// goes out line by line, the last line once the session knows it is over.
    fn count(
        &mut self,
        name: &'static str,
        work: impl FnOnce(&mut LineOut, &Position) -> io::Result<()> + Send + 'static,
    ) -> io::Result<()> {
        let pos = self.position;
        let out = self.out.clone();
        let events = self.events.clone();
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let mut w = LineOut::new(out);
                if let Err(e) = work(&mut w, &pos) {
                    log::warn!("{name} output failed: {e}");
                }
                let _ = events.send(Event::CountDone(w.into_last_line()));
            });
        match spawned {
            Ok(_) => {
                self.job = Job::Count(name);
                Ok(())
            }
            Err(e) => self
                .out
                .line(&format!("info string cannot start {name}: {e}")),
        }
    }

    /// A perft or bench thread has finished: write its last line.
    pub(crate) fn count_done(&mut self, last: Option<String>) -> io::Result<()> {
        self.job = Job::Idle;
        match last {
            Some(line) => self.out.line(&line),
            None => Ok(()),
        }
    }

    /// `quit` or the end of input: stop a search and write its `bestmove`
    /// (every `go` gets one). A running perft cannot be stopped: at the end
    /// of input it is finished first (so `echo "perft 5" | grasshopper`
    /// prints its count); `quit` abandons it.
    pub(crate) fn shutdown(mut self, inbox: &mut Inbox, end_of_input: bool) -> io::Result<()> {
        if matches!(self.job, Job::Count(_)) && end_of_input {
            loop {
                if let Event::CountDone(last) = inbox.next() {
                    self.count_done(last)?;
                    break;
                }
            }
        }
        self.stop(inbox)
    }
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
        match super::super::parse_command(line) {
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
