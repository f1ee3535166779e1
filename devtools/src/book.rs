//! The opening book's method and its encoder (the engine's reader is `minnow::book`).
//!
//! **Method (Tera-shock, from computer shogi):** a book of *searched* positions rather than of
//! game statistics. For each of the harness's openings `R` a small tree is grown and every
//! leaf is searched deeply; the leaf scores are backed up by negamax, and a position's book
//! move is the one with the best backed-up value, so a move that looked best at the root but
//! is refuted deeper drops out by itself.
//!
//! - At every node of the tree (the opening `R`, then each position one ply after it) the
//!   candidates are the `width` moves whose child positions score best in a short search of
//!   `select_nodes` nodes each (a multi-PV search by hand: every legal move is tried).
//! - The tree is `plies` deep (2 by default): `R`, its `width` candidate children `C_i`
//!   (the opponent's likely replies when we are the one who moves in `R`, or the opponent's
//!   likely first moves when it moves first), their `width` candidates each, and the leaves
//!   under them, each searched with `leaf_nodes` nodes.
//! - Values are backed up by negamax; every interior node records its best move. `R` and each
//!   `C_i` with its best move become book entries, `C_i` ranked by its backed-up value (the
//!   move a strong opponent is likeliest to play first).
//!
//! Every opening is grown by one searcher cleared beforehand, in a fixed order, with node
//! limits only, so the result does not depend on the thread or the machine's speed.

use crate::selfplay::QuietHost;
use minnow::Position;
use minnow::book::{HEADER, MAGIC};
use minnow::movegen::legal_move_list;
use minnow::rules::Rules;
use minnow::search::{MATE, Searcher};
use minnow::time::Limits;
use minnow::types::Move;
use std::time::Instant;

/// Settings of a book tree.
#[derive(Clone, Copy, Debug)]
pub struct TreeConfig {
    /// Candidate moves kept at each interior node.
    pub width: usize,
    /// Depth of the tree in plies (leaves at this depth).
    pub plies: usize,
    /// Nodes of the short search that ranks each legal move.
    pub select_nodes: u64,
    /// Nodes of each leaf's search.
    pub leaf_nodes: u64,
}

/// A candidate move of the opening with its backed-up value (from the opening's side to move)
/// and the best answer found to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move from the opening.
    pub mv: Move,
    /// Backed-up value of the move, from the view of the side to move in the opening.
    pub value: i32,
    /// The best answer in the position after `mv` (`Move::NONE` if it has no legal move).
    pub answer: Move,
}

/// The grown tree of one opening, reduced to what the book needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningResult {
    /// The candidates, best backed-up value first (the first is the book move).
    pub candidates: Vec<Candidate>,
    /// Nodes searched for this opening.
    pub nodes: u64,
}

struct Grower<'a> {
    searcher: &'a mut Searcher,
    cfg: TreeConfig,
    host: QuietHost,
    nodes: u64,
}

impl Grower<'_> {
    /// Value of `pos` from its side to move's view: exact when the game is over there (no
    /// legal move), else a search of `nodes`.
    fn value(&mut self, pos: &Position, history: &[u64], nodes: u64) -> i32 {
        if legal_move_list(pos).is_empty() {
            return if pos.in_check() { -MATE } else { 0 };
        }
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let r = self.searcher.search(pos, history, limits, 0, &mut self.host);
        self.nodes += r.nodes;
        r.score
    }

    /// The `width` best moves of `pos` by a short search of each child (best first; ties
    /// keep the move generator's order); `child_history` is `pos`'s history with `pos`.
    fn candidates(&mut self, pos: &Position, child_history: &[u64]) -> Vec<Move> {
        let mut scored: Vec<(Move, i32)> = legal_move_list(pos)
            .iter()
            .map(|&m| {
                let mut child = *pos;
                child.make(m);
                (m, -self.value(&child, child_history, self.cfg.select_nodes))
            })
            .collect();
        scored.sort_by_key(|&(_, v)| -v);
        scored.into_iter().take(self.cfg.width).map(|(m, _)| m).collect()
    }

    /// Negamax value of `pos` (side to move's view) with `plies` of tree below it, and the
    /// candidate list at this node, best first, each with its backed-up value and the best
    /// answer to it.
    fn grow(&mut self, pos: &Position, history: &[u64], plies: usize) -> (i32, Vec<(Move, i32, Move)>) {
        if plies == 0 || legal_move_list(pos).is_empty() {
            // A leaf, or the game is over here (then `value` gives the exact score).
            return (self.value(pos, history, self.cfg.leaf_nodes), Vec::new());
        }
        let mut child_history = history.to_vec();
        child_history.push(self.searcher.rules.repetition_key(pos, history.is_empty()));
        let mut backed = Vec::new();
        for m in self.candidates(pos, &child_history) {
            let mut child = *pos;
            child.make(m);
            let (value, below) = self.grow(&child, &child_history, plies - 1);
            let answer = below.first().map_or(Move::NONE, |c| c.0);
            backed.push((m, -value, answer));
        }
        // Best backed-up value first; a stable sort keeps the short search's order on ties.
        backed.sort_by_key(|&(_, v, _)| -v);
        (backed[0].1, backed)
    }
}

