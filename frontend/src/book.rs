//! The opening book: for each of a few thousand positions (the harness's 2000 openings and
//! the likely positions one ply after them), the move an offline search found best. It is
//! built by `minnow-dev`'s `book` tool (the method is in its documentation); this module only
//! reads it, and the front end consults it for the first [`BOOK_PLIES`] moves of a game when
//! the `OwnBook` option is on.
//!
//! Format `MBK1` (all bit fields least significant bit first):
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..4 | magic `MBK1` |
//! | 4..6 | number of entries, u16 little-endian |
//! | 6 | `key_bits`: an entry's key is the top `key_bits` bits of the position's Zobrist key |
//! | 7 | `gap_k`: Rice parameter of the key gaps |
//! | 8 | `move_k`: Rice parameter of the move indices |
//! | 9 | the full-move number of every position in the book (0: they differ) |
//! | 10.. | the entries in increasing key order, each the gap from the previous key (the first from 0) and then the book move's index in [`legal_move_list`] order, both Rice-coded: `q` one bits, a zero bit, then the `k` low bits |
//!
//! A key has about 8 bits more than the entry count needs, so a position outside the book
//! matches an entry by chance about once in 256 probes; that is why the book is consulted only
//! at the start of a game, only for positions with the book's full-move number (the
//! harness's openings are all at move 5), and the move is taken from the position's own
//! legal moves (an index past their end is no hit). A malformed book is never trusted: any inconsistency
//! reads as "not in the book".

use minnow_engine::board::Position;
use minnow_engine::movegen::legal_move_list;
use minnow_engine::types::Move;

/// The file magic.
pub const MAGIC: [u8; 4] = *b"MBK1";
/// Header length in bytes.
pub const HEADER: usize = 10;
/// The book is consulted while fewer than this many moves were played since the game's
/// first position (the harness's opening, or that position after the opponent's first move).
pub const BOOK_PLIES: usize = 2;

/// The book compiled in: the file `book/SHIPPED` names, or the one the `MINNOW_BOOK`
/// environment variable names at build time. Since gen13 the shipped one is `book/empty.bin`,
/// a header without entries: the 80-neuron net needed the bytes (`book/README.md`).
pub static BOOK: &[u8] = include_bytes!(env!("MINNOW_BOOK_FILE"));

/// The file [`BOOK`] holds, as `frontend/build.rs` chose it (for the tests; a constant the
/// shipped binary never reads).
pub const BOOK_FILE: &str = env!("MINNOW_BOOK_FILE");

/// A little-endian bit reader over a byte slice; reading past the end gives `None`.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn bit(&mut self) -> Option<u64> {
        let byte = *self.data.get(self.at / 8)?;
        self.at += 1;
        Some(u64::from(byte >> ((self.at - 1) % 8)) & 1)
    }

    fn rice(&mut self, k: u8) -> Option<u64> {
        let mut q = 0u64;
        while self.bit()? == 1 {
            q += 1;
        }
        let mut low = 0;
        for i in 0..k {
            low |= self.bit()? << i;
        }
        Some(q << k | low)
    }
}

/// The book move for `pos` in `book` (an `MBK1` file), if the book has one and it is legal.
#[inline(never)]
pub fn probe(book: &[u8], pos: &Position) -> Option<Move> {
    let (header, body) = (book.get(..HEADER)?, &book[HEADER..]);
    let (key_bits, gap_k, move_k) = (header[6], header[7], header[8]);
    if header[..4] != MAGIC
        || !(1..=48).contains(&key_bits)
        || gap_k > 48
        || move_k > 8
        || (header[9] != 0 && pos.fullmove_number() != u16::from(header[9]))
    {
        return None;
    }
    let target = pos.key() >> (64 - key_bits);
    let mut bits = Bits { data: body, at: 0 };
    let mut key = 0u64;
    for _ in 0..u16::from_le_bytes([header[4], header[5]]) {
        key = key.checked_add(bits.rice(gap_k)?)?;
        let index = bits.rice(move_k)?;
        if key >= target {
            return if key == target { legal_move_list(pos).get(index as usize).copied() } else { None };
        }
    }
    None
}
