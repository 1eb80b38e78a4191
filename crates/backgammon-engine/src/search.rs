//! Checker-play search on the evaluation: expectimax over the dice with
//! move filtering, counted in UBGI's root-inclusive plies (1 = every move
//! judged by the evaluation of its position, GNU Backgammon's 0-ply).
//!
//! - Ply 1: each move's resulting position is evaluated.
//! - Ply 2: the moves are ranked at ply 1; the best 8 within 0.16 of the
//!   best equity are judged by the average over the opponent's 21 rolls of
//!   the opponent's best reply at ply 1.
//! - Ply 3: the best 2 of those within 0.04 are judged one level deeper.
//! - Ply 4: the best 2 of those within 0.04 are judged one level deeper
//!   again, each roll's reply below it chosen among the best
//!   [`PRUNE_KEEP`] of the shipped ranking net ([`Pruner`]): unpruned,
//!   this level alone would cost 21 times ply 3. Plies 1 to 3 never prune,
//!   so a 4-ply search makes the 3-ply search's choices and then refines
//!   them.
//!
//! Inside a lookahead, each roll's reply is chosen at ply 1 and then
//! evaluated deeper (as GNU Backgammon does), so a ply costs about 21
//! times the one below it. A deadline makes the search return the best move
//! of the deepest level it completed; it is looked at inside a candidate's
//! look-ahead too (before each roll two or more rolls from its end), so a
//! 4-ply candidate, up to half a second, does not overrun it.

use crate::eval::{equity, flip, won, Evaluator, Probs};
use crate::prune::Pruner;
use backgammon_rules::{Board, Dice, MoveList, Side};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Deepest search (root-inclusive).
pub const MAX_PLY: u8 = 4;

/// The first level whose replies are pruned: its look-ahead is three rolls
/// deep, some 9,000 move lists a candidate.
pub const PRUNED_PLY: u8 = 4;

/// Moves of each reply's list the full nets judge at [`PRUNED_PLY`]: the
/// ranking net's best 4 hold the full nets' choice in 97% of contact lists
/// (docs/backgammon-training.md), at about 2.5 times the speed.
pub const PRUNE_KEEP: usize = 4;

/// Look-aheads this many rolls deep or more share their rolls among the
/// searcher's threads ([`Searcher::set_threads`]): the 4th ply's, some
/// 9,000 move lists a candidate; shallower ones are too short to pay for
/// starting threads.
pub const PARALLEL_DEPTH: u8 = 3;

/// The machine's cores: the threads a player's 4th ply shares its rolls
/// among (and a rollout its trials).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The shipped ranking net keeping [`PRUNE_KEEP`], read once.
fn pruner() -> &'static Pruner {
    static PRUNER: OnceLock<Pruner> = OnceLock::new();
    PRUNER.get_or_init(|| Pruner::shipped(PRUNE_KEEP).expect("PRUNE_KEEP is a valid keep"))
}

/// The depth players get unless told otherwise: the strongest that
/// answers within a second on a 2-core machine (3-ply: 28 ms a checker
/// play on average, 254 ms at most, over 300 benchmark positions on a
/// loaded machine; docs/results/backgammon-gen1-2026-12-02.md). 4-ply
/// answers within the second on two cores too, but no judge tells it from
/// 3-ply (docs/results/backgammon-4ply-2026-12-05.md).
pub const DEFAULT_PLY: u8 = 3;

/// The ranking a look-ahead of `depth` rolls prunes its replies by: the
/// shipped one from [`PRUNED_PLY`] on.
fn pruned(depth: u8) -> Option<&'static Pruner> {
    (depth + 1 >= PRUNED_PLY).then(pruner)
}

/// Which moves go on to the next level: at most `keep`, and only those
/// within `margin` equity of the best.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Filter {
    pub keep: usize,
    pub margin: f32,
}

/// The filters between levels: after ply 1, after ply 2, after ply 3.
pub const FILTERS: [Filter; 3] = [
    Filter {
        keep: 8,
        margin: 0.16,
    },
    Filter {
        keep: 2,
        margin: 0.04,
    },
    Filter {
        keep: 2,
        margin: 0.04,
    },
];

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Index of the chosen move in the list generated for the position.
    pub index: usize,
    /// Its chances (mover's side) at the deepest level searched.
    pub probs: Probs,
    /// That level (root-inclusive plies).
    pub ply: u8,
    /// Positions evaluated.
    pub evals: u64,
}

/// The weight of a roll among the 36.
#[inline(always)]
pub fn weight(dice: Dice) -> f32 {
    if dice.is_double() {
        1.0 / 36.0
    } else {
        2.0 / 36.0
    }
}

