//! The protocol-compliance checker: drives any engine that speaks
//! protocol.md through every command and judges each line it writes by the
//! grammar, each answer by what the command calls for, and each move by the
//! rules crate. One [`CheckResult`] per check, `PASS <check>` or
//! `FAIL <check>: <why>`.
//!
//! A failed check ends its engine process (its state is unknown); the next
//! check starts a fresh one. If a fresh process cannot even complete the
//! handshake, the remaining checks fail at once as not checked, so a dead or
//! silent engine costs one timeout, not one per check.

use crate::grammar::{
    answer, quote, Answer, ErrorCode, GameResult, Info, Line, OptionKind, Question,
};
use crate::positions::Positions;
use crate::strict::{Fault, Said, StrictEngine};
use engine_client::{EngineFailure, Program};
use grasshopper_rules::{Color, Move, Outcome, Position};
use std::fmt;
use std::time::{Duration, Instant};

/// How to check.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine.
    pub program: Program,
    /// Patience for every answer that no time limit bounds (handshake,
    /// `isready`, queries, a `depth`/`nodes` search, `bestmove` after `stop`).
    pub timeout: Duration,
    /// How far past a time limit (`movetime`, the mover's clock) a
    /// `bestmove` may come.
    pub margin: Duration,
}

impl Settings {
    /// Defaults: 5 s timeout, 100 ms margin.
    pub fn new(program: Program) -> Settings {
        Settings {
            program,
            timeout: Duration::from_secs(5),
            margin: Duration::from_millis(100),
        }
    }
}

/// The verdict of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    pub name: String,
    /// `None`: passed; else why it failed.
    pub failure: Option<String>,
}

impl CheckResult {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

impl fmt::Display for CheckResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.failure {
            None => write!(f, "PASS {}", self.name),
            Some(why) => write!(f, "FAIL {}: {why}", self.name),
        }
    }
}

/// How long a search that must not end by itself (`go infinite`, `go
/// ponder`) is watched before `stop` or `ponderhit`.
const WATCH: Duration = Duration::from_millis(120);
/// The `movetime` of the checks.
const MOVETIME_MS: u64 = 100;

/// Runs every check against the engine, passing each result to `report`
/// as it is known; returns them all. The engine's processes are ended.
pub fn run(settings: &Settings, mut report: impl FnMut(&CheckResult)) -> Vec<CheckResult> {
    let mut c = Checker {
        s: settings,
        engine: None,
        dead: None,
        options: Vec::new(),
        ponder: false,
        multipv: 1,
        p: Positions::new(),
        results: Vec::new(),
    };
    c.all(&mut report);
    if let Some(e) = c.engine.take() {
        e.kill();
    }
    c.results
}

struct Checker<'a> {
    s: &'a Settings,
    engine: Option<StrictEngine>,
    /// Why no session can be started (the handshake failed on a fresh process).
    dead: Option<String>,
    /// The options of the first handshake: name and kind.
    options: Vec<(String, OptionKind)>,
    /// Whether the Ponder option is true now.
    ponder: bool,
    /// MultiPV's value now.
    multipv: u64,
    p: Positions,
    results: Vec<CheckResult>,
}

type Check = Result<(), Fault>;

fn wrong(why: impl Into<String>) -> Fault {
    Fault::Wrong(why.into())
}

/// An option name as setoption compares it.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// What a search gave: its info lines and its bestmove.
struct Searched {
    infos: Vec<Info>,
    best: Option<Move>,
    /// From sending `go` (or `ponderhit`) to reading `bestmove`.
    elapsed: Duration,
}

