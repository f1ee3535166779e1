//! The one table generator, shared by `build.rs` and the library.
//!
//! Everything here is slow, obvious code on plain `u64` bitboards and `usize` squares
//! (a1 = 0, h8 = 63), with no dependency on the rest of the crate, so that `build.rs`
//! can include this very file (`#[path = "src/tablegen.rs"]`). The build script turns
//! its output into the compile-time tables in `OUT_DIR`; the library uses it at start-up
//! to fill the small slider tables (kindergarten bitboards), and the tests
//! check every fast lookup against these reference functions. Generator and lookup
//! therefore cannot drift apart.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Along a rank (the rook's first two directions).
pub const RANK_DIRS: [(i32, i32); 2] = [(1, 0), (-1, 0)];
/// Along a file (the rook's last two directions).
pub const FILE_DIRS: [(i32, i32); 2] = [(0, 1), (0, -1)];
/// Along the diagonal (a1-h8 direction).
pub const DIAGONAL_DIRS: [(i32, i32); 2] = [(1, 1), (-1, -1)];
/// Along the anti-diagonal (h1-a8 direction).
pub const ANTI_DIAGONAL_DIRS: [(i32, i32); 2] = [(1, -1), (-1, 1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file step, rank step).
pub const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// King steps as (file step, rank step).
pub const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// The square `steps` away from `sq`, if it is on the board.
pub fn offset(sq: usize, (df, dr): (i32, i32)) -> Option<usize> {
    let f = (sq % 8) as i32 + df;
    let r = (sq / 8) as i32 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) { Some((r * 8 + f) as usize) } else { None }
}

/// Squares reached by single steps from `sq`.
pub fn step_attacks(sq: usize, steps: &[(i32, i32)]) -> u64 {
    steps.iter().filter_map(|&s| offset(sq, s)).fold(0, |bb, to| bb | 1 << to)
}

/// Knight attacks from `sq`.
pub fn knight_attacks(sq: usize) -> u64 {
    step_attacks(sq, &KNIGHT_STEPS)
}

/// King attacks from `sq`.
pub fn king_attacks(sq: usize) -> u64 {
    step_attacks(sq, &KING_STEPS)
}

/// Squares a pawn of `color` (0 = white, 1 = black) on `sq` attacks.
pub fn pawn_attacks(color: usize, sq: usize) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    step_attacks(sq, &[(-1, dr), (1, dr)])
}

/// Squares a slider on `sq` attacks along `dirs`, each ray stopping at the first occupied
/// square (which is included).
#[inline(never)]
pub fn slider_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, dir) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// The squares from `sq` in direction `dir` up to the edge (the ray, `sq` excluded).
pub fn ray(sq: usize, dir: (i32, i32)) -> u64 {
    slider_attacks(sq, 0, &[dir])
}

/// Relevant-occupancy mask of a slider: its empty-board attacks minus the last square of
/// each ray, since a blocker on the edge never changes the attack set.
pub fn slider_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, dir) {
            if offset(next, dir).is_none() {
                break;
            }
            mask |= 1 << next;
            cur = next;
        }
    }
    mask
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal, else 0.
pub fn between(a: usize, b: usize) -> u64 {
    for dir in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
        let r = ray(a, *dir);
        if r & (1 << b) != 0 {
            return r & ray(b, (-dir.0, -dir.1));
        }
    }
    0
}

/// The whole line (edge to edge) through `a` and `b` if they are aligned, else 0.
pub fn line(a: usize, b: usize) -> u64 {
    for dir in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
        if ray(a, *dir) & (1 << b) != 0 {
            return ray(a, *dir) | ray(a, (-dir.0, -dir.1)) | 1 << a;
        }
    }
    0
}

/// Fills the between and line tables (indexed `[a][b]`) by walking each ray once: the fast
/// twin of [`between`] and [`line`], which the tests check it against.
pub fn fill_between_and_line(between: &mut [[u64; 64]; 64], line: &mut [[u64; 64]; 64]) {
    for a in 0..64 {
        for dir in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
            let full = ray(a, *dir) | ray(a, (-dir.0, -dir.1)) | 1 << a;
            let mut inside = 0;
            let mut cur = a;
            while let Some(b) = offset(cur, *dir) {
                between[a][b] = inside;
                line[a][b] = full;
                inside |= 1 << b;
                cur = b;
            }
        }
    }
}

/// SplitMix64: a tiny, well-mixed deterministic generator for the Zobrist keys (and,
/// through `minnow-dev`'s `Rng`, the tools' random choices).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    #[inline(never)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Calls `f` with every subset of `mask` (the Carry-Rippler trick), the empty set first.
pub fn for_each_subset(mask: u64, mut f: impl FnMut(u64)) {
    let mut subset = 0u64;
    loop {
        f(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
}

/// The kindergarten index of a line's occupancy: `occupied` restricted to a rank or a
/// diagonal holds at most one square per file, and multiplying by the b-file constant
/// carries the square of file `f` (if any) to bit 57 + f without overlaps or carries, so
/// the top six bits are the occupancy of files b to g (the edge files never block).
pub const B_FILE: u64 = 0x0202_0202_0202_0202;
/// The a-file.
pub const A_FILE: u64 = 0x0101_0101_0101_0101;
/// The a-file squares that can block (a2 to a7).
pub const A_FILE_INNER: u64 = 0x0001_0101_0101_0100;
/// Multiplying the inner a-file (a2..a7, bit 8r) by this carries rank r to bit 57 + r
/// (terms 2^(57 - 7s) for s = 1..6; every cross term falls below bit 56 or off the top).
pub const FILE_MULTIPLIER: u64 = 0x0004_0810_2040_8000;

/// Six-bit line occupancy (bit j: file j + 1 blocks) turned into first-rank squares.
pub fn first_rank_occupancy(index: usize) -> u64 {
    (index as u64) << 1
}

/// Six-bit file occupancy (bit j: rank j + 1 blocks) turned into a-file squares.
pub fn a_file_occupancy(index: usize) -> u64 {
    (0..6).filter(|j| index >> j & 1 != 0).fold(0, |bb, j| bb | 1 << (8 * (j + 1)))
}

/// Fills the kindergarten tables: `fill_up[f][i]` is the first-rank attack set of a slider
/// on file `f` with inner occupancy `i`, copied onto every rank (so that masking it with a
/// rank or diagonal through a square on file `f` leaves that line's attacks), and
/// `a_file[r][i]` the a-file attack set of a slider on rank `r` with inner occupancy `i`.
pub fn fill_kindergarten(fill_up: &mut [[u64; 64]; 8], a_file: &mut [[u64; 64]; 8]) {
    for i in 0..64 {
        for k in 0..8 {
            let rank1 = slider_attacks(k, first_rank_occupancy(i), &RANK_DIRS);
            fill_up[k][i] = rank1.wrapping_mul(A_FILE);
            a_file[k][i] = slider_attacks(8 * k, a_file_occupancy(i), &FILE_DIRS);
        }
    }
}

/// For each square, the rank, diagonal and anti-diagonal through it, the square excluded.
pub fn fill_line_masks(masks: &mut [[u64; 3]; 64]) {
    for (sq, m) in masks.iter_mut().enumerate() {
        *m = [
            slider_attacks(sq, 0, &RANK_DIRS),
            slider_attacks(sq, 0, &DIAGONAL_DIRS),
            slider_attacks(sq, 0, &ANTI_DIAGONAL_DIRS),
        ];
    }
}

/// Seed of the Zobrist keys.
pub const ZOBRIST_SEED: u64 = 0x6D69_6E6E_6F77_5A6B;
