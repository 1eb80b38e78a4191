//! Move pruning: a small net ranks a roll's moves and the full nets judge
//! only the best few. A look-ahead spends nearly all its time choosing
//! each roll's reply at 1-ply (a 3-ply label evaluates some 9,000
//! positions to average 441 of them); a net a fifteenth the size of the
//! contact net finds the full nets' choice among its best few almost
//! always. GNU Backgammon's pruning nets do the same job; this
//! one is fitted by `rollout-data fit --contact-fresh` like any contact
//! net.

use crate::eval::{classify, equity, flip, net_inputs, sane, Class, Evaluator, Probs};
use crate::features::CONTACT_INPUTS;
use crate::net::Net;
use backgammon_rules::{Board, MoveList, Side};

/// Most moves a [`Pruner`] hands on to the full nets.
pub const MAX_KEEP: usize = 16;

/// The ranking net and how many of its best moves the full nets judge.
#[derive(Clone, Debug)]
pub struct Pruner {
    /// Ranks positions the contact or crashed net would judge (it reads
    /// the contact net's inputs).
    net: Net,
    /// Moves of the contact and crashed classes the full nets judge.
    keep: usize,
}

/// Why a net cannot prune.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrunerError {
    #[error("keep {0}: expected 1 to {MAX_KEEP} moves")]
    Keep(usize),
    #[error("the pruning net reads {0} inputs: expected a contact net's")]
    Inputs(usize),
}

/// The shipped ranking net (`data/prune.net`): 32 hidden units over the
/// contact net's inputs, fitted to every contact label of generations 7 to
/// 12 (docs/backgammon-training.md says how).
static PRUNE_NET: &[u8] = include_bytes!("../data/prune.net");

impl Pruner {
    /// The shipped ranking net, keeping `keep` moves.
    pub fn shipped(keep: usize) -> Result<Pruner, PrunerError> {
        let net = Net::from_bytes(PRUNE_NET, &crate::features::CONTACT_WIDTHS)
            .expect("the shipped pruning net reads");
        Pruner::new(net, keep)
    }

    /// A digest of the ranking net (FNV-1a of its file's bytes): names it
    /// where labels depend on it.
    pub fn digest(&self) -> u64 {
        fnv1a::fnv1a(&self.net.to_bytes())
    }

    /// A pruner keeping `keep` moves (1 to [`MAX_KEEP`]); `net` must read
    /// the contact net's inputs.
    pub fn new(net: Net, keep: usize) -> Result<Pruner, PrunerError> {
        if !(1..=MAX_KEEP).contains(&keep) {
            return Err(PrunerError::Keep(keep));
        }
        if !crate::features::CONTACT_WIDTHS.contains(&net.inputs()) {
            return Err(PrunerError::Inputs(net.inputs()));
        }
        Ok(Pruner { net, keep })
    }

    /// Moves the full nets judge.
    pub fn keep(&self) -> usize {
        self.keep
    }

    /// The mover's equity after moving to `after` by the ranking net, or
    /// `None` where the position after is not the contact or crashed
    /// nets' (a race, a bear-off or the game won: the full evaluation is
    /// cheap or exact there).
    fn rank(&self, after: &Board) -> Option<f32> {
        if after.has_won(Side::OnRoll) {
            return None;
        }
        let next = after.swapped();
        let class = classify(&next);
        if !matches!(class, Class::Contact | Class::Crashed) {
            return None;
        }
        let mut x = [0.0f32; CONTACT_INPUTS];
        let p = self
            .net
            .forward(net_inputs(class, &next, &mut x, self.net.inputs()));
        Some(equity(&flip(&sane(p))))
    }
}

/// The `keep` highest ranks seen so far, best first; an equal rank does
/// not displace an earlier move (as [`Evaluator::best_move`] keeps the
/// first of equal equities).
struct Top {
    moves: [(f32, usize); MAX_KEEP],
    len: usize,
    keep: usize,
}

impl Top {
    fn new(keep: usize) -> Top {
        Top {
            moves: [(f32::NEG_INFINITY, 0); MAX_KEEP],
            len: 0,
            keep,
        }
    }

    fn offer(&mut self, rank: f32, index: usize) {
        if self.len == self.keep && rank <= self.moves[self.len - 1].0 {
            return;
        }
        let mut at = self.len.min(self.keep - 1);
        self.len = (self.len + 1).min(self.keep);
        while at > 0 && self.moves[at - 1].0 < rank {
            self.moves[at] = self.moves[at - 1];
            at -= 1;
        }
        self.moves[at] = (rank, index);
    }
}

