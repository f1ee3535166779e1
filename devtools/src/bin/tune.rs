//! Evaluation tuner: fits every weight of [`minnow::eval::WEIGHTS`] to labelled positions
//! and writes the result back into `engine/src/eval_weights.rs`.
//!
//! ```text
//! python tools/datagen/tune_data.py --label positions.epd --out tune.txt   # labelled positions
//! cargo run --release -p minnow-dev --bin tune -- tune.txt [--epochs N] [--rate R] [--lambda L] [--l2 X]
//!     [--unit U] [--only TABLE,TABLE] [--write engine/src/eval_weights.rs]
//! ```
//!
//! Each input line is `<fen>;<score in centipawns, white's view>;<result 1/0.5/0 or ->`. The
//! evaluation is linear in its weights once the position is fixed, so each position is
//! reduced once to the weights it uses and how often (white's count minus black's,
//! through [`minnow::eval::evaluate_terms`], the engine's own code), its phase and its
//! endgame scales. The tuner then minimises the mean squared difference between
//! `sigmoid(eval)` and `sigmoid(label)` (label = the score mixed with the game result by
//! `--lambda`) with full-batch Adam. A twentieth of the positions (blocks of 128 lines, so
//! mostly other games than the rest) is held out; the weights that do best on it are kept.

use minnow::eval::{self, Counts, LAYOUT, WEIGHTS, index};
use minnow::fen::Fen;
use minnow::{Color, Position};
use std::io::{BufRead, BufReader};

/// One position reduced to what the linear model needs.
struct Sample {
    /// (weight index, white's count minus black's).
    terms: Vec<(u16, f32)>,
    /// Middlegame share, phase / 24.
    mg: f32,
    /// Endgame scale (0..1) when white is ahead in the endgame part, and when black is.
    scale: [f32; 2],
    /// Target probability for white.
    target: f32,
}

/// Centipawns to a win probability (the usual logistic with 400 points a factor of ten).
fn sigmoid(cp: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-cp / 400.0))
}

fn load(path: &str, lambda: f32) -> Vec<Sample> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    let mut bad = 0;
    for line in BufReader::new(file).lines() {
        let line = line.expect("read");
        let mut fields = line.split(';');
        let (Some(fen), Some(cp), Some(result)) = (fields.next(), fields.next(), fields.next()) else {
            bad += 1;
            continue;
        };
        // A result of `-` is unknown: the score alone is the target.
        let result = if result.trim() == "-" { Ok(None) } else { result.trim().parse::<f32>().map(Some) };
        let (Ok(pos), Ok(cp), Ok(result)) = (Position::from_fen(fen), cp.trim().parse::<f32>(), result)
        else {
            bad += 1;
            continue;
        };
        let (mut white, mut black) = (Counts::default(), Counts::default());
        eval::evaluate_terms(&pos, &mut white, &mut black);
        let terms = (0..index::COUNT)
            .filter(|&i| white.0[i] != black.0[i])
            .map(|i| (i as u16, (white.0[i] - black.0[i]) as f32))
            .collect();
        out.push(Sample {
            terms,
            mg: eval::phase(&pos) as f32 / minnow::eval_weights::MAX_PHASE as f32,
            scale: [
                eval::endgame_scale(&pos, Color::White) as f32 / 64.0,
                eval::endgame_scale(&pos, Color::Black) as f32 / 64.0,
            ],
            target: match result {
                Some(r) => lambda * r + (1.0 - lambda) * sigmoid(cp),
                None => sigmoid(cp),
            },
        });
    }
    if bad > 0 {
        eprintln!("skipped {bad} malformed lines");
    }
    out
}

/// The model's evaluation (white's view) with weights `w` (mg, eg interleaved), and the
/// endgame scale it used.
fn predict(s: &Sample, w: &[f32]) -> (f32, f32) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.terms {
        mg += w[2 * i as usize] * c;
        eg += w[2 * i as usize + 1] * c;
    }
    let scale = if eg >= 0.0 { s.scale[0] } else { s.scale[1] };
    (mg * s.mg + eg * scale * (1.0 - s.mg), scale)
}