/// Grows the book tree of `opening` (the first position of a game, so no history) with a
/// searcher playing by `rules`. The searcher is cleared first.
pub fn grow_opening(
    searcher: &mut Searcher,
    rules: Rules,
    opening: &Position,
    cfg: TreeConfig,
) -> OpeningResult {
    searcher.clear();
    searcher.rules = rules;
    let mut grower = Grower { searcher, cfg, host: QuietHost(Instant::now()), nodes: 0 };
    let plies = cfg.plies.max(1);
    let (_, backed) = grower.grow(opening, &[], plies);
    let candidates = backed.into_iter().map(|(mv, value, answer)| Candidate { mv, value, answer }).collect();
    OpeningResult { candidates, nodes: grower.nodes }
}

/// Why an entry was left out of an encoded book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeStats {
    /// Entries written.
    pub entries: usize,
    /// Entries dropped because an earlier entry had the same key (same position, or a
    /// collision of the top key bits).
    pub duplicates: usize,
    /// Entries dropped because the move index did not fit (never with legal moves).
    pub too_many: usize,
}

/// A little-endian bit writer.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitWriter {
    fn bit(&mut self, b: bool) {
        if self.bits.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if b {
            *self.bytes.last_mut().expect("pushed above") |= 1 << (self.bits % 8);
        }
        self.bits += 1;
    }

    fn rice(&mut self, v: u64, k: u8) {
        for _ in 0..(v >> k) {
            self.bit(true);
        }
        self.bit(false);
        for i in 0..k {
            self.bit((v >> i) & 1 == 1);
        }
    }
}

/// The Rice parameter up to `max` that codes `values` in the fewest bits.
fn best_k(values: &[u64], max: u8) -> u8 {
    (0..=max).min_by_key(|&k| values.iter().map(|v| (v >> k) + 1 + u64::from(k)).sum::<u64>()).unwrap_or(0)
}

