//! minnow: a small chess engine for the Kaggle "FIDE & Google Efficient Chess AI
//! Challenge" (64 KiB submission, 5 MiB of memory, one core, 10 s + 0.1 s a move).
//!
//! The library is `no_std` and allocation-free so that the shipped binary (`src/main.rs`)
//! needs no Rust runtime; tests, benches and tools use it through the same API.
#![no_std]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub mod attacks;
pub mod bench;
pub mod board;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod movepick;
pub mod params;
pub mod perft;
pub mod rules;
pub mod search;
pub mod see;
pub mod tablegen;
pub mod time;
pub mod tt;
pub mod types;
pub mod uci;

pub use board::Position;
pub use types::{Bitboard, CastlingRights, Color, Move, Piece, PieceType, Square};
