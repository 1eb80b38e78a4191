//! The middle game's small network: where both players have at most
//! [`crate::eval::MID_LEFT`] checkers left and the late sets do not serve
//! ([`crate::eval::WeightSet::Mid`]), an evaluation fitted to the exact
//! values of the 6-checker tables (through truth files: `grasshopper tune
//! --truth FILE --checkers 6 --mid-net-out OUT`); the shipped one is
//! `data/mid.net`, fitted as docs/results/engine-midnet-2026-12-04.md says).
//!
//! The net is the linear evaluation plus a correction: its output (in the
//! logistic units of the fits, an evaluation of [`crate::eval::K`]
//! centi-points a unit) is a linear term over the hand-written features,
//! which starts as [`crate::eval::WEIGHTS_MID`], plus a hidden layer of
//! clipped-linear units over a raw description of the board (each point's
//! lone checker or wall of either side, checkers to enter, who holds the
//! run) and the same features; the hidden units start with no weight to the
//! output, so a fresh net evaluates as `WEIGHTS_MID` does until training
//! gives them a part.
//!
//! The same kind of net serves the late phases ([`NetRole::Late`]: few
//! checkers left each and somebody has scored, where
//! [`crate::eval::WEIGHTS_LATE_US`] and [`crate::eval::WEIGHTS_LATE_THEM`]
//! serve without one), fitted with `--late-net-out`; the shipped one is
//! `data/late.net` (empty: none). And the 14-checker game
//! ([`NetRole::Main`]: more than six checkers left, where no table
//! reaches), fitted to the scores of its own self-play searches
//! (`grasshopper distill fit`); the shipped one is `data/main.net`.
//!
//! Its text form (`# grasshopper mid net`, then one line of sizes and one
//! line per weight array) round-trips exactly.

use crate::eval::{features, WeightSet, K, N_FEATURES, WEIGHTS, WEIGHTS_LATE_THEM, WEIGHTS_MID};
use grasshopper_rules::{Color, Position};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Binary inputs: four per point (our lone checker, our wall, theirs), our
/// and their checkers to enter (0 to 6, one-hot each), and the run (nobody,
/// us, them).
pub const BOARD_INPUTS: usize = 4 * 24 + 2 * 7 + 3;
/// Inputs of the hidden layer: the board's and the features'.
pub const INPUTS: usize = BOARD_INPUTS + N_FEATURES;
/// Most binary inputs active at once (every checker of the 14-checker
/// game on its own point, two to-enter counts, the run).
const MAX_ACTIVE: usize = 2 * 14 + 3;
/// Most hidden units a net may have.
pub const MAX_HIDDEN: usize = 256;
/// Scale of the features as hidden-layer inputs (counts of a few to twenty).
const FEATURE_SCALE: f32 = 0.1;
/// Hidden units [`MidNet::output`] sums at once (one cache line of a row).
const BLOCK: usize = 16;

/// The middle game's network (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct MidNet {
    hidden: usize,
    /// Input-major: row `i` holds input `i`'s weight to each hidden unit.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Hidden units' weights to the output.
    w2: Vec<f32>,
    /// The linear term's weights over the features, in output units.
    linear: [f32; N_FEATURES],
    b2: f32,
}

/// The active binary inputs of `pos` from the side to move's view, and
/// how many.
fn active(pos: &Position) -> ([u16; MAX_ACTIVE], usize) {
    let us = pos.side_to_move();
    let them = us.opposite();
    let mut out = [0u16; MAX_ACTIVE];
    let mut n = 0;
    let masks = [
        pos.lone_mask(us),
        pos.wall_mask(us),
        pos.lone_mask(them),
        pos.wall_mask(them),
    ];
    for (k, mut m) in masks.into_iter().enumerate() {
        while m != 0 && n < MAX_ACTIVE {
            out[n] = (24 * k) as u16 + m.trailing_zeros() as u16;
            m &= m - 1;
            n += 1;
        }
    }
    let enter = |c: Color| (pos.to_enter(c) as usize).min(6);
    let run = match pos.run() {
        Some(r) if r.count == 1 && r.color == us => 1,
        Some(r) if r.count == 1 => 2,
        _ => 0,
    };
    for i in [96 + enter(us), 103 + enter(them), 110 + run] {
        if n < MAX_ACTIVE {
            out[n] = i as u16;
            n += 1;
        }
    }
    (out, n)
}

