//! `backgammon rollout-data regret`: how well nets choose their move at
//! 1-ply by the teacher their labels come from (the nets' own look-ahead,
//! `rollout-data generate --look K`). On seeded self-play decisions, the
//! teacher labels the candidates (the teacher nets' best few at 1-ply, and
//! each compared net's pick); a net's regret is what its pick loses
//! against the best labelled candidate, and the paired difference to the
//! first net's loss. No dice decide it (2,000 contact decisions give the
//! paired difference to about ±0.25 millipoints a decision); it measures
//! the distillation, not the play (the teacher's own errors are invisible
//! to it: that is `errors` and `benchmark`'s job).

use crate::benchmark::mean_interval;
use crate::class::NetClass;
use crate::selfplay::ranked;
use backgammon_engine::eval::{equity, won, Evaluator};
use backgammon_engine::search::Searcher;
use backgammon_rules::{Board, MoveList, RollDice, Side, SplitMix};
use std::collections::HashMap;

/// What a regret run measures.
#[derive(Clone, Debug, PartialEq)]
pub struct RegretSettings {
    /// Decisions (positions with at least two legal moves) to label.
    pub decisions: usize,
    pub seed: u64,
    /// Only positions of this class.
    pub class: Option<NetClass>,
    /// The teacher's look: rolls ahead of each candidate (2 = 3-ply).
    pub look: u8,
    /// The teacher nets' best this many moves are labelled in each decision.
    pub candidates: usize,
}

/// One net's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Regret {
    /// Mean loss a decision against the best labelled candidate, equity.
    pub mean: f64,
    /// Its 95% half-interval.
    pub half: f64,
    /// Decisions where the pick was not the best labelled candidate.
    pub missed: usize,
    /// The mean of this net's loss less the first net's, decision by
    /// decision, and its 95% half-interval (paired: much narrower than
    /// the two intervals together).
    pub versus_first: (f64, f64),
}

/// The mover's value of `after` by `eval` looking `look` rolls ahead.
fn teacher_value(eval: &Evaluator, after: &Board, look: u8) -> f64 {
    if after.has_won(Side::OnRoll) {
        return equity(&won(after)) as f64;
    }
    -equity(&Searcher::new(eval).look_ahead(&after.swapped(), look, None)) as f64
}

/// The nets' regrets, in the order of `nets`, against `teacher`'s labels
/// on `s.decisions` decisions of its seeded self-play.
pub fn regret(teacher: &Evaluator, nets: &[&Evaluator], s: &RegretSettings) -> Vec<Regret> {
    let mut dice = SplitMix::new(s.seed ^ 0x4E67_2E7A);
    let mut moves = Box::<MoveList>::default();
    let mut losses = vec![Vec::with_capacity(s.decisions); nets.len()];
    let mut parents = crate::rollout_data::Sampler::new(teacher, s.seed, s.class);
    let mut done = 0;
    while done < s.decisions {
        let Some(parent) = parents.next() else { break };
        parent.legal_moves_into(dice.dice(), &mut moves);
        if moves.boards().len() < 2 {
            continue;
        }
        let picks: Vec<Board> = nets
            .iter()
            .map(|n| moves.boards()[n.best_move(&moves).0])
            .collect();
        let mut labels: HashMap<Board, f64> = HashMap::new();
        let wanted = ranked(teacher, &moves).into_iter().take(s.candidates);
        for a in wanted.chain(picks.iter().copied()) {
            labels
                .entry(a)
                .or_insert_with(|| teacher_value(teacher, &a, s.look));
        }
        let best = labels.values().copied().fold(f64::MIN, f64::max);
        for (loss, pick) in losses.iter_mut().zip(&picks) {
            loss.push(best - labels[pick]);
        }
        done += 1;
    }
    let first = losses.first().cloned().unwrap_or_default();
    losses
        .iter()
        .map(|l| {
            let (mean, half) = mean_interval(l);
            let diff: Vec<f64> = l.iter().zip(&first).map(|(x, y)| x - y).collect();
            Regret {
                mean,
                half,
                missed: l.iter().filter(|&&x| x > 1e-9).count(),
                versus_first: mean_interval(&diff),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RegretSettings {
        RegretSettings {
            decisions: 12,
            seed: 3,
            class: Some(NetClass::Contact),
            look: 1,
            candidates: 3,
        }
    }

    #[test]
    fn the_teacher_nets_at_one_ply_lose_what_the_look_ahead_finds() {
        let eval = Evaluator::shipped();
        let s = settings();
        let r = regret(&eval, &[&eval, &eval], &s);
        // The same nets twice: the same figures.
        assert_eq!(r[0], r[1]);
        assert!(r[0].mean >= 0.0 && r[0].missed <= 12, "{r:?}");
        // Recomputed by hand on the first decision with a choice.
        let parents = crate::rollout_data::sample(&eval, 40, s.seed, s.class);
        let mut dice = SplitMix::new(s.seed ^ 0x4E67_2E7A);
        let (parent, moves) = parents
            .iter()
            .map(|p| (p, p.legal_moves(dice.dice())))
            .find(|(_, m)| m.boards().len() >= 2)
            .unwrap();
        let order = ranked(&eval, &moves);
        let values: Vec<f64> = order[..3.min(order.len())]
            .iter()
            .map(|a| teacher_value(&eval, a, 1))
            .collect();
        let best = values.iter().copied().fold(f64::MIN, f64::max);
        let one = RegretSettings {
            decisions: 1,
            ..s.clone()
        };
        let first = regret(&eval, &[&eval], &one);
        assert!(
            (first[0].mean - (best - values[0])).abs() < 1e-9,
            "{parent:?}"
        );
    }

    #[test]
    fn an_older_generation_loses_more() {
        // Generation 0's nets (TD only) choose worse by the shipped nets'
        // look-ahead; their picks outside the candidates are labelled too.
        let eval = Evaluator::shipped();
        let worse = crate::players::gen0();
        let r = regret(&eval, &[&eval, worse], &settings());
        assert!(r[1].mean > r[0].mean, "{r:?}");
        assert_eq!(r[0].versus_first, (0.0, 0.0));
        assert!((r[1].versus_first.0 - (r[1].mean - r[0].mean)).abs() < 1e-12);
    }
}
