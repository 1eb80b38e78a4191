//! An engine process whose every line is judged by a dialect's grammar
//! (UGI's [`crate::grammar`] by default, UBGI's [`crate::ubgi::lines`]): the
//! client side the compliance checkers and the strict-client tests share.
//! Every wait has a deadline, so a hung engine is a [`Fault`], never a hang.

use crate::grammar::{classify_raw, quote, Line};
use engine_client::{Engine, EngineFailure, Program, RawLine, RawWait};
use std::fmt;
use std::time::{Duration, Instant};

/// What went wrong with the engine, as a checker reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A line the grammar refuses, and the rule it breaks.
    BadLine { text: String, refusal: String },
    /// A well-formed line that is not what the moment calls for.
    Unexpected { text: String, expected: String },
    /// No line came in time: `ms` from sending the last command to the deadline.
    Timeout { waiting_for: String, ms: u128 },
    /// The engine's output closed (it exited or crashed).
    Closed(String),
    /// Something else, said in words (an illegal move, a wrong answer, ...).
    Wrong(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::BadLine { text, refusal } => write!(f, "bad line {}: {refusal}", quote(text)),
            Fault::Unexpected { text, expected } => {
                write!(f, "unexpected line {} ({expected})", quote(text))
            }
            Fault::Timeout { waiting_for, ms } => {
                write!(f, "no {waiting_for} within {ms} ms")
            }
            Fault::Closed(why) => write!(f, "the engine {why}"),
            Fault::Wrong(why) => f.write_str(why),
        }
    }
}

impl From<EngineFailure> for Fault {
    fn from(e: EngineFailure) -> Fault {
        Fault::Closed(e.to_string())
    }
}

/// A line the grammar accepted, with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said<L = Line> {
    pub text: String,
    pub line: L,
    /// When it was read.
    pub at: Instant,
}

/// A dialect's grammar: a line as the engine wrote it, typed or refused
/// with the rule it breaks.
pub type Classify<L> = fn(&RawLine) -> Result<L, String>;

fn classify_ugi(raw: &RawLine) -> Result<Line, String> {
    classify_raw(raw).map_err(|refusal| refusal.to_string())
}

/// An engine process read line by line through a grammar.
pub struct StrictEngine<L = Line> {
    engine: Engine,
    classify: Classify<L>,
    /// The last command sent, for messages, and when.
    last_sent: String,
    sent_at: Instant,
    /// Every line read, in order (for tests that look back).
    pub transcript: Vec<String>,
}

impl StrictEngine<Line> {
    /// Starts the program, its lines read by UGI's grammar (no handshake:
    /// every line is to be judged).
    pub fn spawn(program: &Program) -> Result<StrictEngine, EngineFailure> {
        StrictEngine::spawn_with(program, classify_ugi)
    }

    /// `isready`, then `readyok` must be the next line (no search runs, so
    /// nothing else may come first: a `bestmove` here is a stale second answer).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.sync_on(timeout, |line| *line == Line::ReadyOk)
    }
}

impl<L> StrictEngine<L> {
    /// Starts the program, its lines read by `classify`.
    pub fn spawn_with(program: &Program, classify: Classify<L>) -> Result<Self, EngineFailure> {
        Ok(StrictEngine {
            engine: Engine::spawn(program)?,
            classify,
            last_sent: String::new(),
            sent_at: Instant::now(),
            transcript: Vec::new(),
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.last_sent = line.to_string();
        self.sent_at = Instant::now();
        self.transcript.push(format!("> {line}"));
        self.engine
            .send(line)
            .map_err(|e| Fault::Closed(format!("closed its input ({e}) when sent {}", quote(line))))
    }

    /// The next line, judged; `waiting_for` names it for the timeout message.
    /// Past the deadline it is a timeout even if lines keep coming (an
    /// engine that floods `info` lines must not keep a wait alive).
    pub fn next(&mut self, deadline: Instant, waiting_for: &str) -> Result<Said<L>, Fault> {
        let start = Instant::now();
        let wait = if start >= deadline {
            RawWait::Timeout
        } else {
            self.engine.recv_raw(deadline)
        };
        match wait {
            RawWait::Line(raw) => {
                let at = Instant::now();
                self.transcript.push(format!("< {}", raw.text));
                match (self.classify)(&raw) {
                    Ok(line) => Ok(Said {
                        text: raw.text,
                        line,
                        at,
                    }),
                    Err(refusal) => Err(Fault::BadLine {
                        text: raw.text,
                        refusal,
                    }),
                }
            }
            RawWait::Timeout => Err(Fault::Timeout {
                waiting_for: waiting_for.to_string(),
                ms: (deadline
                    .saturating_duration_since(self.sent_at)
                    .as_secs_f64()
                    * 1000.0)
                    .round() as u128,
            }),
            RawWait::Closed => {
                let during = format!("\"{}\"", self.last_sent);
                Err(Fault::Closed(match self.engine.crash_report(&during) {
                    EngineFailure::Crashed(why) => why,
                    other => other.to_string(),
                }))
            }
        }
    }

    /// Nothing at all for `quiet`: any line is stray output.
    pub fn quiet(&mut self, quiet: Duration, after: &str) -> Result<(), Fault> {
        match self.next(Instant::now() + quiet, "") {
            Err(Fault::Timeout { .. }) => Ok(()),
            Err(f) => Err(f),
            Ok(said) => Err(Fault::Unexpected {
                text: said.text,
                expected: format!("nothing after {after}"),
            }),
        }
    }

    /// `isready`, then the next line must be `readyok` (`is_ready` tells it).
    pub fn sync_on(&mut self, timeout: Duration, is_ready: fn(&L) -> bool) -> Result<(), Fault> {
        self.send("isready")?;
        let said = self.next(Instant::now() + timeout, "readyok after isready")?;
        match is_ready(&said.line) {
            true => Ok(()),
            false => Err(Fault::Unexpected {
                text: said.text,
                expected: "readyok after isready, with no search running".into(),
            }),
        }
    }

    /// Closes the engine's input.
    pub fn close_input(&mut self) {
        self.engine.close_input();
    }

    /// Waits up to `grace` for the process to exit.
    pub fn wait_exit(&mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        self.engine.wait_exit(grace)
    }

    /// Ends the process.
    pub fn kill(self) {
        self.engine.kill();
    }
}
