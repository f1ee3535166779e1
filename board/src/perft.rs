//! Perft: counts the leaf nodes of the legal move tree, the standard correctness and
//! speed test of a move generator.

use crate::board::Position;
use crate::movegen::{MoveList, legal_moves};
use crate::types::Move;

/// Number of leaf nodes `depth` plies below `pos`. At depth 1 the legal moves are counted
/// without being played ("bulk counting"), as Stockfish's `go perft` does.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
}

/// Perft split by root move: calls `report(move, count)` for each legal move in generation
/// order and returns the total.
#[inline(never)]
pub fn divide(pos: &Position, depth: u32, mut report: impl FnMut(Move, u64)) -> u64 {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let mut total = 0;
    for &m in &list {
        let n = if depth <= 1 { 1 } else { perft(&pos.after(m), depth - 1) };
        report(m, n);
        total += n;
    }
    total
}
