//! How a position is told to a UBGI engine: our engine (and GNU
//! Backgammon's adapter) read `position gnubgid <PositionID>:<MatchID>`,
//! the match context with the board (protocol.md's extension); an engine
//! that speaks only the UBGI draft reads `position gnubgid <PositionID>`
//! and `dice <d1> <d2>`, nothing about the cube or the score. Which one an
//! engine is, is found by asking once ([`PositionForm::probe`]); the lines
//! for a decision are built here for the match runner and the board alike.

use backgammon_rules::{Board, Dice, GnubgId, MatchState};
use engine_client::{Engine, EngineFailure, Wait};
use std::fmt;
use std::time::{Duration, Instant};

/// The form of `position` an engine reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PositionForm {
    /// `position gnubgid <PositionID>:<MatchID>` (our extension).
    WithMatchId,
    /// `position gnubgid <PositionID>` only (the UBGI draft): a money
    /// position with the cube centred, as far as the engine knows.
    PositionIdOnly,
}

impl fmt::Display for PositionForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionForm::WithMatchId => "PositionID:MatchID",
            PositionForm::PositionIdOnly => "PositionID only",
        })
    }
}

/// The probe: the opening position of a money game with the cube centred,
/// and its Match ID.
fn probe_line() -> String {
    let id = GnubgId {
        board: Board::START,
        state: MatchState::money(true),
    };
    format!("position gnubgid {id}")
}

impl PositionForm {
    /// Asks the engine (between decisions): `position gnubgid
    /// <PositionID>:<MatchID>` and `isready`; an `error` line before
    /// `readyok` says it reads the Position ID only. The position it is
    /// left with is set again before any decision.
    pub fn probe(engine: &mut Engine, timeout: Duration) -> Result<PositionForm, EngineFailure> {
        engine.send(&probe_line())?;
        engine.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut form = PositionForm::WithMatchId;
        loop {
            match engine.recv(deadline) {
                Wait::Line(line) => match line.split_whitespace().next() {
                    Some("readyok") => return Ok(form),
                    Some("error") => form = PositionForm::PositionIdOnly,
                    _ => {}
                },
                Wait::Timeout => return Err(EngineFailure::Silent("isready".into())),
                Wait::Closed => return Err(engine.crash_report("isready")),
            }
        }
    }

    /// The lines that set up the decision due in `id`: the position in
    /// this form, then `dice <d1> <d2>` when the dice are rolled.
    pub fn lines(self, id: &GnubgId) -> Vec<String> {
        match self {
            PositionForm::WithMatchId => with_dice(format!("position gnubgid {id}"), id.state.dice),
            PositionForm::PositionIdOnly => board_lines(&id.board, id.state.dice),
        }
    }
}

/// `position gnubgid <PositionID>` (the draft's form, which every UBGI
/// engine reads), then the dice if given.
pub fn board_lines(board: &Board, dice: Option<Dice>) -> Vec<String> {
    with_dice(format!("position gnubgid {board}"), dice)
}

fn with_dice(position: String, dice: Option<Dice>) -> Vec<String> {
    let mut lines = vec![position];
    if let Some(d) = dice {
        let (a, b) = d.values();
        lines.push(format!("dice {a} {b}"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_forms_differ_only_in_the_match_id() {
        let id: GnubgId = "4HPwATDgc/ABMA:cIkqAAAAAAAA".parse().unwrap();
        let full = PositionForm::WithMatchId.lines(&id);
        let bare = PositionForm::PositionIdOnly.lines(&id);
        assert_eq!(full[0], "position gnubgid 4HPwATDgc/ABMA:cIkqAAAAAAAA");
        assert_eq!(bare[0], "position gnubgid 4HPwATDgc/ABMA");
        assert_eq!(full.len(), bare.len());
        if let Some(d) = id.state.dice {
            let (a, b) = d.values();
            assert_eq!(full[1], format!("dice {a} {b}"));
            assert_eq!(bare[1], full[1]);
        }
        // As protocol.md quotes it.
        assert_eq!(probe_line(), "position gnubgid 4HPwATDgc/ABMA:MAEAAAAAAAAA");
    }
}
