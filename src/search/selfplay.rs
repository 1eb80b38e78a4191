//! In-process matches between two players (engine settings or baselines), in
//! game pairs with colours swapped, for strength figures without the
//! protocol: each pair starts from the same seeded random opening.

use super::baseline::next_random;
use super::tune::play_game;
use super::{Limits, SearchOptions, Searcher};
use crate::rules::{Color, Outcome, Position};
use std::io::{self, Write};

/// One side of a match: its options and its per-move limits.
#[derive(Clone, Debug)]
pub struct Side {
    pub options: SearchOptions,
    pub limits: Limits,
}

/// Score of a match from the first side's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored as a fraction of the games.
    pub fn fraction(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Elo difference and its 95% interval (normal approximation over games).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.fraction();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        (elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se))
    }
}

/// Plays `pairs` game pairs of `a` against `b` from the `checkers` start,
/// each pair after the same 2-5 seeded random plies, one line per game.
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
    let mut rng = seed;
    let mut tally = Tally::default();
    for pair in 0..pairs {
        let plies = 2 + (next_random(&mut rng) % 4) as u32;
        let opening_seed = next_random(&mut rng);
        for a_white in [true, false] {
            let mut r = opening_seed;
            let (outcome, seen) = if a_white {
                play_game(
                    &start,
                    &mut sa,
                    &mut sb,
                    [&a.limits, &b.limits],
                    plies,
                    &mut r,
                )
            } else {
                play_game(
                    &start,
                    &mut sb,
                    &mut sa,
                    [&b.limits, &a.limits],
                    plies,
                    &mut r,
                )
            };
            let a_color = if a_white { Color::White } else { Color::Black };
            let result = match outcome {
                Outcome::Win(c) if c == a_color => {
                    tally.wins += 1;
                    "win"
                }
                Outcome::Win(_) => {
                    tally.losses += 1;
                    "loss"
                }
                _ => {
                    tally.draws += 1;
                    "draw"
                }
            };
            writeln!(
                out,
                "pair {} A as {}: {result} after {} moves  (A {}-{}-{})",
                pair + 1,
                a_color,
                seen.len(),
                tally.wins,
                tally.draws,
                tally.losses
            )?;
        }
    }
    let (elo, lo, hi) = tally.elo();
    writeln!(
        out,
        "A scored {:.1}% over {} games: +{} ={} -{}; Elo {elo:+.0} (95% {lo:+.0} .. {hi:+.0})",
        100.0 * tally.fraction(),
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses
    )?;
    Ok(tally)
}
