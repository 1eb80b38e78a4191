//! The positions the checks use, found by the rules crate in fixed
//! pseudo-random games (the same ones every run): middle games with either
//! side to move, a forced pass, wins for each side and a draw.

use grasshopper_rules::{Color, Move, Outcome, Position};

/// The checks' positions.
#[derive(Clone, Debug)]
pub struct Positions {
    /// A 14-checker middle game, White to move, with at least 3 legal moves.
    pub white: Position,
    /// A 14-checker middle game, Black to move, with at least 3 legal moves.
    pub black: Position,
    /// A start position and the moves of a game's first plies, with the
    /// position they lead to.
    pub line: (u8, Vec<Move>, Position),
    /// The side to move has no action and must pass.
    pub pass: Position,
    /// White has won.
    pub white_won: Position,
    /// Black has won.
    pub black_won: Position,
    /// Neither player can move.
    pub draw: Position,
}

/// A small deterministic generator (an LCG): the same games on every run.
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The first position (in fixed games of N = 2, 4, ..., 14 checkers) that
/// `want` accepts.
fn find(want: impl Fn(&Position) -> bool) -> Position {
    for n in [14u8, 6, 4, 2, 8, 10, 12] {
        for seed in 0..400u64 {
            let mut rng = Lcg(seed * 7919 + n as u64);
            let mut pos = Position::start(n).expect("an even number of checkers");
            loop {
                if want(&pos) {
                    return pos;
                }
                if pos.is_game_over() {
                    break;
                }
                pos = pos.playout(1, |k| rng.pick(k));
            }
        }
    }
    panic!("no such position in the fixed games")
}

impl Positions {
    /// Finds them (a few milliseconds).
    pub fn new() -> Positions {
        let middle = |side: Color| {
            move |p: &Position| {
                p.checkers() == 14
                    && p.side_to_move() == side
                    && !p.is_game_over()
                    && p.legal_moves().len() >= 3
                    && p.to_enter(Color::White) < 10
                    && p.to_enter(Color::Black) < 10
                    && p.to_string().contains('W')
            }
        };
        let mut rng = Lcg(12345);
        let start = Position::start(14).expect("14 checkers");
        let mut moves = Vec::new();
        let mut pos = start;
        for _ in 0..9 {
            let legal = pos.legal_moves();
            let m = legal[rng.pick(legal.len())];
            moves.push(m);
            pos = pos.play(m).expect("legal");
        }
        Positions {
            white: find(middle(Color::White)),
            black: find(middle(Color::Black)),
            line: (14, moves, pos),
            pass: find(|p| p.legal_moves().as_slice() == [Move::PASS]),
            white_won: find(|p| p.outcome() == Outcome::Win(Color::White)),
            black_won: find(|p| p.outcome() == Outcome::Win(Color::Black)),
            draw: find(|p| p.outcome() == Outcome::Draw),
        }
    }
}

impl Default for Positions {
    fn default() -> Self {
        Positions::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_position_is_found() {
        let p = Positions::new();
        assert_eq!(p.white.side_to_move(), Color::White);
        assert_eq!(p.black.side_to_move(), Color::Black);
        assert!(!p.pass.is_game_over());
        assert_eq!(p.draw.outcome(), Outcome::Draw);
        assert_eq!(p.line.1.len(), 9);
    }
}
