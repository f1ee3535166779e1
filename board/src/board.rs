//! The position: piece placement, side to move, castling, en passant, clocks, Zobrist key,
//! and the check/pin information the legal move generator needs.
//!
//! Moves are applied by copy-make: [`Position::make`] updates a position in place and the
//! caller keeps the previous copy (about 170 bytes) instead of undoing the move. That needs
//! no undo stack and no unmake code, and measured no slower in perft than the cost of
//! undo bookkeeping (docs/design.md has the figures).

use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Move, MoveFlag, Piece, PieceType, Square};

/// A chess position. Build one with [`Position::startpos`] or [`Position::from_fen`]
/// (module `fen` of the front end), which validate it; all methods assume a valid position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_type: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [Option<Piece>; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    /// Square passed over by a double pawn push on the last move. Like the competition
    /// harness's FENs, it is set after every double push, whether or not a capture is
    /// possible; it enters the Zobrist key only when a pawn could capture there.
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

/// Where the side to move could give check from: for each piece type the squares that
/// attack the enemy king, and the pieces whose leaving their line uncovers a check
/// ([`Position::check_info`]).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    king: Square,
    discoverers: Bitboard,
    squares: [Bitboard; 6],
}

impl Position {
    /// An empty board, white to move, no castling rights: the start of setting up a
    /// position piece by piece with [`Position::put`], the setters below and
    /// [`Position::finish_setup`]. That is for parsers (the front end's FEN reader), which
    /// validate what they build: every other method assumes a legal position.
    pub fn empty() -> Position {
        attacks::init();
        Position {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::empty(),
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// The standard starting position (the same as [`crate::defs::STARTPOS`], which a
    /// test checks).
    pub fn startpos() -> Position {
        use PieceType::*;
        let mut pos = Position::empty();
        for (file, kind) in [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook].into_iter().enumerate()
        {
            let file = file as u8;
            pos.put(Piece::new(Color::White, kind), Square::from_coords(file, 0));
            pos.put(Piece::new(Color::White, Pawn), Square::from_coords(file, 1));
            pos.put(Piece::new(Color::Black, Pawn), Square::from_coords(file, 6));
            pos.put(Piece::new(Color::Black, kind), Square::from_coords(file, 7));
        }
        pos.set_castling(CastlingRights::all());
        pos.finish_setup();
        pos
    }

    /// Set-up: the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// Set-up: the castling rights.
    pub fn set_castling(&mut self, rights: CastlingRights) {
        self.castling = rights;
    }

    /// Set-up: the en-passant square (the harness writes one after every double push).
    pub fn set_en_passant(&mut self, sq: Option<Square>) {
        self.en_passant = sq;
    }

    /// Set-up: the halfmove clock and fullmove number.
    pub fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// Set-up done: computes checkers, pinned pieces and the Zobrist key from the pieces
    /// and state set so far.
    pub fn finish_setup(&mut self) {
        self.update_check_info();
        self.key = self.compute_key();
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// En-passant square as it would appear in a FEN (set after every double push).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Full-move number, starting at 1 and incremented after black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Zobrist key of placement, side, castling rights and capturable en-passant file.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// All pieces of one type, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn pieces_of_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Pieces of one colour and type.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()] & self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::King).lsb()
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()])
            & self.by_color[color.index()]
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn straight_sliders(&self, color: Color) -> Bitboard {
        (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()])
            & self.by_color[color.index()]
    }