/// Clipped linear: 0 below 0, 1 above 1.
#[inline(always)]
fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The logistic: the expected result for the side to move (1 win, 0.5
/// draw, 0 loss) of an output in the nets' logistic units; the fits and
/// distill's targets read outputs and scores through it too.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a fit minimises between a result `y` and the net's expectation
/// `p = sigmoid(output)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Loss {
    /// `(y - p)²`: its slope vanishes where the net is sure, right or
    /// wrong.
    Squared,
    /// `-(y ln p + (1 - y) ln (1 - p))`: the slope stays `y - p` where the
    /// net is sure and wrong, so a won position it calls drawn (and the
    /// reverse) keeps pulling.
    CrossEntropy,
}

impl Loss {
    /// A step of rate `alpha` against the loss's derivative by the output
    /// (`e = y - p`). The squared error's in the order of operations the
    /// shipped nets were fitted with, so that their fits repeat bit for bit.
    #[inline(always)]
    fn step(self, alpha: f32, e: f32, p: f32) -> f32 {
        match self {
            Loss::Squared => alpha * 2.0 * e * p * (1.0 - p),
            Loss::CrossEntropy => alpha * e,
        }
    }
}

/// What a net evaluates: the middle game or the late phases.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NetRole {
    /// [`WeightSet::Mid`].
    Mid,
    /// [`WeightSet::LateUs`] and [`WeightSet::LateThem`] (the run's holder
    /// is one of the inputs).
    Late,
    /// [`WeightSet::Main`]: more than six checkers left (the 14-checker
    /// game but its last moves), where no table reaches; fitted to
    /// searches' scores and results of self-play games
    /// (`grasshopper distill`).
    Main,
}

impl NetRole {
    /// Whether this role's net evaluates the positions of `set`.
    #[inline(always)]
    pub fn serves(self, set: WeightSet) -> bool {
        match self {
            NetRole::Mid => set == WeightSet::Mid,
            NetRole::Late => matches!(set, WeightSet::LateUs | WeightSet::LateThem),
            NetRole::Main => set == WeightSet::Main,
        }
    }

    /// The linear weights a fresh net of this role starts from (the late
    /// net: the set of the run's holder's opponent, the one with more
    /// positions in the fits).
    pub fn start(self) -> &'static [i32; N_FEATURES] {
        match self {
            NetRole::Mid => &WEIGHTS_MID,
            NetRole::Late => &WEIGHTS_LATE_THEM,
            NetRole::Main => &WEIGHTS,
        }
    }

    /// The role's name in messages and options.
    pub fn name(self) -> &'static str {
        match self {
            NetRole::Mid => "mid",
            NetRole::Late => "late",
            NetRole::Main => "main",
        }
    }
}

impl MidNet {
    /// A net that evaluates as [`WEIGHTS_MID`] (no weight from its
    /// `hidden` units to the output), its hidden weights small and random
    /// from `seed`.
    pub fn from_linear(hidden: usize, seed: u64) -> MidNet {
        MidNet::from_weights(hidden, seed, &WEIGHTS_MID)
    }

    /// A net that evaluates as the linear `weights` (no weight from its
    /// `hidden` units to the output), its hidden weights small and random
    /// from `seed`.
    pub fn from_weights(hidden: usize, seed: u64, weights: &[i32; N_FEATURES]) -> MidNet {
        let mut state = seed;
        let mut uniform = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let scale = 0.5;
        MidNet {
            hidden,
            w1: (0..INPUTS * hidden).map(|_| scale * uniform()).collect(),
            b1: (0..hidden).map(|_| 0.5 + 0.25 * uniform()).collect(),
            w2: vec![0.0; hidden],
            linear: weights.map(|w| w as f32 / K as f32),
            b2: 0.0,
        }
    }

