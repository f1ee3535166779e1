//! The NNUE trainer: trains the engine's network, `(768 → hidden) × 2 → 1 × buckets` with
//! SCReLU (or with a dense layer, `(768 → hidden) × 2 → dense → 1 × buckets`) in the file format of `minnow_dev::nnue`, on datagen records; on the CPU with every
//! core, deterministic for a seed and thread count.
//!
//! ```text
//! train --data FILE [--data FILE ...] --out PREFIX --lr LR --epochs N [--init NET --scale K]
//!       [--hidden 72] [--dense 0] [--buckets 8] [--qa 64] [--batch 16384] [--wdl 0] [--decay 0.1]
//!       [--score-mult 1] [--scale K] [--valid 0.02] [--no-mirror] [--no-dedup] [--king-mirror] [--no-pairs]
//!       [--hce W] [--max-positions N] [--min-ply N] [--max-score S] [--flatten N]
//!       [--threads T] [--seed 1] [--rank FILE] [--buffer N]
//! ```
//!
//! The defaults are the shipped net's recipe (`nets/SHIPPED`; every net's command is in
//! `nets/README.md`): 72 hidden neurons in mirrored pairs (144 computed), 8 output
//! buckets, QA 64, batches of 16,384, the target the search score alone (`--wdl 0`),
//! weight decay 0.1, every position also mirrored left to right where the net is not
//! symmetric already, repeated positions dropped. What has no default that fits every
//! run must be given:
//!
//! - `--lr` and `--epochs`: from random weights a net learns at about 0.002 for 14 epochs;
//!   a trained net trained further (`--init`) needs a rate far lower, about 0.0001 for 2
//!   epochs, or it moves away from what it knew before it learns the new data.
//! - `--scale K` with `--init`: the scale the starting net was trained at (180 for the
//!   shipped nets), which its file does not record. Without `--init` the default is the
//!   scale fitted to the data (below).
//!
//! For example, a net from random weights on teacher-labelled data, then that net trained
//! further at a low rate (the shipped net, gen14, was made by both steps on the same data,
//! `nets/recipes/gen14.sh`; gen12 to gen14 all start from random weights):
//!
//! ```text
//! train --data all.bin --out h64 --lr 0.002 --epochs 14 --score-mult 0.9
//! train --data new.bin --out next --init h64.nnue --scale 180 --lr 0.0001 --epochs 2 --score-mult 0.9
//! ```
//!
//! Data: datagen records (`minnow_dev::format`); the last `--valid` share of each file
//! (whole games at its end) is held out for validation. `--score-mult F` multiplies every
//! record's score as it is read: a teacher's centipawns (`datagen label`) are not minnow's,
//! and the search's margins are tuned on minnow's scale; Stockfish 15.1's static evaluation
//! is read at 0.9 (`nets/README.md` says how that was measured). Repeated positions
//! (placement and side to move) keep only their first record (`--no-dedup` keeps all).
//! `--max-positions N` reads at most N records in all, an equal share from each file.
//! `--epochs 0` with `--init NET` trains nothing: it prints NET's held-out loss (and rank)
//! on the data given and writes its check file, to compare a net with runs on other data.
//! Filters, as the field's trainers have them: `--min-ply N` leaves out training positions
//! from the first N plies of their game (where games from the same openings meet), and
//! `--max-score S` those whose |score| (after `--score-mult`) is above S (decided games);
//! `--flatten N` keeps at most about N training positions of each piece count (a random
//! choice among the more common counts).
//! The held-out part is not filtered, so losses with and without a filter compare.
//!
//! `--init NET` starts from a trained net instead of random weights: a quantized `.nnue`
//! (read back exactly as the engine computes it) or a float `.ckpt`; its shape replaces
//! `--buckets`, `--qa` and `--dense` (on a flat net `--dense D` adds the layer, new, to
//! its trained first layer; on a net with another one it is an error), and `--hidden`
//! unless wider: then the net is widened (new neurons with zero weights onward: the same
//! function to start from). The epoch-0 validation loss
//! is then the starting net's, and an epoch's net is written only if it beats that.
//!
//! Mirroring: every training position is also used mirrored left to right (the evaluation
//! is symmetric under it; the features do not see castling rights; `--no-mirror` turns it
//! off). `--king-mirror` makes the net king-mirrored instead (`Sample::king_mirrored`, a
//! flag in the net's header that the engine follows): each side's view is mirrored left to
//! right when its king is on files e–h, so mirrored positions read alike and the extra
//! copies are not made. An `--init` net without the flag starts the mirrored one.
//! From random weights each of the `--hidden` neurons has a twin that reads the board
//! mirrored (mirrored pairs, the file's flag; `minnow_dev::nnue`; `--no-pairs` turns them
//! off; nor with `--dense` or `--king-mirror`): twice the width at the same bytes, exactly
//! symmetric, so no mirrored copies either. An `--init` net keeps its own.
//!
//! Target: `wdl · result + (1 − wdl) · sigmoid(score / scale)`, where `score` is the
//! record's score, or with `--hce W` the blend `(1 − W) · score + W · hand-crafted static
//! eval`; loss: the squared difference from `sigmoid(eval / scale)`. The scale must match
//! the data: by default it is the one at which `sigmoid(score / scale)` best predicts the
//! held-out game results (printed; `--scale K` sets it); with the result in the target
//! (`--wdl` above 0), a scale far above the fitted one inflates the net's evaluations.
//! Validation always uses the plain target (`W = 0`), so losses of runs with different `W`
//! compare; the hand-crafted evaluation's own validation loss is printed first as a
//! yardstick, and at the end the mean distance in centipawns of the net from the scores
//! and from the hand-crafted evaluation.
//!
//! Optimiser: Adam (β 0.9, 0.999), the learning rate falling from `--lr` to 1% of it on a
//! cosine over the epochs, weights clipped to what the i8 file holds. Forward and backward
//! passes run on the weights rounded to the file's grid (quantization-aware training), so
//! the engine computes exactly the trained net. `--qa` sets the first layer's grid
//! (weights and biases times QA, activations clamped at QA). `--dense N` puts N neurons
//! between the accumulators and the output (`minnow_dev::nnue`: clipped ReLU, one layer
//! shared by the buckets, the output weights per bucket). `--decay D` is decoupled
//! weight decay (AdamW) of the first-layer weights: each step also moves them `lr · D · w`
//! toward zero, so the random start of weights that little data touches fades instead of
//! staying as noise, and the file compresses smaller (`tools/reports/net_size.py` prints
//! what a net costs); `--decay 0` turns it off.
//!
//! Memory: the training set is held as its 32-byte records (the samples, about 140 bytes
//! each, are made batch by batch as they are used), with 4 bytes a sample for the shuffled
//! order and, while loading, 8 bytes a position for de-duplication: about 45 bytes a
//! position with mirroring, so 200 M positions train in 9 GB. `--buffer N` streams a set
//! larger than that: only N training records are in memory at a time (about 40 bytes each
//! with their order), plus one bit a record of the files for the selection and the
//! held-out records; de-duplication's 8 bytes a position are needed only while the files
//! are indexed (`minnow_dev::dataset`). Each epoch then reads the files in blocks of
//! about N / 256 records (at most 2^20), in a shuffled order, a buffer's worth at a time,
//! and shuffles each buffer's samples; a buffer that holds the whole set trains exactly
//! the in-memory run's net (a test). An epoch plays the part of the field's superbatch:
//! validation and checkpoints come once an epoch (the learning rate falls batch by batch
//! over the whole run).
//!
//! `--rank FILE` prints, at the start and after each epoch, the Spearman correlation of
//! the net's evaluation with a deep search's scores on the positions of FILE (lines
//! `FEN | score`; `tools/datagen/rank_set.py` makes it): whether the net orders positions
//! as the search does, a yardstick that needs no games.
//!
//! Output, after each epoch: the validation loss, a float checkpoint `PREFIX.ckpt` of the
//! best epoch so far, and that epoch's quantized net `PREFIX.nnue`. At the end,
//! `PREFIX.check.txt`: 200 held-out positions with the float net's evaluation, which the
//! engine's tests compare against its quantized inference. To embed a net: `MINNOW_NET=
//! PREFIX.nnue cargo build --release`, or name it in `nets/SHIPPED` to ship it.