    /// Pieces of either colour attacking `sq` with the given occupancy. Not inlined: its
    /// three callers (check detection, SEE, en passant) each call it once.
    #[inline(never)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let pawns = self.by_type[PieceType::Pawn.index()];
        (attacks::pawn(Color::White, sq) & pawns & self.by_color[1])
            | (attacks::pawn(Color::Black, sq) & pawns & self.by_color[0])
            | (attacks::knight(sq) & self.by_type[PieceType::Knight.index()])
            | (attacks::king(sq) & self.by_type[PieceType::King.index()])
            | (attacks::bishop(sq, occupied)
                & (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()]))
            | (attacks::rook(sq, occupied)
                & (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()]))
    }

    /// True if a piece of `by` attacks `sq` with the given occupancy. Not inlined: its
    /// callers (the king's moves, castling's squares, the FEN reader) each held a copy of
    /// the whole test (−231 B).
    #[inline(never)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (attacks::knight(sq) & self.by_type[PieceType::Knight.index()] & them).any()
            || (attacks::pawn(!by, sq) & self.by_type[PieceType::Pawn.index()] & them).any()
            || (attacks::king(sq) & self.by_type[PieceType::King.index()] & them).any()
            || (attacks::bishop(sq, occupied) & self.diagonal_sliders(by)).any()
            || (attacks::rook(sq, occupied) & self.straight_sliders(by)).any()
    }

    /// Puts `piece` on the empty square `sq` (make-move and set-up).
    #[inline(always)]
    pub fn put(&mut self, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.by_type[piece.kind().index()] |= b;
        self.by_color[piece.color().index()] |= b;
        self.mailbox[sq.index()] = Some(piece);
        self.key ^= attacks::zobrist().piece_square[piece.index()][sq.index()];
    }

    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.by_type[piece.kind().index()] ^= b;
        self.by_color[piece.color().index()] ^= b;
        self.mailbox[sq.index()] = None;
        self.key ^= attacks::zobrist().piece_square[piece.index()][sq.index()];
    }

    #[inline(always)]
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let b = from.bb() | to.bb();
        self.by_type[piece.kind().index()] ^= b;
        self.by_color[piece.color().index()] ^= b;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        let keys = &attacks::zobrist().piece_square[piece.index()];
        self.key ^= keys[from.index()] ^ keys[to.index()];
    }

    /// The en-passant square if a pawn of the side to move attacks it: only then does it
    /// change what can happen, so only then is it part of the key.
    #[inline(always)]
    pub fn capturable_en_passant(&self) -> Option<Square> {
        let ep = self.en_passant?;
        (attacks::pawn(!self.side, ep) & self.pieces(self.side, PieceType::Pawn)).any().then_some(ep)
    }

    #[inline(always)]
    fn en_passant_key(&self) -> u64 {
        match self.capturable_en_passant() {
            Some(sq) => attacks::zobrist().en_passant[sq.file() as usize],
            None => 0,
        }
    }

    /// The key computed from scratch; [`Position::key`] must always equal it.
    pub fn compute_key(&self) -> u64 {
        let z = attacks::zobrist();
        let mut key = 0;
        for sq in self.occupied() {
            let piece = self.mailbox[sq.index()].expect("occupied square has a piece");
            key ^= z.piece_square[piece.index()][sq.index()];
        }
        if self.side == Color::Black {
            key ^= z.black_to_move;
        }
        key ^ z.castling[self.castling.bits() as usize] ^ self.en_passant_key()
    }

    /// Checks that the redundant parts of the position agree: piece bitboards disjoint and
    /// matching the mailbox, one king each, no pawn on a back rank, key, checkers and pins
    /// as recomputed from scratch. Debug builds run it after every move.
    pub fn check_consistency(&self) -> Result<(), &'static str> {
        let mut seen = Bitboard::EMPTY;
        for bb in self.by_type {
            if (seen & bb).any() {
                return Err("two piece types share a square");
            }
            seen |= bb;
        }
        if (self.by_color[0] & self.by_color[1]).any() || seen != self.occupied() {
            return Err("colour and type bitboards disagree");
        }
        for i in 0..64u8 {
            let sq = Square::new(i);
            let from_bitboards = seen.contains(sq).then(|| {
                let kind = PieceType::ALL.into_iter().find(|&k| self.by_type[k.index()].contains(sq));
                let color = if self.by_color[1].contains(sq) { Color::Black } else { Color::White };
                kind.map(|k| Piece::new(color, k))
            });
            if from_bitboards.flatten() != self.mailbox[sq.index()] {
                return Err("mailbox and bitboards disagree");
            }
        }
        if self.pieces(Color::White, PieceType::King).count() != 1
            || self.pieces(Color::Black, PieceType::King).count() != 1
        {
            return Err("a side does not have exactly one king");
        }
        if (self.by_type[0] & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
            return Err("a pawn stands on a back rank");
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from the recomputed key");
        }
        let mut fresh = *self;
        fresh.update_check_info();
        if (fresh.checkers, fresh.pinned) != (self.checkers, self.pinned) {
            return Err("stale checkers or pinned pieces");
        }
        if self.is_attacked(self.king_square(!self.side), self.side, self.occupied()) {
            return Err("the side not to move is in check");
        }
        Ok(())
    }

    /// Recomputes checkers and pinned pieces for the side to move. Not inlined: make,
    /// make-null and set-up share one copy.
    #[inline(never)]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.king_square(us);
        let occupied = self.occupied();
        self.checkers = self.attackers_to(king, occupied) & self.by_color[them.index()];
        // Enemy sliders that would hit the king on an empty board; one of our pieces alone
        // between such a slider and the king is pinned.
        let snipers = (attacks::rook_inline(king, Bitboard::EMPTY) & self.straight_sliders(them))
            | (attacks::bishop_inline(king, Bitboard::EMPTY) & self.diagonal_sliders(them));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color[us.index()];
            }
        }
        self.pinned = pinned;
    }

    /// Plays `m`, which must be legal in this position. The previous position is whatever
    /// copy the caller kept (copy-make). Never inlined: one copy serves every caller
    /// ([`Position::after`] included), 0.8 KB compressed less for no measurable speed.
    #[inline(never)]
    pub fn make(&mut self, m: Move) {
        let z = attacks::zobrist();
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let piece = self.mailbox[from.index()].expect("a legal move starts on a piece");
        let flag = m.flag();

        self.key ^= self.en_passant_key() ^ z.castling[self.castling.bits() as usize];
        self.halfmove = self.halfmove.saturating_add(1);
        self.en_passant = None;

        if m.is_capture() {
            self.halfmove = 0;
            if flag == MoveFlag::EnPassant {
                let victim = Square::new(to.index() as u8 ^ 8);
                self.remove(Piece::new(!us, PieceType::Pawn), victim);
            } else {
                let victim = self.mailbox[to.index()].expect("a capture lands on a piece");
                self.remove(victim, to);
            }
        }

        if let Some(promoted) = m.promotion() {
            self.remove(piece, from);
            self.put(Piece::new(us, promoted), to);
        } else {
            self.shift(piece, from, to);
        }

        match flag {
            MoveFlag::DoublePush => {
                self.en_passant = Some(Square::new((from.index() as u8 + to.index() as u8) / 2));
            }
            MoveFlag::KingCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                self.shift(rook, to.offset(1), to.offset(-1));
            }
            MoveFlag::QueenCastle => {
                let rook = Piece::new(us, PieceType::Rook);
                self.shift(rook, to.offset(-2), to.offset(1));
            }
            _ => {}
        }
        if piece.kind() == PieceType::Pawn {
            self.halfmove = 0;
        }

        self.castling &= CastlingRights::kept_after_touching(from) & CastlingRights::kept_after_touching(to);
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !us;
        self.key ^= z.black_to_move ^ z.castling[self.castling.bits() as usize];
        self.key ^= self.en_passant_key();
        self.update_check_info();
        #[cfg(debug_assertions)]
        if let Err(e) = self.check_consistency() {
            panic!("inconsistent position after {m}: {e}");
        }
    }

    /// Passes the move to the opponent (null-move pruning). Not legal in check.
    #[inline]
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        let z = attacks::zobrist();
        self.key ^= self.en_passant_key();
        self.en_passant = None;
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.key ^= z.black_to_move;
        self.update_check_info();
    }

    /// What [`Position::gives_check`] needs to know about the enemy king, worked out once
    /// for all the moves of a node (two slider lookups and the blockers' scan per node,
    /// instead of up to four lookups per move).
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let king = self.king_square(!us);
        let occupied = self.occupied();
        let diagonal = attacks::bishop(king, occupied);
        let straight = attacks::rook(king, occupied);
        // Our sliders that would hit the enemy king on an empty board; a piece of ours
        // alone between such a slider and the king uncovers a check when it leaves the line.
        let snipers = (attacks::rook(king, Bitboard::EMPTY) & self.straight_sliders(us))
            | (attacks::bishop(king, Bitboard::EMPTY) & self.diagonal_sliders(us));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                discoverers |= blockers & self.by_color[us.index()];
            }
        }
        CheckInfo {
            king,
            discoverers,
            squares: [
                attacks::pawn(!us, king),
                attacks::knight(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
        }
    }

    /// True if `m` (legal here) checks the opponent: directly from its destination, or by
    /// uncovering one of our sliders; `info` is this position's [`Position::check_info`].
    /// Castling, en passant and promotions, which move two pieces or change one, are played
    /// out. (A slider that moves along a line through the king cannot check through its
    /// own former square: it would have been giving check already.) Inlined: it is two
    /// table tests, asked of many moves a node, and the call cost as much as the tests
    /// (1.03x nodes/s on the positions of real games); the rare moves played out share one call.
    #[inline(always)]
    pub fn gives_check(&self, info: &CheckInfo, m: Move) -> bool {
        if matches!(m.flag(), MoveFlag::KingCastle | MoveFlag::QueenCastle | MoveFlag::EnPassant)
            || m.is_promotion()
        {
            return self.checks_when_played(m);
        }
        let (from, to) = (m.from(), m.to());
        let kind = self.mailbox[from.index()].map_or(PieceType::King, |p| p.kind());
        info.squares[kind.index()].contains(to)
            || (info.discoverers.contains(from) && !attacks::line(info.king, from).contains(to))
    }

    /// True if `m` checks, found by playing it ([`Position::gives_check`]'s rare moves).
    #[inline(never)]
    #[cold]
    fn checks_when_played(&self, m: Move) -> bool {
        self.after(m).in_check()
    }

    /// True if `color` has a piece other than pawns and king (null-move zugzwang guard).
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color[color.index()]
            & !(self.by_type[PieceType::Pawn.index()] | self.by_type[PieceType::King.index()]))
        .any()
    }

    /// FIDE dead positions by material: bare kings, king and one minor piece against a
    /// bare king, or bishops (any number) all on squares of one colour and nothing else.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_type[PieceType::Pawn.index()]
            | self.by_type[PieceType::Rook.index()]
            | self.by_type[PieceType::Queen.index()];
        if heavy.any() {
            return false;
        }
        let knights = self.by_type[PieceType::Knight.index()];
        let bishops = self.by_type[PieceType::Bishop.index()];
        let minors = knights | bishops;
        if !minors.more_than_one() {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & !Bitboard::LIGHT).is_empty())
    }

    /// The position after `m` (copy-make convenience). Not inlined: each of its five
    /// callers held a copy of the position's copy (−75 B).
    #[inline(never)]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.make(m);
        next
    }
}
