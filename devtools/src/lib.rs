//! minnow's development tools: self-play data generation (`datagen`), the NNUE trainer
//! (`train`) and the opening book's generator (`book`). They use the very library the engine is built from (`minnow`), with `std`,
//! threads and files on their side; none of this is in the shipped binary.

pub mod book;
pub mod format;
pub mod nnue;
pub mod openings;
pub mod rng;
pub mod selfplay;
pub mod teacher;