impl<'a> Checker<'a> {
    fn all(&mut self, report: &mut impl FnMut(&CheckResult)) {
        let mut run = |c: &mut Self, name: &str, f: &dyn Fn(&mut Self) -> Check| {
            let failure = match &c.dead {
                Some(why) if name != "handshake" => Some(format!("not checked: {why}")),
                _ => f(c).err().map(|e| e.to_string()),
            };
            if failure.is_some() {
                c.end_session();
            }
            let result = CheckResult {
                name: name.to_string(),
                failure,
            };
            report(&result);
            c.results.push(result);
        };
        run(self, "handshake", &Self::handshake);
        run(self, "handshake uci", &Self::handshake_uci);
        run(self, "isready", &Self::isready);
        run(self, "setoption", &Self::setoption);
        run(self, "position startpos", &Self::position_startpos);
        run(self, "position fen ... moves ...", &Self::position_fen);
        run(self, "uginewgame", &Self::uginewgame);
        run(self, "query gameover", &|c| {
            c.query_each(Question::GameOver)
        });
        run(self, "query p1turn", &|c| c.query_each(Question::P1Turn));
        run(self, "query result", &|c| c.query_each(Question::Result));
        run(self, "query legal", &Self::query_legal);
        run(self, "query moves", &|c| c.query_each(Question::Moves));
        run(self, "query fen", &|c| c.query_each(Question::Fen));
        run(self, "go depth", &|c| {
            c.go_limit("go depth 2", c.p.white, None)
        });
        run(self, "go nodes", &|c| {
            c.go_limit("go nodes 1000", c.p.black, None)
        });
        let mt = Duration::from_millis(MOVETIME_MS);
        run(self, "go movetime", &|c| {
            c.go_limit(&format!("go movetime {MOVETIME_MS}"), c.p.white, Some(mt))
        });
        run(self, "go p1time p2time p1inc p2inc", &Self::go_clocks);
        run(self, "go movestogo", &|c| {
            let go = "go p1time 10000 p2time 300 p1inc 0 p2inc 0 movestogo 2";
            c.go_limit(go, c.p.black, Some(Duration::from_millis(300)))
        });
        run(self, "go wtime btime winc binc", &|c| {
            let go = "go wtime 300 btime 10000 winc 10 binc 10";
            c.go_limit(go, c.p.white, Some(Duration::from_millis(300)))
        });
        run(self, "go searchmoves", &Self::go_searchmoves);
        run(self, "go infinite + stop", &|c| c.until_stop("go infinite"));
        run(self, "go (no limit) + stop", &|c| c.until_stop("go"));
        run(
            self,
            "isready during go infinite",
            &Self::isready_while_searching,
        );
        run(self, "stop without a search", &Self::stop_idle);
        run(self, "go ponder + ponderhit", &Self::ponderhit);
        run(self, "go ponder + stop", &|c| c.until_stop("go ponder"));
        run(self, "Ponder true: bestmove ponder", &Self::ponder_on);
        run(self, "MultiPV", &Self::multipv);
        run(self, "go at game end", &Self::game_end);
        run(self, "go infinite at game end", &Self::game_end_infinite);
        for code in ErrorCode::ALL {
            run(self, &format!("error {code}"), &move |c| c.error(code));
        }
        run(self, "no stray output", &Self::no_stray_output);
        run(self, "quit", &Self::quit);
        run(self, "end of input", &Self::end_of_input);
    }

