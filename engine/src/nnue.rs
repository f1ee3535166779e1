//! The evaluation: a small NNUE, `(768 → HIDDEN) × 2 → 1 × BUCKETS` with SCReLU, int8
//! weights, the output weights chosen by the number of pieces on the board.
//!
//! Each position has two accumulators, one per perspective (white's, and black's with the
//! board flipped and colours swapped): the first-layer biases plus the weight rows of the
//! pieces on the board. A move changes two to four pieces, so the search derives a child's
//! accumulators from its parent's by adding and subtracting those rows
//! ([`Accumulator::after`]) and never rebuilds them except at the root. The output is
//! `Σ clamp(us, 0, QA)² · w_us + Σ clamp(them, 0, QA)² · w_them + b`, scaled to centipawns.
//! A net whose header names a dense layer (`DENSE` neurons) puts it between the two: each
//! neuron a sum of both sides' activations, clipped, and the output a sum of the neurons
//! ([`dense_output`]); the shipped net has none, and its build has no code for one.
//!
//! The net is embedded at compile time: the shipped one that `nets/SHIPPED` names, or
//! the file the `MINNOW_NET` environment variable names when the engine is built (format
//! and training: the trainer, `devtools/src/nnue.rs`; provenance: `nets/README.md`). Its
//! header is checked at compile time (a wrong length names the file), so a net of the
//! wrong shape is a build error, never a wrong evaluation. The file stores the first
//! layer neuron by neuron, each weight as its difference from the previous feature's,
//! because that compresses 13% smaller than the rows themselves; the first
//! [`Accumulator::new`] decodes it once into feature rows of i16 (768 rows of HIDDEN,
//! 96 KiB of RAM at 64 neurons; no file size), with a net of mirrored pairs ([`PAIRS`])
//! each row's twins copied from the mirrored feature's row, and the output weights into
//! i16, one per computed neuron (4.5 KiB at 144 neurons and 8 buckets). The width, the
//! pairs and the number of output buckets are read from the file's header at compile time.
//!
//! Instruction set: the binary is built for plain x86-64 (SSE2), and the two hot loops
//! have AVX2 copies that the first accumulator picks at run time where the CPU has it
//! (the competition's Xeon does): the accumulator update, written once for the
//! auto-vectoriser and compiled twice (a 64-wide update is four 256-bit vectors per
//! perspective instead of eight; the SSE2 copy kept a loop, for bytes), and the output's
//! dot product, written with intrinsics because the vectoriser widens its terms to 32 bits
//! instead of using `vpmaddwd`.

use crate::board::Position;
use crate::defs::{UNINIT, init_once, is_ready};
use crate::types::{Color, Move, MoveFlag, Piece, PieceType, Square};
use core::sync::atomic::{AtomicBool, AtomicU8, Ordering};

macro_rules! net_file {
    () => {
        include_bytes!(env!("MINNOW_NET_FILE"))
    };
}

/// The net file this build embeds, as `engine/build.rs` chose it (`nets/SHIPPED`, or
/// `MINNOW_NET`): the tests find the net's check file beside it. A constant the shipped
/// binary never reads, so it costs no bytes there.
pub const NET_FILE: &str = env!("MINNOW_NET_FILE");

/// The net file's first four bytes. The file's format is the trainer's
/// (`devtools/src/nnue.rs`), which writes and reads it through the definitions here: the
/// layout ([`Layout`]), the feature index ([`feature_pair`]) and the output bucket
/// ([`bucket_of`]) are defined once, for both.
pub const MAGIC: [u8; 4] = *b"MNN3";
/// Bytes of the header: the magic, the width (u16), QA, QB, the buckets, the flags, the
/// dense layer's width and a reserved byte.
pub const HEADER_BYTES: usize = 12;
/// Input features per perspective: 12 kinds of piece on 64 squares ([`feature_pair`]).
pub const INPUTS: usize = 768;
/// With a dense layer, the output weights are i16, the real weight times this.
pub const QO: i32 = 1024;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;

/// A net file's shape as its header gives it, and where each part of the file starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Neurons per perspective that the file stores (header bytes 4..6).
    pub stored: usize,
    /// First-layer quantization (byte 6): weights and biases times this; activations clamp
    /// at it.
    pub qa: i32,
    /// Output-weight quantization (byte 7).
    pub qb: i32,
    /// Output buckets (byte 8), chosen by the number of pieces on the board ([`bucket_of`]).
    pub buckets: usize,
    /// King mirroring (byte 9, bit 0): each perspective whose own king stands on files e–h
    /// sees the board mirrored left to right.
    pub king_mirror: bool,
    /// Mirrored pairs (byte 9, bit 1): each stored neuron has a twin that reads the board
    /// mirrored left to right (feature `f` through the weights of `f ^ 7`).
    pub pairs: bool,
    /// Neurons of the dense layer between the accumulators and the output (byte 10; 0 for
    /// none).
    pub dense: usize,
}

