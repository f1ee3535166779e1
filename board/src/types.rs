//! Core value types: colours, pieces, squares, bitboards, moves and castling rights.
//!
//! All are small `Copy` newtypes or enums so that the compiler keeps them in registers and
//! the type system keeps a square from being confused with a bitboard.

use arrayvec::ArrayString;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for white, 1 for black: the index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceType {
    /// All piece types, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// Index into per-type arrays (pawn = 0 … king = 5).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and UCI promotions.
    pub const fn letter(self) -> u8 {
        b"pnbrqk"[self as usize]
    }
}

/// A coloured piece. The discriminant is `color * 6 + type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Piece {
    WhitePawn,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing,
}

impl Piece {
    /// All twelve pieces in discriminant order.
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn,
        Piece::WhiteKnight,
        Piece::WhiteBishop,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::WhiteKing,
        Piece::BlackPawn,
        Piece::BlackKnight,
        Piece::BlackBishop,
        Piece::BlackRook,
        Piece::BlackQueen,
        Piece::BlackKing,
    ];

    /// The piece of a colour and type.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::ALL[color as usize * 6 + kind as usize]
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 { Color::White } else { Color::Black }
    }

    /// Its type: one table load (`% 6` then a load was 0.6 KB of code over its copies).
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        use PieceType::*;
        const KINDS: [PieceType; 12] =
            [Pawn, Knight, Bishop, Rook, Queen, King, Pawn, Knight, Bishop, Rook, Queen, King];
        KINDS[self as usize]
    }

    /// Index 0..12, for per-piece tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// FEN letter: upper case for white.
    pub const fn fen_char(self) -> u8 {
        b"PNBRQKpnbrqk"[self as usize]
    }

    /// The piece named by a FEN letter.
    pub fn from_fen_char(c: u8) -> Option<Piece> {
        b"PNBRQKpnbrqk".iter().position(|&x| x == c).map(|i| Piece::ALL[i])
    }
}

/// A square, a1 = 0, b1 = 1, …, h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// c8.
    pub const C8: Square = Square(58);
    /// d8.
    pub const D8: Square = Square(59);
    /// e8.
    pub const E8: Square = Square(60);
    /// f8.
    pub const F8: Square = Square(61);
    /// g8.
    pub const G8: Square = Square(62);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with this index; `index` must be below 64.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank), both below 8.
    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    /// Index 0..64. Masked so that array lookups need no bounds check.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// File, 0 = a.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 = first rank.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away; the caller guarantees it is on the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square::new((self.0 as i8 + delta) as u8)
    }

    /// The one-square bitboard.
    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// Parses a square name such as `e4`.
    pub fn parse(name: &[u8]) -> Option<Square> {
        match name {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// The two-letter name, e.g. `e4`.
    pub const fn name(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.name();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// A set of squares, one bit per square (bit 0 = a1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All squares.
    pub const ALL: Bitboard = Bitboard(!0);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// The third rank.
    pub const RANK_3: Bitboard = Bitboard(0xFF << 16);
    /// The sixth rank.
    pub const RANK_6: Bitboard = Bitboard(0xFF << 40);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Light squares (h1, a2, …).
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

    /// The file `file` (0 = a … 7 = h).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    /// True if no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if some square is set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True if two or more squares are set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Number of squares set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True if `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// Removes and returns the lowest square; the set must not be empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// Shifts every square one rank towards `color`'s opponent ("forward" for `color`).
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// Mirrors the set vertically (rank 1 <-> rank 8).
    #[inline(always)]
    pub const fn flip(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(self.pop()) }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! bitboard_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt;)*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bitboard_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

bitflags::bitflags! {
    /// Castling rights still available (standard chess only).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (e1g1).
        const WHITE_KING = 1;
        /// White may castle queen side (e1c1).
        const WHITE_QUEEN = 2;
        /// Black may castle king side (e8g8).
        const BLACK_KING = 4;
        /// Black may castle queen side (e8c8).
        const BLACK_QUEEN = 8;
    }
}

impl CastlingRights {
    /// The rights that survive a move touching `sq` (from or to): moving a king or rook,
    /// or capturing a rook on its home square, loses the matching rights.
    #[inline(always)]
    pub fn kept_after_touching(sq: Square) -> CastlingRights {
        let lost = match sq.index() {
            0 => Self::WHITE_QUEEN,
            4 => Self::WHITE_KING.union(Self::WHITE_QUEEN),
            7 => Self::WHITE_KING,
            56 => Self::BLACK_QUEEN,
            60 => Self::BLACK_KING.union(Self::BLACK_QUEEN),
            63 => Self::BLACK_KING,
            _ => Self::empty(),
        };
        Self::all().difference(lost)
    }
}

/// What kind of move a [`Move`] is, stored in its top four bits.
///
/// Bit 2 set = capture, bit 3 set = promotion (the low two bits then name the piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum MoveFlag {
    Quiet = 0,
    DoublePush = 1,
    KingCastle = 2,
    QueenCastle = 3,
    Capture = 4,
    EnPassant = 5,
    PromoKnight = 8,
    PromoBishop = 9,
    PromoRook = 10,
    PromoQueen = 11,
    CapturePromoKnight = 12,
    CapturePromoBishop = 13,
    CapturePromoRook = 14,
    CapturePromoQueen = 15,
}

