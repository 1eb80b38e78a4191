//! One search asked of an engine, the exchange every client of a UCI-style
//! engine repeats (the match runner's referees, the board's server): send the
//! position, synchronise with `isready` (a reply word arriving then answers
//! an earlier search: a stale answer, named), send `go`, and wait for the
//! reply within a budget while `info` lines come, stopping the search when
//! the caller asks or the budget runs out. What a late or missing reply
//! costs (a forfeit, a move played anyway) is the caller's policy; this
//! module only says what happened.

use crate::{Engine, EngineFailure, Wait};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a wait looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(40);

/// One search to ask for.
#[derive(Clone, Debug)]
pub struct Question<'a> {
    /// Lines that set the position up (e.g. `position ...`, `dice 3 1`).
    pub setup: &'a [String],
    /// The command that starts the search, e.g. `go movetime 100`.
    pub go: &'a str,
    /// The first word of the reply, e.g. `bestmove`.
    pub reply: &'a str,
    /// How long the reply may take from `go`.
    pub budget: Duration,
    /// Patience for `readyok`, and for the reply after the caller's stop.
    pub timeout: Duration,
    /// How long a reply may still come after the budget ran out and `stop`
    /// was sent; zero gives up at once (the caller then decides, e.g. by
    /// checking that the engine still answers `isready`).
    pub grace: Duration,
    /// An `error` line after `go` refuses the question (UBGI engines send no
    /// answer after one); otherwise it is logged and the wait goes on.
    pub errors_end: bool,
    /// Set by the caller to end the search early; the reply is then discarded.
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Question<'a> {
    /// A question with no grace after the budget, `error` lines logged and
    /// no stop from outside; set the other fields with struct update syntax.
    pub fn new(
        setup: &'a [String],
        go: &'a str,
        reply: &'a str,
        budget: Duration,
        timeout: Duration,
    ) -> Question<'a> {
        Question {
            setup,
            go,
            reply,
            budget,
            timeout,
            grace: Duration::ZERO,
            errors_end: false,
            stop: None,
        }
    }
}

/// The engine's reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The reply line, e.g. `bestmove 3/9`.
    pub line: String,
    /// Time from sending `go` to reading the reply.
    pub elapsed: Duration,
    /// Score and depth of the last `info` line that had them ([`info_summary`]).
    pub info: String,
    /// The reply came after the budget ran out (within the grace).
    pub late: bool,
}

/// Why no reply to keep came.
#[derive(Debug, thiserror::Error)]
pub enum Unanswered {
    /// The process crashed, or did not answer `isready`.
    #[error("{0}")]
    Failed(EngineFailure),
    /// The reply word came before `readyok`: the answer to an earlier search.
    #[error("sent \"{0}\" when no search was running (a second answer to an earlier go?)")]
    Stale(String),
    /// An `error` line answered `go` (with [`Question::errors_end`]).
    #[error("answered \"{go}\" with \"{line}\"")]
    Refused { go: String, line: String },
    /// The budget ran out and no reply came within the grace (`stop` sent).
    #[error("gave no reply within {} ms", .0.as_millis())]
    OutOfTime(Duration),
    /// The caller stopped the search; its reply, if any came, was discarded.
    #[error("stopped")]
    Stopped,
    /// The caller stopped the search and no reply came within the timeout.
    #[error("gave no reply after stop")]
    SilentAfterStop,
}

/// Where a wait stands.
enum Phase {
    /// Searching, within the budget.
    Thinking,
    /// `stop` sent because the budget ran out.
    Late,
    /// `stop` sent because the caller asked.
    Stopped,
}

