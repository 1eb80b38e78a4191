//! The static evaluation: a weighted sum of hand-written features, from the
//! side to move's point of view, in centi-points (hundredths of a scored wall).
//!
//! The features are counts a player would look at (walls ready in D, lone
//! checkers waiting in D, checkers still behind, how many moves each side has,
//! how soon each side can score, who holds the scoring run). The weights in
//! [`WEIGHTS`] were fitted to self-play results by `grasshopper tune` (see
//! `grasshopper-lab`'s `tune.rs` and docs/engine.md); the search never relies
//! on the evaluation for proved results, which come from game ends only.
//! Where both players have few checkers left ([`few_left`]), the weights are
//! [`WEIGHTS_FEW`], [`WEIGHTS_LATE_US`] or [`WEIGHTS_LATE_THEM`], and where
//! both have at most six left otherwise [`WEIGHTS_MID`] ([`weight_set`]),
//! fitted to the exact values of the 4- and 6-checker
//! games' retrograde tables (docs/engine-errors.md).

use grasshopper_rules::mask::{QA, QB, QC, QD};
use grasshopper_rules::{Color, Position};

/// Number of features.
pub const N_FEATURES: usize = 22;

/// Scale of the logistic model the weights are fitted in: an evaluation of
/// `K` centi-points is an expected result of about 73% for the side to move
/// (`sigmoid(eval / K)`, 1 win, 0.5 draw, 0 loss).
pub const K: i32 = 150;

/// Feature names, in the order of [`features`] and [`WEIGHTS`].
pub const NAMES: [&str; N_FEATURES] = [
    "walls_in_d",
    "lone_in_d",
    "walls_in_bc",
    "lone_in_a",
    "lone_in_b",
    "lone_in_c",
    "to_enter",
    "mobility",
    "dead_in_d",
    "score_in_1",
    "score_in_2",
    "builds_ready",
    "blocked_lone",
    "run_us",
    "run_them",
    "run_us_score_in_2",
    "run_them_score_in_2",
    "run_us_them_score_in_1",
    "run_them_us_score_in_1",
    "run_us_them_score_in_2",
    "run_them_us_score_in_2",
    "tempo",
];

/// Fitted weights (centi-points per unit of feature), used while a player
/// has more than [`FEW_LEFT`] checkers left; fitted by two rounds of
/// `grasshopper tune` on 14-checker self-play results (see docs/engine.md),
/// each round's games played with the previous round's weights:
/// 1. `--games 1500 --nodes 2000 --seed 1` from hand-set weights: 95,944
///    positions, squared error 0.2057 -> 0.1614; +280 Elo over the hand-set
///    weights (95% +181..+443; 60 games, 20,000 nodes a move);
/// 2. `--games 1500 --nodes 3000 --seed 2`: 97,030 positions, squared error
///    0.1887 -> 0.1789; +134 Elo over round 1 (95% +51..+234; same match).
///
/// The counts of checkers in each place are tied together (every player's
/// checkers add up to N), so single weights read only relative to the others.
pub const WEIGHTS: [i32; N_FEATURES] = [
    638, 223, 507, 167, 240, 243, 81, 6, 187, -121, 53, 38, -11, 502, -554, 213, -74, -300, 298,
    -119, 281, 30,
];

/// Checkers left (to enter and on the board) that both players have at most
/// where [`WEIGHTS_FEW`] replace [`WEIGHTS`]: every position of the 4-checker
/// game (see [`few_left`] for the late 6-checker phases). With 6 and no other
/// condition (the whole 6-checker game) the first fit measured -6 +- 12 Elo
/// in the 6-checker game against main's weights, its middle game unseen by
/// the fit.
pub const FEW_LEFT: u32 = 4;