impl MoveFlag {
    const ALL: [MoveFlag; 16] = [
        MoveFlag::Quiet,
        MoveFlag::DoublePush,
        MoveFlag::KingCastle,
        MoveFlag::QueenCastle,
        MoveFlag::Capture,
        MoveFlag::EnPassant,
        MoveFlag::Quiet, // 6 and 7 are unused
        MoveFlag::Quiet,
        MoveFlag::PromoKnight,
        MoveFlag::PromoBishop,
        MoveFlag::PromoRook,
        MoveFlag::PromoQueen,
        MoveFlag::CapturePromoKnight,
        MoveFlag::CapturePromoBishop,
        MoveFlag::CapturePromoRook,
        MoveFlag::CapturePromoQueen,
    ];
}

/// A move in 16 bits.
///
/// ```text
///  15  12 11     6 5      0
/// +------+--------+--------+
/// | flag |   to   |  from  |
/// +------+--------+--------+
/// ```
/// Castling is stored as the king's two-square move, as UCI writes it. The all-zero value
/// (a1a1) is [`Move::NONE`], never a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    /// "No move".
    pub const NONE: Move = Move(0);

    /// Packs a move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (flag as u16) << 12)
    }

    /// The raw 16 bits.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`] bits (the result may not be legal anywhere).
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn flag(self) -> MoveFlag {
        MoveFlag::ALL[(self.0 >> 12) as usize]
    }

    /// True for captures, en passant included.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & 0x4000 != 0
    }

    /// True for promotions.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & 0x8000 != 0
    }

    /// True for captures and promotions: the moves quiescence search looks at.
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.0 & 0xC000 != 0
    }

    /// The piece a promotion makes.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() { Some(PieceType::ALL[1 + (self.0 >> 12 & 3) as usize]) } else { None }
    }

    /// The UCI text, e.g. `e2e4` or `e7e8q` (promotions always carry the letter).
    pub fn uci(self) -> ArrayString<5> {
        // The four or five bytes pushed as one string: chained iterators and a push per
        // byte were larger code.
        let ([a, b], [c, d]) = (self.from().name(), self.to().name());
        let (letter, len) = self.promotion().map_or((0, 4), |p| (p.letter(), 5));
        let mut s = ArrayString::new();
        let bytes = [a, b, c, d, letter];
        // SAFETY: square names and piece letters are ASCII, hence valid UTF-8.
        let _ = s.try_push_str(unsafe { core::str::from_utf8_unchecked(&bytes[..len]) });
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}
