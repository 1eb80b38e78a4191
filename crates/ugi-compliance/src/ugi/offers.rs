//! What an engine offers beyond the UGI core, learned once at the start:
//! each extension is tried, followed by `isready`; an extension is offered
//! when its answer comes before `readyok`, and not when the engine passes
//! over it in silence (as UCI engines pass over what they do not know).
//! Ponder and MultiPV are offered when the engine declares those options.

use super::session::{Check, Session};
use crate::grammar::{Line, OptionKind};
use crate::strict::Fault;

/// The extensions an engine offers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// `uci` answered by `uciok`.
    pub uci: bool,
    /// `query fen` answered.
    pub fen: bool,
    /// `query legal <move>` answered.
    pub legal: bool,
    /// `query moves` answered.
    pub moves: bool,
    /// An unknown command answered by an `error` line.
    pub errors: bool,
    /// The check option `Ponder`.
    pub ponder: bool,
    /// The spin option `MultiPV`.
    pub multipv: bool,
}

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

/// Sends `command` and `isready`; whether the answer `probe` looks for came
/// before `readyok`.
fn answered(session: &mut Session, command: &str, probe: Probe) -> Result<bool, Fault> {
    session.send(command)?;
    session.send("isready")?;
    let mut seen = false;
    loop {
        let said = session.next_line(&format!("readyok after {command} and isready"))?;
        seen |= match (&said.line, probe) {
            (Line::ReadyOk, _) => return Ok(seen),
            (Line::UciOk, Probe::Uci) => true,
            (Line::Response(_), Probe::Fen | Probe::Legal | Probe::Moves) => true,
            (Line::Error { .. }, Probe::Errors) => true,
            _ => false,
        };
    }
}
