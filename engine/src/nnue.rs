//! The evaluation: a small NNUE, `(768 → HIDDEN) × 2 → 1 × BUCKETS` with SCReLU, int8
//! weights, the output weights chosen by the number of pieces on the board.
//!
//! Each position has two accumulators, one per perspective (white's, and black's with the
//! board flipped and colours swapped): the first-layer biases plus the weight rows of the
//! pieces on the board. A move changes two to four pieces, so the search derives a child's
//! accumulators from its parent's by adding and subtracting those rows
//! ([`Accumulator::after`]) and never rebuilds them except at the root. The output is
//! `Σ clamp(us, 0, QA)² · w_us + Σ clamp(them, 0, QA)² · w_them + b`, scaled to centipawns.
//!
//! The net is embedded at compile time: `nets/gen3.nnue`, or the file the `MINNOW_NET`
//! environment variable names when the engine is built (`engine/build.rs`; format and
//! training: the trainer, `devtools/src/nnue.rs`; provenance: `nets/README.md`). Its header is checked at compile
//! time, so a net of the wrong shape is a build error, never a wrong evaluation. The file
//! stores the first layer neuron by neuron, each weight as its difference from the
//! previous feature's, because that compresses 13% smaller than the rows themselves; the
//! first [`Accumulator::new`] decodes it once into feature rows of i16 (48 KiB of RAM
//! for 32 neurons, no file size). The width and the number of output buckets are read
//! from the file's header at compile time.
//!
//! Instruction set: plain x86-64 (SSE2). The loops are written for the auto-vectoriser:
//! with `HIDDEN` = 32 an update is a few 128-bit adds per perspective, and nothing here
//! needs AVX2, so the binary runs on any x86-64 machine, the competition's Xeon included.

use crate::board::Position;
use crate::defs::{UNINIT, init_once, is_ready};
use crate::types::{Color, Move, MoveFlag, Piece, PieceType, Square};
use core::sync::atomic::AtomicU8;

macro_rules! net_file {
    () => {
        include_bytes!(env!("MINNOW_NET_FILE"))
    };
}

/// Hidden neurons per perspective: the net file's, so a net of another width needs no
/// code change (only `MINNOW_NET`).
pub const HIDDEN: usize = net_file!()[4] as usize | (net_file!()[5] as usize) << 8;
/// First-layer quantization (weights and biases times `QA`); activations clamp at `QA`:
/// the net file's.
const QA: i32 = net_file!()[6] as i32;
/// Output-weight quantization: the net file's.
const QB: i32 = net_file!()[7] as i32;
/// Output buckets, chosen by the number of pieces on the board ([`output_bucket`]): the
/// net file's.
pub const BUCKETS: usize = net_file!()[8] as usize;
/// Centipawns per unit of network output.
const SCALE: i32 = 400;
/// The evaluation stays well inside the mate scores.
const MAX_EVAL: i32 = 20_000;

const INPUTS: usize = 768;
const W1: usize = 12;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + 2 * HIDDEN;
const B2: usize = W2 + BUCKETS * 2 * HIDDEN;
const NET_LEN: usize = B2 + 4 * BUCKETS;

// The header must say what this code was built for: magic, sizes, quantization, length.
const _: () = {
    let net = net_file!();
    assert!(
        net.len() == NET_LEN,
        "the net (nets/gen3.nnue or MINNOW_NET): wrong length for HIDDEN and BUCKETS"
    );
    assert!(net[0] == b'M' && net[1] == b'N' && net[2] == b'N' && net[3] == b'3', "the net: not an MNN3 net");
    assert!(
        HIDDEN > 0 && HIDDEN.is_multiple_of(8) && HIDDEN <= 256,
        "the net: hidden size not a multiple of 8 up to 256"
    );
    assert!(BUCKETS > 0 && BUCKETS <= 32, "the net: 1 to 32 output buckets");
    assert!(QA >= 8 && QA <= 127 && QB >= 8 && QB <= 127, "the net: QA and QB must be 8 to 127");
};

/// The output bucket of a position with `pieces` pieces, kings included (the trainer's
/// `output_bucket`, which must agree).
#[inline(always)]
pub fn output_bucket(pieces: u32) -> usize {
    ((pieces.max(2) as usize - 2) * BUCKETS / 31).min(BUCKETS - 1)
}

/// The embedded net, as in the file.
static NET: [u8; NET_LEN] = *net_file!();

/// The first layer decoded: one row of `HIDDEN` weights per feature.
static mut ROWS: [[i16; HIDDEN]; INPUTS] = [[0; HIDDEN]; INPUTS];
static ROWS_STATE: AtomicU8 = AtomicU8::new(UNINIT);

