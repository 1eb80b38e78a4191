//! Test and benchmark support: a small seeded random generator and sources
//! of (position, dice) pairs, from random games and from random legal boards
//! of the kinds where the rules have corners (the bar, closed boards, primes,
//! bearing off).
#![allow(dead_code)]

use backgammon_rules::{Board, Dice, RollDice, SplitMix};

/// The rules crate's seeded generator, with the `u64` ranges and
/// percentages the tests ask for.
pub struct Rng(SplitMix);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix::new(seed))
    }

    /// Uniform in 0..n (0 < n < 2^32).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.below(n as u32) as u64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn dice(&mut self) -> Dice {
        self.0.dice()
    }
}

/// The (board, dice) pairs met in `games` random games from the start
/// (random rolls, uniformly random legal moves), and at each position one
/// more random roll.
pub fn game_pairs(rng: &mut Rng, games: usize) -> Vec<(Board, Dice)> {
    let mut out = Vec::new();
    let mut moves = backgammon_rules::MoveList::new();
    for _ in 0..games {
        let mut board = Board::START;
        loop {
            let dice = rng.dice();
            out.push((board, dice));
            out.push((board, rng.dice()));
            board.legal_moves_into(dice, &mut moves);
            let pick = rng.below(moves.len() as u64) as usize;
            let next = moves.boards()[pick];
            if next.off(backgammon_rules::Side::OnRoll) == 15 {
                break;
            }
            board = next.swapped();
        }
    }
    out
}

/// The kinds of random board [`random_board`] makes.
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    /// Checkers anywhere, some on the bar, some off.
    Anywhere,
    /// The mover has checkers on the bar against a home board with many points made.
    Closed,
    /// The opponent holds a run of points in front of the mover's checkers.
    Prime,
    /// The mover has everything home (some off); the opponent may have blots there.
    BearOff,
    /// The mover has one to four checkers left.
    LastCheckers,
}

pub const KINDS: [Kind; 5] = [
    Kind::Anywhere,
    Kind::Closed,
    Kind::Prime,
    Kind::BearOff,
    Kind::LastCheckers,
];

/// Puts `n` checkers on random slots (index 0..=23 points 1..=24, 24 the bar)
/// drawn from `slots`, avoiding the other side's points given in `avoid`
/// (indices already in this side's numbering).
fn scatter(rng: &mut Rng, counts: &mut [u8; 25], n: usize, slots: &[usize], avoid: &[bool; 25]) {
    let open: Vec<usize> = slots.iter().copied().filter(|&s| !avoid[s]).collect();
    if open.is_empty() {
        return;
    }
    for _ in 0..n {
        let s = open[rng.below(open.len() as u64) as usize];
        counts[s] += 1;
    }
}

/// The mask of slots of the other side, in `side`'s numbering.
fn taken(other: &[u8; 25]) -> [bool; 25] {
    let mut t = [false; 25];
    for i in 0..24 {
        t[23 - i] = other[i] > 0;
    }
    t
}

/// A random legal board of the given kind; neither side has borne off all
/// its checkers.
pub fn random_board(rng: &mut Rng, kind: Kind) -> Board {
    loop {
        let mut me = [0u8; 25];
        let mut opp = [0u8; 25];
        let all: Vec<usize> = (0..25).collect();
        let points: Vec<usize> = (0..24).collect();
        match kind {
            Kind::Anywhere => {
                let n = 15 - rng.below(6) as usize;
                scatter(rng, &mut opp, n, &all, &[false; 25]);
                let n = 15 - rng.below(6) as usize;
                scatter(rng, &mut me, n, &all, &taken(&opp));
            }
            Kind::Closed => {
                // Their home board is my 19..=24: make 4 to 6 points there.
                for _ in 0..4 + rng.below(3) {
                    opp[rng.below(6) as usize] = 2 + rng.below(2) as u8;
                }
                let used: u8 = opp.iter().sum();
                if used > 15 {
                    continue;
                }
                scatter(rng, &mut opp, 15 - used as usize, &points, &[false; 25]);
                me[24] = 1 + rng.below(3) as u8;
                let n = 14 - me[24] as usize - rng.below(4) as usize;
                scatter(rng, &mut me, n, &points, &taken(&opp));
            }
            Kind::Prime => {
                // Their points 7..=12 or so are my 13..=18: a run of 4-6.
                let start = 2 + rng.below(14) as usize;
                let end = (start + 4 + rng.below(3) as usize).min(24);
                opp[start..end].fill(2);
                let used: u8 = opp.iter().sum();
                if used > 15 {
                    continue;
                }
                scatter(rng, &mut opp, 15 - used as usize, &points, &[false; 25]);
                // Mine behind their prime: my points above 25 - (start + 1).
                let behind: Vec<usize> = (24 - start..25).collect();
                let n = 6 + rng.below(9) as usize;
                scatter(rng, &mut me, n, &behind, &taken(&opp));
                let rest = rng.below(16 - n as u64) as usize;
                scatter(rng, &mut me, rest, &points, &taken(&opp));
            }
            Kind::BearOff => {
                let n = 15 - rng.below(6) as usize;
                scatter(rng, &mut opp, n, &all, &[false; 25]);
                let home: Vec<usize> = (0..6).collect();
                let n = 1 + rng.below(15) as usize;
                scatter(rng, &mut me, n, &home, &taken(&opp));
            }
            Kind::LastCheckers => {
                let n = 10 + rng.below(6) as usize;
                scatter(rng, &mut opp, n, &all, &[false; 25]);
                let near: Vec<usize> = (0..9).collect();
                let n = 1 + rng.below(4) as usize;
                scatter(rng, &mut me, n, &near, &taken(&opp));
            }
        }
        if me.iter().sum::<u8>() == 0 || opp.iter().sum::<u8>() == 0 {
            continue;
        }
        if let Ok(board) = Board::from_counts(&me, &opp) {
            return board;
        }
    }
}

/// `n` (board, dice) pairs from random boards, cycling through the kinds.
pub fn board_pairs(rng: &mut Rng, n: usize) -> Vec<(Board, Dice)> {
    (0..n)
        .map(|i| (random_board(rng, KINDS[i % KINDS.len()]), rng.dice()))
        .collect()
}