    /// The net whose output is the mean of `self`'s and `other`'s: their
    /// hidden units side by side, each one's output weights, linear term
    /// and bias halved. An ensemble of two fits, evaluated as one net of
    /// their summed width; `None` when that passes [`MAX_HIDDEN`].
    pub fn average(&self, other: &MidNet) -> Option<MidNet> {
        let hidden = self.hidden + other.hidden;
        if hidden > MAX_HIDDEN {
            return None;
        }
        let w1 = (0..INPUTS)
            .flat_map(|i| self.row(i).iter().chain(other.row(i)))
            .copied()
            .collect();
        let half =
            |a: &[f32], b: &[f32]| -> Vec<f32> { a.iter().chain(b).map(|w| w / 2.0).collect() };
        let mut linear = self.linear;
        for (w, o) in linear.iter_mut().zip(&other.linear) {
            *w = (*w + o) / 2.0;
        }
        Some(MidNet {
            hidden,
            w1,
            b1: [&self.b1[..], &other.b1[..]].concat(),
            w2: half(&self.w2, &other.w2),
            linear,
            b2: (self.b2 + other.b2) / 2.0,
        })
    }

    /// Input `i`'s weights to the hidden units.
    fn row(&self, i: usize) -> &[f32] {
        &self.w1[i * self.hidden..(i + 1) * self.hidden]
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The hidden sums of `pos` (before the clip) into `h`, and its features.
    fn sums(&self, pos: &Position, h: &mut [f32]) -> [i32; N_FEATURES] {
        let n = self.hidden;
        h.copy_from_slice(&self.b1);
        let (act, k) = active(pos);
        for &i in &act[..k] {
            let row = &self.w1[i as usize * n..(i as usize + 1) * n];
            for (s, w) in h.iter_mut().zip(row) {
                *s += w;
            }
        }
        let f = features(pos);
        for (j, &x) in f.iter().enumerate() {
            if x != 0 {
                let v = x as f32 * FEATURE_SCALE;
                let r = BOARD_INPUTS + j;
                let row = &self.w1[r * n..(r + 1) * n];
                for (s, w) in h.iter_mut().zip(row) {
                    *s += v * w;
                }
            }
        }
        f
    }

    /// The output for `pos` (logistic units) with its hidden activations
    /// in `a` and features returned.
    fn forward(&self, pos: &Position, a: &mut [f32]) -> (f32, [i32; N_FEATURES]) {
        let f = self.sums(pos, a);
        let mut out = self.b2;
        for (x, w) in a.iter_mut().zip(&self.w2) {
            *x = clip(*x);
            out += *x * w;
        }
        for (&x, w) in f.iter().zip(&self.linear) {
            out += x as f32 * w;
        }
        (out, f)
    }

    /// The output for `pos`: the expected result for the side to move is
    /// its logistic (1 win, 0.5 draw, 0 loss).
    ///
    /// The search's kernel, [`MidNet::forward`]'s sums by a faster road: a
    /// block of [`BLOCK`] hidden units at a time, kept in registers over
    /// every input row (each unit's sum in the same order, so the same
    /// bits), and the output's sum over the units in [`BLOCK`] lanes
    /// instead of one chain of dependent additions (which cost a quarter
    /// of the search's time); so the output may differ from the training
    /// pass's in its last bits. The lanes are fixed by the code, not by the
    /// machine's vector width: every machine computes the same number.
    pub fn output(&self, pos: &Position) -> f32 {
        let (act, k) = active(pos);
        let f = features(pos);
        let (rows, m) = self.feature_rows(&f);
        let (act, rows) = (&act[..k], &rows[..m]);
        let mut lanes = [0.0f32; BLOCK];
        let whole = self.hidden - self.hidden % BLOCK;
        for c in (0..whole).step_by(BLOCK) {
            let h = self.block_sums(c, act, rows);
            for ((o, x), w) in lanes.iter_mut().zip(&h).zip(&self.w2[c..c + BLOCK]) {
                *o += clip(*x) * w;
            }
        }
        for u in whole..self.hidden {
            let s = act.iter().map(|&i| self.w1[i as usize * self.hidden + u]);
            let s = s.fold(self.b1[u], |s, w| s + w);
            let s = rows.iter().fold(s, |s, &(r, v)| s + v * self.w1[r + u]);
            lanes[0] += clip(s) * self.w2[u];
        }
        let mut out = self.b2 + lanes.iter().sum::<f32>();
        for (&x, w) in f.iter().zip(&self.linear) {
            out += x as f32 * w;
        }
        out
    }

    /// The first-layer rows of the nonzero features `f` (each row's start
    /// in `w1` and the input's value), and how many.
    #[inline(always)]
    fn feature_rows(&self, f: &[i32; N_FEATURES]) -> ([(usize, f32); N_FEATURES], usize) {
        let mut rows = [(0usize, 0.0f32); N_FEATURES];
        let mut m = 0;
        for (j, &x) in f.iter().enumerate() {
            if x != 0 {
                rows[m] = ((BOARD_INPUTS + j) * self.hidden, x as f32 * FEATURE_SCALE);
                m += 1;
            }
        }
        (rows, m)
    }

    /// The hidden sums of units `c..c + BLOCK` (before the clip): the bias,
    /// the rows of the active board inputs `act`, then the feature `rows`,
    /// in [`MidNet::forward`]'s order.
    #[inline(always)]
    fn block_sums(&self, c: usize, act: &[u16], rows: &[(usize, f32)]) -> [f32; BLOCK] {
        let n = self.hidden;
        let mut h: [f32; BLOCK] = self.b1[c..c + BLOCK].try_into().expect("a block");
        for &i in act {
            let row = &self.w1[i as usize * n + c..][..BLOCK];
            for (s, w) in h.iter_mut().zip(row) {
                *s += w;
            }
        }
        for &(r, v) in rows {
            let row = &self.w1[r + c..][..BLOCK];
            for (s, w) in h.iter_mut().zip(row) {
                *s += v * w;
            }
        }
        h
    }

    /// The evaluation of `pos` in centi-points, as the search reads it.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let v = (self.output(pos) * K as f32).round();
        v.clamp(-30_000.0, 30_000.0) as i32
    }

