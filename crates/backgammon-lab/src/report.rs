//! What `grasshopper backgammon moves` and `grasshopper backgammon show`
//! print, as functions returning lines: the binary prints them, and maps a
//! [`ReportError`] (which names the offending option) to exit code 2.

use backgammon_rules::{
    draw_board, parse_position, CubeOwner, Decision, Dice, Game, Move, ParseDiceError,
    PositionTextError, Rules, Side, Xgid,
};

/// Bad input to a report, named by its option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// `--position` is no position (see [`parse_position`]).
    #[error("--position: {0}")]
    Position(PositionTextError),
    /// `--dice` are no dice.
    #[error("--dice: {0}")]
    Dice(ParseDiceError),
    /// No `--dice`, and the position has none rolled.
    #[error("--dice: no dice given and none rolled in the position")]
    NoDice,
}

/// The order moves are listed in: the highest steps first, as a player
/// reads them.
fn listing_key(m: &Move) -> Vec<(u8, u8)> {
    let mut k: Vec<(u8, u8)> = m
        .steps()
        .iter()
        .map(|s| (s.from().index(), s.to().index()))
        .collect();
    k.sort_by(|a, b| b.cmp(a));
    k
}

/// The output of `backgammon moves --position P --dice D`: every legal move
/// in GNU Backgammon's notation, one a line, then `moves <count>`; `pass`
/// when nothing can be played. An empty `dice` takes the dice rolled in the
/// position's match state.
pub fn moves_report(position: &str, dice: &str) -> Result<Vec<String>, ReportError> {
    let (board, state) = parse_position(position).map_err(ReportError::Position)?;
    let dice = if dice.trim().is_empty() {
        state.dice.ok_or(ReportError::NoDice)?
    } else {
        dice.trim().parse::<Dice>().map_err(ReportError::Dice)?
    };
    let list = board.legal_moves(dice);
    let mut moves: Vec<Move> = list.moves().to_vec();
    moves.sort_by_key(|m| std::cmp::Reverse(listing_key(m)));
    let mut out: Vec<String> = moves.iter().map(|m| board.move_text(m)).collect();
    out.push(format!("moves {}", out.len()));
    Ok(out)
}

/// The output of `backgammon show --position P`: the board as GNU
/// Backgammon draws it, then the IDs and what they say.
pub fn show_report(position: &str) -> Result<Vec<String>, ReportError> {
    let (board, state) = parse_position(position).map_err(ReportError::Position)?;
    let mut out = draw_board(&board, &state, ["player 0", "player 1"]);
    out.push(String::new());
    out.push(format!("Position ID: {}", board.position_id()));
    out.push(format!("Match ID: {}", state.match_id()));
    out.push(format!("GNU Backgammon ID: {board}:{state}"));
    match Xgid::from_state(&board, &state) {
        Ok(x) => out.push(format!("XGID: {x}")),
        Err(_) => out.push("XGID: none (the game is not in play)".to_string()),
    }
    let on_roll = state.on_roll.index();
    let pips = [Side::Opponent, Side::OnRoll].map(|s| board.pips(s));
    let (p0, p1) = if on_roll == 1 {
        (pips[0], pips[1])
    } else {
        (pips[1], pips[0])
    };
    out.push(format!("Pips: player 0 {p0}, player 1 {p1}"));
    out.push(match state.match_length {
        0 => format!(
            "Play: money, Jacoby rule {}",
            if state.jacoby { "on" } else { "off" }
        ),
        n => format!(
            "Play: {n}-point match, score {}-{}{}",
            state.score[0],
            state.score[1],
            if state.crawford {
                ", Crawford game"
            } else {
                ""
            }
        ),
    });
    out.push(match state.cube_owner {
        CubeOwner::Centred => format!("Cube: {}, centred", state.cube_value()),
        CubeOwner::Owned(p) => format!("Cube: {}, owned by {p}", state.cube_value()),
    });
    let game = Game::from_state(board, state, Rules::default());
    let due = match game.decision() {
        Decision::Move { .. }
            if board.legal_moves(state.dice.expect("rolled")).moves()[0].is_pass() =>
        {
            format!("{}, who cannot move", game.decision())
        }
        d => d.to_string(),
    };
    out.push(format!("Due: {due}"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_of_the_opening_six_five() {
        let out = moves_report("4HPwATDgc/ABMA", "65").unwrap();
        assert_eq!(out.first().map(String::as_str), Some("24/13"));
        assert_eq!(out.last().map(String::as_str), Some("moves 7"));
        assert_eq!(out.len(), 8);
    }

    #[test]
    fn no_legal_move_is_one_pass() {
        // The player on roll is on the bar against a closed board.
        let out = moves_report("27bBAQDg/wMAYA", "65").unwrap();
        assert_eq!(out, ["pass", "moves 1"]);
    }

    #[test]
    fn every_position_form_is_read() {
        for p in [
            "4HPwATDgc/ABMA",
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10",
        ] {
            assert!(moves_report(p, "31").is_ok(), "{p}");
        }
        // The XGID carries its dice.
        let out = moves_report("XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:7:10", "").unwrap();
        assert_eq!(out.last().map(String::as_str), Some("moves 8"));
    }

    #[test]
    fn bad_input_names_the_field() {
        let e = moves_report("4HPwATDgc/ABM", "65").unwrap_err();
        assert!(matches!(e, ReportError::Position(_)));
        assert!(e.to_string().starts_with("--position: "), "{e}");
        assert!(e.to_string().contains("\"4HPwATDgc/ABM\""), "{e}");
        let e = moves_report("4HPwATDgc/ABMA", "75").unwrap_err();
        assert!(matches!(e, ReportError::Dice(_)));
        assert!(e.to_string().starts_with("--dice: bad dice \"75\""), "{e}");
        let e = moves_report("4HPwATDgc/ABMA", "").unwrap_err();
        assert_eq!(e, ReportError::NoDice);
    }

    #[test]
    fn show_draws_and_decodes() {
        let out = show_report("4HPwATDgc/ABMA:QYkqASAAIAAA").unwrap();
        assert_eq!(out[0], " GNU Backgammon  Position ID: 4HPwATDgc/ABMA");
        let text = out.join("\n");
        assert!(text.contains("Play: 9-point match, score 2-4"), "{text}");
        assert!(text.contains("Cube: 2, owned by player 0"), "{text}");
        assert!(
            text.contains("XGID: XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:9:10"),
            "{text}"
        );
        assert!(text.contains("Due: player 1 to move 52"), "{text}");
        assert!(show_report("nonsense").is_err());
    }
}
