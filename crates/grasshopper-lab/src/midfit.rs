//! Fitting the middle game's or the late phases' network
//! ([`grasshopper_engine::midnet`]) to the truth (`grasshopper tune --truth
//! FILE --checkers 6 --mid-net-out OUT`, or `--late-net-out OUT`).
//!
//! The samples: the positions of the truth files that the net's role
//! serves ([`weight_set`] picks [`WeightSet::Mid`], or one of the late
//! sets) and the positions after each
//! of their moves, whose values the files hold too (the value a move keeps,
//! negated, is the value of the position after it for the other side): a
//! file of 57,000 positions gives about twenty times as many samples. Each
//! distinct position once; the positions of the excluded record files (a
//! measurement's test set) left out. A seeded shuffle holds the last
//! `holdout` samples out of the fit, and the error on them (the mean
//! squared error between the result, 1 win, 0.5 draw, 0 loss, and the
//! logistic of the evaluation) is reported after each epoch beside the
//! linear weight sets'.

use crate::truth::Judge;
#[cfg(doc)]
use grasshopper_engine::eval::WeightSet;
use grasshopper_engine::eval::{linear as linear_eval, weight_set, K, WEIGHTS};
use grasshopper_engine::midnet::{sigmoid, Loss, MidNet, NetRole};
use grasshopper_rules::Position;
use splitmix::SplitMix64;
use std::collections::HashSet;
use std::io::{self, Write};

/// How the net is fitted.
#[derive(Clone, Debug)]
pub struct MidFit {
    /// The positions the net is for.
    pub role: NetRole,
    pub hidden: usize,
    pub epochs: u32,
    /// Learning rate of the first epoch, falling geometrically to
    /// `alpha_end` in the last.
    pub alpha: f32,
    pub alpha_end: f32,
    /// The linear term's learning rate, relative to the hidden layer's.
    pub linear_rate: f32,
    /// Samples held out of the fit to report on.
    pub holdout: usize,
    pub seed: u64,
    /// What the fit minimises.
    pub loss: Loss,
}

/// One sample: a position of the role and its expected result for the
/// side to move (1 win, 0.5 draw, 0 loss).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    pub pos: Position,
    pub y: f32,
}

/// The positions of `role` among `judge`'s `positions` and after their
/// moves, each once, those in `exclude` left out, added to `out`.
fn collect(
    role: NetRole,
    judge: &dyn Judge,
    positions: &[Position],
    exclude: &HashSet<u128>,
    seen: &mut HashSet<u128>,
    out: &mut Vec<Sample>,
) {
    let mut add = |pos: Position, value: i8| {
        let key = pos.canonical_key();
        if role.serves(weight_set(&pos)) && !exclude.contains(&key) && seen.insert(key) {
            let y = (value as f32 + 1.0) / 2.0;
            out.push(Sample { pos, y });
        }
    };
    for p in positions.iter().filter(|p| judge.covers(p)) {
        add(*p, judge.value(p));
        for &m in p.legal_moves().iter() {
            let child = p.play(m).expect("legal");
            if !child.is_game_over() {
                add(child, -judge.kept(p, m));
            }
        }
    }
}

