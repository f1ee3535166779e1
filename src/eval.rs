//! Hand-crafted, tapered evaluation.
//!
//! Each term is an [`S`] pair (middlegame, endgame) computed for white minus black, then
//! blended by the game phase and returned from the side to move's point of view. Weights
//! live in [`crate::params`]. The evaluation is colour-symmetric by construction (every
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

/// Steps from the centre: 0 on d4/e4/d5/e5, 6 in a corner.
const fn center_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if 2 * f - 7 < 0 { 7 - 2 * f } else { 2 * f - 7 };
    let dr = if 2 * r - 7 < 0 { 7 - 2 * r } else { 2 * r - 7 };
    (df + dr) / 2 - 1
}

/// Piece-square value (material included) of a white piece of type `kind` on `sq`; black
/// uses the vertically mirrored square.
const fn pst_entry(kind: usize, sq: usize) -> S {
    let file = sq % 8;
    let rank = sq / 8;
    let dc = center_distance(sq);
    let v = PIECE_VALUE[kind];
    let c = CENTRALITY[kind];
    let mut mg = v.0 + c.0 * dc;
    let mut eg = v.1 + c.1 * dc;
    match kind {
        0 => {
            mg += PAWN_ADVANCE[rank].0;
            eg += PAWN_ADVANCE[rank].1;
            if (rank == 2 || rank == 3) && file >= 2 && file <= 5 {
                mg += PAWN_CENTER[file - 2] * (rank as i32 - 1);
            }
        }
        1 | 2 if rank == 0 => {
            mg += UNDEVELOPED_MINOR.0;
            eg += UNDEVELOPED_MINOR.1;
        }
        3 | 4 if rank == 6 => {
            mg += SEVENTH_RANK[kind - 3].0;
            eg += SEVENTH_RANK[kind - 3].1;
        }
        5 => {
            mg += KING_RANK_MG[rank];
            if file <= 1 || file >= 6 {
                mg += KING_CORNER_MG;
            }
            // Centrality matters in the endgame only (added above); offset it to be 0 at
            // the centre rather than negative everywhere.
            eg += 36;
        }
        _ => {}
    }
    S(mg, eg)
}

const fn build_pst() -> [[S; 64]; 6] {
    let mut t = [[S(0, 0); 64]; 6];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[kind][sq] = pst_entry(kind, sq);
            sq += 1;
        }
        kind += 1;
    }
    t
}

/// Piece-square tables (material included) for white, indexed by piece type and square.
pub static PST: [[S; 64]; 6] = build_pst();

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

