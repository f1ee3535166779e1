//! The network as the trainer sees it: float weights, the features, the forward pass, and
//! the export to the quantized file the engine embeds.
//!
//! Architecture `(768 → H) × 2 → 1 × B`: one feature per (piece, square) seen from each
//! side (the side's own pieces first, squares flipped vertically for black), one shared
//! first layer giving an accumulator per perspective, SCReLU (`clamp(x, 0, 1)²`) on both,
//! the side to move's half first, then one output chosen from `B` output buckets by the
//! number of pieces on the board ([`bucket_of`]), so that a small net can weigh its
//! features differently in the opening and the endgame. The output `o` is the evaluation
//! in units of [`EVAL_SCALE`] centipawns: `eval = 400 · o`.
//!
//! With mirrored pairs (`pairs`, header flag bit 1) the file's `H` neurons each have a
//! twin that reads the board mirrored left to right (feature `f` through the weights of
//! `f ^ 7`, files a..h reversed) with the same bias and output weights: the net is `2 · H`
//! wide at the bytes of `H`, and its evaluation is exactly symmetric under the mirror, as
//! chess is but for castling rights, which the features do not see. The twins come after
//! the file's neurons in each accumulator (neuron `H + i` is neuron `i`'s twin).
//!
//! Optionally (`dense` above 0) a dense layer sits between the accumulators and the
//! output: `dense` neurons, each a weighted sum of both sides' SCReLU activations plus a
//! bias, clipped to [0, 1], shared by the buckets; the bucket's output weights then read
//! those neurons instead of the activations.
//!
//! The quantized file (`.nnue`), little-endian (the engine defines its layout, the feature
//! index and the output bucket, `minnow::nnue`, and this module uses them: [`Layout`],
//! [`feature_pair`], [`bucket_of`]):
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..4 | magic `MNN3` |
//! | 4..6 | `H` (u16) |
//! | 6 | `QA` (u8): first-layer weights and biases are `round(w · QA)` |
//! | 7 | `QB` (u8): output weights are `round(w · QB)` |
//! | 8 | `B` (u8): output buckets |
//! | 9 | flags: bit 0 king mirroring ([`Sample::king_mirrored`]), bit 1 mirrored pairs (above), the other bits 0 |
//! | 10 | `D` (u8): the dense layer's neurons, 0 for none |
//! | 11 | reserved, 0 |
//! | then | `768 · H` i8: first-layer weights, neuron-major (neuron `i`'s 768 weights together, by feature), each stored as its difference from the previous feature's weight (wrapping i8; the first from 0): 13% smaller compressed than the weights feature-major |
//! | then | `H` i16: first-layer biases |
//! | then, if `D` > 0 | `D · 2 · H` i8: dense weights `round(w · QB)`, neuron by neuron (side to move's half first) |
//! | then, if `D` > 0 | `D` i32: dense biases, `round(b · QA² · QB)` |
//! | then | output weights, bucket by bucket: `2 · H` i8 (side to move's half first), or with `D` > 0, `D` i16 `round(w · QO)` |
//! | then | `B` i32: output biases, `round(b · QA · QA · QB)`, or `round(b · QA² · QB · QO)` with `D` > 0 |
//!
//! With activations `clamp(acc, 0, QA)²` the engine's sum is `o · QA² · QB`, so
//! `eval = sum · 400 / (QA² · QB)`. With a dense layer each neuron's sum is on the grid
//! `QA² · QB`, clipped there to `[0, QA² · QB]` with no rounding, so the output's sum is
//! `o · QA² · QB · QO`: integer all the way, the float net exactly.

use crate::format::Record;
use crate::rng::Rng;

pub use minnow::nnue::{HEADER_BYTES, INPUTS, Layout, MAGIC, QO, bucket_of, feature_pair};

/// Centipawns per unit of network output (the engine's [`minnow::nnue::SCALE`]).
pub const EVAL_SCALE: f32 = minnow::nnue::SCALE as f32;
/// First-layer quantization by default (`train --qa`): weights and biases times this,
/// weights as i8.
pub const QA: i32 = 64;
/// Output-layer quantization: weights times this, as i8; with a dense layer, its weights.
pub const QB: i32 = 64;
/// The piece index of each view's own king in [`feature_pair`]'s numbering.
const OWN_KING: usize = 5;

/// Float network.
#[derive(Clone, Debug)]
pub struct Network {
    /// Hidden size per perspective.
    pub hidden: usize,
    /// `INPUTS × hidden`, feature-major.
    pub w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// Output buckets.
    pub buckets: usize,
    /// Neurons of the dense layer between the accumulators and the output (`train
    /// --dense`); 0 for none, the output then reading the accumulators directly.
    pub dense: usize,
    /// `dense × 2 × hidden`, neuron-major: each dense neuron's weights on the side to
    /// move's activations, then the other side's (empty without a dense layer).
    pub wd: Vec<f32>,
    /// `dense` biases of the dense layer.
    pub bd: Vec<f32>,
    /// Output weights per bucket: `2 × hidden` without a dense layer (the side to move's
    /// half, then the other side's), else `dense`.
    pub w2: Vec<f32>,
    /// `buckets` output biases.
    pub b2: Vec<f32>,
    /// First-layer quantization of the export ([`QA`] unless set): a coarser grid
    /// compresses smaller (about a bit per weight for half of 64).
    pub qa: i32,
    /// King mirroring: the net reads its samples [`Sample::king_mirrored`] (header flag).
    pub mirror: bool,
    /// Mirrored pairs: each neuron has a twin reading the board mirrored left to right
    /// (module documentation; header flag bit 1). Not with a dense layer or king mirroring.
    pub pairs: bool,
}

/// A training position: white-view features (black's follow by [`feature_pair`]), side to
/// move, and the target in [0, 1].
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Number of features used.
    pub count: u8,
    /// White-view feature indices.
    pub white: [u16; 32],
    /// Black-view feature indices.
    pub black: [u16; 32],
    /// True if black is to move.
    pub black_to_move: bool,
    /// The blended target.
    pub target: f32,
    /// The search score (cp, side to move's view), for reports.
    pub score: i16,
    /// Number of pieces on the board (for the output bucket).
    pub pieces: u8,
}

