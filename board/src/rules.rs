//! Draw rules: FIDE's, or the Kaggle harness's (kaggle-environments 1.16.11, which differ).
//!
//! The harness ends a game after every legal move, checking in this order: a draw if the
//! halfmove clock is now exactly 100, if both sides have "insufficient material" by its own
//! rule, if the position has now been seen three times, or on stalemate; otherwise a win if
//! the move mates. So a mate that makes the clock 100, or leaves both sides "insufficient",
//! is a draw. Its repetition key is the first four FEN fields as Chessnut writes them, with
//! the en-passant square written after *every* double push, and the opening position is
//! never counted. See `docs`: ../shared/docs/COMPETITION.md, measured on the harness.

use crate::board::Position;
use crate::movegen::legal_move_list;
use crate::types::{Bitboard, Color, PieceType};

/// Which draw rules the search applies (UCI option `Kaggle Rules`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Rules {
    /// FIDE: fifty moves unless mated, dead material, threefold repetition.
    #[default]
    Fide,
    /// The Kaggle harness: see the module documentation.
    Kaggle,
}

/// Mixed into the repetition key of a position reached by a double pawn push under Kaggle
/// rules, where the en-passant field makes it differ from the same placement without it.
const KAGGLE_EN_PASSANT_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

impl Rules {
    /// The key under which these rules count repetitions of `pos`, or 0 for a position that
    /// is never counted. `game_start` marks the first position of the game as given to the
    /// engine: the harness never counts its opening, and every opening has white to move,
    /// so under Kaggle rules a start position with white to move is not counted while one
    /// with black to move (the position the adapter first sees when it plays black, already
    /// reached by white's move) is counted once. Not inlined: three callers in the search
    /// each held a copy (−84 B).
    #[inline(never)]
    pub fn repetition_key(self, pos: &Position, game_start: bool) -> u64 {
        match self {
            Rules::Fide => pos.key(),
            Rules::Kaggle if game_start && pos.side_to_move() == Color::White => 0,
            Rules::Kaggle if pos.en_passant().is_some() => pos.key() ^ KAGGLE_EN_PASSANT_SALT,
            Rules::Kaggle => pos.key(),
        }
    }

    /// True if the game is drawn in `pos` by the fifty-move rule or by material (not
    /// repetition, which needs the game's history). `in_check` is `pos.in_check()`.
    /// Not inlined: the search calls it from negamax and quiescence, and one copy is
    /// smaller than two (−144 B), at a call per node.
    #[inline(never)]
    pub fn is_draw(self, pos: &Position, in_check: bool) -> bool {
        match self {
            Rules::Fide => {
                pos.is_insufficient_material()
                    || (pos.halfmove_clock() >= 100 && !(in_check && legal_move_list(pos).is_empty()))
            }
            Rules::Kaggle => pos.halfmove_clock() == 100 || kaggle_insufficient(pos),
        }
    }
}

/// The harness's material draw: both sides "insufficient", where a side is insufficient
/// if it has no queen, rook or pawn, fewer than three minor pieces, and not two minor pieces
/// of which one is a bishop. So K+N v K+N, K+B v K+B, K+N+N v K end the game at once, while
/// K+B+B v K (even with same-coloured bishops) and K+B+N v K play on.
pub fn kaggle_insufficient(pos: &Position) -> bool {
    // A queen, rook or pawn of either side: not insufficient (nearly every node; one test).
    let heavy = pos.pieces_of_type(PieceType::Queen)
        | pos.pieces_of_type(PieceType::Rook)
        | pos.pieces_of_type(PieceType::Pawn);
    if heavy.any() {
        return false;
    }
    // Bit tests instead of popcounts (which the baseline x86-64 target has no instruction
    // for): at most one minor piece, or exactly two and both knights.
    let side_insufficient = |color: Color| {
        let knights = pos.pieces(color, PieceType::Knight);
        let minors = knights | pos.pieces(color, PieceType::Bishop);
        let rest = Bitboard(minors.0 & minors.0.wrapping_sub(1));
        rest.is_empty() || (minors == knights && !rest.more_than_one())
    };
    side_insufficient(Color::White) && side_insufficient(Color::Black)
}
