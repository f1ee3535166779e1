//! Move ordering: a staged picker over the history tables of [`crate::history`].
//!
//! Stages, in order: the transposition-table move; good captures and queen promotions
//! (most valuable victim first, least valuable attacker next, kept only if static exchange
//! evaluation does not lose material); the two killer moves; the counter-move; the other
//! quiet moves by history score; last the losing captures and under-promotions. The TT
//! move, killers and counter-move are tested by generating only their piece's moves to
//! their square; noisy moves are generated after the TT move and quiet moves only when the
//! quiet stage is reached, so a cutoff skips the lists it did not need. Every legal move is
//! yielded exactly once; a test proves it by running perft through the picker.

use arrayvec::ArrayVec;

use crate::attacks;
use crate::board::Position;
use crate::eval::pawn_attack_span;
use crate::movegen::{MAX_MOVES, MoveList, is_legal, noisy_moves, quiet_moves};
use crate::params::tp;
use crate::see::SEE_VALUE;
use crate::types::{Bitboard, Move, PieceType};

use crate::history::{CONTINUATION_PLIES, Continuation, Histories, mover};

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
        if p.quiescence && !tt_move.is_noisy() && tp!(QS_TT_QUIET) == 0 {
            p.tt_move = Move::NONE;
        }
        p
    }

    /// From now on yields no quiet move (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn generate_noisy(&mut self, pos: &Position, histories: &Histories) {
        self.noisy_generated = true;
        noisy_moves(pos, &mut self.moves);
        let n = self.moves.len();
        self.noisy_end = n;
        for (i, &m) in self.moves[..n].iter().enumerate() {
            let score = noisy_score(pos, m) + histories.capture_score(pos, m);
            let _ = self.keys.try_push(key(score, i));
        }
    }

    #[inline(always)]
    fn generate_quiets(&mut self, pos: &Position) {
        if self.quiets_generated {
            return;
        }
        self.quiets_generated = true;
        quiet_moves(pos, &mut self.moves);
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
                    // it only if it is legal here. A noisy one is looked for in the captures,
                    // scored before it is searched (scored after, with what its subtree taught
                    // the histories: 46.2% in 538 games against this at 20,000 nodes).
                    let legal = if tt.is_noisy() {
                        self.generate_noisy(pos, histories);
                        self.moves[..self.noisy_end].contains(&tt)
                    } else {
                        is_legal(pos, tt)
                    };
                    if legal {
                        return Some(tt);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenerateNoisy => {
                    if !self.noisy_generated {
                        self.generate_noisy(pos, histories);
                    }
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
                    if is_legal(pos, m) {
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
                    let rows = histories.continuation_rows(self.prev);
                    // The keys go on behind the noisy moves' (the quiescence's quiet checks
                    // need none).
                    for i in self.noisy_end..self.moves.len() {
                        let m = self.moves[i];
                        let k = if self.is_special(m) {
                            PICKED
                        } else {
                            // A piece leaving a square a lesser piece attacks first, one
                            // stepping onto such a square last.
                            let kind = mover(pos, m).index();
                            let t = threats[kind];
                            let escape = t.contains(m.from()) as i32 - t.contains(m.to()) as i32;
                            let bonus = escape * THREAT_LEVEL[kind] * tp!(THREAT_ORDER);
                            key(histories.quiet_score(pos, &rows, m) + bonus, i)
                        };
                        let _ = self.keys.try_push(k);
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
    use crate::types::Color;

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
