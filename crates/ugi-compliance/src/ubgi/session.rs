//! The session with the UBGI engine under check: a process started on
//! demand with `ubgi`, the keys and options it declared, and the ways of
//! talking to it that every check shares.

use super::lines::{classify_raw, ErrorCode, KeyLine, UbgiLine};
use crate::report::Settings;
use crate::strict::{Fault, Said, StrictEngine};
use engine_client::EngineFailure;
use std::time::{Duration, Instant};

/// Why a check stopped: a fault, or the engine says it does not offer
/// what the check needs (the check is skipped).
#[derive(Debug)]
pub enum Stop {
    Fault(Fault),
    NotOffered(String),
}

impl From<Fault> for Stop {
    fn from(fault: Fault) -> Stop {
        Stop::Fault(fault)
    }
}

/// A check's outcome: `Ok` passes.
pub type Check = Result<(), Stop>;

pub type Engine = StrictEngine<UbgiLine>;

pub fn wrong(why: impl Into<String>) -> Stop {
    Stop::Fault(Fault::Wrong(why.into()))
}

pub fn unexpected(text: String, expected: impl Into<String>) -> Stop {
    Stop::Fault(Fault::Unexpected {
        text,
        expected: expected.into(),
    })
}

/// The UBGI engine under check and what the checker knows of it.
pub struct Session<'a> {
    pub settings: &'a Settings,
    engine: Option<Engine>,
    /// Why no session can be started (the handshake failed on a fresh process).
    pub dead: Option<String>,
    /// The v0.2 keys of the first handshake.
    pub keys: Vec<KeyLine>,
    /// The v0.1 options of the first handshake.
    pub options: Vec<KeyLine>,
}

impl<'a> Session<'a> {
    pub fn new(settings: &'a Settings) -> Session<'a> {
        Session {
            settings,
            engine: None,
            dead: None,
            keys: Vec::new(),
            options: Vec::new(),
        }
    }

    pub fn end(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.kill();
        }
    }

    pub fn deadline(&self) -> Instant {
        Instant::now() + self.settings.timeout
    }

    pub fn spawn(&self) -> Result<Engine, Fault> {
        StrictEngine::spawn_with(&self.settings.program, classify_raw).map_err(|err| {
            Fault::Closed(match err {
                EngineFailure::Spawn(io) => format!("cannot be started: {io}"),
                other => other.to_string(),
            })
        })
    }

    /// The running process, started with `ubgi` if there is none (bad lines
    /// skipped: the handshake check reports them).
    pub fn engine(&mut self) -> Result<&mut Engine, Fault> {
        if self.engine.is_none() {
            let started = self.start();
            let engine = started.map_err(|f| {
                let why = format!("a fresh process did not complete the handshake: {f}");
                self.dead = Some(why.clone());
                Fault::Wrong(why)
            })?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    fn start(&mut self) -> Result<Engine, Fault> {
        let mut engine = self.spawn()?;
        engine.send("ubgi")?;
        let deadline = self.deadline();
        loop {
            match engine.next(deadline, "ubgiok after ubgi") {
                Ok(Said {
                    line: UbgiLine::UbgiOk,
                    ..
                }) => return Ok(engine),
                Ok(_) | Err(Fault::BadLine { .. }) => {}
                Err(f) => {
                    engine.kill();
                    return Err(f);
                }
            }
        }
    }

    pub fn adopt(&mut self, engine: Engine) {
        self.engine = Some(engine);
    }

    pub fn take_engine(&mut self) -> Result<Engine, Fault> {
        self.engine()?;
        Ok(self.engine.take().expect("started"))
    }

    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.engine()?.send(line)
    }

    /// Sends each line; none may be answered.
    pub fn send_quietly(&mut self, lines: &[&str]) -> Check {
        for line in lines {
            self.send(line)?;
        }
        self.quiet(&lines.join(", "))
    }

    pub fn next_line(&mut self, what: &str) -> Result<Said<UbgiLine>, Fault> {
        let deadline = self.deadline();
        self.engine()?.next(deadline, what)
    }

    /// Nothing may come for a short while.
    pub fn quiet(&mut self, after: &str) -> Check {
        Ok(self.engine()?.quiet(Duration::from_millis(50), after)?)
    }

    /// `isready` and nothing but `readyok`.
    pub fn sync(&mut self) -> Check {
        let timeout = self.settings.timeout;
        let engine = self.engine()?;
        Ok(engine.sync_on(timeout, |line| *line == UbgiLine::ReadyOk)?)
    }

    /// The answer to `command`, past any `info` lines. An `error
    /// unsupported` (or `bad_command`) line stops the check as not offered
    /// where `optional`, and is a fault where not.
    pub fn answer(&mut self, command: &str, optional: bool) -> Result<Said<UbgiLine>, Stop> {
        self.send(command)?;
        loop {
            let said = self.next_line(&format!("answer to {command}"))?;
            match &said.line {
                UbgiLine::Info => {}
                UbgiLine::Error {
                    code: ErrorCode::Unsupported | ErrorCode::BadCommand,
                    ..
                } if optional => {
                    return Err(Stop::NotOffered(format!("not offered ({})", said.text)))
                }
                _ => return Ok(said),
            }
        }
    }
}
