//! Legal move generation.
//!
//! Moves are generated legal, not pseudo-legal: in check only evasions are produced
//! (king moves, captures of the checker, blocks), pinned pieces move only along their pin
//! line, king moves are tested with the king lifted off the board, and en passant (the one
//! move that removes two pieces from a line) gets a full test. Noisy moves (captures and
//! promotions, what quiescence search wants) and quiet moves can be generated separately;
//! together they are exactly the legal moves.

use crate::attacks;
use crate::board::Position;
use crate::types::{Bitboard, CastlingRights, Color, Move, MoveFlag, PieceType, Square};
use arrayvec::ArrayVec;

/// Capacity of a move list. No legal chess position has more than 218 moves.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Captures, en passant and all promotions.
pub fn noisy_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list, true, false, Bitboard::ALL, Bitboard::ALL);
}

/// Every legal move that is neither a capture nor a promotion (castling included).
pub fn quiet_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list, false, true, Bitboard::ALL, Bitboard::ALL);
}

/// All legal moves.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list, true, true, Bitboard::ALL, Bitboard::ALL);
}

/// Whether `m` (from anywhere: a table entry, a killer) is a legal move here: the moves of
/// its piece to its square are generated and searched, so the picker can yield a TT move or
/// killer without generating the whole list a cutoff would waste.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    let mut list = MoveList::new();
    generate(pos, &mut list, m.is_noisy(), !m.is_noisy(), m.from().bb(), m.to().bb());
    list.contains(&m)
}

/// All legal moves, as a new list.
pub fn legal_move_list(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list
}

const PROMOTIONS: [MoveFlag; 4] =
    [MoveFlag::PromoQueen, MoveFlag::PromoKnight, MoveFlag::PromoRook, MoveFlag::PromoBishop];
const CAPTURE_PROMOTIONS: [MoveFlag; 4] = [
    MoveFlag::CapturePromoQueen,
    MoveFlag::CapturePromoKnight,
    MoveFlag::CapturePromoRook,
    MoveFlag::CapturePromoBishop,
];

/// Appends a move. A list holds 256 moves and no position has more than 218 legal ones,
/// so this never drops a move (`try_push` rather than `push`, whose panic message would pull
/// formatting code into the shipped binary).
#[inline(always)]
fn add(list: &mut MoveList, m: Move) {
    debug_assert!(!list.is_full());
    let _ = list.try_push(m);
}

#[inline(always)]
fn push_all(list: &mut MoveList, from: Square, targets: Bitboard, flag: MoveFlag) {
    for to in targets {
        add(list, Move::new(from, to, flag));
    }
}

/// Pawn moves, all shifted by the same `delta` (from = to - delta).
#[inline(always)]
fn push_pawn_moves(list: &mut MoveList, pos: &Position, targets: Bitboard, delta: i8, flags: &[MoveFlag]) {
    let king = pos.king_square(pos.side_to_move());
    for to in targets {
        let from = to.offset(-delta);
        if pos.pinned().contains(from) && !attacks::line(king, from).contains(to) {
            continue;
        }
        for &flag in flags {
            add(list, Move::new(from, to, flag));
        }
    }
}

