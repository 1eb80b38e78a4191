//! Fitting the evaluation weights to game results (Texel-style tuning), and
//! the self-play game loop it shares with the `selfplay` match command.
//!
//! The data recipe: play `games` self-play games from the 14-checker start,
//! the first 2-9 plies uniformly random (seeded) so that games differ, then
//! each move by a fixed-node search (threads 1). Every position after the
//! random opening where the evaluation would be used (the walls in D do not
//! force the result, [`Position::forced`]) becomes one sample, labelled with
//! the game's result for the side to move (1 win, 0.5 draw, 0 loss). The weights are
//! then fitted by gradient descent on the mean squared error between the
//! result and `sigmoid(eval / K)`, starting from the weights in the source.
//!
//! Or from the truth ([`run_labelled`]): positions of engine games in small
//! games (the retro-quality generator, [`crate::quality::covered_positions`]),
//! each labelled with its exact value from the retrograde tables (1 win,
//! 0.5 draw, 0 loss for the side to move), the positions of given record
//! files left out (a measurement's test set). The set regenerates from the
//! seed and the tables, or is read from a truth file ([`crate::truth`]),
//! which needs no tables.

use grasshopper_engine::eval::{self, features, weight_set, WeightSet, NAMES, N_FEATURES, WEIGHTS};
use grasshopper_engine::{Limits, Score, SearchControl, SearchOptions, Searcher};
use grasshopper_rules::{Color, Move, Outcome, Position};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, Write};

/// Scale of the logistic model (the engine's [`eval::K`]).
const K: f64 = eval::K as f64;

/// A random opening: `plies` uniformly random plies from `start`.
pub fn random_opening(start: &Position, plies: usize, rng: &mut impl Rng) -> Position {
    start.playout(plies, |n| rng.random_range(0..n))
}

/// Plays one game from `opening` to its end, `choose` giving the move of
/// each position. Returns the outcome and the positions before each move:
/// the self-play loop of every lab command that plays games in process.
pub fn play_out(
    opening: &Position,
    mut choose: impl FnMut(&Position) -> Move,
) -> (Outcome, Vec<Position>) {
    let mut pos = *opening;
    let mut seen = Vec::new();
    while !pos.is_game_over() {
        seen.push(pos);
        pos.play_unchecked(choose(&pos));
    }
    (pos.outcome(), seen)
}

/// The move `searcher` chooses in `pos` within `limits`, with each report's
/// score passed to `score`.
pub fn search_move(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    score: &mut dyn FnMut(&Score),
) -> Move {
    let control = SearchControl::new(false);
    searcher
        .search(pos, limits, &control, &mut |r| score(&r.score))
        .best
        .expect("the game is not over")
}

/// Plays one game from `opening`, `white` and `black` choosing the moves
/// within `limits`. Returns the outcome and the positions before each move.
pub fn play_game(
    opening: &Position,
    white: &mut Searcher,
    black: &mut Searcher,
    limits: [&Limits; 2],
) -> (Outcome, Vec<Position>) {
    white.clear();
    black.clear();
    play_out(opening, |pos| {
        let side = pos.side_to_move();
        let searcher = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        search_move(searcher, pos, limits[side.index()], &mut |_| {})
    })
}

/// One training sample: features from the side to move's view, and its result.
struct Sample {
    f: [f64; N_FEATURES],
    y: f64,
}

impl Sample {
    /// The sample of `p` with result `y` for its side to move.
    fn new(p: &Position, y: f64) -> Sample {
        Sample {
            f: features(p).map(f64::from),
            y,
        }
    }
}