impl Layout {
    /// The shape that `header` (at least [`HEADER_BYTES`] long) gives. Nothing is checked:
    /// the engine checks its net at compile time, the trainer the files it reads.
    pub const fn of(header: &[u8]) -> Layout {
        Layout {
            stored: header[4] as usize | (header[5] as usize) << 8,
            qa: header[6] as i32,
            qb: header[7] as i32,
            buckets: header[8] as usize,
            king_mirror: header[9] & 1 != 0,
            pairs: header[9] & 2 != 0,
            dense: header[10] as usize,
        }
    }

    /// Hidden neurons per perspective as computed: the stored ones, and their twins.
    pub const fn hidden(&self) -> usize {
        if self.pairs { 2 * self.stored } else { self.stored }
    }

    /// Where the first-layer weights start: `INPUTS × stored` i8, neuron by neuron, each
    /// its difference from the previous feature's.
    pub const fn first_layer(&self) -> usize {
        HEADER_BYTES
    }

    /// Where the first-layer biases start: `stored` i16.
    pub const fn biases(&self) -> usize {
        self.first_layer() + INPUTS * self.stored
    }

    /// Where the dense layer's weights start: `dense × 2 × stored` i8, neuron by neuron
    /// (the side to move's half first); none without a dense layer.
    pub const fn dense_weights(&self) -> usize {
        self.biases() + 2 * self.stored
    }

    /// Where the dense layer's biases start: `dense` i32.
    pub const fn dense_biases(&self) -> usize {
        self.dense_weights() + self.dense * 2 * self.stored
    }

    /// Where the output weights start, bucket by bucket ([`Layout::bucket_bytes`] each).
    pub const fn output_weights(&self) -> usize {
        self.dense_biases() + 4 * self.dense
    }

    /// Bytes of one bucket's output weights: `2 × stored` i8 (the side to move's half
    /// first), or with a dense layer `dense` i16.
    pub const fn bucket_bytes(&self) -> usize {
        if self.dense > 0 { 2 * self.dense } else { 2 * self.stored }
    }

    /// Where the output biases start: `buckets` i32.
    pub const fn output_biases(&self) -> usize {
        self.output_weights() + self.buckets * self.bucket_bytes()
    }

    /// The file's length in bytes.
    pub const fn bytes(&self) -> usize {
        self.output_biases() + 4 * self.buckets
    }
}

/// The output bucket, among `buckets`, of a position with `pieces` pieces, kings included.
#[inline(always)]
pub fn bucket_of(pieces: usize, buckets: usize) -> usize {
    ((pieces.max(2) - 2) * buckets / 31).min(buckets - 1)
}

/// Feature indices of `piece` (0..12: white's pawn to king, then black's) on `square`
/// (0..64, a1 first) from white's view and from black's (own pieces first, the board
/// flipped top to bottom), each view's square XORed with its entry of `flips` (7 reads
/// that view mirrored left to right, 0 as it is).
#[inline(always)]
pub fn feature_pair(piece: usize, square: usize, flips: [usize; 2]) -> [usize; 2] {
    [piece * 64 + (square ^ flips[0]), ((piece + 6) % 12) * 64 + (square ^ 56 ^ flips[1])]
}

/// The embedded net's shape, from its header.
const LAYOUT: Layout = Layout::of(net_file!());
/// Neurons per perspective that the file stores: its header's, so a net of another width
/// needs no code change (only `MINNOW_NET`).
const STORED: usize = LAYOUT.stored;
/// Mirrored pairs ([`Layout::pairs`]): twice the width at the same bytes; the evaluation
/// is exactly symmetric under the mirror. The twins come after the stored neurons in each
/// accumulator.
const PAIRS: bool = LAYOUT.pairs;
/// Hidden neurons per perspective as computed: the stored ones, and their twins.
pub const HIDDEN: usize = LAYOUT.hidden();
/// First-layer quantization (weights and biases times `QA`); activations clamp at `QA`:
/// the net file's.
const QA: i32 = LAYOUT.qa;
/// Output-weight quantization: the net file's.
const QB: i32 = LAYOUT.qb;
/// Output buckets, chosen by the number of pieces on the board ([`output_bucket`]): the
/// net file's.
pub const BUCKETS: usize = LAYOUT.buckets;
/// King mirroring ([`Layout::king_mirror`]): each perspective whose own king stands on
/// files e–h sees the board mirrored left to right, so its king is always on a–d and the
/// weights learn pieces relative to the king's wing; the net file's.
const MIRRORED: bool = LAYOUT.king_mirror;
/// Neurons of the dense layer between the accumulators and the output (0: none, the
/// output reading the accumulators directly): the net file's.
pub const DENSE: usize = LAYOUT.dense;
/// The evaluation stays well inside the mate scores.
const MAX_EVAL: i32 = 20_000;

