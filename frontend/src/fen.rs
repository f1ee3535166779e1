//! FEN parsing, validation and printing.
//!
//! Parsing never panics. A FEN is rejected, with the field and the reason, when it is
//! malformed or describes a position that cannot be played: a missing or extra king, pawns
//! on the first or last rank, more pieces than a side can have, castling rights without
//! the king and rook on their squares, an en-passant square no double push could have
//! left, garbage counters, or the side not to move in check.
//!
//! Accepted on purpose:
//! - The clocks may be omitted (EPD style); they default to `0 1`. A fullmove number of 0,
//!   which some tools write, is read as 1.
//! - An en-passant square is accepted whenever a double push could have left it, even if
//!   no capture is possible: the competition harness writes it after every double push.
//! - Checks no game can reach but that are well defined to play from, such as two bishops
//!   checking along the same diagonal (line 51 of the perft suite), are accepted: move
//!   generation handles any double check, and proving reachability in general needs
//!   retrograde analysis. Three or more checkers can never occur and are rejected.

use arrayvec::ArrayString;
use core::fmt;
use minnow_engine::board::Position;
use minnow_engine::defs::{push_ascii, push_number};
use minnow_engine::types::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};

/// The FEN field an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The first field: piece placement (also used for impossible material).
    Placement,
    /// The second field: `w` or `b`.
    SideToMove,
    /// The third field: castling rights.
    Castling,
    /// The fourth field: en-passant target square.
    EnPassant,
    /// The fifth field: halfmove clock.
    HalfmoveClock,
    /// The sixth field: fullmove number.
    FullmoveNumber,
    /// Text after the sixth field.
    Trailing,
    /// The position as a whole (checks).
    Position,
}

impl FenField {
    /// Human-readable name of the field.
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Placement => "placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
            FenField::Trailing => "end",
            FenField::Position => "position",
        }
    }
}

/// Why a FEN was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Which field is wrong.
    pub field: FenField,
    /// Why, in a few words.
    pub reason: &'static str,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN ({}): {}", self.field.name(), self.reason)
    }
}

fn err<T>(field: FenField, reason: &'static str) -> Result<T, FenError> {
    Err(FenError { field, reason })
}

/// Largest halfmove clock accepted (the harness draws at 100; GUIs may go further).
pub const MAX_HALFMOVE: u16 = 1000;
/// Largest fullmove number accepted.
pub const MAX_FULLMOVE: u16 = 9999;

fn parse_counter(text: &str, field: FenField, max: u16) -> Result<u16, FenError> {
    // Digits only (a sign is refused); the value saturates, so any length is safe.
    let mut value = 0u32;
    for b in text.bytes() {
        if !b.is_ascii_digit() {
            return err(field, "not a count");
        }
        value = (value * 10 + (b - b'0') as u32).min(1 << 16);
    }
    if value > max as u32 {
        return err(field, "too large");
    }
    Ok(value as u16)
}

const RANK_WIDTH: &str = "a rank is not 8 squares";
const RANKS: &str = "not 8 ranks";

fn parse_placement(pos: &mut Position, text: &str) -> Result<(), FenError> {
    use FenField::Placement as F;
    // One pass over the bytes, '/' ending a rank: `split('/')` pulled in a word-at-a-time
    // byte search, far larger code and no faster on a field of a few dozen bytes.
    let (mut rank, mut file) = (7u8, 0u8);
    for c in text.bytes() {
        if c == b'/' {
            if file < 8 {
                return err(F, RANK_WIDTH);
            }
            if rank == 0 {
                return err(F, RANKS);
            }
            rank -= 1;
            file = 0;
        } else if (b'1'..=b'8').contains(&c) {
            file += c - b'0';
        } else if let Some(piece) = Piece::from_fen_char(c) {
            if file < 8 {
                pos.put(piece, Square::from_coords(file, rank));
            }
            file += 1;
        } else {
            return err(F, "unexpected character");
        }
        if file > 8 {
            return err(F, RANK_WIDTH);
        }
    }
    if file < 8 {
        return err(F, RANK_WIDTH);
    }
    if rank > 0 {
        return err(F, RANKS);
    }
    Ok(())
}