/// A searcher: the evaluator and its move lists (one per look-ahead depth).
pub struct Searcher<'a> {
    eval: &'a Evaluator,
    lists: Vec<Box<MoveList>>,
    evals: u64,
    /// Threads of the look-aheads [`PARALLEL_DEPTH`] rolls deep.
    threads: usize,
    /// The running [`Searcher::choose`]'s deadline, if it has one.
    deadline: Option<Instant>,
    /// Set when a look-ahead met the deadline: its value is unfinished.
    expired: bool,
}

impl<'a> Searcher<'a> {
    /// A searcher on one thread.
    pub fn new(eval: &'a Evaluator) -> Searcher<'a> {
        Searcher {
            eval,
            // Made as the look-aheads reach each depth (`roll_value`):
            // a searcher that only chooses, or a thread's, needs few.
            lists: Vec::new(),
            evals: 0,
            threads: 1,
            deadline: None,
            expired: false,
        }
    }

    /// Shares the deepest look-aheads among `threads` threads: the same
    /// values, sooner.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Positions evaluated so far (with those a pruned level only ranked).
    pub fn evals(&self) -> u64 {
        self.evals
    }

    /// The mover's chances after moving to `after` (still seen from the
    /// mover), looking `depth` rolls ahead: a level of a search of
    /// `depth + 1` plies, pruned from [`PRUNED_PLY`] on.
    pub fn after_value(&mut self, after: &Board, depth: u8) -> Probs {
        self.after_look(after, depth, pruned(depth))
    }

    /// The chances of the player on roll of `board` before rolling,
    /// looking `depth` rolls ahead (0: the evaluation): the value a search
    /// of `depth + 1` plies gives it, each roll's reply pruned when that is
    /// [`PRUNED_PLY`] or more.
    pub fn position_value(&mut self, board: &Board, depth: u8) -> Probs {
        self.look_ahead(board, depth, pruned(depth))
    }

    /// [`Searcher::after_value`] pruned as `prune` says.
    fn after_look(&mut self, after: &Board, depth: u8, prune: Option<&Pruner>) -> Probs {
        if after.has_won(Side::OnRoll) {
            return won(after);
        }
        flip(&self.look_ahead(&after.swapped(), depth, prune))
    }

    /// The cubeless chances of the player on roll of `board` looked `depth`
    /// rolls ahead: averaged over the 21 rolls, each played by the 1-ply
    /// choice ([`Evaluator::best_move`], or [`Evaluator::best_move_pruned`]
    /// when `prune` is given, at every level), and so on, the positions
    /// reached evaluated by the nets (0 rolls: [`Evaluator::evaluate`]; 1: a
    /// 2-ply look; 2: a 3-ply look, 441 plays). The search's values, and the
    /// labels of `rollout-data generate --look`.
    pub fn look_ahead(&mut self, board: &Board, depth: u8, prune: Option<&Pruner>) -> Probs {
        if depth == 0 {
            self.evals += 1;
            return self.eval.evaluate(board);
        }
        // Summed in the rolls' order whatever the threads: the same bits.
        let mut acc = [0.0f32; 5];
        if depth >= PARALLEL_DEPTH && self.threads > 1 {
            let values = self.roll_values_on_threads(board, depth, prune);
            for (dice, p) in Dice::all().zip(values) {
                add_weighted(&mut acc, dice, &p);
            }
        } else {
            for dice in Dice::all() {
                let p = self.roll_value(board, dice, depth, prune);
                add_weighted(&mut acc, dice, &p);
            }
        }
        acc
    }

    /// The value for the player on roll of `board` of rolling `dice`: the
    /// 1-ply choice's position, looked `depth - 1` rolls further.
    fn roll_value(
        &mut self,
        board: &Board,
        dice: Dice,
        depth: u8,
        prune: Option<&Pruner>,
    ) -> Probs {
        if depth >= 2 && self.out_of_time() {
            return [0.0; 5];
        }
        if self.lists.len() <= depth as usize {
            self.lists.resize_with(depth as usize + 1, Box::default);
        }
        let mut list = std::mem::take(&mut self.lists[depth as usize]);
        board.legal_moves_into(dice, &mut list);
        self.evals += list.len() as u64;
        let (i, p) = match prune {
            Some(pruner) => self.eval.best_move_pruned(&list, pruner),
            None => self.eval.best_move(&list),
        };
        let p = if depth > 1 {
            self.after_look(&list.boards()[i], depth - 1, prune)
        } else {
            p
        };
        self.lists[depth as usize] = list;
        p
    }

    /// Whether the deadline has passed (and so the look-ahead under way is
    /// abandoned): looked up before rolls two or more from a look's end,
    /// each some milliseconds of work, so the clock costs nothing.
    fn out_of_time(&mut self) -> bool {
        if !self.expired && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.expired = true;
        }
        self.expired
    }

