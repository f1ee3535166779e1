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
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;
