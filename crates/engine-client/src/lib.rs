//! One engine process seen from the client's side (a match runner, a GUI
//! server, a compliance checker): spawning it, the handshake, and reading its
//! answers with deadlines. A reader thread turns the engine's stdout into
//! lines on a channel, so waiting for an answer never blocks past a deadline
//! and a dead engine shows up as a closed channel. Nothing here knows a game.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line read from an engine (bytes, without its line break);
/// longer ones arrive in pieces.
pub const MAX_LINE: usize = 64 * 1024;

/// Why an engine could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    /// The program could not be started at all (a setup error, not a game event).
    #[error("cannot start: {0}")]
    Spawn(std::io::Error),
    /// The process exited or closed its pipes.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No answer within the time allowed (the text says to which command).
    #[error("gave no answer to {0}")]
    Silent(String),
}

/// How to start an engine program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program to run.
    pub cmd: String,
    /// Its arguments, in order.
    pub args: Vec<String>,
    /// The name used in logs and reports.
    pub name: String,
}

/// The opening exchange of a protocol: the word that starts it, the word
/// that ends the engine's answer (`ugi`/`ugiok`, `uci`/`uciok`,
/// `ubgi`/`ubgiok`), and how options are set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    pub hello: &'static str,
    pub ok: &'static str,
    /// `setoption name {name} value {value}` (UCI style) or `set {name} {value}`.
    pub set_option: OptionStyle,
}

/// How a protocol sets an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionStyle {
    /// `setoption name <name> value <value>`.
    SetOption,
    /// `set <name> <value>`.
    Set,
}

/// What waiting for a line gave.
pub enum Wait {
    Line(String),
    Timeout,
    Closed,
}

/// One line as the engine wrote it, for checkers that judge the bytes
/// themselves rather than the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    /// The text without its LF; a CR before the LF is kept. Bytes that are
    /// not UTF-8 are replaced by U+FFFD.
    pub text: String,
    /// Whether the bytes were UTF-8.
    pub utf8: bool,
    /// Whether the line ended with LF. It did not when it was cut at
    /// [`MAX_LINE`] bytes (the rest comes as the next piece) or when the
    /// output ended in the middle of it.
    pub ended: bool,
}

impl RawLine {
    /// The text as [`Engine::recv`] gives it: without trailing CRs.
    pub fn trimmed(&self) -> &str {
        self.text.trim_end_matches('\r')
    }
}

/// What waiting for a raw line gave.
pub enum RawWait {
    Line(RawLine),
    Timeout,
    Closed,
}

/// A running engine.
pub struct Engine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<RawLine>,
}

impl Engine {
    /// Starts the engine and performs the handshake: `hello` until `ok`
    /// (the lines in between are returned), the options, then `isready`
    /// until `readyok`, each within `timeout`.
    pub fn start(
        program: &Program,
        handshake: Handshake,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(Engine, Vec<String>), EngineFailure> {
        let mut engine = Engine::spawn(program)?;
        engine.send(handshake.hello)?;
        let deadline = Instant::now() + timeout;
        let mut said = Vec::new();
        loop {
            match engine.recv(deadline) {
                Wait::Line(line) if line.split_whitespace().next() == Some(handshake.ok) => break,
                Wait::Line(line) => said.push(line),
                Wait::Timeout => return Err(EngineFailure::Silent(handshake.hello.to_string())),
                Wait::Closed => return Err(engine.crash_report(handshake.hello)),
            }
        }
        for (k, v) in options {
            engine.send(&match handshake.set_option {
                OptionStyle::SetOption => format!("setoption name {k} value {v}"),
                OptionStyle::Set => format!("set {k} {v}"),
            })?;
        }
        engine.sync(timeout)?;
        Ok((engine, said))
    }

    /// Starts the program without a handshake (for checkers that want to
    /// see every line the engine writes).
    pub fn spawn(program: &Program) -> Result<Engine, EngineFailure> {
        let mut child = Command::new(&program.cmd)
            .args(&program.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(EngineFailure::Spawn)?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        let name = program.name.clone();
        thread::spawn(move || {
            // Bytes, not str: an engine printing invalid UTF-8 is garbage to
            // report, not a reason to stop reading.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // At most MAX_LINE bytes a line (and its LF): an engine
                // printing without end must not take the runner's memory with it.
                match (&mut reader)
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let ended = buf.last() == Some(&b'\n');
                        if ended {
                            buf.pop();
                        }
                        let line = RawLine {
                            text: String::from_utf8_lossy(&buf).into_owned(),
                            utf8: std::str::from_utf8(&buf).is_ok(),
                            ended,
                        };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let err_name = name.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while matches!((&mut reader).take(MAX_LINE as u64).read_until(b'\n', &mut buf), Ok(n) if n > 0)
            {
                log::debug!(
                    "{err_name} stderr: {}",
                    String::from_utf8_lossy(&buf).trim_end()
                );
                buf.clear();
            }
        });
        Ok(Engine {
            name,
            stdin: child.stdin.take(),
            child,
            lines: rx,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        log::trace!("{} <- {line}", self.name);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineFailure::Crashed("input closed".into()))?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|e| EngineFailure::Crashed(format!("cannot write \"{line}\": {e}")))
    }

    /// The next line (without its line break, CR or LF), or why there is
    /// none before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Wait {
        match self.recv_raw(deadline) {
            RawWait::Line(line) => Wait::Line(line.trimmed().to_string()),
            RawWait::Timeout => Wait::Timeout,
            RawWait::Closed => Wait::Closed,
        }
    }

    /// The next line as the engine wrote it, or why there is none before
    /// `deadline`.
    pub fn recv_raw(&mut self, deadline: Instant) -> RawWait {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                log::trace!("{} -> {}", self.name, line.text);
                RawWait::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => RawWait::Timeout,
            Err(RecvTimeoutError::Disconnected) => RawWait::Closed,
        }
    }

    /// Reads lines until one whose first word is `word`, which it returns.
    /// Lines starting with `error` are logged as warnings; others are skipped.
    pub fn expect(
        &mut self,
        word: &str,
        after: &str,
        deadline: Instant,
    ) -> Result<String, EngineFailure> {
        loop {
            match self.recv(deadline) {
                Wait::Line(line) => {
                    let first = line.split_whitespace().next();
                    if first == Some(word) {
                        return Ok(line);
                    }
                    if first == Some("error") {
                        log::warn!("{}: {line}", self.name);
                    }
                }
                Wait::Timeout => return Err(EngineFailure::Silent(after.to_string())),
                Wait::Closed => return Err(self.crash_report(after)),
            }
        }
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.send("isready")?;
        self.expect("readyok", "isready", Instant::now() + timeout)
            .map(|_| ())
    }

    /// Describes how the engine ended, after its output closed.
    pub fn crash_report(&mut self, during: &str) -> EngineFailure {
        // Give the process a moment to be reaped so its exit status is known.
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return EngineFailure::Crashed(format!("exited ({status}) during {during}"))
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return EngineFailure::Crashed(format!("closed its output during {during}")),
            }
        }
    }

    /// Closes the engine's input (the end of input, as a client that goes away).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `grace` for the process to exit; its status, if it did.
    pub fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Ends the process at once.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the process to quit, and kills it if it has not within `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a process behind, however the match ends.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
