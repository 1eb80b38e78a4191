//! The engine side: one child process per game, started on the game's first
//! engine move and driven over the protocol exactly as a GUI does
//! (handshake, options, `uginewgame`, `position`, `isready`, `go`, `info`
//! lines, `bestmove`, `stop`). A global count of live processes bounds them.
//! A search runs on its own thread through `engine_client::conversation`
//! (the match runner's exchange too), which looks at the stop flag every
//! 40 ms so the search can be stopped (undo, new game, a reaped game); it fails cleanly
//! when the engine crashes (its output closes) or hangs (no `bestmove` by
//! the deadline, nor after `stop`): the process is killed and a fresh one
//! started, and the page is told.

use engine_client::conversation::{self, Question, Unanswered};
use engine_client::{Engine, EngineFailure};
use match_backgammon::PositionForm;
use match_runner::{EngineSpec, Proto, Side};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How many engine processes may run at once, and how many do.
#[derive(Debug)]
pub struct Permits {
    max: usize,
    live: AtomicUsize,
}

impl Permits {
    pub fn new(max: usize) -> Arc<Permits> {
        Arc::new(Permits {
            max,
            live: AtomicUsize::new(0),
        })
    }

    /// Engine processes running now.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// The most that may run.
    pub fn max(&self) -> usize {
        self.max
    }

    fn take(self: &Arc<Permits>) -> Option<Permit> {
        let mut now = self.live.load(Ordering::SeqCst);
        loop {
            if now >= self.max {
                return None;
            }
            match self
                .live
                .compare_exchange(now, now + 1, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return Some(Permit(Arc::clone(self))),
                Err(seen) => now = seen,
            }
        }
    }
}

/// One running process's share of [`Permits`]; given back when dropped.
#[derive(Debug)]
struct Permit(Arc<Permits>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A running engine process of one game.
pub struct Process {
    engine: Engine,
    /// `uginewgame` has been sent for this game.
    new_game_sent: bool,
    /// How a UBGI engine reads a position (asked once it has started).
    position_form: Option<PositionForm>,
    // Dropped after `engine` (fields drop in order): the count goes down only
    // once the process has been killed.
    _permit: Permit,
}

/// Why an engine process did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Every permit is taken.
    #[error("too many engine processes ({running} running): close a game and try again")]
    TooMany { running: usize },
    /// The program did not start or failed its handshake.
    #[error("engine {name} {failure}")]
    Engine {
        name: String,
        failure: EngineFailure,
    },
}

impl Process {
    /// Starts the engine of `spec` with the handshake and its options.
    pub fn start(
        spec: &EngineSpec,
        permits: &Arc<Permits>,
        timeout: Duration,
    ) -> Result<Process, StartError> {
        let permit = permits.take().ok_or(StartError::TooMany {
            running: permits.max(),
        })?;
        let failed = |failure| StartError::Engine {
            name: spec.name.clone(),
            failure,
        };
        let (mut engine, _) = Engine::start(
            &spec.program(),
            spec.proto.handshake(),
            &spec.options,
            timeout,
        )
        .map_err(failed)?;
        let position_form = match spec.proto {
            Proto::Ubgi => Some(PositionForm::probe(&mut engine, timeout).map_err(failed)?),
            _ => None,
        };
        Ok(Process {
            engine,
            new_game_sent: false,
            position_form,
            _permit: permit,
        })
    }

    /// How the (UBGI) engine reads a position.
    pub fn position_form(&self) -> PositionForm {
        self.position_form.unwrap_or(PositionForm::WithMatchId)
    }

    /// Asks the process to quit, on a thread of its own (it is killed after a short grace).
    pub fn retire(self) {
        std::thread::spawn(move || {
            let Process {
                engine, _permit, ..
            } = self;
            engine.quit(Duration::from_millis(300));
            drop(_permit);
        });
    }
}

/// What the engine reported in its latest `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    pub depth: Option<u32>,
    /// `cp` or `mate`.
    pub score_kind: Option<String>,
    /// From White's point of view (the protocol's is the mover's).
    pub score_white: Option<i64>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

impl Info {
    /// Reads an `info` line; `None` when it has neither depth, score nor line.
    pub fn parse(line: &str, mover: Side) -> Option<Info> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut info = Info::default();
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                "depth" => info.depth = words.get(i + 1).and_then(|w| w.parse().ok()),
                "nodes" => info.nodes = words.get(i + 1).and_then(|w| w.parse().ok()),
                "score" => {
                    if let (Some(&kind), Some(v)) = (
                        words.get(i + 1),
                        words.get(i + 2).and_then(|w| w.parse::<i64>().ok()),
                    ) {
                        if kind == "cp" || kind == "mate" {
                            info.score_kind = Some(kind.to_string());
                            info.score_white = Some(if mover == Side::White { v } else { -v });
                        }
                    }
                    i += 2;
                }
                "pv" => {
                    info.pv = words[i + 1..]
                        .iter()
                        .take(32)
                        .map(|w| w.to_string())
                        .collect();
                    break;
                }
                "string" => return None,
                _ => {}
            }
            i += 1;
        }
        (info.depth.is_some() || info.score_kind.is_some() || !info.pv.is_empty()).then_some(info)
    }
}

