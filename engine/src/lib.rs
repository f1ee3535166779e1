//! minnow's engine: evaluation, move ordering, search, transposition table and time
//! management, on top of the board crate (`minnow-board`), whose modules it re-exports so
//! that one path (`minnow_engine::board`, `minnow::board`) reaches everything. Nothing
//! here talks to the outside: that is the front end (`minnow-frontend`).
//!
//! `no_std` and allocation-free so that the shipped binary needs no Rust runtime; tests,
//! benches and tools use it through the same API (re-exported by the `minnow` crate).
#![no_std]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub use minnow_board::{
    Bitboard, CastlingRights, Color, Move, Piece, PieceType, Position, Square, attacks, board, defs, movegen,
    perft, rules, see, tablegen, types,
};

pub mod eval;
pub mod eval_weights;
pub mod history;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod score;
pub mod search;
#[cfg(feature = "stats")]
pub mod stats;
pub mod time;
pub mod tt;

/// The evaluation this build embeds, for `id name`: the network's file name without its
/// extension (`gen11`, from `engine/build.rs`), or `hce` for the hand-crafted evaluation.
pub const EVAL_NAME: &str = if cfg!(feature = "nnue") { env!("MINNOW_NET_NAME") } else { "hce" };

/// The static evaluation of `pos` in centipawns from its side to move's view, computed from
/// scratch: the evaluation the search uses (the network with the `nnue` feature, else the
/// hand-crafted one).
pub fn static_eval(pos: &Position) -> i32 {
    #[cfg(feature = "nnue")]
    return nnue::evaluate(pos);
    #[cfg(not(feature = "nnue"))]
    eval::evaluate(pos)
}