    /// The 21 rolls' values of [`Searcher::roll_value`], shared out among
    /// the searcher's threads (each takes the next roll not yet taken).
    fn roll_values_on_threads(
        &mut self,
        board: &Board,
        depth: u8,
        prune: Option<&Pruner>,
    ) -> Vec<Probs> {
        let rolls: Vec<Dice> = Dice::all().collect();
        let next = AtomicUsize::new(0);
        let eval = self.eval;
        let deadline = self.deadline;
        let parts: Vec<(RollValues, u64, bool)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads.min(rolls.len()))
                .map(|_| {
                    scope.spawn(|| {
                        let mut s = Searcher::new(eval);
                        s.deadline = deadline;
                        let mut done = Vec::new();
                        loop {
                            let r = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&dice) = rolls.get(r) else { break };
                            done.push((r, s.roll_value(board, dice, depth, prune)));
                        }
                        (done, s.evals, s.expired)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a search thread panicked"))
                .collect()
        });
        let mut values = vec![[0.0f32; 5]; rolls.len()];
        for (done, evals, expired) in parts {
            self.evals += evals;
            self.expired |= expired;
            for (r, p) in done {
                values[r] = p;
            }
        }
        values
    }

    /// The best move of `board` with `dice`, searched to `plies`
    /// (1..=[`MAX_PLY`]), abandoning the level under way at `deadline`. `moves` receives
    /// the legal moves, which the choice indexes.
    pub fn choose(
        &mut self,
        board: &Board,
        dice: Dice,
        plies: u8,
        deadline: Option<Instant>,
        moves: &mut MoveList,
    ) -> Choice {
        let start = self.evals;
        (self.deadline, self.expired) = (deadline, false);
        board.legal_moves_into(dice, moves);
        let mut scored: Vec<(usize, Probs, f32)> = moves
            .boards()
            .iter()
            .enumerate()
            .map(|(i, after)| {
                let p = self.eval.after_move(after);
                (i, p, equity(&p))
            })
            .collect();
        self.evals += moves.len() as u64;
        let mut ply = 1;
        sort(&mut scored);
        while ply < plies.min(MAX_PLY) && scored.len() > 1 {
            let f = FILTERS[(ply - 1) as usize];
            let best = scored[0].2;
            scored.retain(|s| s.2 >= best - f.margin);
            scored.truncate(f.keep);
            if scored.len() == 1 {
                break;
            }
            let mut deeper = Vec::with_capacity(scored.len());
            for &(i, _, _) in &scored {
                if self.out_of_time() {
                    break;
                }
                let after = moves.boards()[i];
                let p = self.after_value(&after, ply);
                if self.expired {
                    break;
                }
                deeper.push((i, p, equity(&p)));
            }
            if deeper.len() < scored.len() {
                break;
            }
            scored = deeper;
            sort(&mut scored);
            ply += 1;
        }
        // The deadline was this choice's: later look-aheads (the cube's,
        // a label's) run to the end.
        (self.deadline, self.expired) = (None, false);
        Choice {
            index: scored[0].0,
            probs: scored[0].1,
            ply,
            evals: self.evals - start,
        }
    }
}

/// A thread's share of a look-ahead's rolls: each roll's index and value.
type RollValues = Vec<(usize, Probs)>;

/// Adds the chances `p` of rolling `dice`, weighted by the roll's share of
/// the 36, to `acc`.
#[inline(always)]
fn add_weighted(acc: &mut Probs, dice: Dice, p: &Probs) {
    let w = weight(dice);
    for k in 0..5 {
        acc[k] += w * p[k];
    }
}