fn loss(samples: &[Sample], w: &[f32], unit: f32) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(predict(s, w).0 / unit) - s.target;
            (d * d) as f64
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Moves the frequency-weighted mean of each piece's square and mobility tables into its
/// material value, so that the printed tables read as bonuses around zero. The evaluation
/// of every position is unchanged (each piece uses exactly one entry of each table).
fn normalise(w: &mut [f32], samples: &[Sample]) {
    let mut freq = vec![0f64; index::COUNT];
    for s in samples {
        for &(i, c) in &s.terms {
            freq[i as usize] += c.abs() as f64;
        }
    }
    let shift = |w: &mut [f32], start: usize, len: usize, piece: usize| {
        let total: f64 = (start..start + len).map(|i| freq[i]).sum();
        if total == 0.0 {
            return;
        }
        for phase in 0..2 {
            let mean = (start..start + len).map(|i| freq[i] * w[2 * i + phase] as f64).sum::<f64>() / total;
            for i in start..start + len {
                if freq[i] > 0.0 {
                    w[2 * i + phase] -= mean as f32;
                }
            }
            w[2 * (index::PIECE_VALUE + piece) + phase] += mean as f32;
        }
    };
    for piece in 0..5 {
        shift(w, index::PST + 32 * piece, 32, piece);
    }
    shift(w, index::KNIGHT_MOBILITY, 9, 1);
    shift(w, index::BISHOP_MOBILITY, 14, 2);
    shift(w, index::ROOK_MOBILITY, 15, 3);
    shift(w, index::QUEEN_MOBILITY, 28, 4);
}

/// The Rust expression for `len` weights from `start`, shaped like the constant in
/// `eval_weights.rs`.
fn expression(w: &[f32], start: usize, len: usize) -> String {
    let s = |i: usize| format!("S({}, {})", w[2 * i].round() as i32, w[2 * i + 1].round() as i32);
    if len == 1 {
        return s(start);
    }
    let rows: Vec<String> = (start..start + len)
        .collect::<Vec<_>>()
        .chunks(if len == 6 * 32 { 4 } else { 8 })
        .map(|row| row.iter().map(|&i| s(i)).collect::<Vec<_>>().join(", "))
        .collect();
    if len == 6 * 32 {
        let tables: Vec<String> = (0..6)
            .map(|k| format!("    [\n        {},\n    ]", rows[8 * k..8 * k + 8].join(",\n        ")))
            .collect();
        return format!("[\n{},\n]", tables.join(",\n"));
    }
    if rows.len() == 1 {
        return format!("[{}]", rows[0]);
    }
    format!("[\n    {},\n]", rows.join(",\n    "))
}