const W1: usize = LAYOUT.first_layer();
const B1: usize = LAYOUT.biases();
/// The dense layer: `DENSE × 2 × HIDDEN` i8 weights (neuron by neuron, the side to move's
/// half first), then `DENSE` i32 biases (times `QA² · QB`); both empty without one.
const WD: usize = LAYOUT.dense_weights();
const BD: usize = LAYOUT.dense_biases();
const W2: usize = LAYOUT.output_weights();
/// Bytes of one bucket's output weights: `2 × STORED` i8, or `DENSE` i16.
const W2_BYTES: usize = LAYOUT.bucket_bytes();
const B2: usize = LAYOUT.output_biases();
const NET_LEN: usize = LAYOUT.bytes();

// The header must say what this code was built for: magic, sizes, quantization, length.
const _: () = {
    let net = net_file!();
    assert!(
        net.len() == NET_LEN,
        concat!("the net (", env!("MINNOW_NET_FILE"), "): wrong length for HIDDEN and BUCKETS")
    );
    let magic = net[0] == MAGIC[0] && net[1] == MAGIC[1] && net[2] == MAGIC[2] && net[3] == MAGIC[3];
    assert!(magic, "the net: not an MNN3 net");
    assert!(
        STORED > 0 && STORED.is_multiple_of(8) && HIDDEN <= 256,
        "the net: hidden size not a multiple of 8 up to 256 (with its twins)"
    );
    assert!(BUCKETS > 0 && BUCKETS <= 32, "the net: 1 to 32 output buckets");
    assert!(net[9] <= 2 && net[11] == 0, "the net: unknown header flags");
    #[allow(clippy::absurd_extreme_comparisons)]
    let pairs_fit = !PAIRS || DENSE == 0;
    assert!(pairs_fit, "the net: mirrored pairs with a dense layer");
    #[allow(clippy::absurd_extreme_comparisons)]
    let dense_fits = DENSE <= 64;
    assert!(dense_fits && DENSE.is_multiple_of(2), "the net: a dense layer of an even number up to 64");
    assert!(QA >= 8 && QA <= 127 && QB >= 8 && QB <= 127, "the net: QA and QB must be 8 to 127");
};

/// The output bucket of a position with `pieces` pieces, kings included, among the
/// embedded net's [`BUCKETS`] ([`bucket_of`]).
#[inline(always)]
pub fn output_bucket(pieces: u32) -> usize {
    bucket_of(pieces as usize, BUCKETS)
}

/// The embedded net, as in the file.
#[cfg(not(coded_net))]
static NET: [u8; NET_LEN] = *net_file!();
/// The embedded net with its first layer zeroed (it comes from [`CODED`] instead): the
/// zeros cost the compressed binary a few bytes, and every offset stays the file's.
#[cfg(coded_net)]
static NET: [u8; NET_LEN] = {
    let mut net = *net_file!();
    let mut i = W1;
    while i < B1 {
        net[i] = 0;
        i += 1;
    }
    net
};
/// The first layer range-coded (`MINNOW_CODED`; format: [`decode_first_layer`]).
#[cfg(coded_net)]
static CODED: &[u8] = include_bytes!(env!("MINNOW_CODED_FILE"));

/// The first layer decoded: one row of `HIDDEN` weights per feature, then [`ZERO_ROW`].
static mut ROWS: [[i16; HIDDEN]; INPUTS + 1] = [[0; HIDDEN]; INPUTS + 1];
/// A row of zeros after the features' rows: what [`Accumulator::after`] adds and
/// subtracts for the pieces a move does not have.
const ZERO_ROW: usize = INPUTS;
/// The output weights decoded with [`ROWS`]: per bucket, the side to move's and the other
/// side's, one i16 per computed neuron (a twin takes its neuron's weight), so that the dot
/// product is one pass over the accumulator with no widening (none with a dense layer).
#[allow(clippy::absurd_extreme_comparisons)] // DENSE is the net file's (see W2_BYTES)
static mut OUTPUT: [[i16; HIDDEN]; if DENSE > 0 { 0 } else { 2 * BUCKETS }] =
    [[0; HIDDEN]; if DENSE > 0 { 0 } else { 2 * BUCKETS }];
/// [`ZERO_ROW`] from both views: no piece.
const NO_ROWS: [usize; 2] = [ZERO_ROW; 2];
static ROWS_STATE: AtomicU8 = AtomicU8::new(UNINIT);
/// Whether the hot loops run their AVX2 copies: set with [`ROWS`], before any accumulator.
static AVX2: AtomicBool = AtomicBool::new(false);