/// The generator behind the entry points: one copy, not one per kind (which cost 1.5 KB
/// compressed for no measurable speed). Only moves from a square of `from` to one of `to`.
#[inline(never)]
fn generate(pos: &Position, list: &mut MoveList, noisy: bool, quiet: bool, from: Bitboard, to: Bitboard) {
    let us = pos.side_to_move();
    let them = !us;
    let ours = pos.pieces_of_color(us);
    let theirs = pos.pieces_of_color(them);
    let occupied = ours | theirs;
    let king = pos.king_square(us);

    // King moves first: legal even in double check. A square is safe if no enemy piece
    // attacks it with our king removed (so a slider's ray through the king counts).
    let without_king = occupied ^ king.bb();
    // The squares wanted: captures, quiet moves or both (one loop, one inlined attack test).
    let mut wanted = Bitboard::EMPTY;
    if noisy {
        wanted |= theirs;
    }
    if quiet {
        wanted |= !occupied;
    }
    wanted &= to;
    let king_moves = if from.contains(king) { attacks::king(king) & wanted } else { Bitboard::EMPTY };
    for to in king_moves {
        if !pos.is_attacked(to, them, without_king) {
            let flag = if theirs.contains(to) { MoveFlag::Capture } else { MoveFlag::Quiet };
            add(list, Move::new(king, to, flag));
        }
    }

    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return;
    }
    // In check, other pieces must capture the checker or step between it and the king.
    let check_mask =
        to & if checkers.any() { attacks::between(king, checkers.lsb()) | checkers } else { Bitboard::ALL };
    let captures = theirs & check_mask;
    let quiets = !occupied & check_mask;
    let targets = wanted & check_mask;

    if quiet && checkers.is_empty() && from.contains(king) {
        generate_castling(pos, list, us, occupied);
    }

    // Pawns, set-wise. Pushes and captures that land on the last rank are promotions,
    // which count as noisy whether or not they capture.
    let pawns = pos.pieces(us, PieceType::Pawn) & from;
    let (last_rank, third_rank, up, up_left, up_right) = match us {
        Color::White => (Bitboard::RANK_8, Bitboard::RANK_3, 8, 7, 9),
        Color::Black => (Bitboard::RANK_1, Bitboard::RANK_6, -8, -9, -7),
    };
    let single = pawns.forward(us) & !occupied;
    let double = (single & third_rank).forward(us) & quiets;
    let single = single & check_mask;
    // One rank forward, then one file towards a (left) or h (right).
    let left = Bitboard((pawns & !Bitboard::FILE_A).forward(us).0 >> 1) & captures;
    let right = Bitboard((pawns & !Bitboard::FILE_H).forward(us).0 << 1) & captures;
    if quiet {
        push_pawn_moves(list, pos, single & !last_rank, up, &[MoveFlag::Quiet]);
        push_pawn_moves(list, pos, double, 2 * up, &[MoveFlag::DoublePush]);
    }
    if noisy {
        push_pawn_moves(list, pos, single & last_rank, up, &PROMOTIONS);
        push_pawn_moves(list, pos, left & !last_rank, up_left, &[MoveFlag::Capture]);
        push_pawn_moves(list, pos, right & !last_rank, up_right, &[MoveFlag::Capture]);
        push_pawn_moves(list, pos, left & last_rank, up_left, &CAPTURE_PROMOTIONS);
        push_pawn_moves(list, pos, right & last_rank, up_right, &CAPTURE_PROMOTIONS);
        if let Some(ep) = pos.en_passant() {
            generate_en_passant(pos, list, ep, pawns, king, occupied);
        }
    }

    // Pieces. A pinned knight can never move; a pinned slider stays on its pin line.
    let pinned = pos.pinned();
    for from in pos.pieces(us, PieceType::Knight) & !pinned & from {
        let t = attacks::knight(from) & targets;
        push_all(list, from, t & theirs, MoveFlag::Capture);
        push_all(list, from, t & !theirs, MoveFlag::Quiet);
    }
    for from in pos.diagonal_sliders(us) & from {
        let mut t = attacks::bishop_inline(from, occupied) & targets;
        if pinned.contains(from) {
            t &= attacks::line(king, from);
        }
        push_all(list, from, t & theirs, MoveFlag::Capture);
        push_all(list, from, t & !theirs, MoveFlag::Quiet);
    }
    for from in pos.straight_sliders(us) & from {
        let mut t = attacks::rook_inline(from, occupied) & targets;
        if pinned.contains(from) {
            t &= attacks::line(king, from);
        }
        push_all(list, from, t & theirs, MoveFlag::Capture);
        push_all(list, from, t & !theirs, MoveFlag::Quiet);
    }
}

