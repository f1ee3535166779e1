//! minnow's development tools: self-play data generation, teacher labels and Stockfish's
//! records imported (`datagen`), the NNUE trainer (`train`), the opening book's generator
//! (`book`) and the hand-crafted evaluation's tuner (`tune`). They use the very library the
//! engine is built from (`minnow`), with `std`, threads and files on their side; none of
//! this is in the shipped binary.

pub mod book;
pub mod dataset;
pub mod format;
pub mod nnue;
pub mod openings;
pub mod rng;
pub mod selfplay;
pub mod sfbin;
pub mod teacher;
