//! A neural net with one hidden layer of sigmoid units and five sigmoid
//! outputs (win, win gammon, win backgammon, lose gammon, lose backgammon),
//! hand-written in f32. The first layer is stored input-major, so the
//! hidden sums add one contiguous row per non-zero input: most inputs are
//! zero, and the rows are added 64 columns at a time with the sums held in
//! eight registers of eight lanes (AVX2 and FMA, which the x86-64-v3 target
//! has, through the compiler's vectoriser).
//!
//! A net may have a second hidden layer ([`Net::deepened`]) that reads the
//! first and feeds the outputs beside it: the first layer's sums of input
//! rows stay the cheap part, and the second finds what one layer of
//! sigmoids cannot (products of features, such as a shot that matters only
//! behind a prime). In memory its weights are stored by first-layer unit,
//! so its sums are rows added the same way (a dot product a unit waited on
//! each multiply-add: the second layer took 40% of a contact evaluation).
//!
//! The file format (little-endian): the 8 bytes `GHBGNET1`, then `inputs`,
//! `hidden` and `outputs` as u32, then the first layer's weights (inputs ×
//! hidden, input-major), its biases (hidden), the output weights (outputs ×
//! hidden) and the output biases (outputs), all f32. A net with a second
//! layer starts `GHBGNET2`, has `units` (u32) after `outputs`, and after the
//! output biases the second layer's weights (units × hidden, unit-major),
//! its biases (units) and its output weights (outputs × units).

use std::fmt;

mod adam;
pub use adam::{Adam, Grads};

/// Outputs of every net.
pub const OUTPUTS: usize = 5;
/// The largest hidden layer the evaluation's stack buffers hold.
pub const MAX_HIDDEN: usize = 512;
/// Hidden units come in multiples of this (one AVX register of f32).
pub const LANES: usize = 8;

const MAGIC: &[u8; 8] = b"GHBGNET1";
const MAGIC_DEEP: &[u8; 8] = b"GHBGNET2";

/// A second hidden layer: `units` sigmoids of the first layer's
/// activations, read by the outputs beside the first layer.
#[derive(Clone, PartialEq)]
struct Second {
    units: usize,
    /// hidden × units, hidden-major (one row of all units per first-layer
    /// unit, so the sums are rows added in registers, [`add_rows`]; the
    /// file stores them unit-major).
    w: Vec<f32>,
    b: Vec<f32>,
    /// outputs × units.
    out: Vec<f32>,
}

/// How a training step treats a second hidden layer's error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backprop {
    /// Through the second layer into the first (the gradient of the loss).
    #[default]
    Full,
    /// Not into the first layer, which learns through its own output
    /// weights only: generation 5's contact net was fitted so, before the
    /// full gradient was written.
    Detached,
}

/// The weights of one net.
#[derive(Clone, PartialEq)]
pub struct Net {
    inputs: usize,
    hidden: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: [f32; OUTPUTS],
    second: Option<Second>,
    /// Training state, not weights: not written to the file.
    backprop: Backprop,
}

impl fmt::Debug for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Net({} inputs, {} hidden", self.inputs, self.hidden)?;
        if let Some(s) = &self.second {
            write!(f, ", {} second", s.units)?;
        }
        write!(f, ")")
    }
}

/// Why a weights file does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("not a net file (bad magic)")]
    Magic,
    #[error("the file is cut short")]
    Short,
    #[error("{0} hidden units: expected a positive multiple of 8 up to 512")]
    Hidden(usize),
    #[error("{hidden} hidden units: the net has {has} already")]
    Narrower { hidden: usize, has: usize },
    #[error("the net has a second hidden layer already")]
    Deep,
    #[error("{0} outputs: expected 5")]
    Outputs(usize),
    #[error("{found} inputs, expected {}", words(expected))]
    Inputs {
        found: usize,
        expected: &'static [usize],
    },
}

/// "212", "212 or 222".
fn words(counts: &[usize]) -> String {
    let all: Vec<String> = counts.iter().map(usize::to_string).collect();
    all.join(" or ")
}

