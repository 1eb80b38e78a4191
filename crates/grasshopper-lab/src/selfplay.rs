//! In-process matches between two players (engine settings or baselines), in
//! game pairs with colours swapped, for strength figures without the
//! protocol: each pair starts from the same seeded random opening. Counted
//! and reported by the match runner's statistics.

use crate::tune::{play_game, random_opening};
use grasshopper_engine::{Limits, SearchOptions, Searcher};
use grasshopper_rules::{Color, Outcome, Position};
use match_runner::{GameResult, Scored, Tally, Termination};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, Write};

/// One side of a match: its options and its per-move limits.
#[derive(Clone, Debug)]
pub struct Side {
    pub options: SearchOptions,
    pub limits: Limits,
}

/// The result of a game as the records write it.
fn result_of(outcome: Outcome) -> GameResult {
    match outcome {
        Outcome::Win(Color::White) => GameResult::WhiteWins,
        Outcome::Win(Color::Black) => GameResult::BlackWins,
        _ => GameResult::Draw,
    }
}

/// Plays `pairs` game pairs of `a` (named A) against `b` (B) from the
/// `checkers` start, each pair after the same 2-5 seeded random plies; one
/// line per game, then the runner's report (score, pentanomial, Elo).
pub fn run(
    out: &mut impl Write,
    a: &Side,
    b: &Side,
    pairs: u32,
    seed: u64,
    checkers: u8,
) -> io::Result<Tally> {
    let mut sa = Searcher::new(a.options.clone());
    let mut sb = Searcher::new(b.options.clone());
    let start = Position::start(checkers).expect("checked by the caller");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut tally = Tally::default();
    for pair in 0..pairs as usize {
        let opening = random_opening(&start, rng.random_range(2..6), &mut rng);
        for game in [1u8, 2] {
            let (white, black) = if game == 1 { ("A", "B") } else { ("B", "A") };
            let (outcome, seen) = if game == 1 {
                play_game(&opening, &mut sa, &mut sb, [&a.limits, &b.limits])
            } else {
                play_game(&opening, &mut sb, &mut sa, [&b.limits, &a.limits])
            };
            let result = result_of(outcome);
            tally.add(&Scored {
                pair,
                game,
                white,
                black,
                result,
                termination: Termination::Normal,
            });
            writeln!(
                out,
                "pair {} game {game}: {white} (white) vs {black}: {result} after {} moves",
                pair + 1,
                seen.len()
            )?;
        }
    }
    write!(out, "{}", tally.report(None))?;
    Ok(tally)
}
