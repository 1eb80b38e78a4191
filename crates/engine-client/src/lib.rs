//! One engine process seen from the client's side (a match runner, a GUI
//! server, a compliance checker): spawning it, the handshake, and reading its
//! answers with deadlines. A reader thread turns the engine's stdout into
//! lines in a bounded queue, so waiting for an answer never blocks past a
//! deadline, a dead engine shows up as the end of the queue, and an engine
//! writing without pause costs a bounded amount of memory. The engine runs
//! in a process group of its own, ended whole. Nothing here knows a game.
//!
//! ```
//! use engine_client::conversation::{self, Question};
//! use engine_client::{Engine, Handshake, OptionStyle, Program};
//! use std::time::Duration;
//!
//! // An engine in four lines of shell: enough of UGI for one search.
//! let script = "while read l; do case $l in \
//!     ugi) echo id name sh; echo ugiok;; isready) echo readyok;; \
//!     go*) echo 'info depth 1 score cp 7'; echo 'bestmove bar/1';; quit) exit;; esac; done";
//! let program = Program {
//!     cmd: "sh".into(),
//!     args: vec!["-c".into(), script.into()],
//!     name: "sh".into(),
//! };
//! let ugi = Handshake { hello: "ugi", ok: "ugiok", set_option: OptionStyle::SetOption };
//! let (mut engine, said) = Engine::start(&program, ugi, &[], Duration::from_secs(10))?;
//! assert!(said.iter().any(|l| l == "id name sh"));
//!
//! let setup = vec!["position startpos".to_string()];
//! let question = Question {
//!     setup: &setup,
//!     go: "go depth 1",
//!     reply: "bestmove",
//!     budget: Duration::from_secs(10),
//!     timeout: Duration::from_secs(10),
//!     grace: Duration::ZERO,
//!     errors_end: false,
//!     stop: None,
//! };
//! let reply = conversation::ask(&mut engine, &question, &mut |_info| {})?;
//! assert_eq!(reply.line, "bestmove bar/1");
//! assert_eq!(reply.info, "cp 7 depth 1");
//! engine.quit(Duration::from_secs(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod conversation;
mod group;
pub use group::kill_all as kill_all_engines;
mod queue;

use queue::Queue;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The longest line read from an engine (bytes, without its line break):
/// the protocol's own limit. Longer ones arrive in pieces, which is how a
/// checker reading through this client sees a line that breaks the limit.
pub const MAX_LINE: usize = protocol_vocab::MAX_LINE;

/// The most lines of an engine's output waiting to be read. When they are
/// this many, the oldest `info` line waiting is dropped to make room (and
/// counted, see [`Engine::dropped`]); other lines wait for room, and so does
/// the engine (its stdout pipe fills).
pub const QUEUE_LINES: usize = 1024;

/// The most bytes of text waiting to be read, held as [`QUEUE_LINES`] is.
pub const QUEUE_BYTES: usize = 1024 * 1024;

/// The most lines [`Engine::start`] keeps of what the engine says before
/// its handshake ends (`info` lines are not kept).
pub const HANDSHAKE_LINES: usize = 1024;

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
    lines: Arc<Queue>,
    /// The process group has been killed and the engine reaped.
    ended: bool,
}

impl Engine {
    /// Starts the engine and performs the handshake: `hello` until `ok`
    /// (the lines in between are returned), the options, then `isready`
    /// until `readyok`, each within `timeout`. Of the lines in between, the
    /// first [`HANDSHAKE_LINES`] that are not `info` are kept.
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
                Wait::Line(line) if said.len() >= HANDSHAKE_LINES || is_info(&line) => {}
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
        let mut cmd = Command::new(&program.cmd);
        cmd.args(&program.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        group::own_group(&mut cmd);
        let mut child = cmd.spawn().map_err(EngineFailure::Spawn)?;
        group::register(&child);
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let lines = Arc::new(Queue::new(QUEUE_LINES, QUEUE_BYTES));
        let queue = Arc::clone(&lines);
        thread::spawn(move || read_lines(stdout, &queue));
        let err_name = program.name.clone();
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
            name: program.name.clone(),
            stdin: child.stdin.take(),
            child,
            lines,
            ended: false,
        })
    }

    /// Lines the engine has written that wait to be read (at most
    /// [`QUEUE_LINES`]).
    pub fn queued(&self) -> usize {
        self.lines.len()
    }

    /// Bytes of text waiting to be read (at most [`QUEUE_BYTES`], or one
    /// line of at most [`MAX_LINE`]).
    pub fn queued_bytes(&self) -> usize {
        self.lines.bytes()
    }

    /// `info` lines dropped unread because the engine wrote faster than
    /// they were read (see [`QUEUE_LINES`]).
    pub fn dropped(&self) -> u64 {
        self.lines.dropped()
    }

    /// The engine's process id (also its process group's id on Unix).
    pub fn id(&self) -> u32 {
        self.child.id()
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
    /// `deadline`. Once the deadline has passed it is [`RawWait::Timeout`]
    /// even if lines wait: an engine writing without pause cannot keep a
    /// wait going past its deadline.
    pub fn recv_raw(&mut self, deadline: Instant) -> RawWait {
        let wait = self.lines.pop(deadline);
        if let RawWait::Line(line) = &wait {
            log::trace!("{} -> {}", self.name, line.text);
        }
        wait
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

    /// Ends the process, and every process of its group, at once.
    pub fn kill(mut self) {
        self.end();
    }

    /// Asks the process to quit, and kills its group when it has quit or
    /// `grace` has passed (what it started is ended either way).
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        self.wait_exit(grace);
        self.end();
    }

    /// SIGKILL to the engine's process group, then reaps the engine; the
    /// reader thread stops.
    fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        self.stdin = None;
        self.lines.abandon();
        group::kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a process behind, however the match ends: the
        // engine's children included, even if the engine itself has exited.
        self.end();
    }
}

/// Whether the next byte is LF, which is then consumed.
fn next_is_lf(reader: &mut impl BufRead) -> bool {
    let lf = matches!(reader.fill_buf(), Ok(bytes) if bytes.first() == Some(&b'\n'));
    if lf {
        reader.consume(1);
    }
    lf
}

/// Whether `line`'s first word is `info`.
fn is_info(line: &str) -> bool {
    line.split_whitespace().next() == Some("info")
}

/// The reader thread: the engine's stdout as lines of at most [`MAX_LINE`]
/// bytes, into `queue` until the output ends or the client goes.
fn read_lines(stdout: ChildStdout, queue: &Queue) {
    // Bytes, not str: an engine printing invalid UTF-8 is garbage to
    // report, not a reason to stop reading.
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    // Whether the next piece starts a line (the last one ended with LF).
    let mut at_start = true;
    loop {
        buf.clear();
        // At most MAX_LINE bytes a line: an engine printing without end
        // must not take the client's memory with it.
        match (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let mut ended = buf.last() == Some(&b'\n');
                if ended {
                    buf.pop();
                } else if buf.len() == MAX_LINE && next_is_lf(&mut reader) {
                    // Exactly MAX_LINE bytes, then its LF: a whole line.
                    ended = true;
                }
                let line = RawLine {
                    text: String::from_utf8_lossy(&buf).into_owned(),
                    utf8: std::str::from_utf8(&buf).is_ok(),
                    ended,
                };
                // Only a whole `info` line may be dropped: never a piece
                // of a longer line, whose rest would then read as a line.
                let droppable = at_start && ended && is_info(&line.text);
                at_start = ended;
                if !queue.push(line, droppable) {
                    break;
                }
            }
        }
    }
    queue.close();
}
