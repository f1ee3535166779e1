//! Stockfish's training records, `.bin` (the `data_format bin` of the `generate_training_data`
//! command of its `tools` branch, and of the public data sets in that format): 40 bytes a
//! position, read here into a position, its best move and its labels, so that `datagen
//! import` turns them into minnow's records (`crate::format`).
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..32 | the position, a bit stream (below) |
//! | 32..34 | score from the side to move's view, in Stockfish's internal units (i16) |
//! | 34..36 | the search's best move (u16, below) |
//! | 36..38 | ply of the game (u16) |
//! | 38 | game result from the side to move's view: 1 win, 0 draw, −1 loss (i8) |
//! | 39 | padding |
//!
//! The position's bits are read from the low bit of byte 0 upwards: the side to move (1 bit,
//! 1 = black); the white king's square, then the black king's (6 bits each, a1 = 0, h8 =
//! 63, the low bit first); then every square except the kings' from a8 to h8, a7 to h7, …,
//! a1 to h1, as a prefix code read bit by bit, the first bit lowest: `0` empty, then for a
//! piece four bits `1` + type (`0001` pawn, `0011` knight, `0101` bishop, `0111` rook, `1001`
//! queen, written low bit first) and one bit of colour (1 = black); then castling rights
//! (4 bits: white king side, white queen side, black king side, black queen side); then
//! the en-passant square (1 bit, and 6 bits of square when it is 1); the halfmove clock
//! (6 bits), the fullmove number (8 bits, then its high 8 bits), and the halfmove clock's
//! seventh bit.
//!
//! The move: bits 0..6 the destination, 6..12 the origin, 12..14 the promotion piece
//! (knight, bishop, rook, queen), 14..16 the kind (0 normal, 1 promotion, 2 en passant,
//! 3 castling, written as the king taking its own rook).
//!
//! The score is Stockfish's `Value`, not the centipawns its UCI output prints: `train
//! --score-mult` brings it to minnow's scale.

use crate::format::Record;
use minnow::fen::Fen;
use minnow::{CastlingRights, Color, Piece, PieceType, Position, Square};

/// Bytes per record.
pub const SF_RECORD_BYTES: usize = 40;

/// One decoded Stockfish record.
#[derive(Clone, Copy, Debug)]
pub struct SfRecord {
    /// The position, with castling rights, en-passant square and clocks.
    pub pos: Position,
    /// Score from the side to move's view (Stockfish's internal units).
    pub score: i16,
    /// The search's best move as stored (see the module's doc).
    pub best: u16,
    /// The best move is a capture (en passant included) or a promotion.
    pub best_is_noisy: bool,
    /// Ply of the game.
    pub ply: u16,
    /// Game result from the side to move's view: 1 win, 0 draw, −1 loss.
    pub result: i8,
}

impl SfRecord {
    /// Decodes 40 bytes, or says why they are not a record of a legal position.
    pub fn from_bytes(b: &[u8]) -> Result<SfRecord, String> {
        if b.len() != SF_RECORD_BYTES {
            return Err(format!("a record is {SF_RECORD_BYTES} bytes, not {}", b.len()));
        }
        let pos = packed_position(&b[..32])?;
        let score = i16::from_le_bytes([b[32], b[33]]);
        let raw = u16::from_le_bytes([b[34], b[35]]);
        let (to, from, kind) = ((raw & 63) as u8, ((raw >> 6) & 63) as u8, raw >> 14);
        let result = b[38] as i8;
        if !(-1..=1).contains(&result) {
            return Err(format!("game result {result}, not -1, 0 or 1"));
        }
        let ours = |sq: u8| pos.piece_on(Square::new(sq)).is_some_and(|p| p.color() == pos.side_to_move());
        if !ours(from) {
            let (from, to) = (Square::new(from), Square::new(to));
            return Err(format!("best move {from}{to}: no piece of the side to move on its origin"));
        }
        // Castling takes the player's own rook; a capture takes a piece of the other side.
        let captures = kind == 2 || (kind != 3 && pos.piece_on(Square::new(to)).is_some() && !ours(to));
        Ok(SfRecord {
            pos,
            score,
            best: raw,
            best_is_noisy: captures || kind == 1,
            ply: u16::from_le_bytes([b[36], b[37]]),
            result,
        })
    }

    /// The best move in UCI form (castling as the king's two-square move, a promotion with
    /// its letter).
    pub fn best_uci(&self) -> String {
        let (to, from, kind) = (self.best & 63, (self.best >> 6) & 63, self.best >> 14);
        let to = if kind == 3 { (from & !7) + if to > from { 6 } else { 2 } } else { to };
        let promotion = if kind == 1 { ["n", "b", "r", "q"][usize::from(self.best >> 12 & 3)] } else { "" };
        format!("{}{}{promotion}", Square::new(from as u8), Square::new(to as u8))
    }