use minnow::fen::Fen;
use minnow_dev::dataset::{BLOCK_RECORDS, Block, Dataset, Selection};
use minnow_dev::format::{RECORD_BYTES, Record};
use minnow_dev::nnue::{Network, QA, Sample, Scratch, sigmoid};
use minnow_dev::rng::Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

struct Config {
    data: Vec<PathBuf>,
    out: PathBuf,
    hidden: usize,
    /// Whether `--hidden` was given (with `--init`, a wider one widens the net).
    hidden_given: bool,
    /// Neurons of the dense layer after the accumulators (`--dense`; 0: none); `None`
    /// where not given (a starting net's own, else 0).
    dense: Option<usize>,
    buckets: usize,
    qa: i32,
    epochs: usize,
    batch: usize,
    lr: f32,
    wdl: f32,
    /// `None`: fitted to the held-out results.
    scale: Option<f32>,
    valid: f64,
    max_positions: Option<usize>,
    /// Training positions from earlier plies of their game are left out.
    min_ply: u16,
    /// Training positions with a larger |score| (after `--score-mult`) are left out.
    max_score: i16,
    /// At most about this many training positions of each piece count are kept.
    flatten: Option<usize>,
    mirror: bool,
    king_mirror: bool,
    /// Mirrored pairs of neurons (`minnow_dev::nnue`) from random weights (`--no-pairs`:
    /// none).
    pairs: bool,
    hce: f32,
    /// Decoupled weight decay of the first-layer weights (0: none).
    decay: f32,
    /// Every score is multiplied by this as it is read.
    score_mult: f32,
    /// Keep only the first record of each position.
    dedup: bool,
    /// Stream the training records through a buffer of this many (`--buffer`; `None`: all
    /// in memory).
    buffer: Option<usize>,
    /// A net to start from instead of random weights.
    init: Option<PathBuf>,
    threads: usize,
    seed: u64,
    /// Positions with a deep search's scores: the rank correlation printed each epoch.
    rank: Option<PathBuf>,
}

/// The training records (32 bytes each, the score already multiplied by `--score-mult`),
/// validation samples and the validation records (for the check file). The training set
/// stays as records, about a quarter of a sample's bytes, and each batch makes its samples
/// as it goes: hundreds of millions of positions fit in memory that way.
struct Data {
    /// The training records in memory (empty when streamed).
    train: Vec<[u8; RECORD_BYTES]>,
    /// How many training records there are.
    training: usize,
    /// With `--buffer`: the index the training records are streamed by.
    stream: Option<Dataset>,
    valid: Vec<Sample>,
    valid_records: Vec<Record>,
    /// Validation loss of the hand-crafted evaluation.
    hce_loss: f64,
    /// The scale fitted to the held-out results.
    fitted: f32,
}

/// How a training record becomes the sample the net learns from.
#[derive(Clone, Copy)]
struct Targets {
    wdl: f32,
    scale: f32,
    /// The hand-crafted evaluation's weight in the score (`--hce`).
    hce: f32,
    /// Every sample king-mirrored (the net's flag).
    king_mirror: bool,
}

impl Targets {
    /// The sample of a record, mirrored left to right if `mirrored`.
    fn sample(&self, r: &Record, mirrored: bool) -> Sample {
        let s = if self.hce > 0.0 {
            let hce = minnow::eval::evaluate(&r.position()) as f32;
            Sample::with_score(
                r,
                (1.0 - self.hce) * f32::from(r.score) + self.hce * hce,
                self.wdl,
                self.scale,
            )
        } else {
            Sample::new(r, self.wdl, self.scale)
        };
        let s = if mirrored { s.mirrored() } else { s };
        if self.king_mirror { s.king_mirrored() } else { s }
    }
}

/// A training record back from its bytes, which were checked when the file was read.
fn record(bytes: &[u8; RECORD_BYTES]) -> Record {
    Record::from_bytes(bytes).expect("a record checked when loaded")
}

/// The data as the net reads it: with `king_mirror` (the net's flag) every validation
/// sample king-mirrored (training samples are made batch by batch by [`Targets::sample`]).
/// The training records are read into memory unless `--buffer` streams them
/// (`Data::stream` then holds the index they are read back by).
fn load(cfg: &mut Config, king_mirror: bool) -> Result<Data, String> {
    let filtering = cfg.min_ply > 0 || cfg.max_score < i16::MAX;
    let sel = Selection {
        dedup: cfg.dedup,
        score_mult: cfg.score_mult,
        max_per_file: cfg.max_positions.map(|max| max / cfg.data.len().max(1)),
        valid: cfg.valid,
        min_ply: cfg.min_ply,
        max_score: cfg.max_score,
        flatten: cfg.flatten,
        seed: cfg.seed,
    };
    let mut set = Dataset::index(&cfg.data, &sel)?;
    if let Some(cap) = cfg.flatten {
        let (before, after) = set.flattened;
        println!(
            "train: at most about {cap} training positions of each piece count: {after} of {before} kept"
        );
    }
    if cfg.dedup {
        println!("train: {} records read, {} duplicates dropped", set.read, set.duplicates);
    }
    if filtering {
        println!(
            "train: {} training positions left out (ply below {} or |score| above {})",
            set.filtered, cfg.min_ply, cfg.max_score
        );
    }
    let held_out: Vec<(i16, u8)> = set.valid.iter().map(|r| (r.score, r.result)).collect();
    let fitted = fitted_scale(&held_out);
    let scale = *cfg.scale.get_or_insert(fitted);
    let mut hce_loss = 0.0;
    // Validation uses the plain target (no `--hce` blend), so runs with different blends compare.
    let plain = Targets { wdl: cfg.wdl, scale, hce: 0.0, king_mirror };
    let mut valid = Vec::with_capacity(set.valid.len());
    for r in &set.valid {
        let s = plain.sample(r, false);
        let e = sigmoid(minnow::eval::evaluate(&r.position()) as f32 / scale) - s.target;
        hce_loss += f64::from(e * e);
        valid.push(s);
    }
    hce_loss /= valid.len().max(1) as f64;
    let valid_records = std::mem::take(&mut set.valid);
    let streamed = cfg.buffer.is_some();
    let train = if streamed { Vec::new() } else { set.read_all()? };
    let training = set.training_len();
    Ok(Data { train, training, valid, valid_records, hce_loss, fitted, stream: streamed.then_some(set) })
}

