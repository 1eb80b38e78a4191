//! In-process matches between two players (engine settings or baselines), in
//! game pairs with colours swapped, for strength figures without the
//! protocol: each pair starts from the same seeded random opening. Counted
//! and reported by the match runner's statistics.

use crate::tune::{play_game, random_opening};
use grasshopper_engine::eval::{parse_weights, WeightsError, N_FEATURES, WEIGHTS};
use grasshopper_engine::{Limits, Player, SearchOptions, Searcher};
use grasshopper_rules::{Color, Outcome, Position};
use match_runner::{GameResult, Scored, Tally, Termination};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One side of a match: its options and its per-move limits.
#[derive(Clone, Debug)]
pub struct Side {
    pub options: SearchOptions,
    pub limits: Limits,
}

impl Side {
    /// `player` on `threads` threads, seeded, with `weights`; a move takes
    /// `nodes` nodes when given, else `ms` milliseconds, the whole budget
    /// (in-process, there is no overhead to keep back).
    pub fn new(
        player: Player,
        threads: usize,
        seed: u64,
        weights: [i32; N_FEATURES],
        ms: u64,
        nodes: Option<u64>,
    ) -> Side {
        let options = SearchOptions {
            player,
            threads,
            seed: Some(seed),
            move_overhead: Duration::ZERO,
            weights,
            ..Default::default()
        };
        let limits = match nodes {
            Some(n) => Limits {
                nodes: Some(n),
                ..Default::default()
            },
            None => Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Default::default()
            },
        };
        Side { options, limits }
    }
}

/// A weights file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// The file holds no weights of the evaluation.
    #[error("bad weights file {}: {error}", path.display())]
    Parse { path: PathBuf, error: WeightsError },
}

/// The evaluation weights of a file written by `tune`, or the built-in
/// ones without a file.
pub fn read_weights(path: Option<&Path>) -> Result<[i32; N_FEATURES], WeightsFileError> {
    let Some(path) = path else {
        return Ok(WEIGHTS);
    };
    let text = std::fs::read_to_string(path).map_err(|source| WeightsFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_weights(&text).map_err(|error| WeightsFileError::Parse {
        path: path.to_path_buf(),
        error,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_built_in_or_read_and_a_bad_file_is_named() {
        assert_eq!(read_weights(None).unwrap(), WEIGHTS);
        let missing = Path::new("/no/such/weights.txt");
        let e = read_weights(Some(missing)).unwrap_err();
        assert!(matches!(e, WeightsFileError::Read { .. }), "{e}");
        let bad = std::env::temp_dir().join(format!("gh-weights-{}.txt", std::process::id()));
        std::fs::write(&bad, "[1, 2, x]").unwrap();
        let e = read_weights(Some(&bad)).unwrap_err();
        let _ = std::fs::remove_file(&bad);
        assert!(matches!(e, WeightsFileError::Parse { .. }), "{e}");
        assert!(e.to_string().starts_with("bad weights file /"), "{e}");
    }

    #[test]
    fn a_side_has_nodes_when_given_else_the_move_time() {
        let s = Side::new(Player::Engine, 2, 7, WEIGHTS, 50, Some(900));
        assert_eq!((s.limits.nodes, s.limits.movetime), (Some(900), None));
        assert_eq!((s.options.threads, s.options.seed), (2, Some(7)));
        let s = Side::new(Player::Random, 1, 7, WEIGHTS, 50, None);
        assert_eq!(s.limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(s.options.move_overhead, Duration::ZERO);
    }
}