/// `e^x`, to about 1e-6 relative, branch-free so loops over it vectorise:
/// `2^i · 2^f` with `i` the nearest integer to `x log2 e` and `2^f` (for
/// |f| ≤ 1/2) from its Taylor series to the sixth power.
#[inline(always)]
pub fn exp_approx(x: f32) -> f32 {
    let t = x.clamp(-87.0, 87.0) * std::f32::consts::LOG2_E;
    let i = (t + 0.5).floor();
    let f = t - i;
    let p = 1.0
        + f * (std::f32::consts::LN_2
            + f * (0.240_226_5
                + f * (0.055_504_11
                    + f * (0.009_618_129 + f * (0.001_333_355 + f * 0.000_154_035_3)))));
    p * f32::from_bits(((i as i32 + 127) << 23) as u32)
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp_approx(-x))
}

/// Refuses a hidden layer the evaluation's buffers and lanes cannot hold.
pub fn check_hidden(hidden: usize) -> Result<(), NetError> {
    if hidden == 0 || !hidden.is_multiple_of(LANES) || hidden > MAX_HIDDEN {
        return Err(NetError::Hidden(hidden));
    }
    Ok(())
}

/// The hidden activations of one evaluation (a stack buffer).
pub type Hidden = [f32; MAX_HIDDEN];