/// Asks `e` the `question`; `on_info` sees every `info` line as it comes.
pub fn ask(
    e: &mut Engine,
    question: &Question<'_>,
    on_info: &mut dyn FnMut(&str),
) -> Result<Reply, Unanswered> {
    for line in question.setup {
        e.send(line).map_err(Unanswered::Failed)?;
    }
    sync_before_go(e, question)?;
    e.send(question.go).map_err(Unanswered::Failed)?;
    let started = Instant::now();
    let mut deadline = started + question.budget;
    let mut phase = Phase::Thinking;
    let mut info = String::new();
    loop {
        // Checked before every wait, not only when one times out: an engine
        // writing `info` without pause must not keep a stop or the budget
        // from being seen.
        phase = next_phase(e, question, phase, &mut deadline)?;
        let step = match question.stop {
            Some(_) => (Instant::now() + STOP_POLL).min(deadline),
            None => deadline,
        };
        let line = match e.recv(step) {
            Wait::Line(line) => line,
            Wait::Timeout => continue,
            Wait::Closed => return Err(Unanswered::Failed(e.crash_report(question.go))),
        };
        let first = first_word(&line);
        if first == question.reply {
            return match phase {
                Phase::Stopped => Err(Unanswered::Stopped),
                _ => Ok(Reply {
                    line,
                    elapsed: started.elapsed(),
                    info,
                    late: matches!(phase, Phase::Late),
                }),
            };
        }
        match first {
            "info" => {
                let summary = info_summary(&line);
                if !summary.is_empty() {
                    info = summary;
                }
                on_info(&line);
            }
            "error" if question.errors_end => {
                return Err(Unanswered::Refused {
                    go: question.go.to_string(),
                    line,
                })
            }
            "error" => log::warn!("{}: {line}", e.name()),
            _ => log::debug!("{} said something unexpected: {line}", e.name()),
        }
    }
}

/// The phase after a look at the clock and the caller's stop flag: `stop`
/// is sent when the caller asks or the budget runs out, and a wait after
/// `stop` that outlives its deadline ends the question.
fn next_phase(
    e: &mut Engine,
    question: &Question<'_>,
    phase: Phase,
    deadline: &mut Instant,
) -> Result<Phase, Unanswered> {
    let now = Instant::now();
    let asked_to_stop = question.stop.is_some_and(|s| s.load(Ordering::SeqCst));
    match phase {
        Phase::Thinking if asked_to_stop => {
            let _ = e.send("stop");
            *deadline = now + question.timeout;
            Ok(Phase::Stopped)
        }
        Phase::Thinking if now >= *deadline => {
            let _ = e.send("stop");
            if question.grace.is_zero() {
                return Err(Unanswered::OutOfTime(question.budget));
            }
            *deadline = now + question.grace;
            Ok(Phase::Late)
        }
        Phase::Late if now >= *deadline => Err(Unanswered::OutOfTime(question.budget)),
        Phase::Stopped if now >= *deadline => Err(Unanswered::SilentAfterStop),
        phase => Ok(phase),
    }
}

/// `isready` before `go`: every earlier answer must have come by `readyok`,
/// so a reply word seen now answers no search of this turn.
fn sync_before_go(e: &mut Engine, question: &Question<'_>) -> Result<(), Unanswered> {
    e.send("isready").map_err(Unanswered::Failed)?;
    let deadline = Instant::now() + question.timeout;
    loop {
        match e.recv(deadline) {
            Wait::Line(line) => match first_word(&line) {
                "readyok" => return Ok(()),
                w if w == question.reply => return Err(Unanswered::Stale(line)),
                "error" => log::warn!("{}: {line}", e.name()),
                _ => {}
            },
            Wait::Timeout => {
                return Err(Unanswered::Failed(EngineFailure::Silent("isready".into())))
            }
            Wait::Closed => return Err(Unanswered::Failed(e.crash_report("isready"))),
        }
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// The score and depth of an `info` line, as `cp 12 depth 5` (either may be missing).
pub fn info_summary(line: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_summed_up_by_score_and_depth() {
        assert_eq!(
            info_summary("info depth 5 seldepth 7 score cp -12 nodes 100 pv bar/1"),
            "cp -12 depth 5"
        );
        assert_eq!(info_summary("info score mate 3"), "mate 3");
        assert_eq!(info_summary("info string hello depth x"), "");
    }
}
