//! Hand-crafted, tapered evaluation.
//!
//! Each term is an [`S`] pair (middlegame, endgame) computed for white minus black, then
//! blended by the game phase and returned from the side to move's point of view. Weights
//! live in [`crate::params`] and are gathered into one flat table, [`WEIGHTS`]; the
//! evaluation names each weight it uses by its index and reports it to a [`Terms`]. The
//! engine's `Terms` adds the weights up; the tuner's (`examples/tune.rs`) records which
//! weights a position uses, so the tuner fits exactly the evaluation the engine runs. The evaluation is colour-symmetric by construction (every
//! term is computed through [`Color`]-relative helpers) and a test checks that over large
//! position sets.

use crate::attacks;
use crate::board::Position;
use crate::params::*;
use crate::types::{Bitboard, Color, PieceType, Square};
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

/// Where each tunable weight sits in the flat table [`WEIGHTS`]: the evaluation names a
/// weight by its index, so that the same code can either add weights up (the engine) or
/// record which weights it used how often (the tuner, `examples/tune.rs`).
pub mod index {
    /// Material, by piece type (the king's entry is never used).
    pub const PIECE_VALUE: usize = 0;
    /// Piece-square bonus: + 32 * piece type + 4 * rank + file (files e-h mirrored onto d-a).
    pub const PST: usize = PIECE_VALUE + 6;
    /// Knight mobility by squares reached.
    pub const KNIGHT_MOBILITY: usize = PST + 6 * 32;
    /// Bishop mobility.
    pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
    /// Rook mobility.
    pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
    /// Queen mobility.
    pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
    /// Bishop pair.
    pub const BISHOP_PAIR: usize = QUEEN_MOBILITY + 28;
    /// Rook on an open file.
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    /// Rook on a half-open file.
    pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    /// Passed pawn by rank.
    pub const PASSED_PAWN: usize = ROOK_SEMI_OPEN_FILE + 1;
    /// Blocked passed pawn by rank.
    pub const PASSED_BLOCKED: usize = PASSED_PAWN + 8;
    /// Own king distance to a passer's stop square.
    pub const PASSED_OWN_KING: usize = PASSED_BLOCKED + 8;
    /// Enemy king distance to a passer's stop square.
    pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
    /// Pawn defended by a pawn, by rank.
    pub const PAWN_SUPPORTED: usize = PASSED_ENEMY_KING + 1;
    /// Pawn beside a pawn, by rank.
    pub const PAWN_PHALANX: usize = PAWN_SUPPORTED + 8;
    /// Isolated pawn.
    pub const ISOLATED_PAWN: usize = PAWN_PHALANX + 8;
    /// Doubled pawn.
    pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
    /// Backward pawn.
    pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
    /// Pawn attacks a piece.
    pub const PAWN_THREAT: usize = BACKWARD_PAWN + 1;
    /// Minor attacks a rook or queen.
    pub const MINOR_THREAT: usize = PAWN_THREAT + 1;
    /// Rook attacks a queen.
    pub const ROOK_THREAT: usize = MINOR_THREAT + 1;
    /// King attack by units.
    pub const KING_ATTACK: usize = ROOK_THREAT + 1;
    /// King pawn shield.
    pub const KING_SHIELD: usize = KING_ATTACK + 40;
    /// Open file at the king.
    pub const KING_OPEN_FILE: usize = KING_SHIELD + 2;
    /// Side to move.
    pub const TEMPO: usize = KING_OPEN_FILE + 1;
    /// Number of weights.
    pub const COUNT: usize = TEMPO + 1;
}

