//! Move ordering: a staged picker and the history tables it reads.
//!
//! Stages, in order: the transposition-table move; good captures and queen promotions
//! (most valuable victim first, least valuable attacker next, kept only if static exchange
//! evaluation does not lose material); the two killer moves; the counter-move; the other
//! quiet moves by history score; last the losing captures and under-promotions. Noisy moves
//! are generated first and quiet moves only when a quiet stage is reached (or the TT move
//! is quiet), so a cutoff by the TT move or a capture skips generating quiets. Every legal
//! move is yielded exactly once; a test proves it by running perft through the picker.

use arrayvec::ArrayVec;

use crate::attacks;
use crate::board::Position;
use crate::eval::pawn_attack_span;
use crate::movegen::{MAX_MOVES, MoveList, noisy_moves, quiet_moves};
use crate::params::{CORRECTION_SIZE, CORRECTION_TABLES, CORRECTION_WEIGHT, tp};
use crate::score::MAX_PLY;
use crate::see::SEE_VALUE;
use crate::types::{Bitboard, Color, Move, PieceType};

/// Quiet-move ordering memory, kept between searches (cleared by `ucinewgame`).
pub struct Histories {
    /// Butterfly history: how often a quiet move (by side, from, to) caused a cutoff.
    pub butterfly: [[[i16; 64]; 64]; 2],
    /// Two quiet moves per ply that recently caused cutoffs.
    pub killers: [[Move; 2]; MAX_PLY + 1],
    /// The quiet move that refuted a given move (by moved piece and destination).
    pub counter: [[Move; 64]; 12],
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
fn mover(pos: &Position, m: Move) -> PieceType {
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
/// [`Continuation`]): rows `0..768` for the move one ply back, `768..1536` for the moves of
/// the same side. 1,152 KiB: the caller provides it (a static in the shipped binary),
/// because a searcher built on the stack and moved would touch it twice over.
pub struct ContinuationHistory(pub [[[i16; 64]; 6]; 1536]);

impl ContinuationHistory {
    /// All zero.
    pub const EMPTY: ContinuationHistory = ContinuationHistory([[[0; 64]; 6]; 1536]);
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
            counter: [[Move::NONE; 64]; 12],
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
        self.counter.iter_mut().flatten().for_each(|m| *m = Move::NONE);
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

    /// The history score of the quiet move `m` in `pos`: butterfly plus the continuation
    /// entries after `prev`.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, prev: Continuation, m: Move) -> i32 {
        let kind = mover(pos, m).index();
        let mut score = self.butterfly(pos.side_to_move(), m);
        for (i, p) in prev.0.into_iter().enumerate() {
            if p != Continuation::NONE {
                let weight = if i == 0 { tp!(CONTINUATION_1_WEIGHT) } else { 1 };
                score += weight * self.continuation.0[p][kind][m.to().index()] as i32;
            }
        }
        score
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    ScoreQuiets,
    Quiets,
    BadNoisy,
    QuietChecks,
    Done,
}

/// Yields the legal moves of a position in a good search order.
pub struct MovePicker {
    // Both lists start empty and uninitialised (ArrayVec): zeroing 1.5 KB at every node cost
    // 3-4% of the search's time.
    moves: MoveList,
    /// Ordering key of `moves[i]` (see `key`), kept the same length as `moves`.
    keys: ArrayVec<i32, MAX_MOVES>,
    noisy_end: usize,
    quiets_generated: bool,
    noisy_generated: bool,
    cursor: usize,
    bad: MoveList,
    bad_cursor: usize,
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    prev: Continuation,
    /// Quiet stages are skipped (quiescence out of check, late-move pruning).
    skip_quiets: bool,
    /// Quiescence: no killers, no under-promotions, no losing captures.
    quiescence: bool,
    /// Quiescence: also quiet moves that give check and do not lose material.
    quiet_checks: bool,
}

/// The key of a move already yielded or not to be yielded by score (special moves).
const PICKED: i32 = i32::MIN;

/// A move's ordering key: its score (histories stay far inside the clamp), then the earlier
/// index on equal scores, so that the best move is the plain maximum of the keys, a scan
/// the compiler vectorises.
fn key(score: i32, index: usize) -> i32 {
    const LIMIT: i32 = 1 << 22;
    (score.clamp(-LIMIT, LIMIT - 1) << 8) | (0xFF - index as i32)
}

impl MovePicker {
    /// A picker for the main search; quiets are ordered by history after the moves `prev`.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move, prev: Continuation) -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            keys: ArrayVec::new(),
            noisy_end: 0,
            quiets_generated: false,
            noisy_generated: false,
            cursor: 0,
            bad: MoveList::new(),
            bad_cursor: 0,
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            prev,
            skip_quiets: false,
            quiescence: false,
            quiet_checks: false,
        }
    }

