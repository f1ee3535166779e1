//! The search's memory between nodes, kept from search to search (cleared by `ucinewgame`):
//! the quiet-move histories (butterfly, continuation, capture), the killers and counter-moves
//! the move picker reads, and the correction history that moves the static evaluation
//! towards what searches found. Every table moves by one gravity rule ([`history_bonus`]).

use crate::board::Position;
use crate::params::{CORRECTION_SIZE, CORRECTION_TABLES, CORRECTION_WEIGHT, tp};
use crate::score::MAX_PLY;
use crate::types::{Color, Move, PieceType};

/// Quiet-move ordering memory, kept between searches (cleared by `ucinewgame`).
pub struct Histories {
    /// Butterfly history: how often a quiet move (by side, from, to) caused a cutoff.
    pub butterfly: [[[i16; 64]; 64]; 2],
    /// Two quiet moves per ply that recently caused cutoffs.
    pub killers: [[Move; 2]; MAX_PLY + 1],
    /// The quiet move that refuted a given move (by moved piece × 64 + destination).
    pub counter: [Move; 768],
    /// Continuation history (storage outside the searcher, see [`ContinuationHistory`]).
    pub continuation: &'static mut ContinuationHistory,
    /// Correction history: by side to move and by the pawn structure, the minor pieces and
    /// kings, the major pieces and kings, and each side's pieces ([`correction_indices`]),
    /// and by the move before, which way the search's results have been from the
    /// corrected evaluation (±1,024 each, KaggleFish's form).
    pub correction: [[[i16; CORRECTION_SIZE]; 2]; CORRECTION_TABLES],
    /// Capture history: how often a capture (by moving piece, destination and captured
    /// piece type) caused a cutoff; orders captures of equal victims.
    pub capture: [[[i16; 6]; 64]; 12],
}

/// Adds `bonus` to a history entry with gravity: the nearer the entry is to
/// ±HISTORY_MAX, the less a bonus of its sign moves it.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let h = *entry as i32;
    *entry = (h + bonus - h * bonus.abs() / tp!(HISTORY_MAX)) as i16;
}

/// The type of the piece that makes the move `m` in `pos`.
#[inline]
pub(crate) fn mover(pos: &Position, m: Move) -> PieceType {
    pos.piece_on(m.from()).map_or(PieceType::Pawn, |p| p.kind())
}

/// The correction-history slots of `pos`, one a table: multiplicative hashes of the
/// bitboards of the pawns; the knights, bishops and kings; the rooks, queens and kings;
/// white's pieces; black's pieces (no key kept by make-move: a few multiplications a node).
#[inline(always)]
pub fn correction_indices(pos: &Position) -> [usize; CORRECTION_TABLES - 1] {
    const MULTIPLIERS: [u64; 12] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
        0x1656_67B1_9E37_79F9,
        0x27D4_EB2F_1656_67C5,
        0x94D0_49BB_1331_11EB,
        0xBF58_476D_1CE4_E5B9,
        0x8CB9_2BA7_2F3D_8DD7,
        0xD6E8_FEB8_6659_FD93,
        0xA076_1D64_78BD_642F,
        0xE703_7ED1_A0B4_28DB,
    ];
    // Each piece kind and colour's bitboard hashed once (white's kinds 0-5, black's 6-11),
    // the tables' hashes written out with no loop: a loop over each table's pieces was a
    // tenth of the search's time where the compiler would not unroll it.
    let h = |i: usize| pos.pieces(Color::ALL[i / 6], PieceType::ALL[i % 6]).0.wrapping_mul(MULTIPLIERS[i]);
    let (white, black) = (h(1) ^ h(2) ^ h(3) ^ h(4), h(7) ^ h(8) ^ h(9) ^ h(10));
    let kings = h(5) ^ h(11);
    let shift = |x: u64| (x >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize;
    [
        shift(h(0) ^ h(6)),
        shift(h(1) ^ h(2) ^ h(7) ^ h(8) ^ kings),
        shift(h(3) ^ h(4) ^ h(9) ^ h(10) ^ kings),
        shift(white ^ h(5)),
        shift(black ^ h(11)),
    ]
}