/// Name, first index and length of every weight table, in [`WEIGHTS`] order (for the tuner,
/// which prints tuned values back in the form of `params.rs`).
pub const LAYOUT: [(&str, usize, usize); 25] = [
    ("PIECE_VALUE", index::PIECE_VALUE, 6),
    ("PST", index::PST, 6 * 32),
    ("KNIGHT_MOBILITY", index::KNIGHT_MOBILITY, 9),
    ("BISHOP_MOBILITY", index::BISHOP_MOBILITY, 14),
    ("ROOK_MOBILITY", index::ROOK_MOBILITY, 15),
    ("QUEEN_MOBILITY", index::QUEEN_MOBILITY, 28),
    ("BISHOP_PAIR", index::BISHOP_PAIR, 1),
    ("ROOK_OPEN_FILE", index::ROOK_OPEN_FILE, 1),
    ("ROOK_SEMI_OPEN_FILE", index::ROOK_SEMI_OPEN_FILE, 1),
    ("PASSED_PAWN", index::PASSED_PAWN, 8),
    ("PASSED_BLOCKED", index::PASSED_BLOCKED, 8),
    ("PASSED_OWN_KING", index::PASSED_OWN_KING, 1),
    ("PASSED_ENEMY_KING", index::PASSED_ENEMY_KING, 1),
    ("PAWN_SUPPORTED", index::PAWN_SUPPORTED, 8),
    ("PAWN_PHALANX", index::PAWN_PHALANX, 8),
    ("ISOLATED_PAWN", index::ISOLATED_PAWN, 1),
    ("DOUBLED_PAWN", index::DOUBLED_PAWN, 1),
    ("BACKWARD_PAWN", index::BACKWARD_PAWN, 1),
    ("PAWN_THREAT", index::PAWN_THREAT, 1),
    ("MINOR_THREAT", index::MINOR_THREAT, 1),
    ("ROOK_THREAT", index::ROOK_THREAT, 1),
    ("KING_ATTACK", index::KING_ATTACK, 40),
    ("KING_SHIELD", index::KING_SHIELD, 2),
    ("KING_OPEN_FILE", index::KING_OPEN_FILE, 1),
    ("TEMPO", index::TEMPO, 1),
];

/// Copies `src` into `dst` from `at` (a `const fn` helper for [`WEIGHTS`]).
const fn put<const N: usize>(mut dst: [S; index::COUNT], at: usize, src: &[S; N]) -> [S; index::COUNT] {
    let mut i = 0;
    while i < N {
        dst[at + i] = src[i];
        i += 1;
    }
    dst
}

const fn build_weights() -> [S; index::COUNT] {
    use index as i;
    let mut w = [S(0, 0); index::COUNT];
    w = put(w, i::PIECE_VALUE, &PIECE_VALUE);
    let mut kind = 0;
    while kind < 6 {
        w = put(w, i::PST + 32 * kind, &PST[kind]);
        kind += 1;
    }
    w = put(w, i::KNIGHT_MOBILITY, &KNIGHT_MOBILITY);
    w = put(w, i::BISHOP_MOBILITY, &BISHOP_MOBILITY);
    w = put(w, i::ROOK_MOBILITY, &ROOK_MOBILITY);
    w = put(w, i::QUEEN_MOBILITY, &QUEEN_MOBILITY);
    w = put(w, i::BISHOP_PAIR, &[BISHOP_PAIR]);
    w = put(w, i::ROOK_OPEN_FILE, &[ROOK_OPEN_FILE]);
    w = put(w, i::ROOK_SEMI_OPEN_FILE, &[ROOK_SEMI_OPEN_FILE]);
    w = put(w, i::PASSED_PAWN, &PASSED_PAWN);
    w = put(w, i::PASSED_BLOCKED, &PASSED_BLOCKED);
    w = put(w, i::PASSED_OWN_KING, &[PASSED_OWN_KING]);
    w = put(w, i::PASSED_ENEMY_KING, &[PASSED_ENEMY_KING]);
    w = put(w, i::PAWN_SUPPORTED, &PAWN_SUPPORTED);
    w = put(w, i::PAWN_PHALANX, &PAWN_PHALANX);
    w = put(w, i::ISOLATED_PAWN, &[ISOLATED_PAWN]);
    w = put(w, i::DOUBLED_PAWN, &[DOUBLED_PAWN]);
    w = put(w, i::BACKWARD_PAWN, &[BACKWARD_PAWN]);
    w = put(w, i::PAWN_THREAT, &[PAWN_THREAT]);
    w = put(w, i::MINOR_THREAT, &[MINOR_THREAT]);
    w = put(w, i::ROOK_THREAT, &[ROOK_THREAT]);
    w = put(w, i::KING_ATTACK, &KING_ATTACK);
    w = put(w, i::KING_SHIELD, &KING_SHIELD);
    w = put(w, i::KING_OPEN_FILE, &[KING_OPEN_FILE]);
    w = put(w, i::TEMPO, &[TEMPO]);
    w
}