    fn end_session(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill();
        }
        self.ponder = false;
        self.multipv = 1;
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.s.timeout
    }

    /// The running session, started (with a handshake) if there is none.
    fn e(&mut self) -> Result<&mut StrictEngine, Fault> {
        if self.engine.is_none() {
            match self.start_session() {
                Ok(e) => self.engine = Some(e),
                Err(f) => {
                    let why = format!("a fresh process did not complete the handshake: {f}");
                    self.dead = Some(why.clone());
                    return Err(wrong(why));
                }
            }
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    fn spawn(&self) -> Result<StrictEngine, Fault> {
        StrictEngine::spawn(&self.s.program).map_err(|err| {
            Fault::Closed(match err {
                EngineFailure::Spawn(io) => format!("cannot be started: {io}"),
                other => other.to_string(),
            })
        })
    }

    /// A fresh process after `ugi` and `ugiok`. Bad lines are skipped here:
    /// the handshake check reports them. The options it lists are kept if
    /// the handshake check could not learn them.
    fn start_session(&mut self) -> Result<StrictEngine, Fault> {
        let mut e = self.spawn()?;
        e.send("ugi")?;
        let deadline = self.deadline();
        let mut options = Vec::new();
        loop {
            match e.next(deadline, "ugiok after ugi") {
                Ok(Said {
                    line: Line::UgiOk, ..
                }) => {
                    if self.options.is_empty() {
                        self.options = options;
                    }
                    return Ok(e);
                }
                Ok(Said {
                    line: Line::Option(o),
                    ..
                }) => options.push((o.name, o.kind)),
                Ok(_) | Err(Fault::BadLine { .. }) => {}
                Err(f) => {
                    e.kill();
                    return Err(f);
                }
            }
        }
    }

    // ----- reading answers -----

    /// The next line (`what` names it for the timeout message).
    fn next_line(&mut self, what: &str) -> Result<Said, Fault> {
        let deadline = self.deadline();
        self.e()?.next(deadline, what)
    }

    /// Nothing may come for a short while.
    fn quiet(&mut self, after: &str) -> Check {
        self.e()?.quiet(Duration::from_millis(50), after)
    }

    /// `isready` and nothing but `readyok`.
    fn sync(&mut self) -> Check {
        let timeout = self.s.timeout;
        self.e()?.sync(timeout)
    }

    fn send(&mut self, line: &str) -> Check {
        self.e()?.send(line)
    }

    /// Sets the position and makes sure it took (by `query fen`).
    fn set(&mut self, pos: &Position) -> Check {
        self.send(&format!("position fen {pos}"))?;
        self.expect_fen(pos, "position fen")
    }

    fn expect_fen(&mut self, want: &Position, after: &str) -> Check {
        match self.ask("fen", Question::Fen)? {
            Answer::Fen(got) if got == *want => Ok(()),
            Answer::Fen(got) => Err(wrong(format!(
                "after {after} the position is {got}, expected {want}"
            ))),
            _ => unreachable!("a fen answer"),
        }
    }

    /// `query <q>` and its one `response` line, read as `question` answers.
    fn ask(&mut self, q: &str, question: Question) -> Result<Answer, Fault> {
        self.send(&format!("query {q}"))?;
        let said = self.next_line(&format!("response to query {q}"))?;
        match &said.line {
            Line::Response(rest) => {
                answer(question, rest.as_deref()).map_err(|refusal| Fault::BadLine {
                    text: said.text.clone(),
                    refusal,
                })
            }
            _ => Err(Fault::Unexpected {
                text: said.text,
                expected: format!("a response line after query {q}"),
            }),
        }
    }

    // ----- searches -----

    /// Checks an info line against the position and the settings: every pv
    /// is a legal line from it, multipv within MultiPV.
    fn judge_info(&self, pos: &Position, info: &Info, text: &str) -> Check {
        if let Some(k) = info.multipv {
            if k > self.multipv {
                return Err(wrong(format!(
                    "{}: multipv {k} with MultiPV {}",
                    quote(text),
                    self.multipv
                )));
            }
        }
        let mut at = *pos;
        for (i, &m) in info.pv.iter().enumerate() {
            at = at.play(m).map_err(|e| {
                wrong(format!(
                    "{}: pv move {} ({m}) is illegal in {at}: {e}",
                    quote(text),
                    i + 1
                ))
            })?;
        }
        Ok(())
    }

    /// Reads info lines until `bestmove` (by `deadline`), judging each.
    fn bestmove(
        &mut self,
        pos: &Position,
        from: Instant,
        deadline: Instant,
        what: &str,
    ) -> Result<Searched, Fault> {
        let mut infos = Vec::new();
        loop {
            let said = self.e()?.next(deadline, what)?;
            match said.line {
                Line::Info(info) => {
                    self.judge_info(pos, &info, &said.text)?;
                    infos.push(info);
                }
                Line::BestMove { mv, ponder } => {
                    self.judge_bestmove(pos, mv, ponder, &said.text)?;
                    return Ok(Searched {
                        infos,
                        best: mv,
                        elapsed: said.at.saturating_duration_since(from),
                    });
                }
                _ => {
                    return Err(Fault::Unexpected {
                        text: said.text,
                        expected: "info lines, then bestmove".into(),
                    })
                }
            }
        }
    }

    /// A bestmove refereed by the rules: legal, `(none)` exactly when the
    /// game is over, a ponder move only with Ponder true and legal after it.
    fn judge_bestmove(
        &self,
        pos: &Position,
        mv: Option<Move>,
        ponder: Option<Move>,
        text: &str,
    ) -> Check {
        let Some(mv) = mv else {
            if pos.is_game_over() {
                return Ok(());
            }
            return Err(wrong(format!(
                "\"bestmove (none)\" in {pos}, where the game goes on"
            )));
        };
        let after = pos
            .play(mv)
            .map_err(|e| wrong(format!("{}: illegal in {pos}: {e}", quote(text))))?;
        if let Some(p) = ponder {
            if !self.ponder {
                return Err(wrong(format!(
                    "{}: a ponder move while the Ponder option is false \
                     (bestmove is two words then)",
                    quote(text)
                )));
            }
            after.check(p).map_err(|e| {
                wrong(format!(
                    "{}: the ponder move is illegal after {mv}: {e}",
                    quote(text)
                ))
            })?;
        }
        Ok(())
    }

    /// `go`, then `bestmove` within `limit` + margin (or the timeout), then
    /// nothing but `readyok` to `isready` (one bestmove per go).
    fn search(
        &mut self,
        pos: &Position,
        go: &str,
        limit: Option<Duration>,
    ) -> Result<Searched, Fault> {
        self.set(pos)?;
        self.sync()?;
        self.send(go)?;
        let sent = Instant::now();
        let allowed = match limit {
            Some(l) => l + self.s.margin,
            None => self.s.timeout,
        };
        // Past a time limit, read on a while to tell "late" from "never".
        let deadline = match limit {
            Some(_) => sent + allowed + self.s.timeout,
            None => sent + allowed,
        };
        let found = self.bestmove(pos, sent, deadline, &format!("bestmove after {go}"))?;
        if found.elapsed > allowed {
            return Err(wrong(format!(
                "bestmove after {} ms, {} allowed for \"{go}\"",
                found.elapsed.as_millis(),
                allowed.as_millis()
            )));
        }
        self.sync()?;
        Ok(found)
    }

    fn go_limit(&mut self, go: &str, pos: Position, limit: Option<Duration>) -> Check {
        let found = self.search(&pos, go, limit)?;
        if found.best.is_none() {
            return Err(wrong(format!("no move in {pos}")));
        }
        Ok(())
    }

    fn go_clocks(&mut self) -> Check {
        // The mover's clock counts: White to move with 300 ms, Black to
        // move with 300 ms (the other clock long).
        let (w, b) = (self.p.white, self.p.black);
        let short = Some(Duration::from_millis(300));
        self.go_limit("go p1time 300 p2time 10000 p1inc 10 p2inc 10", w, short)?;
        self.go_limit("go p1time 10000 p2time 300 p1inc 10 p2inc 10", b, short)
    }

    fn go_searchmoves(&mut self) -> Check {
        let pos = self.p.white;
        let legal = pos.legal_moves();
        let allowed: Vec<Move> = legal.as_slice()[legal.len() - 2..].to_vec();
        let go = format!("go depth 2 searchmoves {} {}", allowed[0], allowed[1]);
        let found = self.search(&pos, &go, None)?;
        match found.best {
            Some(m) if allowed.contains(&m) => Ok(()),
            other => Err(wrong(format!(
                "bestmove {other:?} is not one of the searchmoves {} {}",
                allowed[0], allowed[1]
            ))),
        }
    }

    /// Info lines only (no bestmove) for `WATCH`.
    fn watch(&mut self, pos: &Position, go: &str) -> Check {
        let until = Instant::now() + WATCH;
        loop {
            match self.e()?.next(until, "") {
                Err(Fault::Timeout { .. }) => return Ok(()),
                Err(f) => return Err(f),
                Ok(said) => match said.line {
                    Line::Info(info) => self.judge_info(pos, &info, &said.text)?,
                    Line::BestMove { .. } => {
                        return Err(Fault::Unexpected {
                            text: said.text,
                            expected: format!(
                                "no bestmove before stop: \"{go}\" searches until stop"
                            ),
                        })
                    }
                    _ => {
                        return Err(Fault::Unexpected {
                            text: said.text,
                            expected: "info lines while searching".into(),
                        })
                    }
                },
            }
        }
    }

    /// `go ...` that must run until `stop`; then exactly one bestmove.
    fn until_stop(&mut self, go: &str) -> Check {
        let pos = self.p.white;
        self.set(&pos)?;
        self.sync()?;
        self.send(go)?;
        self.watch(&pos, go)?;
        self.send("stop")?;
        let sent = Instant::now();
        let deadline = sent + self.s.timeout;
        let found = self.bestmove(&pos, sent, deadline, "bestmove after stop")?;
        if found.best.is_none() {
            return Err(wrong("bestmove (none) after stop, in a game that goes on"));
        }
        self.sync()
    }

    fn isready_while_searching(&mut self) -> Check {
        let pos = self.p.white;
        self.set(&pos)?;
        self.sync()?;
        self.send("go infinite")?;
        self.send("isready")?;
        let deadline = self.deadline();
        loop {
            let said = self.e()?.next(deadline, "readyok after isready")?;
            match said.line {
                Line::Info(info) => self.judge_info(&pos, &info, &said.text)?,
                Line::ReadyOk => break,
                _ => {
                    return Err(Fault::Unexpected {
                        text: said.text,
                        expected: "readyok (the search goes on until stop)".into(),
                    })
                }
            }
        }
        self.watch(&pos, "go infinite")?;
        self.send("stop")?;
        let now = Instant::now();
        self.bestmove(&pos, now, now + self.s.timeout, "bestmove after stop")?;
        self.sync()
    }

    fn stop_idle(&mut self) -> Check {
        self.sync()?;
        self.send("stop")?;
        self.quiet("stop without a search")?;
        self.send("ponderhit")?;
        self.quiet("ponderhit without a search")?;
        self.sync()
    }

    fn ponderhit(&mut self) -> Check {
        let pos = self.p.black;
        self.set(&pos)?;
        self.sync()?;
        let go = format!("go ponder movetime {MOVETIME_MS}");
        self.send(&go)?;
        self.watch(&pos, &go)?;
        self.send("ponderhit")?;
        let hit = Instant::now();
        let allowed = Duration::from_millis(MOVETIME_MS) + self.s.margin;
        let found = self.bestmove(
            &pos,
            hit,
            hit + allowed + self.s.timeout,
            "bestmove after ponderhit",
        )?;
        if found.elapsed > allowed {
            return Err(wrong(format!(
                "bestmove {} ms after ponderhit, {} allowed for movetime {MOVETIME_MS}",
                found.elapsed.as_millis(),
                allowed.as_millis()
            )));
        }
        self.sync()
    }

    fn option_named(&self, name: &str) -> Option<&OptionKind> {
        self.options
            .iter()
            .find(|(n, _)| normalise(n) == normalise(name))
            .map(|(_, k)| k)
    }

    fn ponder_on(&mut self) -> Check {
        if !matches!(self.option_named("Ponder"), Some(OptionKind::Check { .. })) {
            return Err(wrong("the engine lists no check option Ponder"));
        }
        self.send("setoption name Ponder value true")?;
        self.ponder = true;
        self.sync()?;
        // The ponder move is allowed, not required; judge_bestmove checks
        // that it is legal after the move.
        for pos in [self.p.white, self.p.black] {
            self.search(&pos, "go depth 3", None)?;
        }
        // A finished game: still (none), with no ponder move.
        let won = self.p.white_won;
        self.search(&won, "go depth 3", None)?;
        self.send("setoption name Ponder value false")?;
        self.ponder = false;
        self.sync()?;
        // Off again: two words (judged by judge_bestmove).
        let white = self.p.white;
        self.search(&white, "go depth 3", None).map(|_| ())
    }

    fn multipv(&mut self) -> Check {
        if !matches!(self.option_named("MultiPV"), Some(OptionKind::Spin { .. })) {
            return Err(wrong("the engine lists no spin option MultiPV"));
        }
        self.send("setoption name MultiPV value 3")?;
        self.multipv = 3;
        self.sync()?;
        let pos = self.p.white;
        let found = self.search(&pos, "go depth 3", None)?;
        // Lines 1..3 of a depth begin with different moves.
        let mut firsts: Vec<(u64, u64, Move)> = Vec::new();
        for info in &found.infos {
            if let (Some(d), Some(k), Some(&m)) = (info.depth, info.multipv, info.pv.first()) {
                if firsts
                    .iter()
                    .any(|&(d2, k2, m2)| d2 == d && k2 != k && m2 == m)
                {
                    return Err(wrong(format!(
                        "two lines of depth {d} begin with {m} (multipv lines are different moves)"
                    )));
                }
                firsts.push((d, k, m));
            }
        }
        self.send("setoption name MultiPV value 1")?;
        self.multipv = 1;
        self.sync()
    }

    fn game_end(&mut self) -> Check {
        for pos in [self.p.white_won, self.p.black_won, self.p.draw] {
            let found = self.search(&pos, "go depth 3", None)?;
            if found.best.is_some() {
                return Err(wrong(format!("a move in the finished game {pos}")));
            }
        }
        Ok(())
    }

    fn game_end_infinite(&mut self) -> Check {
        // Answered at once, without a stop.
        let pos = self.p.black_won;
        self.search(&pos, "go infinite", Some(Duration::ZERO))
            .map(|_| ())
    }

    // ----- positions and queries -----

    fn handshake(&mut self) -> Check {
        let mut e = match self.spawn() {
            Ok(e) => e,
            Err(f) => {
                self.dead = Some(format!("the handshake failed: {f}"));
                return Err(f);
            }
        };
        e.send("ugi")?;
        let deadline = self.deadline();
        let result = self.read_identity(&mut e, deadline, Line::UgiOk, "ugi");
        match result {
            Ok(options) => {
                self.options = options;
                self.engine = Some(e);
                Ok(())
            }
            Err(f) => {
                // Fatal for what follows only if no ugiok ever comes.
                let fatal = matches!(f, Fault::Timeout { .. } | Fault::Closed(_));
                if fatal {
                    self.dead = Some(format!("the handshake failed: {f}"));
                }
                e.kill();
                Err(f)
            }
        }
    }

    /// The answer to `ugi`/`uci`: `id name`, `id author` (once each, first),
    /// option lines (distinct names), then `ok`.
    fn read_identity(
        &self,
        e: &mut StrictEngine,
        deadline: Instant,
        ok: Line,
        hello: &str,
    ) -> Result<Vec<(String, OptionKind)>, Fault> {
        let (mut name, mut author) = (false, false);
        let mut options: Vec<(String, OptionKind)> = Vec::new();
        loop {
            let said = e.next(deadline, &format!("{ok} after {hello}"))?;
            let unexpected = |expected: &str| Fault::Unexpected {
                text: said.text.clone(),
                expected: expected.to_string(),
            };
            match &said.line {
                l if *l == ok => break,
                Line::IdName(_) if !name && options.is_empty() => name = true,
                Line::IdAuthor(_) if !author && options.is_empty() => author = true,
                Line::IdName(_) | Line::IdAuthor(_) => {
                    return Err(unexpected("each id line once, before the options"))
                }
                Line::Option(o) => {
                    if options
                        .iter()
                        .any(|(n, _)| normalise(n) == normalise(&o.name))
                    {
                        return Err(unexpected("each option listed once"));
                    }
                    options.push((o.name.clone(), o.kind.clone()));
                }
                _ => {
                    return Err(unexpected(&format!(
                        "id, option or {ok} lines after {hello}"
                    )))
                }
            }
        }
        if !name || !author {
            return Err(wrong(format!(
                "no id {} line before {ok}",
                if name { "author" } else { "name" }
            )));
        }
        Ok(options)
    }

    fn handshake_uci(&mut self) -> Check {
        self.send("uci")?;
        let deadline = self.deadline();
        let mut e = self.engine.take().expect("started by send");
        let r = self.read_identity(&mut e, deadline, Line::UciOk, "uci");
        self.engine = Some(e);
        r.map(|_| ())
    }

    fn isready(&mut self) -> Check {
        self.sync()?;
        self.sync()
    }

    fn setoption(&mut self) -> Check {
        for (name, kind) in self.options.clone() {
            let value = match kind {
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Check { default } => default.to_string(),
                OptionKind::String { default } => default,
            };
            self.send(&format!("setoption name {name} value {value}"))?;
            self.quiet(&format!("setoption {name} to its default"))?;
        }
        self.sync()
    }

    /// The start position with the Checkers option's default.
    fn start(&self) -> Position {
        let n = match self.option_named("Checkers") {
            Some(OptionKind::Spin { default, .. }) => u8::try_from(*default).unwrap_or(14),
            _ => 14,
        };
        Position::start(n).unwrap_or_else(|| Position::start(14).expect("14 checkers"))
    }

    fn position_startpos(&mut self) -> Check {
        let start = self.start();
        self.send("position startpos")?;
        self.expect_fen(&start, "position startpos")?;
        let (mut pos, mut moves) = (start, Vec::new());
        for k in 0..5 {
            let legal = pos.legal_moves();
            let m = legal[(k * 5 + 1) % legal.len()];
            pos = pos.play(m).expect("legal");
            moves.push(m.to_string());
        }
        let line = format!("position startpos moves {}", moves.join(" "));
        self.send(&line)?;
        self.expect_fen(&pos, &line)?;
        self.send("position startpos moves")?;
        self.expect_fen(&start, "position startpos moves")?;
        self.sync()
    }

    fn position_fen(&mut self) -> Check {
        let (n, moves, end) = self.p.line.clone();
        let start = Position::start(n).expect("N");
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        let line = format!("position fen {start} moves {}", text.join(" "));
        self.send(&line)?;
        self.expect_fen(&end, &line)?;
        for pos in [self.p.white, self.p.black, self.p.pass, self.p.draw] {
            self.set(&pos)?;
            let m = pos.legal_moves().first().copied();
            if let Some(m) = m {
                let line = format!("position fen {pos} moves {m}");
                self.send(&line)?;
                self.expect_fen(&pos.play(m).expect("legal"), &line)?;
            }
        }
        // The last move of a game, and "moves" with nothing after it.
        let won = self.p.white_won;
        self.send(&format!("position fen {won} moves"))?;
        self.expect_fen(&won, "position fen ... moves")?;
        self.sync()
    }

    fn uginewgame(&mut self) -> Check {
        let start = self.start();
        for cmd in ["uginewgame", "ucinewgame"] {
            let pos = self.p.white;
            self.set(&pos)?;
            self.send(cmd)?;
            self.quiet(cmd)?;
            self.expect_fen(&start, cmd)?;
        }
        self.sync()
    }

    fn query_positions(&self) -> Vec<Position> {
        let p = &self.p;
        vec![
            self.start(),
            p.white,
            p.black,
            p.pass,
            p.white_won,
            p.black_won,
            p.draw,
        ]
    }

    fn query_each(&mut self, q: Question) -> Check {
        for pos in self.query_positions() {
            self.set(&pos)?;
            let (word, want) = match q {
                Question::GameOver => ("gameover", Answer::Bool(pos.is_game_over())),
                Question::P1Turn => ("p1turn", Answer::Bool(pos.side_to_move() == Color::White)),
                Question::Result => (
                    "result",
                    Answer::Result(match pos.outcome() {
                        Outcome::Win(Color::White) => GameResult::P1Win,
                        Outcome::Win(Color::Black) => GameResult::P2Win,
                        Outcome::Draw => GameResult::Draw,
                        Outcome::Ongoing => GameResult::None,
                    }),
                ),
                Question::Moves => (
                    "moves",
                    Answer::Moves(pos.legal_moves().as_slice().to_vec()),
                ),
                Question::Fen => ("fen", Answer::Fen(pos)),
                Question::Legal => unreachable!("query_legal"),
            };
            let mut got = self.ask(word, q)?;
            if let (Answer::Moves(g), Answer::Moves(_)) = (&mut got, &want) {
                // Any order.
                let mut sorted = g.clone();
                sorted.sort();
                let mut w = pos.legal_moves().as_slice().to_vec();
                w.sort();
                if sorted == w {
                    continue;
                }
                return Err(wrong(format!(
                    "query moves in {pos}: {} instead of {}",
                    show(g),
                    show(&w)
                )));
            }
            if got != want {
                return Err(wrong(format!(
                    "query {word} in {pos}: {got:?} instead of {want:?}"
                )));
            }
        }
        self.sync()
    }

    fn query_legal(&mut self) -> Check {
        for pos in self.query_positions() {
            self.set(&pos)?;
            let mut probes: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            probes.extend(["bar/7", "1/7", "24/off", "pass", "xyz", "bar/25"].map(String::from));
            for text in probes {
                let want = text
                    .parse::<Move>()
                    .map(|m| pos.check(m).is_ok())
                    .unwrap_or(false);
                match self.ask(&format!("legal {text}"), Question::Legal)? {
                    Answer::Legal(got) if got.is_ok() == want => {}
                    Answer::Legal(got) => {
                        return Err(wrong(format!(
                            "query legal {text} in {pos}: {} (it is {})",
                            if got.is_ok() { "true" } else { "false" },
                            if want { "legal" } else { "not legal" }
                        )))
                    }
                    _ => unreachable!("a legal answer"),
                }
            }
        }
        self.sync()
    }

    // ----- errors -----

    /// One `error <code> ...` line and nothing else.
    fn expect_error(&mut self, sent: &str, code: ErrorCode) -> Check {
        self.send(sent)?;
        let said = self.next_line(&format!("error {code} after {sent}"))?;
        match said.line {
            Line::Error { code: c, .. } if c == code => {}
            _ => {
                return Err(Fault::Unexpected {
                    text: said.text,
                    expected: format!("error {code} ... after {}", quote(sent)),
                })
            }
        }
        self.quiet(sent)
    }

    fn error(&mut self, code: ErrorCode) -> Check {
        let pos = self.p.white;
        self.set(&pos)?;
        match code {
            ErrorCode::UnknownCommand => {
                for cmd in ["flibbertigibbet", "isreadyy", "Go depth 1"] {
                    self.expect_error(cmd, code)?;
                }
            }
            ErrorCode::Syntax => {
                for cmd in [
                    "go depth banana",
                    "go depth 0",
                    "isready now",
                    "query",
                    "position",
                ] {
                    self.expect_error(cmd, code)?;
                }
            }
            ErrorCode::BadPosition => {
                for cmd in [
                    "position fen ....../....../....../...... x 14 14 0-0 -",
                    "position fen ....../....../...... w 14 14 0-0 -",
                    "position fen wwwwww/....../....../...... w 14 14 0-0 -",
                ] {
                    self.expect_error(cmd, code)?;
                }
            }
            ErrorCode::IllegalMove => {
                let start = self.start();
                let first = start.legal_moves()[0];
                for cmd in [
                    format!("position startpos moves {first} {first}"),
                    "position startpos moves bar/7".to_string(),
                    "position startpos moves xyz".to_string(),
                    format!("position fen {} moves bar/1", self.p.white_won),
                ] {
                    self.expect_error(&cmd, code)?;
                }
                // `go searchmoves` with an illegal move: an error and no bestmove.
                self.expect_error("go depth 1 searchmoves bar/7", code)?;
            }
            ErrorCode::BadOption => {
                self.expect_error("setoption name NoSuchOption value 1", code)?;
                if let Some((name, OptionKind::Spin { .. })) = self
                    .options
                    .iter()
                    .find(|(_, k)| matches!(k, OptionKind::Spin { .. }))
                    .cloned()
                {
                    self.expect_error(&format!("setoption name {name} value lots"), code)?;
                    self.expect_error(&format!("setoption name {name}"), code)?;
                }
                if self.option_named("Ponder").is_some() {
                    self.expect_error("setoption name Ponder value perhaps", code)?;
                }
            }
            ErrorCode::Busy => {
                self.sync()?;
                self.send("go infinite")?;
                let commands = ["position startpos", "go depth 1", "uginewgame"];
                for cmd in commands {
                    self.send(cmd)?;
                    let deadline = self.deadline();
                    loop {
                        let said = self
                            .e()?
                            .next(deadline, &format!("error busy after {cmd}"))?;
                        match said.line {
                            Line::Info(info) => self.judge_info(&pos, &info, &said.text)?,
                            Line::Error {
                                code: ErrorCode::Busy,
                                ..
                            } => break,
                            _ => {
                                return Err(Fault::Unexpected {
                                    text: said.text,
                                    expected: format!("error busy ... after {cmd} during a search"),
                                })
                            }
                        }
                    }
                }
                self.send("stop")?;
                let now = Instant::now();
                self.bestmove(&pos, now, now + self.s.timeout, "bestmove after stop")?;
            }
        }
        // Everything refused left the position as it was.
        self.expect_fen(&pos, "the refused commands")?;
        self.sync()
    }

    fn no_stray_output(&mut self) -> Check {
        self.sync()?;
        let e = self.e()?;
        e.quiet(Duration::from_millis(300), "readyok, with nothing sent")?;
        self.sync()
    }

    fn quit(&mut self) -> Check {
        self.sync()?;
        self.send("quit")?;
        self.exits("quit")
    }

    fn end_of_input(&mut self) -> Check {
        self.sync()?;
        self.e()?.close_input();
        self.exits("the end of input")
    }

    /// After `quit` or the end of input: no more output, exit status 0.
    fn exits(&mut self, after: &str) -> Check {
        let deadline = self.deadline();
        let mut e = self.engine.take().expect("started by sync");
        let r = match e.next(deadline, "") {
            Ok(said) => Err(Fault::Unexpected {
                text: said.text,
                expected: format!("nothing after {after}"),
            }),
            Err(Fault::Closed(_)) => match e.wait_exit(self.s.timeout) {
                Some(status) if status.success() => Ok(()),
                Some(status) => Err(wrong(format!("exited with {status} after {after}"))),
                None => Err(wrong(format!("still running after {after}"))),
            },
            Err(f @ Fault::Timeout { .. }) => {
                Err(wrong(format!("did not exit after {after} ({f})")))
            }
            Err(f) => Err(f),
        };
        e.kill();
        r
    }
}

fn show(moves: &[Move]) -> String {
    let v: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!("\"{}\"", v.join(" "))
}
