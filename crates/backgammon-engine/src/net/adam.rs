//! Fitting a [`Net`] in mini-batches with Adam (Kingma and Ba, 2015): the
//! gradient of a batch is summed sample by sample ([`Net::accumulate`],
//! sparse in the inputs like the forward pass), then every weight takes
//! one step scaled by running averages of its gradient and of its square.
//! Per-sample gradient descent ([`Net::train`]) moves each weight by the
//! same rate whatever its gradient's scale; Adam gives each weight its own.
//! On generation 8's labels that made the difference: the same warm fit by
//! per-sample descent did not win its duel, Adam's did.

use super::{Net, OUTPUTS};

/// A gradient with the net's shapes (the ascent direction of the
/// outputs' log-likelihood), summed over a batch.
#[derive(Clone, Debug)]
pub struct Grads {
    /// In the order of [`Net::params_mut`].
    parts: [Vec<f32>; 7],
    samples: u32,
}

impl Grads {
    /// A zero gradient for `net`.
    pub fn new(net: &Net) -> Grads {
        Grads {
            parts: net.param_lens().map(|n| vec![0.0; n]),
            samples: 0,
        }
    }

    /// Back to zero.
    pub fn clear(&mut self) {
        for p in &mut self.parts {
            p.fill(0.0);
        }
        self.samples = 0;
    }

    /// Samples summed since the last clear.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Adds `other`'s sum (a gradient of the same net's shapes) to this one.
    pub fn add(&mut self, other: &Grads) {
        for (a, b) in self.parts.iter_mut().zip(&other.parts) {
            assert_eq!(a.len(), b.len(), "gradients of different nets");
            for (a, b) in a.iter_mut().zip(b) {
                *a += b;
            }
        }
        self.samples += other.samples;
    }
}

/// Mutable views of a gradient's parts, named as the net's.
pub(super) struct GradsMut<'a> {
    pub w1: &'a mut [f32],
    pub b1: &'a mut [f32],
    pub w2: &'a mut [f32],
    pub b2: &'a mut [f32],
    pub sw: &'a mut [f32],
    pub sb: &'a mut [f32],
    pub sout: &'a mut [f32],
}

impl Grads {
    /// The parts to add one more sample's gradient to (counted here, so
    /// that [`Adam::step`] averages over the samples added).
    pub(super) fn add_sample(&mut self) -> GradsMut<'_> {
        self.samples += 1;
        let [w1, b1, w2, b2, sw, sb, sout] = &mut self.parts;
        GradsMut {
            w1,
            b1,
            w2,
            b2,
            sw,
            sb,
            sout,
        }
    }
}

/// Adam's state for one net: the running averages of each weight's
/// gradient and squared gradient.
#[derive(Clone, Debug)]
pub struct Adam {
    m: [Vec<f32>; 7],
    v: [Vec<f32>; 7],
    steps: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    /// Fresh state for `net`.
    pub fn new(net: &Net) -> Adam {
        let zero = net.param_lens().map(|n| vec![0.0; n]);
        Adam {
            m: zero.clone(),
            v: zero,
            steps: 0,
        }
    }

    /// One step of rate `rate` along the batch's mean gradient `g` (the
    /// net must have the shapes this state was made for).
    pub fn step(&mut self, net: &mut Net, g: &Grads, rate: f32) {
        if g.samples == 0 {
            return;
        }
        self.steps += 1;
        let scale = 1.0 / g.samples as f32;
        let c1 = 1.0 - BETA1.powi(self.steps);
        let c2 = 1.0 - BETA2.powi(self.steps);
        let rate = rate * c2.sqrt() / c1;
        let params = net.params_mut();
        for (((w, g), m), v) in params
            .into_iter()
            .zip(&g.parts)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            assert_eq!(w.len(), g.len(), "Adam's state is for another net");
            for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                let g = g * scale;
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *w += rate * *m / (v.sqrt() + EPSILON);
            }
        }
    }
}

impl Net {
    /// The lengths of the parts of [`Net::params_mut`].
    fn param_lens(&self) -> [usize; 7] {
        let (sw, sb, so) = self
            .second
            .as_ref()
            .map_or((0, 0, 0), |s| (s.w.len(), s.b.len(), s.out.len()));
        [
            self.w1.len(),
            self.b1.len(),
            self.w2.len(),
            OUTPUTS,
            sw,
            sb,
            so,
        ]
    }