/// Weights fitted to the truth (docs/engine-errors.md), for the positions
/// of [`few_left`] where nobody has scored yet (the 4-checker game before
/// its first score; [`weight_set`]). Third fit (2026-12-03), with
/// [`WEIGHTS_LATE_US`] and [`WEIGHTS_LATE_THEM`], each position fitting the
/// set that evaluates it, all three from the second fit's weights:
/// `grasshopper tune --retro n6 --checkers 6 --retro n6 --checkers 6
/// --retro n4 --checkers 4 --positions-from train6-300.moves
/// --positions-from train6-2000.moves --positions-from train4.moves
/// --exclude base6.moves --exclude base4.moves --epochs 1200` (the record
/// files: `retro-quality` games of main's engine, seeds 3, 3 and 2; the
/// commands in docs/results/engine-late-2026-12-03.md): 21,895 positions,
/// squared error 0.0200 -> 0.0120. With the three sets the 4-checker
/// game's value-losing moves at 14,400 nodes fall from 183 to 70 of 9,646,
/// the late 6-checker phases' from 42 to 30 of 8,166. The second fit (one
/// set for both grounds) made the late 6-checker errors 25 -> 15 on another
/// sample, the first the 4-checker errors 39% fewer. Used everywhere such
/// weights cost the 14-checker game about 300 Elo, so they stay where they
/// were learnt.
pub const WEIGHTS_FEW: [i32; N_FEATURES] = [
    357, 83, 193, 88, 95, 101, 80, -1, -5, -253, -6, 6, -3, 207, -105, 193, -106, -165, 86, -138,
    101, 5,
];

/// The highest level (3 x checkers to enter + checkers on the board, both
/// players) where the fitted weights also serve once somebody has scored: the
/// 6-checker game's phases after its first score up to this level are the
/// ground they were fitted on.
pub const LATE_LEVEL: u32 = 10;

/// Whether the weights fitted to the tables serve ([`weight_set`] says
/// which): both players have at most [`FEW_LEFT`]
/// checkers left, or somebody has scored, both have at most 6 left and the
/// level is at most [`LATE_LEVEL`].
#[inline(always)]
pub fn few_left(pos: &Position) -> bool {
    few_left_with(pos, most_left(pos))
}

/// The checkers left of the player with more of them.
#[inline(always)]
fn most_left(pos: &Position) -> u32 {
    pos.checkers_left(Color::White)
        .max(pos.checkers_left(Color::Black)) as u32
}

/// [`few_left`] given [`most_left`], which [`weight_set`] needs too: the
/// evaluation's hot path counts the checkers once.
#[inline(always)]
fn few_left_with(pos: &Position, most: u32) -> bool {
    let level = |c: Color| 3 * pos.to_enter(c) as u32 + pos.on_board(c) as u32;
    most <= FEW_LEFT
        || (pos.run().is_some()
            && most <= 6
            && level(Color::White) + level(Color::Black) <= LATE_LEVEL)
}

/// Weights for the positions of [`few_left`] where somebody has scored and
/// the side to move holds the run (scored last): the late phases of the
/// 6-checker game and the 4-checker game after its first score. Until
/// 2026-12-03 these positions shared [`WEIGHTS_FEW`]; fitted apart (the
/// third fit, above: 9,990 positions, squared error 0.0536 -> 0.0381 from
/// the shared weights), one set for each holder of the run (on the late
/// 6-checker phases alone, one set for both holders left 29 errors where
/// two left 25), and with the 4-checker game's scored positions in the fit
/// (fitted on the 6-checker phases alone, the late sets made the 4-checker
/// errors worse, 183 -> 204).
pub const WEIGHTS_LATE_US: [i32; N_FEATURES] = [
    443, 59, 63, -110, -10, 55, -49, 20, 10, -283, -86, 56, 15, 165, -105, 222, -106, -99, 86, -52,
    101, -36,
];

/// As [`WEIGHTS_LATE_US`] where the opponent holds the run (17,663
/// positions, squared error 0.0508 -> 0.0353).
pub const WEIGHTS_LATE_THEM: [i32; N_FEATURES] = [
    375, 64, 113, -91, 15, 66, -19, 15, -7, -1, -55, 85, 25, 207, -120, 193, -79, -165, -59, -138,
    69, -9,
];

/// Weights for the positions where both players have at most 6 checkers
/// left and [`few_left`] does not hold: the 6-checker game's middle game
/// (and the 14-checker game's last phases), which played with [`WEIGHTS`]
/// (fitted to 14-checker self-play) until the full N = 6 tables were
/// rebuilt. Fitted from [`WEIGHTS`] (2026-12-03) to the exact values of
/// 49,955 positions of whole 6-checker engine games:
/// `grasshopper tune --retro n6 --checkers 6 --positions-from train6w.moves
/// --exclude n6-main-2026-12-02.moves --fit WEIGHTS_MID --epochs 1200`
/// (the record file: `retro-quality --checkers 6 --movetimes 0` games of
/// seeds 5 and 6, docs/results/engine-whole-2026-12-03.md), squared error
/// 0.0685 -> 0.0544.
pub const WEIGHTS_MID: [i32; N_FEATURES] = [
    498, 183, 450, 219, 232, 234, 192, 0, -65, -144, -61, 43, -48, 301, -369, 213, -74, -300, 447,
    -320, 328, 15,
];

