//! Asking an engine for its move, whatever the game, and what a late, stale
//! or refused reply costs: the exchange itself (position, `isready`, `go`,
//! the reply within the mover's budget, the last `info` score and depth for
//! the record) is `engine_client::conversation`'s.

use crate::outcome::{Played, Side, Termination};
use engine_client::conversation::{self, Question, Unanswered};
use engine_client::{Engine, EngineFailure};
use std::fmt::Display;
use std::time::Duration;

/// An engine's reply to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The reply line, e.g. `bestmove 3/9`.
    pub line: String,
    /// Time from sending `go` to reading the reply.
    pub elapsed: Duration,
    /// Score and depth of the last `info` line, e.g. `cp 12 depth 5`.
    pub info: String,
}

impl Answer {
    /// The record's note for this move: the info summary and the time.
    pub fn note(&self) -> String {
        let ms = self.elapsed.as_millis();
        match self.info.is_empty() {
            true => format!("{ms}ms"),
            false => format!("{} {ms}ms", self.info),
        }
    }
}

/// Why no usable reply came.
#[derive(Debug)]
pub enum Refusal {
    /// The process crashed or stalled.
    Failed(EngineFailure),
    /// The reply came too late, or never while the engine still answers.
    TooSlow(String),
    /// The engine broke the protocol (the text says how).
    Protocol(String),
}

impl Refusal {
    /// The game `side` loses for this refusal, after `moves`; `tc` names
    /// the time control a late reply broke.
    pub fn forfeit<M>(self, side: Side, tc: impl Display, moves: Vec<M>) -> Played<M> {
        match self {
            Refusal::Failed(f) => Played::failure(side, &f, moves),
            Refusal::TooSlow(why) => {
                let why = format!("{why} ({tc})");
                Played::forfeit(side, Termination::TimeForfeit, why, moves)
            }
            Refusal::Protocol(why) => Played::forfeit(side, Termination::Protocol, why, moves),
        }
    }
}

/// What to send and what to wait for.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Lines that set the position up (e.g. `position ...`, `dice 3 1`).
    pub setup: &'a [String],
    /// The command that starts the search, e.g. `go movetime 100`.
    pub go: &'a str,
    /// The first word of the reply, e.g. `bestmove`.
    pub reply: &'a str,
    /// How long the reply may take from `go`.
    pub budget: Duration,
    /// Patience for `readyok`.
    pub timeout: Duration,
    /// An `error` line after `go` refuses the request (UBGI engines send no
    /// answer after one); otherwise it is logged and the wait goes on.
    pub errors_end: bool,
}

/// Sends `request` to `e` and waits for the reply (one engine conversation,
/// [`engine_client::conversation`], shared with the board's server); a reply
/// past the budget is a time forfeit, a stale or refused one a protocol error.
pub fn ask(e: &mut Engine, request: &Request<'_>) -> Result<Answer, Refusal> {
    let question = Question {
        setup: request.setup,
        go: request.go,
        reply: request.reply,
        budget: request.budget,
        timeout: request.timeout,
        grace: Duration::ZERO,
        errors_end: request.errors_end,
        stop: None,
    };
    let reply = match conversation::ask(e, &question, &mut |_| {}) {
        Ok(reply) => reply,
        Err(Unanswered::OutOfTime(_)) => return Err(out_of_time(e, request)),
        Err(Unanswered::Failed(f)) => return Err(Refusal::Failed(f)),
        Err(other) => return Err(Refusal::Protocol(other.to_string())),
    };
    if reply.elapsed > request.budget {
        return Err(Refusal::TooSlow(format!(
            "took {} ms with {} ms allowed",
            reply.elapsed.as_millis(),
            request.budget.as_millis()
        )));
    }
    Ok(Answer {
        line: reply.line,
        elapsed: reply.elapsed,
        info: reply.info,
    })
}

/// No reply by the deadline (`stop` was sent). Still alive? Then it is a
/// time forfeit; if it does not answer `isready` either, it has stalled.
fn out_of_time(e: &mut Engine, request: &Request<'_>) -> Refusal {
    match e.sync(request.timeout) {
        Ok(()) => Refusal::TooSlow(format!(
            "gave no move within {} ms",
            request.budget.as_millis()
        )),
        Err(f) => Refusal::Failed(f),
    }
}
