//! minnow's development tools: self-play data generation (`datagen`) and the NNUE trainer
//! (`train`). They use the very library the engine is built from (`minnow`), with `std`,
//! threads and files on their side; none of this is in the shipped binary.

pub mod format;
pub mod nnue;
pub mod rng;
pub mod selfplay;