/// En passant: tested by playing it on the occupancy, since it can expose the king along
/// a rank (both pawns leave it) or fail to resolve a check.
#[inline(never)]
fn generate_en_passant(
    pos: &Position,
    list: &mut MoveList,
    ep: Square,
    pawns: Bitboard,
    king: Square,
    occupied: Bitboard,
) {
    let us = pos.side_to_move();
    let victim = Square::new(ep.index() as u8 ^ 8);
    for from in attacks::pawn(!us, ep) & pawns {
        let after = occupied ^ from.bb() ^ victim.bb() ^ ep.bb();
        let attackers = pos.attackers_to(king, after) & pos.pieces_of_color(!us) & !victim.bb();
        if attackers.is_empty() {
            add(list, Move::new(from, ep, MoveFlag::EnPassant));
        }
    }
}

/// Castling: the right is held, the squares between king and rook are empty, and the king
/// is not in check (the caller knows) and does not pass through or land on an attacked
/// square.
fn generate_castling(pos: &Position, list: &mut MoveList, us: Color, occupied: Bitboard) {
    let (king_side, queen_side, e, f, g, d, c, b) = match us {
        Color::White => (
            CastlingRights::WHITE_KING,
            CastlingRights::WHITE_QUEEN,
            Square::E1,
            Square::F1,
            Square::G1,
            Square::D1,
            Square::C1,
            Square::new(1),
        ),
        Color::Black => (
            CastlingRights::BLACK_KING,
            CastlingRights::BLACK_QUEEN,
            Square::E8,
            Square::F8,
            Square::G8,
            Square::D8,
            Square::C8,
            Square::new(57),
        ),
    };
    let rights = pos.castling();
    let them = !us;
    if rights.contains(king_side)
        && (occupied & (f.bb() | g.bb())).is_empty()
        && !pos.is_attacked(f, them, occupied)
        && !pos.is_attacked(g, them, occupied)
    {
        add(list, Move::new(e, g, MoveFlag::KingCastle));
    }
    if rights.contains(queen_side)
        && (occupied & (b.bb() | c.bb() | d.bb())).is_empty()
        && !pos.is_attacked(d, them, occupied)
        && !pos.is_attacked(c, them, occupied)
    {
        add(list, Move::new(e, c, MoveFlag::QueenCastle));
    }
}

/// Why a UCI move string was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `[a-h][1-8][a-h][1-8][qrbn]?`.
    Syntax,
    /// A pawn reaching the last rank without the promotion letter.
    MissingPromotion,
    /// Well formed, but not a legal move here.
    Illegal,
}

impl MoveError {
    /// A short explanation.
    pub const fn reason(self) -> &'static str {
        match self {
            MoveError::Syntax => "not a UCI move",
            MoveError::MissingPromotion => "no promotion letter",
            MoveError::Illegal => "illegal move",
        }
    }
}

impl core::fmt::Display for MoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

/// Parses a UCI move and checks it against the legal moves of `pos`.
#[inline(never)]
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let bytes = text.as_bytes();
    let (squares, promo) = match bytes.len() {
        4 => (bytes, None),
        5 => (&bytes[..4], Some(bytes[4])),
        _ => return Err(MoveError::Syntax),
    };
    let (Some(from), Some(to)) = (Square::parse(&squares[..2]), Square::parse(&squares[2..])) else {
        return Err(MoveError::Syntax);
    };
    let promo = match promo {
        None => None,
        Some(c @ (b'q' | b'r' | b'b' | b'n')) => Some(c),
        Some(_) => return Err(MoveError::Syntax),
    };
    let moves = legal_move_list(pos);
    let mut needs_letter = false;
    for &m in &moves {
        if m.from() != from || m.to() != to {
            continue;
        }
        match (m.promotion(), promo) {
            (None, None) => return Ok(m),
            (Some(p), Some(c)) if p.letter() == c => return Ok(m),
            (Some(_), None) => needs_letter = true,
            _ => {}
        }
    }
    Err(if needs_letter { MoveError::MissingPromotion } else { MoveError::Illegal })
}