/// Mean squared error of `eval` (logistic units) on `samples`.
fn error(samples: &[Sample], eval: impl Fn(&Position) -> f32) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = (s.y - sigmoid(eval(&s.pos))) as f64;
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The linear evaluation of `pos` (its weight set's) in logistic units.
fn linear(pos: &Position) -> f32 {
    linear_eval(pos, weight_set(pos).weights(&WEIGHTS)) as f32 / K as f32
}

/// Fits a net to the samples of `a.role` in the `sets` (each a judge and
/// its positions), `exclude`'s positions left out; reports to `out`.
pub fn fit(
    sets: &[(&dyn Judge, Vec<Position>)],
    exclude: &[Position],
    a: &MidFit,
    out: &mut impl Write,
) -> io::Result<MidNet> {
    let exclude: HashSet<u128> = exclude.iter().map(|p| p.canonical_key()).collect();
    let (mut seen, mut samples) = (HashSet::new(), Vec::new());
    for (judge, positions) in sets {
        collect(a.role, *judge, positions, &exclude, &mut seen, &mut samples);
    }
    fit_samples(samples, a, out)
}

/// Fits a net of `a.role` to `samples` (a seeded shuffle holds
/// `a.holdout` of them out); reports to `out`.
pub fn fit_samples(
    mut samples: Vec<Sample>,
    a: &MidFit,
    out: &mut impl Write,
) -> io::Result<MidNet> {
    let mut rng = SplitMix64::new(a.seed);
    shuffle(&mut samples, &mut rng);
    let held = a.holdout.min(samples.len() / 2);
    let cut = samples.len() - held;
    let (train, test) = samples.split_at_mut(cut);
    let wins = train.iter().filter(|s| s.y == 1.0).count();
    let losses = train.iter().filter(|s| s.y == 0.0).count();
    writeln!(
        out,
        "{} net: {} samples (results 1 {wins}, 0 {losses}, between {}), {held} held out; {} hidden units",
        a.role.name(),
        train.len(),
        train.len() - wins - losses,
        a.hidden
    )?;
    writeln!(out, "held out: linear weights {:.5}", error(test, linear))?;
    let mut net = MidNet::from_weights(a.hidden, a.seed, a.role.start());
    let fall = (a.alpha_end / a.alpha).powf(1.0 / (a.epochs.max(2) - 1) as f32);
    let mut alpha = a.alpha;
    for epoch in 1..=a.epochs {
        shuffle(train, &mut rng);
        let mut sum = 0.0f64;
        for s in train.iter() {
            sum += net.train_with(a.loss, &s.pos, s.y, alpha, a.linear_rate) as f64;
        }
        let fitted = sum / train.len().max(1) as f64;
        let held = error(test, |p| net.output(p));
        writeln!(
            out,
            "epoch {epoch}: alpha {alpha:.5} fitted {fitted:.5} held out {held:.5}"
        )?;
        alpha *= fall;
    }
    Ok(net)
}

/// Fisher-Yates with the seeded stream.
fn shuffle(v: &mut [Sample], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grasshopper_rules::Move;

    /// A judge that calls a middle-game position won when the side to move
    /// has more lone checkers than the other, lost when fewer (a rule the
    /// raw board inputs see and the features do not all).
    struct Lone;

    impl Lone {
        fn of(p: &Position) -> i8 {
            let us = p.lone_mask(p.side_to_move()).count_ones();
            let them = p.lone_mask(p.side_to_move().opposite()).count_ones();
            (us as i32 - them as i32).signum() as i8
        }
    }

    impl Judge for Lone {
        fn covers(&self, _: &Position) -> bool {
            true
        }
        fn value(&self, p: &Position) -> i8 {
            Lone::of(p)
        }
        fn kept(&self, p: &Position, m: Move) -> i8 {
            -Lone::of(&p.play(m).expect("legal"))
        }
    }

    #[test]
    fn the_fit_learns_a_rule_of_the_board_and_repeats_with_either_loss() {
        let start = Position::start(6).expect("6 checkers");
        let positions: Vec<Position> = (0..400)
            .map(|i| start.playout(4 + i % 9, |n| (i * 7 + 3) % n))
            .collect();
        for (loss, alpha) in [(Loss::Squared, 0.05), (Loss::CrossEntropy, 0.025)] {
            let a = MidFit {
                role: NetRole::Mid,
                hidden: 16,
                epochs: 12,
                alpha,
                alpha_end: alpha / 5.0,
                linear_rate: 0.01,
                holdout: 300,
                seed: 3,
                loss,
            };
            let mut report = Vec::new();
            let net = fit(&[(&Lone, positions.clone())], &[], &a, &mut report).unwrap();
            let report = String::from_utf8(report).unwrap();
            let held = |line: &str| -> f64 {
                let l = report.lines().find(|l| l.starts_with(line)).unwrap();
                l.rsplit(' ').next().unwrap().parse().unwrap()
            };
            let before = held("held out: linear");
            let after = held("epoch 12:");
            assert!(after < before * 0.7, "{loss:?}: {report}");
            let again = fit(&[(&Lone, positions.clone())], &[], &a, &mut Vec::new()).unwrap();
            assert_eq!(again, net, "{loss:?}");
        }
    }
}
