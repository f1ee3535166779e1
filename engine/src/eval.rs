//! Hand-crafted, tapered evaluation.
//!
//! Each term is an [`S`] pair (middlegame, endgame) computed for white minus black, then
//! blended by the game phase and returned from the side to move's point of view. Weights
//! live in [`crate::eval_weights`] and are gathered into one flat table, [`WEIGHTS`]; the
//! evaluation names each weight it uses by its index and reports it to a [`Terms`]. The
//! engine's `Terms` adds the weights up; the tuner's (`devtools/src/bin/tune.rs`) records which
//! weights a position uses, so the tuner fits exactly the evaluation the engine runs. The evaluation is colour-symmetric by construction (every
//! term is computed through [`Color`]-relative helpers) and a test checks that over large
//! position sets.

use crate::attacks;
use crate::board::Position;
use crate::eval_weights::*;
pub use crate::score::S;
use crate::types::{Bitboard, Color, PieceType, Square};

/// Declares the weight tables once, in [`WEIGHTS`] order, and derives from that one list
/// the index of each table ([`index`]), the tuner's [`LAYOUT`] and the flat table itself.
/// Each entry names a constant of [`crate::eval_weights`] and its shape: `table` (an array),
/// `one` (a single pair) or `pst` (six tables, one per piece type). Lengths come from the
/// constants themselves.
macro_rules! weights {
    ($($name:ident: $shape:ident,)*) => {
        /// Where each tunable weight sits in the flat table [`WEIGHTS`]: the evaluation names
        /// a weight by its index, so that the same code can either add weights up (the
        /// engine) or record which weights it used how often (the tuner,
        /// `devtools/src/bin/tune.rs`). Entries within a table follow the table in `eval_weights.rs`;
        /// piece-square entries are at + 32 * piece type + 4 * rank + file (files e-h
        /// mirrored onto d-a).
        pub mod index {
            weights!(@offsets 0; $($name: $shape,)*);
        }

        /// Name, first index and length of every weight table, in [`WEIGHTS`] order (for
        /// the tuner, which prints tuned values back in the form of `eval_weights.rs`).
        pub const LAYOUT: [(&str, usize, usize); [$(stringify!($name)),*].len()] =
            [$((stringify!($name), index::$name, weights!(@len $shape $name))),*];

        const fn build_weights() -> [S; index::COUNT] {
            let mut w = [S(0, 0); index::COUNT];
            $(w = weights!(@put $shape $name w);)*
            w
        }
    };
    (@offsets $at:expr;) => {
        /// Number of weights.
        pub const COUNT: usize = $at;
    };
    (@offsets $at:expr; $name:ident: $shape:ident, $($rest:tt)*) => {
        #[doc = concat!("First index of `eval_weights::", stringify!($name), "`.")]
        pub const $name: usize = $at;
        weights!(@offsets $name + weights!(@len $shape $name); $($rest)*);
    };
    (@len table $name:ident) => { crate::eval_weights::$name.len() };
    (@len one $name:ident) => { 1 };
    (@len pst $name:ident) => { 6 * crate::eval_weights::$name[0].len() };
    (@put table $name:ident $w:ident) => { put($w, index::$name, &crate::eval_weights::$name) };
    (@put one $name:ident $w:ident) => { put($w, index::$name, &[crate::eval_weights::$name]) };
    (@put pst $name:ident $w:ident) => {{
        let mut w = $w;
        let mut kind = 0;
        while kind < 6 {
            w = put(w, index::$name + kind * crate::eval_weights::$name[0].len(), &crate::eval_weights::$name[kind]);
            kind += 1;
        }
        w
    }};
}

weights! {
    PIECE_VALUE: table,
    PST: pst,
    KNIGHT_MOBILITY: table,
    BISHOP_MOBILITY: table,
    ROOK_MOBILITY: table,
    QUEEN_MOBILITY: table,
    BISHOP_PAIR: one,
    ROOK_OPEN_FILE: one,
    ROOK_SEMI_OPEN_FILE: one,
    PASSED_PAWN: table,
    PASSED_BLOCKED: table,
    PASSED_OWN_KING: one,
    PASSED_ENEMY_KING: one,
    PAWN_SUPPORTED: table,
    PAWN_PHALANX: table,
    ISOLATED_PAWN: one,
    DOUBLED_PAWN: one,
    BACKWARD_PAWN: one,
    PAWN_THREAT: one,
    MINOR_THREAT: one,
    ROOK_THREAT: one,
    KING_ATTACK: table,
    KING_SHIELD: table,
    KING_OPEN_FILE: one,
    TEMPO: one,
}

/// Copies `src` into `dst` from `at` (a `const fn` helper for [`WEIGHTS`]).
const fn put<const N: usize>(mut dst: [S; index::COUNT], at: usize, src: &[S; N]) -> [S; index::COUNT] {
    let mut i = 0;
    while i < N {
        dst[at + i] = src[i];
        i += 1;
    }
    dst
}

/// Every weight of the evaluation in one flat table, built at compile time from
/// [`crate::eval_weights`].
pub static WEIGHTS: [S; index::COUNT] = build_weights();

/// Receives the terms of one side's evaluation: weight `index` counted `n` times.
pub trait Terms {
    /// Adds weight `index` (see [`index`]) `n` times.
    fn add(&mut self, index: usize, n: i32);
}

/// The engine's [`Terms`]: the sum of the weights.
#[derive(Default)]
struct Sum(S);

/// A [`Terms`] that counts how often each weight is used (for the tuner and the tests).
pub struct Counts(pub [i32; index::COUNT]);

impl Default for Counts {
    fn default() -> Self {
        Counts([0; index::COUNT])
    }
}

impl Terms for Counts {
    fn add(&mut self, index: usize, n: i32) {
        self.0[index] += n;
    }
}

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
    let file = Bitboard::file(sq.file()).0;
    let above = if color == Color::White { !0u64 << sq.index() << 1 } else { (1u64 << sq.index()) - 1 };
    Bitboard(file & above)
}

#[inline(always)]
fn adjacent_files(sq: Square) -> Bitboard {
    let file = Bitboard::file(sq.file()).0;
    Bitboard(((file << 1) & !Bitboard::FILE_A.0) | ((file >> 1) & !Bitboard::FILE_H.0))
}

/// Squares attacked by all pawns of `color`.
#[inline(always)]
pub(crate) fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
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
        let file = Bitboard::file(sq.file());
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
            let pawns = Bitboard::file(f as u8) & our_pawns;
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

/// Reports the terms of both sides, and the tempo bonus to the side to move.
pub fn evaluate_terms<T: Terms>(pos: &Position, white: &mut T, black: &mut T) {
    evaluate_side(pos, Color::White, white);
    evaluate_side(pos, Color::Black, black);
    let mover = if pos.side_to_move() == Color::White { white } else { black };
    mover.add(index::TEMPO, 1);
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let (mut white, mut black) = (Sum::default(), Sum::default());
    evaluate_terms(pos, &mut white, &mut black);
    let blended = blend(pos, white.0 - black.0);
    if us == Color::White { blended } else { -blended }
}