/// Generates the data, fits the weights and writes a report to `out` (and the
/// weights as a Rust array to `weights_out`). Returns the number of samples.
pub fn run(
    out: &mut impl Write,
    weights_out: &mut impl Write,
    games: u32,
    seed: u64,
    nodes: u64,
    epochs: u32,
) -> io::Result<usize> {
    let opts = SearchOptions {
        hash_mb: 4,
        threads: 1,
        ..Default::default()
    };
    let mut white = Searcher::new(opts.clone());
    let mut black = Searcher::new(opts);
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let start = Position::start(14).expect("14 checkers");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut samples = Vec::new();
    let (mut ww, mut bw, mut dr) = (0, 0, 0);
    for g in 0..games {
        let opening = random_opening(&start, rng.random_range(2..10), &mut rng);
        let (outcome, positions) = play_game(&opening, &mut white, &mut black, [&limits, &limits]);
        match outcome {
            Outcome::Win(Color::White) => ww += 1,
            Outcome::Win(Color::Black) => bw += 1,
            _ => dr += 1,
        }
        for p in positions.iter().filter(|p| p.forced().is_none()) {
            let y = match outcome {
                Outcome::Win(c) if c == p.side_to_move() => 1.0,
                Outcome::Win(_) => 0.0,
                _ => 0.5,
            };
            samples.push(Sample::new(p, y));
        }
        if (g + 1) % 100 == 0 {
            log::info!("tune: {} games, {} samples", g + 1, samples.len());
        }
    }
    writeln!(
        out,
        "data: {games} games (white {ww}, black {bw}, draws {dr}), {} samples, {nodes} nodes a move, seed {seed}",
        samples.len()
    )?;
    report_fit(out, weights_out, "WEIGHTS", &samples, &WEIGHTS, epochs)?;
    Ok(samples.len())
}

/// One labelled set: the judge of a game (its tables or a truth file), its
/// checkers, how many positions, and the nodes a move of the engine games
/// that supply them.
pub struct LabelledSet<'a> {
    pub judge: &'a dyn crate::truth::Judge,
    pub checkers: u8,
    pub positions: usize,
    pub game_nodes: u64,
    /// The positions of a record file instead of new engine games (those
    /// the tables cover): a set generated once by `retro-quality --record`
    /// and fitted many times.
    pub from_record: Option<Vec<Position>>,
}