/// The ranking set (`tools/datagen/rank_set.py`): lines `FEN | score`, `#` comments.
fn read_rank_set(path: &std::path::Path, king_mirror: bool) -> Result<Vec<(Sample, f32)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--rank {}: {e}", path.display()))?;
    // Only the position matters: its features, as the net reads them (king-mirrored or not).
    let as_read = Targets { wdl: 0.0, scale: 1.0, hce: 0.0, king_mirror };
    let mut set = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let bad = |why: &str| format!("--rank {} line {}: {why}", path.display(), n + 1);
        let (fen, score) = line.split_once('|').ok_or_else(|| bad("no `FEN | score`"))?;
        let pos = minnow::Position::from_fen(fen.trim()).map_err(|e| bad(&format!("{e:?}")))?;
        let score: f32 = score.trim().parse().map_err(|_| bad("the score is not a number"))?;
        set.push((as_read.sample(&Record::new(&pos, 0, 1, 0), false), score));
    }
    if set.len() < 2 {
        return Err(format!("--rank {}: fewer than two positions", path.display()));
    }
    Ok(set)
}

/// Spearman's rank correlation of the net's evaluations with the set's scores (ties
/// share their mean rank).
fn rank_correlation(net: &Network, set: &[(Sample, f32)]) -> f64 {
    fn ranks(values: &[f32]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
        let mut rank = vec![0.0; values.len()];
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
                j += 1;
            }
            order[i..=j].iter().for_each(|&k| rank[k] = (i + j) as f64 / 2.0);
            i = j + 1;
        }
        rank
    }
    let evals: Vec<f32> = set.iter().map(|(s, _)| net.eval_cp(s)).collect();
    let scores: Vec<f32> = set.iter().map(|(_, score)| *score).collect();
    let (a, b) = (ranks(&evals), ranks(&scores));
    let mean = (a.len() - 1) as f64 / 2.0;
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(&b) {
        ab += (x - mean) * (y - mean);
        aa += (x - mean) * (x - mean);
        bb += (y - mean) * (y - mean);
    }
    ab / (aa * bb).sqrt().max(f64::MIN_POSITIVE)
}

/// Mean loss of `net` over `samples` (in parallel).
fn loss(net: &Network, samples: &[Sample], scale: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|x| {
                            let e = sigmoid(net.eval_cp(x) / scale) - x.target;
                            f64::from(e * e)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total / samples.len() as f64
}

/// The summed gradient and loss of a batch (in parallel; summed in a fixed order). `batch`
/// holds sample numbers: record `i / copies`, mirrored if `i % copies` is 1.
fn gradient(
    net: &Network,
    batch: &[u32],
    train: &[[u8; RECORD_BYTES]],
    copies: usize,
    targets: Targets,
    threads: usize,
) -> (Network, f64) {
    let chunk = batch.len().div_ceil(threads);
    let parts: Vec<(Network, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .map(|part| s.spawn(move || part_gradient(Part { net, samples: part, train, copies, targets })))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut parts = parts.into_iter();
    let (mut sum, mut l) = parts.next().unwrap();
    for (g, part_loss) in parts {
        sum.params_mut().zip(g.params()).for_each(|(a, b)| *a += b);
        l += part_loss;
    }
    (sum, l)
}

/// One thread's share of a batch (sample numbers as in [`gradient`]) and what makes its
/// samples.
#[derive(Clone, Copy)]
struct Part<'a> {
    net: &'a Network,
    samples: &'a [u32],
    train: &'a [[u8; RECORD_BYTES]],
    copies: usize,
    targets: Targets,
}

/// One thread's share of a batch: its summed gradient and loss. Compiled a second time for
/// AVX2, used where the processor has it: the same operations in the same order (Rust
/// neither fuses multiply-adds nor reorders float sums), so the same gradient to the bit,
/// on vectors twice as wide.
fn part_gradient(p: Part) -> (Network, f64) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked on the line above.
        return unsafe { part_gradient_avx2(p) };
    }
    part_gradient_body(p)
}

/// [`part_gradient_body`] compiled for AVX2 (the network's loops are inlined into it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn part_gradient_avx2(p: Part) -> (Network, f64) {
    part_gradient_body(p)
}

/// The work of [`part_gradient`], for whichever instruction set its caller was compiled for.
#[inline(always)]
fn part_gradient_body(p: Part) -> (Network, f64) {
    let Part { net, samples, train, copies, targets } = p;
    let (mut g, mut buf) = (net.zeros_like(), Scratch::default());
    // The shuffled records first, in a loop of independent loads that the processor
    // overlaps: fetched one by one inside the gradient's loop, each waited for main memory
    // on its own, half of all the time spent.
    let records: Vec<[u8; RECORD_BYTES]> = samples.iter().map(|&i| train[i as usize / copies]).collect();
    // A loop, not a closure: a closure is a function of its own, which need not be inlined
    // into the AVX2 copy and then runs without AVX2.
    let mut l = 0.0;
    for (&i, bytes) in samples.iter().zip(&records) {
        let x = targets.sample(&record(bytes), i as usize % copies == 1);
        l += f64::from(net.backward_with(&x, targets.scale, &mut g, &mut buf));
    }
    (g, l)
}

/// The scale at which `sigmoid(score / scale)` best predicts the results (least squares,
/// searched over 40..1000 in steps of 5).
fn fitted_scale(samples: &[(i16, u8)]) -> f32 {
    let cost = |k: f32| -> f64 {
        samples
            .iter()
            .filter(|(score, _)| score.abs() < 2000)
            .map(|&(score, result)| {
                let e = sigmoid(f32::from(score) / k) - f32::from(result) / 2.0;
                f64::from(e * e)
            })
            .sum()
    };
    (8..=200).map(|i| i as f32 * 5.0).min_by(|&a, &b| cost(a).total_cmp(&cost(b))).unwrap_or(400.0)
}

/// The net a run starts from: `--init`'s (a quantized `.nnue` or a float checkpoint), its
/// shape copied into `cfg`, or random weights of the configured shape.
fn initial_net(cfg: &mut Config) -> Result<Network, String> {
    let Some(path) = &cfg.init else {
        let mut net = Network::random_dense(cfg.hidden, cfg.dense.unwrap_or(0), cfg.buckets, cfg.seed);
        // Pairs by default, but not beside a dense layer or king mirroring.
        (net.qa, net.pairs) = (cfg.qa, cfg.pairs && cfg.dense.unwrap_or(0) == 0 && !cfg.king_mirror);
        return Ok(net);
    };
    let bytes = std::fs::read(path).map_err(|e| format!("--init {}: {e}", path.display()))?;
    let net = if bytes.starts_with(b"MNN") {
        Network::from_quantized(&bytes)
    } else {
        Network::from_checkpoint(&bytes).map(|mut net| {
            net.qa = cfg.qa;
            net
        })
    }
    .map_err(|e| format!("--init {}: {e}", path.display()))?;
    // `--dense` on a flat net adds the layer (its features kept); another size is refused.
    let net = match cfg.dense {
        Some(dense) if dense > 0 && net.dense == 0 => net.with_dense(dense, cfg.seed),
        Some(dense) if dense != net.dense => {
            return Err(format!("--dense {dense}: the starting net {} has {}", path.display(), net.dense));
        }
        _ => net,
    };
    // A `--hidden` wider than the net's widens it (same function, new neurons to grow).
    let net =
        if cfg.hidden_given && cfg.hidden > net.hidden { net.widened(cfg.hidden, cfg.seed) } else { net };
    (cfg.hidden, cfg.buckets, cfg.qa, cfg.dense) = (net.hidden, net.buckets, net.qa, Some(net.dense));
    Ok(net)
}

