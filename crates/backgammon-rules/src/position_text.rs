//! A position in any of its text forms: an XGID (`XGID=...`), GNU
//! Backgammon's `PositionID:MatchID`, or a bare Position ID (then money
//! play, Jacoby on, player 1 on roll).

use crate::board::Board;
use crate::matchid::{GnubgId, MatchState, Player};
use crate::xgid::Xgid;
use std::fmt;

/// Text that is a position in none of its forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionTextError {
    /// What is wrong, quoting the text: the message of the form the text
    /// was read as (XGID, GNU Backgammon ID or Position ID).
    pub reason: String,
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for PositionTextError {}

fn refused(reason: impl fmt::Display) -> PositionTextError {
    PositionTextError {
        reason: reason.to_string(),
    }
}

/// Reads a position in any of its text forms, with its match state.
pub fn parse_position(text: &str) -> Result<(Board, MatchState), PositionTextError> {
    let text = text.trim();
    if text.starts_with("XGID=") {
        let x: Xgid = text.parse().map_err(refused)?;
        return x.to_state().map_err(refused);
    }
    if text.contains(':') {
        let id: GnubgId = text.parse().map_err(refused)?;
        return Ok((id.board, id.state));
    }
    let board: Board = text.parse().map_err(refused)?;
    let mut state = MatchState::money(true);
    state.on_roll = Player::One;
    state.turn = Player::One;
    Ok((board, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_read_and_bad_text_is_quoted() {
        let (board, state) = parse_position("4HPwATDgc/ABMA").unwrap();
        assert_eq!((board, state.match_length), (Board::START, 0));
        assert_eq!(state.on_roll, Player::One);
        let (_, state) = parse_position("4HPwATDgc/ABMA:QYkqASAAIAAA").unwrap();
        assert_eq!(state.match_length, 9);
        let xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10";
        let (_, state) = parse_position(xgid).unwrap();
        assert!(state.dice.is_some());
        let e = parse_position("4HPwATDgc/ABM").unwrap_err();
        assert!(e.to_string().contains("\"4HPwATDgc/ABM\""), "{e}");
    }
}
