//! The backgammon positions the UBGI checks use, each with the roll to
//! play: the opening, doubles, middle games from fixed random games, an
//! entry from the bar, a bear-off, and a roll with no legal move.

use backgammon_rules::{Board, Dice, MatchState, Xgid};

/// A board seen from the player on roll, and the roll to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    pub board: Board,
    pub dice: Dice,
}

impl Roll {
    /// `dice <d1> <d2>`.
    pub fn dice_command(&self) -> String {
        let text = self.dice.to_string();
        let (d1, d2) = text.split_at(1);
        format!("dice {d1} {d2}")
    }

    /// `position gnubgid <PositionID>`.
    pub fn position_command(&self) -> String {
        format!("position gnubgid {}", self.board.position_id())
    }

    /// `position xgid <XGID>` for a money game with the cube centred.
    pub fn xgid_command(&self) -> Option<String> {
        let xgid = Xgid::from_state(&self.board, &MatchState::money(true)).ok()?;
        Some(format!("position xgid {xgid}"))
    }

    /// `position gnubgid <PositionID>:<MatchID>` with a double offered by
    /// the player on roll, waiting for the opponent's answer.
    pub fn doubled_command(&self) -> String {
        let mut state = MatchState::money(false);
        state.doubled = true;
        state.turn = state.on_roll.other();
        format!(
            "position gnubgid {}:{}",
            self.board.position_id(),
            state.match_id()
        )
    }
}

/// The checks' rolls.
pub struct Rolls {
    pub opening: Roll,
    pub doubles: Roll,
    pub middle: Vec<Roll>,
    pub bar: Roll,
    pub bear_off: Roll,
    pub pass: Roll,
}

fn roll(board: Board, dice: &str) -> Roll {
    Roll {
        board,
        dice: dice.parse().expect("a roll"),
    }
}

/// A board from the counts of the player on roll and the opponent
/// (`(index, count)` in GNU Backgammon's layout: 0..=23 the points 1..=24,
/// 24 the bar).
fn board(on_roll: &[(usize, u8)], opponent: &[(usize, u8)]) -> Board {
    let counts = |cells: &[(usize, u8)]| {
        let mut counts = [0u8; 25];
        for &(i, n) in cells {
            counts[i] = n;
        }
        counts
    };
    Board::from_counts(&counts(on_roll), &counts(opponent)).expect("a legal board")
}

/// Middle games: the positions after `plies` random plies of fixed games.
fn middle_games() -> Vec<Roll> {
    let rolls: Vec<Dice> = Dice::all().collect();
    let mut state = 2026u64;
    let mut pick = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let mut found = Vec::new();
    let mut board = Board::START;
    for ply in 1..=24 {
        let dice = rolls[pick(rolls.len())];
        if ply % 6 == 0 {
            found.push(Roll { board, dice });
        }
        let legal = board.legal_moves(dice);
        let chosen = legal.moves()[pick(legal.len())];
        board = board.apply_unchecked(chosen).swapped();
    }
    found
}

impl Rolls {
    pub fn new() -> Rolls {
        Rolls {
            opening: roll(Board::START, "31"),
            doubles: roll(Board::START, "66"),
            middle: middle_games(),
            // The opponent holds the on-roll player's 21- to 24-points.
            bar: roll(
                board(
                    &[(24, 1), (5, 14)],
                    &[(0, 2), (1, 2), (2, 2), (3, 2), (12, 7)],
                ),
                "65",
            ),
            bear_off: roll(
                board(
                    &[(0, 3), (1, 3), (2, 3), (3, 2), (4, 2), (5, 2)],
                    &[(12, 15)],
                ),
                "64",
            ),
            // On the bar against a closed board.
            pass: roll(
                board(
                    &[(24, 1), (5, 14)],
                    &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (12, 3)],
                ),
                "64",
            ),
        }
    }
}

impl Default for Rolls {
    fn default() -> Self {
        Rolls::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_roll_is_what_its_name_says() {
        let rolls = Rolls::new();
        let moves = |r: &Roll| r.board.legal_moves(r.dice);
        assert!(moves(&rolls.pass).moves()[0].is_pass());
        assert!(!moves(&rolls.bar).moves()[0].is_pass());
        assert_eq!(rolls.middle.len(), 4);
        assert_eq!(rolls.opening.dice_command(), "dice 3 1");
        assert!(rolls.opening.xgid_command().unwrap().contains("XGID="));
    }
}