/// Every weight of the evaluation in one flat table, built at compile time from
/// [`crate::params`].
pub static WEIGHTS: [S; index::COUNT] = build_weights();

/// Receives the terms of one side's evaluation: weight `index` counted `n` times.
pub trait Terms {
    /// Adds weight `index` (see [`index`]) `n` times.
    fn add(&mut self, index: usize, n: i32);
}

/// The engine's [`Terms`]: the sum of the weights.
#[derive(Default)]
struct Sum(S);

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.0 += WEIGHTS[index] * n;
    }
}

/// Index of a square in a piece-square table: files e-h are mirrored onto d-a, since the
/// two wings are worth alike to a piece and half the entries tune twice as well.
#[inline(always)]
fn pst_square(sq: Square) -> usize {
    let file = sq.file() as usize;
    4 * sq.rank() as usize + file.min(7 - file)
}

/// The square as seen by `color` (rank 1 is its own back rank).
#[inline(always)]
fn relative(color: Color, sq: Square) -> Square {
    if color == Color::White { sq } else { sq.flip() }
}

/// Squares in front of `sq` (towards the enemy) on the same file.
#[inline(always)]
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = Bitboard::FILE_A.0 << sq.file();
    let above = if color == Color::White { !0u64 << sq.index() << 1 } else { (1u64 << sq.index()) - 1 };
    Bitboard(file & above)
}

#[inline(always)]
fn adjacent_files(sq: Square) -> Bitboard {
    let file = Bitboard::FILE_A.0 << sq.file();
    Bitboard(((file << 1) & !Bitboard::FILE_A.0) | ((file >> 1) & !Bitboard::FILE_H.0))
}

/// Squares attacked by all pawns of `color`.
#[inline(always)]
fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let f = pawns.forward(color);
    Bitboard(((f.0 << 1) & !Bitboard::FILE_A.0) | ((f.0 >> 1) & !Bitboard::FILE_H.0))
}

fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs().max((a.rank() as i32 - b.rank() as i32).abs())
}

