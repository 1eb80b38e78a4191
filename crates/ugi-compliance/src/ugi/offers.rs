//! What an engine offers beyond the UGI core, learned once at the start:
//! each extension is tried, followed by `isready`; an extension is offered
//! when its answer comes before `readyok`, and not when the engine passes
//! over it in silence (as UCI engines pass over what they do not know).
//! `perft`, which runs beside the session, is offered when its first line
//! comes within [`PERFT_PATIENCE`]. Ponder and MultiPV are offered when the
//! engine declares those options. (`d` draws for a person, not for a
//! parser: it has no check.)

use super::session::{Check, Offers, Session};
use crate::grammar::{Line, OptionKind};
use crate::strict::Fault;
use std::time::{Duration, Instant};

/// How long the probe waits for `perft 1`'s first line.
pub const PERFT_PATIENCE: Duration = Duration::from_millis(300);

/// The probes: the command, and the first word of an answer that offers it.
const PROBES: [(&str, Probe); 5] = [
    ("uci", Probe::Uci),
    ("query fen", Probe::Fen),
    ("query legal pass", Probe::Legal),
    ("query moves", Probe::Moves),
    ("flibbertigibbet", Probe::Errors),
];

#[derive(Copy, Clone)]
enum Probe {
    Uci,
    Fen,
    Legal,
    Moves,
    Errors,
}

impl Offers {
    /// Probes the running session (in the start position). A fault leaves
    /// the rest unoffered.
    pub fn probe(session: &mut Session) -> Offers {
        let mut offers = Offers {
            ponder: matches!(
                session.option_named("Ponder"),
                Some(OptionKind::Check { .. })
            ),
            multipv: matches!(
                session.option_named("MultiPV"),
                Some(OptionKind::Spin { .. })
            ),
            ..Offers::default()
        };
        let _ = offers.try_each(session);
        offers
    }

    fn try_each(&mut self, session: &mut Session) -> Check {
        session.send("position startpos")?;
        for (command, probe) in PROBES {
            if answered(session, command, probe)? {
                self.set(probe);
            }
        }
        self.perft = perft_answered(session)?;
        Ok(())
    }

    fn set(&mut self, probe: Probe) {
        match probe {
            Probe::Uci => self.uci = true,
            Probe::Fen => self.fen = true,
            Probe::Legal => self.legal = true,
            Probe::Moves => self.moves = true,
            Probe::Errors => self.errors = true,
        }
    }
}

/// Sends `command`; whether the answer `probe` looks for came before the
/// `readyok` of the `isready` after it.
fn answered(session: &mut Session, command: &str, probe: Probe) -> Result<bool, Fault> {
    session.send(command)?;
    let lines = until_ready(session, command)?;
    Ok(lines.iter().any(|line| {
        matches!(
            (line, probe),
            (Line::UciOk, Probe::Uci)
                | (Line::Response(_), Probe::Fen | Probe::Legal | Probe::Moves)
                | (Line::Error { .. }, Probe::Errors)
        )
    }))
}

/// Sends `isready`; the lines before its `readyok`.
fn until_ready(session: &mut Session, after: &str) -> Result<Vec<Line>, Fault> {
    session.send("isready")?;
    let mut lines = Vec::new();
    loop {
        let said = session.next_line(&format!("readyok after {after} and isready"))?;
        match said.line {
            Line::ReadyOk => return Ok(lines),
            line => lines.push(line),
        }
    }
}

/// `perft 1` in the start position: its lines (read to the `nodes` total)
/// if the first comes in time; then `isready`, past any `error` or `info`.
fn perft_answered(session: &mut Session) -> Result<bool, Fault> {
    session.send("perft 1")?;
    let mut offered = false;
    while let Some(said) = session.line_by(Instant::now() + PERFT_PATIENCE)? {
        match said.line {
            Line::PerftMove { .. } => offered = true,
            Line::Nodes(_) => return session.sync().map(|()| true),
            _ => break,
        }
    }
    until_ready(session, "perft 1").map(|_| offered)
}