    /// One step of gradient descent on `(y - sigmoid(output))²` for `pos`
    /// with result `y` for its side to move, learning rate `alpha`
    /// (the linear term's at `alpha * linear_rate`). Returns the squared
    /// error before the step.
    pub fn train(&mut self, pos: &Position, y: f32, alpha: f32, linear_rate: f32) -> f32 {
        self.train_with(Loss::Squared, pos, y, alpha, linear_rate)
    }

    /// One step of gradient descent on `loss` for `pos` (as [`MidNet::train`]
    /// does on the squared error). Returns the squared error before the step,
    /// whatever the loss.
    pub fn train_with(
        &mut self,
        loss: Loss,
        pos: &Position,
        y: f32,
        alpha: f32,
        linear_rate: f32,
    ) -> f32 {
        let n = self.hidden;
        let mut a = [0.0f32; MAX_HIDDEN];
        let (out, f) = self.forward(pos, &mut a[..n]);
        let p = sigmoid(out);
        let e = y - p;
        let d = loss.step(alpha, e, p);
        let mut dh = [0.0f32; MAX_HIDDEN];
        for j in 0..n {
            let inside = a[j] > 0.0 && a[j] < 1.0;
            dh[j] = if inside { d * self.w2[j] } else { 0.0 };
            self.w2[j] += d * a[j];
            self.b1[j] += dh[j];
        }
        self.b2 += d;
        let (act, k) = active(pos);
        for &i in &act[..k] {
            let row = &mut self.w1[i as usize * n..(i as usize + 1) * n];
            for (w, g) in row.iter_mut().zip(&dh[..n]) {
                *w += g;
            }
        }
        for (j, &x) in f.iter().enumerate() {
            if x != 0 {
                self.linear[j] += d * linear_rate * x as f32;
                let v = x as f32 * FEATURE_SCALE;
                let r = BOARD_INPUTS + j;
                let row = &mut self.w1[r * n..(r + 1) * n];
                for (w, g) in row.iter_mut().zip(&dh[..n]) {
                    *w += v * g;
                }
            }
        }
        e * e
    }
}

/// The first line of a mid net's text form.
const HEADER: &str = "# grasshopper mid net";