/// Everything about one side, white's view for white and black's for black, reported to
/// `t` term by term.
pub fn evaluate_side<T: Terms>(pos: &Position, us: Color, t: &mut T) {
    use index as i;
    let them = !us;
    let occupied = pos.occupied();
    let ours = pos.pieces_of_color(us);
    let our_pawns = pos.pieces(us, PieceType::Pawn);
    let their_pawns = pos.pieces(them, PieceType::Pawn);
    let their_pawn_attacks = pawn_attack_span(them, their_pawns);
    let our_pawn_attacks = pawn_attack_span(us, our_pawns);
    let our_king = pos.king_square(us);
    let their_king = pos.king_square(them);
    let their_majors = pos.pieces(them, PieceType::Rook) | pos.pieces(them, PieceType::Queen);

    // Material and placement.
    for kind in PieceType::ALL {
        let k = kind.index();
        for sq in pos.pieces(us, kind) {
            t.add(i::PIECE_VALUE + k, 1);
            t.add(i::PST + 32 * k + pst_square(relative(us, sq)), 1);
        }
    }

    // Mobility, threats and king attack. Mobility counts squares not held by own pieces or
    // enemy pawns; king attacks count pieces hitting the zone around the enemy king.
    let king_zone = attacks::king(their_king) | their_king.bb();
    let king_zone = king_zone | king_zone.forward(them);
    let mobility_area = !(ours | their_pawn_attacks);
    let mut attack_units = 0;
    let mut attackers = 0;
    for (n, kind) in
        [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen].into_iter().enumerate()
    {
        for sq in pos.pieces(us, kind) {
            let (reach, table) = match kind {
                PieceType::Knight => (attacks::knight(sq), i::KNIGHT_MOBILITY),
                PieceType::Bishop => (attacks::bishop(sq, occupied), i::BISHOP_MOBILITY),
                PieceType::Rook => (attacks::rook(sq, occupied), i::ROOK_MOBILITY),
                _ => (attacks::queen(sq, occupied), i::QUEEN_MOBILITY),
            };
            t.add(table + (reach & mobility_area).count() as usize, 1);
            match kind {
                PieceType::Knight | PieceType::Bishop => {
                    t.add(i::MINOR_THREAT, (reach & their_majors).count() as i32)
                }
                PieceType::Rook => {
                    t.add(i::ROOK_THREAT, (reach & pos.pieces(them, PieceType::Queen)).count() as i32)
                }
                _ => {}
            }
            if (reach & king_zone).any() {
                attackers += 1;
                attack_units += KING_ATTACK_UNITS[n] * (reach & king_zone).count() as i32;
            }
        }
    }
    if attackers >= 2 {
        t.add(i::KING_ATTACK + attack_units.min(39) as usize, 1);
    }
    let their_pieces = pos.pieces_of_color(them) & !their_pawns & !their_king.bb();
    t.add(i::PAWN_THREAT, (our_pawn_attacks & their_pieces).count() as i32);

    // Bishop pair, rooks on open files.
    if pos.pieces(us, PieceType::Bishop).more_than_one() {
        t.add(i::BISHOP_PAIR, 1);
    }
    for sq in pos.pieces(us, PieceType::Rook) {
        let file = Bitboard(Bitboard::FILE_A.0 << sq.file());
        if (file & our_pawns).is_empty() {
            t.add(
                if (file & their_pawns).is_empty() { i::ROOK_OPEN_FILE } else { i::ROOK_SEMI_OPEN_FILE },
                1,
            );
        }
    }

    // Pawn structure.
    for sq in our_pawns {
        let rank = relative(us, sq).rank() as usize;
        let adjacent = adjacent_files(sq);
        let front = front_span(us, sq);
        if (adjacent & our_pawns).is_empty() {
            t.add(i::ISOLATED_PAWN, 1);
        }
        if (front & our_pawns).any() {
            t.add(i::DOUBLED_PAWN, 1);
        }
        if our_pawn_attacks.contains(sq) {
            t.add(i::PAWN_SUPPORTED + rank, 1);
        }
        if (adjacent & our_pawns & Bitboard(0xFF << (8 * sq.rank()))).any() {
            t.add(i::PAWN_PHALANX + rank, 1);
        }
        let stop = sq.offset(if us == Color::White { 8 } else { -8 });
        let passer_span = front | Bitboard(adjacent.0 & front_span_rows(us, sq));
        if (passer_span & their_pawns).is_empty() && (front & our_pawns).is_empty() {
            t.add(i::PASSED_PAWN + rank, 1);
            if occupied.contains(stop) {
                t.add(i::PASSED_BLOCKED + rank, 1);
            }
            t.add(i::PASSED_OWN_KING, distance(stop, our_king) * rank as i32);
            t.add(i::PASSED_ENEMY_KING, distance(stop, their_king) * rank as i32);
        } else if (adjacent & our_pawns & Bitboard(front_span_rows_incl(us, sq))).is_empty()
            && their_pawn_attacks.contains(stop)
            && !our_pawn_attacks.contains(stop)
        {
            // No own pawn beside or behind could ever defend it, and it cannot advance safely.
            t.add(i::BACKWARD_PAWN, 1);
        }
    }

    // King shelter: own pawns in front of a king on its first two ranks.
    if relative(us, our_king).rank() <= 1 {
        let file = our_king.file() as i32;
        for f in (file - 1).max(0)..=(file + 1).min(7) {
            let pawns = Bitboard(Bitboard::FILE_A.0 << f) & our_pawns;
            if pawns.is_empty() {
                t.add(i::KING_OPEN_FILE, 1);
                continue;
            }
            for sq in pawns {
                let ahead = relative(us, sq).rank() as i32 - relative(us, our_king).rank() as i32;
                if ahead == 1 || ahead == 2 {
                    t.add(i::KING_SHIELD + ahead as usize - 1, 1);
                }
            }
        }
    }
}