    /// A picker for quiescence search: noisy moves that do not lose material, then (with
    /// `quiet_checks`) quiet checks that do not either; in check, all evasions.
    pub fn new_quiescence(tt_move: Move, in_check: bool, quiet_checks: bool) -> MovePicker {
        let none = Continuation([Continuation::NONE; CONTINUATION_PLIES]);
        let mut p = MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE, none);
        p.quiescence = !in_check;
        p.skip_quiets = !in_check;
        p.quiet_checks = quiet_checks && !in_check;
        if p.quiescence && !tt_move.is_noisy() {
            p.tt_move = Move::NONE;
        }
        p
    }

    /// From now on yields no quiet move (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn generate_noisy(&mut self, pos: &Position, histories: &Histories) {
        if self.noisy_generated {
            return;
        }
        self.noisy_generated = true;
        // Noisy moves go first in the list; quiets, if already there (a quiet TT move was
        // checked first), go behind them, their keys still unset.
        let quiets = self.moves.len();
        if quiets == 0 {
            noisy_moves(pos, &mut self.moves);
        } else {
            let mut list = MoveList::new();
            noisy_moves(pos, &mut list);
            for &m in &self.moves {
                let _ = list.try_push(m);
            }
            self.moves = list;
        }
        let n = self.moves.len() - quiets;
        self.noisy_end = n;
        self.keys.clear();
        for (i, &m) in self.moves[..n].iter().enumerate() {
            let score = noisy_score(pos, m) + histories.capture_score(pos, m);
            let _ = self.keys.try_push(key(score, i));
        }
        self.pad_keys();
    }

    #[inline(always)]
    fn generate_quiets(&mut self, pos: &Position) {
        if self.quiets_generated {
            return;
        }
        self.quiets_generated = true;
        quiet_moves(pos, &mut self.moves);
        self.pad_keys();
    }

    /// Gives the quiet moves at the end of the list placeholder keys, set when the quiet
    /// stage scores them. (`try_push` cannot fail: both lists have the same capacity.)
    fn pad_keys(&mut self) {
        while self.keys.len() < self.moves.len() {
            let _ = self.keys.try_push(0);
        }
    }

    #[inline(always)]
    fn quiet_contains(&self, m: Move) -> bool {
        self.moves[self.noisy_end..].contains(&m)
    }

    #[inline(always)]
    fn noisy_contains(&self, m: Move) -> bool {
        self.moves[..self.noisy_end].contains(&m)
    }

    /// Index of the best-scored unpicked move in `start..end` (the first of equals), if any.
    #[inline(always)]
    fn best_in(&self, start: usize, end: usize) -> Option<usize> {
        // Four running maxima, a vector's lanes: written so, the maximum is vectorised at
        // every optimisation level (the engine is built for size).
        let (chunks, rest) = self.keys[start..end].as_chunks::<4>();
        let mut lanes = [PICKED; 4];
        for chunk in chunks {
            for (lane, &k) in lanes.iter_mut().zip(chunk) {
                *lane = (*lane).max(k);
            }
        }
        let best = rest.iter().fold(lanes[0].max(lanes[1]).max(lanes[2].max(lanes[3])), |a, &k| a.max(k));
        (best != PICKED).then(|| 0xFF - (best & 0xFF) as usize)
    }

    fn is_special(&self, m: Move) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1] || m == self.counter
    }

    /// The next move, or `None` when all have been yielded.
    pub fn next(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    let tt = self.tt_move;
                    if tt == Move::NONE {
                        continue;
                    }
                    // The TT move may come from another position (a key collision): yield
                    // it only if it is legal here.
                    let legal = if tt.is_noisy() {
                        self.generate_noisy(pos, histories);
                        self.noisy_contains(tt)
                    } else {
                        self.generate_quiets(pos);
                        self.quiet_contains(tt)
                    };
                    if legal {
                        return Some(tt);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(pos, histories);
                    self.cursor = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    let Some(i) = self.best_in(0, self.noisy_end) else {
                        self.stage = match (self.quiescence, self.quiet_checks) {
                            (false, _) => Stage::Killer1,
                            (true, true) => Stage::QuietChecks,
                            (true, false) => Stage::Done,
                        };
                        continue;
                    };
                    let m = self.moves[i];
                    self.keys[i] = PICKED;
                    if m == self.tt_move {
                        continue;
                    }
                    let underpromotion = m.promotion().is_some_and(|p| p != PieceType::Queen);
                    if underpromotion || !pos.see_ge(m, 0) {
                        if !self.quiescence {
                            let _ = self.bad.try_push(m);
                        }
                        continue;
                    }
                    return Some(m);
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let m = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::ScoreQuiets,
                    };
                    if m == Move::NONE || m.is_noisy() || m == self.tt_move {
                        continue;
                    }
                    // Not a repeat of an earlier special move.
                    let earlier = match self.stage {
                        Stage::Killer2 => false,
                        Stage::Counter => m == self.killers[0],
                        _ => m == self.killers[0] || m == self.killers[1],
                    };
                    if earlier {
                        continue;
                    }
                    self.generate_quiets(pos);
                    if self.quiet_contains(m) {
                        return Some(m);
                    }
                }
                Stage::ScoreQuiets => {
                    self.stage = Stage::Quiets;
                    if self.skip_quiets {
                        continue;
                    }
                    self.generate_quiets(pos);
                    let threats = lesser_threats(pos);
                    for i in self.noisy_end..self.moves.len() {
                        let m = self.moves[i];
                        self.keys[i] = if self.is_special(m) {
                            PICKED
                        } else {
                            // A piece leaving a square a lesser piece attacks first, one
                            // stepping onto such a square last.
                            let kind = mover(pos, m).index();
                            let t = threats[kind];
                            let escape = t.contains(m.from()) as i32 - t.contains(m.to()) as i32;
                            let bonus = escape * THREAT_LEVEL[kind] * tp!(THREAT_ORDER);
                            key(histories.quiet_score(pos, self.prev, m) + bonus, i)
                        };
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    let Some(i) = self.best_in(self.noisy_end, self.moves.len()) else {
                        self.stage = Stage::BadNoisy;
                        continue;
                    };
                    self.keys[i] = PICKED;
                    return Some(self.moves[i]);
                }
                Stage::BadNoisy => {
                    if self.bad_cursor < self.bad.len() {
                        self.bad_cursor += 1;
                        return Some(self.bad[self.bad_cursor - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::QuietChecks => {
                    if !self.quiets_generated {
                        self.generate_quiets(pos);
                        self.cursor = self.noisy_end;
                    }
                    let info = pos.check_info();
                    while self.cursor < self.moves.len() {
                        let m = self.moves[self.cursor];
                        self.cursor += 1;
                        if m != self.tt_move && pos.gives_check(&info, m) && pos.see_ge(m, 0) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// How much a piece of each kind gains from escaping a lesser attacker: a minor 1, a
/// rook 2, a queen 3 (pawns and kings 0).
const THREAT_LEVEL: [i32; 6] = [0, 1, 1, 2, 3, 0];

/// For each kind of the side to move's pieces, the squares a lesser piece of the opponent
/// attacks: pawns for minors; pawns and minors for rooks; pawns, minors and rooks for queens.
fn lesser_threats(pos: &Position) -> [Bitboard; 6] {
    let them = !pos.side_to_move();
    let occupied = pos.occupied();
    let mut t = [Bitboard::EMPTY; 6];
    let mut by = pawn_attack_span(them, pos.pieces(them, PieceType::Pawn));
    t[1] = by;
    t[2] = by;
    for sq in pos.pieces(them, PieceType::Knight) {
        by |= attacks::knight(sq);
    }
    for sq in pos.pieces(them, PieceType::Bishop) {
        by |= attacks::bishop(sq, occupied);
    }
    t[3] = by;
    for sq in pos.pieces(them, PieceType::Rook) {
        by |= attacks::rook(sq, occupied);
    }
    t[4] = by;
    t
}

/// Most valuable victim first, then least valuable attacker; queen promotions high.
fn noisy_score(pos: &Position, m: Move) -> i32 {
    let victim = if m.is_capture() {
        pos.piece_on(m.to()).map_or(SEE_VALUE[0], |p| SEE_VALUE[p.kind().index()])
    } else {
        0
    };
    let attacker = pos.piece_on(m.from()).map_or(0, |p| p.kind().index() as i32);
    let promotion = match m.promotion() {
        Some(PieceType::Queen) => SEE_VALUE[4],
        Some(_) => -SEE_VALUE[4],
        None => 0,
    };
    victim * 8 - attacker + promotion
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_by_score_then_by_the_earlier_move() {
        assert!(key(5, 200) > key(4, 0));
        assert!(key(5, 1) > key(5, 2));
        assert!(key(-1, 0) > key(-2, 0) && key(0, 255) > key(-1, 0));
        // Scores beyond the clamp keep their order against ordinary ones and never reach
        // or pass PICKED.
        assert!(key(i32::MAX, 255) > key(100_000, 0));
        assert!(key(i32::MIN, 255) > PICKED && key(i32::MIN, 255) < key(-100_000, 0));
        for i in 0..MAX_MOVES {
            assert_eq!(0xFF - (key(-7, i) & 0xFF) as usize, i);
        }
    }

    #[test]
    fn lesser_threats_count_only_cheaper_attackers() {
        crate::attacks::init();
        let sq = |name: &str| crate::types::Square::parse(name.as_bytes()).unwrap();
        let mut pos = Position::empty();
        for (color, kind, at) in [
            (Color::White, PieceType::King, "e1"),
            (Color::White, PieceType::Knight, "d5"),
            (Color::White, PieceType::Rook, "c4"),
            (Color::White, PieceType::Queen, "h5"),
            (Color::Black, PieceType::King, "e8"),
            (Color::Black, PieceType::Pawn, "e6"),
            (Color::Black, PieceType::Bishop, "a6"),
            (Color::Black, PieceType::Rook, "h8"),
        ] {
            pos.put(crate::types::Piece::new(color, kind), sq(at));
        }
        pos.finish_setup();
        let t = lesser_threats(&pos);
        // The pawn threatens the knight's square; the bishop the rook's but not a minor's;
        // the rook the queen's but not a rook's; nothing counts for pawns or the king.
        assert!(
            t[PieceType::Knight.index()].contains(sq("d5"))
                && t[PieceType::Bishop.index()].contains(sq("f5"))
        );
        assert!(
            !t[PieceType::Knight.index()].contains(sq("c4")) && t[PieceType::Rook.index()].contains(sq("c4"))
        );
        assert!(
            !t[PieceType::Rook.index()].contains(sq("h5")) && t[PieceType::Queen.index()].contains(sq("h5"))
        );
        assert!(!t[PieceType::Queen.index()].contains(sq("h4")), "the queen blocks the rook's file");
        assert!(t[PieceType::Pawn.index()].is_empty() && t[PieceType::King.index()].is_empty());
    }
}