/// Fits the weights to the exact values of positions of each set (see the
/// module docs), leaving out `exclude`'s positions, each position fitting
/// the weight set that evaluates it ([`weight_set`]: with few checkers left
/// `WEIGHTS_FEW` before anybody scores, `WEIGHTS_LATE_US` or
/// `WEIGHTS_LATE_THEM` after, as the side to move holds the run or not;
/// with at most six left otherwise `WEIGHTS_MID`; the arrays written under those names,
/// each fitted from its current values); writes the report to
/// `out` and the weights to `weights_out`. Only the sets in `only` are
/// fitted (all when it is empty). Returns the number of samples.
pub fn run_labelled(
    out: &mut impl Write,
    weights_out: &mut impl Write,
    sets: &[LabelledSet<'_>],
    exclude: &[Position],
    only: &[WeightSet],
    seed: u64,
    epochs: u32,
) -> io::Result<usize> {
    let exclude: std::collections::HashSet<u128> =
        exclude.iter().map(|p| p.canonical_key()).collect();
    // Each position trains the weight set that evaluates it (`weight_set`).
    let fitted = WeightSet::FITTED
        .iter()
        .filter(|(set, _)| only.is_empty() || only.contains(set));
    let mut by_set: Vec<(WeightSet, &str, Vec<Sample>)> =
        fitted.map(|&(set, name)| (set, name, Vec::new())).collect();
    let mut not_fitted = 0usize;
    for set in sets {
        let ps = set_positions(set, seed);
        let (mut n, mut left_out, mut counts) = (0, 0, [0usize; 3]);
        for p in ps {
            if exclude.contains(&p.canonical_key()) {
                left_out += 1;
                continue;
            }
            let v = set.judge.value(&p);
            counts[(1 - v) as usize] += 1;
            let sample = Sample::new(&p, (v as f64 + 1.0) / 2.0);
            let wanted = weight_set(&p);
            match by_set.iter_mut().find(|(set, _, _)| *set == wanted) {
                Some((_, _, samples)) => samples.push(sample),
                None => not_fitted += 1,
            }
            n += 1;
        }
        let source = match set.from_record {
            Some(_) => "from a record file".to_string(),
            None => format!("games at {} nodes a move, seed {seed}", set.game_nodes),
        };
        writeln!(
            out,
            "data: {} checkers, {n} positions (wins {}, draws {}, losses {}), {left_out} left out, {source}",
            set.checkers, counts[0], counts[1], counts[2]
        )?;
    }
    let mut fitted = 0;
    for (set, name, samples) in &by_set {
        writeln!(out, "{name}: {} positions", samples.len())?;
        if !samples.is_empty() {
            report_fit(
                out,
                weights_out,
                name,
                samples,
                set.weights(&WEIGHTS),
                epochs,
            )?;
        }
        fitted += samples.len();
    }
    writeln!(
        out,
        "{not_fitted} positions evaluated with weights not fitted here"
    )?;
    Ok(fitted)
}

/// The positions of a labelled set: those of its record file that its
/// judge covers, or those of new engine games.
fn set_positions(set: &LabelledSet<'_>, seed: u64) -> Vec<Position> {
    if let Some(ps) = &set.from_record {
        return ps.iter().filter(|p| set.judge.covers(p)).copied().collect();
    }
    let a = crate::quality::QualitySettings {
        retro: None,
        record: None,
        replay: None,
        truth: None,
        export_truth: None,
        positions_from: None,
        errors: None,
        checkers: set.checkers,
        positions: set.positions,
        movetimes: Vec::new(),
        nodes: Vec::new(),
        game_nodes: set.game_nodes,
        random_plies: 9,
        max_games: None,
        workers: 1,
        threads: 1,
    };
    crate::quality::covered_positions(set.judge, &a, seed, &mut io::stderr())
}

/// Fits from the weights `from` and reports the error before and after and
/// the weights, written to `weights_out` as the Rust array `name`.
fn report_fit(
    out: &mut impl Write,
    weights_out: &mut impl Write,
    name: &str,
    samples: &[Sample],
    from: &[i32; N_FEATURES],
    epochs: u32,
) -> io::Result<()> {
    let w0: Vec<f64> = from.iter().map(|&w| w as f64).collect();
    let e0 = error(samples, &w0);
    let w = fit(samples, w0, epochs);
    let e1 = error(samples, &w);
    writeln!(
        out,
        "mean squared error: {e0:.5} before, {e1:.5} after {epochs} epochs"
    )?;
    for (name, x) in NAMES.iter().zip(&w) {
        writeln!(out, "{name:>24} {:6}", x.round() as i64)?;
    }
    let rounded: Vec<String> = w.iter().map(|x| format!("{}", x.round() as i64)).collect();
    writeln!(
        weights_out,
        "pub const {name}: [i32; N_FEATURES] = [{}];",
        rounded.join(", ")
    )
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(samples: &[Sample], w: &[f64]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e: f64 = s.f.iter().zip(w).map(|(f, w)| f * w).sum();
            let d = s.y - sigmoid(e / K);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Full-batch gradient descent with Adam step sizes (the features have very
/// different ranges, which plain gradient descent handles badly).
fn fit(samples: &[Sample], mut w: Vec<f64>, epochs: u32) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let (b1, b2, lr, eps) = (0.9, 0.999, 2.0, 1e-8);
    let mut m = [0.0; N_FEATURES];
    let mut v = [0.0; N_FEATURES];
    for t in 1..=epochs {
        let mut g = [0.0; N_FEATURES];
        for s in samples {
            let e: f64 = s.f.iter().zip(&w).map(|(f, w)| f * w).sum();
            let p = sigmoid(e / K);
            // d/dw (y - p)^2 = -2 (y - p) p (1 - p) f / K
            let c = -2.0 * (s.y - p) * p * (1.0 - p) / K;
            for (gi, fi) in g.iter_mut().zip(&s.f) {
                *gi += c * fi;
            }
        }
        for i in 0..N_FEATURES {
            let gi = g[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_lowers_the_error_on_separable_data() {
        // Given samples where only the first feature decides the result,
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let mut f = [0.0; N_FEATURES];
                f[0] = if i % 2 == 0 { 1.0 } else { -1.0 };
                Sample {
                    f,
                    y: if i % 2 == 0 { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let w0 = vec![0.0; N_FEATURES];
        // when fitted, the error falls and the weight of that feature grows.
        let w = fit(&samples, w0.clone(), 200);
        assert!(error(&samples, &w) < error(&samples, &w0));
        assert!(w[0] > 100.0, "{}", w[0]);
    }
}
