//! The core of a UCI-style engine daemon, whatever the game and dialect: a
//! long-running process that reads commands on one stream and answers on
//! another, one line each.
//!
//! Three kinds of thread: a reader that turns input bytes into lines
//! ([`transport`]), the session (the caller's thread) that runs commands one
//! at a time, and at most one background job (a search, a perft count) on a
//! thread of its own. The session never blocks on the job, so `isready`,
//! `stop` and queries are answered while it runs (a job that prepares what
//! later commands need, such as a hash table, instead holds them, `quit`
//! excepted, until it ends: see [`Job::holds`]); the job's final line
//! (`bestmove`) is written by the dialect once the job has handed its result
//! back, so a client that reads it may send its next command at once.
//!
//! A game's protocol dialect (UGI for Grasshopper, UBGI for backgammon)
//! implements [`Dialect`]: it parses lines into its commands, says how the
//! core should treat each ([`Kind`]), and runs them with a [`Context`] that
//! writes lines and starts jobs. The core refuses commands that need an
//! idle engine while a job runs, stops jobs, and ends the session on `quit`
//! or at the end of input. Nothing a client sends is fatal.

pub mod memory;
pub mod options;
pub mod transport;
pub mod words;

pub use options::{OptionError, OptionKind, OptionSpec, OptionTable, OptionValue, SetterError};
pub use transport::{read_lines, LineError, LineOut, Output, MAX_LINE};

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// How long the core waits for a stopped job to hand back its result.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// How long a count (perft, bench) may run on after the end of input before
/// it is stopped: long enough for `echo "perft 5" | engine` to print its
/// count, short enough that a forgotten deep count does not outlive its
/// client by more than this.
pub const END_OF_INPUT_GRACE: Duration = Duration::from_secs(2);

/// How the core treats a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// End the session: stop a stoppable job (its result is still
    /// written), abandon another, exit.
    Quit,
    /// Stop the running job and write its result before the next command.
    Stop,
    /// Runs at any time, also while a job runs (`isready`, queries).
    Anytime,
    /// Needs an idle engine: refused while a job runs. The name is the
    /// command's, for the refusal.
    NeedsIdle(&'static str),
}

/// An `error <code> <message>` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorLine {
    pub code: &'static str,
    pub message: String,
}

impl fmt::Display for ErrorLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {} {}", self.code, self.message)
    }
}

/// A game's protocol dialect on the daemon core.
pub trait Dialect: Send + 'static {
    /// One parsed command.
    type Command;
    /// What a job hands back when it ends.
    type Done: Send + 'static;

    /// Reads one line: `Ok(None)` for a line that is no command (blank).
    fn parse(&mut self, line: &str) -> Result<Option<Self::Command>, ErrorLine>;

    /// How the core treats `command`.
    fn kind(&self, command: &Self::Command) -> Kind;

    /// Runs a command (an [`Kind::Anytime`] one, or a [`Kind::NeedsIdle`]
    /// one while no job runs).
    fn execute(
        &mut self,
        command: Self::Command,
        ctx: &mut Context<'_, Self::Done>,
    ) -> io::Result<()>;

    /// A job has ended: write its last lines.
    fn finished(&mut self, done: Self::Done, ctx: &mut Context<'_, Self::Done>) -> io::Result<()>;

    /// The refusal of `command` while the job `job` runs.
    fn busy(&self, command: &'static str, job: &'static str) -> ErrorLine;

    /// The answer to a line that is not text or too long.
    fn unreadable(&self, error: &LineError) -> ErrorLine;
}

/// A background job: work on a thread of its own.
pub struct Job<D> {
    /// Its name, for refusals while it runs.
    pub name: &'static str,
    /// How to ask it to end early; `None` for a job that runs to its end.
    pub stop: Option<Box<dyn Fn() + Send>>,
    /// Stack size of its thread.
    pub stack: usize,
    /// The work; its value goes to [`Dialect::finished`].
    pub work: Box<dyn FnOnce() -> D + Send>,
    /// The session holds every later command but `quit` until the job has
    /// ended and then runs them in order: for work that what follows depends
    /// on (allocating a hash table, loading tables), so that `isready` is
    /// answered once it is done while `quit` still works at once.
    pub holds: bool,
    /// At the end of input, how long the job may run on before it is
    /// stopped (a job that cannot be stopped is always waited for).
    pub grace: Duration,
}

impl<D> Job<D> {
    /// A job named `name` doing `work` on a thread of `stack` bytes that
    /// cannot be stopped, holds nothing and is stopped at once at the end of
    /// input; set the other fields to change that.
    pub fn new(name: &'static str, stack: usize, work: Box<dyn FnOnce() -> D + Send>) -> Job<D> {
        Job {
            name,
            stop: None,
            stack,
            work,
            holds: false,
            grace: Duration::ZERO,
        }
    }
}

/// The job that runs.
struct Running {
    name: &'static str,
    stop: Option<Box<dyn Fn() + Send>>,
    holds: bool,
    grace: Duration,
}