impl Sample {
    /// The sample of a record; `wdl` is the weight of the game result in the target, the
    /// rest being `sigmoid(score / scale)`.
    pub fn new(r: &Record, wdl: f32, scale: f32) -> Sample {
        Sample::with_score(r, f32::from(r.score), wdl, scale)
    }

    /// The sample of a record with `score` (cp, side to move's view) in place of the
    /// record's search score in the target (for blending in another label).
    pub fn with_score(r: &Record, score: f32, wdl: f32, scale: f32) -> Sample {
        let mut s = Sample {
            count: 0,
            white: [0; 32],
            black: [0; 32],
            black_to_move: r.stm == minnow::Color::Black,
            target: 0.0,
            score: r.score,
            pieces: r.occupancy.count_ones() as u8,
        };
        for (piece, sq) in r.pieces() {
            let [w, b] = feature_pair(piece.index(), sq, [0, 0]);
            s.white[s.count as usize] = w as u16;
            s.black[s.count as usize] = b as u16;
            s.count += 1;
        }
        let score = sigmoid(score / scale);
        let result = f32::from(r.result) / 2.0;
        s.target = wdl * result + (1.0 - wdl) * score;
        s
    }

    /// The same position mirrored left to right (files a..h reversed): chess evaluation is
    /// symmetric under it but for castling rights, which the features do not see.
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        let n = self.count as usize;
        for f in m.white[..n].iter_mut().chain(m.black[..n].iter_mut()) {
            *f ^= 7;
        }
        m
    }

    /// The sample as a king-mirrored net reads it: each view whose own king stands on
    /// files e–h mirrored left to right, so that its king is on a–d. Half of the own
    /// king's squares never occur, and the weights of every other piece are learned
    /// relative to the king's wing (a pawn shield on f2–h2 and one on a2–c2 share them).
    pub fn king_mirrored(&self) -> Sample {
        let mut m = *self;
        let n = self.count as usize;
        for view in [&mut m.white[..n], &mut m.black[..n]] {
            // Each view's own king is feature 5 · 64 + square (own pieces first).
            if view.iter().any(|&f| f / 64 == OWN_KING as u16 && f % 8 >= 4) {
                view.iter_mut().for_each(|f| *f ^= 7);
            }
        }
        m
    }

    /// (side to move's features, other side's features).
    pub fn perspectives(&self) -> (&[u16], &[u16]) {
        let n = self.count as usize;
        if self.black_to_move {
            (&self.black[..n], &self.white[..n])
        } else {
            (&self.white[..n], &self.black[..n])
        }
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// SCReLU: the square of x clamped to [0, 1] (written as two selects, each of which the
/// compiler turns into a vector max or min, rather than `clamp`, whose NaN rules keep it
/// from vectorising the loops that call it, or an `if … else if`, which stayed scalar with
/// branches; the values are the same).
#[inline(always)]
#[allow(clippy::manual_clamp)]
fn screlu(x: f32) -> f32 {
    let c = if x < 0.0 { 0.0 } else { x };
    let c = if c > 1.0 { 1.0 } else { c };
    c * c
}

/// The dense layer's activation: x clamped to [0, 1] (selects, as in [`screlu`]).
#[inline(always)]
#[allow(clippy::manual_clamp)]
fn crelu(x: f32) -> f32 {
    let c = if x < 0.0 { 0.0 } else { x };
    if c > 1.0 { 1.0 } else { c }
}

/// Dot product in eight running sums (see [`Network::output_of`] on why eight lanes).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            lanes[j] += x[j] * y[j];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Working memory of [`Network::backward_with`], one per training thread.
#[derive(Default)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    /// The dense layer's inputs (both sides' activations) and its neurons before clipping.
    act: Vec<f32>,
    pre: Vec<f32>,
    d_act: Vec<f32>,
}

