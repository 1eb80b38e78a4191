//! In-process cubeless money matches between two move choosers, in pairs
//! of games with mirrored dice: both games of a pair roll the same dice
//! sequence, with the players in swapped seats, which cancels much of the
//! luck. Gammons count 2 and backgammons 3 (no cube, so no Jacoby rule).

use backgammon_engine::pubeval::{is_race, Pubeval};
use backgammon_engine::Evaluator;
use backgammon_rules::{win_kind, Board, Dice, MoveList, RollDice, Side, SplitMix};

/// Something that picks a move: the index of its choice in `moves`, the
/// legal moves of `board` (seen from the mover) with `dice`.
pub trait Chooser {
    fn choose(&mut self, board: &Board, dice: Dice, moves: &MoveList) -> usize;
}

/// The seed of pair `k` of a match seeded `seed`.
pub fn pair_seed(seed: u64, k: u64) -> u64 {
    SplitMix::new(seed ^ k.wrapping_mul(0xA076_1D64_78BD_642F)).next_u64()
}

/// Plays one game on the dice of `rng`; `players[s]` sits in seat `s`, and
/// seat 0 moves first when its opening die is higher. Returns the points
/// seat 0 scores (negative when it loses).
pub fn play_game(players: [&mut dyn Chooser; 2], mut rng: SplitMix, moves: &mut MoveList) -> i32 {
    let (a, b) = loop {
        let (a, b) = (rng.die(), rng.die());
        if a != b {
            break (a, b);
        }
    };
    let mut seat = if a > b { 0 } else { 1 };
    let mut dice = Dice::new(a, b).expect("dice");
    let mut board = Board::START;
    loop {
        board.legal_moves_into(dice, moves);
        let i = players[seat].choose(&board, dice, moves);
        let after = moves.boards()[i];
        if after.has_won(Side::OnRoll) {
            let points = win_kind(&after).multiplier() as i32;
            return if seat == 0 { points } else { -points };
        }
        board = after.swapped();
        seat ^= 1;
        dice = rng.dice();
    }
}

/// The outcome of a match, from the first player's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DuelResult {
    /// Per pair: the first player's points over its two games.
    pub pair_points: Vec<i32>,
}

impl DuelResult {
    /// Games played.
    pub fn games(&self) -> usize {
        2 * self.pair_points.len()
    }

    /// Points per game of the first player.
    pub fn ppg(&self) -> f64 {
        let n = self.pair_points.len() as f64;
        self.pair_points.iter().map(|&p| p as f64).sum::<f64>() / (2.0 * n)
    }

    /// Half the width of the 95% confidence interval of [`DuelResult::ppg`],
    /// from the spread of the pairs (pairs are independent; games are not).
    pub fn ci95(&self) -> f64 {
        let n = self.pair_points.len() as f64;
        if n < 2.0 {
            return f64::INFINITY;
        }
        let mean = self.pair_points.iter().map(|&p| p as f64).sum::<f64>() / n;
        let var = self
            .pair_points
            .iter()
            .map(|&p| (p as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        1.96 * (var / n).sqrt() / 2.0
    }
}

/// Plays `pairs` mirrored pairs between the choosers `make_a` and `make_b`
/// build (one of each per thread), on `threads` threads.
pub fn duel<A, B>(
    make_a: impl Fn() -> A + Sync,
    make_b: impl Fn() -> B + Sync,
    pairs: u64,
    seed: u64,
    threads: usize,
) -> DuelResult
where
    A: Chooser,
    B: Chooser,
{
    let threads = threads.max(1) as u64;
    let mut results = vec![0i32; pairs as usize];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (make_a, make_b) = (&make_a, &make_b);
                s.spawn(move || {
                    let (mut a, mut b) = (make_a(), make_b());
                    let mut moves = Box::<MoveList>::default();
                    let mut out = Vec::new();
                    for k in (t..pairs).step_by(threads as usize) {
                        let rng = SplitMix::new(pair_seed(seed, k));
                        let g1 = play_game([&mut a, &mut b], rng, &mut moves);
                        let g2 = play_game([&mut b, &mut a], rng, &mut moves);
                        out.push((k, g1 - g2));
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (k, p) in h.join().expect("a duel thread panicked") {
                results[k as usize] = p;
            }
        }
    });
    DuelResult {
        pair_points: results,
    }
}

/// Tesauro's pubeval as a chooser.
pub struct PubevalChooser(pub Pubeval);

impl Chooser for PubevalChooser {
    fn choose(&mut self, board: &Board, _dice: Dice, moves: &MoveList) -> usize {
        let race = is_race(board);
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, after) in moves.boards().iter().enumerate() {
            let s = self.0.score(after, race);
            if s > best.0 {
                best = (s, i);
            }
        }
        best.1
    }
}

/// A uniformly random chooser.
pub struct RandomChooser(pub SplitMix);

impl Chooser for RandomChooser {
    fn choose(&mut self, _board: &Board, _dice: Dice, moves: &MoveList) -> usize {
        self.0.below(moves.len() as u32) as usize
    }
}

/// The evaluator's 1-ply choice.
impl Chooser for Evaluator {
    fn choose(&mut self, _board: &Board, _dice: Dice, moves: &MoveList) -> usize {
        self.best_move(moves).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pubeval_beats_random_and_mirrored_pairs_repeat() {
        let r = duel(
            || PubevalChooser(Pubeval::published()),
            || RandomChooser(SplitMix::new(4)),
            40,
            11,
            2,
        );
        assert_eq!(r.games(), 80);
        assert!(r.ppg() > 0.5, "{}", r.ppg());
        // The same seed plays the same games.
        let again = duel(
            || PubevalChooser(Pubeval::published()),
            || PubevalChooser(Pubeval::published()),
            10,
            3,
            1,
        );
        // A player against itself on mirrored dice scores exactly zero.
        assert!(again.pair_points.iter().all(|&p| p == 0));
    }
}