/// Bits of all ranks strictly in front of `sq` for `color`.
#[inline(always)]
fn front_span_rows(color: Color, sq: Square) -> u64 {
    if color == Color::White {
        if sq.rank() == 7 { 0 } else { !0u64 << (8 * (sq.rank() as u32 + 1)) }
    } else {
        (1u64 << (8 * sq.rank() as u32)) - 1
    }
}

/// Bits of the rank of `sq` and all ranks behind it, for `color`.
#[inline(always)]
fn front_span_rows_incl(color: Color, sq: Square) -> u64 {
    !front_span_rows(color, sq)
}

/// Game phase: 0 (bare kings and pawns) to [`MAX_PHASE`] (all pieces).
pub fn phase(pos: &Position) -> i32 {
    let p: i32 =
        PieceType::ALL.iter().map(|&k| pos.pieces_of_type(k).count() as i32 * PHASE_WEIGHT[k.index()]).sum();
    p.min(MAX_PHASE)
}

/// Endgame scale in 1/64ths for the side that is ahead: drawish material cuts the score.
pub fn endgame_scale(pos: &Position, strong: Color) -> i32 {
    let pawns = pos.pieces(strong, PieceType::Pawn).count();
    // Material in pawn units (minor 3, rook 5, queen 9), fixed so that tuning the piece
    // values does not move these thresholds.
    let material = |c: Color| {
        3 * (pos.pieces(c, PieceType::Knight) | pos.pieces(c, PieceType::Bishop)).count() as i32
            + 5 * pos.pieces(c, PieceType::Rook).count() as i32
            + 9 * pos.pieces(c, PieceType::Queen).count() as i32
    };
    if pawns == 0 && material(strong) - material(!strong) <= 3 {
        // A minor piece up (or less) without pawns rarely wins.
        return if material(strong) <= 3 { 0 } else { 12 };
    }
    // Opposite-coloured bishops and nothing else: drawish.
    let wb = pos.pieces(Color::White, PieceType::Bishop);
    let bb = pos.pieces(Color::Black, PieceType::Bishop);
    let only_bishops = pos.occupied()
        == (pos.pieces_of_type(PieceType::Pawn) | pos.pieces_of_type(PieceType::King) | wb | bb);
    if only_bishops
        && wb.count() == 1
        && bb.count() == 1
        && ((wb & Bitboard::LIGHT).any() != (bb & Bitboard::LIGHT).any())
    {
        return 32;
    }
    64
}

/// Blends a (middlegame, endgame) score, white's view, by the phase of `pos`, scaling the
/// endgame part down for drawish material. Returns white's view.
pub fn blend(pos: &Position, score: S) -> i32 {
    let phase = phase(pos);
    let strong = if score.1 >= 0 { Color::White } else { Color::Black };
    let eg = score.1 * endgame_scale(pos, strong) / 64;
    (score.0 * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let (mut white, mut black) = (Sum::default(), Sum::default());
    evaluate_side(pos, Color::White, &mut white);
    evaluate_side(pos, Color::Black, &mut black);
    let mut score = white.0 - black.0;
    score += if us == Color::White { TEMPO } else { -TEMPO };
    let blended = blend(pos, score);
    if us == Color::White { blended } else { -blended }
}