/// Decodes the first layer into [`ROWS`] once: neuron by neuron, a running sum of the
/// file's differences (in i8 arithmetic, as the trainer wrote them).
// `&*(&raw const ROWS)` is the edition-2024 way to borrow a `static mut`; clippy's shorter
// form is the `static_mut_refs` error (as in `attacks.rs`).
#[allow(clippy::deref_addrof)]
fn decode_rows() {
    init_once(&ROWS_STATE, || {
        // SAFETY: `init_once` runs this in exactly one thread, and nothing reads ROWS
        // before it returns (every reader holds an accumulator, and every accumulator
        // descends from `Accumulator::new`, which calls this first).
        let rows = unsafe { &mut *(&raw mut ROWS) };
        for (i, column) in NET[W1..B1].chunks_exact(INPUTS).enumerate() {
            let mut w = 0i8;
            for (row, &delta) in rows.iter_mut().zip(column) {
                w = w.wrapping_add(delta as i8);
                row[i] = i16::from(w);
            }
        }
    });
}

/// The first-layer weight row of a feature (after [`decode_rows`]).
#[inline(always)]
#[allow(clippy::deref_addrof)]
fn row(feature: usize) -> &'static [i16; HIDDEN] {
    debug_assert!(is_ready(&ROWS_STATE));
    // SAFETY: ROWS is written only by `decode_rows`, before any accumulator exists, and is
    // read-only afterwards.
    unsafe { &(*(&raw const ROWS))[feature] }
}

/// Feature indices of `piece` on `sq` from white's and black's view.
#[inline(always)]
fn features(piece: Piece, sq: Square) -> [usize; 2] {
    let p = piece.index();
    [p * 64 + sq.index(), ((p + 6) % 12) * 64 + (sq.index() ^ 56)]
}

/// The two accumulators of a position: `[white's view, black's view]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

impl Accumulator {
    /// Built from scratch: the biases plus every piece's rows.
    #[inline(never)]
    pub fn new(pos: &Position) -> Accumulator {
        decode_rows();
        let mut bias = [0i16; HIDDEN];
        for (i, b) in bias.iter_mut().enumerate() {
            *b = i16::from_le_bytes([NET[B1 + 2 * i], NET[B1 + 2 * i + 1]]);
        }
        let mut acc = Accumulator([bias; 2]);
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                acc.add(piece, sq);
            }
        }
        acc
    }

    #[inline(always)]
    fn add(&mut self, piece: Piece, sq: Square) {
        for (view, f) in self.0.iter_mut().zip(features(piece, sq)) {
            view.iter_mut().zip(row(f)).for_each(|(a, &w)| *a += w);
        }
    }

    #[inline(always)]
    fn sub(&mut self, piece: Piece, sq: Square) {
        for (view, f) in self.0.iter_mut().zip(features(piece, sq)) {
            view.iter_mut().zip(row(f)).for_each(|(a, &w)| *a -= w);
        }
    }

    /// The accumulators after the legal move `m` in `pos` (whose accumulators these are).
    /// Never inlined: the search calls it from two places, and one copy is 1 KB smaller.
    #[inline(never)]
    pub fn after(&self, pos: &Position, m: Move) -> Accumulator {
        let mut next = *self;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_on(from) else { return next };
        let us = piece.color();
        match m.flag() {
            MoveFlag::EnPassant => {
                next.sub(Piece::new(!us, PieceType::Pawn), Square::new(to.index() as u8 ^ 8))
            }
            _ if m.is_capture() => {
                if let Some(victim) = pos.piece_on(to) {
                    next.sub(victim, to);
                }
            }
            MoveFlag::KingCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                next.sub(rook, to.offset(1));
                next.add(rook, to.offset(-1));
            }
            MoveFlag::QueenCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                next.sub(rook, to.offset(-2));
                next.add(rook, to.offset(1));
            }
            _ => {}
        }
        next.sub(piece, from);
        next.add(m.promotion().map_or(piece, |kind| Piece::new(us, kind)), to);
        next
    }

    /// The evaluation in centipawns from `side`'s view (`side` to move) with `pieces` on
    /// the board. Never inlined: the search calls it from four places.
    #[inline(never)]
    pub fn evaluate(&self, side: Color, pieces: u32) -> i32 {
        let (us, them) = (&self.0[side.index()], &self.0[1 - side.index()]);
        let bucket = output_bucket(pieces);
        let w2 = W2 + bucket * 2 * HIDDEN;
        let half = |acc: &[i16; HIDDEN], offset: usize| -> i32 {
            let mut sum = 0i32;
            for (i, &a) in acc.iter().enumerate() {
                let x = i32::from(a.clamp(0, QA as i16));
                sum += x * x * i32::from(NET[w2 + offset + i] as i8);
            }
            sum
        };
        let b = B2 + 4 * bucket;
        let b2 = i32::from_le_bytes([NET[b], NET[b + 1], NET[b + 2], NET[b + 3]]);
        let sum = i64::from(half(us, 0) + half(them, HIDDEN) + b2);
        (sum * i64::from(SCALE) / i64::from(QA * QA * QB)).clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL))
            as i32
    }
}

/// The evaluation of `pos` from its side to move's view, from scratch (tools and tests;
/// the search keeps accumulators and calls [`Accumulator::evaluate`]).
pub fn evaluate(pos: &Position) -> i32 {
    Accumulator::new(pos).evaluate(pos.side_to_move(), pos.occupied().count())
}