/// `# grasshopper mid net`, `inputs I hidden H`, then the lines `w1 ...`,
/// `b1 ...`, `w2 ...`, `linear ...`, `b2 x`.
impl fmt::Display for MidNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{HEADER}")?;
        writeln!(f, "inputs {INPUTS} hidden {}", self.hidden)?;
        let line = |f: &mut fmt::Formatter<'_>, name: &str, v: &[f32]| {
            let words: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            writeln!(f, "{name} {}", words.join(" "))
        };
        line(f, "w1", &self.w1)?;
        line(f, "b1", &self.b1)?;
        line(f, "w2", &self.w2)?;
        line(f, "linear", &self.linear)?;
        line(f, "b2", &[self.b2])
    }
}

/// Why a mid net's text does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MidNetError {
    #[error("expected the first line {HEADER:?}")]
    Header,
    #[error("expected \"inputs {INPUTS} hidden H\" (H from 1 to {MAX_HIDDEN}), found {0:?}")]
    Sizes(String),
    #[error("expected the line {name:?} with {count} numbers, found {found:?}")]
    Line {
        name: &'static str,
        count: usize,
        found: String,
    },
}

impl FromStr for MidNet {
    type Err = MidNetError;

    fn from_str(s: &str) -> Result<MidNet, MidNetError> {
        let mut lines = s.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return Err(MidNetError::Header);
        }
        let sizes = lines.next().unwrap_or("");
        let hidden = parse_sizes(sizes).ok_or_else(|| MidNetError::Sizes(sizes.to_string()))?;
        let mut next = |name: &'static str, count: usize| -> Result<Vec<f32>, MidNetError> {
            let text = lines.next().unwrap_or("");
            let bad = || MidNetError::Line {
                name,
                count,
                found: text.chars().take(40).collect(),
            };
            let rest = text.strip_prefix(name).ok_or_else(bad)?;
            let v: Vec<f32> = rest
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| bad())?;
            if v.len() == count {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let w1 = next("w1", INPUTS * hidden)?;
        let b1 = next("b1", hidden)?;
        let w2 = next("w2", hidden)?;
        let linear = next("linear", N_FEATURES)?;
        let b2 = next("b2", 1)?[0];
        Ok(MidNet {
            hidden,
            w1,
            b1,
            w2,
            linear: linear.try_into().expect("counted"),
            b2,
        })
    }
}

/// The hidden units of `inputs I hidden H`, if I is [`INPUTS`].
fn parse_sizes(s: &str) -> Option<usize> {
    let w: Vec<&str> = s.split_whitespace().collect();
    let ["inputs", i, "hidden", h] = w[..] else {
        return None;
    };
    let h: usize = h.parse().ok()?;
    (i.parse() == Ok(INPUTS) && (1..=MAX_HIDDEN).contains(&h)).then_some(h)
}

/// A net every search of this process uses for one role, if any: set
/// once, before the first search, or the shipped one.
struct Served {
    cell: OnceLock<Option<MidNet>>,
    /// The shipped net's text (empty: none shipped, the linear sets serve).
    shipped: &'static str,
    role: NetRole,
}

impl Served {
    fn get(&'static self) -> Option<&'static MidNet> {
        self.cell
            .get_or_init(|| match self.shipped.trim() {
                "" => None,
                text => {
                    Some(text.parse().unwrap_or_else(|e| {
                        panic!("the shipped {} net reads: {e}", self.role.name())
                    }))
                }
            })
            .as_ref()
    }

    fn set(&'static self, net: Option<MidNet>) -> Result<(), &'static str> {
        let busy = match self.role {
            NetRole::Mid => "the middle game's net is already in use",
            NetRole::Late => "the late phases' net is already in use",
            NetRole::Main => "the 14-checker game's net is already in use",
        };
        self.cell.set(net).map_err(|_| busy)
    }
}

static MID: Served = Served {
    cell: OnceLock::new(),
    shipped: include_str!("../data/mid.net"),
    role: NetRole::Mid,
};

static LATE: Served = Served {
    cell: OnceLock::new(),
    shipped: include_str!("../data/late.net"),
    role: NetRole::Late,
};

static MAIN: Served = Served {
    cell: OnceLock::new(),
    shipped: include_str!("../data/main.net"),
    role: NetRole::Main,
};

/// The middle game's net, if one serves.
#[inline]
pub fn mid_net() -> Option<&'static MidNet> {
    MID.get()
}

/// The late phases' net, if one serves.
#[inline]
pub fn late_net() -> Option<&'static MidNet> {
    LATE.get()
}