    /// minnow's record of the position: the same score and result, castling rights,
    /// en-passant square and clocks dropped (`crate::format` keeps none).
    pub fn record(&self) -> Record {
        Record::new(&self.pos, self.score, (self.result + 1) as u8, self.ply)
    }
}

/// Bits of the 32-byte position, low bit of byte 0 first.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<u32, String> {
        let byte = self.data.get(self.at / 8).ok_or("the position runs past its 256 bits")?;
        let b = u32::from(byte >> (self.at % 8)) & 1;
        self.at += 1;
        Ok(b)
    }

    /// `n` bits, the first read lowest.
    fn bits(&mut self, n: u32) -> Result<u32, String> {
        let mut v = 0;
        for i in 0..n {
            v |= self.bit()? << i;
        }
        Ok(v)
    }
}

/// The packed position, set up square by square and then checked by the FEN reader (two
/// kings, no pawn on a back rank, castling rights with their king and rook, the side not to
/// move not in check, …), which the set-up alone does not do.
fn packed_position(data: &[u8]) -> Result<Position, String> {
    let mut bits = Bits { data, at: 0 };
    let side = if bits.bit()? == 1 { Color::Black } else { Color::White };
    let kings = [bits.bits(6)? as u8, bits.bits(6)? as u8];
    if kings[0] == kings[1] {
        return Err("both kings on one square".into());
    }
    let mut pos = Position::empty();
    pos.put(Piece::new(Color::White, PieceType::King), Square::new(kings[0]));
    pos.put(Piece::new(Color::Black, PieceType::King), Square::new(kings[1]));
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = rank * 8 + file;
            if kings.contains(&sq) || bits.bit()? == 0 {
                continue; // a king's square is not in the stream; 0 is an empty square
            }
            // A piece: three more bits of its code (the first, 1, is read), then its colour.
            let kind = match bits.bits(3)? {
                0b000 => PieceType::Pawn,
                0b001 => PieceType::Knight,
                0b010 => PieceType::Bishop,
                0b011 => PieceType::Rook,
                0b100 => PieceType::Queen,
                other => return Err(format!("piece code {:04b} on square {sq}", other << 1 | 1)),
            };
            let colour = if bits.bit()? == 1 { Color::Black } else { Color::White };
            pos.put(Piece::new(colour, kind), Square::new(sq));
        }
    }
    let mut castling = CastlingRights::empty();
    for right in [
        CastlingRights::WHITE_KING,
        CastlingRights::WHITE_QUEEN,
        CastlingRights::BLACK_KING,
        CastlingRights::BLACK_QUEEN,
    ] {
        if bits.bit()? == 1 {
            castling |= right;
        }
    }
    let en_passant = if bits.bit()? == 1 { Some(Square::new(bits.bits(6)? as u8)) } else { None };
    let halfmove_low = bits.bits(6)?;
    let fullmove = bits.bits(8)? | bits.bits(8)? << 8;
    let halfmove = halfmove_low | bits.bits(1)? << 6;
    pos.set_side_to_move(side);
    pos.set_castling(castling);
    pos.set_en_passant(en_passant);
    pos.set_clocks(halfmove as u16, fullmove.max(1) as u16);
    pos.finish_setup();
    Position::from_fen(&pos.fen()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test-side writer of the documented format, to check the reader against.
    fn pack(fen: &str, score: i16, raw_move: u16, ply: u16, result: i8) -> [u8; SF_RECORD_BYTES] {
        let pos = Position::from_fen(fen).unwrap();
        let mut out = [0u8; SF_RECORD_BYTES];
        let mut at = 0usize;
        let mut put = |v: u32, n: u32, out: &mut [u8; SF_RECORD_BYTES]| {
            for i in 0..n {
                if v >> i & 1 == 1 {
                    out[at / 8] |= 1 << (at % 8);
                }
                at += 1;
            }
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        put(u32::from(fields[1] == "b"), 1, &mut out);
        let king = |c: char| {
            let (rank, row) = fields[0].split('/').enumerate().find(|(_, row)| row.contains(c)).unwrap();
            let mut file = 0;
            for ch in row.chars() {
                if ch == c {
                    break;
                }
                file += ch.to_digit(10).unwrap_or(1);
            }
            (7 - rank as u32) * 8 + file
        };
        put(king('K'), 6, &mut out);
        put(king('k'), 6, &mut out);
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let piece = pos.piece_on(Square::new(rank * 8 + file));
                match piece.map(|p| (p.kind() as u32, p.color() as u32)) {
                    Some((5, _)) => {}
                    None => put(0, 1, &mut out),
                    Some((kind, colour)) => {
                        put([0b0001, 0b0011, 0b0101, 0b0111, 0b1001][kind as usize], 4, &mut out);
                        put(colour, 1, &mut out);
                    }
                }
            }
        }
        for c in ['K', 'Q', 'k', 'q'] {
            put(u32::from(fields[2].contains(c)), 1, &mut out);
        }
        if fields[3] == "-" {
            put(0, 1, &mut out);
        } else {
            let b = fields[3].as_bytes();
            put(1, 1, &mut out);
            put(u32::from(b[1] - b'1') * 8 + u32::from(b[0] - b'a'), 6, &mut out);
        }
        let (halfmove, fullmove): (u32, u32) = (fields[4].parse().unwrap(), fields[5].parse().unwrap());
        put(halfmove & 63, 6, &mut out);
        put(fullmove & 255, 8, &mut out);
        put(fullmove >> 8, 8, &mut out);
        put(halfmove >> 6, 1, &mut out);
        out[32..34].copy_from_slice(&score.to_le_bytes());
        out[34..36].copy_from_slice(&raw_move.to_le_bytes());
        out[36..38].copy_from_slice(&ply.to_le_bytes());
        out[38] = result as u8;
        out
    }

    fn raw(from: &str, to: &str, kind: u16) -> u16 {
        let sq = |s: &str| u16::from(s.as_bytes()[1] - b'1') * 8 + u16::from(s.as_bytes()[0] - b'a');
        kind << 14 | sq(from) << 6 | sq(to)
    }

    #[test]
    fn positions_and_labels_read_back() {
        for (fen, mv, noisy) in [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", raw("e2", "e4", 0), false),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                raw("e5", "f7", 0),
                true,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                raw("e1", "h1", 3),
                false,
            ),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", raw("e5", "f6", 2), true),
            ("8/4P1k1/8/8/8/8/8/4K3 w - - 99 140", raw("e7", "e8", 1) | 3 << 12, true),
            ("4k3/8/8/8/8/8/8/4K2R b K - 3 300", raw("e8", "d8", 0), false),
        ] {
            let rec = SfRecord::from_bytes(&pack(fen, -345, mv, 77, -1)).unwrap();
            assert_eq!(rec.pos.fen().as_str(), fen);
            assert_eq!(rec.best, mv);
            assert_eq!((rec.score, rec.ply, rec.result, rec.best_is_noisy), (-345, 77, -1, noisy), "{fen}");
            let r = rec.record();
            assert_eq!((r.score, r.result, r.ply, r.stm), (-345, 0, 77, rec.pos.side_to_move()));
            assert_eq!(r.position().occupied(), rec.pos.occupied());
        }
    }

    /// 400 records of Stockfish's own `generate_training_data` (depth 1, its `tools`
    /// branch; `tests/data/README.md`) read as its own `convert` to text reads them: the
    /// same FEN, move, score, ply and result, castling, en passant and promotions among them.
    #[test]
    fn stockfish_s_records_read_as_stockfish_reads_them() {
        let bin = include_bytes!("../../tests/data/sf_sample.bin");
        let text = include_str!("../../tests/data/sf_sample.txt");
        assert_eq!(bin.len(), 400 * SF_RECORD_BYTES);
        let mut n = 0;
        for (chunk, line) in bin.chunks_exact(SF_RECORD_BYTES).zip(text.lines()) {
            let rec = SfRecord::from_bytes(chunk).unwrap_or_else(|e| panic!("{line}: {e}"));
            let got =
                format!("{};{};{};{};{}", rec.pos.fen(), rec.best_uci(), rec.score, rec.ply, rec.result);
            assert_eq!(got, line);
            n += 1;
        }
        assert_eq!(n, 400);
        assert!(
            text.contains(" d3 0 8;e4d3;") && text.contains(";e1g1;") && text.contains("q;"),
            "the sample's variety"
        );
    }

    #[test]
    fn what_is_not_a_record_is_an_error() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let good = pack(start, 0, raw("e2", "e4", 0), 0, 0);
        assert!(SfRecord::from_bytes(&good[..39]).unwrap_err().contains("40 bytes"));
        let mut bad = good;
        bad[38] = 2;
        assert!(SfRecord::from_bytes(&bad).unwrap_err().contains("game result"));
        let mut bad = good;
        bad[34..36].copy_from_slice(&raw("e7", "e5", 0).to_le_bytes());
        assert!(SfRecord::from_bytes(&bad).unwrap_err().contains("no piece of the side to move"));
        // Random bytes decode to nonsense that the FEN reader refuses, never to a panic.
        let mut state = 1u64;
        let mut refused = 0;
        for _ in 0..2000 {
            let mut b = [0u8; SF_RECORD_BYTES];
            for x in b.iter_mut() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *x = (state >> 56) as u8;
            }
            refused += usize::from(SfRecord::from_bytes(&b).is_err());
        }
        assert!(refused > 1900, "{refused} of 2000 random records refused");
    }
}
