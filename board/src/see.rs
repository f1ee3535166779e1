//! Static exchange evaluation: does a move win at least `threshold` centipawns once every
//! capture on its destination square has been played out, each side always recapturing
//! with its least valuable piece (x-rays through moved sliders included, pins ignored)?

use crate::attacks;
use crate::board::Position;
use crate::types::{Color, Move, MoveFlag, PieceType};

/// Piece values used by exchange evaluation (pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

impl Position {
    /// True if `m` gains at least `threshold` in the exchange it starts.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if matches!(m.flag(), MoveFlag::KingCastle | MoveFlag::QueenCastle) {
            return threshold <= 0;
        }
        let from = m.from();
        let to = m.to();
        let captured = match m.flag() {
            MoveFlag::EnPassant => SEE_VALUE[0],
            _ => self.piece_on(to).map_or(0, |p| SEE_VALUE[p.kind().index()]),
        };
        // What we gain if the exchange stopped now, minus what we need.
        let mut swap = captured - threshold;
        if swap < 0 {
            return false;
        }
        let mover = self.piece_on(from).map_or(0, |p| SEE_VALUE[p.kind().index()]);
        // What we still have if the opponent takes our piece back and the exchange stops.
        swap = mover - swap;
        if swap <= 0 {
            return true;
        }

        let mut occupied = self.occupied() ^ from.bb() ^ to.bb();
        if m.flag() == MoveFlag::EnPassant {
            occupied ^= crate::types::Square::new(to.index() as u8 ^ 8).bb();
        }
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let diagonal = self.pieces_of_type(PieceType::Bishop) | self.pieces_of_type(PieceType::Queen);
        let straight = self.pieces_of_type(PieceType::Rook) | self.pieces_of_type(PieceType::Queen);
        let mut side: Color = self.side_to_move();
        // 1 while the side that made the last capture is winning the exchange.
        let mut result = true;
        loop {
            side = !side;
            attackers &= occupied;
            let ours = attackers & self.pieces_of_color(side);
            if ours.is_empty() {
                break;
            }
            result = !result;
            // Least valuable attacker.
            let Some(kind) = PieceType::ALL.into_iter().find(|&k| (ours & self.pieces_of_type(k)).any())
            else {
                break;
            };
            if kind == PieceType::King {
                // The king may only take last: if the other side still attacks, it cannot.
                return if (attackers & self.pieces_of_color(!side)).any() { !result } else { result };
            }
            swap = SEE_VALUE[kind.index()] - swap;
            if swap < result as i32 {
                break;
            }
            let piece = (ours & self.pieces_of_type(kind)).lsb();
            occupied ^= piece.bb();
            // Sliders behind the piece that just took join in.
            if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
                attackers |= attacks::bishop(to, occupied) & diagonal;
            }
            if matches!(kind, PieceType::Rook | PieceType::Queen) {
                attackers |= attacks::rook(to, occupied) & straight;
            }
        }
        result
    }
}