/// The net that evaluates the positions of `set`, if one serves.
#[inline(always)]
pub fn net_for(set: WeightSet) -> Option<&'static MidNet> {
    match set {
        WeightSet::Mid => MID.get(),
        WeightSet::LateUs | WeightSet::LateThem => LATE.get(),
        WeightSet::Main => MAIN.get(),
        WeightSet::Few => None,
    }
}

/// Makes `net` the evaluation of `role`'s positions for the rest of the
/// process (`None`: the linear sets). Refused once a search has read it.
pub fn use_net(role: NetRole, net: Option<MidNet>) -> Result<(), &'static str> {
    match role {
        NetRole::Mid => MID.set(net),
        NetRole::Late => LATE.set(net),
        NetRole::Main => MAIN.set(net),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::linear as dot;

    /// Middle-game positions: two of the 6-checker game, and one eight
    /// plies into it.
    fn middle() -> Vec<Position> {
        let mut ps: Vec<Position> = [
            "w.b.../w...b./....../Wb.... w 2 3 0-0 -",
            "ww.b../w....b/....../...... w 3 2 0-1 b1",
        ]
        .iter()
        .map(|s| s.parse().expect("a position"))
        .collect();
        let start = Position::start(6).expect("6 checkers");
        ps.push(start.playout(8, |n| n / 2));
        ps
    }

    #[test]
    fn a_fresh_net_evaluates_as_the_linear_middle_set() {
        let net = MidNet::from_linear(16, 1);
        for p in middle() {
            assert!((net.evaluate(&p) - dot(&p, &WEIGHTS_MID)).abs() <= 1, "{p}");
        }
    }

    #[test]
    fn each_role_serves_its_sets_and_a_fresh_late_net_evaluates_as_its_weights() {
        use WeightSet::*;
        let served = |r: NetRole| {
            [Main, Mid, Few, LateUs, LateThem]
                .into_iter()
                .filter(|&s| r.serves(s))
                .collect::<Vec<_>>()
        };
        assert_eq!(served(NetRole::Mid), [Mid]);
        assert_eq!(served(NetRole::Late), [LateUs, LateThem]);
        assert_eq!(served(NetRole::Main), [Main]);
        // Black has scored once; White has six on the board against four.
        let late: Position = "ww.b../w...b./.b.w../Wb.... w 0 0 0-1 b1".parse().unwrap();
        assert_eq!(crate::eval::weight_set(&late), LateThem);
        let net = MidNet::from_weights(8, 5, NetRole::Late.start());
        let linear = dot(&late, &WEIGHTS_LATE_THEM);
        assert!((net.evaluate(&late) - linear).abs() <= 1, "{late}");
    }

    #[test]
    fn the_text_form_round_trips_and_bad_text_is_refused() {
        let mut net = MidNet::from_linear(8, 2);
        net.train(&middle()[0], 1.0, 0.5, 0.1);
        let back: MidNet = net.to_string().parse().expect("reads");
        assert_eq!(back, net);
        assert_eq!("x".parse::<MidNet>(), Err(MidNetError::Header));
        let text = net.to_string().replace("hidden 8", "hidden 0");
        assert!(matches!(text.parse::<MidNet>(), Err(MidNetError::Sizes(_))));
        let text = net.to_string().replace("\nb2 ", "\nb3 ");
        assert!(matches!(
            text.parse::<MidNet>(),
            Err(MidNetError::Line { name: "b2", .. })
        ));
    }

    #[test]
    fn training_moves_the_output_towards_the_result_with_the_hidden_units() {
        let mut net = MidNet::from_linear(16, 3);
        let ps = middle();
        let targets = [1.0, 0.0, 0.5];
        let error = |net: &MidNet| -> f32 {
            let e = ps
                .iter()
                .zip(targets)
                .map(|(p, y)| y - sigmoid(net.output(p)));
            e.map(|e| e * e).sum()
        };
        let before = error(&net);
        for _ in 0..300 {
            for (p, y) in ps.iter().zip(targets) {
                // The linear term held still: the hidden units must learn.
                net.train(p, y, 0.2, 0.0);
            }
        }
        assert!(error(&net) < before / 4.0, "{before} -> {}", error(&net));
        assert!(net.w2.iter().any(|&w| w != 0.0));
    }

    #[test]
    fn the_search_kernel_computes_the_training_forward_pass() {
        // Positions of every phase of the 4-, 6- and 14-checker games.
        let mut ps = Vec::new();
        for checkers in [4, 6, 14] {
            let start = Position::start(checkers).expect("a start");
            for seed in 0..12usize {
                for plies in [3, 10, 25, 60, 120] {
                    ps.push(start.playout(plies, |n| (n * 7 + seed * 13 + plies) % n.max(1)));
                }
            }
        }
        let mut nets: Vec<MidNet> = [8, 16, 40, 128]
            .iter()
            .map(|&h| {
                let mut net = MidNet::from_linear(h, h as u64);
                let w2 = MidNet::from_linear(h, 99).b1;
                net.w2 = w2.iter().map(|w| w - 0.5).collect();
                net
            })
            .collect();
        nets.extend(
            [mid_net(), late_net(), MAIN.get()]
                .into_iter()
                .flatten()
                .cloned(),
        );
        for net in &nets {
            let mut a = [0.0f32; MAX_HIDDEN];
            for p in &ps {
                let slow = net.forward(p, &mut a[..net.hidden]).0;
                let fast = net.output(p);
                assert!(
                    (fast - slow).abs() <= 1e-5 * slow.abs().max(1.0),
                    "{p}: {fast} {slow}"
                );
            }
        }
    }

    #[test]
    fn a_step_is_the_losses_formula_to_the_bit() {
        // The shipped nets refit byte for byte only while the step keeps
        // the order of operations they were fitted with: a fresh net's
        // output bias (0) moves by exactly the step.
        for (i, p) in middle().iter().enumerate() {
            for (loss, y) in [
                (Loss::Squared, 1.0f32),
                (Loss::Squared, 0.5),
                (Loss::CrossEntropy, 0.0),
            ] {
                let mut net = MidNet::from_linear(16, i as u64);
                let mut a = [0.0f32; MAX_HIDDEN];
                let s = sigmoid(net.forward(p, &mut a[..16]).0);
                let (e, alpha) = (y - s, 0.013f32);
                let step = match loss {
                    Loss::Squared => alpha * 2.0 * e * s * (1.0 - s),
                    Loss::CrossEntropy => alpha * e,
                };
                net.train_with(loss, p, y, alpha, 0.01);
                assert_eq!(net.b2.to_bits(), step.to_bits(), "{loss:?} {p}");
            }
        }
    }

    #[test]
    fn the_average_of_two_nets_evaluates_as_the_mean_of_theirs() {
        let (mut a, mut b) = (MidNet::from_linear(48, 1), MidNet::from_linear(80, 2));
        for (i, p) in middle().iter().enumerate() {
            a.train(p, (i % 3) as f32 / 2.0, 0.2, 0.1);
            b.train(p, ((i + 1) % 3) as f32 / 2.0, 0.2, 0.1);
        }
        let both = a.average(&b).expect("128 units");
        assert_eq!(both.hidden(), 128);
        for p in &middle() {
            let mean = (a.output(p) + b.output(p)) / 2.0;
            assert!((both.output(p) - mean).abs() < 1e-4, "{p}");
        }
        assert!(a
            .average(&MidNet::from_linear(MAX_HIDDEN - 47, 3))
            .is_none());
    }

    #[test]
    fn a_position_and_its_colour_mirror_have_the_same_inputs() {
        let a: Position = "w.b.../w...b./....../Wb.... w 2 3 0-0 -".parse().unwrap();
        let b: Position = "b.w.../b...w./....../Bw.... b 3 2 0-0 -".parse().unwrap();
        let net = MidNet::from_linear(8, 4);
        assert_eq!(active(&a), active(&b));
        assert_eq!(net.output(&a), net.output(&b));
    }
}