fn train(mut cfg: Config) -> Result<(), String> {
    let started = Instant::now();
    let mut net = initial_net(&mut cfg)?;
    // `--king-mirror` turns it on (from random weights or an unmirrored net, which was
    // trained on mirrored positions too and so starts near the same function); a mirrored
    // `--init` keeps it. Mirroring the positions adds nothing then: they read the same.
    net.mirror |= cfg.king_mirror;
    if net.mirror && cfg.mirror {
        println!("train: king mirroring reads a position and its mirror image alike: no mirrored copies");
        cfg.mirror = false;
    }
    if net.pairs && (net.mirror || net.dense > 0) {
        return Err("--pairs: not with king mirroring or a dense layer".into());
    }
    if net.pairs && cfg.mirror {
        println!("train: mirrored pairs evaluate a position and its mirror image alike: no mirrored copies");
        cfg.mirror = false;
    }
    let rank_set = cfg.rank.as_deref().map(|path| read_rank_set(path, net.mirror)).transpose()?;
    let rank = |net: &Network| {
        rank_set
            .as_ref()
            .map_or(String::new(), |set| format!(", rank correlation {:.4}", rank_correlation(net, set)))
    };
    let Data { mut train, training, stream, valid, valid_records, hce_loss, fitted } =
        load(&mut cfg, net.mirror)?;
    let scale = cfg.scale.unwrap_or(fitted);
    let copies = if cfg.mirror { 2 } else { 1 };
    if training == 0 || valid.is_empty() {
        return Err("no data to train or validate on".into());
    }
    println!(
        "train: {} training and {} validation positions, hidden {}, dense {}, {} output buckets, {} epochs, batch {}, lr {}, wdl {}, hce {}, decay {}, scale {}, {} threads, seed {}, from {}",
        training * copies,
        valid.len(),
        cfg.hidden,
        net.dense,
        cfg.buckets,
        cfg.epochs,
        cfg.batch,
        cfg.lr,
        cfg.wdl,
        cfg.hce,
        cfg.decay,
        scale,
        cfg.threads,
        cfg.seed,
        cfg.init.as_ref().map_or("random weights".into(), |p| p.display().to_string())
    );
    net.zero_impossible();
    let (mut m, mut v) = (net.zeros_like(), net.zeros_like());
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    // Sample numbers as u32: 4 bytes each where hundreds of millions are shuffled.
    let samples = training * copies;
    let in_memory = cfg.buffer.unwrap_or(training).min(training) * copies;
    if in_memory > u32::MAX as usize {
        return Err(format!("{in_memory} training samples in memory: at most {} fit", u32::MAX));
    }
    let mut order: Vec<u32> = (0..in_memory as u32).collect();
    // Streamed: the blocks of the files, read into the buffer a run at a time (below).
    // A buffer holds about 256 blocks, so that a run mixes records from all over the files.
    let buffer = cfg.buffer.unwrap_or(usize::MAX);
    let blocks = stream.as_ref().map_or(Vec::new(), |set| set.blocks((buffer / 256).clamp(1, BLOCK_RECORDS)));
    let targets = Targets { wdl: cfg.wdl, scale, hce: cfg.hce, king_mirror: net.mirror };
    let mut rng = Rng::new(cfg.seed, 0x5348);
    // Streamed, each buffer's last batch may be short: a few more steps than in memory.
    let batches =
        samples.div_ceil(cfg.batch) + if stream.is_some() { samples / (buffer * copies).max(1) } else { 0 };
    let total_steps = (batches * cfg.epochs) as f32;
    let mut best = f64::INFINITY;
    println!(
        "train: the hand-crafted evaluation's validation loss {hce_loss:.6}; scale fitted to the held-out results {fitted}"
    );
    let quantized = net.quantized();
    let start_loss = loss(&quantized, &valid, scale, cfg.threads);
    println!("train: epoch 0 validation loss {start_loss:.6}{}", rank(&quantized));
    if cfg.init.is_some() {
        // A net trained further is kept only where it beats the net it started from.
        best = start_loss;
        save(&cfg.out, &net)?;
    }
    for epoch in 1..=cfg.epochs {
        let (mut train_loss, epoch_started) = (0.0, Instant::now());
        // In memory, one run of the whole set. Streamed, the blocks in a shuffled order
        // (in file order when all fit in the buffer, so that the run is the in-memory
        // one), cut into runs that fit the buffer, each run shuffled on its own.
        let mut runs: Vec<Vec<Block>> = Vec::new();
        if stream.is_some() {
            let mut blocks = blocks.clone();
            if training > buffer {
                for i in (1..blocks.len()).rev() {
                    blocks.swap(i, rng.below(i + 1));
                }
            }
            let mut run = Vec::new();
            let mut held = 0;
            for b in blocks {
                if held + b.training > buffer && !run.is_empty() {
                    runs.push(std::mem::take(&mut run));
                    held = 0;
                }
                held += b.training;
                run.push(b);
            }
            runs.push(run);
        } else {
            runs.push(Vec::new());
        }
        for run in runs {
            if let Some(set) = &stream {
                train.clear();
                for &b in &run {
                    set.read_block(b, &mut train)?;
                }
                if order.len() != train.len() * copies {
                    order = (0..(train.len() * copies) as u32).collect();
                }
            }
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for chunk in order.chunks(cfg.batch) {
                let (g, l) = gradient(&net.quantized(), chunk, &train, copies, targets, cfg.threads);
                train_loss += l;
                step += 1;
                let progress = step as f32 / total_steps;
                let lr = cfg.lr * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
                let n = chunk.len() as f32;
                let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
                for (((p, g), m), v) in
                    net.params_mut().zip(g.params()).zip(m.params_mut()).zip(v.params_mut())
                {
                    let g = g / n;
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                }
                if cfg.decay > 0.0 {
                    let keep = 1.0 - lr * cfg.decay;
                    net.w1.iter_mut().for_each(|w| *w *= keep);
                }
                net.clip();
            }
        }
        let rate = samples as f64 / epoch_started.elapsed().as_secs_f64();
        let quantized = net.quantized();
        let val = loss(&quantized, &valid, scale, cfg.threads);
        let secs = started.elapsed().as_secs_f64();
        let eta = secs / epoch as f64 * (cfg.epochs - epoch) as f64;
        let mark = if val < best { " (best)" } else { "" };
        println!(
            "train: epoch {epoch}/{} train loss {:.6} validation loss {val:.6}{}{mark}  {:.2} M samples/s, {secs:.0} s, ETA {eta:.0} s",
            cfg.epochs,
            train_loss / samples as f64,
            rank(&quantized),
            rate / 1e6
        );
        if val < best {
            best = val;
            save(&cfg.out, &net)?;
        }
    }
    if cfg.epochs > 0 && cfg.init.is_some() && best >= start_loss {
        println!("train: no epoch beat the starting net's validation loss: the files hold it unchanged");
    }
    // The check file: held-out positions spread over the validation set, best net's eval.
    let ckpt = std::fs::read(with_ext(&cfg.out, "ckpt")).map_err(|e| e.to_string())?;
    let mut best_net = Network::from_checkpoint(&ckpt)?;
    best_net.qa = cfg.qa;
    // How far the net is from the hand-crafted evaluation and from the search scores.
    // (Positions whose search score is within ±400 cp, where the evaluation decides games.)
    let (mut to_hce, mut to_search, mut hce_to_search, mut n) = (0.0f64, 0.0f64, 0.0f64, 0usize);
    for (s, r) in valid.iter().zip(&valid_records) {
        if r.score.abs() > 400 {
            continue;
        }
        let (e, hce, search) =
            (best_net.eval_cp(s), minnow::eval::evaluate(&r.position()) as f32, f32::from(r.score));
        to_hce += f64::from((e - hce).abs());
        to_search += f64::from((e - search).abs());
        hce_to_search += f64::from((hce - search).abs());
        n += 1;
    }
    let n = n.max(1) as f64;
    println!(
        "train: held out, |search score| <= 400: mean |net - hand-crafted eval| {:.1} cp, |net - search| {:.1} cp, |hand-crafted - search| {:.1} cp",
        to_hce / n,
        to_search / n,
        hce_to_search / n
    );
    let mut check = format!(
        "# {} held-out positions: FEN | float-net evaluation (cp, side to move's view) | search score\n",
        200.min(valid.len())
    );
    let stride = (valid.len() / 200).max(1);
    for (s, r) in valid.iter().zip(&valid_records).step_by(stride).take(200) {
        check += &format!("{} | {:.1} | {}\n", r.position().fen(), best_net.eval_cp(s), r.score);
    }
    write(&cfg.out, "check.txt", check.as_bytes())?;
    println!(
        "train: done in {:.0} s; best validation loss {best:.6}; wrote {}.{{nnue,ckpt,check.txt}}",
        started.elapsed().as_secs_f64(),
        cfg.out.display()
    );
    Ok(())
}