/// What a command runs with: the output, the moment its line was read, and
/// the job slot.
pub struct Context<'a, D> {
    out: &'a Output,
    events: &'a Sender<Event<D>>,
    running: &'a mut Option<Running>,
    read_at: Instant,
}

impl<D: Send + 'static> Context<'_, D> {
    /// The output.
    pub fn out(&self) -> &Output {
        self.out
    }

    /// When the command's line was read (a search's time counts from then).
    pub fn read_at(&self) -> Instant {
        self.read_at
    }

    /// Writes an error line.
    pub fn error(&self, e: &ErrorLine) -> io::Result<()> {
        self.out.line(&e.to_string())
    }

    /// The name of the running job, if one runs.
    pub fn running(&self) -> Option<&'static str> {
        self.running.as_ref().map(|r| r.name)
    }

    /// Starts `job` on a thread of its own. Only one runs at a time: the
    /// core refuses [`Kind::NeedsIdle`] commands while it runs.
    pub fn spawn(&mut self, job: Job<D>) -> io::Result<()> {
        debug_assert!(self.running.is_none(), "one job at a time");
        let events = self.events.clone();
        let work = job.work;
        std::thread::Builder::new()
            .name(job.name.to_string())
            .stack_size(job.stack)
            .spawn(move || {
                let _ = events.send(Event::Done(work()));
            })?;
        *self.running = Some(Running {
            name: job.name,
            stop: job.stop,
            holds: job.holds,
            grace: job.grace,
        });
        Ok(())
    }
}

/// What the session waits for.
enum Event<D> {
    /// A line of input, or why it is unreadable, and when it was read.
    Line(Instant, Result<String, LineError>),
    /// The input has ended (or failed).
    Eof,
    /// The job finished.
    Done(D),
}

/// The session's state in the core: output, events, the running job.
struct Core<D> {
    out: Output,
    events: Sender<Event<D>>,
    inbox: Receiver<Event<D>>,
    /// Events put aside while waiting for a job to end.
    backlog: VecDeque<Event<D>>,
    /// Lines (and the end of input) held while a [`Job::holds`] job runs.
    held: Vec<Event<D>>,
    running: Option<Running>,
}

impl<D: Send + 'static> Core<D> {
    fn next(&mut self) -> Event<D> {
        // The core holds a sender itself, so the channel never closes while
        // it waits; a closed channel would still end the loop cleanly.
        self.backlog
            .pop_front()
            .unwrap_or_else(|| self.inbox.recv().unwrap_or(Event::Eof))
    }

    fn context(&mut self, read_at: Instant) -> Context<'_, D> {
        Context {
            out: &self.out,
            events: &self.events,
            running: &mut self.running,
            read_at,
        }
    }

    /// Waits for the job's result, keeping every other event for later;
    /// `None` if it does not come within `timeout`.
    fn wait_for_job(&mut self, timeout: Option<Duration>) -> Option<D> {
        if let Some(i) = self
            .backlog
            .iter()
            .position(|e| matches!(e, Event::Done(_)))
        {
            if let Some(Event::Done(d)) = self.backlog.remove(i) {
                return Some(d);
            }
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            let event = match deadline {
                Some(d) => self
                    .inbox
                    .recv_timeout(d.saturating_duration_since(Instant::now()))
                    .ok()?,
                None => self.inbox.recv().ok()?,
            };
            match event {
                Event::Done(d) => return Some(d),
                other => self.backlog.push_back(other),
            }
        }
    }

    /// Hands a finished job's result to the dialect; what it held is run
    /// next, in the order it came.
    fn finish<L: Dialect<Done = D>>(&mut self, dialect: &mut L, done: D) -> io::Result<()> {
        self.running = None;
        for e in self.held.drain(..).rev() {
            self.backlog.push_front(e);
        }
        dialect.finished(done, &mut self.context(Instant::now()))
    }

    /// True while a job runs that holds the commands after it.
    fn holding(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.holds)
    }

    /// `stop`: a stoppable job ends, and its result is written before the
    /// next command runs.
    fn stop<L: Dialect<Done = D>>(&mut self, dialect: &mut L) -> io::Result<()> {
        let Some(stop) = self.running.as_ref().and_then(|r| r.stop.as_ref()) else {
            return Ok(());
        };
        stop();
        // A job answers a stop at once; if it somehow does not, the session
        // carries on and the result comes when it comes.
        match self.wait_for_job(Some(STOP_GRACE)) {
            Some(done) => self.finish(dialect, done),
            None => {
                log::warn!("the job did not stop within {STOP_GRACE:?}");
                Ok(())
            }
        }
    }

    /// `quit` or the end of input. At the end of input a job that cannot
    /// be stopped is finished first, and a stoppable one may run on for its
    /// [`Job::grace`] (so `echo "perft 5" | engine` prints its count); then
    /// a stoppable job is stopped and its result written, and one that
    /// cannot be stopped is abandoned (on `quit`).
    fn shutdown<L: Dialect<Done = D>>(
        mut self,
        dialect: &mut L,
        end_of_input: bool,
    ) -> io::Result<()> {
        if end_of_input {
            // None: no job; Some(None): wait for its end; Some(Some(t)): for t.
            let wait = self
                .running
                .as_ref()
                .map(|r| r.stop.as_ref().map(|_| r.grace));
            if let Some(timeout) = wait.filter(|t| t != &Some(Duration::ZERO)) {
                if let Some(done) = self.wait_for_job(timeout) {
                    self.finish(dialect, done)?;
                }
            }
        }
        self.stop(dialect)
    }
}

