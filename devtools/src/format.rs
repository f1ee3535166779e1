//! The training-data format: one 32-byte record per position, little-endian, no header.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | occupancy bitboard (bit `i` = square `i`, a1 = 0, h8 = 63) |
//! | 8..24 | the pieces on the occupied squares in ascending square order, 4 bits each, low nibble first: 0..5 white pawn..king, 6..11 black pawn..king; unused nibbles 0 |
//! | 24..26 | search score, centipawns, from the side to move's view (i16) |
//! | 26 | game result from the side to move's view: 0 loss, 1 draw, 2 win |
//! | 27 | side to move: 0 white, 1 black |
//! | 28..30 | ply of the game at which the position occurred (u16) |
//! | 30..32 | reserved, 0 |
//!
//! A file is a plain concatenation of records, games in order; `datagen dump` prints one
//! as text (FEN, score, result).

use minnow::{Bitboard, Color, Piece, Position};

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// One position with its labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Occupied squares.
    pub occupancy: u64,
    /// Piece indices (0..12) of the occupied squares in ascending square order.
    pub pieces: [u8; 32],
    /// Score in centipawns from the side to move's view.
    pub score: i16,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    /// The side to move.
    pub stm: Color,
    /// Ply of the game.
    pub ply: u16,
}

impl Record {
    /// The record of `pos` (scores and result from its side to move's view).
    pub fn new(pos: &Position, score: i16, result: u8, ply: u16) -> Record {
        let occupied = pos.occupied();
        let mut pieces = [0u8; 32];
        for (i, sq) in occupied.enumerate() {
            pieces[i] = pos.piece_on(sq).map_or(0, |p| p.index() as u8);
        }
        Record { occupancy: occupied.0, pieces, score, result, stm: pos.side_to_move(), ply }
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        for (i, &p) in self.pieces.iter().enumerate().take(self.occupancy.count_ones() as usize) {
            b[8 + i / 2] |= (p & 15) << (4 * (i % 2));
        }
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = self.result;
        b[27] = self.stm as u8;
        b[28..30].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// Reads a record, or says why the bytes are not one.
    pub fn from_bytes(b: &[u8]) -> Result<Record, &'static str> {
        if b.len() != RECORD_BYTES {
            return Err("a record is 32 bytes");
        }
        let occupancy = u64::from_le_bytes(b[0..8].try_into().unwrap());
        let count = occupancy.count_ones() as usize;
        if count > 32 {
            return Err("more than 32 pieces");
        }
        let mut pieces = [0u8; 32];
        for (i, p) in pieces.iter_mut().enumerate().take(count) {
            *p = (b[8 + i / 2] >> (4 * (i % 2))) & 15;
            if *p > 11 {
                return Err("a piece code above 11");
            }
        }
        if b[26] > 2 || b[27] > 1 {
            return Err("a result above 2 or a side above 1");
        }
        Ok(Record {
            occupancy,
            pieces,
            score: i16::from_le_bytes([b[24], b[25]]),
            result: b[26],
            stm: if b[27] == 0 { Color::White } else { Color::Black },
            ply: u16::from_le_bytes([b[28], b[29]]),
        })
    }

    /// The position (no castling rights or en-passant square: the record has none).
    pub fn position(&self) -> Position {
        let mut pos = Position::empty();
        for (piece, sq) in self.pieces() {
            pos.put(piece, minnow::Square::new(sq as u8));
        }
        pos.set_side_to_move(self.stm);
        pos.finish_setup();
        pos
    }

    /// (piece, square index) of every piece on the board.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, usize)> + '_ {
        Bitboard(self.occupancy)
            .enumerate()
            .map(move |(i, sq)| (Piece::ALL[self.pieces[i] as usize], sq.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minnow::fen::Fen;

    #[test]
    fn records_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/8/8/8/8/8/8/K6k w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let r = Record::new(&pos, -123, 2, 77);
            let back = Record::from_bytes(&r.to_bytes()).unwrap();
            assert_eq!(back, r);
            let mut placed = 0;
            for (piece, sq) in back.pieces() {
                assert_eq!(pos.piece_on(minnow::Square::new(sq as u8)), Some(piece));
                placed += 1;
            }
            assert_eq!(placed, pos.occupied().count());
        }
        assert!(Record::from_bytes(&[0xFF; 32]).is_err());
        assert!(Record::from_bytes(&[0; 31]).is_err());
    }
}