/// Encodes `entries` (position key, index of the move in the position's legal-move list), in
/// order of priority (an entry whose key collides with an earlier one is dropped), as an
/// `MBK1` book whose keys have `fingerprint` bits more than the entry count needs, for
/// positions at full-move number `fullmove` (0: any; 1..=255).
pub fn encode(entries: &[(u64, usize)], fingerprint: u32, fullmove: u8) -> (Vec<u8>, EncodeStats) {
    let n = entries.len().clamp(1, u16::MAX as usize);
    let key_bits = ((usize::BITS - (n - 1).leading_zeros()) + fingerprint).clamp(1, 48);
    let mut stats = EncodeStats { entries: 0, duplicates: 0, too_many: 0 };
    let mut keyed: Vec<(u64, u64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &(key, index) in entries {
        let top = key >> (64 - key_bits);
        if keyed.len() >= u16::MAX as usize || index > 255 {
            stats.too_many += 1;
        } else if seen.insert(top) {
            keyed.push((top, index as u64));
        } else {
            stats.duplicates += 1;
        }
    }
    keyed.sort_unstable();
    stats.entries = keyed.len();
    let gaps: Vec<u64> =
        keyed.iter().scan(0u64, |prev, &(k, _)| Some(k - std::mem::replace(prev, k))).collect();
    let indices: Vec<u64> = keyed.iter().map(|&(_, i)| i).collect();
    let (gap_k, move_k) = (best_k(&gaps, 47), best_k(&indices, 8));
    let mut w = BitWriter::default();
    for (&gap, &(_, index)) in gaps.iter().zip(&keyed) {
        w.rice(gap, gap_k);
        w.rice(index, move_k);
    }
    let mut out = Vec::with_capacity(HEADER + w.bytes.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(keyed.len() as u16).to_le_bytes());
    out.extend_from_slice(&[key_bits as u8, gap_k, move_k, fullmove]);
    out.extend_from_slice(&w.bytes);
    (out, stats)
}

/// The index of `mv` in `pos`'s legal-move list (what the book stores), if legal.
pub fn move_index(pos: &Position, mv: Move) -> Option<usize> {
    legal_move_list(pos).iter().position(|&m| m == mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::selfplay::tool_searcher;
    use minnow::book::probe;

    /// Random positions a few plies from the start, all different.
    fn positions(n: usize) -> Vec<Position> {
        let mut rng = Rng::new(5, 0);
        let mut out: Vec<Position> = Vec::new();
        while out.len() < n {
            let mut pos = Position::startpos();
            for _ in 0..(4 + rng.below(12)) {
                let moves = legal_move_list(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.below(moves.len())]);
            }
            if !legal_move_list(&pos).is_empty() && out.iter().all(|p| p.key() != pos.key()) {
                out.push(pos);
            }
        }
        out
    }

    /// Every encoded entry reads back with its move; positions not in the book mostly miss
    /// (a hit by chance is about 1 in 2^fingerprint) and any hit is a legal move.
    #[test]
    fn encoded_books_read_back() {
        let all = positions(1500);
        let (inside, outside) = all.split_at(1000);
        let mut rng = Rng::new(6, 0);
        let entries: Vec<(u64, usize)> =
            inside.iter().map(|p| (p.key(), rng.below(legal_move_list(p).len()))).collect();
        let (book, stats) = encode(&entries, 8, 0);
        assert_eq!(stats.entries + stats.duplicates, 1000);
        assert!(stats.duplicates <= 10, "{stats:?}");
        let mut found = 0;
        for (pos, &(_, index)) in inside.iter().zip(&entries) {
            if let Some(m) = probe(&book, pos) {
                found += 1;
                if stats.duplicates == 0 {
                    assert_eq!(m, legal_move_list(pos)[index]);
                }
            }
        }
        assert!(found >= 1000 - stats.duplicates, "{found} of 1000 found");
        let false_hits = outside.iter().filter(|p| probe(&book, p).is_some()).count();
        assert!(false_hits <= 10, "{false_hits} of 500 positions outside the book hit");
        // About 16 bits an entry: 10-bit gaps and 5-bit move indices.
        assert!(book.len() < 1000 * 18 / 8, "{} bytes", book.len());
    }

    /// A malformed book never panics and never gives an illegal move.
    #[test]
    fn malformed_books_are_not_trusted() {
        let all = positions(200);
        let entries: Vec<(u64, usize)> = all.iter().map(|p| (p.key(), 0)).collect();
        let (book, _) = encode(&entries, 8, 0);
        let mut rng = Rng::new(7, 0);
        for trial in 0..300 {
            let mut bad = book.clone();
            match trial % 3 {
                0 => bad.truncate(rng.below(book.len())),
                1 => {
                    let i = rng.below(bad.len());
                    bad[i] ^= 1 << rng.below(8);
                }
                _ => bad.iter_mut().skip(HEADER).for_each(|b| *b = 0xFF),
            }
            for pos in all.iter().take(20) {
                if let Some(m) = probe(&bad, pos) {
                    assert!(legal_move_list(pos).contains(&m));
                }
            }
        }
        assert_eq!(probe(&[], &all[0]), None);
        assert_eq!(probe(b"MBK1\x05\x00\x63\x00\x00\x00", &all[0]), None);
        // A book for another full-move number has nothing for these positions.
        let moves: Vec<u16> = all.iter().map(|p| p.fullmove_number()).collect();
        let (book, _) = encode(&entries, 8, 200);
        assert!(moves.iter().all(|&m| m != 200));
        assert!(all.iter().all(|p| probe(&book, p).is_none()));
    }

    /// Growing a tree: deterministic, candidates best first, each answer legal where played.
    #[test]
    fn trees_are_deterministic_and_backed_up() {
        let cfg = TreeConfig { width: 2, plies: 2, select_nodes: 300, leaf_nodes: 2000 };
        let opening = positions(1)[0];
        let a = grow_opening(&mut tool_searcher(1), Rules::Kaggle, &opening, cfg);
        let mut s = tool_searcher(1);
        // A used searcher gives the same tree: it is cleared first.
        let _ = grow_opening(&mut s, Rules::Kaggle, &Position::startpos(), cfg);
        let b = grow_opening(&mut s, Rules::Kaggle, &opening, cfg);
        assert_eq!(a, b);
        assert_eq!(a.candidates.len(), 2);
        assert!(a.candidates[0].value >= a.candidates[1].value);
        for c in &a.candidates {
            let mut child = opening;
            child.make(c.mv);
            assert!(legal_move_list(&child).contains(&c.answer));
        }
        assert!(a.nodes > 4 * 2000);
    }
}