/// Runs the daemon with `dialect`: reads commands from `input` until `quit`
/// or the end of input, writes replies to `output`. Returns `Ok` on `quit`
/// and at the end of input; an error only when `output` cannot be written.
pub fn run<L: Dialect>(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    mut dialect: L,
) -> io::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    std::thread::Builder::new()
        .name("reader".to_string())
        .spawn(move || {
            read_lines(input, |at, line| reader.send(Event::Line(at, line)).is_ok());
            let _ = reader.send(Event::Eof);
        })?;
    let mut core = Core {
        out: Output::new(output),
        events,
        inbox,
        backlog: VecDeque::new(),
        held: Vec::new(),
        running: None,
    };
    loop {
        match core.next() {
            Event::Line(read_at, Ok(text)) => {
                log::debug!("<< {text}");
                let command = match dialect.parse(&text) {
                    Ok(Some(c)) if core.holding() && dialect.kind(&c) != Kind::Quit => {
                        core.held.push(Event::Line(read_at, Ok(text)));
                        continue;
                    }
                    Ok(Some(c)) => c,
                    Ok(None) => continue,
                    Err(_) if core.holding() => {
                        core.held.push(Event::Line(read_at, Ok(text)));
                        continue;
                    }
                    Err(e) => {
                        core.out.line(&e.to_string())?;
                        continue;
                    }
                };
                match (dialect.kind(&command), core.running.as_ref()) {
                    (Kind::Quit, _) => return core.shutdown(&mut dialect, false),
                    (Kind::Stop, _) => core.stop(&mut dialect)?,
                    (Kind::NeedsIdle(name), Some(job)) => {
                        let refusal = dialect.busy(name, job.name);
                        core.out.line(&refusal.to_string())?;
                    }
                    _ => dialect.execute(command, &mut core.context(read_at))?,
                }
            }
            e @ (Event::Line(_, Err(_)) | Event::Eof) if core.holding() => core.held.push(e),
            Event::Line(_, Err(e)) => core.out.line(&dialect.unreadable(&e).to_string())?,
            Event::Eof => return core.shutdown(&mut dialect, true),
            Event::Done(done) => core.finish(&mut dialect, done)?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A dialect of four words: `prepare` holds later commands for a
    /// moment, `hang` holds them for ever, `isready` and `quit`.
    struct Fake;

    impl Dialect for Fake {
        type Command = String;
        type Done = &'static str;

        fn parse(&mut self, line: &str) -> Result<Option<String>, ErrorLine> {
            Ok(Some(line.to_string()))
        }

        fn kind(&self, command: &String) -> Kind {
            match command.as_str() {
                "quit" => Kind::Quit,
                "isready" => Kind::Anytime,
                _ => Kind::NeedsIdle("prepare"),
            }
        }

        fn execute(
            &mut self,
            command: String,
            ctx: &mut Context<'_, &'static str>,
        ) -> io::Result<()> {
            let work: Box<dyn FnOnce() -> &'static str + Send> = match command.as_str() {
                "isready" => return ctx.out().line("readyok"),
                "prepare" => Box::new(|| {
                    std::thread::sleep(Duration::from_millis(200));
                    "prepared"
                }),
                _ => Box::new(|| {
                    let (_keep, wait) = mpsc::channel::<()>();
                    let _ = wait.recv();
                    "never"
                }),
            };
            ctx.spawn(Job {
                holds: true,
                ..Job::new("prepare", 1 << 20, work)
            })
        }

        fn finished(
            &mut self,
            done: &'static str,
            ctx: &mut Context<'_, &'static str>,
        ) -> io::Result<()> {
            ctx.out().line(done)
        }

        fn busy(&self, command: &'static str, job: &'static str) -> ErrorLine {
            ErrorLine {
                code: "busy",
                message: format!("{command} while {job}"),
            }
        }

        fn unreadable(&self, error: &LineError) -> ErrorLine {
            ErrorLine {
                code: "syntax",
                message: error.to_string(),
            }
        }
    }

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &'static str) -> String {
        let out = Shared::default();
        run(input.as_bytes(), out.clone(), Fake).unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_holding_job_holds_isready_and_the_next_commands_until_it_ends() {
        // Neither refused as busy nor answered before the job is done.
        assert_eq!(
            session("prepare\nisready\nprepare\nisready\n"),
            "prepared\nreadyok\nprepared\nreadyok\n"
        );
    }

    #[test]
    fn quit_is_read_while_a_holding_job_runs() {
        assert_eq!(session("hang\nisready\nquit\n"), "");
    }
}