/// Continuation history: how often a quiet move (by piece type and destination) caused a
/// cutoff right after a given move one, two or four plies earlier (by piece and destination,
/// [`Continuation`]), one table for all three plies: 576 KiB, where the same side's moves in
/// a table of their own cost 576 KiB more for nothing measurable. The caller provides it (a
/// static in the shipped binary), because a searcher built on the stack and moved would touch
/// it twice over.
pub struct ContinuationHistory(pub [[[i16; 64]; 6]; 768]);

impl ContinuationHistory {
    /// All zero.
    pub const EMPTY: ContinuationHistory = ContinuationHistory([[[0; 64]; 6]; 768]);
}

/// A position's correction-history entries ([`Histories::correction_slots`]): offsets into
/// the flattened tables, table by table, the last (by the move before) only if there was one.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionSlots {
    at: [usize; CORRECTION_TABLES],
    len: usize,
}

/// How many earlier moves a quiet's continuation history is read for: one, two and four
/// plies back.
pub const CONTINUATION_PLIES: usize = 3;

/// The earlier moves a quiet move's continuation history is read for: the moves one, two
/// and four plies back as rows of [`ContinuationHistory`], or [`Continuation::NONE`] (a
/// null move, or before the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation(pub [usize; CONTINUATION_PLIES]);

impl Continuation {
    /// No earlier move.
    pub const NONE: usize = usize::MAX;
}

impl Histories {
    /// Empty histories over `continuation` (which is cleared).
    pub fn new(continuation: &'static mut ContinuationHistory) -> Histories {
        *continuation = ContinuationHistory::EMPTY;
        Histories {
            butterfly: [[[0; 64]; 64]; 2],
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            counter: [Move::NONE; 768],
            continuation,
            correction: [[[0; CORRECTION_SIZE]; 2]; CORRECTION_TABLES],
            capture: [[[0; 6]; 64]; 12],
        }
    }
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * tp!(HISTORY_BONUS_SCALE) + depth * tp!(HISTORY_BONUS_LINEAR) - tp!(HISTORY_BONUS_OFFSET))
        .min(tp!(HISTORY_MAX_BONUS))
}

impl Histories {
    /// Forgets everything, in place.
    pub fn clear(&mut self) {
        self.butterfly.iter_mut().flatten().flatten().for_each(|h| *h = 0);
        self.clear_killers();
        self.counter.iter_mut().for_each(|m| *m = Move::NONE);
        self.continuation.0.iter_mut().flatten().flatten().for_each(|h| *h = 0);
        self.correction.iter_mut().flatten().flatten().for_each(|c| *c = 0);
        self.capture.iter_mut().flatten().flatten().for_each(|h| *h = 0);
    }

    /// The correction entries of `pos` after the move `counter` (piece × 64 + destination,
    /// `None` after a null move or at the root), found once a node for both reading and
    /// learning (hashing the pieces took a twentieth of the search's time at every use).
    #[inline(never)]
    pub fn correction_slots(pos: &Position, counter: Option<usize>) -> CorrectionSlots {
        let side = pos.side_to_move().index();
        let i = correction_indices(pos);
        let at = |t: usize| (2 * t + side) * CORRECTION_SIZE + i[t];
        let at = [
            at(0),
            at(1),
            at(2),
            at(3),
            at(4),
            2 * (CORRECTION_TABLES - 1) * CORRECTION_SIZE + counter.unwrap_or(0),
        ];
        CorrectionSlots { at, len: CORRECTION_TABLES - 1 + counter.is_some() as usize }
    }

    /// `eval` corrected by what the search has learnt about positions like this one.
    #[inline(never)]
    pub fn corrected(&self, slots: &CorrectionSlots, eval: i32) -> i32 {
        let table = self.correction.as_flattened().as_flattened();
        let mut sum = 0;
        for t in 0..slots.len {
            sum += i32::from(table[slots.at[t]]) * CORRECTION_WEIGHT[t];
        }
        eval + sum * 100 / (1024 * 208)
    }

    /// Moves the correction entries `slots` towards the sign of `error` (search result
    /// minus corrected evaluation, cp), the faster the larger it and the deeper the search.
    #[inline(never)]
    pub fn update_correction(&mut self, slots: &CorrectionSlots, depth: i32, error: i32) {
        let v = (depth * error * 208 / 800).clamp(-256, 256);
        let table = self.correction.as_flattened_mut().as_flattened_mut();
        for &at in &slots.at[..slots.len] {
            let e = &mut table[at];
            *e = (i32::from(*e) + v - i32::from(*e) * v.abs() / 1024) as i16;
        }
    }

