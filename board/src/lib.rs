//! minnow's board: the position, legal move generation, attack tables, static exchange
//! evaluation, perft and the draw rules. The hottest code of all (every node makes moves
//! and generates them), compiled for speed.
//!
//! `no_std` and allocation-free, like the rest of the engine. Modules only import
//! downwards: [`defs`] at the bottom imports nothing from the crate.
#![no_std]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub mod attacks;
pub mod board;
pub mod defs;
pub mod movegen;
pub mod perft;
pub mod rules;
pub mod see;
pub mod tablegen;
pub mod types;

pub use board::Position;
pub use types::{Bitboard, CastlingRights, Color, Move, Piece, PieceType, Square};