impl Evaluator {
    /// [`Evaluator::best_move`] with `pruner`'s ranking: the moves to a
    /// contact or crashed position are ranked by its net and only its
    /// best `keep` are judged by the full nets, with every move to a race,
    /// a bear-off or a win (judged exactly or cheaply). The same answer
    /// whenever the full nets' choice is among the ranking's best.
    pub fn best_move_pruned(&self, moves: &MoveList, pruner: &Pruner) -> (usize, Probs) {
        if moves.len() <= pruner.keep {
            return self.best_move(moves);
        }
        let boards = moves.boards();
        let mut top = Top::new(pruner.keep);
        let mut best = (f32::NEG_INFINITY, 0usize, [0.0; 5]);
        // Equal equities keep the earlier move, as best_move's scan does.
        let mut judge = |i: usize| {
            let p = self.after_move(&boards[i]);
            let e = equity(&p);
            if e > best.0 || (e == best.0 && i < best.1) {
                best = (e, i, p);
            }
        };
        for (i, after) in boards.iter().enumerate() {
            match pruner.rank(after) {
                Some(rank) => top.offer(rank, i),
                None => judge(i),
            }
        }
        for &(_, i) in &top.moves[..top.len] {
            judge(i);
        }
        (best.1, best.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_keeps_the_best_first_and_the_earlier_of_equals() {
        let mut top = Top::new(3);
        for (rank, i) in [(0.1, 0), (0.5, 1), (0.3, 2), (0.5, 3), (0.2, 4), (0.9, 5)] {
            top.offer(rank, i);
        }
        assert_eq!(top.len, 3);
        assert_eq!(top.moves[..3], [(0.9, 5), (0.5, 1), (0.5, 3)]);
        let mut one = Top::new(1);
        for (rank, i) in [(0.4, 0), (0.4, 1), (0.2, 2)] {
            one.offer(rank, i);
        }
        assert_eq!(one.moves[..1], [(0.4, 0)]);
    }

    /// Lists of legal moves along seeded self-play games of the nets at
    /// 1-ply, up to the race.
    fn lists(eval: &Evaluator, n: usize) -> Vec<MoveList> {
        let mut rng = backgammon_rules::SplitMix::new(9);
        let all: Vec<backgammon_rules::Dice> = backgammon_rules::Dice::all().collect();
        let mut board = backgammon_rules::Board::START;
        let mut out = Vec::new();
        while out.len() < n {
            let moves = board.legal_moves(all[rng.below(21) as usize]);
            if moves.is_empty() {
                board = board.swapped();
                continue;
            }
            let next = moves.boards()[eval.best_move(&moves).0];
            out.push(moves);
            board = if next.has_won(Side::OnRoll) || classify(&next.swapped()) == Class::Race {
                backgammon_rules::Board::START
            } else {
                next.swapped()
            };
        }
        out
    }

    #[test]
    fn ranked_by_the_contact_net_itself_one_move_kept_is_the_full_choice() {
        let eval = Evaluator::shipped();
        let pruner = Pruner::new(eval.contact.clone(), 1).unwrap();
        let contact_only = |m: &MoveList| {
            m.boards()
                .iter()
                .all(|b| !b.has_won(Side::OnRoll) && classify(&b.swapped()) == Class::Contact)
        };
        let checked: Vec<MoveList> = lists(&eval, 300).into_iter().filter(contact_only).collect();
        assert!(checked.len() > 100, "{} lists", checked.len());
        for m in &checked {
            assert_eq!(eval.best_move_pruned(m, &pruner), eval.best_move(m));
        }
    }

    #[test]
    fn the_shipped_pruner_keeping_four_finds_the_full_choice_almost_always() {
        // Measured: 97% of contact lists (docs/backgammon-training.md); a
        // ranking that had lost its sign or its side would fall far below.
        let eval = Evaluator::shipped();
        let pruner = Pruner::shipped(4).unwrap();
        let all = lists(&eval, 400);
        let long: Vec<&MoveList> = all.iter().filter(|m| m.len() > 4).collect();
        let same = long
            .iter()
            .filter(|m| eval.best_move_pruned(m, &pruner).0 == eval.best_move(m).0)
            .count();
        assert!(same * 10 >= long.len() * 9, "{same} of {}", long.len());
        // A list no longer than the kept moves is judged whole.
        for m in all.iter().filter(|m| m.len() <= 4) {
            assert_eq!(eval.best_move_pruned(m, &pruner), eval.best_move(m));
        }
    }

    #[test]
    fn a_pruner_refuses_a_keep_it_cannot_hold_and_a_race_net() {
        let contact = Evaluator::shipped().contact.clone();
        assert_eq!(
            Pruner::new(contact.clone(), 0).unwrap_err(),
            PrunerError::Keep(0)
        );
        assert_eq!(
            Pruner::new(contact, MAX_KEEP + 1).unwrap_err(),
            PrunerError::Keep(MAX_KEEP + 1)
        );
        let race = Evaluator::shipped().race.clone();
        assert!(matches!(Pruner::new(race, 4), Err(PrunerError::Inputs(_))));
    }
}
