//! The one table generator, shared by `build.rs` and the library.
//!
//! Everything here is slow, obvious code on plain `u64` bitboards and `usize` squares
//! (a1 = 0, h8 = 63), with no dependency on the rest of the crate, so that `build.rs`
//! can include this very file (`#[path = "src/tablegen.rs"]`). The build script turns
//! its output into the compile-time tables in `OUT_DIR`; the library uses it at start-up
//! to fill the large slider table from the generated magic constants, and the tests
//! check every fast lookup against these reference functions. Generator and lookup
//! therefore cannot drift apart.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file step, rank step).
pub const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// King steps as (file step, rank step).
pub const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Number of entries of the rook part of the slider table (sum of 2^bits over squares).
pub const ROOK_TABLE_SIZE: usize = 102_400;
/// Number of entries of the bishop part of the slider table.
pub const BISHOP_TABLE_SIZE: usize = 5_248;
/// Total entries of the shared slider table (rooks first, then bishops).
pub const SLIDER_TABLE_SIZE: usize = ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE;

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

/// The magics of all 64 squares for one slider from their multipliers alone: masks and
/// shifts follow from the geometry, and the tables are laid out one after another from
/// `base`, as [`find_magics`] lays them out.
pub fn magics_from_numbers(numbers: &[u64; 64], dirs: &[(i32, i32)], base: u32) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut offset = base;
    for (sq, m) in magics.iter_mut().enumerate() {
        let mask = slider_mask(sq, dirs);
        *m = Magic { mask, magic: numbers[sq], shift: 64 - mask.count_ones(), offset };
        offset += 1 << mask.count_ones();
    }
    magics
}

/// SplitMix64: a tiny, well-mixed deterministic generator for magics and Zobrist keys (and,
/// through `minnow-dev`'s `Rng`, the tools' random choices).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A random number with few bits set, the usual shape of a good magic.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// One square's entry of a "fancy" magic bitboard scheme: the attack set for occupancy
/// `occ` is at `table[offset + ((occ & mask) * magic) >> shift]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Magic {
    /// Relevant-occupancy mask.
    pub mask: u64,
    /// The multiplier that hashes each relevant occupancy to a distinct slot.
    pub magic: u64,
    /// `64 - popcount(mask)`.
    pub shift: u32,
    /// Start of this square's slots in the shared slider table.
    pub offset: u32,
}

impl Magic {
    /// Index into the shared slider table for occupancy `occ`.
    #[inline(always)]
    pub fn index(&self, occ: u64) -> usize {
        self.offset as usize + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
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

/// Searches a magic for square `sq` whose table starts at `offset`. Every occupancy
/// subset must map to a slot holding its own attack set (constructive collisions allowed).
/// `scratch` holds at least 4096 entries.
pub fn find_magic(
    sq: usize,
    dirs: &[(i32, i32)],
    offset: u32,
    rng: &mut SplitMix,
    scratch: &mut [(u64, u32)],
) -> Magic {
    let mask = slider_mask(sq, dirs);
    let bits = mask.count_ones();
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let magic = rng.sparse();
        // Cheap filter: the top byte of mask * magic must be well populated.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let candidate = Magic { mask, magic, shift: 64 - bits, offset };
        let mut ok = true;
        for_each_subset(mask, |occ| {
            if !ok {
                return;
            }
            let slot = &mut scratch[candidate.index(occ) - offset as usize];
            let attacks = slider_attacks(sq, occ, dirs);
            if slot.1 != attempt {
                *slot = (attacks, attempt);
            } else if slot.0 != attacks {
                ok = false;
            }
        });
        if ok {
            return candidate;
        }
    }
}

/// Finds the magics of all 64 squares for one slider, laying their tables out one after
/// another from `base`.
pub fn find_magics(dirs: &[(i32, i32)], base: u32, seed: u64) -> [Magic; 64] {
    let mut rng = SplitMix(seed);
    let mut scratch = [(0u64, 0u32); 4096];
    let mut magics = [Magic::default(); 64];
    let mut offset = base;
    for (sq, m) in magics.iter_mut().enumerate() {
        scratch.iter_mut().for_each(|s| *s = (0, 0));
        *m = find_magic(sq, dirs, offset, &mut rng, &mut scratch);
        offset += 1 << slider_mask(sq, dirs).count_ones();
    }
    magics
}

/// Fills `table` (the shared slider table) for the given magics using the slow ray walker.
pub fn fill_slider_table(table: &mut [u64], magics: &[Magic; 64], dirs: &[(i32, i32)]) {
    for (sq, m) in magics.iter().enumerate() {
        for_each_subset(m.mask, |occ| table[m.index(occ)] = slider_attacks(sq, occ, dirs));
    }
}

/// Seed of the rook magic search (any seed works; this one is fixed for reproducibility).
pub const ROOK_SEED: u64 = 0x6D69_6E6E_6F77_0001;
/// Seed of the bishop magic search.
pub const BISHOP_SEED: u64 = 0x6D69_6E6E_6F77_0002;
/// Seed of the Zobrist keys.
pub const ZOBRIST_SEED: u64 = 0x6D69_6E6E_6F77_5A6B;
