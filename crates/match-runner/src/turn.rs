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

/// Asks `e` the `question` and waits for the reply (one engine
/// conversation, [`engine_client::conversation`], shared with the board's
/// server); a reply past the budget is a time forfeit (the question's grace
/// is not used: a clock has no grace), a stale or refused one a protocol
/// error.
pub fn ask(e: &mut Engine, question: &Question<'_>) -> Result<Answer, Refusal> {
    let question = Question {
        grace: Duration::ZERO,
        stop: None,
        ..question.clone()
    };
    let reply = match conversation::ask(e, &question, &mut |_| {}) {
        Ok(reply) => reply,
        Err(Unanswered::OutOfTime(_)) => return Err(out_of_time(e, &question)),
        Err(Unanswered::Failed(f)) => return Err(Refusal::Failed(f)),
        Err(other) => return Err(Refusal::Protocol(other.to_string())),
    };
    if reply.elapsed > question.budget {
        return Err(Refusal::TooSlow(format!(
            "took {} ms with {} ms allowed",
            reply.elapsed.as_millis(),
            question.budget.as_millis()
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
fn out_of_time(e: &mut Engine, question: &Question<'_>) -> Refusal {
    match e.sync(question.timeout) {
        Ok(()) => Refusal::TooSlow(format!(
            "gave no move within {} ms",
            question.budget.as_millis()
        )),
        Err(f) => Refusal::Failed(f),
    }
}