    /// The capture-history entry of the noisy move `m` in `pos` (a promotion without
    /// capture counts as taking a pawn's place: victim index 0).
    #[inline]
    fn capture_entry(&self, pos: &Position, m: Move) -> (usize, usize, usize) {
        let piece = pos.piece_on(m.from()).map_or(0, |p| p.index());
        let victim = pos.piece_on(m.to()).map_or(0, |p| p.kind().index());
        (piece, m.to().index(), victim)
    }

    /// The capture-history score of the noisy move `m` in `pos`.
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        let (p, to, v) = self.capture_entry(pos, m);
        self.capture[p][to][v] as i32
    }

    /// Adds `bonus` with gravity to the capture history of the noisy move `m` in `pos`.
    #[inline]
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let (p, to, v) = self.capture_entry(pos, m);
        gravity(&mut self.capture[p][to][v], bonus);
    }

    /// Forgets the killers (they belong to one search's plies).
    pub fn clear_killers(&mut self) {
        self.killers.iter_mut().flatten().for_each(|m| *m = Move::NONE);
    }

    /// Adds `bonus` (negative for a malus) with gravity: entries saturate towards ±MAX.
    #[inline]
    pub fn update_butterfly(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[side.index()][m.from().index()][m.to().index()], bonus);
    }

    /// Adds `bonus` with gravity to the continuation entries of the quiet move `m` in
    /// `pos` after the moves in `prev`.
    #[inline(never)]
    pub fn update_continuation(&mut self, pos: &Position, prev: Continuation, m: Move, bonus: i32) {
        let kind = mover(pos, m).index();
        for p in prev.0 {
            if p != Continuation::NONE {
                gravity(&mut self.continuation.0[p][kind][m.to().index()], bonus);
            }
        }
    }

    /// Adds `bonus` with gravity to the butterfly and continuation entries of the quiet
    /// move `m` in `pos` after `prev`. Out of line: called at a node's end, not per move.
    #[inline(never)]
    pub fn update_quiet(&mut self, pos: &Position, prev: Continuation, m: Move, bonus: i32) {
        self.update_butterfly(pos.side_to_move(), m, bonus);
        self.update_continuation(pos, prev, m, bonus);
    }

    /// The continuation rows of the moves `prev`, a row of zeros for an absent one: looked up
    /// once a node, so that scoring each quiet move is three loads and no branch.
    #[inline(always)]
    pub fn continuation_rows(&self, prev: Continuation) -> [&[[i16; 64]; 6]; CONTINUATION_PLIES] {
        static ZERO: [[i16; 64]; 6] = [[0; 64]; 6];
        prev.0.map(|p| self.continuation.0.get(p).unwrap_or(&ZERO))
    }

    /// The history score of the quiet move `m` in `pos`: butterfly plus the continuation
    /// entries of `rows` ([`Histories::continuation_rows`]), the move one ply back weighted.
    #[inline(always)]
    pub fn quiet_score(&self, pos: &Position, rows: &[&[[i16; 64]; 6]; CONTINUATION_PLIES], m: Move) -> i32 {
        let (kind, to) = (mover(pos, m).index(), m.to().index());
        self.butterfly(pos.side_to_move(), m)
            + tp!(CONTINUATION_1_WEIGHT) * rows[0][kind][to] as i32
            + rows[1][kind][to] as i32
            + rows[2][kind][to] as i32
    }

    /// The continuation entries of the quiet move `m` after `prev`, each once.
    #[inline(always)]
    pub fn continuation_sum(&self, pos: &Position, prev: Continuation, m: Move) -> i32 {
        let kind = mover(pos, m).index();
        let mut sum = 0;
        for p in prev.0 {
            if p != Continuation::NONE {
                sum += self.continuation.0[p][kind][m.to().index()] as i32;
            }
        }
        sum
    }

    /// The butterfly score of a quiet move.
    #[inline]
    pub fn butterfly(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()] as i32
    }

    /// Records a quiet killer at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}