/// True where the CPU has AVX2 and the OS saves the 256-bit registers (CPUID leaf 1:
/// OSXSAVE and AVX; leaf 7: AVX2; XCR0: SSE and AVX state).
#[cfg(target_arch = "x86_64")]
fn cpu_has_avx2() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    let (leaf1, leaf7) = (__cpuid(1), __cpuid_count(7, 0));
    if leaf1.ecx & (3 << 27) != 3 << 27 || leaf7.ebx & (1 << 5) == 0 {
        return false;
    }
    let xcr0: u32;
    // SAFETY: `xgetbv` with ECX = 0 reads XCR0; OSXSAVE (checked above) says it may.
    unsafe {
        core::arch::asm!("xgetbv", in("ecx") 0, out("eax") xcr0, out("edx") _, options(nomem, nostack, preserves_flags));
    }
    xcr0 & 6 == 6
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx2() -> bool {
    false
}

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
        AVX2.store(cpu_has_avx2(), Ordering::Relaxed);
        #[cfg(not(coded_net))]
        for (i, column) in NET[W1..B1].chunks_exact(INPUTS).enumerate() {
            let mut w = 0i8;
            for (row, &delta) in rows.iter_mut().zip(column) {
                w = w.wrapping_add(delta as i8);
                row[i] = i16::from(w);
            }
        }
        #[cfg(coded_net)]
        {
            let mut decoder = FirstLayerDecoder::new(CODED, STORED);
            let mut column = [0i8; INPUTS];
            for i in 0..STORED {
                decoder.neuron(i, &mut column);
                for (row, &w) in rows.iter_mut().zip(&column) {
                    row[i] = i16::from(w);
                }
            }
        }
        if PAIRS {
            for f in 0..INPUTS {
                for i in 0..STORED {
                    rows[f][STORED + i] = rows[f ^ 7][i];
                }
            }
        }
        // SAFETY: as for ROWS; nothing reads OUTPUT before an accumulator exists.
        let output = unsafe { &mut *(&raw mut OUTPUT) };
        for (k, weights) in output.iter_mut().enumerate() {
            for (i, w) in weights.iter_mut().enumerate() {
                *w = i16::from(NET[W2 + k * STORED + i % STORED] as i8);
            }
        }
    });
}

/// Coded first-layer contexts: `theta_k = 1 - 2^(-k/4)` for k in 0..40.
const CODED_KS: usize = 40;
/// Where a weight's activity (its left and lower neighbours' |residual| summed) starts each
/// of the six buckets after the first.
const ACTIVITY_EDGES: [i32; 5] = [1, 3, 6, 12, 24];

/// The decoder of a first layer range-coded by `tools/reports/weight_coding.py`
/// (`encode_blob`): `12 × neurons` bytes of `k` (neuron by neuron, plane by plane), six
/// i8 offsets on `k` by activity bucket, then the stream of LZMA's 32-bit range coder
/// without its first (zero) byte. Each weight is the mean of its left and lower
/// neighbours in its piece's plane (floored; one of them at an edge, 0 at a1) plus a
/// wrapping-i8 residual, coded under the two-sided geometric distribution of its neuron
/// and plane's `k`, moved by its activity's offset, in integer frequencies
/// ([`FirstLayerDecoder::frequency`]). The pawns' squares on the first and last ranks are
/// not coded (zero). No allocation and no floating point: `no_std` as the engine is.
pub struct FirstLayerDecoder<'a> {
    ks: &'a [u8],
    offsets: &'a [u8],
    stream: &'a [u8],
    at: usize,
    range: u32,
    code: u32,
}

/// `theta_k` in 1/65536.
const fn coded_theta(k: usize) -> u64 {
    const FRACTION: [u64; 4] = [65536, 55109, 46341, 38968];
    65536 - (FRACTION[k & 3] >> (k >> 2))
}

/// The frequency of residual 0 under `k`, in 1/65536 of a count: `2^16 (1 - theta) / (1 + theta)`.
const fn coded_first(k: usize) -> u64 {
    let t = coded_theta(k);
    (((65536 - t) << 16) / (65536 + t)) << 16
}

/// The frequency of the residual of zigzag index `z` (0, -1, 1, -2, 2, ...), `g` that of
/// the one before in 1/65536 of a count (from [`coded_first`]), decayed by theta on each
/// new magnitude.
const fn coded_frequency(g: &mut u64, k: usize, z: usize) -> u32 {
    if z & 1 != 0 {
        *g = (*g * coded_theta(k)) >> 16;
    }
    let f = (*g >> 16) as u32;
    if f > 1 { f } else { 1 }
}

/// The sum of the 256 residuals' frequencies under each `k`, computed at compile time.
const CODED_TOTALS: [u32; CODED_KS] = {
    let mut totals = [0u32; CODED_KS];
    let mut k = 0;
    while k < CODED_KS {
        let mut g = coded_first(k);
        let mut z = 0;
        while z < 256 {
            totals[k] += coded_frequency(&mut g, k, z);
            z += 1;
        }
        k += 1;
    }
    totals
};

impl<'a> FirstLayerDecoder<'a> {
    /// Ready to decode the `neurons` neurons of `coded`, in order.
    pub fn new(coded: &'a [u8], neurons: usize) -> Self {
        let (ks, rest) = coded.split_at(12 * neurons);
        let (offsets, stream) = rest.split_at(6);
        let code = u32::from_be_bytes([stream[0], stream[1], stream[2], stream[3]]);
        FirstLayerDecoder { ks, offsets, stream, at: 4, range: u32::MAX, code }
    }

