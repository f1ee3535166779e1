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

#[cfg(test)]
mod tests {
    use crate::board::Position;
    use crate::movegen::parse_uci_move;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        pos.see_ge(parse_uci_move(&pos, mv).unwrap(), threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight: +300.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 300));
        assert!(!see(fen, "e4d5", 301));
        // Rook takes a pawn defended by a pawn: 100 - 500.
        let fen = "4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(see(fen, "d2d5", -400));
        assert!(!see(fen, "d2d5", -399));
        // Queen takes a knight defended by a pawn, with rook x-ray behind: 300 - 900 + 100.
        let fen = "4k3/8/4p3/3n4/8/8/3Q4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", -500));
        assert!(!see(fen, "d2d5", -499));
        // A quiet move to a safe square is worth exactly 0.
        let fen = "4k3/2p5/8/8/8/8/8/1N2K3 w - - 0 1";
        assert!(!see(fen, "b1a3", 1));
        assert!(see(fen, "b1a3", 0));
        // Knight to d5 attacked by the c6 pawn.
        let fen = "4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1";
        assert!(!see(fen, "e3d5", 0));
        assert!(see(fen, "e3d5", -300));
    }

    #[test]
    fn x_rays_and_king_recaptures() {
        // Rxd5 with rook behind vs one defender: RxP, RxR, RxR = +100.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
        // The king recaptures an undefended rook: 100 - 500.
        let fen = "8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", -400));
        assert!(!see(fen, "d1d5", -399));
        // ... but not one defended by a second rook: +100.
        let fen = "8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
    }
}