/// Best equity first; equal equities keep generation order.
fn sort(v: &mut [(usize, Probs, f32)]) {
    v.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_plies_agree_with_one_ply_on_forced_and_winning_moves() {
        let eval = Evaluator::shipped();
        let mut s = Searcher::new(&eval);
        let mut moves = Box::<MoveList>::default();
        // A bear-off win: every ply takes the last checkers off.
        let mut me = [0u8; 25];
        me[0] = 2;
        let mut them = [0u8; 25];
        them[5] = 15;
        let b = Board::from_counts(&me, &them).unwrap();
        for plies in 1..=MAX_PLY {
            let c = s.choose(&b, Dice::new(2, 1).unwrap(), plies, None, &mut moves);
            assert!(moves.boards()[c.index].has_won(Side::OnRoll));
            assert_eq!(c.probs[0], 1.0);
        }
        // From the start, ply 2 searches the rolls whose moves are close
        // (a clear best move ends the search at ply 1) and counts its
        // evaluations: 21 rolls of replies per candidate move.
        let deep: Vec<Choice> = Dice::all()
            .filter_map(|d| {
                let c = s.choose(&Board::START, d, 2, None, &mut moves);
                (c.ply == 2).then_some(c)
            })
            .collect();
        assert!(!deep.is_empty(), "no opening roll has two candidate moves");
        assert!(deep.iter().all(|c| c.evals > 2 * 21), "{deep:?}");
        // An expired deadline stops at ply 1.
        let c = s.choose(
            &Board::START,
            Dice::new(3, 1).unwrap(),
            3,
            Some(Instant::now()),
            &mut moves,
        );
        assert_eq!(c.ply, 1);
    }

    #[test]
    fn a_passed_deadline_abandons_a_look_ahead_and_ends_with_its_choice() {
        let eval = Evaluator::shipped();
        let board = Board::from_position_id("4HPwATDgc/ABMA").unwrap();
        let past = Some(Instant::now());
        for threads in [1, 3] {
            let mut s = Searcher::new(&eval);
            s.set_threads(threads);
            s.deadline = past;
            // Every roll of a look two or more rolls deep waits on the clock.
            s.look_ahead(&board, 3, None);
            assert!(s.expired, "{threads} threads");
            assert_eq!(s.evals(), 0, "{threads} threads");
        }
        // A choice's deadline ends with it: the look-aheads after it (the
        // cube's, a label's) run to the end, whatever stopped the choice.
        let mut s = Searcher::new(&eval);
        let mut moves = Box::<MoveList>::default();
        let c = s.choose(&board, Dice::new(3, 1).unwrap(), 4, past, &mut moves);
        assert_eq!(c.ply, 1);
        assert_eq!(
            s.position_value(&board, 2),
            Searcher::new(&eval).look_ahead(&board, 2, None)
        );
        // The 1-roll look at a candidate never looks at the clock: a 2-ply
        // search always finishes the candidate it has begun.
        s.deadline = past;
        s.look_ahead(&board, 1, None);
        assert!(!s.expired);
    }

    #[test]
    fn four_plies_judge_the_three_ply_survivors_with_pruned_replies() {
        let eval = Evaluator::shipped();
        let mut s = Searcher::new(&eval);
        let mut moves = Box::<MoveList>::default();
        let pruner = Pruner::shipped(PRUNE_KEEP).unwrap();
        let mut deepened = 0;
        let boards =
            ["4HPwATDgc/ABMA", "sOfIAQawM3gAVg"].map(|id| Board::from_position_id(id).unwrap());
        for (board, dice) in boards.iter().flat_map(|b| Dice::all().map(move |d| (b, d))) {
            let three = s.choose(board, dice, 3, None, &mut moves);
            let four = s.choose(board, dice, 4, None, &mut moves);
            let id = format!("{} {dice}", board.position_id());
            if three.ply < 3 {
                // A clear choice at a lower level ends both searches there.
                assert_eq!((four.index, four.ply), (three.index, three.ply), "{id}");
                continue;
            }
            assert_eq!(four.ply, 4, "{id}");
            // The 4th ply's value: three rolls ahead, every reply pruned.
            let after = moves.boards()[four.index];
            let pruned = flip(&Searcher::new(&eval).look_ahead(&after.swapped(), 3, Some(&pruner)));
            assert_eq!(four.probs, pruned, "{id}");
            // ... and close to the unpruned look's (the ranking's best 4
            // hold nearly every reply the full nets would choose).
            let whole = flip(&Searcher::new(&eval).look_ahead(&after.swapped(), 3, None));
            let gap = (equity(&whole) - equity(&pruned)).abs();
            assert!(gap < 0.01, "{id}: pruned {pruned:?} whole {whole:?}");
            deepened += 1;
            if deepened == 2 {
                break;
            }
        }
        assert_eq!(deepened, 2, "fewer than two decisions reached the 4th ply");
        // The cube's chances at 4 plies are the pruned look too.
        let board = Board::from_position_id("4HPwATDgc/ABMA").unwrap();
        let value = s.position_value(&board, 3);
        assert_eq!(
            value,
            Searcher::new(&eval).look_ahead(&board, 3, Some(&pruner))
        );
        // Threads share the rolls and give the same bits and count.
        let mut threaded = Searcher::new(&eval);
        threaded.set_threads(3);
        let before = s.evals();
        s.position_value(&board, 3);
        assert_eq!(threaded.position_value(&board, 3), value);
        assert_eq!(threaded.evals(), s.evals() - before);
        assert_eq!(
            s.position_value(&board, 2),
            Searcher::new(&eval).look_ahead(&board, 2, None)
        );
    }
}