/// `a · b + c`: fused, rounded once, where the target has the instruction
/// (the repository's builds: `.cargo/config.toml` names x86-64-v3); else
/// a multiply and an add. `f32::mul_add` without the instruction calls a
/// software routine that made every evaluation 30 times slower (12 k
/// evaluations a second against 366 k) in a build that missed the config,
/// such as `cargo build --manifest-path` run from another directory; such
/// a build now differs from the fused one in the last bits instead.
#[inline(always)]
fn madd(a: f32, b: f32, c: f32) -> f32 {
    if cfg!(target_feature = "fma") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `a · w_k` for each of the [`OUTPUTS`] rows `w_k` of `w` (row-major,
/// `a.len()` columns): the outputs' sums side by side, eight lanes each,
/// so that each chunk of `a` is loaded once and the five chains of
/// multiply-adds run at once (one dot product at a time left each sum
/// waiting on its last multiply-add, and the compiler kept them in
/// half-width registers: 14% of a 3-ply labelling's time).
#[inline(always)]
fn dots(a: &[f32], w: &[f32]) -> [f32; OUTPUTS] {
    let n = a.len();
    debug_assert_eq!(w.len(), OUTPUTS * n);
    let mut acc = [[0.0f32; LANES]; OUTPUTS];
    let whole = n - n % LANES;
    for c in (0..whole).step_by(LANES) {
        let x = &a[c..c + LANES];
        for (k, acc) in acc.iter_mut().enumerate() {
            let y = &w[k * n + c..k * n + c + LANES];
            for l in 0..LANES {
                acc[l] = madd(x[l], y[l], acc[l]);
            }
        }
    }
    std::array::from_fn(|k| {
        let tail: f32 = (whole..n).map(|i| a[i] * w[k * n + i]).sum();
        acc[k].iter().sum::<f32>() + tail
    })
}

/// Inputs a first layer's sums take at a time ([`Net::hidden_sums`]).
const TERMS: usize = 256;

/// `out[c] += Σ v · w[r · n + c]` over the `terms` (row `r`, value `v`) for
/// the columns `col..col + B · LANES` of rows of `n`: the block's sums stay
/// in registers while the rows stream past (B = 8: two multiply-adds a
/// cycle, each sum waiting on its own).
#[inline(always)]
fn add_rows_block<const B: usize>(
    terms: impl Iterator<Item = (usize, f32)>,
    w: &[f32],
    n: usize,
    col: usize,
    out: &mut [f32],
) {
    let mut acc = [[0.0f32; LANES]; B];
    for (j, acc) in acc.iter_mut().enumerate() {
        acc.copy_from_slice(&out[col + j * LANES..col + (j + 1) * LANES]);
    }
    for (r, v) in terms {
        let row = &w[r * n + col..r * n + col + B * LANES];
        for (j, acc) in acc.iter_mut().enumerate() {
            for l in 0..LANES {
                acc[l] = madd(v, row[j * LANES + l], acc[l]);
            }
        }
    }
    for (j, acc) in acc.iter().enumerate() {
        out[col + j * LANES..col + (j + 1) * LANES].copy_from_slice(acc);
    }
}

/// `out += Σ v · row r of w` over the `terms` (row `r`, value `v`; rows of
/// `out.len()`, a multiple of [`LANES`]), 64 columns at a time.
#[inline]
fn add_rows<I>(terms: I, w: &[f32], out: &mut [f32])
where
    I: Iterator<Item = (usize, f32)> + Clone,
{
    let n = out.len();
    let mut col = 0;
    while col + 8 * LANES <= n {
        add_rows_block::<8>(terms.clone(), w, n, col, out);
        col += 8 * LANES;
    }
    while col < n {
        add_rows_block::<1>(terms.clone(), w, n, col, out);
        col += LANES;
    }
}

/// `m` (rows × cols, row-major) transposed: cols × rows.
fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    (0..cols)
        .flat_map(|c| (0..rows).map(move |r| m[r * cols + c]))
        .collect()
}

impl Second {
    /// The activations from the first layer's `a` into `g`.
    #[inline]
    fn activations(&self, a: &[f32], g: &mut [f32]) {
        g.copy_from_slice(&self.b);
        add_rows(a.iter().copied().enumerate(), &self.w, g);
        for v in g.iter_mut() {
            *v = sigmoid(*v);
        }
    }

    /// One step on the output errors `dz` (learning rate included); the
    /// error reaching the first layer's activations `a` (through the
    /// weights before the step) is added to `da`.
    fn train(&mut self, a: &[f32], g: &[f32], dz: &[f32; OUTPUTS], da: &mut [f32]) {
        let mut buf: Hidden = [0.0; MAX_HIDDEN];
        let dg = &mut buf[..self.units];
        for (w, &d) in self.out.chunks_exact_mut(self.units).zip(dz) {
            for ((e, w), &v) in dg.iter_mut().zip(w.iter_mut()).zip(g) {
                *e += d * *w;
                *w += d * v;
            }
        }
        for ((e, &v), b) in dg.iter_mut().zip(g).zip(&mut self.b) {
            *e *= v * (1.0 - v);
            *b += *e;
        }
        let rows = self.w.chunks_exact_mut(self.units);
        for ((row, &x), d) in rows.zip(a).zip(da.iter_mut()) {
            for (w, &e) in row.iter_mut().zip(dg.iter()) {
                *d += e * *w;
                *w += e * x;
            }
        }
    }
}

impl Net {
    /// A net with small random weights from `seed` (uniform in ±`scale`
    /// over the square root of the fan-in).
    pub fn random(inputs: usize, hidden: usize, seed: u64) -> Net {
        assert!(hidden > 0 && hidden.is_multiple_of(LANES) && hidden <= MAX_HIDDEN);
        let mut rng = backgammon_rules::SplitMix::new(seed);
        let mut uniform = |n: usize, fan_in: usize| -> Vec<f32> {
            let s = 1.0 / (fan_in as f32).sqrt();
            (0..n).map(|_| (2.0 * rng.unit() - 1.0) * s).collect()
        };
        let w1 = uniform(inputs * hidden, 20);
        let w2 = uniform(OUTPUTS * hidden, hidden);
        Net {
            inputs,
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: [0.0; OUTPUTS],
            second: None,
            backprop: Backprop::Full,
        }
    }

    /// The same function with a second hidden layer of `units` units: they
    /// get small random weights from `seed` and no weight to the outputs,
    /// so the net answers as before until training gives them a part.
    pub fn deepened(&self, units: usize, seed: u64) -> Result<Net, NetError> {
        check_hidden(units)?;
        if self.second.is_some() {
            return Err(NetError::Deep);
        }
        let mut rng = backgammon_rules::SplitMix::new(seed);
        let s = 1.0 / (self.hidden as f32).sqrt();
        let w: Vec<f32> = (0..units * self.hidden)
            .map(|_| (2.0 * rng.unit() - 1.0) * s)
            .collect();
        let second = Second {
            units,
            w: transpose(&w, units, self.hidden),
            b: vec![0.0; units],
            out: vec![0.0; OUTPUTS * units],
        };
        Ok(Net {
            second: Some(second),
            ..self.clone()
        })
    }

    /// Sets how training treats the second layer's error.
    pub fn set_backprop(&mut self, backprop: Backprop) {
        self.backprop = backprop;
    }

    /// Units of the second hidden layer (0: none).
    pub fn second_units(&self) -> usize {
        self.second.as_ref().map_or(0, |s| s.units)
    }

    /// The same function with `hidden` units: the new units get small
    /// random input weights from `seed` and no weight to the outputs, so
    /// the net answers as before until training gives them a part.
    pub fn widened(&self, hidden: usize, seed: u64) -> Result<Net, NetError> {
        check_hidden(hidden)?;
        if hidden < self.hidden {
            let has = self.hidden;
            return Err(NetError::Narrower { hidden, has });
        }
        let fresh = Net::random(self.inputs, hidden, seed);
        let (old, extra) = (self.hidden, hidden - self.hidden);
        let mut w1 = Vec::with_capacity(self.inputs * hidden);
        for i in 0..self.inputs {
            w1.extend_from_slice(&self.w1[i * old..(i + 1) * old]);
            w1.extend_from_slice(&fresh.w1[i * hidden + old..(i + 1) * hidden]);
        }
        let mut w2 = Vec::with_capacity(OUTPUTS * hidden);
        for o in 0..OUTPUTS {
            w2.extend_from_slice(&self.w2[o * old..(o + 1) * old]);
            w2.extend(std::iter::repeat_n(0.0, extra));
        }
        let mut b1 = self.b1.clone();
        b1.resize(hidden, 0.0);
        // The second layer reads the new units with no weight.
        let second = self.second.clone().map(|mut s| {
            s.w.resize(hidden * s.units, 0.0);
            s
        });
        Ok(Net {
            inputs: self.inputs,
            hidden,
            w1,
            b1,
            w2,
            b2: self.b2,
            second,
            backprop: self.backprop,
        })
    }

    /// The same function reading `inputs` inputs: the new ones (at the
    /// end) start with no weight, so the net answers as before until
    /// training gives them a part.
    pub fn with_inputs(&self, inputs: usize) -> Result<Net, NetError> {
        if inputs < self.inputs {
            return Err(NetError::Inputs {
                found: inputs,
                expected: &[],
            });
        }
        let mut w1 = self.w1.clone();
        w1.resize(inputs * self.hidden, 0.0);
        Ok(Net {
            inputs,
            w1,
            ..self.clone()
        })
    }

    /// Inputs the net reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The hidden sums of `x` (before the sigmoid) into `h`.
    #[inline]
    fn hidden_sums(&self, x: &[f32], h: &mut [f32]) {
        debug_assert_eq!(x.len(), self.inputs);
        h.copy_from_slice(&self.b1);
        // Most inputs are zero: only the rows of the others are added
        // (gathered without a branch).
        let mut terms = [(0u32, 0.0f32); TERMS];
        for (k, part) in x.chunks(TERMS).enumerate() {
            let mut n = 0;
            for (i, &v) in part.iter().enumerate() {
                terms[n] = ((k * TERMS + i) as u32, v);
                n += (v != 0.0) as usize;
            }
            let rows = terms[..n].iter().map(|&(r, v)| (r as usize, v));
            add_rows(rows, &self.w1, h);
        }
    }

    /// The five outputs from the first layer's activations `a` and the
    /// second's `g` (empty without a second layer).
    #[inline]
    fn outputs(&self, a: &[f32], g: &[f32]) -> [f32; OUTPUTS] {
        let first = dots(a, &self.w2);
        let second = match &self.second {
            Some(s) => dots(g, &s.out),
            None => [0.0; OUTPUTS],
        };
        std::array::from_fn(|k| sigmoid(self.b2[k] + first[k] + second[k]))
    }

    /// The first layer's activations for `x` into `a`, and the second's
    /// into `g` (as many as it has units).
    #[inline]
    fn activations(&self, x: &[f32], a: &mut [f32], g: &mut [f32]) {
        self.hidden_sums(x, a);
        for v in a.iter_mut() {
            *v = sigmoid(*v);
        }
        if let Some(s) = &self.second {
            s.activations(a, g);
        }
    }

    /// The outputs for inputs `x`.
    #[inline]
    pub fn forward(&self, x: &[f32]) -> [f32; OUTPUTS] {
        let mut buf: Hidden = [0.0; MAX_HIDDEN];
        let mut second: Hidden = [0.0; MAX_HIDDEN];
        let (a, g) = (&mut buf[..self.hidden], &mut second[..self.second_units()]);
        self.activations(x, a, g);
        self.outputs(a, g)
    }

    /// One step of gradient descent on the cross-entropy between the
    /// outputs for `x` and `target` (each output its own Bernoulli), with
    /// learning rate `alpha`. Returns the outputs before the step.
    pub fn train(&mut self, x: &[f32], target: &[f32; OUTPUTS], alpha: f32) -> [f32; OUTPUTS] {
        let n = self.hidden;
        let mut buf: Hidden = [0.0; MAX_HIDDEN];
        let mut second: Hidden = [0.0; MAX_HIDDEN];
        let (a, g) = (&mut buf[..n], &mut second[..self.second_units()]);
        self.activations(x, a, g);
        let y = self.outputs(a, g);
        let dz: [f32; OUTPUTS] = std::array::from_fn(|k| alpha * (target[k] - y[k]));
        let mut dh: Hidden = [0.0; MAX_HIDDEN];
        let dh = &mut dh[..n];
        if let Some(s) = &mut self.second {
            s.train(a, g, &dz, dh);
            if self.backprop == Backprop::Detached {
                dh.fill(0.0);
            }
        }
        // Back-propagate through the old output weights, then update them.
        for ((w, b), &d) in self.w2.chunks_exact_mut(n).zip(&mut self.b2).zip(&dz) {
            for ((g, w), &a) in dh.iter_mut().zip(w.iter_mut()).zip(a.iter()) {
                *g += d * *w;
                *w += d * a;
            }
            *b += d;
        }
        for ((g, b), &a) in dh.iter_mut().zip(&mut self.b1).zip(a.iter()) {
            *g *= a * (1.0 - a);
            *b += *g;
        }
        for (row, &v) in self.w1.chunks_exact_mut(n).zip(x) {
            if v == 0.0 {
                continue;
            }
            for (w, &g) in row.iter_mut().zip(dh.iter()) {
                *w += v * g;
            }
        }
        y
    }

    /// The net as bytes in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 4 * (self.w1.len() + self.w2.len()));
        let mut header = vec![self.inputs, self.hidden, OUTPUTS];
        match &self.second {
            None => out.extend_from_slice(MAGIC),
            Some(s) => {
                out.extend_from_slice(MAGIC_DEEP);
                header.push(s.units);
            }
        }
        for n in header {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        let file_w = self
            .second
            .as_ref()
            .map(|s| transpose(&s.w, self.hidden, s.units));
        let second = self
            .second
            .iter()
            .zip(&file_w)
            .flat_map(|(s, w)| w.iter().chain(&s.b).chain(&s.out));
        for v in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
            .chain(second)
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Reads a net; `widths` are the numbers of inputs it may have.
    pub fn from_bytes(bytes: &[u8], widths: &'static [usize]) -> Result<Net, NetError> {
        if bytes.len() < 20 {
            return Err(NetError::Short);
        }
        let deep = match &bytes[..8] {
            m if m == MAGIC => false,
            m if m == MAGIC_DEEP => true,
            _ => return Err(NetError::Magic),
        };
        let head = if deep { 24 } else { 20 };
        if bytes.len() < head {
            return Err(NetError::Short);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (found, hidden, outputs) = (word(0) as usize, word(1) as usize, word(2) as usize);
        if !widths.contains(&found) {
            return Err(NetError::Inputs {
                found,
                expected: widths,
            });
        }
        let inputs = found;
        check_hidden(hidden)?;
        if outputs != OUTPUTS {
            return Err(NetError::Outputs(outputs));
        }
        let units = if deep { word(3) as usize } else { 0 };
        if deep {
            check_hidden(units)?;
        }
        let count = inputs * hidden
            + hidden
            + OUTPUTS * hidden
            + OUTPUTS
            + units * hidden
            + units
            + OUTPUTS * units;
        let body = &bytes[head..];
        if body.len() < 4 * count {
            return Err(NetError::Short);
        }
        let mut floats = body
            .chunks_exact(4)
            .take(count)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| floats.by_ref().take(n).collect::<Vec<f32>>();
        let w1 = take(inputs * hidden);
        let b1 = take(hidden);
        let w2 = take(OUTPUTS * hidden);
        let b2 = take(OUTPUTS).try_into().expect("five biases");
        let second = deep.then(|| Second {
            units,
            w: transpose(&take(units * hidden), units, hidden),
            b: take(units),
            out: take(OUTPUTS * units),
        });
        Ok(Net {
            inputs,
            hidden,
            w1,
            b1,
            w2,
            b2,
            second,
            backprop: Backprop::Full,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_exponential_is_close() {
        for i in -200..200 {
            let x = i as f32 * 0.1;
            let (a, b) = (exp_approx(x), x.exp());
            assert!(((a - b) / b).abs() < 2e-6, "{x}: {a} vs {b}");
        }
    }

    #[test]
    fn training_moves_the_outputs_towards_the_target_and_bytes_round_trip() {
        let mut net = Net::random(12, 16, 5);
        let x: Vec<f32> = (0..12).map(|i| (i % 3) as f32 * 0.5).collect();
        let target = [0.9, 0.3, 0.05, 0.1, 0.0];
        let before = net.forward(&x);
        for _ in 0..200 {
            net.train(&x, &target, 0.1);
        }
        let after = net.forward(&x);
        for k in 0..OUTPUTS {
            assert!((after[k] - target[k]).abs() < (before[k] - target[k]).abs().max(0.02));
        }
        let back = Net::from_bytes(&net.to_bytes(), &[12]).unwrap();
        assert_eq!(back, net);
        let refused = Net::from_bytes(&net.to_bytes(), &[13, 15]);
        assert_eq!(
            refused,
            Err(NetError::Inputs {
                found: 12,
                expected: &[13, 15]
            })
        );
        assert_eq!(
            refused.unwrap_err().to_string(),
            "12 inputs, expected 13 or 15"
        );
        assert_eq!(
            Net::from_bytes(b"nonsense-nonsense-xx", &[12]),
            Err(NetError::Magic)
        );
    }

    #[test]
    fn a_net_with_more_inputs_answers_as_before_and_learns_to_read_them() {
        let net = Net::random(12, 16, 5);
        let mut more = net.with_inputs(14).unwrap();
        assert_eq!(more.inputs(), 14);
        assert!(net.with_inputs(10).is_err());
        let x: Vec<f32> = (0..14).map(|i| (i % 4) as f32 * 0.3).collect();
        assert_eq!(net.forward(&x[..12]), more.forward(&x));
        for _ in 0..50 {
            more.train(&x, &[0.9, 0.3, 0.05, 0.1, 0.0], 0.1);
        }
        assert!(more.w1[12 * 16..].iter().any(|&w| w != 0.0));
        let back = Net::from_bytes(&more.to_bytes(), &[12, 14]).unwrap();
        assert_eq!(back, more);
    }

    /// `a` and `b` answer `x` alike, to rounding.
    fn assert_same_outputs(a: &Net, b: &Net, x: &[f32]) {
        let (a, b) = (a.forward(x), b.forward(x));
        for k in 0..OUTPUTS {
            assert!(
                (a[k] - b[k]).abs() < 1e-6,
                "output {k}: {} vs {}",
                a[k],
                b[k]
            );
        }
    }

    #[test]
    fn a_widened_net_answers_as_before_and_then_learns_with_its_new_units() {
        let net = Net::random(12, 16, 5);
        assert_eq!(
            net.widened(8, 9),
            Err(NetError::Narrower { hidden: 8, has: 16 })
        );
        assert_eq!(net.widened(36, 9), Err(NetError::Hidden(36)));
        let mut wide = net.widened(32, 9).unwrap();
        assert_eq!(wide.hidden(), 32);
        let x: Vec<f32> = (0..12).map(|i| (i % 4) as f32 * 0.3).collect();
        assert_same_outputs(&net, &wide, &x);
        for _ in 0..50 {
            wide.train(&x, &[0.9, 0.3, 0.05, 0.1, 0.0], 0.1);
        }
        assert!(wide.w2[16..32].iter().any(|&w| w != 0.0));
    }

    #[test]
    fn a_deepened_net_answers_as_before_learns_with_its_second_layer_and_round_trips() {
        let net = Net::random(12, 16, 5);
        let mut deep = net.deepened(8, 11).unwrap();
        assert_eq!(deep.second_units(), 8);
        assert_eq!(deep.deepened(8, 11), Err(NetError::Deep));
        assert_eq!(net.deepened(12, 11), Err(NetError::Hidden(12)));
        let x: Vec<f32> = (0..12).map(|i| (i % 4) as f32 * 0.3).collect();
        assert_eq!(net.forward(&x), deep.forward(&x));
        let target = [0.9, 0.3, 0.05, 0.1, 0.0];
        for _ in 0..200 {
            deep.train(&x, &target, 0.1);
        }
        let s = deep.second.as_ref().unwrap();
        assert!(s.out.iter().any(|&w| w != 0.0));
        let after = deep.forward(&x);
        for k in 0..OUTPUTS {
            assert!((after[k] - target[k]).abs() < 0.05, "output {k}: {after:?}");
        }
        let back = Net::from_bytes(&deep.to_bytes(), &[12]).unwrap();
        assert_eq!(back, deep);
        assert_eq!(&deep.to_bytes()[..8], b"GHBGNET2");
        let cut = deep.to_bytes();
        assert_eq!(
            Net::from_bytes(&cut[..cut.len() - 4], &[12]),
            Err(NetError::Short)
        );
        // Widening keeps the function: the second layer reads the new units with no weight.
        assert_same_outputs(&deep, &deep.widened(24, 3).unwrap(), &x);
    }

    /// The outputs by the definition, in f64, one weight at a time.
    fn naive_forward(net: &Net, x: &[f32]) -> [f64; OUTPUTS] {
        let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
        let n = net.hidden;
        let a: Vec<f64> = (0..n)
            .map(|j| {
                let z: f64 = (0..net.inputs)
                    .map(|i| x[i] as f64 * net.w1[i * n + j] as f64)
                    .sum();
                sig(z + net.b1[j] as f64)
            })
            .collect();
        let s = net.second.as_ref();
        let g: Vec<f64> = s.map_or(Vec::new(), |s| {
            (0..s.units)
                .map(|u| {
                    let z: f64 = (0..n).map(|j| a[j] * s.w[j * s.units + u] as f64).sum();
                    sig(z + s.b[u] as f64)
                })
                .collect()
        });
        std::array::from_fn(|k| {
            let mut z = net.b2[k] as f64;
            z += (0..n).map(|j| a[j] * net.w2[k * n + j] as f64).sum::<f64>();
            if let Some(s) = s {
                z += (0..s.units)
                    .map(|u| g[u] * s.out[k * s.units + u] as f64)
                    .sum::<f64>();
            }
            sig(z)
        })
    }

    #[test]
    fn the_register_blocked_sums_give_the_outputs_of_the_definition() {
        // 80 hidden units: one block of 64 and two of 8; 600 inputs: more
        // than one batch of non-zero inputs.
        let mut net = Net::random(600, 80, 7).deepened(24, 8).unwrap();
        let s = net.second.as_mut().unwrap();
        for (i, w) in s.out.iter_mut().enumerate() {
            *w = ((i * 5 % 13) as f32 - 6.0) * 0.05;
        }
        let x: Vec<f32> = (0..600)
            .map(|i| [0.0, 1.0, 0.0, 0.5, 0.0, 0.0, 2.0][i % 7])
            .collect();
        let (fast, slow) = (net.forward(&x), naive_forward(&net, &x));
        for k in 0..OUTPUTS {
            assert!((fast[k] as f64 - slow[k]).abs() < 1e-5, "{fast:?} {slow:?}");
        }
        // The file keeps the second layer unit-major: a round trip is exact.
        assert_eq!(Net::from_bytes(&net.to_bytes(), &[600]).unwrap(), net);
    }

    /// A deepened net whose second layer already speaks to the outputs,
    /// an input and a target for gradient checks.
    fn gradient_case() -> (Net, [f32; 6], [f32; OUTPUTS]) {
        let mut net = Net::random(6, 8, 2).deepened(8, 4).unwrap();
        let s = net.second.as_mut().unwrap();
        for (i, w) in s.out.iter_mut().enumerate() {
            *w = ((i * 7 % 11) as f32 - 5.0) * 0.1;
        }
        let x = [1.0, 0.0, 0.5, 1.0, 0.25, 0.0];
        (net, x, [0.7, 0.2, 0.01, 0.3, 0.02])
    }

    /// For each weight `pick` reaches: the loss's slope by central
    /// differences and the training step over its learning rate.
    fn slopes(
        pick: fn(&mut Net) -> &mut Vec<f32>,
        indices: &[usize],
        backprop: Backprop,
    ) -> Vec<(f64, f64)> {
        let (mut net, x, target) = gradient_case();
        net.set_backprop(backprop);
        // Cross-entropy summed over the five outputs.
        let loss = |n: &Net| -> f64 {
            let y = n.forward(&x);
            (0..OUTPUTS)
                .map(|k| {
                    let (t, y) = (target[k] as f64, y[k] as f64);
                    -(t * y.ln() + (1.0 - t) * (1.0 - y).ln())
                })
                .sum()
        };
        let alpha = 1e-3;
        let mut stepped = net.clone();
        stepped.train(&x, &target, alpha);
        let eps = 1e-2;
        indices
            .iter()
            .map(|&i| {
                let (mut up, mut down) = (net.clone(), net.clone());
                pick(&mut up)[i] += eps;
                pick(&mut down)[i] -= eps;
                let numeric = -(loss(&up) - loss(&down)) / (2.0 * eps as f64);
                let step = (pick(&mut stepped)[i] - pick(&mut net)[i]) as f64 / alpha as f64;
                (numeric, step)
            })
            .collect()
    }

    fn close((numeric, step): (f64, f64)) -> bool {
        (numeric - step).abs() < 2e-3 + 0.05 * numeric.abs()
    }

    #[test]
    fn the_second_layer_gradient_matches_finite_differences() {
        fn second_w(n: &mut Net) -> &mut Vec<f32> {
            &mut n.second.as_mut().unwrap().w
        }
        for (i, pair) in slopes(second_w, &[0, 5, 17, 40, 63], Backprop::Full)
            .into_iter()
            .enumerate()
        {
            assert!(close(pair), "second w #{i}: {pair:?}");
        }
    }

    #[test]
    fn the_first_layer_learns_through_the_second_only_with_full_back_propagation() {
        fn first_w(n: &mut Net) -> &mut Vec<f32> {
            &mut n.w1
        }
        fn first_b(n: &mut Net) -> &mut Vec<f32> {
            &mut n.b1
        }
        let w = [0, 3, 9, 20, 26, 47];
        for pair in slopes(first_w, &w, Backprop::Full) {
            assert!(close(pair), "w1: {pair:?}");
        }
        for pair in slopes(first_b, &[0, 2, 5, 7], Backprop::Full) {
            assert!(close(pair), "b1: {pair:?}");
        }
        // Detached, the first layer's step misses the second layer's part.
        let detached = slopes(first_b, &[0, 2, 5, 7], Backprop::Detached);
        assert!(detached.into_iter().any(|p| !close(p)));
    }
}