fn check_material(pos: &Position) -> Result<(), FenError> {
    use FenField::Placement as F;
    // Pieces counted from the board squares: a popcount per bitboard is a long bit trick on
    // the baseline x86-64 target, repeated a dozen times here.
    let mut counts = [0i32; 12];
    for i in 0..64 {
        if let Some(piece) = pos.piece_on(Square::new(i)) {
            counts[piece.index()] += 1;
        }
    }
    for color in Color::ALL {
        let count = |kind| counts[Piece::new(color, kind).index()];
        if count(PieceType::King) != 1 {
            return err(F, "a side has no king or more than one");
        }
        // Every piece beyond the initial set must have been a pawn. This also bounds the
        // pawns (at most 8) and the pieces (at most 16), and with them the move lists.
        let pawns = count(PieceType::Pawn);
        let promoted = (count(PieceType::Queen) - 1).max(0)
            + (count(PieceType::Rook) - 2).max(0)
            + (count(PieceType::Bishop) - 2).max(0)
            + (count(PieceType::Knight) - 2).max(0);
        if promoted > 8 - pawns {
            return err(F, "a side has more pieces than a game can give it");
        }
    }
    if (pos.pieces_of_type(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
        return err(F, "a pawn on the first or last rank");
    }
    Ok(())
}

fn parse_castling(pos: &Position, text: &str) -> Result<CastlingRights, FenError> {
    use FenField::Castling as F;
    if text == "-" {
        return Ok(CastlingRights::empty());
    }
    let mut rights = CastlingRights::empty();
    for c in text.bytes() {
        let (right, king, rook) = match c {
            b'K' => (CastlingRights::WHITE_KING, Square::E1, Square::H1),
            b'Q' => (CastlingRights::WHITE_QUEEN, Square::E1, Square::A1),
            b'k' => (CastlingRights::BLACK_KING, Square::E8, Square::H8),
            b'q' => (CastlingRights::BLACK_QUEEN, Square::E8, Square::A8),
            _ => return err(F, "expected - or letters of KQkq (no Chess960)"),
        };
        if rights.contains(right) {
            return err(F, "a right is repeated");
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        if pos.piece_on(king) != Some(Piece::new(color, PieceType::King))
            || pos.piece_on(rook) != Some(Piece::new(color, PieceType::Rook))
        {
            return err(F, "a right without its king and rook at home");
        }
        rights |= right;
    }
    Ok(rights)
}

const NO_PUSH: &str = "no double push could have left it";

fn parse_en_passant(pos: &Position, text: &str) -> Result<Option<Square>, FenError> {
    use FenField::EnPassant as F;
    if text == "-" {
        return Ok(None);
    }
    let Some(sq) = Square::parse(text.as_bytes()) else {
        return err(F, "expected - or a square");
    };
    let us = pos.side_to_move();
    let rank = if us == Color::White { 5 } else { 2 };
    if sq.rank() != rank {
        return err(F, NO_PUSH);
    }
    let (pushed, origin) = match us {
        Color::White => (sq.offset(-8), sq.offset(8)),
        Color::Black => (sq.offset(8), sq.offset(-8)),
    };
    if pos.piece_on(pushed) != Some(Piece::new(!us, PieceType::Pawn)) {
        return err(F, NO_PUSH);
    }
    if pos.piece_on(sq).is_some() || pos.piece_on(origin).is_some() {
        return err(F, NO_PUSH);
    }
    Ok(Some(sq))
}

/// FEN reading and writing for [`Position`], as methods (`Position::from_fen(text)`,
/// `pos.fen()`) once this trait is in scope. The engine crate has no text formats; they
/// live here in the front end, compiled for size.
pub trait Fen: Sized {
    /// Parses and validates a FEN (four to six fields).
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    /// The FEN of this position. The en-passant square is written whenever the last move
    /// was a double push, as the competition harness (Chessnut) writes it.
    fn fen(&self) -> ArrayString<96>;
}

impl Fen for Position {
    #[inline(never)]
    fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let mut pos = Position::empty();

        let Some(placement) = fields.next() else {
            return err(FenField::Placement, "missing");
        };
        parse_placement(&mut pos, placement)?;
        check_material(&pos)?;

        pos.set_side_to_move(match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(_) => return err(FenField::SideToMove, "expected w or b"),
            None => return err(FenField::SideToMove, "missing"),
        });
        let Some(castling) = fields.next() else {
            return err(FenField::Castling, "missing");
        };
        pos.set_castling(parse_castling(&pos, castling)?);
        let Some(ep) = fields.next() else {
            return err(FenField::EnPassant, "missing");
        };
        pos.set_en_passant(parse_en_passant(&pos, ep)?);
        let (mut halfmove, mut fullmove) = (0, 1);
        if let Some(text) = fields.next() {
            halfmove = parse_counter(text, FenField::HalfmoveClock, MAX_HALFMOVE)?;
        }
        if let Some(text) = fields.next() {
            fullmove = parse_counter(text, FenField::FullmoveNumber, MAX_FULLMOVE)?.max(1);
        }
        pos.set_clocks(halfmove, fullmove);
        if fields.next().is_some() {
            return err(FenField::Trailing, "unexpected text after six fields");
        }

        let us = pos.side_to_move();
        if pos.is_attacked(pos.king_square(!us), us, pos.occupied()) {
            return err(FenField::Position, "the side not to move is in check");
        }
        pos.finish_setup();
        if pos.checkers().count() > 2 {
            return err(FenField::Position, "more than two checkers");
        }
        Ok(pos)
    }

    fn fen(&self) -> ArrayString<96> {
        let mut s = ArrayString::new();
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                match self.piece_on(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            push_ascii(&mut s, b'0' + empty);
                            empty = 0;
                        }
                        push_ascii(&mut s, p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                push_ascii(&mut s, b'0' + empty);
            }
            if rank > 0 {
                push_ascii(&mut s, b'/');
            }
        }
        for &c in if self.side_to_move() == Color::White { b" w " } else { b" b " } {
            push_ascii(&mut s, c);
        }
        if self.castling().is_empty() {
            push_ascii(&mut s, b'-');
        }
        for (right, c) in [
            (CastlingRights::WHITE_KING, b'K'),
            (CastlingRights::WHITE_QUEEN, b'Q'),
            (CastlingRights::BLACK_KING, b'k'),
            (CastlingRights::BLACK_QUEEN, b'q'),
        ] {
            if self.castling().contains(right) {
                push_ascii(&mut s, c);
            }
        }
        push_ascii(&mut s, b' ');
        match self.en_passant() {
            Some(sq) => sq.name().iter().for_each(|&c| push_ascii(&mut s, c)),
            None => push_ascii(&mut s, b'-'),
        }
        push_ascii(&mut s, b' ');
        push_number(&mut s, self.halfmove_clock() as u64);
        push_ascii(&mut s, b' ');
        push_number(&mut s, self.fullmove_number() as u64);
        s
    }
}