/// Writes `net` as the run's best so far: the float checkpoint and the quantized file of
/// its weights on the grid, the impossible features zeroed.
fn save(out: &std::path::Path, net: &Network) -> Result<(), String> {
    let mut export = net.clone();
    export.zero_impossible();
    let export = export.quantized();
    write(out, "ckpt", &export.to_checkpoint())?;
    write(out, "nnue", &export.quantize())
}

fn with_ext(prefix: &std::path::Path, ext: &str) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(".");
    p.push(ext);
    PathBuf::from(p)
}

fn write(prefix: &std::path::Path, ext: &str, bytes: &[u8]) -> Result<(), String> {
    let path = with_ext(prefix, ext);
    let tmp = with_ext(prefix, &format!("{ext}.tmp"));
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
}

fn usage() -> &'static str {
    "usage: train --data FILE [--data FILE ...] --out PREFIX --lr LR --epochs N [--init NET --scale K] \
     [--hidden 72] [--dense 0] [--buckets 8] [--qa 64] [--batch 16384] [--wdl 0] [--decay 0.1] [--score-mult 1] [--scale K] \
     [--valid 0.02] [--no-mirror] [--no-dedup] [--king-mirror] [--no-pairs] [--hce W] [--max-positions N] [--min-ply N] [--max-score S] [--flatten N] \
     [--threads T] [--seed 1] [--rank FILE] [--buffer N]\n\
     (the defaults are the shipped net's recipe; the module documentation of devtools/src/bin/train.rs has the rest)"
}

/// What `--lr` and `--epochs` are when missing: there is no default that fits both kinds of run.
const NEEDS_LR_AND_EPOCHS: &str = "--lr and --epochs are required: from random weights the shipped nets' recipe is \
     --lr 0.002 --epochs 14; a net trained further (--init) needs a far lower rate, --lr 0.0001 --epochs 2";

/// What `--scale` is when missing with `--init`.
const NEEDS_SCALE: &str = "--init needs --scale: the scale the starting net was trained at (180 for the shipped nets); \
     its file does not record it";