    /// Every weight, in parts: the first layer's weights and biases, the
    /// output weights and biases, the second layer's weights, biases and
    /// output weights (empty without a second layer).
    fn params_mut(&mut self) -> [&mut [f32]; 7] {
        let (sw, sb, so): (&mut [f32], &mut [f32], &mut [f32]) = match &mut self.second {
            Some(s) => (&mut s.w, &mut s.b, &mut s.out),
            None => (&mut [], &mut [], &mut []),
        };
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            sw,
            sb,
            so,
        ]
    }

    /// Adds to `g` the gradient, for inputs `x` and `target`, of the
    /// outputs' log-likelihood (each output its own Bernoulli, as
    /// [`Net::train`] descends), without changing the net. Returns the
    /// outputs.
    pub fn accumulate(&self, x: &[f32], target: &[f32; OUTPUTS], g: &mut Grads) -> [f32; OUTPUTS] {
        self.accumulate_with(x, g, |y| std::array::from_fn(|k| target[k] - y[k]))
    }

    /// [`Net::accumulate`] for any loss: `ascent` turns the outputs into
    /// the ascent direction of the objective at the outputs' sums (before
    /// their sigmoids), which is then passed back through the net.
    pub fn accumulate_with(
        &self,
        x: &[f32],
        g: &mut Grads,
        ascent: impl FnOnce(&[f32; OUTPUTS]) -> [f32; OUTPUTS],
    ) -> [f32; OUTPUTS] {
        let n = self.hidden;
        let mut buf = [0.0f32; super::MAX_HIDDEN];
        let mut second = [0.0f32; super::MAX_HIDDEN];
        let (a, s_act) = (&mut buf[..n], &mut second[..self.second_units()]);
        self.activations(x, a, s_act);
        let y = self.outputs(a, s_act);
        let dz = ascent(&y);
        let g = g.add_sample();
        let mut dh = [0.0f32; super::MAX_HIDDEN];
        let dh = &mut dh[..n];
        if let Some(s) = &self.second {
            s.accumulate(a, s_act, &dz, dh, g.sw, g.sb, g.sout);
            if self.backprop == super::Backprop::Detached {
                dh.fill(0.0);
            }
        }
        for (k, &d) in dz.iter().enumerate() {
            let w = &self.w2[k * n..(k + 1) * n];
            let gw = &mut g.w2[k * n..(k + 1) * n];
            for j in 0..n {
                dh[j] += d * w[j];
                gw[j] += d * a[j];
            }
            g.b2[k] += d;
        }
        for j in 0..n {
            dh[j] *= a[j] * (1.0 - a[j]);
            g.b1[j] += dh[j];
        }
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                for (w, &d) in g.w1[i * n..(i + 1) * n].iter_mut().zip(dh.iter()) {
                    *w += v * d;
                }
            }
        }
        y
    }
}

impl super::Second {
    /// [`Net::accumulate`]'s part for the second layer: adds its weights'
    /// gradient to `gw`, `gb`, `gout` and the error it passes back to the
    /// first layer's activations to `da`.
    #[allow(clippy::too_many_arguments)]
    fn accumulate(
        &self,
        a: &[f32],
        act: &[f32],
        dz: &[f32; OUTPUTS],
        da: &mut [f32],
        gw: &mut [f32],
        gb: &mut [f32],
        gout: &mut [f32],
    ) {
        let u = self.units;
        let mut buf = [0.0f32; super::MAX_HIDDEN];
        let dg = &mut buf[..u];
        for (k, &d) in dz.iter().enumerate() {
            let w = &self.out[k * u..(k + 1) * u];
            let go = &mut gout[k * u..(k + 1) * u];
            for j in 0..u {
                dg[j] += d * w[j];
                go[j] += d * act[j];
            }
        }
        for j in 0..u {
            dg[j] *= act[j] * (1.0 - act[j]);
            gb[j] += dg[j];
        }
        for (i, (&x, d)) in a.iter().zip(da.iter_mut()).enumerate() {
            let row = &self.w[i * u..(i + 1) * u];
            let grow = &mut gw[i * u..(i + 1) * u];
            for j in 0..u {
                *d += dg[j] * row[j];
                grow[j] += dg[j] * x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sample `k` of a set whose targets are functions of the inputs.
    fn sample(k: usize) -> ([f32; 12], [f32; OUTPUTS]) {
        let mut rng = backgammon_rules::SplitMix::new(k as u64);
        let x: [f32; 12] = std::array::from_fn(|_| (rng.unit() < 0.4) as u8 as f32);
        let t: [f32; OUTPUTS] = std::array::from_fn(|o| {
            let on = (0..12).filter(|&i| (i + o) % 3 == 0 && x[i] > 0.0).count();
            on as f32 / 4.0
        });
        (x, t)
    }

    /// The gradient matches the per-sample step: one descent step of rate
    /// r changes each weight by r times the gradient (checked through the
    /// outputs of two nets moved each way).
    #[test]
    fn the_gradient_is_the_per_sample_step() {
        for deep in [false, true] {
            let mut net = Net::random(12, 16, 3);
            if deep {
                net = net.deepened(8, 4).unwrap();
                // Give the new units weight, so their gradient shows.
                for w in net.params_mut()[6].iter_mut() {
                    *w = 0.3;
                }
            }
            let (x, t) = sample(1);
            let mut g = Grads::new(&net);
            net.accumulate(&x, &t, &mut g);
            let mut stepped = net.clone();
            stepped.train(&x, &t, 1e-3);
            let mut along = net.clone();
            for (w, g) in along.params_mut().into_iter().zip(&g.parts) {
                for (w, g) in w.iter_mut().zip(g) {
                    *w += 1e-3 * g;
                }
            }
            let (p, q) = (stepped.forward(&x), along.forward(&x));
            for k in 0..OUTPUTS {
                assert!((p[k] - q[k]).abs() < 1e-5, "deep {deep}: {p:?} {q:?}");
            }
        }
    }

    /// Adam in batches fits a small set better than it started.
    #[test]
    fn adam_fits_a_small_set() {
        let mut net = Net::random(12, 16, 5).deepened(8, 6).unwrap();
        let data: Vec<_> = (0..40).map(sample).collect();
        let loss = |net: &Net| -> f32 {
            data.iter()
                .map(|(x, t)| {
                    let y = net.forward(x);
                    (0..OUTPUTS).map(|k| (y[k] - t[k]).powi(2)).sum::<f32>()
                })
                .sum()
        };
        let before = loss(&net);
        let mut adam = Adam::new(&net);
        let mut g = Grads::new(&net);
        for _ in 0..300 {
            for batch in data.chunks(8) {
                g.clear();
                for (x, t) in batch {
                    net.accumulate(x, t, &mut g);
                }
                assert_eq!(g.samples(), batch.len() as u32);
                adam.step(&mut net, &g, 0.01);
            }
        }
        let after = loss(&net);
        assert!(after < 0.2 * before, "{before} -> {after}");
    }
}
