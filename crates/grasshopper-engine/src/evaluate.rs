//! The evaluation the search reads: the networks where they serve (the
//! middle game, the late phases: [`crate::midnet`]), the linear weight
//! sets of [`crate::eval`] elsewhere. Its own module so that the
//! features and the nets built on them do not depend on each other.

use crate::eval::{linear, weight_set, N_FEATURES};
use crate::midnet::net_for;
use grasshopper_rules::Position;

/// The evaluation of `pos` for the side to move with the given weights
/// (the sets fitted to the tables instead when both players have few
/// checkers left: [`weight_set`]), in centi-points.
pub(crate) fn evaluate_with(pos: &Position, weights: &[i32; N_FEATURES]) -> i32 {
    let set = weight_set(pos);
    match net_for(set) {
        Some(net) => net.evaluate(pos),
        None => linear(pos, set.weights(weights)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{
        features, few_left, linear as dot, WeightSet, WEIGHTS, WEIGHTS_FEW, WEIGHTS_LATE_THEM,
        WEIGHTS_MID,
    };

    #[test]
    fn a_position_and_its_colour_mirror_evaluate_alike() {
        // The same board with colours and the side to move swapped.
        let a: Position = "w.b.../w...b./....../Wb.... w 8 9 0-0 -".parse().unwrap();
        let b: Position = "b.w.../b...w./....../Bw.... b 9 8 0-0 -".parse().unwrap();
        assert_eq!(features(&a), features(&b));
        assert_eq!(evaluate_with(&a, &WEIGHTS), evaluate_with(&b, &WEIGHTS));
    }

    #[test]
    fn the_weights_fitted_to_the_tables_serve_where_both_have_few_checkers_left() {
        // Four checkers left each (to enter and on the board): the 4-checker
        // game, and the late phases of the 6-checker one.
        let few: Position = "w.b.../w...b./....../Wb.... w 0 1 0-0 -".parse().unwrap();
        assert!(few_left(&few));
        assert_eq!(evaluate_with(&few, &WEIGHTS), dot(&few, &WEIGHTS_FEW));
        // Six left each: the 6-checker game before anybody scores, the
        // middle game's set, which the shipped network evaluates.
        let more: Position = "w.b.../w...b./....../Wb.... w 2 3 0-0 -".parse().unwrap();
        assert!(!few_left(&more));
        assert_eq!(weight_set(&more), WeightSet::Mid);
        let net = crate::midnet::mid_net().expect("the middle game's net ships");
        assert_eq!(evaluate_with(&more, &WEIGHTS), net.evaluate(&more));
        assert_ne!(evaluate_with(&more, &WEIGHTS), dot(&more, &WEIGHTS_MID));
        // Fourteen each: the 14-checker game's net, whatever the engine's
        // weights are.
        let main: Position = "w.b.../w...b./....../Wb.... w 10 11 0-0 -".parse().unwrap();
        assert_eq!(weight_set(&main), WeightSet::Main);
        let mine = [7; N_FEATURES];
        let big = crate::midnet::net_for(WeightSet::Main).expect("the 14-checker net ships");
        assert_eq!(evaluate_with(&main, &mine), big.evaluate(&main));
        assert_ne!(evaluate_with(&main, &mine), dot(&main, &mine));
        assert_ne!(evaluate_with(&main, &WEIGHTS), dot(&main, &WEIGHTS));
        assert_ne!(dot(&few, &WEIGHTS), dot(&few, &WEIGHTS_FEW));
        // Black has scored once: White's six on the board against four
        // (level 10), a phase the late sets were fitted on, which the
        // shipped late net evaluates for either side.
        let scored: Position = "ww.b../w...b./.b.w../Wb.... w 0 0 0-1 b1".parse().unwrap();
        assert!(few_left(&scored));
        assert_eq!(weight_set(&scored), WeightSet::LateThem);
        let late = crate::midnet::late_net().expect("the late phases' net ships");
        assert_eq!(evaluate_with(&scored, &WEIGHTS), late.evaluate(&scored));
        assert_ne!(
            evaluate_with(&scored, &WEIGHTS),
            dot(&scored, &WEIGHTS_LATE_THEM)
        );
        let ours: Position = "ww.b../w...b./.b.w../Wb.... b 0 0 0-1 b1".parse().unwrap();
        assert_eq!(weight_set(&ours), WeightSet::LateUs);
        assert_eq!(evaluate_with(&ours, &WEIGHTS), late.evaluate(&ours));
        assert_eq!(weight_set(&few), WeightSet::Few);
        // The same score with checkers still to enter (level 20): not.
        let early: Position = "ww.b../w....b/....../...... w 3 2 0-1 b1".parse().unwrap();
        assert!(!few_left(&early));
        assert_eq!(weight_set(&early), WeightSet::Mid);
    }
}