/// Everything about one side, white's view for white and black's for black.
fn evaluate_side(pos: &Position, us: Color) -> S {
    let them = !us;
    let occupied = pos.occupied();
    let ours = pos.pieces_of_color(us);
    let our_pawns = pos.pieces(us, PieceType::Pawn);
    let their_pawns = pos.pieces(them, PieceType::Pawn);
    let their_pawn_attacks = pawn_attack_span(them, their_pawns);
    let our_king = pos.king_square(us);
    let their_king = pos.king_square(them);
    let mut score = S(0, 0);

    // Material and placement.
    for kind in PieceType::ALL {
        for sq in pos.pieces(us, kind) {
            score += PST[kind.index()][relative(us, sq).index()];
        }
    }

    // Mobility and king attack. Mobility counts squares not held by own pieces or enemy
    // pawns; king attacks count pieces hitting the zone around the enemy king.
    let king_zone = attacks::king(their_king) | their_king.bb();
    let king_zone = king_zone | king_zone.forward(them);
    let mobility_area = !(ours | their_pawn_attacks);
    let mut attack_units = 0;
    let mut attackers = 0;
    for (i, kind) in
        [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen].into_iter().enumerate()
    {
        for sq in pos.pieces(us, kind) {
            let reach = match kind {
                PieceType::Knight => attacks::knight(sq),
                PieceType::Bishop => attacks::bishop(sq, occupied),
                PieceType::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            let count = (reach & mobility_area).count() as i32;
            score += MOBILITY[i] * (count - MOBILITY_BASE[i]);
            if (reach & king_zone).any() {
                attackers += 1;
                attack_units += KING_ATTACK_UNITS[i] * (reach & king_zone).count() as i32;
            }
        }
    }
    if attackers >= 2 {
        score += S((attack_units * attack_units * KING_ATTACK_SCALE).min(KING_ATTACK_MAX), 0);
    }

    // Bishop pair, rooks on open files.
    if pos.pieces(us, PieceType::Bishop).more_than_one() {
        score += BISHOP_PAIR;
    }
    for sq in pos.pieces(us, PieceType::Rook) {
        let file = Bitboard(Bitboard::FILE_A.0 << sq.file());
        if (file & our_pawns).is_empty() {
            score += if (file & their_pawns).is_empty() { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE };
        }
    }

    // Pawn structure.
    let our_pawn_attacks = pawn_attack_span(us, our_pawns);
    for sq in our_pawns {
        let rank = relative(us, sq).rank() as usize;
        let adjacent = adjacent_files(sq);
        let front = front_span(us, sq);
        if (adjacent & our_pawns).is_empty() {
            score += ISOLATED_PAWN;
        }
        if (front & our_pawns).any() {
            score += DOUBLED_PAWN;
        }
        let stop = sq.offset(if us == Color::White { 8 } else { -8 });
        let passer_span = front | Bitboard(adjacent.0 & front_span_rows(us, sq));
        if (passer_span & their_pawns).is_empty() && (front & our_pawns).is_empty() {
            score += PASSED_PAWN[rank];
            if occupied.contains(stop) {
                score += PASSED_BLOCKED[rank];
            }
            let edge = (distance(stop, their_king) - distance(stop, our_king)) * PASSED_KING_DISTANCE;
            score += S(0, edge * rank as i32);
        } else if (adjacent & our_pawns & Bitboard(front_span_rows_incl(us, sq))).is_empty()
            && their_pawn_attacks.contains(stop)
            && !our_pawn_attacks.contains(stop)
        {
            // No own pawn beside or behind could ever defend it, and it cannot advance safely.
            score += BACKWARD_PAWN;
        }
    }

    // King shelter (middlegame): own pawns in front of a king on its first two ranks.
    if relative(us, our_king).rank() <= 1 {
        let mut shelter = 0;
        let file = our_king.file() as i32;
        for f in (file - 1).max(0)..=(file + 1).min(7) {
            let file_bb = Bitboard(Bitboard::FILE_A.0 << f);
            let pawns = file_bb & our_pawns;
            if pawns.is_empty() {
                shelter += KING_OPEN_FILE;
                continue;
            }
            for sq in pawns {
                let ahead = relative(us, sq).rank() as i32 - relative(us, our_king).rank() as i32;
                if ahead == 1 || ahead == 2 {
                    shelter += KING_SHIELD[ahead as usize - 1];
                }
            }
        }
        score += S(shelter, 0);
    }
    score
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
fn endgame_scale(pos: &Position, strong: Color) -> i32 {
    let pawns = pos.pieces(strong, PieceType::Pawn).count();
    let material = |c: Color| {
        [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen]
            .iter()
            .map(|&k| pos.pieces(c, k).count() as i32 * PIECE_VALUE[k.index()].1)
            .sum::<i32>()
    };
    let edge = material(strong) - material(!strong);
    if pawns == 0 && edge <= PIECE_VALUE[PieceType::Bishop.index()].1 {
        // A minor piece up (or less) without pawns rarely wins.
        return if material(strong) <= PIECE_VALUE[PieceType::Bishop.index()].1 { 0 } else { 12 };
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

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let mut score = evaluate_side(pos, Color::White) - evaluate_side(pos, Color::Black);
    score += if us == Color::White { TEMPO } else { -TEMPO };
    let phase = phase(pos);
    let strong = if score.1 >= 0 { Color::White } else { Color::Black };
    let eg = score.1 * endgame_scale(pos, strong) / 64;
    let blended = (score.0 * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if us == Color::White { blended } else { -blended }
}
