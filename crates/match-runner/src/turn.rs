//! Asking an engine for its move, whatever the game: send the position,
//! synchronise with `isready` (a `bestmove` arriving then is a stale answer
//! to an earlier search, caught and named), send `go`, and wait for the
//! reply within the mover's budget, keeping the last `info` line's score and
//! depth for the record.

use crate::outcome::{Played, Side, Termination};
use engine_client::{Engine, EngineFailure, Wait};
use std::fmt::Display;
use std::time::{Duration, Instant};

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

/// Sends `request` to `e` and waits for the reply.
pub fn ask(e: &mut Engine, request: &Request<'_>) -> Result<Answer, Refusal> {
    for line in request.setup {
        e.send(line).map_err(Refusal::Failed)?;
    }
    sync_before_go(e, request)?;
    e.send(request.go).map_err(Refusal::Failed)?;
    let started = Instant::now();
    let deadline = started + request.budget;
    let mut info = String::new();
    let line = loop {
        match e.recv(deadline) {
            Wait::Line(line) => match first_word(&line) {
                w if w == request.reply => break line,
                "info" => {
                    let summary = info_summary(&line);
                    if !summary.is_empty() {
                        info = summary;
                    }
                }
                "error" if request.errors_end => {
                    return Err(Refusal::Protocol(format!(
                        "answered \"{}\" with \"{line}\"",
                        request.go
                    )))
                }
                "error" => log::warn!("{}: {line}", e.name()),
                _ => log::debug!("{} said something unexpected: {line}", e.name()),
            },
            Wait::Timeout => return Err(out_of_time(e, request)),
            Wait::Closed => return Err(Refusal::Failed(e.crash_report(request.go))),
        }
    };
    let elapsed = started.elapsed();
    if elapsed > request.budget {
        return Err(Refusal::TooSlow(format!(
            "took {} ms with {} ms allowed",
            elapsed.as_millis(),
            request.budget.as_millis()
        )));
    }
    Ok(Answer {
        line,
        elapsed,
        info,
    })
}

/// `isready` before `go`: every earlier answer must have come by `readyok`,
/// so a reply word seen now answers no search of this turn.
fn sync_before_go(e: &mut Engine, request: &Request<'_>) -> Result<(), Refusal> {
    e.send("isready").map_err(Refusal::Failed)?;
    let deadline = Instant::now() + request.timeout;
    loop {
        match e.recv(deadline) {
            Wait::Line(line) => match first_word(&line) {
                "readyok" => return Ok(()),
                w if w == request.reply => {
                    return Err(Refusal::Protocol(format!(
                        "sent \"{line}\" when no search was running (a second answer to \
                         an earlier go?)"
                    )))
                }
                "error" => log::warn!("{}: {line}", e.name()),
                _ => {}
            },
            Wait::Timeout => return Err(Refusal::Failed(EngineFailure::Silent("isready".into()))),
            Wait::Closed => return Err(Refusal::Failed(e.crash_report("isready"))),
        }
    }
}

/// No reply by the deadline. Still alive? Then it is a time forfeit; if it
/// does not answer `isready` either, it has stalled.
fn out_of_time(e: &mut Engine, request: &Request<'_>) -> Refusal {
    let _ = e.send("stop");
    match e.sync(request.timeout) {
        Ok(()) => Refusal::TooSlow(format!(
            "gave no move within {} ms",
            request.budget.as_millis()
        )),
        Err(f) => Refusal::Failed(f),
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