fn parse(args: &[String]) -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        out: PathBuf::new(),
        hidden: 72,
        hidden_given: false,
        dense: None,
        buckets: 8,
        qa: QA,
        epochs: 0,
        batch: 16384,
        lr: 0.0,
        wdl: 0.0,
        scale: None,
        valid: 0.02,
        max_positions: None,
        min_ply: 0,
        max_score: i16::MAX,
        flatten: None,
        mirror: true,
        king_mirror: false,
        pairs: true,
        hce: 0.0,
        decay: 0.1,
        score_mult: 1.0,
        dedup: true,
        init: None,
        buffer: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        rank: None,
    };
    let (mut lr, mut epochs) = (None, None);
    let mut i = 0;
    while i < args.len() {
        // Flags first: they take no value.
        let is_flag = match args[i].as_str() {
            "--mirror" | "--no-mirror" => {
                cfg.mirror = args[i] == "--mirror";
                true
            }
            "--dedup" | "--no-dedup" => {
                cfg.dedup = args[i] == "--dedup";
                true
            }
            "--king-mirror" => {
                cfg.king_mirror = true;
                true
            }
            "--pairs" | "--no-pairs" => {
                cfg.pairs = args[i] == "--pairs";
                true
            }
            _ => false,
        };
        if is_flag {
            i += 1;
            continue;
        }
        let value = args.get(i + 1).ok_or_else(|| format!("{} needs a value\n{}", args[i], usage()))?;
        let bad = || format!("{}: bad value {value}", args[i]);
        match args[i].as_str() {
            "--data" => cfg.data.push(PathBuf::from(value)),
            "--out" => cfg.out = PathBuf::from(value),
            "--hidden" => (cfg.hidden, cfg.hidden_given) = (value.parse().map_err(|_| bad())?, true),
            "--dense" => cfg.dense = Some(value.parse().ok().filter(|&n: &usize| n <= 255).ok_or_else(bad)?),
            "--buckets" => cfg.buckets = value.parse().map_err(|_| bad())?,
            "--qa" => cfg.qa = value.parse().map_err(|_| bad())?,
            "--epochs" => epochs = Some(value.parse().map_err(|_| bad())?),
            "--batch" => cfg.batch = value.parse().map_err(|_| bad())?,
            "--lr" => lr = Some(value.parse().map_err(|_| bad())?),
            "--wdl" => cfg.wdl = value.parse().map_err(|_| bad())?,
            "--scale" => cfg.scale = Some(value.parse().map_err(|_| bad())?),
            "--valid" => cfg.valid = value.parse().map_err(|_| bad())?,
            "--max-positions" => cfg.max_positions = Some(value.parse().map_err(|_| bad())?),
            "--min-ply" => cfg.min_ply = value.parse().map_err(|_| bad())?,
            "--max-score" => cfg.max_score = value.parse().ok().filter(|&s: &i16| s > 0).ok_or_else(bad)?,
            "--flatten" => cfg.flatten = Some(value.parse().ok().filter(|&n: &usize| n > 0).ok_or_else(bad)?),
            "--hce" => cfg.hce = value.parse().map_err(|_| bad())?,
            "--decay" => cfg.decay = value.parse().map_err(|_| bad())?,
            "--score-mult" => cfg.score_mult = value.parse().map_err(|_| bad())?,
            "--init" => cfg.init = Some(PathBuf::from(value)),
            "--buffer" => cfg.buffer = Some(value.parse().ok().filter(|&n: &usize| n > 0).ok_or_else(bad)?),
            "--threads" => cfg.threads = value.parse().map_err(|_| bad())?,
            "--seed" => cfg.seed = value.parse().map_err(|_| bad())?,
            "--rank" => cfg.rank = Some(PathBuf::from(value)),
            other => return Err(format!("unknown option {other}\n{}", usage())),
        }
        i += 2;
    }
    if cfg.data.is_empty() || cfg.out.as_os_str().is_empty() {
        return Err(usage().into());
    }
    (cfg.lr, cfg.epochs) = lr.zip(epochs).ok_or(NEEDS_LR_AND_EPOCHS)?;
    if cfg.init.is_some() && cfg.scale.is_none() {
        return Err(NEEDS_SCALE.into());
    }
    if !(cfg.lr > 0.0 && cfg.lr.is_finite()) {
        return Err("--lr must be positive".into());
    }
    if !(8..=127).contains(&cfg.qa) {
        return Err("--qa must be 8..127".into());
    }
    if !(1..=32).contains(&cfg.buckets) {
        return Err("--buckets must be 1..32".into());
    }
    if !(1..=4096).contains(&cfg.hidden) || cfg.batch == 0 || cfg.threads == 0 {
        return Err("--hidden must be 1..4096; --batch and --threads at least 1".into());
    }
    if cfg.epochs == 0 && cfg.init.is_none() {
        return Err("--epochs 0 (the held-out loss of a net, no training) needs --init".into());
    }
    if !(0.0..1.0).contains(&cfg.valid)
        || !(0.0..=1.0).contains(&cfg.wdl)
        || !(0.0..=1.0).contains(&cfg.hce)
        || cfg.scale.is_some_and(|k| k <= 0.0 || !k.is_finite())
        || !(0.0..=100.0).contains(&cfg.decay)
        || cfg.score_mult <= 0.0
        || cfg.score_mult > 100.0
        || cfg.score_mult.is_nan()
    {
        return Err(
            "--valid must be in [0, 1), --wdl and --hce in [0, 1], --scale positive, --decay in [0, 100], --score-mult in (0, 100]"
                .into(),
        );
    }
    Ok(cfg)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(train) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NEEDS_LR_AND_EPOCHS, NEEDS_SCALE, initial_net, parse};
    use minnow_dev::nnue::Network;

    /// The AVX2 copy of a batch's gradient is the portable one to the bit (the same
    /// operations in the same order), with and without a dense layer.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_gradient_is_the_portable_one() {
        use super::{Part, Record, Targets, part_gradient_avx2, part_gradient_body};
        use minnow::Position;
        use minnow::fen::Fen;
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 2 9",
            "8/5k2/3p4/1p1Pp3/pP2Pp2/P4P2/8/6K1 w - - 0 40",
            "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
        ];
        let records: Vec<_> = fens
            .iter()
            .enumerate()
            .map(|(i, f)| {
                Record::new(&Position::from_fen(f).unwrap(), 37 * i as i16 - 50, (i % 3) as u8, 9).to_bytes()
            })
            .collect();
        let targets = Targets { wdl: 0.25, scale: 180.0, hce: 0.0, king_mirror: false };
        // Every record, then every record mirrored (two copies a record).
        let samples: Vec<u32> = (0..2 * records.len() as u32).map(|i| i % 4 * 2 + i / 4).collect();
        for dense in [0, 16] {
            let mut net = Network::random_dense(64, dense, 8, 3);
            // Biases that leave some neurons inside (0, 1) and some clipped.
            net.b1.iter_mut().enumerate().for_each(|(i, b)| *b = (i % 5) as f32 * 0.3 - 0.2);
            let p = Part { net: &net, samples: &samples, train: &records, copies: 2, targets };
            // SAFETY: the processor has AVX2, checked above.
            let (fast, fast_loss) = unsafe { part_gradient_avx2(p) };
            let (plain, plain_loss) = part_gradient_body(p);
            assert_eq!(fast_loss.to_bits(), plain_loss.to_bits(), "dense {dense}");
            let bits = |n: &Network| n.params().map(|x| x.to_bits()).collect::<Vec<u32>>();
            assert_eq!(bits(&fast), bits(&plain), "dense {dense}");
            assert!(fast.params().any(|&x| x != 0.0), "dense {dense}: an all-zero gradient");
        }
    }

    #[test]
    fn init_starts_from_a_net_file_and_takes_its_shape() {
        let dir = std::env::temp_dir().join(format!("minnow-train-init-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut net = Network::random(24, 2, 5);
        net.qa = 32;
        let (nnue, ckpt, junk) = (dir.join("a.nnue"), dir.join("a.ckpt"), dir.join("junk"));
        std::fs::write(&nnue, net.quantize()).unwrap();
        std::fs::write(&ckpt, net.quantized().to_checkpoint()).unwrap();
        std::fs::write(&junk, b"MNN3 and then nothing useful").unwrap();
        let cut = dir.join("cut.nnue");
        std::fs::write(&cut, &net.quantize()[..1000]).unwrap();

        let mut cfg = parse(&args(&["--init", nnue.to_str().unwrap(), "--hidden", "16"])).unwrap();
        let from_file = initial_net(&mut cfg).unwrap();
        assert_eq!((cfg.hidden, cfg.buckets, cfg.qa), (24, 2, 32));
        assert_eq!(from_file.quantize(), net.quantize());
        // A wider --hidden widens the net it starts from, keeping the rest of its shape.
        let mut cfg = parse(&args(&["--init", nnue.to_str().unwrap(), "--hidden", "64"])).unwrap();
        let wide = initial_net(&mut cfg).unwrap();
        assert_eq!((wide.hidden, cfg.hidden, cfg.buckets, cfg.qa), (64, 64, 2, 32));
        assert_eq!(wide.w1[..24], from_file.w1[..24]);
        let mut cfg = parse(&args(&["--init", ckpt.to_str().unwrap(), "--qa", "32"])).unwrap();
        assert_eq!(initial_net(&mut cfg).unwrap().quantize(), net.quantize());
        // A file with a net's magic but nonsense after it, a net file cut short, and no
        // file at all: errors that name --init, the file and what is wrong with it.
        let missing = dir.join("missing");
        assert!(junk.is_file() && cut.is_file() && !missing.exists());
        let cases =
            [(&junk, "implausible header"), (&cut, "1000 bytes, 18596 expected"), (&missing, "No such file")];
        for (bad, why) in cases {
            let mut cfg = parse(&args(&["--init", bad.to_str().unwrap()])).unwrap();
            let err = initial_net(&mut cfg).unwrap_err();
            assert!(err.starts_with(&format!("--init {}: ", bad.display())), "{err}");
            assert!(err.contains(why), "{err}");
        }
        let mut cfg = parse(&args(&["--hidden", "16", "--buckets", "4"])).unwrap();
        let fresh = initial_net(&mut cfg).unwrap();
        assert_eq!((fresh.hidden, fresh.buckets, cfg.hidden, fresh.dense), (16, 4, 16, 0));
        // --dense: a fresh net gets the layer; a starting net keeps its own, and another
        // size is refused rather than silently ignored.
        let mut cfg = parse(&args(&["--hidden", "16", "--dense", "8"])).unwrap();
        assert_eq!(initial_net(&mut cfg).unwrap().dense, 8);
        let deep = dir.join("deep.nnue");
        std::fs::write(&deep, Network::random_dense(16, 8, 2, 3).quantize()).unwrap();
        let mut cfg = parse(&args(&["--init", deep.to_str().unwrap()])).unwrap();
        assert_eq!((initial_net(&mut cfg).unwrap().dense, cfg.dense), (8, Some(8)));
        let mut cfg = parse(&args(&["--init", deep.to_str().unwrap(), "--dense", "4"])).unwrap();
        assert!(initial_net(&mut cfg).unwrap_err().contains("--dense 4"));
        // A flat starting net gets the layer, its first layer kept.
        let mut cfg = parse(&args(&["--init", nnue.to_str().unwrap(), "--dense", "8"])).unwrap();
        let added = initial_net(&mut cfg).unwrap();
        assert_eq!((added.dense, added.hidden, cfg.dense), (8, 24, Some(8)));
        assert_eq!((&added.w1, &added.b1), (&from_file.w1, &from_file.b1));
        assert!(parse(&args(&["--dense", "256"])).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The required arguments, the learning rate, epochs and scale a test run needs, and
    /// `extra`.
    fn args(extra: &[&str]) -> Vec<String> {
        ["--data", "a.bin", "--out", "net", "--lr", "0.001", "--epochs", "1", "--scale", "100"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    }

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    /// The defaults are the shipped net's recipe: its shape (from the header of the net
    /// `nets/SHIPPED` names: width, QA, buckets, no king mirroring, mirrored pairs) and its training
    /// settings (nets/README.md: --batch 16384 --wdl 0 --dedup --decay 0.1; `--mirror` is on
    /// by default, though a net of mirrored pairs makes no mirrored copies).
    #[test]
    fn the_defaults_are_the_shipped_nets_recipe() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let shipped = std::fs::read_to_string(root.join("nets/SHIPPED")).unwrap();
        let net = std::fs::read(root.join(shipped.trim())).unwrap();
        let cfg =
            parse(&strings(&["--data", "a.bin", "--out", "net", "--lr", "0.0001", "--epochs", "2"])).unwrap();
        let hidden = usize::from(net[4]) | usize::from(net[5]) << 8;
        assert_eq!(
            (cfg.hidden, cfg.qa, cfg.buckets, cfg.king_mirror, cfg.pairs),
            (hidden, i32::from(net[6]), usize::from(net[8]), net[9] & 1 == 1, net[9] & 2 == 2),
            "{}",
            shipped.trim()
        );
        assert_eq!((cfg.batch, cfg.wdl, cfg.mirror, cfg.dedup, cfg.decay), (16384, 0.0, true, true, 0.1));
        assert_eq!((cfg.lr, cfg.epochs, cfg.score_mult, cfg.scale), (0.0001, 2, 1.0, None));
        let off = parse(&args(&["--no-mirror", "--no-dedup", "--decay", "0"])).unwrap();
        assert_eq!((off.mirror, off.dedup, off.decay), (false, false, 0.0));
    }

    /// What has no default must be given, and the error says what and why.
    #[test]
    fn the_learning_rate_epochs_and_a_starting_nets_scale_are_required() {
        let base = ["--data", "a.bin", "--out", "net"];
        for missing in [&[][..], &["--lr", "0.002"], &["--epochs", "14"]] {
            let line: Vec<&str> = base.iter().chain(missing).copied().collect();
            assert_eq!(parse(&strings(&line)).err().as_deref(), Some(NEEDS_LR_AND_EPOCHS), "{line:?}");
        }
        let init = ["--data", "a.bin", "--out", "net", "--lr", "0.0001", "--epochs", "2", "--init", "a.nnue"];
        assert_eq!(parse(&strings(&init)).err().as_deref(), Some(NEEDS_SCALE));
        let with_scale: Vec<&str> = init.iter().chain(&["--scale", "180"]).copied().collect();
        assert_eq!(parse(&strings(&with_scale)).unwrap().scale, Some(180.0));
        for bad in ["0", "-1", "NaN", "inf"] {
            assert!(parse(&args(&["--lr", bad])).is_err(), "{bad}");
        }
        assert!(parse(&args(&["--epochs", "0"])).is_err());
        // With a starting net, 0 epochs reads its held-out loss and trains nothing.
        let evaluate: Vec<&str> = with_scale.iter().map(|&a| if a == "2" { "0" } else { a }).collect();
        assert_eq!(parse(&strings(&evaluate)).unwrap().epochs, 0);
    }

    /// The rank correlation is 1 for a set whose scores the net orders the same way, -1
    /// for the reverse order, and ties share a rank; a malformed line names its number.
    #[test]
    fn rank_correlation_orders_positions_and_bad_lines_are_named() {
        use super::{rank_correlation, read_rank_set};
        let dir = std::env::temp_dir().join(format!("minnow-train-rank-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = Network::random(16, 1, 3);
        let fens = [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3RP3/4K3 b - - 0 1",
            "4k3/3q4/8/8/8/8/4P3/4K3 w - - 0 1",
            "r3k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
        ];
        let path = dir.join("rank.txt");
        let write = |scores: &[f32]| {
            let body: String = fens.iter().zip(scores).map(|(f, s)| format!("{f} | {s}\n")).collect();
            std::fs::write(&path, format!("# comment\n{body}")).unwrap();
            read_rank_set(&path, false).unwrap()
        };
        let set = write(&[0.0; 5]);
        let evals: Vec<f32> = set.iter().map(|(s, _)| net.eval_cp(s)).collect();
        let same = write(&evals);
        assert!((rank_correlation(&net, &same) - 1.0).abs() < 1e-9);
        let reverse = write(&evals.iter().map(|e| -e).collect::<Vec<_>>());
        assert!((rank_correlation(&net, &reverse) + 1.0).abs() < 1e-9);
        // All scores tied: no order to agree with.
        assert_eq!(rank_correlation(&net, &set), 0.0);
        std::fs::write(&path, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 12\nnot a fen | 3\n").unwrap();
        let err = read_rank_set(&path, false).unwrap_err();
        assert!(err.contains("line 2"), "{err}");
        std::fs::write(&path, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | twelve\n").unwrap();
        assert!(read_rank_set(&path, false).unwrap_err().contains("line 1: the score is not a number"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The committed ranking set reads whole, and on it the shipped net orders positions
    /// like the deep search far better than a random net does (gen11: 0.63).
    #[test]
    fn the_shipped_net_ranks_the_committed_set_like_the_search() {
        use super::{rank_correlation, read_rank_set};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let shipped = std::fs::read_to_string(root.join("nets/SHIPPED")).unwrap();
        let net = Network::from_quantized(&std::fs::read(root.join(shipped.trim())).unwrap()).unwrap();
        let set = read_rank_set(&root.join("tests/data/rank_set.txt"), net.mirror).unwrap();
        assert_eq!(set.len(), 1500);
        let (good, random) =
            (rank_correlation(&net, &set), rank_correlation(&Network::random(64, 8, 1), &set));
        assert!(good > 0.5 && random < 0.3, "shipped {good}, random {random}");
    }

    /// Streamed through a buffer that holds the whole set, a run trains the very net the
    /// in-memory run does (the blocks read back from disk each epoch, in file order, then
    /// the same shuffles); through a buffer of a sixth of it, another net (other orders)
    /// that predicts the held-out positions about as well.
    #[test]
    fn a_streamed_run_trains_what_an_in_memory_run_does() {
        let dir = std::env::temp_dir().join(format!("minnow-train-stream-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("walks.bin");
        minnow_dev::dataset::write_random_walks(&data, 12000, 11).unwrap();
        let argv = |out: &str, extra: &[&str]| -> Vec<String> {
            let out = dir.join(out);
            let base = ["--data", data.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lr", "0.002"];
            let rest =
                ["--epochs", "4", "--hidden", "16", "--batch", "64", "--threads", "1", "--scale", "400"];
            [&base[..], &rest, extra].concat().iter().map(|s| s.to_string()).collect()
        };
        let held_out = super::load(&mut parse(&argv("x", &[])).unwrap(), false).unwrap().valid;
        let run = |name: &str, extra: &[&str]| {
            super::train(parse(&argv(name, extra)).unwrap()).unwrap();
            let bytes = std::fs::read(dir.join(format!("{name}.nnue"))).unwrap();
            let loss = super::loss(&Network::from_quantized(&bytes).unwrap(), &held_out, 400.0, 1);
            (bytes, loss)
        };
        let (memory, memory_loss) = run("memory", &[]);
        let (whole, whole_loss) = run("whole", &["--buffer", "100000"]);
        assert!(memory == whole && memory_loss == whole_loss, "{memory_loss} {whole_loss}");
        eprintln!("held-out loss: in memory {memory_loss}");
        let (sixth, sixth_loss) = run("sixth", &["--buffer", "1000"]);
        assert!(sixth != memory);
        assert!((sixth_loss - memory_loss).abs() < 0.05 * memory_loss, "{sixth_loss} against {memory_loss}");
        // Both learnt: better than the random weights they started from.
        let random_loss = super::loss(&Network::random(16, 8, 1).quantized(), &held_out, 400.0, 1);
        eprintln!("held-out loss: a sixth {sixth_loss}, random {random_loss}");
        assert!(random_loss > memory_loss.max(sixth_loss));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn buffer_takes_a_positive_count() {
        assert_eq!(parse(&args(&["--buffer", "5000000"])).unwrap().buffer, Some(5_000_000));
        assert_eq!(parse(&args(&[])).unwrap().buffer, None);
        for bad in ["0", "-1", "x"] {
            assert!(parse(&args(&["--buffer", bad])).is_err(), "{bad}");
        }
    }

    #[test]
    fn decay_takes_a_value_in_range() {
        assert_eq!(parse(&args(&["--decay", "0.5"])).unwrap().decay, 0.5);
        assert!(parse(&args(&["--decay", "-1"])).is_err());
        assert!(parse(&args(&["--decay", "NaN"])).is_err());
        assert!(parse(&args(&["--decay"])).is_err());
    }

    /// What `load` makes of `records` written to a file of their own, with the options
    /// `--scale 100 --no-mirror` and then `extra`.
    fn load_records(records: &[super::Record], extra: &[&str]) -> super::Data {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static FILES: AtomicUsize = AtomicUsize::new(0);
        let n = FILES.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("minnow-train-{}-{n}.bin", std::process::id()));
        std::fs::write(&path, records.iter().flat_map(|r| r.to_bytes()).collect::<Vec<u8>>()).unwrap();
        let base = ["--data", path.to_str().unwrap(), "--out", "net", "--lr", "0.001", "--epochs", "1"];
        let argv: Vec<String> = base
            .iter()
            .chain(&["--scale", "100", "--no-mirror"])
            .chain(extra)
            .map(|s| s.to_string())
            .collect();
        let data = super::load(&mut parse(&argv).unwrap(), false).unwrap();
        std::fs::remove_file(&path).unwrap();
        data
    }

    /// The training records of `data`, read back.
    fn training_records(data: &super::Data) -> Vec<super::Record> {
        data.train.iter().map(|b| super::Record::from_bytes(b).unwrap()).collect()
    }

    #[test]
    fn score_mult_scales_what_is_read_and_dedup_drops_repeated_positions() {
        use super::Record;
        use minnow::Position;
        use minnow::fen::Fen;
        for bad in ["0", "-1", "NaN", "101"] {
            assert!(parse(&args(&["--score-mult", bad])).is_err(), "{bad}");
        }
        let a = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        // a, b, a again (another score): 100 records so that 2% are held out.
        let records: Vec<Record> = (0..100)
            .map(|i| match i % 3 {
                0 => Record::new(&a, 100, 1, 0),
                1 => Record::new(&b, -50, 1, 0),
                _ => Record::new(&a, 7, 1, 0),
            })
            .collect();
        let data = load_records(&records, &["--no-dedup"]);
        assert_eq!(data.train.len() + data.valid.len(), 100);
        let data = load_records(&records, &["--score-mult", "0.5"]);
        // Only the first a and the first b survive, at half their scores.
        let train_scores = training_records(&data).into_iter().map(|r| r.score);
        let kept: Vec<i16> = train_scores.chain(data.valid.iter().map(|s| s.score)).collect();
        assert_eq!(kept.len(), 2, "{kept:?}");
        assert!(kept.contains(&50) && kept.contains(&-25), "{kept:?}");
    }

    #[test]
    fn ply_and_score_filters_drop_training_positions_only() {
        use super::Record;
        use minnow::Position;
        use minnow::fen::Fen;
        for bad in ["0", "-5", "40000", "x"] {
            assert!(parse(&args(&["--max-score", bad])).is_err(), "{bad}");
        }
        assert!(parse(&args(&["--min-ply", "-1"])).is_err());
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        // 100 records at plies 0..100, scores 10 × ply: the last 2 (plies 98, 99) held out.
        let records: Vec<Record> =
            (0..100u16).map(|ply| Record::new(&pos, 10 * ply as i16, 1, ply)).collect();
        let load_with = |extra: &[&str]| {
            let data = load_records(&records, &[&["--no-dedup"], extra].concat());
            let plies: Vec<u16> = training_records(&data).iter().map(|r| r.ply).collect();
            (plies, data.valid.iter().map(|s| s.score).collect::<Vec<i16>>())
        };
        let (all, valid) = load_with(&[]);
        assert_eq!((all.len(), valid.clone()), (98, vec![980, 990]));
        // Plies 16..=50 kept for training (score <= 500), the held-out part untouched.
        let (kept, valid_filtered) = load_with(&["--min-ply", "16", "--max-score", "500"]);
        assert_eq!(kept, (16..=50).collect::<Vec<u16>>());
        assert_eq!(valid_filtered, valid);
    }

    #[test]
    fn flatten_thins_common_piece_counts_only() {
        use super::Record;
        use minnow::Position;
        use minnow::fen::Fen;
        for bad in ["0", "-3", "x"] {
            assert!(parse(&args(&["--flatten", bad])).is_err(), "{bad}");
        }
        let three = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let four = Position::from_fen("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        // 449 three-piece and 41 four-piece records, then 10 four-piece ones held out (2%).
        let records: Vec<Record> = (0..500)
            .map(|i| Record::new(if i % 12 == 0 || i >= 490 { &four } else { &three }, i as i16, 1, 0))
            .collect();
        let load_with = |extra: &[&str]| {
            let data = load_records(&records, &[&["--no-dedup"], extra].concat());
            let pieces: Vec<u32> = training_records(&data).iter().map(|r| r.occupancy.count_ones()).collect();
            let count = |n: u32| pieces.iter().filter(|&&p| p == n).count();
            (count(3), count(4), data.valid.iter().map(|s| s.score).collect::<Vec<i16>>())
        };
        let (three_all, four_all, valid) = load_with(&[]);
        assert_eq!((three_all, four_all, valid.len()), (449, 41, 10));
        // A cap of 100: about 100 of the 449 (binomial, sd 8.8) and all 41 four-piece ones.
        let (three_kept, four_kept, valid_flat) = load_with(&["--flatten", "100"]);
        assert!((65..=135).contains(&three_kept), "{three_kept}");
        assert_eq!((four_kept, valid_flat), (41, valid));
    }
}