    /// Decodes neuron `n`'s 768 weights into `out`, feature by feature.
    pub fn neuron(&mut self, n: usize, out: &mut [i8; INPUTS]) {
        let mut residual = [0i32; INPUTS];
        for f in 0..INPUTS {
            let sq = f % 64;
            out[f] = 0;
            if (f / 64) % 6 == 0 && !(8..56).contains(&sq) {
                continue; // a pawn on the first or last rank: never a feature
            }
            let (left, below) = (sq % 8 != 0, sq >= 8);
            let activity =
                if left { residual[f - 1].abs() } else { 0 } + if below { residual[f - 8].abs() } else { 0 };
            let bucket = ACTIVITY_EDGES.iter().filter(|&&e| activity >= e).count();
            let k = (i32::from(self.ks[12 * n + f / 64]) + i32::from(self.offsets[bucket] as i8))
                .clamp(0, CODED_KS as i32 - 1) as usize;
            // The symbol: the one whose cumulative frequencies hold code / (range / total).
            let r = self.range / CODED_TOTALS[k];
            let v = self.code / r;
            let (mut g, mut cum, mut z) = (coded_first(k), 0u32, 0usize);
            let mut freq = coded_frequency(&mut g, k, 0);
            while cum + freq <= v {
                cum += freq;
                z += 1;
                freq = coded_frequency(&mut g, k, z);
            }
            self.code -= r * cum;
            self.range = r * freq;
            while self.range < 1 << 24 {
                self.range <<= 8;
                self.code = self.code << 8 | u32::from(self.stream.get(self.at).copied().unwrap_or(0));
                self.at += 1;
            }
            let res = if z & 1 != 0 { -((z as i32 + 1) >> 1) } else { z as i32 >> 1 };
            residual[f] = res;
            let (l, b) =
                (if left { i32::from(out[f - 1]) } else { 0 }, if below { i32::from(out[f - 8]) } else { 0 });
            let guess = match (left, below) {
                (true, true) => (l + b) >> 1,
                _ => l + b,
            };
            out[f] = (guess + res) as u8 as i8;
        }
    }
}

/// Output weights `k` (after [`decode_rows`]): bucket `k / 2`, the side to move's for even
/// `k`, the other side's for odd.
#[inline(always)]
#[allow(clippy::deref_addrof)]
fn output_weights(k: usize) -> &'static [i16; HIDDEN] {
    // SAFETY: as for `row`.
    unsafe { &(*(&raw const OUTPUT))[k] }
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

/// Feature indices of `piece` on `sq` from white's and black's view, each view's squares
/// XORed with its entry of `flips` ([`flips`]).
#[inline(always)]
fn features(piece: Piece, sq: Square, flips: [usize; 2]) -> [usize; 2] {
    feature_pair(piece.index(), sq.index(), flips)
}