/// Checkers left that both players have at most where [`WEIGHTS_MID`]
/// serve (unless [`few_left`] picks a later set).
pub const MID_LEFT: u32 = 6;

/// Which of the fitted weight sets serves a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WeightSet {
    /// The 14-checker weights ([`WEIGHTS`] or the engine's own).
    Main,
    /// [`WEIGHTS_MID`]: at most [`MID_LEFT`] left each, not yet few.
    Mid,
    /// [`WEIGHTS_FEW`]: few checkers left, nobody has scored.
    Few,
    /// [`WEIGHTS_LATE_US`]: few checkers left, the side to move scored last.
    LateUs,
    /// [`WEIGHTS_LATE_THEM`]: few checkers left, the opponent scored last.
    LateThem,
}

impl WeightSet {
    /// The fitted sets with the names of their arrays, for `grasshopper tune`.
    pub const FITTED: [(WeightSet, &'static str); 4] = [
        (WeightSet::Mid, "WEIGHTS_MID"),
        (WeightSet::Few, "WEIGHTS_FEW"),
        (WeightSet::LateUs, "WEIGHTS_LATE_US"),
        (WeightSet::LateThem, "WEIGHTS_LATE_THEM"),
    ];

    /// The weights of a fitted set (`main` for [`WeightSet::Main`]).
    #[inline(always)]
    pub fn weights(self, main: &[i32; N_FEATURES]) -> &[i32; N_FEATURES] {
        match self {
            WeightSet::Main => main,
            WeightSet::Mid => &WEIGHTS_MID,
            WeightSet::Few => &WEIGHTS_FEW,
            WeightSet::LateUs => &WEIGHTS_LATE_US,
            WeightSet::LateThem => &WEIGHTS_LATE_THEM,
        }
    }
}

/// The weight set that evaluates `pos`: the one place that decides it, for
/// the search and for the fits of `grasshopper tune`.
#[inline(always)]
pub fn weight_set(pos: &Position) -> WeightSet {
    let most = most_left(pos);
    if !few_left_with(pos, most) {
        return if most <= MID_LEFT {
            WeightSet::Mid
        } else {
            WeightSet::Main
        };
    }
    match pos.run() {
        None => WeightSet::Few,
        Some(r) if r.color == pos.side_to_move() => WeightSet::LateUs,
        Some(_) => WeightSet::LateThem,
    }
}

/// Per-colour counts.
#[derive(Copy, Clone, Debug, Default)]
struct Side {
    walls_d: i32,
    lone_d: i32,
    walls_bc: i32,
    lone_a: i32,
    lone_b: i32,
    lone_c: i32,
    to_enter: i32,
    mobility: i32,
    dead_d: i32,
    /// Fewest own actions to score, capped at 3.
    score_in: i32,
    /// Moves that build a wall right now.
    builds: i32,
    /// Lone checkers in A-C with no move at all.
    blocked: i32,
}

/// Mask of the bits strictly above bit `i`.
#[inline(always)]
fn above(i: u32) -> u32 {
    0xFF_FFFF & !((2u32 << i) - 1)
}

fn side(pos: &Position, c: Color) -> Side {
    let lone = pos.lone_mask(c);
    let wall = pos.wall_mask(c);
    let walls = pos.wall_mask(Color::White) | pos.wall_mask(Color::Black);
    let empty = !pos.occupied() & 0xFF_FFFF;
    let to_enter = pos.to_enter(c) as i32;
    let behind = to_enter + (lone & !QD).count_ones() as i32 + 2 * (wall & !QD).count_ones() as i32;
    let lone_d = (lone & QD).count_ones() as i32;

    // Wall-building moves: a wall top onto the lone checker six ahead, or a
    // lone checker onto it with no wall in between.
    let mut builds = 0;
    let mut builds_d = 0;
    let mut blocked = 0;
    let targets6 = lone >> 6;
    let mut w = wall & targets6 & !QD;
    while w != 0 {
        let p = w.trailing_zeros();
        w &= w - 1;
        builds += 1;
        if p >= 12 {
            builds_d += 1;
        }
    }
    let mut l = lone & !QD;
    while l != 0 {
        let p = l.trailing_zeros();
        l &= l - 1;
        let ahead = walls & above(p);
        let reach = if ahead == 0 {
            0xFF_FFFF
        } else {
            (ahead & ahead.wrapping_neg()) - 1
        };
        let next = 0x3F << (6 * (p / 6 + 1));
        let six = 1u32 << (p + 6);
        if lone & six & reach != 0 {
            builds += 1;
            if p >= 12 {
                builds_d += 1;
            }
        }
        if (empty | (lone & six)) & next & reach == 0 {
            blocked += 1;
        }
    }
    let walls_d = (wall & QD).count_ones() as i32;
    let score_in = if walls_d > 0 {
        1
    } else if builds_d > 0 {
        2
    } else {
        3
    };
    Side {
        walls_d,
        lone_d,
        walls_bc: (wall & (QB | QC)).count_ones() as i32,
        lone_a: (lone & QA).count_ones() as i32,
        lone_b: (lone & QB).count_ones() as i32,
        lone_c: (lone & QC).count_ones() as i32,
        to_enter,
        mobility: pos.count_actions(c) as i32,
        dead_d: (lone_d - behind).max(0),
        score_in,
        builds,
        blocked,
    }
}

/// The linear evaluation of `pos` with `weights`, in centi-points: the
/// features' dot product with the weights.
#[inline(always)]
pub fn linear(pos: &Position, weights: &[i32; N_FEATURES]) -> i32 {
    features(pos).iter().zip(weights).map(|(f, w)| f * w).sum()
}

/// The feature vector of `pos` from the side to move's point of view.
pub fn features(pos: &Position) -> [i32; N_FEATURES] {
    let us_c = pos.side_to_move();
    let us = side(pos, us_c);
    let them = side(pos, us_c.opposite());
    let (run_us, run_them) = match pos.run() {
        Some(r) if r.count == 1 => ((r.color == us_c) as i32, (r.color != us_c) as i32),
        _ => (0, 0),
    };
    let i1 = |s: &Side| (s.score_in == 1) as i32;
    let i2 = |s: &Side| (s.score_in == 2) as i32;
    [
        us.walls_d - them.walls_d,
        us.lone_d - them.lone_d,
        us.walls_bc - them.walls_bc,
        us.lone_a - them.lone_a,
        us.lone_b - them.lone_b,
        us.lone_c - them.lone_c,
        us.to_enter - them.to_enter,
        us.mobility - them.mobility,
        us.dead_d - them.dead_d,
        i1(&us) - i1(&them),
        i2(&us) - i2(&them),
        us.builds - them.builds,
        us.blocked - them.blocked,
        run_us,
        run_them,
        run_us * i2(&us),
        run_them * i2(&them),
        run_us * i1(&them),
        run_them * i1(&us),
        run_us * i2(&them),
        run_them * i2(&us),
        1,
    ]
}

/// Reads weights written by `grasshopper tune` (`... = [w1, w2, ...];`).
pub fn parse_weights(text: &str) -> Result<[i32; N_FEATURES], WeightsError> {
    let inner = text
        .split_once('[')
        .and_then(|(_, r)| r.rsplit_once(']'))
        .map(|(l, _)| l)
        .ok_or(WeightsError::NoList)?;
    // Skip the "i32; N_FEATURES" type if the whole declaration was given.
    let inner = inner.rsplit_once('[').map_or(inner, |(_, r)| r);
    let list: Vec<i32> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i32>()
                .map_err(|_| WeightsError::NotANumber(s.to_string()))
        })
        .collect::<Result<_, _>>()?;
    list.try_into()
        .map_err(|l: Vec<i32>| WeightsError::Count(l.len()))
}

/// Why a weights file (as `tune` writes it) does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("expected a list of weights in [ ]")]
    NoList,
    #[error("\"{0}\" is not a whole number")]
    NotANumber(String),
    #[error("expected {N_FEATURES} weights, found {0}")]
    Count(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_written_by_tune_read_back() {
        let text = format!(
            "pub const WEIGHTS: [i32; N_FEATURES] = [{}];",
            WEIGHTS.map(|w| w.to_string()).join(", ")
        );
        assert_eq!(parse_weights(&text), Ok(WEIGHTS));
        assert!(parse_weights("[1, 2]")
            .unwrap_err()
            .to_string()
            .contains("found 2"));
        assert!(parse_weights("[1, x]")
            .unwrap_err()
            .to_string()
            .contains("\"x\""));
    }

    #[test]
    fn holding_the_run_counts_for_the_holder() {
        let with: Position = "....../....../....../...... w 12 12 1-1 w1"
            .parse()
            .unwrap();
        let f = features(&with);
        assert_eq!(f[13], 1, "run_us");
        assert_eq!(f[14], 0, "run_them");
    }
}
