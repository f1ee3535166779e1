//! minnow: a small chess engine for the Kaggle "FIDE & Google Efficient Chess AI
//! Challenge" (64 KiB submission, 5 MiB of memory, one core, 10 s + 0.1 s a move).
//!
//! This crate is the library as its users see it: it re-exports the hot engine
//! (`minnow-engine`, in `engine/`, built for speed) and the front end (`minnow-frontend`,
//! in `frontend/`, built for size) under one name, and holds the shipped binary
//! (`src/main.rs`). Both halves are `no_std` and allocation-free, so the binary needs no
//! Rust runtime; tests, benches and tools use the very same code through this crate.
#![no_std]
#![warn(missing_docs)]

pub use minnow_engine::{
    Bitboard, CastlingRights, Color, EVAL_NAME, Move, Piece, PieceType, Position, Square, attacks, board,
    defs, eval, eval_weights, history, movegen, movepick, nnue, params, perft, rules, score, search, see,
    static_eval, tablegen, time, tt, types,
};
pub use minnow_frontend::{bench, book, fen, uci};