/// One search to run.
pub struct Job {
    /// The lines that set the position up (`position ...`).
    pub setup: Vec<String>,
    /// The `go` line.
    pub go: String,
    /// The first word of the answer (`bestmove`; UBGI's cube decisions
    /// answer `bestcube` and `besttake`).
    pub reply: &'static str,
    /// An `error` line ends the decision unanswered (UBGI engines send no
    /// answer after one).
    pub errors_end: bool,
    /// The protocol's new-game word.
    pub new_game: &'static str,
    /// Who is to move (for the score's point of view).
    pub mover: Side,
    /// When to give up waiting for `bestmove` (then `stop`, then kill).
    pub budget: Duration,
    /// Patience for the handshake and `readyok`.
    pub timeout: Duration,
    /// Set to end the search early.
    pub stop: Arc<AtomicBool>,
}

/// How a search ended.
pub enum Ended {
    /// The engine's `bestmove` word (`(none)` included), its last info, and
    /// the note for the record (score, depth, time).
    Move {
        word: String,
        /// Every word after the reply's first (a backgammon move has several).
        text: String,
        info: Option<Info>,
        note: String,
        /// Why the move came late (the search was cut at its budget).
        late: Option<String>,
        /// The UBGI extension's `info rank ...` and `info cube ...` lines
        /// (`go ... candidates K`), in order.
        ranked: Vec<String>,
    },
    /// Stopped from outside before the engine answered (answer discarded).
    Stopped,
    /// An `error` line answered the `go` (with [`Job::errors_end`]): the
    /// engine does not offer what was asked; the process is kept.
    Refused(String),
    /// The engine crashed or hung (the text says how); the process is gone.
    Failed(String),
}

/// Runs `job` on `process`, reporting each `info` to `on_info`. The process
/// comes back unless the engine failed.
pub fn search(
    mut process: Process,
    job: &Job,
    on_info: &mut dyn FnMut(&Info),
) -> (Ended, Option<Process>) {
    let e = &mut process.engine;
    let name = e.name().to_string();
    let failed = |what: EngineFailure| Ended::Failed(format!("engine {name} {what}"));
    if !process.new_game_sent {
        if let Err(f) = e.send(job.new_game) {
            return (failed(f), None);
        }
        process.new_game_sent = true;
    }
    let question = Question {
        setup: &job.setup,
        go: &job.go,
        reply: job.reply,
        budget: job.budget,
        timeout: job.timeout,
        // Past its budget the engine is told to stop and its move is still
        // played (a person is waiting, not a clock).
        grace: job.timeout.min(Duration::from_secs(2)),
        errors_end: job.errors_end,
        stop: Some(&job.stop),
    };
    let mut last: Option<Info> = None;
    let mut ranked = Vec::new();
    let mut on_info = |line: &str| {
        if (line.starts_with("info rank ") || line.starts_with("info cube ")) && ranked.len() < 64 {
            ranked.push(line.to_string());
        }
        if let Some(info) = Info::parse(line, job.mover) {
            on_info(&info);
            last = Some(info);
        }
    };
    match conversation::ask(e, &question, &mut on_info) {
        Ok(reply) => {
            let word = reply.line.split_whitespace().nth(1).unwrap_or("");
            let text = reply
                .line
                .split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" ");
            let ms = reply.elapsed.as_millis();
            let note = match reply.info.is_empty() {
                true => format!("{ms}ms"),
                false => format!("{} {ms}ms", reply.info),
            };
            let late = reply.late.then(|| {
                format!(
                    "the engine was stopped after {} s (\"{}\" took longer) and played its best move so far",
                    job.budget.as_secs_f64(),
                    job.go
                )
            });
            let ended = Ended::Move {
                word: word.to_string(),
                text,
                info: last,
                note,
                late,
                ranked,
            };
            (ended, Some(process))
        }
        Err(Unanswered::Stopped) => (Ended::Stopped, Some(process)),
        Err(Unanswered::OutOfTime(_)) => {
            let what = format!(
                "gave no move to \"{}\" within {} ms, nor after stop",
                job.go,
                job.budget.as_millis()
            );
            (Ended::Failed(format!("engine {name} {what}")), None)
        }
        Err(Unanswered::SilentAfterStop) => (
            Ended::Failed(format!("engine {name} gave no bestmove after stop")),
            None,
        ),
        Err(refused @ Unanswered::Refused { .. }) => (
            Ended::Refused(format!("engine {name} {refused}")),
            Some(process),
        ),
        Err(other) => (Ended::Failed(format!("engine {name} {other}")), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_depth_score_from_whites_side_and_line() {
        let line = "info depth 5 seldepth 7 multipv 1 score cp 35 nodes 1200 nps 9 hashfull 0 time 3 pv 3/9 bar/2";
        let white = Info::parse(line, Side::White).unwrap();
        assert_eq!(white.depth, Some(5));
        assert_eq!(white.score_kind.as_deref(), Some("cp"));
        assert_eq!(white.score_white, Some(35));
        assert_eq!(white.nodes, Some(1200));
        assert_eq!(white.pv, ["3/9", "bar/2"]);
        let black = Info::parse("info depth 2 score mate 3 pv 19/off", Side::Black).unwrap();
        assert_eq!(black.score_kind.as_deref(), Some("mate"));
        assert_eq!(black.score_white, Some(-3));
        assert_eq!(
            Info::parse("info string score cp 0 is a proved draw", Side::White),
            None
        );
        assert_eq!(Info::parse("info", Side::White), None);
    }

    #[test]
    fn permits_cap_the_processes() {
        let p = Permits::new(2);
        let a = p.take().unwrap();
        let b = p.take().unwrap();
        assert!(p.take().is_none());
        assert_eq!(p.live(), 2);
        drop(a);
        assert_eq!(p.live(), 1);
        let _c = p.take().unwrap();
        drop(b);
        assert_eq!(p.live(), 1);
    }
}
