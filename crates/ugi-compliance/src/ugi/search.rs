//! Searches as the checks drive them: `go`, the `info` lines judged as they
//! come (every pv a legal line, multipv within MultiPV), exactly one
//! `bestmove` refereed by the rules and in time, then `readyok` alone.

use super::session::{wrong, Check, Session};
use crate::grammar::{quote, Info, Line};
use crate::strict::Fault;
use grasshopper_rules::{Move, Position};
use std::time::{Duration, Instant};

/// How long a search that must not end by itself (`go infinite`, `go
/// ponder`) is watched before `stop` or `ponderhit`.
pub const WATCH: Duration = Duration::from_millis(120);
/// The `movetime` of the checks.
pub const MOVETIME_MS: u64 = 100;

/// What a search gave: its info lines and its bestmove.
pub struct Searched {
    pub infos: Vec<Info>,
    pub best: Option<Move>,
    /// From sending `go` (or `ponderhit`) to reading `bestmove`.
    pub elapsed: Duration,
}

impl Session<'_> {
    // ----- searches -----

    /// Checks an info line against the position and the settings: every pv
    /// is a legal line from it, multipv within MultiPV.
    pub fn judge_info(&self, pos: &Position, info: &Info, text: &str) -> Check {
        if let Some(k) = info.multipv {
            if k > self.multipv {
                return Err(wrong(format!(
                    "{}: multipv {k} with MultiPV {}",
                    quote(text),
                    self.multipv
                )));
            }
        }
        let mut at = *pos;
        for (i, &m) in info.pv.iter().enumerate() {
            at = at.play(m).map_err(|e| {
                wrong(format!(
                    "{}: pv move {} ({m}) is illegal in {at}: {e}",
                    quote(text),
                    i + 1
                ))
            })?;
        }
        Ok(())
    }

    /// Reads info lines until `bestmove` (by `deadline`), judging each.
    pub fn bestmove(
        &mut self,
        pos: &Position,
        from: Instant,
        deadline: Instant,
        what: &str,
    ) -> Result<Searched, Fault> {
        let mut infos = Vec::new();
        loop {
            let said = self.engine()?.next(deadline, what)?;
            match said.line {
                Line::Info(info) => {
                    self.judge_info(pos, &info, &said.text)?;
                    infos.push(info);
                }
                Line::BestMove { mv, ponder } => {
                    self.judge_bestmove(pos, mv, ponder, &said.text)?;
                    return Ok(Searched {
                        infos,
                        best: mv,
                        elapsed: said.at.saturating_duration_since(from),
                    });
                }
                _ => {
                    return Err(Fault::Unexpected {
                        text: said.text,
                        expected: "info lines, then bestmove".into(),
                    })
                }
            }
        }
    }

    /// A bestmove refereed by the rules: legal, `(none)` exactly when the
    /// game is over, a ponder move only with Ponder true and legal after it.
    pub fn judge_bestmove(
        &self,
        pos: &Position,
        mv: Option<Move>,
        ponder: Option<Move>,
        text: &str,
    ) -> Check {
        let Some(mv) = mv else {
            if pos.is_game_over() {
                return Ok(());
            }
            return Err(wrong(format!(
                "\"bestmove (none)\" in {pos}, where the game goes on"
            )));
        };
        let after = pos
            .play(mv)
            .map_err(|e| wrong(format!("{}: illegal in {pos}: {e}", quote(text))))?;
        if let Some(p) = ponder {
            if !self.ponder {
                return Err(wrong(format!(
                    "{}: a ponder move while the Ponder option is false \
                     (bestmove is two words then)",
                    quote(text)
                )));
            }
            after.check(p).map_err(|e| {
                wrong(format!(
                    "{}: the ponder move is illegal after {mv}: {e}",
                    quote(text)
                ))
            })?;
        }
        Ok(())
    }

    /// `go`, then `bestmove` within `limit` + margin (or the timeout), then
    /// nothing but `readyok` to `isready` (one bestmove per go).
    pub fn search(
        &mut self,
        pos: &Position,
        go: &str,
        limit: Option<Duration>,
    ) -> Result<Searched, Fault> {
        self.set(pos)?;
        self.sync()?;
        self.send(go)?;
        let sent = Instant::now();
        let allowed = match limit {
            Some(l) => l + self.settings.margin,
            None => self.settings.timeout,
        };
        // Past a time limit, read on a while to tell "late" from "never".
        let deadline = match limit {
            Some(_) => sent + allowed + self.settings.timeout,
            None => sent + allowed,
        };
        let found = self.bestmove(pos, sent, deadline, &format!("bestmove after {go}"))?;
        if found.elapsed > allowed {
            return Err(wrong(format!(
                "bestmove after {} ms, {} allowed for \"{go}\"",
                found.elapsed.as_millis(),
                allowed.as_millis()
            )));
        }
        self.sync()?;
        Ok(found)
    }

    /// Info lines only (no bestmove) for `WATCH`.
    pub fn watch(&mut self, pos: &Position, go: &str) -> Check {
        let until = Instant::now() + WATCH;
        loop {
            match self.engine()?.next(until, "") {
                Err(Fault::Timeout { .. }) => return Ok(()),
                Err(f) => return Err(f),
                Ok(said) => match said.line {
                    Line::Info(info) => self.judge_info(pos, &info, &said.text)?,
                    Line::BestMove { .. } => {
                        return Err(Fault::Unexpected {
                            text: said.text,
                            expected: format!(
                                "no bestmove before stop: \"{go}\" searches until stop"
                            ),
                        })
                    }
                    _ => {
                        return Err(Fault::Unexpected {
                            text: said.text,
                            expected: "info lines while searching".into(),
                        })
                    }
                },
            }
        }
    }

    /// `go ...` that must run until `stop`; then exactly one bestmove.
    pub fn until_stop(&mut self, go: &str) -> Check {
        let pos = self.positions.white;
        self.set(&pos)?;
        self.sync()?;
        self.send(go)?;
        self.watch(&pos, go)?;
        self.send("stop")?;
        let sent = Instant::now();
        let deadline = sent + self.settings.timeout;
        let found = self.bestmove(&pos, sent, deadline, "bestmove after stop")?;
        if found.best.is_none() {
            return Err(wrong("bestmove (none) after stop, in a game that goes on"));
        }
        self.sync()
    }
}