/// Replaces the value of `pub const <name>: ... = <value>;` in `source`.
fn replace_const(source: &str, name: &str, value: &str) -> Option<String> {
    let head = format!("pub const {name}:");
    let start = source.find(&head)?;
    let eq = start + source[start..].find('=')? + 1;
    let eq = eq + source[eq..].len() - source[eq..].trim_start().len();
    let end = eq + source[eq..].find(";\n")?;
    Some(format!("{} {}{}", source[..eq].trim_end(), value, &source[end..]))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = None;
    let (mut epochs, mut lambda, mut rate, mut write) = (3000usize, 0.1f32, 1.0f32, None);
    let mut only: Option<String> = None;
    // L2 penalty on every weight but the material: keeps weights that few positions use
    // (rare squares, long mobility counts) near zero instead of fitting their noise.
    let mut l2 = 1e-8f32;
    // Engine centipawns per label centipawn: the weights come out this many times larger.
    let mut unit = 1.0f32;
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).cloned().expect("option needs a value");
        match args[i].as_str() {
            "--epochs" => epochs = value().parse().expect("epochs"),
            "--lambda" => lambda = value().parse().expect("lambda"),
            "--rate" => rate = value().parse().expect("rate"),
            "--l2" => l2 = value().parse().expect("l2"),
            "--unit" => unit = value().parse().expect("unit"),
            "--write" => write = Some(value()),
            "--only" => only = Some(value()),
            other => {
                path = Some(other.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let path =
        path.expect("usage: tune <data> [--epochs N] [--lambda L] [--rate R] [--write eval_weights.rs]");
    // Hold out every twentieth block of 128 lines: whole games, spread over the file.
    let (held, samples): (Vec<_>, Vec<_>) =
        load(&path, lambda).into_iter().enumerate().partition(|(n, _)| (n / 128) % 20 == 7);
    let held: Vec<Sample> = held.into_iter().map(|(_, s)| s).collect();
    let samples: Vec<Sample> = samples.into_iter().map(|(_, s)| s).collect();
    eprintln!("{} positions, {} held out", samples.len(), held.len());

    let mut w: Vec<f32> = WEIGHTS.iter().flat_map(|s| [s.0 as f32, s.1 as f32]).collect();
    eprintln!("start: loss {:.6}, held-out {:.6}", loss(&samples, &w, unit), loss(&held, &w, unit));
    // With --only A,B only those tables move.
    let mut free = vec![only.is_none(); w.len()];
    for (name, start, len) in LAYOUT {
        if only.as_ref().is_some_and(|o| o.split(',').any(|n| n == name)) {
            free[2 * start..2 * (start + len)].iter_mut().for_each(|f| *f = true);
        }
    }
    let (mut m, mut v) = (vec![0f32; w.len()], vec![0f32; w.len()]);
    let (b1, b2) = (0.9f32, 0.999f32);
    let mut best = (loss(&held, &w, unit), w.clone());
    let ln10 = std::f32::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![0f32; w.len()];
        for s in &samples {
            let (e, scale) = predict(s, &w);
            let p = sigmoid(e / unit);
            // d(loss)/d(eval) for this position; the eval is linear in each weight.
            let g = 2.0 * (p - s.target) * p * (1.0 - p) * ln10 / (400.0 * unit);
            let (gm, ge) = (g * s.mg, g * scale * (1.0 - s.mg));
            for &(i, c) in &s.terms {
                grad[2 * i as usize] += gm * c;
                grad[2 * i as usize + 1] += ge * c;
            }
        }
        let n = samples.len() as f32;
        for j in 0..w.len() {
            let material = j < 2 * (index::PIECE_VALUE + 6);
            let g = grad[j] / n + if material { 0.0 } else { 2.0 * l2 * w[j] };
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            if free[j] {
                w[j] -= rate * mh / (vh.sqrt() + 1e-8);
            }
        }
        if epoch % 100 == 0 || epoch == epochs {
            let held_loss = loss(&held, &w, unit);
            if held_loss < best.0 {
                best = (held_loss, w.clone());
            }
            eprintln!("epoch {epoch}: loss {:.6}, held-out {held_loss:.6}", loss(&samples, &w, unit));
        }
    }
    // Early stopping: keep the weights that did best on the held-out positions.
    w = best.1;
    normalise(&mut w, &samples);
    eprintln!("final: loss {:.6}, held-out {:.6}", loss(&samples, &w, unit), loss(&held, &w, unit));

    let mut source = write.as_ref().map(|p| std::fs::read_to_string(p).expect("read the weights file"));
    for (name, start, len) in LAYOUT {
        let value = expression(&w, start, len);
        match source.as_mut() {
            Some(src) => {
                *src = replace_const(src, name, &value)
                    .unwrap_or_else(|| panic!("{name} not found in the weights file"))
            }
            None => println!("pub const {name} = {value};"),
        }
    }
    if let (Some(p), Some(src)) = (write, source) {
        std::fs::write(&p, src).expect("write the weights file");
        eprintln!("wrote {p}");
    }
}
