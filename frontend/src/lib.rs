//! minnow's front end: the cold code, compiled for size (`opt-level = "z"`). The UCI
//! protocol (parsing commands, printing answers, options, `go` limits) and the `bench`
//! positions, FEN reading and writing, and the opening book's reader. It runs a few times a move at most; the search it drives lives in
//! `minnow-engine`, compiled for speed, and is reached through a `dyn SearchHost` so that
//! none of the search is compiled here.
#![no_std]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub mod bench;
pub mod book;
pub mod fen;
pub mod uci;