impl Network {
    /// A fresh network without a dense layer: small random weights, zero biases.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Network {
        Network::random_dense(hidden, 0, buckets, seed)
    }

    /// A fresh network with `dense` neurons between the accumulators and the output (0:
    /// none): small random weights, zero biases. The dense biases start at 0.5, inside the
    /// clipping range, so that every dense neuron passes gradient from the first step.
    pub fn random_dense(hidden: usize, dense: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = Rng::new(seed, 0x4E4E);
        let mut uniform = |scale: f32| (rng.unit() as f32 * 2.0 - 1.0) * scale;
        let w1_scale = 1.0 / (32.0f32).sqrt();
        let w1 = (0..INPUTS * hidden).map(|_| uniform(w1_scale)).collect();
        let wd_scale = 1.0 / (2.0 * hidden as f32).sqrt();
        let wd = (0..dense * 2 * hidden).map(|_| uniform(wd_scale)).collect();
        let fan_in = if dense > 0 { dense } else { 2 * hidden };
        let w2_scale = 1.0 / (fan_in as f32).sqrt();
        let w2 = (0..buckets * fan_in).map(|_| uniform(w2_scale)).collect();
        Network {
            hidden,
            w1,
            b1: vec![0.0; hidden],
            dense,
            wd,
            bd: vec![0.5; dense],
            buckets,
            w2,
            b2: vec![0.0; buckets],
            qa: QA,
            mirror: false,
            pairs: false,
        }
    }

    /// Output weights per bucket: `2 × hidden`, or `dense` with a dense layer.
    pub fn fan_in(&self) -> usize {
        if self.dense > 0 { self.dense } else { 2 * self.hidden }
    }

    /// Neurons per accumulator as computed: `hidden`, or twice that with mirrored pairs.
    pub fn width(&self) -> usize {
        if self.pairs { 2 * self.hidden } else { self.hidden }
    }

    /// This net with `hidden` neurons (more than it has): the new neurons get random
    /// first-layer weights and zero weights onward, so the wider net computes exactly
    /// this one's function and training grows the new neurons from there.
    pub fn widened(&self, hidden: usize, seed: u64) -> Network {
        let (old, buckets, dense) = (self.hidden, self.buckets, self.dense);
        let mut net = Network::random_dense(hidden, dense, buckets, seed);
        for f in 0..INPUTS {
            net.w1[f * hidden..f * hidden + old].copy_from_slice(&self.w1[f * old..(f + 1) * old]);
        }
        net.b1[..old].copy_from_slice(&self.b1);
        if dense > 0 {
            // Each dense neuron's two halves, the new inputs' weights zero.
            net.wd.fill(0.0);
            for k in 0..2 * dense {
                net.wd[k * hidden..k * hidden + old].copy_from_slice(&self.wd[k * old..(k + 1) * old]);
            }
            net.bd.copy_from_slice(&self.bd);
            net.w2.copy_from_slice(&self.w2);
        } else {
            net.w2.fill(0.0);
            for k in 0..2 * buckets {
                net.w2[k * hidden..k * hidden + old].copy_from_slice(&self.w2[k * old..(k + 1) * old]);
            }
        }
        net.b2.copy_from_slice(&self.b2);
        (net.qa, net.mirror, net.pairs) = (self.qa, self.mirror, self.pairs);
        net
    }

    /// This flat net with a dense layer of `dense` neurons added: the same first layer,
    /// the dense layer and the output new and random (a net's features kept, its output
    /// learned again).
    pub fn with_dense(&self, dense: usize, seed: u64) -> Network {
        let mut net = Network::random_dense(self.hidden, dense, self.buckets, seed);
        net.w1.copy_from_slice(&self.w1);
        net.b1.copy_from_slice(&self.b1);
        (net.qa, net.mirror, net.pairs) = (self.qa, self.mirror, self.pairs);
        net
    }

    /// The two accumulators (side to move's, other side's) before activation.
    pub fn accumulators(&self, s: &Sample) -> (Vec<f32>, Vec<f32>) {
        let mut buf = Scratch::default();
        self.accumulate(s, &mut buf);
        (buf.us, buf.them)
    }

    /// Fills `buf.us` and `buf.them` with the two accumulators, reusing their memory
    /// (with mirrored pairs each holds the twins after the neurons: feature `f` adds the
    /// row of `f ^ 7` to them).
    #[inline(always)]
    fn accumulate(&self, s: &Sample, buf: &mut Scratch) {
        let (us, them) = s.perspectives();
        let h = self.hidden;
        for (features, a) in [(us, &mut buf.us), (them, &mut buf.them)] {
            a.clear();
            a.extend_from_slice(&self.b1);
            for &f in features {
                let row = &self.w1[f as usize * h..(f as usize + 1) * h];
                a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
            }
            if self.pairs {
                a.extend_from_slice(&self.b1);
                let twins = &mut a[h..];
                for &f in features {
                    let m = f as usize ^ 7;
                    twins.iter_mut().zip(&self.w1[m * h..(m + 1) * h]).for_each(|(x, w)| *x += w);
                }
            }
        }
    }

    /// (output weights, output bias) of a sample's bucket.
    #[inline(always)]
    fn output(&self, s: &Sample) -> (usize, f32) {
        let k = bucket_of(s.pieces as usize, self.buckets);
        (k * self.fan_in(), self.b2[k])
    }

    /// The output of a sample from its accumulators in `buf`: (offset of its bucket's
    /// output weights in `w2`, output). With a dense layer, `buf` keeps its inputs and
    /// neurons for the backward pass.
    #[inline(always)]
    fn output_of(&self, s: &Sample, buf: &mut Scratch) -> (usize, f32) {
        let h = self.hidden;
        let (w, bias) = self.output(s);
        if self.dense > 0 {
            buf.act.clear();
            buf.act.extend(buf.us.iter().chain(&buf.them).map(|&a| screlu(a)));
            buf.pre.clear();
            let n = 2 * h;
            buf.pre.extend(
                self.bd.iter().enumerate().map(|(j, b)| b + dot(&self.wd[j * n..(j + 1) * n], &buf.act)),
            );
            let out =
                buf.pre.iter().zip(&self.w2[w..w + self.dense]).map(|(&x, wt)| crelu(x) * wt).sum::<f32>();
            return (w, bias + out);
        }
        let (w_us, w_them) = self.w2[w..w + 2 * h].split_at(h);
        // Eight running sums, one per lane: a single sum would be a chain of dependent
        // additions that the compiler may not reorder into vector lanes. Blocks of eight
        // (not `lanes[i % 8]`, which compiled to scalar code with branches and took a
        // quarter of the trainer's time); the sums are the same, in the same order. With
        // mirrored pairs the twins (the accumulators' second halves) share the weights.
        let mut lanes = [0.0f32; 8];
        for (us, them) in buf.us.chunks(h).zip(buf.them.chunks(h)) {
            let blocks = us.chunks(8).zip(them.chunks(8)).zip(w_us.chunks(8)).zip(w_them.chunks(8));
            for (((u, t), wu), wt) in blocks {
                if let (Ok(u), Ok(t), Ok(wu), Ok(wt)) = (
                    <&[f32; 8]>::try_from(u),
                    <&[f32; 8]>::try_from(t),
                    <&[f32; 8]>::try_from(wu),
                    <&[f32; 8]>::try_from(wt),
                ) {
                    for j in 0..8 {
                        lanes[j] += screlu(u[j]) * wu[j] + screlu(t[j]) * wt[j];
                    }
                } else {
                    for j in 0..u.len() {
                        lanes[j] += screlu(u[j]) * wu[j] + screlu(t[j]) * wt[j];
                    }
                }
            }
        }
        (w, bias + lanes.iter().sum::<f32>())
    }

    /// Output (eval / 400) of a sample.
    pub fn forward(&self, s: &Sample) -> f32 {
        let mut buf = Scratch::default();
        self.accumulate(s, &mut buf);
        self.output_of(s, &mut buf).1
    }

    /// Evaluation in centipawns, side to move's view.
    pub fn eval_cp(&self, s: &Sample) -> f32 {
        self.forward(s) * EVAL_SCALE
    }

    /// Adds the gradient of `(sigmoid(o · 400 / scale) − target)²` for one sample to `g`
    /// and returns the loss.
    pub fn backward(&self, s: &Sample, scale: f32, g: &mut Network) -> f32 {
        self.backward_with(s, scale, g, &mut Scratch::default())
    }

    /// [`Network::backward`] with the working memory `buf` reused from sample to sample
    /// (the trainer's inner loop: no allocation, and loops without branches that the
    /// compiler vectorises).
    #[inline(always)]
    pub fn backward_with(&self, s: &Sample, scale: f32, g: &mut Network, buf: &mut Scratch) -> f32 {
        self.accumulate(s, buf);
        let h = self.hidden;
        let (w, out) = self.output_of(s, buf);
        let k = EVAL_SCALE / scale;
        let p = sigmoid(out * k);
        let err = p - s.target;
        let d_out = 2.0 * err * p * (1.0 - p) * k;
        g.b2[w / self.fan_in()] += d_out;
        let width = self.width();
        buf.d_us.resize(width, 0.0);
        buf.d_them.resize(width, 0.0);
        if self.dense > 0 {
            // Back through the dense layer to its inputs, the two sides' activations.
            let n = 2 * h;
            buf.d_act.clear();
            buf.d_act.resize(n, 0.0);
            for (j, &x) in buf.pre.iter().enumerate() {
                g.w2[w + j] += d_out * crelu(x);
                if x <= 0.0 || x >= 1.0 {
                    continue;
                }
                let d = d_out * self.w2[w + j];
                g.bd[j] += d;
                let (wd, gd) = (&self.wd[j * n..(j + 1) * n], &mut g.wd[j * n..(j + 1) * n]);
                gd.iter_mut().zip(&buf.act).for_each(|(g, a)| *g += d * a);
                buf.d_act.iter_mut().zip(wd).for_each(|(da, w)| *da += d * w);
            }
            let (d_act_us, d_act_them) = buf.d_act.split_at(h);
            for (a, da, d) in [(&buf.us, d_act_us, &mut buf.d_us), (&buf.them, d_act_them, &mut buf.d_them)] {
                for ((&a, &da), d) in a.iter().zip(da).zip(d.iter_mut()) {
                    *d = if a > 0.0 && a < 1.0 { da * 2.0 * a } else { 0.0 };
                }
            }
        } else {
            let (w_us, w_them) = self.w2[w..w + 2 * h].split_at(h);
            let (g_us, g_them) = g.w2[w..w + 2 * h].split_at_mut(h);
            for (a, wt, gw, d) in
                [(&buf.us, w_us, g_us, &mut buf.d_us), (&buf.them, w_them, g_them, &mut buf.d_them)]
            {
                // The neurons, then with mirrored pairs their twins, on the same weights.
                for (a, d) in a.chunks(h).zip(d.chunks_mut(h)) {
                    for (((&a, &wt), gw), d) in a.iter().zip(wt).zip(gw.iter_mut()).zip(d.iter_mut()) {
                        *gw += d_out * screlu(a);
                        // SCReLU's slope: 2a inside (0, 1), flat outside.
                        *d = if a > 0.0 && a < 1.0 { d_out * wt * 2.0 * a } else { 0.0 };
                    }
                }
            }
        }
        for d in [&buf.d_us, &buf.d_them] {
            for half in d.chunks(h) {
                g.b1.iter_mut().zip(half).for_each(|(b, d)| *b += d);
            }
        }
        let (fu, ft) = s.perspectives();
        for (features, d) in [(fu, &buf.d_us), (ft, &buf.d_them)] {
            for &f in features {
                let row = &mut g.w1[f as usize * h..(f as usize + 1) * h];
                row.iter_mut().zip(&d[..h]).for_each(|(x, d)| *x += d);
                if self.pairs {
                    let m = f as usize ^ 7;
                    let twin = &mut g.w1[m * h..(m + 1) * h];
                    twin.iter_mut().zip(&d[h..]).for_each(|(x, d)| *x += d);
                }
            }
        }
        err * err
    }

    /// A network of zeros with this one's shape (for gradients and Adam moments).
    pub fn zeros_like(&self) -> Network {
        Network {
            hidden: self.hidden,
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            dense: self.dense,
            wd: vec![0.0; self.wd.len()],
            bd: vec![0.0; self.bd.len()],
            buckets: self.buckets,
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.buckets],
            qa: self.qa,
            mirror: self.mirror,
            pairs: self.pairs,
        }
    }

    /// Every parameter as one mutable sequence (w1, b1, wd, bd, w2, b2), for the optimiser.
    pub fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.wd.iter_mut())
            .chain(self.bd.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }

    /// Every parameter (same order as [`Network::params_mut`]).
    pub fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1.iter().chain(&self.b1).chain(&self.wd).chain(&self.bd).chain(&self.w2).chain(&self.b2)
    }

    /// The grids of the file: (dense biases' scale, output weights' scale, the largest
    /// output weight on that scale (i8 or, with a dense layer, i16), output biases' scale),
    /// each scale the factor a value is multiplied by and rounded at.
    fn grids(&self) -> (f32, f32, f32, f32) {
        let acts = (self.qa * self.qa * QB) as f32;
        if self.dense > 0 {
            (acts, QO as f32, f32::from(i16::MAX), acts * QO as f32)
        } else {
            (acts, QB as f32, 127.0, acts)
        }
    }

    /// Keeps the weights inside what the quantized file can hold.
    pub fn clip(&mut self) {
        let bias_clip = f32::from(i16::MAX) / self.qa as f32;
        let (w1_clip, wd_clip) = (127.0 / self.qa as f32, 127.0 / QB as f32);
        let (bd_grid, w2_grid, w2_max, b2_grid) = self.grids();
        let w2_clip = w2_max / w2_grid;
        self.w1.iter_mut().for_each(|w| *w = w.clamp(-w1_clip, w1_clip));
        self.wd.iter_mut().for_each(|w| *w = w.clamp(-wd_clip, wd_clip));
        self.w2.iter_mut().for_each(|w| *w = w.clamp(-w2_clip, w2_clip));
        self.b1.iter_mut().for_each(|w| *w = w.clamp(-bias_clip, bias_clip));
        let (bd_clip, b2_clip) = (i32::MAX as f32 / bd_grid / 2.0, i32::MAX as f32 / b2_grid / 2.0);
        self.bd.iter_mut().for_each(|w| *w = w.clamp(-bd_clip, bd_clip));
        self.b2.iter_mut().for_each(|w| *w = w.clamp(-b2_clip, b2_clip));
    }

    /// Zeroes the weights of features no position can have (pawns on the first or last
    /// rank; with king mirroring, the own king on files e–h): they never train, and zeros
    /// compress.
    pub fn zero_impossible(&mut self) {
        let (hidden, mirror) = (self.hidden, self.mirror);
        let pawns = [0usize, 6].into_iter().flat_map(|p| (0..8).chain(56..64).map(move |sq| p * 64 + sq));
        let kings = (0..64).filter(|sq| mirror && sq % 8 >= 4).map(|sq| OWN_KING * 64 + sq);
        for f in pawns.chain(kings) {
            self.w1[f * hidden..(f + 1) * hidden].fill(0.0);
        }
    }

    /// The network the engine computes: every weight and bias rounded to its quantization
    /// grid (the export rounds the same way). Training runs its forward and backward passes
    /// on this copy and applies the gradients to the float weights (quantization-aware
    /// training, straight-through), so the engine's integer inference equals the trained
    /// net's forward pass up to the final division.
    pub fn quantized(&self) -> Network {
        let grid = |w: f32, q: f32, max: f32| (w * q).round().clamp(-max, max) / q;
        let (qa, (bd_grid, w2_grid, w2_max, b2_grid)) = (self.qa as f32, self.grids());
        Network {
            hidden: self.hidden,
            w1: self.w1.iter().map(|&w| grid(w, qa, 127.0)).collect(),
            b1: self.b1.iter().map(|&w| grid(w, qa, 32767.0)).collect(),
            dense: self.dense,
            wd: self.wd.iter().map(|&w| grid(w, QB as f32, 127.0)).collect(),
            bd: self.bd.iter().map(|&w| grid(w, bd_grid, f32::MAX)).collect(),
            buckets: self.buckets,
            w2: self.w2.iter().map(|&w| grid(w, w2_grid, w2_max)).collect(),
            b2: self.b2.iter().map(|&w| grid(w, b2_grid, f32::MAX)).collect(),
            qa: self.qa,
            mirror: self.mirror,
            pairs: self.pairs,
        }
    }

    /// The float checkpoint: `hidden` and `buckets` (u32 each; in the second, bit 16 the
    /// king mirroring and bits 20..28 the dense layer's neurons) then every parameter as
    /// f32, little-endian.
    pub fn to_checkpoint(&self) -> Vec<u8> {
        let mut out = (self.hidden as u32).to_le_bytes().to_vec();
        let shape = self.buckets as u32
            | u32::from(self.mirror) << 16
            | u32::from(self.pairs) << 17
            | (self.dense as u32) << 20;
        out.extend_from_slice(&shape.to_le_bytes());
        self.params().for_each(|p| out.extend_from_slice(&p.to_le_bytes()));
        out
    }

    /// Reads a float checkpoint.
    pub fn from_checkpoint(bytes: &[u8]) -> Result<Network, String> {
        let word = |i: usize| -> Result<usize, String> {
            Ok(u32::from_le_bytes(
                bytes.get(4 * i..4 * i + 4).ok_or("checkpoint too short")?.try_into().unwrap(),
            ) as usize)
        };
        let (hidden, buckets, flags) = (word(0)?, word(1)? & 0xFFFF, word(1)? >> 16);
        let (mirror, pairs, dense) = (flags & 1, flags >> 1 & 1, flags >> 4);
        if !(1..=4096).contains(&hidden) || !(1..=64).contains(&buckets) || flags & 0xC != 0 || dense > 255 {
            return Err(format!(
                "checkpoint: implausible shape {hidden} hidden, {buckets} buckets, flags {flags}"
            ));
        }
        let mut net = Network::random_dense(hidden, dense, buckets, 0);
        (net.mirror, net.pairs) = (mirror == 1, pairs == 1);
        let want = 8 + 4 * net.params().count();
        if bytes.len() != want {
            return Err(format!("checkpoint: {} bytes, {want} expected for its shape", bytes.len()));
        }
        for (p, chunk) in net.params_mut().zip(bytes[8..].chunks_exact(4)) {
            *p = f32::from_le_bytes(chunk.try_into().unwrap());
        }
        Ok(net)
    }

    /// Reads a quantized file (format in the module documentation) back as the network on
    /// its grid: every weight the integer the file holds divided by its quantization, so
    /// that `from_quantized(&net.quantize())` is `net.quantized()`. Training is
    /// quantization-aware, so this is the very net the engine computes, and a shipped net
    /// can be trained further (`train --init`).
    pub fn from_quantized(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES || bytes[..4] != MAGIC {
            return Err("not a quantized net: no MNN3 header".into());
        }
        let layout = Layout::of(bytes);
        let (hidden, qa, qb, buckets) = (layout.stored, layout.qa, layout.qb, layout.buckets);
        if !(1..=4096).contains(&hidden) || !(1..=64).contains(&buckets) || qa == 0 || qb != QB {
            return Err(format!("implausible header: {hidden} hidden, {buckets} buckets, QA {qa}, QB {qb}"));
        }
        if bytes[9] > 3 || bytes[11] != 0 {
            return Err(format!("unknown header flags {:?}", &bytes[9..12]));
        }
        let dense = layout.dense;
        if layout.pairs && (layout.king_mirror || dense > 0) {
            return Err(
                "mirrored pairs with king mirroring or a dense layer: not a net this format has".into()
            );
        }
        let want = layout.bytes();
        if bytes.len() != want {
            return Err(format!("{} bytes, {want} expected for its header", bytes.len()));
        }
        let mut net = Network::random_dense(hidden, dense, buckets, 0);
        net.qa = qa;
        (net.mirror, net.pairs) = (layout.king_mirror, layout.pairs);
        let (qa, qb) = (qa as f32, qb as f32);
        // Each part read from where the layout puts it (they follow each other).
        let mut at = layout.first_layer();
        for i in 0..hidden {
            let mut w = 0i8;
            for f in 0..INPUTS {
                w = w.wrapping_add(bytes[at] as i8);
                net.w1[f * hidden + i] = f32::from(w) / qa;
                at += 1;
            }
        }
        at = layout.biases();
        for b in &mut net.b1 {
            *b = f32::from(i16::from_le_bytes([bytes[at], bytes[at + 1]])) / qa;
            at += 2;
        }
        let (bd_grid, w2_grid, _, b2_grid) = net.grids();
        let i32_at = |at: &mut usize| {
            *at += 4;
            i32::from_le_bytes(bytes[*at - 4..*at].try_into().expect("four bytes")) as f32
        };
        at = layout.dense_weights();
        for w in &mut net.wd {
            *w = f32::from(bytes[at] as i8) / qb;
            at += 1;
        }
        at = layout.dense_biases();
        for b in &mut net.bd {
            *b = i32_at(&mut at) / bd_grid;
        }
        at = layout.output_weights();
        for w in &mut net.w2 {
            *w = if dense > 0 {
                at += 2;
                f32::from(i16::from_le_bytes([bytes[at - 2], bytes[at - 1]])) / w2_grid
            } else {
                at += 1;
                f32::from(bytes[at - 1] as i8) / w2_grid
            };
        }
        at = layout.output_biases();
        for b in &mut net.b2 {
            *b = i32_at(&mut at) / b2_grid;
        }
        Ok(net)
    }

    /// The quantized file the engine embeds (format in the module documentation), as long
    /// as the engine's [`Layout`] of its header says (checked).
    pub fn quantize(&self) -> Vec<u8> {
        let q8 = |w: f32, q: i32| (w * q as f32).round().clamp(-127.0, 127.0) as i8;
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        let qa = self.qa;
        let flags = u8::from(self.mirror) | u8::from(self.pairs) << 1;
        let header = [qa as u8, QB as u8, self.buckets as u8, flags, self.dense as u8, 0];
        out.extend_from_slice(&header);
        for i in 0..self.hidden {
            let mut previous = 0i8;
            for f in 0..INPUTS {
                let w = q8(self.w1[f * self.hidden + i], qa);
                out.push(w.wrapping_sub(previous) as u8);
                previous = w;
            }
        }
        for &b in &self.b1 {
            let q = (b * qa as f32).round().clamp(-32767.0, 32767.0) as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
        let (bd_grid, w2_grid, w2_max, b2_grid) = self.grids();
        out.extend(self.wd.iter().map(|&w| q8(w, QB) as u8));
        for &b in &self.bd {
            out.extend_from_slice(&((b * bd_grid).round() as i32).to_le_bytes());
        }
        for &w in &self.w2 {
            if self.dense > 0 {
                out.extend_from_slice(&((w * w2_grid).round().clamp(-w2_max, w2_max) as i16).to_le_bytes());
            } else {
                out.push(q8(w, QB) as u8);
            }
        }
        for &b in &self.b2 {
            out.extend_from_slice(&((b * b2_grid).round() as i32).to_le_bytes());
        }
        assert_eq!(out.len(), Layout::of(&out).bytes(), "the file's length against the engine's layout");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net read back from its file is the net on the file's grid, weight for weight, and
    /// damaged files are refused.
    #[test]
    fn a_quantized_file_reads_back_as_the_net_on_its_grid() {
        let mut net = Network::random(16, 4, 7);
        net.qa = 32;
        net.b1.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.37 - 2.0);
        net.b2.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.011 - 0.02);
        let file = net.quantize();
        let back = Network::from_quantized(&file).unwrap();
        let grid = net.quantized();
        assert_eq!((back.hidden, back.buckets, back.qa), (16, 4, 32));
        assert!(back.params().zip(grid.params()).all(|(a, b)| (a - b).abs() <= b.abs() * 1e-6));
        assert_eq!(back.quantize(), file);
        assert!(Network::from_quantized(&file[..file.len() - 1]).is_err());
        assert!(Network::from_quantized(b"MNN2").is_err());
        let mut bad = file.clone();
        bad[4] = 0;
        bad[5] = 0;
        assert!(Network::from_quantized(&bad).is_err());
        // The king-mirroring flag survives the file and the checkpoint; unknown flags do not read.
        net.mirror = true;
        let file = net.quantize();
        assert_eq!(file[9], 1);
        assert!(Network::from_quantized(&file).unwrap().mirror);
        assert!(Network::from_checkpoint(&net.to_checkpoint()).unwrap().mirror);
        assert!(!Network::from_checkpoint(&Network::random(8, 2, 1).to_checkpoint()).unwrap().mirror);
        for flags in [3, 4] {
            let mut bad = file.clone();
            bad[9] = flags;
            assert!(Network::from_quantized(&bad).is_err(), "flags {flags}");
        }
    }

    /// With a dense layer too, the file reads back as the net on its grid, the
    /// checkpoint keeps the shape, and a file cut short is refused.
    #[test]
    fn a_net_with_a_dense_layer_reads_back_from_its_file_and_checkpoint() {
        let mut net = Network::random_dense(16, 8, 4, 11);
        net.bd.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.13 - 0.4);
        net.b2.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.07 - 0.1);
        net.w2.iter_mut().enumerate().for_each(|(k, w)| *w = k as f32 * 0.031 - 0.5);
        let file = net.quantize();
        assert_eq!((file[10], file.len()), (8, 12 + 768 * 16 + 2 * 16 + 8 * 32 + 4 * 8 + 4 * 8 * 2 + 4 * 4));
        let back = Network::from_quantized(&file).unwrap();
        assert_eq!((back.hidden, back.dense, back.buckets), (16, 8, 4));
        let grid = net.quantized();
        assert!(back.params().zip(grid.params()).all(|(a, b)| (a - b).abs() <= b.abs() * 1e-6));
        assert_eq!(back.quantize(), file);
        assert!(Network::from_quantized(&file[..file.len() - 2]).is_err());
        let ckpt = Network::from_checkpoint(&net.to_checkpoint()).unwrap();
        assert_eq!(ckpt.dense, 8);
        assert!(ckpt.params().zip(net.params()).all(|(a, b)| a == b));
    }

    /// A widened net computes the same output as the net it came from, with a dense
    /// layer or without.
    #[test]
    fn a_widened_net_computes_the_same_function() {
        let deep = Network::random_dense(16, 4, 4, 9);
        let wide = deep.widened(24, 2);
        for fen in ["1k1r4/ppp2ppp/8/3q4/8/2N5/PPP2PPP/3R2K1 w - - 0 1", "2kr4/8/8/8/8/8/8/1K1R4 b - - 0 1"] {
            let s = sample(fen);
            assert!((deep.forward(&s) - wide.forward(&s)).abs() < 1e-5, "{fen}");
        }
        let net = Network::random(16, 4, 9);
        let wide = net.widened(24, 2);
        assert_eq!((wide.hidden, wide.buckets), (24, 4));
        for fen in ["1k1r4/ppp2ppp/8/3q4/8/2N5/PPP2PPP/3R2K1 w - - 0 1", "2kr4/8/8/8/8/8/8/1K1R4 b - - 0 1"] {
            let s = sample(fen);
            assert!((net.forward(&s) - wide.forward(&s)).abs() < 1e-5, "{fen}");
        }
        assert!(wide.w1.iter().skip(16).take(8).any(|&w| w != 0.0), "the new neurons have input weights");
    }

    /// The output written out plainly, neuron by neuron, for the tests below.
    fn reference_output(net: &Network, s: &Sample) -> f32 {
        let (h, (us, them)) = (net.hidden, s.perspectives());
        let k = bucket_of(s.pieces as usize, net.buckets);
        if net.pairs {
            // The twins are the neurons on the mirrored board, with the same output weights.
            let plain = Network { pairs: false, ..net.clone() };
            return reference_output(&plain, s) + reference_output(&plain, &s.mirrored()) - net.b2[k];
        }
        let mut acts = Vec::new();
        for features in [us, them] {
            for i in 0..h {
                let a = net.b1[i] + features.iter().map(|&f| net.w1[f as usize * h + i]).sum::<f32>();
                acts.push(a.clamp(0.0, 1.0).powi(2));
            }
        }
        if net.dense == 0 {
            return net.b2[k] + (0..2 * h).map(|i| acts[i] * net.w2[k * 2 * h + i]).sum::<f32>();
        }
        let mut out = net.b2[k];
        for j in 0..net.dense {
            let x = net.bd[j] + (0..2 * h).map(|i| acts[i] * net.wd[j * 2 * h + i]).sum::<f32>();
            out += x.clamp(0.0, 1.0) * net.w2[k * net.dense + j];
        }
        out
    }

    /// The vectorised output agrees with the plain one, widths that are a multiple of
    /// eight or not, and the gradient agrees with finite differences of the loss.
    #[test]
    fn forward_and_gradient_agree_with_plain_arithmetic() {
        for (hidden, dense, pairs) in
            [(12, 0, false), (16, 0, false), (12, 4, false), (16, 8, false), (12, 0, true), (16, 0, true)]
        {
            let mut net = Network::random_dense(hidden, dense, 4, 5);
            net.pairs = pairs;
            net.b1.iter_mut().enumerate().for_each(|(k, b)| *b = (k % 5) as f32 * 0.2 - 0.1);
            // Dense neurons inside (0, 1), where the gradient flows, and outside.
            net.bd.iter_mut().enumerate().for_each(|(k, b)| *b = [0.3, 0.1, -2.0, 0.6][k % 4]);
            for fen in
                ["1k1r4/ppp2ppp/8/3q4/8/2N5/PPP2PPP/3R2K1 w - - 0 1", "2kr4/8/8/8/8/8/8/1K1R4 b - - 0 1"]
            {
                let s = sample(fen);
                let (fast, plain) = (net.forward(&s), reference_output(&net, &s));
                assert!(
                    (fast - plain).abs() < 1e-5,
                    "hidden {hidden}, dense {dense}, {fen}: {fast} against {plain}"
                );
                let mut g = net.zeros_like();
                let loss = net.backward(&s, 180.0, &mut g);
                let loss_of = |n: &Network| {
                    let p = sigmoid(reference_output(n, &s) * EVAL_SCALE / 180.0);
                    f64::from((p - s.target) * (p - s.target))
                };
                assert!((f64::from(loss) - loss_of(&net)).abs() < 1e-6);
                // A weight of each kind the sample reaches: first layer, biases, output.
                let f = s.perspectives().0[0] as usize;
                let k = bucket_of(s.pieces as usize, net.buckets);
                type Field = fn(&mut Network) -> &mut Vec<f32>;
                let fan_in = net.fan_in();
                let mut probes: Vec<(Field, usize)> = vec![
                    (|n| &mut n.w1, f * hidden + 1),
                    (|n| &mut n.w1, (f ^ 7) * hidden + 2),
                    (|n| &mut n.b1, 2),
                    (|n| &mut n.w2, k * fan_in + fan_in - 3),
                    (|n| &mut n.b2, k),
                ];
                if dense > 0 {
                    probes.extend([(|n: &mut Network| &mut n.wd, 2 * hidden + 5), (|n| &mut n.bd, 0)]
                        as [(Field, usize); 2]);
                }
                for (field, i) in probes {
                    let eps = 1e-3;
                    let (mut up, mut down) = (net.clone(), net.clone());
                    field(&mut up)[i] += eps;
                    field(&mut down)[i] -= eps;
                    let numeric = (loss_of(&up) - loss_of(&down)) / (2.0 * f64::from(eps));
                    let analytic = f64::from(field(&mut g.clone())[i]);
                    assert!(
                        (numeric - analytic).abs() <= 0.01 * numeric.abs() + 1e-6,
                        "hidden {hidden}, dense {dense}, {fen}, parameter {i}: {analytic} against {numeric}"
                    );
                }
            }
        }
    }

    /// Mirrored pairs: the net evaluates a position and its mirror image alike, and the
    /// flag survives the file and the checkpoint.
    #[test]
    fn a_net_of_mirrored_pairs_is_symmetric_and_reads_back() {
        let mut net = Network::random(16, 4, 3);
        net.pairs = true;
        net.b1.iter_mut().enumerate().for_each(|(k, b)| *b = (k % 5) as f32 * 0.2 - 0.1);
        let fen = "1k1r4/ppp2ppp/8/3q4/8/2N5/PPP2PPP/3R2K1 w - - 0 1";
        let mirror_image = "4r1k1/ppp2ppp/8/4q3/8/5N2/PPP2PPP/1K2R3 w - - 0 1";
        let (a, b) = (net.forward(&sample(fen)), net.forward(&sample(mirror_image)));
        assert!((a - b).abs() < 1e-5, "{a} against {b}");
        let plain = Network { pairs: false, ..net.clone() };
        assert!((plain.forward(&sample(fen)) - plain.forward(&sample(mirror_image))).abs() > 1e-4);
        let q = net.quantized();
        let file = q.quantize();
        assert_eq!(file[9], 2, "the flag bit");
        let back = Network::from_quantized(&file).unwrap();
        assert!(back.pairs && back.params().zip(q.params()).all(|(x, y)| x == y));
        assert!(Network::from_checkpoint(&net.to_checkpoint()).unwrap().pairs);
    }

    fn sample(fen: &str) -> Sample {
        use minnow::fen::Fen;
        let pos = minnow::Position::from_fen(fen).unwrap();
        Sample::new(&crate::format::Record::new(&pos, 35, 1, 20), 0.0, 180.0)
    }

    fn sorted(features: &[u16]) -> Vec<u16> {
        let mut f = features.to_vec();
        f.sort_unstable();
        f
    }

    /// King mirroring: a position and its mirror image read the same; a view whose own king
    /// is on files a–d is untouched, one on e–h is mirrored, each view on its own.
    #[test]
    fn king_mirroring_reads_a_position_and_its_mirror_image_alike() {
        // White's king on g1 (mirrored in white's view), black's on b8 (not in black's).
        let fen = "1k1r4/ppp2ppp/8/3q4/8/2N5/PPP2PPP/3R2K1 w - - 0 1";
        let mirror_image = "4r1k1/ppp2ppp/8/4q3/8/5N2/PPP2PPP/1K2R3 w - - 0 1";
        let (s, m) = (sample(fen).king_mirrored(), sample(mirror_image).king_mirrored());
        let n = s.count as usize;
        assert_eq!(sorted(&s.white[..n]), sorted(&m.white[..n]));
        assert_eq!(sorted(&s.black[..n]), sorted(&m.black[..n]));
        let plain = sample(fen);
        assert_eq!(s.black, plain.black, "black's king on b8: its view unchanged");
        assert_ne!(s.white, plain.white, "white's king on g1: its view mirrored");
        assert!(s.white[..n].contains(&(OWN_KING as u16 * 64 + 1)), "white's king read on b1");
        // Neither king on e–h: nothing changes.
        let queenside = sample("2kr4/8/8/8/8/8/8/1K1R4 b - - 0 1");
        assert_eq!(queenside.king_mirrored().white, queenside.white);
        assert_eq!(queenside.king_mirrored().black, queenside.black);
    }

    /// Every file the trainer writes is laid out as the engine's [`Layout`] of its header
    /// says: the header's shape is the net's, the length is the layout's, and each part
    /// starts where the layout puts it (its first value read there is the net's, rounded),
    /// with or without a dense layer, mirrored pairs or king mirroring.
    #[test]
    fn files_the_trainer_writes_have_the_engine_layout() {
        let i32_at = |file: &[u8], at: usize| i32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        for (hidden, dense, buckets, pairs, mirror) in [
            (16, 0, 4, false, false),
            (16, 8, 4, false, false),
            (24, 0, 8, true, false),
            (8, 0, 1, false, true),
        ] {
            let mut net = Network::random_dense(hidden, dense, buckets, 13);
            (net.pairs, net.mirror, net.qa) = (pairs, mirror, 48);
            net.b1.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.21 - 0.7);
            net.bd.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.13 - 0.4);
            net.b2.iter_mut().enumerate().for_each(|(k, b)| *b = k as f32 * 0.07 - 0.3);
            let file = net.quantize();
            let layout = Layout::of(&file);
            let shape = (layout.stored, layout.dense, layout.buckets, layout.pairs, layout.king_mirror);
            assert_eq!(shape, (hidden, dense, buckets, pairs, mirror));
            assert_eq!((layout.qa, layout.qb, file.len()), (48, QB, layout.bytes()));
            assert_eq!(layout.hidden(), if pairs { 2 * hidden } else { hidden });
            let (bd_grid, _, _, b2_grid) = net.grids();
            let first_bias = i16::from_le_bytes([file[layout.biases()], file[layout.biases() + 1]]);
            assert_eq!(first_bias, (net.b1[0] * 48.0).round() as i16, "{shape:?}");
            let last = layout.output_biases() + 4 * (buckets - 1);
            assert_eq!(i32_at(&file, last), (net.b2[buckets - 1] * b2_grid).round() as i32, "{shape:?}");
            if dense > 0 {
                let first_dense_bias = i32_at(&file, layout.dense_biases());
                assert_eq!(first_dense_bias, (net.bd[0] * bd_grid).round() as i32, "{shape:?}");
            }
        }
    }

    /// The trainer reads the net the engine embeds (which it wrote) and writes it back byte
    /// for byte, and its forward pass over that net, through its own features and buckets,
    /// is the engine's evaluation within 2 cp on the perft suite's positions: the two agree
    /// on the layout, the features and the buckets.
    #[test]
    fn the_trainer_reads_the_engine_net_and_evaluates_as_the_engine_does() {
        use minnow::fen::Fen;
        let bytes = std::fs::read(minnow::nnue::NET_FILE).expect("the embedded net's file");
        let net = Network::from_quantized(&bytes).unwrap();
        assert_eq!(net.quantize(), bytes);
        let layout = Layout::of(&bytes);
        let engine = (minnow::nnue::HIDDEN, minnow::nnue::BUCKETS, minnow::nnue::DENSE);
        assert_eq!((layout.hidden(), layout.buckets, layout.dense), engine);
        let mut n = 0;
        for line in include_str!("../../tests/data/perftsuite.epd").lines() {
            let pos = minnow::Position::from_fen(line.split(';').next().unwrap()).unwrap();
            let s = Sample::new(&crate::format::Record::new(&pos, 0, 1, 0), 0.0, 180.0);
            let s = if net.mirror { s.king_mirrored() } else { s };
            let (float, ours) = (net.eval_cp(&s), minnow::nnue::evaluate(&pos) as f32);
            assert!((float - ours).abs() <= 2.0, "{line}: trainer {float}, engine {ours}");
            n += 1;
        }
        assert!(n >= 100, "only {n} positions");
    }

    /// The file's first layer, decoded the engine's way (running sums per neuron), gives
    /// back every weight on the quantization grid.
    #[test]
    fn first_layer_round_trips_through_the_file() {
        let mut net = Network::random(8, 2, 3);
        // Spread the weights over the whole i8 range so the differences wrap.
        net.w1.iter_mut().enumerate().for_each(|(k, w)| *w = (k % 255) as f32 / 64.0 - 1.98);
        let file = net.quantize();
        assert_eq!(&file[..4], b"MNN3");
        let stored = &file[12..12 + INPUTS * 8];
        for i in 0..8 {
            let mut w = 0i8;
            for f in 0..INPUTS {
                w = w.wrapping_add(stored[i * INPUTS + f] as i8);
                let want = (net.w1[f * 8 + i] * QA as f32).round().clamp(-127.0, 127.0) as i8;
                assert_eq!(w, want, "neuron {i}, feature {f}");
            }
        }
    }
}