/// What each view XORs into its squares: 7 (files reversed) where the net mirrors and that
/// view's own king is on files e–h, else 0.
#[inline(always)]
fn flips(pos: &Position) -> [usize; 2] {
    let flip = |color| if MIRRORED && pos.king_square(color).file() >= 4 { 7 } else { 0 };
    [flip(Color::White), flip(Color::Black)]
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
            let at = B1 + 2 * (i % STORED);
            *b = i16::from_le_bytes([NET[at], NET[at + 1]]);
        }
        let mut acc = Accumulator([bias; 2]);
        let flips = flips(pos);
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                let before = acc;
                before.updated([features(piece, sq, flips), NO_ROWS], [NO_ROWS; 2], &mut acc);
            }
        }
        acc
    }

    /// Writes to `out` the accumulators after the legal move `m` in `pos` (whose
    /// accumulators these are), in place: the search keeps one per ply, and returning 256
    /// bytes to copy them there cost a copy per node. A move adds at most two feature rows
    /// and removes at most two; the unused ones are [`ZERO_ROW`], so every move is one
    /// pass of the same branch-free loop ([`Accumulator::updated`]). A king crossing
    /// between files d and e turns its side's view over (king mirroring): then both are
    /// built afresh, which is rare. Never inlined: the search calls it from two places.
    #[inline(never)]
    pub fn after(&self, pos: &Position, m: Move, out: &mut Accumulator) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_on(from) else { return *out = *self };
        if MIRRORED && piece.kind() == PieceType::King && (from.file() ^ to.file()) & 4 != 0 {
            return *out = Accumulator::new(&pos.after(m));
        }
        let flips = flips(pos);
        let us = piece.color();
        let (mut add2, mut sub2) = (NO_ROWS, NO_ROWS);
        match m.flag() {
            MoveFlag::EnPassant => {
                sub2 = features(Piece::new(!us, PieceType::Pawn), Square::new(to.index() as u8 ^ 8), flips)
            }
            _ if m.is_capture() => {
                if let Some(victim) = pos.piece_on(to) {
                    sub2 = features(victim, to, flips);
                }
            }
            MoveFlag::KingCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                sub2 = features(rook, to.offset(1), flips);
                add2 = features(rook, to.offset(-1), flips);
            }
            MoveFlag::QueenCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                sub2 = features(rook, to.offset(-2), flips);
                add2 = features(rook, to.offset(1), flips);
            }
            _ => {}
        }
        let sub1 = features(piece, from, flips);
        let add1 = features(m.promotion().map_or(piece, |kind| Piece::new(us, kind)), to, flips);
        self.updated([add1, add2], [sub1, sub2], out)
    }

    /// These accumulators plus the rows `add` (each a feature per view) minus the rows
    /// `sub`, in one pass: the binary's only copy of the update loop (the search's
    /// [`Accumulator::after`] and the from-scratch [`Accumulator::new`] share it).
    #[inline(never)]
    fn updated(&self, add: [[usize; 2]; 2], sub: [[usize; 2]; 2], out: &mut Accumulator) {
        #[cfg(target_arch = "x86_64")]
        if AVX2.load(Ordering::Relaxed) {
            // SAFETY: AVX2 is set only where the CPU and the OS run AVX2 instructions.
            return unsafe { self.updated_avx2(add, sub, out) };
        }
        self.updated_body::<{ cfg!(target_arch = "x86_64") }>(add, sub, out)
    }

    /// [`Accumulator::updated`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn updated_avx2(&self, add: [[usize; 2]; 2], sub: [[usize; 2]; 2], out: &mut Accumulator) {
        self.updated_body::<false>(add, sub, out)
    }

    /// The update loop. `ROLLED`: eight neurons a step in a loop the compiler may not
    /// unroll (the chunk count passes through `black_box`), for the SSE2 copy of x86-64,
    /// which runs only where the CPU lacks AVX2 (the competition's has it): unrolled at
    /// 144 neurons that copy was 551 B of the archive; rolled, the code is 391 B smaller.
    #[inline(always)]
    fn updated_body<const ROLLED: bool>(
        &self,
        add: [[usize; 2]; 2],
        sub: [[usize; 2]; 2],
        out: &mut Accumulator,
    ) {
        for v in 0..2 {
            let (a1, a2, s1, s2) = (row(add[0][v]), row(add[1][v]), row(sub[0][v]), row(sub[1][v]));
            if ROLLED {
                let chunks =
                    out.0[v].chunks_exact_mut(8).zip(self.0[v].chunks_exact(8)).zip(a1.chunks_exact(8));
                let chunks = chunks.zip(a2.chunks_exact(8)).zip(s1.chunks_exact(8)).zip(s2.chunks_exact(8));
                for (((((o, x), a1), a2), s1), s2) in chunks.take(core::hint::black_box(HIDDEN / 8)) {
                    for i in 0..8 {
                        o[i] = x[i] + a1[i] + a2[i] - s1[i] - s2[i];
                    }
                }
            } else {
                for i in 0..HIDDEN {
                    out.0[v][i] = self.0[v][i] + a1[i] + a2[i] - s1[i] - s2[i];
                }
            }
        }
    }

    /// The evaluation in centipawns of `pos`, whose accumulator this is, from its side to
    /// move's view. Never inlined: the search calls it from four places. It takes the
    /// position, not the side and the piece count: counting pieces is a long bit trick on
    /// the baseline target, and each caller held a copy (−17 B).
    #[inline(never)]
    #[allow(clippy::absurd_extreme_comparisons)] // DENSE is the net file's (see W2_BYTES)
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        let (us, them) = (&self.0[side.index()], &self.0[1 - side.index()]);
        let bucket = output_bucket(pos.occupied().count());
        let w2 = W2 + bucket * W2_BYTES;
        let b2 = i64::from(read_i32(B2 + 4 * bucket));
        let (sum, units) = if DENSE > 0 {
            (dense_output(us, them, &NET[w2..w2 + W2_BYTES]) + b2, i64::from(QA * QA * QB) * i64::from(QO))
        } else {
            let (w_us, w_them) = (output_weights(2 * bucket), output_weights(2 * bucket + 1));
            (i64::from(screlu_dot(us, w_us) + screlu_dot(them, w_them)) + b2, i64::from(QA * QA * QB))
        };
        (sum * i64::from(SCALE) / units).clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}

/// The little-endian i32 of the net at byte `at`.
#[inline(always)]
fn read_i32(at: usize) -> i32 {
    i32::from_le_bytes([NET[at], NET[at + 1], NET[at + 2], NET[at + 3]])
}

/// The output through the dense layer, in units of `1 / (QA² · QB · QO)`, bias not
/// included: the two sides' SCReLU activations (`clamp(a, 0, QA)²`, side to move first),
/// each dense neuron's dot product with them plus its bias, clipped to `[0, QA² · QB]` (the
/// trainer's clamp to [0, 1]), times its output weight. Integer all through, with no
/// rounding between the layers, so it is the trainer's float net exactly.
#[inline(never)]
fn dense_output(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w2: &[u8]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if AVX2.load(Ordering::Relaxed) {
        // SAFETY: AVX2 is set only where the CPU and the OS run AVX2 instructions.
        return unsafe { dense_output_avx2(us, them, w2) };
    }
    dense_output_body::<false>(us, them, w2)
}

/// [`dense_output`] compiled with AVX2 (the activations' loop too), its dot products by hand.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dense_output_avx2(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w2: &[u8]) -> i64 {
    dense_output_body::<true>(us, them, w2)
}

#[inline(always)]
fn dense_output_body<const AVX2_DOT: bool>(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w2: &[u8]) -> i64 {
    let mut act = [0i16; 2 * HIDDEN];
    // `max` then `min`, index by index: one vector instruction each (an iterator chain
    // over both sides and `clamp` stayed scalar with branches, a third of the search).
    for i in 0..HIDDEN {
        let (u, t) = (us[i].max(0).min(QA as i16), them[i].max(0).min(QA as i16));
        act[i] = u * u;
        act[HIDDEN + i] = t * t;
    }
    // The weights through an opaque reference: read from the embedded net at known
    // offsets, they were folded into the code as constants, pre-widened to i16 (4 KB more
    // in the archive at 16 neurons).
    let net: &[u8; NET_LEN] = core::hint::black_box(&NET);
    let mut dots = [0i32; DENSE];
    // The neurons the AVX2 pass below leaves: all of them, or those past a multiple of four.
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if AVX2_DOT {
        // Four neurons a pass: each 16 activations loaded once for four weight rows.
        for (j, d) in dots.chunks_exact_mut(4).enumerate() {
            let rows = &net[WD + 4 * j * 2 * HIDDEN..WD + 4 * (j + 1) * 2 * HIDDEN];
            // SAFETY: AVX2_DOT is true only in `dense_output_avx2`, which runs where AVX2 does.
            d.copy_from_slice(&unsafe { dense_dot4_avx2(&act, rows) });
        }
        done = DENSE / 4 * 4;
    }
    for (j, d) in dots.iter_mut().enumerate().skip(done) {
        *d = dense_dot_body(&act, &net[WD + j * 2 * HIDDEN..WD + (j + 1) * 2 * HIDDEN]);
    }
    let mut out = 0i64;
    for (j, &dot) in dots.iter().enumerate() {
        let h = (dot + read_i32(BD + 4 * j)).clamp(0, QA * QA * QB);
        out += i64::from(h) * i64::from(i16::from_le_bytes([w2[2 * j], w2[2 * j + 1]]));
    }
    out
}

/// Four dense neurons' `Σ act · w` with AVX2 (`rows`: their four weight rows in order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dense_dot4_avx2(act: &[i16; 2 * HIDDEN], rows: &[u8]) -> [i32; 4] {
    use core::arch::x86_64::*;
    let n = 2 * HIDDEN;
    let rows = &rows[..4 * n];
    let mut sums = [_mm256_setzero_si256(); 4];
    for (i, a) in act.chunks_exact(16).enumerate() {
        // SAFETY: `a` holds 16 i16 (32 bytes), as the unaligned load reads.
        let a = unsafe { _mm256_loadu_si256(a.as_ptr().cast()) };
        for (k, sum) in sums.iter_mut().enumerate() {
            let w = &rows[k * n + 16 * i..k * n + 16 * i + 16];
            // SAFETY: `w` holds 16 bytes, as the unaligned load reads.
            let w = unsafe { _mm256_cvtepi8_epi16(_mm_loadu_si128(w.as_ptr().cast())) };
            *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(a, w));
        }
    }
    // The four horizontal sums at once: pairwise adds leave sum k's total in lane k.
    let s01 = _mm256_hadd_epi32(sums[0], sums[1]);
    let s23 = _mm256_hadd_epi32(sums[2], sums[3]);
    let s = _mm256_hadd_epi32(s01, s23);
    let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    let mut out = [0i32; 4];
    // SAFETY: `out` holds four i32 (16 bytes), as the unaligned store writes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), s) };
    out
}

/// Activations (≤ QA² < 2^14) times i8 weights: i16 products paired into i32 sums,
/// as `vpmaddwd` does. Not inlined: the path without AVX2 (and the AVX2 pass's last
/// neurons, where their number is not a multiple of four) loops over one copy, where the
/// neurons' loop unrolled was 1 KB more in the archive.
#[inline(never)]
fn dense_dot_body(act: &[i16; 2 * HIDDEN], weights: &[u8]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in act.iter().zip(weights) {
        sum += i32::from(a) * i32::from(w as i8);
    }
    sum
}

/// `Σ clamp(a, 0, QA)² · w` over one perspective's accumulator and its output weights
/// ([`output_weights`]). Not inlined: [`Accumulator::evaluate`] calls it twice, and one
/// copy of the unrolled loop is smaller in the archive than two (194 B when measured, at
/// 48 neurons).
#[inline(never)]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if AVX2.load(Ordering::Relaxed) {
        // SAFETY: AVX2 is set only where the CPU and the OS run AVX2 instructions.
        return unsafe { screlu_dot_avx2(acc, weights) };
    }
    screlu_terms(acc, weights)
}

/// [`screlu_dot`] with AVX2, by hand: the vectoriser widens every term to 32 bits before
/// multiplying. Here 16 neurons a step: clamp, `x · w` as i16 (|x · w| ≤ QA · 128 fits),
/// then `vpmaddwd` with `x` multiplies by `x` again and adds neighbouring pairs into i32.
/// A width that is not a multiple of 16 leaves its last 8 neurons to the plain loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use core::arch::x86_64::*;
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = zero;
    let wide = HIDDEN / 16 * 16;
    for (a, w) in acc[..wide].chunks_exact(16).zip(weights.chunks_exact(16)) {
        // SAFETY: `a` and `w` hold 16 i16 (32 bytes) each, as the unaligned loads read.
        let (a, w) =
            unsafe { (_mm256_loadu_si256(a.as_ptr().cast()), _mm256_loadu_si256(w.as_ptr().cast())) };
        let x = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(x, w), x));
    }
    let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s) + screlu_terms(&acc[wide..], &weights[wide..])
}

/// `Σ clamp(a, 0, QA)² · w` over `acc` and as many of `weights`, plainly: the portable
/// path's loop, and the AVX2 path's neurons past its last 16. `clamp(a, 0, QA)²` fits an
/// i16 (QA ≤ 127), so each term is an i16 product the vectoriser can pair into 32-bit sums.
#[inline(always)]
fn screlu_terms(acc: &[i16], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let x = a.clamp(0, QA as i16);
        sum += i32::from(x * x) * i32::from(w);
    }
    sum
}

/// The evaluation of `pos` from its side to move's view, from scratch (tools and tests;
/// the search keeps accumulators and calls [`Accumulator::evaluate`]).
pub fn evaluate(pos: &Position) -> i32 {
    Accumulator::new(pos).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 generator from `state`: random test inputs, the same every run.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// The AVX2 dot product equals the portable one, over accumulators below zero, inside
    /// 0..QA and above it, and weights over the whole i8 range (its extremes included).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_dot_product_matches_the_portable_one() {
        if !cpu_has_avx2() {
            return;
        }
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..2000 {
            let acc: [i16; HIDDEN] = core::array::from_fn(|_| (next() % 400) as i16 - 150);
            let weights: [i16; HIDDEN] = core::array::from_fn(|i| match round {
                0 => -128,
                1 => 127,
                _ => i16::from((next() >> 8) as u8 as i8 ^ i as i8),
            });
            let acc = if round < 2 { [QA as i16; HIDDEN] } else { acc };
            // SAFETY: the CPU has AVX2 (checked above).
            let fast = unsafe { screlu_dot_avx2(&acc, &weights) };
            assert_eq!(fast, screlu_terms(&acc, &weights), "round {round}");
        }
    }

    /// The rolled update loop (the SSE2 copy's) gives what the plain one gives, for random
    /// rows added and removed (the zero row among them).
    #[test]
    fn rolled_update_matches_the_plain_one() {
        let mut next = xorshift(0xD1B5_4A32_D192_ED03);
        let mut acc = Accumulator::new(&Position::startpos());
        for round in 0..2000 {
            let mut pick =
                || [(next() % (INPUTS as u64 + 1)) as usize, (next() % (INPUTS as u64 + 1)) as usize];
            let (add, sub) = ([pick(), pick()], [pick(), pick()]);
            let (mut rolled, mut plain) = (acc, acc);
            acc.updated_body::<true>(add, sub, &mut rolled);
            acc.updated_body::<false>(add, sub, &mut plain);
            assert_eq!(rolled, plain, "round {round}");
            // Keep the sums small: go on from a fresh start now and then.
            acc = if round % 8 == 7 { Accumulator::new(&Position::startpos()) } else { plain };
        }
    }

    /// The dense layer's AVX2 dot products (four rows at once) equal the portable one,
    /// activations over their whole range (0..=QA²) and weights over the whole i8 range.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_dense_dot_products_match_the_portable_one() {
        if !cpu_has_avx2() || !HIDDEN.is_multiple_of(8) {
            return;
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..2000 {
            let act: [i16; 2 * HIDDEN] = core::array::from_fn(|_| match round {
                0 => (QA * QA) as i16,
                _ => (next() % (QA * QA + 1) as u64) as i16,
            });
            let rows: [u8; 8 * HIDDEN] =
                core::array::from_fn(|_| if round < 2 { 0x80 } else { next() as u8 });
            // SAFETY: the CPU has AVX2 (checked above).
            let four = unsafe { dense_dot4_avx2(&act, &rows) };
            for (k, row) in rows.chunks_exact(2 * HIDDEN).enumerate() {
                assert_eq!(four[k], dense_dot_body(&act, row), "round {round}, row {k}");
            }
        }
    }
}
